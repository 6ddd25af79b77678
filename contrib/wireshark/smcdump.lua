-- SPDX-License-Identifier: GPL-2.0
--
-- smcdump.lua - Wireshark dissector for SMC dump records
--
-- An smc-dummy link mirrors the data and CDC messages of SMC connections
-- (RFC 7609; Linux net/smc) as UDP datagrams with the addresses and ports
-- of the connection's TCP socket. The UDP payload is a record: the header
-- of Documentation/record-format.md (include/uapi/linux/smc_dump.h,
-- big-endian), then the data, or the CDC message (44-byte SMC-R wire
-- format, or the 32-byte SMC-D struct smcd_cdc_msg in the capturing
-- host's byte order), or (hdr_ver 4 on) an SMC-R link group's LLC
-- message after the link it went on, decoded field by field as
-- lib/smcdump/llc.c does.
--
-- Registered as a heuristic dissector on UDP (the record magic
-- 0xCFD3E7A5) and for "Decode As" on UDP ports. Field abbreviations are
-- stable; contrib/wireshark/README.md lists them.
--
-- Written for Wireshark 4.0 with Lua 5.2: no 5.3 integer operators, bit
-- operations through bit32.

local MAGIC = 0xCFD3E7A5
local HDR_VER = 3		-- the first hdr_ver of this layout; below: Alibaba's
local HDR_LEN = 32		-- the hdr_ver 3 header
local HDR_V4_LEN = 40		-- struct smc_dump_hdr, hdr_ver 4: + stream_seq
local LLC_LINK_LEN = 48		-- struct smc_dump_llc_link
local LLC_MIN = 4		-- an LLC message: its header at least (v2 may be < 44)
local LEGACY_PREFIX = 10	-- magic, versions, mode, type, len
local MODE_SMCR, MODE_SMCD = 1, 2
local TYPE_RAW, TYPE_CDC, TYPE_LLC = 1, 2, 3
local F_RX, F_TRUNC, F_FAILED, F_BIG_ENDIAN = 0x01, 0x02, 0x04, 0x08
local CDC_TYPE = 0xFE
local CDC_R_LEN, CDC_D_LEN = 44, 32

local smcdump = Proto("smcdump", "SMC dump record")

-- ------------------------------------------------------------ fields

local mode_names = { [MODE_SMCR] = "SMC-R", [MODE_SMCD] = "SMC-D" }
local type_names = { [TYPE_RAW] = "data", [TYPE_CDC] = "CDC",
		     [TYPE_LLC] = "LLC" }
-- LLC message types (net/smc/smc_llc.h), SMC-Rv2's forms from 0x21
local llc_names = {
	[0x01] = "CONFIRM_LINK", [0x02] = "ADD_LINK",
	[0x03] = "ADD_LINK_CONT", [0x04] = "DELETE_LINK",
	[0x05] = "REQ_ADD_LINK", [0x06] = "CONFIRM_RKEY",
	[0x07] = "TEST_LINK", [0x08] = "CONFIRM_RKEY_CONT",
	[0x09] = "DELETE_RKEY", [0x21] = "CONFIRM_LINK_V2",
	[0x22] = "ADD_LINK_V2", [0x24] = "DELETE_LINK_V2",
	[0x25] = "REQ_ADD_LINK_V2", [0x26] = "CONFIRM_RKEY_V2",
	[0x27] = "TEST_LINK_V2", [0x29] = "DELETE_RKEY_V2",
}

-- DELETE_LINK's reason codes (net/smc/smc_llc.h SMC_LLC_DEL_*), by the
-- names of smc dump read
local llc_del_reasons = {
	[0x00010000] = "lost-path", [0x00020000] = "operator-terminated",
	[0x00030000] = "program-terminated",
	[0x00040000] = "protocol-violation",
	[0x00050000] = "no-asym-needed", [0x00100000] = "no-link",
	[0x00200000] = "no-link-group",
}

-- bit values from the __BIG_ENDIAN_BITFIELD layouts of struct
-- smc_cdc_producer_flags and smc_cdc_conn_state_flags (net/smc/smc.h):
-- the first member is the most significant bit; the little-endian
-- layout lists the members in reverse, so the bits are the same on
-- every host
local prod_flag_bits = {
	{ 0x80, "write_blocked", "Writing blocked (no receive buffer space)" },
	{ 0x40, "urg_data_pending", "Urgent data pending" },
	{ 0x20, "urg_data_present", "Urgent data present" },
	{ 0x10, "cons_curs_upd_req", "Consumer cursor update requested" },
	{ 0x08, "failover_validation", "Failover validation (message replay)" },
}
local conn_state_bits = {
	{ 0x80, "peer_done_writing", "Peer done writing" },
	{ 0x40, "peer_conn_closed", "Peer connection closed" },
	{ 0x20, "peer_conn_abort", "Peer connection aborted" },
}

local f = {
	magic = ProtoField.uint32("smcdump.magic", "Magic", base.HEX),
	hdr_ver = ProtoField.uint8("smcdump.hdr_ver", "Header version", base.DEC),
	smc_ver = ProtoField.uint8("smcdump.smc_ver", "SMC version", base.DEC),
	mode = ProtoField.uint8("smcdump.mode", "Mode", base.DEC, mode_names),
	rtype = ProtoField.uint8("smcdump.type", "Record type", base.DEC,
				 type_names),
	len = ProtoField.uint16("smcdump.len", "Record length", base.DEC),
	hdr_len = ProtoField.uint8("smcdump.hdr_len", "Header length", base.DEC),
	flags = ProtoField.uint8("smcdump.flags", "Flags", base.HEX),
	flags_rx = ProtoField.bool("smcdump.flags.rx", "Received", 8,
				   { "received", "sent" }, F_RX),
	flags_trunc = ProtoField.bool("smcdump.flags.truncated",
				      "Truncated by snaplen", 8, nil, F_TRUNC),
	flags_failed = ProtoField.bool("smcdump.flags.failed",
				       "Send failed", 8, nil, F_FAILED),
	flags_be = ProtoField.bool("smcdump.flags.big_endian",
				   "Big-endian host (SMC-D CDC byte order)", 8,
				   nil, F_BIG_ENDIAN),
	flags_res = ProtoField.uint8("smcdump.flags.reserved", "Reserved",
				     base.HEX, nil, 0xF0),
	dir = ProtoField.string("smcdump.dir", "Direction"),
	seq = ProtoField.uint32("smcdump.seq", "Link sequence number", base.DEC),
	token = ProtoField.uint32("smcdump.token", "Connection token", base.HEX),
	orig_len = ProtoField.uint32("smcdump.orig_len", "Original payload length",
				     base.DEC),
	offset = ProtoField.uint64("smcdump.offset", "Offset", base.DEC),
	stream_seq = ProtoField.uint32("smcdump.stream_seq",
				       "Stream sequence number", base.DEC),
	hdr_reserved = ProtoField.uint32("smcdump.reserved", "Reserved",
					 base.HEX),
	llc = ProtoField.none("smcdump.llc", "LLC message"),
	llc_lgr = ProtoField.uint32("smcdump.llc.lgr_id", "Link group id",
				    base.HEX),
	llc_link = ProtoField.uint8("smcdump.llc.link_id", "Link id", base.DEC),
	llc_port = ProtoField.uint8("smcdump.llc.ib_port", "RDMA port", base.DEC),
	llc_qp = ProtoField.uint32("smcdump.llc.qpn", "Local QP number",
				   base.DEC),
	llc_peer_qp = ProtoField.uint32("smcdump.llc.peer_qpn",
					"Peer QP number", base.DEC),
	llc_gid = ProtoField.ipv6("smcdump.llc.gid", "Local GID"),
	llc_peer_gid = ProtoField.ipv6("smcdump.llc.peer_gid", "Peer GID"),
	llc_type = ProtoField.uint8("smcdump.llc.type", "LLC message type",
				    base.HEX, llc_names),
	llc_resp = ProtoField.bool("smcdump.llc.response", "Response", 8, nil,
				   0x80),
	llc_msg = ProtoField.bytes("smcdump.llc.msg", "LLC message bytes"),
	llc_note = ProtoField.string("smcdump.llc.note", "Length note"),
	-- the message's fields (lib/smcdump/llc.c; the meanings of
	-- Wireshark's packet-smc.c where it has the field)
	llc_version = ProtoField.uint8("smcdump.llc.version",
				       "LLC version (1; 2: types 0x21 on)",
				       base.DEC),
	llc_length = ProtoField.uint16("smcdump.llc.length", "Message length",
				       base.DEC),
	llc_sender_mac = ProtoField.ether("smcdump.llc.sender_mac",
					  "Sender MAC address"),
	llc_sender_gid = ProtoField.ipv6("smcdump.llc.sender_gid", "Sender GID"),
	llc_sender_qpn = ProtoField.uint24("smcdump.llc.sender_qpn",
					   "Sender QP number", base.DEC),
	llc_link_num = ProtoField.uint8("smcdump.llc.link_num",
					"Link number (the link the message is about)",
					base.DEC),
	llc_link_uid = ProtoField.uint32("smcdump.llc.link_uid",
					 "Sender link user id", base.HEX),
	llc_max_links = ProtoField.uint8("smcdump.llc.max_links", "Max links",
					 base.DEC),
	llc_max_conns = ProtoField.uint8("smcdump.llc.max_conns",
					 "Max connections", base.DEC),
	llc_rejected = ProtoField.bool("smcdump.llc.rejected",
				       "Add link rejected", 8, nil, 0x40),
	llc_reject_reason = ProtoField.uint8("smcdump.llc.reject_reason",
					     "Reject reason", base.DEC, nil, 0x0F),
	llc_qp_mtu = ProtoField.uint8("smcdump.llc.qp_mtu", "QP MTU value",
				      base.DEC, nil, 0x0F),
	llc_initial_psn = ProtoField.uint24("smcdump.llc.initial_psn",
					    "Initial PSN", base.DEC),
	llc_direct = ProtoField.bool("smcdump.llc.direct",
				     "Direct (the peer is in the same subnet)",
				     8, nil, 0x80),
	llc_target_gid = ProtoField.ipv6("smcdump.llc.target_gid", "Target GID"),
	llc_num_rkeys = ProtoField.uint16("smcdump.llc.num_rkeys",
					  "Number of rkeys", base.DEC),
	llc_rkey = ProtoField.uint32("smcdump.llc.rkey",
				     "Rkey (of an RMB, as known on this link)",
				     base.HEX),
	llc_new_rkey = ProtoField.uint32("smcdump.llc.new_rkey",
					 "Equivalent rkey for the new link",
					 base.HEX),
	llc_new_vaddr = ProtoField.uint64("smcdump.llc.new_vaddr",
					  "RMB virtual address for the new link",
					  base.HEX),
	llc_all = ProtoField.bool("smcdump.llc.flags.all",
				  "Terminate all links in the link group", 8,
				  nil, 0x40),
	llc_orderly = ProtoField.bool("smcdump.llc.flags.orderly",
				      "Terminate links orderly", 8, nil, 0x20),
	llc_negative = ProtoField.bool("smcdump.llc.flags.negative",
				       "Negative response", 8, nil, 0x20),
	llc_retry = ProtoField.bool("smcdump.llc.flags.retry",
				    "Retry rkey set", 8, nil, 0x10),
	llc_reason = ProtoField.uint32("smcdump.llc.reason", "Reason code",
				       base.HEX, llc_del_reasons),
	llc_num_gids = ProtoField.uint8("smcdump.llc.num_gids",
					"Number of GIDs", base.DEC),
	llc_gid_list = ProtoField.ipv6("smcdump.llc.gid_list",
				       "GID the sender can reach"),
	llc_rt_link = ProtoField.uint8("smcdump.llc.rtoken.link_num",
				       "Link number of the rkey", base.DEC),
	llc_rt_rkey = ProtoField.uint32("smcdump.llc.rtoken.rkey", "New rkey",
					base.HEX),
	llc_rt_vaddr = ProtoField.uint64("smcdump.llc.rtoken.vaddr",
					 "New RMB virtual address", base.HEX),
	llc_user_data = ProtoField.bytes("smcdump.llc.user_data", "User data"),
	llc_err_mask = ProtoField.uint8("smcdump.llc.err_mask", "Error mask",
					base.HEX),
	llc_num_invalid = ProtoField.uint8("smcdump.llc.num_invalid_rkeys",
					   "Number of invalid rkeys", base.DEC),
	hdr_extra = ProtoField.bytes("smcdump.hdr_extra",
				     "Header bytes not known to this dissector"),
	payload_len = ProtoField.uint32("smcdump.payload_len",
					"Payload length in the record", base.DEC),
	cap_len = ProtoField.uint32("smcdump.cap_len",
				    "Payload length in the capture", base.DEC),
	error = ProtoField.string("smcdump.error", "Malformed"),
	conn = ProtoField.uint32("smcdump.conn", "Connection number", base.DEC),
	peer_token = ProtoField.uint32("smcdump.peer_token",
				       "Peer's connection token", base.HEX),

	data = ProtoField.bytes("smcdump.data", "Data"),
	stream_offset = ProtoField.uint64("smcdump.stream_offset",
					  "Stream offset", base.DEC),
	stream_end = ProtoField.uint64("smcdump.stream_end",
				       "Stream offset after the record",
				       base.DEC),

	legacy_raw = ProtoField.bytes("smcdump.legacy.raw",
				      "Alibaba layout: bytes after the prefix"),
	legacy_raw_len = ProtoField.uint32("smcdump.legacy.raw_len",
					   "Bytes after the prefix", base.DEC),

	cdc = ProtoField.none("smcdump.cdc", "CDC message"),
	cdc_type = ProtoField.uint8("smcdump.cdc.type", "Message type", base.HEX),
	cdc_len = ProtoField.uint8("smcdump.cdc.len", "Message length", base.DEC),
	cdc_seqno = ProtoField.uint16("smcdump.cdc.seqno", "Sequence number",
				      base.DEC),
	cdc_token = ProtoField.uint32("smcdump.cdc.token",
				      "Alert token (of the receiver)", base.HEX),
	prod = ProtoField.string("smcdump.cdc.prod", "Producer cursor"),
	prod_res = ProtoField.uint16("smcdump.cdc.prod.reserved", "Reserved",
				     base.HEX),
	prod_wrap = ProtoField.uint16("smcdump.cdc.prod.wrap", "Wrap", base.DEC),
	prod_count = ProtoField.uint32("smcdump.cdc.prod.count", "Count",
				       base.DEC),
	cons = ProtoField.string("smcdump.cdc.cons", "Consumer cursor"),
	cons_res = ProtoField.uint16("smcdump.cdc.cons.reserved", "Reserved",
				     base.HEX),
	cons_wrap = ProtoField.uint16("smcdump.cdc.cons.wrap", "Wrap", base.DEC),
	cons_count = ProtoField.uint32("smcdump.cdc.cons.count", "Count",
				       base.DEC),
	-- the cursors as numbers for I/O graphs and comparisons
	prod_pos = ProtoField.uint64("smcdump.cdc.prod.pos",
				     "Producer cursor as wrap * 2^32 + count",
				     base.DEC),
	cons_pos = ProtoField.uint64("smcdump.cdc.cons.pos",
				     "Consumer cursor as wrap * 2^32 + count",
				     base.DEC),
	prod_stream = ProtoField.uint64("smcdump.cdc.prod.stream_offset",
					"Producer cursor at stream offset",
					base.DEC),
	cons_stream = ProtoField.uint64("smcdump.cdc.cons.stream_offset",
					"Consumer cursor at stream offset",
					base.DEC),
	cons_limit = ProtoField.uint64("smcdump.cdc.cons.limit",
				       "Peer may produce up to stream offset",
				       base.DEC),
	prod_cursor_flags = ProtoField.uint16("smcdump.cdc.prod_cursor_flags",
					      "Producer cursor flag bytes (unused)",
					      base.HEX),
	pflags = ProtoField.uint8("smcdump.cdc.prod_flags", "Producer flags",
				  base.HEX),
	pflags_names = ProtoField.string("smcdump.cdc.prod_flags.names",
					 "Producer flags set"),
	pflags_res = ProtoField.uint8("smcdump.cdc.prod_flags.reserved",
				      "Reserved", base.HEX, nil, 0x07),
	csflags = ProtoField.uint8("smcdump.cdc.conn_state_flags",
				   "Connection state flags", base.HEX),
	csflags_names = ProtoField.string("smcdump.cdc.conn_state_flags.names",
					  "Connection state flags set"),
	csflags_res = ProtoField.uint8("smcdump.cdc.conn_state_flags.reserved",
				       "Reserved", base.HEX, nil, 0x1F),
	cdc_res = ProtoField.bytes("smcdump.cdc.reserved", "Reserved"),
}

local pflag_fields, csflag_fields = {}, {}
for i, b in ipairs(prod_flag_bits) do
	pflag_fields[i] = ProtoField.bool("smcdump.cdc.prod_flags." .. b[2],
					  b[3], 8, nil, b[1])
	f["pflag_" .. b[2]] = pflag_fields[i]
end
for i, b in ipairs(conn_state_bits) do
	csflag_fields[i] = ProtoField.bool("smcdump.cdc.conn_state_flags." ..
					   b[2], b[3], 8, nil, b[1])
	f["csflag_" .. b[2]] = csflag_fields[i]
end

-- registered in a fixed order (of the keys), not in pairs() order
local fieldkeys, fieldlist = {}, {}
for k in pairs(f) do
	fieldkeys[#fieldkeys + 1] = k
end
table.sort(fieldkeys)
for i, k in ipairs(fieldkeys) do
	fieldlist[i] = f[k]
end
smcdump.fields = fieldlist

local ef = {
	malformed = ProtoExpert.new("smcdump.expert.malformed",
				    "Malformed SMC dump record",
				    expert.group.MALFORMED,
				    expert.severity.ERROR),
	truncated = ProtoExpert.new("smcdump.expert.truncated",
				    "Payload truncated by the link's snaplen",
				    expert.group.UNDECODED,
				    expert.severity.WARN),
	cap_truncated = ProtoExpert.new("smcdump.expert.cap_truncated",
					"Record cut by the capture snaplen",
					expert.group.UNDECODED,
					expert.severity.WARN),
	legacy = ProtoExpert.new("smcdump.expert.legacy",
				 "Alibaba layout (hdr_ver < 3): only the prefix is decoded",
				 expert.group.UNDECODED,
				 expert.severity.NOTE),
}
smcdump.experts = { ef.malformed, ef.truncated, ef.cap_truncated, ef.legacy }

-- ------------------------------------------------------- preferences

local ENDIAN_LITTLE, ENDIAN_BIG = 0, 1
smcdump.prefs.cdc_endian = Pref.enum("SMC-D CDC byte order", ENDIAN_LITTLE,
	"Byte order of SMC-D CDC messages: the host byte order of the " ..
	"machine that made the capture (little: x86, arm64; big: s390x)",
	{ { 1, "little", ENDIAN_LITTLE }, { 2, "big", ENDIAN_BIG } }, false)
smcdump.prefs.dummy_frames = Pref.bool("UDP of smc-dummy frames is a record",
	true,
	"UDP in an Ethernet frame whose source and destination MAC are " ..
	"equal (and not zero) comes from an smc-dummy link: decode it as " ..
	"a record even without the magic, and report a wrong magic")
smcdump.prefs.rmb_size = Pref.uint("RMB/DMB size (bytes)", 0,
	"Size of the receive buffer the cursors point into (smc dump " ..
	"analyze prints it as the window): with it, each cursor is also " ..
	"shown as a stream offset (wrap * size + count), comparable with " ..
	"the data records' stream offsets; 0: not shown")

-- ------------------------------------------------------------ helpers

local f_eth_src = Field.new("eth.src")
local f_eth_dst = Field.new("eth.dst")

-- The frame comes from an smc-dummy link: Ethernet, both MACs the link's
-- address. Zero MACs (tcpdump on lo) do not count.
local function from_dummy_link()
	local srcs, dsts = { f_eth_src() }, { f_eth_dst() }

	if #srcs == 0 or #dsts == 0 then
		return false
	end
	-- the bytes: tostring() of an address may be a resolved name
	local s = srcs[#srcs].range:bytes():tohex()
	local d = dsts[#dsts].range:bytes():tohex()
	return s == d and s ~= "000000000000"
end

-- ------------------------------------------------------- connections

-- A connection has two ends, each writing records under its own (local)
-- token: on SMC-D loopback both are in one capture. An end is (mode,
-- family, token, local address and port, peer address and port), the
-- local side being the frame's source for a sent record and its
-- destination for a received one. A new end pairs with the earliest end
-- seen before it, of the same mode and family, whose local side is its
-- peer side and the other way round, and that has no pair yet (and, when
-- both have sent an SMC-R CDC message, whose last one names the other's
-- token: the CDC carries the peer's alert token); it takes
-- that end's connection number, else the next one (0, 1, ... in order of
-- the connections' first records, as tcp.stream): the rule of the
-- "conn N" of smc dump read -d. Records without a connection (LLC, the
-- Alibaba layout, malformed ones) get none.
--
-- Wireshark dissects again and out of order (the GUI): the numbers are
-- made on the first pass, in frame order, and kept per frame.

local conns		-- the state of the first pass; see conns_reset

local function conns_reset()
	conns = {
		ends = {},	-- end key -> { conn = N, token = T, peer = end,
				--   ctoken = the token its last sent CDC named }
		unpaired = {},	-- side key -> the ends without a pair, oldest
				--   first, at [head .. tail] (see conn_of)
		frames = {},	-- frame number -> { conn, peer_token or nil }
		n = 0,		-- numbers given
		addrs = {},	-- { Address, id }, in the order of Address's <
	}
end
conns_reset()
-- a file opened, or everything dissected again from the first frame
smcdump.init = conns_reset

-- A number for an address, the same for equal addresses. Not its
-- tostring(), which may be a name, or one only once the name resolves;
-- not the ip.src field, which is not there without a tree (the first
-- pass of the GUI and of tshark -2 has none). Addresses of different
-- families differ, so the family is in the number.
local function addr_id(a)
	local t = conns.addrs
	local lo, hi = 1, #t

	while lo <= hi do
		local mid = math.floor((lo + hi) / 2)
		local m = t[mid]
		if a == m[1] then
			return m[2]
		end
		if a < m[1] then
			hi = mid - 1
		else
			lo = mid + 1
		end
	end
	table.insert(t, lo, { a, #t + 1 })
	return #t
end

-- Whether ends a and b may pair: unless each has sent a CDC message
-- naming a token, and one of those is not the other end's
local function ctokens_agree(a, b)
	return not (a.ctoken and b.ctoken and
		    (a.ctoken ~= b.token or b.ctoken ~= a.token))
end

-- The connection number of a record of this end, and the token of the
-- end it is paired with (nil while it has none), as the first pass saw
-- them at this frame. ctoken: the token a sent SMC-R CDC message names.
local function conn_of(pinfo, mode, token, rx, ctoken)
	if not pinfo.visited then
		local src, dst = addr_id(pinfo.net_src), addr_id(pinfo.net_dst)
		local sport, dport = pinfo.src_port, pinfo.dst_port
		local laddr, lport, raddr, rport = src, sport, dst, dport
		if rx then
			laddr, lport, raddr, rport = dst, dport, src, sport
		end
		-- the local side, then the peer's
		local here = string.format("%u %u:%u %u:%u", mode, laddr, lport,
					   raddr, rport)
		local there = string.format("%u %u:%u %u:%u", mode, raddr, rport,
					    laddr, lport)
		local key = string.format("%s %u", here, token)
		local e = conns.ends[key]

		if e then
			e.ctoken = ctoken or e.ctoken
		else
			local q = conns.unpaired[there]
			local p

			e = { token = token, ctoken = ctoken }
			-- q[q.head .. q.tail], oldest first, nil where an end
			-- paired out of turn: the end taken leaves no shift
			-- behind (table.remove made thousands of ends of one
			-- 4-tuple quadratic)
			if q then
				for i = q.head, q.tail do
					local c = q[i]
					if c and ctokens_agree(c, e) then
						p = c
						q[i] = nil
						break
					end
				end
				while q.head <= q.tail and not q[q.head] do
					q.head = q.head + 1
				end
				if q.head > q.tail then
					conns.unpaired[there] = nil
				end
			end
			if p then
				e.conn, e.peer = p.conn, p
				p.peer = e
			else
				e.conn = conns.n
				conns.n = conns.n + 1
				q = conns.unpaired[here] or { head = 1, tail = 0 }
				q.tail = q.tail + 1
				q[q.tail] = e
				conns.unpaired[here] = q
			end
			conns.ends[key] = e
		end
		conns.frames[pinfo.number] = { e.conn, e.peer and e.peer.token }
	end
	local fr = conns.frames[pinfo.number]
	if not fr then
		return nil
	end
	return fr[1], fr[2]
end

local function flag_names(v, bits)
	local out = {}
	local bit = 0x80

	while bit > 0 do
		if bit32.band(v, bit) ~= 0 then
			local name = string.format("0x%02x", bit)
			for _, b in ipairs(bits) do
				if b[1] == bit then
					name = b[2]
				end
			end
			out[#out + 1] = name
		end
		bit = bit32.rshift(bit, 1)
	end
	return table.concat(out, ",")
end

local function hex8(v)
	return string.format("0x%08x", v)
end

-- ------------------------------------------------------------ CDC

-- Decode the CDC message in tvb range r (len bytes captured, the whole
-- message present). Returns the error text or nil, and a summary.
local function dissect_cdc(r, len, smcd, tree, big)
	local need = smcd and CDC_D_LEN or CDC_R_LEN
	local kind = smcd and "SMC-D" or "SMC-R"
	local st = tree:add(f.cdc, r)

	st:set_text(kind .. " CDC message")
	if len < need then
		return string.format("%s CDC message of %u bytes, need %u",
				     kind, len, need), ""
	end
	local ctype = r(0, 1):uint()
	local clen
	local pwrap, pcount, cwrap, ccount, pf, csf
	local pf_r, csf_r

	st:add(f.cdc_type, r(0, 1))
	if smcd then
		-- hdr_ver 4 on: the record says; older: the preference
		local little
		if big == nil then
			little = smcdump.prefs.cdc_endian ~= ENDIAN_BIG
		else
			little = not big
		end
		local function u(o, n)
			if little then
				return r(o, n):le_uint()
			end
			return r(o, n):uint()
		end
		local function add(t, field, o, n)
			if little then
				return t:add_le(field, r(o, n))
			end
			return t:add(field, r(o, n))
		end

		st:add(f.cdc_res, r(1, 7))
		pwrap, pcount = u(8, 2), u(10, 4)
		cwrap, ccount = u(16, 2), u(18, 4)
		local pt = st:add(f.prod, r(8, 8),
				  string.format("%u:%u", pwrap, pcount))
		add(pt, f.prod_wrap, 8, 2)
		add(pt, f.prod_count, 10, 4)
		pt:add(f.prod_cursor_flags, r(14, 2))
		local ct = st:add(f.cons, r(16, 8),
				  string.format("%u:%u", cwrap, ccount))
		add(ct, f.cons_wrap, 16, 2)
		add(ct, f.cons_count, 18, 4)
		-- Linux sends the flags in the consumer cursor
		-- (smcd_cdc_msg_send())
		pf_r, csf_r = r(22, 1), r(23, 1)
	else
		clen = r(1, 1):uint()
		st:add(f.cdc_len, r(1, 1))
		st:add(f.cdc_seqno, r(2, 2))
		st:add(f.cdc_token, r(4, 4))
		pwrap, pcount = r(10, 2):uint(), r(12, 4):uint()
		cwrap, ccount = r(18, 2):uint(), r(20, 4):uint()
		local pt = st:add(f.prod, r(8, 8),
				  string.format("%u:%u", pwrap, pcount))
		pt:add(f.prod_res, r(8, 2))
		pt:add(f.prod_wrap, r(10, 2))
		pt:add(f.prod_count, r(12, 4))
		local ct = st:add(f.cons, r(16, 8),
				  string.format("%u:%u", cwrap, ccount))
		ct:add(f.cons_res, r(16, 2))
		ct:add(f.cons_wrap, r(18, 2))
		ct:add(f.cons_count, r(20, 4))
		pf_r, csf_r = r(24, 1), r(25, 1)
	end

	-- one number per cursor, generated: in cursor order across wraps,
	-- and with the buffer's size, a stream offset
	local ptree, ctree = st:add(f.prod_pos, r(8, 8), UInt64(pcount, pwrap)),
			     st:add(f.cons_pos, r(16, 8), UInt64(ccount, cwrap))
	ptree:set_generated()
	ctree:set_generated()
	local size = smcdump.prefs.rmb_size
	if size and size > 0 then
		local pso = UInt64(pwrap) * size + pcount
		local cso = UInt64(cwrap) * size + ccount
		st:add(f.prod_stream, r(8, 8), pso):set_generated()
		st:add(f.cons_stream, r(16, 8), cso):set_generated()
		st:add(f.cons_limit, r(16, 8), cso + size):set_generated()
	end

	pf, csf = pf_r:uint(), csf_r:uint()
	local pnames, cnames = flag_names(pf, prod_flag_bits),
			       flag_names(csf, conn_state_bits)
	local pft = st:add(f.pflags, pf_r)
	pft:append_text(pnames ~= "" and " (" .. pnames .. ")" or "")
	for _, pfield in ipairs(pflag_fields) do
		pft:add(pfield, pf_r)
	end
	pft:add(f.pflags_res, pf_r)
	pft:add(f.pflags_names, pf_r, pnames):set_generated()
	local cst = st:add(f.csflags, csf_r)
	cst:append_text(cnames ~= "" and " (" .. cnames .. ")" or "")
	for _, cfield in ipairs(csflag_fields) do
		cst:add(cfield, csf_r)
	end
	cst:add(f.csflags_res, csf_r)
	cst:add(f.csflags_names, csf_r, cnames):set_generated()
	if smcd then
		st:add(f.cdc_res, r(24, 8))
	else
		st:add(f.cdc_res, r(26, 18))
	end

	local summary = string.format("prod %u:%u cons %u:%u", pwrap, pcount,
				      cwrap, ccount)
	if pnames ~= "" then
		summary = summary .. " flags [" .. pnames .. "]"
	end
	if cnames ~= "" then
		summary = summary .. " state [" .. cnames .. "]"
	end
	st:append_text(": " .. summary)

	if len ~= need then
		return string.format("%s CDC message of %u bytes, expected %u",
				     kind, len, need), summary
	end
	if ctype ~= CDC_TYPE then
		return string.format("CDC type 0x%02x, expected 0x%02x", ctype,
				     CDC_TYPE), summary
	end
	if not smcd and clen ~= CDC_R_LEN then
		return string.format("CDC length field %u, expected %u", clen,
				     CDC_R_LEN), summary
	end
	return nil, summary
end

-- ------------------------------------------------------------ LLC

-- As llc.c's dump_llc_check(): the bytes a message of type t needs;
-- version 1's are all 44 (RFC 7609), version 2's up to their fixed
-- fields' end
local llc_v2_needs = { [0x21] = 36, [0x22] = 36, [0x24] = 9, [0x25] = 28,
		       [0x26] = 5, [0x27] = 20, [0x29] = 8 }

-- As llc.c's dump_llc_big_endian(): the byte order LLC message m (at
-- least 4 bytes captured) of size bytes was written in. big names the
-- recording host's (flag 0x08): the sender's for a message sent, and for
-- one received unless the peer's order differs; then version 2's length
-- read that way is past the message and read the other way is not.
local function llc_sender_big(m, size, big, rx)
	if not rx or bit32.band(m(0, 1):uint(), 0xF0) ~= 0x20 then
		return big
	end
	local be, le = m(1, 2):uint(), m(1, 2):le_uint()
	local mine, other = le, be
	if big then
		mine, other = be, le
	end
	if mine > size and other <= size and other >= 4 then
		return not big
	end
	return big
end

-- LLC message m (the bytes captured, at least 4) of size bytes as sent:
-- the bytes to decode (captured, up to the header's length), why it is
-- malformed or nil, and a note on its length or nil
local function llc_check(m, size, big, name)
	local t = m(0, 1):uint()
	local v2 = bit32.band(t, 0xF0) == 0x20
	local hlen, need

	if v2 then
		hlen = big and m(1, 2):uint() or m(1, 2):le_uint()
		need = llc_v2_needs[t] or 4
	else
		hlen = m(1, 1):uint()
		need = 44
	end
	if size < need then
		return math.min(m:len(), 4), string.format("%s of %u bytes, needs %u",
					 name, size, need)
	elseif hlen < need then
		return math.min(m:len(), 4), string.format("%s of llc-len %u, needs %u",
					 name, hlen, need)
	elseif not v2 and (size ~= 44 or hlen ~= 44) then
		return math.min(m:len(), 4),
		       string.format("%s of %u bytes, llc-len %u: version 1 is 44",
				     name, size, hlen)
	end
	local note
	if size > hlen then
		note = string.format("%u bytes past llc-len %u", size - hlen, hlen)
	elseif size < hlen then
		note = string.format("%u of llc-len %u bytes", size, hlen)
	end
	return math.min(m:len(), hlen), nil, note
end

-- The fields of LLC message m (the bytes the capture holds) under tree t,
-- as lib/smcdump/llc.c decodes them: the layouts of RFC 7609 (version 1)
-- and SMC Version 2 (types 0x21 on) as Linux's net/smc/smc_llc.c sends
-- them. Multi-byte fields are big-endian, except version 2's length and
-- ADD_LINK_V2's rkey count, in the sender's order (big: from the
-- record's flag 0x08, as llc_sender_big() reads it). A field the capture cut is left out, in the groups
-- llc.c leaves them out in; nothing is read past m.
local function dissect_llc_msg(m, t, big)
	local len = m:len()
	local mtype = m(0, 1):uint()
	local v2 = bit32.band(mtype, 0xF0) == 0x20

	-- a host-order 16-bit field at o
	local function host16(o)
		if big then
			return m(o, 2):uint()
		end
		return m(o, 2):le_uint()
	end
	local function add_host16(field, o)
		if big then
			return t:add(field, m(o, 2))
		end
		return t:add_le(field, m(o, 2))
	end
	-- the (rkey, new rkey, new vaddr) triples of ADD_LINK_CONT and
	-- ADD_LINK_V2 from o, at most n, whole ones only
	local function rkey_pairs(o, n)
		local i = 0
		while i < n and o + 16 <= len do
			local it = t:add(m(o, 16), string.format("Rkey pair %u",
								i + 1))
			it:add(f.llc_rkey, m(o, 4))
			it:add(f.llc_new_rkey, m(o + 4, 4))
			it:add(f.llc_new_vaddr, m(o + 8, 8))
			i, o = i + 1, o + 16
		end
	end
	-- CONFIRM_RKEY's RMB tokens (link or count, rkey, vaddr) from o, at
	-- most n, whole ones only; with first_is_count the first one's link
	-- byte is the count of the others, the token of this link
	local function rtokens(o, n, first_is_count)
		local i = 0
		while i < n and o + 13 <= len do
			local this = first_is_count and i == 0
			local it = t:add(m(o, 13), this and "RMB token of this link"
					 or string.format("RMB token of link %u",
							  m(o, 1):uint()))
			if not this then
				it:add(f.llc_rt_link, m(o, 1))
			end
			it:add(f.llc_rt_rkey, m(o + 1, 4))
			it:add(f.llc_rt_vaddr, m(o + 5, 8))
			i, o = i + 1, o + 13
		end
	end

	t:add(f.llc_version, m(0, 1), v2 and 2 or 1):set_generated()
	if v2 then
		add_host16(f.llc_length, 1)
	else
		t:add(f.llc_length, m(1, 1), m(1, 1):uint())
	end

	if mtype == 0x01 or mtype == 0x21 then		-- CONFIRM_LINK
		if len < 36 then
			return
		end
		t:add(f.llc_sender_mac, m(4, 6))
		t:add(f.llc_sender_gid, m(10, 16))
		t:add(f.llc_sender_qpn, m(26, 3))
		t:add(f.llc_link_num, m(29, 1))
		t:add(f.llc_link_uid, m(30, 4))
		t:add(f.llc_max_links, m(34, 1))
		t:add(f.llc_max_conns, m(35, 1))
	elseif mtype == 0x02 or mtype == 0x22 then	-- ADD_LINK
		t:add(f.llc_rejected, m(3, 1))
		-- version 1 only: the reason in the header's third byte
		if not v2 and bit32.band(m(3, 1):uint(), 0x40) ~= 0 then
			t:add(f.llc_reject_reason, m(2, 1))
		end
		if len < 36 then
			return
		end
		t:add(f.llc_sender_mac, m(4, 6))
		t:add(f.llc_sender_gid, m(12, 16))
		t:add(f.llc_sender_qpn, m(28, 3))
		t:add(f.llc_link_num, m(31, 1))
		t:add(f.llc_qp_mtu, m(32, 1))
		t:add(f.llc_initial_psn, m(33, 3))
		-- version 2's extension after the 44 bytes: direct, the
		-- target GID, the rkeys
		if not v2 or len < 44 + 28 then
			return
		end
		t:add(f.llc_direct, m(44, 1))
		t:add(f.llc_target_gid, m(46, 16))
		add_host16(f.llc_num_rkeys, 70)
		rkey_pairs(72, host16(70))
	elseif mtype == 0x03 then			-- ADD_LINK_CONT
		if len < 8 then
			return
		end
		t:add(f.llc_link_num, m(4, 1))
		local n = m(5, 1):uint()
		t:add(f.llc_num_rkeys, m(5, 1), n)
		rkey_pairs(8, math.min(n, 2))
	elseif mtype == 0x04 or mtype == 0x24 then	-- DELETE_LINK
		t:add(f.llc_all, m(3, 1))
		t:add(f.llc_orderly, m(3, 1))
		if len < 9 then
			return
		end
		t:add(f.llc_link_num, m(4, 1))
		t:add(f.llc_reason, m(5, 4))
	elseif mtype == 0x05 or mtype == 0x25 then	-- REQ_ADD_LINK
		if len < 28 then
			return
		end
		local n = m(24, 1):uint()
		t:add(f.llc_num_gids, m(24, 1))
		local i, o = 0, 28
		while i < n and o + 16 <= len do
			t:add(f.llc_gid_list, m(o, 16))
			i, o = i + 1, o + 16
		end
	elseif mtype == 0x06 or mtype == 0x26 or mtype == 0x08 then
		-- CONFIRM_RKEY: this link's token, whose first byte counts the
		-- others, then up to two of the other links; _CONT: a count,
		-- then up to three tokens
		t:add(f.llc_negative, m(3, 1))
		t:add(f.llc_retry, m(3, 1))
		if len < 5 then
			return
		end
		local n = m(4, 1):uint()
		t:add(f.llc_num_rkeys, m(4, 1), n)
		if mtype == 0x08 then
			rtokens(5, math.min(n, 3), false)
		else
			rtokens(4, 1 + math.min(n, 2), true)
		end
	elseif mtype == 0x07 or mtype == 0x27 then	-- TEST_LINK
		if len < 20 then
			return
		end
		t:add(f.llc_user_data, m(4, 16))
	elseif mtype == 0x09 or mtype == 0x29 then	-- DELETE_RKEY
		t:add(f.llc_negative, m(3, 1))
		if len < 8 then
			return
		end
		local n = m(4, 1):uint()
		t:add(f.llc_num_rkeys, m(4, 1), n)
		if v2 then
			t:add(f.llc_num_invalid, m(5, 1))
		else
			t:add(f.llc_err_mask, m(5, 1))
			n = math.min(n, 8)
		end
		local i, o = 0, 8
		while i < n and o + 4 <= len do
			t:add(f.llc_rkey, m(o, 4))
			i, o = i + 1, o + 4
		end
	end
end

-- ------------------------------------------------------------ record

local function malformed(tree, item, pinfo, why)
	tree:add(f.error, why):set_generated()
	item:add_proto_expert_info(ef.malformed, why)
	pinfo.cols.info:append(" [malformed: " .. why .. "]")
end

-- The checks and their texts are those of smc dump read
-- (lib/smcdump/parse.c), so both report the same record the same way.
local function dissect(tvb, pinfo, tree)
	local cap = tvb:len()
	local wire = tvb:reported_len()

	pinfo.cols.protocol = "SMCDUMP"
	pinfo.cols.info = "SMC dump"
	local top = tree:add(smcdump, tvb())

	if cap < 4 then
		malformed(top, top, pinfo,
			  string.format("short record: %u bytes", cap))
		return wire
	end
	top:add(f.magic, tvb(0, 4))
	local magic = tvb(0, 4):uint()
	if magic ~= MAGIC then
		malformed(top, top, pinfo,
			  string.format("bad magic 0x%08x", magic))
		return wire
	end
	if cap < LEGACY_PREFIX then
		malformed(top, top, pinfo,
			  string.format("short header: %u bytes", cap))
		return wire
	end
	local hdr_ver = tvb(4, 1):uint()
	local mode = tvb(6, 1):uint()
	local rtype = tvb(7, 1):uint()
	local rlen = tvb(8, 2):uint()
	local mname = mode_names[mode] or string.format("mode-%u", mode)

	top:add(f.hdr_ver, tvb(4, 1))
	top:add(f.smc_ver, tvb(5, 1))
	top:add(f.mode, tvb(6, 1))
	top:add(f.rtype, tvb(7, 1))
	top:add(f.len, tvb(8, 2))

	if hdr_ver < HDR_VER then
		local raw_len = wire - LEGACY_PREFIX
		local raw_cap = cap - LEGACY_PREFIX

		pinfo.cols.info = string.format("%s legacy hdr_ver %u type %s len %u",
			mname, hdr_ver, type_names[rtype] or tostring(rtype),
			rlen)
		top:append_text(string.format(", %s, Alibaba layout (hdr_ver %u)",
					      mname, hdr_ver))
		top:add_proto_expert_info(ef.legacy)
		top:add(f.legacy_raw_len, raw_len):set_generated()
		top:add(f.cap_len, raw_cap):set_generated()
		if raw_cap > 0 then
			top:add(f.legacy_raw, tvb(LEGACY_PREFIX, raw_cap))
		end
		if raw_cap < raw_len then
			top:add_proto_expert_info(ef.cap_truncated,
				string.format("Record cut by the capture snaplen (%u of %u bytes after the prefix)",
					      raw_cap, raw_len))
		end
		if rlen ~= wire then
			malformed(top, top, pinfo,
				  string.format("len %u differs from the UDP payload %u",
						rlen, wire))
		end
		return wire
	end

	if wire < HDR_LEN then
		malformed(top, top, pinfo,
			  string.format("short header: %u bytes, need %u", wire,
					HDR_LEN))
		return wire
	end
	if cap < HDR_LEN then
		malformed(top, top, pinfo,
			  string.format("header cut by the capture snaplen (%u bytes)",
					cap))
		return wire
	end

	local hdr_len = tvb(10, 1):uint()
	local flags = tvb(11, 1):uint()
	local seq = tvb(12, 4):uint()
	local token = tvb(16, 4):uint()
	local orig_len = tvb(20, 4):uint()
	local offset = tvb(24, 8):uint64()
	local rx = bit32.band(flags, F_RX) ~= 0
	local trunc = bit32.band(flags, F_TRUNC) ~= 0
	local dir = rx and "rx" or "tx"

	top:add(f.hdr_len, tvb(10, 1))
	-- as smc dump read: no header field past hdr_len is shown until the
	-- header's lengths agree with the frame
	if hdr_len < HDR_LEN then
		malformed(top, top, pinfo,
			  string.format("hdr_len %u below %u", hdr_len, HDR_LEN))
		return wire
	end
	local known = HDR_LEN
	if hdr_ver >= 4 then
		known = HDR_V4_LEN
		if hdr_len < HDR_V4_LEN then
			malformed(top, top, pinfo,
				  string.format("hdr_len %u below %u for hdr_ver %u",
						hdr_len, HDR_V4_LEN, hdr_ver))
			return wire
		end
	end
	if rlen < hdr_len then
		malformed(top, top, pinfo,
			  string.format("len %u below hdr_len %u", rlen, hdr_len))
		return wire
	end
	if rlen ~= wire then
		malformed(top, top, pinfo,
			  string.format("len %u differs from the UDP payload %u",
					rlen, wire))
		return wire
	end
	local ft = top:add(f.flags, tvb(11, 1))
	ft:add(f.flags_rx, tvb(11, 1))
	ft:add(f.flags_trunc, tvb(11, 1))
	ft:add(f.flags_failed, tvb(11, 1))
	if hdr_ver >= 4 then
		ft:add(f.flags_be, tvb(11, 1))
	end
	ft:add(f.flags_res, tvb(11, 1))
	top:add(f.dir, tvb(11, 1), dir):set_generated()
	top:add(f.seq, tvb(12, 4))
	top:add(f.token, tvb(16, 4))
	top:add(f.orig_len, tvb(20, 4))
	top:add(f.offset, tvb(24, 8))

	pinfo.cols.info = string.format("%s %s token %s", mname, dir,
					hex8(token))
	top:append_text(string.format(", %s %s, token %s, seq %u", mname, dir,
				      hex8(token), seq))

	if hdr_len > cap then
		malformed(top, top, pinfo,
			  string.format("header cut by the capture snaplen (%u of %u bytes)",
					cap, hdr_len))
		return wire
	end
	local big = nil
	if hdr_ver >= 4 then
		top:add(f.stream_seq, tvb(32, 4))
		top:add(f.hdr_reserved, tvb(36, 4))
		big = bit32.band(flags, F_BIG_ENDIAN) ~= 0
	end
	if hdr_len > known then
		top:add(f.hdr_extra, tvb(known, hdr_len - known))
	end

	local pay_wire = rlen - hdr_len
	local pay_cap = math.min(cap - hdr_len, pay_wire)
	local pay = nil

	if pay_cap > 0 then
		pay = tvb(hdr_len, pay_cap)
	end
	top:add(f.payload_len, pay_wire):set_generated()
	top:add(f.cap_len, pay_cap):set_generated()
	if pay_cap < pay_wire then
		top:add_proto_expert_info(ef.cap_truncated,
			string.format("Record cut by the capture snaplen (%u of %u payload bytes)",
				      pay_cap, pay_wire))
	end

	local err = nil
	if mode ~= MODE_SMCR and mode ~= MODE_SMCD then
		err = string.format("unknown mode %u", mode)
	elseif rtype ~= TYPE_RAW and rtype ~= TYPE_CDC and
	       (rtype ~= TYPE_LLC or hdr_ver < 4) then
		err = string.format("unknown type %u", rtype)
	elseif rtype == TYPE_LLC and mode ~= MODE_SMCR then
		err = "LLC record of an SMC-D link group"
	elseif orig_len < pay_wire then
		err = string.format("orig_len %u below the payload %u", orig_len,
				    pay_wire)
	elseif trunc then
		if rtype ~= TYPE_RAW then
			err = (rtype == TYPE_CDC and "CDC" or "LLC") ..
			      " record marked truncated"
		elseif orig_len == pay_wire then
			err = string.format("marked truncated, but orig_len %u equals the payload",
					    orig_len)
		end
	elseif orig_len ~= pay_wire then
		err = string.format("orig_len %u differs from the payload %u, not marked truncated",
				    orig_len, pay_wire)
	end
	if not err and rtype ~= TYPE_RAW and offset ~= UInt64(0) then
		err = string.format("%s record with offset %s",
				    rtype == TYPE_CDC and "CDC" or "LLC",
				    tostring(offset))
	end
	if not err and rtype == TYPE_LLC and pay_wire < LLC_LINK_LEN + LLC_MIN then
		err = string.format("LLC record of %u payload bytes, need %u (link, LLC header)",
				    pay_wire, LLC_LINK_LEN + LLC_MIN)
	end
	if not err and offset > UInt64.max() - orig_len then
		err = string.format("offset %s + orig_len %u overflows",
				    tostring(offset), orig_len)
	end

	if rtype == TYPE_RAW then
		local soff = offset
		local send = offset + pay_wire	-- when it does not wrap

		pinfo.cols.info:append(string.format(" data offset %s len %u",
						     tostring(offset), pay_wire))
		if trunc then
			pinfo.cols.info:append(string.format(" orig_len %u truncated",
							     orig_len))
			top:add_proto_expert_info(ef.truncated,
				string.format("Payload truncated by the link's snaplen: %u of %u bytes kept",
					      pay_wire, orig_len))
		end
		if pay_cap < pay_wire then
			pinfo.cols.info:append(string.format(" captured %u",
							     pay_cap))
		end
		local so = top:add(f.stream_offset, tvb(24, 8), soff)
		so:set_generated()
		if offset <= UInt64.max() - pay_wire then
			top:add(f.stream_end, tvb(24, 8), send):set_generated()
		end
		if pay then
			local di = top:add(f.data, pay)
			di:set_text(string.format("Data (%u bytes) at stream offset %s",
						  pay_cap, tostring(soff)))
		end
		top:append_text(string.format(", data offset %s len %u",
					      tostring(offset), pay_wire))
	elseif rtype == TYPE_CDC then
		pinfo.cols.info:append(" CDC")
		if not err then
			if pay_cap < pay_wire then
				err = string.format("CDC message cut by the capture snaplen (%u of %u bytes)",
						    pay_cap, pay_wire)
			elseif pay then
				local summary
				err, summary = dissect_cdc(pay, pay_cap,
							   mode == MODE_SMCD,
							   top, big)
				if mode == MODE_SMCR and
				   pay_cap >= CDC_R_LEN then
					pinfo.cols.info:append(string.format(" seqno %u",
						pay(2, 2):uint()))
				end
				pinfo.cols.info:append(" " .. summary)
			else
				err = string.format("%s CDC message of 0 bytes, need %u",
						    mname, mode == MODE_SMCD and
						    CDC_D_LEN or CDC_R_LEN)
			end
		end
		top:append_text(", CDC")
	elseif rtype == TYPE_LLC then
		pinfo.cols.info:append(" LLC")
		if not err and pay and pay_cap >= LLC_LINK_LEN + 4 then
			local lt = top:add(f.llc, pay)
			local m = pay(LLC_LINK_LEN)
			local name = llc_names[m(0, 1):uint()] or
				     string.format("llc-type 0x%02x", m(0, 1):uint())
			local use, note

			big = llc_sender_big(m, pay_wire - LLC_LINK_LEN, big,
					     bit32.band(flags, F_RX) ~= 0)
			use, err, note = llc_check(m, pay_wire - LLC_LINK_LEN,
						   big, name)

			lt:add(f.llc_lgr, pay(0, 4))
			lt:add(f.llc_link, pay(4, 1))
			lt:add(f.llc_port, pay(5, 1))
			lt:add(f.llc_qp, pay(8, 4))
			lt:add(f.llc_peer_qp, pay(12, 4))
			lt:add(f.llc_gid, pay(16, 16))
			lt:add(f.llc_peer_gid, pay(32, 16))
			lt:add(f.llc_type, m(0, 1))
			lt:add(f.llc_resp, m(3, 1))
			dissect_llc_msg(m(0, use), lt:add(f.llc_msg, m), big)
			if note then
				lt:add(f.llc_note, note):set_generated()
			end
			lt:set_text("LLC " .. name)
			pinfo.cols.info:append(" " .. name)
			if bit32.band(m(3, 1):uint(), 0x80) ~= 0 then
				pinfo.cols.info:append(" response")
			end
		end
		top:append_text(", LLC")
	end
	if err then
		malformed(top, top, pinfo, err)
	elseif rtype == TYPE_RAW or rtype == TYPE_CDC then
		-- as smc dump read: a connection for the records it takes
		-- whole, none for LLC (a link group's)
		local ctoken
		if rtype == TYPE_CDC and mode == MODE_SMCR and not rx and
		   pay and pay_cap >= CDC_R_LEN then
			ctoken = pay(4, 4):uint()
		end
		local cn, ptok = conn_of(pinfo, mode, token, rx, ctoken)
		if cn then
			top:add(f.conn, cn):set_generated()
			top:append_text(string.format(", conn %u", cn))
		end
		if ptok then
			top:add(f.peer_token, ptok):set_generated()
		end
	end
	return wire
end

function smcdump.dissector(tvb, pinfo, tree)
	return dissect(tvb, pinfo, tree)
end

local function heuristic(tvb, pinfo, tree)
	local cap = tvb:len()

	if cap >= 4 and tvb(0, 4):uint() == MAGIC then
		dissect(tvb, pinfo, tree)
		return true
	end
	if smcdump.prefs.dummy_frames and from_dummy_link() then
		dissect(tvb, pinfo, tree)
		return true
	end
	return false
end

smcdump:register_heuristic("udp", heuristic)
DissectorTable.get("udp.port"):add_for_decode_as(smcdump)
