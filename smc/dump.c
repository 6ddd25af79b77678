// SPDX-License-Identifier: GPL-2.0
/*
 * smc dump: the `read`, `follow` and `stats` commands, which decode
 * captures of smc-dummy links (and of the TCP handshake) with libpcap.
 * `start`, `stop` and `show` live in capture.c and capture_ctl.c.
 *
 * Exit status: 0 all decoded, 1 malformed records or CLC messages seen
 * (the rest was decoded), 2 usage error, 3 the capture cannot be opened
 * or read, or follow cannot write its files.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>
#include <pcap/pcap.h>

#include "smcdump.h"
#include "dump_capture.h"
#include "json_print.h"
#include "smc.h"

#define DUMP_EXIT_OK		0
#define DUMP_EXIT_MALFORMED	1
#define DUMP_EXIT_USAGE		2
#define DUMP_EXIT_OPEN		3


static void usage(FILE *f)
{
	fprintf(f,
		"Usage: smc dump read [ -d ] [ -x ] [ cdc-endian { little | big } ] FILE\n"
		"       smc dump follow [ cdc-endian { little | big } ] [ max-gap BYTES ]\n"
		"                       FILE DIR\n"
		"       smc dump stats [ cdc-endian { little | big } ] FILE\n"
		"       smc dump { start | stop | show } ...\n"
		"FILE := { PATH | - }   pcap or pcapng; - is standard input\n"
		"Global options -j (JSON), -p (pretty), -d, -x also apply.\n"
		"Exit status: 0 ok, 1 malformed input seen, 2 usage,\n"
		"             3 cannot open or read FILE or write DIR\n");
}

/* ---- input ----
 *
 * Classic pcap goes through libpcap, from a FILE that first returns the 4
 * bytes of magic we read to tell the formats apart. pcapng is read here,
 * block by block: libpcap gives one link type per file, but a pcapng file
 * has one per interface (a mergecap of an "any" capture and an smc-dummy
 * capture), and each frame must be parsed by the type of its own
 * interface. Both read only the bytes they need, so that a live pipe
 * (tcpdump -U -w -) shows each frame as soon as it is complete.
 */

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

#define NG_SHB		0x0a0d0d0a
#define NG_IDB		1
#define NG_OPB		2	/* obsolete packet block */
#define NG_SPB		3
#define NG_EPB		6
#define NG_BOM		0x1a2b3c4d
#define NG_MAX_BLOCK	(16u << 20)
#define NG_MAX_IFACES	65536

struct ng_iface {
	int dlt;
	uint32_t snaplen;
	bool pow2;		/* if_tsresol: 2^-res, else 10^-res */
	uint8_t res;
	int64_t tsoffset;	/* if_tsoffset, seconds */
	bool warned;		/* unsupported link type said */
};

struct ng {
	int fd;
	bool own;
	bool be;		/* the section is big-endian */
	struct ng_iface *ifs;
	size_t nifs;
	uint8_t *blk;
	size_t blkcap;
};

static uint32_t ng32(const struct ng *g, const uint8_t *p)
{
	return g->be ? get_be32(p) : get_le32(p);
}

static uint16_t ng16(const struct ng *g, const uint8_t *p)
{
	return g->be ? get_be16(p) : get_le16(p);
}

