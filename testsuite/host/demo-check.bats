#!/usr/bin/env bats
# scripts/demo-check.sh, what make demo's guest proves its two claims with
# (SMC-D carried the traffic; each capture holds every stream sent), on
# inputs made here: it passes on the right ones and fails, saying why, on
# counters that show no SMC-D and on streams that differ by one byte,
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

@test "demo-check: a wrong call says how it is called" {
	run -2 "$CHECK"
	[[ "$output" == "usage: demo-check.sh smcd"* ]]
	run -2 "$CHECK" smcd "$W/before.json"
	[[ "$output" == "usage: demo-check.sh smcd"* ]]
	run -1 "$CHECK" streams "$W/sent" "$W/nonexistent"
	[[ "$output" == *"no directory $W/nonexistent"* ]]
}
