// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - smc stats: the SMC statistics of the current network
 * namespace (SMC_NETLINK_GET_STATS) and the TCP fallback counters with
 * their reasons (SMC_NETLINK_GET_FBACK_STATS), as smc-tools' smcd stats and
 * smcr stats show them, for SMC-D and SMC-R together.
 *
 * The kernel cannot reset its counters. smc stats reset does what
 * smc-tools' smcd stats reset does: it keeps the counters of the moment in
 * a file (the reset state, one per user and network namespace), and later
 * runs show the counters minus those, unless -a asks for the kernel's.
 *
 * The kernel side is net/smc/smc_stats.c. Counters are u64 attributes
 * (with pad attributes of type 0 where the architecture needs them);
 * the buffer usage counters are NLA_UINT, 4 or 8 bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <linux/genetlink.h>
#include <linux/smc.h>

#include "genl.h"
#include "json_print.h"
#include "smc.h"
#include "smc_codes.h"

/*
 * SMC_NLA_STATS_T_RX_RMB_USAGE and _TX_RMB_USAGE (NLA_UINT: the RMB and
 * sndbuf bytes in use) follow SMC_NLA_STATS_T_TX_CNT in the kernel's
 * include/uapi/linux/smc.h of Linux 6.12 (not yet in 6.1). Named by value so
 * that smc also builds against older uapi headers, such as Debian 12's
 * linux-libc-dev (6.1), where the enum stops at SMC_NLA_STATS_T_TX_CNT.
 */
#define SMC_STATS_T_RX_RMB_USAGE	(SMC_NLA_STATS_T_TX_CNT + 1)
#define SMC_STATS_T_TX_RMB_USAGE	(SMC_NLA_STATS_T_TX_CNT + 2)

/* Buckets of the size histograms: kernel's SMC_BUF_8K ... SMC_BUF_G_1024K,
 * attributes SMC_NLA_STATS_PLOAD_8K ... _G_1024K (index + 1)
 */
#define NR_BUCKETS 9

static const char *const bucket_key[NR_BUCKETS] = {
	"le_8k", "le_16k", "le_32k", "le_64k", "le_128k", "le_256k",
	"le_512k", "le_1024k", "gt_1024k",
};

static const char *const bucket_label[NR_BUCKETS] = {
	"<=8K", "<=16K", "<=32K", "<=64K", "<=128K", "<=256K", "<=512K",
	"<=1M", ">1M",
};

/* Histograms of a technology, in the order of enum hist */
enum hist { H_TX_BUF, H_RX_BUF, H_TX_PLOAD, H_RX_PLOAD, NR_HIST };

/* Buffer event counters, indexed by SMC_NLA_STATS_RMB_* */
#define NR_RMB (SMC_NLA_STATS_RMB_MAX + 1)

struct tech_stats {
	uint64_t clnt_v1, clnt_v2, srv_v1, srv_v2;	/* successful handshakes */
	uint64_t rx_bytes, tx_bytes;	/* payload bytes received/sent */
	uint64_t rx_cnt, tx_cnt;	/* recv/send requests */
	uint64_t rx_rmbuse, tx_rmbuse;	/* bytes of buffers in use */
	uint64_t sendpage, splice, cork, ndly, urg;	/* special calls */
	uint64_t hist[NR_HIST][NR_BUCKETS];
	uint64_t rmb_tx[NR_RMB], rmb_rx[NR_RMB];
};

struct fback_reason {
	bool server;		/* else client */
	uint32_t code;		/* SMC_CLC_DECL_* */
	uint32_t count;
};

/* Room for every reason of both roles (kernel: SMC_MAX_FBACK_RSN_CNT) */
#define MAX_REASONS (2 * 36)

struct stats {
	bool have_stats;
	struct tech_stats smcd, smcr;
	uint64_t clnt_hs_err, srv_hs_err;
	uint64_t fback_clnt, fback_srv;
	unsigned int nr_reasons;
	struct fback_reason reason[MAX_REASONS];
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: smc [ -j [ -p ] ] [ -d ] [ -a ] stats [ show | reset ]\n"
		"       smc stats help\n");
}

/* Read a counter: u64, or NLA_UINT (4 or 8 bytes). Returns 0 or -1. */
static int get_counter(const struct nlattr *attr, uint64_t *val)
{
	uint32_t v32;

	switch (mnl_attr_get_payload_len(attr)) {
	case sizeof(uint64_t):
		memcpy(val, mnl_attr_get_payload(attr), sizeof(*val));
		return 0;
	case sizeof(uint32_t):
		memcpy(&v32, mnl_attr_get_payload(attr), sizeof(v32));
		*val = v32;
		return 0;
	}
	return -1;
}

static int bad_message(const char *what)
{
	fprintf(stderr, "Error: the kernel sent malformed statistics (%s)\n",
		what);
	errno = EBADMSG;
	return MNL_CB_ERROR;
}

/* SMC_NLA_STATS_PLOAD_* nest into one histogram */
static int parse_hist(const struct nlattr *nest, uint64_t *hist)
{
	const struct nlattr *attr;
	unsigned int type;

	mnl_attr_for_each_nested(attr, nest) {
		type = mnl_attr_get_type(attr);
		if (type < SMC_NLA_STATS_PLOAD_8K || type > NR_BUCKETS)
			continue;	/* pad, or newer than us */
		if (get_counter(attr, &hist[type - SMC_NLA_STATS_PLOAD_8K]))
			return -1;
	}
	return 0;
}

/* SMC_NLA_STATS_RMB_* nest */
static int parse_rmb(const struct nlattr *nest, uint64_t *rmb)
{
	const struct nlattr *attr;
	unsigned int type;

	mnl_attr_for_each_nested(attr, nest) {
		type = mnl_attr_get_type(attr);
		if (type == SMC_NLA_STATS_RMB_PAD || type >= NR_RMB)
			continue;
		if (get_counter(attr, &rmb[type]))
			return -1;
	}
	return 0;
}

