#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of the one JSON vocabulary of smc: every object's
# -j output, on inputs that make it print all it can (the fake sock_diag
# of helpers/socket-fake.c, the fake SMC generic netlink family of
# helpers/fake_genl.c, captures of testsuite/tools/gen-smcdump-pcap with
# records and CLC messages; two hosts' for dump merge), uses only the names that smc(8) lists for
# that object in its section JSON; a connection's ends, a packet's ends,
# interfaces and modes are named one way everywhere. The list is read
# from the man page, so that a new key fails here until it is documented.

bats_require_minimum_version 1.5.0

load lib
load helpers/rnics-sysfs

setup_file() {
	host_setup_fake || return 1
	host_make testsuite/tools || return 1
	export FAKE_SO="$H/socket-fake.so" CASES="$T/cases"
	host_need testsuite/host/helpers socket-fake.so || return 1
	local c
	for c in basic real; do
		python3 "$H/socket-case.py" "$c" "$CASES/$c" || return 1
	done
	collect_all "$T/json" || return 1
}

# The fake kernel's SMC objects (see smc-objects.bats for what each
# record means): two SMC-D and two SMC-R devices, SMC-R link groups with
# links, SMC-D link groups, v2 system information
fake_objects() {
	local noif=999999
	export SMC_FAKE_SYSINFO="ver=2 rel=1 ism_v2=1 smcr_v2=1 host=lpar1 seid=IBM-SYSZ-ISMSEID00000000D3B5"
	export SMC_FAKE_DEV_SMCD="use=2 fid=0x1234 chid=0x07c1 vendor=0x1014 device=0x04ed pci_id=0000:00:00.0 pnetid=NET1 usr=1;use=0 fid=0x1235 chid=0x07c2 vendor=0x1014 device=0x04ed pci_id=0001:00:00.0"
	export SMC_FAKE_DEV_SMCR="ibname=mlx5_0 crit=1 fid=0x0100 chid=0x0118 vendor=0x15b3 device=0x1016 pci_id=0100:00:00.0 p1.netdev=1 p1.pnetid=NET1 p1.state=1 p1.links=2;ibname=rxe0 p1.netdev=$noif p1.state=0"
	export SMC_FAKE_LGR_SMCR="id=0x00000a01 role=1 type=2 vlan=0 conns=3 pnetid=NET1 sndbuf=65536 rmb=131072 ver=2 rel=1 os=2 host=peer1 eid=SMCV2-EID direct=1 max_conns=255 max_links=3 l1.ibdev=mlx5_0 l1.id=1 l1.state=3 l1.conns=2 l1.port=1 l1.netdev=1 l1.uid=0x0a010001 l1.peer_uid=0x0b020001 l1.gid=fe80::1 l1.peer_gid=fe80::2;id=0xdeadbeef role=0 type=1 vlan=100 conns=0"
	export SMC_FAKE_LGR_SMCD="id=0x00000d01 gid=0x1111 peer_gid=0x2222 vlan=0 conns=5 chid=0xffff sndbuf=16384 dmb=32768 ver=2 rel=1 os=2 host=peer2 eid=EID2;id=0x00000d02 conns=1 pnetid=NET2"
	export SMC_FAKE_TABLE="$T/ueids" SMC_FAKE_PNET="$T/pnet"
	# the UEID table file holds each entry as 32 blank-padded bytes in hex
	python3 -c 'import sys; print(b"SMC-EID-1".ljust(32).hex())' >"$T/ueids"
	printf 'NET1 eth lo\nNET2 ib mlx5_0 1\n' >"$T/pnet"
	export SMC_FAKE_STATS SMC_FAKE_FBACK
	SMC_FAKE_STATS="$(python3 "$H/stats_case.py" spec)"
	SMC_FAKE_FBACK="$(python3 "$H/stats_case.py" fback)"
}

