#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write the seed corpus of fuzz_dump (smc/fuzz/corpus) from captures made
# by testsuite/tools/gen-smcdump-pcap: whole captures for the frame target
# (each link type) and the reader target (pcap, pcapng), and the record, CDC and CLC payloads for the parser
# targets. Run from anywhere; needs python3 and the built generator.
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
top="$here/../.."
gen="$top/testsuite/tools/gen-smcdump-pcap"
out="$here/corpus"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

make -s -C "$top/testsuite/tools" gen-smcdump-pcap
rm -rf "$out"
mkdir -p "$out"

python3 - >"$tmp/clc.hex" <<'EOF'
import struct
R = bytes([0xe2, 0xd4, 0xc3, 0xd9]); D = bytes([0xe2, 0xd4, 0xc3, 0xc4])
def hdr(t, l, v, t2, t1, e=R):
    return e + struct.pack(">BHB", t, l, v << 4 | t2 << 2 | t1)
# proposal v2, SMC-D v1 and v2, one UEID, one ISM GID
p = hdr(1, 40 + 40 + 8 + 40 + 32 + 48 + 10 + 4, 2, 1, 1)
p += bytes(38) + struct.pack(">H", 40)
p += struct.pack(">QHH", 7, 0xffff, 36) + bytes(28) + bytes([10, 0, 0, 0, 8, 0, 0, 0])
p += struct.pack(">BBBBBBH", 1, 1, 0, 0x11, 0, 0, 64) + bytes(32)
p += b"EID".ljust(32, b" ") + b"SEID".ljust(48, b"\0") + struct.pack(">QH", 9, 0xffff) + R
print(p.hex())
a = hdr(2, 130, 2, 2, 1, D) + bytes(24) + struct.pack(">H", 1) + b"EID".ljust(32, b"\0") + bytes(8)
a += bytes([0x80, 0x21, 0, 0]) + b"h".ljust(32, b"\0") + bytes(16) + D
print(a.hex())
c = hdr(3, 180, 2, 2, 0) + bytes(96) + bytes([0x80, 0x21, 0, 0]) + bytes(48) + bytes([1, 0, 0, 0]) + bytes(16) + R
print(c.hex())
print((hdr(3, 68, 1, 2, 0) + bytes(56) + R).hex())
print((hdr(4, 44, 2, 2, 0) + bytes(8) + struct.pack(">I", 0x03030008) + bytes(4) + struct.pack(">4I", 0x04000000, 0, 0, 0) + R).hex())
print((hdr(4, 28, 1, 0, 0) + bytes(8) + struct.pack(">I", 0x03010000) + bytes(4) + R).hex())
EOF

