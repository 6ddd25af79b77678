#!/usr/bin/env bats
# The VM runner itself (testsuite/vm/run-vm): the guest command's status
# comes back, the timeout ends a hung guest, and a kernel report in the
# guest's log fails the run even when the command passed. Boots the test
# kernel a few times; runs on the host.

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
RUNVM=$TOP/testsuite/vm/run-vm

setup() {
	[ -f "$TOP/build/kernel-test/bzImage" ] || skip "no test kernel (make kernel)"
}

@test "run-vm: the guest command's output streams and its exit status comes back" {
	run "$RUNVM" --timeout 300 -- bash -c 'echo "in the guest: $(uname -r) $(id -u)"; exit 7'
	echo "$output"
	[ "$status" -eq 7 ]
	[[ "$output" == *"in the guest: 6.12."*" 0"* ]]
}

@test "run-vm: the host root is read-only, /tmp writable, the repo at its path" {
	run "$RUNVM" --timeout 300 -- bash -c "
		touch /usr/smc-dump-probe 2>/dev/null && exit 10
		touch /tmp/probe || exit 11
		[ -f '$TOP/testsuite/vm/run-vm' ] || exit 12
		[ \"\$(pwd)\" = '$PWD' ] || exit 13
		exit 0"
	echo "$output"
	[ "$status" -eq 0 ]
	[ ! -e /usr/smc-dump-probe ]
}

@test "run-vm: a kernel report in the guest's log fails a passing command" {
	# what a splat starts with, written into the guest's kernel log
	run "$RUNVM" --timeout 300 -- bash -c 'echo "<4>WARNING: CPU: 0 PID: 1 at smc-dump runner self-test" >/dev/kmsg; exit 0'
	echo "$output"
	[ "$status" -eq 125 ]
	[[ "$output" == *"the guest kernel reported a problem"* ]]
	[[ "$output" == *"runner self-test"* ]]
}

@test "run-vm: the timeout ends a guest that hangs" {
	run "$RUNVM" --timeout 90 -- sleep 100000
	echo "$output"
	[ "$status" -eq 124 ]
	[[ "$output" == *"timeout after 90s"* ]]
}