/* SMC_NLA_STATS_SMCD_TECH or _SMCR_TECH nest */
static int parse_tech(const struct nlattr *nest, struct tech_stats *t)
{
	const struct nlattr *attr;
	uint64_t *val;

	mnl_attr_for_each_nested(attr, nest) {
		val = NULL;
		switch (mnl_attr_get_type(attr)) {
		case SMC_NLA_STATS_T_TX_RMB_SIZE:
			if (parse_hist(attr, t->hist[H_TX_BUF]))
				return -1;
			break;
		case SMC_NLA_STATS_T_RX_RMB_SIZE:
			if (parse_hist(attr, t->hist[H_RX_BUF]))
				return -1;
			break;
		case SMC_NLA_STATS_T_TXPLOAD_SIZE:
			if (parse_hist(attr, t->hist[H_TX_PLOAD]))
				return -1;
			break;
		case SMC_NLA_STATS_T_RXPLOAD_SIZE:
			if (parse_hist(attr, t->hist[H_RX_PLOAD]))
				return -1;
			break;
		case SMC_NLA_STATS_T_TX_RMB_STATS:
			if (parse_rmb(attr, t->rmb_tx))
				return -1;
			break;
		case SMC_NLA_STATS_T_RX_RMB_STATS:
			if (parse_rmb(attr, t->rmb_rx))
				return -1;
			break;
		case SMC_NLA_STATS_T_CLNT_V1_SUCC:
			val = &t->clnt_v1;
			break;
		case SMC_NLA_STATS_T_CLNT_V2_SUCC:
			val = &t->clnt_v2;
			break;
		case SMC_NLA_STATS_T_SRV_V1_SUCC:
			val = &t->srv_v1;
			break;
		case SMC_NLA_STATS_T_SRV_V2_SUCC:
			val = &t->srv_v2;
			break;
		case SMC_NLA_STATS_T_SENDPAGE_CNT:
			val = &t->sendpage;
			break;
		case SMC_NLA_STATS_T_SPLICE_CNT:
			val = &t->splice;
			break;
		case SMC_NLA_STATS_T_CORK_CNT:
			val = &t->cork;
			break;
		case SMC_NLA_STATS_T_NDLY_CNT:
			val = &t->ndly;
			break;
		case SMC_NLA_STATS_T_URG_DATA_CNT:
			val = &t->urg;
			break;
		case SMC_NLA_STATS_T_RX_BYTES:
			val = &t->rx_bytes;
			break;
		case SMC_NLA_STATS_T_TX_BYTES:
			val = &t->tx_bytes;
			break;
		case SMC_NLA_STATS_T_RX_CNT:
			val = &t->rx_cnt;
			break;
		case SMC_NLA_STATS_T_TX_CNT:
			val = &t->tx_cnt;
			break;
		case SMC_STATS_T_RX_RMB_USAGE:
			val = &t->rx_rmbuse;
			break;
		case SMC_STATS_T_TX_RMB_USAGE:
			val = &t->tx_rmbuse;
			break;
		}
		if (val && get_counter(attr, val))
			return -1;
	}
	return 0;
}

static int cb_stats(const struct nlmsghdr *nlh, void *data)
{
	struct stats *s = data;
	const struct nlattr *top, *attr;

	mnl_attr_for_each(top, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(top) != SMC_GEN_STATS)
			continue;
		if (mnl_attr_validate(top, MNL_TYPE_NESTED) < 0)
			return bad_message("SMC_GEN_STATS");
		s->have_stats = true;
		mnl_attr_for_each_nested(attr, top) {
			switch (mnl_attr_get_type(attr)) {
			case SMC_NLA_STATS_SMCD_TECH:
				if (parse_tech(attr, &s->smcd))
					return bad_message("SMC-D counters");
				break;
			case SMC_NLA_STATS_SMCR_TECH:
				if (parse_tech(attr, &s->smcr))
					return bad_message("SMC-R counters");
				break;
			case SMC_NLA_STATS_CLNT_HS_ERR_CNT:
				if (get_counter(attr, &s->clnt_hs_err))
					return bad_message("handshake errors");
				break;
			case SMC_NLA_STATS_SRV_HS_ERR_CNT:
				if (get_counter(attr, &s->srv_hs_err))
					return bad_message("handshake errors");
				break;
			}
		}
	}
	return MNL_CB_OK;
}

/* One SMC_GEN_FBACK_STATS message: a reason of one role, and with the
 * first message the total fallback counts of both roles.
 */
static int cb_fback(const struct nlmsghdr *nlh, void *data)
{
	struct stats *s = data;
	const struct nlattr *top, *attr;
	struct fback_reason r;
	bool have_code, have_cnt;
	uint64_t v;

	mnl_attr_for_each(top, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(top) != SMC_GEN_FBACK_STATS)
			continue;
		if (mnl_attr_validate(top, MNL_TYPE_NESTED) < 0)
			return bad_message("SMC_GEN_FBACK_STATS");
		memset(&r, 0, sizeof(r));
		have_code = have_cnt = false;
		mnl_attr_for_each_nested(attr, top) {
			switch (mnl_attr_get_type(attr)) {
			case SMC_NLA_FBACK_STATS_TYPE:
				if (mnl_attr_validate(attr, MNL_TYPE_U8) < 0)
					return bad_message("fallback role");
				r.server = mnl_attr_get_u8(attr);
				break;
			case SMC_NLA_FBACK_STATS_SRV_CNT:
				if (get_counter(attr, &s->fback_srv))
					return bad_message("fallback count");
				break;
			case SMC_NLA_FBACK_STATS_CLNT_CNT:
				if (get_counter(attr, &s->fback_clnt))
					return bad_message("fallback count");
				break;
			case SMC_NLA_FBACK_STATS_RSN_CODE:
				if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
					return bad_message("fallback reason");
				r.code = mnl_attr_get_u32(attr);
				have_code = true;
				break;
			case SMC_NLA_FBACK_STATS_RSN_CNT:
				if (mnl_attr_validate(attr, MNL_TYPE_U16) < 0) {
					if (get_counter(attr, &v))
						return bad_message("fallback reason count");
					r.count = v > UINT32_MAX ?
						  UINT32_MAX : (uint32_t)v;
				} else {
					r.count = mnl_attr_get_u16(attr);
				}
				have_cnt = true;
				break;
			}
		}
		if (have_code && have_cnt && s->nr_reasons < MAX_REASONS)
			s->reason[s->nr_reasons++] = r;
	}
	return MNL_CB_OK;
}

/* Biggest count first; the kernel keeps them in order of first use */
static void sort_reasons(struct stats *s)
{
	struct fback_reason tmp;
	unsigned int i, j;

	for (i = 1; i < s->nr_reasons; i++) {
		tmp = s->reason[i];
		for (j = i; j > 0 && s->reason[j - 1].count < tmp.count; j--)
			s->reason[j] = s->reason[j - 1];
		s->reason[j] = tmp;
	}
}

static uint64_t tech_conns(const struct tech_stats *t)
{
	return t->clnt_v1 + t->clnt_v2 + t->srv_v1 + t->srv_v2;
}

static void print_json_hist(const char *key, const uint64_t *hist)
{
	int i;

	open_json_object(key);
	for (i = 0; i < NR_BUCKETS; i++)
		print_u64(PRINT_JSON, bucket_key[i], NULL, hist[i]);
	close_json_object();
}

