#!/bin/bash
# Build smc-tools 1.8.5 from its public source, for the parity tests of
# smc-dump's entry points (testsuite/vm/smc-tools-parity.bats):
#
#   smc-tools-build.sh SRC   SRC: a checkout of
#                            https://github.com/ibm-s390-linux/smc-tools
#                            (its tag 1.8.5) or an unpacked release
#
# Copies SRC to build/smc-tools (nothing is built in SRC) and runs make
# there with libnl-3 and libnl-genl-3 (make deps installs their -dev
# packages); copies its bash scripts smc_rnics, smc_chk, smc_run and
# smc_dbg beside them, unchanged and executable (the host tests
# smc-rnics.bats and smc-tools-scripts.bats run them as oracles); prints
# the directory, which holds smcd, smcr, smcss and smc_pnet, on stdout:
# SMC_TOOLS_DIR for the tests. smc-tools is not a Debian package, so
# nothing here downloads it.
set -euo pipefail

[ $# = 1 ] || { echo "usage: $0 SMC-TOOLS-SOURCE-DIR" >&2; exit 2; }
src=$1
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/smc-tools
scripts="smc_rnics smc_chk smc_run smc_dbg"
if [ ! -f "$src/Makefile" ] || [ ! -f "$src/smcss.c" ]; then
	echo "smc-tools-build: $src is no smc-tools source tree (no Makefile, smcss.c)" >&2
	exit 1
fi
for f in $scripts; do
	[ -f "$src/$f" ] || {
		echo "smc-tools-build: $src has no script $f" >&2
		exit 1
	}
done
rel=$(sed -n 's/^SMC_TOOLS_RELEASE *= *//p' "$src/Makefile")
[ "$rel" = 1.8.5 ] || {
	echo "smc-tools-build: $src is smc-tools '$rel'; the parity tests are of 1.8.5 (git checkout 1.8.5)" >&2
	exit 1
}
[ -f /usr/include/libnl3/netlink/genl/genl.h ] || {
	echo "smc-tools-build: libnl-genl-3 headers missing: apt install libnl-3-dev libnl-genl-3-dev (make deps)" >&2
	exit 1
}
rm -rf "$out"
mkdir -p "$out"
# the C sources and the Makefile: not a .git, nor an earlier build
cp "$src"/*.[ch] "$src/Makefile" "$out"/
make -s -C "$out" smcd smcr smcss smc_pnet >&2
# the scripts as they are: the tests run them, never an edited copy here
for f in $scripts; do
	install -m 0755 "$src/$f" "$out/$f"
done
echo "$out"
