#!/bin/bash
# One side of the SMC-R link failover bed, inside a test VM
# (see ./run, SMCR_SCENARIO=failover): two virtio-net NICs on two QEMU
# networks, one Soft-RoCE device on each, so that the SMC-Rv2 link group
# gets a second link; the client sets the NIC of its connection's link
# down while data flows both ways, SMC moves the connection to the other
# link (smc_switch_conns(), smc_switch_cursor()) and sends again what was
# not confirmed. Both sides capture on an smc-dummy link. Results go to
# /run/shared/ROLE-*.
#   failover.sh server|client BYTES
#
# What the bed needs on 6.12 (kernel/README.md, offsets after a link failover): Soft-RoCE has only
# RoCEv2 GIDs, so the link group is SMC-Rv2; its second device must have
# an IPv4 address in the subnet of the first link's source address. So
# both NICs have an address in 192.0.2.0/24; each answers ARP only for its
# own address (arp_ignore=1) and the peer's second address is reached by
# the second NIC (a host route).
set -uo pipefail
role=$1
bytes=$2
top=$SMC_DUMP_TOP
smc=$top/smc/smc
nl=$top/testsuite/tools/smc-dummy-nl
traffic=$top/testsuite/tools/smc-traffic
rdma=$top/build/iproute2/rdma/rdma
check=$top/testsuite/lib/smcdump_check.py
out=/run/shared/$role
if [ "$role" = server ]; then
	me=192.0.2.1 me2=192.0.2.11 peer=192.0.2.2 peer2=192.0.2.12
else
	me=192.0.2.2 me2=192.0.2.12 peer=192.0.2.1 peer2=192.0.2.11
fi
# log LINE: a line with the guest's clock, for the order of events
log() { echo "$(date +%s.%N) $*" >>"$out-events.txt"; }

set -x
if [ "$role" = server ]; then
	# The server's link to the device the client set down is deleted
	# (smc_llc_delete_link_work()), and that waits for the sends posted
	# on it, which Soft-RoCE never completes: its kworkers stay blocked
	# for the rest of the guest's life, also in the reboot notifier
	# (smc_core_reboot_event(); ./run ends the guests with run-vm
	# --halt-reset). Those waits are upstream's code, which the series
	# does not change (kernel/README.md, offsets after a link failover). The hung-task report of
	# them would land in the kernel log on a slow host, so it is off
	# here; the blocked tasks are shown at the end (sysrq w, in
	# server-blocked.txt).
	sysctl -qw kernel.hung_task_timeout_secs=0
fi
if [ -f "/lib/modules/$(uname -r)/modules.dep" ]; then
	modprobe -a virtio_net smc smc_diag rdma_rxe || exit 1
fi
sysctl -qw net.ipv4.conf.all.arp_ignore=1 net.ipv4.conf.all.arp_announce=2
ip link set eth0 up
ip link set eth1 up
ip addr add $me/24 dev eth0
ip addr add $me2/24 dev eth1
ip route add $peer2/32 dev eth1 src $me2
$rdma link add rxe0 type rxe netdev eth0 || exit 1
$rdma link add rxe1 type rxe netdev eth1 || exit 1
$smc ueid add SMCDUMP-SMCR
for i in $(seq 120); do
	ping -c 1 -W 1 $peer >/dev/null 2>&1 && break
done
ping -c 1 -W 2 $peer || exit 1
ping -c 1 -W 2 -I eth1 $peer2 || exit 1

$nl add smcr0 mode 1
ip link set smcr0 up
tcpdump -i smcr0 -w /tmp/f.pcap -U -B 131072 2>/tmp/f.log &
tp=$!
until grep -q listening /tmp/f.log; do sleep 0.2; done
$smc -j stats >$out-stats-before.json
log start