static void print_json_rmb(const char *key, const uint64_t *rmb)
{
	open_json_object(key);
	print_u64(PRINT_JSON, "full", NULL, rmb[SMC_NLA_STATS_RMB_FULL_CNT]);
	print_u64(PRINT_JSON, "full_peer", NULL,
		  rmb[SMC_NLA_STATS_RMB_FULL_PEER_CNT]);
	print_u64(PRINT_JSON, "too_small", NULL,
		  rmb[SMC_NLA_STATS_RMB_SIZE_SM_CNT]);
	print_u64(PRINT_JSON, "too_small_peer", NULL,
		  rmb[SMC_NLA_STATS_RMB_SIZE_SM_PEER_CNT]);
	print_u64(PRINT_JSON, "alloc", NULL, rmb[SMC_NLA_STATS_RMB_ALLOC_CNT]);
	print_u64(PRINT_JSON, "reuse", NULL, rmb[SMC_NLA_STATS_RMB_REUSE_CNT]);
	print_u64(PRINT_JSON, "downgrade", NULL,
		  rmb[SMC_NLA_STATS_RMB_DGRADE_CNT]);
	close_json_object();
}

static void print_json_role(const char *key, uint64_t v1, uint64_t v2)
{
	open_json_object(key);
	print_u64(PRINT_JSON, "v1_success", NULL, v1);
	print_u64(PRINT_JSON, "v2_success", NULL, v2);
	print_u64(PRINT_JSON, "success", NULL, v1 + v2);
	close_json_object();
}

static void print_json_tech(const char *key, const struct tech_stats *t)
{
	open_json_object(key);
	print_u64(PRINT_JSON, "connections", NULL, tech_conns(t));
	print_json_role("client", t->clnt_v1, t->clnt_v2);
	print_json_role("server", t->srv_v1, t->srv_v2);
	print_u64(PRINT_JSON, "v1_success", NULL, t->clnt_v1 + t->srv_v1);
	print_u64(PRINT_JSON, "v2_success", NULL, t->clnt_v2 + t->srv_v2);
	print_u64(PRINT_JSON, "rx_bytes", NULL, t->rx_bytes);
	print_u64(PRINT_JSON, "tx_bytes", NULL, t->tx_bytes);
	print_u64(PRINT_JSON, "rx_requests", NULL, t->rx_cnt);
	print_u64(PRINT_JSON, "tx_requests", NULL, t->tx_cnt);
	print_u64(PRINT_JSON, "rx_buffer_bytes_in_use", NULL, t->rx_rmbuse);
	print_u64(PRINT_JSON, "tx_buffer_bytes_in_use", NULL, t->tx_rmbuse);
	print_json_rmb("rx_buffer", t->rmb_rx);
	print_json_rmb("tx_buffer", t->rmb_tx);
	print_json_hist("rx_buffer_sizes", t->hist[H_RX_BUF]);
	print_json_hist("tx_buffer_sizes", t->hist[H_TX_BUF]);
	print_json_hist("rx_request_sizes", t->hist[H_RX_PLOAD]);
	print_json_hist("tx_request_sizes", t->hist[H_TX_PLOAD]);
	open_json_object("special_calls");
	print_u64(PRINT_JSON, "cork", NULL, t->cork);
	print_u64(PRINT_JSON, "nodelay", NULL, t->ndly);
	print_u64(PRINT_JSON, "sendpage", NULL, t->sendpage);
	print_u64(PRINT_JSON, "splice", NULL, t->splice);
	print_u64(PRINT_JSON, "urgent_data", NULL, t->urg);
	close_json_object();
	close_json_object();
}

static void print_json(const struct stats *s)
{
	const struct fback_reason *r;
	const char *name;
	char code[16];
	unsigned int i;

	open_json_object(NULL);
	print_json_tech("smcd", &s->smcd);
	print_json_tech("smcr", &s->smcr);
	open_json_object("handshake_errors");
	print_u64(PRINT_JSON, "client", NULL, s->clnt_hs_err);
	print_u64(PRINT_JSON, "server", NULL, s->srv_hs_err);
	print_u64(PRINT_JSON, "total", NULL, s->clnt_hs_err + s->srv_hs_err);
	close_json_object();
	open_json_object("fallback");
	print_u64(PRINT_JSON, "client", NULL, s->fback_clnt);
	print_u64(PRINT_JSON, "server", NULL, s->fback_srv);
	print_u64(PRINT_JSON, "total", NULL, s->fback_clnt + s->fback_srv);
	open_json_array(PRINT_JSON, "reasons");
	for (i = 0; i < s->nr_reasons; i++) {
		r = &s->reason[i];
		name = smc_decline_name(r->code);
		open_json_object(NULL);
		print_string(PRINT_JSON, "role", NULL,
			     r->server ? "server" : "client");
		snprintf(code, sizeof(code), "0x%08x", r->code);
		print_string(PRINT_JSON, "code", NULL, code);
		if (name)
			print_string(PRINT_JSON, "name", NULL, name);
		else
			print_null(PRINT_JSON, "name", NULL, NULL);
		print_uint(PRINT_JSON, "count", NULL, r->count);
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
	close_json_object();
	close_json_object();
}

/* " (4.00 MiB)" for @bytes >= 1024, else "" */
static const char *human(uint64_t bytes, char *buf, size_t size)
{
	static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB",
					    "PiB", "EiB" };
	double v = bytes;
	int i = -1;

	if (bytes < 1024)
		return "";
	while (v >= 1024 && i < 5) {
		v /= 1024;
		i++;
	}
	snprintf(buf, size, " (%.2f %s)", v, unit[i]);
	return buf;
}

static double percent(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * part / whole : 0.0;
}

#define ROW "  %-30s %14" PRIu64

static void print_text_hist(const char *label, const uint64_t *hist)
{
	int i;

	printf("    %-14s", label);
	for (i = 0; i < NR_BUCKETS; i++)
		printf(" %7" PRIu64, hist[i]);
	putchar('\n');
}

