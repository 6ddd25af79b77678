// SPDX-License-Identifier: GPL-2.0
/*
 * smc dump: one captured frame at a time. Finds SMC dump records (UDP),
 * the SMC TCP option in SYN and SYN-ACK, and CLC messages (TCP payload);
 * prints them for `read` (text or JSON through json_print) or hands them
 * to the connection tracker for `follow` and `stats`.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <arpa/inet.h>
#include <pcap/pcap.h>

#include "smcdump.h"
#include "decode.h"
#include "json_print.h"
#include "lgr.h"


/* At most this many cut CLC messages wait for their next segment; past
 * that, a cut message is shown as incomplete at once.
 */
#define DUMP_CLC_PARTS_MAX	1024
/* CLC header: eyecatcher (4), type (1), length (2), version and flags (1) */
#define CLC_HDR_BYTES		8

/**
 * struct dump_clc_part - a CLC message cut by the end of its TCP segment,
 *	kept until the next segments of the same direction complete it
 * @next: list in the context
 * @pkt: the first segment's packet (addresses and ports; no data)
 * @next_seq: TCP sequence number of the next byte the message needs
 * @frame: the first segment's frame number
 * @sec: its capture time, seconds
 * @nsec: its capture time, nanoseconds
 * @segs: segments the message came in so far
 * @have: bytes of the message in @buf
 * @len: the message's length from its header, 0 while the header is cut
 * @buf: the message so far, room for @len bytes (or the header)
 */
struct dump_clc_part {
	struct dump_clc_part *next;
	struct dump_pkt pkt;
	uint32_t next_seq;
	uint64_t frame;
	long long sec;
	uint32_t nsec;
	unsigned int segs;
	uint32_t have;
	uint32_t len;
	uint8_t *buf;
};

struct dump_ctx *dump_ctx_new(const struct dump_opts *o, int dlt,
			      int ns_digits, char *err, size_t errlen)
{
	struct dump_ctx *c = calloc(1, sizeof(*c));

	if (!c)
		goto nomem;
	c->o = *o;
	c->dlt = dlt;
	c->ns_digits = ns_digits;
	if (dump_conns_init(&c->conns))
		goto nomem;
	if (o->flags & (DUMP_F_ANALYZE | DUMP_F_TRACES)) {
		c->an = dump_analyze_new(&c->conns, o);
		if (!c->an)
			goto nomem;
	}
	/* the reports of stats and analyze, and graph's marks */
	if (c->an || (o->flags & DUMP_F_TRACK && !o->dir)) {
		c->lgrs = dump_lgrs_new();
		if (!c->lgrs)
			goto nomem;
		if (c->an)
			dump_analyze_set_lgrs(c->an, c->lgrs);
	}
	if (o->flags & DUMP_F_TRACK) {
		c->track = dump_track_new(&c->conns, o->dir, o->max_gap);
		if (!c->track) {
			int e = errno;

			snprintf(err, errlen, "%s: %s", o->dir ? o->dir :
				 "tracker", strerror(e));
			dump_ctx_free(c);
			errno = e;
			return NULL;
		}
		dump_track_set_owners(c->track, o->owners);
	}
	new_json_obj_fp(o->json, o->pretty, o->out ? o->out : stdout);
	return c;
nomem:
	snprintf(err, errlen, "out of memory");
	dump_ctx_free(c);
	errno = ENOMEM;
	return NULL;
}

struct dump_analyze *dump_ctx_analyzer(const struct dump_ctx *c)
{
	return c->an;
}

int dump_ctx_llc_marks(const struct dump_ctx *c, struct dump_llc_mark **marks,
		       size_t *n)
{
	return dump_lgrs_marks(c->lgrs, marks, n);
}

void dump_ctx_free(struct dump_ctx *c)
{
	if (!c)
		return;
	dump_track_free(c->track);
	dump_analyze_free(c->an);
	dump_lgrs_free(c->lgrs);
	dump_conns_release(&c->conns);
	dump_sseqs_release(&c->sseqs);
	while (c->clc_parts) {
		struct dump_clc_part *part = c->clc_parts;

		c->clc_parts = part->next;
		free(part->buf);
		free(part);
	}
	free(c->links);
	free(c->lhash);
	free(c);
}

/* "HH:MM:SS.ffffff" in local time, 6 or 9 fractional digits */
static void fmt_time(struct dump_ctx *c, long long sec, uint32_t nsec,
		     char *buf, size_t len)
{
	if (!c->tcache_valid || sec != c->tcache_sec) {
		time_t t = (time_t)sec;
		struct tm tm;

		if (localtime_r(&t, &tm))
			strftime(c->tcache, sizeof(c->tcache), "%H:%M:%S", &tm);
		else
			snprintf(c->tcache, sizeof(c->tcache), "%lld", sec);
		c->tcache_sec = sec;
		c->tcache_valid = true;
	}
	if (c->ns_digits == 9)
		snprintf(buf, len, "%s.%09u", c->tcache, nsec);
	else
		snprintf(buf, len, "%s.%06u", c->tcache, nsec / 1000);
}

/* Open the frame's JSON object; text: "FRAME TIME " */
static void print_head(struct dump_ctx *c, long long sec, uint32_t nsec)
{
	char t[40];

	open_json_object(NULL);
	print_u64(PRINT_ANY, "frame", "%" PRIu64 " ", c->frame);
	if (!is_json_context()) {
		fmt_time(c, sec, nsec, t, sizeof(t));
		print_string(PRINT_FP, NULL, "%s ", t);
	}
	print_s64(PRINT_JSON, "ts_sec", NULL, sec);
	print_uint(PRINT_JSON, "ts_nsec", NULL, nsec);
	/* a fraction of a second or more, or an all-ones seconds field:
	 * a broken capture header, not a time
	 */
	if (nsec >= 1000000000u || sec == 0xffffffffll || sec < 0) {
		print_bool(PRINT_JSON, "bogus_time", NULL, true);
		print_string(PRINT_FP, NULL, "%s", "bogus-time ");
	}
}

static void print_addrs(const struct dump_pkt *pkt)
{
	static const char *const keys[4] = {
		"src_address", "src_port", "dst_address", "dst_port"
	};

	dump_print_ends(pkt->family, pkt->src, pkt->sport, pkt->dst,
			pkt->dport, keys, "%s > ", "%s ");
}

static void print_end(void)
{
	close_json_object();
	print_nl();
}

/**
 * dump_print_hex() - the -x hex dump of payload bytes
 * @p: the bytes
 * @len: their number
 *
 * Text: lines of 16 bytes as tcpdump -X prints them (offset, hex in
 * groups of two bytes, ASCII). JSON: a member "hex", a string of two
 * lower-case hex digits per byte.
 */
