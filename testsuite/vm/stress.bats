#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Stress, netlink fuzz and links, tcpdump and netns ended under load, of
# smc-dummy and SMC dump in the debug test kernel. The runner (run-vm) also fails the whole run on any
# WARNING, BUG, KASAN, lockdep, RCU or kmemleak report; these tests check
# the kernel log themselves too, so that a report names the test that
# caused it.
#
#   SMC_DUMP_STRESS_SECS  length of the stress (default 120)
#   SMC_DUMP_FUZZ_SEED    seed of the netlink fuzz (default: the time,
#                         printed; replay a failure with it)
#   SMC_DUMP_FUZZ_ITERS / SMC_DUMP_FUZZ_SECS  its bounds (3000 / 60)

load lib

FUZZ=$TOP/testsuite/tools/smc-dummy-fuzz
SPLAT='WARNING:|BUG:|KASAN:|Oops|general protection|possible recursive locking|possible circular locking|inconsistent lock state|suspicious RCU usage|INFO: task .* blocked|UBSAN:|refcount_t:|unregister_netdevice: waiting for'

setup_file() {
	vm_setup_ueid
}

setup() {
	vm_only
	MARK="smc-dump-test-mark-$BATS_TEST_NUMBER-$$-$RANDOM"
	echo "$MARK" >/dev/kmsg
}

teardown() {
	[ -n "${SMC_DUMP_IN_VM:-}" ] || return 0
	local l p
	for p in ${PIDS:-}; do
		kill "$p" 2>/dev/null || true
	done
	# what the loops started (this guest runs nothing else)
	pkill -f smc-traffic 2>/dev/null || true
	pkill tcpdump 2>/dev/null || true
	wait 2>/dev/null || true
	for l in $(ip -o link show type smc-dummy 2>/dev/null | awk -F': ' '{ print $2 }'); do
		ip link del "${l%@*}" 2>/dev/null || true
	done
	ip -all netns delete 2>/dev/null || true
}

# kernel_log_clean: no report in the kernel log since this test began
kernel_log_clean() {
	local since
	since=$(dmesg | sed -n "/$MARK/,\$p")
	# the mark gone means the log overflowed: nothing would be checked
	[ -n "$since" ] || { echo "kernel log: $MARK is gone (log overflow)"; return 1; }
	if grep -Eq "$SPLAT" <<<"$since"; then
		grep -E -A 20 "$SPLAT" <<<"$since" | head -80
		return 1
	fi
}

# kmemleak_clean: a scan finds no unreferenced object (when the kernel
# has kmemleak, as the test kernel does)
kmemleak_clean() {
	local f=/sys/kernel/debug/kmemleak
	if [ ! -e $f ]; then
		echo "kmemleak: not in this kernel, not checked"
		return 0
	fi
	# objects younger than 5 s are not reported: let the last ones age
	sleep 6
	echo scan >$f
	sleep 1
	echo scan >$f
	# (a debugfs file: its size is always 0, read it)
	local r
	r=$(cat $f)
	if [ -n "$r" ]; then
		head -60 <<<"$r"
		return 1
	fi
	echo "kmemleak: no report"
}

# smc_dummy_links: every smc-dummy link of every netns, one a line
smc_dummy_links() {
	ip -o link show type smc-dummy
	ip -all netns exec ip -o link show type smc-dummy 2>/dev/null | grep -v '^netns:' || true
}

@test "netlink fuzz: random IFLA_INFO_DATA for smc-dummy, every invalid one refused" {
	seed=${SMC_DUMP_FUZZ_SEED:-$(date +%s)}
	echo "seed $seed (SMC_DUMP_FUZZ_SEED=$seed replays this run)"
	ip netns add fuzz
	run ip netns exec fuzz "$FUZZ" -s "$seed" -n "${SMC_DUMP_FUZZ_ITERS:-3000}" \
		-t "${SMC_DUMP_FUZZ_SECS:-60}"
	echo "$output"
	[ "$status" -eq 0 ]
	line=$(grep '^seed ' <<<"$output")
	read -r _ _ _ iters _ acc _ ref _ ext _ _ _ _ _ mis <<<"$line"
	# enough of both kinds, every refusal an error, no mismatch
	[ "$mis" -eq 0 ]
	[ "$iters" -ge 200 ]
	[ "$acc" -ge $((iters / 10)) ]
	[ "$ref" -ge $((iters / 10)) ]
	[ "$ext" -ge $((ref / 2)) ]
	run ip -n fuzz -o link show type smc-dummy
	[ -z "$output" ]
	timeout 60 ip netns del fuzz
	kernel_log_clean
}

