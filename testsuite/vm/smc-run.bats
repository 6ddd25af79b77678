#!/usr/bin/env bats
# smc run against the patched kernel: unmodified TCP programs,
# started under smc run on both ends, talk SMC-D over loopback-ism. That
# SMC carried them is proven from the kernel's counters (smc -j stats) and
# from the TCP socket under each SMC socket, never assumed. The fallback
# without SMC is tested on the host (testsuite/host/smc-run.bats).
# The preload path is forced (-p preload) where a test is about the
# library; the bpf path (update_socket_protocol, Linux 6.11+ with BPF and
# BTF: the stock-dkms tier's Debian kernel, not the debug test kernel) is
# shown reaching a statically linked program that the library cannot.

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
	"$SMC" run -p preload "$TRAFFIC" server --tcp --check-tcp -a 127.0.0.1 -p 0 \
		-n 4M -c 2 -r ready >srv.out 2>srv.err &
	SRV_PID=$!
	WAIT_TIMEOUT=10 wait_file ready
	port=$(<ready)
	run -0 --separate-stderr "$SMC" run -p preload -d -r 256k -t 256k "$TRAFFIC" \
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
	"$SMC" run -p preload python3 -m http.server --bind 127.0.0.1 \
		--directory "$BATS_TEST_TMPDIR" "$port" >srv.log 2>&1 &
	SRV_PID=$!
	# listening: the TCP socket under the SMC listener shows in ss
	WAIT_TIMEOUT=10 wait_listen "$port"
	run -0 "$SMC" run -p preload python3 -c '
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

# need_bpf: a kernel that can have BPF programs on update_socket_protocol:
# the debug test kernel (make check-vm) has neither the bpf() system call
# nor BTF. Where both are, the bpf path must work: no skip then.
need_bpf() {
	[ -r /sys/kernel/btf/vmlinux ] ||
		skip "the kernel has no BTF (CONFIG_DEBUG_INFO_BTF): no bpf path for smc run"
	[ -e /proc/sys/kernel/unprivileged_bpf_disabled ] ||
		skip "the kernel has no bpf() system call (CONFIG_BPF_SYSCALL): no bpf path for smc run"
}

# no_progs: none of smc run's programs is loaded (a function, so that its
# status counts in a test: a bare "! cmd" does not fail one)
no_progs() {
	! bpftool prog show | grep -Eq ' name smc_run_(proto|fork|exit) '
}

# progs_loaded: smc run's program for socket() is loaded
progs_loaded() {
	bpftool prog show | grep -q ' name smc_run_proto '
}

# static_traffic: the statically linked smc-traffic, checked to be static
# (no program interpreter, so no ld.so to preload anything)
static_traffic() {
	STATIC=$TOP/testsuite/tools/smc-traffic-static
	[ -x "$STATIC" ] || { echo "no $STATIC (make tools)"; return 1; }
	run ldd "$STATIC"
	[[ "$output" == *"not a dynamic executable"* ]]
}

# static_pair PATH: the static smc-traffic --tcp as server and client of
# 2 connections of 1 MiB under smc run -d -p PATH; the client's stdout and
# stderr in cli.out and cli.err, the server's in srv.out and srv.err
static_pair() {
	local port
	rm -f ready
	"$SMC" run -d -p "$1" "$STATIC" server --tcp -a 127.0.0.1 -p 0 \
		-n 1M -c 2 -r ready >srv.out 2>srv.err &
	SRV_PID=$!
	WAIT_TIMEOUT=10 wait_file ready
	port=$(<ready)
	"$SMC" run -d -p "$1" "$STATIC" client --tcp -a 127.0.0.1 -p "$port" \
		-n 1M -c 2 >cli.out 2>cli.err || { cat cli.out cli.err; return 1; }
	wait "$SRV_PID" || { cat srv.out srv.err; return 1; }
	SRV_PID=
	cat cli.out cli.err srv.out srv.err
}