void dump_print_hex(const uint8_t *p, uint32_t len)
{
	static const char hx[] = "0123456789abcdef";
	static char *buf;
	static size_t bufsz;
	uint32_t i, j;

	if (is_json_context()) {
		if (bufsz < 2 * (size_t)len + 1) {
			char *n = realloc(buf, 2 * (size_t)len + 1);

			if (!n)
				return;
			buf = n;
			bufsz = 2 * (size_t)len + 1;
		}
		for (i = 0; i < len; i++) {
			buf[2 * i] = hx[p[i] >> 4];
			buf[2 * i + 1] = hx[p[i] & 15];
		}
		buf[2 * len] = '\0';
		print_string(PRINT_JSON, "hex", NULL, buf);
		return;
	}
	for (i = 0; i < len; i += 16) {
		char line[96], *o = line;

		o += sprintf(o, "\t0x%04x:  ", i);
		for (j = 0; j < 16; j++) {
			if (i + j < len) {
				*o++ = hx[p[i + j] >> 4];
				*o++ = hx[p[i + j] & 15];
			} else {
				*o++ = ' ';
				*o++ = ' ';
			}
			if (j & 1)
				*o++ = ' ';
		}
		*o++ = ' ';
		for (j = 0; j < 16 && i + j < len; j++)
			*o++ = p[i + j] >= 0x20 && p[i + j] < 0x7f ?
			       (char)p[i + j] : '.';
		*o = '\0';
		print_string(PRINT_FP, NULL, "\n%s", line);
	}
}

/* Flag names: JSON an array (always), text " label [a,b]" when set.
 * Bits without a name show as their value, "0x04".
 */
static void print_flags(const char *key, const char *label, uint8_t v,
			const struct smc_flag_name *names)
{
	char buf[160], unk[8];
	size_t n = 0;
	uint8_t bit;
	int i;

	if (is_json_context())
		open_json_array(PRINT_JSON, key);
	buf[0] = '\0';
	for (bit = 0x80; bit; bit >>= 1) {
		const char *name = NULL;

		if (!(v & bit))
			continue;
		for (i = 0; names[i].name; i++)
			if (names[i].bit == bit)
				name = names[i].name;
		if (!name) {
			snprintf(unk, sizeof(unk), "0x%02x", bit);
			name = unk;
		}
		if (is_json_context())
			print_string(PRINT_JSON, NULL, NULL, name);
		else
			n += snprintf(buf + n, sizeof(buf) - n, "%s%s",
				      n ? "," : "", name);
	}
	if (is_json_context()) {
		close_json_array(PRINT_JSON, NULL);
	} else if (v) {
		print_string(PRINT_FP, NULL, " %s", label);
		print_string(PRINT_FP, NULL, " [%s]", buf);
	}
}

static void print_cursor(const char *key, uint16_t wrap, uint32_t count)
{
	if (is_json_context()) {
		open_json_object(key);
		print_uint(PRINT_JSON, "wrap", NULL, wrap);
		print_uint(PRINT_JSON, "count", NULL, count);
		close_json_object();
	} else {
		print_string(PRINT_FP, NULL, " %s", key);
		print_uint(PRINT_FP, NULL, " %u", wrap);
		print_uint(PRINT_FP, NULL, ":%u", count);
	}
}

static void print_cdc(struct dump_ctx *c, const struct dump_cdc *cdc)
{
	char buf[12];

	open_json_object("cdc");
	print_string(PRINT_FP, NULL, "%s", " cdc");
	if (!cdc->smcd) {
		print_uint(PRINT_ANY, "seqno", " seqno %u", cdc->seqno);
		snprintf(buf, sizeof(buf), "0x%08x", cdc->token);
		print_string(PRINT_ANY, "token", " alert-token %s", buf);
	}
	print_cursor("prod", cdc->prod_wrap, cdc->prod_count);
	print_cursor("cons", cdc->cons_wrap, cdc->cons_count);
	print_flags("prod_flags", "flags", cdc->prod_flags,
		    smc_cdc_prod_flag_names);
	print_flags("conn_state_flags", "state", cdc->conn_state_flags,
		    smc_cdc_conn_state_flag_names);
	if (c->o.details || is_json_context()) {
		print_hex(PRINT_ANY, "msg_type", " type 0x%02x", cdc->type);
		if (cdc->smcd)
			print_hex(PRINT_ANY, "prod_cursor_flags",
				  " prod-cursor-flags 0x%04x",
				  cdc->smcd_prod_flags2);
		else
			print_uint(PRINT_ANY, "msg_len", " cdc-len %u", cdc->len);
		print_hex(PRINT_ANY, "prod_flags_raw", " flags-raw 0x%02x",
			  cdc->prod_flags);
		print_hex(PRINT_ANY, "conn_state_flags_raw",
			  " state-raw 0x%02x", cdc->conn_state_flags);
	}
	close_json_object();
}

static const char *mode_name(uint8_t mode)
{
	if (mode == SMC_DUMP_MODE_SMCR)
		return "SMC-R";
	if (mode == SMC_DUMP_MODE_SMCD)
		return "SMC-D";
	return NULL;
}

static void print_mode(uint8_t mode)
{
	const char *m = mode_name(mode);

	char buf[16];

	if (!m) {
		snprintf(buf, sizeof(buf), "mode-%u", mode);
		m = buf;
	}
	print_string(PRINT_JSON, "mode", NULL, m);
	if (mode == SMC_DUMP_MODE_SMCR)
		print_string(PRINT_FP, NULL, "%s ", "SMC-R");
	else if (mode == SMC_DUMP_MODE_SMCD)
		print_string(PRINT_FP, NULL, "%s ", "SMC-D");
	else
		print_uint(PRINT_FP, NULL, "mode-%u ", mode);
}

static const char *type_unknown(uint8_t type, char *buf, size_t len)
{
	snprintf(buf, len, "type-%u", type);
	return buf;
}

static void print_error(const char *err)
{
	print_string(PRINT_ANY, "error", "malformed: %s", err);
}

/* What ends a record's line: the error, the payload in hex, the newline */
static void print_tail(const struct dump_ctx *c, const struct dump_rec *r,
		       const char *err)
{
	if (err) {
		print_string(PRINT_FP, NULL, "%s", " ");
		print_error(err);
	}
	if (c->o.hex)
		dump_print_hex(r->payload, r->payload_len);
	print_end();
}

