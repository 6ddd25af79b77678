#!/usr/bin/env python3
"""Independent check of an SMC dump capture, for the tests.

Reads a classic pcap (micro- or nanosecond) of Ethernet frames, as tcpdump
writes from an smc-dummy link, parses each record by Documentation/record-format.md
without using any of the project's C code, and prints a JSON summary:
record counts (data, CDC, LLC), seq gaps, checksum verdicts, and per stream (token and
direction) the reassembled bytes' length and SHA-256. hdr_ver 4 records
also give stream_seq_gaps: numbers missing in each (token, direction,
type) stream, the records really lost, whatever a filter left out.
LLC records (type 3) are listed in order under "llc_messages" (the
frame number from 1, the message's type byte, response bit, the link id
of the record, DELETE_LINK's link number and reason, and how many data
records came before it in the capture); they make no
stream and no endpoint.

    smcdump_check.py CAPTURE.pcap [--dump-dir DIR]
"""
import hashlib
import ipaddress
import json
import struct
import sys

MAGIC = 0xCFD3E7A5


def csum(data):
    if len(data) % 2:
        data += b"\0"
    s = sum(struct.unpack("!%dH" % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def read_pcap(path):
    with open(path, "rb") as f:
        gh = f.read(24)
        magic = struct.unpack("<I", gh[:4])[0]
        if magic in (0xA1B2C3D4, 0xA1B23C4D):
            e = "<"
        else:
            e = ">"
        linktype = struct.unpack(e + "I", gh[20:24])[0]
        while True:
            ph = f.read(16)
            if len(ph) < 16:
                return
            _, _, incl, orig = struct.unpack(e + "IIII", ph)
            yield linktype, f.read(incl), orig


def main():
    path = sys.argv[1]
    dump_dir = None
    if "--dump-dir" in sys.argv:
        dump_dir = sys.argv[sys.argv.index("--dump-dir") + 1]
    out = {
        "frames": 0, "records": 0, "data": 0, "cdc": 0,
        "tx": 0, "rx": 0, "smcd": 0, "smcr": 0,
        "truncated": 0, "snapped_frames": 0, "bad_magic": 0,
        "bad_ip_checksum": 0, "bad_udp_checksum": 0, "zero_udp_checksum": 0,
        "bad_len": 0, "ipv4": 0, "ipv6": 0, "seq_gaps": 0,
        "stream_seq_gaps": 0, "big_endian": 0, "hdr_versions": [],
        "max_payload": 0, "smc_versions": [], "cdc_sizes": [],
        "endpoints": [], "streams": [], "llc": 0, "llc_messages": [],
    }
    seqs = []
    sseqs = {}
    hvers = set()
    streams = {}
    endpoints = set()
    versions = set()
    cdc_sizes = set()
    for linktype, frame, orig in read_pcap(path):
        out["frames"] += 1
        if len(frame) < orig:
            out["snapped_frames"] += 1
            continue
        if linktype != 1 or len(frame) < 14:
            continue
        etype = struct.unpack("!H", frame[12:14])[0]
        ip = frame[14:]
        if etype == 0x0800:
            ihl = (ip[0] & 15) * 4
            if csum(ip[:ihl]) != 0xFFFF:
                out["bad_ip_checksum"] += 1
            tot = struct.unpack("!H", ip[2:4])[0]
            src = str(ipaddress.IPv4Address(ip[12:16]))
            dst = str(ipaddress.IPv4Address(ip[16:20]))
            if ip[9] != 17:
                continue
            udp = ip[ihl:tot]
            out["ipv4"] += 1
            if struct.unpack("!H", udp[6:8])[0] == 0:
                out["zero_udp_checksum"] += 1
        elif etype == 0x86DD:
            plen = struct.unpack("!H", ip[4:6])[0]
            if ip[6] != 17:
                continue
            src = str(ipaddress.IPv6Address(ip[8:24]))
            dst = str(ipaddress.IPv6Address(ip[24:40]))
            udp = ip[40:40 + plen]
            out["ipv6"] += 1
            pseudo = ip[8:40] + struct.pack("!IxxxB", len(udp), 17)
            if struct.unpack("!H", udp[6:8])[0] == 0 or csum(pseudo + udp) != 0xFFFF:
                out["bad_udp_checksum"] += 1
        else:
            continue
        sport, dport, ulen = struct.unpack("!HHH", udp[:6])
        rec = udp[8:ulen]
        if len(rec) < 32 or struct.unpack("!I", rec[:4])[0] != MAGIC:
            out["bad_magic"] += 1
            continue
        (magic, hver, sver, mode, typ, rlen, hlen, flags, seq, token,
         orig_len, offset) = struct.unpack("!IBBBBHBBIIIQ", rec[:32])
        out["records"] += 1
        payload = rec[hlen:rlen]
        if rlen != len(rec) or (hver, hlen) not in ((3, 32), (4, 40)):
            out["bad_len"] += 1
        hvers.add(hver)
        if hver >= 4 and len(rec) >= 40:
            sseq = struct.unpack("!I", rec[32:36])[0]
            sseqs.setdefault((token, flags & 1, typ), []).append(sseq)
            if flags & 8:
                out["big_endian"] += 1
        seqs.append(seq)
        versions.add(sver)
        out["smcd" if mode == 2 else "smcr"] += 1
        rx = bool(flags & 1)
        out["rx" if rx else "tx"] += 1
        if typ == 3:
            # struct smc_dump_llc_link (48 bytes), then the LLC message:
            # type, length, reserved, flags (0x80: response), then for
            # DELETE_LINK (4 or 0x24) link_num, reason (RFC 7609)
            out["llc"] += 1
            msg = payload[48:]
            m = {"frame": out["frames"], "dir": "rx" if rx else "tx",
                 "lgr": token,
                 "link_id": payload[4] if len(payload) > 4 else None,
                 "type": msg[0] if msg else None,
                 "resp": bool(msg[3] & 0x80) if len(msg) > 3 else None,
                 "data_before": out["data"]}
            if m["type"] in (0x04, 0x24) and len(msg) >= 9:
                m["link_num"] = msg[4]
                m["reason"] = struct.unpack("!I", msg[5:9])[0]
            out["llc_messages"].append(m)
            continue
        endpoints.add((src, sport, dst, dport, "rx" if rx else "tx"))
        if typ == 2:
            out["cdc"] += 1
            cdc_sizes.add(len(payload))
            continue
        out["data"] += 1
        out["max_payload"] = max(out["max_payload"], orig_len)
        if flags & 2:
            out["truncated"] += 1
            if len(payload) >= orig_len:
                out["bad_len"] += 1
        elif len(payload) != orig_len:
            out["bad_len"] += 1
        key = (token, "rx" if rx else "tx")
        st = streams.setdefault(key, {"chunks": {}, "truncated": 0,
                                      "mode": mode, "src": src, "dst": dst,
                                      "sport": sport, "dport": dport})
        if flags & 2:
            st["truncated"] += 1
        st["chunks"][offset] = payload
    for v in sseqs.values():
        out["stream_seq_gaps"] += (max(v) - min(v) + 1) - len(set(v))
    out["hdr_versions"] = sorted(hvers)
    seqs.sort()
    if seqs:
        out["seq_first"] = seqs[0]
        out["seq_last"] = seqs[-1]
        out["seq_gaps"] = (seqs[-1] - seqs[0] + 1) - len(set(seqs))
        out["seq_dups"] = len(seqs) - len(set(seqs))
    for (token, d), st in sorted(streams.items()):
        data = bytearray()
        holes = overlaps = 0
        for off in sorted(st["chunks"]):
            chunk = st["chunks"][off]
            if off > len(data):
                holes += 1
                data += b"\0" * (off - len(data))
            elif off < len(data):
                overlaps += 1
                data = data[:off]
            data += chunk
        if dump_dir:
            with open("%s/%08x-%s" % (dump_dir, token, d), "wb") as f:
                f.write(data)
        out["streams"].append({
            "token": token, "dir": d, "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            "holes": holes, "overlaps": overlaps,
            "first_offset": min(st["chunks"]), "records": len(st["chunks"]),
            "truncated": st["truncated"], "mode": st["mode"],
            "src": st["src"], "dst": st["dst"],
            "sport": st["sport"], "dport": st["dport"]})
    out["smc_versions"] = sorted(versions)
    out["cdc_sizes"] = sorted(cdc_sizes)
    out["endpoints"] = sorted(list(e) for e in endpoints)
    json.dump(out, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
