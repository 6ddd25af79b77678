#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of the link groups' timeline: smc dump stats and analyze
# list, per link group of the LLC records, the links added and removed
# in capture order, the LLC messages by type and direction, and under
# each DELETE_LINK the connections that sent bytes again after it; smc
# dump graph marks the link events on a connection's time axis. The
# LLC messages are written byte by byte below (the layouts of
# dump-llc.bats); every expected value is read off the lines of the
# capture by hand.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	export TZ=UTC
	host_setup_file smc testsuite/tools
}

Z8=0000000000000000
Z35=0000000000000000000000000000000000000000000000000000000000000000000000
# CONFIRM_LINK: header (flags 0x80: response), MAC 02:00:00:00:00:0a, GID
# fe80::a, QP, link id, link uid, 3 links, 255 connections, 8 bytes
CL1=012c000002000000000afe80000000000000000000000000000a000102010a01000103ff$Z8
CL1R=012c008002000000000afe80000000000000000000000000000a000102010a01000103ff$Z8
CL2=012c000002000000000afe80000000000000000000000000000a000103020a01000203ff$Z8
# ADD_LINK: MAC, 2 reserved, sender GID fe80::b (fe80::c), sender QP
# 0x000203 = 515 (0x000204 = 516), link id 2, MTU 3, PSN, 8 bytes
AL=022c000002000000000b0000fe80000000000000000000000000000b0002030203000007$Z8
ALR=022c008002000000000c0000fe80000000000000000000000000000c0002040203000008$Z8
# TEST_LINK (rx): 16 bytes of user data, 24 bytes
TL=072c0000000102030405060708090a0b0c0d0e0f000000000000000000000000000000000000000000000000
# DELETE_LINK link 1, reason 0x00010000 lost path, no flag
DL1=042c00000100010000$Z35
# DELETE_LINK all (0x40) orderly (0x20), link 2, reason 0x00030000
DLA=042c00600200030000$Z35
# DELETE_LINK_V2 response (0x80), link 3, reason 0x00200000
DL2=242c00800300200000$Z35

# The capture; frame numbers and the times after the first frame (ms)
# on the right. Connections: token 1 is conn 0, token 2 conn 1, token 3
# conn 2 (order of first record).
gen_lgr() {
	"$GEN" -V 4 "$1" <<-EOF
	llc  ts=1700000000.000000 lgr=0x0a01 link=1 qp=17 peerqp=18 msg=$CL1
	llc  ts=1700000000.000100 lgr=0x0a01 link=1 qp=17 peerqp=18 dir=rx msg=$CL1R
	data ts=1700000000.010000 token=1 offset=0 len=100
	data ts=1700000000.020000 token=2 lport=40001 offset=0 len=100
	# 5, 50 ms: bytes again before any DELETE_LINK: not a move
	data ts=1700000000.050000 token=2 lport=40001 offset=0 len=50
	llc  ts=1700000000.100000 lgr=0x0a01 link=1 qp=17 peerqp=18 msg=$AL
	llc  ts=1700000000.110000 lgr=0x0a01 link=1 qp=17 peerqp=18 dir=rx msg=$ALR
	llc  ts=1700000000.120000 lgr=0x0a01 link=2 qp=19 peerqp=20 msg=$CL2
	data ts=1700000000.200000 token=1 offset=100 len=100
	data ts=1700000000.210000 token=2 lport=40001 offset=100 len=100
	llc  ts=1700000000.250000 lgr=0x0a01 link=2 qp=19 peerqp=20 dir=rx msg=$TL
	# 12, 300 ms: link 1 lost
	llc  ts=1700000000.300000 lgr=0x0a01 link=2 qp=19 peerqp=20 dir=rx msg=$DL1
	# 13: token 1 sends 100..200 again (moved); 14: token 2 goes on
	data ts=1700000000.310000 token=1 offset=100 len=100
	data ts=1700000000.320000 token=2 lport=40001 offset=200 len=100
	llc  ts=1700000000.400000 lgr=0x0a01 link=2 qp=19 peerqp=20 msg=$DLA
	# 16, 450 ms: another link group
	llc  ts=1700000000.450000 lgr=0x0b02 link=3 qp=21 peerqp=22 dir=rx msg=$DL2
	data ts=1700000000.500000 token=3 lport=40002 offset=0 len=100
	data ts=1700000000.550000 token=3 lport=40002 offset=100 len=100
	# 19: 50..150 again, listed under the latest DELETE_LINK (frame 16)
	data ts=1700000000.600000 token=3 lport=40002 offset=50 len=100
	EOF
}

