// SPDX-License-Identifier: GPL-2.0
/*
 * linkgroup.c - smc linkgroup: the SMC-R and SMC-D link groups of the
 * kernel and the links of the SMC-R ones, as smc-tools' smcr linkgroup and
 * smcd linkgroup show them. The kernel side is net/smc/smc_core.c:
 * SMC_NETLINK_GET_LINK_SMCR answers with one SMC_GEN_LGR_SMCR message per
 * link group, each followed by one SMC_GEN_LINK_SMCR message per usable
 * link of it; SMC_NETLINK_GET_LGR_SMCD with one SMC_GEN_LGR_SMCD message
 * per SMC-D link group.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/smc.h>

#include "device.h"
#include "genl.h"
#include "json_print.h"
#include "nla.h"
#include "smc.h"

/* Attributes newer than Debian 12's uapi header (Linux 6.1): the values
 * of Linux 6.12's include/uapi/linux/smc.h
 */
#define LGR_R_V2_MAX_CONNS	(SMC_NLA_LGR_R_V2_DIRECT + 1)
#define LGR_R_V2_MAX_LINKS	(SMC_NLA_LGR_R_V2_DIRECT + 2)
#define LGR_R_SNDBUF_ALLOC	(SMC_NLA_LGR_R_BUF_TYPE + 1)
#define LGR_R_RMB_ALLOC		(SMC_NLA_LGR_R_BUF_TYPE + 2)
#define LGR_D_EXT_GID		(SMC_NLA_LGR_D_V2_COMMON + 1)
#define LGR_D_PEER_EXT_GID	(SMC_NLA_LGR_D_V2_COMMON + 2)
#define LGR_D_SNDBUF_ALLOC	(SMC_NLA_LGR_D_V2_COMMON + 3)
#define LGR_D_DMB_ALLOC		(SMC_NLA_LGR_D_V2_COMMON + 4)

#define GID_LEN 40	/* 8 groups of 4 hex digits and 7 colons, NUL */

struct link {
	uint64_t id, state, conns, ibport, ifindex;
	uint32_t uid, peer_uid;	/* as the kernel's u8[4], in wire order */
	char ibdev[64];
	char gid[GID_LEN], peer_gid[GID_LEN];
};

#define LGR_MAX_LINKS 3	/* kernel: SMC_LINKS_PER_LGR_MAX */

struct lgr {
	bool smcd;
	uint32_t id;
	uint64_t role, type, vlan, conns;
	char pnetid[17];
	/* SMC v2 (the V2_COMMON nest) */
	bool v2;
	uint64_t version, peer_rel, peer_os;
	char peer_host[SMC_MAX_HOSTNAME_LEN + 1];
	char eid[SMC_MAX_EID_LEN + 1];
	/* SMC-R v2 */
	bool r_v2;
	uint64_t direct, max_conns, max_links;
	/* buffers allocated, Linux 6.8 and later */
	bool have_alloc;
	uint64_t sndbuf_alloc, rmb_alloc;
	/* SMC-D */
	uint64_t gid, peer_gid, gid_ext, peer_gid_ext, chid;
	unsigned int nr_links;
	struct link link[LGR_MAX_LINKS];
};

struct lgr_list {
	struct lgr *lgr;
	unsigned int n, size;
	bool extra_links;	/* a link beyond LGR_MAX_LINKS was dropped */
};

struct filter {
	struct smc_dev_filter dev;	/* type, netdev, ibdev */
	bool links;		/* link-show */
	bool have_id;
	uint32_t id;
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: smc [ -j [ -p ] ] [ -d ] linkgroup [ { show | link-show } ] [ all | LG-ID ]\n"
		"              [ type { smcd | smcr } ] [ netdev NETDEV ] [ ibdev IBDEV ]\n"
		"       smc linkgroup help\n"
		"LG-ID is the link group id in hex, as shown.\n");
}

static struct lgr *new_lgr(struct lgr_list *l)
{
	struct lgr *n;

	if (l->n == l->size) {
		l->size = l->size ? 2 * l->size : 16;
		n = realloc(l->lgr, l->size * sizeof(*n));
		if (!n)
			return NULL;
		l->lgr = n;
	}
	n = &l->lgr[l->n++];
	memset(n, 0, sizeof(*n));
	return n;
}

static int parse_v2_common(const struct nlattr *nest, struct lgr *g)
{
	const struct nlattr *tb[NLA_TABLE_MAX + 1];

	nla_table(nest, tb);
	g->v2 = true;
	nla_uint(tb[SMC_NLA_LGR_V2_VER], &g->version);
	nla_uint(tb[SMC_NLA_LGR_V2_REL], &g->peer_rel);
	nla_uint(tb[SMC_NLA_LGR_V2_OS], &g->peer_os);
	if (!nla_str(tb[SMC_NLA_LGR_V2_PEER_HOST], g->peer_host,
		     sizeof(g->peer_host)) ||
	    !nla_str(tb[SMC_NLA_LGR_V2_NEG_EID], g->eid, sizeof(g->eid)))
		return -1;
	return 0;
}

