# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# What the host test files share. Each file loads it first thing:
#
#   load lib
#   setup_file() { host_setup_file smc tools; ... }
#
# host_setup_file exports TOP (the tree), H (helpers/), T (the file's
# temporary directory), SMC (the smc command; DUMP_SMC=WRAPPER runs the
# tests through a wrapper of it) and GEN (the capture generator), and
# builds the directories it is given.

TOP="$(cd "$BATS_TEST_DIRNAME/../.." && pwd)"
H="$BATS_TEST_DIRNAME/helpers"
# Python modules of the tests (oracles, case writers)
TLIB="$TOP/testsuite/lib"
# wait_for, wait_line, wait_file, wait_listen, wait_gone
# shellcheck source=SCRIPTDIR/../lib/wait.bash
. "$TLIB/wait.bash"

# host_make DIR...: make in each DIR of the tree ("smc", "testsuite/tools",
# "ip"); on failure the log goes to the terminal and it returns 1
host_make() {
	local d log="$BATS_FILE_TMPDIR/make.log"
	for d in "$@"; do
		make -C "$TOP/$d" >>"$log" 2>&1 || {
			cat "$log" >&3
			return 1
		}
	done
}

# host_setup_file [DIR...]: the exports above, then host_make DIR...
host_setup_file() {
	export TOP H TLIB
	export T="$BATS_FILE_TMPDIR"
	export SMC="${DUMP_SMC:-$TOP/smc/smc}"
	export GEN="$TOP/testsuite/tools/gen-smcdump-pcap"

	[ $# -eq 0 ] || host_make "$@"
}

# host_need DIR FILE...: the test helpers FILE... that `make tools`
# builds in DIR of the tree (testsuite/host/helpers, testsuite/tools); one
# that is missing fails the set-up with a line that says to run make
# tools. One older than what it is built from is built again here, as
# host_setup_file builds smc: smc/smc may have been relinked since make
# tools (a guest of make check's other lane runs make on the shared tree),
# and a helper linked from the older objects would test old code.
host_need() {
	local dir=$1 f log="$BATS_FILE_TMPDIR/need.log"
	shift
	for f in "$@"; do
		[ -e "$TOP/$dir/$f" ] || {
			echo "$dir/$f is missing: run make tools" >&3
			return 1
		}
		make -C "$TOP/$dir" "$f" >>"$log" 2>&1 || {
			cat "$log" >&3
			echo "$dir/$f: building it again failed" >&3
			return 1
		}
	done
}

# host_setup_fake: host_setup_file smc, then $SMC_FAKE (exported), the
# smc command linked with helpers/fake_genl.c in place of lib/genl.c (the
# host has no SMC generic netlink family; helpers/Makefile)
host_setup_fake() {
	host_setup_file smc || return 1
	export SMC_FAKE="$H/smc-fake"
	host_need testsuite/host/helpers smc-fake
}

# not_available FAMILY ARGS...: smc (the real one) with each ARGS, a word
# list, on a host kernel without SMC: exit 1, no output, and the one line
# that names generic netlink family FAMILY (callers skip where SMC is)
not_available() {
	local family=$1 args
	shift
	for args in "$@"; do
		# shellcheck disable=SC2086
		run -1 --separate-stderr "$SMC" $args
		[ -z "$output" ] || return 1
		[ "$stderr" = "Error: SMC is not available in the running kernel (generic netlink family $family not found); load the smc module or use a kernel with CONFIG_SMC" ] ||
			{ echo "smc $args: $stderr"; return 1; }
	done
}
