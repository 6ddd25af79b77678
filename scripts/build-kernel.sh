#!/bin/bash
# Build the smc-dump test kernel: Debian's linux-source-6.12 (or
# KERNEL_SRC=DIR), plus kernel/patches/*.patch in order, configured from
# `make tinyconfig` and the fragments of the flavour:
#   test:  kernel/config/base.config + kernel/config/debug.config
#   bench: kernel/config/base.config + kernel/config/bench.config
# The result is cached under build/images/<hash>/ by a hash of the kernel
# version, the patches, the fragments and this script, so a second run does
# not rebuild. ccache speeds up what does get rebuilt.
# Prints the path of the bzImage on stdout; the build log goes to stderr.
set -euo pipefail

flavor=${1:-test}
top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
case $flavor in
test)	frags="$top/kernel/config/base.config $top/kernel/config/debug.config" ;;
bench)	frags="$top/kernel/config/base.config $top/kernel/config/bench.config" ;;
*)	echo "build-kernel: unknown flavour '$flavor' (test or bench)" >&2; exit 2 ;;
esac

if [ -n "${KERNEL_SRC:-}" ]; then
	[ -f "$KERNEL_SRC/Makefile" ] || { echo "build-kernel: KERNEL_SRC=$KERNEL_SRC is no kernel tree" >&2; exit 1; }
	src_id="dir:$(cd "$KERNEL_SRC" && pwd):$(make -s -C "$KERNEL_SRC" kernelversion)"
else
	tarball=$(ls /usr/src/linux-source-6.12.tar.xz 2>/dev/null || true)
	[ -n "$tarball" ] || { echo "build-kernel: /usr/src/linux-source-6.12.tar.xz missing: run 'make deps'" >&2; exit 1; }
	src_id="deb:$(dpkg-query -W -f='${Version}' linux-source-6.12)"
fi

patches=$(ls "$top"/kernel/patches/*.patch 2>/dev/null || true)
hash=$( { echo "$src_id $flavor"; cat $frags $patches "$0"; } | sha256sum | cut -c1-16)
out=$build/images/$flavor-$hash
if [ -f "$out/bzImage" ]; then
	echo "build-kernel: cached $out/bzImage" >&2
	ln -sfn "images/$flavor-$hash" "$build/kernel-$flavor"
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
		echo "build-kernel: rebase kernel/patches onto this kernel (kernel/README.md)" >&2
		exit 1
	fi
	patch -d "$tree" -p1 --forward --fuzz=0 --quiet <"$p" >&2
}

mkdir -p "$build"
# One source tree, re-laid when the source or the patches change; object
# trees per flavour (O=), at fixed paths so that ccache hits across rebuilds.
tree=$build/linux
tree_id=$( { echo "$src_id"; cat $patches; } | sha256sum | cut -c1-16)
if [ "$(cat "$tree/.smc-dump-tree" 2>/dev/null)" != "$tree_id" ]; then
	echo "build-kernel: laying out the source tree in $tree" >&2
	rm -rf "$tree" "$tree.new"
	mkdir -p "$tree.new"
	if [ -n "${KERNEL_SRC:-}" ]; then
		tar -C "$KERNEL_SRC" --exclude=.git -cf - . | tar -C "$tree.new" -xf -
	else
		tar -C "$tree.new" --strip-components=1 -xJf "$tarball"
	fi
	for p in $patches; do
		apply_patch "$tree.new" "$p"
	done
	echo "$tree_id" >"$tree.new/.smc-dump-tree"
	mv "$tree.new" "$tree"
fi

obj=$build/obj-$flavor
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
ln -sfn "images/$flavor-$hash" "$build/kernel-$flavor"
echo "$out/bzImage"
