#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of loss in record format version 4: a record's stream_seq
# (its number in its connection, direction and type) tells a record lost
# from one a filter left out; each connection says what it lost, data
# and CDC, per direction; records out of order and records seen on two
# links; the record's byte-order flag; LLC records, valid and malformed.
# Captures come from testsuite/tools/gen-smcdump-pcap -V 4 (stream_seq
# counts on per stream unless sseq= sets it); the expected numbers are
# counted by hand in the comments.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	export TZ=UTC
	host_setup_file smc testsuite/tools
}

# stats FILE [JQ]: smc -j dump stats FILE, the whole object or JQ of it
stats() {
	"$SMC" -j dump stats "$1" | jq -c ".[0]${2:+ | $2}"
}

# two connections at once, A on local port 40001 and B on 40002, both
# directions of data and CDC; the link numbers their records in turn
two_conns() {
	local i s=0
	for i in 0 1 2 3 4; do
		for c in "a 0xa 40001" "b 0xb 40002"; do
			set -- $c
			echo "data token=$2 lport=$3 seq=$s offset=$((i * 100)) len=100"
			echo "cdc token=$2 lport=$3 seq=$((s + 1)) pcount=$(((i + 1) * 100))"
			echo "data token=$2 lport=$3 dir=rx seq=$((s + 2)) offset=$((i * 50)) len=50"
			s=$((s + 3))
		done
	done
}

@test "a tcpdump filter to one of two connections: the link's seq jumps, nothing is lost" {
	two_conns | "$GEN" -V 4 "$T/both.pcap"
	# the whole capture: 30 records, every number there
	[ "$(stats "$T/both.pcap" '.total | [.records, .seq_gaps, .lost]')" = "[30,0,0]" ]
	# tcpdump keeps A's 15 records; the link's seq jumps 4 times over B's
	tcpdump -r "$T/both.pcap" -w "$T/a.pcap" port 40001 2>/dev/null
	run -0 stats "$T/a.pcap"
	echo "$output"
	[ "$(jq -c '.total | [.records, .connections, .seq_gaps, .lost]' <<<"$output")" = "[15,1,4,0]" ]
	[ "$(jq -c '.links[0] | [.seq_gaps, .lost, .reordered]' <<<"$output")" = "[4,0,0]" ]
	[ "$(jq -c '.connections[0] | [.tx.lost_records, .rx.lost_records, .tx.holes, .rx.holes]' <<<"$output")" = "[0,0,0,0]" ]
	# the same capture in version 3 has only the link's numbers: each
	# jump of 3 is 3 records counted lost, the false loss version 4 ends
	two_conns | "$GEN" "$T/both3.pcap"
	tcpdump -r "$T/both3.pcap" -w "$T/a3.pcap" port 40001 2>/dev/null
	[ "$(stats "$T/a3.pcap" '.total | [.records, .seq_gaps, .lost]')" = "[15,4,12]" ]
	[ "$(stats "$T/a3.pcap" '.connections[0].tx | has("lost_records")')" = "false" ]
}

@test "records really lost: counted per connection, direction, data and CDC" {
	"$GEN" -V 4 "$T/l.pcap" <<-EOF
	data token=0x7 seq=0 offset=0 len=100
	cdc token=0x7 seq=1 pcount=100
	data token=0x7 seq=2 offset=100 len=100
	# data stream_seq 2 and cdc 1, 2 lost (link seq 3 to 5)
	data token=0x7 seq=6 offset=300 len=100 sseq=3
	cdc token=0x7 seq=7 pcount=400 sseq=3
	data token=0x7 dir=rx seq=8 offset=0 len=10
	# rx data stream_seq 1 lost (link seq 9)
	data token=0x7 dir=rx seq=10 offset=20 len=10 sseq=2
	EOF
	run -0 stats "$T/l.pcap"
	echo "$output"
	[ "$(jq -c '.connections[0].tx | [.lost_records, .lost_data_records, .lost_cdc_records, .holes, .hole_bytes]' <<<"$output")" = "[3,1,2,1,100]" ]
	[ "$(jq -c '.connections[0].rx | [.lost_records, .lost_data_records, .lost_cdc_records, .holes]' <<<"$output")" = "[1,1,0,1]" ]
	[ "$(jq -c '.links[0] | [.seq_gaps, .lost]' <<<"$output")" = "[2,4]" ]
	[ "$(jq -c '.total.lost' <<<"$output")" = "4" ]
	# the text says it on the connection's lines
	run -0 "$SMC" dump stats "$T/l.pcap"
	[[ "${lines[1]}" == *" lost-records 3 (data 1, cdc 2)" ]]
	[[ "${lines[2]}" == *" lost-records 1 (data 1, cdc 0)" ]]
	# and analyze, per direction
	run -0 "$SMC" dump analyze "$T/l.pcap"
	echo "$output"
	[[ "${lines[1]}" == "  tx: data 3 cdc 2 "*" bytes 300 lost-records 3 (data 1, cdc 2)"* ]]
	run -0 "$SMC" -j dump analyze "$T/l.pcap"
	[ "$(jq -c '.[0].connections[0].rx | [.lost_records, .lost_data_records, .lost_cdc_records]' <<<"$output")" = "[1,1,0]" ]
}

