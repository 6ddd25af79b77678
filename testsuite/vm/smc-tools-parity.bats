#!/usr/bin/env bats
# smc-dump's entry points with smc-tools' names (smcd, smcr, smcss,
# smc_pnet) against smc-tools 1.8.5 itself, on the patched kernel: the
# same command line, in the same kernel state, must give the same exit
# status, standard output and standard error, byte for byte.
#
# smc-tools is not a Debian package; it is built from its public source
# (scripts/smc-tools-build.sh SRC, the release tag 1.8.5 of
# github.com/ibm-s390-linux/smc-tools, into build/smc-tools, or another
# build named by SMC_DUMP_SMC_TOOLS=DIR). Where there is one,
# every case below runs both programs one after the other and compares
# them. Without it (CI has no way to fetch the source), the cases whose
# kernel state the test makes alone (no connection: information,
# devices, statistics of a fresh netns, UEIDs, SEID, the PNET table,
# errors) are compared with what smc-tools 1.8.5 printed for them on this
# kernel (smc-tools-1.8.5/, recorded by scripts/smc-tools-record.sh; its
# README says how), and the cases of a held SMC-D connection, whose
# ports, inodes, tokens and GIDs change with every run, are skipped.

bats_require_minimum_version 1.5.0

load lib

REC=$BATS_TEST_DIRNAME/smc-tools-1.8.5
NS=smcparity
SMC_TOOLS_DIR=${SMC_DUMP_SMC_TOOLS:-$TOP/build/smc-tools}
[ -x "$SMC_TOOLS_DIR/smcd" ] || SMC_TOOLS_DIR=
# scripts/smc-tools-record.sh: where smc-tools' results are written
SMC_TOOLS_RECORD=${SMC_DUMP_SMC_TOOLS_RECORD:-}

setup_file() {
	[ -n "${SMC_DUMP_IN_VM:-}" ] || return 0
	local n
	export OURS=/tmp/parity-bin
	mkdir -p "$OURS"
	for n in smcd smcr smcss smc_pnet; do
		ln -sf "$SMC" "$OURS/$n"
	done
	if [ -n "${SMC_TOOLS_DIR:-}" ]; then
		# the build this test is about, and no other
		# (its -v prints to standard error and exits 255)
		local v
		v=$("$SMC_TOOLS_DIR/smcd" -v 2>&1) || true
		[ "$v" = "smcd utility, smc-tools-1.8.5" ] || {
			echo "$SMC_TOOLS_DIR: not smc-tools 1.8.5 but '$v'" >&2
			return 1
		}
	fi
}

setup() {
	vm_only
	HOLD_PID=
	ip netns add "$NS"
	ip -n "$NS" link set lo up
}

teardown() {
	[ -n "${SMC_DUMP_IN_VM:-}" ] || return 0
	release
	smc_pnet_flush
	ip netns del "$NS" 2>/dev/null || true
	ensure_ueid
}

smc_pnet_flush() {
	"$SMC" pnet flush >/dev/null 2>&1 || true
}

# result TOOLDIR NETNS TOOL ARGS...: run TOOL ARGS in NETNS ("" the
# initial one) and print its exit status, standard output and standard
# error as one text. TOOL is found in TOOLDIR by PATH, so that both
# programs see the same argv[0] (getopt's messages print it).
result() {
	local dir=$1 ns=$2 tool=$3 rc=0
	shift 3
	run_in "$ns" env PATH="$dir:$PATH" "$tool" "$@" \
		>"$BATS_TEST_TMPDIR/o" 2>"$BATS_TEST_TMPDIR/e" || rc=$?
	printf 'exit %d\n--- stdout\n' "$rc"
	cat "$BATS_TEST_TMPDIR/o"
	printf -- '--- stderr\n'
	cat "$BATS_TEST_TMPDIR/e"
}

# first_err: a result up to the first line of its standard error, the
# error message, without the usage text smc-tools prints after it (each
# program's help text is its own; scripts read the message and status)
first_err() {
	sed '/^--- stderr$/{n;q}'
}

# same [-e] [-u UNDO] LIVE NAME NETNS TOOL ARGS...: ours and smc-tools'
# results of TOOL ARGS in NETNS are one text. With smc-tools built, both
# run, smc-tools first; -u UNDO runs smc-tools' TOOL UNDO (words) in
# NETNS after it, for a command that changed the kernel's state, so that
# ours starts from the same. Without a build, NAME's recorded result
# stands for smc-tools', or, when LIVE is "live" (the result depends on
# this run's connection), the case fails: its test skips first. -e
# compares up to the first line of standard error (first_err). With
# SMC_TOOLS_RECORD=DIR smc-tools' result (so far, with -e) is written to
# DIR/NAME.
same() {
	local filter=cat undo= live name ns tool want ours
	while :; do
		case $1 in
		-e)	filter=first_err; shift ;;
		-u)	undo=$2; shift 2 ;;
		*)	break ;;
		esac
	done
	live=$1 name=$2 ns=$3 tool=$4
	shift 4
	if [ -n "$SMC_TOOLS_DIR" ]; then
		want=$(result "$SMC_TOOLS_DIR" "$ns" "$tool" "$@")
		if [ -n "$undo" ]; then
			# shellcheck disable=SC2086
			run_in "$ns" "$SMC_TOOLS_DIR/$tool" $undo >/dev/null ||
				{ echo "$tool $undo: the undo of $name failed"; return 1; }
		fi
		if [ -n "$SMC_TOOLS_RECORD" ] && [ "$live" != live ]; then
			printf '%s\n' "$want" | "$filter" >"$SMC_TOOLS_RECORD/$name"
		fi
	elif [ "$live" = live ]; then
		echo "$name: smc-tools' result depends on this run and there is no smc-tools build"
		return 1
	else
		[ -f "$REC/$name" ] || { echo "no recorded result $REC/$name"; return 1; }
		want=$(cat "$REC/$name")
	fi
	want=$(printf '%s\n' "$want" | "$filter")
	ours=$(result "$OURS" "$ns" "$tool" "$@" | "$filter")
	if [ "$want" != "$ours" ]; then
		echo "$tool $* (in ${ns:-the initial netns}): smc-tools 1.8.5 (-) and smc-dump (+) differ"
		diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$ours") | cat -A
		return 1
	fi
}