/* An LLC record's link (struct smc_dump_llc_link) and its message */
static void print_llc(const struct dump_ctx *c, const struct dump_rec *r)
{
	const uint8_t *p = r->payload, *m = p + DUMP_LLC_LINK_LEN;
	char buf[INET6_ADDRSTRLEN], note[DUMP_ERRLEN];
	const char *name;
	size_t len;
	bool bad, be;

	if (r->payload_len < DUMP_LLC_LINK_LEN + 4)
		return;	/* the capture cut it: "captured" says so */
	snprintf(buf, sizeof(buf), "0x%08x", get_be32(p));
	print_string(PRINT_ANY, "lgr_id", " lgr %s", buf);
	print_uint(PRINT_ANY, "link_id", " link %u", p[4]);
	print_uint(PRINT_ANY, "qpn", " qp %u", get_be32(p + 8));
	print_uint(PRINT_ANY, "peer_qpn", " peer-qp %u", get_be32(p + 12));
	inet_ntop(AF_INET6, p + 16, buf, sizeof(buf));
	print_string(PRINT_ANY, "gid", " gid %s", buf);
	inet_ntop(AF_INET6, p + 32, buf, sizeof(buf));
	print_string(PRINT_ANY, "peer_gid", " peer-gid %s", buf);
	name = dump_llc_name(m[0]);
	if (name) {
		print_string(PRINT_ANY, "msg_type", " %s", name);
	} else {
		snprintf(buf, sizeof(buf), "0x%02x", m[0]);
		print_string(PRINT_ANY, "msg_type", " llc-type %s", buf);
	}
	/* the response flag: byte 3 of v1 and v2 headers alike */
	print_bool(PRINT_JSON, "response", NULL, m[3] & 0x80);
	if (m[3] & 0x80)
		print_string(PRINT_FP, NULL, "%s", " response");
	be = dump_llc_big_endian(r);
	len = dump_llc_check(m, r->payload_len - DUMP_LLC_LINK_LEN,
			     r->payload_wire_len - DUMP_LLC_LINK_LEN,
			     be, &bad, note, sizeof(note));
	dump_llc_print(m, len, be, c->o.details);
	/* a length that is odd but leaves the fields whole: said, not
	 * counted (a malformed one is the record's error)
	 */
	if (!bad && note[0])
		print_string(PRINT_ANY, "llc_note", " note: %s", note);
}

/* A record whose whole header was decoded (level 2), or a legacy one;
 * @k its connection's end (-d only), else NULL
 */
static void print_record(struct dump_ctx *c, long long sec, uint32_t nsec,
			 const struct dump_pkt *pkt, const struct dump_rec *r,
			 const struct dump_conn *k, const struct dump_cdc *cdc,
			 const char *err)
{
	char buf[24];
	bool brief;

	print_head(c, sec, nsec);
	print_mode(r->mode);
	if (r->legacy) {
		print_addrs(pkt);
		print_string(PRINT_ANY, "type", "%s", "legacy");
		print_uint(PRINT_ANY, "hdr_ver", " hdr_ver %u", r->hdr_ver);
		print_uint(PRINT_ANY, "smc_ver", " smc_ver %u", r->smc_ver);
		if (r->type == SMC_DUMP_TYPE_RAW)
			print_string(PRINT_ANY, "rec_type", " type %s", "data");
		else if (r->type == SMC_DUMP_TYPE_CDC)
			print_string(PRINT_ANY, "rec_type", " type %s", "cdc");
		else
			print_uint(PRINT_ANY, "rec_type", " type %u", r->type);
		print_uint(PRINT_ANY, "len", " len %u", r->len);
		print_uint(PRINT_ANY, "raw_len", " raw %u", r->payload_wire_len);
		if (r->cap_trunc)
			print_uint(PRINT_ANY, "cap_len", " captured %u",
				   r->payload_len);
		else
			print_uint(PRINT_JSON, "cap_len", NULL, r->payload_len);
		print_tail(c, r, err);
		return;
	}
	print_string(PRINT_ANY, "dir", "%s ",
		     r->flags & SMC_DUMP_F_RX ? "rx" : "tx");
	print_addrs(pkt);
	snprintf(buf, sizeof(buf), "0x%08x", r->token);
	print_string(PRINT_ANY, "token", "token %s", buf);
	if (k && c->o.details)	/* both ends say their connection's number */
		print_u64(PRINT_ANY, "conn", " conn %" PRIu64,
			  (uint64_t)k->conn);
	if (k && c->o.details && c->o.owners) {
		if (c->owner_k != k) {
			c->owner_k = k;
			c->owner_w = dump_owner_find(c->o.owners, k->token,
						     k->family, k->laddr,
						     k->lport, k->raddr,
						     k->rport);
		}
		dump_print_owner(c->owner_w);
	}
	if (r->type == SMC_DUMP_TYPE_RAW)
		print_string(PRINT_ANY, "type", " %s", "data");
	else if (r->type == SMC_DUMP_TYPE_CDC)
		print_string(PRINT_JSON, "type", NULL, "cdc"); /* print_cdc */
	else if (r->type == SMC_DUMP_TYPE_LLC && r->hdr_ver >= 4)
		print_string(PRINT_ANY, "type", " %s", "llc");
	else
		print_string(PRINT_ANY, "type", " %s",
			     type_unknown(r->type, buf, sizeof(buf)));
	print_uint(c->o.details ? PRINT_ANY : PRINT_JSON, "seq", " seq %u",
		   r->seq);
	if (r->has_sseq)
		print_uint(c->o.details ? PRINT_ANY : PRINT_JSON, "stream_seq",
			   " stream-seq %u", r->stream_seq);
	print_uint(c->o.details ? PRINT_ANY : PRINT_JSON, "hdr_ver",
		   " hdr_ver %u", r->hdr_ver);
	print_uint(c->o.details ? PRINT_ANY : PRINT_JSON, "smc_ver",
		   " smc_ver %u", r->smc_ver);
	print_uint(c->o.details ? PRINT_ANY : PRINT_JSON, "hdr_len",
		   " hdr_len %u", r->hdr_len);
	print_hex(c->o.details ? PRINT_ANY : PRINT_JSON, "flags",
		  " flags 0x%02x", r->flags);
	brief = r->type == SMC_DUMP_TYPE_CDC || r->type == SMC_DUMP_TYPE_LLC;
	if (!brief || c->o.details || is_json_context())
		print_u64(PRINT_ANY, "offset", " offset %" PRIu64, r->offset);
	if (!brief || c->o.details || is_json_context())
		print_uint(PRINT_ANY, "len", " len %u", r->payload_wire_len);
	print_uint(r->flags & SMC_DUMP_F_TRUNC || c->o.details ? PRINT_ANY :
		   PRINT_JSON, "orig_len", " orig_len %u", r->orig_len);
	print_bool(PRINT_JSON, "truncated", NULL, r->flags & SMC_DUMP_F_TRUNC);
	if (r->flags & SMC_DUMP_F_TRUNC)
		print_string(PRINT_FP, NULL, "%s", " truncated");
	if (r->flags & SMC_DUMP_F_FAILED)
		print_string(PRINT_FP, NULL, "%s", " failed");
	print_uint(r->cap_trunc ? PRINT_ANY : PRINT_JSON, "cap_len",
		   " captured %u", r->payload_len);
	if (cdc)
		print_cdc(c, cdc);
	if (r->type == SMC_DUMP_TYPE_LLC && (!err || r->llc_bad))
		print_llc(c, r);
	print_tail(c, r, err);
}

