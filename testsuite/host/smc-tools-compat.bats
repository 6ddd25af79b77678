#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of smc-dump's entry points with smc-tools' names: smcd, smcr
# and smc_pnet, links to smc that take smc-tools 1.8.5's command lines and
# print its formats, so that scripts written for smc-tools run unchanged.
# The smc command is linked with helpers/fake_genl.c (the host has no SMC)
# and run through links of those names. The expected outputs are in
# compat/smc-tools/, written by hand from smc-tools' printf formats for the
# fake state below (compat/smc-tools/README names the function of each);
# the messages and exit codes are smc-tools' (exit(-1) is 255, as is a
# failed request of smcd and smcr: their main() negates EXIT_FAILURE).

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_fake || return 1
	export BIN="$T/bin" G="$BATS_TEST_DIRNAME/compat/smc-tools"
	mkdir -p "$BIN"
	local n
	for n in smcd smcr smc_pnet; do
		ln -sf "$SMC_FAKE" "$BIN/$n"
	done
}

# Two ISM devices (the first in use by 2 link groups, its PNET ID set by
# the user), a RoCE Express2 card with two ports and a RoCE Express card,
# all on lo (ifindex 1 in every network namespace); two SMC-R link groups
# (the first v2 with two links, ids as the kernel makes them: multiples of
# 256) and two SMC-D link groups (the first v2).
setup() {
	export SMC_FAKE_LOG="$BATS_TEST_TMPDIR/requests"
	export SMC_FAKE_TABLE="$BATS_TEST_TMPDIR/ueids"
	export SMC_FAKE_PNET="$BATS_TEST_TMPDIR/pnet"
	export SMC_FAKE_SEID_STATE="$BATS_TEST_TMPDIR/seid"
	unset SMC_FAKE_ERR SMC_FAKE_EXTACK SMC_FAKE_UNPRIV SMC_FAKE_S390 \
		SMC_FAKE_SEID SMC_FAKE_PNET_HW SMC_FAKE_INIT_NET
	export SMC_FAKE_SYSINFO="ver=2 rel=1 ism_v2=1 smcr_v2=1 host=lpar1 seid=IBM-SYSZ-ISMSEID00000000D3B58561"
	export SMC_FAKE_DEV_SMCD="use=2 fid=0x1234 chid=0x07c1 vendor=0x1014 device=0x04ed pci_id=0000:00:00.0 pnetid=NET1 usr=1;use=0 fid=0x1235 chid=0x07c2 vendor=0x1014 device=0x04ed pci_id=0001:00:00.0"
	export SMC_FAKE_DEV_SMCR="ibname=mlx5_0 crit=1 fid=0x0100 chid=0x0118 vendor=0x15b3 device=0x1016 pci_id=0100:00:00.0 p1.netdev=1 p1.pnetid=NET1 p1.state=1 p1.links=2 p2.netdev=1 p2.state=0;ibname=mlx4_0 crit=0 fid=0x0200 chid=0x0119 vendor=0x15b3 device=0x1004 pci_id=0200:00:00.0 p1.netdev=1 p1.pnetid=NET2 p1.usr=1 p1.state=0"
	local g=fe80:0000:0000:0000:0000:0000:0000:000
	export SMC_FAKE_LGR_SMCR="id=0x00000a00 role=1 type=2 vlan=0 conns=3 pnetid=NET1 sndbuf=65536 rmb=131072 ver=2 rel=1 os=2 host=peer1 eid=SMCV2-EID direct=1 max_conns=255 max_links=3 l1.ibdev=mlx5_0 l1.id=1 l1.state=3 l1.conns=2 l1.port=1 l1.netdev=1 l1.uid=0x0a000001 l1.peer_uid=0x0b000001 l1.gid=${g}1 l1.peer_gid=${g}2 l2.ibdev=mlx4_0 l2.id=2 l2.state=2 l2.conns=1 l2.port=1 l2.netdev=1 l2.uid=0x0a000002 l2.peer_uid=0x0b000002 l2.gid=${g}3 l2.peer_gid=${g}4;id=0x00000b00 role=0 type=1 vlan=100 conns=1 pnetid=NET2 sndbuf=16384 rmb=65536 l1.ibdev=mlx4_0 l1.id=1 l1.state=1 l1.conns=0 l1.port=1 l1.netdev=1 l1.uid=0x0a000101 l1.peer_uid=0x0b000101 l1.gid=${g}5 l1.peer_gid=${g}6"
	export SMC_FAKE_LGR_SMCD="id=0x00000d01 gid=0x1111 peer_gid=0x2222 vlan=0 conns=5 chid=0xffff pnetid=NET1 sndbuf=16384 dmb=32768 ver=2 rel=1 os=2 host=peer2 eid=EID2;id=0x00000d02 vlan=3 conns=1 pnetid=NET2 sndbuf=8192 dmb=8192"
}

