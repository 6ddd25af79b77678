#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# Host tests of smc run's bpf path: -p, the choice of -p auto
# and the refusals of -p bpf, each one line that names what is missing and
# what to use instead, with nothing left loaded. The host kernel has no
# SMC: SMC_RUN_NO_SMC_CHECK=1 skips the IPPROTO_SMC check to reach the
# later ones, SMC_DUMP_BTF_DIR puts a made-up vmlinux BTF (encoded by
# pahole from a small C file, with or without update_socket_protocol) in
# place of /sys/kernel/btf, as testsuite/host/dump-bpf.bats does. Where
# the host kernel also loads the programs, the last test sees them act
# (socket() of a tracked process fails with EPROTONOSUPPORT, as IPPROTO_SMC
# does without SMC) and whom they leave alone. SMC-D through the bpf path,
# a static program included, is tested in testsuite/vm/smc-run.bats.

# shellcheck disable=SC2016,SC2030,SC2031,SC2154 # sh -c '"$0"' on purpose; each test exports its own; bats sets $stderr
bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_file smc lib/smc-preload || return 1
	export PRELOAD="$TOP/lib/smc-preload/libsmc-preload.so"
	# readable by nobody, for the test without privileges
	BTF_ROOT=$(mktemp -d /tmp/smc-run-bpf.XXXXXX) || return 1
	chmod 755 "$BTF_ROOT"
	export BTF_ROOT
}

teardown_file() {
	[ -n "${BTF_ROOT:-}" ] && rm -rf "$BTF_ROOT"
	return 0
}

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
	unset SMC_RUN_NO_SMC_CHECK SMC_DUMP_BTF_DIR LD_PRELOAD
}

# fake_vmlinux DIR FUNCTION...: DIR/vmlinux, a BTF with FUNCTION... only
fake_vmlinux() {
	local dir=$1 f
	shift
	command -v pahole >/dev/null || skip "no pahole"
	mkdir -p "$dir"
	for f in "$@"; do
		echo "int $f(int family, int type, int protocol) { return family + type + protocol; }"
	done >"$dir/k.c"
	gcc -g -O1 -c -o "$dir/k.o" "$dir/k.c"
	pahole --btf_encode_detached="$dir/vmlinux" "$dir/k.o"
	rm -f "$dir/k.o" "$dir/k.c"
	chmod -R a+rX "$dir"
}

# no_progs: none of smc run's programs is loaded
no_progs() {
	command -v bpftool >/dev/null || return 0
	! bpftool prog show 2>/dev/null | grep -Eq ' name smc_run_(proto|fork|exit) '
}

host_has_ipproto_smc() {
	python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_STREAM, 256).close()' 2>/dev/null
}

WHY='smc run: the bpf path cannot work: '
USE='; use -p preload (LD_PRELOAD: dynamically linked programs only).'

@test "smc run -p: its values, its errors, and -r/-t refused with -p bpf" {
	run -0 "$SMC" run help
	[[ "${lines[0]}" == "Usage: smc run [ -p PATH ] [ -r SIZE ] [ -t SIZE ] [ -d ] [ -- ] COMMAND [ ARG ]..." ]]
	[[ "$output" == *"PATH := { auto | bpf | preload }"* ]]
	run -2 --separate-stderr "$SMC" run -p
	[ "$stderr" = 'Error: option "-p" needs a PATH, try "smc run help".' ]
	run -2 --separate-stderr "$SMC" run -p ebpf true
	[ "$stderr" = 'Error: argument "ebpf" is wrong: -p must be auto, bpf or preload' ]
	run -2 --separate-stderr "$SMC" run -p "" true
	[ "$stderr" = 'Error: argument "" is wrong: -p must be auto, bpf or preload' ]
	run -2 --separate-stderr "$SMC" run -p bpf -p preload true
	[ "$stderr" = 'Error: duplicate "-p": "preload" is the second value.' ]
	# the value glued on, as -r and -t take it; COMMAND's own -p is its
	run -0 "$SMC" run -ppreload sh -c 'echo "$*"' sh -p bpf
	[ "$output" = "-p bpf" ]
	# buffer sizes are the preload library's: with -p bpf a usage error,
	# before anything is checked or loaded, and the command does not run
	run -2 --separate-stderr "$SMC" run -p bpf -r 64k touch ran
	[ "$stderr" = "Error: -r and -t need the preload path: the bpf path cannot set buffer sizes; use -p preload or -p auto." ]
	run -2 --separate-stderr "$SMC" run -t 1m -p bpf touch ran
	[ "$stderr" = "Error: -r and -t need the preload path: the bpf path cannot set buffer sizes; use -p preload or -p auto." ]
	[ ! -e ran ]
}

