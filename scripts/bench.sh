#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh - `make bench`: what SMC dump costs the kernel, how complete a
# full-speed capture is, and how fast the decoder reads; one table.
#
#   1. builds the bench kernel (scripts/build-kernel.sh bench: the same
#      series, no debug options; cached like the test kernel);
#   2. boots it once in QEMU and runs scripts/bench-guest.sh there: SMC-D
#      loopback-ism traffic with no link, a link without a tap, tcpdump to
#      tmpfs, capture cdc, snaplen 64 (and two variants that split the cost
#      of tcpdump), interleaved in rounds; then full-speed captures with
#      tcpdump's default buffer and a larger -B;
#   3. runs scripts/bench-decoder.sh on the host;
#   4. prints the table; the raw numbers stay in build/bench/<date>/.
#
# QEMU runs in software emulation (TCG): absolute rates mean nothing, only
# the ratios of variants measured side by side in the same boot do.
#
# The bench kernel's guest runs with QEMU's -icount (shift=0: one
# instruction is one nanosecond of guest time; sleep=off: idle time is
# skipped), so what it measures is instructions executed, which the
# host's load does not move directly. Runs of one variant still differ
# (which vCPU runs what, the idle gaps the clock jumps): 2-6 % on a host
# with nothing else to do (more where tcpdump loses records), up to
# about 20 % in other runs (Documentation/bench.md): hence rounds and
# medians. icount also makes the vCPUs take turns on one host thread: a
# ratio is a cost per byte, not parallel throughput. BENCH_ICOUNT=off
# uses the real clock instead (BENCH_ICOUNT=OPTS: other -icount options).
# The backends boot (Debian's kernel) runs on the real clock, see
# BENCH_BACKENDS_ICOUNT below.
#
# Environment: BENCH_ICOUNT; BENCH_BACKENDS (0: no backends boot),
# BENCH_BACKENDS_ICOUNT (off), BENCH_BACKEND_VARIANTS; BENCH_TIMEOUT (s,
# default 14400);
# BENCH_CONNS, BENCH_BYTES, BENCH_ROUNDS, BENCH_VARIANTS,
# BENCH_COMPLETE_BYTES, BENCH_BUFFERS, BENCH_COST_BUFFER, BENCH_PERF (see
# bench-guest.sh); BENCH_MEM
# (guest memory, default 8G: the captures sit in tmpfs, (c) takes 2.1 x
# CONNS x BYTES);
# BENCH_DECODER=0 leaves the decoder out; SMC_DUMP_BENCH_SCALE (records of
# the scale runs, default 200000), SMC_DUMP_BENCH_SIZE (default
# 256M here) and SMC_DUMP_BENCH_TSHARK go to bench-decoder.sh;
# BENCH_RESULTS=DIR only prints the table of an earlier run.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "${BENCH_RESULTS:-}" ]; then
	# relative to where we were called from
	res=$(CDPATH='' cd -- "$BENCH_RESULTS" 2>/dev/null && pwd) || res=/nonexistent
	if [ ! -f "$res/runs.tsv" ]; then
		echo "bench: BENCH_RESULTS=$BENCH_RESULTS: no runs.tsv of a bench run there" >&2
		exit 2
	fi
fi
cd "$top"

bad() { echo "bench: $1=${!1} $2" >&2; exit 2; }

