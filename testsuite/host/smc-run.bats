#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of smc run and its preload library (lib/smc-preload, issue
# 20). The host kernel has no SMC, which is the fallback case: strace shows
# the program ask for IPPROTO_SMC, then AF_SMC, then get the TCP socket it
# asked for, and connect. helpers/smc-proto-fake.c, preloaded after the
# library, plays a kernel with IPPROTO_SMC (or only AF_SMC) so that the
# buffer sizes of -r and -t can be seen set on an SMC socket. The strace
# lines expected here are written from socket(2) and the library's
# comment, not copied from a run.

# shellcheck disable=SC2016,SC2154 # sh -c '...$VAR' on purpose; bats sets $stderr
bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_file smc || return 1
	make -s -C "$TOP/testsuite/tools" smc-traffic >/dev/null || return 1
	# a private copy: the tools directory is shared with parallel builds
	export TRAFFIC="$BATS_FILE_TMPDIR/smc-traffic"
	cp "$TOP/testsuite/tools/smc-traffic" "$TRAFFIC"
	export PRELOAD="$TOP/lib/smc-preload/libsmc-preload.so"
	export FAKE_SO="$H/smc-proto-fake.so"
	host_need testsuite/host/helpers smc-proto-fake.so
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	SRV_PID=
	unset LD_PRELOAD SMC_RCVBUF SMC_SNDBUF SMC_DEBUG SMC_FAKE SMC_FAKE_LOG
}

teardown() {
	if [ -n "$SRV_PID" ]; then
		kill "$SRV_PID" 2>/dev/null
		wait "$SRV_PID" 2>/dev/null
	fi
	return 0
}

# need_strace: the tests that watch the system calls
need_strace() {
	command -v strace >/dev/null || skip "strace is not installed (make deps)"
}

# host_has_smc: the kernel gives an IPPROTO_SMC or AF_SMC socket (then
# the fallback tests do not apply)
host_has_smc() {
	python3 - <<'EOF' 2>/dev/null
import socket
for fam, proto in ((socket.AF_INET, 256), (43, 0)):
    try:
        socket.socket(fam, socket.SOCK_STREAM, proto).close()
        raise SystemExit(0)
    except OSError:
        pass
raise SystemExit(1)
EOF
}

# start_server [PREFIX...]: smc-traffic server --tcp in the background
# (run by PREFIX, such as strace ... smc run, when given), 64 KiB each way,
# -c $CONNS; sets PORT
start_server() {
	local i
	rm -f ready
	"$@" "$TRAFFIC" server --tcp -a 127.0.0.1 -p 0 -n 64K \
		-c "${CONNS:-1}" -r ready >srv.out 2>srv.err 3>&- &
	SRV_PID=$!
	for ((i = 0; i < 200; i++)); do
		[ -s ready ] && break
		kill -0 "$SRV_PID" 2>/dev/null || break
		sleep 0.05
	done
	[ -s ready ] || { cat srv.out srv.err; return 1; }
	PORT=$(<ready)
}

# wait_server: the server must end with "result ok"
wait_server() {
	local rc=0
	wait "$SRV_PID" || rc=$?
	SRV_PID=
	cat srv.out srv.err
	[ "$rc" = 0 ] && grep -qx "result ok" srv.out
}

# client ARGS...: the smc-traffic client of start_server's server
client_args() {
	echo client --tcp -a 127.0.0.1 -p "$PORT" -n 64K -c "${CONNS:-1}"
}

# calls FILE: the socket and setsockopt calls of an strace -o FILE, one a
# line, pids dropped, IPPROTO_SMC as strace 6.1 prints it named, the
# result and errno kept ("= 3", "= -1 EPROTONOSUPPORT")
calls() {
	sed -e 's/^[0-9]* *//' \
		-e 's|0x100 /\* IPPROTO_??? \*/|IPPROTO_SMC|' \
		-e 's/ (.*)$//' "$1" |
		grep -E '^(socket|setsockopt)\('
}

