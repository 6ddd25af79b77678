#!/usr/bin/env bats
# Host tests of `make bench` (scripts/bench.sh) without QEMU: its inputs are
# refused before anything is built, and the table it prints from a results
# directory (BENCH_RESULTS) has ratios, target verdicts and losses worked
# out here by hand from made-up runs.

# shellcheck disable=SC2154 # bats sets $stderr in run --separate-stderr
bats_require_minimum_version 1.5.0

setup() {
	TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
	cd "$BATS_TEST_TMPDIR" || return 1
}

tab() { local IFS=$'\t'; echo "$*"; }

# runs_start: res/ with an icount clock and guest-info; runs_head: the
# header line of its runs.tsv
runs_start() {
	mkdir res
	echo "icount shift=0,sleep=off" >res/clock
	printf 'kernel 6.12.118\ncpus 2\nmem_kb 8000000\ncost_buffer 65536\n' >res/guest-info
}
runs_head() {
	tab variant round wall_ns payload_bytes tx_packets tx_bytes \
	    tx_dropped captured filter_received kernel_dropped cpu_user \
	    cpu_sys cpu_softirq cpu_idle tcpdump_cpu hz
}

@test "bench: bad BENCH_* values are refused before a build, exit 2" {
	local v
	for v in "BENCH_CONNS=010" "BENCH_ROUNDS=0" "BENCH_BYTES=12X" \
		 "BENCH_COMPLETE_BYTES=1.5G" "BENCH_COST_BUFFER=big" \
		 "BENCH_PERF=0" "BENCH_TIMEOUT=-1" "BENCH_BYTES=8589934592G" \
		 "BENCH_CONNS=99999999999999999999" "BENCH_MEM=banana" \
		 "BENCH_BUFFERS=default foo" "BENCH_VARIANTS=a z" \
		 "BENCH_VARIANTS=a b a" "BENCH_BACKENDS=2" \
		 "BENCH_BACKEND_VARIANTS=kc pc" "BENCH_BACKEND_VARIANTS=a kx" \
		 "BENCH_BACKEND_VARIANTS=a kc kc"; do
		run --separate-stderr env "$v" bash "$TOP/scripts/bench.sh"
		[ "$status" -eq 2 ] || { echo "$v: exit $status"; false; }
		[[ $stderr == "bench: $v "@(must|names)* ]] ||
			{ echo "$v: $stderr"; false; }
	done
}

