#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of `smc dump read`, `follow` and `stats` on captures the
# suite writes itself with testsuite/tools/gen-smcdump-pcap.
#
# Expected values never come from the decoder: either the test chose them
# (token=0x1234abcd in, "token 0x1234abcd" out), or an independent Python
# reader (testsuite/lib/smcdump_oracle.py, written from the record
# format, the kernel's struct layouts and the pcap/pcapng formats)
# computes them from the bytes of the generated file, or they come from
# the kernel header itself (decline codes). CLC messages are built by
# testsuite/lib/clc_messages.py from the kernel's layouts.
#
# DUMP_SMC=/path/to/wrapper runs the tests through a wrapper of smc (for
# example one that starts it under valgrind).

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	export TZ=UTC
	host_setup_file smc testsuite/tools
}

# ------------------------------------------------------------- helpers

# gen FILE [GEN OPTIONS] < SPEC
gen() {
	local out="$1"

	shift
	"$GEN" "$@" "$out"
}

# ------------------------------------------------------------ records

@test "SMC-R data and CDC records: one line each with the chosen values" {
	gen "$T/r.pcap" <<-EOF
	data dir=tx token=0x1234abcd seq=10 offset=4096 len=100
	cdc dir=rx token=0x1234abcd seq=11 seqno=7 ctoken=0xcafe0001 pwrap=3 pcount=65536 cwrap=2 ccount=777 pflags=0x10 cflags=0x80
	data dir=rx token=0x1234abcd seq=12 offset=0 len=1 local=10.1.2.3 lport=1234 peer=10.3.2.1 pport=80
	EOF
	run -0 --separate-stderr "$SMC" dump read "$T/r.pcap"
	[ -z "$stderr" ]
	[ "${#lines[@]}" -eq 3 ]
	[ "${lines[0]}" = "1 22:13:20.000000 SMC-R tx 10.0.0.1:40000 > 10.0.0.2:5201 token 0x1234abcd data offset 4096 len 100" ]
	[ "${lines[1]}" = "2 22:13:20.000001 SMC-R rx 10.0.0.2:5201 > 10.0.0.1:40000 token 0x1234abcd cdc seqno 7 alert-token 0xcafe0001 prod 3:65536 cons 2:777 flags [cons_curs_upd_req] state [peer_done_writing]" ]
	[ "${lines[2]}" = "3 22:13:20.000002 SMC-R rx 10.3.2.1:80 > 10.1.2.3:1234 token 0x1234abcd data offset 0 len 1" ]
}

@test "JSON of every record equals what the bytes hold (independent reader)" {
	gen "$T/j.pcap" <<-EOF
	data dir=tx token=0x1 seq=1 offset=0 len=1000
	data dir=tx token=0x1 seq=2 offset=1000 len=300 orig=5000
	cdc dir=tx token=0x1 seq=3 seqno=65535 ctoken=0x2 pwrap=65535 pcount=4294967295 cwrap=1 ccount=2 pflags=0xf8 cflags=0xe0
	cdc dir=rx token=0x1 seq=4 seqno=0 ctoken=0x1 pflags=0x80 cflags=0x20
	cdc mode=d dir=rx token=0x77 seq=5 pwrap=258 pcount=0x01020304 cwrap=1 ccount=5 pflags=0x40 cflags=0x40
	data mode=d dir=tx token=0x77 seq=6 offset=123456789012 len=17 smcver=1
	data dir=rx token=0x9 seq=7 offset=0 len=64 local=2001:db8::1 peer=2001:db8::2
	EOF
	run -0 "$SMC" -j dump read "$T/j.pcap"
	echo "$output" >"$T/j.json"
	run -0 python3 "$TLIB/smcdump_oracle.py" expect "$T/j.pcap" <"$T/j.json"
	[ "$output" = "7 records compared" ]
}

@test "CDC flags: every producer and connection state bit by its kernel name" {
	# bit values from the __BIG_ENDIAN_BITFIELD layouts of
	# smc_cdc_producer_flags and smc_cdc_conn_state_flags: the first
	# member is the most significant bit
	local -A pf=([0x80]=write_blocked [0x40]=urg_data_pending
		     [0x20]=urg_data_present [0x10]=cons_curs_upd_req
		     [0x08]=failover_validation)
	local -A cf=([0x80]=peer_done_writing [0x40]=peer_conn_closed
		     [0x20]=peer_conn_abort)
	local b n=0 spec=
	for b in "${!pf[@]}"; do
		spec+="cdc dir=tx token=0x5 seq=$((n++)) pflags=$b"$'\n'
		spec+="cdc mode=d dir=tx token=0x6 seq=$((n++)) pflags=$b"$'\n'
	done
	for b in "${!cf[@]}"; do
		spec+="cdc dir=tx token=0x5 seq=$((n++)) cflags=$b"$'\n'
		spec+="cdc mode=d dir=tx token=0x6 seq=$((n++)) cflags=$b"$'\n'
	done
	gen "$T/f.pcap" <<<"$spec"
	run -0 "$SMC" dump read "$T/f.pcap"
	n=0
	for b in "${!pf[@]}"; do
		[[ "${lines[n]}" == *" cdc "*" flags [${pf[$b]}]" ]]
		[[ "${lines[n + 1]}" == *" cdc "*" flags [${pf[$b]}]" ]]
		n=$((n + 2))
	done
	for b in "${!cf[@]}"; do
		[[ "${lines[n]}" == *" state [${cf[$b]}]" ]]
		[[ "${lines[n + 1]}" == *" state [${cf[$b]}]" ]]
		n=$((n + 2))
	done
	# a reserved bit is shown by its value
	gen "$T/f2.pcap" <<<"cdc dir=tx token=0x5 seq=1 pflags=0x84 cflags=0x01"
	run -0 "$SMC" dump read "$T/f2.pcap"
	[[ "$output" == *"flags [write_blocked,0x04] state [0x01]" ]]
}

