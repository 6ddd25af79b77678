#!/usr/bin/env bats
# SMC-R on Debian's own, unmodified kernel and smc.ko: two guests joined
# by a QEMU network, Soft-RoCE on each, a PNET ID on both, one SMC-Rv2
# connection of BYTES each way while the bpf backend captures on both
# sides (./run with SMCR_BED=stock boots them, stock.sh is each side;
# this file checks what they left). Runs on the host:
#   SMCR_KERNEL=ID bats testsuite/smcr/stock.bats
# ID a line of scripts/kernels.conf, deb12-6.12 by default. On deb12-6.1
# (Debian 12's default kernel) it fails, as measured: the first link's
# set-up fails and its clean-up blocks (Documentation/install.md,
# "Debian 12's 6.1 kernel"); the files it keeps say where
# (build/smcr-stock-results/*-stacks.txt, *-trace.txt, *-eth0.pcap).

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
RES=$TOP/build/smcr-stock-results
BYTES=256K
NBYTES=262144

load lib

setup_file() {
	export SMCR_KERNEL=${SMCR_KERNEL:-deb12-6.12}
	local rc=0
	SMCR_BED=stock VM_TIMEOUT=${VM_TIMEOUT:-600} "$TOP/testsuite/smcr/run" "$RES" "$BYTES" 2 \
		>"$BATS_FILE_TMPDIR/run.log" 2>&1 || rc=$?
	echo $rc >"$BATS_FILE_TMPDIR/run.rc"
}

@test "smcr stock: both guests moved the traffic over Soft-RoCE" {
	bed_ran
}

@test "smcr stock: SMC-Rv2 carried the connection, by the kernel's counters" {
	for side in client server; do
		[ "$(stat_delta $side smcr.$side.v2_success)" -eq 1 ]
		[ "$(stat_delta $side smcr.tx_bytes)" -eq $NBYTES ]
		[ "$(stat_delta $side smcr.rx_bytes)" -eq $NBYTES ]
		[ "$(stat_delta $side fallback.total)" -eq 0 ]
	done
	# the TCP connection under it carried only the CLC handshake
	grep -q "^conn 0 smc (tcp bytes" "$RES/client-traffic.out"
}

@test "smcr stock: the bpf backend captured both streams whole on each side, equal to what was sent" {
	for side in server client; do
		js=$RES/$side-cap.json
		jq -c 'del(.streams, .endpoints)' "$js"
		[ "$(jq -r .records "$js")" -gt 0 ]
		[ "$(jq .smcr "$js")" -eq "$(jq .records "$js")" ]
		[ "$(jq .seq_gaps "$js")" -eq 0 ]
		[ "$(jq .bad_magic "$js")" -eq 0 ]
		[ "$(jq -c .cdc_sizes "$js")" = "[44]" ]
		[ "$(jq .llc "$js")" -gt 0 ]
		[ "$(jq .stream_seq_gaps "$js")" -eq 0 ]
		[ "$(jq '.streams | length' "$js")" -eq 2 ]
		[ "$(jq --argjson b $NBYTES '[.streams[] | select(.bytes != $b or .holes > 0 or .first_offset != 0)] | length' "$js")" -eq 0 ]
		# tx: what this side's traffic tool sent; rx: what it received
		for dir in tx rx; do
			want=$(awk -v d=$dir '$1 == "conn" && $3 == d { print $7 }' "$RES/$side-traffic.out")
			[ -n "$want" ]
			[ "$(jq -r --arg d $dir '.streams[] | select(.dir == $d) | .sha256' "$js")" = "$want" ]
		done
	done
}

# llc_read SIDE: the LLC records of SIDE's capture, as smc -j dump read
# decodes them (read once, kept beside the capture)
llc_read() {
	local j=$RES/$1-llc-read.json
	[ -s "$j" ] || "$TOP/smc/smc" -j dump read "$RES/$1-cap.pcap" |
		jq -c '[.[] | select(.type == "llc")]' >"$j"
	cat "$j"
}

