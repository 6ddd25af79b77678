# Helpers of the SMC-R beds' bats files (smcr.bats, stock.bats), loaded
# with `load lib` after they set RES (the run's result directory).

# stat_delta SIDE JQPATH: how much a counter of `smc -j stats` moved on
# SIDE (server, client) between the guest's snapshots before and after
stat_delta() {
	echo $(( $(jq -r ".[0].$2" "$RES/$1-stats-after.json") - $(jq -r ".[0].$2" "$RES/$1-stats-before.json") ))
}

# bed_ran: ./run (setup_file's log and status) ended 0, both guests had
# their rxe device ACTIVE, and both traffic tools reported success
bed_ran() {
	cat "$BATS_FILE_TMPDIR/run.log"
	[ "$(cat "$BATS_FILE_TMPDIR/run.rc")" -eq 0 ]
	grep -q "state ACTIVE" "$RES/server-rdma.txt"
	grep -q "state ACTIVE" "$RES/client-rdma.txt"
	grep -q "^result ok" "$RES/server-traffic.out"
	grep -q "^result ok" "$RES/client-traffic.out"
}
