// SPDX-License-Identifier: GPL-2.0
/*
 * smc dump graph: a time-sequence graph per connection direction (x the
 * time since the capture's first frame, y the stream offset), drawn with
 * cairo into PNG, SVG or PDF. The points come from the analyzer of smc
 * dump analyze (lib/smcdump/analyze.c, dump_analyze_traces()), so the
 * graph and the analysis read the same cursors the same way.
 *
 * Every series is reduced to one value range per pixel column before it
 * is drawn: a million records cost a thousand strokes, and a column
 * without records stays empty, so no stall is hidden.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <sys/stat.h>

#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "smcdump.h"
#include "dump_capture.h"
#include "json_print.h"
#include "smc.h"

#define G_W		1200	/* the picture, pixels (PNG) or points */
#define G_H		800
#define G_ML		100	/* margins of the plot area */
#define G_MR		30
#define G_MT		60
#define G_MB		70
#define G_PW		(G_W - G_ML - G_MR)
#define G_PH		(G_H - G_MT - G_MB)

#define PF_WRITE_BLOCKED	0x80
#define PF_URG_PENDING		0x40
#define PF_URG_PRESENT		0x20
#define PF_CONS_UPD_REQ		0x10
#define CS_DONE			0x80
#define CS_CLOSED		0x40
#define CS_ABORT		0x20

enum fmt { F_PNG, F_SVG, F_PDF };

enum series {
	S_DATA,
	S_TRUNC,
	S_PROD,
	S_CONS,
	S_LIMIT,
	S_WB,
	S_UPD,
	S_URG,
	S_CLOSE,
	S_HOLE,
	S_LLC_UP,
	S_LLC_DOWN,
	S_MAX,
};

static const char *const s_key[S_MAX] = {
	"data", "truncated", "producer", "consumer", "limit",
	"write_blocked", "cons_curs_upd_req", "urgent", "close", "holes",
	"llc_link_up", "llc_link_down",
};

static const char *const s_label[S_MAX] = {
	"data record (offset .. offset+len)",
	"truncated data record",
	"producer cursor (sender)",
	"consumer cursor (receiver)",
	"limit: consumer cursor + buffer",
	"write_blocked",
	"cons_curs_upd_req",
	"urgent data",
	"peer_done_writing / closed / abort",
	"hole: no record covered these bytes",
	"LLC: link added (CONFIRM_LINK, ADD_LINK)",
	"LLC: link removed (DELETE_LINK)",
};

static const double s_rgb[S_MAX][3] = {
	[S_DATA] = { 0.12, 0.35, 0.80 },
	[S_TRUNC] = { 0.95, 0.55, 0.10 },
	[S_PROD] = { 0.10, 0.60, 0.20 },
	[S_CONS] = { 0.55, 0.20, 0.70 },
	[S_LIMIT] = { 0.85, 0.10, 0.10 },
	[S_WB] = { 0.85, 0.10, 0.10 },
	[S_UPD] = { 0.95, 0.55, 0.10 },
	[S_URG] = { 0.90, 0.10, 0.70 },
	[S_CLOSE] = { 0.0, 0.0, 0.0 },
	[S_HOLE] = { 1.0, 0.75, 0.75 },
	[S_LLC_UP] = { 0.0, 0.55, 0.55 },
	[S_LLC_DOWN] = { 0.70, 0.0, 0.0 },
};

struct gopts {
	const char *file;
	const char *out;
	bool cdc_big_endian;
	bool has_token;
	uint32_t token;
	int dir;		/* -1 both, 0 tx, 1 rx */
	enum fmt fmt;
};

struct col {
	bool any;
	uint64_t lo;
	uint64_t hi;
};

/* A name's mode, token and direction, and how many files had them */
struct name_use {
	uint64_t key;		/* 0: a free slot */
	unsigned int n;
};

struct graph_run {
	const struct gopts *o;
	unsigned int selected;	/* directions to draw */
	unsigned int written;
	int err;		/* exit status of a failure */
	struct name_use *names;	/* open addressing, @nnames slots */
	size_t nnames;
	struct dump_llc_mark *marks;	/* the LLC link events */
	size_t nmarks;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: smc dump graph [ cdc-endian { little | big } ] [ token T ]\n"
		"                      [ tx | rx ] [ write OUT ] FILE\n"
		"OUT ends in .png (default smc-graph.png), .svg or .pdf; with several\n"
		"directions, -MODE-TOKEN-DIR goes before the extension (-TOKEN-2-DIR\n"
		"... for a token more than one connection has, as follow names them).\n");
}

/*
 * A direction drawn: all of the connection (both ends when paired), or
 * with tx or rx that direction of each end; with a token too, of the end
 * of that token only, one file as when the ends were not paired
 */
static bool selected(const struct gopts *o, const struct dump_an_trace *tr)
{
	if (o->dir < 0)
		return true;
	return o->dir == tr->dir && (!o->has_token || tr->token == o->token);
}

