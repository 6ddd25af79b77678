#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of smc socket / smcss and of the one table of CLC
# decline / fallback codes. The host kernel has no SMC: helpers/socket-fake.c,
# preloaded, plays the NETLINK_SOCK_DIAG kernel and answers with the canned
# messages helpers/socket-case.py writes (one case is a capture of the real
# 6.12 kernel). The expected lines below were worked out from those cases
# by hand, field by field, not copied from the program's output.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_file smc || return 1
	export FAKE_SO="$H/socket-fake.so"
	export CASES="$BATS_FILE_TMPDIR/cases"
	export SMCSS="$BATS_FILE_TMPDIR/bin/smcss"

	host_need testsuite/host/helpers socket-fake.so smc-fake || return 1
	local c
	for c in $(python3 "$H/socket-case.py" list); do
		python3 "$H/socket-case.py" "$c" "$CASES/$c"
	done
	mkdir -p "$BATS_FILE_TMPDIR/bin"
	ln -s "$SMC" "$SMCSS"
}

setup() {
	export SOCKET_FAKE_LOG="$BATS_TEST_TMPDIR/requests"
	unset SOCKET_FAKE_ERR SOCKET_FAKE_SOCKET_ERR SOCKET_FAKE_CHUNK
	: >"$SOCKET_FAKE_LOG"
}

# fake CASE CMD...: CMD against the fake kernel answering with CASE
fake() {
	local c=$1
	shift
	SOCKET_FAKE_DIR="$CASES/$c" LD_PRELOAD="$FAKE_SO" "$@"
}

# squeeze: blanks squeezed, so that column widths do not matter
squeeze() {
	tr -s ' '
}

