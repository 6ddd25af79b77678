#!/usr/bin/env bats
# smc-dump-dkms's build script (debian/dkms-build, as scripts/dkms-source.sh
# fills it in from scripts/stock-release.conf): it serves Debian 12's and
# Debian 13's ABI names of the point releases of its line from
# STOCK_OLDEST on, refuses other kernels and says which it serves before
# it builds anything, refuses headers whose SMC interfaces differ from the
# carried release's, and says what to do when the build fails.

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)

setup() {
	. "$TOP/scripts/stock-release.conf"
	B=$BATS_TEST_TMPDIR/dkms-build
	sed -e "s/@STOCK_LINUX@/$STOCK_LINUX/g" -e "s/@STOCK_ABI@/$STOCK_ABI/g" \
		-e "s/@STOCK_OLDEST@/$STOCK_OLDEST/g" "$TOP/debian/dkms-build" >"$B"
	chmod 755 "$B"
	LINE=${STOCK_LINUX%.*}
	SERVES="it carries net/smc of Linux $STOCK_LINUX and serves Debian's Linux $LINE.$STOCK_OLDEST and newer kernels $LINE.N+deb13-* (Debian 13) and $LINE.N+deb12-* (Debian 12's linux-image-$LINE-amd64) whose headers it builds against; boot one it serves (apt-get install linux-image-$STOCK_LINUX+deb13-amd64 or +deb12-amd64), or install an smc-dump-dkms made for yours"
	RE=$(bash "$TOP/scripts/dkms-kernels-re.sh")
	# headers of a served kernel, as far as dkms-build looks at them: a
	# full tree, SMC's own headers in it, and the package's checksums of
	# them (as dkms-source.sh writes them) in the build directory
	K=$BATS_TEST_TMPDIR/headers
	mkdir -p "$K/include/config"
	: >"$K/Makefile"
	printf 'CONFIG_SMC=m\nCONFIG_SMC_DIAG=m\n' >"$K/include/config/auto.conf"
	IFACES="include/net/smc.h include/net/netns/smc.h include/linux/ism.h include/uapi/linux/smc.h include/uapi/linux/smc_diag.h"
	for f in $IFACES; do
		mkdir -p "$(dirname "$K/$f")"
		echo "/* $f */" >"$K/$f"
		echo "$(sha256sum <"$K/$f" | awk '{ print $1 }') $f"
	done >"$BATS_TEST_TMPDIR/smc-interfaces.sha256"
	# a make that prints its arguments stands in for kbuild
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\necho "make $*"\n' >"$BATS_TEST_TMPDIR/bin/make"
	chmod 755 "$BATS_TEST_TMPDIR/bin/make"
}

@test "dkms-build: another kernel is refused with the versions it serves" {
	for k in 6.1.0-30-amd64 "$STOCK_LINUX-amd64" "$STOCK_LINUX+deb11-amd64" "$STOCK_LINUX+deb14-amd64" \
		7.3.4+deb13-amd64 "6.13.$STOCK_OLDEST+deb13-amd64" "$LINE.x+deb13-amd64"; do
		run "$B" "$k" "$K"
		echo "$output"
		[ "$status" -eq 1 ]
		[[ "$output" == "smc-dump-dkms: kernel '$k' is not one it serves"* ]]
		[[ "$output" == *"$SERVES" ]]
	done
}

@test "dkms-build: a point release older than STOCK_OLDEST is refused, named as too old" {
	for k in "$LINE.$((STOCK_OLDEST - 1))+deb12-amd64" "$LINE.95+deb13-amd64" "$LINE.0+deb12-amd64"; do
		run "$B" "$k" "$K"
		echo "$output"
		[ "$status" -eq 1 ]
		[ "${lines[0]}" = "smc-dump-dkms: kernel '$k' is not one it serves (older than $LINE.$STOCK_OLDEST, whose interfaces the code needs)" ]
		[[ "$output" == *"$SERVES" ]]
	done
}

@test "dkms-build: headers whose SMC interfaces differ from the carried release's are refused, naming the files" {
	cd "$BATS_TEST_TMPDIR"
	echo "struct smcd_ops { int changed; };" >>"$K/include/net/smc.h"
	rm "$K/include/uapi/linux/smc_diag.h"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH run "$B" "$STOCK_ABI-amd64" "$K"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "smc-dump-dkms: kernel $STOCK_ABI-amd64 changed SMC's interfaces since Linux $STOCK_LINUX (differ: include/net/smc.h include/uapi/linux/smc_diag.h), so net/smc of $STOCK_LINUX does not fit it" ]
	[[ "$output" == *"$SERVES" ]]
	[[ "$output" != *"make -C"* ]]
}

@test "dkms-build: Debian's flavour headers are compared through the -common tree their Makefile includes" {
	cd "$BATS_TEST_TMPDIR"
	F=$BATS_TEST_TMPDIR/flavour
	mkdir -p "$F/include/config"
	cp "$K/include/config/auto.conf" "$F/include/config/"
	echo "include $K/Makefile" >"$F/Makefile"
	rm -r "$K/include/config"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH run "$B" "$STOCK_ABI-amd64" "$F"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "make -C $F M=$BATS_TEST_TMPDIR/net/smc CONFIG_SMC=m CONFIG_SMC_DIAG=m CONFIG_SMC_LO=y KCFLAGS=-DCONFIG_SMC_LO=1 -I$BATS_TEST_TMPDIR/include modules" ]
	echo "/* changed */" >"$K/include/linux/ism.h"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH run "$B" "$STOCK_ABI-amd64" "$F"
	[ "$status" -eq 1 ]
	[[ "${lines[0]}" == *"(differ: include/linux/ism.h)"* ]]
	# without the -common tree, the headers are named incomplete
	echo "include $BATS_TEST_TMPDIR/none/Makefile" >"$F/Makefile"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH run "$B" "$STOCK_ABI-amd64" "$F"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "smc-dump-dkms: the headers for $STOCK_ABI-amd64 in $F are incomplete: no include/net/smc.h (apt-get install --reinstall linux-headers-$STOCK_ABI-amd64)" ]
}

