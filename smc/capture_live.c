// SPDX-License-Identifier: GPL-2.0
/*
 * capture_live.c - the live decoder of a capture without `write`: a child
 * of the supervisor that reads tcpdump's pcap stream from a pipe and
 * prints each frame with the decoder of `smc dump read` (see capture.h),
 * through the same reader and frame loop (lib/smcdump/reader.c,
 * dump_decode_input())
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "capture.h"
#include "smcdump.h"
#include "json_print.h"
#include "smc.h"

int capture_decode_live(int fd)
{
	struct dump_opts o = {
		.flags = DUMP_F_PRINT, .details = show_details,
		.hex = show_hex, .json = json, .pretty = pretty,
	};
	char err[DUMP_READER_ERRLEN];
	struct dump_reader *r;
	struct dump_ctx *dc;
	int rc = 0;

	r = dump_reader_fdopen(fd, true, "tcpdump's stream", err, sizeof(err));
	if (!r) {
		if (errno == ENODATA)
			return 0;	/* tcpdump wrote nothing: it says why */
		fprintf(stderr, "Error: %s\n", err);
		return EXIT_FAIL;
	}
	dc = malloc(sizeof(*dc));
	if (!dc) {
		dump_reader_close(r);
		return EXIT_FAIL;
	}
	dump_ctx_init(dc, &o, dump_reader_dlt(r));
	dc->ns_digits = dump_reader_ns_digits(r);	/* tcpdump: 6 */
	new_json_obj(o.json, o.pretty);
	dump_decode_input(dc, r);
	dump_decode_finish(dc);
	delete_json_obj();
	fflush(stdout);
	if (dc->cnt[DUMP_CNT_MALFORMED])
		rc = 1;
	dump_ctx_free(dc);
	dump_reader_close(r);
	return rc;
}
