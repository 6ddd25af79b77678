#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of smc pnet, the PNET table of the generic netlink family
# SMC_PNETID, as smc-tools' smc_pnet. The host has no SMC, so the smc
# command is linked with helpers/fake_genl.c, which keeps the table in the
# file SMC_FAKE_PNET and answers as net/smc/smc_pnet.c of Linux 6.12 does.
# The expected outputs are worked out by hand from the table files and the
# formats in smc(8); the requests are checked in the fake's log.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_fake
}

# A table of two PNET IDs: NET1 on an interface and two devices (a RoCE
# port 2 and an ISM device), NET2 on one interface.
setup() {
	export SMC_FAKE_LOG="$BATS_TEST_TMPDIR/requests"
	export SMC_FAKE_PNET="$BATS_TEST_TMPDIR/pnet"
	unset SMC_FAKE_ERR SMC_FAKE_EXTACK SMC_FAKE_UNPRIV SMC_FAKE_PNET_HW \
		SMC_FAKE_INIT_NET
	cat >"$SMC_FAKE_PNET" <<'EOF'
NET1 eth eth0
NET1 ib mlx5_0 2
NET2 eth bond0
NET1 ib 0004:00:00.0 1
EOF
}

errno_of() {
	python3 -c 'import errno, sys; print(getattr(errno, sys.argv[1]))' "$1"
}

# hex STRING: the bytes of STRING and its NUL as the fake logs them
hex() {
	printf '%s\0' "$1" | od -An -tx1 | tr -d ' \n'
}

TABLE='NET1 eth eth0
NET1 ib mlx5_0 port 2
NET2 eth bond0
NET1 ib 0004:00:00.0 port 1'

# ---------------------------------------------------------- help, dispatch

@test "pnet: help on stdout in all spellings, listed in smc help, nothing sent" {
	run -0 --separate-stderr "$SMC_FAKE" pnet help
	[[ "$output" == "Usage: smc pnet [ show [ PNETID ] ]"* ]]
	[[ "$output" == *"smc pnet add PNETID { eth DEV | ib IBDEV [ port N ] }..."* ]]
	[ -z "$stderr" ]
	run -0 "$SMC_FAKE" help pnet
	[[ "$output" == "Usage: smc pnet "* ]]
	run -0 "$SMC_FAKE" pnet he
	[[ "$output" == "Usage: smc pnet "* ]]
	run -0 "$SMC_FAKE" help
	[[ "$output" == *"linkgroup | pnet | run | check |"*"rnics | dbg }"* ]]
	[ ! -e "$SMC_FAKE_LOG" ]
}

@test "pnet: abbreviations p, sh, a, del, delete, f" {
	run -0 "$SMC_FAKE" p
	[ "$output" = "$TABLE" ]
	run -0 "$SMC_FAKE" pn sh
	[ "$output" = "$TABLE" ]
	run -0 "$SMC_FAKE" pnet list
	[ "$output" = "$TABLE" ]
	run -0 "$SMC_FAKE" p a NET3 eth eth3
	run -0 "$SMC_FAKE" p del NET3
	run -0 "$SMC_FAKE" p delete NET2
	run -0 "$SMC_FAKE" p f
	[ ! -s "$SMC_FAKE_PNET" ]
	[ "$(cut -d' ' -f1 "$SMC_FAKE_LOG" | tr '\n' ' ')" = "PNETID_GET PNETID_GET PNETID_GET PNETID_ADD PNETID_DEL PNETID_DEL PNETID_FLUSH " ]
}