static void print_text_tech(const char *name, const struct tech_stats *t)
{
	uint64_t conns = tech_conns(t);
	char buf[32];
	int i;

	printf("%s\n", name);
	printf(ROW " (client %" PRIu64 ", server %" PRIu64 ")\n",
	       "Connections", conns, t->clnt_v1 + t->clnt_v2,
	       t->srv_v1 + t->srv_v2);
	printf(ROW " (client %" PRIu64 ", server %" PRIu64 ")\n",
	       "  v1", t->clnt_v1 + t->srv_v1, t->clnt_v1, t->srv_v1);
	printf(ROW " (client %" PRIu64 ", server %" PRIu64 ")\n",
	       "  v2", t->clnt_v2 + t->srv_v2, t->clnt_v2, t->srv_v2);
	printf("  %-30s %14.1f\n", "Avg requests per connection",
	       conns ? (double)(t->rx_cnt + t->tx_cnt) / conns : 0.0);
	printf(ROW "%s\n", "RX bytes", t->rx_bytes,
	       human(t->rx_bytes, buf, sizeof(buf)));
	printf(ROW "\n", "RX requests", t->rx_cnt);
	printf(ROW " (%.2f%%)\n", "RX buffer full",
	       t->rmb_rx[SMC_NLA_STATS_RMB_FULL_CNT],
	       percent(t->rmb_rx[SMC_NLA_STATS_RMB_FULL_CNT], t->rx_cnt));
	printf(ROW "%s\n", "TX bytes", t->tx_bytes,
	       human(t->tx_bytes, buf, sizeof(buf)));
	printf(ROW "\n", "TX requests", t->tx_cnt);
	printf(ROW " (%.2f%%)\n", "TX buffer full",
	       t->rmb_tx[SMC_NLA_STATS_RMB_FULL_CNT],
	       percent(t->rmb_tx[SMC_NLA_STATS_RMB_FULL_CNT], t->tx_cnt));
	printf(ROW " (%.2f%%)\n", "TX buffer full (remote)",
	       t->rmb_tx[SMC_NLA_STATS_RMB_FULL_PEER_CNT],
	       percent(t->rmb_tx[SMC_NLA_STATS_RMB_FULL_PEER_CNT], t->tx_cnt));
	printf(ROW " (%.2f%%)\n", "TX buffer too small",
	       t->rmb_tx[SMC_NLA_STATS_RMB_SIZE_SM_CNT],
	       percent(t->rmb_tx[SMC_NLA_STATS_RMB_SIZE_SM_CNT], t->tx_cnt));
	printf(ROW " (%.2f%%)\n", "TX buffer too small (remote)",
	       t->rmb_tx[SMC_NLA_STATS_RMB_SIZE_SM_PEER_CNT],
	       percent(t->rmb_tx[SMC_NLA_STATS_RMB_SIZE_SM_PEER_CNT],
		       t->tx_cnt));
	if (!show_details)
		return;
	printf(ROW "\n", "RX buffer downgrades",
	       t->rmb_rx[SMC_NLA_STATS_RMB_DGRADE_CNT]);
	printf(ROW "\n", "RX buffer reuses", t->rmb_rx[SMC_NLA_STATS_RMB_REUSE_CNT]);
	printf(ROW "\n", "TX buffer downgrades",
	       t->rmb_tx[SMC_NLA_STATS_RMB_DGRADE_CNT]);
	printf(ROW "\n", "TX buffer reuses", t->rmb_tx[SMC_NLA_STATS_RMB_REUSE_CNT]);
	printf(ROW "\n", "RX buffer bytes in use", t->rx_rmbuse);
	printf(ROW "\n", "TX buffer bytes in use", t->tx_rmbuse);
	printf("  %-14s", "Sizes");
	for (i = 0; i < NR_BUCKETS; i++)
		printf(" %7s", bucket_label[i]);
	putchar('\n');
	print_text_hist("RX buffers", t->hist[H_RX_BUF]);
	print_text_hist("RX requests", t->hist[H_RX_PLOAD]);
	print_text_hist("TX buffers", t->hist[H_TX_BUF]);
	print_text_hist("TX requests", t->hist[H_TX_PLOAD]);
	printf(ROW "\n", "Special socket calls",
	       t->cork + t->ndly + t->sendpage + t->splice + t->urg);
	printf(ROW "\n", "  cork", t->cork);
	printf(ROW "\n", "  nodelay", t->ndly);
	printf(ROW "\n", "  sendpage", t->sendpage);
	printf(ROW "\n", "  splice", t->splice);
	printf(ROW "\n", "  urgent data", t->urg);
}

static void print_text(const struct stats *s)
{
	uint64_t hs = s->clnt_hs_err + s->srv_hs_err;
	uint64_t fb = s->fback_clnt + s->fback_srv;
	const struct fback_reason *r;
	const char *name, *desc;
	unsigned int i;

	printf("%-32s %14" PRIu64 "\n", "Connections handled",
	       tech_conns(&s->smcd) + tech_conns(&s->smcr) + hs + fb);
	printf("\n");
	print_text_tech("SMC-D", &s->smcd);
	printf("\n");
	print_text_tech("SMC-R", &s->smcr);
	printf("\n");
	printf("%-32s %14" PRIu64 " (client %" PRIu64 ", server %" PRIu64 ")\n",
	       "Handshake errors", hs, s->clnt_hs_err, s->srv_hs_err);
	printf("%-32s %14" PRIu64 " (client %" PRIu64 ", server %" PRIu64 ")\n",
	       "TCP fallback", fb, s->fback_clnt, s->fback_srv);
	for (i = 0; i < s->nr_reasons; i++) {
		/* names and texts from the table shared with smc socket
		 * and the CLC decoder (smc_codes.c)
		 */
		r = &s->reason[i];
		name = smc_decline_name(r->code);
		desc = smc_decline_text(r->code);
		printf("  %-6s 0x%08x %-12s %14u  %s\n",
		       r->server ? "server" : "client", r->code,
		       name ? name : "?", r->count,
		       desc ? desc : "unknown reason");
	}
}

