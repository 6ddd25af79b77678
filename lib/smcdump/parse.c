// SPDX-License-Identifier: GPL-2.0
/*
 * smc dump: parsers for captured frames, SMC dump records and CDC messages.
 *
 * Nothing here prints. Every function gets the number of bytes present
 * and checks each access against it: the capture is untrusted input.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <pcap/pcap.h>

#include "smcdump.h"

#ifndef DLT_IPV4
#define DLT_IPV4	228
#endif
#ifndef DLT_IPV6
#define DLT_IPV6	229
#endif

#define ETH_HLEN	14
#define SLL_HLEN	16
#define SLL2_HLEN	20
#define VLAN_HLEN	4
#define MAX_VLANS	8	/* tags we walk over before giving up */
#define MAX_IP6_EXT	8	/* IPv6 extension headers we walk over */

#define ARPHRD_LOOPBACK	772
#define PACKET_OUTGOING	4

#define SLL_PROTO_ETH	0x0003	/* ETH_P_ALL: an Ethernet frame */
#define ETHERTYPE_IPV4	0x0800
#define ETHERTYPE_IPV6	0x86dd
#define ETHERTYPE_VLAN	0x8100
#define ETHERTYPE_QINQ	0x88a8
#define ETHERTYPE_QINQ1	0x9100

#define TCPOPT_EOL	0
#define TCPOPT_NOP	1
#define TCPOPT_EXP	254
#define TCPOPT_SMC_MAGIC 0xE2D4C3D9

static int __attribute__((format(printf, 3, 4)))
bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return DUMP_BAD;
}

/**
 * dump_dlt_supported() - whether dump_parse_frame() handles a link type
 * @dlt: pcap link type (DLT_*)
 *
 * Return: true for Ethernet, Linux cooked v1 and v2 and raw IP.
 */
bool dump_dlt_supported(int dlt)
{
	switch (dlt) {
	case DLT_EN10MB:
	case DLT_LINUX_SLL:
	case DLT_LINUX_SLL2:
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6:
		return true;
	}
	return false;
}

static bool is_vlan(uint16_t type)
{
	return type == ETHERTYPE_VLAN || type == ETHERTYPE_QINQ ||
	       type == ETHERTYPE_QINQ1;
}

/* Pass over VLAN tags at @p[*off] (after an ethertype @*type). */
static int skip_vlans(const uint8_t *p, uint32_t caplen, uint32_t *off,
		      uint16_t *type, struct dump_pkt *pkt, char *err,
		      size_t errlen)
{
	while (is_vlan(*type)) {
		if (pkt->vlans >= MAX_VLANS)
			return bad(err, errlen, "more than %d VLAN tags",
				   MAX_VLANS);
		if (caplen - *off < VLAN_HLEN)
			return bad(err, errlen, "VLAN tag cut off");
		*type = get_be16(p + *off + 2);
		*off += VLAN_HLEN;
		pkt->vlans++;
	}
	return DUMP_OK;
}

/* TCP options: look for the SMC experimental option (RFC 7609). */
static bool tcp_has_smc_option(const uint8_t *opt, uint32_t len)
{
	uint32_t i = 0;

	while (i < len) {
		uint8_t kind = opt[i], olen;

		if (kind == TCPOPT_EOL)
			break;
		if (kind == TCPOPT_NOP) {
			i++;
			continue;
		}
		if (len - i < 2)
			break;
		olen = opt[i + 1];
		if (olen < 2 || olen > len - i)
			break;
		if (kind == TCPOPT_EXP && olen >= 6 &&
		    get_be32(opt + i + 2) == TCPOPT_SMC_MAGIC)
			return true;
		i += olen;
	}
	return false;
}

