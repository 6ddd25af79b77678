#!/usr/bin/env bats
# SMC-R: two test VMs joined by a QEMU network, Soft-RoCE on
# each, one SMC-Rv2 connection of BYTES each way while both sides capture
# on smc-dummy links (./run boots them; this file checks what they left).
# Runs on the host: `bats testsuite/smcr` (make check runs it).

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
RES=$TOP/build/smcr-results
BYTES=8M
NBYTES=$((8 * 1048576))

load lib

# SMCR_BED (see ./run): test, the debug test kernel (default), or
# stock-dkms, Debian's kernel with smc-dump-dkms's modules (make check)
have_bed() {
	[ "${SMCR_BED:-test}" != test ] || [ -f "$TOP/build/kernel-test/bzImage" ]
}

setup_file() {
	have_bed || return 0
	# bats runs setup_file under set -e: the status is kept, not fatal
	local rc=0
	"$TOP/testsuite/smcr/run" "$RES" "$BYTES" 2 >"$BATS_FILE_TMPDIR/run.log" 2>&1 || rc=$?
	echo $rc >"$BATS_FILE_TMPDIR/run.rc"
}

setup() {
	have_bed || skip "no test kernel (make kernel)"
}

@test "smcr: both guests ran the SMC-R traffic over Soft-RoCE" {
	bed_ran
}

@test "smcr: SMC-Rv2 carried the connection, by the kernel's counters" {
	[ "$(stat_delta client smcr.client.v2_success)" -eq 1 ]
	[ "$(stat_delta server smcr.server.v2_success)" -eq 1 ]
	[ "$(stat_delta client smcr.tx_bytes)" -eq $NBYTES ]
	[ "$(stat_delta client smcr.rx_bytes)" -eq $NBYTES ]
	[ "$(stat_delta server smcr.tx_bytes)" -eq $NBYTES ]
	[ "$(stat_delta server smcr.rx_bytes)" -eq $NBYTES ]
	[ "$(stat_delta client smcd.client.v2_success)" -eq 0 ]
	# the TCP connection under it carried only the CLC handshake
	grep -q "^conn 0 smc (tcp bytes" "$RES/client-traffic.out"
}

@test "smcr: mode smcr captures data, 44-byte CDC and the link's LLC messages both ways on each side, no gaps" {
	local req resp
	for side in server client; do
		js=$RES/$side-smcr.json
		jq -c 'del(.streams, .endpoints)' "$js"
		[ "$(jq .smcr "$js")" -eq "$(jq .records "$js")" ]
		[ "$(jq .smcd "$js")" -eq 0 ]
		[ "$(jq .data "$js")" -gt 0 ]
		[ "$(jq .cdc "$js")" -gt 0 ]
		[ "$(jq .tx "$js")" -gt 0 ]
		[ "$(jq .rx "$js")" -gt 0 ]
		[ "$(jq -c .cdc_sizes "$js")" = "[44]" ]
		[ "$(jq .seq_gaps "$js")" -eq 0 ]
		[ "$(jq .bad_len "$js")" -eq 0 ]
		[ "$(jq -c .smc_versions "$js")" = "[2]" ]
		[ "$(jq '.[0].stats64.tx.dropped' "$RES/$side-link.json")" -eq 0 ]
		# the link group's first LLC messages: the server's CONFIRM_LINK
		# (SMC-Rv2 form 0x21) and the client's response, before any data
		if [ $side = server ]; then req=tx resp=rx; else req=rx resp=tx; fi
		jq -e --arg q $req --arg r $resp '.llc_messages[0:2] | map([.type, .dir, .resp, .data_before]) ==
			[[33, $q, false, 0], [33, $r, true, 0]]' "$js"
		[ "$(jq .stream_seq_gaps "$js")" -eq 0 ]
	done
}

@test "smcr: the reassembled streams equal what was sent, on both sides" {
	for side in server client; do
		js=$RES/$side-smcr.json
		sent=$(awk '$1 == "conn" && $3 == "tx" { print $7 }' "$RES/$side-traffic.out")
		got=$(awk '$1 == "conn" && $3 == "rx" { print $7 }' "$RES/$side-traffic.out")
		[ "$(jq -r '.streams[] | select(.dir == "tx") | .sha256' "$js")" = "$sent" ]
		[ "$(jq -r '.streams[] | select(.dir == "rx") | .sha256' "$js")" = "$got" ]
		[ "$(jq '[.streams[] | select(.bytes != '$NBYTES' or .holes > 0)] | length' "$js")" -eq 0 ]
	done
	# what one side sent is what the other received
	[ "$(awk '$3 == "tx" { print $7 }' "$RES/client-traffic.out")" = "$(awk '$3 == "rx" { print $7 }' "$RES/server-traffic.out")" ]
}

