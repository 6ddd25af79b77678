// SPDX-License-Identifier: GPL-2.0
/*
 * conn.c - the one table of the connections of a capture (conn.h)
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "conn.h"

#define CONNS_HSIZE	256	/* first size of the hash; doubles as it fills */

static size_t conn_hash(const struct dump_conn *k)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */
	int i;

	h = (h ^ k->mode) * 1099511628211ull;
	h = (h ^ k->token) * 1099511628211ull;
	h = (h ^ k->lport) * 1099511628211ull;
	h = (h ^ k->rport) * 1099511628211ull;
	for (i = 0; i < 16; i++) {
		h = (h ^ k->laddr[i]) * 1099511628211ull;
		h = (h ^ k->raddr[i]) * 1099511628211ull;
	}
	return (size_t)(h ^ (h >> 32));
}

static bool conn_same(const struct dump_conn *a, const struct dump_conn *b)
{
	return a->mode == b->mode && a->token == b->token &&
	       a->family == b->family && a->lport == b->lport &&
	       a->rport == b->rport && !memcmp(a->laddr, b->laddr, 16) &&
	       !memcmp(a->raddr, b->raddr, 16);
}

/**
 * dump_conns_init() - an empty table
 * @t: the table
 *
 * Return: 0, or -ENOMEM.
 */
int dump_conns_init(struct dump_conns *t)
{
	memset(t, 0, sizeof(*t));
	t->hsize = CONNS_HSIZE;
	t->hash = calloc(t->hsize, sizeof(*t->hash));
	return t->hash ? 0 : -ENOMEM;
}

/* Twice the chains; on no memory the longer chains stay */
static void conns_grow(struct dump_conns *t)
{
	size_t n = t->hsize * 2, i;
	struct dump_conn **h = calloc(n, sizeof(*h)), *c;

	if (!h)
		return;
	for (c = t->first; c; c = c->next) {
		i = conn_hash(c) & (n - 1);
		c->hnext = h[i];
		h[i] = c;
	}
	free(t->hash);
	t->hash = h;
	t->hsize = n;
}

/**
 * dump_conns_get() - the connection of a record, added when new
 * @t: the table
 * @pkt: the record's frame (addresses and ports)
 * @r: the record (its mode, token and direction: a received record's
 *	local end is its frame's destination)
 *
 * Return: the connection, or NULL when memory ran out.
 */
struct dump_conn *dump_conns_get(struct dump_conns *t,
				 const struct dump_pkt *pkt,
				 const struct dump_rec *r)
{
	bool rx = r->flags & SMC_DUMP_F_RX;
	size_t alen = pkt->family == AF_INET6 ? 16 : 4, i;
	struct dump_conn k = {
		.mode = r->mode,
		.family = (uint8_t)pkt->family,
		.token = r->token,
		.lport = rx ? pkt->dport : pkt->sport,
		.rport = rx ? pkt->sport : pkt->dport,
	};
	struct dump_conn *c;

	memcpy(k.laddr, rx ? pkt->dst : pkt->src, alen);
	memcpy(k.raddr, rx ? pkt->src : pkt->dst, alen);
	i = conn_hash(&k) & (t->hsize - 1);
	for (c = t->hash[i]; c; c = c->hnext)
		if (conn_same(c, &k))
			return c;
	c = dump_arena_alloc(&t->mem, sizeof(*c));
	if (!c)
		return NULL;
	*c = k;
	c->hnext = t->hash[i];
	t->hash[i] = c;
	if (t->last)
		t->last->next = c;
	else
		t->first = c;
	t->last = c;
	if (++t->n > t->hsize)
		conns_grow(t);
	return c;
}

/**
 * dump_conns_release() - free the table; the owners of the connections'
 *	@track and @an parts free those first
 * @t: the table
 */
void dump_conns_release(struct dump_conns *t)
{
	free(t->hash);
	dump_arena_free(&t->mem);
	memset(t, 0, sizeof(*t));
}
