#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of the bpf backend of smc dump start: its options
# and its refusals, each one line that names what is missing and what to
# use instead, with nothing left behind. The host kernel has no SMC, so
# the refusals are reached through the hooks the backend reads:
# SMC_DUMP_LOCKDOWN_FILE (in place of /sys/kernel/security/lockdown) and
# SMC_DUMP_BTF_DIR (in place of /sys/kernel/btf: vmlinux and smc). The
# BTF of a made-up net/smc with a chosen set of functions is encoded by
# pahole from a small C file, split on the host's vmlinux BTF as the
# kernel's module BTF is. The captures themselves run on Debian's kernel
# (testsuite/stock/bpf.bats).

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_file smc || return 1
	# a tcpdump that fails at once, as in dump-capture.bats
	mkdir -p "$BATS_FILE_TMPDIR/bin"
	printf '#!/bin/sh\necho "tcpdump: not in the host tests" >&2\nexit 1\n' \
		>"$BATS_FILE_TMPDIR/bin/tcpdump"
	chmod +x "$BATS_FILE_TMPDIR/bin/tcpdump"
	export PATH="$BATS_FILE_TMPDIR/bin:$PATH"
}

host_links() {
	ip -o link show | awk -F': ' '{ print $2 }' | sort
}

# bpf_progs: names of the BPF programs loaded on the host
bpf_progs() {
	bpftool prog show 2>/dev/null | awk '$3 == "name" { print $4 }' | sort
}

# fake_btf DIR FUNCTION...: DIR/vmlinux (the host's) and DIR/smc, a split
# BTF that has FUNCTION... (and struct smc_connection) as net/smc's would
fake_btf() {
	local dir=$1 f
	shift
	[ -r /sys/kernel/btf/vmlinux ] || skip "the host kernel has no BTF"
	command -v pahole >/dev/null || skip "no pahole"
	mkdir -p "$dir"
	cp /sys/kernel/btf/vmlinux "$dir/vmlinux"
	{
		echo 'struct smc_connection { int x; };'
		for f in "$@"; do
			echo "int $f(struct smc_connection *c) { return c->x; }"
		done
	} >"$dir/smc.c"
	gcc -g -O1 -c -o "$dir/smc.o" "$dir/smc.c"
	pahole --btf_encode_detached="$dir/smc" --btf_base="$dir/vmlinux" "$dir/smc.o"
	rm -f "$dir/smc.o" "$dir/smc.c"
}

ALL_FNS="smc_tx_rdma_writes smc_cdc_msg_recv_action smc_cdc_msg_recv smc_cdc_msg_send smc_wr_tx_send smcd_tx_ism_write smc_conn_free"

# ---------------------------------------------------------------- usage

@test "bpf: backend and ring in the usage; wrong values are usage errors (2)" {
	run --separate-stderr "$SMC" dump start help
	[ "$status" -eq 0 ]
	[[ "$output" == *"[ backend { auto | kernel | bpf } ] [ ring BYTES ]"* ]]
	before=$(host_links)
	run "$SMC" dump start backend ebpf
	[ "$status" -eq 2 ]
	[ "$output" = 'Error: argument "ebpf" is wrong: backend must be auto, kernel or bpf' ]
	run "$SMC" dump start backend bpf backend kernel
	[ "$status" -eq 2 ]
	[ "$output" = 'Error: duplicate "backend": "kernel" is the second value.' ]
	for v in 0 4095 6000 12k -4096 "" 2147483648 4294971392 0x1000x; do
		run "$SMC" dump start backend bpf ring "$v"
		[ "$status" -eq 2 ]
		[ "$output" = "Error: argument \"$v\" is wrong: ring must be a power of two of bytes from 4096 to 1073741824" ]
	done
	run "$SMC" dump start backend bpf ring 4096 ring 8192
	[ "$status" -eq 2 ]
	[ "$output" = 'Error: duplicate "ring": "8192" is the second value.' ]
	# the kernel backend has no ring of its own
	run "$SMC" dump start backend kernel ring 65536
	[ "$status" -eq 2 ]
	[ "$output" = 'Error: argument "ring" is wrong: ring is an option of backend bpf' ]
	[ "$(host_links)" = "$before" ]
}

# ---------------------------------------------------------------- refusals

