// SPDX-License-Identifier: GPL-2.0
/*
 * socket.c - smc socket: the SMC sockets of the current network namespace,
 * one line each, as smc-tools' smcss shows them, and the smcss entry point
 * (smc.c calls smcss_main() when the command is run as "smcss").
 *
 * The sockets come from NETLINK_SOCK_DIAG with family AF_SMC
 * (net/smc/smc_diag.c): struct smc_diag_msg with the state, uid, inode,
 * ports, addresses and mode, then attributes: SMC_DIAG_SHUTDOWN and
 * SMC_DIAG_FALLBACK always, SMC_DIAG_CONNINFO, SMC_DIAG_LGRINFO (SMC-R) and
 * SMC_DIAG_DMBINFO (SMC-D) when the request's diag_ext asks for them.
 *
 * Linux 6.12 fills the addresses only for AF_SMC sockets (sk_protocol
 * SMCPROTO_SMC or SMCPROTO_SMC6): sockets made with socket(AF_INET[6],
 * SOCK_STREAM, IPPROTO_SMC), and the sockets their listeners accept, come
 * with ports but zero addresses, and accepted sockets say AF_SMC whatever
 * their IP version. For those the addresses are taken from the TCP socket
 * under the SMC socket (the clcsock, visible to inet_diag like any TCP
 * socket), matched by ports and bound interface; when no single TCP socket
 * matches, the address shows as "*".
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <libmnl/libmnl.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>

#include "json_print.h"
#include "smc.h"
#include "smc_codes.h"

#include "smc_af.h"

/*
 * The layouts of include/uapi/linux/smc_diag.h in Linux 6.12, kept here so
 * that the build does not depend on the version of the installed kernel
 * headers (struct smcd_diag_dmbinfo grew the _ext fields in 6.10).
 */
struct sd_req {
	uint8_t diag_family;
	uint8_t pad[2];
	uint8_t diag_ext;
	struct inet_diag_sockid id;
};

struct sd_msg {
	uint8_t diag_family;
	uint8_t diag_state;
	uint8_t diag_mode;
	uint8_t diag_shutdown;
	struct inet_diag_sockid id;
	uint32_t diag_uid;
	uint64_t diag_inode __attribute__((aligned(8)));
};

enum {
	SD_MODE_SMCR,
	SD_MODE_FALLBACK_TCP,
	SD_MODE_SMCD,
};

enum {
	SD_NONE,
	SD_CONNINFO,
	SD_LGRINFO,
	SD_SHUTDOWN,
	SD_DMBINFO,
	SD_FALLBACK,
	SD_MAX = SD_FALLBACK,
};

struct sd_cursor {
	uint16_t reserved;
	uint16_t wrap;
	uint32_t count;
};

struct sd_conninfo {
	uint32_t token;
	uint32_t sndbuf_size;
	uint32_t rmbe_size;
	uint32_t peer_rmbe_size;
	struct sd_cursor rx_prod, rx_cons, tx_prod, tx_cons;
	uint8_t rx_prod_flags;
	uint8_t rx_conn_state_flags;
	uint8_t tx_prod_flags;
	uint8_t tx_conn_state_flags;
	struct sd_cursor tx_prep, tx_sent, tx_fin;
};

#define SD_IBNAME_LEN	64	/* IB_DEVICE_NAME_MAX */
#define SD_GID_LEN	40

struct sd_lgrinfo {
	uint8_t link_id;
	uint8_t ibname[SD_IBNAME_LEN];
	uint8_t ibport;
	uint8_t gid[SD_GID_LEN];
	uint8_t peer_gid[SD_GID_LEN];
	uint8_t role;
};

struct sd_fallback {
	uint32_t reason;
	uint32_t peer_diagnosis;
};

struct sd_dmbinfo {
	uint32_t linkid;
	uint64_t peer_gid __attribute__((aligned(8)));
	uint64_t my_gid;
	uint64_t token;
	uint64_t peer_token;
	uint64_t peer_gid_ext;
	uint64_t my_gid_ext;
};

/* Before Linux 6.10 the DMB info ended after peer_token */
#define SD_DMBINFO_MIN	offsetof(struct sd_dmbinfo, peer_gid_ext)

_Static_assert(sizeof(struct sd_req) == 52, "smc_diag_req");
_Static_assert(sizeof(struct sd_msg) == 64, "smc_diag_msg");
_Static_assert(sizeof(struct sd_conninfo) == 76, "smc_diag_conninfo");
_Static_assert(sizeof(struct sd_lgrinfo) == 147, "smc_diag_lgrinfo");
_Static_assert(sizeof(struct sd_dmbinfo) == 56, "smcd_diag_dmbinfo");

/* SMC socket states (net/smc/smc.h enum smc_state) */
enum {
	SS_ACTIVE = 1,
	SS_INIT = 2,
	SS_CLOSED = 7,
	SS_LISTEN = 10,
};

/* struct smc_diag_lgrinfo role (net/smc/smc_core.h enum smc_lgr_role) */
#define SD_ROLE_SERV	1

/* The shutdown byte: sk->sk_shutdown */
#define SD_RCV_SHUTDOWN		1
#define SD_SEND_SHUTDOWN	2

/* Which sockets to show and what of them */
struct sock_opts {
	bool all;		/* every state */
	bool listening;		/* listening sockets only */
	bool smcd;		/* SMC-D sockets only, with their DMB info */
	bool smcr;		/* SMC-R sockets only, with their link */
	bool smcss;		/* smc-tools' smcss format (smcss_*()) */
	bool wide;		/* smcss -W: never cut an address */
	uint64_t inode;		/* smc_socket_lookup(): this socket only */
};

/* One SMC socket of the dump, with the attributes that came with it */
struct sock_info {
	struct sd_msg m;
	int family;		/* AF_INET, AF_INET6, or 0: unknown */
	bool have_addr;		/* src/dst hold the addresses */
	uint8_t src[16], dst[16];
	bool have_shutdown, have_fallback, have_conn, have_lgr, have_dmb;
	uint8_t shutdown;
	struct sd_fallback fb;
	struct sd_conninfo conn;
	struct sd_lgrinfo lgr;
	struct sd_dmbinfo dmb;
};

/* One TCP socket of an inet_diag dump: a candidate clcsock */
struct tcp_info_min {
	int family;
	uint8_t state;
	uint16_t sport, dport;	/* host order */
	uint32_t ifindex;
	uint8_t src[16], dst[16];
};

struct sock_dump_ctx {
	const struct sock_opts *o;
	struct sock_info *socks;
	size_t n, cap;
	struct tcp_info_min *tcp;
	size_t ntcp, captcp;
	const char *bad;	/* what was malformed, or NULL */
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: smc [ -j [ -p ] ] [ -d ] socket [ show ] [ all | listening ]\n"
		"                                [ smcd | smcr ]\n"
		"       smc [ -j [ -p ] ] socket reasons [ CODE ]...\n"
		"       smc socket help\n"
		"       smcss [ -a | -l ] [ -d ] [ -D | -R ] [ -W ]   (smc-tools' format)\n");
}