# golden FILE STATUS TOOL ARGS...: TOOL ARGS exits STATUS with standard
# output compat/smc-tools/FILE byte for byte and nothing on standard error
golden() {
	local file=$1 status=$2 tool=$3 rc=0
	shift 3
	"$BIN/$tool" "$@" >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" || rc=$?
	if [ "$rc" -ne "$status" ] || ! cmp -s "$G/$file" "$BATS_TEST_TMPDIR/out" ||
		[ -s "$BATS_TEST_TMPDIR/err" ]; then
		echo "$tool $*: exit $rc (want $status)"
		diff -u "$G/$file" "$BATS_TEST_TMPDIR/out" | cat -A
		cat "$BATS_TEST_TMPDIR/err"
		return 1
	fi
}

# ueids EID...: the fake's UEID table with these entries, blank padded
ueids() {
	local e
	: >"$SMC_FAKE_TABLE"
	for e in "$@"; do
		python3 -c 'import sys; print(sys.argv[1].encode().ljust(32).hex())' "$e" \
			>>"$SMC_FAKE_TABLE"
	done
}

# ------------------------------------------------------------------ info

@test "smcd info, smcr info: smc-tools' capabilities, with and without show" {
	golden info.out 0 smcd info
	golden info.out 0 smcr info show
	golden info.out 0 smcd i sh
	# a v1 kernel without host name and SEID, no ISM, one RoCE Express
	export SMC_FAKE_SYSINFO="ver=1 rel=0 ism_v2=0 smcr_v2=0"
	export SMC_FAKE_DEV_SMCD=""
	export SMC_FAKE_DEV_SMCR="ibname=mlx4_0 fid=0x0200 chid=0x0119 vendor=0x15b3 device=0x1004 pci_id=0200:00:00.0 p1.netdev=1"
	golden info-v1.out 0 smcr info
}

@test "smcd info: usage errors on stderr, exit 255, nothing asked" {
	local args
	for args in "info help" "info bogus" "info show show"; do
		# shellcheck disable=SC2086
		run -255 --separate-stderr "$BIN/smcd" $args
		[ -z "$output" ]
		[ "$stderr" = "Usage: smcd info [show]" ]
	done
	run -255 --separate-stderr "$BIN/smcr" info x
	[ "$stderr" = "Usage: smcr info [show]" ]
	[ ! -e "$SMC_FAKE_LOG" ]
}

# --------------------------------------------------------------- device

@test "smcd device, smcr device: smc-tools' columns, -d, filters" {
	golden smcd-device.out 0 smcd device
	golden smcd-device.out 0 smcd d show all
	golden smcr-device.out 0 smcr device
	golden smcr-device.out 0 smcr dev netdev lo
	golden smcr-device-d.out 0 smcr -d device
	golden smcr-device-d.out 0 smcr --details device show
	golden smcr-device-ibdev.out 0 smcr device ibdev mlx4_0
	golden smcr-device-ibdev.out 0 smcr d sh all i mlx4_0
}

