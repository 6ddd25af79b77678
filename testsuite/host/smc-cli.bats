#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of the smc command: options, help, dispatch, EID rules, errors
# on a kernel without SMC, and (with helpers/fake_genl.c linked in place of
# lib/genl.c, as the host has no SMC) the ueid and stats requests and their
# text and JSON output. The JSON writer is also driven directly through
# helpers/json_driver.c. Neither helper is shipped.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_fake || return 1
	export JSON_DRIVER="$H/json_driver"
	host_need testsuite/host/helpers json_driver
}

setup() {
	# state of the fake kernel: a fresh UEID table and request log per test
	export SMC_FAKE_TABLE="$BATS_TEST_TMPDIR/ueid-table"
	export SMC_FAKE_LOG="$BATS_TEST_TMPDIR/requests"
	# no reset state of the user's (smc stats reset) may show here
	export SMC_STATS_DIR="$BATS_TEST_TMPDIR"
	unset SMC_FAKE_UNPRIV SMC_FAKE_ERR SMC_FAKE_EXTACK SMC_FAKE_STATS \
		SMC_FAKE_FBACK
}

host_has_smc() {
	[ -d /sys/module/smc ]
}

# ---------------------------------------------------------------- build

# ------------------------------------------------- options and help

@test "-V, -Version and --version print the version" {
	local opt
	for opt in -V -Version --version -Vers; do
		run -0 --separate-stderr "$SMC" "$opt"
		[ "$output" = "smc utility, smc-dump 0.1" ]
		[ -z "$stderr" ]
	done
}

@test "-h, -help, --help and help print the usage on stdout" {
	local args
	for args in -h -help --help help "-j help"; do
		# shellcheck disable=SC2086
		run -0 --separate-stderr "$SMC" $args
		[ "${lines[0]}" = "Usage: smc [ OPTIONS ] OBJECT { COMMAND | help }" ]
		[[ "$output" == *"OBJECT := { ueid | stats | socket | dump | info | device |"*"linkgroup | pnet | run | check |"*"rnics | dbg }"* ]]
		[[ "$output" == *"-j[son]"* ]]
		[[ "$output" == *"-p[retty]"* ]]
		[[ "$output" == *"-d[etails]"* ]]
		[[ "$output" == *"-V[ersion]"* ]]
		[ -z "$stderr" ]
	done
}

@test "no object: usage on stderr, exit 2" {
	run -2 --separate-stderr "$SMC"
	[ -z "$output" ]
	[[ "$stderr" == "Usage: smc [ OPTIONS ] OBJECT"* ]]
	run -2 --separate-stderr "$SMC" -j
	[ -z "$output" ]
}

@test "unknown object: iproute2 message, exit 2" {
	run -2 --separate-stderr "$SMC" foo
	[ -z "$output" ]
	[ "$stderr" = 'Object "foo" is unknown, try "smc help".' ]
	run -2 --separate-stderr "$SMC" -j ueidx show
	[ "$stderr" = 'Object "ueidx" is unknown, try "smc help".' ]
	run -2 --separate-stderr "$SMC" help bar
	[ "$stderr" = 'Object "bar" is unknown, try "smc help".' ]
}

@test "unknown or ambiguous option: exit 2" {
	run -2 --separate-stderr "$SMC" -q stats
	[ "$stderr" = 'Option "-q" is unknown, try "smc -help".' ]
	run -2 --separate-stderr "$SMC" --frobnicate stats
	[ "$stderr" = 'Option "--frobnicate" is unknown, try "smc -help".' ]
	# -he could be -help or -hex
	run -2 --separate-stderr "$SMC" -he
	[ "$stderr" = 'Option "-he" is ambiguous, try "smc -help".' ]
}

@test "ueid help: usage on stdout, in all spellings" {
	local args
	for args in "ueid help" "ueid h" "u help" "ue he" "help ueid" "help u"; do
		# shellcheck disable=SC2086
		run -0 --separate-stderr "$SMC" $args
		[ "${lines[0]}" = "Usage: smc ueid [ show ]" ]
		[[ "$output" == *"smc ueid add EID"* ]]
		[[ "$output" == *"smc ueid del EID"* ]]
		[[ "$output" == *"smc ueid flush"* ]]
		[[ "$output" == *"A-Z, 0-9, '.' and '-'"* ]]
		[ -z "$stderr" ]
	done
}