@test "smc run: a TCP client asks for IPPROTO_SMC, then AF_SMC, falls back to TCP and connects" {
	need_strace
	host_has_smc && skip "the host kernel has SMC: no fallback to see"
	start_server
	# shellcheck disable=SC2046
	run -0 strace -f -qq -e trace=socket,setsockopt,connect -o trace \
		"$SMC" run -p preload "$TRAFFIC" $(client_args)
	echo "$output"
	[[ "$output" == *"result ok"* ]]
	wait_server
	run -0 calls trace
	echo "$output"
	# the kernel without SMC answers: IPPROTO_SMC unknown (EPROTONOSUPPORT
	# from Linux 6.11, EINVAL before), AF_SMC unknown (EAFNOSUPPORT); the
	# program's own call comes last, with its flags and protocol
	[[ "${lines[0]}" =~ ^socket\(AF_INET,\ SOCK_STREAM\|SOCK_CLOEXEC,\ IPPROTO_SMC\)\ =\ -1\ (EPROTONOSUPPORT|EINVAL)$ ]]
	[ "${lines[1]}" = "socket(AF_SMC, SOCK_STREAM|SOCK_CLOEXEC, SMCPROTO_SMC) = -1 EAFNOSUPPORT" ]
	[[ "${lines[2]}" =~ ^socket\(AF_INET,\ SOCK_STREAM\|SOCK_CLOEXEC,\ IPPROTO_TCP\)\ =\ ([0-9]+)$ ]]
	local fd=${BASH_REMATCH[1]}
	[ "${#lines[@]}" -eq 3 ]
	# and that TCP socket connected to the server
	grep -Eq "connect\\($fd, \\{sa_family=AF_INET, sin_port=htons\\($PORT\\), sin_addr=inet_addr\\(\"127.0.0.1\"\\)\\}, 16\\) = 0" trace
}

@test "smc run: the server side falls back too, and the kernel's no is remembered for the next sockets" {
	need_strace
	host_has_smc && skip "the host kernel has SMC: no fallback to see"
	CONNS=3
	start_server strace -f -qq -e trace=socket -o strace.srv "$SMC" run -p preload
	# shellcheck disable=SC2046
	run -0 strace -f -qq -e trace=socket -o trace \
		"$SMC" run -p preload "$TRAFFIC" $(client_args)
	echo "$output"
	[ "$(grep -c '^conn [0-2] tcp' <<<"$output")" -eq 3 ]
	wait_server
	# three TCP sockets, but IPPROTO_SMC and AF_SMC asked for once: the
	# first answer is kept for the rest of the process
	run -0 calls trace
	echo "$output"
	[ "$(grep -c 'IPPROTO_SMC' <<<"$output")" -eq 1 ]
	[ "$(grep -c 'AF_SMC' <<<"$output")" -eq 1 ]
	[ "$(grep -c 'IPPROTO_TCP) = [0-9]' <<<"$output")" -eq 3 ]
	[ "${#lines[@]}" -eq 5 ]
	# the listening socket of the server went the same way
	run -0 calls strace.srv
	echo "$output"
	[[ "${lines[0]}" == "socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_SMC) = -1 "* ]]
	[[ "${lines[1]}" == "socket(AF_SMC, SOCK_STREAM|SOCK_CLOEXEC, SMCPROTO_SMC) = -1 "* ]]
	[[ "${lines[2]}" =~ ^socket\(AF_INET,\ SOCK_STREAM\|SOCK_CLOEXEC,\ IPPROTO_TCP\)\ =\ [0-9]+$ ]]
}