/* ------------------------------------------------------------ netlink */

/* Grow an array of @size-byte elements to hold one more; NULL when out of
 * memory (the array is left as it was).
 */
static void *grow(void *arr, size_t *cap, size_t n, size_t size)
{
	size_t ncap;
	void *p;

	if (n < *cap)
		return arr;
	ncap = *cap ? 2 * *cap : 16;
	p = realloc(arr, ncap * size);
	if (!p)
		return NULL;
	*cap = ncap;
	return p;
}

/* Copy an attribute's payload into @dst: at least @min bytes must be
 * there; bytes the kernel did not send stay zero, bytes it sent beyond
 * @size (a newer kernel's additions) are ignored. Returns false when the
 * attribute is too short.
 */
static bool take_attr(const struct nlattr *a, void *dst, size_t size,
		      size_t min)
{
	size_t len = mnl_attr_get_payload_len(a);

	if (len < min)
		return false;
	memset(dst, 0, size);
	memcpy(dst, mnl_attr_get_payload(a), len < size ? len : size);
	return true;
}

static bool all_zero(const uint8_t *p, size_t len)
{
	while (len--)
		if (*p++)
			return false;
	return true;
}

static bool want_socket(const struct sock_opts *o, const struct sd_msg *m)
{
	if (o->inode)
		return m->diag_inode == o->inode;
	if (o->listening)
		return m->diag_state == SS_LISTEN;
	if (!o->all && (m->diag_state == SS_LISTEN ||
			m->diag_state == SS_INIT))
		return false;
	if (o->smcd && m->diag_mode != SD_MODE_SMCD)
		return false;
	if (o->smcr && m->diag_mode != SD_MODE_SMCR)
		return false;
	return true;
}

/* Where the addresses of a socket come from (see the top of the file) */
static void set_family(struct sock_info *s)
{
	const struct sd_msg *m = &s->m;

	memcpy(s->src, m->id.idiag_src, 16);
	memcpy(s->dst, m->id.idiag_dst, 16);
	s->have_addr = !all_zero(s->src, 16) || !all_zero(s->dst, 16);
	switch (m->diag_family) {
	case AF_INET:
	case AF_INET6:
		/* IPPROTO_SMC: the kernel sent no addresses */
		s->family = m->diag_family;
		s->have_addr = false;
		break;
	default:
		/* AF_SMC: IPv4 fills the first word only; an IPv6 address
		 * with words 1..3 zero would be a /32 network address
		 */
		if (!s->have_addr)
			s->family = 0;
		else if (all_zero(s->src + 4, 12) && all_zero(s->dst + 4, 12))
			s->family = AF_INET;
		else
			s->family = AF_INET6;
		break;
	}
}

static int parse_smc_attr(const struct nlattr *a, void *data)
{
	struct sock_dump_ctx *c = data;
	struct sock_info *s = &c->socks[c->n];

	switch (mnl_attr_get_type(a)) {
	case SD_SHUTDOWN:
		if (mnl_attr_get_payload_len(a) < 1) {
			c->bad = "SMC_DIAG_SHUTDOWN";
			return MNL_CB_ERROR;
		}
		s->shutdown = mnl_attr_get_u8(a);
		s->have_shutdown = true;
		break;
	case SD_FALLBACK:
		s->have_fallback = take_attr(a, &s->fb, sizeof(s->fb),
					     sizeof(s->fb));
		if (!s->have_fallback)
			c->bad = "SMC_DIAG_FALLBACK";
		break;
	case SD_CONNINFO:
		s->have_conn = take_attr(a, &s->conn, sizeof(s->conn),
					 sizeof(s->conn));
		if (!s->have_conn)
			c->bad = "SMC_DIAG_CONNINFO";
		break;
	case SD_LGRINFO:
		s->have_lgr = take_attr(a, &s->lgr, sizeof(s->lgr),
					sizeof(s->lgr));
		if (!s->have_lgr)
			c->bad = "SMC_DIAG_LGRINFO";
		break;
	case SD_DMBINFO:
		s->have_dmb = take_attr(a, &s->dmb, sizeof(s->dmb),
					SD_DMBINFO_MIN);
		if (!s->have_dmb)
			c->bad = "SMC_DIAG_DMBINFO";
		break;
	default:
		/* attributes of newer kernels */
		break;
	}
	return c->bad ? MNL_CB_ERROR : MNL_CB_OK;
}

/* One struct smc_diag_msg: filter, then keep it with its attributes */
static int cb_smc(const struct nlmsghdr *nlh, void *data)
{
	struct sock_dump_ctx *c = data;
	struct sock_info *s;
	void *p;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(struct sd_msg)) {
		c->bad = "smc_diag_msg";
		return MNL_CB_ERROR;
	}
	p = grow(c->socks, &c->cap, c->n, sizeof(*c->socks));
	if (!p) {
		errno = ENOMEM;
		return MNL_CB_ERROR;
	}
	c->socks = p;
	s = &c->socks[c->n];
	memset(s, 0, sizeof(*s));
	memcpy(&s->m, mnl_nlmsg_get_payload(nlh), sizeof(s->m));
	if (!want_socket(c->o, &s->m))
		return MNL_CB_OK;
	if (mnl_attr_parse(nlh, sizeof(struct sd_msg), parse_smc_attr, c) !=
	    MNL_CB_OK) {
		if (!c->bad)
			c->bad = "SMC socket attributes";
		return MNL_CB_ERROR;
	}
	set_family(s);
	c->n++;
	return MNL_CB_OK;
}

/* One struct inet_diag_msg of the TCP dump */
static int cb_tcp(const struct nlmsghdr *nlh, void *data)
{
	const struct inet_diag_msg *r = mnl_nlmsg_get_payload(nlh);
	struct sock_dump_ctx *c = data;
	struct tcp_info_min *t;
	void *p;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*r)) {
		c->bad = "inet_diag_msg";
		return MNL_CB_ERROR;
	}
	if (r->idiag_family != AF_INET && r->idiag_family != AF_INET6)
		return MNL_CB_OK;
	p = grow(c->tcp, &c->captcp, c->ntcp, sizeof(*c->tcp));
	if (!p) {
		errno = ENOMEM;
		return MNL_CB_ERROR;
	}
	c->tcp = p;
	t = &c->tcp[c->ntcp++];
	memset(t, 0, sizeof(*t));
	t->family = r->idiag_family;
	t->state = r->idiag_state;
	t->sport = ntohs(r->id.idiag_sport);
	t->dport = ntohs(r->id.idiag_dport);
	t->ifindex = r->id.idiag_if;
	memcpy(t->src, r->id.idiag_src, 16);
	memcpy(t->dst, r->id.idiag_dst, 16);
	return MNL_CB_OK;
}

/*
 * Send a SOCK_DIAG_BY_FAMILY dump request with payload @req and run @cb on
 * every answer. Returns 0, or -1 with errno set (the kernel's error for an
 * NLMSG_ERROR answer), or -2 when an answer was malformed (c->bad).
 */
