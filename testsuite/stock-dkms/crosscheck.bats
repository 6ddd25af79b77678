#!/usr/bin/env bats
# The two backends of smc dump start side by side, in the DKMS
# stock bed: Debian's kernel with smc-dump-dkms's modules has the
# smc-dummy kind (backend kernel), BTF for vmlinux and for the DKMS-built
# smc.ko (backend bpf) and loopback-ism, so one SMC-D transfer can be
# captured by both at once. Each file is read by the independent reader
# testsuite/lib/smcdump_check.py; each must hold every stream whole and
# equal to what the traffic tool sent and received, and the two must hold
# the same streams. Each backend's supervisor also keeps FILE.ctx: the
# process, netns and cgroup of a connection opened after both captures
# began must be there, as /proc tells them, and in smc dump stats.

bats_require_minimum_version 1.5.0

load ../stock/lib

setup() {
	stock_only
	[ -n "${SMC_DUMP_STOCK_DKMS:-}" ] || skip "runs in the DKMS stock bed (testsuite/stock-dkms/run-suite)"
	ensure_ueid
}

teardown() {
	[ -n "${SMC_DUMP_IN_VM:-}" ] || return 0
	release
	"$SMC" dump stop all >/dev/null 2>&1 || true
	rmdir /sys/fs/cgroup/smc-dump-ctx 2>/dev/null || true
}

# summary FILE OUT: the independent reader's summary of FILE in OUT
summary() {
	python3 "$CHECK" "$1" >"$2"
	jq -c 'del(.streams, .endpoints)' "$2"
}

# streams OUT: direction, ports, length, holes and SHA-256 of each stream
streams() {
	jq -r '.streams[] | "\(.dir) \(.sport) \(.dport) \(.first_offset) \(.bytes) \(.holes) \(.sha256)"' "$1" | sort
}

# both ADDR: one transfer through ADDR (2 connections of 1 MiB each way)
# captured by both backends at once; checks both files
both() {
	local k=$BATS_TEST_TMPDIR/kernel.pcap b=$BATS_TEST_TMPDIR/bpf.pcap
	local kj=$BATS_TEST_TMPDIR/kernel.json bj=$BATS_TEST_TMPDIR/bpf.json j
	run -0 "$SMC" dump start dev smck0 backend kernel mode smcd write "$k" background
	echo "$output"
	# a ring of 64 MiB, 4 times the default: each data record reserves
	# the 64 KiB size class, ~20 MiB for the whole transfer, so even a
	# supervisor kept off the CPU on a loaded host cannot lose one here
	run -0 "$SMC" dump start dev smcb0 backend bpf mode smcd ring 67108864 write "$b" background
	echo "$output"
	run -0 "$SMC" -j dump show
	echo "$output"
	[ "$(jq -r '.[] | select(.ifname == "smck0") | .backend' <<<"$output")" = kernel ]
	[ "$(jq -r '.[] | select(.ifname == "smcb0") | .backend' <<<"$output")" = bpf ]
	before=$("$SMC" -j stats)
	transfer "$1" 1M 2
	after=$("$SMC" -j stats)
	# SMC-D carried both connections
	[ $(( $(stat_of "$after" smcd.client.v2_success) - $(stat_of "$before" smcd.client.v2_success) )) -eq 2 ]
	run -0 "$SMC" dump stop all
	echo "$output"
	summary "$k" "$kj"
	summary "$b" "$bj"
	for j in "$kj" "$bj"; do
		[ "$(jq .records "$j")" -gt 0 ]
		[ "$(jq .smcr "$j")" -eq 0 ]
		[ "$(jq .seq_gaps "$j")" -eq 0 ]
		[ "$(jq .seq_dups "$j")" -eq 0 ]
		# both write header version 4, every stream numbered whole
		[ "$(jq -c .hdr_versions "$j")" = "[4]" ]
		[ "$(jq .stream_seq_gaps "$j")" -eq 0 ]
		[ "$(jq .bad_magic "$j")" -eq 0 ]
		[ "$(jq .bad_len "$j")" -eq 0 ]
		[ "$(jq .data "$j")" -gt 0 ]
		[ "$(jq .cdc "$j")" -gt 0 ]
		# 2 connections, each direction seen sent and received: 8
		# streams of 1 MiB from offset 0 without a hole, whose sums are
		# the traffic tool's
		[ "$(jq '.streams | length' "$j")" -eq 8 ]
		[ "$(jq '[.streams[] | select(.bytes != 1048576 or .holes > 0 or .overlaps > 0 or .first_offset != 0)] | length' "$j")" -eq 0 ]
		[ "$(jq -r '.streams[] | select(.dir == "tx") | .sha256' "$j" | sort)" = "$(sums tx)" ]
		[ "$(jq -r '.streams[] | select(.dir == "rx") | .sha256' "$j" | sort)" = "$(sums rx)" ]
		# the records carry the connection's own addresses
		[ "$(jq --arg a "$1" '[.streams[] | select(.src != $a or .dst != $a)] | length' "$j")" -eq 0 ]
	done
	[ "$(sums tx)" = "$(sums rx)" ]
	# the same streams, with the same ends, in both files
	streams "$kj"
	[ "$(streams "$kj")" = "$(streams "$bj")" ]
	# SMC-D's CDC message is the 32-byte struct smcd_cdc_msg in both
	[ "$(jq -c .cdc_sizes "$kj")" = "[32]" ]
	[ "$(jq -c .cdc_sizes "$bj")" = "[32]" ]
	KJ=$kj BJ=$bj
}