@test "pnet: bad arguments: which rule is broken, exit 2, nothing sent" {
	local args
	while IFS='|' read -r args msg; do
		# shellcheck disable=SC2086
		run -2 --separate-stderr "$SMC_FAKE" pnet $args
		[ -z "$output" ]
		if [ "$stderr" != "$msg" ]; then
			echo "smc pnet $args: got '$stderr', want '$msg'"
			return 1
		fi
	done <<'LIST'
bogus|Command "bogus" is unknown, try "smc pnet help".
NET1|Command "NET1" is unknown, try "smc pnet help".
show NET1 NET2|Error: unexpected argument "NET2", try "smc pnet help".
show NET-1|Error: PNET ID "NET-1" is invalid: only letters A-Z and digits 0-9 are allowed, not '-' at position 4
add|Error: "add" needs a PNET ID, try "smc pnet help".
add NET1|Error: "add" needs a device: eth DEV or ib IBDEV, try "smc pnet help".
add ABCDEFGHIJKLMNOPQ eth eth0|Error: PNET ID "ABCDEFGHIJKLMNOPQ" is invalid: it is longer than 16 characters
add NET_1 eth eth0|Error: PNET ID "NET_1" is invalid: only letters A-Z and digits 0-9 are allowed, not '_' at position 4
add NET1 eth|Error: "eth" needs an argument, try "smc pnet help".
add NET1 ib|Error: "ib" needs an argument, try "smc pnet help".
add NET1 eth eth0 bogus x|Error: "bogus" is not eth, ib or port, try "smc pnet help".
add NET1 port 1|Error: "port 1" does not follow ib IBDEV, try "smc pnet help".
add NET1 eth eth0 port 1|Error: "port 1" does not follow ib IBDEV, try "smc pnet help".
add NET1 ib mlx5_0 port|Error: "port" needs an argument, try "smc pnet help".
add NET1 ib mlx5_0 port 0|Error: IB port "0" is invalid: it is not 1 or 2
add NET1 ib mlx5_0 port 3|Error: IB port "3" is invalid: it is not 1 or 2
add NET1 ib mlx5_0 port -1|Error: IB port "-1" is invalid: it is not 1 or 2
add NET1 ib mlx5_0 port 1x|Error: IB port "1x" is invalid: it is not 1 or 2
add NET1 ib mlx5_0 port +1|Error: IB port "+1" is invalid: it is not 1 or 2
add NET1 ib mlx5_0 port 4294967297|Error: IB port "4294967297" is invalid: it is not 1 or 2
add NET1 ib mlx5_0 port 1 port 2|Error: duplicate "port": "2" is the second value.
add NET1 eth eth0 eth eth0|Error: duplicate "eth eth0".
add NET1 ib mlx5_0 port 1 ib mlx5_0 port 2|Error: duplicate "ib mlx5_0".
add NET1 eth abcdefghijklmnop|Error: interface name "abcdefghijklmnop" is invalid: it is longer than 15 characters
add NET1 eth eth0/1|Error: interface name "eth0/1" is invalid: only printable characters but blank, '/' and ':' are allowed, not '/' at position 5
add NET1 eth eth0:1|Error: interface name "eth0:1" is invalid: only printable characters but blank, '/' and ':' are allowed, not ':' at position 5
add NET1 eth n/a|Error: interface name "n/a" is invalid: only printable characters but blank, '/' and ':' are allowed, not '/' at position 2
add NET1 ib n/a|Error: device name "n/a" is invalid: this name is reserved
add NET1 ib 0123456789012345678901234567890123456789012345678901234567890123|Error: device name "0123456789012345678901234567890123456789012345678901234567890123" is invalid: it is longer than 63 characters
del|Error: "del" needs a PNET ID, try "smc pnet help".
del NET1 NET2|Error: unexpected argument "NET2", try "smc pnet help".
del NET.1|Error: PNET ID "NET.1" is invalid: only letters A-Z and digits 0-9 are allowed, not '.' at position 4
flush NET1|Error: unexpected argument "NET1", try "smc pnet help".
LIST
	# blanks and empty names, which the word splitting above cannot pass
	run -2 --separate-stderr "$SMC_FAKE" pnet add ""  eth eth0
	[ "$stderr" = 'Error: PNET ID "" is invalid: it is empty' ]
	run -2 --separate-stderr "$SMC_FAKE" pnet add "NET 1" eth eth0
	[ "$stderr" = "Error: PNET ID \"NET 1\" is invalid: only letters A-Z and digits 0-9 are allowed, not ' ' at position 4" ]
	run -2 --separate-stderr "$SMC_FAKE" pnet add NET1 ib "mlx5 0"
	[ "$stderr" = "Error: device name \"mlx5 0\" is invalid: only printable characters but blank are allowed, not ' ' at position 5" ]
	run -2 --separate-stderr "$SMC_FAKE" pnet add NET1 eth ""
	[ "$stderr" = 'Error: interface name "" is invalid: it is empty' ]
	run -2 --separate-stderr "$SMC_FAKE" pnet add NET1 eth $'e\tx'
	[ "$stderr" = "Error: interface name \"e\\x09x\" is invalid: only printable characters but blank, '/' and ':' are allowed, not byte 0x09 at position 2" ]
	[ ! -e "$SMC_FAKE_LOG" ]
}

