#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The mapping from the decoder's JSON members (man smc-dump, JSON
OUTPUT) to the Wireshark dissector's fields, and the comparison.

    wireshark_compare.py fields                 the tshark -e arguments (and
                                                the -o of a column they use)
    wireshark_compare.py SMC.json TSHARK.tsv    compare; exit 1 on a difference
"""
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
    "smcdump.stream_seq", "smcdump.flags.big_endian",
    "smcdump.llc.lgr_id", "smcdump.llc.link_id", "smcdump.llc.qpn",
    "smcdump.llc.peer_qpn", "smcdump.llc.gid", "smcdump.llc.peer_gid",
    "smcdump.llc.type", "smcdump.llc.response", "smcdump.llc.note",
] + ["smcdump.cdc.prod_flags." + n for n in PF] \
  + ["smcdump.cdc.conn_state_flags." + n for n in CSF]
# the LLC message's fields (the "llc" object of smc dump read)
LLC_MSG_FIELDS = ["smcdump.llc." + x for x in (
    "version", "length", "sender_mac", "sender_gid", "sender_qpn",
    "link_num", "link_uid", "max_links", "max_conns", "rejected",
    "reject_reason", "qp_mtu", "initial_psn", "direct", "target_gid",
    "num_rkeys", "rkey", "new_rkey", "new_vaddr", "flags.all",
    "flags.orderly", "flags.negative", "flags.retry", "reason", "num_gids",
    "gid_list", "rtoken.link_num", "rtoken.rkey", "rtoken.vaddr",
    "user_data", "err_mask", "num_invalid_rkeys")]
# DELETE_LINK's reason as the dissector's value_string names it: a custom
# column of the field, resolved (-T fields prints the number)
REASON_COL = "_ws.col.llc_reason"
COLUMNS = '"llc_reason","%Cus:smcdump.llc.reason:0:R"'
FIELDS += LLC_MSG_FIELDS + [REASON_COL]
# tshark -E aggregator: between the occurrences of a field (lists of
# rkeys, tokens, GIDs)
AGG = "|"
CDC_FIELDS = [x for x in FIELDS if x.startswith("smcdump.cdc.")]
LLC_FIELDS = [x for x in FIELDS if x.startswith("smcdump.llc.")] \
  + [REASON_COL]
# net/smc/smc_llc.h, as Documentation/record-format.md lists them
LLC = {0x01: "CONFIRM_LINK", 0x02: "ADD_LINK", 0x03: "ADD_LINK_CONT",
       0x04: "DELETE_LINK", 0x05: "REQ_ADD_LINK", 0x06: "CONFIRM_RKEY",
       0x07: "TEST_LINK", 0x08: "CONFIRM_RKEY_CONT", 0x09: "DELETE_RKEY",
       0x21: "CONFIRM_LINK_V2", 0x22: "ADD_LINK_V2", 0x24: "DELETE_LINK_V2",
       0x25: "REQ_ADD_LINK_V2", 0x26: "CONFIRM_RKEY_V2",
       0x27: "TEST_LINK_V2", 0x29: "DELETE_RKEY_V2"}

if sys.argv[1] == "fields":
    print("-o gui.column.format:" + COLUMNS + " " +
          " ".join("-e " + x for x in FIELDS))
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

def occ(s):
    """the occurrences of a field, in order"""
    return s.split(AGG) if s else []

flag = lambda s: s == "1"
# members of the "llc" object that are one value: the dissector's field
# (under smcdump.llc.) and how to read it
LLC_SCALAR = {
    "version": ("version", int), "length": ("length", int),
    "sender_mac": ("sender_mac", str), "sender_gid": ("sender_gid", str),
    "sender_qpn": ("sender_qpn", int), "link_id": ("link_num", int),
    "link_uid": ("link_uid", str), "max_links": ("max_links", int),
    "max_conns": ("max_conns", int), "rejected": ("rejected", flag),
    "reject_reason": ("reject_reason", int), "qp_mtu": ("qp_mtu", int),
    "initial_psn": ("initial_psn", int), "direct": ("direct", flag),
    "target_gid": ("target_gid", str), "num_rkeys": ("num_rkeys", int),
    "all": ("flags.all", flag), "orderly": ("flags.orderly", flag),
    "negative": ("flags.negative", flag), "retry": ("flags.retry", flag),
    "reason_code": ("reason", str), "num_gids": ("num_gids", int),
    "user_data": ("user_data", str), "err_mask": ("err_mask", num),
    "num_invalid_rkeys": ("num_invalid_rkeys", int),
}

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
    if "src_address" in r:
        v6 = ":" in r["src_address"]
        eq("src_address", "ipv6.src" if v6 else "ip.src")
        eq("dst_address", "ipv6.dst" if v6 else "ip.dst")
        eq("src_port", "udp.srcport", int)
        eq("dst_port", "udp.dstport", int)

    eq("error", "smcdump.error")
    if bool(r.get("error")) != (v["smcdump.expert.malformed"] != ""):
        bad(n, "malformed expert info", r.get("error"),
            v["smcdump.expert.malformed"])
    mode = {1: "SMC-R", 2: "SMC-D"}
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
        v4 = r["hdr_ver"] >= 4
        eq("type", "smcdump.type",
           lambda s: {1: "data", 2: "cdc", 3: "llc" if v4 else "type-3"}
           .get(int(s), "type-%d" % int(s)))
        if "stream_seq" in r:
            eq("stream_seq", "smcdump.stream_seq", int)
            eq("flags", "smcdump.flags.big_endian", lambda s: s == "1",
               bool(num(r["flags"]) & 8))
        else:
            absent(["smcdump.stream_seq", "smcdump.flags.big_endian"],
                   "before hdr_ver 4")
        if t == "llc" and "msg_type" in r:
            for k, fld, conv in (("lgr_id", "lgr_id", str),
                                 ("link_id", "link_id", int),
                                 ("qpn", "qpn", int),
                                 ("peer_qpn", "peer_qpn", int),
                                 ("gid", "gid", str),
                                 ("peer_gid", "peer_gid", str),
                                 ("response", "response",
                                  lambda s: s == "1")):
                eq(k, "smcdump.llc." + fld, conv)
            eq("llc_note", "smcdump.llc.note")
            eq("msg_type", "smcdump.llc.type",
               lambda s: LLC.get(int(s, 16), "llc-type 0x%02x" % int(s, 16)),
               r["msg_type"] if r["msg_type"] in LLC.values() else
               "llc-type " + r["msg_type"])
            lm = r.get("llc")
            done.add("llc")
            if lm is None:
                absent(LLC_MSG_FIELDS + [REASON_COL],
                       "without the decoder's llc object")
            else:
                ld, used = set(), set()
                def leq(key, field, conv=str, js=None):
                    used.add(field)
                    eq(key, field, conv, js, src=lm, seen=ld)
                for key, (fld, conv) in LLC_SCALAR.items():
                    if key in lm:
                        leq(key, "smcdump.llc." + fld, conv,
                            num(lm[key]) if conv is num else None)
                # the reason by name; one Linux does not name stays a
                # number
                if "reason_code" in lm:
                    leq("reason", REASON_COL, str,
                        lm.get("reason", lm["reason_code"]))
                if "gids" in lm:
                    leq("gids", "smcdump.llc.gid_list", occ)
                rk = lm.get("rkeys")
                if rk and isinstance(rk[0], str):
                    # DELETE_RKEY: the rkeys themselves
                    leq("rkeys", "smcdump.llc.rkey", occ)
                elif rk is not None:
                    for sub in ("rkey", "new_rkey", "new_vaddr"):
                        leq("rkeys", "smcdump.llc." + sub, occ,
                            [x[sub] for x in rk])
                rt = lm.get("rtokens")
                if rt is not None:
                    # the first token of CONFIRM_RKEY is of the link the
                    # message came on and names none
                    leq("rtokens", "smcdump.llc.rtoken.link_num",
                        lambda s: [int(x) for x in occ(s)],
                        [x["link_id"] for x in rt if "link_id" in x])
                    for sub in ("rkey", "vaddr"):
                        leq("rtokens", "smcdump.llc.rtoken." + sub, occ,
                            [x[sub] for x in rt])
                absent([x for x in LLC_MSG_FIELDS + [REASON_COL]
                        if x not in used],
                       "not in the decoder's llc object")
                for key in lm:
                    if key not in ld:
                        bad(n, "llc." + key, lm[key], "not compared")
        else:
            absent(LLC_FIELDS, "without a decoded LLC message")
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
            done.add("hex")	# the CDC or LLC message: fields above, below
            absent(["smcdump.data", "smcdump.stream_offset"],
                   "on a CDC or LLC record")
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
