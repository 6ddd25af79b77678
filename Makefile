# smc-dump: top-level build, test and demo targets.
#   make demo    boot Debian 12's own kernel in QEMU with smc-dump-dkms's
#                modules, move SMC-D traffic and capture it with both
#                backends (no kernel build: minutes on a fresh machine)
#   make check   host tests and VM tests (bats)
# Both install their Debian packages first (make deps, as root; make demo
# only the subset it uses, scripts/deps.sh demo; make cross and
# check-cross the cross compilers, scripts/deps.sh cross). No other
# target runs apt: `make`, `make tools` and `make install` only build (and
# install: no root beyond writing DESTDIR), and
# `make kernel` or `make iproute2` say "run 'make deps'" when a package is
# missing.

PREFIX ?= /usr
DESTDIR ?=
SHELL := /bin/bash

all: tools

deps:
	@bash scripts/deps.sh

# User-space tools: the smc command, the ip link plugin, test helpers
# (testsuite/tools; testsuite/host/helpers, the host tests' fakes and
# drivers, built from smc's objects after it).
tools:
	$(MAKE) -C lib
	$(MAKE) -C lib/smcdump
	$(MAKE) -C lib/smc-preload
	$(MAKE) -C smc
	$(MAKE) -C testsuite/tools
	$(MAKE) -C testsuite/host/helpers
	$(MAKE) -C ip

# The user space (the decoder library, smc, smc run's preload library,
# testsuite/tools) for s390x (big-endian) and arm64, built with Debian's
# cross compilers into build/cross/ARCH/ (its own copy of the sources:
# nothing mixes with the native objects); make cross ARCH=s390x builds one.
# It first installs the compilers, qemu-user-static and the architectures'
# libraries (scripts/deps.sh cross, as root; nothing once they are there).
# With the bpf backend (its BPF objects in the byte order of ARCH); left
# out: smc dump graph (scripts/cross-build.sh).
CROSS_ARCHS := s390x arm64
cross:
	@bash scripts/deps.sh cross
	bash scripts/cross-build.sh $(if $(filter command line,$(origin ARCH)),$(ARCH),$(CROSS_ARCHS))

# The cross builds under qemu-user against the native one (testsuite/cross)
check-cross:
	$(BUILD) -C smc
	$(BUILD) -C testsuite/tools
	bash testsuite/cross/run-suite

# The kernel series make kernel and check-vm use: 6.12 (kernel/6.12/) or
# mainline (kernel/mainline/); scripts/build-kernel.sh.
KERNEL_SERIES ?= 6.12
ifeq ($(KERNEL_SERIES),6.12)
KERNEL_IMAGE = build/kernel-test/bzImage
else
KERNEL_IMAGE = build/kernel-$(KERNEL_SERIES)-test/bzImage
endif

kernel:
	@KERNEL_SERIES=$(KERNEL_SERIES) bash scripts/build-kernel.sh test >/dev/null

# The mainline series without debug options, and its kselftest installed
# to build/mainline/kselftest (make check's mainline tier)
kernel-mainline:
	@KERNEL_SERIES=mainline bash scripts/build-kernel.sh plain >/dev/null

kselftest-mainline: kernel-mainline
	@bash scripts/build-kselftest.sh >/dev/null

kernel-bench:
	@bash scripts/build-kernel.sh bench >/dev/null

iproute2:
	@bash scripts/build-iproute2.sh >/dev/null

# Debian's unmodified 6.12 kernel and an initramfs for run-vm --stock
# (scripts/stock-kernel.sh; cached under build/stock/KVER); downloads it
# with apt-get download, so make deps comes first.
stock-kernel:
	@bash scripts/stock-kernel.sh >/dev/null

# The targets that run something first install the packages (deps), then
# build what they need: a second make, so that deps is done before any
# build starts, also under make -j.
BUILD = @$(MAKE) --no-print-directory

# Every tier, one tally (scripts/check.sh); check-host, check-vm and
# check-stock run one.
check: deps
	$(BUILD) tools kernel kselftest-mainline iproute2 stock-kernel KERNEL_SERIES=6.12
	bash scripts/check.sh

check-host: deps
	$(BUILD) tools iproute2
	bats --print-output-on-failure testsuite/host

check-vm: deps
	$(BUILD) tools kernel iproute2
	SMC_DUMP_KERNEL=$(abspath $(KERNEL_IMAGE)) bash testsuite/vm/run-suite testsuite/vm

# The mainline tier alone: links, captures and the series' kselftest on
# the mainline kernel (testsuite/mainline)
check-mainline: deps
	$(BUILD) tools kselftest-mainline iproute2
	bash testsuite/mainline/run-suite

# The kernel series built as reviewers build them (testsuite/series): the
# mainline series patch by patch (scripts/series-check.sh), the 6.12
# series for s390x and arm64 (scripts/series-cross-check.sh)
check-series: deps
	bats --print-output-on-failure testsuite/series

