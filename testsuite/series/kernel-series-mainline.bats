#!/usr/bin/env bats
# The mainline series (kernel/mainline/patches) as net-next would take it:
# a cover letter and [PATCH net-next v1 N/M] mails that `git am` applies to
# the Linux source kernel/mainline/source.conf names, checkpatch --strict
# clean, each patch building on its own with W=1 and sparse without new
# warnings and kernel-doc clean (scripts/series-check.sh), the uapi header
# the same as the tools', the link attributes in the rt-link netlink spec.
# The source comes from scripts/mainline-source.sh (make kernel-mainline
# fetches it; make check does that first).

bats_require_minimum_version 1.5.0

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
SERIES=$TOP/kernel/mainline/patches

setup_file() {
	export MTAR
	MTAR=$(bash "$TOP/scripts/mainline-source.sh" 2>/dev/null) || MTAR=
	[ -n "$MTAR" ] || return 0
	export MTREE=$BATS_FILE_TMPDIR/linux
	mkdir -p "$MTREE"
	tar -C "$MTREE" --strip-components=1 -xJf "$MTAR"
	git -C "$MTREE" init -q
	# no background git gc repacking the tree while a test copies it
	git -C "$MTREE" config gc.auto 0
	git -C "$MTREE" -c core.excludesFile=/dev/null add -f .
	git -C "$MTREE" -c user.name=base -c user.email=base@localhost commit -q -m base
}

setup() {
	[ -n "$MTAR" ] || skip "the mainline source cannot be fetched (scripts/mainline-source.sh)"
	PATCHES=$(ls "$SERIES"/0[0-9][0-9][1-9]-*.patch "$SERIES"/0[0-9][1-9]0-*.patch 2>/dev/null | sort)
}

@test "mainline series: a cover letter and numbered net-next mails, each signed off" {
	[ -f "$SERIES/0000-cover-letter.patch" ]
	n=$(echo "$PATCHES" | grep -c .)
	[ "$n" -ge 4 ]
	grep -q "^Subject: \[PATCH net-next v1 0/$n\] " "$SERIES/0000-cover-letter.patch"
	# the cover letter is written, not format-patch's placeholders
	run ! grep -q '\*\*\* \(SUBJECT\|BLURB\) HERE \*\*\*' "$SERIES/0000-cover-letter.patch"
	# it makes the case a first review asks for: the link against
	# tracepoints and BPF, measured; the made-up headers; who signs it
	grep -q '^Why a link, and not tracepoints or BPF:$' "$SERIES/0000-cover-letter.patch"
	grep -q '^- Cost, measured' "$SERIES/0000-cover-letter.patch"
	grep -q '^Encapsulation: nlmon (ARPHRD_NETLINK), vsockmon' "$SERIES/0000-cover-letter.patch"
	grep -q '^The series is prepared for a submitter who reviews and signs it' "$SERIES/0000-cover-letter.patch"
	i=0
	for p in $PATCHES; do
		i=$((i + 1))
		grep -q "^Subject: \[PATCH net-next v1 $i/$n\] \(net/smc\|selftests: net\|docs: networking\): " "$p" ||
			{ echo "$p: subject"; grep '^Subject:' "$p"; false; }
		grep -q '^Signed-off-by: .* <.*@.*>$' "$p"
		body=$(awk '/^Subject:/ { s = 1; next } /^Signed-off-by:/ { exit } s' "$p" | grep -c .)
		[ "$body" -ge 5 ] || { echo "$p: a commit message of $body lines"; false; }
	done
}

@test "mainline series: git am applies it to the unpacked mainline source" {
	cp -a "$MTREE" "$BATS_TEST_TMPDIR/t"
	run git -C "$BATS_TEST_TMPDIR/t" -c user.name=t -c user.email=t@localhost am $PATCHES
	echo "$output"
	[ "$status" -eq 0 ]
	[ -f "$BATS_TEST_TMPDIR/t/net/smc/smc_dump.c" ]
	[ -f "$BATS_TEST_TMPDIR/t/tools/testing/selftests/net/smc/smc_dump.c" ]
	[ -f "$BATS_TEST_TMPDIR/t/Documentation/networking/smc-dummy.rst" ]
	# the uapi header is the one the tools build with
	diff -u "$BATS_TEST_TMPDIR/t/include/uapi/linux/smc_dump.h" "$TOP/include/uapi/linux/smc_dump.h"
}

@test "mainline series: checkpatch --strict reports nothing" {
	run perl "$MTREE/scripts/checkpatch.pl" --strict --no-tree --terse $PATCHES
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" != *"ERROR"* ]]
	[[ "$output" != *"WARNING"* ]]
	[[ "$output" != *"CHECK"* ]]
}

@test "mainline series: the rt-link spec describes the kind's attributes and still loads" {
	cp -a "$MTREE" "$BATS_TEST_TMPDIR/t"
	git -C "$BATS_TEST_TMPDIR/t" -c user.name=t -c user.email=t@localhost am -q $PATCHES
	spec=$BATS_TEST_TMPDIR/t/Documentation/netlink/specs/rt-link.yaml
	/usr/bin/python3 - "$spec" <<'PY'
import sys, yaml
spec = yaml.safe_load(open(sys.argv[1]))
sets = {s["name"]: s for s in spec["attribute-sets"]}
smc = [s for n, s in sets.items() if "smc-dummy" in n]
assert len(smc) == 1, "one attribute set for smc-dummy"
attrs = {a["name"]: a["type"] for a in smc[0]["attributes"]}
assert attrs == {"mode": "u8", "capture": "u8", "snaplen": "u32"}, attrs
msgs = {m["name"]: m for m in spec["sub-messages"]}
fmt = {f["value"]: f.get("attribute-set") for f in msgs["linkinfo-data-msg"]["formats"]}
assert fmt.get("smc-dummy") == smc[0]["name"], fmt.get("smc-dummy")
PY
}

