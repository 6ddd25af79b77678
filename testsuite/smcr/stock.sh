#!/bin/bash
# One side of the SMC-R test bed on Debian's own, unmodified kernel and its
# own smc.ko (./run with SMCR_BED=stock): Soft-RoCE (rdma_rxe) on the
# virtio-net link to the other guest, a PNET ID on both (Debian 12's 6.1
# rxe has no get_netdev, so smc.ko finds an rxe device only through the
# PNET table), the bpf backend capturing, the traffic tool moving BYTES
# each way. Results go to /run/shared/ROLE-*; ./run's caller checks them
# (testsuite/smcr/stock.bats).
#   stock.sh server|client BYTES [VERSION]
# VERSION 2 adds a UEID on both sides (SMC-Rv2 needs an EID in common);
# VERSION 1 adds none, so only SMC-Rv1 can be agreed.
# When the transfer fails (a hang ends at the traffic tool's -T), what
# says where it stopped is kept: the kernel stacks of its tasks and of
# blocked kernel threads (ROLE-stacks.txt, ROLE-stacks-end.txt; sysrq w's
# list on the console), the return values of the link set-up's steps and
# the queue pair state smc.ko remembered (ROLE-trace.txt), the wire
# (ROLE-eth0.pcap).
set -uo pipefail
role=$1
bytes=$2
version=${3:-2}
top=$SMC_DUMP_TOP
smc=$top/smc/smc
traffic=$top/testsuite/tools/smc-traffic
check=$top/testsuite/lib/smcdump_check.py
. "$top/testsuite/lib/wait.bash"
out=/run/shared/$role
if [ "$role" = server ]; then me=192.0.2.1 peer=192.0.2.2; else me=192.0.2.2 peer=192.0.2.1; fi