/* A frame that could not be decoded far enough for print_record(). */
static void print_malformed(struct dump_ctx *c, long long sec, uint32_t nsec,
			    const struct dump_pkt *pkt, const char *err)
{
	print_head(c, sec, nsec);
	if (pkt && pkt->family)
		print_addrs(pkt);
	print_string(PRINT_JSON, "type", NULL, "malformed");
	print_error(err);
	print_end();
}

/* Count a malformed frame; DUMP_F_PRINT prints it among the records (with
 * addresses when @pkt has them), other runs tell it on stderr.
 */
static void malformed(struct dump_ctx *c, long long sec, uint32_t nsec,
		      const struct dump_pkt *pkt, const char *why)
{
	c->cnt[DUMP_CNT_MALFORMED]++;
	if (c->o.flags & DUMP_F_PRINT)
		print_malformed(c, sec, nsec, pkt, why);
	else
		fprintf(stderr, "smc dump: frame %" PRIu64 ": %s\n", c->frame,
			why);
}

/* The link a frame came over: its source MAC (Ethernet), interface
 * index (Linux cooked v2), source address (cooked v1) or none (raw IP).
 */
static size_t link_key(const struct dump_ctx *c, const struct dump_pkt *pkt,
		       uint8_t *key)
{
	if (c->dlt == DLT_LINUX_SLL2 && pkt->has_ifindex) {
		key[0] = (uint8_t)(pkt->ifindex >> 24);
		key[1] = (uint8_t)(pkt->ifindex >> 16);
		key[2] = (uint8_t)(pkt->ifindex >> 8);
		key[3] = (uint8_t)pkt->ifindex;
		return 4;
	}
	memcpy(key, pkt->l2_addr, pkt->l2_addr_len);
	return pkt->l2_addr_len;
}

static size_t link_hash(const uint8_t *key, size_t n)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ key[i]) * 1099511628211ull;
	h = (h ^ n) * 1099511628211ull;
	return (size_t)(h ^ (h >> 29));
}

static int link_rehash(struct dump_ctx *c)
{
	size_t n = c->lhsize ? c->lhsize * 2 : 64, i, j;
	uint32_t *h = calloc(n, sizeof(*h));

	if (!h)
		return -1;
	for (i = 0; i < c->nlinks; i++) {
		j = link_hash(c->links[i].key, c->links[i].key_len) & (n - 1);
		while (h[j])
			j = (j + 1) & (n - 1);
		h[j] = (uint32_t)(i + 1);
	}
	free(c->lhash);
	c->lhash = h;
	c->lhsize = n;
	return 0;
}

static struct dump_link *link_find(struct dump_ctx *c,
				   const struct dump_pkt *pkt, bool create)
{
	uint8_t key[12];
	size_t n = link_key(c, pkt, key), i;
	struct dump_link *l;

	if (c->lhsize) {
		i = link_hash(key, n) & (c->lhsize - 1);
		for (; c->lhash[i]; i = (i + 1) & (c->lhsize - 1)) {
			l = &c->links[c->lhash[i] - 1];
			if (l->key_len == n && !memcmp(l->key, key, n))
				return l;
		}
	}
	if (!create || c->nomem)
		return NULL;
	if (c->nlinks == c->linkcap) {
		size_t cap = c->linkcap ? c->linkcap * 2 : 8;
		struct dump_link *v;

		if (cap > UINT32_MAX - 1)
			cap = UINT32_MAX - 1;
		v = cap > c->nlinks ? realloc(c->links, cap * sizeof(*v)) : NULL;
		if (!v) {
			c->nomem = true;
			return NULL;
		}
		c->links = v;
		c->linkcap = cap;
	}
	if (2 * (c->nlinks + 1) > c->lhsize && link_rehash(c)) {
		c->nomem = true;
		return NULL;
	}
	l = &c->links[c->nlinks];
	memset(l, 0, sizeof(*l));
	memcpy(l->key, key, n);
	l->key_len = (uint8_t)n;
	l->ifindex = c->dlt == DLT_LINUX_SLL2 && pkt->has_ifindex;
	i = link_hash(key, n) & (c->lhsize - 1);
	while (c->lhash[i])
		i = (i + 1) & (c->lhsize - 1);
	c->lhash[i] = (uint32_t)(++c->nlinks);
	return l;
}

/* Sequence numbers of the link's records: gaps are records lost or, from
 * hdr_ver 4 on, told apart by stream_seq, records a tap's filter left out.
 * Returns the link, NULL when there was no memory for it.
 */
static struct dump_link *link_seq(struct dump_ctx *c,
				  const struct dump_pkt *pkt, uint32_t seq)
{
	struct dump_link *l = link_find(c, pkt, true);
	uint32_t d;

	if (!l)
		return NULL;
	if (!l->records++) {
		l->first_seq = seq;
	} else if (seq != l->next_seq) {
		d = seq - l->next_seq;
		if (d < 0x80000000u) {
			l->gaps++;
			l->lost += d;
		} else {
			/* Two CPUs can hand records to the taps out of order:
			 * a late one fills a gap counted as lost. Keep
			 * expecting the higher number.
			 */
			l->reordered++;
			if (l->lost)
				l->lost--;
			return l;
		}
	}
	l->next_seq = seq + 1;
	return l;
}