@test "SMC-D CDC cursors: little-endian by default, cdc-endian big" {
	# pcount 0x01020304 written big-endian reads as 0x04030201 when taken
	# as little-endian; wrap 0x0102 as 0x0201
	gen "$T/d.pcap" <<-EOF
	cdc mode=d dir=tx token=0x42 seq=1 pwrap=0x0102 pcount=0x01020304 cwrap=7 ccount=9 endian=big
	EOF
	run -0 "$SMC" dump read "$T/d.pcap"
	[[ "$output" == *"SMC-D tx "*" cdc prod $((0x0201)):$((0x04030201)) cons $((0x0700)):$((0x09000000))"* ]]
	run -0 "$SMC" dump read cdc-endian big "$T/d.pcap"
	[[ "$output" == *" cdc prod 258:16909060 cons 7:9"* ]]
	run -0 "$SMC" -j dump read cdc-endian big "$T/d.pcap"
	run -0 python3 "$TLIB/smcdump_oracle.py" expect "$T/d.pcap" big <<<"$output"
	run -2 --separate-stderr "$SMC" dump read cdc-endian middle "$T/d.pcap"
	[[ "$stderr" == *'"middle" is wrong'* ]]
	# the keyword is the one grammar: dashed spellings name it
	for a in --cdc-endian --cdc-endian=big; do
		run -2 --separate-stderr "$SMC" dump read "$a" big "$T/d.pcap"
		[ -z "$output" ]
		[ "$stderr" = "Error: \"$a\" is not an option, write \"cdc-endian { little | big }\", try \"smc dump help\"." ]
	done
	for a in --max-gap --max-gap=4096; do
		run -2 --separate-stderr "$SMC" dump follow "$a" 4096 "$T/d.pcap" "$T/follow"
		[ -z "$output" ]
		[ "$stderr" = "Error: \"$a\" is not an option, write \"max-gap BYTES\", try \"smc dump help\"." ]
		[ ! -e "$T/follow" ]
	done
	# a dashed word that only begins like a keyword is an unknown option
	run -2 --separate-stderr "$SMC" dump read --cdc-endianness "$T/d.pcap"
	[ "$stderr" = 'Error: unknown option "--cdc-endianness", try "smc dump help".' ]
	# little-endian (the default) against the independent reader
	gen "$T/d2.pcap" <<<"cdc mode=d dir=rx token=0x42 seq=1 pwrap=0x0102 pcount=0x01020304 cwrap=7 ccount=9"
	run -0 "$SMC" -j dump read "$T/d2.pcap"
	run -0 python3 "$TLIB/smcdump_oracle.py" expect "$T/d2.pcap" <<<"$output"
}

@test "truncated record: snaplen flag and orig_len; capture cut: captured" {
	gen "$T/t.pcap" <<-EOF
	data dir=tx token=0x1 seq=1 offset=0 len=64 orig=65000
	data dir=tx token=0x1 seq=2 offset=65000 len=1000 cut=500
	EOF
	run -0 "$SMC" dump read "$T/t.pcap"
	[ "${lines[0]}" = "1 22:13:20.000000 SMC-R tx 10.0.0.1:40000 > 10.0.0.2:5201 token 0x00000001 data offset 0 len 64 orig_len 65000 truncated" ]
	# the frame: 14 Ethernet + 20 IPv4 + 8 UDP + 32 header, so 500 bytes
	# of frame keep 500 - 74 payload bytes
	[ "${lines[1]}" = "2 22:13:20.000001 SMC-R tx 10.0.0.1:40000 > 10.0.0.2:5201 token 0x00000001 data offset 65000 len 1000 captured $((500 - 74))" ]
	run -0 "$SMC" -j dump read "$T/t.pcap"
	run -0 python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert d[0]["truncated"] is True and d[0]["orig_len"] == 65000 and d[0]["len"] == 64
assert d[1]["truncated"] is False and d[1]["cap_len"] == 426 and d[1]["len"] == 1000
' "$output"
}

@test "wrong magic: reported with its frame number, the rest decoded, exit 1" {
	gen "$T/m.pcap" <<-EOF
	data dir=tx token=0x1 seq=1 offset=0 len=10
	data dir=tx token=0x1 seq=2 offset=10 len=10 magic=0xcfd3e7a6
	data dir=tx token=0x1 seq=3 offset=20 len=10
	EOF
	run -1 --separate-stderr "$SMC" dump read "$T/m.pcap"
	[ "${#lines[@]}" -eq 3 ]
	[[ "${lines[0]}" == "1 "*" data offset 0 len 10" ]]
	[ "${lines[1]}" = "2 22:13:20.000001 10.0.0.1:40000 > 10.0.0.2:5201 malformed: bad magic 0xcfd3e7a6" ]
	[[ "${lines[2]}" == "3 "*" data offset 20 len 10" ]]
	run -1 "$SMC" -j dump read "$T/m.pcap"
	run -0 python3 -c '
import json, sys
d = json.loads(sys.argv[1])
m = [o for o in d if o.get("type") == "malformed"]
assert len(m) == 1 and m[0]["frame"] == 2, m
assert m[0]["error"] == "bad magic 0xcfd3e7a6"
assert [o["frame"] for o in d] == [1, 2, 3]
' "$output"
}

@test "short header and broken fields: each reported, decoding goes on" {
	local e=02:00:00:00:00:01 z
	z() { printf "%0$(($1 * 2))d" 0; }	# N zero bytes in hex
	# frame: why (the byte counts are those of the hex below)
	local -a why=(
		[1]="short record: 3 bytes"
		[2]="short header: 8 bytes"
		[3]="short header: 24 bytes, need 32"
		[4]="hdr_len 16 below 32"
		[5]="len 999 differs from the UDP payload $((32 + 10))"
		[6]="unknown mode 3"
		[7]="unknown type 9"
		[8]="orig_len 5 below the payload 10"
		[9]="orig_len 11 differs from the payload 10, not marked truncated"
		[10]="SMC-R CDC message of 40 bytes, need 44"
		[11]="SMC-D CDC message of 44 bytes, expected 32"
		[12]="CDC type 0x00, expected 0xfe"
		[13]="CDC record marked truncated"
		[14]="marked truncated, but orig_len 10 equals the payload"
	)
	gen "$T/s.pcap" <<-EOF
	udp hex=cfd3e7 smac=$e dmac=$e
	udp hex=cfd3e7a503020101 smac=$e dmac=$e
	udp hex=cfd3e7a5030201010018$(z 14) smac=$e dmac=$e
	data token=0x1 seq=4 len=20 hdrlen=16
	data token=0x1 seq=5 len=10 reclen=999
	data token=0x1 seq=6 len=10 mode=3
	data token=0x1 seq=7 len=10 type=9
	data token=0x1 seq=8 len=10 orig=5
	data token=0x1 seq=9 len=10 orig=11 flags=0
	cdc token=0x1 seq=10 hex=fe28$(z 38)
	cdc mode=d token=0x1 seq=11 hex=fe$(z 43)
	cdc token=0x1 seq=12 hex=002c$(z 42)
	cdc token=0x1 seq=13 flags=2
	data token=0x1 seq=14 len=10 flags=2
	data token=0x1 seq=15 offset=0 len=10
	EOF
	run -1 --separate-stderr "$SMC" dump read "$T/s.pcap"
	[ "${#lines[@]}" -eq 15 ]
	local i
	for i in "${!why[@]}"; do
		[[ "${lines[i - 1]}" == "$i "* ]]
		[[ "${lines[i - 1]}" == *"malformed: ${why[i]}" ]] ||
			{ echo "frame $i: ${lines[i - 1]}"; return 1; }
	done
	[[ "${lines[14]}" == "15 "*"token 0x00000001 data offset 0 len 10" ]]
	run -1 --separate-stderr "$SMC" dump stats "$T/s.pcap"
	[[ "$output" == *"malformed 14"* ]]
	# stats reports each one on stderr (man smc-dump: "smc dump: frame N:
	# reason")
	[ "${#stderr_lines[@]}" -eq 14 ]
	for i in "${!why[@]}"; do
		[ "${stderr_lines[i - 1]}" = "smc dump: frame $i: ${why[i]}" ] ||
			{ echo "stats, frame $i: ${stderr_lines[i - 1]}"; return 1; }
	done
}

