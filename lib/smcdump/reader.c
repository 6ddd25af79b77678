// SPDX-License-Identifier: GPL-2.0
/*
 * smc dump: the capture file reader. Opens a capture (a file, standard
 * input or a pipe), tells pcap from pcapng by its first 4 bytes and hands
 * out one frame at a time with its timestamp and link type; the decoder
 * (decode.c) gets them through dump_decode_input(). Interface and the
 * errors it reports: include/smcdump.h; formats: the pcap and pcapng
 * specifications (draft-ietf-opsawg-pcap, draft-ietf-opsawg-pcapng).
 *
 * Classic pcap goes through libpcap, from a FILE that first returns the 4
 * bytes of magic we read to tell the formats apart. pcapng is read here,
 * block by block: libpcap gives one link type per file, but a pcapng file
 * has one per interface (a mergecap of an "any" capture and an smc-dummy
 * capture), and each frame must be parsed by the type of its own
 * interface. Both read only the bytes they need, so that a live pipe
 * (tcpdump -U -w -) shows each frame as soon as it is complete.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <pcap/pcap.h>

#include "smcdump.h"

/* ---- the first 4 bytes again, for libpcap ---- */

struct peek {
	int fd;
	bool own;	/* close fd at the end */
	size_t len;
	size_t pos;
	uint8_t buf[4];
};

static ssize_t peek_read(void *cookie, char *out, size_t n)
{
	struct peek *pk = cookie;
	ssize_t r;

	if (pk->pos < pk->len) {
		size_t k = pk->len - pk->pos < n ? pk->len - pk->pos : n;

		memcpy(out, pk->buf + pk->pos, k);
		pk->pos += k;
		return (ssize_t)k;
	}
	do {
		r = read(pk->fd, out, n);
	} while (r < 0 && errno == EINTR);
	return r;
}

static int peek_close(void *cookie)
{
	struct peek *pk = cookie;

	if (pk->own)
		close(pk->fd);
	free(pk);
	return 0;
}

/* Read exactly @n bytes unless the end comes first: returns the count,
 * or -1 on a read error.
 */
