#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# smc dump start, stop and show, and smcdump-ex, in the patched kernel:
# captures in the foreground and in the background, ended by
# SIGINT, SIGTERM, SIGHUP or `smc dump stop`; netns workflows; mode all
# with the handshake and the records in one file; each mode and type;
# the errors. After every test no smc-dummy link may remain (teardown
# fails the test otherwise).
#
# What the captures hold is checked by testsuite/lib/smcdump_check.py (an
# independent parser of Ethernet captures) or by cooked.py below (Linux
# cooked captures of mode all), and the byte streams against what the
# traffic tool says it moved; never against our own decoder's output.
# Every program start costs about a second in the emulated guest, so the
# tests start few (one python for all checks of a test, no jq per value).

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	[ -n "${SMC_DUMP_IN_VM:-}" ] || return 0
	ensure_ueid
	REAL_TCPDUMP=$(command -v tcpdump)
	export REAL_TCPDUMP
	check_py >"$BATS_FILE_TMPDIR/check.py"
	cooked_py >"$BATS_FILE_TMPDIR/cooked.py"
}

setup() {
	vm_only
	FG_PID=
}

teardown() {
	vm_teardown --strict "$FG_PID"
}

# fg_start NETNS -- ARGS...: smc dump start ARGS ("" NETNS: here) in the
# foreground of a background job (stdout fg.out, stderr fg.err); returns
# once it captures, with FG_PID and FG_LINK (the link it made) set
fg_start() {
	local ns=$1
	shift 2
	local d=$BATS_TEST_TMPDIR
	# a previous capture's fg.err names its link: the new job may not
	# have truncated the file yet when fg_wait first reads it
	rm -f "$d/fg.out" "$d/fg.err"
	if [ -n "$ns" ]; then
		ip netns exec "$ns" "$SMC" dump start "$@" >"$d/fg.out" 2>"$d/fg.err" &
	else
		"$SMC" dump start "$@" >"$d/fg.out" 2>"$d/fg.err" &
	fi
	FG_PID=$!
	fg_wait
}

