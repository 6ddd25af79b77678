#!/bin/bash
# Install everything smc-dump needs from Debian packages.
#
# Adds a deb-src entry (for iproute2's source package) when it is absent,
# using the mirror the machine's apt sources already name: no host is
# written here. linux-source-6.12 comes from the suites the machine already
# has (bookworm-security, or bookworm once a point release takes it): apt's
# default candidate, which must be at least the release the kernel series
# was rebased on (KSRC_MIN), since older ones do not take it without fuzz.
#
#   deps.sh          every package (make deps, make check, ...)
#   deps.sh demo     what make demo uses, a subset: it builds no kernel,
#                    no .deb and no iproute2, and runs no host test, so
#                    the kernel build's tools, lintian, debhelper, tshark,
#                    sparse and the like stay out; linux-source-6.12 too:
#                    scripts/stock-source.sh fetches the release the DKMS
#                    source is made from (apt-get download, 154 MB)
#   deps.sh cross    what make cross and the cross tier use: Debian's cross
#                    compilers for s390x and arm64, libpcap, libmnl, libbpf
#                    and bpftool of those architectures (dpkg
#                    --add-architecture, from the same apt sources),
#                    qemu-user-static to run what they build, clang for
#                    the BPF objects, and the native build for the
#                    reference output
set -euo pipefail

case ${1:-} in
"")	set=all ;;
demo)	set=demo ;;
cross)	set=cross ;;
*)	echo "deps: unknown set '$1' (demo, cross, or nothing for every package)" >&2; exit 2 ;;
esac

KSRC=linux-source-6.12
KSRC_MIN=6.12.118-1~deb12u1

PKGS="build-essential bc bison flex libelf-dev libssl-dev cpio kmod
      ccache qemu-system-x86 bats tcpdump libpcap-dev libmnl-dev pkg-config
      iproute2 xz-utils dpkg-dev python3 tshark libcap-dev jq
      clang llvm util-linux iputils-ping libcairo2-dev
      busybox-static pahole git debhelper dh-dkms lintian libbpf-dev bpftool
      strace sparse python3-yaml python3-jsonschema rsync
      libnl-3-dev libnl-genl-3-dev"

# make demo: smc (libpcap, libmnl, cairo, libbpf; clang and bpftool for the
# bpf backend's programs), the ip plugin (iproute2's source: dpkg-dev),
# Debian's kernel and initramfs (kmod, cpio, xz, busybox-static, file), the DKMS
# build against Debian's headers (gcc, pahole for the module's BTF), the
# guest (qemu, tcpdump, Debian's ip, jq for smc -j stats)
DEMO_PKGS="build-essential pkg-config libmnl-dev libpcap-dev libcairo2-dev
      libbpf-dev bpftool clang pahole dpkg-dev kmod cpio xz-utils
      busybox-static file qemu-system-x86 tcpdump iproute2 jq"

# make cross: the compilers for s390x and arm64, clang (the bpf backend's
# objects, -target bpfeb or bpfel) and qemu-user-static, then per
# architecture a sysroot of its libc, libpcap, libmnl, libbpf (libelf,
# zlib) and bpftool with what they depend on (cross_sysroot; bpftool
# writes the skeleton of ARCH's BPF object under qemu-user:
# scripts/cross-build.sh says why), and the amd64 build the cross tier compares
# with (testsuite/host/cross.bats). Not Debian's multiarch -dev packages
# (libpcap0.8-dev:s390x): a Multi-Arch: same package must have the same
# version in every architecture, and Debian 12's LTS security suite has no
# s390x, so libc6-dev:s390x, libssl3:s390x and others cannot stand beside
# amd64's updated ones ("held broken packages"). The .debs of the
# architecture's candidates, fetched by apt-get download from the
# machine's own apt sources, are unpacked into CROSS_ROOT/ARCH instead: the
# compilers take it as --sysroot, qemu-user as -L (scripts/cross-build.sh).
CROSS_ARCHS="s390x arm64"
CROSS_PKGS="build-essential pkg-config libmnl-dev libpcap-dev bats rsync file
      qemu-user-static gcc-s390x-linux-gnu gcc-aarch64-linux-gnu clang"
CROSS_ROOT=${SMC_DUMP_CROSS_ROOT:-/var/lib/smc-dump-cross}
# the sysroot's packages and the ones they depend on (cross_closure); the
# tools among them (pkg-config, sed) are the build machine's, libelogind0
# is the alternative to libsystemd0 and ships the same library
CROSS_ROOTS="libc6-dev libpcap0.8-dev libmnl-dev libbpf-dev bpftool"
CROSS_SKIP="pkgconf pkgconf-bin pkg-config sed rpcsvc-proto libc-dev-bin libelogind0"

