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

/* The hash of an end's addresses and ports, local then peer's: where its
 * peer, which has them the other way round, looks it up
 */
static size_t ends_hash(uint8_t mode, const uint8_t *a1, uint16_t p1,
			const uint8_t *a2, uint16_t p2)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */
	int i;

	h = (h ^ mode) * 1099511628211ull;
	h = (h ^ p1) * 1099511628211ull;
	h = (h ^ p2) * 1099511628211ull;
	for (i = 0; i < 16; i++) {
		h = (h ^ a1[i]) * 1099511628211ull;
		h = (h ^ a2[i]) * 1099511628211ull;
	}
	return (size_t)(h ^ (h >> 32));
}

static size_t conn_ends_hash(const struct dump_conn *k)
{
	return ends_hash(k->mode, k->laddr, k->lport, k->raddr, k->rport);
}

/* The key's hash: its addresses and ports, then its token */
static size_t conn_hash(const struct dump_conn *k)
{
	uint64_t h = conn_ends_hash(k);

	h = (h ^ k->token) * 1099511628211ull;
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
	t->phash = calloc(t->hsize, sizeof(*t->phash));
	t->ptail = calloc(t->hsize, sizeof(*t->ptail));
	if (t->hash && t->phash && t->ptail)
		return 0;
	free(t->hash);
	free(t->phash);
	free(t->ptail);
	memset(t, 0, sizeof(*t));
	return -ENOMEM;
}

/* Append the unpaired end @c to its chain of @ph and @pt (@n chains) */
static void phash_add(struct dump_conn **ph, struct dump_conn **pt, size_t n,
		      struct dump_conn *c)
{
	size_t i = conn_ends_hash(c) & (n - 1);

	c->pnext = NULL;
	if (pt[i])
		pt[i]->pnext = c;
	else
		ph[i] = c;
	pt[i] = c;
}

/* Twice the chains; on no memory the longer chains stay */
static void conns_grow(struct dump_conns *t)
{
	size_t n = t->hsize * 2, i;
	struct dump_conn **h = calloc(n, sizeof(*h)), *c;
	struct dump_conn **ph = calloc(n, sizeof(*ph));
	struct dump_conn **pt = calloc(n, sizeof(*pt));

	if (!h || !ph || !pt) {
		free(h);
		free(ph);
		free(pt);
		return;
	}
	/* in order of first record, so each chain stays oldest first */
	for (c = t->first; c; c = c->next) {
		i = conn_hash(c) & (n - 1);
		c->hnext = h[i];
		h[i] = c;
		if (!c->peer)
			phash_add(ph, pt, n, c);
	}
	free(t->hash);
	free(t->phash);
	free(t->ptail);
	t->hash = h;
	t->phash = ph;
	t->ptail = pt;
	t->hsize = n;
}

/* The peer of the new end @k: an end not yet paired, of the same mode
 * and family, whose local address and port are @k's peer's and the other
 * way round, and, when both sent a CDC message (SMC-R), each naming the
 * other's token; of several, the earliest. A chain holds only ends not
 * paired yet, oldest first, so the first that fits is the one, and it
 * leaves the chain: thousands of ends of one 4-tuple cost no more than
 * as many 4-tuples.
 */
static struct dump_conn *conns_find_peer(struct dump_conns *t,
					 const struct dump_conn *k)
{
	size_t i = ends_hash(k->mode, k->raddr, k->rport, k->laddr,
			     k->lport) & (t->hsize - 1);
	struct dump_conn *c, *prev = NULL;

	for (c = t->phash[i]; c; prev = c, c = c->pnext)
		if (c->mode == k->mode &&
		    c->family == k->family && c->lport == k->rport &&
		    c->rport == k->lport && !memcmp(c->laddr, k->raddr, 16) &&
		    !memcmp(c->raddr, k->laddr, 16) &&
		    !(c->has_ctoken && k->has_ctoken &&
		      (c->ctoken != k->token || k->ctoken != c->token)))
			break;
	if (!c)
		return NULL;
	if (prev)
		prev->pnext = c->pnext;
	else
		t->phash[i] = c->pnext;
	if (t->ptail[i] == c)
		t->ptail[i] = prev;
	c->pnext = NULL;
	return c;
}

/**
 * dump_conns_get() - the end of a record, added when new and paired with
 *	its peer when that is in the table already
 * @t: the table
 * @pkt: the record's frame (addresses and ports)
 * @r: the record (its mode, token and direction: a received record's
 *	local end is its frame's destination)
 * @cdc: the CDC message of a CDC record, else NULL: a sent SMC-R one
 *	names the peer's token
 *
 * Return: the end, or NULL when memory ran out.
 */
struct dump_conn *dump_conns_get(struct dump_conns *t,
				 const struct dump_pkt *pkt,
				 const struct dump_rec *r,
				 const struct dump_cdc *cdc)
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
	if (cdc && !cdc->smcd && !rx) {
		k.has_ctoken = true;
		k.ctoken = cdc->token;
	}
	i = conn_hash(&k) & (t->hsize - 1);
	for (c = t->hash[i]; c; c = c->hnext)
		if (conn_same(c, &k)) {
			if (k.has_ctoken) {
				c->has_ctoken = true;
				c->ctoken = k.ctoken;
			}
			return c;
		}
	c = dump_arena_alloc(&t->mem, sizeof(*c));
	if (!c)
		return NULL;
	*c = k;
	c->hnext = t->hash[i];
	t->hash[i] = c;
	c->peer = conns_find_peer(t, c);
	if (c->peer) {
		c->peer->peer = c;
		c->conn = c->peer->conn;
		c->second = true;
	} else {
		c->conn = t->nconn++;
		phash_add(t->phash, t->ptail, t->hsize, c);
	}
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
 * dump_conn_has_token() - whether a connection has a token, at either
 *	end
 * @k: one end
 * @token: the token
 */
bool dump_conn_has_token(const struct dump_conn *k, uint32_t token)
{
	return k->token == token || (k->peer && k->peer->token == token);
}

/**
 * dump_conns_release() - free the table; the owners of the connections'
 *	@track and @an parts free those first
 * @t: the table
 */
void dump_conns_release(struct dump_conns *t)
{
	free(t->hash);
	free(t->phash);
	free(t->ptail);
	dump_arena_free(&t->mem);
	memset(t, 0, sizeof(*t));
}
