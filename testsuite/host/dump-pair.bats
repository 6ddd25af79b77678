#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of connections with both ends in one capture (SMC-D over
# loopback-ism, both ends in one netns): each end has its own token, and
# the decoder pairs an end with the earliest unpaired end of the same mode
# and family whose addresses and ports are its own the other way round;
# stats and analyze print a pair as one entry under its first end, read
# -d says each record's connection number, graph takes either token.
# Captures come from testsuite/tools/gen-smcdump-pcap; the expected
# numbers are counted by hand from the specs, in the comments.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	export TZ=UTC
	host_setup_file smc testsuite/tools
}

# two_pairs MODE L P: two connections, each with both ends, L the first
# ends' address and P the second ends'. X: end A (token 0xa1, L:40000)
# and end B (0xb1, P:5201); Y: C (0xa2, L:40001) and D (0xb2, P:5201).
# A records first, then C, so X is connection 0 and Y connection 1.
#   X, A to B: A sends 100 bytes in 1 data record and 1 CDC; B receives
#     them in 2 data records (60 + 40) and the CDC
#   X, B to A: B sends 30 bytes in 1 record, A receives them in 3 (10 each)
#   Y, C to D: 200 bytes, 1 record each end; nothing D to C
two_pairs() {
	local m=$1 l=$2 p=$3 ca=() cb=()
	# SMC-R: a CDC message carries its receiver's token, B's here
	[ "$m" = r ] && ca=(seqno=1 ctoken=0xb1) && cb=(seqno=1 ctoken=0xb1)
	local A="mode=$m token=0xa1 local=$l peer=$p lport=40000 pport=5201"
	local B="mode=$m token=0xb1 local=$p peer=$l lport=5201 pport=40000"
	local C="mode=$m token=0xa2 local=$l peer=$p lport=40001 pport=5201"
	local D="mode=$m token=0xb2 local=$p peer=$l lport=5201 pport=40001"
	cat <<-EOF
	data $A offset=0 len=100
	data $C offset=0 len=200
	data $B dir=rx offset=0 len=60
	data $B dir=rx offset=60 len=40
	cdc $A pcount=100 ${ca[*]}
	cdc $B dir=rx pcount=100 ${cb[*]}
	data $D dir=rx offset=0 len=200
	data $B offset=0 len=30
	data $A dir=rx offset=0 len=10
	data $A dir=rx offset=10 len=10
	data $A dir=rx offset=20 len=10
	EOF
}

# j FILE JQ...: smc -j dump stats FILE, then jq -c JQ of its object
j() {
	local f=$1
	shift
	"$SMC" -j dump stats "$f" | jq -c ".[0] | $*"
}

# the entries of stats JSON as "token peer conn tx rx peer-rx peer-tx",
# each direction as records/bytes
STATS_ROWS='.connections[] | [.token, (.peer.token // "-"), .conn,
	(.tx, .rx, .peer.rx, .peer.tx | if . then "\(.records)/\(.bytes)" else "-" end)] | join(" ")'

@test "stats: two connections with both ends, SMC-D IPv4: two entries, each with its peer" {
	two_pairs d 10.0.0.1 10.0.0.2 | "$GEN" "$T/d4.pcap"
	run -0 "$SMC" -j dump stats "$T/d4.pcap"
	echo "$output"
	# X: tx 2 records (data + CDC) 100 bytes, rx 3/30; B's rx 3/100
	# (2 data + CDC), B's tx 1/30. Y: 1/200 each way it went, 0/0 back
	run -0 jq -r ".[0] | $STATS_ROWS" <<<"$output"
	[ "${lines[0]}" = "0x000000a1 0x000000b1 0 2/100 3/30 3/100 1/30" ]
	[ "${lines[1]}" = "0x000000a2 0x000000b2 1 1/200 0/0 1/200 0/0" ]
	[ "${#lines[@]}" -eq 2 ]
	# one entry a connection; the bytes of every end's streams in total
	[ "$(j "$T/d4.pcap" '.total | [.connections, .records, .bytes]')" = "[2,11,660]" ]
	# the entry's own ends are the first end's
	[ "$(j "$T/d4.pcap" '.connections[0] | [.mode, .local_address, .local_port, .peer_port]')" = '["SMC-D","10.0.0.1",40000,5201]' ]
	# the peer object: token, tx and rx, the shapes of the entry's own
	[ "$(j "$T/d4.pcap" '.connections[0].peer | keys')" = '["rx","token","tx"]' ]
	[ "$(j "$T/d4.pcap" '.connections[0] | (.tx | keys) == (.peer.rx | keys)')" = true ]
}