@test "records out of order: late, not lost; a late one behind the window is taken off the loss" {
	"$GEN" -V 4 "$T/r.pcap" <<-EOF
	data token=0x7 seq=0 offset=0 len=10 sseq=0
	data token=0x7 seq=2 offset=20 len=10 sseq=2
	data token=0x7 seq=1 offset=10 len=10 sseq=1
	data token=0x7 seq=3 offset=30 len=10 sseq=3
	EOF
	[ "$(stats "$T/r.pcap" '.links[0] | [.lost, .reordered]')" = "[0,1]" ]
	[ "$(stats "$T/r.pcap" '.connections[0].tx.lost_records')" = "0" ]
	# numbers 0 to 2000, of which 0, 1 and 2000 came (1 after 2000, when
	# it had left the window of 1024): 1998 lost
	"$GEN" -V 4 "$T/w.pcap" <<-EOF
	cdc token=0x7 seq=0 sseq=0
	cdc token=0x7 seq=2000 sseq=2000
	cdc token=0x7 seq=1 sseq=1
	EOF
	[ "$(stats "$T/w.pcap" '[.connections[0].tx.lost_cdc_records, .links[0].lost, .links[0].reordered]')" = "[1998,1998,1]" ]
}

@test "one stream on two links: each link counts its own loss" {
	# link 1 (MAC :01) holds stream_seq 0, 1, 2; link 2 (MAC :02) 0 and 2
	"$GEN" -V 4 "$T/two.pcap" <<-EOF
	cdc token=0x7 seq=0 sseq=0
	cdc token=0x7 seq=0 sseq=0 smac=02:00:00:00:00:02 dmac=02:00:00:00:00:02
	cdc token=0x7 seq=1 sseq=1
	cdc token=0x7 seq=1 sseq=2 smac=02:00:00:00:00:02 dmac=02:00:00:00:00:02
	cdc token=0x7 seq=2 sseq=2
	EOF
	run -0 stats "$T/two.pcap"
	echo "$output"
	[ "$(jq -c '[.links[] | [.link, .lost]]' <<<"$output")" = '[["02:00:00:00:00:01",0],["02:00:00:00:00:02",1]]' ]
	[ "$(jq -c '[.total.lost, .connections[0].tx.lost_cdc_records]' <<<"$output")" = "[1,1]" ]
}

