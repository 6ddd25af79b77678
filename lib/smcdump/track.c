// SPDX-License-Identifier: GPL-2.0
/*
 * smc dump follow and stats: connections, their two byte streams, and
 * what is missing from them.
 *
 * A connection is its mode (SMC-R or SMC-D), the token of the records
 * (the local alert token) and the addresses and ports of its TCP socket.
 * Each direction (tx: sent by the capturing host, rx: received) is a
 * byte stream; a data record covers [offset, offset + orig_len) of it
 * and carries the first captured bytes of that range. Two interval sets
 * per stream keep what was seen (orig_len) and what was captured: the
 * gaps of the captured set inside the seen span are holes where no
 * record covered them (lost records) and truncation where a record
 * covered them without its bytes (snaplen).
 *
 * follow writes each stream to DIR/<mode>-<token>-<tx|rx>.bin, byte i of
 * the file being stream byte start + i, where start is the offset of the
 * stream's first data record (0 when the capture saw the connection
 * begin). Bytes never captured stay zero (sparse).
 */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "smcdump.h"
#include "json_print.h"
#include "conn.h"


#define MAX_RANGES	1000	/* ranges listed per kind and stream */
#define FD_WANT		65536	/* follow: soft RLIMIT_NOFILE it raises to */
#define FD_RESERVE	32	/* descriptors left to the rest of smc */

struct range {
	uint64_t s;
	uint64_t e;
};

/* Disjoint, non-adjacent half-open ranges sorted by start: a treap
 * (a binary search tree by start, a heap by a random priority), so that
 * adding a range costs O(log n) whatever the order records come in.
 * ivset_flatten() turns it into the sorted array @v, @n for the report.
 */
struct ivnode {
	struct ivnode *l;
	struct ivnode *r;
	uint64_t s;
	uint64_t e;
	uint32_t prio;
};

/* Until dump_track_report() a treap (@root, @nodes); ivset_flatten()
 * turns it into the sorted array (@v, @n) in the same room.
 */
struct ivset {
	union {
		struct ivnode *root;
		struct range *v;
	};
	union {
		size_t nodes;
		size_t n;
	};
};

struct ovl {
	uint64_t s;
	uint64_t e;
	int same;	/* 1 same bytes, 0 different, -1 not compared */
};

/* What not every stream has: truncated records, overlaps, SMC-R CDC */
struct stream_rare {
	uint64_t trunc;		/* records missing bytes */
	uint64_t trunc_bytes;
	uint64_t overlaps;	/* overlapping ranges */
	uint64_t overlap_bytes;
	uint64_t overlap_diff;	/* overlapping ranges with other bytes */
	struct ovl *ovl;	/* the first MAX_RANGES overlaps */
	size_t novl;
	size_t ovl_cap;		/* room at @ovl: 4, doubled up to MAX_RANGES */
	bool has_seqno;
	uint16_t next_seqno;	/* SMC-R CDC seqno expected next */
	uint64_t cdc_seq_gaps;
	uint64_t cdc_lost;
};

/* A stream is kept small, for captures of many short connections: its
 * record count is data + cdc, the rare counters sit apart (@x), and
 * stats allocates it without the tail that only follow uses.
 */
struct stream {
	uint64_t data;
	uint64_t cdc;
	uint64_t bytes;		/* captured payload bytes */
	struct stream_rare *x;	/* NULL while all its fields are 0 */
	struct ivset have;	/* captured bytes */
	struct ivset seen;	/* bytes covered by records, when apart */
	bool seen_apart;	/* else @seen is @have: no record was cut */
	bool flat;		/* @have and @seen are arrays (the report) */
	/* follow only: stats allocates the stream up to here */
	bool has_base;
	uint64_t base;		/* stream offset of byte 0 of the file */
	uint64_t wlo;		/* the bytes written span [wlo, whi) */
	uint64_t whi;
	uint64_t far;		/* records not written: beyond max_gap */
	char *low_path;		/* bytes below base, in reverse order */
	int low_fd;
	bool low_created;
	char *path;
	int fd;
	bool created;
	int werr;		/* errno of the first failed write */
	struct stream *lru_prev;	/* open files, most recently used first */
	struct stream *lru_next;
};

/* The tracker's state of a connection (struct dump_conn.track) */
struct dump_tconn {
	struct dump_conn *k;	/* the connection: its key */
	unsigned int dup;	/* follow: earlier connections, same mode and token */
	struct stream *s[2];	/* 0 tx, 1 rx; NULL until a record came */
};

/* What an empty direction prints */
static const struct stream no_stream = { .fd = -1, .low_fd = -1 };
static const struct stream_rare no_rare;

/* Connections seen per mode and token: open addressing */
struct tokcnt {
	uint32_t token;
	uint8_t mode;
	bool used;
	unsigned int n;
};

struct dump_track {
	char *dir;
	uint64_t max_gap;
	struct tokcnt *tok;
	size_t tsize;		/* a power of two */
	size_t tused;
	const struct dump_conns *conns;	/* the capture's connections */
	const struct dump_owners *owners;	/* the context file, or NULL */
	struct dump_arena mem;	/* parts, streams, range nodes */
	struct ivnode *ivfree;	/* range nodes to use again */
	bool nomem;
	/* follow: the streams with a file open, most recently used first */
	struct stream *lru_head;
	struct stream *lru_tail;
	unsigned int nopen;	/* files open (a stream may hold two) */
	unsigned int max_open;	/* from RLIMIT_NOFILE, less FD_RESERVE */
	int dirfd;		/* follow: @dir, the files are opened at it */
};

static uint32_t iv_rand(void)
{
	static uint32_t x = 2463534242u;	/* xorshift32 */

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return x;
}

/* Split @t into the ranges that end before @key (*@lo) and the rest. */
static void iv_split_end(struct ivnode *t, uint64_t key, struct ivnode **lo,
			 struct ivnode **hi)
{
	if (!t) {
		*lo = NULL;
		*hi = NULL;
	} else if (t->e < key) {
		iv_split_end(t->r, key, &t->r, hi);
		*lo = t;
	} else {
		iv_split_end(t->l, key, lo, &t->l);
		*hi = t;
	}
}

