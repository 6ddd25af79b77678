#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-guest.sh OUTDIR - the kernel-cost and completeness runs of
# `make bench`, inside the bench VM (scripts/bench.sh boots it with the
# non-debug kernel). Writes OUTDIR/runs.tsv (one line per run) and
# OUTDIR/complete.tsv; scripts/bench.sh turns them into the table.
#
# Kernel cost: SMC-D loopback-ism traffic (smc-traffic, CONNS connections,
# BYTES each way each) under these variants, in rounds, the order reversed
# every other round so that drift spreads over all of them:
#   a  no smc-dummy link (the static key off)
#   b  a link, no tap (the hooks run, nothing is built)
#   c  a link, tcpdump -B COST_BUFFER -w to tmpfs (one file: tcpdump's
#      -C rotation would add an lseek() per record to what is measured)
#   d  as c, the link with capture cdc
#   e  as c, the link with snaplen 64
#   f  as c, but tcpdump -w /dev/null (no file write)
#   u  as d, with tcpdump -U as `smc dump start` runs it: one fflush(),
#      so one write(), per record; d's small CDC records are where that
#      costs most (a data record fills stdio's buffer anyway), and d
#      loses nothing, so u - d is the flush alone
#   g  a link, tcpdump -w /dev/null with a filter that matches nothing
#      (records built and handed to the tap, dropped by its BPF filter:
#      no copy to the ring, no wakeup of tcpdump)
#   h  a link, no tap of its own, while tcpdump -i any -w /dev/null runs
#      in another netns: an unbound ETH_P_ALL socket anywhere on the host
#      must not make the link build records (tx_packets stays 0)
#
# Backends (BENCH_GUEST=backends: scripts/bench.sh boots Debian's kernel
# with smc-dump-dkms's modules, which has both): the same traffic under
# `smc dump start dev smcd0 mode smcd ... background` with backend kernel
# (kX) or backend bpf (pX), X as above: c writes every record to tmpfs,
# d type cdc, e snaplen 64, g a filter that matches nothing (the records
# built or copied out of the ring and dropped by tcpdump's filter), n as c
# at nice 0 (smc dump start's default is -19: the capture ahead), with
# (a) in the same rounds; OUTDIR/backends.tsv, OUTDIR/backends-info. The
# kernel backend's rows differ from (c)-(g) above in what smc dump start
# adds: tcpdump -U, its own -B and its nice value.
# f and g split c's cost: build (g), delivery to user space (f - g), the
# file on tmpfs (c - f). tcpdump runs with -B COST_BUFFER in c-f and u:
# with libpcap's 2 MiB, tcpdump loses records even of (d) when it is not
# scheduled for a moment, and a run that captures less costs less.
#
# Completeness: tcpdump -w to tmpfs, no rotation, with libpcap's default
# buffer and with larger -B; COMPLETE_BYTES per connection; the records in
# the file against the link's counters, seq gaps counted from the file.
#
# Environment (defaults): BENCH_CONNS (4), BENCH_BYTES (256M),
# BENCH_ROUNDS (3), BENCH_VARIANTS ("a b c d e f g h u"), BENCH_GUEST
# (empty; "backends": the backend runs only), BENCH_BACKEND_VARIANTS
# ("a kc kn kd ke kg pc pn pd pe pg"),
# BENCH_COMPLETE_BYTES (128M), BENCH_COMPLETE_ROUNDS (1),
# BENCH_BUFFERS ("default 65536 262144": tcpdump -B values in KiB),
# BENCH_COST_BUFFER (65536: tcpdump -B in KiB for c-f; "default": none),
# BENCH_PERF (off; see perf_start).
# The captures go to a tmpfs of 3/4 of the guest's memory: (c) keeps up to
# all records of a run, a bit more than 2 x CONNS x BYTES.
set -euo pipefail

