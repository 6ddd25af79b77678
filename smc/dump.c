// SPDX-License-Identifier: GPL-2.0
/*
 * smc dump: the `read`, `follow` and `stats` commands, which decode
 * captures of smc-dummy links (and of the TCP handshake) with libpcap.
 * `start`, `stop` and `show` live in dump_capture.c.
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
#include <pcap/pcap.h>

#include "dump.h"
#include "dump_capture.h"
#include "json_print.h"
#include "smc.h"

#define DUMP_EXIT_OK		0
#define DUMP_EXIT_MALFORMED	1
#define DUMP_EXIT_USAGE		2
#define DUMP_EXIT_OPEN		3

#define PEEK_LEN	4096	/* bytes read ahead to learn the time format */

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

/* ---- input: a FILE that first returns the bytes we peeked at ---- */

struct peek {
	int fd;
	bool own;	/* close fd at the end */
	size_t len;
	size_t pos;
	uint8_t buf[PEEK_LEN];
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

/* Fractional digits the file's timestamps have: 9 for nanosecond pcap,
 * and for pcapng whose first interface has a finer if_tsresol than
 * microseconds; else 6.
 */
static int ts_digits(const uint8_t *b, size_t len)
{
	uint32_t shb_len, blen, (*g32)(const uint8_t *p);
	uint16_t (*g16)(const uint8_t *p);
	size_t off, o, end;

	if (len < 4)
		return 6;
	if (get_be32(b) == 0xa1b23c4d || get_le32(b) == 0xa1b23c4d)
		return 9;
	if (get_be32(b) != 0x0a0d0d0a || len < 12)
		return 6;
	if (get_be32(b + 8) == 0x1a2b3c4d) {
		g32 = get_be32;
		g16 = get_be16;
	} else {
		g32 = get_le32;
		g16 = get_le16;
	}
	shb_len = g32(b + 4);
	off = shb_len;
	if (shb_len < 28 || off > len || len - off < 20 || g32(b + off) != 1)
		return 6;	/* no interface description block next */
	blen = g32(b + off + 4);
	if (blen < 20 || blen > len - off)
		return 6;
	end = off + blen - 4;
	for (o = off + 16; o + 4 <= end;) {
		uint16_t code = g16(b + o), olen = g16(b + o + 2);

		if (!code || olen > end - o - 4)
			break;
		if (code == 9 && olen >= 1) {	/* if_tsresol */
			uint8_t v = b[o + 4];

			if (v & 0x80)
				return (v & 0x7f) > 19 ? 9 : 6;
			return v > 6 ? 9 : 6;
		}
		o += 4 + ((olen + 3u) & ~3u);
	}
	return 6;
}

static FILE *open_input(const char *path, int *digits)
{
	cookie_io_functions_t io = { .read = peek_read, .close = peek_close };
	struct peek *pk = malloc(sizeof(*pk));
	ssize_t r;
	FILE *f;

	if (!pk)
		return NULL;
	pk->len = 0;
	pk->pos = 0;
	if (!strcmp(path, "-")) {
		pk->fd = STDIN_FILENO;
		pk->own = false;
	} else {
		pk->fd = open(path, O_RDONLY | O_CLOEXEC);
		pk->own = true;
		if (pk->fd < 0) {
			free(pk);
			return NULL;
		}
	}
	while (pk->len < PEEK_LEN) {
		r = read(pk->fd, pk->buf + pk->len, PEEK_LEN - pk->len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		pk->len += (size_t)r;
	}
	*digits = ts_digits(pk->buf, pk->len);
	f = fopencookie(pk, "r", io);
	if (!f) {
		peek_close(pk);
		return NULL;
	}
	setvbuf(f, NULL, _IOFBF, 1 << 18);
	return f;
}

/* ---- the pcap loop ---- */

struct loop {
	struct dump_ctx *c;
	long long last_sec;
	uint32_t last_nsec;
};

static void on_frame(u_char *user, const struct pcap_pkthdr *h,
		     const u_char *data)
{
	struct loop *l = (struct loop *)user;

	l->last_sec = (long long)h->ts.tv_sec;
	l->last_nsec = (uint32_t)h->ts.tv_usec;	/* nanoseconds */
	dump_decode_frame(l->c, l->last_sec, l->last_nsec, data, h->caplen);
}

struct opts {
	enum dump_cmd cmd;
	const char *file;
	const char *dir;
	bool details;
	bool hex;
	bool json;
	bool pretty;
	bool cdc_big_endian;
	uint64_t max_gap;
};

static int run(const struct opts *o)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct loop l = { 0 };
	struct dump_ctx *c;
	int digits, dlt, rc = DUMP_EXIT_OK, trc;
	pcap_t *p;
	FILE *f;

	f = open_input(o->file, &digits);
	if (!f) {
		fprintf(stderr, "smc dump: %s: %s\n", o->file, strerror(errno));
		return DUMP_EXIT_OPEN;
	}
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
	c = malloc(sizeof(*c));
	if (!c) {
		pcap_close(p);
		fprintf(stderr, "smc dump: out of memory\n");
		return DUMP_EXIT_OPEN;
	}
	dump_ctx_init(c, o->cmd, dlt);
	c->details = o->details;
	c->hex = o->hex;
	c->cdc_big_endian = o->cdc_big_endian;
	c->ns_digits = digits;
	if (o->cmd != DUMP_CMD_READ) {
		c->track = dump_track_new(o->dir, o->max_gap);
		if (!c->track) {
			fprintf(stderr, "smc dump: %s: %s\n",
				o->dir ? o->dir : "tracker", strerror(errno));
			pcap_close(p);
			free(c);
			return DUMP_EXIT_OPEN;
		}
	}
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);

