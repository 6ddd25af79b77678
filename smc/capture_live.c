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
	char err[DUMP_CTX_ERRLEN];
	struct dump_reader *r;
	struct dump_ctx *dc;
	int rc;

	r = dump_reader_fdopen(fd, true, "tcpdump's stream", err, sizeof(err));
	if (!r) {
		if (errno == ENODATA)
			return 0;	/* tcpdump wrote nothing: it says why */
		fprintf(stderr, "Error: %s\n", err);
		return EXIT_FAIL;
	}
	/* tcpdump's timestamps: 6 digits */
	dc = dump_ctx_new(&o, dump_reader_dlt(r), dump_reader_ns_digits(r),
			  err, sizeof(err));
	if (!dc) {
		dump_reader_close(r);
		return EXIT_FAIL;
	}
	dump_decode_input(dc, r);
	rc = dump_ctx_finish(dc) ? 1 : 0;
	dump_ctx_free(dc);
	dump_reader_close(r);
	return rc;
}
