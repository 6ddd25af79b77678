#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of `ip link ... type smc-dummy` (ip/iplink_smc_dummy.c), no
# kernel support needed. Each case runs twice: with the ip built from
# iproute2's source with the link_util linked in (IP_BUILT) and with the
# distribution's ip (IP_STOCK) loading the plugin link_smc-dummy.so from
# IP_LIB_DIR.
#
# testsuite/tools/iplink-fakenl.c, built as an LD_PRELOAD object, stands in
# for the kernel: ip's rtnetlink requests are recorded (and decoded to check
# the attributes parse_opt encodes) and canned RTM_NEWLINK replies are
# served (to check print_opt's text and JSON output through ip's own
# `ip -d [-j] link show`).
#
# Expected values come from Documentation/link.md and the uapi header:
# IFLA_SMC_DUMMY_MODE = 1 (u8: smc 0, smcr 1, smcd 2),
# IFLA_SMC_DUMMY_CAPTURE = 2 (u8: all 0, raw 1, cdc 2),
# IFLA_SMC_DUMMY_SNAPLEN = 3 (u32). Error texts and exit statuses are those
# of iproute2's helpers: invarg() 'Error: argument "ARG" is wrong: MSG',
# duparg() 'Error: duplicate "KEY": "ARG" is the second value.',
# incomplete_command() 'Command line is not complete. Try option "help"',
# all exit(-1), status 255; a link_util's parse_opt returning -1 makes
# ip exit with status 1 (do_cmd() negates do_iplink()'s -1).

bats_require_minimum_version 1.5.0

MODE=1
CAPTURE=2
SNAPLEN=3
USAGE='Usage: ... smc-dummy [ mode MODE ] [ capture CAPTURE ] [ snaplen BYTES ]'
INCOMPLETE='Command line is not complete. Try option "help"'

load lib

setup_file() {
	host_setup_file
	export IP_STOCK="${IP_STOCK:-/sbin/ip}"
	export PLUGIN_DIR="$TOP/ip"
	export FAKENL="$TOP/testsuite/tools/iplink-fakenl"
	export FAKENL_SO="$FAKENL.so"
	export NO_PLUGINS="$BATS_FILE_TMPDIR/no-plugins"
	local log="$BATS_FILE_TMPDIR/build.log"

	mkdir -p "$NO_PLUGINS"
	# The ip built with smc-dummy (cached after the first time).
	if [ -z "${IP_BUILT:-}" ]; then
		IP_BUILT="$TOP/build/iproute2/ip/ip"
		bash "$TOP/scripts/build-iproute2.sh" >/dev/null 2>"$log" || {
			cat "$log" >&3
			return 1
		}
	fi
	export IP_BUILT
	{ make -C "$TOP/ip" && make -C "$TOP/testsuite/tools" iplink-fakenl; } \
		>"$log" 2>&1 || {
		cat "$log" >&3
		return 1
	}
	host_need testsuite/tools iplink-fakenl.so
}

setup() {
	CANNED="$BATS_TEST_TMPDIR/canned"
	LOG="$BATS_TEST_TMPDIR/requests"
	: >"$CANNED"
	: >"$LOG"
}

# ipx {built|stock} ARG...: ip against the fake kernel
ipx() {
	local which=$1 ip libdir
	shift
	case $which in
	built)	ip=$IP_BUILT; libdir=$NO_PLUGINS ;;
	stock)	ip=$IP_STOCK; libdir=$PLUGIN_DIR ;;
	*)	echo "ipx: built or stock, not '$which'" >&2; return 2 ;;
	esac
	IP_LIB_DIR="$libdir" LD_PRELOAD="$FAKENL_SO" FAKENL_REPLY="$CANNED" \
		FAKENL_LOG="$LOG" "$ip" "$@"
}

# canned NAME INDEX [kind KIND [data ATTR...]]: one more link in the dump
canned() {
	"$FAKENL" newlink "$@" >>"$CANNED"
}

# requests: the link requests ip sent, decoded
requests() {
	"$FAKENL" decode "$LOG"
}