	new_json_obj(o->json, o->pretty);
	l.c = c;
	if (pcap_loop(p, -1, on_frame, (u_char *)&l) == PCAP_ERROR) {
		char why[PCAP_ERRBUF_SIZE + 64];

		/* libpcap could not read the next frame: a capture cut off
		 * in the middle of a frame, or a broken frame header
		 */
		c->frame++;
		snprintf(why, sizeof(why), "cannot read the frame: %s",
			 pcap_geterr(p));
		dump_report_malformed(c, l.last_sec, l.last_nsec, why);
	}
	if (c->track) {
		trc = dump_track_report(c->track, c);
		if (trc)
			rc = trc;
	}
	delete_json_obj();
	fflush(stdout);
	if (!rc && c->cnt[DUMP_CNT_MALFORMED])
		rc = DUMP_EXIT_MALFORMED;
	dump_track_free(c->track);
	free(c);
	pcap_close(p);
	return rc;
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
			o->details = true;
		} else if (!strcmp(a, "-x") || !strcmp(a, "--hex")) {
			o->hex = true;
		} else if (!strcmp(a, "-j") || !strcmp(a, "--json")) {
			o->json = true;
		} else if (!strcmp(a, "-p") || !strcmp(a, "--pretty")) {
			o->pretty = true;
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
				o->cdc_big_endian = false;
			else if (abbrev(argv[i], "big"))
				o->cdc_big_endian = true;
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
			o->max_gap = strtoull(argv[i], &end, 0);
			if (errno || end == argv[i] || *end || argv[i][0] == '-')
				return invarg("expected a number of bytes",
					      argv[i]);
		} else if (!strncmp(a, "--cdc-endian=", 13)) {
			if (abbrev(a + 13, "little"))
				o->cdc_big_endian = false;
			else if (abbrev(a + 13, "big"))
				o->cdc_big_endian = true;
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
	need = o->cmd == DUMP_CMD_FOLLOW ? 2 : 1;
	if (npos != need) {
		fprintf(stderr, "smc dump: %s\n", npos < need ?
			(need == 2 ? "FILE and DIR expected" : "FILE expected") :
			"too many arguments");
		usage(stderr);
		return DUMP_EXIT_USAGE;
	}
	o->file = pos[0];
	o->dir = need == 2 ? pos[1] : NULL;
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
		o.cmd = DUMP_CMD_READ;
	} else if (abbrev(argv[0], "follow")) {
		o.cmd = DUMP_CMD_FOLLOW;
	} else if (abbrev(argv[0], "stats")) {
		o.cmd = DUMP_CMD_STATS;
	} else if (abbrev(argv[0], "help") || !strcmp(argv[0], "-h")) {
		usage(stdout);
		return DUMP_EXIT_OK;
	} else {
		fprintf(stderr, "smc dump: unknown command \"%s\"\n", argv[0]);
		usage(stderr);
		return DUMP_EXIT_USAGE;
	}
	o.max_gap = DUMP_MAX_GAP;
	o.details = show_details;
	o.hex = show_hex;
	o.json = json;
	o.pretty = pretty;
	rc = parse(argc - 1, argv + 1, &o);
	if (rc < 0)
		return DUMP_EXIT_OK;
	if (rc)
		return rc;
	return run(&o);
}
