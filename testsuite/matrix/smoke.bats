#!/usr/bin/env bats
# The kernel matrix's smoke set (run-suite ID boots the kernel of that line
# of scripts/kernels.conf, unmodified, and runs this file inside): on each
# Debian kernel smc-dump serves, real SMC traffic proven SMC by the
# kernel's own counters, one capture per backend the line lists checked
# byte for byte by the independent reader testsuite/lib/smcdump_check.py
# against the SHA-256 sums of what the traffic tool sent and received,
# then smc socket and smc stats on a held connection.
#   backend bpf: on Debian's own signed smc.ko (no smc-dummy kind), SMC-Rv2
#     over Soft-RoCE on the loopback device (Debian's 6.12 has no
#     loopback-ism), as testsuite/stock does at length
#   backend kernel: on the modules of the line's DKMS package
#     (updates/dkms), SMC-Dv2 over loopback-ism, as testsuite/stock-dkms
#     does at length
# Both in one boot: Debian's modules are loaded by path first, then
# unloaded for the DKMS ones, which modprobe prefers.
#   nodev: a kernel with SMC but no device the bed can give it (Debian
#     12's 6.1): AF_SMC connections fall back, counted, and the bpf
#     backend loads on its smc.ko
#   none: a kernel built without SMC: smc says so and what to boot

bats_require_minimum_version 1.5.0

load ../stock/lib

UEID=SMCDUMPMATRIX
# 2 connections of 256 KiB each way: enough to wrap no buffer and to fill
# several records; size proves nothing more here
BYTES=262144

setup() {
	stock_only
	[ -n "${SMC_DUMP_MATRIX_ID:-}" ] || skip "runs in the kernel matrix (testsuite/matrix/run-suite ID)"
	HOLD_PID=
	F=$BATS_TEST_TMPDIR/c.pcap
	J=$BATS_TEST_TMPDIR/c.json
}

teardown() {
	[ -n "${SMC_DUMP_IN_VM:-}" ] || return 0
	release
	"$SMC" dump stop all >/dev/null 2>&1 || true
}

# backend NAME: the line lists backend NAME
backend() {
	[[ ",$SMC_DUMP_MATRIX_BACKENDS," == *",$1,"* ]]
}

# debian_mod M: the path of Debian's own module M in the kernel's tree
debian_mod() {
	ls "/lib/modules/$SMC_DUMP_STOCK_KVER/kernel/net/smc/$1.ko"*
}

# loaded_from M FILE: module M in the kernel is the one in FILE
loaded_from() {
	[ "$(cat "/sys/module/$1/srcversion")" = "$(modinfo -F srcversion "$2")" ]
}

# wait_unloaded M...: rmmod the modules, waiting while a reference that is
# being dropped (a closing socket, a bpf trampoline freed after an RCU
# grace period) keeps them busy
wait_unloaded() {
	local i m
	for i in $(seq 100); do
		for m in "$@"; do
			[ ! -d "/sys/module/$m" ] || rmmod "$m" 2>/dev/null || true
		done
		for m in "$@"; do
			[ ! -d "/sys/module/$m" ] || continue 2
		done
		return 0
	done
	echo "cannot unload: $(grep -E "^($(IFS='|'; echo "$*")) " /proc/modules)"
	return 1
}