@test "stats help: usage on stdout, in all spellings" {
	local args
	for args in "stats help" "st h" "s help" "help stats" "help s"; do
		# shellcheck disable=SC2086
		run -0 --separate-stderr "$SMC" $args
		[[ "${lines[0]}" == "Usage: smc "*"stats [ show | reset ]" ]]
		[[ "$output" == *"smc stats help"* ]]
		[ -z "$stderr" ]
	done
}

@test "help help prints the general usage" {
	run -0 "$SMC" help help
	[ "${lines[0]}" = "Usage: smc [ OPTIONS ] OBJECT { COMMAND | help }" ]
}

@test "dump is dispatched to the dump handler, also abbreviated" {
	local obj
	for obj in dump du d; do
		run --separate-stderr "$SMC" "$obj" help
		[[ "$stderr" != *"is unknown"* ]]
	done
}

@test "unknown commands: exit 2 with the object's help hint" {
	run -2 --separate-stderr "$SMC" ueid bogus
	[ -z "$output" ]
	[ "$stderr" = 'Command "bogus" is unknown, try "smc ueid help".' ]
	run -2 --separate-stderr "$SMC" stats bogus
	[ -z "$output" ]
	[ "$stderr" = 'Command "bogus" is unknown, try "smc stats help".' ]
	# longer than the keyword is no abbreviation
	run -2 --separate-stderr "$SMC" ueid showx
	[ "$stderr" = 'Command "showx" is unknown, try "smc ueid help".' ]
}

@test "commands: help abbreviated, whole-word commands, other words" {
	local obj
	# "he" is help for every object with commands, usage on stdout
	for obj in ueid stats socket dump info device linkgroup pnet check; do
		run -0 --separate-stderr "$SMC" "$obj" he
		[[ "$output" == "Usage: smc "*"$obj"* ]]
		[ -z "$stderr" ]
	done
	run -0 --separate-stderr "$SMC" dump -h
	[[ "$output" == "Usage: smc dump read "* ]]
	# start, stop, show and graph of dump are whole words, stats is not
	run -2 --separate-stderr "$SMC" dump star
	[ "$stderr" = 'Command "star" is unknown, try "smc dump help".' ]
	run -2 --separate-stderr "$SMC" dump bogus
	[ "$stderr" = 'Command "bogus" is unknown, try "smc dump help".' ]
	run -2 --separate-stderr "$SMC" dump sta
	[ "$stderr" = 'Error: FILE expected, try "smc dump help".' ]
	run -2 --separate-stderr "$SMC" pnet fl x
	[ "$stderr" = 'Error: unexpected argument "x", try "smc pnet help".' ]
	# where a word that is no command is an argument of show or the HOST
	run -2 --separate-stderr "$SMC" socket reason
	[ "$stderr" = 'Error: unknown argument "reason", try "smc socket help".' ]
	run -2 --separate-stderr "$SMC" linkgroup link
	[ "$stderr" = 'Error: "link" is neither a keyword nor a link group id (up to 8 hex digits), try "smc linkgroup help".' ]
	run -2 --separate-stderr "$SMC" check loop
	[ "$stderr" = 'Error: "loop" needs a PORT, try "smc check help".' ]
	run -2 --separate-stderr "$SMC" device typ smcd
	[ "$stderr" = 'Command "typ" is unknown, try "smc device help".' ]
}

@test "missing and extra arguments: exit 2, nothing sent" {
	run -2 --separate-stderr "$SMC_FAKE" ueid add
	[ "$stderr" = 'Error: "add" needs an EID, try "smc ueid help".' ]
	run -2 --separate-stderr "$SMC_FAKE" ueid del
	[ "$stderr" = 'Error: "del" needs an EID, try "smc ueid help".' ]
	run -2 --separate-stderr "$SMC_FAKE" ueid add A B
	[ "$stderr" = 'Error: unexpected argument "B", try "smc ueid help".' ]
	run -2 --separate-stderr "$SMC_FAKE" ueid flush now
	[ "$stderr" = 'Error: unexpected argument "now", try "smc ueid help".' ]
	run -2 --separate-stderr "$SMC_FAKE" ueid show all
	[ "$stderr" = 'Error: unexpected argument "all", try "smc ueid help".' ]
	run -2 --separate-stderr "$SMC_FAKE" stats show more
	[ "$stderr" = 'Error: unexpected argument "more", try "smc stats help".' ]
	[ ! -e "$SMC_FAKE_LOG" ]
}