@test "frames that are not SMC are skipped, not malformed" {
	# other UDP between distinct MACs (not an smc-dummy frame), a TCP
	# segment without CLC
	gen "$T/o.pcap" <<-EOF
	udp hex=0102030405060708 sport=53 dport=53
	tcp flags=PA hex=474554202f20485454502f312e310d0a
	data token=0x1 seq=1 len=4
	EOF
	run -0 "$SMC" dump read "$T/o.pcap"
	[ "${#lines[@]}" -eq 1 ]
	[[ "${lines[0]}" == "3 "*" data offset 0 len 4" ]]
	run -0 "$SMC" -j dump stats "$T/o.pcap"
	run -0 python3 -c '
import json, sys
t = json.loads(sys.argv[1])[0]["total"]
assert t["frames"] == 3 and t["skipped"] == 2 and t["records"] == 1, t
assert t["malformed"] == 0
' "$output"
}

@test "capture file cut inside a frame: reported, exit 1" {
	gen "$T/c.pcap" <<-EOF
	data token=0x1 seq=1 len=100
	data token=0x1 seq=2 len=100
	EOF
	# drop the last 50 bytes of the second frame
	head -c $(($(stat -c %s "$T/c.pcap") - 50)) "$T/c.pcap" >"$T/c2.pcap"
	run -1 "$SMC" dump read "$T/c2.pcap"
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[0]}" == "1 "*" data offset 0 len 100" ]]
	[[ "${lines[1]}" == "2 "*"malformed: cannot read the frame: "* ]]
}

# ------------------------------------------------ file and link formats

@test "nanosecond and microsecond timestamps" {
	gen "$T/ns.pcap" -n <<<"data token=0x1 seq=1 len=1 ts=1700000123.987654321"
	gen "$T/us.pcap" <<<"data token=0x1 seq=1 len=1 ts=1700000123.987654"
	# 1700000123 is 2023-11-14 22:15:23 UTC
	run -0 "$SMC" dump read "$T/ns.pcap"
	[[ "$output" == "1 22:15:23.987654321 SMC-R "* ]]
	run -0 "$SMC" dump read "$T/us.pcap"
	[[ "$output" == "1 22:15:23.987654 SMC-R "* ]]
	run -0 "$SMC" -j dump read "$T/ns.pcap"
	[[ "$output" == *'"ts_sec":1700000123,"ts_nsec":987654321,'* ]]
	run -0 "$SMC" -j dump read "$T/us.pcap"
	[[ "$output" == *'"ts_sec":1700000123,"ts_nsec":987654000,'* ]]
}

@test "a first frame whose seconds field is all ones: flagged bogus-time, its time still shown" {
	# pcap's 32-bit seconds read as signed: -1 is 1969-12-31 23:59:59 UTC,
	# and the first frame must not take it for the empty time cache
	gen "$T/b.pcap" <<-EOF
	data token=0x1 seq=1 len=1 ts=4294967295.000001
	data token=0x1 seq=2 offset=1 len=1 ts=1700000123.5
	EOF
	run -0 "$SMC" dump read "$T/b.pcap"
	[[ "${lines[0]}" == "1 23:59:59.000001 bogus-time SMC-R "* ]]
	[[ "${lines[1]}" == "2 22:15:23.500000 SMC-R "* ]]
	run -0 "$SMC" -j dump read "$T/b.pcap"
	[[ "$output" == *'"frame":1,"ts_sec":-1,"ts_nsec":1000,"bogus_time":true,'* ]]
}

@test "the same in a capture of the other byte order (s390x's on amd64): the same time" {
	# libpcap swaps the seconds of a big-endian file into an unsigned
	# value: all ones came out as 2106-02-07 06:28:15, here and on s390x
	# for a little-endian file (testsuite/cross finds that too)
	gen "$T/le.pcap" <<-EOF
	data token=0x1 seq=1 len=1 ts=4294967295.000001
	data token=0x1 seq=2 offset=1 len=1 ts=2147483648.5
	EOF
	# the capture rewritten big-endian: the file header's and each frame
	# header's fields swapped, the frames' bytes as they are
	python3 - "$T/le.pcap" "$T/be.pcap" <<-'EOF'
	import struct, sys
	d = open(sys.argv[1], "rb").read()
	out = struct.pack(">IHHiIII", *struct.unpack("<IHHiIII", d[:24]))
	i = 24
	while i < len(d):
	    sec, usec, cap, orig = struct.unpack("<IIII", d[i:i + 16])
	    out += struct.pack(">IIII", sec, usec, cap, orig) + d[i + 16:i + 16 + cap]
	    i += 16 + cap
	open(sys.argv[2], "wb").write(out)
	EOF
	[ "$(od -An -tx1 -N4 "$T/be.pcap" | tr -d ' ')" = a1b2c3d4 ]
	run -0 "$SMC" dump read "$T/be.pcap"
	[[ "${lines[0]}" == "1 23:59:59.000001 bogus-time SMC-R "* ]]
	# 2^31 read signed as well: 1901-12-13 20:45:52, not 2038
	[[ "${lines[1]}" == "2 20:45:52.500000 bogus-time SMC-R "* ]]
	[ "$output" = "$("$SMC" dump read "$T/le.pcap")" ]
	run -0 "$SMC" -j dump read "$T/be.pcap"
	[[ "$output" == *'"frame":1,"ts_sec":-1,"ts_nsec":1000,"bogus_time":true,'* ]]
	[[ "$output" == *'"frame":2,"ts_sec":-2147483648,'* ]]
}

@test "pcapng, Linux cooked v1 and v2, raw IP, VLAN: same records" {
	local spec="data dir=tx token=0xabc seq=1 offset=7 len=33 ts=1700000001.000001
cdc dir=rx token=0xabc seq=2 seqno=4 ctoken=0xdef pcount=40 ts=1700000001.000002
cdc mode=d dir=tx token=0xabc seq=3 pcount=9 cflags=0x40 ts=1700000001.000003
data dir=rx token=0xabc seq=4 offset=0 len=5 vlan=7 local=fd00::1 peer=fd00::2"
	local args ref
	gen "$T/ref.pcap" <<<"$spec"
	ref="$("$SMC" -j dump read "$T/ref.pcap")"
	for args in "-g" "-g -n" "-l sll" "-l sll2" "-l raw" "-l raw -g" "-l sll2 -g" \
		    "-l sll -n"; do
		# shellcheck disable=SC2086
		gen "$T/x.pcap" $args <<<"$spec"
		run -0 "$SMC" -j dump read "$T/x.pcap"
		[ "$output" = "$ref" ] || { echo "$args: $output"; return 1; }
		run -0 python3 "$TLIB/smcdump_oracle.py" expect "$T/x.pcap" <<<"$output"
		[ "$output" = "4 records compared" ]
	done
	# tshark agrees that the files are what they claim
	if command -v tshark >/dev/null; then
		gen "$T/x.pcap" -l sll2 -g <<<"$spec"
		run -0 tshark -r "$T/x.pcap" -T fields -e frame.number
		[ "${#lines[@]}" -ge 4 ]
	fi
}

