#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# The Wireshark dissector contrib/wireshark/smcdump.lua against
# `smc -j -x dump read`: for every frame, each field the dissector decodes
# must equal what the decoder reports for the same frame (matched by frame
# number), and both must find records in the same frames. Captures come
# from testsuite/tools/gen-smcdump-pcap (values the tests choose) and, when
# present, from the real-kernel runs (build/smcr-results, or the directory
# in SMCDUMP_CAPTURES).
#
# No expected value comes from the dissector itself: the reference is the
# decoder's JSON (tested on its own in dump-read.bats against an
# independent reader) or the test's own spec.

bats_require_minimum_version 1.5.0

setup_file() {
	TOP="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
	export TOP
	export SMC="${DUMP_SMC:-$TOP/smc/smc}"
	export GEN="$TOP/testsuite/tools/gen-smcdump-pcap"
	export LUA="$TOP/contrib/wireshark/smcdump.lua"
	export T="$BATS_FILE_TMPDIR"
	export TZ=UTC

	command -v tshark >/dev/null || return 0
	if ! make -C "$TOP/smc" >"$T/make.log" 2>&1 ||
	   ! make -C "$TOP/testsuite/tools" >>"$T/make.log" 2>&1; then
		cat "$T/make.log" >&3
		return 1
	fi
	write_compare >"$T/compare.py"
}

setup() {
	command -v tshark >/dev/null || skip "no tshark"
}

# ------------------------------------------------------------- helpers

# gen FILE [GEN OPTIONS] < SPEC
gen() {
	local out="$1"

	shift
	"$GEN" "$@" "$out"
}

