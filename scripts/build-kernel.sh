#!/bin/bash
# Build an smc-dump test kernel from one of the two kernel series
# (KERNEL_SERIES, default 6.12):
#   6.12:     Debian's linux-source-6.12 (or KERNEL_SRC=DIR) plus
#             kernel/6.12/patches/*.patch
#   mainline: the Debian package kernel/mainline/source.conf names
#             (scripts/mainline-source.sh) plus kernel/mainline/patches/*.patch
# configured from `make tinyconfig`, kernel/config/base.config,
# kernel/<series>/config/series.config and the fragment of the flavour:
#   test:  kernel/config/debug.config (KASAN, lockdep, kmemleak)
#   bench: kernel/config/bench.config
#   plain: nothing more (no debug options: the mainline tier)
# The result is cached under build/images/<series>-<flavour>-<hash>/ (6.12:
# <flavour>-<hash>) by a hash of the kernel version, the patches, the
# fragments and this script, so a second run does not rebuild. ccache
# speeds up what does get rebuilt. build/kernel-<flavour> (mainline:
# build/kernel-mainline-<flavour>) points at the newest build.
# Prints the path of the bzImage on stdout; the build log goes to stderr.
set -euo pipefail

flavor=${1:-test}
series=${KERNEL_SERIES:-6.12}
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
case $series in
6.12|mainline)	;;
*)	echo "build-kernel: unknown KERNEL_SERIES '$series' (6.12 or mainline)" >&2; exit 2 ;;
esac
frags="$top/kernel/config/base.config $top/kernel/$series/config/series.config"
case $flavor in
test)	frags+=" $top/kernel/config/debug.config" ;;
bench)	frags+=" $top/kernel/config/bench.config" ;;
plain)	;;
*)	echo "build-kernel: unknown flavour '$flavor' (test, bench or plain)" >&2; exit 2 ;;
esac

if [ -n "${KERNEL_SRC:-}" ]; then
	[ -f "$KERNEL_SRC/Makefile" ] || { echo "build-kernel: KERNEL_SRC=$KERNEL_SRC is no kernel tree" >&2; exit 1; }
	src_id="dir:$(cd "$KERNEL_SRC" && pwd):$(make -s -C "$KERNEL_SRC" kernelversion)"
elif [ "$series" = mainline ]; then
	tarball=$(bash "$top/scripts/mainline-source.sh")
	src_id="deb:$(. "$top/kernel/mainline/source.conf" && echo "$MAINLINE_PKG=$MAINLINE_DEBVER")"
else
	tarball=$(ls /usr/src/linux-source-6.12.tar.xz 2>/dev/null || true)
	[ -n "$tarball" ] || { echo "build-kernel: /usr/src/linux-source-6.12.tar.xz missing: run 'make deps'" >&2; exit 1; }
	src_id="deb:$(dpkg-query -W -f='${Version}' linux-source-6.12)"
fi

# 6.12 keeps the names it had before the mainline series came (ccache's
# hits depend on the object tree's path)
if [ "$series" = 6.12 ]; then
	name=$flavor tree=$build/linux obj=$build/obj-$flavor
else
	name=$series-$flavor tree=$build/linux-$series obj=$build/obj-$series-$flavor