static void decode_udp(struct dump_ctx *c, long long sec, uint32_t nsec,
		       const struct dump_pkt *pkt, bool cand)
{
	struct dump_cdc cdc, *pcdc = NULL;
	struct dump_conn *k = NULL;
	char err[DUMP_ERRLEN];
	struct dump_link *l;
	struct dump_rec r;
	int rc;

	if (!(pkt->data_len >= 4 && get_be32(pkt->data) == SMC_DUMP_MAGIC) &&
	    !cand) {
		c->cnt[DUMP_CNT_SKIPPED]++;
		return;
	}
	c->cnt[DUMP_CNT_RECORDS]++;
	if (pkt->fragment) {
		malformed(c, sec, nsec, pkt, "record in an IP fragment");
		return;
	}
	rc = dump_parse_record(pkt->data, pkt->data_len, pkt->data_wire_len,
			       &r, err, sizeof(err));
	if (r.legacy) {
		if (rc == DUMP_OK)
			c->cnt[DUMP_CNT_LEGACY]++;
		if (rc == DUMP_OK && c->an)
			dump_analyze_record(c->an, c->frame, sec, nsec, NULL,
					    &r, NULL);
		else if (rc != DUMP_OK)
			c->cnt[DUMP_CNT_MALFORMED]++;
		if (c->o.flags & DUMP_F_PRINT)
			print_record(c, sec, nsec, pkt, &r, NULL, NULL,
				     rc == DUMP_OK ? NULL : err);
		else if (rc != DUMP_OK)
			fprintf(stderr, "smc dump: frame %" PRIu64 ": %s\n",
				c->frame, err);
		return;
	}
	if (r.level < 2) {
		malformed(c, sec, nsec, pkt, err);
		return;
	}
	if (rc == DUMP_OK && r.type == SMC_DUMP_TYPE_CDC) {
		if (r.cap_trunc) {
			snprintf(err, sizeof(err),
				 "CDC message cut by the capture snaplen (%u of %u bytes)",
				 r.payload_len, r.payload_wire_len);
			rc = DUMP_BAD;
		} else {
			/* the record says its byte order from hdr_ver 4
			 * on; older ones take the reader's word
			 */
			rc = dump_parse_cdc(r.payload, r.payload_len,
					    r.mode == SMC_DUMP_MODE_SMCD,
					    r.has_sseq ? r.big_endian :
					    c->o.cdc_big_endian, &cdc, err,
					    sizeof(err));
			if (r.payload_len >= (r.mode == SMC_DUMP_MODE_SMCD ?
					      DUMP_CDC_D_LEN : DUMP_CDC_R_LEN))
				pcdc = &cdc;
		}
	}
	/* an LLC message shorter than its type needs: malformed, no event
	 * of its link group
	 */
	if (rc == DUMP_OK && r.type == SMC_DUMP_TYPE_LLC &&
	    r.payload_len >= DUMP_LLC_LINK_LEN + DUMP_LLC_MIN) {
		dump_llc_check(r.payload + DUMP_LLC_LINK_LEN,
			       r.payload_len - DUMP_LLC_LINK_LEN,
			       r.payload_wire_len - DUMP_LLC_LINK_LEN,
			       dump_llc_big_endian(&r), &r.llc_bad, err,
			       sizeof(err));
		if (r.llc_bad)
			rc = DUMP_BAD;
	}
	if (rc == DUMP_OK) {
		c->cnt[r.type == SMC_DUMP_TYPE_CDC ? DUMP_CNT_CDC :
		       r.type == SMC_DUMP_TYPE_LLC ? DUMP_CNT_LLC :
						     DUMP_CNT_DATA]++;
		l = link_seq(c, pkt, r.seq);
		/* plain read looks no connection up: only -d says it */
		if (r.type != SMC_DUMP_TYPE_LLC &&
		    (c->track || c->an ||
		     (c->o.flags & DUMP_F_PRINT && c->o.details)))
			k = dump_conns_get(&c->conns, pkt, &r, pcdc);
		/* stream loss shows only in the reports: read keeps its
		 * per-record path as it was
		 */
		if (r.has_sseq && l && (c->track || c->an)) {
			l->sseq_records++;
			if (k)
				k->has_sseq = true;
			dump_sseqs_add(&c->sseqs, (uint32_t)(l - c->links), k,
				       r.token, r.mode, r.flags & SMC_DUMP_F_RX,
				       r.type, r.stream_seq);
		}
		/* an LLC record is of a link group: no connection, no stream */
		if (c->track && r.type != SMC_DUMP_TYPE_LLC)
			dump_track_record(c->track, k, &r, pcdc);
		if (c->an && r.type != SMC_DUMP_TYPE_LLC)
			dump_analyze_record(c->an, c->frame, sec, nsec, k, &r,
					    pcdc);
		if (c->lgrs && r.type == SMC_DUMP_TYPE_LLC)
			dump_lgrs_llc(c->lgrs, c->frame, sec, nsec, &r);
		else if (c->lgrs && k && r.type == SMC_DUMP_TYPE_RAW)
			dump_lgrs_data(c->lgrs, k, &r);
	} else {
		c->cnt[DUMP_CNT_MALFORMED]++;
	}
	if (c->o.flags & DUMP_F_PRINT)
		print_record(c, sec, nsec, pkt, &r, k, pcdc,
			     rc == DUMP_OK ? NULL : err);
	else if (rc != DUMP_OK)
		fprintf(stderr, "smc dump: frame %" PRIu64 ": %s\n", c->frame,
			err);
}

/* one CLC message at @p (@avail bytes); @part when it was reassembled */
static void emit_clc(struct dump_ctx *c, long long sec, uint32_t nsec,
		     const struct dump_pkt *pkt, const uint8_t *p,
		     uint32_t avail, const struct dump_clc_part *part,
		     uint32_t *used, bool *incomplete)
{
	bool print = c->o.flags & DUMP_F_PRINT, smcd;
	char err[DUMP_ERRLEN];
	uint32_t size;
	int rc;

	c->cnt[DUMP_CNT_CLC]++;
	if (print) {
		print_head(c, sec, nsec);
		print_addrs(pkt);
		print_string(PRINT_JSON, "type", NULL, "clc");
	}
	rc = dump_decode_clc(&c->o, p, avail, !print, used, incomplete, err,
			     sizeof(err));
	if (rc != DUMP_OK)
		c->cnt[DUMP_CNT_MALFORMED]++;
	else if (c->an && !*incomplete &&
		 dump_clc_peer_buf(p, *used, &smcd, &size))
		dump_analyze_clc(c->an, c->frame, pkt, size);
	if (print) {
		if (part && part->segs > 1) {
			print_uint(PRINT_ANY, "segments", " segments %u",
				   part->segs);
			print_u64(PRINT_ANY, "first_frame",
				  " first-frame %" PRIu64, part->frame);
		}
		if (rc != DUMP_OK) {
			print_string(PRINT_FP, NULL, "%s", " ");
			print_error(err);
		}
		if (c->o.hex)
			dump_print_hex(p, *used);
		print_end();
	} else if (rc != DUMP_OK) {
		fprintf(stderr, "smc dump: frame %" PRIu64 ": %s\n", c->frame,
			err);
	}
}