/* UDP or TCP at @p[0..@len): @wire_len bytes per the IP header. */
static int parse_l4(uint8_t proto, const uint8_t *p, uint32_t len,
		    uint32_t wire_len, struct dump_pkt *pkt, char *err,
		    size_t errlen)
{
	uint32_t hl;

	if (proto == IPPROTO_UDP) {
		uint16_t ulen;

		pkt->l4 = DUMP_L4_UDP;
		if (len < 8)
			return bad(err, errlen, "UDP header cut off (%u bytes)",
				   len);
		pkt->sport = get_be16(p);
		pkt->dport = get_be16(p + 2);
		ulen = get_be16(p + 4);
		if (ulen < 8)
			return bad(err, errlen, "UDP length %u below 8", ulen);
		if (ulen > wire_len)
			return bad(err, errlen,
				   "UDP length %u exceeds the IP payload %u",
				   ulen, wire_len);
		pkt->data = p + 8;
		pkt->data_wire_len = ulen - 8u;
		pkt->data_len = len - 8 < pkt->data_wire_len ?
				len - 8 : pkt->data_wire_len;
		return DUMP_OK;
	}
	if (proto == IPPROTO_TCP) {
		pkt->l4 = DUMP_L4_TCP;
		if (len < 20)
			return bad(err, errlen, "TCP header cut off (%u bytes)",
				   len);
		pkt->sport = get_be16(p);
		pkt->dport = get_be16(p + 2);
		pkt->tcp_seq = get_be32(p + 4);
		pkt->tcp_flags = p[13];
		hl = (uint32_t)(p[12] >> 4) * 4;
		if (hl < 20)
			return bad(err, errlen, "TCP header length %u", hl);
		if (hl > wire_len)
			return bad(err, errlen,
				   "TCP header length %u exceeds the IP payload %u",
				   hl, wire_len);
		if (hl > len)
			return bad(err, errlen, "TCP options cut off");
		pkt->tcp_smc_opt = tcp_has_smc_option(p + 20, hl - 20);
		pkt->data = p + hl;
		pkt->data_len = len - hl;
		pkt->data_wire_len = wire_len - hl;
		return DUMP_OK;
	}
	return DUMP_SKIP;
}

static int parse_ipv4(const uint8_t *p, uint32_t len, struct dump_pkt *pkt,
		      char *err, size_t errlen)
{
	uint32_t hl, tot;
	uint16_t frag;

	if (len < 20)
		return bad(err, errlen, "IPv4 header cut off (%u bytes)", len);
	if ((p[0] >> 4) != 4)
		return bad(err, errlen, "IP version %u in an IPv4 frame",
			   p[0] >> 4);
	hl = (uint32_t)(p[0] & 0x0f) * 4;
	tot = get_be16(p + 2);
	if (hl < 20 || hl > len)
		return bad(err, errlen, "IPv4 header length %u", hl);
	if (tot < hl)
		return bad(err, errlen, "IPv4 total length %u below header %u",
			   tot, hl);
	pkt->family = AF_INET;
	memcpy(pkt->src, p + 12, 4);
	memcpy(pkt->dst, p + 16, 4);
	frag = get_be16(p + 6);
	if (frag & 0x3fff) {	/* MF or a fragment offset */
		pkt->fragment = true;
		if (frag & 0x1fff)
			return DUMP_OK;	/* no transport header here */
	}
	/* Ethernet padding may follow the packet: @tot bounds it; a capture
	 * snaplen may cut it: @len bounds what we read.
	 */
	if (len > tot)
		len = tot;
	return parse_l4(p[9], p + hl, len - hl, tot - hl, pkt, err, errlen);
}

static int parse_ipv6(const uint8_t *p, uint32_t len, struct dump_pkt *pkt,
		      char *err, size_t errlen)
{
	uint32_t off = 40, plen, end;
	uint8_t nh;
	int i;

	if (len < 40)
		return bad(err, errlen, "IPv6 header cut off (%u bytes)", len);
	if ((p[0] >> 4) != 6)
		return bad(err, errlen, "IP version %u in an IPv6 frame",
			   p[0] >> 4);
	pkt->family = AF_INET6;
	memcpy(pkt->src, p + 8, 16);
	memcpy(pkt->dst, p + 24, 16);
	plen = get_be16(p + 4);
	end = 40 + plen;	/* jumbograms (plen 0) are not supported */
	nh = p[6];
	if (len > end)
		len = end;
	for (i = 0; i < MAX_IP6_EXT; i++) {
		uint32_t elen;

		switch (nh) {
		case 0:		/* hop-by-hop options */
		case 43:	/* routing */
		case 60:	/* destination options */
			if (len - off < 8)
				return bad(err, errlen,
					   "IPv6 extension header cut off");
			elen = ((uint32_t)p[off + 1] + 1) * 8;
			break;
		case 51:	/* authentication header */
			if (len - off < 8)
				return bad(err, errlen,
					   "IPv6 extension header cut off");
			elen = ((uint32_t)p[off + 1] + 2) * 4;
			break;
		case 44:	/* fragment */
			if (len - off < 8)
				return bad(err, errlen,
					   "IPv6 fragment header cut off");
			pkt->fragment = true;
			if (get_be16(p + off + 2) & 0xfff8)
				return DUMP_OK;	/* not the first fragment */
			elen = 8;
			break;
		default:
			return parse_l4(nh, p + off, len - off, end - off,
					pkt, err, errlen);
		}
		if (elen > len - off || elen > end - off)
			return bad(err, errlen,
				   "IPv6 extension header length %u", elen);
		nh = p[off];
		off += elen;
	}
	return bad(err, errlen, "more than %d IPv6 extension headers",
		   MAX_IP6_EXT);
}