/* Split @t into the ranges that start at or before @key and the rest. */
static void iv_split_start(struct ivnode *t, uint64_t key, struct ivnode **lo,
			   struct ivnode **hi)
{
	if (!t) {
		*lo = NULL;
		*hi = NULL;
	} else if (t->s <= key) {
		iv_split_start(t->r, key, &t->r, hi);
		*lo = t;
	} else {
		iv_split_start(t->l, key, lo, &t->l);
		*hi = t;
	}
}

/* Join two treaps, every range of @a before every range of @b. */
static struct ivnode *iv_merge(struct ivnode *a, struct ivnode *b)
{
	if (!a)
		return b;
	if (!b)
		return a;
	if (a->prio > b->prio) {
		a->r = iv_merge(a->r, b);
		return a;
	}
	b->l = iv_merge(a, b->l);
	return b;
}

typedef void (*ovl_cb)(void *arg, uint64_t s, uint64_t e);

/* Free the ranges of @t in order, calling @cb for each part of [s, e)
 * they cover and widening [*ns, *ne) to cover them.
 */
static size_t iv_absorb(struct dump_track *tr, struct ivnode *t, uint64_t s,
			uint64_t e, ovl_cb cb, void *arg, uint64_t *ns,
			uint64_t *ne)
{
	size_t k;

	if (!t)
		return 0;
	k = iv_absorb(tr, t->l, s, e, cb, arg, ns, ne);
	if (cb) {
		uint64_t os = s > t->s ? s : t->s;
		uint64_t oe = e < t->e ? e : t->e;

		if (os < oe)
			cb(arg, os, oe);
	}
	if (t->s < *ns)
		*ns = t->s;
	if (t->e > *ne)
		*ne = t->e;
	k += 1 + iv_absorb(tr, t->r, s, e, cb, arg, ns, ne);
	t->l = tr->ivfree;
	tr->ivfree = t;
	return k;
}

/* Add [s, e), s < e. @cb (may be NULL) sees each part already present. */
static int ivset_add(struct dump_track *t, struct ivset *set, uint64_t s,
		     uint64_t e, ovl_cb cb, void *arg)
{
	struct ivnode *a, *m, *b, *n = t->ivfree;
	uint64_t ns = s, ne = e;

	if (n)
		t->ivfree = n->l;
	else
		n = dump_arena_alloc(&t->mem, sizeof(*n));
	if (!n)
		return -1;
	/* a: ranges that end before s; m: those touching [s, e]; b: after */
	iv_split_end(set->root, s, &a, &m);
	iv_split_start(m, e, &m, &b);
	set->nodes -= iv_absorb(t, m, s, e, cb, arg, &ns, &ne);
	n->l = NULL;
	n->r = NULL;
	n->s = ns;
	n->e = ne;
	n->prio = iv_rand();
	set->root = iv_merge(iv_merge(a, n), b);
	set->nodes++;
	return 0;
}

static void iv_fill(const struct ivnode *t, struct range *v, size_t *i)
{
	while (t) {
		iv_fill(t->l, v, i);
		v[*i].s = t->s;
		v[*i].e = t->e;
		(*i)++;
		t = t->r;
	}
}

/* A copy of @n's ranges (NULL when memory ran out on the way) */
static struct ivnode *iv_clone(struct dump_track *t, const struct ivnode *n)
{
	struct ivnode *c;

	if (!n)
		return NULL;
	c = dump_arena_alloc(&t->mem, sizeof(*c));
	if (!c)
		return NULL;
	*c = *n;
	c->l = iv_clone(t, n->l);
	c->r = iv_clone(t, n->r);
	return c;
}

/* The ranges as a sorted array in @set->v, @set->n (0 when no memory). */
static int ivset_flatten(struct ivset *set)
{
	size_t nodes = set->nodes, i = 0;
	struct range *v = NULL;

	if (nodes) {
		v = malloc(nodes * sizeof(*v));
		if (v)
			iv_fill(set->root, v, &i);
	}
	/* the nodes stay in the tracker's chunks until it is freed */
	set->v = v;
	set->n = i;
	return v || !nodes ? 0 : -1;
}

/* How many stream files follow keeps open: RLIMIT_NOFILE's soft limit,
 * raised first to the hard limit up to FD_WANT (smc uses poll(), never
 * select(), so descriptors above 1023 are fine), less FD_RESERVE for the
 * rest of the process; the least recently used are closed beyond it.
 */
static unsigned int open_budget(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return FD_RESERVE;
	if (rl.rlim_cur < FD_WANT && rl.rlim_max > rl.rlim_cur) {
		rlim_t old = rl.rlim_cur;

		rl.rlim_cur = rl.rlim_max < FD_WANT ? rl.rlim_max : FD_WANT;
		if (setrlimit(RLIMIT_NOFILE, &rl))
			rl.rlim_cur = old;
	}
	if (rl.rlim_cur > FD_WANT)
		rl.rlim_cur = FD_WANT;
	return rl.rlim_cur > 2 * FD_RESERVE ? rl.rlim_cur - FD_RESERVE
					    : rl.rlim_cur / 2 + 1;
}

/**
 * dump_track_new() - start tracking connections
 * @conns: the capture's connections, which dump_track_record() is given
 *	(the tracker's state hangs on them); it outlives the tracker
 * @dir: follow: the directory for the stream files, created when missing;
 *	stats: NULL
 * @max_gap: follow: records more than this many bytes away from the bytes
 *	of their stream written so far are not written (0: no limit)
 *
 * Return: the tracker, or NULL with errno set (no memory, or @dir cannot
 * be created or is not a directory).
 */
struct dump_track *dump_track_new(const struct dump_conns *conns,
				  const char *dir, uint64_t max_gap)
{
	struct dump_track *t = calloc(1, sizeof(*t));
	struct stat st;

	if (!t)
		return NULL;
	t->dirfd = -1;
	t->conns = conns;
	if (dir) {
		if (mkdir(dir, 0755) && errno != EEXIST)
			goto fail;
		if (stat(dir, &st))
			goto fail;
		if (!S_ISDIR(st.st_mode)) {
			errno = ENOTDIR;
			goto fail;
		}
		t->max_gap = max_gap;
		t->max_open = open_budget();
		t->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (t->dirfd < 0)
			goto fail;
		t->dir = strdup(dir);
		if (!t->dir)
			goto fail;
	}
	return t;
fail:
	if (t->dirfd >= 0)
		close(t->dirfd);
	free(t);
	return NULL;
}

