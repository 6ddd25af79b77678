#!/usr/bin/env bats
# Host tests of testsuite/tools/smc-traffic. The host kernel has no SMC, so
# transfers here use --tcp over loopback; the SMC-unavailable error, the
# command line, the pattern, the SHA-256 lines, the fallback verdicts
# (--tcp --check-tcp) and the timeout are checked too.

# shellcheck disable=SC2154 # bats sets $stderr in run --separate-stderr
bats_require_minimum_version 1.5.0

# wait_file (not the host lib: T is the tool here)
# shellcheck source=SCRIPTDIR/../lib/wait.bash
. "$BATS_TEST_DIRNAME/../lib/wait.bash"

setup_file() {
	make -C "$BATS_TEST_DIRNAME/../tools" smc-traffic >/dev/null
	# A private copy: the tools directory is shared with parallel builds.
	cp "$BATS_TEST_DIRNAME/../tools/smc-traffic" "$BATS_FILE_TMPDIR/"
}

setup() {
	T="$BATS_FILE_TMPDIR/smc-traffic"
	SRV_PID=
	cd "$BATS_TEST_TMPDIR" || return 1
}

teardown() {
	if [[ -n $SRV_PID ]]; then
		kill "$SRV_PID" 2>/dev/null
		wait "$SRV_PID" 2>/dev/null
	fi
	return 0
}

# start_server ARGS...: run "smc-traffic server -p 0 ARGS" in the background
# (stdout srv.out, stderr srv.err), wait for its ready file, set PORT.
start_server() {
	local i

	rm -f ready
	"$T" server -p 0 -r ready "$@" >srv.out 2>srv.err 3>&- &
	SRV_PID=$!
	for ((i = 0; i < 200; i++)); do
		[[ -s ready ]] && break
		kill -0 "$SRV_PID" 2>/dev/null || break
		sleep 0.05
	done
	if [[ ! -s ready ]]; then
		echo "server did not get ready:" >&2
		cat srv.out srv.err >&2
		return 1
	fi
	PORT=$(<ready)
	# the ready file and the listening line name the same port
	[[ $(head -n1 srv.out) == "listening $PORT" ]]
}

# wait_server: wait for the server, set SRV_RC.
wait_server() {
	SRV_RC=0
	wait "$SRV_PID" || SRV_RC=$?
	SRV_PID=
}

# check_streams FILE SIDE BYTES SEED CONNS: every tx and rx line of FILE
# (output of SIDE, client or server) has BYTES bytes and the SHA-256 that
# sha256sum computes over "smc-traffic pattern" of that stream, rx lines
# say "verify ok", and each of connections 0..CONNS-1 has one of each.
check_streams() {
	local file=$1 side=$2 n=$3 seed=$4 conns=$5
	local i dir bytes sha rest d want lines=0

	while read -r _ i dir _ bytes _ sha rest; do
		case $side/$dir in
		client/tx | server/rx) d=c2s ;;
		*) d=s2c ;;
		esac
		want=$("$T" pattern -n "$n" -s "$seed" -i "$i" -d "$d" |
		       sha256sum | cut -d' ' -f1)
		if [[ $bytes != "$n" || $sha != "$want" ]]; then
			echo "$side conn $i $dir: bytes $bytes sha256 $sha," \
			     "want bytes $n sha256 $want ($d)" >&2
			return 1
		fi
		if [[ $dir == rx && $rest != "verify ok" ]]; then
			echo "$side conn $i rx: '$rest', want 'verify ok'" >&2
			return 1
		fi
		lines=$((lines + 1))
	done < <(grep -E '^conn [0-9]+ (tx|rx) ' "$file")
	for ((i = 0; i < conns; i++)); do
		[[ $(grep -c "^conn $i tx " "$file") == 1 &&
		   $(grep -c "^conn $i rx " "$file") == 1 ]] || {
			echo "$side: conn $i has no single tx and rx line" >&2
			return 1
		}
	done
	[[ $lines == $((2 * conns)) ]] || {
		echo "$side: $lines stream lines, want $((2 * conns))" >&2
		return 1
	}
}

