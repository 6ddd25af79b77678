#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of smc dump merge: the captures of the two hosts of SMC-R
# connections, each with its own clock, as one timeline per connection.
# The specs below are written in true time (seconds after 1700000000);
# gen-smcdump-pcap -s 2.5 writes host B's capture with its clock 2.5 s
# ahead. Every expected number is worked out from the specs by hand, in
# the comments.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	export TZ=UTC
	host_setup_file smc testsuite/tools
	two_hosts || return 1
}

# The skew of B's clock, and the one-way delays of the specs:
# A to B 3 ms (X), 5 ms (Y), 4 ms (W); B to A 2 ms (X), 4 ms (Y), 3 ms (W)
SKEW_NS=2500000000

# two_hosts: $T/a.pcap (host A) and $T/b.pcap (host B, clock +2.5 s).
#   X: A 0xa1 10.0.0.1:40000, B 0xb1 10.0.0.2:5201; CDC messages name
#      each other's token. A sends 100 bytes (B receives 60 + 40) and CDC
#      seqno 1, 2 (received) and 3 (lost: B never receives it); B sends 30
#      bytes (A receives 3 x 10), CDC seqno 1, and seqno 2 whose send
#      failed (flags 0x04: no receive expected)
#   Y: A 0xa2 :40001, B 0xb2; data only, no CDC: paired by addresses
#   W: A 0xa4 10.0.0.1:40003 > 10.0.0.2:5201; B 0xb4 sees the connection
#      NATed, 192.168.0.2:5201 > 192.168.0.1:6003; data only; both
#      captures hold the CLC Accept (B: token 0xb4, QP 0x222) and
#      Confirm (A: token 0xa4, QP 0x111): paired by the CLC tokens
#   alone: A 0xa3 :40002 to 10.0.0.3, B 0xb9 from 10.0.0.4:40005
two_hosts() {
	local t=1700000000 acc conf
	local XA="token=0xa1 local=10.0.0.1 peer=10.0.0.2 lport=40000 pport=5201"
	local XB="token=0xb1 local=10.0.0.2 peer=10.0.0.1 lport=5201 pport=40000"
	local YA="token=0xa2 local=10.0.0.1 peer=10.0.0.2 lport=40001 pport=5201"
	local YB="token=0xb2 local=10.0.0.2 peer=10.0.0.1 lport=5201 pport=40001"
	local WA="token=0xa4 local=10.0.0.1 peer=10.0.0.2 lport=40003 pport=5201"
	local WB="token=0xb4 local=192.168.0.2 peer=192.168.0.1 lport=5201 pport=6003"
	acc=$(python3 -c "import sys; sys.path.insert(0, '$TLIB'); from clc_messages import *; print(accept_smcr(2, 0x222, 0xb4, b'E', False).hex())") || return 1
	conf=$(python3 -c "import sys; sys.path.insert(0, '$TLIB'); from clc_messages import *; print(accept_smcr(3, 0x111, 0xa4, b'E', False).hex())") || return 1
	"$GEN" -V 4 "$T/a.pcap" <<-EOF || return 1
	tcp flags=PA ts=$t.001 src=10.0.0.2 dst=10.0.0.1 sport=5201 dport=40003 hex=$acc
	tcp flags=PA ts=$t.002 src=10.0.0.1 dst=10.0.0.2 sport=40003 dport=5201 hex=$conf
	data $XA ts=$t.010 offset=0 len=100
	cdc $XA ts=$t.010 seqno=1 ctoken=0xb1 pcount=100
	data $XA dir=rx ts=$t.022 offset=0 len=10
	data $XA dir=rx ts=$t.022 offset=10 len=10
	data $XA dir=rx ts=$t.022 offset=20 len=10
	cdc $XA dir=rx ts=$t.022 seqno=1 ctoken=0xa1 pcount=30
	cdc $XA ts=$t.030 seqno=2 ctoken=0xb1 pcount=100
	cdc $XA ts=$t.040 seqno=3 ctoken=0xb1 pcount=100
	data $YA ts=$t.050 offset=0 len=200
	data $YA dir=rx ts=$t.064 offset=0 len=20
	data token=0xa3 local=10.0.0.1 peer=10.0.0.3 lport=40002 pport=5201 ts=$t.070 offset=0 len=7
	data $WA ts=$t.080 offset=0 len=50
	data $WA dir=rx ts=$t.093 offset=0 len=5
	EOF
	"$GEN" -V 4 -s 2.5 "$T/b.pcap" <<-EOF || return 1
	tcp flags=PA ts=$t.001 src=192.168.0.2 dst=192.168.0.1 sport=5201 dport=6003 hex=$acc
	tcp flags=PA ts=$t.003 src=192.168.0.1 dst=192.168.0.2 sport=6003 dport=5201 hex=$conf
	data $XB dir=rx ts=$t.013 offset=0 len=60
	data $XB dir=rx ts=$t.013 offset=60 len=40
	cdc $XB dir=rx ts=$t.013 seqno=1 ctoken=0xb1 pcount=100
	data $XB ts=$t.020 offset=0 len=30
	cdc $XB ts=$t.020 seqno=1 ctoken=0xa1 pcount=30
	cdc $XB dir=rx ts=$t.033 seqno=2 ctoken=0xb1 pcount=100
	cdc $XB ts=$t.040 seqno=2 ctoken=0xa1 pcount=30 flags=0x04
	data $YB dir=rx ts=$t.055 offset=0 len=200
	data $YB ts=$t.060 offset=0 len=20
	data token=0xb9 local=10.0.0.2 peer=10.0.0.4 lport=5201 pport=40005 dir=rx ts=$t.071 offset=0 len=9
	data $WB dir=rx ts=$t.084 offset=0 len=50
	data $WB ts=$t.090 offset=0 len=5
	EOF
}