static int count_cb(void *arg, const struct dump_an_trace *tr)
{
	struct graph_run *g = arg;

	if (selected(g->o, tr))
		g->selected++;
	return 0;
}

/*
 * How many files before this one had @tr's mode, token and direction:
 * ends of several 4-tuples may have one token (a capture of two hosts, a
 * token used again), and each needs a name of its own. Return: that
 * count, or -1 when memory ran out.
 */
static long name_taken(struct graph_run *g, const struct dump_an_trace *tr)
{
	uint64_t key = (uint64_t)1 << 40 | (uint64_t)tr->mode << 33 |
		       (uint64_t)(tr->dir ? 1 : 0) << 32 | tr->token;
	size_t i, mask;

	if (!g->nnames) {
		for (g->nnames = 64; g->nnames < 2 * (size_t)g->selected;)
			g->nnames *= 2;
		g->names = calloc(g->nnames, sizeof(*g->names));
		if (!g->names) {
			g->nnames = 0;
			return -1;
		}
	}
	mask = g->nnames - 1;
	for (i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 20) & mask;
	     g->names[i].key && g->names[i].key != key; i = (i + 1) & mask)
		;
	g->names[i].key = key;
	return g->names[i].n++;
}

/* "OUT" or "OUT-smcr-0000abcd-tx" with OUT's extension at the end; the
 * second file of one mode, token and direction "OUT-smcr-0000abcd-2-tx",
 * and so on, as smc dump follow names its files
 */
static char *out_name(struct graph_run *g, const struct dump_an_trace *tr)
{
	const char *out = g->o->out, *dot = strrchr(out, '.');
	const char *slash = strrchr(out, '/');
	char again[24] = "";
	size_t stem;
	long taken;
	char *s;

	if (g->selected == 1)
		return strdup(out);
	taken = name_taken(g, tr);
	if (taken < 0)
		return NULL;
	if (taken)
		snprintf(again, sizeof(again), "-%ld", taken + 1);
	if (!dot || (slash && dot < slash))
		dot = out + strlen(out);
	stem = (size_t)(dot - out);
	if (asprintf(&s, "%.*s-%s-%08x%s-%s%s", (int)stem, out,
		     tr->mode == SMC_DUMP_MODE_SMCD ? "smcd" : "smcr",
		     tr->token, again, tr->dir ? "rx" : "tx", dot) < 0)
		return NULL;
	return s;
}

/* a step of 1, 2 or 5 times a power of ten giving about @n ticks */
static double nice_step(double span, int n)
{
	double raw = span / n, p = pow(10, floor(log10(raw))), m = raw / p;

	if (m < 1.5)
		return p;
	if (m < 3.5)
		return 2 * p;
	if (m < 7.5)
		return 5 * p;
	return 10 * p;
}

struct scale {
	int64_t t0;
	int64_t t1;
	uint64_t y0;
	uint64_t y1;
	double tdiv;		/* ns per unit of the x labels */
	const char *tunit;
	double ydiv;		/* bytes per unit of the y labels */
	const char *yunit;
};

static double sx(const struct scale *s, int64_t t)
{
	return G_ML + (double)(t - s->t0) * G_PW / (double)(s->t1 - s->t0);
}

static double sy(const struct scale *s, uint64_t y)
{
	double v = y < s->y0 ? 0 : (double)(y - s->y0);

	return G_MT + G_PH - v * G_PH / (double)(s->y1 - s->y0);
}

static int col_of(const struct scale *s, int64_t t)
{
	double x = (double)(t - s->t0) * (G_PW - 1) / (double)(s->t1 - s->t0);
	int c = (int)x;

	return c < 0 ? 0 : c >= G_PW ? G_PW - 1 : c;
}

static void col_add(struct col *c, uint64_t lo, uint64_t hi)
{
	if (!c->any || lo < c->lo)
		c->lo = lo;
	if (!c->any || hi > c->hi)
		c->hi = hi;
	c->any = true;
}

static void set_rgb(cairo_t *cr, enum series s)
{
	cairo_set_source_rgb(cr, s_rgb[s][0], s_rgb[s][1], s_rgb[s][2]);
}

static void text_at(cairo_t *cr, double x, double y, const char *s,
		    double align)
{
	cairo_text_extents_t e;

	cairo_text_extents(cr, s, &e);
	cairo_move_to(cr, x - e.width * align - e.x_bearing, y);
	cairo_show_text(cr, s);
}

/* @v rounded to the nearest uint64_t, saturating: llround() stops at 2^63 */
static uint64_t to_u64(double v)
{
	if (v <= 0)
		return 0;
	if (v >= 0x1p64)
		return UINT64_MAX;
	return (uint64_t)(v + 0.5);
}

