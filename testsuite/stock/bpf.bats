#!/usr/bin/env bats
# The bpf backend of smc dump start on Debian's unmodified
# kernel, inside the stock-kernel VM (run-suite): no smc-dummy kind, so
# `smc dump start` captures through BPF programs on the stock smc.ko and
# sends the records on a dummy link. The traffic is SMC-Rv2 over
# Soft-RoCE on the loopback device (as in stock.bats): both ends of each
# connection are in this netns, so one capture holds both directions of
# both sides. What the capture holds is checked by the independent
# reader testsuite/lib/smcdump_check.py against the SHA-256 sums the
# traffic tool computed of what it sent and received.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	[ -n "${SMC_DUMP_STOCK_KVER:-}" ] && [ -n "${SMC_DUMP_IN_VM:-}" ] || return 0
	modprobe smc_diag
	modprobe rdma_rxe
	if ! rdma link show rxe_lo/1 >/dev/null 2>&1; then
		rdma link add rxe_lo type rxe netdev lo
		touch "$BATS_FILE_TMPDIR/made-rxe"
	fi
	"$SMC" ueid show | grep -qx SMCDUMPBPF || "$SMC" ueid add SMCDUMPBPF
}

# the next file of the tier finds the guest as it was
teardown_file() {
	[ -n "${SMC_DUMP_STOCK_KVER:-}" ] && [ -n "${SMC_DUMP_IN_VM:-}" ] || return 0
	"$SMC" ueid del SMCDUMPBPF || true
	[ ! -e "$BATS_FILE_TMPDIR/made-rxe" ] || rdma link del rxe_lo
}

setup() {
	stock_only
	F=$BATS_TEST_TMPDIR/c.pcap
}

teardown() {
	[ -n "${SMC_DUMP_IN_VM:-}" ] || return 0
	"$SMC" dump stop all >/dev/null 2>&1 || true
	ip netns del bpfother 2>/dev/null || true
}

# no_tx_enter: the backend's first program is not loaded
no_tx_enter() {
	! bpftool prog show | grep -q ' name tx_enter '
}

# No program of ours is loaded, and no dummy link of smc dump is left
nothing_left() {
	! bpftool prog show 2>/dev/null | grep -Eq ' name (tx_enter|tx_exit|rx_enter|cdc_send_enter|cdc_send_exit|wr_send_enter|wr_send_exit|conn_free) ' ||
		return 1
	! ip -o link show type dummy | grep -q 'smc-dump' || return 1
	[ "$("$SMC" -j dump show)" = "[]" ]
}

# check FILE: the independent reader's summary of FILE
check() {
	python3 "$CHECK" "$1" >"$BATS_TEST_TMPDIR/check.json"
	jq -c 'del(.streams, .endpoints)' "$BATS_TEST_TMPDIR/check.json"
	jq -c '.streams[] | del(.sha256)' "$BATS_TEST_TMPDIR/check.json"
}

# cj [JQ OPTION...] FILTER: a value of that summary
cj() {
	jq -r "$@" "$BATS_TEST_TMPDIR/check.json"
}

# stop_summary: the numbers of the stop's summary line: captured,
# delivered, lost
stop_summary() {
	sed -n 's/^smc dump: [^:]*: \([0-9]*\) records captured on the link, 0 dropped by the kernel; the bpf backend delivered \([0-9]*\) records, lost \([0-9]*\) (ring full or refused by the link: seq gaps)$/\1 \2 \3/p' \
		<<<"$1"
}