# ms_ts SEC MS: the time MS milliseconds after SEC, as the specs write it
ms_ts() {
	printf '%d.%03d' $(($1 + $2 / 1000)) $(($2 % 1000))
}

# mj JQ: jq -c JQ of smc -j dump merge a.pcap b.pcap's object
mj() {
	"$SMC" -j dump merge "$T/a.pcap" "$T/b.pcap" 2>/dev/null | jq -c ".[0] | $1"
}

@test "merge: every connection paired, by CDC tokens, addresses or CLC tokens; ends alone listed" {
	run -0 mj '[.connections[] | [.a.token, .b.token, .paired_by]]'
	[ "$output" = '[["0x000000a1","0x000000b1","cdc"],["0x000000a2","0x000000b2","address"],["0x000000a4","0x000000b4","clc"]]' ]
	# W's ends: the QPs of the CLC messages, each end's own and its peer's
	run -0 mj '.connections[2] | [.a.qpn, .a.peer_qpn, .b.qpn, .b.peer_qpn, .a.peer_token, .b.peer_token]'
	[ "$output" = '[273,546,546,273,"0x000000b4","0x000000a4"]' ]
	run -0 mj '[.unpaired[] | .end | [.host, .token, .local_port, .peer_address]]'
	[ "$output" = '[["A","0x000000a3",40002,"10.0.0.3"],["B","0x000000b9",5201,"10.0.0.4"]]' ]
}

@test "merge: the offset of B's clock is bounded by the pairs and holds the true skew" {
	# A to B: d <= rx_B - tx_A = 2.5 s + delay, least delay 3 ms (X);
	# B to A: d >= tx_B - rx_A = 2.5 s - delay, least delay 2 ms (X)
	local lo=$((SKEW_NS - 2000000)) hi=$((SKEW_NS + 3000000))
	run -0 mj '.clock | [.low_ns, .high_ns, .offset_ns]'
	[ "$output" = "[$lo,$hi,$(((lo + hi) / 2))]" ]
	[ "$lo" -le "$SKEW_NS" ] && [ "$SKEW_NS" -le "$hi" ]
	# pairs A to B: X 60, 40, CDC 1, CDC 2; Y 200; W 50 = 6
	# B to A: X 10, 10, 10, CDC 1; Y 20; W 5 = 6
	run -0 mj '.clock | [.pairs, .pairs_a_to_b, .pairs_b_to_a]'
	[ "$output" = "[12,6,6]" ]
	run -0 "$SMC" dump merge "$T/a.pcap" "$T/b.pcap"
	[ "${lines[2]}" = "clock: B = A + 2.500500000 s, from 2.498000000 to 2.503000000 (12 pairs: 6 A>B, 6 B>A)" ]
}

