#!/bin/bash
# make demo: boot the patched kernel in QEMU and show SMC dump at work on
# real SMC-D loopback-ism traffic (scripts/demo-guest.sh runs inside).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
# the guest leaves its capture here, for tcpdump -r and Wireshark
mkdir -p build/demo
rm -f build/demo/smcd.pcap
# SeaBIOS on the serial console resets the terminal (ESC c), clears it
# (ESC [2J) and turns line wrapping off (ESC [?7l): dropped here, so the
# build's output stays on the screen and long lines still wrap afterwards
rc=0
bash testsuite/vm/run-vm --timeout "${VM_TIMEOUT:-900}" --share "$top/build/demo" -- \
	bash scripts/demo-guest.sh |
	sed -u -e 's/\x1bc//g' -e 's/\x1b\[?7l//g' -e 's/\x1b\[2J//g' || rc=$?
if [ "$rc" = 0 ] && [ -s build/demo/smcd.pcap ]; then
	echo "The capture: $top/build/demo/smcd.pcap (tcpdump -r, Wireshark, smc dump read)"
fi
exit "$rc"