static int parse_lgr_r(const struct nlattr *top, struct lgr *g)
{
	const struct nlattr *tb[NLA_TABLE_MAX + 1], *v2[NLA_TABLE_MAX + 1];
	uint64_t v;

	nla_table(top, tb);
	if (nla_uint(tb[SMC_NLA_LGR_R_ID], &v))
		return -1;
	g->id = v;
	nla_uint(tb[SMC_NLA_LGR_R_ROLE], &g->role);
	nla_uint(tb[SMC_NLA_LGR_R_TYPE], &g->type);
	nla_uint(tb[SMC_NLA_LGR_R_VLAN_ID], &g->vlan);
	nla_uint(tb[SMC_NLA_LGR_R_CONNS_NUM], &g->conns);
	if (!nla_str(tb[SMC_NLA_LGR_R_PNETID], g->pnetid, sizeof(g->pnetid)))
		return -1;
	g->have_alloc = !nla_uint(tb[LGR_R_SNDBUF_ALLOC], &g->sndbuf_alloc);
	nla_uint(tb[LGR_R_RMB_ALLOC], &g->rmb_alloc);
	g->version = 1;
	if (tb[SMC_NLA_LGR_R_V2_COMMON] &&
	    parse_v2_common(tb[SMC_NLA_LGR_R_V2_COMMON], g))
		return -1;
	if (tb[SMC_NLA_LGR_R_V2]) {
		nla_table(tb[SMC_NLA_LGR_R_V2], v2);
		g->r_v2 = true;
		nla_uint(v2[SMC_NLA_LGR_R_V2_DIRECT], &g->direct);
		nla_uint(v2[LGR_R_V2_MAX_CONNS], &g->max_conns);
		nla_uint(v2[LGR_R_V2_MAX_LINKS], &g->max_links);
	}
	return 0;
}

static int parse_link(const struct nlattr *top, struct link *k)
{
	const struct nlattr *tb[NLA_TABLE_MAX + 1];
	uint64_t v;

	nla_table(top, tb);
	nla_uint(tb[SMC_NLA_LINK_ID], &k->id);
	nla_uint(tb[SMC_NLA_LINK_STATE], &k->state);
	nla_uint(tb[SMC_NLA_LINK_CONN_CNT], &k->conns);
	nla_uint(tb[SMC_NLA_LINK_IB_PORT], &k->ibport);
	nla_uint(tb[SMC_NLA_LINK_NET_DEV], &k->ifindex);
	/* the kernel copies the u8[4] uid into a u32 of host order */
	nla_uint(tb[SMC_NLA_LINK_UID], &v);
	k->uid = ntohl((uint32_t)v);
	nla_uint(tb[SMC_NLA_LINK_PEER_UID], &v);
	k->peer_uid = ntohl((uint32_t)v);
	if (!nla_str(tb[SMC_NLA_LINK_IB_DEV], k->ibdev, sizeof(k->ibdev)) ||
	    !nla_str(tb[SMC_NLA_LINK_GID], k->gid, sizeof(k->gid)) ||
	    !nla_str(tb[SMC_NLA_LINK_PEER_GID], k->peer_gid,
		     sizeof(k->peer_gid)))
		return -1;
	return 0;
}

static int cb_smcr(const struct nlmsghdr *nlh, void *data)
{
	struct lgr_list *l = data;
	const struct nlattr *top;
	struct lgr *g;

	top = nla_top(nlh, SMC_GEN_LGR_SMCR);
	if (top) {
		g = new_lgr(l);
		if (!g)
			return nla_bad("answer (out of memory)");
		if (parse_lgr_r(top, g))
			return nla_bad("SMC-R link group");
		return MNL_CB_OK;
	}
	top = nla_top(nlh, SMC_GEN_LINK_SMCR);
	if (!top)
		return MNL_CB_OK;
	if (!l->n)
		return nla_bad("SMC-R link (before any link group)");
	g = &l->lgr[l->n - 1];
	if (g->nr_links == LGR_MAX_LINKS) {
		l->extra_links = true;
		return MNL_CB_OK;
	}
	if (parse_link(top, &g->link[g->nr_links]))
		return nla_bad("SMC-R link");
	g->nr_links++;
	return MNL_CB_OK;
}

