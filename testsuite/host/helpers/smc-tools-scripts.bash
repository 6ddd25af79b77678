# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# smc-tools 1.8.5's own scripts (smc_rnics, smc_chk, smc_run, smc_dbg) as
# test oracles for the entry points of those names: scripts/smc-tools-build.sh
# SRC copies them, unchanged, into build/smc-tools beside smc-tools' C
# commands (SMC_DUMP_SMC_TOOLS=DIR names another build). Without a build
# the tests that need one skip. Sourced by smc-rnics.bats and
# smc-tools-scripts.bats after lib (TOP).

SMCT_DIR=${SMC_DUMP_SMC_TOOLS:-$TOP/build/smc-tools}

# need_smct SCRIPT: skip the test unless smc-tools' SCRIPT is there, and
# fail it unless that is smc-tools 1.8.5's
need_smct() {
	[ -x "$SMCT_DIR/$1" ] ||
		skip "no smc-tools build ($SMCT_DIR/$1): scripts/smc-tools-build.sh SRC"
	grep -qx 'VERSION="1.8.5";' "$SMCT_DIR/$1" || {
		echo "$SMCT_DIR/$1: not smc-tools 1.8.5's" >&2
		return 1
	}
}

# result CMD...: run CMD and print its exit status, standard output and
# standard error as one text (what the parity tests compare)
result() {
	local rc=0 o=$BATS_TEST_TMPDIR/result.o e=$BATS_TEST_TMPDIR/result.e
	"$@" >"$o" 2>"$e" </dev/null || rc=$?
	printf 'exit %d\n--- stdout\n' "$rc"
	cat "$o"
	printf -- '--- stderr\n'
	cat "$e"
}

# same_version WHAT REAL OURS: the results of smc-tools' -v and ours the
# same but for the release (smc-tools-1.8.5, smc-dump-VERSION)
same_version() {
	# shellcheck disable=SC2001 # a line of a text
	same "$1" "$(sed 's/, smc-tools-1\.8\.5$/, VERSION/' <<<"$2")" \
		"$(sed 's/, smc-dump-.*$/, VERSION/' <<<"$3")"
}

# same WHAT A B: A and B equal, else both and their diff on stderr (bats
# prints it with the failure)
same() {
	[ "$2" = "$3" ] && return 0
	{
		echo "$1: differ (<: smc-tools 1.8.5; >: smc-dump, or its expected file):"
		diff <(printf '%s\n' "$2") <(printf '%s\n' "$3")
	} >&2
	return 1
}
