// SPDX-License-Identifier: GPL-2.0
/*
 * smc dump: parsers for captured frames, SMC dump records and CDC messages.
 *
 * Nothing here prints. Every function gets the number of bytes present
 * and checks each access against it: the capture is untrusted input.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <net/ethernet.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>
#include <netinet/tcp.h>
#include <netinet/udp.h>
#include <pcap/pcap.h>
#include <pcap/sll.h>

#include "smcdump.h"

#ifndef DLT_IPV4
#define DLT_IPV4	228
#endif
#ifndef DLT_IPV6
#define DLT_IPV6	229
#endif

/* Headers by their structs: Ethernet <net/ethernet.h>, Linux cooked v1
 * and v2 <pcap/sll.h>, IPv4 <netinet/ip.h> (RFC 791), IPv6 and its
 * extension headers <netinet/ip6.h> (RFC 8200), UDP <netinet/udp.h>,
 * TCP <netinet/tcp.h> (RFC 9293). All fields are big-endian.
 */
#define ETH_OFF(f)	offsetof(struct ether_header, f)
#define SLL_OFF(f)	offsetof(struct sll_header, f)
#define SLL2_OFF(f)	offsetof(struct sll2_header, f)
#define IP4_OFF(f)	offsetof(struct iphdr, f)
#define IP6_OFF(f)	offsetof(struct ip6_hdr, f)
#define UDP_OFF(f)	offsetof(struct udphdr, f)
#define TCP_OFF(f)	offsetof(struct tcphdr, f)

#define SLL_HLEN	SLL_HDR_LEN
#define SLL2_HLEN	SLL2_HDR_LEN
#define IP4_MIN_HLEN	sizeof(struct iphdr)
#define IP6_HLEN	sizeof(struct ip6_hdr)
#define UDP_HLEN	sizeof(struct udphdr)
#define TCP_MIN_HLEN	sizeof(struct tcphdr)

/* Byte 0 of IPv4 and IPv6: version in the high nibble; IPv4: header
 * length in 32-bit words in the low nibble (bitfields: no offsetof)
 */
#define IP_VER(p)	((p)[0] >> 4)
#define IP4_IHL(p)	((p)[0] & 0x0f)
/* TCP byte 12: data offset in 32-bit words, high nibble */
#define TCP_DOFF_BYTE	12
#define IP4_FRAG_MF_OFF	0x3fff	/* frag_off: MF and fragment offset */
#define IP4_FRAG_OFF	0x1fff	/* frag_off: fragment offset */
#define IP6_FRAG_OFFSET	0xfff8	/* ip6f_offlg, host order: offset */
#define IP6_EXT_MIN	8	/* every extension header: 8 bytes at least */

/* 802.1Q tag: TCI (2), then the inner ethertype (2) */
#define VLAN_HLEN	4
#define VLAN_TYPE	2
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
#define TCPOPT_EXP_MAGIC 2	/* kind (1), length (1), magic (4): RFC 6994 */
#define TCPOPT_SMC_LEN	6

/* The record header by struct smc_dump_hdr (include/uapi/linux/smc_dump.h,
 * Documentation/record-format.md)
 */
#define HDR_OFF(f)	offsetof(struct smc_dump_hdr, f)
_Static_assert(sizeof(struct smc_dump_hdr) == DUMP_HDR_V4_LEN,
	       "struct smc_dump_hdr is the 40-byte hdr_ver 4 header");
_Static_assert(HDR_OFF(stream_seq) == DUMP_HDR_LEN,
	       "hdr_ver 4 appends to the 32-byte hdr_ver 3 header");
_Static_assert(sizeof(struct smc_dump_llc_link) == DUMP_LLC_LINK_LEN,
	       "struct smc_dump_llc_link is 48 bytes");
_Static_assert(HDR_OFF(hdr_len) == DUMP_LEGACY_PREFIX,
	       "every hdr_ver shares magic .. len");

/* CDC messages as Linux lays them out (net/smc/smc_cdc.h), byte by byte.
 * SMC-R: struct smc_cdc_msg, the wire format of RFC 7609 (big-endian);
 * the cursor is union smc_cdc_cursor: reserved (2), wrap (2), count (4).
 */
struct cdc_r_cursor {
	uint8_t reserved[2];
	uint8_t wrap[2];
	uint8_t count[4];
};