@test "stats text: the first end's header with peer-token, then tx, peer rx, rx, peer tx" {
	two_pairs d 10.0.0.1 10.0.0.2 | "$GEN" "$T/d4.pcap"
	run -0 "$SMC" dump stats "$T/d4.pcap"
	echo "$output"
	[ "${lines[0]}" = "smcd token 0x000000a1 10.0.0.1:40000 <-> 10.0.0.2:5201 peer-token 0x000000b1" ]
	[[ "${lines[1]}" == $'\ttx start 0 end 100 records 2 data 1 cdc 1 bytes 100 holes 0 '* ]]
	[[ "${lines[2]}" == $'\tpeer rx start 0 end 100 records 3 data 2 cdc 1 bytes 100 holes 0 '* ]]
	[[ "${lines[3]}" == $'\trx start 0 end 30 records 3 data 3 cdc 0 bytes 30 holes 0 '* ]]
	[[ "${lines[4]}" == $'\tpeer tx start 0 end 30 records 1 data 1 cdc 0 bytes 30 holes 0 '* ]]
	[ "${lines[5]}" = "smcd token 0x000000a2 10.0.0.1:40001 <-> 10.0.0.2:5201 peer-token 0x000000b2" ]
	[[ "${lines[6]}" == $'\ttx start 0 end 200 records 1 '* ]]
	[[ "${lines[7]}" == $'\tpeer rx start 0 end 200 records 1 '* ]]
	[[ "${lines[8]}" == $'\trx start 0 end 0 records 0 '* ]]
	[[ "${lines[9]}" == $'\tpeer tx start 0 end 0 records 0 '* ]]
	[[ "${lines[10]}" == "link "* ]]
	[[ "${lines[11]}" == "total: "*" connections 2 "* ]]
	[ "${#lines[@]}" -eq 12 ]
}

@test "stats: SMC-R and IPv6 pair the same way; CDC tokens that name each other" {
	two_pairs r 2001:db8::1 2001:db8::2 | "$GEN" "$T/r6.pcap"
	run -0 jq -r ".[0] | $STATS_ROWS" < <("$SMC" -j dump stats "$T/r6.pcap")
	[ "${lines[0]}" = "0x000000a1 0x000000b1 0 2/100 3/30 3/100 1/30" ]
	[ "${lines[1]}" = "0x000000a2 0x000000b2 1 1/200 0/0 1/200 0/0" ]
	[ "${#lines[@]}" -eq 2 ]
	run -0 "$SMC" dump stats "$T/r6.pcap"
	[ "${lines[0]}" = "smcr token 0x000000a1 [2001:db8::1]:40000 <-> [2001:db8::2]:5201 peer-token 0x000000b1" ]
	two_pairs r 10.0.0.1 10.0.0.2 | "$GEN" "$T/r4.pcap"
	[ "$(j "$T/r4.pcap" '[.connections[] | [.token, .peer.token]]')" = '[["0x000000a1","0x000000b1"],["0x000000a2","0x000000b2"]]' ]
	two_pairs d 2001:db8::1 2001:db8::2 | "$GEN" "$T/d6.pcap"
	[ "$(j "$T/d6.pcap" '[.connections[] | [.token, .peer.token]]')" = '[["0x000000a1","0x000000b1"],["0x000000a2","0x000000b2"]]' ]
}