/* Timestamp units of interface @f to seconds and nanoseconds */
static void ng_time(const struct ng_iface *f, uint64_t u, long long *sec,
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
	*sec += f->tsoffset;
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
	struct ng_iface *f, *n;
	uint32_t o;

	if (blen < 20)
		return -1;
	if (g->nifs == NG_MAX_IFACES)
		return -1;
	n = realloc(g->ifs, (g->nifs + 1) * sizeof(*n));
	if (!n)
		return -1;
	g->ifs = n;
	f = &g->ifs[g->nifs++];
	memset(f, 0, sizeof(*f));
	f->dlt = ng16(g, b + 8);
	f->snaplen = ng32(g, b + 12);
	f->res = 6;
	for (o = 16; o + 4 <= blen - 4;) {
		uint16_t code = ng16(g, b + o), olen = ng16(g, b + o + 2);

		if (!code || olen > blen - 4 - o - 4)
			break;
		if (code == 9 && olen >= 1) {		/* if_tsresol */
			f->pow2 = b[o + 4] & 0x80;
			f->res = b[o + 4] & 0x7f;
		} else if (code == 14 && olen >= 8) {	/* if_tsoffset */
			f->tsoffset = (int64_t)(g->be ?
				get_be64(b + o + 4) :
				(uint64_t)get_le32(b + o + 8) << 32 |
				get_le32(b + o + 4));
		}
		o += 4 + ((olen + 3u) & ~3u);
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
static int ng_block(struct ng *g, uint32_t blen, size_t have)
{
	ssize_t r;

	if (ng_reserve(g, blen))
		return -1;
	r = read_full(g->fd, g->blk + have, blen - have);
	if (r < 0 || (size_t)r != blen - have)
		return -1;
	return 0;
}

/* A section header block at g->blk (8 bytes there): byte order, length */
static int ng_section(struct ng *g, const char *file)
{
	uint8_t hb[12];
	uint32_t blen;

	memcpy(hb, g->blk, 8);
	if (read_full(g->fd, hb + 8, 4) != 4) {
		fprintf(stderr, "smc dump: %s: pcapng section header cut off\n",
			file);
		return -1;
	}
	if (get_be32(hb + 8) == NG_BOM)
		g->be = true;
	else if (get_le32(hb + 8) == NG_BOM)
		g->be = false;
	else {
		fprintf(stderr, "smc dump: %s: bad pcapng byte-order magic\n",
			file);
		return -1;
	}
	blen = ng32(g, hb + 4);
	if (blen < 28 || blen % 4 || blen > NG_MAX_BLOCK) {
		fprintf(stderr, "smc dump: %s: bad pcapng section header length %u\n",
			file, blen);
		return -1;
	}
	if (ng_reserve(g, 12))
		return -1;
	memcpy(g->blk, hb, 12);
	if (ng_block(g, blen, 12)) {
		fprintf(stderr, "smc dump: %s: pcapng section header cut off\n",
			file);
		return -1;
	}
	free(g->ifs);
	g->ifs = NULL;
	g->nifs = 0;
	return 0;
}

/* ---- the loops ---- */

struct opts {
	struct dump_opts d;	/* the decoder's */
	const char *file;
};

struct loop {
	struct dump_ctx *c;
	bool live;		/* flush each frame's output */
	long long last_sec;
	uint32_t last_nsec;
};

static void frame(struct loop *l, long long sec, uint32_t nsec,
		  const uint8_t *data, uint32_t caplen)
{
	l->last_sec = sec;
	l->last_nsec = nsec;
	dump_decode_frame(l->c, sec, nsec, data, caplen);
	if (l->live)
		fflush(stdout);
}

static void on_frame(u_char *user, const struct pcap_pkthdr *h,
		     const u_char *data)
{
	struct loop *l = (struct loop *)user;

	/* nanoseconds: the precision asked for */
	frame(l, (long long)h->ts.tv_sec, (uint32_t)h->ts.tv_usec, data,
	      h->caplen);
}

static void bad_input(struct loop *l, const char *why)
{
	l->c->frame++;
	dump_report_malformed(l->c, l->last_sec, l->last_nsec, why);
}

/* pcapng, block by block, after the 8 bytes at g->blk of the first */
static void ng_loop(struct ng *g, struct loop *l, const char *file)
{
	struct dump_ctx *c = l->c;
	uint8_t hdr[8];
	char why[96];
	ssize_t r;

	for (;;) {
		uint32_t type, blen, ifid, caplen, len;
		const uint8_t *b, *data;
		struct ng_iface *f;
		long long sec = 0;
		uint32_t nsec = 0;
		uint64_t ts;

		r = read_full(g->fd, hdr, 8);
		if (!r)
			return;
		if (r != 8) {
			bad_input(l, "cannot read the frame: pcapng block header cut off");
			return;
		}
		if (get_le32(hdr) == NG_SHB) {
			memcpy(g->blk, hdr, 8);
			if (ng_section(g, file)) {
				bad_input(l, "cannot read the frame: bad pcapng section header");
				return;
			}
			continue;
		}
		type = ng32(g, hdr);
		blen = ng32(g, hdr + 4);
		if (blen < 12 || blen % 4 || blen > NG_MAX_BLOCK) {
			snprintf(why, sizeof(why),
				 "cannot read the frame: pcapng block length %u",
				 blen);
			bad_input(l, why);
			return;
		}
		if (ng_reserve(g, blen)) {
			bad_input(l, "cannot read the frame: out of memory");
			return;
		}
		memcpy(g->blk, hdr, 8);
		if (ng_block(g, blen, 8)) {
			bad_input(l, "cannot read the frame: pcapng block cut off");
			return;
		}
		b = g->blk;
		if (type == NG_IDB) {
			if (ng_add_iface(g, b, blen))
				bad_input(l, "bad pcapng interface description");
			continue;
		}
		if (type == NG_EPB || type == NG_OPB) {
			if (blen < 32) {
				bad_input(l, "pcapng packet block too short");
				continue;
			}
			ifid = type == NG_EPB ? ng32(g, b + 8) : ng16(g, b + 8);
			ts = (uint64_t)ng32(g, b + 12) << 32 | ng32(g, b + 16);
			caplen = ng32(g, b + 20);
			data = b + 28;
			len = blen - 32;
		} else if (type == NG_SPB) {
			if (blen < 16) {
				bad_input(l, "pcapng packet block too short");
				continue;
			}
			ifid = 0;
			ts = 0;
			caplen = ng32(g, b + 8);
			data = b + 12;
			len = blen - 16;
			if (g->nifs && g->ifs[0].snaplen &&
			    caplen > g->ifs[0].snaplen)
				caplen = g->ifs[0].snaplen;
			if (caplen > len)
				caplen = len;
		} else {
			continue;	/* statistics, name resolution, ... */
		}
		if (ifid >= g->nifs) {
			snprintf(why, sizeof(why),
				 "frame of pcapng interface %u, which is not described",
				 ifid);
			bad_input(l, why);
			continue;
		}
		if (caplen > len) {
			snprintf(why, sizeof(why),
				 "pcapng frame of %u bytes in a block of %u",
				 caplen, blen);
			bad_input(l, why);
			continue;
		}
		f = &g->ifs[ifid];
		if (type != NG_SPB)
			ng_time(f, ts, &sec, &nsec);
		if (!dump_dlt_supported(f->dlt)) {
			const char *name = pcap_datalink_val_to_name(f->dlt);

			if (!f->warned)
				fprintf(stderr,
					"smc dump: %s: interface %u: link type %s (%d) not supported, its frames are skipped\n",
					file, ifid, name ? name : "unknown",
					f->dlt);
			f->warned = true;
			c->frame++;
			c->cnt[DUMP_CNT_FRAMES]++;
			c->cnt[DUMP_CNT_SKIPPED]++;
			continue;
		}
		c->dlt = f->dlt;
		c->ns_digits = ng_digits(f);
		frame(l, sec, nsec, data, caplen);
	}
}

static struct dump_ctx *ctx_new(const struct opts *o, int dlt)
{
	struct dump_ctx *c = malloc(sizeof(*c));

	if (!c) {
		fprintf(stderr, "smc dump: out of memory\n");
		return NULL;
	}
	dump_ctx_init(c, &o->d, dlt);
	if (o->d.cmd != DUMP_CMD_READ) {
		c->track = dump_track_new(o->d.dir, o->d.max_gap);
		if (!c->track) {
			fprintf(stderr, "smc dump: %s: %s\n",
				o->d.dir ? o->d.dir : "tracker", strerror(errno));
			free(c);
			return NULL;
		}
	}
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	new_json_obj(o->d.json, o->d.pretty);
	return c;
}

static int ctx_end(struct dump_ctx *c)
{
	int rc = DUMP_EXIT_OK, trc;

	dump_decode_finish(c);
	if (c->track) {
		trc = dump_decode_report(c);
		if (trc)
			rc = trc;
	}
	delete_json_obj();
	fflush(stdout);
	if (!rc && c->cnt[DUMP_CNT_MALFORMED])
		rc = DUMP_EXIT_MALFORMED;
	dump_track_free(c->track);
	dump_ctx_free(c);
	return rc;
}

static int run_ng(const struct opts *o, int fd, bool own, bool live,
		  const uint8_t *magic)
{
	struct ng g = { .fd = fd, .own = own };
	struct loop l = { .live = live };
	int rc = DUMP_EXIT_OPEN;

	if (ng_reserve(&g, 64))
		goto out;
	memcpy(g.blk, magic, 4);
	if (read_full(fd, g.blk + 4, 4) != 4) {
		fprintf(stderr, "smc dump: %s: pcapng section header cut off\n",
			o->file);
		goto out;
	}
	if (ng_section(&g, o->file))
		goto out;
	l.c = ctx_new(o, DLT_EN10MB);
	if (!l.c)
		goto out;
	l.c->ns_digits = 6;
	ng_loop(&g, &l, o->file);
	rc = ctx_end(l.c);
out:
	free(g.blk);
	free(g.ifs);
	if (own)
		close(fd);
	return rc;
}

static int run(const struct opts *o)
{
	cookie_io_functions_t io = { .read = peek_read, .close = peek_close };
	char errbuf[PCAP_ERRBUF_SIZE];
	struct loop l = { 0 };
	struct peek *pk;
	uint8_t magic[4];
	struct stat st;
	bool own, live;
	ssize_t got;
	int fd, dlt;
	pcap_t *p;
	FILE *f;

	if (!strcmp(o->file, "-")) {
		fd = STDIN_FILENO;
		own = false;
	} else {
		fd = open(o->file, O_RDONLY | O_CLOEXEC);
		own = true;
		if (fd < 0) {
			fprintf(stderr, "smc dump: %s: %s\n", o->file,
				strerror(errno));
			return DUMP_EXIT_OPEN;
		}
	}
	live = !fstat(fd, &st) && !S_ISREG(st.st_mode);
	got = read_full(fd, magic, 4);
	if (got < 0) {
		fprintf(stderr, "smc dump: %s: %s\n", o->file, strerror(errno));
		if (own)
			close(fd);
		return DUMP_EXIT_OPEN;
	}
	if (got == 4 && get_le32(magic) == NG_SHB)
		return run_ng(o, fd, own, live, magic);

	pk = malloc(sizeof(*pk));
	if (!pk) {
		if (own)
			close(fd);
		return DUMP_EXIT_OPEN;
	}
	pk->fd = fd;
	pk->own = own;
	pk->len = (size_t)got;
	pk->pos = 0;
	memcpy(pk->buf, magic, (size_t)got);
	f = fopencookie(pk, "r", io);
	if (!f) {
		peek_close(pk);
		fprintf(stderr, "smc dump: %s: %s\n", o->file, strerror(errno));
		return DUMP_EXIT_OPEN;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 18);
	p = pcap_fopen_offline_with_tstamp_precision(f,
			PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (!p) {
		fprintf(stderr, "smc dump: %s: %s\n", o->file, errbuf);
		fclose(f);
		return DUMP_EXIT_OPEN;
	}
	dlt = pcap_datalink(p);
	if (!dump_dlt_supported(dlt)) {
		const char *name = pcap_datalink_val_to_name(dlt);

		fprintf(stderr, "smc dump: %s: link type %s (%d) not supported\n",
			o->file, name ? name : "unknown", dlt);
		pcap_close(p);
		return DUMP_EXIT_OPEN;
	}
	l.c = ctx_new(o, dlt);
	if (!l.c) {
		pcap_close(p);
		return DUMP_EXIT_OPEN;
	}
	/* nanosecond pcap has its own magic */
	l.c->ns_digits = get_be32(magic) == 0xa1b23c4d ||
			 get_le32(magic) == 0xa1b23c4d ? 9 : 6;
	l.live = live;
	if (pcap_loop(p, -1, on_frame, (u_char *)&l) == PCAP_ERROR) {
		char why[PCAP_ERRBUF_SIZE + 64];

		/* libpcap could not read the next frame: a capture cut off
		 * in the middle of a frame, or a broken frame header
		 */
		snprintf(why, sizeof(why), "cannot read the frame: %s",
			 pcap_geterr(p));
		bad_input(&l, why);
	}
	pcap_close(p);
	return ctx_end(l.c);
}

/* @arg abbreviates @word (a non-empty prefix of it) */
static bool abbrev(const char *arg, const char *word)
{
	size_t n = strlen(arg);

	return n && n <= strlen(word) && !strncmp(arg, word, n);
}

static int parse(int argc, char **argv, struct opts *o)
{
	const char *pos[2];
	int npos = 0, need, i;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "-d") || !strcmp(a, "--details")) {
			o->d.details = true;
		} else if (!strcmp(a, "-x") || !strcmp(a, "--hex")) {
			o->d.hex = true;
		} else if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			o->d.json = true;
		} else if (!strcmp(a, "-p") || !strcmp(a, "--pretty")) {
			o->d.pretty = true;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help") ||
			   !strcmp(a, "help")) {
			usage(stdout);
			return -1;
		} else if (!strcmp(a, "cdc-endian") ||
			   !strcmp(a, "--cdc-endian")) {
			if (++i == argc) {
				fprintf(stderr, "smc dump: %s needs little or big\n",
					a);
				return DUMP_EXIT_USAGE;
			}
			if (abbrev(argv[i], "little"))
				o->d.cdc_big_endian = false;
			else if (abbrev(argv[i], "big"))
				o->d.cdc_big_endian = true;
			else
				return invarg("expected little or big",
					      argv[i]);
		} else if (!strcmp(a, "max-gap") || !strcmp(a, "--max-gap")) {
			char *end;

			if (++i == argc) {
				fprintf(stderr, "smc dump: %s needs a number of bytes\n",
					a);
				return DUMP_EXIT_USAGE;
			}
			errno = 0;
			o->d.max_gap = strtoull(argv[i], &end, 0);
			if (errno || end == argv[i] || *end || argv[i][0] == '-')
				return invarg("expected a number of bytes",
					      argv[i]);
		} else if (!strncmp(a, "--cdc-endian=", 13)) {
			if (abbrev(a + 13, "little"))
				o->d.cdc_big_endian = false;
			else if (abbrev(a + 13, "big"))
				o->d.cdc_big_endian = true;
			else
				return invarg("expected little or big", a + 13);
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "smc dump: unknown option \"%s\"\n", a);
			usage(stderr);
			return DUMP_EXIT_USAGE;
		} else {
			if (npos == 2) {
				fprintf(stderr, "smc dump: extra argument \"%s\"\n",
					a);
				usage(stderr);
				return DUMP_EXIT_USAGE;
			}
			pos[npos++] = a;
		}
	}
	need = o->d.cmd == DUMP_CMD_FOLLOW ? 2 : 1;
	if (npos != need) {
		fprintf(stderr, "smc dump: %s\n", npos < need ?
			(need == 2 ? "FILE and DIR expected" : "FILE expected") :
			"too many arguments");
		usage(stderr);
		return DUMP_EXIT_USAGE;
	}
	o->file = pos[0];
	o->d.dir = need == 2 ? pos[1] : NULL;
	return 0;
}

