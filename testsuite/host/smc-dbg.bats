#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# smc dbg and the smc_dbg entry point: one tar.gz with a file per section
# and index.txt naming each; a section that fails or whose program is
# missing is named so, never fatal; a bad output path is a clear error
# with no file left. The host has no SMC, so most smc sections fail:
# that is the case the index must name. The PCI section reads the fake
# sysfs of helpers/rnics-sysfs.bash.

# shellcheck disable=SC2154 # bats sets $stderr
bats_require_minimum_version 1.5.0

load lib
load helpers/rnics-sysfs

# the sections as smc/dbg.c lists them, read by hand
SECTIONS="version.txt devices.txt smcss_all.txt smcss_smcd smcss_smcr pnet_table.txt smcr_links.txt smcd_lgs.txt smcd_info.txt smcd_stats.txt smcr_stats.txt stats.txt device.txt ueid.txt kernel.txt modules.txt sysctl.txt dmesg.txt"

setup_file() {
	host_setup_file smc || return 1
	s390_tree "$T/s390"
	mkdir -p "$T/bin"
	ln -sf "$SMC" "$T/bin/smc_dbg"
	export SMC_DUMP_SYSFS_DIR="$T/s390"
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}

# index FILE: the archive's index.txt
index() {
	tar -xzOf "$1" --wildcards '*/index.txt'
}