# the events of the first link group as "frame:type:link_id" in the
# order of the report
order() {
	jq -r '[.[0].link_groups[0].events[] | "\(.frame):\(.type):\(.link_id)"] | join(" ")' <<<"$1"
}

ORDER="1:CONFIRM_LINK:1 2:CONFIRM_LINK:1 6:ADD_LINK:2 7:ADD_LINK:2 8:CONFIRM_LINK:2 12:DELETE_LINK:1 15:DELETE_LINK:2"

@test "lgr: stats lists each link group's link events in capture order, in text" {
	gen_lgr "$T/l.pcap"
	run -0 "$SMC" dump stats "$T/l.pcap"
	echo "$output"
	local tab=$'\t' want
	want="lgr 0x00000a01 smcr llc 8 (tx 4 rx 4)
${tab}at 0.000000 s frame 1 tx CONFIRM_LINK link-added link 1 gid fe80::1 qp 17 peer-gid fe80::2 peer-qp 18
${tab}at 0.000100 s frame 2 rx CONFIRM_LINK response link-added link 1 gid fe80::1 qp 17 peer-gid fe80::2 peer-qp 18
${tab}at 0.100000 s frame 6 tx ADD_LINK link-added link 2 sender-gid fe80::b sender-qp 515
${tab}at 0.110000 s frame 7 rx ADD_LINK response link-added link 2 sender-gid fe80::c sender-qp 516
${tab}at 0.120000 s frame 8 tx CONFIRM_LINK link-added link 2 gid fe80::1 qp 19 peer-gid fe80::2 peer-qp 20
${tab}at 0.300000 s frame 12 rx DELETE_LINK link-removed link 1 reason lost-path moved conn 0 token 0x00000001
${tab}at 0.400000 s frame 15 tx DELETE_LINK link-removed link all reason program-terminated orderly moved none
${tab}counts: CONFIRM_LINK tx 2 rx 1 ADD_LINK tx 1 rx 1 DELETE_LINK tx 1 rx 1 TEST_LINK tx 0 rx 1
lgr 0x00000b02 smcr llc 1 (tx 0 rx 1)
${tab}at 0.450000 s frame 16 rx DELETE_LINK_V2 response link-removed link 3 reason no-link-group moved conn 2 token 0x00000003
${tab}counts: DELETE_LINK_V2 tx 0 rx 1"
	# between the links and the totals
	[ "$(sed -n '/^lgr /,/^total:/p' <<<"$output" | sed '$d')" = "$want" ]
	[[ "${lines[-1]}" == "total: frames 19 records 19 data 10 cdc 0 llc 9 "* ]]
}

