#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# The smc_run, smc_chk and smc_dbg entry points beside smc-tools 1.8.5's
# own scripts of those names (smc_rnics: smc-rnics.bats), on this host,
# without SMC in its kernel: what they do without it (option and usage
# errors, bad sizes, running a command, smc_chk to a port nobody listens
# on, smc_dbg's archive) must give the same exit status, stdout and, where
# it is each program's own, stderr. Help and version texts are each
# program's own: their first lines are compared. Also the C commands the
# scripts call (smcd, smcr, smc_pnet, smcss), where the kernel has no
# SMC: exit status and stdout. And the hand-written expected files of
# smc-tools-entry.bats (compat/smc-tools/run-*.out,
# chk-connect-refused.out) against the scripts themselves.
#
# smc-tools is built from its public source by scripts/smc-tools-build.sh
# SRC (build/smc-tools, or SMC_DUMP_SMC_TOOLS=DIR); without it every test
# here skips. Each program runs unchanged, found by PATH under its own
# name: smc-tools' scripts with smc-tools' C commands (smcss, smc_pnet,
# ...) in build/smc-tools first in PATH, ours with smc's links of the
# same names; so both see the same argv[0] and each calls its own
# siblings, as when installed.

# shellcheck disable=SC2154 # bats sets $stderr
bats_require_minimum_version 1.5.0

load lib
load helpers/smc-tools-scripts

