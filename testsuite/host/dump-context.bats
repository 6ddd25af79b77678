#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of the connections' context: the collector (smc dump
# context, which smc dump start runs beside a capture file) against the
# fake sock_diag kernel of helpers/socket-fake.c and a fake /proc tree made
# here (SMC_DUMP_PROC_DIR), and what smc dump read -d, stats and analyze
# print from a context file. Every expected value below is one of the
# fake state written here (sockets, processes, context lines), not taken
# from the program's output.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_file smc testsuite/tools || return 1
	export FAKE_SO="$H/socket-fake.so"
	host_need testsuite/host/helpers socket-fake.so || return 1
}

setup() {
	export TZ=UTC
	P="$BATS_TEST_TMPDIR/proc"
	K="$BATS_TEST_TMPDIR/kernel"
	mkdir -p "$P" "$K"
	unset SOCKET_FAKE_ERR SOCKET_FAKE_LOG
}

teardown() {
	if [ -n "${CPID:-}" ]; then
		kill -TERM "$CPID" 2>/dev/null || true
		wait "$CPID" 2>/dev/null || true
	fi
}

# sockets SPEC...: the fake kernel's AF_SMC dump, written at once (mv):
# each SPEC "STATE MODE INODE TOKEN LOCAL LPORT PEER PPORT"
# (STATE active or listen, MODE r or d, TOKEN 0: no SMC_DIAG_CONNINFO)
sockets() {
	python3 - "$H/socket-case.py" "$K/smc.bin.new" "$@" <<-'EOF'
	import importlib.util, sys
	spec = importlib.util.spec_from_file_location("sc", sys.argv[1])
	sc = importlib.util.module_from_spec(spec)
	spec.loader.exec_module(sc)
	out = b""
	for s in sys.argv[3:]:
	    st, mode, ino, tok, la, lp, pa, pp = s.split()
	    out += sc.smc(sc.AF_SMC, sc.ACTIVE if st == "active" else sc.LISTEN,
	                  sc.MODE_SMCR if mode == "r" else sc.MODE_SMCD,
	                  int(lp), int(pp), la, pa if pa != "-" else None,
	                  inode=int(ino),
	                  attrs=sc.conninfo(int(tok, 0), 65536, 65536, 65536)
	                  if int(tok, 0) else b"")
	open(sys.argv[2], "wb").write(out)
	EOF
	mv "$K/smc.bin.new" "$K/smc.bin"
}

# process PID COMM NETNS CGROUP INODE...: a process of the fake /proc
# holding the sockets INODE... (at fd 3 on), and /dev/null at fd 0
process() {
	local pid=$1 comm=$2 netns=$3 cgroup=$4 fd=3 ino
	shift 4
	mkdir -p "$P/$pid.new/fd" "$P/$pid.new/ns"
	echo "$comm" >"$P/$pid.new/comm"
	ln -s "net:[$netns]" "$P/$pid.new/ns/net"
	printf '12:cpu,cpuacct:/v1/ignored\n0::%s\n' "$cgroup" >"$P/$pid.new/cgroup"
	ln -s /dev/null "$P/$pid.new/fd/0"
	for ino in "$@"; do
		ln -s "socket:[$ino]" "$P/$pid.new/fd/$fd"
		fd=$((fd + 1))
	done
	mv "$P/$pid.new" "$P/$pid"
}

# collect FILE [ARGS...]: smc dump context in the background against
# the fakes; its pid in CPID
collect() {
	SMC_DUMP_PROC_DIR="$P" SOCKET_FAKE_DIR="$K" LD_PRELOAD="$FAKE_SO" \
		"$SMC" dump context "$@" 2>"$BATS_TEST_TMPDIR/collect.err" &
	CPID=$!
}

# stop_collect: SIGTERM, and its exit status must be 0
stop_collect() {
	kill -TERM "$CPID"
	local rc=0
	wait "$CPID" || rc=$?
	CPID=
	[ "$rc" -eq 0 ] || { echo "smc dump context: exit $rc"; cat "$BATS_TEST_TMPDIR/collect.err"; return 1; }
}

