#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# The decoder on hostile input, in CI:
#   - its libFuzzer target (smc/fuzz/fuzz_dump.c, `make -C smc fuzz`) runs
#     for a bounded time (SMC_DUMP_FUZZ_TIME, default 60 s) from the seed
#     corpus (smc/fuzz/corpus) plus the malformed captures of
#     smc/fuzz/corpus-malformed: frames cut at every header boundary, IPv4,
#     IPv6, UDP, VLAN and CLC lengths that lie, every record header field
#     out of range, CDC messages of the wrong size, stream offsets that wrap
#     or leap, sequence numbers that go back; skipped without clang;
#   - the whole `smc` command, built with AddressSanitizer and UBSan in a
#     private copy of the tree, reads each malformed capture (as a pcap
#     file) and a few broken pcap files with dump read, read -j, stats and
#     follow: it may refuse them, never crash or touch bad memory.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_file
	export MAL="$TOP/smc/fuzz/corpus-malformed"
}

# have_libfuzzer: clang can link a libFuzzer target
have_libfuzzer() {
	command -v "${FUZZ_CC:-clang}" >/dev/null 2>&1 || return 1
	printf '%s\n' '#include <stdint.h>' '#include <stddef.h>' \
		'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' \
		>"$BATS_TEST_TMPDIR/probe.c"
	"${FUZZ_CC:-clang}" -fsanitize=fuzzer,address -o "$BATS_TEST_TMPDIR/probe" \
		"$BATS_TEST_TMPDIR/probe.c" >/dev/null 2>&1
}

