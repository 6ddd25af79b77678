#!/bin/bash
# Write kernel/mainline/patches from a git tree of the mainline source
# with the series committed on its first commit (the unpacked source):
# format-patch mails with the net-next subject prefix and a cover letter
# whose subject and text are kept from the series' current cover letter.
#
#   mainline-format-patch.sh TREE
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
[ $# -eq 1 ] || { echo "usage: mainline-format-patch.sh TREE" >&2; exit 2; }
tree=$(cd "$1" 2>/dev/null && pwd) || { echo "mainline-format-patch: no directory $1" >&2; exit 2; }
# TREE must be a git repository of its own: inside another one (this
# repository's build/), git would take that one's history for the series
[ "$(git -C "$tree" rev-parse --show-toplevel 2>/dev/null)" = "$tree" ] ||
	{ echo "mainline-format-patch: $tree is not the top of a git repository of its own" >&2; exit 2; }
out=$top/kernel/mainline/patches
old=$out/0000-cover-letter.patch
[ -f "$old" ] || { echo "mainline-format-patch: $old missing" >&2; exit 1; }
subject=$(sed -n 's/^Subject: \[PATCH[^]]*\] //p' "$old")
# the text: from after the headers to the shortlog ("AUTHOR (N):")
blurb=$(awk 'h && /^[^ ].* \([0-9]+\):$/ { exit } h { print } /^$/ && !h { h = 1 }' "$old")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
base=$(git -C "$tree" rev-list --max-parents=0 HEAD)
[ "$(echo "$base" | wc -l)" = 1 ] || { echo "mainline-format-patch: $tree has more than one root commit" >&2; exit 2; }
n=$(git -C "$tree" rev-list --count "$base..HEAD")
[ "$n" -ge 1 ] && [ "$n" -le 20 ] ||
	{ echo "mainline-format-patch: $tree has $n commits on its first one: expected the series (1 to 20)" >&2; exit 2; }
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