static bool same_flow(const struct dump_pkt *a, const struct dump_pkt *b)
{
	size_t n = a->family == AF_INET6 ? 16 : 4;

	return a->family == b->family && a->sport == b->sport &&
	       a->dport == b->dport && !memcmp(a->src, b->src, n) &&
	       !memcmp(a->dst, b->dst, n);
}

static struct dump_clc_part **clc_part_find(struct dump_ctx *c,
					    const struct dump_pkt *pkt)
{
	struct dump_clc_part **pp;

	for (pp = &c->clc_parts; *pp; pp = &(*pp)->next)
		if (same_flow(&(*pp)->pkt, pkt))
			return pp;
	return NULL;
}

/* take a waiting message out of the list and show it as it is, at the
 * frame and time where it completed (@sec, @nsec) or, when @at_first,
 * at those of its first segment
 */
static void clc_part_emit(struct dump_ctx *c, struct dump_clc_part **pp,
			  bool at_first, long long sec, uint32_t nsec)
{
	struct dump_clc_part *part = *pp;
	uint64_t frame = c->frame;
	bool incomplete;
	uint32_t used;

	*pp = part->next;
	c->nclc_parts--;
	if (at_first) {
		c->frame = part->frame;
		sec = part->sec;
		nsec = part->nsec;
	}
	emit_clc(c, sec, nsec, &part->pkt, part->buf, part->have, part,
		 &used, &incomplete);
	c->frame = frame;
	free(part->buf);
	free(part);
}

/* keep the message at @off of @pkt, cut by the segment's end, for the
 * segments that follow; false when it cannot wait (then it is shown as
 * incomplete at once)
 */
static bool clc_part_new(struct dump_ctx *c, long long sec, uint32_t nsec,
			 const struct dump_pkt *pkt, uint32_t off,
			 uint32_t len)
{
	uint32_t have = pkt->data_len - off;
	struct dump_clc_part *part;

	/* a segment the capture's snaplen cut: its sequence numbers say
	 * nothing of what is missing
	 */
	if (pkt->data_len < pkt->data_wire_len ||
	    c->nclc_parts >= DUMP_CLC_PARTS_MAX)
		return false;
	part = calloc(1, sizeof(*part));
	if (!part)
		return false;
	part->buf = malloc(len ? len : CLC_HDR_BYTES);
	if (!part->buf) {
		free(part);
		return false;
	}
	part->pkt = *pkt;
	part->pkt.data = NULL;
	part->pkt.data_len = 0;
	part->next_seq = pkt->tcp_seq + pkt->data_len;
	part->frame = c->frame;
	part->sec = sec;
	part->nsec = nsec;
	part->segs = 1;
	part->have = have;
	part->len = len;
	memcpy(part->buf, pkt->data + off, have);
	part->next = c->clc_parts;
	c->clc_parts = part;
	c->nclc_parts++;
	return true;
}

enum clc_part_rc {
	CLC_PART_NONE,	/* the segment has nothing for the message */
	CLC_PART_OLD,	/* a retransmission of bytes the message has */
	CLC_PART_WAIT,	/* taken; the message waits for more */
	CLC_PART_DONE,	/* the message was shown; *off: bytes it took */
};

/* the bytes of @pkt that continue the waiting message *@pp */
static enum clc_part_rc clc_part_add(struct dump_ctx *c, long long sec,
				     uint32_t nsec, struct dump_clc_part **pp,
				     const struct dump_pkt *pkt,
				     uint32_t *off)
{
	struct dump_clc_part *part = *pp;
	uint32_t skip = part->next_seq - pkt->tcp_seq;
	uint32_t avail, want, n;
	const uint8_t *src;
	uint8_t *buf;

	*off = 0;
	if (!pkt->data_len)
		return CLC_PART_NONE;
	if (skip >= pkt->data_len) {
		/* sequence numbers before the next byte: bytes already
		 * taken; after it: bytes that were never captured
		 */
		if (skip < 1u << 31)
			return CLC_PART_OLD;
		clc_part_emit(c, pp, true, sec, nsec);
		return CLC_PART_NONE;
	}
	src = pkt->data + skip;
	avail = pkt->data_len - skip;
	while (avail) {
		want = (part->len ? part->len : CLC_HDR_BYTES) - part->have;
		n = avail < want ? avail : want;
		memcpy(part->buf + part->have, src, n);
		part->have += n;
		part->next_seq += n;
		src += n;
		avail -= n;
		if (part->len)
			break;
		if (part->have < CLC_HDR_BYTES)
			continue;
		/* the header is whole now: room for the message */
		part->len = dump_clc_msg_len(part->buf, part->have);
		if (!part->len)
			break;
		buf = realloc(part->buf, part->len);
		if (!buf) {
			part->len = 0;
			break;
		}
		part->buf = buf;
	}
	part->segs++;
	*off = pkt->data_len - avail;
	if (pkt->data_len == pkt->data_wire_len &&
	    ((!part->len && part->have < CLC_HDR_BYTES) ||
	     (part->len && part->have < part->len)))
		return CLC_PART_WAIT;
	clc_part_emit(c, pp, false, sec, nsec);
	return CLC_PART_DONE;
}

/* The end of the input: CLC messages whose segments did not all arrive
 * are shown as incomplete, in frame order, at the frame and time of
 * their first segment.
 */
static void clc_parts_flush(struct dump_ctx *c)
{
	struct dump_clc_part **pp, **first;

	while (c->clc_parts) {
		first = &c->clc_parts;
		for (pp = &c->clc_parts; *pp; pp = &(*pp)->next)
			if ((*pp)->frame < (*first)->frame)
				first = pp;
		clc_part_emit(c, first, true, 0, 0);
	}
}