# ----------------------------------------------- EID rules (local)

# eid_rejected EID MESSAGE: smc ueid add and del refuse EID with MESSAGE
# and exit 2 without sending anything
eid_rejected() {
	local cmd
	for cmd in add del; do
		run -2 --separate-stderr "$SMC_FAKE" ueid "$cmd" "$1"
		[ -z "$output" ]
		if [ "$stderr" != "$2" ]; then
			echo "got:  $stderr"
			echo "want: $2"
			return 1
		fi
	done
	[ ! -e "$SMC_FAKE_LOG" ]
}

@test "EID rule: not empty or blank" {
	eid_rejected "" 'Error: EID "" is invalid: it is empty'
	eid_rejected "   " 'Error: EID "   " is invalid: it is empty'
}

@test "EID rule: at most 32 characters" {
	local a33
	a33="$(printf 'A%.0s' {1..33})"
	eid_rejected "$a33" "Error: EID \"$a33\" is invalid: it is longer than 32 characters"
	eid_rejected "${a33}   " "Error: EID \"${a33}   \" is invalid: it is longer than 32 characters"
}

@test "EID rule: first character A-Z or 0-9 (no leading blank, dot, dash)" {
	eid_rejected " ABC" "Error: EID \" ABC\" is invalid: the first character must be A-Z or 0-9, not ' ' at position 1"
	eid_rejected ".ABC" "Error: EID \".ABC\" is invalid: the first character must be A-Z or 0-9, not '.' at position 1"
	eid_rejected "-ABC" "Error: EID \"-ABC\" is invalid: the first character must be A-Z or 0-9, not '-' at position 1"
}

@test "EID rule: only A-Z, 0-9, '.' and '-'" {
	eid_rejected "x y" "Error: EID \"x y\" is invalid: only A-Z, 0-9, '.' and '-' are allowed, not ' ' at position 2"
	eid_rejected "AB_C" "Error: EID \"AB_C\" is invalid: only A-Z, 0-9, '.' and '-' are allowed, not '_' at position 3"
	eid_rejected "A/B" "Error: EID \"A/B\" is invalid: only A-Z, 0-9, '.' and '-' are allowed, not '/' at position 2"
	eid_rejected $'AB\tC' "Error: EID \"AB\\x09C\" is invalid: only A-Z, 0-9, '.' and '-' are allowed, not byte 0x09 at position 3"
	eid_rejected $'AB\xc3\x84' "Error: EID \"AB\\xc3\\x84\" is invalid: only A-Z, 0-9, '.' and '-' are allowed, not byte 0xc3 at position 3"
}

# wire EID: what the kernel must get for user input EID, as hex: upper
# case, trailing blanks dropped, padded with blanks to 32, then a NUL
wire_hex() {
	python3 -c 'import sys
e = sys.argv[1].rstrip(" ").upper().ljust(32) + "\0"
assert len(e) == 33
print(e.encode("ascii").hex())' "$1"
}

@test "valid EIDs go to the kernel upper case, blank padded, with NUL" {
	local eid a32 want
	a32="$(printf 'Z%.0s' {1..32})"
	for eid in A abc Loc-1.west 9.9-X "$a32" "TRAIL   " "$a32  "; do
		rm -f "$SMC_FAKE_LOG" "$SMC_FAKE_TABLE"
		run -0 --separate-stderr "$SMC_FAKE" ueid add "$eid"
		[ -z "$stderr" ]
		want="ADD_UEID flags=0x5 attr=1 len=33 hex=$(wire_hex "$eid")"
		if [ "$(cat "$SMC_FAKE_LOG")" != "$want" ]; then
			echo "for '$eid' got: $(cat "$SMC_FAKE_LOG")"
			echo "want: $want"
			return 1
		fi
		run -0 "$SMC_FAKE" ueid del "$eid"
		[ "$(tail -n1 "$SMC_FAKE_LOG")" = "REMOVE_UEID flags=0x5 attr=1 len=33 hex=$(wire_hex "$eid")" ]
	done
}

