# Helpers of the stock-kernel tests (bats, `load lib`): they run as root in
# the guest that run-suite boots with Debian's unmodified kernel.

load ../vm/lib

STOCK_DIR=$TOP/build/stock/${SMC_DUMP_STOCK_KVER:-none}

# Outside the stock guest the tests skip (run-vm --stock sets the variable).
stock_only() {
	[ -n "${SMC_DUMP_IN_VM:-}" ] && [ -n "${SMC_DUMP_STOCK_KVER:-}" ] &&
		[ "$(uname -r)" = "$SMC_DUMP_STOCK_KVER" ] ||
		skip "runs in the stock-kernel VM (testsuite/stock/run-suite)"
}

# stat_of JSON PATH: a counter from `smc -j stats` output
stat_of() {
	jq -r ".[0].$2" <<<"$1"
}

# fb_count ROLE CODE: the fallback counter of a reason in smc -j stats
fb_count() {
	"$SMC" -j stats | jq --arg r "$1" --arg c "$2" \
		'[.[0].fallback.reasons[] | select(.role == $r and .code == $c) | .count] | add // 0'
}

# line INODE ARGS...: the line of socket INODE in `smc ARGS`, blanks squeezed
line() {
	local ino=$1
	shift
	"$SMC" "$@" | tr -s ' ' | awk -v i="$ino" '$3 == i'
}

# sock INODE JSON: the object of socket INODE in a smc -j socket listing
sock() {
	jq -c --argjson i "$1" '.[] | select(.inode == $i)' <<<"$2"
}
