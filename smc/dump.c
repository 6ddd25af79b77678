// SPDX-License-Identifier: GPL-2.0
/*
 * smc dump: the `read`, `follow`, `stats` and `analyze` commands, which decode
 * captures of smc-dummy links (and of the TCP handshake): argv here, the
 * reading (lib/smcdump/reader.c) and decoding in the decoder library.
 * `start`, `stop` and `show` live in capture.c and capture_ctl.c.
 *
 * Exit status: 0 all decoded, 1 malformed records or CLC messages seen
 * (the rest was decoded), 2 usage error, 3 the capture cannot be opened
 * or read, or follow cannot write its files, 4 analyze was given a token
 * that no record has.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "smcdump.h"
#include "capture_ctx.h"
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
		"Usage: smc dump read [ -d ] [ -x ] [ cdc-endian { little | big } ]\n"
		"                     [ context CTX ] FILE\n"
		"       smc dump follow [ cdc-endian { little | big } ] [ max-gap BYTES ]\n"
		"                       FILE DIR\n"
		"       smc dump stats [ cdc-endian { little | big } ] [ context CTX ] FILE\n"
		"       smc dump analyze [ cdc-endian { little | big } ] [ window MS ]\n"
		"                        [ token T ] [ context CTX ] FILE\n"
		"       smc dump graph [ token T ] [ tx | rx ] [ write OUT ] FILE\n"
		"       smc dump merge [ write OUT ] FILE_A FILE_B\n"
		"       smc dump context [ interval MS ] CTX\n"
		"       smc dump { start | stop | show } ...\n"
		"FILE := { PATH | - }   pcap or pcapng; - is standard input\n"
		"CTX: the connections' process, netns and cgroup (JSON lines); read -d,\n"
		"     stats and analyze take FILE.ctx when it exists\n"
		"Global options -j (JSON), -p (pretty), -d, -x also apply.\n"
		"Exit status: 0 ok, 1 malformed input seen, 2 usage,\n"
		"             3 cannot open or read FILE or write DIR,\n"
		"             4 analyze: no record has token T; merge: the\n"
		"               captures cannot be merged\n");
}

/* ---- one run: a capture through the decoder library ---- */

struct opts {
	struct dump_opts d;	/* the decoder's */
	bool follow;		/* FILE and DIR */
	const char *cmd;	/* read, follow, stats or analyze */
	const char *file;
	const char *context;	/* context FILE, or NULL: FILE.ctx */
};

/* The connections' context of read -d, stats and analyze: `context
 * FILE`, else FILE.ctx beside the capture when there is one. A file
 * named is read by read without -d too, which prints no context: one
 * that cannot be read is an error there as well. Return: 0 (*@w NULL
 * when there is none), or DUMP_EXIT_OPEN after a message.
 */
static int load_owners(const struct opts *o, struct dump_owners **w)
{
	char err[DUMP_CTX_ERRLEN], *path = NULL;
	int rc = 0;

	*w = NULL;
	if (!o->context) {
		if (o->d.flags & DUMP_F_PRINT && !o->d.details)
			return 0;
		if (!strcmp(o->file, "-") ||
		    asprintf(&path, "%s.ctx", o->file) < 0)
			return 0;
		if (access(path, F_OK)) {
			free(path);
			return 0;
		}
	}
	*w = dump_owners_load(o->context ? o->context : path, err,
			      sizeof(err));
	if (!*w) {
		fprintf(stderr, "Error: the connections' context: %s\n", err);
		rc = DUMP_EXIT_OPEN;
	}
	free(path);
	return rc;
}

static int run(struct opts *o)
{
	char err[DUMP_CTX_ERRLEN];
	struct dump_owners *w;
	struct dump_reader *r;
	struct dump_ctx *c;
	int rc;

	rc = load_owners(o, &w);
	if (rc)
		return rc;
	o->d.owners = w;
	r = dump_reader_open(o->file, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "Error: %s\n", err);
		dump_owners_free(w);
		return DUMP_EXIT_OPEN;
	}
	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, NULL, _IOFBF, 1 << 16);
	c = dump_ctx_new(&o->d, dump_reader_dlt(r), dump_reader_ns_digits(r),
			 err, sizeof(err));
	if (!c) {
		fprintf(stderr, "Error: %s\n", err);
		dump_reader_close(r);
		dump_owners_free(w);
		return DUMP_EXIT_OPEN;
	}
	dump_decode_input(c, r);
	dump_reader_close(r);
	rc = dump_ctx_finish(c);
	dump_ctx_free(c);
	/* malformed lines of the context file: malformed input */
	if (!rc && dump_owners_bad(w))
		rc = DUMP_EXIT_MALFORMED;
	dump_owners_free(w);
	return rc;
}