@test "an end whose peer is not in the capture stays alone, as do ends that do not mirror" {
	# E (0xe1) has no peer here; F (0xf1) is B's 4-tuple but SMC-R
	# against X's SMC-D; G (0xf2) mirrors A but for the port (40009);
	# H (0xf3) is X's first end's tuple again, IPv6 (another family)
	{
		two_pairs d 10.0.0.1 10.0.0.2
		echo "data mode=d token=0xe1 local=10.0.0.3 peer=10.0.0.2 lport=40002 pport=5201 offset=0 len=7"
		echo "data mode=r token=0xf1 local=10.0.0.2 peer=10.0.0.1 lport=5201 pport=40000 dir=rx offset=0 len=8"
		echo "data mode=d token=0xf2 local=10.0.0.2 peer=10.0.0.1 lport=5201 pport=40009 dir=rx offset=0 len=9"
		echo "data mode=d token=0xf3 local=::ffff:10.0.0.2 peer=::ffff:10.0.0.1 lport=5201 pport=40000 dir=rx offset=0 len=6"
	} | "$GEN" "$T/alone.pcap"
	# conn numbers: X 0, Y 1, then E 2, F 3, G 4, H 5
	run -0 jq -r ".[0] | $STATS_ROWS" < <("$SMC" -j dump stats "$T/alone.pcap")
	echo "$output"
	[ "${lines[0]}" = "0x000000a1 0x000000b1 0 2/100 3/30 3/100 1/30" ]
	[ "${lines[1]}" = "0x000000a2 0x000000b2 1 1/200 0/0 1/200 0/0" ]
	[ "${lines[2]}" = "0x000000e1 - 2 1/7 0/0 - -" ]
	[ "${lines[3]}" = "0x000000f1 - 3 0/0 1/8 - -" ]
	[ "${lines[4]}" = "0x000000f2 - 4 0/0 1/9 - -" ]
	[ "${lines[5]}" = "0x000000f3 - 5 0/0 1/6 - -" ]
	[ "${#lines[@]}" -eq 6 ]
	[ "$(j "$T/alone.pcap" '.total.connections')" -eq 6 ]
	[ "$(j "$T/alone.pcap" '[.connections[] | has("peer")]')" = "[true,true,false,false,false,false]" ]
	# an end alone prints as before: its header, tx and rx, no peer lines
	run -0 "$SMC" dump stats "$T/alone.pcap"
	[ "${lines[10]}" = "smcd token 0x000000e1 10.0.0.3:40002 <-> 10.0.0.2:5201" ]
	[[ "${lines[11]}" == $'\ttx start 0 end 7 records 1 '* ]]
	[[ "${lines[12]}" == $'\trx start 0 end 0 records 0 '* ]]
	[[ "${lines[13]}" == "smcr token 0x000000f1 "* ]]
}

@test "SMC-R: ends whose CDC messages name other tokens are not paired" {
	# P (0xc1) and Q (0xc2) mirror each other, each first sends a CDC;
	# P's names 0x999, not Q: two connections. With P's naming 0xc2 and
	# Q's 0xc1, one
	local P="mode=r token=0xc1 local=10.0.0.1 peer=10.0.0.2 lport=40000 pport=5201"
	local Q="mode=r token=0xc2 local=10.0.0.2 peer=10.0.0.1 lport=5201 pport=40000"
	printf 'cdc %s seqno=1 ctoken=0x999\ncdc %s seqno=1 ctoken=0xc1\n' "$P" "$Q" |
		"$GEN" "$T/ct-bad.pcap"
	[ "$(j "$T/ct-bad.pcap" '[.total.connections, [.connections[] | [.token, .conn, has("peer")]]]')" = '[2,[["0x000000c1",0,false],["0x000000c2",1,false]]]' ]
	printf 'cdc %s seqno=1 ctoken=0xc2\ncdc %s seqno=1 ctoken=0xc1\n' "$P" "$Q" |
		"$GEN" "$T/ct-ok.pcap"
	[ "$(j "$T/ct-ok.pcap" '[.total.connections, [.connections[] | [.token, .conn, .peer.token]]]')" = '[1,[["0x000000c1",0,"0x000000c2"]]]' ]
	# Q's token named wrong on Q's side only: P has sent nothing, so
	# there is nothing to hold against: one connection
	printf 'data %s offset=0 len=5\ncdc %s seqno=1 ctoken=0x999\n' "$P" "$Q" |
		"$GEN" "$T/ct-one.pcap"
	[ "$(j "$T/ct-one.pcap" '.total.connections')" -eq 1 ]
}