# fg_wait: until the capture of FG_PID runs; sets FG_LINK
fg_wait() {
	local i line
	for ((i = 0; i < 600; i++)); do
		[ ! -e "$BATS_TEST_TMPDIR/fg.err" ] ||
		while read -r line; do
			if [[ "$line" == "smc dump: capturing on "* ]]; then
				line=${line#smc dump: capturing on }
				FG_LINK=${line%% *}
				return 0
			fi
		done <"$BATS_TEST_TMPDIR/fg.err"
		kill -0 "$FG_PID" 2>/dev/null || break
		sleep 0.1
	done
	cat "$BATS_TEST_TMPDIR/fg.err"
	return 1
}

# fg_stop SIGNAL: end the foreground capture with SIGNAL, FG_RC its status
fg_stop() {
	kill -"$1" "$FG_PID"
	fg_end
}

# fg_end: wait for the foreground capture to end, FG_RC its status
fg_end() {
	FG_RC=0
	wait "$FG_PID" || FG_RC=$?
	FG_PID=
	cat "$BATS_TEST_TMPDIR/fg.err"
}

# summary FILE: "CAPTURED DROPPED DELIVERED LOST" of the summary line
summary() {
	sed -n 's/^smc dump: [^:]*: \([0-9]*\) records captured, \([0-9]*\) dropped by the kernel; the link delivered \([0-9]*\), lost \([0-9]*\) (tx_dropped)$/\1 \2 \3 \4/p' "$1"
}

# tsums DIR: the SHA-256 of the streams the traffic tool moved in DIR,
# sorted, on one line
tsums() {
	echo $(sums "$1")
}

# gone LINK [NETNS]: there is no such link
gone() {
	! run_in "${2:-}" ip link show "$1" >/dev/null 2>&1
}

# check PCAP...: run the independent checker on each capture (one python
# for all) and set C_<name>_<counter> for its counters, C_<name>_tx_sums
# and _rx_sums (the streams' SHA-256, sorted), C_<name>_streams and
# C_<name>_bad_streams (streams with holes, overlaps or not from offset
# 0); <name>: the file's base name without .pcap
check() {
	local out
	out=$(python3 "$BATS_FILE_TMPDIR/check.py" "$CHECK" "$@") || return 1
	eval "$out"
}

check_py() {
	cat <<'EOF'
import contextlib, importlib.util, io, json, os, re, sys
spec = importlib.util.spec_from_file_location("chk", sys.argv[1])
chk = importlib.util.module_from_spec(spec)
spec.loader.exec_module(chk)
for path in sys.argv[2:]:
    buf = io.StringIO()
    sys.argv = ["chk", path]
    with contextlib.redirect_stdout(buf):
        chk.main()
    out = json.loads(buf.getvalue())
    with open(path + ".json", "w") as f:
        f.write(buf.getvalue())
    base = re.sub(r"\W", "_", os.path.basename(path)[:-5])
    short = {k: v for k, v in out.items() if k not in ("streams", "endpoints")}
    print("echo '%s: %s'" % (base, json.dumps(short)))
    for k, v in short.items():
        if isinstance(v, int) and not isinstance(v, bool):
            print("C_%s_%s=%d" % (base, k, v))
    for d in ("tx", "rx"):
        s = sorted(st["sha256"] for st in out["streams"] if st["dir"] == d)
        print("C_%s_%s_sums='%s'" % (base, d, " ".join(s)))
    print("C_%s_streams=%d" % (base, len(out["streams"])))
    bad = [st for st in out["streams"]
           if st["holes"] or st["overlaps"] or st["first_offset"]]
    print("C_%s_bad_streams=%d" % (base, len(bad)))
EOF
}

# whole NAME: capture NAME (checked) parsed, numbered from 0 without
# gaps, each stream whole and equal to what the traffic tool moved
whole() {
	local n=$1 v
	for v in records bad_magic bad_len seq_first seq_gaps bad_streams; do
		eval "v_$v=\${C_${n}_$v:-none}"
	done
	eval "v_tx=\$C_${n}_tx_sums v_rx=\$C_${n}_rx_sums"
	[ "$v_records" -gt 0 ]
	[ "$v_bad_magic" -eq 0 ]
	[ "$v_bad_len" -eq 0 ]
	[ "$v_seq_first" -eq 0 ]
	[ "$v_seq_gaps" -eq 0 ]
	[ "$v_bad_streams" -eq 0 ]
	[ "$v_tx" = "$(tsums tx)" ]
	[ "$v_rx" = "$(tsums rx)" ]
}

# cooked.py: reads a Linux cooked (v1 or v2) capture of tcpdump -i any
# and counts, in frame order: TCP SYNs with the SMC option (kind 254,
# magic E2D4C3D9), CLC messages (TCP payload starting "SMCR"/"SMCD" in
# EBCDIC), SMC dump records (UDP payload starting with the magic). The
# sent copy of a packet on a loopback device is skipped (it is there
# twice). Prints shell assignments K_<counter>=N.
cooked_py() {
	cat <<'EOF'
import struct, sys
d = open(sys.argv[1], "rb").read()
e = "<" if struct.unpack("<I", d[:4])[0] in (0xA1B2C3D4, 0xA1B23C4D) else ">"
lt = struct.unpack(e + "I", d[20:24])[0]
o, n = 24, 0
out = {"linktype": lt, "frames": 0, "syn_smc": 0, "clc": 0, "records": 0,
       "first_clc": 0, "first_record": 0}
ifs = set()
while o + 16 <= len(d):
    incl = struct.unpack(e + "IIII", d[o:o + 16])[2]
    f = d[o + 16:o + 16 + incl]
    o += 16 + incl
    n += 1
    out["frames"] += 1
    if lt == 276:
        proto, ifindex, hatype, pkttype = struct.unpack("!HxxIHB", f[:11])
        p = f[20:]
    elif lt == 113:
        pkttype, hatype = struct.unpack("!HH", f[:4])
        proto = struct.unpack("!H", f[14:16])[0]
        ifindex, p = 0, f[16:]
    else:
        sys.exit("link type %d" % lt)
    if hatype == 772 and pkttype == 4:
        continue
    if proto == 0x0800:
        l4, seg = p[9], p[(p[0] & 15) * 4:]
    elif proto == 0x86DD:
        l4, seg = p[6], p[40:]
    else:
        continue
    if l4 == 17:
        if seg[8:12] == b"\xcf\xd3\xe7\xa5":
            out["records"] += 1
            out["first_record"] = out["first_record"] or n
            ifs.add(ifindex)
    elif l4 == 6:
        doff = (seg[12] >> 4) * 4
        opts, i = seg[20:doff], 0
        while i < len(opts) and opts[i] != 0:
            if opts[i] == 1:
                i += 1
                continue
            if (opts[i] == 254 and opts[i + 2:i + 6] == b"\xe2\xd4\xc3\xd9"
                    and seg[13] & 2):
                out["syn_smc"] += 1
            i += max(opts[i + 1], 2)
        if seg[doff:doff + 4] in (b"\xe2\xd4\xc3\xd9", b"\xe2\xd4\xc3\xc4"):
            out["clc"] += 1
            out["first_clc"] = out["first_clc"] or n
for k, v in out.items():
    print("K_%s=%d" % (k, v))
print("K_record_ifindex='%s'" % " ".join(str(i) for i in sorted(ifs)))
EOF
}

# ----------------------------------------------------------- foreground

@test "foreground: write FILE, SIGINT: file flushed, summary counts it all, link deleted" {
	f=$BATS_TEST_TMPDIR/fg.pcap
	fg_start "" -- write "$f"
	[[ "$FG_LINK" =~ ^smc-dummy[a-z]{4}$ ]]
	# up, with the filter asked for (mode smc = 0 both, type all)
	[ "$("$NL" get "$FG_LINK")" = "mode 0 capture 0 snaplen 0" ]
	ip -o link show "$FG_LINK" | grep -q "[<,]UP[,>]"
	transfer 127.0.0.1 1M 1
	fg_stop INT
	[ "$FG_RC" -eq 0 ]
	gone "$FG_LINK"
	check "$f"
	whole fg
	# the summary: what tcpdump wrote (the checker's count), nothing
	# dropped, every record the link delivered reached the file
	read -r cap drop deliv lost <<<"$(summary "$BATS_TEST_TMPDIR/fg.err")"
	[ "$cap" -eq "$C_fg_records" ]
	[ "$drop" -eq 0 ]
	[ "$deliv" -eq "$cap" ]
	[ "$lost" -eq 0 ]
}

@test "foreground: SIGHUP, SIGTERM and smc dump stop from elsewhere end it cleanly" {
	d=$BATS_TEST_TMPDIR
	fg_start "" -- write "$d/hup.pcap" type cdc
	transfer 127.0.0.1 256K 1
	fg_stop HUP
	[ "$FG_RC" -eq 0 ]
	gone "$FG_LINK"
	cp "$d/fg.err" "$d/hup.err"
	fg_start "" -- write "$d/term.pcap" type cdc
	fg_stop TERM
	[ "$FG_RC" -eq 0 ]
	gone "$FG_LINK"
	grep -qx "smc dump: $FG_LINK: 0 records captured, 0 dropped by the kernel; the link delivered 0, lost 0 (tx_dropped)" "$d/fg.err"
	# smc dump stop in another shell: SIGTERM to the pid of the alias
	fg_start "" -- write "$d/stop.pcap"
	run "$SMC" dump stop
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$output" = "smc dump: $FG_LINK: capture (pid $FG_PID) ended" ]
	fg_end
	[ "$FG_RC" -eq 0 ]
	gone "$FG_LINK"
	check "$d/hup.pcap"
	[ "$C_hup_cdc" -gt 0 ]
	[ "$C_hup_data" -eq 0 ]
	read -r cap drop deliv lost <<<"$(summary "$d/hup.err")"
	[ "$cap" -eq "$C_hup_records" ]
	[ "$deliv" -eq "$cap" ]
}

@test "foreground: without write, records are decoded as they come" {
	fg_start "" -- type cdc
	transfer 127.0.0.1 256K 1
	# decoded before the capture ends: tcpdump stays the capturer, the
	# decoder prints each frame it hands over
	WAIT_TIMEOUT=5 wait_file "$BATS_TEST_TMPDIR/fg.out"
	fg_stop INT
	[ "$FG_RC" -eq 0 ]
	cat "$BATS_TEST_TMPDIR/fg.out"
	read -r cap drop deliv lost <<<"$(summary "$BATS_TEST_TMPDIR/fg.err")"
	[ "$cap" -gt 0 ]
	[ "$deliv" -eq "$cap" ]
	# one line per record, all SMC-D CDC messages of this netns
	[ "$(wc -l <"$BATS_TEST_TMPDIR/fg.out")" -eq "$cap" ]
	[ "$(grep -Ec '^[0-9]+ [0-9:.]+ SMC-D (tx|rx) 127\.0\.0\.1:[0-9]+ > 127\.0\.0\.1:[0-9]+ token 0x[0-9a-f]+ cdc ' "$BATS_TEST_TMPDIR/fg.out")" -eq "$cap" ]
	gone "$FG_LINK"
}

@test "foreground: -j decodes to one JSON array" {
	d=$BATS_TEST_TMPDIR
	"$SMC" -j dump start type raw >"$d/fg.out" 2>"$d/fg.err" &
	FG_PID=$!
	fg_wait
	transfer 127.0.0.1 256K 1
	fg_stop INT
	[ "$FG_RC" -eq 0 ]
	read -r cap drop deliv lost <<<"$(summary "$d/fg.err")"
	[ "$cap" -gt 0 ]
	[ "$deliv" -eq "$cap" ]
	# data records only, and they add up to what both ends sent and got
	read -r n other tx rx <<<"$(jq -r '[length, ([.[] | select(.type != "data")] | length),
		([.[] | select(.dir == "tx") | .len] | add),
		([.[] | select(.dir == "rx") | .len] | add)] | @tsv' "$d/fg.out")"
	[ "$n" -eq "$cap" ]
	[ "$other" -eq 0 ]
	[ "$tx" -eq $((2 * 262144)) ]
	[ "$rx" -eq $((2 * 262144)) ]
	gone "$FG_LINK"
}

