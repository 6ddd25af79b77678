/* SPDX-License-Identifier: GPL-2.0 */
/*
 * conn.h - the one table of the connections of a capture, private to
 * lib/smcdump. decode.c looks each record's connection up once and hands
 * it to the tracker (track.c) and the analyzer (analyze.c), which hang
 * their own state on it and know nothing of each other.
 */
#ifndef SMCDUMP_CONN_H
#define SMCDUMP_CONN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smcdump.h"
#include "arena.h"

struct dump_tconn;
struct dump_aconn;

/**
 * struct dump_conn - one end of a connection: the key of its records
 * @hnext: hash chain
 * @pnext: chain of the hash of its addresses and ports (no token), where
 *	a new end looks for its peer; an end leaves it when it pairs
 * @next: the next end in order of first record
 * @peer: the other end of the connection when it is in the capture too
 *	(both ends on one host: loopback-ism, one netns), else NULL
 * @conn: the connection's number, 0-based in order of the connection's
 *	first record (either end), shared by both ends, as tcp.stream
 * @second: of a pair, the end that came second; reports print a pair
 *	once, under the first end
 * @mode: SMC_DUMP_MODE_*
 * @family: AF_INET or AF_INET6
 * @token: the records' token (the local alert token), host byte order
 * @laddr: local address, network byte order (IPv4: the first 4 bytes,
 *	the rest zero)
 * @raddr: peer address, the same way
 * @lport: local TCP port, host byte order
 * @rport: peer TCP port, host byte order
 * @has_ctoken: SMC-R: it sent a CDC message
 * @ctoken: the token of the last CDC message it sent: its peer's alert
 *	token
 * @track: the tracker's state of it, NULL until the tracker took a record
 * @an: the analyzer's, NULL until the analyzer took a record
 * @has_sseq: its records carry stream_seq (hdr_ver 4 on)
 * @lost: records lost by stream_seq, [0 sent, 1 received][0 data, 1 CDC],
 *	summed over the links (dump_sseqs_settle() through decode.c)
 * @lgr_moved: the link group timeline (lgr.c): 1 + the index of the last
 *	DELETE_LINK event this end was listed under, 0 none
 * @lgr_high: lgr.c: per direction (0 sent, 1 received), the highest end
 *	(offset + orig_len) of its data records so far
 */
struct dump_conn {
	struct dump_conn *hnext;
	struct dump_conn *pnext;
	struct dump_conn *next;
	struct dump_conn *peer;
	size_t conn;
	bool second;
	bool has_ctoken;
	uint32_t ctoken;
	uint8_t mode;
	uint8_t family;
	uint32_t token;
	uint8_t laddr[16];
	uint8_t raddr[16];
	uint16_t lport;
	uint16_t rport;
	struct dump_tconn *track;
	struct dump_aconn *an;
	bool has_sseq;
	uint32_t lgr_moved;
	uint64_t lost[2][2];
	uint64_t lgr_high[2];
};

/**
 * struct dump_conns - the connections of a capture, by end
 * @hash: chains by the key's hash, @hsize of them (a power of two)
 * @phash: chains by the hash of an end's addresses and ports, @hsize too,
 *	of the ends not paired yet, oldest first
 * @ptail: the last end of each @phash chain (NULL: empty)
 * @hsize: see @hash
 * @n: ends in the table
 * @nconn: connections: an end alone, or a pair of ends, counts one
 * @first: the end of the first record, the others follow by @next
 * @last: the newest
 * @mem: where the connections live
 */
struct dump_conns {
	struct dump_conn **hash;
	struct dump_conn **phash;
	struct dump_conn **ptail;
	size_t hsize;
	size_t n;
	size_t nconn;
	struct dump_conn *first;
	struct dump_conn *last;
	struct dump_arena mem;
};

int dump_conns_init(struct dump_conns *t);
struct dump_conn *dump_conns_get(struct dump_conns *t,
				 const struct dump_pkt *pkt,
				 const struct dump_rec *r,
				 const struct dump_cdc *cdc);
bool dump_conn_has_token(const struct dump_conn *k, uint32_t token);

/* whether an end has a report's state (it took records there) */
typedef bool (*dump_conn_has_fn)(const struct dump_conn *k);

/* Whether @k heads an entry of a report: it has state and is not the
 * second end of a pair whose first end has (a pair is one entry, under
 * its first end)
 */
static inline bool dump_conn_heads(const struct dump_conn *k,
				   dump_conn_has_fn has)
{
	return has(k) && !(k->second && has(k->peer));
}

/* The peer that an entry headed by @k shows with it, NULL when none */
static inline const struct dump_conn *
dump_conn_shown_peer(const struct dump_conn *k, dump_conn_has_fn has)
{
	return k->peer && has(k->peer) ? k->peer : NULL;
}

void dump_conns_release(struct dump_conns *t);

#endif /* SMCDUMP_CONN_H */
