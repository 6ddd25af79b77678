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

@test "cross: a patch that adds a warning makes the check fail, naming it" {
	# the series plus a patch adding an unused static variable to a file
	# the series does not touch, made against the tarball's own file
	src=$BATS_TEST_TMPDIR/src
	mkdir -p "$src"
	tar -C "$src" --strip-components=1 -xJf "$TARBALL" 'linux-source-6.12/net/smc/smc_diag.c'
	git -C "$src" init -q
	git -C "$src" add net/smc/smc_diag.c
	git -C "$src" -c user.name=t -c user.email=t@localhost commit -q -m base
	sed -i '0,/^#include/s//static int smc_cross_unused;\n&/' "$src/net/smc/smc_diag.c"
	grep -q '^static int smc_cross_unused;$' "$src/net/smc/smc_diag.c"
	git -C "$src" -c user.name=t -c user.email=t@localhost commit -q -a -m 'net/smc: an unused variable'
	patches=$BATS_TEST_TMPDIR/patches
	mkdir -p "$patches"
	cp "$TOP"/kernel/6.12/patches/*.patch "$patches/"
	git -C "$src" format-patch -q -1 --stdout >"$patches/0099-unused.patch"

	SERIES_CROSS_ARCHS=arm64 SERIES_CROSS_WHOLE=1 SERIES_CROSS_PATCHES=$patches \
		run bash "$TOP/scripts/series-cross-check.sh" "$WORK"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"series-cross-check: arm64: the whole series"*"adds warnings:"* ]]
	# gcc quotes the name with ' or with the locale's quotation marks
	[[ "$output" == *"net/smc/smc_diag.c: warning: "?"smc_cross_unused"?" defined but not used"* ]] ||
		[[ "$output" == *"net/smc/smc_diag.c: warning: "*"smc_cross_unused"*" defined but not used"* ]]
	[[ "$output" != *"without new warnings"* ]]
}
