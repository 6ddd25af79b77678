#!/bin/bash
# The Linux source of the mainline series: $MAINLINE_PKG at $MAINLINE_DEBVER
# from $MAINLINE_SUITE (kernel/mainline/source.conf). Prints the path of
# its tarball, kept as build/mainline/src/$MAINLINE_DEBVER/linux-source.tar.xz
# (by the Debian version: a new upload of the same Linux release may carry
# other Debian patches).
#
#   mainline-source.sh
#
# Debian 12's apt sources do not name $MAINLINE_SUITE, and adding it there
# would offer the machine a newer distribution's packages. The package is
# fetched instead under a private apt state (scripts/apt-suite.sh,
# build/apt/SUITE: its own sources list, lists and cache): the same mirror
# as the machine's bookworm entry, the same keyring, so apt checks the
# suite's signature as it would for its own. Nothing is installed. Runs as
# any user; concurrent runs take turns (a lock in build/mainline).
# Exit status 1, with a message, when the package cannot be had.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/kernel/mainline/source.conf"
. "$top/scripts/apt-mirror.sh"
. "$top/scripts/apt-suite.sh"
log() { echo "mainline-source: $*" >&2; }

cache=$top/build/mainline/src/$MAINLINE_DEBVER/linux-source.tar.xz
if [ -f "$cache" ]; then
	echo "$cache"
	exit 0
fi

# One run at a time: two would share the private apt state below. The
# second waits for the first, then finds its tarball.
mkdir -p "$top/build/mainline"
exec 9>"$top/build/mainline/.source.lock"
if ! flock -n 9; then
	log "another mainline-source.sh runs; waiting for it"
	flock 9
fi
if [ -f "$cache" ]; then
	echo "$cache"
	exit 0
fi

mkdir -p "$(dirname "$cache")"
dl=$(mktemp -d "$(dirname "$cache")/dl.XXXXXX")
trap 'rm -rf "$dl"' EXIT
chmod 755 "$dl"
log "fetching $MAINLINE_PKG=$MAINLINE_DEBVER from $MAINLINE_SUITE"
if ! suite_download "$MAINLINE_SUITE" "$dl" "$MAINLINE_PKG=$MAINLINE_DEBVER"; then
	log "cannot download $MAINLINE_PKG=$MAINLINE_DEBVER from $MAINLINE_SUITE: if the suite moved on, set kernel/mainline/source.conf to a version it has (apt-cache $(suite_apt "$MAINLINE_SUITE" | tr '\n' ' ')policy $MAINLINE_PKG) and rebase kernel/mainline/patches (kernel/README.md)"
	exit 1
fi
dpkg-deb --fsys-tarfile "$dl"/*.deb | tar -xOf - "./usr/src/$MAINLINE_PKG.tar.xz" >"$dl/src.tar.xz"
v=$( { tar -xJOf "$dl/src.tar.xz" --wildcards '*/Makefile' --exclude='*/*/*' 2>/dev/null || true; } |
	awk '$1 == "VERSION" { v = $3 } $1 == "PATCHLEVEL" { p = $3 }
	     $1 == "SUBLEVEL" { print v "." p "." $3; exit }')
[ "$v" = "$MAINLINE_LINUX" ] || { log "$MAINLINE_PKG=$MAINLINE_DEBVER holds Linux '$v', not $MAINLINE_LINUX"; exit 1; }
mv "$dl/src.tar.xz" "$cache"
echo "$cache"