# counted PROTO CONNS: SMC-PROTO (smcr or smcd) v2 carried CONNS
# connections of the last transfer on both sides, BYTES each way, and
# the other protocol none ($before and $after are smc -j stats)
counted() {
	local other=smcd
	[ "$1" = smcr ] || other=smcr
	d() { echo $(( $(stat_of "$after" "$1") - $(stat_of "$before" "$1") )); }
	[ "$(d "$1.client.v2_success")" -eq "$2" ]
	[ "$(d "$1.server.v2_success")" -eq "$2" ]
	[ "$(d "$other.client.v2_success")" -eq 0 ]
	[ "$(d "$1.tx_bytes")" -eq $((2 * $2 * BYTES)) ]
	[ "$(d "$1.rx_bytes")" -eq $((2 * $2 * BYTES)) ]
	# the TCP connections under them carried only the handshake
	[ "$(grep -c "^conn [0-9]* smc (tcp bytes" "$BATS_TEST_TMPDIR/cli.out")" -eq "$2" ]
}

# byte_exact CDC_SIZE CONNS: the capture $F holds every stream of the
# last transfer on 127.0.0.1, whole, from offset 0, equal to what the
# traffic tool sent and received, CDC messages of CDC_SIZE bytes
byte_exact() {
	python3 "$CHECK" "$F" >"$J"
	jq -c 'del(.streams, .endpoints)' "$J"
	[ "$(jq .records "$J")" -gt 0 ]
	[ "$(jq .seq_gaps "$J")" -eq 0 ]
	[ "$(jq .seq_dups "$J")" -eq 0 ]
	[ "$(jq .bad_magic "$J")" -eq 0 ]
	[ "$(jq .bad_len "$J")" -eq 0 ]
	[ "$(jq .data "$J")" -gt 0 ]
	[ "$(jq .cdc "$J")" -gt 0 ]
	[ "$(jq -c .cdc_sizes "$J")" = "[$1]" ]
	# each direction of each connection seen sent (tx) and received (rx)
	[ "$(jq '.streams | length' "$J")" -eq $((4 * $2)) ]
	[ "$(jq --argjson b "$BYTES" '[.streams[] | select(.bytes != $b or .holes > 0 or .first_offset != 0)] | length' "$J")" -eq 0 ]
	[ "$(cap_sums "$J" tx)" = "$(sums tx)" ]
	[ "$(cap_sums "$J" rx)" = "$(sums rx)" ]
	[ "$(sums tx)" = "$(sums rx)" ]
	[ "$(jq '[.streams[] | select(.src != "127.0.0.1" or .dst != "127.0.0.1")] | length' "$J")" -eq 0 ]
}

@test "matrix: the guest runs the line's Debian kernel, unmodified" {
	echo "$SMC_DUMP_MATRIX_ID: $SMC_DUMP_STOCK_KVER, backends $SMC_DUMP_MATRIX_BACKENDS, DKMS $SMC_DUMP_MATRIX_DKMS"
	[ "$(uname -r)" = "$SMC_DUMP_STOCK_KVER" ]
	v=$(awk '$1 == "Version:" { print $2 }' "$STOCK_DIR/package")
	[ -n "$v" ]
	grep -F "Debian $v " /proc/version
	[ "$(cat /proc/sys/kernel/tainted)" -eq 0 ]
}

@test "matrix: backend bpf on Debian's own smc.ko captures SMC-R over Soft-RoCE byte for byte" {
	backend bpf || skip "the line lists no bpf backend"
	# Debian's modules, by path: modprobe would take a DKMS package's
	for m in smc smc_diag; do
		f=$(debian_mod $m)
		if [ ! -d /sys/module/$m ]; then
			for dep in $(modinfo -F depends "$f" | tr , ' '); do
				[ -d "/sys/module/$dep" ] || modprobe "$dep"
			done
			insmod "$f"
		fi
		loaded_from $m "$f"
		# signed by Debian's build key: no taint
		[ -z "$(cat /sys/module/$m/taint)" ]
	done
	modprobe rdma_rxe
	rdma link show rxe_lo/1 >/dev/null 2>&1 || rdma link add rxe_lo type rxe netdev lo
	ensure_ueid
	run -0 "$SMC" dump start backend bpf mode smcr write "$F" background
	echo "$output"
	[ "$("$SMC" -j dump show | jq -r '.[0].backend')" = bpf ]
	before=$("$SMC" -j stats)
	transfer 127.0.0.1 $BYTES 2
	after=$("$SMC" -j stats)
	run -0 "$SMC" dump stop
	echo "$output"
	counted smcr 2
	byte_exact 44 2
	[ "$(jq .smcr "$J")" -eq "$(jq .records "$J")" ]
	[ "$(jq -c .smc_versions "$J")" = "[2]" ]
}

@test "matrix: backend kernel on the DKMS modules captures SMC-D over loopback-ism byte for byte" {
	backend kernel || skip "the line lists no kernel backend"
	[ -n "${SMC_DUMP_STOCK_DKMS:-}" ] || { echo "the kernel backend needs the line's DKMS package"; return 1; }
	# Debian's modules out, if the bpf test loaded them, and the Soft-RoCE
	# device with them: SMC-D alone is offered
	rdma link del rxe_lo 2>/dev/null || true
	wait_unloaded smc_diag smc
	modprobe smc_diag
	for m in smc smc_diag; do
		f=$(modinfo -n $m)
		echo "$m: $f"
		[ "$f" = "/lib/modules/$SMC_DUMP_STOCK_KVER/updates/dkms/$m.ko" ]
		loaded_from $m "$f"
		[ "$(cat /sys/module/$m/taint)" = OE ]
	done
	ensure_ueid
	run -0 "$SMC" dump start backend kernel mode smcd write "$F" background
	echo "$output"
	[ "$("$SMC" -j dump show | jq -r '.[0].backend')" = kernel ]
	before=$("$SMC" -j stats)
	transfer 127.0.0.1 $BYTES 2
	after=$("$SMC" -j stats)
	run -0 "$SMC" dump stop
	echo "$output"
	counted smcd 2
	byte_exact 32 2
	[ "$(jq .smcr "$J")" -eq 0 ]
}

@test "matrix: smc socket shows a held SMC connection, smc stats counts it" {
	backend kernel || backend bpf || skip "the line lists no capturing backend: its kernel has no SMC, or no SMC device"
	# the modules the last test left: the DKMS ones (SMC-D) where the line
	# has them, else Debian's (SMC-R)
	if backend kernel; then
		proto=smcd mode=SMC-D
	else
		proto=smcr mode=SMC-R
	fi
	[ -d /sys/module/smc_diag ]
	ensure_ueid
	before=$("$SMC" -j stats)
	hold --bytes 1000
	after=$("$SMC" -j stats)
	[ $(( $(stat_of "$after" $proto.client.v2_success) - $(stat_of "$before" $proto.client.v2_success) )) -eq 1 ]
	run line "$CINO" socket
	echo "$output"
	[ "$output" = "ACTIVE 0 $CINO 127.0.0.1:$CPORT 127.0.0.1:$SPORT * $mode" ]
	run line "$AINO" socket $proto
	[[ "$output" == "ACTIVE 0 $AINO 127.0.0.1:$SPORT 127.0.0.1:$CPORT * $mode"* ]]
	cs=$(sock "$CINO" "$("$SMC" -j -d socket)")
	echo "$cs"
	jq -e --arg m $mode '.mode == $m and .tx_prod == {"wrap": 0, "count": 1000} and
		.rx_prod == {"wrap": 0, "count": 2000}' <<<"$cs"
	release
	run -0 "$SMC" stats
	echo "$output"
	[[ "$output" == *$'\nSMC-D\n'* ]]
	[[ "$output" == *$'\nSMC-R\n'* ]]
	j=$("$SMC" -j stats)
	n=$(awk '/^Connections handled/ { print $3 }' <<<"$output")
	[ "$n" -eq "$(jq '.[0] | .smcd.connections + .smcr.connections +
		.handshake_errors.total + .fallback.total' <<<"$j")" ]
	[ "$(stat_of "$j" $proto.client.v2_success)" -ge 1 ]
}

@test "matrix: SMC with no device to use: AF_SMC connections fall back, counted, the bpf backend attaches" {
	backend nodev || skip "the line does not list nodev"
	# Debian 12's 6.1: no loopback-ism (Linux 6.9), no IPPROTO_SMC (Linux
	# 6.11), and Soft-RoCE gives SMC-R nothing that works (no get_netdev
	# in its rxe; with a PNET ID the first link's set-up fails and its
	# clean-up blocks: Documentation/install.md). Debian's own modules,
	# signed: no taint
	# (no DKMS package serves the line: modprobe takes them)
	modprobe -a smc smc_diag
	for m in smc smc_diag; do
		[ "$(modinfo -n $m)" = "$(debian_mod $m)" ]
		[ -d /sys/module/$m ]
		[ -z "$(cat /sys/module/$m/taint)" ]
	done
	run -0 "$SMC" -j device
	[ "$output" = "[]" ]
	# the bpf backend's hooks and CO-RE relocations fit this smc.ko
	run -0 "$SMC" dump start backend bpf mode smcr write "$F" background
	echo "$output"
	[ "$("$SMC" -j dump show | jq -r '.[0].backend')" = bpf ]
	before=$("$SMC" -j stats)
	srv=$BATS_TEST_TMPDIR/srv.out cli=$BATS_TEST_TMPDIR/cli.out
	"$TRAFFIC" server --af-smc --expect-fallback -a 127.0.0.1 -p 0 -n $BYTES -T 60 >"$srv" &
	spid=$!
	WAIT_TIMEOUT=10 wait_line "$srv" '^listening [0-9]+'
	port=$(awk '/^listening/ { print $2 }' "$srv")
	run "$TRAFFIC" client --af-smc --expect-fallback -a 127.0.0.1 -p "$port" -n $BYTES -T 60
	echo "$output" >"$cli"
	wait $spid
	src=$?
	cat "$srv" "$cli"
	[ "$status" -eq 0 ] && [ "$src" -eq 0 ]
	# --expect-fallback: result ok only if every connection fell back
	grep -q "^result ok" "$srv"
	grep -q "^result ok" "$cli"
	grep -q "^conn 0 fallback" "$srv"
	grep -q "^conn 0 fallback" "$cli"
	[ "$(sums tx)" = "$(sums rx)" ]
	after=$("$SMC" -j stats)
	d() { echo $(( $(stat_of "$after" "$1") - $(stat_of "$before" "$1") )); }
	# the client found no SMC device, declined; the server counts the peer's
	# decline; nothing went over SMC
	[ "$(d fallback.client)" -eq 1 ]
	[ "$(d fallback.server)" -eq 1 ]
	[ "$(jq '[.[0].fallback.reasons[] | select(.role == "client" and .name == "NOSMCDEV") | .count] | add' <<<"$after")" -ge 1 ]
	[ "$(d smcr.connections)" -eq 0 ]
	[ "$(d smcd.connections)" -eq 0 ]
	run -0 "$SMC" dump stop
	echo "$output"
	python3 "$CHECK" "$F" >"$J"
	[ "$(jq .records "$J")" -eq 0 ]
}

@test "matrix: a kernel built without SMC: no smc module, and smc names what to boot" {
	backend none || skip "the line lists backends: its kernel has SMC"
	# Debian's 7.x: no smc.ko in the package, no AF_SMC, no SMC netlink
	run -1 modprobe smc
	[[ "$output" == *"Module smc not found"* ]]
	[ ! -d /sys/module/smc ]
	advice="the running kernel is built without SMC (its modules.dep and modules.builtin name no smc module): boot a kernel with CONFIG_SMC"
	run -1 --separate-stderr "$SMC" stats
	[[ "$stderr" == "Error: SMC is not available in the running kernel (generic netlink family SMC_GEN_NETLINK not found); $advice"* ]]
	run -1 --separate-stderr "$SMC" check loopback
	[[ "$stderr" == "Error: SMC is not available in the running kernel (neither IPPROTO_SMC nor AF_SMC sockets); $advice"* ]]
	run -1 --separate-stderr "$SMC" socket
	[[ "$stderr" == "Error: SMC socket diagnostics are not available in the running kernel; $advice"* ]]
	run -1 --separate-stderr "$SMC" dump start mode smcd write "$F" background
	[[ "$stderr" == "Error: SMC is not available in the running kernel (AF_SMC sockets: "*"; $advice"* ]]
	run -1 --separate-stderr "$SMC" dump start backend bpf mode smcd write "$F" background
	[[ "$stderr" == "Error: backend bpf: no BTF for net/smc "*"; $advice"* ]]
	[ ! -e "$F" ]
}