@test "standard input: FILE -" {
	gen "$T/in.pcap" <<<"data token=0x99 seq=1 len=3"
	run -0 bash -c '"$SMC" dump read - <"$1"' _ "$T/in.pcap"
	[[ "$output" == "1 "*"token 0x00000099 data offset 0 len 3" ]]
	gen "$T/in.pcapng" -g -n <<<"data token=0x99 seq=1 len=3 ts=1.000000001"
	run -0 bash -c 'cat "$1" | "$SMC" dump read -' _ "$T/in.pcapng"
	[[ "$output" == "1 00:00:01.000000001 SMC-R"* ]]
}

@test "Alibaba layout (hdr_ver < 3): prefix fields, raw payload" {
	gen "$T/a.pcap" <<<"legacy hdrver=1 smcver=2 mode=d type=2 hex=000102030405060708090a0b0c0d0e0f10"
	run -0 "$SMC" dump read -x "$T/a.pcap"
	# len = 10 prefix bytes + 17 bytes after it
	[ "${lines[0]}" = "1 22:13:20.000000 SMC-D 10.0.0.1:40000 > 10.0.0.2:5201 legacy hdr_ver 1 smc_ver 2 type cdc len 27 raw 17" ]
	[ "${lines[1]}" = $'\t0x0000:  0001 0203 0405 0607 0809 0a0b 0c0d 0e0f  ................' ]
	# tcpdump -X layout: 8 groups of 4 hex digits and a blank (40
	# columns), a blank, the ASCII
	[ "${lines[2]}" = "$(printf '\t0x0010:  %-40s %s' 10 .)" ]
	run -0 "$SMC" -j -x dump read "$T/a.pcap"
	[[ "$output" == *'"type":"legacy","hdr_ver":1,"smc_ver":2,"rec_type":"cdc","len":27,"raw_len":17,"cap_len":17,"hex":"000102030405060708090a0b0c0d0e0f10"'* ]]
}

@test "Alibaba layout: a len that differs from the UDP payload is reported on its line, exit 1" {
	gen "$T/al.pcap" <<<"legacy hdrver=1 smcver=2 mode=d type=2 reclen=99 hex=0001020304"
	run -1 "$SMC" dump read "$T/al.pcap"
	# 10 prefix bytes + 5; the error after a blank, as on other records
	[ "${lines[0]}" = "1 22:13:20.000000 SMC-D 10.0.0.1:40000 > 10.0.0.2:5201 legacy hdr_ver 1 smc_ver 2 type cdc len 99 raw 5 malformed: len 99 differs from the UDP payload 15" ]
}

@test "-d shows every header field and its connection's number, -x the payload bytes" {
	gen "$T/dx.pcap" <<<"data dir=rx token=0x10 seq=4242 offset=5 len=18 smcver=1 fill=0x41"
	run -0 "$SMC" -d -x dump read "$T/dx.pcap"
	[ "${lines[0]}" = "1 22:13:20.000000 SMC-R rx 10.0.0.2:5201 > 10.0.0.1:40000 token 0x00000010 conn 0 data seq 4242 hdr_ver 3 smc_ver 1 hdr_len 32 flags 0x01 offset 5 len 18 orig_len 18" ]
	[ "${lines[1]}" = $'\t0x0000:  4141 4141 4141 4141 4141 4141 4141 4141  AAAAAAAAAAAAAAAA' ]
	[ "${lines[2]}" = "$(printf '\t0x0010:  %-40s %s' '4141 ' AA)" ]
	run -0 "$SMC" dump read -d -x "$T/dx.pcap"
	[ "${lines[0]}" = "1 22:13:20.000000 SMC-R rx 10.0.0.2:5201 > 10.0.0.1:40000 token 0x00000010 conn 0 data seq 4242 hdr_ver 3 smc_ver 1 hdr_len 32 flags 0x01 offset 5 len 18 orig_len 18" ]
	run -0 "$SMC" -j dump read -x "$T/dx.pcap"
	[[ "$output" == *"\"hex\":\"$(printf '41%.0s' {1..18})\""* ]]
}

# ----------------------------------------------------- TCP handshake

@test "SYN and SYN-ACK with and without the SMC option" {
	gen "$T/syn.pcap" <<-EOF
	tcp flags=S smcopt=1
	tcp flags=SA smcopt=1 src=10.0.0.2 dst=10.0.0.1 sport=5201 dport=40000
	tcp flags=S smcopt=0 lport=40001
	tcp flags=SA smcopt=0 src=10.0.0.2 dst=10.0.0.1 sport=5201 dport=40001
	EOF
	run -0 "$SMC" dump read "$T/syn.pcap"
	[ "${lines[0]}" = "1 22:13:20.000000 TCP 10.0.0.1:40000 > 10.0.0.2:5201 SYN smc" ]
	[ "${lines[1]}" = "2 22:13:20.000001 TCP 10.0.0.2:5201 > 10.0.0.1:40000 SYN-ACK smc" ]
	[ "${lines[2]}" = "3 22:13:20.000002 TCP 10.0.0.1:40001 > 10.0.0.2:5201 SYN no-smc" ]
	[ "${lines[3]}" = "4 22:13:20.000003 TCP 10.0.0.2:5201 > 10.0.0.1:40001 SYN-ACK no-smc" ]
	run -0 "$SMC" -j dump read "$T/syn.pcap"
	[[ "$output" == *'"type":"tcp","tcp_flags":"SYN","smc_option":true}'* ]]
	[[ "$output" == *'"type":"tcp","tcp_flags":"SYN-ACK","smc_option":false}'* ]]
}

@test "tcpdump -i any on lo: each packet once (the received copy)" {
	local lt
	python3 - "$TLIB" >"$T/lo.hex" <<-'EOF'
	import sys; sys.path.insert(0, sys.argv[1]); from clc_messages import *
	print(decline(0x03010000).hex())
	EOF
	for lt in sll sll2; do
		# ARPHRD_LOOPBACK 772; PACKET_OUTGOING 4, PACKET_HOST 0
		gen "$T/lo.pcap" -l "$lt" <<-EOF
		tcp flags=S smcopt=1 hatype=772 pkttype=4
		tcp flags=S smcopt=1 hatype=772 pkttype=0
		tcp flags=PA hatype=772 pkttype=4 hex=$(cat "$T/lo.hex")
		tcp flags=PA hatype=772 pkttype=0 hex=$(cat "$T/lo.hex")
		tcp flags=PA hatype=1 pkttype=4 hex=$(cat "$T/lo.hex")
		EOF
		run -0 "$SMC" dump read "$T/lo.pcap"
		[ "${#lines[@]}" -eq 3 ]
		[[ "${lines[0]}" == "2 "*" SYN smc" ]]
		[[ "${lines[1]}" == "4 "*" CLC decline "* ]]
		[[ "${lines[2]}" == "5 "*" CLC decline "* ]]
	done
}

