#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# smc dump analyze and smc dump graph on captures of the patched kernel:
# an SMC-D loopback transfer whose receiver sleeps after every
# read (smc-traffic --read-pause, each pause logged with its wall-clock
# times) and the same transfer without pauses. The slow reader's sender
# must be window-limited far longer than the fast one's, the stalls analyze
# names must lie in the reader's pauses, and graph must draw the slow one
# as a valid PNG with every series. The expectations come from the pause
# log and the traffic tool, not from our decoder. A few seconds of traffic:
# the guest is software-emulated.
#
# SMC_DUMP_ARTIFACTS=DIR (e.g. /run/shared of run-vm --share) keeps the
# slow reader's capture, analysis and PNG there.

load lib

# the bytes each way, the reader's pause (ms): long against what an
# emulated guest's fast reader waits on a busy host (0.5 s in all seen)
BYTES=512K
PAUSE_MS=400

setup_file() {
	vm_setup_ueid
}

setup() {
	vm_only
	SPID=
}

teardown() {
	vm_teardown "$SPID" "${CAP_PID:-}"
}

# client_token JSON PORT: the token of the client's end in smc dump
# analyze's JSON, the server on PORT: an entry's own end, or its peer
client_token() {
	jq -r --argjson p "$2" '.[0].connections[] |
		if .peer_port == $p then .token
		elif .peer and .local_port == $p then .peer.token
		else empty end' "$1"
}

# xfer NAME [SERVER OPTIONS...]: BYTES each way over SMC-D loopback on one
# connection, captured on smcd0 into $d/NAME.pcap; the server's output in
# $d/NAME.srv, its port in $d/NAME.port
xfer() {
	local name=$1 d=$BATS_TEST_TMPDIR port
	shift
	capture_start smcd0 "$d/$name.pcap"
	"$TRAFFIC" server -a 127.0.0.1 -p 0 -n $BYTES --no-verify "$@" \
		>"$d/$name.srv" &
	SPID=$!
	WAIT_TIMEOUT=10 wait_line "$d/$name.srv" '^listening [0-9]+' || return 1
	port=$(awk '/^listening/ { print $2 }' "$d/$name.srv")
	echo "$port" >"$d/$name.port"
	"$TRAFFIC" client -a 127.0.0.1 -p "$port" -n $BYTES --no-verify \
		>"$d/$name.cli" || return 1
	wait "$SPID" || return 1
	SPID=
	cat "$d/$name.srv" "$d/$name.cli"
	grep -qx 'result ok' "$d/$name.srv"
	capture_stop
}