static int parse_ip(uint16_t type, const uint8_t *p, uint32_t len,
		    struct dump_pkt *pkt, char *err, size_t errlen)
{
	if (type == ETHERTYPE_IPV4)
		return parse_ipv4(p, len, pkt, err, errlen);
	if (type == ETHERTYPE_IPV6)
		return parse_ipv6(p, len, pkt, err, errlen);
	return DUMP_SKIP;
}

/**
 * dump_parse_frame() - parse a captured frame down to UDP or TCP
 * @dlt: link type (DLT_EN10MB, DLT_LINUX_SLL, DLT_LINUX_SLL2, DLT_RAW,
 *	DLT_IPV4, DLT_IPV6)
 * @p: the frame as captured
 * @caplen: bytes at @p
 * @pkt: result; zeroed first
 * @err: buffer for the reason of a DUMP_BAD result
 * @errlen: size of @err
 *
 * VLAN tags are passed over; IPv6 extension headers as well.
 * IP checksums are not checked. A frame cut by the capture snaplen
 * parses as far as its bytes go: @pkt->data_len then is below
 * @pkt->data_wire_len.
 *
 * Return: DUMP_OK; DUMP_SKIP for frames without IPv4/IPv6 UDP or TCP
 * (ARP, ICMPv6, later IP fragments leave @pkt->l4 at DUMP_L4_NONE);
 * DUMP_BAD for broken headers, with the reason in @err and @pkt->l4 set
 * when the transport protocol was known.
 */
int dump_parse_frame(int dlt, const uint8_t *p, uint32_t caplen,
		     struct dump_pkt *pkt, char *err, size_t errlen)
{
	uint32_t off;
	uint16_t type;
	int rc;

	memset(pkt, 0, sizeof(*pkt));
	switch (dlt) {
	case DLT_EN10MB:
		if (caplen < ETH_HLEN)
			return DUMP_SKIP;
		memcpy(pkt->l2_addr, p + 6, 6);
		pkt->l2_addr_len = 6;
		/* an smc-dummy link sends from and to its own address; lo's
		 * all-zero addresses are equal too, but lo is no such link
		 */
		pkt->l2_self = !memcmp(p, p + 6, 6) &&
			       memcmp(p, "\0\0\0\0\0\0", 6);
		type = get_be16(p + 12);
		off = ETH_HLEN;
		break;
	case DLT_LINUX_SLL:
		if (caplen < SLL_HLEN)
			return DUMP_SKIP;
		pkt->l2_addr_len = get_be16(p + 4) > 8 ? 8 : get_be16(p + 4);
		memcpy(pkt->l2_addr, p + 6, pkt->l2_addr_len);
		pkt->loop_out = get_be16(p) == PACKET_OUTGOING &&
				get_be16(p + 2) == ARPHRD_LOOPBACK;
		type = get_be16(p + 14);
		off = SLL_HLEN;
		break;
	case DLT_LINUX_SLL2:
		if (caplen < SLL2_HLEN)
			return DUMP_SKIP;
		type = get_be16(p);
		pkt->has_ifindex = true;
		pkt->ifindex = get_be32(p + 4);
		pkt->l2_addr_len = p[11] > 8 ? 8 : p[11];
		memcpy(pkt->l2_addr, p + 12, pkt->l2_addr_len);
		pkt->loop_out = p[10] == PACKET_OUTGOING &&
				get_be16(p + 8) == ARPHRD_LOOPBACK;
		off = SLL2_HLEN;
		break;
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6:
		if (!caplen)
			return DUMP_SKIP;
		if ((p[0] >> 4) == 4)
			return parse_ipv4(p, caplen, pkt, err, errlen);
		if ((p[0] >> 4) == 6)
			return parse_ipv6(p, caplen, pkt, err, errlen);
		return DUMP_SKIP;
	default:
		return DUMP_SKIP;
	}
	/* cooked capture of a packet whose skb->protocol the stack left
	 * unset (ETH_P_ALL): the Ethernet frame follows, as Wireshark reads it
	 */
	if ((dlt == DLT_LINUX_SLL || dlt == DLT_LINUX_SLL2) &&
	    type == SLL_PROTO_ETH) {
		if (caplen - off < ETH_HLEN)
			return DUMP_SKIP;
		pkt->l2_self = !memcmp(p + off, p + off + 6, 6) &&
			       memcmp(p + off, "\0\0\0\0\0\0", 6);
		type = get_be16(p + off + 12);
		off += ETH_HLEN;
	}
	rc = skip_vlans(p, caplen, &off, &type, pkt, err, errlen);
	if (rc != DUMP_OK)
		return rc;
	return parse_ip(type, p + off, caplen - off, pkt, err, errlen);
}

