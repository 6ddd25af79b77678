#!/bin/bash
# make cross: the user space built for another architecture with Debian's
# cross compilers, each into its own tree, build/cross/ARCH/, never beside
# the native objects.
#
#   cross-build.sh ARCH...     ARCH: s390x, arm64
#
# The sources the build reads (include/, lib/, smc/, testsuite/tools/:
# *.c, *.h, Makefile, configure) are copied into build/cross/ARCH/src by
# rsync, which keeps their times (make then rebuilds only what changed)
# and deletes a source that is gone from the tree; the objects, the
# libraries and the programs are made there, with the same Makefiles as
# the native build: CC (Debian's cross compiler with --sysroot), AR and
# MULTIARCH given on the command line, pkg-config pointed into the sysroot:
# ARCH's libc, libpcap, libmnl, libbpf and bpftool, which scripts/deps.sh
# cross unpacks into /var/lib/smc-dump-cross/ARCH (SMC_DUMP_CROSS_ROOT; it
# says why not Debian's multiarch -dev packages).
#
# The bpf backend (HAVE_LIBBPF=y, forced: a missing part fails the build):
# its programs (smc/capture_bpf.bpf.c, smc/run_bpf.bpf.c) are compiled CO-RE
# by clang for ARCH's byte order, -target bpfeb on s390x, bpfel on arm64,
# with -D__TARGET_ARCH_s390 or _arm64 (smc/Makefile: BPF_TARGET, BPF_ARCH)
# and ARCH's headers (BPF_SYSROOT); smc links ARCH's libbpf. The skeleton
# (bpftool gen skeleton, the object embedded in smc) is written by ARCH's
# own bpftool under qemu-user: bpftool 7.1 and its libbpf 1.1 open only
# objects of the byte order of the machine they run on ("Endian
# mismatch" for bpfeb on amd64), and the skeleton is the same for either
# order but for the embedded object. The programs cannot run under
# qemu-user (no bpf(2) there); testsuite/cross checks what was built.
#
# What the cross build leaves out (the "none" parts smc/configure selects,
# which say what is missing when asked for it):
#   cairo          smc dump graph, unless libcairo2-dev of ARCH is
#                  in the sysroot (about 80 packages of X and font
#                  libraries; deps.sh cross does not unpack it): configure
#                  decides
# Warnings are errors here (-Werror on top of the Makefiles' -Wall -Wextra).
# The binaries run under qemu-user: testsuite/cross/cross.bats;
# build/cross/ARCH/smc-qemu runs smc so.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

[ $# -gt 0 ] || { echo "cross-build: name an architecture (s390x, arm64)" >&2; exit 2; }

triplet() {
	case $1 in
	s390x)	echo s390x-linux-gnu ;;
	arm64)	echo aarch64-linux-gnu ;;
	*)	return 1 ;;
	esac
}

for arch in "$@"; do
	tri=$(triplet "$arch") || {
		echo "cross-build: unknown architecture '$arch' (s390x, arm64)" >&2
		exit 2
	}
	sysroot=${SMC_DUMP_CROSS_ROOT:-/var/lib/smc-dump-cross}/$arch
	command -v "$tri-gcc" >/dev/null ||
		{ echo "cross-build: $tri-gcc missing: run 'scripts/deps.sh cross' as root" >&2; exit 1; }
	for f in usr/lib/$tri/pkgconfig/libpcap.pc usr/lib/$tri/pkgconfig/libmnl.pc \
		 usr/lib/$tri/pkgconfig/libbpf.pc usr/sbin/bpftool; do
		[ -e "$sysroot/$f" ] ||
			{ echo "cross-build: no $f of $arch in $sysroot: run 'scripts/deps.sh cross' as root" >&2; exit 1; }
	done
	command -v clang >/dev/null ||
		{ echo "cross-build: clang missing: run 'scripts/deps.sh cross' as root" >&2; exit 1; }
	qemu=qemu-$( [ "$arch" = arm64 ] && echo aarch64 || echo "$arch")-static

	out=build/cross/$arch
	src=$out/src
	mkdir -p "$src"
	rsync -a -R -m --delete \
		--exclude='*.skel.h' --include='*/' --include='*.c' --include='*.h' \
		--include=Makefile --include=configure --exclude='*' \
		include lib smc testsuite/tools "$src/"

	t0=$(date +%s)
	echo "cross-build: $arch ($tri-gcc) in $src"
	args=(CC="$tri-gcc --sysroot=$sysroot" AR="$tri-ar" MULTIARCH="$tri"
	      HAVE_LIBBPF=y BPF_SYSROOT="$sysroot"
	      BPFTOOL="$qemu -L $sysroot $sysroot/usr/sbin/bpftool"
	      CFLAGS="-O2 -g -Werror")
	export PKG_CONFIG_LIBDIR=$sysroot/usr/lib/$tri/pkgconfig:$sysroot/usr/share/pkgconfig
	export PKG_CONFIG_SYSROOT_DIR=$sysroot
	unset PKG_CONFIG_PATH
	for d in lib lib/smcdump lib/smc-preload smc testsuite/tools; do
		make --no-print-directory -C "$src/$d" "${args[@]}"
	done
	# the programs where the tests look for them
	mkdir -p "$out/bin"
	for f in smc/smc smc/smcdump-ex testsuite/tools/gen-smcdump-pcap; do
		ln -sf "../src/$f" "$out/bin/${f##*/}"
	done
	# and smc under qemu-user, for a try or DUMP_SMC of the host tests
	cat >"$out/smc-qemu" <<-EOF
	#!/bin/sh
	# $arch's smc under qemu-user (written by scripts/cross-build.sh)
	exec $qemu -L "$sysroot" "$top/$out/bin/smc" "\$@"
	EOF
	chmod +x "$out/smc-qemu"
	file -L "$out/bin/smc" "$src"/smc/*.bpf.o | sed 's/^/cross-build: /'
	echo "cross-build: $arch built in $(( $(date +%s) - t0 )) s"
done