@test "smcr: mode smcd sees nothing of SMC-R traffic" {
	[ "$(jq .records "$RES/server-smcd.json")" -eq 0 ]
	[ "$(jq .records "$RES/client-smcd.json")" -eq 0 ]
}

@test "smcr: the network-order CDC is decoded with the right cursors and flags" {
	# parse every CDC record of the capture independently (RFC 7609 /
	# struct smc_cdc_msg: type, len, seqno, token, prod and cons cursors
	# as reserved:2 wrap:2 count:4, producer flags, conn state flags) and
	# compare with what smc dump read -j reports for the same frame
	python3 - "$RES/client-smcr.pcap" "$RES/client-smcr-read.json" <<'PY'
import json, struct, sys
recs = {r["frame"]: r for r in json.load(open(sys.argv[2])) if "frame" in r}
f = open(sys.argv[1], "rb"); f.read(24)
n = checked = 0
while True:
    ph = f.read(16)
    if len(ph) < 16: break
    fr = f.read(struct.unpack("<IIII", ph)[2])
    n += 1
    rec = fr[14 + 20 + 8:]
    if rec[7] != 2: continue
    cdc = rec[rec[10]:rec[10] + 44]
    typ, ln, seqno, token = struct.unpack("!BBHI", cdc[:8])
    pw, pc = struct.unpack("!xxHI", cdc[8:16])
    cw, cc = struct.unpack("!xxHI", cdc[16:24])
    pf, sf = cdc[24], cdc[25]
    d = recs[n]["cdc"]
    assert typ == 0xfe and ln == 44, (typ, ln)
    assert d["seqno"] == seqno, (n, d["seqno"], seqno)
    assert int(d["token"], 16) == token
    assert (d["prod"]["wrap"], d["prod"]["count"]) == (pw, pc), n
    assert (d["cons"]["wrap"], d["cons"]["count"]) == (cw, cc), n
    assert int(d["prod_flags_raw"], 16) == pf and int(d["conn_state_flags_raw"], 16) == sf
    # RFC 7609 bit order: write_blocked is the most significant bit
    assert ("write_blocked" in d["prod_flags"]) == bool(pf & 0x80), (n, pf)
    checked += 1
print("CDC records checked", checked)
assert checked > 10
PY
}

@test "smcr: the SMC-R CLC handshake is decoded from the mode all capture" {
	msgs=$(jq -r '.[] | select(.type == "clc") | "\(.clc.msg) \(.clc.eyecatcher) \(.clc.path)"' "$RES/client-all-read.json" | sort -u)
	echo "$msgs"
	grep -qx "proposal SMC-R none" <<<"$msgs"
	grep -qx "accept SMC-R smcr" <<<"$msgs"
	grep -qx "confirm SMC-R smcr" <<<"$msgs"
	# and the records of the smc-dummy link are in the same file
	[ "$(jq '[.[] | select(.type == "data" and .mode == "SMC-R")] | length' "$RES/client-all-read.json")" -gt 0 ]
}

@test "smcr: smc check on both sides names SMC-R v2 over rxe0, as the kernel counts it" {
	local side role
	for side in server client; do
		cat "$RES/$side-check.json" "$RES/$side-check.err"
		[ "$(cat "$RES/$side-check.rc")" -eq 0 ]
		[ -s "$RES/$side-check.json" ]
		jq -e --arg r "$side" 'length == 1 and .[0].role == $r and
			.[0].mode == "SMC-R" and .[0].version == 2 and
			.[0].smcr.ibdev == "rxe0" and .[0].smcr.ibport == 1 and
			(.[0] | has("fallback") | not) and .[0].advice == []' "$RES/$side-check.json"
		# one SMC-Rv2 connection more in that role, by the kernel
		role=$side
		[ $(( $(jq ".[0].smcr.$role.v2_success" "$RES/$side-stats-check.json") -
		      $(jq ".[0].smcr.$role.v2_success" "$RES/$side-stats-after.json") )) -eq 1 ]
	done
	# the two views are of one connection
	[ "$(jq '.[0].local_port' "$RES/client-check.json")" = "$(jq '.[0].peer_port' "$RES/server-check.json")" ]
	[ "$(jq -r '.[0].peer_address' "$RES/client-check.json")" = 192.0.2.1 ]
}

