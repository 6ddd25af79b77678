#!/usr/bin/env bats
# scripts/demo-check.sh, what make demo's guest proves its claims with
# (SMC-D carried the traffic; each capture lists each connection once with
# both ends and no loss; each capture holds every stream sent), on inputs
# made here: it passes on the right ones and fails, saying why, on
# counters that show no SMC-D, on a summary with a lone end, a short
# direction or a lost record, and on streams that differ by one byte,
# miss one or hold one that was not sent. The whole demo runs in the
# stock-dkms tier (testsuite/stock-dkms/demo.bats).

bats_require_minimum_version 1.5.0

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
CHECK=$TOP/scripts/demo-check.sh

# stats FILE CLIENT SERVER TX RX SMCR: an `smc -j stats` array with the
# counters demo-check reads (smc(8), JSON)
stats() {
	printf '[{"smcd":{"connections":%d,"client":{"v1_success":0,"v2_success":%d},"server":{"v1_success":0,"v2_success":%d},"tx_bytes":%d,"rx_bytes":%d},"smcr":{"connections":%d}}]\n' \
		$(($2 + $3)) "$2" "$3" "$4" "$5" "$6" >"$1"
}

setup() {
	W=$BATS_TEST_TMPDIR
	stats "$W/before.json" 1 1 100 100 0
	# streams: two connections, each direction, as smc dump follow
	# writes them (each stream from both ends: the same bytes twice)
	mkdir -p "$W/streams"
	: >"$W/sent"
	for i in 1 2 3 4; do
		head -c 4096 /dev/urandom >"$W/s$i"
		cp "$W/s$i" "$W/streams/tx$i"
		cp "$W/s$i" "$W/streams/rx$i"
		sha256sum "$W/s$i" | awk '{ print $1 }' >>"$W/sent"
	done
}

@test "demo-check smcd: two SMC-D v2 connections and their bytes pass" {
	stats "$W/after.json" 3 3 $((100 + 2048)) $((100 + 2048)) 0
	run -0 "$CHECK" smcd "$W/before.json" "$W/after.json" 2 2048
	echo "$output"
	[[ "$output" == *"smcd.client.v2_success   +2"* ]]
	[[ "${lines[-1]}" == "SMC-D v2 carried the 2 connections: 2048 bytes sent and received, none on SMC-R" ]]
}

@test "demo-check smcd: counters that did not move (a TCP fallback) fail" {
	cp "$W/before.json" "$W/after.json"
	run -1 "$CHECK" smcd "$W/before.json" "$W/after.json" 2 2048
	echo "$output"
	[[ "$output" == *"do not show the traffic on SMC-D: smcd.client.v2_success +0 (not +2)"* ]]
}

@test "demo-check smcd: one connection short, bytes short, or any on SMC-R fail" {
	stats "$W/after.json" 2 3 $((100 + 2048)) $((100 + 2048)) 0
	run -1 "$CHECK" smcd "$W/before.json" "$W/after.json" 2 2048
	[[ "$output" == *"smcd.client.v2_success +1 (not +2)"* ]]
	stats "$W/after.json" 3 3 $((100 + 2047)) $((100 + 2048)) 0
	run -1 "$CHECK" smcd "$W/before.json" "$W/after.json" 2 2048
	[[ "$output" == *"smcd.tx_bytes +2047 (not +2048)"* ]]
	stats "$W/after.json" 3 3 $((100 + 2048)) $((100 + 2048)) 1
	run -1 "$CHECK" smcd "$W/before.json" "$W/after.json" 2 2048
	[[ "$output" == *"smcr.connections +1"* ]]
}

@test "demo-check streams: every stream sent, whole, and nothing else passes" {
	run -0 "$CHECK" streams "$W/sent" "$W/streams"
	echo "$output"
	[[ "${lines[-1]}" == "every byte sent was captured: the 4 reassembled streams equal what was sent" ]]
}

@test "demo-check streams: one byte changed in one stream fails" {
	printf 'X' | dd of="$W/streams/rx3" bs=1 seek=1000 conv=notrunc status=none
	run -1 "$CHECK" streams "$W/sent" "$W/streams"
	echo "$output"
	[[ "$output" == *"1 stream(s) in it were not sent"* ]]
	# the other end's copy is intact, so the sent stream is still there
	[[ "$output" == *"0 stream(s) sent are not in the capture whole"* ]]
	printf 'X' | dd of="$W/streams/tx3" bs=1 seek=1000 conv=notrunc status=none
	run -1 "$CHECK" streams "$W/sent" "$W/streams"
	[[ "$output" == *"1 stream(s) sent are not in the capture whole"* ]]
}

@test "demo-check streams: a stream cut short or missing fails, and so does an empty capture" {
	truncate -s 4095 "$W/streams/tx2" "$W/streams/rx2"
	run -1 "$CHECK" streams "$W/sent" "$W/streams"
	[[ "$output" == *"1 stream(s) sent are not in the capture whole, 1 stream(s) in it were not sent"* ]]
	rm "$W/streams/tx2" "$W/streams/rx2"
	run -1 "$CHECK" streams "$W/sent" "$W/streams"
	[[ "$output" == *"1 stream(s) sent are not in the capture whole, 0 stream(s)"* ]]
	mkdir "$W/none"
	run -1 "$CHECK" streams "$W/sent" "$W/none"
	[[ "$output" == *"4 stream(s) sent are not in the capture whole"* ]]
}