static int get_stats(struct smc_genl *g, struct stats *s)
{
	char req[SMC_GENL_REQ_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	int err;

	nlh = smc_genl_msg(g, req, SMC_NETLINK_GET_STATS, NLM_F_DUMP);
	err = smc_genl_talk(g, nlh, cb_stats, s);
	if (err == -EBADMSG)
		return 1;
	if (err == -EOPNOTSUPP)
		return smc_genl_error(g, 0,
				      "the running kernel has no SMC statistics (no SMC_NETLINK_GET_STATS)");
	if (err)
		return smc_genl_error(g, err, "cannot read the SMC statistics");
	if (!s->have_stats) {
		fprintf(stderr,
			"Error: the kernel sent no SMC statistics (out of memory?)\n");
		return 1;
	}

	nlh = smc_genl_msg(g, req, SMC_NETLINK_GET_FBACK_STATS, NLM_F_DUMP);
	err = smc_genl_talk(g, nlh, cb_fback, s);
	if (err == -EBADMSG)
		return 1;
	if (err)
		return smc_genl_error(g, err,
				      "cannot read the SMC fallback statistics");
	sort_reasons(s);
	return 0;
}

/* ---- smc stats reset: the counters of the last reset, kept in a file ---- */

/* Every counter a reset sets back to zero: all but the bytes in use,
 * which are a level, not a count
 */
#define MAX_COUNTERS 192

static void tech_counters(struct tech_stats *t, uint64_t **v, unsigned int *n)
{
	uint64_t *f[] = { &t->clnt_v1, &t->clnt_v2, &t->srv_v1, &t->srv_v2,
			  &t->rx_bytes, &t->tx_bytes, &t->rx_cnt, &t->tx_cnt,
			  &t->sendpage, &t->splice, &t->cork, &t->ndly,
			  &t->urg };
	unsigned int i, j;

	for (i = 0; i < ARRAY_SIZE(f); i++)
		v[(*n)++] = f[i];
	for (i = 0; i < NR_HIST; i++)
		for (j = 0; j < NR_BUCKETS; j++)
			v[(*n)++] = &t->hist[i][j];
	for (i = 0; i < NR_RMB; i++) {
		v[(*n)++] = &t->rmb_tx[i];
		v[(*n)++] = &t->rmb_rx[i];
	}
}

static unsigned int counters(struct stats *s, uint64_t **v)
{
	unsigned int n = 0;

	tech_counters(&s->smcd, v, &n);
	tech_counters(&s->smcr, v, &n);
	v[n++] = &s->clnt_hs_err;
	v[n++] = &s->srv_hs_err;
	v[n++] = &s->fback_clnt;
	v[n++] = &s->fback_srv;
	return n;
}

/* First line of the file: its format and the number of counters */
#define STATE_MAGIC "smc-dump stats reset state 1"

/* The file: $SMC_STATS_DIR or /tmp, named after the user and the network
 * namespace (its inode), as the counters are the namespace's
 */
static int state_path(char *buf, size_t size)
{
	const char *dir = getenv("SMC_STATS_DIR");
	struct stat st;

	if (stat("/proc/self/ns/net", &st)) {
		fprintf(stderr,
			"Error: cannot identify the network namespace (/proc/self/ns/net): %s\n",
			strerror(errno));
		return -1;
	}
	snprintf(buf, size, "%s/.smc-stats.u%u.net%lu",
		 dir && *dir ? dir : "/tmp", (unsigned int)getuid(),
		 (unsigned long)st.st_ino);
	return 0;
}

/* A reset state that cannot be used: an error for a reset, which needs
 * it; a warning for show, which then shows the kernel's counters (so that
 * another user's file in /tmp cannot make it fail)
 */
static void state_problem(bool reset, const char *path, const char *what)
{
	if (reset)
		fprintf(stderr, "Error: the reset state %s %s\n", path, what);
	else
		fprintf(stderr,
			"Warning: the reset state %s %s; the counters are the kernel's\n",
			path, what);
}

/* Open the file; only a regular file of ours, never through a symlink.
 * Returns the descriptor, -2 when there is none to use (for show), -1 on
 * an error (for a reset; printed).
 */
static int state_open(const char *path, bool reset)
{
	char what[128];
	struct stat st;
	int fd;

	/* O_NONBLOCK: a FIFO in its place must not hang us */
	fd = open(path, (reset ? O_RDWR | O_CREAT : O_RDONLY) | O_NOFOLLOW |
		  O_NONBLOCK | O_CLOEXEC, 0600);
	if (fd < 0) {
		if (errno == ENOENT && !reset)
			return -2;
		snprintf(what, sizeof(what), "cannot be opened: %s",
			 strerror(errno));
		state_problem(reset, path, what);
		return reset ? -1 : -2;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid()) {
		state_problem(reset, path, "is not a file of this user");
		close(fd);
		return reset ? -1 : -2;
	}
	if (flock(fd, reset ? LOCK_EX : LOCK_SH)) {
		snprintf(what, sizeof(what), "cannot be locked: %s",
			 strerror(errno));
		state_problem(reset, path, what);
		close(fd);
		return reset ? -1 : -2;
	}
	return fd;
}

/* Read the reset state into @b. Returns 0, 1 for an empty file (made by
 * the reset running now), or -1 for a malformed file.
 */
static int state_read(int fd, struct stats *b)
{
	uint64_t *v[MAX_COUNTERS];
	unsigned int n, nr, i, role, code, count;
	unsigned long long val;
	char line[128];
	FILE *f;
	int ret = -1;

	/* the offset is shared with @fd, which a reset writes later */
	if (lseek(fd, 0, SEEK_SET))
		return -1;
	f = fdopen(dup(fd), "r");
	if (!f)
		return -1;
	memset(b, 0, sizeof(*b));
	n = counters(b, v);
	if (!fgets(line, sizeof(line), f)) {
		ret = feof(f) ? 1 : -1;
		goto out;
	}
	if (sscanf(line, STATE_MAGIC " %u", &nr) != 1 || nr != n)
		goto out;
	for (i = 0; i < n; i++) {
		if (!fgets(line, sizeof(line), f) ||
		    sscanf(line, "c %llu", &val) != 1)
			goto out;
		*v[i] = val;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "r %u %x %u", &role, &code, &count) != 3 ||
		    role > 1 || b->nr_reasons == MAX_REASONS)
			goto out;
		b->reason[b->nr_reasons].server = role;
		b->reason[b->nr_reasons].code = code;
		b->reason[b->nr_reasons++].count = count;
	}
	ret = 0;
out:
	fclose(f);
	return ret;
}

static int state_write(int fd, const char *path, struct stats *s)
{
	uint64_t *v[MAX_COUNTERS];
	unsigned int n, i;
	FILE *f;
	int err;

	if (ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET))
		goto fail;
	f = fdopen(dup(fd), "w");
	if (!f)
		goto fail;
	n = counters(s, v);
	fprintf(f, STATE_MAGIC " %u\n", n);
	for (i = 0; i < n; i++)
		fprintf(f, "c %" PRIu64 "\n", *v[i]);
	for (i = 0; i < s->nr_reasons; i++)
		fprintf(f, "r %u 0x%08x %u\n", s->reason[i].server,
			s->reason[i].code, s->reason[i].count);
	err = ferror(f);
	if (fclose(f) || err)
		goto fail;
	return 0;
fail:
	fprintf(stderr, "Error: cannot write the reset state %s: %s\n", path,
		strerror(errno));
	return -1;
}

static struct fback_reason *find_reason(struct stats *s, bool server,
					uint32_t code)
{
	unsigned int i;

	for (i = 0; i < s->nr_reasons; i++)
		if (s->reason[i].server == server && s->reason[i].code == code)
			return &s->reason[i];
	return NULL;
}

/*
 * Subtract the counters of the last reset @b from @s. Returns false,
 * leaving @s alone, when a counter is below its value at the reset: the
 * counters started again (smc module reloaded, network namespace made
 * anew with the same inode) and the reset state is stale.
 */
static bool subtract(struct stats *s, struct stats *b)
{
	uint64_t *sv[MAX_COUNTERS], *bv[MAX_COUNTERS];
	struct fback_reason *r;
	unsigned int n, i, j;

	n = counters(s, sv);
	counters(b, bv);
	for (i = 0; i < n; i++)
		if (*sv[i] < *bv[i])
			return false;
	for (i = 0; i < b->nr_reasons; i++) {
		r = find_reason(s, b->reason[i].server, b->reason[i].code);
		if (b->reason[i].count && (!r || r->count < b->reason[i].count))
			return false;
	}
	for (i = 0; i < n; i++)
		*sv[i] -= *bv[i];
	for (i = 0; i < b->nr_reasons; i++) {
		r = find_reason(s, b->reason[i].server, b->reason[i].code);
		if (r)
			r->count -= b->reason[i].count;
	}
	/* reasons that did not happen since the reset are not shown */
	for (i = j = 0; i < s->nr_reasons; i++)
		if (s->reason[i].count)
			s->reason[j++] = s->reason[i];
	s->nr_reasons = j;
	return true;
}

