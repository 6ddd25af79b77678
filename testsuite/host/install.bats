#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# make install: no apt, no root beyond writing DESTDIR; every
# man page of man/man8, the bash completion of smc and smc run's preload
# library installed, and found by the installed smc; the completion itself.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_file smc
	export MA
	MA=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
}

setup() {
	ROOT=
}

teardown() {
	[ -z "$ROOT" ] || rm -rf "$ROOT"
}

# fakebin DIR: apt-get, apt, apt-cache, aptitude and sudo that log their
# call to DIR/calls and fail
fakebin() {
	local d=$1 p
	mkdir -p "$d"
	chmod 755 "$d"
	for p in apt-get apt apt-cache aptitude sudo; do
		printf '#!/bin/sh\necho "%s $*" >>%s/calls\nexit 1\n' "$p" "$d" >"$d/$p"
		chmod 755 "$d/$p"
	done
	: >"$d/calls"
	chmod 666 "$d/calls"
}

# as_user CMD...: CMD as nobody when this runs as root, else as is
as_user() {
	if [ "$(id -u)" = 0 ]; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else
		"$@"
	fi
}

# installed DIR: the files and links under DIR, "path" or "path -> target"
installed() {
	(cd "$1" && find . ! -type d -printf '%P\t%y\t%l\n' | LC_ALL=C sort |
		awk -F '\t' '{ print $2 == "l" ? $1 " -> " $3 : $1 }')
}

