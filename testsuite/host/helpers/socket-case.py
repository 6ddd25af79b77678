#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Canned NETLINK_SOCK_DIAG answers for the host tests of smc socket.

socket-case.py CASE DIR    write DIR/smc.bin, tcp4.bin, tcp6.bin for CASE
socket-case.py list        the case names

The messages have the layouts of Linux 6.12 (include/uapi/linux/smc_diag.h,
inet_diag.h, all host byte order except ports and addresses), packed here
field by field so that a test can say what the kernel sent; socket-fake.c
replays them. The "real" case holds answers captured from the 6.12 test
kernel byte for byte.
"""
import os
import socket
import struct
import sys

AF_INET, AF_INET6, AF_SMC = 2, 10, 43
SOCK_DIAG_BY_FAMILY = 20
NLM_F_MULTI = 2
MODE_SMCR, MODE_TCP, MODE_SMCD = 0, 1, 2
A_CONNINFO, A_LGRINFO, A_SHUTDOWN, A_DMBINFO, A_FALLBACK = 1, 2, 3, 4, 5
ACTIVE, INIT, CLOSED, LISTEN = 1, 2, 7, 10
APPCLOSEWAIT1 = 22


def nlmsg(payload):
    n = 16 + len(payload)
    msg = struct.pack("=IHHII", n, SOCK_DIAG_BY_FAMILY, NLM_F_MULTI, 0, 0)
    return msg + payload + b"\0" * ((4 - n % 4) % 4)


def attr(atype, payload):
    n = 4 + len(payload)
    return struct.pack("=HH", n, atype) + payload + b"\0" * ((4 - n % 4) % 4)


def addr16(text):
    if not text:
        return b"\0" * 16
    if ":" in text:
        return socket.inet_pton(socket.AF_INET6, text)
    return socket.inet_pton(socket.AF_INET, text) + b"\0" * 12


def sockid(sport, dport, src, dst, ifindex=0, cookie=0):
    """struct inet_diag_sockid: ports and addresses big-endian"""
    return (struct.pack(">HH", sport, dport) + addr16(src) + addr16(dst) +
            struct.pack("=IQ", ifindex, cookie))


def cursor(wrap, count):
    return struct.pack("=HHI", 0, wrap, count)


def conninfo(token, sndbuf, rmbe, peer_rmbe, rx_prod=(0, 0), rx_cons=(0, 0),
             tx_prod=(0, 0), tx_cons=(0, 0), flags=(0, 0, 0, 0),
             tx_prep=(0, 0), tx_sent=(0, 0), tx_fin=(0, 0)):
    """struct smc_diag_conninfo; flags: rx_prod, rx_conn_state, tx_prod,
    tx_conn_state"""
    return attr(A_CONNINFO,
                struct.pack("=IIII", token, sndbuf, rmbe, peer_rmbe) +
                cursor(*rx_prod) + cursor(*rx_cons) + cursor(*tx_prod) +
                cursor(*tx_cons) + struct.pack("=BBBB", *flags) +
                cursor(*tx_prep) + cursor(*tx_sent) + cursor(*tx_fin))


def dmbinfo(linkid, peer_gid, my_gid, token, peer_token, peer_gid_ext=None,
            my_gid_ext=None):
    """struct smcd_diag_dmbinfo; without the _ext values: the 40-byte
    layout of kernels before 6.10"""
    p = struct.pack("=I4xQQQQ", linkid, peer_gid, my_gid, token, peer_token)
    if peer_gid_ext is not None:
        p += struct.pack("=QQ", peer_gid_ext, my_gid_ext)
    return attr(A_DMBINFO, p)


def lgrinfo(role, ibname, ibport, link_id, gid, peer_gid):
    """struct smc_diag_lgrinfo with one struct smc_diag_linkinfo"""
    return attr(A_LGRINFO,
                struct.pack("=B64sB40s40sB", link_id, ibname.encode(),
                            ibport, gid.encode(), peer_gid.encode(), role))


def smc(family, state, mode, sport, dport, src, dst, uid=0, inode=0,
        ifindex=0, shutdown=0, fallback=(0, 0), attrs=b""):
    """struct smc_diag_msg with SMC_DIAG_SHUTDOWN and SMC_DIAG_FALLBACK
    first, as smc_diag.c puts them (fallback None: no SMC_DIAG_FALLBACK,
    as before Linux 5.10)"""
    fb = b"" if fallback is None else attr(A_FALLBACK,
                                            struct.pack("=II", *fallback))
    return nlmsg(struct.pack("=BBBB", family, state, mode, 0) +
                 sockid(sport, dport, src, dst, ifindex) +
                 struct.pack("=IQ", uid, inode) +
                 attr(A_SHUTDOWN, struct.pack("=B", shutdown)) + fb + attrs)


def tcp(family, state, sport, dport, src, dst, ifindex=0, inode=0):
    """struct inet_diag_msg (TCP states: 1 ESTABLISHED, 10 LISTEN)"""
    return nlmsg(struct.pack("=BBBB", family, state, 0, 0) +
                 sockid(sport, dport, src, dst, ifindex) +
                 struct.pack("=IIIII", 0, 0, 0, 0, inode))


# ------------------------------------------------------------------ cases

def case_basic():
    """IPv4 and IPv6 AF_SMC sockets: one of each mode, and a listener"""
    smcm = [
        smc(AF_SMC, ACTIVE, MODE_SMCD, 5201, 40000, "10.1.2.3", "10.1.2.4",
            uid=1000, inode=4711, ifindex=0,
            attrs=conninfo(0x1004, 65536, 131072, 262144,
                           rx_prod=(1, 100), rx_cons=(1, 50),
                           tx_prod=(2, 200), tx_cons=(0, 7),
                           flags=(0x80, 0x00, 0x10, 0x40),
                           tx_prep=(3, 300), tx_sent=(3, 250),
                           tx_fin=(3, 240)) +
            dmbinfo(0x100, 0x1111222233334444, 0x5555666677778888,
                    0x0123456789abcdef, 0xfedcba9876543210,
                    0x9999aaaabbbbcccc, 0xddddeeeeffff0000)),
        smc(AF_SMC, ACTIVE, MODE_SMCR, 5202, 40001, "fd00::1", "fd00::2",
            uid=0, inode=4712, ifindex=1,
            attrs=lgrinfo(1, "rxe0", 1, 2,
                          "fe80:0000:0000:0000:0000:0000:0000:0001",
                          "fe80:0000:0000:0000:0000:0000:0000:0002")),
        smc(AF_SMC, ACTIVE, MODE_TCP, 5203, 40002, "10.1.2.3", "10.1.2.5",
            uid=65534, inode=4713, fallback=(0x05000000, 0x03030008)),
        smc(AF_SMC, ACTIVE, MODE_TCP, 40003, 5204, "10.1.2.3", "10.1.2.6",
            inode=4714, fallback=(0x03010000, 0)),
        smc(AF_SMC, APPCLOSEWAIT1, MODE_TCP, 5205, 40004, "10.1.2.3",
            "10.1.2.7", inode=4715, shutdown=2,
            fallback=(0x0303000c, 0x7f000001)),
        smc(AF_SMC, LISTEN, MODE_SMCR, 5201, 0, "10.1.2.3", None,
            inode=4700),
        smc(AF_SMC, INIT, MODE_SMCR, 0, 0, None, None, inode=4701),
    ]
    return {"smc": smcm}


def case_inet():
    """IPPROTO_SMC sockets as 6.12 reports them (no addresses), with the
    TCP sockets under them"""
    smcm = [
        # client, IPv4, SMC-D
        smc(AF_INET, ACTIVE, MODE_SMCD, 41000, 6001, None, None, inode=10),
        # the accepted socket of it: AF_SMC, no addresses
        smc(AF_SMC, ACTIVE, MODE_SMCD, 6001, 41000, None, None, inode=11),
        # client, IPv6, fallback
        smc(AF_INET6, ACTIVE, MODE_TCP, 42000, 6002, None, None, inode=12,
            fallback=(0x05000000, 0x03030008)),
        # accepted IPv6: AF_SMC, no addresses, the server's reason
        smc(AF_SMC, ACTIVE, MODE_TCP, 6002, 42000, None, None, inode=13,
            fallback=(0x03030008, 0)),
        # ambiguous: two TCP sockets with these ports
        smc(AF_SMC, ACTIVE, MODE_SMCD, 6003, 43000, None, None, inode=14),
        # no TCP socket at all
        smc(AF_INET, ACTIVE, MODE_SMCD, 44000, 6004, None, None, inode=15),
        # listeners: IPPROTO_SMC IPv6 on ::, IPPROTO_SMC IPv4 on 127.0.0.1
        smc(AF_INET6, LISTEN, MODE_SMCR, 6002, 0, None, None, inode=16),
        smc(AF_INET, LISTEN, MODE_SMCR, 6001, 0, None, None, inode=17),
    ]
    tcp4 = [
        tcp(AF_INET, 1, 41000, 6001, "127.0.0.1", "127.0.0.2"),
        tcp(AF_INET, 1, 6001, 41000, "127.0.0.2", "127.0.0.1"),
        tcp(AF_INET, 10, 6001, 0, "127.0.0.2", None),
        tcp(AF_INET, 1, 6003, 43000, "10.0.0.1", "10.0.0.2"),
        tcp(AF_INET, 1, 6003, 43000, "10.0.0.1", "10.0.0.3"),
        # the ports of the accepted IPv6 socket, but bound to another
        # interface: must not match
        tcp(AF_INET, 1, 6002, 42000, "192.0.2.1", "192.0.2.2", ifindex=3),
        # the ports of the IPv4 client the other way round: must not match
        tcp(AF_INET, 1, 6004, 44000, "192.0.2.1", "192.0.2.2"),
    ]
    tcp6 = [
        tcp(AF_INET6, 1, 42000, 6002, "fd00::1", "fd00::2"),
        tcp(AF_INET6, 1, 6002, 42000, "fd00::2", "fd00::1"),
        tcp(AF_INET6, 10, 6002, 0, "::", None),
    ]
    return {"smc": smcm, "tcp4": tcp4, "tcp6": tcp6}


def case_empty():
    """no SMC socket at all"""
    return {"smc": []}


def case_long():
    """addresses too long for smcss's 23-character column"""
    return {"smc": [
        smc(AF_SMC, ACTIVE, MODE_SMCD, 5201, 40000,
            "2001:db8:1234:5678:9abc:def0:1234:5678",
            "2001:db8:1234:5678:9abc:def0:1234:1", inode=1),
        smc(AF_SMC, ACTIVE, MODE_SMCR, 65535, 1, "192.168.100.200",
            "10.0.0.2", inode=2),
    ]}


