// SPDX-License-Identifier: GPL-2.0
/*
 * capture_bpf.bpf.c - the BPF programs of smc dump's bpf backend: the
 * records of the kernel series (kernel/6.12/patches), taken from fentry and
 * fexit programs on out-of-line functions of net/smc of an unmodified
 * kernel and handed to user space (capture_bpf.c) through a BPF ring
 * buffer, one struct smc_bpf_rec and its payload each.
 *
 * CO-RE: the kernel types are declared here by hand, with only the
 * fields used and a ___x suffix; libbpf relocates each field access
 * against the running kernel's BTF (vmlinux and the smc module's), so
 * one object serves every kernel whose net/smc has these fields, and no
 * vmlinux.h of one particular build is needed.
 *
 * The hook points, and which alternative user space attaches for each
 * record kind (Documentation/bpf-backend.md):
 *   data sent          fentry+fexit smc_tx_rdma_writes (SMC-R and SMC-D):
 *                      the bytes between tx_curs_sent before and after,
 *                      still in the send buffer until the CDC completes
 *   data and CDC       fentry smc_cdc_msg_recv_action, or smc_cdc_msg_recv
 *   received           where that one is inlined: the CDC message, and the
 *                      RMB bytes between the old producer cursor and the
 *                      message's, before bytes_to_rcv lets them go
 *   CDC sent, SMC-R    fentry smc_cdc_msg_send, then fentry+fexit
 *                      smc_wr_tx_send (numbered before the post, flagged
 *                      failed by its result); or fexit smc_cdc_msg_send
 *   CDC sent, SMC-D    fentry+fexit smcd_tx_ism_write with signal set
 *   LLC sent           fentry+fexit smc_wr_tx_send (a first byte other
 *                      than the CDC's 0xFE; smc_wr_tx_send_wait posts
 *                      through it), fentry+fexit smc_wr_tx_v2_send
 *                      (SMC-Rv2's large messages): numbered before the
 *                      post, flagged failed by its result; optional
 *   LLC received       fentry smc_llc_rx_handler; optional
 *   connection end     fentry smc_conn_free
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <stdbool.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_endian.h>

#include "capture_bpf.h"
#include "../include/uapi/linux/smc_dump.h"

/* BPF_PROG() names every argument of the hooked function and a ctx that
 * most programs leave unused
 */
#pragma clang diagnostic ignored "-Wunused-parameter"

#define AF_INET		2
#define AF_INET6	10

/* ---- the kernel's types, the fields we read (CO-RE) ---- */

struct ns_common___x {
	unsigned int inum;
} __attribute__((preserve_access_index));

struct net___x {
	struct ns_common___x ns;
} __attribute__((preserve_access_index));

typedef struct {
	struct net___x *net;
} possible_net_t___x;

struct in6_addr___x {
	__u8 s6_addr[16];
};

struct sock_common___x {
	__be32 skc_daddr;
	__be32 skc_rcv_saddr;
	__be16 skc_dport;
	__u16 skc_num;
	unsigned short skc_family;
	possible_net_t___x skc_net;
	struct in6_addr___x skc_v6_daddr;
	struct in6_addr___x skc_v6_rcv_saddr;
} __attribute__((preserve_access_index));

struct sock___x {
	struct sock_common___x __sk_common;
} __attribute__((preserve_access_index));

struct socket___x {
	struct sock___x *sk;
} __attribute__((preserve_access_index));

/* union smc_host_cursor: the reserved, wrap and count of a cursor */
union smc_host_cursor___x {
	struct {
		__u16 reserved;
		__u16 wrap;
		__u32 count;
	};
	__u64 raw;
} __attribute__((preserve_access_index));

struct smc_host_cdc_msg___x {
	union smc_host_cursor___x prod;
} __attribute__((preserve_access_index));

struct smc_buf_desc___x {
	void *cpu_addr;
	int len;
} __attribute__((preserve_access_index));

/* struct smc_wr_buf and struct smc_wr_v2_buf: a send or receive slot */
struct smc_wr_buf___x {
	__u8 raw[48];
} __attribute__((preserve_access_index));

struct smc_wr_v2_buf___x {
	__u8 raw[SMC_BPF_LLC_V2_MAX];
} __attribute__((preserve_access_index));

struct smc_link_group___x {
	__u8 id[4];
	__u8 is_smcd;
	__u8 smc_version;
	/* SMC-R's, in an anonymous union of the kernel's struct */
	struct net___x *net;
	struct smc_wr_v2_buf___x *wr_rx_buf_v2;
	struct smc_wr_v2_buf___x *wr_tx_buf_v2;
} __attribute__((preserve_access_index));

struct ib_qp___x {
	void *qp_context;
	__u32 qp_num;
} __attribute__((preserve_access_index));

struct ib_wc___x {
	__u32 byte_len;
	struct ib_qp___x *qp;
} __attribute__((preserve_access_index));

struct smc_link___x {
	__u8 ibport;
	struct ib_qp___x *roce_qp;
	struct smc_wr_buf___x *wr_tx_bufs;
	__u8 gid[16];
	__u32 peer_qpn;
	__u8 peer_gid[16];
	__u8 link_id;
	struct smc_link_group___x *lgr;
} __attribute__((preserve_access_index));

/* struct smc_wr_tx_pend, private to smc_wr.c: the send slot's index and
 * the priv that smc_wr_tx_send() gets a pointer to
 */
