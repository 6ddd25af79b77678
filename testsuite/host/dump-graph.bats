#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of smc dump graph: the pictures are
# checked by parsers (PNG signature and IHDR, SVG as XML, PDF header), the
# series drawn by the counts the command reports, worked out by hand from
# the capture. The capture is the one of dump-analyze.bats.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_file smc testsuite/tools
}

# png_size FILE: "WIDTH HEIGHT" from the IHDR chunk, after checking the
# PNG signature (PNG specification, section 5)
png_size() {
	python3 - "$1" <<'PY'
import struct, sys
b = open(sys.argv[1], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n", "no PNG signature"
assert b[12:16] == b"IHDR", "IHDR not first"
w, h = struct.unpack(">II", b[16:24])
assert b[-12:-4] == b"\0\0\0\0IEND", "no IEND at the end"
print(w, h)
PY
}

# svg_size FILE: the root element's width and height (XML well formed)
svg_size() {
	python3 - "$1" <<'PY'
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
assert r.tag == "{http://www.w3.org/2000/svg}svg", r.tag
print(r.get("width"), r.get("height"))
PY
}

# the connection of dump-analyze.bats without its CLC messages (the
# buffer is then inferred: 16384 from the cursor 1:0 at 16384)
write_conn1() {
	"$GEN" "$1" <<'EOF'
data ts=1700000000.010 token=1 seq=0 offset=0 len=8192
cdc  ts=1700000000.010 token=1 seq=1 pcount=8192
data ts=1700000000.020 token=1 seq=2 offset=8192 len=8192
cdc  ts=1700000000.020 token=1 seq=3 pwrap=1 pcount=0 pflags=0x80
cdc  ts=1700000000.520 token=1 seq=4 dir=rx ccount=8192
data ts=1700000000.530 token=1 seq=5 offset=16384 len=8192
cdc  ts=1700000000.530 token=1 seq=6 pwrap=1 pcount=8192 pflags=0x10
cdc  ts=1700000000.730 token=1 seq=7 dir=rx cwrap=1 ccount=0
data ts=1700000000.830 token=1 seq=8 offset=24576 len=4096
cdc  ts=1700000000.830 token=1 seq=9 pwrap=1 pcount=12288
data ts=1700000000.900 token=1 seq=10 offset=28672 len=4096
cdc  ts=1700000000.900 token=1 seq=11 pwrap=2 pcount=0
cdc  ts=1700000001.000 token=1 seq=12 dir=rx cwrap=2 ccount=0
EOF
}

@test "graph: a PNG per direction, 1200x800, with the series of the capture" {
	write_conn1 "$T/c1.pcap"
	rm -rf "$T/png" && mkdir "$T/png"
	run -0 --separate-stderr "$SMC" -j dump graph write "$T/png/g.png" "$T/c1.pcap"
	# two directions: -MODE-TOKEN-DIR before the extension
	[ "$(ls "$T/png")" = "$(printf 'g-smcr-00000001-rx.png\ng-smcr-00000001-tx.png')" ]
	[ "$(png_size "$T/png/g-smcr-00000001-tx.png")" = "1200 800" ]
	[ "$(png_size "$T/png/g-smcr-00000001-rx.png")" = "1200 800" ]
	# tx: 5 data records, 5 producer cursors (the sender's CDC), 3
	# consumer cursors (the peer's CDC) and as many limits (the buffer
	# is inferred), write_blocked once, cons_curs_upd_req once.
	# rx: the peer's 3 CDC messages are its producer cursors, ours its
	# 5 consumer cursors; no buffer, so no limit
	echo "$output" | jq -e --arg d "$T/png" '. == [
		{"file": ($d + "/g-smcr-00000001-tx.png"), "mode": "SMC-R",
		 "token": "0x00000001", "dir": "tx", "width": 1200, "height": 800,
		 "series": {"data": 5, "producer": 5, "consumer": 3, "limit": 3,
			    "write_blocked": 1, "cons_curs_upd_req": 1}},
		{"file": ($d + "/g-smcr-00000001-rx.png"), "mode": "SMC-R",
		 "token": "0x00000001", "dir": "rx", "width": 1200, "height": 800,
		 "series": {"producer": 3, "consumer": 5}}]'
}