def case_smcss():
    """the corners of smcss's format: closing states, a fallback without
    SMC_DIAG_FALLBACK and one with the peer's code only, a bound
    interface, wide numbers, an IPv6 address smcss takes for IPv4, an
    SMC-R socket without its link info"""
    return {"smc": [
        smc(AF_SMC, 24, MODE_SMCD, 5201, 40000, "10.1.2.3", "10.1.2.4",
            uid=123456, inode=12345678, ifindex=0x1a, shutdown=3),
        smc(AF_SMC, CLOSED, MODE_SMCD, 5202, 40001, "10.1.2.3",
            "10.1.2.4", inode=7),
        smc(AF_SMC, 20, MODE_TCP, 5203, 40002, "fd00::1", "fd00::2",
            inode=8, fallback=None),
        smc(AF_SMC, ACTIVE, MODE_TCP, 5204, 40003, "10.1.2.3", "10.1.2.5",
            inode=9, fallback=(0, 0x03030008)),
        smc(AF_SMC, 3, MODE_SMCR, 5205, 40004, "2001:db8::", "10.1.2.6",
            inode=10, shutdown=1),
        smc(AF_SMC, LISTEN, MODE_SMCD, 5206, 0, "fd00:1:2:3:4:5:6:17", None,
            uid=4294967294, inode=11),
    ]}


