#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# The Wireshark dissector contrib/wireshark/smcdump.lua against
# `smc -j -x dump read`: for every frame, each field the dissector decodes
# must equal what the decoder reports for the same frame (matched by frame
# number), and both must find records in the same frames. Captures come
# from testsuite/tools/gen-smcdump-pcap (values the tests choose) and from
# the real-kernel runs (build/smcr-results, or the directory in
# SMCDUMP_CAPTURES). make check runs the SMC-R tier before this one and
# sets SMCDUMP_REQUIRE_CAPTURES, so that missing captures fail the test
# there instead of skipping it.
#
# No expected value comes from the dissector itself: the reference is the
# decoder's JSON (tested on its own in dump-read.bats against an
# independent reader) or the test's own spec.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_file
	export LUA="$TOP/contrib/wireshark/smcdump.lua"
	export TZ=UTC

	command -v tshark >/dev/null || return 0
	host_make smc testsuite/tools
}

setup() {
	command -v tshark >/dev/null || skip "no tshark"
}

# ------------------------------------------------------------- helpers

# gen FILE [GEN OPTIONS] < SPEC
gen() {
	local out="$1"

	shift
	"$GEN" "$@" "$out"
}

# tshark with the dissector from the tree (or $WS_LUA); fails on a Lua error
tshark_lua() {
	tshark -n -X lua_script:"${WS_LUA:-$LUA}" "$@" 2>"$T/tshark.err"
	local rc=$?
	if grep -v '^Running as user' "$T/tshark.err" | grep -q .; then
		cat "$T/tshark.err" >&2
		return 1
	fi
	return $rc
}

# wscompare PCAP [SMC READ ARGS ...] [-- TSHARK ARGS ...]
# Prints "N records compared", or the differences (and fails).
wscompare() {
	local pcap="$1" rc
	local -a sargs=() targs=()

	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		sargs+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	targs=("$@")
	"$SMC" -j -x dump read "${sargs[@]}" "$pcap" >"$T/cmp.json"
	rc=$?
	if [ $rc -gt 1 ]; then
		echo "smc dump read: exit $rc"
		return 1
	fi
	# shellcheck disable=SC2046
	tshark_lua "${targs[@]}" -r "$pcap" -T fields -E header=y \
		-E separator=/t -E occurrence=a -E "aggregator=|" \
		$(python3 "$TLIB/wireshark_compare.py" fields) >"$T/cmp.tsv" || {
		echo "tshark failed"
		return 1
	}
	python3 "$TLIB/wireshark_compare.py" "$T/cmp.json" "$T/cmp.tsv"
}

# -------------------------------------------------------- generated

@test "SMC-R and SMC-D data and CDC, IPv4 and IPv6: every field as smc dump read" {
	gen "$T/j.pcap" <<-EOF
	data dir=tx token=0x1234abcd seq=10 offset=4096 len=100
	cdc dir=rx token=0x1234abcd seq=11 seqno=7 ctoken=0xcafe0001 pwrap=3 pcount=65536 cwrap=2 ccount=777 pflags=0x10 cflags=0x80
	data dir=rx token=0x1234abcd seq=12 offset=0 len=1 local=10.1.2.3 lport=1234 peer=10.3.2.1 pport=80
	data dir=tx token=0x1 seq=1 offset=0 len=1000
	cdc dir=tx token=0x1 seq=3 seqno=65535 ctoken=0x2 pwrap=65535 pcount=4294967295 cwrap=1 ccount=2 pflags=0xf8 cflags=0xe0
	cdc dir=rx token=0x1 seq=4 seqno=0 ctoken=0x1 pflags=0x80 cflags=0x20
	cdc mode=d dir=rx token=0x77 seq=5 pwrap=258 pcount=0x01020304 cwrap=1 ccount=5 pflags=0x40 cflags=0x40
	cdc mode=d dir=tx token=0xffffffff seq=4294967295 pwrap=65535 pcount=4294967295 cwrap=65535 ccount=4294967295
	data mode=d dir=tx token=0x77 seq=6 offset=123456789012 len=17 smcver=1
	data mode=d dir=rx token=0x77 seq=7 offset=18446744073709551000 len=600
	data dir=rx token=0x9 seq=8 offset=0 len=64 local=2001:db8::1 peer=2001:db8::2
	cdc dir=tx token=0x9 seq=9 seqno=3 ctoken=0x10 pcount=100 local=2001:db8::1 peer=2001:db8::2
	cdc mode=d dir=rx token=0x9 seq=10 ccount=100 cflags=0x80 local=fe80::1 peer=fe80::2
	data dir=tx token=0x5 seq=11 offset=0 len=0
	data dir=tx token=0x5 seq=12 offset=7 len=65000
	data dir=tx token=0x5 seq=13 offset=9 len=40 hdrlen=40
	EOF
	run -0 wscompare "$T/j.pcap"
	[ "$output" = "16 records compared" ]
}

@test "CDC flags: every producer and connection state bit, and reserved bits" {
	local b n=0 m spec=
	for m in r d; do
		for b in 0x80 0x40 0x20 0x10 0x08 0x04 0x02 0x01 0xff 0x00; do
			spec+="cdc mode=$m dir=tx token=0x5 seq=$((n++)) pflags=$b"$'\n'
			spec+="cdc mode=$m dir=rx token=0x5 seq=$((n++)) cflags=$b"$'\n'
		done
	done
	gen "$T/f.pcap" <<<"$spec"
	run -0 wscompare "$T/f.pcap"
	[ "$output" = "$n records compared" ]
	# the kernel's names (man smc-dump), not just agreement: 0x84 is
	# write_blocked and an unnamed bit
	gen "$T/f2.pcap" <<<"cdc dir=tx token=0x5 seq=1 pflags=0x84 cflags=0x01"
	run -0 tshark_lua -r "$T/f2.pcap" -T fields \
		-e smcdump.cdc.prod_flags.names \
		-e smcdump.cdc.conn_state_flags.names
	[ "$output" = $'write_blocked,0x04\t0x01' ]
}