static int diag_dump(struct mnl_socket *nl, const void *req, size_t len,
		     mnl_cb_t cb, struct sock_dump_ctx *c)
{
	/* smc_diag fills answers of up to 32 KiB (min_dump_alloc) */
	static char buf[65536] __attribute__((aligned(8)));
	unsigned int portid = mnl_socket_get_portid(nl);
	struct nlmsghdr *nlh;
	unsigned int seq;
	ssize_t n;
	int ret;

	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = SOCK_DIAG_BY_FAMILY;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	nlh->nlmsg_seq = seq = time(NULL);
	memcpy(mnl_nlmsg_put_extra_header(nlh, len), req, len);
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -1;
	for (;;) {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0)
			return -1;
		c->bad = NULL;
		ret = mnl_cb_run(buf, n, seq, portid, cb, c);
		if (ret == MNL_CB_STOP)
			return 0;
		if (ret < 0)
			return c->bad ? -2 : -1;
	}
}

static int bad_answer(const char *what)
{
	fprintf(stderr, "Error: malformed answer from the kernel (%s)\n",
		what);
	return 1;
}

/* Dump the SMC sockets with the attributes @o asks for into @c */
static int dump_smc(struct mnl_socket *nl, const struct sock_opts *o,
		    struct sock_dump_ctx *c)
{
	struct sd_req req = { .diag_family = AF_SMC };
	int ret;

	if (show_details)
		req.diag_ext |= 1 << (SD_CONNINFO - 1);
	if (o->smcr || o->inode)
		req.diag_ext |= 1 << (SD_LGRINFO - 1);
	if (o->smcd || o->inode)
		req.diag_ext |= 1 << (SD_DMBINFO - 1);
	ret = diag_dump(nl, &req, sizeof(req), cb_smc, c);
	if (ret == -2)
		return bad_answer(c->bad);
	if (ret < 0 && errno == ENOENT && smc_module_absent()) {
		fprintf(stderr,
			"Error: SMC socket diagnostics are not available in the running kernel; %s\n",
			smc_no_smc_advice());
		return 1;
	}
	if (ret < 0 && errno == ENOENT) {
		fprintf(stderr,
			"Error: SMC socket diagnostics are not available in the running kernel (load the smc_diag module or use a kernel with CONFIG_SMC_DIAG)\n");
		return 1;
	}
	if (ret < 0) {
		fprintf(stderr, "Error: cannot dump the SMC sockets: %s\n",
			strerror(errno));
		return 1;
	}
	return 0;
}

/* Dump the TCP sockets of @family into @c: candidates for the clcsocks.
 * TIME_WAIT and SYN_RECV request sockets are left out: they are never a
 * clcsock of a live SMC socket, only a possible second match.
 */
static int dump_tcp(struct mnl_socket *nl, int family, struct sock_dump_ctx *c)
{
	struct inet_diag_req_v2 req = {
		.sdiag_family = family,
		.sdiag_protocol = IPPROTO_TCP,
		.idiag_states = ~(1U << 6 /* TCP_TIME_WAIT */ |
				  1U << 12 /* TCP_NEW_SYN_RECV */),
	};

	return diag_dump(nl, &req, sizeof(req), cb_tcp, c);
}

/* Does TCP socket @t sit under SMC socket @s? */
static bool tcp_matches(const struct tcp_info_min *t,
			const struct sock_info *s)
{
	if (s->family && t->family != s->family)
		return false;
	if (t->sport != ntohs(s->m.id.idiag_sport) ||
	    t->dport != ntohs(s->m.id.idiag_dport) ||
	    t->ifindex != s->m.id.idiag_if)
		return false;
	/* TCP_LISTEN is 10, SMC_LISTEN too */
	return (t->state == 10) == (s->m.diag_state == SS_LISTEN);
}

/* The addresses of @s from its clcsock: used only when exactly one
 * (family, addresses) matches.
 */
static void resolve_one(const struct sock_dump_ctx *c, struct sock_info *s)
{
	const struct tcp_info_min *found = NULL, *t;
	size_t i;

	for (i = 0; i < c->ntcp; i++) {
		t = &c->tcp[i];
		if (!tcp_matches(t, s))
			continue;
		if (found && (found->family != t->family ||
			      memcmp(found->src, t->src, 16) ||
			      memcmp(found->dst, t->dst, 16)))
			return;		/* ambiguous */
		found = t;
	}
	if (!found)
		return;
	s->family = found->family;
	memcpy(s->src, found->src, 16);
	memcpy(s->dst, found->dst, 16);
	s->have_addr = true;
}

/* Addresses the SMC dump did not give: from the TCP sockets (see the top
 * of the file). A failure here is not fatal: the addresses stay unknown.
 */
static void resolve_addresses(struct mnl_socket *nl, struct sock_dump_ctx *c)
{
	bool need = false, v4 = false, v6 = false;
	size_t i;

	for (i = 0; i < c->n; i++) {
		const struct sock_info *s = &c->socks[i];

		if (s->have_addr || s->m.diag_state == SS_INIT)
			continue;
		need = true;
		v4 |= s->family != AF_INET6;
		v6 |= s->family != AF_INET;
	}
	if (!need)
		return;
	if ((v4 && dump_tcp(nl, AF_INET, c)) ||
	    (v6 && dump_tcp(nl, AF_INET6, c))) {
		if (c->bad)
			fprintf(stderr,
				"Warning: malformed answer to the TCP socket dump (%s), addresses of IPPROTO_SMC sockets unknown\n",
				c->bad);
		else
			fprintf(stderr,
				"Warning: cannot dump the TCP sockets (%s), addresses of IPPROTO_SMC sockets unknown\n",
				strerror(errno));
		c->ntcp = 0;
		return;
	}
	for (i = 0; i < c->n; i++) {
		struct sock_info *s = &c->socks[i];

		if (!s->have_addr && s->m.diag_state != SS_INIT)
			resolve_one(c, s);
	}
}

/* ------------------------------------------------------------ output */

static const char *state_name(uint8_t state, char *buf, size_t size)
{
	switch (state) {
	case 1:
		return "ACTIVE";
	case 2:
		return "INIT";
	case 7:
		return "CLOSED";
	case 10:
		return "LISTEN";
	case 20:
		return "PEERCLOSEWAIT1";
	case 21:
		return "PEERCLOSEWAIT2";
	case 22:
		return "APPCLOSEWAIT1";
	case 23:
		return "APPCLOSEWAIT2";
	case 24:
		return "APPFINCLOSEWAIT";
	case 25:
		return "PEERFINCLOSEWAIT";
	case 26:
		return "PEERABORTWAIT";
	case 27:
		return "PROCESSABORT";
	}
	snprintf(buf, size, "%u", state);
	return buf;
}

static const char *mode_name(uint8_t mode)
{
	switch (mode) {
	case SD_MODE_SMCR:
		return "SMC-R";
	case SD_MODE_SMCD:
		return "SMC-D";
	case SD_MODE_FALLBACK_TCP:
		return "TCP";
	}
	return NULL;
}