setup_file() {
	host_setup_file smc || return 1
	local n
	mkdir -p "$T/ours"
	for n in smcss smcd smcr smc_pnet smc_rnics smc_chk smc_run smc_dbg; do
		ln -sf "$SMC" "$T/ours/$n"
	done
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# real CMD ARGS...: smc-tools' CMD; ours CMD ARGS...: smc-dump's, each
# first in PATH. The directory each is found in is written DIR/ (bash
# names a script by its path in getopts's messages, and so does ours).
real() {
	result env PATH="$SMCT_DIR:$PATH" "$@" | sed "s#$SMCT_DIR/#DIR/#g"
}

ours() {
	result env PATH="$T/ours:$PATH" "$@" | sed "s#$T/ours/#DIR/#g"
}

# both WHAT ARGS...: real and ours of ARGS (a command line) the same text
both() {
	local what=$1 r o
	shift
	r=$(real "$@")
	o=$(ours "$@")
	same "$what" "$r" "$o"
}

# out RESULT: RESULT's exit status and stdout, without its stderr (its
# trailing empty lines kept)
out() {
	printf '%s--- end\n' "${1%%--- stderr*}"
}

# both_out ARGS...: real and ours of ARGS the same exit status and stdout
both_out() {
	local r o
	r=$(real "$@")
	o=$(ours "$@")
	same "$*" "$(out "$r")" "$(out "$o")"
}

@test "smc_run beside smc-tools' smc_run: option errors, bad sizes, no command" {
	need_smct smc_run
	local args
	# each a command line: exit 1, its message on stdout, getopts's on
	# stderr; a bad size fails before net.core.[rw]mem_max is read
	for args in "" "-d" "--" "-d --" "-x true" "-z" "-r" "-t" "-d -r" \
		"-r 12x true" "-t k true" "-t 1.5M true" "-r -1 true" "-rk true" \
		"-t 4kk true" "-r 0x10 true" "-t 4 -r 4kb true" "-x -r 4k true"; do
		# shellcheck disable=SC2086 # the arguments are words
		both "smc_run $args" smc_run $args
	done
}

@test "smc_run beside smc-tools' smc_run: runs the command with SMC_DEBUG, SMC_RCVBUF, SMC_SNDBUF in bytes, its exit status" {
	need_smct smc_run
	# shellcheck disable=SC2016 # for the child shell
	local show='echo "[$SMC_DEBUG] [$SMC_RCVBUF] [$SMC_SNDBUF]"; exit 3'
	# 1k and 2K lie below any net.core.[rw]mem_max: nothing is raised.
	# stdout and exit status: the preload library is smc-tools' own
	# (which the build leaves out: ld.so's warning on stderr) or ours
	both_out smc_run sh -c "$show"
	both_out smc_run -d -r 1k -t 2K sh -c "$show"
	both_out smc_run -r 1024 -t 1K -t 2k sh -c "$show"
	both_out smc_run -r 0 true
	both_out smc_run echo -r 4k
	both_out smc_run false
	both_out smc_run nosuch-command-here
}

@test "smc_chk beside smc-tools' smc_chk: option errors, conflicting modes, unknown hosts and interfaces" {
	need_smct smc_chk
	local args
	for args in "-x" "--bogus" "-C" "-p" "-i" "-C nosuch.invalid" \
		"-C 127.0.0.1 -S" "--server --connect nosuch.invalid" \
		"-i lo -S" "-S -i lo" "-C 127.0.0.1 -i lo" "-s -l -S" "-l -S" \
		"-i nosuch-iface" "-i lo extra" "-i lo -- extra" "-d -i lo x y"; do
		# shellcheck disable=SC2086 # the arguments are words
		both "smc_chk $args" smc_chk $args
	done
}

@test "smc_chk beside smc-tools' smc_chk: no mode is the usage, exit 0; -h; -v" {
	need_smct smc_chk
	local args r o
	# the help texts are each program's own: the exit status, the empty
	# line and the usage line before it
	for args in "" "-h" "--help" "eth0" "-d" "-6" "-p 5" "-p 5 lo"; do
		# shellcheck disable=SC2086 # the arguments are words
		r=$(real smc_chk $args)
		# shellcheck disable=SC2086
		o=$(ours smc_chk $args)
		same "smc_chk $args" "$(sed -n 1,4p <<<"$r")" "$(sed -n 1,4p <<<"$o")"
	done
	r=$(real smc_chk -v)
	o=$(ours smc_chk --version)
	same_version "smc_chk -v" "$r" "$o"
}

@test "smc_chk -i beside smc-tools' smc_chk: an interface of no PCI function has no PNET ID here" {
	need_smct smc_chk
	# stdout and exit status: smc-tools' smc_rnics and smc_pnet say on
	# stderr why they have nothing (not s390, no SMC), ours nothing
	both_out smc_chk -i lo
}

@test "smc_chk -C beside smc-tools' smc_chk: nobody listening is the same report, IPv4 and IPv6" {
	need_smct smc_chk
	command -v python3 >/dev/null || skip "smc-tools' smc_chk runs its client in python3"
	# smc-tools' smc_chk waits 10 s for smcss to list the connection;
	# stdout and exit status (stderr: each one's smcss failing here)
	both_out smc_chk -C 127.0.0.1 -p 1
	both_out smc_chk -6 -C ::1 --port 1
}

@test "smc_dbg beside smc-tools' smc_dbg: a bad option; -h, -v" {
	need_smct smc_dbg
	local r o
	both "smc_dbg -x" smc_dbg -x
	both "smc_dbg --bogus" smc_dbg --bogus
	both "smc_dbg -t -y" smc_dbg -t -y
	# the help texts are each program's own: the usage line
	r=$(real smc_dbg -h)
	o=$(ours smc_dbg --help)
	same "smc_dbg -h" "$(sed -n 1,4p <<<"$r")" "$(sed -n 1,4p <<<"$o")"
	r=$(real smc_dbg -v)
	o=$(ours smc_dbg --version)
	same_version "smc_dbg -v" "$r" "$o"
}

@test "smc_dbg -t beside smc-tools' smc_dbg: the same message, exit 0, smc_dbg's files in the archive" {
	need_smct smc_dbg
	local r o fr fo names=""
	r=$(real smc_dbg -t)
	o=$(ours smc_dbg --tgz)
	fr=$(sed -n 's#^Debug output written to \(/tmp/smc_dbg-[^/]*\.tgz\)$#\1#p' <<<"$r")
	fo=$(sed -n 's#^Debug output written to \(/tmp/smc_dbg-[^/]*\.tgz\)$#\1#p' <<<"$o")
	# every file smc-tools' archive has on this machine must be in ours
	# (each under its directory smc_dbg-XXXXXX/, named as the archive)
	if [ -f "$fr" ] && [ -f "$fo" ]; then
		names=$(comm -23 <(tar tzf "$fr" | sed 's#^[^/]*/##' | grep . | sort) \
			<(tar tzf "$fo" | sed 's#^[^/]*/##' | grep . | sort))
	fi
	[ -z "$fr" ] || rm -f -- "$fr"
	[ -z "$fo" ] || rm -f -- "$fo"
	# the message names a new /tmp/smc_dbg-XXXXXX.tgz; no stderr
	# shellcheck disable=SC2001 # a line of a text
	same "smc_dbg -t" "$(sed 's#/tmp/smc_dbg-[A-Za-z0-9]\{6\}\.tgz$#ARCHIVE#' <<<"$r")" \
		"$(sed 's#/tmp/smc_dbg-[A-Za-z0-9]\{6\}\.tgz$#ARCHIVE#' <<<"$o")"
	[ -n "$fr" ] && [ -n "$fo" ]
	same "smc_dbg -t: smc-tools' files missing from ours" "" "$names"
}

@test "smc_dbg beside smc-tools' smc_dbg: exit 0, each section after an empty line" {
	need_smct smc_dbg
	local r o
	# the sections differ: smc-tools' collects its s390 ones on s390
	# only, ours everywhere, and each program's version lines
	r=$(real smc_dbg)
	o=$(ours smc_dbg)
	same "smc_dbg" "$(sed -n 1,3p <<<"$r")" "$(sed -n 1,3p <<<"$o")"
}

@test "compat/smc-tools: the expected files of smc_run and smc_chk are what smc-tools' scripts print" {
	need_smct smc_run
	need_smct smc_chk
	# each file's command line as smc-tools-entry.bats runs it; exit
	# status and stdout
	same "run-no-command.out" "$(out "$(real smc_run)")" "$(gold 1 run-no-command.out)"
	same "run-bad-option.out" "$(out "$(real smc_run -x true)")" "$(gold 1 run-bad-option.out)"
	same "run-bad-size.out" "$(out "$(real smc_run -r 12x true)")" "$(gold 1 run-bad-size.out)"
	same "chk-connect-refused.out" "$(out "$(real smc_chk -C 127.0.0.1 -p 1)")" \
		"$(gold 0 chk-connect-refused.out)"
}

# gold STATUS FILE: what out prints for exit STATUS and stdout FILE of
# compat/smc-tools
gold() {
	printf 'exit %d\n--- stdout\n' "$1"
	cat "$TOP/testsuite/host/compat/smc-tools/$2"
	printf -- '--- end\n'
}

@test "smcd, smcr, smc_pnet, smcss beside smc-tools' on a kernel without SMC: the same exit status and stdout" {
	[ -x "$SMCT_DIR/smcd" ] ||
		skip "no smc-tools build ($SMCT_DIR/smcd): scripts/smc-tools-build.sh SRC"
	"$SMCT_DIR/smcd" info >/dev/null 2>&1 && skip "this kernel has SMC"
	local args
	# each one's message on stderr says why (ours names the module or
	# the kernel option); smc_chk and smc_dbg call these
	for args in "smcd info" "smcd stats" "smcr -d stats" "smcd stats json" \
		"smcd device" "smcr device" "smcd linkgroup" "smcr -d linkgroup link-show" \
		"smcd ueid" "smcd seid" "smc_pnet" "smc_pnet -s" "smcss" "smcss -a"; do
		# shellcheck disable=SC2086 # the command line is words
		both_out $args
	done
}