# reuse ORDER... : the four ends of two connections on the same ports,
# one data record each, in ORDER (A1 A2 B1 B2 as 0 1 2 3): A1 (0x11) and
# A2 (0x12) at 10.0.0.1:40000 send 100 and 200 bytes, B1 (0x21) and B2
# (0x22) at 10.0.0.2:5201 receive them
reuse() {
	local a="mode=d local=10.0.0.1 peer=10.0.0.2 lport=40000 pport=5201"
	local b="mode=d local=10.0.0.2 peer=10.0.0.1 lport=5201 pport=40000 dir=rx"
	local rec=("data $a token=0x11 offset=0 len=100"
		   "data $a token=0x12 offset=0 len=200"
		   "data $b token=0x21 offset=0 len=100"
		   "data $b token=0x22 offset=0 len=200") i
	for i in "$@"; do
		echo "${rec[$i]}"
	done
}

@test "a 4-tuple used again by a later connection: ends pair by first-record order" {
	# in the order A1 A2 B1 B2, B1 pairs with the earliest unpaired
	# mirror, A1, and B2 with A2; in the order A1 B1 A2 B2 the same
	local order
	for order in "0 1 2 3" "0 2 1 3"; do
		# shellcheck disable=SC2086
		reuse $order | "$GEN" "$T/reuse.pcap"
		run -0 jq -r ".[0] | $STATS_ROWS" < <("$SMC" -j dump stats "$T/reuse.pcap")
		echo "$order: $output"
		[ "${lines[0]}" = "0x00000011 0x00000021 0 1/100 0/0 1/100 0/0" ]
		[ "${lines[1]}" = "0x00000012 0x00000022 1 1/200 0/0 1/200 0/0" ]
		[ "${#lines[@]}" -eq 2 ]
	done
	# read -d: A1 0, A2 1, B1 0 (A1's), B2 1 (A2's)
	reuse 0 1 2 3 | "$GEN" "$T/reuse.pcap"
	run -0 "$SMC" -j -d dump read "$T/reuse.pcap"
	[ "$(jq -c '[.[] | .conn]' <<<"$output")" = "[0,1,0,1]" ]
}

@test "read -d: each record says its connection's number, the same at both ends; plain read none" {
	two_pairs d 10.0.0.1 10.0.0.2 | "$GEN" "$T/d4.pcap"
	# the records in order: A C B B A B D B A A A; X is 0, Y 1
	run -0 "$SMC" -j -d dump read "$T/d4.pcap"
	[ "$(jq -c '[.[] | .conn]' <<<"$output")" = "[0,1,0,0,0,0,1,0,0,0,0]" ]
	run -0 "$SMC" -d dump read "$T/d4.pcap"
	[[ "${lines[0]}" == *" 10.0.0.1:40000 > 10.0.0.2:5201 token 0x000000a1 conn 0 data "* ]]
	[[ "${lines[1]}" == *" token 0x000000a2 conn 1 data "* ]]
	[[ "${lines[2]}" == *" 10.0.0.1:40000 > 10.0.0.2:5201 token 0x000000b1 conn 0 data "* ]]
	[[ "${lines[6]}" == *" token 0x000000b2 conn 1 data "* ]]
	# without -d no record says it
	run -0 "$SMC" -j dump read "$T/d4.pcap"
	[ "$(jq -c '[.[] | has("conn")] | any' <<<"$output")" = false ]
	run -0 "$SMC" dump read "$T/d4.pcap"
	[ "$(grep -c ' conn ' <<<"$output")" -eq 0 ]
}