static size_t tok_slot(const struct tokcnt *tab, size_t size, uint8_t mode,
		       uint32_t token)
{
	size_t i = ((token * 2654435761u) ^ mode) & (size - 1);

	while (tab[i].used && (tab[i].token != token || tab[i].mode != mode))
		i = (i + 1) & (size - 1);
	return i;
}

/* How many connections with @mode and @token came before; counts one
 * more. On no memory the count stays 0 and nomem is set.
 */
static unsigned int tok_count(struct dump_track *t, uint8_t mode,
			      uint32_t token)
{
	size_t i;

	if (2 * (t->tused + 1) > t->tsize) {
		size_t n = t->tsize ? t->tsize * 2 : 256, j;
		struct tokcnt *tab = calloc(n, sizeof(*tab));

		if (!tab) {
			t->nomem = true;
			return 0;
		}
		for (j = 0; j < t->tsize; j++)
			if (t->tok[j].used)
				tab[tok_slot(tab, n, t->tok[j].mode,
					     t->tok[j].token)] = t->tok[j];
		free(t->tok);
		t->tok = tab;
		t->tsize = n;
	}
	i = tok_slot(t->tok, t->tsize, mode, token);
	if (!t->tok[i].used) {
		t->tok[i].used = true;
		t->tok[i].mode = mode;
		t->tok[i].token = token;
		t->tused++;
	}
	return t->tok[i].n++;
}

/* The tracker's state of @k, made when new; NULL when memory ran out */
static struct dump_tconn *tconn_get(struct dump_track *t, struct dump_conn *k)
{
	struct dump_tconn *c;

	if (!k) {
		t->nomem = true;
		return NULL;
	}
	if (k->track)
		return k->track;
	c = dump_arena_alloc(&t->mem, sizeof(*c));
	if (!c) {
		t->nomem = true;
		return NULL;
	}
	c->k = k;
	if (t->dir)	/* only follow's file names need it */
		c->dup = tok_count(t, k->mode, k->token);
	k->track = c;
	return c;
}

/* Close @s's files and take it off the list of open ones; they are
 * opened again without O_TRUNC when needed.
 */
static void stream_close(struct dump_track *t, struct stream *s)
{
	if (s->fd < 0 && s->low_fd < 0)
		return;
	if (s->fd >= 0) {
		close(s->fd);
		s->fd = -1;
		t->nopen--;
	}
	if (s->low_fd >= 0) {
		close(s->low_fd);
		s->low_fd = -1;
		t->nopen--;
	}
	if (s->lru_prev)
		s->lru_prev->lru_next = s->lru_next;
	else
		t->lru_head = s->lru_next;
	if (s->lru_next)
		s->lru_next->lru_prev = s->lru_prev;
	else
		t->lru_tail = s->lru_prev;
	s->lru_prev = NULL;
	s->lru_next = NULL;
}

/* @s was used now: first on the list of open files (it has one open) */
static void stream_touch(struct dump_track *t, struct stream *s)
{
	if (t->lru_head == s)
		return;
	if (s->lru_prev) {	/* on the list, not first: unlink */
		s->lru_prev->lru_next = s->lru_next;
		if (s->lru_next)
			s->lru_next->lru_prev = s->lru_prev;
		else
			t->lru_tail = s->lru_prev;
	}
	s->lru_prev = NULL;
	s->lru_next = t->lru_head;
	if (t->lru_head)
		t->lru_head->lru_prev = s;
	else
		t->lru_tail = s;
	t->lru_head = s;
}

/* Close the files of the least recently used streams until @want more
 * can be opened, keeping @keep's open; false when none is left to close.
 */
static bool close_lru(struct dump_track *t, unsigned int want,
		      const struct stream *keep)
{
	struct stream *s = t->lru_tail;
	bool closed = false;

	while (s && t->nopen + want > t->max_open) {
		struct stream *prev = s->lru_prev;

		if (s != keep) {
			stream_close(t, s);
			closed = true;
		}
		s = prev;
	}
	return closed;
}

static void close_all(struct dump_track *t)
{
	while (t->lru_head)
		stream_close(t, t->lru_head);
}

static int stream_name(struct dump_tconn *c, int dir)
{
	struct stream *s = c->s[dir];
	char name[64];

	if (s->path)
		return 0;
	if (c->dup)
		snprintf(name, sizeof(name), "%s-%08x-%u-%s.bin",
			 c->k->mode == SMC_DUMP_MODE_SMCD ? "smcd" : "smcr",
			 c->k->token, c->dup + 1, dir ? "rx" : "tx");
	else
		snprintf(name, sizeof(name), "%s-%08x-%s.bin",
			 c->k->mode == SMC_DUMP_MODE_SMCD ? "smcd" : "smcr",
			 c->k->token, dir ? "rx" : "tx");
	s->path = strdup(name);
	if (!s->path)
		return -1;
	if (asprintf(&s->low_path, ".%s.low", name) < 0) {
		s->low_path = NULL;
		free(s->path);
		s->path = NULL;
		return -1;
	}
	return 0;
}

/* The stream's file, or with @low the file of the bytes below base.
 * At most max_open files are open: the least recently used streams'
 * files are closed first, and all but @s's when open() still says
 * EMFILE or ENFILE (descriptors taken elsewhere in the process).
 */
static int stream_fd(struct dump_track *t, struct dump_tconn *c, int dir, bool low)
{
	struct stream *s = c->s[dir];
	int *fd = low ? &s->low_fd : &s->fd;
	bool *created = low ? &s->low_created : &s->created;
	int flags, tries;

	if (*fd >= 0) {
		stream_touch(t, s);
		return *fd;
	}
	if (stream_name(c, dir))
		return -1;
	close_lru(t, 1, s);
	flags = O_RDWR | O_CLOEXEC | O_NOFOLLOW |
		(*created ? 0 : O_CREAT | O_TRUNC);
	for (tries = 0; tries < 2; tries++) {
		*fd = openat(t->dirfd, low ? s->low_path : s->path, flags,
			     0644);
		if (*fd >= 0) {
			*created = true;
			t->nopen++;
			stream_touch(t, s);
			return *fd;
		}
		if (errno != EMFILE && errno != ENFILE)
			break;
		/* fewer are free than RLIMIT_NOFILE said: use what is open */
		if (t->nopen > 1)
			t->max_open = t->nopen - 1;
		if (!close_lru(t, 1, s))
			break;
	}
	return -1;
}

