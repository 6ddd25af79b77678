#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of the decoder defects of issue 17: reassembly whatever the
# arrival order, linear cost, live pipes, cooked captures with protocol 3,
# pcapng with mixed link types, CLC length limits, silent limits and CLC
# messages split over TCP segments.
#
# Captures come from testsuite/tools/gen-smcdump-pcap or from mkcap.py
# below, a small generator written here from the pcap, pcapng and Linux
# cooked formats and design section 4, independent of the decoder.
# Expected values are chosen by the test (the generator's data bytes are
# (offset + i) & 0xff) or counted by hand in the comments.

bats_require_minimum_version 1.5.0

setup_file() {
	TOP="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
	export TOP
	export SMC="${DUMP_SMC:-$TOP/smc/smc}"
	export GEN="$TOP/testsuite/tools/gen-smcdump-pcap"
	export T="$BATS_FILE_TMPDIR"
	export TZ=UTC

	if ! make -C "$TOP/smc" >"$T/make.log" 2>&1 ||
	   ! make -C "$TOP/testsuite/tools" >>"$T/make.log" 2>&1; then
		cat "$T/make.log" >&3
		return 1
	fi
	write_mkcap >"$T/mkcap.py"
}

# expect_stream FILE LEN: FILE holds byte i = i & 0xff for i < LEN
expect_stream() {
	python3 - "$1" "$2" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
n = int(sys.argv[2])
want = bytes(i & 0xff for i in range(n))
if d != want:
    bad = [i for i in range(min(len(d), n)) if d[i] != want[i]][:5]
    sys.exit("%s: %d bytes, want %d; first differing %s" %
             (sys.argv[1], len(d), n, bad))
PY
}

# mkcap.py: frames from a Python list on stdin, written as pcap or pcapng.
write_mkcap() {
	cat <<'PYEOF'
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
    # design section 4: hdr_ver 3, 32-byte header
    f = flags | (1 if rx else 0)
    return struct.pack("!IBBBBHBBIIIQ", 0x534d4344, 3, 2, mode, typ,
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

env = dict(globals())
exec(sys.stdin.read(), env)
sys.stdout.buffer.write(env["OUT"])
PYEOF
}

# mkcap OUT < PYTHON: PYTHON sets OUT to the file's bytes
mkcap() {
	python3 "$T/mkcap.py" >"$1"
}

# ------------------------------------------------------ 1. arrival order

@test "follow: shuffled records make the whole stream from the lowest offset" {
	# 20 records of 1000 bytes in a shuffled order, offset 0 second; then
	# one resend with equal bytes and one with other bytes
	python3 -c '
import random
o = list(range(0, 20000, 1000))
random.Random(3).shuffle(o)
o.remove(0)
o.insert(1, 0)
for i, x in enumerate(o):
    print("data token=0x5 seq=%d offset=%d len=1000" % (i + 1, x))
print("data token=0x5 seq=21 offset=500 len=1000")
print("data token=0x5 seq=22 offset=10 len=10 fill=0xaa")
' | "$GEN" "$T/shuf.pcap"
	rm -rf "$T/o"
	run -0 --separate-stderr "$SMC" -j dump follow "$T/shuf.pcap" "$T/o"
	# the file keeps the bytes that came first
	expect_stream "$T/o/smcr-00000005-tx.bin" 20000
	[ "$(ls -A "$T/o")" = "smcr-00000005-tx.bin" ]
	echo "$output" | jq -e '.[0].connections[0].tx | .start == 0 and
		.end == 20000 and .holes == 0 and .overlaps == 2 and
		.overlap_bytes == 1010 and .overlaps_differing == 1 and
		.overlap_ranges == [{"start":500,"end":1500,"len":1000,"same":true},
				    {"start":10,"end":20,"len":10,"same":false}]'
	[[ "$stderr" == *"smcr-00000005-tx.bin: conflict: 1 overlapping"* ]]
	# stats says the same of start, end, holes and overlaps
	run -0 "$SMC" -j dump stats "$T/shuf.pcap"
	echo "$output" | jq -e '.[0].connections[0].tx | .start == 0 and
		.end == 20000 and .holes == 0 and .overlaps == 2'
}

@test "follow: reverse order with holes, each record in place" {
	# records of 100 bytes at 0, 200, 400, ... 19800, newest first
	python3 -c '
for i in range(100):
    print("data token=0x6 seq=%d offset=%d len=100" % (i + 1, (99 - i) * 200))
' | "$GEN" "$T/rev.pcap"
	rm -rf "$T/o"
	run -0 "$SMC" -j dump follow "$T/rev.pcap" "$T/o"
	echo "$output" | jq -e '.[0].connections[0].tx | .start == 0 and
		.end == 19900 and .holes == 99 and .hole_bytes == 9900'
	python3 - "$T/o/smcr-00000006-tx.bin" <<'PY'
import sys
d = open(sys.argv[1], "rb").read()
assert len(d) == 19900, len(d)
for i in range(19900):
    want = (i & 0xff) if (i // 100) % 2 == 0 else 0
    assert d[i] == want, (i, d[i], want)
PY
}

# ------------------------------------------------------ 2. linear cost

@test "stats: 60000 connections in a few seconds (no quadratic token count)" {
	python3 -c '
for i in range(60000):
    print("data token=%d seq=%d offset=0 len=1 lport=%d" % (i % 1000, i + 1, 1024 + i // 1000))
' | "$GEN" "$T/many.pcap"
	SECONDS=0
	"$SMC" -j dump stats "$T/many.pcap" >"$T/many.json"
	echo "took $SECONDS s"
	[ "$SECONDS" -le 5 ]
	jq -e '.[0].total.connections == 60000' "$T/many.json"
	rm -rf "$T/o"
	"$SMC" dump follow "$T/many.pcap" "$T/o" >/dev/null
	# 60 connections per token: the 60th file of token 999
	[ -f "$T/o/smcr-000003e7-60-tx.bin" ]
	[ ! -e "$T/o/smcr-000003e7-61-tx.bin" ]
}

@test "stats: 200000 records in reverse order with holes in a few seconds" {
	python3 -c '
for i in range(200000):
    print("data token=0x7 seq=%d offset=%d len=1" % (i + 1, (199999 - i) * 2))
' | "$GEN" "$T/revbig.pcap"
	SECONDS=0
	"$SMC" -j dump stats "$T/revbig.pcap" >"$T/revbig.json"
	echo "took $SECONDS s"
	[ "$SECONDS" -le 5 ]
	jq -e '.[0].connections[0].tx | .holes == 199999 and
		.end == 399999 and .hole_bytes == 199999' "$T/revbig.json"
}
