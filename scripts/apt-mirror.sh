# Sourced by scripts/deps.sh and scripts/mainline-source.sh: no mirror's
# host name is written into the project, it is read off the apt sources.
#
# The mirror of the main Debian suite, as this machine's apt sources name it.
mirror() {
	local f
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk '/^URIs:/ { u = $2 } /^Suites:/ { for (i = 2; i <= NF; i++)
			if ($i == "bookworm") { print u; exit } }' "$f"
	done
	if [ -f /etc/apt/sources.list ]; then
		awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' /etc/apt/sources.list
	fi
	return 0
}
