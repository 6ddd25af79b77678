#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of smc dump start, stop and show and of smcdump-ex:
# the command line, the splitting of param into tcpdump's arguments, and
# the errors on a kernel without the feature. The host kernel has no SMC
# and no smc-dummy kind; the captures themselves are tested in the VM
# (testsuite/vm/dump-capture.bats).
#
# tcpdump's command line is what `smc -d dump start` prints before it
# creates anything ("smc dump: running tcpdump ARG..." with each argument
# quoted for a shell); the tests read it back with bash and compare the
# words with what bash itself makes of the same param string.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_file smc || return 1
	export EX="$TOP/smc/smcdump-ex"
	# a tcpdump that fails at once: should a host have the kernel
	# feature after all, a start ends at once and removes its link
	mkdir -p "$BATS_FILE_TMPDIR/bin"
	printf '#!/bin/sh\necho "tcpdump: not in the host tests" >&2\nexit 1\n' \
		>"$BATS_FILE_TMPDIR/bin/tcpdump"
	chmod +x "$BATS_FILE_TMPDIR/bin/tcpdump"
	export PATH="$BATS_FILE_TMPDIR/bin:$PATH"
}

# The host is what these tests expect: no SMC (AF_SMC = 43)
host_has_smc() {
	python3 -c 'import socket; socket.socket(43, socket.SOCK_STREAM)' 2>/dev/null
}

# smc-dummy links and interfaces of the host, to see nothing was made
host_links() {
	ip -o link show | awk -F': ' '{ print $2 }' | sort
}

# tcpdump_argv OUTPUT: the words of the "smc dump: running tcpdump" line
# of OUTPUT, one a line, as bash reads them
tcpdump_argv() {
	local line
	line=$(grep -m1 '^smc dump: running tcpdump ' <<<"$1") || return 1
	eval "set -- ${line#smc dump: running }"
	printf '%s\n' "$@"
}

# ---------------------------------------------------------------- usage

@test "start help: usage on stdout, status 0" {
	run --separate-stderr "$SMC" dump start help
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "Usage: smc dump start [ mode { all | smc | smcr | smcd } ]"* ]]
	[ -z "$stderr" ]
}

@test "start: unknown keywords and wrong values are usage errors (2)" {
	before=$(host_links)
	run "$SMC" dump start frobnicate
	[ "$status" -eq 2 ]
	[ "$output" = 'Error: unknown keyword "frobnicate", try "smc dump start help".' ]
	run "$SMC" dump start mode smcx
	[ "$status" -eq 2 ]
	[ "$output" = 'Error: argument "smcx" is wrong: mode must be all, smc, smcr or smcd' ]
	run "$SMC" dump start type data
	[ "$status" -eq 2 ]
	[ "$output" = 'Error: argument "data" is wrong: type must be all, raw, cdc or llc' ]
	for v in 65536 -1 12k "" 0x10 4294967296 18446744073709551616; do
		run "$SMC" dump start snaplen "$v"
		[ "$status" -eq 2 ]
		[[ "$output" == *"snaplen must be a number of bytes from 0 (all) to 65535" ]]
	done
	run "$SMC" dump start mode smc mode smcd
	[ "$status" -eq 2 ]
	[ "$output" = 'Error: duplicate "mode": "smcd" is the second value.' ]
	run "$SMC" dump start write
	[ "$status" -eq 2 ]
	[ "$output" = 'Error: "write" needs a value.' ]
	for v in 0123456789abcdef a/b "a b" . a:b ""; do
		run "$SMC" dump start dev "$v"
		[ "$status" -eq 2 ]
		[[ "$output" == *"not a valid interface name"* ]]
	done
	for v in 20 -21 x "" 1.5 -19x 99999999999999999999; do
		run "$SMC" dump start nice "$v"
		[ "$status" -eq 2 ]
		[ "$output" = "Error: argument \"$v\" is wrong: nice must be a number from -20 (first) to 19 (last)" ]
	done
	run "$SMC" dump start nice 1 nice 2
	[ "$status" -eq 2 ]
	[ "$output" = 'Error: duplicate "nice": "2" is the second value.' ]
	[ "$(host_links)" = "$before" ]
}

@test "start: background needs a file, param keeps to its part" {
	run "$SMC" dump start background
	[ "$status" -eq 2 ]
	[[ "$output" == "Error: background needs write FILE"* ]]
	run "$SMC" dump start write - background
	[ "$status" -eq 2 ]
	run "$SMC" dump start param "-i eth0"
	[ "$status" -eq 2 ]
	[[ "$output" == *"param must not choose the interface"* ]]
	run "$SMC" dump start write a.pcap param "-w b.pcap"
	[ "$status" -eq 2 ]
	[[ "$output" == *"give the file once"* ]]
	# short options clustered as tcpdump's getopt takes them
	for p in "-ni eth0" "-nieth0" "-vvi eth0"; do
		run -2 "$SMC" dump start param "$p"
		[[ "$output" == *"param must not choose the interface"* ]]
	done
	for p in "-r x.pcap" "-nr x.pcap" "-V list"; do
		run -2 "$SMC" dump start param "$p"
		[[ "$output" == *"param must not make tcpdump read files (-r, -V)"* ]]
	done
	run -2 "$SMC" dump start write a.pcap param "-nw b.pcap"
	[[ "$output" == *"give the file once"* ]]
	# a value is no cluster: -s's "in" and -c's are not -i
	run -2 "$SMC" dump start write a.pcap param "-s in -w b.pcap"
	[[ "$output" == *"give the file once"* ]]
	for p in "'a" '"a' "a 'b\"" '"a\"'; do
		run "$SMC" dump start param "$p"
		[ "$status" -eq 2 ]
		[[ "$output" == *"param has an unterminated quote" ]]
	done
}

