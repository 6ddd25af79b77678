#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Every C file of the project compiles without a warning: -Wall -Wextra
# -Werror with the flags of the Makefile that builds it (the kernel
# series is checked by kernel-series.bats). A C file in a directory
# this test does not know fails it, so that no new file escapes. And every
# assertion of the test suite can fail: no "! cmd" that errexit ignores
# (testsuite/lib/dead_bang.py).

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_file
}

# mkvar DIR NAME: variable NAME of DIR/Makefile
mkvar() {
	make -s --no-print-directory -C "$TOP/$1" \
		--eval 'build-bats-print-%: ; @echo $($*)' "build-bats-print-$2"
}

# c_files: every C file of the tree (git's list when there is one)
c_files() {
	if git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$TOP" ls-files --cached --others --exclude-standard '*.c' |
			while read -r f; do [ -f "$TOP/$f" ] && echo "$f"; done
	else
		(cd "$TOP" && find . -name '*.c' -not -path './build/*' | sed 's|^\./||')
	fi
}

@test "build: every C file compiles with -Wall -Wextra -Werror" {
	local f dir flags cc out n=0 failed=0
	local smc_flags lib_flags dec_flags pre_flags tools_flags ip_flags
	smc_flags="$(mkvar smc CPPFLAGS) $(mkvar smc CFLAGS)"
	lib_flags="$(mkvar lib CPPFLAGS) $(mkvar lib CFLAGS)"
	dec_flags="$(mkvar lib/smcdump CPPFLAGS) $(mkvar lib/smcdump CFLAGS)"
	pre_flags="$(mkvar lib/smc-preload CPPFLAGS) $(mkvar lib/smc-preload CFLAGS)"
	tools_flags="$(mkvar testsuite/tools CPPFLAGS) $(mkvar testsuite/tools CFLAGS)"
	ip_flags="$(mkvar ip CPPFLAGS) $(mkvar ip CFLAGS)"
	while read -r f; do
		cc=${CC:-cc}
		case "$f" in
		testsuite/host/helpers/socket-fake.c)
			# an LD_PRELOAD library of its own (smc-socket.bats)
			dir=testsuite/host/helpers flags="-fPIC" ;;
		smc/*.bpf.c)
			# the bpf backend's programs: clang for the BPF target
			dir=smc cc=$(mkvar smc BPF_CLANG)
			flags=$(mkvar smc BPF_CFLAGS) ;;
		smc/*|testsuite/host/helpers/*)
			dir=smc flags=$smc_flags ;;
		lib/smcdump/*)
			dir=lib/smcdump flags=$dec_flags ;;
		lib/smc-preload/*)
			# smc run's LD_PRELOAD library
			dir=lib/smc-preload flags=$pre_flags ;;
		lib/*)
			dir=lib flags=$lib_flags ;;
		testsuite/tools/*)
			dir=testsuite/tools flags=$tools_flags ;;
		ip/*)
			[ -f "$TOP/build/iproute2/ip/ip_common.h" ] ||
				[ -n "${IPROUTE2_SRC:-}" ] || {
				echo "$f: no iproute2 tree (make iproute2)"
				failed=1
				continue
			}
			dir=ip flags=$ip_flags ;;
		*)
			echo "$f: no build flags known for this directory"
			failed=1
			continue ;;
		esac
		# shellcheck disable=SC2086
		out="$(cd "$TOP/$dir" && $cc $flags -Wall -Wextra -Werror \
			-c -o "$BATS_TEST_TMPDIR/x.o" "$TOP/$f" 2>&1)" || failed=1
		if [ -n "$out" ]; then
			echo "$f: $out"
			failed=1
		fi
		n=$((n + 1))
	done < <(c_files)
	echo "# $n C files compiled" >&3
	[ "$failed" = 0 ]
	# the list is the tree's: the decoder, the command, the library, the
	# tools and the helpers are all in it
	[ "$n" -ge 25 ]
}

# suite_files: every bats and bash file of the test suite
suite_files() {
	if git -C "$TOP" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$TOP" ls-files --cached --others --exclude-standard \
			'testsuite/*.bats' 'testsuite/*.bash'
	else
		(cd "$TOP" && find testsuite -name '*.bats' -o -name '*.bash')
	fi
}

@test "build: no assertion of the suite is a \"! cmd\" that errexit ignores" {
	local files
	mapfile -t files < <(suite_files)
	[ "${#files[@]}" -ge 40 ]
	cd "$TOP"
	run python3 "$TLIB/dead_bang.py" "${files[@]}"
	echo "$output"
	[ "$status" -eq 0 ] && [ -z "$output" ]
}

@test "build: the dead-assertion check names a planted \"! cmd\" by file and line" {
	local f=$BATS_TEST_TMPDIR/planted.bats
	cat >"$f" <<'EOF'
#!/usr/bin/env bats
helper() {
	! grep -q x "$1"
}

TEST "a" {
	run ! grep -q x /dev/null
	NOT grep -q x /dev/null || false
	cat <<END
BANG not a command: a here-document
END
	NOT grep -q x /dev/null &&
		true
	NOT grep -q x \
		/dev/null
	[ 1 = 1 ]
	# ! a comment
	! grep -q x /dev/null
}
EOF
	# bats takes an "@test" at a line's start as a test even inside a
	# here-document, and checkers of the suite take its dead lines for
	# ours: the planted file gets its @test and those "!" only now
	sed -i -e 's/^TEST /@test /' -e 's/^\tNOT /\t! /' -e 's/^BANG /! /' "$f"
	run -1 python3 "$TLIB/dead_bang.py" "$f"
	echo "$output"
	[ "$output" = "$f:12: ! grep -q x /dev/null && true
$f:14: ! grep -q x /dev/null" ]
	# the same file with the dead lines made real passes
	sed -i -e '12,13d' -e 's|^\t! grep -q x \\$|\trun ! grep -q x \\|' "$f"
	cat "$f"
	run -0 python3 "$TLIB/dead_bang.py" "$f"
	[ -z "$output" ]
}