struct smc_wr_tx_pend_priv___x {
	__u8 priv[32];
} __attribute__((preserve_access_index));

struct smc_wr_tx_pend___x {
	__u32 idx;
	struct smc_wr_tx_pend_priv___x priv;
} __attribute__((preserve_access_index));

struct smc_connection___x {
	struct smc_link_group___x *lgr;
	__u32 alert_token_local;
	struct smc_buf_desc___x *sndbuf_desc;
	struct smc_buf_desc___x *rmb_desc;
	union smc_host_cursor___x tx_curs_sent;
	struct smc_host_cdc_msg___x local_rx_ctrl;
	__u8 rx_off;
} __attribute__((preserve_access_index));

struct smc_sock___x {
	struct sock___x sk;
	struct socket___x *clcsock;
	struct smc_connection___x conn;
} __attribute__((preserve_access_index));

/* ---- configuration (set by user space before the load) ---- */

const volatile __u32 cfg_netns;		/* inode of the capture's netns */
const volatile __u8 cfg_mode;		/* enum smc_dummy_mode */
const volatile __u8 cfg_type;		/* enum smc_dummy_capture */
const volatile __u32 cfg_snaplen;	/* 0: all */
const volatile __u8 cfg_cdc_send_late;	/* fexit smc_cdc_msg_send emits */

/* Does the configured capture type take records of @type? The capture
 * types other than ALL select the record type of the same name.
 */
static __always_inline bool cap_type_wanted(__u8 type)
{
	switch (cfg_type) {
	case SMC_DUMMY_CAPTURE_RAW:
		return type == SMC_DUMP_TYPE_RAW;
	case SMC_DUMMY_CAPTURE_CDC:
		return type == SMC_DUMP_TYPE_CDC;
	case SMC_DUMMY_CAPTURE_LLC:
		return type == SMC_DUMP_TYPE_LLC;
	}
	return true;
}

/* ---- state ---- */

__u32 seq_next;		/* the next record's seq */
__u64 lost;		/* records the full ring turned away */

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 16 << 20);	/* user space sets `ring BYTES` */
} ring SEC(".maps");

/* The addresses of a connection's CLC (TCP) socket, taken the first time
 * a record of it is made: the CLC socket may be released while CDC
 * messages still flow. Dropped at smc_conn_free.
 */
struct conn_addr {
	__u8 laddr[16];
	__u8 raddr[16];
	__u16 lport;
	__u16 rport;
	__u8 family;
	__u32 sseq[4];	/* the next stream_seq: [rx * 2 + (type == CDC)] */
} __attribute__((aligned(8)));

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 65536);
	__type(key, __u64);
	__type(value, struct conn_addr);
} conn_addrs SEC(".maps");

/* Between the entry and the exit of a hooked function: each runs with
 * bottom halves off (the connection's send_lock, or softirq), so it
 * stays on its CPU and a per-CPU slot is its own
 */
struct tx_stash {
	__u64 conn;
	union smc_host_cursor___x sent;
};

struct cdc_stash {
	__u64 conn;
	__u64 buf;
	__u64 pend;	/* SMC-R: the send's smc_wr_tx_pend_priv */
	__u32 seq;
	__u32 sseq;
	__u8 armed;
	__u8 have;
	__u8 msg[SMC_BPF_CDC_R_LEN];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct tx_stash);
} tx_stash SEC(".maps");

/* index 0: SMC-R CDC sent, 1: SMC-D CDC sent */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct cdc_stash);
} cdc_stash SEC(".maps");

/* ---- helpers ---- */

static __always_inline struct smc_connection___x *
smc_conn(struct smc_sock___x *smc)
{
	return (void *)smc + bpf_core_field_offset(struct smc_sock___x, conn);
}

static __always_inline struct smc_sock___x *
conn_smc(struct smc_connection___x *conn)
{
	return (void *)conn - bpf_core_field_offset(struct smc_sock___x, conn);
}

static __always_inline void get_addr(struct smc_connection___x *conn,
				     struct conn_addr *a)
{
	struct conn_addr *c = bpf_map_lookup_elem(&conn_addrs, &conn);
	struct sock___x *sk;
	__u64 key = (__u64)conn;

	if (c) {
		*a = *c;
		return;
	}
	__builtin_memset(a, 0, sizeof(*a));
	a->family = AF_INET;
	sk = BPF_CORE_READ(conn_smc(conn), clcsock, sk);
	if (!sk)
		return;	/* not kept: a later record may find it */
	a->lport = bpf_htons(BPF_CORE_READ(sk, __sk_common.skc_num));
	a->rport = BPF_CORE_READ(sk, __sk_common.skc_dport);
	if (BPF_CORE_READ(sk, __sk_common.skc_family) == AF_INET6) {
		BPF_CORE_READ_INTO(&a->laddr, sk, __sk_common.skc_v6_rcv_saddr);
		BPF_CORE_READ_INTO(&a->raddr, sk, __sk_common.skc_v6_daddr);
		/* an IPv4-mapped address gives IPv4 records */
		if (!(*(__u64 *)a->laddr == 0 &&
		      *(__u32 *)(a->laddr + 8) == bpf_htonl(0xffff)))
			a->family = AF_INET6;
	}
	if (a->family == AF_INET) {
		__builtin_memset(a->laddr, 0, 16);
		__builtin_memset(a->raddr, 0, 16);
		*(__u32 *)a->laddr =
			BPF_CORE_READ(sk, __sk_common.skc_rcv_saddr);
		*(__u32 *)a->raddr = BPF_CORE_READ(sk, __sk_common.skc_daddr);
	}
	bpf_map_update_elem(&conn_addrs, &key, a, BPF_ANY);
}