@test "smcd device, smcr device: no device, no header (smc-tools prints it with the first one)" {
	# a filter that matches nothing prints the header only
	run -0 "$BIN/smcr" device netdev nosuchif0
	[ "$output" = "Net-Dev         IB-Dev   IB-P  IB-State  Type          Crit  #Links  PNET-ID  " ]
	export SMC_FAKE_DEV_SMCD="" SMC_FAKE_DEV_SMCR=""
	run -0 --separate-stderr "$BIN/smcd" device
	[ -z "$output" ] && [ -z "$stderr" ]
	run -0 --separate-stderr "$BIN/smcr" device
	[ -z "$output" ] && [ -z "$stderr" ]
}

@test "smcd device, smcr device: usage errors exit 255 with the usage" {
	run -255 --separate-stderr "$BIN/smcd" device ibdev mlx5_0
	[ -z "$output" ]
	[ "$stderr" = "Usage: smcd device [show] [all]" ]
	run -255 --separate-stderr "$BIN/smcd" device help
	[ "$stderr" = "Usage: smcd device [show] [all]" ]
	run -255 --separate-stderr "$BIN/smcr" device netdev lo extra
	[ "${stderr%%$'\n'*}" = "Usage: smcr device [show] [all]" ]
	run -255 "$BIN/smcr" device a b c d e
	[ ! -e "$SMC_FAKE_LOG" ]
}

# ------------------------------------------------------------ linkgroup

@test "smcd linkgroup: smc-tools' columns, details with -d, LG-ID filter" {
	golden smcd-linkgroup.out 0 smcd linkgroup
	golden smcd-linkgroup.out 0 smcd l show all
	golden smcd-linkgroup-d.out 0 smcd -d linkgroup
	golden smcd-linkgroup-id.out 0 smcd linkgroup d02
	golden smcd-linkgroup-id.out 0 smcd l show 0xd02
}

@test "smcr linkgroup: show, details, link-show at each detail level, filters" {
	golden smcr-linkgroup.out 0 smcr linkgroup
	golden smcr-linkgroup.out 0 smcr l s all
	golden smcr-linkgroup-d.out 0 smcr -d linkgroup
	golden smcr-linkgroup-d.out 0 smcr -dd linkgroup show
	# the link number in the LG-ID's low byte is ignored
	golden smcr-linkgroup-id.out 0 smcr linkgroup b00
	golden smcr-linkgroup-id.out 0 smcr linkgroup show b02
	golden smcr-link.out 0 smcr linkgroup link-show
	golden smcr-link.out 0 smcr l l
	golden smcr-link-d.out 0 smcr -d linkgroup link-show
	golden smcr-link-dd.out 0 smcr -dd linkgroup link-show
	golden smcr-link-ibdev.out 0 smcr linkgroup link-show ibdev mlx4_0
	golden smcr-link.out 0 smcr linkgroup link-show netdev lo
}

@test "linkgroup: no link group, no header; usage errors exit 255" {
	export SMC_FAKE_LGR_SMCR="" SMC_FAKE_LGR_SMCD=""
	run -0 --separate-stderr "$BIN/smcd" linkgroup
	[ -z "$output" ] && [ -z "$stderr" ]
	run -0 --separate-stderr "$BIN/smcr" linkgroup link-show
	[ -z "$output" ] && [ -z "$stderr" ]
	run -255 --separate-stderr "$BIN/smcd" linkgroup help
	[ "$stderr" = "Usage: smcd linkgroup [show] [all | LG-ID]" ]
	run -255 --separate-stderr "$BIN/smcr" linkgroup all bogus
	[ "${stderr%%$'\n'*}" = "Usage: smcr linkgroup [show | link-show] [all | LG-ID]" ]
	run -255 "$BIN/smcd" linkgroup 1 2
}