out=${1:?usage: bench-guest.sh OUTDIR}
top=${SMC_DUMP_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
smc=$top/smc/smc
nl=$top/testsuite/tools/smc-dummy-nl
traffic=$top/testsuite/tools/smc-traffic
conns=${BENCH_CONNS:-4}
bytes=${BENCH_BYTES:-256M}
rounds=${BENCH_ROUNDS:-3}
variants=${BENCH_VARIANTS:-a b c d e f g h u}
cbytes=${BENCH_COMPLETE_BYTES:-128M}
crounds=${BENCH_COMPLETE_ROUNDS:-1}
buffers=${BENCH_BUFFERS:-default 65536 262144}
costbuf=${BENCH_COST_BUFFER:-65536}
cost_b=()
[ "$costbuf" = default ] || cost_b=(-B "$costbuf")
work=/tmp/bench
mkdir -p "$work" "$out"
mem_kb=$(awk '$1 == "MemTotal:" { print $2 }' /proc/meminfo)
mount -t tmpfs -o size=$((mem_kb * 3 / 4))k tmpfs "$work"
port=5300

tobytes() {
	case $1 in
	*[kK]) echo $((${1%?} * 1024)) ;;
	*[mM]) echo $((${1%?} * 1024 * 1024)) ;;
	*[gG]) echo $((${1%?} * 1024 * 1024 * 1024)) ;;
	*) echo "$1" ;;
	esac
}

log() { echo "bench-guest: $*" >&2; }

bvariants=${BENCH_BACKEND_VARIANTS:-a kc kn kd ke kg pc pn pd pe pg}
# (c), (kc) and (pc) write every record they get: the payload once sent
# and once received, plus headers and CDC records (a few per cent)
if { [ "${BENCH_GUEST:-}" != backends ] && [[ " $variants " == *" c "* ]]; } ||
	{ [ "${BENCH_GUEST:-}" = backends ] && [[ " $bvariants " == *" "[kp][cn]" "* ]]; }; then
	need_kb=$((2 * conns * $(tobytes "$bytes") * 21 / 20 / 1024))
	if [ $((mem_kb * 3 / 4)) -lt "$need_kb" ]; then
		log "variants that write every record need $((need_kb / 1024)) MiB of tmpfs, the guest has $((mem_kb * 3 / 4 / 1024)): raise BENCH_MEM"
		exit 1
	fi
fi

"$smc" ueid show | grep -qx SMCDUMPBENCH || "$smc" ueid add SMCDUMPBENCH

# cpu: user nice system idle iowait irq softirq (ticks) of the whole guest
cpu_ticks() { awk '$1 == "cpu" { print $2, $3, $4, $5, $6, $7, $8 }' /proc/stat; }
# proc_ticks PID: utime + stime of a process
proc_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
hz=$(getconf CLK_TCK)

link_add() {	# NAME [ATTR]...
	"$nl" add "$@" >/dev/null
	ip link set "$1" up
}

stat_of() { cat "/sys/class/net/$1/statistics/$2"; }

# listening LOG: waits (30 s at most) until the tcpdump writing LOG listens
listening() {
	for _ in $(seq 300); do
		grep -q "listening on" "$1" && return 0
		sleep 0.1
	done
	cat "$1" >&2
	return 1
}

any_pid=
# any_start LOG: tcpdump -i any in the netns benchother (variant h), returns
# once it listens; any_stop ends it
any_start() {
	ip netns add benchother 2>/dev/null || true
	ip netns exec benchother tcpdump -i any -Z root -w /dev/null 2>"$1" &
	any_pid=$!
	listening "$1"
}
any_stop() {
	kill -INT "$any_pid"
	wait "$any_pid" || true
	any_pid=
}

tcpdump_pid=
# tcpdump_start LOG ARGS...: tcpdump on smcd0, returns once it listens
tcpdump_start() {
	local logf=$1
	shift
	tcpdump -i smcd0 -Z root "$@" 2>"$logf" &
	tcpdump_pid=$!
	listening "$logf"
}