@test "foreground: a reader that goes away (| head -3) ends the capture cleanly" {
	d=$BATS_TEST_TMPDIR
	("$SMC" dump start type cdc 2>"$d/fg.err" | head -3 >"$d/head.out") &
	FG_PID=$!
	fg_wait
	# records after head has gone: the decoder, then tcpdump, get EPIPE
	transfer 127.0.0.1 256K 1
	fg_end
	[ "$FG_RC" -eq 0 ]
	[ "$(wc -l <"$d/head.out")" -eq 3 ]
	gone "$FG_LINK"
	grep -q "^smc dump: $FG_LINK: [0-9]* records captured" "$d/fg.err"
}

@test "foreground: a tcpdump that ends by itself (param -c 5) ends the capture" {
	f=$BATS_TEST_TMPDIR/c5.pcap
	fg_start "" -- write "$f" param "-c 5"
	transfer 127.0.0.1 256K 1
	fg_end
	[ "$FG_RC" -eq 0 ]
	gone "$FG_LINK"
	check "$f"
	[ "$C_c5_records" -eq 5 ]
}

@test "SIGINT under load: the capture ends, the file is sound, the link is gone" {
	f=$BATS_TEST_TMPDIR/load.pcap
	fg_start "" -- write "$f"
	"$TRAFFIC" server -a 127.0.0.1 -p 5310 -n 8M -c 2 -T 300 >"$BATS_TEST_TMPDIR/ls.out" 2>&1 &
	spid=$!
	wait_listen 5310
	"$TRAFFIC" client -a 127.0.0.1 -p 5310 -n 8M -c 2 -T 300 >"$BATS_TEST_TMPDIR/lc.out" 2>&1 &
	cpid=$!
	# under load: the capture's link builds records
	wait_for "records on $FG_LINK" link_stat_gt "$FG_LINK" tx_packets 0
	fg_stop INT
	[ "$FG_RC" -eq 0 ]
	gone "$FG_LINK"
	# the traffic goes on without the link
	wait $cpid
	wait $spid
	check "$f"
	[ "$C_load_records" -gt 0 ]
	[ "$C_load_bad_magic" -eq 0 ]
	[ "$C_load_bad_len" -eq 0 ]
	read -r cap drop deliv lost <<<"$(summary "$BATS_TEST_TMPDIR/fg.err")"
	[ "$cap" -eq "$C_load_records" ]
}

# ----------------------------------------------------------- background

@test "background: start detaches, show lists it, stop ends it cleanly" {
	f=$BATS_TEST_TMPDIR/bg.pcap
	run "$SMC" -j dump start mode smcd type all write "$f" background
	echo "$output"
	[ "$status" -eq 0 ]
	read -r name pid file <<<"$(jq -r '.[0] | [.ifname, .pid, .file] | @tsv' <<<"$output")"
	[ "$file" = "$f" ]
	kill -0 "$pid"
	# the detached process owns the link: show tells its state
	run "$SMC" -j dump show
	echo "$output"
	read -r n sname mode type snaplen cpid running cfile log <<<"$(jq -r '[length] + (.[0] |
		[.ifname, .mode, .type, .snaplen, .capture.pid, .capture.running,
		 .capture.file, .capture.log]) | @tsv' <<<"$output")"
	[ "$n" -eq 1 ]
	[ "$sname" = "$name" ]
	[ "$mode" = SMC-D ]
	[ "$type" = all ]
	[ "$snaplen" -eq 0 ]
	[ "$cpid" -eq "$pid" ]
	[ "$running" = true ]
	[ "$cfile" = "$f" ]
	[ -f "$log" ]
	[ "$("$NL" get "$name")" = "mode 2 capture 0 snaplen 0" ]
	run "$SMC" dump show
	echo "$output"
	[[ "${lines[0]}" == "$name: up mode smcd type all snaplen 0 records "*" bytes "*" lost 0" ]]
	[ "${lines[1]}" = "    capture pid $pid running mode smcd type all snaplen 0 file $f log $log" ]
	transfer 127.0.0.1 1M 1
	# the counters of show are the link's
	run "$SMC" dump show
	[[ "${lines[0]}" == *" records $(link_stat "$name" tx_packets) bytes $(link_stat "$name" tx_bytes) lost 0" ]]
	run "$SMC" dump stop
	echo "$output"
	[ "$status" -eq 0 ]
	echo "$output" >"$BATS_TEST_TMPDIR/stop.out"
	run kill -0 "$pid"
	[ "$status" -ne 0 ]
	gone "$name"
	[ ! -e "$log" ]
	check "$f"
	whole bg
	read -r cap drop deliv lost <<<"$(summary "$BATS_TEST_TMPDIR/stop.out")"
	[ "$cap" -eq "$C_bg_records" ]
	[ "$deliv" -eq "$cap" ]
	[ "$lost" -eq 0 ]
	[ "$("$SMC" -j dump show)" = "[]" ]
}

@test "background: a second capture needs its own dev; stop needs dev or all" {
	d=$BATS_TEST_TMPDIR
	run "$SMC" -j dump start write "$d/1.pcap" background
	first=$(jq -r '.[0].ifname' <<<"$output")
	run "$SMC" dump start write "$d/2.pcap" background
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == "Error: a capture is already running in this network namespace on $first (pid "* ]]
	"$SMC" dump start write "$d/2.pcap" dev smcd7 background
	run "$SMC" dump start write "$d/3.pcap" dev smcd7 background
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == "Error: a capture is already running on smcd7 (pid "* ]]
	[ "$(links_in "" | sort | tr '\n' ' ')" = "$(printf '%s\n' "$first" smcd7 | sort | tr '\n' ' ')" ]
	run "$SMC" dump stop
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == "Error: 2 captures run in this network namespace:"* ]]
	run "$SMC" dump stop dev smcd7
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == "smc dump: smcd7: 0 records captured"* ]]
	[ "$(links_in "")" = "$first" ]
	run "$SMC" dump stop all
	[ "$status" -eq 0 ]
	[ -z "$(links_in "")" ]
	# nothing left to stop: stop fails, stop all does not
	run "$SMC" dump stop
	[ "$status" -eq 1 ]
	run "$SMC" dump stop all
	[ "$status" -eq 0 ]
}