@test "merge: every receive after its send, on A's clock" {
	# each rx names its send; the send is on the other host, earlier in
	# the list and not later in time
	run -0 mj '[.connections[] | .records as $r | range(0; $r | length) as $i |
		$r[$i] | select(.dir == "rx") | . as $x |
		([range(0; $r | length) | select($r[.].host != $x.host and
			$r[.].dir == "tx" and $r[.].type == $x.type and
			$r[.].frame == $x.send_frame)] | first) as $j |
		$j != null and $j < $i and
		([$r[$j].ts_sec, $r[$j].ts_nsec] <= [$x.ts_sec, $x.ts_nsec])]'
	# rx records: X 2 + 1 + 1 on B, 3 + 1 on A; Y 1 + 1; W 1 + 1
	[ "$output" = "[true,true,true,true,true,true,true,true,true,true,true,true]" ]
	# B's first record, rx at true .013: 2.513 on B, less 2.5005
	run -0 mj '[.connections[0].records[] | select(.host == "B")][0] | [.frame, .ts_sec, .ts_nsec, .delay_ns]'
	[ "$output" = "[3,1700000000,12500000,2500000]" ]
}

@test "merge: sends with no receive are lost, a failed send is not" {
	run -0 mj '[.connections[] | [.lost[] | [.host, .frame, .type, .seqno]]]'
	[ "$output" = '[[["A",10,"cdc",3]],[],[]]' ]
	run -0 "$SMC" dump merge "$T/a.pcap" "$T/b.pcap"
	[[ "$output" == *"  lost: A #10 tx cdc  seqno 3: no receive on the other host"* ]]
	[[ "$output" == *"unpaired: A token 0x000000a3 10.0.0.1:40002 > 10.0.0.3:5201, records 1"* ]]
	run -0 mj '[.connections[0].records[] | select(.failed) | [.host, .seqno]]'
	[ "$output" = '[["B",2]]' ]
}

@test "merge write: one pcapng of both captures on A's clock, an interface per host" {
	run -0 "$SMC" dump merge write "$T/m.pcapng" "$T/a.pcap" "$T/b.pcap"
	# 15 frames of A, 14 of B, in time order
	run -0 "$SMC" -j dump read "$T/m.pcapng"
	[ "$(jq length <<<"$output")" -eq 29 ]
	[ "$(jq '[.[] | [.ts_sec, .ts_nsec]] | . == sort' <<<"$output")" = true ]
	# B's Accept, true .001: 2.501 on B less 2.5005 = .0005, comes before
	# A's at .001
	[ "$(jq -c '[.[0:2][] | .ts_nsec]' <<<"$output")" = "[500000,1000000]" ]
	run -0 python3 - "$T/m.pcapng" <<-'EOF'
	import struct, sys
	b = open(sys.argv[1], "rb").read()
	off, names, ifs = 0, [], []
	while off < len(b):
	    t, n = struct.unpack_from("<II", b, off)
	    if t == 1:
	        o = off + 16
	        while True:
	            c, l = struct.unpack_from("<HH", b, o)
	            if c == 0:
	                break
	            if c == 2:
	                names.append(b[o + 4:o + 4 + l].decode())
	            o += 4 + (l + 3) // 4 * 4
	    elif t == 6:
	        ifs.append(struct.unpack_from("<I", b, off + 8)[0])
	    off += n
	print(" ".join(names), ifs.count(0), ifs.count(1))
	EOF
	# the first frame is B's: its interface first; 14 frames of B, 15 of A
	[ "$output" = "B A 14 15" ]
}