@test "start: keywords may be abbreviated, as in ip" {
	run "$SMC" -d dump start mo smcd ty cdc sn 100 wr /tmp/x.pcap fi 'port 1' pa '-s 10' de smcq0
	echo "$output"
	mapfile -t av < <(tcpdump_argv "$output")
	[ "${av[*]}" = "tcpdump -p -U -B 65536 -s 10 -i smcq0 -w /tmp/x.pcap port 1" ]
	[ "${av[11]}" = "port 1" ]
}

# ---------------------------------------------------------------- quoting

@test "param: split into tcpdump's arguments as bash splits it, nothing expanded" {
	local p
	# each string once through smc dump start, once through bash (no
	# $, `, globs or ~ in them: bash would expand those, smc does not)
	while IFS= read -r p; do
		run "$SMC" -d dump start dev smcq0 param "$p"
		mapfile -t got < <(tcpdump_argv "$output")
		eval "set -- $p"
		exp=(tcpdump -p -U -B 65536 "$@" -i smcq0 -w -)
		if [ "$(printf '[%s]\n' "${got[@]}")" != "$(printf '[%s]\n' "${exp[@]}")" ]; then
			echo "param: $p"
			printf 'got [%s]\n' "${got[@]}"
			printf 'exp [%s]\n' "${exp[@]}"
			return 1
		fi
	done <<'EOF'
-s 100 -c 5
-z '/tmp/my file.sh'
-z "/tmp/my file.sh" -c 3
-s	100   --immediate-mode
a\ b c\\d 'e\f' "g\h" "i\"j" 'k"l' "m'n"
'' "" x''y "a"'b'c
--time-stamp-precision=nano -Q 'out'
-F '(tcp port 1) and not (udp)'
EOF
}

@test "param: -w in param names the file (Alibaba's way), live decoding is off" {
	run "$SMC" -d dump start param "-w '/tmp/a b.pcap' -c 1"
	mapfile -t av < <(tcpdump_argv "$output")
	printf '[%s]\n' "${av[@]}"
	# no -w - of ours after it
	[ "${av[5]}" = -w ]
	[ "${av[6]}" = "/tmp/a b.pcap" ]
	[ "${av[9]}" = -i ]
	[ "${#av[@]}" -eq 11 ]
}

@test "start: write FILE becomes absolute, filter is one argument, mode all is -i any" {
	cd "$BATS_TEST_TMPDIR"
	run "$SMC" -d dump start mode all write rel.pcap filter "tcp port 5201 or (udp and port 5201)"
	mapfile -t av < <(tcpdump_argv "$output")
	printf '[%s]\n' "${av[@]}"
	[ "${av[*]}" = "tcpdump -p -U -B 65536 -i any -w $BATS_TEST_TMPDIR/rel.pcap tcp port 5201 or (udp and port 5201)" ]
	[ "${#av[@]}" -eq 10 ]
	# without write: tcpdump writes to us for decoding
	run "$SMC" -d dump start
	mapfile -t av < <(tcpdump_argv "$output")
	[[ "${av[*]}" =~ ^tcpdump\ -p\ -U\ -B\ 65536\ -i\ smc-dummy[a-z]{4}\ -w\ -$ ]]
}

# ---------------------------------------------------------------- errors

@test "errors: no SMC in the kernel: said so, pointing to kernel/, nothing made" {
	host_has_smc && skip "the host kernel has SMC"
	[ "$(id -u)" -eq 0 ] || skip "needs root (CAP_NET_ADMIN) to get past the permission check"
	before=$(host_links)
	run "$SMC" dump start write /tmp/x.pcap
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == "Error: SMC is not available in the running kernel"*"CONFIG_SMC"*"kernel/"* ]]
	run "$SMC" dump start write /tmp/x.pcap background
	[ "$status" -eq 1 ]
	[[ "$output" == "Error: SMC is not available in the running kernel"* ]]
	[ "$(host_links)" = "$before" ]
	[ ! -e /tmp/x.pcap ]
}

@test "errors: no CAP_NET_ADMIN" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop it"
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$SMC" dump start write /tmp/x.pcap
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == "Error: creating the smc-dummy link needs CAP_NET_ADMIN in this network namespace (run as root): Operation not permitted" ]]
}

