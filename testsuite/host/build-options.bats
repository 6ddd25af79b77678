#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# smc builds without cairo and without libbpf: smc/configure finds them
# with pkg-config (and clang and bpftool for the BPF programs), make
# HAVE_CAIRO=n HAVE_LIBBPF=n leaves them out where they are installed.
# A copy of the tree is built that way in the file's temporary directory;
# the parts left out say what to install and fail, the rest answers as
# the full build of the tree does. The copy is built with CFLAGS on make's
# command line, as a distribution or a sanitizer build gives them: they
# add to the project's own flags, which they would otherwise replace.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_file smc testsuite/tools || return 1
	local log="$T/build.log"
	mkdir -p "$T/src"
	(cd "$TOP" && git ls-files --cached --others --exclude-standard -z |
		xargs -0 -I{} sh -c 'test -f "{}" && echo "{}"' |
		grep -v '^build/' | tar -cf - -T -) | tar -xf - -C "$T/src"
	make -C "$T/src/smc" HAVE_CAIRO=n HAVE_LIBBPF=n CFLAGS="-O1 -g" >"$log" 2>&1 || {
		cat "$log" >&3
		return 1
	}
	export SMC_MIN="$T/src/smc/smc"
}

@test "build options: CFLAGS on make's command line add to the project's flags" {
	# each compiler line of the copy's build has the given and the own flags
	run -0 grep -- ' -c -o [a-z_]*\.o ' "$T/build.log"
	[ "${#lines[@]}" -gt 20 ]
	run -1 grep -v -e '-O1 -g .*-std=gnu11' -e '-std=gnu11.*-O1 -g' <<<"$output"
}

# a capture of one connection: two data records and their CDC messages
write_cap() {
	"$GEN" "$1" <<'EOF2'
data ts=1700000000.010 token=1 seq=0 offset=0 len=8192
cdc  ts=1700000000.010 token=1 seq=1 pcount=8192
cdc  ts=1700000000.520 token=1 seq=2 dir=rx ccount=8192
data ts=1700000000.530 token=1 seq=3 offset=8192 len=4096
cdc  ts=1700000000.530 token=1 seq=4 pcount=12288
EOF2
}

@test "build options: configure finds cairo and libbpf here, names what a machine lacks" {
	run -0 --separate-stderr sh "$TOP/smc/configure"
	[[ "$output" == *"HAVE_CAIRO := y"* ]]
	[[ "$output" == *"HAVE_LIBBPF := y"* ]]
	[ -z "$stderr" ]
	# a pkg-config that knows no package, and no bpftool
	run -0 --separate-stderr env PKG_CONFIG=false BPFTOOL=no-such-bpftool \
		sh "$TOP/smc/configure"
	[[ "$output" == *"HAVE_CAIRO := n"* ]]
	[[ "$output" == *"HAVE_LIBBPF := n"* ]]
	[[ "$stderr" == *"cairo not found (libcairo2-dev): smc dump graph left out"* ]]
	[[ "$stderr" == *"missing libbpf-dev bpftool: the bpf backend and smc run -p bpf left out"* ]]
}

@test "build options: HAVE_CAIRO=n HAVE_LIBBPF=n links neither library" {
	run -0 readelf -d "$SMC_MIN"
	[[ "$output" == *"libmnl"* ]]
	[[ "$output" != *"libcairo"* ]]
	[[ "$output" != *"libbpf"* ]]
	# the full build of the tree has both
	run -0 readelf -d "$SMC"
	[[ "$output" == *"libcairo"* ]]
	[[ "$output" == *"libbpf"* ]]
}

@test "build options: without cairo, smc dump graph names libcairo2-dev and fails" {
	write_cap "$T/g.pcap"
	run -1 --separate-stderr "$SMC_MIN" dump graph write "$T/g.png" "$T/g.pcap"
	[ -z "$output" ]
	[ "$stderr" = "Error: smc dump graph is not available: this smc was built without cairo; install libcairo2-dev (and pkg-config) and build smc again." ]
	run -1 compgen -G "$T/g*.png"
	# the full build draws it (a picture per direction)
	run -0 "$SMC" dump graph write "$T/g.png" "$T/g.pcap"
	[ -s "$T/g-smcr-00000001-tx.png" ]
}

@test "build options: without libbpf, backend bpf and smc run -p bpf name libbpf-dev and fail" {
	local links
	links=$(ip -o link show | wc -l)
	run -1 --separate-stderr "$SMC_MIN" dump start backend bpf write "$T/b.pcap"
	[ "$stderr" = "Error: backend bpf is not available: this smc was built without libbpf; install libbpf-dev, clang and bpftool and build smc again, or use backend kernel." ]
	[ ! -e "$T/b.pcap" ]
	# no link was left behind
	[ "$(ip -o link show | wc -l)" -eq "$links" ]
	run -1 --separate-stderr "$SMC_MIN" run -p bpf true
	[ "$stderr" = "Error: smc run: the bpf path cannot work: this smc was built without libbpf; install libbpf-dev, clang and bpftool and build smc again; use -p preload (LD_PRELOAD: dynamically linked programs only)." ]
}

@test "build options: the rest of smc answers as the full build does" {
	local args
	write_cap "$T/r.pcap"
	for args in "dump read" "dump read -d" "-j dump read" "dump stats" "dump analyze"; do
		# shellcheck disable=SC2086
		run -0 "$SMC" $args "$T/r.pcap"
		local want=$output
		[ -n "$want" ]
		# shellcheck disable=SC2086
		run -0 "$SMC_MIN" $args "$T/r.pcap"
		[ "$output" = "$want" ]
	done
	run -0 "$SMC" help
	local want=$output
	run -0 "$SMC_MIN" help
	[ "$output" = "$want" ]
	# the usage of smc dump start still lists backend bpf (its error
	# says what is missing) and smc run still parses -p
	run -2 "$SMC_MIN" run -p nothing true
	[[ "$output" == *"-p"* ]]
}
