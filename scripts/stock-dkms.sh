#!/bin/bash
# The DKMS modules for the stock-kernel bed: what `dkms install` of
# smc-dump-dkms does on a user's machine, done without touching the host.
#
#   stock-dkms.sh DKMS_DEB     print the lib/ dir for run-vm --stock-lib
#   stock-dkms.sh --tree       the same, from this work tree without a .deb
#   stock-dkms.sh --headers KVER [SUITE]
#                              the --tree build for another kernel of the
#                              line, against its headers alone (no image, no
#                              module tree): prints the directory holding
#                              smc.ko and smc_diag.ko; exit 1 with
#                              dkms-build's message where it refuses KVER
#                              (testsuite/host/dkms-point.bats)
#
# --tree (make demo) lays out the source tree the package would ship with
# scripts/dkms-source.sh, and its dkms.conf from debian/smc-dump-dkms.dkms
# as debian/rules and dh_dkms fill it in, then builds it exactly as from
# the .deb (step 2): the user's build, the same command, without
# dpkg-buildpackage, lintian and their build dependencies, which take
# minutes and show nothing the demo shows. Its results live apart
# (dkms-tree*/, demo-dkms/), so that it and the .deb's never overwrite
# each other.
#
# 1. linux-headers-KVER with its -common and linux-kbuild packages are
#    unpacked (scripts/kernel-headers.sh, build/headers/KVER): installing
#    them would pull Debian's linux-image into the host's /boot.
# 2. The source tree the .deb ships (usr/src/smc-dump-VERSION) is copied
#    and built with its own dkms-build, the command its dkms.conf gives
#    DKMS, against those headers.
# 3. build/stock/KVER/dkms/lib/modules/KVER (demo-dkms/ for --tree) is the package's module tree
#    (hard links) plus updates/dkms/{smc,smc_diag}.ko, with depmod run
#    over it: modprobe there prefers updates/, as on an installed system.
#
# The kernel is the one scripts/stock-kernel.sh --dir names (its default,
# or SMC_DUMP_STOCK_KVER).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/stock-release.conf"
arg=${1:?usage: stock-dkms.sh SMC-DUMP-DKMS.deb | --tree | --headers KVER [SUITE]}
log() { echo "stock-dkms: $*" >&2; }
if [ "$arg" = --headers ]; then
	kver=${2:?usage: stock-dkms.sh --headers KVER [SUITE]}
	[[ $kver =~ ^[0-9a-z.+-]+$ ]] || { log "'$kver' is no kernel release"; exit 2; }
	sdir=$top/build/dkms-point/$kver
	ksrc=$("$top/scripts/kernel-headers.sh" "$kver" ${3:+"$3"})
else
	sdir=$("$top/scripts/stock-kernel.sh" --dir)
	kver=$(basename "$sdir")
	ksrc=$("$top/scripts/kernel-headers.sh" "$kver")
fi

