# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Fake sysfs trees for smc rnics and smc_rnics (SMC_DUMP_SYSFS_DIR):
# the files smc_rnics of smc-tools 1.8.5 and smc rnics read, with the
# values an s390 LPAR and an x86 host would have. Sourced by
# smc-rnics.bats and json-keys.bats.

# ebcdic WORD: WORD (upper-case letters and digits) in IBM-1047, padded
# with EBCDIC blanks (0x40) to 16 bytes, as printf escapes
ebcdic() {
	local w=$1 i c o=""
	for ((i = 0; i < 16; i++)); do
		c=${w:i:1}
		case "$c" in
		"") o+='\x40' ;;
		[A-I]) o+=$(printf '\\x%02x' $((0xc1 + $(printf '%d' "'$c") - 65))) ;;
		[J-R]) o+=$(printf '\\x%02x' $((0xd1 + $(printf '%d' "'$c") - 74))) ;;
		[S-Z]) o+=$(printf '\\x%02x' $((0xe2 + $(printf '%d' "'$c") - 83))) ;;
		[0-9]) o+=$(printf '\\x%02x' $((0xf0 + c))) ;;
		esac
	done
	printf '%s' "$o"
}

# zpci ROOT BDF FID PFT VFN PCHID VENDOR DEVICE PNETIDS [PORT]: an s390
# PCI function and its powered-on slot; PNETIDS one word per port ("-"
# for none)
zpci() {
	local root=$1 bdf=$2 fid=$3 d p util=""
	d=$root/bus/pci/devices/$bdf
	mkdir -p "$d" "$root/bus/pci/slots/$fid"
	echo "0x$fid" >"$d/function_id"
	echo "$4" >"$d/pft"
	echo "$5" >"$d/vfn"
	echo "$6" >"$d/pchid"
	echo "$7" >"$d/vendor"
	echo "$8" >"$d/device"
	for p in $9; do
		[ "$p" = - ] && p=""
		util+=$(ebcdic "$p")
	done
	# shellcheck disable=SC2059 # the escapes are the point
	printf "$util" >"$d/util_string"
	[ -z "${10}" ] || echo "${10}" >"$d/port"
	echo 1 >"$root/bus/pci/slots/$fid/power"
}

# netdev ROOT BDF IFNAME [DEV_PORT]: an interface of a PCI function
netdev() {
	local d=$1/bus/pci/devices/$2/net/$3
	mkdir -p "$d" "$1/class/net"
	[ -z "$4" ] || echo "$4" >"$d/dev_port"
	ln -sfn "../../bus/pci/devices/$2/net/$3" "$1/class/net/$3"
}

# ibdev ROOT BDF IBDEV FW_VER PORTS...: the RDMA device of a PCI function
ibdev() {
	local root=$1 bdf=$2 ib=$3 fw=$4 d p
	shift 4
	d=$root/bus/pci/devices/$bdf/infiniband/$ib
	mkdir -p "$d" "$root/class/infiniband"
	echo "$fw" >"$d/fw_ver"
	for p in "$@"; do
		mkdir -p "$d/ports/$p"
	done
	ln -sfn "../../bus/pci/devices/$bdf/infiniband/$ib" "$root/class/infiniband/$ib"
	ln -sfn ../.. "$d/device"
}

# s390_tree ROOT: an LPAR with
#   110  ISM, PNET ID NET1 (VCHID 7c1)
#   200  RoCE Express2 (firmware 14), eth1 / mlx5_0, PNET ID NET1, port 1
#   201  RoCE Express3 (firmware 22), eth2 / mlx5_1, no PNET ID, port 2
#   300  RoCE Express (mlx4): eth3 and eth4 on ports 0 and 1, PNET IDs
#        NETA and NETB, the function's port file 1
#   400  Network Express, PFT 0x0f, VFN 0 (a physical function: VF n)
#   500  an unknown PFT 0x03 (listed with -a or -r)
#   600  a slot that is powered off
s390_tree() {
	local r=$1
	zpci "$r" 0000:00:00.0 00000110 0x05 0x0000 0x07c1 0x1014 0x04ed NET1
	zpci "$r" 0001:00:00.0 00000200 0x0a 0x0001 0x0118 0x15b3 0x1016 NET1 1
	netdev "$r" 0001:00:00.0 eth1
	ibdev "$r" 0001:00:00.0 mlx5_0 14.32.1010 1
	zpci "$r" 0002:00:00.0 00000201 0x0a 0x0002 0x0119 0x15b3 0x101e - 2
	netdev "$r" 0002:00:00.0 eth2
	ibdev "$r" 0002:00:00.0 mlx5_1 22.36.1010 1
	zpci "$r" 0003:00:00.0 00000300 0x02 0x0003 0x01c0 0x15b3 0x1004 "NETA NETB" 1
	netdev "$r" 0003:00:00.0 eth3 0
	netdev "$r" 0003:00:00.0 eth4 1
	ibdev "$r" 0003:00:00.0 mlx4_0 2.42.5000 1 2
	zpci "$r" 0004:00:00.0 00000400 0x0f 0x0000 0x0200 0x1014 0x0615 NET2 1
	netdev "$r" 0004:00:00.0 eth5
	zpci "$r" 0005:00:00.0 00000500 0x03 0x0000 0x0300 0x1234 0x5678 -
	mkdir -p "$r/bus/pci/slots/00000600"
	echo 0 >"$r/bus/pci/slots/00000600/power"
}

# x86_tree ROOT: a host with a RoCE NIC (mlx5, enp1s0f0 / mlx5_0), a NIC
# without RDMA (enp2s0), and rxe0, a soft RoCE device on enp2s0
x86_tree() {
	local r=$1 d
	for d in 0000:01:00.0 0000:02:00.0; do
		mkdir -p "$r/bus/pci/devices/$d"
		echo 0x8086 >"$r/bus/pci/devices/$d/vendor"
		echo 0x1533 >"$r/bus/pci/devices/$d/device"
	done
	echo 0x15b3 >"$r/bus/pci/devices/0000:01:00.0/vendor"
	echo 0x1017 >"$r/bus/pci/devices/0000:01:00.0/device"
	netdev "$r" 0000:01:00.0 enp1s0f0 0
	ibdev "$r" 0000:01:00.0 mlx5_0 16.35.2000 1
	netdev "$r" 0000:02:00.0 enp2s0
	mkdir -p "$r/class/infiniband/rxe0/ports/1"
	echo enp2s0 >"$r/class/infiniband/rxe0/parent"
}

# empty_tree ROOT: no PCI functions, no RDMA devices
empty_tree() {
	mkdir -p "$1/bus/pci/devices" "$1/class/net"
}