static void decode_tcp(struct dump_ctx *c, long long sec, uint32_t nsec,
		       const struct dump_pkt *pkt)
{
	bool print = c->o.flags & DUMP_F_PRINT, incomplete, any = false;
	struct dump_clc_part **pp;
	uint32_t off = 0, used, avail, len;

	if (pkt->tcp_flags & DUMP_TCP_SYN) {
		c->cnt[DUMP_CNT_SYN]++;
		if (print) {
			bool ack = pkt->tcp_flags & DUMP_TCP_ACK;

			print_head(c, sec, nsec);
			print_string(PRINT_FP, NULL, "%s ", "TCP");
			print_addrs(pkt);
			print_string(PRINT_JSON, "type", NULL, "tcp");
			print_string(PRINT_ANY, "tcp_flags", "%s",
				     ack ? "SYN-ACK" : "SYN");
			print_bool(PRINT_JSON, "smc_option", NULL,
				   pkt->tcp_smc_opt);
			print_string(PRINT_FP, NULL, " %s",
				     pkt->tcp_smc_opt ? "smc" : "no-smc");
			print_end();
		}
		return;
	}
	/* a CLC message that an earlier segment of this direction began */
	pp = clc_part_find(c, pkt);
	if (pp) {
		switch (clc_part_add(c, sec, nsec, pp, pkt, &off)) {
		case CLC_PART_OLD:
			c->cnt[DUMP_CNT_SKIPPED]++;
			return;
		case CLC_PART_WAIT:
			return;
		case CLC_PART_DONE:
			any = true;
			break;
		case CLC_PART_NONE:
			break;
		}
	}
	while (pkt->data_len - off >= 4 &&
	       dump_clc_is_eyecatcher(pkt->data + off)) {
		any = true;
		avail = pkt->data_len - off;
		len = dump_clc_msg_len(pkt->data + off, avail);
		/* cut by the segment's end: the next segments complete it */
		if ((avail < CLC_HDR_BYTES || len > avail) &&
		    clc_part_new(c, sec, nsec, pkt, off, len))
			break;
		emit_clc(c, sec, nsec, pkt, pkt->data + off, avail, NULL,
			 &used, &incomplete);
		off += used;
		if (!used || incomplete)
			break;
	}
	if (!any)
		c->cnt[DUMP_CNT_SKIPPED]++;
}

/**
 * dump_decode_frame() - decode one captured frame
 * @c: the run; c->frame is advanced first
 * @ts_sec: capture time, seconds since the epoch
 * @ts_nsec: capture time, nanoseconds (0..999999999)
 * @data: the frame as captured
 * @caplen: bytes at @data
 *
 * UDP payloads that start with the SMC dump magic are records; so is
 * any UDP payload of a frame from an smc-dummy link (Ethernet with equal
 * source and destination MAC, or a cooked-capture interface that already
 * carried records), where a wrong magic makes it malformed. Other UDP is
 * skipped. TCP: SYN and SYN-ACK are shown with their SMC option status,
 * and payloads that start with a CLC eyecatcher are decoded as CLC.
 * In Linux cooked captures, the sent copy of a packet on a loopback
 * device is skipped: the capture has it again as received.
 */
void dump_decode_frame(struct dump_ctx *c, long long ts_sec,
		       uint32_t ts_nsec, const uint8_t *data,
		       uint32_t caplen)
{
	char err[DUMP_ERRLEN];
	struct dump_pkt pkt;
	bool cand;
	int rc;

	c->frame++;
	c->cnt[DUMP_CNT_FRAMES]++;
	if (c->an)
		dump_analyze_time(c->an, ts_sec, ts_nsec);
	if (c->lgrs)
		dump_lgrs_time(c->lgrs, ts_sec, ts_nsec);
	rc = dump_parse_frame(c->dlt, data, caplen, &pkt, err, sizeof(err));
	/* tcpdump -i any sees each packet on lo twice: keep the received
	 * copy (the handshake of connections to a local address)
	 */
	if (rc == DUMP_SKIP || pkt.loop_out) {
		c->cnt[DUMP_CNT_SKIPPED]++;
		return;
	}
	cand = pkt.l2_self ||
	       ((c->dlt == DLT_LINUX_SLL || c->dlt == DLT_LINUX_SLL2) &&
		link_find(c, &pkt, false));
	if (rc == DUMP_BAD) {
		if (cand && pkt.l4 != DUMP_L4_TCP) {
			c->cnt[DUMP_CNT_RECORDS]++;
			malformed(c, ts_sec, ts_nsec, &pkt, err);
		} else {
			c->cnt[DUMP_CNT_SKIPPED]++;
		}
		return;
	}
	if (pkt.l4 == DUMP_L4_UDP) {
		decode_udp(c, ts_sec, ts_nsec, &pkt, cand);
	} else if (pkt.l4 == DUMP_L4_TCP) {
		decode_tcp(c, ts_sec, ts_nsec, &pkt);
	} else if (pkt.fragment && cand) {
		c->cnt[DUMP_CNT_RECORDS]++;
		malformed(c, ts_sec, ts_nsec, &pkt, "record in an IP fragment");
	} else {
		c->cnt[DUMP_CNT_SKIPPED]++;
	}
}

static void fmt_link(const struct dump_link *l, char *buf, size_t len)
{
	size_t i, n = 0;

	if (l->ifindex && l->key_len == 4) {
		snprintf(buf, len, "ifindex %u", get_be32(l->key));
		return;
	}
	if (!l->key_len) {
		snprintf(buf, len, "-");
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < l->key_len && n + 4 < len; i++)
		n += snprintf(buf + n, len - n, "%s%02x", i ? ":" : "",
			      l->key[i]);
}

void dump_decode_input(struct dump_ctx *c, struct dump_reader *r)
{
	bool live = dump_reader_live(r);
	char err[DUMP_READER_ERRLEN];
	long long last_sec = 0;
	uint32_t last_nsec = 0;
	struct dump_frame f;
	int rc;

	for (;;) {
		rc = dump_reader_next(r, &f, err, sizeof(err));
		switch (rc) {
		case DUMP_READ_FRAME:
			last_sec = f.sec;
			last_nsec = f.nsec;
			c->dlt = f.dlt;
			c->ns_digits = f.ns_digits;
			dump_decode_frame(c, f.sec, f.nsec, f.data, f.caplen);
			if (live && fflush(json_out()))
				return;
			break;
		case DUMP_READ_SKIP:
			if (*err)
				fprintf(stderr, "Warning: %s\n", err);
			c->frame++;
			c->cnt[DUMP_CNT_FRAMES]++;
			c->cnt[DUMP_CNT_SKIPPED]++;
			break;
		case DUMP_READ_BAD:
		case DUMP_READ_CUT:
			c->frame++;
			malformed(c, last_sec, last_nsec, NULL, err);
			if (rc == DUMP_READ_CUT)
				return;
			break;
		default:
			return;
		}
	}
}

/* What follow or stats found: one entry per connection
 * (dump_track_report()), one per smc-dummy link (record sequence gaps)
 * and the totals; text or JSON. Returns 0, or 3 when follow could not
 * write a stream file or memory ran out (the report says which).
 */