# -------------------------------------- host kernel without SMC

@test "host without SMC: stats fails with 'SMC is not available', exit 1" {
	host_has_smc && skip "this host has SMC"
	not_available SMC_GEN_NETLINK stats "stats show" "-j stats" \
		"-j -p stats" "st"
}

@test "host without SMC: ueid commands fail with 'SMC is not available', exit 1" {
	host_has_smc && skip "this host has SMC"
	not_available SMC_GEN_NETLINK ueid "ueid show" "-j ueid show" \
		"ueid flush" "ueid add ABC" "ueid del abc"
}

@test "a failed write of the output is an error" {
	[ -w /dev/full ] || skip "no /dev/full"
	run -1 --separate-stderr bash -c '"$SMC" -V >/dev/full'
	[[ "$stderr" == "Error: cannot write the output"* ]]
}

# ------------------------------- ueid against the fake kernel

@test "ueid: add, show (text and JSON), del, flush" {
	run -0 "$SMC_FAKE" ueid add first-1
	run -0 "$SMC_FAKE" ueid add SECOND.2
	run -0 --separate-stderr "$SMC_FAKE" ueid show
	[ "$output" = $'FIRST-1\nSECOND.2' ]
	[ -z "$stderr" ]
	# no command means show; list is a synonym
	run -0 "$SMC_FAKE" ueid
	[ "$output" = $'FIRST-1\nSECOND.2' ]
	run -0 "$SMC_FAKE" ueid list
	[ "$output" = $'FIRST-1\nSECOND.2' ]
	run -0 "$SMC_FAKE" -j ueid show
	python3 -c 'import json, sys
assert json.loads(sys.argv[1]) == [{"eid": "FIRST-1"}, {"eid": "SECOND.2"}]' "$output"
	run -0 "$SMC_FAKE" ueid del first-1
	run -0 "$SMC_FAKE" ueid show
	[ "$output" = "SECOND.2" ]
	run -0 "$SMC_FAKE" ueid flush
	run -0 "$SMC_FAKE" ueid show
	[ -z "$output" ]
	run -0 "$SMC_FAKE" -j ueid show
	[ "$output" = "[]" ]
	grep -q '^DUMP_UEID flags=0x301$' "$SMC_FAKE_LOG"
	grep -q '^FLUSH_UEID flags=0x5$' "$SMC_FAKE_LOG"
}

@test "ueid: -j -p output is valid JSON, the same as compact" {
	run -0 "$SMC_FAKE" ueid add A1
	run -0 "$SMC_FAKE" ueid add B2
	"$SMC_FAKE" -j ueid show >"$BATS_TEST_TMPDIR/c.json"
	"$SMC_FAKE" -j -p ueid show >"$BATS_TEST_TMPDIR/p.json"
	python3 -m json.tool "$BATS_TEST_TMPDIR/c.json" >/dev/null
	python3 -m json.tool "$BATS_TEST_TMPDIR/p.json" >/dev/null
	[ "$(wc -l <"$BATS_TEST_TMPDIR/c.json")" -eq 1 ]
	[ "$(wc -l <"$BATS_TEST_TMPDIR/p.json")" -gt 1 ]
	python3 -c 'import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a == b == [{"eid": "A1"}, {"eid": "B2"}], (a, b)' \
		"$BATS_TEST_TMPDIR/c.json" "$BATS_TEST_TMPDIR/p.json"
}

@test "ueid add: EID already there (EEXIST)" {
	run -0 "$SMC_FAKE" ueid add dup
	run -1 --separate-stderr "$SMC_FAKE" ueid add DUP
	[ "$stderr" = 'Error: EID "DUP" is already in the table' ]
}

