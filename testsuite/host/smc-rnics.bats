#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# smc rnics and the smc_rnics entry point on fake sysfs trees
# (helpers/rnics-sysfs.bash, SMC_DUMP_SYSFS_DIR): an s390 LPAR with ISM,
# RoCE Express 1/2/3 and Network Express functions, an x86 host with a
# RoCE NIC and rxe, an empty one. smc_rnics's table is compared with
# compat/smc_rnics/, checked by hand against smc-tools 1.8.5 smc_rnics
# (compat/smc_rnics/README) and, where smc-tools is built
# (scripts/smc-tools-build.sh SRC; else those tests skip), with what
# smc-tools 1.8.5's smc_rnics itself prints on the same trees
# (real_rnics says how it is pointed at them).

# shellcheck disable=SC2154 # bats sets $stderr
bats_require_minimum_version 1.5.0

load lib
load helpers/rnics-sysfs
load helpers/smc-tools-scripts

setup_file() {
	host_setup_file smc || return 1
	s390_tree "$T/s390"
	x86_tree "$T/x86"
	empty_tree "$T/empty"
	mkdir -p "$T/bin"
	ln -sf "$SMC" "$T/bin/smc_rnics"
	export RNICS="$T/bin/smc_rnics" GOLD="$TOP/testsuite/host/compat/smc_rnics"
	fakes "$T/fakes"
}

