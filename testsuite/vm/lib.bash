# Helpers of the VM tests (bats), loaded with `load lib`. The tests run as
# root inside the guest that run-vm boots: the repo is at the same path,
# read-only; /tmp is writable.

TOP=${SMC_DUMP_TOP:-$(cd "$BATS_TEST_DIRNAME/../.." && pwd)}
NL=$TOP/testsuite/tools/smc-dummy-nl
TRAFFIC=$TOP/testsuite/tools/smc-traffic
# SMC_DUMP_SMC: another smc command, e.g. the one a .deb installed
SMC=${SMC_DUMP_SMC:-$TOP/smc/smc}
CHECK=$TOP/testsuite/lib/smcdump_check.py
HOLD=$TOP/testsuite/host/helpers/socket-hold.py
IP_BUILT=${IP_BUILT:-$TOP/build/iproute2/ip/ip}
UEID=SMCDUMPTEST

# wait_for, wait_line, wait_file, wait_listen, wait_gone
# shellcheck source=SCRIPTDIR/../lib/wait.bash
. "$TOP/testsuite/lib/wait.bash"

# The VM tests need the patched kernel: outside the guest they skip.
vm_only() {
	[ -n "${SMC_DUMP_IN_VM:-}" ] || skip "runs inside the test VM (testsuite/vm/run-suite)"
}

# SMC-Dv2 over loopback-ism needs a user EID on x86 (design.md section 6).
ensure_ueid() {
	"$SMC" ueid show | grep -qx "$UEID" || "$SMC" ueid add "$UEID"
}

# vm_setup_ueid: setup_file of the files that move SMC-Dv2 traffic
vm_setup_ueid() {
	[ -n "${SMC_DUMP_IN_VM:-}" ] || return 0
	ensure_ueid
}

# all_netns: the named network namespaces (ip netns add) of the test
all_netns() {
	local f
	for f in /run/netns/*; do
		[ -e "$f" ] && echo "${f##*/}"
	done
	return 0
}

# links_in NETNS: the smc-dummy links of NETNS ("" the initial one)
links_in() {
	local idx name rest
	run_in "$1" ip -o link show type smc-dummy 2>/dev/null |
		while read -r idx name rest; do
			name=${name%:}
			echo "${name%@*}"
		done
}

# vm_teardown [--strict] [PID]...: the teardown of the VM test files. Ends
# each PID given (empty ones are skipped), every tcpdump and smc-traffic,
# stops smc dump and deletes every smc-dummy link in each netns, then the
# named netns. With --strict a link that was still there when the test
# ended fails the teardown, named (ns/link): the test left it behind.
# Outside the guest it does nothing.
vm_teardown() {
	[ -n "${SMC_DUMP_IN_VM:-}" ] || return 0
	local strict= ns l p left=
	if [ "${1:-}" = --strict ]; then
		strict=1
		shift
	fi
	for ns in "" $(all_netns); do
		for l in $(links_in "$ns"); do
			left="$left ${ns:-init}/$l"
		done
	done
	for p in "$@"; do
		[ -z "$p" ] || kill -KILL "$p" 2>/dev/null || true
	done
	pkill -KILL -x tcpdump || true
	pkill -KILL -f smc-traffic || true
	if [ -n "$left" ]; then
		for ns in "" $(all_netns); do
			run_in "$ns" "$SMC" dump stop all >/dev/null 2>&1 || true
			for l in $(links_in "$ns"); do
				run_in "$ns" ip link del "$l" || true
			done
		done
	fi
	[ -z "$(all_netns)" ] || ip -all netns delete
	if [ -n "$strict" ] && [ -n "$left" ]; then
		echo "smc-dummy links left behind:$left"
		return 1
	fi
	return 0
}

# run_in NETNS CMD...: CMD in a netns, or here when NETNS is empty
run_in() {
	local ns=$1
	shift
	if [ -n "$ns" ]; then
		ip netns exec "$ns" "$@"
	else
		"$@"
	fi
}

# capture_start DEV FILE [NETNS]: tcpdump on DEV into FILE until
# capture_stop; returns once tcpdump listens.
capture_start() {
	local dev=$1 file=$2 ns=${3:-}
	# started directly, not through a function: a backgrounded subshell
	# would take the signal meant for tcpdump
	if [ -n "$ns" ]; then
		ip netns exec "$ns" tcpdump -i "$dev" -w "$file" -U -B 65536 2>"$file.log" &
	else
		tcpdump -i "$dev" -w "$file" -U -B 65536 2>"$file.log" &
	fi
	CAP_PID=$!
	CAP_FILE=$file
	WAIT_TIMEOUT=20 wait_line "$file.log" "listening on" || {
		cat "$file.log" >&2
		return 1
	}
}