# parse_error STATUS MESSAGE ARG...: `ip link add smct0 type smc-dummy
# ARG...` fails with STATUS and exactly MESSAGE on stderr, prints nothing
# on stdout and sends no link request, with either ip
parse_error() {
	local want_status=$1 want=$2 which
	shift 2
	for which in built stock; do
		: >"$LOG"
		run --separate-stderr ipx "$which" link add smct0 type smc-dummy "$@"
		if [ "$status" -ne "$want_status" ] || [ "$stderr" != "$want" ] ||
		   [ -n "$output" ] || [ -n "$(requests)" ]; then
			echo "$which ip: link add smct0 type smc-dummy $*"
			echo "status $status, want $want_status"
			echo "stderr: $stderr"
			echo "want:   $want"
			echo "stdout: $output"
			echo "requests: $(requests)"
			return 1
		fi
	done
}

# sent WHICH EXPECTED ARG...: `ip ARG...` succeeds and the link requests it
# sent decode to EXPECTED
sent() {
	local which=$1 want=$2
	shift 2
	: >"$LOG"
	run --separate-stderr ipx "$which" "$@"
	if [ "$status" -ne 0 ] || [ "$(requests)" != "$want" ]; then
		echo "$which ip: $*"
		echo "status $status, stderr: $stderr"
		echo "requests:"
		requests
		echo "want:"
		echo "$want"
		return 1
	fi
}

# kind_line WHICH DEV: the line of `ip -d link show dev DEV` that starts
# with the link kind, trailing blanks removed
kind_line() {
	ipx "$1" -d link show dev "$2" |
		sed -n 's/[[:space:]]*$//; /^ *smc-dummy\( \|$\)/p'
}

# json_linkinfo WHICH DEV WANT: `ip -d -j link show` lists DEV once, with
# linkinfo equal to the JSON WANT (types included)
json_linkinfo() {
	local out
	out=$(ipx "$1" -d -j link show) || return 1
	python3 -c '
import json, sys
links = json.loads(sys.stdin.read())
dev, want = sys.argv[1], json.loads(sys.argv[2])
mine = [l for l in links if l.get("ifname") == dev]
if len(mine) != 1:
    sys.exit("%s listed %d times in %s" % (dev, len(mine), links))
got = mine[0].get("linkinfo")
if got != want or json.dumps(got, sort_keys=True) != json.dumps(want, sort_keys=True):
    sys.exit("linkinfo of %s:\n got  %s\n want %s" % (dev,
             json.dumps(got, sort_keys=True), json.dumps(want, sort_keys=True)))
' "$2" "$3" <<<"$out"
}

# --- help --------------------------------------------------------------

@test "help: ip link help smc-dummy prints the usage on stdout" {
	local which
	for which in built stock; do
		run --separate-stderr ipx "$which" link help smc-dummy
		[ "$status" -eq 0 ]
		[ -z "$stderr" ]
		[ "${lines[0]}" = "$USAGE" ]
		[[ "$output" == *$'\nMODE: smc | smcr | smcd\n'* ]]
		[[ "$output" == *$'\nCAPTURE: all | raw | cdc | llc\n'* ]]
		[[ "$output" == *$'\nBYTES: '* ]]
	done
	# the plugin prints the same help as the built-in link_util
	[ "$(ipx built link help smc-dummy)" = "$(ipx stock link help smc-dummy)" ]
}

@test "help: without the plugin the stock ip knows no smc-dummy (control)" {
	run --separate-stderr env IP_LIB_DIR="$NO_PLUGINS" LD_PRELOAD="$FAKENL_SO" \
		FAKENL_REPLY="$CANNED" "$IP_STOCK" link help smc-dummy
	# iplink.c: do_help() falls back to usage(), which exits with -1
	[ "$status" -eq 255 ]
	[ -z "$output" ]
	[[ "$stderr" == "Usage: ip link add "* ]]
	[[ "$stderr" != *"smc-dummy [ mode"* ]]
}