@test "background: the supervisor killed with SIGKILL: show says gone, stop ends tcpdump and removes the link" {
	f=$BATS_TEST_TMPDIR/k.pcap
	run "$SMC" -j dump start write "$f" background
	[ "$status" -eq 0 ]
	read -r name pid <<<"$(jq -r '.[0] | [.ifname, .pid] | @tsv' <<<"$output")"
	tpid=$(pgrep -P "$pid" -x tcpdump)
	[ -n "$tpid" ]
	kill -KILL "$pid"
	wait_gone "$pid"
	# tcpdump (which changed its user ID, and so lost the signal its
	# parent's end would send) may run on: the alias names it
	orphan=0
	! kill -0 "$tpid" 2>/dev/null || orphan=1
	echo "orphan tcpdump: $orphan"
	run "$SMC" -j dump show
	echo "$output"
	read -r running rtpid <<<"$(jq -r '.[0].capture | [.running, .tcpdump_pid] | @tsv' <<<"$output")"
	[ "$running" = false ]
	[ "$rtpid" -eq "$tpid" ]
	# the name of a dead capture is not free, but no capture runs
	run "$SMC" dump start dev "$name" write "$f.2" background
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = "Error: the name $name is taken by the link of a capture that is gone (pid $pid); \"smc dump stop dev $name\" removes it" ]
	run "$SMC" dump stop dev "$name"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "smc dump: $name: its capture (pid $pid) is gone; deleting the link" ]
	if [ $orphan = 1 ]; then
		[ "${lines[1]}" = "smc dump: $name: ending its tcpdump (pid $tpid)" ]
	fi
	run kill -0 "$tpid"
	[ "$status" -ne 0 ]
	gone "$name"
	check "$f"
	[ "$C_k_bad_len" -eq 0 ]
}

# ------------------------------------------------------------ loss

@test "loss: a capture filtered to one of two concurrent connections is complete and reports lost 0" {
	d=$BATS_TEST_TMPDIR
	for i in 1 2; do
		"$TRAFFIC" server -a 127.0.0.1 -p 0 -n 1M -c 1 >"$d/s$i.out" &
		eval "spid$i=\$!"
		WAIT_TIMEOUT=10 wait_line "$d/s$i.out" '^listening [0-9]+'
	done
	p1=$(awk '/^listening/ { print $2 }' "$d/s1.out")
	p2=$(awk '/^listening/ { print $2 }' "$d/s2.out")
	run -0 "$SMC" dump start mode smcd write "$d/f.pcap" filter "port $p1" background
	# both at once, so that the link numbers their records in turn
	"$TRAFFIC" client -a 127.0.0.1 -p "$p1" -n 1M -c 1 >"$d/c1.out" &
	cpid1=$!
	"$TRAFFIC" client -a 127.0.0.1 -p "$p2" -n 1M -c 1 >"$d/c2.out" &
	cpid2=$!
	for p in $cpid1 $cpid2 $spid1 $spid2; do
		wait "$p"
	done
	run -0 "$SMC" dump stop
	echo "$output"
	read -r cap drop deliv lost <<<"$(summary <(echo "$output"))"
	# the link built records of both connections, tcpdump kept one's
	[ "$lost" -eq 0 ]
	[ "$cap" -gt 0 ]
	[ "$deliv" -gt "$cap" ]
	check "$d/f.pcap"
	[ "$C_f_stream_seq_gaps" -eq 0 ]
	[ "$C_f_bad_streams" -eq 0 ]
	[ "$(jq -c .hdr_versions "$d/f.pcap.json")" = "[4]" ]
	# exactly the first connection's bytes, both ways
	[ "$C_f_tx_sums" = "$(echo $(awk '$1 == "conn" && $3 == "tx" { print $7 }' "$d/c1.out" "$d/s1.out" | sort))" ]
	[ "$(jq "[.streams[] | select(.sport != $p1 and .dport != $p1)] | length" "$d/f.pcap.json")" -eq 0 ]
	# the decoder: the link's numbers jump over the other connection's
	# records, and no record is lost, in total or per connection
	filtered_no_loss "$d/f.pcap"
}

# serve2 ADDR1 ADDR2 BYTES: a traffic server of one connection of BYTES
# on each address (ADDR2 may be ADDR1: two ports); sets SPID1 SPID2 and
# their ports P1 P2; outputs s1.out s2.out
serve2() {
	local d=$BATS_TEST_TMPDIR i a
	for i in 1 2; do
		a=$1
		[ $i = 1 ] || a=$2
		"$TRAFFIC" server -a "$a" -p 0 -n "$3" -c 1 >"$d/s$i.out" &
		eval "SPID$i=\$!"
		WAIT_TIMEOUT=10 wait_line "$d/s$i.out" '^listening [0-9]+' || return 1
	done
	P1=$(awk '/^listening/ { print $2 }' "$d/s1.out")
	P2=$(awk '/^listening/ { print $2 }' "$d/s2.out")
}

# clients2 LINK ADDR1 ADDR2 BYTES: the clients of serve2's servers, so
# that LINK numbers the second connection's records between the first
# one's, however slow the guest: the first server is stopped (SIGSTOP)
# before its client comes, the kernel makes the SMC connection all the
# same and its client sends until the server's buffer is full; once the
# link has made records of it, the second connection runs to its end,
# then the first server goes on. Waits for every client and server.
# Fails unless each side of each connection ended well and says SMC
# carried its data (the traffic tool's TCP_INFO check: the TCP socket
# under it moved only the handshake); outputs c1.out c2.out
clients2() {
	local d=$BATS_TEST_TMPDIR p rc=0 c1 c2 f
	kill -STOP "$SPID1"
	"$TRAFFIC" client -a "$2" -p "$P1" -n "$4" -c 1 >"$d/c1.out" &
	c1=$!
	wait_for "records of the first connection" link_stat_gt "$1" tx_packets 0 || rc=1
	"$TRAFFIC" client -a "$3" -p "$P2" -n "$4" -c 1 >"$d/c2.out" &
	c2=$!
	wait "$c2" || rc=1
	wait "$SPID2" || rc=1
	kill -CONT "$SPID1"
	for p in $c1 $SPID1; do
		wait "$p" || rc=1
	done
	cat "$d/s1.out" "$d/c1.out" "$d/s2.out" "$d/c2.out"
	for f in s1 c1 s2 c2; do
		grep -q '^conn 0 smc ' "$d/$f.out" || rc=1
	done
	return $rc
}