/* The text column width of an address:port (smcss's), and its format */
#define ADDR_COL 23
#define ADDR_FMT "%-23s "

/* "ADDR:PORT", "[ADDR6]:PORT" or "*:PORT" into @buf; @addr NULL when
 * unknown. Never cut: a long address widens its column.
 */
static void format_endpoint(char *buf, size_t size, const char *addr,
			    int family, uint16_t port)
{
	char pbuf[8];

	snprintf(pbuf, sizeof(pbuf), "%u", port);
	if (!addr) {
		snprintf(buf, size, "*:%s", pbuf);
		return;
	}
	if (family == AF_INET6)
		snprintf(buf, size, "[%s]:%s", addr, pbuf);
	else
		snprintf(buf, size, "%s:%s", addr, pbuf);
}

/* Address text of @s (@src: local, else peer), NULL when unknown */
static const char *addr_text(const struct sock_info *s, bool src, char *buf,
			     size_t size)
{
	if (!s->have_addr || !s->family)
		return NULL;
	return inet_ntop(s->family, src ? s->src : s->dst, buf, size);
}

/* Local or peer address and port: text one column, JSON
 * local_address/local_port or peer_address/peer_port (address null when
 * unknown). Listening and initializing sockets have no peer: "*", and
 * nothing in JSON.
 */
static void print_endpoint(const struct sock_info *s, bool local)
{
	char abuf[INET6_ADDRSTRLEN], ebuf[INET6_ADDRSTRLEN + 16];
	const char *addr = addr_text(s, local, abuf, sizeof(abuf));
	uint16_t port = ntohs(local ? s->m.id.idiag_sport :
				      s->m.id.idiag_dport);

	if (!local && (s->m.diag_state == SS_LISTEN ||
		       s->m.diag_state == SS_INIT)) {
		print_string(PRINT_FP, NULL, ADDR_FMT, "*");
		return;
	}
	if (addr)
		print_string(PRINT_JSON, local ? "local_address" :
			     "peer_address", NULL, addr);
	else
		print_null(PRINT_JSON, local ? "local_address" :
			   "peer_address", NULL, NULL);
	print_uint(PRINT_JSON, local ? "local_port" : "peer_port", NULL, port);
	format_endpoint(ebuf, sizeof(ebuf), addr, s->family, port);
	print_string(PRINT_FP, NULL, ADDR_FMT, ebuf);
}

/* Columns of the text header; the rows use the same widths */
#define COLS "%-14s %-5s %-8s %-*s %-*s %-5s %s\n"

static void print_header(void)
{
	printf(COLS, "State", "UID", "Inode", ADDR_COL, "Local Address",
	       ADDR_COL, "Peer Address", "Intf", "Mode");
}

/* A decline code: text " 0x03030008 NOUEID" (unknown: " 0x0303000c ?")
 * when @type has it, JSON @key "0x03030008" and @key_name "NOUEID" or null
 */
static void print_code(enum output_type type, const char *key,
		       const char *key_name, uint32_t code)
{
	const char *name = smc_decline_name(code);
	char hex[12];

	snprintf(hex, sizeof(hex), "0x%08x", code);
	print_string(type, key, " %s", hex);
	if (name)
		print_string(type, key_name, " %s", name);
	else
		print_null(type, key_name, " %s", "?");
}

/* Mode column: SMC-D, SMC-R, or TCP with the local fallback reason and the
 * peer's diagnosis (text only those that are set); JSON "mode" and, for a
 * fallback or when a code is set, the object "fallback". A listening or
 * initializing socket that did not fall back has no mode yet: "-", null.
 */
static void print_mode(const struct sock_info *s)
{
	const char *mode = mode_name(s->m.diag_mode);
	bool fb = s->m.diag_mode == SD_MODE_FALLBACK_TCP;
	const struct sd_fallback *f = &s->fb;

	if (!fb && (s->m.diag_state == SS_LISTEN ||
		    s->m.diag_state == SS_INIT)) {
		print_null(PRINT_ANY, "mode", "%s", "-");
	} else if (mode) {
		print_string(PRINT_ANY, "mode", "%s", mode);
	} else {
		char buf[8];

		snprintf(buf, sizeof(buf), "%u", s->m.diag_mode);
		print_string(PRINT_ANY, "mode", "mode %s", buf);
	}
	if (!s->have_fallback || (!fb && !f->reason && !f->peer_diagnosis))
		return;
	open_json_object("fallback");
	print_code(f->reason || !f->peer_diagnosis ? PRINT_ANY : PRINT_JSON,
		   "reason", "reason_name", f->reason);
	if (f->peer_diagnosis)
		print_string(PRINT_FP, NULL, "%s", " peer");
	print_code(f->peer_diagnosis ? PRINT_ANY : PRINT_JSON,
		   "peer_diagnosis", "peer_diagnosis_name", f->peer_diagnosis);
	close_json_object();
}

static void print_cursor(const char *key, const char *label,
			 const struct sd_cursor *c)
{
	char buf[24];

	snprintf(buf, sizeof(buf), " %s %u:%u", label, c->wrap, c->count);
	print_string(PRINT_FP, NULL, "%s", buf);
	open_json_object(key);
	print_uint(PRINT_JSON, "wrap", NULL, c->wrap);
	print_uint(PRINT_JSON, "count", NULL, c->count);
	close_json_object();
}

/* A flags byte: text " flags 0x80(write_blocked)", JSON an array of the
 * names set (bits without a name as "0x04")
 */
static void print_flags(const char *key, uint8_t v,
			const struct smc_flag_name *names)
{
	const struct smc_flag_name *f;
	unsigned int bit, n = 0;
	char buf[12];	/* "0x" and a u32 in hex: -O1 cannot bound bit */

	print_hex(PRINT_FP, NULL, "0x%02x", v);
	open_json_array(PRINT_JSON, key);
	for (bit = 0x80; bit; bit >>= 1) {
		if (!(v & bit))
			continue;
		for (f = names; f->name && f->bit != bit; f++)
			;
		snprintf(buf, sizeof(buf), "0x%02x", bit);
		print_string(PRINT_FP, NULL, n++ ? ",%s" : "(%s",
			     f->name ? f->name : buf);
		print_string(PRINT_JSON, NULL, NULL, f->name ? f->name : buf);
	}
	if (n)
		print_string(PRINT_FP, NULL, "%s", ")");
	close_json_array(PRINT_JSON, NULL);
}

/* A 32- or 64-bit value as zero-padded hex, text and JSON alike */
static void print_u32_hex(const char *key, const char *label, uint32_t v)
{
	char buf[12];

	snprintf(buf, sizeof(buf), "0x%08x", v);
	print_string(PRINT_ANY, key, label, buf);
}

static void print_u64_hex(const char *key, const char *label, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%016" PRIx64, v);
	print_string(PRINT_ANY, key, label, buf);
}