@test "SMC-D CDC byte order: preference cdc_endian as smc's cdc-endian" {
	gen "$T/d.pcap" <<-EOF
	cdc mode=d dir=tx token=0x42 seq=1 pwrap=0x0102 pcount=0x01020304 cwrap=7 ccount=9 endian=big pflags=0x10
	cdc mode=d dir=rx token=0x42 seq=2 pwrap=0x0a0b pcount=0x0a0b0c0d cwrap=0x100 ccount=0x10000 endian=big
	EOF
	run -0 wscompare "$T/d.pcap" cdc-endian big -- -o smcdump.cdc_endian:big
	[ "$output" = "2 records compared" ]
	run -0 wscompare "$T/d.pcap"
	[ "$output" = "2 records compared" ]
	# the two orders give different cursors, and the comparison sees it
	run -1 wscompare "$T/d.pcap" cdc-endian big
	[[ "$output" == *"frame 1: prod (smcdump.cdc.prod.wrap): smc 258, tshark '513'"* ]]
	run -1 wscompare "$T/d.pcap" -- -o smcdump.cdc_endian:big
	[[ "$output" == *"frame 2: cons (smcdump.cdc.cons.count): smc 256, tshark '65536'"* ]]
}

@test "version 4: stream_seq, the byte-order flag over the preference, LLC records" {
	gen "$T/v4.pcap" -V 4 <<-EOF
	data dir=tx token=0x42 seq=1 offset=0 len=20
	cdc dir=tx token=0x42 seq=2 seqno=1 pcount=20
	cdc mode=d dir=rx token=0x43 seq=3 pwrap=0x0102 pcount=0x01020304 endian=big
	cdc mode=d dir=rx token=0x43 seq=4 pwrap=0x0102 pcount=0x01020304 sseq=5
	llc lgr=0x0a01 link=1 qp=17 peerqp=18 seq=5
	llc lgr=0x0a01 link=2 qp=19 peerqp=20 seq=6 dir=rx llctype=0x24 resp=1
	llc lgr=0x0a01 link=2 qp=19 peerqp=20 seq=7 llctype=0x0a
	llc lgr=0x0a01 seq=8 mode=d
	EOF
	run -0 wscompare "$T/v4.pcap"
	[ "$output" = "8 records compared" ]
	# the flag decides, whatever the preference and the option say
	run -0 wscompare "$T/v4.pcap" cdc-endian big -- -o smcdump.cdc_endian:big
	[ "$output" = "8 records compared" ]
	# and the values themselves
	# (by hand: each stream counts from 0, sseq=5 sets one; the LLC
	# streams are the link group's per direction and mode)
	run -0 tshark_lua -r "$T/v4.pcap" -T fields -e smcdump.stream_seq \
		-e smcdump.llc.type
	[ "$(echo $output)" = "0 0 0 5 0 0x01 0 0x24 1 0x0a 0" ]
}

# LLC messages of every type Linux sends, version 1 and 2: the bytes of
# dump-llc.bats's MSGS (each read by hand there), in its order
LLC_MSGS=(
	# CONFIRM_LINK, a response; the same as CONFIRM_LINK_V2
	012c008002000000000afe80000000000000000000000000000a000102010a01000103ff0000000000000000
	212c000002000000000afe80000000000000000000000000000a000102010a01000103ff0000000000000000
	# ADD_LINK rejected, reason 1; ADD_LINK_V2 of 104 bytes with
	# 2 rkeys, little-endian length and count
	022c014002000000000b0000fe80000000000000000000000000000b00020302530102030000000000000000
	2268000002000000000c0000fe80000000000000000000000000000c000203020300000700000000000000008000fe80000000000000000000000000000d000000000000000002001111111122222222000000003333333344444444555555550000000066666666
	# ADD_LINK_CONT: link 2, two rkeys
	032c000002020000000000a1000000a200000000000000a3000000b1000000b200000000000000b300000000
	# DELETE_LINK all orderly lost-path; _V2 response no-link-group;
	# a reason Linux does not define (7)
	042c006002000100000000000000000000000000000000000000000000000000000000000000000000000000
	242c008003002000000000000000000000000000000000000000000000000000000000000000000000000000
	042c000001000000070000000000000000000000000000000000000000000000000000000000000000000000
	# REQ_ADD_LINK_V2: 2 GIDs
	253c0000000000000000000000000000000000000000000002000000fe80000000000000000000000000000efe80000000000000000000000000000f
	# CONFIRM_RKEY negative retry, 3 tokens; CONFIRM_RKEY_CONT, one
	062c0030020000abcd0000000000001000020000bcde0000000000002000030000cdef000000000000300000
	082c000001020102030400000000000000100000000000000000000000000000000000000000000000000000
	# TEST_LINK
	072c0000000102030405060708090a0b0c0d0e0f000000000000000000000000000000000000000000000000
	# DELETE_RKEY negative, 2 rkeys; DELETE_RKEY_V2 of 20 bytes, 3 rkeys
	092c002002400000dead0001dead000200000000000000000000000000000000000000000000000000000000
	2914000003010000000000010000000200000003
	# a type Linux does not send
	0a2c0000ffffffff000000000000000000000000000000000000000000000000000000000000000000000000
)
# ADD_LINK_V2 as a big-endian host writes it: length 0x0068, 2 rkeys
LLC_AL2_BE=2200680002000000000c0000fe80000000000000000000000000000c000203020300000700000000000000008000fe80000000000000000000000000000d000000000000000000021111111122222222000000003333333344444444555555550000000066666666