static ssize_t read_full(int fd, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (uint8_t *)buf + got, n - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (!r)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* ---- pcapng (draft-ietf-opsawg-pcapng) ----
 *
 * Every block: type (4), total length (4), body, total length again (4),
 * in the byte order of its section. Offsets below are from the start of
 * the block.
 */
#define NG_SHB		0x0a0d0d0a	/* section header block type */
#define NG_IDB		1		/* interface description block */
#define NG_OPB		2		/* obsolete packet block */
#define NG_SPB		3		/* simple packet block */
#define NG_EPB		6		/* enhanced packet block */
#define NG_BOM		0x1a2b3c4d	/* byte-order magic of the SHB */
#define NG_MAX_BLOCK	(16u << 20)
#define NG_MAX_IFACES	65536

#define NG_BLK_TYPE	0	/* block type */
#define NG_BLK_LEN	4	/* block total length */
#define NG_BLK_HDR	8	/* type and length */
#define NG_BLK_TRAILER	4	/* the total length repeated */

#define NG_SHB_BOM	8	/* SHB: byte-order magic */
#define NG_SHB_MIN	28	/* SHB with no options */

#define NG_IDB_LINKTYPE	8	/* IDB: link type, 2 bytes */
#define NG_IDB_SNAPLEN	12	/* IDB: snap length, 4 bytes */
#define NG_IDB_OPTS	16	/* IDB: first option */
#define NG_IDB_MIN	20

/*
 * pcapng's IDB holds a LINKTYPE_ value (the tcpdump.org link-layer
 * header types registry), not the DLT_ value libpcap's API uses; of the
 * types the decoder reads, only raw IP differs: LINKTYPE_RAW is 101,
 * DLT_RAW is 12 (14 on OpenBSD). libpcap maps pcap files' headers the
 * same way when it opens them.
 */
#define LINKTYPE_RAW	101

static int ng_linktype_to_dlt(uint16_t linktype)
{
	return linktype == LINKTYPE_RAW ? DLT_RAW : linktype;
}

#define NG_OPT_HDR	4	/* option code (2), option length (2) */
#define NG_OPT_TSRESOL	9	/* if_tsresol, 1 byte */
#define NG_OPT_TSOFFSET	14	/* if_tsoffset, 8 bytes, seconds */

/* EPB and OPB: interface id (EPB 4 bytes, OPB 2 + 2 drops count),
 * timestamp high and low words, captured length, original length, data
 */
#define NG_EPB_IFID	8
#define NG_EPB_TS_HI	12
#define NG_EPB_TS_LO	16
#define NG_EPB_CAPLEN	20
#define NG_EPB_DATA	28
#define NG_EPB_MIN	32

/* SPB: original length, data */
#define NG_SPB_LEN	8
#define NG_SPB_DATA	12
#define NG_SPB_MIN	16

/* Classic pcap's magic of nanosecond timestamps */
#define PCAP_MAGIC_NSEC	0xa1b23c4d

struct ng_iface {
	int dlt;
	uint32_t snaplen;
	bool pow2;		/* if_tsresol: 2^-res, else 10^-res */
	uint8_t res;
	int64_t tsoffset;	/* if_tsoffset, seconds */
	bool warned;		/* unsupported link type said */
};

struct ng {
	bool be;		/* the section is big-endian */
	struct ng_iface *ifs;
	size_t nifs;
	uint8_t *blk;
	size_t blkcap;
};

struct dump_reader {
	const char *name;
	int fd;
	bool own;		/* close fd at the end */
	bool live;		/* not a regular file */
	int dlt;		/* first link type */
	int ns_digits;
	pcap_t *pcap;		/* classic pcap, else pcapng in @ng */
	struct ng ng;
};

static void say(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static uint32_t ng32(const struct ng *g, const uint8_t *p)
{
	return g->be ? get_be32(p) : get_le32(p);
}

static uint16_t ng16(const struct ng *g, const uint8_t *p)
{
	return g->be ? get_be16(p) : get_le16(p);
}

/*
 * Timestamp units of interface @f to seconds and nanoseconds; false when
 * the interface's if_tsoffset (seconds) takes them beyond what a signed
 * 64-bit count of seconds holds
 */
static bool ng_time(const struct ng_iface *f, uint64_t u, long long *sec,
		    uint32_t *nsec)
{
	uint64_t per = 1, rem;
	unsigned int i;

	if (f->pow2) {
		unsigned int k = f->res > 63 ? 63 : f->res;

		*sec = (long long)(u >> k);
		rem = u & ((1ull << k) - 1);
		*nsec = (uint32_t)(((unsigned __int128)rem * 1000000000u) >> k);
	} else {
		for (i = 0; i < f->res && i < 19; i++)
			per *= 10;
		*sec = (long long)(u / per);
		rem = u % per;
		*nsec = (uint32_t)((unsigned __int128)rem * 1000000000u / per);
	}
	return !__builtin_add_overflow(*sec, (long long)f->tsoffset, sec);
}

/* Fractional digits for an interface's timestamps: 9 when finer than us */
static int ng_digits(const struct ng_iface *f)
{
	if (f->pow2)
		return f->res > 19 ? 9 : 6;
	return f->res > 6 ? 9 : 6;
}

static int ng_add_iface(struct ng *g, const uint8_t *b, uint32_t blen)
{
	uint32_t end = blen - NG_BLK_TRAILER, o;
	struct ng_iface *f, *n;

	if (blen < NG_IDB_MIN)
		return -1;
	if (g->nifs == NG_MAX_IFACES)
		return -1;
	n = realloc(g->ifs, (g->nifs + 1) * sizeof(*n));
	if (!n)
		return -1;
	g->ifs = n;
	f = &g->ifs[g->nifs++];
	memset(f, 0, sizeof(*f));
	f->dlt = ng_linktype_to_dlt(ng16(g, b + NG_IDB_LINKTYPE));
	f->snaplen = ng32(g, b + NG_IDB_SNAPLEN);
	f->res = 6;
	for (o = NG_IDB_OPTS; o + NG_OPT_HDR <= end;) {
		const uint8_t *v = b + o + NG_OPT_HDR;
		uint16_t code = ng16(g, b + o), olen = ng16(g, b + o + 2);

		if (!code || olen > end - o - NG_OPT_HDR)
			break;
		if (code == NG_OPT_TSRESOL && olen >= 1) {
			f->pow2 = v[0] & 0x80;
			f->res = v[0] & 0x7f;
		} else if (code == NG_OPT_TSOFFSET && olen >= 8) {
			f->tsoffset = (int64_t)(g->be ? get_be64(v) :
				(uint64_t)get_le32(v + 4) << 32 | get_le32(v));
		}
		o += NG_OPT_HDR + ((olen + 3u) & ~3u);
	}
	return 0;
}

static int ng_reserve(struct ng *g, size_t n)
{
	uint8_t *b;

	if (n <= g->blkcap)
		return 0;
	b = realloc(g->blk, n);
	if (!b)
		return -1;
	g->blk = b;
	g->blkcap = n;
	return 0;
}

/* Read the rest of a block whose first @have bytes are in g->blk */
static int ng_block(struct dump_reader *r, uint32_t blen, size_t have)
{
	struct ng *g = &r->ng;
	ssize_t n;

	if (ng_reserve(g, blen))
		return -1;
	n = read_full(r->fd, g->blk + have, blen - have);
	if (n < 0 || (size_t)n != blen - have)
		return -1;
	return 0;
}

/* A section header block at g->blk (8 bytes there): byte order, length.
 * On failure, @err says why, after the capture's name.
 */
static int ng_section(struct dump_reader *r, char *err, size_t errlen)
{
	uint8_t hb[NG_SHB_BOM + 4];
	struct ng *g = &r->ng;
	uint32_t blen;

	memcpy(hb, g->blk, NG_BLK_HDR);
	if (read_full(r->fd, hb + NG_SHB_BOM, 4) != 4) {
		say(err, errlen, "%s: pcapng section header cut off", r->name);
		return -1;
	}
	if (get_be32(hb + NG_SHB_BOM) == NG_BOM)
		g->be = true;
	else if (get_le32(hb + NG_SHB_BOM) == NG_BOM)
		g->be = false;
	else {
		say(err, errlen, "%s: bad pcapng byte-order magic", r->name);
		return -1;
	}
	blen = ng32(g, hb + NG_BLK_LEN);
	if (blen < NG_SHB_MIN || blen % 4 || blen > NG_MAX_BLOCK) {
		say(err, errlen, "%s: bad pcapng section header length %u",
		    r->name, blen);
		return -1;
	}
	if (ng_reserve(g, sizeof(hb)))
		return -1;
	memcpy(g->blk, hb, sizeof(hb));
	if (ng_block(r, blen, sizeof(hb))) {
		say(err, errlen, "%s: pcapng section header cut off", r->name);
		return -1;
	}
	free(g->ifs);
	g->ifs = NULL;
	g->nifs = 0;
	return 0;
}

/* The next pcapng frame (see dump_reader_next()) */
static int ng_next(struct dump_reader *r, struct dump_frame *fr, char *err,
		   size_t errlen)
{
	struct ng *g = &r->ng;
	uint8_t hdr[NG_BLK_HDR];
	char why[DUMP_ERRLEN];
	ssize_t n;

	for (;;) {
		uint32_t type, blen, ifid, caplen, len;
		const uint8_t *b, *data;
		struct ng_iface *f;
		uint64_t ts;

		n = read_full(r->fd, hdr, sizeof(hdr));
		if (!n)
			return DUMP_READ_END;
		if (n != sizeof(hdr)) {
			say(err, errlen, "cannot read the frame: pcapng block header cut off");
			return DUMP_READ_CUT;
		}
		if (get_le32(hdr + NG_BLK_TYPE) == NG_SHB) {
			memcpy(g->blk, hdr, sizeof(hdr));
			if (ng_section(r, why, sizeof(why))) {
				fprintf(stderr, "Error: %s\n", why);
				say(err, errlen, "cannot read the frame: bad pcapng section header");
				return DUMP_READ_CUT;
			}
			continue;
		}
		type = ng32(g, hdr + NG_BLK_TYPE);
		blen = ng32(g, hdr + NG_BLK_LEN);
		if (blen < NG_BLK_HDR + NG_BLK_TRAILER || blen % 4 ||
		    blen > NG_MAX_BLOCK) {
			say(err, errlen, "cannot read the frame: pcapng block length %u",
			    blen);
			return DUMP_READ_CUT;
		}
		if (ng_reserve(g, blen)) {
			say(err, errlen, "cannot read the frame: out of memory");
			return DUMP_READ_CUT;
		}
		memcpy(g->blk, hdr, sizeof(hdr));
		if (ng_block(r, blen, sizeof(hdr))) {
			say(err, errlen, "cannot read the frame: pcapng block cut off");
			return DUMP_READ_CUT;
		}
		b = g->blk;
		if (type == NG_IDB) {
			if (ng_add_iface(g, b, blen)) {
				say(err, errlen, "bad pcapng interface description");
				return DUMP_READ_BAD;
			}
			continue;
		}
		if (type == NG_EPB || type == NG_OPB) {
			if (blen < NG_EPB_MIN) {
				say(err, errlen, "pcapng packet block too short");
				return DUMP_READ_BAD;
			}
			ifid = type == NG_EPB ? ng32(g, b + NG_EPB_IFID) :
						ng16(g, b + NG_EPB_IFID);
			ts = (uint64_t)ng32(g, b + NG_EPB_TS_HI) << 32 |
			     ng32(g, b + NG_EPB_TS_LO);
			caplen = ng32(g, b + NG_EPB_CAPLEN);
			data = b + NG_EPB_DATA;
			len = blen - NG_EPB_MIN;
		} else if (type == NG_SPB) {
			if (blen < NG_SPB_MIN) {
				say(err, errlen, "pcapng packet block too short");
				return DUMP_READ_BAD;
			}
			ifid = 0;
			ts = 0;
			caplen = ng32(g, b + NG_SPB_LEN);
			data = b + NG_SPB_DATA;
			len = blen - NG_SPB_MIN;
			if (g->nifs && g->ifs[0].snaplen &&
			    caplen > g->ifs[0].snaplen)
				caplen = g->ifs[0].snaplen;
			if (caplen > len)
				caplen = len;
		} else {
			continue;	/* statistics, name resolution, ... */
		}
		if (ifid >= g->nifs) {
			say(err, errlen,
			    "frame of pcapng interface %u, which is not described",
			    ifid);
			return DUMP_READ_BAD;
		}
		if (caplen > len) {
			say(err, errlen, "pcapng frame of %u bytes in a block of %u",
			    caplen, blen);
			return DUMP_READ_BAD;
		}
		f = &g->ifs[ifid];
		fr->sec = 0;
		fr->nsec = 0;
		if (type != NG_SPB && !ng_time(f, ts, &fr->sec, &fr->nsec)) {
			say(err, errlen,
			    "pcapng timestamp out of range (interface %u: if_tsoffset %lld s)",
			    ifid, (long long)f->tsoffset);
			return DUMP_READ_BAD;
		}
		fr->data = data;
		fr->caplen = caplen;
		fr->dlt = f->dlt;
		fr->ns_digits = ng_digits(f);
		if (!dump_dlt_supported(f->dlt)) {
			const char *name = pcap_datalink_val_to_name(f->dlt);

			if (f->warned)
				say(err, errlen, "%s", "");
			else
				say(err, errlen,
				    "%s: interface %u: link type %s (%d) not supported, its frames are skipped",
				    r->name, ifid, name ? name : "unknown",
				    f->dlt);
			f->warned = true;
			return DUMP_READ_SKIP;
		}
		return DUMP_READ_FRAME;
	}
}

/* The next classic pcap frame (see dump_reader_next()) */
static int pcap_next_frame(struct dump_reader *r, struct dump_frame *fr,
			   char *err, size_t errlen)
{
	struct pcap_pkthdr *h;
	const u_char *data;
	int rc;

	rc = pcap_next_ex(r->pcap, &h, &data);
	if (rc == 1) {
		uint64_t ns = (uint32_t)h->ts.tv_usec;

		/* The file's seconds
		 * are 32 bits, read signed (-1 is 1969-12-31 23:59:59):
		 * libpcap hands them on signed from a file of this machine's
		 * byte order, but unsigned (0xffffffff, 2106) from one it
		 * swaps, as a capture of s390x on amd64 and the other way
		 * round; the same bits must give the same time on both.
		 */
		fr->sec = (int32_t)(uint32_t)h->ts.tv_sec;
		/* the file's fraction as it is: 1000000000 ns or more is no
		 * time (the decoder's bogus-time), kept so up to UINT32_MAX
		 */
		if (r->ns_digits == 6)
			ns *= 1000;
		fr->nsec = ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
		fr->data = data;
		fr->caplen = h->caplen;
		fr->dlt = r->dlt;
		fr->ns_digits = r->ns_digits;
		return DUMP_READ_FRAME;
	}
	if (rc == PCAP_ERROR_BREAK || rc == 0)
		return DUMP_READ_END;
	/* libpcap could not read the next frame: a capture cut off in the
	 * middle of a frame, or a broken frame header
	 */
	say(err, errlen, "cannot read the frame: %s", pcap_geterr(r->pcap));
	return DUMP_READ_CUT;
}

int dump_reader_next(struct dump_reader *r, struct dump_frame *f, char *err,
		     size_t errlen)
{
	if (r->pcap)
		return pcap_next_frame(r, f, err, errlen);
	return ng_next(r, f, err, errlen);
}

static struct dump_reader *open_ng(struct dump_reader *r,
				   const uint8_t *magic, char *err,
				   size_t errlen)
{
	if (ng_reserve(&r->ng, 64)) {
		say(err, errlen, "out of memory");
		goto fail;
	}
	memcpy(r->ng.blk, magic, 4);
	if (read_full(r->fd, r->ng.blk + 4, 4) != 4) {
		say(err, errlen, "%s: pcapng section header cut off", r->name);
		goto fail;
	}
	if (ng_section(r, err, errlen))
		goto fail;
	r->dlt = DLT_EN10MB;	/* until an interface says otherwise */
	r->ns_digits = 6;
	return r;
fail:
	dump_reader_close(r);
	return NULL;
}

static struct dump_reader *open_pcap(struct dump_reader *r,
				     const uint8_t *magic, size_t got,
				     char *err, size_t errlen)
{
	cookie_io_functions_t io = { .read = peek_read, .close = peek_close };
	char errbuf[PCAP_ERRBUF_SIZE];
	struct peek *pk;
	const char *name;
	FILE *f;

	pk = malloc(sizeof(*pk));
	if (!pk) {
		say(err, errlen, "out of memory");
		goto fail;
	}
	pk->fd = r->fd;
	pk->own = r->own;
	pk->len = got;
	pk->pos = 0;
	memcpy(pk->buf, magic, got);
	f = fopencookie(pk, "r", io);
	if (!f) {
		say(err, errlen, "%s: %s", r->name, strerror(errno));
		free(pk);
		goto fail;
	}
	r->own = false;		/* the FILE closes it now */
	setvbuf(f, NULL, _IOFBF, 1 << 18);
	r->ns_digits = got == 4 && (get_be32(magic) == PCAP_MAGIC_NSEC ||
				    get_le32(magic) == PCAP_MAGIC_NSEC) ? 9 : 6;
	/* a microsecond file in microseconds: libpcap's scaling to ns
	 * is 32 bits wide, and would turn a ts_usec of 4294968 or more
	 * (no time) into a fraction of a second (pcap_next_frame())
	 */
	r->pcap = pcap_fopen_offline_with_tstamp_precision(f,
			r->ns_digits == 9 ? PCAP_TSTAMP_PRECISION_NANO :
					    PCAP_TSTAMP_PRECISION_MICRO,
			errbuf);
	if (!r->pcap) {
		say(err, errlen, "%s: %s", r->name, errbuf);
		fclose(f);
		goto fail;
	}
	r->dlt = pcap_datalink(r->pcap);
	if (!dump_dlt_supported(r->dlt)) {
		name = pcap_datalink_val_to_name(r->dlt);
		say(err, errlen, "%s: link type %s (%d) not supported", r->name,
		    name ? name : "unknown", r->dlt);
		goto fail;
	}
	return r;
fail:
	dump_reader_close(r);
	errno = got ? EINVAL : ENODATA;
	return NULL;
}

struct dump_reader *dump_reader_fdopen(int fd, bool own, const char *name,
				       char *err, size_t errlen)
{
	struct dump_reader *r = calloc(1, sizeof(*r));
	uint8_t magic[4];
	struct stat st;
	ssize_t got;

	if (!r) {
		say(err, errlen, "out of memory");
		if (own)
			close(fd);
		return NULL;
	}
	r->name = name;
	r->fd = fd;
	r->own = own;
	r->live = !fstat(fd, &st) && !S_ISREG(st.st_mode);
	got = read_full(fd, magic, sizeof(magic));
	if (got < 0) {
		say(err, errlen, "%s: %s", name, strerror(errno));
		dump_reader_close(r);
		return NULL;
	}
	if (got == 4 && get_le32(magic) == NG_SHB)
		return open_ng(r, magic, err, errlen);
	return open_pcap(r, magic, (size_t)got, err, errlen);
}

struct dump_reader *dump_reader_open(const char *path, char *err,
				     size_t errlen)
{
	int fd;

	if (!strcmp(path, "-"))
		return dump_reader_fdopen(STDIN_FILENO, false, path, err,
					  errlen);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		say(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	return dump_reader_fdopen(fd, true, path, err, errlen);
}

int dump_reader_dlt(const struct dump_reader *r)
{
	return r->dlt;
}

int dump_reader_ns_digits(const struct dump_reader *r)
{
	return r->ns_digits;
}

bool dump_reader_live(const struct dump_reader *r)
{
	return r->live;
}

void dump_reader_close(struct dump_reader *r)
{
	if (!r)
		return;
	if (r->pcap)
		pcap_close(r->pcap);
	if (r->own)
		close(r->fd);
	free(r->ng.blk);
	free(r->ng.ifs);
	free(r);
}