@test "bpf: lockdown in confidentiality mode is refused, naming the way out" {
	echo "none integrity [confidentiality]" >"$BATS_TEST_TMPDIR/lockdown"
	before=$(host_links)
	progs=$(bpf_progs)
	run env SMC_DUMP_LOCKDOWN_FILE="$BATS_TEST_TMPDIR/lockdown" \
		"$SMC" dump start backend bpf write "$BATS_TEST_TMPDIR/x.pcap"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${#lines[@]}" -eq 1 ]
	[ "$output" = "Error: backend bpf: the kernel is locked down in confidentiality mode ($BATS_TEST_TMPDIR/lockdown), which forbids BPF programs to read kernel memory; use backend kernel (smc-dump-dkms, its modules signed with your MOK under Secure Boot)" ]
	# in the background too, and nothing made
	run env SMC_DUMP_LOCKDOWN_FILE="$BATS_TEST_TMPDIR/lockdown" \
		"$SMC" dump start backend bpf write "$BATS_TEST_TMPDIR/x.pcap" background
	[ "$status" -eq 1 ]
	[[ "$output" == "Error: backend bpf: the kernel is locked down in confidentiality mode"* ]]
	[ "$(host_links)" = "$before" ]
	[ "$(bpf_progs)" = "$progs" ]
	[ ! -e "$BATS_TEST_TMPDIR/x.pcap" ]
	# integrity mode lets BPF read: the next check speaks
	echo "none [integrity] confidentiality" >"$BATS_TEST_TMPDIR/lockdown"
	mkdir "$BATS_TEST_TMPDIR/nobtf"
	run env SMC_DUMP_LOCKDOWN_FILE="$BATS_TEST_TMPDIR/lockdown" \
		SMC_DUMP_BTF_DIR="$BATS_TEST_TMPDIR/nobtf" \
		"$SMC" dump start backend bpf write "$BATS_TEST_TMPDIR/x.pcap"
	[ "$status" -eq 1 ]
	[[ "$output" == "Error: backend bpf: the running kernel has no BTF"* ]]
}

@test "bpf: no CAP_BPF and CAP_PERFMON (nor CAP_SYS_ADMIN) is refused" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to drop the capabilities"
	command -v setpriv >/dev/null || skip "no setpriv"
	before=$(host_links)
	run setpriv --bounding-set -bpf,-perfmon,-sys_admin \
		"$SMC" dump start backend bpf write "$BATS_TEST_TMPDIR/x.pcap"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = "Error: backend bpf: loading the BPF programs needs CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN): run as root" ]
	[ "$(host_links)" = "$before" ]
}

@test "bpf: a kernel without BTF, or without BTF of net/smc, is refused" {
	before=$(host_links)
	mkdir "$BATS_TEST_TMPDIR/nobtf"
	run env SMC_DUMP_BTF_DIR="$BATS_TEST_TMPDIR/nobtf" \
		"$SMC" dump start backend bpf write "$BATS_TEST_TMPDIR/x.pcap"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = "Error: backend bpf: the running kernel has no BTF ($BATS_TEST_TMPDIR/nobtf/vmlinux: No such file or directory): it needs CONFIG_DEBUG_INFO_BTF=y (Debian's kernels have it) and CONFIG_DEBUG_INFO_BTF_MODULES=y for the smc module; use backend kernel with a kernel that has the smc-dummy link kind instead" ]
	# vmlinux's BTF alone: the smc module's is missing
	[ -r /sys/kernel/btf/vmlinux ] || skip "the host kernel has no BTF"
	cp /sys/kernel/btf/vmlinux "$BATS_TEST_TMPDIR/nobtf/"
	run env SMC_DUMP_BTF_DIR="$BATS_TEST_TMPDIR/nobtf" \
		"$SMC" dump start backend bpf write "$BATS_TEST_TMPDIR/x.pcap"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = "Error: backend bpf: no BTF for net/smc ($BATS_TEST_TMPDIR/nobtf/smc: No such file or directory): the smc module is not loaded (modprobe smc) or was built without CONFIG_DEBUG_INFO_BTF_MODULES=y" ]
	[ "$(host_links)" = "$before" ]
	[ ! -e "$BATS_TEST_TMPDIR/x.pcap" ]
}

