#!/bin/bash
# Try README.md's "On your own machine" as a new user would, on Debian's
# unmodified kernel (run-vm --stock, one boot), with the packages make deb
# made. Run by hand, not in make check: installing packages on a 9p-backed
# overlay and the DKMS build in the emulated guest take over 40 minutes:
#
#   testsuite/stock-dkms/readme-trial.sh [DEBDIR]     (default build/deb)
#
# The guest has no network: the .debs apt needs for the README's
# `apt install` are downloaded here first (apt-get install -d, computed
# against this host's root, which is also the guest's) into
# build/readme-trial/archives and put into apt's cache in the guest, so
# apt installs from there as written. The guest's root is the host's, so
# the host must be the Debian 12 the README speaks of. The transcript is
# build/readme-trial/transcript.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
debdir=${1:-build/deb}
ls "$debdir"/smc-dump_*_amd64.deb "$debdir"/smc-dump-dkms_*_all.deb >/dev/null ||
	{ echo "readme-trial: no packages in $debdir (make deb)" >&2; exit 2; }
kver=$(basename "$(bash scripts/stock-kernel.sh --dir)")
make -s -C testsuite/tools smc-traffic
out=build/readme-trial
mkdir -p "$out/archives/partial"
# what the README's apt install needs, as on a machine running linux-image-$kver
apt-get install -d -y -q -o Dir::Cache::archives="$top/$out/archives" \
	"./$(ls "$debdir"/smc-dump_*_amd64.deb | tail -n 1)" \
	"./$(ls "$debdir"/smc-dump-dkms_*_all.deb | tail -n 1)" \
	"linux-headers-$kver" "linux-image-$kver" >"$out/download.log"
[ "$debdir" = build/deb ] || { echo "readme-trial: the README's commands use build/deb" >&2; exit 2; }
set +e
testsuite/vm/run-vm --stock --mem 4G --timeout "${VM_TIMEOUT:-5400}" --keep "$out/vm" -- \
	bash testsuite/stock-dkms/readme-guest.sh "$out/archives" 2>&1 | tee "$out/transcript"
rc=${PIPESTATUS[0]}
echo "readme-trial: exit $rc (transcript: $out/transcript)"
exit "$rc"