@test "merge: bad input gets a clear error" {
	echo "no capture" >"$T/text"
	run -3 "$SMC" dump merge "$T/text" "$T/b.pcap"
	[[ "$output" == "Error: $T/text: "* ]]
	# the same capture twice: one host
	run -4 "$SMC" dump merge "$T/a.pcap" "$T/a.pcap"
	[[ "$output" == *"captures of one host, not of the two ends"* ]]
	# SMC-D only
	echo "data mode=d token=0x5 offset=0 len=10" | "$GEN" "$T/d.pcap"
	run -4 "$SMC" dump merge "$T/a.pcap" "$T/d.pcap"
	[ "$output" = "Error: $T/d.pcap holds no SMC-R data or CDC record (SMC-D has both ends on one host): nothing to merge" ]
	# cut in its last frame: what comes before is merged, status 1
	head -c $(($(stat -c %s "$T/b.pcap") - 5)) "$T/b.pcap" >"$T/cut.pcap"
	run -1 --separate-stderr "$SMC" -j dump merge "$T/a.pcap" "$T/cut.pcap"
	[[ "$stderr" == "Error: $T/cut.pcap: "*"(after frame 13); merged what comes before" ]]
	[ "$(jq '.[0].connections | length' <<<"$output")" -eq 3 ]
	# a pcapng frame of an interface never described: the warning names
	# the capture (and the frame it follows)
	printf 'data dir=rx token=0xb1 local=10.0.0.2 peer=10.0.0.1 lport=5201 pport=40000 offset=0 len=60\n%s\n' \
		'data dir=rx token=0xb1 local=10.0.0.2 peer=10.0.0.1 lport=5201 pport=40000 offset=60 len=40' |
		"$GEN" -g -s 2.5 "$BATS_TEST_TMPDIR/ng.pcapng"
	# the first frame's Enhanced Packet Block (after the 28-byte SHB and
	# the 32-byte IDB): interface 7
	printf '\x07' | dd of="$BATS_TEST_TMPDIR/ng.pcapng" bs=1 seek=68 conv=notrunc status=none
	run -1 --separate-stderr "$SMC" dump merge "$T/a.pcap" "$BATS_TEST_TMPDIR/ng.pcapng"
	[ "${stderr_lines[0]}" = "Warning: $BATS_TEST_TMPDIR/ng.pcapng: after frame 0: frame of pcapng interface 7, which is not described" ]
	run -2 "$SMC" dump merge "$T/a.pcap"
	[[ "$output" == "Error: two captures expected"* ]]
	run -2 "$SMC" dump merge "$T/a.pcap" "$T/b.pcap" "$T/b.pcap"
	[[ "$output" == "Error: unexpected argument"* ]]
	run -2 "$SMC" dump merge "$T/a.pcap" "$T/b.pcap" write
	[[ "$output" == "Error: \"write\" needs a file"* ]]
	run -2 "$SMC" dump merge - -
	[[ "$output" == "Error: standard input can be one of the captures, not both." ]]
	run -3 "$SMC" dump merge write "$T/no/such/dir/m" "$T/a.pcap" "$T/b.pcap"
	[[ "$output" == *"Error: cannot write $T/no/such/dir/m"* ]]
	# OUT one of the captures (also by another name): refused before
	# anything is read, the capture as it was
	cp "$T/a.pcap" "$T/a2.pcap"
	ln -sf "$T/a2.pcap" "$T/a2-link.pcap"
	sum=$(sha256sum <"$T/a2.pcap")
	run -2 "$SMC" dump merge write "$T/a2.pcap" "$T/a2.pcap" "$T/b.pcap"
	[ "$output" = "Error: write $T/a2.pcap: that is the capture $T/a2.pcap itself" ]
	run -2 "$SMC" dump merge write "$T/a2-link.pcap" "$T/b.pcap" "$T/a2.pcap"
	[ "$output" = "Error: write $T/a2-link.pcap: that is the capture $T/a2.pcap itself" ]
	[ "$(sha256sum <"$T/a2.pcap")" = "$sum" ]
}

