#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# The live status line of a foreground `smc dump start`: on a
# terminal, one line on standard error redrawn in place ("\r" LINE
# "\033[K") a few times a second with the link's counters; none when
# standard error is not a terminal or the decoded records go to the same
# terminal; cleared before the summary and before tcpdump's own words.
#
# The host kernel has no smc-dummy link: testsuite/tools/iplink-fakenl.c,
# preloaded, keeps the links in a file (FAKENL_STATE) and gives every
# smc-dummy link the counters of the file FAKENL_STATS, which the fake
# tcpdump below moves while smc supervises it. The terminal is a pseudo
# terminal of script(1) (util-linux, essential in Debian).

# shellcheck disable=SC2154 # bats sets $stderr in run --separate-stderr
bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_file smc || return 1
	export FAKENL_SO="$TOP/testsuite/tools/iplink-fakenl.so"
	host_need testsuite/tools iplink-fakenl.so || return 1
	mkdir -p "$T/bin"
	# tcpdump: says it listens, writes a pcap header when it writes to
	# standard output, then the link delivers 100 records of 1 KiB,
	# 0.6 s later 300 (and 2 lost), and FAKE_TAIL (0.6) s later tcpdump
	# ends by itself with its counters. FAKE_WARN=TEXT: a line of its
	# own on stderr after the 300. FAKE_NICE=FILE: its nice value there;
	# FAKE_AUTOGROUP=FILE: its /proc/self/autogroup line.
	cat >"$T/bin/tcpdump" <<'EOF'
#!/bin/bash
out=- dev=?
while [ $# -gt 0 ]; do
	case $1 in
	-w) out=$2; shift ;;
	-i) dev=$2; shift ;;
	esac
	shift
done
trap 'printf "0 packets captured\n0 packets received by filter\n0 packets dropped by kernel\n" >&2; exit 0' TERM
[ -z "${FAKE_NICE:-}" ] || nice >"$FAKE_NICE"
[ -z "${FAKE_AUTOGROUP:-}" ] || cat /proc/self/autogroup >"$FAKE_AUTOGROUP"
if [ "$out" = - ]; then
	printf '\xd4\xc3\xb2\xa1\x02\x00\x04\x00\x00\x00\x00\x00\x00\x00\x00\x00\xff\xff\x00\x00\x01\x00\x00\x00'
else
	: >"$out"
fi
echo "tcpdump: listening on $dev, link-type EN10MB (Ethernet), snapshot length 262144 bytes" >&2
echo "100 102400 0" >"$FAKENL_STATS"
# (sleeps kept: the fake's capture lasts a while, so that the status line
# has counters to show)
sleep 0.6
echo "300 307200 2" >"$FAKENL_STATS"
[ -z "${FAKE_WARN:-}" ] || echo "$FAKE_WARN" >&2
sleep "${FAKE_TAIL:-0.6}"
printf "300 packets captured\n300 packets received by filter\n0 packets dropped by kernel\n" >&2
EOF
	chmod +x "$T/bin/tcpdump"
	# smc with the fake kernel and tcpdump, for script's command line
	cat >"$T/smcx" <<EOF
#!/bin/sh
PATH="$T/bin:\$PATH" LD_PRELOAD="$FAKENL_SO" exec "$SMC" "\$@"
EOF
	chmod +x "$T/smcx"
}

setup() {
	export FAKENL_STATE="$BATS_TEST_TMPDIR/links"
	export FAKENL_STATS="$BATS_TEST_TMPDIR/stats"
	echo "0 0 0" >"$FAKENL_STATS"
	unset FAKE_WARN FAKE_TAIL FAKE_NICE FAKE_AUTOGROUP
}

# on_tty COMMAND: run the shell COMMAND on a pseudo terminal, everything
# it writes there in $BATS_TEST_TMPDIR/tty (with the terminal's \r\n)
on_tty() {
	script -qfec "$1" /dev/null </dev/null >"$BATS_TEST_TMPDIR/tty"
}

# status_lines FILE: each status line drawn, one a line ("\r" LINE
# "\033[K" on the terminal)
status_lines() {
	grep -ao $'\r[^\r\033]*records/s[^\r\033]*\033\\[K' "$1" |
		tr -d $'\r\033' | sed 's/\[K$//'
}

