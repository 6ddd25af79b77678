#!/bin/bash
# The kernels smc-dump-dkms serves, as the regular expression (bash's =~,
# POSIX ERE) DKMS tests BUILD_EXCLUSIVE_KERNEL with: Debian 12's and 13's
# kernels of the line of $STOCK_LINUX from point release $STOCK_OLDEST
# on (scripts/stock-release.conf), e.g. for 6.12.118 and 115
#   ^6\.12\.(115|11[6-9]|1[2-9][0-9]|[2-9][0-9][0-9]|[1-9][0-9][0-9][0-9][0-9]*)\+deb1[23]-[a-z0-9][a-z0-9-]*$
# debian/rules writes it into dkms.conf, scripts/stock-dkms.sh --tree too.
# DKMS skips (does not fail on) the kernels it does not match.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/stock-release.conf"
line=${STOCK_LINUX%.*}
f=$STOCK_OLDEST
[[ $f =~ ^[1-9][0-9]*$|^0$ ]] || { echo "dkms-kernels-re: STOCK_OLDEST '$f' is no point release" >&2; exit 1; }
# the numbers >= f: f itself; for each digit of f below 9, f's digits
# before it, a greater digit, then any digits to f's length; every longer
# number
alt=$f
n=${#f}
for ((i = n - 1; i >= 0; i--)); do
	d=${f:i:1}
	[ "$d" -lt 9 ] || continue
	rest=
	for ((j = i + 1; j < n; j++)); do rest+='[0-9]'; done
	if [ "$d" -eq 8 ]; then g=9; else g="[$((d + 1))-9]"; fi
	alt+="|${f:0:i}$g$rest"
done
longer='[1-9]'
for ((j = 0; j < n; j++)); do longer+='[0-9]'; done
alt+="|$longer[0-9]*"
# then a flavour as dkms-build takes it: letters, digits and hyphens, not
# empty and not starting with a hyphen (amd64, cloud-amd64, rt-amd64), so
# that DKMS skips what dkms-build would refuse
printf '^%s\\.(%s)\\+deb1[23]-[a-z0-9][a-z0-9-]*$\n' "${line//./\\.}" "$alt"
