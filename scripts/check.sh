#!/bin/bash
# make check: the VM runner and SMC-R tests in two VMs (first: they write
# the real SMC-R captures under build/smcr-results that the host tier's
# Wireshark comparison reads), then the host tests, then the VM tests in
# one boot of the test kernel, then the stock-kernel tests in one boot of
# Debian's unmodified kernel; prints every TAP line as it comes, each
# tier's time and a closing tally
# "N passed, N failed, N skipped". Exit status 0 only if nothing failed
# and every tier ran.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
log=$(mktemp /tmp/smc-dump-check.XXXXXX)
trap 'rm -f "$log"' EXIT

start=$(date +%s)
summary=
all_rc=0
# tier NAME TITLE CMD...: run one tier, its output into the tally
tier() {
	local name=$1 title=$2 t0 rc
	shift 2
	echo "== $title"
	t0=$(date +%s)
	"$@" 2>&1 | tee -a "$log"
	rc=${PIPESTATUS[0]}
	echo "== $name: exit $rc, $(( $(date +%s) - t0 )) s"
	summary+="$name: exit $rc, $(( $(date +%s) - t0 )) s; "
	[ "$rc" = 0 ] || all_rc=1
}

tier smcr "VM runner and SMC-R tests (several VMs)" \
	bats --print-output-on-failure testsuite/vmrunner testsuite/smcr
# the SMC-R captures are there now: the Wireshark test must not skip them
tier host "host tests" env SMCDUMP_REQUIRE_CAPTURES=1 \
	bats --print-output-on-failure testsuite/host
tier vm "VM tests (patched kernel in QEMU)" bash testsuite/vm/run-suite testsuite/vm
tier stock "stock-kernel tests (Debian's unmodified kernel in QEMU)" \
	bash testsuite/stock/run-suite testsuite/stock

passed=$(grep -c '^ok ' "$log" | tr -d ' ')
skipped=$(grep -c '^ok .* # skip' "$log" | tr -d ' ')
failed=$(grep -c '^not ok ' "$log" | tr -d ' ')
passed=$((passed - skipped))
echo "${summary}total $(( $(date +%s) - start )) s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$all_rc" = 0 ] && [ "$failed" = 0 ]
