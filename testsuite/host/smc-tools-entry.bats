#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# The smc_chk and smc_run entry points (links to smc): smc-tools 1.8.5's
# options, messages and exit codes where scripts read them. Each expected
# text is checked by hand against smc-tools 1.8.5's script (the comment
# at each; compat/smc-tools/README for the files).

# shellcheck disable=SC2154 # bats sets $stderr
bats_require_minimum_version 1.5.0

load lib
load helpers/rnics-sysfs

setup_file() {
	host_setup_file smc || return 1
	mkdir -p "$T/bin"
	ln -sf "$SMC" "$T/bin/smc_chk"
	ln -sf "$SMC" "$T/bin/smc_run"
	s390_tree "$T/s390"
	export CHK="$T/bin/smc_chk" RUN="$T/bin/smc_run"
	export GOLD="$TOP/testsuite/host/compat/smc-tools"
	export PROTO_SO="$H/smc-proto-fake.so" DIAG_SO="$H/socket-fake.so"
	mkdir -p "$T/empty"
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	PIDS=()
}

teardown() {
	local p
	for p in "${PIDS[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	return 0
}

# with_fakes CMD...: CMD with an IPPROTO_SMC that gives TCP sockets
# (helpers/smc-proto-fake.c) and a sock_diag that lists no SMC socket
# (helpers/socket-fake.c)
with_fakes() {
	env LD_PRELOAD="$PROTO_SO:$DIAG_SO" SMC_FAKE=ipproto \
		SOCKET_FAKE_DIR="$T/empty" "$@"
}

@test "smc_chk: no mode is its usage, exit 0; -v; -h" {
	# checked by hand against smc-tools 1.8.5 smc_chk (mode < 0: usage,
	# exit 0; -v's "smc_chk utility, ...")
	run -0 "$CHK"
	[[ "$output" == *"Usage: smc_chk [OPTIONS] -C <IP>"* ]]
	run -0 "$CHK" --version
	[[ "$output" == "smc_chk utility, smc-dump-"* ]]
	run -0 "$CHK" -h
	[[ "$output" == *"-S, --server"* ]]
}

@test "smc_chk: its errors on stdout with exit 1, as smc_chk words them" {
	# checked by hand against smc-tools 1.8.5 smc_chk (set_mode, -C's
	# getent, the -i checks)
	run -1 --separate-stderr "$CHK" -C nosuch.invalid
	[ "$output" = "Error: Unknown destination 'nosuch.invalid'" ]
	run -1 --separate-stderr "$CHK" -C 127.0.0.1 -S
	[ "$output" = "Error: Cannot combine options '-C/--connect' and '-S/--server'" ]
	run -1 --separate-stderr "$CHK" --server --connect nosuch.invalid
	[ "$output" = "Error: Cannot combine options '-S/--server' and '-C/--connect'" ]
	run -1 --separate-stderr "$CHK" -i eth1 -S
	[ "$output" = "Error: Cannot combine options '-i/--pnetid' and '-S/--server'" ]
	SMC_DUMP_SYSFS_DIR="$T/s390" run -1 --separate-stderr "$CHK" -i nosuch
	[ "$output" = "Error: Interface nosuch does not exist" ]
	SMC_DUMP_SYSFS_DIR="$T/s390" run -1 --separate-stderr "$CHK" -i eth1 extra
	[ "$output" = "Error: Option -P/--print-PNETID takes no extra targets" ]
	# getopt's refusal: exit 2
	run -2 "$CHK" -x
}

@test "smc_chk -i IFACE: the PNET ID, from the PCI function's util_string" {
	# checked by hand: s390_tree gives eth1 NET1, eth4 (RoCE Express,
	# PPrt 0 as smc_rnics shows it) NETA, eth2 none (nothing printed)
	export SMC_DUMP_SYSFS_DIR="$T/s390"
	run -0 "$CHK" -i eth1
	[ "$output" = "NET1" ]
	run -0 "$CHK" --pnetid eth4
	[ "$output" = "NETA" ]
	run -0 "$CHK" -i eth2
	[ -z "$output" ]
}

@test "smc_chk -C HOST -p PORT: nobody listening is 'Failed, no connection', exit 0" {
	# compat/smc-tools/chk-connect-refused.out: checked by hand against
	# smc-tools 1.8.5 smc_chk (run_client, test_iface)
	run -0 --separate-stderr "$CHK" -C 127.0.0.1 -p 1
	[ "$output" = "$(cat "$GOLD/chk-connect-refused.out")" ]
	run -1 --separate-stderr "$CHK" -C 127.0.0.1 -p 0
	[ "$output" = "Error: Invalid port '0'" ]
}