# the name of interface index 1 as the host knows it (the text column)
if1() {
	local d
	for d in /sys/class/net/*; do
		[ "$(cat "$d/ifindex")" = 1 ] && { basename "$d"; return; }
	done
	echo 1
}

HEADER="State UID Inode Local Address Peer Address Intf Mode"

# ------------------------------------------------------------ text

@test "socket: connected sockets, one line each, IPv4 and IPv6, every mode" {
	run -0 --separate-stderr fake basic "$SMC" socket
	[ -z "$stderr" ]
	local t
	t="$(printf '%s\n' "$output" | squeeze)"
	echo "$t"
	[ "$(printf '%s\n' "$t" | wc -l)" -eq 6 ]
	[ "$(sed -n 1p <<<"$t")" = "$HEADER" ]
	[ "$(sed -n 2p <<<"$t")" = "ACTIVE 1000 4711 10.1.2.3:5201 10.1.2.4:40000 * SMC-D" ]
	[ "$(sed -n 3p <<<"$t")" = "ACTIVE 0 4712 [fd00::1]:5202 [fd00::2]:40001 $(if1) SMC-R" ]
	[ "$(sed -n 4p <<<"$t")" = "ACTIVE 65534 4713 10.1.2.3:5203 10.1.2.5:40002 * TCP 0x05000000 PEERDECL peer 0x03030008 NOUEID" ]
	[ "$(sed -n 5p <<<"$t")" = "ACTIVE 0 4714 10.1.2.3:40003 10.1.2.6:5204 * TCP 0x03010000 PEERNOSMC" ]
	# codes 6.12 does not define: hex, and "?" for the name
	[ "$(sed -n 6p <<<"$t")" = "APPCLOSEWAIT1 0 4715 10.1.2.3:5205 10.1.2.7:40004 * TCP 0x0303000c ? peer 0x7f000001 ?" ]
	# one dump of AF_SMC, no extension asked; all addresses were there,
	# so no TCP dump
	[ "$(cat "$SOCKET_FAKE_LOG")" = "smc family=43 ext=0x00 flags=0x301" ]
}

@test "socket: the columns line up under the header" {
	run -0 fake basic "$SMC" socket all
	local pos
	# "Mode" starts where SMC-D, SMC-R, TCP and - start
	pos=$(awk 'NR == 1 { print index($0, "Mode") }' <<<"$output")
	[ "$pos" -gt 0 ]
	awk -v p="$pos" 'NR > 1 && substr($0, p, 1) !~ /[ST-]/ { print "line " NR ": " $0; bad = 1 } END { exit bad }' <<<"$output"
	pos=$(awk 'NR == 1 { print index($0, "Peer Address") }' <<<"$output")
	awk -v p="$pos" 'NR > 1 && substr($0, p - 1, 1) != " " { bad = 1 } END { exit bad }' <<<"$output"
}

@test "socket all / listening: listeners and sockets being set up" {
	run -0 fake basic "$SMC" socket all
	local t
	t="$(printf '%s\n' "$output" | squeeze)"
	[ "$(printf '%s\n' "$t" | wc -l)" -eq 8 ]
	[ "$(sed -n 7p <<<"$t")" = "LISTEN 0 4700 10.1.2.3:5201 * * -" ]
	[ "$(sed -n 8p <<<"$t")" = "INIT 0 4701 *:0 * * -" ]
	run -0 fake basic "$SMC" socket show listening
	t="$(printf '%s\n' "$output" | squeeze)"
	[ "$t" = "$HEADER
LISTEN 0 4700 10.1.2.3:5201 * * -" ]
	# abbreviations, iproute2 style
	run -0 fake basic "$SMC" so sh l
	[ "$(printf '%s\n' "$output" | squeeze)" = "$t" ]
	run -0 fake basic "$SMC" so l
	[ "$(printf '%s\n' "$output" | squeeze)" = "$t" ]
}

@test "socket -d: token, buffer sizes, cursors and flags by name" {
	run -0 fake basic "$SMC" -d socket all
	local t
	t="$(printf '%s\n' "$output" | squeeze)"
	echo "$t"
	[[ "$t" == *"ACTIVE 1000 4711 10.1.2.3:5201 10.1.2.4:40000 * SMC-D
	shutdown <-> token 0x00001004 sndbuf 65536 rmbe 131072 peer_rmbe 262144
	rx prod 1:100 cons 1:50 flags 0x80(write_blocked)/0x00
	tx prod 2:200 cons 0:7 flags 0x10(cons_curs_upd_req)/0x40(peer_conn_closed) prep 3:300 sent 3:250 fin 3:240
ACTIVE 0 4712 "* ]]
	# sk_shutdown 2 (SEND_SHUTDOWN): no more writing
	[[ "$t" == *"APPCLOSEWAIT1 0 4715 10.1.2.3:5205 10.1.2.7:40004 * TCP 0x0303000c ? peer 0x7f000001 ?
	shutdown <-W"$'\n'* ]]
	# SMC_DIAG_CONNINFO asked for: bit 0 of diag_ext
	[ "$(cat "$SOCKET_FAKE_LOG")" = "smc family=43 ext=0x01 flags=0x301" ]
}

@test "socket smcd: SMC-D sockets only, with DMB, GIDs and tokens" {
	run -0 fake basic "$SMC" socket smcd
	local t
	t="$(printf '%s\n' "$output" | squeeze)"
	echo "$t"
	[ "$t" = "$HEADER
ACTIVE 1000 4711 10.1.2.3:5201 10.1.2.4:40000 * SMC-D
	smcd linkid 0x00000100 gid 0x5555666677778888 gid_ext 0xddddeeeeffff0000 token 0x0123456789abcdef peer_gid 0x1111222233334444 peer_gid_ext 0x9999aaaabbbbcccc peer_token 0xfedcba9876543210" ]
	# SMC_DIAG_DMBINFO (4): bit 3
	[ "$(cat "$SOCKET_FAKE_LOG")" = "smc family=43 ext=0x08 flags=0x301" ]
	: >"$SOCKET_FAKE_LOG"
	run -0 fake basic "$SMC" socket smcd -d
	[ "$(cat "$SOCKET_FAKE_LOG")" = "smc family=43 ext=0x09 flags=0x301" ]
}

@test "socket smcr: SMC-R sockets only, with their link" {
	run -0 fake basic "$SMC" socket smcr
	local t
	t="$(printf '%s\n' "$output" | squeeze)"
	echo "$t"
	[ "$t" = "$HEADER
ACTIVE 0 4712 [fd00::1]:5202 [fd00::2]:40001 $(if1) SMC-R
	smcr role server ibdev rxe0 port 1 link_id 2 gid fe80:0000:0000:0000:0000:0000:0000:0001 peer_gid fe80:0000:0000:0000:0000:0000:0000:0002" ]
	# SMC_DIAG_LGRINFO (2): bit 1
	[ "$(cat "$SOCKET_FAKE_LOG")" = "smc family=43 ext=0x02 flags=0x301" ]
}

@test "socket: a DMB info of kernels before 6.10 (no _ext GIDs), unknown attributes skipped" {
	run -0 --separate-stderr fake oldkernel "$SMC" socket smcd
	[ -z "$stderr" ]
	[ "$(sed -n 3p <<<"$output" | squeeze)" = "	smcd linkid 0x00000007 gid 0x0000000000000002 token 0x0000000000000003 peer_gid 0x0000000000000001 peer_token 0x0000000000000004" ]
}

# -------------------------------------------- IPPROTO_SMC addresses

@test "socket: addresses of IPPROTO_SMC sockets from the TCP sockets under them" {
	run -0 --separate-stderr fake inet "$SMC" socket all
	[ -z "$stderr" ]
	local t
	t="$(printf '%s\n' "$output" | squeeze)"
	echo "$t"
	[ "$t" = "$HEADER
ACTIVE 0 10 127.0.0.1:41000 127.0.0.2:6001 * SMC-D
ACTIVE 0 11 127.0.0.2:6001 127.0.0.1:41000 * SMC-D
ACTIVE 0 12 [fd00::1]:42000 [fd00::2]:6002 * TCP 0x05000000 PEERDECL peer 0x03030008 NOUEID
ACTIVE 0 13 [fd00::2]:6002 [fd00::1]:42000 * TCP 0x03030008 NOUEID
ACTIVE 0 14 *:6003 *:43000 * SMC-D
ACTIVE 0 15 *:44000 *:6004 * SMC-D
LISTEN 0 16 [::]:6002 * * -
LISTEN 0 17 127.0.0.2:6001 * * -" ]
	# TCP dumps of both families, every state but TIME_WAIT (6) and
	# NEW_SYN_RECV (12)
	[ "$(cat "$SOCKET_FAKE_LOG")" = "smc family=43 ext=0x00 flags=0x301
tcp family=2 protocol=6 states=0xffffefbf flags=0x301
tcp family=10 protocol=6 states=0xffffefbf flags=0x301" ]
}

@test "socket: TCP dump refused: a warning, the addresses unknown, exit 0" {
	SOCKET_FAKE_ERR=2:13 run -0 --separate-stderr fake inet "$SMC" socket
	[ "$stderr" = "Warning: cannot dump the TCP sockets (Permission denied), addresses of IPPROTO_SMC sockets unknown" ]
	[ "$(sed -n 2p <<<"$output" | squeeze)" = "ACTIVE 0 10 *:41000 *:6001 * SMC-D" ]
}

# ------------------------------------------------- the real kernel

@test "socket: answers captured from the 6.12 kernel" {
	run -0 fake real "$SMC" socket
	local t
	t="$(printf '%s\n' "$output" | squeeze)"
	echo "$t"
	[ "$t" = "$HEADER
ACTIVE 0 180 127.0.0.1:36868 127.0.0.1:6003 * TCP 0x03010000 PEERNOSMC
ACTIVE 0 149 [::1]:47252 [::1]:6002 * SMC-D" ]
	run -0 fake real "$SMC" -d socket smcd
	t="$(printf '%s\n' "$output" | squeeze)"
	echo "$t"
	[ "$t" = "$HEADER
ACTIVE 0 149 [::1]:47252 [::1]:6002 * SMC-D
	shutdown <-> token 0x00000004 sndbuf 65504 rmbe 65504 peer_rmbe 65504
	rx prod 0:0 cons 0:0 flags 0x00/0x00
	tx prod 0:1000 cons 0:0 flags 0x00/0x00 prep 0:1000 sent 0:1000 fin 0:0
	smcd linkid 0x00000100 gid 0x6c4ead43b549edbc gid_ext 0x39c2ef2bcb379583 token 0x701ade5e67db3447 peer_gid 0x6c4ead43b549edbc peer_gid_ext 0x39c2ef2bcb379583 peer_token 0x87b6e9616317d03d" ]
}

# ------------------------------------------------------------ JSON

@test "socket -j: every field under its documented name" {
	run -0 fake basic "$SMC" -j -d socket all
	python3 - "$output" <<'EOF'
import json, sys
s = json.loads(sys.argv[1])
assert len(s) == 7, len(s)
d, r, f1, f2, f3, l, i = s
assert d == {
    "state": "ACTIVE", "uid": 1000, "inode": 4711, "family": "inet",
    "local_address": "10.1.2.3", "local_port": 5201,
    "peer_address": "10.1.2.4", "peer_port": 40000, "interface": 0,
    "mode": "SMC-D", "shutdown": {"read": False, "write": False},
    "token": "0x00001004", "sndbuf_size": 65536, "rmbe_size": 131072,
    "peer_rmbe_size": 262144,
    "rx_prod": {"wrap": 1, "count": 100}, "rx_cons": {"wrap": 1, "count": 50},
    "rx_prod_flags": ["write_blocked"], "rx_conn_state_flags": [],
    "tx_prod": {"wrap": 2, "count": 200}, "tx_cons": {"wrap": 0, "count": 7},
    "tx_prod_flags": ["cons_curs_upd_req"],
    "tx_conn_state_flags": ["peer_conn_closed"],
    "tx_prep": {"wrap": 3, "count": 300}, "tx_sent": {"wrap": 3, "count": 250},
    "tx_fin": {"wrap": 3, "count": 240}}, d
assert r["family"] == "inet6" and r["local_address"] == "fd00::1", r
assert r["interface"] == 1 and "ifname" in r and r["mode"] == "SMC-R", r
assert f1["uid"] == 65534 and f1["mode"] == "TCP", f1
assert f1["fallback"] == {"reason": "0x05000000", "reason_name": "PEERDECL",
                          "peer_diagnosis": "0x03030008",
                          "peer_diagnosis_name": "NOUEID"}, f1
assert f2["fallback"] == {"reason": "0x03010000", "reason_name": "PEERNOSMC",
                          "peer_diagnosis": "0x00000000",
                          "peer_diagnosis_name": None}, f2
assert f3["state"] == "APPCLOSEWAIT1", f3
assert f3["shutdown"] == {"read": False, "write": True}, f3
assert f3["fallback"] == {"reason": "0x0303000c", "reason_name": None,
                          "peer_diagnosis": "0x7f000001",
                          "peer_diagnosis_name": None}, f3
# no peer for a listener, no mode yet
assert l["state"] == "LISTEN" and l["mode"] is None, l
assert "peer_address" not in l and l["local_port"] == 5201, l
assert i["state"] == "INIT" and i["local_address"] is None, i
assert i["family"] is None, i
EOF
}

@test "socket -j: smcd and smcr objects, unknown addresses null" {
	run -0 fake basic "$SMC" -j socket smcd
	python3 -c 'import json, sys
s = json.loads(sys.argv[1])
assert len(s) == 1
assert s[0]["smcd"] == {"linkgroup_id": "0x00000100", "gid": "0x5555666677778888",
    "gid_ext": "0xddddeeeeffff0000", "token": "0x0123456789abcdef",
    "peer_gid": "0x1111222233334444", "peer_gid_ext": "0x9999aaaabbbbcccc",
    "peer_token": "0xfedcba9876543210"}, s[0]["smcd"]
assert "token" not in s[0], "no -d, no conninfo"' "$output"
	run -0 fake basic "$SMC" socket smcr -j
	python3 -c 'import json, sys
s = json.loads(sys.argv[1])
assert s[0]["smcr"] == {"role": "server", "ibdev": "rxe0", "ibport": 1,
    "link_id": 2, "gid": "fe80:0000:0000:0000:0000:0000:0000:0001",
    "peer_gid": "fe80:0000:0000:0000:0000:0000:0000:0002"}, s[0]["smcr"]' "$output"
	run -0 fake inet "$SMC" -j socket
	python3 -c 'import json, sys
s = {x["inode"]: x for x in json.loads(sys.argv[1])}
assert s[14]["local_address"] is None and s[14]["peer_address"] is None
assert s[14]["family"] is None and s[14]["local_port"] == 6003
assert s[11]["family"] == "inet" and s[11]["peer_address"] == "127.0.0.1"' "$output"
}

@test "socket -j -p: valid JSON, the same as compact; empty: []" {
	fake basic "$SMC" -j -d socket all >"$BATS_TEST_TMPDIR/c.json"
	fake basic "$SMC" -p -j -d socket all >"$BATS_TEST_TMPDIR/p.json"
	python3 -c 'import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a == b' "$BATS_TEST_TMPDIR/c.json" "$BATS_TEST_TMPDIR/p.json"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/p.json")" -gt 50 ]
	run -0 fake empty "$SMC" -j socket
	[ "$output" = "[]" ]
	run -0 fake empty "$SMC" socket
	[ "$(squeeze <<<"$output")" = "$HEADER" ]
}

@test "socket: 300 sockets over many datagrams" {
	run -0 fake many "$SMC" socket
	[ "${#lines[@]}" -eq 301 ]
	[ "$(squeeze <<<"${lines[300]}")" = "ACTIVE 0 1299 10.0.0.1:5201 10.0.0.2:30299 * SMC-D" ]
	SOCKET_FAKE_CHUNK=1000 run -0 fake many "$SMC" -j socket
	python3 -c 'import json, sys
s = json.loads(sys.argv[1])
assert [x["inode"] for x in s] == list(range(1000, 1300))' "$output"
}

# ---------------------------------------------------------- errors

@test "socket: no smc_diag in the kernel (ENOENT), exit 1" {
	SOCKET_FAKE_ERR=43:2 run -1 --separate-stderr fake basic "$SMC" socket
	[ -z "$output" ]
	[ "$stderr" = "Error: SMC socket diagnostics are not available in the running kernel (load the smc_diag module or use a kernel with CONFIG_SMC_DIAG)" ]
}

@test "socket: other kernel errors, netlink socket failure, exit 1" {
	SOCKET_FAKE_ERR=43:1 run -1 --separate-stderr fake basic "$SMC" socket
	[ -z "$output" ]
	[ "$stderr" = "Error: cannot dump the SMC sockets: Operation not permitted" ]
	SOCKET_FAKE_SOCKET_ERR=93 run -1 --separate-stderr fake basic "$SMC" -j socket
	[ -z "$output" ]
	[ "$stderr" = "Error: cannot open a NETLINK_SOCK_DIAG socket: Protocol not supported" ]
}

@test "socket: malformed answers are reported, exit 1" {
	run -1 --separate-stderr fake short "$SMC" socket
	[ -z "$output" ]
	[ "$stderr" = "Error: malformed answer from the kernel (smc_diag_msg)" ]
	run -1 --separate-stderr fake shortattr "$SMC" socket
	[ -z "$output" ]
	[ "$stderr" = "Error: malformed answer from the kernel (SMC_DIAG_CONNINFO)" ]
}

@test "socket: on this host (no SMC or no smc_diag) it fails cleanly" {
	[ -d /sys/module/smc_diag ] && skip "the host has smc_diag"
	run -1 --separate-stderr "$SMC" socket
	[ -z "$output" ]
	[[ "$stderr" == "Error: "* ]]
}

# ----------------------------------------------------------- usage

@test "socket help and usage errors" {
	run -0 "$SMC" socket help
	[[ "${lines[0]}" == "Usage: smc [ -j [ -p ] ] [ -d ] socket [ show ] [ all | listening ]" ]]
	run -0 "$SMC" help socket
	[[ "${lines[0]}" == "Usage: smc "*socket* ]]
	run -2 --separate-stderr "$SMC" socket bogus
	[ "$stderr" = 'Error: unknown argument "bogus", try "smc socket help".' ]
	run -2 --separate-stderr "$SMC" socket smcd smcr
	[ "$stderr" = 'Error: "smcd" together with "smcr" is not supported, try "smc socket help".' ]
	run -2 --separate-stderr "$SMC" socket listening all
	[ "$stderr" = 'Error: "listening" together with "all" is not supported, try "smc socket help".' ]
	run -2 --separate-stderr "$SMC" socket listening smcd
	[ "$stderr" = 'Error: "listening" together with "smcd" is not supported, try "smc socket help".' ]
	run -2 --separate-stderr "$SMC" -d socket listening
	[ "$stderr" = 'Error: "listening" together with "-d" is not supported, try "smc socket help".' ]
	# nothing was asked of the kernel
	[ ! -s "$SOCKET_FAKE_LOG" ]
}

# ----------------------------------------------------------- smcss
#
# smcss prints what smcss of smc-tools 1.8.5 prints, byte for byte. The
# expected texts below follow its formats (smcss.c of smc-tools 1.8.5):
#   header      "State          UID   Inode   Local Address           "
#               "Peer Address            Intf Mode " then per option
#   state       %-14s, then a blank; state 24 is APPFINCLOSEWAIT1, unknown
#               ones "%#x?"
#   UID Inode   %05d %07llu (the uid as a signed int)
#   addresses   ADDR:PORT, %-23s and a blank; IPv4 when bytes 4..15 are
#               zero, else IPv6 without brackets; without -W cut to 23
#               characters, ".." before ":PORT"
#   Intf        %04x of the bound interface index
#   Mode        "SMCD " / "SMCR " (any mode but 1 and 2), or "TCP " and
#               0x%08x of the reason, "/0x%08x" of the peer's if set
# An INIT socket ends after the inode, a LISTEN one after its address, a
# CLOSED one after Intf, a fallback after its codes. Lines end in "|" here
# so that trailing blanks show; smcss_is strips it.

# smcss_is: $output equals stdin, each line's final "|" removed
smcss_is() {
	local want
	want="$(sed 's/|$//')"
	[ "$output" = "$want" ] && return 0
	diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$output") | cat -A
	return 1
}

@test "smcss: connected sockets as smc-tools 1.8.5 prints them" {
	run -0 --separate-stderr fake basic "$SMCSS"
	[ -z "$stderr" ]
	smcss_is <<'EOF'
State          UID   Inode   Local Address           Peer Address            Intf Mode |
ACTIVE         01000 0004711 10.1.2.3:5201           10.1.2.4:40000          0000 SMCD |
ACTIVE         00000 0004712 fd00::1:5202            fd00::2:40001           0001 SMCR |
ACTIVE         65534 0004713 10.1.2.3:5203           10.1.2.5:40002          0000 TCP 0x05000000/0x03030008|
ACTIVE         00000 0004714 10.1.2.3:40003          10.1.2.6:5204           0000 TCP 0x03010000|
APPCLOSEWAIT1  00000 0004715 10.1.2.3:5205           10.1.2.7:40004          0000 TCP 0x0303000c/0x7f000001|
EOF
	# one dump of AF_SMC, nothing else
	[ "$(cat "$SOCKET_FAKE_LOG")" = "smc family=43 ext=0x00 flags=0x301" ]
}

@test "smcss -a / -l: listeners and sockets being set up" {
	run -0 fake basic "$SMCSS" -a
	smcss_is <<'EOF'
State          UID   Inode   Local Address           Peer Address            Intf Mode |
ACTIVE         01000 0004711 10.1.2.3:5201           10.1.2.4:40000          0000 SMCD |
ACTIVE         00000 0004712 fd00::1:5202            fd00::2:40001           0001 SMCR |
ACTIVE         65534 0004713 10.1.2.3:5203           10.1.2.5:40002          0000 TCP 0x05000000/0x03030008|
ACTIVE         00000 0004714 10.1.2.3:40003          10.1.2.6:5204           0000 TCP 0x03010000|
APPCLOSEWAIT1  00000 0004715 10.1.2.3:5205           10.1.2.7:40004          0000 TCP 0x0303000c/0x7f000001|
LISTEN         00000 0004700 10.1.2.3:5201           |
INIT           00000 0004701 |
EOF
	run -0 fake basic "$SMCSS" --listening
	smcss_is <<'EOF'
State          UID   Inode   Local Address           Peer Address            Intf Mode |
LISTEN         00000 0004700 10.1.2.3:5201           |
EOF
	run -0 fake basic "$SMCSS" --all
	[ "${#lines[@]}" -eq 8 ]
}

@test "smcss -d: shutdown, token, buffer sizes, cursors and flags as columns" {
	run -0 fake basic "$SMCSS" -d
	smcss_is <<'EOF'
State          UID   Inode   Local Address           Peer Address            Intf Mode Shutd Token    Sndbuf   Rcvbuf   Peerbuf  rxprod-Cursor rxcons-Cursor rxFlags txprod-Cursor txcons-Cursor txFlags txprep-Cursor txsent-Cursor txfin-Cursor  |
ACTIVE         01000 0004711 10.1.2.3:5201           10.1.2.4:40000          0000 SMCD  <->  00001004 00010000 00020000 00040000 0001:00000064 0001:00000032 80:00   0002:000000c8 0000:00000007 10:40   0003:0000012c 0003:000000fa 0003:000000f0 |
ACTIVE         00000 0004712 fd00::1:5202            fd00::2:40001           0001 SMCR  <->  |
ACTIVE         65534 0004713 10.1.2.3:5203           10.1.2.5:40002          0000 TCP 0x05000000/0x03030008|
ACTIVE         00000 0004714 10.1.2.3:40003          10.1.2.6:5204           0000 TCP 0x03010000|
APPCLOSEWAIT1  00000 0004715 10.1.2.3:5205           10.1.2.7:40004          0000 TCP 0x0303000c/0x7f000001|
EOF
	# SMC_DIAG_CONNINFO asked for: bit 0 of diag_ext
	[ "$(cat "$SOCKET_FAKE_LOG")" = "smc family=43 ext=0x01 flags=0x301" ]
}

@test "smcss -D: SMC-D sockets only, GIDs, DMB tokens and link ID as columns" {
	run -0 fake basic "$SMCSS" -D
	smcss_is <<'EOF'
State          UID   Inode   Local Address           Peer Address            Intf Mode GID              Token            Peer-GID         Peer-Token       Linkid|
ACTIVE         01000 0004711 10.1.2.3:5201           10.1.2.4:40000          0000 SMCD 5555666677778888 0123456789abcdef 1111222233334444 fedcba9876543210 00000100 |
EOF
	[ "$(cat "$SOCKET_FAKE_LOG")" = "smc family=43 ext=0x08 flags=0x301" ]
	# with -d the debug columns come first; the 6.12 kernel's answer
	# (an IPPROTO_SMC socket: the kernel sent no address, smcss shows
	# zeros)
	run -0 fake real "$SMCSS" --smcd --debug
	smcss_is <<'EOF'
State          UID   Inode   Local Address           Peer Address            Intf Mode Shutd Token    Sndbuf   Rcvbuf   Peerbuf  rxprod-Cursor rxcons-Cursor rxFlags txprod-Cursor txcons-Cursor txFlags txprep-Cursor txsent-Cursor txfin-Cursor  GID              Token            Peer-GID         Peer-Token       Linkid|
ACTIVE         00000 0000149 0.0.0.0:47252           0.0.0.0:6002            0000 SMCD  <->  00000004 0000ffe0 0000ffe0 0000ffe0 0000:00000000 0000:00000000 00:00   0000:000003e8 0000:00000000 00:00   0000:000003e8 0000:000003e8 0000:00000000 6c4ead43b549edbc 701ade5e67db3447 6c4ead43b549edbc 87b6e9616317d03d 00000100 |
EOF
}

@test "smcss -R: SMC-R sockets only, role, device, port, link and GIDs as columns" {
	run -0 fake basic "$SMCSS" -R
	smcss_is <<'EOF'
State          UID   Inode   Local Address           Peer Address            Intf Mode Role IB-device       Port Linkid GID                                      Peer-GID|
ACTIVE         00000 0004712 fd00::1:5202            fd00::2:40001           0001 SMCR SERV rxe0            01   02     fe80:0000:0000:0000:0000:0000:0000:0001  fe80:0000:0000:0000:0000:0000:0000:0002|
EOF
	[ "$(cat "$SOCKET_FAKE_LOG")" = "smc family=43 ext=0x02 flags=0x301" ]
	run -0 fake basic "$SMCSS" -R -d
	smcss_is <<'EOF'
State          UID   Inode   Local Address           Peer Address            Intf Mode Shutd Token    Sndbuf   Rcvbuf   Peerbuf  rxprod-Cursor rxcons-Cursor rxFlags txprod-Cursor txcons-Cursor txFlags txprep-Cursor txsent-Cursor txfin-Cursor  Role IB-device       Port Linkid GID                                      Peer-GID|
ACTIVE         00000 0004712 fd00::1:5202            fd00::2:40001           0001 SMCR  <->  SERV rxe0            01   02     fe80:0000:0000:0000:0000:0000:0000:0001  fe80:0000:0000:0000:0000:0000:0000:0002|
EOF
}

@test "smcss: long addresses cut to 23 characters unless -W; smc socket never cuts" {
	run -0 fake long "$SMCSS"
	# 16 characters of the address, "..", ":", a 4-digit port; with a
	# 5-digit port 15
	smcss_is <<'EOF'
State          UID   Inode   Local Address           Peer Address            Intf Mode |
ACTIVE         00000 0000001 2001:db8:1234:56..:5201 2001:db8:1234:5..:40000 0000 SMCD |
ACTIVE         00000 0000002 192.168.100.200:65535   10.0.0.2:1              0000 SMCR |
EOF
	run -0 fake long "$SMCSS" -W
	smcss_is <<'EOF'
State          UID   Inode   Local Address           Peer Address            Intf Mode |
ACTIVE         00000 0000001 2001:db8:1234:5678:9abc:def0:1234:5678:5201 2001:db8:1234:5678:9abc:def0:1234:1:40000 0000 SMCD |
ACTIVE         00000 0000002 192.168.100.200:65535   10.0.0.2:1              0000 SMCR |
EOF
	run -0 fake long "$SMC" socket
	[ "$(sed -n 2p <<<"$output" | squeeze)" = "ACTIVE 0 1 [2001:db8:1234:5678:9abc:def0:1234:5678]:5201 [2001:db8:1234:5678:9abc:def0:1234:1]:40000 * SMC-D" ]
}

@test "smcss: closing states, fallbacks without codes or with the peer's only, wide numbers" {
	run -0 fake smcss "$SMCSS" -a -d
	# state 24; uid 123456 and inode 12345678 wider than their columns;
	# interface 26; both directions shut down
	# CLOSED: nothing after Intf
	# no SMC_DIAG_FALLBACK (before Linux 5.10): "TCP " alone
	# only the peer's code: the local one as 0x00000000
	# state 3 unknown; 2001:db8:: has bytes 4..15 zero: smcss takes it
	# for IPv4 32.1.13.184
	# uid 4294967294 as a signed int; the address of 24 characters cut
	smcss_is <<'EOF'
State          UID   Inode   Local Address           Peer Address            Intf Mode Shutd Token    Sndbuf   Rcvbuf   Peerbuf  rxprod-Cursor rxcons-Cursor rxFlags txprod-Cursor txcons-Cursor txFlags txprep-Cursor txsent-Cursor txfin-Cursor  |
APPFINCLOSEWAIT1 123456 12345678 10.1.2.3:5201           10.1.2.4:40000          001a SMCD  R-W  |
CLOSED         00000 0000007 10.1.2.3:5202           10.1.2.4:40001          0000 |
PEERCLOSEWAIT1 00000 0000008 fd00::1:5203            fd00::2:40002           0000 TCP |
ACTIVE         00000 0000009 10.1.2.3:5204           10.1.2.5:40003          0000 TCP 0x00000000/0x03030008|
0x3?           00000 0000010 32.1.13.184:5205        10.1.2.6:40004          0000 SMCR  R->  |
LISTEN         -0002 0000011 fd00:1:2:3:4:5:6..:5206 |
EOF
	run -0 fake smcss "$SMCSS" -l -W
	smcss_is <<'EOF'
State          UID   Inode   Local Address           Peer Address            Intf Mode |
LISTEN         -0002 0000011 fd00:1:2:3:4:5:6:17:5206 |
EOF
}

@test "smcss: IPPROTO_SMC sockets show the addresses the kernel sent (none), no TCP dump" {
	run -0 fake inet "$SMCSS"
	smcss_is <<'EOF'
State          UID   Inode   Local Address           Peer Address            Intf Mode |
ACTIVE         00000 0000010 0.0.0.0:41000           0.0.0.0:6001            0000 SMCD |
ACTIVE         00000 0000011 0.0.0.0:6001            0.0.0.0:41000           0000 SMCD |
ACTIVE         00000 0000012 0.0.0.0:42000           0.0.0.0:6002            0000 TCP 0x05000000/0x03030008|
ACTIVE         00000 0000013 0.0.0.0:6002            0.0.0.0:42000           0000 TCP 0x03030008|
ACTIVE         00000 0000014 0.0.0.0:6003            0.0.0.0:43000           0000 SMCD |
ACTIVE         00000 0000015 0.0.0.0:44000           0.0.0.0:6004            0000 SMCD |
EOF
	[ "$(cat "$SOCKET_FAKE_LOG")" = "smc family=43 ext=0x00 flags=0x301" ]
}

@test "smcss: no socket, many sockets" {
	run -0 fake empty "$SMCSS"
	smcss_is <<'EOF'
State          UID   Inode   Local Address           Peer Address            Intf Mode |
EOF
	run -0 fake many "$SMCSS"
	[ "${#lines[@]}" -eq 301 ]
	[ "${lines[300]}" = "ACTIVE         00000 0001299 10.0.0.1:5201           10.0.0.2:30299          0000 SMCD " ]
}

@test "smcss: kernel errors exit 1, the header printed as smcss does" {
	SOCKET_FAKE_ERR=43:2 run -1 --separate-stderr fake basic "$SMCSS"
	smcss_is <<'EOF'
State          UID   Inode   Local Address           Peer Address            Intf Mode |
EOF
	[ "$stderr" = "Error: SMC socket diagnostics are not available in the running kernel (load the smc_diag module or use a kernel with CONFIG_SMC_DIAG)" ]
	SOCKET_FAKE_SOCKET_ERR=93 run -1 --separate-stderr fake basic "$SMCSS"
	[ -z "$output" ]
	[ "$stderr" = "Error: cannot open a NETLINK_SOCK_DIAG socket: Protocol not supported" ]
}

@test "smcss: version, help, and smcss's option rules (usage errors exit 1)" {
	run -0 "$SMCSS" -v
	[ "$output" = "smcss utility, smc-dump-0.1" ]
	run -0 "$SMCSS" --version
	[ "$output" = "smcss utility, smc-dump-0.1" ]
	run -0 --separate-stderr "$SMCSS" --help
	[ "${lines[0]}" = "Usage: smcss [ OPTIONS ]" ]
	[ -z "$stderr" ]
	run -0 "$SMCSS" -h
	[ "${lines[0]}" = "Usage: smcss [ OPTIONS ]" ]
	# smcss's order of complaints: -D with -R, -l with -d, -a, -R, -D
	run -1 --separate-stderr "$SMCSS" -l -D -R
	[ "${stderr_lines[0]}" = 'Error: "--smcd" together with "--smcr" is not supported, try "smcss --help".' ]
	[ "${stderr_lines[1]}" = "Usage: smcss [ OPTIONS ]" ]
	[ -z "$output" ]
	run -1 --separate-stderr "$SMCSS" -a -l -d
	[ "${stderr_lines[0]}" = 'Error: "--listening" together with "--debug" is not supported, try "smcss --help".' ]
	run -1 --separate-stderr "$SMCSS" -l -a
	[ "${stderr_lines[0]}" = 'Error: "--listening" together with "--all" is not supported, try "smcss --help".' ]
	run -1 --separate-stderr "$SMCSS" -l -R
	[ "${stderr_lines[0]}" = 'Error: "--listening" together with "--smcr" is not supported, try "smcss --help".' ]
	run -1 --separate-stderr "$SMCSS" -D -l
	[ "${stderr_lines[0]}" = 'Error: "--listening" together with "--smcd" is not supported, try "smcss --help".' ]
	# options smcss does not have, smc socket's among them
	local o
	for o in -x -j -e -V --json; do
		run -1 --separate-stderr "$SMCSS" "$o"
		[[ "$stderr" == *"Usage: smcss [ OPTIONS ]"* ]] || { echo "$o"; return 1; }
		[ -z "$output" ]
	done
	run -1 --separate-stderr "$SMCSS" extra
	[ "${stderr_lines[0]}" = 'smcss: unexpected argument "extra"' ]
	[ ! -s "$SOCKET_FAKE_LOG" ]
}

# ------------------------------------------- the table of codes

# kernel_codes: "0xVALUE NAME" of every SMC_CLC_DECL_* of Debian's 6.12
# source (make deps installs it; CI has no kernel tree of its own)
kernel_codes() {
	local tarball=/usr/src/linux-source-6.12.tar.xz
	[ -f "$tarball" ] || skip "no $tarball (make deps)"
	tar -xJOf "$tarball" linux-source-6.12/net/smc/smc_clc.h |
		awk '$1 == "#define" && $2 ~ /^SMC_CLC_DECL_/ { sub(/^SMC_CLC_DECL_/, "", $2); print tolower($3), $2 }'
}

@test "codes: every SMC_CLC_DECL_* of Linux 6.12 has its name and a text" {
	local codes code name n=0
	codes="$(kernel_codes)"
	[ "$(wc -l <<<"$codes")" -ge 36 ]
	while read -r code name; do
		run -0 "$SMC" socket reasons "$code"
		[[ "$output" =~ ^$code\ $name\ [a-zA-Z].+$ ]] || {
			echo "$code $name: $output"
			return 1
		}
		n=$((n + 1))
	done <<<"$codes"
	# and the table holds nothing else
	run -0 "$SMC" socket reasons
	[ "${#lines[@]}" -eq "$n" ]
	[ "$(awk '{ print $1, $2 }' <<<"$output" | sort)" = "$(sort <<<"$codes")" ]
}

@test "codes: smc stats names every fallback reason as the table does" {
	local codes fback="" code name
	codes="$(kernel_codes)"
	while read -r code name; do
		fback+=" srv:$code:1"
	done <<<"$codes"
	# smc with helpers/fake_genl.c in place of the generic netlink socket
	export SMC_FAKE_TABLE="$BATS_TEST_TMPDIR/t" SMC_FAKE_LOG="$BATS_TEST_TMPDIR/l"
	SMC_FAKE_FBACK="srv_cnt=36$fback" run -0 "$H/smc-fake" stats
	while read -r code name; do
		grep -Eq "^  server $code $name +1  [a-zA-Z]" <<<"$output" || {
			echo "$code $name missing"
			return 1
		}
	done <<<"$codes"
	SMC_FAKE_FBACK="srv_cnt=1 clnt_cnt=1 srv:0x0303000c:1 clnt:0x7f000001:1" \
		run -0 "$H/smc-fake" stats
	[[ "$(squeeze <<<"$output")" == *" server 0x0303000c ? 1 unknown reason"* ]]
	[[ "$(squeeze <<<"$output")" == *" client 0x7f000001 ? 1 unknown reason"* ]]
}

@test "codes: unknown codes print as hex with their class; bad codes are usage errors" {
	run -0 "$SMC" socket reasons 0x0303000c 0x7f000001 0 50528264
	[ "$output" = "0x0303000c ? unknown code, class configuration
0x7f000001 ? unknown code, class unknown
0x00000000 ? unknown code, class unknown
0x03030008 NOUEID peer sent no UEID" ]
	run -0 "$SMC" -j socket reasons 0x09990003 0x09990004
	python3 -c 'import json, sys
s = json.loads(sys.argv[1])
assert s == [{"code": "0x09990003", "name": "ERR_REGBUF",
              "text": "registering RDMA buffers failed",
              "class": "internal error"},
             {"code": "0x09990004", "name": None, "text": None,
              "class": "internal error"}], s' "$output"
	local bad
	for bad in xyz -1 -0 0x100000000 18446744073709551617 "" 12abc; do
		run -2 --separate-stderr "$SMC" socket reasons "$bad"
		[ "$stderr" = "Error: argument \"$bad\" is wrong: not a 32-bit code" ]
		[ -z "$output" ]
	done
}

@test "codes: the decoder and smc stats use the one table (no private copies)" {
	# every user includes smc_codes.h, and no other file has a copy of
	# the texts
	run grep -l -e 'peer sent no UEID' -e 'did not indicate SMC' "$TOP"/smc/*.c "$TOP"/lib/*.c "$TOP"/lib/smcdump/*.c
	[ "$output" = "$TOP/lib/smc_codes.c" ]
	grep -q '#include "smc_codes.h"' "$TOP/smc/stats.c"
	grep -q '#include "smc_codes.h"' "$TOP/lib/smcdump/clc.c"
	grep -q '#include "smc_codes.h"' "$TOP/smc/socket.c"
}

# ------------------------------------------------------- man page

@test "man page: smc-socket(8) documents every JSON name of smc socket" {
	fake basic "$SMC" -j -d socket all >"$BATS_TEST_TMPDIR/a.json"
	fake basic "$SMC" -j -d socket smcd >"$BATS_TEST_TMPDIR/d.json"
	fake basic "$SMC" -j -d socket smcr >"$BATS_TEST_TMPDIR/r.json"
	"$SMC" -j socket reasons >"$BATS_TEST_TMPDIR/c.json"
	run python3 - "$TOP/man/man8/smc-socket.8" "$BATS_TEST_TMPDIR"/[adrc].json <<'PY'
import json, re, sys
page = open(sys.argv[1]).read().replace("\\_", "_").replace("\\-", "-")
m = re.search(r"^\.SH DESCRIPTION$(.*?)^\.SH SEE ALSO$", page, re.S | re.M)
assert m, "no DESCRIPTION ... SEE ALSO"
words = set(re.findall(r"[a-z0-9_]+", m.group(1)))
keys = set()
def walk(o):
    if isinstance(o, dict):
        for k, v in o.items():
            keys.add(k)
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
for f in sys.argv[2:]:
    walk(json.load(open(f)))
assert len(keys) > 40, keys
missing = sorted(k for k in keys if k not in words)
print("undocumented:", missing)
sys.exit(1 if missing else 0)
PY
	echo "$output"
	[ "$status" -eq 0 ]
	run --separate-stderr groff -ww -man -Tutf8 -P-cbou "$TOP/man/man8/smc-socket.8"
	[ -z "$stderr" ]
	[[ "$output" == *"SYNOPSIS"*"smcss"*"SEE ALSO"*"smcss(8)"* ]]
}
