#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench-decoder.sh - speed of `smc dump read` on a large generated capture,
# beside `tcpdump -r FILE -w /dev/null` (libpcap reading the file and
# writing it back: the floor of any pcap reader) and `tshark -r FILE`
# (Wireshark's full decode), and `smc dump analyze` and `graph` on the
# same file. One run of each; ratios against tcpdump and against read.
#
# Environment:
#   SMC_DUMP_BENCH_SIZE  bytes of SMC dump records to generate (UDP
#                        payloads); K, M, G suffixes (powers of 1024);
#                        default 1G
#   SMC_DUMP_BENCH_DIR   where the capture goes (default: a new directory
#                        under ${TMPDIR:-/tmp}, removed at the end)
#   SMC_DUMP_BENCH_FSDIR where follow and its floor write their files
#                        (default: a new directory under /dev/shm when
#                        writable, else SMC_DUMP_BENCH_DIR's)
#   SMC_DUMP_BENCH_TSHARK=0  leave tshark out (it takes minutes per GB)
#   SMC_DUMP_BENCH_SCALE records of the scale runs (default 200000)
#   SMC_DUMP_BENCH_RUNS  runs of each scale command, the median is shown
#                        (default 3)
#
# The capture holds 4 SMC-R connections, data records of 1 to 16 KiB in
# both directions, each followed by its CDC message (gen-smcdump-pcap
# bench). Output goes to /dev/null; the page cache is warmed first so that
# every tool reads from memory.
set -euo pipefail

top="$(cd "$(dirname "$0")/.." && pwd)"
smc="$top/smc/smc"
gen="$top/testsuite/tools/gen-smcdump-pcap"

size_arg="${SMC_DUMP_BENCH_SIZE:-1G}"
case "$size_arg" in
*[kK]) size=$((${size_arg%?} * 1024)) ;;
*[mM]) size=$((${size_arg%?} * 1024 * 1024)) ;;
*[gG]) size=$((${size_arg%?} * 1024 * 1024 * 1024)) ;;
*[0-9]) size=$size_arg ;;
*) echo "bench-decoder: bad SMC_DUMP_BENCH_SIZE '$size_arg'" >&2; exit 2 ;;
esac

scale=${SMC_DUMP_BENCH_SCALE:-200000}
case "$scale" in
''|*[!0-9]*) echo "bench-decoder: bad SMC_DUMP_BENCH_SCALE '$scale'" >&2; exit 2 ;;
esac
runs=${SMC_DUMP_BENCH_RUNS:-3}
case "$runs" in
''|*[!0-9]*|0) echo "bench-decoder: bad SMC_DUMP_BENCH_RUNS '$runs'" >&2; exit 2 ;;
esac

make -s -C "$top/smc" >/dev/null
make -s -C "$top/testsuite/tools" gen-smcdump-pcap >/dev/null
for t in tcpdump; do
	command -v "$t" >/dev/null || { echo "bench-decoder: $t missing" >&2; exit 2; }
done
with_tshark="${SMC_DUMP_BENCH_TSHARK:-1}"
if [ "$with_tshark" != 0 ] && ! command -v tshark >/dev/null; then
	echo "bench-decoder: tshark missing, left out" >&2
	with_tshark=0
fi

cleanup=()
trap 'rm -rf "${cleanup[@]}"' EXIT
if [ -n "${SMC_DUMP_BENCH_DIR:-}" ]; then
	dir="$SMC_DUMP_BENCH_DIR"
	mkdir -p "$dir"
else
	dir="$(mktemp -d "${TMPDIR:-/tmp}/smc-dump-bench.XXXXXX")"
	cleanup+=("$dir")
fi
cap="$dir/bench.pcap"
if [ -n "${SMC_DUMP_BENCH_FSDIR:-}" ]; then
	fsdir="$SMC_DUMP_BENCH_FSDIR"
	mkdir -p "$fsdir"
elif [ -d /dev/shm ] && [ -w /dev/shm ]; then
	fsdir="$(mktemp -d /dev/shm/smc-dump-bench.XXXXXX)"
	cleanup+=("$fsdir")
else
	fsdir="$dir"
fi

echo "generating $size bytes of records in $cap ..." >&2
"$gen" "$cap" bench "$size"
bytes=$(stat -c %s "$cap")
# every frame of a bench capture is one record
records=$("$smc" -j dump stats "$cap" |
	  sed -n 's/.*"total":{"frames":\([0-9]*\),.*/\1/p')
[ -n "$records" ] || { echo "bench-decoder: cannot count the records" >&2; exit 1; }
cat "$cap" >/dev/null	# warm the page cache

# seconds (with ns) a command takes, its output to /dev/null
elapsed() {
	local t0 t1

	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1 || true
	t1=$(date +%s%N)
	echo $((t1 - t0))
}

