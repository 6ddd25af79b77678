#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of smc check: arguments and errors, and which
# sockets it asks the kernel for. The host has no SMC: the socket calls go
# to helpers/smc-proto-fake.c (a kernel with IPPROTO_SMC, or one with
# AF_SMC only, whose "SMC" sockets are TCP sockets) and the socket lookup
# to helpers/socket-fake.c (a sock_diag that does not list them). What SMC
# does with a connection is tested in testsuite/vm/check.bats.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_file smc || return 1
	export PROTO_SO="$H/smc-proto-fake.so" DIAG_SO="$H/socket-fake.so"
	host_need testsuite/host/helpers smc-proto-fake.so socket-fake.so ||
		return 1
	python3 "$H/socket-case.py" empty "$T/empty"
}

@test "check help: usage on stdout in all spellings; listed in smc help" {
	run -0 --separate-stderr "$SMC" check help
	[ "${lines[0]}" = "Usage: smc [ -j [ -p ] ] check { HOST PORT | server PORT | loopback }" ]
	[ -z "$stderr" ]
	run -0 "$SMC" help check
	[ "${lines[0]}" = "Usage: smc [ -j [ -p ] ] check { HOST PORT | server PORT | loopback }" ]
	run -0 "$SMC" check he
	[[ "$output" == "Usage: smc "* ]]
	run -0 "$SMC" help
	[[ "$output" == *"| run | check |"* ]]
}

@test "check: bad arguments, one message each, exit 2, no socket opened" {
	local args msg
	while IFS='|' read -r args msg; do
		# shellcheck disable=SC2086
		run -2 --separate-stderr env LD_PRELOAD="$PROTO_SO" \
			SMC_FAKE=ipproto SMC_FAKE_LOG="$BATS_TEST_TMPDIR/log" \
			"$SMC" check $args
		[ -z "$output" ]
		[ "$stderr" = "$msg" ] || {
			echo "smc check $args: got '$stderr', want '$msg'"
			return 1
		}
		[ ! -e "$BATS_TEST_TMPDIR/log" ]
	done <<-'EOF'
	|Error: check needs HOST PORT, server PORT or loopback, try "smc check help".
	server|Error: "server" needs a PORT, try "smc check help".
	127.0.0.1|Error: "127.0.0.1" needs a PORT, try "smc check help".
	server 0|Error: argument "0" is wrong: not a port number (1 to 65535)
	server 65536|Error: argument "65536" is wrong: not a port number (1 to 65535)
	server -1|Error: argument "-1" is wrong: not a port number (1 to 65535)
	server -0|Error: argument "-0" is wrong: not a port number (1 to 65535)
	server 80x|Error: argument "80x" is wrong: not a port number (1 to 65535)
	server 4294967376|Error: argument "4294967376" is wrong: not a port number (1 to 65535)
	server 18446744073709551696|Error: argument "18446744073709551696" is wrong: not a port number (1 to 65535)
	127.0.0.1 http|Error: argument "http" is wrong: not a port number (1 to 65535)
	server 80 x|Error: unexpected argument "x", try "smc check help".
	loopback x|Error: unexpected argument "x", try "smc check help".
	127.0.0.1 80 x|Error: unexpected argument "x", try "smc check help".
	EOF
}

@test "check: a kernel without SMC is named, exit 1" {
	# both socket kinds refused as a kernel without CONFIG_SMC does
	if [ -d /sys/module/smc ]; then
		skip "the host has SMC"
	fi
	run -1 --separate-stderr "$SMC" check loopback
	[ -z "$output" ]
	[ "$stderr" = "Error: SMC is not available in the running kernel (neither IPPROTO_SMC nor AF_SMC sockets); load the smc module or use a kernel with CONFIG_SMC" ]
}