# conn_sums N DIR: the SHA-256 of the streams that connection N of
# serve2/clients2 moved in DIR (both ends), sorted, on one line
conn_sums() {
	echo $(awk -v d="$2" '$1 == "conn" && $3 == d { print $7 }' \
		"$BATS_TEST_TMPDIR/c$1.out" "$BATS_TEST_TMPDIR/s$1.out" | sort)
}

# lost_sum JSON: the lost records of every connection of smc -j dump
# stats, each end counted (a loopback connection's other end may be its
# .peer)
lost_sum() {
	jq '[.[0].connections[] | .tx.lost_records + .rx.lost_records +
		(.peer.tx.lost_records // 0) + (.peer.rx.lost_records // 0)] | add' <<<"$1"
}

# filtered_no_loss PCAP: the decoder on a capture a filter cut to one of
# two connections: the link's numbers jump over the other's records, and
# no record is lost, in total or per connection, no byte missing
filtered_no_loss() {
	local out
	out=$("$SMC" -j dump stats "$1") || return 1
	echo "$out"
	[ "$(jq '.[0].total.seq_gaps' <<<"$out")" -gt 0 ] || return 1
	[ "$(jq '.[0].total.lost' <<<"$out")" -eq 0 ] || return 1
	[ "$(lost_sum "$out")" -eq 0 ] || return 1
	[ "$(jq '.[0].total.holes' <<<"$out")" -eq 0 ]
}

@test "loss: a capture filtered by host to one of two connections on two local addresses is complete and reports lost 0" {
	d=$BATS_TEST_TMPDIR
	# lo holds all of 127.0.0.0/8: a server on 127.0.0.2 is local, and
	# loopback-ism carries its connection as it does 127.0.0.1's
	serve2 127.0.0.2 127.0.0.1 256K
	run -0 "$SMC" -j dump start mode smcd write "$d/h.pcap" filter 'host 127.0.0.2' background
	clients2 "$(jq -r '.[0].ifname' <<<"$output")" 127.0.0.2 127.0.0.1 256K
	run -0 "$SMC" dump stop
	echo "$output"
	read -r cap drop deliv lost <<<"$(summary <(echo "$output"))"
	# the link built both connections' records, tcpdump kept one's
	[ "$lost" -eq 0 ]
	[ "$drop" -eq 0 ]
	[ "$cap" -gt 0 ]
	[ "$deliv" -gt "$cap" ]
	check "$d/h.pcap"
	[ "$C_h_records" -eq "$cap" ]
	[ "$C_h_smcd" -eq "$cap" ]
	[ "$C_h_stream_seq_gaps" -eq 0 ]
	[ "$C_h_seq_gaps" -gt 0 ]
	[ "$C_h_bad_streams" -eq 0 ]
	# exactly the first connection's bytes, both ways, and every
	# record has 127.0.0.2 at one end
	[ "$C_h_tx_sums" = "$(conn_sums 1 tx)" ]
	[ "$C_h_rx_sums" = "$(conn_sums 1 rx)" ]
	[ "$(jq '[.endpoints[] | select(.[0] != "127.0.0.2" and .[2] != "127.0.0.2")] | length' "$d/h.pcap.json")" -eq 0 ]
	# the decoder: the link's numbers jump over the other connection's
	# records; none is lost, in total or per connection
	filtered_no_loss "$d/h.pcap"
}

# placed.py PCAP C2S S2C BYTES: reads the data records of a capture of
# one connection of the traffic tool (IPv4, hdr_ver 4) without our
# decoder and prints shell assignments P_<counter>=N: data_records;
# misplaced (a payload equal to neither pattern at its offset); mixed
# (a stream whose payloads match both directions' patterns); per data
# stream (token, direction) its holes, from the offsets; holes (their
# sum); hole_streams_unlost (streams with a hole but no stream_seq gap
# in their data records); holes_over (streams with more holes than data
# records lost); short (streams not reaching BYTES); data_streams; lost
# and data_lost (stream_seq gaps of all streams, of the data streams)
placed_py() {
	cat <<'PY'
import struct, sys
pats = (open(sys.argv[2], "rb").read(), open(sys.argv[3], "rb").read())
n = int(sys.argv[4])
f = open(sys.argv[1], "rb")
gh = f.read(24)
e = "<" if struct.unpack("<I", gh[:4])[0] in (0xA1B2C3D4, 0xA1B23C4D) else ">"
sseq, chunks, which = {}, {}, {}
out = dict(data_records=0, misplaced=0, mixed=0, holes=0,
           hole_streams_unlost=0, holes_over=0, short=0)
while True:
    ph = f.read(16)
    if len(ph) < 16:
        break
    fr = f.read(struct.unpack(e + "IIII", ph)[2])
    ip = fr[14:]
    if fr[12:14] != b"\x08\x00" or ip[9] != 17:
        continue
    rec = ip[(ip[0] & 15) * 4 + 8:]
    if rec[:4] != b"\xcf\xd3\xe7\xa5" or rec[4] < 4:
        continue
    typ, rlen, hlen, flags = rec[7], struct.unpack("!H", rec[8:10])[0], rec[10], rec[11]
    token, = struct.unpack("!I", rec[16:20])
    off, = struct.unpack("!Q", rec[24:32])
    ss, = struct.unpack("!I", rec[32:36])
    key = (token, flags & 1)
    sseq.setdefault(key + (typ,), set()).add(ss)
    if typ != 1:
        continue
    data = rec[hlen:rlen]
    out["data_records"] += 1
    m = [i for i in (0, 1) if pats[i][off:off + len(data)] == data]
    if not data or not m:
        out["misplaced"] += 1
        continue
    which.setdefault(key, set()).add(m[0])
    chunks.setdefault(key, []).append((off, len(data)))
def gaps(s):
    return max(s) - min(s) + 1 - len(s)
for key, cs in chunks.items():
    out["mixed"] += len(which[key]) > 1
    cs.sort()
    end = holes = 0
    for off, ln in cs:
        holes += off > end
        end = max(end, off + ln)
    out["short"] += end != n
    lost = gaps(sseq[key + (1,)])
    out["holes"] += holes
    out["hole_streams_unlost"] += holes > 0 and lost == 0
    out["holes_over"] += holes > lost
out["data_streams"] = len(chunks)
out["lost"] = sum(gaps(s) for s in sseq.values())
out["data_lost"] = sum(gaps(s) for k, s in sseq.items() if k[2] == 1)
for k, v in out.items():
    print("P_%s=%d" % (k, v))
PY
}

# ctl.py LINK TPID START WINDOW READY: writes READY, waits until the
# link's tx_bytes passed START, stops process TPID (SIGSTOP), waits until
# the link made WINDOW bytes more, lets TPID go on (SIGCONT); prints
# tx_bytes at the stop and at the continue. Polls every 5 ms, 60 s at
# most for each wait.
ctl_py() {
	cat <<'PY'
import os, signal, sys, time
link, tpid, start, window, ready = sys.argv[1:6]
tpid, start, window = int(tpid), int(start), int(window)
path = "/sys/class/net/%s/statistics/tx_bytes" % link
def tx_bytes():
    with open(path) as f:
        return int(f.read())
def until(n, what):
    end = time.monotonic() + 60
    while tx_bytes() <= n:
        if time.monotonic() > end:
            os.kill(tpid, signal.SIGCONT)
            sys.exit("ctl.py: timed out waiting for " + what)
        time.sleep(0.005)
with open(ready + ".tmp", "w") as f:
    f.write("ready\n")
os.rename(ready + ".tmp", ready)
until(start, "the first records")
os.kill(tpid, signal.SIGSTOP)
b0 = tx_bytes()
until(b0 + window, "the records made while stopped")
os.kill(tpid, signal.SIGCONT)
print(b0, tx_bytes())
PY
}

@test "loss: a stopped tcpdump loses records: the decoder counts each one the kernel dropped, the bytes it has are in place" {
	d=$BATS_TEST_TMPDIR
	n=2097152
	"$TRAFFIC" server -a 127.0.0.1 -p 0 -n $n -c 1 >"$d/s1.out" &
	spid=$!
	WAIT_TIMEOUT=10 wait_line "$d/s1.out" '^listening [0-9]+'
	port=$(awk '/^listening/ { print $2 }' "$d/s1.out")
	# a ring of 1 MiB (tcpdump's -B is in KiB; the param words come after
	# our own -B, and tcpdump takes the last)
	run -0 "$SMC" -j dump start mode smcd write "$d/l.pcap" param '-B 1024' background
	link=$(jq -r '.[0].ifname' <<<"$output")
	run -0 "$SMC" -j dump show
	echo "$output"
	tpid=$(jq -r '.[0].capture.tcpdump_pid' <<<"$output")
	[ "$(cat "/proc/$tpid/comm")" = tcpdump ]
	# the controller stops tcpdump once the connection's streams have
	# begun in the file and lets it go on once the link has made 2 MiB of
	# records more than the 1 MiB ring holds; a shell polling the link
	# is too slow for this in the emulated guest (each program it starts
	# costs about a second)
	ctl_py >"$d/ctl.py"
	python3 "$d/ctl.py" "$link" "$tpid" 262144 $((2 * 1048576)) "$d/ctl.ready" >"$d/ctl.out" &
	ctl=$!
	wait_file "$d/ctl.ready"
	"$TRAFFIC" client -a 127.0.0.1 -p "$port" -n $n -c 1 >"$d/c1.out" &
	cpid=$!
	wait "$ctl"
	wait "$cpid"
	wait "$spid"
	cat "$d/s1.out" "$d/c1.out"
	read -r b0 b1 <"$d/ctl.out"
	end=$(link_stat "$link" tx_bytes)
	echo "tx_bytes at SIGSTOP $b0, at SIGCONT $b1, at the end $end"
	# the transfer went on well after the loss (a quarter of its records
	# and more, 2 MiB, each direction's data and CDC records alike): a
	# record lost at a stream's very end would leave no gap. The
	# controller may be late in a loaded guest: it only needs to be
	# done before that last quarter.
	[ "$b1" -lt $((end * 3 / 4)) ]
	grep -q '^conn 0 smc ' "$d/c1.out"
	grep -q '^conn 0 smc ' "$d/s1.out"
	run -0 "$SMC" dump stop
	echo "$output"
	read -r cap drop deliv lost <<<"$(summary <(echo "$output"))"
	# the kernel dropped records; whatever the link delivered tcpdump
	# either wrote or counted dropped (no filter here)
	[ "$drop" -gt 0 ]
	[ "$deliv" -eq $((cap + drop)) ]
	check "$d/l.pcap"
	[ "$C_l_records" -eq "$cap" ]
	[ "$C_l_smcd" -eq "$cap" ]
	[ "$C_l_bad_len" -eq 0 ]
	[ "$C_l_stream_seq_gaps" -gt 0 ]
	"$TRAFFIC" pattern -n $n -i 0 -d c2s >"$d/c2s"
	"$TRAFFIC" pattern -n $n -i 0 -d s2c >"$d/s2c"
	placed_py >"$d/placed.py"
	out=$(python3 "$d/placed.py" "$d/l.pcap" "$d/c2s" "$d/s2c" $n)
	echo "$out"
	eval "$out"
	run -0 "$SMC" -j dump stats "$d/l.pcap"
	echo "$output"
	read -r tlost tholes toverl <<<"$(jq -r '.[0].total | [.lost, .holes, .overlaps] | @tsv' <<<"$output")"
	echo "decoder lost $tlost holes $tholes; checker stream_seq_gaps $C_l_stream_seq_gaps; kernel dropped $drop, link lost $lost"
	# the decoder's count is the checker's, and the connections' sum
	[ "$tlost" -gt 0 ]
	[ "$tlost" -eq "$C_l_stream_seq_gaps" ]
	[ "$(lost_sum "$output")" -eq "$tlost" ]
	# and it is what the kernel counted: every record made took the next
	# number of its stream and was then written, dropped by the full ring
	# (tcpdump's "dropped by kernel") or not delivered by the link
	# (tx_dropped); since each stream went on after the loss, every
	# record missing from the file is a gap between two it holds
	[ "$tlost" -eq $((drop + lost)) ]
	[ "$P_lost" -eq "$tlost" ]
	# bytes never out of place: each payload is the pattern at its
	# offset, one direction per stream; the four data streams reach the
	# end, with holes only where data records were lost, and the
	# decoder sees the same holes
	[ "$P_data_streams" -eq 4 ]
	[ "$P_data_records" -gt 0 ]
	[ "$P_misplaced" -eq 0 ]
	[ "$P_mixed" -eq 0 ]
	[ "$P_short" -eq 0 ]
	[ "$P_hole_streams_unlost" -eq 0 ]
	[ "$P_holes_over" -eq 0 ]
	[ "$P_holes" -gt 0 ]
	[ "$tholes" -eq "$P_holes" ]
	[ "$toverl" -eq 0 ]
	[ "$(jq '[.streams[].holes] | add' "$d/l.pcap.json")" -eq "$P_holes" ]
}

@test "smcdump-ex: --filter 'host 127.0.0.1 and port P' with a second connection on another port: lost 0, its bytes only" {
	d=$BATS_TEST_TMPDIR
	f=$d/x.pcap
	serve2 127.0.0.1 127.0.0.1 256K
	"$TOP/smc/smcdump-ex" -m smcd --param "-w $f" \
		--filter "host 127.0.0.1 and port $P1" >"$d/fg.out" 2>"$d/fg.err" &
	FG_PID=$!
	fg_wait
	clients2 "$FG_LINK" 127.0.0.1 127.0.0.1 256K
	fg_stop INT
	[ "$FG_RC" -eq 0 ]
	gone "$FG_LINK"
	read -r cap drop deliv lost <<<"$(summary "$d/fg.err")"
	# the link built both connections' records, tcpdump kept the first's
	[ "$lost" -eq 0 ]
	[ "$drop" -eq 0 ]
	[ "$cap" -gt 0 ]
	[ "$deliv" -gt "$cap" ]
	check "$f"
	[ "$C_x_records" -eq "$cap" ]
	[ "$C_x_stream_seq_gaps" -eq 0 ]
	[ "$C_x_seq_gaps" -gt 0 ]
	[ "$C_x_bad_streams" -eq 0 ]
	[ "$C_x_tx_sums" = "$(conn_sums 1 tx)" ]
	[ "$C_x_rx_sums" = "$(conn_sums 1 rx)" ]
	[ "$(jq "[.streams[] | select(.sport != $P1 and .dport != $P1)] | length" "$f.json")" -eq 0 ]
	filtered_no_loss "$f"
}

# ----------------------------------------------------------- netns

@test "netns: ip netns exec start ... background / foreground, traffic, stop: each sees its own" {
	d=$BATS_TEST_TMPDIR
	for ns in a b; do
		ip netns add $ns
		ip -n $ns link set lo up
	done
	ip netns exec a "$SMC" dump start write "$d/a.pcap" background
	fg_start b -- write "$d/b.pcap"
	# each netns shows only its own link, the initial one none
	run ip netns exec a "$SMC" dump show
	[ "${#lines[@]}" -eq 2 ]
	la=${lines[0]%%:*}
	run ip netns exec b "$SMC" dump show
	[ "${#lines[@]}" -eq 2 ]
	[ "${lines[0]%%:*}" = "$FG_LINK" ]
	[ "$("$SMC" -j dump show)" = "[]" ]
	transfer 127.0.0.1 1M 1 a
	a_tx=$(tsums tx)
	transfer 127.0.0.1 512K 2 b
	b_tx=$(tsums tx)
	# the stop in a leaves b's capture alone; b ends by SIGINT
	run ip netns exec a "$SMC" dump stop
	echo "$output"
	[ "$status" -eq 0 ]
	[ -z "$(links_in a)" ]
	[ "$(links_in b)" = "$FG_LINK" ]
	fg_stop INT
	[ "$FG_RC" -eq 0 ]
	[ -z "$(links_in b)" ]
	check "$d/a.pcap" "$d/b.pcap"
	# exactly the streams of the netns's own transfer
	[ "$C_a_seq_gaps" -eq 0 ]
	[ "$C_b_seq_gaps" -eq 0 ]
	[ "$C_a_tx_sums" = "$a_tx" ]
	[ "$C_b_tx_sums" = "$b_tx" ]
	[ "$C_a_streams" -eq 4 ]
	[ "$C_b_streams" -eq 8 ]
	[ -n "$la" ]
}

# ----------------------------------------------------------- modes, types

@test "mode all: the TCP handshake with CLC and the records in one file" {
	f=$BATS_TEST_TMPDIR/all.pcap
	run "$SMC" -j dump start mode all write "$f" background
	[ "$status" -eq 0 ]
	name=$(jq -r '.[0].ifname' <<<"$output")
	ifindex=$(cat "/sys/class/net/$name/ifindex")
	# the link itself records SMC-R and SMC-D
	[ "$("$NL" get "$name")" = "mode 0 capture 0 snaplen 0" ]
	transfer 127.0.0.1 1M 1
	run "$SMC" dump stop
	echo "$output"
	[ "$status" -eq 0 ]
	eval "$(python3 "$BATS_FILE_TMPDIR/cooked.py" "$f")"
	set | grep '^K_'
	[ "$K_linktype" -eq 276 ] || [ "$K_linktype" -eq 113 ]
	# SYN and SYN-ACK with the SMC option, proposal, accept, confirm
	[ "$K_syn_smc" -ge 2 ]
	[ "$K_clc" -ge 3 ]
	[ "$K_records" -gt 0 ]
	[ "$K_first_clc" -lt "$K_first_record" ]
	# the records come from the link (cooked v2 names the interface)
	[ "$K_linktype" -ne 276 ] || [ "$K_record_ifindex" = "$ifindex" ]
	# what the link delivered is what the file holds
	deliv=$(sed -n 's/^smc dump: [^ ]*: [0-9]* packets captured on any, 0 dropped by the kernel; the link delivered \([0-9]*\) records, lost 0 (tx_dropped)$/\1/p' <<<"$output")
	[ "$deliv" -eq "$K_records" ]
}

@test "modes and types: five captures of one transfer, stop all" {
	d=$BATS_TEST_TMPDIR
	"$SMC" dump start dev smcr0 mode smcr write "$d/smcr0.pcap" background
	"$SMC" dump start dev smcd0 mode smcd type raw write "$d/smcd0.pcap" background
	"$SMC" dump start dev cdc0 type cdc write "$d/cdc0.pcap" background
	"$SMC" dump start dev snap0 snaplen 64 write "$d/snap0.pcap" background
	"$SMC" dump start dev smc0 mode smc type all write "$d/smc0.pcap" background
	[ "$("$NL" get smcr0)" = "mode 1 capture 0 snaplen 0" ]
	[ "$("$NL" get smcd0)" = "mode 2 capture 1 snaplen 0" ]
	[ "$("$NL" get cdc0)" = "mode 0 capture 2 snaplen 0" ]
	[ "$("$NL" get snap0)" = "mode 0 capture 0 snaplen 64" ]
	[ "$("$NL" get smc0)" = "mode 0 capture 0 snaplen 0" ]
	transfer 127.0.0.1 1M 1
	run "$SMC" dump stop all
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c "records captured" <<<"$output")" -eq 5 ]
	[ -z "$(links_in "")" ]
	check "$d"/{smcr0,smcd0,cdc0,snap0,smc0}.pcap
	# mode smcr: nothing of this SMC-D traffic
	[ "$C_smcr0_records" -eq 0 ]
	grep -qx "smc dump: smcr0: 0 records captured, 0 dropped by the kernel; the link delivered 0, lost 0 (tx_dropped)" <<<"$output"
	# mode smcd type raw: all the data, no CDC
	[ "$C_smcd0_cdc" -eq 0 ]
	[ "$C_smcd0_tx_sums" = "$(tsums tx)" ]
	[ "$C_smcd0_rx_sums" = "$(tsums rx)" ]
	[ "$C_smcd0_bad_streams" -eq 0 ]
	# type cdc: CDC messages only
	[ "$C_cdc0_data" -eq 0 ]
	[ "$C_cdc0_cdc" -gt 0 ]
	# mode smc type all: both, as many as the two above together
	whole smc0
	[ "$C_smc0_data" -eq "$C_smcd0_data" ]
	[ "$C_smc0_cdc" -eq "$C_cdc0_cdc" ]
	# snaplen 64: the same data records, truncated
	[ "$C_snap0_truncated" -gt 0 ]
	[ "$C_snap0_bad_len" -eq 0 ]
	[ "$C_snap0_data" -eq "$C_smcd0_data" ]
}

