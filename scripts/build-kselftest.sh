#!/bin/bash
# Build and install the mainline series' kselftest (net:smc_dump, of
# tools/testing/selftests/net/smc_dump.c) the kernel's way, with the
# selftests' own make and install, alone: the rest of selftests/net is
# left out by overriding its lists on the command line.
#
#   build-kselftest.sh [TREE [DEST]]
#
# TREE: a kernel tree with the series applied (default build/linux-mainline,
# which `make kernel-mainline` lays out). DEST: where run_kselftest.sh and
# net/smc_dump go (default build/mainline/kselftest); the guest runs
# DEST/run_kselftest.sh -t net:smc_dump. Objects and the uapi headers go to
# DEST.obj. Prints DEST; the build's output goes to stderr.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
tree=${1:-$top/build/linux-mainline}
dest=${2:-$top/build/mainline/kselftest}
[ -f "$tree/tools/testing/selftests/net/smc_dump.c" ] ||
	{ echo "build-kselftest: $tree has no tools/testing/selftests/net/smc_dump.c: make kernel-mainline" >&2; exit 1; }
command -v rsync >/dev/null || { echo "build-kselftest: rsync missing (the selftests install with it): make deps" >&2; exit 1; }
tree=$(cd "$tree" && pwd)
obj=$dest.obj
rm -rf "$dest" "$obj"
mkdir -p "$obj"
make -s -C "$tree" O="$obj" ARCH=x86_64 headers_install >&2
# The lists are replaced on the command line: only smc_dump is built and
# installed. TEST_GEN_PROGS keeps lib.mk's $(OUTPUT)/ prefix (a command-
# line value is not rewritten by lib.mk); INSTALL_DEP_TARGETS= keeps the
# top Makefile from building net/lib for the tests left out.
make -C "$tree/tools/testing/selftests" O="$obj" TARGETS=net \
	INSTALL_DEP_TARGETS= 'TEST_GEN_PROGS=$(OUTPUT)/smc_dump' TEST_GEN_PROGS_EXTENDED= \
	TEST_PROGS= TEST_PROGS_EXTENDED= TEST_GEN_FILES= TEST_FILES= TEST_INCLUDES= \
	KSFT_INSTALL_PATH="$dest" install >&2
[ -x "$dest/net/smc_dump" ] && grep -qx 'net:smc_dump' "$dest/kselftest-list.txt" ||
	{ echo "build-kselftest: $dest has no net:smc_dump after the install" >&2; exit 1; }
echo "$dest"
