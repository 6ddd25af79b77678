// SPDX-License-Identifier: GPL-2.0
/*
 * smc dump analyze: per connection and direction, how fast the bytes
 * went and what held them back, from the data records and the cursors
 * of the CDC messages. smc-dump(8) defines every number printed here;
 * keep the two in step.
 *
 * A direction is a byte stream from its sender to its receiver: tx from
 * the capturing host to the peer, rx back. Its events are
 *   DATA  a data record of the direction (offset, orig_len);
 *   PROD  a CDC message of the sender: its producer cursor says how far
 *         the sender wrote into the receiver's buffer, its flags
 *         write_blocked and cons_curs_upd_req speak of this direction;
 *   CONS  a CDC message of the receiver: its consumer cursor says how far
 *         the receiver consumed (a consumer-cursor update when it moved).
 * They are kept in capture order and read once at the report, when the
 * receiver's buffer size is known: from the CLC Accept or Confirm the
 * receiver sent (its RMBE or DMBE size), else inferred from the cursors.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "smcdump.h"
#include "json_print.h"
#include "conn.h"
#include "lgr.h"

enum ev_kind {
	EV_DATA = DUMP_AN_DATA,
	EV_PROD = DUMP_AN_PROD,
	EV_CONS = DUMP_AN_CONS,
};

/* CDC producer flags (record-format.md) */
#define PF_WRITE_BLOCKED	0x80
#define PF_CONS_UPD_REQ		0x10

/**
 * struct ev - one event of a direction
 * @t: capture time, ns since the epoch
 * @frame: frame number
 * @pos: DATA: offset; PROD, CONS: the cursor's count
 * @len: DATA: orig_len; PROD: the connection state flags
 * @wrap: PROD, CONS: the cursor's wrap
 * @kind: enum ev_kind
 * @flags: DATA: the record's flags (SMC_DUMP_F_*); PROD: producer flags
 */
struct ev {
	int64_t t;
	uint64_t frame;
	uint64_t pos;
	uint32_t len;
	uint16_t wrap;
	uint8_t kind;
	uint8_t flags;
};

struct stall {
	int64_t start;
	int64_t dur;
	uint64_t start_frame;
	uint64_t end_frame;
	bool window_full;
};

struct dir {
	struct ev *ev;
	size_t n;
	size_t cap;
};

/* The analyzer's state of a connection (struct dump_conn.an) */
struct dump_aconn {
	const struct dump_conn *k;	/* the connection: its key */
	uint64_t records;
	uint64_t first_frame;
	int64_t first_t;
	int64_t last_t;
	struct dir d[2];	/* 0 tx, 1 rx */
};

/* a receive buffer size announced in a CLC Accept or Confirm: the
 * sender of the message (@src) is the receiver of the bytes @dst sends
 */
struct aclc {
	uint8_t family;
	uint8_t src[16];
	uint8_t dst[16];
	uint16_t sport;
	uint16_t dport;
	uint64_t frame;
	uint32_t size;
};

struct dump_analyze {
	uint64_t window_ns;
	bool has_token;
	uint32_t token;
	bool has_base;
	int64_t base;
	const struct dump_conns *conns;
	const struct dump_owners *owners;	/* the context file, or NULL */
	struct aclc *clc;
	size_t nclc;
	size_t clccap;
	bool clc_sorted;
	uint64_t legacy;
	bool nomem;
	const struct dump_lgrs *lgrs;
};

/* ns since the epoch; a broken capture's times are held to the years
 * 1970..2255 so that nothing overflows
 */
static int64_t ts_ns(long long sec, uint32_t nsec)
{
	if (sec < 0)
		sec = 0;
	if (sec > 9000000000ll)
		sec = 9000000000ll;
	if (nsec > 999999999u)
		nsec = 999999999u;
	return (int64_t)sec * 1000000000 + nsec;
}

/**
 * dump_analyze_new() - an analyzer for one capture
 * @conns: the capture's connections, which dump_analyze_record() is given
 *	(the analyzer's state hangs on them); it outlives the analyzer
 * @o: the options: window_ns, has_token, token
 *
 * Return: the analyzer, or NULL when memory ran out.
 */
struct dump_analyze *dump_analyze_new(const struct dump_conns *conns,
				      const struct dump_opts *o)
{
	struct dump_analyze *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->window_ns = o->window_ns ? o->window_ns : DUMP_AN_WINDOW_NS;
	a->has_token = o->has_token;
	a->token = o->token;
	a->owners = o->owners;
	a->conns = conns;
	return a;
}

/**
 * dump_analyze_time() - a frame's time; the first one is time 0 of the
 *	report, as Wireshark's relative times
 * @a: the analyzer
 * @sec: seconds
 * @nsec: nanoseconds
 */
void dump_analyze_time(struct dump_analyze *a, long long sec, uint32_t nsec)
{
	if (a->has_base || sec < 0 || nsec >= 1000000000u)
		return;
	a->base = ts_ns(sec, nsec);
	a->has_base = true;
}

