#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# `ip link` on smc-dummy links of the patched kernel, with both
# ips: the one built from iproute2's source with the link_util linked in
# (IP_BUILT, scripts/build-iproute2.sh) and the distribution's /sbin/ip
# loading the plugin link_smc-dummy.so from IP_LIB_DIR=$TOP/ip (make tools)
# or from SMC_DUMP_IP_LIB_DIR (the stock-kernel tier: the .deb's).
# Links made with one ip are read back, changed and deleted with both; the
# values read back, in text and JSON, must equal the values set.
#
# Expected values from design.md sections 3 and 5: a new link records mode
# smc, capture all, snaplen 0 unless told otherwise; changelink changes the
# options given in place; several links keep their own options.

load lib

bats_require_minimum_version 1.5.0

IP_STOCK=${IP_STOCK:-/sbin/ip}
PLUGIN_DIR=${SMC_DUMP_IP_LIB_DIR:-$TOP/ip}
NO_PLUGINS=/nonexistent/smc-dump-no-plugins

setup_file() {
	[ -n "${SMC_DUMP_IN_VM:-}" ] || return 0
	[ -x "$IP_BUILT" ] || {
		echo "no built ip at $IP_BUILT (make iproute2)" >&3
		return 1
	}
	[ -f "$PLUGIN_DIR/link_smc-dummy.so" ] || {
		echo "no plugin at $PLUGIN_DIR/link_smc-dummy.so (make tools)" >&3
		return 1
	}
}

setup() {
	vm_only
}

teardown() {
	[ -n "${SMC_DUMP_IN_VM:-}" ] || return 0
	local l
	for l in $("$IP_STOCK" -o link show type smc-dummy 2>/dev/null |
		   awk -F': ' '{ print $2 }'); do
		"$IP_STOCK" link del "${l%@*}"
	done
}

# ipv {built|stock} ARG...: one of the two ips
ipv() {
	local which=$1
	shift
	case $which in
	built)	IP_LIB_DIR=$NO_PLUGINS "$IP_BUILT" "$@" ;;
	stock)	IP_LIB_DIR=$PLUGIN_DIR "$IP_STOCK" "$@" ;;
	*)	echo "ipv: built or stock, not '$which'" >&2; return 2 ;;
	esac
}

# json_values WHICH DEV: "mode M capture C snaplen S" from `ip -d -j link
# show dev DEV`; fails unless DEV is listed once, of kind smc-dummy, with
# exactly these three in info_data, strings, strings and a number
json_values() {
	local out
	out=$(ipv "$1" -d -j link show dev "$2") || return 1
	# jq, not python3: this runs 4 times a check, and python3's start-up
	# costs seconds in the debug guest
	jq -er 'if length != 1 then "\(length) links listed: \(.)\n" | halt_error(1)
		else .[0].linkinfo as $li | $li.info_data as $d |
		if $li.info_kind != "smc-dummy" or ($d | type) != "object" or
		   ($d | keys) != ["capture", "mode", "snaplen"] or
		   ($d.mode | type) != "string" or ($d.capture | type) != "string" or
		   ($d.snaplen | type) != "number" or $d.snaplen != ($d.snaplen | floor)
		then "unexpected linkinfo: \($li)\n" | halt_error(1)
		else "mode \($d.mode) capture \($d.capture) snaplen \($d.snaplen)" end end' <<<"$out"
}

# text_values WHICH DEV: the same from the text of `ip -d link show dev DEV`
text_values() {
	local out
	out=$(ipv "$1" -d link show dev "$2") || return 1
	# the kind line: "    smc-dummy mode M capture C snaplen S addrgenmode ..."
	sed -n 's/^ *smc-dummy \(mode [^ ]* capture [^ ]* snaplen [^ ]*\)\( .*\)\{0,1\}$/\1/p' <<<"$out"
}

# check_values DEV WANT: both ips read WANT back, in text and in JSON
check_values() {
	local which got
	for which in built stock; do
		got=$(json_values "$which" "$1") || { echo "$which ip -j: $got"; return 1; }
		[ "$got" = "$2" ] || {
			echo "$which ip -d -j link show dev $1: '$got', want '$2'"
			return 1
		}
		got=$(text_values "$which" "$1")
		[ "$got" = "$2" ] || {
			echo "$which ip -d link show dev $1: '$got', want '$2'"
			ipv "$which" -d link show dev "$1"
			return 1
		}
	done
}

# gone WHICH DEV: DEV does not exist, as ip says
gone() {
	run --separate-stderr ipv "$1" link show dev "$2"
	[ "$status" -eq 1 ] && [ "$stderr" = "Device \"$2\" does not exist." ] || {
		echo "$1 ip link show dev $2: status $status, stderr '$stderr'"
		return 1
	}
}

@test "add without options: mode smc capture all snaplen 0, delete" {
	local which other
	for which in built stock; do
		[ $which = built ] && other=stock || other=built
		ipv $which link add smct0 type smc-dummy
		check_values smct0 "mode smc capture all snaplen 0"
		ipv $other link del smct0
		gone built smct0
		gone stock smct0
	done
}