static int cb_smcd(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NLA_TABLE_MAX + 1];
	struct lgr_list *l = data;
	const struct nlattr *top;
	struct lgr *g;
	uint64_t v;

	top = nla_top(nlh, SMC_GEN_LGR_SMCD);
	if (!top)
		return MNL_CB_OK;
	g = new_lgr(l);
	if (!g)
		return nla_bad("answer (out of memory)");
	g->smcd = true;
	g->version = 1;
	nla_table(top, tb);
	if (nla_uint(tb[SMC_NLA_LGR_D_ID], &v))
		return nla_bad("SMC-D link group");
	g->id = v;
	nla_uint(tb[SMC_NLA_LGR_D_GID], &g->gid);
	nla_uint(tb[SMC_NLA_LGR_D_PEER_GID], &g->peer_gid);
	nla_uint(tb[LGR_D_EXT_GID], &g->gid_ext);
	nla_uint(tb[LGR_D_PEER_EXT_GID], &g->peer_gid_ext);
	nla_uint(tb[SMC_NLA_LGR_D_VLAN_ID], &g->vlan);
	nla_uint(tb[SMC_NLA_LGR_D_CONNS_NUM], &g->conns);
	nla_uint(tb[SMC_NLA_LGR_D_CHID], &g->chid);
	g->have_alloc = !nla_uint(tb[LGR_D_SNDBUF_ALLOC], &g->sndbuf_alloc);
	nla_uint(tb[LGR_D_DMB_ALLOC], &g->rmb_alloc);
	if (!nla_str(tb[SMC_NLA_LGR_D_PNETID], g->pnetid, sizeof(g->pnetid)))
		return nla_bad("SMC-D link group");
	if (tb[SMC_NLA_LGR_D_V2_COMMON] &&
	    parse_v2_common(tb[SMC_NLA_LGR_D_V2_COMMON], g))
		return nla_bad("SMC-D link group");
	return MNL_CB_OK;
}

/* ---- names ---- */

static const char *role_text(uint64_t r)
{
	return r ? "SERV" : "CLNT";
}

static const char *lgr_type(uint64_t t, char *buf, size_t size)
{
	static const char *const names[] = {
		"NONE", "SINGLE", "SYM", "ASYMP", "ASYML",
	};

	if (t < sizeof(names) / sizeof(names[0]))
		return names[t];
	snprintf(buf, size, "%#" PRIx64 "?", t);
	return buf;
}

static const char *link_state(uint64_t s, char *buf, size_t size)
{
	static const char *const names[] = {
		"LINK_UNUSED", "LINK_INACTIVE", "LINK_ACTIVATING",
		"LINK_ACTIVE",
	};

	if (s < sizeof(names) / sizeof(names[0]))
		return names[s];
	snprintf(buf, size, "%#" PRIx64 "?", s);
	return buf;
}

static const char *peer_os(uint64_t os, char *buf, size_t size)
{
	switch (os) {
	case 1:
		return "ZOS";
	case 2:
		return "LINUX";
	case 3:
		return "AIX";
	}
	snprintf(buf, size, "unknown (%#" PRIx64 ")", os);
	return buf;
}

/* ---- filters ---- */

static bool link_matches(const struct link *k, const struct filter *f)
{
	char name[32];

	if (f->dev.ibdev && strcmp(f->dev.ibdev, k->ibdev))
		return false;
	if (f->dev.netdev &&
	    strcmp(f->dev.netdev, nla_ifname(k->ifindex, name, sizeof(name))))
		return false;
	return true;
}

static bool lgr_matches(const struct lgr *g, const struct filter *f)
{
	unsigned int i;

	if (f->have_id && g->id != f->id)
		return false;
	if (!f->dev.netdev && !f->dev.ibdev)
		return true;
	for (i = 0; i < g->nr_links; i++)
		if (link_matches(&g->link[i], f))
			return true;
	return false;
}

/* ---- output ---- */

static void json_hex(const char *key, uint64_t v, int width)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%0*" PRIx64, width, v);
	print_string(PRINT_JSON, key, NULL, buf);
}

static void json_str_or_null(const char *key, const char *s)
{
	if (s[0])
		print_string(PRINT_JSON, key, NULL, s);
	else
		print_null(PRINT_JSON, key, NULL, NULL);
}

static void json_link(const struct link *k)
{
	char buf[32];

	print_uint(PRINT_JSON, "link_id", NULL, k->id);
	print_string(PRINT_JSON, "state", NULL,
		     link_state(k->state, buf, sizeof(buf)));
	print_u64(PRINT_JSON, "connections", NULL, k->conns);
	print_string(PRINT_JSON, "ifname", NULL,
		     nla_ifname(k->ifindex, buf, sizeof(buf)));
	print_uint(PRINT_JSON, "interface", NULL, k->ifindex);
	json_hex("link_uid", k->uid, 8);
	json_hex("peer_link_uid", k->peer_uid, 8);
	print_string(PRINT_JSON, "ibdev", NULL, k->ibdev);
	print_uint(PRINT_JSON, "ibport", NULL, k->ibport);
	print_string(PRINT_JSON, "gid", NULL, k->gid);
	print_string(PRINT_JSON, "peer_gid", NULL, k->peer_gid);
}