# tcpdump_stop LOG: lets tcpdump drain its ring (until its CPU time stops
# growing), ends it; sets CAP to "captured received dropped"
tcpdump_stop() {
	local logf=$1 t0 t1 idle=0
	t0=$(proc_ticks "$tcpdump_pid")
	for _ in $(seq 600); do
		sleep 0.2
		t1=$(proc_ticks "$tcpdump_pid")
		if [ "$t1" = "$t0" ]; then
			idle=$((idle + 1))
			[ $idle -ge 3 ] && break
		else
			idle=0
		fi
		t0=$t1
	done
	kill -INT "$tcpdump_pid"
	wait "$tcpdump_pid" || true
	tcpdump_pid=
	CAP=$(awk '/packets captured/ { c = $1 } /received by filter/ { r = $1 }
		   /dropped by kernel/ { d = $1 }
		   END { print c + 0, r + 0, d + 0 }' "$logf")
}

# transfer BYTES: one run of the traffic tool through 127.0.0.1; sets WALL
# to the client's wall time in ns. Fails when the tool fails (a byte count
# that differs, fallback to TCP). --no-verify: the tool sends one 128 KiB
# block over and over and only counts what arrives; generating, hashing
# and comparing the pattern would cost the guest ~60 times the kernel's
# own work and hide it.
transfer() {
	local n=$1 spid t0 t1
	port=$((port + 1))
	rm -f "$work/ready"
	"$traffic" server -a 127.0.0.1 -p "$port" -n "$n" -c "$conns" -T 1800 \
		--no-verify -r "$work/ready" >"$work/srv.out" 2>&1 &
	spid=$!
	for _ in $(seq 300); do
		[ -s "$work/ready" ] && break
		sleep 0.1
	done
	t0=$(date +%s%N)
	if ! "$traffic" client -a 127.0.0.1 -p "$port" -n "$n" -c "$conns" \
		-T 1800 --no-verify >"$work/cli.out" 2>&1; then
		cat "$work/cli.out" >&2
		kill "$spid" 2>/dev/null || true
		return 1
	fi
	t1=$(date +%s%N)
	wait "$spid" || { cat "$work/srv.out" >&2; return 1; }
	grep -q "^result ok" "$work/cli.out" || { cat "$work/cli.out" "$work/srv.out" >&2; return 1; }
	WALL=$((t1 - t0))
}

# BENCH_PERF=HZ: a profile of each run (perf record -a, cpu-clock at HZ,
# which under -icount samples instructions) in OUTDIR/perf-V-R.txt. Off by
# default: sampling adds its own cost to the ratios.
perf_hz=${BENCH_PERF:-}
perf_pid=
perf_name=
perf_start() {
	perf_name=$1
	perf record -q -a -e cpu-clock -F "$perf_hz" -o "$work/perf.data" \
		2>"$work/perf.log" &
	perf_pid=$!
	sleep 1
}
perf_stop() {
	kill -INT "$perf_pid"
	wait "$perf_pid" || true
	perf report -i "$work/perf.data" --stdio --no-children \
		--sort sym 2>/dev/null | head -150 >"$out/perf-$perf_name.txt"
	rm -f "$work/perf.data"
}


run_variant() {	# VARIANT ROUND
	local v=$1 r=$2 b c0 c1 tp0=0 tp1=0 wall pk=0 pb=0 pd=0
	local tlog=$work/tcpdump.log
	b=$(tobytes "$bytes")
	case $v in
	a) ;;
	b) link_add smcd0 ;;
	c) link_add smcd0
	   tcpdump_start "$tlog" "${cost_b[@]}" -w "$work/c.pcap" ;;
	d) link_add smcd0 capture 2
	   tcpdump_start "$tlog" "${cost_b[@]}" -w "$work/c.pcap" ;;
	e) link_add smcd0 snaplen 64
	   tcpdump_start "$tlog" "${cost_b[@]}" -w "$work/c.pcap" ;;
	f) link_add smcd0
	   tcpdump_start "$tlog" "${cost_b[@]}" -w /dev/null ;;
	u) link_add smcd0 capture 2
	   tcpdump_start "$tlog" "${cost_b[@]}" -U -w "$work/c.pcap" ;;
	g) link_add smcd0
	   tcpdump_start "$tlog" -w /dev/null 'udp port 9' ;;
	h) any_start "$work/any.log"
	   link_add smcd0 ;;
	*) log "unknown variant $v"; return 2 ;;
	esac
	c0=$(cpu_ticks)
	[ -n "$tcpdump_pid" ] && tp0=$(proc_ticks "$tcpdump_pid")
	[ -n "$perf_hz" ] && perf_start "$v-$r"
	transfer "$b" || { log "variant $v round $r: the transfer failed"; return 1; }
	[ -n "$perf_hz" ] && perf_stop
	wall=$WALL
	c1=$(cpu_ticks)
	[ -n "$tcpdump_pid" ] && tp1=$(proc_ticks "$tcpdump_pid")
	if [ "$v" != a ]; then
		pk=$(stat_of smcd0 tx_packets)
		pb=$(stat_of smcd0 tx_bytes)
		pd=$(stat_of smcd0 tx_dropped)
	fi
	CAP="0 0 0"
	[ -n "$tcpdump_pid" ] && tcpdump_stop "$tlog"
	[ -n "$any_pid" ] && any_stop
	[ "$v" = a ] || "$nl" del smcd0
	rm -f "$work"/c.pcap*
	read -r u0 n0 s0 i0 w0 q0 sq0 <<<"$c0"
	read -r u1 n1 s1 i1 w1 q1 sq1 <<<"$c1"
	read -r cc cr cd <<<"$CAP"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		"$v" "$r" "$wall" $((2 * conns * b)) "$pk" "$pb" "$pd" \
		"$cc" "$cr" "$cd" $((u1 + n1 - u0 - n0)) $((s1 + q1 - s0 - q0)) \
		$((sq1 - sq0)) $((i1 + w1 - i0 - w0)) $((tp1 - tp0)) "$hz" \
		>>"$out/runs.tsv"
	log "variant $v round $r: $(awk -v w="$wall" -v b=$((2 * conns * b)) \
		'BEGIN { printf "%.1f s, %.1f MB/s", w / 1e9, b / w * 1e3 }'), records $pk, tcpdump: $CAP"
	sleep 1
}