# every LLC type; ADD_LINK_V2 in both byte orders, and big-endian bytes
# under a clear flag; messages the capture cut (the frame's 130 bytes
# before the message: Ethernet, IPv4, UDP, header, link); ADD_LINK_V2
# received from a peer of the other byte order, both ways
llc_spec() {
	local m
	for m in "${LLC_MSGS[@]}"; do
		echo "llc lgr=0x0a01 link=1 qp=17 peerqp=18 msg=$m"
	done
	cat <<-EOF
	llc lgr=0x0a01 msg=$LLC_AL2_BE flags=0x08
	llc lgr=0x0a01 msg=$LLC_AL2_BE
	llc lgr=0x0a01 msg=${LLC_MSGS[0]} cut=$((130 + 30))
	llc lgr=0x0a01 msg=${LLC_MSGS[9]} cut=$((130 + 4 + 13 + 5))
	llc lgr=0x0a01 msg=${LLC_MSGS[3]} cut=$((130 + 72 + 16 + 8))
	llc lgr=0x0a01 msg=${LLC_MSGS[8]} cut=$((130 + 28 + 16 + 4))
	llc lgr=0x0a01 msg=${LLC_MSGS[0]} cut=$((130 + 2))
	llc lgr=0x0a01 msg=$LLC_AL2_BE flags=0x01
	llc lgr=0x0a01 msg=${LLC_MSGS[3]} flags=0x09
	EOF
}