# ----------------------------------------------------------- quoting

# a tcpdump in PATH that writes its arguments, one a line, to $ARGV_OUT
# and runs the real one
fake_tcpdump() {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	cat >"$BATS_TEST_TMPDIR/bin/tcpdump" <<EOF
#!/bin/bash
printf '%s\n' "\$@" >"\$ARGV_OUT"
exec "$REAL_TCPDUMP" "\$@"
EOF
	chmod +x "$BATS_TEST_TMPDIR/bin/tcpdump"
}

@test "smcdump-ex: Alibaba's options, quoted --param arguments reach tcpdump intact" {
	fake_tcpdump
	d="$BATS_TEST_TMPDIR/dir with blanks"
	mkdir -p "$d"
	export ARGV_OUT=$BATS_TEST_TMPDIR/argv
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" "$TOP/smc/smcdump-ex" -m smcd -t all \
		--param "-s 0 -w '$d/my file.pcap'" --filter 'udp or tcp' --legacy \
		>"$BATS_TEST_TMPDIR/fg.out" 2>"$BATS_TEST_TMPDIR/fg.err" &
	FG_PID=$!
	fg_wait
	[ "$("$NL" get "$FG_LINK")" = "mode 2 capture 0 snaplen 0" ]
	transfer 127.0.0.1 256K 1
	fg_stop INT
	[ "$FG_RC" -eq 0 ]
	gone "$FG_LINK"
	cat "$ARGV_OUT"
	mapfile -t av <"$ARGV_OUT"
	# our options, the param words, -i (ours, after them), the filter
	exp=(-p -U -B 65536 -s 0 -w "$d/my file.pcap" -i "$FG_LINK" "udp or tcp")
	[ "$(printf '[%s]\n' "${av[@]}")" = "$(printf '[%s]\n' "${exp[@]}")" ]
	cp "$d/my file.pcap" "$BATS_TEST_TMPDIR/ex.pcap"
	check "$BATS_TEST_TMPDIR/ex.pcap"
	whole ex
}