if [ -z "${BENCH_RESULTS:-}" ]; then
	# checked here, before a kernel build and a boot: bash reads 010 as
	# octal, smc-traffic as decimal; at most 6 digits, so that nothing
	# overflows bash's 64-bit arithmetic
	for v in BENCH_CONNS BENCH_ROUNDS BENCH_COMPLETE_ROUNDS BENCH_TIMEOUT; do
		[ -z "${!v:-}" ] || [[ ${!v} =~ ^[1-9][0-9]{0,5}$ ]] ||
			bad "$v" "must be a positive decimal number below 1000000"
	done
	for v in BENCH_BYTES BENCH_COMPLETE_BYTES; do
		[ -z "${!v:-}" ] || [[ ${!v} =~ ^[1-9][0-9]{0,5}[kKmMgG]?$ ]] ||
			bad "$v" "must be a size such as 256M (up to 6 digits, then k, M or G)"
	done
	[ -z "${BENCH_PERF:-}" ] || [[ $BENCH_PERF =~ ^[1-9][0-9]{0,5}$ ]] ||
		bad BENCH_PERF "must be a sampling rate in Hz"
	[ -z "${BENCH_COST_BUFFER:-}" ] || [ "$BENCH_COST_BUFFER" = default ] ||
		[[ $BENCH_COST_BUFFER =~ ^[1-9][0-9]{0,7}$ ]] ||
		bad BENCH_COST_BUFFER "must be a size in KiB or 'default'"
	[ -z "${BENCH_MEM:-}" ] || [[ $BENCH_MEM =~ ^[1-9][0-9]{0,5}[MG]$ ]] ||
		bad BENCH_MEM "must be a memory size such as 8G"
	# empty: the defaults (bench-guest.sh)
	if [ -n "${BENCH_BUFFERS:-}" ]; then
		for w in $BENCH_BUFFERS; do
			[ "$w" = default ] || [[ $w =~ ^[1-9][0-9]{0,7}$ ]] ||
				bad BENCH_BUFFERS "must be words 'default' or sizes in KiB"
		done
	fi
	if [ -n "${BENCH_VARIANTS:-}" ]; then
		seen=" "
		for w in $BENCH_VARIANTS; do
			[[ $w == [a-hu] ]] || bad BENCH_VARIANTS "must be variants from a b c d e f g h u"
			[[ $seen != *" $w "* ]] || bad BENCH_VARIANTS "names $w twice"
			seen+="$w "
		done
		[ "$seen" != " " ] || bad BENCH_VARIANTS "must name at least one variant"
		[[ $seen == *" a "* ]] ||
			echo "bench: BENCH_VARIANTS without a: no ratios, only the other figures" >&2
	fi
	[ -z "${BENCH_BACKENDS:-}" ] || [[ $BENCH_BACKENDS == [01] ]] ||
		bad BENCH_BACKENDS "must be 0 or 1"
	if [ -n "${BENCH_BACKEND_VARIANTS:-}" ]; then
		seen=" "
		for w in $BENCH_BACKEND_VARIANTS; do
			[[ $w == @(a|[kp][cdegn]) ]] ||
				bad BENCH_BACKEND_VARIANTS "must be variants from a kc kd ke kg kn pc pd pe pg pn"
			[[ $seen != *" $w "* ]] || bad BENCH_BACKEND_VARIANTS "names $w twice"
			seen+="$w "
		done
		[[ $seen == *" a "* ]] || bad BENCH_BACKEND_VARIANTS "must name a (the ratios' base)"
	fi
	res=$top/build/bench/$(date +%Y%m%d-%H%M%S)
	mkdir -p "$res"
	echo "bench: results in $res" >&2

	echo "bench: building the bench kernel (non-debug config; cached after the first build)" >&2
	if ! bz=$(bash scripts/build-kernel.sh bench 2>"$res/kernel-build.log"); then
		tail -30 "$res/kernel-build.log" >&2
		echo "bench: the bench kernel did not build" >&2
		exit 1
	fi
	cp "$(dirname "$bz")/.config" "$res/kernel.config"
	make -s -C smc >/dev/null
	make -s -C testsuite/tools >/dev/null

	echo "bench: kernel-cost and completeness runs in QEMU (takes a while under TCG)" >&2
	for v in BENCH_CONNS BENCH_BYTES BENCH_ROUNDS BENCH_VARIANTS BENCH_BACKEND_VARIANTS \
		 BENCH_COMPLETE_BYTES BENCH_COMPLETE_ROUNDS BENCH_BUFFERS BENCH_COST_BUFFER BENCH_PERF; do
		[ -z "${!v:-}" ] || printf '%s=%q\n' "$v" "${!v}"
	done >"$res/guest.env"
	# The guest's clock counts instructions (-icount): the host's load,
	# shared with other VMs, then changes how long a run takes in real
	# time but not what the guest measures. BENCH_ICOUNT=off: the real
	# clock (ratios then move with the host's load by 10-20 %).
	icount=${BENCH_ICOUNT-shift=0,sleep=off}
	# Debian's kernel did not survive -icount here (QEMU 7.2): each of
	# its backends boots under -icount died in its first capture run, two
	# of a double fault (at an sti in _raw_spin_unlock_irq from a tmpfs
	# write, EFLAGS garbage; in kmem_cache_alloc from skb_clone), one of a
	# NULL smcd->ops in smcd_tx_ism_write (the loopback-ism device's ops,
	# set once at module load). Without -icount the same boot ran through,
	# and the test kernel with KASAN runs the same smc code clean. So that
	# boot takes the real clock (BENCH_BACKENDS_ICOUNT=OPTS: -icount
	# anyway) and its ratios move with the host's load.
	bicount=${BENCH_BACKENDS_ICOUNT:-off}
	# No LA57 (5-level paging) in the guests' CPU: Debian's kernel uses it
	# where the CPU has it; the bench kernel has 4-level paging anyway.
	# clock_args OPTS FILE: QEMU's clock options for -icount OPTS ("off":
	# the real clock) into the array cargs, the clock's name into FILE
	clock_args() {
		cargs=(--qemu-arg -cpu --qemu-arg max,la57=off)
		if [ -n "$1" ] && [ "$1" != off ]; then
			cargs+=(--qemu-arg -icount --qemu-arg "$1")
			echo "icount $1" >"$2"
		else
			echo "real" >"$2"
		fi
	}
	# boot CONSOLE GUEST [RUN-VM OPTION]...: bench-guest.sh in a guest
	# (BENCH_GUEST=GUEST), its console in $res/CONSOLE; exits on failure;
	# QEMU's clock from cargs
	boot() {
		local con=$res/$1 guest=$2 rc=0
		shift 2
		testsuite/vm/run-vm "$@" --mem "${BENCH_MEM:-8G}" --smp 2 \
			"${cargs[@]}" --timeout "${BENCH_TIMEOUT:-14400}" --share "$res" -- \
			bash -c "set -a; . /run/shared/guest.env; BENCH_GUEST=$guest; set +a; exec bash $top/scripts/bench-guest.sh /run/shared" \
			>"$con" 2>&1 || rc=$?
		grep '^bench-guest:' "$con" >&2 || true
		if [ "$rc" != 0 ]; then
			tail -40 "$con" >&2
			echo "bench: the VM runs failed (exit $rc, $con)" >&2
			exit 1
		fi
	}
	clock_args "$icount" "$res/clock"
	boot console.log "" --kernel "$bz"

	if [ "${BENCH_BACKENDS:-1}" != 0 ]; then
		# Debian's kernel with smc-dump-dkms's modules: the smc-dummy
		# kind and BTF for the smc module, so both backends on one kernel
		echo "bench: backends kernel and bpf on Debian's kernel with smc-dump-dkms's modules (make deb, the DKMS build)" >&2
		bash scripts/make-deb.sh >"$res/deb.log" 2>&1 ||
			{ tail -20 "$res/deb.log" >&2; echo "bench: make deb failed" >&2; exit 1; }
		deb=$(ls build/deb/smc-dump-dkms_*_all.deb | tail -n 1)
		lib=$(bash scripts/stock-dkms.sh "$deb" 2>"$res/dkms.log") ||
			{ tail -20 "$res/dkms.log" >&2; echo "bench: the DKMS build failed" >&2; exit 1; }
		clock_args "$bicount" "$res/backends-clock"
		# -mem-prealloc: QEMU backs all of the guest's RAM before it
		# boots. Without it the first run that writes 2 GiB to tmpfs
		# touches guest pages the host has not backed yet, a host page
		# fault each, on the real clock; a machine with real RAM has no
		# such faults. The first full capture of a boot (kc) lost 11 %
		# and 3.9 % of its records in two boots without it, 0 in two
		# with it; later rounds still lose some in some runs
		# (Documentation/bench.md).
		boot backends-console.log backends --stock --stock-lib "$lib" \
			--qemu-arg -mem-prealloc
	fi

	if [ "${BENCH_DECODER:-1}" != 0 ]; then
		echo "bench: decoder (scripts/bench-decoder.sh, on the host)" >&2
		SMC_DUMP_BENCH_SIZE=${SMC_DUMP_BENCH_SIZE:-256M} \
			bash scripts/bench-decoder.sh >"$res/decoder.txt" 2>"$res/decoder.log" || {
			cat "$res/decoder.log" >&2
			echo "bench: bench-decoder.sh failed" >&2
			exit 1
		}
	fi
	uname -r >"$res/host-kernel"
