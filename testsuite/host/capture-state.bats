#!/usr/bin/env bats
# SPDX-License-Identifier: GPL-2.0
#
# The state a capture of `smc dump start` keeps in its link's alias
# (smc/capture_state.c), as Documentation/capture.md specifies it, through
# helpers/state_driver.c: written by start, read by stop and show. The
# host has no smc-dummy links, so the format is tested here on its own.
# Expected aliases are written out by hand from the specification.

bats_require_minimum_version 1.5.0

load lib

setup_file() {
	host_setup_file smc || return 1
	export DRIVER="$H/state_driver"
	host_need testsuite/host/helpers state_driver
}

@test "state: the fields in their order, names for mode and type" {
	run -0 "$DRIVER" format 256 pid=4242 start=98765 mode=2 type=1 \
		snaplen=128 tpid=4243 tstart=98770 log=/run/smc-dump/4242.log \
		file=/tmp/c.pcap filter='port 5201'
	[ "${lines[0]}" = "smc-dump pid=4242 start=98765 mode=smcr type=raw snaplen=128 tpid=4243 tstart=98770 log=/run/smc-dump/4242.log file=/tmp/c.pcap filter=port%205201" ]
	[ "${lines[1]}" = 0 ]
	# no tcpdump yet, no log, no file (decoded live), no filter
	run -0 "$DRIVER" format 256 pid=1 start=2 mode=0 type=0 snaplen=0
	[ "${lines[0]}" = "smc-dump pid=1 start=2 mode=all type=all snaplen=0" ]
}

@test "state: blanks, '%', control and high bytes as %XX, read back whole" {
	local file=$'/tmp/a b%c\td\x7fe\xc3\xa9.pcap'
	run -0 "$DRIVER" format 256 pid=7 start=8 mode=3 type=2 snaplen=0 \
		"file=$file"
	[ "${lines[0]}" = "smc-dump pid=7 start=8 mode=smcd type=cdc snaplen=0 file=/tmp/a%20b%25c%09d%7Fe%C3%A9.pcap" ]
	run -0 "$DRIVER" parse "${lines[0]}"
	[ "${lines[0]}" = "valid 1" ]
	[ "${lines[3]}" = "mode 3" ]
	[ "${lines[4]}" = "type 2" ]
	[ "${lines[9]}" = "file $file" ]
}

@test "state: what does not fit is left out and reported" {
	local long
	long=$(printf 'x%.0s' {1..200})
	# 256 bytes less the 48 kept for tpid and tstart, as start writes it
	run -0 "$DRIVER" format 208 pid=1 start=2 mode=1 type=0 snaplen=0 \
		"file=/tmp/$long" "filter=port 5201"
	[ "${lines[0]}" = "smc-dump pid=1 start=2 mode=smc type=all snaplen=0 filter=port%205201" ]
	[ "${lines[1]}" = 2 ]	# CAPTURE_STATE_NO_FILE
	run -0 "$DRIVER" format 208 pid=1 start=2 mode=1 type=0 snaplen=0 \
		file=/tmp/c.pcap "filter=host $long"
	[ "${lines[0]}" = "smc-dump pid=1 start=2 mode=smc type=all snaplen=0 file=/tmp/c.pcap" ]
	[ "${lines[1]}" = 4 ]	# CAPTURE_STATE_NO_FILTER
	run -0 "$DRIVER" format 208 pid=1 start=2 mode=1 type=0 snaplen=0 \
		"log=/run/$long"
	[ "${lines[1]}" = 1 ]	# CAPTURE_STATE_NO_LOG
}

@test "state: an alias that is not a capture's, unknown keys and values" {
	local a
	for a in "" "smc-dumpx pid=1 start=2" "my link" "smc-dump" \
		 "smc-dump start=5 mode=smc"; do
		run -0 "$DRIVER" parse "$a"
		[ "${lines[0]}" = "valid 0" ] || { echo "alias '$a': $output"; return 1; }
	done
	run -0 "$DRIVER" parse "smc-dump pid=12 start=34 color=blue mode=huge type=raw snaplen=9 noeq file=%2Fx%zz"
	[ "$output" = "valid 1
pid 12
start 34
mode -1
type 1
snaplen 9
tpid 0
tstart 0
log 
file /x%zz
filter " ]
}
