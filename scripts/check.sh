#!/bin/bash
# make check: the VM runner and SMC-R tests in two VMs (first: they write
# the real SMC-R captures under build/smcr-results that the host tier's
# Wireshark comparison reads), then the host tests, then the VM tests in
# one boot of the test kernel; prints every TAP line as it comes and a
# closing tally "N passed, N failed, N skipped". Exit status 0 only if
# nothing failed and every tier ran.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
log=$(mktemp /tmp/smc-dump-check.XXXXXX)
trap 'rm -f "$log"' EXIT

start=$(date +%s)
echo "== VM runner and SMC-R tests (several VMs)"
bats --print-output-on-failure testsuite/vmrunner testsuite/smcr 2>&1 | tee -a "$log"
smcr_rc=${PIPESTATUS[0]}
echo "== host tests"
# the SMC-R captures are there now: the Wireshark test must not skip them
SMCDUMP_REQUIRE_CAPTURES=1 \
	bats --print-output-on-failure testsuite/host 2>&1 | tee -a "$log"
host_rc=${PIPESTATUS[0]}
echo "== VM tests (patched kernel in QEMU)"
bash testsuite/vm/run-suite testsuite/vm 2>&1 | tee -a "$log"
vm_rc=${PIPESTATUS[0]}

passed=$(grep -c '^ok ' "$log" | tr -d ' ')
skipped=$(grep -c '^ok .* # skip' "$log" | tr -d ' ')
failed=$(grep -c '^not ok ' "$log" | tr -d ' ')
passed=$((passed - skipped))
echo "host tests exit $host_rc, VM tests exit $vm_rc, SMC-R tests exit $smcr_rc, $(( $(date +%s) - start )) s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$host_rc" = 0 ] && [ "$vm_rc" = 0 ] && [ "$smcr_rc" = 0 ] && [ "$failed" = 0 ]
