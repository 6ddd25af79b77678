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
# kernel's module BTF is. The frames user space makes of ring entries
# are checked without a kernel too: helpers/bpf_rec_driver.c hands one
# entry, written here, to capture_bpf.c's record building. The captures
# themselves run on Debian's kernel (testsuite/stock/bpf.bats,
# testsuite/smcr/stock.bats).

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

ALL_FNS="smc_tx_rdma_writes smc_cdc_msg_recv_action smc_cdc_msg_recv smc_cdc_msg_send smc_wr_tx_send smc_wr_tx_v2_send smc_llc_rx_handler smcd_tx_ism_write smc_conn_free"

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
	[ "${lines[0]}" = "smc dump: backend bpf, attaching to smc_tx_rdma_writes smc_cdc_msg_recv_action smc_cdc_msg_send smc_wr_tx_send smc_wr_tx_v2_send smc_llc_rx_handler smcd_tx_ism_write smc_conn_free" ]
	# the host's kernel has no net/smc to load them against: refused by
	# the load, and nothing left behind
	[ "$status" -eq 1 ]
	[[ "$output" == *"Error: backend bpf: the kernel refused the BPF programs"* ]]
	[ "$(bpf_progs)" = "$progs" ]
	[ "$(host_links)" = "$before" ]
	# 6.12.95: smc_cdc_msg_recv instead; no smc_wr_tx_send: the CDC
	# message sent is read at the exit of smc_cdc_msg_send; no SMC-D; no
	# LLC hooks: said once, and the rest goes on to the load
	rm -rf "$d"
	fake_btf "$d" smc_tx_rdma_writes smc_cdc_msg_recv smc_cdc_msg_send smc_conn_free
	run env SMC_DUMP_BTF_DIR="$d" "$SMC" -d dump start backend bpf write "$BATS_TEST_TMPDIR/x.pcap"
	echo "$output"
	[ "${lines[0]}" = "smc dump: backend bpf: LLC messages sent and received are not captured on this kernel: no smc_wr_tx_send, smc_wr_tx_v2_send, smc_llc_rx_handler to attach to (inlined or absent in this build)" ]
	[ "${lines[1]}" = "smc dump: backend bpf, attaching to smc_tx_rdma_writes smc_cdc_msg_recv smc_cdc_msg_send smc_conn_free" ]
	[[ "$output" == *"Error: backend bpf: the kernel refused the BPF programs"* ]]
	[ "$status" -eq 1 ]
	[ "$(bpf_progs)" = "$progs" ]
}

@test "bpf: an LLC hook missing loses those LLC messages only, said once; type raw and cdc say nothing" {
	d=$BATS_TEST_TMPDIR/btf
	# smc_llc_rx_handler inlined: the messages sent are still captured
	fake_btf "$d" smc_tx_rdma_writes smc_cdc_msg_recv_action smc_cdc_msg_send smc_wr_tx_send smc_wr_tx_v2_send smc_conn_free
	run env SMC_DUMP_BTF_DIR="$d" "$SMC" -d dump start backend bpf type llc write "$BATS_TEST_TMPDIR/x.pcap"
	echo "$output"
	[ "${lines[0]}" = "smc dump: backend bpf: LLC messages received are not captured on this kernel: no smc_llc_rx_handler to attach to (inlined or absent in this build)" ]
	[ "${lines[1]}" = "smc dump: backend bpf, attaching to smc_tx_rdma_writes smc_cdc_msg_recv_action smc_cdc_msg_send smc_wr_tx_send smc_wr_tx_v2_send smc_conn_free" ]
	[ "$(grep -c 'LLC messages' <<<"$output")" -eq 1 ]
	[ "$status" -eq 1 ]
	# smc_wr_tx_v2_send inlined: SMC-Rv2's large messages sent are lost
	rm -rf "$d"
	fake_btf "$d" smc_tx_rdma_writes smc_cdc_msg_recv_action smc_cdc_msg_send smc_wr_tx_send smc_llc_rx_handler smc_conn_free
	run env SMC_DUMP_BTF_DIR="$d" "$SMC" -d dump start backend bpf write "$BATS_TEST_TMPDIR/x.pcap"
	echo "$output"
	[ "${lines[0]}" = "smc dump: backend bpf: LLC messages sent are not captured on this kernel: no smc_wr_tx_v2_send to attach to (inlined or absent in this build)" ]
	[ "${lines[1]}" = "smc dump: backend bpf, attaching to smc_tx_rdma_writes smc_cdc_msg_recv_action smc_cdc_msg_send smc_wr_tx_send smc_llc_rx_handler smc_conn_free" ]
	# a capture without LLC records neither says it nor attaches there
	for type in raw cdc; do
		run env SMC_DUMP_BTF_DIR="$d" "$SMC" -d dump start backend bpf type $type write "$BATS_TEST_TMPDIR/x.pcap"
		echo "$output"
		[ "${lines[0]}" = "smc dump: backend bpf, attaching to smc_tx_rdma_writes smc_cdc_msg_recv_action smc_cdc_msg_send smc_wr_tx_send smc_conn_free" ]
		[[ "$output" != *"LLC"* ]]
	done
}