@test "make install: no apt, no root: every man page and the bash completion into DESTDIR" {
	local fb=$BATS_TEST_TMPDIR/fakebin want
	fakebin "$fb"
	# a DESTDIR the unprivileged user owns, outside the test's private
	# directory; the programs built beforehand (install only copies)
	ROOT=$(mktemp -d /tmp/smc-install.XXXXXX)
	chmod 777 "$ROOT"
	make -s -C "$TOP/smc" >/dev/null
	# IP_TREE= : as without an iproute2 tree
	run -0 --separate-stderr as_user env PATH="$fb:$PATH" \
		make -s -C "$TOP" install DESTDIR="$ROOT/root" IP_TREE=
	echo "$output"
	echo "$stderr"
	[ ! -s "$fb/calls" ]
	[[ "$output" == *"no iproute2 tree"*"link_smc-dummy.so is not installed, its man page is"* ]]
	run -0 installed "$ROOT/root"
	want="usr/lib/$MA/smc-dump/libsmc-preload.so
usr/lib/$MA/wireshark/plugins/smcdump.lua
usr/sbin/smc
usr/sbin/smc_chk -> smc
usr/sbin/smc_dbg -> smc
usr/sbin/smc_pnet -> smc
usr/sbin/smc_rnics -> smc
usr/sbin/smc_run -> smc
usr/sbin/smcd -> smc
usr/sbin/smcdump-ex
usr/sbin/smcr -> smc
usr/sbin/smcss -> smc
usr/share/bash-completion/completions/smc
usr/share/bash-completion/completions/smc_chk -> smc
usr/share/bash-completion/completions/smc_dbg -> smc
usr/share/bash-completion/completions/smc_pnet -> smc
usr/share/bash-completion/completions/smc_rnics -> smc
usr/share/bash-completion/completions/smc_run -> smc
usr/share/bash-completion/completions/smcd -> smc
usr/share/bash-completion/completions/smcr -> smc
usr/share/bash-completion/completions/smcss -> smc
usr/share/man/man8/ip-link-smc-dummy.8
usr/share/man/man8/smc-check.8
usr/share/man/man8/smc-dbg.8
usr/share/man/man8/smc-device.8
usr/share/man/man8/smc-dump.8
usr/share/man/man8/smc-info.8
usr/share/man/man8/smc-linkgroup.8
usr/share/man/man8/smc-pnet.8
usr/share/man/man8/smc-rnics.8
usr/share/man/man8/smc-run.8
usr/share/man/man8/smc-seid.8
usr/share/man/man8/smc-socket.8
usr/share/man/man8/smc-stats.8
usr/share/man/man8/smc-ueid.8
usr/share/man/man8/smc.8
usr/share/man/man8/smc_chk.8
usr/share/man/man8/smc_dbg.8
usr/share/man/man8/smc_pnet.8
usr/share/man/man8/smc_rnics.8
usr/share/man/man8/smc_run.8
usr/share/man/man8/smcd.8
usr/share/man/man8/smcdump-ex.8
usr/share/man/man8/smcr.8
usr/share/man/man8/smcss.8"
	diff -u <(echo "$want") <(echo "$output")
	# every page of the tree, as it is
	local page
	for page in "$TOP"/man/man8/*.8; do
		cmp "$page" "$ROOT/root/usr/share/man/man8/${page##*/}"
	done
	cmp "$TOP/contrib/bash-completion/smc" "$ROOT/root/usr/share/bash-completion/completions/smc"
	cmp "$TOP/smc/smc" "$ROOT/root/usr/sbin/smc"
	# the installed smcss is smc-tools' smcss
	run -0 "$ROOT/root/usr/sbin/smcss" -v
	[ "$output" = "smcss utility, smc-dump-0.1" ]
	# and the other entry points smc-tools' commands
	local l
	for l in smc_rnics smc_dbg smc_chk smc_run; do
		run -0 "$ROOT/root/usr/sbin/$l" -v
		[ "$output" = "$l utility, smc-dump-0.1" ]
	done
	# smcd, smcr, smc_pnet: smc-tools' (their usage, version lines)
	run -0 --separate-stderr "$ROOT/root/usr/sbin/smcd" help
	[[ "$stderr" == "Usage: smcd  [ OPTIONS ] OBJECT"* ]]
	run -255 --separate-stderr "$ROOT/root/usr/sbin/smcr" -v
	[ "$stderr" = "smcr utility, smc-dump-0.1" ]
	run -0 "$ROOT/root/usr/sbin/smc_pnet" -v
	[ "$output" = "smc_pnet utility, smc-dump-0.1" ]
	# smc run of the installed smc preloads the installed library
	cmp "$TOP/lib/smc-preload/libsmc-preload.so" \
		"$ROOT/root/usr/lib/$MA/smc-dump/libsmc-preload.so"
	run -0 "$ROOT/root/usr/sbin/smc" run printenv LD_PRELOAD
	[ "$output" = "$ROOT/root/usr/lib/$MA/smc-dump/libsmc-preload.so" ]
}

@test "make install: PREFIX, and the ip plugin when an iproute2 tree is there" {
	[ -f "$TOP/build/iproute2/ip/ip_common.h" ] || skip "no build/iproute2 (make iproute2)"
	local fb=$BATS_TEST_TMPDIR/fakebin
	fakebin "$fb"
	ROOT=$(mktemp -d /tmp/smc-install.XXXXXX)
	chmod 777 "$ROOT"
	make -s -C "$TOP/smc" >/dev/null
	make -s -C "$TOP/ip" >/dev/null
	run -0 as_user env PATH="$fb:$PATH" \
		make -s -C "$TOP" install DESTDIR="$ROOT/root" PREFIX=/usr/local
	[ ! -s "$fb/calls" ]
	[[ "$output" != *"no iproute2 tree"* ]]
	run -0 installed "$ROOT/root"
	[[ "$output" == *"usr/local/lib/$MA/ip/link_smc-dummy.so"* ]]
	[[ "$output" == *"usr/local/share/man/man8/ip-link-smc-dummy.8"* ]]
	[[ "$output" == *"usr/local/share/bash-completion/completions/smc"* ]]
	[[ "$output" == *"usr/local/sbin/smcss -> smc"* ]]
	[[ "$output" == *"usr/local/lib/$MA/smc-dump/libsmc-preload.so"* ]]
	[ "$(grep -c '^usr/local/' <<<"$output")" -eq "${#lines[@]}" ]
}