struct cdc_r_msg {
	uint8_t type;		/* struct smc_wr_rx_hdr */
	uint8_t len;
	uint8_t seqno[2];
	uint8_t token[4];
	struct cdc_r_cursor prod;
	struct cdc_r_cursor cons;
	uint8_t prod_flags;	/* struct smc_cdc_producer_flags */
	uint8_t conn_state_flags; /* struct smc_cdc_conn_state_flags */
	uint8_t reserved[18];
};

/* SMC-D: struct smcd_cdc_msg, host order of the sender; the cursor is
 * union smcd_cdc_cursor: wrap (2), count (4), producer flags, state flags
 */
struct cdc_d_cursor {
	uint8_t wrap[2];
	uint8_t count[4];
	uint8_t prod_flags;
	uint8_t conn_state_flags;
};

struct cdc_d_msg {
	uint8_t type;
	uint8_t res1[7];
	struct cdc_d_cursor prod;
	struct cdc_d_cursor cons;
	uint8_t res3[8];
};

#define CDC_R(f)	offsetof(struct cdc_r_msg, f)
#define CDC_D(f)	offsetof(struct cdc_d_msg, f)
_Static_assert(sizeof(struct cdc_r_msg) == DUMP_CDC_R_LEN, "SMC-R CDC");
_Static_assert(sizeof(struct cdc_d_msg) == DUMP_CDC_D_LEN, "SMC-D CDC");

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
		*type = get_be16(p + *off + VLAN_TYPE);
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
		if (kind == TCPOPT_EXP && olen >= TCPOPT_SMC_LEN &&
		    get_be32(opt + i + TCPOPT_EXP_MAGIC) == TCPOPT_SMC_MAGIC)
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
		if (len < UDP_HLEN)
			return bad(err, errlen, "UDP header cut off (%u bytes)",
				   len);
		pkt->sport = get_be16(p + UDP_OFF(uh_sport));
		pkt->dport = get_be16(p + UDP_OFF(uh_dport));
		ulen = get_be16(p + UDP_OFF(uh_ulen));
		if (ulen < UDP_HLEN)
			return bad(err, errlen, "UDP length %u below %zu", ulen,
				   UDP_HLEN);
		if (ulen > wire_len)
			return bad(err, errlen,
				   "UDP length %u exceeds the IP payload %u",
				   ulen, wire_len);
		pkt->data = p + UDP_HLEN;
		pkt->data_wire_len = ulen - (uint32_t)UDP_HLEN;
		pkt->data_len = len - UDP_HLEN < pkt->data_wire_len ?
				len - (uint32_t)UDP_HLEN : pkt->data_wire_len;
		return DUMP_OK;
	}
	if (proto == IPPROTO_TCP) {
		pkt->l4 = DUMP_L4_TCP;
		if (len < TCP_MIN_HLEN)
			return bad(err, errlen, "TCP header cut off (%u bytes)",
				   len);
		pkt->sport = get_be16(p + TCP_OFF(th_sport));
		pkt->dport = get_be16(p + TCP_OFF(th_dport));
		pkt->tcp_seq = get_be32(p + TCP_OFF(th_seq));
		pkt->tcp_flags = p[TCP_OFF(th_flags)];
		hl = (uint32_t)(p[TCP_DOFF_BYTE] >> 4) * 4;
		if (hl < TCP_MIN_HLEN)
			return bad(err, errlen, "TCP header length %u", hl);
		if (hl > wire_len)
			return bad(err, errlen,
				   "TCP header length %u exceeds the IP payload %u",
				   hl, wire_len);
		if (hl > len)
			return bad(err, errlen, "TCP options cut off");
		pkt->tcp_smc_opt = tcp_has_smc_option(p + TCP_MIN_HLEN,
						      hl - (uint32_t)TCP_MIN_HLEN);
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

	if (len < IP4_MIN_HLEN)
		return bad(err, errlen, "IPv4 header cut off (%u bytes)", len);
	if (IP_VER(p) != 4)
		return bad(err, errlen, "IP version %u in an IPv4 frame",
			   IP_VER(p));
	hl = (uint32_t)IP4_IHL(p) * 4;
	tot = get_be16(p + IP4_OFF(tot_len));
	if (hl < IP4_MIN_HLEN || hl > len)
		return bad(err, errlen, "IPv4 header length %u", hl);
	if (tot < hl)
		return bad(err, errlen, "IPv4 total length %u below header %u",
			   tot, hl);
	pkt->family = AF_INET;
	memcpy(pkt->src, p + IP4_OFF(saddr), 4);
	memcpy(pkt->dst, p + IP4_OFF(daddr), 4);
	frag = get_be16(p + IP4_OFF(frag_off));
	if (frag & IP4_FRAG_MF_OFF) {
		pkt->fragment = true;
		if (frag & IP4_FRAG_OFF)
			return DUMP_OK;	/* no transport header here */
	}
	/* Ethernet padding may follow the packet: @tot bounds it; a capture
	 * snaplen may cut it: @len bounds what we read.
	 */
	if (len > tot)
		len = tot;
	return parse_l4(p[IP4_OFF(protocol)], p + hl, len - hl, tot - hl, pkt,
			err, errlen);
}