@test "smc run: IPv6, protocol 0, SOCK_NONBLOCK kept; UDP, AF_UNIX, raw and other protocols untouched" {
	need_strace
	host_has_smc && skip "the host kernel has SMC: no fallback to see"
	run -0 strace -f -qq -e trace=socket -o trace "$SMC" run -p preload python3 -c '
import socket
s = socket.socket
for fam, typ, proto in (
        (socket.AF_INET6, socket.SOCK_STREAM | socket.SOCK_NONBLOCK, 0),
        (socket.AF_INET, socket.SOCK_DGRAM, 0),
        (socket.AF_INET6, socket.SOCK_DGRAM, socket.IPPROTO_UDP),
        (socket.AF_UNIX, socket.SOCK_STREAM, 0),
        (socket.AF_INET, socket.SOCK_STREAM, 132),
        (socket.AF_INET, socket.SOCK_SEQPACKET, 0),
        (socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_TCP)):
    try:
        s(fam, typ, proto).close()
    except OSError:
        pass
'
	# from the loop's first socket on: what Python's start-up asked for
	# before it (glibc's nscd probes, AF_UNIX, when HOME is unset and
	# site.py looks up the user) is not the program's
	run -0 calls trace
	output=$(sed -n '/^socket(AF_INET6, SOCK_STREAM|.*IPPROTO_SMC)/,$p' <<<"$output")
	echo "$output"
	# Python adds SOCK_CLOEXEC itself; protocol 0 stays 0 on the way back
	local want
	want=$(cat <<'EOF'
socket(AF_INET6, SOCK_STREAM|SOCK_CLOEXEC|SOCK_NONBLOCK, IPPROTO_SMC) = -1 EPROTONOSUPPORT
socket(AF_SMC, SOCK_STREAM|SOCK_CLOEXEC|SOCK_NONBLOCK, SMCPROTO_SMC6) = -1 EAFNOSUPPORT
socket(AF_INET6, SOCK_STREAM|SOCK_CLOEXEC|SOCK_NONBLOCK, IPPROTO_IP) = N
socket(AF_INET, SOCK_DGRAM|SOCK_CLOEXEC, IPPROTO_IP) = N
socket(AF_INET6, SOCK_DGRAM|SOCK_CLOEXEC, IPPROTO_UDP) = N
socket(AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC, 0) = N
socket(AF_INET, SOCK_STREAM|SOCK_CLOEXEC, IPPROTO_SCTP) = E
socket(AF_INET, SOCK_SEQPACKET|SOCK_CLOEXEC, IPPROTO_IP) = E
socket(AF_INET, SOCK_RAW|SOCK_CLOEXEC, IPPROTO_TCP) = E
EOF
)
	# fds and the results of SCTP, SEQPACKET (module or not) and RAW
	# (root or not) as N and E;
	# EINVAL for IPPROTO_SMC on kernels before 6.11
	diff -u <(echo "$want") <(sed -e 's/= [0-9][0-9]*$/= N/' \
		-e 's/\(IPPROTO_SCTP\|SOCK_SEQPACKET.*\|SOCK_RAW.*\)) = .*/\1) = E/' \
		-e '1s/= -1 EINVAL$/= -1 EPROTONOSUPPORT/' <<<"$output")
}

@test "smc run -r, -t: SO_RCVBUF and SO_SNDBUF on the SMC socket (IPPROTO_SMC), none on a fallback" {
	need_strace
	start_server
	# smc run execs env, env puts the fake kernel after the library
	# shellcheck disable=SC2046
	run -0 strace -f -qq -e trace=socket,setsockopt -o trace \
		env SMC_FAKE=ipproto SMC_FAKE_LOG=fake.log \
		"$SMC" run -p preload -r 64k -t 1M env LD_PRELOAD="$PRELOAD:$FAKE_SO" \
		"$TRAFFIC" $(client_args)
	echo "$output"
	[[ "$output" == *"result ok"* ]]
	wait_server
	cat fake.log
	# the fake turned IPPROTO_SMC (256) of AF_INET (2) into a TCP socket
	# (SOCK_STREAM|SOCK_CLOEXEC = 524289)
	[[ "$(cat fake.log)" =~ ^smc\ 2\ 524289\ 256\ fd\ ([0-9]+)$ ]]
	local fd=${BASH_REMATCH[1]}
	run -0 calls trace
	echo "$output"
	grep -qx "setsockopt($fd, SOL_SOCKET, SO_RCVBUF, \[65536\], 4) = 0" <<<"$output"
	grep -qx "setsockopt($fd, SOL_SOCKET, SO_SNDBUF, \[1048576\], 4) = 0" <<<"$output"
	# nothing else asked for: no AF_SMC, no second socket
	[ "$(grep -c '^socket(' <<<"$output")" -eq 1 ]
	[ "$(grep -c 'SO_RCVBUF\|SO_SNDBUF' <<<"$output")" -eq 2 ]

	# without a kernel that has SMC: the TCP socket keeps its sizes
	host_has_smc && return 0
	start_server
	# shellcheck disable=SC2046
	run -0 strace -f -qq -e trace=socket,setsockopt -o trace2 \
		"$SMC" run -p preload -r 64k -t 1M "$TRAFFIC" $(client_args)
	wait_server
	run -0 calls trace2
	echo "$output"
	[ "$(grep -c 'SO_RCVBUF\|SO_SNDBUF' <<<"$output")" -eq 0 ]
}