/*
 * since_reset() - turn the kernel's counters @s into those since the last
 * reset of this user in this network namespace; with @reset, make the
 * kernel's counters @s the new reset state (after the caller printed).
 * Returns 0, or 1 with the error printed. *@fdp is the locked file for
 * the reset, to be written by reset_save().
 */
static int since_reset(struct stats *s, bool reset, int *fdp, char *path,
		       size_t size)
{
	static struct stats b;
	int fd, ret;

	*fdp = -1;
	if (state_path(path, size))
		return 1;
	fd = state_open(path, reset);
	if (fd == -2)
		return 0;
	if (fd < 0)
		return 1;
	if (show_absolute) {
		/* the kernel's counters as they are */
	} else if ((ret = state_read(fd, &b)) < 0) {
		fprintf(stderr,
			"Warning: ignoring the malformed reset state %s; the counters are the kernel's\n",
			path);
	} else if (ret == 0 && !subtract(s, &b)) {
		fprintf(stderr,
			"Warning: the counters are below those of the last reset (smc module reloaded?); they are the kernel's\n");
	}
	if (reset)
		*fdp = fd;
	else
		close(fd);
	return 0;
}

static int stats_run(bool reset, int argc, char **argv)
{
	static struct stats s, now;
	char path[512];
	struct smc_genl g;
	int ret, fd;

	if (argc > 0) {
		fprintf(stderr,
			"Error: unexpected argument \"%s\", try \"smc stats help\".\n",
			argv[0]);
		return EXIT_USAGE;
	}

	if (smc_genl_open(&g))
		return EXIT_FAIL;
	memset(&s, 0, sizeof(s));
	ret = get_stats(&g, &s);
	smc_genl_close(&g);
	if (ret)
		return ret;
	now = s;
	if (since_reset(&s, reset, &fd, path, sizeof(path)))
		return EXIT_FAIL;

	if (json) {
		new_json_obj(json, pretty);
		print_json(&s);
		delete_json_obj();
	} else {
		print_text(&s);
	}
	if (fd >= 0) {
		ret = state_write(fd, path, &now);
		close(fd);
		if (ret)
			return EXIT_FAIL;
	}
	return EXIT_OK;
}

static int stats_cmd_show(int argc, char **argv)
{
	return stats_run(false, argc, argv);
}

static int stats_cmd_reset(int argc, char **argv)
{
	return stats_run(true, argc, argv);
}

static const struct cmd stats_cmds[] = {
	{ "show", stats_cmd_show, 0 },
	{ "reset", stats_cmd_reset, CMD_EXACT },
	{ NULL, NULL, 0 },
};

/**
 * do_stats() - smc stats [ show | reset | help ]
 * @argc: number of arguments after "stats"
 * @argv: those arguments, argv[0] the command; none means show
 *
 * Prints the SMC statistics of the current network namespace: text, or
 * JSON under -j (names in smc-stats(8)). Counters count since the last reset
 * of this user in this namespace, or under -a (and without a reset)
 * since the namespace was created: byte counts in bytes, the others in
 * events. reset prints them, then makes the kernel's counters of now the
 * state of the reset.
 *
 * Return: 0 on success, 1 when the statistics cannot be read (SMC not in
 * the running kernel, netlink error, malformed answer) or the reset state
 * cannot be read or written, 2 on a usage error.
 */
int do_stats(int argc, char **argv)
{
	return cmd_select(stats_cmds, argc, argv, "stats", usage);
}

/* ---- smcd stats, smcr stats: smc-tools' format ---- */

/* smc-tools' names of the fallback reasons (its stats.c), else NULL */
static const char *tools_reason(uint32_t code)
{
	static const struct {
		uint32_t code;
		const char *name;
	} names[] = {
		{ 0x03010000, "PEER_NO_SMC" }, { 0x01010000, "MEMORY" },
		{ 0x02010000, "TIMEOUT_CL" }, { 0x02020000, "TIMEOUT_AL" },
		{ 0x03000000, "CNF_ERR" }, { 0x03020000, "IPSEC" },
		{ 0x03030000, "NOSMCDEV" }, { 0x03030001, "NOSMCDDEV" },
		{ 0x03030002, "NOSMCRDEV" }, { 0x03030003, "NOISM2SUPP" },
		{ 0x03030004, "NOV2EXT" }, { 0x05000000, "PEERDECL" },
		{ 0x04000000, "SYNCERR" }, { 0x030d0000, "MAX_DMB" },
		{ 0x030c0000, "VERSMISMAT" }, { 0x030b0000, "NOSRVLINK" },
		{ 0x03030006, "NOSEID" }, { 0x03030007, "NOSMCD2DEV" },
		{ 0x03040000, "MODEUNSUPP" }, { 0x03050000, "RMBE_EC" },
		{ 0x03060000, "OPTUNSUPP" }, { 0x03070000, "DIFFPREFIX" },
		{ 0x03080000, "GETVLANERR" }, { 0x03090000, "ISMVLANERR" },
		{ 0x030a0000, "NOACTLINK" }, { 0x03030005, "NOV2DEXT" },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(names); i++)
		if (names[i].code == code)
			return names[i].name;
	return "[unknown]";
}

/* 1000 to the power @n, as a double */
static double tools_pow1000(int n)
{
	double f = 1;

	while (n-- > 0)
		f *= 1000;
	return f;
}

/* 10 to the power @n (negative too), as a double */
static double tools_pow10(int n)
{
	double f = 1;

	for (; n > 0; n--)
		f *= 10;
	for (; n < 0; n++)
		f /= 10;
	return f;
}

static void tools_digs(int lead, int max, int *full, int *places)
{
	*full = lead % 3 ? lead % 3 : 3;
	*places = max - *full - 2;
	if (*places <= 0) {
		*places = 0;
		*full = max - 1;
	}
}

static void tools_mag(int lead, char *mag, double *factor)
{
	if (lead < 7) {
		*mag = 'K';
		*factor = 1000;
	} else if (lead < 10) {
		*mag = 'M';
		*factor = 1000000;
	} else if (lead < 13) {
		*mag = 'G';
		*factor = 1000000000;
	} else {
		*factor = tools_pow1000(lead / 3);
		*mag = lead < 16 ? 'T' : lead < 19 ? 'P' : '?';
	}
}

/*
 * tools_abbrev() - @num in at most 6 characters as smc-tools' util.c
 * get_abbreviated() writes it: up to 3 digits as they are, else a
 * number of 5 characters with K, M, G, T, P (powers of 1000)
 * @res: at least 7 bytes
 */