/* Ticks run from the first multiple of the step in the range to its end.
 * At a stream offset far from 0 (or a time far from the first frame) a
 * step below half the spacing of doubles there no longer moves v: one
 * tick is all that can be drawn, and the loop ends after it.
 */
static void axes(cairo_t *cr, const struct scale *s)
{
	double span, step, v, x, y;
	char buf[48];

	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, G_ML, G_MT, G_PW, G_PH);
	cairo_stroke(cr);
	cairo_set_font_size(cr, 12);
	/* x: time */
	span = (double)(s->t1 - s->t0) / s->tdiv;
	step = nice_step(span, 10);
	/* no ticks before the first frame (the padding of the left edge) */
	for (v = s->t0 < 0 ? 0 : ceil((double)s->t0 / s->tdiv / step) * step;
	     v <= (double)s->t1 / s->tdiv + step * 1e-9; v += step) {
		x = sx(s, (int64_t)llround(v * s->tdiv));
		cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
		cairo_move_to(cr, x, G_MT);
		cairo_line_to(cr, x, G_MT + G_PH);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0, 0, 0);
		snprintf(buf, sizeof(buf), "%g", fabs(v) < step * 1e-9 ? 0 : v);
		text_at(cr, x, G_MT + G_PH + 18, buf, 0.5);
		if (v + step == v)
			break;
	}
	snprintf(buf, sizeof(buf), "time since the first frame (%s)", s->tunit);
	text_at(cr, G_ML + G_PW / 2.0, G_H - 25, buf, 0.5);
	/* y: stream offset */
	span = (double)(s->y1 - s->y0) / s->ydiv;
	step = nice_step(span, 8);
	for (v = ceil((double)s->y0 / s->ydiv / step) * step;
	     v <= (double)s->y1 / s->ydiv + step * 1e-9; v += step) {
		y = sy(s, to_u64(v * s->ydiv));
		cairo_set_source_rgb(cr, 0.9, 0.9, 0.9);
		cairo_move_to(cr, G_ML, y);
		cairo_line_to(cr, G_ML + G_PW, y);
		cairo_stroke(cr);
		cairo_set_source_rgb(cr, 0, 0, 0);
		snprintf(buf, sizeof(buf), "%g", v);
		text_at(cr, G_ML - 8, y + 4, buf, 1);
		if (v + step == v)
			break;
	}
	cairo_save(cr);
	cairo_translate(cr, 22, G_MT + G_PH / 2.0);
	cairo_rotate(cr, -M_PI / 2);
	snprintf(buf, sizeof(buf), "stream offset (%s)", s->yunit);
	text_at(cr, 0, 0, buf, 0.5);
	cairo_restore(cr);
}

static int range_cmp(const void *x, const void *y)
{
	const struct dump_an_point *a = *(const struct dump_an_point *const *)x;
	const struct dump_an_point *b = *(const struct dump_an_point *const *)y;

	return a->lo < b->lo ? -1 : a->lo > b->lo;
}

/* the holes between the data records, drawn as bands; returns how many */
static uint64_t holes(cairo_t *cr, const struct scale *s,
		      const struct dump_an_trace *tr)
{
	const struct dump_an_point **v;
	uint64_t end = 0, n = 0;
	size_t i, k = 0;

	v = malloc((tr->data ? tr->data : 1) * sizeof(*v));
	if (!v)
		return 0;
	for (i = 0; i < tr->n; i++)
		if (tr->pt[i].kind == DUMP_AN_DATA && k < tr->data)
			v[k++] = &tr->pt[i];
	qsort(v, k, sizeof(*v), range_cmp);
	for (i = 0; i < k; i++) {
		if (i && v[i]->lo > end) {
			n++;
			if (cr) {
				double ya = sy(s, end), yb = sy(s, v[i]->lo);

				set_rgb(cr, S_HOLE);
				cairo_rectangle(cr, G_ML, yb, G_PW,
						ya - yb < 1 ? 1 : ya - yb);
				cairo_fill(cr);
			}
		}
		if (!i || v[i]->hi > end)
			end = v[i]->hi;
	}
	free(v);
	return n;
}

/* a step line through the columns that have a value */
static void steps(cairo_t *cr, const struct scale *s, const struct col *c,
		  enum series se, bool dashed)
{
	bool started = false;
	double y = 0, x;
	int i;

	set_rgb(cr, se);
	cairo_set_line_width(cr, 1.5);
	if (dashed) {
		static const double d[] = { 6, 4 };

		cairo_set_dash(cr, d, 2, 0);
	}
	for (i = 0; i < G_PW; i++) {
		if (!c[i].any)
			continue;
		x = G_ML + i + 0.5;
		if (!started) {
			cairo_move_to(cr, x, sy(s, c[i].lo));
			started = true;
		} else {
			cairo_line_to(cr, x, y);
			cairo_line_to(cr, x, sy(s, c[i].lo));
		}
		if (c[i].hi != c[i].lo)
			cairo_line_to(cr, x, sy(s, c[i].hi));
		y = sy(s, c[i].hi);
	}
	if (started)
		cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
}

