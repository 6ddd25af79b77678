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