/* The analyzer's state of @k, made when new; NULL when memory ran out */
static struct dump_aconn *aconn_get(struct dump_analyze *a,
				    struct dump_conn *k)
{
	if (k && !k->an) {
		k->an = calloc(1, sizeof(*k->an));
		if (k->an)
			k->an->k = k;
	}
	if (!k || !k->an)
		a->nomem = true;
	return k ? k->an : NULL;
}

static struct ev *ev_add(struct dump_analyze *a, struct dir *d)
{
	if (d->n == d->cap) {
		size_t cap = d->cap ? d->cap * 2 : 4;
		struct ev *v = realloc(d->ev, cap * sizeof(*v));

		if (!v) {
			a->nomem = true;
			return NULL;
		}
		d->ev = v;
		d->cap = cap;
	}
	return &d->ev[d->n++];
}

/**
 * dump_analyze_record() - take a decoded record
 * @a: the analyzer
 * @frame: its frame number
 * @sec: capture time, seconds
 * @nsec: nanoseconds
 * @k: the record's connection (dump_conns_get()), NULL for a legacy
 *	record or when it could not be had (memory ran out)
 * @r: the record
 * @cdc: the CDC message of a CDC record, else NULL
 */
void dump_analyze_record(struct dump_analyze *a, uint64_t frame,
			 long long sec, uint32_t nsec, struct dump_conn *k,
			 const struct dump_rec *r, const struct dump_cdc *cdc)
{
	int d = r->flags & SMC_DUMP_F_RX ? 1 : 0;
	int64_t t = ts_ns(sec, nsec);
	struct dump_aconn *c;
	struct ev *e;

	if (r->legacy) {
		a->legacy++;
		return;
	}
	/* an end may pair with the end of the token asked for later on:
	 * only a pair decides, the report chooses the rest
	 */
	if (a->has_token && k && k->peer && !dump_conn_has_token(k, a->token))
		return;
	if (r->type == SMC_DUMP_TYPE_CDC && !cdc)
		return;
	c = aconn_get(a, k);
	if (!c)
		return;
	if (!c->records++) {
		c->first_frame = frame;
		c->first_t = t;
		c->last_t = t;
	}
	if (t > c->last_t)
		c->last_t = t;
	if (r->type != SMC_DUMP_TYPE_CDC) {
		e = ev_add(a, &c->d[d]);
		if (!e)
			return;
		e->t = t;
		e->frame = frame;
		e->kind = EV_DATA;
		e->pos = r->offset;
		e->len = r->orig_len;
		e->wrap = 0;
		e->flags = r->flags;
		return;
	}
	/* the sender's CDC: its producer cursor, for direction d */
	e = ev_add(a, &c->d[d]);
	if (!e)
		return;
	e->t = t;
	e->frame = frame;
	e->kind = EV_PROD;
	e->pos = cdc->prod_count;
	e->len = cdc->conn_state_flags;
	e->wrap = cdc->prod_wrap;
	e->flags = cdc->prod_flags;
	/* and its consumer cursor, for the other direction */
	e = ev_add(a, &c->d[!d]);
	if (!e)
		return;
	e->t = t;
	e->frame = frame;
	e->kind = EV_CONS;
	e->pos = cdc->cons_count;
	e->len = 0;
	e->wrap = cdc->cons_wrap;
	e->flags = 0;
}

/**
 * dump_analyze_clc() - take a CLC message: Accept and Confirm announce
 *	the receive buffer of their sender
 * @a: the analyzer
 * @frame: its frame number (the last segment's when reassembled)
 * @pkt: the TCP segment (addresses and ports)
 * @size: the receive buffer it announces, bytes (dump_clc_peer_buf():
 *	the RMBE size for SMC-R, the DMBE size less its 32-byte header for
 *	SMC-D)
 */
void dump_analyze_clc(struct dump_analyze *a, uint64_t frame,
		      const struct dump_pkt *pkt, uint32_t size)
{
	size_t alen = pkt->family == AF_INET6 ? 16 : 4;
	struct aclc *m;
	if (a->nclc == a->clccap) {
		size_t cap = a->clccap ? a->clccap * 2 : 16;
		struct aclc *v = realloc(a->clc, cap * sizeof(*v));

		if (!v) {
			a->nomem = true;
			return;
		}
		a->clc = v;
		a->clccap = cap;
	}
	a->clc_sorted = false;
	m = &a->clc[a->nclc++];
	memset(m, 0, sizeof(*m));
	m->family = (uint8_t)pkt->family;
	memcpy(m->src, pkt->src, alen);
	memcpy(m->dst, pkt->dst, alen);
	m->sport = pkt->sport;
	m->dport = pkt->dport;
	m->frame = frame;
	m->size = size;
}