static int parse_ipv6(const uint8_t *p, uint32_t len, struct dump_pkt *pkt,
		      char *err, size_t errlen)
{
	uint32_t off = IP6_HLEN, plen, end;
	uint8_t nh;
	int i;

	if (len < IP6_HLEN)
		return bad(err, errlen, "IPv6 header cut off (%u bytes)", len);
	if (IP_VER(p) != 6)
		return bad(err, errlen, "IP version %u in an IPv6 frame",
			   IP_VER(p));
	pkt->family = AF_INET6;
	memcpy(pkt->src, p + IP6_OFF(ip6_src), 16);
	memcpy(pkt->dst, p + IP6_OFF(ip6_dst), 16);
	plen = get_be16(p + IP6_OFF(ip6_plen));
	end = IP6_HLEN + plen;	/* jumbograms (plen 0) are not supported */
	nh = p[IP6_OFF(ip6_nxt)];
	if (len > end)
		len = end;
	for (i = 0; i < MAX_IP6_EXT; i++) {
		uint32_t elen;

		switch (nh) {
		case IPPROTO_HOPOPTS:
		case IPPROTO_ROUTING:
		case IPPROTO_DSTOPTS:
			/* struct ip6_ext: length in 8-byte units, less one */
			if (len - off < IP6_EXT_MIN)
				return bad(err, errlen,
					   "IPv6 extension header cut off");
			elen = ((uint32_t)p[off + offsetof(struct ip6_ext,
							   ip6e_len)] + 1) * 8;
			break;
		case IPPROTO_AH:
			/* RFC 4302: length in 4-byte units, less two */
			if (len - off < IP6_EXT_MIN)
				return bad(err, errlen,
					   "IPv6 extension header cut off");
			elen = ((uint32_t)p[off + offsetof(struct ip6_ext,
							   ip6e_len)] + 2) * 4;
			break;
		case IPPROTO_FRAGMENT:
			if (len - off < sizeof(struct ip6_frag))
				return bad(err, errlen,
					   "IPv6 fragment header cut off");
			pkt->fragment = true;
			if (get_be16(p + off + offsetof(struct ip6_frag,
							ip6f_offlg)) &
			    IP6_FRAG_OFFSET)
				return DUMP_OK;	/* not the first fragment */
			elen = sizeof(struct ip6_frag);
			break;
		default:
			return parse_l4(nh, p + off, len - off, end - off,
					pkt, err, errlen);
		}
		if (elen > len - off || elen > end - off)
			return bad(err, errlen,
				   "IPv6 extension header length %u", elen);
		nh = p[off + offsetof(struct ip6_ext, ip6e_nxt)];
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
		memcpy(pkt->l2_addr, p + ETH_OFF(ether_shost), ETH_ALEN);
		pkt->l2_addr_len = ETH_ALEN;
		/* an smc-dummy link sends from and to its own address; lo's
		 * all-zero addresses are equal too, but lo is no such link
		 */
		pkt->l2_self = !memcmp(p + ETH_OFF(ether_dhost),
				       p + ETH_OFF(ether_shost), ETH_ALEN) &&
			       memcmp(p, "\0\0\0\0\0\0", ETH_ALEN);
		type = get_be16(p + ETH_OFF(ether_type));
		off = ETH_HLEN;
		break;
	case DLT_LINUX_SLL:
		if (caplen < SLL_HLEN)
			return DUMP_SKIP;
		pkt->l2_addr_len = get_be16(p + SLL_OFF(sll_halen)) >
				   SLL_ADDRLEN ? SLL_ADDRLEN :
				   get_be16(p + SLL_OFF(sll_halen));
		memcpy(pkt->l2_addr, p + SLL_OFF(sll_addr), pkt->l2_addr_len);
		pkt->loop_out =
			get_be16(p + SLL_OFF(sll_pkttype)) == PACKET_OUTGOING &&
			get_be16(p + SLL_OFF(sll_hatype)) == ARPHRD_LOOPBACK;
		type = get_be16(p + SLL_OFF(sll_protocol));
		off = SLL_HLEN;
		break;
	case DLT_LINUX_SLL2:
		if (caplen < SLL2_HLEN)
			return DUMP_SKIP;
		type = get_be16(p + SLL2_OFF(sll2_protocol));
		pkt->has_ifindex = true;
		pkt->ifindex = get_be32(p + SLL2_OFF(sll2_if_index));
		pkt->l2_addr_len = p[SLL2_OFF(sll2_halen)] > SLL_ADDRLEN ?
				   SLL_ADDRLEN : p[SLL2_OFF(sll2_halen)];
		memcpy(pkt->l2_addr, p + SLL2_OFF(sll2_addr), pkt->l2_addr_len);
		pkt->loop_out =
			p[SLL2_OFF(sll2_pkttype)] == PACKET_OUTGOING &&
			get_be16(p + SLL2_OFF(sll2_hatype)) == ARPHRD_LOOPBACK;
		off = SLL2_HLEN;
		break;
	case DLT_RAW:
	case DLT_IPV4:
	case DLT_IPV6:
		if (!caplen)
			return DUMP_SKIP;
		if (IP_VER(p) == 4)
			return parse_ipv4(p, caplen, pkt, err, errlen);
		if (IP_VER(p) == 6)
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
		pkt->l2_self = !memcmp(p + off + ETH_OFF(ether_dhost),
				       p + off + ETH_OFF(ether_shost),
				       ETH_ALEN) &&
			       memcmp(p + off, "\0\0\0\0\0\0", ETH_ALEN);
		type = get_be16(p + off + ETH_OFF(ether_type));
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
	/* fewer bytes than the UDP header announces: the capture's fault */
	if (len < sizeof(r->magic) && len < wire_len)
		return bad(err, errlen,
			   "header cut by the capture snaplen (%u of %u bytes)",
			   len, wire_len);
	if (len < sizeof(r->magic))
		return bad(err, errlen, "short record: %u bytes", len);
	r->magic = get_be32(p + HDR_OFF(magic));
	if (r->magic != SMC_DUMP_MAGIC)
		return bad(err, errlen, "bad magic 0x%08x", r->magic);
	if (len < DUMP_LEGACY_PREFIX && len < wire_len)
		return bad(err, errlen,
			   "header cut by the capture snaplen (%u of %u bytes)",
			   len, wire_len);
	if (len < DUMP_LEGACY_PREFIX)
		return bad(err, errlen, "short header: %u bytes", len);
	r->hdr_ver = p[HDR_OFF(hdr_ver)];
	r->smc_ver = p[HDR_OFF(smc_ver)];
	r->mode = p[HDR_OFF(mode)];
	r->type = p[HDR_OFF(type)];
	r->len = get_be16(p + HDR_OFF(len));
	r->level = 1;

	if (r->hdr_ver < 3) {
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
	r->hdr_len = p[HDR_OFF(hdr_len)];
	r->flags = p[HDR_OFF(flags)];
	r->seq = get_be32(p + HDR_OFF(seq));
	r->token = get_be32(p + HDR_OFF(token));
	r->orig_len = get_be32(p + HDR_OFF(orig_len));
	r->offset = get_be64(p + HDR_OFF(offset));

	if (r->hdr_len < DUMP_HDR_LEN)
		return bad(err, errlen, "hdr_len %u below %u", r->hdr_len,
			   DUMP_HDR_LEN);
	if (r->hdr_ver >= 4 && r->hdr_len < DUMP_HDR_V4_LEN)
		return bad(err, errlen, "hdr_len %u below %u for hdr_ver %u",
			   r->hdr_len, DUMP_HDR_V4_LEN, r->hdr_ver);
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
	if (r->hdr_ver >= 4) {
		r->has_sseq = true;
		r->stream_seq = get_be32(p + HDR_OFF(stream_seq));
		r->big_endian = r->flags & SMC_DUMP_F_BIG_ENDIAN;
	}
	r->payload = p + r->hdr_len;
	r->payload_wire_len = r->len - r->hdr_len;
	avail = len - r->hdr_len;
	r->payload_len = avail < r->payload_wire_len ?
			 avail : r->payload_wire_len;
	r->cap_trunc = r->payload_len < r->payload_wire_len;
	/* only now do the header's fields and lengths agree with the frame */
	r->level = 2;

	if (r->mode != SMC_DUMP_MODE_SMCR && r->mode != SMC_DUMP_MODE_SMCD)
		return bad(err, errlen, "unknown mode %u", r->mode);
	if (r->type != SMC_DUMP_TYPE_RAW && r->type != SMC_DUMP_TYPE_CDC &&
	    (r->type != SMC_DUMP_TYPE_LLC || r->hdr_ver < 4))
		return bad(err, errlen, "unknown type %u", r->type);
	if (r->type == SMC_DUMP_TYPE_LLC && r->mode != SMC_DUMP_MODE_SMCR)
		return bad(err, errlen, "LLC record of an SMC-D link group");
	if (r->orig_len < r->payload_wire_len)
		return bad(err, errlen, "orig_len %u below the payload %u",
			   r->orig_len, r->payload_wire_len);
	if (r->flags & SMC_DUMP_F_TRUNC) {
		if (r->type != SMC_DUMP_TYPE_RAW)
			return bad(err, errlen, "%s record marked truncated",
				   r->type == SMC_DUMP_TYPE_CDC ? "CDC" : "LLC");
		if (r->orig_len == r->payload_wire_len)
			return bad(err, errlen,
				   "marked truncated, but orig_len %u equals the payload",
				   r->orig_len);
	} else if (r->orig_len != r->payload_wire_len) {
		return bad(err, errlen,
			   "orig_len %u differs from the payload %u, not marked truncated",
			   r->orig_len, r->payload_wire_len);
	}
	if (r->type != SMC_DUMP_TYPE_RAW && r->offset)
		return bad(err, errlen, "%s record with offset %llu",
			   r->type == SMC_DUMP_TYPE_CDC ? "CDC" : "LLC",
			   (unsigned long long)r->offset);
	if (r->type == SMC_DUMP_TYPE_LLC &&
	    r->payload_wire_len < DUMP_LLC_LINK_LEN + DUMP_LLC_MIN)
		return bad(err, errlen,
			   "LLC record of %u payload bytes, need %u (link, LLC header)",
			   r->payload_wire_len,
			   DUMP_LLC_LINK_LEN + DUMP_LLC_MIN);
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
	c->type = p[CDC_R(type)];	/* the same byte in both layouts */
	if (smcd) {
		uint16_t (*g16)(const uint8_t *) =
			smcd_big_endian ? get_be16 : get_le16;
		uint32_t (*g32)(const uint8_t *) =
			smcd_big_endian ? get_be32 : get_le32;

		c->prod_wrap = g16(p + CDC_D(prod.wrap));
		c->prod_count = g32(p + CDC_D(prod.count));
		c->smcd_prod_flags2 =
			(uint16_t)(p[CDC_D(prod.prod_flags)] << 8 |
				   p[CDC_D(prod.conn_state_flags)]);
		c->cons_wrap = g16(p + CDC_D(cons.wrap));
		c->cons_count = g32(p + CDC_D(cons.count));
		c->prod_flags = p[CDC_D(cons.prod_flags)];
		c->conn_state_flags = p[CDC_D(cons.conn_state_flags)];
	} else {
		c->len = p[CDC_R(len)];
		c->seqno = get_be16(p + CDC_R(seqno));
		c->token = get_be32(p + CDC_R(token));
		c->prod_wrap = get_be16(p + CDC_R(prod.wrap));
		c->prod_count = get_be32(p + CDC_R(prod.count));
		c->cons_wrap = get_be16(p + CDC_R(cons.wrap));
		c->cons_count = get_be32(p + CDC_R(cons.count));
		c->prod_flags = p[CDC_R(prod_flags)];
		c->conn_state_flags = p[CDC_R(conn_state_flags)];
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