static void marker(cairo_t *cr, enum series se, double x, double y)
{
	set_rgb(cr, se);
	switch (se) {
	case S_WB:	/* a triangle pointing down, above the point */
		cairo_move_to(cr, x - 5, y - 12);
		cairo_line_to(cr, x + 5, y - 12);
		cairo_line_to(cr, x, y - 3);
		cairo_close_path(cr);
		cairo_fill(cr);
		break;
	case S_UPD:	/* a ring */
		cairo_set_line_width(cr, 1.5);
		cairo_new_sub_path(cr);
		cairo_arc(cr, x, y + 8, 4, 0, 2 * M_PI);
		cairo_stroke(cr);
		break;
	case S_URG:	/* a diamond */
		cairo_move_to(cr, x, y - 6);
		cairo_line_to(cr, x + 5, y);
		cairo_line_to(cr, x, y + 6);
		cairo_line_to(cr, x - 5, y);
		cairo_close_path(cr);
		cairo_fill(cr);
		break;
	default:
		break;
	}
}

static void legend(cairo_t *cr, const uint64_t *cnt, bool inferred)
{
	double x = G_ML + 10, y = G_MT + 10, w = 0;
	cairo_text_extents_t e;
	int i, n = 0;

	cairo_set_font_size(cr, 12);
	for (i = 0; i < S_MAX; i++) {
		if (!cnt[i])
			continue;
		cairo_text_extents(cr, s_label[i], &e);
		if (e.x_advance > w)
			w = e.x_advance;
		n++;
	}
	if (inferred && cnt[S_LIMIT])
		n++;
	cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
	cairo_rectangle(cr, x, y, w + 50, n * 18 + 8);
	cairo_fill(cr);
	cairo_set_source_rgb(cr, 0.5, 0.5, 0.5);
	cairo_set_line_width(cr, 0.5);
	cairo_rectangle(cr, x, y, w + 50, n * 18 + 8);
	cairo_stroke(cr);
	y += 16;
	for (i = 0; i < S_MAX; i++) {
		if (!cnt[i])
			continue;
		set_rgb(cr, (enum series)i);
		switch (i) {
		case S_DATA:
		case S_TRUNC:
			cairo_rectangle(cr, x + 18, y - 10, 4, 12);
			cairo_fill(cr);
			break;
		case S_HOLE:
			cairo_rectangle(cr, x + 8, y - 9, 24, 10);
			cairo_fill(cr);
			break;
		case S_LLC_UP:
		case S_LLC_DOWN:
			cairo_set_line_width(cr, 1.5);
			cairo_move_to(cr, x + 20, y - 12);
			cairo_line_to(cr, x + 20, y + 2);
			cairo_stroke(cr);
			break;
		case S_PROD:
		case S_CONS:
		case S_LIMIT:
		case S_CLOSE:
			cairo_set_line_width(cr, i == S_CLOSE ? 1 : 1.5);
			if (i == S_CLOSE || (i == S_LIMIT && inferred)) {
				static const double d[] = { 6, 4 };

				cairo_set_dash(cr, d, 2, 0);
			}
			cairo_move_to(cr, x + 8, y - 4);
			cairo_line_to(cr, x + 32, y - 4);
			cairo_stroke(cr);
			cairo_set_dash(cr, NULL, 0, 0);
			break;
		default:
			marker(cr, (enum series)i, x + 20, i == S_UPD ? y - 12 :
			       i == S_WB ? y + 4 : y - 4);
			break;
		}
		cairo_set_source_rgb(cr, 0, 0, 0);
		cairo_move_to(cr, x + 40, y);
		cairo_show_text(cr, s_label[i]);
		y += 18;
	}
	if (inferred && cnt[S_LIMIT]) {
		cairo_set_source_rgb(cr, 0, 0, 0);
		cairo_move_to(cr, x + 40, y);
		cairo_show_text(cr, "(dashed: buffer inferred)");
	}
}

static void set_units(struct scale *s)
{
	double ts = (double)(s->t1 - s->t0), ys = (double)(s->y1 - s->y0);

	if (ts < 2e6) {
		s->tdiv = 1e3;
		s->tunit = "us";
	} else if (ts < 2e9) {
		s->tdiv = 1e6;
		s->tunit = "ms";
	} else {
		s->tdiv = 1e9;
		s->tunit = "s";
	}
	if (ys < 16384) {
		s->ydiv = 1;
		s->yunit = "bytes";
	} else if (ys < 16.0 * 1048576) {
		s->ydiv = 1024;
		s->yunit = "KiB";
	} else if (ys < 16.0 * 1073741824) {
		s->ydiv = 1048576;
		s->yunit = "MiB";
	} else {
		s->ydiv = 1073741824;
		s->yunit = "GiB";
	}
}

