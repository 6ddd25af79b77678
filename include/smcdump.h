/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The decoder library of SMC dump captures: its interface.
 *
 * lib/smcdump/ (libsmcdump.a), the decoder library:
 * parse.c   frame, record, CDC and TCP option parsers (no output)
 * clc.c     CLC handshake messages
 * decode.c  one captured frame: parse, print (json_print), track; the
 *           report's links and totals
 * track.c   connections and streams for follow and stats
 * print.c   addresses as text, for decode.c and track.c
 * reader.c  capture files: pcap (through libpcap) and pcapng, from a
 *           file, standard input or a pipe, one frame at a time
 * Callers: smc/dump.c (read/follow/stats), smc/capture_live.c (the live
 * decoder of smc dump start), smc/fuzz.
 *
 * Everything that comes from a capture is untrusted: every parser takes
 * the number of bytes present and never reads past it.
 */
#ifndef SMC_DUMP_H
#define SMC_DUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <pcap/pcap.h>
#include <linux/smc_dump.h>

#include "smc_codes.h"

/* Linux cooked capture v2, which older libpcap headers do not name */
#ifndef DLT_LINUX_SLL2
#define DLT_LINUX_SLL2	276
#endif

/* Length of the error texts the parsers write (NUL included). */
#define DUMP_ERRLEN		128

/* Fixed sizes of the formats we decode. */
#define DUMP_HDR_LEN		32	/* the hdr_ver 3 header, the shortest */
#define DUMP_HDR_V4_LEN		40	/* struct smc_dump_hdr, hdr_ver 4 */
#define DUMP_LLC_LINK_LEN	48	/* struct smc_dump_llc_link */
#define DUMP_LLC_MIN		4	/* an LLC message: at least its header
				 * (v1's are 44 bytes, SMC-Rv2's may be less) */
#define DUMP_LEGACY_PREFIX	10	/* magic .. len, every hdr_ver */
#define DUMP_CDC_R_LEN		44	/* SMC-R struct smc_cdc_msg on the wire */
#define DUMP_CDC_D_LEN		32	/* SMC-D struct smcd_cdc_msg */
#define DUMP_CDC_TYPE		0xfe	/* SMC_CDC_MSG_TYPE */

/* Big-endian and little-endian loads from unaligned, untrusted bytes:
 * the caller has checked that the bytes are present.
 */
