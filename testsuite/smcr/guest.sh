#!/bin/bash
# One side of the SMC-R test bed, inside a test VM (see ./run): Soft-RoCE
# (rdma_rxe) on the guest's virtio-net link to the other guest, SMC dump
# links, tcpdump, and the traffic tool. Results go to /run/shared/ROLE-*.
#   guest.sh server|client BYTES [VERSION]
# VERSION 2 (default) adds a UEID on both sides, so SMC-Rv2 is agreed;
# VERSION 1 adds none; SMC-Rv1 would then need a PNET table entry (the
# client offers no v1 path without a pnetid), so the handshake ends in a
# decline (server: 0x03030008, no UEID) and TCP fallback.
set -uo pipefail
role=$1
bytes=$2
version=${3:-2}
top=$SMC_DUMP_TOP
smc=$top/smc/smc
nl=$top/testsuite/tools/smc-dummy-nl
traffic=$top/testsuite/tools/smc-traffic
rdma=$top/build/iproute2/rdma/rdma
check=$top/testsuite/lib/smcdump_check.py
out=/run/shared/$role
# RFC 5737 documentation addresses: they exist only on the QEMU link
# between the two guests
if [ "$role" = server ]; then me=192.0.2.1 peer=192.0.2.2; else me=192.0.2.2 peer=192.0.2.1; fi

set -x
# Debian's kernel (SMCR_BED=stock-dkms) has these as modules, and no udev
# loads them; the test kernel has them built in
if [ -f "/lib/modules/$(uname -r)/modules.dep" ]; then
	modprobe -a virtio_net smc smc_diag rdma_rxe || exit 1
fi
ip link set eth0 up
ip addr add $me/24 dev eth0
$rdma link add rxe0 type rxe netdev eth0 || exit 1
$rdma link show
# SMC-Rv2 needs an EID in common, like SMC-Dv2
[ "$version" = 1 ] || $smc ueid add SMCDUMP-SMCR
for i in $(seq 120); do
	ping -c 1 -W 1 $peer >/dev/null 2>&1 && break
done
ping -c 1 -W 2 $peer || exit 1

$nl add smcr0 mode 1
$nl add smcd0 mode 2
ip link set smcr0 up
ip link set smcd0 up
tcpdump -i smcr0 -w /tmp/smcr.pcap -U -B 65536 2>/tmp/smcr.log &
p1=$!
tcpdump -i smcd0 -w /tmp/smcd.pcap -U 2>/tmp/smcd.log &
p2=$!
# what `smc dump start mode all` captures: the handshake and the records
tcpdump -i any -w /tmp/all.pcap -U -B 65536 port 5201 2>/tmp/all.log &
p3=$!
until grep -q listening /tmp/smcr.log && grep -q listening /tmp/smcd.log &&
	grep -q listening /tmp/all.log; do sleep 0.2; done
$smc -j stats >$out-stats-before.json

if [ "$role" = server ]; then
	$traffic server -a 0.0.0.0 -p 5201 -n "$bytes" -T 600 -r /run/shared/ready >$out-traffic.out
	rc=$?
else
	for i in $(seq 600); do [ -s /run/shared/ready ] && break; sleep 0.5; done
	$traffic client -a $peer -p 5201 -n "$bytes" -T 600 >$out-traffic.out
	rc=$?
fi
cat $out-traffic.out
sleep 1
kill -TERM $p1 $p2 $p3
wait $p1 $p2 $p3
cat /tmp/smcr.log /tmp/smcd.log /tmp/all.log >$out-tcpdump.log
$smc -j stats >$out-stats-after.json
ip -s -j link show smcr0 >$out-link.json
$rdma link show >$out-rdma.txt
python3 $check /tmp/smcr.pcap --dump-dir /tmp >$out-smcr.json
python3 $check /tmp/smcd.pcap >$out-smcd.json
$smc -j dump read /tmp/smcr.pcap >$out-smcr-read.json
$smc -j dump read /tmp/all.pcap >$out-all-read.json
$smc dump read /tmp/all.pcap >$out-all-read.txt
$smc dump read -d /tmp/smcr.pcap | head -40 >$out-smcr-read.txt
cp /tmp/all.pcap $out-all.pcap
cp /tmp/smcr.pcap $out-smcr.pcap

# smc check over SMC-R, after the captures and the counters
# above: the server's view of one connection on port 5202, the client's
# of the same; then the kernel's devices and link groups
# The server's check waits 10 s for the connection: it starts only when
# the client has finished its own work above and waits for it.
if [ "$role" = server ]; then
	for i in $(seq 1200); do [ -e /run/shared/client-at-check ] && break; sleep 0.5; done
	$smc -j check server 5202 >$out-check.json 2>$out-check.err &
	cp=$!
	for i in $(seq 100); do
		ss -Hltn "sport = :5202" | grep -q . && break
		sleep 0.1
	done
	touch /run/shared/check-ready
	wait $cp
	echo $? >$out-check.rc
else
	touch /run/shared/client-at-check
	for i in $(seq 240); do [ -e /run/shared/check-ready ] && break; sleep 0.5; done
	$smc -j check $peer 5202 >$out-check.json 2>$out-check.err
	echo $? >$out-check.rc
fi
$smc -j stats >$out-stats-check.json
$smc -j device >$out-device.json
$smc -j -d linkgroup >$out-linkgroup.json
echo $rc >$out-rc
exit $rc
