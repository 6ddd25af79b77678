#!/bin/bash
# Record what smc-tools 1.8.5 prints for the cases of
# testsuite/vm/smc-tools-parity.bats whose kernel state the test makes
# alone, on the patched test kernel, into testsuite/vm/smc-tools-1.8.5/:
# the results the parity test compares smc-dump's entry points with where
# smc-tools cannot be built (CI). Needs build/smc-tools
# (scripts/smc-tools-build.sh SRC) and the test kernel (make kernel).
# The same run compares smc-dump with each result as it records it.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
rec=$top/testsuite/vm/smc-tools-1.8.5
[ -x "$top/build/smc-tools/smcd" ] || {
	echo "smc-tools-record: no build/smc-tools: scripts/smc-tools-build.sh SRC first" >&2
	exit 1
}
share=$(mktemp -d "$top/build/smc-tools-record.XXXXXX")
trap 'rm -rf "$share"' EXIT
chmod 777 "$share"
SMC_DUMP_SMC_TOOLS_RECORD=/run/shared \
	"$top/testsuite/vm/run-vm" --share "$share" -- \
	bats --print-output-on-failure "$top/testsuite/vm/smc-tools-parity.bats"
mkdir -p "$rec"
find "$rec" -type f ! -name README -delete
cp "$share"/* "$rec"/
echo "smc-tools-record: $(find "$share" -type f | wc -l) results in $rec" >&2