# ---------------------------------------- kernel without SMC, kernel errors

@test "pnet: host without SMC: 'SMC is not available' names SMC_PNETID, exit 1" {
	[ -d /sys/module/smc ] && skip "this host has SMC"
	not_available SMC_PNETID pnet "-j pnet show NET1" "pnet add NET1 eth lo" \
		"pnet del NET1" "pnet flush"
}

@test "pnet: kernel errors: errno text and extack, exit 1, no output" {
	export SMC_FAKE_EXTACK="try again later"
	local cmd errno args
	while IFS='|' read -r cmd errno args msg; do
		# shellcheck disable=SC2086
		SMC_FAKE_ERR="$cmd:$(errno_of "$errno")" \
			run -1 --separate-stderr "$SMC_FAKE" $args
		[ -z "$output" ]
		[ "$stderr" = "$msg (kernel says: try again later)" ] ||
			{ echo "smc $args: $stderr"; return 1; }
	done <<'LIST'
PNETID_GET|ENOMEM|-j pnet|Error: cannot read the PNET table: Cannot allocate memory
PNETID_ADD|EINVAL|pnet add net9 eth eth9|Error: the kernel refused PNET ID "NET9" for interface "eth9" as invalid
PNETID_ADD|ENOMEM|pnet add NET9 ib mlx5_1|Error: cannot add PNET ID "NET9" for device "mlx5_1": Cannot allocate memory
PNETID_DEL|EIO|pnet del NET1|Error: cannot delete PNET ID "NET1": Input/output error
PNETID_FLUSH|EIO|pnet flush|Error: cannot flush the PNET table: Input/output error
PNETID_FLUSH|EOPNOTSUPP|pnet flush|Error: the running kernel does not support flushing the PNET table
LIST
	# an extack on success is a warning
	run -0 --separate-stderr "$SMC_FAKE" pnet add NET9 eth eth9
	[ "$stderr" = "Warning: try again later" ]
}

@test "pnet: add, del and flush need CAP_NET_ADMIN; show does not" {
	export SMC_FAKE_UNPRIV=1
	run -1 --separate-stderr "$SMC_FAKE" pnet add NET3 eth eth3
	[ "$stderr" = "Error: adding a PNET table entry needs the CAP_NET_ADMIN capability: Operation not permitted" ]
	run -1 --separate-stderr "$SMC_FAKE" pnet del NET1
	[ "$stderr" = "Error: deleting a PNET ID needs the CAP_NET_ADMIN capability: Operation not permitted" ]
	run -1 --separate-stderr "$SMC_FAKE" pnet flush
	[ "$stderr" = "Error: flushing the PNET table needs the CAP_NET_ADMIN capability: Operation not permitted" ]
	[ -z "$output" ]
	run -0 "$SMC_FAKE" pnet
	[ "$output" = "$TABLE" ]
}

# ------------------------------------------------------------------- show