/**
 * do_dump() - the "smc dump" object
 * @argc: number of arguments in @argv
 * @argv: the arguments after "dump": argv[0] is the command
 *
 * read prints the records of a capture; follow writes each connection's
 * byte streams to files; stats counts. Uses the global options json,
 * pretty, show_details and show_hex of smc.c, which the command's own
 * -j -p -d -x add to.
 *
 * Return: exit status: 0 ok, 1 malformed input seen, 2 usage error,
 * 3 cannot open or read the capture or write the files.
 */
int do_dump(int argc, char **argv)
{
	struct opts o = { 0 };
	int rc;

	if (argc < 1) {
		usage(stderr);
		return DUMP_EXIT_USAGE;
	}
	if (!strcmp(argv[0], "start"))
		return dump_start(argc - 1, argv + 1);
	if (!strcmp(argv[0], "stop"))
		return dump_stop(argc - 1, argv + 1);
	if (!strcmp(argv[0], "show"))
		return dump_show(argc - 1, argv + 1);
	if (abbrev(argv[0], "read")) {
		o.d.cmd = DUMP_CMD_READ;
	} else if (abbrev(argv[0], "follow")) {
		o.d.cmd = DUMP_CMD_FOLLOW;
	} else if (abbrev(argv[0], "stats")) {
		o.d.cmd = DUMP_CMD_STATS;
	} else if (abbrev(argv[0], "help") || !strcmp(argv[0], "-h")) {
		usage(stdout);
		return DUMP_EXIT_OK;
	} else {
		fprintf(stderr, "smc dump: unknown command \"%s\"\n", argv[0]);
		usage(stderr);
		return DUMP_EXIT_USAGE;
	}
	o.d.max_gap = DUMP_MAX_GAP;
	o.d.details = show_details;
	o.d.hex = show_hex;
	o.d.json = json;
	o.d.pretty = pretty;
	rc = parse(argc - 1, argv + 1, &o);
	if (rc < 0)
		return DUMP_EXIT_OK;
	if (rc)
		return rc;
	return run(&o);
}
