#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of smc dump analyze on captures the
# tests write with testsuite/tools/gen-smcdump-pcap. Every expected number
# is worked out by hand in the comments from the definitions of
# smc-dump(8), section "smc dump analyze"; none is copied from a run.
# Times in the comments are relative to the capture's first frame
# (1700000000.000000), as the report gives them.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_file smc testsuite/tools
}

# clc_r_v1 TYPE RMBE_SIZE: an SMC-R v1 Accept (TYPE 2) or Confirm (3) of
# 68 bytes as hex (struct smc_clc_msg_accept_confirm, RFC 7609): header
# (eyecatcher "SMCR" in EBCDIC, type, length 0x44, version 1 path R),
# system id, GID and MAC zero, QP number 1, rkey 0, RMBE index 1, alert
# token 1, rmbe_size in the high nibble (qp_mtu 3), DMA address 0, PSN 0,
# trailer
clc_r_v1() {
	local z30 z8=0000000000000000
	z30=$(printf '%060d' 0)
	printf 'e2d4c3d9%02x004410%s' "$1" "$z30"
	printf '000001%s01%s%x3' 00000000 00000001 "$2"
	printf '00%s00000000e2d4c3d9' "$z8"
}

# clc_d_v1 DMBE_SIZE: an SMC-D v1 Accept of 48 bytes as hex: header
# (eyecatcher "SMCD", type 2, length 0x30, version 1 path D), GID 1,
# DMB token 2, DMBE index 1, dmbe_size in the high nibble, reserved,
# link id 0, 12 reserved bytes, trailer
clc_d_v1() {
	printf 'e2d4c3c4020030110000000000000001%s' 0000000000000002
	printf '01%x0%s%s%s%s' "$1" 0000 00000000 \
		000000000000000000000000 e2d4c3c4
}

# The connection of the first tests, token 1, local 10.0.0.1:40000 (the
# client), peer 10.0.0.2:5201. The peer's Accept gives its RMBE size
# nibble 0: 16384 bytes, the window of tx; the local Confirm nibble 1:
# 32768, the buffer of rx.
#
#  frame time   record                        P      C     window (N 16384)
#  1   0.000   Accept peer > local, 16384
#  2   0.001   Confirm local > peer, 32768
#  3   0.010   data tx 0+8192                 8192   0     open
#  4   0.010   cdc tx prod 0:8192             8192
#  5   0.020   data tx 8192+8192              16384  0     closed (P>=C+N)
#  6   0.020   cdc tx prod 1:0 write_blocked  16384        pending
#  7   0.520   cdc rx cons 0:8192             16384  8192  open: 500 ms,
#                                                          limited
#  8   0.530   data tx 16384+8192             24576  8192  closed
#  9   0.530   cdc tx prod 1:8192 cons_curs_upd_req
# 10   0.730   cdc rx cons 1:0                24576  16384 open: 200 ms,
#                                                          not pending yet
# 11   0.830   data tx 24576+4096             28672        new data: the
#                                                          200 ms count
# 12   0.830   cdc tx prod 1:12288
# 13   0.900   data tx 28672+4096             32768  16384 closed
# 14   0.900   cdc tx prod 2:0 (no flag)
# 15   1.000   cdc rx cons 2:0                32768  32768 open: 100 ms,
#                                                          no data after
write_conn1() {
	local out=$1 clc=${2:-1}
	{
		if [ "$clc" = 1 ]; then
			echo "tcp ts=1700000000.000 src=10.0.0.2 dst=10.0.0.1 sport=5201 dport=40000 flags=PA seq=1 hex=$(clc_r_v1 2 0)"
			echo "tcp ts=1700000000.001 flags=PA seq=1 hex=$(clc_r_v1 3 1)"
		fi
		cat <<'EOF'
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
	} | "$GEN" "$out"
}