/* -d: shutdown, token, buffer sizes, cursors and flags */
static void print_details(const struct sock_info *s)
{
	const struct sd_conninfo *ci = &s->conn;
	char buf[8];

	if (s->have_shutdown) {
		snprintf(buf, sizeof(buf), "%c-%c",
			 s->shutdown & SD_RCV_SHUTDOWN ? 'R' : '<',
			 s->shutdown & SD_SEND_SHUTDOWN ? 'W' : '>');
		print_string(PRINT_FP, NULL, "\n\tshutdown %s", buf);
		open_json_object("shutdown");
		print_bool(PRINT_JSON, "read", NULL,
			   s->shutdown & SD_RCV_SHUTDOWN);
		print_bool(PRINT_JSON, "write", NULL,
			   s->shutdown & SD_SEND_SHUTDOWN);
		close_json_object();
	}
	if (!s->have_conn)
		return;
	print_u32_hex("token", " token %s", ci->token);
	print_uint(PRINT_ANY, "sndbuf_size", " sndbuf %u", ci->sndbuf_size);
	print_uint(PRINT_ANY, "rmbe_size", " rmbe %u", ci->rmbe_size);
	print_uint(PRINT_ANY, "peer_rmbe_size", " peer_rmbe %u",
		   ci->peer_rmbe_size);
	print_string(PRINT_FP, NULL, "%s", "\n\trx");
	print_cursor("rx_prod", "prod", &ci->rx_prod);
	print_cursor("rx_cons", "cons", &ci->rx_cons);
	print_string(PRINT_FP, NULL, "%s", " flags ");
	print_flags("rx_prod_flags", ci->rx_prod_flags, smc_cdc_prod_flag_names);
	print_string(PRINT_FP, NULL, "%s", "/");
	print_flags("rx_conn_state_flags", ci->rx_conn_state_flags,
		    smc_cdc_conn_state_flag_names);
	print_string(PRINT_FP, NULL, "%s", "\n\ttx");
	print_cursor("tx_prod", "prod", &ci->tx_prod);
	print_cursor("tx_cons", "cons", &ci->tx_cons);
	print_string(PRINT_FP, NULL, "%s", " flags ");
	print_flags("tx_prod_flags", ci->tx_prod_flags, smc_cdc_prod_flag_names);
	print_string(PRINT_FP, NULL, "%s", "/");
	print_flags("tx_conn_state_flags", ci->tx_conn_state_flags,
		    smc_cdc_conn_state_flag_names);
	print_cursor("tx_prep", "prep", &ci->tx_prep);
	print_cursor("tx_sent", "sent", &ci->tx_sent);
	print_cursor("tx_fin", "fin", &ci->tx_fin);
}

/* smcd: the DMB and GIDs of an SMC-D connection */
static void print_dmb(const struct sock_info *s)
{
	const struct sd_dmbinfo *d = &s->dmb;

	open_json_object("smcd");
	print_string(PRINT_FP, NULL, "%s", "\n\tsmcd");
	print_u32_hex("linkgroup_id", " linkid %s", d->linkid);
	print_u64_hex("gid", " gid %s", d->my_gid);
	if (d->my_gid_ext)
		print_u64_hex("gid_ext", " gid_ext %s", d->my_gid_ext);
	print_u64_hex("token", " token %s", d->token);
	print_u64_hex("peer_gid", " peer_gid %s", d->peer_gid);
	if (d->peer_gid_ext)
		print_u64_hex("peer_gid_ext", " peer_gid_ext %s",
			      d->peer_gid_ext);
	print_u64_hex("peer_token", " peer_token %s", d->peer_token);
	close_json_object();
}

/* A fixed-size, maybe unterminated kernel string */
static void print_kstr(const char *key, const char *label, const uint8_t *p,
		       size_t size)
{
	char buf[SD_IBNAME_LEN + 1];

	if (size >= sizeof(buf))
		size = sizeof(buf) - 1;
	memcpy(buf, p, size);
	buf[size] = '\0';
	print_string(PRINT_ANY, key, label, buf);
}

/* smcr: the link of an SMC-R connection */
static void print_lgr(const struct sock_info *s)
{
	const struct sd_lgrinfo *l = &s->lgr;

	open_json_object("smcr");
	print_string(PRINT_FP, NULL, "%s", "\n\tsmcr");
	print_string(PRINT_ANY, "role", " role %s",
		     l->role == SD_ROLE_SERV ? "server" : "client");
	print_kstr("ibdev", " ibdev %s", l->ibname, sizeof(l->ibname));
	print_uint(PRINT_ANY, "ibport", " port %u", l->ibport);
	print_uint(PRINT_ANY, "link_id", " link_id %u", l->link_id);
	print_kstr("gid", " gid %s", l->gid, sizeof(l->gid));
	print_kstr("peer_gid", " peer_gid %s", l->peer_gid,
		   sizeof(l->peer_gid));
	close_json_object();
}

static void print_socket(const struct sock_info *s, const struct sock_opts *o)
{
	const struct sd_msg *m = &s->m;
	char buf[IF_NAMESIZE + 8];
	const char *ifname = NULL;

	open_json_object(NULL);
	print_string(PRINT_ANY, "state", "%-14s ",
		     state_name(m->diag_state, buf, sizeof(buf)));
	print_uint(PRINT_ANY, "uid", "%-5u ", m->diag_uid);
	print_u64(PRINT_ANY, "inode", "%-8" PRIu64 " ", m->diag_inode);
	if (s->family == AF_INET || s->family == AF_INET6)
		print_string(PRINT_JSON, "family", NULL,
			     s->family == AF_INET ? "inet" : "inet6");
	else
		print_null(PRINT_JSON, "family", NULL, NULL);
	print_endpoint(s, true);
	print_endpoint(s, false);
	print_uint(PRINT_JSON, "interface", NULL, m->id.idiag_if);
	if (m->id.idiag_if)
		ifname = if_indextoname(m->id.idiag_if, buf);
	if (ifname)
		print_string(PRINT_JSON, "ifname", NULL, ifname);
	if (!m->id.idiag_if)
		print_string(PRINT_FP, NULL, "%-5s ", "*");
	else if (ifname)
		print_string(PRINT_FP, NULL, "%-5s ", ifname);
	else
		print_uint(PRINT_FP, NULL, "%-5u ", m->id.idiag_if);
	print_mode(s);
	if (show_details)
		print_details(s);
	if (o->smcd && s->have_dmb)
		print_dmb(s);
	if (o->smcr && s->have_lgr)
		print_lgr(s);
	print_string(PRINT_FP, NULL, "%s", "\n");
	close_json_object();
}

/* ------------------------------------------------------------ smcss */

/*
 * smcss prints what smcss of smc-tools 1.8.5 prints, byte for byte, so
 * that scripts written for it (smc_chk among them) keep working: the
 * formats below are those of its columns, worked out from its source and
 * smcss(8). Unlike smc socket it shows the addresses exactly as the kernel
 * sent them (zeros for IPPROTO_SMC sockets) and names no codes.
 */

/* Width of smcss's address columns; longer ones are cut without -W */
#define SMCSS_ADDR_COL 23