@test "merge write: an error leaves OUT as it was, and no file beside it" {
	mkdir "$BATS_TEST_TMPDIR/o"
	echo keep >"$BATS_TEST_TMPDIR/o/m.pcapng"
	# writes fail past 1 KiB (EFBIG, SIGXFSZ ignored): the merged file
	# is larger
	run -3 --separate-stderr bash -c 'trap "" XFSZ; ulimit -f 1; exec "$@" >/dev/null' - \
		"$SMC" dump merge write "$BATS_TEST_TMPDIR/o/m.pcapng" "$T/a.pcap" "$T/b.pcap"
	[[ "$stderr" == *"Error: cannot write $BATS_TEST_TMPDIR/o/m.pcapng"* ]]
	[ "$(cat "$BATS_TEST_TMPDIR/o/m.pcapng")" = keep ]
	run -3 --separate-stderr bash -c 'trap "" XFSZ; ulimit -f 1; exec "$@" >/dev/null' - \
		"$SMC" dump merge write "$BATS_TEST_TMPDIR/o/new.pcapng" "$T/a.pcap" "$T/b.pcap"
	[ "$(ls -A "$BATS_TEST_TMPDIR/o")" = m.pcapng ]
	# the captures cannot be merged: nothing written either
	run -4 --separate-stderr "$SMC" dump merge write "$BATS_TEST_TMPDIR/o/m.pcapng" "$T/a.pcap" "$T/a.pcap"
	[ "$(cat "$BATS_TEST_TMPDIR/o/m.pcapng")" = keep ]
	[ "$(ls -A "$BATS_TEST_TMPDIR/o")" = m.pcapng ]
	# a good run replaces it, with the mode a new file gets
	run -0 --separate-stderr bash -c 'umask 027; exec "$@"' - \
		"$SMC" dump merge write "$BATS_TEST_TMPDIR/o/m.pcapng" "$T/a.pcap" "$T/b.pcap"
	[ "$(ls -A "$BATS_TEST_TMPDIR/o")" = m.pcapng ]
	[ "$(stat -c %a "$BATS_TEST_TMPDIR/o/m.pcapng")" = 640 ]
	run -0 --separate-stderr "$SMC" -j dump read "$BATS_TEST_TMPDIR/o/m.pcapng"
	[ "$(jq length <<<"$output")" -eq 29 ]
}

@test "merge write -: standard output holds the pcapng alone, the report goes to standard error" {
	"$SMC" dump merge write - "$T/a.pcap" "$T/b.pcap" >"$BATS_TEST_TMPDIR/m.pcapng" 2>"$BATS_TEST_TMPDIR/err"
	grep -qx "A: $T/a.pcap" "$BATS_TEST_TMPDIR/err"
	grep -q "^clock: B = A + 2.500500000 s" "$BATS_TEST_TMPDIR/err"
	run -0 --separate-stderr "$SMC" -j dump read "$BATS_TEST_TMPDIR/m.pcapng"
	[ -z "$stderr" ]
	[ "$(jq length <<<"$output")" -eq 29 ]
	# -j: the JSON report on standard error too
	"$SMC" -j dump merge write - "$T/a.pcap" "$T/b.pcap" 2>"$BATS_TEST_TMPDIR/err" | cmp - "$BATS_TEST_TMPDIR/m.pcapng"
	[ "$(jq -c '.[0].clock.pairs' "$BATS_TEST_TMPDIR/err")" = 12 ]
}