# compare.py: the mapping from the decoder's JSON members (man smc-dump,
# JSON OUTPUT) to the dissector's fields, and the comparison.
#   compare.py fields                 the tshark -e arguments
#   compare.py SMC.json TSHARK.tsv    compare; exit 1 on a difference
write_compare() {
	cat <<'EOF'
import json, sys

PF = ["write_blocked", "urg_data_pending", "urg_data_present",
      "cons_curs_upd_req", "failover_validation"]
CSF = ["peer_done_writing", "peer_conn_closed", "peer_conn_abort"]

FIELDS = [
    "frame.number", "frame.time_epoch", "frame.protocols",
    "ip.src", "ip.dst", "ipv6.src", "ipv6.dst",
    "udp.srcport", "udp.dstport",
    "smcdump.magic", "smcdump.hdr_ver", "smcdump.smc_ver", "smcdump.mode",
    "smcdump.type", "smcdump.len", "smcdump.hdr_len", "smcdump.flags",
    "smcdump.flags.rx", "smcdump.flags.truncated", "smcdump.dir",
    "smcdump.seq", "smcdump.token", "smcdump.orig_len", "smcdump.offset",
    "smcdump.payload_len", "smcdump.cap_len", "smcdump.error",
    "smcdump.data", "smcdump.stream_offset", "smcdump.stream_end",
    "smcdump.legacy.raw", "smcdump.legacy.raw_len",
    "smcdump.cdc.type", "smcdump.cdc.len", "smcdump.cdc.seqno",
    "smcdump.cdc.token", "smcdump.cdc.prod", "smcdump.cdc.prod.wrap",
    "smcdump.cdc.prod.count", "smcdump.cdc.cons", "smcdump.cdc.cons.wrap",
    "smcdump.cdc.cons.count", "smcdump.cdc.prod_cursor_flags",
    "smcdump.cdc.prod_flags", "smcdump.cdc.prod_flags.names",
    "smcdump.cdc.conn_state_flags", "smcdump.cdc.conn_state_flags.names",
    "smcdump.expert.malformed", "smcdump.expert.truncated",
    "smcdump.expert.cap_truncated", "smcdump.expert.legacy",
] + ["smcdump.cdc.prod_flags." + n for n in PF] \
  + ["smcdump.cdc.conn_state_flags." + n for n in CSF]
CDC_FIELDS = [x for x in FIELDS if x.startswith("smcdump.cdc.")]

if sys.argv[1] == "fields":
    print(" ".join("-e " + x for x in FIELDS))
    sys.exit(0)

recs = {}
for o in json.load(open(sys.argv[1])):
    if o.get("type") not in ("tcp", "clc"):
        recs[o["frame"]] = o
rows = {}
with open(sys.argv[2]) as fh:
    head = fh.readline().rstrip("\n").split("\t")
    assert head == FIELDS, head
    for line in fh:
        v = dict(zip(FIELDS, line.rstrip("\n").split("\t")))
        rows[int(v["frame.number"])] = v

errors = []
fields_compared = 0

def bad(frame, what, smc, ts):
    errors.append("frame %d: %s: smc %r, tshark %r" % (frame, what, smc, ts))

def num(s):
    return int(s, 0)

for n, v in rows.items():
    if "smcdump" in v["frame.protocols"].split(":") and n not in recs:
        bad(n, "record", None, "decoded by the dissector")

for n, r in sorted(recs.items()):
    v = rows.get(n)
    if v is None or "smcdump" not in v["frame.protocols"].split(":"):
        bad(n, "record", r.get("type"), "not decoded by the dissector")
        continue
    done = set(["frame"])

    def eq(key, field, conv=str, js=None, src=None, seen=None):
        """member key of src (the record; or the value js) against a
        dissector field; seen collects the compared members"""
        global fields_compared
        src = r if src is None else src
        (done if seen is None else seen).add(key)
        want = src.get(key) if js is None else js
        got = v[field]
        fields_compared += 1
        try:
            ok = conv(got) == want
        except ValueError:
            ok = False
        if got == "" and not ok:
            if want is None:
                return
            # the decoder prints 0 for a length it did not get to
            # (a malformed record); the dissector leaves it out
            if want == 0 and "error" in r:
                return
        if not ok:
            bad(n, key + " (" + field + ")", want, got)

    def absent(fields, why):
        for x in fields:
            if v[x] != "":
                bad(n, x + " " + why, None, v[x])

    sec, nsec = v["frame.time_epoch"].split(".")
    done.update(["ts_sec", "ts_nsec"])
    if int(sec) != r["ts_sec"] or int(nsec.ljust(9, "0")) != r["ts_nsec"]:
        bad(n, "ts", (r["ts_sec"], r["ts_nsec"]), v["frame.time_epoch"])
    if "src" in r:
        v6 = ":" in r["src"]
        eq("src", "ipv6.src" if v6 else "ip.src")
        eq("dst", "ipv6.dst" if v6 else "ip.dst")
        eq("sport", "udp.srcport", int)
        eq("dport", "udp.dstport", int)

    eq("error", "smcdump.error")
    if bool(r.get("error")) != (v["smcdump.expert.malformed"] != ""):
        bad(n, "malformed expert info", r.get("error"),
            v["smcdump.expert.malformed"])
    mode = {1: "smcr", 2: "smcd"}
    # smc-dump(8): mode and type are strings, "mode-N", "type-N" unknown
    mname = lambda s: mode.get(int(s), "mode-%d" % int(s))
    t = r["type"]
    done.add("type")
    if t == "malformed":
        # the header was not decoded far enough for the record fields
        absent(["smcdump.seq", "smcdump.token", "smcdump.dir"] + CDC_FIELDS,
               "on a record the decoder could not read")
    elif t == "legacy":
        eq("mode", "smcdump.mode", mname)
        eq("hdr_ver", "smcdump.hdr_ver", int)
        eq("smc_ver", "smcdump.smc_ver", int)
        eq("rec_type", "smcdump.type",
           lambda s: {1: "data", 2: "cdc"}.get(int(s), int(s)))
        eq("len", "smcdump.len", int)
        eq("raw_len", "smcdump.legacy.raw_len", int)
        eq("cap_len", "smcdump.cap_len", int)
        eq("hex", "smcdump.legacy.raw")
        if v["smcdump.expert.legacy"] == "":
            bad(n, "legacy expert info", True, "")
        absent(["smcdump.seq", "smcdump.token", "smcdump.data"] +
               CDC_FIELDS, "on a legacy record")
    else:
        eq("type", "smcdump.type",
           lambda s: {1: "data", 2: "cdc"}.get(int(s), "type-%d" % int(s)))
        eq("mode", "smcdump.mode", mname)
        eq("dir", "smcdump.dir")
        eq("dir", "smcdump.flags.rx", lambda s: "rx" if s == "1" else "tx")
        eq("token", "smcdump.token")
        for k in ("seq", "hdr_ver", "smc_ver", "hdr_len", "offset",
                  "orig_len"):
            eq(k, "smcdump." + k, int)
        eq("flags", "smcdump.flags", num, num(r["flags"]))
        eq("len", "smcdump.payload_len", int)
        eq("cap_len", "smcdump.cap_len", int)
        eq("truncated", "smcdump.flags.truncated", lambda s: s == "1")
        trunc_data = r["truncated"] and t == "data"
        if trunc_data != (v["smcdump.expert.truncated"] != ""):
            bad(n, "truncated expert info", trunc_data,
                v["smcdump.expert.truncated"])
        cut = r["cap_len"] < r["len"]
        if cut != (v["smcdump.expert.cap_truncated"] != ""):
            bad(n, "capture cut expert info", cut,
                v["smcdump.expert.cap_truncated"])
        if t == "data" and v["smcdump.payload_len"] == "" and "error" in r:
            # malformed before the payload could be placed: the
            # dissector shows no data (the decoder's len is 0)
            if "hex" in r:
                eq("hex", "smcdump.data")
            absent(["smcdump.stream_offset"] + CDC_FIELDS,
                   "on a record without a payload")
        elif t == "data":
            eq("offset", "smcdump.stream_offset", int)
            if r["offset"] + r["len"] < 1 << 64:
                eq("offset", "smcdump.stream_end", int,
                   r["offset"] + r["len"])
            else:
                absent(["smcdump.stream_end"], "past 2^64")
            if "hex" in r:
                eq("hex", "smcdump.data", str, r["hex"] or None)
            absent(CDC_FIELDS, "on a data record")
        else:
            done.add("hex")	# the CDC message: its fields below
            absent(["smcdump.data", "smcdump.stream_offset"],
                   "on a CDC record")
        if not r.get("error"):
            eq("len", "smcdump.len", int, r["hdr_len"] + r["len"])
        c = r.get("cdc")
        done.add("cdc")
        if c is None:
            absent([x for x in CDC_FIELDS], "without a decoded CDC message")
        else:
            cd = set()
            def ceq(key, field, conv=str, js=None):
                eq(key, field, conv, js, src=c, seen=cd)
            smcr = "seqno" in c
            if smcr:
                ceq("seqno", "smcdump.cdc.seqno", int)
                ceq("token", "smcdump.cdc.token")
                ceq("msg_len", "smcdump.cdc.len", int)
                absent(["smcdump.cdc.prod_cursor_flags"], "on SMC-R")
            else:
                ceq("prod_cursor_flags", "smcdump.cdc.prod_cursor_flags",
                    num, num(c["prod_cursor_flags"]))
                absent(["smcdump.cdc.seqno", "smcdump.cdc.token",
                        "smcdump.cdc.len"], "on SMC-D")
            for cur in ("prod", "cons"):
                w, k = c[cur]["wrap"], c[cur]["count"]
                ceq(cur, "smcdump.cdc.%s.wrap" % cur, int, w)
                ceq(cur, "smcdump.cdc.%s.count" % cur, int, k)
                ceq(cur, "smcdump.cdc." + cur, str, "%d:%d" % (w, k))
            ceq("msg_type", "smcdump.cdc.type", num, num(c["msg_type"]))
            ceq("prod_flags_raw", "smcdump.cdc.prod_flags", num,
                num(c["prod_flags_raw"]))
            ceq("conn_state_flags_raw", "smcdump.cdc.conn_state_flags", num,
                num(c["conn_state_flags_raw"]))
            for key, names in (("prod_flags", PF),
                               ("conn_state_flags", CSF)):
                ceq(key, "smcdump.cdc.%s.names" % key,
                    lambda s: s.split(",") if s else [], c[key])
                for nm in names:
                    ceq(key, "smcdump.cdc.%s.%s" % (key, nm),
                        lambda s: s == "1", nm in c[key])
            for key in c:
                if key not in cd:
                    bad(n, "cdc." + key, c[key], "not compared")
    for key in r:
        if key not in done:
            bad(n, key, r[key], "not compared")

if not recs:
    errors.append("no records in the capture")
for e in errors[:40]:
    print(e)
if len(errors) > 40:
    print("... %d differences" % len(errors))
if errors:
    sys.exit(1)
print("%d records compared" % len(recs))
EOF
}