declare -a names ns
run() {
	local name="$1"

	shift
	echo "running $name ..." >&2
	names+=("$name")
	ns+=("$(elapsed "$@")")
}

run "tcpdump -r FILE -w /dev/null" tcpdump -r "$cap" -w /dev/null
run "smc dump read FILE" "$smc" dump read "$cap"
run "smc -j dump read FILE" "$smc" -j dump read "$cap"
run "smc dump stats FILE" "$smc" dump stats "$cap"
run "smc dump analyze FILE" "$smc" dump analyze "$cap"
run "smc dump graph FILE (PNG)" "$smc" dump graph write "$dir/graph.png" "$cap"
if [ "$with_tshark" != 0 ]; then
	run "tshark -r FILE" tshark -r "$cap"
fi

printf '\ncapture: %s bytes, %s records (%s of records asked)\n\n' \
	"$bytes" "$records" "$size_arg"
printf '%-30s %10s %12s %10s %11s %8s\n' "command" "seconds" "records/s" \
	"MB/s" "x tcpdump" "x read"
base=${ns[0]}
rbase=${ns[1]}
for i in "${!names[@]}"; do
	awk -v n="${names[i]}" -v t="${ns[i]}" -v b="$bytes" -v r="$records" \
	    -v base="$base" -v rbase="$rbase" 'BEGIN {
		s = t / 1e9; if (s <= 0) s = 1e-9
		printf "%-30s %10.3f %12.0f %10.1f %11.2f %8.2f\n", n, s, r / s,
		       b / s / 1e6, t / base, (rbase > 0 ? t / rbase : 0)
	}'
done

# Scale: 200k records that are each their own connection, and
# 200k records of one stream in reverse order with holes; follow, stats
# and analyze against read on the same file, with the maximum RSS of each.
# SMC_DUMP_BENCH_SCALE sets the number of records.
python3 -c '
import sys
n = int(sys.argv[1])
for i in range(n):
    print("data token=%d seq=%d offset=0 len=64 lport=%d" % (i, i + 1, 1024 + i % 60000))
' "$scale" | "$gen" "$dir/conns.pcap"
python3 -c '
import sys
n = int(sys.argv[1])
for i in range(n):
    print("data token=7 seq=%d offset=%d len=64" % (i + 1, (n - 1 - i) * 128))
' "$scale" | "$gen" "$dir/reverse.pcap"
# and half as many connections with one record each sent twice (an
# overlap each, as a failover makes): each stream's list of overlaps must
# cost what one range does, not room for the most it shows
python3 -c '
import sys
n = int(sys.argv[1]) // 2
for i in range(n):
    r = "data token=%d offset=0 len=64 lport=%d" % (i + 1, 1024 + i % 60000)
    print(r); print(r)
' "$scale" | "$gen" "$dir/overlaps.pcap"

