#!/bin/bash
# The Linux source smc-dump-dkms is made from: linux-source-6.12 of the
# point release the stock kernel bed boots ($STOCK_LINUX, Debian version
# $STOCK_DEBVER in scripts/stock-release.conf). Prints the path of its
# tarball.
#
#   stock-source.sh
#
# The host's own /usr/src/linux-source-6.12.tar.xz is used when it is that
# release. Otherwise (apt's default linux-source-6.12 moved on, as it does
# with each point release; the test kernel is built from that one) the
# package of $STOCK_DEBVER is fetched with apt-get download, never
# installed, and its tarball kept as build/stock/src/VER/linux-source-6.12.tar.xz
# (named as the directory it holds, which dkms-source.sh relies on).
# Exit status 1, with a message, when neither can be had.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/stock-release.conf"
log() { echo "stock-source: $*" >&2; }

# tar_version TARBALL: the Linux version of the top Makefile inside it,
# empty when there is none (awk stops reading early: tar's SIGPIPE is
# not an error)
tar_version() {
	{ tar -xJOf "$1" --wildcards '*/Makefile' --exclude='*/*/*' 2>/dev/null || true; } |
		awk '$1 == "VERSION" { v = $3 } $1 == "PATCHLEVEL" { p = $3 }
		     $1 == "SUBLEVEL" { s = $3; print v "." p "." s; exit }'
}

host=/usr/src/linux-source-6.12.tar.xz
hv=
[ ! -f "$host" ] || hv=$(tar_version "$host")
if [ "$hv" = "$STOCK_LINUX" ]; then
	echo "$host"
	exit 0
fi

cache=$top/build/stock/src/$STOCK_LINUX/linux-source-6.12.tar.xz
if [ ! -f "$cache" ]; then
	pkg=linux-source-6.12=$STOCK_DEBVER
	mkdir -p "$(dirname "$cache")"
	dl=$(mktemp -d "$(dirname "$cache")/dl.XXXXXX")
	trap 'rm -rf "$dl"' EXIT
	# apt-get download writes as user _apt when it can; root's dir
	chmod 755 "$dl"
	log "fetching $pkg (the host's linux-source-6.12 is ${hv:-absent})"
	if ! (cd "$dl" && apt-get download -q "$pkg" >&2); then
		log "cannot download $pkg; is bookworm-security in the apt sources and 'apt-get update' done?"
		exit 1
	fi
	dpkg-deb --fsys-tarfile "$dl"/*.deb |
		tar -xOf - ./usr/src/linux-source-6.12.tar.xz >"$dl/src.tar.xz"
	v=$(tar_version "$dl/src.tar.xz")
	[ "$v" = "$STOCK_LINUX" ] || { log "$pkg holds Linux '$v', not $STOCK_LINUX"; exit 1; }
	mv "$dl/src.tar.xz" "$cache"
fi
echo "$cache"
