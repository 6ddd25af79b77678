#!/usr/bin/env bats
# The smc-dummy link kind and SMC dump in the patched kernel:
# link lifecycle over rtnetlink, attribute validation with extack, and
# captures of real SMC-D loopback-ism traffic checked byte for byte by an
# independent parser (testsuite/lib/smcdump_check.py).

load lib

setup_file() {
	vm_setup_ueid
}

setup() {
	vm_only
}

teardown() {
	[ -z "${SMC_DUMP_IN_VM:-}" ] || ip link del dum0 2>/dev/null || true
	vm_teardown
}

@test "link: add, read back, change, delete over rtnetlink" {
	run "$NL" add smcd0 mode 2 capture 1 snaplen 100
	[ "$status" -eq 0 ]
	run "$NL" get smcd0
	[ "$output" = "mode 2 capture 1 snaplen 100" ]
	run ip -d link show smcd0
	[[ "$output" == *"smc-dummy"* ]]
	[[ "$output" == *"mtu 65535"* ]]
	run "$NL" set smcd0 mode 1
	[ "$status" -eq 0 ]
	run "$NL" get smcd0
	[ "$output" = "mode 1 capture 1 snaplen 100" ]
	run "$NL" add smcd1
	[ "$status" -eq 0 ]
	run "$NL" get smcd1
	[ "$output" = "mode 0 capture 0 snaplen 0" ]
	run "$NL" del smcd0
	[ "$status" -eq 0 ]
	run ip link show smcd0
	[ "$status" -ne 0 ]
}

@test "link: cannot move to another netns" {
	"$NL" add smcd0
	ip netns add other
	run ip link set smcd0 netns other
	[ "$status" -ne 0 ]
	ip link show smcd0
}

# The kernel checks IFLA_INFO_DATA with smc-dummy's nla_policy, strictly
# from the first attribute on (kernel/6.12/patches/0001, lib/nlattr.c of 6.12):
# a value above the uapi limit is -ERANGE "integer out of range", a wrong
# size or NLA_F_NESTED on a scalar is -EINVAL with "invalid attribute
# length" or "NLA_F_NESTED not expected". The extack points at the
# attribute (NLMSGERR_ATTR_OFFS) and carries its policy, which $NL prints
# after the message as "(NAME: TYPE MIN..MAX)".
ERANGE_MSG='error: Numerical result out of range (errno 34): integer out of range'
EINVAL_LEN='error: Invalid argument (errno 22): invalid attribute length'
MODE_POL='(IFLA_SMC_DUMMY_MODE: u8 0..2)'
CAPTURE_POL='(IFLA_SMC_DUMMY_CAPTURE: u8 0..3)'
SNAPLEN_POL='(IFLA_SMC_DUMMY_SNAPLEN: u32 0..65535)'

@test "link: invalid values are refused with an extack naming the attribute and its range" {
	run "$NL" add bad0 mode 3
	[ "$status" -eq 1 ]
	[ "$output" = "$ERANGE_MSG $MODE_POL" ]
	run "$NL" add bad0 capture 4
	[ "$status" -eq 1 ]
	[ "$output" = "$ERANGE_MSG $CAPTURE_POL" ]
	run "$NL" add bad0 snaplen 65536
	[ "$status" -eq 1 ]
	[ "$output" = "$ERANGE_MSG $SNAPLEN_POL" ]
	run "$NL" add bad0 snaplen 4294967295
	[ "$status" -eq 1 ]
	[ "$output" = "$ERANGE_MSG $SNAPLEN_POL" ]
	# the attribute named is the bad one, not the first
	run "$NL" add bad0 mode 2 capture 1 snaplen 70000
	[ "$status" -eq 1 ]
	[ "$output" = "$ERANGE_MSG $SNAPLEN_POL" ]
	"$NL" add smcd0 snaplen 65535
	run "$NL" set smcd0 capture 7
	[ "$status" -eq 1 ]
	[ "$output" = "$ERANGE_MSG $CAPTURE_POL" ]
	run "$NL" get smcd0
	[ "$output" = "mode 0 capture 0 snaplen 65535" ]
	run ip link show bad0
	[ "$status" -ne 0 ]
}

