// SPDX-License-Identifier: GPL-2.0
/*
 * gen-smcdump-pcap - write captures of SMC dump records (design section 4)
 * and of the SMC TCP handshake, for the tests and the decoder benchmark.
 *
 *   gen-smcdump-pcap [OPTIONS] OUT < SPEC     one frame per SPEC line
 *   gen-smcdump-pcap [OPTIONS] OUT bench SIZE records totalling SIZE bytes
 *
 * OUT is a file or - (stdout). OPTIONS:
 *   -l, --linktype en10mb|sll|sll2|raw   link type (default en10mb)
 *   -n, --nano      nanosecond timestamps (default microseconds)
 *   -g, --pcapng    write pcapng (by hand: libpcap only writes pcap)
 *   -V, --hdr-ver N the records' hdr_ver unless hdrver= says (default 3;
 *                   4 writes the 40-byte header with stream_seq)
 *   -s, --skew [-]SEC[.FRAC]  add this to every frame's time: the
 *                   capture of a host whose clock is that far ahead
 *                   (behind), from a spec written in true time
 *
 * SPEC lines are a kind and key=value words; '#' starts a comment.
 * Numbers are decimal or 0x hex. Kinds:
 *   data    an SMC dump data record          cdc     a CDC record
 *   udp     a UDP packet, payload hex=...    tcp     a TCP segment
 *   legacy  an Alibaba record (hdr_ver < 3): prefix, then hex=...
 *   llc     an LLC record (hdr_ver 4): lgr= link= qp= peerqp= llctype=
 *           (default 0x01) resp=1; the 48-byte link, then a 44-byte
 *           message, or msg=HEX (the message's bytes, any length);
 *           hex=... replaces both
 * Frame keys (all kinds):
 *   ts=SEC[.FRAC]  time (default: 1700000000 + 1 us per frame)
 *   local= peer= lport= pport=  the connection (default 10.0.0.1:40000
 *     and 10.0.0.2:5201); records go local > peer for dir=tx and
 *     peer > local for dir=rx; udp and tcp go local > peer
 *   src= dst= sport= dport=  override the addresses and ports
 *   smac= dmac=  MACs (records: both 02:00:00:00:00:01, the smc-dummy
 *     way; udp and tcp: 02:00:00:00:00:0a > 02:00:00:00:00:0b)
 *   ifindex=N  Linux cooked v2 interface (records 5, others 2)
 *   pkttype=N hatype=N  Linux cooked packet type (default 4, outgoing)
 *     and ARPHRD type (default 1, Ethernet; 772 is loopback)
 *   vlan=ID    insert an 802.1Q tag (Ethernet, cooked)
 *   cut=N      keep only the first N bytes of the frame (capture snaplen)
 * Record keys (data, cdc, legacy):
 *   mode=r|d dir=tx|rx token= seq= smcver= (default 2) offset= (data)
 *   magic= hdrver= hdrlen= type= flags= reclen= orig=  override fields
 *   sseq=N     stream_seq (hdr_ver 4 on); without it each stream
 *     (token, dir, type) counts on from its last number, from 0
 *   data: len=N payload bytes, from=FILE (bytes offset..offset+len of
 *     FILE), fill=0xNN, hex=..., else byte i is (offset + i) & 0xff;
 *     orig=M > len sets the truncated flag
 *   cdc SMC-R: seqno= ctoken= pwrap= pcount= cwrap= ccount= pflags=
 *     cflags= (the 44-byte message, big-endian); SMC-D: the same cursor
 *     and flag keys, endian=little|big (the 32-byte message, flags in
 *     the consumer cursor as Linux sends them); hex=... replaces it
 * udp: hex=PAYLOAD; tcp: flags=S|SA|A|PA|F seq= smcopt=1 hex=PAYLOAD
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pcap/pcap.h>

#include <linux/smc_dump.h>

#include "pcapng_write.h"

#ifndef DLT_LINUX_SLL2
#define DLT_LINUX_SLL2	276
#endif

#define MAX_FRAME	(70 * 1024)

enum kind { K_DATA, K_CDC, K_UDP, K_TCP, K_LEGACY, K_LLC };

/* the records' hdr_ver unless a line says (-V) */
static int hdr_ver_default = 3;

/* -s: ns added to every frame's time */
static int64_t skew_ns;