@test "start: param and filter words as a shell splits them" {
	fake_tcpdump
	export ARGV_OUT=$BATS_TEST_TMPDIR/argv
	f=$BATS_TEST_TMPDIR/q.pcap
	param="-s 128	--time-stamp-precision \"micro\" -Q 'out'"
	PATH="$BATS_TEST_TMPDIR/bin:$PATH" fg_start "" -- write "$f" \
		param "$param" filter 'udp and (port 1 or not port 2)'
	fg_stop INT
	[ "$FG_RC" -eq 0 ]
	mapfile -t av <"$ARGV_OUT"
	# what bash makes of the same string
	eval "set -- $param"
	exp=(-p -U -B 65536 "$@" -i "$FG_LINK" -w "$f" 'udp and (port 1 or not port 2)')
	printf '[%s]\n' "${av[@]}"
	[ "$(printf '[%s]\n' "${av[@]}")" = "$(printf '[%s]\n' "${exp[@]}")" ]
}

# ----------------------------------------------------------- errors

@test "errors: a bad filter, an unwritable file: tcpdump's message, no link left" {
	run "$SMC" dump start filter 'port nonsense(' write "$BATS_TEST_TMPDIR/b.pcap"
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "Error: tcpdump failed to start (exit status 1):" ]
	[[ "${lines[1]}" == "tcpdump: "*"nonsense"* ]]
	[ -z "$(links_in "")" ]
	run "$SMC" dump start filter 'port nonsense(' write "$BATS_TEST_TMPDIR/b.pcap" background
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "Error: tcpdump failed to start (exit status 1):" ]
	[ -z "$(links_in "")" ]
	run "$SMC" dump start write /nonexistent/dir/x.pcap
	echo "$output"
	[ "$status" -eq 1 ]
	[ "${lines[0]}" = "Error: tcpdump failed to start (exit status 1):" ]
	[[ "${lines[1]}" == "tcpdump: /nonexistent/dir/x.pcap: "* ]]
	[ -z "$(links_in "")" ]
}

