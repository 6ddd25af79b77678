#!/bin/bash
# The capture demo, inside the test VM: SMC-D traffic over loopback-ism,
# captured with tcpdump on an smc-dummy link and decoded by `smc dump`.
set -euo pipefail
top=$SMC_DUMP_TOP
smc=$top/smc/smc
ip=$top/build/iproute2/ip/ip
traffic=$top/testsuite/tools/smc-traffic
work=/tmp/demo
mkdir -p $work
# wait_line
# shellcheck source=SCRIPTDIR/../testsuite/lib/wait.bash
. "$top/testsuite/lib/wait.bash"

step() { printf '\n### %s\n' "$*"; }

step "SMC-Dv2 over loopback-ism needs a user EID on x86"
$smc ueid add SMCDUMP-DEMO
$smc ueid show

step "SMC statistics before"
$smc stats

step "smc dump start: an smc-dummy link (SMC dump on for this netns) and tcpdump on it"
$smc dump start mode smcd write $work/smcd.pcap dev smcd0 background
$smc dump show
$ip -d link show smcd0

step "Two SMC-D connections over loopback-ism move 4 MiB each way"
$traffic server -a 127.0.0.1 -p 5201 -n 4M -c 2 >$work/server.out &
srv=$!
wait_line $work/server.out '^listening [0-9]+'
$traffic client -a 127.0.0.1 -p 5201 -n 4M -c 2 | tee $work/client.out
wait $srv
cat $work/server.out

step "smc dump stop: tcpdump flushes the file, the link goes away"
$smc dump show
$smc dump stop dev smcd0
if $ip link show smcd0 >/dev/null 2>&1; then
	echo "the link is still there" >&2
	exit 1
fi

step "SMC statistics after: SMC-D v2 connections and bytes went up"
$smc stats

$smc dump read $work/smcd.pcap >$work/records.txt
step "The records, decoded (the first 25 of $(wc -l <$work/records.txt))"
head -25 $work/records.txt

step "tcpdump itself sees UDP records on the connection's ports"
tcpdump -nr $work/smcd.pcap 2>/dev/null >$work/tcpdump.txt
head -4 $work/tcpdump.txt

step "Per-connection summary"
echo "(each connection has two ends, each with its own token, so two"
echo " connections show four; seq gaps that are all 'reordered' are records"
echo " of the two CPUs that reached the link out of order, none lost)"
$smc dump stats $work/smcd.pcap

step "Reassembled streams compared with what the traffic tool sent"
rm -rf $work/streams
$smc dump follow $work/smcd.pcap $work/streams >/dev/null
sent=$(cat $work/server.out $work/client.out | awk '$1 == "conn" && $3 == "tx" { print $7 }' | sort)
got=$(cd $work/streams && sha256sum * | awk '{ print $1 }' | sort -u)
echo "SHA-256 of the streams sent:"
echo "$sent" | sed 's/^/  /'
echo "SHA-256 of the streams reassembled from the capture:"
echo "$got" | sed 's/^/  /'
missing=0
for s in $sent; do
	grep -qx "$s" <<<"$got" || missing=$((missing + 1))
done
if [ $missing = 0 ]; then
	# for the host (scripts/demo.sh shares build/demo/ as /run/shared)
	if mountpoint -q /run/shared; then
		cp $work/smcd.pcap /run/shared/smcd.pcap
	fi
	echo "RESULT: every byte sent was captured: the reassembled streams equal what was sent"
else
	echo "RESULT: $missing stream(s) differ from what was sent" >&2
	exit 1
fi