@test "lgr: stats and analyze in JSON: the same timeline, times in ns" {
	gen_lgr "$T/l.pcap"
	local cmd j
	for cmd in stats analyze; do
		run -0 "$SMC" -j dump "$cmd" "$T/l.pcap"
		j=$output
		[ "$(order "$j")" = "$ORDER" ]
		[ "$(jq -c '[.[0].link_groups[] | [.lgr_id, .mode, .llc, .tx, .rx]]' <<<"$j")" = '[["0x00000a01","SMC-R",8,4,4],["0x00000b02","SMC-R",1,0,1]]' ]
		# times since the first frame
		[ "$(jq -c '[.[0].link_groups[0].events[].t_ns]' <<<"$j")" = '[0,100000,100000000,110000000,120000000,300000000,400000000]' ]
		[ "$(jq -c '[.[0].link_groups[0].events[] | .event]' <<<"$j")" = '["link_added","link_added","link_added","link_added","link_added","link_removed","link_removed"]' ]
		[ "$(jq -c '[.[0].link_groups[0].events[] | .dir]' <<<"$j")" = '["tx","rx","tx","rx","tx","rx","tx"]' ]
		[ "$(jq -c '[.[0].link_groups[0].events[] | .response]' <<<"$j")" = '[false,true,false,true,false,false,false]' ]
		# CONFIRM_LINK: the record's link part
		[ "$(jq -c '.[0].link_groups[0].events[4] | [.link_id, .gid, .qpn, .peer_gid, .peer_qpn]' <<<"$j")" = '[2,"fe80::1",19,"fe80::2",20]' ]
		# ADD_LINK: the sender's GID and QP
		[ "$(jq -c '.[0].link_groups[0].events[3] | [.link_id, .sender_gid, .sender_qpn]' <<<"$j")" = '[2,"fe80::c",516]' ]
		# DELETE_LINK: reason by name and number, flags, who moved
		[ "$(jq -c '.[0].link_groups[0].events[5] | [.link_id, .all, .orderly, .reason, .reason_code, .moved]' <<<"$j")" = '[1,false,false,"lost-path","0x00010000",[{"conn":0,"token":"0x00000001"}]]' ]
		[ "$(jq -c '.[0].link_groups[0].events[6] | [.link_id, .all, .orderly, .reason, .reason_code, .moved]' <<<"$j")" = '[2,true,true,"program-terminated","0x00030000",[]]' ]
		[ "$(jq -c '.[0].link_groups[1].events[0] | [.frame, .type, .response, .link_id, .reason, .moved]' <<<"$j")" = '[16,"DELETE_LINK_V2",true,3,"no-link-group",[{"conn":2,"token":"0x00000003"}]]' ]
		[ "$(jq -c '.[0].link_groups[0].counts' <<<"$j")" = '[{"type":"CONFIRM_LINK","tx":2,"rx":1},{"type":"ADD_LINK","tx":1,"rx":1},{"type":"DELETE_LINK","tx":1,"rx":1},{"type":"TEST_LINK","tx":0,"rx":1}]' ]
	done
}

@test "lgr: the timeline is in capture order: a check of the order fails on another" {
	# the ADD_LINK request recorded after its response (frames 6 and 7
	# swapped, the times with them)
	"$GEN" -V 4 "$T/sw.pcap" <<-EOF
	llc  ts=1700000000.000000 lgr=0x0a01 link=1 msg=$CL1
	llc  ts=1700000000.110000 lgr=0x0a01 link=1 dir=rx msg=$ALR
	llc  ts=1700000000.100000 lgr=0x0a01 link=1 msg=$AL
	llc  ts=1700000000.300000 lgr=0x0a01 link=2 dir=rx msg=$DL1
	EOF
	run -0 "$SMC" -j dump stats "$T/sw.pcap"
	[ "$(order "$output")" = "1:CONFIRM_LINK:1 2:ADD_LINK:2 3:ADD_LINK:2 4:DELETE_LINK:1" ]
	[ "$(jq -c '[.[0].link_groups[0].events[] | [.response, .t_ns]]' <<<"$output")" = '[[false,0],[true,110000000],[false,100000000],[false,300000000]]' ]
	# the order check of the tests above tells a different order
	[ "$(order "$output")" != "$ORDER" ]
}

@test "lgr: a connection that only goes on after DELETE_LINK, or resent before it, is not listed" {
	gen_lgr "$T/l.pcap"
	run -0 "$SMC" -j dump stats "$T/l.pcap"
	# token 2 (conn 1) sent 0..50 again at 50 ms, before any DELETE_LINK,
	# and only new bytes after it: in no event's list, though stats
	# counts its overlap
	[ "$(jq -c '[.[0].link_groups[].events[].moved // empty | .[].conn]' <<<"$output")" = '[0,2]' ]
	[ "$(jq -c '.[0].connections[1] | [.token, .tx.overlaps]' <<<"$output")" = '["0x00000002",1]' ]
}

@test "lgr: a capture without LLC records prints no link group" {
	"$GEN" -V 4 "$T/n.pcap" <<-EOF
	data token=1 offset=0 len=100
	data token=1 offset=0 len=100
	EOF
	run -0 "$SMC" -j dump stats "$T/n.pcap"
	[ "$(jq -c '.[0] | keys' <<<"$output")" = '["connections","links","total"]' ]
	run -0 "$SMC" -j dump analyze "$T/n.pcap"
	[ "$(jq -c '.[0] | keys' <<<"$output")" = '["connections","total","window_ns"]' ]
	run -0 "$SMC" dump stats "$T/n.pcap"
	[[ "$output" != *lgr* ]]
	# follow reports streams: no timeline there either
	gen_lgr "$T/l.pcap"
	run -0 "$SMC" -j dump follow "$T/l.pcap" "$T/fo"
	[ "$(jq -c '.[0] | has("link_groups")' <<<"$output")" = false ]
}