static void smcss_header(const struct sock_opts *o)
{
	printf("%-15s%-6s%-8s%-24s%-24s%-5s%-5s", "State", "UID", "Inode",
	       "Local Address", "Peer Address", "Intf", "Mode");
	if (show_details)
		printf("%-6s%-9s%-9s%-9s%-9s%-14s%-14s%-8s%-14s%-14s%-8s%-14s%-14s%-14s",
		       "Shutd", "Token", "Sndbuf", "Rcvbuf", "Peerbuf",
		       "rxprod-Cursor", "rxcons-Cursor", "rxFlags",
		       "txprod-Cursor", "txcons-Cursor", "txFlags",
		       "txprep-Cursor", "txsent-Cursor", "txfin-Cursor");
	if (o->smcr)
		printf("%-5s%-16s%-5s%-7s%-41s%s", "Role", "IB-device", "Port",
		       "Linkid", "GID", "Peer-GID");
	if (o->smcd)
		printf("%-17s%-17s%-17s%-17s%s", "GID", "Token", "Peer-GID",
		       "Peer-Token", "Linkid");
	putchar('\n');
}

/* smcss's state names: as smc socket's but for state 24; unknown: "0x1f?" */
static const char *smcss_state(uint8_t state, char *buf, size_t size)
{
	if (state == 24)
		return "APPFINCLOSEWAIT1";
	if (state == 1 || state == 2 || state == 7 || state == 10 ||
	    (state >= 20 && state <= 27))
		return state_name(state, buf, size);
	snprintf(buf, size, "%#x?", state);
	return buf;
}

/* One address column: "ADDR:PORT" with the address as inet_ntop() writes
 * it (IPv6 without brackets), the family guessed as smcss does (IPv4 when
 * bytes 4..15 are zero); without -W, cut to 23 characters with ".." before
 * the port. Padded to 23 and followed by a blank.
 */
static void smcss_endpoint(const uint8_t addr[16], uint16_t port, bool wide)
{
	int af = all_zero(addr + 4, 12) ? AF_INET : AF_INET6;
	char abuf[INET6_ADDRSTRLEN], pbuf[8], buf[INET6_ADDRSTRLEN + 8];
	size_t alen, plen;

	if (!inet_ntop(af, addr, abuf, sizeof(abuf)))
		snprintf(abuf, sizeof(abuf), "?");
	snprintf(pbuf, sizeof(pbuf), "%u", port);
	alen = strlen(abuf);
	plen = strlen(pbuf);
	if (!wide && alen + 1 + plen > SMCSS_ADDR_COL)
		snprintf(buf, sizeof(buf), "%.*s..:%s",
			 (int)(SMCSS_ADDR_COL - 3 - plen), abuf, pbuf);
	else
		snprintf(buf, sizeof(buf), "%s:%s", abuf, pbuf);
	printf("%-*s ", SMCSS_ADDR_COL, buf);
}

static void smcss_cursor(const struct sd_cursor *c)
{
	printf("%04x:%08x ", c->wrap, c->count);
}

/* -d: shutdown as "R-W", then the connection: token, buffer sizes in hex,
 * cursors as wrap:count, flags as prod:conn_state
 */
static void smcss_details(const struct sock_info *s)
{
	const struct sd_conninfo *ci = &s->conn;

	if (s->have_shutdown)
		printf(" %c-%c  ", s->shutdown & SD_RCV_SHUTDOWN ? 'R' : '<',
		       s->shutdown & SD_SEND_SHUTDOWN ? 'W' : '>');
	if (!s->have_conn)
		return;
	printf("%08x %08x %08x %08x ", ci->token, ci->sndbuf_size,
	       ci->rmbe_size, ci->peer_rmbe_size);
	smcss_cursor(&ci->rx_prod);
	smcss_cursor(&ci->rx_cons);
	printf("%02x:%02x   ", ci->rx_prod_flags, ci->rx_conn_state_flags);
	smcss_cursor(&ci->tx_prod);
	smcss_cursor(&ci->tx_cons);
	printf("%02x:%02x   ", ci->tx_prod_flags, ci->tx_conn_state_flags);
	smcss_cursor(&ci->tx_prep);
	smcss_cursor(&ci->tx_sent);
	smcss_cursor(&ci->tx_fin);
}

/* A fixed-size kernel string, cut at its end if unterminated */
static int kstr_len(const uint8_t *p, size_t size)
{
	const uint8_t *nul = memchr(p, 0, size);

	return nul ? nul - p : (int)size;
}

static void smcss_socket(const struct sock_info *s, const struct sock_opts *o)
{
	const struct sd_msg *m = &s->m;
	const struct sd_lgrinfo *l = &s->lgr;
	const struct sd_dmbinfo *d = &s->dmb;
	char buf[16];

	printf("%-14s ", smcss_state(m->diag_state, buf, sizeof(buf)));
	/* smcss prints the uid as a signed int */
	printf("%05d %07" PRIu64 " ", (int)m->diag_uid, m->diag_inode);
	if (m->diag_state == SS_INIT)
		goto out;
	smcss_endpoint((const uint8_t *)m->id.idiag_src,
		       ntohs(m->id.idiag_sport), o->wide);
	if (m->diag_state == SS_LISTEN)
		goto out;
	smcss_endpoint((const uint8_t *)m->id.idiag_dst,
		       ntohs(m->id.idiag_dport), o->wide);
	printf("%04x ", m->id.idiag_if);
	if (m->diag_state == SS_CLOSED)
		goto out;
	if (m->diag_mode == SD_MODE_FALLBACK_TCP) {
		printf("TCP ");
		if (s->have_fallback) {
			printf("0x%08x", s->fb.reason);
			if (s->fb.peer_diagnosis)
				printf("/0x%08x", s->fb.peer_diagnosis);
		}
		goto out;
	}
	/* any mode but SMC-D and the fallback is SMC-R to smcss */
	printf("%s ", m->diag_mode == SD_MODE_SMCD ? "SMCD" : "SMCR");
	if (show_details)
		smcss_details(s);
	if (o->smcr && s->have_lgr)
		printf("%s %-15.*s %02x   %02x     %-40.*s %.*s",
		       l->role ? "SERV" : "CLNT",
		       kstr_len(l->ibname, sizeof(l->ibname)), l->ibname,
		       l->ibport, l->link_id,
		       kstr_len(l->gid, sizeof(l->gid)), l->gid,
		       kstr_len(l->peer_gid, sizeof(l->peer_gid)), l->peer_gid);
	if (o->smcd && s->have_dmb)
		printf("%016" PRIx64 " %016" PRIx64 " %016" PRIx64 " %016"
		       PRIx64 " %08x ", d->my_gid, d->token, d->peer_gid,
		       d->peer_token, d->linkid);
out:
	putchar('\n');
}

