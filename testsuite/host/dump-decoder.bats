#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of the decoder on hard input: reassembly whatever the
# arrival order, linear cost, live pipes, cooked captures with protocol 3,
# pcapng with mixed link types, CLC length limits, silent limits and CLC
# messages split over TCP segments.
#
# Captures come from testsuite/tools/gen-smcdump-pcap or from
# testsuite/lib/mkcap.py, a small generator written from the pcap, pcapng
# and Linux cooked formats and Documentation/record-format.md, independent
# of the decoder.
# Expected values are chosen by the test (the generator's data bytes are
# (offset + i) & 0xff) or counted by hand in the comments.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	export TZ=UTC
	host_setup_file smc testsuite/tools
}

# expect_stream FILE LEN [HOLE]: testsuite/lib/streamfile.py
expect_stream() {
	python3 "$TLIB/streamfile.py" "$@"
}

# mkcap OUT < PYTHON: PYTHON sets OUT to the file's bytes
mkcap() {
	python3 "$TLIB/mkcap.py" >"$1"
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
	# 100 bytes of data, 100 bytes of hole (zeros), ...
	expect_stream "$T/o/smcr-00000006-tx.bin" 19900 100
}

@test "follow: 600 streams through 25 open files, each file exact" {
	# 300 connections, both directions, 4 rounds of 100-byte records
	# taking turns; even tokens count up from offset 0, odd ones down from
	# 300 (their bytes below the first record go to a second file). With
	# RLIMIT_NOFILE at 48 follow keeps 25 files open: the least recently
	# used are closed and opened again, hundreds of times, and no byte may
	# be lost or land twice
	python3 -c '
seq = 0
for r in range(4):
    for c in range(300):
        for d in ("tx", "rx"):
            seq += 1
            off = r * 100 if c % 2 == 0 else (3 - r) * 100
            print("data token=%d dir=%s seq=%d offset=%d len=100" % (0x100 + c, d, seq, off))
' | "$GEN" "$T/fds.pcap"
	rm -rf "$T/o"
	run -0 --separate-stderr bash -c 'ulimit -n 48 && exec "$@"' - \
		"$SMC" -j dump follow "$T/fds.pcap" "$T/o"
	[ -z "$stderr" ]
	echo "$output" | jq -e '[.[0].connections[] | .tx, .rx |
		select(.start == 0 and .end == 400 and .holes == 0)] | length == 600'
	python3 - "$T/o" <<'PY'
import os, sys
d = sys.argv[1]
want = bytes(i & 0xff for i in range(400))
names = sorted(os.listdir(d))
assert len(names) == 600, (len(names), names[:5])
for c in range(300):
    for s in ("tx", "rx"):
        n = "smcr-%08x-%s.bin" % (0x100 + c, s)
        got = open(os.path.join(d, n), "rb").read()
        assert got == want, (n, len(got))
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

# ------------------------------------------------------ 3. live pipe

@test "read -: a record on a pipe held open is printed within a second" {
	"$GEN" "$T/one.pcap" <<<"data token=0x77 seq=1 len=5"
	"$GEN" -g "$T/one.pcapng" <<<"data token=0x77 seq=1 len=5"
	for f in one.pcap one.pcapng; do
		rm -f "$T/fifo" "$T/live.out"
		mkfifo "$T/fifo"
		# the writer sends the capture and keeps the pipe open 5 s (a
		# sleep kept: an open pipe with no more data is the case)
		( cat "$T/$f"; sleep 5 ) >"$T/fifo" &
		local w=$!
		"$SMC" dump read - <"$T/fifo" >"$T/live.out" &
		local r=$!
		# (a sleep kept: the second is the bound under test)
		sleep 1
		local out
		out="$(cat "$T/live.out")"
		kill "$w" "$r" 2>/dev/null || true
		wait "$r" 2>/dev/null || :
		echo "$f: $out"
		[[ "$out" == "1 "*"token 0x00000077 data offset 0 len 5" ]]
	done
}

# ------------------------------------------------------ 5. mixed pcapng

