# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Waiting for a condition instead of sleeping: sourced by the host, VM and
# stock test libraries (and scripts/demo-guest.sh). Each helper polls
# every 0.1 s and returns 0 as soon as the condition holds; after its
# timeout (seconds, WAIT_TIMEOUT or 30 by default) it prints
# "timed out after N s waiting for WHAT" on stderr and returns 1, which
# fails the bats test that called it.

# wait_for WHAT CMD...: until CMD succeeds; WHAT names the condition
# (WAIT_TIMEOUT=N wait_for ... for another timeout)
wait_for() {
	local what=$1 t=${WAIT_TIMEOUT:-30} end
	shift
	end=$((SECONDS + t))
	until "$@"; do
		if [ "$SECONDS" -ge "$end" ]; then
			echo "timed out after $t s waiting for $what" >&2
			return 1
		fi
		sleep 0.1
	done
}

# wait_line FILE REGEX: until FILE has a line matching REGEX (grep -E)
wait_line() {
	wait_for "a line /$2/ in $1" grep -Eq -- "$2" "$1"
}

# wait_file FILE: until FILE exists and is not empty
wait_file() {
	wait_for "the file $1" test -s "$1"
}

# wait_listen PORT [NETNS]: until a TCP socket listens on PORT (ss -ltn)
wait_listen() {
	wait_for "a TCP listener on port $1${2:+ in netns $2}" \
		_wait_listening "$1" "${2:-}"
}

_wait_listening() {
	local out
	if [ -n "$2" ]; then
		out=$(ip netns exec "$2" ss -Hltn "sport = :$1")
	else
		out=$(ss -Hltn "sport = :$1")
	fi
	[ -n "$out" ]
}

# wait_gone PID: until process PID is gone (a zombie child counts as gone)
wait_gone() {
	wait_for "process $1 to end" _wait_gone "$1"
}

_wait_gone() {
	local state
	# the state follows the command name, which may hold spaces: "(...) S"
	state=$(sed -n 's/^.*) \(.\).*/\1/p' "/proc/$1/stat" 2>/dev/null) || return 0
	[ -z "$state" ] || [ "$state" = Z ]
}
