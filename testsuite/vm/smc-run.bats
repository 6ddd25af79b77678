#!/usr/bin/env bats
# smc run against the patched kernel (issue 20): unmodified TCP programs,
# started under smc run on both ends, talk SMC-D over loopback-ism. That
# SMC carried them is proven from the kernel's counters (smc -j stats) and
# from the TCP socket under each SMC socket, never assumed. The fallback
# without SMC is tested on the host (testsuite/host/smc-run.bats).

# shellcheck disable=SC2154 # bats sets $stderr in run --separate-stderr
bats_require_minimum_version 1.5.0

load lib

setup() {
	vm_only
	ensure_ueid
	SRV_PID=
	cd "$BATS_TEST_TMPDIR" || return 1
}

teardown() {
	if [ -n "${SRV_PID:-}" ]; then
		kill "$SRV_PID" 2>/dev/null
		wait "$SRV_PID" 2>/dev/null
	fi
	return 0
}

# delta BEFORE AFTER PATH: how much a counter of smc -j stats grew
delta() {
	echo $(($(jq -r ".[0].$3" <<<"$2") - $(jq -r ".[0].$3" <<<"$1")))
}

@test "smc run: smc-traffic --tcp on both ends talks SMC-D, counted by smc stats" {
	local before after port n=$((4 * 1048576))
	before=$("$SMC" -j stats)
	# --tcp: the program asks for plain TCP sockets; --check-tcp: it says
	# per connection whether the TCP socket under it carried the data
	"$SMC" run "$TRAFFIC" server --tcp --check-tcp -a 127.0.0.1 -p 0 \
		-n 4M -c 2 -r ready >srv.out 2>srv.err &
	SRV_PID=$!
	for _ in $(seq 100); do
		[ -s ready ] && break
		sleep 0.1
	done
	port=$(<ready)
	run -0 --separate-stderr "$SMC" run -d -r 256k -t 256k "$TRAFFIC" \
		client --tcp --check-tcp -a 127.0.0.1 -p "$port" -n 4M -c 2
	echo "$output"
	echo "$stderr"
	wait "$SRV_PID"
	SRV_PID=
	cat srv.out srv.err
	after=$("$SMC" -j stats)
	# the library gave the client IPPROTO_SMC sockets (Linux 6.12) with
	# the buffer sizes asked for
	[ "$(grep -Ec '^smc-preload: socket\(AF_INET, SOCK_STREAM, 6\): fd [0-9]+, IPPROTO_SMC$' <<<"$stderr")" -eq 2 ]
	[ "$(grep -c '^smc-preload: fd [0-9]*: SO_RCVBUF 262144 asked for' <<<"$stderr")" -eq 2 ]
	[ "$(grep -c '^smc-preload: fd [0-9]*: SO_SNDBUF 262144 asked for' <<<"$stderr")" -eq 2 ]
	# both connections SMC-Dv2 on both sides, and SMC-D moved every byte:
	# 2 connections x 4 MiB x 2 directions, counted once sent, once received
	[ "$(delta "$before" "$after" smcd.client.v2_success)" -eq 2 ]
	[ "$(delta "$before" "$after" smcd.server.v2_success)" -eq 2 ]
	[ "$(delta "$before" "$after" smcd.tx_bytes)" -eq $((2 * 2 * n)) ]
	[ "$(delta "$before" "$after" smcd.rx_bytes)" -eq $((2 * 2 * n)) ]
	[ "$(delta "$before" "$after" fallback.total)" -eq 0 ]
	# the TCP sockets under them carried only the CLC handshake
	[ "$(grep -c '^conn [01] smc (tcp bytes' <<<"$output")" -eq 2 ]
	[ "$(grep -c '^conn [01] smc (tcp bytes' srv.out)" -eq 2 ]
	grep -qx "result ok" srv.out
}

@test "smc run: Python's http.server and urllib, unmodified, over SMC-D" {
	local before after port=5480
	head -c 100000 /dev/urandom >page.bin
	before=$("$SMC" -j stats)
	"$SMC" run python3 -m http.server --bind 127.0.0.1 \
		--directory "$BATS_TEST_TMPDIR" "$port" >srv.log 2>&1 &
	SRV_PID=$!
	# listening: the TCP socket under the SMC listener shows in ss
	for _ in $(seq 100); do
		ss -Hltn "sport = :$port" | grep -q . && break
		sleep 0.1
	done
	run -0 "$SMC" run python3 -c '
import sys, urllib.request
open(sys.argv[2], "wb").write(urllib.request.urlopen(sys.argv[1]).read())
' "http://127.0.0.1:$port/page.bin" got.bin
	kill "$SRV_PID"
	wait "$SRV_PID" 2>/dev/null || true
	SRV_PID=
	cat srv.log
	after=$("$SMC" -j stats)
	# the page arrived intact
	cmp page.bin got.bin
	# one connection, SMC-Dv2 on both ends, no fallback
	[ "$(delta "$before" "$after" smcd.client.v2_success)" -eq 1 ]
	[ "$(delta "$before" "$after" smcd.server.v2_success)" -eq 1 ]
	[ "$(delta "$before" "$after" fallback.total)" -eq 0 ]
	[ "$(delta "$before" "$after" smcd.rx_bytes)" -ge 100000 ]
}
