// SPDX-License-Identifier: GPL-2.0
/*
 * smc dump merge: the captures of the two hosts of SMC-R connections, one
 * per host, as one timeline per connection on one clock.
 *
 * Each capture is read with the decoder library's reader and parsers
 * (lib/smcdump/reader.c, parse.c). An end of a connection is a token and
 * its TCP socket's addresses and ports as its host sees them. The ends of
 * host A (the first capture) are paired with those of host B: first by
 * tokens, which name the other end (the CDC messages an end sends carry
 * the alert token of their receiver; a capture of mode all holds the CLC
 * Accept and Confirm, in which each end announces its token and QP), then
 * by addresses and ports, which the two ends see swapped.
 *
 * Clocks: a receive on one host comes after its send on the other. With d
 * the offset of B's clock from A's (a time of B less d is A's time), a
 * send of A at tx_A received at rx_B gives d <= rx_B - tx_A, a send of B
 * received at rx_A gives d >= tx_B - rx_A. A CDC message's send and
 * receive are matched by their connection, direction and CDC sequence
 * number; a data record received by the send record that holds its last
 * byte (stream offsets). d is the middle of the interval that all pairs
 * leave; with it every receive sorts after its send. Two clocks also run
 * at slightly different rates (two virtual machines on a loaded host, by
 * milliseconds a second): when no constant d fits every pair, d is a
 * line in B's time, d(t) = d + r (t - t0), its rate r the one that
 * leaves the widest room between the two kinds of bounds (the room is a
 * concave function of r, found by ternary search), d the middle of that
 * room.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include <linux/smc_dump.h>
#include <pcap/pcap.h>

#include "pcapng_write.h"
#include "smcdump.h"
#include "json_print.h"
#include "smc.h"

#define MERGE_EXIT_OK		0
#define MERGE_EXIT_MALFORMED	1
#define MERGE_EXIT_USAGE	2
#define MERGE_EXIT_OPEN		3
#define MERGE_EXIT_CANNOT	4

#define NSEC	1000000000LL

/**
 * struct mend - one end of a connection in one host's capture
 * @token: its local alert token (the records' token)
 * @peer_token: the token its sent CDC messages name (the other end's)
 * @has_peer_token: @peer_token was seen
 * @family: AF_INET or AF_INET6
 * @laddr: local address as this host sees it, network order; @lport port
 * @paddr: peer address; @pport its port
 * @peer_by_clc: @peer_token is from the CLC handshake (no CDC message
 *	sent named one)
 * @has_qpn: the CLC handshake told @qpn, the QP number of this end, and
 *	@peer_qpn, the other end's (0 when only one was seen)
 * @pair: the index of the other host's end, -1 while unpaired
 * @by: how the pair was found: "clc", "cdc" (tokens) or "address"
 * @conn: the connection's number in the output (host A's ends)
 * @seq_last: CDC seqno unwrapping per direction (0 tx, 1 rx): last value
 * @seq_seen: a CDC seqno was seen in that direction
 * @records: data and CDC records of this end
 * @first: where its records' indexes start in struct merge's @byend
 * @next: the next end (index + 1) in its hash chain, 0 the last
 */
struct mend {
	uint32_t token;
	uint32_t peer_token;
	bool has_peer_token;
	bool peer_by_clc;
	bool has_qpn;
	uint32_t qpn;
	uint32_t peer_qpn;
	int family;
	uint8_t laddr[16];
	uint8_t paddr[16];
	uint16_t lport;
	uint16_t pport;
	int pair;
	const char *by;
	int conn;
	uint64_t seq_last[2];
	bool seq_seen[2];
	uint64_t records;
	size_t first;
	uint32_t next;
};

/**
 * struct mrec - one SMC-R data or CDC record
 * @ts: time on its host's clock, ns since the epoch
 * @frame: its frame number in its capture, from 1
 * @host: 0 for A, 1 for B
 * @rx: received (else sent)
 * @cdc: a CDC message (else data)
 * @failed: a send that failed (SMC_DUMP_F_FAILED): no receive expected
 * @end: index of its end in its host's ends
 * @offset: data: stream offset of its first byte
 * @len: data: its bytes (orig_len)
 * @seqno: CDC: sequence number, unwrapped to 64 bits per end and direction
 * @match: a receive: the index of its send; -1 none
 * @received: a send: a receive was matched with it
 */
struct mrec {
	int64_t ts;
	uint64_t frame;
	uint8_t host;
	bool rx;
	bool cdc;
	bool failed;
	bool received;
	uint32_t end;
	uint64_t offset;
	uint32_t len;
	uint64_t seqno;
	int64_t match;
};

/* a frame kept for the merged file */
struct mframe {
	int64_t ts;		/* own clock, ns */
	uint32_t caplen;
	int dlt;
	uint8_t host;
	uint64_t idx;		/* order in its capture */
	uint8_t *data;
};

/* an SMC-R CLC Accept or Confirm: what its sender announced */
struct mclc {
	int family;
	uint8_t src[16];
	uint8_t dst[16];
	uint16_t sport;
	uint16_t dport;
	uint32_t token;
	uint32_t qpn;
};

struct mcap {
	const char *path;
	struct mclc *clc;
	size_t nclc;
	size_t capclc;
	struct mend *ends;
	size_t nends;
	size_t capends;
	uint32_t *hash;		/* by token: the first end (index + 1) */
	size_t hsize;		/* slots, a power of two */
	uint64_t frames;
	uint64_t smcr;		/* SMC-R data and CDC records */
	uint64_t smcd;		/* SMC-D records, not merged */
	uint64_t malformed;
	bool cut;
};

struct merge {
	struct mcap cap[2];
	struct mrec *recs;
	size_t nrecs;
	size_t caprecs;
	size_t *byend;		/* record indexes by host and end, in
				 * capture order (struct mend @first)
				 */
	struct mframe *frames;
	size_t nframes;
	size_t capframes;
	bool keep_frames;
	/* the clock */
	int64_t lo, hi;		/* d >= lo (B>A pairs), d <= hi (A>B) */
	uint64_t pairs[2];	/* pairs sent by A, by B */
	int64_t d;		/* B's offset at t0 */
	double rate;		/* its change per ns of B's time, 0 none */
	int64_t t0;		/* the first bound's time on B's clock */
	struct bnd *bnds;	/* every bound, for the rate */
	size_t nbnds;
	size_t capbnds;
};