@test "link: wrong attribute sizes are refused with an extack naming the attribute" {
	# mode as a u32 (IFLA_SMC_DUMMY_MODE = 1)
	run "$NL" add bad0 raw 1 00000000
	[ "$status" -eq 1 ]
	[ "$output" = "$EINVAL_LEN $MODE_POL" ]
	# snaplen as a u8 (IFLA_SMC_DUMMY_SNAPLEN = 3)
	run "$NL" add bad0 raw 3 01
	[ "$status" -eq 1 ]
	[ "$output" = "$EINVAL_LEN $SNAPLEN_POL" ]
	# snaplen as a u64: longer is refused too, not truncated
	run "$NL" add bad0 raw 3 0100000000000000
	[ "$status" -eq 1 ]
	[ "$output" = "$EINVAL_LEN $SNAPLEN_POL" ]
	# empty capture (IFLA_SMC_DUMMY_CAPTURE = 2)
	run "$NL" add bad0 raw 2 -
	[ "$status" -eq 1 ]
	[ "$output" = "$EINVAL_LEN $CAPTURE_POL" ]
	# mode 1 with NLA_F_NESTED (0x8000) set
	run "$NL" add bad0 raw 0x8001 01
	[ "$status" -eq 1 ]
	[ "$output" = "error: Invalid argument (errno 22): NLA_F_NESTED not expected $MODE_POL" ]
	run ip link show bad0
	[ "$status" -ne 0 ]
}

@test "link: every copy of a repeated attribute is checked, unknown types are ignored" {
	# the last copy would be valid, the first is not
	run "$NL" add bad0 mode 5 mode 1
	[ "$status" -eq 1 ]
	[ "$output" = "$ERANGE_MSG $MODE_POL" ]
	run ip link show bad0
	[ "$status" -ne 0 ]
	# valid copies: the last one wins
	"$NL" add smcd0 capture 2 capture 1
	run "$NL" get smcd0
	[ "$output" = "mode 0 capture 1 snaplen 0" ]
	# rtnetlink parses IFLA_INFO_DATA liberally: types above
	# IFLA_SMC_DUMMY_MAX (3) and type 0 are skipped, whatever their size
	"$NL" add smcd1 raw 4 0102 raw 0 - mode 2
	run "$NL" get smcd1
	[ "$output" = "mode 2 capture 0 snaplen 0" ]
}

@test "link: a user without CAP_NET_ADMIN is refused" {
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$NL" add smcd0
	[ "$status" -eq 1 ]
	[[ "$output" == *"errno 1)"* ]]
	run ip link show smcd0
	[ "$status" -ne 0 ]
}