/* Take @n stream_seq numbers of @conn's records of direction @rx and
 * @type, whether the records then reach the ring or not: a record lost
 * is a gap. A connection without an address entry (no CLC socket yet)
 * numbers from 0 each time; its records carry no addresses either.
 */
static __always_inline __u32 take_sseq(struct smc_connection___x *conn,
				       bool rx, __u8 type, __u32 n)
{
	__u64 key = (__u64)conn;
	struct conn_addr *c = bpf_map_lookup_elem(&conn_addrs, &key);
	__u32 i = (rx ? 2 : 0) + (type == SMC_DUMP_TYPE_CDC ? 1 : 0);

	if (!c)
		return 0;
	return __sync_fetch_and_add(&c->sseq[i & 3], n);
}

/*
 * Does the capture want a record of @type of @conn? Fills the record
 * header @r (all but seq, sizes and the data fields) when it does.
 */
static __always_inline bool conn_match(struct smc_connection___x *conn,
				       __u8 type, struct smc_bpf_rec *r)
{
	struct smc_link_group___x *lgr = BPF_CORE_READ(conn, lgr);
	struct conn_addr a;
	__u8 smcd;

	if (!lgr)
		return false;
	if (BPF_CORE_READ(conn_smc(conn), sk.__sk_common.skc_net.net,
			  ns.inum) != cfg_netns)
		return false;
	smcd = BPF_CORE_READ(lgr, is_smcd);
	if ((cfg_mode == SMC_DUMMY_MODE_SMCR && smcd) ||
	    (cfg_mode == SMC_DUMMY_MODE_SMCD && !smcd))
		return false;
	if (!cap_type_wanted(type))
		return false;
	__builtin_memset(r, 0, sizeof(*r));
	r->kind = type == SMC_DUMP_TYPE_RAW ? SMC_BPF_DATA : SMC_BPF_CDC;
	r->mode = smcd ? SMC_DUMP_MODE_SMCD : SMC_DUMP_MODE_SMCR;
	r->smc_ver = BPF_CORE_READ(lgr, smc_version);
	r->token = BPF_CORE_READ(conn, alert_token_local);
	r->conn = (__u64)conn;
	get_addr(conn, &a);
	r->family = a.family;
	r->lport = a.lport;
	r->rport = a.rport;
	__builtin_memcpy(r->laddr, a.laddr, 16);
	__builtin_memcpy(r->raddr, a.raddr, 16);
	return true;
}

/* Hand record @t (numbered) and @len bytes of payload at @src to user
 * space, copied now; a full ring counts it lost
 */
#define EMIT_CLASS(SIZE)						\
	do {								\
		struct smc_bpf_rec *r;					\
		r = bpf_ringbuf_reserve(&ring, sizeof(*r) + (SIZE), 0);	\
		if (!r) {						\
			__sync_fetch_and_add(&lost, 1);			\
			return;						\
		}							\
		*r = *t;						\
		r->caplen = len;					\
		if (bpf_probe_read_kernel(r + 1, len, src))		\
			__builtin_memset(r + 1, 0, (SIZE) < 64 ? (SIZE) : 64); \
		bpf_ringbuf_submit(r, 0);				\
		return;							\
	} while (0)

static __always_inline void emit(const struct smc_bpf_rec *t,
				 const void *src, __u32 len)
{
	if (len <= 64)
		EMIT_CLASS(64);
	if (len <= 1024)
		EMIT_CLASS(1024);
	if (len <= 16384)
		EMIT_CLASS(16384);
	if (len <= 65536)
		EMIT_CLASS(65536);
}

/* The records of one data block: contiguous ranges of the ring buffer,
 * none longer than @max (SMC_BPF_MAX_PAYLOAD or, for IPv6,
 * SMC_BPF_MAX_PAYLOAD_V6), each with its cursor
 */
struct chunk_ctx {
	struct smc_bpf_rec t;
	const __u8 *ring;
	__u32 max;
	__u32 buflen;
	__u32 pos;
	__u32 left;
	__u32 wrap;
};

static long data_chunk(__u32 i, void *arg)
{
	struct chunk_ctx *c = arg;
	__u32 n = c->left, cap;

	if (!n || c->pos >= c->buflen)
		return 1;
	if (n > c->buflen - c->pos)
		n = c->buflen - c->pos;
	if (n > c->max)
		n = c->max;
	cap = n;
	c->t.flags &= ~SMC_DUMP_F_TRUNC;
	if (cfg_snaplen && n > cfg_snaplen) {
		cap = cfg_snaplen;
		c->t.flags |= SMC_DUMP_F_TRUNC;
	}
	c->t.seq = __sync_fetch_and_add(&seq_next, 1);
	c->t.sseq++;
	c->t.orig_len = n;
	c->t.count = c->pos;
	c->t.wrap = (__u16)c->wrap;
	emit(&c->t, c->ring + c->pos, cap & 0xffff);
	c->pos += n;
	if (c->pos >= c->buflen) {
		c->pos = 0;
		c->wrap++;
	}
	c->left -= n;
	return 0;
}