/**
 * struct bnd - a bound on B's clock offset from a matched pair
 * @t: the time on B's clock at which it holds (the receive or send of B)
 * @v: the bound, ns
 * @upper: d <= @v (sent by A); else d >= @v (sent by B)
 */
struct bnd {
	int64_t t;
	int64_t v;
	bool upper;
};

static const char host_name[2][2] = { "A", "B" };

static void *grow(void *p, size_t *cap, size_t n, size_t size)
{
	size_t c;
	void *q;

	if (n < *cap)
		return p;
	c = *cap ? *cap * 2 : 64;
	q = realloc(p, c * size);
	if (!q) {
		fprintf(stderr, "Error: out of memory\n");
		exit(MERGE_EXIT_OPEN);
	}
	*cap = c;
	return q;
}

/* twice the slots, the chains again in order (oldest end last) */
static void rehash(struct mcap *c)
{
	size_t n = c->hsize ? c->hsize * 2 : 256, i;
	uint32_t *h = calloc(n, sizeof(*h));

	if (!h || c->nends >= UINT32_MAX - 1) {
		fprintf(stderr, "Error: out of memory\n");
		exit(MERGE_EXIT_OPEN);
	}
	for (i = 0; i < c->nends; i++) {
		struct mend *e = &c->ends[i];

		e->next = h[e->token & (n - 1)];
		h[e->token & (n - 1)] = (uint32_t)(i + 1);
	}
	free(c->hash);
	c->hash = h;
	c->hsize = n;
}

static uint32_t end_of(struct mcap *c, const struct dump_rec *r,
		       const struct dump_pkt *pkt)
{
	bool rx = r->flags & SMC_DUMP_F_RX;
	const uint8_t *la = rx ? pkt->dst : pkt->src;
	const uint8_t *pa = rx ? pkt->src : pkt->dst;
	uint16_t lp = rx ? pkt->dport : pkt->sport;
	uint16_t pp = rx ? pkt->sport : pkt->dport;
	size_t alen = pkt->family == AF_INET6 ? 16 : 4, i;
	struct mend *e;

	/* a chain holds the newest end first: a token of a closed
	 * connection may come again
	 */
	if (c->hsize) {
		for (i = c->hash[r->token & (c->hsize - 1)]; i; i = e->next) {
			e = &c->ends[i - 1];
			if (e->token == r->token && e->family == pkt->family &&
			    e->lport == lp && e->pport == pp &&
			    !memcmp(e->laddr, la, alen) &&
			    !memcmp(e->paddr, pa, alen))
				return (uint32_t)(i - 1);
		}
	}
	if (c->nends >= c->hsize / 2)
		rehash(c);
	c->ends = grow(c->ends, &c->capends, c->nends, sizeof(*c->ends));
	e = &c->ends[c->nends];
	memset(e, 0, sizeof(*e));
	e->token = r->token;
	e->family = pkt->family;
	memcpy(e->laddr, la, alen);
	memcpy(e->paddr, pa, alen);
	e->lport = lp;
	e->pport = pp;
	e->pair = -1;
	e->conn = -1;
	e->next = c->hash[r->token & (c->hsize - 1)];
	c->hash[r->token & (c->hsize - 1)] = (uint32_t)++c->nends;
	return (uint32_t)(c->nends - 1);
}

/* A 16-bit CDC seqno as a 64-bit count: the value nearest the last one */
static uint64_t unwrap(struct mend *e, int dir, uint16_t v)
{
	if (!e->seq_seen[dir]) {
		e->seq_seen[dir] = true;
		e->seq_last[dir] = v;
	} else {
		int16_t delta = (int16_t)(v - (uint16_t)e->seq_last[dir]);

		e->seq_last[dir] += (int64_t)delta;
	}
	return e->seq_last[dir];
}

static void take_frame(struct merge *m, int host, const struct dump_frame *f,
		       int64_t ts)
{
	struct mframe *fr;

	if (!m->keep_frames)
		return;
	m->frames = grow(m->frames, &m->capframes, m->nframes,
			 sizeof(*m->frames));
	fr = &m->frames[m->nframes];
	fr->ts = ts;
	fr->caplen = f->caplen;
	fr->dlt = f->dlt;
	fr->host = (uint8_t)host;
	fr->idx = m->cap[host].frames;
	fr->data = malloc(f->caplen ? f->caplen : 1);
	if (!fr->data) {
		fprintf(stderr, "Error: out of memory\n");
		exit(MERGE_EXIT_OPEN);
	}
	memcpy(fr->data, f->data, f->caplen);
	m->nframes++;
}

static void take_record(struct merge *m, int host, int64_t ts,
			const struct dump_pkt *pkt, const struct dump_rec *r)
{
	struct mcap *c = &m->cap[host];
	char err[128];
	struct mrec *x;
	struct mend *e;
	uint32_t ei;

	if (r->mode != SMC_DUMP_MODE_SMCR) {
		c->smcd++;
		return;
	}
	if (r->type != SMC_DUMP_TYPE_RAW && r->type != SMC_DUMP_TYPE_CDC)
		return;		/* LLC: the link group's, not a connection's */
	ei = end_of(c, r, pkt);
	e = &c->ends[ei];
	m->recs = grow(m->recs, &m->caprecs, m->nrecs, sizeof(*m->recs));
	x = &m->recs[m->nrecs];
	memset(x, 0, sizeof(*x));
	x->ts = ts;
	x->frame = c->frames;
	x->host = (uint8_t)host;
	x->rx = r->flags & SMC_DUMP_F_RX;
	x->cdc = r->type == SMC_DUMP_TYPE_CDC;
	x->failed = !x->rx && (r->flags & SMC_DUMP_F_FAILED);
	x->end = ei;
	x->match = -1;
	if (x->cdc) {
		struct dump_cdc cdc;

		if (dump_parse_cdc(r->payload, r->payload_len, false, false,
				   &cdc, err, sizeof(err)) != DUMP_OK) {
			fprintf(stderr, "Warning: %s: frame %llu: %s\n",
				c->path, (unsigned long long)c->frames, err);
			c->malformed++;
			return;
		}
		x->seqno = unwrap(e, x->rx, cdc.seqno);
		if (!x->rx) {
			e->peer_token = cdc.token;
			e->has_peer_token = true;
		}
	} else {
		x->offset = r->offset;
		x->len = r->orig_len;
	}
	e->records++;
	c->smcr++;
	m->nrecs++;
}