/* Dump, resolve and print the sockets @o selects. Returns the exit status. */
/* A bound NETLINK_SOCK_DIAG socket, or NULL after an error message */
static struct mnl_socket *sock_diag_open(void)
{
	struct mnl_socket *nl = mnl_socket_open(NETLINK_SOCK_DIAG);

	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		fprintf(stderr,
			"Error: cannot open a NETLINK_SOCK_DIAG socket: %s\n",
			strerror(errno));
		if (nl)
			mnl_socket_close(nl);
		return NULL;
	}
	return nl;
}

static int show_sockets(const struct sock_opts *o)
{
	struct sock_dump_ctx c = { .o = o };
	struct mnl_socket *nl;
	size_t i;
	int ret;

	nl = sock_diag_open();
	if (!nl)
		return 1;
	if (o->smcss) {
		/* as smcss: the header once the socket is open, the sockets
		 * read before a failure
		 */
		smcss_header(o);
		ret = dump_smc(nl, o, &c);
		mnl_socket_close(nl);
		for (i = 0; i < c.n; i++)
			smcss_socket(&c.socks[i], o);
		free(c.socks);
		return ret;
	}
	ret = dump_smc(nl, o, &c);
	if (!ret)
		resolve_addresses(nl, &c);
	mnl_socket_close(nl);
	if (!ret) {
		new_json_obj(json, pretty);
		if (!json)
			print_header();
		for (i = 0; i < c.n; i++)
			print_socket(&c.socks[i], o);
		delete_json_obj();
	}
	free(c.socks);
	free(c.tcp);
	return ret;
}

/*
 * smc_socket_lookup() - what sock_diag says of the SMC socket @inode
 * @inode: the socket's inode (fstat() of its descriptor)
 * @st: filled in; st->found false when the dump has no such socket
 *
 * For smc check (check.c): the same dump, attributes and mode names as
 * smc socket. Returns 0, or 1 after an error message (no smc_diag,
 * malformed answer).
 */
int smc_socket_lookup(unsigned long long inode, struct smc_sock_state *st)
{
	struct sock_opts o = { .inode = inode };
	struct sock_dump_ctx c = { .o = &o };
	const struct sock_info *s;
	struct mnl_socket *nl;
	int ret;

	memset(st, 0, sizeof(*st));
	nl = sock_diag_open();
	if (!nl)
		return 1;
	ret = dump_smc(nl, &o, &c);
	mnl_socket_close(nl);
	if (!ret && c.n) {
		s = &c.socks[0];
		st->found = true;
		st->state = s->m.diag_state;
		st->mode = mode_name(s->m.diag_mode);
		st->fallback = s->m.diag_mode == SD_MODE_FALLBACK_TCP;
		if (s->have_fallback) {
			st->reason = s->fb.reason;
			st->peer_diagnosis = s->fb.peer_diagnosis;
		}
		if (s->have_lgr && s->m.diag_mode == SD_MODE_SMCR) {
			st->have_lgr = true;
			memcpy(st->ibdev, s->lgr.ibname, sizeof(s->lgr.ibname));
			st->ibport = s->lgr.ibport;
			st->link_id = s->lgr.link_id;
			memcpy(st->gid, s->lgr.gid, sizeof(s->lgr.gid));
			memcpy(st->peer_gid, s->lgr.peer_gid,
			       sizeof(s->lgr.peer_gid));
		}
		if (s->have_dmb && s->m.diag_mode == SD_MODE_SMCD) {
			st->have_dmb = true;
			st->linkgroup_id = s->dmb.linkid;
		}
	}
	free(c.socks);
	return ret;
}

int smc_socket_conns(struct smc_conn_id **out, size_t *n, bool quiet)
{
	struct sock_opts o = { 0 };
	struct sock_dump_ctx c = { .o = &o };
	struct smc_conn_id *r;
	struct mnl_socket *nl;
	struct sd_req req = {
		.diag_family = AF_SMC,
		.diag_ext = 1 << (SD_CONNINFO - 1),
	};
	size_t i;
	int ret;

	*out = NULL;
	*n = 0;
	nl = mnl_socket_open(NETLINK_SOCK_DIAG);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		if (!quiet)
			fprintf(stderr,
				"Error: cannot open a NETLINK_SOCK_DIAG socket: %s\n",
				strerror(errno));
		if (nl)
			mnl_socket_close(nl);
		return 1;
	}
	if (quiet) {
		ret = diag_dump(nl, &req, sizeof(req), cb_smc, &c) ? 1 : 0;
	} else {
		ret = diag_dump(nl, &req, sizeof(req), cb_smc, &c);
		if (ret == -2)
			ret = bad_answer(c.bad);
		else if (ret < 0) {
			fprintf(stderr,
				"Error: cannot dump the SMC sockets: %s\n",
				errno == ENOENT ?
				"no SMC socket diagnostics (smc_diag) in the running kernel" :
				strerror(errno));
			ret = 1;
		}
	}
	if (!ret)
		resolve_addresses(nl, &c);
	mnl_socket_close(nl);
	r = ret ? NULL : calloc(c.n ? c.n : 1, sizeof(*r));
	if (!ret && !r) {
		if (!quiet)
			fprintf(stderr, "Error: out of memory\n");
		ret = 1;
	}
	for (i = 0; !ret && i < c.n; i++) {
		const struct sock_info *s = &c.socks[i];

		r[i].inode = s->m.diag_inode;
		r[i].token = s->have_conn ? s->conn.token : 0;
		r[i].family = s->have_addr ? s->family : 0;
		memcpy(r[i].src, s->src, 16);
		memcpy(r[i].dst, s->dst, 16);
		r[i].sport = ntohs(s->m.id.idiag_sport);
		r[i].dport = ntohs(s->m.id.idiag_dport);
	}
	if (!ret) {
		*out = r;
		*n = c.n;
	}
	free(c.socks);
	free(c.tcp);
	return ret;
}

/* ------------------------------------------------------------ reasons */

static int parse_code(const char *arg, uint32_t *code)
{
	uint32_t v;

	if (get_u32(&v, arg, 0))
		return -1;
	*code = v;
	return 0;
}

static void print_reason(uint32_t code)
{
	const char *name = smc_decline_name(code);
	const char *text = smc_decline_text(code);
	char hex[12];

	open_json_object(NULL);
	snprintf(hex, sizeof(hex), "0x%08x", code);
	print_string(PRINT_ANY, "code", "%s", hex);
	if (name)
		print_string(PRINT_ANY, "name", " %s", name);
	else
		print_null(PRINT_ANY, "name", " %s", "?");
	if (text)
		print_string(PRINT_ANY, "text", " %s", text);
	else
		print_null(PRINT_JSON, "text", NULL, NULL);
	print_string(PRINT_ANY, "class", text ? NULL : " unknown code, class %s",
		     smc_decline_class(code));
	print_string(PRINT_FP, NULL, "%s", "\n");
	close_json_object();
}

/* smc socket reasons [CODE]...: the decline / fallback code table, or the
 * given codes decoded
 */
