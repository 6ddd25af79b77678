#!/usr/bin/env bats
# smc check against the patched kernel: SMC-D over loopback-ism
# works; without a UEID both sides fall back with NOUEID; a TCP-only
# listener makes the client fall back with PEERNOSMC; and in a netns
# through -n. What smc check reports is checked against the kernel's own
# counters (smc -j stats, from the SMC_GEN_STATS and SMC_GEN_FBACK_STATS
# dumps), never assumed. Linux 6.12 has no sysctl that turns SMC off in
# a netns (net.smc.* has buffer sizes, limits and limit_smc_hs only), so
# that case is not here.

bats_require_minimum_version 1.5.0

load lib

setup() {
	vm_only
	TCP_PID=
}

teardown() {
	[ -n "${SMC_DUMP_IN_VM:-}" ] || return 0
	[ -z "$TCP_PID" ] || kill "$TCP_PID" 2>/dev/null || true
	ip netns del smcchk 2>/dev/null || true
	ensure_ueid
}

# stat_of JQ: a number of smc -j stats
stat_of() {
	"$SMC" -j stats | jq "$1"
}

# fb_count ROLE CODE: the fallback counter of a reason in smc -j stats
fb_count() {
	stat_of "[.[0].fallback.reasons[] | select(.role == \"$1\" and .code == \"$2\") | .count] | add // 0"
}

@test "check loopback: SMC-D over loopback-ism on both sides, as the kernel counts it" {
	local c s
	ensure_ueid
	c=$(stat_of .[0].smcd.client.v2_success)
	s=$(stat_of .[0].smcd.server.v2_success)
	run -0 --separate-stderr "$SMC" -j check loopback
	echo "$output"
	[ -z "$stderr" ]
	jq -e 'length == 2 and .[0].role == "client" and .[1].role == "server" and
		all(.[]; .mode == "SMC-D" and .version == 2 and
		    (has("fallback") | not) and
		    (.smcd.linkgroup_id | test("^0x[0-9a-f]{8}$")) and
		    .advice == [] and .local_address == "127.0.0.1") and
		.[0].local_port == .[1].peer_port and
		.[0].peer_port == .[1].local_port' <<<"$output"
	[ "$(stat_of .[0].smcd.client.v2_success)" -eq $((c + 1)) ]
	[ "$(stat_of .[0].smcd.server.v2_success)" -eq $((s + 1)) ]
	run -0 "$SMC" check loopback
	[ "${#lines[@]}" -eq 2 ]
	[[ "${lines[0]}" == "client 127.0.0.1:"*" > 127.0.0.1:"*": SMC-D v2 link group 0x"* ]]
	[[ "${lines[1]}" == "server 127.0.0.1:"*" > 127.0.0.1:"*": SMC-D v2 link group 0x"* ]]
}

@test "check loopback without a UEID: NOUEID on the server, PEERDECL with NOUEID on the client, advice smc ueid add" {
	local srv cli
	"$SMC" ueid flush
	srv=$(fb_count server 0x03030008)
	cli=$(fb_count client 0x05000000)
	run -1 --separate-stderr "$SMC" -j check loopback
	echo "$output"
	jq -e '.[0].mode == "TCP" and
		.[0].fallback == {"reason": "0x05000000", "reason_name": "PEERDECL",
				  "peer_diagnosis": "0x03030008",
				  "peer_diagnosis_name": "NOUEID"} and
		.[1].mode == "TCP" and
		.[1].fallback == {"reason": "0x03030008", "reason_name": "NOUEID",
				  "peer_diagnosis": null,
				  "peer_diagnosis_name": null} and
		(.[0].advice | length) == 2 and (.[1].advice | length) == 1 and
		(.[1].advice[0] | test("smc ueid add"))' <<<"$output"
	[ "$(fb_count server 0x03030008)" -eq $((srv + 1)) ]
	[ "$(fb_count client 0x05000000)" -eq $((cli + 1)) ]
	run -1 "$SMC" check loopback
	echo "$output"
	[[ "$output" == *"reason 0x05000000 PEERDECL (peer declined during handshake)"* ]]
	[[ "$output" == *"peer diagnosis 0x03030008 NOUEID (peer sent no UEID)"* ]]
	[[ "$output" == *"advice: no UEID in common: smc ueid add NAME"* ]]
}

@test "check HOST PORT against a TCP-only listener: PEERNOSMC, counted by the kernel" {
	local before port
	ensure_ueid
	before=$(fb_count client 0x03010000)
	python3 -c '
import socket, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(1)
print(s.getsockname()[1], flush=True)
c, _ = s.accept()
c.recv(1)
' >"$BATS_TEST_TMPDIR/port" &
	TCP_PID=$!
	WAIT_TIMEOUT=5 wait_file "$BATS_TEST_TMPDIR/port"
	port=$(cat "$BATS_TEST_TMPDIR/port")
	[ -n "$port" ]
	run -1 --separate-stderr "$SMC" -j check 127.0.0.1 "$port"
	echo "$output"
	jq -e --argjson p "$port" 'length == 1 and .[0].role == "client" and
		.[0].mode == "TCP" and .[0].peer_port == $p and
		.[0].fallback.reason_name == "PEERNOSMC" and
		.[0].fallback.reason == "0x03010000" and
		(.[0].advice[0] | test("smc run"))' <<<"$output"
	[ "$(fb_count client 0x03010000)" -eq $((before + 1)) ]
}

@test "check -n NETNS loopback: SMC-D in another network namespace, counted there" {
	local c
	ensure_ueid
	ip netns add smcchk
	ip -n smcchk link set lo up
	c=$(ip netns exec smcchk "$SMC" -j stats | jq .[0].smcd.client.v2_success)
	run -0 --separate-stderr "$SMC" -n smcchk -j check loopback
	echo "$output"
	jq -e 'all(.[]; .mode == "SMC-D")' <<<"$output"
	[ "$(ip netns exec smcchk "$SMC" -j stats | jq .[0].smcd.client.v2_success)" -eq $((c + 1)) ]
}