@test "CLC Proposal, Accept, Confirm: version, path, first contact, GID, CHID, EIDs" {
	# a 32-byte UEID without NUL, one with blanks, an SEID with a NUL
	python3 - "$TLIB" >"$T/clc.spec" <<-'EOF'
	import sys; sys.path.insert(0, sys.argv[1]); from clc_messages import *
	print(tcp(proposal(0x1122334455667788, 0xfffe,
	                   [b"A" * 32, b"SMC-EID-2"], b"SEID\0junk",
	                   [(0xaabbccdd00112233, 0x0102)])))
	print(tcp(accept_smcd(2, 0x99, 0x1234567890abcdef, 0xfffe,
	                      b"A" * 32, True), rev=True))
	print(tcp(accept_smcd(3, 0x98, 0x77, 0xfffe, b"A" * 32, False)))
	print(tcp(accept_smcr(2, 4660, 0xabcdef12, b"E-R", True), rev=True))
	print(tcp(accept_smcr(3, 22136, 0x13, b"E-R", True)))
	print(tcp(accept_smcd(2, 0x5, 0x6, 0, b"", False, ver=1), rev=True))
	EOF
	gen "$T/clc.pcap" <"$T/clc.spec"
	# each message's length: its bytes, half the hex digits
	local -a len
	mapfile -t len < <(sed 's/.*hex=//' "$T/clc.spec" | awk '{ print length($0) / 2 }')
	run -0 --separate-stderr "$SMC" dump read "$T/clc.pcap"
	[ -z "$stderr" ]
	[ "${lines[0]}" = "1 22:13:20.000000 10.0.0.1:40000 > 10.0.0.2:5201 CLC proposal v2 len ${len[0]} path smcd v2-path smcd ism-gid 0x1122334455667788 chid 0xfffe ueid \"$(printf 'A%.0s' {1..32})\" ueid \"SMC-EID-2\" seid \"SEID\"" ]
	[ "${lines[1]}" = "2 22:13:20.000001 10.0.0.2:5201 > 10.0.0.1:40000 CLC accept v2 len ${len[1]} smcd first-contact ism-gid 0x0000000000000099 dmb-token 0x1234567890abcdef chid 0xfffe eid \"$(printf 'A%.0s' {1..32})\"" ]
	[ "${lines[2]}" = "3 22:13:20.000002 10.0.0.1:40000 > 10.0.0.2:5201 CLC confirm v2 len ${len[2]} smcd ism-gid 0x0000000000000098 dmb-token 0x0000000000000077 chid 0xfffe eid \"$(printf 'A%.0s' {1..32})\"" ]
	[ "${lines[3]}" = "4 22:13:20.000003 10.0.0.2:5201 > 10.0.0.1:40000 CLC accept v2 len ${len[3]} smcr first-contact qpn 4660 token 0xabcdef12 eid \"E-R\"" ]
	[ "${lines[4]}" = "5 22:13:20.000004 10.0.0.1:40000 > 10.0.0.2:5201 CLC confirm v2 len ${len[4]} smcr first-contact qpn 22136 token 0x00000013 eid \"E-R\"" ]
	[ "${lines[5]}" = "6 22:13:20.000005 10.0.0.2:5201 > 10.0.0.1:40000 CLC accept v1 len ${len[5]} smcd ism-gid 0x0000000000000005 dmb-token 0x0000000000000006" ]
	run -0 "$SMC" -j dump read "$T/clc.pcap"
	run -0 python3 -c '
import json, sys
d = json.loads(sys.argv[1])
p = d[0]["clc"]
assert p["msg"] == "proposal" and p["version"] == 2 and p["path"] == "smcd"
assert p["ism_gid"] == "0x1122334455667788" and p["ism_chid"] == "0xfffe"
assert p["ipv4_prefix"] == "192.168.7.0/24", p
v2 = p["v2"]
assert v2["ueids"] == ["A" * 32, "SMC-EID-2"] and v2["system_eid"] == "SEID"
assert v2["ism_gids"] == [{"gid": "0xaabbccdd00112233", "chid": "0x0102"}]
assert v2["eid_cnt"] == 2 and v2["ism_gid_cnt"] == 1 and v2["release"] == 1
a = d[1]["clc"]
assert a["msg"] == "accept" and a["first_contact"] is True
assert a["dmb_token"] == "0x1234567890abcdef" and a["eid"] == "A" * 32
assert a["fce"]["os_type"] == "linux" and a["fce"]["release"] == 1
assert a["fce"]["hostname"] == "smc-host" and a["fce"]["v2_direct"] is True
c = d[4]["clc"]
assert c["msg"] == "confirm" and c["path"] == "smcr" and c["qpn"] == 22136
assert c["rmbe_alert_token"] == "0x00000013" and c["psn"] == 4711
assert c["fce"]["max_conns"] == 4 and c["fce"]["max_links"] == 2
assert c["gid_list"] == ["::2"], c["gid_list"]
assert c["gid"] == "::1" and c["mac"] == "02:00:00:00:00:09"
assert c["rmbe_size"] == 5 and c["qp_mtu"] == 3
assert d[5]["clc"]["version"] == 1 and d[5]["clc"]["first_contact"] is False
' "$output"
}

# The decline codes of the kernel header this project builds against
kernel_decline_codes() {
	local f
	for f in "${SMC_KSRC:-}/net/smc/smc_clc.h" \
		 "$TOP/build/linux/net/smc/smc_clc.h" \
		 /work/kdev/linux-source-6.12/net/smc/smc_clc.h; do
		if [ -f "$f" ]; then
			cat "$f"
			return 0
		fi
	done
	[ -f /usr/src/linux-source-6.12.tar.xz ] || return 1
	tar -xJOf /usr/src/linux-source-6.12.tar.xz --wildcards \
		--occurrence=1 '*/net/smc/smc_clc.h'
}