@test "make install: the rule runs no apt step (no deps prerequisite)" {
	run -0 make -s -C "$TOP" -n install DESTDIR=/nonexistent IP_TREE=
	[[ "$output" != *deps.sh* ]]
	[[ "$output" != *apt* ]]
}

# complete WORD...: the completions of the last WORD after the others, as
# bash computes them with the installed script (without bash-completion's
# helpers: the script's own fallback)
complete_words() {
	bash -c '
		source "$1"
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"
		_smc
		printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$TOP/contrib/bash-completion/smc" "$@"
}

@test "bash completion: objects, commands, keywords and values" {
	bash -n "$TOP/contrib/bash-completion/smc"
	run -0 complete_words smc ""
	[ "$output" = "$(printf '%s\n' check dbg device dump help info linkgroup pnet rnics run seid socket stats ueid)" ]
	# smc check: its keywords and the host names of HOSTFILE, nothing
	# after the host
	echo "10.0.0.9 srv1 lb2" >"$BATS_TEST_TMPDIR/hosts"
	HOSTFILE="$BATS_TEST_TMPDIR/hosts" run -0 complete_words smc check s
	[ "$output" = "$(printf '%s\n' server srv1)" ]
	HOSTFILE="$BATS_TEST_TMPDIR/hosts" run -0 complete_words smc -n ns1 check l
	[ "$output" = "$(printf '%s\n' lb2 loopback)" ]
	run -0 complete_words smc check srv1 ""
	[ -z "$output" ]
	run -0 complete_words smc -j s
	[ "$output" = "$(printf '%s\n' seid socket stats)" ]
	run -0 complete_words smc seid ""
	[ "$output" = "$(printf '%s\n' disable enable help show)" ]
	run -0 complete_words smc -
	[[ "$output" == *"-json"* && "$output" == *"-pretty"* && "$output" == *"-netns"* ]]
	# the object after -n NAME
	run -0 complete_words smc -n ns1 so
	[ "$output" = socket ]
	run -0 complete_words smc dump st
	[ "$output" = "$(printf '%s\n' start stats stop)" ]
	run -0 complete_words smc dump start mode ""
	[ "$output" = "$(printf '%s\n' all smc smcd smcr)" ]
	run -0 complete_words smc dump start mode smcd ty
	[ "$output" = "type" ]
	run -0 complete_words smc ueid ""
	[ "$output" = "$(printf '%s\n' add del flush help show)" ]
	run -0 complete_words smc socket l
	[ "$output" = "listening" ]
	run -0 complete_words smc linkgroup ""
	[ "$output" = "$(printf '%s\n' all help ibdev link-show netdev show type)" ]
	run -0 complete_words smc device show ""
	[ "$output" = "$(printf '%s\n' all ibdev netdev type)" ]
	run -0 complete_words smc linkgroup link-show type ""
	[ "$output" = "$(printf '%s\n' smcd smcr)" ]
	run -0 complete_words smc device netdev l
	[[ "$output" == *lo* ]]
	run -0 complete_words smc i
	[ "$output" = info ]
	run -0 complete_words smc -a stats r
	[ "$output" = reset ]
	run -0 complete_words smc -ab
	[ "$output" = -absolute ]
	run -0 complete_words smc dump read cdc-endian ""
	[ "$output" = "$(printf '%s\n' big little)" ]
	run -0 complete_words smc pnet ""
	[ "$output" = "$(printf '%s\n' add del flush help show)" ]
	run -0 complete_words smc pnet add ""
	[ -z "$output" ]
	run -0 complete_words smc pnet add NET1 ""
	[ "$output" = "$(printf '%s\n' eth ib port)" ]
	run -0 complete_words smc pnet add NET1 eth l
	[[ "$output" == *lo* ]]
	run -0 complete_words smc pnet add NET1 ib mlx5_0 port ""
	[ "$output" = "$(printf '%s\n' 1 2)" ]
	run -0 complete_words smc help p
	[ "$output" = pnet ]
	# smc run: its options, then a command, then the command's words
	run -0 complete_words smc ru
	[ "$output" = run ]
	run -0 complete_words smc run -
	[ "$output" = "$(printf '%s\n' -- -d -p -r -t)" ]
	run -0 complete_words smc run -r ""
	[ -z "$output" ]
	run -0 complete_words smc run -d -r 1k -
	[ "$output" = "$(printf '%s\n' -- -d -p -r -t)" ]
	# -p: the paths; its value is no command
	run -0 complete_words smc run -p ""
	[ "$output" = "$(printf '%s\n' auto bpf preload)" ]
	run -0 complete_words smc run -p b
	[ "$output" = bpf ]
	run -0 complete_words smc run -p bpf -
	[ "$output" = "$(printf '%s\n' -- -d -p -r -t)" ]
	run -0 complete_words smc run -p bpf bas
	[[ "$output" == *bash* ]]
	run -0 complete_words smc run -r 1k -t 2k bas
	[[ "$output" == *bash* ]]
	run -0 complete_words smc run bash "$TOP/contrib/bash-completion/s"
	[ "$output" = "$TOP/contrib/bash-completion/smc" ]
	run -0 complete_words smc run bash -
	[ -z "$output" ]
	run -0 complete_words smc help r
	[ "$output" = "$(printf '%s\n' rnics run)" ]
	# smc rnics: its words, nothing after fid
	run -0 complete_words smc rnics ""
	[ "$output" = "$(printf '%s\n' all fid help ibdev raw show)" ]
	run -0 complete_words smc rnics fid ""
	[ -z "$output" ]
	# the entry points of smc-tools' commands: their options
	entry_words() {
		bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _smc_tools_entry "$1"; printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$TOP/contrib/bash-completion/smc" "$@"
	}
	run -0 entry_words smc_rnics --r
	[ "$output" = --rawids ]
	run -0 entry_words smc_dbg -
	[ "$output" = "$(printf '%s\n' --help --tgz --version -h -t -v)" ]
	run -0 entry_words smc_chk -i l
	[[ "$output" == *lo* ]]
	run -0 entry_words smc_run -r 1k bas
	[[ "$output" == *bash* ]]
	run -0 entry_words smc_run -
	[ "$output" = "$(printf '%s\n' -d -h -r -t -v)" ]
	# smcss: its own options
	run -0 bash -c 'source "$1"; COMP_WORDS=(smcss --s); COMP_CWORD=1; _smcss; printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$TOP/contrib/bash-completion/smc"
	[ "$output" = "$(printf '%s\n' --smcd --smcr)" ]
	# smcd, smcr, smc_pnet: smc-tools' objects, words and options
	tools() {
		bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); case $1 in smc_pnet) _smc_pnet ;; *) _smctools ;; esac; printf "%s\n" "${COMPREPLY[@]}" | sort' _ "$TOP/contrib/bash-completion/smc" "$@"
	}
	run -0 tools smcd ""
	[ "$output" = "$(printf '%s\n' device help info linkgroup seid stats ueid)" ]
	run -0 tools smcr -d ""
	[ "$output" = "$(printf '%s\n' device help info linkgroup stats ueid)" ]
	run -0 tools smcr linkgroup ""
	[ "$output" = "$(printf '%s\n' all help ibdev link-show netdev show)" ]
	run -0 tools smcd device ""
	[ "$output" = "$(printf '%s\n' all help show)" ]
	run -0 tools smcd seid ""
	[ "$output" = "$(printf '%s\n' disable enable help show)" ]
	run -0 tools smc_pnet --i
	[ "$output" = "$(printf '%s\n' --ibdevice --ibport --interface)" ]
	run -0 tools smc_pnet -P ""
	[ "$output" = "$(printf '%s\n' 1 2)" ]
}