# "seconds KiB" of a command, output to /dev/null: the CPU seconds it
# took (user + system: the file system's work for follow is system time),
# not the wall clock, so that a loaded machine moves the ratios less; the
# median of SMC_DUMP_BENCH_RUNS runs, with that run's max RSS; $before,
# when set, is run before each
measure() {
	local i

	for ((i = 0; i < runs; i++)); do
		[ -z "${before:-}" ] || eval "$before"
		/usr/bin/time -f "%U %S %M" -o "$dir/time.out" "$@" >/dev/null 2>&1 || true
		awk '{ printf "%.2f %s\n", $1 + $2, $3 }' "$dir/time.out"
	done | sort -n | sed -n "$(( (runs + 1) / 2 ))p"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
# ok when A <= 3 * B
verdict() { awk -v a="$1" -v b="$2" 'BEGIN { print (a <= 3 * b ? "ok" : "MISS") }'; }

# follow must create a file per stream and write its bytes: the floor is
# testsuite/tools/mkfiles creating the same files with the same sizes,
# and follow's target is its time above that floor within 3x read. Both
# write to tmpfs ($fsdir, SMC_DUMP_BENCH_FSDIR; /dev/shm when writable):
# on a disk file system, deleting and creating 400k files leaves journal
# and writeback work that lands on whichever run comes next, and moved
# the same command's figure by factors of 10.
make -s -C "$top/testsuite/tools" mkfiles >/dev/null
printf '\n%-30s %8s %12s %8s %8s %15s\n' "scale ($scale records)" "CPU s" \
	"max RSS KiB" "x read" "target" "x floor"
for f in conns reverse overlaps; do
	before=
	read -r rs rk < <(measure "$smc" dump read "$dir/$f.pcap")
	printf '%-30s %8.2f %12s %8s\n' "smc dump read $f" "$rs" "$rk" "1.00"
	read -r ss sk < <(measure "$smc" dump stats "$dir/$f.pcap")
	printf '%-30s %8.2f %12s %8s %8s\n' "smc dump stats $f" "$ss" "$sk" \
		"$(ratio "$ss" "$rs")" "3x $(verdict "$ss" "$rs")"
	read -r as ak < <(measure "$smc" dump analyze "$dir/$f.pcap")
	printf '%-30s %8.2f %12s %8s\n' "smc dump analyze $f" "$as" "$ak" \
		"$(ratio "$as" "$rs")"
	before='rm -rf "$fsdir/follow"'
	read -r fs fk < <(measure "$smc" dump follow "$dir/$f.pcap" "$fsdir/follow")
	find "$fsdir/follow" -type f -printf '%f %s\n' >"$dir/files.list"
	before='rm -rf "$fsdir/floor"; mkdir "$fsdir/floor"'
	read -r ms mk < <(measure sh -c 'exec "$1" "$2" <"$3"' mkfiles \
			  "$top/testsuite/tools/mkfiles" "$fsdir/floor" "$dir/files.list")
	printf '%-30s %8.2f %12s %8s\n' "mkfiles, follow's $(wc -l <"$dir/files.list") files" \
		"$ms" "$mk" "$(ratio "$ms" "$rs")"
	excess=$(awk -v a="$fs" -v b="$ms" 'BEGIN { print (a > b ? a - b : 0) }')
	printf '%-30s %8.2f %12s %8s %8s %15s\n' "smc dump follow $f" "$fs" "$fk" \
		"$(ratio "$fs" "$rs")" "3x $(verdict "$excess" "$rs")" \
		"$(ratio "$fs" "$ms") (+$(ratio "$excess" "$rs")x read)"
	rm -rf "$fsdir/follow" "$fsdir/floor"
done

# Pairing: SMC_DUMP_BENCH_SCALE / 10 connections with both ends in the
# capture, every first end before any second: all on one 4-tuple (a port
# used again and again) and each on its own. A new end meets only the
# ends of its 4-tuple not yet paired, so the one 4-tuple costs what the
# many do (target 3x; walking every end of the 4-tuple made it 10x at
# 20000); the dissector's queue likewise, when tshark runs.
pairs() {
	awk -v n="$1" -v same="$2" 'function end(i, b, rx,   p) {
		p = same ? 40000 : 1000 + i % 60000
		if (rx)
			printf "data mode=d token=%d local=10.%d.0.2 peer=10.0.0.1 lport=5201 pport=%d dir=rx offset=0 len=1\n", b + i, same ? 0 : int(i / 60000), p
		else
			printf "data mode=d token=%d local=10.0.0.1 peer=10.%d.0.2 lport=%d pport=5201 offset=0 len=1\n", b + i, same ? 0 : int(i / 60000), p
	}
	BEGIN {
		for (i = 0; i < n; i++) end(i, 1048576, 0)
		for (i = 0; i < n; i++) end(i, 2097152, 1)
	}'
}
npairs=$((scale / 10))
pairs "$npairs" 1 | "$gen" "$dir/pairs-one.pcap"
pairs "$npairs" 0 | "$gen" "$dir/pairs-many.pcap"
printf '\n%-30s %8s %12s %8s %8s\n' "pairing ($npairs connections)" "CPU s" \
	"max RSS KiB" "x many" "target"
before=
read -r ps pk < <(measure "$smc" dump stats "$dir/pairs-many.pcap")
printf '%-30s %8.2f %12s %8s\n' "stats, 4-tuple each" "$ps" "$pk" "1.00"
read -r os ok < <(measure "$smc" dump stats "$dir/pairs-one.pcap")
printf '%-30s %8.2f %12s %8s %8s\n' "stats, one 4-tuple" "$os" "$ok" \
	"$(ratio "$os" "$ps")" "3x $(verdict "$os" "$ps")"
if [ "$with_tshark" != 0 ]; then
	lua=(-X "lua_script:$top/contrib/wireshark/smcdump.lua" -o
	     udp.try_heuristic_first:TRUE -T fields -e smcdump.conn)
	read -r ps pk < <(measure tshark -r "$dir/pairs-many.pcap" "${lua[@]}")
	printf '%-30s %8.2f %12s %8s\n' "tshark, 4-tuple each" "$ps" "$pk" "1.00"
	read -r os ok < <(measure tshark -r "$dir/pairs-one.pcap" "${lua[@]}")
	printf '%-30s %8.2f %12s %8s %8s\n' "tshark, one 4-tuple" "$os" "$ok" \
		"$(ratio "$os" "$ps")" "3x $(verdict "$os" "$ps")"
fi