@test "help: 'help' among the type arguments prints the usage on stderr" {
	local which help
	help=$(ipx built link help smc-dummy)
	for which in built stock; do
		: >"$LOG"
		run --separate-stderr ipx "$which" link add smct0 type smc-dummy mode smcd help
		[ "$status" -eq 1 ]
		[ -z "$output" ]
		[ "$stderr" = "$help" ]
		[ -z "$(requests)" ]
	done
}

# --- parse errors --------------------------------------------------------

@test "parse: invalid mode" {
	local v
	for v in foo SMC smc-r smc-d all ""; do
		parse_error 255 "Error: argument \"$v\" is wrong: mode must be smc, smcr or smcd" mode "$v"
	done
}

@test "parse: invalid capture" {
	local v
	for v in data RAW cdcs smc ""; do
		parse_error 255 "Error: argument \"$v\" is wrong: capture must be all, raw, cdc or llc" capture "$v"
	done
}

@test "parse: invalid snaplen" {
	local v
	# not a number, negative, above u32, trailing garbage, empty
	for v in abc -1 -4294967295 4294967296 99999999999999999999 12k 1.5 0x ""; do
		parse_error 255 "Error: argument \"$v\" is wrong: invalid snaplen" snaplen "$v"
	done
}

@test "parse: a value after an invalid option is not reached" {
	parse_error 255 'Error: argument "bogus" is wrong: mode must be smc, smcr or smcd' \
		mode bogus capture all
}

@test "parse: option without its value" {
	parse_error 255 "$INCOMPLETE" mode
	parse_error 255 "$INCOMPLETE" capture
	parse_error 255 "$INCOMPLETE" snaplen
	parse_error 255 "$INCOMPLETE" mode smcd capture
}

@test "parse: repeated option" {
	parse_error 255 'Error: duplicate "mode": "smcd" is the second value.' mode smc mode smcd
	parse_error 255 'Error: duplicate "mode": "smc" is the second value.' mode smc capture raw mode smc
	parse_error 255 'Error: duplicate "capture": "cdc" is the second value.' capture raw capture cdc
	parse_error 255 'Error: duplicate "snaplen": "2" is the second value.' snaplen 1 snaplen 2
	parse_error 255 'Error: duplicate "snaplen": "0" is the second value.' snaplen 0 mode smcr snaplen 0
}

@test "parse: unknown option prints the usage, status 1" {
	local help v
	help=$(ipx built link help smc-dummy)
	# new iproute2 keywords take no abbreviations (strcmp, not matches())
	for v in foo mod capt snap Mode; do
		parse_error 1 "smc-dummy: unknown option \"$v\"?
$help" "$v" smc
	done
}

# --- what parse_opt sends ------------------------------------------------

@test "parse: add sends mode, capture and snaplen as u8, u8, u32" {
	local which
	for which in built stock; do
		sent "$which" "newlink create excl name smct0 kind smc-dummy
data $MODE u8 1
data $CAPTURE u8 2
data $SNAPLEN u32 256" link add smct0 type smc-dummy mode smcr capture cdc snaplen 256
	done
}

@test "parse: every mode and capture value" {
	local which
	for which in built stock; do
		sent "$which" "newlink create excl name smct0 kind smc-dummy
data $MODE u8 0
data $CAPTURE u8 0" link add smct0 type smc-dummy mode smc capture all
		sent "$which" "newlink create excl name smct0 kind smc-dummy
data $MODE u8 1
data $CAPTURE u8 1" link add smct0 type smc-dummy mode smcr capture raw
		sent "$which" "newlink create excl name smct0 kind smc-dummy
data $MODE u8 2
data $CAPTURE u8 2" link add smct0 type smc-dummy mode smcd capture cdc
	done
}

@test "parse: snaplen bounds and bases" {
	local which
	for which in built stock; do
		sent "$which" "newlink create excl name smct0 kind smc-dummy
data $SNAPLEN u32 0" link add smct0 type smc-dummy snaplen 0
		sent "$which" "newlink create excl name smct0 kind smc-dummy
data $SNAPLEN u32 4294967295" link add smct0 type smc-dummy snaplen 4294967295
		# get_u32(..., 0), as iproute2 reads numbers: hex and octal too
		sent "$which" "newlink create excl name smct0 kind smc-dummy
data $SNAPLEN u32 65535" link add smct0 type smc-dummy snaplen 0xffff
		sent "$which" "newlink create excl name smct0 kind smc-dummy
data $SNAPLEN u32 8" link add smct0 type smc-dummy snaplen 010
	done
}

