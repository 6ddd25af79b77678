#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Shift every timestamp of a classic pcap file by a fixed time: the
capture a host with its clock that far ahead (negative: behind) would
have written. For smc dump merge's tests.

    pcap_shift.py IN OUT [-]SEC[.FRAC] [PPM]

PPM: the clock also runs PPM parts per million fast (negative: slow),
from the first record on: a time t becomes t + shift + (t - t_first) *
PPM / 1000000, rounded down to the file's resolution.

Microsecond and nanosecond pcap, either byte order; pcapng is refused.
The shift is exact (FRAC in the file's resolution: more digits than it
has are refused).
"""
import struct
import sys


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    ppm = 0
    if len(sys.argv) == 5:
        try:
            ppm = int(sys.argv[4])
        except ValueError:
            sys.exit("bad rate %r (whole parts per million)" % sys.argv[4])
    data = bytearray(open(sys.argv[1], "rb").read())
    if len(data) < 24:
        sys.exit("%s: not a pcap file (too short)" % sys.argv[1])
    magic = {b"\xd4\xc3\xb2\xa1": ("<", 6), b"\xa1\xb2\xc3\xd4": (">", 6),
             b"\x4d\x3c\xb2\xa1": ("<", 9), b"\xa1\xb2\x3c\x4d": (">", 9)}
    if bytes(data[:4]) not in magic:
        sys.exit("%s: not a classic pcap file" % sys.argv[1])
    order, digits = magic[bytes(data[:4])]
    arg = sys.argv[3]
    neg = arg.startswith("-")
    sec, _, frac = arg.lstrip("-").partition(".")
    if not sec.isdigit() or (frac and not frac.isdigit()) or len(frac) > digits:
        sys.exit("bad shift %r (at most %d fractional digits)" % (arg, digits))
    unit = 10 ** digits
    shift = int(sec) * unit + int(frac.ljust(digits, "0") or 0)
    if neg:
        shift = -shift
    off = 24
    hdr = order + "IIII"
    first = None
    while off + 16 <= len(data):
        s, f, caplen, _ = struct.unpack_from(hdr, data, off)
        t = s * unit + f
        if first is None:
            first = t
        t += shift + (t - first) * ppm // 1000000
        if t < 0:
            sys.exit("the shift makes a time negative")
        struct.pack_into(order + "II", data, off, t // unit, t % unit)
        off += 16 + caplen
    if off != len(data):
        sys.exit("%s: cut off in a record" % sys.argv[1])
    open(sys.argv[2], "wb").write(data)


main()