@test "LLC messages: every type's fields as smc dump read, both byte orders, cut" {
	llc_spec | gen "$T/llc.pcap" -V 4
	run -0 wscompare "$T/llc.pcap"
	[ "$output" = "24 records compared" ]
	# the members were there to compare: every one man smc-dump lists
	[ "$(jq -c '[.[].llc | select(. != null) | keys[]] | unique' "$T/cmp.json")" = '["all","direct","err_mask","gids","initial_psn","length","link_id","link_uid","max_conns","max_links","negative","num_gids","num_invalid_rkeys","num_rkeys","orderly","qp_mtu","reason","reason_code","reject_reason","rejected","retry","rkeys","rtokens","sender_gid","sender_mac","sender_qpn","target_gid","user_data","version"]' ]

	# by hand, from the bytes: CONFIRM_LINK's sender and link
	local -a tf=(-T fields -E "separator=," -E occurrence=a -E "aggregator=|")
	run -0 tshark_lua -r "$T/llc.pcap" -Y "frame.number == 1" "${tf[@]}" \
		-e smcdump.llc.sender_mac -e smcdump.llc.sender_gid \
		-e smcdump.llc.sender_qpn -e smcdump.llc.link_num \
		-e smcdump.llc.link_uid -e smcdump.llc.max_links \
		-e smcdump.llc.max_conns
	[ "$output" = "02:00:00:00:00:0a,fe80::a,258,1,0x0a010001,3,255" ]
	# ADD_LINK_V2: 0x0068 and 2 rkeys little-endian (frame 4), big-endian
	# under the flag (16), big-endian bytes read little-endian under a
	# clear one (17: 0x6800, 0x0200 rkeys, of which the message holds 2)
	run -0 tshark_lua -r "$T/llc.pcap" -Y "frame.number in {4, 16, 17}" \
		"${tf[@]}" -e smcdump.llc.length -e smcdump.llc.num_rkeys \
		-e smcdump.llc.new_rkey -e smcdump.llc.target_gid
	[ "$output" = "104,2,0x22222222|0x55555555,fe80::d
104,2,0x22222222|0x55555555,fe80::d
26624,512,0x22222222|0x55555555,fe80::d" ]
	# received (23: big-endian bytes on a little-endian recorder, 24: the
	# other way round): the sender's order, told by the length
	run -0 tshark_lua -r "$T/llc.pcap" -Y "frame.number in {23, 24}" \
		"${tf[@]}" -e smcdump.llc.length -e smcdump.llc.num_rkeys
	[ "$output" = "104,2
104,2" ]
	# DELETE_LINK's reason by name, and 7 by number
	run -0 tshark_lua -r "$T/llc.pcap" -Y "frame.number in {6, 8}" -O smcdump
	[[ "$output" == *"Reason code: lost-path (0x00010000)"* ]]
	[[ "$output" == *"Reason code: Unknown (0x00000007)"* ]]
	# CONFIRM_RKEY: three tokens, the first without a link; cut inside
	# the second (19): the first only
	run -0 tshark_lua -r "$T/llc.pcap" -Y "frame.number in {10, 19}" \
		"${tf[@]}" -e smcdump.llc.num_rkeys -e smcdump.llc.rtoken.link_num \
		-e smcdump.llc.rtoken.rkey
	[ "$output" = "2,2|3,0x0000abcd|0x0000bcde|0x0000cdef
2,,0x0000abcd" ]
	# CONFIRM_LINK cut at 30 of its 36 bytes (18): the header's only;
	# cut in the header (22): no message decoded
	run -0 tshark_lua -r "$T/llc.pcap" -Y "frame.number in {18, 22}" \
		"${tf[@]}" -e frame.number -e smcdump.llc.version \
		-e smcdump.llc.length -e smcdump.llc.sender_mac \
		-e smcdump.llc.type
	[ "$output" = "18,1,44,,0x01
22,,,," ]
}

@test "truncated records: snaplen flag, orig_len, capture cut, expert info" {
	gen "$T/t.pcap" <<-EOF
	data dir=tx token=0x1 seq=1 offset=0 len=64 orig=65000
	data dir=tx token=0x1 seq=2 offset=65000 len=1000 cut=500
	data mode=d dir=rx token=0x1 seq=3 offset=0 len=100 orig=200 cut=100
	data dir=tx token=0x1 seq=4 offset=3 len=10 cut=80
	EOF
	run -0 wscompare "$T/t.pcap"
	[ "$output" = "4 records compared" ]
	# the expert info, by frame, as the spec made them
	run -0 tshark_lua -r "$T/t.pcap" -Y smcdump.expert.truncated \
		-T fields -e frame.number
	[ "${lines[*]}" = "1 3" ]
	run -0 tshark_lua -r "$T/t.pcap" -Y smcdump.expert.cap_truncated \
		-T fields -e frame.number
	[ "${lines[*]}" = "2 3 4" ]
}

@test "Alibaba layout (hdr_ver < 3): prefix fields and the raw bytes" {
	gen "$T/a.pcap" <<-EOF
	legacy hdrver=1 smcver=2 mode=d type=2 hex=000102030405060708090a0b0c0d0e0f10
	legacy hdrver=2 smcver=1 mode=r type=1 hex=41424344
	legacy hdrver=0 smcver=1 mode=r type=7
	legacy hdrver=2 mode=r type=1 hex=4142434445464748 reclen=9
	legacy hdrver=1 mode=d type=1 hex=00112233445566778899 cut=60
	EOF
	run -0 wscompare "$T/a.pcap"
	[ "$output" = "5 records compared" ]
}

@test "malformed records: the same reason as smc dump read, expert info" {
	local e=02:00:00:00:00:01
	z() { printf "%0$(($1 * 2))d" 0; }	# N zero bytes in hex
	gen "$T/s.pcap" <<-EOF
	udp hex=cfd3e7 smac=$e dmac=$e
	udp hex=cfd3e7a503020101 smac=$e dmac=$e
	udp hex=cfd3e7a5030201010018$(z 14) smac=$e dmac=$e
	udp hex=0102030405060708 smac=$e dmac=$e
	data token=0x1 seq=4 len=20 hdrlen=16
	data token=0x1 seq=5 len=10 reclen=999
	data token=0x1 seq=5 len=10 reclen=20
	data token=0x1 seq=6 len=10 mode=3
	data token=0x1 seq=7 len=10 type=9
	data token=0x1 seq=8 len=10 orig=5
	data token=0x1 seq=9 len=10 orig=11 flags=0
	cdc token=0x1 seq=10 hex=fe28$(z 38)
	cdc mode=d token=0x1 seq=11 hex=fe$(z 43)
	cdc token=0x1 seq=12 hex=002c$(z 42)
	cdc token=0x1 seq=12 hex=fe2b$(z 42)
	cdc token=0x1 seq=13 flags=2
	udp hex=cfd3e7a50302010200$(printf %x $((32 + 44)))2000$(z 3)0d000000010000002c0000000000000005fe2c$(z 42) smac=$e dmac=$e
	data token=0x1 seq=14 len=10 flags=2
	udp hex=cfd3e7a50302010100$(printf %x $((32 + 10)))2000$(z 3)0f000000010000000affffffffffffffff$(z 10) smac=$e dmac=$e
	udp hex=cfd3e7a50302010100$(printf %x $((32 + 10)))2000$(z 3)10000000010000000afffffffffffffff6$(z 10) smac=$e dmac=$e
	udp hex=cfd3e7a50302010100$(printf %x $((32 + 10)))2000$(z 3)11000000010000000afffffffffffffff5$(z 10) smac=$e dmac=$e
	cdc token=0x1 seq=16 cut=100
	data token=0x1 seq=17 offset=0 len=10 cut=60
	data token=0x1 seq=18 offset=0 len=10
	EOF
	# the decoder finds a different fault in each but the last
	run -1 "$SMC" -j dump read "$T/s.pcap"
	run -0 python3 -c '
import json, sys
d = json.loads(sys.argv[1])
e = [o.get("error") for o in d]
print(len(d), len(set(e[:-1])), e[-1])' "$output"
	[ "$output" = "24 23 None" ]
	run -0 wscompare "$T/s.pcap"
	[ "$output" = "24 records compared" ]
}

@test "only records: other UDP and TCP are left to their dissectors" {
	# other UDP between distinct MACs, UDP on lo (zero MACs, which are
	# equal but no smc-dummy link's), TCP without CLC
	gen "$T/o.pcap" <<-EOF
	udp hex=0102030405060708 sport=5353 dport=5353
	tcp flags=PA hex=474554202f20485454502f312e310d0a
	data token=0x1 seq=1 len=4
	udp hex=0102030405060708 sport=5353 dport=5353 smac=00:00:00:00:00:00 dmac=00:00:00:00:00:00
	EOF
	run -0 tshark_lua -r "$T/o.pcap" -Y smcdump -T fields -e frame.number
	[ "$output" = "3" ]
	# the first three frames as smc dump read sees them (it takes the
	# fourth for an smc-dummy frame; see contrib/wireshark/README.md)
	gen "$T/o3.pcap" <<-EOF
	udp hex=0102030405060708 sport=5353 dport=5353
	tcp flags=PA hex=474554202f20485454502f312e310d0a
	data token=0x1 seq=1 len=4
	EOF
	run -0 wscompare "$T/o3.pcap"
	[ "$output" = "1 records compared" ]
}

@test "records on ports of other dissectors: with udp.try_heuristic_first" {
	gen "$T/p.pcap" <<-EOF
	data dir=tx token=0x3 seq=1 offset=0 len=10 lport=40000 pport=53
	cdc dir=rx token=0x3 seq=2 seqno=1 ctoken=0x4 pcount=10 lport=40000 pport=53
	data dir=tx token=0x3 seq=3 offset=0 len=10 lport=40000 pport=4791
	EOF
	run -0 wscompare "$T/p.pcap" -- -o udp.try_heuristic_first:TRUE
	[ "$output" = "3 records compared" ]
	# without it, the DNS and RoCEv2 port dissectors win (README)
	run -1 wscompare "$T/p.pcap"
	[[ "$output" == *"frame 1: record: smc 'data', tshark 'not decoded by the dissector'"* ]]
}

@test "pcapng, Linux cooked v1 and v2, raw IP, VLAN, nanoseconds: same fields" {
	local spec="data dir=tx token=0xabc seq=1 offset=7 len=33 ts=1700000001.000001
cdc dir=rx token=0xabc seq=2 seqno=4 ctoken=0xdef pcount=40 ts=1700000001.000002
cdc mode=d dir=tx token=0xabc seq=3 pcount=9 cflags=0x40 ts=1700000001.000003
data dir=rx token=0xabc seq=4 offset=0 len=5 vlan=7 local=fd00::1 peer=fd00::2
legacy hdrver=1 mode=r type=1 hex=0102"
	local args
	for args in "" "-g" "-g -n" "-l sll" "-l sll2" "-l raw" "-l sll2 -g" \
		    "-l sll -n"; do
		# shellcheck disable=SC2086
		gen "$T/x.pcap" $args <<<"$spec"
		run -0 wscompare "$T/x.pcap"
		[ "$output" = "5 records compared" ] ||
			{ echo "$args: $output"; return 1; }
	done
}

@test "a dissector that decodes a field wrongly fails the comparison" {
	gen "$T/w.pcap" <<-EOF
	cdc dir=tx token=0x5 seq=1 pflags=0x80
	data dir=tx token=0x5 seq=2 offset=77 len=3
	EOF
	run -0 wscompare "$T/w.pcap"
	# write_blocked taken for 0x40
	sed 's/{ 0x80, "write_blocked"/{ 0x40, "write_blocked"/' "$LUA" \
		>"$T/bad1.lua"
	run ! cmp -s "$LUA" "$T/bad1.lua"
	WS_LUA="$T/bad1.lua" run -1 wscompare "$T/w.pcap"
	[[ "$output" == *"frame 1: prod_flags (smcdump.cdc.prod_flags.names): smc ['write_blocked'], tshark '0x80'"* ]]
	# the stream offset from the wrong header bytes
	sed 's/local offset = tvb(24, 8):uint64()/local offset = tvb(20, 8):uint64()/' \
		"$LUA" >"$T/bad2.lua"
	run ! cmp -s "$LUA" "$T/bad2.lua"
	WS_LUA="$T/bad2.lua" run -1 wscompare "$T/w.pcap"
	[[ "$output" == *"frame 2: offset (smcdump.stream_offset)"* ]]

	# LLC: ADD_LINK_V2 (little-endian), DELETE_LINK lost-path, TEST_LINK
	gen "$T/wl.pcap" -V 4 <<-EOF
	llc lgr=0x0a01 msg=${LLC_MSGS[3]}
	llc lgr=0x0a01 msg=${LLC_MSGS[5]}
	llc lgr=0x0a01 msg=${LLC_MSGS[11]}
	EOF
	run -0 wscompare "$T/wl.pcap"
	[ "$output" = "3 records compared" ]
	# version 2's length in the other byte order than the flag's
	sed 's/if big then/if not big then/' "$LUA" >"$T/bad3.lua"
	run ! cmp -s "$LUA" "$T/bad3.lua"
	WS_LUA="$T/bad3.lua" run -1 wscompare "$T/wl.pcap"
	[[ "$output" == *"frame 1: length (smcdump.llc.length): smc 104, tshark '26624'"* ]]
	# a reason misnamed in the value_string
	sed 's/"lost-path"/"lost path"/' "$LUA" >"$T/bad4.lua"
	run ! cmp -s "$LUA" "$T/bad4.lua"
	WS_LUA="$T/bad4.lua" run -1 wscompare "$T/wl.pcap"
	[[ "$output" == *"frame 2: reason (_ws.col.llc_reason): smc 'lost-path', tshark 'lost path'"* ]]
	# a field left out, and one shown where the decoder has none
	sed '/t:add(f.llc_user_data/d' "$LUA" >"$T/bad5.lua"
	run ! cmp -s "$LUA" "$T/bad5.lua"
	WS_LUA="$T/bad5.lua" run -1 wscompare "$T/wl.pcap"
	[[ "$output" == *"frame 3: user_data (smcdump.llc.user_data): smc '000102030405060708090a0b0c0d0e0f', tshark ''"* ]]
	sed 's/if not v2 and bit32.band(m(3, 1):uint(), 0x40) ~= 0 then/if true then/' \
		"$LUA" >"$T/bad6.lua"
	run ! cmp -s "$LUA" "$T/bad6.lua"
	WS_LUA="$T/bad6.lua" run -1 wscompare "$T/wl.pcap"
	[[ "$output" == *"frame 1: smcdump.llc.reject_reason not in the decoder's llc object: smc None, tshark '0'"* ]]
}

# ------------------------------------------------------- connections

# smcdump.conn and smcdump.peer_token (README, "Connections"). The
# expected numbers are worked out here from the rule: an end is (mode,
# family, token, local side, peer side), local being the source of a tx
# frame and the destination of an rx one; a new end takes the number of
# the earliest unpaired end of its mode whose local side is its peer side
# and the other way round, else the next number.

# ends of SMC-D loopback: 127.0.0.1:33146 and 127.0.0.1:46149 (every
# connection below on them), of SMC-R over IPv6, and two on
# 127.0.0.1:50000/50001 of different modes
conn_spec() {
	local a="local=127.0.0.1 lport=33146 peer=127.0.0.1 pport=46149"
	local b="local=127.0.0.1 lport=46149 peer=127.0.0.1 pport=33146"
	local c="local=fd00::1 lport=40000 peer=fd00::2 pport=5201"
	local d="local=fd00::2 lport=5201 peer=fd00::1 pport=40000"
	local e="local=127.0.0.1 lport=50000 peer=127.0.0.1 pport=50001"
	local f="local=127.0.0.1 lport=50001 peer=127.0.0.1 pport=50000"

	cat <<-EOF
	data mode=d dir=tx token=0x2 offset=0 len=10 $a
	cdc dir=tx token=0x10 seqno=1 pcount=5 ctoken=0x20 $c
	data mode=d dir=rx token=0x1 offset=0 len=10 $b
	cdc mode=d dir=tx token=0x2 pcount=10 $a
	llc lgr=0x0a01 link=1 qp=17 peerqp=18 local=fe80::1 lport=0 peer=fe80::2 pport=0
	data mode=d dir=tx token=0x30 offset=0 len=3 $e
	cdc dir=rx token=0x10 seqno=1 ccount=5 $c
	data dir=tx token=0x31 offset=0 len=3 $f
	cdc dir=tx token=0x20 seqno=1 ccount=5 ctoken=0x10 $d
	legacy hdrver=1 mode=d type=1 hex=0102
	data mode=d dir=tx token=0x2 offset=10 len=10 orig=5 $a
	cdc mode=d dir=tx token=0x1 ccount=10 $b
	data mode=d dir=tx token=0x4 offset=0 len=7 $a
	cdc mode=d dir=rx token=0x2 ccount=10 cflags=0x40 $a
	data mode=d dir=tx token=0x6 offset=0 len=7 $a
	data mode=d dir=rx token=0x3 offset=0 len=7 $b
	cdc mode=d dir=tx token=0x4 pcount=7 $a
	cdc mode=d dir=tx token=0x5 ccount=7 $b
	data mode=d dir=tx token=0x30 offset=3 len=3 $e
	cdc mode=d dir=rx token=0x6 ccount=7 $a
	EOF
}

@test "connection numbers: both ends of a connection share one, peer_token" {
	conn_spec | gen "$T/c.pcap" -V 4
	# frame: what the rule makes of it
	#  1 A 0x2 new, nothing to pair with          conn 0
	#  2 C 0x10 (SMC-R, IPv6) new                 conn 1
	#  3 B 0x1, local 46149 (the destination of rx): pairs with A
	#                                             conn 0, peer 0x2
	#  4 A again, now paired                      conn 0, peer 0x1
	#  5 LLC: no connection
	#  6 E 0x30 new                               conn 2
	#  7 C again (rx: local is the destination), not paired yet: conn 1
	#  8 F 0x31 is E's sides reversed, but SMC-R: conn 3
	#  9 D 0x20 pairs with C                      conn 1, peer 0x10
	# 10 Alibaba layout, 11 malformed (A's tuple and token): none
	# 12 B sending                                conn 0, peer 0x2
	# 13 0x4 on A's sides: A's reverse, B, is paired: new   conn 4
	# 14 A receiving                              conn 0, peer 0x1
	# 15 0x6 on A's sides, new                    conn 5
	# 16 0x3 on B's sides: the earliest unpaired of 0x4 and 0x6 is 0x4
	#                                             conn 4, peer 0x4
	# 17 0x4                                      conn 4, peer 0x3
	# 18 0x5 on B's sides: pairs with 0x6         conn 5, peer 0x6
	# 19 E, its peer never seen                   conn 2
	# 20 0x6                                      conn 5, peer 0x5
	local want="1,0,
2,1,
3,0,0x00000002
4,0,0x00000001
5,,
6,2,
7,1,
8,3,
9,1,0x00000010
10,,
11,,
12,0,0x00000002
13,4,
14,0,0x00000001
15,5,
16,4,0x00000004
17,4,0x00000003
18,5,0x00000006
19,2,
20,5,0x00000005"
	local -a e=(-T fields -E "separator=," -e frame.number -e smcdump.conn
		    -e smcdump.peer_token)
	run -0 tshark_lua -r "$T/c.pcap" "${e[@]}"
	[ "$output" = "$want" ] || { diff <(echo "$want") - <<<"$output"; return 1; }
	# frame 11 is malformed (and so without a number), not absent
	run -0 tshark_lua -r "$T/c.pcap" -Y smcdump.error -T fields -e frame.number
	[ "$output" = 11 ]

	# a second pass (no tree on the first: the addresses cannot come
	# from ip.src there) shows what the first made, peer_token included:
	# frame 1 stays without one, though the pair is known by then
	run -0 tshark_lua -2 -r "$T/c.pcap" "${e[@]}"
	[ "$output" = "$want" ] || { diff <(echo "$want") - <<<"$output"; return 1; }
	# filters on the second pass see the same numbers
	run -0 tshark_lua -2 -r "$T/c.pcap" -Y "smcdump.conn == 4" -T fields \
		-e frame.number
	[ "${lines[*]}" = "13 16 17" ]
	run -0 tshark_lua -2 -r "$T/c.pcap" -Y "smcdump.peer_token == 0x2" \
		-T fields -e frame.number
	[ "${lines[*]}" = "3 12" ]
}

# ends_block N PORT: N connections with both ends, every first end's
# record before any second end's; PORT 1: all on 10.0.0.1:40000 -
# 10.0.0.2:5201 (a port used again and again), 0: client port 1000 + i
ends_block() {
	awk -v n="$1" -v one="$2" 'BEGIN {
		for (i = 0; i < n; i++)
			printf "data mode=d token=%d local=10.0.0.1 peer=10.0.0.2 lport=%d pport=5201 offset=0 len=1\n", 1048576 + i, one ? 40000 : 1000 + i
		for (i = 0; i < n; i++)
			printf "data mode=d token=%d local=10.0.0.2 peer=10.0.0.1 lport=5201 pport=%d dir=rx offset=0 len=1\n", 2097152 + i, one ? 40000 : 1000 + i
	}'
}

@test "connection numbers: 2000 ends waiting on one 4-tuple pair oldest first, as read -d" {
	# the queue of a 4-tuple's ends without a pair (its cost against one
	# 4-tuple each is make bench's: pairing)
	ends_block 2000 1 | gen "$T/one.pcap"
	local -a a=(-o udp.try_heuristic_first:TRUE -T fields -e smcdump.conn)
	tshark_lua -r "$T/one.pcap" "${a[@]}" >"$T/one.conn"
	# end i and end 2000 + i are connection i, as read -d numbers them
	"$SMC" -j dump read -d "$T/one.pcap" | jq -r '.[].conn' | cmp - "$T/one.conn"
	[ "$(wc -l <"$T/one.conn")" -eq 4000 ]
	[ "$(sed -n '2001p;4000p' "$T/one.conn" | tr '\n' ' ')" = "0 1999 " ]
}

@test "connection numbers: the dissector's and smc dump read -d's agree, record by record" {
	conn_spec | gen "$T/c.pcap" -V 4
	# frame,conn of every record the decoder numbers (read -d); the
	# dissector's, for the frames that have one; the same lists (exit 1:
	# frame 11 is malformed)
	run -1 "$SMC" -j dump read -d "$T/c.pcap"
	smc=$(jq -r '.[] | select(has("conn")) | "\(.frame),\(.conn)"' <<<"$output")
	run -0 tshark_lua -r "$T/c.pcap" -Y smcdump.conn -T fields \
		-E separator=, -e frame.number -e smcdump.conn
	# 20 frames less the LLC (5), Alibaba (10) and malformed (11) ones
	[ "$(wc -l <<<"$smc")" -eq 17 ]
	[ "$output" = "$smc" ] || { diff <(echo "$smc") - <<<"$output"; return 1; }
	# SMC-R ends whose sent CDC messages name other tokens (0 here) are
	# not paired, by either: C and D are two connections
	conn_spec | sed 's/ ctoken=0x[12]0//' | gen "$T/n.pcap" -V 4
	run -1 "$SMC" -j dump read -d "$T/n.pcap"
	smc=$(jq -r '.[] | select(.frame == 2 or .frame == 9) | .conn' <<<"$output")
	[ "$(echo $smc)" = "1 4" ]
	run -0 tshark_lua -r "$T/n.pcap" -Y "frame.number == 2 or frame.number == 9" \
		-T fields -e smcdump.conn
	[ "$(echo $output)" = "1 4" ]
}

@test "connection numbers: each is one UDP conversation with both ends" {
	conn_spec | gen "$T/c.pcap" -V 4
	local n rows=

	# per number: the one conversation, frames each way and in all
	for n in 0 1 2 3 4 5; do
		run -0 tshark_lua -r "$T/c.pcap" -q -z "conv,udp,smcdump.conn == $n"
		rows+="$n $(awk '$2 == "<->" { printf "%s %s %s %s %s;", $1, $3, $4, $7, $10 }' <<<"$output")"$'\n'
	done
	printf '%s' "$rows"
	# 0: frames 1 3 4 (33146 > 46149) and 12 14 (back); 1: 2 (fd00::1 >)
	# and 7 9; 2: 6 19; 3: 8; 4: 13 16 17; 5: 15 (>) and 18 20 (<)
	[ "$rows" = "0 127.0.0.1:33146 127.0.0.1:46149 2 3 5;
1 fd00::1:40000 fd00::2:5201 2 1 3;
2 127.0.0.1:50000 127.0.0.1:50001 0 2 2;
3 127.0.0.1:50001 127.0.0.1:50000 0 1 1;
4 127.0.0.1:33146 127.0.0.1:46149 0 3 3;
5 127.0.0.1:33146 127.0.0.1:46149 2 1 3;
" ]
	# UDP alone cannot tell connections on one 4-tuple apart: 0, 4, 5
	# and malformed frame 11 are one conversation, so are 2 and 3
	run -0 tshark_lua -r "$T/c.pcap" -q -z conv,udp
	run -0 awk '$2 == "<->" { print $1, $3, $10 }' <<<"$output"
	[ "$output" = "127.0.0.1:33146 127.0.0.1:46149 12
fd00::1:40000 fd00::2:5201 3
127.0.0.1:50000 127.0.0.1:50001 3
fe80::1:0 fe80::2:0 1
10.0.0.1:40000 10.0.0.2:5201 1" ]
}

# ------------------------------------------------- numbers for graphs

# The cursors and data offsets as numeric fields, for Statistics > I/O
# Graphs (README, "Graphs"). Every expected number is worked out here:
# pos = wrap * 2^32 + count; with rmb_size S, stream_offset = wrap * S +
# count and the limit the consumer cursor sets is stream_offset + S.

@test "cursors as numbers: pos, and with rmb_size the stream offset and limit" {
	gen "$T/n.pcap" <<-EOF
	cdc dir=rx token=0x1234abcd seq=1 pwrap=3 pcount=65536 cwrap=2 ccount=777
	cdc mode=d dir=tx token=0x77 seq=2 pwrap=65535 pcount=4294967295 cwrap=65535 ccount=4294967295
	cdc mode=d dir=rx token=0x77 seq=3 pwrap=258 pcount=0x01020304 cwrap=1 ccount=5
	data dir=tx token=0x1 seq=4 offset=4096 len=1000
	EOF
	local e=(-e smcdump.cdc.prod.pos -e smcdump.cdc.cons.pos
		 -e smcdump.cdc.prod.stream_offset -e smcdump.cdc.cons.stream_offset
		 -e smcdump.cdc.cons.limit -e smcdump.stream_offset
		 -e smcdump.stream_end -e smcdump.payload_len)
	run -0 tshark_lua -r "$T/n.pcap" -T fields -E separator=, "${e[@]}"
	printf '%s\n' "${lines[@]}"
	# 3 * 4294967296 + 65536, 2 * 4294967296 + 777; 2^48 - 1;
	# 258 * 2^32 + 0x01020304 = 1108101562368 + 16909060, 2^32 + 5
	[ "${lines[0]}" = "12884967424,8589935369,,,,,,44" ]
	[ "${lines[1]}" = "281474976710655,281474976710655,,,,,,32" ]
	[ "${lines[2]}" = "1108118471428,4294967301,,,,,,32" ]
	[ "${lines[3]}" = ",,,,,4096,5096,1000" ]
	[ "${#lines[@]}" -eq 4 ]
	run -0 tshark_lua -o smcdump.rmb_size:65536 -r "$T/n.pcap" -T fields \
		-E separator=, "${e[@]}"
	printf '%s\n' "${lines[@]}"
	# 3 * 65536 + 65536, 2 * 65536 + 777, + 65536;
	# 65535 * 65536 + 4294967295 = 8589869055, + 65536;
	# 258 * 65536 + 16909060 = 33817348, 65536 + 5, + 65536
	[ "${lines[0]}" = "12884967424,8589935369,262144,131849,197385,,,44" ]
	[ "${lines[1]}" = "281474976710655,281474976710655,8589869055,8589869055,8589934591,,,32" ]
	[ "${lines[2]}" = "1108118471428,4294967301,33817348,65541,131077,,,32" ]
	[ "${lines[3]}" = ",,,,,4096,5096,1000" ]
	# usable in filters: the cursor after a wrap is the larger
	run -0 tshark_lua -r "$T/n.pcap" -Y 'smcdump.cdc.prod.pos > 12884967424' \
		-T fields -e smcdump.seq
	[ "$output" = "$(printf '2\n3')" ]
}

@test "I/O graph numbers: a stall seen in MAX of stream_end, prod and limit per interval" {
	# RMB of 4096 bytes: 3000 sent and announced; the peer consumes them
	# (limit 3000 + 4096); 3000 more, the producer cursor wraps to 1:1904
	# (stream offset 6000 = 4096 + 1904); then nothing for a second until
	# the peer announces 1:1904 consumed (limit 6000 + 4096)
	gen "$T/io.pcap" <<-EOF
	data dir=tx token=0x7 seq=1 offset=0 len=3000 ts=1700000000.0
	cdc dir=tx token=0x7 seq=2 pcount=3000 ts=1700000000.01
	cdc dir=rx token=0x7 seq=3 ccount=3000 ts=1700000000.02
	data dir=tx token=0x7 seq=4 offset=3000 len=3000 ts=1700000000.6
	cdc dir=tx token=0x7 seq=5 pwrap=1 pcount=1904 ts=1700000000.61
	cdc dir=rx token=0x7 seq=6 cwrap=1 ccount=1904 ts=1700000001.7
	EOF
	# tshark's io,stat takes a field's value only when its filter names
	# the field (the GUI's Y Field needs no such filter)
	local tx='smcdump.token == 7 && smcdump.dir == "tx"'
	local rx='smcdump.token == 7 && smcdump.dir == "rx"'
	run -0 tshark_lua -o smcdump.rmb_size:4096 -r "$T/io.pcap" -q -z \
		"io,stat,0.5,MAX(smcdump.stream_end)smcdump.stream_end && $tx,MAX(smcdump.cdc.prod.stream_offset)smcdump.cdc.prod.stream_offset && $tx,MAX(smcdump.cdc.cons.limit)smcdump.cdc.cons.limit && $rx"
	printf '%s\n' "${lines[@]}"
	# the rows of the table: interval, then the three maxima
	run -0 awk -F'|' '$2 ~ /<>/ { gsub(/ /, ""); print $2, $3, $4, $5 }' <<<"$output"
	[ "$output" = "$(printf '%s\n' '0.0<>0.5 3000 3000 7096' '0.5<>1.0 6000 6000 0' \
		'1.0<>1.5 0 0 0' '1.5<>1.7 0 0 10096')" ]
}

# ------------------------------------------------------------- real

@test "real captures of the patched kernel: every field as smc dump read" {
	local dir="${SMCDUMP_CAPTURES:-$TOP/build/smcr-results}" f n=0
	local -a files=()

	for f in "$dir"/*-smcr.pcap "$dir"/*-all.pcap; do
		[ -s "$f" ] && files+=("$f")
	done
	if [ ${#files[@]} -eq 0 ]; then
		# make check runs the SMC-R tier first and requires them
		if [ -n "${SMCDUMP_REQUIRE_CAPTURES:-}" ]; then
			echo "no captures in $dir: the SMC-R tier (testsuite/smcr) writes them"
			return 1
		fi
		skip "no captures in $dir"
	fi
	for f in "${files[@]}"; do
		# a capture without records (a run that moved nothing) has
		# nothing to compare
		"$SMC" -j dump read "$f" | python3 -c '
import json, sys
sys.exit(0 if any(o.get("type") in ("data", "cdc") for o in json.load(sys.stdin)) else 1)' ||
			continue
		run -0 wscompare "$f"
		[[ "$output" =~ ^[0-9]+\ records\ compared$ ]] ||
			{ echo "$f: $output"; return 1; }
		echo "# $(basename "$f"): $output" >&3
		n=$((n + 1))
	done
	if [ $n -eq 0 ]; then
		if [ -n "${SMCDUMP_REQUIRE_CAPTURES:-}" ]; then
			echo "no records in the captures in $dir"
			return 1
		fi
		skip "no records in the captures in $dir"
	fi
}

# ---------------------------------------------------- install, docs

@test "make install: DESTDIR, PREFIX, the folder tshark loads; install-user" {
	local global multi

	make -C "$TOP/contrib/wireshark" install DESTDIR="$T/root" PREFIX=/usr \
		>/dev/null
	global="$(tshark -G folders 2>/dev/null |
		  sed -n 's/^Global Lua Plugins:[[:space:]]*//p')"
	[ -n "$global" ]
	[ -f "$T/root$global/smcdump.lua" ]
	cmp "$LUA" "$T/root$global/smcdump.lua"
	multi="$(cc -print-multiarch)"
	make -C "$TOP/contrib/wireshark" install DESTDIR="$T/root2" \
		PREFIX=/opt/x >/dev/null
	[ -f "$T/root2/opt/x/lib/$multi/wireshark/plugins/smcdump.lua" ]
	make -C "$TOP/contrib/wireshark" uninstall DESTDIR="$T/root2" \
		PREFIX=/opt/x >/dev/null
	[ ! -e "$T/root2/opt/x/lib/$multi/wireshark/plugins/smcdump.lua" ]

	# personal: tshark picks it up from $HOME without -X
	mkdir -p "$T/home"
	HOME="$T/home" make -C "$TOP/contrib/wireshark" install-user >/dev/null
	[ "$(HOME="$T/home" tshark -G folders 2>/dev/null |
	     sed -n 's/^Personal Lua Plugins:[[:space:]]*//p')/smcdump.lua" = \
	  "$T/home/.local/lib/wireshark/plugins/smcdump.lua" ]
	cmp "$LUA" "$T/home/.local/lib/wireshark/plugins/smcdump.lua"
	gen "$T/i.pcap" <<<"data dir=rx token=0x2a seq=1 offset=5 len=3"
	run -0 env HOME="$T/home" tshark -n -r "$T/i.pcap" -T fields \
		-e smcdump.token -e smcdump.stream_offset
	[ "${lines[-1]}" = $'0x0000002a\t5' ]
}

@test "README documents every field the dissector registers, and no other" {
	mkdir -p "$T/fhome"
	HOME="$T/fhome" make -C "$TOP/contrib/wireshark" install-user >/dev/null
	HOME="$T/fhome" tshark -G fields 2>/dev/null |
		awk -F'\t' '($1 == "F" || $1 == "P") && $3 ~ /^smcdump($|\.)/ { print $3 }' |
		sort -u >"$T/registered"
	[ "$(wc -l <"$T/registered")" -gt 40 ]
	# shellcheck disable=SC2016 # the backquotes of Markdown
	sed -n '/^## Fields/,$p' "$TOP/contrib/wireshark/README.md" |
		grep -o '^| `smcdump[a-z0-9_.]*`' |
		tr -d '|` ' | sort -u >"$T/documented"
	run diff "$T/registered" "$T/documented"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
}
