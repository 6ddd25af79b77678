#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of the smc objects that read the SMC generic netlink family
# like smc-tools' smcd/smcr info, device and linkgroup: smc info, smc device,
# smc linkgroup. The host has no SMC, so the smc command is linked with
# helpers/fake_genl.c, which answers as net/smc of Linux 6.12 does from the
# records in SMC_FAKE_SYSINFO, _DEV_SMCD, _DEV_SMCR, _LGR_SMCR and
# _LGR_SMCD. The expected outputs are worked out by hand from those records
# and the formats in smc(8).

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_fake
}

# A system of two ISM devices (one in use by 2 link groups, with a PNET ID
# set by the user), a RoCE Express2 card on lo (ifindex 1, the same in
# every network namespace) and a soft-RoCE device without PCI function on
# an interface that does not exist; two SMC-R link groups (the first v2
# with two links) and two SMC-D link groups.
NOIF=999999
setup() {
	export SMC_FAKE_LOG="$BATS_TEST_TMPDIR/requests"
	unset SMC_FAKE_ERR SMC_FAKE_EXTACK
	export SMC_FAKE_SYSINFO="ver=2 rel=1 ism_v2=1 smcr_v2=1 host=lpar1 seid=IBM-SYSZ-ISMSEID00000000D3B5"
	export SMC_FAKE_DEV_SMCD="use=2 fid=0x1234 chid=0x07c1 vendor=0x1014 device=0x04ed pci_id=0000:00:00.0 pnetid=NET1 usr=1;use=0 fid=0x1235 chid=0x07c2 vendor=0x1014 device=0x04ed pci_id=0001:00:00.0"
	export SMC_FAKE_DEV_SMCR="ibname=mlx5_0 crit=1 fid=0x0100 chid=0x0118 vendor=0x15b3 device=0x1016 pci_id=0100:00:00.0 p1.netdev=1 p1.pnetid=NET1 p1.state=1 p1.links=2;ibname=rxe0 p1.netdev=$NOIF p1.state=0"
	export SMC_FAKE_LGR_SMCR="id=0x00000a01 role=1 type=2 vlan=0 conns=3 pnetid=NET1 sndbuf=65536 rmb=131072 ver=2 rel=1 os=2 host=peer1 eid=SMCV2-EID direct=1 max_conns=255 max_links=3 l1.ibdev=mlx5_0 l1.id=1 l1.state=3 l1.conns=2 l1.port=1 l1.netdev=1 l1.uid=0x0a010001 l1.peer_uid=0x0b020001 l1.gid=fe80:0000:0000:0000:0000:0000:0000:0001 l1.peer_gid=fe80:0000:0000:0000:0000:0000:0000:0002 l2.ibdev=rxe0 l2.id=2 l2.state=2 l2.conns=1 l2.port=1 l2.netdev=$NOIF l2.uid=0x0a010002 l2.peer_uid=0x0b020002 l2.gid=::1 l2.peer_gid=::2;id=0xdeadbeef role=0 type=1 vlan=100 conns=0"
	export SMC_FAKE_LGR_SMCD="id=0x00000d01 gid=0x1111 peer_gid=0x2222 vlan=0 conns=5 chid=0xffff sndbuf=16384 dmb=32768 ver=2 rel=1 os=2 host=peer2 eid=EID2;id=0x00000d02 conns=1 pnetid=NET2"
}

errno_of() {
	python3 -c 'import errno, sys; print(getattr(errno, sys.argv[1]))' "$1"
}

host_has_smc() {
	[ -d /sys/module/smc ]
}

# ---------------------------------------------------------- help, dispatch

@test "info, device, linkgroup: help on stdout in all spellings, listed in smc help" {
	local obj
	for obj in info device linkgroup; do
		run -0 --separate-stderr "$SMC_FAKE" "$obj" help
		[[ "$output" == "Usage: smc "*" $obj "* ]]
		[ -z "$stderr" ]
		run -0 "$SMC_FAKE" help "$obj"
		[[ "$output" == "Usage: smc "*" $obj "* ]]
		run -0 "$SMC_FAKE" "$obj" he
		[[ "$output" == "Usage: smc "*" $obj "* ]]
	done
	run -0 "$SMC_FAKE" help
	[[ "$output" == *"info | device |"*"linkgroup | pnet | run | check |"*"rnics | dbg }"* ]]
	[ ! -e "$SMC_FAKE_LOG" ]
}