@test "parse: options in any order, each sent once in the order given" {
	local which
	for which in built stock; do
		sent "$which" "newlink create excl name smct0 kind smc-dummy
data $SNAPLEN u32 5
data $MODE u8 2" link add smct0 type smc-dummy snaplen 5 mode smcd
	done
}

@test "parse: add without options sends no attributes (kernel defaults)" {
	local which
	for which in built stock; do
		sent "$which" "newlink create excl name smct0 kind smc-dummy" \
			link add smct0 type smc-dummy
	done
}

@test "parse: set sends only the options given" {
	local which
	canned smct0 7 kind smc-dummy data u8 $MODE 1 u8 $CAPTURE 2 u32 $SNAPLEN 100
	for which in built stock; do
		sent "$which" "newlink index 7 kind smc-dummy
data $CAPTURE u8 1" link set smct0 type smc-dummy capture raw
		sent "$which" "newlink index 7 kind smc-dummy
data $MODE u8 2
data $SNAPLEN u32 0" link set dev smct0 type smc-dummy mode smcd snaplen 0
	done
}

# --- print_opt: text -------------------------------------------------------

@test "show: text of every mode, capture and snaplen" {
	local which m c
	local -a modes=(smc smcr smcd) captures=(all raw cdc)
	for m in 0 1 2; do
		for c in 0 1 2; do
			: >"$CANNED"
			canned smct0 7 kind smc-dummy data u8 $MODE $m u8 $CAPTURE $c u32 $SNAPLEN $((m * 1000 + c))
			for which in built stock; do
				run kind_line "$which" smct0
				[ "$status" -eq 0 ]
				[ "$output" = "    smc-dummy mode ${modes[m]} capture ${captures[c]} snaplen $((m * 1000 + c))" ]
			done
		done
	done
}

@test "show: snaplen 0 and the u32 maximum" {
	local which
	canned smct0 7 kind smc-dummy data u8 $MODE 0 u8 $CAPTURE 0 u32 $SNAPLEN 0
	canned smct1 8 kind smc-dummy data u8 $MODE 0 u8 $CAPTURE 0 u32 $SNAPLEN 4294967295
	for which in built stock; do
		[ "$(kind_line "$which" smct0)" = "    smc-dummy mode smc capture all snaplen 0" ]
		[ "$(kind_line "$which" smct1)" = "    smc-dummy mode smc capture all snaplen 4294967295" ]
	done
}

@test "show: values unknown to ip print as unknown" {
	local which
	canned smct0 7 kind smc-dummy data u8 $MODE 3 u8 $CAPTURE 255 u32 $SNAPLEN 1
	for which in built stock; do
		[ "$(kind_line "$which" smct0)" = "    smc-dummy mode unknown capture unknown snaplen 1" ]
	done
}

@test "show: a kernel that sends no kind data" {
	local which
	canned smct0 7 kind smc-dummy
	canned smct1 8 kind smc-dummy data
	for which in built stock; do
		run --separate-stderr ipx "$which" -d link show
		[ "$status" -eq 0 ]
		[ -z "$stderr" ]
		[ "$(kind_line "$which" smct0)" = "    smc-dummy" ]
		[ "$(kind_line "$which" smct1)" = "    smc-dummy" ]
	done
}

@test "show: attributes of the wrong size or type are skipped" {
	local which
	# mode and capture as u32, snaplen as u8 or u16; attribute 4 unknown
	canned smct0 7 kind smc-dummy data u32 $MODE 2 u8 $CAPTURE 1 u8 $SNAPLEN 9
	canned smct1 8 kind smc-dummy data u8 $MODE 1 u32 $CAPTURE 1 u16 $SNAPLEN 9 u32 4 7
	canned smct2 9 kind smc-dummy data hex $MODE - hex $CAPTURE - hex $SNAPLEN 0102
	for which in built stock; do
		run --separate-stderr ipx "$which" -d link show
		[ "$status" -eq 0 ]
		[ -z "$stderr" ]
		[ "$(kind_line "$which" smct0)" = "    smc-dummy capture raw" ]
		[ "$(kind_line "$which" smct1)" = "    smc-dummy mode smcr" ]
		[ "$(kind_line "$which" smct2)" = "    smc-dummy" ]
	done
}

