# shellcheck shell=bash disable=SC2154
# Sourced: apt-get download from a Debian suite that the machine's apt
# sources may not name (trixie, trixie-security, trixie-backports on a
# Debian 12 machine), without touching those sources.
#
# suite_download SUITE DIR PKG[=VER]...
#   downloads the packages into DIR (apt-get download; nothing installed).
#   A suite the machine's sources carry (mirror SUITE, scripts/apt-mirror.sh)
#   is read through the machine's own lists. Any other suite gets a private
#   apt state, $top/build/apt/SUITE (its own sources list, lists and cache):
#   the same mirror as the machine's bookworm entry (for SUITE-security,
#   its bookworm-security entry), the same keyring, so apt checks the
#   suite's signature as it would for its own. Its lists are fetched the
#   first time and again when a download fails (the suite moved on).
#   Runs as any user; concurrent calls for one suite take turns (a lock
#   in its state directory). Returns 1, with a message, on failure.
# suite_apt SUITE: prints the apt-get options (one a line) that reach
#   SUITE's lists, after suite_download made them; nothing for a suite of
#   the machine's sources (for apt-cache policy in messages).
#
# Needs $top (the project's top directory) and scripts/apt-mirror.sh.

# suite_state SUITE: the private state directory of SUITE
suite_state() {
	echo "$top/build/apt/$1"
}

suite_apt() {
	local st
	[ -z "$(mirror "$1" | head -n 1)" ] || return 0
	st=$(suite_state "$1")
	printf '%s\n' -o "Dir::Etc::SourceList=$st/sources.list" -o "Dir::Etc::SourceParts=-" \
		-o "Dir::State::Lists=$st/lists" -o "Dir::Cache=$st/cache" \
		-o "Dir::State::Status=/var/lib/dpkg/status" -o "APT::Sandbox::User=$(id -un)" \
		-o "Debug::NoLocking=1" -o "Acquire::Languages=none"
}

suite_download() {
	local suite=$1 dir=$2 st base uri keyring rc=0
	local -a opts
	shift 2
	if [ -n "$(mirror "$suite" | head -n 1)" ]; then
		(cd "$dir" && apt-get download -q "$@" >&2) && return 0
		echo "apt-suite: cannot download $* from $suite (the machine's apt sources; 'apt-get update' done?)" >&2
		return 1
	fi
	case $suite in
	*-security)	base=bookworm-security ;;
	*)		base=bookworm ;;
	esac
	uri=$(mirror "$base" | head -n 1)
	[ -n "$uri" ] || { echo "apt-suite: no $base entry in the apt sources to derive $suite's mirror from" >&2; return 1; }
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	[ -f "$keyring" ] || { echo "apt-suite: $keyring missing: apt install debian-archive-keyring" >&2; return 1; }
	st=$(suite_state "$suite")
	mkdir -p "$st/lists/partial" "$st/cache/archives/partial"
	mapfile -t opts < <(suite_apt "$suite")
	(
		flock 9
		echo "deb [signed-by=$keyring] $uri $suite main" >"$st/sources.list.new"
		fresh=
		if ! cmp -s "$st/sources.list.new" "$st/sources.list" || [ ! -f "$st/updated" ]; then
			mv "$st/sources.list.new" "$st/sources.list"
			echo "apt-suite: apt-get update for $suite from $uri" >&2
			apt-get -q "${opts[@]}" update >&2 || { echo "apt-suite: apt-get update of $suite failed (is $uri reachable, does it carry $suite?)" >&2; exit 1; }
			touch "$st/updated"
			fresh=1
		fi
		rm -f "$st/sources.list.new"
		(cd "$dir" && apt-get -q "${opts[@]}" download "$@" >&2) && exit 0
		[ -z "$fresh" ] || exit 1
		# the lists may be older than the suite: once more with new ones
		echo "apt-suite: apt-get update for $suite from $uri (the lists lack $*)" >&2
		apt-get -q "${opts[@]}" update >&2 || exit 1
		(cd "$dir" && apt-get -q "${opts[@]}" download "$@" >&2)
	) 9>"$st/.lock" || rc=$?
	[ $rc = 0 ] || echo "apt-suite: cannot download $* from $suite" >&2
	return $rc
}