# (from kernel-dump.bats, which make check runs on the non-debug stock-dkms
# bed: this one is the debug kernel's, the paths that end under load)
@test "lifecycle: delete the link, stop tcpdump, delete the netns under load" {
	ip netns add load
	ip -n load link set lo up
	ip netns exec load "$NL" add smcd0
	ip netns exec load "$NL" add smcd1 snaplen 100
	ip -n load link set smcd0 up
	ip -n load link set smcd1 up
	ip netns exec load "$SMC" ueid show >/dev/null
	capture_start smcd0 $BATS_TEST_TMPDIR/l0.pcap load
	ip netns exec load tcpdump -i smcd1 -w /dev/null 2>/dev/null &
	tpid=$!
	ip netns exec load "$TRAFFIC" server -a 127.0.0.1 -p 5300 -n 64M -c 8 -T 300 --allow-fallback >$BATS_TEST_TMPDIR/ls.out 2>&1 &
	spid=$!
	sleep 1
	ip netns exec load "$TRAFFIC" client -a 127.0.0.1 -p 5300 -n 64M -c 8 -T 300 --allow-fallback >$BATS_TEST_TMPDIR/lc.out 2>&1 &
	cpid=$!
	sleep 3
	kill -TERM $tpid
	ip -n load link del smcd1
	sleep 1
	ip -n load link del smcd0
	kill -TERM $CAP_PID
	wait $CAP_PID || true
	sleep 1
	kill $cpid $spid 2>/dev/null || true
	wait $cpid $spid 2>/dev/null || true
	# a second round: links and tcpdump gone while the netns itself dies
	ip netns exec load "$NL" add smcd2
	ip -n load link set smcd2 up
	ip netns exec load tcpdump -i smcd2 -w /dev/null 2>/dev/null &
	ip netns exec load "$TRAFFIC" server -a 127.0.0.1 -p 5301 -n 64M -c 8 -T 300 --allow-fallback >/dev/null 2>&1 &
	sleep 1
	ip netns exec load "$TRAFFIC" client -a 127.0.0.1 -p 5301 -n 64M -c 8 -T 300 --allow-fallback >/dev/null 2>&1 &
	sleep 3
	pkill -f "smc-traffic" || true
	pkill tcpdump || true
	wait || true
	timeout 60 ip netns del load
	run ip netns list
	[[ "$output" != *load* ]]
}

# ---- the stress ----

# traffic_loop END DIR: rounds of 32 SMC-D connections in init_net until
# END; each round must move and verify its data over SMC. At the lowest
# priority: under TCG they would starve the loops that churn.
traffic_loop() {
	local end=$1 d=$2 r=0 port t0
	set +e	# failures are logged, not fatal to the loop
	while [ "$(date +%s)" -lt "$end" ]; do
		r=$((r + 1))
		port=$((6000 + r))
		t0=$(date +%s)
		nice -n 19 "$TRAFFIC" server -a 127.0.0.1 -p $port -n 1M -c 32 -T 300 \
			-r "$d/ready.$r" >"$d/srv.$r" 2>&1 &
		local spid=$!
		for _ in $(seq 100); do
			[ -s "$d/ready.$r" ] && break
			sleep 0.1
		done
		if nice -n 19 "$TRAFFIC" client -a 127.0.0.1 -p $port -n 1M -c 32 -T 300 \
			>"$d/cli.$r" 2>&1 && wait $spid; then
			echo "round $r ok $(($(date +%s) - t0)) s" >>"$d/traffic.log"
		else
			kill $spid 2>/dev/null
			wait $spid 2>/dev/null
			echo "round $r FAILED" >>"$d/traffic.log"
			tail -5 "$d/cli.$r" "$d/srv.$r" >>"$d/traffic.log"
		fi
	done
}

