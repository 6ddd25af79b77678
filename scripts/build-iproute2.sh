#!/bin/bash
# Build iproute2's ip (and rdma, for Soft-RoCE) with smc-dummy support
# linked in: Debian bookworm's iproute2 source (apt-get source, download
# only) or a copy of IPROUTE2_SRC=DIR, plus
#   ip/iplink_smc_dummy.c              copied into the tree's ip/, added to IPOBJ
#   include/uapi/linux/smc_dump.h      copied into the tree's include/uapi/linux/
#   man/iproute2-ip-link.8.in.patch    applied to the tree's man/man8/ip-link.8.in
# The tree is build/iproute2, so the result is build/iproute2/ip/ip. Cached:
# nothing is rebuilt while the source version, those three files and this
# script are unchanged; a change of our files alone rebuilds incrementally.
# The Debian source files are kept in build/iproute2-deb/, so that only the
# first run needs the Debian mirror.
#
#   build-iproute2.sh          build; print the path of ip on stdout
#   build-iproute2.sh --tree   only lay out the tree (for the headers the ip
#                              plugin is compiled against); print its path
# Logs go to stderr.
set -euo pipefail

mode=build
case ${1:-} in
"")	;;
--tree)	mode=tree ;;
*)	echo "build-iproute2: unknown argument '$1' (--tree or nothing)" >&2; exit 2 ;;
esac

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build
tree=$build/iproute2
ours_c=$top/ip/iplink_smc_dummy.c
ours_h=$top/include/uapi/linux/smc_dump.h
ours_man=$top/man/iproute2-ip-link.8.in.patch
log() { echo "build-iproute2: $*" >&2; }

if [ -n "${IPROUTE2_SRC:-}" ]; then
	[ -f "$IPROUTE2_SRC/ip/iplink.c" ] && [ -f "$IPROUTE2_SRC/include/version.h" ] || {
		log "IPROUTE2_SRC=$IPROUTE2_SRC is no iproute2 tree"; exit 1; }
	src=$(cd "$IPROUTE2_SRC" && pwd)
	# The version alone does not identify a work tree: hash what is built.
	content=$(cd "$src" && find . -path ./.git -prune -o -type f \
		\( -name '*.[chly]' -o -name 'Makefile' -o -name 'configure' -o -name '*.in' \) \
		-print | LC_ALL=C sort | xargs -d '\n' sha256sum | sha256sum | cut -c1-16)
	src_id="dir:$src:$(sed -n 's/.*"\(.*\)".*/\1/p' "$src/include/version.h"):$content"
else
	# The .dsc that apt-get source would fetch names the version; the
	# package lists answer this without the network.
	dsc=$(apt-get source --print-uris iproute2 2>/dev/null |
		sed -n "s/^'[^']*' \(iproute2_[^ ]*\.dsc\) .*/\1/p" | head -n 1)
	[ -n "$dsc" ] || {
		log "apt knows no iproute2 source package: deb-src for bookworm missing? run 'make deps'"
		exit 1; }
	src_id="deb:${dsc%.dsc}"
fi

tree_id=$( { echo "$src_id"; cat "$ours_man" "$0"; } | sha256sum | cut -c1-16)
inputs=$( { echo "$tree_id"; cat "$ours_c" "$ours_h"; } | sha256sum | cut -c1-16)

mkdir -p "$build"
# One run at a time (make -j may start the plugin's --tree and a build).
exec 9>"$build/.iproute2.lock"
flock 9

if [ "$mode" = build ] && [ -x "$tree/ip/ip" ] &&
   [ "$(cat "$tree/.smc-dump-inputs" 2>/dev/null)" = "$inputs" ]; then
	log "cached $tree/ip/ip"
	echo "$tree/ip/ip"
	exit 0
fi

# Lay out the tree when the source, the man patch or this script changed.
if [ "$(cat "$tree/.smc-dump-tree" 2>/dev/null)" != "$tree_id" ]; then
	log "laying out $tree from $src_id"
	rm -rf "$tree" "$tree.new"
	mkdir -p "$tree.new"
	if [ -n "${IPROUTE2_SRC:-}" ]; then
		tar -C "$src" --exclude=.git -cf - . | tar -C "$tree.new" -xf -
		# A tree the user built in: start from clean objects.
		make -s -C "$tree.new" distclean >&2 2>/dev/null || true
	else
		dl=$build/iproute2-deb/${dsc%.dsc}
		if [ ! -f "$dl/$dsc" ]; then
			log "fetching the source package (apt-get source, download only)"
			rm -rf "$dl.tmp"
			mkdir -p "$dl.tmp"
			(cd "$dl.tmp" && apt-get source --download-only iproute2) >&2
			rm -rf "$dl"
			mv "$dl.tmp" "$dl"
		fi
		# dpkg-source applies Debian's patches, as the distribution's ip has them.
		rmdir "$tree.new"
		dpkg-source --no-copy -x "$dl/$dsc" "$tree.new" >&2
	fi

	# Link the smc-dummy link_util into ip.
	grep -q '^IPOBJ=' "$tree.new/ip/Makefile" || {
		log "no IPOBJ= line in $tree.new/ip/Makefile"; exit 1; }
	sed -i 's/^IPOBJ=/IPOBJ=iplink_smc_dummy.o /' "$tree.new/ip/Makefile"
	log "applying $(basename "$ours_man")"
	patch -d "$tree.new" -p1 --forward --no-backup-if-mismatch <"$ours_man" >&2
	echo "$tree_id" >"$tree.new/.smc-dump-tree"
	mv "$tree.new" "$tree"
fi

# Our files, copied only when they differ, so make sees what changed.
put() {	# $1 source, $2 destination
	cmp -s "$1" "$2" || cp "$1" "$2"
}
put "$ours_c" "$tree/ip/iplink_smc_dummy.c"
put "$ours_h" "$tree/include/uapi/linux/smc_dump.h"

if [ "$mode" = tree ]; then
	echo "$tree"
	exit 0
fi

rm -f "$tree/.smc-dump-inputs"
# iproute2's Makefiles do not track headers: rebuild our object each time.
rm -f "$tree/ip/iplink_smc_dummy.o"

export CCACHE_BASEDIR=$build CCACHE_DIR=${CCACHE_DIR:-${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}/.cache/ccache}
cc=gcc
command -v ccache >/dev/null && cc="ccache gcc"
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)

start=$(date +%s)
if [ ! -f "$tree/config.mk" ]; then
	# Debian's paths, so that this ip looks for plugins where Debian's does.
	# configure writes CC into config.mk, which the sub-makes use.
	(cd "$tree" && CC="$cc" ./configure --prefix=/usr --libdir="/usr/lib/$multiarch") >&2
fi
# lib, ip, rdma (Soft-RoCE) and the man pages; the other tools are not used.
# MAKEOVERRIDES= keeps SUBDIRS from the sub-makes (man/ has its own).
if ! make -C "$tree" -j"$(nproc)" SUBDIRS="lib ip rdma man" MAKEOVERRIDES= 2>&1 |
	tee "$tree/build.log" >&2; then
	log "make failed, see $tree/build.log"
	exit 1
fi
if grep -n 'iplink_smc_dummy\.c:.*warning' "$tree/build.log" >&2; then
	log "warnings in iplink_smc_dummy.c"
	exit 1
fi
[ -x "$tree/ip/ip" ] && [ -x "$tree/rdma/rdma" ] || { log "ip or rdma not built"; exit 1; }
log "built in $(( $(date +%s) - start )) s"
echo "$inputs" >"$tree/.smc-dump-inputs"
echo "$tree/ip/ip"
