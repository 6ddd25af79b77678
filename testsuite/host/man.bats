#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# The manual pages of man/man8: every page renders without a warning of
# groff or man, every object that "smc help" lists has its page
# smc-OBJECT(8) with the sections a page needs, smc(8) points to each, and
# make install installs each (the list of smc/Makefile).

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_file smc
}

# render_warnings PAGE: what groff and man say on standard error while
# rendering PAGE (nothing for a clean page)
render_warnings() {
	groff -ww -man -Tutf8 -z "$1" 2>&1
	# shellcheck disable=SC2069 # the warnings to the caller, the page to /dev/null
	LC_ALL=C.UTF-8 MANROFFSEQ='' MANWIDTH=80 man --warnings \
		--encoding=UTF-8 --local-file --troff-device=utf8 --ditroff "$1" 2>&1 >/dev/null
}

# the objects of "smc help", from its line "where  OBJECT := { a | b |"
# and the next: one a line
help_objects() {
	"$SMC" help | sed -n '/OBJECT :=/,/}/p' | sed 's/.*{//; s/}.*//' |
		tr '|' '\n' | tr -d ' ' | sed '/^$/d'
}

@test "every page of man/man8 renders without warnings of groff and man" {
	local page n=0
	for page in "$TOP"/man/man8/*.8; do
		run render_warnings "$page"
		echo "$page: $output"
		[ "$status" -eq 0 ]
		[ -z "$output" ]
		n=$((n + 1))
	done
	# smc, 13 objects, smcss, the other entry points, smcdump-ex,
	# ip-link-smc-dummy
	[ "$n" -ge 24 ]
}

@test "the check of the pages fails on a page with a warning" {
	printf '.TH X 8\n.SH NAME\nx \\- y\n.BOGUS\n.SH SEE ALSO\n' \
		>"$BATS_TEST_TMPDIR/bad.8"
	run render_warnings "$BATS_TEST_TMPDIR/bad.8"
	[ -n "$output" ]
}

@test "every object of smc help has its page smc-OBJECT(8), which smc(8) names" {
	run -0 help_objects
	local objs=("${lines[@]}") o page s
	# the list as smc.c has it, read by hand
	[ "${objs[*]}" = "ueid stats socket dump info device seid linkgroup pnet run check rnics dbg" ]
	for o in "${objs[@]}"; do
		page="$TOP/man/man8/smc-$o.8"
		[ -f "$page" ] || { echo "no $page"; return 1; }
		# NAME as whatis wants it, and the sections every page has
		grep -qx "smc\\\\-$o \\\\- .*" "$page" || { echo "$page: NAME"; return 1; }
		for s in NAME SYNOPSIS DESCRIPTION OPTIONS "SEE ALSO"; do
			grep -qx "\\.SH $s" "$page" || { echo "$page: no $s"; return 1; }
		done
		grep -qx '\.BR smc (8),\?' "$page" || { echo "$page: no smc(8)"; return 1; }
		# smc(8): its line in OBJECTS and SEE ALSO
		for s in OBJECTS "SEE ALSO"; do
			sed -n "/^\\.SH $s\$/,/^\\.SH /p" "$TOP/man/man8/smc.8" |
				grep -qx "\\.BR smc\\\\-$o (8)[.,]" ||
				{ echo "smc.8: smc-$o(8) not in $s"; return 1; }
		done
		# installed by make install (smc/Makefile)
		grep -qw "smc-$o\\.8" "$TOP/smc/Makefile" ||
			{ echo "smc/Makefile does not install smc-$o.8"; return 1; }
	done
	# and no page for an object that is not there
	for page in "$TOP"/man/man8/smc-*.8; do
		o=${page##*/smc-}
		o=${o%.8}
		[[ " ${objs[*]} " == *" $o "* ]] || { echo "$page: no such object"; return 1; }
	done
}

@test "smc-socket(8) notes smcss, which has its own page" {
	run -0 env MANWIDTH=80 man -l "$TOP/man/man8/smc-socket.8"
	[[ "$output" == *"SYNOPSIS"*"smcss [ -a | -l ]"*"DESCRIPTION"* ]]
	[[ "$output" == *"SEE ALSO"*"smcss(8)"* ]]
	[ -f "$TOP/man/man8/smcss.8" ]
}

@test "every name smc answers to (smcss, smc/Makefile ENTRY_LINKS) has its page, installed, naming smc(8)" {
	local names pages n
	names=$(make -s --no-print-directory -C "$TOP/smc" \
		--eval 'print-links: ; @echo $(ENTRY_LINKS)' print-links)
	pages=$(make -s --no-print-directory -C "$TOP/smc" \
		--eval 'print-pages: ; @echo $(MANPAGES)' print-pages)
	# read by hand in smc/Makefile
	for n in smcd smcr smc_pnet; do
		[[ " $names " == *" $n "* ]] || { echo "$n: not in ENTRY_LINKS"; return 1; }
	done
	for n in smcss $names; do
		[ -f "$TOP/man/man8/$n.8" ] || { echo "no $n.8"; return 1; }
		[[ " $pages " == *" $n.8 "* ]] || { echo "$n.8 not installed"; return 1; }
		grep -q '^\.BR smc (8)' "$TOP/man/man8/$n.8" || { echo "$n.8: no smc(8)"; return 1; }
	done
}