static int write_all(int fd, const uint8_t *p, size_t len, uint64_t pos)
{
	while (len) {
		ssize_t n = pwrite(fd, p, len, (off_t)pos);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? errno : EIO;
		p += n;
		len -= (size_t)n;
		pos += (uint64_t)n;
	}
	return 0;
}

/* Stream bytes [x, x + n) into @buf: from the file when x >= base, else
 * from the low file, where stream byte y < base is at base - 1 - y. The
 * range lies on one side of base. Returns 0 or -1.
 */
static int stream_pread(struct dump_track *t, struct dump_tconn *c, int dir,
			uint8_t *buf, size_t n, uint64_t x)
{
	struct stream *s = c->s[dir];
	bool low = x < s->base;
	uint64_t pos = low ? s->base - (x + n) : x - s->base;
	int fd = stream_fd(t, c, dir, low);
	ssize_t got;
	size_t i;

	if (fd < 0)
		return -1;
	got = pread(fd, buf, n, (off_t)pos);
	if (got < 0)
		return -1;
	if ((size_t)got < n)	/* a sparse end: zeros */
		memset(buf + got, 0, n - (size_t)got);
	if (low)
		for (i = 0; i < n / 2; i++) {
			uint8_t b = buf[i];

			buf[i] = buf[n - 1 - i];
			buf[n - 1 - i] = b;
		}
	return 0;
}

/* Write stream bytes [off, off + len): at or above base to the file, below
 * it reversed to the low file (dump_track_report() puts them in place).
 */
static void stream_write(struct dump_track *t, struct dump_tconn *c, int dir,
			 const uint8_t *p, uint32_t len, uint64_t off)
{
	struct stream *s = c->s[dir];
	uint64_t end = off + len;
	int fd;

	if (s->werr)
		return;
	if (end > s->base) {
		uint64_t from = off > s->base ? off : s->base;

		fd = stream_fd(t, c, dir, false);
		if (fd < 0) {
			s->werr = errno ? errno : EIO;
			return;
		}
		s->werr = write_all(fd, p + (from - off), end - from,
				    from - s->base);
		if (s->werr)
			return;
	}
	if (off < s->base) {
		uint64_t to = end < s->base ? end : s->base;
		size_t n = to - off, i;
		uint8_t small[4096];
		uint8_t *rev = n <= sizeof(small) ? small : malloc(n);

		if (!rev) {
			s->werr = ENOMEM;
			return;
		}
		for (i = 0; i < n; i++)
			rev[i] = p[n - 1 - i];
		fd = stream_fd(t, c, dir, true);
		if (fd < 0)
			s->werr = errno ? errno : EIO;
		else
			s->werr = write_all(fd, rev, n, s->base - to);
		if (rev != small)
			free(rev);
	}
}

/* Compare the new bytes of an overlap with those already in the file. */
struct ovl_arg {
	struct dump_track *t;
	struct dump_tconn *c;
	int dir;
	const uint8_t *p;	/* record payload */
	uint64_t off;		/* its stream offset */
	uint64_t cur;		/* the record's bytes before are done */
	bool write;		/* follow writes this record */
};

/* The rare fields of @s, allocated on first use (NULL: no memory) */
static struct stream_rare *stream_rare(struct dump_track *t,
				       struct stream *s)
{
	if (!s->x) {
		s->x = dump_arena_alloc(&t->mem, sizeof(*s->x));
		if (!s->x)
			t->nomem = true;
	}
	return s->x;
}

static int same_bytes(struct ovl_arg *a, uint64_t s, uint64_t e)
{
	struct stream *st = a->c->s[a->dir];
	uint8_t buf[4096];

	/* nothing written there: a record skipped for max_gap */
	if (!a->t->dir || st->werr || !st->has_base || s < st->wlo ||
	    e > st->whi)
		return -1;
	while (s < e) {
		size_t n = e - s > sizeof(buf) ? sizeof(buf) : (size_t)(e - s);

		if (s < st->base && s + n > st->base)
			n = st->base - s;
		if (stream_pread(a->t, a->c, a->dir, buf, n, s))
			return -1;
		if (memcmp(buf, a->p + (s - a->off), n))
			return 0;
		s += n;
	}
	return 1;
}

static void on_overlap(void *arg, uint64_t s, uint64_t e)
{
	struct ovl_arg *a = arg;
	struct stream *st0 = a->c->s[a->dir];
	struct stream_rare *st = stream_rare(a->t, st0);
	int same = same_bytes(a, s, e);

	/* the file keeps the bytes that came first: write what lies
	 * between the overlaps
	 */
	if (a->write && a->cur < s)
		stream_write(a->t, a->c, a->dir, a->p + (a->cur - a->off),
			     (uint32_t)(s - a->cur), a->cur);
	if (e > a->cur)
		a->cur = e;
	if (!st)
		return;
	st->overlaps++;
	st->overlap_bytes += e - s;
	if (!same)
		st->overlap_diff++;
	if (st->novl < MAX_RANGES) {
		/* grown as the overlaps come: a stream with one overlap
		 * (thousands of them after a failover) takes 4, not
		 * MAX_RANGES
		 */
		if (st->novl == st->ovl_cap) {
			size_t n = st->ovl_cap ? 2 * st->ovl_cap : 4;
			struct ovl *v;

			if (n > MAX_RANGES)
				n = MAX_RANGES;
			v = realloc(st->ovl, n * sizeof(*v));
			if (!v)
				return;
			st->ovl = v;
			st->ovl_cap = n;
		}
		st->ovl[st->novl].s = s;
		st->ovl[st->novl].e = e;
		st->ovl[st->novl].same = same;
		st->novl++;
	}
}

