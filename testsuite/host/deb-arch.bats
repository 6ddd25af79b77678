#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# scripts/deb-arch-check.sh, which make deb runs on every smc-dump .deb:
# the Architecture field must name the machine of usr/sbin/smc (ELF
# machine and byte order). Checked on small .debs made here: an amd64
# program passes as amd64 and fails as arm64 or s390x; a .deb without
# smc, or of an architecture the check does not know, fails; the s390x
# smc of make cross passes as s390x (skipped without it); a listing that
# goes on after usr/sbin/smc is read to its end.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	export TOP
	export T="$BATS_FILE_TMPDIR"
	export CHECK="$TOP/scripts/deb-arch-check.sh"
}

# mkdeb NAME ARCH [PROGRAM]: $T/NAME.deb of Architecture ARCH with
# PROGRAM as usr/sbin/smc (none without PROGRAM)
mkdeb() {
	local d=$T/$1
	rm -rf "$d/DEBIAN" "$d/usr/sbin"
	mkdir -p "$d/DEBIAN" "$d/usr/sbin"
	printf 'Package: smc-dump\nVersion: 1.0\nArchitecture: %s\nMaintainer: t <t@example.org>\nDescription: test\n' \
		"$2" >"$d/DEBIAN/control"
	[ -z "${3:-}" ] || cp "$3" "$d/usr/sbin/smc"
	dpkg-deb --root-owner-group -b "$d" "$T/$1.deb" >/dev/null
}

@test "deb-arch-check: an amd64 smc in an amd64 .deb passes" {
	[ "$(dpkg --print-architecture)" = amd64 ] || skip "not an amd64 machine"
	mkdeb ok amd64 /bin/true
	run -0 bash "$CHECK" "$T/ok.deb"
	[ "$output" = "deb-arch-check: ok.deb: Architecture amd64, usr/sbin/smc Advanced Micro Devices X86-64, little" ]
}

@test "deb-arch-check: an amd64 smc in an arm64 or s390x .deb fails" {
	[ "$(dpkg --print-architecture)" = amd64 ] || skip "not an amd64 machine"
	mkdeb ok amd64 /bin/true
	mkdeb arm arm64 /bin/true
	mkdeb s390 s390x /bin/true
	run -1 bash "$CHECK" "$T/arm.deb"
	[ "$output" = "deb-arch-check: arm.deb: Architecture arm64, but usr/sbin/smc is Advanced Micro Devices X86-64, little" ]
	# the first good, the second not: the second fails the call
	run -1 bash "$CHECK" "$T/ok.deb" "$T/s390.deb"
	[[ "$output" == *"s390.deb: Architecture s390x, but usr/sbin/smc is Advanced Micro Devices X86-64, little" ]]
}

@test "deb-arch-check: files listed after usr/sbin/smc do not break the listing" {
	[ "$(dpkg --print-architecture)" = amd64 ] || skip "not an amd64 machine"
	# dpkg-deb -c into a reader that stops at the first match dies of
	# SIGPIPE when more of the listing follows, as in the real .debs
	mkdir -p "$T/many/usr/share/smc-dump-test"
	(cd "$T/many/usr/share/smc-dump-test" && seq -f 'file-with-a-long-name-%05g' 4000 | xargs touch)
	mkdeb many amd64 /bin/true
	[ "$(dpkg-deb -c "$T/many.deb" | wc -l)" -gt 4000 ]
	run -0 bash "$CHECK" "$T/many.deb"
	[ "$output" = "deb-arch-check: many.deb: Architecture amd64, usr/sbin/smc Advanced Micro Devices X86-64, little" ]
}

@test "deb-arch-check: a .deb without smc, or of another architecture, fails" {
	mkdeb nosmc amd64
	run -1 bash "$CHECK" "$T/nosmc.deb"
	[ "$output" = "deb-arch-check: nosmc.deb: no usr/sbin/smc" ]
	mkdeb mips mips64el /bin/true
	run -1 bash "$CHECK" "$T/mips.deb"
	[ "$output" = "deb-arch-check: mips.deb: Architecture 'mips64el' is none of amd64, arm64, s390x" ]
}

@test "deb-arch-check: the s390x smc of make cross passes as s390x" {
	local smc=$TOP/build/cross/s390x/bin/smc
	[ -x "$smc" ] || skip "no $smc (make cross)"
	mkdeb s390 s390x "$smc"
	run -0 bash "$CHECK" "$T/s390.deb"
	[ "$output" = "deb-arch-check: s390.deb: Architecture s390x, usr/sbin/smc IBM S/390, big" ]
}
