// SPDX-License-Identifier: GPL-2.0
/*
 * lgr.c - the timeline of the SMC-R link groups of a capture, for the
 * reports of smc dump stats and analyze and the marks of smc dump graph
 *
 * A link group is named by its LLC records: the header's token (the
 * link group's id) and mode. Its timeline lists, in capture order, the
 * messages that add a link (CONFIRM_LINK, ADD_LINK) and remove one
 * (DELETE_LINK), and counts its LLC messages by type and direction.
 *
 * Which connections moved: a data record whose offset lies below the
 * highest end (offset + orig_len) of the earlier data records of its
 * direction sends bytes again, as SMC-R's failover does when it rewinds
 * a connection onto a link that is left. Such a resend after a
 * DELETE_LINK is listed under the latest DELETE_LINK of a link group of
 * the connection's mode before it: the data records do not say their
 * link group, so with two link groups in the capture a connection may
 * be listed under the other one's event.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "json_print.h"
#include "decode.h"
#include "lgr.h"

/* LLC header flags (net/smc/smc_llc.c) */
#define LLC_F_RESP		0x80
#define LLC_F_ADD_LINK_REJ	0x40
#define LLC_F_DEL_LINK_ALL	0x40
#define LLC_F_DEL_LINK_ORDERLY	0x20

/* the types counted by name, in the order the report lists them; the
 * others are counted as one
 */
static const uint8_t llc_types[] = {
	0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09,
	0x21, 0x22, 0x24, 0x25, 0x26, 0x27, 0x29,
};

#define N_TYPES		(sizeof(llc_types) / sizeof(llc_types[0]))

enum lgr_ev_kind {
	EV_ADDED,	/* CONFIRM_LINK, ADD_LINK */
	EV_REJECTED,	/* ADD_LINK rejected */
	EV_REMOVED,	/* DELETE_LINK */
};

static const char *const ev_name[] = {
	[EV_ADDED] = "link-added",
	[EV_REJECTED] = "link-add-rejected",
	[EV_REMOVED] = "link-removed",
};

static const char *const ev_key[] = {
	[EV_ADDED] = "link_added",
	[EV_REJECTED] = "link_add_rejected",
	[EV_REMOVED] = "link_removed",
};

/**
 * struct lgr - one link group
 * @id: its id (the LLC records' token)
 * @mode: the records' mode
 * @llc: its LLC records, [0 sent, 1 received]
 * @cnt: of them by type: llc_types[], then the others
 * @first_ev: 1 + the index of its first event, 0 none
 * @last_ev: 1 + the index of its last event
 */
struct lgr {
	uint32_t id;
	uint8_t mode;
	uint32_t first_ev;
	uint32_t last_ev;
	uint64_t llc[2];
	uint64_t cnt[N_TYPES + 1][2];
};

/**
 * struct lgr_ev - one event of a link group's timeline
 * @t: capture time, ns since the epoch
 * @frame: frame number
 * @lgr: index of its link group
 * @next: 1 + the index of its link group's next event, 0 none
 * @kind: enum lgr_ev_kind
 * @type: the message's type
 * @rx: received
 * @resp: the message is a response
 * @failed: sent, and the send failed (SMC_DUMP_F_FAILED)
 * @link_id: the message's link id (an event is made only with it)
 * @all, @orderly: DELETE_LINK's flags
 * @reason: DELETE_LINK's reason, when @has_reason
 * @has_addr: CONFIRM_LINK: @gid .. @peer_qpn, the record's link part;
 *	ADD_LINK: @gid and @qpn, the sender's
 * @moved: DELETE_LINK: first index of its entries in struct
 *	dump_lgrs.moved, @nmoved of them
 */
struct lgr_ev {
	int64_t t;
	uint64_t frame;
	uint32_t lgr;
	uint32_t next;
	uint8_t kind;
	uint8_t type;
	uint8_t link_id;
	bool rx;
	bool resp;
	bool failed;
	bool all;
	bool orderly;
	bool has_reason;
	bool has_addr;
	uint32_t reason;
	uint32_t qpn;
	uint32_t peer_qpn;
	uint8_t gid[16];
	uint8_t peer_gid[16];
	size_t moved;
	size_t nmoved;
};

/**
 * struct dump_lgrs - the link groups of a capture and their events
 * @lgr: the link groups in order of their first LLC record, @nlgr
 * @lhash: open addressing index of @lgr (entry + 1, 0 free), @lhsize
 *	slots, a power of two
 * @ev: the events in capture order, @nev
 * @moved: the connections listed under the DELETE_LINK events, in the
 *	events' order
 * @last_del: per mode, 1 + the index of the latest DELETE_LINK, 0 none
 * @has_base: @base is the capture's first frame's time (ns)
 * @nomem: memory ran out: some records are not in the timeline
 */