static void track_cdc_seqno(struct stream_rare *s, const struct dump_cdc *cdc)
{
	uint16_t d;

	if (!s->has_seqno) {
		s->has_seqno = true;
	} else if (cdc->seqno != s->next_seqno) {
		d = (uint16_t)(cdc->seqno - s->next_seqno);
		if (d == 0xffff)
			return;		/* the same again (failover replay) */
		if (d >= 0x8000)
			return;		/* older */
		s->cdc_seq_gaps++;
		s->cdc_lost += d;
	}
	s->next_seqno = (uint16_t)(cdc->seqno + 1);
}

/**
 * dump_track_record() - account a valid record
 * @t: the tracker
 * @k: the record's connection (dump_conns_get()), NULL when it could not
 *	be had (memory ran out: the record is not accounted)
 * @r: the record (dump_parse_record() returned DUMP_OK, not legacy)
 * @cdc: its CDC message when it is a valid CDC record, else NULL
 *
 * Data: the stream's interval sets are updated, overlaps noted (and in
 * follow compared with the bytes written before), and the captured bytes
 * written at their place. Errors (no memory, write failures) are kept
 * and shown by dump_track_report().
 */
void dump_track_record(struct dump_track *t, struct dump_conn *k,
		       const struct dump_rec *r, const struct dump_cdc *cdc)
{
	int dir = r->flags & SMC_DUMP_F_RX ? 1 : 0;
	struct dump_tconn *c = tconn_get(t, k);
	struct ovl_arg a;
	uint64_t end;
	struct stream *s;

	if (!c)
		return;
	s = c->s[dir];
	if (!s) {
		s = dump_arena_alloc(&t->mem, t->dir ? sizeof(*s) :
					     offsetof(struct stream, has_base));
		if (!s) {
			t->nomem = true;
			return;
		}
		if (t->dir) {
			s->fd = -1;
			s->low_fd = -1;
		}
		c->s[dir] = s;
	}
	if (r->type == SMC_DUMP_TYPE_CDC) {
		s->cdc++;
		if (cdc && !cdc->smcd && stream_rare(t, s))
			track_cdc_seqno(s->x, cdc);
		return;
	}
	s->data++;
	s->bytes += r->payload_len;
	if (r->payload_len < r->orig_len) {
		struct stream_rare *x = stream_rare(t, s);

		if (x) {
			x->trunc++;
			x->trunc_bytes += r->orig_len - r->payload_len;
		}
	}
	/* @seen is kept apart from @have from the first record that the
	 * snaplen cut (payload_len < orig_len): until then they are equal
	 */
	if (!s->seen_apart && r->payload_len != r->orig_len) {
		s->seen.root = iv_clone(t, s->have.root);
		s->seen.nodes = s->have.nodes;
		s->seen_apart = true;
		if (s->have.root && !s->seen.root)
			t->nomem = true;
	}
	if (r->orig_len && s->seen_apart &&
	    ivset_add(t, &s->seen, r->offset, r->offset + r->orig_len, NULL,
		      NULL))
		t->nomem = true;
	if (!r->payload_len)
		return;
	end = r->offset + r->payload_len;
	a.t = t;
	a.c = c;
	a.dir = dir;
	a.p = r->payload;
	a.off = r->offset;
	a.cur = r->offset;
	a.write = t->dir != NULL;
	if (a.write && !s->has_base) {
		s->has_base = true;
		s->base = r->offset;
		s->wlo = r->offset;
		s->whi = end;
	} else if (a.write && t->max_gap &&
		   ((r->offset > s->whi && r->offset - s->whi > t->max_gap) ||
		    (end < s->wlo && s->wlo - end > t->max_gap))) {
		a.write = false;
		if (!s->far++ && !stream_name(c, dir))
			fprintf(stderr,
				"smc dump: %s: record at offset %" PRIu64
				" is more than max-gap %" PRIu64
				" bytes away from the stream's bytes, not written\n",
				s->path, r->offset,
				t->max_gap);
	}
	/* on_overlap() writes the new parts before each overlap */
	if (ivset_add(t, &s->have, r->offset, end, on_overlap, &a))
		t->nomem = true;
	if (!a.write)
		return;
	if (a.cur < end)
		stream_write(t, c, dir, r->payload + (a.cur - r->offset),
			     (uint32_t)(end - a.cur), a.cur);
	if (r->offset < s->wlo)
		s->wlo = r->offset;
	if (end > s->whi)
		s->whi = end;
}

/* ---- report ---- */

/* Both range sets of @s as sorted arrays (ivset_flatten()); the
 * report does it once per stream, stream_unflatten() frees them.
 */
static int stream_flatten(struct stream *s)
{
	int err = ivset_flatten(&s->have);

	if (s->seen_apart)
		err |= ivset_flatten(&s->seen);
	else
		s->seen = s->have;
	s->flat = true;
	return err ? -1 : 0;
}

static void stream_unflatten(struct stream *s)
{
	if (!s->flat)
		return;
	if (s->seen_apart)
		free(s->seen.v);
	free(s->have.v);
	s->have.v = NULL;
	s->seen.v = NULL;
	s->have.n = 0;
	s->seen.n = 0;
}

/* A stream that got bytes below its first record's offset: write the file
 * again from the lowest offset written, out of the two files.
 */
static void stream_finish(struct dump_track *t, struct dump_tconn *c, int dir)
{
	struct stream *s = c->s[dir];
	const struct ivset *h = &s->have;
	uint8_t *buf = NULL;
	char *tmp = NULL;
	int fd = -1, err = 0;
	uint64_t x;
	size_t i;

	if (!s->low_created || s->werr)
		goto out;
	buf = malloc(1 << 16);
	if (!buf || asprintf(&tmp, "%s.tmp", s->low_path) < 0) {
		tmp = NULL;
		err = ENOMEM;
		goto out;
	}
	fd = openat(t->dirfd, tmp,
		    O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_CREAT | O_TRUNC,
		    0644);
	if (fd < 0) {
		err = errno;
		goto out;
	}
	/* 64 KiB at a time from the start of each range on: the holes
	 * within a window are zeros in both files and are copied as such;
	 * a hole longer than a window is skipped and stays sparse
	 */
	x = s->wlo;
	for (i = 0; i < h->n && x < s->whi && !err; ) {
		size_t n;

		if (h->v[i].e <= x) {
			i++;
			continue;
		}
		if (x < h->v[i].s)
			x = h->v[i].s;
		if (x >= s->whi)
			break;
		n = s->whi - x > (1 << 16) ? 1 << 16 : s->whi - x;
		if (x < s->base && x + n > s->base)
			n = s->base - x;
		if (stream_pread(t, c, dir, buf, n, x))
			err = errno ? errno : EIO;
		else
			err = write_all(fd, buf, n, x - s->wlo);
		x += n;
	}
	if (!err && renameat(t->dirfd, tmp, t->dirfd, s->path))
		err = errno;
	if (!err)
		s->base = s->wlo;
out:
	if (fd >= 0)
		close(fd);
	if (tmp && err)
		unlinkat(t->dirfd, tmp, 0);
	if (err)
		s->werr = err;
	if (s->low_created) {
		stream_close(t, s);
		unlinkat(t->dirfd, s->low_path, 0);
		s->low_created = false;
	}
	free(tmp);
	free(buf);
}