static inline uint16_t get_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint32_t get_be24(const uint8_t *p)
{
	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static inline uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static inline uint64_t get_be64(const uint8_t *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

static inline uint16_t get_le16(const uint8_t *p)
{
	return (uint16_t)(p[1] << 8 | p[0]);
}

static inline uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[1] << 8 | p[0];
}

/* ---- parse.c ---- */

enum dump_parse_rc {
	DUMP_OK = 0,	/* parsed */
	DUMP_SKIP = 1,	/* not IPv4/IPv6 UDP or TCP: not for us */
	DUMP_BAD = -1,	/* malformed; the reason is in the error text */
};

enum dump_l4 {
	DUMP_L4_NONE,
	DUMP_L4_UDP,
	DUMP_L4_TCP,
};

/* TCP flags byte */
#define DUMP_TCP_FIN	0x01
#define DUMP_TCP_SYN	0x02
#define DUMP_TCP_RST	0x04
#define DUMP_TCP_ACK	0x10

/**
 * struct dump_pkt - a captured frame down to its UDP or TCP payload
 * @l2_addr: link-layer source address (Ethernet, Linux cooked)
 * @l2_addr_len: bytes in @l2_addr, 0 for raw IP
 * @l2_self: an Ethernet frame whose source and destination MAC are equal:
 *	what an smc-dummy link sends
 * @loop_out: Linux cooked capture of a packet sent on a loopback device
 *	(ARPHRD_LOOPBACK, PACKET_OUTGOING), which the capture holds a second
 *	time as received
 * @has_ifindex: @ifindex is valid (Linux cooked v2)
 * @ifindex: interface index of the capture (Linux cooked v2)
 * @vlans: VLAN tags passed over
 * @family: AF_INET or AF_INET6
 * @src: source address, 4 or 16 bytes (network order)
 * @dst: destination address
 * @fragment: the IP packet is a fragment
 * @l4: transport protocol
 * @sport: source port, host order
 * @dport: destination port, host order
 * @tcp_flags: TCP flags byte (DUMP_TCP_*)
 * @tcp_seq: TCP sequence number, host order
 * @tcp_smc_opt: the TCP header carries the SMC experimental option
 *	(kind 254, magic 0xE2D4C3D9)
 * @data: the UDP or TCP payload
 * @data_len: payload bytes present in the capture
 * @data_wire_len: payload bytes the IP and UDP/TCP headers announce;
 *	larger than @data_len when the capture snaplen cut the frame
 */
struct dump_pkt {
	uint8_t l2_addr[8];
	uint8_t l2_addr_len;
	bool l2_self;
	bool loop_out;
	bool has_ifindex;
	uint32_t ifindex;
	unsigned int vlans;
	int family;
	uint8_t src[16];
	uint8_t dst[16];
	bool fragment;
	enum dump_l4 l4;
	uint16_t sport;
	uint16_t dport;
	uint8_t tcp_flags;
	uint32_t tcp_seq;
	bool tcp_smc_opt;
	const uint8_t *data;
	uint32_t data_len;
	uint32_t data_wire_len;
};

int dump_parse_frame(int dlt, const uint8_t *p, uint32_t caplen,
		     struct dump_pkt *pkt, char *err, size_t errlen);
bool dump_dlt_supported(int dlt);

/**
 * struct dump_rec - an SMC dump record (UDP payload)
 * @level: how far the header was decoded: 0 nothing (not even the
 *	magic), 1 the prefix every hdr_ver shares (magic .. len),
 *	2 the whole hdr_ver 3 header, its lengths consistent with the frame
 * @legacy: hdr_ver below 3 (Alibaba's layout): only the prefix is known
 * @magic .. @offset: the header fields, host order (see smc_dump.h)
 * @has_sseq: the header has @stream_seq (hdr_ver 4 on): loss is told per
 *	stream; without it only the link's @seq gaps can hint at loss
 * @stream_seq: the record's number in its token, direction and type
 * @big_endian: host-order payload fields (the SMC-D CDC message) are
 *	big-endian: SMC_DUMP_F_BIG_ENDIAN (hdr_ver 4 on), else the reader's
 *	cdc-endian option
 * @payload: the payload (legacy: the bytes after the 10-byte prefix)
 * @payload_len: payload bytes present in the capture
 * @payload_wire_len: payload bytes the record has (len - hdr_len)
 * @cap_trunc: the capture snaplen cut the payload (@payload_len <
 *	@payload_wire_len); not the record's fault
 */
struct dump_rec {
	int level;
	bool legacy;
	uint32_t magic;
	uint8_t hdr_ver;
	uint8_t smc_ver;
	uint8_t mode;
	uint8_t type;
	uint16_t len;
	uint8_t hdr_len;
	uint8_t flags;
	uint32_t seq;
	uint32_t token;
	uint32_t orig_len;
	uint64_t offset;
	bool has_sseq;
	uint32_t stream_seq;
	bool big_endian;
	const uint8_t *payload;
	uint32_t payload_len;
	uint32_t payload_wire_len;
	bool cap_trunc;
	bool llc_bad;		/* its LLC message is malformed */
};

int dump_parse_record(const uint8_t *p, uint32_t len, uint32_t wire_len,
		      struct dump_rec *r, char *err, size_t errlen);

/**
 * struct dump_cdc - a CDC message, host order
 * @smcd: SMC-D layout (no seqno, no token)
 * @type: first byte, SMC_CDC_MSG_TYPE (0xfe)
 * @len: SMC-R length byte (44)
 * @seqno: SMC-R connection sequence number
 * @token: SMC-R alert token of the receiving side of the message
 * @prod_wrap: producer cursor wrap count
 * @prod_count: producer cursor offset in the receive buffer, bytes
 * @cons_wrap: consumer cursor wrap count
 * @cons_count: consumer cursor offset, bytes
 * @prod_flags: producer flags byte (DUMP_PF_*)
 * @conn_state_flags: connection state flags byte (DUMP_CSF_*)
 * @smcd_prod_flags2: SMC-D: the flag bytes of the producer cursor, which
 *	Linux leaves zero (it sends the flags in the consumer cursor);
 *	producer flags in bits 15..8, state in bits 7..0
 */
struct dump_cdc {
	bool smcd;
	uint8_t type;
	uint8_t len;
	uint16_t seqno;
	uint32_t token;
	uint16_t prod_wrap;
	uint32_t prod_count;
	uint16_t cons_wrap;
	uint32_t cons_count;
	uint8_t prod_flags;
	uint8_t conn_state_flags;
	uint16_t smcd_prod_flags2;
};

int dump_parse_cdc(const uint8_t *p, uint32_t len, bool smcd,
		   bool smcd_big_endian, struct dump_cdc *c, char *err,
		   size_t errlen);

/* ---- track.c ---- */

struct dump_track;

/**
 * struct dump_track_totals - sums over every stream of a tracker
 * @connections: connections seen
 * @bytes: captured payload bytes
 * @holes: ranges no record covered; @hole_bytes their bytes
 * @truncs: records cut by the snaplen; @trunc_bytes the bytes missing
 * @overlaps: overlapping ranges; @overlap_bytes their bytes
 * @cdc_seq_gaps: SMC-R CDC sequence number jumps
 * @files: follow: stream files written
 * @werrs: follow: streams whose file could not be written
 * @follow: the tracker writes files (follow)
 * @nomem: memory ran out: some records are not accounted
 */
struct dump_track_totals {
	uint64_t connections;
	uint64_t bytes;
	uint64_t holes;
	uint64_t hole_bytes;
	uint64_t truncs;
	uint64_t trunc_bytes;
	uint64_t overlaps;
	uint64_t overlap_bytes;
	uint64_t cdc_seq_gaps;
	uint64_t files;
	uint64_t werrs;
	bool follow;
	bool nomem;
};

/* the capture's connections (lib/smcdump/conn.h, private) */
struct dump_conns;
struct dump_owners;
struct dump_owner;
struct dump_conn;

struct dump_track *dump_track_new(const struct dump_conns *conns,
				  const char *dir, uint64_t max_gap);
void dump_track_record(struct dump_track *t, struct dump_conn *k,
		       const struct dump_rec *r, const struct dump_cdc *cdc);
void dump_track_report(struct dump_track *t, struct dump_track_totals *tot);
/* dump_track_set_owners() - stats: the context file's lines to print
 * beside each connection (kept, not copied), NULL none
 */
void dump_track_set_owners(struct dump_track *t,
			   const struct dump_owners *o);
void dump_track_free(struct dump_track *t);

/* ---- decode.c ---- */

/* What a run does (struct dump_opts.flags); any mix */
#define DUMP_F_PRINT	(1u << 0)	/* print each record, CLC message and
					 * handshake (read); else malformed
					 * input is told on stderr */
#define DUMP_F_TRACK	(1u << 1)	/* track connections and streams,
					 * report them at the end (follow:
					 * with @dir; stats) */
#define DUMP_F_ANALYZE	(1u << 2)	/* the analyzer, its report at the
					 * end (analyze) */
#define DUMP_F_TRACES	(1u << 3)	/* the analyzer without its report:
					 * dump_ctx_analyzer() (graph) */

/* follow: default of max-gap, the distance from the bytes of a stream
 * written so far beyond which a record is not written (a sparse file of
 * terabytes is no help)
 */
#define DUMP_MAX_GAP	(1ull << 30)

/**
 * struct dump_opts - what the caller asks of the decoder (as tcpdump's
 *	netdissect_options): no argv, no global
 * @flags: what the run does, DUMP_F_*
 * @details: -d: more output
 * @hex: -x: hex dump of payloads
 * @json: JSON output, else text
 * @pretty: JSON indented
 * @cdc_big_endian: SMC-D CDC cursors are big-endian (--cdc-endian big)
 * @dir: follow: the directory of the stream files (DUMP_F_TRACK)
 * @max_gap: follow: the max-gap (0: no limit)
 * @window_ns: analyze: the throughput window, nanoseconds
 * @has_token: analyze: only the connection of @token (at either end:
 *	both ends of a connection in the capture are one connection)
 * @token: analyze: the local alert token asked for
 * @owners: the connections' context (dump_owners_load()), NULL none:
 *	read -d, stats and analyze print the process, netns and cgroup of
 *	each connection that matches; kept, not copied
 * @out: where the output goes (the records, the reports; text or JSON),
 *	NULL for stdout: the caller's hook, as tcpdump's ndo_printf (a file,
 *	open_memstream(), or fopencookie() to take it in code). Errors about
 *	the input go to stderr.
 */
struct dump_opts {
	unsigned int flags;
	bool details;
	bool hex;
	bool json;
	bool pretty;
	bool cdc_big_endian;
	const char *dir;
	uint64_t max_gap;
	uint64_t window_ns;
	bool has_token;
	uint32_t token;
	const struct dump_owners *owners;
	FILE *out;
};

/* The context file of a capture (FILE.ctx: owner.c), one line of it */
/**
 * dump_owners_load() - read a context file: one JSON object per line
 *	(Documentation/capture.md, "Connection context")
 * @path: the file
 * @err: the reason of a failure ("PATH: strerror", "out of memory")
 * @errlen: bytes at @err
 *
 * A line that is not a flat object of the documented members, or names
 * neither a token nor both ends, is reported on stderr ("Warning:
 * PATH:LINE: why; line left out") and counted (dump_owners_bad()); a
 * line without a pid is left out silently.
 *
 * Return: the lines, for dump_opts.owners; NULL when the file cannot be
 * read (@err says why). dump_owners_free() frees them.
 */
struct dump_owners *dump_owners_load(const char *path, char *err,
				     size_t errlen);
/* dump_owners_bad() - lines of @o left out as malformed */
unsigned int dump_owners_bad(const struct dump_owners *o);
void dump_owners_free(struct dump_owners *o);
/**
 * dump_owner_find() - the line of @o for a connection: the one with
 *	@token, else one without a token whose ends are these
 * @token: the connection's local alert token (host order)
 * @family: AF_INET or AF_INET6 of @laddr and @raddr (4 or 16 bytes)
 * @lport: local port, host order
 * @rport: peer port, host order
 *
 * Return: the line, or NULL (also when @o is NULL).
 */
const struct dump_owner *dump_owner_find(const struct dump_owners *o,
					 uint32_t token, int family,
					 const uint8_t *laddr, uint16_t lport,
					 const uint8_t *raddr, uint16_t rport);
/* dump_print_owner() - " pid N comm C netns N cgroup P" (JSON: "pid",
 * "comm", "netns", "cgroup", null when unknown) of @w; nothing when NULL
 */
void dump_print_owner(const struct dump_owner *w);

/* One run of the decoder over one capture: private to lib/smcdump */
struct dump_ctx;

/* dump_ctx_new(): room for the message of a failure (a path and why) */
#define DUMP_CTX_ERRLEN	(4096 + 128)

/**
 * dump_ctx_new() - start a run of the decoder
 * @o: the options, copied (@o->dir is kept, not copied)
 * @dlt: link type of the capture (pcap DLT_*), as dump_reader_dlt()
 * @ns_digits: fractional digits of timestamps in text output until the
 *	first frame says otherwise: 6 or 9, as dump_reader_ns_digits()
 * @err: the reason of a failure, as "out of memory" or "DIR: strerror"
 *	(no "Error: " before it, no newline)
 * @errlen: bytes at @err (DUMP_CTX_ERRLEN is enough)
 *
 * Sets up the connection tracker (DUMP_F_TRACK; follow creates @o->dir)
 * and the analyzer (DUMP_F_ANALYZE, DUMP_F_TRACES) and begins the output
 * document: new_json_obj(@o->json, @o->pretty).
 *
 * Return: the run, or NULL with errno set (ENOMEM; or why the tracker
 * could not create @o->dir) and @err filled.
 */
struct dump_ctx *dump_ctx_new(const struct dump_opts *o, int dlt,
			      int ns_digits, char *err, size_t errlen);

/**
 * dump_ctx_finish() - the end of the input
 * @c: the run
 *
 * Shows the cut CLC messages that still wait for their next segment,
 * prints the tracker's report (DUMP_F_TRACK: one entry per connection,
 * per smc-dummy link and the totals) and the analyzer's (DUMP_F_ANALYZE),
 * ends the output document (delete_json_obj()) and flushes the output
 * (struct dump_opts.out). Call it once, after the last frame.
 *
 * Return: 0 all decoded; 1 malformed records or CLC messages were seen
 * (the rest was decoded); 3 follow could not write a stream file or
 * memory ran out (the report says which); DUMP_AN_NO_TOKEN (4) analyze
 * found no connection of the token asked for. 3 and 4 win over 1.
 */
int dump_ctx_finish(struct dump_ctx *c);

/* The analyzer of a DUMP_F_ANALYZE or DUMP_F_TRACES run, else NULL */
struct dump_analyze *dump_ctx_analyzer(const struct dump_ctx *c);

/* llc.c: an LLC message type's name (Linux's, without SMC_LLC_), NULL
 * for a type Linux does not send
 */
const char *dump_llc_name(uint8_t type);

/**
 * struct dump_llc_mark - a link event of an SMC-R link group (lgr.c), as
 *	smc dump graph marks it
 * @t: ns since the capture's first frame (the time base of struct
 *	dump_an_point)
 * @lgr_id: the link group's id (the LLC record's token)
 * @type: the LLC message's type (its first byte)
 * @link_id: the link's id in the message (DELETE_LINK of all: the id it
 *	carries)
 * @up: a link added (CONFIRM_LINK, ADD_LINK not rejected); else removed
 *	(DELETE_LINK)
 * @all: DELETE_LINK of every link of the group
 * @rx: the record was received
 */
struct dump_llc_mark {
	int64_t t;
	uint32_t lgr_id;
	uint8_t type;
	uint8_t link_id;
	bool up;
	bool all;
	bool rx;
};

/**
 * dump_ctx_llc_marks() - the link events of the LLC records of a run
 *	that reports (stats, analyze, graph), in capture order
 * @c: the run, after the last frame
 * @marks: set to a new array of them (free() it), NULL when none
 * @n: set to their number
 *
 * Return: 0, or -1 when memory ran out.
 */
int dump_ctx_llc_marks(const struct dump_ctx *c, struct dump_llc_mark **marks,
		       size_t *n);

/* Free a run with its tracker and analyzer; NULL is allowed */
void dump_ctx_free(struct dump_ctx *c);

/* Decode one frame of @caplen bytes at @data, of the run's link type,
 * captured at @ts_sec seconds since the epoch and @ts_nsec nanoseconds
 * (0..999999999): see decode.c
 */
void dump_decode_frame(struct dump_ctx *c, long long ts_sec,
		       uint32_t ts_nsec, const uint8_t *data,
		       uint32_t caplen);

/* Helpers shared by the printers */
void dump_fmt_addr(int family, const uint8_t *addr, uint16_t port,
		   char *buf, size_t len);
void dump_fmt_ip(int family, const uint8_t *addr, char *buf, size_t len);
void dump_print_hex(const uint8_t *p, uint32_t len);
void dump_print_ends(int family, const uint8_t *a1, uint16_t p1,
		     const uint8_t *a2, uint16_t p2, const char *const keys[4],
		     const char *fmt1, const char *fmt2);

/* ---- clc.c ---- */
bool dump_clc_is_eyecatcher(const uint8_t *p);
uint32_t dump_clc_msg_len(const uint8_t *p, uint32_t avail);
int dump_decode_clc(const struct dump_opts *o, const uint8_t *p,
		    uint32_t avail, bool quiet, uint32_t *used,
		    bool *incomplete, char *err, size_t errlen);

bool dump_clc_peer_buf(const uint8_t *p, uint32_t avail, bool *smcd,
		       uint32_t *size);
bool dump_clc_smcr_ids(const uint8_t *p, uint32_t avail, uint32_t *token,
		       uint32_t *qpn);

/* ---- analyze.c ---- */

struct dump_analyze;

/* analyze: default throughput window, and the stalls listed per stream */
#define DUMP_AN_WINDOW_NS	100000000ull
#define DUMP_AN_STALLS		5

/* dump_analyze_report(): no connection has the token asked for */
#define DUMP_AN_NO_TOKEN	4

struct dump_analyze *dump_analyze_new(const struct dump_conns *conns,
				      const struct dump_opts *o);
void dump_analyze_time(struct dump_analyze *a, long long sec, uint32_t nsec);
void dump_analyze_record(struct dump_analyze *a, uint64_t frame,
			 long long sec, uint32_t nsec, struct dump_conn *k,
			 const struct dump_rec *r, const struct dump_cdc *cdc);
void dump_analyze_clc(struct dump_analyze *a, uint64_t frame,
		      const struct dump_pkt *pkt, uint32_t size);
int dump_analyze_report(struct dump_analyze *a);

/* What a point of a trace is */
enum dump_an_kind {
	DUMP_AN_DATA,	/* a data record of the direction */
	DUMP_AN_PROD,	/* a CDC message of the sender: producer cursor */
	DUMP_AN_CONS,	/* a CDC message of the receiver: consumer cursor */
};

/**
 * struct dump_an_point - one record of a direction, as the graph draws it
 * @t: ns since the capture's first frame
 * @frame: frame number
 * @lo: DATA: offset; PROD: the producer cursor as a stream position;
 *	CONS: the consumer cursor as a stream position
 * @hi: DATA: offset + orig_len; PROD: @lo; CONS: @lo plus the buffer
 *	(the limit the sender may not pass), @lo when the buffer is unknown
 * @kind: enum dump_an_kind
 * @flags: DATA: the record's SMC_DUMP_F_*; PROD: the producer flags
 * @state: PROD: the connection state flags
 * @known: @lo and @hi are known (a cursor that wrapped needs the buffer)
 * @full: the receiver's buffer is full after this record
 */
struct dump_an_point {
	int64_t t;
	uint64_t frame;
	uint64_t lo;
	uint64_t hi;
	uint8_t kind;
	uint8_t flags;
	uint8_t state;
	bool known;
	bool full;
};

/**
 * struct dump_an_trace - one direction of a connection
 * @mode: SMC_DUMP_MODE_*
 * @token: the records' token
 * @has_peer: the other end of the connection is in the capture too
 * @peer_token: its token
 * @family: AF_INET or AF_INET6
 * @laddr: local address (16 bytes, IPv4 in the first 4), @lport its port
 * @raddr: peer address, @rport its port
 * @dir: 0 tx, 1 rx
 * @buffer: the receiver's buffer, 0 when unknown
 * @buffer_from: "clc", "inferred-wrap", "inferred-in-flight", or NULL
 * @buffer_inferred: @buffer was inferred
 * @data: data records
 * @cons_from_start: the stream begins in the capture (offset 0) and the
 *	receiver sent consumer cursors: before the first one it was 0
 * @pt: the points in capture order, @n of them
 */
struct dump_an_trace {
	uint8_t mode;
	uint32_t token;
	bool has_peer;
	uint32_t peer_token;
	int family;
	const uint8_t *laddr;
	const uint8_t *raddr;
	uint16_t lport;
	uint16_t rport;
	int dir;
	uint64_t buffer;
	const char *buffer_from;
	bool buffer_inferred;
	uint64_t data;
	bool cons_from_start;
	struct dump_an_point *pt;
	size_t n;
};

typedef int (*dump_an_trace_cb)(void *arg, const struct dump_an_trace *tr);
int dump_analyze_traces(struct dump_analyze *a, dump_an_trace_cb cb,
			void *arg);
void dump_analyze_free(struct dump_analyze *a);

/* ---- reader.c ---- */

/* Room for the error texts of the reader: a path and libpcap's message */
#define DUMP_READER_ERRLEN	1024

struct dump_reader;

/**
 * struct dump_frame - one frame read from a capture
 * @sec: timestamp, seconds since the epoch (pcapng: with if_tsoffset)
 * @nsec: nanoseconds within @sec, 0..999999999 (a microsecond capture
 *	gives multiples of 1000)
 * @data: the captured bytes, as on the wire (network byte order); valid
 *	until the next dump_reader_next() or dump_reader_close()
 * @caplen: bytes at @data (at most the interface's snaplen)
 * @dlt: link type of the frame's interface (pcap DLT_*)
 * @ns_digits: fractional digits the capture's timestamps have: 6, or 9
 *	for nanosecond pcap and pcapng interfaces finer than microseconds
 */
struct dump_frame {
	long long sec;
	uint32_t nsec;
	const uint8_t *data;
	uint32_t caplen;
	int dlt;
	int ns_digits;
};

/* What dump_reader_next() found */
enum dump_read_rc {
	DUMP_READ_END = 0,	/* the capture ends here */
	DUMP_READ_FRAME = 1,	/* a frame, in the struct dump_frame */
	DUMP_READ_SKIP = 2,	/* a frame of a link type the decoder does
				 * not handle (dump_dlt_supported()): the
				 * error text names it the first time for its
				 * pcapng interface, else is empty
				 */
	DUMP_READ_BAD = 3,	/* a pcapng block that is no valid frame or
				 * interface: the error text says why; the
				 * next call reads on
				 */
	DUMP_READ_CUT = 4,	/* the capture cannot be read further (cut
				 * off, a broken header): the error text says
				 * why; the next call returns the same
				 */
};

/**
 * dump_reader_open() - open a capture file for reading
 * @path: a file, or "-" for standard input (left open at the end)
 * @err: where an error text goes, "PATH: reason" (no newline)
 * @errlen: room at @err, DUMP_READER_ERRLEN is enough
 *
 * Tells classic pcap (microsecond or nanosecond magic, either byte order)
 * from pcapng (section header block type 0x0a0d0d0a) by the first 4
 * bytes, which it reads ahead itself, so a pipe works as well as a file.
 * A classic pcap of a link type the decoder does not handle is refused;
 * pcapng interfaces are checked frame by frame.
 *
 * Return: the reader, or NULL when the file cannot be opened or read,
 * is no capture, or has a link type the decoder does not handle; errno
 * is ENODATA when the input ended before its first byte.
 */
struct dump_reader *dump_reader_open(const char *path, char *err,
				     size_t errlen);

/**
 * dump_reader_fdopen() - dump_reader_open() on an open descriptor
 * @fd: a file or a pipe, at the start of the capture
 * @own: close @fd in dump_reader_close() (and on failure)
 * @name: the capture's name in error texts; kept, not copied
 * @err: where an error text goes
 * @errlen: room at @err
 *
 * Return: the reader, or NULL (see dump_reader_open()).
 */
struct dump_reader *dump_reader_fdopen(int fd, bool own, const char *name,
				       char *err, size_t errlen);

/**
 * dump_reader_next() - the next frame of a capture
 * @r: the reader
 * @f: filled when the answer is DUMP_READ_FRAME or DUMP_READ_SKIP
 * @err: where the reason goes for DUMP_READ_SKIP, _BAD and _CUT
 * @errlen: room at @err
 *
 * Reads only the bytes of the next frame: on a pipe it returns as soon as
 * the frame is complete. A pcapng section header in the middle of the
 * file starts a new section (byte order, interfaces); a broken one is
 * said on stderr as well ("Error: NAME: reason").
 *
 * Return: enum dump_read_rc.
 */
int dump_reader_next(struct dump_reader *r, struct dump_frame *f, char *err,
		     size_t errlen);

/* The link type and timestamp digits before the first frame: a classic
 * pcap's, or DLT_EN10MB and 6 for pcapng
 */
int dump_reader_dlt(const struct dump_reader *r);
int dump_reader_ns_digits(const struct dump_reader *r);

/* The capture is a pipe or a terminal, not a regular file */
bool dump_reader_live(const struct dump_reader *r);

/* Close the reader (and its descriptor if owned); NULL is allowed */
void dump_reader_close(struct dump_reader *r);

/**
 * dump_decode_input() - decode every frame of a capture (decode.c)
 * @c: the run, from dump_ctx_new() for dump_reader_dlt() and
 *	dump_reader_ns_digits() of @r
 * @r: the capture
 *
 * Decodes each frame (dump_decode_frame()), counts frames of unsupported
 * link types as skipped (saying so once per interface on stderr,
 * "Warning: ..."), reports blocks that are no frame and a capture cut
 * off as malformed (at the time of the last frame), and on a live
 * capture (dump_reader_live()) flushes the output after each frame,
 * stopping when that fails. Does not call dump_ctx_finish().
 */
void dump_decode_input(struct dump_ctx *c, struct dump_reader *r);

#endif /* SMC_DUMP_H */