struct dump_lgrs {
	struct lgr *lgr;
	size_t nlgr;
	size_t lgrcap;
	uint32_t *lhash;
	size_t lhsize;
	struct lgr_ev *ev;
	size_t nev;
	size_t evcap;
	const struct dump_conn **moved;
	size_t nmoved;
	size_t movedcap;
	uint32_t last_del[256];
	bool has_base;
	int64_t base;
	bool nomem;
};

/* ns since the epoch, held to the years 1970..2255 (as analyze.c) */
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

struct dump_lgrs *dump_lgrs_new(void)
{
	return calloc(1, sizeof(struct dump_lgrs));
}

/* a frame's time: the first valid one is time 0 (as dump_analyze_time()) */
void dump_lgrs_time(struct dump_lgrs *g, long long sec, uint32_t nsec)
{
	if (g->has_base || sec < 0 || nsec >= 1000000000u)
		return;
	g->base = ts_ns(sec, nsec);
	g->has_base = true;
}

/* Room for one more of @n elements of @size at *@p (@cap of them) */
static bool grow(void *p, size_t *cap, size_t n, size_t size)
{
	void **pp = p;
	size_t c;
	void *q;

	if (n < *cap)
		return true;
	c = *cap ? *cap * 2 : 16;
	q = realloc(*pp, c * size);
	if (!q)
		return false;
	*pp = q;
	*cap = c;
	return true;
}

static size_t lgr_hash(uint32_t id, uint8_t mode)
{
	uint64_t h = ((uint64_t)id << 8 | mode) * 0x9e3779b97f4a7c15ull;

	return (size_t)(h >> 32);
}

static bool lgr_rehash(struct dump_lgrs *g)
{
	size_t n = g->lhsize ? g->lhsize * 2 : 16, i, j;
	uint32_t *h = calloc(n, sizeof(*h));

	if (!h)
		return false;
	for (i = 0; i < g->nlgr; i++) {
		j = lgr_hash(g->lgr[i].id, g->lgr[i].mode) & (n - 1);
		while (h[j])
			j = (j + 1) & (n - 1);
		h[j] = (uint32_t)i + 1;
	}
	free(g->lhash);
	g->lhash = h;
	g->lhsize = n;
	return true;
}

/* The link group of @id and @mode, made when new; NULL: out of memory */
static struct lgr *lgr_get(struct dump_lgrs *g, uint32_t id, uint8_t mode)
{
	struct lgr *l;
	size_t j;

	if (g->lhsize) {
		j = lgr_hash(id, mode) & (g->lhsize - 1);
		for (; g->lhash[j]; j = (j + 1) & (g->lhsize - 1)) {
			l = &g->lgr[g->lhash[j] - 1];
			if (l->id == id && l->mode == mode)
				return l;
		}
	}
	if (g->nlgr >= UINT32_MAX - 1 ||
	    !grow(&g->lgr, &g->lgrcap, g->nlgr, sizeof(*g->lgr)))
		return NULL;
	if ((g->nlgr + 1) * 2 > g->lhsize && !lgr_rehash(g))
		return NULL;
	l = &g->lgr[g->nlgr];
	memset(l, 0, sizeof(*l));
	l->id = id;
	l->mode = mode;
	j = lgr_hash(id, mode) & (g->lhsize - 1);
	while (g->lhash[j])
		j = (j + 1) & (g->lhsize - 1);
	g->lhash[j] = (uint32_t)++g->nlgr;
	return l;
}

static size_t type_index(uint8_t type)
{
	size_t i;

	for (i = 0; i < N_TYPES; i++)
		if (llc_types[i] == type)
			break;
	return i;
}

/**
 * dump_lgrs_llc() - take an LLC record
 * @g: the timeline
 * @frame: its frame number
 * @sec: its time, seconds
 * @nsec: and nanoseconds
 * @r: the record, decoded (type SMC_DUMP_TYPE_LLC); one whose link or
 *	message header the capture cut is counted only as LLC of its group
 */