/* Holes and truncated parts of a stream: the gaps of @have inside the
 * span of @seen, split by @seen. @cb gets each; returns nothing.
 */
typedef void (*gap_cb)(void *arg, bool trunc, uint64_t s, uint64_t e);

static void walk_gaps(const struct stream *st, gap_cb cb, void *arg)
{
	const struct ivset *h = &st->have, *sn = &st->seen;
	uint64_t start, end, pos;
	size_t i = 0, k = 0;

	if (!sn->n)
		return;
	start = sn->v[0].s;
	end = sn->v[sn->n - 1].e;
	if (h->n && h->v[0].s < start)
		start = h->v[0].s;
	pos = start;
	for (;;) {
		uint64_t gs = pos, ge;

		/* next captured range at or after pos */
		while (i < h->n && h->v[i].e <= pos)
			i++;
		if (i < h->n && h->v[i].s <= pos) {
			pos = h->v[i].e;
			continue;
		}
		ge = i < h->n ? h->v[i].s : end;
		if (ge > end)
			ge = end;
		if (gs >= ge)
			break;
		/* split [gs, ge) into seen (truncated) and unseen (hole) */
		while (gs < ge) {
			while (k < sn->n && sn->v[k].e <= gs)
				k++;
			if (k < sn->n && sn->v[k].s <= gs) {
				uint64_t e = sn->v[k].e < ge ? sn->v[k].e : ge;

				cb(arg, true, gs, e);
				gs = e;
			} else {
				uint64_t e = k < sn->n && sn->v[k].s < ge ?
					     sn->v[k].s : ge;

				cb(arg, false, gs, e);
				gs = e;
			}
		}
		pos = ge;
		if (pos >= end)
			break;
	}
}

/* The report's output. JSON is written by json_print. Text, which for a
 * capture of many short connections costs more than tracking them, is
 * put together here and handed to stdio in blocks: the bytes that
 * print_u64() and print_string() would print with the formats
 * "pre%" PRIu64 "post" and "pre%spost", without a format parsed per
 * field.
 */
struct rep {
	bool json;
	size_t n;		/* text bytes in @buf */
	char buf[16384];
};

static void rep_flush(struct rep *o)
{
	if (o->n)
		fwrite_unlocked(o->buf, 1, o->n, json_out());
	o->n = 0;
}

/* Text: @len bytes from @s */
static inline void rep_put(struct rep *o, const char *s, size_t len)
{
	if (sizeof(o->buf) - o->n < len) {
		rep_flush(o);
		if (len > sizeof(o->buf)) {
			fwrite_unlocked(s, 1, len, json_out());
			return;
		}
	}
	memcpy(o->buf + o->n, s, len);
	o->n += len;
}

/* Text: a string literal */
#define REP_LIT(o, lit)	rep_put(o, "" lit, sizeof(lit) - 1)

static void rep_str(struct rep *o, const char *s)
{
	rep_put(o, s, strlen(s));
}

/* Text: @v in decimal */
static void rep_dec(struct rep *o, uint64_t v)
{
	char num[20], *p = num + sizeof(num);

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	rep_put(o, p, (size_t)(num + sizeof(num) - p));
}

static void rep_u64_(struct rep *o, const char *key, const char *pre,
		     size_t npre, uint64_t v, const char *post, size_t npost)
{
	if (o->json) {
		print_u64(PRINT_JSON, key, NULL, v);
		return;
	}
	rep_put(o, pre, npre);
	rep_dec(o, v);
	rep_put(o, post, npost);
}

static void rep_string_(struct rep *o, const char *key, const char *pre,
			size_t npre, const char *s, const char *post,
			size_t npost)
{
	if (o->json) {
		print_string(PRINT_JSON, key, NULL, s);
		return;
	}
	rep_put(o, pre, npre);
	rep_str(o, s);
	rep_put(o, post, npost);
}

/* print_u64(PRINT_ANY, key, pre "%" PRIu64 post, v), @pre and @post
 * string literals
 */
#define rep_u64(o, key, pre, v, post)					\
	rep_u64_(o, key, "" pre, sizeof(pre) - 1, v, "" post, sizeof(post) - 1)
/* print_string(PRINT_ANY, key, pre "%s" post, s) */
#define rep_string(o, key, pre, s, post)				\
	rep_string_(o, key, "" pre, sizeof(pre) - 1, s, "" post,	\
		    sizeof(post) - 1)

/* Text: " a.b.c.d:port" or " [v6]:port" (dump_fmt_addr()) */
static void rep_addr(struct rep *o, int family, const uint8_t *a,
		     uint16_t port)
{
	char buf[INET6_ADDRSTRLEN + 8];
	int i;

	if (family != AF_INET) {
		dump_fmt_addr(family, a, port, buf, sizeof(buf));
		REP_LIT(o, " ");
		rep_str(o, buf);
		return;
	}
	for (i = 0; i < 4; i++) {
		rep_put(o, i ? "." : " ", 1);
		rep_dec(o, a[i]);
	}
	REP_LIT(o, ":");
	rep_dec(o, port);
}

