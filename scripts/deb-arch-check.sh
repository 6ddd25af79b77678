#!/bin/bash
# deb-arch-check.sh DEB...: the Architecture field of each smc-dump .deb
# names the machine its usr/sbin/smc is built for (readelf -h: Machine
# and byte order); a line per .deb, exit 1 at the first that differs.
# make-deb.sh runs it on every smc-dump_*.deb it builds.
set -euo pipefail

# want ARCH: the Machine and byte order of Debian architecture ARCH
want() {
	case $1 in
	amd64)	echo "Advanced Micro Devices X86-64, little" ;;
	arm64)	echo "AArch64, little" ;;
	s390x)	echo "IBM S/390, big" ;;
	*)	return 1 ;;
	esac
}

[ $# -gt 0 ] || { echo "deb-arch-check: name a .deb" >&2; exit 2; }
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for deb in "$@"; do
	arch=$(dpkg-deb -f "$deb" Architecture)
	w=$(want "$arch") ||
		{ echo "deb-arch-check: ${deb##*/}: Architecture '$arch' is none of amd64, arm64, s390x" >&2; exit 1; }
	dpkg-deb -c "$deb" | grep ' \./usr/sbin/smc$' >/dev/null ||
		{ echo "deb-arch-check: ${deb##*/}: no usr/sbin/smc" >&2; exit 1; }
	dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/sbin/smc >"$tmp"
	got=$(readelf -h "$tmp" | awk -F': +' '
		$1 ~ /^ *Machine$/ { m = $2 }
		$1 ~ /^ *Data$/ { d = $2; sub(/.*, /, "", d); sub(/ endian$/, "", d) }
		END { print m ", " d }')
	if [ "$got" != "$w" ]; then
		echo "deb-arch-check: ${deb##*/}: Architecture $arch, but usr/sbin/smc is $got" >&2
		exit 1
	fi
	echo "deb-arch-check: ${deb##*/}: Architecture $arch, usr/sbin/smc $got"
done
