#!/usr/bin/env bats
# scripts/apt-mirror.sh's mirror(): the bookworm mirror read off apt
# sources written here in each form apt accepts (APT_ETC points there).

TOP=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)

setup() {
	etc=$BATS_TEST_TMPDIR/apt
	mkdir -p "$etc/sources.list.d"
	unset SMC_DUMP_APT_MIRROR
}

# mirrors [SUITE]: what mirror() prints for the sources under $etc, in $output
mirrors() {
	run env APT_ETC="$etc" ${SMC_DUMP_APT_MIRROR:+SMC_DUMP_APT_MIRROR="$SMC_DUMP_APT_MIRROR"} \
		bash -c '. "$1/scripts/apt-mirror.sh" && mirror "${@:2}"' _ "$TOP" "$@"
	[ "$status" -eq 0 ]
}

@test "apt-mirror: deb822 with lowercase keys, a comment and two URIs; deb-src, security and disabled stanzas skipped" {
	cat >"$etc/sources.list.d/a.sources" <<'S'
types: deb-src
uris: http://src.example/debian
suites: bookworm

Types: deb
URIs: http://off.example/debian
Suites: bookworm
Enabled: no

Types: deb
URIs: http://sec.example/debian-security
Suites: bookworm-security

# the main suite
types: deb deb-src
# a comment inside the stanza
uris: http://one.example/debian http://two.example/debian
suites: bookworm bookworm-updates
components: main
S
	mirrors
	[ "$output" = "http://one.example/debian
http://two.example/debian" ]
}

@test "apt-mirror: one-line entries with [signed-by=...] options, in sources.list.d/*.list too" {
	cat >"$etc/sources.list" <<'S'
# deb http://commented.example/debian bookworm main
deb-src http://src.example/debian bookworm main
deb [arch=amd64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://opts.example/debian bookworm main
deb http://stable.example/debian stable main
S
	echo "deb	http://tab.example/debian	bookworm main contrib" >"$etc/sources.list.d/b.list"
	mirrors
	[ "$output" = "http://opts.example/debian
http://tab.example/debian" ]
}

@test "apt-mirror: no bookworm entry prints nothing; SMC_DUMP_APT_MIRROR overrides the sources" {
	echo "deb http://trixie.example/debian trixie main" >"$etc/sources.list"
	mirrors
	[ -z "$output" ]
	SMC_DUMP_APT_MIRROR=http://mine.example/debian mirrors
	[ "$output" = "http://mine.example/debian" ]
}

@test "apt-mirror: CRLF deb822, Enabled false/off/0, a blank-only line that does not split a stanza" {
	printf 'Types: deb\r\nURIs: http://crlf.example/debian\r\nSuites: bookworm\r\n\r\n' \
		>"$etc/sources.list.d/a.sources"
	for v in false off 0 No; do
		printf 'Types: deb\nURIs: http://%s.example/debian\nSuites: bookworm\nEnabled: %s\n\n' "$v" "$v"
	done >"$etc/sources.list.d/b.sources"
	# apt reads this as one stanza whose later Suites wins: no bookworm
	printf 'Types: deb\nURIs: http://merged.example/debian\nSuites: bookworm\n \nSuites: trixie\n' \
		>"$etc/sources.list.d/c.sources"
	mirrors
	[ "$output" = "http://crlf.example/debian" ]
}

@test "apt-mirror: a # inside [options] is no comment; '[...]URI' and names apt ignores are skipped" {
	cat >"$etc/sources.list" <<'S'
deb [signed-by=/k#1] http://hash.example/debian bookworm main # a comment
deb [trusted=yes]http://glued.example/debian bookworm main
S
	echo "deb http://spaced.example/debian bookworm main" >"$etc/sources.list.d/a b.list"
	printf 'Types: deb\nURIs: http://plus.example/debian\nSuites: bookworm\n' >"$etc/sources.list.d/a+b.sources"
	mirrors
	[ "$output" = "http://hash.example/debian" ]
}

@test "apt-mirror: mirror SUITE reads that suite's entries; the override is bookworm's alone" {
	cat >"$etc/sources.list.d/d.sources" <<'S'
Types: deb
URIs: http://main.example/debian
Suites: bookworm bookworm-updates

Types: deb
URIs: http://sec.example/debian-security
Suites: bookworm-security
S
	echo 'deb http://sec2.example/debian-security bookworm-security main' >"$etc/sources.list"
	mirrors bookworm-security
	[ "$output" = "http://sec.example/debian-security
http://sec2.example/debian-security" ]
	mirrors bookworm-updates
	[ "$output" = "http://main.example/debian" ]
	# a suite the sources lack: nothing (scripts/apt-suite.sh then
	# derives its mirror from the bookworm entries)
	mirrors trixie-security
	[ -z "$output" ]
	SMC_DUMP_APT_MIRROR=http://mine.example/debian mirrors bookworm-security
	[ "$output" = "http://sec.example/debian-security
http://sec2.example/debian-security" ]
	SMC_DUMP_APT_MIRROR=http://mine.example/debian mirrors
	[ "$output" = "http://mine.example/debian" ]
}