@test "smc_chk -S: the next free port from -p, said; smc_chk -C to it" {
	host_need testsuite/host/helpers smc-proto-fake.so socket-fake.so
	# a TCP listener on port P, so that the server takes a later one
	python3 -c 'import socket, time
s = socket.socket(); s.bind(("0.0.0.0", 0)); s.listen()
print(s.getsockname()[1], flush=True); time.sleep(120)' >hold.port &
	PIDS+=($!)
	wait_file hold.port
	local p q
	p=$(cat hold.port)
	with_fakes "$CHK" -S -p "$p" >srv.out 2>srv.err &
	PIDS+=($!)
	wait_line srv.out '^Server started on port [0-9]+$'
	# checked by hand against smc-tools 1.8.5 smc_chk (-S's echo)
	q=$(sed -n 's/^Server started on port //p' srv.out)
	[ "$q" -gt "$p" ]
	# the client: the connection is made, but no SMC socket is listed
	# (smcss shows none): smc_chk's "Failed, no connection"
	run -0 --separate-stderr with_fakes "$CHK" -C 127.0.0.1 -p "$q"
	[ "${lines[0]}" = "Test with target IP 127.0.0.1 and port $q" ]
	[ "$(printf '%s\n' "${lines[@]:1}")" = "$(sed 1d "$GOLD/chk-connect-refused.out" | sed '/^$/d')" ]
	# the server reports its one connection, which sock_diag does not list
	wait_gone "${PIDS[1]}"
	[[ "$(cat srv.err)" == *"is not among the SMC sockets sock_diag lists"* ]]
}

@test "smc_chk: the interface tests it does not offer are named, exit 1" {
	run -1 --separate-stderr "$CHK" -l
	[[ "$stderr" == *"not offered"* ]]
	run -1 --separate-stderr "$CHK" -s eth0
	[[ "$stderr" == *"not offered"* ]]
	# checked by hand against smc-tools 1.8.5 smc_chk: an interface
	# without -l or -s leaves the mode unset, which is its usage, exit 0
	run -0 "$CHK" eth0
	[[ "$output" == *"Usage: smc_chk"* ]]
}

@test "smc_run: its errors on stdout with exit 1, as smc_run words them" {
	# compat/smc-tools/run-*.out: checked by hand against smc-tools
	# 1.8.5 smc_run
	run -1 --separate-stderr "$RUN"
	[ "$output" = "$(cat "$GOLD/run-no-command.out")" ]
	run -1 --separate-stderr "$RUN" -x true
	[ "$output" = "$(cat "$GOLD/run-bad-option.out")" ]
	# bash names the script as exec found it: its path
	[ "$stderr" = "$RUN: illegal option -- x" ]
	run -1 --separate-stderr "$RUN" -r
	[ "$output" = "$(cat "$GOLD/run-bad-option.out")" ]
	run -1 --separate-stderr "$RUN" -r 12x true
	[ "$output" = "$(cat "$GOLD/run-bad-size.out")" ]
	[ -z "$stderr" ]
	run -1 "$RUN" -t k true
	[ "$output" = "Error: Invalid buffer size specified: 'k'" ]
}

@test "smc_run: -v, -h on stdout, exit 0" {
	run -0 "$RUN" -v
	[[ "$output" == "smc_run utility, smc-dump-"* ]]
	run -0 "$RUN" -h
	[[ "$output" == *"Usage: smc_run [ OPTIONS ] COMMAND"* ]]
}

@test "smc_run: runs COMMAND with its arguments and exit status; -r/-t in bytes for the preload library" {
	# smc_run exports SMC_RCVBUF and SMC_SNDBUF in bytes (its
	# adjust_core_net_max() turns 4k into 4096) and LD_PRELOAD with the
	# library; 4k stays below any net.core.[rw]mem_max, so nothing is raised
	run -3 "$RUN" sh -c 'exit 3'
	# shellcheck disable=SC2016 # for the child shell
	run -0 --separate-stderr "$RUN" -r 4k -t 2K sh -c 'echo "$SMC_RCVBUF $SMC_SNDBUF $LD_PRELOAD"'
	[[ "$output" == "4096 2048 "*libsmc-preload.so* ]]
	# the options end at the command: its own -r is its own
	run -0 "$RUN" echo -r 4k
	[ "$output" = "-r 4k" ]
}