# cross_closure ARCH: the packages of ARCH that CROSS_ROOTS need, one a line
cross_closure() {
	local a=$1
	apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts \
		--no-breaks --no-replaces --no-enhances ${CROSS_ROOTS// /:$a }:$a |
		awk -v a=":$a" -v skip=" $CROSS_SKIP " '
			/^[^ <]/ && substr($1, length($1) - length(a) + 1) == a {
				p = substr($1, 1, length($1) - length(a))
				if (index(skip, " " p " ") == 0) print p }' | sort -u
}

# cross_dpkg_db DEB DIR ARCH: DEB, unpacked into DIR, entered into a dpkg
# database of its own, DIR/var/lib/dpkg, with its files' paths inside DIR
# and its symbols and shlibs files: make deb for ARCH runs dpkg-shlibdeps
# with that --admindir, which so finds the package and the dependency of
# each of ARCH's libraries that smc-dump's binaries link (debian/rules)
cross_dpkg_db() {
	local deb=$1 dir=$2 a=$3 db=$2/var/lib/dpkg name f
	mkdir -p "$db/info" "$db/updates"
	[ -f "$db/arch" ] || printf '%s\n' "$(dpkg --print-architecture)" "$a" >"$db/arch"
	# format 1: the multiarch names of the files below
	[ -f "$db/info/format" ] || echo 1 >"$db/info/format"
	name=$(dpkg-deb -f "$deb" Package)
	# dpkg names a Multi-Arch: same package's files PACKAGE:ARCH.*
	[ "$(dpkg-deb -f "$deb" Multi-Arch)" = same ] && name=$name:$a
	dpkg-deb -f "$deb" | sed '1a Status: install ok installed' >>"$db/status"
	echo >>"$db/status"
	dpkg-deb --fsys-tarfile "$deb" | tar -t |
		sed -e "s|^\./|$dir/|" -e 's|/$||' -e "s|^\.\$|$dir|" >"$db/info/$name.list"
	for f in symbols shlibs; do
		dpkg-deb --ctrl-tarfile "$deb" | tar -xO "./$f" 2>/dev/null >"$db/info/$name.$f" ||
			rm -f "$db/info/$name.$f"
	done
}

# cross_sysroot ARCH: CROSS_ROOT/ARCH holds the candidates of
# cross_closure ARCH, unpacked; CROSS_ROOT/ARCH.list names them with
# their versions (what the stamp compares)
cross_sysroot() {
	local a=$1 dir=$CROSS_ROOT/$1 debs=$CROSS_ROOT/debs-$1 want p
	# one apt-cache call for all: each loads the whole cache (2 s here)
	want=$(apt-cache policy $(cross_closure "$a" | sed "s/\$/:$a/") |
		awk -v a=":$a" '/^[^ ]/ { p = $1; sub(/:$/, "", p); sub(a "$", "", p) }
			$1 == "Candidate:" { print p, $2 }')
	[ -n "$want" ] || { echo "deps: no packages of $a in the apt sources" >&2; return 1; }
	if [ -f "$dir.list" ] && [ "$(cat "$dir.list")" = "$want" ] && [ -d "$dir" ]; then
		return 0
	fi
	rm -rf "$dir" "$debs" "$dir.list"
	mkdir -p "$dir" "$debs"
	# apt-get download as root drops to _apt, which must write here
	if id _apt >/dev/null 2>&1; then chown _apt "$debs"; fi
	(cd "$debs" && apt-get download -q $(awk -v a=":$a" '{ print $1 a "=" $2 }' <<<"$want"))
	for p in "$debs"/*.deb; do
		dpkg-deb -x "$p" "$dir"
		cross_dpkg_db "$p" "$dir" "$a"
	done
	rm -rf "$debs"
	echo "$want" >"$dir.list"
	echo "deps: $dir: $(wc -l <"$dir.list") packages of $a unpacked"
}

# the installed linux-source-6.12, empty when there is none
ksrc_version() {
	dpkg-query -W -f='${db:Status-Abbrev} ${Version}\n' "$KSRC" 2>/dev/null |
		awk '$1 == "ii" { print $2 }'
}

ksrc_ok() {
	local v
	v=$(ksrc_version)
	[ -n "$v" ] && dpkg --compare-versions "$v" ge "$KSRC_MIN"
}

# the cross set: its own stamp, and the architectures apt must know
cross_ok() {
	local a
	for a in $CROSS_ARCHS; do
		dpkg --print-foreign-architectures | grep -qx "$a" || return 1
		[ -f "$CROSS_ROOT/$a.list" ] || return 1
	done
	dpkg -s $CROSS_PKGS >/dev/null 2>&1
}
if [ $set = cross ]; then
	stamp=/var/lib/smc-dump-deps-cross.stamp
	want="cross: $CROSS_ARCHS: $(echo $CROSS_PKGS) $CROSS_ROOTS"
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && cross_ok; then
		echo "deps: the cross packages are installed already, apt not run (rm $stamp to run it again)"
		exit 0
	fi
fi

stamp=/var/lib/smc-dump-deps.stamp
want="$(echo $PKGS) $KSRC>=$KSRC_MIN"
if [ $set != cross ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] &&
   dpkg -s $PKGS >/dev/null 2>&1 && ksrc_ok; then
	echo "deps: every package is installed already, apt not run (rm $stamp to run it again)"
	exit 0
fi
if [ $set = demo ]; then
	stamp=/var/lib/smc-dump-deps-demo.stamp
	PKGS=$DEMO_PKGS
	want="demo: $(echo $PKGS)"
	if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && dpkg -s $PKGS >/dev/null 2>&1; then
		echo "deps: the demo's packages are installed already, apt not run (rm $stamp to run it again)"
		exit 0
	fi
fi

if [ $set = cross ]; then
	stamp=/var/lib/smc-dump-deps-cross.stamp
	PKGS=$CROSS_PKGS
	want="cross: $CROSS_ARCHS: $(echo $PKGS) $CROSS_ROOTS"
fi

if [ "$(id -u)" != 0 ]; then
	echo "deps: run as root (apt-get install)" >&2
	exit 1
fi

. "$(dirname "$0")/apt-mirror.sh"

uri=$(mirror | head -n 1)
if [ -z "$uri" ]; then
	echo "deps: no bookworm entry in the apt sources to derive a mirror from" >&2
	exit 1
fi

has_suite() {	# $1 type (deb|deb-src), $2 suite
	grep -rqsE "^[[:space:]]*$1[[:space:]].*[[:space:]]$2([[:space:]]|$)" \
		/etc/apt/sources.list /etc/apt/sources.list.d/*.list && return 0
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk -v t="$1" -v s="$2" 'BEGIN { RS = ""; found = 0 }
			{ ty = 0; su = 0
			  n = split($0, L, "\n")
			  for (i = 1; i <= n; i++) {
				if (L[i] ~ "^Types:.*(^|[ ])" t "([ ]|$)") ty = 1
				if (L[i] ~ "^Suites:.*[ ]" s "([ ]|$)") su = 1
			  }
			  if (ty && su) found = 1 }
			END { exit !found }' "$f" && return 0
	done
	return 1
}

list=/etc/apt/sources.list.d/smc-dump.sources
entries=""
has_suite deb-src bookworm ||
	entries+="Types: deb-src
URIs: $uri
Suites: bookworm
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

"
if [ -n "$entries" ]; then
	printf '%s' "$entries" >>"$list"
	echo "deps: added to $list:"
	cat "$list"
fi

# the foreign architectures: apt then fetches their indexes from the same
# entries (an entry limited by "Architectures:" stays as it is)
if [ $set = cross ]; then
	for a in $CROSS_ARCHS; do
		dpkg --print-foreign-architectures | grep -qx "$a" || {
			dpkg --add-architecture "$a"
			echo "deps: dpkg --add-architecture $a"
		}
	done
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends $PKGS
if [ $set = cross ]; then
	for a in $CROSS_ARCHS; do
		cross_sysroot "$a"
	done
fi
if [ $set = demo ] || [ $set = cross ]; then
	echo "$want" >"$stamp"
	exit 0
fi
# apt's default candidate: an entry for bookworm-backports that an older
# version of this script added stays, but its lower priority keeps it out
cand=$(apt-cache policy "$KSRC" | awk '$1 == "Candidate:" { print $2 }')
if [ -z "$cand" ] || [ "$cand" = "(none)" ]; then
	echo "deps: no $KSRC in the apt sources: add bookworm-security (Debian's security suite) and run again" >&2
	exit 1
fi
if ! dpkg --compare-versions "$cand" ge "$KSRC_MIN"; then
	echo "deps: $KSRC $cand is older than $KSRC_MIN, which the kernel series is made for: add bookworm-security and run again" >&2
	exit 1
fi
apt-get install -y -q --no-install-recommends "$KSRC=$cand"
ksrc_ok || { echo "deps: $KSRC $(ksrc_version) installed, $KSRC_MIN needed" >&2; exit 1; }
echo "$want" >"$stamp"