@test "ueid add: table full (ERANGE)" {
	local e
	for e in A B C D; do
		run -0 "$SMC_FAKE" ueid add "$e"
	done
	run -1 --separate-stderr "$SMC_FAKE" ueid add E
	[ "$stderr" = 'Error: cannot add EID "E": the table is full (at most 4 user EIDs); delete one first' ]
}

@test "ueid del: EID not there (ENOENT)" {
	run -1 --separate-stderr "$SMC_FAKE" ueid del nope
	[ "$stderr" = 'Error: EID "NOPE" is not in the table' ]
}

@test "ueid del: EAGAIN (s390: system EID enabled) is a success" {
	SMC_FAKE_ERR="REMOVE_UEID:$(errno_of EAGAIN)" \
		run -0 --separate-stderr "$SMC_FAKE" ueid del A
	[ "$stderr" = "Info: the last user EID was removed, the system EID is enabled" ]
}

errno_of() {
	python3 -c 'import errno, sys; print(getattr(errno, sys.argv[1]))' "$1"
}

@test "ueid add/del/flush without CAP_NET_ADMIN (EPERM)" {
	export SMC_FAKE_UNPRIV=1
	run -1 --separate-stderr "$SMC_FAKE" ueid add ABC
	[ "$stderr" = "Error: adding a user EID needs the CAP_NET_ADMIN capability: Operation not permitted" ]
	run -1 --separate-stderr "$SMC_FAKE" ueid del ABC
	[ "$stderr" = "Error: removing a user EID needs the CAP_NET_ADMIN capability: Operation not permitted" ]
	run -1 --separate-stderr "$SMC_FAKE" ueid flush
	[ "$stderr" = "Error: flushing the user EIDs needs the CAP_NET_ADMIN capability: Operation not permitted" ]
	# showing needs no privilege
	run -0 "$SMC_FAKE" ueid show
}

@test "kernel errors carry the extack message" {
	export SMC_FAKE_EXTACK="Attribute failed policy validation"
	SMC_FAKE_ERR="ADD_UEID:$(errno_of EINVAL)" \
		run -1 --separate-stderr "$SMC_FAKE" ueid add ABC
	[ "$stderr" = 'Error: the kernel refused EID "ABC" as invalid (kernel says: Attribute failed policy validation)' ]
	SMC_FAKE_ERR="FLUSH_UEID:$(errno_of ENOMEM)" \
		run -1 --separate-stderr "$SMC_FAKE" ueid flush
	[ "$stderr" = "Error: cannot flush the user EIDs: Cannot allocate memory (kernel says: Attribute failed policy validation)" ]
	SMC_FAKE_ERR="DUMP_UEID:$(errno_of EOPNOTSUPP)" \
		run -1 --separate-stderr "$SMC_FAKE" ueid show
	[[ "$stderr" == "Error: the running kernel cannot list user EIDs"* ]]
	[ "${#stderr_lines[@]}" -eq 1 ]
	# a failed dump leaves no partial JSON on stdout
	run -0 "$SMC_FAKE" ueid add ABC
	SMC_FAKE_ERR="DUMP_UEID:$(errno_of ENOMEM)" \
		run -1 --separate-stderr "$SMC_FAKE" -j ueid show
	[ -z "$output" ]
	[ "$stderr" = "Error: cannot list the user EIDs: Cannot allocate memory (kernel says: Attribute failed policy validation)" ]
	run -0 "$SMC_FAKE" ueid del ABC
	# on success the message is a warning
	run -0 --separate-stderr "$SMC_FAKE" ueid add ABC
	[ "$stderr" = "Warning: Attribute failed policy validation" ]
}