@test "analyze: one entry per connection, the peer's directions; token T by either end" {
	two_pairs d 10.0.0.1 10.0.0.2 | "$GEN" "$T/d4.pcap"
	run -0 "$SMC" -j dump analyze "$T/d4.pcap"
	echo "$output"
	# data records and bytes: tx 1/100, peer rx 2/100, rx 3/30, peer tx 1/30
	[ "$(jq -c '.[0].connections[0] | [.token, .peer.token, (.tx, .peer.rx, .rx, .peer.tx | [.data, .cdc, .bytes])]' <<<"$output")" = '["0x000000a1","0x000000b1",[1,1,100],[2,1,100],[3,0,30],[1,0,30]]' ]
	[ "$(jq -c '.[0].connections[1] | [.token, .peer.token, .tx.bytes, .peer.rx.bytes]' <<<"$output")" = '["0x000000a2","0x000000b2",200,200]' ]
	[ "$(jq -c '.[0] | [(.connections | length), .total.connections]' <<<"$output")" = "[2,2]" ]
	# the peer object has the shapes of the entry's own: A's rx and B's
	# tx (both with a buffer, inferred from 30 bytes in flight) alike
	[ "$(jq -c '.[0].connections[0] | (.peer | keys) == ["rx","token","tx"] and (.rx | keys) == (.peer.tx | keys)' <<<"$output")" = true ]
	# text: the header names the peer's token; directions tx, peer rx,
	# rx, peer tx
	run -0 "$SMC" dump analyze "$T/d4.pcap"
	[[ "${lines[0]}" == "smcd token 0x000000a1 10.0.0.1:40000 <-> 10.0.0.2:5201 peer-token 0x000000b1 records "* ]]
	run -0 grep -Eo '^  [a-z ]+: data [0-9]+' <<<"$output"
	[ "$output" = "$(printf '  %s\n' 'tx: data 1' 'peer rx: data 2' 'rx: data 3' 'peer tx: data 1' 'tx: data 1' 'peer rx: data 1' 'rx: data 0' 'peer tx: data 0')" ]
	# token of either end: the same one entry, headed by its first end
	for t in 0xa2 0xb2; do
		run -0 "$SMC" -j dump analyze token "$t" "$T/d4.pcap"
		[ "$(jq -c '.[0] | [.total.connections, [.connections[] | [.token, .peer.token]]]' <<<"$output")" = '[1,[["0x000000a2","0x000000b2"]]]' ]
	done
	run -4 "$SMC" dump analyze token 0xc3 "$T/d4.pcap"
}

@test "graph: token of either end draws the same connection, both ends' directions" {
	two_pairs d 10.0.0.1 10.0.0.2 | "$GEN" "$T/d4.pcap"
	mkdir -p "$T/ga" "$T/gb"
	# X: A's tx, B's rx (the same bytes), A's rx, B's tx; each names
	# the other end's token
	run -0 "$SMC" -j dump graph token 0xa1 write "$T/ga/g.png" "$T/d4.pcap"
	echo "$output"
	[ "$(jq -c '[.[] | [.token, .peer_token, .dir, .series.data]]' <<<"$output")" = '[["0x000000a1","0x000000b1","tx",1],["0x000000b1","0x000000a1","rx",2],["0x000000a1","0x000000b1","rx",3],["0x000000b1","0x000000a1","tx",1]]' ]
	a=$(jq -c '[.[] | del(.file)]' <<<"$output")
	run -0 "$SMC" -j dump graph token 0xb1 write "$T/gb/g.png" "$T/d4.pcap"
	[ "$(jq -c '[.[] | del(.file)]' <<<"$output")" = "$a" ]
	# the file names are per end, as before
	[ -s "$T/gb/g-smcd-000000a1-tx.png" ] && [ -s "$T/gb/g-smcd-000000b1-rx.png" ]
	# and the text line says the peer's token
	run -0 "$SMC" dump graph token 0xb2 write "$T/gb/y.png" "$T/d4.pcap"
	[ "${lines[0]}" = "$T/gb/y-smcd-000000a2-tx.png: smcd token 0x000000a2 peer-token 0x000000b2 tx data 1" ]
	[[ "${lines[1]}" == "$T/gb/y-smcd-000000b2-rx.png: smcd token 0x000000b2 peer-token 0x000000a2 rx data 1"* ]]
	[ "${#lines[@]}" -eq 2 ]
	# a direction with the token: that end's only, one file as ever
	run -0 "$SMC" -j dump graph token 0xb1 tx write "$T/gb/t.png" "$T/d4.pcap"
	[ "$(jq -c '[.[] | [.file, .token, .peer_token, .dir, .series.data]]' <<<"$output")" = "[[\"$T/gb/t.png\",\"0x000000b1\",\"0x000000a1\",\"tx\",1]]" ]
}

