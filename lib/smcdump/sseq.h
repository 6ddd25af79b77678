/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sseq.h - records lost, told by each record stream's stream_seq
 * (hdr_ver 4 on), private to lib/smcdump. A stream is one link's records
 * of one connection (or, for LLC records, one link group), direction and
 * type; the kernel numbers each stream from 0, so a number the capture
 * never holds is a record lost, and a record a tap's filter left out
 * leaves no gap (it belongs to a stream the capture holds none of).
 */
#ifndef SMCDUMP_SSEQ_H
#define SMCDUMP_SSEQ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "conn.h"

/* Numbers a stream's records may arrive out of order by (two CPUs hand
 * records to the taps in either order); a number further behind than
 * this is counted lost, and uncounted again when it arrives late.
 */
#define DUMP_SSEQ_WINDOW	1024

struct dump_sseq;

/**
 * struct dump_sseqs - the record streams of a capture
 * @hash: chains by key, @hsize of them (a power of two)
 * @hsize: see @hash
 * @n: streams
 * @first: all streams, newest first
 * @nomem: memory ran out: streams after that are not counted
 */
struct dump_sseqs {
	struct dump_sseq **hash;
	size_t hsize;
	size_t n;
	struct dump_sseq *first;
	bool nomem;
};

/**
 * struct dump_sseq_count - what one stream, or a sum of them, lost
 * @lost: numbers the capture does not hold, between the first and the
 *	highest it holds
 * @late: records that came after a higher number of their stream
 */
struct dump_sseq_count {
	uint64_t lost;
	uint64_t late;
};

void dump_sseqs_init(struct dump_sseqs *t);
void dump_sseqs_add(struct dump_sseqs *t, uint32_t link,
		    struct dump_conn *k, uint32_t token, uint8_t mode,
		    bool rx, uint8_t type, uint32_t stream_seq);
void dump_sseqs_settle(struct dump_sseqs *t,
		       void (*cb)(void *arg, uint32_t link,
				  struct dump_conn *k, bool rx, uint8_t type,
				  const struct dump_sseq_count *n),
		       void *arg);
void dump_sseqs_release(struct dump_sseqs *t);

#endif /* SMCDUMP_SSEQ_H */
