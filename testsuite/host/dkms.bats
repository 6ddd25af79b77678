#!/usr/bin/env bats
# smc-dump-dkms's build script (debian/dkms-build, as scripts/dkms-source.sh
# fills it in from scripts/stock-release.conf): it serves Debian 12's and
# Debian 13's ABI names of the one point release it carries, refuses other
# kernels and says which it serves, before it builds anything.

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)

setup() {
	. "$TOP/scripts/stock-release.conf"
	B=$BATS_TEST_TMPDIR/dkms-build
	sed -e "s/@STOCK_LINUX@/$STOCK_LINUX/g" -e "s/@STOCK_ABI@/$STOCK_ABI/g" \
		"$TOP/debian/dkms-build" >"$B"
	chmod 755 "$B"
	# headers of a served kernel, as far as dkms-build looks at them
	K=$BATS_TEST_TMPDIR/headers
	mkdir -p "$K/include/config"
	: >"$K/Makefile"
	printf 'CONFIG_SMC=m\nCONFIG_SMC_DIAG=m\n' >"$K/include/config/auto.conf"
}

@test "dkms-build: another kernel is refused with the versions it serves" {
	for k in 6.1.0-30-amd64 6.12.117+deb12-amd64 6.12.117+deb13-amd64 6.12.118-amd64 \
		"$STOCK_LINUX+deb11-amd64" "$STOCK_LINUX+deb14-amd64" 7.3.4+deb13-amd64; do
		run "$B" "$k" "$K"
		echo "$output"
		[ "$status" -eq 1 ]
		[[ "$output" == "smc-dump-dkms: kernel '$k' is not one it serves"* ]]
		[[ "$output" == *"it serves Debian's Linux $STOCK_LINUX kernels $STOCK_LINUX+deb13-* (Debian 13) and $STOCK_LINUX+deb12-* (Debian 12's linux-image-6.12-amd64); upgrade to that kernel"* ]]
	done
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
	# a make that prints its arguments stands in for kbuild
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\necho "make $*"\n' >"$BATS_TEST_TMPDIR/bin/make"
	chmod 755 "$BATS_TEST_TMPDIR/bin/make"
	cd "$BATS_TEST_TMPDIR"
	for k in "$STOCK_LINUX+deb12-amd64" "$STOCK_LINUX+deb13-amd64" "$STOCK_LINUX+deb13-cloud-amd64"; do
		PATH=$BATS_TEST_TMPDIR/bin:$PATH run "$B" "$k" "$K"
		echo "$output"
		[ "$status" -eq 0 ]
		[ "$output" = "make -C $K M=$BATS_TEST_TMPDIR/net/smc CONFIG_SMC=m CONFIG_SMC_DIAG=m CONFIG_SMC_LO=y KCFLAGS=-DCONFIG_SMC_LO=1 -I$BATS_TEST_TMPDIR/include modules" ]
	done
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
		[[ "$output" == *"it serves Debian's Linux $STOCK_LINUX kernels $STOCK_LINUX+deb13-* (Debian 13) and $STOCK_LINUX+deb12-* (Debian 12's linux-image-6.12-amd64); upgrade to that kernel"* ]]
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