/**
 * dump_parse_record() - parse an SMC dump record (a UDP payload)
 * @p: the UDP payload as captured
 * @len: bytes at @p
 * @wire_len: bytes of UDP payload per the UDP header (>= @len)
 * @r: result; zeroed first; see struct dump_rec for what is valid after
 *	an error
 * @err: buffer for the reason of a DUMP_BAD result
 * @errlen: size of @err
 *
 * Checks the header (Documentation/record-format.md): magic, lengths
 * against each other and the UDP length, mode, type, the truncated flag
 * against orig_len. A record cut by the capture snaplen is valid when its
 * header is complete (@r->cap_trunc tells). hdr_ver below 3 is
 * Alibaba's layout: only the shared prefix is decoded; @r->payload is
 * what follows it.
 *
 * Return: DUMP_OK or DUMP_BAD.
 */
int dump_parse_record(const uint8_t *p, uint32_t len, uint32_t wire_len,
		      struct dump_rec *r, char *err, size_t errlen)
{
	uint32_t avail;

	memset(r, 0, sizeof(*r));
	if (len < 4)
		return bad(err, errlen, "short record: %u bytes", len);
	r->magic = get_be32(p);
	if (r->magic != SMC_DUMP_MAGIC)
		return bad(err, errlen, "bad magic 0x%08x", r->magic);
	if (len < DUMP_LEGACY_PREFIX)
		return bad(err, errlen, "short header: %u bytes", len);
	r->hdr_ver = p[4];
	r->smc_ver = p[5];
	r->mode = p[6];
	r->type = p[7];
	r->len = get_be16(p + 8);
	r->level = 1;

	if (r->hdr_ver < SMC_DUMP_HDR_VER) {
		r->legacy = true;
		r->payload = p + DUMP_LEGACY_PREFIX;
		r->payload_len = len - DUMP_LEGACY_PREFIX;
		r->payload_wire_len = wire_len - DUMP_LEGACY_PREFIX;
		r->cap_trunc = len < wire_len;
		if (r->len != wire_len)
			return bad(err, errlen,
				   "len %u differs from the UDP payload %u",
				   r->len, wire_len);
		return DUMP_OK;
	}

	if (wire_len < DUMP_HDR_LEN)
		return bad(err, errlen, "short header: %u bytes, need %u",
			   wire_len, DUMP_HDR_LEN);
	if (len < DUMP_HDR_LEN)
		return bad(err, errlen,
			   "header cut by the capture snaplen (%u bytes)", len);
	r->hdr_len = p[10];
	r->flags = p[11];
	r->seq = get_be32(p + 12);
	r->token = get_be32(p + 16);
	r->orig_len = get_be32(p + 20);
	r->offset = get_be64(p + 24);
	r->level = 2;

	if (r->hdr_len < DUMP_HDR_LEN)
		return bad(err, errlen, "hdr_len %u below %u", r->hdr_len,
			   DUMP_HDR_LEN);
	if (r->len < r->hdr_len)
		return bad(err, errlen, "len %u below hdr_len %u", r->len,
			   r->hdr_len);
	if (r->len != wire_len)
		return bad(err, errlen, "len %u differs from the UDP payload %u",
			   r->len, wire_len);
	if (r->hdr_len > len)
		return bad(err, errlen,
			   "header cut by the capture snaplen (%u of %u bytes)",
			   len, r->hdr_len);
	r->payload = p + r->hdr_len;
	r->payload_wire_len = r->len - r->hdr_len;
	avail = len - r->hdr_len;
	r->payload_len = avail < r->payload_wire_len ?
			 avail : r->payload_wire_len;
	r->cap_trunc = r->payload_len < r->payload_wire_len;