@test "errors: tcpdump missing" {
	mkdir -p "$BATS_TEST_TMPDIR/empty"
	run env PATH="$BATS_TEST_TMPDIR/empty" "$SMC" dump start write /tmp/x.pcap
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == "Error: tcpdump not found in PATH"* ]]
}

@test "errors: a name already taken" {
	run "$SMC" dump start dev lo write /tmp/x.pcap
	[ "$status" -eq 1 ]
	[ "$output" = "Error: the name lo is already taken by another link" ]
}

@test "stop and show with no capture" {
	run --separate-stderr "$SMC" dump show
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	run "$SMC" -j dump show
	[ "$status" -eq 0 ]
	[ "$output" = "[]" ]
	run "$SMC" dump show -j
	[ "$output" = "[]" ]
	run "$SMC" dump show dev nosuch0
	[ "$status" -eq 1 ]
	run "$SMC" dump stop
	[ "$status" -eq 1 ]
	[ "$output" = "Error: no capture is running in this network namespace" ]
	run "$SMC" dump stop all
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	run "$SMC" dump stop dev nosuch0
	[ "$status" -eq 1 ]
	[ "$output" = "Error: no capture on nosuch0 in this network namespace" ]
	run "$SMC" dump stop dev x all
	[ "$status" -eq 2 ]
	run "$SMC" dump stop now
	[ "$status" -eq 2 ]
}

# ---------------------------------------------------------------- smcdump-ex

# a stand-in for smc that prints its arguments, one a line
fake_smc() {
	cat >"$BATS_TEST_TMPDIR/smc" <<'EOF'
#!/bin/bash
printf '[%s]\n' "$@"
EOF
	chmod +x "$BATS_TEST_TMPDIR/smc"
	export SMCDUMP_EX_SMC="$BATS_TEST_TMPDIR/smc"
}

@test "smcdump-ex: defaults mode smc, type all" {
	fake_smc
	run "$EX"
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '[%s]\n' dump start mode smc type all)" ]
}

@test "smcdump-ex: -m -t --param --filter --legacy, each argument passed intact" {
	fake_smc
	run "$EX" -m smcd -t cdc --param "-w '/tmp/a b.pcap' -c 10" --filter "port 1 and (tcp)" --legacy
	[ "$status" -eq 0 ]
	[ "$output" = "$(printf '[%s]\n' dump start mode smcd type cdc param "-w '/tmp/a b.pcap' -c 10" filter "port 1 and (tcp)")" ]
	run "$EX" --mode=all --type=raw --param=-n --filter=udp
	[ "$output" = "$(printf '[%s]\n' dump start mode all type raw param -n filter udp)" ]
	run "$EX" -msmcr -traw
	[ "$output" = "$(printf '[%s]\n' dump start mode smcr type raw)" ]
}

@test "smcdump-ex: wrong options are usage errors (2), -h is help" {
	fake_smc
	run "$EX" -m tcp
	[ "$status" -eq 2 ]
	[ "$output" = 'smcdump-ex: invalid mode "tcp": all, smc, smcd or smcr' ]
	run "$EX" -t data
	[ "$status" -eq 2 ]
	run "$EX" -x
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == 'smcdump-ex: unknown option "-x"' ]]
	run "$EX" -m
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == "smcdump-ex: -m needs a value" ]]
	run "$EX" port 80
	[ "$status" -eq 2 ]
	[[ "${lines[0]}" == 'smcdump-ex: unexpected argument "port" (a filter goes in --filter)' ]]
	run --separate-stderr "$EX" -h
	[ "$status" -eq 0 ]
	[[ "${lines[0]}" == "Usage: smcdump-ex [-m {all,smc,smcd,smcr}] [-t {all,raw,cdc,llc}]" ]]
}

@test "smcdump-ex: through the real smc, quoted --param words reach tcpdump's command line" {
	# smc -d shows tcpdump's arguments before it creates anything
	cat >"$BATS_TEST_TMPDIR/smc-d" <<EOF
#!/bin/sh
exec "$SMC" -d "\$@"
EOF
	chmod +x "$BATS_TEST_TMPDIR/smc-d"
	run env SMCDUMP_EX_SMC="$BATS_TEST_TMPDIR/smc-d" "$EX" -m smcd \
		--param "-w '/tmp/x y.pcap' -s \"1 0\"" --filter 'port 5201'
	echo "$output"
	mapfile -t av < <(tcpdump_argv "$output")
	printf '[%s]\n' "${av[@]}"
	[ "${av[6]}" = "/tmp/x y.pcap" ]
	[ "${av[8]}" = "1 0" ]
	[ "${av[11]}" = "port 5201" ]
	[ "${#av[@]}" -eq 12 ]
}

@test "smcdump-ex: runs the smc next to it by default" {
	d=$BATS_TEST_TMPDIR/bin
	mkdir -p "$d"
	cp "$EX" "$d/smcdump-ex"
	printf '#!/bin/sh\necho next-to-it "$@"\n' >"$d/smc"
	chmod +x "$d/smc"
	run env -u SMCDUMP_EX_SMC "$d/smcdump-ex" -t raw
	[ "$output" = "next-to-it dump start mode smc type raw" ]
}