@test "analyze: bytes, duration, throughput, window and stalls of a known connection" {
	write_conn1 "$T/c1.pcap"
	run -0 --separate-stderr "$SMC" -j dump analyze "$T/c1.pcap"
	[ -z "$stderr" ]
	echo "$output" | jq . >/dev/null
	# connection: 13 records, frames 3..15, from 0.010 to 1.000 s
	echo "$output" | jq -e '.[0] | .window_ns == 100000000 and
		(.connections | length) == 1 and .total.connections == 1 and
		.total.clc_buffers == 2 and
		(.connections[0] | .mode == "SMC-R" and .token == "0x00000001" and
		 .local_address == "10.0.0.1" and .local_port == 40000 and
		 .peer_address == "10.0.0.2" and .peer_port == 5201 and
		 .records == 13 and
		 .first_ns == 10000000 and .duration_ns == 990000000)'
	# tx: data frames 3 5 8 11 13, CDC frames 4 6 9 12 14: 5 / 5 = 1;
	# bytes 3 * 8192 + 2 * 4096 = 32768; first data 0.010, last 0.900:
	# 890 ms; mean 32768 / 0.89 s = 36817.98 B/s.
	# 100 ms windows from 0.010: [0.010, 0.110) has frames 3 and 5,
	# 16384 bytes; [0.510, 0.610) 8192; [0.810, 0.910) 8192: peak
	# 16384 / 0.1 s = 163840 B/s in the window from 0.010.
	echo "$output" | jq -e '.[0].connections[0].tx |
		.data == 5 and .cdc == 5 and .cdc_per_data == 1 and
		.bytes == 32768 and .first_ns == 10000000 and
		.duration_ns == 890000000 and
		(.mean_bytes_per_sec - 36817.98 | fabs) < 0.01 and
		.peak_bytes_per_sec == 163840 and .peak_at_ns == 10000000'
	# window (see the table): closed 500 + 200 + 100 = 800 ms, 3 times;
	# limited 500 (write_blocked) + 200 (new data followed) = 700 ms,
	# 2 times; the last 100 ms had neither
	echo "$output" | jq -e '.[0].connections[0].tx |
		.buffer == 16384 and .buffer_from == "clc" and
		.buffer_inferred == false and
		.window_closed_ns == 800000000 and .window_closed_times == 3 and
		.window_limited_ns == 700000000 and
		.window_limited_times == 2 and .window_closed_at_end == false'
	# cons_curs_upd_req once (frame 9), write_blocked once (frame 6);
	# the receiver's cursor moved at frames 7, 10, 15: 3 updates.
	# announce wait: frame 6 (0.020) to frame 7 (0.520) 500 ms, frame 9
	# (0.530) to frame 10 (0.730) 200 ms: 700 ms, none unanswered
	echo "$output" | jq -e '.[0].connections[0].tx |
		.cons_upd_req == 1 and .write_blocked == 1 and
		.cons_upd_sent == 3 and .announce_wait_ns == 700000000 and
		.announce_unanswered == 0'
	# P moved at frames 3, 5, 8, 11, 13 (the CDC messages repeat it):
	# gaps 5-8 510 ms (closed after 5), 8-11 300 ms (closed after 8),
	# 11-13 70 ms, 3-5 10 ms
	echo "$output" | jq -e '.[0].connections[0].tx.stalls == [
		{"duration_ns":510000000,"start_ns":20000000,"start_frame":5,"end_frame":8,"window_full":true},
		{"duration_ns":300000000,"start_ns":530000000,"start_frame":8,"end_frame":11,"window_full":true},
		{"duration_ns":70000000,"start_ns":830000000,"start_frame":11,"end_frame":13,"window_full":false},
		{"duration_ns":10000000,"start_ns":10000000,"start_frame":3,"end_frame":5,"window_full":false}]'
	# rx: no data; the peer's 3 CDC messages; the Confirm's 32768;
	# nothing ever in flight
	echo "$output" | jq -e '.[0].connections[0].rx |
		.data == 0 and .cdc == 3 and .cdc_per_data == null and
		.bytes == 0 and .buffer == 32768 and .buffer_from == "clc" and
		.window_closed_ns == 0 and .window_limited_ns == 0 and
		.stalls == [] and (has("mean_bytes_per_sec") | not)'
}