@test "pcapng with an Ethernet and a Linux cooked v2 interface: both read" {
	mkcap "$T/mixed.pcapng" <<'PY'
r1 = eth(ip4(17, udp(record(0x11, 0, b"abc"))))
r2 = sll2(ip4(17, udp(record(0x22, 0, b"defg"))))
r3 = eth(ip4(17, udp(record(0x11, 3, b"hi", seq=2))))
OUT = pcapng([1, 276], [(0, r1), (1, r2), (0, r3)])
PY
	run -0 "$SMC" dump read "$T/mixed.pcapng"
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[0]}" == *"token 0x00000011 data offset 0 len 3" ]]
	[[ "${lines[1]}" == *"token 0x00000022 data offset 0 len 4" ]]
	[[ "${lines[2]}" == *"token 0x00000011 data offset 3 len 2" ]]
	run -0 "$SMC" -j dump stats "$T/mixed.pcapng"
	echo "$output" | jq -e '.[0].total | .data == 3 and .malformed == 0'
	echo "$output" | jq -e '[.[0].links[].link] | sort ==
		["02:00:00:00:00:01", "ifindex 5"]'
}

# ------------------------------------------------------ 7. silent limits

@test "stats: 100 smc-dummy links, each with its own sequence" {
	python3 -c '
for i in range(100):
    m = "02:00:00:00:01:%02x" % i
    print("data token=0x1 seq=%d offset=%d len=1 smac=%s dmac=%s" % (10, i, m, m))
    print("data token=0x1 seq=%d offset=%d len=1 smac=%s dmac=%s" % (12, 100 + i, m, m))
' | "$GEN" "$T/links.pcap"
	run -0 "$SMC" -j dump stats "$T/links.pcap"
	# each link: seq 10, then 12: one gap, one record lost
	echo "$output" | jq -e '(.[0].links | length) == 100 and
		.[0].total.seq_gaps == 100 and .[0].total.lost == 100'
}

# ------------------------------------------------------ 4. cooked, proto 3

@test "Linux cooked v1 and v2 with protocol 3: the Ethernet frame inside" {
	mkcap "$T/sll3.pcap" <<'PY'
OUT = pcap([sll(eth(ip4(17, udp(record(0x31, 0, b"abcde")))), proto=3)], 113)
PY
	mkcap "$T/sll23.pcap" <<'PY'
OUT = pcap([sll2(eth(ip4(17, udp(record(0x32, 7, b"xy")))), proto=3)], 276)
PY
	run -0 "$SMC" dump read "$T/sll3.pcap"
	[[ "$output" == "1 "*"token 0x00000031 data offset 0 len 5" ]]
	run -0 "$SMC" dump read "$T/sll23.pcap"
	[[ "$output" == "1 "*"token 0x00000032 data offset 7 len 2" ]]
	run -0 "$SMC" -j dump stats "$T/sll23.pcap"
	echo "$output" | jq -e '.[0].total | .data == 1 and .skipped == 0'
}

# ------------------------------------------------------ 6. CLC lengths

@test "CLC: SMC-D v2 Accept and Confirm longer than their fields decode" {
	mkcap "$T/clclong.pcap" <<'PY'
a94 = clc(2, smcd_acc_v2(extra=bytes(16)))
c138 = clc(3, smcd_acc_v2(fce=fce_v2x(), extra=bytes(8)), typev2=2)
assert len(a94) == 94 and len(c138) == 138
OUT = pcap(clc_frames([a94, c138]), 1)
PY
	run -0 "$SMC" dump read "$T/clclong.pcap"
	echo "$output"
	[[ "${lines[0]}" == *"CLC accept v2 len 94 "*"extra 16"* ]]
	[[ "${lines[1]}" == *"CLC confirm v2 len 138 "*"extra 8"* ]]
	[[ "$output" != *malformed* ]]
	run -0 "$SMC" -j dump read "$T/clclong.pcap"
	echo "$output" | jq -e '.[1].clc | .fce.hostname == "host1" and
		.extra_bytes == 8'
}