# capture_check ADDR BYTES CONNS: transfer while capturing on smcd0, then
# check the capture against what the traffic tool says it sent and got
capture_check() {
	local cap=$BATS_TEST_TMPDIR/c.pcap js=$BATS_TEST_TMPDIR/c.json
	capture_start smcd0 "$cap"
	transfer "$1" "$2" "$3"
	capture_stop
	python3 "$CHECK" "$cap" >"$js"
	jq -c 'del(.streams, .endpoints)' "$js"
	# every record parsed, numbered without gaps, and nothing lost
	[ "$(jq .records "$js")" -gt 0 ]
	[ "$(jq .bad_magic "$js")" -eq 0 ]
	[ "$(jq .bad_len "$js")" -eq 0 ]
	[ "$(jq .seq_gaps "$js")" -eq 0 ]
	[ "$(jq .seq_first "$js")" -eq 0 ]
	[ "$(link_stat smcd0 tx_dropped)" -eq 0 ]
	[ "$(link_stat smcd0 tx_packets)" -eq "$(jq .records "$js")" ]
	# SMC-D only, data and CDC (32-byte smcd_cdc_msg), both directions
	[ "$(jq .smcr "$js")" -eq 0 ]
	[ "$(jq .data "$js")" -gt 0 ]
	[ "$(jq .cdc "$js")" -gt 0 ]
	[ "$(jq -c .cdc_sizes "$js")" = "[32]" ]
	[ "$(jq .tx "$js")" -gt 0 ]
	[ "$(jq .rx "$js")" -gt 0 ]
	# each stream complete from offset 0, bytes equal to what was sent
	[ "$(jq '[.streams[] | select(.holes > 0 or .overlaps > 0 or .first_offset != 0)] | length' "$js")" -eq 0 ]
	[ "$(jq '.streams | length' "$js")" -eq $((4 * $3)) ]
	[ "$(sums tx)" = "$(cap_sums "$js" tx)" ]
	[ "$(sums rx)" = "$(cap_sums "$js" rx)" ]
	[ "$(sums tx)" = "$(sums rx)" ]
}

@test "capture: SMC-D loopback over IPv4, 8 MiB each way, byte for byte" {
	"$NL" add smcd0
	ip link set smcd0 up
	capture_check 127.0.0.1 8M 1
	js=$BATS_TEST_TMPDIR/c.json
	[ "$(jq .ipv4 "$js")" -eq "$(jq .records "$js")" ]
	[ "$(jq .bad_ip_checksum "$js")" -eq 0 ]
	# records are split at the largest IPv4 datagram: 65535 - 20 - 8 - 40
	[ "$(jq .max_payload "$js")" -le 65467 ]
	# sent records go local -> peer, received ones peer -> local
	port=$(awk '/^listening/ { print $2 }' "$BATS_TEST_TMPDIR/srv.out")
	[ "$(jq --argjson p "$port" '[.streams[] | select(.dir == "tx" and .sport == $p)] | length' "$js")" -eq 1 ]
	[ "$(jq --argjson p "$port" '[.streams[] | select(.dir == "rx" and .dport == $p)] | length' "$js")" -eq 1 ]
	[ "$(jq '[.streams[] | select(.src != "127.0.0.1" or .dst != "127.0.0.1")] | length' "$js")" -eq 0 ]
}

@test "capture: SMC-D loopback over IPv6 with valid UDP checksums" {
	"$NL" add smcd0
	ip link set smcd0 up
	capture_check ::1 8M 1
	js=$BATS_TEST_TMPDIR/c.json
	[ "$(jq .ipv6 "$js")" -eq "$(jq .records "$js")" ]
	[ "$(jq .bad_udp_checksum "$js")" -eq 0 ]
	[ "$(jq '[.streams[] | select(.src != "::1" or .dst != "::1")] | length' "$js")" -eq 0 ]
	[ "$(jq .max_payload "$js")" -le 65487 ]
}

@test "capture: several connections at once" {
	"$NL" add smcd0
	ip link set smcd0 up
	capture_check 127.0.0.1 2M 4
}

