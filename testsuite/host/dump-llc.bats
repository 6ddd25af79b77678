#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of SMC-R's LLC messages in LLC records (record format
# version 4): every message type Linux sends, in its version 1 and
# version 2 forms, decoded field by field in text and JSON; version 2's
# host-order length and rkey count by the record's byte-order flag; cut
# and unknown messages. The messages are written byte by byte below
# (net/smc/smc_llc.c's layouts, RFC 7609 and IBM's SMC Version 2); the
# expected lines are those bytes read by hand.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	export TZ=UTC
	host_setup_file smc testsuite/tools
}

# NAME HEX EXPECTED: the message, and what smc dump read prints after
# the record's link (" ... peer-gid fe80::2 ")
MSGS=(
	# CONFIRM_LINK, a response: MAC, GID, QP 0x000102, link 1,
	# link uid 0x0a010001, 3 links, 255 connections
	cl 012c008002000000000afe80000000000000000000000000000a000102010a01000103ff0000000000000000
	"CONFIRM_LINK response sender-mac 02:00:00:00:00:0a sender-gid fe80::a sender-qp 258 link-id 1 link-uid 0x0a010001 max-links 3 max-conns 255"
	# the same as version 2 (length 44 in the host's order)
	cl2 212c000002000000000afe80000000000000000000000000000a000102010a01000103ff0000000000000000
	"CONFIRM_LINK_V2 sender-mac 02:00:00:00:00:0a sender-gid fe80::a sender-qp 258 link-id 1 link-uid 0x0a010001 max-links 3 max-conns 255"
	# ADD_LINK rejected (flag 0x40) for reason 1 (no alternate path, the
	# header's third byte); MTU nibble 3 under a reserved 5; PSN 0x010203
	al 022c014002000000000b0000fe80000000000000000000000000000b00020302530102030000000000000000
	"ADD_LINK rejected reason 1 sender-mac 02:00:00:00:00:0b sender-gid fe80::b sender-qp 515 link-id 2 mtu 3 psn 66051"
	# ADD_LINK_V2 of 104 bytes: the 44, then the extension: direct,
	# target GID fe80::d, 2 rkeys (host order, here little-endian)
	al2 2268000002000000000c0000fe80000000000000000000000000000c000203020300000700000000000000008000fe80000000000000000000000000000d000000000000000002001111111122222222000000003333333344444444555555550000000066666666
	"ADD_LINK_V2 sender-mac 02:00:00:00:00:0c sender-gid fe80::c sender-qp 515 link-id 2 mtu 3 psn 7 direct target-gid fe80::d rkeys 2 [rkey 0x11111111 new-rkey 0x22222222 new-vaddr 0x0000000033333333] [rkey 0x44444444 new-rkey 0x55555555 new-vaddr 0x0000000066666666]"
	# ADD_LINK_CONT: link 2, two rkeys
	alc 032c000002020000000000a1000000a200000000000000a3000000b1000000b200000000000000b300000000
	"ADD_LINK_CONT link-id 2 rkeys 2 [rkey 0x000000a1 new-rkey 0x000000a2 new-vaddr 0x00000000000000a3] [rkey 0x000000b1 new-rkey 0x000000b2 new-vaddr 0x00000000000000b3]"
	# DELETE_LINK of all links (0x40), orderly (0x20), reason lost path
	dl 042c006002000100000000000000000000000000000000000000000000000000000000000000000000000000
	"DELETE_LINK all orderly link-id 2 reason lost-path"
	# DELETE_LINK_V2, a response, reason 0x00200000: no link group
	dl2 242c008003002000000000000000000000000000000000000000000000000000000000000000000000000000
	"DELETE_LINK_V2 response link-id 3 reason no-link-group"
	# a reason Linux does not define, as its number
	dlx 042c000001000000070000000000000000000000000000000000000000000000000000000000000000000000
	"DELETE_LINK link-id 1 reason 0x00000007"
	# REQ_ADD_LINK_V2: 20 reserved bytes, 2 GIDs
	ral2 253c0000000000000000000000000000000000000000000002000000fe80000000000000000000000000000efe80000000000000000000000000000f
	"REQ_ADD_LINK_V2 gids 2 fe80::e fe80::f"
	# CONFIRM_RKEY, negative and retry: this link's token (count 2),
	# then the tokens of links 2 and 3
	cr 062c0030020000abcd0000000000001000020000bcde0000000000002000030000cdef000000000000300000
	"CONFIRM_RKEY negative retry rkeys 2 [this-link rkey 0x0000abcd vaddr 0x0000000000001000] [link 2 rkey 0x0000bcde vaddr 0x0000000000002000] [link 3 rkey 0x0000cdef vaddr 0x0000000000003000]"
	# CONFIRM_RKEY_CONT: one more token
	crc 082c000001020102030400000000000000100000000000000000000000000000000000000000000000000000
	"CONFIRM_RKEY_CONT rkeys 1 [link 2 rkey 0x01020304 vaddr 0x0000000000000010]"
	# TEST_LINK: 16 bytes of user data
	tl 072c0000000102030405060708090a0b0c0d0e0f000000000000000000000000000000000000000000000000
	"TEST_LINK user-data 000102030405060708090a0b0c0d0e0f"
	# DELETE_RKEY, negative: 2 rkeys, the first invalid (mask bit 7 - 1)
	dr 092c002002400000dead0001dead000200000000000000000000000000000000000000000000000000000000
	"DELETE_RKEY negative rkeys 2 err-mask 0x40 0xdead0001 0xdead0002"
	# DELETE_RKEY_V2: 3 rkeys, 1 invalid, 20 bytes
	dr2 2914000003010000000000010000000200000003
	"DELETE_RKEY_V2 rkeys 3 invalid 1 0x00000001 0x00000002 0x00000003"
	# a type Linux does not send: its number, nothing more
	unk 0a2c0000ffffffff000000000000000000000000000000000000000000000000000000000000000000000000
	"llc-type 0x0a"
)

