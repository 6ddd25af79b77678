#!/usr/bin/env bats
# smc-dump-dkms across the point releases of its line (kernel/README.md,
# "Point releases"): its modules build against Debian's headers of a
# neighbouring point release with the command its dkms.conf gives DKMS
# (scripts/stock-dkms.sh --headers), a point release whose headers the
# code does not fit is skipped by DKMS and refused by dkms-build with what
# to do, and the newest point release Debian 12 has, where it is newer than
# the carried one, builds or is refused so. Compile only (no boot): the
# stock-dkms tier boots the carried release's kernel with the modules.

load lib

# the point release before the carried one in bookworm-security (6.12.116
# was Debian 13's alone), and one older than STOCK_OLDEST whose headers
# lack interfaces net/smc of the carried release uses
NEIGHBOUR=6.12.117+deb12-amd64
OLD=6.12.107+deb12-amd64

setup_file() {
	# the build is cached under build/dkms-point/KVER; its messages and
	# status are kept for the tests
	local rc=0
	bash "$TOP/scripts/stock-dkms.sh" --headers "$NEIGHBOUR" bookworm-security \
		>"$BATS_FILE_TMPDIR/neighbour.out" 2>"$BATS_FILE_TMPDIR/neighbour.err" || rc=$?
	echo "$rc" >"$BATS_FILE_TMPDIR/neighbour.rc"
}

setup() {
	. "$TOP/scripts/stock-release.conf"
	LINE=${STOCK_LINUX%.*}
	RE=$(bash "$TOP/scripts/dkms-kernels-re.sh")
}

@test "dkms-point: the modules build against the headers of the neighbouring point release" {
	cat "$BATS_FILE_TMPDIR/neighbour.err"
	[ "$(cat "$BATS_FILE_TMPDIR/neighbour.rc")" = 0 ]
	[ "$NEIGHBOUR" != "$STOCK_ABI-amd64" ]
	[[ $NEIGHBOUR =~ $RE ]]
	d=$(cat "$BATS_FILE_TMPDIR/neighbour.out")
	[ "$d" = "$TOP/build/dkms-point/$NEIGHBOUR/modules" ]
	for m in smc smc_diag; do
		run modinfo -F vermagic "$d/$m.ko"
		[ "$status" -eq 0 ]
		[[ "$output" == "$NEIGHBOUR SMP "*" modversions"* ]]
	done
	# the carried net/smc with the series, and its one dependency
	[ "$(modinfo -F alias "$d/smc.ko" | grep -c '^rtnl-link-smc-dummy$')" = 1 ]
	[ "$(modinfo -F depends "$d/smc.ko")" = ib_core ]
	# an older point release than the carried one: no note about fixes
	run grep -c 'may have net/smc fixes newer' "$d/dkms-tree-build.log"
	[ "$output" = 0 ]
}

@test "dkms-point: an older point release is skipped by DKMS and refused by dkms-build, which names what to do" {
	[[ ! $OLD =~ $RE ]]
	tree=$(ls -d "$TOP/build/dkms-point/$NEIGHBOUR"/dkms-tree/usr/src/smc-dump-*)
	cp -a "$tree" "$BATS_TEST_TMPDIR/src"
	cd "$BATS_TEST_TMPDIR/src"
	ksrc=$(bash "$TOP/scripts/kernel-headers.sh" "$OLD" bookworm-security)
	run ./dkms-build "$OLD" "$ksrc"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == "smc-dump-dkms: kernel '$OLD' is not one it serves (older than $LINE.$STOCK_OLDEST, whose interfaces the code needs)"* ]]
	[[ "$output" == *"boot one it serves (apt-get install linux-image-$STOCK_LINUX+deb13-amd64 or +deb12-amd64), or install an smc-dump-dkms made for yours"* ]]
	# that bound is measured, not assumed: a package that served $OLD
	# (STOCK_OLDEST lowered) compiles against its headers, fails and says
	# so, with the compiler's error above the message
	oldp=${OLD#"$LINE".}
	oldp=${oldp%%+*}
	sed -e "s/@STOCK_LINUX@/$STOCK_LINUX/g" -e "s/@STOCK_ABI@/$STOCK_ABI/g" \
		-e "s/@STOCK_OLDEST@/$oldp/g" "$TOP/debian/dkms-build" >dkms-build
	grep -qx "oldest=$oldp" dkms-build
	run ./dkms-build "$OLD" "$ksrc"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ "$output" == *"error: "* ]]
	[[ "$output" == *"smc-dump-dkms: net/smc of Linux $STOCK_LINUX with the smc-dump series does not build against the headers of $OLD (the errors above): that point release changed an interface net/smc uses"* ]]
	[[ "$output" == *"boot one it serves (apt-get install linux-image-$STOCK_LINUX+deb13-amd64 or +deb12-amd64), or install an smc-dump-dkms made for yours"* ]]
	[ ! -f net/smc/smc.ko ]
}

@test "dkms-point: the newest point release of the line in Debian 12's apt lists builds or is refused with what to do" {
	newest=$(apt-cache search --names-only "^linux-headers-${LINE//./\\.}\.[0-9]+\+deb12-amd64\$" |
		sed -E 's/^linux-headers-([^ ]*) .*/\1/' | sort -V | tail -n 1)
	[ -n "$newest" ] || skip "no linux-headers-$LINE.N+deb12-amd64 in the apt lists"
	p=${newest#"$LINE".}
	p=${p%%+*}
	[ "$p" -gt "${STOCK_LINUX##*.}" ] || skip "the newest is $newest, not newer than the carried $STOCK_LINUX"
	[[ $newest =~ $RE ]]
	run bash "$TOP/scripts/stock-dkms.sh" --headers "$newest"
	echo "$output"
	if [ "$status" -eq 0 ]; then
		[ -f "$TOP/build/dkms-point/$newest/modules/smc.ko" ]
		grep -q "smc-dump-dkms: building net/smc of Linux $STOCK_LINUX for $newest: its smc.ko replaces Debian's, which may have net/smc fixes newer than $STOCK_LINUX" \
			"$TOP/build/dkms-point/$newest/modules/dkms-tree-build.log"
	else
		[[ "$output" == *"smc-dump-dkms: "*"or install an smc-dump-dkms made for yours"* ]]
	fi
}