@test "fuzz: the decoder's libFuzzer target for a bounded time, malformed captures in the corpus" {
	have_libfuzzer || skip "no clang with libFuzzer (${FUZZ_CC:-clang}): the decoder fuzz target cannot be built"
	[ "$(find "$MAL" -type f | wc -l)" -gt 50 ]
	dir=$BATS_TEST_TMPDIR/fuzz
	mkdir -p "$dir/corpus"
	# the Makefile's target reads $FUZZ_DIR/corpus, then fuzz/corpus
	cp "$MAL"/* "$dir/corpus/"
	run make -s -C "$TOP/smc" fuzz FUZZ_DIR="$dir" \
		FUZZ_TIME="${SMC_DUMP_FUZZ_TIME:-60}"
	echo "$output" | grep -E "^(INFO: seed corpus|#[0-9]+ *(INITED|DONE)|Done )|ERROR|SUMMARY|artifact" || true
	[ "$status" -eq 0 ]
	[[ "$output" == *"Done "*" runs in "* ]]
	# every seed was loaded and ran (a crash would have stopped the run)
	[[ "$output" =~ INITED\ cov:\ [0-9]+ ]]
	run ls "$dir"
	[[ "$output" != *crash-* && "$output" != *leak-* && "$output" != *timeout-* && "$output" != *oom-* ]]
}

# smc_asan: the smc command with ASan and UBSan, built in a copy of the
# tree (the shared tree's objects stay as they are)
smc_asan() {
	local src=$BATS_FILE_TMPDIR/src
	[ -x "$src/smc/smc" ] && return 0
	mkdir -p "$src"
	cp -r "$TOP/smc" "$TOP/include" "$TOP/lib" "$src/"
	rm -f "$src"/smc/*.o "$src/smc/smc" "$src"/lib/*.o "$src"/lib/*.a \
		"$src"/lib/smcdump/*.o "$src"/lib/smcdump/*.a
	# from the environment, so that the Makefile's += still apply
	CFLAGS="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined" \
	LDFLAGS="-fsanitize=address,undefined" \
		make -s -C "$src/smc" smc >"$BATS_FILE_TMPDIR/asan-build.log" 2>&1
}

# to_pcaps DIR: each frame-target input of the malformed corpus as a pcap
# in DIR, with the link type its option byte names
to_pcaps() {
	python3 - "$MAL" "$1" <<'PY'
import os, struct, sys
src, out = sys.argv[1], sys.argv[2]
dlt = {0: 1, 1: 113, 2: 276, 3: 101}	# EN10MB, SLL, SLL2, RAW
for fn in sorted(os.listdir(src)):
    d = open(os.path.join(src, fn), "rb").read()
    if len(d) < 2 or d[0] & 3 != 3:
        continue
    with open(os.path.join(out, fn + ".pcap"), "wb") as o:
        o.write(struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 262144,
                            dlt[(d[1] >> 4) & 3]))
        p, i = 2, 0
        while len(d) - p >= 2:
            n = min(d[p] << 8 | d[p + 1], len(d) - p - 2)
            p += 2
            o.write(struct.pack("<IIII", 1700000000, i, n, n) + d[p:p + n])
            p += n
            i += 1
PY
}

# broken_pcaps DIR: pcap files libpcap itself balks at
broken_pcaps() {
	python3 - "$1" <<'PY'
import struct, sys
out = sys.argv[1]
hdr = struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 262144, 1)
rec = bytes.fromhex("020000000001020000000001080045000020000000004011"
                    "0000") + bytes(40)
files = {
    "empty": b"",
    "short-file-header": hdr[:10],
    "bad-magic": b"\x00" * 24,
    "short-record-header": hdr + struct.pack("<II", 1, 2),
    "caplen-past-end": hdr + struct.pack("<IIII", 1, 0, 1000, 1000) + rec,
    "caplen-huge": hdr + struct.pack("<IIII", 1, 0, 0x7fffffff, 0x7fffffff) + rec,
    "caplen-above-len": hdr + struct.pack("<IIII", 1, 0, len(rec), 10) + rec,
    "pcapng-bad-block-length": struct.pack("<IIIHHq", 0x0a0d0d0a, 7, 0x1a2b3c4d, 1, 0, -1),
    "pcapng-shb-only": struct.pack("<IIIHHqI", 0x0a0d0d0a, 28, 0x1a2b3c4d, 1, 0, -1, 28),
    "snaplen-zero-linktype-unknown": struct.pack("<IHHiIII", 0xa1b2c3d4, 2, 4, 0, 0, 0, 4242)
        + struct.pack("<IIII", 1, 0, len(rec), len(rec)) + rec,
}
for name, data in files.items():
    open("%s/%s.pcap" % (out, name), "wb").write(data)
PY
}

# survive CMD...: runs CMD; fails on a signal or a sanitizer report
survive() {
	local rc=0
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
		"$@" >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" || rc=$?
	if [ $rc -ge 128 ] || grep -qE "AddressSanitizer|runtime error|LeakSanitizer" "$BATS_TEST_TMPDIR/err"; then
		echo "CRASH (exit $rc): $*" >&2
		head -40 "$BATS_TEST_TMPDIR/err" >&2
		return 1
	fi
	echo "$rc"
}

@test "fuzz: smc dump read, stats and follow (ASan, UBSan) on malformed captures" {
	smc_asan || { cat "$BATS_FILE_TMPDIR/asan-build.log"; false; }
	smc=$BATS_FILE_TMPDIR/src/smc/smc
	d=$BATS_TEST_TMPDIR/pcaps
	mkdir -p "$d"
	to_pcaps "$d"
	[ "$(find "$d" -type f | wc -l)" -gt 50 ]
	n=0
	malformed=0
	for f in "$d"/*.pcap; do
		rc=$(survive "$smc" dump read "$f") || { echo "$rc"; false; }
		[ "$rc" -le 3 ]
		[ "$rc" = 1 ] && malformed=$((malformed + 1))
		survive "$smc" -j dump read "$f" >/dev/null
		jq -e . "$BATS_TEST_TMPDIR/out" >/dev/null || { echo "no JSON from -j dump read $f"; false; }
		survive "$smc" dump stats "$f" >/dev/null
		rm -rf "$BATS_TEST_TMPDIR/streams"
		survive "$smc" dump follow "$f" "$BATS_TEST_TMPDIR/streams" >/dev/null
		n=$((n + 1))
	done
	echo "$n malformed captures read, $malformed reported as malformed (exit 1)"
	# most of them are: a cut header or a lying length is no valid record
	[ "$malformed" -gt $((n / 2)) ]
}

@test "fuzz: broken pcap files are refused with a message, no crash" {
	smc_asan || { cat "$BATS_FILE_TMPDIR/asan-build.log"; false; }
	smc=$BATS_FILE_TMPDIR/src/smc/smc
	d=$BATS_TEST_TMPDIR/broken
	mkdir -p "$d"
	broken_pcaps "$d"
	for f in "$d"/*.pcap; do
		for args in "dump read" "-j dump read" "dump stats"; do
			# shellcheck disable=SC2086 # the words of args are options
			rc=$(survive "$smc" $args "$f") || { echo "$rc"; false; }
			echo "$args $(basename "$f"): exit $rc: $(head -1 "$BATS_TEST_TMPDIR/err")"
		done
		case $(basename "$f") in
		pcapng-shb-only.pcap) ;;	# a valid, empty capture
		*)	[ "$rc" -ne 0 ]
			[ -s "$BATS_TEST_TMPDIR/err" ] || grep -q malformed "$BATS_TEST_TMPDIR/out" ;;
		esac
	done
}