@test "bench: ratios, targets and lost records from a results directory" {
	runs_start
	{
		runs_head
		# (a) 1.0 s and 1.25 s; (b) 1.0101 s and 1.25 s: ratios 0.990
		# and 1.000, median 0.995; (d) 1.25 s and 1.5625 s: 0.800 both
		tab a 1 1000000000 2147483648 0 0 0 0 0 0 1 100 0 0 0 100
		tab a 2 1250000000 2147483648 0 0 0 0 0 0 1 100 0 0 0 100
		tab b 1 1010101010 2147483648 0 0 0 0 0 0 1 100 0 0 0 100
		tab b 2 1250000000 2147483648 0 0 0 0 0 0 1 100 0 0 0 100
		# lost: 100 of 1000 and 300 of 1000, median 20.0 %
		tab d 1 1250000000 2147483648 1000 44000 0 900 1000 100 1 100 0 0 5 100
		tab d 2 1562500000 2147483648 1000 44000 0 700 1000 300 1 100 0 0 5 100
		# (h) as fast as (a), nothing built: ratio 1.000, ok; (h2 below)
		tab h 1 1000000000 2147483648 0 0 0 0 0 0 1 100 0 0 0 100
		tab h 2 1250000000 2147483648 0 0 0 0 0 0 1 100 0 0 0 100
	} >res/runs.tsv
	{
		tab buffer round wall_ns payload_bytes tx_packets tx_dropped \
		    captured kernel_dropped in_file seq_first seq_last seq_missing \
		    file_bytes
		# 1000 matched (990 + 10 not built), 750 in the file: 25.00 %
		tab default 1 1000000000 1073741824 990 10 750 240 750 0 999 250 1
		tab 65536 1 1000000000 1073741824 1000 0 1000 0 1000 0 999 0 1
	} >res/complete.tsv

	{
		tab variant round wall_ns payload_bytes records lost cpu_user \
		    cpu_sys cpu_softirq cpu_idle hz capture_cpu
		# (a) 1.0 s and 1.25 s; (kc) 2.0 s and 2.5 s: 0.500 both; (pc)
		# 1.25 s and 1.5625 s: 0.800 both, 100 lost of 1000: 10.0 %;
		# (kn) 1.25 s and 1.25 s: 0.800 and 1.000, median 0.900, 600 of
		# 1000 lost: 60.0 %. Capture CPU: kc 100 ticks at 100 Hz in 2.0 s
		# and 2.5 s, 50 % and 40 %, median 45 %; kn 125 ticks in 1.25 s,
		# 100 %; pc none, 0 %
		tab a 1 1000000000 2147483648 0 0 1 100 0 0 100 0
		tab a 2 1250000000 2147483648 0 0 1 100 0 0 100 0
		tab kc 1 2000000000 2147483648 1000 0 1 200 0 0 100 100
		tab kc 2 2500000000 2147483648 1000 0 1 200 0 0 100 100
		tab pc 1 1250000000 2147483648 900 100 1 100 0 0 100 0
		tab pc 2 1562500000 2147483648 900 100 1 100 0 0 100 0
		tab kn 1 1250000000 2147483648 400 600 1 100 0 0 100 125
		tab kn 2 1250000000 2147483648 400 600 1 100 0 0 100 125
	} >res/backends.tsv
	printf 'kernel 6.12.118+deb12-amd64\ncpus 2\n' >res/backends-info
	echo real >res/backends-clock

	run --separate-stderr env BENCH_RESULTS=res bash "$TOP/scripts/bench.sh"
	[ "$status" -eq 0 ]
	echo "$output"
	[[ $output == *"-B 65536 (64 MiB)"* ]]
	[[ $output == *"4. Backends side by side: Debian's kernel 6.12.118+deb12-amd64 "* ]]
	[[ $output == *"Clock: the real clock of a shared host (Debian's kernel did not survive -icount here"* ]]
	grep -E '^\(a\) no capture +1\.000 +\[1\.000\.\.1\.000\] +1\.00x +0 +- +-$' <<<"$output"
	grep -E '^\(kc\) kernel: all records to tmpfs +0\.500 +\[0\.500\.\.0\.500\] +2\.00x +1000 +0\.0% +45%$' <<<"$output"
	grep -E '^\(pc\) bpf: all records to tmpfs +0\.800 +\[0\.800\.\.0\.800\] +1\.00x +900 +10\.0% +0%$' <<<"$output"
	grep -E '^\(kn\) kernel: all records, nice 0 +0\.900 +\[0\.800\.\.1\.000\] +1\.00x +400 +60\.0% +100%$' <<<"$output"
	grep -F "Priority (smc dump start nice): at the default -19 the kernel backend's full capture keeps 0.500 of (a)'s throughput, losing 0.0%; at nice 0, 0.900, losing 60.0%." <<<"$output"
	# kn follows kc in the table
	[ "$(grep -E '^\(k[cn]\)' <<<"$output" | cut -c1-4 | tr -d '\n')" = "(kc)(kn)" ]
	grep -F "Full capture: bpf 0.800 against kernel 0.500 of (a)'s throughput, losing 10.0% and 0.0% of the records: the bpf backend costs the sender less (for the records it kept" <<<"$output"
	grep -E '^\(b\) link, no tap +0\.995 +\[0\.990\.\.1\.000\] +>=0\.98 ok ' <<<"$output"
	grep -E '^\(d\) capture cdc, tcpdump -w tmpfs +0\.800 +\[0\.800\.\.0\.800\] +>=0\.90 MISS .* 20\.0% ' <<<"$output"
	grep -E '^default \(2 MiB\) +1000 +750 +250 +25\.00% +250 +240 +10 ' <<<"$output"
	grep -E '^-B 65536 \(64 MiB\) +1000 +1000 +0 +0\.00% ' <<<"$output"
	grep -E '^\(h\) link, no tap; -i any elsewhere +1\.000 +\[1\.000\.\.1\.000\] +>=0\.98 ok ' <<<"$output"

	# a run from before the capture CPU column: "-" there; a bad value in
	# it is refused
	cut -f1-11 res/backends.tsv >res/b.new && mv res/b.new res/backends.tsv
	run --separate-stderr env BENCH_RESULTS=res bash "$TOP/scripts/bench.sh"
	[ "$status" -eq 0 ]
	grep -E '^\(kc\) kernel: all records to tmpfs +0\.500 .* +0\.0% +-$' <<<"$output"
	awk -F'\t' -v OFS='\t' 'NR == 1 { $12 = "capture_cpu" } NR > 1 { $12 = "x" } 1' \
		res/backends.tsv >res/b.new && mv res/b.new res/backends.tsv
	run --separate-stderr env BENCH_RESULTS=res bash "$TOP/scripts/bench.sh"
	[ "$status" -eq 2 ]
	[[ $stderr == *"backends.tsv line 2: capture_cpu is 'x', not a number" ]]
	rm res/backends.tsv

	# one record built on (h)'s link is a miss whatever the ratio
	awk -F'\t' -v OFS='\t' '$1 == "h" && $2 == 2 { $5 = 1; $6 = 64 } 1' \
		res/runs.tsv >res/runs.new && mv res/runs.new res/runs.tsv
	run --separate-stderr env BENCH_RESULTS=res bash "$TOP/scripts/bench.sh"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -E '^\(h\) link, no tap; -i any elsewhere +1\.000 +\[1\.000\.\.1\.000\] +>=0\.98 MISS ' <<<"$output"
}