@test "pnet show: one line per entry as add takes it, one dump request" {
	run -0 --separate-stderr "$SMC_FAKE" pnet show
	[ "$output" = "$TABLE" ]
	[ -z "$stderr" ]
	[ "$(cat "$SMC_FAKE_LOG")" = "PNETID_GET flags=0x301" ]
	# one PNET ID, given in any case
	run -0 "$SMC_FAKE" pnet show net1
	[ "$output" = 'NET1 eth eth0
NET1 ib mlx5_0 port 2
NET1 ib 0004:00:00.0 port 1' ]
	run -0 "$SMC_FAKE" pnet show NET2
	[ "$output" = "NET2 eth bond0" ]
	# a prefix is not the PNET ID
	run -0 "$SMC_FAKE" pnet show NET
	[ -z "$output" ]
	: >"$SMC_FAKE_PNET"
	run -0 --separate-stderr "$SMC_FAKE" pnet
	[ -z "$output" ]
	[ -z "$stderr" ]
}

@test "pnet show -j: the documented keys" {
	run -0 "$SMC_FAKE" -j pnet
	python3 - "$output" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
assert d == [
    {"pnetid": "NET1", "type": "eth", "ifname": "eth0", "ibdev": None,
     "ibport": None},
    {"pnetid": "NET1", "type": "ib", "ifname": None, "ibdev": "mlx5_0",
     "ibport": 2},
    {"pnetid": "NET2", "type": "eth", "ifname": "bond0", "ibdev": None,
     "ibport": None},
    {"pnetid": "NET1", "type": "ib", "ifname": None,
     "ibdev": "0004:00:00.0", "ibport": 1},
], d
PY
	run -0 "$SMC_FAKE" -j pnet show NET2
	python3 -c 'import json, sys
d = json.loads(sys.argv[1])
assert [x["ifname"] for x in d] == ["bond0"], d' "$output"
	"$SMC_FAKE" -j -p pnet >"$BATS_TEST_TMPDIR/p.json"
	"$SMC_FAKE" -j pnet >"$BATS_TEST_TMPDIR/c.json"
	python3 -c 'import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a == b' "$BATS_TEST_TMPDIR/c.json" "$BATS_TEST_TMPDIR/p.json"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/p.json")" -gt 20 ]
	: >"$SMC_FAKE_PNET"
	run -0 "$SMC_FAKE" -j pnet
	[ "$output" = "[]" ]
	# and smc-pnet(8) names every key
	local key
	for key in pnetid type ifname ibdev ibport; do
		grep -q "^\.B $key\$" "$TOP/man/man8/smc-pnet.8" ||
			{ echo "$key not in smc-pnet.8"; return 1; }
	done
}

@test "pnet show: a malformed answer is an error, and nothing is printed" {
	echo "NET7 bad" >>"$SMC_FAKE_PNET"
	local args
	for args in "pnet" "-j pnet" "pnet show NET1"; do
		# shellcheck disable=SC2086
		run -1 --separate-stderr "$SMC_FAKE" $args
		[ -z "$output" ]
		[ "$stderr" = "Error: the kernel sent a malformed PNET table entry" ]
	done
}

# ------------------------------------------------------- add, del, flush