@test "analyze: the text report says the same" {
	write_conn1 "$T/c1.pcap"
	run -0 --separate-stderr "$SMC" dump analyze "$T/c1.pcap"
	[ "${lines[0]}" = "smcr token 0x00000001 10.0.0.1:40000 <-> 10.0.0.2:5201 records 13 from 0.010000 s duration 990.000000 ms" ]
	[ "${lines[1]}" = "  tx: data 5 cdc 5 cdc-per-data 1.00 bytes 32768 from 0.010000 s duration 890.000000 ms" ]
	[ "${lines[2]}" = "      mean 36.82 kB/s peak 163.84 kB/s in the window from 0.010000 s" ]
	[ "${lines[3]}" = "      buffer 16384 (clc) window-closed 800.000000 ms (3 times) window-limited 700.000000 ms (2 times)" ]
	[ "${lines[4]}" = "      cons-upd-req 1 cons-upd-sent 3 write-blocked 1 announce-wait 700.000000 ms unanswered 0" ]
	[ "${lines[5]}" = "     stall 510.000000 ms at 0.020000 s frames 5-8 window-full" ]
	[ "${lines[6]}" = "     stall 300.000000 ms at 0.530000 s frames 8-11 window-full" ]
	[ "${lines[9]}" = "  rx: data 0 cdc 3 bytes 0" ]
	[ "${lines[-1]}" = "total: connections 1 window 100.000000 ms clc-buffers 2 legacy-skipped 0" ]
}

@test "analyze: without the handshake the buffer is inferred from a cursor wrap" {
	# frame 4 of this capture (frame 6 above): producer cursor 1:0 after
	# data up to 16384: 16384 = 1 * N + 0, N = 16384 > 0
	write_conn1 "$T/c1n.pcap" 0
	run -0 "$SMC" -j dump analyze "$T/c1n.pcap"
	echo "$output" | jq -e '.[0].total.clc_buffers == 0 and
		(.[0].connections[0].tx | .buffer == 16384 and
		 .buffer_from == "inferred-wrap" and .buffer_inferred and
		 .window_closed_ns == 800000000 and
		 .window_limited_ns == 700000000 and
		 .stalls[0].start_frame == 3 and .stalls[0].end_frame == 6)'
	# rx: no wrap and nothing in flight: no size
	echo "$output" | jq -e '.[0].connections[0].rx | .buffer == null and
		.buffer_from == null and .window_closed_ns == null'
	run -0 "$SMC" dump analyze "$T/c1n.pcap"
	[[ "${lines[3]}" == "      buffer 16384 (inferred-wrap) window-closed"* ]]
	[ "${lines[9]}" = "  rx: data 0 cdc 3 bytes 0" ]
	[ "${lines[10]}" = "      buffer unknown window-closed unknown" ]
}

@test "analyze: received data follows its cursor: a block cut into records is one E" {
	# SMC-D loopback as make demo records it: the receiver's CDC message
	# (producer 1:0) comes before the block it announces, which is cut
	# at the largest IPv4 payload (65475) into 65475 + 29 bytes. E is the
	# end of that run, 65504 = 1 * N + 0, so N = 65504 (the DMB less
	# 32), as the sender's side says; not 65475, where the record was cut
	"$GEN" "$T/rxw.pcap" <<'EOF'
data ts=1.0 mode=d token=4 offset=0 len=65475
data ts=1.0 mode=d token=4 offset=65475 len=29
cdc  ts=1.1 mode=d token=4 pwrap=1 pcount=0
cdc  ts=1.2 mode=d token=4 dir=rx pwrap=1 pcount=0
data ts=1.2 mode=d token=4 dir=rx offset=0 len=65475
data ts=1.2 mode=d token=4 dir=rx offset=65475 len=29
EOF
	run -0 "$SMC" -j dump analyze "$T/rxw.pcap"
	echo "$output" | jq -e '.[0].connections[0] |
		(.tx | .buffer == 65504 and .buffer_from == "inferred-wrap") and
		(.rx | .buffer == 65504 and .buffer_from == "inferred-wrap")'
}