@test "Decline: every SMC_CLC_DECL_* code of Linux 6.12 by its name" {
	kernel_decline_codes >"$T/smc_clc.h" ||
		skip "no Linux 6.12 source for net/smc/smc_clc.h"
	# NAME CODE per line, as the kernel defines them
	sed -n 's/^#define \(SMC_CLC_DECL_[A-Z0-9_]*\)[[:space:]]\+\(0x[0-9a-fA-F]\+\).*/\1 \2/p' \
		"$T/smc_clc.h" >"$T/codes"
	[ "$(wc -l <"$T/codes")" -ge 30 ]
	python3 - "$TLIB" "$T/codes" >"$T/decl.spec" <<-'EOF'
	import sys; sys.path.insert(0, sys.argv[1]); from clc_messages import *
	for line in open(sys.argv[2]):
	    name, code = line.split()
	    print(tcp(decline(int(code, 16))))
	print(tcp(decline(0x03030008, ver=1)))
	print(tcp(decline(0x04000000, sync=True, diag2=(0x0303000b, 0, 0, 0))))
	print(tcp(decline(0x0abc0000)))
	EOF
	gen "$T/decl.pcap" <"$T/decl.spec"
	run -0 "$SMC" dump read "$T/decl.pcap"
	local i=0 name code
	while read -r name code; do
		printf -v code '0x%08x' "$code"
		[[ "${lines[i]}" == *" CLC decline v2 len 44 diag $code $name ("*")" ]] ||
			{ echo "$name: ${lines[i]}"; return 1; }
		i=$((i + 1))
	done <"$T/codes"
	[[ "${lines[i]}" == *" CLC decline v1 len 28 diag 0x03030008 SMC_CLC_DECL_NOUEID (peer sent no UEID)" ]]
	[[ "${lines[i + 1]}" == *" diag 0x04000000 SMC_CLC_DECL_SYNCERR ("*") out-of-sync" ]]
	[[ "${lines[i + 2]}" == *" diag 0x0abc0000 (unknown code, class unknown)" ]]
	run -0 "$SMC" -d dump read "$T/decl.pcap"
	# (run may change i)
	i="$(wc -l <"$T/codes")"
	[[ "${lines[i + 1]}" == *" diag-v2 0x0303000b SMC_CLC_DECL_MAXLINKERR ("*")" ]]
	run -0 "$SMC" -j dump read "$T/decl.pcap"
	run -0 python3 -c '
import json, sys
d = json.loads(sys.argv[1])
codes = [l.split() for l in open(sys.argv[2])]
for (name, code), o in zip(codes, d):
    c = o["clc"]
    assert c["peer_diagnosis"] == "0x%08x" % int(code, 16), c
    assert c["peer_diagnosis_name"] == name, (c, name)
x = d[len(codes) + 1]["clc"]
assert x["out_of_sync"] is True
assert x["peer_diagnosis_v2"][0]["peer_diagnosis_name"] == "SMC_CLC_DECL_MAXLINKERR"
u = d[len(codes) + 2]["clc"]
assert u["peer_diagnosis_name"] is None and u["peer_diagnosis_text"] == "unknown"
' "$output" "$T/codes"
}

@test "CLC with counts and offsets beyond the message: malformed, no overread" {
	python3 - "$TLIB" >"$T/bad.spec" <<-'EOF'
	import sys, struct; sys.path.insert(0, sys.argv[1]); from clc_messages import *
	p = proposal(1, 2, [b"E1"], b"S", [(3, 4)], eid_cnt=200, gid_cnt=255)
	print(tcp(p))
	# v2 extension offset pointing past the end
	q = bytearray(proposal(1, 2, [], b"S", []))
	q[50:52] = struct.pack(">H", 60000)
	print(tcp(bytes(q)))
	# length field below the header
	print(tcp(hdr(4, 6, 2, 0, 0) + bytes(8)))
	# wrong trailer
	print(tcp(decline(0x03010000)[:-4] + b"XXXX"))
	# unknown type
	print(tcp(hdr(9, 12, 2, 0, 0) + EYE_R))
	# a message longer than the segment: incomplete, not malformed
	print(tcp(decline(0x03010000)[:30]))
	EOF
	gen "$T/bad.pcap" <"$T/bad.spec"
	run -1 "$SMC" dump read "$T/bad.pcap"
	# after the v2 extension: 1 EID (32), the SMC-Dv2 extension (48), one
	# GID/CHID (10) and the trailer (4): room for (32+48+10+4)/32 = 2 EIDs
	[[ "${lines[0]}" == *"CLC proposal"*"malformed: 200 user EIDs, the message holds $(((32 + 48 + 10 + 4) / 32))" ]]
	[[ "${lines[1]}" == *"CLC proposal"*"malformed: v2 extension at offset 60000 beyond the message" ]]
	[[ "${lines[2]}" == *"CLC decline v2 len 6 malformed: CLC length 6 below 12" ]]
	[[ "${lines[3]}" == *"CLC decline v2 len 44 diag 0x03010000 SMC_CLC_DECL_PEERNOSMC"*"malformed: bad trailer 58585858" ]]
	[[ "${lines[4]}" == *"CLC type 9 v2 len 12 malformed: unknown CLC type 9" ]]
	[[ "${lines[5]}" == *"CLC decline v2 len 44 diag 0x03010000 SMC_CLC_DECL_PEERNOSMC"*" incomplete" ]]
	run -1 "$SMC" -j dump read "$T/bad.pcap"
	run -0 python3 -c '
import json, sys
d = json.loads(sys.argv[1])
assert [("error" in o) for o in d] == [True] * 5 + [False]
assert d[5]["clc"]["incomplete"] is True
' "$output"
}

# ------------------------------------------------------ follow, stats

