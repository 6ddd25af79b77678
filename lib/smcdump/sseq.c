// SPDX-License-Identifier: GPL-2.0
/*
 * sseq.c - records lost, told by each record stream's stream_seq (sseq.h)
 *
 * Each stream keeps a window of DUMP_SSEQ_WINDOW bits, one per number
 * from @base on: a number that slides out of the window unseen counts
 * lost, one that then comes after all counts late and is taken off the
 * loss again. Memory: 128 bytes of bits and a small head per stream.
 */
#include <stdlib.h>
#include <string.h>

#include "sseq.h"

#define WORDS	(DUMP_SSEQ_WINDOW / 64)

struct dump_sseq {
	struct dump_sseq *hnext;
	struct dump_sseq *next;
	struct dump_conn *k;	/* RAW and CDC: the connection */
	uint32_t token;		/* LLC (no connection): the link group */
	uint32_t link;		/* index of the link in the capture */
	uint8_t mode;
	uint8_t type;
	bool rx;
	uint32_t first;		/* the first number seen */
	uint32_t base;		/* the window's lowest number */
	uint32_t high;		/* the highest number seen */
	uint64_t lost;		/* slid out of the window unseen */
	uint64_t late;
	uint64_t bits[WORDS];	/* number n: bit n % DUMP_SSEQ_WINDOW */
};

static size_t sseq_hash(uint32_t link, const struct dump_conn *k,
			uint32_t token, uint8_t mode, bool rx, uint8_t type)
{
	uint64_t h = (uint64_t)(uintptr_t)k * 0x9e3779b97f4a7c15ull;

	h ^= ((uint64_t)link << 32 | token) * 0xbf58476d1ce4e5b9ull;
	h ^= (uint64_t)(mode << 16 | rx << 8 | type) * 0x94d049bb133111ebull;
	return (size_t)(h ^ h >> 31);
}

/**
 * dump_sseqs_init() - an empty set of streams
 * @t: the set
 */
void dump_sseqs_init(struct dump_sseqs *t)
{
	memset(t, 0, sizeof(*t));
}

static void sseqs_grow(struct dump_sseqs *t)
{
	size_t n = t->hsize ? t->hsize * 2 : 64, i;
	struct dump_sseq **h = calloc(n, sizeof(*h)), *s;

	if (!h)
		return;		/* the chains grow longer, nothing is lost */
	for (s = t->first; s; s = s->next) {
		i = sseq_hash(s->link, s->k, s->token, s->mode, s->rx,
			      s->type) & (n - 1);
		s->hnext = h[i];
		h[i] = s;
	}
	free(t->hash);
	t->hash = h;
	t->hsize = n;
}

static bool bit(const struct dump_sseq *s, uint32_t n)
{
	n %= DUMP_SSEQ_WINDOW;
	return s->bits[n / 64] >> (n % 64) & 1;
}

static unsigned int window_seen(const struct dump_sseq *s)
{
	unsigned int n = 0, i;

	for (i = 0; i < WORDS; i++)
		n += (unsigned int)__builtin_popcountll(s->bits[i]);
	return n;
}

/* Move the window @k numbers on: those that leave it unseen are lost */
static void slide(struct dump_sseq *s, uint32_t k)
{
	uint32_t i;

	if (k >= DUMP_SSEQ_WINDOW) {
		s->lost += DUMP_SSEQ_WINDOW - window_seen(s) +
			   (uint64_t)(k - DUMP_SSEQ_WINDOW);
		memset(s->bits, 0, sizeof(s->bits));
		s->base += k;
		return;
	}
	for (i = 0; i < k; i++, s->base++) {
		uint32_t b = s->base % DUMP_SSEQ_WINDOW;

		if (bit(s, s->base))
			s->bits[b / 64] &= ~(1ull << (b % 64));
		else
			s->lost++;
	}
}

/**
 * dump_sseqs_add() - take a record's stream_seq
 * @t: the streams
 * @link: index of the link the record came over
 * @k: the record's connection (data, CDC), NULL for a record of none (LLC)
 * @token: the record's token (LLC: the link group), used without @k
 * @mode: the record's SMC_DUMP_MODE_*
 * @rx: the record's direction
 * @type: the record's SMC_DUMP_TYPE_*
 * @stream_seq: the record's number in its stream
 *
 * A stream the set has no memory for is left uncounted (@t->nomem).
 */
void dump_sseqs_add(struct dump_sseqs *t, uint32_t link,
		    struct dump_conn *k, uint32_t token, uint8_t mode,
		    bool rx, uint8_t type, uint32_t stream_seq)
{
	struct dump_sseq *s = NULL;
	uint32_t d, b;
	size_t i;

	if (k)
		token = 0;
	if (t->hsize) {
		i = sseq_hash(link, k, token, mode, rx, type) & (t->hsize - 1);
		for (s = t->hash[i]; s; s = s->hnext)
			if (s->k == k && s->token == token &&
			    s->link == link && s->mode == mode &&
			    s->rx == rx && s->type == type)
				break;
	}
	if (!s) {
		if (t->n + 1 > t->hsize)
			sseqs_grow(t);
		if (!t->hsize || !(s = calloc(1, sizeof(*s)))) {
			t->nomem = true;
			return;
		}
		s->k = k;
		s->token = token;
		s->link = link;
		s->mode = mode;
		s->rx = rx;
		s->type = type;
		s->first = s->base = s->high = stream_seq;
		s->next = t->first;
		t->first = s;
		i = sseq_hash(link, k, token, mode, rx, type) & (t->hsize - 1);
		s->hnext = t->hash[i];
		t->hash[i] = s;
		t->n++;
	}
	d = stream_seq - s->base;
	if (d >= 0x80000000u) {
		/* behind the window: counted lost when it slid out, unless
		 * it is older than the stream's first record
		 */
		s->late++;
		if (stream_seq - s->first < 0x80000000u && s->lost)
			s->lost--;
		return;
	}
	if (d >= DUMP_SSEQ_WINDOW)
		slide(s, d - DUMP_SSEQ_WINDOW + 1);
	if (stream_seq - s->high >= 0x80000000u)
		s->late++;
	else
		s->high = stream_seq;
	b = stream_seq % DUMP_SSEQ_WINDOW;
	s->bits[b / 64] |= 1ull << (b % 64);
}

/**
 * dump_sseqs_settle() - what each stream lost, up to its highest number
 * @t: the streams
 * @cb: called once per stream with its link, connection (NULL for LLC),
 *	direction, type and count
 * @arg: for @cb
 *
 * The streams keep counting if more records come.
 */
void dump_sseqs_settle(struct dump_sseqs *t,
		       void (*cb)(void *arg, uint32_t link,
				  struct dump_conn *k, bool rx, uint8_t type,
				  const struct dump_sseq_count *n),
		       void *arg)
{
	const struct dump_sseq *s;
	struct dump_sseq_count n;

	for (s = t->first; s; s = s->next) {
		n.lost = s->lost + (uint64_t)(s->high - s->base + 1) -
			 window_seen(s);
		n.late = s->late;
		cb(arg, s->link, s->k, s->rx, s->type, &n);
	}
}

/**
 * dump_sseqs_release() - free the streams
 * @t: the set; empty after
 */
void dump_sseqs_release(struct dump_sseqs *t)
{
	struct dump_sseq *s, *n;

	for (s = t->first; s; s = n) {
		n = s->next;
		free(s);
	}
	free(t->hash);
	dump_sseqs_init(t);
}