void dump_lgrs_llc(struct dump_lgrs *g, uint64_t frame, long long sec,
		   uint32_t nsec, const struct dump_rec *r)
{
	const uint8_t *p = r->payload, *m = p + DUMP_LLC_LINK_LEN;
	bool rx = r->flags & SMC_DUMP_F_RX;
	char note[DUMP_ERRLEN];
	size_t len, li;
	struct lgr_ev *e;
	bool bad;
	struct lgr *l;
	uint8_t t;

	l = lgr_get(g, r->token, r->mode);
	if (!l) {
		g->nomem = true;
		return;
	}
	l->llc[rx]++;
	if (r->payload_len < DUMP_LLC_LINK_LEN + DUMP_LLC_MIN) {
		l->cnt[N_TYPES][rx]++;
		return;
	}
	/* the fields up to the message's own length; a malformed one
	 * (decode.c takes none) makes no event
	 */
	len = dump_llc_check(m, r->payload_len - DUMP_LLC_LINK_LEN,
			     r->payload_wire_len - DUMP_LLC_LINK_LEN,
			     dump_llc_big_endian(r), &bad, note, sizeof(note));
	t = m[0];
	l->cnt[type_index(t)][rx]++;
	if (bad)
		return;
	/* an event names its link: none for a message the capture cut
	 * before its link id (CONFIRM_LINK's is the record's link's)
	 */
	if (!((t == 0x01 || t == 0x21) ||
	      ((t == 0x02 || t == 0x22) && len >= 32) ||
	      ((t == 0x04 || t == 0x24) && len >= 5)))
		return;
	if (g->nev >= UINT32_MAX - 1 ||
	    !grow(&g->ev, &g->evcap, g->nev, sizeof(*g->ev))) {
		g->nomem = true;
		return;
	}
	li = (size_t)(l - g->lgr);
	e = &g->ev[g->nev];
	memset(e, 0, sizeof(*e));
	e->t = ts_ns(sec, nsec);
	e->frame = frame;
	e->lgr = (uint32_t)li;
	e->type = t;
	e->rx = rx;
	e->resp = m[3] & LLC_F_RESP;
	e->failed = r->flags & SMC_DUMP_F_FAILED;
	switch (t) {
	case 0x01:
	case 0x21:
		/* the link it came on: the record's link part */
		e->kind = EV_ADDED;
		e->link_id = len >= 30 ? m[29] : p[4];
		e->has_addr = true;
		e->qpn = get_be32(p + 8);
		e->peer_qpn = get_be32(p + 12);
		memcpy(e->gid, p + 16, 16);
		memcpy(e->peer_gid, p + 32, 16);
		break;
	case 0x02:
	case 0x22:
		e->kind = m[3] & LLC_F_ADD_LINK_REJ ? EV_REJECTED : EV_ADDED;
		e->link_id = m[31];
		e->has_addr = true;
		memcpy(e->gid, m + 12, 16);
		e->qpn = get_be24(m + 28);
		break;
	default:
		e->kind = EV_REMOVED;
		e->all = m[3] & LLC_F_DEL_LINK_ALL;
		e->orderly = m[3] & LLC_F_DEL_LINK_ORDERLY;
		e->link_id = m[4];
		if (len >= 9) {
			e->has_reason = true;
			e->reason = get_be32(m + 5);
		}
		e->moved = g->nmoved;
		/* a DELETE_LINK whose send failed moved nothing */
		if (!e->failed)
			g->last_del[r->mode] = (uint32_t)g->nev + 1;
		break;
	}
	/* each group's events in a chain: the report reads them per group */
	if (l->last_ev)
		g->ev[l->last_ev - 1].next = (uint32_t)g->nev + 1;
	else
		l->first_ev = (uint32_t)g->nev + 1;
	l->last_ev = (uint32_t)++g->nev;
}

/**
 * dump_lgrs_data() - take a data record of a connection
 * @g: the timeline
 * @k: the record's end
 * @r: the record (type SMC_DUMP_TYPE_RAW)
 *
 * A record that begins below the highest end of its direction so far,
 * after a DELETE_LINK of its mode, lists @k under that DELETE_LINK (once
 * per connection: either end of a pair).
 */
void dump_lgrs_data(struct dump_lgrs *g, struct dump_conn *k,
		    const struct dump_rec *r)
{
	int dir = r->flags & SMC_DUMP_F_RX ? 1 : 0;
	uint64_t end = r->offset + r->orig_len;
	uint32_t ev = g->last_del[k->mode];
	struct lgr_ev *e;

	if (end < r->offset)
		end = UINT64_MAX;
	if (ev && r->offset < k->lgr_high[dir] && k->lgr_moved != ev &&
	    !(k->peer && k->peer->lgr_moved == ev)) {
		e = &g->ev[ev - 1];
		if (grow(&g->moved, &g->movedcap, g->nmoved,
			 sizeof(*g->moved))) {
			g->moved[g->nmoved++] = k;
			e->nmoved++;
			k->lgr_moved = ev;
		} else {
			g->nomem = true;
		}
	}
	if (end > k->lgr_high[dir])
		k->lgr_high[dir] = end;
}