@test "a failed request: smc-tools' error line, exit 255" {
	SMC_FAKE_ERR="GET_LGR_SMCD:$(python3 -c 'import errno; print(errno.EPERM)')"
	export SMC_FAKE_ERR
	run -255 --separate-stderr "$BIN/smcd" linkgroup
	[ -z "$output" ]
	[ "$stderr" = "Error: Operation not permitted" ]
	SMC_FAKE_ERR="GET_SYS_INFO:$(python3 -c 'import errno; print(errno.EOPNOTSUPP)')"
	run -255 --separate-stderr "$BIN/smcr" info
	[ "$stderr" = "Error: Operation not supported by kernel" ]
}

# ----------------------------------------------------------------- ueid

@test "ueid: add, show (as the kernel pads them), del, flush" {
	ueids SMC-EID-1
	run -0 --separate-stderr "$BIN/smcd" ueid add MY.EID-2
	[ -z "$output" ] && [ -z "$stderr" ]
	golden ueid.out 0 smcd ueid
	golden ueid.out 0 smcr ueid show
	run -0 "$BIN/smcr" ueid del MY.EID-2
	run -0 "$BIN/smcd" u f
	run -0 --separate-stderr "$BIN/smcd" ueid
	[ -z "$output" ] && [ -z "$stderr" ]
}