@test "merge: a frame whose time is no time is reported, and left out, not written with another time" {
	# B's frame 3: ts_usec 1500000; 4: ts_usec 4294968 (libpcap's
	# scaling to ns, 32 bits wide, made that 704 ns; the reader keeps it
	# 4294967295); 5: ts_sec 0xffffffff (before 1970)
	python3 - "$T/b.pcap" "$BATS_TEST_TMPDIR/bt.pcap" <<-'EOF'
	import struct, sys
	b = bytearray(open(sys.argv[1], "rb").read())
	e = "<" if b[:4] == b"\xd4\xc3\xb2\xa1" else ">"
	assert struct.unpack_from(e + "I", b, 0)[0] == 0xa1b2c3d4
	off, n = 24, 0
	while off < len(b):
	    n += 1
	    if n == 3:
	        struct.pack_into(e + "I", b, off + 4, 1500000)
	    if n == 4:
	        struct.pack_into(e + "I", b, off + 4, 4294968)
	    if n == 5:
	        struct.pack_into(e + "I", b, off, 0xffffffff)
	    off += 16 + struct.unpack_from(e + "I", b, off + 8)[0]
	open(sys.argv[2], "wb").write(b)
	EOF
	run -1 --separate-stderr "$SMC" dump merge write "$BATS_TEST_TMPDIR/m.pcapng" "$T/a.pcap" "$BATS_TEST_TMPDIR/bt.pcap"
	[ "${#stderr_lines[@]}" -eq 3 ]
	[ "${stderr_lines[0]}" = "Warning: $BATS_TEST_TMPDIR/bt.pcap: frame 3: time 1700000002 s 1500000000 ns is not a time; frame left out" ]
	[ "${stderr_lines[1]}" = "Warning: $BATS_TEST_TMPDIR/bt.pcap: frame 4: time 1700000002 s 4294967295 ns is not a time; frame left out" ]
	[ "${stderr_lines[2]}" = "Warning: $BATS_TEST_TMPDIR/bt.pcap: frame 5: time -1 s 513000000 ns is not a time; frame left out" ]
	# 29 frames less the three, each time a real one
	run -0 --separate-stderr "$SMC" -j dump read "$BATS_TEST_TMPDIR/m.pcapng"
	[ "$(jq length <<<"$output")" -eq 26 ]
	[ "$(jq '[.[] | select(.ts_sec < 1700000000 or .ts_sec > 1700000001 or .ts_nsec >= 1000000000)] | length' <<<"$output")" -eq 0 ]
	# nor do their records count in the report: B's 11 records of
	# connections with both ends less the three
	run -1 --separate-stderr "$SMC" -j dump merge "$T/a.pcap" "$BATS_TEST_TMPDIR/bt.pcap"
	[ "$(jq '[.[0].connections[].records[] | select(.host == "B")] | length' <<<"$output")" -eq 8 ]
	run -0 mj '[.connections[].records[] | select(.host == "B")] | length'
	[ "$output" -eq 11 ]
}

@test "merge: a capture on standard input; no pairs leaves the clocks alone" {
	run -0 --separate-stderr "$SMC" -j dump merge "$T/a.pcap" - <"$T/b.pcap"
	[ "$(jq '.[0].clock.offset_ns' <<<"$output")" -eq $(((SKEW_NS - 2000000 + SKEW_NS + 3000000) / 2)) ]
	# A's 0xa3 and B's 0xb9 pair with nothing: no offset
	printf 'data token=0xa3 local=10.0.0.1 peer=10.0.0.3 lport=40002 pport=5201 offset=0 len=7\n' | "$GEN" "$T/a1.pcap"
	printf 'data token=0xb9 local=10.0.0.2 peer=10.0.0.4 lport=5201 pport=40005 dir=rx offset=0 len=9\n' | "$GEN" -s 2.5 "$T/b1.pcap"
	run -0 --separate-stderr "$SMC" -j dump merge "$T/a1.pcap" "$T/b1.pcap"
	[ "$(jq -c '.[0] | [.clock.offset_ns, .clock.pairs, (.connections | length), (.unpaired | length)]' <<<"$output")" = "[0,0,0,2]" ]
	[[ "$stderr" == *"no receive was matched with its send"* ]]
}