# fakes DIR: the commands smc_rnics runs besides coreutils, as an s390
# LPAR with the fake tree would answer them, first in real_rnics's PATH:
#   uname     -m is s390x (smc_rnics refuses other machines); anything
#             else is the real uname
#   ethtool   -i IFACE prints the firmware-version line, the fw_ver of the
#             RDMA device of IFACE's PCI function in the tree ($FAKE_SYSFS)
#             as mlx5's ethtool -i does (smc_rnics names RoCE Express 2
#             and 3 by its major number)
#   smc_pnet  an empty table: the host's SMC PNET table (if it has SMC)
#             is none of the fake LPAR's, and smc_rnics -- which reads it
#             only for a port without a hardware PNET ID, to print a
#             software PNET ID with '*' -- then prints n/a as ours does
fakes() {
	mkdir -p "$1"
	cat >"$1/uname" <<-'EOF'
		#!/bin/sh
		[ "$*" = -m ] && { echo s390x; exit 0; }
		exec /bin/uname "$@"
	EOF
	cat >"$1/ethtool" <<-'EOF'
		#!/bin/sh
		[ "$1" = -i ] || exit 1
		d=$(cd -P "$FAKE_SYSFS/class/net/$2/../.." && pwd) || exit 1
		for f in "$d"/infiniband/*/fw_ver; do
			[ -f "$f" ] && echo "firmware-version: $(cat "$f")"
		done
		exit 0
	EOF
	printf '#!/bin/sh\nexit 0\n' >"$1/smc_pnet"
	chmod +x "$1/uname" "$1/ethtool" "$1/smc_pnet"
}

# real_rnics TREE ARGS...: smc-tools 1.8.5's smc_rnics ARGS on the fake
# sysfs tree TREE (a path). The script reads sysfs at fixed paths, so it
# runs as a copy in which sed rewrote each "/sys/" into "TREE/" and
# nothing else (its /sys/bus/pci/slots and /sys/bus/pci/devices, in its
# cd, ls, cat, test and echo > commands; checked below: as many lines
# differ as had /sys/, and none has it left): where it looks, not what
# it does with what it finds. With the fakes above first in PATH, under
# the name smc_rnics, as installed.
real_rnics() {
	local tree=$1 d=$BATS_TEST_TMPDIR/smct-rnics n
	shift
	mkdir -p "$d"
	sed "s#/sys/#$tree/#g" "$SMCT_DIR/smc_rnics" >"$d/smc_rnics"
	chmod +x "$d/smc_rnics"
	n=$(grep -c /sys/ "$SMCT_DIR/smc_rnics")
	if [ "$n" -eq 0 ] || grep -q /sys/ "$d/smc_rnics" ||
		[ "$(diff "$SMCT_DIR/smc_rnics" "$d/smc_rnics" | grep -c '^<')" != "$n" ]; then
		echo "real_rnics: rewriting /sys/ in $SMCT_DIR/smc_rnics did not go as planned" >&2
		return 1
	fi
	FAKE_SYSFS=$tree PATH="$d:$T/fakes:$PATH" smc_rnics "$@"
}

# ours_rnics TREE ARGS...: our smc_rnics on the fake tree TREE (a path),
# found by PATH as real_rnics's
ours_rnics() {
	local tree=$1
	shift
	SMC_DUMP_SYSFS_DIR=$tree PATH="$T/bin:$PATH" smc_rnics "$@"
}

# rnics TREE ARGS...: smc_rnics on fake sysfs TREE
rnics() {
	local tree=$1
	shift
	SMC_DUMP_SYSFS_DIR="$T/$tree" "$RNICS" "$@"
}

@test "smc_rnics: the table of each option set, byte for byte as smc-tools 1.8.5" {
	local opts f
	# each golden file: checked by hand against smc-tools 1.8.5 smc_rnics
	for opts in "" "-a" "-r" "-I" "-I -r" "-a -I" "-a -r"; do
		case "$opts" in
		"") f=s390 ;;
		-a) f=s390-a ;;
		-r) f=s390-r ;;
		-I) f=s390-I ;;
		"-I -r") f=s390-I-r ;;
		"-a -I") f=s390-a-I ;;
		"-a -r") f=s390-a-r ;;
		esac
		# shellcheck disable=SC2086 # the options are words
		rnics s390 $opts >"$BATS_TEST_TMPDIR/out"
		cmp "$GOLD/$f.out" "$BATS_TEST_TMPDIR/out" || {
			diff "$GOLD/$f.out" "$BATS_TEST_TMPDIR/out"
			return 1
		}
	done
}

@test "smc_rnics: long options are the short ones" {
	# checked by hand against smc-tools 1.8.5 smc_rnics (its getopt -l)
	rnics s390 --all --rawids >"$BATS_TEST_TMPDIR/out"
	cmp "$GOLD/s390-a-r.out" "$BATS_TEST_TMPDIR/out"
	rnics s390 --IB-dev >"$BATS_TEST_TMPDIR/out"
	cmp "$GOLD/s390-I.out" "$BATS_TEST_TMPDIR/out"
}

@test "smc_rnics FID: one function, with or without 0x and zeros; exit 8 only when none matches" {
	# checked by hand against smc-tools 1.8.5 smc_rnics (format_fid)
	for fid in 300 0x300 00000300; do
		run -0 rnics s390 "$fid"
		[ "$output" = "$(cat "$GOLD/s390-300.out")" ]
	done
	run -8 rnics s390 777
	[ "${#lines[@]}" -eq 2 ]
	run -3 --separate-stderr rnics s390 xyz
	[ "$stderr" = "Error: 'xyz' is not a valid FID" ]
	[ -z "$output" ]
}

@test "smc_rnics: the columns scripts read with awk (smc_chk's \$1, \$5, \$9)" {
	run -0 bash -c "SMC_DUMP_SYSFS_DIR=$T/s390 $RNICS | awk '\$5 == \"ISM\" {print(\$1\" \"\$9)}'"
	[ "$output" = "110 NET1" ]
	run -0 bash -c "SMC_DUMP_SYSFS_DIR=$T/s390 $RNICS | grep -e 'eth1\$' | awk '{print(\$9)}'"
	[ "$output" = "NET1" ]
}

@test "smc_rnics -e/-d: power a slot, errors with smc_rnics's codes" {
	cp -r "$T/s390" "$BATS_TEST_TMPDIR/t"
	# shellcheck disable=SC2030 # for this test only
	export SMC_DUMP_SYSFS_DIR="$BATS_TEST_TMPDIR/t"
	run -0 "$RNICS" -e 600
	[ "$(cat "$BATS_TEST_TMPDIR/t/bus/pci/slots/00000600/power")" = 1 ]
	run -0 "$RNICS" --disable 0x600
	[ "$(cat "$BATS_TEST_TMPDIR/t/bus/pci/slots/00000600/power")" = 0 ]
	run -6 --separate-stderr "$RNICS" -d 600
	[ "$stderr" = "Error: FID 600 is already disabled" ]
	run -5 --separate-stderr "$RNICS" -e 999
	[ "$stderr" = "Error: FID 999 does not exist" ]
	run -4 "$RNICS" -e 600 110
	run -3 "$RNICS" -e zz
	run -2 "$RNICS" -x
	run -2 "$RNICS" -e
}

@test "smc_rnics -h, -v: usage and version on stdout, exit 0" {
	run -0 rnics s390 -h
	[[ "$output" == *"Usage: smc_rnics [ OPTIONS ] [ FID ]"* ]]
	[[ "$output" == *"--rawids"* ]]
	run -0 rnics s390 --version
	[[ "$output" == "smc_rnics utility, smc-dump-"* ]]
}

@test "smc_rnics on x86: RoCE NIC and rxe with n/a for the s390 columns; empty tree: the header only" {
	run -0 rnics x86
	[ "${lines[2]}" = " n/a  1      0000:01:00.0  n/a    15b3:1017        n/a   n/a  n/a   n/a                enp1s0f0" ]
	[ "${lines[3]}" = " n/a  1      n/a           n/a    rxe              n/a   n/a  n/a   n/a                enp2s0" ]
	[ "${#lines[@]}" -eq 4 ]
	run -0 rnics x86 -I
	[ "${lines[2]}" = " n/a  1      0000:01:00.0  n/a    15b3:1017        n/a   n/a  1     n/a                mlx5_0" ]
	[ "${lines[3]}" = " n/a  1      n/a           n/a    rxe              n/a   n/a  1     n/a                rxe0" ]
	run -0 rnics empty
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]}" = "$(head -1 "$GOLD/s390.out")" ]
	# no sysfs at all: the header, no crash
	run -0 rnics nonexistent
	[ "${#lines[@]}" -eq 2 ]
}

@test "smc rnics: the object, its words, JSON" {
	# shellcheck disable=SC2031 # for this test only
	export SMC_DUMP_SYSFS_DIR="$T/s390"
	run -0 "$SMC" rnics
	[ "$output" = "$(cat "$GOLD/s390.out")" ]
	run -0 "$SMC" rnics show all raw
	[ "$output" = "$(cat "$GOLD/s390-a-r.out")" ]
	run -0 "$SMC" rnics fid 300
	[ "$output" = "$(cat "$GOLD/s390-300.out")" ]
	run -0 "$SMC" -j rnics
	run -0 jq -r '.[] | [.fid, .type, .pft, (.vfn|tostring), (.port // "-"), (.pnetid // "-"), (.ifname // "-"), (.ibdev // "-")] | @tsv' <<<"$output"
	# by hand from s390_tree
	[ "${lines[0]}" = "0x110	ISM	0x05	0	-	NET1	-	-" ]
	[ "${lines[1]}" = "0x200	RoCE_Express2	0x0a	1	0	NET1	eth1	mlx5_0" ]
	[ "${lines[4]}" = "0x300	RoCE_Express	0x02	3	0	NETA	eth4	mlx4_0" ]
	run -0 "$SMC" -j rnics ibdev
	run -0 jq -r '.[3] | [.ibport, .ibdev, .pnetid] | @tsv' <<<"$output"
	[ "$output" = "1	mlx4_0	NETA" ]
	SMC_DUMP_SYSFS_DIR="$T/x86" run -0 "$SMC" -j rnics
	run -0 jq -r '.[1] | [.fid // "-", .pci_id // "-", .type, .ifname, .ibdev] | @tsv' <<<"$output"
	[ "$output" = "-	-	rxe	enp2s0	rxe0" ]
	run -2 --separate-stderr "$SMC" rnics bogus
	[ "$stderr" = 'Error: unknown argument "bogus", try "smc rnics help".' ]
	run -2 "$SMC" rnics fid zz
	run -0 "$SMC" rnics help
	[[ "$output" == "Usage: smc [ -j [ -p ] ] rnics"* ]]
}

@test "smc rnics: garbage in a sysfs attribute is unknown in the table and in JSON alike; a FIFO is not read" {
	local g=$BATS_TEST_TMPDIR/g d table json
	# 110: every value garbage; 200: ISM whose pchid, vendor and
	# util_string are FIFOs; slot 700: its power a FIFO
	zpci "$g" 0000:00:00.0 00000110 "0x05 junk" zz "1 2" 0x15b3x 0x1003 NET1 x
	netdev "$g" 0000:00:00.0 eth0 q
	zpci "$g" 0001:00:00.0 00000200 0x05 0x0001 0x0118 0x1014 0x04ed NET2
	d=$g/bus/pci/devices/0001:00:00.0
	rm "$d/pchid" "$d/vendor" "$d/util_string"
	mkfifo "$d/pchid" "$d/vendor" "$d/util_string"
	mkdir -p "$g/bus/pci/slots/00000700"
	mkfifo "$g/bus/pci/slots/00000700/power"
	# (reading a FIFO would wait for a writer: timeout's 124)
	run -0 env SMC_DUMP_SYSFS_DIR="$g" timeout 10 "$SMC" rnics all raw
	[ "${lines[2]}" = " 110  1      0000:00:00.0  n/a    n/a              n/a   n/a  n/a   NET1               eth0" ]
	[ "${lines[3]}" = " 200  1      0001:00:00.0  n/a    n/a              0x05  1    n/a   n/a                n/a" ]
	[ "${#lines[@]}" -eq 4 ]
	table=$(tail -n +3 <<<"$output" | awk '{print $1, $4, $5, $6, $7, $8, $9, $10}')
	# the same values in JSON, null where the table has n/a
	run -0 env SMC_DUMP_SYSFS_DIR="$g" timeout 10 "$SMC" -j rnics all raw
	json=$(jq -r '.[] | [(.fid | ltrimstr("0x")), (.pchid // "n/a" | ltrimstr("0x")),
		(.type // "n/a"), (.pft // "n/a"), (.vfn // "n/a" | tostring),
		(.port // "n/a"), (.pnetid // "n/a"), (.ifname // "n/a")] | join(" ")' <<<"$output")
	[ "$table" = "$json" ]
	# without raw: 110's type unknown, so listed with all only
	run -0 env SMC_DUMP_SYSFS_DIR="$g" timeout 10 "$SMC" rnics
	[ "${#lines[@]}" -eq 3 ]
	[ "${lines[2]}" = " 200  1      0001:00:00.0  n/a    ISM              ISM   y    n/a   n/a                n/a" ]
	# a FIFO as a slot's power: no such slot, at once, nothing written
	run -5 --separate-stderr env SMC_DUMP_SYSFS_DIR="$g" timeout 10 "$RNICS" -e 700
	[ "$stderr" = "Error: FID 700 does not exist" ]
}

# --- beside smc-tools 1.8.5's smc_rnics (real_rnics) ---

@test "smc_rnics beside smc-tools' smc_rnics: each option set, exit status, stdout, stderr" {
	need_smct smc_rnics
	local opts r o
	for opts in "" "-a" "-r" "-I" "-I -r" "-a -I" "-a -r" "-a -I -r" \
		"--all --rawids" "--IB-dev" "-aIr" "-r -a -r"; do
		# shellcheck disable=SC2086 # the options are words
		r=$(result real_rnics "$T/s390" $opts)
		# shellcheck disable=SC2086
		o=$(result ours_rnics "$T/s390" $opts)
		same "smc_rnics $opts" "$r" "$o"
	done
}

@test "smc_rnics beside smc-tools' smc_rnics: the expected files are what it prints" {
	need_smct smc_rnics
	local f opts
	for f in "$GOLD"/s390*.out; do
		opts=${f##*/s390}
		opts=${opts%.out}
		case "$opts" in
		-300) opts=300 ;;
		*) opts=${opts//-/ -} ;;
		esac
		# shellcheck disable=SC2086 # the options are words
		real_rnics "$T/s390" $opts >"$BATS_TEST_TMPDIR/out" || [ $? = 8 ]
		same "$f (smc_rnics $opts)" "$(cat "$BATS_TEST_TMPDIR/out")" "$(cat "$f")"
	done
}