# Captures: records of both modes and directions (IPv4 and IPv6, a
# truncated one, CDC with every flag, LLC messages with every field of
# dump-llc.bats's) and a wire capture with a SYN and
# the CLC messages of an SMC-D v2 and an SMC-R v2 handshake and a Decline
captures() {
	"$GEN" "$T/recs.pcap" <<-EOF || return 1
	data dir=tx token=0x1 seq=1 offset=0 len=1000
	cdc dir=rx token=0x1 seq=2 seqno=1 ctoken=0x2 pwrap=1 pcount=1000 cwrap=0 ccount=10 pflags=0xf8 cflags=0xe0
	data dir=tx token=0x1 seq=3 offset=1000 len=100 orig=500
	data dir=tx token=0x1 seq=4 offset=6000 len=10
	cdc mode=d dir=rx token=0x77 seq=5 pwrap=1 pcount=16 cwrap=1 ccount=5 pflags=0x40 cflags=0x40
	data mode=d dir=tx token=0x77 seq=6 offset=0 len=17 smcver=1
	data dir=rx token=0x9 seq=7 offset=0 len=64 local=2001:db8::1 peer=2001:db8::2
	legacy hex=00
	llc lgr=0xa01 msg=012c008002000000000afe80000000000000000000000000000a000102010a01000103ff0000000000000000
	llc lgr=0xa01 msg=022c014002000000000b0000fe80000000000000000000000000000b00020302530102030000000000000000
	llc lgr=0xa01 msg=2268000002000000000c0000fe80000000000000000000000000000c000203020300000700000000000000008000fe80000000000000000000000000000d000000000000000002001111111122222222000000003333333344444444555555550000000066666666
	llc lgr=0xa01 msg=042c006002000100000000000000000000000000000000000000000000000000000000000000000000000000
	llc lgr=0xa01 msg=253c0000000000000000000000000000000000000000000002000000fe80000000000000000000000000000efe80000000000000000000000000000f
	llc lgr=0xa01 msg=062c0030020000abcd0000000000001000020000bcde0000000000002000030000cdef000000000000300000
	llc lgr=0xa01 msg=072c0000000102030405060708090a0b0c0d0e0f000000000000000000000000000000000000000000000000
	llc lgr=0xa01 msg=092c002002400000dead0001dead000200000000000000000000000000000000000000000000000000000000
	llc lgr=0xa01 msg=2914000003010000000000010000000200000003
	EOF
	python3 - "$TLIB" >"$T/clc.spec" <<-'EOF' || return 1
	import sys; sys.path.insert(0, sys.argv[1]); from clc_messages import *
	print("tcp flags=S smcopt=1")
	print(tcp(proposal(0x1122334455667788, 0xfffe, [b"SMC-EID-1"],
	                   b"SEID", [(0xaabbccdd00112233, 0x0102)])))
	print(tcp(accept_smcd(2, 0x99, 0x1234567890abcdef, 0xfffe,
	                      b"SMC-EID-1", True), rev=True))
	print(tcp(accept_smcd(3, 0x98, 0x77, 0xfffe, b"SMC-EID-1", False)))
	print(tcp(accept_smcr(2, 4660, 0xabcdef12, b"E-R", True), rev=True))
	print(tcp(accept_smcr(3, 22136, 0x13, b"E-R", True)))
	print(tcp(decline(0x04000000, sync=True, diag2=(0x0303000b, 0, 0, 0))))
	EOF
	"$GEN" "$T/clc.pcap" <"$T/clc.spec" || return 1
	# dump merge: both hosts' captures, B's clock 2 s ahead: a connection
	# with the CLC Accept and Confirm, CDC messages each way (one lost,
	# one failed), and an end of B alone
	local acc conf
	acc=$(python3 -c "import sys; sys.path.insert(0, '$TLIB'); from clc_messages import *; print(accept_smcr(2, 0x22, 0xb1, b'E', False).hex())") || return 1
	conf=$(python3 -c "import sys; sys.path.insert(0, '$TLIB'); from clc_messages import *; print(accept_smcr(3, 0x11, 0xa1, b'E', False).hex())") || return 1
	"$GEN" -V 4 "$T/merge-a.pcap" <<-EOF || return 1
	tcp flags=PA ts=1700000000.001 src=10.0.0.2 dst=10.0.0.1 sport=5201 dport=40000 hex=$acc
	tcp flags=PA ts=1700000000.002 hex=$conf
	data token=0xa1 ts=1700000000.010 offset=0 len=10
	cdc token=0xa1 ts=1700000000.010 seqno=1 ctoken=0xb1
	cdc token=0xa1 ts=1700000000.011 seqno=2 ctoken=0xb1
	cdc token=0xa1 dir=rx ts=1700000000.030 seqno=1 ctoken=0xa1
	EOF
	"$GEN" -V 4 -s 2 "$T/merge-b.pcap" <<-EOF || return 1
	data token=0xb1 local=10.0.0.2 peer=10.0.0.1 lport=5201 pport=40000 dir=rx ts=1700000000.012 offset=0 len=10
	cdc token=0xb1 local=10.0.0.2 peer=10.0.0.1 lport=5201 pport=40000 dir=rx ts=1700000000.012 seqno=1 ctoken=0xb1
	cdc token=0xb1 local=10.0.0.2 peer=10.0.0.1 lport=5201 pport=40000 ts=1700000000.020 seqno=1 ctoken=0xa1
	cdc token=0xb1 local=10.0.0.2 peer=10.0.0.1 lport=5201 pport=40000 ts=1700000000.021 seqno=2 ctoken=0xa1 flags=0x04
	data token=0xb9 local=10.0.0.2 peer=10.0.0.4 lport=5201 pport=40005 dir=rx ts=1700000000.022 offset=0 len=9
	EOF
	# both ends of a connection: one entry with its peer, conn numbers
	"$GEN" "$T/pair.pcap" <<-EOF
	data mode=d token=0xa1 offset=0 len=100
	data mode=d token=0xb1 local=10.0.0.2 peer=10.0.0.1 lport=5201 pport=40000 dir=rx offset=0 len=100
	data mode=d token=0xb1 local=10.0.0.2 peer=10.0.0.1 lport=5201 pport=40000 offset=0 len=10
	data mode=d token=0xa1 dir=rx offset=0 len=10
	EOF
}