@test "backends: kernel and bpf capture one SMC-D transfer over IPv4, the same streams byte for byte" {
	both 127.0.0.1
	[ "$(jq .ipv4 "$BJ")" -eq "$(jq .records "$BJ")" ]
	[ "$(jq .bad_ip_checksum "$BJ")" -eq 0 ]
}

@test "backends: the same over IPv6, valid UDP checksums in both" {
	both ::1
	for j in "$KJ" "$BJ"; do
		[ "$(jq .ipv6 "$j")" -eq "$(jq .records "$j")" ]
		[ "$(jq .bad_udp_checksum "$j")" -eq 0 ]
	done
}

# ctx_has FILE PID: FILE (a capture's .ctx) has two lines of process PID,
# the two ends of the one connection it holds
ctx_has() {
	[ -s "$1" ] && [ "$(jq -s --argjson p "$2" '[.[] | select(.pid == $p)] | length' "$1")" -eq 2 ]
}

@test "context: a connection opened after both captures began: its process, netns and cgroup beside each file" {
	local k=$BATS_TEST_TMPDIR/kernel.pcap b=$BATS_TEST_TMPDIR/bpf.pcap
	local cg=/sys/fs/cgroup/smc-dump-ctx ready=$BATS_TEST_TMPDIR/ready f comm netns pid
	grep -q ' /sys/fs/cgroup cgroup2 ' /proc/mounts || mount -t cgroup2 none /sys/fs/cgroup
	mkdir -p "$cg"
	run -0 "$SMC" dump start dev smck0 backend kernel mode smcd write "$k" background
	run -0 "$SMC" dump start dev smcb0 backend bpf mode smcd write "$b" background
	# the connection starts now: one SMC-D connection, both ends held by
	# one process, which moves itself into a cgroup of its own first
	bash -c 'echo $$ >"$1/cgroup.procs" && exec python3 "$2" --server smc --client smc --addr 127.0.0.1 "$3"' \
		_ "$cg" "$HOLD" "$ready" 3>&- &
	HOLD_PID=$!
	pid=$HOLD_PID
	wait_file "$ready"
	read -r _ SPORT _ CPORT _ <"$ready"
	# what the kernel says of that process, read here, not from smc
	comm=$(cat "/proc/$pid/comm")
	netns=$(stat -L -c %i "/proc/$pid/ns/net")
	[ "$(cat "/proc/$pid/cgroup")" = "0::/smc-dump-ctx" ]
	# each supervisor finds it within its polls
	wait_for "process $pid in $k.ctx" ctx_has "$k.ctx" "$pid"
	wait_for "process $pid in $b.ctx" ctx_has "$b.ctx" "$pid"
	release
	run -0 "$SMC" dump stop all
	for f in "$k" "$b"; do
		jq -c . "$f.ctx"
		[ "$(jq -s -c --argjson p "$pid" '[.[] | select(.pid == $p) | [.comm, .netns, .cgroup]] | unique' "$f.ctx")" = \
			"[[\"$comm\",$netns,\"/smc-dump-ctx\"]]" ]
		# the ports of the two ends are the held connection's
		[ "$(jq -s -c --argjson p "$pid" '[.[] | select(.pid == $p) | .local_port] | sort' "$f.ctx")" = \
			"$(printf '%s\n' "$SPORT" "$CPORT" | sort -n | jq -s -c .)" ]
		# and smc dump stats names the process beside the capture's
		# connections: the records the held connection sent at its start
		run -0 "$SMC" -j dump stats "$f"
		echo "$output"
		[ "$(jq -c --argjson p "$pid" '[.[0].connections[] | select(.pid == $p) | [.comm, .netns, .cgroup]] | unique' <<<"$output")" = \
			"[[\"$comm\",$netns,\"/smc-dump-ctx\"]]" ]
	done
}