# run_backend VARIANT ROUND: one run of a backend variant (see the top)
run_backend() {
	local v=$1 r=$2 b c0 c1 cap0 cap1 wall be args recs=0 lost=0 st
	b=$(tobytes "$bytes")
	case $v in
	a) ;;
	k?) be=kernel ;;
	p?) be=bpf ;;
	*) log "unknown backend variant $v"; return 2 ;;
	esac
	case $v in
	a) ;;
	?c) args=(write "$work/c.pcap") ;;
	?n) args=(nice 0 write "$work/c.pcap") ;;
	?d) args=(type cdc write "$work/c.pcap") ;;
	?e) args=(snaplen 64 write "$work/c.pcap") ;;
	?g) args=(filter "udp port 9" write /dev/null) ;;
	*) log "unknown backend variant $v"; return 2 ;;
	esac
	if [ "$v" != a ]; then
		"$smc" dump start dev smcd0 backend "$be" mode smcd "${args[@]}" \
			background >"$work/start.log" 2>&1 ||
			{ cat "$work/start.log" >&2; return 1; }
	fi
	c0=$(cpu_ticks)
	cap0=$(capture_ticks)
	transfer "$b" || { log "variant $v round $r: the transfer failed"; return 1; }
	wall=$WALL
	c1=$(cpu_ticks)
	cap1=$(capture_ticks)
	if [ "$v" != a ]; then
		[ "${v#?}" != g ] || recs=$(stat_of smcd0 tx_packets)
		"$smc" dump stop dev smcd0 >"$work/stop.log" 2>&1 ||
			{ cat "$work/stop.log" >&2; return 1; }
		# where the records went: tcpdump's ring drops against the
		# link's tx_dropped (records it could not build)
		log "backend variant $v round $r: $(grep -m1 '^smc dump:' "$work/stop.log" || head -n 1 "$work/stop.log")"
		if [ "${v#?}" = g ]; then
			# the bpf backend's ring losses, from its stop summary
			lost=$(sed -n 's/.*, lost \([0-9]*\) (ring full.*/\1/p' "$work/stop.log")
		else
			# records in the file and the numbers missing from it
			st=$("$smc" -j dump stats "$work/c.pcap" | jq -r '.[0].total | "\(.records) \(.lost)"')
			read -r recs lost <<<"$st"
		fi
	fi
	rm -f "$work"/c.pcap*
	read -r u0 n0 s0 i0 w0 q0 sq0 <<<"$c0"
	read -r u1 n1 s1 i1 w1 q1 sq1 <<<"$c1"
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
		"$v" "$r" "$wall" $((2 * conns * b)) "$recs" "${lost:-0}" \
		$((u1 + n1 - u0 - n0)) $((s1 + q1 - s0 - q0)) $((sq1 - sq0)) \
		$((i1 + w1 - i0 - w0)) "$hz" $((cap1 - cap0)) >>"$out/backends.tsv"
	log "backend variant $v round $r: $(awk -v w="$wall" -v b=$((2 * conns * b)) \
		'BEGIN { printf "%.1f s, %.1f MB/s", w / 1e9, b / w * 1e3 }'), records $recs, lost ${lost:-0}"
	sleep 1
}

# capture_ticks: user + system ticks of the capture's processes so far,
# tcpdump and the smc supervisor (the bpf backend's forwarding)
capture_ticks() {
	local p t=0
	for p in $(pgrep -x 'tcpdump|smc'); do
		t=$((t + $(proc_ticks "$p")))
	done
	echo "$t"
}

