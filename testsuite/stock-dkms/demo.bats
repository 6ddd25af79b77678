#!/usr/bin/env bats
# make demo's guest half (scripts/demo-guest.sh), in the DKMS stock bed:
# the kernel make demo boots, with the modules the tier already built,
# and the .deb's smc and ip plugin. The demo must still prove what it
# shows: SMC-D carried its two connections (the counters, checked by
# scripts/demo-check.sh, whose failures the host tier tests), both
# backends' summaries list each connection once with both ends, and both
# captures hold every stream sent. Its files are then read
# again here by the independent reader testsuite/lib/smcdump_check.py.

bats_require_minimum_version 1.5.0

load ../stock/lib

setup() {
	stock_only
	[ -n "${SMC_DUMP_STOCK_DKMS:-}" ] || skip "runs in the DKMS stock bed (testsuite/stock-dkms/run-suite)"
}

teardown() {
	[ -n "${SMC_DUMP_IN_VM:-}" ] || return 0
	"$SMC" dump stop all >/dev/null 2>&1 || true
}

@test "demo: make demo's guest script shows SMC-D by the counters and both captures equal to what was sent" {
	W=$BATS_TEST_TMPDIR/demo
	run -0 env DEMO_WORK="$W" SMC_DUMP_SMC="$SMC" bash "$TOP/scripts/demo-guest.sh"
	echo "$output"
	[[ "$output" == *"SMC-D v2 carried the 2 connections: 4194304 bytes sent and received, none on SMC-R"* ]]
	[[ "$output" == *"RESULT: backend kernel: every byte sent was captured"* ]]
	[[ "$output" == *"RESULT: backend bpf: every byte sent was captured"* ]]
	# each connection listed once, both ends paired, no record lost
	[ "$(grep -c "^the 2 connections are listed once each, with both ends: 1048576 bytes each way as sent and as received, no record lost$" <<<"$output")" -eq 2 ]
	# what it showed: Debian's ip with the plugin, the link of each backend
	[[ "$output" == *"smc-dummy mode smcd"* ]]
	# the independent reader: 2 connections, each direction whole from
	# offset 0 at both ends (8 streams), whose sums are the traffic tool's
	sent=$(awk '$1 == "conn" && ($3 == "tx" || $3 == "rx") { print $3, $7 }' "$W/server.out" "$W/client.out" | sort)
	[ "$(wc -l <<<"$sent")" -eq 8 ]
	for b in kernel bpf; do
		python3 "$CHECK" "$W/$b.pcap" >"$W/$b.json"
		jq -c 'del(.streams, .endpoints)' "$W/$b.json"
		[ "$(jq .smcr "$W/$b.json")" -eq 0 ]
		[ "$(jq .seq_gaps "$W/$b.json")" -eq 0 ]
		[ "$(jq '.streams | length' "$W/$b.json")" -eq 8 ]
		[ "$(jq '[.streams[] | select(.bytes != 1048576 or .holes > 0 or .first_offset != 0)] | length' "$W/$b.json")" -eq 0 ]
		[ "$(jq -r '.streams[] | "\(.dir) \(.sha256)"' "$W/$b.json" | sort)" = "$sent" ]
	done
}