static int do_reasons(int argc, char **argv)
{
	uint32_t code;
	size_t i;
	int k;

	for (k = 0; k < argc; k++)
		if (parse_code(argv[k], &code))
			return invarg("not a 32-bit code", argv[k]);
	new_json_obj(json, pretty);
	if (!argc)
		for (i = 0; i < smc_decline_codes_count; i++)
			print_reason(smc_decline_codes[i].code);
	for (k = 0; k < argc; k++) {
		parse_code(argv[k], &code);
		print_reason(code);
	}
	delete_json_obj();
	return 0;
}

/* ------------------------------------------------------------ entries */

static int bad_combination(const char *a, const char *b, const char *help)
{
	fprintf(stderr, "Error: \"%s\" together with \"%s\" is not supported, try \"%s\".\n",
		a, b, help);
	return EXIT_USAGE;
}

/* smcss's rules: one mode filter, and listening sockets have no details */
static int check_opts(const struct sock_opts *o, bool smcss)
{
	const char *help = smcss ? "smcss --help" : "smc socket help";

	/* in smcss's order: its first complaint is the one shown */
	if (o->smcd && o->smcr)
		return bad_combination(smcss ? "--smcd" : "smcd",
				       smcss ? "--smcr" : "smcr", help);
	if (o->listening && show_details)
		return bad_combination(smcss ? "--listening" : "listening",
				       smcss ? "--debug" : "-d", help);
	if (o->listening && o->all)
		return bad_combination(smcss ? "--listening" : "listening",
				       smcss ? "--all" : "all", help);
	if (o->listening && (o->smcd || o->smcr))
		return bad_combination(smcss ? "--listening" : "listening",
				       o->smcr ? (smcss ? "--smcr" : "smcr") :
				       (smcss ? "--smcd" : "smcd"), help);
	return 0;
}

static int invarg_socket(const char *arg)
{
	fprintf(stderr,
		"Error: unknown argument \"%s\", try \"smc socket help\".\n",
		arg);
	return EXIT_USAGE;
}

/* show [ all | listening ] [ smcd | smcr ] and the options */
static int socket_show(int argc, char **argv)
{
	struct sock_opts o = { 0 };
	int i, ret;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (matches(a, "all") == 0)
			o.all = true;
		else if (matches(a, "listening") == 0)
			o.listening = true;
		else if (!strcmp(a, "smcd"))
			o.smcd = true;
		else if (!strcmp(a, "smcr"))
			o.smcr = true;
		else if (!strcmp(a, "-d") || !strcmp(a, "-details"))
			show_details++;
		else if (!strcmp(a, "-j") || !strcmp(a, "-json"))
			json = 1;
		else if (!strcmp(a, "-p") || !strcmp(a, "-pretty"))
			pretty = 1;
		else if (matches(a, "help") == 0)
			break;
		else
			return invarg_socket(a);
	}
	if (i < argc) {
		usage(stdout);
		return EXIT_OK;
	}
	ret = check_opts(&o, false);
	if (ret)
		return ret;
	return show_sockets(&o);
}

/* any other first word is a keyword or an option of show */
static const struct cmd socket_cmds[] = {
	{ "show", socket_show, 0 },
	{ "reasons", do_reasons, CMD_EXACT },
	{ NULL, socket_show, 0 },
};

/**
 * do_socket() - smc socket [ show ] [ all | listening ] [ smcd | smcr ],
 *	smc socket reasons [ CODE ]..., smc socket help
 * @argc: number of arguments after "socket"
 * @argv: those arguments; none means show
 *
 * Lists the SMC sockets of the current network namespace (text, or JSON
 * under -j; names in smc-socket(8)): by default the connected ones, with "all"
 * also listening and initializing ones, with "listening" only those;
 * "smcd" or "smcr" limit the list to SMC-D or SMC-R connections and add
 * their DMB or link. -d adds token, buffer sizes, cursors and flags. The
 * options -d, -j and -p are also taken after "socket". "reasons" prints
 * the table of decline / fallback codes, or decodes the codes given.
 *
 * Return: 0 on success, 1 when the sockets cannot be read, 2 on a usage
 * error.
 */
int do_socket(int argc, char **argv)
{
	return cmd_select(socket_cmds, argc, argv, "socket", usage);
}

static void smcss_usage(FILE *fp, const char *prog)
{
	fprintf(fp,
		"Usage: %s [ OPTIONS ]\n"
		"  -a, --all        every SMC socket: listening, being set up, connected, closing\n"
		"  -l, --listening  the listening sockets only\n"
		"  -d, --debug      shutdown state, token, buffer sizes, cursors and flags\n"
		"  -D, --smcd       SMC-D sockets only, with their GIDs, DMB tokens and link ID\n"
		"  -R, --smcr       SMC-R sockets only, with their role and link\n"
		"  -W, --wide       never cut an IP address to the column\n"
		"  -v, --version    the version\n"
		"  -h, --help       this text\n"
		"  no OPTIONS       the connected and closing SMC sockets\n"
		"The format is smc-tools' smcss; names and JSON: smc-socket(8).\n",
		prog);
}

/**
 * smcss_main() - the smcss entry point: smc-tools' smcss
 * @argc: argument count, argv[0] included
 * @argv: the command line as main() got it
 * @version: the smc-dump release, for -v
 *
 * smcss [-a|-l] [-d] [-D|-R] [-W]: the options, output and exit codes of
 * smcss of smc-tools 1.8.5 (see "smcss" above and smcss(8)): 1 also for a
 * usage error, which prints the usage to stderr.
 *
 * Return: the exit status: 0, or 1 on a usage error or when the sockets
 * cannot be read.
 */
int smcss_main(int argc, char **argv, const char *version)
{
	static const struct option long_opts[] = {
		{ "all", no_argument, NULL, 'a' },
		{ "listening", no_argument, NULL, 'l' },
		{ "debug", no_argument, NULL, 'd' },
		{ "smcd", no_argument, NULL, 'D' },
		{ "smcr", no_argument, NULL, 'R' },
		{ "wide", no_argument, NULL, 'W' },
		{ "version", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct sock_opts o = { .smcss = true };
	const char *prog = strrchr(argv[0], '/');
	int ch;

	prog = prog ? prog + 1 : argv[0];
	while ((ch = getopt_long(argc, argv, "aldDRWvh", long_opts,
				 NULL)) != -1) {
		switch (ch) {
		case 'a':
			o.all = true;
			break;
		case 'l':
			o.listening = true;
			break;
		case 'd':
			show_details++;
			break;
		case 'D':
			o.smcd = true;
			break;
		case 'R':
			o.smcr = true;
			break;
		case 'W':
			o.wide = true;
			break;
		case 'v':
			printf("smcss utility, smc-dump-%s\n", version);
			return EXIT_OK;
		case 'h':
			smcss_usage(stdout, prog);
			return EXIT_OK;
		default:
			smcss_usage(stderr, prog);
			return EXIT_FAIL;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "%s: unexpected argument \"%s\"\n", prog,
			argv[optind]);
		smcss_usage(stderr, prog);
		return EXIT_FAIL;
	}
	if (check_opts(&o, true)) {
		smcss_usage(stderr, prog);
		return EXIT_FAIL;
	}
	return show_sockets(&o);
}