# ------------------------------------------------ records from ring entries

# frame KEY=VALUE...: the frame capture_bpf.c makes of one ring entry
# (helpers/bpf_rec_driver.c), in hex
frame() {
	"$H/bpf_rec_driver" "$@"
}

# LLC record payloads: struct smc_dump_llc_link (lgr 0x0a010203, link 1,
# port 1, QP 0x11, peer QP 0x12), then the message
LINK=0a010203010100000000001100000012
GID4=00000000000000000000ffffc0000201
PGID4=00000000000000000000ffffc0000202
GID6=fe800000000000000000000000000001
PGID6=fe800000000000000000000000000002
# CONFIRM_LINK_V2 (dump-llc.bats reads it field by field)
CL2=212c000002000000000afe80000000000000000000000000000a000102010a01000103ff0000000000000000

@test "bpf: an LLC ring entry becomes the record of record-format.md, byte by byte" {
	host_need testsuite/host/helpers bpf_rec_driver
	# the recording host's byte order flag (SMC_DUMP_F_BIG_ENDIAN)
	be=$(python3 -c 'import sys; print("08" if sys.byteorder == "big" else "00")')
	run -0 frame kind=4 flags=0 mode=1 smc_ver=2 seq=7 token=0x0a010203 sseq=0 \
		family=2 laddr=c0000201 raddr=c0000202 payload=$LINK$GID4$PGID4$CL2
	echo "$output"
	# Ethernet: the link's MAC both ways, IPv4
	want=020000000001020000000001
	want+=0800
	# IPv4: 20 + 8 + 40 + 48 + 44 = 160 bytes, DF, TTL 64, UDP; the
	# checksum by hand: 4500 + 00a0 + 4000 + 4011 + c000 + 0201 + c000 +
	# 0202 = 0x249b4, folded 0x49b6, complement 0xb649; the GIDs' IPv4
	# addresses, local to peer (sent)
	want+=450000a0000040004011b649c0000201c0000202
	# UDP: ports 0, 140 bytes, no checksum (IPv4)
	want+=00000000008c0000
	# the record header: magic, hdr_ver 4, smc_ver 2, SMC-R, type 3
	# (LLC), len 40 + 92, hdr_len 40, flags (sent), seq 7, token = the
	# link group's id, orig_len 92, offset 0, stream_seq 0, reserved
	want+=cfd3e7a5040201030084
	want+=28$be
	want+=00000007
	want+=0a010203
	want+=0000005c
	want+=0000000000000000
	want+=00000000
	want+=00000000
	# the payload as the programs left it
	want+=$LINK$GID4$PGID4$CL2
	[ "$output" = "$want" ]
}

@test "bpf: an LLC ring entry of a failed send keeps SMC_DUMP_F_FAILED in the frame" {
	host_need testsuite/host/helpers bpf_rec_driver
	be=$(python3 -c 'import sys; print(8 if sys.byteorder == "big" else 0)')
	# the entry as the exit of smc_wr_tx_send leaves it when the post
	# failed: sent, flag 0x04, numbered at the entry
	run -0 frame kind=4 flags=4 mode=1 smc_ver=2 seq=8 token=0x0a010203 sseq=1 \
		family=2 laddr=c0000201 raddr=c0000202 payload=$LINK$GID4$PGID4$CL2
	echo "$output"
	# the first test's frame (the same lengths and addresses, so the
	# same IPv4 checksum), but for flags, seq and stream_seq
	want=020000000001020000000001
	want+=0800
	want+=450000a0000040004011b649c0000201c0000202
	want+=00000000008c0000
	want+=cfd3e7a5040201030084
	# hdr_len 40, flags: SMC_DUMP_F_FAILED (and the byte order's)
	want+=28$(printf %02x $((0x04 | be)))
	# seq 8, token, orig_len 92, offset 0, stream_seq 1, reserved
	want+=00000008
	want+=0a010203
	want+=0000005c
	want+=0000000000000000
	want+=00000001
	want+=00000000
	want+=$LINK$GID4$PGID4$CL2
	[ "$output" = "$want" ]
	# the decoder calls it failed, and sent
	python3 - "$output" "$T/failed.pcap" <<-'EOF'
		import struct, sys
		f = bytes.fromhex(sys.argv[1])
		with open(sys.argv[2], "wb") as o:
		    o.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
		    o.write(struct.pack("<IIII", 1700000000, 0, len(f), len(f)))
		    o.write(f)
	EOF
	run -0 "$SMC" dump read "$T/failed.pcap"
	echo "$output"
	[ "${#lines[@]}" -ge 1 ]
	[[ "${lines[0]}" == *" failed"* ]]
	run -0 "$SMC" -j dump read "$T/failed.pcap"
	echo "$output"
	[ "$(jq -c '.[0] | [.type, .dir, .stream_seq, .msg_type]' <<<"$output")" = '["llc","tx",1,"CONFIRM_LINK_V2"]' ]
	[ $(( $(jq -r '.[0].flags' <<<"$output") & 0x04 )) -eq 4 ]
}