@test "info, device: capabilities and the (empty) device lists as smc-tools prints them" {
	same rec info.smcd "" smcd info
	same rec info.smcr "" smcr info
	same rec info.smcd-show "" smcd info show
	same rec device.smcd "" smcd device
	same rec device.smcr "" smcr device
	same rec device.smcd-d "" smcd -d device
	same rec device.smcr-d "" smcr -d device show all
}

@test "stats of a netns without SMC traffic: text, details, absolute, JSON" {
	same rec stats.smcd "$NS" smcd stats
	same rec stats.smcr "$NS" smcr stats
	same rec stats.smcd-d "$NS" smcd -d stats
	same rec stats.smcr-d "$NS" smcr -d stats show
	same rec stats.smcd-a "$NS" smcd -a stats
	same rec stats.smcd-j "$NS" smcd stats json
	same rec stats.smcr-dj "$NS" smcr -d stats json
}

@test "ueid and seid: add, show, delete, flush, refusals" {
	"$SMC" ueid flush
	same rec ueid.empty "" smcd ueid show
	same -u "ueid del PARITY-EID.1" rec ueid.add "" smcd ueid add PARITY-EID.1
	same -u "ueid del SECOND" rec ueid.add2 "" smcr ueid add SECOND
	same rec ueid.show "" smcr ueid
	same -e rec ueid.dup "" smcd ueid add SECOND
	same -e rec ueid.bad-char "" smcd ueid add 'no blanks'
	same -e rec ueid.too-long "" smcd ueid add ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789
	same -u "ueid add SECOND" rec ueid.del "" smcd ueid del SECOND
	same -e rec ueid.del-missing "" smcd ueid del SECOND
	same -u "ueid add PARITY-EID.1" rec ueid.flush "" smcd ueid flush
	same rec ueid.after-flush "" smcd ueid show
	same rec seid.show "" smcd seid show
	same -e rec seid.enable "" smcd seid enable
}

@test "smc_pnet: add by interface, show, delete, flush, refusals" {
	smc_pnet_flush
	same rec pnet.empty "" smc_pnet
	same -u "-d PARITY1" rec pnet.add "" smc_pnet -a PARITY1 -I lo
	same -u "-d PARITY2" rec pnet.add-ns "$NS" smc_pnet -a PARITY2 -I lo
	same rec pnet.show-all "" smc_pnet
	same rec pnet.show "" smc_pnet -s PARITY1
	same rec pnet.show-ns "$NS" smc_pnet -s
	# the kernel keeps an entry for a device that may come later
	same -u "-d PARITY3" rec pnet.add-nodev "" smc_pnet -a PARITY3 -I nosuchdev0
	same -e rec pnet.add-noif "" smc_pnet -a PARITY3
	same -u "-a PARITY1 -I lo" rec pnet.del "" smc_pnet -d PARITY1
	same -e rec pnet.show-gone "" smc_pnet -s PARITY1
	same -u "-a PARITY2 -I lo" rec pnet.flush-ns "$NS" smc_pnet -f
	same rec pnet.after "$NS" smc_pnet
}

@test "smcss without connections, and the usage errors of each command" {
	same rec smcss.none "$NS" smcss
	same rec smcss.none-a "$NS" smcss -a
	same rec smcss.none-D "$NS" smcss -D
	same rec smcss.none-R "$NS" smcss -R
	same -e rec err.smcd-object "" smcd nosuch
	same -e rec err.smcr-command "" smcr linkgroup nosuch
	same -e rec err.smcd-stats "" smcd stats nosuch
	same -e rec err.smcss-option "" smcss -Z
	same -e rec err.pnet-option "" smc_pnet -Z
}

@test "a held SMC-D connection: smcss in each view, its link group, statistics after it" {
	local id
	[ -n "$SMC_TOOLS_DIR" ] ||
		skip "no smc-tools 1.8.5 build to run beside (scripts/smc-tools-build.sh SRC)"
	ensure_ueid
	hold --bytes 4096
	id=$("$SMC" -j socket smcd | jq -r --argjson i "$CINO" '.[] | select(.inode == $i) | .smcd.linkgroup_id')
	[[ "$id" == 0x* ]]
	same live smcss "" smcss
	same live smcss-a "" smcss -a
	same live smcss-l "" smcss -l
	same live smcss-D "" smcss -D
	same live smcss-d "" smcss -d
	same live smcss-W "" smcss -W
	same live smcss-R "" smcss -R
	same live lgr "" smcd linkgroup show "$id"
	# an ID no link group has: with link groups there (the held one),
	# both print the header only; with none, nothing (smc-tools prints
	# it with the dump's first message): a case of this run's state
	same live lgr-missing "" smcd linkgroup show 0xdeadbe00
	same live lgr-d "" smcd -d linkgroup show "$id"
	same live stats "" smcd stats
	same live stats-d "" smcd -d stats
	same live stats-j "" smcd -d stats json
	release
}