@test "status: on a terminal, the link's counters redrawn in place, cleared before the summary" {
	local t0 t1 n
	export FAKE_TAIL=2.5
	t0=$(date +%s%N)
	on_tty "$T/smcx dump start dev smcq0 write $BATS_TEST_TMPDIR/x.pcap"
	t1=$(date +%s%N)
	cat -A "$BATS_TEST_TMPDIR/tty"
	status_lines "$BATS_TEST_TMPDIR/tty" >"$BATS_TEST_TMPDIR/lines"
	cat "$BATS_TEST_TMPDIR/lines"
	# every line has the fields, in this form
	n=$(wc -l <"$BATS_TEST_TMPDIR/lines")
	[ "$n" -ge 5 ]
	run ! grep -Ev '^smcq0: 0:0[0-9], (100|300) records, (100|300)\.0 KiB, [0-9]+ records/s, [0-9.]+ (B|KiB)/s, lost (0|2)$' \
		"$BATS_TEST_TMPDIR/lines"
	# both states of the counters shown: 1024-byte records, 2 lost with
	# the 300
	grep -qx 'smcq0: 0:0[0-9], 100 records, 100.0 KiB, .*, lost 0' "$BATS_TEST_TMPDIR/lines"
	grep -qx 'smcq0: 0:0[0-9], 300 records, 300.0 KiB, .*, lost 2' "$BATS_TEST_TMPDIR/lines"
	# a rate while the counters rise: 1 KiB/s per record/s; at most
	# 300 records in the shortest interval, 0.25 s
	grep -Eq ', [1-9][0-9]* records/s, ' "$BATS_TEST_TMPDIR/lines"
	awk -F', ' '{ split($4, r, " "); if (r[1] > 1200) exit 1 }' "$BATS_TEST_TMPDIR/lines"
	awk -F', ' '{ split($4, r, " "); split($5, b, " ");
		if (r[1] > 0 && (b[2] != "KiB/s" || b[1] < r[1] - 1 || b[1] > r[1] + 1)) exit 1 }' \
		"$BATS_TEST_TMPDIR/lines"
	# the rate is over the last second: 2.5 s after the last change it is 0
	tail -n1 "$BATS_TEST_TMPDIR/lines" | grep -qx 'smcq0: 0:0[2-9], 300 records, 300.0 KiB, 0 records/s, 0 B/s, lost 2'
	# at most 4 a second (and one at the start)
	[ "$n" -le $(( (t1 - t0) / 250000000 + 1 )) ]
	# erased before the summary, which then starts the line
	grep -aq $'\033\\[K\r\033\\[Ksmc dump: smcq0: 300 records captured, 0 dropped by the kernel; the link delivered 300, lost 2 (tx_dropped)\r$' \
		"$BATS_TEST_TMPDIR/tty"
}

@test "status: tcpdump's own words clear the line first" {
	export FAKE_WARN="tcpdump: warning: something to say"
	on_tty "$T/smcx dump start dev smcq0 write $BATS_TEST_TMPDIR/x.pcap"
	cat -A "$BATS_TEST_TMPDIR/tty"
	# the warning starts a line of its own: at the start of the output's
	# line or right after an erase
	grep -aqE $'(^|\033\\[K\r\033\\[K)tcpdump: warning: something to say\r$' "$BATS_TEST_TMPDIR/tty"
	run ! grep -aq $'records/s[^\r]*tcpdump: warning' "$BATS_TEST_TMPDIR/tty"
}

@test "status: none when standard error is not a terminal" {
	run --separate-stderr "$T/smcx" dump start dev smcq0 write "$BATS_TEST_TMPDIR/x.pcap"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"the link delivered 300, lost 2 (tx_dropped)" ]]
	[[ "$stderr" != *"records/s"* ]]
	[[ "$stderr" != *$'\r'* ]]
	[[ "$stderr" != *$'\033'* ]]
	# a terminal on standard output only: still none
	on_tty "$T/smcx dump start dev smcq0 write $BATS_TEST_TMPDIR/x.pcap 2>$BATS_TEST_TMPDIR/err"
	run ! grep -aq 'records/s' "$BATS_TEST_TMPDIR/tty" "$BATS_TEST_TMPDIR/err"
	grep -q 'the link delivered 300' "$BATS_TEST_TMPDIR/err"
}

