#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Hold one connection open so that smc socket can be checked against it.

socket-hold.py [-6] [--server smc|afsmc|tcp] [--client smc|afsmc|tcp]
               [--addr ADDR] [--bytes N] READY_FILE

Listens (server kind), connects a client (client kind), accepts, sends N
bytes from client to server and 2*N back, then writes READY_FILE:

    server_port P client_port C server_inode I accepted_inode J client_inode K

and waits until SIGTERM or SIGINT, then closes everything and exits 0.

Kinds: smc = socket(AF_INET[6], SOCK_STREAM, IPPROTO_SMC), afsmc =
socket(AF_SMC, SOCK_STREAM, SMCPROTO_SMC[6]) (addresses in sockaddr_in[6],
done through libc as Python does not know AF_SMC), tcp = plain TCP (a peer
that does not speak SMC). The inodes are those of /proc/self/fd, the ones
smc socket shows. Used by testsuite/vm/fallback.bats inside the test VM.
"""
import ctypes
import ctypes.util
import os
import signal
import socket
import struct
import sys
import time

AF_SMC = 43
IPPROTO_SMC = 256

libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)


def check(rc, what):
    if rc < 0:
        err = ctypes.get_errno()
        raise OSError(err, "%s: %s" % (what, os.strerror(err)))
    return rc


def sockaddr(family, addr, port):
    if family == socket.AF_INET:
        return struct.pack("=H", socket.AF_INET) + struct.pack(">H", port) + \
            socket.inet_pton(socket.AF_INET, addr) + b"\0" * 8
    return struct.pack("=H", socket.AF_INET6) + struct.pack(">H", port) + \
        b"\0" * 4 + socket.inet_pton(socket.AF_INET6, addr) + b"\0" * 4


class RawSock:
    """An AF_SMC socket driven through libc."""

    def __init__(self, fd, family):
        self.fd = fd
        self.family = family

    @classmethod
    def new(cls, family):
        proto = 1 if family == socket.AF_INET6 else 0
        return cls(check(libc.socket(AF_SMC, socket.SOCK_STREAM, proto),
                         "socket(AF_SMC)"), family)

    def setsockopt_reuse(self):
        one = ctypes.c_int(1)
        check(libc.setsockopt(self.fd, socket.SOL_SOCKET,
                              socket.SO_REUSEADDR, ctypes.byref(one), 4),
              "setsockopt")

    def bind(self, addr):
        sa = sockaddr(self.family, *addr)
        check(libc.bind(self.fd, sa, len(sa)), "bind")

    def listen(self, n):
        check(libc.listen(self.fd, n), "listen")

    def connect(self, addr):
        sa = sockaddr(self.family, *addr)
        check(libc.connect(self.fd, sa, len(sa)), "connect")

    def accept(self):
        fd = check(libc.accept(self.fd, None, None), "accept")
        return RawSock(fd, self.family), None

    def getsockname(self):
        buf = ctypes.create_string_buffer(128)
        ln = ctypes.c_uint(128)
        check(libc.getsockname(self.fd, buf, ctypes.byref(ln)), "getsockname")
        return ("", struct.unpack(">H", buf.raw[2:4])[0])

    def sendall(self, data):
        while data:
            n = check(libc.send(self.fd, data, len(data), 0), "send")
            data = data[n:]

    def recv(self, n):
        buf = ctypes.create_string_buffer(n)
        got = check(libc.recv(self.fd, buf, n, 0), "recv")
        return buf.raw[:got]

    def fileno(self):
        return self.fd

    def close(self):
        libc.close(self.fd)


def make(kind, family):
    if kind == "afsmc":
        return RawSock.new(family)
    proto = IPPROTO_SMC if kind == "smc" else 0
    return socket.socket(family, socket.SOCK_STREAM, proto)


def recv_exactly(s, n):
    got = b""
    while len(got) < n:
        part = s.recv(n - len(got))
        if not part:
            raise OSError("connection closed early")
        got += part
    return got


def inode(s):
    return os.stat("/proc/self/fd/%d" % s.fileno()).st_ino


def main(argv):
    family = socket.AF_INET
    server = client = "smc"
    addr = None
    nbytes = 1000
    args = list(argv)
    while args and args[0].startswith("-"):
        opt = args.pop(0)
        if opt == "-6":
            family = socket.AF_INET6
        elif opt == "--server":
            server = args.pop(0)
        elif opt == "--client":
            client = args.pop(0)
        elif opt == "--addr":
            addr = args.pop(0)
        elif opt == "--bytes":
            nbytes = int(args.pop(0))
        else:
            sys.exit("socket-hold.py: unknown option " + opt)
    if len(args) != 1:
        sys.exit(__doc__)
    ready = args[0]
    if addr is None:
        addr = "::1" if family == socket.AF_INET6 else "127.0.0.1"

    stop = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    signal.signal(signal.SIGINT, lambda *a: stop.append(1))

    lsn = make(server, family)
    if isinstance(lsn, RawSock):
        lsn.setsockopt_reuse()
    else:
        lsn.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    lsn.bind((addr, 0))
    lsn.listen(4)
    port = lsn.getsockname()[1]
    cli = make(client, family)
    cli.connect((addr, port))
    acc, _ = lsn.accept()
    cli.sendall(b"c" * nbytes)
    recv_exactly(acc, nbytes)
    acc.sendall(b"s" * (2 * nbytes))
    recv_exactly(cli, 2 * nbytes)
    cport = cli.getsockname()[1]
    with open(ready + ".tmp", "w") as f:
        f.write("server_port %d client_port %d server_inode %d "
                "accepted_inode %d client_inode %d\n" %
                (port, cport, inode(lsn), inode(acc), inode(cli)))
    os.rename(ready + ".tmp", ready)
    while not stop:
        time.sleep(0.1)
    for s in (cli, acc, lsn):
        s.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
