/* SPDX-License-Identifier: GPL-2.0 */
/*
 * decode.h - the state of one run of the decoder (decode.c), private to
 * lib/smcdump: callers hold a struct dump_ctx only through the functions
 * of include/smcdump.h (dump_ctx_new() ... dump_ctx_free()).
 */
#ifndef SMCDUMP_DECODE_H
#define SMCDUMP_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smcdump.h"
#include "conn.h"
#include "sseq.h"

/* Counters of struct dump_ctx */
enum dump_counter {
	DUMP_CNT_FRAMES,	/* frames read */
	DUMP_CNT_RECORDS,	/* SMC dump records (valid or not) */
	DUMP_CNT_DATA,		/* data records decoded */
	DUMP_CNT_CDC,		/* CDC records decoded */
	DUMP_CNT_LLC,		/* LLC records decoded */
	DUMP_CNT_LEGACY,	/* Alibaba layout records */
	DUMP_CNT_CLC,		/* CLC messages */
	DUMP_CNT_SYN,		/* TCP SYN and SYN-ACK */
	DUMP_CNT_SKIPPED,	/* frames that carry nothing of SMC */
	DUMP_CNT_MALFORMED,	/* records or CLC messages not decodable */
	DUMP_CNT_MAX
};

/**
 * struct dump_link - one smc-dummy link seen in the capture, for the
 *	sequence numbers of its records
 * @key: link-layer source address or interface index
 * @key_len: bytes in @key
 * @records: records seen on it
 * @first_seq: seq of the first record
 * @next_seq: the seq expected next
 * @gaps: times the seq jumped forward
 * @lost: records missing in those jumps, less those that came late
 * @reordered: records whose seq was lower than expected (late)
 * @ifindex: @key is a Linux cooked v2 interface index
 */
struct dump_link {
	uint8_t key[12];
	uint8_t key_len;
	bool ifindex;
	uint64_t records;
	uint32_t first_seq;
	uint32_t next_seq;
	uint64_t gaps;
	uint64_t lost;
	uint64_t reordered;
	uint64_t sseq_records;
	uint64_t sseq_lost;
};

/**
 * struct dump_ctx - state of one run of the decoder over one capture
 * @o: the options
 * @dlt: link type of the capture (pcap DLT_*)
 * @ns_digits: fractional digits of timestamps in text output (6 or 9)
 * @frame: number of the current frame, from 1
 * @cnt: counters (enum dump_counter)
 * @links: smc-dummy links seen, for sequence gaps (every one)
 * @nlinks: entries in @links
 * @linkcap: room in @links
 * @lhash: open-addressing index of @links (entry + 1, 0 free)
 * @lhsize: slots in @lhash, a power of two
 * @nomem: memory ran out (links untracked)
 * @conns: the connections of the records that @track or @an take, looked
 *	up once per record for both
 * @track: connections and streams (DUMP_F_TRACK), else NULL
 * @an: the analyzer (DUMP_F_ANALYZE, DUMP_F_TRACES), else NULL
 * @lgrs: the link groups' timeline (stats, analyze, graph), else NULL
 * @clc_parts: CLC messages cut by their segment's end, waiting
 * @nclc_parts: entries in @clc_parts
 * @tcache_sec: the second @tcache holds the local time of
 * @tcache_valid: @tcache holds something (any @tcache_sec, -1 too, is a
 *	time a capture can hold)
 * @tcache: "HH:MM:SS" of @tcache_sec
 */
struct dump_clc_part;

struct dump_ctx {
	struct dump_opts o;
	int dlt;
	int ns_digits;
	uint64_t frame;
	uint64_t cnt[DUMP_CNT_MAX];
	struct dump_link *links;
	size_t nlinks;
	size_t linkcap;
	uint32_t *lhash;
	size_t lhsize;
	bool nomem;
	struct dump_conns conns;
	struct dump_sseqs sseqs;
	struct dump_track *track;
	struct dump_analyze *an;
	struct dump_lgrs *lgrs;
	struct dump_clc_part *clc_parts;
	unsigned int nclc_parts;
	long long tcache_sec;
	bool tcache_valid;
	char tcache[24];
	/* read -d: the last connection's line of the context file */
	const struct dump_conn *owner_k;
	const struct dump_owner *owner_w;
};

/* llc.c: an LLC record's message */
/* a 16-byte GID as an IPv6 address; a 32-bit value as 0x%08x: key in
 * JSON, fmt in text (NULL: JSON only)
 */
void dump_print_gid(const char *key, const char *fmt, const uint8_t *p);
void dump_print_x32(const char *key, const char *fmt, uint32_t v);
const char *dump_llc_del_reason(uint32_t r);
bool dump_llc_big_endian(const struct dump_rec *r);
void dump_llc_print(const uint8_t *m, size_t len, bool big_endian,
		    bool details);
size_t dump_llc_check(const uint8_t *m, size_t caplen, size_t size,
		      bool big_endian, bool *bad, char *note, size_t notelen);

#endif /* SMCDUMP_DECODE_H */