# check_layout FILE CONNS VERDICT: the lines after "listening" are, per
# connection in index order, local, tx, rx and VERDICT, then "result ok".
check_layout() {
	local file=$1 conns=$2 verdict=$3 i want=

	for ((i = 0; i < conns; i++))
	do
		want+="conn $i local"$'\n'"conn $i tx"$'\n'"conn $i rx"$'\n'
		want+="conn $i $verdict"$'\n'
	done
	want+="result ok"
	diff -u <(echo "$want") <(grep -v '^listening ' "$file" |
				  awk '{ print $1, $2, $3 }' | sed 's/ $//')
}

# check_same_conns CONNS: client conn i and server conn i are the same
# connection (client local port == server peer port), numbered in the
# order of the client ports.
check_same_conns() {
	local conns=$1 i cport sport prev=0

	for ((i = 0; i < conns; i++)); do
		cport=$(awk -v i="$i" '$1 == "conn" && $2 == i && $3 == "local" { print $5 }' cli.out)
		sport=$(awk -v i="$i" '$1 == "conn" && $2 == i && $3 == "local" { print $8 }' srv.out)
		[[ -n $cport && $cport == "$sport" ]] || {
			echo "conn $i: client port '$cport', server peer port '$sport'" >&2
			return 1
		}
		((cport > prev)) || {
			echo "conn $i: client port $cport not above $prev" >&2
			return 1
		}
		prev=$cport
	done
}

# transfer ADDR BYTES SEED CONNS [ARGS...]: server and client with --tcp,
# both must succeed with matching SHA-256 lines.
transfer() {
	local addr=$1 n=$2 seed=$3 conns=$4

	shift 4
	start_server --tcp -a "$addr" -n "$n" -s "$seed" -c "$conns" -T 60 "$@"
	run --separate-stderr "$T" client --tcp -a "$addr" -p "$PORT" \
		-n "$n" -s "$seed" -c "$conns" -T 60
	echo "$output" >cli.out
	echo "client: status $status"; echo "$output"; echo "$stderr"
	wait_server
	echo "server: status $SRV_RC"; cat srv.out srv.err
	[[ $status == 0 && $SRV_RC == 0 ]]
	check_streams cli.out client "$n" "$seed" "$conns"
	check_streams srv.out server "$n" "$seed" "$conns"
	check_layout cli.out "$conns" tcp
	check_layout srv.out "$conns" tcp
	check_same_conns "$conns"
}

@test "--help documents subcommands, output and exit codes" {
	run -0 "$T" --help
	[[ $output == *"smc-traffic server"* ]]
	[[ $output == *"smc-traffic client -a ADDR"* ]]
	[[ $output == *"smc-traffic pattern"* ]]
	[[ $output == *"conn I tx bytes N sha256 HEX"* ]]
	[[ $output == *"--expect-fallback"* && $output == *"--timeout SECS"* ]]
	[[ $output == *"0 ok, 1 error"* && $output == *"4 data mismatch, 5 timeout"* ]]
	run -0 "$T" server --help
	[[ $output == *"Usage: smc-traffic"* ]]
	run -0 "$T" pattern -h
	[[ $output == *"Usage: smc-traffic"* ]]
}

@test "usage errors exit 2 with a message" {
	local args
	local -a cases=(
		""
		"bogus"
		"server --bogus"
		"server -x"
		"server extra-argument"
		"client"
		"client -a 127.0.0.1 -p 0"
		"server -p 65536"
		"server -p -1"
		"server -n 12Q"
		"server -n 1KB"
		"server -n -5"
		"server -n 17179869184G"
		"server -c 0"
		"server -c 1025"
		"server -s 0x"
		"server -T soon"
		"server -4 -6"
		"server --tcp --af-smc"
		"server --allow-fallback --expect-fallback"
		"client -a 127.0.0.1 --tcp --expect-fallback"
		"client -a 127.0.0.1 --check-tcp"
		"client -a 127.0.0.1 -r ready"
		"server -i 1"
		"pattern"
		"pattern -d both"
		"pattern -d c2s -c 2"
		"pattern -d c2s -a 127.0.0.1"
	)

	for args in "${cases[@]}"; do
		# shellcheck disable=SC2086
		run -2 --separate-stderr "$T" $args
		echo "[$args] -> $stderr"
		[[ $stderr == *"smc-traffic: "* && $stderr == *"Try 'smc-traffic --help'"* ]]
		[[ -z $output ]]
	done
}