# rounds_of FUNC VARIANTS: FUNC VARIANT ROUND for each variant of each
# round, the order reversed every other round, after one transfer that is
# not counted: the first runs of a boot were up to 8 % slower than the
# same variant's later ones (page cache, slabs and SMC's buffers still
# growing), which counted against whichever variants came first
rounds_of() {
	local fn=$1 vs=$2 r v order
	transfer "$(tobytes "$bytes")" || { log "the warm-up transfer failed"; return 1; }
	log "warm-up: $(awk -v w="$WALL" 'BEGIN { printf "%.1f s", w / 1e9 }'), not counted"
	for r in $(seq "$rounds"); do
		order=$vs
		[ $((r % 2)) = 0 ] && order=$(echo "$vs" | tr ' ' '\n' | tac | tr '\n' ' ')
		for v in $order; do
			"$fn" "$v" "$r"
		done
	done
}

if [ "${BENCH_GUEST:-}" = backends ]; then
	{
		echo "kernel $(uname -r)"
		echo "cpus $(nproc)"
		echo "smc $(modinfo -n smc)"
	} >"$out/backends-info"
	printf 'variant\tround\twall_ns\tpayload_bytes\trecords\tlost\tcpu_user\tcpu_sys\tcpu_softirq\tcpu_idle\thz\tcapture_cpu\n' \
		>"$out/backends.tsv"
	log "backends: kernel $(uname -r), $conns connections x $bytes each way, $rounds rounds of: $bvariants"
	rounds_of run_backend "$bvariants"
	log "done"
	exit 0
fi

printf 'variant\tround\twall_ns\tpayload_bytes\ttx_packets\ttx_bytes\ttx_dropped\tcaptured\tfilter_received\tkernel_dropped\tcpu_user\tcpu_sys\tcpu_softirq\tcpu_idle\ttcpdump_cpu\thz\n' \
	>"$out/runs.tsv"
{
	echo "kernel $(uname -r)"
	echo "cpus $(nproc)"
	echo "mem_kb $(awk '/MemTotal/ { print $2 }' /proc/meminfo)"
	echo "cost_buffer $costbuf"
} >"$out/guest-info"
log "kernel $(uname -r), $(nproc) CPUs online, $conns connections x $bytes each way, $rounds rounds of: $variants"
rounds_of run_variant "$variants"

# ---- completeness: every record of a full-speed run in the file? ----

# seqs FILE: "records first last missing" of the SMC dump records in a
# pcap, from the decoder (smc dump stats: per link the first and next
# sequence number and the records missing in the jumps between them)
seqs() {
	"$smc" -j dump stats "$1" |
		jq -r '.[0] | [.total.records, (.links[0].first_seq // -1),
			((.links[0].next_seq // 0) - 1), .total.lost] | @tsv'
}

printf 'buffer\tround\twall_ns\tpayload_bytes\ttx_packets\ttx_dropped\tcaptured\tkernel_dropped\tin_file\tseq_first\tseq_last\tseq_missing\tfile_bytes\n' \
	>"$out/complete.tsv"
for r in $(seq "$crounds"); do
	for buf in $buffers; do
		link_add smcd0
		bopt=()
		[ "$buf" = default ] || bopt=(-B "$buf")
		tcpdump_start "$work/tc.log" -w "$work/full.pcap" "${bopt[@]}"
		transfer "$(tobytes "$cbytes")" || { log "completeness run failed"; df -h "$work" >&2; free -m >&2; exit 1; }
		wall=$WALL
		pk=$(stat_of smcd0 tx_packets)
		pd=$(stat_of smcd0 tx_dropped)
		tcpdump_stop "$work/tc.log"
		read -r cc cr cd <<<"$CAP"
		"$nl" del smcd0
		read -r nf sf sl sm <<<"$(seqs "$work/full.pcap")"
		fb=$(stat -c %s "$work/full.pcap")
		rm -f "$work/full.pcap"
		printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' \
			"$buf" "$r" "$wall" $((2 * conns * $(tobytes "$cbytes"))) \
			"$pk" "$pd" "$cc" "$cd" "$nf" "$sf" "$sl" "$sm" "$fb" \
			>>"$out/complete.tsv"
		log "completeness -B $buf: records $pk (+$pd not built), tcpdump captured $cc, dropped by kernel $cd, in file $nf, seq missing $sm"
		sleep 1
	done
done
log "done"