@test "smc run: a kernel without IPPROTO_SMC (before 6.11) gets AF_SMC, asked for once" {
	CONNS=2
	start_server
	# shellcheck disable=SC2046
	run -0 env SMC_FAKE=afsmc SMC_FAKE_LOG=fake.log \
		"$SMC" run -p preload -d -r 32k env LD_PRELOAD="$PRELOAD:$FAKE_SO" \
		"$TRAFFIC" $(client_args)
	echo "$output"
	[[ "$output" == *"result ok"* ]]
	wait_server
	run -0 cat fake.log
	echo "$output"
	# IPPROTO_SMC refused once (EINVAL = 22), then AF_SMC (43) with
	# SMCPROTO_SMC (0) for both connections
	[ "${#lines[@]}" -eq 3 ]
	[ "${lines[0]}" = "smc 2 524289 256 errno 22" ]
	[[ "${lines[1]}" =~ ^smc\ 43\ 524289\ 0\ fd\ [0-9]+$ ]]
	[[ "${lines[2]}" =~ ^smc\ 43\ 524289\ 0\ fd\ [0-9]+$ ]]
	# -d: the library says what it did, on stderr
	[[ "$output" != *"smc-preload"* ]]
	run -0 env SMC_FAKE=afsmc SMC_FAKE_LOG=fake2.log \
		"$SMC" run -p preload -d -r 32k env LD_PRELOAD="$PRELOAD:$FAKE_SO" \
		python3 -c 'import socket; socket.socket().close()'
	echo "$output"
	[[ "$output" == *"smc-preload: socket(AF_INET, SOCK_STREAM, IPPROTO_SMC): Invalid argument"* ]]
	[[ "$output" == *"smc-preload: socket(AF_INET, SOCK_STREAM, 0): fd "*", AF_SMC"* ]]
	[[ "$output" =~ smc-preload:\ fd\ [0-9]+:\ SO_RCVBUF\ 32768\ asked\ for ]]
}

@test "smc run: an IPv6 refusal that may mean no IPv6 does not give up SMC for IPv4" {
	local mode err family proto prog='import socket
socket.socket(socket.AF_INET6).close()
socket.socket(socket.AF_INET).close()'
	# MODE V6_ERR FAMILY PROTO: an IPv6 socket, then an IPv4 one, against
	# a fake kernel that refuses every SMC call for IPv6 with V6_ERR; the
	# IPv4 socket must get FAMILY and PROTO (10 is AF_INET6, 2 AF_INET).
	# No IPv6 (EAFNOSUPPORT = 97) on a kernel with IPPROTO_SMC: IPv4
	# still asks for IPPROTO_SMC. No SMCPROTO_SMC6 (EPROTONOSUPPORT = 93)
	# where only AF_SMC works: IPv4 still gets AF_SMC, and IPPROTO_SMC,
	# unknown to the kernel for IPv6, is not asked for again.
	while read -r mode err family proto; do
		rm -f fake.log
		run -0 env SMC_FAKE="$mode" SMC_FAKE_V6_ERR="$err" \
			SMC_FAKE_LOG=fake.log "$SMC" run -p preload \
			env LD_PRELOAD="$PRELOAD:$FAKE_SO" python3 -c "$prog"
		run -0 cat fake.log
		echo "$output"
		[ "${#lines[@]}" -eq 3 ]
		[ "${lines[0]}" = "smc 10 524289 256 errno $err" ]
		[ "${lines[1]}" = "smc 43 524289 1 errno $err" ]
		[[ "${lines[2]}" =~ ^smc\ $family\ 524289\ $proto\ fd\ [0-9]+$ ]]
	done <<'EOF'
ipproto 97 2 256
afsmc 93 43 0
EOF
}

@test "smc run -d: the library's lines on stderr; without -d none" {
	host_has_smc && skip "the host kernel has SMC: no fallback to see"
	local prog='import socket; socket.socket().close(); print("done")'
	run -0 --separate-stderr "$SMC" run -p preload -d python3 -c "$prog"
	echo "$stderr"
	[ "$output" = "done" ]
	[[ "$stderr" == *"smc run: LD_PRELOAD=$(realpath "$PRELOAD")"* ]]
	grep -Eqx 'smc-preload: socket\(AF_INET, SOCK_STREAM, IPPROTO_SMC\): (Protocol not supported|Invalid argument)' <<<"$stderr"
	grep -qx 'smc-preload: socket(AF_SMC, SOCK_STREAM, SMCPROTO_SMC): Address family not supported by protocol' <<<"$stderr"
	grep -Eqx 'smc-preload: socket\(AF_INET, SOCK_STREAM, 0\): fd [0-9]+, TCP \(no SMC\)' <<<"$stderr"
	run -0 --separate-stderr "$SMC" run -p preload python3 -c "$prog"
	[ "$output" = "done" ]
	[ -z "$stderr" ]
}