@test "show: some attributes only" {
	local which
	canned smct0 7 kind smc-dummy data u32 $SNAPLEN 64
	canned smct1 8 kind smc-dummy data u8 $CAPTURE 2
	for which in built stock; do
		[ "$(kind_line "$which" smct0)" = "    smc-dummy snaplen 64" ]
		[ "$(kind_line "$which" smct1)" = "    smc-dummy capture cdc" ]
	done
}

@test "show: without -d no kind line; other links untouched" {
	local which
	canned eth9 3
	canned smct0 7 kind smc-dummy data u8 $MODE 2 u8 $CAPTURE 1 u32 $SNAPLEN 128
	canned dummy0 4 kind dummy
	for which in built stock; do
		run --separate-stderr ipx "$which" link show
		[ "$status" -eq 0 ]
		[[ "$output" != *smc-dummy* ]]
		run --separate-stderr ipx "$which" -d link show
		[ "$status" -eq 0 ]
		[ -z "$stderr" ]
		# three links, one kind line with options, dummy's bare
		[ "$(grep -c '^[0-9]*: ' <<<"$output")" -eq 3 ]
		[ "$(grep -c 'mode ' <<<"$output")" -eq 1 ]
		[ "$(kind_line "$which" smct0)" = "    smc-dummy mode smcd capture raw snaplen 128" ]
	done
}

@test "show: ip monitor file replays the same text (no preload)" {
	local which ip libdir
	canned smct0 7 kind smc-dummy data u8 $MODE 1 u8 $CAPTURE 2 u32 $SNAPLEN 42
	for which in built stock; do
		if [ "$which" = built ]; then
			ip=$IP_BUILT libdir=$NO_PLUGINS
		else
			ip=$IP_STOCK libdir=$PLUGIN_DIR
		fi
		run --separate-stderr env IP_LIB_DIR="$libdir" "$ip" -d monitor file "$CANNED"
		[ "$status" -eq 0 ]
		[[ "$output" == *$'\n    smc-dummy mode smcr capture cdc snaplen 42'* ]]
	done
}

# --- print_opt: JSON -------------------------------------------------------

@test "json: linkinfo.info_data holds mode, capture (strings) and snaplen (number)" {
	local which
	canned smct0 7 kind smc-dummy data u8 $MODE 2 u8 $CAPTURE 1 u32 $SNAPLEN 128
	canned smct1 8 kind smc-dummy data u8 $MODE 0 u8 $CAPTURE 2 u32 $SNAPLEN 4294967295
	canned smct2 9 kind smc-dummy data u8 $MODE 1 u8 $CAPTURE 0 u32 $SNAPLEN 0
	canned smct3 10 kind smc-dummy data u8 $MODE 1 u8 $CAPTURE 3 u32 $SNAPLEN 0
	for which in built stock; do
		json_linkinfo "$which" smct0 '{"info_kind": "smc-dummy", "info_data": {"mode": "smcd", "capture": "raw", "snaplen": 128}}'
		json_linkinfo "$which" smct1 '{"info_kind": "smc-dummy", "info_data": {"mode": "smc", "capture": "cdc", "snaplen": 4294967295}}'
		json_linkinfo "$which" smct2 '{"info_kind": "smc-dummy", "info_data": {"mode": "smcr", "capture": "all", "snaplen": 0}}'
		json_linkinfo "$which" smct3 '{"info_kind": "smc-dummy", "info_data": {"mode": "smcr", "capture": "llc", "snaplen": 0}}'
	done
}

