#!/usr/bin/env bats
# smc info, device and linkgroup against what the patched kernel holds:
# the system's host name and SMC-Dv2 over loopback-ism, the
# device list (without loopback-ism, which Linux 6.12's
# SMC_NETLINK_GET_DEV_SMCD leaves out), the two SMC-D link groups of a
# held loopback connection matched against the sock_diag view of its
# sockets (smc socket smcd), the UEID the test added and the host name
# of smc info; -n in a netns (the statistics are per netns, the link
# groups of SMC-D are not: the kernel lists them in every netns);
# and the JSON names of smc check and smc dump show, which the host tier
# cannot run, against smc(8) (testsuite/host/helpers/json_keys.py).

bats_require_minimum_version 1.5.0

load lib

setup() {
	vm_only
	HOLD_PID=
}

teardown() {
	[ -n "${SMC_DUMP_IN_VM:-}" ] || return 0
	release
	"$SMC" dump stop >/dev/null 2>&1 || true
	ip netns del smcobj 2>/dev/null || true
	ensure_ueid
}

@test "info: SMC v2, SMC-D v2 (loopback-ism) in hardware, no RoCE; no devices listed" {
	run -0 --separate-stderr "$SMC" -j info
	echo "$output"
	[ -z "$stderr" ]
	jq -e '.[0] | .kernel.version == 2 and
		.kernel.smcd == ["v1", "v2"] and
		(.hardware.ism | index("v2")) != null and
		.hardware.roce == [] and .hardware.smcr_devices == 0' <<<"$output"
	# the guest has no ISM or RoCE device: the device lists are empty,
	# and the kernel leaves loopback-ism out of its SMC-D list
	run -0 "$SMC" -j device
	[ "$output" = "[]" ]
	[ -z "$(ls /sys/class/infiniband 2>/dev/null)" ]
}

@test "linkgroup: a held SMC-D connection's two link groups, as its sockets, the UEID and info say" {
	local socks lgrs id host
	ensure_ueid
	hold --bytes 1000
	socks=$("$SMC" -j socket smcd)
	lgrs=$("$SMC" -j linkgroup)
	# the kernel's host name (smc info, from the SMC_GEN_SYS_INFO dump)
	# is what the peer sent in its CLC first-contact extension
	host=$("$SMC" -j info | jq -r '.[0].kernel.hostname')
	echo "$socks"
	echo "$lgrs"
	# the client's and the accepted socket's link group IDs (sock_diag)
	for ino in "$CINO" "$AINO"; do
		id=$(jq -r --argjson i "$ino" '.[] | select(.inode == $i) | .smcd.linkgroup_id' <<<"$socks")
		[[ "$id" == 0x* ]]
		# the same link group in the generic netlink dump: SMC-D v2,
		# the UEID this test added, a connection, the socket's GIDs
		jq -e --arg id "$id" --arg eid "$UEID" --arg h "$host" --argjson s "$(jq -c --argjson i "$ino" '.[] | select(.inode == $i) | .smcd' <<<"$socks")" \
			'[.[] | select(.id == $id)] | length == 1 and
			 (.[0] | .mode == "SMC-D" and .version == 2 and
			  .eid == $eid and .connections >= 1 and
			  .peer_hostname == $h and
			  .gid == $s.gid and .peer_gid == $s.peer_gid)' <<<"$lgrs"
	done
	# text: the SMC-D table alone, each of them a row
	run -0 "$SMC" linkgroup type smcd
	[[ "${lines[0]}" == "LG-ID "*" #Conns "* ]]
	[ "$(grep -c '^0000[0-9a-f]\{4\} ' <<<"$output")" -eq "$(jq '[.[] | select(.mode == "SMC-D")] | length' <<<"$lgrs")" ]
	release
}

@test "-n NETNS: stats of a new network namespace count nothing yet, info answers there" {
	# the SMC statistics are per network namespace: the first tests moved
	# SMC-D connections here, none ran in the new one
	ensure_ueid
	"$SMC" check loopback
	[ "$("$SMC" -j stats | jq .[0].smcd.connections)" -ge 2 ]
	ip netns add smcobj
	run -0 "$SMC" -n smcobj -j stats
	jq -e '.[0].smcd.connections == 0 and .[0].smcd.client.v2_success == 0' <<<"$output"
	run -0 "$SMC" -n smcobj -j info
	jq -e '.[0].kernel.version == 2' <<<"$output"
}

@test "JSON: smc check and smc dump show print only the names smc(8) lists for them" {
	local d=$BATS_TEST_TMPDIR/json
	mkdir "$d"
	ensure_ueid
	"$SMC" -j check loopback >"$d/check.1.json"
	"$SMC" ueid flush
	"$SMC" -j check loopback >"$d/check.2.json" || true
	ensure_ueid
	"$SMC" -j dump start mode smcd write "$BATS_TEST_TMPDIR/c.pcap" background >"$d/dump start.3.json"
	"$SMC" -j dump show >"$d/dump show.4.json"
	"$SMC" dump stop
	cat "$d"/*.json
	# what was run had what the lists must cover
	jq -e '.[1].fallback.reason_name == "NOUEID"' "$d/check.2.json"
	jq -e '.[0].capture.running == true' "$d/dump show.4.json"
	run python3 "$TOP/testsuite/host/helpers/json_keys.py" check \
		"$TOP/man/man8/smc.8" "$d"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == *"check: "*" names, all listed"* ]]
	[[ "$output" == *"dump show: "*" names, all listed"* ]]
}