@test "smc_rnics FID beside smc-tools' smc_rnics: the same rows and messages; exit 8 as documented" {
	need_smct smc_rnics
	local args r o rr ro
	for args in 300 0x300 00000300 110 "-a 600" "-I 300" "-r 200" "-a -r 500" \
		"500" "600" 777 "300 777" "777 300" xyz 0x "-a zz"; do
		# shellcheck disable=SC2086 # the arguments are words
		r=$(result real_rnics "$T/s390" $args)
		# shellcheck disable=SC2086
		o=$(result ours_rnics "$T/s390" $args)
		rr=${r%%$'\n'*} ro=${o%%$'\n'*}
		same "smc_rnics $args (but the exit status)" "${r#*$'\n'}" "${o#*$'\n'}"
		# smc-tools' smc_rnics counts the rows it printed in the
		# subshell of "print_rnics | sort": its 8 ("FID not listed")
		# follows every FID argument; ours only when no row is listed
		# (Documentation/smc-tools.md)
		case "$rr/$(sed -n '/^--- stdout/,/^--- stderr/p' <<<"$o" | wc -l)" in
		"exit 8/4") [ "$ro" = "exit 8" ] ;;
		"exit 8/"*) [ "$ro" = "exit 0" ] ;;
		*) same "smc_rnics $args: exit status" "$rr" "$ro" ;;
		esac
	done
}