@test "bench: where (c)'s time goes; what tcpdump -U costs, (u) against (d)" {
	runs_start
	{
		runs_head
		# extra time over (a)'s 1.0 s: g 1.25 s +25 %, f 1.6 s +60 %,
		# c 2.0 s +100 %: build +25, ring +35, file +40; d 1.25 s and
		# u 1.5 s: -U costs 50 - 25 = +25 %
		tab a 1 1000000000 2147483648 0 0 0 0 0 0 1 100 0 0 0 100
		tab g 1 1250000000 2147483648 1000 44000 0 0 1000 0 1 100 0 0 5 100
		tab f 1 1600000000 2147483648 1000 44000 0 1000 1000 0 1 100 0 0 5 100
		tab c 1 2000000000 2147483648 1000 44000 0 1000 1000 0 1 100 0 0 5 100
		tab d 1 1250000000 2147483648 500 32000 0 500 500 0 1 100 0 0 5 100
		tab u 1 1500000000 2147483648 500 32000 0 500 500 0 1 100 0 0 5 100
	} >res/runs.tsv
	run --separate-stderr env BENCH_RESULTS=res bash "$TOP/scripts/bench.sh"
	[ "$status" -eq 0 ]
	echo "$output"
	grep -E '^\(u\) as \(d\), tcpdump -U +0\.667 ' <<<"$output"
	grep -F "+100.0% in all" <<<"$output"
	grep -E '^ +building each record and handing it to a tap \(g - a\): +\+25\.0%$' <<<"$output"
	grep -E '^ +copying it into tcpdump.s ring, waking tcpdump \(f - g\): +\+35\.0%$' <<<"$output"
	grep -E '^ +tcpdump writing the file on tmpfs \(c - f\): +\+40\.0%$' <<<"$output"
	grep -F "(u) against (d), both capture cdc, costs +25.0% of (a)'s time per byte" <<<"$output"
	# without (u) the sentence is left out
	grep -v '^u' res/runs.tsv >res/runs.new && mv res/runs.new res/runs.tsv
	run --separate-stderr env BENCH_RESULTS=res bash "$TOP/scripts/bench.sh"
	[ "$status" -eq 0 ]
	[[ $output != *"(u) against (d)"* ]]
}