/*
 * The link events of SMC-R link groups within [@t0, @t1], the times of
 * the direction's records: a solid line across the plot each, labelled
 * with the message's type and link id. The records do not name their
 * link group, so every link group's events in the range are drawn.
 */
static void llc_marks(cairo_t *cr, const struct scale *s,
		      const struct graph_run *g, const struct dump_an_trace *tr,
		      int64_t t0, int64_t t1, uint64_t *cnt)
{
	unsigned int row = 0;
	char label[48];
	size_t i;

	if (tr->mode != SMC_DUMP_MODE_SMCR)
		return;
	for (i = 0; i < g->nmarks; i++) {
		const struct dump_llc_mark *m = &g->marks[i];
		const char *name = dump_llc_name(m->type);
		enum series se = m->up ? S_LLC_UP : S_LLC_DOWN;
		int x;

		if (m->t < t0 || m->t > t1)
			continue;
		x = col_of(s, m->t);
		set_rgb(cr, se);
		cairo_set_line_width(cr, 1);
		cairo_move_to(cr, G_ML + x + 0.5, G_MT);
		cairo_line_to(cr, G_ML + x + 0.5, G_MT + G_PH);
		cairo_stroke(cr);
		if (m->all)
			snprintf(label, sizeof(label), "%s all",
				 name ? name : "LLC");
		else
			snprintf(label, sizeof(label), "%s %u",
				 name ? name : "LLC", m->link_id);
		cairo_set_font_size(cr, 10);
		/* rows of four, so that close events stay readable */
		text_at(cr, G_ML + x + (x > G_PW - 110 ? -3 : 3),
			G_MT + G_PH - 20 - 12.0 * (row++ % 4), label,
			x > G_PW - 110 ? 1 : 0);
		cnt[se]++;
	}
}

