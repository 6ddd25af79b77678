#!/bin/bash
# make deb: the Debian packages smc-dump and smc-dump-dkms, built with
# dpkg-buildpackage -b from a copy of the tracked files in build/deb/ (so
# that the .debs land in build/deb/, not next to the clone), then checked
# with lintian. The ip plugin is built against the iproute2 tree of the
# distribution's source package (build-iproute2.sh --tree); smc-dump-dkms
# from the Linux source scripts/stock-source.sh names.
# SMC_DUMP_SERIES=DIR (scripts/dkms-source.sh) builds smc-dump-dkms with
# another series, e.g. one in progress.
#
#   make-deb.sh                    the build machine's architecture
#   make-deb.sh ARCH...            those (amd64 arm64 s390x: make deb
#                                  DEB_ARCHS="amd64 arm64 s390x")
# Another architecture than the build machine's: dpkg-buildpackage -a ARCH
# -B (smc-dump only: smc-dump-dkms is arch all, built with the native
# package) with Debian's cross compiler on scripts/deps.sh cross's sysroot
# of ARCH (-d: the Build-Depends of ARCH are unpacked there, not
# installed; debian/rules), the bpf backend as scripts/cross-build.sh
# builds it, smc dump graph left out (no cairo of ARCH there). Every
# smc-dump .deb is checked: its Architecture and its smc's ELF machine
# (scripts/deb-arch-check.sh); lintian on every .changes.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
ver=$(dpkg-parsechangelog -l debian/changelog -S Version)
out=$top/build/deb
src=$out/smc-dump-$ver

native=$(dpkg --print-architecture)
archs=${*:-$native}
case " $archs " in
*" $native "*)	;;
*)	echo "make-deb: the architectures must include $native (smc-dump-dkms is built with it)" >&2
	exit 2 ;;
esac

tree=$(bash scripts/build-iproute2.sh --tree)
# net/smc for smc-dump-dkms: linux-source-6.12 of the stock release, which
# need not be the one installed (scripts/stock-source.sh)
ksrc=$(bash scripts/stock-source.sh)
rm -rf "$out"
mkdir -p "$src"
git ls-files -z | tar --null -T - -cf - | tar -C "$src" -xf -
(cd "$src" && IPROUTE2_SRC=$tree SMC_DUMP_LINUX_SOURCE=$ksrc dpkg-buildpackage -b -us -uc)

for arch in $archs; do
	[ "$arch" != "$native" ] || continue
	case $arch in
	s390x)	tri=s390x-linux-gnu qemu=qemu-s390x-static ;;
	arm64)	tri=aarch64-linux-gnu qemu=qemu-aarch64-static ;;
	*)	echo "make-deb: unknown architecture '$arch' (arm64, s390x)" >&2; exit 2 ;;
	esac
	sysroot=${SMC_DUMP_CROSS_ROOT:-/var/lib/smc-dump-cross}/$arch
	[ -f "$sysroot/usr/lib/$tri/pkgconfig/libbpf.pc" ] && [ -d "$sysroot/var/lib/dpkg/info" ] ||
		{ echo "make-deb: no sysroot of $arch in $sysroot: run 'scripts/deps.sh cross' as root" >&2; exit 1; }
	t0=$(date +%s)
	(cd "$src" &&
	 env -u PKG_CONFIG_PATH IPROUTE2_SRC="$tree" SMC_DUMP_SYSROOT="$sysroot" \
		CC="$tri-gcc --sysroot=$sysroot" AR="$tri-ar" \
		PKG_CONFIG_LIBDIR="$sysroot/usr/lib/$tri/pkgconfig:$sysroot/usr/share/pkgconfig" \
		PKG_CONFIG_SYSROOT_DIR="$sysroot" \
		BPF_SYSROOT="$sysroot" BPFTOOL="$qemu -L $sysroot $sysroot/usr/sbin/bpftool" \
		SMC_FEATURES="HAVE_CAIRO=n HAVE_LIBBPF=y" \
		dpkg-buildpackage -a "$arch" -B -d -us -uc)
	echo "make-deb: $arch built in $(( $(date +%s) - t0 )) s"
done
ls -l "$out"/*.deb
bash scripts/deb-arch-check.sh "$out"/smc-dump_"${ver}"_*.deb
t0=$(date +%s)
lintian --fail-on error,warning --display-info "$out"/smc-dump_"${ver}"_*.changes
echo "make-deb: lintian in $(( $(date +%s) - t0 )) s"