/* order of the CLC sizes: by flow, then frame */
static int clc_cmp(const void *x, const void *y)
{
	const struct aclc *a = x, *b = y;
	int r;

	if (a->family != b->family)
		return a->family < b->family ? -1 : 1;
	r = memcmp(a->src, b->src, 16);
	if (!r)
		r = memcmp(a->dst, b->dst, 16);
	if (r)
		return r;
	if (a->sport != b->sport)
		return a->sport < b->sport ? -1 : 1;
	if (a->dport != b->dport)
		return a->dport < b->dport ? -1 : 1;
	if (a->frame != b->frame)
		return a->frame < b->frame ? -1 : 1;
	return 0;
}

static void clc_sort(struct dump_analyze *a)
{
	if (a->nclc && !a->clc_sorted)
		qsort(a->clc, a->nclc, sizeof(*a->clc), clc_cmp);
	a->clc_sorted = true;
}

/* The buffer of the receiver of direction @d of @c: the last size its
 * receiver announced in a CLC message before the connection's first
 * record (else the first after it); 0 when none was captured.
 */
static uint32_t clc_size(const struct dump_analyze *a, const struct dump_aconn *c,
			 int d)
{
	struct aclc key = { 0 };
	size_t lo = 0, hi = a->nclc, mid;
	uint32_t size = 0;

	key.family = c->k->family;
	/* tx: the peer receives, its message went peer > local */
	memcpy(key.src, d ? c->k->laddr : c->k->raddr, 16);
	memcpy(key.dst, d ? c->k->raddr : c->k->laddr, 16);
	key.sport = d ? c->k->lport : c->k->rport;
	key.dport = d ? c->k->rport : c->k->lport;
	key.frame = 0;
	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (clc_cmp(&a->clc[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (; lo < a->nclc; lo++) {
		key.frame = a->clc[lo].frame;
		if (clc_cmp(&a->clc[lo], &key))
			break;
		if (size && a->clc[lo].frame > c->first_frame)
			break;
		size = a->clc[lo].size;
	}
	return size;
}

/* ---- the analysis of one direction ---- */

enum buf_src {
	BUF_UNKNOWN,
	BUF_CLC,	/* from the CLC handshake */
	BUF_WRAP,	/* inferred: a producer cursor that wrapped */
	BUF_FLIGHT,	/* inferred: the most bytes seen in flight */
};

static const char *const buf_src_name[] = {
	[BUF_UNKNOWN] = "unknown",
	[BUF_CLC] = "clc",
	[BUF_WRAP] = "inferred-wrap",
	[BUF_FLIGHT] = "inferred-in-flight",
};

/* a 16-bit wrap counter made monotonic */
struct unwrap {
	bool init;
	uint16_t last;
	int64_t w;
};

static int64_t unwrap(struct unwrap *u, uint16_t raw)
{
	uint16_t d;

	if (!u->init) {
		u->init = true;
		u->w = raw;
	} else {
		d = (uint16_t)(raw - u->last);
		if (d < 0x8000)
			u->w += d;
		else
			u->w -= 0x10000 - d;
	}
	u->last = raw;
	return u->w;
}

struct result {
	uint64_t data;
	uint64_t cdc;
	uint64_t bytes;
	int64_t first;		/* first and last data record */
	int64_t last;
	uint64_t peak_bytes;
	int64_t peak_start;
	uint64_t buf;
	enum buf_src src;
	bool window;		/* the window numbers are known */
	bool cons_from_start;	/* consumer cursor 0 before the first one */
	int64_t closed_ns;
	uint64_t closed_n;
	int64_t limited_ns;
	uint64_t limited_n;
	bool closed_at_end;
	int64_t wait_ns;
	uint64_t wait_unanswered;
	uint64_t upd_req;
	uint64_t upd_sent;
	uint64_t write_blocked;
	struct stall stall[DUMP_AN_STALLS];
	unsigned int nstall;
};

/* E = w * N + k of a producer cursor (w, k) at stream position E */
static bool wrap_fits(uint64_t e, const struct ev *v, uint64_t *n)
{
	if (e <= v->pos || (e - v->pos) % v->wrap)
		return false;
	*n = (e - v->pos) / v->wrap;
	return *n > v->pos;
}

/* E after the data records that follow event @i on: the block a cursor
 * tells of may come as several records (cut at the largest IP datagram,
 * at the ring's end), and ends with the last record of that run. False
 * when no data record follows.
 */
static bool next_block_end(const struct dir *d, size_t i, uint64_t *e)
{
	size_t j;

	for (j = i + 1; j < d->n && d->ev[j].kind != EV_DATA; j++)
		;
	if (j == d->n)
		return false;
	*e = d->ev[j].pos + d->ev[j].len;
	for (j++; j < d->n && d->ev[j].kind == EV_DATA && d->ev[j].pos == *e;
	     j++)
		*e += d->ev[j].len;
	return true;
}

/* The receiver's buffer when no CLC message gave it. A producer cursor
 * with wrap w > 0 and count k at the stream offset E of the end of the
 * data it tells of gives E = w * N + k. Sent data is recorded before its
 * CDC message, so E is the end of the data so far, else of the block
 * that follows; received data after its CDC message, so the other way
 * round (@rx). Without any wrap, the most bytes ever in flight (producer
 * minus consumer) is taken.
 */
static uint64_t infer_buf(const struct dir *d, bool rx, enum buf_src *src)
{
	uint64_t hi = 0, flight = 0, p = 0, c = 0, e, n;
	bool wrapped = false, has_hi = false, any_cons = false;
	unsigned int k;
	size_t i;

	for (i = 0; i < d->n; i++) {
		const struct ev *v = &d->ev[i];

		if (v->kind == EV_DATA) {
			e = v->pos + v->len;
			if (!has_hi || e > hi)
				hi = e;
			has_hi = true;
			if (hi > p)
				p = hi;
		} else if (v->wrap) {
			wrapped = true;
		} else if (v->kind == EV_PROD) {
			if (v->pos > p)
				p = v->pos;
		} else {
			any_cons = true;
			if (v->pos > c)
				c = v->pos;
		}
		if (!wrapped && p > c && p - c > flight)
			flight = p - c;
		if (v->kind != EV_PROD || !v->wrap)
			continue;
		for (k = 0; k < 2; k++) {
			/* sent: the data so far first; received: the block
			 * that follows first
			 */
			if ((k == 0) != rx) {
				if (!has_hi)
					continue;
				e = hi;
			} else if (!next_block_end(d, i, &e)) {
				continue;
			}
			if (wrap_fits(e, v, &n)) {
				*src = BUF_WRAP;
				return n;
			}
		}
	}
	if (wrapped || !flight || !any_cons) {
		*src = BUF_UNKNOWN;
		return 0;
	}
	*src = BUF_FLIGHT;
	return flight;
}

static void stall_add(struct result *r, const struct stall *s)
{
	unsigned int i = r->nstall;

	if (i == DUMP_AN_STALLS) {
		if (s->dur <= r->stall[i - 1].dur)
			return;
		i--;
	} else {
		r->nstall++;
	}
	/* sorted longest first; the earlier of equal ones first */
	while (i && r->stall[i - 1].dur < s->dur) {
		r->stall[i] = r->stall[i - 1];
		i--;
	}
	r->stall[i] = *s;
}

static void analyze_dir(const struct dump_analyze *a, const struct dump_aconn *c,
			int dn, struct result *r, struct dump_an_point *pt)
{
	const struct dir *d = &c->d[dn];
	struct unwrap up = { 0 }, uc = { 0 };
	uint64_t p = 0, cons = 0, lowest = UINT64_MAX, win_bytes = 0;
	bool has_p = false, has_c = false, closed = false, pending = false;
	bool waiting = false, has_prog = false, prog_full = false;
	bool has_cons_raw = false, any_cons = false;
	uint16_t cons_wrap = 0;
	uint64_t cons_count = 0, prog_frame = 0, win_idx = 0;
	int64_t closed_t = 0, deferred = -1, wait_t = 0, prog_t = 0;
	size_t i;

	memset(r, 0, sizeof(*r));
	r->buf = clc_size(a, c, dn);
	r->src = r->buf ? BUF_CLC : BUF_UNKNOWN;
	if (!r->buf)
		r->buf = infer_buf(d, dn == 1, &r->src);
	for (i = 0; i < d->n; i++) {
		if (d->ev[i].kind == EV_DATA && d->ev[i].pos < lowest)
			lowest = d->ev[i].pos;
		if (d->ev[i].kind == EV_CONS)
			any_cons = true;
	}
	/* the capture saw the stream begin: nothing consumed before the
	 * receiver's first consumer cursor; without any, no window
	 */
	if (lowest == 0 && any_cons) {
		has_c = true;
		cons = 0;
		r->cons_from_start = true;
	}
	for (i = 0; i < d->n; i++) {
		const struct ev *v = &d->ev[i];
		bool progress = false, full, known = false;
		uint64_t at = 0;
		int64_t x;

		switch (v->kind) {
		case EV_DATA:
			if (!r->data++) {
				r->first = v->t;
				r->last = v->t;
			}
			if (v->t > r->last)
				r->last = v->t;
			r->bytes += v->len;
			/* throughput windows from the first data record */
			x = v->t > r->first ? v->t - r->first : 0;
			if ((uint64_t)x / a->window_ns > win_idx) {
				if (win_bytes > r->peak_bytes) {
					r->peak_bytes = win_bytes;
					r->peak_start = r->first +
						(int64_t)(win_idx * a->window_ns);
				}
				win_idx = (uint64_t)x / a->window_ns;
				win_bytes = 0;
			}
			win_bytes += v->len;
			if (!has_p || v->pos + v->len > p) {
				progress = has_p ? true : v->len > 0;
				p = v->pos + v->len;
				has_p = true;
			}
			break;
		case EV_PROD:
			r->cdc++;
			if (v->flags & PF_CONS_UPD_REQ)
				r->upd_req++;
			if (v->flags & PF_WRITE_BLOCKED)
				r->write_blocked++;
			if ((v->flags & (PF_CONS_UPD_REQ | PF_WRITE_BLOCKED)) &&
			    !waiting) {
				waiting = true;
				wait_t = v->t;
			}
			if (r->buf || !v->wrap) {
				int64_t w = unwrap(&up, v->wrap);
				uint64_t abs = (uint64_t)w * r->buf + v->pos;

				known = true;
				at = abs;
				if (!has_p || abs > p) {
					progress = has_p;
					p = abs;
					has_p = true;
				}
			}
			break;
		case EV_CONS:
			if (has_cons_raw ? v->wrap != cons_wrap ||
					   v->pos != cons_count :
					   v->wrap || v->pos) {
				r->upd_sent++;
				if (waiting) {
					r->wait_ns += v->t > wait_t ?
						      v->t - wait_t : 0;
					waiting = false;
				}
			}
			has_cons_raw = true;
			cons_wrap = v->wrap;
			cons_count = v->pos;
			if (r->buf || !v->wrap) {
				int64_t w = unwrap(&uc, v->wrap);

				cons = (uint64_t)w * r->buf + v->pos;
				has_c = true;
				known = true;
				at = cons;
			}
			break;
		}
		/* new data after a full window: the sender had data pending */
		if (progress && deferred >= 0) {
			r->limited_ns += deferred;
			r->limited_n++;
			deferred = -1;
		}
		full = r->buf && has_p && has_c && p >= cons + r->buf;
		if (!closed && full) {
			closed = true;
			closed_t = v->t;
			pending = v->kind == EV_PROD &&
				  (v->flags & PF_WRITE_BLOCKED);
			deferred = -1;
		} else if (closed && full) {
			if (v->kind == EV_PROD && (v->flags & PF_WRITE_BLOCKED))
				pending = true;
		} else if (closed) {
			x = v->t > closed_t ? v->t - closed_t : 0;
			r->closed_ns += x;
			r->closed_n++;
			if (pending) {
				r->limited_ns += x;
				r->limited_n++;
			} else {
				deferred = x;
			}
			closed = false;
		}
		if (pt) {
			struct dump_an_point *o = &pt[i];

			o->t = v->t > a->base ? v->t - a->base : 0;
			o->frame = v->frame;
			o->kind = v->kind;
			o->flags = v->flags;
			o->state = v->kind == EV_PROD ? (uint8_t)v->len : 0;
			o->known = v->kind == EV_DATA || known;
			o->lo = v->kind == EV_DATA ? v->pos : at;
			o->hi = v->kind == EV_DATA ? v->pos + v->len :
				v->kind == EV_CONS && known && r->buf ?
				at + r->buf : at;
			o->full = full;
		}
		if (progress || (!has_prog && has_p)) {
			if (has_prog && v->t > prog_t) {
				struct stall s = {
					.start = prog_t,
					.dur = v->t - prog_t,
					.start_frame = prog_frame,
					.end_frame = v->frame,
					.window_full = prog_full,
				};

				stall_add(r, &s);
			}
			has_prog = true;
			prog_t = v->t;
			prog_frame = v->frame;
			prog_full = closed;
		}
	}
	if (r->data && win_bytes > r->peak_bytes) {
		r->peak_bytes = win_bytes;
		r->peak_start = r->first + (int64_t)(win_idx * a->window_ns);
	}
	/* what is still open at the connection's last record */
	if (closed) {
		int64_t x = c->last_t > closed_t ? c->last_t - closed_t : 0;

		r->closed_ns += x;
		r->closed_n++;
		r->closed_at_end = true;
		if (pending) {
			r->limited_ns += x;
			r->limited_n++;
		}
	}
	if (waiting) {
		r->wait_ns += c->last_t > wait_t ? c->last_t - wait_t : 0;
		r->wait_unanswered++;
	}
	r->window = r->buf && has_c;
}

/* The link groups' timeline that the report prints after the
 * connections (lgr.c); decode.c owns it
 */
void dump_analyze_set_lgrs(struct dump_analyze *a, const struct dump_lgrs *g)
{
	a->lgrs = g;
}

/* ---- the report ---- */

/* text: ns as milliseconds, "12.345678 ms" */
static void print_dur(const char *key, const char *label, int64_t ns)
{
	char buf[48];

	print_u64(PRINT_JSON, key, NULL, (uint64_t)(ns < 0 ? 0 : ns));
	if (!is_json_context()) {
		snprintf(buf, sizeof(buf), "%s%s %lld.%06lld ms",
			 *label ? " " : "", label,
			 (long long)(ns / 1000000),
			 (long long)(ns % 1000000));
		print_string(PRINT_FP, NULL, "%s", buf);
	}
}

/* a time since the capture's first frame: JSON ns, text " LABEL 1.234567 s"
 * (times before the first frame, out of order, count as 0)
 */
static void print_at(const struct dump_analyze *a, const char *key,
		     const char *label, int64_t t)
{
	int64_t rel = t > a->base ? t - a->base : 0;
	char buf[48];

	print_u64(PRINT_JSON, key, NULL, (uint64_t)rel);
	if (is_json_context())
		return;
	snprintf(buf, sizeof(buf), " %s %lld.%06lld s", label,
		 (long long)(rel / 1000000000),
		 (long long)(rel % 1000000000 / 1000));
	print_string(PRINT_FP, NULL, "%s", buf);
}

static void print_rate(const char *key, const char *label, double bps)
{
	char buf[48];

	print_float(PRINT_JSON, key, NULL, bps);
	if (is_json_context())
		return;
	if (bps >= 1e9)
		snprintf(buf, sizeof(buf), " %s %.2f GB/s", label, bps / 1e9);
	else if (bps >= 1e6)
		snprintf(buf, sizeof(buf), " %s %.2f MB/s", label, bps / 1e6);
	else if (bps >= 1e3)
		snprintf(buf, sizeof(buf), " %s %.2f kB/s", label, bps / 1e3);
	else
		snprintf(buf, sizeof(buf), " %s %.0f B/s", label, bps);
	print_string(PRINT_FP, NULL, "%s", buf);
}

/* One direction of an end: "tx:" or "rx:" ("peer tx:", "peer rx:" in
 * text when @peer: the other end of a pair)
 */
static void print_dir(const struct dump_analyze *a, const struct dump_aconn *c,
		      int dn, bool peer)
{
	static const char *const name[2] = { "tx", "rx" };
	struct result r;
	unsigned int i;

	analyze_dir(a, c, dn, &r, NULL);
	open_json_object(name[dn]);
	print_string(PRINT_FP, NULL, "  %s", peer ? "peer " : "");
	print_string(PRINT_FP, NULL, "%s:", name[dn]);
	print_u64(PRINT_ANY, "data", " data %" PRIu64, r.data);
	print_u64(PRINT_ANY, "cdc", " cdc %" PRIu64, r.cdc);
	if (r.data)
		print_float(PRINT_ANY, "cdc_per_data", " cdc-per-data %.2f",
			    (double)r.cdc / (double)r.data);
	else
		print_null(PRINT_JSON, "cdc_per_data", NULL, NULL);
	print_u64(PRINT_ANY, "bytes", " bytes %" PRIu64, r.bytes);
	if (c->k->has_sseq) {
		/* told by stream_seq (decode.c settles it before reports) */
		print_u64(PRINT_ANY, "lost_records", " lost-records %" PRIu64,
			  c->k->lost[dn][0] + c->k->lost[dn][1]);
		print_u64(PRINT_ANY, "lost_data_records", " (data %" PRIu64,
			  c->k->lost[dn][0]);
		print_u64(PRINT_ANY, "lost_cdc_records", ", cdc %" PRIu64 ")",
			  c->k->lost[dn][1]);
	}
	if (r.data) {
		print_at(a, "first_ns", "from", r.first);
		print_dur("duration_ns", "duration", r.last - r.first);
	}
	print_nl();
	if (r.data) {
		print_string(PRINT_FP, NULL, "%s", "     ");
		if (r.last > r.first)
			print_rate("mean_bytes_per_sec", "mean",
				   (double)r.bytes * 1e9 /
				   (double)(r.last - r.first));
		else
			print_null(PRINT_ANY, "mean_bytes_per_sec",
				   " mean %s", "-");
		print_rate("peak_bytes_per_sec", "peak",
			   (double)r.peak_bytes * 1e9 / (double)a->window_ns);
		print_at(a, "peak_at_ns", "in the window from", r.peak_start);
		print_nl();
	}
	print_string(PRINT_FP, NULL, "%s", "     ");
	if (r.buf) {
		print_u64(PRINT_ANY, "buffer", " buffer %" PRIu64, r.buf);
		print_string(PRINT_ANY, "buffer_from", " (%s)",
			     buf_src_name[r.src]);
	} else {
		print_null(PRINT_ANY, "buffer", " buffer %s", "unknown");
		print_null(PRINT_JSON, "buffer_from", NULL, NULL);
	}
	print_bool(PRINT_JSON, "buffer_inferred", NULL,
		   r.src == BUF_WRAP || r.src == BUF_FLIGHT);
	if (r.window) {
		print_dur("window_closed_ns", "window-closed", r.closed_ns);
		print_u64(PRINT_ANY, "window_closed_times", " (%" PRIu64 " times)",
			  r.closed_n);
		print_dur("window_limited_ns", "window-limited", r.limited_ns);
		print_u64(PRINT_ANY, "window_limited_times",
			  " (%" PRIu64 " times)", r.limited_n);
		print_bool(PRINT_ANY, "window_closed_at_end",
			   r.closed_at_end ? " closed-at-end" : "",
			   r.closed_at_end);
	} else {
		print_null(PRINT_ANY, "window_closed_ns",
			   " window-closed %s", "unknown");
		print_null(PRINT_JSON, "window_limited_ns", NULL, NULL);
	}
	print_nl();
	print_string(PRINT_FP, NULL, "%s", "     ");
	print_u64(PRINT_ANY, "cons_upd_req", " cons-upd-req %" PRIu64,
		  r.upd_req);
	print_u64(PRINT_ANY, "cons_upd_sent", " cons-upd-sent %" PRIu64,
		  r.upd_sent);
	print_u64(PRINT_ANY, "write_blocked", " write-blocked %" PRIu64,
		  r.write_blocked);
	print_dur("announce_wait_ns", "announce-wait", r.wait_ns);
	print_u64(PRINT_ANY, "announce_unanswered", " unanswered %" PRIu64,
		  r.wait_unanswered);
	print_nl();
	open_json_array(PRINT_JSON, "stalls");
	for (i = 0; i < r.nstall; i++) {
		const struct stall *s = &r.stall[i];

		open_json_object(NULL);
		print_string(PRINT_FP, NULL, "%s", "     stall");
		print_dur("duration_ns", "", s->dur);
		print_at(a, "start_ns", "at", s->start);
		print_u64(PRINT_ANY, "start_frame", " frames %" PRIu64,
			  s->start_frame);
		print_u64(PRINT_ANY, "end_frame", "-%" PRIu64, s->end_frame);
		print_bool(PRINT_ANY, "window_full",
			   s->window_full ? " window-full" : "",
			   s->window_full);
		close_json_object();
		print_nl();
	}
	close_json_array(PRINT_JSON, NULL);
	close_json_object();
}

/* An entry: the end @c and, when it is in the capture, its peer @p (text:
 * by direction, tx, peer rx, rx, peer tx; JSON: the peer's as "peer")
 */
static void print_conn(const struct dump_analyze *a, const struct dump_aconn *c,
		       const struct dump_aconn *p)
{
	static const char *const keys[4] = {
		"local_address", "local_port", "peer_address", "peer_port"
	};
	const struct dump_conn *k = c->k;
	char buf[16];

	open_json_object(NULL);
	print_string(PRINT_JSON, "mode", NULL,
		     k->mode == SMC_DUMP_MODE_SMCD ? "SMC-D" : "SMC-R");
	print_string(PRINT_FP, NULL, "%s",
		     k->mode == SMC_DUMP_MODE_SMCD ? "smcd" : "smcr");
	snprintf(buf, sizeof(buf), "0x%08x", k->token);
	print_string(PRINT_ANY, "token", " token %s", buf);
	dump_print_ends(k->family, k->laddr, k->lport, k->raddr, k->rport,
			keys, " %s <->", " %s");
	dump_print_owner(dump_owner_find(a->owners, k->token, k->family,
					 k->laddr, k->lport, k->raddr,
					 k->rport));
	if (p) {
		snprintf(buf, sizeof(buf), "0x%08x", p->k->token);
		print_string(PRINT_FP, NULL, " peer-token %s", buf);
	}
	print_u64(PRINT_ANY, "records", " records %" PRIu64, c->records);
	print_at(a, "first_ns", "from", c->first_t);
	print_dur("duration_ns", "duration", c->last_t - c->first_t);
	print_nl();
	print_dir(a, c, 0, false);
	if (p && !is_json_context())
		print_dir(a, p, 1, true);
	print_dir(a, c, 1, false);
	if (p && !is_json_context()) {
		print_dir(a, p, 0, true);
	} else if (p) {
		open_json_object("peer");
		print_string(PRINT_JSON, "token", NULL, buf);
		print_dir(a, p, 0, true);
		print_dir(a, p, 1, true);
		close_json_object();
	}
	close_json_object();
}

static bool has_an(const struct dump_conn *k)
{
	return k->an != NULL;
}

/* The ends of the entry @k heads, when it does and it is of the token
 * asked for (at either end): @k's state, its peer's in *@p (NULL when
 * alone); else NULL
 */
static const struct dump_aconn *entry(const struct dump_analyze *a,
				      const struct dump_conn *k,
				      const struct dump_aconn **p)
{
	const struct dump_conn *o;

	if (!dump_conn_heads(k, has_an))
		return NULL;
	o = dump_conn_shown_peer(k, has_an);
	if (a->has_token && k->token != a->token &&
	    !(o && o->token == a->token))
		return NULL;
	*p = o ? o->an : NULL;
	return k->an;
}

/**
 * dump_analyze_report() - print the analysis of every connection, then a
 *	total line
 * @a: the analyzer
 *
 * Return: 0; DUMP_AN_NO_TOKEN when a token was asked for and no record
 * had it (the error is said on stderr); 3 when memory ran out (the report
 * says so).
 */
int dump_analyze_report(struct dump_analyze *a)
{
	const struct dump_aconn *c, *p;
	const struct dump_conn *k;
	uint64_t nconn = 0;
	char buf[32];

	clc_sort(a);
	open_json_object(NULL);
	snprintf(buf, sizeof(buf), "%" PRIu64 ".%06" PRIu64,
		 a->window_ns / 1000000, a->window_ns % 1000000);
	print_u64(PRINT_JSON, "window_ns", NULL, a->window_ns);
	open_json_array(PRINT_JSON, "connections");
	for (k = a->conns->first; k; k = k->next) {
		c = entry(a, k, &p);
		if (!c)
			continue;
		print_conn(a, c, p);
		nconn++;
	}
	close_json_array(PRINT_JSON, NULL);
	if (a->lgrs) {
		dump_lgrs_report(a->lgrs, "  ",
				 a->has_token ? &a->token : NULL);
		if (dump_lgrs_nomem(a->lgrs))
			a->nomem = true;
	}
	open_json_object("total");
	print_u64(PRINT_ANY, "connections", "total: connections %" PRIu64,
		  nconn);
	print_string(PRINT_FP, NULL, " window %s ms", buf);
	print_u64(PRINT_ANY, "clc_buffers", " clc-buffers %" PRIu64,
		  (uint64_t)a->nclc);
	print_u64(PRINT_ANY, "legacy", " legacy-skipped %" PRIu64, a->legacy);
	if (a->nomem)
		print_bool(PRINT_ANY, "out_of_memory", " out-of-memory %s",
			   true);
	close_json_object();
	print_nl();
	close_json_object();
	if (a->nomem)
		return 3;
	if (a->has_token && !nconn) {
		fprintf(stderr,
			"Error: no connection has token 0x%08x.\n",
			a->token);
		return DUMP_AN_NO_TOKEN;
	}
	return 0;
}

/* Hand @c's direction @dn to @cb; @p the other end of its pair or NULL.
 * Return: what @cb returns, 0 for an empty direction, -1 when memory ran
 * out.
 */
static int trace_dir(struct dump_analyze *a, const struct dump_aconn *c,
		     const struct dump_aconn *p, int dn, dump_an_trace_cb cb,
		     void *arg)
{
	const struct dump_conn *k = c->k;
	struct dump_an_trace tr;
	struct result r;
	int rc;

	if (!c->d[dn].n)
		return 0;
	memset(&tr, 0, sizeof(tr));
	tr.pt = calloc(c->d[dn].n, sizeof(*tr.pt));
	if (!tr.pt)
		return -1;
	analyze_dir(a, c, dn, &r, tr.pt);
	tr.n = c->d[dn].n;
	tr.mode = k->mode;
	tr.token = k->token;
	tr.has_peer = p != NULL;
	tr.peer_token = p ? p->k->token : 0;
	tr.family = k->family;
	tr.laddr = k->laddr;
	tr.raddr = k->raddr;
	tr.lport = k->lport;
	tr.rport = k->rport;
	tr.dir = dn;
	tr.buffer = r.buf;
	tr.buffer_from = r.buf ? buf_src_name[r.src] : NULL;
	tr.buffer_inferred = r.src == BUF_WRAP || r.src == BUF_FLIGHT;
	tr.data = r.data;
	tr.cons_from_start = r.cons_from_start;
	rc = cb(arg, &tr);
	free(tr.pt);
	return rc;
}

/**
 * dump_analyze_traces() - hand every connection direction that has
 *	records to @cb, with its events as points
 * @a: the analyzer, after the last record
 * @cb: called per direction, in order of the connections' first record;
 *	of a connection, its first end's tx, then as the other end received
 *	it (the other end's rx), its first end's rx, the other end's tx; a
 *	nonzero return stops the walk
 * @arg: for @cb
 *
 * With a token asked for, only the connection with the token at either
 * end.
 *
 * Return: 0, the first nonzero return of @cb, or -1 when memory ran out.
 */
int dump_analyze_traces(struct dump_analyze *a, dump_an_trace_cb cb,
			void *arg)
{
	const struct dump_aconn *c, *p;
	const struct dump_conn *k;
	int rc = 0;

	clc_sort(a);
	for (k = a->conns->first; k && !rc; k = k->next) {
		c = entry(a, k, &p);
		if (!c)
			continue;
		rc = trace_dir(a, c, p, 0, cb, arg);
		if (!rc && p)
			rc = trace_dir(a, p, c, 1, cb, arg);
		if (!rc)
			rc = trace_dir(a, c, p, 1, cb, arg);
		if (!rc && p)
			rc = trace_dir(a, p, c, 0, cb, arg);
	}
	return rc;
}

/**
 * dump_analyze_free() - free the analyzer
 * @a: the analyzer, may be NULL
 */
void dump_analyze_free(struct dump_analyze *a)
{
	struct dump_conn *k;

	if (!a)
		return;
	for (k = a->conns->first; k; k = k->next) {
		if (!k->an)
			continue;
		free(k->an->d[0].ev);
		free(k->an->d[1].ev);
		free(k->an);
		k->an = NULL;
	}
	free(a->clc);
	free(a);
}