# a watchdog: 150 s after the client's NIC went down, the tasks blocked in
# the kernel (sysrq w) go to the log, also when the transfer hangs
(
	for i in $(seq 3000); do
		grep -q ' downed ' /run/shared/client-events.txt 2>/dev/null && break
		sleep 0.5
	done
	sleep 150
	echo w >/proc/sysrq-trigger
	dmesg >$out-dmesg-watchdog.txt
) &
if [ "$role" = server ]; then
	$traffic server -a 0.0.0.0 -p 5201 -n "$bytes" -T 300 -r /run/shared/ready >$out-traffic.out &
	tpid=$!
	# Its close() can block for good in smc_cdc_wait_pend_tx_wr() on
	# the deleted link's unfinished CDC sends (see above): the 'result'
	# line it prints before closing is its verdict then.
	after=0
	for i in $(seq 1900); do
		kill -0 $tpid 2>/dev/null || break
		if grep -q '^result ' $out-traffic.out; then
			after=$((after + 1))
			[ $after -gt 20 ] && break
		fi
		sleep 0.5
	done
	if kill -0 $tpid 2>/dev/null; then
		log "traffic server blocked in close after its result"
		grep -q '^result ok' $out-traffic.out
		rc=$?
	else
		wait $tpid
		rc=$?
	fi
	log end rc $rc
else
	for i in $(seq 600); do [ -s /run/shared/ready ] && break; sleep 0.5; done
	$traffic client -a $peer -p 5201 -n "$bytes" -T 300 >$out-traffic.out &
	cp=$!
	# the link group's second link, then the link of the connection
	n=0
	for i in $(seq 600); do
		$smc -j linkgroup >/tmp/lg.json 2>/dev/null &&
			n=$(jq '[.[] | select(.mode == "SMC-R") | .links[]] | length' /tmp/lg.json)
		[ "${n:-0}" -ge 2 ] && break
		kill -0 $cp 2>/dev/null || break
		sleep 0.2
	done
	log links $n
	cp /tmp/lg.json $out-lg-before.json
	$smc -j -d socket smcr >$out-sock-before.json
	ibdev=$(jq -r '[.[] | select(.peer_port == 5201 and .mode == "SMC-R")][0].smcr.ibdev' \
		$out-sock-before.json)
	case $ibdev in
	rxe0)	dev=eth0 ;;
	rxe1)	dev=eth1 ;;
	*)	dev= ;;
	esac
	echo "$ibdev $dev" >$out-downed.txt
	if [ -n "$dev" ] && [ "$n" -ge 2 ] && kill -0 $cp 2>/dev/null; then
		log down $dev
		ip link set $dev down
		log downed $dev
	else
		log "no failover: ibdev '$ibdev', $n links, transfer running: $(kill -0 $cp 2>/dev/null && echo yes || echo no)"
	fi
	wait $cp
	rc=$?
	log end rc $rc
	$smc -j linkgroup >$out-lg-after.json
	# the NIC back up, as after a repair: without it the server's link
	# to the downed device never ends and its kworkers block until the
	# reboot hangs (kernel/README.md, offsets after a link failover)
	[ -z "$dev" ] || { ip link set $dev up; log up $dev; }
fi
if [ "$role" = server ]; then
	# the server's view: its link group until it has one link (60 s at
	# most), then the tasks blocked in the kernel, if any (sysrq w)
	for i in $(seq 300); do
		$smc -j linkgroup >$out-lg-after.json 2>/dev/null
		[ "$(jq '[.[] | select(.mode == "SMC-R") | .links[]] | length' $out-lg-after.json)" -le 1 ] && break
		sleep 0.2
	done
	log links $(jq '[.[] | select(.mode == "SMC-R") | .links[]] | length' $out-lg-after.json)
	n=$(dmesg | wc -l)
	echo w >/proc/sysrq-trigger
	sleep 1
	dmesg | tail -n +$((n + 1)) >$out-blocked.txt
fi
cat $out-traffic.out
sleep 1
kill -TERM $tp
wait $tp
cat /tmp/f.log >$out-tcpdump.log
$smc -j stats >$out-stats-after.json
ip -s -j link show smcr0 >$out-link.json
dmesg | grep 'smc: ' >$out-smc-dmesg.txt
dmesg >$out-dmesg.txt
python3 $check /tmp/f.pcap >$out-check.json
$smc -j dump follow /tmp/f.pcap /tmp/streams >$out-follow.json
echo $? >$out-follow.rc
cp /tmp/f.pcap $out-f.pcap
echo $rc >$out-rc
exit $rc