struct out {
	int dlt;
	bool nano;
	bool pcapng;
	pcap_t *dead;
	pcap_dumper_t *dumper;
	FILE *f;		/* pcapng */
	uint64_t frames;
};

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "gen-smcdump-pcap: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = v >> 8;
	p[1] = v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, v >> 32);
	put32(p + 4, v);
}

static uint64_t num(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || !*s)
		die("bad number \"%s\"", s);
	return v;
}

static size_t hex(const char *s, uint8_t *buf, size_t max)
{
	size_t n = 0;

	while (s[0] && s[1]) {
		unsigned int b;

		if (n == max)
			die("hex too long: %s", s);
		if (sscanf(s, "%2x", &b) != 1)
			die("bad hex \"%s\"", s);
		buf[n++] = b;
		s += 2;
	}
	if (*s)
		die("odd hex digits: %s", s);
	return n;
}

static void mac(const char *s, uint8_t *m)
{
	unsigned int b[6];
	int i;

	if (sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4],
		   &b[5]) != 6)
		die("bad MAC \"%s\"", s);
	for (i = 0; i < 6; i++)
		m[i] = b[i];
}

struct addr {
	int family;
	uint8_t a[16];
};

static void ip(const char *s, struct addr *a)
{
	memset(a, 0, sizeof(*a));
	if (inet_pton(AF_INET, s, a->a) == 1)
		a->family = AF_INET;
	else if (inet_pton(AF_INET6, s, a->a) == 1)
		a->family = AF_INET6;
	else
		die("bad address \"%s\"", s);
}

