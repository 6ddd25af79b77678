#!/usr/bin/env bats
# run-vm boots once more only when QEMU itself aborted (exit 134) before
# the guest started the command, never when the guest had started it. A
# stand-in qemu-system-x86_64 plays the guest: it finds the output share
# on its command line and writes what guest-init would.

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)

setup() {
	bin=$BATS_TEST_TMPDIR/bin
	mkdir -p "$bin"
	: >"$BATS_TEST_TMPDIR/bzImage"
	# QEMU_PLAY: what each call does, one word per call:
	# abort (exit 134, nothing written), started-abort (the command
	# started, then 134), pass (status 0 and an empty kernel log)
	cat >"$bin/qemu-system-x86_64" <<'SH'
#!/bin/bash
out=
for a in "$@"; do
	case $a in local,id=out,path=*) out=${a#local,id=out,path=}; out=${out%%,*} ;; esac
done
n=$(( $(cat "$QEMU_CALLS" 2>/dev/null || echo 0) + 1 ))
echo "$n" >"$QEMU_CALLS"
read -r -a play <<<"$QEMU_PLAY"
case ${play[$((n - 1))]:-pass} in
abort)		echo "qemu: msix_table_mmio_write: Assertion failed (stand-in)" >&2; exit 134 ;;
started-abort)	: >"$out/started"; exit 134 ;;
pass)		: >"$out/started"; cat ${QEMU_DMESG:-/dev/null} >"$out/dmesg"; echo 0 >"$out/status"; exit 0 ;;
esac
SH
	chmod 755 "$bin/qemu-system-x86_64"
	export QEMU_CALLS=$BATS_TEST_TMPDIR/calls
}

# runvm PLAY: run-vm with the stand-in QEMU playing PLAY, a command that
# succeeds; its status and output in bats' $status and $output
runvm() {
	PATH=$bin:$PATH QEMU_PLAY=$1 run "$TOP/testsuite/vm/run-vm" \
		--kernel "$BATS_TEST_TMPDIR/bzImage" --timeout 30 -- true
	echo "$output"
}

@test "run-vm: QEMU aborting before the command started is booted once more" {
	runvm "abort pass"
	[ "$status" -eq 0 ]
	[ "$(cat "$QEMU_CALLS")" = 2 ]
	[[ "$output" == *"run-vm: QEMU aborted (exit 134) before the guest started the command; booting once more"* ]]
}

@test "run-vm: a second abort is not retried again, and fails" {
	runvm "abort abort pass"
	[ "$status" -eq 125 ]
	[ "$(cat "$QEMU_CALLS")" = 2 ]
	[[ "$output" == *"the guest reported no status"*"QEMU exit 134"* ]]
}

@test "run-vm: QEMU aborting after the command started is not booted again" {
	runvm "started-abort pass"
	[ "$status" -eq 125 ]
	[ "$(cat "$QEMU_CALLS")" = 1 ]
	[[ "$output" != *"booting once more"* ]]
}

# runvm_log LINE...: run-vm with a passing guest whose kernel log is LINEs
runvm_log() {
	printf '%s\n' "$@" >"$BATS_TEST_TMPDIR/dmesg"
	QEMU_DMESG=$BATS_TEST_TMPDIR/dmesg runvm pass
}

# The WARNING as Debian's 6.12.118 printed it in CI (stop 33), cut down;
# $1 adds one more line after the trace.
stray_db_log() {
	cat <<'LOG'
[   62.275385] WARNING: CPU: 0 PID: 37 at arch/x86/kernel/traps.c:1120 exc_debug_kernel+0xca/0x160
[   62.280192] Modules linked in: rdma_rxe smc_diag(OE) smc(OE) ib_core
[   62.281759] Workqueue: rxe_wq do_work [rdma_rxe]
[   62.282364] RIP: 0010:exc_debug_kernel+0xca/0x160
[   62.290001] Call Trace:
[   62.290002]  <#DB>
[   62.290003]  ? exc_debug_kernel+0xca/0x160
[   62.290004] ---[ end trace 0000000000000000 ]---
LOG
	[ -z "${1:-}" ] || echo "$1"
}

@test "run-vm: QEMU's stray single-step #DB WARNING is set aside, and said" {
	stray_db_log >"$BATS_TEST_TMPDIR/dmesg"
	QEMU_DMESG=$BATS_TEST_TMPDIR/dmesg runvm pass
	[ "$status" -eq 0 ]
	[[ "$output" == *"run-vm: note: set aside QEMU's stray single-step #DB"* ]]
}

@test "run-vm: any other report next to the stray #DB still fails the run" {
	stray_db_log "[   70.000001] WARNING: CPU: 1 PID: 99 at net/smc/smc_core.c:1234 smc_lgr_free+0x1/0x2" \
		>"$BATS_TEST_TMPDIR/dmesg"
	QEMU_DMESG=$BATS_TEST_TMPDIR/dmesg runvm pass
	[ "$status" -eq 125 ]
	[[ "$output" == *"the guest kernel reported a problem"*"smc_lgr_free"* ]]
}

@test "run-vm: a WARNING elsewhere in traps.c is not taken for the stray #DB" {
	runvm_log "[    1.000000] WARNING: CPU: 0 PID: 1 at arch/x86/kernel/traps.c:600 exc_general_protection+0x1/0x2"
	[ "$status" -eq 125 ]
	[[ "$output" != *"set aside"* ]]
}

@test "run-vm: exc_debug_kernel's other WARN_ON_ONCE, user_mode(regs), is a real report" {
	runvm_log "[    5.000000] WARNING: CPU: 0 PID: 321 at arch/x86/kernel/traps.c:1076 exc_debug_kernel+0x2a/0x160"
	[ "$status" -eq 125 ]
	[[ "$output" != *"set aside"* ]]
}

@test "run-vm: the stray #DB in 7.x's WARNING format (the mainline tier) is set aside" {
	runvm_log "[   62.275385] WARNING: arch/x86/kernel/traps.c:1286 at exc_debug_kernel+0xca/0x160, CPU#0: kworker/0:1/37"
	[ "$status" -eq 0 ]
	[[ "$output" == *"set aside"* ]]
}

@test "run-vm: a NUL byte in the kernel log does not hide a report before it" {
	{ echo "[    2.000000] BUG: kernel NULL pointer dereference, address: 0000000000000000"
	  printf 'junk\0junk\n'; } >"$BATS_TEST_TMPDIR/dmesg"
	QEMU_DMESG=$BATS_TEST_TMPDIR/dmesg runvm pass
	[ "$status" -eq 125 ]
}