/* The SMC-R Accepts and Confirms a TCP segment starts with */
static void take_clc(struct mcap *c, const struct dump_pkt *pkt)
{
	const uint8_t *p = pkt->data;
	uint32_t avail = pkt->data_len, len, token, qpn;
	struct mclc *x;

	while (avail >= 8 && dump_clc_is_eyecatcher(p)) {
		if (dump_clc_smcr_ids(p, avail, &token, &qpn)) {
			c->clc = grow(c->clc, &c->capclc, c->nclc,
				      sizeof(*c->clc));
			x = &c->clc[c->nclc++];
			memset(x, 0, sizeof(*x));
			x->family = pkt->family;
			memcpy(x->src, pkt->src, 16);
			memcpy(x->dst, pkt->dst, 16);
			x->sport = pkt->sport;
			x->dport = pkt->dport;
			x->token = token;
			x->qpn = qpn;
		}
		len = dump_clc_msg_len(p, avail);
		if (!len || len > avail)
			break;
		p += len;
		avail -= len;
	}
}

/* Read one host's capture. Return: 0, or MERGE_EXIT_OPEN */
static int load(struct merge *m, int host)
{
	struct mcap *c = &m->cap[host];
	char err[DUMP_READER_ERRLEN];
	struct dump_reader *rd;
	struct dump_frame f;
	int rc;

	rd = dump_reader_open(c->path, err, sizeof(err));
	if (!rd) {
		fprintf(stderr, "Error: %s\n", err);
		return MERGE_EXIT_OPEN;
	}
	for (;;) {
		struct dump_pkt pkt;
		struct dump_rec r;
		int64_t ts;

		rc = dump_reader_next(rd, &f, err, sizeof(err));
		if (rc == DUMP_READ_END)
			break;
		if (rc == DUMP_READ_CUT) {
			fprintf(stderr,
				"Error: %s: %s (after frame %llu); merged what comes before\n",
				c->path, err, (unsigned long long)c->frames);
			c->cut = true;
			break;
		}
		if (rc == DUMP_READ_BAD) {
			fprintf(stderr, "Warning: %s: after frame %llu: %s\n",
				c->path, (unsigned long long)c->frames, err);
			c->malformed++;
			continue;
		}
		c->frames++;
		if (rc == DUMP_READ_SKIP && *err)
			fprintf(stderr, "Warning: %s\n", err);
		/* a fraction of a second or more, before 1970, or past
		 * what ns since 1970 hold (2262): no time to order or
		 * write the frame by, so it is left out, not given one
		 */
		if (f.nsec >= NSEC || f.sec < 0 || f.sec >= INT64_MAX / NSEC) {
			fprintf(stderr,
				"Warning: %s: frame %llu: time %lld s %u ns is not a time; frame left out\n",
				c->path, (unsigned long long)c->frames,
				f.sec, f.nsec);
			c->malformed++;
			continue;
		}
		ts = (int64_t)f.sec * NSEC + f.nsec;
		take_frame(m, host, &f, ts);
		if (rc != DUMP_READ_FRAME)
			continue;
		if (dump_parse_frame(f.dlt, f.data, f.caplen, &pkt, err,
				     sizeof(err)) != DUMP_OK ||
		    pkt.l4 == DUMP_L4_NONE || pkt.loop_out)
			continue;	/* loop_out: the same again as received */
		if (pkt.l4 == DUMP_L4_TCP) {
			take_clc(c, &pkt);
			continue;
		}
		if (dump_parse_record(pkt.data, pkt.data_len,
				      pkt.data_wire_len, &r, err,
				      sizeof(err)) != DUMP_OK) {
			/* a UDP datagram that is no record is not ours */
			if (r.level >= 1) {
				fprintf(stderr,
					"Warning: %s: frame %llu: %s\n",
					c->path,
					(unsigned long long)c->frames, err);
				c->malformed++;
			}
			continue;
		}
		if (r.legacy || r.level < 2)
			continue;
		take_record(m, host, ts, &pkt, &r);
	}
	dump_reader_close(rd);
	return 0;
}

static bool same_addr(int family, const uint8_t *a, const uint8_t *b)
{
	return !memcmp(a, b, family == AF_INET6 ? 16 : 4);
}

/* @a of A and @b of B see each other's addresses and ports */
static bool swapped(const struct mend *a, const struct mend *b)
{
	return a->family == b->family && a->lport == b->pport &&
	       a->pport == b->lport && same_addr(a->family, a->laddr, b->paddr) &&
	       same_addr(a->family, a->paddr, b->laddr);
}

/* No token says they are not one connection */
static bool tokens_agree(const struct mend *a, const struct mend *b)
{
	return (!a->has_peer_token || a->peer_token == b->token) &&
	       (!b->has_peer_token || b->peer_token == a->token);
}

/*
 * What each end's host saw of the CLC handshake on its TCP connection:
 * the Accept or Confirm the peer sent names the peer's token and QP, the
 * one the end sent its own QP. The latest of each counts (a port used
 * again later).
 */
static void apply_clc(struct mcap *c)
{
	size_t i, j;

	for (i = 0; i < c->nends; i++) {
		struct mend *e = &c->ends[i];

		for (j = 0; j < c->nclc; j++) {
			const struct mclc *x = &c->clc[j];

			if (x->family != e->family)
				continue;
			if (x->sport == e->pport && x->dport == e->lport &&
			    same_addr(e->family, x->src, e->paddr) &&
			    same_addr(e->family, x->dst, e->laddr)) {
				e->has_qpn = true;
				e->peer_qpn = x->qpn;
				if (!e->has_peer_token) {
					e->peer_token = x->token;
					e->has_peer_token = true;
					e->peer_by_clc = true;
				}
			} else if (x->sport == e->lport && x->dport == e->pport &&
				   x->token == e->token &&
				   same_addr(e->family, x->src, e->laddr) &&
				   same_addr(e->family, x->dst, e->paddr)) {
				e->has_qpn = true;
				e->qpn = x->qpn;
			}
		}
	}
}