# captures_settle FILE...: wait until no FILE has grown for longer than
# libpcap's block timeout (at most 30 s). libpcap's TPACKET_V3 ring hands
# a block to tcpdump when it is full or after its timeout (1 s by
# default): a record still in an open block when tcpdump gets SIGTERM
# never reaches the file, and tcpdump -U writes each record as it gets it.
captures_settle() {
	local size last=-1 still=0 i
	for i in $(seq 150); do
		size=$(stat -c %s "$@" 2>/dev/null | paste -sd+ || echo 0)
		if [ "$size" = "$last" ]; then
			still=$((still + 1))
			[ $still -ge 8 ] && break
		else
			still=0
		fi
		last=$size
		sleep 0.2
	done
}

# capture_stop: end tcpdump, let it flush; fails if it lost packets.
capture_stop() {
	captures_settle "$CAP_FILE"
	kill -TERM "$CAP_PID"
	wait "$CAP_PID" || true
	cat "$CAP_FILE.log"
	grep -q "^0 packets dropped by kernel" "$CAP_FILE.log"
}

# transfer ADDR BYTES [CONNS] [NETNS]: SMC traffic through ADDR, both
# directions; the outputs land in $BATS_TEST_TMPDIR/{srv,cli}.out
transfer() {
	local addr=$1 bytes=$2 conns=${3:-1} ns=${4:-} port
	local srv=$BATS_TEST_TMPDIR/srv.out cli=$BATS_TEST_TMPDIR/cli.out
	: >"$srv"
	run_in "$ns" "$TRAFFIC" server -a "$addr" -p 0 -n "$bytes" -c "$conns" >"$srv" &
	local spid=$!
	WAIT_TIMEOUT=10 wait_line "$srv" '^listening [0-9]+' || { kill $spid; return 1; }
	port=$(awk '/^listening/ { print $2 }' "$srv")
	run_in "$ns" "$TRAFFIC" client -a "$addr" -p "$port" -n "$bytes" -c "$conns" >"$cli"
	local crc=$?
	wait $spid
	local src=$?
	cat "$srv" "$cli"
	[ $crc = 0 ] && [ $src = 0 ]
}

# sums DIR: the SHA-256 of every stream the traffic tool says it moved in
# DIR (tx or rx), sorted
sums() {
	cat "$BATS_TEST_TMPDIR/srv.out" "$BATS_TEST_TMPDIR/cli.out" |
		awk -v d="$1" '$1 == "conn" && $3 == d { print $7 }' | sort
}

# cap_sums FILE.json DIR: the SHA-256 of every stream reassembled from the
# capture in DIR, sorted
cap_sums() {
	jq -r --arg d "$2" '.streams[] | select(.dir == $d) | .sha256' "$1" | sort
}

# link_stat DEV FIELD [NETNS]: a counter of the link (tx_packets, ...)
link_stat() {
	run_in "${3:-}" cat "/sys/class/net/$1/statistics/$2"
}

# link_stat_gt DEV FIELD N [NETNS]: the counter is above N (for wait_for,
# which runs it again each time)
link_stat_gt() {
	[ "$(link_stat "$1" "$2" "${4:-}")" -gt "$3" ]
}

# hold [-u UID] ARGS...: socket-hold.py ARGS in the background (as UID)
# until release; sets SPORT CPORT (listener and client ports) and SINO
# AINO CINO (inodes of the listener, the accepted and the client socket)
hold() {
	local ready uid=
	if [ "$1" = -u ]; then
		uid=$2
		shift 2
	fi
	ready=$(mktemp -d /tmp/hold.XXXXXX)
	chmod 777 "$ready"
	ready=$ready/ready
	if [ -n "$uid" ]; then
		setpriv --reuid="$uid" --regid="$uid" --clear-groups \
			python3 "$HOLD" "$@" "$ready" 3>&- &
	else
		python3 "$HOLD" "$@" "$ready" 3>&- &
	fi
	HOLD_PID=$!
	wait_file "$ready"
	cat "$ready"
	read -r _ SPORT _ CPORT _ SINO _ AINO _ CINO <"$ready"
	[ -n "$CINO" ]
}

# release: end the holder that hold started, if any
release() {
	[ -n "${HOLD_PID:-}" ] || return 0
	kill "$HOLD_PID"
	wait "$HOLD_PID" || true
	HOLD_PID=
}