static __always_inline void data_records(struct smc_connection___x *conn,
					 bool rx, const __u8 *ring,
					 __u32 buflen,
					 union smc_host_cursor___x from,
					 __u32 len)
{
	struct chunk_ctx c;
	__u32 first, max, nrec;

	if (!len || !buflen || len > buflen ||
	    !conn_match(conn, SMC_DUMP_TYPE_RAW, &c.t))
		return;
	max = c.t.family == AF_INET6 ? SMC_BPF_MAX_PAYLOAD_V6 :
	      SMC_BPF_MAX_PAYLOAD;
	/* the records data_chunk() will make: up to the ring's end, then
	 * from its start, each at most @max bytes
	 */
	if (from.count >= buflen)
		return;
	first = buflen - from.count < len ? buflen - from.count : len;
	nrec = (first + max - 1) / max + (len - first + max - 1) / max;
	/* data_chunk() adds one before each record: start one below */
	c.t.sseq = take_sseq(conn, rx, SMC_DUMP_TYPE_RAW, nrec) - 1;
	c.t.flags = rx ? SMC_DUMP_F_RX : 0;
	c.t.buflen = buflen;
	c.ring = ring;
	c.max = max;
	c.buflen = buflen;
	c.pos = from.count;
	c.left = len;
	c.wrap = from.wrap;
	bpf_loop(len / SMC_BPF_MAX_PAYLOAD_V6 + 2, data_chunk, &c, 0);
}

/* smc_curs_diff(): bytes from @old to @new in a ring of @size */
static __always_inline __u32 curs_diff(__u32 size, __u16 owrap, __u32 ocount,
				       __u16 nwrap, __u32 ncount)
{
	if (owrap != nwrap) {
		if (size - ocount + ncount > size)
			return 0;
		return size - ocount + ncount;
	}
	return ncount > ocount ? ncount - ocount : 0;
}

static __always_inline void cdc_record(struct smc_connection___x *conn,
				       bool rx, const void *msg, __u32 len,
				       __u8 flags)
{
	struct smc_bpf_rec t;

	if (!conn_match(conn, SMC_DUMP_TYPE_CDC, &t))
		return;
	t.flags = flags | (rx ? SMC_DUMP_F_RX : 0);
	t.seq = __sync_fetch_and_add(&seq_next, 1);
	t.sseq = take_sseq(conn, rx, SMC_DUMP_TYPE_CDC, 1);
	t.orig_len = len;
	emit(&t, msg, len);
}

/* ---- data sent ---- */

SEC("fentry/smc_tx_rdma_writes")
int BPF_PROG(tx_enter, struct smc_connection___x *conn)
{
	__u32 zero = 0;
	struct tx_stash *s = bpf_map_lookup_elem(&tx_stash, &zero);

	if (!s)
		return 0;
	s->conn = (__u64)conn;
	BPF_CORE_READ_INTO(&s->sent, conn, tx_curs_sent);
	return 0;
}

SEC("fexit/smc_tx_rdma_writes")
int BPF_PROG(tx_exit, struct smc_connection___x *conn, void *wr, int ret)
{
	__u32 zero = 0, buflen, len;
	struct tx_stash *s = bpf_map_lookup_elem(&tx_stash, &zero);
	union smc_host_cursor___x now;
	struct smc_buf_desc___x *sb;

	if (!s || s->conn != (__u64)conn)
		return 0;
	s->conn = 0;
	if (ret)
		return 0;
	BPF_CORE_READ_INTO(&now, conn, tx_curs_sent);
	sb = BPF_CORE_READ(conn, sndbuf_desc);
	if (!sb)
		return 0;
	buflen = BPF_CORE_READ(sb, len);
	len = curs_diff(buflen, s->sent.wrap, s->sent.count, now.wrap,
			now.count);
	data_records(conn, false, BPF_CORE_READ(sb, cpu_addr), buflen,
		     s->sent, len);
	return 0;
}

/* ---- data and CDC messages received ---- */

static __always_inline int recv(struct smc_sock___x *smc, const __u8 *cdc)
{
	struct smc_connection___x *conn = smc_conn(smc);
	struct smc_link_group___x *lgr = BPF_CORE_READ(conn, lgr);
	struct smc_buf_desc___x *rmb = BPF_CORE_READ(conn, rmb_desc);
	union smc_host_cursor___x old;
	__u32 buflen, len, ncount = 0;
	__u16 nwrap = 0;
	__u8 *ring;

	if (!lgr || !rmb)
		return 0;
	ring = BPF_CORE_READ(rmb, cpu_addr);
	if (BPF_CORE_READ(lgr, is_smcd)) {
		/* struct smcd_cdc_msg in host byte order, as the tasklet
		 * copied it; its type byte stays in the DMB
		 */
		__u8 m[SMC_BPF_CDC_D_LEN] __attribute__((aligned(8))) = {};

		bpf_probe_read_kernel(&m[0], 1, ring);
		bpf_probe_read_kernel(&m[8], 16, cdc + 8);
		cdc_record(conn, true, m, SMC_BPF_CDC_D_LEN, 0);
		/* (the verifier wants stack loads aligned: memcpy) */
		__builtin_memcpy(&nwrap, &m[8], 2);
		__builtin_memcpy(&ncount, &m[10], 4);
	} else {
		__u8 m[SMC_BPF_CDC_R_LEN] __attribute__((aligned(8)));

		bpf_probe_read_kernel(m, sizeof(m), cdc);
		cdc_record(conn, true, m, SMC_BPF_CDC_R_LEN, 0);
		__builtin_memcpy(&nwrap, &m[10], 2);
		__builtin_memcpy(&ncount, &m[12], 4);
		nwrap = bpf_ntohs(nwrap);
		ncount = bpf_ntohl(ncount);
	}
	BPF_CORE_READ_INTO(&old, conn, local_rx_ctrl.prod);
	buflen = BPF_CORE_READ(rmb, len);
	len = curs_diff(buflen, old.wrap, old.count, nwrap, ncount);
	data_records(conn, true, ring + BPF_CORE_READ(conn, rx_off), buflen,
		     old, len);
	return 0;
}