@test "ueid show: JSON escapes what the kernel sends" {
	# entries with quote, backslash, control bytes, UTF-8 and bytes that
	# are not UTF-8 (the writer takes those as Latin-1)
	python3 - "$SMC_FAKE_TABLE" <<'EOF'
import sys
entries = [b'A"B\\C', b'TAB\tNL\nCR\rBS\x08FF\x0cX\x01\x1f\x7f',
           'Ü€😀'.encode(), b'\xff\xc3(\xed\xa0\x80', b'/<>&']
with open(sys.argv[1], "w") as f:
    for e in entries:
        f.write(e.ljust(32, b' ').hex() + "\n")
EOF
	"$SMC_FAKE" -j ueid show >"$BATS_TEST_TMPDIR/out.json"
	python3 - "$BATS_TEST_TMPDIR/out.json" <<'EOF'
import codecs, json, sys
raw = open(sys.argv[1], "rb").read()
raw.decode("utf-8")            # strict: the output must be valid UTF-8
got = json.loads(raw)
codecs.register_error("latin1", lambda e: (e.object[e.start:e.start + 1].decode("latin-1"), e.start + 1))
entries = [b'A"B\\C', b'TAB\tNL\nCR\rBS\x08FF\x0cX\x01\x1f\x7f',
           'Ü€😀'.encode(), b'\xff\xc3(\xed\xa0\x80', b'/<>&']
want = [{"eid": e.decode("utf-8", "latin1")} for e in entries]
assert got == want, (got, want)
# control characters never appear raw
assert not any(c < 0x20 for c in raw.rstrip(b"\n")), raw
EOF
	python3 -m json.tool "$BATS_TEST_TMPDIR/out.json" >/dev/null
}

# ------------------------------ stats against the fake kernel

@test "stats -j: every counter under its documented name" {
	export SMC_FAKE_STATS="$(python3 "$H/stats_case.py" spec)"
	export SMC_FAKE_FBACK="$(python3 "$H/stats_case.py" fback)"
	"$SMC_FAKE" -j stats >"$BATS_TEST_TMPDIR/s.json"
	python3 -m json.tool "$BATS_TEST_TMPDIR/s.json" >/dev/null
	run python3 "$H/stats_case.py" check <"$BATS_TEST_TMPDIR/s.json"
	echo "$output"
	[ "$status" -eq 0 ]
	# both dumps were asked for
	grep -q '^GET_STATS flags=0x301$' "$SMC_FAKE_LOG"
	grep -q '^GET_FBACK_STATS flags=0x301$' "$SMC_FAKE_LOG"
}

@test "stats -j -p: valid JSON, the same as compact" {
	export SMC_FAKE_STATS="$(python3 "$H/stats_case.py" spec)"
	export SMC_FAKE_FBACK="$(python3 "$H/stats_case.py" fback)"
	"$SMC_FAKE" -j stats >"$BATS_TEST_TMPDIR/c.json"
	"$SMC_FAKE" -p --json stats >"$BATS_TEST_TMPDIR/p.json"
	python3 -m json.tool "$BATS_TEST_TMPDIR/p.json" >/dev/null
	python3 -c 'import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a == b' "$BATS_TEST_TMPDIR/c.json" "$BATS_TEST_TMPDIR/p.json"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/p.json")" -gt 100 ]
}

@test "stats with nothing counted: zeros and an empty reason list" {
	run -0 "$SMC_FAKE" -j stats
	python3 -c 'import json, sys
s = json.loads(sys.argv[1])[0]
assert s["smcd"]["client"]["v2_success"] == 0
assert s["smcr"]["tx_bytes"] == 0
assert s["fallback"] == {"client": 0, "server": 0, "total": 0, "reasons": []}, s["fallback"]' "$output"
}