# dstats FILE: an `smc -j dump stats` array of two connections, both ends
# each, 4096 bytes each way at both ends, no record lost (smc-dump(8))
dstats() {
	local dir='{"bytes":4096,"lost_records":0}'
	local conn='{"conn":%d,"mode":"SMC-D","token":"0x%x","local_address":"127.0.0.1","local_port":%d,"peer_address":"127.0.0.1","peer_port":5201,"tx":%s,"rx":%s,"peer":{"token":"0x%x","tx":%s,"rx":%s}}'
	printf "[{\"connections\":[$conn,$conn],\"total\":{\"lost\":0}}]\n" \
		0 2 40000 "$dir" "$dir" 1 "$dir" "$dir" \
		1 4 40001 "$dir" "$dir" 3 "$dir" "$dir" >"$1"
}

@test "demo-check conns: two connections, each with both ends, whole, pass" {
	dstats "$W/s.json"
	run -0 "$CHECK" conns "$W/s.json" 2 4096
	echo "$output"
	[ "${lines[0]}" = "  conn 0 127.0.0.1:40000 <-> 127.0.0.1:5201 tokens 0x2 0x1: tx 4096 bytes 0 lost, peer-rx 4096 bytes 0 lost, rx 4096 bytes 0 lost, peer-tx 4096 bytes 0 lost" ]
	[ "${lines[-1]}" = "the 2 connections are listed once each, with both ends: 4096 bytes each way as sent and as received, no record lost" ]
}

@test "demo-check conns: a lone end, a short direction, a lost record, a wrong count fail" {
	dstats "$W/s.json"
	# each end of the second connection its own entry (no pairing)
	jq '.[0].connections[1] |= del(.peer)' "$W/s.json" >"$W/lone.json"
	run -1 "$CHECK" conns "$W/lone.json" 2 4096
	[[ "$output" == *"1 connection(s) without both ends"* ]]
	run -1 "$CHECK" conns "$W/s.json" 4 4096
	[[ "$output" == *"2 connections listed, not 4"* ]]
	jq '.[0].connections[0].peer.rx.bytes = 4095' "$W/s.json" >"$W/short.json"
	run -1 "$CHECK" conns "$W/short.json" 2 4096
	[[ "$output" == *"1 connection(s) without both ends, or a direction not 4096 bytes"* ]]
	jq '.[0].connections[1].rx.lost_records = 1' "$W/s.json" >"$W/lost.json"
	run -1 "$CHECK" conns "$W/lost.json" 2 4096
	[[ "$output" == *"or records lost"* ]]
	jq '.[0].total.lost = 3' "$W/s.json" >"$W/tlost.json"
	run -1 "$CHECK" conns "$W/tlost.json" 2 4096
	[[ "$output" == *"records lost in total"* ]]
}

@test "demo-check conns: bad JSON, missing members, empty arrays and bad numbers fail with a reason, never a jq error" {
	dstats "$W/s.json"
	local f
	printf 'not json' >"$W/j0.json"
	: >"$W/j1.json"
	echo '[]' >"$W/j2.json"
	echo '[{}]' >"$W/j3.json"
	echo '[{"connections":null,"total":{"lost":0}}]' >"$W/j4.json"
	echo '[{"connections":[1,2],"total":{"lost":0}}]' >"$W/j5.json"
	echo '[{"connections":[]}]' >"$W/j6.json"
	jq '.[0].total = {}' "$W/s.json" >"$W/j7.json"
	jq '.[0].total.lost = "0"' "$W/s.json" >"$W/j8.json"
	for f in j0 j1 j2 j3 j4 j5 j6 j7 j8 nonexistent; do
		run -1 "$CHECK" conns "$W/$f.json" 2 4096
		echo "$f: $output"
		[[ "$output" == *"demo-check: $W/$f.json is not the JSON of smc -j dump stats"* ]]
		[[ "$output" != *"jq: error"* ]]
	done
	# an empty list is 0 connections, not a pass
	echo '[{"connections":[],"total":{"lost":0}}]' >"$W/j9.json"
	run -1 "$CHECK" conns "$W/j9.json" 2 4096
	[[ "$output" == *"0 connections listed, not 2"* ]]
	# directions that are not objects, or a peer that is not one
	jq '.[0].connections[0].tx = null | .[0].connections[1].peer = 7' "$W/s.json" >"$W/j10.json"
	run -1 "$CHECK" conns "$W/j10.json" 2 4096
	[[ "$output" == *"2 connection(s) without both ends, or a direction not 4096 bytes"* ]]
	[[ "$output" != *"jq: error"* ]]
	# CONNS and BYTES are numbers, CONNS from 1: a usage error
	for f in "x 4096" "2 y" "2 ''" "0 4096" "-1 4096" "2 1e3"; do
		eval "run -2 \"\$CHECK\" conns \"\$W/s.json\" $f"
		[[ "$output" == *"CONNS must be a count from 1, BYTES a byte count"* ]]
		[[ "$output" != *"jq: error"* && "$output" != *"integer expression"* ]]
	done
}

@test "demo-check: a wrong call says how it is called" {
	run -2 "$CHECK"
	[[ "$output" == "usage: demo-check.sh smcd"* ]]
	run -2 "$CHECK" smcd "$W/before.json"
	[[ "$output" == "usage: demo-check.sh smcd"* ]]
	run -1 "$CHECK" streams "$W/sent" "$W/nonexistent"
	[[ "$output" == *"no directory $W/nonexistent"* ]]
}
