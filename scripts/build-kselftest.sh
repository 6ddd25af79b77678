#!/bin/bash
# Build and install the mainline series' kselftest (net/smc:smc_dump, of
# tools/testing/selftests/net/smc/smc_dump.c, a target of its own) the
# kernel's way, with the selftests' own make and install, alone.
#
#   build-kselftest.sh [TREE [DEST]]
#
# TREE: a kernel tree with the series applied (default build/linux-mainline,
# which `make kernel-mainline` lays out). DEST: where run_kselftest.sh and
# net/smc/smc_dump go (default build/mainline/kselftest); the guest runs
# DEST/run_kselftest.sh -t net/smc:smc_dump. Objects and the uapi headers go to
# DEST.obj. Both are emptied first, so they must be new, empty, or made by
# an earlier run. Prints DEST; the build's output goes to stderr.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tree=${1:-$top/build/linux-mainline}
dest=${2:-$top/build/mainline/kselftest}
[ -f "$tree/tools/testing/selftests/net/smc/smc_dump.c" ] ||
	{ echo "build-kselftest: $tree has no tools/testing/selftests/net/smc/smc_dump.c: make kernel-mainline" >&2; exit 1; }
command -v rsync >/dev/null || { echo "build-kselftest: rsync missing (the selftests install with it): make deps" >&2; exit 1; }
tree=$(cd "$tree" && pwd)
dest=$(realpath -m "$dest")
obj=$dest.obj
# DEST and DEST.obj are emptied: only new or empty ones, or ones an
# earlier run made (they hold .build-kselftest)
for d in "$dest" "$obj"; do
	# (before the mark existed: an install has kselftest-list.txt, the
	# objects usr/include)
	[ -e "$d/.build-kselftest" ] || [ -f "$d/kselftest-list.txt" ] || [ -d "$d/usr/include" ] && continue
	if [ -e "$d" ] && { [ ! -d "$d" ] || [ -n "$(ls -A "$d")" ]; }; then
		echo "build-kselftest: $d exists and is not a build-kselftest directory: give a new DEST" >&2
		exit 2
	fi
done
rm -rf "$dest" "$obj"
mkdir -p "$obj"
: >"$obj/.build-kselftest"
make -s -C "$tree" O="$obj" ARCH=x86_64 headers_install >&2
# INSTALL_DEP_TARGETS= keeps the top Makefile from building net/lib,
# which net/smc does not use.
make -C "$tree/tools/testing/selftests" O="$obj" TARGETS=net/smc \
	INSTALL_DEP_TARGETS= KSFT_INSTALL_PATH="$dest" install >&2
: >"$dest/.build-kselftest"
[ -x "$dest/net/smc/smc_dump" ] && grep -qx 'net/smc:smc_dump' "$dest/kselftest-list.txt" ||
	{ echo "build-kselftest: $dest has no net/smc:smc_dump after the install" >&2; exit 1; }
echo "$dest"
