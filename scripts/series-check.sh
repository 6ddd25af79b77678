#!/bin/bash
# Check that every patch of a kernel series builds on its own, as a
# net-next reviewer's bisection would: `git am` the series one patch at a
# time onto its unpacked source, build net/smc/ with W=1 and sparse (the
# base: every file, C=2; after each patch: every file it made rebuild, C=1),
# and run kernel-doc on the series' own files; from the patch that adds the
# series' build option on, each patch also with it off (CONFIG_SMC_DUMP;
# W=1 without sparse: builds clean, and nothing of the dump may be
# built). Then the whole
# series for i386 (32 bits). No clang build: Linux 7.x needs LLVM 17.0.1
# (scripts/min-tool-version.sh), Debian 12's newest is clang-16. A
# warning the base tree does not print is a failure; warnings are
# compared without line numbers (patches move lines).
#
#   series-check.sh SERIES DIR
#
# SERIES: mainline (kernel/mainline/patches, the source of
# scripts/mainline-source.sh). DIR: a work directory (git tree, objects,
# logs: DIR/patch-N.log); it is made anew, so it must be new, empty or
# one an earlier run made (it holds .series-check). Config: tinyconfig plus
# kernel/config/base.config and the series' series.config (the plain test
# kernel). Exit status 0 when every patch applied and built clean; 1 with
# the new warnings on stderr otherwise; 2 on wrong use.
set -uo pipefail

series=${1:-}
dir=${2:-}
top=$(cd "$(dirname "$0")/.." && pwd)
[ "$series" = mainline ] && [ -n "$dir" ] || { echo "usage: series-check.sh mainline DIR" >&2; exit 2; }
command -v sparse >/dev/null || { echo "series-check: sparse missing (make deps)" >&2; exit 1; }
log() { echo "series-check: $*" >&2; }

# DIR is emptied: only a new or empty one, or one an earlier run made
if [ -e "$dir" ] && { [ ! -d "$dir" ] || { [ -n "$(ls -A "$dir")" ] && [ ! -e "$dir/.series-check" ]; }; }; then
	echo "series-check: $dir is not empty and not a series-check work directory: give a new one" >&2
	exit 2
fi
tarball=$(bash "$top/scripts/mainline-source.sh") || exit 1
rm -rf "$dir"
mkdir -p "$dir/tree" "$dir/obj"
: >"$dir/.series-check"
dir=$(cd "$dir" && pwd)
tree=$dir/tree obj=$dir/obj
tar -C "$tree" --strip-components=1 -xJf "$tarball" || exit 1
git -C "$tree" init -q
# no background git gc on a tree of 90k objects beside the builds
git -C "$tree" config gc.auto 0
git -C "$tree" -c core.excludesFile=/dev/null add -f . || exit 1
git -C "$tree" -c user.name=base -c user.email=base@localhost commit -q -m base || exit 1

export CCACHE_BASEDIR=$top/build CCACHE_DIR=${CCACHE_DIR:-${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}/.cache/ccache}
cc="gcc"
command -v ccache >/dev/null && cc="ccache gcc"
kmake() { make -C "$tree" O="${kobj:-$obj}" ARCH=x86_64 CC="$cc" HOSTCC=gcc "$@"; }
# configure: the fragments merged into the current .config. Again after
# each patch: a patch that adds a Kconfig symbol (CONFIG_SMC_DUMP) is
# built with the value the fragments give it, not the default that
# olddefconfig gave the unknown symbol on the base tree.
configure() {
	KCONFIG_CONFIG=$obj/.config "$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" \
		"$top/kernel/config/base.config" "$top/kernel/$series/config/series.config" >/dev/null &&
	kmake -s olddefconfig >/dev/null
}
kmake -s tinyconfig >/dev/null || exit 1
configure 2>/dev/null || exit 1
log "make prepare"
kmake -s -j"$(nproc)" prepare >/dev/null 2>"$dir/prepare.log" || { cat "$dir/prepare.log" >&2; exit 1; }

# Debian 12's sparse (0.6.4) does not know __typeof_unqual__, which the
# kernel uses since 6.14: the kernel's checker-valid.sh then turns C= off
# with nothing but a make message, and a "checked" patch was never
# checked. sparse reads it as __typeof__, which is all that matters for
# its checks here.
sparse_cmd="sparse -D__typeof_unqual__=__typeof__"

# sparse_known: drop what that sparse reports of any kernel since 7.x, not
# of a patch: "bad constant expression" on a MODULE_*() line (the
# modinfo macros); every other diagnostic stays
sparse_known() {
	local l f n
	while IFS= read -r l; do
		if [[ $l =~ ^([^:]+):([0-9]+):[0-9]+:\ error:\ bad\ constant\ expression$ ]]; then
			f=${BASH_REMATCH[1]} n=${BASH_REMATCH[2]}
			sed -n "${n}p" "$f" 2>/dev/null | grep -q '^MODULE_' && continue
		fi
		printf '%s\n' "$l"
	done
}