@test "abbreviations: in, dev and link reach info, device and linkgroup" {
	run -0 "$SMC_FAKE" in
	[[ "$output" == "Kernel capabilities"* ]]
	run -0 "$SMC_FAKE" dev sh
	[[ "$output" == "SMC-D devices"* ]]
	run -0 "$SMC_FAKE" link
	[[ "$output" == "SMC-R link groups"* ]]
}

@test "bad arguments: message, exit 2, nothing sent to the kernel" {
	local args
	while IFS='|' read -r args msg; do
		# shellcheck disable=SC2086
		run -2 --separate-stderr "$SMC_FAKE" $args
		[ -z "$output" ]
		if [ "$stderr" != "$msg" ]; then
			echo "smc $args: got '$stderr', want '$msg'"
			return 1
		fi
	done <<'LIST'
info bogus|Command "bogus" is unknown, try "smc info help".
info show more|Error: unexpected argument "more", try "smc info help".
device bogus|Command "bogus" is unknown, try "smc device help".
device show bogus|Error: unexpected argument "bogus", try "smc device help".
device type|Error: "type" needs an argument, try "smc device help".
device type smcx|Error: type "smcx" is not smcd or smcr, try "smc device help".
device type smcd type smcr|Error: duplicate "type": "smcr" is the second value.
device netdev|Error: "netdev" needs an argument, try "smc device help".
device ibdev a ibdev b|Error: duplicate "ibdev": "b" is the second value.
device netdev abcdefghijklmnop|Error: interface name "abcdefghijklmnop" is invalid: it is longer than 15 characters
device ibdev iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii|Error: device name "iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii" is invalid: it is longer than 63 characters
device type smcd netdev lo|Error: netdev and ibdev select SMC-R devices, not type smcd.
linkgroup bogus|Error: "bogus" is neither a keyword nor a link group id (up to 8 hex digits), try "smc linkgroup help".
linkgroup show 123456789|Error: "123456789" is neither a keyword nor a link group id (up to 8 hex digits), try "smc linkgroup help".
linkgroup show 0x|Error: "0x" is neither a keyword nor a link group id (up to 8 hex digits), try "smc linkgroup help".
linkgroup show 0x1g|Error: "0x1g" is neither a keyword nor a link group id (up to 8 hex digits), try "smc linkgroup help".
linkgroup show -1|Error: "-1" is neither a keyword nor a link group id (up to 8 hex digits), try "smc linkgroup help".
linkgroup show all 1|Error: duplicate "LG-ID": "1" is the second value.
linkgroup show 1 2|Error: duplicate "LG-ID": "2" is the second value.
linkgroup ibdev|Error: "ibdev" needs an argument, try "smc linkgroup help".
linkgroup type smce|Error: type "smce" is not smcd or smcr, try "smc linkgroup help".
linkgroup netdev eth:0|Error: interface name "eth:0" is invalid: only printable characters but blank, '/' and ':' are allowed, not ':' at position 4
linkgroup link-show type smcd|Error: link-show, netdev and ibdev are for SMC-R link groups, not type smcd.
linkgroup show type smcd netdev lo|Error: link-show, netdev and ibdev are for SMC-R link groups, not type smcd.
LIST
	[ ! -e "$SMC_FAKE_LOG" ]
}

# ---------------------------------------- kernel without SMC, kernel errors

@test "host without SMC: info, device, linkgroup fail with 'SMC is not available', exit 1" {
	host_has_smc && skip "this host has SMC"
	not_available SMC_GEN_NETLINK info "-j info" device \
		"device show type smcr" linkgroup "linkgroup link-show" \
		"-j -p linkgroup show all"
}

@test "kernel errors: one line with the errno text and the extack, exit 1, no output" {
	export SMC_FAKE_EXTACK="try again later"
	SMC_FAKE_ERR="GET_SYS_INFO:$(errno_of ENOMEM)" \
		run -1 --separate-stderr "$SMC_FAKE" info
	[ -z "$output" ]
	[ "$stderr" = "Error: cannot read the SMC system information: Cannot allocate memory (kernel says: try again later)" ]
	SMC_FAKE_ERR="GET_DEV_SMCR:$(errno_of EIO)" \
		run -1 --separate-stderr "$SMC_FAKE" -j device
	[ -z "$output" ]
	[ "$stderr" = "Error: cannot read the SMC-R devices: Input/output error (kernel says: try again later)" ]
	SMC_FAKE_ERR="GET_LGR_SMCD:$(errno_of EPERM)" \
		run -1 --separate-stderr "$SMC_FAKE" linkgroup
	[ -z "$output" ]
	[ "$stderr" = "Error: cannot read the SMC-D link groups: Operation not permitted (kernel says: try again later)" ]
	unset SMC_FAKE_EXTACK
	# a kernel without the command (EOPNOTSUPP from generic netlink)
	SMC_FAKE_ERR="GET_LINK_SMCR:$(errno_of EOPNOTSUPP)" \
		run -1 --separate-stderr "$SMC_FAKE" linkgroup link-show
	[ -z "$output" ]
	[ "$stderr" = "Error: the running kernel cannot list the SMC-R link groups (generic netlink command 3 not supported)" ]
	SMC_FAKE_ERR="GET_DEV_SMCD:$(errno_of EOPNOTSUPP)" \
		run -1 --separate-stderr "$SMC_FAKE" info
	[ "$stderr" = "Error: the running kernel cannot list the SMC-D devices (generic netlink command 5 not supported)" ]
}

