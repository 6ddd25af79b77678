# Sourced by scripts/deps.sh and scripts/mainline-source.sh: no mirror's
# host name is written into the project, it is read off the apt sources.
#
# mirror [SUITE]: prints the URI of each enabled "deb" entry for SUITE
# (default bookworm, Debian 12's main suite), first the deb822 files
# (sources.list.d/*.sources), then the one-line lists (sources.list,
# sources.list.d/*.list); nothing when there is none.
#   deb822: stanzas split by empty lines (a line of blanks does not split,
#     as in apt); field names in any case; several URIs, Types and Suites
#     per stanza; "Enabled:" no, false, off or 0 skips the stanza.
#   one-line: "deb [option=value ...] URI SUITE COMPONENT...", options in
#     brackets skipped (a # in them is no comment); comments, deb-src
#     lines and lines apt would refuse ("[...]URI" without a blank) ignored.
# CRLF line ends are read as LF. Files whose names apt ignores (other
# characters than letters, digits, _ . -) are ignored too.
# "stable" is not taken for bookworm: it names whatever Debian is current.
# SMC_DUMP_APT_MIRROR=URI overrides what the sources say for bookworm;
# APT_ETC (default /etc/apt) is where they are read, for the tests.
mirror() {
	local etc=${APT_ETC:-/etc/apt} f suite=${1:-bookworm}
	if [ -n "${SMC_DUMP_APT_MIRROR:-}" ] && [ "$suite" = bookworm ]; then
		echo "$SMC_DUMP_APT_MIRROR"
		return 0
	fi
	for f in "$etc"/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		[[ ${f##*/} =~ ^[A-Za-z0-9_.-]+$ ]] || continue
		awk -v suite="$suite" '
		function flush(i, j, k, nt, nu, ns, t, u, s) {
			if (tolower(en) !~ /^(no|false|off|0)$/) {
				nt = split(types, t, " "); nu = split(uris, u, " ")
				ns = split(suites, s, " ")
				for (i = 1; i <= nt; i++) if (t[i] == "deb")
					for (k = 1; k <= ns; k++) if (s[k] == suite)
						for (j = 1; j <= nu; j++) print u[j]
			}
			types = uris = suites = en = ""; key = ""
		}
		{ sub(/\r$/, "") }
		/^#/ { next }
		/^$/ { flush(); next }
		/^[ \t]+$/ { next }
		/^[ \t]/ { v = $0; sub(/^[ \t]+/, "", v)
			if (key == "uris") uris = uris " " v
			else if (key == "suites") suites = suites " " v
			else if (key == "types") types = types " " v
			next }
		{ i = index($0, ":"); if (!i) next
			key = tolower(substr($0, 1, i - 1)); v = substr($0, i + 1)
			if (key == "types") types = v
			else if (key == "uris") uris = v
			else if (key == "suites") suites = v
			else if (key == "enabled") { en = v; gsub(/[ \t]/, "", en) } }
		END { flush() }' "$f"
	done
	for f in "$etc"/sources.list "$etc"/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		[ "$f" = "$etc/sources.list" ] || [[ ${f##*/} =~ ^[A-Za-z0-9_.-]+$ ]] || continue
		awk -v suite="$suite" '{ sub(/\r$/, "") }
		$1 == "deb" { l = $0
			sub(/^[ \t]*deb[ \t]+/, "", l)
			if (l ~ /^\[/) { if (!sub(/^\[[^]]*\][ \t]+/, "", l)) next }
			sub(/#.*/, "", l)
			n = split(l, w, /[ \t]+/)
			if (n >= 2 && w[2] == suite) print w[1] }' "$f"
	done
	return 0
}