@test "analyze and graph: a slow reader's window-limited time and stalls line up with its pauses" {
	local d=$BATS_TEST_TMPDIR
	"$NL" add smcd0
	ip link set smcd0 up
	xfer fast
	xfer slow --read-pause $PAUSE_MS --pause-log "$d/pauses"
	cat "$d/pauses"
	"$SMC" -j dump analyze "$d/fast.pcap" >"$d/fast.json"
	"$SMC" -j dump analyze "$d/slow.pcap" >"$d/slow.json"
	"$SMC" dump analyze "$d/slow.pcap"
	# the client's end (its peer port the server's): its tx is the
	# direction the server reads; the token names it for graph. Both
	# ends are in the capture: one entry, headed by the end whose record
	# came first, the other as its peer
	tok=$(client_token "$d/slow.json" "$(cat "$d/slow.port")")
	[ -n "$tok" ]
	"$SMC" -j dump graph token "$tok" tx write "$d/slow.png" "$d/slow.pcap" \
		>"$d/graph.json"
	"$SMC" -j dump graph token "$tok" tx write "$d/slow.svg" "$d/slow.pcap" \
		>"$d/graph-svg.json"
	cat "$d/graph.json"
	if [ -n "${SMC_DUMP_ARTIFACTS:-}" ]; then
		cp "$d"/slow*.png "$d"/slow*.svg "$d/slow.pcap" "$d/slow.json" \
			"$d/fast.json" "$d/pauses" "$SMC_DUMP_ARTIFACTS/"
		"$SMC" dump graph token "$(client_token "$d/fast.json" \
			"$(cat "$d/fast.port")")" tx write "$SMC_DUMP_ARTIFACTS/fast.png" "$d/fast.pcap"
	fi
	python3 - "$d" "$(cat "$d/slow.port")" "$(cat "$d/fast.port")" $PAUSE_MS "$tok" <<'PY'
import json, struct, sys, zlib
d, sport, fport, pause_ms = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
tok = sys.argv[5]

def conn_tx(name, port):
    # every end: an entry's own, and its peer's (whose peer port is the
    # entry's local port)
    a, = json.load(open(f"{d}/{name}.json"))
    ends = []
    for c in a["connections"]:
        ends.append((c["peer_port"], c["tx"]))
        if "peer" in c:
            ends.append((c["local_port"], c["peer"]["tx"]))
    c = [tx for p, tx in ends if p == port]
    assert len(c) == 1, (name, [p for p, tx in ends])
    return c[0]

def first_ts(path):
    # pcap (tcpdump -w: microseconds, or nanoseconds by its magic)
    b = open(path, "rb").read(40)
    magic = struct.unpack("<I", b[:4])[0]
    assert magic in (0xA1B2C3D4, 0xA1B23C4D), hex(magic)
    sec, frac = struct.unpack("<II", b[24:32])
    return sec + frac / (1e6 if magic == 0xA1B2C3D4 else 1e9)

slow, fast = conn_tx("slow", sport), conn_tx("fast", fport)
pauses = []
for line in open(f"{d}/pauses"):
    w = line.split()
    assert w[0] == "pause" and w[1] == "0", line
    pauses.append((float(w[3]), float(w[4])))
total = sum(e - s for s, e in pauses)
print(f"pauses {len(pauses)} total {total:.3f} s")
for k in ("window_limited_ns", "window_closed_ns", "buffer", "buffer_from",
          "data", "bytes"):
    print(k, "slow", slow[k], "fast", fast[k])
# every byte of the direction is in the capture
assert slow["bytes"] == fast["bytes"] == 512 * 1024
# at least one pause per DMB's worth (the buffer analyze found)
assert slow["buffer"] and len(pauses) >= 512 * 1024 // slow["buffer"] - 1
# window-limited: most of the pauses, and far above the fast reader
wl_slow, wl_fast = slow["window_limited_ns"] / 1e9, fast["window_limited_ns"] / 1e9
assert wl_slow >= 0.5 * total, (wl_slow, total)
assert wl_slow >= 3 * wl_fast, (wl_slow, wl_fast)
# the stalls analyze names line up with the reader's pauses: the sender
# fills the buffer while the reader sleeps and goes on once the reader,
# awake, announced what it consumed. Each of the 5 longest stalls lies
# mostly (at least half of it) in one pause, a pause of its own, and ends
# after that pause ended, soon (emulated guest: 150 ms)
t0 = first_ts(f"{d}/slow.pcap")
print("pauses from the first frame:",
      [(round(ps - t0, 3), round(pe - t0, 3)) for ps, pe in pauses])
assert len(slow["stalls"]) == 5, slow["stalls"]
used = set()
for st in slow["stalls"]:
    s = t0 + st["start_ns"] / 1e9
    e = s + st["duration_ns"] / 1e9
    ov = [max(0, min(e, pe) - max(s, ps)) for ps, pe in pauses]
    k = max(range(len(pauses)), key=lambda i: ov[i])
    ps, pe = pauses[k]
    print(f"stall {s - t0:.3f}+{e - s:.3f} frames {st['start_frame']}-{st['end_frame']}",
          f"pause {k} {ps - t0:.3f}-{pe - t0:.3f} overlap {ov[k]:.3f}")
    assert ov[k] >= 0.5 * (e - s), "stall mostly outside the pauses"
    assert pe - 0.005 <= e <= pe + 0.150, "stall ends away from the pause's end"
    assert k not in used, "two stalls in one pause"
    used.add(k)
    assert e - s >= 0.5 * pause_ms / 1000, "stall much shorter than a pause"

# the PNG: signature, IHDR 1200x800, every chunk's CRC, IDAT inflates to
# height rows of 1 + 4 * width bytes (8-bit RGBA: color type 6), IEND
# graph token T tx draws the tx of both ends: the client's is its own file
g = [x for x in json.load(open(f"{d}/graph.json")) if x["token"] == tok]
assert len(g) == 1, g
g = g[0]
b = open(g["file"], "rb").read()
assert b[:8] == b"\x89PNG\r\n\x1a\n"
off, chunks, idat = 8, [], b""
while off < len(b):
    n, = struct.unpack(">I", b[off:off + 4])
    typ, body = b[off + 4:off + 8], b[off + 8:off + 8 + n]
    crc, = struct.unpack(">I", b[off + 8 + n:off + 12 + n])
    assert zlib.crc32(typ + body) == crc, typ
    chunks.append(typ)
    if typ == b"IDAT":
        idat += body
    off += 12 + n
assert chunks[0] == b"IHDR" and chunks[-1] == b"IEND", chunks
w, h, depth, ctype = struct.unpack(">IIBB", b[16:26])
assert (w, h) == (1200, 800), (w, h)
bpp = {6: 4, 2: 3}[ctype]
assert depth == 8 and len(zlib.decompress(idat)) == h * (1 + bpp * w)

# the series graph drew: every data record, the sender's producer cursors,
# the receiver's consumer cursors and as many limits (buffer known)
print(g)
assert (g["width"], g["height"]) == (1200, 800)
s = g["series"]
assert s["data"] == slow["data"] and s["producer"] == slow["cdc"], (s, slow)
assert s["consumer"] > 0 and s["limit"] == s["consumer"], s
# the SVG has the same series and is well formed XML
import xml.etree.ElementTree as ET
gs, = [x for x in json.load(open(f"{d}/graph-svg.json")) if x["token"] == tok]
assert gs["series"] == s, gs
assert ET.parse(gs["file"]).getroot().tag == "{http://www.w3.org/2000/svg}svg"
print("ok")
PY
}