@test "pnet add: one request per device, upper-cased, port 1 by default" {
	: >"$SMC_FAKE_PNET"
	run -0 --separate-stderr "$SMC_FAKE" pnet add abc9 eth enc1 ib mlx5_1 ib 0005:00:00.0 port 2
	[ -z "$output" ]
	[ -z "$stderr" ]
	local name eth ib1 ib2
	name="attr=1 len=5 hex=$(hex ABC9)"
	eth="attr=2 len=5 hex=$(hex enc1)"
	ib1="attr=3 len=7 hex=$(hex mlx5_1) attr=4 len=1 hex=01"
	ib2="attr=3 len=13 hex=$(hex 0005:00:00.0) attr=4 len=1 hex=02"
	[ "$(cat "$SMC_FAKE_LOG")" = "PNETID_ADD flags=0x5 $name $eth
PNETID_ADD flags=0x5 $name $ib1
PNETID_ADD flags=0x5 $name $ib2" ]
	run -0 "$SMC_FAKE" pnet
	[ "$output" = 'ABC9 eth enc1
ABC9 ib mlx5_1 port 1
ABC9 ib 0005:00:00.0 port 2' ]
	# 16 characters is the longest PNET ID
	run -0 "$SMC_FAKE" pnet add 0123456789abcdef eth enc2
	run -0 "$SMC_FAKE" pnet show 0123456789ABCDEF
	[ "$output" = "0123456789ABCDEF eth enc2" ]
}

@test "pnet add: an interface or device with a PNET ID already: EEXIST, exit 1" {
	run -1 --separate-stderr "$SMC_FAKE" pnet add NET3 eth eth0
	[ -z "$output" ]
	[ "$stderr" = 'Error: interface "eth0" has a PNET ID already (a table entry, or one of its hardware)' ]
	# a device has one entry, whatever its port
	run -1 --separate-stderr "$SMC_FAKE" pnet add NET3 ib mlx5_0 port 1
	[ "$stderr" = 'Error: device "mlx5_0" has a table entry already, or a PNET ID of its hardware or set by the user (outside the initial network namespace only interfaces can be added)' ]
	# a PNET ID of the hardware
	SMC_FAKE_PNET_HW="enc8 ism1" \
		run -1 --separate-stderr "$SMC_FAKE" pnet add NET3 eth enc8
	[ "$stderr" = 'Error: interface "enc8" has a PNET ID already (a table entry, or one of its hardware)' ]
	# the devices before the refused one stay added, and are named
	SMC_FAKE_PNET_HW="enc8 ism1" \
		run -1 --separate-stderr "$SMC_FAKE" pnet add NET3 eth enc7 ib mlx5_1 ib ism1 eth enc9
	[ "$stderr" = 'Error: device "ism1" has a table entry already, or a PNET ID of its hardware or set by the user (outside the initial network namespace only interfaces can be added)
Info: added before the error: eth enc7 ib mlx5_1 port 1' ]
	run -0 "$SMC_FAKE" pnet show NET3
	[ "$output" = 'NET3 eth enc7
NET3 ib mlx5_1 port 1' ]
}

@test "pnet del: every entry of the PNET ID, any case; unknown: ENOENT, exit 1" {
	run -0 --separate-stderr "$SMC_FAKE" pnet del net1
	[ -z "$output" ]
	[ -z "$stderr" ]
	[ "$(cat "$SMC_FAKE_LOG")" = "PNETID_DEL flags=0x5 attr=1 len=5 hex=$(hex NET1)" ]
	run -0 "$SMC_FAKE" pnet
	[ "$output" = "NET2 eth bond0" ]
	run -1 --separate-stderr "$SMC_FAKE" pnet del NET1
	[ -z "$output" ]
	[ "$stderr" = 'Error: PNET ID "NET1" is not in the table, nor set by the user on a device' ]
	run -0 "$SMC_FAKE" pnet del NET2
	[ ! -s "$SMC_FAKE_PNET" ]
}

@test "pnet flush: empties the table; an empty table too" {
	run -0 --separate-stderr "$SMC_FAKE" pnet flush
	[ -z "$output" ]
	[ -z "$stderr" ]
	[ "$(cat "$SMC_FAKE_LOG")" = "PNETID_FLUSH flags=0x5" ]
	[ ! -s "$SMC_FAKE_PNET" ]
	run -0 "$SMC_FAKE" pnet flush
	run -0 "$SMC_FAKE" pnet
	[ -z "$output" ]
}

# ------------------------------------------------------------------- -n

@test "pnet -n: a namespace that does not exist: exit 1 before anything is sent" {
	run -1 --separate-stderr "$SMC_FAKE" -n "smc-pnet-test-none-$$" pnet add NET3 eth eth3
	[ "$stderr" = "Error: cannot open network namespace \"smc-pnet-test-none-$$\": No such file or directory" ]
	[ ! -e "$SMC_FAKE_LOG" ]
}

@test "pnet -n: the table of that namespace, with the kernel's rules there" {
	[ "$(id -u)" = 0 ] || skip "needs root"
	unshare --mount true 2>/dev/null || skip "no unshare --mount here"
	export SMC_FAKE_INIT_NET
	SMC_FAKE_INIT_NET=$(readlink /proc/self/ns/net)
	echo "NET5 eth veth5" >"$SMC_FAKE_PNET.netns"
	# in a mount namespace of its own with a tmpfs on /run: the host's
	# /run/netns is not touched
	run -0 unshare --mount bash -euc '
		mount -t tmpfs smc-pnet-test /run
		mkdir /run/netns
		touch /run/netns/t1
		unshare --net=/run/netns/t1 true
		"$SMC_FAKE" -n t1 pnet
		echo "--"
		"$SMC_FAKE" -n t1 pnet add net6 eth veth6
		"$SMC_FAKE" -n t1 pnet add NET6 ib mlx5_0 2>&1 || echo "rc=$?"
		"$SMC_FAKE" -n t1 pnet
		echo "--"
		"$SMC_FAKE" pnet show NET2'
	[ "$output" = 'NET5 eth veth5
--
Error: device "mlx5_0" has a table entry already, or a PNET ID of its hardware or set by the user (outside the initial network namespace only interfaces can be added)
rc=1
NET5 eth veth5
NET6 eth veth6
--
NET2 eth bond0' ]
	# the table of the initial namespace is untouched
	[ "$(cat "$SMC_FAKE_PNET")" = 'NET1 eth eth0
NET1 ib mlx5_0 2
NET2 eth bond0
NET1 ib 0004:00:00.0 1' ]
}