@test "pattern: exact length, reference SHA-256, offsets consistent" {
	local n

	for n in 0 1 7 8 9 1000 131073; do
		[[ $("$T" pattern -n "$n" -d c2s | wc -c) == "$n" ]]
	done
	# reference values from an independent implementation of the formula
	[[ $("$T" pattern -n 1000 -d c2s | sha256sum) == \
	   "3d1fcb8636216c344b6e174d957f838ca0730ecfba08613b32108de7a2777c1b  -" ]]
	[[ $("$T" pattern -n 4099 -s 0xdeadbeef -i 5 -d s2c | sha256sum) == \
	   "6187739b4ca5680cc4a5e2937c6fcf5e7ec19d93544db26a54eb76f006f65406  -" ]]
	[[ $("$T" pattern -n 1 -s 7 -i 3 -d c2s | sha256sum) == \
	   "d03502c43d74a30b936740a9517dc4ea2b2ad7168caa0a774cefe793ce0b33e7  -" ]]
	[[ $("$T" pattern -n 16 -d c2s | od -An -tx1 | tr -d ' \n') == \
	   "6f6177fb52b18141629d26526d649c16" ]]
	# K/M/G are binary; a shorter stream is a prefix of a longer one
	cmp <("$T" pattern -n 1K -i 2 -d s2c) <("$T" pattern -n 1024 -i 2 -d s2c)
	cmp <("$T" pattern -n 3 -i 2 -d s2c) <("$T" pattern -n 1M -i 2 -d s2c | head -c 3)
	# seed, index and direction all change the stream
	run -1 cmp -s <("$T" pattern -n 64 -d c2s) <("$T" pattern -n 64 -d s2c)
	run -1 cmp -s <("$T" pattern -n 64 -d c2s) <("$T" pattern -n 64 -i 1 -d c2s)
	run -1 cmp -s <("$T" pattern -n 64 -d c2s) <("$T" pattern -n 64 -s 2 -d c2s)
}

@test "--tcp IPv4, 4 connections, odd size: SHA-256 lines match sha256sum of pattern" {
	transfer 127.0.0.1 100003 42 4
	# TCP_INFO of the TCP socket is read: all the data went over TCP
	run awk '$3 == "tcp" && $9 + 0 < 100003 { print }' cli.out
	[[ -z $output ]]
	[[ $(grep -c '^conn [0-9]* tcp (tcp bytes acked [0-9]* received [0-9]*)$' cli.out) == 4 ]]
}

@test "--tcp IPv6, 3 connections, server -6 on ::" {
	[[ -e /proc/net/if_inet6 ]] || skip "no IPv6 on this host"
	start_server --tcp -6 -n 65537 -s 0x1234 -c 3
	run --separate-stderr "$T" client --tcp -a ::1 -p "$PORT" -n 65537 -s 0x1234 -c 3
	echo "$output" >cli.out
	echo "$output"; echo "$stderr"
	wait_server
	cat srv.out srv.err
	[[ $status == 0 && $SRV_RC == 0 ]]
	check_streams cli.out client 65537 $((0x1234)) 3
	check_streams srv.out server 65537 $((0x1234)) 3
	check_same_conns 3
	grep -q '^conn 0 local ::1 [0-9]* peer ::1 [0-9]*$' cli.out
}

@test "--tcp IPv6 client and server on ::1, 2 connections, 1M+1 bytes" {
	[[ -e /proc/net/if_inet6 ]] || skip "no IPv6 on this host"
	transfer ::1 1048577 7 2
}

@test "--tcp sizes 0 and 1" {
	transfer 127.0.0.1 0 1 2
	grep -q '^conn 0 tx bytes 0 sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855$' cli.out
	transfer 127.0.0.1 1 1 3
}

@test "--tcp 64M each way on 2 connections" {
	transfer 127.0.0.1 $((64 << 20)) 99 2
	grep -q '^conn 1 rx bytes 67108864 sha256 [0-9a-f]\{64\} verify ok$' cli.out
}