/* The head of a connection's entry: mode, token and its two ends */
static void rep_conn(struct rep *o, const struct dump_conn *k)
{
	static const char *const keys[4] = {
		"local_address", "local_port", "peer_address", "peer_port"
	};
	static const char hex[] = "0123456789abcdef";
	const char *mode = k->mode == SMC_DUMP_MODE_SMCD ? "smcd" : "smcr";
	char buf[16];
	int i;

	buf[0] = '0';
	buf[1] = 'x';
	for (i = 0; i < 8; i++)
		buf[2 + i] = hex[(k->token >> (28 - 4 * i)) & 0xf];
	buf[10] = '\0';
	if (o->json) {
		print_string(PRINT_JSON, "mode", NULL,
			     k->mode == SMC_DUMP_MODE_SMCD ? "SMC-D" : "SMC-R");
		print_string(PRINT_JSON, "token", NULL, buf);
		dump_print_ends(k->family, k->laddr, k->lport, k->raddr,
				k->rport, keys, NULL, NULL);
		return;
	}
	rep_str(o, mode);
	REP_LIT(o, " token ");
	rep_put(o, buf, 10);
	rep_addr(o, k->family, k->laddr, k->lport);
	REP_LIT(o, " <->");
	rep_addr(o, k->family, k->raddr, k->rport);
}

struct gap_sum {
	uint64_t holes;
	uint64_t hole_bytes;
	uint64_t truncs;
	uint64_t trunc_bytes;
	bool want_trunc;	/* which kind to list now */
	uint64_t listed;
	struct rep *o;
};

static void sum_gap(void *arg, bool trunc, uint64_t s, uint64_t e)
{
	struct gap_sum *g = arg;

	if (trunc) {
		g->truncs++;
		g->trunc_bytes += e - s;
	} else {
		g->holes++;
		g->hole_bytes += e - s;
	}
}

static void print_range(struct rep *o, uint64_t s, uint64_t e,
			const char *label)
{
	open_json_object(NULL);
	if (!o->json) {
		REP_LIT(o, "\n\t\t");
		rep_str(o, label);
	}
	rep_u64(o, "start", " ", s, "");
	rep_u64(o, "end", "-", e, "");
	rep_u64(o, "len", " (", e - s, " bytes)");
	close_json_object();
}

static void list_gap(void *arg, bool trunc, uint64_t s, uint64_t e)
{
	struct gap_sum *g = arg;

	if (trunc != g->want_trunc || g->listed >= MAX_RANGES)
		return;
	g->listed++;
	print_range(g->o, s, e, trunc ? "truncated" : "hole");
}

static void print_ranges(struct rep *o, const struct stream *st, bool trunc,
			 uint64_t n)
{
	struct gap_sum g = { .want_trunc = trunc, .o = o };

	open_json_array(PRINT_JSON, trunc ? "truncated_ranges" : "hole_ranges");
	walk_gaps(st, list_gap, &g);
	close_json_array(PRINT_JSON, NULL);
	if (n > MAX_RANGES && !o->json) {
		REP_LIT(o, "\n\t\t... ");
		rep_dec(o, n - MAX_RANGES);
		REP_LIT(o, " more ");
		rep_str(o, trunc ? "truncated" : "hole");
		REP_LIT(o, " ranges");
	}
}

/* One direction of an end, "tx" or "rx" ("peer tx", "peer rx" in text
 * when @peer: the other end of a pair)
 */
static void print_stream(struct rep *o, const struct dump_track *t,
			 const struct dump_conn *k, const struct stream *st,
			 int dir, bool peer, struct dump_track_totals *tot)
{
	struct gap_sum g = { 0 };
	const char *name = dir ? "rx" : "tx";
	const struct stream_rare *x = st->x ? st->x : &no_rare;
	uint64_t start = 0, end = 0;
	size_t i;

	walk_gaps(st, sum_gap, &g);
	if (st->seen.n) {
		start = st->seen.v[0].s;
		end = st->seen.v[st->seen.n - 1].e;
	}
	tot->bytes += st->bytes;
	tot->holes += g.holes;
	tot->hole_bytes += g.hole_bytes;
	tot->truncs += x->trunc;
	tot->trunc_bytes += x->trunc_bytes;
	tot->overlaps += x->overlaps;
	tot->overlap_bytes += x->overlap_bytes;
	tot->cdc_seq_gaps += x->cdc_seq_gaps;

	open_json_object(name);
	if (!o->json) {
		REP_LIT(o, "\n\t");
		if (peer)
			REP_LIT(o, "peer ");
		rep_str(o, name);
	}
	if (t->dir) {
		if (st->created)
			tot->files++;
		rep_string(o, "file", " ",
			   st->created && st->path ? st->path : "-", "");
		rep_u64(o, "start", " start ", st->has_base ? st->base : 0, "");
	} else {
		rep_u64(o, "start", " start ", start, "");
	}
	rep_u64(o, "end", " end ", end, "");
	rep_u64(o, "records", " records ", st->data + st->cdc, "");
	rep_u64(o, "data", " data ", st->data, "");
	rep_u64(o, "cdc", " cdc ", st->cdc, "");
	rep_u64(o, "bytes", " bytes ", st->bytes, "");
	rep_u64(o, "holes", " holes ", g.holes, "");
	rep_u64(o, "hole_bytes", " (", g.hole_bytes, " bytes)");
	rep_u64(o, "truncated", " truncated ", x->trunc, "");
	rep_u64(o, "truncated_bytes", " (", x->trunc_bytes, " bytes)");
	rep_u64(o, "overlaps", " overlaps ", x->overlaps, "");
	rep_u64(o, "overlap_bytes", " (", x->overlap_bytes, " bytes)");
	rep_u64(o, "cdc_seq_gaps", " cdc-seq-gaps ", x->cdc_seq_gaps, "");
	rep_u64(o, "cdc_lost", " (", x->cdc_lost, " lost)");
	if (k->has_sseq) {
		/* told by stream_seq: what the kernel or the ring dropped */
		rep_u64(o, "lost_records", " lost-records ",
			k->lost[dir][0] + k->lost[dir][1], "");
		rep_u64(o, "lost_data_records", " (data ", k->lost[dir][0], "");
		rep_u64(o, "lost_cdc_records", ", cdc ", k->lost[dir][1], ")");
	}
	if (t->dir) {
		if (x->overlaps)
			rep_u64(o, "overlaps_differing", " differing ",
				x->overlap_diff, "");
		else
			print_u64(PRINT_JSON, "overlaps_differing", NULL,
				  x->overlap_diff);
		if (x->overlap_diff && st->path) {
			rep_flush(o);	/* the output and stderr in order */
			fprintf(stderr,
				"smc dump: %s: conflict: %" PRIu64
				" overlapping ranges hold different bytes\n",
				st->path, x->overlap_diff);
		}
		if (st->far)
			rep_u64(o, "beyond_max_gap", " beyond-max-gap ",
				st->far, "");
		else
			print_u64(PRINT_JSON, "beyond_max_gap", NULL, 0);
		if (st->werr) {
			tot->werrs++;
			rep_string(o, "write_error", " write-error \"",
				   strerror(st->werr), "\"");
		}
		print_ranges(o, st, false, g.holes);
		print_ranges(o, st, true, g.truncs);
		open_json_array(PRINT_JSON, "overlap_ranges");
		for (i = 0; i < x->novl; i++) {
			const struct ovl *v = &x->ovl[i];

			open_json_object(NULL);
			if (!o->json)
				REP_LIT(o, "\n\t\toverlap");
			rep_u64(o, "start", " ", v->s, "");
			rep_u64(o, "end", "-", v->e, "");
			rep_u64(o, "len", " (", v->e - v->s, " bytes");
			if (!o->json) {
				REP_LIT(o, ", ");
				rep_str(o, v->same > 0 ? "same" :
					   v->same ? "not compared" :
						     "differs");
				REP_LIT(o, ")");
			} else if (v->same >= 0) {
				print_bool(PRINT_JSON, "same", NULL, v->same);
			} else {
				print_null(PRINT_JSON, "same", NULL, NULL);
			}
			close_json_object();
		}
		close_json_array(PRINT_JSON, NULL);
	}
	close_json_object();
}