@test "byte order: a version 4 record names it, cdc-endian is for version 3 only" {
	# SMC-D CDC, producer cursor 1:100, written big-endian; the generator
	# sets the flag for endian=big in version 4
	spec="cdc mode=d token=0x7 seq=0 pwrap=1 pcount=100 endian=big"
	"$GEN" -V 4 "$T/be4.pcap" <<<"$spec"
	run -0 "$SMC" dump read "$T/be4.pcap"
	[[ "$output" == *" prod 1:100 "* ]]
	run -0 "$SMC" dump read -d "$T/be4.pcap"
	[[ "$output" == *" flags 0x08 "* ]]
	# the option does not override what the record says
	run -0 "$SMC" dump read "$T/be4.pcap" cdc-endian little
	[[ "$output" == *" prod 1:100 "* ]]
	# without the flag the same bytes are little-endian: wrap 0x0100,
	# count 0x64000000
	"$GEN" -V 4 "$T/noflag.pcap" <<<"$spec flags=0"
	run -0 "$SMC" dump read "$T/noflag.pcap"
	[[ "$output" == *" prod 256:1677721600 "* ]]
	# version 3 does not say: the reader's option decides
	"$GEN" "$T/be3.pcap" <<<"$spec"
	run -0 "$SMC" dump read "$T/be3.pcap" cdc-endian big
	[[ "$output" == *" prod 1:100 "* ]]
	run -0 "$SMC" dump read "$T/be3.pcap"
	[[ "$output" == *" prod 256:1677721600 "* ]]
}

@test "LLC records: the link and the message by name, text and JSON; not in connections" {
	"$GEN" -V 4 "$T/llc.pcap" <<-EOF
	llc lgr=0x0a01 link=1 qp=17 peerqp=18 seq=0
	llc lgr=0x0a01 link=1 qp=17 peerqp=18 seq=1 dir=rx llctype=0x04 resp=1
	llc lgr=0x0a01 link=2 qp=19 peerqp=20 seq=2 llctype=0x22
	llc lgr=0x0a01 link=2 qp=19 peerqp=20 seq=3 llctype=0x0a
	EOF
	run -0 "$SMC" dump read "$T/llc.pcap"
	echo "$output"
	[ "${lines[0]}" = "1 22:13:20.000000 SMC-R tx 10.0.0.1:40000 > 10.0.0.2:5201 token 0x00000a01 llc lgr 0x00000a01 link 1 qp 17 peer-qp 18 gid fe80::1 peer-gid fe80::2 CONFIRM_LINK sender-mac 00:00:00:00:00:00 sender-gid :: sender-qp 0 link-id 0 link-uid 0x00000000 max-links 0 max-conns 0" ]
	[[ "${lines[1]}" == *" rx 10.0.0.2:5201 > 10.0.0.1:40000 "*" DELETE_LINK response link-id 0 reason 0x00000000" ]]
	[[ "${lines[2]}" == *" link 2 qp 19 peer-qp 20 "*" ADD_LINK_V2 sender-mac "* ]]
	[[ "${lines[3]}" == *" llc-type 0x0a" ]]
	run -0 "$SMC" -j dump read "$T/llc.pcap"
	[ "$(jq -c '.[1] | [.type, .lgr_id, .link_id, .qpn, .peer_qpn, .msg_type, .response, .stream_seq]' <<<"$output")" = '["llc","0x00000a01",1,17,18,"DELETE_LINK",true,0]' ]
	# counted, numbered, but no connection
	[ "$(stats "$T/llc.pcap" '[.total.llc, .total.connections, .total.lost]')" = "[4,0,0]" ]
}

@test "malformed version 4 and LLC records: each with its reason" {
	"$GEN" -V 4 "$T/bad.pcap" <<-EOF
	data token=0x7 seq=0 len=10 hdrlen=32
	llc lgr=1 seq=1 hdrver=3
	llc lgr=1 seq=2 mode=d
	llc lgr=1 seq=3 hex=fe2c
	llc lgr=1 seq=4 flags=0x02 orig=200
	data token=1 seq=5 type=3 offset=8 len=100
	EOF
	run -1 "$SMC" dump read "$T/bad.pcap"
	echo "$output"
	[[ "${lines[0]}" == *" malformed: hdr_len 32 below 40 for hdr_ver 4" ]]
	[[ "${lines[1]}" == *" token 0x00000001 type-3 malformed: unknown type 3" ]]
	[[ "${lines[2]}" == *" malformed: LLC record of an SMC-D link group" ]]
	[[ "${lines[3]}" == *" malformed: LLC record of 2 payload bytes, need 52 (link, LLC header)" ]]
	[[ "${lines[4]}" == *" malformed: LLC record marked truncated" ]]
	[[ "${lines[5]}" == *" malformed: LLC record with offset 8" ]]
	[ "$(stats "$T/bad.pcap" '.total.malformed')" = "6" ]
}