@test "bpf: backend auto captures SMC-R byte-exact through BPF on the stock kernel" {
	run -0 "$SMC" dump start mode smcr write "$F" background
	echo "$output"
	name=$(awk -F: '{ print $1; exit }' <<<"$output")
	# the link is a dummy link, MTU 65535, IPv6 off, its alias names the
	# backend; show says bpf
	ip -d -o link show "$name" | grep -q ' dummy '
	[ "$(cat /sys/class/net/$name/mtu)" -eq 65535 ]
	[ "$(cat /proc/sys/net/ipv6/conf/$name/disable_ipv6)" -eq 1 ]
	[[ "$(cat /sys/class/net/$name/ifalias)" == "smc-dump pid="*" backend=bpf"* ]]
	run -0 "$SMC" dump show
	echo "$output"
	[[ "${lines[0]}" == "$name: up backend bpf mode smcr type all snaplen 0 records "* ]]
	[ "$("$SMC" -j dump show | jq -r '.[0].backend')" = bpf ]
	transfer 127.0.0.1 1M 2
	run -0 "$SMC" dump stop
	echo "$output"
	read -r captured delivered lost <<<"$(stop_summary "$output")"
	[ "$lost" -eq 0 ]
	[ "$captured" -eq "$delivered" ]
	nothing_left
	check "$F"
	[ "$(cj .records)" -eq "$captured" ]
	[ "$(cj .records)" -eq "$(cj .smcr)" ]
	[ "$(cj .seq_gaps)" -eq 0 ]
	[ "$(cj .seq_dups)" -eq 0 ]
	[ "$(cj .seq_first)" -eq 0 ]
	[ "$(cj .bad_len)" -eq 0 ]
	[ "$(cj .bad_magic)" -eq 0 ]
	[ "$(cj .bad_ip_checksum)" -eq 0 ]
	[ "$(cj .ipv4)" -eq "$(cj .records)" ]
	[ "$(cj -c .cdc_sizes)" = "[44]" ]
	[ "$(cj -c .smc_versions)" = "[2]" ]
	[ "$(cj .data)" -gt 0 ]
	[ "$(cj .cdc)" -gt 0 ]
	# two connections, each direction seen sent (tx) and received (rx):
	# 8 streams of 1 MiB without a hole, whose sums are the traffic tool's
	[ "$(cj '.streams | length')" -eq 8 ]
	[ "$(cj '[.streams[] | select(.bytes != 1048576 or .holes > 0 or .first_offset != 0)] | length')" -eq 0 ]
	[ "$(cj '.streams[] | select(.dir == "tx") | .sha256' | sort)" = "$(sums tx)" ]
	[ "$(cj '.streams[] | select(.dir == "rx") | .sha256' | sort)" = "$(sums rx)" ]
	[ "$(sums tx)" = "$(sums rx)" ]
	# the records of a direction go from its sender to its receiver,
	# with the ports of the TCP connection
	port=$(awk '/^listening/ { print $2 }' "$BATS_TEST_TMPDIR/srv.out")
	[ "$(cj "[.streams[] | select(.src != \"127.0.0.1\" or .dst != \"127.0.0.1\")] | length")" -eq 0 ]
	[ "$(cj "[.streams[] | select(.sport != $port and .dport != $port)] | length")" -eq 0 ]
	# and the project's own reader takes the file as it is
	run -0 "$SMC" dump read "$F"
	run -0 "$SMC" -j dump stats "$F"
}

@test "bpf: a tiny ring loses records, counted in the summary and as seq gaps" {
	# one page: a data record of more than 1 KiB never fits, CDC
	# messages and small data do
	run -0 "$SMC" dump start mode smcr ring 4096 write "$F" background
	transfer 127.0.0.1 256K 1
	run -0 "$SMC" dump stop
	echo "$output"
	read -r captured delivered lost <<<"$(stop_summary "$output")"
	[ "$lost" -gt 0 ]
	[ "$captured" -eq "$delivered" ]
	nothing_left
	check "$F"
	[ "$(cj .records)" -eq "$delivered" ]
	# every lost record is a number missing: in the middle a gap, or
	# past the ends
	[ "$(cj .seq_gaps)" -gt 0 ]
	[ "$(cj .seq_dups)" -eq 0 ]
	[ "$(( $(cj .seq_last) - $(cj .seq_first) + 1 ))" -le $((delivered + lost)) ]
	[ "$(cj .seq_gaps)" -le "$lost" ]
	# each lost record is a number missing in its own stream too, and
	# the decoder counts exactly those, per connection and in total
	[ "$(cj .stream_seq_gaps)" -gt 0 ]
	[ "$(cj .stream_seq_gaps)" -le "$lost" ]
	run -0 "$SMC" -j dump stats "$F"
	[ "$(jq '.[0].total.lost' <<<"$output")" -eq "$(cj .stream_seq_gaps)" ]
	[ "$(jq '[.[0].connections[] | .tx.lost_records + .rx.lost_records + (.peer.tx.lost_records // 0) + (.peer.rx.lost_records // 0)] | add' <<<"$output")" -eq "$(cj .stream_seq_gaps)" ]
	# the streams have holes where the records were lost, never bytes
	# out of place: what was captured sits at its offset
	[ "$(cj '[.streams[] | select(.holes > 0)] | length')" -gt 0 ]
	[ "$(cj .bad_len)" -eq 0 ]
}

@test "bpf: type raw with snaplen 64, and the capture's netns only" {
	ip netns add bpfother
	ip -n bpfother link set lo up
	# a capture in another netns sees nothing of this one's traffic
	run -0 ip netns exec bpfother "$SMC" dump start write "$BATS_TEST_TMPDIR/other.pcap" background
	run -0 "$SMC" dump start mode smc type raw snaplen 64 write "$F" background
	run -0 "$SMC" dump show
	[[ "${lines[0]}" == *" backend bpf mode smc type raw snaplen 64 "* ]]
	transfer 127.0.0.1 1M 1
	run -0 "$SMC" dump stop
	echo "$output"
	read -r captured delivered lost <<<"$(stop_summary "$output")"
	[ "$lost" -eq 0 ]
	run -0 ip netns exec bpfother "$SMC" dump stop
	echo "$output"
	nothing_left
	[ "$(ip netns exec bpfother "$SMC" -j dump show)" = "[]" ]
	check "$BATS_TEST_TMPDIR/other.pcap"
	[ "$(cj .records)" -eq 0 ]
	check "$F"
	[ "$(cj .records)" -eq "$captured" ]
	[ "$(cj .cdc)" -eq 0 ]
	[ "$(cj .data)" -eq "$(cj .records)" ]
	[ "$(cj .seq_gaps)" -eq 0 ]
	[ "$(cj .bad_len)" -eq 0 ]
	# records of more than 64 bytes are cut there and flagged (the
	# reader counts a payload that is not shorter than orig_len as
	# bad_len); all four streams of the connection start at offset 0
	[ "$(cj .truncated)" -gt 0 ]
	[ "$(cj .max_payload)" -gt 64 ]
	[ "$(cj '.streams | length')" -eq 4 ]
	[ "$(cj '[.streams[] | select(.first_offset != 0)] | length')" -eq 0 ]
	run -0 "$SMC" dump read "$F"
}

@test "bpf: mode all in the foreground, ^C ends it; -d names the hook points" {
	err=$BATS_TEST_TMPDIR/err
	"$SMC" -d dump start mode all write "$F" 2>"$err" &
	pid=$!
	WAIT_TIMEOUT=30 wait_line "$err" '^smc dump: capturing on' || { cat "$err"; false; }
	cat "$err"
	# the functions Debian's 6.12.118 smc.ko has out of line
	grep -qx 'smc dump: backend bpf, attaching to smc_tx_rdma_writes smc_cdc_msg_recv_action smc_cdc_msg_send smc_wr_tx_send smc_wr_tx_v2_send smc_llc_rx_handler smcd_tx_ism_write smc_conn_free' "$err"
	grep -q '^smc dump: capturing on smc-dummy[a-z]* (backend bpf, mode all, type all, snaplen 0, tcpdump -i any)' "$err"
	transfer 127.0.0.1 256K 1
	kill -INT "$pid"
	wait "$pid"
	cat "$err"
	nothing_left
	port=$(awk '/^listening/ { print $2 }' "$BATS_TEST_TMPDIR/srv.out")
	deliv=$(sed -n 's/^smc dump: [^ ]*: [0-9]* packets captured on any, 0 dropped by the kernel; the bpf backend delivered \([0-9]*\) records, lost 0 (ring full or refused by the link: seq gaps)$/\1/p' "$err")
	[ "$deliv" -gt 0 ]
	# tcpdump -i any: the handshake (SYN and SYN-ACK) and the records in
	# one file: the connection's (UDP with its port) and the LLC messages
	# of its link group (ports 0: a new RMB's CONFIRM_RKEY, a TEST_LINK
	# that falls in the capture)
	[ "$(tcpdump -nn -r "$F" "tcp port $port and tcp[tcpflags] & tcp-syn != 0" 2>/dev/null | wc -l)" -ge 2 ]
	[ "$(tcpdump -nn -r "$F" "udp port $port" 2>/dev/null | wc -l)" -gt 0 ]
	[ "$(tcpdump -nn -r "$F" "udp port $port or udp port 0" 2>/dev/null | wc -l)" -eq "$deliv" ]
	run -0 "$SMC" -j dump stats "$F"
}

@test "bpf: a capture killed outright leaves no program; stop removes its link" {
	run -0 "$SMC" -j dump start mode smcr write "$F" background
	name=$(jq -r '.[0].ifname' <<<"$output")
	pid=$(jq -r '.[0].pid' <<<"$output")
	[ -n "$name" ] && [ "$pid" -gt 0 ]
	bpftool prog show | grep -q ' name tx_enter '
	kill -KILL "$pid"
	# the programs hang on the process's descriptors only: nothing
	# pinned, so its end detaches and frees them
	WAIT_TIMEOUT=10 wait_for "the bpf backend's programs freed" no_tx_enter
	run -0 "$SMC" dump show
	echo "$output"
	[[ "${lines[1]}" == "    capture pid $pid gone "* ]]
	run -0 "$SMC" dump stop
	echo "$output"
	[[ "$output" == *"smc dump: $name: its capture (pid $pid) is gone; deleting the link"* ]]
	nothing_left
	! ip link show "$name" 2>/dev/null
}
