#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# The cross tier: smc and gen-smcdump-pcap built for s390x (big-endian)
# and arm64 by make cross (scripts/cross-build.sh, build/cross/ARCH/),
# run under qemu-user on this machine, must print byte for byte what the
# native build prints:
#   - the cross smc on every capture below: dump read, read -d, read -x,
#     -j read, read from standard input, stats, -j stats, analyze,
#     -j analyze, and follow's stream files; standard error and exit
#     status too;
#   - the cross generator writing every capture below, read by the native
#     smc (a capture made on s390x reads on amd64 as one made here; on
#     arm64, little-endian as amd64, the files are the same bytes).
# The captures: the golden specs (testsuite/host/golden: records, streams,
# malformed records, CLC handshakes, analyze), records in version 4
# headers, SMC-D CDC written big- and little-endian in versions 3 and 4
# with and without the byte-order flag, LLC messages of version 1 and 2
# (host-order fields by the flag), data followed into stream files, and
# the records capture as pcapng, with nanosecond times and in every link
# type the generator writes.
# Then the bpf backend of each cross build: its BPF objects in ARCH's byte
# order (EM_BPF), embedded in smc, which links ARCH's libbpf (the build
# only: qemu-user has no bpf(2), the programs cannot run here).
# The last tests show that a difference fails the comparison.
#
#   make check-cross     (deps, both cross builds, these tests)
#   CROSS_ARCHS=s390x bats testsuite/cross

bats_require_minimum_version 1.5.0

load ../host/lib

setup_file() {
	host_setup_file smc testsuite/tools
	export TZ=UTC LC_ALL=C
	unset COLUMNS LANG LANGUAGE
	export CROSS_ROOT=${SMC_DUMP_CROSS_ROOT:-/var/lib/smc-dump-cross}
	export C="$T/caps"
	mkdir -p "$C" "$T/specs"
	write_specs "$T/specs"
	gen_all "$C" "$GEN"
	outputs "$T/out-native" "$SMC"
}

# wants ARCH: skips the test unless ARCH is in CROSS_ARCHS (default both)
wants() {
	[[ " ${CROSS_ARCHS:-s390x arm64} " == *" $1 "* ]] || skip "$1 is not in CROSS_ARCHS"
}

# qemu_of ARCH: the qemu-user program of ARCH
qemu_of() {
	case $1 in
	s390x) echo qemu-s390x-static ;;
	arm64) echo qemu-aarch64-static ;;
	esac
}

# cross_cmd ARCH PROGRAM: sets CMD, the command line that runs
# build/cross/ARCH/bin/PROGRAM under qemu-user with ARCH's sysroot; fails
# with what to run when it is not there
cross_cmd() {
	local arch=$1 bin=$TOP/build/cross/$1/bin/$2
	[ -x "$bin" ] || { echo "$bin missing: run make cross"; return 1; }
	[ -d "$CROSS_ROOT/$arch/lib" ] || { echo "$CROSS_ROOT/$arch missing: run scripts/deps.sh cross"; return 1; }
	command -v "$(qemu_of "$arch")" >/dev/null ||
		{ echo "$(qemu_of "$arch") missing: run scripts/deps.sh cross"; return 1; }
	CMD=("$(qemu_of "$arch")" -L "$CROSS_ROOT/$arch" "$bin")
}