@test "check, stats: the advice follows the running kernel's module lists" {
	# a kernel built without CONFIG_SMC (Debian's 7.x) lists no smc.ko;
	# one with it lists smc.ko (compressed); without the lists, both hints
	if [ -d /sys/module/smc ]; then
		skip "the host has SMC"
	fi
	local m=$BATS_TEST_TMPDIR/mods none built lists
	none="the running kernel is built without SMC (its modules.dep and modules.builtin name no smc module): boot a kernel with CONFIG_SMC, such as Debian's 6.12 kernels (Debian's 7.x kernels have no SMC: CONFIG_DIBS, which SMC needs, is off there)"
	mkdir -p "$m"
	printf 'kernel/net/smc_x/smc.kox: \nkernel/net/smc/smc_diag.ko.xz: kernel/net/smc/x.ko\n' >"$m/modules.dep"
	printf 'kernel/net/ipv4/tcp_cubic.ko\n' >"$m/modules.builtin"
	SMC_DUMP_MODULES_DIR=$m run -1 --separate-stderr "$SMC" check loopback
	[ "$stderr" = "Error: SMC is not available in the running kernel (neither IPPROTO_SMC nor AF_SMC sockets); $none" ]
	SMC_DUMP_MODULES_DIR=$m run -1 --separate-stderr "$SMC" stats
	[ "$stderr" = "Error: SMC is not available in the running kernel (generic netlink family SMC_GEN_NETLINK not found); $none" ]
	for lists in dep builtin; do
		printf 'kernel/net/ipv4/tcp_cubic.ko\n' >"$m/modules.builtin"
		echo 'kernel/net/smc/smc.ko.xz: kernel/drivers/dibs/dibs.ko.xz' >>"$m/modules.$lists"
		SMC_DUMP_MODULES_DIR=$m run -1 --separate-stderr "$SMC" stats
		[ "$stderr" = "Error: SMC is not available in the running kernel (generic netlink family SMC_GEN_NETLINK not found); load the smc module (modprobe smc)" ]
		sed -i '/smc\.ko\.xz/d' "$m/modules.dep"
	done
	rm "$m/modules.builtin"
	SMC_DUMP_MODULES_DIR=$m run -1 --separate-stderr "$SMC" stats
	[ "$stderr" = "Error: SMC is not available in the running kernel (generic netlink family SMC_GEN_NETLINK not found); load the smc module or use a kernel with CONFIG_SMC" ]
}

@test "check: IPPROTO_SMC first, AF_SMC on kernels before 6.11; a socket sock_diag does not list is an error" {
	local mode want
	for mode in ipproto afsmc; do
		rm -f "$BATS_TEST_TMPDIR/log"
		run -1 --separate-stderr env LD_PRELOAD="$PROTO_SO:$DIAG_SO" \
			SMC_FAKE=$mode SMC_FAKE_LOG="$BATS_TEST_TMPDIR/log" \
			SOCKET_FAKE_DIR="$T/empty" "$SMC" check loopback
		echo "$stderr"
		[ -z "$output" ]
		[[ "$stderr" == "Error: the client socket (inode "*") is not among the SMC sockets sock_diag lists" ]]
		cat "$BATS_TEST_TMPDIR/log"
		# listener and client: AF_INET (2), SOCK_STREAM (1), IPPROTO_SMC
		# (256); else AF_SMC (43) with SMCPROTO_SMC (0) after EINVAL
		if [ $mode = ipproto ]; then
			want="smc 2 1 256 fd"
		else
			want="smc 43 1 0 fd"
		fi
		[ "$(grep -c "^$want" "$BATS_TEST_TMPDIR/log")" -eq 2 ]
	done
}

@test "check HOST PORT: a name that does not resolve, a port nobody listens on" {
	run -1 --separate-stderr "$SMC" check host.invalid 80
	[[ "$stderr" == "Error: cannot resolve \"host.invalid\": "* ]]
	run -1 --separate-stderr env LD_PRELOAD="$PROTO_SO" SMC_FAKE=ipproto \
		"$SMC" check 127.0.0.1 1
	[ "$stderr" = "Error: cannot connect to 127.0.0.1 port 1: Connection refused" ]
}