@test "different seeds: both sides report the mismatch and exit 4" {
	start_server --tcp -a 127.0.0.1 -n 1000 -s 1
	run -4 --separate-stderr "$T" client --tcp -a 127.0.0.1 -p "$PORT" -n 1000 -s 2
	wait_server
	echo "$output"; echo "$stderr"; cat srv.out srv.err
	[[ $SRV_RC == 4 ]]
	[[ $output == *"conn 0 rx bytes 1000 sha256 "*" verify mismatch offset 0"* ]]
	[[ ${lines[-1]} == "result mismatch" ]]
	grep -q 'verify mismatch offset 0$' srv.out
	[[ $(tail -n1 srv.out) == "result mismatch" ]]
}

@test "different sizes: mismatch at the first missing or extra byte" {
	start_server --tcp -a 127.0.0.1 -n 1000
	run -4 --separate-stderr "$T" client --tcp -a 127.0.0.1 -p "$PORT" -n 999
	wait_server
	echo "$output"; cat srv.out
	[[ $SRV_RC == 4 ]]
	# the client got 1000 bytes, expected 999; the server got 999 of 1000
	[[ $output == *"conn 0 rx bytes 1000 sha256 "*" verify mismatch offset 999"* ]]
	grep -q '^conn 0 rx bytes 999 sha256 [0-9a-f]* verify mismatch offset 999$' srv.out
}

@test "--no-verify: the pattern's first 128 KiB repeated, only the count checked" {
	# 300000 bytes: two whole 128 KiB chunks and a part of a third
	start_server --tcp -a 127.0.0.1 -n 300000 --no-verify
	run -0 --separate-stderr "$T" client --tcp -a 127.0.0.1 -p "$PORT" -n 300000 --no-verify
	wait_server
	echo "$output"; cat srv.out
	[[ $SRV_RC == 0 ]] && [[ $status == 0 ]]
	[[ $output == *"conn 0 tx bytes 300000 sha256 none"* ]]
	[[ $output == *"conn 0 rx bytes 300000 sha256 none verify count"* ]]
	grep -qx 'conn 0 rx bytes 300000 sha256 none verify count' srv.out
	# what travels: chunk 0 of the pattern, again and again (here the
	# server's s2c stream with seed 7, read by a plain client that sends
	# nothing, so the server reports a short rx and exits 4)
	start_server --tcp -a 127.0.0.1 -n 300000 --no-verify -s 7
	python3 -c '
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.shutdown(socket.SHUT_WR)
got = bytearray()
while True:
    b = s.recv(65536)
    if not b:
        break
    got += b
open("got", "wb").write(got)' "$PORT"
	wait_server
	[[ $SRV_RC == 4 ]]
	"$T" pattern -n 131072 -s 7 -d s2c >chunk
	cat chunk chunk >want
	head -c $((300000 - 262144)) chunk >>want
	cmp got want
	# a count that differs is a mismatch (exit 4) on both sides
	start_server --tcp -a 127.0.0.1 -n 1000 --no-verify
	run -4 --separate-stderr "$T" client --tcp -a 127.0.0.1 -p "$PORT" -n 999 --no-verify
	wait_server
	echo "$output"; cat srv.out
	[[ $SRV_RC == 4 ]]
	[[ $output == *"conn 0 rx bytes 1000 sha256 none verify mismatch offset 999"* ]]
	grep -qx 'conn 0 rx bytes 999 sha256 none verify mismatch offset 999' srv.out
	grep -q "byte count differs: 999 bytes received, 1000 expected" srv.err
}