@test "filter: mode smcr sees no SMC-D record, capture cdc no data, snaplen truncates" {
	"$NL" add smcr0 mode 1
	"$NL" add cdc0 capture 2
	"$NL" add snap0 snaplen 64
	"$NL" add raw0 mode 2 capture 1
	for l in smcr0 cdc0 snap0 raw0; do ip link set $l up; done
	d=$BATS_TEST_TMPDIR
	for l in smcr0 cdc0 snap0 raw0; do
		tcpdump -i $l -w $d/$l.pcap -U -B 65536 2>$d/$l.log &
		eval "pid_$l=$!"
	done
	for l in smcr0 cdc0 snap0 raw0; do
		WAIT_TIMEOUT=20 wait_line $d/$l.log "listening on"
	done
	transfer 127.0.0.1 1M 1
	captures_settle $d/{smcr0,cdc0,snap0,raw0}.pcap
	for l in smcr0 cdc0 snap0 raw0; do eval "kill -TERM \$pid_$l"; done
	wait
	for l in smcr0 cdc0 snap0 raw0; do
		cat $d/$l.log
		grep -q "^0 packets dropped by kernel" $d/$l.log
		python3 "$CHECK" $d/$l.pcap >$d/$l.json
		jq -c 'del(.streams, .endpoints)' $d/$l.json
	done
	# mode smcr: nothing of this SMC-D traffic
	[ "$(jq .records $d/smcr0.json)" -eq 0 ]
	[ "$(link_stat smcr0 tx_packets)" -eq 0 ]
	# capture cdc: CDC messages only
	[ "$(jq .cdc $d/cdc0.json)" -gt 0 ]
	[ "$(jq .data $d/cdc0.json)" -eq 0 ]
	# capture raw: data only, and all of it
	[ "$(jq .cdc $d/raw0.json)" -eq 0 ]
	[ "$(jq .data $d/raw0.json)" -gt 0 ]
	[ "$(sums tx)" = "$(cap_sums $d/raw0.json tx)" ]
	# snaplen 64: each data record keeps 64 bytes, flags it, keeps orig_len
	[ "$(jq .data $d/snap0.json)" -eq "$(jq .data $d/raw0.json)" ]
	[ "$(jq .truncated $d/snap0.json)" -gt 0 ]
	[ "$(jq .bad_len $d/snap0.json)" -eq 0 ]
	[ "$(jq .cdc $d/snap0.json)" -eq "$(jq .cdc $d/cdc0.json)" ]
	python3 - $d/snap0.pcap <<'PY'
import struct, sys
f = open(sys.argv[1], "rb"); f.read(24)
n = 0
while True:
    ph = f.read(16)
    if len(ph) < 16: break
    incl = struct.unpack("<IIII", ph)[2]
    fr = f.read(incl)
    rec = fr[14 + 20 + 8:]
    typ, flags, orig = rec[7], rec[11], struct.unpack("!I", rec[20:24])[0]
    if typ != 1: continue
    n += 1
    assert len(rec) - rec[10] == min(orig, 64), (len(rec), orig)
    assert bool(flags & 2) == (orig > 64), (flags, orig)
assert n > 0
PY
}

@test "netns: a link in one netns sees nothing of another's traffic" {
	ip netns add a
	ip netns add b
	ip -n a link set lo up
	ip -n b link set lo up
	ip netns exec a "$NL" add smcd0
	ip netns exec b "$NL" add smcd0
	ip -n a link set smcd0 up
	ip -n b link set smcd0 up
	capture_start smcd0 $BATS_TEST_TMPDIR/a.pcap a
	transfer 127.0.0.1 1M 1 b
	capture_stop
	python3 "$CHECK" $BATS_TEST_TMPDIR/a.pcap >$BATS_TEST_TMPDIR/a.json
	[ "$(jq .records $BATS_TEST_TMPDIR/a.json)" -eq 0 ]
	# b's own link did get records although no tap listened: none built
	[ "$(link_stat smcd0 tx_packets b)" -eq 0 ]
	# and the same traffic in a is seen there
	capture_start smcd0 $BATS_TEST_TMPDIR/a2.pcap a
	transfer 127.0.0.1 1M 1 a
	capture_stop
	python3 "$CHECK" $BATS_TEST_TMPDIR/a2.pcap >$BATS_TEST_TMPDIR/a2.json
	[ "$(jq .data $BATS_TEST_TMPDIR/a2.json)" -gt 0 ]
	[ "$(sums tx)" = "$(cap_sums $BATS_TEST_TMPDIR/a2.json tx)" ]
}

