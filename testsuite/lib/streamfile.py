#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a stream file that `smc dump follow` wrote from a capture of
testsuite/tools/gen-smcdump-pcap, whose data byte at stream offset i is
i & 0xff.

    streamfile.py FILE LEN            bytes 0..LEN-1 are i & 0xff
    streamfile.py FILE LEN HOLE       the same in blocks of HOLE bytes that
                                      alternate with HOLE bytes of zeros
                                      (holes the follow file leaves zero)

Exit 0 if FILE is exactly that, else 1 with the first differing offsets.
"""
import sys

def want(n, hole):
    if not hole:
        return bytes(i & 0xff for i in range(n))
    return bytes((i & 0xff) if (i // hole) % 2 == 0 else 0 for i in range(n))

def main(argv):
    if len(argv) not in (3, 4):
        sys.exit(__doc__)
    path, n = argv[1], int(argv[2])
    hole = int(argv[3]) if len(argv) == 4 else 0
    d = open(path, "rb").read()
    w = want(n, hole)
    if d != w:
        bad = [i for i in range(min(len(d), n)) if d[i] != w[i]][:5]
        sys.exit("%s: %d bytes, want %d; first differing %s" %
                 (path, len(d), n, bad))

if __name__ == "__main__":
    main(sys.argv)
