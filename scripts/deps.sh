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
set -euo pipefail

case ${1:-} in
"")	set=all ;;
demo)	set=demo ;;
*)	echo "deps: unknown set '$1' (demo, or nothing for every package)" >&2; exit 2 ;;
esac

KSRC=linux-source-6.12
KSRC_MIN=6.12.118-1~deb12u1

PKGS="build-essential bc bison flex libelf-dev libssl-dev cpio kmod
      ccache qemu-system-x86 bats tcpdump libpcap-dev libmnl-dev pkg-config
      iproute2 xz-utils dpkg-dev python3 tshark libcap-dev jq
      clang llvm util-linux iputils-ping libcairo2-dev
      busybox-static pahole git debhelper dh-dkms lintian libbpf-dev bpftool
      strace sparse python3-yaml rsync"

# make demo: smc (libpcap, libmnl, cairo, libbpf; clang and bpftool for the
# bpf backend's programs), the ip plugin (iproute2's source: dpkg-dev),
# Debian's kernel and initramfs (kmod, cpio, xz, busybox-static, file), the DKMS
# build against Debian's headers (gcc, pahole for the module's BTF), the
# guest (qemu, tcpdump, Debian's ip, jq for smc -j stats)
DEMO_PKGS="build-essential pkg-config libmnl-dev libpcap-dev libcairo2-dev
      libbpf-dev bpftool clang pahole dpkg-dev kmod cpio xz-utils
      busybox-static file qemu-system-x86 tcpdump iproute2 jq"

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

stamp=/var/lib/smc-dump-deps.stamp
want="$(echo $PKGS) $KSRC>=$KSRC_MIN"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] &&
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

export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends $PKGS
if [ $set = demo ]; then
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