/* draw one direction into @cr; @cnt gets the points of each series */
static void draw(cairo_t *cr, const struct dump_an_trace *tr, uint64_t *cnt,
		 const struct graph_run *g)
{
	int64_t tmin, tmax;
	struct col *c[S_MAX] = { 0 };
	struct scale s = { 0 };
	bool first = true;
	char title[200], a1[64], a2[64], peer[32];
	size_t i;
	int k;

	for (i = 0; i < tr->n; i++) {
		const struct dump_an_point *p = &tr->pt[i];

		if (i == 0 || p->t < s.t0)
			s.t0 = p->t;
		if (i == 0 || p->t > s.t1)
			s.t1 = p->t;
		if (!p->known)
			continue;
		if (first || p->lo < s.y0)
			s.y0 = p->lo;
		if (first || p->hi > s.y1)
			s.y1 = p->hi;
		first = false;
	}
	tmin = s.t0;
	tmax = s.t1;
	if (s.t1 <= s.t0)
		s.t1 = s.t0 + 1000000;
	/* room on both sides, so that the first and last bars show */
	{
		int64_t pad = (s.t1 - s.t0) / 50;

		s.t0 -= pad;
		s.t1 += pad;
	}
	if (s.y1 <= s.y0)
		s.y1 = s.y0 + 1024;
	/* a little room above the highest value */
	s.y1 += (s.y1 - s.y0) / 20;
	set_units(&s);

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
			       CAIRO_FONT_WEIGHT_NORMAL);
	cnt[S_HOLE] = holes(cr, &s, tr);
	axes(cr, &s);

	for (k = 0; k < S_MAX; k++) {
		c[k] = calloc(G_PW, sizeof(struct col));
		if (!c[k])
			goto out;
	}
	/* the consumer cursor was 0 until the receiver's first one */
	if (tr->cons_from_start) {
		col_add(&c[S_CONS][col_of(&s, tr->pt[0].t)], 0, 0);
		if (tr->buffer)
			col_add(&c[S_LIMIT][col_of(&s, tr->pt[0].t)],
				tr->buffer, tr->buffer);
	}
	for (i = 0; i < tr->n; i++) {
		const struct dump_an_point *p = &tr->pt[i];
		int x = col_of(&s, p->t);

		if (!p->known)
			continue;
		switch (p->kind) {
		case DUMP_AN_DATA:
			k = p->flags & SMC_DUMP_F_TRUNC ? S_TRUNC : S_DATA;
			col_add(&c[k][x], p->lo, p->hi);
			cnt[k]++;
			break;
		case DUMP_AN_PROD:
			col_add(&c[S_PROD][x], p->lo, p->lo);
			cnt[S_PROD]++;
			if (p->flags & PF_WRITE_BLOCKED) {
				col_add(&c[S_WB][x], p->lo, p->lo);
				cnt[S_WB]++;
			}
			if (p->flags & PF_CONS_UPD_REQ) {
				col_add(&c[S_UPD][x], p->lo, p->lo);
				cnt[S_UPD]++;
			}
			if (p->flags & (PF_URG_PENDING | PF_URG_PRESENT)) {
				col_add(&c[S_URG][x], p->lo, p->lo);
				cnt[S_URG]++;
			}
			if (p->state & (CS_DONE | CS_CLOSED | CS_ABORT)) {
				col_add(&c[S_CLOSE][x], p->state, p->state);
				cnt[S_CLOSE]++;
			}
			break;
		case DUMP_AN_CONS:
			col_add(&c[S_CONS][x], p->lo, p->lo);
			cnt[S_CONS]++;
			if (tr->buffer) {
				col_add(&c[S_LIMIT][x], p->hi, p->hi);
				cnt[S_LIMIT]++;
			}
			break;
		}
	}
	cairo_save(cr);
	cairo_rectangle(cr, G_ML, G_MT, G_PW, G_PH);
	cairo_clip(cr);
	steps(cr, &s, c[S_LIMIT], S_LIMIT, tr->buffer_inferred);
	steps(cr, &s, c[S_CONS], S_CONS, false);
	steps(cr, &s, c[S_PROD], S_PROD, false);
	/* data: one bar per column from the lowest offset to the highest end */
	for (k = S_DATA; k <= S_TRUNC; k++) {
		set_rgb(cr, (enum series)k);
		for (i = 0; i < G_PW; i++) {
			double ya, yb;

			if (!c[k][i].any)
				continue;
			ya = sy(&s, c[k][i].lo);
			yb = sy(&s, c[k][i].hi);
			cairo_rectangle(cr, G_ML + (double)i - 1, yb, 3,
					ya - yb < 2 ? 2 : ya - yb);
		}
		cairo_fill(cr);
	}
	for (k = S_WB; k <= S_URG; k++) {
		int marked = 0;

		for (i = 0; i < G_PW; i++)
			marked += c[k][i].any;
		for (i = 0; i < G_PW; i++) {
			if (!c[k][i].any)
				continue;
			/* many: a dot each, so that the lines stay visible */
			if (marked > G_PW / 20) {
				set_rgb(cr, (enum series)k);
				cairo_rectangle(cr, G_ML + i,
						sy(&s, c[k][i].hi) -
						(k == S_UPD ? -3 : 5), 1.5, 1.5);
				cairo_fill(cr);
				continue;
			}
			marker(cr, (enum series)k, G_ML + i + 0.5,
			       sy(&s, c[k][i].hi));
		}
	}
	/* close and abort: a dashed line across the plot, with its name */
	for (i = 0; i < G_PW; i++) {
		static const double d[] = { 6, 4 };
		uint64_t st = c[S_CLOSE][i].hi | c[S_CLOSE][i].lo;

		if (!c[S_CLOSE][i].any)
			continue;
		set_rgb(cr, S_CLOSE);
		cairo_set_line_width(cr, 1);
		cairo_set_dash(cr, d, 2, 0);
		cairo_move_to(cr, G_ML + i + 0.5, G_MT);
		cairo_line_to(cr, G_ML + i + 0.5, G_MT + G_PH);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
		cairo_set_font_size(cr, 11);
		/* the name on the side with room */
		text_at(cr, G_ML + i + (i > G_PW - 60 ? -3 : 3),
			G_MT + G_PH - 6, st & CS_ABORT ? "abort" :
			st & CS_CLOSED ? "closed" : "done",
			i > G_PW - 60 ? 1 : 0);
	}
	llc_marks(cr, &s, g, tr, tmin, tmax, cnt);
	cairo_restore(cr);
	legend(cr, cnt, tr->buffer_inferred);

	dump_fmt_addr(tr->family, tr->dir ? tr->raddr : tr->laddr,
		      tr->dir ? tr->rport : tr->lport, a1, sizeof(a1));
	dump_fmt_addr(tr->family, tr->dir ? tr->laddr : tr->raddr,
		      tr->dir ? tr->lport : tr->rport, a2, sizeof(a2));
	if (tr->has_peer)	/* the connection's other end */
		snprintf(peer, sizeof(peer), " peer-token 0x%08x",
			 tr->peer_token);
	snprintf(title, sizeof(title), "%s token 0x%08x%s %s  %s > %s",
		 tr->mode == SMC_DUMP_MODE_SMCD ? "SMC-D" : "SMC-R", tr->token,
		 tr->has_peer ? peer : "", tr->dir ? "rx" : "tx", a1, a2);
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_font_size(cr, 16);
	text_at(cr, G_W / 2.0, 28, title, 0.5);
	if (tr->buffer)
		snprintf(title, sizeof(title), "receiver's buffer %" PRIu64
			 " bytes (%s)", tr->buffer, tr->buffer_from);
	else
		snprintf(title, sizeof(title), "receiver's buffer unknown");
	cairo_set_font_size(cr, 12);
	text_at(cr, G_W / 2.0, 47, title, 0.5);