@test "merge: B's capture shifted again by pcap_shift.py moves the bounds by exactly the shift" {
	# the smcr tier shifts a guest's capture with this script
	python3 "$TLIB/pcap_shift.py" "$T/b.pcap" "$BATS_TEST_TMPDIR/b2.pcap" -1.25
	run -0 mj '.clock | [.low_ns, .high_ns]'
	local before=$output
	run -0 --separate-stderr "$SMC" -j dump merge "$T/a.pcap" "$BATS_TEST_TMPDIR/b2.pcap"
	[ "$(jq -c '.[0].clock | [.low_ns + 1250000000, .high_ns + 1250000000]' <<<"$output")" = "$before" ]
	[ "$(jq -c '[.[0].connections[] | .paired_by]' <<<"$output")" = '["cdc","address","clc"]' ]
	# the script refuses what it cannot shift exactly
	run -1 python3 "$TLIB/pcap_shift.py" "$T/b.pcap" "$BATS_TEST_TMPDIR/b3.pcap" 0.0000001
	[[ "$output" == *"at most 6 fractional digits"* ]]
	printf '%040d\n' 0 >"$BATS_TEST_TMPDIR/zeros"
	run -1 python3 "$TLIB/pcap_shift.py" "$BATS_TEST_TMPDIR/zeros" "$BATS_TEST_TMPDIR/b3.pcap" 1
	[[ "$output" == *"not a classic pcap file"* ]]
}

@test "merge: data sent in other pieces than received, and sent again after a failover, matched with its first send" {
	local t=1700000000
	local VA="token=0xa5 local=10.0.0.1 peer=10.0.0.2 lport=40010 pport=5201"
	local VB="token=0xb5 local=10.0.0.2 peer=10.0.0.1 lport=5201 pport=40010"
	# A sends 0..50 (.100) and 50..100 (.101), B receives 0..100 (.104);
	# A sends 100..120 (.110) and again (.120, a failover), B receives it
	# at .113, from the first send. B's CDC (.130) reaches A at .132
	"$GEN" -V 4 "$BATS_TEST_TMPDIR/va.pcap" <<-EOF
	data $VA ts=$t.100 offset=0 len=50
	data $VA ts=$t.101 offset=50 len=50
	data $VA ts=$t.110 offset=100 len=20
	data $VA ts=$t.120 offset=100 len=20
	cdc $VA dir=rx ts=$t.132 seqno=1 ctoken=0xa5
	EOF
	"$GEN" -V 4 -s 2.5 "$BATS_TEST_TMPDIR/vb.pcap" <<-EOF
	data $VB dir=rx ts=$t.104 offset=0 len=100
	data $VB dir=rx ts=$t.113 offset=100 len=20
	cdc $VB ts=$t.130 seqno=1 ctoken=0xa5
	EOF
	run -0 --separate-stderr "$SMC" -j dump merge "$BATS_TEST_TMPDIR/va.pcap" "$BATS_TEST_TMPDIR/vb.pcap"
	# 0..100 by the send of its last byte (A #2), 100..120 by the first
	# send (A #3): high = 2.5 s + min(.104 - .101, .113 - .110); the
	# resend (.120) would have made it 2.493 s, below low
	[ "$(jq -c '.[0].clock | [.low_ns, .high_ns]' <<<"$output")" = "[$((SKEW_NS - 2000000)),$((SKEW_NS + 3000000))]" ]
	[ "$(jq -c '[.[0].connections[0].records[] | select(.host == "B" and .dir == "rx") | .send_frame]' <<<"$output")" = "[2,3]" ]
	# every send arrived: none lost
	[ "$(jq -c '[.[0].connections[0] | .paired_by, (.lost | length)]' <<<"$output")" = '["cdc",0]' ]
}