@test "off: after the last link is deleted, no record is built" {
	"$NL" add smcd0
	ip link set smcd0 up
	# a tap on every interface of the netns: a record would show up here
	tcpdump -i any -w $BATS_TEST_TMPDIR/any.pcap -U 'udp' 2>$BATS_TEST_TMPDIR/any.log &
	pid=$!
	# capturing before anything that must not be captured happens
	WAIT_TIMEOUT=20 wait_line $BATS_TEST_TMPDIR/any.log "listening on"
	"$NL" del smcd0
	transfer 127.0.0.1 1M 1
	# the kernel counts what passed the filter when it queues it (the
	# "received by filter" line), whatever libpcap's block timeout; and
	# the file stays at its header once that timeout has passed
	captures_settle $BATS_TEST_TMPDIR/any.pcap
	kill -TERM $pid
	wait $pid || true
	cat $BATS_TEST_TMPDIR/any.log
	grep -q "^0 packets captured" $BATS_TEST_TMPDIR/any.log
	grep -q "^0 packets received by filter" $BATS_TEST_TMPDIR/any.log
	[ "$(stat -c %s $BATS_TEST_TMPDIR/any.pcap)" -eq 24 ]
}

@test "slow reader: a plain AF_PACKET socket read late gets the right bytes" {
	"$NL" add smcd0
	ip link set smcd0 up
	d=$BATS_TEST_TMPDIR
	# once the first record is queued (the traffic runs: on a loaded host
	# its start takes seconds), reads nothing for 3 s while the traffic
	# reuses the SMC buffers, then drains the socket until 5 s pass without
	# a record and writes what it got as a pcap
	python3 - $d/slow.pcap >$d/slow.log 2>&1 <<'PY' &
import socket, struct, sys, time
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(3))
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 64 << 20)
s.bind(("smcd0", 0))
open(sys.argv[1] + ".ready", "w").close()
s.settimeout(300)
s.recv(1, socket.MSG_PEEK)
time.sleep(3)
s.settimeout(5)
out = open(sys.argv[1], "wb")
out.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 262144, 1))
n = 0
try:
    while True:
        fr = s.recv(262144)
        out.write(struct.pack("<IIII", 0, 0, len(fr), len(fr)) + fr)
        n += 1
except socket.timeout:
    pass
print("frames", n)
PY
	pid=$!
	WAIT_TIMEOUT=10 wait_for "the reader's socket bound" test -e $d/slow.pcap.ready
	transfer 127.0.0.1 4M 1
	wait $pid
	cat $d/slow.log
	python3 "$CHECK" $d/slow.pcap >$d/slow.json
	jq -c 'del(.streams, .endpoints)' $d/slow.json
	[ "$(jq .data $d/slow.json)" -gt 0 ]
	# what arrived is right; what did not is a hole or a seq gap, never
	# different bytes: compare each stream with the pattern it came from
	"$TRAFFIC" pattern -n 4M -s 1 -i 0 -d c2s >$d/c2s
	"$TRAFFIC" pattern -n 4M -s 1 -i 0 -d s2c >$d/s2c
	mkdir -p $d/streams
	python3 "$CHECK" $d/slow.pcap --dump-dir $d/streams >/dev/null
	python3 - $d/slow.pcap $d/c2s $d/s2c <<'PY'
import struct, sys
c2s, s2c = open(sys.argv[2], "rb").read(), open(sys.argv[3], "rb").read()
f = open(sys.argv[1], "rb"); f.read(24)
checked = 0
while True:
    ph = f.read(16)
    if len(ph) < 16: break
    fr = f.read(struct.unpack("<IIII", ph)[2])
    rec = fr[14 + 20 + 8:]
    if rec[7] != 1: continue
    off = struct.unpack("!Q", rec[24:32])[0]
    data = rec[rec[10]:]
    assert data == c2s[off:off + len(data)] or data == s2c[off:off + len(data)], off
    checked += 1
print("data records checked", checked)
assert checked > 0
PY
}