@test "CLC: a Proposal with 9 UEIDs carries a note that Linux rejects it" {
	mkcap "$T/prop9.pcap" <<'PY'
# v2 proposal, v1 path none (no prefix area), v2 path SMC-D
base = struct.pack("!8s16s6sH", b"sysid", bytes(16), bytes(6), 0)
smcd = struct.pack("!QHH", 0x5, 0x7, 28) + bytes(28)   # gid, chid, v2_ext_offset
v2 = struct.pack("!BBBBHH16sBBH12s", 9, 0, 0, 0x10, 0, 32 + 9 * 32,
                 bytes(16), 0, 0, 0, bytes(12))
ueids = b"".join(("U%d" % i).encode().ljust(32, b" ") for i in range(9))
sv2 = b"SEID".ljust(32, b" ") + bytes(16)
p = clc(1, base + smcd + v2 + ueids + sv2, typev1=2, typev2=1)
OUT = pcap(clc_frames([p]), 1)
PY
	run -0 "$SMC" -j dump read "$T/prop9.pcap"
	echo "$output"
	echo "$output" | jq -e '.[0].clc | (.v2.ueids | length) == 9 and
		(.note | test("9 UEIDs"))'
}

# ------------------------------------------------------ 7. silent limits

@test "follow: a record at offset 2^40 is not written, max-gap 0 allows it" {
	"$GEN" "$T/far.pcap" <<-EOF
	data token=0x8 seq=1 offset=0 len=100
	data token=0x8 seq=2 offset=1099511627776 len=10
	EOF
	rm -rf "$T/o"
	run -0 --separate-stderr "$SMC" -j dump follow "$T/far.pcap" "$T/o"
	[[ "$stderr" == *"record at offset 1099511627776 is more than max-gap"* ]]
	echo "$output" | jq -e '.[0].connections[0].tx.beyond_max_gap == 1'
	expect_stream "$T/o/smcr-00000008-tx.bin" 100
	rm -rf "$T/o"
	run -0 "$SMC" dump follow max-gap 200 "$T/far.pcap" "$T/o"
	expect_stream "$T/o/smcr-00000008-tx.bin" 100
	rm -rf "$T/o"
	"$GEN" "$T/near.pcap" <<-EOF
	data token=0x8 seq=1 offset=0 len=100
	data token=0x8 seq=2 offset=300 len=10
	EOF
	run -0 "$SMC" dump follow max-gap 0 "$T/near.pcap" "$T/o"
	[ "$(stat -c %s "$T/o/smcr-00000008-tx.bin")" -eq 310 ]
	run -2 --separate-stderr "$SMC" dump follow max-gap -1 "$T/near.pcap" "$T/o"
	[ "$stderr" = 'Error: argument "-1" is wrong: expected a number of bytes' ]
	run -2 --separate-stderr "$SMC" dump follow max-gap 1k "$T/near.pcap" "$T/o"
	[ "$stderr" = 'Error: argument "1k" is wrong: expected a number of bytes' ]
	run -2 --separate-stderr "$SMC" dump follow max-gap 18446744073709551616 "$T/near.pcap" "$T/o"
	[ "$stderr" = 'Error: argument "18446744073709551616" is wrong: expected a number of bytes' ]
}

@test "JSON: unknown record type and mode as strings; bogus timestamps flagged" {
	mkcap "$T/unk.pcap" <<'PY'
f1 = eth(ip4(17, udp(record(0x9, 0, b"ab", mode=7))))
f2 = eth(ip4(17, udp(record(0x9, 0, b"ab", typ=9))))
hdr = struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 262144, 1)
OUT = (hdr + struct.pack("<IIII", 0xffffffff, 0, len(f1), len(f1)) + f1 +
       struct.pack("<IIII", 1700000000, 2000000, len(f2), len(f2)) + f2)
PY
	run -1 "$SMC" -j dump read "$T/unk.pcap"
	echo "$output"
	echo "$output" | jq -e '.[0].mode == "mode-7" and .[1].type == "type-9"'
	echo "$output" | jq -e '.[0].bogus_time == true and .[1].bogus_time == true'
	run -1 "$SMC" dump read "$T/unk.pcap"
	[[ "${lines[0]}" == *"bogus-time"* && "${lines[1]}" == *"bogus-time"* ]]
}