# tshark with the dissector from the tree (or $WS_LUA); fails on a Lua error
tshark_lua() {
	tshark -n -X lua_script:"${WS_LUA:-$LUA}" "$@" 2>"$T/tshark.err"
	local rc=$?
	if grep -v '^Running as user' "$T/tshark.err" | grep -q .; then
		cat "$T/tshark.err" >&2
		return 1
	fi
	return $rc
}

# wscompare PCAP [SMC READ ARGS ...] [-- TSHARK ARGS ...]
# Prints "N records compared", or the differences (and fails).
wscompare() {
	local pcap="$1" rc
	local -a sargs=() targs=()

	shift
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		sargs+=("$1")
		shift
	done
	[ $# -gt 0 ] && shift
	targs=("$@")
	"$SMC" -j -x dump read "${sargs[@]}" "$pcap" >"$T/cmp.json"
	rc=$?
	if [ $rc -gt 1 ]; then
		echo "smc dump read: exit $rc"
		return 1
	fi
	# shellcheck disable=SC2046
	tshark_lua "${targs[@]}" -r "$pcap" -T fields -E header=y \
		-E separator=/t -E occurrence=f \
		$(python3 "$T/compare.py" fields) >"$T/cmp.tsv" || {
		echo "tshark failed"
		return 1
	}
	python3 "$T/compare.py" "$T/cmp.json" "$T/cmp.tsv"
}

# -------------------------------------------------------- generated

@test "SMC-R and SMC-D data and CDC, IPv4 and IPv6: every field as smc dump read" {
	gen "$T/j.pcap" <<-EOF
	data dir=tx token=0x1234abcd seq=10 offset=4096 len=100
	cdc dir=rx token=0x1234abcd seq=11 seqno=7 ctoken=0xcafe0001 pwrap=3 pcount=65536 cwrap=2 ccount=777 pflags=0x10 cflags=0x80
	data dir=rx token=0x1234abcd seq=12 offset=0 len=1 local=10.1.2.3 lport=1234 peer=10.3.2.1 pport=80
	data dir=tx token=0x1 seq=1 offset=0 len=1000
	cdc dir=tx token=0x1 seq=3 seqno=65535 ctoken=0x2 pwrap=65535 pcount=4294967295 cwrap=1 ccount=2 pflags=0xf8 cflags=0xe0
	cdc dir=rx token=0x1 seq=4 seqno=0 ctoken=0x1 pflags=0x80 cflags=0x20
	cdc mode=d dir=rx token=0x77 seq=5 pwrap=258 pcount=0x01020304 cwrap=1 ccount=5 pflags=0x40 cflags=0x40
	cdc mode=d dir=tx token=0xffffffff seq=4294967295 pwrap=65535 pcount=4294967295 cwrap=65535 ccount=4294967295
	data mode=d dir=tx token=0x77 seq=6 offset=123456789012 len=17 smcver=1
	data mode=d dir=rx token=0x77 seq=7 offset=18446744073709551000 len=600
	data dir=rx token=0x9 seq=8 offset=0 len=64 local=2001:db8::1 peer=2001:db8::2
	cdc dir=tx token=0x9 seq=9 seqno=3 ctoken=0x10 pcount=100 local=2001:db8::1 peer=2001:db8::2
	cdc mode=d dir=rx token=0x9 seq=10 ccount=100 cflags=0x80 local=fe80::1 peer=fe80::2
	data dir=tx token=0x5 seq=11 offset=0 len=0
	data dir=tx token=0x5 seq=12 offset=7 len=65000
	data dir=tx token=0x5 seq=13 offset=9 len=40 hdrlen=40
	EOF
	run -0 wscompare "$T/j.pcap"
	[ "$output" = "16 records compared" ]
}

@test "CDC flags: every producer and connection state bit, and reserved bits" {
	local b n=0 m spec=
	for m in r d; do
		for b in 0x80 0x40 0x20 0x10 0x08 0x04 0x02 0x01 0xff 0x00; do
			spec+="cdc mode=$m dir=tx token=0x5 seq=$((n++)) pflags=$b"$'\n'
			spec+="cdc mode=$m dir=rx token=0x5 seq=$((n++)) cflags=$b"$'\n'
		done
	done
	gen "$T/f.pcap" <<<"$spec"
	run -0 wscompare "$T/f.pcap"
	[ "$output" = "$n records compared" ]
	# the kernel's names (man smc-dump), not just agreement: 0x84 is
	# write_blocked and an unnamed bit
	gen "$T/f2.pcap" <<<"cdc dir=tx token=0x5 seq=1 pflags=0x84 cflags=0x01"
	run -0 tshark_lua -r "$T/f2.pcap" -T fields \
		-e smcdump.cdc.prod_flags.names \
		-e smcdump.cdc.conn_state_flags.names
	[ "$output" = $'write_blocked,0x04\t0x01' ]
}

@test "SMC-D CDC byte order: preference cdc_endian as smc's cdc-endian" {
	gen "$T/d.pcap" <<-EOF
	cdc mode=d dir=tx token=0x42 seq=1 pwrap=0x0102 pcount=0x01020304 cwrap=7 ccount=9 endian=big pflags=0x10
	cdc mode=d dir=rx token=0x42 seq=2 pwrap=0x0a0b pcount=0x0a0b0c0d cwrap=0x100 ccount=0x10000 endian=big
	EOF
	run -0 wscompare "$T/d.pcap" cdc-endian big -- -o smcdump.cdc_endian:big
	[ "$output" = "2 records compared" ]
	run -0 wscompare "$T/d.pcap"
	[ "$output" = "2 records compared" ]
	# the two orders give different cursors, and the comparison sees it
	run -1 wscompare "$T/d.pcap" cdc-endian big
	[[ "$output" == *"frame 1: prod (smcdump.cdc.prod.wrap): smc 258, tshark '513'"* ]]
	run -1 wscompare "$T/d.pcap" -- -o smcdump.cdc_endian:big
	[[ "$output" == *"frame 2: cons (smcdump.cdc.cons.count): smc 256, tshark '65536'"* ]]
}

@test "truncated records: snaplen flag, orig_len, capture cut, expert info" {
	gen "$T/t.pcap" <<-EOF
	data dir=tx token=0x1 seq=1 offset=0 len=64 orig=65000
	data dir=tx token=0x1 seq=2 offset=65000 len=1000 cut=500
	data mode=d dir=rx token=0x1 seq=3 offset=0 len=100 orig=200 cut=100
	data dir=tx token=0x1 seq=4 offset=3 len=10 cut=80
	EOF
	run -0 wscompare "$T/t.pcap"
	[ "$output" = "4 records compared" ]
	# the expert info, by frame, as the spec made them
	run -0 tshark_lua -r "$T/t.pcap" -Y smcdump.expert.truncated \
		-T fields -e frame.number
	[ "${lines[*]}" = "1 3" ]
	run -0 tshark_lua -r "$T/t.pcap" -Y smcdump.expert.cap_truncated \
		-T fields -e frame.number
	[ "${lines[*]}" = "2 3 4" ]
}

@test "Alibaba layout (hdr_ver < 3): prefix fields and the raw bytes" {
	gen "$T/a.pcap" <<-EOF
	legacy hdrver=1 smcver=2 mode=d type=2 hex=000102030405060708090a0b0c0d0e0f10
	legacy hdrver=2 smcver=1 mode=r type=1 hex=41424344
	legacy hdrver=0 smcver=1 mode=r type=7
	legacy hdrver=2 mode=r type=1 hex=4142434445464748 reclen=9
	legacy hdrver=1 mode=d type=1 hex=00112233445566778899 cut=60
	EOF
	run -0 wscompare "$T/a.pcap"
	[ "$output" = "5 records compared" ]
}

@test "malformed records: the same reason as smc dump read, expert info" {
	local e=02:00:00:00:00:01
	z() { printf "%0$(($1 * 2))d" 0; }	# N zero bytes in hex
	gen "$T/s.pcap" <<-EOF
	udp hex=cfd3e7 smac=$e dmac=$e
	udp hex=cfd3e7a503020101 smac=$e dmac=$e
	udp hex=cfd3e7a5030201010018$(z 14) smac=$e dmac=$e
	udp hex=0102030405060708 smac=$e dmac=$e
	data token=0x1 seq=4 len=20 hdrlen=16
	data token=0x1 seq=5 len=10 reclen=999
	data token=0x1 seq=5 len=10 reclen=20
	data token=0x1 seq=6 len=10 mode=3
	data token=0x1 seq=7 len=10 type=9
	data token=0x1 seq=8 len=10 orig=5
	data token=0x1 seq=9 len=10 orig=11 flags=0
	cdc token=0x1 seq=10 hex=fe28$(z 38)
	cdc mode=d token=0x1 seq=11 hex=fe$(z 43)
	cdc token=0x1 seq=12 hex=002c$(z 42)
	cdc token=0x1 seq=12 hex=fe2b$(z 42)
	cdc token=0x1 seq=13 flags=2
	udp hex=cfd3e7a50302010200$(printf %x $((32 + 44)))2000$(z 3)0d000000010000002c0000000000000005fe2c$(z 42) smac=$e dmac=$e
	data token=0x1 seq=14 len=10 flags=2
	udp hex=cfd3e7a50302010100$(printf %x $((32 + 10)))2000$(z 3)0f000000010000000affffffffffffffff$(z 10) smac=$e dmac=$e
	udp hex=cfd3e7a50302010100$(printf %x $((32 + 10)))2000$(z 3)10000000010000000afffffffffffffff6$(z 10) smac=$e dmac=$e
	udp hex=cfd3e7a50302010100$(printf %x $((32 + 10)))2000$(z 3)11000000010000000afffffffffffffff5$(z 10) smac=$e dmac=$e
	cdc token=0x1 seq=16 cut=100
	data token=0x1 seq=17 offset=0 len=10 cut=60
	data token=0x1 seq=18 offset=0 len=10
	EOF
	# the decoder finds a different fault in each but the last
	run -1 "$SMC" -j dump read "$T/s.pcap"
	run -0 python3 -c '
import json, sys
d = json.loads(sys.argv[1])
e = [o.get("error") for o in d]
print(len(d), len(set(e[:-1])), e[-1])' "$output"
	[ "$output" = "24 23 None" ]
	run -0 wscompare "$T/s.pcap"
	[ "$output" = "24 records compared" ]
}

@test "only records: other UDP and TCP are left to their dissectors" {
	# other UDP between distinct MACs, UDP on lo (zero MACs, which are
	# equal but no smc-dummy link's), TCP without CLC
	gen "$T/o.pcap" <<-EOF
	udp hex=0102030405060708 sport=5353 dport=5353
	tcp flags=PA hex=474554202f20485454502f312e310d0a
	data token=0x1 seq=1 len=4
	udp hex=0102030405060708 sport=5353 dport=5353 smac=00:00:00:00:00:00 dmac=00:00:00:00:00:00
	EOF
	run -0 tshark_lua -r "$T/o.pcap" -Y smcdump -T fields -e frame.number
	[ "$output" = "3" ]
	# the first three frames as smc dump read sees them (it takes the
	# fourth for an smc-dummy frame; see contrib/wireshark/README.md)
	gen "$T/o3.pcap" <<-EOF
	udp hex=0102030405060708 sport=5353 dport=5353
	tcp flags=PA hex=474554202f20485454502f312e310d0a
	data token=0x1 seq=1 len=4
	EOF
	run -0 wscompare "$T/o3.pcap"
	[ "$output" = "1 records compared" ]
}

@test "records on ports of other dissectors: with udp.try_heuristic_first" {
	gen "$T/p.pcap" <<-EOF
	data dir=tx token=0x3 seq=1 offset=0 len=10 lport=40000 pport=53
	cdc dir=rx token=0x3 seq=2 seqno=1 ctoken=0x4 pcount=10 lport=40000 pport=53
	data dir=tx token=0x3 seq=3 offset=0 len=10 lport=40000 pport=4791
	EOF
	run -0 wscompare "$T/p.pcap" -- -o udp.try_heuristic_first:TRUE
	[ "$output" = "3 records compared" ]
	# without it, the DNS and RoCEv2 port dissectors win (README)
	run -1 wscompare "$T/p.pcap"
	[[ "$output" == *"frame 1: record: smc 'data', tshark 'not decoded by the dissector'"* ]]
}

@test "pcapng, Linux cooked v1 and v2, raw IP, VLAN, nanoseconds: same fields" {
	local spec="data dir=tx token=0xabc seq=1 offset=7 len=33 ts=1700000001.000001
cdc dir=rx token=0xabc seq=2 seqno=4 ctoken=0xdef pcount=40 ts=1700000001.000002
cdc mode=d dir=tx token=0xabc seq=3 pcount=9 cflags=0x40 ts=1700000001.000003
data dir=rx token=0xabc seq=4 offset=0 len=5 vlan=7 local=fd00::1 peer=fd00::2
legacy hdrver=1 mode=r type=1 hex=0102"
	local args
	for args in "" "-g" "-g -n" "-l sll" "-l sll2" "-l raw" "-l sll2 -g" \
		    "-l sll -n"; do
		# shellcheck disable=SC2086
		gen "$T/x.pcap" $args <<<"$spec"
		run -0 wscompare "$T/x.pcap"
		[ "$output" = "5 records compared" ] ||
			{ echo "$args: $output"; return 1; }
	done
}

@test "a dissector that decodes a field wrongly fails the comparison" {
	gen "$T/w.pcap" <<-EOF
	cdc dir=tx token=0x5 seq=1 pflags=0x80
	data dir=tx token=0x5 seq=2 offset=77 len=3
	EOF
	run -0 wscompare "$T/w.pcap"
	# write_blocked taken for 0x40
	sed 's/{ 0x80, "write_blocked"/{ 0x40, "write_blocked"/' "$LUA" \
		>"$T/bad1.lua"
	run ! cmp -s "$LUA" "$T/bad1.lua"
	WS_LUA="$T/bad1.lua" run -1 wscompare "$T/w.pcap"
	[[ "$output" == *"frame 1: prod_flags (smcdump.cdc.prod_flags.names): smc ['write_blocked'], tshark '0x80'"* ]]
	# the stream offset from the wrong header bytes
	sed 's/local offset = tvb(24, 8):uint64()/local offset = tvb(20, 8):uint64()/' \
		"$LUA" >"$T/bad2.lua"
	run ! cmp -s "$LUA" "$T/bad2.lua"
	WS_LUA="$T/bad2.lua" run -1 wscompare "$T/w.pcap"
	[[ "$output" == *"frame 2: offset (smcdump.stream_offset)"* ]]
}

# ------------------------------------------------------------- real

@test "real captures of the patched kernel: every field as smc dump read" {
	local dir="${SMCDUMP_CAPTURES:-$TOP/build/smcr-results}" f n=0
	local -a files=()

	for f in "$dir"/*-smcr.pcap "$dir"/*-all.pcap; do
		[ -s "$f" ] && files+=("$f")
	done
	[ ${#files[@]} -gt 0 ] || skip "no captures in $dir"
	for f in "${files[@]}"; do
		# a capture without records (a run that moved nothing) has
		# nothing to compare
		"$SMC" -j dump read "$f" | python3 -c '
import json, sys
sys.exit(0 if any(o.get("type") in ("data", "cdc") for o in json.load(sys.stdin)) else 1)' ||
			continue
		run -0 wscompare "$f"
		[[ "$output" =~ ^[0-9]+\ records\ compared$ ]] ||
			{ echo "$f: $output"; return 1; }
		echo "# $(basename "$f"): $output" >&3
		n=$((n + 1))
	done
	[ $n -gt 0 ] || skip "no records in the captures in $dir"
}

# ---------------------------------------------------- install, docs

@test "make install: DESTDIR, PREFIX, the folder tshark loads; install-user" {
	local global multi

	make -C "$TOP/contrib/wireshark" install DESTDIR="$T/root" PREFIX=/usr \
		>/dev/null
	global="$(tshark -G folders 2>/dev/null |
		  sed -n 's/^Global Lua Plugins:[[:space:]]*//p')"
	[ -n "$global" ]
	[ -f "$T/root$global/smcdump.lua" ]
	cmp "$LUA" "$T/root$global/smcdump.lua"
	multi="$(cc -print-multiarch)"
	make -C "$TOP/contrib/wireshark" install DESTDIR="$T/root2" \
		PREFIX=/opt/x >/dev/null
	[ -f "$T/root2/opt/x/lib/$multi/wireshark/plugins/smcdump.lua" ]
	make -C "$TOP/contrib/wireshark" uninstall DESTDIR="$T/root2" \
		PREFIX=/opt/x >/dev/null
	[ ! -e "$T/root2/opt/x/lib/$multi/wireshark/plugins/smcdump.lua" ]

	# personal: tshark picks it up from $HOME without -X
	mkdir -p "$T/home"
	HOME="$T/home" make -C "$TOP/contrib/wireshark" install-user >/dev/null
	[ "$(HOME="$T/home" tshark -G folders 2>/dev/null |
	     sed -n 's/^Personal Lua Plugins:[[:space:]]*//p')/smcdump.lua" = \
	  "$T/home/.local/lib/wireshark/plugins/smcdump.lua" ]
	cmp "$LUA" "$T/home/.local/lib/wireshark/plugins/smcdump.lua"
	gen "$T/i.pcap" <<<"data dir=rx token=0x2a seq=1 offset=5 len=3"
	run -0 env HOME="$T/home" tshark -n -r "$T/i.pcap" -T fields \
		-e smcdump.token -e smcdump.stream_offset
	[ "${lines[-1]}" = $'0x0000002a\t5' ]
}

@test "README documents every field the dissector registers, and no other" {
	mkdir -p "$T/fhome"
	HOME="$T/fhome" make -C "$TOP/contrib/wireshark" install-user >/dev/null
	HOME="$T/fhome" tshark -G fields 2>/dev/null |
		awk -F'\t' '($1 == "F" || $1 == "P") && $3 ~ /^smcdump($|\.)/ { print $3 }' |
		sort -u >"$T/registered"
	[ "$(wc -l <"$T/registered")" -gt 40 ]
	# shellcheck disable=SC2016 # the backquotes of Markdown
	sed -n '/^## Fields/,$p' "$TOP/contrib/wireshark/README.md" |
		grep -o '^| `smcdump[a-z0-9_.]*`' |
		tr -d '|` ' | sort -u >"$T/documented"
	run diff "$T/registered" "$T/documented"
	[ "$status" -eq 0 ] || { echo "$output"; return 1; }
}