@test "json: no kind data, unknown values, partial data" {
	local which
	canned smct0 7 kind smc-dummy
	canned smct1 8 kind smc-dummy data u8 $MODE 7 u8 $CAPTURE 4
	canned smct2 9 kind smc-dummy data u32 $SNAPLEN 1500
	for which in built stock; do
		json_linkinfo "$which" smct0 '{"info_kind": "smc-dummy", "info_data": {}}'
		json_linkinfo "$which" smct1 '{"info_kind": "smc-dummy", "info_data": {"mode": "unknown", "capture": "unknown"}}'
		json_linkinfo "$which" smct2 '{"info_kind": "smc-dummy", "info_data": {"snaplen": 1500}}'
	done
}

@test "json: pretty output is the same JSON; show dev selects the link" {
	local which a b
	canned eth9 3
	canned smct0 7 kind smc-dummy data u8 $MODE 1 u8 $CAPTURE 1 u32 $SNAPLEN 9
	for which in built stock; do
		a=$(ipx "$which" -d -j link show dev smct0 | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin), sort_keys=True))')
		b=$(ipx "$which" -d -j -p link show dev smct0 | python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin), sort_keys=True))')
		[ "$a" = "$b" ]
		[[ "$a" == '[{'*'"ifname": "smct0"'*'"info_data": {"capture": "raw", "mode": "smcr", "snaplen": 9}'* ]]
		[[ "$a" != *eth9* ]]
	done
}

# --- the plugin ------------------------------------------------------------

@test "plugin: exports smc-dummy_link_util and nothing else" {
	run nm -D --defined-only "$PLUGIN_DIR/link_smc-dummy.so"
	[ "$status" -eq 0 ]
	[ "$(awk '$2 ~ /^[A-Z]$/ { print $3 }' <<<"$output")" = "smc-dummy_link_util" ]
}

@test "plugin: every symbol it needs is exported by the stock ip" {
	local sym missing=
	local defs
	defs=$(nm -D --defined-only "$IP_STOCK" | awk '{ print $3 }')
	for sym in $(nm -D --undefined-only "$PLUGIN_DIR/link_smc-dummy.so" |
		     awk '$1 == "U" && $2 !~ /@/ { print $2 }'); do
		grep -qxF "$sym" <<<"$defs" || missing+=" $sym"
	done
	[ -z "$missing" ] || { echo "not in $IP_STOCK:$missing"; return 1; }
}

@test "plugin: loads into the stock ip, which then parses and prints" {
	# the help above, the parse and show tests run with it too; here the
	# stock ip without and with IP_LIB_DIR side by side
	canned smct0 7 kind smc-dummy data u8 $MODE 2 u8 $CAPTURE 1 u32 $SNAPLEN 128
	run env IP_LIB_DIR="$NO_PLUGINS" LD_PRELOAD="$FAKENL_SO" FAKENL_REPLY="$CANNED" \
		"$IP_STOCK" -d link show dev smct0
	[ "$status" -eq 0 ]
	[[ "$output" == *$'\n    smc-dummy'* ]]
	[[ "$output" != *"mode smcd"* ]]
	run kind_line stock smct0
	[ "$output" = "    smc-dummy mode smcd capture raw snaplen 128" ]
}

@test "plugin: make install puts it where Debian's ip looks, honouring DESTDIR and PREFIX" {
	local ma root=$BATS_TEST_TMPDIR/root
	ma=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
	# the directory compiled into the stock ip (iproute2's LIBDIR "/ip")
	strings "$IP_STOCK" | grep -qxF "/usr/lib/$ma/ip"
	make -s -C "$TOP/ip" install DESTDIR="$root"
	[ -f "$root/usr/lib/$ma/ip/link_smc-dummy.so" ]
	[ -f "$root/usr/share/man/man8/ip-link-smc-dummy.8" ]
	cmp "$PLUGIN_DIR/link_smc-dummy.so" "$root/usr/lib/$ma/ip/link_smc-dummy.so"
	run env IP_LIB_DIR="$root/usr/lib/$ma/ip" "$IP_STOCK" link help smc-dummy
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$USAGE" ]
	make -s -C "$TOP/ip" install DESTDIR="$root" PREFIX=/usr/local
	[ -f "$root/usr/local/lib/$ma/ip/link_smc-dummy.so" ]
	[ -f "$root/usr/local/share/man/man8/ip-link-smc-dummy.8" ]
}

