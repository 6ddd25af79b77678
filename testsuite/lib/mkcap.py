#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Frames from a Python program on stdin, written as pcap or pcapng on
stdout: a small capture writer of the host tests (dump-decoder.bats),
written from the pcap, pcapng and Linux cooked formats and
Documentation/record-format.md, independent of the decoder. The program
sets OUT to the file's bytes with the helpers defined here (ip4, udp,
tcp, record, eth, ..., and CLC messages: clc, smcd_acc_v2, ...).

    mkcap.py < PROGRAM > CAPTURE
"""
import struct, sys

def csum(b):
    if len(b) % 2:
        b += b"\0"
    s = sum(struct.unpack("!%dH" % (len(b) // 2), b))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return (~s) & 0xffff

def ip4(proto, payload, src="10.0.0.1", dst="10.0.0.2"):
    a = bytes(int(x) for x in src.split("."))
    b = bytes(int(x) for x in dst.split("."))
    h = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(payload), 1, 0, 64,
                    proto, 0, a, b)
    h = h[:10] + struct.pack("!H", csum(h)) + h[12:]
    return h + payload

def udp(payload, sport=40000, dport=7):
    return struct.pack("!HHHH", sport, dport, 8 + len(payload), 0) + payload

def tcp(payload, seq, flags=0x18, sport=40000, dport=5201):
    return struct.pack("!HHIIBBHHH", sport, dport, seq, 1, 0x50, flags,
                       65535, 0, 0) + payload

def record(token, offset, data, seq=1, rx=False, mode=1, typ=1, flags=0):
    # Documentation/record-format.md: hdr_ver 3, 32-byte header
    f = flags | (1 if rx else 0)
    return struct.pack("!IBBBBHBBIIIQ", 0xCFD3E7A5, 3, 2, mode, typ,
                       32 + len(data), 32, f, seq, token, len(data),
                       offset) + data

def eth(l3, smac=b"\x02\0\0\0\0\x01", dmac=b"\x02\0\0\0\0\x01",
        etype=0x0800):
    return dmac + smac + struct.pack("!H", etype) + l3

def sll(inner, proto=0x0800, pkttype=0, hatype=1):
    return struct.pack("!HHH8sH", pkttype, hatype, 6, b"\x02\0\0\0\0\x01",
                       proto) + inner

def sll2(inner, proto=0x0800, ifindex=5, pkttype=0, hatype=1):
    return struct.pack("!HHIHBB8s", proto, 0, ifindex, hatype, pkttype, 6,
                       b"\x02\0\0\0\0\x01") + inner

def pcap(frames, dlt, ts=1700000000):
    out = struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 262144, dlt)
    for i, f in enumerate(frames):
        out += struct.pack("<IIII", ts, i, len(f), len(f)) + f
    return out

def block(t, body):
    body += b"\0" * (-len(body) % 4)
    n = 12 + len(body)
    return struct.pack("<II", t, n) + body + struct.pack("<I", n)

def pcapng(ifaces, frames, ts=1700000000):
    # ifaces: link types; frames: (interface, bytes)
    out = block(0x0a0d0d0a, struct.pack("<IHHq", 0x1a2b3c4d, 1, 0, -1))
    for dlt in ifaces:
        out += block(1, struct.pack("<HHI", dlt, 0, 262144))
    for i, (ifc, f) in enumerate(frames):
        t = ts * 1000000 + i
        out += block(6, struct.pack("<IIIII", ifc, t >> 32, t & 0xffffffff,
                                    len(f), len(f)) + f)
    return out

# CLC messages as Linux 6.12 net/smc/smc_clc.h lays them out, carried in
# TCP segments (dump-decoder.bats)
EYE_D = bytes.fromhex("e2d4c3c4")   # "SMCD" in EBCDIC

def clc(typ, body, version=2, typev1=1, typev2=0):
    # header: eyecatcher, type, length, version:4 typev2:2 typev1:2;
    # trailer: eyecatcher
    n = 8 + len(body) + 4
    return (EYE_D + struct.pack("!BHB", typ, n,
            version << 4 | typev2 << 2 | typev1) + body + EYE_D)

def smcd_acc_v2(extra=b"", fce=b""):
    # gid, token, dmbe idx/size, reserved, link id, chid, eid, gid_ext
    return (struct.pack("!QQBB2sI", 0x1111, 0x2222, 1, 0x10, b"", 7) +
            struct.pack("!H", 0x00ab) + b"EID".ljust(32, b" ") +
            struct.pack("!Q", 0) + fce + extra)

def fce_v2x(host=b"host1"):
    # v2_direct/reserved, os_type<<4|release, reserved, hostname,
    # max_conns, max_links, feature_mask, vendor options, reserved
    return (struct.pack("!BBH", 0, 2 << 4 | 1, 0) + host.ljust(32, b"\0") +
            struct.pack("!BBHI", 0, 0, 1, 0) + bytes(8))

def clc_frames(msgs, seq=1000):
    # one TCP segment per message, client to server, in sequence
    out = []
    for m in msgs:
        out.append(eth(ip4(6, tcp(m, seq)), smac=b"\x02\0\0\0\0\x0a",
                       dmac=b"\x02\0\0\0\0\x0b"))
        seq += len(m)
    return out

env = dict(globals())
exec(sys.stdin.read(), env)
sys.stdout.buffer.write(env["OUT"])