@test "dkms-build: a build that fails is refused after the compiler's errors, naming what to do" {
	cd "$BATS_TEST_TMPDIR"
	printf '#!/bin/sh\necho "smc_dump.c:597:12: error: no member named netns_immutable" >&2\nexit 2\n' \
		>"$BATS_TEST_TMPDIR/bin/make"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH run "$B" "$STOCK_ABI-amd64" "$K"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "smc_dump.c:597:12: error: no member named netns_immutable" ]
	[ "${lines[1]}" = "smc-dump-dkms: net/smc of Linux $STOCK_LINUX with the smc-dump series does not build against the headers of $STOCK_ABI-amd64 (the errors above): that point release changed an interface net/smc uses" ]
	[[ "$output" == *"$SERVES" ]]
}

@test "dkms-build: a served kernel without SMC as a module, or without headers, is refused" {
	printf 'CONFIG_SMC_DIAG=m\n' >"$K/include/config/auto.conf"
	run "$B" "$STOCK_ABI-cloud-amd64" "$K"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"does not build SMC as a module (CONFIG_SMC=m)"* ]]
	run "$B" "$STOCK_ABI-amd64" "$BATS_TEST_TMPDIR/none"
	[ "$status" -eq 1 ]
	[[ "$output" == *"no kernel headers for $STOCK_ABI-amd64"* ]]
}

@test "dkms-build: a served kernel gets the make command for net/smc with loopback-ism" {
	cd "$BATS_TEST_TMPDIR"
	mk="make -C $K M=$BATS_TEST_TMPDIR/net/smc CONFIG_SMC=m CONFIG_SMC_DIAG=m CONFIG_SMC_LO=y KCFLAGS=-DCONFIG_SMC_LO=1 -I$BATS_TEST_TMPDIR/include modules"
	for k in "$STOCK_LINUX+deb12-amd64" "$STOCK_LINUX+deb13-amd64" "$STOCK_LINUX+deb13-cloud-amd64" \
		"$LINE.$STOCK_OLDEST+deb12-amd64" "$LINE.$((${STOCK_LINUX##*.} - 1))+deb13-amd64"; do
		PATH=$BATS_TEST_TMPDIR/bin:$PATH run "$B" "$k" "$K"
		echo "$output"
		[ "$status" -eq 0 ]
		[ "$output" = "$mk" ]
	done
	# a newer point release (a security update): built, with a note that
	# the kernel's own net/smc may be newer than the carried one
	k=$LINE.$((${STOCK_LINUX##*.} + 1))+deb13-amd64
	PATH=$BATS_TEST_TMPDIR/bin:$PATH run "$B" "$k" "$K"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "smc-dump-dkms: building net/smc of Linux $STOCK_LINUX for $k: its smc.ko replaces Debian's, which may have net/smc fixes newer than $STOCK_LINUX; an smc-dump-dkms made for $LINE.$((${STOCK_LINUX##*.} + 1)) has them" ]
	[ "${lines[1]}" = "$mk" ]
}

@test "dkms-build: a version string that only begins like a served one is refused, named in quotes" {
	nl='
'
	for k in "$STOCK_ABI-" "$STOCK_ABI-amd64 " "$STOCK_ABI-amd64$nl" "$STOCK_ABI-../amd64" \
		"$STOCK_ABI--amd64" "$STOCK_LINUX+deb13-" "$STOCK_LINUX+deb13-AMD64" "$STOCK_ABI-AMD64" "$STOCK_ABI-amd64/x"; do
		run "$B" "$k" "$K"
		echo "$output"
		[ "$status" -eq 1 ]
		[[ "$output" == "smc-dump-dkms: kernel '$k' is not one it serves (no such flavour: "* ]]
		[[ "$output" == *"$SERVES" ]]
		# and DKMS's BUILD_EXCLUSIVE_KERNEL skips it before dkms-build runs
		[[ ! $k =~ $RE ]]
	done
	# the flavours Debian builds of the line match
	for f in amd64 cloud-amd64 rt-amd64; do
		[[ $STOCK_ABI-$f =~ $RE ]]
	done
}

@test "dkms-build: without its two arguments it says how it is called" {
	run "$B"
	[ "$status" -eq 2 ]
	[[ "$output" == "usage: dkms-build KERNELVER KERNEL_SOURCE_DIR"* ]]
	run "$B" "$STOCK_ABI-amd64"
	[ "$status" -eq 2 ]
	[[ "$output" == "usage: dkms-build KERNELVER KERNEL_SOURCE_DIR"* ]]
}

@test "dkms-build: headers without include/config/auto.conf are named incomplete, not SMC-less" {
	rm "$K/include/config/auto.conf"
	run "$B" "$STOCK_ABI-amd64" "$K"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"the headers for $STOCK_ABI-amd64 in $K are incomplete: no include/config/auto.conf"* ]]
	[[ "$output" != *"does not build SMC"* ]]
}