@test "follow stays per end: one entry and one pair of files per end, the connection's number in JSON" {
	two_pairs d 10.0.0.1 10.0.0.2 | "$GEN" "$T/d4.pcap"
	run -0 "$SMC" -j dump follow "$T/d4.pcap" "$T/fol"
	[ "$(jq -c '[.[0].connections[] | [.token, .conn, has("peer")]]' <<<"$output")" = '[["0x000000a1",0,false],["0x000000a2",1,false],["0x000000b1",0,false],["0x000000b2",1,false]]' ]
	[ "$(jq -c '.[0].total.connections' <<<"$output")" -eq 4 ]
	[ "$(stat -c %s "$T/fol/smcd-000000b1-rx.bin")" -eq 100 ]
	cmp "$T/fol/smcd-000000a1-tx.bin" "$T/fol/smcd-000000b1-rx.bin"
}

# many_ends N SAME: N connections, both ends, all first ends' records
# before any second end's; SAME 1: every one on the 4-tuple
# 10.0.0.1:40000 - 10.0.0.2:5201 (a port used again and again), 0: each
# on its own client address and port (awk: a shell loop under bats is slow)
many_ends() {
	awk -v n="$1" -v same="$2" 'function end(i, b, rx) {
		l = "10.0.0.1"; p = 40000
		if (!same) { l = sprintf("10.%d.%d.1", int(i / 250) % 250, i % 250); p = 1000 + i }
		if (rx)
			printf "data mode=d token=%d local=10.0.0.2 peer=%s lport=5201 pport=%d dir=rx offset=0 len=1\n", b + i, l, p
		else
			printf "data mode=d token=%d local=%s peer=10.0.0.2 lport=%d pport=5201 offset=0 len=1\n", b + i, l, p
	}
	BEGIN {
		for (i = 0; i < n; i++) end(i, 1048576, 0)
		for (i = 0; i < n; i++) end(i, 2097152, 1)
	}'
}

@test "2000 connections on one 4-tuple: each end with its own peer, in order, as on 2000 4-tuples" {
	# a new end takes the oldest end of its 4-tuple not paired yet (the
	# cost of that, against one 4-tuple each, is make bench's: pairing)
	many_ends 2000 1 | "$GEN" "$T/same.pcap"
	many_ends 2000 0 | "$GEN" "$T/diff.pcap"
	run -0 jq -r '.[0].connections | length, .[0].token, .[0].peer.token,
		.[1999].token, .[1999].peer.token' < <("$SMC" -j dump stats "$T/same.pcap")
	[ "${lines[*]}" = "2000 0x00100000 0x00200000 0x001007cf 0x002007cf" ]
	# end i pairs with end 2000 + i, on both captures alike
	pairs() { "$SMC" -j dump stats "$1" | jq -r '.[0].connections[] | "\(.token) \(.peer.token)"'; }
	pairs "$T/same.pcap" >"$T/same.pairs"
	pairs "$T/diff.pcap" >"$T/diff.pairs"
	[ "$(wc -l <"$T/same.pairs")" -eq 2000 ]
	cmp "$T/same.pairs" "$T/diff.pairs"
	local a b bad=0
	while read -r a b; do
		((b - a == 1048576)) || bad=$((bad + 1))
	done <"$T/same.pairs"
	[ "$bad" -eq 0 ]
}