@test "smc run -p bpf: a statically linked program talks SMC-D, which the preload path cannot give it" {
	local before after n=1048576
	need_bpf
	static_traffic
	# the bpf path: both ends' TCP sockets become IPPROTO_SMC sockets
	before=$("$SMC" -j stats)
	static_pair bpf
	after=$("$SMC" -j stats)
	grep -q '^smc run: path bpf: ' cli.err
	grep -q '^smc run: path bpf: ' srv.err
	# the client's 2 sockets, the server's listening socket (accepted
	# sockets come from accept(), not socket())
	grep -qx 'smc run: bpf: sockets made IPPROTO_SMC: 2' cli.err
	grep -qx 'smc run: bpf: sockets made IPPROTO_SMC: 1' srv.err
	grep -qx 'result ok' cli.out
	grep -qx 'result ok' srv.out
	[ "$(delta "$before" "$after" smcd.client.v2_success)" -eq 2 ]
	[ "$(delta "$before" "$after" smcd.server.v2_success)" -eq 2 ]
	[ "$(delta "$before" "$after" smcd.tx_bytes)" -eq $((2 * 2 * n)) ]
	[ "$(delta "$before" "$after" smcd.rx_bytes)" -eq $((2 * 2 * n)) ]
	[ "$(delta "$before" "$after" fallback.total)" -eq 0 ]

	# the preload path: ld.so never runs in a static program, so the
	# library does not either; plain TCP, the SMC counters do not move
	before=$("$SMC" -j stats)
	static_pair preload
	after=$("$SMC" -j stats)
	grep -q '^smc run: path preload: -p preload' cli.err
	run -1 grep -q 'smc-preload:' cli.err srv.err
	[ "$(grep -c '^conn [01] tcp' cli.out)" -eq 2 ]
	grep -qx 'result ok' cli.out
	grep -qx 'result ok' srv.out
	[ "$(delta "$before" "$after" smcd.client.v2_success)" -eq 0 ]
	[ "$(delta "$before" "$after" smcd.server.v2_success)" -eq 0 ]
	[ "$(delta "$before" "$after" smcd.tx_bytes)" -eq 0 ]
	[ "$(delta "$before" "$after" fallback.total)" -eq 0 ]
}

@test "smc run: auto takes bpf here, preload for -r/-t; -p bpf refuses -r; nothing stays loaded, SIGKILL too" {
	local pid child rc
	need_bpf
	command -v bpftool >/dev/null || skip "no bpftool"
	run -0 --separate-stderr "$SMC" run -d true
	[[ "$stderr" == "smc run: path bpf: "* ]]
	run -0 --separate-stderr "$SMC" run -d -r 64k true
	[[ "${stderr%%$'\n'*}" == "smc run: path preload: the bpf path cannot work: it cannot set buffer sizes (-r, -t)"* ]]
	run -2 --separate-stderr "$SMC" run -p bpf -t 64k true
	[ "$stderr" = "Error: -r and -t need the preload path: the bpf path cannot set buffer sizes; use -p preload or -p auto." ]
	# the exit status of the command, also through the fork of the bpf path
	run -3 "$SMC" run -p bpf sh -c 'exit 3'
	run -127 --separate-stderr "$SMC" run -p bpf smc-run-no-such-command
	[ "$stderr" = 'Error: cannot run "smc-run-no-such-command": command not found' ]
	# killed by a signal: 128 + the signal, as a shell says
	run -143 "$SMC" run -p bpf sh -c 'kill -TERM $$'
	# a SIGTERM to smc run reaches the command
	"$SMC" run -p bpf sleep 30 &
	pid=$!
	WAIT_TIMEOUT=10 wait_for "smc run's programs loaded" progs_loaded
	kill -TERM "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" -eq 143 ]
	no_progs
	# SIGKILL of smc run: the kernel drops the links with its descriptors
	"$SMC" run -p bpf sleep 30 &
	pid=$!
	WAIT_TIMEOUT=10 wait_for "smc run's programs loaded" progs_loaded
	child=$(pgrep -P "$pid")
	kill -KILL "$pid"
	wait "$pid" || true
	# the command outlives smc run, untracked from now on
	kill -0 "$child"
	kill "$child"
	WAIT_TIMEOUT=10 wait_for "smc run's programs gone" no_progs
	# and nothing pinned
	[ -z "$(find /sys/fs/bpf -name '*smc*' 2>/dev/null)" ]
}
