#!/bin/bash
# The DKMS modules for the stock-kernel bed: what `dkms install` of
# smc-dump-dkms does on a user's machine, done without touching the host.
#
#   stock-dkms.sh DKMS_DEB     print the lib/ dir for run-vm --stock-lib
#
# 1. linux-headers-KVER with its -common and linux-kbuild packages are
#    unpacked (scripts/kernel-headers.sh, build/headers/KVER): installing
#    them would pull Debian's linux-image into the host's /boot.
# 2. The source tree the .deb ships (usr/src/smc-dump-VERSION) is copied
#    and built with its own dkms-build, the command its dkms.conf gives
#    DKMS, against those headers.
# 3. build/stock/KVER/dkms/lib/modules/KVER is the package's module tree
#    (hard links) plus updates/dkms/{smc,smc_diag}.ko, with depmod run
#    over it: modprobe there prefers updates/, as on an installed system.
#
# The kernel is the one scripts/stock-kernel.sh --dir names (its default,
# or SMC_DUMP_STOCK_KVER).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
deb=$(realpath "${1:?usage: stock-dkms.sh SMC-DUMP-DKMS.deb}")
sdir=$("$top/scripts/stock-kernel.sh" --dir)
kver=$(basename "$sdir")
log() { echo "stock-dkms: $*" >&2; }

ksrc=$("$top/scripts/kernel-headers.sh" "$kver")

# cached: the same .deb (and this script) gives the same modules
stamp="$(sha256sum "$deb" "$0" | awk '{ print $1 }' | tr '\n' ' ')"
if [ "$(cat "$sdir/dkms/.stamp" 2>/dev/null)" = "$stamp" ]; then
	echo "$sdir/dkms/lib"
	exit 0
fi

pkg=$sdir/dkms-pkg
rm -rf "$pkg"
dpkg-deb -x "$deb" "$pkg"
src=$(ls -d "$pkg"/usr/src/smc-dump-*)
[ -f "$src/dkms.conf" ] || { log "$deb has no usr/src/smc-dump-*/dkms.conf"; exit 1; }
build=$sdir/dkms-build
rm -rf "$build"
cp -a "$src" "$build"
# DKMS builds only where BUILD_EXCLUSIVE_KERNEL matches (bash's =~, as
# DKMS tests it): the served kernel must match, Debian 12's 6.1 (whose
# headers dkms's Recommends pull in) and other 6.12 point releases not
excl=$(cd "$build" && bash -c '. ./dkms.conf; printf "%s" "$BUILD_EXCLUSIVE_KERNEL"')
[ -n "$excl" ] || { log "dkms.conf has no BUILD_EXCLUSIVE_KERNEL"; exit 1; }
[[ $kver =~ $excl ]] ||
	{ log "dkms.conf's BUILD_EXCLUSIVE_KERNEL '$excl' does not match the served $kver"; exit 1; }
for k in 6.1.0-41-amd64 6.12.116+deb12-amd64 "${kver//./x}" "x$kver"; do
	[[ ! $k =~ $excl ]] ||
		{ log "dkms.conf's BUILD_EXCLUSIVE_KERNEL '$excl' matches $k, which it does not serve"; exit 1; }
done
# the command dkms.conf gives DKMS, with DKMS's variables
make_cmd=$(cd "$build" && kernelver=$kver kernel_source_dir=$ksrc bash -c '. ./dkms.conf; echo "${MAKE[0]}"')
log "building in $build: $make_cmd"
(cd "$build" && eval "$make_cmd") >"$sdir/dkms-make.log" 2>&1 ||
	{ tail -30 "$sdir/dkms-make.log" >&2; log "the DKMS build failed (log: $sdir/dkms-make.log)"; exit 1; }

rm -rf "$sdir/dkms"
lib=$sdir/dkms/lib
mkdir -p "$lib/modules"
cp -al "$sdir/root/lib/modules/$kver" "$lib/modules/$kver"
rm -f "$lib/modules/$kver"/modules.*
cp "$sdir/root/lib/modules/$kver"/modules.{order,builtin,builtin.modinfo} "$lib/modules/$kver/"
mkdir -p "$lib/modules/$kver/updates/dkms"
install -m 644 "$build/net/smc/smc.ko" "$build/net/smc/smc_diag.ko" "$lib/modules/$kver/updates/dkms/"
depmod -b "$sdir/dkms" -F "$sdir/root/boot/System.map-$kver" "$kver"
echo "$stamp" >"$sdir/dkms/.stamp"
echo "$lib"