@test "stats text: connections, bytes, errors and fallback reasons" {
	export SMC_FAKE_STATS="smcd.CLNT_V2_SUCC=3 smcd.SRV_V2_SUCC=4 smcd.SRV_V1_SUCC=1 smcd.TX_BYTES=4194304 smcd.RX_BYTES=1000 smcd.TX_CNT=8 smcd.TX_RMB_STATS.FULL_CNT=2 smcr.CLNT_V1_SUCC=5 CLNT_HS_ERR_CNT=6 SRV_HS_ERR_CNT=1"
	export SMC_FAKE_FBACK="srv_cnt=9 clnt_cnt=2 clnt:0x03010000:2 srv:0x03030008:9"
	run -0 --separate-stderr "$SMC_FAKE" stats
	[ -z "$stderr" ]
	# squeeze blanks so that the column widths do not matter
	local t
	t="$(printf '%s\n' "$output" | tr -s ' ')"
	echo "$t"
	# 8 SMC-D + 5 SMC-R + 7 handshake errors + 11 fallbacks
	[[ "$t" == *"Connections handled 31"* ]]
	[[ "$t" == *$'SMC-D\n Connections 8 (client 3, server 5)\n v1 1 (client 0, server 1)\n v2 7 (client 3, server 4)'* ]]
	[[ "$t" == *" TX bytes 4194304 (4.00 MiB)"* ]]
	[[ "$t" == *" RX bytes 1000"$'\n'* ]]
	[[ "$t" == *" TX buffer full 2 (25.00%)"* ]]
	[[ "$t" == *$'SMC-R\n Connections 5 (client 5, server 0)'* ]]
	[[ "$t" == *"Handshake errors 7 (client 6, server 1)"* ]]
	[[ "$t" == *"TCP fallback 11 (client 2, server 9)"* ]]
	# biggest count first
	[[ "$t" == *$'\n server 0x03030008 NOUEID 9 peer sent no UEID\n client 0x03010000 PEERNOSMC 2 peer did not indicate SMC'* ]]
	# -d adds the histograms and special calls
	[[ "$t" != *"Special socket calls"* ]]
	run -0 "$SMC_FAKE" -d stats
	[[ "$output" == *"Special socket calls"* ]]
	[[ "$output" == *">1M"* ]]
	[[ "$output" == *"RX buffers"* ]]
}

@test "stats: kernel error is reported with extack, exit 1" {
	export SMC_FAKE_EXTACK="no stats for you"
	SMC_FAKE_ERR="GET_STATS:$(errno_of ENOMEM)" \
		run -1 --separate-stderr "$SMC_FAKE" -j stats
	[ -z "$output" ]
	[ "$stderr" = "Error: cannot read the SMC statistics: Cannot allocate memory (kernel says: no stats for you)" ]
	SMC_FAKE_ERR="GET_FBACK_STATS:$(errno_of EIO)" \
		run -1 --separate-stderr "$SMC_FAKE" stats
	[ -z "$output" ]
	[ "$stderr" = "Error: cannot read the SMC fallback statistics: Input/output error (kernel says: no stats for you)" ]
}

# ---------------------------------------------- JSON writer

@test "json_print: nesting, commas, types, empty containers" {
	run -0 "$JSON_DRIVER" -j '{' 's:name=x' 'u:u=4294967295' 'i:i=-7' \
		'U:big=18446744073709551615' 'x:hex=255' 'b:yes=1' 'b:no=0' \
		'n:nothing=text' '{inner' '}' '[empty' ']' '[list' 'u:=1' \
		's:=two' '{' 'u:k=3' '}' '[' ']' ']' '}' '{' '}'
	python3 -c 'import json, sys
got = json.loads(sys.argv[1])
want = [{"name": "x", "u": 4294967295, "i": -7,
         "big": 18446744073709551615, "hex": "0xff", "yes": True,
         "no": False, "nothing": None, "inner": {}, "empty": [],
         "list": [1, "two", {"k": 3}, []]}, {}]
assert got == want, got' "$output"
	# compact: one line, no blanks outside strings
	[ "${#lines[@]}" -eq 1 ]
	[[ "$output" != *" "* ]]
}

@test "json_print: pretty mode indents by four blanks per level" {
	run -0 "$JSON_DRIVER" -j -p '{' 'u:a=1' '{o' 'u:b=2' '}' '[l' ']' '}'
	python3 -c 'import json, sys
assert json.loads(sys.argv[1]) == [{"a": 1, "o": {"b": 2}, "l": []}]' "$output"
	[ "${lines[0]}" = "[" ]
	[ "${lines[1]}" = "    {" ]
	[ "${lines[2]}" = '        "a": 1,' ]
	[ "${lines[3]}" = '        "o": {' ]
	[ "${lines[4]}" = '            "b": 2' ]
	[ "${lines[5]}" = '        },' ]
	[ "${lines[6]}" = '        "l": []' ]
	[ "${lines[7]}" = "    }" ]
	[ "${lines[8]}" = "]" ]
}