@test "smc dbg FILE: one archive, every section in it and in its index" {
	run -0 "$SMC" dbg out.tar.gz
	[ "$output" = "Debug output written to out.tar.gz" ]
	[ -f out.tar.gz ]
	[ ! -e out.tar.gz.tmp ]
	run -0 tar -tzf out.tar.gz
	local s dir
	dir=${lines[0]%%/*}
	[[ "$dir" == smc_dbg-* ]]
	for s in index.txt $SECTIONS; do
		[[ " ${lines[*]} " == *" $dir/$s "* ]] || { echo "no $s"; return 1; }
	done
	run -0 index out.tar.gz
	for s in $SECTIONS; do
		grep -Eq "^$s (ok|failed [0-9]+|missing) " <<<"$output" ||
			{ echo "index: no $s"; return 1; }
	done
	# what the sections hold: smc's version, the PCI functions of sysfs
	run -0 tar -xzOf out.tar.gz "$dir/version.txt"
	[[ "$output" == "smc utility, smc-dump "* ]]
	run -0 tar -xzOf out.tar.gz "$dir/devices.txt"
	[[ "$output" == *" 110  1      0000:00:00.0  07c1   ISM "* ]]
	grep -q "^version.txt ok smc -V$" < <(index out.tar.gz)
}

@test "smc dbg: a section whose program is missing is named in the index, the rest collected" {
	local t
	mkdir pb
	# tar and what the other sections need; no dmesg, journalctl, uname
	for t in tar gzip sh grep cat; do
		ln -s "$(command -v "$t")" "pb/$t"
	done
	run -0 env PATH="$PWD/pb" "$SMC" dbg out.tar.gz
	run -0 index out.tar.gz
	[[ "$output" == *$'\n'"kernel.txt missing uname -a"$'\n'* ]]
	[[ "$output" == *$'\n'"dmesg.txt missing dmesg (or journalctl -k) | grep -i -E 'smc|ism'"* ]]
	[[ "$output" == *$'\n'"devices.txt ok smc_rnics -a"$'\n'* ]]
	run -0 tar -xzOf out.tar.gz --wildcards '*/dmesg.txt'
	[ "$output" = "neither dmesg nor journalctl is in PATH" ]
}

@test "smc dbg: a bad output path is an error, exit 1, no file left; no tar is an error" {
	run -1 --separate-stderr "$SMC" dbg nodir/out.tar.gz
	[ "$stderr" = 'Error: cannot write "nodir/out.tar.gz": No such file or directory' ]
	[ -z "$output" ]
	[ ! -e nodir ]
	# an existing FILE.tmp is not overwritten
	touch busy.tgz.tmp
	run -1 --separate-stderr "$SMC" dbg busy.tgz
	[[ "$stderr" == 'Error: cannot write "busy.tgz": File exists' ]]
	[ ! -e busy.tgz ]
	mkdir empty
	run -1 --separate-stderr env PATH="$PWD/empty" "$SMC" dbg out.tgz
	[ "$stderr" = "Error: smc dbg needs tar(1), which is not in PATH" ]
	[ ! -e out.tgz ] && [ ! -e out.tgz.tmp ]
	run -2 "$SMC" dbg a b
}

@test "smc dbg FILE: a FILE that is no regular file is refused and left as it was" {
	mkfifo fifo.tgz
	run -1 --separate-stderr "$SMC" dbg fifo.tgz
	[ "$stderr" = 'Error: "fifo.tgz" exists and is not a regular file' ]
	[ -p fifo.tgz ]
	# a symbolic link is not followed, nor replaced
	echo keep >target
	ln -s target link.tgz
	run -1 --separate-stderr "$SMC" dbg link.tgz
	[ "$stderr" = 'Error: "link.tgz" exists and is not a regular file' ]
	[ -L link.tgz ] && [ "$(cat target)" = keep ]
	# no temporary file left beside them
	[ ! -e fifo.tgz.tmp ] && [ ! -e link.tgz.tmp ]
	# a regular file is replaced by the archive
	echo old >old.tgz
	run -0 "$SMC" dbg old.tgz
	tar -tzf old.tgz >/dev/null
}

@test "smc dbg without FILE: smc_dbg-HOST-TIME.tar.gz here" {
	run -0 "$SMC" dbg
	local f=(smc_dbg-*.tar.gz)
	[ -f "${f[0]}" ]
	[[ "${f[0]}" == "smc_dbg-$(uname -n)-"[0-9]*-[0-9]*.tar.gz ]]
	[ "$output" = "Debug output written to ${f[0]}" ]
}

@test "smc_dbg: smc-tools' sections on stdout, each after a blank line; -v, -h" {
	run -0 "$T/bin/smc_dbg"
	# checked by hand against smc-tools 1.8.5 smc_dbg: redirect() echoes
	# an empty line before each section when not writing a .tgz
	[ "${output:0:1}" = $'\n' ]
	[[ "$output" == *"smc utility, smc-dump"* ]]
	[[ "$output" == *"FID   Power  PCI_ID"* ]]
	run -0 "$T/bin/smc_dbg" -v
	[[ "$output" == "smc_dbg utility, smc-dump-"* ]]
	run -0 "$T/bin/smc_dbg" --help
	[[ "$output" == *"-t, --tgz"* ]]
	run -1 "$T/bin/smc_dbg" -x
}

@test "smc_dbg: an unknown option exits 1 as smc-tools' smc_dbg, and both pages say 1, not smc dbg's 2" {
	# smc-tools 1.8.5 smc_dbg: [ $? -ne 0 ] && exit 1 after its getopt
	run -1 --separate-stderr "$T/bin/smc_dbg" -x
	run -1 --separate-stderr "$T/bin/smc_dbg" --bogus
	run -2 --separate-stderr "$SMC" dbg a b
	local page
	for page in smc_dbg smc-dbg; do
		run -0 sed -n '/^\.SH EXIT STATUS/,/^\.SH/p' "$TOP/man/man8/$page.8"
		output=${output//$'\n'/ }
		[[ "$output" == *"1 on an unknown option"* ]]
	done
}

@test "smc_dbg -t: the archive as /tmp/smc_dbg-XXXXXX.tgz, named on stdout" {
	run -0 "$T/bin/smc_dbg" --tgz
	# checked by hand against smc-tools 1.8.5 smc_dbg's last echo
	[[ "$output" =~ ^Debug\ output\ written\ to\ (/tmp/smc_dbg-[A-Za-z0-9]{6}\.tgz)$ ]]
	local tgz=${BASH_REMATCH[1]}
	[ -f "$tgz" ]
	run -0 tar -tzf "$tgz"
	rm -f "$tgz"
	[[ "${lines[0]}" == smc_dbg-??????/ ]]
	[[ "$output" == *"/index.txt"* ]]
}