out:
	for (k = 0; k < S_MAX; k++)
		free(c[k]);
}

/*
 * Where cairo writes a picture: our own stream, so that every failed
 * write is seen (cairo's PDF surface made from a file name reports none
 * of them) and the file can be removed when the picture is not whole.
 */
struct out_file {
	FILE *f;
	int err;	/* errno of the first failed write */
	bool reg;	/* a regular file: removed on failure */
};

static cairo_status_t out_write(void *closure, const unsigned char *data,
				unsigned int len)
{
	struct out_file *of = closure;

	if (of->err)
		return CAIRO_STATUS_WRITE_ERROR;
	errno = 0;
	if (fwrite(data, 1, len, of->f) != len) {
		of->err = errno ? errno : EIO;
		return CAIRO_STATUS_WRITE_ERROR;
	}
	return CAIRO_STATUS_SUCCESS;
}

static int draw_cb(void *arg, const struct dump_an_trace *tr)
{
	struct graph_run *g = arg;
	uint64_t cnt[S_MAX] = { 0 };
	struct out_file of = { 0 };
	cairo_surface_t *sf;
	cairo_status_t st;
	struct stat sb;
	cairo_t *cr;
	char *name;
	int k;

	if (!selected(g->o, tr))
		return 0;
	name = out_name(g, tr);
	if (!name) {
		fprintf(stderr, "Error: out of memory\n");
		g->err = 3;
		return 1;
	}
	of.f = fopen(name, "w");
	if (!of.f) {
		fprintf(stderr, "Error: %s: %s\n", name, strerror(errno));
		free(name);
		g->err = 3;
		return 1;
	}
	of.reg = !fstat(fileno(of.f), &sb) && S_ISREG(sb.st_mode);
	switch (g->o->fmt) {
	case F_SVG:
		sf = cairo_svg_surface_create_for_stream(out_write, &of, G_W,
							 G_H);
		break;
	case F_PDF:
		sf = cairo_pdf_surface_create_for_stream(out_write, &of, G_W,
							 G_H);
		break;
	default:
		sf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, G_W, G_H);
		break;
	}
	cr = cairo_create(sf);
	draw(cr, tr, cnt, g);
	st = cairo_status(cr);
	cairo_destroy(cr);
	if (!st && g->o->fmt == F_PNG)
		st = cairo_surface_write_to_png_stream(sf, out_write, &of);
	cairo_surface_finish(sf);
	if (!st)
		st = cairo_surface_status(sf);
	cairo_surface_destroy(sf);
	if (fclose(of.f) && !of.err)
		of.err = errno ? errno : EIO;
	if (st || of.err) {
		fprintf(stderr, "Error: %s: %s\n", name,
			of.err ? strerror(of.err) : cairo_status_to_string(st));
		/* no picture cut off half-way under the name asked for */
		if (of.reg)
			unlink(name);
		free(name);
		g->err = 3;
		return 1;
	}
	g->written++;
	open_json_object(NULL);
	print_string(PRINT_ANY, "file", "%s:", name);
	print_string(PRINT_JSON, "mode", NULL,
		     tr->mode == SMC_DUMP_MODE_SMCD ? "SMC-D" : "SMC-R");
	print_string(PRINT_FP, NULL, " %s",
		     tr->mode == SMC_DUMP_MODE_SMCD ? "smcd" : "smcr");
	{
		char tok[16];

		snprintf(tok, sizeof(tok), "0x%08x", tr->token);
		print_string(PRINT_ANY, "token", " token %s", tok);
		if (tr->has_peer) {
			snprintf(tok, sizeof(tok), "0x%08x", tr->peer_token);
			print_string(PRINT_ANY, "peer_token", " peer-token %s",
				     tok);
		}
	}
	print_string(PRINT_ANY, "dir", " %s", tr->dir ? "rx" : "tx");
	print_uint(PRINT_JSON, "width", NULL, G_W);
	print_uint(PRINT_JSON, "height", NULL, G_H);
	open_json_object("series");
	for (k = 0; k < S_MAX; k++)
		if (cnt[k])
			print_u64(PRINT_ANY, s_key[k], NULL, cnt[k]);
	close_json_object();
	if (!is_json_context())
		for (k = 0; k < S_MAX; k++)
			if (cnt[k])
				printf(" %s %" PRIu64, s_key[k], cnt[k]);
	close_json_object();
	print_nl();
	free(name);
	return 0;
}

