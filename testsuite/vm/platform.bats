#!/usr/bin/env bats
# The test platform itself: the patched kernel boots with SMC and
# loopback-ism, the smc command talks to it, and the traffic tool moves
# data that SMC-D really carried, which we prove from the kernel's own
# counters rather than assume.

load lib

setup() {
	vm_only
}

# stat_of JSON PATH: a counter from `smc -j stats` output
stat_of() {
	jq -r ".[0].$2" <<<"$1"
}

@test "platform: the guest runs the patched kernel with SMC and smc-dummy" {
	run uname -r
	[[ "$output" == 6.12.* ]]
	grep -q ' smc_dummy_newlink$' /proc/kallsyms
	run "$SMC" stats
	[ "$status" -eq 0 ]
	# the rtnl link kind exists: a link can be made and removed
	"$NL" add probe0
	ip link del probe0
}

@test "platform: smc ueid add, show, del, flush against the kernel" {
	"$SMC" ueid flush
	run "$SMC" ueid show
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	"$SMC" ueid add test.eid-1
	run "$SMC" ueid show
	# the kernel stores it upper case, padding removed on display
	[ "$output" = "TEST.EID-1" ]
	run "$SMC" -j ueid show
	jq -e . <<<"$output"
	run "$SMC" ueid add "TEST.EID-1"
	[ "$status" -ne 0 ]
	"$SMC" ueid del TEST.EID-1
	run "$SMC" ueid show
	[ -z "$output" ]
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$SMC" ueid add NOPERM
	[ "$status" -ne 0 ]
	[[ "$output" == *CAP_NET_ADMIN* ]]
}

@test "platform: SMC-D over loopback-ism carries the traffic, proven by the counters" {
	ensure_ueid
	before=$("$SMC" -j stats)
	transfer 127.0.0.1 8M 2
	after=$("$SMC" -j stats)
	# both connections were SMC-Dv2, client and server side
	[ $(( $(stat_of "$after" smcd.client.v2_success) - $(stat_of "$before" smcd.client.v2_success) )) -eq 2 ]
	[ $(( $(stat_of "$after" smcd.server.v2_success) - $(stat_of "$before" smcd.server.v2_success) )) -eq 2 ]
	# SMC-D moved the data: 2 connections x 8 MiB x 2 directions, each
	# counted once sent and once received
	[ $(( $(stat_of "$after" smcd.tx_bytes) - $(stat_of "$before" smcd.tx_bytes) )) -eq $((2 * 2 * 8 * 1048576)) ]
	[ $(( $(stat_of "$after" smcd.rx_bytes) - $(stat_of "$before" smcd.rx_bytes) )) -eq $((2 * 2 * 8 * 1048576)) ]
	# and the TCP sockets under them carried only the CLC handshake
	run grep -c "^conn [0-9]* smc (tcp bytes" "$BATS_TEST_TMPDIR/srv.out" "$BATS_TEST_TMPDIR/cli.out"
	[ "$output" = "$BATS_TEST_TMPDIR/srv.out:2
$BATS_TEST_TMPDIR/cli.out:2" ]
	# the bytes arrived intact both ways
	[ "$(sums tx)" = "$(sums rx)" ]
	[ "$(grep -c 'verify ok' "$BATS_TEST_TMPDIR/srv.out" "$BATS_TEST_TMPDIR/cli.out" | awk -F: '{ s += $2 } END { print s }')" -eq 4 ]
}

@test "platform: without a UEID, SMC-D loopback falls back to TCP (decline 0x03030008)" {
	"$SMC" ueid flush
	before=$("$SMC" -j stats)
	"$TRAFFIC" server -a 127.0.0.1 -p 5400 -n 1M --expect-fallback >"$BATS_TEST_TMPDIR/fs.out" &
	spid=$!
	wait_listen 5400
	run "$TRAFFIC" client -a 127.0.0.1 -p 5400 -n 1M --expect-fallback
	wait $spid
	ensure_ueid
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"conn 0 fallback"* ]]
	after=$("$SMC" -j stats)
	[ "$(stat_of "$after" fallback.total)" -gt "$(stat_of "$before" fallback.total)" ]
	jq -e '.[0].fallback.reasons[] | select(.code == "0x03030008")' <<<"$after"
}

@test "platform: the traffic tool fails when a connection falls back" {
	"$SMC" ueid flush
	"$TRAFFIC" server -a 127.0.0.1 -p 5401 -n 1M --allow-fallback >/dev/null &
	spid=$!
	wait_listen 5401
	run "$TRAFFIC" client -a 127.0.0.1 -p 5401 -n 1M
	wait $spid
	ensure_ueid
	[ "$status" -eq 3 ]
}