static void json_lgr_head(const struct lgr *g)
{
	char buf[32];

	print_string(PRINT_JSON, "mode", NULL, g->smcd ? "SMC-D" : "SMC-R");
	json_hex("id", g->id, 8);
	if (!g->smcd) {
		print_string(PRINT_JSON, "role", NULL,
			     g->role ? "server" : "client");
		print_string(PRINT_JSON, "type", NULL,
			     lgr_type(g->type, buf, sizeof(buf)));
	}
}

static void json_lgr(const struct lgr *g, const struct filter *f)
{
	char buf[32];
	unsigned int i;

	open_json_object(NULL);
	json_lgr_head(g);
	print_uint(PRINT_JSON, "vlan", NULL, g->vlan);
	print_u64(PRINT_JSON, "connections", NULL, g->conns);
	json_str_or_null("pnetid", g->pnetid);
	print_uint(PRINT_JSON, "version", NULL, g->version);
	if (g->v2) {
		print_uint(PRINT_JSON, "peer_release", NULL, g->peer_rel);
		print_string(PRINT_JSON, "peer_os", NULL,
			     peer_os(g->peer_os, buf, sizeof(buf)));
		json_str_or_null("peer_hostname", g->peer_host);
		json_str_or_null("eid", g->eid);
	}
	if (g->r_v2) {
		print_bool(PRINT_JSON, "direct", NULL, g->direct);
		print_uint(PRINT_JSON, "max_connections", NULL, g->max_conns);
		print_uint(PRINT_JSON, "max_links", NULL, g->max_links);
	}
	if (g->have_alloc) {
		print_u64(PRINT_JSON, "sndbuf_alloc", NULL, g->sndbuf_alloc);
		print_u64(PRINT_JSON, g->smcd ? "dmb_alloc" : "rmb_alloc",
			  NULL, g->rmb_alloc);
	}
	if (g->smcd) {
		json_hex("gid", g->gid, 16);
		json_hex("gid_ext", g->gid_ext, 16);
		json_hex("peer_gid", g->peer_gid, 16);
		json_hex("peer_gid_ext", g->peer_gid_ext, 16);
		json_hex("chid", g->chid, 4);
	} else {
		open_json_array(PRINT_JSON, "links");
		for (i = 0; i < g->nr_links; i++) {
			if (!link_matches(&g->link[i], f))
				continue;
			open_json_object(NULL);
			json_link(&g->link[i]);
			close_json_object();
		}
		close_json_array(PRINT_JSON, NULL);
	}
	close_json_object();
}

/* -d: the details of a link group on the lines after its row */
static void print_details(const struct lgr *g)
{
	char buf[32];

	if (g->smcd)
		printf("    gid 0x%016" PRIx64 " gid_ext 0x%016" PRIx64
		       " peer_gid 0x%016" PRIx64 " peer_gid_ext 0x%016" PRIx64
		       " chid 0x%04" PRIx64 "\n", g->gid, g->gid_ext,
		       g->peer_gid, g->peer_gid_ext, g->chid);
	printf("    version %" PRIu64, g->version);
	if (g->v2)
		printf(" peer_release %" PRIu64 " peer_os %s peer_host %s eid %s",
		       g->peer_rel, peer_os(g->peer_os, buf, sizeof(buf)),
		       g->peer_host[0] ? g->peer_host : "-",
		       g->eid[0] ? g->eid : "-");
	if (g->r_v2)
		printf(" direct %s max_conns %" PRIu64 " max_links %" PRIu64,
		       g->direct ? "yes" : "no", g->max_conns, g->max_links);
	if (g->have_alloc)
		printf(" sndbuf_alloc %" PRIu64 " %s %" PRIu64, g->sndbuf_alloc,
		       g->smcd ? "dmb_alloc" : "rmb_alloc", g->rmb_alloc);
	putchar('\n');
}

static void print_smcr_lgrs(const struct lgr_list *l, const struct filter *f,
			    bool title)
{
	const struct lgr *g;
	char buf[32];
	unsigned int i;

	if (title)
		printf("SMC-R link groups\n");
	printf("%-8s  %-7s  %-7s  %4s  %6s  %s\n", "LG-ID", "LG-Role",
	       "LG-Type", "VLAN", "#Conns", "PNET-ID");
	for (i = 0; i < l->n; i++) {
		g = &l->lgr[i];
		if (!lgr_matches(g, f))
			continue;
		printf("%08x  %-7s  %-7s  %4" PRIu64 "  %6" PRIu64 "  %s\n",
		       g->id, role_text(g->role),
		       lgr_type(g->type, buf, sizeof(buf)), g->vlan, g->conns,
		       g->pnetid[0] ? g->pnetid : "-");
		if (show_details)
			print_details(g);
	}
}