set -x
modprobe -a virtio_net smc smc_diag rdma_rxe || exit 1
ip link set eth0 up
ip addr add $me/24 dev eth0
rdma link add rxe0 type rxe netdev eth0 || exit 1
rdma link show >$out-rdma.txt
# the GID types rxe offers: RoCE v2 only (SMC-Rv1 needs a RoCE v1 GID)
cat /sys/class/infiniband/rxe0/ports/1/gid_attrs/types/* >$out-gid-types.txt 2>/dev/null
$smc pnet add SMCDUMPR eth eth0 ib rxe0 port 1 || exit 1
$smc pnet show >$out-pnet.txt
[ "$version" = 1 ] || $smc ueid add SMCDUMP-SMCR || exit 1
WAIT_TIMEOUT=120 wait_for "the peer answering ping" ping -c 1 -W 1 $peer || exit 1

# Linux before 6.11 has no IPPROTO_SMC: AF_SMC sockets there
af=()
python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_STREAM, 256)' 2>/dev/null ||
	af=(--af-smc)
echo "${af[*]:-ipproto_smc}" >$out-socket-kind

# the wire: the CLC handshake (TCP) and RoCEv2 (UDP 4791), for the reader
# of a failed run
tcpdump -i eth0 -w /tmp/eth0.pcap -U "tcp port 5201 or udp port 4791" 2>/tmp/eth0.log &
tdp=$!
wait_line /tmp/eth0.log listening || exit 1
# the return values of the link set-up's steps (kretprobes; a function
# the kernel lacks or inlined is left out), for the reader of a failed run
tr=/sys/kernel/tracing
[ -d $tr/events ] || mount -t tracefs tracefs $tr
# (the link set-up's own steps only: nothing that runs per message)
for f in smc_ib_ready_link smc_ib_modify_qp_init smc_ib_modify_qp_rtr smc_ib_modify_qp_rts \
	smc_ib_modify_qp_error smc_llc_send_confirm_link smc_ib_determine_gid smc_llc_wait \
	smcr_link_init smc_wr_rx_post_init rxe_modify_qp rxe_qp_error \
	smc_clc_send_confirm smc_clc_wait_msg smc_connect_decline_fallback; do
	echo "r:r_$f $f ret=\$retval" >>$tr/kprobe_events 2>/dev/null || echo "no kretprobe on $f"
done
# and the queue pair state smc.ko remembered (link->qp_attr: qp_state,
# cur_qp_state, from ib_query_qp) when it sends its first LLC message; the
# offset from the module's BTF
off=$(bpftool btf dump file /sys/kernel/btf/smc 2>/dev/null | awk '
	/STRUCT .smc_link. / { f = 1; next }
	f && /^\[/ { exit }
	f && /.qp_attr. / { for (i = 1; i <= NF; i++) if ($i ~ /^bits_offset=/) { sub(/.*=/, "", $i); print $i / 8 } }')
[ -z "$off" ] || echo "p:p_smc_llc_send_confirm_link smc_llc_send_confirm_link qp_state=+$off(%di):u32 cur_qp_state=+$((off + 4))(%di):u32" >>$tr/kprobe_events
echo 1 >$tr/events/kprobes/enable 2>/dev/null
# blocked tasks (sysrq w) reach the console
dmesg -n 7
$smc dump start backend bpf mode smcr write /tmp/cap.pcap background >$out-dump-start.txt 2>&1
echo $? >$out-dump-start.rc
$smc -j stats >$out-stats-before.json

if [ "$role" = server ]; then
	rm -f /run/shared/ready
	$traffic server "${af[@]}" -a 0.0.0.0 -p 5201 -n "$bytes" -T 60 -r /run/shared/ready >$out-traffic.out &
else
	WAIT_TIMEOUT=300 wait_file /run/shared/ready || exit 1
	$traffic client "${af[@]}" -a $peer -p 5201 -n "$bytes" -T 60 >$out-traffic.out &
fi
tp=$!
# while it runs: if it outlives 50 s, where it waits in the kernel (its
# tasks' stacks here, every blocked task's by sysrq w on the console)
( set +x
  end=$((SECONDS + 50))
  while kill -0 $tp 2>/dev/null; do
	if [ $SECONDS -ge $end ]; then
		for t in /proc/$tp/task/*; do echo "== $t $(cat $t/comm) $(cat $t/wchan)"; cat $t/stack; done
		for p in $(pgrep 'kworker|smc'); do echo "== $p $(cat /proc/$p/comm) $(cat /proc/$p/wchan)"; cat /proc/$p/stack; done
		echo w >/proc/sysrq-trigger
		touch /tmp/hung
		exit 0
	fi
	sleep 0.5
  done ) >$out-stacks.txt 2>&1 &
wp=$!
# a task blocked in the kernel never ends: once its stacks are kept, go on
# without it (rc 124)
WAIT_TIMEOUT=300 wait_for "the traffic tool's end or its stacks" \
	bash -c "! kill -0 $tp 2>/dev/null || [ -e /tmp/hung ]"
if [ -e /tmp/hung ] && kill -0 $tp 2>/dev/null; then
	rc=124
else
	wait $tp
	rc=$?
fi
kill $wp 2>/dev/null; wait $wp 2>/dev/null
cat $out-traffic.out
# the server waits for the client's end, so that both sides' state is seen
# at the same time
if [ "$role" = server ]; then
	WAIT_TIMEOUT=200 wait_file /run/shared/client-rc
else
	echo $rc >/run/shared/client-rc
fi
$smc -j stats >$out-stats-after.json
# kernel threads still blocked now (a link set-up that hung in a worker)
for p in $(pgrep 'kworker|smc'); do
	grep -q . /proc/$p/stack 2>/dev/null || continue
	grep -qv 'worker_thread\|kthread\|ret_from_fork\|smpboot' /proc/$p/stack || continue
	echo "== $p $(cat /proc/$p/comm)"; cat /proc/$p/stack
done >$out-stacks-end.txt 2>&1
kill -TERM $tdp; wait $tdp
echo 0 >$tr/events/kprobes/enable 2>/dev/null
cp $tr/trace $out-trace.txt
cp /tmp/eth0.pcap $out-eth0.pcap
$smc dump stop >$out-dump-stop.txt 2>&1
$smc -j device >$out-device.json
$smc -j -d linkgroup >$out-linkgroup.json
[ -f /tmp/cap.pcap ] && python3 $check /tmp/cap.pcap >$out-cap.json && cp /tmp/cap.pcap $out-cap.pcap
dmesg >$out-dmesg.txt
[ "$role" = client ] || echo $rc >$out-rc
exit $rc