@test "analyze: no wrap: the most in flight, marked inferred" {
	# P 1000 at 0.0, 4000 at 0.5; the receiver's cursor 0:4000 at 1.0:
	# most in flight 4000 - 0 = 4000 = N, so the window closed at 0.5
	# (frame 3) and opened at 1.0 (frame 5): 500 ms, limited since new
	# data came (frame 6). Stalls: 0.0-0.5 frames 1-3, 0.5-1.0 frames
	# 3-6 (window full)
	"$GEN" "$T/fl.pcap" <<'EOF'
data ts=1.0 token=7 offset=0 len=1000
cdc  ts=1.0 token=7 pcount=1000
data ts=1.5 token=7 offset=1000 len=3000
cdc  ts=1.5 token=7 pcount=4000
cdc  ts=2.0 token=7 dir=rx ccount=4000
data ts=2.0 token=7 offset=4000 len=10
EOF
	run -0 "$SMC" -j dump analyze "$T/fl.pcap"
	echo "$output" | jq -e '.[0].connections[0].tx |
		.buffer == 4000 and .buffer_from == "inferred-in-flight" and
		.buffer_inferred and .window_closed_ns == 500000000 and
		.window_limited_ns == 500000000 and .cons_upd_sent == 1 and
		[.stalls[] | [.duration_ns, .start_frame, .end_frame, .window_full]] ==
		[[500000000, 1, 3, false], [500000000, 3, 6, true]]'
}

@test "analyze: window MS sets the throughput window" {
	write_conn1 "$T/c1.pcap"
	# one window of 1000 ms from 0.010 holds all 32768 bytes
	run -0 "$SMC" -j dump analyze window 1000 "$T/c1.pcap"
	echo "$output" | jq -e '.[0].window_ns == 1000000000 and
		.[0].connections[0].tx.peak_bytes_per_sec == 32768'
	# 10 ms windows: [0.010, 0.020) 8192, [0.020, 0.030) 8192, ...:
	# 8192 / 0.01 s = 819200 B/s from 0.010
	run -0 "$SMC" dump analyze window 10 "$T/c1.pcap"
	[ "${lines[2]}" = "      mean 36.82 kB/s peak 819.20 kB/s in the window from 0.010000 s" ]
	[[ "${lines[-1]}" == *" window 10.000000 ms "* ]]
}

@test "analyze: token T picks one connection; an unknown token is an error" {
	# two connections: token 1 (port 40000) and token 2 (port 40001)
	"$GEN" "$T/two.pcap" <<'EOF'
data ts=1.0 token=1 offset=0 len=100
data ts=1.1 token=2 lport=40001 offset=0 len=200
data ts=1.3 token=2 lport=40001 offset=200 len=300
EOF
	run -0 "$SMC" -j dump analyze "$T/two.pcap"
	echo "$output" | jq -e '[.[0].connections[] | .token] == ["0x00000001", "0x00000002"]'
	run -0 "$SMC" -j dump analyze token 0x2 "$T/two.pcap"
	# token 2: 500 bytes from 0.1 to 0.3 s: 2500 B/s; stall 200 ms
	echo "$output" | jq -e '.[0].connections | length == 1 and
		(.[0] | .token == "0x00000002" and .local_port == 40001 and
		 .tx.bytes == 500 and .tx.duration_ns == 200000000 and
		 .tx.mean_bytes_per_sec == 2500 and
		 .tx.stalls == [{"duration_ns":200000000,"start_ns":100000000,
				 "start_frame":2,"end_frame":3,"window_full":false}])'
	run -4 --separate-stderr "$SMC" dump analyze token 0x99 "$T/two.pcap"
	[ "$stderr" = "Error: no connection has token 0x00000099." ]
	run -2 --separate-stderr "$SMC" dump analyze token xyz "$T/two.pcap"
	[[ "$stderr" == *'"xyz" is wrong'* ]]
	run -2 --separate-stderr "$SMC" dump analyze token 0x100000000 "$T/two.pcap"
	[ "$stderr" = 'Error: argument "0x100000000" is wrong: a token has 32 bits' ]
	run -2 --separate-stderr "$SMC" dump analyze token 0x1g "$T/two.pcap"
	[ "$stderr" = 'Error: argument "0x1g" is wrong: expected a token (0x...)' ]
	run -2 --separate-stderr "$SMC" dump analyze token -1 "$T/two.pcap"
	[ "$stderr" = 'Error: argument "-1" is wrong: expected a token (0x...)' ]
	run -2 --separate-stderr "$SMC" dump analyze window 0 "$T/two.pcap"
	[[ "$stderr" == *"1 to 3600000 milliseconds"* ]]
	run -2 --separate-stderr "$SMC" dump analyze window 3600001 "$T/two.pcap"
	[ "$stderr" = 'Error: argument "3600001" is wrong: expected 1 to 3600000 milliseconds' ]
	run -2 --separate-stderr "$SMC" dump analyze window 18446744073709551616 "$T/two.pcap"
	[ "$stderr" = 'Error: argument "18446744073709551616" is wrong: expected milliseconds' ]
	run -2 --separate-stderr "$SMC" dump analyze window 10ms "$T/two.pcap"
	[ "$stderr" = 'Error: argument "10ms" is wrong: expected milliseconds' ]
	run -2 --separate-stderr "$SMC" dump analyze "$T/two.pcap" window
	[[ "$stderr" == *'"window" needs milliseconds'* ]]
	run -2 --separate-stderr "$SMC" dump analyze
	[[ "$stderr" == *"FILE expected"* ]]
}