/* Pair the ends of A with those of B: by tokens, then by addresses */
static void pair_ends(struct merge *m)
{
	struct mcap *a = &m->cap[0], *b = &m->cap[1];
	size_t i, j;
	int pass, conn = 0;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < a->nends; i++) {
			struct mend *ea = &a->ends[i];

			if (ea->pair >= 0)
				continue;
			for (j = 0; j < b->nends; j++) {
				struct mend *eb = &b->ends[j];

				if (eb->pair >= 0 || !tokens_agree(ea, eb))
					continue;
				if (pass == 0 ?
				    !((ea->has_peer_token || eb->has_peer_token)) :
				    !swapped(ea, eb))
					continue;
				ea->pair = (int)j;
				eb->pair = (int)i;
				ea->by = eb->by = pass ? "address" :
					 ea->peer_by_clc || eb->peer_by_clc ?
					 "clc" : "cdc";
				break;
			}
		}
	}
	/* connection numbers in the order of A's ends */
	for (i = 0; i < a->nends; i++)
		if (a->ends[i].pair >= 0)
			a->ends[i].conn = b->ends[a->ends[i].pair].conn = conn++;
}

/* Is every end of B one of A (the same token, addresses and ports)? */
static bool same_host(const struct merge *m)
{
	const struct mcap *a = &m->cap[0], *b = &m->cap[1];
	size_t i, j;

	for (j = 0; j < b->nends; j++) {
		const struct mend *eb = &b->ends[j];

		for (i = 0; i < a->nends; i++) {
			const struct mend *ea = &a->ends[i];

			if (ea->token == eb->token && ea->family == eb->family &&
			    ea->lport == eb->lport && ea->pport == eb->pport &&
			    same_addr(ea->family, ea->laddr, eb->laddr) &&
			    same_addr(ea->family, ea->paddr, eb->paddr))
				break;
		}
		if (i == a->nends)
			return false;
	}
	return b->nends > 0;
}

/* The records of each end: m->byend from each end's @first on */
static void index_ends(struct merge *m)
{
	size_t i, pos = 0;
	int h;

	m->byend = malloc((m->nrecs ? m->nrecs : 1) * sizeof(*m->byend));
	if (!m->byend) {
		fprintf(stderr, "Error: out of memory\n");
		exit(MERGE_EXIT_OPEN);
	}
	for (h = 0; h < 2; h++) {
		for (i = 0; i < m->cap[h].nends; i++) {
			m->cap[h].ends[i].first = pos;
			pos += m->cap[h].ends[i].records;
			m->cap[h].ends[i].records = 0;
		}
	}
	for (i = 0; i < m->nrecs; i++) {
		struct mend *e = &m->cap[m->recs[i].host].ends[m->recs[i].end];

		m->byend[e->first + e->records++] = i;
	}
}

/* the sends of one direction of a connection, for matching */
struct sendv {
	size_t *v;
	size_t n;
	size_t cap;
};

static struct mrec *sort_recs;

static int cmp_cdc(const void *x, const void *y)
{
	const struct mrec *a = &sort_recs[*(const size_t *)x];
	const struct mrec *b = &sort_recs[*(const size_t *)y];

	if (a->seqno != b->seqno)
		return a->seqno < b->seqno ? -1 : 1;
	return a->frame < b->frame ? -1 : a->frame > b->frame;
}

static int cmp_data(const void *x, const void *y)
{
	const struct mrec *a = &sort_recs[*(const size_t *)x];
	const struct mrec *b = &sort_recs[*(const size_t *)y];

	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	return a->frame < b->frame ? -1 : a->frame > b->frame;
}