static int parse(int argc, char **argv, struct gopts *o)
{
	unsigned int seen = 0;	/* the keywords given: each may be once */
	const char *ext;
	int i;

	o->dir = -1;
	o->out = "smc-graph.png";
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-h") || !strcmp(a, "help")) {
			usage(stdout);
			return -1;
		} else if (!strcmp(a, "-j")) {
			json = 1;
		} else if (!strcmp(a, "-p")) {
			pretty = 1;
		} else if (!strcmp(a, "tx") || !strcmp(a, "rx")) {
			if (o->dir >= 0)
				return duparg("tx|rx", a);
			o->dir = a[0] == 'r';
		} else if (!strcmp(a, "token") || !strcmp(a, "write") ||
			   !strcmp(a, "cdc-endian")) {
			unsigned int bit = 1u << (a[0] == 't' ? 0 :
						  a[0] == 'w' ? 1 : 2);

			if (++i == argc) {
				fprintf(stderr,
					"Error: \"%s\" needs a value, try \"smc dump graph help\".\n",
					a);
				return 2;
			}
			if (seen & bit)
				return duparg(a, argv[i]);
			seen |= bit;
			if (a[0] == 'w') {
				o->out = argv[i];
			} else if (a[0] == 'c') {
				if (!matches(argv[i], "little"))
					o->cdc_big_endian = false;
				else if (!matches(argv[i], "big"))
					o->cdc_big_endian = true;
				else
					return invarg("expected little or big",
						      argv[i]);
			} else {
				uint32_t v;

				if (get_u32(&v, argv[i], 0))
					return invarg("expected a token (0x...)",
						      argv[i]);
				o->has_token = true;
				o->token = v;
			}
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr,
				"Error: unknown option \"%s\", try \"smc dump graph help\".\n",
				a);
			return 2;
		} else if (o->file) {
			fprintf(stderr,
				"Error: unexpected argument \"%s\", try \"smc dump graph help\".\n",
				a);
			return 2;
		} else {
			o->file = a;
		}
	}
	if (!o->file) {
		fprintf(stderr, "Error: FILE expected, try \"smc dump graph help\".\n");
		return 2;
	}
	ext = strrchr(o->out, '.');
	if (ext && !strcasecmp(ext, ".png"))
		o->fmt = F_PNG;
	else if (ext && !strcasecmp(ext, ".svg"))
		o->fmt = F_SVG;
	else if (ext && !strcasecmp(ext, ".pdf"))
		o->fmt = F_PDF;
	else
		return invarg("OUT must end in .png, .svg or .pdf", o->out);
	return 0;
}

/**
 * dump_graph() - smc dump graph [cdc-endian E] [token T] [tx|rx]
 *	[write OUT] FILE
 * @argc: arguments after "graph"
 * @argv: the arguments
 *
 * Return: 0 written, 1 written but malformed input was seen, 2 usage,
 * 3 the capture cannot be read or a picture cannot be written, 4 nothing
 * to draw (no record of the token or direction asked for).
 */
int dump_graph(int argc, char **argv)
{
	char err[DUMP_CTX_ERRLEN];
	struct graph_run g = { 0 };
	struct dump_opts d = { 0 };
	struct dump_analyze *an;
	struct gopts o = { 0 };
	struct dump_reader *r;
	struct dump_ctx *c;
	int rc, drc;

	rc = parse(argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	r = dump_reader_open(o.file, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "Error: %s\n", err);
		return 3;
	}
	d.flags = DUMP_F_TRACES;
	d.cdc_big_endian = o.cdc_big_endian;
	d.has_token = o.has_token;
	d.token = o.token;
	c = dump_ctx_new(&d, dump_reader_dlt(r), dump_reader_ns_digits(r),
			 err, sizeof(err));
	if (!c) {
		fprintf(stderr, "Error: %s\n", err);
		dump_reader_close(r);
		return 3;
	}
	dump_decode_input(c, r);
	dump_reader_close(r);
	drc = dump_ctx_finish(c);
	an = dump_ctx_analyzer(c);

	g.o = &o;
	if (dump_ctx_llc_marks(c, &g.marks, &g.nmarks)) {
		/* the graphs are still of use without them */
		fprintf(stderr, "Warning: out of memory: no LLC marks\n");
		g.nmarks = 0;
	}
	new_json_obj(json, pretty);
	rc = dump_analyze_traces(an, count_cb, &g);
	if (!rc && g.selected)
		rc = dump_analyze_traces(an, draw_cb, &g);
	delete_json_obj();
	free(g.names);
	free(g.marks);
	if (rc < 0) {
		fprintf(stderr, "Error: out of memory\n");
		g.err = 3;
	}
	if (!g.err && !g.selected) {
		/* what is drawn: LLC records are of link groups, none
		 * is a connection's
		 */
		const char *what = o.dir < 0 ? "" : o.dir ? "rx " : "tx ";

		if (o.has_token)
			fprintf(stderr,
				"Error: no %sdata or CDC records of token 0x%08x in %s.\n",
				what, o.token, o.file);
		else
			fprintf(stderr,
				"Error: no %sdata or CDC records in %s.\n",
				what, o.file);
		g.err = 4;
	}
	rc = g.err ? g.err : drc;
	dump_ctx_free(c);
	return rc;
}