@test "graph: token and direction give one file named OUT; SVG and PDF" {
	write_conn1 "$T/c1.pcap"
	rm -f "$T/one.svg" "$T/one.pdf"
	run -0 "$SMC" dump graph token 0x1 tx write "$T/one.svg" "$T/c1.pcap"
	[ "$output" = "$T/one.svg: smcr token 0x00000001 tx data 5 producer 5 consumer 3 limit 3 write_blocked 1 cons_curs_upd_req 1" ]
	[ "$(svg_size "$T/one.svg")" = "1200pt 800pt" ]
	run -0 "$SMC" dump graph rx write "$T/one.pdf" "$T/c1.pcap"
	[ "$(head -c 5 "$T/one.pdf")" = "%PDF-" ]
	grep -q '%%EOF' "$T/one.pdf"
}

@test "graph: holes, truncated records, urgent data and close are drawn as such" {
	# data 0..1000, hole 1000..2000, 2000..3000 truncated (orig 1000,
	# 10 kept), 3000..3100; the sender's CDC with urg_data_pending 0x40
	# and then peer_done_writing 0x80 in its state flags
	"$GEN" "$T/h.pcap" <<'EOF'
data ts=1.0 token=9 offset=0 len=1000
data ts=1.1 token=9 offset=2000 len=10 orig=1000
cdc  ts=1.1 token=9 pcount=3000 pflags=0x40
data ts=1.2 token=9 offset=3000 len=100
cdc  ts=1.3 token=9 pcount=3100 cflags=0x80
EOF
	run -0 "$SMC" -j dump graph tx write "$T/h.png" "$T/h.pcap"
	echo "$output" | jq -e '.[0].series == {"data": 2, "truncated": 1,
		"producer": 2, "urgent": 1, "close": 1, "holes": 1}'
	[ "$(png_size "$T/h.png")" = "1200 800" ]
}

@test "graph: many records make a picture of the same size, quickly" {
	# 20000 data records and their CDC messages
	awk 'BEGIN { for (i = 0; i < 20000; i++) {
		printf "data ts=1.%06d token=4 offset=%d len=1000\n", i * 10, i * 1000
		printf "cdc ts=1.%06d token=4 pwrap=0 pcount=%d\n", i * 10, (i + 1) * 1000 } }' |
		"$GEN" "$T/many.pcap"
	run -0 "$SMC" -j dump graph tx write "$T/many.png" "$T/many.pcap"
	echo "$output" | jq -e '.[0].series == {"data": 20000, "producer": 20000}'
	[ "$(png_size "$T/many.png")" = "1200 800" ]
}

@test "graph: a short stream far from offset 0 is drawn, the axis does not loop" {
	# 100 bytes at 2^60: a tick step of 10 bytes is below the spacing
	# of doubles there, where adding it to the tick no longer moves it
	"$GEN" "$T/far.pcap" <<'EOF'
data token=9 offset=0x1000000000000000 len=100
EOF
	run -0 timeout 30 "$SMC" dump graph write "$T/far.png" "$T/far.pcap"
	[ "$output" = "$T/far.png: smcr token 0x00000009 tx data 1" ]
	[ "$(png_size "$T/far.png")" = "1200 800" ]
}

@test "graph: bad input and bad arguments: a clear error and the exit status" {
	write_conn1 "$T/c1.pcap"
	run -2 --separate-stderr "$SMC" dump graph write "$T/x.gif" "$T/c1.pcap"
	[[ "$stderr" == *"OUT must end in .png, .svg or .pdf"* ]]
	run -2 --separate-stderr "$SMC" dump graph tx rx "$T/c1.pcap"
	run -2 --separate-stderr "$SMC" dump graph write "$T/a.png" write "$T/b.png" "$T/c1.pcap"
	[ "$stderr" = "Error: duplicate \"write\": \"$T/b.png\" is the second value." ]
	[ ! -e "$T/a.png" ] && [ ! -e "$T/b.png" ]
	run -2 --separate-stderr "$SMC" dump graph token 1 token 2 "$T/c1.pcap"
	[ "$stderr" = 'Error: duplicate "token": "2" is the second value.' ]
	for v in 0x100000007 -7 7x ""; do
		run -2 --separate-stderr "$SMC" dump graph token "$v" "$T/c1.pcap"
		[ "$stderr" = "Error: argument \"$v\" is wrong: expected a token (0x...)" ]
	done
	run -2 --separate-stderr "$SMC" dump graph
	[[ "$stderr" == *"FILE expected"* ]]
	run -4 --separate-stderr "$SMC" dump graph token 7 write "$T/n.png" "$T/c1.pcap"
	[ "$stderr" = "Error: no data or CDC records of token 0x00000007 in $T/c1.pcap." ]
	[ ! -e "$T/n.png" ]
	run -3 --separate-stderr "$SMC" dump graph write "$T/nodir/g.png" "$T/c1.pcap"
	[[ "$stderr" == "Error: $T/nodir/g-smcr-00000001-tx.png: "* ]]
	printf 'not a capture at all, not even close' >"$T/junk"
	run -3 --separate-stderr "$SMC" dump graph "$T/junk"
	[[ "$stderr" == "Error: $T/junk: "* ]]
	# a malformed record: the picture is made, the status says so
	"$GEN" "$T/m.pcap" <<'EOF'
data ts=1.0 token=7 offset=0 len=1000
data ts=1.1 token=7 offset=1000 len=10 hdrlen=20
EOF
	run -1 --separate-stderr "$SMC" dump graph write "$T/m.png" "$T/m.pcap"
	[ "$(png_size "$T/m.png")" = "1200 800" ]
}

