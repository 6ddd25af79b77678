#!/bin/bash
# The capture demo, inside the guest scripts/demo.sh boots: Debian 12's own
# kernel with smc-dump-dkms's modules (net/smc with the series and
# loopback-ism). Two SMC-D connections over loopback-ism, captured at once
# by both backends of `smc dump start` (the kernel's smc-dummy link and the
# BPF programs), decoded by `smc dump`; scripts/demo-check.sh proves the
# claims: SMC-D carried the traffic (the counters), each capture lists
# each connection once with both its ends and no record lost, and holds
# every stream sent, byte for byte. Exit status 0 only if all hold.
# The stock-dkms tier runs it too (testsuite/stock-dkms/demo.bats).
#
# SMC_DUMP_SMC: the smc command (default: the tree's smc/smc);
# SMC_DUMP_IP_LIB_DIR: where Debian's ip finds the smc-dummy plugin
# (default: the tree's ip/); DEMO_WORK: the scratch directory (/tmp/demo).
set -euo pipefail
top=$SMC_DUMP_TOP
smc=${SMC_DUMP_SMC:-$top/smc/smc}
plugins=${SMC_DUMP_IP_LIB_DIR:-$top/ip}
traffic=$top/testsuite/tools/smc-traffic
check=$top/scripts/demo-check.sh
work=${DEMO_WORK:-/tmp/demo}
size=1048576
conns=2
rm -rf "$work"
mkdir -p "$work"

step() { printf '\n### %s\n' "$*"; }

step "The kernel: Debian's own $(uname -r), with smc-dump-dkms's smc.ko"
modprobe smc_diag
modinfo -n smc smc_diag

step "SMC-Dv2 over loopback-ism needs a user EID on x86"
if [ -z "$($smc ueid show)" ]; then
	$smc ueid add SMCDUMP-DEMO
fi
$smc ueid show

step "SMC statistics before"
$smc stats
$smc -j stats >"$work/before.json"

step "smc dump start, twice: backend kernel (link smck0) and backend bpf (link smcb0) capture the same traffic"
$smc dump start mode smcd backend kernel dev smck0 write "$work/kernel.pcap" background
# a ring of 64 MiB (4 times the default): each data record reserves 64 KiB
# of it, so a transfer of this size cannot fill it even on a loaded host
$smc dump start mode smcd backend bpf dev smcb0 ring 67108864 write "$work/bpf.pcap" background
$smc dump show
echo "(Debian's ip, with the smc-dummy plugin from $plugins:)"
IP_LIB_DIR=$plugins ip -d link show smck0

step "Two SMC-D connections over loopback-ism move 1 MiB each way"
$traffic server -a 127.0.0.1 -p 0 -n $size -c $conns >"$work/server.out" &
srv=$!
port=
for _ in $(seq 100); do
	port=$(awk '/^listening/ { print $2 }' "$work/server.out")
	[ -n "$port" ] && break
	sleep 0.1
done
[ -n "$port" ] || { echo "the traffic server did not listen" >&2; kill $srv; exit 1; }
$traffic client -a 127.0.0.1 -p "$port" -n $size -c $conns | tee "$work/client.out"
wait $srv
cat "$work/server.out"

step "smc dump stop: tcpdump flushes each file, the links go away"
$smc dump stop all
for l in smck0 smcb0; do
	if ip link show $l >/dev/null 2>&1; then
		echo "the link $l is still there" >&2
		exit 1
	fi
done

step "SMC statistics after: SMC-D v2 connections and bytes went up"
$smc stats
$smc -j stats >"$work/after.json"
# both ends of each connection send $size: the counters sum both ends
"$check" smcd "$work/before.json" "$work/after.json" $conns $((2 * conns * size))

awk '$1 == "conn" && $3 == "tx" { print $7 }' "$work/server.out" "$work/client.out" >"$work/sent"
for b in kernel bpf; do
	$smc dump read "$work/$b.pcap" >"$work/$b.txt"
	step "Backend $b: the records, decoded (the first 12 of $(wc -l <"$work/$b.txt"))"
	head -12 "$work/$b.txt"
done

step "tcpdump itself sees UDP records on the connection's ports (backend kernel's file)"
tcpdump -nr "$work/kernel.pcap" 2>/dev/null >"$work/tcpdump.txt"
head -4 "$work/tcpdump.txt"

step "Per-connection summary"
echo "(each connection has two ends, each with its own token; both are"
echo " captured here, so each connection is one entry: its first end's"
echo " streams, then the other end's as peer rx and peer tx, with its"
echo " peer-token; seq gaps that are all 'reordered' are records of the two"
echo " CPUs that reached the link out of order, none lost)"
for b in kernel bpf; do
	echo "backend $b:"
	$smc dump stats "$work/$b.pcap"
done
rc=0
for b in kernel bpf; do
	step "Backend $b: $conns connections, each listed once with its two ends"
	$smc -j dump stats "$work/$b.pcap" >"$work/stats-$b.json"
	if ! "$check" conns "$work/stats-$b.json" $conns $size; then
		echo "RESULT: backend $b: the connections are not listed as captured" >&2
		rc=1
	fi
done

for b in kernel bpf; do
	step "Backend $b: the reassembled streams compared with what the traffic tool sent"
	$smc dump follow "$work/$b.pcap" "$work/streams-$b" >/dev/null
	if "$check" streams "$work/sent" "$work/streams-$b"; then
		echo "RESULT: backend $b: every byte sent was captured"
	else
		echo "RESULT: backend $b: the captured streams differ from what was sent" >&2
		rc=1
	fi
done
# for the host (scripts/demo.sh shares build/demo/ as /run/shared)
if [ $rc = 0 ] && mountpoint -q /run/shared; then
	for b in kernel bpf; do
		cp "$work/$b.pcap" "/run/shared/smcd-$b.pcap"
		# each connection's process, netns and cgroup (smc dump
		# context), where the capture's collector wrote them
		if [ -f "$work/$b.pcap.ctx" ]; then
			cp "$work/$b.pcap.ctx" "/run/shared/smcd-$b.pcap.ctx"
		fi
	done
fi
exit $rc