# pick WORDS...: sets PICK to one of the words, at random (no subshell:
# forks are slow in the emulated guest)
pick() {
	local a=("$@")
	PICK=${a[RANDOM % ${#a[@]}]}
}

# random_filter: sets FILTER to the smc-dummy-nl words of a valid filter
random_filter() {
	FILTER=()
	[ $((RANDOM % 2)) = 0 ] && FILTER+=(mode $((RANDOM % 3)))
	[ $((RANDOM % 2)) = 0 ] && FILTER+=(capture $((RANDOM % 4)))
	if [ $((RANDOM % 2)) = 0 ]; then
		pick 0 1 64 1000 65535
		FILTER+=(snaplen "$PICK")
	fi
	return 0
}

# link_loop END DIR: init_net links created, changed and deleted, tcpdump
# started on them and stopped, until END and at least 3 links made (a slow
# host gets the same minimum of churn, only later)
link_loop() {
	local end=$1 d=$2 n=0 l tp ops=0
	declare -A tcp
	set +e	# failures are logged, not fatal to the loop
	while [ "$(date +%s)" -lt "$end" ] || [ "$n" -lt 3 ]; do
		l=sd$((RANDOM % 4))
		ops=$((ops + 1))
		case $((RANDOM % 6)) in
		0|1)	[ -e /sys/class/net/$l ] && continue
			random_filter
			if "$NL" add $l "${FILTER[@]}" 2>>"$d/links.err"; then
				ip link set $l up
				n=$((n + 1))
			fi ;;
		2)	[ -e /sys/class/net/$l ] && "$NL" del $l 2>>"$d/links.err" ;;
		3)	random_filter
			[ -e /sys/class/net/$l ] &&
				"$NL" set $l "${FILTER[@]}" 2>>"$d/links.err" ;;
		4)	if [ -z "${tcp[$l]:-}" ] && [ -e /sys/class/net/$l ]; then
				# whole records to /dev/null, or 256 bytes of
				# each to a file (tmpfs stays small)
				pick 1024 8192
				if [ $((RANDOM % 2)) = 0 ]; then
					tcpdump -i $l -w /dev/null -B "$PICK" \
						>/dev/null 2>&1 &
				else
					tcpdump -i $l -w "$d/$l.pcap" -s 256 -c 20000 \
						>/dev/null 2>&1 &
				fi
				tcp[$l]=$!
			fi ;;
		5)	if [ -n "${tcp[$l]:-}" ]; then
				kill -TERM "${tcp[$l]}" 2>/dev/null
				wait "${tcp[$l]}" 2>/dev/null
				tcp[$l]=
				rm -f "$d/$l.pcap"
			fi ;;
		esac
		sleep 0.$((RANDOM % 5))
	done
	for tp in "${tcp[@]}"; do
		[ -n "$tp" ] && kill -TERM "$tp" 2>/dev/null
	done
	wait
	echo "link ops $ops, links created $n" >>"$d/links.log"
}