/* the keywords that take a value: each may be given once */
enum {
	SEEN_ENDIAN = 1 << 0,
	SEEN_MAX_GAP = 1 << 1,
	SEEN_WINDOW = 1 << 2,
	SEEN_TOKEN = 1 << 3,
	SEEN_CONTEXT = 1 << 4,
};

static int once(unsigned int *seen, unsigned int bit, const char *key,
		const char *val)
{
	if (*seen & bit)
		return duparg(key, val);
	*seen |= bit;
	return 0;
}

/* Is @a "--KW" or "--KW=...": a keyword written as a long option? */
static bool dashed_keyword(const char *a, const char *kw)
{
	size_t n = strlen(kw);

	return a[0] == '-' && a[1] == '-' && !strncmp(a + 2, kw, n) &&
	       (!a[n + 2] || a[n + 2] == '=');
}

/* A keyword of another dump command: named, not taken for FILE */
static int foreign_keyword(const struct opts *o, const char *a)
{
	fprintf(stderr,
		"Error: \"%s\" is not a keyword of \"smc dump %s\", try \"smc dump help\".\n",
		a, o->cmd);
	return DUMP_EXIT_USAGE;
}

static int parse(int argc, char **argv, struct opts *o)
{
	const char *pos[2];
	unsigned int seen = 0;
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
		} else if (!strcmp(a, "cdc-endian")) {
			if (++i == argc) {
				fprintf(stderr,
					"Error: \"%s\" needs little or big, try \"smc dump help\".\n",
					a);
				return DUMP_EXIT_USAGE;
			}
			if (once(&seen, SEEN_ENDIAN, "cdc-endian", argv[i]))
				return DUMP_EXIT_USAGE;
			if (!matches(argv[i], "little"))
				o->d.cdc_big_endian = false;
			else if (!matches(argv[i], "big"))
				o->d.cdc_big_endian = true;
			else
				return invarg("expected little or big",
					      argv[i]);
		} else if (!strcmp(a, "max-gap")) {
			if (!o->follow)
				return foreign_keyword(o, a);
			if (++i == argc) {
				fprintf(stderr,
					"Error: \"%s\" needs a number of bytes, try \"smc dump help\".\n",
					a);
				return DUMP_EXIT_USAGE;
			}
			if (once(&seen, SEEN_MAX_GAP, "max-gap", argv[i]))
				return DUMP_EXIT_USAGE;
			if (get_u64(&o->d.max_gap, argv[i], 0))
				return invarg("expected a number of bytes",
					      argv[i]);
		} else if (o->d.flags & DUMP_F_ANALYZE &&
			   (!strcmp(a, "window") || !strcmp(a, "token"))) {
			uint64_t v;

			if (++i == argc) {
				fprintf(stderr,
					"Error: \"%s\" needs %s, try \"smc dump help\".\n",
					a, a[0] == 'w' ? "milliseconds" :
					"a token");
				return DUMP_EXIT_USAGE;
			}
			if (a[0] == 'w' ?
			    once(&seen, SEEN_WINDOW, "window", argv[i]) :
			    once(&seen, SEEN_TOKEN, "token", argv[i]))
				return DUMP_EXIT_USAGE;
			if (get_u64(&v, argv[i], 0))
				return invarg(a[0] == 'w' ?
					      "expected milliseconds" :
					      "expected a token (0x...)",
					      argv[i]);
			if (a[0] == 'w') {
				if (!v || v > 3600000)
					return invarg("expected 1 to 3600000 milliseconds",
						      argv[i]);
				o->d.window_ns = v * 1000000ull;
			} else {
				if (v > UINT32_MAX)
					return invarg("a token has 32 bits",
						      argv[i]);
				o->d.has_token = true;
				o->d.token = (uint32_t)v;
			}
		} else if (!strcmp(a, "context")) {
			if (o->follow)
				return foreign_keyword(o, a);
			if (++i == argc) {
				fprintf(stderr,
					"Error: \"%s\" needs a file, try \"smc dump help\".\n",
					a);
				return DUMP_EXIT_USAGE;
			}
			if (once(&seen, SEEN_CONTEXT, "context", argv[i]))
				return DUMP_EXIT_USAGE;
			o->context = argv[i];
		} else if (!strcmp(a, "window") || !strcmp(a, "token")) {
			return foreign_keyword(o, a);
		} else if (dashed_keyword(a, "cdc-endian")) {
			/* one grammar, the keyword one of the man page */
			fprintf(stderr,
				"Error: \"%s\" is not an option, write \"cdc-endian { little | big }\", try \"smc dump help\".\n",
				a);
			return DUMP_EXIT_USAGE;
		} else if (dashed_keyword(a, "max-gap")) {
			fprintf(stderr,
				"Error: \"%s\" is not an option, write \"max-gap BYTES\", try \"smc dump help\".\n",
				a);
			return DUMP_EXIT_USAGE;
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr,
				"Error: unknown option \"%s\", try \"smc dump help\".\n",
				a);
			return DUMP_EXIT_USAGE;
		} else {
			if (npos == 2) {
				fprintf(stderr,
					"Error: unexpected argument \"%s\", try \"smc dump help\".\n",
					a);
				return DUMP_EXIT_USAGE;
			}
			pos[npos++] = a;
		}
	}
	need = o->follow ? 2 : 1;
	if (npos != need) {
		if (npos > need)
			fprintf(stderr,
				"Error: unexpected argument \"%s\", try \"smc dump help\".\n",
				pos[need]);
		else
			fprintf(stderr, "Error: %s, try \"smc dump help\".\n",
				need == 2 ? "FILE and DIR expected" :
				"FILE expected");
		return DUMP_EXIT_USAGE;
	}
	o->file = pos[0];
	o->d.dir = need == 2 ? pos[1] : NULL;
	return 0;
}

