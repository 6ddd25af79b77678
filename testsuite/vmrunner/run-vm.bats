#!/usr/bin/env bats
# The VM runner itself (testsuite/vm/run-vm): the guest command's status
# comes back, the timeout ends a hung guest, and a kernel report in the
# guest's log fails the run even when the command passed. Boots the test
# kernel a few times, and Debian's stock kernel twice; runs on the host.

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
RUNVM=$TOP/testsuite/vm/run-vm

setup() {
	# the --stock tests need Debian's kernel instead (stock_ready)
	[[ $BATS_TEST_DESCRIPTION == "run-vm --stock:"* ]] ||
		[ -f "$TOP/build/kernel-test/bzImage" ] || skip "no test kernel (make kernel)"
}

@test "run-vm: output and exit status come back; root read-only, /tmp writable, the repo at its path" {
	# one boot for both: each boot of the debug kernel costs a minute
	run "$RUNVM" --timeout 300 -- bash -c "
		touch /usr/smc-dump-probe 2>/dev/null && exit 10
		touch /tmp/probe || exit 11
		[ -f '$TOP/testsuite/vm/run-vm' ] || exit 12
		[ \"\$(pwd)\" = '$PWD' ] || exit 13
		echo \"in the guest: \$(uname -r) \$(id -u)\"
		exit 7"
	echo "$output"
	[ "$status" -eq 7 ]
	[[ "$output" == *"in the guest: 6.12."*" 0"* ]]
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
	# the guest boots and runs the command before the timeout ends it
	run "$RUNVM" --timeout 90 -- bash -c 'echo guest-is-up; exec sleep 100000'
	echo "$output"
	[ "$status" -eq 124 ]
	[[ "$output" == *"guest-is-up"* ]]
	[[ "$output" == *"timeout after 90s"* ]]
}

# The stock-kernel flavour (run-vm --stock, scripts/stock-kernel.sh):
# Debian's unmodified kernel with its busybox initramfs.
stock_ready() {
	"$TOP/scripts/stock-kernel.sh" --dir >/dev/null 2>&1 || skip "no stock kernel (make stock-kernel)"
}

@test "run-vm --stock: Debian's kernel boots from its package, its modules load, the root stays read-only" {
	stock_ready
	sdir=$("$TOP/scripts/stock-kernel.sh" --dir)
	kver=$(basename "$sdir")
	run "$RUNVM" --stock --timeout 300 -- bash -c "
		echo \"in the guest: \$(uname -r) \$(id -u)\"
		[ \"\$(uname -r)\" = '$kver' ] || exit 10
		# the same bytes as the package's module, found through /lib/modules
		f=\$(modinfo -n smc) || exit 11
		cmp \"\$f\" '$sdir/root/lib/modules/$kver/kernel/net/smc/smc.ko.xz' || exit 12
		modprobe smc_diag || exit 13
		grep -q '^smc_diag ' /proc/modules || exit 14
		touch /usr/smc-dump-probe 2>/dev/null && exit 15
		touch /lib/modules/probe 2>/dev/null && exit 16
		touch /tmp/probe || exit 17
		[ \"\$(pwd)\" = '$PWD' ] || exit 18
		exit 7"
	echo "$output"
	[ "$status" -eq 7 ]
	[[ "$output" == *"in the guest: $kver 0"* ]]
	[ ! -e /usr/smc-dump-probe ]
}

@test "run-vm --stock: a kernel report in the guest's log fails a passing command" {
	stock_ready
	run "$RUNVM" --stock --timeout 300 -- bash -c 'echo "<4>BUG: smc-dump stock runner self-test" >/dev/kmsg; exit 0'
	echo "$output"
	[ "$status" -eq 125 ]
	[[ "$output" == *"the guest kernel reported a problem"* ]]
	[[ "$output" == *"stock runner self-test"* ]]
}