@test "series-check: sparse's MODULE_*() false positive is dropped, every other diagnostic kept" {
	local f=$BATS_TEST_TMPDIR/m.c
	printf '%s\n' 'int x;' 'MODULE_LICENSE("GPL");' 'static int y = z;' >"$f"
	# the function as series-check.sh defines it
	source <(sed -n '/^sparse_known() {/,/^}/p' "$TOP/scripts/series-check.sh")
	run sparse_known <<EOF
$f:2:1: error: bad constant expression
$f:3:16: error: bad constant expression
$f:1:5: warning: symbol 'x' was not declared. Should it be static?
EOF
	[ "$status" -eq 0 ]
	[ "$output" = "$f:3:16: error: bad constant expression
$f:1:5: warning: symbol 'x' was not declared. Should it be static?" ]
}

@test "mainline series: YNL validates the rt-link spec and generates C that compiles without a warning" {
	cp -a "$MTREE" "$BATS_TEST_TMPDIR/t"
	git -C "$BATS_TEST_TMPDIR/t" -c user.name=t -c user.email=t@localhost am -q $PATCHES
	local t=$BATS_TEST_TMPDIR/t specs=$BATS_TEST_TMPDIR/t/Documentation/netlink/specs
	# the spec against the netlink-raw schema, as ynl loads it
	/usr/bin/python3 "$t/tools/net/ynl/pyynl/cli.py" --spec "$specs/rt-link.yaml" --validate
	# the check can fail: a wrong type in the kind's snaplen attribute
	python3 - "$specs/rt-link.yaml" "$specs/zz-broken.yaml" <<'PY'
import sys
s = open(sys.argv[1]).read()
i = s.index("name: linkinfo-smc-dummy-attrs")
j = s.index("type: u32", i)
open(sys.argv[2], "w").write(s[:j] + "type: u33" + s[j + len("type: u32"):])
PY
	run /usr/bin/python3 "$t/tools/net/ynl/pyynl/cli.py" --spec "$specs/zz-broken.yaml" --validate
	[ "$status" -ne 0 ]
	[[ "$output" == *"'u33'"* ]]
	rm "$specs/zz-broken.yaml"
	# the C library ynl generates from it: the kind's setters, compiled
	# with the uapi header of the series (ynl's -idirafter include/uapi)
	run make -C "$t/tools/net/ynl/generated" rt-link-user.o
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" != *"warning:"* ]]
	grep -q 'rt_link_newlink_req_set_linkinfo_data_smc_dummy_snaplen' "$t/tools/net/ynl/generated/rt-link-user.h"
	grep -q 'include <linux/smc_dump.h>' "$t/tools/net/ynl/generated/rt-link-user.h"
}

@test "mainline series: every patch builds on its own with W=1 and sparse, kernel-doc clean" {
	command -v sparse >/dev/null || skip "sparse missing (make deps)"
	run bash "$TOP/scripts/series-check.sh" mainline "$BATS_TEST_TMPDIR/check"
	echo "$output"
	[ "$status" -eq 0 ]
	n=$(echo "$PATCHES" | grep -c .)
	[[ "$output" == *"$n patches: each applies, builds with W=1 and sparse without new warnings, kernel-doc clean"* ]]
	# sparse read the base tree (kbuild's CHECK lines), and each patch's
	# rebuilt files
	grep -q '^ *CHECK ' "$BATS_TEST_TMPDIR/check/base.warn.raw"
	grep -q '^ *CHECK .*smc_dump.c' "$BATS_TEST_TMPDIR/check/patch-1.warn.raw"
	# the first patch adds CONFIG_SMC_DUMP, and was built with it on
	# (the fragments set it once the symbol exists): smc_dump.c compiled
	grep -q '^+config SMC_DUMP$' "$(echo "$PATCHES" | head -1)"
	grep -q '^ *CC .*net/smc/smc_dump.o' "$BATS_TEST_TMPDIR/check/patch-1.warn.raw"
	grep -q '^CONFIG_SMC_DUMP=y' "$BATS_TEST_TMPDIR/check/obj/.config"
	# every patch also with it off: built, and nothing of the dump
	[[ "$output" == *"CONFIG_SMC_DUMP off: $n patches build clean, no smc_dump.o, no dump symbol in net/smc"* ]]
	grep -q '^ *CC .*net/smc/af_smc.o' "$BATS_TEST_TMPDIR/check/off-1.warn.raw"
	[ "$(ls "$BATS_TEST_TMPDIR"/check/off-*.warn | wc -l)" -eq "$n" ]
	grep -q '^# CONFIG_SMC_DUMP is not set' "$BATS_TEST_TMPDIR/check/objoff/.config"
	[ ! -e "$BATS_TEST_TMPDIR/check/objoff/net/smc/smc_dump.o" ]
	[ -e "$BATS_TEST_TMPDIR/check/objoff/net/smc/af_smc.o" ]
	# the 32-bit build ran
	[[ "$output" == *"i386: builds clean with W=1, no libgcc division"* ]]
	grep -q '^ *CC .*net/smc/smc_dump.o' "$BATS_TEST_TMPDIR/check/i386.raw"
}