fi

python3 - "$res" <<'PY'
import csv, math, os, statistics, sys

res = sys.argv[1]
med = statistics.median

def bad(msg):
    print("bench: %s: %s" % (res, msg), file=sys.stderr)
    sys.exit(2)

# the columns of each file: numbers that must be finite and >= 0; those
# that are divided by must be > 0
COLS = {
    "runs.tsv": ("variant", ("round", "wall_ns", "payload_bytes", "tx_packets",
                 "tx_bytes", "tx_dropped", "captured", "filter_received",
                 "kernel_dropped", "cpu_user", "cpu_sys", "cpu_softirq",
                 "cpu_idle", "tcpdump_cpu", "hz"),
                 ("round", "wall_ns", "payload_bytes", "hz")),
    "backends.tsv": ("variant", ("round", "wall_ns", "payload_bytes", "records",
                     "lost", "cpu_user", "cpu_sys", "cpu_softirq", "cpu_idle", "hz"),
                     ("round", "wall_ns", "payload_bytes", "hz")),
    "complete.tsv": ("buffer", ("round", "wall_ns", "payload_bytes",
                     "tx_packets", "tx_dropped", "captured", "kernel_dropped",
                     "in_file", "seq_missing", "file_bytes"),
                     ("wall_ns", "payload_bytes")),
}

