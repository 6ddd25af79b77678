#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""An independent reader of the captures of the host tests
(testsuite/host/dump-read.bats): prints, as JSON, what each frame carrying
an SMC dump record holds, or checks the decoder's JSON against it.
Written from the record format (Documentation/record-format.md), the
kernel's struct layouts and the pcap/pcapng formats, without any of the
project's C code.

    smcdump_oracle.py expect CAPTURE [big] < SMC.json
"""
import json, struct, sys

PF = [(0x80, "write_blocked"), (0x40, "urg_data_pending"),
      (0x20, "urg_data_present"), (0x10, "cons_curs_upd_req"),
      (0x08, "failover_validation")]
CSF = [(0x80, "peer_done_writing"), (0x40, "peer_conn_closed"),
       (0x20, "peer_conn_abort")]

def frames(path):
    d = open(path, "rb").read()
    if d[:4] == b"\x0a\x0d\x0d\x0a":
        bo = "<" if d[8:12] == b"\x4d\x3c\x2b\x1a" else ">"
        off, lt, res = 0, None, 6
        while off + 12 <= len(d):
            btype, blen = struct.unpack_from(bo + "II", d, off)
            if btype == 1:
                lt = struct.unpack_from(bo + "H", d, off + 8)[0]
                o = off + 16
                while o + 4 <= off + blen - 4:
                    code, olen = struct.unpack_from(bo + "HH", d, o)
                    if code == 0:
                        break
                    if code == 9:
                        res = d[o + 4]
                    o += 4 + ((olen + 3) & ~3)
            elif btype == 6:
                _, th, tl, cap, _ = struct.unpack_from(bo + "IIIII", d, off + 8)
                t = th << 32 | tl
                yield lt, t // 10**res, (t % 10**res) * 10**(9 - res), \
                    d[off + 28:off + 28 + cap]
            off += blen
        return
    bo = "<" if d[:4] in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1") else ">"
    nano = d[:4] in (b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d")
    lt = struct.unpack_from(bo + "I", d, 20)[0]
    off = 24
    while off + 16 <= len(d):
        s, f, cap, _ = struct.unpack_from(bo + "IIII", d, off)
        yield lt, s, f if nano else f * 1000, d[off + 16:off + 16 + cap]
        off += 16 + cap

def udp(lt, fr):
    u16 = lambda o: struct.unpack_from(">H", fr, o)[0]
    if lt == 1:
        et, o = u16(12), 14
    elif lt == 113:
        et, o = u16(14), 16
    elif lt == 276:
        et, o = u16(0), 20
    else:
        et, o = (0x800 if fr[0] >> 4 == 4 else 0x86dd), 0
    while et == 0x8100:
        et, o = u16(o + 2), o + 4
    if et == 0x800:
        hl = (fr[o] & 15) * 4
        if fr[o + 9] != 17:
            return None
        src = ".".join(str(b) for b in fr[o + 12:o + 16])
        dst = ".".join(str(b) for b in fr[o + 16:o + 20])
        o += hl
    elif et == 0x86dd:
        if fr[o + 6] != 17:
            return None
        import ipaddress
        src = str(ipaddress.IPv6Address(bytes(fr[o + 8:o + 24])))
        dst = str(ipaddress.IPv6Address(bytes(fr[o + 24:o + 40])))
        o += 40
    else:
        return None
    sport, dport, ulen = u16(o), u16(o + 2), u16(o + 4)
    return src, sport, dst, dport, fr[o + 8:o + ulen]

def flags(v, table):
    return [n for b, n in table if v & b]

def record(p, smcd_big=False):
    r = {}
    (magic, hv, sv, mode, typ, ln, hl, fl, seq, tok, orig,
     off) = struct.unpack_from(">IBBBBHBBIIIQ", p, 0)
    if magic != 0xCFD3E7A5 or hv < 3:
        return None
    pay = p[hl:ln]
    if hv >= 4:
        # hdr_ver 4: stream_seq, and the record names its byte order
        r["stream_seq"] = struct.unpack_from(">I", p, 32)[0]
        smcd_big = bool(fl & 8)
    r.update(mode={1: "SMC-R", 2: "SMC-D"}[mode], dir="rx" if fl & 1 else "tx",
             token="0x%08x" % tok, type={1: "data", 2: "cdc", 3: "llc"}[typ],
             seq=seq, hdr_ver=hv, smc_ver=sv, hdr_len=hl, offset=off,
             len=ln - hl, orig_len=orig, truncated=bool(fl & 2),
             cap_len=len(pay))
    if typ == 2 and mode == 1:
        _, _, seqno, ctok, _, pw, pc, _, cw, cc, pf, cf = \
            struct.unpack_from(">BBHIHHIHHIBB", pay, 0)
        r["cdc"] = dict(seqno=seqno, token="0x%08x" % ctok,
                        prod=dict(wrap=pw, count=pc),
                        cons=dict(wrap=cw, count=cc),
                        prod_flags=flags(pf, PF),
                        conn_state_flags=flags(cf, CSF))
    elif typ == 2:
        e = ">" if smcd_big else "<"
        pw, pc = struct.unpack_from(e + "HI", pay, 8)
        cw, cc = struct.unpack_from(e + "HI", pay, 16)
        r["cdc"] = dict(prod=dict(wrap=pw, count=pc),
                        cons=dict(wrap=cw, count=cc),
                        prod_flags=flags(pay[22], PF),
                        conn_state_flags=flags(pay[23], CSF))
    return r

def expected(path, smcd_big=False):
    out = []
    for n, (lt, sec, nsec, fr) in enumerate(frames(path), 1):
        u = udp(lt, fr)
        if not u:
            continue
        r = record(u[4], smcd_big)
        if r is None:
            continue
        r.update(frame=n, ts_sec=sec, ts_nsec=nsec, src_address=u[0],
                 src_port=u[1], dst_address=u[2], dst_port=u[3])
        out.append(r)
    return out

if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "expect":
        # compare the decoder's JSON (stdin) with what the bytes hold
        got = {o["frame"]: o for o in json.load(sys.stdin)}
        exp = expected(sys.argv[2], len(sys.argv) > 3 and sys.argv[3] == "big")
        if not exp:
            sys.exit("oracle found no records")
        bad = 0
        for e in exp:
            g = got.get(e["frame"])
            if g is None:
                print("frame %d missing" % e["frame"]); bad += 1; continue
            for k, v in e.items():
                gv = g.get(k)
                if k == "cdc":
                    gv = {kk: g[k].get(kk) for kk in v}
                if gv != v:
                    print("frame %d %s: got %r, bytes say %r" %
                          (e["frame"], k, gv, v)); bad += 1
        print("%d records compared" % len(exp))
        sys.exit(1 if bad else 0)
    if cmd == "count":
        print(len(expected(sys.argv[2])))
