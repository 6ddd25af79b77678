#!/usr/bin/env bats
# smc socket and smcss against the patched kernel: real TCP
# fallbacks with the reason each side shows (a peer that does not speak SMC;
# SMC-D over loopback-ism without a UEID), and a real SMC-D connection with
# its DMB, GIDs, tokens and cursors, for IPv4 and IPv6, IPPROTO_SMC and
# AF_SMC sockets. What the listing says is checked against what the
# kernel's statistics count and against what the holder knows (ports,
# inodes, bytes moved), never assumed.

bats_require_minimum_version 1.5.0

load lib

setup() {
	vm_only
	HOLD_PID=
}

teardown() {
	[ -n "${SMC_DUMP_IN_VM:-}" ] || return 0
	release
	ensure_ueid
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

# fb_count ROLE CODE: the fallback counter of a reason in smc -j stats
fb_count() {
	"$SMC" -j stats | jq --arg r "$1" --arg c "$2" \
		'[.[0].fallback.reasons[] | select(.role == $r and .code == $c) | .count] | add // 0'
}

# smcd_count ROLE: SMC-D v2 successes of client or server
smcd_count() {
	"$SMC" -j stats | jq ".[0].smcd.$1.v2_success"
}

# addr ARG...: the loopback address of the holder's family, as shown
addr() {
	case " $* " in
	*" -6 "*) echo "[::1]" ;;
	*) echo 127.0.0.1 ;;
	esac
}

@test "fallback: a plain TCP server makes the client show 0x03010000 PEERNOSMC (IPv4, IPv6, AF_SMC)" {
	local v a before j s
	ensure_ueid
	for v in "" "-6 --client afsmc"; do
		echo "# variant: $v"
		before=$(fb_count client 0x03010000)
		# shellcheck disable=SC2086
		hold $v --server tcp
		a=$(addr $v)
		run line "$CINO" socket
		echo "$output"
		[ "$output" = "ACTIVE 0 $CINO $a:$CPORT $a:$SPORT * TCP 0x03010000 PEERNOSMC" ]
		j=$("$SMC" -j socket all)
		s=$(sock "$CINO" "$j")
		echo "$s"
		jq -e --argjson p "$CPORT" '.mode == "TCP" and .local_port == $p and
			.fallback == {"reason": "0x03010000", "reason_name": "PEERNOSMC",
				      "peer_diagnosis": "0x00000000",
				      "peer_diagnosis_name": null}' <<<"$s"
		# the TCP server's sockets are no SMC sockets
		[ -z "$(sock "$SINO" "$j")" ]
		[ -z "$(sock "$AINO" "$j")" ]
		release
		# the kernel counted it under the same reason
		[ "$(fb_count client 0x03010000)" -eq $((before + 1)) ]
	done
	run -0 "$SMC" stats
	[[ "$(tr -s ' ' <<<"$output")" == *" client 0x03010000 PEERNOSMC "* ]]
}

@test "fallback: SMC-D loopback without a UEID: NOUEID 0x03030008 on both sides (IPv4, IPv6, AF_SMC)" {
	local v a srv cli j s
	"$SMC" ueid flush
	for v in "" "-6 --client afsmc" "--server afsmc --client afsmc"; do
		echo "# variant: $v"
		srv=$(fb_count server 0x03030008)
		cli=$(fb_count client 0x05000000)
		# shellcheck disable=SC2086
		hold $v
		a=$(addr $v)
		# the server declined: its own reason, no diagnosis from the peer
		run line "$AINO" socket
		echo "$output"
		[ "$output" = "ACTIVE 0 $AINO $a:$SPORT $a:$CPORT * TCP 0x03030008 NOUEID" ]
		# the client got the decline: PEERDECL, and the server's reason
		run line "$CINO" socket
		echo "$output"
		[ "$output" = "ACTIVE 0 $CINO $a:$CPORT $a:$SPORT * TCP 0x05000000 PEERDECL peer 0x03030008 NOUEID" ]
		run line "$SINO" socket listening
		[ "$output" = "LISTEN 0 $SINO $a:$SPORT * * -" ]
		j=$("$SMC" -j socket)
		s=$(sock "$CINO" "$j")
		jq -e '.fallback == {"reason": "0x05000000", "reason_name": "PEERDECL",
				     "peer_diagnosis": "0x03030008",
				     "peer_diagnosis_name": "NOUEID"}' <<<"$s"
		jq -e --arg f "$(case "$v" in *-6*) echo inet6 ;; *) echo inet ;; esac)" \
			'.family == $f' <<<"$s"
		release
		[ "$(fb_count server 0x03030008)" -eq $((srv + 1)) ]
		[ "$(fb_count client 0x05000000)" -eq $((cli + 1)) ]
	done
	run -0 "$SMC" stats
	[[ "$(tr -s ' ' <<<"$output")" == *" server 0x03030008 NOUEID "* ]]
	[[ "$(tr -s ' ' <<<"$output")" == *" client 0x05000000 PEERDECL "* ]]
}