# collect_all DIR: each object's JSON in DIR/OBJECT.N.json
collect_all() {
	local d=$1 n=0
	mkdir -p "$d"
	fake_objects
	captures || return 1
	out() {
		local obj=$1
		shift
		n=$((n + 1))
		"$@" >"$d/$obj.$n.json" || {
			echo "failed: $*" >&3
			return 1
		}
	}
	local c
	for c in "basic all" "basic smcd" "basic smcr"; do
		# shellcheck disable=SC2086
		out socket env SOCKET_FAKE_DIR="$CASES/${c% *}" \
			LD_PRELOAD="$FAKE_SO" "$SMC" -j -d socket ${c#* } || return 1
	done
	out socket env SOCKET_FAKE_DIR="$CASES/real" LD_PRELOAD="$FAKE_SO" \
		"$SMC" -j socket listening || return 1
	out "socket reasons" "$SMC" -j socket reasons || return 1
	out "socket reasons" "$SMC" -j socket reasons 0x99000000 || return 1
	out stats "$SMC_FAKE" -j -d stats || return 1
	out "ueid show" "$SMC_FAKE" -j ueid show || return 1
	out info "$SMC_FAKE" -j info || return 1
	out device "$SMC_FAKE" -j device || return 1
	out linkgroup "$SMC_FAKE" -j -d linkgroup || return 1
	out "pnet show" "$SMC_FAKE" -j pnet show || return 1
	out "seid show" env SMC_FAKE_SEID=IBM-SYSZ-ISMSEID00000000D3B58561 \
		"$SMC_FAKE" -j seid show || return 1
	out "seid show" "$SMC_FAKE" -j seid show || return 1
	# smc rnics: the fake sysfs trees of helpers/rnics-sysfs.bash
	s390_tree "$T/sys-s390"
	x86_tree "$T/sys-x86"
	out rnics env SMC_DUMP_SYSFS_DIR="$T/sys-s390" "$SMC" -j rnics all || return 1
	out rnics env SMC_DUMP_SYSFS_DIR="$T/sys-s390" "$SMC" -j rnics ibdev || return 1
	out rnics env SMC_DUMP_SYSFS_DIR="$T/sys-x86" "$SMC" -j rnics || return 1
	out "dump read" "$SMC" -j -x dump read "$T/recs.pcap" || return 1
	out "dump read" "$SMC" -j -d dump read "$T/clc.pcap" || return 1
	out "dump stats" "$SMC" -j dump stats "$T/recs.pcap" || return 1
	out "dump analyze" "$SMC" -j dump analyze "$T/recs.pcap" || return 1
	out "dump follow" "$SMC" -j dump follow "$T/recs.pcap" "$d/follow" || return 1
	# a context file: each connection's process, netns and cgroup, one
	# line matched by token, one by its ends
	cat >"$T/recs.ctx" <<-'EOF'
	{"token":"0x00000001","local_address":"10.0.0.1","local_port":40000,"peer_address":"10.0.0.2","peer_port":5201,"inode":7,"pid":10,"comm":"app","netns":4026532001,"cgroup":"/a","first_seen":1.0}
	{"token":null,"local_address":"2001:db8::1","local_port":40000,"peer_address":"2001:db8::2","peer_port":5201,"inode":8,"pid":11,"comm":null,"netns":null,"cgroup":null,"first_seen":1.0}
	EOF
	out "dump read" "$SMC" -j -d dump read context "$T/recs.ctx" "$T/recs.pcap" || return 1
	out "dump stats" "$SMC" -j dump stats context "$T/recs.ctx" "$T/recs.pcap" || return 1
	out "dump analyze" "$SMC" -j dump analyze context "$T/recs.ctx" "$T/recs.pcap" || return 1
	out "dump graph" "$SMC" -j dump graph write "$d/g.png" "$T/recs.pcap" || return 1
	out "dump read" "$SMC" -j -d dump read "$T/pair.pcap" || return 1
	out "dump stats" "$SMC" -j dump stats "$T/pair.pcap" || return 1
	out "dump analyze" "$SMC" -j dump analyze "$T/pair.pcap" || return 1
	out "dump follow" "$SMC" -j dump follow "$T/pair.pcap" "$d/follow-pair" || return 1
	out "dump graph" "$SMC" -j dump graph write "$d/gp.png" "$T/pair.pcap" || return 1
	out "dump merge" "$SMC" -j dump merge "$T/merge-a.pcap" "$T/merge-b.pcap" || return 1
}

# first OBJECT: the first output of OBJECT
first() {
	local f
	for f in "$T/json/$1".*.json; do
		echo "$f"
		return
	done
}

# keys: python3 helpers/json_keys.py with the man page and the outputs
keys() {
	python3 "$H/json_keys.py" "$@" "$TOP/man/man8/smc.8" "$T/json"
}

@test "every object's JSON keys are listed for it in smc(8) JSON" {
	run keys check
	echo "$output"
	[ "$status" -eq 0 ]
}

@test "the check fails on a name the man page does not list, and on old spellings" {
	# smc(8) without "peer_port" in the list of dump analyze
	python3 - "$TOP/man/man8/smc.8" "$BATS_TEST_TMPDIR/smc.8" <<-'EOF'
	import sys
	s = open(sys.argv[1]).read()
	a = s.index('.B "dump analyze"')
	b = s.index(".TP", a)
	cut = s[a:b].replace(" peer_port", "")
	assert cut != s[a:b]
	open(sys.argv[2], "w").write(s[:a] + cut + s[b:])
	EOF
	run -1 python3 "$H/json_keys.py" check "$BATS_TEST_TMPDIR/smc.8" "$T/json"
	[[ "$output" == *"dump analyze: undocumented: peer_port"* ]]
	# an output with an old spelling and an odd mode value
	mkdir "$BATS_TEST_TMPDIR/old"
	echo '[{"mode": "smcd", "lport": 1, "peer_port": 2}]' \
		>"$BATS_TEST_TMPDIR/old/dump analyze.1.json"
	run -1 python3 "$H/json_keys.py" check "$TOP/man/man8/smc.8" \
		"$BATS_TEST_TMPDIR/old"
	[[ "$output" == *"dump analyze: undocumented: lport"* ]]
	[[ "$output" == *"dump analyze: other spellings: lport"* ]]
	[[ "$output" == *"dump analyze: mode values: smcd"* ]]
}

@test "one spelling: every mode value is SMC-R, SMC-D or TCP; ends and interfaces named one way" {
	# what the objects print for the same things, looked up by hand in
	# the inputs: the fake kernel's SMC-D socket 10.1.2.3:5201, device
	# port on interface 1, and the capture's connection 10.0.0.1:40000
	run -0 jq -r '.[0] | [.mode, .local_address, .local_port, .peer_port] | @tsv' "$(first "socket")"
	[ "$output" = "SMC-D	10.1.2.3	5201	40000" ]
	run -0 jq -r '[.[] | .mode] | unique | join(" ")' "$(first "device")"
	[ "$output" = "SMC-D SMC-R" ]
	run -0 jq -r '.[2].ports[0] | [.interface, .ibdev // "-", .ibport] | @tsv' "$(first "device")"
	[ "$output" = "1	-	1" ]
	run -0 jq -r '.[0].connections[0] | [.mode, .local_address, .local_port, .peer_address, .peer_port] | @tsv' "$(first "dump stats")"
	[ "$output" = "SMC-R	10.0.0.1	40000	10.0.0.2	5201" ]
	run -0 jq -r '.[0].connections[0] | [.mode, .local_address, .peer_port] | @tsv' "$(first "dump analyze")"
	[ "$output" = "SMC-R	10.0.0.1	5201" ]
	# dump read: frame 2 is the rx CDC, peer > local
	run -0 jq -r '.[1] | [.mode, .dir, .src_address, .src_port, .dst_address, .dst_port] | @tsv' "$(first "dump read")"
	[ "$output" = "SMC-R	rx	10.0.0.2	5201	10.0.0.1	40000" ]
	run -0 jq -r '[.[] | select(.mode == "SMC-D")] | length' "$(first "dump read")"
	[ "$output" -eq 2 ]
}