@test "--read-pause: the reader sleeps after each receive, each pause logged" {
	local t0 t1
	t0=$(date +%s.%N)
	start_server --tcp -a 127.0.0.1 -n 1M --read-pause 40 --pause-log pauses
	run -0 --separate-stderr "$T" client --tcp -a 127.0.0.1 -p "$PORT" -n 1M
	wait_server
	t1=$(date +%s.%N)
	cat pauses
	[[ $SRV_RC == 0 ]]
	grep -q 'conn 0 rx bytes 1048576 sha256 [0-9a-f]* verify ok' srv.out
	# a receive takes at most 128 KiB, so 8 pauses or more; every line
	# "pause 0 BYTES START END": the bytes sum to the stream, each pause
	# 40 ms or longer, in order, inside the run
	awk -v t0="$t0" -v t1="$t1" '
		$1 != "pause" || $2 != 0 || NF != 5 || $3 < 1 || $3 > 131072 { exit 1 }
		$5 - $4 < 0.040 || $4 < last || $4 < t0 || $5 > t1 { exit 1 }
		{ sum += $3; n++; last = $5 }
		END { if (sum != 1048576 || n < 8) exit 1 }' pauses
	run -2 "$T" client -a 127.0.0.1 -p 1 --pause-log x
	[[ $output == *"--pause-log goes with --read-pause"* ]]
	run -2 "$T" pattern -d c2s --read-pause 5
	[[ $output == *"pattern does not take --read-pause"* ]]
	run -2 "$T" server --read-pause 60001
	[[ $output == *"invalid read pause '60001'"* ]]
}

@test "a single corrupted byte anywhere is found at its offset" {
	local off

	command -v python3 >/dev/null || skip "python3 needed for the corrupting peer"
	"$T" pattern -n 1000 -d c2s >c2s.bin
	for off in 0 1 500 997 999; do
		python3 -c '
import sys
data = bytearray(open("c2s.bin", "rb").read())
data[int(sys.argv[1])] ^= 0x01
open("bad", "wb").write(data)' "$off"
		start_server --tcp -a 127.0.0.1 -n 1000 -T 20
		# a client that sends the corrupted stream, half-closes, reads all
		python3 -c '
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(open("bad", "rb").read())
s.shutdown(socket.SHUT_WR)
while s.recv(65536):
    pass
s.close()' "$PORT"
		wait_server
		cat srv.out srv.err
		[[ $SRV_RC == 4 ]]
		grep -q "^conn 0 rx bytes 1000 sha256 $(sha256sum <bad | cut -d' ' -f1) verify mismatch offset $off\$" srv.out
	done
}

@test "SMC sockets on a host without SMC: clear error, exit 1" {
	if command -v python3 >/dev/null; then
		if python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_STREAM, 256).close()' 2>/dev/null; then
			skip "this host's kernel has SMC"
		fi
	elif grep -qw SMC /proc/net/protocols; then
		skip "this host's kernel has SMC"
	fi
	run -1 --separate-stderr "$T" client -a 127.0.0.1 -p 5201
	echo "$stderr"
	[[ $stderr == *"SMC is not available in the running kernel"*"IPPROTO_SMC"* ]]
	[[ $output == "result error" ]]
	run -1 --separate-stderr "$T" server -a 127.0.0.1 -p 0
	[[ $stderr == *"SMC is not available in the running kernel"* ]]
	[[ $output != *listening* ]]
	run -1 --separate-stderr "$T" client --af-smc -a 127.0.0.1 -p 5201
	echo "$stderr"
	[[ $stderr == *"SMC is not available in the running kernel"*"AF_SMC"* ]]
}

@test "connection refused: exit 1" {
	# a port that was free a moment ago
	start_server --tcp -a 127.0.0.1 -T 1
	kill "$SRV_PID"; wait_server
	run -1 --separate-stderr "$T" client --tcp -a 127.0.0.1 -p "$PORT" -c 2
	echo "$stderr"
	[[ $stderr == *"connect to 127.0.0.1 port $PORT: Connection refused"* ]]
	[[ $output == "result error" ]]
}

@test "timeout: a server nobody connects to exits 5" {
	local t0=$SECONDS

	# coreutils timeout ends a tool whose own timeout does not work (124)
	run -5 --separate-stderr timeout 10 "$T" server --tcp -a 127.0.0.1 -p 0 -T 1
	echo "$output"; echo "$stderr"
	((SECONDS - t0 <= 4))
	[[ ${lines[0]} == "listening "* && ${lines[-1]} == "result timeout" ]]
	[[ $stderr == *"timeout"* ]]
}

