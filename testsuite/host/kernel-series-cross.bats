#!/usr/bin/env bats
# The 6.12 series built for s390x (big endian) and arm64 with W=1 and
# sparse (scripts/series-cross-check.sh): every patch boundary without a
# warning the base tree does not print, the objects of the right machine,
# and the check failing when a patch adds a warning.

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
TARBALL=/usr/src/linux-source-6.12.tar.xz

setup_file() {
	# one work directory for the file: the second run reuses its tree
	# and object trees instead of unpacking the source again
	export WORK=$BATS_FILE_TMPDIR/work
}

setup() {
	[ -f "$TARBALL" ] || skip "linux-source-6.12 not installed (make deps)"
	command -v s390x-linux-gnu-gcc >/dev/null && command -v aarch64-linux-gnu-gcc >/dev/null ||
		skip "cross compilers missing (scripts/deps.sh cross)"
	command -v sparse >/dev/null || skip "sparse missing (make deps)"
}

@test "cross: each patch builds for s390 and arm64 with W=1 and sparse, no new warning" {
	run bash "$TOP/scripts/series-cross-check.sh" "$WORK"
	echo "$output"
	[ "$status" -eq 0 ]
	n=$(ls "$TOP"/kernel/6.12/patches/*.patch | grep -vc '/0000-')
	[[ "$output" == *"series-cross-check: s390: each of $n patches builds with W=1 and sparse without new warnings"* ]]
	[[ "$output" == *"series-cross-check: arm64: each of $n patches builds with W=1 and sparse without new warnings"* ]]
	# sparse ran on the base of both
	[ "$(grep -c '^ *CHECK ' "$WORK/s390/base.warn.raw")" -gt 10 ]
	[ "$(grep -c '^ *CHECK ' "$WORK/arm64/base.warn.raw")" -gt 10 ]
	# the objects are the ARCH's, and the series' own file was built
	run readelf -h "$WORK/s390/obj/net/smc/smc_dump.o"
	[ "$status" -eq 0 ]
	[[ "$output" == *"Machine:"*"IBM S/390"* ]]
	[[ "$output" == *"big endian"* ]]
	run readelf -h "$WORK/arm64/obj/net/smc/smc_dump.o"
	[ "$status" -eq 0 ]
	[[ "$output" == *"Machine:"*"AArch64"* ]]
	[[ "$output" == *"little endian"* ]]
	# ISM, s390's SMC-D device, was built and checked too
	[ -f "$WORK/s390/obj/drivers/s390/net/ism_drv.o" ]
}
