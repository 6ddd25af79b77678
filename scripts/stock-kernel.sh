#!/bin/bash
# The stock-kernel test bed's kernels: Debian's own, unmodified
# linux-image packages of scripts/kernels.conf, unpacked (dpkg -x, never
# installed: the host's /boot and /lib/modules stay untouched) under
# build/stock/KVER/, plus a small initramfs that lets run-vm --stock boot
# one with the host root over 9p.
#
#   stock-kernel.sh [ID|KVER]          fetch and prepare (cached by KVER),
#                                      print the dir
#   stock-kernel.sh --dir [ID|KVER]    print the dir; exit 1 if it is not
#                                      prepared
#
# The kernel: ID or KVER of a kernels.conf line; without one
# SMC_DUMP_STOCK_KVER (run-vm --stock reads the same variable), else the
# line $STOCK_ID of scripts/stock-release.conf, the kernel the long tiers
# boot. The package comes from the line's suite (scripts/apt-suite.sh:
# suites the machine's apt sources lack through a private apt state); a
# KVER no line names from the machine's own sources.
#
# Layout of build/stock/KVER/:
#   root/boot/vmlinuz-KVER      the kernel, as the package ships it
#   root/lib/modules/KVER/      its modules (.ko.xz) with a modules.dep that
#                               depmod made here (the package's postinst
#                               would make it on an installed system);
#                               Debian 13's packages (merged /usr) ship
#                               them as usr/lib/modules: moved here, so
#                               that every kernel has one layout
#   initrd.img                  the initramfs (see below)
#   package                     the image package's name and version
#
# The initramfs: busybox (busybox-static) plus the modules a 9p root needs,
# not initramfs-tools' mkinitramfs. Debian's kernel has 9p, netfs and
# overlayfs as modules, so something must load them before the root can
# be mounted. mkinitramfs knows local disks and NFS roots, not a virtio 9p
# root: it would need a boot script of our own anyway, and it would pack
# udev, the host's /etc/initramfs-tools hooks and a few MiB more, built
# differently on every machine. Busybox and five modules (their list comes
# from modprobe --show-depends on the package's own modules.dep) make an
# initramfs of about 1.5 MiB whose whole behaviour is the init script here.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/stock-release.conf"
. "$top/scripts/kernels.sh"
. "$top/scripts/apt-mirror.sh"
. "$top/scripts/apt-suite.sh"
dironly=
if [ "${1:-}" = --dir ]; then
	dironly=1
	shift
fi
want_k=${1:-${SMC_DUMP_STOCK_KVER:-$STOCK_ID}}
suite=
if kernel_line "$want_k" 2>/dev/null; then
	kver=$K_KVER
	suite=$K_SUITE
elif [[ $want_k =~ ^[0-9]+\.[0-9]+\.[0-9]+[-+][a-z0-9.+-]+$ ]]; then
	kver=$want_k
else
	kernel_line "$want_k" || exit 1
fi
dir=$top/build/stock/$kver
# the modules the initramfs loads, and their dependencies; virtio_pci
# first: Debian 12's 6.1 has it (and virtio) as modules, where 6.12 has them
# built in (modprobe then names them builtin, and none is packed)
initrd_mods="virtio_pci 9p 9pnet_virtio overlay"

if [ -n "$dironly" ]; then
	[ -f "$dir/ready" ] || { echo "stock-kernel: $dir is not prepared (bash scripts/stock-kernel.sh $want_k)" >&2; exit 1; }
	echo "$dir"
	exit 0
fi

for t in dpkg-deb depmod modprobe cpio gzip xz; do
	command -v $t >/dev/null || { echo "stock-kernel: $t missing (make deps)" >&2; exit 1; }
done
busybox=/bin/busybox
if ! file -L "$busybox" 2>/dev/null | grep -q 'statically linked'; then
	echo "stock-kernel: $busybox is not a static busybox (apt-get install busybox-static)" >&2
	exit 1
fi

# the initramfs depends on this script (its init) and on busybox
want="$kver $(sha256sum "$0" "$busybox" | awk '{ print $1 }' | tr '\n' ' ')"
if [ -f "$dir/ready" ] && [ "$(cat "$dir/ready")" = "$want" ]; then
	echo "$dir"
	exit 0
fi
rm -f "$dir/ready"
mkdir -p "$dir"