@test "tc: egress mirred copies a tapped link's records to another device, a tc drop hides them from the tap" {
	"$NL" add smcd0
	ip link set smcd0 up
	ip link add dum0 type dummy
	# nothing of its own on dum0 (IPv6 would send MLD and DAD there)
	sysctl -qw net.ipv6.conf.dum0.disable_ipv6=1
	ip link set dum0 up
	# Debian's kernel has the clsact qdisc, matchall and mirred as modules;
	# the debug test kernel is built without tc
	if ! tc qdisc add dev smcd0 clsact 2>"$BATS_TEST_TMPDIR/tc.err"; then
		[ -z "${SMC_DUMP_STOCK_KVER:-}" ] || { cat "$BATS_TEST_TMPDIR/tc.err"; return 1; }
		skip "no clsact qdisc in this kernel: $(cat "$BATS_TEST_TMPDIR/tc.err")"
	fi
	tc filter add dev smcd0 egress matchall action mirred egress mirror dev dum0
	# no tap on smcd0: the link builds no record, so none reaches dum0
	capture_start dum0 "$BATS_TEST_TMPDIR/d0.pcap"
	transfer 127.0.0.1 256K 1
	capture_stop
	grep -q "^0 packets captured" "$BATS_TEST_TMPDIR/d0.pcap.log"
	[ "$(link_stat smcd0 tx_packets)" -eq 0 ]
	# a tap on smcd0: egress tc runs before the taps, and mirred hands
	# dum0 a copy of each record, the same bytes
	capture_start smcd0 "$BATS_TEST_TMPDIR/s.pcap"
	s_pid=$CAP_PID
	capture_start dum0 "$BATS_TEST_TMPDIR/d.pcap"
	transfer 127.0.0.1 1M 1
	captures_settle "$BATS_TEST_TMPDIR/s.pcap" "$BATS_TEST_TMPDIR/d.pcap"
	capture_stop
	CAP_PID=$s_pid CAP_FILE=$BATS_TEST_TMPDIR/s.pcap capture_stop
	n=$(link_stat smcd0 tx_packets)
	[ "$n" -gt 0 ]
	[ "$(link_stat dum0 tx_packets)" -eq "$n" ]
	tcpdump -nn -t -r "$BATS_TEST_TMPDIR/s.pcap" >"$BATS_TEST_TMPDIR/s.txt"
	[ "$(grep -c '^IP' "$BATS_TEST_TMPDIR/s.txt")" -eq "$n" ]
	# the same frames, byte for byte; compared as multisets because the
	# two ends transmit on two CPUs, and one CPU's mirred copy can reach
	# dum0's tap before the other CPU's record reaches smcd0's
	python3 - "$BATS_TEST_TMPDIR/s.pcap" "$BATS_TEST_TMPDIR/d.pcap" <<'PY'
import struct, sys
def frames(path):
    f = open(path, "rb"); f.read(24); out = []
    while True:
        ph = f.read(16)
        if len(ph) < 16: return out
        out.append(f.read(struct.unpack("<IIII", ph)[2]))
s, d = frames(sys.argv[1]), frames(sys.argv[2])
print("frames", len(s), len(d))
assert len(s) > 0 and sorted(s) == sorted(d)
PY
	# a drop on egress: records are built and numbered, then dropped
	# before any tap sees them (a reader would see gaps in seq)
	tc filter del dev smcd0 egress
	tc filter add dev smcd0 egress matchall action drop
	capture_start smcd0 "$BATS_TEST_TMPDIR/x.pcap"
	transfer 127.0.0.1 256K 1
	capture_stop
	grep -q "^0 packets captured" "$BATS_TEST_TMPDIR/x.pcap.log"
	[ "$(link_stat smcd0 tx_packets)" -eq "$n" ]
	tc -s filter show dev smcd0 egress | grep -Eq "Sent [1-9][0-9]* bytes [1-9][0-9]* pkt"
}