@test "merge write: Wireshark reads the merged file, each frame's host as its interface" {
	command -v tshark >/dev/null || skip "no tshark"
	"$SMC" dump merge write "$BATS_TEST_TMPDIR/m.pcapng" "$T/a.pcap" "$T/b.pcap" >/dev/null
	# B's Accept at .0005 on A's clock, A's at .001, A's Confirm at .002,
	# B's at true .003 (.0025); 15 frames of A, 14 of B
	run -0 --separate-stderr tshark -r "$BATS_TEST_TMPDIR/m.pcapng" -T fields -e frame.interface_name -e frame.time_epoch
	[ "${lines[0]}" = $'B\t1700000000.000500000' ]
	[ "${lines[1]}" = $'A\t1700000000.001000000' ]
	[ "${lines[2]}" = $'A\t1700000000.002000000' ]
	[ "${lines[3]}" = $'B\t1700000000.002500000' ]
	[ "$(grep -c '^A' <<<"$output")" -eq 15 ]
	[ "$(grep -c '^B' <<<"$output")" -eq 14 ]
}

@test "merge: clocks that drift apart: B's offset a line, every receive still after its send" {
	# one connection over 20 s: every 0.5 s A sends a CDC message that B
	# receives 2 ms later, and 250 ms after it B sends one that A
	# receives 2 ms later. B's clock runs 1000 ppm fast: 20 ms over the
	# run, more than the delays, so no one offset fits every pair
	local t=1700000000 i ms a b
	local XA="token=0xa1 local=10.0.0.1 peer=10.0.0.2 lport=40000 pport=5201"
	local XB="token=0xb1 local=10.0.0.2 peer=10.0.0.1 lport=5201 pport=40000"
	for ((i = 0; i < 40; i++)); do
		ms=$((i * 500))
		a+="cdc $XA ts=$(ms_ts $t $ms) seqno=$((i + 1)) ctoken=0xb1"$'\n'
		a+="cdc $XA dir=rx ts=$(ms_ts $t $((ms + 252))) seqno=$((i + 1)) ctoken=0xa1"$'\n'
		b+="cdc $XB dir=rx ts=$(ms_ts $t $((ms + 2))) seqno=$((i + 1)) ctoken=0xb1"$'\n'
		b+="cdc $XB ts=$(ms_ts $t $((ms + 250))) seqno=$((i + 1)) ctoken=0xa1"$'\n'
	done
	"$GEN" -V 4 "$BATS_TEST_TMPDIR/da.pcap" <<<"$a"
	"$GEN" -V 4 "$BATS_TEST_TMPDIR/db0.pcap" <<<"$b"
	python3 "$TLIB/pcap_shift.py" "$BATS_TEST_TMPDIR/db0.pcap" "$BATS_TEST_TMPDIR/db.pcap" 0 1000
	run -0 --separate-stderr "$SMC" -j dump merge "$BATS_TEST_TMPDIR/da.pcap" "$BATS_TEST_TMPDIR/db.pcap"
	jq -c '.[0].clock' <<<"$output"
	echo "$stderr"
	# all 80 pairs; the bounds cross (as one offset: 18 ms low, 2 ms high)
	jq -e '.[0].clock | .pairs == 80 and .low_ns > .high_ns' <<<"$output"
	# the rate: B's offset grows by 1000 ppm of true time, which is
	# 1000 / 1.001 = 999.0 ppm of B's (1 ppm either side: the room the
	# 2-ms delays leave over 20 s)
	jq -e '.[0].clock | .rate_ppb > 998000 and .rate_ppb < 1000000' <<<"$output"
	# every receive sorts after its send, and nothing is said about it
	jq -e '[.[0].connections[0].records as $r | range(0; $r | length) as $i |
		$r[$i] | select(.dir == "rx") | . as $x |
		([range(0; $r | length) | select($r[.].host != $x.host and
			$r[.].dir == "tx" and $r[.].frame == $x.send_frame)] | first) as $j |
		$j != null and $j < $i] | length == 80 and all' <<<"$output"
	[[ "$stderr" != *"leave no offset"* ]]
	# the text names the rate
	run -0 --separate-stderr "$SMC" dump merge "$BATS_TEST_TMPDIR/da.pcap" "$BATS_TEST_TMPDIR/db.pcap"
	[[ "${lines[2]}" == "clock: B = A + "*" s +999.00"[01]" ppm of the time since B's first bound; no one offset fits (from 0.017748000 to 0.002000000) (80 pairs: 40 A>B, 40 B>A)" ]]
}