static void print_smcd_lgrs(const struct lgr_list *l, const struct filter *f,
			    bool title)
{
	const struct lgr *g;
	unsigned int i;

	if (title)
		printf("SMC-D link groups\n");
	printf("%-8s  %4s  %6s  %s\n", "LG-ID", "VLAN", "#Conns", "PNET-ID");
	for (i = 0; i < l->n; i++) {
		g = &l->lgr[i];
		if (!lgr_matches(g, f))
			continue;
		printf("%08x  %4" PRIu64 "  %6" PRIu64 "  %s\n", g->id, g->vlan,
		       g->conns, g->pnetid[0] ? g->pnetid : "-");
		if (show_details)
			print_details(g);
	}
}

static void print_links(const struct lgr_list *l, const struct filter *f)
{
	char type[32], state[32], ifname[32];
	const struct link *k;
	const struct lgr *g;
	unsigned int i, j;

	if (!json)
		printf("%-8s  %-7s  %-7s  %-15s  %-15s  %6s  %-8s  %-8s  %-8s  %4s  %-39s  %s\n",
		       "LG-ID", "LG-Role", "LG-Type", "Net-Dev", "Link-State",
		       "#Conns", "Link-UID", "Peer-UID", "IB-Dev", "IB-P",
		       "Local-GID", "Peer-GID");
	for (i = 0; i < l->n; i++) {
		g = &l->lgr[i];
		if (f->have_id && g->id != f->id)
			continue;
		for (j = 0; j < g->nr_links; j++) {
			k = &g->link[j];
			if (!link_matches(k, f))
				continue;
			if (json) {
				open_json_object(NULL);
				json_lgr_head(g);
				json_link(k);
				close_json_object();
				continue;
			}
			printf("%08x  %-7s  %-7s  %-15s  %-15s  %6" PRIu64 "  %08x  %08x  %-8s  %4" PRIu64 "  %-39s  %s\n",
			       g->id, role_text(g->role),
			       lgr_type(g->type, type, sizeof(type)),
			       nla_ifname(k->ifindex, ifname, sizeof(ifname)),
			       link_state(k->state, state, sizeof(state)),
			       k->conns, k->uid, k->peer_uid, k->ibdev,
			       k->ibport, k->gid, k->peer_gid);
		}
	}
}

/* ---- arguments ---- */

static int parse_id(const char *arg, uint32_t *id)
{
	uint32_t v;

	if (!strncmp(arg, "0x", 2) || !strncmp(arg, "0X", 2))
		arg += 2;
	if (strlen(arg) > 8 || get_u32(&v, arg, 16))
		return -1;
	*id = v;
	return 0;
}

static int parse_args(int argc, char **argv, struct filter *f)
{
	bool selected = false;
	int ret;

	f->dev.smcd = f->dev.smcr = true;
	for (; argc > 0; argc--, argv++) {
		ret = smc_dev_filter_arg(&argc, &argv, &f->dev, "linkgroup");
		if (ret > 0)
			return ret;
		if (!ret)
			continue;
		if (!strcmp(argv[0], "all")) {
			if (selected)
				return duparg("LG-ID", argv[0]);
			selected = true;
		} else {
			if (selected)
				return duparg("LG-ID", argv[0]);
			if (parse_id(argv[0], &f->id)) {
				fprintf(stderr,
					"Error: \"%s\" is neither a keyword nor a link group id (up to 8 hex digits), try \"smc linkgroup help\".\n",
					argv[0]);
				return EXIT_USAGE;
			}
			selected = true;
			f->have_id = true;
		}
	}
	/* links, net devices and IB devices: SMC-R only */
	if (f->links || f->dev.netdev || f->dev.ibdev) {
		if (!f->dev.smcr) {
			fprintf(stderr,
				"Error: link-show, netdev and ibdev are for SMC-R link groups, not type smcd.\n");
			return EXIT_USAGE;
		}
		f->dev.smcd = false;
	}
	return 0;
}

/*
 * smc_linkgroup_version() - the SMC version of a connection's link group,
 * for smc check: the SMC-D link group @q->linkgroup_id, or the SMC-R link
 * group with the link sock_diag showed (device, port, link ID and both
 * GIDs). Sets *@version to 1 or 2, 0 when there is no such link group.
 * Returns 0, or 1 after an error message.
 */
