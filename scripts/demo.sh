#!/bin/bash
# make demo: boot the patched kernel in QEMU and show SMC dump at work on
# real SMC-D loopback-ism traffic (scripts/demo-guest.sh runs inside).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
exec bash testsuite/vm/run-vm --timeout "${VM_TIMEOUT:-900}" -- bash scripts/demo-guest.sh
