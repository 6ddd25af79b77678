#!/bin/bash
# make check: every tier, one tally.
#
# First the VM runner's own tests (short boots) beside the Debian packages
# (make deb, lintian; smc-dump also for arm64 and s390x) and the DKMS build of smc-dump-dkms for Debian's
# kernel; then the SMC-R tests (two guests on that kernel with the
# DKMS-built modules; they write the real SMC-R captures under
# build/smcr-results that the host tier's Wireshark comparison reads) and
# the SMC-R link failover on the debug test kernel.
# Then two lanes at once, each mostly one QEMU guest:
#   lane "debug": the VM tests of testsuite/vm/debug-files in one boot of
#     the debug test kernel (KASAN, lockdep, kmemleak), then the
#     stock-kernel tests (one boot of Debian's unmodified kernel), then
#     the mainline series' kernel in one boot (testsuite/mainline: links,
#     captures, ip link, its kselftest), then the kernel matrix (one
#     boot of each Debian kernel of scripts/kernels.conf, testsuite/matrix);
#   the main lane: the host tests (with the mainline series' per-patch
#     build), then the cross builds of s390x and arm64 under qemu-user
#     (testsuite/cross), then the packages' tests and the other VM test files in one
#     boot of Debian's kernel with the DKMS-built modules
#     (testsuite/stock-dkms/tier).
# Every line a tier prints comes as it comes; a background lane's lines
# start with "runner| " or "debug| ". Each tier's time, then the closing
# tally "N passed, N failed, N skipped". Exit status 0 only if nothing
# failed and every tier ran and exited 0.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 2
logs=$(mktemp -d /tmp/smc-dump-check.XXXXXX)
trap 'rm -rf "$logs"' EXIT

start=$(date +%s)
order=()
# tier NAME TITLE CMD...: run one tier; its output into $logs/NAME.log,
# its exit status and seconds into $logs/NAME.rc
tier() {
	local name=$1 title=$2 t0 rc
	shift 2
	echo "== $title"
	t0=$(date +%s)
	"$@" 2>&1 | tee "$logs/$name.log"
	rc=${PIPESTATUS[0]}
	echo "== $name: exit $rc, $(( $(date +%s) - t0 )) s"
	echo "$rc $(( $(date +%s) - t0 ))" >"$logs/$name.rc"
}

# lane LABEL FUNCTION: run FUNCTION in the background, its lines prefixed
# with "LABEL| "; LANE_PID is its pid
lane() {
	"$2" 2>&1 | sed -u "s/^/$1| /" &
	LANE_PID=$!
}

# the VM runner's own tests (a few short boots) beside the package builds
runner() {
	tier runner "VM runner tests" bats --print-output-on-failure testsuite/vmrunner
}
# the cross compilers and sysroots (the deb, series and cross tiers use
# them, in both lanes): installed once here, before the lanes start, so
# that no two apt runs race for the dpkg lock
bash scripts/deps.sh cross || echo "check: scripts/deps.sh cross failed; the tiers that need it will say so"
order+=(runner deb dkms smcr failover)
lane runner runner
runner_pid=$LANE_PID
# with smc-dump of arm64 and s390x, cross-built on scripts/deps.sh
# cross's sysroots (which the cross tier uses too)
tier deb "Debian packages (make deb: dpkg-buildpackage, lintian; arm64 and s390x cross-built)" \
	bash -c 'bash scripts/deps.sh cross &&
		bash scripts/make-deb.sh "$(dpkg --print-architecture)" arm64 s390x'
dkms_deb=$(ls build/deb/smc-dump-dkms_*_all.deb 2>/dev/null | tail -n 1)
tier dkms "DKMS build of smc-dump-dkms for Debian's kernel" \
	bash scripts/stock-dkms.sh "${dkms_deb:-build/deb/no-smc-dump-dkms.deb}"