@test "graph: a write that fails (file size limit) is an error and leaves no file" {
	write_conn1 "$T/c1.pcap"
	# each picture of c1 is over 4 KiB; with SIGXFSZ ignored, a write
	# past the limit fails with EFBIG, as on a full file system
	for ext in png svg pdf; do
		rm -f "$T/big.$ext"
		run -3 --separate-stderr bash -c 'trap "" XFSZ; ulimit -f 4; exec "$@"' \
			_ "$SMC" dump graph tx write "$T/big.$ext" "$T/c1.pcap"
		[ "$stderr" = "Error: $T/big.$ext: File too large" ]
		[ -z "$output" ]
		[ ! -e "$T/big.$ext" ]
	done
	# the same command without the limit writes each of them
	for ext in png svg pdf; do
		run -0 "$SMC" dump graph tx write "$T/big.$ext" "$T/c1.pcap"
		[ "$(stat -c %s "$T/big.$ext")" -gt 4096 ]
	done
}

@test "graph: connections that share a token each get a file of their own" {
	# token 0x77 on three 4-tuples (ends of two hosts, a token used
	# again): tx of each, in the order of their first records, numbered
	# as follow numbers its files
	"$GEN" "$T/shared.pcap" <<-EOF
	data mode=r token=0x77 local=10.0.0.1 peer=10.0.0.3 lport=40000 pport=5201 offset=0 len=10
	data mode=r token=0x77 local=10.0.0.1 peer=10.0.0.4 lport=40000 pport=5201 offset=0 len=20
	data mode=r token=0x77 local=10.0.0.5 peer=10.0.0.4 lport=40000 pport=5201 offset=0 len=30
	data mode=r token=0x78 local=10.0.0.6 peer=10.0.0.4 lport=40000 pport=5201 offset=0 len=40
	EOF
	rm -f "$T"/sh*.svg
	run -0 "$SMC" dump graph token 0x77 tx write "$T/sh.svg" "$T/shared.pcap"
	[ "${lines[0]}" = "$T/sh-smcr-00000077-tx.svg: smcr token 0x00000077 tx data 1" ]
	[ "${lines[1]}" = "$T/sh-smcr-00000077-2-tx.svg: smcr token 0x00000077 tx data 1" ]
	[ "${lines[2]}" = "$T/sh-smcr-00000077-3-tx.svg: smcr token 0x00000077 tx data 1" ]
	[ "${#lines[@]}" -eq 3 ]
	# three files, each its own connection's (its bytes' end on the axis)
	[ "$(find "$T" -name 'sh-smcr-00000077-*tx.svg' | wc -l)" -eq 3 ]
	run -1 cmp -s "$T/sh-smcr-00000077-tx.svg" "$T/sh-smcr-00000077-2-tx.svg"
	run -1 cmp -s "$T/sh-smcr-00000077-2-tx.svg" "$T/sh-smcr-00000077-3-tx.svg"
	# the whole capture: 0x78 stays as it was
	rm -f "$T"/all*.svg
	run -0 "$SMC" dump graph tx write "$T/all.svg" "$T/shared.pcap"
	[ "${#lines[@]}" -eq 4 ]
	[ "${lines[3]}" = "$T/all-smcr-00000078-tx.svg: smcr token 0x00000078 tx data 1" ]
	[ "$(find "$T" -name 'all-*.svg' | wc -l)" -eq 4 ]
}
