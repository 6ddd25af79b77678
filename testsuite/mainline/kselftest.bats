#!/usr/bin/env bats
# The mainline series' kselftest (tools/testing/selftests/net/smc/smc_dump.c
# of kernel/mainline/patches), installed on the host by
# scripts/build-kselftest.sh (make kselftest-mainline) and run in the
# guest the kernel's way, through run_kselftest.sh. Its TAP output must
# name every test as passed: none may skip on the kernel the series built.

load ../vm/lib.bash

KSFT=$TOP/build/mainline/kselftest

setup() {
	vm_only
	[ -x "$KSFT/run_kselftest.sh" ] || { echo "$KSFT/run_kselftest.sh missing: make kselftest-mainline"; false; }
}

@test "kselftest: net/smc:smc_dump passes through run_kselftest.sh, no test skipped" {
	cd /tmp
	run "$KSFT/run_kselftest.sh" -t net/smc:smc_dump
	echo "$output"
	[ "$status" -eq 0 ]
	# the runner's line for the program, and the program's own plan
	[[ "$output" == *"ok 1 selftests: net/smc: smc_dump"* ]]
	[[ "$output" != *"not ok"* ]]
	[[ "$output" != *"# SKIP"* ]]
	grep -Eq '^# # Totals: pass:[1-9][0-9]* fail:0 xfail:0 xpass:0 skip:0 error:0' <<<"$output"
}
