#!/bin/bash
# The source tree smc-dump-dkms ships in /usr/src/smc-dump-VERSION: net/smc
# of Linux $STOCK_LINUX (scripts/stock-release.conf) taken from Debian's
# linux-source-6.12 of that point release, with kernel/6.12/patches applied
# here, at package build time, plus the uapi header the series adds and
# the build script DKMS runs (debian/dkms-build) and smc-interfaces.sha256:
# the checksums of Linux $STOCK_LINUX's headers that SMC alone owns, which
# dkms-build compares with those of the kernel it builds for.
#
#   dkms-source.sh OUTDIR
#
# Why the patched source travels in the package: DKMS builds at install
# time, often offline, and a series that fails to apply must fail on the
# developer's machine when the package is made, not on a user's. The
# series files go along (OUTDIR/patches) so that a user sees what the
# modules change; the pristine source is linux-source-6.12 of the same
# version.
#
# SMC_DUMP_LINUX_SOURCE=TARBALL overrides /usr/src/linux-source-6.12.tar.xz
# (make-deb.sh passes what scripts/stock-source.sh prints: the installed
# linux-source-6.12 may be a newer point release than the stock kernel);
# SMC_DUMP_SERIES=DIR takes the series from DIR instead of kernel/6.12/patches.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/stock-release.conf"
out=${1:?usage: dkms-source.sh OUTDIR}
tarball=${SMC_DUMP_LINUX_SOURCE:-/usr/src/linux-source-6.12.tar.xz}
series=${SMC_DUMP_SERIES:-$top/kernel/6.12/patches}
log() { echo "dkms-source: $*" >&2; }

[ -f "$tarball" ] || { log "no $tarball (bash scripts/stock-source.sh fetches Linux $STOCK_LINUX's)"; exit 1; }
rm -rf "$out"
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# net/smc, the top Makefile (its version) and every other file the series
# touches, from the one directory the tarball holds (linux-source-6.12/)
root=$(basename "$tarball" .tar.xz)
files=$(sed -n 's|^+++ b/||p' "$series"/*.patch | sort -u)
# the headers only SMC owns: what the kernel proper, SMC's drivers and
# user space share with net/smc
ifaces=(include/net/smc.h include/net/netns/smc.h include/linux/ism.h
	include/uapi/linux/smc.h include/uapi/linux/smc_diag.h)
want=("$root/Makefile" "$root/net/smc" "${ifaces[@]/#/$root/}")
for f in $files; do
	case $f in
	net/smc/*) ;;
	*) want+=("$root/$f") ;;
	esac
done
# files the series creates are not in the tarball: ask for what exists
tar -xJf "$tarball" -C "$tmp" --ignore-failed-read "${want[@]}" 2>/dev/null || true
src=$tmp/$root
[ -d "$src/net/smc" ] || { log "$tarball has no net/smc"; exit 1; }
ver=$(awk '$1 == "VERSION" { v = $3 } $1 == "PATCHLEVEL" { p = $3 }
	$1 == "SUBLEVEL" { s = $3 } END { print v "." p "." s }' "$src/Makefile")
if [ "$ver" != "$STOCK_LINUX" ]; then
	log "$tarball is Linux $ver; smc-dump-dkms serves $STOCK_LINUX (SMC_DUMP_LINUX_SOURCE=\$(bash scripts/stock-source.sh))"
	exit 1
fi
for p in "$series"/*.patch; do
	if ! patch -d "$src" -p1 --batch --forward -s <"$p" >"$tmp/patch.log" 2>&1; then
		cat "$tmp/patch.log" >&2
		log "$(basename "$p") does not apply to Linux $ver's net/smc"
		exit 1
	fi
done
# the header the series adds must be the project's (smc and the decoder
# are built from include/uapi/linux/smc_dump.h)
if ! cmp -s "$src/include/uapi/linux/smc_dump.h" "$top/include/uapi/linux/smc_dump.h"; then
	log "the series' include/uapi/linux/smc_dump.h differs from the project's"
	exit 1
fi

mkdir -p "$out/net" "$out/include/uapi/linux" "$out/patches"
cp -a "$src/net/smc" "$out/net/smc"
find "$out/net/smc" -name '*.orig' -delete
cp "$src/include/uapi/linux/smc_dump.h" "$out/include/uapi/linux/"
cp "$series"/*.patch "$out/patches/"
for f in "${ifaces[@]}"; do
	[ -f "$src/$f" ] || { log "$tarball has no $f"; exit 1; }
	echo "$(sha256sum <"$src/$f" | awk '{ print $1 }') $f"
done >"$out/smc-interfaces.sha256"
sed -e "s/@STOCK_LINUX@/$STOCK_LINUX/g" -e "s/@STOCK_ABI@/$STOCK_ABI/g" \
	-e "s/@STOCK_OLDEST@/$STOCK_OLDEST/g" "$top/debian/dkms-build" >"$out/dkms-build"
chmod 755 "$out/dkms-build"
echo "$ver" >"$out/LINUX_VERSION"
log "Linux $ver net/smc with $(ls "$series"/*.patch | wc -l) patches in $out"