SEC("fentry/smc_cdc_msg_recv_action")
int BPF_PROG(rx_enter, struct smc_sock___x *smc, const __u8 *cdc)
{
	return recv(smc, cdc);
}

/* ---- LLC messages, SMC-R ---- */

/* The next stream_seq of a link group's LLC records, [rx]. Keyed by the
 * group's address and id, so that a group made at the address of one
 * freed before starts from 0; the LRU drops the freed ones' entries.
 */
struct lgr_key {
	__u64 lgr;
	__u32 id;
	__u32 pad;
};

struct lgr_sseq {
	__u32 next[2];
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, struct lgr_key);
	__type(value, struct lgr_sseq);
} lgr_sseqs SEC(".maps");

static __always_inline __u32 take_lgr_sseq(struct smc_link_group___x *lgr,
					   __u32 id, bool rx)
{
	struct lgr_key k = { .lgr = (__u64)lgr, .id = id };
	struct lgr_sseq zero = {}, *v;

	v = bpf_map_lookup_elem(&lgr_sseqs, &k);
	if (!v) {
		bpf_map_update_elem(&lgr_sseqs, &k, &zero, BPF_NOEXIST);
		v = bpf_map_lookup_elem(&lgr_sseqs, &k);
		if (!v)
			return 0;
	}
	return __sync_fetch_and_add(&v->next[rx ? 1 : 0], 1);
}

/* A GID that is an IPv4-mapped IPv6 address (RoCEv2 over IPv4) */
static __always_inline bool gid_v4(const __u8 *g)
{
	__u64 lo;
	__u32 mid;

	__builtin_memcpy(&lo, g, 8);
	__builtin_memcpy(&mid, g + 8, 4);
	return lo == 0 && mid == bpf_htonl(0xffff);
}

/* Does the capture want LLC records at all? (SMC-R only) */
static __always_inline bool llc_wanted(void)
{
	return cfg_mode != SMC_DUMMY_MODE_SMCD &&
	       cap_type_wanted(SMC_DUMP_TYPE_LLC);
}

/*
 * Does the capture want an LLC record of @link? Fills the record header
 * @t (numbered) and the link's part of the payload @l when it does.
 */
static __always_inline bool llc_match(struct smc_link___x *link, bool rx,
				      struct smc_bpf_rec *t,
				      struct smc_dump_llc_link *l)
{
	struct smc_link_group___x *lgr;
	__u32 id;

	if (!llc_wanted())
		return false;
	lgr = BPF_CORE_READ(link, lgr);
	if (!lgr || BPF_CORE_READ(lgr, is_smcd) ||
	    BPF_CORE_READ(lgr, net, ns.inum) != cfg_netns)
		return false;
	__builtin_memset(t, 0, sizeof(*t));
	__builtin_memset(l, 0, sizeof(*l));
	BPF_CORE_READ_INTO(&l->lgr_id, lgr, id);
	l->link_id = BPF_CORE_READ(link, link_id);
	l->ib_port = BPF_CORE_READ(link, ibport);
	l->local_qp = bpf_htonl(BPF_CORE_READ(link, roce_qp, qp_num));
	l->peer_qp = bpf_htonl(BPF_CORE_READ(link, peer_qpn));
	BPF_CORE_READ_INTO(&l->local_gid, link, gid);
	BPF_CORE_READ_INTO(&l->peer_gid, link, peer_gid);
	__builtin_memcpy(&id, l->lgr_id, 4);
	t->kind = SMC_BPF_LLC;
	t->mode = SMC_DUMP_MODE_SMCR;
	t->smc_ver = BPF_CORE_READ(lgr, smc_version);
	t->flags = rx ? SMC_DUMP_F_RX : 0;
	t->token = bpf_ntohl(id);
	t->conn = (__u64)lgr;
	if (gid_v4(l->local_gid) && gid_v4(l->peer_gid)) {
		t->family = AF_INET;
		__builtin_memcpy(t->laddr, l->local_gid + 12, 4);
		__builtin_memcpy(t->raddr, l->peer_gid + 12, 4);
	} else {
		t->family = AF_INET6;
		__builtin_memcpy(t->laddr, l->local_gid, 16);
		__builtin_memcpy(t->raddr, l->peer_gid, 16);
	}
	t->seq = __sync_fetch_and_add(&seq_next, 1);
	t->sseq = take_lgr_sseq(lgr, id, rx);
	return true;
}