if [ "$arg" = --tree ] || [ "$arg" = --headers ]; then
	pkg=$sdir/dkms-tree
	build=$sdir/dkms-tree-build
	outd=$sdir/demo-dkms
	[ "$arg" = --tree ] || outd=$sdir/modules
	# cached: the same inputs of dkms-source.sh, dkms.conf and this
	# script give the same modules
	stamp=$(cd "$top" && cat kernel/6.12/patches/*.patch debian/dkms-build \
		debian/smc-dump-dkms.dkms debian/changelog include/uapi/linux/smc_dump.h \
		scripts/dkms-source.sh scripts/dkms-kernels-re.sh scripts/stock-release.conf "$0" |
		sha256sum | awk '{ print $1 }')
else
	deb=$(realpath "$arg")
	pkg=$sdir/dkms-pkg
	build=$sdir/dkms-build
	outd=$sdir/dkms
	# cached: the same .deb (and this script) gives the same modules
	stamp="$(sha256sum "$deb" "$0" | awk '{ print $1 }' | tr '\n' ' ')"
fi
if [ "$(cat "$outd/.stamp" 2>/dev/null)" = "$stamp" ]; then
	if [ "$arg" = --headers ]; then echo "$outd"; else echo "$outd/lib"; fi
	exit 0
fi

rm -rf "$pkg"
if [ -z "${deb:-}" ]; then
	ver=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
	src=$pkg/usr/src/smc-dump-$ver
	ksource=$(bash "$top/scripts/stock-source.sh")
	SMC_DUMP_LINUX_SOURCE=$ksource bash "$top/scripts/dkms-source.sh" "$src"
	# dkms.conf as debian/rules makes it: dh_dkms -V puts in the
	# version, override_dh_dkms the kernels served
	re=$(bash "$top/scripts/dkms-kernels-re.sh")
	sed -e "s/#MODULE_VERSION#/$ver/" -e "s/@STOCK_ABI_RE@/$(printf '%s' "$re" | sed 's/\\/\\\\/g')/" \
		"$top/debian/smc-dump-dkms.dkms" >"$src/dkms.conf"
else
	dpkg-deb -x "$deb" "$pkg"
fi
src=$(ls -d "$pkg"/usr/src/smc-dump-*)
[ -f "$src/dkms.conf" ] || { log "${deb:-the tree} has no usr/src/smc-dump-*/dkms.conf"; exit 1; }
rm -rf "$build"
cp -a "$src" "$build"
# DKMS builds only where BUILD_EXCLUSIVE_KERNEL matches (bash's =~, as
# DKMS tests it): the carried point release and newer ones of the line
# must match, Debian 12's 6.1 (whose headers dkms's Recommends pull in),
# point releases older than $STOCK_OLDEST and other lines not
excl=$(cd "$build" && bash -c '. ./dkms.conf; printf "%s" "$BUILD_EXCLUSIVE_KERNEL"')
[ -n "$excl" ] || { log "dkms.conf has no BUILD_EXCLUSIVE_KERNEL"; exit 1; }
line=${STOCK_LINUX%.*}
for k in "$STOCK_ABI-amd64" "$STOCK_LINUX+deb13-cloud-amd64" "$line.$STOCK_OLDEST+deb12-amd64" \
	"$line.$((${STOCK_LINUX##*.} + 1))+deb13-amd64" "$line.1000+deb12-amd64"; do
	[[ $k =~ $excl ]] ||
		{ log "dkms.conf's BUILD_EXCLUSIVE_KERNEL '$excl' does not match $k, which it serves"; exit 1; }
done
for k in 6.1.0-41-amd64 "$line.$((STOCK_OLDEST - 1))+deb12-amd64" "$line.0$STOCK_OLDEST+deb12-amd64" \
	"$STOCK_LINUX+deb11-amd64" "$STOCK_LINUX-amd64" "$line.$STOCK_LINUX+deb13-amd64" \
	"${STOCK_ABI//./x}-amd64" "x$STOCK_ABI-amd64" 7.3.4+deb13-amd64; do
	[[ ! $k =~ $excl ]] ||
		{ log "dkms.conf's BUILD_EXCLUSIVE_KERNEL '$excl' matches $k, which it does not serve"; exit 1; }
done
# --headers: DKMS skips a kernel it does not match, and so does this
if [ "$arg" = --headers ] && [[ ! $kver =~ $excl ]]; then
	log "dkms.conf's BUILD_EXCLUSIVE_KERNEL '$excl' does not match $kver: DKMS skips it"
	exit 1
fi
# the command dkms.conf gives DKMS, with DKMS's variables
make_cmd=$(cd "$build" && kernelver=$kver kernel_source_dir=$ksrc bash -c '. ./dkms.conf; echo "${MAKE[0]}"')
log "building in $build: $make_cmd"
# on every CPU (dkms-build's make takes MAKEFLAGS from the environment)
t0=$(date +%s)
(cd "$build" && MAKEFLAGS="-j$(nproc) ${MAKEFLAGS:-}" && export MAKEFLAGS && eval "$make_cmd") >"$build.log" 2>&1 ||
	{ tail -30 "$build.log" >&2; log "the DKMS build failed (log: $build.log)"; exit 1; }
log "built in $(($(date +%s) - t0)) s"
if [ "$arg" = --headers ]; then
	rm -rf "$outd"
	mkdir -p "$outd"
	cp "$build/net/smc/smc.ko" "$build/net/smc/smc_diag.ko" "$build.log" "$outd/"
	echo "$stamp" >"$outd/.stamp"
	echo "$outd"
	exit 0
fi

rm -rf "$outd"
lib=$outd/lib
mkdir -p "$lib/modules"
cp -al "$sdir/root/lib/modules/$kver" "$lib/modules/$kver"
rm -f "$lib/modules/$kver"/modules.*
cp "$sdir/root/lib/modules/$kver"/modules.{order,builtin,builtin.modinfo} "$lib/modules/$kver/"
mkdir -p "$lib/modules/$kver/updates/dkms"
install -m 644 "$build/net/smc/smc.ko" "$build/net/smc/smc_diag.ko" "$lib/modules/$kver/updates/dkms/"
depmod -b "$outd" -F "$sdir/root/boot/System.map-$kver" "$kver"
echo "$stamp" >"$outd/.stamp"
echo "$lib"
