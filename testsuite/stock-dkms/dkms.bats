#!/usr/bin/env bats
# smc-dump-dkms on Debian's unmodified kernel, inside the stock
# bed that run-suite boots with the modules DKMS built from the package in
# /lib/modules/KVER/updates/dkms: modprobe takes them in place of the
# kernel's own, and loopback-ism, which Debian's config leaves out, works.

load ../stock/lib

setup() {
	stock_only
	[ -n "${SMC_DUMP_STOCK_DKMS:-}" ] || skip "runs in the DKMS stock bed (testsuite/stock-dkms/run-suite)"
}

@test "dkms: modprobe loads the DKMS-built smc and smc_diag in place of the kernel's" {
	modprobe smc_diag
	for m in smc smc_diag; do
		f=$(modinfo -n $m)
		echo "$m: $f"
		[ "$f" = "/lib/modules/$SMC_DUMP_STOCK_KVER/updates/dkms/$m.ko" ]
		# the module in the kernel is not Debian's: out of tree and not
		# signed by its key (taint O and E), which the package's is
		[ "$(cat /sys/module/$m/taint)" = "OE" ]
		[ "$(modinfo -F vermagic "$f" | cut -d' ' -f1)" = "$SMC_DUMP_STOCK_KVER" ]
	done
	# and it has loopback-ism, which Debian's smc.ko lacks
	awk '$3 == "smc_lo_move_data" && $4 == "[smc]"' /proc/kallsyms | grep -q .
	# unsigned by Debian's key: the kernel says so and taints itself (E),
	# nothing worse
	dmesg | grep -q "module verification failed"
}

@test "dkms: SMC-Dv2 over loopback-ism carries the traffic, proven by the counters" {
	ensure_ueid
	before=$("$SMC" -j stats)
	transfer 127.0.0.1 1M 2
	after=$("$SMC" -j stats)
	d() { echo $(( $(stat_of "$after" "$1") - $(stat_of "$before" "$1") )); }
	[ "$(d smcd.client.v2_success)" -eq 2 ]
	[ "$(d smcd.server.v2_success)" -eq 2 ]
	[ "$(d smcr.client.v2_success)" -eq 0 ]
	[ "$(d smcd.tx_bytes)" -eq $((2 * 2 * 1048576)) ]
	[ "$(d smcd.rx_bytes)" -eq $((2 * 2 * 1048576)) ]
}

@test "dkms: no WARNING or BUG in the kernel's log" {
	# the only taint is the unsigned module's (E, 8192) and out-of-tree (O, 4096)
	t=$(cat /proc/sys/kernel/tainted)
	echo "tainted $t"
	[ $((t & ~(8192 | 4096))) -eq 0 ]
	run dmesg
	! grep -E 'WARNING:|BUG:|Oops|general protection' <<<"$output"
}