@test "smcr: smc device and linkgroup show what rdma and smc check show of rxe0" {
	local side lid
	for side in server client; do
		# rdma link show: rxe0 port 1 ACTIVE on eth0
		grep -q "^link rxe0/1 state ACTIVE .*netdev eth0" "$RES/$side-rdma.txt"
		jq -e '[.[] | select(.mode == "SMC-R" and .ibdev == "rxe0")] | length == 1 and
			(.[0].ports[0] | .ibport == 1 and .ifname == "eth0" and
			 .state == "ACTIVE")' "$RES/$side-device.json"
		# the check's link is a link of an SMC-R v2 link group on rxe0
		lid=$(jq '.[0].smcr.link_id' "$RES/$side-check.json")
		jq -e --argjson l "$lid" --arg r "$side" '[.[] | select(.mode == "SMC-R" and
			.version == 2 and .role == $r and
			any(.links[]; .ibdev == "rxe0" and .ibport == 1 and
			    .link_id == $l and .ifname == "eth0"))] | length >= 1' "$RES/$side-linkgroup.json"
	done
}

@test "smcr: dump merge pairs the two sides' ends and orders each receive after its send, the server's clock shifted" {
	# the server's capture as a host 3.7 s ahead would have written it
	# (testsuite/lib/pcap_shift.py): the bounds on the offset move by
	# exactly that, whatever the guests' own clocks differ by
	local smc=$TOP/smc/smc shifted=$BATS_TEST_TMPDIR/server-shifted.pcap m0 m1
	python3 "$TOP/testsuite/lib/pcap_shift.py" "$RES/server-smcr.pcap" "$shifted" 3.7
	m0=$("$smc" -j dump merge "$RES/client-smcr.pcap" "$RES/server-smcr.pcap")
	m1=$("$smc" -j dump merge "$RES/client-smcr.pcap" "$shifted")
	jq -c '.[0].clock' <<<"$m0"
	jq -c '.[0].clock' <<<"$m1"
	[ "$(jq '.[0].clock.low_ns + 3700000000' <<<"$m0")" = "$(jq '.[0].clock.low_ns' <<<"$m1")" ]
	[ "$(jq '.[0].clock.high_ns + 3700000000' <<<"$m0")" = "$(jq '.[0].clock.high_ns' <<<"$m1")" ]
	# one connection, its ends paired by the tokens of their CDC
	# messages, no end alone; sends matched both ways, and the interval
	# not empty (the receives and sends agree on one offset) or, where
	# the guests' clocks drifted apart (a loaded host), a rate fitted
	jq -e '.[0] | (.connections | length) == 1 and (.unpaired | length) == 0 and
		.connections[0].paired_by == "cdc" and
		.clock.pairs_a_to_b > 10 and .clock.pairs_b_to_a > 10 and
		(.clock.low_ns <= .clock.high_ns or .clock.rate_ppb != null)' <<<"$m1"
	# each receive after its send in the list and in time; nearly every
	# CDC message received has its send in the other capture (both ran
	# before the connection; only the last ones may be sent or received
	# as the other side's capture stopped)
	printf '%s\n' "$m1" >"$BATS_TEST_TMPDIR/merge.json"
	python3 - "$BATS_TEST_TMPDIR/merge.json" <<-'PY'
	import json, sys
	c = json.load(open(sys.argv[1]))[0]["connections"][0]
	recs = c["records"]
	at = {(r["host"], r["frame"]): i for i, r in enumerate(recs)}
	n = 0
	for i, r in enumerate(recs):
	    if r["dir"] != "rx" or r.get("send_frame") is None:
	        continue
	    j = at[("A" if r["host"] == "B" else "B", r["send_frame"])]
	    s = recs[j]
	    assert j < i and s["dir"] == "tx" and s["type"] == r["type"], (i, j)
	    assert (s["ts_sec"], s["ts_nsec"]) <= (r["ts_sec"], r["ts_nsec"]), (i, j)
	    n += 1
	cdc_rx = [r for r in recs if r["dir"] == "rx" and r["type"] == "cdc"]
	alone = [r for r in cdc_rx if r.get("send_frame") is None]
	print("receives checked", n, "CDC received", len(cdc_rx), "without send", len(alone))
	assert n > 20 and len(cdc_rx) > 10 and len(alone) <= 2
	PY
}