int smc_linkgroup_version(const struct smc_sock_state *q,
			  unsigned int *version)
{
	struct lgr_list l = { 0 };
	const struct link *k;
	struct smc_genl g;
	unsigned int i, j;
	int ret;

	*version = 0;
	if (smc_genl_open(&g))
		return 1;
	if (q->have_dmb)
		ret = nla_dump(&g, SMC_NETLINK_GET_LGR_SMCD, cb_smcd, &l,
			       "the SMC-D link groups");
	else
		ret = nla_dump(&g, SMC_NETLINK_GET_LINK_SMCR, cb_smcr, &l,
			       "the SMC-R link groups");
	smc_genl_close(&g);
	for (i = 0; !ret && !*version && i < l.n; i++) {
		const struct lgr *lg = &l.lgr[i];

		if (q->have_dmb) {
			if (lg->id == q->linkgroup_id)
				*version = lg->version;
			continue;
		}
		for (j = 0; j < lg->nr_links; j++) {
			k = &lg->link[j];
			if (k->id == q->link_id && k->ibport == q->ibport &&
			    !strcmp(k->ibdev, q->ibdev) &&
			    !strcmp(k->gid, q->gid) &&
			    !strcmp(k->peer_gid, q->peer_gid))
				*version = lg->version;
		}
	}
	free(l.lgr);
	return ret ? 1 : 0;
}

/* @links: link-show, else show; @argv: [ all | LG-ID ] and the filter */
static int lgr_run(bool links, int argc, char **argv)
{
	struct lgr_list smcr = { 0 }, smcd = { 0 };
	struct filter f = { .links = links };
	struct smc_genl g;
	unsigned int i;
	int ret;

	ret = parse_args(argc, argv, &f);
	if (ret)
		return ret;

	if (smc_genl_open(&g))
		return EXIT_FAIL;
	ret = 0;
	if (f.dev.smcr)
		ret = nla_dump(&g, SMC_NETLINK_GET_LINK_SMCR, cb_smcr, &smcr,
			       "the SMC-R link groups");
	if (!ret && f.dev.smcd)
		ret = nla_dump(&g, SMC_NETLINK_GET_LGR_SMCD, cb_smcd, &smcd,
			       "the SMC-D link groups");
	smc_genl_close(&g);
	if (ret)
		goto out;
	if (smcr.extra_links)
		fprintf(stderr,
			"Warning: the kernel sent more than %d links for a link group; the others are not shown\n",
			LGR_MAX_LINKS);

	new_json_obj(json, pretty);
	if (f.links) {
		print_links(&smcr, &f);
	} else if (json) {
		for (i = 0; f.dev.smcr && i < smcr.n; i++)
			if (lgr_matches(&smcr.lgr[i], &f))
				json_lgr(&smcr.lgr[i], &f);
		for (i = 0; f.dev.smcd && i < smcd.n; i++)
			if (lgr_matches(&smcd.lgr[i], &f))
				json_lgr(&smcd.lgr[i], &f);
	} else {
		if (f.dev.smcr)
			print_smcr_lgrs(&smcr, &f, f.dev.smcd);
		if (f.dev.smcr && f.dev.smcd)
			putchar('\n');
		if (f.dev.smcd)
			print_smcd_lgrs(&smcd, &f, f.dev.smcr);
	}
	delete_json_obj();
out:
	free(smcr.lgr);
	free(smcd.lgr);
	return ret ? EXIT_FAIL : EXIT_OK;
}

static int lgr_cmd_show(int argc, char **argv)
{
	return lgr_run(false, argc, argv);
}

static int lgr_cmd_link_show(int argc, char **argv)
{
	return lgr_run(true, argc, argv);
}

/* any other first word is an LG-ID or a filter keyword of show */
static const struct cmd lgr_cmds[] = {
	{ "show", lgr_cmd_show, 0 },
	{ "link-show", lgr_cmd_link_show, CMD_EXACT },
	{ NULL, lgr_cmd_show, 0 },
};

/**
 * do_linkgroup() - smc linkgroup [ show | link-show ] [ all | LG-ID ]
 * [ type TYPE ] [ netdev NETDEV ] [ ibdev IBDEV ] | help
 * @argc: number of arguments after "linkgroup"
 * @argv: those arguments
 *
 * Return: 0, 1 when the link groups cannot be read, 2 on a usage error.
 */
int do_linkgroup(int argc, char **argv)
{
	return cmd_select(lgr_cmds, argc, argv, "linkgroup", usage);
}

/* ---- smcd linkgroup, smcr linkgroup: smc-tools' format ---- */