# a spec of records cut from two random files: two connections, both
# directions, one record lost, one truncated, one repeated
follow_spec() {
	python3 - "$@" <<-'EOF'
	import sys
	a, b, seg = sys.argv[1], sys.argv[2], 3000
	seq = 0
	def rec(**kw):
	    global seq
	    seq += 1
	    kw.setdefault("seq", seq)
	    print("data " + " ".join("%s=%s" % kv for kv in kw.items()))
	size = 100000
	for off in range(0, size, seg):
	    n = min(seg, size - off)
	    if off == 30000:
	        seq += 2            # two records lost, tx and rx
	        continue
	    rec(dir="rx", token="0xabc", offset=off // 2, len=n // 2, **{"from": b})
	    if off == 60000:        # truncated to 1000 bytes
	        rec(dir="tx", token="0xabc", offset=off, len=1000, orig=n, **{"from": a})
	    else:
	        rec(dir="tx", token="0xabc", offset=off, len=n, **{"from": a})
	rec(dir="tx", token="0xabc", offset=1500, len=3000, **{"from": a})
	rec(mode="d", dir="tx", token="0xabc", offset=0, len=777,
	    local="2001:db8::1", peer="2001:db8::2", **{"from": b})
	print("cdc dir=rx token=0xabc seq=%d seqno=1" % (seq + 1))
	print("cdc dir=rx token=0xabc seq=%d seqno=2" % (seq + 2))
	print("cdc dir=rx token=0xabc seq=%d seqno=5" % (seq + 3))
	EOF
}

@test "follow: streams placed by offset, holes, truncation, overlaps" {
	head -c 100000 /dev/urandom >"$T/a.bin"
	head -c 100000 /dev/urandom >"$T/b.bin"
	follow_spec "$T/a.bin" "$T/b.bin" | gen "$T/fo.pcap"
	rm -rf "$T/out"
	run -0 "$SMC" dump follow "$T/fo.pcap" "$T/out"
	[ -f "$T/out/smcr-00000abc-tx.bin" ]
	[ -f "$T/out/smcr-00000abc-rx.bin" ]
	[ -f "$T/out/smcd-00000abc-tx.bin" ]
	[ ! -e "$T/out/smcd-00000abc-rx.bin" ]
	# what the files must hold, from the source files: the lost record
	# (30000-33000) and the cut-off part (61000-63000) stay zero
	run -0 python3 - "$T" <<-'EOF'
	import sys
	t = sys.argv[1]
	a = bytearray(open(t + "/a.bin", "rb").read())
	a[30000:33000] = bytes(3000)
	a[61000:63000] = bytes(2000)
	assert open(t + "/out/smcr-00000abc-tx.bin", "rb").read() == bytes(a)
	b = open(t + "/b.bin", "rb").read()
	rx = bytearray(b[:50000])
	rx[15000:16500] = bytes(1500)
	assert open(t + "/out/smcr-00000abc-rx.bin", "rb").read() == bytes(rx)
	assert open(t + "/out/smcd-00000abc-tx.bin", "rb").read() == b[:777]
	EOF
	run -0 "$SMC" dump follow "$T/fo.pcap" "$T/out"
	[[ "$output" == *$'\n\t\thole 30000-33000 (3000 bytes)'* ]]
	[[ "$output" == *$'\n\t\ttruncated 61000-63000 (2000 bytes)'* ]]
	[[ "$output" == *$'\n\t\toverlap 1500-4500 (3000 bytes, same)'* ]]
	[[ "$output" == *$'\n\t\thole 15000-16500 (1500 bytes)'* ]]
	run -0 "$SMC" -j dump follow "$T/fo.pcap" "$T/out"
	run -0 python3 -c '
import json, sys
d = json.loads(sys.argv[1])[0]
c = d["connections"]
assert [x["mode"] for x in c] == ["SMC-R", "SMC-D"]
tx = c[0]["tx"]
assert tx["file"] == "smcr-00000abc-tx.bin" and tx["start"] == 0
assert tx["end"] == 100000
assert tx["hole_ranges"] == [{"start": 30000, "end": 33000, "len": 3000}]
assert tx["truncated_ranges"] == [{"start": 61000, "end": 63000, "len": 2000}]
assert tx["overlap_ranges"] == [{"start": 1500, "end": 4500, "len": 3000, "same": True}]
assert c[0]["rx"]["cdc_seq_gaps"] == 1 and c[0]["rx"]["cdc_lost"] == 2
assert c[1]["local_address"] == "2001:db8::1" and c[1]["tx"]["bytes"] == 777
assert d["total"]["files"] == 3
' "$output"
}

@test "follow: 2000 streams with an overlap each list each one" {
	# each stream's list of overlapping ranges grows as they come (it
	# took room for 1000 ranges at its first: what that costs over many
	# streams is make bench's, scale: overlaps)
	awk 'BEGIN {
		for (i = 0; i < 2000; i++) {
			r = sprintf("data mode=d token=%d local=10.%d.%d.1 lport=%d offset=0 len=10", i + 1, int(i / 250) % 250, i % 250, 1000 + i)
			print r; print r
		}
	}' | gen "$T/ovl.pcap"
	rm -rf "$T/ovl"
	run -0 "$SMC" -j -d dump follow "$T/ovl.pcap" "$T/ovl"
	[ "$(jq -c '[.[0].connections[].tx.overlap_ranges | length] | [add, min, max]' <<<"$output")" = "[2000,1,1]" ]
	[ "$(jq -c '.[0].connections[7].tx.overlap_ranges[0]' <<<"$output")" = '{"start":0,"end":10,"len":10,"same":true}' ]
}

@test "stats: per connection and totals as the spec made them" {
	head -c 100000 /dev/urandom >"$T/a.bin"
	follow_spec "$T/a.bin" "$T/a.bin" | tee "$T/st.spec" | gen "$T/st.pcap"
	run -0 "$SMC" -j dump stats "$T/st.pcap"
	echo "$output" >"$T/st.json"
	# expected numbers from the spec lines
	run -0 python3 - "$T/st.spec" "$T/st.json" <<-'EOF'
	import json, sys
	recs = [dict(w.split("=", 1) for w in l.split()[1:])
	        for l in open(sys.argv[1])]
	kinds = [l.split()[0] for l in open(sys.argv[1])]
	d = json.load(open(sys.argv[2]))[0]
	t = d["total"]
	assert t["records"] == len(recs) and t["frames"] == len(recs)
	assert t["cdc"] == kinds.count("cdc") and t["data"] == kinds.count("data")
	assert t["bytes"] == sum(int(r["len"]) for r in recs if "len" in r)
	seqs = [int(r["seq"]) for r in recs]
	lost = sum(b - a - 1 for a, b in zip(seqs, seqs[1:]) if b > a + 1)
	assert lost == 2 and t["lost"] == lost and t["seq_gaps"] == 1, t
	assert t["connections"] == 2 and t["malformed"] == 0
	assert t["truncated"] == 1 and t["truncated_bytes"] == 2000
	assert t["holes"] == 2 and t["hole_bytes"] == 3000 + 1500
	assert t["overlaps"] == 1 and t["overlap_bytes"] == 3000
	c = d["connections"][0]
	assert c["token"] == "0x00000abc" and c["local_address"] == "10.0.0.1"
	assert c["local_port"] == 40000 and c["peer_address"] == "10.0.0.2"
	assert c["peer_port"] == 5201
	tx = [r for r in recs if r.get("dir") == "tx" and r.get("mode") != "d"]
	assert c["tx"]["records"] == len(tx)
	assert c["tx"]["bytes"] == sum(int(r["len"]) for r in tx)
	assert d["links"][0]["link"] == "02:00:00:00:00:01"
	assert d["links"][0]["first_seq"] == seqs[0]
	EOF
	run -0 "$SMC" dump stats "$T/st.pcap"
	[[ "${lines[0]}" == "smcr token 0x00000abc 10.0.0.1:40000 <-> 10.0.0.2:5201" ]]
	[[ "$output" == *$'\nlink 02:00:00:00:00:01 records '*' seq-gaps 1 lost 2 '* ]]
}

@test "stats: a record that comes late fills its seq gap" {
	# seq 3 before 2 (two CPUs), then 5 missing: 2 jumps forward, 1 late,
	# 1 lost; the stream has one 3-byte hole where seq 5 was
	gen "$T/re.pcap" <<-'EOF'
	data token=0x1 seq=0 offset=0 len=3
	data token=0x1 seq=1 offset=3 len=3
	data token=0x1 seq=3 offset=9 len=3
	data token=0x1 seq=2 offset=6 len=3
	data token=0x1 seq=4 offset=12 len=3
	data token=0x1 seq=6 offset=18 len=3
	EOF
	run -0 "$SMC" -j dump stats "$T/re.pcap"
	run -0 jq -c '.[0] | [.links[0] | .records, .seq_gaps, .lost, .reordered, .next_seq],
		[.total | .seq_gaps, .lost, .holes, .hole_bytes]' <<<"$output"
	[ "${lines[0]}" = "[6,2,1,1,7]" ]
	[ "${lines[1]}" = "[2,1,1,3]" ]
}

@test "follow: DIR that cannot be made, exit 3" {
	gen "$T/e.pcap" <<<"data token=0x1 seq=1 len=3"
	: >"$T/notadir"
	run -3 --separate-stderr "$SMC" dump follow "$T/e.pcap" "$T/notadir"
	[[ "$stderr" == *"notadir"* ]]
}