@test "add with options: every mode and capture, snaplen values, read back by both" {
	local which m c pair=0 s
	local -a snaplens=(0 1 128 1500 65535)
	# the nine pairs added in turn by the built ip and the stock one: each
	# parses every mode and every capture at least once (built: smc all,
	# smc cdc, smcr raw, smcd all, smcd cdc; stock: the other four), and
	# both read back every pair (each ip costs a second in the debug guest)
	for m in smc smcr smcd; do
		for c in all raw cdc; do
			s=${snaplens[pair % ${#snaplens[@]}]}
			which=built
			[ $((pair % 2)) = 0 ] || which=stock
			pair=$((pair + 1))
			ipv $which link add smct0 type smc-dummy mode $m capture $c snaplen $s
			check_values smct0 "mode $m capture $c snaplen $s"
			ipv $which link del smct0
			gone $which smct0
		done
	done
	[ "$pair" -eq 9 ]
}

@test "add: options in any order, hex snaplen" {
	ipv built link add smct0 type smc-dummy snaplen 0x400 capture raw mode smcr
	check_values smct0 "mode smcr capture raw snaplen 1024"
	ipv stock link add smct1 type smc-dummy capture cdc snaplen 0x10 mode smcd
	check_values smct1 "mode smcd capture cdc snaplen 16"
}

@test "set changes the options given and keeps the others" {
	ipv built link add smct0 type smc-dummy mode smcr capture cdc snaplen 100
	check_values smct0 "mode smcr capture cdc snaplen 100"
	ipv stock link set smct0 type smc-dummy mode smcd
	check_values smct0 "mode smcd capture cdc snaplen 100"
	ipv built link set smct0 type smc-dummy capture raw
	check_values smct0 "mode smcd capture raw snaplen 100"
	ipv stock link set dev smct0 type smc-dummy snaplen 0
	check_values smct0 "mode smcd capture raw snaplen 0"
	ipv built link set dev smct0 type smc-dummy snaplen 65535 mode smc capture all
	check_values smct0 "mode smc capture all snaplen 65535"
	ipv stock link set smct0 type smc-dummy mode smcr capture cdc snaplen 9
	check_values smct0 "mode smcr capture cdc snaplen 9"
	# no options: nothing changes
	ipv built link set smct0 type smc-dummy
	ipv stock link set smct0 type smc-dummy
	check_values smct0 "mode smcr capture cdc snaplen 9"
}

@test "set: a value ip refuses changes nothing" {
	local which
	ipv stock link add smct0 type smc-dummy mode smcd capture raw snaplen 64
	for which in built stock; do
		run ipv $which link set smct0 type smc-dummy mode smcd snaplen -1
		[ "$status" -eq 255 ]
		run ipv $which link set smct0 type smc-dummy capture raw capture cdc
		[ "$status" -eq 255 ]
		run ipv $which link set smct0 type smc-dummy mode bogus
		[ "$status" -eq 255 ]
	done
	check_values smct0 "mode smcd capture raw snaplen 64"
	run ipv built link add smct1 type smc-dummy capture everything
	[ "$status" -eq 255 ]
	gone built smct1
}

@test "a snaplen the kernel refuses: ip shows its extack message, nothing changes" {
	# the host's dry run fakes the links, not the kernel's checks
	[ -z "${FAKENL_STATE:-}" ] || skip "needs the kernel's own checks"
	local which
	ipv built link add smct0 type smc-dummy snaplen 64
	# ip leaves the range to the kernel, whose nla_policy refuses values
	# above SMC_DUMMY_SNAPLEN_MAX (65535) with -ERANGE and its standard
	# extack message (lib/nlattr.c), which ip prints as "Error: MSG."
	for which in built stock; do
		run ipv $which link set smct0 type smc-dummy snaplen 65536
		[ "$status" -eq 2 ]
		[ "$output" = "Error: integer out of range." ]
		run ipv $which link add smct1 type smc-dummy snaplen 4294967295
		[ "$status" -eq 2 ]
		[ "$output" = "Error: integer out of range." ]
		gone $which smct1
	done
	check_values smct0 "mode smc capture all snaplen 64"
}

@test "several links keep their own options" {
	local out
	ipv built link add smct0 type smc-dummy mode smcr capture raw snaplen 1
	ipv stock link add smct1 type smc-dummy mode smcd capture cdc snaplen 2
	ipv built link add smct2 type smc-dummy
	check_values smct0 "mode smcr capture raw snaplen 1"
	check_values smct1 "mode smcd capture cdc snaplen 2"
	check_values smct2 "mode smc capture all snaplen 0"
	# the list of all smc-dummy links shows each with its own
	out=$(ipv stock -d -j link show type smc-dummy)
	python3 -c '
import json, sys
got = {l["ifname"]: l["linkinfo"]["info_data"] for l in json.loads(sys.stdin.read())}
want = {"smct0": {"mode": "smcr", "capture": "raw", "snaplen": 1},
        "smct1": {"mode": "smcd", "capture": "cdc", "snaplen": 2},
        "smct2": {"mode": "smc", "capture": "all", "snaplen": 0}}
if got != want:
    sys.exit("got %s\nwant %s" % (got, want))
' <<<"$out"
	ipv stock link set smct1 type smc-dummy snaplen 3
	ipv built link del smct0
	gone stock smct0
	check_values smct1 "mode smcd capture cdc snaplen 3"
	check_values smct2 "mode smc capture all snaplen 0"
}

@test "without the plugin the stock ip shows the kind but not its options (control)" {
	local out
	ipv built link add smct0 type smc-dummy mode smcd capture cdc snaplen 5
	out=$(IP_LIB_DIR=$NO_PLUGINS "$IP_STOCK" -d link show dev smct0)
	[[ "$out" == *$'\n    smc-dummy '* ]]
	[[ "$out" != *"mode smcd"* ]]
	out=$(IP_LIB_DIR=$NO_PLUGINS "$IP_STOCK" -d -j link show dev smct0)
	python3 -c '
import json, sys
li = json.loads(sys.stdin.read())[0]["linkinfo"]
if li != {"info_kind": "smc-dummy"}:
    sys.exit("linkinfo %s" % li)
' <<<"$out"
	# and with it, it does
	check_values smct0 "mode smcd capture cdc snaplen 5"
}