static int track_report(struct dump_ctx *c)
{
	struct dump_track_totals tot;
	uint64_t gaps = 0, lost = 0;
	char buf[40];
	size_t i;

	open_json_object(NULL);
	dump_track_report(c->track, &tot);
	open_json_array(PRINT_JSON, "links");
	for (i = 0; i < c->nlinks; i++) {
		const struct dump_link *l = &c->links[i];
		/* stream_seq tells loss from what a filter left out; only
		 * records without it leave the link's seq gaps to tell. A
		 * record late on the link (two CPUs) is late by the link's
		 * own numbers, which its gaps are counted in, whether or not
		 * its stream saw it late too
		 */
		uint64_t l_lost = l->sseq_records ? l->sseq_lost : l->lost;
		uint64_t l_late = l->reordered;

		gaps += l->gaps;
		lost += l_lost;
		open_json_object(NULL);
		fmt_link(l, buf, sizeof(buf));
		print_string(PRINT_ANY, "link", "link %s", buf);
		print_u64(PRINT_ANY, "records", " records %" PRIu64,
			  l->records);
		print_uint(PRINT_ANY, "first_seq", " first-seq %u",
			   l->first_seq);
		print_uint(PRINT_ANY, "next_seq", " next-seq %u", l->next_seq);
		print_u64(PRINT_ANY, "seq_gaps", " seq-gaps %" PRIu64, l->gaps);
		print_u64(PRINT_ANY, "lost", " lost %" PRIu64, l_lost);
		print_u64(PRINT_ANY, "reordered", " reordered %" PRIu64,
			  l_late);
		close_json_object();
		print_nl();
	}
	close_json_array(PRINT_JSON, NULL);
	/* follow has none: its report is of the streams */
	if (c->lgrs) {
		dump_lgrs_report(c->lgrs, "\t", NULL);
		if (dump_lgrs_nomem(c->lgrs))
			c->nomem = true;
	}

	open_json_object("total");
	print_string(PRINT_FP, NULL, "%s", "total:");
	print_u64(PRINT_ANY, "frames", " frames %" PRIu64,
		  c->cnt[DUMP_CNT_FRAMES]);
	print_u64(PRINT_ANY, "records", " records %" PRIu64,
		  c->cnt[DUMP_CNT_RECORDS]);
	print_u64(PRINT_ANY, "data", " data %" PRIu64, c->cnt[DUMP_CNT_DATA]);
	print_u64(PRINT_ANY, "cdc", " cdc %" PRIu64, c->cnt[DUMP_CNT_CDC]);
	if (c->cnt[DUMP_CNT_LLC])
		print_u64(PRINT_ANY, "llc", " llc %" PRIu64,
			  c->cnt[DUMP_CNT_LLC]);
	print_u64(PRINT_ANY, "legacy", " legacy %" PRIu64,
		  c->cnt[DUMP_CNT_LEGACY]);
	print_u64(PRINT_ANY, "clc", " clc %" PRIu64, c->cnt[DUMP_CNT_CLC]);
	print_u64(PRINT_ANY, "syn", " syn %" PRIu64, c->cnt[DUMP_CNT_SYN]);
	print_u64(PRINT_ANY, "skipped", " skipped %" PRIu64,
		  c->cnt[DUMP_CNT_SKIPPED]);
	print_u64(PRINT_ANY, "malformed", " malformed %" PRIu64,
		  c->cnt[DUMP_CNT_MALFORMED]);
	print_u64(PRINT_ANY, "connections", " connections %" PRIu64,
		  (uint64_t)tot.connections);
	print_u64(PRINT_ANY, "bytes", " bytes %" PRIu64, tot.bytes);
	print_u64(PRINT_ANY, "holes", " holes %" PRIu64, tot.holes);
	print_u64(PRINT_ANY, "hole_bytes", " (%" PRIu64 " bytes)",
		  tot.hole_bytes);
	print_u64(PRINT_ANY, "truncated", " truncated %" PRIu64, tot.truncs);
	print_u64(PRINT_ANY, "truncated_bytes", " (%" PRIu64 " bytes)",
		  tot.trunc_bytes);
	print_u64(PRINT_ANY, "overlaps", " overlaps %" PRIu64, tot.overlaps);
	print_u64(PRINT_ANY, "overlap_bytes", " (%" PRIu64 " bytes)",
		  tot.overlap_bytes);
	print_u64(PRINT_ANY, "seq_gaps", " seq-gaps %" PRIu64, gaps);
	print_u64(PRINT_ANY, "lost", " lost %" PRIu64, lost);
	print_u64(PRINT_ANY, "cdc_seq_gaps", " cdc-seq-gaps %" PRIu64,
		  tot.cdc_seq_gaps);
	if (tot.follow)
		print_u64(PRINT_ANY, "files", " files %" PRIu64, tot.files);
	if (tot.nomem || c->nomem)
		print_bool(PRINT_ANY, "out_of_memory", " out-of-memory %s",
			   true);
	close_json_object();
	print_nl();
	close_json_object();
	return tot.werrs || tot.nomem || c->nomem ? 3 : 0;
}

static void sseq_note(void *arg, uint32_t link, struct dump_conn *k,
		      bool rx, uint8_t type, const struct dump_sseq_count *n)
{
	struct dump_ctx *c = arg;

	if (link < c->nlinks)
		c->links[link].sseq_lost += n->lost;
	if (k && (type == SMC_DUMP_TYPE_RAW || type == SMC_DUMP_TYPE_CDC))
		k->lost[rx][type - SMC_DUMP_TYPE_RAW] += n->lost;
}

/* What each record stream lost, onto its link and its connection */
static void sseq_settle(struct dump_ctx *c)
{
	struct dump_conn *k;
	size_t i;

	for (i = 0; i < c->nlinks; i++)
		c->links[i].sseq_lost = 0;
	for (k = c->conns.first; k; k = k->next)
		memset(k->lost, 0, sizeof(k->lost));
	dump_sseqs_settle(&c->sseqs, sseq_note, c);
	/* streams left uncounted: the report says out-of-memory */
	if (c->sseqs.nomem)
		c->nomem = true;
}

int dump_ctx_finish(struct dump_ctx *c)
{
	int rc = 0, trc;

	clc_parts_flush(c);
	sseq_settle(c);
	if (c->track) {
		trc = track_report(c);
		if (trc)
			rc = trc;
	}
	if (c->an && c->o.flags & DUMP_F_ANALYZE) {
		trc = dump_analyze_report(c->an);
		if (trc)
			rc = trc;
	}
	delete_json_obj();
	fflush(json_out());
	if (!rc && c->cnt[DUMP_CNT_MALFORMED])
		rc = 1;
	return rc;
}