bool dump_lgrs_nomem(const struct dump_lgrs *g)
{
	return g->nomem;
}

static const char *mode_json(uint8_t mode)
{
	return mode == SMC_DUMP_MODE_SMCD ? "SMC-D" : "SMC-R";
}

static const char *mode_text(uint8_t mode)
{
	return mode == SMC_DUMP_MODE_SMCD ? "smcd" : "smcr";
}

/* JSON: ns since the first frame; text "at 1.234567 s" */
static void print_time(const struct dump_lgrs *g, int64_t t)
{
	int64_t rel = t > g->base ? t - g->base : 0;
	char buf[48];

	print_u64(PRINT_JSON, "t_ns", NULL, (uint64_t)rel);
	if (is_json_context())
		return;
	snprintf(buf, sizeof(buf), "at %lld.%06lld s",
		 (long long)(rel / 1000000000),
		 (long long)(rel % 1000000000 / 1000));
	print_string(PRINT_FP, NULL, "%s", buf);
}

static void print_event(const struct dump_lgrs *g, const struct lgr_ev *e,
			const char *indent)
{
	const char *name = dump_llc_name(e->type);
	size_t i;

	open_json_object(NULL);
	print_string(PRINT_FP, NULL, "%s", indent);
	print_time(g, e->t);
	print_u64(PRINT_ANY, "frame", " frame %" PRIu64, e->frame);
	print_string(PRINT_ANY, "dir", " %s", e->rx ? "rx" : "tx");
	print_string(PRINT_ANY, "type", " %s", name);
	print_bool(PRINT_JSON, "response", NULL, e->resp);
	if (e->resp)
		print_string(PRINT_FP, NULL, "%s", " response");
	print_string(PRINT_JSON, "event", NULL, ev_key[e->kind]);
	print_string(PRINT_FP, NULL, " %s", ev_name[e->kind]);
	/* the send failed: the peer never saw it */
	print_bool(PRINT_JSON, "failed", NULL, e->failed);
	if (e->failed)
		print_string(PRINT_FP, NULL, "%s", " failed");
	if (e->kind == EV_REMOVED) {
		print_bool(PRINT_JSON, "all", NULL, e->all);
		if (e->all)
			print_string(PRINT_FP, NULL, "%s", " link all");
	}
	print_uint(e->all ? PRINT_JSON : PRINT_ANY, "link_id", " link %u",
		   e->link_id);
	if (e->has_addr && (e->type == 0x01 || e->type == 0x21)) {
		dump_print_gid("gid", " gid %s", e->gid);
		print_uint(PRINT_ANY, "qpn", " qp %u", e->qpn);
		dump_print_gid("peer_gid", " peer-gid %s", e->peer_gid);
		print_uint(PRINT_ANY, "peer_qpn", " peer-qp %u", e->peer_qpn);
	} else if (e->has_addr) {
		dump_print_gid("sender_gid", " sender-gid %s", e->gid);
		print_uint(PRINT_ANY, "sender_qpn", " sender-qp %u", e->qpn);
	}
	if (e->kind == EV_REMOVED) {
		if (e->has_reason) {
			const char *rn = dump_llc_del_reason(e->reason);
			char buf[12];

			dump_print_x32("reason_code", NULL, e->reason);
			snprintf(buf, sizeof(buf), "0x%08x", e->reason);
			if (rn)
				print_string(PRINT_ANY, "reason", " reason %s",
					     rn);
			else
				print_string(PRINT_FP, NULL, " reason %s",
					     buf);
		}
		print_bool(PRINT_JSON, "orderly", NULL, e->orderly);
		if (e->orderly)
			print_string(PRINT_FP, NULL, "%s", " orderly");
		open_json_array(PRINT_JSON, "moved");
		if (!e->failed)
			print_string(PRINT_FP, NULL, "%s", " moved");
		if (!e->nmoved && !e->failed)
			print_string(PRINT_FP, NULL, "%s", " none");
		for (i = 0; i < e->nmoved; i++) {
			const struct dump_conn *k = g->moved[e->moved + i];

			open_json_object(NULL);
			print_u64(PRINT_ANY, "conn", " conn %" PRIu64,
				  (uint64_t)k->conn);
			dump_print_x32("token", " token %s", k->token);
			close_json_object();
		}
		close_json_array(PRINT_JSON, NULL);
	}
	close_json_object();
	print_nl();
}