fi
# the patches in order; a cover letter (0000-cover-letter.patch) is mail only
patches=$(ls "$top"/kernel/$series/patches/*.patch 2>/dev/null | grep -v '/0000-[^/]*$' || true)
hash=$( { echo "$src_id $flavor"; cat $frags $patches "$0"; } | sha256sum | cut -c1-16)
out=$build/images/$name-$hash
if [ -f "$out/bzImage" ]; then
	echo "build-kernel: cached $out/bzImage" >&2
	ln -sfn "images/$name-$hash" "$build/kernel-$name"
	echo "$out/bzImage"
	exit 0
fi

# apply_patch TREE PATCH: exactly, or not at all. A newer point release
# whose context moved is refused (no fuzz), naming the patch, the file and
# the hunk, before anything is changed.
apply_patch() {
	local tree=$1 p=$2 out
	echo "build-kernel: applying $(basename "$p")" >&2
	if ! out=$(patch -d "$tree" -p1 --forward --fuzz=0 --dry-run <"$p" 2>&1); then
		echo "build-kernel: $(basename "$p") does not apply to $src_id without fuzz:" >&2
		echo "$out" | awk '/^(checking|patching) file / { f = $3 } /FAILED|fuzz|malformed|Reversed|missing/ { print "build-kernel:   " f ": " $0 }' >&2
		echo "build-kernel: rebase kernel/$series/patches onto this kernel (kernel/README.md)" >&2
		exit 1
	fi
	patch -d "$tree" -p1 --forward --fuzz=0 --quiet <"$p" >&2
}

mkdir -p "$build"
# One source tree per series, re-laid when the source or the patches
# change; object trees per flavour (O=), at fixed paths so that ccache hits
# across rebuilds.
tree_id=$( { echo "$src_id"; cat $patches; } | sha256sum | cut -c1-16)
if [ "$(cat "$tree/.smc-dump-tree" 2>/dev/null)" != "$tree_id" ]; then
	echo "build-kernel: laying out the source tree in $tree" >&2
	rm -rf "$tree" "$tree.new"
	mkdir -p "$tree.new"
	if [ -n "${KERNEL_SRC:-}" ]; then
		tar -C "$KERNEL_SRC" --exclude=.git -cf - . | tar -C "$tree.new" --touch -xf -
	else
		# --touch: files the patches no longer change must not look
		# older than their objects from an earlier series (ccache makes
		# the rebuild cheap)
		tar -C "$tree.new" --strip-components=1 --touch -xJf "$tarball"
	fi
	for p in $patches; do
		apply_patch "$tree.new" "$p"
	done
	echo "$tree_id" >"$tree.new/.smc-dump-tree"
	mv "$tree.new" "$tree"
fi

mkdir -p "$obj"
export CCACHE_BASEDIR=$build CCACHE_DIR=${CCACHE_DIR:-${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}/.cache/ccache}
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-5G} KBUILD_BUILD_TIMESTAMP="smc-dump" KBUILD_BUILD_USER=smc-dump KBUILD_BUILD_HOST=smc-dump
cc="gcc"
command -v ccache >/dev/null && cc="ccache gcc"
kmake() { make -C "$tree" O="$obj" ARCH=x86_64 CC="$cc" HOSTCC=gcc "$@"; }

kmake -s tinyconfig >&2
KCONFIG_CONFIG=$obj/.config "$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" $frags >&2
kmake -s olddefconfig >&2
# Kconfig drops what it cannot satisfy; say so instead of booting without it.
missing=0
for f in $frags; do
	while read -r line; do
		case $line in
		CONFIG_*=*)	grep -qxF "$line" "$obj/.config" || { echo "build-kernel: $line did not stick" >&2; missing=1; } ;;
		"# CONFIG_"*" is not set")
				opt=${line#\# }; opt=${opt%% *}
				grep -q "^$opt=" "$obj/.config" && { echo "build-kernel: $opt is still set" >&2; missing=1; } ;;
		esac
	done <"$f"
done
[ $missing = 0 ] || exit 1

start=$(date +%s)
kmake -j"$(nproc)" bzImage >&2
echo "build-kernel: built in $(( $(date +%s) - start )) s" >&2
mkdir -p "$out.new"
cp "$obj/arch/x86/boot/bzImage" "$obj/.config" "$out.new/"
cp "$obj/System.map" "$out.new/" 2>/dev/null || true
rm -rf "$out"
mv "$out.new" "$out"
ln -sfn "images/$name-$hash" "$build/kernel-$name"
echo "$out/bzImage"