static void tools_lgr_usage(bool smcd)
{
	if (smcd)
		fprintf(stderr,
			"Usage: smcd linkgroup [show] [all | LG-ID]\n");
	else
		fprintf(stderr,
			"Usage: smcr linkgroup [show | link-show] [all | LG-ID]\n"
			"                                         [ibdev <dev>]\n"
			"                                         [netdev <dev>]\n");
}

/* smc-tools' contains() == 0: @p is a non-empty prefix of @word */
static bool tools_prefix(const char *p, const char *word)
{
	return *p && !strncmp(p, word, strlen(p));
}

/* a blank padded string without its blanks at either end, as smc-tools'
 * trim_space() (into @buf)
 */
static const char *tools_trim(const char *s, char *buf, size_t size)
{
	size_t len;

	while (*s == ' ')
		s++;
	snprintf(buf, size, "%s", s);
	len = strlen(buf);
	while (len && buf[len - 1] == ' ')
		buf[--len] = '\0';
	return buf;
}

/* a link's net device as smc-tools shows it: "" when it has none */
static const char *tools_ifname(uint32_t ifindex, char *buf)
{
	if (!ifindex || !if_indextoname(ifindex, buf))
		buf[0] = '\0';
	return buf;
}

struct tools_lgr_filter {
	bool links;
	bool have_id;		/* an LG-ID was given (not 0) */
	uint32_t id;		/* as strtol() read it, 0xffffffff: no digits */
	bool id_digits;
	const char *ibdev, *netdev;
};

/* smc-tools' filter of an SMC-R row (@k: the link of link-show) */
static bool tools_smcr_hidden(const struct lgr *g, const struct link *k,
			      const struct tools_lgr_filter *f)
{
	char name[IF_NAMESIZE];

	if (!f->ibdev && !f->netdev && !f->have_id)
		return false;
	if (f->netdev && f->links)
		return strcmp(f->netdev, tools_ifname(k->ifindex, name));
	if (f->ibdev && f->links)
		return strcmp(f->ibdev, k->ibdev);
	if (f->have_id)
		/* the link number in the low byte is ignored; without
		 * digits smc-tools compares with 0
		 */
		return g->id != (f->id_digits ? f->id & 0xffffff00 : 0);
	return false;
}

static void tools_details(const struct lgr *g, bool *first)
{
	char buf[SMC_MAX_HOSTNAME_LEN + 1], os[32];

	if (!*first)
		putchar('\n');
	*first = false;
	printf("LG-ID    : %08x\n", g->id);
	if (!g->smcd) {
		printf("LG-Role  : %s\n", role_text(g->role));
		printf("LG-Type  : %s\n", lgr_type(g->type, os, sizeof(os)));
	}
	printf("VLAN     : %x\n", (unsigned int)g->vlan);
	printf("PNET-ID  : %s\n", tools_trim(g->pnetid, buf, sizeof(buf)));
	printf("Version  : %d\n", g->v2 ? (int)g->version : 1);
	if (g->v2) {
		printf("Peer-Rel : %d\n", (int)g->peer_rel);
		printf("Peer-Host: %s\n",
		       tools_trim(g->peer_host, buf, sizeof(buf)));
		/* smc-tools capitalizes "Unknown" here */
		if (g->peer_os >= 1 && g->peer_os <= 3)
			printf("Peer-OS  : %s\n", peer_os(g->peer_os, os,
							   sizeof(os)));
		else
			printf("Peer-OS  : Unknown (%#x)\n",
			       (unsigned int)g->peer_os);
		if (!g->smcd)
			printf("Direct   : %s\n", g->direct ? "Yes" : "No");
		/* as sent: the kernel's 32 characters, blank padded */
		if (g->eid[0])
			printf("EID      : %-32s\n", g->eid);
		else
			printf("EID      : \n");
	}
	printf("#Conns   : %d\n", (int)g->conns);
	printf("Sndbuf   : %lld B\n", (long long)g->sndbuf_alloc);
	printf("%s      : %lld B\n", g->smcd ? "DMB" : "RMB",
	       (long long)g->rmb_alloc);
}