@test "errors: name taken, no CAP_NET_ADMIN, usage; a link made by ip is no capture" {
	run "$SMC" dump start dev lo write /tmp/x.pcap
	[ "$status" -eq 1 ]
	[ "$output" = "Error: the name lo is already taken by another link" ]
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$SMC" dump start write /tmp/x.pcap
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = "Error: creating the smc-dummy link needs CAP_NET_ADMIN in this network namespace (run as root): Operation not permitted" ]
	run "$SMC" dump start mode smcx
	[ "$status" -eq 2 ]
	[ -z "$(links_in "")" ]
	# a user may look, but not stop
	"$SMC" dump start write "$BATS_TEST_TMPDIR/u.pcap" background
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$SMC" dump show
	[ "${#lines[@]}" -eq 2 ]
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$SMC" dump stop
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == "Error: "*": cannot signal the capture (pid "*"): Operation not permitted" ]]
	[ -n "$(links_in "")" ]
	"$SMC" dump stop
	# a link of ip link add is left to ip
	"$NL" add smcd9
	run "$SMC" dump stop dev smcd9
	echo "$output"
	[ "$status" -eq 1 ]
	[ "$output" = "Error: smcd9 is an smc-dummy link but no capture of smc dump start; delete it with \"ip link del smcd9\"" ]
	run "$SMC" dump start dev smcd9 write /tmp/x.pcap
	[ "$status" -eq 1 ]
	[ "$output" = "Error: the name smcd9 is already taken by another link" ]
	run "$SMC" dump show
	echo "$output"
	[ "${lines[1]}" = "    capture none" ]
	"$NL" del smcd9
}
