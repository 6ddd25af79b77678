#!/bin/bash
# make demo: smc-dump as a user runs it, on Debian 12's own kernel. No
# kernel is built: Debian's unmodified linux-image (scripts/stock-kernel.sh)
# boots in QEMU with smc-dump-dkms's modules, built against Debian's headers
# from this tree with the command the package's dkms.conf gives DKMS
# (scripts/stock-dkms.sh --tree; no .deb: dpkg-buildpackage and lintian
# would add minutes and nothing the demo shows). Inside,
# scripts/demo-guest.sh moves SMC-D traffic over loopback-ism and shows
# both backends capturing it. make deps demo (scripts/deps.sh demo) has
# installed the packages. Each step says how long it took.
# shellcheck disable=SC2317 # the functions run through timed
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
start=$SECONDS
# timed WHAT CMD...: CMD, then how long it took
timed() {
	local what=$1 s=$SECONDS
	shift
	echo "demo: $what"
	"$@"
	echo "demo: $what: $((SECONDS - s)) s"
}
build_tools() {
	make -s -j"$(nproc)" -C smc smc
	make -s -C testsuite/tools smc-traffic
	# the ip plugin, for Debian's ip: compiled against the headers of
	# iproute2's source package (fetched and unpacked, not built), which
	# takes seconds where building ip itself takes minutes
	make -s -C ip
}
timed "building smc, the traffic tool and the ip plugin" build_tools
kernel() { bash scripts/stock-kernel.sh >/dev/null; }
timed "Debian's kernel and an initramfs (apt-get download linux-image)" kernel
lib=
dkms() { lib=$(bash scripts/stock-dkms.sh --tree); }
timed "smc-dump-dkms's modules against Debian's headers (linux-source-6.12's net/smc with the series)" dkms

# the guest leaves its captures here, for tcpdump -r and Wireshark
mkdir -p build/demo
rm -f build/demo/*.pcap
# SeaBIOS on the serial console resets the terminal (ESC c), clears it
# (ESC [2J) and turns line wrapping off (ESC [?7l): dropped here, so the
# build's output stays on the screen and long lines still wrap afterwards
rc=0
guest() {
	bash testsuite/vm/run-vm --stock --stock-lib "$lib" --timeout "${VM_TIMEOUT:-900}" \
		--share "$top/build/demo" -- bash scripts/demo-guest.sh |
		sed -u -e 's/\x1bc//g' -e 's/\x1b\[?7l//g' -e 's/\x1b\[2J//g' || rc=$?
}
timed "booting Debian's kernel in QEMU: the demo" guest
if [ "$rc" = 0 ] && [ -s build/demo/smcd-kernel.pcap ] && [ -s build/demo/smcd-bpf.pcap ]; then
	echo "The captures, of the same traffic:"
	echo "  backend kernel: $top/build/demo/smcd-kernel.pcap"
	echo "  backend bpf:    $top/build/demo/smcd-bpf.pcap"
	echo "Read them (Wireshark shows plain UDP without the dissector):"
	echo "  $top/smc/smc dump stats $top/build/demo/smcd-kernel.pcap"
	echo "  tshark -X lua_script:$top/contrib/wireshark/smcdump.lua -r $top/build/demo/smcd-kernel.pcap"
fi
echo "demo: $((SECONDS - start)) s in all (after make deps demo)"
exit "$rc"