@test "follow: a symlink in DIR is not followed, the file it names stays as it was" {
	gen "$T/e.pcap" <<<"data token=0x1 seq=1 len=3"
	echo precious >"$T/victim"
	mkdir "$T/fo"
	ln -s "$T/victim" "$T/fo/smcr-00000001-tx.bin"
	run -3 --separate-stderr "$SMC" dump follow "$T/e.pcap" "$T/fo"
	[[ "$output" == *'write-error "Too many levels of symbolic links"'* ]]
	[ "$(cat "$T/victim")" = precious ]
	[ -L "$T/fo/smcr-00000001-tx.bin" ]
}

# ----------------------------------------------------- CLI and exit

@test "usage errors exit 2, unreadable captures exit 3" {
	run -2 --separate-stderr "$SMC" dump
	run -2 --separate-stderr "$SMC" dump read
	[[ "$stderr" == *"FILE expected"* ]]
	run -2 --separate-stderr "$SMC" dump follow "$T/x.pcap"
	[[ "$stderr" == *"FILE and DIR expected"* ]]
	run -2 --separate-stderr "$SMC" dump read --bogus x
	run -2 --separate-stderr "$SMC" dump frobnicate
	run -3 --separate-stderr "$SMC" dump read "$T/does-not-exist"
	[[ "$stderr" == *"No such file or directory"* ]]
	echo "not a capture" >"$T/junk"
	run -3 --separate-stderr "$SMC" dump read "$T/junk"
	run -3 --separate-stderr "$SMC" dump stats - </dev/null
	# a pcap header (little-endian, v2.4, snaplen 65535) of link type 0
	# (BSD loopback), which the decoder does not handle
	python3 -c 'import struct, sys
sys.stdout.buffer.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 65535, 0))' \
		>"$T/null.pcap"
	[ "$(stat -c %s "$T/null.pcap")" -eq 24 ]
	run -3 --separate-stderr "$SMC" dump read "$T/null.pcap"
	[[ "$stderr" == *"link type "*"(0) not supported"* ]]
	run -0 "$SMC" dump help
	[[ "$output" == "Usage: smc dump read "* ]]
}

@test "a keyword given twice is a usage error that names it, not the last one wins" {
	"$GEN" "$T/two.pcap" <<'EOF'
data token=1 len=10
EOF
	run -2 --separate-stderr "$SMC" dump read cdc-endian little cdc-endian big "$T/two.pcap"
	[ "$stderr" = 'Error: duplicate "cdc-endian": "big" is the second value.' ]
	run -2 --separate-stderr "$SMC" dump stats cdc-endian big cdc-endian big "$T/two.pcap"
	[ "$stderr" = 'Error: duplicate "cdc-endian": "big" is the second value.' ]
	run -2 --separate-stderr "$SMC" dump follow max-gap 1 max-gap 0 "$T/two.pcap" "$T/two"
	[ "$stderr" = 'Error: duplicate "max-gap": "0" is the second value.' ]
	[ ! -e "$T/two" ]
	run -2 --separate-stderr "$SMC" dump analyze window 5 window 6 "$T/two.pcap"
	[ "$stderr" = 'Error: duplicate "window": "6" is the second value.' ]
	run -2 --separate-stderr "$SMC" dump analyze token 0x1 token 0x2 "$T/two.pcap"
	[ "$stderr" = 'Error: duplicate "token": "0x2" is the second value.' ]
	[ -z "$output" ]
	run -0 "$SMC" dump analyze window 5 token 0x1 "$T/two.pcap"
}

@test "a keyword of another dump command is named, not taken for FILE or ignored" {
	"$GEN" "$T/kw.pcap" <<'EOF'
data token=1 len=10
EOF
	run -2 --separate-stderr "$SMC" dump read max-gap 5 "$T/kw.pcap"
	[ -z "$output" ]
	[ "$stderr" = 'Error: "max-gap" is not a keyword of "smc dump read", try "smc dump help".' ]
	run -2 --separate-stderr "$SMC" dump stats token 7 "$T/kw.pcap"
	[ "$stderr" = 'Error: "token" is not a keyword of "smc dump stats", try "smc dump help".' ]
	run -2 --separate-stderr "$SMC" dump follow window 5 "$T/kw.pcap" "$T/kw"
	[ "$stderr" = 'Error: "window" is not a keyword of "smc dump follow", try "smc dump help".' ]
	[ ! -e "$T/kw" ]
	run -2 --separate-stderr "$SMC" dump analyze max-gap 1 "$T/kw.pcap"
	[ "$stderr" = 'Error: "max-gap" is not a keyword of "smc dump analyze", try "smc dump help".' ]
	# where they belong they still work
	run -0 "$SMC" dump follow max-gap 5 "$T/kw.pcap" "$T/kw"
	run -0 "$SMC" dump analyze window 5 token 0x1 "$T/kw.pcap"
}

@test "JSON output parses, pretty too, for read, follow and stats" {
	head -c 100000 /dev/urandom >"$T/j.bin"
	follow_spec "$T/j.bin" "$T/j.bin" | gen "$T/js.pcap"
	local -a cmd
	for cmd in "read" "read -d -x" "stats" "follow"; do
		# shellcheck disable=SC2206
		cmd=($cmd "$T/js.pcap")
		[ "${cmd[0]}" = follow ] && cmd+=("$T/jsout")
		"$SMC" -j dump "${cmd[@]}" >"$T/out.json"
		python3 -c 'import json, sys; json.load(sys.stdin)' <"$T/out.json"
		"$SMC" -j -p dump "${cmd[@]}" >"$T/out.json"
		python3 -c 'import json, sys; json.load(sys.stdin)' <"$T/out.json"
	done
}

@test "pcapng: an if_tsoffset that overflows the time is a malformed frame, not a wrapped time" {
	# a section, an Ethernet interface with if_tsresol 2^0 (seconds) and
	# if_tsoffset INT64_MAX, one frame at timestamp 5: 5 + INT64_MAX
	# seconds is no time at all (pcapng: if_tsoffset, option 14, seconds)
	python3 - "$T/off.pcapng" <<-'PY'
	import struct, sys
	def blk(t, body):
	    n = 12 + len(body)
	    return struct.pack('<II', t, n) + body + struct.pack('<I', n)
	shb = blk(0x0A0D0D0A, struct.pack('<IHHq', 0x1A2B3C4D, 1, 0, -1))
	opts = (struct.pack('<HHB3x', 9, 1, 0x80) +
	        struct.pack('<HHq', 14, 8, 2**63 - 1) + struct.pack('<HH', 0, 0))
	idb = blk(1, struct.pack('<HHI', 1, 0, 65535) + opts)
	epb = blk(6, struct.pack('<IIIII', 0, 0, 5, 14, 14) + bytes(16))
	open(sys.argv[1], 'wb').write(shb + idb + epb)
	PY
	run -1 "$SMC" dump read "$T/off.pcapng"
	[ "$output" = "1 00:00:00.000000 malformed: pcapng timestamp out of range (interface 0: if_tsoffset 9223372036854775807 s)" ]
	run -1 "$SMC" dump stats "$T/off.pcapng"
	[[ $output == *"malformed 1 "* ]]
}