@test "smc run -p auto: -d says which path and why; -p preload never tries bpf" {
	local lib
	lib=$(realpath "$PRELOAD")
	# -r or -t: preload, whatever the kernel has
	run -0 --separate-stderr "$SMC" run -d -r 64k printenv LD_PRELOAD
	[ "$output" = "$lib" ]
	[ "${stderr%%$'\n'*}" = "smc run: path preload: the bpf path cannot work: it cannot set buffer sizes (-r, -t): update_socket_protocol() has no socket to set them on" ]
	run -0 --separate-stderr "$SMC" run -d -p preload true
	[ "${stderr%%$'\n'*}" = "smc run: path preload: -p preload" ]
	# a kernel without IPPROTO_SMC (this host): preload, and why
	if ! host_has_ipproto_smc; then
		run -0 --separate-stderr "$SMC" run -d printenv LD_PRELOAD
		[ "$output" = "$lib" ]
		[[ "${stderr%%$'\n'*}" =~ ^smc\ run:\ path\ preload:\ the\ bpf\ path\ cannot\ work:\ the\ kernel\ makes\ no\ IPPROTO_SMC\ socket\ \((Protocol not supported|Invalid argument)\):\ that\ needs\ Linux\ 6\.11\ or\ later\ and\ the\ smc\ module$ ]]
	fi
	# no BTF
	export SMC_RUN_NO_SMC_CHECK=1 SMC_DUMP_BTF_DIR="$BTF_ROOT/none"
	run -0 --separate-stderr "$SMC" run -d printenv LD_PRELOAD
	[ "$output" = "$lib" ]
	[ "${stderr%%$'\n'*}" = "smc run: path preload: the bpf path cannot work: the running kernel has no BTF ($BTF_ROOT/none/vmlinux: No such file or directory), which attaching to update_socket_protocol() needs (CONFIG_DEBUG_INFO_BTF=y)" ]
	# BTF without the function (a kernel before 6.6)
	fake_vmlinux "$BTF_ROOT/old" sock_create __sys_socket
	export SMC_DUMP_BTF_DIR="$BTF_ROOT/old"
	run -0 --separate-stderr "$SMC" run -d printenv LD_PRELOAD
	[ "$output" = "$lib" ]
	[ "${stderr%%$'\n'*}" = "smc run: path preload: the bpf path cannot work: the running kernel has no function update_socket_protocol() to attach to (Linux 6.6 and later; not in $BTF_ROOT/old/vmlinux)" ]
	# a file that is no BTF
	mkdir -p "$BTF_ROOT/bad"
	echo "not BTF" >"$BTF_ROOT/bad/vmlinux"
	export SMC_DUMP_BTF_DIR="$BTF_ROOT/bad"
	run -0 --separate-stderr "$SMC" run -d true
	[ "${stderr%%$'\n'*}" = "smc run: path preload: the bpf path cannot work: cannot read the BTF $BTF_ROOT/bad/vmlinux: BPF object format invalid" ]
	# without -d, auto says nothing
	run -0 --separate-stderr "$SMC" run true
	[ -z "$stderr" ]
	no_progs
}

@test "smc run -p bpf: each refusal one line, exit 1, the command not run, nothing loaded" {
	local sock="the kernel makes no IPPROTO_SMC socket"
	if ! host_has_ipproto_smc; then
		run -1 --separate-stderr "$SMC" run -p bpf touch ran
		[[ "$stderr" =~ ^Error:\ "$WHY$sock"\ \((Protocol not supported|Invalid argument)\):\ that\ needs\ Linux\ 6\.11\ or\ later\ and\ the\ smc\ module"$USE"$ ]]
		[ "${#lines[@]}" -eq 0 ]
		# a kernel built without SMC (Debian's 7.x): the advice names it
		local m=$BATS_TEST_TMPDIR/mods
		mkdir -p "$m"
		echo 'kernel/net/ipv4/tcp_cubic.ko:' >"$m/modules.dep"
		: >"$m/modules.builtin"
		SMC_DUMP_MODULES_DIR=$m run -1 --separate-stderr "$SMC" run -p bpf touch ran
		[[ "$stderr" == "Error: $WHY$sock ("*"): the running kernel is built without SMC (its modules.dep and modules.builtin name no smc module): boot a kernel with CONFIG_SMC"*"$USE" ]]
	fi
	export SMC_RUN_NO_SMC_CHECK=1 SMC_DUMP_BTF_DIR="$BTF_ROOT/none"
	run -1 --separate-stderr "$SMC" run -p bpf touch ran
	[ "$stderr" = "Error: ${WHY}the running kernel has no BTF ($BTF_ROOT/none/vmlinux: No such file or directory), which attaching to update_socket_protocol() needs (CONFIG_DEBUG_INFO_BTF=y)$USE" ]
	fake_vmlinux "$BTF_ROOT/old" sock_create
	export SMC_DUMP_BTF_DIR="$BTF_ROOT/old"
	run -1 --separate-stderr "$SMC" run -p bpf -d touch ran
	[ "$stderr" = "Error: ${WHY}the running kernel has no function update_socket_protocol() to attach to (Linux 6.6 and later; not in $BTF_ROOT/old/vmlinux)$USE" ]
	[ ! -e ran ]
	no_progs
}