/* One LLC record: @t, @l, then the @len bytes of the message, the first
 * (up to 44) at @msg and the rest at @more, or right after them when
 * @more is NULL. A reservation has a constant size: a 44-byte message
 * gets one of its size, any other the v2 buffer's.
 */
static __always_inline void llc_emit(const struct smc_bpf_rec *t,
				     const struct smc_dump_llc_link *l,
				     const __u8 *msg, const __u8 *more,
				     __u32 len)
{
	const __u32 size = sizeof(struct smc_bpf_rec) + SMC_BPF_LLC_LINK_LEN;
	struct smc_bpf_rec *r;
	__u32 first, rest;
	__u8 *p;

	if (len == SMC_BPF_LLC_LEN) {
		r = bpf_ringbuf_reserve(&ring, size + SMC_BPF_LLC_LEN, 0);
		if (!r)
			goto lost;
		*r = *t;
		p = (__u8 *)(r + 1);
		__builtin_memcpy(p, l, SMC_BPF_LLC_LINK_LEN);
		p += SMC_BPF_LLC_LINK_LEN;
		if (bpf_probe_read_kernel(p, SMC_BPF_LLC_LEN, msg))
			__builtin_memset(p, 0, SMC_BPF_LLC_LEN);
		r->caplen = SMC_BPF_LLC_LINK_LEN + SMC_BPF_LLC_LEN;
		r->orig_len = r->caplen;
		bpf_ringbuf_submit(r, 0);
		return;
	}
	if (!len || len > SMC_BPF_LLC_V2_MAX)
		return;
	r = bpf_ringbuf_reserve(&ring, size + SMC_BPF_LLC_V2_MAX, 0);
	if (!r)
		goto lost;
	*r = *t;
	p = (__u8 *)(r + 1);
	__builtin_memcpy(p, l, SMC_BPF_LLC_LINK_LEN);
	p += SMC_BPF_LLC_LINK_LEN;
	first = len < SMC_BPF_LLC_LEN ? len : SMC_BPF_LLC_LEN;
	rest = len - first;
	/* (the verifier wants the bounds where the calls are) */
	barrier_var(first);
	barrier_var(rest);
	if (first > SMC_BPF_LLC_LEN)
		first = SMC_BPF_LLC_LEN;
	if (rest > SMC_BPF_LLC_V2_MAX - SMC_BPF_LLC_LEN)
		rest = SMC_BPF_LLC_V2_MAX - SMC_BPF_LLC_LEN;
	r->caplen = SMC_BPF_LLC_LINK_LEN + first + rest;
	r->orig_len = r->caplen;
	if (bpf_probe_read_kernel(p, first, msg))
		__builtin_memset(p, 0, SMC_BPF_LLC_LEN);
	if (rest && bpf_probe_read_kernel(p + SMC_BPF_LLC_LEN, rest,
					  more ? more : msg + SMC_BPF_LLC_LEN)) {
		/* an LLC record is never truncated: what it holds is all */
		r->caplen = SMC_BPF_LLC_LINK_LEN + first;
		r->orig_len = r->caplen;
	}
	bpf_ringbuf_submit(r, 0);
	return;
lost:
	__sync_fetch_and_add(&lost, 1);
}

static __always_inline void llc_record(struct smc_link___x *link, bool rx,
				       const __u8 *msg, const __u8 *more,
				       __u32 len)
{
	struct smc_dump_llc_link l;
	struct smc_bpf_rec t;

	if (llc_match(link, rx, &t, &l))
		llc_emit(&t, &l, msg, more, len);
}

/*
 * An LLC message sent, between the entry and the exit of the function
 * that posts it: numbered and copied at the entry, as the kernel series
 * numbers it before the post, and handed to the ring at the exit, flagged
 * SMC_DUMP_F_FAILED when the post failed. The copy is needed: a failed
 * post clears the send slot (smc_wr_tx_put_slot) before the exit runs.
 *
 * Keyed by the send's struct smc_wr_tx_pend_priv and the task, not per
 * CPU as the CDC stash is: LLC messages are posted in process context with
 * bottom halves on, so the task may move to another CPU during the post,
 * and a CDC send of a softirq may run in the middle of it. The pend alone
 * is not enough: its slot is free again once the completion came (or the
 * post failed), which may be before the exit runs, and another post may
 * take it meanwhile.
 */
struct llc_tx_key {
	__u64 pend;
	__u64 task;
};

struct llc_tx {
	struct smc_bpf_rec t;
	struct smc_dump_llc_link l;
	__u32 len;
	__u32 pad;
	__u8 msg[SMC_BPF_LLC_V2_MAX];
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);	/* posts under way at one time */
	__type(key, struct llc_tx_key);
	__type(value, struct llc_tx);
} llc_tx SEC(".maps");

/* Where an entry is put together before it goes into llc_tx (a program's
 * stack is too small for it): [0] smc_wr_tx_send, [1] smc_wr_tx_v2_send
 */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, struct llc_tx);
} llc_tx_new SEC(".maps");

/* At the entry: number the message of @len bytes at @buf that @link is
 * about to post with @priv, and keep a copy of it. A full llc_tx loses
 * the record after it took its numbers: a gap, as a full ring makes.
 */