# ------------------------------------------------------ 8. CLC over segments

@test "CLC: a message split over TCP segments is reassembled, whatever else comes between" {
	# an SMC-D v2 Accept of 94 bytes from the server in three segments
	# (5 + 40 + 49 bytes: the first cuts even the 8-byte header); the
	# client's Proposal-sized message of the other direction, a
	# retransmission of the first segment and a bare ACK come between
	mkcap "$T/split.pcap" <<'PY'
a94 = clc(2, smcd_acc_v2(extra=bytes(16)))
assert len(a94) == 94
c = clc(4, bytes(8) + struct.pack("!I", 0x03030000) + bytes(4), version=1,
        typev1=0)  # a v1 Decline: peer id, diagnosis, reserved
def srv(data, seq, flags=0x18):
    return eth(ip4(6, tcp(data, seq, flags, sport=5201, dport=40000),
                   src="10.0.0.2", dst="10.0.0.1"))
def cli(data, seq):
    return eth(ip4(6, tcp(data, seq)))
OUT = pcap([srv(a94[:5], 7000), cli(c, 1000), srv(a94[:5], 7000),
            srv(a94[5:45], 7005), srv(b"", 7045, 0x10),
            srv(a94[45:], 7045)], 1)
PY
	run -0 "$SMC" dump read "$T/split.pcap"
	echo "$output"
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[0]}" == "2 "*"10.0.0.1:40000 > 10.0.0.2:5201 CLC decline v1 len 28 "*"0x03030000"* ]]
	[[ "${lines[1]}" == "6 "*"10.0.0.2:5201 > 10.0.0.1:40000 CLC accept v2 len 94 "*"extra 16"*" segments 3 first-frame 1"* ]]
	[[ "$output" != *incomplete* && "$output" != *malformed* ]]
	run -0 "$SMC" -j dump read "$T/split.pcap"
	echo "$output" | jq -e '.[1].frame == 6 and .[1].segments == 3 and
		.[1].first_frame == 1 and .[1].clc.length == 94'
	run -0 "$SMC" -j dump stats "$T/split.pcap"
	echo "$output"
	echo "$output" | jq -e '.[0].total | .clc == 2 and .malformed == 0'
}

@test "CLC: a message whose next segment never came is incomplete at its first frame" {
	mkcap "$T/gap.pcap" <<'PY'
a94 = clc(2, smcd_acc_v2(extra=bytes(16)))
def srv(data, seq):
    return eth(ip4(6, tcp(data, seq, sport=5201, dport=40000),
                   src="10.0.0.2", dst="10.0.0.1"))
# bytes 40..59 were not captured: the third segment does not continue it
OUT = pcap([srv(a94[:40], 7000), eth(ip4(6, tcp(b"not clc", 1, dport=80))),
            srv(a94[60:], 7060)], 1)
PY
	run -0 "$SMC" dump read "$T/gap.pcap"
	echo "$output"
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == "1 "*"CLC accept v2 len 94"*incomplete* ]]
}

@test "read: a record header the capture snaplen cut before its prefix is the capture's fault" {
	# UDP header whole, then 2 and 6 of the record's 42 bytes: the
	# capture cut them (caplen < len), the record is not short
	mkcap "$T/cut.pcap" <<'EOF'
f = eth(ip4(17, udp(record(0x5, 0, b"0123456789"))))
OUT = struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 262144, 1)
for i, n in enumerate((44, 48)):
    OUT += struct.pack("<IIII", 1700000000, i, n, len(f)) + f[:n]
EOF
	run -1 "$SMC" dump read "$T/cut.pcap"
	[[ "${lines[0]}" == *" malformed: header cut by the capture snaplen (2 of 42 bytes)" ]]
	[[ "${lines[1]}" == *" malformed: header cut by the capture snaplen (6 of 42 bytes)" ]]
}