@test "smcr stock: the bpf backend captured the first link's CONFIRM_LINK sent on one side and received on the other" {
	local s c
	s=$(llc_read server)
	c=$(llc_read client)
	jq -c '.[] | [.dir, .msg_type, .response, .lgr_id, .link_id, .qpn, .peer_qpn, .stream_seq]' <<<"$s"
	jq -c '.[] | [.dir, .msg_type, .response, .lgr_id, .link_id, .qpn, .peer_qpn, .stream_seq]' <<<"$c"
	# the server asks (SMC-Rv2: CONFIRM_LINK_V2), the client answers;
	# each message once on each side, the same bytes
	for dir in tx rx; do
		[ "$(jq --arg d $dir '[.[] | select(.dir == $d and (.msg_type | startswith("CONFIRM_LINK")))] | length' <<<"$s")" -eq 1 ]
		[ "$(jq --arg d $dir '[.[] | select(.dir == $d and (.msg_type | startswith("CONFIRM_LINK")))] | length' <<<"$c")" -eq 1 ]
	done
	req_s=$(jq -c '.[] | select(.dir == "tx" and (.msg_type | startswith("CONFIRM_LINK")))' <<<"$s")
	req_c=$(jq -c '.[] | select(.dir == "rx" and (.msg_type | startswith("CONFIRM_LINK")))' <<<"$c")
	rsp_c=$(jq -c '.[] | select(.dir == "tx" and (.msg_type | startswith("CONFIRM_LINK")))' <<<"$c")
	rsp_s=$(jq -c '.[] | select(.dir == "rx" and (.msg_type | startswith("CONFIRM_LINK")))' <<<"$s")
	[ "$(jq -c '[.msg_type, .response]' <<<"$req_s")" = '["CONFIRM_LINK_V2",false]' ]
	[ "$(jq -c '[.msg_type, .response]' <<<"$rsp_c")" = '["CONFIRM_LINK_V2",true]' ]
	[ "$(jq -c .llc <<<"$req_s")" = "$(jq -c .llc <<<"$req_c")" ]
	[ "$(jq -c .llc <<<"$rsp_c")" = "$(jq -c .llc <<<"$rsp_s")" ]
	# the link as each side sees it: the same link group and link, the
	# queue pairs and GIDs crossed
	for pair in "$req_s $req_c" "$rsp_s $rsp_c"; do
		read -r a b <<<"$pair"
		[ "$(jq -c '[.lgr_id, .token, .link_id, .qpn, .peer_qpn, .gid, .peer_gid, .smc_ver, .mode]' <<<"$a")" = \
		  "$(jq -c '[.lgr_id, .token, .link_id, .peer_qpn, .qpn, .peer_gid, .gid, .smc_ver, .mode]' <<<"$b")" ]
	done
	[ "$(jq -r .lgr_id <<<"$req_s")" = "$(jq -r .token <<<"$req_s")" ]
	# the queue pair the message names is the record's local one
	[ "$(jq '.llc.sender_qpn == .qpn' <<<"$req_s")" = true ]
	[ "$(jq '.llc.sender_qpn == .qpn' <<<"$rsp_c")" = true ]
	[ "$(jq -r .smc_ver <<<"$req_s")" -eq 2 ]
	# RoCEv2 over IPv4: the frame's addresses are the GIDs' IPv4 ones
	[ "$(jq -r '[.src_address, .dst_address, .src_port, .dst_port] | @tsv' <<<"$req_s")" = "$(printf '192.0.2.1\t192.0.2.2\t0\t0')" ]
	[ "$(jq -r '[.src_address, .dst_address] | @tsv' <<<"$req_c")" = "$(printf '192.0.2.1\t192.0.2.2')" ]
	# the first LLC message of the link group each way on each side
	[ "$(jq -c '[.stream_seq, .flags]' <<<"$req_s")" = '[0,"0x0"]' ]
	[ "$(jq -c '.stream_seq' <<<"$req_c")" = 0 ]
}

@test "smcr stock: an SMC-Rv2 LLC message past 44 bytes, sent and received whole" {
	local s c a b
	s=$(llc_read server)
	c=$(llc_read client)
	# the server's ADD_LINK_V2 request (smc_wr_tx_v2_send from the v2
	# buffer; received into the receive slot and the v2 buffer), whose
	# extension makes it longer than 44 bytes: the same message on both
	# sides, whole (the record's payload: the link's 48 bytes, then as
	# many as the message's header says)
	a=$(jq -c '[.[] | select(.dir == "tx" and .msg_type == "ADD_LINK_V2" and .response == false)]' <<<"$s")
	b=$(jq -c '[.[] | select(.dir == "rx" and .msg_type == "ADD_LINK_V2" and .response == false)]' <<<"$c")
	echo "$a"
	[ "$(jq length <<<"$a")" -eq 1 ]
	[ "$(jq length <<<"$b")" -eq 1 ]
	[ "$(jq '.[0].llc.length' <<<"$a")" -gt 44 ]
	[ "$(jq '.[0].len == 48 + .[0].llc.length' <<<"$a")" = true ]
	[ "$(jq '.[0].len == 48 + .[0].llc.length' <<<"$b")" = true ]
	[ "$(jq -c '.[0].llc' <<<"$a")" = "$(jq -c '.[0].llc' <<<"$b")" ]
}