wait "$runner_pid"
# then the same bed on Debian's own smc.ko with the bpf backend on both
# sides (testsuite/smcr/stock.bats; it sets SMCR_BED=stock itself)
tier smcr "SMC-R tests (two guests on Debian's kernel: the DKMS-built modules, then its own with bpf)" \
	env SMCR_BED=stock-dkms SMCR_DKMS_DEB="${dkms_deb:-build/deb/no-smc-dump-dkms.deb}" \
	bats --print-output-on-failure testsuite/smcr/smcr.bats testsuite/smcr/stock.bats
# the failover test races link teardown against sends and resends: on the
# debug kernel (KASAN, lockdep, kmemleak), alone, with both CPUs
tier failover "SMC-R link failover (two guests on the debug test kernel)" \
	env SMCR_BED=test bats --print-output-on-failure testsuite/smcr/failover.bats

# the files of testsuite/vm/debug-files on the debug kernel, then Debian's
# unmodified kernel; the other VM files run in the stock-dkms tier
mapfile -t debug_files < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' testsuite/vm/debug-files)
debug_lane() {
	tier vm "VM tests on the debug test kernel (testsuite/vm/debug-files)" \
		testsuite/vm/run-vm --timeout "${VM_TIMEOUT:-4200}" -- \
		bats --timing --print-output-on-failure "${debug_files[@]/#/testsuite/vm/}"
	tier stock "stock-kernel tests (Debian's unmodified kernel in QEMU)" \
		bash testsuite/stock/run-suite testsuite/stock
	tier mainline "the mainline series in QEMU (links, captures, ip link, its kselftest)" \
		bash testsuite/mainline/run-suite
	# the mainline series built as net-next's checks build it: each patch
	# with W=1 and sparse, CONFIG_SMC_DUMP off, i386 (kernel builds only;
	# the 6.12 series' cross builds run in the other lane, so that the two
	# lanes end together)
	tier series "the mainline series built patch by patch (testsuite/series/kernel-series-mainline.bats)" \
		bats --print-output-on-failure testsuite/series/kernel-series-mainline.bats
	tier matrix "the kernel matrix (each Debian kernel of scripts/kernels.conf, one boot)" \
		bash testsuite/matrix/run-suite --all
}
order+=(vm stock mainline series matrix host cross stock-dkms series-cross)
lane debug debug_lane
debug_pid=$LANE_PID

# the SMC-R captures are there now: the Wireshark test must not skip them
tier host "host tests" env SMCDUMP_REQUIRE_CAPTURES=1 \
	bats --print-output-on-failure testsuite/host
# the user space built for s390x and arm64, run under qemu-user on the
# host tier's kind of captures, against the native build; then the host
# tier's decoder files with the s390x smc
tier cross "cross builds (s390x, arm64) under qemu-user (testsuite/cross)" \
	env SMC_DUMP_CROSS_HOST=1 bash testsuite/cross/run-suite
tier stock-dkms "the packages on Debian's kernel with the DKMS-built modules" \
	bash testsuite/stock-dkms/run-suite build/deb
# the 6.12 series built for s390x and arm64, W=1 and sparse, patch by patch
tier series-cross "the 6.12 series built for s390x and arm64 (testsuite/series/kernel-series-cross.bats)" \
	bats --print-output-on-failure testsuite/series/kernel-series-cross.bats
wait "$debug_pid"

summary=
all_rc=0
for name in "${order[@]}"; do
	if read -r rc secs <"$logs/$name.rc" 2>/dev/null; then
		summary+="$name: exit $rc, $secs s; "
		[ "$rc" = 0 ] || all_rc=1
	else
		summary+="$name: did not run; "
		all_rc=1
	fi
done
passed=$(cat "$logs"/*.log | grep -c '^ok ')
skipped=$(cat "$logs"/*.log | grep -c '^ok .* # skip')
failed=$(cat "$logs"/*.log | grep -c '^not ok ')
passed=$((passed - skipped))
echo "${summary}total $(( $(date +%s) - start )) s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$all_rc" = 0 ] && [ "$failed" = 0 ]
