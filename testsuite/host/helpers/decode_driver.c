// SPDX-License-Identifier: GPL-2.0
/*
 * decode_driver - lib/smcdump's decoder with its output hook set: the
 * run's output goes to OUT through struct dump_opts.out, and standard
 * output is /dev/null, so whatever the library wrote to stdout instead of
 * the caller's stream is missing from OUT.
 *
 *   decode_driver [-d] [-j] read|stats|analyze CAPTURE OUT
 *
 * -d and -j as smc's (-j pretty-prints, as smc -j -p). The exit status is
 * dump_ctx_finish()'s, 100 on a usage or set-up error.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "smcdump.h"

int main(int argc, char **argv)
{
	struct dump_opts o = { 0 };
	char err[DUMP_CTX_ERRLEN];
	struct dump_reader *r;
	struct dump_ctx *c;
	FILE *out;
	int rc;

	for (; argc > 1 && argv[1][0] == '-'; argc--, argv++) {
		if (!strcmp(argv[1], "-d")) {
			o.details = true;
		} else if (!strcmp(argv[1], "-j")) {
			o.json = true;
			o.pretty = true;
		} else {
			break;
		}
	}
	if (argc != 4)
		goto usage;
	if (!strcmp(argv[1], "read"))
		o.flags = DUMP_F_PRINT;
	else if (!strcmp(argv[1], "stats"))
		o.flags = DUMP_F_TRACK;
	else if (!strcmp(argv[1], "analyze"))
		o.flags = DUMP_F_ANALYZE;
	else
		goto usage;
	if (!freopen("/dev/null", "w", stdout)) {
		perror("/dev/null");
		return 100;
	}
	out = fopen(argv[3], "w");
	if (!out) {
		perror(argv[3]);
		return 100;
	}
	o.out = out;
	r = dump_reader_open(argv[2], err, sizeof(err));
	if (!r) {
		fprintf(stderr, "Error: %s\n", err);
		return 100;
	}
	c = dump_ctx_new(&o, dump_reader_dlt(r), dump_reader_ns_digits(r),
			 err, sizeof(err));
	if (!c) {
		fprintf(stderr, "Error: %s\n", err);
		return 100;
	}
	dump_decode_input(c, r);
	dump_reader_close(r);
	rc = dump_ctx_finish(c);
	dump_ctx_free(c);
	if (fclose(out)) {
		perror(argv[3]);
		return 100;
	}
	return rc;
usage:
	fprintf(stderr,
		"usage: decode_driver [-d] [-j] read|stats|analyze CAPTURE OUT\n");
	return 100;
}