static __always_inline void llc_tx_prep(struct smc_link___x *link,
					void *priv, const __u8 *buf,
					__u32 len, __u32 k)
{
	struct llc_tx *e = bpf_map_lookup_elem(&llc_tx_new, &k);
	struct llc_tx_key key = {
		.pend = (__u64)priv,
		.task = bpf_get_current_task(),
	};

	if (!e || !len || len > SMC_BPF_LLC_V2_MAX ||
	    !llc_match(link, false, &e->t, &e->l))
		return;
	e->len = len;
	/* (the verifier wants the bound where the call is) */
	barrier_var(len);
	if (len > SMC_BPF_LLC_V2_MAX)
		len = SMC_BPF_LLC_V2_MAX;
	if (bpf_probe_read_kernel(e->msg, len, buf))
		__builtin_memset(e->msg, 0, SMC_BPF_LLC_LEN);
	if (bpf_map_update_elem(&llc_tx, &key, e, BPF_ANY))
		__sync_fetch_and_add(&lost, 1);
}

/* At the exit: the record of the LLC message posted with @priv, if the
 * entry made one; @ret the post's result. Whether there was one.
 */
static __always_inline bool llc_tx_done(void *priv, int ret)
{
	struct llc_tx_key key = {
		.pend = (__u64)priv,
		.task = bpf_get_current_task(),
	};
	struct llc_tx *e = bpf_map_lookup_elem(&llc_tx, &key);

	if (!e)
		return false;
	if (ret)
		e->t.flags |= SMC_DUMP_F_FAILED;
	llc_emit(&e->t, &e->l, e->msg, NULL, e->len);
	bpf_map_delete_elem(&llc_tx, &key);
	return true;
}

/* The send slot smc_wr_tx_send() posts: link->wr_tx_bufs[pend->idx], pend
 * the struct smc_wr_tx_pend around @priv (SMC-Rv2's large slot goes to
 * smc_wr_tx_v2_send() instead)
 */
static __always_inline __u8 *wr_tx_slot(struct smc_link___x *link,
					void *priv)
{
	struct smc_wr_tx_pend___x *pend;
	__u8 *bufs;
	__u32 idx;

	pend = priv - bpf_core_field_offset(struct smc_wr_tx_pend___x, priv);
	idx = BPF_CORE_READ(pend, idx);
	bufs = (__u8 *)BPF_CORE_READ(link, wr_tx_bufs);
	if (!bufs)
		return NULL;
	return bufs + (__u64)idx * bpf_core_type_size(struct smc_wr_buf___x);
}

SEC("fentry/smc_wr_tx_v2_send")
int BPF_PROG(wr_v2_send_enter, struct smc_link___x *link, void *priv,
	     int len)
{
	__u8 *buf = (__u8 *)BPF_CORE_READ(link, lgr, wr_tx_buf_v2);

	if (!buf || len <= 0)
		return 0;
	llc_tx_prep(link, priv, buf,
		    len > SMC_BPF_LLC_V2_MAX ? SMC_BPF_LLC_V2_MAX : len, 1);
	return 0;
}

SEC("fexit/smc_wr_tx_v2_send")
int BPF_PROG(wr_v2_send_exit, struct smc_link___x *link, void *priv,
	     int len, int ret)
{
	llc_tx_done(priv, ret);
	return 0;
}

/* A message received: its first 44 bytes in the receive slot @buf, an
 * SMC-Rv2 message's rest in the link group's v2 buffer from byte 44 on
 * (the receive request's second scatter element)
 */
SEC("fentry/smc_llc_rx_handler")
int BPF_PROG(llc_rx_enter, struct ib_wc___x *wc, __u8 *buf)
{
	struct smc_link___x *link = BPF_CORE_READ(wc, qp, qp_context);
	__u32 len = SMC_BPF_LLC_LEN;
	__u8 *v2 = NULL;
	__u8 type = 0;

	if (!link)
		return 0;
	bpf_probe_read_kernel(&type, 1, buf);
	if ((type & 0xf0) == 0x20) {
		len = BPF_CORE_READ(wc, byte_len);
		if (len > SMC_BPF_LLC_V2_MAX)
			len = SMC_BPF_LLC_V2_MAX;
		if (len > SMC_BPF_LLC_LEN) {
			v2 = (__u8 *)BPF_CORE_READ(link, lgr, wr_rx_buf_v2);
			if (!v2)
				len = SMC_BPF_LLC_LEN;
			else
				v2 += SMC_BPF_LLC_LEN;
		}
	}
	llc_record(link, true, buf, v2, len);
	return 0;
}

/* ---- CDC messages sent, SMC-R ---- */

SEC("fentry/smc_cdc_msg_send")
int BPF_PROG(cdc_send_enter, struct smc_connection___x *conn, void *wr_buf)
{
	__u32 k = 0;
	struct cdc_stash *s = bpf_map_lookup_elem(&cdc_stash, &k);

	if (!s)
		return 0;
	s->conn = (__u64)conn;
	s->buf = (__u64)wr_buf;
	s->armed = 1;
	s->have = 0;
	return 0;
}

/* The message is complete and not posted yet: number it now, so that its
 * record comes before the peer's record of its arrival. The slot holds a
 * CDC message (first byte 0xFE) or an LLC message.
 */