@test "info: a kernel that sends no system information is an error" {
	unset SMC_FAKE_SYSINFO
	run -1 --separate-stderr "$SMC_FAKE" info
	[ -z "$output" ]
	[ "$stderr" = "Error: the kernel sent no SMC system information" ]
}

# ------------------------------------------------------------------ info

@test "info: kernel and hardware capabilities" {
	run -0 --separate-stderr "$SMC_FAKE" info
	[ -z "$stderr" ]
	[ "$output" = "Kernel capabilities
  SMC version      2.1
  Hostname         lpar1
  SMC-D            v1 v2
  SMC-R            v1 v2

Hardware capabilities
  SEID             IBM-SYSZ-ISMSEID00000000D3B5
  ISM              v1 v2 (2 devices)
  RoCE             v1 v2 (2 devices)" ]
	# one dump each: system information, SMC-D and SMC-R devices
	[ "$(cat "$SMC_FAKE_LOG")" = "GET_SYS_INFO flags=0x301
GET_DEV_SMCD flags=0x301
GET_DEV_SMCR flags=0x301" ]
	run -0 "$SMC_FAKE" info show
	[[ "$output" == "Kernel capabilities"* ]]
}

@test "info: no devices, no v2, no host name or SEID" {
	export SMC_FAKE_SYSINFO="ver=1 rel=0"
	export SMC_FAKE_DEV_SMCD="" SMC_FAKE_DEV_SMCR=""
	run -0 "$SMC_FAKE" info
	[ "$output" = "Kernel capabilities
  SMC version      1.0
  Hostname         n/a
  SMC-D            v1
  SMC-R            v1

Hardware capabilities
  SEID             n/a
  ISM              n/a (0 devices)
  RoCE             n/a (0 devices)" ]
}

@test "info: ISM v2 without a listed device (loopback-ism); first generation RoCE Express is v1 only" {
	export SMC_FAKE_DEV_SMCD=""
	export SMC_FAKE_DEV_SMCR="ibname=mlx4_0 fid=0x10 vendor=0x15b3 device=0x1004 p1.netdev=1"
	run -0 "$SMC_FAKE" info
	[[ "$output" == *$'\n  ISM              v2 (0 devices)\n  RoCE             v1 (1 device)' ]]
}

@test "info -j: the documented keys" {
	run -0 "$SMC_FAKE" -j info
	[ "$output" = '[{"kernel":{"version":2,"release":1,"hostname":"lpar1","smcd":["v1","v2"],"smcr":["v1","v2"]},"hardware":{"seid":"IBM-SYSZ-ISMSEID00000000D3B5","ism":["v1","v2"],"roce":["v1","v2"],"smcd_devices":2,"smcr_devices":2}}]' ]
	export SMC_FAKE_SYSINFO="ver=1 rel=0" SMC_FAKE_DEV_SMCD="" SMC_FAKE_DEV_SMCR=""
	run -0 "$SMC_FAKE" -j info
	[ "$output" = '[{"kernel":{"version":1,"release":0,"hostname":null,"smcd":["v1"],"smcr":["v1"]},"hardware":{"seid":null,"ism":[],"roce":[],"smcd_devices":0,"smcr_devices":0}}]' ]
}

# ---------------------------------------------------------------- device

SMCD_TABLE='FID   Type           PCI-ID        PCHID  InUse   #LGs  PNET-ID
1234  ISM            0000:00:00.0  07c1   Yes        2  *NET1
1235  ISM            0001:00:00.0  07c2   No         0  -'
SMCR_HEAD='Net-Dev          IB-Dev    IB-P  IB-State  Type           Crit  FID   PCI-ID        PCHID  #Links  PNET-ID'
SMCR_MLX='lo               mlx5_0       1  ACTIVE    RoCE_Express2  Yes   0100  0100:00:00.0  0118        2  NET1'
SMCR_RXE='if999999         rxe0         1  INACTIVE  -              No    -     -             -           0  -'

@test "device: SMC-D and SMC-R devices, one row per port" {
	run -0 --separate-stderr "$SMC_FAKE" device
	[ -z "$stderr" ]
	[ "$output" = "SMC-D devices
$SMCD_TABLE

SMC-R devices
$SMCR_HEAD
$SMCR_MLX
$SMCR_RXE" ]
	run -0 "$SMC_FAKE" device show all
	[[ "$output" == "SMC-D devices"*"$SMCR_RXE" ]]
}

@test "device type: one table without a title, one request" {
	run -0 "$SMC_FAKE" device show type smcd
	[ "$output" = "$SMCD_TABLE" ]
	[ "$(cat "$SMC_FAKE_LOG")" = "GET_DEV_SMCD flags=0x301" ]
	run -0 "$SMC_FAKE" device type smcr all
	[ "$output" = "$SMCR_HEAD
$SMCR_MLX
$SMCR_RXE" ]
}

@test "device netdev, ibdev: SMC-R ports of that device only" {
	run -0 "$SMC_FAKE" device netdev lo
	[ "$output" = "$SMCR_HEAD
$SMCR_MLX" ]
	run -0 "$SMC_FAKE" device ibdev rxe0
	[ "$output" = "$SMCR_HEAD
$SMCR_RXE" ]
	run -0 "$SMC_FAKE" device ibdev rxe0 netdev lo
	[ "$output" = "$SMCR_HEAD" ]
	# no SMC-D request for an SMC-R filter
	! grep -q GET_DEV_SMCD "$SMC_FAKE_LOG"
}

@test "device: the second port of a two-port card" {
	export SMC_FAKE_DEV_SMCD=""
	export SMC_FAKE_DEV_SMCR="ibname=mlx5_1 fid=0x0200 chid=0x0119 vendor=0x15b3 device=0x101e pci_id=0200:00:00.0 p2.netdev=1 p2.pnetid=NETB p2.usr=1 p2.state=1 p2.links=1"
	run -0 "$SMC_FAKE" device type smcr
	[ "$output" = "$SMCR_HEAD
lo               mlx5_1       2  ACTIVE    RoCE_Express3  No    0200  0200:00:00.0  0119        1  *NETB" ]
}

@test "device -j: the documented keys" {
	run -0 "$SMC_FAKE" -j device
	python3 - "$output" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
assert len(d) == 4, d
assert d[0] == {"mode": "SMC-D", "pci_type": "ISM", "fid": "0x1234",
		"pci_id": "0000:00:00.0", "pchid": "0x07c1",
		"pci_vendor": "0x1014", "pci_device": "0x04ed",
		"in_use": True, "linkgroups": 2, "pnetid": "NET1",
		"pnetid_by_user": True}, d[0]
assert d[1]["in_use"] is False and d[1]["pnetid"] is None, d[1]
assert d[2] == {"mode": "SMC-R", "ibdev": "mlx5_0",
		"pci_type": "RoCE_Express2", "fid": "0x0100",
		"pci_id": "0100:00:00.0", "pchid": "0x0118",
		"pci_vendor": "0x15b3", "pci_device": "0x1016",
		"critical": True,
		"ports": [{"ibport": 1, "ifname": "lo", "interface": 1,
			   "state": "ACTIVE", "links": 2, "pnetid": "NET1",
			   "pnetid_by_user": False}]}, d[2]
assert d[3] == {"mode": "SMC-R", "ibdev": "rxe0", "pci_type": None,
		"fid": None, "pci_id": None, "pchid": None,
		"critical": False,
		"ports": [{"ibport": 1, "ifname": "if999999",
			   "interface": 999999, "state": "INACTIVE",
			   "links": 0, "pnetid": None,
			   "pnetid_by_user": False}]}, d[3]
PY
	# a filter leaves out devices without a matching port
	run -0 "$SMC_FAKE" -j device ibdev mlx5_0
	python3 -c 'import json, sys
d = json.loads(sys.argv[1])
assert [x["ibdev"] for x in d] == ["mlx5_0"], d' "$output"
	export SMC_FAKE_DEV_SMCD="" SMC_FAKE_DEV_SMCR=""
	run -0 "$SMC_FAKE" -j device
	[ "$output" = "[]" ]
}

@test "device -j -p: the same JSON, indented" {
	"$SMC_FAKE" -j device >"$BATS_TEST_TMPDIR/c.json"
	"$SMC_FAKE" -j -p device >"$BATS_TEST_TMPDIR/p.json"
	python3 -c 'import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a == b' "$BATS_TEST_TMPDIR/c.json" "$BATS_TEST_TMPDIR/p.json"
	[ "$(wc -l <"$BATS_TEST_TMPDIR/p.json")" -gt 40 ]
}

# ------------------------------------------------------------- linkgroup

LGR_R='LG-ID     LG-Role  LG-Type  VLAN  #Conns  PNET-ID
00000a01  SERV     SYM         0       3  NET1
deadbeef  CLNT     SINGLE    100       0  -'
LGR_D='LG-ID     VLAN  #Conns  PNET-ID
00000d01     0       5  -
00000d02     0       1  NET2'

@test "linkgroup: SMC-R and SMC-D link groups" {
	run -0 --separate-stderr "$SMC_FAKE" linkgroup
	[ -z "$stderr" ]
	[ "$output" = "SMC-R link groups
$LGR_R

SMC-D link groups
$LGR_D" ]
	# SMC-R link groups come with their links (for netdev and ibdev)
	[ "$(cat "$SMC_FAKE_LOG")" = "GET_LINK_SMCR flags=0x301
GET_LGR_SMCD flags=0x301" ]
	run -0 "$SMC_FAKE" linkgroup show all
	[[ "$output" == "SMC-R link groups"*"00000d02     0       1  NET2" ]]
}

@test "linkgroup type, LG-ID, netdev, ibdev" {
	run -0 "$SMC_FAKE" linkgroup show type smcr
	[ "$output" = "$LGR_R" ]
	run -0 "$SMC_FAKE" linkgroup type smcd
	[ "$output" = "$LGR_D" ]
	[ "$(tail -n1 "$SMC_FAKE_LOG")" = "GET_LGR_SMCD flags=0x301" ]
	# LG-ID in hex as shown, with or without 0x, any case
	run -0 "$SMC_FAKE" linkgroup show DEADBEEF type smcr
	[ "$output" = "LG-ID     LG-Role  LG-Type  VLAN  #Conns  PNET-ID
deadbeef  CLNT     SINGLE    100       0  -" ]
	run -0 "$SMC_FAKE" linkgroup 0xd02
	[ "$output" = "SMC-R link groups
LG-ID     LG-Role  LG-Type  VLAN  #Conns  PNET-ID

SMC-D link groups
LG-ID     VLAN  #Conns  PNET-ID
00000d02     0       1  NET2" ]
	# netdev and ibdev: SMC-R link groups with a link there
	run -0 "$SMC_FAKE" linkgroup netdev if999999
	[ "$output" = "LG-ID     LG-Role  LG-Type  VLAN  #Conns  PNET-ID
00000a01  SERV     SYM         0       3  NET1" ]
	run -0 "$SMC_FAKE" linkgroup ibdev mlx4_9
	[ "$output" = "LG-ID     LG-Role  LG-Type  VLAN  #Conns  PNET-ID" ]
}

@test "linkgroup -d: v2 peer, EID, limits and buffers under each link group" {
	run -0 "$SMC_FAKE" -d linkgroup
	[ "$output" = "SMC-R link groups
LG-ID     LG-Role  LG-Type  VLAN  #Conns  PNET-ID
00000a01  SERV     SYM         0       3  NET1
    version 2 peer_release 1 peer_os LINUX peer_host peer1 eid SMCV2-EID direct yes max_conns 255 max_links 3 sndbuf_alloc 65536 rmb_alloc 131072
deadbeef  CLNT     SINGLE    100       0  -
    version 1 sndbuf_alloc 0 rmb_alloc 0

SMC-D link groups
LG-ID     VLAN  #Conns  PNET-ID
00000d01     0       5  -
    gid 0x0000000000001111 gid_ext 0x0000000000000000 peer_gid 0x0000000000002222 peer_gid_ext 0x0000000000000000 chid 0xffff
    version 2 peer_release 1 peer_os LINUX peer_host peer2 eid EID2 sndbuf_alloc 16384 dmb_alloc 32768
00000d02     0       1  NET2
    gid 0x0000000000000000 gid_ext 0x0000000000000000 peer_gid 0x0000000000000000 peer_gid_ext 0x0000000000000000 chid 0x0000
    version 1 sndbuf_alloc 0 dmb_alloc 0" ]
}

LINK_HEAD='LG-ID     LG-Role  LG-Type  Net-Dev          Link-State       #Conns  Link-UID  Peer-UID  IB-Dev    IB-P  Local-GID                                Peer-GID'
LINK1='00000a01  SERV     SYM      lo               LINK_ACTIVE           2  0a010001  0b020001  mlx5_0       1  fe80:0000:0000:0000:0000:0000:0000:0001  fe80:0000:0000:0000:0000:0000:0000:0002'
LINK2='00000a01  SERV     SYM      if999999         LINK_ACTIVATING       1  0a010002  0b020002  rxe0         1  ::1                                      ::2'

@test "linkgroup link-show: the links of the SMC-R link groups" {
	run -0 --separate-stderr "$SMC_FAKE" linkgroup link-show
	[ -z "$stderr" ]
	[ "$output" = "$LINK_HEAD
$LINK1
$LINK2" ]
	[ "$(cat "$SMC_FAKE_LOG")" = "GET_LINK_SMCR flags=0x301" ]
	run -0 "$SMC_FAKE" linkgroup link-show a01 ibdev rxe0
	[ "$output" = "$LINK_HEAD
$LINK2" ]
	run -0 "$SMC_FAKE" linkgroup link-show netdev lo type smcr
	[ "$output" = "$LINK_HEAD
$LINK1" ]
	run -0 "$SMC_FAKE" linkgroup link-show deadbeef
	[ "$output" = "$LINK_HEAD" ]
}

@test "linkgroup -j: the documented keys" {
	run -0 "$SMC_FAKE" -j linkgroup
	python3 - "$output" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
assert [(g["mode"], g["id"]) for g in d] == [("SMC-R", "0x00000a01"),
	("SMC-R", "0xdeadbeef"), ("SMC-D", "0x00000d01"),
	("SMC-D", "0x00000d02")], d
link1 = {"link_id": 1, "state": "LINK_ACTIVE", "connections": 2,
	 "ifname": "lo", "interface": 1, "link_uid": "0x0a010001",
	 "peer_link_uid": "0x0b020001", "ibdev": "mlx5_0", "ibport": 1,
	 "gid": "fe80:0000:0000:0000:0000:0000:0000:0001",
	 "peer_gid": "fe80:0000:0000:0000:0000:0000:0000:0002"}
g = d[0]
assert g == {"mode": "SMC-R", "id": "0x00000a01", "role": "server",
	     "type": "SYM", "vlan": 0, "connections": 3, "pnetid": "NET1",
	     "version": 2, "peer_release": 1, "peer_os": "LINUX",
	     "peer_hostname": "peer1", "eid": "SMCV2-EID", "direct": True,
	     "max_connections": 255, "max_links": 3, "sndbuf_alloc": 65536,
	     "rmb_alloc": 131072, "links": [link1, g["links"][1]]}, g
assert g["links"][1]["ifname"] == "if999999", g
assert d[1] == {"mode": "SMC-R", "id": "0xdeadbeef", "role": "client",
		"type": "SINGLE", "vlan": 100, "connections": 0,
		"pnetid": None, "version": 1, "sndbuf_alloc": 0,
		"rmb_alloc": 0, "links": []}, d[1]
assert d[2] == {"mode": "SMC-D", "id": "0x00000d01", "vlan": 0,
		"connections": 5, "pnetid": None, "version": 2,
		"peer_release": 1, "peer_os": "LINUX",
		"peer_hostname": "peer2", "eid": "EID2",
		"sndbuf_alloc": 16384, "dmb_alloc": 32768,
		"gid": "0x0000000000001111", "gid_ext": "0x0000000000000000",
		"peer_gid": "0x0000000000002222",
		"peer_gid_ext": "0x0000000000000000", "chid": "0xffff"}, d[2]
assert d[3]["pnetid"] == "NET2" and d[3]["version"] == 1, d[3]
PY
}

@test "linkgroup link-show -j: one object per link with its link group" {
	run -0 "$SMC_FAKE" -j linkgroup link-show ibdev mlx5_0
	python3 - "$output" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
assert d == [{"mode": "SMC-R", "id": "0x00000a01", "role": "server",
	      "type": "SYM", "link_id": 1, "state": "LINK_ACTIVE",
	      "connections": 2, "ifname": "lo", "interface": 1,
	      "link_uid": "0x0a010001", "peer_link_uid": "0x0b020001",
	      "ibdev": "mlx5_0", "ibport": 1,
	      "gid": "fe80:0000:0000:0000:0000:0000:0000:0001",
	      "peer_gid": "fe80:0000:0000:0000:0000:0000:0000:0002"}], d
PY
	"$SMC_FAKE" -j linkgroup >"$BATS_TEST_TMPDIR/c.json"
	"$SMC_FAKE" -p -j linkgroup >"$BATS_TEST_TMPDIR/p.json"
	python3 -c 'import json, sys
a, b = (json.load(open(f)) for f in sys.argv[1:])
assert a == b' "$BATS_TEST_TMPDIR/c.json" "$BATS_TEST_TMPDIR/p.json"
}

@test "linkgroup: no link groups at all" {
	export SMC_FAKE_LGR_SMCR="" SMC_FAKE_LGR_SMCD=""
	run -0 "$SMC_FAKE" -j linkgroup
	[ "$output" = "[]" ]
	run -0 "$SMC_FAKE" linkgroup link-show
	[ "$output" = "$LINK_HEAD" ]
}

# ------------------------------------------------------------ stats reset

# counters of the fake kernel at the reset (A) and later (B)
STATS_A="smcd.CLNT_V2_SUCC=3 smcd.TX_BYTES=1000 smcd.RX_RMB_USAGE=500 smcr.TX_RMB_SIZE.8K=4 CLNT_HS_ERR_CNT=1"
FBACK_A="srv_cnt=2 clnt_cnt=1 clnt:0x03010000:1 srv:0x03030008:2"
STATS_B="smcd.CLNT_V2_SUCC=10 smcd.TX_BYTES=5000 smcd.RX_RMB_USAGE=300 smcr.TX_RMB_SIZE.8K=6 CLNT_HS_ERR_CNT=1"
FBACK_B="srv_cnt=5 clnt_cnt=1 clnt:0x03010000:1 srv:0x03030008:5"

# stats_json A|B [ARGS...]: smc -j ARGS stats ... against counters A or B
stats_json() {
	local which=$1
	shift
	if [ "$which" = A ]; then
		SMC_FAKE_STATS=$STATS_A SMC_FAKE_FBACK=$FBACK_A "$SMC_FAKE" -j "$@"
	else
		SMC_FAKE_STATS=$STATS_B SMC_FAKE_FBACK=$FBACK_B "$SMC_FAKE" -j "$@"
	fi
}

# check_stats JSON V2 TXBYTES INUSE SIZE8K HSERR FBSRV FBCLNT REASONS:
# the counters that A and B set, REASONS as "role:code:count ..."
check_stats() {
	python3 - "$@" <<'PY'
import json, sys
j, v2, tx, inuse, s8k, hs, fbs, fbc, reasons = sys.argv[1:]
s = json.loads(j)[0]
got = (s["smcd"]["client"]["v2_success"], s["smcd"]["tx_bytes"],
       s["smcd"]["rx_buffer_bytes_in_use"], s["smcr"]["tx_buffer_sizes"]["le_8k"],
       s["handshake_errors"]["client"], s["fallback"]["server"],
       s["fallback"]["client"],
       " ".join("%s:%s:%d" % (r["role"], r["code"], r["count"])
		for r in s["fallback"]["reasons"]))
want = (int(v2), int(tx), int(inuse), int(s8k), int(hs), int(fbs), int(fbc),
	reasons)
assert got == want, (got, want)
PY
}

@test "stats reset: later runs count from the reset, -a from the start" {
	export SMC_STATS_DIR=$BATS_TEST_TMPDIR
	# no reset yet: the kernel's counters, and reset prints those
	run -0 --separate-stderr stats_json A stats reset
	[ -z "$stderr" ]
	check_stats "$output" 3 1000 500 4 1 2 1 "server:0x03030008:2 client:0x03010000:1"
	# since the reset: B - A; bytes in use are a level, not subtracted;
	# a reason that did not happen since is left out
	run -0 --separate-stderr stats_json B stats
	[ -z "$stderr" ]
	check_stats "$output" 7 4000 300 2 0 3 0 "server:0x03030008:3"
	run -0 stats_json B stats show
	check_stats "$output" 7 4000 300 2 0 3 0 "server:0x03030008:3"
	# -a, -absolute: the kernel's
	run -0 stats_json B -a stats
	check_stats "$output" 10 5000 300 6 1 5 1 "server:0x03030008:5 client:0x03010000:1"
	run -0 stats_json B --absolute stats
	check_stats "$output" 10 5000 300 6 1 5 1 "server:0x03030008:5 client:0x03010000:1"
	# text too
	run -0 env SMC_FAKE_STATS="$STATS_B" SMC_FAKE_FBACK="$FBACK_B" "$SMC_FAKE" stats
	[[ "$(tr -s ' ' <<<"$output")" == *$'SMC-D\n Connections 7 (client 7, server 0)'* ]]
	# a second reset prints B - A, then counts from B
	run -0 stats_json B stats reset
	check_stats "$output" 7 4000 300 2 0 3 0 "server:0x03030008:3"
	run -0 stats_json B stats
	check_stats "$output" 0 0 300 0 0 0 0 ""
}

@test "stats reset: one state per user and network namespace, a file of the user only" {
	export SMC_STATS_DIR=$BATS_TEST_TMPDIR/d
	mkdir "$SMC_STATS_DIR"
	run -0 stats_json A stats reset
	local f
	f="$SMC_STATS_DIR/.smc-stats.u$(id -u).net$(stat -L -c %i /proc/self/ns/net)"
	[ "$(ls -A "$SMC_STATS_DIR")" = "${f##*/}" ]
	[ "$(stat -c %a "$f")" = 600 ]
	[ "$(head -n1 "$f" | cut -d' ' -f1-5)" = "smc-dump stats reset state 1" ]
	# never through a symlink
	rm "$f"
	ln -s "$BATS_TEST_TMPDIR/target" "$f"
	run -1 --separate-stderr stats_json B stats reset
	[ -z "$output" ]
	[ "$stderr" = "Error: the reset state $f cannot be opened: Too many levels of symbolic links" ]
	[ ! -e "$BATS_TEST_TMPDIR/target" ]
	# show does not fail for it (another user could have put it in /tmp)
	run -0 --separate-stderr stats_json B stats
	[ "$stderr" = "Warning: the reset state $f cannot be opened: Too many levels of symbolic links; the counters are the kernel's" ]
	check_stats "$output" 10 5000 300 6 1 5 1 "server:0x03030008:5 client:0x03010000:1"
	# nor is a file that is not a regular file used
	rm "$f"
	mkfifo "$f"
	run -1 --separate-stderr stats_json B stats reset
	[ "$stderr" = "Error: the reset state $f is not a file of this user" ]
	run -0 --separate-stderr timeout 10 bash -c "$(declare -f stats_json); STATS_B='$STATS_B' FBACK_B='$FBACK_B' stats_json B stats"
	[ "$stderr" = "Warning: the reset state $f is not a file of this user; the counters are the kernel's" ]
}

@test "stats reset: stale or malformed state: a warning, the kernel's counters" {
	export SMC_STATS_DIR=$BATS_TEST_TMPDIR
	run -0 stats_json B stats reset
	# counters below the reset: the module was reloaded
	run -0 --separate-stderr stats_json A stats
	[ "$stderr" = "Warning: the counters are below those of the last reset (smc module reloaded?); they are the kernel's" ]
	check_stats "$output" 3 1000 500 4 1 2 1 "server:0x03030008:2 client:0x03010000:1"
	local f
	f="$SMC_STATS_DIR/.smc-stats.u$(id -u).net$(stat -L -c %i /proc/self/ns/net)"
	echo "something else" >"$f"
	run -0 --separate-stderr stats_json B stats
	[ "$stderr" = "Warning: ignoring the malformed reset state $f; the counters are the kernel's" ]
	check_stats "$output" 10 5000 300 6 1 5 1 "server:0x03030008:5 client:0x03010000:1"
	# a reset writes a good one again
	run -0 stats_json B stats reset
	run -0 --separate-stderr stats_json B stats
	[ -z "$stderr" ]
	check_stats "$output" 0 0 300 0 0 0 0 ""
}

@test "stats reset: nothing is reset when the kernel fails or the arguments are wrong" {
	export SMC_STATS_DIR=$BATS_TEST_TMPDIR/d
	mkdir "$SMC_STATS_DIR"
	SMC_FAKE_ERR="GET_FBACK_STATS:$(errno_of EIO)" \
		run -1 --separate-stderr stats_json A stats reset
	[ -z "$output" ]
	[ "$stderr" = "Error: cannot read the SMC fallback statistics: Input/output error" ]
	[ -z "$(ls -A "$SMC_STATS_DIR")" ]
	run -2 --separate-stderr stats_json A stats reset now
	[ "$stderr" = 'Error: unexpected argument "now", try "smc stats help".' ]
	run -2 --separate-stderr stats_json A stats res
	[ "$stderr" = 'Command "res" is unknown, try "smc stats help".' ]
	[ -z "$(ls -A "$SMC_STATS_DIR")" ]
	run -0 "$SMC_FAKE" stats help
	[[ "$output" == "Usage: smc [ -j [ -p ] ] [ -d ] [ -a ] stats [ show | reset ]"* ]]
}
