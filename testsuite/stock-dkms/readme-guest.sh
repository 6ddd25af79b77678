#!/bin/bash
# The guest half of readme-trial.sh (run by run-vm --stock, as root on
# Debian's unmodified kernel): a Debian 12 machine made writable, then the
# commands of README.md's "On your own machine" as a new user types them.
#
#   readme-guest.sh ARCHIVES
#
# ARCHIVES holds the .debs the host downloaded for them (apt-get install
# -d); the guest has no network, so they go into apt's cache, where apt
# finds them instead of fetching them; nothing else is changed.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
arch=$(realpath "${1:?usage: readme-guest.sh ARCHIVES}")
kver=$(uname -r)

# The guest's root is the host's, read-only over 9p. A tmpfs overlay on it
# is a root that apt, dpkg and DKMS can write to, entered with chroot.
r=/tmp/root
mkdir -p /tmp/ovl/up /tmp/ovl/work $r
mount -t overlay overlay -o lowerdir=/,upperdir=/tmp/ovl/up,workdir=/tmp/ovl/work $r || exit 1
mount -t proc proc $r/proc
mount -t sysfs sysfs $r/sys
mount --rbind /dev $r/dev
for d in tmp run var/tmp root; do
	mount -t tmpfs tmpfs $r/$d
done
mkdir -p $r/run/lock
cp "$arch"/*.deb $r/var/cache/apt/archives/
in_root() { chroot $r /usr/bin/env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
	HOME=/root LANG=C.UTF-8 TERM=dumb "$@"; }

echo "=== the machine: Debian 12 with Debian's kernel package installed (not part of the README)"
# A user running Debian's kernel has its package; this root (the host's)
# has not. INITRD=No: its initramfs is not needed here (the boot is over).
in_root env INITRD=No DEBIAN_FRONTEND=noninteractive \
	apt-get install -y -q --no-download "linux-image-$kver" >/tmp/prep.log 2>&1 ||
	{ tail -30 /tmp/prep.log; echo "readme-guest: preparing the machine failed" >&2; exit 1; }
tail -3 /tmp/prep.log
echo "uname -r: $kver; lsmod | grep smc: $(lsmod | grep -c '^smc') modules"

# The README's commands, each shown with its output and exit status.
rc=0
step() {
	echo
	echo "=== # $1"
	in_root bash -c "cd '$top' && $1"
	local s=$?
	echo "=== exit $s"
	[ $s = 0 ] || rc=1
	return $s
}
echo
echo "=== # make deb      (done on the host: build/deb, from the same tree)"
# apt asks "Do you want to continue? [Y/n]": the user answers y
step "yes | apt install ./build/deb/smc-dump_*_amd64.deb ./build/deb/smc-dump-dkms_*_all.deb \\
            linux-headers-\$(uname -r)"
step "dkms status"
# shellcheck disable=SC2016 # $m is the user's shell's, in the root
step 'for m in smc_diag smc; do if grep -q "^$m " /proc/modules; then rmmod $m; fi; done'
step "modprobe smc_diag"
step "modinfo -n smc smc_diag; lsmod | grep -E '^smc'"
step "smc ueid add MYEID"
step "smc check loopback"

# What a user does next (README.md's "Use"; Documentation/install.md, "On
# your own machine"): a capture of SMC traffic, then stop.
step "smc dump start mode smcd write smc.pcap background"
step "smc dump show"
step "ls -l testsuite/tools/smc-traffic
testsuite/tools/smc-traffic server -a 127.0.0.1 -p 5201 -n 1M -T 60 >/tmp/server.out & sleep 1
testsuite/tools/smc-traffic client -a 127.0.0.1 -p 5201 -n 1M -T 60 || ls -l testsuite/tools/smc-traffic
wait; cat /tmp/server.out"
step "smc run python3 -m http.server -b 127.0.0.1 8000 >/dev/null 2>&1 & sleep 5
smc run python3 -c 'import urllib.request as u; print(len(u.urlopen(\"http://127.0.0.1:8000/README.md\").read()))'
kill %1"
step "smc dump stop"
step "smc dump read smc.pcap | head -8"
step "smc stats | head -20"
step "dmesg | grep -iE 'smc|dkms|verification' | tail -20"
exit $rc