@test "smc run: COMMAND's arguments verbatim (blanks, dashes, --, empty), options only before COMMAND" {
	run -0 --separate-stderr "$SMC" run -p preload printf '<%s>\n' "a b" -d -r 1k -- --x "" "  "
	[ -z "$stderr" ]
	[ "$output" = "$(printf '<%s>\n' "a b" -d -r 1k -- --x "" "  ")" ]
	# -- ends the options of run; a command may then start with a dash
	run -0 "$SMC" run -p preload -- printf '%s\n' -t
	[ "$output" = "-t" ]
	run -127 --separate-stderr "$SMC" run -p preload -- -t 1k
	[ "$stderr" = 'Error: cannot run "-t": command not found' ]
	# run's own -r applies, the command's -r is the command's
	run -0 "$SMC" run -p preload -r 1k -t2m sh -c 'echo "$SMC_RCVBUF $SMC_SNDBUF $SMC_DEBUG $*"' sh -r 5 -d
	[ "$output" = "1024 2097152 0 -r 5 -d" ]
	# the exit status is the command's
	run -7 "$SMC" run -p preload sh -c 'exit 7'
	# through PATH, as a shell finds it
	run -0 env PATH="/usr/bin:/bin" "$SMC" run -p preload true
}

@test "smc run: the environment: LD_PRELOAD appended to, SMC_* set and cleared" {
	local lib
	lib=$(realpath "$PRELOAD")
	run -0 "$SMC" run -p preload printenv LD_PRELOAD SMC_DEBUG
	[ "$output" = "$lib"$'\n'"0" ]
	# an LD_PRELOAD of the user stays, first
	run -0 env LD_PRELOAD="$FAKE_SO" "$SMC" run -p preload printenv LD_PRELOAD
	[ "$output" = "$FAKE_SO:$lib" ]
	# ... and still works: the program's own IPPROTO_SMC call reaches
	# the user's preload (the fake kernel) first
	run -0 env LD_PRELOAD="$FAKE_SO" SMC_FAKE=ipproto SMC_FAKE_LOG=fake.log \
		"$SMC" run -p preload python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_STREAM, 256).close()'
	run -0 cat fake.log
	[[ "$output" =~ ^smc\ 2\ 524289\ 256\ fd\ [0-9]+$ ]]
	# sizes and debug only from the options: inherited ones are dropped
	run -0 env SMC_RCVBUF=1 SMC_SNDBUF=2 SMC_DEBUG=1 "$SMC" run -p preload sh -c \
		'echo "${SMC_RCVBUF-unset} ${SMC_SNDBUF-unset} $SMC_DEBUG"'
	[ "$output" = "unset unset 0" ]
	run -0 --separate-stderr "$SMC" run -p preload -d -t 16k sh -c \
		'echo "${SMC_RCVBUF-unset} ${SMC_SNDBUF-unset} $SMC_DEBUG"'
	[ "$output" = "unset 16384 1" ]
	# k, K, m, M and plain bytes; the largest int
	run -0 "$SMC" run -p preload -r 3K -t 2147483647 sh -c 'echo "$SMC_RCVBUF $SMC_SNDBUF"'
	[ "$output" = "3072 2147483647" ]
	run -0 "$SMC" run -p preload -r 2047m -t 1 sh -c 'echo "$SMC_RCVBUF $SMC_SNDBUF"'
	[ "$output" = "2146435072 1" ]
}

