# smc-dump: top-level build, test and demo targets.
#   make demo    build everything, boot the patched kernel in QEMU, move SMC
#                traffic and show it
#   make check   host tests and VM tests (bats)
# Both install their Debian packages first (make deps, as root).

PREFIX ?= /usr
DESTDIR ?=
SHELL := /bin/bash

all: tools

deps:
	@bash scripts/deps.sh

# User-space tools: the smc command, the ip link plugin, test helpers.
tools: deps
	$(MAKE) -C smc
	$(MAKE) -C testsuite/tools
	$(MAKE) -C ip

kernel: deps
	@bash scripts/build-kernel.sh test >/dev/null

kernel-bench: deps
	@bash scripts/build-kernel.sh bench >/dev/null

iproute2: deps
	@bash scripts/build-iproute2.sh >/dev/null

# Debian's unmodified 6.12 kernel and an initramfs for run-vm --stock
# (scripts/stock-kernel.sh; cached under build/stock/KVER)
stock-kernel: deps
	@bash scripts/stock-kernel.sh >/dev/null

# Every tier, one tally (scripts/check.sh); check-host, check-vm and
# check-stock run one.
check: tools kernel iproute2 stock-kernel
	bash scripts/check.sh

check-host: tools iproute2
	bats --print-output-on-failure testsuite/host

check-vm: tools kernel iproute2
	bash testsuite/vm/run-suite testsuite/vm

# The smc command against Debian's unmodified kernel (testsuite/stock)
check-stock: tools stock-kernel
	bash testsuite/stock/run-suite testsuite/stock

# Only the stress and netlink fuzz tests of the VM tier (testsuite/vm/stress.bats)
check-stress: tools kernel iproute2
	bash testsuite/vm/run-suite testsuite/vm -f '^(stress|netlink fuzz):'

demo: tools kernel iproute2
	bash scripts/demo.sh

# Kernel cost, capture completeness and decoder speed, one table
# (scripts/bench.sh; builds the non-debug bench kernel on demand).
bench: tools iproute2
	bash scripts/bench.sh

# smc-dump's .debs on Debian's kernel with smc-dump-dkms's modules
# (testsuite/stock-dkms/run-suite: the DKMS build, captures, ip link)
check-stock-dkms: tools iproute2 stock-kernel deb
	bash testsuite/stock-dkms/run-suite build/deb

# Debian packages smc-dump and smc-dump-dkms in build/deb/, lintian-checked
# (scripts/make-deb.sh, debian/)
deb: deps
	bash scripts/make-deb.sh

install: tools
	$(MAKE) -C smc install DESTDIR=$(DESTDIR) PREFIX=$(PREFIX)
	$(MAKE) -C ip install DESTDIR=$(DESTDIR) PREFIX=$(PREFIX)
	$(MAKE) -C contrib/wireshark install DESTDIR=$(DESTDIR) PREFIX=$(PREFIX)

clean:
	$(MAKE) -C smc clean
	$(MAKE) -C testsuite/tools clean
	$(MAKE) -C ip clean

distclean: clean
	rm -rf build

.PHONY: deb check-stock check-stock-dkms check-stress all deps tools kernel stock-kernel kernel-bench iproute2 check check-host check-vm demo bench install clean distclean
