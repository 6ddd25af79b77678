# shellcheck shell=bash disable=SC2034
# Sourced: read scripts/kernels.conf. Needs $top.
#
# kernel_ids: every ID, in the file's order
# kernel_line ID|KVER: sets K_ID K_KVER K_SUITE K_DKMS K_BACKENDS from the
#   line of that ID (or KVER); returns 1, with a message, when none has it
kernels_conf=${SMC_DUMP_KERNELS_CONF:-$top/scripts/kernels.conf}

kernel_ids() {
	awk '!/^[ \t]*(#|$)/ { print $1 }' "$kernels_conf"
}

kernel_line() {
	local l
	l=$(awk -v k="$1" '!/^[ \t]*(#|$)/ && ($1 == k || $2 == k) { print; exit }' "$kernels_conf")
	if [ -z "$l" ]; then
		echo "kernels: no line of $kernels_conf names '$1' (IDs: $(kernel_ids | tr '\n' ' '))" >&2
		return 1
	fi
	read -r K_ID K_KVER K_SUITE K_DKMS K_BACKENDS <<<"$l"
	if [ -z "$K_BACKENDS" ]; then
		echo "kernels: the line of '$1' in $kernels_conf has not the five columns ID KVER SUITE DKMS BACKENDS" >&2
		return 1
	fi
}