@test "smc run: usage errors exit with 2, a command not found with 127, one not runnable with 126" {
	local want
	run -2 --separate-stderr "$SMC" run
	[ "$stderr" = 'Error: "smc run" needs a COMMAND to run, try "smc run help".' ]
	[ -z "$output" ]
	run -2 --separate-stderr "$SMC" run -d -r 1k
	[ "$stderr" = 'Error: "smc run" needs a COMMAND to run, try "smc run help".' ]
	run -2 --separate-stderr "$SMC" run --
	[ "$stderr" = 'Error: "smc run" needs a COMMAND to run, try "smc run help".' ]
	run -2 --separate-stderr "$SMC" run -r
	[ "$stderr" = 'Error: option "-r" needs a SIZE, try "smc run help".' ]
	run -2 --separate-stderr "$SMC" run -x true
	[ "$stderr" = 'Error: option "-x" of "smc run" is unknown, try "smc run help".' ]
	run -2 --separate-stderr "$SMC" run --debug true
	[ "$stderr" = 'Error: option "--debug" of "smc run" is unknown, try "smc run help".' ]
	run -2 --separate-stderr "$SMC" run -r 1k -r 2k true
	[ "$stderr" = 'Error: duplicate "-r": "2k" is the second value.' ]
	local s
	for s in 0 0k "" k 1g 1kb -1 +1 " 1" 1.5m 2048m 2097152k 2147483648 \
		99999999999999999999; do
		run -2 --separate-stderr "$SMC" run -t "$s" true
		want="Error: -t \"$s\" is no buffer size: 1 to 2147483647 bytes, a number with an optional k (KiB) or m (MiB)."
		[ "$stderr" = "$want" ] || { echo "-t '$s': $stderr"; false; }
	done
	run -127 --separate-stderr "$SMC" run -p preload smc-run-no-such-command x
	[ "$stderr" = 'Error: cannot run "smc-run-no-such-command": command not found' ]
	run -127 --separate-stderr "$SMC" run -p preload ./no/such/file
	[ "$stderr" = 'Error: cannot run "./no/such/file": command not found' ]
	# no execute bit for anyone (root too is refused then)
	mkdir pdir
	printf '#!/bin/sh\n' >pdir/not-exec
	chmod 644 pdir/not-exec
	run -126 --separate-stderr "$SMC" run -p preload ./pdir/not-exec
	[ "$stderr" = 'Error: cannot run "./pdir/not-exec": Permission denied' ]
	run -126 --separate-stderr env PATH="$PWD/pdir:$PATH" "$SMC" run -p preload not-exec
	[ "$stderr" = 'Error: cannot run "not-exec": Permission denied' ]
	# a directory of PATH the user cannot search does not make a missing
	# command one that cannot be run (execvp says EACCES then)
	if [ "$(id -u)" != 0 ]; then
		mkdir locked
		chmod 000 locked
		run -127 --separate-stderr env PATH="$PWD/locked:/usr/bin:/bin" \
			"$SMC" run -p preload smc-run-no-such-command
		[ "$stderr" = 'Error: cannot run "smc-run-no-such-command": command not found' ]
	fi
	run -126 --separate-stderr "$SMC" run -p preload "$BATS_TEST_TMPDIR"
	[ "$stderr" = "Error: cannot run \"$BATS_TEST_TMPDIR\": Permission denied" ]
	# help is no command to run
	run -0 --separate-stderr "$SMC" run help
	[[ "${lines[0]}" == "Usage: smc run [ -p PATH ] [ -r SIZE ] [ -t SIZE ] [ -d ] [ -- ] COMMAND [ ARG ]..." ]]
	[ -z "$stderr" ]
	run -0 "$SMC" help run
	[[ "${lines[0]}" == "Usage: smc run "* ]]
	run -0 "$SMC" run -h
	[[ "${lines[0]}" == "Usage: smc run "* ]]
	# smc help names the object
	run -0 "$SMC" help
	[[ "$output" == *"linkgroup | pnet | run | check |"*"rnics | dbg }"* ]]
}

@test "smc run: no preload library found: exit 1, the places looked in named" {
	local ma lib
	ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
	lib=/usr/lib/$ma/smc-dump/libsmc-preload.so
	[ -e "$lib" ] && skip "$lib is installed"
	mkdir -p bin
	cp "$SMC" bin/smc
	run -1 --separate-stderr bin/smc run -p preload true
	echo "$stderr"
	[ "$stderr" = "Error: the preload library libsmc-preload.so is not installed; looked for $BATS_TEST_TMPDIR/bin/../lib/smc-preload/libsmc-preload.so, $BATS_TEST_TMPDIR/bin/../lib/$ma/smc-dump/libsmc-preload.so, $lib." ]
	# found relative to the binary, as make install lays it out
	mkdir -p "lib/$ma/smc-dump"
	cp "$PRELOAD" "lib/$ma/smc-dump/"
	run -0 bin/smc run -p preload printenv LD_PRELOAD
	[ "$output" = "$BATS_TEST_TMPDIR/lib/$ma/smc-dump/libsmc-preload.so" ]
}

@test "smc run: a library path LD_PRELOAD cannot hold is refused" {
	local ma d="$BATS_TEST_TMPDIR/a b"
	ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || gcc -print-multiarch)
	mkdir -p "$d/bin" "$d/lib/$ma/smc-dump"
	cp "$SMC" "$d/bin/smc"
	cp "$PRELOAD" "$d/lib/$ma/smc-dump/"
	run -1 --separate-stderr "$d/bin/smc" run -p preload true
	[ "$stderr" = "Error: the preload library \"$d/lib/$ma/smc-dump/libsmc-preload.so\" cannot be preloaded: LD_PRELOAD cannot hold a path with a blank or colon." ]
}
