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
 * struct dump_conn - one connection as one end saw it: the key of its
 *	records
 * @hnext: hash chain
 * @next: the next connection in order of first record
 * @mode: SMC_DUMP_MODE_*
 * @family: AF_INET or AF_INET6
 * @token: the records' token (the local alert token), host byte order
 * @laddr: local address, network byte order (IPv4: the first 4 bytes,
 *	the rest zero)
 * @raddr: peer address, the same way
 * @lport: local TCP port, host byte order
 * @rport: peer TCP port, host byte order
 * @track: the tracker's state of it, NULL until the tracker took a record
 * @an: the analyzer's, NULL until the analyzer took a record
 * @has_sseq: its records carry stream_seq (hdr_ver 4 on)
 * @lost: records lost by stream_seq, [0 sent, 1 received][0 data, 1 CDC],
 *	summed over the links (dump_sseqs_settle() through decode.c)
 */
struct dump_conn {
	struct dump_conn *hnext;
	struct dump_conn *next;
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
	uint64_t lost[2][2];
};

/**
 * struct dump_conns - the connections of a capture
 * @hash: chains by the key's hash, @hsize of them (a power of two)
 * @hsize: see @hash
 * @n: connections in the table
 * @first: the connection of the first record, the others follow by @next
 * @last: the newest
 * @mem: where the connections live
 */
struct dump_conns {
	struct dump_conn **hash;
	size_t hsize;
	size_t n;
	struct dump_conn *first;
	struct dump_conn *last;
	struct dump_arena mem;
};

int dump_conns_init(struct dump_conns *t);
struct dump_conn *dump_conns_get(struct dump_conns *t,
				 const struct dump_pkt *pkt,
				 const struct dump_rec *r);
void dump_conns_release(struct dump_conns *t);

#endif /* SMCDUMP_CONN_H */