/* read, follow, stats, analyze: @cmd its name, what the decoder does
 * (DUMP_F_*), then the command's keywords and FILE, and DIR when @follow
 */
static int dump_file(const char *cmd, unsigned int flags, bool follow,
		     int argc, char **argv)
{
	struct opts o = { 0 };
	int rc;

	o.cmd = cmd;
	o.d.flags = flags;
	o.follow = follow;
	o.d.max_gap = DUMP_MAX_GAP;
	o.d.details = show_details;
	o.d.hex = show_hex;
	o.d.json = json;
	o.d.pretty = pretty;
	rc = parse(argc, argv, &o);
	if (rc < 0)
		return DUMP_EXIT_OK;
	if (rc)
		return rc;
	return run(&o);
}

static int dump_read(int argc, char **argv)
{
	return dump_file("read", DUMP_F_PRINT, false, argc, argv);
}

static int dump_follow(int argc, char **argv)
{
	return dump_file("follow", DUMP_F_TRACK, true, argc, argv);
}

static int dump_stats(int argc, char **argv)
{
	return dump_file("stats", DUMP_F_TRACK, false, argc, argv);
}

static int dump_analyze(int argc, char **argv)
{
	return dump_file("analyze", DUMP_F_ANALYZE, false, argc, argv);
}

static int dump_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	usage(stdout);
	return DUMP_EXIT_OK;
}

static const struct cmd dump_cmds[] = {
	{ "start", dump_start, CMD_EXACT },
	{ "stop", dump_stop, CMD_EXACT },
	{ "show", dump_show, CMD_EXACT },
	{ "context", dump_context, CMD_EXACT },
	{ "graph", dump_graph, CMD_EXACT },
	{ "merge", dump_merge, CMD_EXACT },
	{ "read", dump_read, 0 },
	{ "follow", dump_follow, 0 },
	{ "stats", dump_stats, 0 },
	{ "analyze", dump_analyze, 0 },
	{ "-h", dump_help, CMD_EXACT },
	{ NULL, NULL, 0 },
};

/**
 * do_dump() - the "smc dump" object
 * @argc: number of arguments in @argv
 * @argv: the arguments after "dump": argv[0] is the command
 *
 * read prints the records of a capture; follow writes each connection's
 * byte streams to files; stats counts; analyze measures each direction
 * (lib/smcdump/analyze.c). Uses the global options json,
 * pretty, show_details and show_hex of smc.c, which the command's own
 * -j -p -d -x add to.
 *
 * Return: exit status: 0 ok, 1 malformed input seen, 2 usage error,
 * 3 cannot open or read the capture or write the files, 4 analyze: no
 * such token, merge: the captures cannot be merged (dump_merge.c).
 */
int do_dump(int argc, char **argv)
{
	if (argc < 1) {
		usage(stderr);
		return DUMP_EXIT_USAGE;
	}
	return cmd_select(dump_cmds, argc, argv, "dump", usage);
}