@test "json_print: string escaping round-trips through a JSON parser" {
	# every byte 0x01..0xff once, as \xHH for the driver
	local all
	all="$(python3 -c 'print("".join("\\x%02x" % b for b in range(1, 256)))')"
	"$JSON_DRIVER" -j '{' "s:k\"e\\y=$all" '}' >"$BATS_TEST_TMPDIR/e.json"
	python3 - "$BATS_TEST_TMPDIR/e.json" <<'EOF'
import codecs, json, sys
raw = open(sys.argv[1], "rb").read()
raw.decode("utf-8")
codecs.register_error("latin1", lambda e: (e.object[e.start:e.start + 1].decode("latin-1"), e.start + 1))
want = bytes(range(1, 256)).decode("utf-8", "latin1")
got = json.loads(raw)
assert got == [{'k"e\\y': want}], got
EOF
	# a valid UTF-8 sequence passes unchanged, not as \u escapes
	run -0 "$JSON_DRIVER" -j '{' 's:k=\xe2\x82\xac' '}'
	[ "$output" = '[{"k":"€"}]' ]
	# the escapes JSON has short forms for
	run -0 "$JSON_DRIVER" -j '{' 's:k=\x22\x5c\x08\x0c\x0a\x0d\x09' '}'
	[ "$output" = '[{"k":"\"\\\b\f\n\r\t"}]' ]
}

@test "json_print: text mode prints the formats, JSON-only items are skipped" {
	run -0 "$JSON_DRIVER" 's:k=v' 'u:x=3' 'i:y=-1' 'U:z=5' 'x:h=255' \
		'b:b=1' 'n:n=none' 'J:j=hidden' 'F:f=shown' '[list' 'u:=1' ']' 'nl'
	[ "$output" = "<v><3><-1><5><ff><true><none><shown>list<1>]" ]
	# and in JSON mode PRINT_FP items are skipped
	run -0 "$JSON_DRIVER" -j '{' 'F:f=shown' 'J:j=1' '}' nl
	[ "$output" = '[{"j":"1"}]' ]
}

# ---------------------------------------------------- man page

@test "man page renders without warnings" {
	local page="$TOP/man/man8/smc.8"
	[ -f "$page" ]
	# -P-cbou: plain text, no overstrike for bold and underline
	run --separate-stderr groff -ww -man -Tutf8 -P-cbou "$page"
	[ "$status" -eq 0 ]
	[ -z "$stderr" ]
	[[ "$output" == *"OBJECTS"*"dump"*"smc-dump(8)"* ]]
	if command -v mandoc >/dev/null; then
		run mandoc -T lint -W warning "$page"
		[ -z "$output" ]
	fi
}

@test "smc-stats(8) and smc-ueid(8) document every JSON name of smc -j stats and ueid show" {
	export SMC_FAKE_STATS="$(python3 "$H/stats_case.py" spec)"
	export SMC_FAKE_FBACK="$(python3 "$H/stats_case.py" fback)"
	"$SMC_FAKE" -j stats >"$BATS_TEST_TMPDIR/s.json"
	run -0 "$SMC_FAKE" ueid add X
	"$SMC_FAKE" -j ueid show >"$BATS_TEST_TMPDIR/u.json"
	run python3 - "$TOP/man/man8/smc-stats.8" "$BATS_TEST_TMPDIR/s.json" \
		"$TOP/man/man8/smc-ueid.8" "$BATS_TEST_TMPDIR/u.json" <<'EOF'
import json, re, sys
# each JSON output against the words of its object's page
def walk(o, keys):
    if isinstance(o, dict):
        for k, v in o.items():
            keys.add(k)
            walk(v, keys)
    elif isinstance(o, list):
        for v in o:
            walk(v, keys)
missing = []
for man, out in zip(sys.argv[1::2], sys.argv[2::2]):
    page = open(man).read().replace("\\_", "_").replace("\\-", "-")
    words = set(re.findall(r"[a-z0-9_]+", page))
    keys = set()
    walk(json.load(open(out)), keys)
    assert keys, out
    missing += ["%s: %s" % (man, k) for k in sorted(keys - words)]
print("undocumented:", missing)
sys.exit(1 if missing else 0)
EOF
	echo "$output"
	[ "$status" -eq 0 ]
}