@test "smc_rnics -e/-d beside smc-tools' smc_rnics: the same slot power, messages and exit status" {
	need_smct smc_rnics
	local args r o
	cp -r "$T/s390" "$BATS_TEST_TMPDIR/real"
	cp -r "$T/s390" "$BATS_TEST_TMPDIR/ours"
	# one after the other on two copies: each step from the same state
	for args in "-e 600" "-e 600" "--disable 0x600" "-d 600" "-d 00000600" \
		"-e 999" "-d 110" "-e zz" "-e" "-d" "-x" "--bogus" "-e 110 -d 300"; do
		# shellcheck disable=SC2086 # the arguments are words
		r=$(result real_rnics "$BATS_TEST_TMPDIR/real" $args)
		# shellcheck disable=SC2086
		o=$(result ours_rnics "$BATS_TEST_TMPDIR/ours" $args)
		same "smc_rnics $args" "$r" "$o"
		same "smc_rnics $args: the slots' power" \
			"$(cd "$BATS_TEST_TMPDIR/real/bus/pci/slots" && grep -r . .)" \
			"$(cd "$BATS_TEST_TMPDIR/ours/bus/pci/slots" && grep -r . .)"
	done
	# -e/-d with a FID argument: the usage (each its own text) and 4
	r=$(result real_rnics "$BATS_TEST_TMPDIR/real" -e 600 110)
	o=$(result ours_rnics "$BATS_TEST_TMPDIR/ours" -e 600 110)
	same "smc_rnics -e 600 110: exit status and usage line" \
		"$(sed -n '1p;4p' <<<"$r")" "$(sed -n '1p;4p' <<<"$o")"
}

@test "smc_rnics -h, -v beside smc-tools' smc_rnics: exit 0, the same usage and version lines" {
	need_smct smc_rnics
	local r o
	# the help texts are each program's own: the usage line
	r=$(result real_rnics "$T/s390" -h)
	o=$(result ours_rnics "$T/s390" --help)
	same "smc_rnics -h" "$(sed -n '1,4p' <<<"$r")" "$(sed -n '1,4p' <<<"$o")"
	r=$(result real_rnics "$T/s390" -v)
	o=$(result ours_rnics "$T/s390" --version)
	same_version "smc_rnics -v" "$r" "$o"
}

@test "smc_rnics beside smc-tools' smc_rnics: an empty tree and none, the header only" {
	need_smct smc_rnics
	local tree r o
	for tree in "$T/empty" "$T/nonexistent"; do
		# stdout and exit status; stderr has ls's complaint about the
		# missing slots directory from smc-tools, nothing from ours
		r=$(result real_rnics "$tree" -a)
		o=$(result ours_rnics "$tree" -a)
		same "smc_rnics -a on ${tree##*/}" "${r%%--- stderr*}" "${o%%--- stderr*}"
	done
}