@test "smcd: a real SMC-D connection with its DMB, GIDs, tokens and cursors (IPv4, IPv6, AF_SMC)" {
	local v a c s j cs as
	ensure_ueid
	for v in "" "-6" "-6 --server afsmc --client afsmc"; do
		echo "# variant: $v"
		c=$(smcd_count client)
		s=$(smcd_count server)
		# shellcheck disable=SC2086
		hold $v --bytes 1000
		a=$(addr $v)
		# the kernel counts one SMC-D v2 connection more on each side
		[ "$(smcd_count client)" -eq $((c + 1)) ]
		[ "$(smcd_count server)" -eq $((s + 1)) ]
		run line "$CINO" socket
		[ "$output" = "ACTIVE 0 $CINO $a:$CPORT $a:$SPORT * SMC-D" ]
		run line "$AINO" socket smcd
		[ "$output" = "ACTIVE 0 $AINO $a:$SPORT $a:$CPORT * SMC-D" ]
		# not SMC-R
		[ -z "$(line "$CINO" socket smcr)" ]
		j=$("$SMC" -j -d socket smcd)
		cs=$(sock "$CINO" "$j")
		as=$(sock "$AINO" "$j")
		echo "client $cs"
		echo "accepted $as"
		[ -n "$cs" ] && [ -n "$as" ]
		# each side's DMB token is the other's peer token; loopback-ism
		# is one device, so a GID is its own peer GID
		jq -e --argjson o "$as" '.smcd.token == $o.smcd.peer_token and
			.smcd.peer_token == $o.smcd.token and
			.smcd.token != "0x0000000000000000" and
			.smcd.gid == .smcd.peer_gid and .smcd.gid == $o.smcd.gid' <<<"$cs"
		# each side's RMB is the other's peer RMB; the connection tokens
		# are set and differ
		jq -e --argjson o "$as" '.peer_rmbe_size == $o.rmbe_size and
			.rmbe_size == $o.peer_rmbe_size and .sndbuf_size > 0 and
			.token != "0x00000000" and .token != $o.token' <<<"$cs"
		# the cursors count what the holder moved: 1000 bytes from the
		# client, 2000 back, all read and in no more than one wrap
		jq -e '.tx_prod == {"wrap": 0, "count": 1000} and
			.tx_sent == {"wrap": 0, "count": 1000} and
			.rx_prod == {"wrap": 0, "count": 2000} and
			.mode == "SMC-D" and (has("fallback") | not) and
			.shutdown == {"read": false, "write": false}' <<<"$cs"
		jq -e '.tx_prod == {"wrap": 0, "count": 2000} and
			.rx_prod == {"wrap": 0, "count": 1000}' <<<"$as"
		# the same in text: the smcd line under the socket
		run "$SMC" socket smcd
		[[ "$output" == *"$CPORT"*$'\n\tsmcd linkid 0x'*" token $(jq -r .smcd.token <<<"$cs") peer_gid "* ]]
		release
	done
}

@test "smc socket: uid and inode are those of the owner and its file descriptors" {
	hold -u 65534 --addr 127.0.0.1
	run line "$CINO" socket
	echo "$output"
	[[ "$output" == "ACTIVE 65534 $CINO 127.0.0.1:$CPORT 127.0.0.1:$SPORT "* ]]
	run line "$AINO" socket
	[[ "$output" == "ACTIVE 65534 $AINO 127.0.0.1:$SPORT "* ]]
	run line "$SINO" socket all
	[[ "$output" == "LISTEN 65534 $SINO 127.0.0.1:$SPORT "* ]]
	# sock_diag needs no privilege: the owner lists its sockets too
	run setpriv --reuid=65534 --regid=65534 --clear-groups "$SMC" socket
	[ "$status" -eq 0 ]
	[[ "$output" == *" $CINO "* ]]
}

@test "smcss: smc-tools' format and options in the kernel" {
	local bin=$BATS_TEST_TMPDIR/bin ci si ai l re
	mkdir -p "$bin"
	ln -s "$SMC" "$bin/smcss"
	ensure_ueid
	# an AF_SMC client: the kernel reports its addresses
	hold --client afsmc --bytes 100
	ci=$(printf %07d "$CINO")
	si=$(printf %07d "$SINO")
	ai=$(printf %07d "$AINO")
	run -0 "$bin/smcss"
	[ "${lines[0]}" = "State          UID   Inode   Local Address           Peer Address            Intf Mode " ]
	[[ "$output" == *$'\n'"ACTIVE         00000 $ci $(printf '%-23s %-23s' "127.0.0.1:$CPORT" "127.0.0.1:$SPORT") 0000 SMCD "* ]]
	[[ "$output" != *" $si "* ]]
	run -0 "$bin/smcss" -l
	[[ "$output" == *$'\n'"LISTEN         00000 $si "* ]]
	[[ "$output" != *" $ci "* ]]
	run -0 "$bin/smcss" -a
	[[ "$output" == *" $si "* && "$output" == *" $ci "* && "$output" == *" $ai "* ]]
	run -0 "$bin/smcss" -D -d
	l=$(grep "^ACTIVE         00000 $ci " <<<"$output")
	# shutdown, token, 3 sizes, 2 cursors, flags, 2 cursors, flags,
	# 3 cursors, then GID, token, peer GID, peer token, link ID
	re=' 0000 SMCD  <->  ([0-9a-f]{8} ){4}([0-9a-f]{4}:[0-9a-f]{8} ){2}[0-9a-f]{2}:[0-9a-f]{2}   ([0-9a-f]{4}:[0-9a-f]{8} ){2}[0-9a-f]{2}:[0-9a-f]{2}   ([0-9a-f]{4}:[0-9a-f]{8} ){3}([0-9a-f]{16} ){4}[0-9a-f]{8} $'
	[[ "$l" =~ $re ]]
	run -0 "$bin/smcss" -R
	[[ "$output" != *" $ci "* ]]
	run -1 "$bin/smcss" -j
	release
	# gone once closed (or shown closing, never active)
	run -0 "$SMC" socket
	[[ "$(tr -s ' ' <<<"$output")" != *"ACTIVE 0 $CINO "* ]]
}