static const char *tools_abbrev(uint64_t num, char *res)
{
	const int max = 6;
	int full, places, lead;
	char tmp[32], mag;
	double factor;

	lead = snprintf(tmp, sizeof(tmp), "%lld", (long long)num);
	if (num < 1000) {
		snprintf(res, max + 1, "%" PRIu64, num);
		return res;
	}
	tools_digs(lead, max, &full, &places);
	tools_mag(lead, &mag, &factor);
	if (num / factor + 5 * tools_pow10(-1 - places) >=
	    tools_pow10(full)) {
		if (places > 0) {
			places--;
		} else {
			lead++;
			tools_digs(lead, max, &full, &places);
			tools_mag(lead, &mag, &factor);
		}
	}
	snprintf(res, max + 1, "%*.*f%c", max - 1, places, num / factor, mag);
	return res;
}

/* part of whole in percent, as smc-tools computes it (a float) */
static float tools_pct(uint64_t part, uint64_t whole)
{
	return whole ? (float)(part / (double)whole * 100) : 0;
}

static void tools_hist_line(const char *label, const uint64_t *h)
{
	char b[8][8];
	int i;

	for (i = 0; i < 7; i++)
		tools_abbrev(h[i], b[i]);
	/* the last column is above 512KB: 1024K and more */
	tools_abbrev(h[7] + h[8], b[7]);
	printf("  %s   %6s  %6s  %6s  %6s  %6s  %6s  %6s  %6s\n", label,
	       b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]);
}

static void tools_reasons(const struct stats *s, bool server)
{
	unsigned int i, n = 0;

	/* already biggest count first, kernel order among equals */
	for (i = 0; i < s->nr_reasons && n < 3; i++) {
		const struct fback_reason *r = &s->reason[i];

		if (r->server != server || !r->code)
			continue;
		if (!n)
			printf("    %s\n", server ? "Server" : "Client");
		printf("     %-12s            %12d\n", tools_reason(r->code),
		       (int)r->count);
		n++;
	}
}

static void tools_text(const struct stats *s, bool smcd, bool detail)
{
	const struct tech_stats *t = smcd ? &s->smcd : &s->smcr;
	uint64_t conns = t->clnt_v1 + t->clnt_v2 + t->srv_v1 + t->srv_v2;
	uint64_t hs = s->clnt_hs_err + s->srv_hs_err;
	uint64_t fb = s->fback_clnt + s->fback_srv;
	uint64_t special = t->cork + t->ndly + t->sendpage + t->splice +
			   t->urg;
	float avg = conns ? (float)((t->rx_cnt + t->tx_cnt) / (double)conns) :
			    0;
	char b[8];

	printf("SMC-%c Connections Summary\n", smcd ? 'D' : 'R');
	printf("  Total connections handled  %12" PRIu64 "\n", conns + hs + fb);
	if (detail) {
		printf("  SMC connections            %12" PRIu64 " (client %" PRIu64 ", server %" PRIu64 ")\n",
		       conns, t->clnt_v1 + t->clnt_v2, t->srv_v1 + t->srv_v2);
		printf("    v1                       %12" PRIu64 "\n",
		       t->clnt_v1 + t->srv_v1);
		printf("    v2                       %12" PRIu64 "\n",
		       t->clnt_v2 + t->srv_v2);
		printf("  Handshake errors           %12" PRIu64 " (client %" PRIu64 ", server %" PRIu64 ")\n",
		       hs, s->clnt_hs_err, s->srv_hs_err);
	} else {
		printf("  SMC connections            %12" PRIu64 "\n", conns);
		printf("  Handshake errors           %12" PRIu64 "\n", hs);
	}
	printf("  Avg requests per SMC conn  %14.1f\n", avg);
	if (detail) {
		printf("  TCP fallback               %12" PRIu64 " (client %" PRIu64 ", server %" PRIu64 ")\n",
		       fb, s->fback_clnt, s->fback_srv);
		tools_reasons(s, true);
		tools_reasons(s, false);
	} else {
		printf("  TCP fallback               %12" PRIu64 "\n", fb);
	}

	printf("\nRX Stats\n");
	printf("  Data transmitted (Bytes) %14" PRIu64 " (%s)\n", t->rx_bytes,
	       tools_abbrev(t->rx_bytes, b));
	printf("  Total requests             %12" PRIu64 "\n", t->rx_cnt);
	printf("  Buffer usage (Bytes)       %12" PRIu64 " (%s)\n", t->rx_rmbuse,
	       tools_abbrev(t->rx_rmbuse, b));
	printf("  Buffer full                %12" PRIu64 " (%.2f%%)\n",
	       t->rmb_rx[SMC_NLA_STATS_RMB_FULL_CNT],
	       tools_pct(t->rmb_rx[SMC_NLA_STATS_RMB_FULL_CNT], t->rx_cnt));
	if (detail) {
		printf("  Buffer downgrades          %12" PRIu64 "\n",
		       t->rmb_rx[SMC_NLA_STATS_RMB_DGRADE_CNT]);
		printf("  Buffer reuses              %12" PRIu64 "\n",
		       t->rmb_rx[SMC_NLA_STATS_RMB_REUSE_CNT]);
	}
	printf("            8KB    16KB    32KB    64KB   128KB   256KB   512KB  >512KB\n");
	tools_hist_line("Bufs", t->hist[H_RX_BUF]);
	tools_hist_line("Reqs", t->hist[H_RX_PLOAD]);

	printf("\nTX Stats\n");
	printf("  Data transmitted (Bytes) %14" PRIu64 " (%s)\n", t->tx_bytes,
	       tools_abbrev(t->tx_bytes, b));
	printf("  Total requests             %12" PRIu64 "\n", t->tx_cnt);
	printf("  Buffer usage (Bytes)       %12" PRIu64 " (%s)\n", t->tx_rmbuse,
	       tools_abbrev(t->tx_rmbuse, b));
	printf("  Buffer full                %12" PRIu64 " (%.2f%%)\n",
	       t->rmb_tx[SMC_NLA_STATS_RMB_FULL_CNT],
	       tools_pct(t->rmb_tx[SMC_NLA_STATS_RMB_FULL_CNT], t->tx_cnt));
	printf("  Buffer full (remote)       %12" PRIu64 " (%.2f%%)\n",
	       t->rmb_tx[SMC_NLA_STATS_RMB_FULL_PEER_CNT],
	       tools_pct(t->rmb_tx[SMC_NLA_STATS_RMB_FULL_PEER_CNT], t->tx_cnt));
	printf("  Buffer too small           %12" PRIu64 " (%.2f%%)\n",
	       t->rmb_tx[SMC_NLA_STATS_RMB_SIZE_SM_CNT],
	       tools_pct(t->rmb_tx[SMC_NLA_STATS_RMB_SIZE_SM_CNT], t->tx_cnt));
	printf("  Buffer too small (remote)  %12" PRIu64 " (%.2f%%)\n",
	       t->rmb_tx[SMC_NLA_STATS_RMB_SIZE_SM_PEER_CNT],
	       tools_pct(t->rmb_tx[SMC_NLA_STATS_RMB_SIZE_SM_PEER_CNT],
			 t->tx_cnt));
	if (detail) {
		printf("  Buffer downgrades          %12" PRIu64 "\n",
		       t->rmb_tx[SMC_NLA_STATS_RMB_DGRADE_CNT]);
		printf("  Buffer reuses              %12" PRIu64 "\n",
		       t->rmb_tx[SMC_NLA_STATS_RMB_REUSE_CNT]);
	}
	printf("            8KB    16KB    32KB    64KB   128KB   256KB   512KB  >512KB\n");
	tools_hist_line("Bufs", t->hist[H_TX_BUF]);
	tools_hist_line("Reqs", t->hist[H_TX_PLOAD]);

	printf("\nExtras\n");
	printf("  Special socket calls       %12" PRIu64 "\n", special);
	if (detail) {
		printf("    cork                     %12" PRIu64 "\n", t->cork);
		printf("    nodelay                  %12" PRIu64 "\n", t->ndly);
		printf("    sendpage                 %12" PRIu64 "\n", t->sendpage);
		printf("    splice                   %12" PRIu64 "\n", t->splice);
		printf("    urgent data              %12" PRIu64 "\n", t->urg);
	}
}