# write_specs DIR: the specs, NAME.spec, and NAME.opts with the
# generator's options for each capture (one capture per .opts line:
# NAME.opts line "V4 -V 4" makes NAME-V4.pcap)
write_specs() {
	local d=$1 f n G=$TOP/testsuite/host/golden
	for f in "$G"/*.spec "$G"/*.spec.py; do
		n=${f##*/}
		n=${n%%.*}
		if [ "${f%.py}" != "$f" ]; then
			python3 "$f" "$TLIB" >"$d/$n.spec"
		else
			cp "$f" "$d/$n.spec"
		fi
		echo "v3" >"$d/$n.opts"
	done
	# records in the 40-byte header, and in every container and link type
	printf '%s\n' "v4 -V 4" "pcapng -g" "nano -n" "ngnano -g -n -V 4" \
		"sll -l sll" "sll2 -l sll2" "raw -l raw" >>"$d/records.opts"

	# SMC-D CDC both ways round, SMC-R CDC, in versions 3 and 4; the
	# byte-order flag set by endian=big (version 4), cleared by flags=0
	cat >"$d/cdc.spec" <<-'EOF'
	cdc mode=d token=0x7 seq=0 pwrap=1 pcount=100 cwrap=2 ccount=0x01020304 pflags=0x40 endian=big
	cdc mode=d token=0x7 seq=1 pwrap=1 pcount=200 cwrap=2 ccount=300 cflags=0x40 endian=little
	cdc mode=d dir=rx token=0x7 seq=2 pwrap=65535 pcount=0xfffffffe endian=big flags=0
	cdc dir=rx token=0x1234abcd seq=3 seqno=7 ctoken=0xcafe0001 pwrap=3 pcount=65536 cwrap=2 ccount=777 pflags=0x10 cflags=0x80
	data mode=d token=0x7 seq=4 offset=0x100000000 len=33
	data mode=d dir=rx token=0x7 seq=5 offset=7 len=9 hdrver=3
	EOF
	printf '%s\n' "v3" "v4 -V 4" >"$d/cdc.opts"

	# times: pcap's 32-bit seconds all ones (-1, read signed; libpcap
	# hands them on unsigned when it swaps a file of the other byte
	# order), above 2^31, nanoseconds
	cat >"$d/times.spec" <<-'EOF'
	data token=0x1 seq=1 len=1 ts=4294967295.000001
	data token=0x1 seq=2 offset=1 len=1 ts=2147483648.5
	data token=0x1 seq=3 offset=2 len=1 ts=1700000123.987654321
	data token=0x1 seq=4 offset=3 len=1 ts=0.000002
	EOF
	printf '%s\n' "us" "ns -n" "ng -g" "ngns -g -n" >"$d/times.opts"

	# LLC (version 4): the default messages of some types, version 2
	# messages whose length and rkey count are in the sender's order
	# (little-endian, then big-endian with the flag), cut ones
	local al2=2268000002000000000c0000fe80000000000000000000000000000c000203020300000700000000000000008000fe80000000000000000000000000000d000000000000000002001111111122222222000000003333333344444444555555550000000066666666
	local be=2200680002000000000c0000fe80000000000000000000000000000c000203020300000700000000000000008000fe80000000000000000000000000000d000000000000000000021111111122222222000000003333333344444444555555550000000066666666
	cat >"$d/llc.spec" <<-EOF
	llc lgr=0x0a01 link=1 qp=17 peerqp=18 seq=0
	llc lgr=0x0a01 link=1 qp=17 peerqp=18 seq=1 dir=rx llctype=0x04 resp=1
	llc lgr=0x0a01 link=2 qp=19 peerqp=20 seq=2 llctype=0x22
	llc lgr=0x0a01 link=2 qp=19 peerqp=20 seq=3 llctype=0x0a
	llc lgr=0x0a01 seq=4 msg=$al2
	llc lgr=0x0a01 seq=5 msg=$be flags=0x08
	llc lgr=0x0a01 seq=6 msg=$be
	llc lgr=0x0a01 seq=7 msg=2914000003010000000000010000000200000003
	llc lgr=0x0a01 seq=8 msg=062c0030020000abcd0000000000001000020000bcde0000000000002000030000cdef000000000000300000
	llc lgr=0x0a01 seq=9 msg=$al2 cut=160
	cdc token=0x0a01 seq=10 sseq=0
	EOF
	echo "v4 -V 4" >"$d/llc.opts"

	# data of two connections from a file, both directions and modes,
	# one record lost and one truncated: follow's stream files
	head -c 40000 /dev/urandom >"$T/src.bin"
	{
		local off s=0
		for ((off = 0; off < 40000; off += 4000)); do
			[ $off = 8000 ] && { s=$((s + 1)); continue; }
			echo "data token=0xabc seq=$s offset=$off len=4000 from=$T/src.bin"
			echo "data dir=rx token=0xabc seq=$((s + 1)) offset=$((off / 2)) len=2000 from=$T/src.bin"
			s=$((s + 2))
		done
		echo "data token=0xabc seq=$s offset=40000 len=100 orig=3000"
		echo "data mode=d token=0xd seq=$((s + 1)) offset=0 len=777 from=$T/src.bin local=2001:db8::1 peer=2001:db8::2"
		echo "cdc mode=d dir=rx token=0xd seq=$((s + 2)) pcount=777"
	} >"$d/stream2.spec"
	printf '%s\n' "v3" "v4 -V 4" >"$d/stream2.opts"

	# both ends of connections in one capture (paired into one entry):
	# SMC-D, SMC-R with the CDC tokens naming each other, IPv6, and a
	# 4-tuple used again
	local a="local=10.0.0.1 lport=40000 peer=10.0.0.2 pport=5201"
	local b="local=10.0.0.2 lport=5201 peer=10.0.0.1 pport=40000"
	local c="local=fd00::1 lport=40001 peer=fd00::2 pport=5201"
	local e="local=fd00::2 lport=5201 peer=fd00::1 pport=40001"
	cat >"$d/pairs.spec" <<-EOF
	data mode=d token=0xa1 seq=0 offset=0 len=100 $a
	data mode=d dir=rx token=0xb1 seq=1 offset=0 len=100 $b
	cdc mode=d dir=rx token=0xa1 seq=2 pcount=100 $a
	data mode=d token=0xb1 seq=3 offset=0 len=50 $b
	cdc token=0xc1 seq=4 seqno=1 ctoken=0xd1 pcount=10 $c
	cdc token=0xd1 seq=5 seqno=1 ctoken=0xc1 ccount=10 $e
	data mode=d token=0xa2 seq=6 offset=0 len=7 $a
	data mode=d dir=rx token=0xb2 seq=7 offset=0 len=7 $b
	EOF
	printf '%s\n' "v3" "v4 -V 4" >"$d/pairs.opts"
}