# columns added later: checked as above where a file has them
OPTIONAL = {"backends.tsv": ("capture_cpu",)}

def rows(name):
    p = os.path.join(res, name)
    if not os.path.exists(p):
        return []
    key, nums, positive = COLS[name]
    if rs_has_header(p, OPTIONAL.get(name, ())):
        nums = nums + OPTIONAL[name]
    try:
        with open(p, newline="") as f:
            rs = list(csv.DictReader(f, delimiter="\t"))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        bad("%s: %s" % (name, e))
    for i, r in enumerate(rs, 2):
        if not r.get(key):
            bad("%s line %d: no %s" % (name, i, key))
        for k in nums:
            try:
                x = float(r.get(k))
            except (TypeError, ValueError):
                bad("%s line %d: %s is %r, not a number" % (name, i, k, r.get(k)))
            if (not math.isfinite(x) or x < 0 or (k in positive and x <= 0)
                    or (k == "round" and not r[k].isdigit())):
                bad("%s line %d: %s is %s" % (name, i, k, r[k]))
    return rs

def rs_has_header(p, cols):
    """all of COLS in the header line of the TSV file P"""
    if not cols:
        return False
    try:
        with open(p, newline="") as f:
            head = f.readline().rstrip("\r\n").split("\t")
    except (OSError, UnicodeDecodeError):
        return False
    return all(c in head for c in cols)

def info(name="guest-info"):
    d = {}
    p = os.path.join(res, name)
    if os.path.exists(p):
        for line in open(p):
            k, _, v = line.strip().partition(" ")
            d[k] = v
    return d

runs = rows("runs.tsv")
comp = rows("complete.tsv")
if not runs:
    bad("runs.tsv holds no runs")
gi = info()
clock = "real"
if os.path.exists(os.path.join(res, "clock")):
    clock = open(os.path.join(res, "clock")).read().strip()
names = {
    "a": "(a) no smc-dummy link",
    "b": "(b) link, no tap",
    "c": "(c) link, tcpdump -w tmpfs",
    "d": "(d) capture cdc, tcpdump -w tmpfs",
    "e": "(e) snaplen 64, tcpdump -w tmpfs",
    "f": "(f) link, tcpdump -w /dev/null",
    "g": "(g) link, tap whose filter drops all",
    "h": "(h) link, no tap; -i any elsewhere",
    "u": "(u) as (d), tcpdump -U",
}
targets = {"b": 0.98, "d": 0.90, "h": 0.98}
F = lambda r, k: float(r[k])

def kern(r):
    """the guest's system + softirq time per byte moved"""
    return (F(r, "cpu_sys") + F(r, "cpu_softirq")) / F(r, "payload_bytes")

by = {}
for r in runs:
    by.setdefault(r["variant"], {})[int(r["round"])] = r

print()
print("smc-dump bench, %s" % os.path.basename(res.rstrip("/")))
kconf = ""
p = os.path.join(res, "kernel.config")
if os.path.exists(p):
    c = open(p).read().splitlines()
    kconf = "; %s, %s, %s" % (
        "-O2" if "CONFIG_CC_OPTIMIZE_FOR_PERFORMANCE=y" in c else "-Os",
        "SLUB_TINY" if "CONFIG_SLUB_TINY=y" in c else "SLUB with per-CPU caches",
        "BPF JIT" if "CONFIG_BPF_JIT=y" in c else "BPF interpreter")
