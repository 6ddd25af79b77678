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
pass)		: >"$out/started"; : >"$out/dmesg"; echo 0 >"$out/status"; exit 0 ;;
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
