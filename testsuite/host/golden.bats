#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Golden outputs of the decoder, as tcpdump's tests/*.out: `smc dump
# read`, `read -d`, `stats` and `analyze`, text and JSON, on captures
# that testsuite/tools/gen-smcdump-pcap writes from the specs in
# golden/ (NAME.spec, or what NAME.spec.py prints). Every run makes the
# captures again, runs the command and compares its standard output with
# golden/NAME.CMD.out (text) or .json (-j -p), its standard error with
# golden/NAME.CMD.err (none: it must be empty), and its exit status with
# the one the test names; a difference fails with the diff.
#
# Each golden file was read by hand against its spec before it was
# committed (the commit that adds it says what was checked); the specs
# say what they hold. The other host tests check the same decoder
# against values they chose or an independent reader computed; these
# files catch every other change of the output.
#
# After a change of the output that is meant:
#
#   GOLDEN_UPDATE=1 bats testsuite/host/golden.bats
#
# writes the files anew; then read `git diff testsuite/host/golden`
# line by line against the specs before committing it.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_file smc testsuite/tools
	# the output must not depend on the machine: times are local
	# (HH:MM:SS of read), numbers must not take a locale's separators
	export TZ=UTC LC_ALL=C
	unset COLUMNS LANG LANGUAGE
	export G="$BATS_TEST_DIRNAME/golden"
}

# capture NAME: $T/NAME.pcap from golden/NAME.spec or golden/NAME.spec.py
capture() {
	local name=$1
	[ -e "$T/$name.pcap" ] && return 0
	if [ -f "$G/$name.spec.py" ]; then
		python3 "$G/$name.spec.py" "$TLIB" >"$T/$name.spec"
	else
		cp "$G/$name.spec" "$T/$name.spec"
	fi
	"$GEN" "$T/$name.pcap" <"$T/$name.spec"
}

# golden FILE STATUS ARGS...: smc ARGS CAPTURE, where CAPTURE is the
# capture of the spec that FILE's name starts with (records.read.out:
# records); exit status STATUS, standard output golden/FILE, standard
# error golden/FILE with .err for its suffix, or nothing
golden() {
	local file=$1 want=$2 name=${1%%.*} err=${1%.*}.err rc=0
	shift 2
	capture "$name"
	# byte for byte: no run, which drops the last newline
	"$SMC" "$@" "$T/$name.pcap" >"$T/$file" 2>"$T/$err" || rc=$?
	[ "$rc" -eq "$want" ] ||
		{ echo "smc $*: exit $rc, expected $want"; return 1; }
	if [ -n "${GOLDEN_UPDATE:-}" ]; then
		cp "$T/$file" "$G/$file"
		if [ -s "$T/$err" ]; then
			cp "$T/$err" "$G/$err"
		else
			rm -f "$G/$err"
		fi
		echo "# golden: wrote $file; review: git diff testsuite/host/golden" >&3
		return 0
	fi
	[ -f "$G/$file" ] ||
		{ echo "no golden/$file (GOLDEN_UPDATE=1 writes it)"; return 1; }
	diff -u "$G/$file" "$T/$file" ||
		{ echo "smc $*: standard output differs from golden/$file"; return 1; }
	if [ -f "$G/$err" ]; then
		diff -u "$G/$err" "$T/$err" ||
			{ echo "smc $*: standard error differs from golden/$err"; return 1; }
	else
		[ ! -s "$T/$err" ] ||
			{ cat "$T/$err"; echo "smc $*: standard error, expected none"; return 1; }
	fi
}

@test "golden: records of each kind, mode and family: read, read -d, JSON, stats" {
	golden records.read.out 0 dump read
	golden records.read-d.out 0 -d dump read
	golden records.read.json 0 -j -p dump read
	golden records.stats.out 0 dump stats
	golden records.stats.json 0 -j -p dump stats
}

@test "golden: streams with holes, truncation, overlaps, lost and late records: stats" {
	golden stream.stats.out 0 dump stats
	golden stream.stats.json 0 -j -p dump stats
}

@test "golden: malformed records, each with its reason: read, read -d, JSON, stats" {
	golden malformed.read.out 1 dump read
	golden malformed.read-d.out 1 -d dump read
	golden malformed.read.json 1 -j -p dump read
	golden malformed.stats.out 1 dump stats
}

@test "golden: TCP handshakes and CLC messages, declines with their reasons: read, read -d, JSON, stats" {
	golden handshake.read.out 0 dump read
	golden handshake.read-d.out 0 -d dump read
	golden handshake.read.json 0 -j -p dump read
	golden handshake.stats.out 0 dump stats
}

@test "golden: analyze of a connection with its CLC buffer sizes, and of one whose buffer is inferred" {
	golden analyze.analyze.out 0 dump analyze
	golden analyze.analyze.json 0 -j -p dump analyze
	golden inflight.analyze.out 0 dump analyze
	golden inflight.analyze.json 0 -j -p dump analyze
}

# hooked FILE STATUS ARGS...: helpers/decode_driver ARGS CAPTURE OUT,
# the decoder with the caller's output stream (struct dump_opts.out) and
# standard output on /dev/null: OUT must be golden/FILE byte for byte
hooked() {
	local file=$1 want=$2 name=${1%%.*} rc=0
	shift 2
	capture "$name"
	"$BATS_TEST_DIRNAME/helpers/decode_driver" "$@" "$T/$name.pcap" \
		"$T/hooked.$file" 2>/dev/null || rc=$?
	[ "$rc" -eq "$want" ] ||
		{ echo "decode_driver $*: exit $rc, expected $want"; return 1; }
	diff -u "$G/$file" "$T/hooked.$file" ||
		{ echo "decode_driver $*: the hook's output differs from golden/$file"; return 1; }
}

@test "golden: the output goes through the caller's hook, none of it to stdout" {
	host_need testsuite/host/helpers decode_driver
	hooked records.read.out 0 read
	hooked records.read-d.out 0 -d read
	hooked records.read.json 0 -j read
	hooked records.stats.out 0 stats
	hooked stream.stats.json 0 -j stats
	hooked malformed.read.out 1 read
	hooked handshake.read-d.out 0 -d read
	hooked analyze.analyze.out 0 analyze
	hooked inflight.analyze.json 0 -j analyze
}

@test "golden: every file under golden/ is a spec or an output a test above compares" {
	local f n=0 bad=0
	for f in "$G"/*; do
		f=${f##*/}
		n=$((n + 1))
		case "$f" in
		*.spec | *.spec.py)
			continue ;;
		*.err)
			grep -q "golden ${f%.err}\.[a-z]* " "$BATS_TEST_FILENAME" && continue ;;
		*)
			grep -q "golden $f " "$BATS_TEST_FILENAME" && continue ;;
		esac
		echo "golden/$f: no test compares it"
		bad=1
	done
	[ "$n" -gt 0 ] && [ "$bad" -eq 0 ]
}