print("Guest: kernel %s with the bench config (no debug options%s), %s CPU(s)"
      " online, QEMU TCG software emulation on a shared 2-core host."
      % (gi.get("kernel", "?"), kconf, gi.get("cpus", "?")))
print("Absolute rates under TCG mean nothing: the ratios of variants run side"
      " by side in one boot are the result.")
if clock.startswith("icount"):
    print("Clock: QEMU -%s: guest time counts the instructions the vCPUs"
          " execute (2^shift ns each, idle skipped); with icount the vCPUs take"
          " turns on one host thread, so a run's 'time' is the instructions of"
          " both CPUs together. A ratio is then (a)'s instructions per byte over"
          " (v)'s: the cost of capture, not parallel throughput. Runs of one"
          " variant agreed within 2-6 %% on a host with nothing else to do,"
          " within up to 20 %% in other runs (Documentation/bench.md)." % clock)
else:
    print("Clock: real time of a shared host: expect 10-20 % noise between runs.")

if "a" in by:
    a = by["a"]
    r0 = next(iter(a.values()))
    print()
    print("1. Kernel cost: SMC-D loopback-ism, smc-traffic moving %.0f MiB per run"
          " (all connections, both directions; --no-verify: counted, not hashed), %d rounds,"
          " the order of the variants reversed every other round."
          % (F(r0, "payload_bytes") / 2**20, len(a)))
    cb = gi.get("cost_buffer", "?")
    print("   tcpdump buffer in (c)-(f) and (u): %s; a run in which tcpdump"
          " keeps up captures every record, see 'lost records'."
          % ("libpcap's default (2 MiB)" if cb == "default"
             else "-B %s (%d MiB)" % (cb, int(cb) // 1024) if cb.isdigit()
             else "not recorded (no guest-info)" if cb == "?" else cb))
    print("   ratio: throughput(v) / throughput(a) of the same round, median"
          " [min..max]; kernel CPU/byte: the guest's system + softirq time per"
          " byte moved, over (a)'s (the traffic tool's own user time"
          " left out).")
    print()
    fmt = "%-38s %6s %15s %11s %8s %9s %9s %7s %7s"
    print(fmt % ("variant", "ratio", "[min..max]", "target", "kern CPU",
                 "records/s", "MB/s", "lost", "tcpdump"))
    print(fmt % ("", "", "", "", "per byte", "to taps", "to taps", "records", "CPU"))
    print("-" * 118)
    ratio = {}
    kcpu = {}
    for v in sorted(by):
        rs = [(by[v][k], a[k]) for k in sorted(by[v]) if k in a]
        if not rs:
            continue
        ratios = [F(ra, "wall_ns") / F(r, "wall_ns") for r, ra in rs]
        kr = [kern(r) / kern(ra) for r, ra in rs if kern(ra) > 0]
        w = [F(r, "wall_ns") / 1e9 for r, _ in rs]
        recs = med([F(r, "tx_packets") / t for (r, _), t in zip(rs, w)])
        mbs = med([F(r, "tx_bytes") / t / 1e6 for (r, _), t in zip(rs, w)])
        lost = [(F(r, "tx_packets") + F(r, "tx_dropped") - F(r, "captured"))
                / (F(r, "tx_packets") + F(r, "tx_dropped"))
                for r, _ in rs if F(r, "tx_packets") > 0 and F(r, "filter_received") > 0]
        tc = med([F(r, "tcpdump_cpu") / F(r, "hz") / t for (r, _), t in zip(rs, w)])
        m = med(ratios)
        ratio[v], kcpu[v] = m, (med(kr) if kr else float("nan"))
        t = targets.get(v)
        ok = t is not None and m >= t
        # (h) builds nothing: a record on its link is a miss at any speed
        if v == "h" and any(F(r, "tx_packets") > 0 for r, _ in rs):
            ok = False
        ts = "" if t is None else (">=%.2f %s" % (t, "ok" if ok else "MISS"))
        print("%-38s %6.3f %15s %11s %7.2fx %9.0f %9.1f %7s %6.0f%%" % (
            names.get(v, v), m, "[%.3f..%.3f]" % (min(ratios), max(ratios)), ts,
            kcpu[v], recs, mbs, ("%.1f%%" % (100 * med(lost))) if lost else "-",
            100 * tc))
    if "d" in ratio and "u" in ratio:
        print()
        print("   tcpdump -U, as smc dump start runs it (one write() per record):"
              " (u) against (d), both capture cdc, costs %+.1f%% of (a)'s time"
              " per byte. The small records are where the flush shows: without"
              " -U about 30 CDC records share one write() of stdio's 4 KiB buffer, a"
              " 64 KiB data record takes one or two write()s either way."
              % (100 * (1 / ratio["u"] - 1 / ratio["d"])))
    print()
    print("   records/s, MB/s to taps: the link's tx_packets and tx_bytes per"
          " second; lost records: matched the link but not captured by tcpdump"
          " (its ring was full); tcpdump CPU: its user + system time over the"
          " run's wall time.")
    if all(k in ratio for k in "acfg"):
        def cost(v):
            return 100 * (1 / ratio[v] - 1)
        c = [by["c"][k] for k in sorted(by["c"])]
        hz = F(c[0], "hz")
        print()
        print("   Where (c)'s time goes: extra wall time per byte moved, in %% of"
              " (a)'s, from the medians: %+.1f%% in all" % cost("c"))
        print("     building each record and handing it to a tap (g - a):    %+6.1f%%" % cost("g"))
        print("     copying it into tcpdump's ring, waking tcpdump (f - g):  %+6.1f%%" % (cost("f") - cost("g")))
        print("     tcpdump writing the file on tmpfs (c - f):               %+6.1f%%" % (cost("c") - cost("f")))
        if "b" in ratio:
            print("     for scale: the hooks with a link and no tap (b - a):     %+6.1f%%" % cost("b"))
        print("     guest CPU in a (c) run (median): wall %.1f s; user %.1f s, system"
              " %.1f s, softirq %.1f s, idle %.1f s; tcpdump itself %.1f s; kernel"
              " CPU per byte %.2fx (a)'s"
              % (med(F(r, "wall_ns") / 1e9 for r in c),
                 med(F(r, "cpu_user") / hz for r in c),
                 med(F(r, "cpu_sys") / hz for r in c),
                 med(F(r, "cpu_softirq") / hz for r in c),
                 med(F(r, "cpu_idle") / hz for r in c),
                 med(F(r, "tcpdump_cpu") / hz for r in c), kcpu["c"]))

if comp:
    print()
    print("2. Completeness at full speed: tcpdump -w to tmpfs (no rotation) on a"
          " link with the default filter, %.0f MiB per run; lost = records that"
          " matched the link (tx_packets + tx_dropped) and are not in the file."
          % (F(comp[0], "payload_bytes") / 2**20))
    print()
    fmt = "%-20s %9s %9s %9s %8s %9s %11s %10s %8s"
    print(fmt % ("tcpdump buffer", "matched", "in file", "lost", "lost",
                 "seq gaps", "tcpdump", "not built", "MiB/s"))
    print(fmt % ("", "records", "", "", "", "in file", "kernel drop", "tx_dropped", "moved"))
    print("-" * 100)
    for r in comp:
        matched = int(r["tx_packets"]) + int(r["tx_dropped"])
        lost = matched - int(r["in_file"])
        b = ("default (2 MiB)" if r["buffer"] == "default"
             else "-B %s (%d MiB)" % (r["buffer"], int(r["buffer"]) // 1024)
             if r["buffer"].isdigit() else r["buffer"])
        print("%-20s %9d %9s %9d %7.2f%% %9s %11s %10s %8.1f" % (
            b, matched, r["in_file"], lost, 100.0 * lost / matched if matched else 0,
            r["seq_missing"], r["kernel_dropped"], r["tx_dropped"],
            F(r, "payload_bytes") / (F(r, "wall_ns") / 1e9) / 2**20))
    print()
    print("   seq gaps in file: numbers missing between the first and the last"
          " record of the file; tcpdump kernel drop: its 'packets dropped by"
          " kernel' (ring full); tx_dropped: records the kernel could not"
          " build (no memory).")

brs = rows("backends.tsv")
bby = {}
for r in brs:
    bby.setdefault(r["variant"], {})[int(r["round"])] = r
if "a" in bby:
    bi = info("backends-info")
    a = bby["a"]
    r0 = next(iter(a.values()))
    print()
    bclock = "icount (not recorded)"
    p = os.path.join(res, "backends-clock")
    if os.path.exists(p):
        bclock = open(p).read().strip()
    print("4. Backends side by side: Debian's kernel %s with smc-dump-dkms's"
          " modules (the smc-dummy kind and BTF for smc.ko), %.0f MiB per run,"
          " rounds: %d; `smc dump start dev smcd0 mode smcd ... background`"
          " with backend kernel (k) or bpf (p); ratio: throughput over (a)'s"
          " in the same round, median [min..max]. Clock: %s."
          % (bi.get("kernel", "?"), F(r0, "payload_bytes") / 2**20, len(a),
             "the real clock of a shared host (Debian's kernel did not survive"
             " -icount here, see scripts/bench.sh): expect 10-20 % noise"
             if bclock == "real" else "QEMU -" + bclock))
    print()
    bnames = {"a": "(a) no capture",
              "c": "all records to tmpfs", "d": "type cdc, tmpfs",
              "e": "snaplen 64, tmpfs", "g": "filter that drops all",
              "n": "all records, nice 0"}
    fmt = "%-38s %6s %15s %8s %9s %8s %8s"
    print(fmt % ("variant", "ratio", "[min..max]", "kern CPU", "records", "lost", "capture"))
    print(fmt % ("", "", "", "per byte", "", "records", "CPU"))
    print("-" * 99)
    bratio = {}
    blost = {}
    order = ["a"] + [b + x for x in "cndeg" for b in "kp"]
    for v in order + sorted(set(bby) - set(order)):
        if v not in bby:
            continue
        rs = [(bby[v][k], a[k]) for k in sorted(bby[v]) if k in a]
        if not rs:
            continue
        ratios = [F(ra, "wall_ns") / F(r, "wall_ns") for r, ra in rs]
        kr = [kern(r) / kern(ra) for r, ra in rs if kern(ra) > 0]
        m = med(ratios)
        bratio[v] = m
        name = bnames["a"] if v == "a" else "(%s) %s: %s" % (
            v, "kernel" if v[0] == "k" else "bpf", bnames.get(v[1:], v[1:]))
        recs = med([F(r, "records") for r, _ in rs])
        lost = [F(r, "lost") / (F(r, "records") + F(r, "lost"))
                for r, _ in rs if F(r, "records") + F(r, "lost") > 0]
        blost[v] = med(lost) if lost else 0.0
        # capture_cpu (ticks of tcpdump and smc's supervisor): a later
        # column, absent from older runs
        cc = [F(r, "capture_cpu") / F(r, "hz") / (F(r, "wall_ns") / 1e9)
              for r, _ in rs if r.get("capture_cpu") not in (None, "")]
        print("%-38s %6.3f %15s %7.2fx %9.0f %8s %8s" % (
            name, m, "[%.3f..%.3f]" % (min(ratios), max(ratios)),
            med(kr) if kr else float("nan"), recs,
            ("%.1f%%" % (100 * med(lost))) if lost else "-",
            ("%.0f%%" % (100 * med(cc))) if cc and v != "a" else "-"))
    print()
    print("   records: in the file (c, d, e, n) or sent to the link (g), median;"
          " lost: numbers missing from the file's seq (c, d, e, n: the bpf ring"
          " or tcpdump's ring was full) or the bpf backend's ring losses at stop"
          " (g), of records plus lost; capture CPU: user + system time of"
          " tcpdump and smc's supervisor (the bpf backend's forwarding) during"
          " the transfer (not the drain after it) over its time, median (100%"
          " is one vCPU's worth).")
    if "kc" in bratio and "pc" in bratio:
        print("   Full capture: bpf %.3f against kernel %.3f of (a)'s throughput,"
              " losing %.1f%% and %.1f%% of the records: the %s backend costs the"
              " sender less%s."
              % (bratio["pc"], bratio["kc"], 100 * blost["pc"], 100 * blost["kc"],
                 "bpf" if bratio["pc"] > bratio["kc"] else "kernel",
                 "" if max(blost["pc"], blost["kc"]) < 0.01 else
                 " (for the records it kept: a capture that loses records does less work)"))
    if "kc" in bratio and "kn" in bratio:
        print("   Priority (smc dump start nice): at the default -19 the kernel"
              " backend's full capture keeps %.3f of (a)'s throughput, losing"
              " %.1f%%; at nice 0, %.3f, losing %.1f%%."
              % (bratio["kc"], 100 * blost["kc"], bratio["kn"], 100 * blost["kn"]))

dec = os.path.join(res, "decoder.txt")
if os.path.exists(dec):
    print()
    print("3. Decoder: scripts/bench-decoder.sh, on the host (not in QEMU):")
    for line in open(dec):
        print("   " + line.rstrip())
print()
PY