static bool has_track(const struct dump_conn *k)
{
	return k->track != NULL;
}

/* Give @k's streams their final layout (and follow's files theirs) */
static void streams_ready(struct dump_track *t, const struct dump_conn *k)
{
	struct dump_tconn *c = k->track;
	int i;

	for (i = 0; i < 2; i++)
		if (!c->s[i])
			continue;
		else if (stream_flatten(c->s[i]))
			t->nomem = true;
		else if (t->dir)
			stream_finish(t, c, i);
}

/* Print one direction of @k and let its ranges go */
static void stream_report(struct rep *o, const struct dump_track *t,
			  const struct dump_conn *k, int dir, bool peer,
			  struct dump_track_totals *tot)
{
	struct stream *st = k->track->s[dir];

	print_stream(o, t, k, st ? st : &no_stream, dir, peer, tot);
	if (st)	/* the ranges are listed: done with them */
		stream_unflatten(st);
}

/**
 * dump_track_report() - print the connections follow or stats found
 * @t: the tracker
 * @tot: filled with the sums over every stream, for the totals line that
 *	dump_ctx_finish() prints
 *
 * Prints one entry per connection, text or JSON (the "connections"
 * array): in stats, both ends of a connection that are in the capture
 * make one entry, the first end's, with the other's streams as its
 * peer's (text: by direction, tx, peer rx, rx, peer tx); follow, whose
 * files are per end, prints one entry per end. In follow, the stream
 * files get their final layout first.
 */
void dump_track_set_owners(struct dump_track *t,
			   const struct dump_owners *o)
{
	t->owners = o;
}

void dump_track_report(struct dump_track *t, struct dump_track_totals *tot)
{
	const struct dump_owner *w;
	const struct dump_conn *k, *p;
	struct rep o;
	char buf[16];

	o.json = is_json_context();
	o.n = 0;
	memset(tot, 0, sizeof(*tot));
	tot->follow = t->dir != NULL;
	open_json_array(PRINT_JSON, "connections");
	for (k = t->conns->first; k; k = k->next) {
		if (t->dir ? !k->track : !dump_conn_heads(k, has_track))
			continue;
		p = t->dir ? NULL : dump_conn_shown_peer(k, has_track);
		tot->connections++;
		streams_ready(t, k);
		if (p)
			streams_ready(t, p);
		open_json_object(NULL);
		rep_conn(&o, k);
		w = dump_owner_find(t->owners, k->token, k->family, k->laddr,
				    k->lport, k->raddr, k->rport);
		if (w) {
			rep_flush(&o);
			dump_print_owner(w);
		}
		print_u64(PRINT_JSON, "conn", NULL, (uint64_t)k->conn);
		if (p) {
			snprintf(buf, sizeof(buf), "0x%08x", p->token);
			if (!o.json)
				rep_string(&o, NULL, " peer-token ", buf, "");
		}
		stream_report(&o, t, k, 0, false, tot);
		if (p && !o.json)
			stream_report(&o, t, p, 1, true, tot);
		stream_report(&o, t, k, 1, false, tot);
		if (p && !o.json) {
			stream_report(&o, t, p, 0, true, tot);
		} else if (p) {
			open_json_object("peer");
			print_string(PRINT_JSON, "token", NULL, buf);
			stream_report(&o, t, p, 0, true, tot);
			stream_report(&o, t, p, 1, true, tot);
			close_json_object();
		}
		close_json_object();
		if (!o.json)
			REP_LIT(&o, "\n");
	}
	rep_flush(&o);
	close_json_array(PRINT_JSON, NULL);
	tot->nomem = t->nomem;
}

/**
 * dump_track_free() - close the files and free the tracker
 * @t: the tracker, may be NULL
 */
void dump_track_free(struct dump_track *t)
{
	const struct dump_conn *k;
	int d;

	if (!t)
		return;
	close_all(t);
	for (k = t->conns->first; k; k = k->next)
		for (d = 0; d < 2; d++) {
			struct stream *s = k->track ? k->track->s[d] : NULL;

			if (!s)
				continue;
			stream_unflatten(s);
			if (s->x)
				free(s->x->ovl);
			if (!t->dir)
				continue;
			if (s->low_created)
				unlinkat(t->dirfd, s->low_path, 0);
			free(s->low_path);
			free(s->path);
		}
	dump_arena_free(&t->mem);
	free(t->tok);
	free(t->dir);
	if (t->dirfd >= 0)
		close(t->dirfd);
	free(t);
}