/* the last of @s->v (sorted by offset) whose offset is <= @x, or -1 */
static long last_at_or_below(const struct mrec *recs, const struct sendv *s,
			     uint64_t x)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (recs[s->v[mid]].offset <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

static void bound(struct merge *m, const struct mrec *snd,
		  const struct mrec *rcv)
{
	struct bnd *b;

	m->bnds = grow(m->bnds, &m->capbnds, m->nbnds, sizeof(*m->bnds));
	b = &m->bnds[m->nbnds++];
	if (snd->host == 0) {		/* d <= rx_B - tx_A */
		int64_t v = rcv->ts - snd->ts;

		if (!m->pairs[0] || v < m->hi)
			m->hi = v;
		m->pairs[0]++;
		*b = (struct bnd){ .t = rcv->ts, .v = v, .upper = true };
	} else {			/* d >= tx_B - rx_A */
		int64_t v = snd->ts - rcv->ts;

		if (!m->pairs[1] || v > m->lo)
			m->lo = v;
		m->pairs[1]++;
		*b = (struct bnd){ .t = snd->ts, .v = v, .upper = false };
	}
}

/* the room the bounds leave d at t0 for @rate: min(upper) - max(lower),
 * each bound moved to t0 along the rate; *lo and *hi get the two
 */
static double room(const struct merge *m, double rate, double *lo,
		   double *hi)
{
	double l = 0, h = 0;
	bool hl = false, hh = false;
	size_t i;

	for (i = 0; i < m->nbnds; i++) {
		const struct bnd *b = &m->bnds[i];
		double v = (double)b->v - rate * (double)(b->t - m->t0);

		if (b->upper && (!hh || v < h)) {
			h = v;
			hh = true;
		} else if (!b->upper && (!hl || v > l)) {
			l = v;
			hl = true;
		}
	}
	*lo = l;
	*hi = h;
	return h - l;
}

/* the clock rate that leaves the most room, when no constant offset fits:
 * d and rate set where it leaves some, else left as they are
 */
#define RATE_MAX	0.01	/* 1 %: far beyond two clocks' disagreement */
static void fit_rate(struct merge *m)
{
	double a = -RATE_MAX, b = RATE_MAX, lo, hi;
	size_t i;
	int k;

	m->t0 = m->bnds[0].t;
	for (i = 1; i < m->nbnds; i++)
		if (m->bnds[i].t < m->t0)
			m->t0 = m->bnds[i].t;
	for (k = 0; k < 200; k++) {
		double x = a + (b - a) / 3, y = b - (b - a) / 3;

		if (room(m, x, &lo, &hi) < room(m, y, &lo, &hi))
			a = x;
		else
			b = y;
	}
	if (room(m, (a + b) / 2, &lo, &hi) < 0)
		return;
	m->rate = (a + b) / 2;
	m->d = (int64_t)(lo + (hi - lo) / 2);
}

/* B's offset at @t of B's clock */
static int64_t offset_at(const struct merge *m, int64_t t)
{
	if (!m->rate)
		return m->d;
	return m->d + (int64_t)(m->rate * (double)(t - m->t0));
}

/*
 * One direction of the connection whose sender end is @se of host @sh:
 * match each receive of the peer end with its send.
 */
static void match_dir(struct merge *m, int sh, uint32_t se)
{
	struct mend *s_end = &m->cap[sh].ends[se];
	uint32_t re = (uint32_t)s_end->pair;
	struct mend *r_end = &m->cap[!sh].ends[re];
	struct sendv cdc = { 0 }, data = { 0 };
	size_t i;

	for (i = s_end->first; i < s_end->first + s_end->records; i++) {
		struct mrec *x = &m->recs[m->byend[i]];
		struct sendv *s;

		if (x->rx || x->failed)
			continue;	/* a failed send never arrived */
		s = x->cdc ? &cdc : &data;
		s->v = grow(s->v, &s->cap, s->n, sizeof(*s->v));
		s->v[s->n++] = m->byend[i];
	}
	sort_recs = m->recs;
	if (cdc.n)
		qsort(cdc.v, cdc.n, sizeof(*cdc.v), cmp_cdc);
	if (data.n)
		qsort(data.v, data.n, sizeof(*data.v), cmp_data);
	for (i = r_end->first; i < r_end->first + r_end->records; i++) {
		struct mrec *x = &m->recs[m->byend[i]];

		if (!x->rx)
			continue;
		if (x->cdc) {
			size_t lo = 0, hi = cdc.n;

			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;

				if (m->recs[cdc.v[mid]].seqno < x->seqno)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo < cdc.n && m->recs[cdc.v[lo]].seqno == x->seqno) {
				x->match = (int64_t)cdc.v[lo];
				m->recs[cdc.v[lo]].received = true;
			}
		} else if (x->len) {
			uint64_t last = x->offset + x->len - 1;
			long k = last_at_or_below(m->recs, &data, last);
			long best = -1;

			/* the earliest send that holds the last byte (a
			 * byte sent again after a failover may have come
			 * with its first send), and every send the receive
			 * overlaps arrived; a record holds less than 64 KiB
			 * (an IP datagram)
			 */
			for (; k >= 0; k--) {
				struct mrec *z = &m->recs[data.v[k]];

				if (z->offset + 65536 <= x->offset)
					break;
				if (z->offset + z->len > x->offset)
					z->received = true;
				if (z->offset + z->len > last &&
				    (best < 0 ||
				     z->ts < m->recs[data.v[best]].ts))
					best = k;
			}
			if (best >= 0)
				x->match = (int64_t)data.v[best];
		}
		if (x->match >= 0)
			bound(m, &m->recs[x->match], x);
	}
	free(cdc.v);
	free(data.v);
}

static void estimate(struct merge *m)
{
	size_t i;
	int h;

	for (h = 0; h < 2; h++)
		for (i = 0; i < m->cap[h].nends; i++)
			if (m->cap[h].ends[i].pair >= 0)
				match_dir(m, h, (uint32_t)i);
	if (m->pairs[0] && m->pairs[1]) {
		m->d = m->lo + (m->hi - m->lo) / 2;
		if (m->lo > m->hi)
			fit_rate(m);
	} else if (m->pairs[0])
		m->d = m->hi;
	else if (m->pairs[1])
		m->d = m->lo;
	else
		m->d = 0;
}

/* a record's time on A's clock */
static int64_t corrected(const struct merge *m, const struct mrec *x)
{
	return x->host ? x->ts - offset_at(m, x->ts) : x->ts;
}

static const struct merge *sort_m;

/* by corrected time; a send before a receive of the same time */
static int cmp_time(const void *x, const void *y)
{
	const struct mrec *a = &sort_m->recs[*(const size_t *)x];
	const struct mrec *b = &sort_m->recs[*(const size_t *)y];
	int64_t ta = corrected(sort_m, a), tb = corrected(sort_m, b);

	if (ta != tb)
		return ta < tb ? -1 : 1;
	if (a->rx != b->rx)
		return a->rx ? 1 : -1;
	if (a->host != b->host)
		return a->host < b->host ? -1 : 1;
	return a->frame < b->frame ? -1 : a->frame > b->frame;
}

/* "S.NNNNNNNNN" of a signed count of ns */
static void fmt_ns(int64_t v, char *buf, size_t len)
{
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	snprintf(buf, len, "%s%llu.%09llu", v < 0 ? "-" : "",
		 (unsigned long long)(u / NSEC),
		 (unsigned long long)(u % NSEC));
}

static void print_end(const struct mend *e, int host, const char *key)
{
	char l[INET6_ADDRSTRLEN + 8], p[INET6_ADDRSTRLEN + 8];
	char tok[16];

	snprintf(tok, sizeof(tok), "0x%08x", e->token);
	if (is_json_context()) {
		char ip[INET6_ADDRSTRLEN];

		open_json_object(key);
		print_string(PRINT_JSON, "host", NULL, host_name[host]);
		print_string(PRINT_JSON, "token", NULL, tok);
		dump_fmt_ip(e->family, e->laddr, ip, sizeof(ip));
		print_string(PRINT_JSON, "local_address", NULL, ip);
		print_uint(PRINT_JSON, "local_port", NULL, e->lport);
		dump_fmt_ip(e->family, e->paddr, ip, sizeof(ip));
		print_string(PRINT_JSON, "peer_address", NULL, ip);
		print_uint(PRINT_JSON, "peer_port", NULL, e->pport);
		if (e->has_peer_token) {
			snprintf(tok, sizeof(tok), "0x%08x", e->peer_token);
			print_string(PRINT_JSON, "peer_token", NULL, tok);
		}
		if (e->has_qpn) {
			print_uint(PRINT_JSON, "qpn", NULL, e->qpn);
			print_uint(PRINT_JSON, "peer_qpn", NULL, e->peer_qpn);
		}
		close_json_object();
		return;
	}
	dump_fmt_addr(e->family, e->laddr, e->lport, l, sizeof(l));
	dump_fmt_addr(e->family, e->paddr, e->pport, p, sizeof(p));
	printf("%s token %s %s > %s", host_name[host], tok, l, p);
}

