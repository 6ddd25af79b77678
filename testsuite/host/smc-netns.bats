#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# The global option -n NETNS of smc, as ip -n: the object runs
# in network namespace NETNS of /run/netns. Parsing and errors everywhere;
# the switch itself where the host lets root make namespaces (unshare),
# in a mount namespace of the test's own with a tmpfs on /run, so that the
# host's /run/netns is never touched. helpers/socket-fake.c, preloaded,
# logs the network namespace smc socket opens its socket in.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_file smc || return 1
	export FAKE_SO="$H/socket-fake.so"
	export CASES="$BATS_FILE_TMPDIR/cases"
	host_need testsuite/host/helpers socket-fake.so || return 1
	python3 "$H/socket-case.py" basic "$CASES/basic"
}

setup() {
	export SOCKET_FAKE_LOG="$BATS_TEST_TMPDIR/requests"
	: >"$SOCKET_FAKE_LOG"
	# a name no host has
	NONE="smc-netns-test-none-$$"
	[ ! -e "/run/netns/$NONE" ]
}

# fake CMD...: CMD against the fake sock_diag kernel (case basic)
fake() {
	SOCKET_FAKE_DIR="$CASES/basic" LD_PRELOAD="$FAKE_SO" "$@"
}

@test "-n: without a name, or with one that is no name: usage error 2" {
	local o
	for o in -n -netns --netns; do
		run -2 --separate-stderr "$SMC" "$o"
		[ "$stderr" = "Error: option \"$o\" needs a network namespace name, try \"smc -help\"." ]
		[ -z "$output" ]
	done
	local bad
	for bad in "" . .. a/b /run/netns/x "$(printf 'n%.0s' {1..300})"; do
		run -2 --separate-stderr fake "$SMC" -n "$bad" socket
		[ "$stderr" = "Error: argument \"$bad\" is wrong: not a network namespace name" ]
		[ -z "$output" ]
	done
	# no object after it: the usual usage error
	run -2 --separate-stderr "$SMC" -n "$NONE"
	[[ "${stderr_lines[0]}" == "Usage: smc "* ]]
	# nothing was run
	[ ! -s "$SOCKET_FAKE_LOG" ]
}

@test "-n: a namespace that does not exist fails every object before it runs, exit 1" {
	local obj
	for obj in ueid stats socket dump pnet help bogus; do
		run -1 --separate-stderr fake "$SMC" -n "$NONE" $obj
		[ "$stderr" = "Error: cannot open network namespace \"$NONE\": No such file or directory" ] ||
			{ echo "$obj: $stderr"; return 1; }
		[ -z "$output" ]
	done
	# also among other options, in any order, and abbreviated
	run -1 --separate-stderr fake "$SMC" -j -ne "$NONE" -d socket
	[ "$stderr" = "Error: cannot open network namespace \"$NONE\": No such file or directory" ]
	[ ! -s "$SOCKET_FAKE_LOG" ]
	# -h and -V answer before any namespace is entered
	run -0 "$SMC" -n "$NONE" -V
	[[ "$output" == "smc utility, smc-dump "* ]]
	run -0 "$SMC" -h
	[[ "$output" == *"-n[etns] NAME"* ]]
}

# in_netns SCRIPT: run bash SCRIPT as root in a mount namespace of its own
# with a tmpfs on /run and network namespace t1 in /run/netns/t1 (its inode
# in $T1), or skip when the host does not allow it
in_netns() {
	[ "$(id -u)" = 0 ] || skip "needs root"
	unshare --mount true 2>/dev/null || skip "no unshare --mount here"
	unshare --mount bash -euc '
		mount -t tmpfs smc-netns-test /run
		mkdir /run/netns
		touch /run/netns/t1 /run/netns/notns
		unshare --net=/run/netns/t1 true
		T1=$(stat -L -c %i /run/netns/t1)
		export T1
		bash -uc "$1"' _ "$1"
}

@test "-n: the object runs in the namespace (smc socket's sock_diag socket there)" {
	local host
	host=$(readlink /proc/self/ns/net)
	run -0 in_netns '
		export SOCKET_FAKE_NETNS=1
		SOCKET_FAKE_DIR="$CASES/basic" LD_PRELOAD="$FAKE_SO" "$SMC" -n t1 socket >"$BATS_TEST_TMPDIR/out"
		echo "t1 net:[$T1]"'
	echo "$output"
	[[ "$output" =~ ^t1\ net:\[[0-9]+\]$ ]]
	local t1=${output#t1 }
	[ "$t1" != "$host" ]
	# the socket was opened in t1, then the usual dump
	[ "$(cat "$SOCKET_FAKE_LOG")" = "socket $t1
smc family=43 ext=0x00 flags=0x301" ]
	# and the listing is the same as outside
	[ "$(cat "$BATS_TEST_TMPDIR/out")" = "$(SOCKET_FAKE_DIR="$CASES/basic" LD_PRELOAD="$FAKE_SO" "$SMC" socket)" ]
}

@test "-n: every object runs there as it runs here; not a namespace, no privilege: exit 1" {
	local obj want
	for obj in "ueid" "stats" "dump show" "-j dump show" "help socket" \
		"pnet"; do
		# shellcheck disable=SC2086
		want="$("$SMC" $obj 2>&1; echo "rc=$?")"
		run -0 in_netns "\"\$SMC\" -n t1 $obj 2>&1; echo \"rc=\$?\""
		[ "$output" = "$want" ] || { echo "$obj: $output / $want"; return 1; }
	done
	run -0 in_netns '"$SMC" -n notns socket 2>&1; echo "rc=$?"'
	[ "$output" = "Error: /run/netns/notns is not a network namespace
rc=1" ]
	run -0 in_netns 'setpriv --reuid=65534 --regid=65534 --clear-groups "$SMC" -n t1 socket 2>&1; echo "rc=$?"'
	[ "$output" = "Error: cannot enter network namespace \"t1\": Operation not permitted
rc=1" ]
}