/* smc-tools' one-line JSON: its 65 names in the order of its struct */
static void tools_json(const struct stats *s, bool smcd)
{
	static const char *const hist_name[] = {
		"SMC_INT_TX_BUF", "SMC_INT_RX_BUF", "SMC_USR_TX_BUF",
		"SMC_USR_RX_BUF",
	};
	static const enum hist hist_of[] = {
		H_TX_BUF, H_RX_BUF, H_TX_PLOAD, H_RX_PLOAD,
	};
	static const char *const bucket[NR_BUCKETS] = {
		"8K", "16K", "32K", "64K", "128K", "256K", "512K", "1024K",
		"G_1024K",
	};
	static const char *const rmb_name[] = {
		[SMC_NLA_STATS_RMB_SIZE_SM_PEER_CNT] = "SIZE_SM_PEER_CNT",
		[SMC_NLA_STATS_RMB_SIZE_SM_CNT] = "SIZE_SM_CNT",
		[SMC_NLA_STATS_RMB_FULL_PEER_CNT] = "FULL_PEER_CNT",
		[SMC_NLA_STATS_RMB_FULL_CNT] = "FULL_CNT",
		[SMC_NLA_STATS_RMB_REUSE_CNT] = "REUSE_CNT",
		[SMC_NLA_STATS_RMB_ALLOC_CNT] = "ALLOC_CNT",
		[SMC_NLA_STATS_RMB_DGRADE_CNT] = "DGRADE_CNT",
	};
	const struct tech_stats *t = smcd ? &s->smcd : &s->smcr;
	const struct {
		const char *name;
		uint64_t v;
	} last[] = {
		{ "SMC_CLNT_V1_SUCC_CNT", t->clnt_v1 },
		{ "SMC_CLNT_V2_SUCC_CNT", t->clnt_v2 },
		{ "SMC_SRV_V1_SUCC_CNT", t->srv_v1 },
		{ "SMC_SRV_V2_SUCC_CNT", t->srv_v2 },
		{ "SMC_SENDPAGE_CNT", t->sendpage },
		{ "SMC_URG_DATA_CNT", t->urg },
		{ "SMC_SPLICE_CNT", t->splice },
		{ "SMC_CORK_CNT", t->cork },
		{ "SMC_NDLY_CNT", t->ndly },
		{ "SMC_RX_BYTES", t->rx_bytes },
		{ "SMC_TX_BYTES", t->tx_bytes },
		{ "SMC_RX_CNT", t->rx_cnt },
		{ "SMC_TX_CNT", t->tx_cnt },
		{ "SMC_RX_RMB_USAGE", t->rx_rmbuse },
		{ "SMC_TX_RMB_USAGE", t->tx_rmbuse },
	};
	unsigned int i, j;

	printf("{\"%s\": {", smcd ? "SMCD" : "SMCR");
	for (i = 0; i < ARRAY_SIZE(hist_of); i++)
		for (j = 0; j < NR_BUCKETS; j++)
			printf("\"%s_%s\":%" PRIu64 ",", hist_name[i], bucket[j],
			       t->hist[hist_of[i]][j]);
	for (i = 0; i < 2; i++)
		for (j = SMC_NLA_STATS_RMB_SIZE_SM_PEER_CNT;
		     j <= SMC_NLA_STATS_RMB_DGRADE_CNT; j++)
			printf("\"SMC_INT_%s_BUF_%s\":%" PRIu64 ",",
			       i ? "RX" : "TX", rmb_name[j],
			       i ? t->rmb_rx[j] : t->rmb_tx[j]);
	for (i = 0; i < ARRAY_SIZE(last); i++)
		printf("\"%s\":%" PRIu64 "%s", last[i].name, last[i].v,
		       i + 1 < ARRAY_SIZE(last) ? "," : "");
	printf("}}\n");
}

int smc_stats_tools(bool smcd, int detail, bool absolute, int argc,
		    char **argv)
{
	static struct stats s, now;
	bool reset = false, as_json = false;
	struct smc_genl g;
	char path[512];
	int ret, fd;

	/* one word at most: show, reset or json (any prefix) */
	if (argc > 1)
		goto usage;
	if (argc == 1) {
		const char *w = argv[0];
		size_t n = strlen(w);

		if (n && !strncmp(w, "help", n))
			goto usage;
		else if (n && !strncmp(w, "show", n))
			;
		else if (n && !strncmp(w, "reset", n))
			reset = true;
		else if (n && !strncmp(w, "json", n))
			as_json = true;
		else
			goto usage;
	}

	/*
	 * smc-tools' smcd and smcr exit 1 when the SMC family cannot be
	 * opened (main()'s gen_nl_open(), before any command); its stats
	 * exits 0 also when the kernel's answer cannot be had
	 */
	if (smc_genl_open(&g))
		return 1;
	memset(&s, 0, sizeof(s));
	ret = get_stats(&g, &s);
	smc_genl_close(&g);
	if (ret)
		return EXIT_OK;
	now = s;
	show_absolute = absolute;
	if (since_reset(&s, reset, &fd, path, sizeof(path)))
		return EXIT_OK;
	if (as_json)
		tools_json(&s, smcd);
	else
		tools_text(&s, smcd, detail);
	if (fd >= 0) {
		state_write(fd, path, &now);
		close(fd);
	}
	return EXIT_OK;
usage:
	fprintf(stderr, "Usage: %s stats [show | reset]\n",
		smcd ? "smcd" : "smcr");
	return 255;
}