# netns_loop END DIR: namespaces with links, tcpdump and SMC-D
# connections in them, deleted while the traffic runs, until END and at
# least 3 namespaces
netns_loop() {
	local end=$1 d=$2 k=0 ns pids rc
	set +e	# failures are logged, not fatal to the loop
	while [ "$(date +%s)" -lt "$end" ] || [ "$k" -lt 3 ]; do
		k=$((k + 1))
		ns=stress$k
		{ ip netns add $ns &&
		  ip -n $ns link set lo up &&
		  ip netns exec $ns "$NL" add nd0 &&
		  ip -n $ns link set nd0 up &&
		  ip netns exec $ns "$NL" add nd1 capture 2 snaplen 64 &&
		  ip -n $ns link set nd1 up; } 2>>"$d/netns.err" ||
			echo "netns $ns: setup failed" >>"$d/netns.err"
		pids=
		if [ $((k % 2)) = 1 ]; then
			ip netns exec $ns tcpdump -i nd0 -w /dev/null >/dev/null 2>&1 &
			pids="$pids $!"
		fi
		ip netns exec $ns nice -n 19 "$TRAFFIC" server -a 127.0.0.1 -p 7000 -n 64M -c 2 \
			-T 120 --allow-fallback >/dev/null 2>&1 &
		pids="$pids $!"
		sleep 0.5
		ip netns exec $ns nice -n 19 "$TRAFFIC" client -a 127.0.0.1 -p 7000 -n 64M -c 2 \
			-T 120 --allow-fallback >/dev/null 2>&1 &
		pids="$pids $!"
		sleep $((1 + RANDOM % 3))
		# delete a link under load, or the netns with everything in it
		if [ $((k % 3)) = 0 ]; then
			ip -n $ns link del nd1 2>>"$d/netns.err" ||
				echo "netns $ns: link del failed" >>"$d/netns.err"
		fi
		rc=0
		timeout 60 ip netns del $ns || rc=$?
		echo "netns $ns del exit $rc" >>"$d/netns.log"
		# shellcheck disable=SC2086
		kill $pids 2>/dev/null
		# shellcheck disable=SC2086
		wait $pids 2>/dev/null
	done
}

@test "stress: 32 SMC-D connections while links, filters, tcpdump and netns churn" {
	secs=${SMC_DUMP_STRESS_SECS:-120}
	d=$BATS_TEST_TMPDIR
	echo "$(nproc) CPUs online, ${secs} s of stress"
	end=$(($(date +%s) + secs))
	traffic_loop "$end" "$d" &
	PIDS="$!"
	link_loop "$end" "$d" &
	PIDS="$PIDS $!"
	netns_loop "$end" "$d" &
	PIDS="$PIDS $!"
	# the loops end by themselves; a round started just before the end
	# still has to finish
	for p in $PIDS; do
		timeout_at=$(($(date +%s) + 600))
		while kill -0 "$p" 2>/dev/null; do
			[ "$(date +%s)" -lt "$timeout_at" ] || { echo "a loop hangs"; false; }
			sleep 1
		done
	done
	PIDS=
	cat "$d/traffic.log" "$d/links.log" "$d/netns.log"
	cat "$d/links.err" "$d/netns.err" 2>/dev/null || true
	# no link or netns operation failed that should not have
	[ ! -s "$d/links.err" ]
	[ ! -s "$d/netns.err" ]
	# the 32-connection rounds all moved and verified their data over SMC
	[ "$(grep -c ' ok ' "$d/traffic.log")" -ge 1 ]
	run grep FAILED "$d/traffic.log"
	[ "$status" -eq 1 ]
	# links really came and went, namespaces really were deleted
	[ "$(awk '{ print $NF }' "$d/links.log")" -ge 3 ]
	[ "$(grep -c 'del exit' "$d/netns.log")" -ge 3 ]
	# every ip netns del completed
	run grep -v 'del exit 0$' "$d/netns.log"
	[ "$status" -eq 1 ]
	# nothing left: the loops stopped every tcpdump they started, no
	# netns; then no link anywhere
	run pgrep -x tcpdump
	[ "$status" -eq 1 ] || { ps -ef | grep '[t]cpdump'; false; }
	run ip netns list
	[ -z "$output" ]
	for l in $(ip -o link show type smc-dummy | awk -F': ' '{ print $2 }'); do
		ip link del "${l%@*}"
	done
	run smc_dummy_links
	[ -z "$output" ]
	# every SMC socket closed: the ones of the killed processes finish
	# their close handshake over loopback-ism within seconds. (One left
	# at the guest's reboot also meets SMC's own reboot path, which locks
	# smcd_dev_list.mutex before the socket, the reverse of connect().)
	left=
	for _ in $(seq 60); do
		left=$("$SMC" -j socket all | jq length)
		[ "$left" = 0 ] && break
		sleep 1
	done
	[ "$left" = 0 ] || { "$SMC" socket all; false; }
	# netns cleanup runs in a workqueue: give it the time to finish (and
	# unregister_netdevice the time to complain about a leaked reference)
	sleep 15
	kernel_log_clean
	kmemleak_clean
}