pkg=linux-image-$kver
if [ ! -f "$dir/root/.unpacked" ]; then
	mkdir -p "$top/build/stock"
	dl=$(mktemp -d "$top/build/stock/dl.XXXXXX")
	# apt-get download writes into the current directory as user _apt
	# when it can; a mktemp dir is root's alone
	chmod 755 "$dl"
	ok=0
	if [ -n "$suite" ]; then
		suite_download "$suite" "$dl" "$pkg" || ok=1
		why="from $suite (scripts/kernels.conf)"
	else
		(cd "$dl" && apt-get download -q "$pkg" >&2) || ok=1
		why="from the machine's apt sources: no line of scripts/kernels.conf names $kver, so the host's sources must carry it"
	fi
	if [ $ok != 0 ]; then
		rm -rf "$dl"
		echo "stock-kernel: cannot download $pkg $why" >&2
		exit 1
	fi
	deb=$(ls "$dl"/*.deb)
	# Debian's 7.x images are split: linux-image-KVER only depends on
	# linux-binary-KVER (the kernel), linux-modules-KVER and linux-base-KVER
	# (System.map, config), which hold
	# the files, under usr/lib/modules/KVER (vmlinuz, System.map too)
	split=
	for p in linux-binary-$kver linux-modules-$kver linux-base-$kver; do
		if dpkg-deb -f "$deb" Depends | tr ',' '\n' | grep -q "^ *$p "; then
			split="$split $p"
		fi
	done
	if [ -n "$split" ]; then
		# shellcheck disable=SC2086
		if [ -n "$suite" ]; then
			suite_download "$suite" "$dl" $split || ok=1
		else
			(cd "$dl" && apt-get download -q $split >&2) || ok=1
		fi
		[ $ok = 0 ] || { rm -rf "$dl"; echo "stock-kernel: cannot download$split, which $pkg depends on" >&2; exit 1; }
	fi
	rm -rf "$dir/root"
	for d in "$dl"/*.deb; do
		dpkg-deb -x "$d" "$dir/root"
	done
	dpkg-deb -f "$deb" Package Version >"$dir/package"
	rm -rf "$dl"
	# merged /usr (Debian 13): one layout for run-vm and the tests
	if [ -d "$dir/root/usr/lib/modules/$kver" ] && [ ! -e "$dir/root/lib/modules/$kver" ]; then
		mkdir -p "$dir/root/lib/modules"
		mv "$dir/root/usr/lib/modules/$kver" "$dir/root/lib/modules/$kver"
	fi
	# the split packages keep vmlinuz, System.map and config beside the modules
	for f in vmlinuz System.map config; do
		if [ ! -e "$dir/root/boot/$f-$kver" ] && [ -f "$dir/root/lib/modules/$kver/$f" ]; then
			mkdir -p "$dir/root/boot"
			ln "$dir/root/lib/modules/$kver/$f" "$dir/root/boot/$f-$kver"
		fi
	done
	[ -f "$dir/root/boot/vmlinuz-$kver" ] || { echo "stock-kernel: $deb has no boot/vmlinuz-$kver" >&2; exit 1; }
	[ -d "$dir/root/lib/modules/$kver" ] || { echo "stock-kernel: $deb has no modules for $kver" >&2; exit 1; }
	depmod -b "$dir/root" -F "$dir/root/boot/System.map-$kver" "$kver"
	touch "$dir/root/.unpacked"
fi

# the initramfs tree
ird=$(mktemp -d "$top/build/stock/initrd.XXXXXX")
trap 'rm -rf "$ird"' EXIT
mkdir -p "$ird"/{bin,dev,proc,sys,newroot,modules}
cp "$busybox" "$ird/bin/busybox"
ln -s busybox "$ird/bin/sh"
# modules in load order, decompressed (busybox's insmod takes plain ELF)
n=0
for m in $initrd_mods; do
	modprobe -d "$dir/root" -S "$kver" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'
done | awk '!seen[$0]++' | while read -r ko; do
	n=$((n + 1))
	base=$(basename "$ko" .xz)
	case $ko in
	*.xz)	xz -dc "$ko" >"$ird/modules/$(printf %02d $n)-$base" ;;
	*)	cp "$ko" "$ird/modules/$(printf %02d $n)-$base" ;;
	esac
done
ls "$ird/modules" | grep -q 9pnet_virtio || { echo "stock-kernel: no 9p modules found in $pkg" >&2; exit 1; }

cat >"$ird/init" <<'EOF'
#!/bin/sh
# initramfs of the stock-kernel bed (scripts/stock-kernel.sh): load the 9p
# modules, mount the root the kernel command line names (root=TAG
# rootflags=OPTS ro), hand over to its init= program.
export PATH=/bin
busybox mount -t proc proc /proc
busybox mount -t sysfs sysfs /sys
for m in /modules/*.ko; do
	busybox insmod "$m" || { echo "initramfs: insmod $m failed"; busybox sleep 2; busybox poweroff -f; }
done
root= flags= init=/sbin/init
for a in $(busybox cat /proc/cmdline); do
	case $a in
	root=*)		root=${a#root=} ;;
	rootflags=*)	flags=${a#rootflags=} ;;
	init=*)		init=${a#init=} ;;
	esac
done
if ! busybox mount -t 9p -o "ro,$flags" "$root" /newroot; then
	echo "initramfs: cannot mount the 9p root '$root'"
	busybox poweroff -f
fi
busybox umount /proc /sys
exec busybox switch_root /newroot "$init"
EOF
chmod 755 "$ird/init"
(cd "$ird" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) | gzip -9n >"$dir/initrd.img.tmp"
mv "$dir/initrd.img.tmp" "$dir/initrd.img"
echo "$want" >"$dir/ready"
echo "$dir"