@test "bench: BENCH_RESULTS without the files of a run is refused" {
	mkdir empty
	run --separate-stderr env BENCH_RESULTS=empty bash "$TOP/scripts/bench.sh"
	[ "$status" -eq 2 ]
	[[ $stderr == "bench: BENCH_RESULTS=empty: no runs.tsv of a bench run there" ]]
	run --separate-stderr env BENCH_RESULTS=missing bash "$TOP/scripts/bench.sh"
	[ "$status" -eq 2 ]
	# a results directory with broken files: a message, not a traceback
	mkdir broken
	printf 'variant\tround\twall_ns\n' >broken/runs.tsv
	run --separate-stderr env BENCH_RESULTS=broken bash "$TOP/scripts/bench.sh"
	[ "$status" -eq 2 ]
	[[ $stderr == *"runs.tsv holds no runs" ]]
	printf 'a\t1\tfast\n' >>broken/runs.tsv
	run --separate-stderr env BENCH_RESULTS=broken bash "$TOP/scripts/bench.sh"
	[ "$status" -eq 2 ]
	[[ $stderr == *"runs.tsv line 2: wall_ns is 'fast', not a number" ]]
}

@test "mkfiles: the follow floor creates the named files with their sizes" {
	local mk="$TOP/testsuite/tools/mkfiles"
	mkdir out
	printf 'a 0\nb 1\nc 70000\n' | "$mk" out
	[ "$(stat -c %s out/a)" -eq 0 ]
	[ "$(stat -c %s out/b)" -eq 1 ]
	[ "$(stat -c %s out/c)" -eq 70000 ]
	# every byte written is zero (a sparse hole would not cost a write)
	[ "$(tr -d '\0' <out/c | wc -c)" -eq 0 ]
	[ "$(du -k out/c | cut -f1)" -ge 68 ]
	run --separate-stderr "$mk" out <<<"x/y 3"
	[ "$status" -eq 2 ]
	[[ $stderr == 'mkfiles: line 1: want "NAME SIZE"' ]]
	run --separate-stderr "$mk" out <<<"d 3 4"
	[ "$status" -eq 2 ]
	run --separate-stderr "$mk" nodir <<<"d 3"
	[ "$status" -eq 1 ]
	[[ $stderr == "mkfiles: nodir: "* ]]
}

@test "bench-decoder: scale rows, follow against the mkfiles floor" {
	run --separate-stderr env SMC_DUMP_BENCH_SIZE=64K SMC_DUMP_BENCH_TSHARK=0 \
		SMC_DUMP_BENCH_SCALE=300 SMC_DUMP_BENCH_RUNS=1 \
		bash "$TOP/scripts/bench-decoder.sh"
	[ "$status" -eq 0 ]
	echo "$output"
	local f
	for f in conns reverse; do
		[[ $output == *$'\n'"smc dump read $f "* ]]
		echo "$output" | grep -Eq "^smc dump stats $f +[0-9.]+ +[0-9]+ +[0-9.]+ +3x (ok|MISS)\$"
		echo "$output" | grep -Eq "^smc dump follow $f +[0-9.]+ +[0-9]+ +[0-9.]+ +3x (ok|MISS) +[0-9.]+ \(\+[0-9.]+x read\)\$"
	done
	# 300 connections of one sent stream each: 300 files; reverse: one
	# stream, so one file
	echo "$output" | grep -Eq "^mkfiles, follow's 300 files "
	echo "$output" | grep -Eq "^mkfiles, follow's 1 files "
	# no file named by a number left in the working directory (an awk
	# `print a > b` writes one)
	[ -z "$(ls -A | grep -E '^-?[0-9.]+$')" ]
	run --separate-stderr env SMC_DUMP_BENCH_RUNS=0 bash "$TOP/scripts/bench-decoder.sh"
	[ "$status" -eq 2 ]
	[[ $stderr == "bench-decoder: bad SMC_DUMP_BENCH_RUNS '0'" ]]
}