@test "smc run without CAP_BPF and CAP_PERFMON: -p bpf refused, auto takes preload" {
	command -v setpriv >/dev/null || skip "no setpriv"
	[ "$(id -u)" = 0 ] || skip "needs root to become nobody"
	fake_vmlinux "$BTF_ROOT/new" update_socket_protocol
	export SMC_RUN_NO_SMC_CHECK=1 SMC_DUMP_BTF_DIR="$BTF_ROOT/new"
	local nobody=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
	run -1 --separate-stderr "${nobody[@]}" "$SMC" run -p bpf true
	[ "$stderr" = "Error: ${WHY}loading its BPF programs needs CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN): run as root$USE" ]
	run -0 --separate-stderr "${nobody[@]}" "$SMC" run -d sh -c 'id -u; printenv LD_PRELOAD'
	[ "${lines[0]}" = "$(id -u nobody)" ]
	[ "${lines[1]}" = "$(realpath "$PRELOAD")" ]
	[ "${stderr%%$'\n'*}" = "smc run: path preload: the bpf path cannot work: loading its BPF programs needs CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN): run as root" ]
	# root without those capabilities is refused the same way
	command -v capsh >/dev/null || return 0
	run -1 --separate-stderr capsh --drop=cap_sys_admin,cap_bpf,cap_perfmon -- \
		-c '"$0" run -p bpf true' "$SMC"
	[ "$stderr" = "Error: ${WHY}loading its BPF programs needs CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN): run as root$USE" ]
	no_progs
}

@test "smc run -p bpf on this kernel: the command's TCP sockets, and its children's, become IPPROTO_SMC; nobody else's" {
	local out rc=0 pid
	export SMC_RUN_NO_SMC_CHECK=1
	host_has_ipproto_smc && skip "the host kernel has SMC: the EPROTONOSUPPORT of IPPROTO_SMC cannot be seen"
	out=$("$SMC" run -p bpf true 2>&1) || rc=$?
	if [ "$rc" != 0 ]; then
		[[ "$out" == "Error: ${WHY}the kernel refused its BPF programs: "* ||
		   "$out" == "Error: ${WHY}the running kernel has no "* ]]
		skip "the host kernel does not take the programs: ${out#Error: "$WHY"}"
	fi
	# IPPROTO_SMC asked for where the kernel has no SMC: the socket()
	# fails, in the command and in a grandchild, with or without flags
	local mk='import socket, sys
try:
    socket.socket(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])).close()
    print("ok")
except OSError as e:
    print(e.strerror)'
	run -0 "$SMC" run -p bpf python3 -c "$mk" 2 1 0
	[ "$output" = "Protocol not supported" ]
	run -0 "$SMC" run -p bpf sh -c 'python3 -c "$1" 10 2049 6' sh "$mk"
	[ "$output" = "Protocol not supported" ]
	# UDP, AF_UNIX, another protocol, a raw socket: untouched
	run -0 "$SMC" run -p bpf sh -c 'for a in "2 2 0" "1 1 0" "2 1 132"; do python3 -c "$1" $a; done' sh "$mk"
	[ "$output" = $'ok\nok\nProtocol not supported' ] || [ "$output" = $'ok\nok\nok' ]
	# a process outside the command, while the programs are attached:
	# the command starts once they are, and says so in a file
	"$SMC" run -p bpf sh -c ': >"$1"; exec sleep 5' sh "$BATS_TEST_TMPDIR/attached" &
	pid=$!
	WAIT_TIMEOUT=10 wait_for "smc run -p bpf's command started" test -e "$BATS_TEST_TMPDIR/attached"
	run -0 python3 -c "$mk" 2 1 0
	[ "$output" = "ok" ]
	kill "$pid"
	wait "$pid" || true
	no_progs
}
