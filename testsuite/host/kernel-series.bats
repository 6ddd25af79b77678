#!/usr/bin/env bats
# The kernel patch series (kernel/6.12/patches) as a reviewer sees it: it applies
# to Debian's linux-source-6.12 without fuzz, passes checkpatch --strict,
# every patch is signed off, and the uapi header it adds is the one the
# tools build with.

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
TARBALL=/usr/src/linux-source-6.12.tar.xz

setup_file() {
	export KTREE=$BATS_FILE_TMPDIR/linux
	mkdir -p "$KTREE"
	[ -f "$TARBALL" ] || return 0
	# only what the series touches and what checkpatch reads
	tar -C "$KTREE" --strip-components=1 -xJf "$TARBALL" \
		--wildcards 'linux-source-6.12/net/smc/*' \
		'linux-source-6.12/include/uapi/linux/*' \
		'linux-source-6.12/MAINTAINERS' \
		'linux-source-6.12/scripts/checkpatch.pl' \
		'linux-source-6.12/scripts/spelling.txt' \
		'linux-source-6.12/scripts/const_structs.checkpatch'
}

setup() {
	[ -f "$TARBALL" ] || skip "linux-source-6.12 not installed (make deps)"
	PATCHES=$(ls "$TOP"/kernel/6.12/patches/*.patch)
}

@test "series: there are patches, and they apply in order to linux-source-6.12" {
	[ -n "$PATCHES" ]
	cp -a "$KTREE" "$BATS_TEST_TMPDIR/t"
	for p in $PATCHES; do
		run patch -d "$BATS_TEST_TMPDIR/t" -p1 --forward --fuzz=0 --dry-run -s -i "$p"
		[ "$status" -eq 0 ] || { echo "$output"; false; }
		patch -d "$BATS_TEST_TMPDIR/t" -p1 --forward --fuzz=0 -s -i "$p"
	done
	[ -f "$BATS_TEST_TMPDIR/t/net/smc/smc_dump.c" ]
}

@test "series: every patch is a format-patch mail with a message and Signed-off-by" {
	for p in $PATCHES; do
		grep -q '^From [0-9a-f]\{40\} ' "$p"
		grep -q '^Subject: \[PATCH [0-9]*/[0-9]*\] net/smc: ' "$p"
		grep -q '^Signed-off-by: .* <.*@.*>$' "$p"
		# a body of more than a few lines between the subject and the sign-off
		body=$(awk '/^Subject:/ { s = 1; next } /^Signed-off-by:/ { exit } s' "$p" | grep -c .)
		[ "$body" -ge 10 ]
	done
}

@test "series: checkpatch --strict reports nothing" {
	run perl "$KTREE/scripts/checkpatch.pl" --strict --no-tree --terse $PATCHES
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" != *"ERROR"* ]]
	[[ "$output" != *"WARNING"* ]]
	[[ "$output" != *"CHECK"* ]]
	# from the repository's top with relative paths, checkpatch takes a
	# file git tracks for a source file and reads every line as added:
	# blank context lines and the "-- " signature must not end in a blank
	[ -z "$(git -C "$TOP" ls-files kernel/6.12/patches)" ] && return 0
	run bash -c 'cd "$1" && perl "$2/scripts/checkpatch.pl" --strict --no-tree --terse kernel/6.12/patches/*.patch' _ "$TOP" "$KTREE"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ "$output" != *"ERROR"* ]]
}

@test "uapi: include/uapi/linux/smc_dump.h is the header the series adds" {
	cp -a "$KTREE" "$BATS_TEST_TMPDIR/t"
	for p in $PATCHES; do
		patch -d "$BATS_TEST_TMPDIR/t" -p1 --forward --fuzz=0 -s -i "$p"
	done
	diff -u "$BATS_TEST_TMPDIR/t/include/uapi/linux/smc_dump.h" "$TOP/include/uapi/linux/smc_dump.h"
}

@test "uapi: the record header is 40 bytes with the fields at the offsets of Documentation/record-format.md" {
	cat >"$BATS_TEST_TMPDIR/off.c" <<'C'
#include <stddef.h>
#include <stdio.h>
#include <linux/smc_dump.h>
#define O(f) printf(#f " %zu %zu\n", offsetof(struct smc_dump_hdr, f), sizeof(((struct smc_dump_hdr *)0)->f))
int main(void)
{
	printf("size %zu\n", sizeof(struct smc_dump_hdr));
	O(magic); O(hdr_ver); O(smc_ver); O(mode); O(type); O(len); O(hdr_len);
	O(flags); O(seq); O(token); O(orig_len); O(offset); O(stream_seq);
	O(reserved);
	printf("magic %#x ver %d\n", SMC_DUMP_MAGIC, SMC_DUMP_HDR_VER);
	return 0;
}
C
	cc -I"$TOP/include/uapi" -o "$BATS_TEST_TMPDIR/off" "$BATS_TEST_TMPDIR/off.c"
	run "$BATS_TEST_TMPDIR/off"
	# Documentation/record-format.md, column by column
	[ "$output" = "size 40
magic 0 4
hdr_ver 4 1
smc_ver 5 1
mode 6 1
type 7 1
len 8 2
hdr_len 10 1
flags 11 1
seq 12 4
token 16 4
orig_len 20 4
offset 24 8
stream_seq 32 4
reserved 36 4
magic 0xcfd3e7a5 ver 4" ]
}