/* what a record is: "tx cdc seqno 1", "rx data offset 0 len 60" */
static void print_what(const struct mrec *x)
{
	print_string(PRINT_ANY, "dir", " %s", x->rx ? "rx" : "tx");
	print_string(PRINT_ANY, "type", " %-4s", x->cdc ? "cdc" : "data");
	if (x->cdc) {
		print_uint(PRINT_ANY, "seqno", " seqno %u",
			   (unsigned int)(x->seqno & 0xffff));
	} else {
		print_u64(PRINT_ANY, "offset", " offset %llu", x->offset);
		print_uint(PRINT_ANY, "len", " len %u", x->len);
	}
}

static void print_rec(const struct merge *m, const struct mrec *x)
{
	int64_t t = corrected(m, x);
	char buf[48];

	open_json_object(NULL);
	print_string(PRINT_ANY, "host", "  %s", host_name[x->host]);
	print_u64(PRINT_ANY, "frame", " #%-5llu", x->frame);
	print_s64(PRINT_JSON, "ts_sec", NULL, t / NSEC - (t % NSEC < 0));
	print_uint(PRINT_JSON, "ts_nsec", NULL,
		   (unsigned int)((t % NSEC + NSEC) % NSEC));
	if (!is_json_context()) {
		fmt_ns(t, buf, sizeof(buf));
		printf(" %s", buf);
	}
	print_what(x);
	if (x->rx && x->match >= 0) {
		const struct mrec *s = &m->recs[x->match];
		int64_t delay = t - corrected(m, s);

		/* the send is the other host's */
		print_string(PRINT_FP, NULL, ", sent by %s", host_name[s->host]);
		print_u64(PRINT_ANY, "send_frame", " #%llu", s->frame);
		print_s64(PRINT_ANY, "delay_ns", " %lld ns before", delay);
	} else if (x->rx) {
		print_null(PRINT_ANY, "send_frame", ", %s", "no send");
	}
	if (x->failed)
		print_bool(PRINT_ANY, "failed", ", failed", true);
	close_json_object();
	print_string(PRINT_FP, NULL, "%s", "\n");
}

