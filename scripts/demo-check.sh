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
#
# Prints what it compared; exit status 1, with the reason on stderr, when
# the claim does not hold, 2 on a usage error.
set -euo pipefail
usage() { echo "usage: demo-check.sh smcd BEFORE.json AFTER.json CONNS BYTES | streams SENT DIR" >&2; exit 2; }
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

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
smcd)		smcd "$@" ;;
streams)	streams "$@" ;;
*)		usage ;;
esac