static void tools_print(const struct lgr_list *l, bool smcd, int detail,
			const struct tools_lgr_filter *f)
{
	char buf[32], name[IF_NAMESIZE], pnet[24];
	bool first = true;
	unsigned int i, j;

	/* smc-tools prints its header with the kernel's first message */
	if (l->n && smcd && detail < 1)
		printf("LG-ID    VLAN  #Conns  PNET-ID \n");
	if (l->n && !smcd && f->links)
		printf("LG-ID    LG-Role  LG-Type  Net-Dev         Link-State      #Conns  %s%s\n",
		       detail >= 1 ? "Link-UID  Peer-UID  IB-Dev    IB-P  " : "",
		       detail >= 2 ? "Local-GID                                 Peer-GID  " : "");
	else if (l->n && !smcd && detail < 1)
		printf("LG-ID    LG-Role  LG-Type  VLAN  #Conns  PNET-ID \n");

	for (i = 0; i < l->n; i++) {
		const struct lgr *g = &l->lgr[i];

		if (smcd) {
			if (f->have_id && g->id != f->id)
				continue;
			if (detail >= 1) {
				tools_details(g, &first);
				continue;
			}
			printf("%08x %#4x  %6d  %-16s \n", g->id,
			       (unsigned int)g->vlan, (int)g->conns,
			       tools_trim(g->pnetid, pnet, sizeof(pnet)));
			continue;
		}
		if (!f->links) {
			if (tools_smcr_hidden(g, NULL, f))
				continue;
			if (detail >= 1) {
				tools_details(g, &first);
				continue;
			}
			printf("%08x %-8s %-8s %#4x  %6d  %-16s \n", g->id,
			       role_text(g->role),
			       lgr_type(g->type, buf, sizeof(buf)),
			       (unsigned int)g->vlan, (int)g->conns,
			       tools_trim(g->pnetid, pnet, sizeof(pnet)));
			continue;
		}
		for (j = 0; j < g->nr_links; j++) {
			const struct link *k = &g->link[j];

			if (tools_smcr_hidden(g, k, f))
				continue;
			printf("%08x %-8s ", g->id, role_text(g->role));
			printf("%-8s ", lgr_type(g->type, buf, sizeof(buf)));
			printf("%-15.15s ", tools_ifname(k->ifindex, name));
			printf("%-15s ", link_state(k->state, buf,
						    sizeof(buf)));
			printf("%6d  ", (int)k->conns);
			if (detail >= 1) {
				printf("%08x  %08x  ", k->uid, k->peer_uid);
				printf("%-8.8s  ", k->ibdev);
				printf("%4d  ", (int)k->ibport);
			}
			if (detail >= 2)
				printf("%-40s  %s  ", k->gid, k->peer_gid);
			putchar('\n');
		}
	}
}

int smc_linkgroup_tools(bool smcd, int detail, int argc, char **argv)
{
	char req[SMC_GENL_REQ_SIZE] __attribute__((aligned(4)));
	struct tools_lgr_filter f = { 0 };
	struct lgr_list l = { 0 };
	struct nlmsghdr *nlh;
	bool all = false;
	struct smc_genl g;
	int ret;

	if ((argc == 1 && tools_prefix(argv[0], "help")) || argc > 4)
		goto usage;
	if (argc > 0 && tools_prefix(argv[0], "show")) {
		argc--;
		argv++;
	} else if (argc > 0 && tools_prefix(argv[0], "link-show")) {
		/* smcd takes it too, and shows its link groups */
		f.links = true;
		argc--;
		argv++;
	}
	while (argc > 0) {
		if (tools_prefix(argv[0], "help"))
			goto usage;
		if (tools_prefix(argv[0], "all")) {
			all = true;
			argc--;
			argv++;
			continue;
		}
		if (!smcd && (tools_prefix(argv[0], "ibdev") ||
			      tools_prefix(argv[0], "netdev"))) {
			/* without a name, smc-tools filters nothing */
			if (argc > 1 && tools_prefix(argv[0], "ibdev"))
				f.ibdev = argv[1];
			else if (argc > 1)
				f.netdev = argv[1];
			argc -= argc > 1 ? 2 : 1;
			argv += 2;
			break;
		}
		if (!all) {
			char *end;
			unsigned long v = strtoul(argv[0], &end, 16);

			f.id_digits = end != argv[0];
			f.id = f.id_digits ? (uint32_t)v : 0xffffffff;
			f.have_id = f.id != 0;
			argc--;
			argv++;
			break;
		}
		goto usage;
	}
	if (argc > 0)
		goto usage;

	if (smc_genl_open(&g))
		return 1;
	nlh = smc_genl_msg(&g, req, smcd ? SMC_NETLINK_GET_LGR_SMCD :
			   f.links ? SMC_NETLINK_GET_LINK_SMCR :
			   SMC_NETLINK_GET_LGR_SMCR, NLM_F_DUMP);
	ret = smc_genl_talk(&g, nlh, smcd ? cb_smcd : cb_smcr, &l);
	smc_genl_close(&g);
	/* as smc-tools' gen_nl_handle() */
	if (ret == -EOPNOTSUPP)
		fprintf(stderr, "Error: Operation not supported by kernel\n");
	else if (ret && ret != -EBADMSG)
		fprintf(stderr, "Error: %s\n", smc_tools_nlerr(ret));
	if (!ret)
		tools_print(&l, smcd, detail, &f);
	free(l.lgr);
	return ret ? 255 : 0;
usage:
	tools_lgr_usage(smcd);
	return 255;
}