	if (r->mode != SMC_DUMP_MODE_SMCR && r->mode != SMC_DUMP_MODE_SMCD)
		return bad(err, errlen, "unknown mode %u", r->mode);
	if (r->type != SMC_DUMP_TYPE_RAW && r->type != SMC_DUMP_TYPE_CDC)
		return bad(err, errlen, "unknown type %u", r->type);
	if (r->orig_len < r->payload_wire_len)
		return bad(err, errlen, "orig_len %u below the payload %u",
			   r->orig_len, r->payload_wire_len);
	if (r->flags & SMC_DUMP_F_TRUNC) {
		if (r->type == SMC_DUMP_TYPE_CDC)
			return bad(err, errlen, "CDC record marked truncated");
		if (r->orig_len == r->payload_wire_len)
			return bad(err, errlen,
				   "marked truncated, but orig_len %u equals the payload",
				   r->orig_len);
	} else if (r->orig_len != r->payload_wire_len) {
		return bad(err, errlen,
			   "orig_len %u differs from the payload %u, not marked truncated",
			   r->orig_len, r->payload_wire_len);
	}
	if (r->type == SMC_DUMP_TYPE_CDC && r->offset)
		return bad(err, errlen, "CDC record with offset %llu",
			   (unsigned long long)r->offset);
	if (r->offset > UINT64_MAX - r->orig_len)
		return bad(err, errlen, "offset %llu + orig_len %u overflows",
			   (unsigned long long)r->offset, r->orig_len);
	return DUMP_OK;
}

/**
 * dump_parse_cdc() - parse the CDC message of a CDC record
 * @p: the record payload
 * @len: bytes at @p
 * @smcd: SMC-D layout (struct smcd_cdc_msg, 32 bytes, host order of the
 *	capturing machine), else SMC-R (struct smc_cdc_msg, 44 bytes,
 *	big-endian)
 * @smcd_big_endian: the SMC-D message comes from a big-endian host
 * @c: result; zeroed first; valid when DUMP_OK, and after DUMP_BAD when
 *	@len covered the whole message (only a field was wrong)
 * @err: buffer for the reason of a DUMP_BAD result
 * @errlen: size of @err
 *
 * SMC-D: Linux sends the producer flags and connection state in the
 * consumer cursor's flag bytes (smcd_cdc_msg_send()), so those are
 * reported as the message's flags.
 *
 * Return: DUMP_OK or DUMP_BAD.
 */
int dump_parse_cdc(const uint8_t *p, uint32_t len, bool smcd,
		   bool smcd_big_endian, struct dump_cdc *c, char *err,
		   size_t errlen)
{
	uint32_t need = smcd ? DUMP_CDC_D_LEN : DUMP_CDC_R_LEN;

	memset(c, 0, sizeof(*c));
	c->smcd = smcd;
	if (len < need)
		return bad(err, errlen, "%s CDC message of %u bytes, need %u",
			   smcd ? "SMC-D" : "SMC-R", len, need);
	c->type = p[0];
	if (smcd) {
		uint16_t (*g16)(const uint8_t *) =
			smcd_big_endian ? get_be16 : get_le16;
		uint32_t (*g32)(const uint8_t *) =
			smcd_big_endian ? get_be32 : get_le32;

		c->prod_wrap = g16(p + 8);
		c->prod_count = g32(p + 10);
		c->smcd_prod_flags2 = (uint16_t)(p[14] << 8 | p[15]);
		c->cons_wrap = g16(p + 16);
		c->cons_count = g32(p + 18);
		c->prod_flags = p[22];
		c->conn_state_flags = p[23];
	} else {
		c->len = p[1];
		c->seqno = get_be16(p + 2);
		c->token = get_be32(p + 4);
		/* cursor: reserved (2), wrap (2), count (4) */
		c->prod_wrap = get_be16(p + 10);
		c->prod_count = get_be32(p + 12);
		c->cons_wrap = get_be16(p + 18);
		c->cons_count = get_be32(p + 20);
		c->prod_flags = p[24];
		c->conn_state_flags = p[25];
	}
	if (len != need)
		return bad(err, errlen, "%s CDC message of %u bytes, expected %u",
			   smcd ? "SMC-D" : "SMC-R", len, need);
	if (c->type != DUMP_CDC_TYPE)
		return bad(err, errlen, "CDC type 0x%02x, expected 0x%02x",
			   c->type, DUMP_CDC_TYPE);
	if (!smcd && c->len != DUMP_CDC_R_LEN)
		return bad(err, errlen, "CDC length field %u, expected %u",
			   c->len, DUMP_CDC_R_LEN);
	return DUMP_OK;
}