# every message of MSGS as one LLC record each, in order
gen_all() {
	local i
	for ((i = 0; i < ${#MSGS[@]}; i += 3)); do
		echo "llc lgr=0x0a01 link=1 qp=17 peerqp=18 msg=${MSGS[i + 1]}"
	done | "$GEN" -V 4 "$1"
}

@test "every LLC type, version 1 and 2: each field as the bytes say" {
	gen_all "$T/all.pcap"
	run -0 "$SMC" dump read "$T/all.pcap"
	echo "$output"
	[ "${#lines[@]}" -eq $((${#MSGS[@]} / 3)) ]
	local i n=0 l
	for ((i = 0; i < ${#MSGS[@]}; i += 3)); do
		l=${lines[n]}
		[[ "$l" == *" llc lgr 0x00000a01 link 1 qp 17 peer-qp 18 gid fe80::1 peer-gid fe80::2 "* ]]
		[ "${l#* peer-gid fe80::2 }" = "${MSGS[i + 2]}" ] || {
			echo "${MSGS[i]}: got '${l#* peer-gid fe80::2 }'"
			return 1
		}
		n=$((n + 1))
	done
}

@test "LLC in JSON: one object llc per message, lists of rkeys, tokens and GIDs" {
	gen_all "$T/all.pcap"
	run -0 "$SMC" -j dump read "$T/all.pcap"
	j=$output
	# CONFIRM_LINK
	[ "$(jq -c '.[0].llc' <<<"$j")" = '{"version":1,"length":44,"sender_mac":"02:00:00:00:00:0a","sender_gid":"fe80::a","sender_qpn":258,"link_id":1,"link_uid":"0x0a010001","max_links":3,"max_conns":255}' ]
	# ADD_LINK rejected; ADD_LINK_V2 with its rkeys
	[ "$(jq -c '.[2].llc | [.rejected, .reject_reason, .qp_mtu, .initial_psn]' <<<"$j")" = '[true,1,3,66051]' ]
	[ "$(jq -c '.[3].llc | [.version, .length, .direct, .target_gid, .num_rkeys, .rkeys[1].new_vaddr]' <<<"$j")" = '[2,104,true,"fe80::d",2,"0x0000000066666666"]' ]
	# DELETE_LINK: the reason by name and number, the flags
	[ "$(jq -c '.[5].llc | [.all, .orderly, .link_id, .reason, .reason_code]' <<<"$j")" = '[true,true,2,"lost-path","0x00010000"]' ]
	[ "$(jq -c '.[7].llc | [has("reason"), .reason_code]' <<<"$j")" = '[false,"0x00000007"]' ]
	# and no other member for it (text prints the number as the reason)
	[ "$(jq -c '.[7].llc | keys' <<<"$j")" = '["all","length","link_id","orderly","reason_code","version"]' ]
	# CONFIRM_RKEY: this link's token has no link id
	[ "$(jq -c '[.[9].llc.rtokens[] | .link_id]' <<<"$j")" = '[null,2,3]' ]
	[ "$(jq -c '.[8].llc.gids' <<<"$j")" = '["fe80::e","fe80::f"]' ]
	[ "$(jq -c '.[12].llc | [.err_mask, .rkeys]' <<<"$j")" = '["0x40",["0xdead0001","0xdead0002"]]' ]
	[ "$(jq -c '.[13].llc | [.num_invalid_rkeys, .rkeys]' <<<"$j")" = '[1,["0x00000001","0x00000002","0x00000003"]]' ]
	[ "$(jq -c '.[14] | [.msg_type, .llc]' <<<"$j")" = '["0x0a",{"version":1,"length":44}]' ]
}

@test "version 2's length and rkey count are in the recording host's order: the flag says which" {
	# the same ADD_LINK_V2 as a big-endian host writes it (flag 0x08):
	# length 0x0068 and 2 rkeys, high byte first
	be=2200680002000000000c0000fe80000000000000000000000000000c000203020300000700000000000000008000fe80000000000000000000000000000d000000000000000000021111111122222222000000003333333344444444555555550000000066666666
	le=${MSGS[3 * 3 + 1]}
	"$GEN" -V 4 "$T/o.pcap" <<-EOF
	llc lgr=0x0a01 msg=$le
	llc lgr=0x0a01 msg=$be flags=0x08
	llc lgr=0x0a01 msg=$be
	EOF
	run -0 "$SMC" -j dump read "$T/o.pcap"
	[ "$(jq -c '[.[] | .llc | [.length, .num_rkeys, (.rkeys | length)]]' <<<"$output")" = '[[104,2,2],[104,2,2],[26624,512,2]]' ]
	# -d shows the header's version and length in text
	run -0 "$SMC" dump read -d "$T/o.pcap"
	[[ "${lines[1]}" == *" ADD_LINK_V2 llc-ver 2 llc-len 104 sender-mac "* ]]
}

@test "a received version 2 message is in its sender's order: a peer of the other byte order is told by the length" {
	# the flag names the recording host's order; Linux writes the length
	# and rkey count in the sender's. Received from a big-endian peer on
	# a little-endian host (flags 0x01), from a little-endian peer on a
	# big-endian host (0x09): 104 bytes and 2 rkeys both, where the
	# recorder's order would read 26624 and 512. Sent (0x00, 0x08), the
	# recorder's order stands even where it gives a length past the
	# message (the third record of the test above).
	be=2200680002000000000c0000fe80000000000000000000000000000c000203020300000700000000000000008000fe80000000000000000000000000000d000000000000000000021111111122222222000000003333333344444444555555550000000066666666
	le=${MSGS[3 * 3 + 1]}
	"$GEN" -V 4 "$T/o.pcap" <<-EOF
	llc lgr=0x0a01 msg=$be flags=0x01
	llc lgr=0x0a01 msg=$le flags=0x09
	llc lgr=0x0a01 msg=$le flags=0x01
	llc lgr=0x0a01 msg=$be flags=0x09
	llc lgr=0x0a01 msg=$le flags=0x08
	EOF
	run -0 "$SMC" -j dump read "$T/o.pcap"
	[ "$(jq -c '[.[] | .llc | [.length, .num_rkeys, (.rkeys | length)]]' <<<"$output")" = '[[104,2,2],[104,2,2],[104,2,2],[104,2,2],[26624,512,2]]' ]
	# nothing odd left to note on the received ones, and none malformed
	[ "$(jq '[.[] | select(.llc_note)] | length' <<<"$output")" -eq 1 ]
	run -0 "$SMC" -j dump stats "$T/o.pcap"
	jq -e '.[0].total.malformed == 0 and .[0].total.llc == 5' <<<"$output"
}

@test "a message the capture cut: the fields it holds, no byte past it" {
	# 14 + 20 + 8 (UDP) + 40 (header) + 48 (link) + 30 bytes of the
	# CONFIRM_LINK: up to the sender GID's end (byte 26) of 36
	"$GEN" -V 4 "$T/cut.pcap" <<-EOF
	llc lgr=0x0a01 msg=${MSGS[1]} cut=160
	llc lgr=0x0a01 msg=${MSGS[9 * 3 + 1]} cut=$((130 + 4 + 13 + 5))
	EOF
	run -0 "$SMC" -j dump read "$T/cut.pcap"
	echo "$output"
	# CONFIRM_LINK's fields end at byte 36: none of them printed
	[ "$(jq -c '.[0] | [.msg_type, .response, .llc]' <<<"$output")" = '["CONFIRM_LINK",true,{"version":1,"length":44}]' ]
	# CONFIRM_RKEY cut inside its second token: the first only
	[ "$(jq -c '.[1].llc | [.num_rkeys, (.rtokens | length)]' <<<"$output")" = '[2,1]' ]
}

@test "a message shorter than its type needs is malformed: counted, named, no fields" {
	# CONFIRM_LINK_V2 of 4 bytes (length 255 says more); ADD_LINK of 4
	# bytes with length 0; the rejected ADD_LINK of 44 bytes with length
	# 40 and CONFIRM_LINK one byte short: version 1 is 44 bytes
	al40=${MSGS[2 * 3 + 1]}
	al40=0228${al40:4}
	"$GEN" -V 4 "$T/s.pcap" <<-EOF
	llc lgr=1 msg=21ff0080
	llc lgr=1 msg=02000000
	llc lgr=1 msg=$al40
	llc lgr=1 msg=${MSGS[1]:0:86}
	EOF
	run -1 "$SMC" dump read -d "$T/s.pcap"
	echo "$output"
	[[ "${lines[0]}" == *" CONFIRM_LINK_V2 response llc-ver 2 llc-len 255 malformed: CONFIRM_LINK_V2 of 4 bytes, needs 36" ]]
	[[ "${lines[1]}" == *" ADD_LINK llc-ver 1 llc-len 0 malformed: ADD_LINK of 4 bytes, needs 44" ]]
	[[ "${lines[2]}" == *" ADD_LINK llc-ver 1 llc-len 40 rejected reason 1 malformed: ADD_LINK of llc-len 40, needs 44" ]]
	[[ "${lines[3]}" == *" CONFIRM_LINK response llc-ver 1 llc-len 44 malformed: CONFIRM_LINK of 43 bytes, needs 44" ]]
	run -1 "$SMC" -j dump read "$T/s.pcap"
	[ "$(jq -c '[.[] | [.msg_type, .llc, .error]]' <<<"$output")" = '[["CONFIRM_LINK_V2",{"version":2,"length":255},"CONFIRM_LINK_V2 of 4 bytes, needs 36"],["ADD_LINK",{"version":1,"length":0,"rejected":false},"ADD_LINK of 4 bytes, needs 44"],["ADD_LINK",{"version":1,"length":40,"rejected":true,"reject_reason":1},"ADD_LINK of llc-len 40, needs 44"],["CONFIRM_LINK",{"version":1,"length":44},"CONFIRM_LINK of 43 bytes, needs 44"]]' ]
	run -1 "$SMC" dump stats "$T/s.pcap"
	# none is an LLC record of the counts nor a link event
	[[ "$output" == *" cdc 0 legacy 0 "*" malformed 4 "* ]]
	[[ "$output" != *link-added* ]]
	# every message of MSGS is as long as its type needs
	gen_all "$T/all.pcap"
	run -0 "$SMC" dump stats "$T/all.pcap"
	[[ "$output" == *" malformed 0 "* ]]
}

@test "version 2's length bounds the fields: a record with more or fewer bytes gets a note" {
	# ADD_LINK_V2 of 104 bytes with length 44: no extension, 60 bytes
	# past; REQ_ADD_LINK_V2 of 60 bytes with length 28: no GID
	al=${MSGS[3 * 3 + 1]}
	ral=${MSGS[8 * 3 + 1]}
	"$GEN" -V 4 "$T/l.pcap" <<-EOF
	llc lgr=1 msg=222c00${al:6}
	llc lgr=1 msg=251c00${ral:6}
	llc lgr=1 msg=${ral:0:2}4000${ral:6}
	llc lgr=1 msg=$ral
	EOF
	run -0 "$SMC" dump read "$T/l.pcap"
	echo "$output"
	[[ "${lines[0]}" == *" ADD_LINK_V2 sender-mac 02:00:00:00:00:0c sender-gid fe80::c sender-qp 515 link-id 2 mtu 3 psn 7 note: 60 bytes past llc-len 44" ]]
	[[ "${lines[1]}" == *" REQ_ADD_LINK_V2 gids 2 note: 32 bytes past llc-len 28" ]]
	# a length above the record's bytes: the bytes there, and a note
	[[ "${lines[2]}" == *" REQ_ADD_LINK_V2 gids 2 fe80::e fe80::f note: 60 of llc-len 64 bytes" ]]
	[[ "${lines[3]}" == *" REQ_ADD_LINK_V2 gids 2 fe80::e fe80::f" ]]
	run -0 "$SMC" -j dump read "$T/l.pcap"
	[ "$(jq -c '[.[] | [.llc_note, (.llc | has("target_gid")), (.llc.gids | length)]]' <<<"$output")" = '[["60 bytes past llc-len 44",false,0],["32 bytes past llc-len 28",false,0],["60 of llc-len 64 bytes",false,2],[null,false,2]]' ]
}