/* Internet checksum over a pseudo header and the L4 bytes */
static uint16_t csum(const struct addr *s, const struct addr *d, uint8_t proto,
		     const uint8_t *p, size_t len)
{
	uint32_t sum = 0;
	size_t i, alen = s->family == AF_INET6 ? 16 : 4;

	for (i = 0; i < alen; i += 2)
		sum += (s->a[i] << 8 | s->a[i + 1]) + (d->a[i] << 8 | d->a[i + 1]);
	sum += proto + (uint32_t)len;
	for (i = 0; i + 1 < len; i += 2)
		sum += p[i] << 8 | p[i + 1];
	if (len & 1)
		sum += p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

struct frame {
	enum kind kind;
	uint64_t ts_sec;
	uint32_t ts_nsec;
	bool has_ts;
	struct addr src, dst;
	uint16_t sport, dport;
	uint8_t smac[6], dmac[6];
	uint32_t ifindex;
	uint16_t pkttype;
	uint16_t hatype;
	int vlans;
	uint16_t vlan[4];
	long cut;
	uint8_t l4[MAX_FRAME];	/* UDP or TCP payload */
	size_t l4len;
	uint8_t tcpflags;
	uint32_t tcpseq;
	bool smcopt;
};

static void emit(struct out *o, struct frame *fr)
{
	static uint8_t buf[MAX_FRAME + 256];
	size_t off = 0, iphl, l4hl, tot, caplen;
	uint16_t proto = fr->src.family == AF_INET6 ? 0x86dd : 0x0800;
	uint8_t *l4;
	int i;

	if (fr->src.family != fr->dst.family)
		die("%s", "src and dst of different families");
	switch (o->dlt) {
	case DLT_EN10MB:
		memcpy(buf, fr->dmac, 6);
		memcpy(buf + 6, fr->smac, 6);
		off = 12;
		for (i = 0; i < fr->vlans; i++) {
			put16(buf + off, 0x8100);
			put16(buf + off + 2, fr->vlan[i]);
			off += 4;
		}
		put16(buf + off, proto);
		off += 2;
		break;
	case DLT_LINUX_SLL:
		put16(buf, fr->pkttype);
		put16(buf + 2, fr->hatype);
		put16(buf + 4, 6);
		memset(buf + 6, 0, 8);
		memcpy(buf + 6, fr->smac, 6);
		off = 14;
		for (i = 0; i < fr->vlans; i++) {
			put16(buf + off, 0x8100);
			put16(buf + off + 2, fr->vlan[i]);
			off += 4;
		}
		put16(buf + off, proto);
		off += 2;
		break;
	case DLT_LINUX_SLL2:
		put16(buf, fr->vlans ? 0x8100 : proto);
		put16(buf + 2, 0);
		put32(buf + 4, fr->ifindex);
		put16(buf + 8, fr->hatype);
		buf[10] = fr->pkttype;
		buf[11] = 6;
		memset(buf + 12, 0, 8);
		memcpy(buf + 12, fr->smac, 6);
		off = 20;
		for (i = 0; i < fr->vlans; i++) {
			put16(buf + off, fr->vlan[i]);
			put16(buf + off + 2, i + 1 < fr->vlans ? 0x8100 : proto);
			off += 4;
		}
		break;
	default:
		break;
	}

	l4hl = fr->kind == K_TCP ? (fr->smcopt ? 28 : 20) : 8;
	iphl = fr->src.family == AF_INET6 ? 40 : 20;
	tot = iphl + l4hl + fr->l4len;
	if (tot > 65535 + (fr->src.family == AF_INET6 ? 40 : 0))
		die("%s", "packet too large");
	if (fr->src.family == AF_INET) {
		uint8_t *h = buf + off;
		uint32_t s = 0;

		memset(h, 0, 20);
		h[0] = 0x45;
		put16(h + 2, tot);
		h[8] = 64;
		h[9] = fr->kind == K_TCP ? 6 : 17;
		memcpy(h + 12, fr->src.a, 4);
		memcpy(h + 16, fr->dst.a, 4);
		for (i = 0; i < 20; i += 2)
			s += h[i] << 8 | h[i + 1];
		while (s >> 16)
			s = (s & 0xffff) + (s >> 16);
		put16(h + 10, ~s);
	} else {
		uint8_t *h = buf + off;

		memset(h, 0, 40);
		h[0] = 0x60;
		put16(h + 4, tot - 40);
		h[6] = fr->kind == K_TCP ? 6 : 17;
		h[7] = 64;
		memcpy(h + 8, fr->src.a, 16);
		memcpy(h + 24, fr->dst.a, 16);
	}
	off += iphl;
	l4 = buf + off;
	memset(l4, 0, l4hl);
	put16(l4, fr->sport);
	put16(l4 + 2, fr->dport);
	memcpy(l4 + l4hl, fr->l4, fr->l4len);
	if (fr->kind == K_TCP) {
		put32(l4 + 4, fr->tcpseq);
		l4[12] = (uint8_t)(l4hl / 4) << 4;
		l4[13] = fr->tcpflags;
		put16(l4 + 14, 65535);
		if (fr->smcopt) {
			/* NOP NOP, kind 254 len 6 magic E2D4C3D9 */
			l4[20] = 1;
			l4[21] = 1;
			l4[22] = 254;
			l4[23] = 6;
			put32(l4 + 24, 0xE2D4C3D9);
		}
		put16(l4 + 16, csum(&fr->src, &fr->dst, 6, l4,
				    l4hl + fr->l4len));
	} else {
		put16(l4 + 4, 8 + fr->l4len);
		/* IPv4 as the kernel sends records: checksum 0 */
		if (fr->src.family == AF_INET6) {
			uint16_t c = csum(&fr->src, &fr->dst, 17, l4,
					  8 + fr->l4len);

			put16(l4 + 6, c ? c : 0xffff);
		}
	}
	off += l4hl + fr->l4len;
	caplen = fr->cut >= 0 && (size_t)fr->cut < off ? (size_t)fr->cut : off;

	if (!fr->has_ts) {
		fr->ts_sec = 1700000000 + o->frames / 1000000;
		fr->ts_nsec = (uint32_t)(o->frames % 1000000) * 1000;
	}
	if (skew_ns) {
		int64_t t = (int64_t)fr->ts_sec * 1000000000 + fr->ts_nsec +
			    skew_ns;

		if (t < 0)
			die("%s", "--skew makes a time negative");
		fr->ts_sec = (uint64_t)t / 1000000000;
		fr->ts_nsec = (uint32_t)((uint64_t)t % 1000000000);
	}
	o->frames++;
	if (o->pcapng) {
		uint64_t t = fr->ts_sec * (o->nano ? 1000000000ull : 1000000ull) +
			     (o->nano ? fr->ts_nsec : fr->ts_nsec / 1000);

		pcapng_put_epb(o->f, 0, t, buf, (uint32_t)caplen,
			       (uint32_t)off);
	} else {
		struct pcap_pkthdr ph;

		ph.ts.tv_sec = (time_t)fr->ts_sec;
		ph.ts.tv_usec = o->nano ? fr->ts_nsec : fr->ts_nsec / 1000;
		ph.caplen = caplen;
		ph.len = off;
		pcap_dump((u_char *)o->dumper, &ph, buf);
	}
}

static void out_open(struct out *o, const char *path)
{
	if (o->pcapng) {
		o->f = strcmp(path, "-") ? fopen(path, "wb") : stdout;
		if (!o->f)
			die("cannot write %s", path);
		pcapng_put_shb(o->f);
		pcapng_put_idb(o->f, o->dlt, NULL, NULL, o->nano ? 9 : 6);
		return;
	}
	o->dead = pcap_open_dead_with_tstamp_precision(o->dlt, 262144,
			o->nano ? PCAP_TSTAMP_PRECISION_NANO :
				  PCAP_TSTAMP_PRECISION_MICRO);
	if (!o->dead)
		die("%s", "pcap_open_dead failed");
	o->dumper = pcap_dump_open(o->dead, path);
	if (!o->dumper)
		die("cannot write: %s", pcap_geterr(o->dead));
}

static int out_close(struct out *o)
{
	int bad;

	if (o->pcapng) {
		bad = fflush(o->f) || ferror(o->f);
		if (o->f != stdout)
			bad |= fclose(o->f);
		return bad;
	}
	bad = pcap_dump_flush(o->dumper);
	pcap_dump_close(o->dumper);
	pcap_close(o->dead);
	return bad;
}

/* A file given by from=, kept in memory. */
static const uint8_t *file_bytes(const char *path, size_t *len)
{
	static char *name;
	static uint8_t *data;
	static size_t size;
	FILE *f;
	long n;

	if (name && !strcmp(name, path)) {
		*len = size;
		return data;
	}
	free(name);
	free(data);
	f = fopen(path, "rb");
	if (!f)
		die("cannot read %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	data = malloc(n ? n : 1);
	if (!data || fread(data, 1, n, f) != (size_t)n)
		die("cannot read %s", path);
	fclose(f);
	name = strdup(path);
	size = n;
	*len = size;
	return data;
}

struct rec {
	/* header fields, -1 when not given */
	int64_t magic, hdrver, smcver, mode, type, reclen, hdrlen, flags,
		seq, token, orig, offset, sseq;
	bool rx;
	/* llc */
	uint64_t lgr, link, qp, peerqp, llctype, resp;
	/* payload */
	long len;
	const char *from;
	int fill;
	const char *hexp;
	const char *msgp;	/* llc: the message after the link */
	/* cdc */
	uint64_t seqno, ctoken, pwrap, pcount, cwrap, ccount, pflags, cflags;
	bool big;
};

static size_t build_payload(const struct rec *r, enum kind k, uint8_t *p,
			    size_t max)
{
	size_t n, i;

	if (r->hexp)
		return hex(r->hexp, p, max);
	if (k == K_LLC) {
		memset(p, 0, 48 + 44);
		put32(p, r->lgr);
		p[4] = r->link;
		p[5] = 1;
		put32(p + 8, r->qp);
		put32(p + 12, r->peerqp);
		p[16] = 0xfe;
		p[17] = 0x80;
		p[31] = 1;
		p[32] = 0xfe;
		p[33] = 0x80;
		p[47] = 2;
		if (r->msgp)
			return 48 + hex(r->msgp, p + 48, max - 48);
		p[48] = r->llctype ? r->llctype : 0x01;
		p[49] = 44;
		p[51] = r->resp ? 0x80 : 0;
		return 48 + 44;
	}
	if (k == K_CDC) {
		memset(p, 0, 44);
		if (r->mode == SMC_DUMP_MODE_SMCD) {
			p[0] = 0xfe;
			if (r->big) {
				put16(p + 16, r->cwrap);
				put32(p + 18, r->ccount);
				put16(p + 8, r->pwrap);
				put32(p + 10, r->pcount);
			} else {
				p[8] = r->pwrap;
				p[9] = r->pwrap >> 8;
				for (i = 0; i < 4; i++) {
					p[10 + i] = r->pcount >> (8 * i);
					p[18 + i] = r->ccount >> (8 * i);
				}
				p[16] = r->cwrap;
				p[17] = r->cwrap >> 8;
			}
			p[22] = r->pflags;
			p[23] = r->cflags;
			return 32;
		}
		p[0] = 0xfe;
		p[1] = 44;
		put16(p + 2, r->seqno);
		put32(p + 4, r->ctoken);
		put16(p + 10, r->pwrap);
		put32(p + 12, r->pcount);
		put16(p + 18, r->cwrap);
		put32(p + 20, r->ccount);
		p[24] = r->pflags;
		p[25] = r->cflags;
		return 44;
	}
	n = r->len < 0 ? 0 : (size_t)r->len;
	if (n > max)
		die("%s", "payload too long");
	if (r->from) {
		size_t flen, off = r->offset < 0 ? 0 : (size_t)r->offset;
		const uint8_t *d = file_bytes(r->from, &flen);

		if (off > flen || n > flen - off)
			die("from= file too short for %s", r->from);
		memcpy(p, d + off, n);
	} else if (r->fill >= 0) {
		memset(p, r->fill, n);
	} else {
		for (i = 0; i < n; i++)
			p[i] = (uint8_t)((r->offset < 0 ? 0 : r->offset) + i);
	}
	return n;
}

/* stream_seq: each stream counts on from its last number */
static uint32_t next_sseq(const struct rec *r, uint8_t type)
{
	static struct {
		uint32_t token;
		uint8_t key;
		uint32_t next;
	} st[1024];
	static unsigned int n;
	uint8_t key = (uint8_t)(r->mode << 4 | r->rx << 3 | type);
	uint32_t token = r->token >= 0 ? (uint32_t)r->token : 0;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (st[i].token == token && st[i].key == key)
			break;
	if (i == n) {
		if (n == 1024)
			die("%s", "more than 1024 record streams");
		st[n].token = token;
		st[n].key = key;
		st[n++].next = 0;
	}
	if (r->sseq >= 0)
		st[i].next = (uint32_t)r->sseq;
	return st[i].next++;
}

static void build_record(struct frame *fr, const struct rec *r)
{
	uint8_t *h = fr->l4;
	bool legacy = fr->kind == K_LEGACY;
	int ver = r->hdrver >= 0 ? (int)r->hdrver :
		  (legacy ? 1 : fr->kind == K_LLC ? 4 : hdr_ver_default);
	size_t hl = legacy ? 10 : (r->hdrlen >= 0 ? (size_t)r->hdrlen :
				   ver >= 4 ? 40 : 32);
	uint8_t type;
	size_t n;
	uint8_t flags;

	if (hl < 10 || hl > 255)
		die("%s", "hdrlen out of range");
	memset(h, 0, hl);
	n = build_payload(r, fr->kind, h + hl, sizeof(fr->l4) - hl);
	put32(h, r->magic >= 0 ? r->magic : SMC_DUMP_MAGIC);
	h[4] = (uint8_t)ver;
	h[5] = r->smcver >= 0 ? r->smcver : 2;
	h[6] = r->mode;
	type = r->type >= 0 ? r->type :
	       fr->kind == K_CDC ? SMC_DUMP_TYPE_CDC :
	       fr->kind == K_LLC ? SMC_DUMP_TYPE_LLC : SMC_DUMP_TYPE_RAW;
	h[7] = type;
	put16(h + 8, r->reclen >= 0 ? (size_t)r->reclen : hl + n);
	fr->l4len = hl + n;
	if (legacy)
		return;
	if (hl >= 32 || r->hdrlen >= 0) {
		flags = r->rx ? SMC_DUMP_F_RX : 0;
		if (r->orig >= 0 && (size_t)r->orig > n)
			flags |= SMC_DUMP_F_TRUNC;
		if (ver >= 4 && r->big)
			flags |= SMC_DUMP_F_BIG_ENDIAN;
		h[10] = hl;
		h[11] = r->flags >= 0 ? r->flags : flags;
		if (hl >= 32) {
			put32(h + 12, r->seq >= 0 ? r->seq : 0);
			put32(h + 16, r->token >= 0 ? r->token :
				      fr->kind == K_LLC ? (int64_t)r->lgr : 0);
			put32(h + 20, r->orig >= 0 ? (size_t)r->orig : n);
			put64(h + 24, r->offset >= 0 && fr->kind == K_DATA ?
				      r->offset : 0);
		}
		if (hl >= 40 && ver >= 4)
			put32(h + 32, next_sseq(r, type));
	}
}

/* "[-]SEC[.FRAC]" as ns, FRAC up to 9 digits */
static int64_t parse_skew(const char *s)
{
	char frac[10] = "000000000", *dot, buf[64];
	bool neg = s[0] == '-';
	int64_t v;
	size_t n;

	if (strlen(s) >= sizeof(buf))
		die("bad skew \"%s\"", s);
	strcpy(buf, s + neg);
	dot = strchr(buf, '.');
	if (dot) {
		*dot = '\0';
		n = strlen(dot + 1);
		if (!n || n > 9 || strspn(dot + 1, "0123456789") != n)
			die("bad skew \"%s\"", s);
		memcpy(frac, dot + 1, n);
	}
	if (!*buf || strspn(buf, "0123456789") != strlen(buf))
		die("bad skew \"%s\"", s);
	v = (int64_t)num(buf) * 1000000000 + (int64_t)strtoul(frac, NULL, 10);
	return neg ? -v : v;
}

static enum kind parse_kind(const char *w)
{
	if (!strcmp(w, "data"))
		return K_DATA;
	if (!strcmp(w, "cdc"))
		return K_CDC;
	if (!strcmp(w, "udp"))
		return K_UDP;
	if (!strcmp(w, "tcp"))
		return K_TCP;
	if (!strcmp(w, "legacy"))
		return K_LEGACY;
	if (!strcmp(w, "llc"))
		return K_LLC;
	die("unknown kind \"%s\"", w);
	return K_DATA;
}

static void spec_line(struct out *o, char *line)
{
	static struct frame fr;
	struct addr local, peer;
	uint16_t lport = 40000, pport = 5201;
	const char *src = NULL, *dst = NULL, *smac = NULL, *dmac = NULL;
	long sport = -1, dport = -1;
	struct rec r;
	char *w, *save, *c;

	c = strchr(line, '#');
	if (c)
		*c = '\0';
	w = strtok_r(line, " \t\r\n", &save);
	if (!w)
		return;
	memset(&fr, 0, sizeof(fr));
	memset(&r, 0, sizeof(r));
	r.magic = r.hdrver = r.smcver = r.type = r.reclen = r.hdrlen = -1;
	r.flags = r.seq = r.token = r.orig = r.offset = r.sseq = -1;
	r.len = -1;
	r.fill = -1;
	r.mode = SMC_DUMP_MODE_SMCR;
	fr.kind = parse_kind(w);
	fr.cut = -1;
	fr.ifindex = fr.kind <= K_CDC || fr.kind >= K_LEGACY ? 5 : 2;
	fr.pkttype = 4;		/* PACKET_OUTGOING */
	fr.hatype = 1;		/* ARPHRD_ETHER */
	ip("10.0.0.1", &local);
	ip("10.0.0.2", &peer);

	while ((w = strtok_r(NULL, " \t\r\n", &save))) {
		char *v = strchr(w, '=');

		if (!v)
			die("expected key=value: %s", w);
		*v++ = '\0';
		if (!strcmp(w, "ts")) {
			char *dot = strchr(v, '.');

			fr.has_ts = true;
			if (dot) {
				char frac[10] = "000000000";
				size_t n = strlen(dot + 1);

				*dot = '\0';
				if (n > 9)
					die("ts fraction too long: %s", dot + 1);
				memcpy(frac, dot + 1, n);
				/* decimal: the leading zeros are no octal prefix */
				fr.ts_nsec = strtoul(frac, NULL, 10);
			}
			fr.ts_sec = num(v);
		} else if (!strcmp(w, "local")) {
			ip(v, &local);
		} else if (!strcmp(w, "peer")) {
			ip(v, &peer);
		} else if (!strcmp(w, "lport")) {
			lport = num(v);
		} else if (!strcmp(w, "pport")) {
			pport = num(v);
		} else if (!strcmp(w, "src")) {
			src = v;
		} else if (!strcmp(w, "dst")) {
			dst = v;
		} else if (!strcmp(w, "sport")) {
			sport = num(v);
		} else if (!strcmp(w, "dport")) {
			dport = num(v);
		} else if (!strcmp(w, "smac")) {
			smac = v;
		} else if (!strcmp(w, "dmac")) {
			dmac = v;
		} else if (!strcmp(w, "ifindex")) {
			fr.ifindex = num(v);
		} else if (!strcmp(w, "pkttype")) {
			fr.pkttype = num(v);
		} else if (!strcmp(w, "hatype")) {
			fr.hatype = num(v);
		} else if (!strcmp(w, "vlan")) {
			if (fr.vlans == 4)
				die("%s", "too many vlan=");
			fr.vlan[fr.vlans++] = num(v);
		} else if (!strcmp(w, "cut")) {
			fr.cut = num(v);
		} else if (!strcmp(w, "mode")) {
			r.mode = !strcmp(v, "r") ? SMC_DUMP_MODE_SMCR :
				 !strcmp(v, "d") ? SMC_DUMP_MODE_SMCD : num(v);
		} else if (!strcmp(w, "dir")) {
			r.rx = !strcmp(v, "rx");
		} else if (!strcmp(w, "token")) {
			r.token = num(v);
		} else if (!strcmp(w, "seq")) {
			r.seq = num(v);
			fr.tcpseq = num(v);
		} else if (!strcmp(w, "smcver")) {
			r.smcver = num(v);
		} else if (!strcmp(w, "offset")) {
			r.offset = num(v);
		} else if (!strcmp(w, "magic")) {
			r.magic = num(v);
		} else if (!strcmp(w, "hdrver")) {
			r.hdrver = num(v);
		} else if (!strcmp(w, "hdrlen")) {
			r.hdrlen = num(v);
		} else if (!strcmp(w, "type")) {
			r.type = num(v);
		} else if (!strcmp(w, "flags")) {
			if (fr.kind == K_TCP) {
				fr.tcpflags = !strcmp(v, "S") ? 0x02 :
					      !strcmp(v, "SA") ? 0x12 :
					      !strcmp(v, "A") ? 0x10 :
					      !strcmp(v, "PA") ? 0x18 :
					      !strcmp(v, "F") ? 0x11 : num(v);
			} else {
				r.flags = num(v);
			}
		} else if (!strcmp(w, "reclen")) {
			r.reclen = num(v);
		} else if (!strcmp(w, "orig")) {
			r.orig = num(v);
		} else if (!strcmp(w, "len")) {
			r.len = num(v);
		} else if (!strcmp(w, "from")) {
			r.from = v;
		} else if (!strcmp(w, "fill")) {
			r.fill = num(v);
		} else if (!strcmp(w, "hex")) {
			r.hexp = v;
		} else if (!strcmp(w, "seqno")) {
			r.seqno = num(v);
		} else if (!strcmp(w, "ctoken")) {
			r.ctoken = num(v);
		} else if (!strcmp(w, "pwrap")) {
			r.pwrap = num(v);
		} else if (!strcmp(w, "pcount")) {
			r.pcount = num(v);
		} else if (!strcmp(w, "cwrap")) {
			r.cwrap = num(v);
		} else if (!strcmp(w, "ccount")) {
			r.ccount = num(v);
		} else if (!strcmp(w, "pflags")) {
			r.pflags = num(v);
		} else if (!strcmp(w, "cflags")) {
			r.cflags = num(v);
		} else if (!strcmp(w, "sseq")) {
			r.sseq = num(v);
		} else if (!strcmp(w, "lgr")) {
			r.lgr = num(v);
		} else if (!strcmp(w, "link")) {
			r.link = num(v);
		} else if (!strcmp(w, "qp")) {
			r.qp = num(v);
		} else if (!strcmp(w, "peerqp")) {
			r.peerqp = num(v);
		} else if (!strcmp(w, "llctype")) {
			r.llctype = num(v);
		} else if (!strcmp(w, "resp")) {
			r.resp = num(v);
		} else if (!strcmp(w, "msg")) {
			r.msgp = v;
		} else if (!strcmp(w, "endian")) {
			r.big = !strcmp(v, "big");
		} else if (!strcmp(w, "smcopt")) {
			fr.smcopt = num(v);
		} else {
			die("unknown key \"%s\"", w);
		}
	}

	/* addresses: records by direction, others local > peer */
	if ((fr.kind == K_DATA || fr.kind == K_CDC || fr.kind == K_LEGACY ||
	     fr.kind == K_LLC) && r.rx) {
		fr.src = peer;
		fr.dst = local;
		fr.sport = pport;
		fr.dport = lport;
	} else {
		fr.src = local;
		fr.dst = peer;
		fr.sport = lport;
		fr.dport = pport;
	}
	if (src)
		ip(src, &fr.src);
	if (dst)
		ip(dst, &fr.dst);
	if (sport >= 0)
		fr.sport = sport;
	if (dport >= 0)
		fr.dport = dport;
	if (fr.kind == K_UDP || fr.kind == K_TCP) {
		mac("02:00:00:00:00:0a", fr.smac);
		mac("02:00:00:00:00:0b", fr.dmac);
	} else {
		mac("02:00:00:00:00:01", fr.smac);
		mac("02:00:00:00:00:01", fr.dmac);
	}
	if (smac)
		mac(smac, fr.smac);
	if (dmac)
		mac(dmac, fr.dmac);

	if (fr.kind == K_UDP || fr.kind == K_TCP)
		fr.l4len = r.hexp ? hex(r.hexp, fr.l4, sizeof(fr.l4)) : 0;
	else
		build_record(&fr, &r);
	emit(o, &fr);
}

/* bench: 4 SMC-R connections, data records of 1 to 16 KiB (sent and
 * received), each followed by a CDC record, until SIZE bytes of records.
 */
static void bench(struct out *o, uint64_t size)
{
	static struct frame fr;
	uint64_t total = 0, off[8] = { 0 }, rnd = 88172645463325252ull;
	uint32_t seq = 0;
	uint16_t seqno[8] = { 0 };
	struct addr local, peer;
	struct rec r;
	int i;

	ip("10.0.0.1", &local);
	ip("10.0.0.2", &peer);
	memset(&r, 0, sizeof(r));
	r.magic = r.hdrver = r.smcver = r.type = r.reclen = r.hdrlen = -1;
	r.flags = r.orig = r.sseq = -1;
	r.fill = -1;
	r.mode = SMC_DUMP_MODE_SMCR;
	mac("02:00:00:00:00:01", fr.smac);
	mac("02:00:00:00:00:01", fr.dmac);
	fr.cut = -1;
	fr.ifindex = 5;
	fr.pkttype = 4;
	fr.hatype = 1;
	while (total < size) {
		int c, s;

		rnd ^= rnd << 13;
		rnd ^= rnd >> 7;
		rnd ^= rnd << 17;
		c = rnd & 3;
		s = c * 2 + ((rnd >> 2) & 1);
		r.rx = s & 1;
		r.token = 0x1000 + c;
		fr.src = r.rx ? peer : local;
		fr.dst = r.rx ? local : peer;
		fr.sport = r.rx ? 5201 : 40000 + c;
		fr.dport = r.rx ? 40000 + c : 5201;
		r.len = 1024 + (long)((rnd >> 8) % (15 * 1024));
		/* the data, then the CDC message announcing it */
		for (i = 0; i < 2; i++) {
			fr.kind = i ? K_CDC : K_DATA;
			r.seq = seq++;
			r.offset = off[s];
			if (i) {
				r.seqno = seqno[s]++;
				r.ctoken = 0x2000 + c;
				r.pcount = off[s] % (1 << 20);
				r.pwrap = off[s] >> 20;
			}
			build_record(&fr, &r);
			emit(o, &fr);
			total += fr.l4len;
			if (!i)
				off[s] += r.len;
		}
	}
}

int main(int argc, char **argv)
{
	static const struct option lo[] = {
		{ "linktype", required_argument, NULL, 'l' },
		{ "nano", no_argument, NULL, 'n' },
		{ "pcapng", no_argument, NULL, 'g' },
		{ "hdr-ver", required_argument, NULL, 'V' },
		{ "skew", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 }
	};
	struct out o = { .dlt = DLT_EN10MB };
	char *line = NULL;
	size_t cap = 0;
	int opt;

	while ((opt = getopt_long(argc, argv, "l:ngV:s:", lo, NULL)) != -1) {
		switch (opt) {
		case 'l':
			if (!strcmp(optarg, "en10mb"))
				o.dlt = DLT_EN10MB;
			else if (!strcmp(optarg, "sll"))
				o.dlt = DLT_LINUX_SLL;
			else if (!strcmp(optarg, "sll2"))
				o.dlt = DLT_LINUX_SLL2;
			else if (!strcmp(optarg, "raw"))
				o.dlt = DLT_RAW;
			else
				die("unknown link type %s", optarg);
			break;
		case 'n':
			o.nano = true;
			break;
		case 'g':
			o.pcapng = true;
			break;
		case 'V':
			hdr_ver_default = atoi(optarg);
			break;
		case 's':
			skew_ns = parse_skew(optarg);
			break;
		default:
			return 2;
		}
	}
	if (optind >= argc)
		die("%s", "usage: gen-smcdump-pcap [-l TYPE] [-n] [-g] OUT [bench SIZE] < SPEC");
	out_open(&o, argv[optind]);
	if (optind + 2 < argc && !strcmp(argv[optind + 1], "bench"))
		bench(&o, num(argv[optind + 2]));
	else
		while (getline(&line, &cap, stdin) > 0)
			spec_line(&o, line);
	free(line);
	return out_close(&o) ? 1 : 0;
}