# mark_cols PNG: the pixel columns of the plot (x 100..1169) that are a
# line of the link-added colour (teal: no red, green = blue) or the
# link-removed one (dark red: no green nor blue) in at least 600 of its
# 670 rows: "added X,X removed X"
mark_cols() {
	python3 - "$1" <<'PY'
import struct, sys, zlib
b = open(sys.argv[1], "rb").read()
w, h, depth, ctype = struct.unpack(">IIBB", b[16:26])
assert (depth, ctype) == (8, 2), (depth, ctype)
i, data = 8, b""
while i < len(b):
    n, = struct.unpack(">I", b[i:i + 4])
    if b[i + 4:i + 8] == b"IDAT":
        data += b[i + 8:i + 8 + n]
    i += 12 + n
raw, bpp, stride = zlib.decompress(data), 3, w * 3
rows, prev = [], bytearray(stride)
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for x in range(stride):
        a = line[x - bpp] if x >= bpp else 0
        up, c = prev[x], prev[x - bpp] if x >= bpp else 0
        if f == 1: line[x] = (line[x] + a) & 255
        elif f == 2: line[x] = (line[x] + up) & 255
        elif f == 3: line[x] = (line[x] + (a + up) // 2) & 255
        elif f == 4:
            p = a + up - c
            pa, pb, pc = abs(p - a), abs(p - up), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else up if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
added, removed = [], []
for x in range(100, 1170):
    t = r = 0
    for y in range(60, 730):
        R, G, B = rows[y][3 * x:3 * x + 3]
        t += R < 20 and G > 100 and G == B
        r += R > 150 and G < 20 and B < 20
    if t >= 600: added.append(x)
    if r >= 600: removed.append(x)
print("added " + ",".join(map(str, added)) + " removed " + ",".join(map(str, removed)))
PY
}

@test "lgr: graph draws the link events within a connection's time as lines" {
	gen_lgr "$T/l.pcap"
	rm -rf "$T/g" && mkdir "$T/g"
	run -0 "$SMC" -j dump graph write "$T/g/g.png" "$T/l.pcap"
	# token 1: records 10..310 ms, the axis 6 ms more either side (1/50
	# of 300), 4..316 ms over columns 0..1069 from x 100: column
	# int((t - 4) * 1069 / 312); the ADD_LINKs and the CONFIRM_LINK of
	# link 2 (100, 110, 120 ms) and the DELETE_LINK of link 1 (300 ms).
	# The CONFIRM_LINKs at 0 and 0.1 ms and the DELETE_LINKs at 400 and
	# 450 ms are outside; TEST_LINK is no link event
	[ "$(jq -c '[.[] | [.token, .series.llc_link_up, .series.llc_link_down]]' <<<"$output")" = '[["0x00000001",3,1],["0x00000002",3,1],["0x00000003",null,null]]' ]
	[ "$(mark_cols "$T/g/g-smcr-00000001-tx.png")" = "added 428,463,497 removed 1114" ]
	# token 2: 20..320 ms, axis 14..326 ms: int((t - 14) * 1069 / 312)
	[ "$(mark_cols "$T/g/g-smcr-00000002-tx.png")" = "added 394,428,463 removed 1079" ]
	# token 3 (500..600 ms): none
	[ "$(mark_cols "$T/g/g-smcr-00000003-tx.png")" = "added  removed " ]
}

@test "lgr: a malformed message or one the capture cut before its link id makes no event" {
	# CONFIRM_LINK_V2 and ADD_LINK of 4 bytes: malformed; an ADD_LINK and
	# a DELETE_LINK the capture cut inside their header's link part (130
	# bytes before the message, 4 of it: no link id)
	"$GEN" -V 4 "$T/m.pcap" <<-EOF
	llc lgr=1 msg=21ff0080
	llc lgr=1 msg=02000000
	llc lgr=1 msg=$AL cut=$((130 + 31))
	llc lgr=1 msg=$DL1 cut=$((130 + 4))
	llc lgr=1 msg=$CL1
	EOF
	run -1 --separate-stderr "$SMC" -j dump stats "$T/m.pcap"
	[ "$(jq -c '.[0].link_groups[0] | [.llc, [.events[] | [.frame, .type, .link_id]]]' <<<"$output")" = '[3,[[5,"CONFIRM_LINK",1]]]' ]
}

@test "lgr: a message whose send failed is said failed, draws no mark, moves nothing" {
	# CONFIRM_LINK, then an ADD_LINK and a DELETE_LINK of link 1 sent
	# and failed (flag 0x04), token 1's data around them: 100..200
	# again after the DELETE_LINK (frame 6) would be a move
	"$GEN" -V 4 "$T/f.pcap" <<-EOF
	llc  ts=1700000000.000000 lgr=0x0a01 link=1 qp=17 peerqp=18 msg=$CL1
	data ts=1700000000.010000 token=1 offset=0 len=100
	llc  ts=1700000000.100000 lgr=0x0a01 link=1 qp=17 peerqp=18 msg=$AL flags=0x04
	data ts=1700000000.200000 token=1 offset=100 len=100
	llc  ts=1700000000.300000 lgr=0x0a01 link=2 qp=19 peerqp=20 msg=$DL1 flags=0x04
	data ts=1700000000.310000 token=1 offset=100 len=100
	EOF
	run -0 "$SMC" dump stats "$T/f.pcap"
	echo "$output"
	[[ "$output" == *"frame 3 tx ADD_LINK link-added failed link 2 "* ]]
	[[ "$output" == *"frame 5 tx DELETE_LINK link-removed failed link 1 reason lost-path"$'\n'* ]]
	run -0 "$SMC" -j dump analyze "$T/f.pcap"
	[ "$(jq -c '[.[0].link_groups[0].events[] | [.frame, .failed, .moved]]' <<<"$output")" = '[[1,false,null],[3,true,null],[5,true,[]]]' ]
	rm -rf "$T/g" && mkdir "$T/g"
	run -0 "$SMC" -j dump graph write "$T/g/g.png" "$T/f.pcap"
	[ "$(jq -c '[.[] | [.token, .series.llc_link_up, .series.llc_link_down]]' <<<"$output")" = '[["0x00000001",null,null]]' ]
	[ "$(mark_cols "$T/g/g.png")" = "added  removed " ]
}

@test "lgr: analyze token T shows the link groups that moved its connection, or all" {
	gen_lgr "$T/l.pcap"
	# token 1 moved under 0x0a01's DELETE_LINK, token 3 under 0x0b02's
	run -0 "$SMC" -j dump analyze token 1 "$T/l.pcap"
	[ "$(jq -c '[.[0].link_groups[].lgr_id]' <<<"$output")" = '["0x00000a01"]' ]
	run -0 "$SMC" -j dump analyze token 3 "$T/l.pcap"
	[ "$(jq -c '[.[0].link_groups[].lgr_id]' <<<"$output")" = '["0x00000b02"]' ]
	# token 2 moved nowhere: every link group
	run -0 "$SMC" -j dump analyze token 2 "$T/l.pcap"
	[ "$(jq -c '[.[0].link_groups[].lgr_id]' <<<"$output")" = '["0x00000a01","0x00000b02"]' ]
	run -0 "$SMC" -j dump analyze "$T/l.pcap"
	[ "$(jq -c '[.[0].link_groups[].lgr_id]' <<<"$output")" = '["0x00000a01","0x00000b02"]' ]
}

@test "lgr: a capture of LLC records only: no data or CDC record, no connection" {
	"$GEN" -V 4 "$T/j.pcap" <<-EOF
	llc lgr=1 msg=$CL1
	llc lgr=1 msg=$DL1
	EOF
	run -4 --separate-stderr "$SMC" dump graph "$T/j.pcap"
	[ "$stderr" = "Error: no data or CDC records in $T/j.pcap." ]
	run -4 --separate-stderr "$SMC" dump graph rx "$T/j.pcap"
	[ "$stderr" = "Error: no rx data or CDC records in $T/j.pcap." ]
	# the LLC records carry token 1 (the link group's id): no connection
	run --separate-stderr "$SMC" dump analyze token 1 "$T/j.pcap"
	[ "$stderr" = "Error: no connection has token 0x00000001." ]
}
