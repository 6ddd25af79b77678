// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the smc dump decoder: the record, CDC and CLC
 * parsers alone, and whole frames through dump_decode_frame() with text
 * or JSON output (to /dev/null) and the stats tracker with the analyzer
 * of smc dump analyze beside it.
 *
 * Input: byte 0 selects the target, byte 1 the options, the rest is the
 * target's data; for frames a sequence of [length (2 bytes, big-endian)]
 * [frame]; with bit 2 of byte 0 set, a whole pcap or pcapng file, read
 * through the capture reader (dump_reader_fdopen(), dump_decode_input())
 * as smc dump read and stats read it. Every piece is copied into a buffer of its exact size so that
 * AddressSanitizer sees a read one byte past it.
 *
 * The decoder's output goes to /dev/null through its output hook
 * (struct dump_opts.out); its messages about malformed input go to
 * stderr, which make -C smc fuzz closes (-close_fd_mask; libFuzzer keeps
 * its own reports). Build and run: make -C smc fuzz
 * (needs clang).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <pcap/pcap.h>

#include "smcdump.h"
#include "json_print.h"


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int dlts[] = {
	DLT_EN10MB, DLT_LINUX_SLL, DLT_LINUX_SLL2, DLT_RAW,
};

static uint8_t *dup_exact(const uint8_t *p, size_t n)
{
	uint8_t *b = malloc(n ? n : 1);

	if (!b)
		abort();
	memcpy(b, p, n);
	return b;
}

static void fuzz_record(const uint8_t *p, size_t n, uint8_t opt)
{
	char err[DUMP_ERRLEN];
	struct dump_rec r;
	struct dump_cdc c;
	uint8_t *b = dup_exact(p, n);
	uint32_t wire = (uint32_t)n + (opt & 0x0f);	/* claim a cut */

	if (dump_parse_record(b, (uint32_t)n, wire, &r, err, sizeof(err)) ==
	    DUMP_OK && !r.legacy && r.type == SMC_DUMP_TYPE_CDC)
		dump_parse_cdc(r.payload, r.payload_len,
			       r.mode == SMC_DUMP_MODE_SMCD, opt & 0x10, &c, err,
			       sizeof(err));
	free(b);
}

static void fuzz_cdc(const uint8_t *p, size_t n, uint8_t opt)
{
	char err[DUMP_ERRLEN];
	struct dump_cdc c;
	uint8_t *b = dup_exact(p, n);

	dump_parse_cdc(b, (uint32_t)n, opt & 1, opt & 2, &c, err, sizeof(err));
	free(b);
}

static void fuzz_clc(const uint8_t *p, size_t n, uint8_t opt)
{
	struct dump_opts o = {
		.flags = DUMP_F_PRINT, .details = opt & 1, .json = opt & 2,
		.pretty = opt & 4,
	};
	char err[DUMP_ERRLEN];
	uint8_t *b = dup_exact(p, n);
	uint32_t used, off = 0;
	bool inc;

	new_json_obj(o.json, o.pretty);
	while (n - off >= 4) {
		open_json_object(NULL);
		dump_decode_clc(&o, b + off, (uint32_t)(n - off), opt & 8, &used,
				&inc, err, sizeof(err));
		close_json_object();
		if (!used || inc)
			break;
		off += used;
	}
	delete_json_obj();
	free(b);
}

/* A read (or, with bit 6 of @opt, stats with the analyzer of analyze
 * beside the tracker) run of link type @dlt with the output options of
 * @opt, as smc dump starts one
 */
static struct dump_ctx *run_begin(uint8_t opt, int dlt, int ns_digits)
{
	static FILE *null_out;
	struct dump_opts o = {
		.flags = opt & 0x40 ? DUMP_F_TRACK | DUMP_F_ANALYZE :
				      DUMP_F_PRINT,
		.details = opt & 1, .hex = opt & 2,
		.json = opt & 4, .cdc_big_endian = opt & 8,
	};
	char err[DUMP_CTX_ERRLEN];
	struct dump_ctx *c;

	if (!null_out)
		null_out = fopen("/dev/null", "w");
	if (!null_out)
		abort();
	o.out = null_out;
	c = dump_ctx_new(&o, dlt, ns_digits, err, sizeof(err));
	if (!c)
		abort();
	return c;
}

static void run_end(struct dump_ctx *c)
{
	dump_ctx_finish(c);
	dump_ctx_free(c);
}

static void fuzz_frames(const uint8_t *p, size_t n, uint8_t opt)
{
	struct dump_ctx *c = run_begin(opt, dlts[(opt >> 4) & 3],
				       opt & 0x80 ? 9 : 6);
	size_t off = 0;

	while (n - off >= 2) {
		size_t len = (size_t)p[off] << 8 | p[off + 1];
		uint8_t *b;

		off += 2;
		if (len > n - off)
			len = n - off;
		b = dup_exact(p + off, len);
		dump_decode_frame(c, 1700000000, 0, b, (uint32_t)len);
		free(b);
		off += len;
	}
	run_end(c);
}

/* A capture file in memory through the reader, as smc dump read or
 * stats (bit 6 of @opt) reads a file
 */
static void fuzz_reader(const uint8_t *p, size_t n, uint8_t opt)
{
	char err[DUMP_READER_ERRLEN];
	struct dump_reader *r;
	struct dump_ctx *c;
	int fd = memfd_create("fuzz-capture", 0);

	if (fd < 0 || write(fd, p, n) != (ssize_t)n ||
	    lseek(fd, 0, SEEK_SET))
		abort();
	r = dump_reader_fdopen(fd, true, "fuzz", err, sizeof(err));
	if (!r)
		return;
	c = run_begin(opt, dump_reader_dlt(r), dump_reader_ns_digits(r));
	dump_decode_input(c, r);
	run_end(c);
	dump_reader_close(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 2)
		return 0;
	if (data[0] & 4) {
		fuzz_reader(data + 2, size - 2, data[1]);
		return 0;
	}
	switch (data[0] & 3) {
	case 0:
		fuzz_record(data + 2, size - 2, data[1]);
		break;
	case 1:
		fuzz_cdc(data + 2, size - 2, data[1]);
		break;
	case 2:
		fuzz_clc(data + 2, size - 2, data[1]);
		break;
	default:
		fuzz_frames(data + 2, size - 2, data[1]);
		break;
	}
	return 0;
}
