#!/bin/bash
# Check that the 6.12 series builds for the big-endian s390x and for arm64
# without new warnings: x86_64 alone (make kernel, series-check.sh) hides
# endianness slips and code that only an architecture's config compiles
# (ISM, the s390 PCI device SMC-D runs on in production).
#
#   series-cross-check.sh DIR
#
# One git tree of Debian 12's linux-source-6.12 (a commit "base"), one
# object tree per ARCH (s390: s390x-linux-gnu-gcc, arm64:
# aarch64-linux-gnu-gcc, both through ccache): tinyconfig, merged with
# kernel/config/base.config, kernel/6.12/config/series.config and
# kernel/6.12/config/cross-ARCH.config (what net/smc needs there; options
# of base.config an ARCH does not have, ACPI or the 8250 UART on s390, are
# dropped by Kconfig), then `make prepare`. The base is built with W=1
# and sparse on every file (net/smc/, and drivers/s390/net/ism* on s390:
# C=2), then the series is applied with `git am` one patch at a time and
# each patch boundary is built again (W=1, C=1: every file the patch made
# rebuild). A diagnostic the base did not print, compared without line
# and column numbers, is a failure.
#
# sparse: kbuild passes it --arch=ARCH and the ARCH's endianness
# (-mbig-endian on s390); the check fails when kbuild printed no CHECK
# line for the base (sparse did not run). What sparse and gcc report of
# the base is kept in DIR/ARCH/base.warn and not counted. Measured with
# Debian 12's sparse 0.6.4: nothing for net/smc and ism_drv.c on either
# ARCH; on arm64 C=2 also reaches the vDSO, where sparse reports
# "symbol '__kernel_getrandom' was not declared" (a known false positive:
# the entry point is exported by the vDSO linker script, not declared in a
# header). Nothing is filtered: a diagnostic of that kind on a line a
# patch adds fails the check and is to be looked at by hand.
#
# Environment:
#   SERIES_CROSS_ARCHS     the ARCHs, default "s390 arm64"
#   SERIES_CROSS_PATCHES   the patch directory, default kernel/6.12/patches
#   SERIES_CROSS_WHOLE=1   build once after the whole series, not per patch
#
# DIR is a work directory: new, empty, or one an earlier run made (it
# holds .series-cross-check); its tree is reused (reset to "base") when the
# tarball is the same, so that a second run does not unpack 150 MB again.
# Exit status 0 with one line "series-cross-check: ARCH: ..." per ARCH
# when the series applied and built clean; 1 with the new warnings on
# stderr otherwise; 2 on wrong use.
set -uo pipefail

dir=${1:-}
top=$(cd "$(dirname "$0")/.." && pwd)
[ -n "$dir" ] || { echo "usage: series-cross-check.sh DIR" >&2; exit 2; }
archs=${SERIES_CROSS_ARCHS:-s390 arm64}
pdir=${SERIES_CROSS_PATCHES:-$top/kernel/6.12/patches}
log() { echo "series-cross-check: $*" >&2; }

