#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# smc dump read - behind a live capture: with
# `tcpdump -U -w - | smc dump read -` the first record must be printed
# within a second of its arrival, while tcpdump still runs, not when 4 KiB
# have come or the pipe closes.

load lib

setup_file() {
	vm_setup_ueid
}

setup() {
	vm_only
}

teardown() {
	vm_teardown "${TD_PID:-}"
}

@test "tcpdump -U -w - | smc dump read -: the first record within a second" {
	local out=$BATS_TEST_TMPDIR/live.out i t0 t1
	"$NL" add smcd9 mode 2
	ip link set smcd9 up
	# the pipeline in its own process group, so that teardown ends it
	set -m
	( tcpdump -i smcd9 -U -w - 2>"$BATS_TEST_TMPDIR/td.log" |
		"$SMC" dump read - >"$out" ) &
	TD_PID=$!
	set +m
	WAIT_TIMEOUT=10 wait_line "$BATS_TEST_TMPDIR/td.log" "listening on"
	# one small transfer: a few records, far below 4 KiB of capture
	t0=$(date +%s%N)
	transfer 127.0.0.1 100 1 >/dev/null
	# (a poll of its own: the time it takes is what the test bounds)
	for i in $(seq 20); do
		[ -s "$out" ] && break
		sleep 0.1
	done
	t1=$(date +%s%N)
	cat "$out"
	# tcpdump still runs: the record came through the open pipe
	kill -0 "$TD_PID"
	[ -s "$out" ]
	grep -q "SMC-D" "$out"
	echo "first record after $(((t1 - t0) / 1000000)) ms (transfer included)"
	kill -- -"$TD_PID" 2>/dev/null || kill "$TD_PID"
	wait "$TD_PID" 2>/dev/null || :
	TD_PID=
}