# has_lines FILE N: FILE exists and has N lines
has_lines() {
	[ -e "$1" ] && [ "$(wc -l <"$1")" -eq "$2" ]
}

# holds_open PID FILE: process PID has FILE open
holds_open() {
	local fd
	for fd in /proc/"$1"/fd/*; do
		[ "$(readlink "$fd")" = "$2" ] && return 0
	done
	return 1
}

# line FILE INODE: the line of INODE, without first_seen (compact jq)
line() {
	jq -c "select(.inode == $2) | del(.first_seen)" "$1"
}

# the expected line of a socket: token (a JSON value), ends, owner
want() {
	printf '{"token":%s,"local_address":"%s","local_port":%s,"peer_address":"%s","peer_port":%s,"inode":%s,"pid":%s,"comm":%s,"netns":%s,"cgroup":%s}' "$@"
}

# ------------------------------------------------------------ collector

@test "context: the collector writes each connection with its process, netns and cgroup, also one that comes later" {
	sockets "active r 5001 0x1001 10.0.0.1 40000 10.0.0.2 5201" \
		"active d 5002 0x2002 fd00::1 40001 fd00::2 5202" \
		"listen r 5000 0 10.0.0.1 5201 - 0"
	process 100 iperf3 4026532100 /system.slice/iperf.service 9999 5001
	process 200 server 4026532200 /kubepods/pod1/c2 5002
	mkdir -p "$P/300"	# no fd directory: not ours to see
	ln -s 100 "$P/self"	# not a pid: skipped
	local t0 t1
	t0=$(date +%s)
	collect interval 50 "$T/c1.ctx"
	wait_for "two lines" has_lines "$T/c1.ctx" 2
	# a connection that opens after the collector started
	process 700 late 4026532100 /user.slice 5003
	sockets "active r 5001 0x1001 10.0.0.1 40000 10.0.0.2 5201" \
		"active d 5002 0x2002 fd00::1 40001 fd00::2 5202" \
		"active r 5003 0x3003 10.0.0.3 40002 10.0.0.2 5201" \
		"listen r 5000 0 10.0.0.1 5201 - 0"
	wait_line "$T/c1.ctx" '"inode":5003'
	stop_collect
	t1=$(date +%s)
	cat "$T/c1.ctx"
	[ "$(wc -l <"$T/c1.ctx")" -eq 3 ]
	[ "$(line "$T/c1.ctx" 5001)" = "$(want '"0x00001001"' 10.0.0.1 40000 10.0.0.2 5201 5001 100 '"iperf3"' 4026532100 '"/system.slice/iperf.service"')" ]
	[ "$(line "$T/c1.ctx" 5002)" = "$(want '"0x00002002"' fd00::1 40001 fd00::2 5202 5002 200 '"server"' 4026532200 '"/kubepods/pod1/c2"')" ]
	[ "$(line "$T/c1.ctx" 5003)" = "$(want '"0x00003003"' 10.0.0.3 40002 10.0.0.2 5201 5003 700 '"late"' 4026532100 '"/user.slice"')" ]
	# the listener is no connection
	[ -z "$(line "$T/c1.ctx" 5000)" ]
	# first_seen: the time it was seen, Unix seconds
	jq -e --argjson a "$t0" --argjson b "$((t1 + 1))" \
		'select(.first_seen < $a or .first_seen > $b)' "$T/c1.ctx" >/dev/null && return 1
	[ ! -s "$BATS_TEST_TMPDIR/collect.err" ]
}

@test "context: a socket no process is found holding is written without one, once" {
	sockets "active r 5004 0x4004 10.0.0.1 40004 10.0.0.2 5201"
	process 100 iperf3 4026532100 /a 9999
	collect interval 20 "$T/c2.ctx"
	wait_line "$T/c2.ctx" '"inode":5004'
	stop_collect
	[ "$(wc -l <"$T/c2.ctx")" -eq 1 ]
	[ "$(line "$T/c2.ctx" 5004)" = '{"token":"0x00004004","local_address":"10.0.0.1","local_port":40004,"peer_address":"10.0.0.2","peer_port":5201,"inode":5004,"pid":null,"comm":null,"netns":null,"cgroup":null}' ]
}

@test "context: a socket with neither a token nor both ends gets no line, which no reader could use" {
	# a socket being closed (no connection info, no addresses left)
	# beside one of a connection, both held by one process: only the
	# connection gets its line (a reader would refuse the other one)
	sockets "active d 5006 0 0.0.0.0 0 - 0" "active r 5007 0x4007 10.0.0.1 40007 10.0.0.2 5201"
	process 100 iperf3 4026532100 /a 5006 5007
	collect interval 20 "$T/c6.ctx"
	wait_line "$T/c6.ctx" '"inode":5007'
	stop_collect
	cat "$T/c6.ctx"
	[ "$(wc -l <"$T/c6.ctx")" -eq 1 ]
	[ "$(line "$T/c6.ctx" 5007)" = '{"token":"0x00004007","local_address":"10.0.0.1","local_port":40007,"peer_address":"10.0.0.2","peer_port":5201,"inode":5007,"pid":100,"comm":"iperf3","netns":4026532100,"cgroup":"/a"}' ]
}

@test "context: a comm and a cgroup with quotes and backslashes are escaped in the line" {
	sockets "active r 5001 0x1001 10.0.0.1 40000 10.0.0.2 5201"
	process 100 'a"b\c' 4026532100 '/x "y"' 5001
	collect interval 50 "$T/c3.ctx"
	wait_line "$T/c3.ctx" '"inode":5001'
	stop_collect
	[ "$(jq -r .comm "$T/c3.ctx")" = 'a"b\c' ]
	[ "$(jq -r .cgroup "$T/c3.ctx")" = '/x "y"' ]
	[ "$(jq -r .pid "$T/c3.ctx")" = 100 ]
}

@test "context: a comm and a cgroup of bytes 0x80 and up: the line is ASCII JSON, the bytes come back in stats" {
	sockets "active r 5001 0x1001 10.0.0.1 40000 10.0.0.2 5201"
	# comm: UTF-8 "café"; cgroup: 0xff, no UTF-8 at all
	process 100 $'caf\xc3\xa9' 4026532100 $'/x\xff' 5001
	collect interval 50 "$T/c8.ctx"
	wait_line "$T/c8.ctx" '"inode":5001'
	stop_collect
	# ASCII only, so valid UTF-8; each byte its own \u00XX escape
	run -1 grep -qP '[^\x00-\x7f]' "$T/c8.ctx"
	grep -qF '"comm":"caf\u00c3\u00a9"' "$T/c8.ctx"
	grep -qF '"cgroup":"/x\u00ff"' "$T/c8.ctx"
	# the documented way back to the bytes
	run -0 python3 -c 'import json, sys; o = json.loads(open(sys.argv[1], encoding="ascii").read()); print(o["comm"].encode("latin-1").hex(), o["cgroup"].encode("latin-1").hex())' "$T/c8.ctx"
	[ "$output" = "636166c3a9 2f78ff" ]
	# and smc dump's reader: the same bytes, \xNN in text, JSON as it is
	echo "data dir=tx token=0x1001 len=10" | "$GEN" "$T/c8.pcap"
	run -0 --separate-stderr "$SMC" dump stats context "$T/c8.ctx" "$T/c8.pcap"
	printf '%s\n' "$output" | grep -qxF 'smcr token 0x00001001 10.0.0.1:40000 <-> 10.0.0.2:5201 pid 100 comm caf\xc3\xa9 netns 4026532100 cgroup /x\xff'
	run -0 --separate-stderr "$SMC" -j dump stats context "$T/c8.ctx" "$T/c8.pcap"
	[ "$(jq -r '.[0].connections[0].comm' <<<"$output")" = 'café' ]
}

@test "context: sock_diag fails: the collector says so and ends with 1" {
	export SOCKET_FAKE_ERR=43:2
	run -1 --separate-stderr env SMC_DUMP_PROC_DIR="$P" SOCKET_FAKE_DIR="$K" \
		LD_PRELOAD="$FAKE_SO" "$SMC" dump context "$T/c4.ctx"
	[ -z "$output" ]
	[ "${stderr_lines[0]}" = "Error: cannot dump the SMC sockets: no SMC socket diagnostics (smc_diag) in the running kernel" ]
	[ "${stderr_lines[1]}" = "smc dump: warning: no connection context from now on ($T/c4.ctx stays as it is)" ]
	[ ! -s "$T/c4.ctx" ]
}

@test "context: a run that fails before its first line leaves the file as it was, and creates none" {
	echo '{"token":"0x00001001","pid":1}' >"$T/c9.ctx"
	run -1 --separate-stderr env SOCKET_FAKE_ERR=43:2 SMC_DUMP_PROC_DIR="$P" SOCKET_FAKE_DIR="$K" \
		LD_PRELOAD="$FAKE_SO" "$SMC" dump context "$T/c9.ctx"
	[ "${stderr_lines[1]}" = "smc dump: warning: no connection context from now on ($T/c9.ctx stays as it is)" ]
	[ "$(cat "$T/c9.ctx")" = '{"token":"0x00001001","pid":1}' ]
	run -1 --separate-stderr env SOCKET_FAKE_ERR=43:2 SMC_DUMP_PROC_DIR="$P" SOCKET_FAKE_DIR="$K" \
		LD_PRELOAD="$FAKE_SO" "$SMC" dump context "$T/c9-new.ctx"
	[ ! -e "$T/c9-new.ctx" ]
	# a run that ends well replaces the file, also with no line
	sockets "listen r 5000 0 10.0.0.1 5201 - 0"
	collect interval 20 "$T/c9.ctx"
	# open: its signals are blocked by then
	wait_for "the collector to open the file" holds_open "$CPID" "$T/c9.ctx"
	[ -s "$T/c9.ctx" ]
	stop_collect
	[ ! -s "$T/c9.ctx" ] && [ -f "$T/c9.ctx" ]
}

@test "context: the file must be a regular file: a symbolic link or a FIFO is refused at once, its target kept" {
	mkdir -p "$T/c5"
	echo keep >"$T/c5/victim"
	ln -s "$T/c5/victim" "$T/c5/link.ctx"
	mkfifo "$T/c5/fifo.ctx"
	# (without the check: the link's target truncated, the FIFO's open
	# blocking until timeout's 124)
	run -1 --separate-stderr timeout 10 env SMC_DUMP_PROC_DIR="$P" SOCKET_FAKE_DIR="$K" \
		LD_PRELOAD="$FAKE_SO" "$SMC" dump context "$T/c5/link.ctx"
	[ "$stderr" = "Error: cannot create $T/c5/link.ctx: not a regular file" ]
	[ "$(cat "$T/c5/victim")" = keep ] && [ -L "$T/c5/link.ctx" ]
	run -1 --separate-stderr timeout 10 env SMC_DUMP_PROC_DIR="$P" SOCKET_FAKE_DIR="$K" \
		LD_PRELOAD="$FAKE_SO" "$SMC" dump context "$T/c5/fifo.ctx"
	[ "$stderr" = "Error: cannot create $T/c5/fifo.ctx: not a regular file" ]
	[ -p "$T/c5/fifo.ctx" ]
}

@test "context: usage errors" {
	run -2 --separate-stderr "$SMC" dump context
	[ "$stderr" = 'Error: FILE expected, try "smc dump context help".' ]
	run -2 --separate-stderr "$SMC" dump context interval 0 "$T/x"
	[[ "$stderr" == *"interval must be 1 to 60000 milliseconds"* ]]
	run -2 --separate-stderr "$SMC" dump context interval
	[ "$stderr" = 'Error: "interval" needs milliseconds.' ]
	run -2 --separate-stderr "$SMC" dump context "$T/a" "$T/b"
	[[ "$stderr" == *"unexpected argument"* ]]
	run -1 --separate-stderr "$SMC" dump context "$T/no/such/dir/x.ctx"
	[[ "$stderr" == "Error: cannot create $T/no/such/dir/x.ctx: No such file or directory" ]]
	[ ! -e "$T/a" ]
}

# ------------------------------------------------------------ display

# cap FILE: a capture of four connections: 0x1001 (SMC-R, the default
# ends 10.0.0.1:40000 <-> 10.0.0.2:5201), 0x2002 (SMC-D, IPv6), 0x3003
# (SMC-R from 10.0.0.3:40002) and 0x4444 (no context line)
cap() {
	"$GEN" "$1" <<-'EOF'
	data dir=tx token=0x1001 len=10
	data dir=rx token=0x1001 len=20
	data mode=d dir=tx token=0x2002 local=fd00::1 lport=40001 peer=fd00::2 pport=5202 len=5
	data dir=tx token=0x3003 local=10.0.0.3 lport=40002 len=7
	data dir=tx token=0x4444 local=10.0.0.4 lport=40009 len=3
	EOF
}

# Context lines: 0x1001 by token, 0x2002 by token with unknown netns and
# cgroup, 0x3003 by its ends (no token), one without a pid (left out)
ctxfile() {
	cat >"$1" <<-'EOF'
	{"token":"0x00001001","local_address":"10.0.0.1","local_port":40000,"peer_address":"10.0.0.2","peer_port":5201,"inode":5001,"pid":100,"comm":"iperf3","netns":4026532100,"cgroup":"/system.slice/iperf.service","first_seen":1700000000.5}
	{"token":"0x00002002","local_address":"fd00::1","local_port":40001,"peer_address":"fd00::2","peer_port":5202,"inode":5002,"pid":200,"comm":"server","netns":null,"cgroup":null,"first_seen":1700000000.5}
	{"token":null,"local_address":"10.0.0.3","local_port":40002,"peer_address":"10.0.0.2","peer_port":5201,"inode":5003,"pid":700,"comm":"late","netns":4026532100,"cgroup":"/user.slice","first_seen":1700000000.5}
	{"token":"0x00004444","local_address":"10.0.0.4","local_port":40009,"peer_address":"10.0.0.2","peer_port":5201,"inode":5004,"pid":null,"comm":null,"netns":null,"cgroup":null,"first_seen":1700000000.5}
	EOF
}

O1=" pid 100 comm iperf3 netns 4026532100 cgroup /system.slice/iperf.service"
O2=" pid 200 comm server netns - cgroup -"
O3=" pid 700 comm late netns 4026532100 cgroup /user.slice"

@test "context: read -d shows each record's process beside its connection; without a context file nothing changes" {
	cap "$T/d1.pcap"
	run -0 --separate-stderr "$SMC" dump read -d "$T/d1.pcap"
	local before=$output
	[[ "$before" != *" pid "* ]]
	ctxfile "$T/d1.pcap.ctx"
	run -0 --separate-stderr "$SMC" dump read -d "$T/d1.pcap"
	[ -z "$stderr" ]
	[[ "${lines[0]}" == *" token 0x00001001 conn 0$O1 data seq 0 "* ]]
	[[ "${lines[1]}" == *" token 0x00001001 conn 0$O1 data seq 0 "* ]]
	[[ "${lines[2]}" == *" token 0x00002002 conn 1$O2 data seq 0 "* ]]
	[[ "${lines[3]}" == *" token 0x00003003 conn 2$O3 data seq 0 "* ]]
	[[ "${lines[4]}" == *" token 0x00004444 conn 3 data seq 0 "* ]]
	# the rest of each line is as without the file
	[ "$(printf '%s\n' "$output" | sed -e "s| pid 100 comm iperf3 netns 4026532100 cgroup /system.slice/iperf.service||" \
		-e "s| pid 200 comm server netns - cgroup -||" \
		-e "s| pid 700 comm late netns 4026532100 cgroup /user.slice||")" = "$before" ]
	# read without -d: unchanged, the file is not even read
	rm "$T/d1.pcap.ctx"
	run -0 "$SMC" dump read "$T/d1.pcap"
	local plain=$output
	echo 'not json' >"$T/d1.pcap.ctx"
	run -0 --separate-stderr "$SMC" dump read "$T/d1.pcap"
	[ "$output" = "$plain" ]
	[ -z "$stderr" ]
}

@test "context: read -d JSON: pid, comm, netns, cgroup on the records of a known connection" {
	cap "$T/d2.pcap"
	ctxfile "$T/d2.ctx"
	run -0 --separate-stderr "$SMC" -j dump read -d context "$T/d2.ctx" "$T/d2.pcap"
	[ "$(jq -c '[.[] | [.token, .pid, .comm, .netns, .cgroup]]' <<<"$output")" = \
		'[["0x00001001",100,"iperf3",4026532100,"/system.slice/iperf.service"],["0x00001001",100,"iperf3",4026532100,"/system.slice/iperf.service"],["0x00002002",200,"server",null,null],["0x00003003",700,"late",4026532100,"/user.slice"],["0x00004444",null,null,null,null]]' ]
	# no member at all where no line matches
	[ "$(jq -c '.[4] | has("pid")' <<<"$output")" = false ]
}

@test "context: stats and analyze show the process of each connection, text and JSON" {
	cap "$T/d3.pcap"
	ctxfile "$T/d3.pcap.ctx"
	run -0 --separate-stderr "$SMC" dump stats "$T/d3.pcap"
	[ -z "$stderr" ]
	printf '%s\n' "$output" | grep -qxF "smcr token 0x00001001 10.0.0.1:40000 <-> 10.0.0.2:5201$O1"
	printf '%s\n' "$output" | grep -qxF "smcd token 0x00002002 [fd00::1]:40001 <-> [fd00::2]:5202$O2"
	printf '%s\n' "$output" | grep -qxF "smcr token 0x00003003 10.0.0.3:40002 <-> 10.0.0.2:5201$O3"
	printf '%s\n' "$output" | grep -qxF "smcr token 0x00004444 10.0.0.4:40009 <-> 10.0.0.2:5201"
	run -0 --separate-stderr "$SMC" dump analyze "$T/d3.pcap"
	printf '%s\n' "$output" | grep -q "^smcr token 0x00001001 10.0.0.1:40000 <-> 10.0.0.2:5201$O1 records 2 "
	printf '%s\n' "$output" | grep -q "^smcr token 0x00003003 10.0.0.3:40002 <-> 10.0.0.2:5201$O3 records 1 "
	printf '%s\n' "$output" | grep -q "^smcr token 0x00004444 10.0.0.4:40009 <-> 10.0.0.2:5201 records 1 "
	run -0 --separate-stderr "$SMC" -j dump stats "$T/d3.pcap"
	[ "$(jq -c '[.[0].connections[] | [.token, .pid, .comm, .netns, .cgroup]]' <<<"$output")" = \
		'[["0x00001001",100,"iperf3",4026532100,"/system.slice/iperf.service"],["0x00002002",200,"server",null,null],["0x00003003",700,"late",4026532100,"/user.slice"],["0x00004444",null,null,null,null]]' ]
	run -0 --separate-stderr "$SMC" -j dump analyze "$T/d3.pcap"
	[ "$(jq -c '[.[0].connections[] | [.token, .pid, .comm, .netns, .cgroup]]' <<<"$output")" = \
		'[["0x00001001",100,"iperf3",4026532100,"/system.slice/iperf.service"],["0x00002002",200,"server",null,null],["0x00003003",700,"late",4026532100,"/user.slice"],["0x00004444",null,null,null,null]]' ]
}

@test "context: stats and analyze without a context file print no such member" {
	cap "$T/d4.pcap"
	run -0 "$SMC" -j dump stats "$T/d4.pcap"
	[ "$(jq -c '[.[0].connections[] | has("pid") or has("comm") or has("netns") or has("cgroup")] | any' <<<"$output")" = false ]
	run -0 "$SMC" -j dump analyze "$T/d4.pcap"
	[ "$(jq -c '[.[0].connections[] | has("pid") or has("comm") or has("netns") or has("cgroup")] | any' <<<"$output")" = false ]
	run -0 "$SMC" dump stats "$T/d4.pcap"
	[[ "$output" != *" pid "* ]]
}

@test "context: bad lines are reported one by one and left out; the good ones still count; exit 1" {
	cap "$T/d5.pcap"
	{
		echo '{"token":"0x00001001","pid":100,"comm":"iperf3","netns":1,"cgroup":"/a"}'
		echo 'not json'
		echo '{"token":"0x1001","pid":"100"}'
		echo '{"token":"1001","pid":100}'
		echo '{"local_address":"10.0.0.3","local_port":40002,"pid":5}'
		echo '{"token":"0x00003003","local_address":"10.0.0.3","local_port":40002,"peer_address":"fd00::2","peer_port":1,"pid":5}'
		echo '{"token":"0x00003003","local_port":70000,"pid":5}'
		echo '{"token":"0x00003003","pid":5} trailing'
		echo '{"token":"0x00003003","pid":5'
		echo ''
		printf '{"token":"0x00003003","pid":5,"comm":"a\\qb"}\n'
	} >"$T/d5.ctx"
	run -1 --separate-stderr "$SMC" dump stats context "$T/d5.ctx" "$T/d5.pcap"
	printf '%s\n' "$stderr"
	[ "${#stderr_lines[@]}" -eq 9 ]
	[ "${stderr_lines[0]}" = "Warning: $T/d5.ctx:2: not a JSON object; line left out" ]
	[ "${stderr_lines[1]}" = "Warning: $T/d5.ctx:3: pid is not a process id; line left out" ]
	[ "${stderr_lines[2]}" = "Warning: $T/d5.ctx:4: token is not a 32-bit \"0x...\"; line left out" ]
	[ "${stderr_lines[3]}" = "Warning: $T/d5.ctx:5: neither a token nor both ends; line left out" ]
	[ "${stderr_lines[4]}" = "Warning: $T/d5.ctx:6: the addresses are of two families; line left out" ]
	[ "${stderr_lines[5]}" = "Warning: $T/d5.ctx:7: local_port is not a port; line left out" ]
	[ "${stderr_lines[6]}" = "Warning: $T/d5.ctx:8: text after the object; line left out" ]
	[ "${stderr_lines[7]}" = "Warning: $T/d5.ctx:9: ',' or '}' expected; line left out" ]
	[ "${stderr_lines[8]}" = "Warning: $T/d5.ctx:11: a string, number or null expected; line left out" ]
	printf '%s\n' "$output" | grep -qxF "smcr token 0x00001001 10.0.0.1:40000 <-> 10.0.0.2:5201 pid 100 comm iperf3 netns 1 cgroup /a"
	printf '%s\n' "$output" | grep -qxF "smcr token 0x00003003 10.0.0.3:40002 <-> 10.0.0.2:5201"
}

@test "context: a context file that cannot be read is an error (3); context is no keyword of follow" {
	cap "$T/d6.pcap"
	run -3 --separate-stderr "$SMC" dump stats context "$T/none.ctx" "$T/d6.pcap"
	[ "$stderr" = "Error: the connections' context: $T/none.ctx: No such file or directory" ]
	[ -z "$output" ]
	# read, with -d or without (which prints no context), the same
	run -3 --separate-stderr "$SMC" dump read -d context "$T/none.ctx" "$T/d6.pcap"
	[ "$stderr" = "Error: the connections' context: $T/none.ctx: No such file or directory" ]
	run -3 --separate-stderr "$SMC" dump read context "$T/none.ctx" "$T/d6.pcap"
	[ "$stderr" = "Error: the connections' context: $T/none.ctx: No such file or directory" ]
	[ -z "$output" ]
	run -2 --separate-stderr "$SMC" dump stats context
	[ "$stderr" = 'Error: "context" needs a file, try "smc dump help".' ]
	run -2 --separate-stderr "$SMC" dump stats context "$T/a" context "$T/b" "$T/d6.pcap"
	[[ "$stderr" == *'"context"'* ]]
	run -2 --separate-stderr "$SMC" dump follow context "$T/a" "$T/d6.pcap" "$T/dir"
	[ "$stderr" = 'Error: "context" is not a keyword of "smc dump follow", try "smc dump help".' ]
}

@test "context: read -d prints a name's control bytes, blanks and backslashes as \xNN, JSON as it is" {
	cap "$T/d7.pcap"
	# comm: ESC [31m, a newline and a forged line; cgroup: a blank and a
	# backslash
	printf '%s\n' '{"token":"0x00001001","pid":5,"comm":"\u001b[31mX\n99 FAKE","netns":1,"cgroup":"/a b\\c"}' >"$T/d7.pcap.ctx"
	run -0 --separate-stderr "$SMC" dump stats "$T/d7.pcap"
	printf '%s\n' "$output" | grep -qxF 'smcr token 0x00001001 10.0.0.1:40000 <-> 10.0.0.2:5201 pid 5 comm \x1b[31mX\x0a99\x20FAKE netns 1 cgroup /a\x20b\x5cc'
	# no raw ESC reached the output, and no line of the forged text
	local out=$output
	run -1 grep -qP '\x1b' <<<"$out"
	run -1 grep -q '^99 FAKE' <<<"$out"
	run -0 --separate-stderr "$SMC" -j dump stats "$T/d7.pcap"
	[ "$(jq -r '.[0].connections[] | select(.token == "0x00001001") | .comm' <<<"$output")" = $'\e[31mX\n99 FAKE' ]
	[ "$(jq -r '.[0].connections[] | select(.token == "0x00001001") | .cgroup' <<<"$output")" = '/a b\c' ]
}

@test "context: a FIFO as the context file is refused at once, beside the capture or named" {
	cap "$T/d6.pcap"
	mkfifo "$T/d6.pcap.ctx"
	# (an open for reading would wait for a writer: timeout's 124)
	run -3 --separate-stderr timeout 10 "$SMC" dump stats "$T/d6.pcap"
	[[ "$stderr" == *"$T/d6.pcap.ctx: not a regular file"* ]]
	run -3 --separate-stderr timeout 10 "$SMC" dump analyze context "$T/d6.pcap.ctx" "$T/d6.pcap"
	[[ "$stderr" == *"$T/d6.pcap.ctx: not a regular file"* ]]
}

@test "context: the collector's file beside a capture: stats names the processes" {
	sockets "active r 5001 0x1001 10.0.0.1 40000 10.0.0.2 5201" \
		"active d 5002 0x2002 fd00::1 40001 fd00::2 5202"
	process 100 iperf3 4026532100 /system.slice/iperf.service 5001
	process 200 server 4026532200 /kubepods/pod1/c2 5002
	cap "$T/d7.pcap"
	collect interval 50 "$T/d7.pcap.ctx"
	wait_for "two lines" has_lines "$T/d7.pcap.ctx" 2
	stop_collect
	run -0 --separate-stderr "$SMC" dump stats "$T/d7.pcap"
	[ -z "$stderr" ]
	printf '%s\n' "$output" | grep -qxF "smcr token 0x00001001 10.0.0.1:40000 <-> 10.0.0.2:5201$O1"
	printf '%s\n' "$output" | grep -qxF "smcd token 0x00002002 [fd00::1]:40001 <-> [fd00::2]:5202 pid 200 comm server netns 4026532200 cgroup /kubepods/pod1/c2"
}