tarball=/usr/src/linux-source-6.12.tar.xz
[ -f "$tarball" ] || { log "$tarball missing (make deps)"; exit 1; }
command -v sparse >/dev/null || { log "sparse missing (make deps)"; exit 1; }
patches=$(ls "$pdir"/*.patch 2>/dev/null | grep -v '/0000-[^/]*$' || true)
[ -n "$patches" ] || { log "no patches in $pdir"; exit 1; }

cross_of() {
	case $1 in
	s390)	echo s390x-linux-gnu- ;;
	arm64)	echo aarch64-linux-gnu- ;;
	*)	return 1 ;;
	esac
}
for a in $archs; do
	cross=$(cross_of "$a") || { log "unknown ARCH $a (s390, arm64)"; exit 2; }
	command -v "${cross}gcc" >/dev/null || { log "${cross}gcc missing (scripts/deps.sh cross)"; exit 1; }
done

if [ -e "$dir" ] && { [ ! -d "$dir" ] || { [ -n "$(ls -A "$dir")" ] && [ ! -e "$dir/.series-cross-check" ]; }; }; then
	log "$dir is not empty and not a series-cross-check work directory: give a new one"
	exit 2
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
tree=$dir/tree
src_id=$(stat -c '%s %Y' "$tarball")
if [ "$(cat "$dir/.series-cross-check" 2>/dev/null)" = "$src_id" ] &&
   git -C "$tree" rev-parse -q --verify refs/tags/base >/dev/null; then
	log "reusing $tree"
	git -C "$tree" am --abort >/dev/null 2>&1
	git -C "$tree" reset -q --hard base || exit 1
	git -C "$tree" clean -q -fdx || exit 1
else
	log "unpacking $tarball"
	rm -rf "$tree"
	: >"$dir/.series-cross-check"
	mkdir -p "$tree"
	tar -C "$tree" --strip-components=1 -xJf "$tarball" || exit 1
	git -C "$tree" init -q
	# no background git gc on a tree of 90k objects beside the builds
	git -C "$tree" config gc.auto 0
	git -C "$tree" -c core.excludesFile=/dev/null add -f . || exit 1
	git -C "$tree" -c user.name=base -c user.email=base@localhost commit -q -m base || exit 1
	git -C "$tree" tag base
	echo "$src_id" >"$dir/.series-cross-check"
fi

export CCACHE_BASEDIR=$dir CCACHE_DIR=${CCACHE_DIR:-${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}/.cache/ccache}
kmake() {
	local a=$1 cross cc
	shift
	cross=$(cross_of "$a")
	cc="${cross}gcc"
	command -v ccache >/dev/null && cc="ccache ${cross}gcc"
	make -C "$tree" O="$dir/$a/obj" ARCH="$a" CROSS_COMPILE="$cross" CC="$cc" HOSTCC=gcc "$@"
}

# what net/smc needs, checked after olddefconfig: the rest of base.config
# is for the x86 test kernel and may not exist on ARCH
needed() {
	echo CONFIG_NET=y CONFIG_INET=y CONFIG_IPV6=y CONFIG_INFINIBAND=y CONFIG_SMC=y CONFIG_SMC_DIAG=y CONFIG_SMC_LO=y
	[ "$1" = s390 ] && echo CONFIG_PCI=y CONFIG_ISM=y
}

configure() {
	local a=$1 obj=$dir/$1/obj frag=$top/kernel/6.12/config/cross-$1.config o
	mkdir -p "$obj"
	kmake "$a" -s tinyconfig >/dev/null || return 1
	KCONFIG_CONFIG=$obj/.config "$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
		"$top/kernel/config/base.config" "$top/kernel/6.12/config/series.config" \
		$( [ -f "$frag" ] && echo "$frag") >/dev/null || return 1
	kmake "$a" -s olddefconfig >/dev/null || return 1
	for o in $(needed "$a"); do
		grep -qxF "$o" "$obj/.config" || { log "$a: $o did not stick"; return 1; }
	done
	log "$a: make prepare"
	kmake "$a" -s -j"$(nproc)" prepare >/dev/null 2>"$dir/$a/prepare.log" || { cat "$dir/$a/prepare.log" >&2; return 1; }
}

# the directories to build on ARCH
targets() {
	echo net/smc/
	[ "$1" = s390 ] && echo drivers/s390/net/ism_drv.o
}

# build_warnings ARCH OUT [all]: W=1 and sparse, the diagnostics to OUT
# without the tree's paths and line and column numbers. "all": every file
# anew (C=2, the base); else what the last patch made rebuild (C=1).
build_warnings() {
	local a=$1 out=$2 obj=$dir/$1/obj c=1 rc
	if [ "${3:-}" = all ]; then
		rm -f "$obj"/net/smc/*.o "$obj"/drivers/s390/net/ism*.o
		c=2
	fi
	kmake "$a" -j"$(nproc)" W=1 C=$c CHECK=sparse $(targets "$a") >"$out.raw" 2>&1
	rc=$?
	if grep -q 'is not available or not up to date' "$out.raw" ||
	   { [ $c = 2 ] && ! grep -q '^ *CHECK ' "$out.raw"; }; then
		log "$a: sparse did not run: $(grep -m1 'not up to date' "$out.raw")"
		return 1
	fi
	# gcc names a source file ../../tree/..., sparse $tree/...
	grep -E '(warning|error):' "$out.raw" |
		sed -E -e "s#^($tree|$obj)/##" -e 's#^(\.\./)+tree/##' -e 's#:[0-9]+:[0-9]+:#:#' -e 's#:[0-9]+:#:#' | sort -u >"$out"
	return $rc
}

for a in $archs; do
	configure "$a" || { log "$a: configuring failed"; exit 1; }
	log "$a: base: W=1 C=2 $(targets "$a" | tr '\n' ' ')"
	build_warnings "$a" "$dir/$a/base.warn" all ||
		{ log "$a: the base tree does not build"; tail -20 "$dir/$a/base.warn.raw" >&2; exit 1; }
	log "$a: base: $(grep -c '^ *CHECK ' "$dir/$a/base.warn.raw") files through sparse, $(wc -l <"$dir/$a/base.warn") diagnostics (kept in $dir/$a/base.warn)"
done

# check_step LABEL: build every ARCH and compare with its base
fail=0
check_step() {
	local a new
	for a in $archs; do
		log "$a: $1: W=1 C=1"
		if ! build_warnings "$a" "$dir/$a/$2.warn"; then
			log "$a: $1 does not build:"
			grep -E 'error' "$dir/$a/$2.warn.raw" | head -20 >&2
			fail=1
			continue
		fi
		new=$(comm -13 "$dir/$a/base.warn" "$dir/$a/$2.warn")
		if [ -n "$new" ]; then
			log "$a: $1 adds warnings:"
			echo "$new" >&2
			fail=1
		fi
	done
}

n=0
for p in $patches; do
	n=$((n + 1))
	if ! git -C "$tree" -c user.name=check -c user.email=check@localhost am -q "$p" >"$dir/am-$n.log" 2>&1; then
		log "$(basename "$p") does not apply with git am:"
		cat "$dir/am-$n.log" >&2
		exit 1
	fi
	[ "${SERIES_CROSS_WHOLE:-0}" = 1 ] || check_step "$(basename "$p")" "patch-$n"
done
[ "${SERIES_CROSS_WHOLE:-0}" = 1 ] && check_step "the whole series ($n patches)" whole
[ $fail = 0 ] || exit 1
steps="each of $n patches"
[ "${SERIES_CROSS_WHOLE:-0}" = 1 ] && steps="the whole series ($n patches)"
for a in $archs; do
	log "$a: $steps builds with W=1 and sparse without new warnings"
done
exit 0