{
	echo "data dir=tx token=0x1 seq=1 offset=0 len=100"
	echo "data dir=tx token=0x1 seq=2 offset=100 len=50 orig=500"
	echo "data dir=rx token=0x1 seq=4 offset=0 len=20 local=fd00::1 peer=fd00::2 vlan=5"
	echo "data dir=tx token=0x1 seq=5 offset=50 len=100"
	echo "cdc dir=rx token=0x1 seq=6 seqno=1 ctoken=0x2 pwrap=1 pcount=9 pflags=0x90 cflags=0x80"
	echo "cdc dir=rx token=0x1 seq=7 seqno=3"
	echo "cdc mode=d dir=tx token=0x3 seq=8 pwrap=1 pcount=9 cflags=0x40"
	echo "data hdrver=4 dir=tx token=0x5 seq=9 offset=0 len=30 sseq=3"
	echo "cdc hdrver=4 mode=d dir=rx token=0x5 seq=10 pwrap=1 pcount=9 endian=big"
	echo "llc lgr=0xa01 link=1 qp=7 peerqp=8 seq=11 llctype=0x04 resp=1"
	# an LLC message of every type Linux sends, version 1 and 2 (the
	# bytes of testsuite/host/dump-llc.bats), one cut, one short
	for m in \
		012c008002000000000afe80000000000000000000000000000a000102010a01000103ff0000000000000000 \
		022c014002000000000b0000fe80000000000000000000000000000b00020302530102030000000000000000 \
		2268000002000000000c0000fe80000000000000000000000000000c000203020300000700000000000000008000fe80000000000000000000000000000d000000000000000002001111111122222222000000003333333344444444555555550000000066666666 \
		032c000002020000000000a1000000a200000000000000a3000000b1000000b200000000000000b300000000 \
		242c008003002000000000000000000000000000000000000000000000000000000000000000000000000000 \
		253c0000000000000000000000000000000000000000000002000000fe80000000000000000000000000000efe80000000000000000000000000000f \
		062c0030020000abcd0000000000001000020000bcde0000000000002000030000cdef000000000000300000 \
		082c000001020102030400000000000000100000000000000000000000000000000000000000000000000000 \
		072c0000000102030405060708090a0b0c0d0e0f000000000000000000000000000000000000000000000000 \
		092c002002400000dead0001dead000200000000000000000000000000000000000000000000000000000000 \
		2914000003010000000000010000000200000003 \
		22ffff00; do
		echo "llc lgr=0xa01 link=2 msg=$m"
	done
	echo "llc lgr=0xa01 msg=062c0030020000abcd00000000000010000200 cut=160"
	echo "legacy hdrver=1 hex=00010203"
	echo "udp hex=cfd3e7a5030201 smac=02:00:00:00:00:01 dmac=02:00:00:00:00:01"
	echo "tcp flags=S smcopt=1"
	echo "tcp flags=SA smcopt=1 src=10.0.0.2 dst=10.0.0.1 sport=5201 dport=40000"
	while read -r h; do echo "tcp flags=PA hex=$h"; done <"$tmp/clc.hex"
} >"$tmp/spec"

i=0
for lt in en10mb sll sll2 raw; do
	"$gen" -l "$lt" "$tmp/$lt.pcap" <"$tmp/spec"
	i=$((i + 1))
done

python3 - "$tmp" "$out" <<'EOF'
import struct, sys
tmp, out = sys.argv[1], sys.argv[2]
def frames(path):
    d = open(path, "rb").read()
    off = 24
    while off + 16 <= len(d):
        cap = struct.unpack_from("<I", d, off + 8)[0]
        yield d[off + 16:off + 16 + cap]
        off += 16 + cap
n = 0
def seed(b):
    global n
    n += 1
    open("%s/seed-%03d" % (out, n), "wb").write(b)
for i, lt in enumerate(["en10mb", "sll", "sll2", "raw"]):
    fr = list(frames("%s/%s.pcap" % (tmp, lt)))
    whole = b"".join(struct.pack(">H", len(f)) + f for f in fr)
    # frame target: read (text, JSON, -d -x) and stats
    for opt in (0x00, 0x04, 0x03, 0x40, 0x44):
        seed(bytes([3, opt | i << 4]) + whole)
    if lt != "en10mb":
        continue
    for f in fr:
        ip = f[14:]
        if ip[0] >> 4 != 4:
            continue
        l4 = ip[(ip[0] & 15) * 4:]
        if ip[9] == 17:
            seed(bytes([0, 0]) + l4[8:])
            rec = l4[8:]
            if len(rec) >= 32 and rec[7] == 2:
                seed(bytes([1, 1 if rec[6] == 2 else 0]) + rec[rec[10]:])
        elif ip[9] == 6:
            pay = l4[(l4[12] >> 4) * 4:]
            if pay:
                seed(bytes([2, 0]) + pay)
                seed(bytes([2, 3]) + pay)
EOF
# whole files for the reader target (byte 0 bit 2): pcap, and pcapng
# of Linux cooked v2 read as stats (byte 1 bit 6)
"$gen" "$tmp/r.pcap" <"$tmp/spec"
"$gen" -g -l sll2 "$tmp/r.pcapng" <"$tmp/spec"
{ printf '\x04\x00'; cat "$tmp/r.pcap"; } >"$out/seed-reader-pcap"
{ printf '\x04\x44'; cat "$tmp/r.pcapng"; } >"$out/seed-reader-pcapng"
echo "$(ls "$out" | wc -l) seeds in $out"