# gen_all DIR GEN...: each capture of the specs into DIR, written by the
# generator command GEN... (the native one, or a cross one under qemu)
gen_all() {
	local dir=$1 o n tag opts
	shift
	for o in "$T"/specs/*.opts; do
		n=${o##*/}
		n=${n%.opts}
		while read -r tag opts; do
			# shellcheck disable=SC2086
			"$@" $opts "$dir/$n-$tag.pcap" <"$T/specs/$n.spec" ||
				{ echo "gen $opts $n-$tag.pcap failed"; return 1; }
		done <"$o"
	done
}

# outputs DIR SMC...: in DIR, for every capture of $C, what the command
# SMC... prints for each dump command (NAME.CMD.out, .err, and .rc, its
# exit status) and the stream files of follow (NAME.follow/); the
# captures are named to it as caps/NAME.pcap, caps a link to $C, so that
# what it prints does not depend on where they are
outputs() {
	local dir=$1 cap n
	shift
	mkdir -p "$dir"
	ln -sfn "$C" "$dir/caps"
	(
		cd "$dir" || exit 1
		for cap in caps/*.pcap; do
			n=${cap##*/}
			n=${n%.pcap}
			one "$n.read" "$@" dump read "$cap"
			one "$n.read-d" "$@" dump read -d "$cap"
			one "$n.read-x" "$@" dump read -x "$cap"
			one "$n.read-json" "$@" -j dump read "$cap"
			one "$n.read-stdin" "$@" dump read - <"$cap"
			one "$n.stats" "$@" dump stats "$cap"
			one "$n.stats-json" "$@" -j dump stats "$cap"
			one "$n.analyze" "$@" dump analyze "$cap"
			one "$n.analyze-json" "$@" -j dump analyze "$cap"
			one "$n.follow" "$@" dump follow "$cap" "$n.follow"
		done
	)
}

# one NAME CMD...: CMD's standard output, standard error and exit status
# into NAME.out, NAME.err and NAME.rc
one() {
	local name=$1 rc=0
	shift
	"$@" >"$name.out" 2>"$name.err" || rc=$?
	echo "$rc" >"$name.rc"
}

# same DIR1 DIR2: the two trees are equal, else the files that differ,
# the first 60 lines of the differences, and a failure
same() {
	diff -rq --exclude=caps "$1" "$2" >"$BATS_TEST_TMPDIR/same" && return 0
	sed "s|$1/||; s|$2/||" "$BATS_TEST_TMPDIR/same"
	diff -r --exclude=caps "$1" "$2" | head -n 60
	echo "$1 and $2 differ"
	return 1
}

# check_smc ARCH: the cross smc prints what the native one prints
check_smc() {
	local CMD
	wants "$1"
	cross_cmd "$1" smc
	outputs "$T/out-$1" "${CMD[@]}"
	# the captures gave every kind of output, not only errors
	[ "$(cat "$T"/out-native/*.rc | sort -u | tr '\n' ' ')" = "0 1 " ]
	same "$T/out-native" "$T/out-$1"
}

# check_gen ARCH: captures written by the cross generator read the same
# with the native smc
check_gen() {
	local CMD n
	wants "$1"
	cross_cmd "$1" gen-smcdump-pcap
	mkdir -p "$T/caps-$1"
	gen_all "$T/caps-$1" "${CMD[@]}"
	n=$(ls "$C" | wc -l)
	[ "$n" -gt 15 ]
	[ "$(ls "$T/caps-$1" | wc -l)" = "$n" ]
	C="$T/caps-$1" outputs "$T/out-gen-$1" "$SMC"
	same "$T/out-native" "$T/out-gen-$1"
}

