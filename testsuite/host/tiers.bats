#!/usr/bin/env bats
# make check runs every VM test file once: the files testsuite/vm/debug-files
# names on the debug test kernel (scripts/check.sh), the others in the
# stock-dkms tier (testsuite/stock-dkms/tier).

load lib

@test "tiers: every file debug-files names exists in testsuite/vm" {
	local vm=$TOP/testsuite/vm n=0 f
	while read -r f; do
		[ -f "$vm/$f" ] || { echo "debug-files names $f, which is not in testsuite/vm"; return 1; }
		n=$((n + 1))
	done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$vm/debug-files")
	[ "$n" -gt 0 ]
}

@test "tiers: each testsuite/vm file runs in exactly one of the two tiers" {
	local vm=$TOP/testsuite/vm
	run bash "$TOP/testsuite/stock-dkms/tier" --list
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -gt 0 ]
	local listed
	listed=$( (printf '%s\n' "${lines[@]}"; sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$vm/debug-files") | sort)
	echo "$listed"
	# no file in both, none in neither
	[ -z "$(uniq -d <<<"$listed")" ]
	[ "$listed" = "$(cd "$vm" && ls ./*.bats | sed 's|^\./||' | sort)" ]
}