# build_warnings OUT [all]: build net/smc/ with W=1, the compiler's and
# sparse's diagnostics to OUT, without line and column numbers. With
# "all", every file anew and through sparse (C=2: the base); without, what
# the last patch made make rebuild, each through sparse (C=1), so that a
# patch is checked on every file it changed or whose headers it changed,
# and sparse does not read the whole directory nine times. In the object
# tree $kobj when set, else $obj.
build_warnings() {
	local c=1
	if [ "${2:-}" = all ]; then
		rm -f "${kobj:-$obj}"/net/smc/*.o
		c=2
	fi
	# NOSPARSE=1: the compiler's W=1 only (the option-off builds: sparse
	# read the same code with the option on)
	[ "${NOSPARSE:-0}" = 1 ] && c=0
	kmake -j"$(nproc)" W=1 C=$c CHECK="$sparse_cmd" net/smc/ >"$1.raw" 2>&1
	local rc=$?
	# kbuild prints CHECK for each file sparse read: none in the full
	# build, no sparse
	if grep -q 'is not available or not up to date' "$1.raw" ||
	   { [ $c = 2 ] && ! grep -q '^ *CHECK ' "$1.raw"; }; then
		log "sparse did not run ($sparse_cmd): $(grep -m1 'not up to date' "$1.raw")"
		return 1
	fi
	grep -E '(warning|error):' "$1.raw" | sparse_known |
		sed -E -e "s#^($tree|${kobj:-$obj})/##" -e 's#:[0-9]+:[0-9]+:#:#' -e 's#:[0-9]+:#:#' | sort >"$1"
	return $rc
}

log "base: W=1 C=2 net/smc/"
build_warnings "$dir/base.warn" all || { log "the base tree does not build"; tail -20 "$dir/base.warn.raw" >&2; exit 1; }

# check_off NAME N: the tree as it is now with CONFIG_SMC_DUMP unset, in
# an object tree of its own ($dir/objoff, prepared on first use). It must
# build clean and build none of the dump: no smc_dump.o, no symbol of it
# or of the range sync only it uses in any object of net/smc (a hook left
# outside the option would leave one).
objoff=$dir/objoff
check_off() {
	local name=$1 n=$2 new syms
	if [ ! -e "$objoff/.config" ]; then
		mkdir -p "$objoff"
		cp "$obj/.config" "$objoff/.config"
	fi
	KCONFIG_CONFIG=$objoff/.config "$tree/scripts/kconfig/merge_config.sh" -m -O "$objoff" "$objoff/.config" \
		"$top/kernel/config/base.config" "$top/kernel/$series/config/series.config" >/dev/null 2>&1 || return 1
	"$tree/scripts/config" --file "$objoff/.config" -d SMC_DUMP
	kobj=$objoff kmake -s olddefconfig >/dev/null || return 1
	grep -q '^# CONFIG_SMC_DUMP is not set' "$objoff/.config" || { log "$name: CONFIG_SMC_DUMP cannot be turned off"; return 1; }
	if [ ! -e "$objoff/.prepared" ]; then
		kobj=$objoff kmake -s -j"$(nproc)" prepare >/dev/null 2>"$dir/prepare-off.log" ||
			{ cat "$dir/prepare-off.log" >&2; return 1; }
		: >"$objoff/.prepared"
	fi
	rm -f "$objoff/net/smc/smc_dump.o"
	log "$name: CONFIG_SMC_DUMP off: W=1 net/smc/"
	if ! kobj=$objoff NOSPARSE=1 build_warnings "$dir/off-$n.warn"; then
		log "$name does not build with CONFIG_SMC_DUMP off:"
		grep -E 'error' "$dir/off-$n.warn.raw" | head -20 >&2
		return 1
	fi
	new=$(comm -13 "$dir/base.warn" "$dir/off-$n.warn")
	if [ -n "$new" ]; then
		log "$name: with CONFIG_SMC_DUMP off, new warnings:"
		echo "$new" >&2
		return 1
	fi
	if [ -e "$objoff/net/smc/smc_dump.o" ]; then
		log "$name: with CONFIG_SMC_DUMP off, smc_dump.o was built"
		return 1
	fi
	syms=$(nm "$objoff"/net/smc/*.o 2>/dev/null | grep -E 'smc_dump|smc_dummy|sync_range_for_cpu|sync_sg_range' |
		grep -v 'smc_dump_context')
	if [ -n "$syms" ]; then
		log "$name: with CONFIG_SMC_DUMP off, net/smc still has dump symbols:"
		echo "$syms" >&2
		return 1
	fi
	offs=$((offs + 1))
}

fail=0
n=0
offs=0
for p in "$top"/kernel/"$series"/patches/*.patch; do
	case $(basename "$p") in 0000-*) continue ;; esac
	n=$((n + 1))
	if ! git -C "$tree" -c user.name=check -c user.email=check@localhost am -q "$p" >"$dir/patch-$n.log" 2>&1; then
		log "$(basename "$p") does not apply with git am:"
		cat "$dir/patch-$n.log" >&2
		exit 1
	fi
	configure 2>/dev/null || { log "$(basename "$p"): the config fragments do not merge"; exit 1; }
	log "$(basename "$p"): W=1 C=1 net/smc/"
	if ! build_warnings "$dir/patch-$n.warn"; then
		log "$(basename "$p") does not build:"
		grep -E 'error' "$dir/patch-$n.warn.raw" | head -20 >&2
		fail=1
		continue
	fi
	new=$(comm -13 "$dir/base.warn" "$dir/patch-$n.warn")
	if [ -n "$new" ]; then
		log "$(basename "$p") adds warnings:"
		echo "$new" >&2
		fail=1
	fi
	# kernel-doc on the series' own C files and headers as they are now
	files=$(cd "$tree" && ls net/smc/smc_dump.c net/smc/smc_dump.h include/uapi/linux/smc_dump.h 2>/dev/null)
	if [ -n "$files" ]; then
		kd=$(cd "$tree" && scripts/kernel-doc -none -Wall $files 2>&1)
		if [ -n "$kd" ]; then
			log "$(basename "$p"): kernel-doc:"
			echo "$kd" >&2
			fail=1
		fi
	fi
	# the same patch with the build option off, once the option exists
	if grep -q '^config SMC_DUMP$' "$tree/net/smc/Kconfig" && ! check_off "$(basename "$p")" "$n"; then
		fail=1
	fi
	# a patch that adds a kselftest: it builds on its own, no warning
	if git -C "$tree" show --stat --format= HEAD | grep -q 'tools/testing/selftests/net/smc/smc_dump'; then
		log "$(basename "$p"): the kselftest"
		if ! out=$(bash "$top/scripts/build-kselftest.sh" "$tree" "$dir/kselftest" 2>&1) ||
			grep -q 'warning:' <<<"$out"; then
			log "$(basename "$p"): the kselftest does not build clean:"
			echo "$out" | grep -E 'warning|error' >&2
			fail=1
		fi
	fi
done
[ "$n" -gt 0 ] || { log "no patches in kernel/$series/patches"; exit 1; }
if [ "$offs" -gt 0 ] && [ "$fail" = 0 ]; then
	log "CONFIG_SMC_DUMP off: $offs patches build clean, no smc_dump.o, no dump symbol in net/smc"
fi

# 32-bit: the whole series for i386 (W=1, CONFIG_SMC_DUMP on), as
# netdev's build_32bit check does. The base tree builds net/smc without a
# warning on x86_64, so any warning fails; and no 64-bit division may be
# left to libgcc (__udivdi3 and the like exist nowhere in the kernel).
obj32=$dir/obj32
kmake32() { make -C "$tree" O="$obj32" ARCH=i386 CC="$cc" HOSTCC=gcc "$@"; }
mkdir -p "$obj32"
log "i386: W=1 net/smc/"
if ! { kmake32 -s tinyconfig >/dev/null &&
       KCONFIG_CONFIG=$obj32/.config "$tree/scripts/kconfig/merge_config.sh" -m -O "$obj32" "$obj32/.config" \
		"$top/kernel/config/base.config" "$top/kernel/$series/config/series.config" >/dev/null 2>&1 &&
       kmake32 -s olddefconfig >/dev/null && kmake32 -s -j"$(nproc)" prepare >/dev/null 2>"$dir/prepare32.log"; }; then
	log "i386: the tree does not configure or prepare:"
	tail -20 "$dir/prepare32.log" >&2
	fail=1
elif ! kmake32 -j"$(nproc)" W=1 net/smc/ >"$dir/i386.raw" 2>&1 || grep -qE '(warning|error):' "$dir/i386.raw"; then
	log "i386: the series does not build clean:"
	grep -E '(warning|error):' "$dir/i386.raw" | head -20 >&2
	fail=1
elif ! grep -q '^CONFIG_SMC_DUMP=y' "$obj32/.config" 2>/dev/null && grep -q '^config SMC_DUMP$' "$tree/net/smc/Kconfig"; then
	log "i386: CONFIG_SMC_DUMP did not stay on"
	fail=1
elif libgcc=$(nm "$obj32"/net/smc/*.o | grep -E ' U __(u)?(div|mod)di3$| U __udivmoddi4$'); [ -n "$libgcc" ]; then
	log "i386: 64-bit divisions left to libgcc:"
	echo "$libgcc" >&2
	fail=1
else
	log "i386: builds clean with W=1, no libgcc division"
fi
[ $fail = 0 ] && log "$n patches: each applies, builds with W=1 and sparse without new warnings, kernel-doc clean"
exit $fail