@test "analyze: SMC-D takes the DMBE size less the CDC message" {
	# dmbe_size nibble 1: 32768 - 32 = 32736 for tx
	{
		echo "tcp ts=1.0 src=10.0.0.2 dst=10.0.0.1 sport=5201 dport=40000 flags=PA seq=1 hex=$(clc_d_v1 1)"
		echo "data ts=1.1 mode=d token=3 offset=0 len=10"
		echo "cdc ts=1.1 mode=d token=3 pcount=10"
	} | "$GEN" "$T/d.pcap"
	run -0 "$SMC" -j dump analyze "$T/d.pcap"
	echo "$output" | jq -e '.[0].connections[0] | .mode == "SMC-D" and
		.tx.buffer == 32736 and .tx.buffer_from == "clc"'
}

@test "analyze: a file that is no capture, or missing: exit 3 with the reason" {
	head -c 200 /dev/zero | tr '\0' 'x' >"$T/junk"
	run -3 --separate-stderr "$SMC" dump analyze "$T/junk"
	[[ "$stderr" == "Error: $T/junk: "* ]]
	[ -z "$output" ]
	run -3 --separate-stderr "$SMC" dump analyze "$T/none.pcap"
	[[ "$stderr" == "Error: $T/none.pcap: No such file or directory" ]]
}

@test "analyze: malformed, legacy, cut, holes and out of order: exit 1, no crash" {
	# frame 2 has a header of 20 bytes (malformed, said on stderr and
	# left out); frame 3 is legacy (skipped, counted); frame 4 is cut by
	# its snaplen (orig 2000, 100 kept; counts 2000); frame 5 comes
	# back in offset (no progress); frame 6 is earlier in time than
	# frame 4 and leaves the hole 3000..5000. Bytes 1000 + 2000 + 10 +
	# 500 = 3510 in 4 data records; data from 0.0 to 0.3 (the latest):
	# 300 ms. P moves at frames 1 (1000), 4 (3000), 6 (5500): gaps 1-4
	# 300 ms, 4-6 none (0.25 is before 0.3). No CDC: no window.
	"$GEN" "$T/bad.pcap" <<'EOF'
data ts=1.0 token=7 offset=0 len=1000
data ts=1.1 token=7 offset=1000 len=10 hdrlen=20
legacy ts=1.2 hex=00
data ts=1.3 token=7 offset=1000 len=100 orig=2000
data ts=1.3 token=7 offset=50 len=10
data ts=1.25 token=7 offset=5000 len=500
EOF
	run -1 --separate-stderr "$SMC" -j dump analyze "$T/bad.pcap"
	[[ "$stderr" == "smc dump: frame 2: "* ]]
	echo "$output" | jq -e '.[0].total.legacy == 1 and
		(.[0].connections[0].tx | .data == 4 and .bytes == 3510 and
		 .duration_ns == 300000000 and .buffer == null and
		 .window_closed_ns == null and
		 [.stalls[] | [.start_frame, .end_frame]] == [[1, 4]])'
	# a capture cut inside a frame: what came before is analyzed
	head -c -10 "$T/bad.pcap" >"$T/cut.pcap"
	run -1 --separate-stderr "$SMC" dump analyze "$T/cut.pcap"
	[[ "${lines[0]}" == "smcr token 0x00000007 "* ]]
}