SEC("fentry/smc_wr_tx_send")
int BPF_PROG(wr_send_enter, struct smc_link___x *link, void *priv)
{
	__u32 k = 0;
	struct cdc_stash *s = bpf_map_lookup_elem(&cdc_stash, &k);
	struct smc_bpf_rec t;
	__u8 *buf, type = 0;

	buf = llc_wanted() ? wr_tx_slot(link, priv) : NULL;
	if (buf && !bpf_probe_read_kernel(&type, 1, buf) &&
	    type != SMC_BPF_CDC_TYPE) {
		llc_tx_prep(link, priv, buf, SMC_BPF_LLC_LEN, 0);
		return 0;
	}
	if (!s || !s->armed || s->have)
		return 0;
	s->armed = 0;
	if (!conn_match((void *)s->conn, SMC_DUMP_TYPE_CDC, &t))
		return 0;
	bpf_probe_read_kernel(s->msg, sizeof(s->msg), (void *)s->buf);
	s->seq = __sync_fetch_and_add(&seq_next, 1);
	s->sseq = take_sseq((void *)s->conn, false, SMC_DUMP_TYPE_CDC, 1);
	s->pend = (__u64)priv;
	s->have = 1;
	return 0;
}

/* The exit of the post of a CDC message this CPU's entry numbered, or of
 * an LLC message (llc_tx_done)
 */
SEC("fexit/smc_wr_tx_send")
int BPF_PROG(wr_send_exit, void *link, void *priv, int ret)
{
	__u32 k = 0;
	struct cdc_stash *s = bpf_map_lookup_elem(&cdc_stash, &k);
	struct smc_bpf_rec t;

	if (!s || !s->have || s->pend != (__u64)priv) {
		if (llc_wanted())
			llc_tx_done(priv, ret);
		return 0;
	}
	s->have = 0;
	if (!conn_match((void *)s->conn, SMC_DUMP_TYPE_CDC, &t))
		return 0;
	t.flags = ret ? SMC_DUMP_F_FAILED : 0;
	t.seq = s->seq;
	t.sseq = s->sseq;
	t.orig_len = SMC_BPF_CDC_R_LEN;
	emit(&t, s->msg, SMC_BPF_CDC_R_LEN);
	return 0;
}

SEC("fexit/smc_cdc_msg_send")
int BPF_PROG(cdc_send_exit, struct smc_connection___x *conn, void *wr_buf,
	     void *pend, int ret)
{
	__u32 k = 0;
	struct cdc_stash *s = bpf_map_lookup_elem(&cdc_stash, &k);

	if (s)
		s->armed = 0;
	/* smc_wr_tx_send is not attachable: the message as it was posted */
	if (cfg_cdc_send_late)
		cdc_record(conn, false, wr_buf, SMC_BPF_CDC_R_LEN,
			   ret ? SMC_DUMP_F_FAILED : 0);
	return 0;
}

/* ---- CDC messages sent, SMC-D ---- */

SEC("fentry/smcd_tx_ism_write")
int BPF_PROG(ism_write_enter, struct smc_connection___x *conn, void *data,
	     __u64 len, __u32 offset, int signal)
{
	__u32 k = 1;
	struct cdc_stash *s = bpf_map_lookup_elem(&cdc_stash, &k);
	struct smc_bpf_rec t;

	if (!s)
		return 0;
	s->have = 0;
	/* with signal set, the write is the CDC message */
	if (!signal || len != SMC_BPF_CDC_D_LEN ||
	    !conn_match(conn, SMC_DUMP_TYPE_CDC, &t))
		return 0;
	s->conn = (__u64)conn;
	bpf_probe_read_kernel(s->msg, SMC_BPF_CDC_D_LEN, data);
	s->seq = __sync_fetch_and_add(&seq_next, 1);
	s->sseq = take_sseq(conn, false, SMC_DUMP_TYPE_CDC, 1);
	s->have = 1;
	return 0;
}

SEC("fexit/smcd_tx_ism_write")
int BPF_PROG(ism_write_exit, struct smc_connection___x *conn, void *data,
	     __u64 len, __u32 offset, int signal, int ret)
{
	__u32 k = 1;
	struct cdc_stash *s = bpf_map_lookup_elem(&cdc_stash, &k);
	struct smc_bpf_rec t;

	if (!s || !s->have || s->conn != (__u64)conn)
		return 0;
	s->have = 0;
	if (!conn_match(conn, SMC_DUMP_TYPE_CDC, &t))
		return 0;
	t.flags = ret ? SMC_DUMP_F_FAILED : 0;
	t.seq = s->seq;
	t.sseq = s->sseq;
	t.orig_len = SMC_BPF_CDC_D_LEN;
	emit(&t, s->msg, SMC_BPF_CDC_D_LEN);
	return 0;
}

/* ---- connection end ---- */

SEC("fentry/smc_conn_free")
int BPF_PROG(conn_free, struct smc_connection___x *conn)
{
	__u64 key = (__u64)conn;
	struct smc_bpf_rec *r;

	if (!bpf_map_lookup_elem(&conn_addrs, &key))
		return 0;
	bpf_map_delete_elem(&conn_addrs, &key);
	/* user space forgets the connection's stream positions */
	r = bpf_ringbuf_reserve(&ring, sizeof(*r), 0);
	if (!r)
		return 0;
	__builtin_memset(r, 0, sizeof(*r));
	r->kind = SMC_BPF_END;
	r->conn = key;
	r->token = BPF_CORE_READ(conn, alert_token_local);
	bpf_ringbuf_submit(r, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