@test "status: none when the decoded records go to the same terminal, shown when they go elsewhere" {
	# without write the records are decoded onto standard output
	on_tty "$T/smcx dump start dev smcq0"
	cat -A "$BATS_TEST_TMPDIR/tty"
	grep -aq 'the link delivered 300' "$BATS_TEST_TMPDIR/tty"
	run ! grep -aq 'records/s' "$BATS_TEST_TMPDIR/tty"
	# records to a file, the terminal free for the line
	on_tty "$T/smcx dump start dev smcq0 >$BATS_TEST_TMPDIR/records"
	grep -aq 'records/s' "$BATS_TEST_TMPDIR/tty"
	run ! grep -aq 'records/s' "$BATS_TEST_TMPDIR/records"
	# write - : the pcap stream on standard output, not a terminal
	on_tty "$T/smcx dump start dev smcq0 write - >$BATS_TEST_TMPDIR/stream"
	grep -aq 'records/s' "$BATS_TEST_TMPDIR/tty"
	[ "$(head -c4 "$BATS_TEST_TMPDIR/stream" | od -An -tx1 | tr -d ' ')" = d4c3b2a1 ]
}

@test "nice: tcpdump runs at nice -19 unless told otherwise; without the right, a warning" {
	export FAKE_NICE=$BATS_TEST_TMPDIR/nice FAKE_TAIL=0.1
	[ "$(id -u)" = 0 ] || skip "needs root (CAP_SYS_NICE) to raise a priority"
	run "$T/smcx" dump start dev smcq0 write "$BATS_TEST_TMPDIR/x.pcap"
	[ "$status" -eq 0 ]
	[ "$(cat "$FAKE_NICE")" = -19 ]
	# (the host has no smc_diag: the connection context's warning is
	# there, the priority's is not)
	[[ "$output" != *"warning: cannot run the capture at nice"* ]]
	run "$T/smcx" dump start dev smcq0 nice 7 write "$BATS_TEST_TMPDIR/x.pcap"
	[ "$status" -eq 0 ]
	[ "$(cat "$FAKE_NICE")" = 7 ]
	# a user without CAP_SYS_NICE: told, and the capture runs at its own
	# priority (setpriv: util-linux, essential in Debian). bats' own
	# directories are closed to others: a directory of its own.
	local u
	u=$(mktemp -d /tmp/smc-nice.XXXXXX)
	chmod 755 "$u"
	cp -r "$T/bin" "$FAKENL_SO" "$u/"
	printf '#!/bin/sh\nPATH="%s/bin:$PATH" LD_PRELOAD="%s" exec "%s" "$@"\n' \
		"$u" "$u/${FAKENL_SO##*/}" "$SMC" >"$u/smcx"
	chmod -R a+rX "$u" && chmod 755 "$u/smcx"
	mkdir -m 777 "$u/w"
	echo "0 0 0" >"$u/w/stats"
	chmod 666 "$u/w/stats"
	run setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		env FAKENL_STATE="$u/w/links" FAKENL_STATS="$u/w/stats" FAKE_NICE="$u/w/nice" \
		"$u/smcx" dump start dev smcq0 write "$u/w/y.pcap"
	echo "$output"
	local got
	got=$(cat "$u/w/nice")
	rm -rf "$u"
	[ "$status" -eq 0 ]
	[[ "$output" == *"smc dump: warning: cannot run the capture at nice -19 (Permission denied): at full speed it may lose records"* ]]
	[ "$got" = "$(nice)" ]
}

@test "nice: a background capture's autogroup runs at its nice too" {
	# nice 7: lowering a priority needs no privilege, here or in the
	# autogroup
	[ -e /proc/self/autogroup ] || skip "this kernel has no autogroups (CONFIG_SCHED_AUTOGROUP)"
	local ag=$BATS_TEST_TMPDIR/ag
	export FAKE_NICE=$BATS_TEST_TMPDIR/nice FAKE_AUTOGROUP=$ag FAKE_TAIL=0.1
	run "$T/smcx" dump start dev smcq0 nice 7 write "$BATS_TEST_TMPDIR/x.pcap" background
	echo "$output"
	[ "$status" -eq 0 ]
	WAIT_TIMEOUT=5 wait_file "$ag"
	cat "$ag"
	[ "$(cat "$FAKE_NICE")" = 7 ]
	# its own session's group (setsid), not this shell's, at nice 7
	[[ "$(cat "$ag")" == "/autogroup-"*" nice 7" ]]
	[ "$(cut -d' ' -f1 "$ag")" != "$(cut -d' ' -f1 /proc/self/autogroup)" ]
	[[ "$output" != *warning* ]]
	# in the foreground the capture stays in the caller's session and
	# group, whose nice it leaves alone
	rm -f "$ag"
	run "$T/smcx" dump start dev smcq1 nice 7 write "$BATS_TEST_TMPDIR/y.pcap"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(cat "$ag")" = "$(cat /proc/self/autogroup)" ]
}
