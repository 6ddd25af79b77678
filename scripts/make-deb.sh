#!/bin/bash
# make deb: the Debian packages smc-dump and smc-dump-dkms, built with
# dpkg-buildpackage -b from a copy of the tracked files in build/deb/ (so
# that the .debs land in build/deb/, not next to the clone), then checked
# with lintian. The ip plugin is built against the iproute2 tree of the
# distribution's source package (build-iproute2.sh --tree); smc-dump-dkms
# from the Linux source scripts/stock-source.sh names.
# SMC_DUMP_SERIES=DIR (scripts/dkms-source.sh) builds smc-dump-dkms with
# another series, e.g. one in progress.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
ver=$(dpkg-parsechangelog -l debian/changelog -S Version)
out=$top/build/deb
src=$out/smc-dump-$ver

tree=$(bash scripts/build-iproute2.sh --tree)
# net/smc for smc-dump-dkms: linux-source-6.12 of the stock release, which
# need not be the one installed (scripts/stock-source.sh)
ksrc=$(bash scripts/stock-source.sh)
rm -rf "$out"
mkdir -p "$src"
git ls-files -z | tar --null -T - -cf - | tar -C "$src" -xf -
(cd "$src" && IPROUTE2_SRC=$tree SMC_DUMP_LINUX_SOURCE=$ksrc dpkg-buildpackage -b -us -uc)
ls -l "$out"/*.deb
lintian --fail-on error,warning --display-info "$out"/smc-dump_"${ver}"_*.changes