@test "bpf: an LLC ring entry received over IPv6, an SMC-Rv2 message past 44 bytes, decodes as one" {
	host_need testsuite/host/helpers bpf_rec_driver
	# DELETE_LINK_V2 (0x24), 60 bytes: 44, then 16 more
	msg=243c0080030020000000000000000000000000000000000000000000000000000000000000000000000000000102030405060708090a0b0c0d0e0f10
	run -0 frame kind=4 flags=1 mode=1 smc_ver=2 seq=9 token=0x0a010203 sseq=4 \
		family=10 laddr=$GID6 raddr=$PGID6 payload=$LINK$GID6$PGID6$msg
	hex=$output
	echo "$hex"
	# IPv6: payload length 8 + 40 + 48 + 60 = 156, UDP, hop limit 64,
	# received: peer to local
	[ "${hex:28:16}" = 60000000009c1140 ]
	[ "${hex:44:64}" = $PGID6$GID6 ]
	# UDP ports 0 and length; the record header: len 40 + 108, RX,
	# seq 9, the link group's id, orig_len 108, stream_seq 4
	[ "${hex:108:12}" = 00000000009c ]
	[ "${hex:124:20}" = cfd3e7a5040201030094 ]
	[ "${hex:146:2}" = 01 ]
	[ "${hex:148:24}" = 000000090a0102030000006c ]
	[ "${hex:188:8}" = 00000004 ]
	[ "${hex:204}" = $LINK$GID6$PGID6$msg ]
	# as a pcap: the independent reader's checksum and counts, and the
	# decoder's reading of the link and the message
	python3 - "$hex" "$T/v6.pcap" <<-'EOF'
		import struct, sys
		f = bytes.fromhex(sys.argv[1])
		with open(sys.argv[2], "wb") as o:
		    o.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
		    o.write(struct.pack("<IIII", 1700000000, 0, len(f), len(f)))
		    o.write(f)
	EOF
	run -0 python3 "$TLIB/smcdump_check.py" "$T/v6.pcap"
	[ "$(jq -c '[.records, .llc, .data, .cdc, .bad_udp_checksum, .bad_len, .ipv6, (.streams | length)]' <<<"$output")" = '[1,1,0,0,0,0,1,0]' ]
	run -0 "$SMC" -j dump read "$T/v6.pcap"
	echo "$output"
	[ "$(jq -c '.[0] | [.type, .dir, .token, .lgr_id, .link_id, .qpn, .peer_qpn, .gid, .peer_gid, .src_address, .dst_address, .stream_seq, .msg_type, .response, .llc.length, .llc.link_id]' <<<"$output")" = \
	  '["llc","rx","0x0a010203","0x0a010203",1,17,18,"fe80::1","fe80::2","fe80::2","fe80::1",4,"DELETE_LINK_V2",true,60,3]' ]
}

@test "bpf: backend auto on a kernel without SMC keeps the kernel backend's message" {
	python3 -c 'import socket; socket.socket(43, socket.SOCK_STREAM)' 2>/dev/null &&
		skip "the host kernel has SMC"
	[ "$(id -u)" -eq 0 ] || skip "needs root (CAP_NET_ADMIN)"
	run "$SMC" dump start backend auto write "$BATS_TEST_TMPDIR/x.pcap"
	[ "$status" -eq 1 ]
	[[ "$output" == "Error: SMC is not available in the running kernel"* ]]
}