@test "cross: s390x smc under qemu prints what the native smc prints, every command on every capture" {
	check_smc s390x
}

@test "cross: arm64 smc under qemu prints what the native smc prints, every command on every capture" {
	check_smc arm64
}

@test "cross: captures written by the s390x generator read the same on this machine" {
	check_gen s390x
	# and they were written big-endian: pcap's magic, pcapng's byte-order magic
	[ "$(od -An -tx1 -N4 "$T/caps-s390x/records-v3.pcap" | tr -d ' ')" = a1b2c3d4 ]
	[ "$(od -An -tx1 -j8 -N4 "$T/caps-s390x/records-pcapng.pcap" | tr -d ' ')" = 1a2b3c4d ]
}

@test "cross: captures written by the arm64 generator are the native generator's bytes" {
	check_gen arm64
	local f
	for f in "$C"/*.pcap; do
		cmp "$f" "$T/caps-arm64/${f##*/}"
	done
}

@test "cross: a difference fails the comparison (s390x smc in another time zone)" {
	local CMD
	wants s390x
	cross_cmd s390x smc
	# dump read prints local times: in UTC-5 every line of read differs
	C="$T/one" && mkdir -p "$C" && cp "$T/caps/records-v3.pcap" "$C/"
	(outputs "$T/tz-native" "$SMC")
	(TZ=UTC-5 outputs "$T/tz-s390x" "${CMD[@]}")
	run ! same "$T/tz-native" "$T/tz-s390x"
	echo "$output"
	# the files of read's text output, and nothing else: stats, analyze,
	# JSON (seconds since the epoch) and the streams agree
	[ "$(grep '^Files ' <<<"$output" | awk '{ print $2 }' | tr '\n' ' ')" = "records-v3.read-d.out records-v3.read-stdin.out records-v3.read-x.out records-v3.read.out " ]
}

# check_bpf ARCH ORDER: ARCH's BPF objects are eBPF (EM_BPF) in byte order
# ORDER ("big" or "little"), and ARCH's smc has the bpf backend: it needs
# ARCH's libbpf, embeds both objects byte for byte (the skeletons), and
# has none of bpf_none.c's text. The build only: the programs cannot run
# under qemu-user, which has no bpf(2).
check_bpf() {
	local arch=$1 order=$2 dir=$TOP/build/cross/$1/src/smc o h
	[ -x "$dir/smc" ] || { echo "$dir/smc missing: run make cross"; return 1; }
	for o in capture_bpf run_bpf; do
		h=$(readelf -h "$dir/$o.bpf.o") || return 1
		echo "$h"
		grep -Eq "^ *Data: +2's complement, $order endian\$" <<<"$h" ||
			{ echo "$o.bpf.o: not $order endian"; return 1; }
		grep -Eq '^ *Machine: +Linux BPF$' <<<"$h" ||
			{ echo "$o.bpf.o: not EM_BPF"; return 1; }
		python3 -c 'import sys
exe = open(sys.argv[1], "rb").read()
obj = open(sys.argv[2], "rb").read()
sys.exit(0 if exe.find(obj) >= 0 else 1)' "$dir/smc" "$dir/$o.bpf.o" ||
			{ echo "$o.bpf.o is not embedded in $arch's smc"; return 1; }
	done
	readelf -d "$dir/smc" | grep -Fq 'Shared library: [libbpf.so.1]' ||
		{ echo "$arch's smc does not link libbpf"; return 1; }
	if grep -q "built without libbpf" "$dir/smc"; then
		echo "$arch's smc has bpf_none.c's text"
		return 1
	fi
}

@test "cross: s390x BPF objects are big-endian eBPF, embedded in smc with libbpf" {
	wants s390x
	check_bpf s390x big
}

@test "cross: arm64 BPF objects are little-endian eBPF, embedded in smc with libbpf" {
	wants arm64
	check_bpf arm64 little
}

@test "cross: check_bpf fails on an object of the other byte order" {
	wants s390x
	run check_bpf s390x little
	[ "$status" -eq 1 ]
	[[ "$output" == *"capture_bpf.bpf.o: not little endian"* ]]
}

@test "cross: what the cross build leaves out is named when asked for" {
	local CMD
	wants s390x
	cross_cmd s390x smc
	run -1 "${CMD[@]}" dump graph "$C/records-v3.pcap"
	[[ "$output" == *"smc dump graph is not available: this smc was built without cairo"* ]]
}
