#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Test data for `smc -j stats` run against fake_genl.c (host tests only).

  stats_case.py spec     print SMC_FAKE_STATS: every counter of the kernel's
                         GET_STATS answer with a value of its own
  stats_case.py fback    print SMC_FAKE_FBACK
  stats_case.py check    read the JSON of `smc -j stats` on stdin and check
                         every documented name against the values given

The map below, from the uapi attribute names (include/uapi/linux/smc.h) to
the JSON names documented in smc(8), is written here by hand: it is the
specification the program is checked against.
"""
import json
import sys

TECH = ["smcd", "smcr"]

# SMC_NLA_STATS_T_* -> path under "smcd"/"smcr"
T = {
    "CLNT_V1_SUCC": "client.v1_success",
    "CLNT_V2_SUCC": "client.v2_success",
    "SRV_V1_SUCC": "server.v1_success",
    "SRV_V2_SUCC": "server.v2_success",
    "RX_BYTES": "rx_bytes",
    "TX_BYTES": "tx_bytes",
    "RX_CNT": "rx_requests",
    "TX_CNT": "tx_requests",
    "RX_RMB_USAGE": "rx_buffer_bytes_in_use",
    "TX_RMB_USAGE": "tx_buffer_bytes_in_use",
    "SENDPAGE_CNT": "special_calls.sendpage",
    "CORK_CNT": "special_calls.cork",
    "NDLY_CNT": "special_calls.nodelay",
    "SPLICE_CNT": "special_calls.splice",
    "URG_DATA_CNT": "special_calls.urgent_data",
}
# SMC_NLA_STATS_T_{TX,RX}_RMB_STATS nests: SMC_NLA_STATS_RMB_*
RMB_NEST = {"TX_RMB_STATS": "tx_buffer", "RX_RMB_STATS": "rx_buffer"}
RMB = {
    "FULL_CNT": "full",
    "FULL_PEER_CNT": "full_peer",
    "SIZE_SM_CNT": "too_small",
    "SIZE_SM_PEER_CNT": "too_small_peer",
    "ALLOC_CNT": "alloc",
    "REUSE_CNT": "reuse",
    "DGRADE_CNT": "downgrade",
}
# size histograms: SMC_NLA_STATS_PLOAD_*
HIST_NEST = {
    "TX_RMB_SIZE": "tx_buffer_sizes",
    "RX_RMB_SIZE": "rx_buffer_sizes",
    "TXPLOAD_SIZE": "tx_request_sizes",
    "RXPLOAD_SIZE": "rx_request_sizes",
}
HIST = {
    "8K": "le_8k", "16K": "le_16k", "32K": "le_32k", "64K": "le_64k",
    "128K": "le_128k", "256K": "le_256k", "512K": "le_512k",
    "1024K": "le_1024k", "G_1024K": "gt_1024k",
}
TOP = {"CLNT_HS_ERR_CNT": "handshake_errors.client",
       "SRV_HS_ERR_CNT": "handshake_errors.server"}


def cases():
    """(fake name, JSON path, value) for every counter, values distinct"""
    out = []
    n = 1
    for t in TECH:
        for k, p in T.items():
            out.append((f"{t}.{k}", f"{t}.{p}", n))
            n += 1
        for nk, np in RMB_NEST.items():
            for k, p in RMB.items():
                out.append((f"{t}.{nk}.{k}", f"{t}.{np}.{p}", n))
                n += 1
        for nk, np in HIST_NEST.items():
            for k, p in HIST.items():
                out.append((f"{t}.{nk}.{k}", f"{t}.{np}.{p}", n))
                n += 1
    for k, p in TOP.items():
        out.append((k, p, n))
        n += 1
    # values that need all 64 bits, and an NLA_UINT sent as 8 bytes
    big = {"smcd.TX_BYTES": 2**64 - 2, "smcd.RX_BYTES": 2**53 + 1,
           "smcr.RX_RMB_USAGE": 2**32 + 7}
    return [(f, p, big.get(f, v * 1000 + 3)) for f, p, v in out]


FBACK = "srv_cnt=7 clnt_cnt=4 clnt:0x03010000:4 srv:0x03030008:2 " \
        "srv:0x99887766:5"
# expected, sorted by count as smc-tools does
REASONS = [
    {"role": "server", "code": "0x99887766", "name": None, "count": 5},
    {"role": "client", "code": "0x03010000", "name": "PEERNOSMC", "count": 4},
    {"role": "server", "code": "0x03030008", "name": "NOUEID", "count": 2},
]


def get(obj, path):
    for part in path.split("."):
        obj = obj[part]
    return obj


def check(doc):
    errors = []
    if not isinstance(doc, list) or len(doc) != 1:
        return ["top level is not an array of one object"]
    s = doc[0]
    vals = {}
    for fake, path, v in cases():
        vals[path] = v
        try:
            got = get(s, path)
        except (KeyError, TypeError):
            errors.append(f"{path} missing")
            continue
        if got != v:
            errors.append(f"{path} = {got!r}, want {v} (from {fake})")
    for t in TECH:
        c1 = vals[f"{t}.client.v1_success"]
        c2 = vals[f"{t}.client.v2_success"]
        s1 = vals[f"{t}.server.v1_success"]
        s2 = vals[f"{t}.server.v2_success"]
        want = {f"{t}.connections": c1 + c2 + s1 + s2,
                f"{t}.v1_success": c1 + s1, f"{t}.v2_success": c2 + s2,
                f"{t}.client.success": c1 + c2,
                f"{t}.server.success": s1 + s2}
        for path, v in want.items():
            if get(s, path) != v:
                errors.append(f"{path} = {get(s, path)!r}, want {v}")
    hs = vals["handshake_errors.client"] + vals["handshake_errors.server"]
    if s["handshake_errors"].get("total") != hs:
        errors.append("handshake_errors.total")
    fb = s.get("fallback", {})
    for k, v in (("server", 7), ("client", 4), ("total", 11)):
        if fb.get(k) != v:
            errors.append(f"fallback.{k} = {fb.get(k)!r}, want {v}")
    if fb.get("reasons") != REASONS:
        errors.append(f"fallback.reasons = {fb.get('reasons')!r}")
    return errors


def main():
    if sys.argv[1] == "spec":
        print(" ".join(f"{f}={v}" for f, _, v in cases()))
    elif sys.argv[1] == "fback":
        print(FBACK)
    elif sys.argv[1] == "check":
        errors = check(json.load(sys.stdin))
        for e in errors:
            print(e)
        sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
