#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""CLC messages built from the struct layouts of Linux 6.12
net/smc/smc_clc.h, printed as gen-smcdump-pcap tcp lines; imported by the
host tests (from clc_messages import *).
"""
import struct, sys

EYE_R = bytes([0xe2, 0xd4, 0xc3, 0xd9])   # "SMCR" in EBCDIC
EYE_D = bytes([0xe2, 0xd4, 0xc3, 0xc4])   # "SMCD"

def hdr(typ, length, ver, typev2, typev1, eye=EYE_R):
    # version:4 typev2:2 typev1:2 (__BIG_ENDIAN_BITFIELD order)
    return eye + struct.pack(">BHB", typ, length,
                             ver << 4 | typev2 << 2 | typev1)

def proposal(ism_gid, chid, ueids, seid, gidchids, eid_cnt=None,
             gid_cnt=None, typev1=1, typev2=1):
    has_pfx = typev1 != 2
    length = 40 + 40 + (8 if has_pfx else 0) + 40 + 32 * len(ueids) + \
        48 + 10 * len(gidchids) + 4
    b = hdr(1, length, 2, typev2, typev1)
    b += b"\x11" * 8 + bytes(16) + bytes(6) + \
        struct.pack(">H", 40 if has_pfx else 0)
    v2off = 40 - 12 + (8 if has_pfx else 0)
    b += struct.pack(">QHH", ism_gid, chid, v2off) + bytes(28)
    if has_pfx:
        b += bytes([192, 168, 7, 0, 24, 0, 0, 0])
    ec = len(ueids) if eid_cnt is None else eid_cnt
    gc = len(gidchids) if gid_cnt is None else gid_cnt
    sv2off = 40 - 8 + 32 * len(ueids)
    b += struct.pack(">BBBBBBH", ec, gc, 0, 0x10, 0, 0, sv2off) + \
        bytes(16) + bytes([0, 0]) + struct.pack(">H", 3) + bytes(12)
    for e in ueids:
        b += e.ljust(32, b" ")[:32]
    b += seid.ljust(32, b"\0")[:32] + bytes(16)
    for g, c in gidchids:
        b += struct.pack(">QH", g, c)
    return b + EYE_R

def accept_smcd(typ, gid, token, chid, eid, first, ver=2):
    length = (78 if ver >= 2 else 48) + (52 if first and ver >= 2 else 0)
    b = hdr(typ, length, ver, 2 if first else 0, 1, EYE_D)
    b += struct.pack(">QQBBHI", gid, token, 0, 0x40, 0, 0x01020304)
    if ver >= 2:
        b += struct.pack(">H", chid) + eid[:32].ljust(32, b"\0") + bytes(8)
        if first:
            b += bytes([0x80, 0x21, 0, 0]) + b"smc-host".ljust(32, b"\0") + \
                bytes(2) + struct.pack(">HI", 3, 0) + bytes(8)
    else:
        b += bytes(12)
    return b + EYE_D

def accept_smcr(typ, qpn, token, eid, first, ver=2):
    length = (108 if ver >= 2 else 68) + (52 if first and ver >= 2 else 0)
    if first and ver >= 2 and typ == 3:
        length += 4 + 16
    b = hdr(typ, length, ver, 2 if first else 0, 0)
    b += b"\x33" * 8 + bytes(15) + b"\x01" + bytes([2, 0, 0, 0, 0, 9])
    b += qpn.to_bytes(3, "big") + struct.pack(">IBI", 0x4242, 1, token)
    b += bytes([0x53, 0]) + struct.pack(">Q", 0xfeed0000) + bytes(1) + \
        (4711).to_bytes(3, "big")
    if ver >= 2:
        b += eid[:32].ljust(32, b"\0") + bytes(8)
        if first:
            b += bytes([0x80, 0x21, 0, 0]) + b"smc-host".ljust(32, b"\0") + \
                bytes([4, 2]) + struct.pack(">HI", 3, 0) + bytes(8)
            if typ == 3:
                b += bytes([1, 0, 0, 0]) + bytes(15) + b"\x02"
    return b + EYE_R

def decline(diag, ver=2, sync=False, diag2=(0, 0, 0, 0)):
    b = hdr(4, 28 if ver == 1 else 44, ver, 2 if sync else 0, 0)
    b += b"\x22" * 8 + struct.pack(">I", diag) + bytes([0x20, 0, 0, 0])
    if ver >= 2:
        b += struct.pack(">4I", *diag2)
    return b + EYE_R

def tcp(msg, rev=False, extra=""):
    addr = "src=10.0.0.2 dst=10.0.0.1 sport=5201 dport=40000 " if rev else ""
    return "tcp flags=PA %s%shex=%s" % (addr, extra, msg.hex())