static void print_counts(const struct lgr *l, const char *indent)
{
	size_t i;

	open_json_array(PRINT_JSON, "counts");
	print_string(PRINT_FP, NULL, "%scounts:", indent);
	for (i = 0; i <= N_TYPES; i++) {
		const char *name = i < N_TYPES ? dump_llc_name(llc_types[i]) :
						 "other";

		if (!l->cnt[i][0] && !l->cnt[i][1])
			continue;
		open_json_object(NULL);
		print_string(PRINT_ANY, "type", " %s", name);
		print_u64(PRINT_ANY, "tx", " tx %" PRIu64, l->cnt[i][0]);
		print_u64(PRINT_ANY, "rx", " rx %" PRIu64, l->cnt[i][1]);
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	print_nl();
}

/* whether link group @l lists a connection of @token as moved */
static bool lgr_moved(const struct dump_lgrs *g, const struct lgr *l,
		      uint32_t token)
{
	const struct lgr_ev *e;
	uint32_t j;
	size_t i;

	for (j = l->first_ev; j; j = e->next) {
		e = &g->ev[j - 1];
		for (i = 0; i < e->nmoved; i++)
			if (dump_conn_has_token(g->moved[e->moved + i], token))
				return true;
	}
	return false;
}

/**
 * dump_lgrs_report() - the link groups with their timelines, into the
 *	current JSON object as an array "link_groups"; nothing at all when
 *	the capture had no LLC record
 * @g: the timeline
 * @indent: text: what goes before an event's line and the counts
 * @token: NULL, or only the link groups that list a connection of this
 *	token under one of their DELETE_LINKs (all when none does)
 */
void dump_lgrs_report(const struct dump_lgrs *g, const char *indent,
		      const uint32_t *token)
{
	bool any = false;
	uint32_t j;
	size_t i;

	if (!g->nlgr)
		return;
	for (i = 0; token && i < g->nlgr; i++)
		any |= lgr_moved(g, &g->lgr[i], *token);
	open_json_array(PRINT_JSON, "link_groups");
	for (i = 0; i < g->nlgr; i++) {
		const struct lgr *l = &g->lgr[i];

		if (any && !lgr_moved(g, l, *token))
			continue;

		open_json_object(NULL);
		dump_print_x32("lgr_id", "lgr %s", l->id);
		print_string(PRINT_JSON, "mode", NULL, mode_json(l->mode));
		print_string(PRINT_FP, NULL, " %s", mode_text(l->mode));
		print_u64(PRINT_ANY, "llc", " llc %" PRIu64,
			  l->llc[0] + l->llc[1]);
		print_u64(PRINT_ANY, "tx", " (tx %" PRIu64, l->llc[0]);
		print_u64(PRINT_ANY, "rx", " rx %" PRIu64 ")", l->llc[1]);
		print_nl();
		open_json_array(PRINT_JSON, "events");
		for (j = l->first_ev; j; j = g->ev[j - 1].next)
			print_event(g, &g->ev[j - 1], indent);
		close_json_array(PRINT_JSON, NULL);
		print_counts(l, indent);
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
}

int dump_lgrs_marks(const struct dump_lgrs *g, struct dump_llc_mark **marks,
		    size_t *n)
{
	struct dump_llc_mark *mk;
	size_t i, k = 0;

	*marks = NULL;
	*n = 0;
	if (!g || !g->nev)
		return 0;
	mk = calloc(g->nev, sizeof(*mk));
	if (!mk)
		return -1;
	for (i = 0; i < g->nev; i++) {
		const struct lgr_ev *e = &g->ev[i];

		/* only SMC-R has links; the graph marks their changes */
		if (e->kind == EV_REJECTED || e->failed ||
		    g->lgr[e->lgr].mode != SMC_DUMP_MODE_SMCR)
			continue;
		mk[k].t = e->t > g->base ? e->t - g->base : 0;
		mk[k].lgr_id = g->lgr[e->lgr].id;
		mk[k].type = e->type;
		mk[k].link_id = e->link_id;
		mk[k].up = e->kind == EV_ADDED;
		mk[k].all = e->all;
		mk[k].rx = e->rx;
		k++;
	}
	*marks = mk;
	*n = k;
	return 0;
}

void dump_lgrs_free(struct dump_lgrs *g)
{
	if (!g)
		return;
	free(g->lgr);
	free(g->lhash);
	free(g->ev);
	free(g->moved);
	free(g);
}