static void print_conn(const struct merge *m, size_t ai)
{
	const struct mend *a = &m->cap[0].ends[ai];
	const struct mend *b = &m->cap[1].ends[a->pair];
	size_t *v = NULL, n = 0, cap = 0, i;
	for (i = a->first; i < a->first + a->records; i++) {
		v = grow(v, &cap, n, sizeof(*v));
		v[n++] = m->byend[i];
	}
	for (i = b->first; i < b->first + b->records; i++) {
		v = grow(v, &cap, n, sizeof(*v));
		v[n++] = m->byend[i];
	}
	sort_m = m;
	if (n)
		qsort(v, n, sizeof(*v), cmp_time);
	open_json_object(NULL);
	print_uint(PRINT_ANY, "conn", "connection %u:", (unsigned int)a->conn);
	print_string(PRINT_ANY, "mode", " %s", "SMC-R");
	print_string(PRINT_FP, NULL, "%s", "\n    ");
	print_end(a, 0, "a");
	print_string(PRINT_FP, NULL, "%s", "\n    ");
	print_end(b, 1, "b");
	print_string(PRINT_ANY, "paired_by", "\n    paired by %s", a->by);
	print_string(PRINT_FP, NULL, "%s", "\n");
	open_json_array(PRINT_JSON, "records");
	for (i = 0; i < n; i++)
		print_rec(m, &m->recs[v[i]]);
	close_json_array(PRINT_JSON, NULL);
	open_json_array(PRINT_JSON, "lost");
	for (i = 0; i < n; i++) {
		const struct mrec *x = &m->recs[v[i]];

		if (x->rx || x->received || x->failed)
			continue;
		open_json_object(NULL);
		print_string(PRINT_ANY, "host", "  lost: %s", host_name[x->host]);
		print_u64(PRINT_ANY, "frame", " #%llu", x->frame);
		print_what(x);
		print_string(PRINT_FP, NULL, "%s",
			     ": no receive on the other host\n");
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	close_json_object();
	free(v);
}

static void print_clock(const struct merge *m)
{
	char d[48], lo[48], hi[48];

	fmt_ns(m->d, d, sizeof(d));
	fmt_ns(m->lo, lo, sizeof(lo));
	fmt_ns(m->hi, hi, sizeof(hi));
	open_json_object("clock");
	print_s64(PRINT_JSON, "offset_ns", NULL, m->d);
	if (m->rate) {
		/* B's offset gains this many ns a second of B's time from
		 * its first bound on: no one offset fits the pairs
		 */
		print_s64(PRINT_JSON, "rate_ppb", NULL,
			  (int64_t)(m->rate * 1e9));
		if (!is_json_context())
			printf("clock: B = A + %s s %+.3f ppm of the time since B's first bound; no one offset fits",
			       d, m->rate * 1e6);
	} else if (!is_json_context()) {
		printf("clock: B = A + %s s", d);
	}
	if (m->pairs[1]) {
		print_s64(PRINT_JSON, "low_ns", NULL, m->lo);
		if (!is_json_context())
			printf("%s%s", m->rate ? " (from " : ", from ", lo);
	}
	if (m->pairs[0]) {
		print_s64(PRINT_JSON, "high_ns", NULL, m->hi);
		if (!is_json_context())
			printf(" %s %s%s", m->pairs[1] ? "to" : "up to", hi,
			       m->rate ? ")" : "");
	}
	print_u64(PRINT_ANY, "pairs", " (%llu pairs:",
		  m->pairs[0] + m->pairs[1]);
	print_u64(PRINT_ANY, "pairs_a_to_b", " %llu A>B,", m->pairs[0]);
	print_u64(PRINT_ANY, "pairs_b_to_a", " %llu B>A)\n", m->pairs[1]);
	close_json_object();
	if (!m->pairs[0] && !m->pairs[1])
		fprintf(stderr,
			"Warning: no receive was matched with its send: B's times are not corrected\n");
	else if (!m->pairs[0] || !m->pairs[1])
		fprintf(stderr,
			"Warning: sends of one direction only: the offset is a bound (no delay assumed)\n");
	else if (m->lo > m->hi && !m->rate)
		fprintf(stderr,
			"Warning: the pairs leave no offset (from %s to %s), nor a steady drift: sends were matched wrongly, or the clocks jumped; some receives sort before their send\n",
			lo, hi);
}

/* ---- the merged file: pcapng, an interface per host and link type ---- */

struct pcapng_out {
	FILE *f;
	int ifs;		/* interfaces written */
	int if_dlt[16];
	uint8_t if_host[16];
};

/* the interface of @host and @dlt, written at first use; -1 when full */
static int pcapng_if(struct pcapng_out *o, const struct merge *m, int host,
		     int dlt)
{
	char desc[600];
	int i;

	for (i = 0; i < o->ifs; i++)
		if (o->if_dlt[i] == dlt && o->if_host[i] == host)
			return i;
	if (o->ifs == 16)
		return -1;
	snprintf(desc, sizeof(desc), "host %s: %.480s%s", host_name[host],
		 m->cap[host].path, host ? " (times corrected)" : "");
	if (pcapng_put_idb(o->f, dlt, host_name[host], desc, 9))
		return -2;
	o->if_dlt[o->ifs] = dlt;
	o->if_host[o->ifs] = (uint8_t)host;
	return o->ifs++;
}

static int cmp_frame(const void *x, const void *y)
{
	const struct mframe *a = x, *b = y;
	int64_t ta = a->host ? a->ts - offset_at(sort_m, a->ts) : a->ts;
	int64_t tb = b->host ? b->ts - offset_at(sort_m, b->ts) : b->ts;

	if (ta != tb)
		return ta < tb ? -1 : 1;
	if (a->host != b->host)
		return a->host < b->host ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Where OUT is written until it is whole: a new file beside it */
struct mout {
	const char *path;	/* OUT, "-": standard output */
	char *tmp;		/* the file beside it, NULL for "-" */
	int fd;
};

/* Create the temporary file of @o->path in its directory (not
 * readable by others before it has OUT's mode). Return: 0, or
 * MERGE_EXIT_OPEN after a message.
 */
static int out_create(struct mout *o)
{
	const char *slash = strrchr(o->path, '/');
	int dirlen = slash ? (int)(slash - o->path) + 1 : 0;
	mode_t mask;

	if (asprintf(&o->tmp, "%.*s.%s.XXXXXX", dirlen, o->path,
		     slash ? slash + 1 : o->path) < 0) {
		o->tmp = NULL;
		fprintf(stderr, "Error: out of memory\n");
		return MERGE_EXIT_OPEN;
	}
	o->fd = mkstemp(o->tmp);
	if (o->fd < 0) {
		fprintf(stderr, "Error: cannot write %s: %s\n", o->path,
			strerror(errno));
		free(o->tmp);
		o->tmp = NULL;
		return MERGE_EXIT_OPEN;
	}
	/* the mode a new OUT would have had: 0666 less the umask */
	mask = umask(0);
	umask(mask);
	if (fchmod(o->fd, 0666 & ~mask))
		fprintf(stderr, "Warning: %s: %s\n", o->tmp, strerror(errno));
	return 0;
}

/* Remove what was written of OUT */
static void out_discard(struct mout *o)
{
	if (!o->tmp)
		return;
	if (o->fd >= 0)
		close(o->fd);
	unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	o->fd = -1;
}

/* Return: 0, MERGE_EXIT_MALFORMED when frames were left out, or
 * MERGE_EXIT_OPEN (OUT not written; a file, then left as it was)
 */
static int write_merged(struct merge *m, struct mout *mo)
{
	struct pcapng_out o = { 0 };
	uint64_t early = 0;
	size_t i;
	int bad = 0;

	o.f = fdopen(mo->fd, "wb");
	if (!o.f) {
		fprintf(stderr, "Error: cannot write %s: %s\n", mo->path,
			strerror(errno));
		out_discard(mo);
		return MERGE_EXIT_OPEN;
	}
	sort_m = m;
	if (m->nframes)
		qsort(m->frames, m->nframes, sizeof(*m->frames), cmp_frame);
	bad |= pcapng_put_shb(o.f);
	for (i = 0; i < m->nframes && !bad; i++) {
		const struct mframe *fr = &m->frames[i];
		int64_t t = fr->host ? fr->ts - offset_at(m, fr->ts) : fr->ts;
		int ifc;

		if (t < 0) {
			/* pcapng has no time before 1970: said, not
			 * written as another time
			 */
			fprintf(stderr,
				"Warning: %s: frame %llu: before 1970 on A's clock (%lld ns); left out of %s\n",
				m->cap[fr->host].path,
				(unsigned long long)fr->idx, (long long)t,
				mo->path);
			early++;
			continue;
		}
		ifc = pcapng_if(&o, m, fr->host, fr->dlt);
		if (ifc == -1)
			fprintf(stderr, "Error: more than 16 link types\n");
		if (ifc < 0) {
			bad = 1;
			break;
		}
		bad |= pcapng_put_epb(o.f, (uint32_t)ifc, (uint64_t)t,
				      fr->data, fr->caplen, fr->caplen);
	}
	bad |= fflush(o.f) || ferror(o.f);
	bad |= fclose(o.f) != 0;
	mo->fd = -1;
	if (bad) {
		fprintf(stderr, "Error: cannot write %s\n", mo->path);
	} else if (mo->tmp && rename(mo->tmp, mo->path)) {
		fprintf(stderr, "Error: cannot write %s: %s\n", mo->path,
			strerror(errno));
		bad = 1;
	}
	if (bad) {
		out_discard(mo);
		return MERGE_EXIT_OPEN;
	}
	free(mo->tmp);
	mo->tmp = NULL;
	return early ? MERGE_EXIT_MALFORMED : 0;
}

static void usage_merge(FILE *f)
{
	fprintf(f,
		"Usage: smc dump merge [ write OUT ] FILE_A FILE_B\n"
		"FILE_A, FILE_B := { PATH | - }   the captures of hosts A and B\n");
}

/**
 * dump_merge() - "smc dump merge": the captures of both hosts on one clock
 * @argc: arguments after "merge"
 * @argv: [ write OUT ] FILE_A FILE_B, the keyword anywhere
 *
 * Prints the clock offset of B from A and its bounds, every connection
 * with both ends (its records ordered by A's clock, each receive with its
 * send), the sends whose receive the other capture lacks, and the ends
 * with no other end; write OUT also writes a pcapng of both captures'
 * frames, B's times corrected, one interface per host (and link type).
 *
 * Return: exit status: 0 merged (sends with no receive and ends with no
 * other end are reported, not errors), 1 malformed input seen (the rest
 * was merged), 2 usage error, 3 a capture
 * cannot be opened or read, or OUT written, 4 the captures cannot be
 * merged (one holds no SMC-R record, both are of one host).
 */
int dump_merge(int argc, char **argv)
{
	struct mout mo = { NULL, NULL, -1 };
	struct merge m = { 0 };
	const char *pos[2], *out = NULL;
	int npos = 0, rc = MERGE_EXIT_OK, h, i, wrc;
	struct stat si, so;
	size_t k;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			json = 1;
		} else if (!strcmp(a, "-p") || !strcmp(a, "--pretty")) {
			pretty = 1;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help") ||
			   !strcmp(a, "help")) {
			usage_merge(stdout);
			return MERGE_EXIT_OK;
		} else if (!strcmp(a, "write")) {
			if (++i == argc) {
				fprintf(stderr,
					"Error: \"write\" needs a file, try \"smc dump help\".\n");
				return MERGE_EXIT_USAGE;
			}
			if (out) {
				duparg("write", argv[i]);
				return MERGE_EXIT_USAGE;
			}
			out = argv[i];
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr,
				"Error: unknown option \"%s\", try \"smc dump help\".\n",
				a);
			return MERGE_EXIT_USAGE;
		} else {
			if (npos == 2) {
				fprintf(stderr,
					"Error: unexpected argument \"%s\", try \"smc dump help\".\n",
					a);
				return MERGE_EXIT_USAGE;
			}
			pos[npos++] = a;
		}
	}
	if (npos != 2) {
		fprintf(stderr,
			"Error: two captures expected, one of each host, try \"smc dump help\".\n");
		return MERGE_EXIT_USAGE;
	}
	if (!strcmp(pos[0], "-") && !strcmp(pos[1], "-")) {
		fprintf(stderr,
			"Error: standard input can be one of the captures, not both.\n");
		return MERGE_EXIT_USAGE;
	}
	/* OUT is written after both captures were read: never over one of
	 * them
	 */
	if (out && strcmp(out, "-") && !stat(out, &so)) {
		for (h = 0; h < 2; h++) {
			if (strcmp(pos[h], "-") && !stat(pos[h], &si) &&
			    si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
				fprintf(stderr,
					"Error: write %s: that is the capture %s itself\n",
					out, pos[h]);
				return MERGE_EXIT_USAGE;
			}
		}
	}
	/* OUT is made beside it and renamed over it once whole: an error
	 * leaves no partial OUT. write -: the pcapng alone on standard
	 * output, the report on standard error
	 */
	mo.path = out;
	if (out && strcmp(out, "-")) {
		rc = out_create(&mo);
		if (rc)
			return rc;
	} else if (out) {
		fflush(stdout);
		mo.fd = dup(STDOUT_FILENO);
		if (mo.fd < 0 || dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
			fprintf(stderr, "Error: cannot write -: %s\n",
				strerror(errno));
			if (mo.fd >= 0)
				close(mo.fd);
			return MERGE_EXIT_OPEN;
		}
	}
	m.cap[0].path = pos[0];
	m.cap[1].path = pos[1];
	m.keep_frames = out != NULL;
	for (h = 0; h < 2; h++) {
		rc = load(&m, h);
		if (rc)
			goto out;
	}
	for (h = 0; h < 2; h++) {
		if (!m.cap[h].smcr) {
			fprintf(stderr,
				"Error: %s holds no SMC-R data or CDC record%s: nothing to merge\n",
				m.cap[h].path, m.cap[h].smcd ?
				" (SMC-D has both ends on one host)" : "");
			rc = MERGE_EXIT_CANNOT;
			goto out;
		}
	}
	if (same_host(&m)) {
		fprintf(stderr,
			"Error: every connection end of %s is one of %s as well (same token, addresses and ports): captures of one host, not of the two ends\n",
			m.cap[1].path, m.cap[0].path);
		rc = MERGE_EXIT_CANNOT;
		goto out;
	}
	index_ends(&m);
	apply_clc(&m.cap[0]);
	apply_clc(&m.cap[1]);
	pair_ends(&m);
	estimate(&m);

	new_json_obj(json, pretty);
	open_json_object(NULL);
	print_string(PRINT_ANY, "file_a", "A: %s\n", m.cap[0].path);
	print_string(PRINT_ANY, "file_b", "B: %s\n", m.cap[1].path);
	print_clock(&m);
	open_json_array(PRINT_JSON, "connections");
	for (k = 0; k < m.cap[0].nends; k++)
		if (m.cap[0].ends[k].pair >= 0)
			print_conn(&m, k);
	close_json_array(PRINT_JSON, NULL);
	open_json_array(PRINT_JSON, "unpaired");
	for (h = 0; h < 2; h++) {
		for (k = 0; k < m.cap[h].nends; k++) {
			const struct mend *e = &m.cap[h].ends[k];

			if (e->pair >= 0)
				continue;
			open_json_object(NULL);
			print_string(PRINT_FP, NULL, "%s", "unpaired: ");
			print_end(e, h, "end");
			print_u64(PRINT_ANY, "records", ", records %llu\n",
				  e->records);
			close_json_object();
		}
	}
	close_json_array(PRINT_JSON, NULL);
	close_json_object();
	delete_json_obj();
	for (h = 0; h < 2; h++)
		if (m.cap[h].malformed || m.cap[h].cut)
			rc = MERGE_EXIT_MALFORMED;
	if (out) {
		wrc = write_merged(&m, &mo);
		if (wrc == MERGE_EXIT_OPEN || (wrc && !rc))
			rc = wrc;
	}
out:
	out_discard(&mo);
	if (!mo.tmp && mo.fd >= 0)
		close(mo.fd);
	for (h = 0; h < 2; h++) {
		free(m.cap[h].ends);
		free(m.cap[h].clc);
		free(m.cap[h].hash);
	}
	for (k = 0; k < m.nframes; k++)
		free(m.frames[k].data);
	free(m.frames);
	free(m.recs);
	free(m.bnds);
	free(m.byend);
	return rc;
}