def case_oldkernel():
    """an SMC-D socket with the 40-byte DMB info of kernels before 6.10
    and an attribute type smc socket does not know"""
    return {"smc": [
        smc(AF_SMC, ACTIVE, MODE_SMCD, 5201, 40000, "10.1.2.3", "10.1.2.4",
            inode=99,
            attrs=dmbinfo(7, 0x1, 0x2, 0x3, 0x4) + attr(42, b"\1\2\3\4")),
    ]}


def case_short():
    """a message too short to be a struct smc_diag_msg"""
    return {"smc": [nlmsg(b"\x2b\x01\x02\x00" + b"\0" * 20)]}


def case_shortattr():
    """an SMC_DIAG_CONNINFO of 20 bytes"""
    return {"smc": [
        smc(AF_SMC, ACTIVE, MODE_SMCD, 5201, 40000, "10.1.2.3", "10.1.2.4",
            attrs=attr(A_CONNINFO, b"\0" * 20)),
    ]}


def case_many():
    """300 sockets: several datagrams"""
    return {"smc": [
        smc(AF_SMC, ACTIVE, MODE_SMCD, 5201, 30000 + i, "10.0.0.1",
            "10.0.0.2", inode=1000 + i) for i in range(300)]}


# Captured from the 6.12 test kernel (testsuite/vm): an IPPROTO_SMC IPv4
# client whose server was plain TCP (fallback 0x03010000), and an
# IPPROTO_SMC IPv6 SMC-D client over loopback-ism asked with CONNINFO and
# DMBINFO. Ports 36868 -> 6003 and 47252 -> 6002.
REAL = [
    "640000001400020001000000430000000201010090041773000000000000000000000000"
    "000000000000000000000000000000000000000000000000090000000000000000000000"
    "b40000000000000005000300000000000c0005000000010300000000",
    "f00000001400020001000000410000000a010200b8941772000000000000000000000000"
    "000000000000000000000000000000000000000000000000070000000000000000000000"
    "950000000000000005000300000000000c00050000000000000000005000010004000000"
    "e0ff0000e0ff0000e0ff00000000000000000000000000000000000000000000e8030000"
    "00000000000000000000000000000000e803000000000000e80300000000000000000000"
    "3c0004000001000000000000bced49b543ad4e6cbced49b543ad4e6c4734db675ede1a70"
    "3dd0176361e9b687839537cb2befc239839537cb2befc239",
]


def case_real():
    """answers of the real 6.12 kernel, with the TCP sockets under them"""
    return {
        "smc": [bytes.fromhex(h) for h in REAL],
        "tcp4": [tcp(AF_INET, 1, 36868, 6003, "127.0.0.1", "127.0.0.1")],
        "tcp6": [tcp(AF_INET6, 1, 47252, 6002, "::1", "::1")],
    }


CASES = {name[5:]: f for name, f in globals().items()
         if name.startswith("case_")}


def main(argv):
    if argv == ["list"]:
        print("\n".join(sorted(CASES)))
        return 0
    if len(argv) != 2 or argv[0] not in CASES:
        sys.exit(__doc__)
    os.makedirs(argv[1], exist_ok=True)
    for key, msgs in CASES[argv[0]]().items():
        with open(os.path.join(argv[1], key + ".bin"), "wb") as f:
            f.write(b"".join(msgs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