# The smc command against Debian's unmodified kernel (testsuite/stock)
check-stock: deps
	$(BUILD) tools stock-kernel
	bash testsuite/stock/run-suite testsuite/stock

# Only the stress and netlink fuzz tests of the VM tier (testsuite/vm/stress.bats)
check-stress: deps
	$(BUILD) tools kernel iproute2
	bash testsuite/vm/run-suite testsuite/vm -f '^(stress|netlink fuzz):'

# The demo builds only what it shows (scripts/demo.sh): smc, the traffic
# tool, the ip plugin for Debian's ip, and smc-dump-dkms's modules from
# this tree against Debian's headers with the package's own build command
# (no .deb: dpkg-buildpackage and lintian add minutes and show nothing);
# its packages are a subset of make deps'.
demo:
	@bash scripts/deps.sh demo
	bash scripts/demo.sh

# Kernel cost, capture completeness, the kernel and bpf backends side by
# side on Debian's kernel with smc-dump-dkms's modules, and decoder speed,
# one table (scripts/bench.sh; builds the non-debug bench kernel on demand).
bench: deps
	$(BUILD) tools iproute2 stock-kernel
	bash scripts/bench.sh

# smc-dump's .debs on Debian's kernel with smc-dump-dkms's modules
# (testsuite/stock-dkms/run-suite: the DKMS build, captures, ip link)
check-stock-dkms: deps
	$(BUILD) tools iproute2 stock-kernel
	bash scripts/make-deb.sh
	bash testsuite/stock-dkms/run-suite build/deb

# The kernel matrix: every Debian kernel of scripts/kernels.conf booted
# once with a smoke-sized set (testsuite/matrix/run-suite; one line:
# bash testsuite/matrix/run-suite ID)
check-matrix: deps
	$(BUILD) tools
	bash scripts/make-deb.sh
	bash testsuite/matrix/run-suite --all

# Debian packages smc-dump and smc-dump-dkms in build/deb/, lintian-checked
# (scripts/make-deb.sh, debian/); DEB_ARCHS="amd64 arm64 s390x" adds
# smc-dump of arm64 and s390x, cross-built on make cross's sysroots (which
# scripts/deps.sh cross installs first)
DEB_NATIVE := $(shell dpkg --print-architecture 2>/dev/null)
DEB_ARCHS ?= $(DEB_NATIVE)
deb: deps
ifneq ($(filter-out $(DEB_NATIVE),$(DEB_ARCHS)),)
	@bash scripts/deps.sh cross
endif
	bash scripts/make-deb.sh $(DEB_ARCHS)

# make install: smc (with smcss, smcdump-ex, smc run's preload library,
# every man page, the bash completion), the ip plugin, the Wireshark dissector. It builds only what
# it installs and runs neither apt nor anything as root: writing
# $(DESTDIR)$(PREFIX) is all it needs. The ip plugin is compiled against an
# iproute2 tree (IPROUTE2_SRC=DIR, or build/iproute2 of make iproute2);
# without one only its man page is installed and a note says so.
# (The tree is named to ip/Makefile, so that it does not lay one out.)
IP_TREE = $(if $(IPROUTE2_SRC),$(abspath $(IPROUTE2_SRC)),$(if $(wildcard build/iproute2/ip/ip_common.h),$(abspath build/iproute2)))

install:
	$(MAKE) -C smc install DESTDIR=$(DESTDIR) PREFIX=$(PREFIX)
ifneq ($(IP_TREE),)
	$(MAKE) -C ip install DESTDIR=$(DESTDIR) PREFIX=$(PREFIX) IPROUTE2_SRC=$(IP_TREE)
else
	@echo "install: no iproute2 tree (make iproute2, or IPROUTE2_SRC=DIR): the ip plugin link_smc-dummy.so is not installed, its man page is"
	$(MAKE) -C ip install-man DESTDIR=$(DESTDIR) PREFIX=$(PREFIX)
endif
	$(MAKE) -C contrib/wireshark install DESTDIR=$(DESTDIR) PREFIX=$(PREFIX)

clean:
	$(MAKE) -C lib clean
	$(MAKE) -C lib/smcdump clean
	$(MAKE) -C lib/smc-preload clean
	$(MAKE) -C smc clean
	$(MAKE) -C testsuite/tools clean
	$(MAKE) -C testsuite/host/helpers clean
	$(MAKE) -C ip clean
	rm -rf build/cross

distclean: clean
	rm -rf build

.PHONY: cross check-cross kernel-mainline kselftest-mainline check-mainline check-series deb check-stock check-stock-dkms check-matrix check-stress all deps tools kernel stock-kernel kernel-bench iproute2 check check-host check-vm demo bench install clean distclean