@test "ueid: smc-tools' checks and the kernel's refusals, exit 255" {
	ueids SMC-EID-1
	run -255 --separate-stderr "$BIN/smcd" ueid add SMC-EID-1
	[ "$stderr" = "Error: specified User EID is already defined" ]
	run -255 --separate-stderr "$BIN/smcd" ueid del NOPE
	[ "$stderr" = "Error: specified User EID is not defined" ]
	run -255 --separate-stderr "$BIN/smcd" ueid add -X
	[ "$stderr" = "Error: Invalid User EID specified: first character must be alphanumeric" ]
	run -255 --separate-stderr "$BIN/smcd" ueid add A..B
	[ "$stderr" = "Error: Invalid User EID specified: consecutive dots not allowed" ]
	run -255 --separate-stderr "$BIN/smcr" ueid add Ab
	[ "$stderr" = "Error: Invalid User EID specified: unsupported character: 'b'
       Supported characters are: A-Z, 0-9, '.' and '-'" ]
	run -255 --separate-stderr "$BIN/smcd" ueid add ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456
	[ "$stderr" = "Error: Invalid User EID specified: EID is longer than 32 characters" ]
	# the usage says smcd for smcr too, as smc-tools' ueid.c
	run -255 --separate-stderr "$BIN/smcr" ueid add
	[ "${stderr%%$'\n'*}" = "Usage: smcd ueid [show]" ]
	run -255 "$BIN/smcd" ueid flush now
	# the EID is checked before what follows it
	run -255 --separate-stderr "$BIN/smcd" ueid add -X extra
	[ "$stderr" = "Error: Invalid User EID specified: first character must be alphanumeric" ]
	run -255 --separate-stderr "$BIN/smcd" ueid add GOOD extra
	[ "${stderr%%$'\n'*}" = "Usage: smcd ueid [show]" ]
	# s390: the last UEID removed enables the SEID: an Info line, exit 255
	export SMC_FAKE_S390=1
	run -255 --separate-stderr "$BIN/smcd" ueid del SMC-EID-1
	[ "$stderr" = "Info: the System EID was activated because the last User EID was removed" ]
	[ ! -s "$SMC_FAKE_TABLE" ]
}

# ----------------------------------------------------------------- seid

@test "smcd seid: show, enable and disable on s390; n/a without ISM v2" {
	export SMC_FAKE_S390=1 SMC_FAKE_SEID=IBM-SYSZ-ISMSEID00000000D3B58561
	golden seid-enabled.out 0 smcd seid
	# disable needs a UEID (ENOENT otherwise)
	run -255 --separate-stderr "$BIN/smcd" seid disable
	[ -z "$output" ]
	[ "$stderr" = "Error: System EID cannot be disabled because no User EID is defined" ]
	ueids SMC-EID-1
	run -0 "$BIN/smcd" seid disable
	golden seid-disabled.out 0 smcd seid show
	run -0 "$BIN/smcd" se e
	golden seid-enabled.out 0 smcd seid
	unset SMC_FAKE_SEID
	golden seid-na.out 0 smcd seid
	# enable without a SEID: smc-tools says so on stdout
	run -255 --separate-stderr "$BIN/smcd" seid enable
	[ "$output" = "Error: System EID not available" ]
	[ -z "$stderr" ]
}

@test "smcd seid off s390: enable and disable not supported; usage; smcr has none" {
	export SMC_FAKE_SEID=IBM-SYSZ-ISMSEID00000000D3B58561
	golden seid-disabled.out 0 smcd seid
	run -255 --separate-stderr "$BIN/smcd" seid enable
	[ "$stderr" = "Error: operation not supported by kernel" ]
	run -255 --separate-stderr "$BIN/smcd" seid disable
	[ "$stderr" = "Error: operation not supported by kernel" ]
	run -255 --separate-stderr "$BIN/smcd" seid bogus
	[ "$stderr" = "Usage: smcd seid [show]
       smcd seid enable
       smcd seid disable" ]
	# one command only; nothing after show
	run -255 --separate-stderr "$BIN/smcd" seid enable disable
	[ "${stderr%%$'\n'*}" = "Usage: smcd seid [show]" ]
	run -255 "$BIN/smcd" seid show enable
	run -1 --separate-stderr "$BIN/smcr" seid
	[ "$stderr" = 'Error: Object "seid" is valid for SMC-D only, try "smcr help".' ]
}

# ------------------------------------------------------ options, objects

@test "options and objects: smc-tools' messages and exit codes" {
	run -255 --separate-stderr "$BIN/smcd" -x info
	[ "$stderr" = 'Error: Option "-x" is unknown, try "smcd help".' ]
	run -255 --separate-stderr "$BIN/smcr" --bogus info
	[ "$stderr" = 'Error: Option "-bogus" is unknown, try "smcr help".' ]
	run -1 --separate-stderr "$BIN/smcd" bogus
	[ "$stderr" = 'Error: Object "bogus" is unknown, try "smcd help".' ]
	# usage on stderr, exit 0: no object, help, -h
	local args
	for args in "" help -h --help; do
		# shellcheck disable=SC2086
		run -0 --separate-stderr "$BIN/smcd" $args
		[ -z "$output" ]
		[ "${stderr%%$'\n'*}" = "Usage: smcd  [ OPTIONS ] OBJECT {COMMAND | help}" ]
		[[ "$stderr" == *"{info | linkgroup | device | stats | ueid | seid}"* ]]
	done
	run -0 --separate-stderr "$BIN/smcr" help
	[[ "$stderr" == *"{info | linkgroup | device | stats | ueid}"* ]]
	[[ "$stderr" == *"-dd[etails]"* ]]
	run -255 --separate-stderr "$BIN/smcd" -v
	[[ "$stderr" == "smcd utility, smc-dump-"* ]]
	[ ! -e "$SMC_FAKE_LOG" ]
}

@test "a script with smc-tools' abbreviations runs unchanged" {
	# smcd l, smcr d, smcd -d l, smcr -dd l l, smcd i, smcd u, smcd se
	golden smcd-linkgroup.out 0 smcd l
	golden smcr-device.out 0 smcr d
	golden smcd-linkgroup-d.out 0 smcd -d l
	golden smcd-linkgroup-d.out 0 smcd -det l
	golden smcr-link-dd.out 0 smcr -dd l l
	golden info.out 0 smcd i
	stats_state
	golden smcd-stats-d.out 0 smcd -d stats
	# "-a" and "-ad" (for stats) turn -d's details off again, as there
	golden smcr-device.out 0 smcr -d -a d
	golden smcr-device.out 0 smcr -ad d
	# "--" ends the options
	golden smcr-device.out 0 smcr -- d
}

# SMC-D traffic, handshake errors, fallbacks of both roles (kernel order:
# the items of SMC_FAKE_FBACK), 2 SMC-R client connections
stats_state() {
	export SMC_STATS_DIR="$BATS_TEST_TMPDIR"
	export SMC_FAKE_STATS="smcd.CLNT_V1_SUCC=3 smcd.CLNT_V2_SUCC=10 smcd.SRV_V2_SUCC=7 smcd.RX_BYTES=123456789 smcd.TX_BYTES=999 smcd.RX_CNT=40 smcd.TX_CNT=60 smcd.RX_RMB_USAGE=65536 smcd.SENDPAGE_CNT=1 smcd.CORK_CNT=2 smcd.NDLY_CNT=3 smcd.SPLICE_CNT=4 smcd.URG_DATA_CNT=5 smcd.TX_RMB_STATS.FULL_CNT=6 smcd.TX_RMB_STATS.FULL_PEER_CNT=3 smcd.TX_RMB_STATS.SIZE_SM_CNT=1 smcd.TX_RMB_STATS.SIZE_SM_PEER_CNT=2 smcd.TX_RMB_STATS.REUSE_CNT=8 smcd.TX_RMB_STATS.DGRADE_CNT=9 smcd.RX_RMB_STATS.FULL_CNT=7 smcd.RX_RMB_STATS.REUSE_CNT=11 smcd.RX_RMB_STATS.DGRADE_CNT=12 smcd.RX_RMB_SIZE.16K=20 smcd.RX_RMB_SIZE.1024K=999 smcd.RX_RMB_SIZE.G_1024K=1 smcd.RXPLOAD_SIZE.8K=1234 smcd.RXPLOAD_SIZE.64K=999999 smcd.TXPLOAD_SIZE.8K=60 smcd.TX_RMB_SIZE.32K=5 CLNT_HS_ERR_CNT=4 SRV_HS_ERR_CNT=1 smcr.CLNT_V1_SUCC=2"
	export SMC_FAKE_FBACK="srv_cnt=5 clnt_cnt=9 srv:0x03010000:3 clnt:0x03030000:2 clnt:0x05000000:4 clnt:0x03010000:2 clnt:0x99990000:1 srv:0x03030002:2"
}

@test "smcd stats, smcr stats: smc-tools' summary, -d with the fallback reasons, json" {
	stats_state
	golden smcd-stats.out 0 smcd stats
	golden smcd-stats.out 0 smcd -a stats show
	golden smcd-stats-d.out 0 smcd -d stats
	golden smcd-stats-d.out 0 smcd -ad s
	golden smcd-stats-d.out 0 smcd -dd stats
	golden smcr-stats.out 0 smcr stats
	golden smcd-stats.json 0 smcd stats json
}

@test "smcd stats reset: prints, then counts from there; -a the kernel's counters" {
	stats_state
	golden smcd-stats.out 0 smcd stats reset
	run -0 "$BIN/smcd" stats
	[[ "$output" == *"  Total connections handled             0"$'\n'"  SMC connections                       0"$'\n'* ]]
	[[ "$output" == *"  Data transmitted (Bytes)              0 (0)"* ]]
	golden smcd-stats.out 0 smcd -a stats
}

@test "smcd stats: usage errors exit 255; a failed request still exits 0, as smc-tools" {
	stats_state
	run -255 --separate-stderr "$BIN/smcd" stats bogus
	[ -z "$output" ]
	[ "$stderr" = "Usage: smcd stats [show | reset]" ]
	run -255 --separate-stderr "$BIN/smcr" stats show x
	[ "$stderr" = "Usage: smcr stats [show | reset]" ]
	run -255 "$BIN/smcd" stats help
	SMC_FAKE_ERR="GET_STATS:$(python3 -c 'import errno; print(errno.EPERM)')"
	export SMC_FAKE_ERR
	run -0 --separate-stderr "$BIN/smcd" stats
	[ -z "$output" ]
	[[ "$stderr" == "Error: "* ]]
}

# ------------------------------------------------------------- smc_pnet

@test "smc_pnet: add, show all and one, delete, flush" {
	: >"$SMC_FAKE_PNET"
	run -0 --separate-stderr "$BIN/smc_pnet" -a NET1 -I lo
	[ -z "$output" ] && [ -z "$stderr" ]
	# options after the PNET ID too (getopt permutes), long options
	run -0 "$BIN/smc_pnet" NET2 --add --ibdevice mlx5_0 -P 2
	golden pnet.out 0 smc_pnet
	golden pnet-net2.out 0 smc_pnet -s NET2
	golden pnet-net2.out 0 smc_pnet --show NET2
	run -0 "$BIN/smc_pnet" -d NET1
	golden pnet-net2.out 0 smc_pnet
	run -0 "$BIN/smc_pnet" -f
	run -0 --separate-stderr "$BIN/smc_pnet"
	[ -z "$output" ] && [ -z "$stderr" ]
}

@test "smc_pnet: smc-tools' messages and exit codes" {
	printf 'NET1 eth lo\n' >"$SMC_FAKE_PNET"
	run -1 --separate-stderr "$BIN/smc_pnet" -a NET1 -I lo
	[ "$stderr" = "smc_pnet: Object exists" ]
	run -1 --separate-stderr "$BIN/smc_pnet" -d NOPE
	[ "$stderr" = "smc_pnet: Object not found" ]
	# -d without a PNET ID is a dump request, which the kernel refuses
	run -1 --separate-stderr "$BIN/smc_pnet" -d
	[ "$stderr" = "smc_pnet: Operation not supported" ]
	run -1 --separate-stderr "$BIN/smc_pnet" -a NET3
	[ "${stderr%%$'\n'*}" = "smc_pnet: interface or device missing" ]
	run -1 --separate-stderr "$BIN/smc_pnet" -a NET3 -D mlx5_0 -P 3
	[ "${stderr%%$'\n'*}" = "smc_pnet invalid ib port:3" ]
	run -1 --separate-stderr "$BIN/smc_pnet" NET1 NET2
	[ "${stderr%%$'\n'*}" = "smc_pnet too many parameters" ]
	run -1 --separate-stderr "$BIN/smc_pnet" NET1
	[ "${stderr%%$'\n'*}" = "smc_pnet: parameters without option" ]
	run -1 --separate-stderr "$BIN/smc_pnet" -a -d NET1
	[ "${stderr%%$'\n'*}" = "Usage: smc_pnet [ OPTIONS ] [pnetid]" ]
	run -1 --separate-stderr "$BIN/smc_pnet" -f NET1
	[ "${stderr%%$'\n'*}" = "smc_pnet: -f takes no parameters" ]
	# ignored device options of show, on stderr; the show itself works
	run -0 --separate-stderr "$BIN/smc_pnet" -s NET1 -I eth9 -P 2
	[ "$output" = "NET1 lo n/a 255" ]
	[ "$stderr" = "smc_pnet: interface eth9 ignored
smc_pnet: ibport 2 ignored" ]
	run -0 --separate-stderr "$BIN/smc_pnet" -h
	[ "${output%%$'\n'*}" = "Usage: smc_pnet [ OPTIONS ] [pnetid]" ]
	[ -z "$stderr" ]
	# only ENOENT fails a flush (smc-tools' work-around for old kernels)
	export SMC_FAKE_UNPRIV=1
	run -0 "$BIN/smc_pnet" -f
	[ -s "$SMC_FAKE_PNET" ]
	SMC_FAKE_ERR="PNETID_FLUSH:$(python3 -c 'import errno; print(errno.ENOENT)')"
	export SMC_FAKE_ERR
	run -1 --separate-stderr "$BIN/smc_pnet" -f
	[ "$stderr" = "smc_pnet: Object not found" ]
}

@test "smc OBJECT keeps its own format: smc device is not smcd device" {
	run -0 "$SMC_FAKE" device show type smcd
	[[ "$output" != "FID  Type  PCI-ID"* ]]
	run -0 --separate-stderr "$SMC_FAKE" seid show
	[ -z "$stderr" ]
	[[ "$output" != *"["* ]]
}

# ------------------------------------------------ smc seid, the native object

@test "smc seid: show, JSON, enable and disable as the kernel answers them" {
	export SMC_FAKE_SEID=IBM-SYSZ-ISMSEID00000000D3B58561
	run -0 --separate-stderr "$SMC_FAKE" seid
	[ "$output" = "SEID IBM-SYSZ-ISMSEID00000000D3B58561 disabled" ]
	run -0 "$SMC_FAKE" -j seid show
	[ "$output" = '[{"seid":"IBM-SYSZ-ISMSEID00000000D3B58561","enabled":false}]' ]
	# off s390: EOPNOTSUPP, exit 1
	run -1 --separate-stderr "$SMC_FAKE" seid enable
	[ "$stderr" = "Error: the running kernel cannot enable the system EID (only s390 kernels can)" ]
	export SMC_FAKE_S390=1
	run -1 --separate-stderr "$SMC_FAKE" seid disable
	[ "$stderr" = "Error: the system EID cannot be disabled while no user EID is defined (smc ueid add)" ]
	ueids SMC-EID-1
	run -0 "$SMC_FAKE" seid disable
	run -0 "$SMC_FAKE" seid
	[ "$output" = "SEID IBM-SYSZ-ISMSEID00000000D3B58561 disabled" ]
	run -0 "$SMC_FAKE" seid enable
	run -0 "$SMC_FAKE" seid
	[ "$output" = "SEID IBM-SYSZ-ISMSEID00000000D3B58561 enabled" ]
	grep -qx "ENABLE_SEID flags=0x5" "$SMC_FAKE_LOG"
	unset SMC_FAKE_SEID
	run -0 "$SMC_FAKE" seid
	[ "$output" = "SEID n/a (no ISM v2)" ]
	run -0 "$SMC_FAKE" -j seid
	[ "$output" = '[{"seid":null,"enabled":null}]' ]
}

@test "smc seid: usage errors exit 2; enable and disable are not abbreviated" {
	run -2 --separate-stderr "$SMC_FAKE" seid en
	[ "$stderr" = 'Command "en" is unknown, try "smc seid help".' ]
	run -2 --separate-stderr "$SMC_FAKE" seid show x
	[ "$stderr" = 'Error: unexpected argument "x", try "smc seid help".' ]
	run -2 "$SMC_FAKE" seid disable x
	run -0 --separate-stderr "$SMC_FAKE" seid help
	[ "${output%%$'\n'*}" = "Usage: smc [ -j [ -p ] ] seid [ show ]" ]
	[ ! -e "$SMC_FAKE_LOG" ]
}

@test "smc_pnet: names too long for a request are refused, nothing sent, no crash" {
	local long
	long=$(printf 'A%.0s' $(seq 1100))
	: >"$SMC_FAKE_PNET"
	# 1100 bytes do not fit the request: refused before anything is
	# sent, in libnl's words for a full message, exit 1 (a crash
	# would be 139)
	run -1 --separate-stderr "$BIN/smc_pnet" -s "$long"
	[ "$stderr" = "smc_pnet: Out of memory" ]
	run -1 --separate-stderr "$BIN/smc_pnet" -a NET1 -I "$long"
	[ "$stderr" = "smc_pnet: Out of memory" ]
	run -1 --separate-stderr "$BIN/smc_pnet" -a NET1 -D "$long"
	[ "$stderr" = "smc_pnet: Out of memory" ]
	# nothing was added
	[ ! -s "$SMC_FAKE_PNET" ]
}