@test "bpf: a record kind without an attachable function is refused, by name" {
	d=$BATS_TEST_TMPDIR/btf
	before=$(host_links)
	# smc_tx_rdma_writes inlined: nothing records data sent
	fake_btf "$d" smc_cdc_msg_recv_action smc_cdc_msg_send smc_wr_tx_send smc_conn_free
	run env SMC_DUMP_BTF_DIR="$d" "$SMC" dump start backend bpf write "$BATS_TEST_TMPDIR/x.pcap"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = "Error: backend bpf: net/smc of the running kernel has no function to attach to for data sent: smc_tx_rdma_writes (inlined or absent in this build); use backend kernel (smc-dump-dkms or a kernel with the series)" ]
	# both receive functions inlined
	rm -rf "$d"
	fake_btf "$d" smc_tx_rdma_writes smc_cdc_msg_send smc_conn_free
	run env SMC_DUMP_BTF_DIR="$d" "$SMC" dump start backend bpf write "$BATS_TEST_TMPDIR/x.pcap"
	[ "$status" -eq 1 ]
	[[ "$output" == *"for data and CDC messages received: smc_cdc_msg_recv_action or smc_cdc_msg_recv (inlined"* ]]
	rm -rf "$d"
	fake_btf "$d" smc_tx_rdma_writes smc_cdc_msg_recv smc_conn_free
	run env SMC_DUMP_BTF_DIR="$d" "$SMC" dump start backend bpf write "$BATS_TEST_TMPDIR/x.pcap"
	[ "$status" -eq 1 ]
	[[ "$output" == *"for CDC messages sent (SMC-R): smc_cdc_msg_send (inlined"* ]]
	rm -rf "$d"
	fake_btf "$d" smc_tx_rdma_writes smc_cdc_msg_recv smc_cdc_msg_send
	run env SMC_DUMP_BTF_DIR="$d" "$SMC" dump start backend bpf write "$BATS_TEST_TMPDIR/x.pcap"
	[ "$status" -eq 1 ]
	[[ "$output" == *"for connection end: smc_conn_free (inlined"* ]]
	[ "$(host_links)" = "$before" ]
}

@test "bpf: the hook points are chosen from the BTF, alternatives where one is inlined" {
	d=$BATS_TEST_TMPDIR/btf
	progs=$(bpf_progs)
	before=$(host_links)
	# Debian's 6.12.117 and 6.12.118: smc_cdc_msg_recv_action is out of line
	fake_btf "$d" $ALL_FNS
	run env SMC_DUMP_BTF_DIR="$d" "$SMC" -d dump start backend bpf write "$BATS_TEST_TMPDIR/x.pcap"
	echo "$output"
	[ "${lines[0]}" = "smc dump: backend bpf, attaching to smc_tx_rdma_writes smc_cdc_msg_recv_action smc_cdc_msg_send smc_wr_tx_send smcd_tx_ism_write smc_conn_free" ]
	# the host's kernel has no net/smc to load them against: refused by
	# the load, and nothing left behind
	[ "$status" -eq 1 ]
	[[ "$output" == *"Error: backend bpf: the kernel refused the BPF programs"* ]]
	[ "$(bpf_progs)" = "$progs" ]
	[ "$(host_links)" = "$before" ]
	# 6.12.95: smc_cdc_msg_recv instead; no smc_wr_tx_send: the CDC
	# message sent is read at the exit of smc_cdc_msg_send; no SMC-D
	rm -rf "$d"
	fake_btf "$d" smc_tx_rdma_writes smc_cdc_msg_recv smc_cdc_msg_send smc_conn_free
	run env SMC_DUMP_BTF_DIR="$d" "$SMC" -d dump start backend bpf write "$BATS_TEST_TMPDIR/x.pcap"
	echo "$output"
	[ "${lines[0]}" = "smc dump: backend bpf, attaching to smc_tx_rdma_writes smc_cdc_msg_recv smc_cdc_msg_send smc_conn_free" ]
	[ "$status" -eq 1 ]
	[ "$(bpf_progs)" = "$progs" ]
}

@test "bpf: backend auto on a kernel without SMC keeps the kernel backend's message" {
	python3 -c 'import socket; socket.socket(43, socket.SOCK_STREAM)' 2>/dev/null &&
		skip "the host kernel has SMC"
	[ "$(id -u)" -eq 0 ] || skip "needs root (CAP_NET_ADMIN)"
	run "$SMC" dump start backend auto write "$BATS_TEST_TMPDIR/x.pcap"
	[ "$status" -eq 1 ]
	[[ "$output" == "Error: SMC is not available in the running kernel"* ]]
}