@test "timeout: a client whose server never answers exits 5" {
	local t0

	# the server waits for a second connection that never comes, so it
	# never starts sending: the client's receive would block forever
	start_server --tcp -a 127.0.0.1 -c 2 -n 1K -T 30
	t0=$SECONDS
	run -5 --separate-stderr timeout 10 "$T" client --tcp -a 127.0.0.1 -p "$PORT" -n 1K -T 1
	echo "$output"; echo "$stderr"
	((SECONDS - t0 <= 4))
	[[ $output == "result timeout" && $stderr == *"timeout"* ]]
	kill -0 "$SRV_PID"	# the server is still waiting, not done
}

@test "fallback check (--tcp --check-tcp): plain TCP counts as fallback, exit 3" {
	start_server --tcp --check-tcp -a 127.0.0.1 -c 2 -n 64K
	run -3 --separate-stderr "$T" client --tcp --check-tcp -a 127.0.0.1 -p "$PORT" -c 2 -n 64K
	wait_server
	echo "$output"; echo "$stderr"; cat srv.out
	[[ $SRV_RC == 3 ]]
	[[ $(grep -c '^conn [01] fallback (tcp bytes acked [0-9]* received [0-9]*)$' <<<"$output") == 2 ]]
	[[ ${lines[-1]} == "result fallback" ]]
	[[ $(tail -n1 srv.out) == "result fallback" ]]
	[[ $stderr == *"conn 0: fell back to TCP"* ]]
}

@test "fallback check: --allow-fallback, --expect-fallback, threshold, unknown" {
	# --expect-fallback passes when every connection fell back
	start_server --tcp --check-tcp --allow-fallback -a 127.0.0.1 -n 1M
	run -0 "$T" client --tcp --check-tcp --expect-fallback -a 127.0.0.1 -p "$PORT" -n 1M
	wait_server
	echo "$output"; cat srv.out
	[[ $SRV_RC == 0 ]]
	[[ $output == *"conn 0 fallback (tcp bytes acked "* && ${lines[-1]} == "result ok" ]]
	grep -q '^conn 0 fallback ' srv.out

	# no more bytes than the threshold cannot be told apart: unknown,
	# exit 0 by default, 3 with --expect-fallback; the same 1M transfer
	# as above under a 2M threshold
	start_server --tcp --check-tcp --fallback-threshold 2M -a 127.0.0.1 -n 1M
	run -3 "$T" client --tcp --check-tcp --expect-fallback --fallback-threshold 2M \
		-a 127.0.0.1 -p "$PORT" -n 1M
	wait_server
	echo "$output"; cat srv.out
	[[ $SRV_RC == 0 ]]
	grep -q '^conn 0 unknown (tcp bytes acked [0-9]* received [0-9]*)$' srv.out
	[[ $output == *"conn 0 unknown (tcp bytes"* && ${lines[-1]} == "result no-fallback" ]]

	# the default threshold, 16K: 16000 bytes (TCP counts 16001 with
	# the FIN) are unknown too
	start_server --tcp --check-tcp -a 127.0.0.1 -n 16000
	run -3 --separate-stderr "$T" client --tcp --check-tcp --expect-fallback \
		-a 127.0.0.1 -p "$PORT" -n 16000
	wait_server
	echo "$output"; echo "$stderr"; cat srv.out
	[[ $SRV_RC == 0 ]]
	grep -q '^conn 0 unknown (tcp bytes ' srv.out
	[[ $output == *"conn 0 unknown (tcp bytes"* && $stderr == *"cannot tell SMC from fallback"* ]]
}

@test "fixed port and ready file" {
	local port i

	# a port that was free a moment ago
	start_server --tcp -a 127.0.0.1 -T 1
	port=$PORT
	kill "$SRV_PID"; wait_server
	rm -f ready
	"$T" server --tcp -a 127.0.0.1 -p "$port" -n 10 -r ready >srv.out 2>srv.err 3>&- &
	SRV_PID=$!
	WAIT_TIMEOUT=5 wait_file ready
	[[ $(<ready) == "$port" ]]
	run -0 "$T" client --tcp -a 127.0.0.1 -p "$port" -n 10
	wait_server
	cat srv.out srv.err
	[[ $SRV_RC == 0 && $(head -n1 srv.out) == "listening $port" ]]
	[[ ${lines[-1]} == "result ok" ]]
}
