#!/bin/bash
# The two claims make demo proves (scripts/demo-guest.sh runs this; the
# host tests run it on made-up inputs, to see it fail):
#
#   demo-check.sh smcd BEFORE.json AFTER.json CONNS BYTES
#       `smc -j stats` before and after the traffic: SMC-D v2 carried it,
#       CONNS connections as client and CONNS as server, BYTES sent and
#       BYTES received over SMC-D (both ends summed), none over SMC-R
#   demo-check.sh streams SENT DIR
#       SENT has the SHA-256 of each stream the traffic tool sent, one a
#       line; DIR holds what `smc dump follow` reassembled from a capture.
#       Each stream sent is there byte for byte, and nothing else is (both
#       ends record a stream: the same sum twice)
#   demo-check.sh conns STATS.json CONNS BYTES
#       `smc -j dump stats` of a capture of CONNS connections with both
#       ends in it: CONNS entries, each one connection with its peer end,
#       each of its two directions BYTES as the sender sent them and as
#       the receiver received them, no record lost
#
# Prints what it compared; exit status 1, with the reason on stderr, when
# the claim does not hold, 2 on a usage error.
set -euo pipefail
usage() { echo "usage: demo-check.sh smcd BEFORE.json AFTER.json CONNS BYTES | streams SENT DIR | conns STATS.json CONNS BYTES" >&2; exit 2; }
fail() { echo "demo-check: $*" >&2; exit 1; }

smcd() {
	[ $# -eq 4 ] || usage
	local before=$1 after=$2 conns=$3 bytes=$4 k b a d bad=
	for k in smcd.client.v2_success smcd.server.v2_success smcd.tx_bytes smcd.rx_bytes \
		smcr.connections; do
		b=$(jq -er ".[0].$k" "$before") || fail "no $k in $before"
		a=$(jq -er ".[0].$k" "$after") || fail "no $k in $after"
		d=$((a - b))
		printf '  %-24s +%s\n' "$k" "$d"
		case $k in
		smcd.*_success)	[ "$d" -eq "$conns" ] || bad+=" $k +$d (not +$conns)" ;;
		smcd.*_bytes)	[ "$d" -eq "$bytes" ] || bad+=" $k +$d (not +$bytes)" ;;
		smcr.*)		[ "$d" -eq 0 ] || bad+=" $k +$d" ;;
		esac
	done
	[ -z "$bad" ] || fail "the counters do not show the traffic on SMC-D:$bad"
	echo "SMC-D v2 carried the $conns connections: $bytes bytes sent and received, none on SMC-R"
}

streams() {
	[ $# -eq 2 ] || usage
	local sent got missing=0 extra=0 s
	[ -d "$2" ] || fail "no directory $2"
	sent=$(sort -u "$1")
	[ -n "$sent" ] || fail "$1 names no stream sent"
	got=$(cd "$2" && find . -maxdepth 1 -type f -print0 | xargs -0 -r sha256sum | awk '{ print $1 }' | sort -u)
	echo "  SHA-256 of the streams sent:"
	for s in $sent; do echo "    $s"; done
	echo "  SHA-256 of the streams reassembled from the capture:"
	for s in ${got:-(none)}; do echo "    $s"; done
	for s in $sent; do
		grep -qx "$s" <<<"$got" || missing=$((missing + 1))
	done
	for s in $got; do
		grep -qx "$s" <<<"$sent" || extra=$((extra + 1))
	done
	[ $((missing + extra)) = 0 ] ||
		fail "$missing stream(s) sent are not in the capture whole, $extra stream(s) in it were not sent"
	echo "every byte sent was captured: the $(wc -l <<<"$sent") reassembled streams equal what was sent"
}

conns() {
	[ $# -eq 3 ] || usage
	local f=$1 conns=$2 bytes=$3 n bad
	# numbers, else jq --argjson and [ -eq ] fail with their own words
	[[ $conns =~ ^[1-9][0-9]{0,8}$ && $bytes =~ ^[0-9]{1,15}$ ]] || {
		echo "demo-check: CONNS must be a count from 1, BYTES a byte count: '$conns' '$bytes'" >&2
		usage
	}
	# the shape read below, checked first: a jq error (exit 5) is
	# neither a pass nor a reason
	jq -en 'input | type == "array" and length > 0 and (.[0] | type == "object") and
		(.[0].connections | type == "array") and
		all(.[0].connections[]; type == "object") and
		(.[0].total.lost | type == "number")' "$f" >/dev/null 2>&1 ||
		fail "$f is not the JSON of smc -j dump stats (an array whose first object has an array connections of objects and a number total.lost)"
	n=$(jq '.[0].connections | length' "$f")
	# per entry: its ends' tokens, then each stream's bytes and records lost
	jq -r '.[0].connections[] | "  conn \(.conn) \(.local_address):\(.local_port) <-> \(.peer_address):\(.peer_port) tokens \(.token) \(.peer.token? // "(no peer end)"):" +
		([["tx", .tx], ["peer-rx", .peer.rx?], ["rx", .rx], ["peer-tx", .peer.tx?]] |
		 map(" \(.[0]) \(.[1].bytes? // "-") bytes \(.[1].lost_records? // 0) lost") | join(","))' "$f" ||
		fail "cannot list the connections of $f"
	bad=$(jq -r --argjson b "$bytes" '[.[0].connections[] |
		select((.peer | type != "object") or
		       ([.tx, .peer.rx, .rx, .peer.tx] |
			any(type != "object" or .bytes != $b or (.lost_records // 0) != 0)))] |
		length' "$f") || fail "cannot read the directions of $f"
	[ "$n" -eq "$conns" ] || fail "$n connections listed, not $conns"
	[ "$bad" -eq 0 ] ||
		fail "$bad connection(s) without both ends, or a direction not $bytes bytes each way at both ends, or records lost"
	[ "$(jq '.[0].total.lost' "$f")" -eq 0 ] || fail "records lost in total"
	echo "the $conns connections are listed once each, with both ends: $bytes bytes each way as sent and as received, no record lost"
}
cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
smcd)		smcd "$@" ;;
streams)	streams "$@" ;;
conns)		conns "$@" ;;
*)		usage ;;
esac
