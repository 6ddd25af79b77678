#!/bin/bash
# Debian's headers of one kernel, unpacked (dpkg -x, never installed:
# installing linux-headers-KVER would pull its linux-image into the host's
# /boot) under build/headers/KVER, for out-of-tree builds of
# smc-dump-dkms's modules (scripts/stock-dkms.sh, testsuite/host/dkms-point.bats).
#
#   kernel-headers.sh KVER [SUITE]   prints the kernel_source_dir DKMS
#                                    would pass (/lib/modules/KVER/build
#                                    on an installed system)
#
# linux-headers-KVER, linux-headers-ABI-common and linux-kbuild-ABI come
# from SUITE, else from the suite of KVER's line in scripts/kernels.conf,
# else from the machine's apt sources (scripts/apt-suite.sh). Their one
# absolute path, the include in the flavour's Makefile, is pointed at the
# unpacked -common tree.
#
# The headers name the compiler the kernel was built with (Debian 13's:
# x86_64-linux-gnu-gcc-14, which their package depends on, so a Debian 13
# user's DKMS has it). On a machine without it (this Debian 12 bed, for
# Debian 13's kernels, whose gcc-14 needs trixie's libc) the unpacked
# copy names the machine's gcc instead, and says so; the one flag of
# gcc 14 that Debian 13's config turns on (-fmin-function-alignment) is
# replaced by the equal -falign-functions. What a module shares with the
# kernel is C's calling convention and the layouts the headers define.
# This is the test bed's approximation: a Debian 13 user's DKMS builds
# with gcc-14, as the headers say.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernels.sh"
. "$top/scripts/apt-mirror.sh"
. "$top/scripts/apt-suite.sh"
kver=${1:?usage: kernel-headers.sh KVER [SUITE]}
suite=${2:-}
log() { echo "kernel-headers: $*" >&2; }
[[ $kver =~ ^[0-9]+\.[0-9]+\.[0-9]+[-+][a-z0-9.+]+-[a-z0-9-]+$ ]] || { log "'$kver' is no Debian kernel release"; exit 2; }
# the flavour may have hyphens (cloud-amd64): the ABI name ends at the
# first hyphen after the +debN or -N part
abi=$(sed -E 's/^([0-9]+\.[0-9]+\.[0-9]+(\+deb[0-9.]+|-[0-9]+))-.*/\1/' <<<"$kver")
if [ -z "$suite" ] && kernel_line "$kver" 2>/dev/null; then
	suite=$K_SUITE
fi
hdr=$top/build/headers/$kver
ksrc=$hdr/usr/src/linux-headers-$kver
if [ -f "$hdr/.unpacked" ]; then
	echo "$ksrc"
	exit 0
fi
mkdir -p "$top/build/headers"
exec 8>"$top/build/headers/.$kver.lock"
flock 8
if [ -f "$hdr/.unpacked" ]; then
	echo "$ksrc"
	exit 0
fi
rm -rf "$hdr"
dl=$(mktemp -d "$top/build/headers/dl.XXXXXX")
trap 'rm -rf "$dl"' EXIT
chmod 755 "$dl"
pkgs=("linux-headers-$kver" "linux-headers-$abi-common" "linux-kbuild-$abi")
ok=0
if [ -n "$suite" ]; then
	suite_download "$suite" "$dl" "${pkgs[@]}" || ok=1
else
	(cd "$dl" && apt-get download -q "${pkgs[@]}" >&2) || ok=1
fi
[ $ok = 0 ] || { log "cannot download the headers of $kver${suite:+ from $suite}"; exit 1; }
for d in "$dl"/*.deb; do
	dpkg-deb -x "$d" "$hdr"
done
[ -f "$ksrc/Makefile" ] || { log "linux-headers-$kver has no usr/src/linux-headers-$kver/Makefile"; exit 1; }
sed -i "s|^include /usr/src/|include $hdr/usr/src/|" "$ksrc/Makefile"
kv=$ksrc/.kernelvariables
if [ -f "$kv" ]; then
	cc=$(sed -n 's/^CC = .*)\(gcc-[0-9]*\)$/\1/p' "$kv")
	cross=$(sed -n 's/^override CROSS_COMPILE = //p' "$kv")
	if [ -n "$cc" ] && ! command -v "$cross$cc" >/dev/null; then
		log "the headers of $kver name $cross$cc, which this machine lacks: its copy builds with $(gcc -dumpfullversion) instead"
		sed -i "s/^CC = .*/CC = \$(CROSS_COMPILE)gcc/" "$kv"
		# gcc 14's -fmin-function-alignment, which the config chose, is
		# -falign-functions of the same size to an older gcc (the top
		# Makefile's other branch)
		sed -i '/^CONFIG_CC_HAS_MIN_FUNCTION_ALIGNMENT=y$/d' "$ksrc/include/config/auto.conf"
		# and the module's BTF is made by this machine's pahole, whose
		# options kbuild chooses by its version
		pv=$(pahole --version | tr -dc 0-9)
		sed -i "s/^CONFIG_PAHOLE_VERSION=.*/CONFIG_PAHOLE_VERSION=$pv/" "$ksrc/include/config/auto.conf"
	fi
fi
# The headers' host programs (modpost, fixdep, objtool, resolve_btfids) are of their
# release: Debian 13's need trixie's libc (GLIBC_2.38). Where they cannot
# run here, this copy takes those of Debian 12's headers of the same Linux
# release (the same source).
ot=$ksrc/tools/objtool/objtool
mp=$ksrc/scripts/mod/modpost
if [[ "$(SRCARCH=x86 "$ot" --help 2>&1 || true; "$mp" -h 2>&1 || true)" == *"GLIBC_"*" not found"* ]]; then
	twin=$(sed -E 's/\+deb[0-9.]+-/+deb12-/' <<<"$kver")
	[ "$twin" != "$kver" ] || { log "the host programs of $kver's headers do not run here"; exit 1; }
	log "the host programs of $kver's headers need a newer libc than this machine's: its copy uses $twin's"
	tksrc=$("$0" "$twin") || exit 1
	cp -a "$(realpath "$tksrc/scripts")/." "$(realpath "$ksrc/scripts")/"
	cp -a "$(realpath "$tksrc/tools")/." "$(realpath "$ksrc/tools")/"
	[[ "$("$mp" -h 2>&1 || true)" != *"GLIBC_"* ]] || { log "modpost of $kver still does not run"; exit 1; }
fi
touch "$hdr/.unpacked"
echo "$ksrc"