@test "plugin: the built ip has the link_util built in" {
	nm -D --defined-only "$IP_BUILT" | awk '{ print $3 }' | grep -qxF smc-dummy_link_util
	# with no plugin anywhere it still knows the kind
	run env IP_LIB_DIR="$NO_PLUGINS" "$IP_BUILT" link help smc-dummy
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$USAGE" ]
}

# --- man pages -------------------------------------------------------------

# render PAGE: groff's and man's warnings for PAGE (none expected)
render_warnings() {
	groff -ww -man -Tutf8 -z "$1" 2>&1
	LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings \
		--encoding=UTF-8 --local-file --troff-device=utf8 --ditroff "$1" 2>&1 >/dev/null
}

@test "man: ip-link-smc-dummy.8 renders without warnings" {
	run render_warnings "$TOP/man/man8/ip-link-smc-dummy.8"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	run env MANWIDTH=80 man -l "$TOP/man/man8/ip-link-smc-dummy.8"
	[[ "$output" == *"mode { smc | smcr | smcd }"* ]]
	[[ "$output" == *"capture { all | raw | cdc | llc }"* ]]
	[[ "$output" == *"snaplen BYTES"* ]]
}

@test "man: the ip-link.8.in hunk applies to Debian's iproute2 and renders without warnings" {
	local src=$BATS_TEST_TMPDIR/src dsc
	dsc=$(ls "$TOP"/build/iproute2-deb/*/iproute2_*.dsc 2>/dev/null | head -n 1)
	# fetched by scripts/build-iproute2.sh unless IPROUTE2_SRC was used
	[ -n "$dsc" ] || skip "no Debian iproute2 source in build/iproute2-deb"
	dpkg-source --no-copy -x "$dsc" "$src" >/dev/null 2>&1
	run patch --dry-run -p1 -d "$src" <"$TOP/man/iproute2-ip-link.8.in.patch"
	[ "$status" -eq 0 ]
	[[ "$output" != *"offset"* && "$output" != *"fuzz"* ]]
	patch -s -p1 -d "$src" <"$TOP/man/iproute2-ip-link.8.in.patch"
	sed -e 's|@SYSCONFDIR@|/etc/iproute2|g' "$src/man/man8/ip-link.8.in" >"$BATS_TEST_TMPDIR/ip-link.8"
	run render_warnings "$BATS_TEST_TMPDIR/ip-link.8"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	run env MANWIDTH=200 man -l "$BATS_TEST_TMPDIR/ip-link.8"
	[[ "$output" == *"| sit | smc-dummy | vcan |"* ]]
	[[ "$output" == *"SMC-DUMMY Type Support"* ]]
	[[ "$output" == *"ip link add DEVICE type smc-dummy [ mode { smc | smcr | smcd } ] [ capture { all | raw | cdc | llc } ] [ snaplen BYTES ]"* ]]
}

# --- the VM tests, dry run ---------------------------------------------------

@test "vm/iplink.bats passes against a stateful fake of the links (dry run)" {
	# Not a kernel test: it proves the VM tests and their helpers work,
	# so that a failure in the VM is the kernel's or the tools'.
	# a clean environment, and bats itself, not its libexec helper
	run env -i PATH="/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin" \
		HOME="${HOME:-/nonexistent}" SMC_DUMP_IN_VM=1 \
		IP_BUILT="$IP_BUILT" IP_STOCK="$IP_STOCK" \
		LD_PRELOAD="$FAKENL_SO" FAKENL_STATE="$BATS_TEST_TMPDIR/links" \
		"$BATS_ROOT/bin/bats" --print-output-on-failure \
		"$TOP/testsuite/vm/iplink.bats"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" == "1.."* ]]
	[[ "$output" != *"not ok"* ]]
	# only the test of the kernel's own checks may skip here
	[ "$(grep -c '# skip' <<<"$output")" -eq "$(grep -c "# skip needs the kernel's own checks" <<<"$output")" ]
	[ "$(grep -c '# skip' <<<"$output")" -le 1 ]
}
