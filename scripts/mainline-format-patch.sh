#!/bin/bash
# Write kernel/mainline/patches from a git tree of the mainline source
# with the series committed on its first commit (the unpacked source):
# format-patch mails with the net-next subject prefix and a cover letter
# whose subject and text are kept from the series' current cover letter.
#
#   mainline-format-patch.sh TREE
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=${1:?usage: mainline-format-patch.sh TREE}
out=$top/kernel/mainline/patches
old=$out/0000-cover-letter.patch
[ -f "$old" ] || { echo "mainline-format-patch: $old missing" >&2; exit 1; }
subject=$(sed -n 's/^Subject: \[PATCH[^]]*\] //p' "$old")
# the text: from after the headers to the shortlog ("AUTHOR (N):")
blurb=$(awk 'h && /^[^ ].* \([0-9]+\):$/ { exit } h { print } /^$/ && !h { h = 1 }' "$old")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
base=$(git -C "$tree" rev-list --max-parents=0 HEAD)
git -C "$tree" format-patch -q --cover-letter --no-signature \
	--subject-prefix='PATCH net-next v1' -o "$tmp" "$base"
author=$(sed -n '2s/^From: //p' "$tmp/0001-"*.patch)
SUBJECT=$subject BLURB=$blurb AUTHOR=$author python3 - "$tmp/0000-cover-letter.patch" <<'PY'
import os, re, sys
p = sys.argv[1]
s = open(p).read()
s = s.replace('*** SUBJECT HERE ***', os.environ['SUBJECT'])
s = s.replace('*** BLURB HERE ***\n', os.environ['BLURB'].rstrip('\n') + '\n')
s = re.sub(r'^From: .*\n(?: .*\n)?', 'From: ' + os.environ['AUTHOR'] + '\n', s, count=1, flags=re.M)
open(p, 'w').write(s)
PY
# blank context lines empty, as in the 6.12 series (kernel/README.md)
sed -i 's/^ $//' "$tmp"/*.patch
rm -f "$out"/*.patch
cp "$tmp"/*.patch "$out"/
ls "$out"
