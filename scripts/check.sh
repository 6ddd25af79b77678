#!/bin/bash
# make check: the VM runner and SMC-R tests in two VMs (first: they write
# the real SMC-R captures under build/smcr-results that the host tier's
# Wireshark comparison reads), then the host tests, then the VM tests of
# testsuite/vm/debug-files in one boot of the debug test kernel, then the
# stock-kernel tests in one boot of Debian's unmodified kernel, then the
# Debian packages (make deb, lintian), the DKMS build of smc-dump-dkms for
# that kernel and, in one boot of it with those modules, the packages'
# tests and the other VM test files (testsuite/stock-dkms/tier); prints every TAP line as
# it comes, each tier's time and a closing tally
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
# the files of testsuite/vm/debug-files on the debug kernel; the other VM
# files run in the stock-dkms tier
mapfile -t debug_files < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' testsuite/vm/debug-files)
tier vm "VM tests on the debug test kernel (testsuite/vm/debug-files)" \
	testsuite/vm/run-vm --timeout "${VM_TIMEOUT:-4200}" -- \
	bats --print-output-on-failure "${debug_files[@]/#/testsuite/vm/}"
tier stock "stock-kernel tests (Debian's unmodified kernel in QEMU)" \
	bash testsuite/stock/run-suite testsuite/stock
tier deb "Debian packages (make deb: dpkg-buildpackage, lintian)" \
	bash scripts/make-deb.sh
dkms_deb=$(ls build/deb/smc-dump-dkms_*_all.deb 2>/dev/null | tail -n 1)
tier dkms "DKMS build of smc-dump-dkms for Debian's kernel" \
	bash scripts/stock-dkms.sh "${dkms_deb:-build/deb/no-smc-dump-dkms.deb}"
tier stock-dkms "the packages on Debian's kernel with the DKMS-built modules" \
	bash testsuite/stock-dkms/run-suite build/deb

passed=$(grep -c '^ok ' "$log" | tr -d ' ')
skipped=$(grep -c '^ok .* # skip' "$log" | tr -d ' ')
failed=$(grep -c '^not ok ' "$log" | tr -d ' ')
passed=$((passed - skipped))
echo "${summary}total $(( $(date +%s) - start )) s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$all_rc" = 0 ] && [ "$failed" = 0 ]
