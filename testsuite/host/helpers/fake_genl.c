// SPDX-License-Identifier: GPL-2.0
/*
 * fake_genl.c - test double for lib/genl.c (not shipped)
 *
 * The host kernel has no SMC, so the host tests link the smc command with
 * this file in place of lib/genl.c: the socket part of genl.h
 * (smc_genl_open(), _open_family(), _close(), _talk()). Requests are built and errors
 * printed by the real lib/genl_msg.c. It answers like
 * net/smc/smc_clc.c and smc_stats.c of Linux 6.12 would, from state given
 * in environment variables:
 *
 *   SMC_FAKE_TABLE  file with the UEID table, one entry a line as 64 hex
 *                   digits (the 32 bytes the kernel keeps); add, del,
 *                   flush and show work on it with the kernel's checks
 *                   (size 33 with NUL, smc_clc_ueid_valid(), EEXIST,
 *                   ERANGE above 4 entries, ENOENT)
 *   SMC_FAKE_LOG    file to append one line per request to:
 *                   "CMD flags=0xFLAGS [attr=TYPE len=LEN hex=HEX]"
 *   SMC_FAKE_UNPRIV set: ADD, REMOVE and FLUSH fail with EPERM as for a
 *                   caller without CAP_NET_ADMIN
 *   SMC_FAKE_ERR    "CMD:ERRNO": requests of command CMD (e.g. ADD_UEID)
 *                   fail with errno ERRNO (a number)
 *   SMC_FAKE_EXTACK extack message that comes with every answer
 *   SMC_FAKE_STATS  blank separated NAME=VALUE: counters of GET_STATS,
 *                   NAME as smcd.CLNT_V2_SUCC, smcr.TX_RMB_STATS.FULL_CNT,
 *                   smcd.RXPLOAD_SIZE.G_1024K, CLNT_HS_ERR_CNT (the suffixes
 *                   of the uapi names); all others are 0
 *   SMC_FAKE_FBACK  blank separated: srv_cnt=N clnt_cnt=N and reasons
 *                   ROLE:CODE:COUNT with ROLE srv or clnt
 *
 * The objects info, device and linkgroup: records separated by ';', each
 * blank separated KEY=VALUE (no blanks in values; numbers as strtoull()
 * reads them, base 0). A key that is not given is not sent, except where
 * the kernel always sends it (then 0 or ""); unknown keys are bad input.
 *   SMC_FAKE_SYSINFO   one record of GET_SYS_INFO: ver rel ism_v2 smcr_v2
 *                      host seid (unset: no answer at all)
 *   SMC_FAKE_DEV_SMCD  GET_DEV_SMCD: use fid chid vendor device pci_id
 *                      pnetid usr
 *   SMC_FAKE_DEV_SMCR  GET_DEV_SMCR: ibname crit fid chid vendor device
 *                      pci_id (no fid: no PCI attributes, as for soft-RoCE)
 *                      and per port N (1 or 2, a port is sent if
 *                      pN.netdev is given) pN.pnetid pN.usr pN.netdev
 *                      pN.state pN.links
 *   SMC_FAKE_LGR_SMCR  GET_LGR_SMCR and GET_LINK_SMCR: id role type vlan
 *                      conns pnetid sndbuf rmb, ver (2: the v2 nests with
 *                      rel os host eid direct max_conns max_links), and
 *                      links N (1..3, sent by GET_LINK_SMCR if lN.ibdev is
 *                      given): lN.id lN.state lN.conns lN.ibdev lN.port
 *                      lN.netdev lN.uid lN.peer_uid (the uid's 4 bytes as
 *                      a big-endian number) lN.gid lN.peer_gid
 *   SMC_FAKE_LGR_SMCD  GET_LGR_SMCD: id gid ext_gid peer_gid peer_ext_gid
 *                      vlan conns chid sndbuf dmb pnetid, ver (2: the v2
 *                      nest with rel os host eid)
 *
 * The family SMC_PNETID (net/smc/smc_pnet.c), for smc pnet:
 *   SMC_FAKE_PNET      file with the PNET table, one entry a line:
 *                      "PNETID eth IFNAME" or "PNETID ib IBDEV PORT"
 *                      ("PNETID bad": an answer with the name only, which
 *                      no kernel sends);
 *                      GET (dump, or one PNET ID), ADD, DEL and FLUSH work
 *                      on it with the kernel's policy and checks (EINVAL,
 *                      EEXIST for an interface or device with an entry,
 *                      ENOENT, port 1..2)
 *   SMC_FAKE_PNET_HW   blank separated names of interfaces and devices
 *                      with a PNET ID of their hardware: ADD fails with
 *                      EEXIST for them
 *   SMC_FAKE_INIT_NET  the initial network namespace as readlink
 *                      /proc/self/ns/net shows it: running in another one
 *                      (smc -n) means the table file SMC_FAKE_PNET.netns,
 *                      and the kernel's rules for other namespaces (no IB
 *                      entries: not added, not listed)
 * SMC_FAKE_ERR and SMC_FAKE_UNPRIV apply to it too, with the command
 * names PNETID_GET, PNETID_ADD, PNETID_DEL, PNETID_FLUSH.
 *
 * The system EID (DUMP_SEID, ENABLE_SEID, DISABLE_SEID), as
 * net/smc/smc_clc.c of Linux 6.12 to 7.3 answers:
 *   SMC_FAKE_SEID       the system EID of a machine with ISM v2, up to 32
 *                       characters (sent blank padded to 32); unset: no
 *                       ISM v2, the dump answers one empty message
 *   SMC_FAKE_S390       set: a kernel with CONFIG_S390: the SEID starts
 *                       enabled, ENABLE works, DISABLE works while the
 *                       UEID table has an entry (else ENOENT), and
 *                       removing the last UEID enables it (EAGAIN);
 *                       unset: it starts disabled, ENABLE and DISABLE
 *                       fail with EOPNOTSUPP
 *   SMC_FAKE_SEID_STATE file with "0" or "1": whether the SEID is enabled,
 *                       kept across runs (missing: the start value)
 *
 * PNET IDs, host names and EIDs are sent blank padded to their fixed
 * kernel size (16, 32, 32), as the kernel copies them.
 *
 * Bad test input makes it exit with status 99.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/smc.h>

/*
 * Linux 6.12 include/uapi/linux/smc.h: SMC_NLA_STATS_T_RX_RMB_USAGE and
 * _TX_RMB_USAGE are 20 and 21 (SMC_NLA_STATS_T_TX_CNT is 19). Spelled out
 * here, independently of smc/stats.c, because Debian 12's 6.1 uapi
 * headers do not have them.
 */
#define FAKE_T_RX_RMB_USAGE	20
#define FAKE_T_TX_RMB_USAGE	21
_Static_assert(SMC_NLA_STATS_T_TX_CNT == 19, "SMC_NLA_STATS_T_ numbering");

#include "genl.h"

#define MAX_UEID 4
#define EID_LEN 32

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("fake_genl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(99);
}

/* family ids the fake hands out */
#define FAKE_FAMILY_SMC		0x77
#define FAKE_FAMILY_PNET	0x78

static const char *cmd_name(uint16_t family, unsigned int cmd)
{
	static const char *const pnet_names[] = {
		[SMC_PNETID_GET] = "PNETID_GET",
		[SMC_PNETID_ADD] = "PNETID_ADD",
		[SMC_PNETID_DEL] = "PNETID_DEL",
		[SMC_PNETID_FLUSH] = "PNETID_FLUSH",
	};
	static const char *const names[] = {
		[SMC_NETLINK_GET_SYS_INFO] = "GET_SYS_INFO",
		[SMC_NETLINK_GET_LGR_SMCR] = "GET_LGR_SMCR",
		[SMC_NETLINK_GET_LINK_SMCR] = "GET_LINK_SMCR",
		[SMC_NETLINK_GET_LGR_SMCD] = "GET_LGR_SMCD",
		[SMC_NETLINK_GET_DEV_SMCD] = "GET_DEV_SMCD",
		[SMC_NETLINK_GET_DEV_SMCR] = "GET_DEV_SMCR",
		[SMC_NETLINK_GET_STATS] = "GET_STATS",
		[SMC_NETLINK_GET_FBACK_STATS] = "GET_FBACK_STATS",
		[SMC_NETLINK_DUMP_UEID] = "DUMP_UEID",
		[SMC_NETLINK_ADD_UEID] = "ADD_UEID",
		[SMC_NETLINK_REMOVE_UEID] = "REMOVE_UEID",
		[SMC_NETLINK_FLUSH_UEID] = "FLUSH_UEID",
		[SMC_NETLINK_DUMP_SEID] = "DUMP_SEID",
		[SMC_NETLINK_ENABLE_SEID] = "ENABLE_SEID",
		[SMC_NETLINK_DISABLE_SEID] = "DISABLE_SEID",
	};

	if (family == FAKE_FAMILY_PNET) {
		if (cmd < sizeof(pnet_names) / sizeof(pnet_names[0]) &&
		    pnet_names[cmd])
			return pnet_names[cmd];
		return "PNETID_OTHER";
	}
	if (cmd < sizeof(names) / sizeof(names[0]) && names[cmd])
		return names[cmd];
	return "OTHER";
}

int smc_genl_open_family(struct smc_genl *g, const char *name)
{
	memset(g, 0, sizeof(*g));
	if (!strcmp(name, SMC_GENL_FAMILY_NAME))
		g->family = FAKE_FAMILY_SMC;
	else if (!strcmp(name, SMCR_GENL_FAMILY_NAME))
		g->family = FAKE_FAMILY_PNET;
	else
		die("unknown family %s", name);
	g->portid = 4242;
	g->seq = 1;
	return 0;
}

int smc_genl_open(struct smc_genl *g)
{
	return smc_genl_open_family(g, SMC_GENL_FAMILY_NAME);
}

void smc_genl_close(struct smc_genl *g)
{
	g->nl = NULL;
}

/* ---- the UEID table, as net/smc/smc_clc.c keeps it ---- */

static char table[MAX_UEID + 1][EID_LEN];
static int nr_table;

static void table_load(void)
{
	const char *path = getenv("SMC_FAKE_TABLE");
	char line[256];
	FILE *f;
	int i;

	nr_table = 0;
	if (!path)
		return;
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (nr_table > MAX_UEID)
			die("table too long");
		for (i = 0; i < EID_LEN; i++) {
			unsigned int b;

			if (sscanf(line + 2 * i, "%2x", &b) != 1)
				die("bad table line");
			table[nr_table][i] = (char)b;
		}
		nr_table++;
	}
	fclose(f);
}

static void table_save(void)
{
	const char *path = getenv("SMC_FAKE_TABLE");
	FILE *f;
	int i, j;

	if (!path)
		die("SMC_FAKE_TABLE is not set");
	f = fopen(path, "w");
	if (!f)
		die("cannot write %s", path);
	for (i = 0; i < nr_table; i++) {
		for (j = 0; j < EID_LEN; j++)
			fprintf(f, "%02x", (unsigned char)table[i][j]);
		fputc('\n', f);
	}
	fclose(f);
}

/* smc_clc_ueid_valid() of Linux 6.12 (ASCII ctype, as the C locale) */
static int kernel_ueid_valid(const char *ueid)
{
	const char *end = ueid + EID_LEN;

	while (--end >= ueid && isspace((unsigned char)*end))
		;
	if (end < ueid)
		return 0;
	if (!isalnum((unsigned char)*ueid) || islower((unsigned char)*ueid))
		return 0;
	while (ueid <= end) {
		if ((!isalnum((unsigned char)*ueid) ||
		     islower((unsigned char)*ueid)) &&
		    *ueid != '.' && *ueid != '-')
			return 0;
		ueid++;
	}
	return 1;
}

static const struct nlattr *eid_attr(const struct nlmsghdr *nlh)
{
	const struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(attr) == SMC_NLA_EID_TABLE_ENTRY)
			return attr;
	return NULL;
}

static int ueid_add(const struct nlmsghdr *nlh)
{
	const struct nlattr *a = eid_attr(nlh);
	const char *eid;
	int i;

	/* policy NLA_STRING len 32, then smc_nl_add_ueid() */
	if (!a || mnl_attr_get_payload_len(a) != EID_LEN + 1)
		return -EINVAL;
	eid = mnl_attr_get_payload(a);
	if (!kernel_ueid_valid(eid))
		return -EINVAL;
	if (nr_table >= MAX_UEID)
		return -ERANGE;
	for (i = 0; i < nr_table; i++)
		if (!memcmp(table[i], eid, EID_LEN))
			return -EEXIST;
	memcpy(table[nr_table++], eid, EID_LEN);
	table_save();
	return 0;
}

/* ---- the system EID's state, smc_clc_eid_table.seid_enabled ---- */

static int seid_enabled(void)
{
	const char *path = getenv("SMC_FAKE_SEID_STATE");
	int v = getenv("SMC_FAKE_S390") != NULL;
	FILE *f;

	if (path && (f = fopen(path, "r"))) {
		if (fscanf(f, "%d", &v) != 1 || (v != 0 && v != 1))
			die("bad SMC_FAKE_SEID_STATE file");
		fclose(f);
	}
	return v;
}

static void seid_set(int v)
{
	const char *path = getenv("SMC_FAKE_SEID_STATE");
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "w");
	if (!f)
		die("cannot write %s", path);
	fprintf(f, "%d\n", v);
	fclose(f);
}

/* smc_nl_enable_seid(), smc_nl_disable_seid() */
static int seid_change(int enable)
{
	if (!getenv("SMC_FAKE_S390"))
		return -EOPNOTSUPP;
	if (!enable && !nr_table)
		return -ENOENT;
	seid_set(enable);
	return 0;
}

static int ueid_remove(const struct nlmsghdr *nlh, int all)
{
	const struct nlattr *a = eid_attr(nlh);
	const char *eid = NULL;
	int i, j, rc = -ENOENT;

	if (!all) {
		if (!a || mnl_attr_get_payload_len(a) != EID_LEN + 1)
			return -EINVAL;
		eid = mnl_attr_get_payload(a);
	}
	for (i = j = 0; i < nr_table; i++) {
		if (all || !memcmp(table[i], eid, EID_LEN)) {
			rc = 0;
			continue;
		}
		memmove(table[j++], table[i], EID_LEN);
	}
	nr_table = j;
	table_save();
	/* s390: the last UEID gone, the SEID is used again (-EAGAIN,
	 * which smc_nl_flush_ueid() ignores)
	 */
	if (!rc && !nr_table && getenv("SMC_FAKE_S390")) {
		seid_set(1);
		rc = -EAGAIN;
	}
	return all ? 0 : rc;
}

/* ---- the PNET table, as net/smc/smc_pnet.c of Linux 6.12 keeps it ---- */

#define PNETID_LEN	16	/* SMC_MAX_PNETID_LEN */
#define IFNAMSIZ_	16
#define IBNAME_MAX	64	/* IB_DEVICE_NAME_MAX */
#define MAX_PNET	64

struct pnet_entry {
	char pnetid[PNETID_LEN + 1];
	int ib;				/* SMC_PNET_IB, else SMC_PNET_ETH */
	char name[IBNAME_MAX + 1];
	unsigned int port;
};

static struct pnet_entry pnet[MAX_PNET];
static int nr_pnet;
static int pnet_init_net = 1;

static const char *pnet_path(void)
{
	static char path[4096];
	const char *p = getenv("SMC_FAKE_PNET");

	if (!p)
		die("SMC_FAKE_PNET is not set");
	snprintf(path, sizeof(path), "%s%s", p, pnet_init_net ? "" : ".netns");
	return path;
}

static void pnet_load(void)
{
	const char *init = getenv("SMC_FAKE_INIT_NET");
	char line[256], kind[8], link[128];
	ssize_t n;
	FILE *f;

	pnet_init_net = 1;
	if (init) {
		n = readlink("/proc/self/ns/net", link, sizeof(link) - 1);
		if (n < 0)
			die("cannot read /proc/self/ns/net");
		link[n] = '\0';
		pnet_init_net = !strcmp(link, init);
	}
	nr_pnet = 0;
	f = fopen(pnet_path(), "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		struct pnet_entry *e = &pnet[nr_pnet];
		int got;

		if (nr_pnet == MAX_PNET)
			die("PNET table too long");
		memset(e, 0, sizeof(*e));
		got = sscanf(line, "%16s %7s %64s %u", e->pnetid, kind, e->name,
			     &e->port);
		if (got == 2 && !strcmp(kind, "bad"))
			e->ib = -1;
		else if (got == 3 && !strcmp(kind, "eth"))
			e->ib = 0;
		else if (got == 4 && !strcmp(kind, "ib"))
			e->ib = 1;
		else
			die("bad PNET table line: %s", line);
		nr_pnet++;
	}
	fclose(f);
}

static void pnet_save(void)
{
	FILE *f = fopen(pnet_path(), "w");
	int i;

	if (!f)
		die("cannot write %s", pnet_path());
	for (i = 0; i < nr_pnet; i++) {
		if (pnet[i].ib < 0)
			fprintf(f, "%s bad\n", pnet[i].pnetid);
		else if (pnet[i].ib)
			fprintf(f, "%s ib %s %u\n", pnet[i].pnetid,
				pnet[i].name, pnet[i].port);
		else
			fprintf(f, "%s eth %s\n", pnet[i].pnetid,
				pnet[i].name);
	}
	fclose(f);
}

/* smc_pnet_policy: the attributes of a request, or -EINVAL */
static int pnet_parse(const struct nlmsghdr *nlh,
		      const struct nlattr *tb[SMC_PNETID_MAX + 1])
{
	static const unsigned int maxlen[SMC_PNETID_MAX + 1] = {
		[SMC_PNETID_NAME] = PNETID_LEN,
		[SMC_PNETID_ETHNAME] = IFNAMSIZ_ - 1,
		[SMC_PNETID_IBNAME] = IBNAME_MAX - 1,
	};
	const struct nlattr *a;
	uint16_t type, len;

	memset(tb, 0, (SMC_PNETID_MAX + 1) * sizeof(tb[0]));
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		type = mnl_attr_get_type(a);
		len = mnl_attr_get_payload_len(a);
		if (type > SMC_PNETID_MAX)
			continue;	/* liberal parsing */
		if (type == SMC_PNETID_IBPORT && len < 1)
			return -EINVAL;
		/* NLA_NUL_STRING with .len: the NUL within len + 1 bytes */
		if (maxlen[type] &&
		    !memchr(mnl_attr_get_payload(a), '\0',
			    len < maxlen[type] + 1 ? len : maxlen[type] + 1))
			return -EINVAL;
		tb[type] = a;
	}
	return 0;
}

/* smc_pnetid_valid() */
static int kernel_pnetid_valid(const char *name, char *out)
{
	const char *end;
	size_t len;

	while (isspace((unsigned char)*name))
		name++;
	len = strlen(name);
	if (!len)
		return 0;
	end = name + len;
	while (--end >= name && isspace((unsigned char)*end))
		;
	if (end - name >= PNETID_LEN)
		return 0;
	while (name <= end) {
		if (!isalnum((unsigned char)*name))
			return 0;
		*out++ = toupper((unsigned char)*name);
		name++;
	}
	*out = '\0';
	return 1;
}

/* smc_pnet_match(): equal up to the first NUL or blank of both */
static int kernel_pnet_match(const char *a, const char *b)
{
	int i;

	for (i = 0; i < PNETID_LEN; i++) {
		if ((a[i] == 0 || a[i] == ' ') && (b[i] == 0 || b[i] == ' '))
			break;
		if (a[i] != b[i])
			return 0;
	}
	return 1;
}

static int pnet_hw(const char *name)
{
	const char *hw = getenv("SMC_FAKE_PNET_HW");
	char *copy, *tok, *save = NULL;
	int found = 0;

	if (!hw)
		return 0;
	copy = strdup(hw);
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save))
		if (!strcmp(tok, name))
			found = 1;
	free(copy);
	return found;
}

/* smc_pnet_add_eth() and smc_pnet_add_ib(): 0 or -EEXIST */
static int pnet_add_one(const char *pnetid, int ib, const char *name,
			unsigned int port)
{
	struct pnet_entry *e;
	int i;

	if (pnet_hw(name))
		return -EEXIST;
	for (i = 0; i < nr_pnet; i++)
		if (pnet[i].ib == ib && !strcmp(pnet[i].name, name))
			return -EEXIST;
	if (nr_pnet == MAX_PNET)
		die("PNET table full");
	e = &pnet[nr_pnet++];
	memset(e, 0, sizeof(*e));
	snprintf(e->pnetid, sizeof(e->pnetid), "%s", pnetid);
	snprintf(e->name, sizeof(e->name), "%s", name);
	e->ib = ib;
	e->port = port;
	return 0;
}

/* smc_pnet_enter() */
static int pnet_add(const struct nlmsghdr *nlh)
{
	const struct nlattr *tb[SMC_PNETID_MAX + 1];
	char pnetid[PNETID_LEN + 1], ibname[IBNAME_MAX + 1], *p;
	int new_netdev = 0, new_ibdev = 0, rc;
	unsigned int port = 1;

	rc = pnet_parse(nlh, tb);
	if (rc)
		return rc;
	if (!tb[SMC_PNETID_NAME] ||
	    !kernel_pnetid_valid(mnl_attr_get_str(tb[SMC_PNETID_NAME]),
				 pnetid))
		return -EINVAL;
	if (tb[SMC_PNETID_ETHNAME]) {
		rc = pnet_add_one(pnetid, 0,
				  mnl_attr_get_str(tb[SMC_PNETID_ETHNAME]), 0);
		if (!rc)
			new_netdev = 1;
	}
	if (!pnet_init_net) {
		pnet_save();
		return new_netdev ? 0 : -EEXIST;
	}
	if (tb[SMC_PNETID_IBNAME]) {
		/* strim() */
		p = ibname;
		snprintf(ibname, sizeof(ibname), "%s",
			 mnl_attr_get_str(tb[SMC_PNETID_IBNAME]));
		while (isspace((unsigned char)*p))
			p++;
		while (*p && isspace((unsigned char)p[strlen(p) - 1]))
			p[strlen(p) - 1] = '\0';
		if (tb[SMC_PNETID_IBPORT]) {
			port = mnl_attr_get_u8(tb[SMC_PNETID_IBPORT]);
			if (port < 1 || port > 2) {
				pnet_save();
				return -EINVAL;
			}
		}
		rc = pnet_add_one(pnetid, 1, p, port);
		if (!rc)
			new_ibdev = 1;
	}
	pnet_save();
	return new_netdev || new_ibdev ? 0 : -EEXIST;
}

/* smc_pnet_del(), smc_pnet_flush(): smc_pnet_remove_by_pnetid() */
static int pnet_remove(const struct nlmsghdr *nlh, int all)
{
	const struct nlattr *tb[SMC_PNETID_MAX + 1];
	const char *name = NULL;
	int i, j, rc = -ENOENT;

	if (!all) {
		rc = pnet_parse(nlh, tb);
		if (rc)
			return rc;
		rc = -ENOENT;
		if (!tb[SMC_PNETID_NAME])
			return -EINVAL;
		name = mnl_attr_get_str(tb[SMC_PNETID_NAME]);
	}
	for (i = j = 0; i < nr_pnet; i++) {
		if (all || kernel_pnet_match(pnet[i].pnetid, name)) {
			rc = 0;
			continue;
		}
		pnet[j++] = pnet[i];
	}
	nr_pnet = j;
	pnet_save();
	return all ? 0 : rc;
}

/* smc_pnet_dump() and smc_pnet_get(): smc_pnet_set_nla() per entry */
static struct nlmsghdr *reply_start(const struct smc_genl *g,
				    const struct nlmsghdr *req, uint8_t cmd);
static void reply_end(struct nlmsghdr *nlh);

static int pnet_get(const struct smc_genl *g, const struct nlmsghdr *req)
{
	const struct nlattr *tb[SMC_PNETID_MAX + 1];
	const char *name = NULL;
	struct nlmsghdr *nlh;
	int i, rc;

	if (!(req->nlmsg_flags & NLM_F_DUMP)) {
		rc = pnet_parse(req, tb);
		if (rc)
			return rc;
		if (!tb[SMC_PNETID_NAME])
			return -EINVAL;
		name = mnl_attr_get_str(tb[SMC_PNETID_NAME]);
	}
	for (i = 0; i < nr_pnet; i++) {
		const struct pnet_entry *e = &pnet[i];

		if (name && !kernel_pnet_match(e->pnetid, name))
			continue;
		if (!pnet_init_net && e->ib)
			continue;
		nlh = reply_start(g, req, SMC_PNETID_GET);
		mnl_attr_put_strz(nlh, SMC_PNETID_NAME, e->pnetid);
		if (e->ib < 0) {
			reply_end(nlh);
			continue;
		}
		mnl_attr_put_strz(nlh, SMC_PNETID_ETHNAME,
				  e->ib ? "n/a" : e->name);
		mnl_attr_put_strz(nlh, SMC_PNETID_IBNAME,
				  e->ib ? e->name : "n/a");
		mnl_attr_put_u8(nlh, SMC_PNETID_IBPORT, e->ib ? e->port : 0xff);
		reply_end(nlh);
	}
	return 0;
}

static int pnet_talk(const struct smc_genl *g, const struct nlmsghdr *nlh,
		     uint8_t cmd)
{
	if (getenv("SMC_FAKE_UNPRIV") && cmd != SMC_PNETID_GET)
		return -EPERM;	/* GENL_ADMIN_PERM */
	/* genetlink: a dump of a command without .dumpit */
	if ((nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP &&
	    cmd != SMC_PNETID_GET)
		return -EOPNOTSUPP;
	pnet_load();
	switch (cmd) {
	case SMC_PNETID_GET:
		return pnet_get(g, nlh);
	case SMC_PNETID_ADD:
		return pnet_add(nlh);
	case SMC_PNETID_DEL:
		return pnet_remove(nlh, 0);
	case SMC_PNETID_FLUSH:
		return pnet_remove(nlh, 1);
	}
	return -EOPNOTSUPP;
}

/* ---- building answers the way the kernel does ---- */

static char rx[64 * 1024] __attribute__((aligned(4)));
static size_t rx_len;

static struct nlmsghdr *reply_start(const struct smc_genl *g,
				    const struct nlmsghdr *req, uint8_t cmd)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *genl;

	if (rx_len + 4096 > sizeof(rx))
		die("answer too long");
	nlh = mnl_nlmsg_put_header(rx + rx_len);
	nlh->nlmsg_type = g->family;
	nlh->nlmsg_flags = NLM_F_MULTI;
	nlh->nlmsg_seq = req->nlmsg_seq;
	nlh->nlmsg_pid = g->portid;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = SMC_GENL_FAMILY_VERSION;
	return nlh;
}

static void reply_end(struct nlmsghdr *nlh)
{
	rx_len += nlh->nlmsg_len;
}

/* nla_put_u64_64bit() as on an architecture that must align: a pad
 * attribute of type 0 before the value; the parser has to skip it.
 */
static void put_u64(struct nlmsghdr *nlh, uint16_t type, uint64_t v)
{
	mnl_attr_put(nlh, 0, 0, NULL);
	mnl_attr_put_u64(nlh, type, v);
}

/* nla_put_uint(): 4 bytes if the value fits, else 8 */
static void put_uint(struct nlmsghdr *nlh, uint16_t type, uint64_t v)
{
	if (v <= UINT32_MAX)
		mnl_attr_put_u32(nlh, type, (uint32_t)v);
	else
		mnl_attr_put_u64(nlh, type, v);
}

struct name { const char *name; int id; };

#define T(x) { #x, SMC_NLA_STATS_T_##x }
#define R(x) { #x, SMC_NLA_STATS_RMB_##x }
#define P(x) { #x, SMC_NLA_STATS_PLOAD_##x }

static const struct name t_names[] = {
	T(CLNT_V1_SUCC), T(CLNT_V2_SUCC), T(SRV_V1_SUCC), T(SRV_V2_SUCC),
	T(RX_BYTES), T(TX_BYTES), { "RX_RMB_USAGE", FAKE_T_RX_RMB_USAGE },
	{ "TX_RMB_USAGE", FAKE_T_TX_RMB_USAGE },
	T(RX_CNT), T(TX_CNT), T(SENDPAGE_CNT), T(CORK_CNT), T(NDLY_CNT),
	T(SPLICE_CNT), T(URG_DATA_CNT), { NULL, 0 },
};

static const struct name nest_names[] = {
	T(TX_RMB_STATS), T(RX_RMB_STATS), T(TXPLOAD_SIZE), T(RXPLOAD_SIZE),
	T(TX_RMB_SIZE), T(RX_RMB_SIZE), { NULL, 0 },
};

static const struct name rmb_names[] = {
	R(REUSE_CNT), R(SIZE_SM_PEER_CNT), R(SIZE_SM_CNT), R(FULL_PEER_CNT),
	R(FULL_CNT), R(ALLOC_CNT), R(DGRADE_CNT), { NULL, 0 },
};

static const struct name pload_names[] = {
	P(8K), P(16K), P(32K), P(64K), P(128K), P(256K), P(512K), P(1024K),
	P(G_1024K), { NULL, 0 },
};

/* The value of counter @path in SMC_FAKE_STATS, 0 if not given. Every
 * name given must be used once, see check_all_used().
 */
static char *spec_copy;
static unsigned char spec_used[512];

static uint64_t spec_value(const char *path)
{
	const char *spec = getenv("SMC_FAKE_STATS");
	char *tok, *save = NULL, *eq;
	uint64_t v = 0;
	int i = 0;

	if (!spec)
		return 0;
	free(spec_copy);
	spec_copy = strdup(spec);
	for (tok = strtok_r(spec_copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save), i++) {
		eq = strchr(tok, '=');
		if (!eq)
			die("bad SMC_FAKE_STATS item %s", tok);
		*eq = '\0';
		if (!strcmp(tok, path)) {
			v = strtoull(eq + 1, NULL, 0);
			if (i < 512)
				spec_used[i] = 1;
		}
	}
	return v;
}

static void check_all_used(void)
{
	const char *spec = getenv("SMC_FAKE_STATS");
	char *copy, *tok, *save = NULL;
	int i = 0;

	if (!spec)
		return;
	copy = strdup(spec);
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save), i++)
		if (i < 512 && !spec_used[i])
			die("SMC_FAKE_STATS names an unknown counter: %s", tok);
	free(copy);
}

static uint64_t value(const char *tech, const char *nest, const char *name)
{
	char path[128];

	if (nest)
		snprintf(path, sizeof(path), "%s.%s.%s", tech, nest, name);
	else if (tech)
		snprintf(path, sizeof(path), "%s.%s", tech, name);
	else
		snprintf(path, sizeof(path), "%s", name);
	return spec_value(path);
}

static int name_id(const struct name *n, const char *name)
{
	for (; n->name; n++)
		if (!strcmp(n->name, name))
			return n->id;
	die("no id for %s", name);
	return 0;
}

/* smc_nl_fill_stats_rmb_data(): kernel order */
static void fill_rmb(struct nlmsghdr *nlh, const char *tech, const char *nest)
{
	static const char *const order[] = { "REUSE_CNT", "SIZE_SM_PEER_CNT",
		"SIZE_SM_CNT", "FULL_PEER_CNT", "FULL_CNT", "ALLOC_CNT",
		"DGRADE_CNT" };
	struct nlattr *n = mnl_attr_nest_start(nlh, name_id(nest_names, nest));
	unsigned int i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		put_u64(nlh, name_id(rmb_names, order[i]),
			value(tech, nest, order[i]));
	mnl_attr_nest_end(nlh, n);
}

/* smc_nl_fill_stats_bufsize_data() */
static void fill_sizes(struct nlmsghdr *nlh, const char *tech,
		       const char *nest)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, name_id(nest_names, nest));
	int i;

	for (i = 0; pload_names[i].name; i++)
		put_u64(nlh, pload_names[i].id,
			value(tech, nest, pload_names[i].name));
	mnl_attr_nest_end(nlh, n);
}

/* smc_nl_fill_stats_tech_data() */
static void fill_tech(struct nlmsghdr *nlh, const char *tech, uint16_t type)
{
	static const char *const u64s[] = { "CLNT_V1_SUCC", "CLNT_V2_SUCC",
		"SRV_V1_SUCC", "SRV_V2_SUCC", "RX_BYTES", "TX_BYTES" };
	static const char *const u64s2[] = { "RX_CNT", "TX_CNT",
		"SENDPAGE_CNT", "CORK_CNT", "NDLY_CNT", "SPLICE_CNT",
		"URG_DATA_CNT" };
	struct nlattr *n = mnl_attr_nest_start(nlh, type);
	unsigned int i;

	fill_rmb(nlh, tech, "TX_RMB_STATS");
	fill_rmb(nlh, tech, "RX_RMB_STATS");
	fill_sizes(nlh, tech, "TXPLOAD_SIZE");
	fill_sizes(nlh, tech, "RXPLOAD_SIZE");
	fill_sizes(nlh, tech, "TX_RMB_SIZE");
	fill_sizes(nlh, tech, "RX_RMB_SIZE");
	for (i = 0; i < sizeof(u64s) / sizeof(u64s[0]); i++)
		put_u64(nlh, name_id(t_names, u64s[i]),
			value(tech, NULL, u64s[i]));
	put_uint(nlh, FAKE_T_RX_RMB_USAGE,
		 value(tech, NULL, "RX_RMB_USAGE"));
	put_uint(nlh, FAKE_T_TX_RMB_USAGE,
		 value(tech, NULL, "TX_RMB_USAGE"));
	for (i = 0; i < sizeof(u64s2) / sizeof(u64s2[0]); i++)
		put_u64(nlh, name_id(t_names, u64s2[i]),
			value(tech, NULL, u64s2[i]));
	mnl_attr_nest_end(nlh, n);
}

static void answer_stats(const struct smc_genl *g, const struct nlmsghdr *req)
{
	struct nlmsghdr *nlh = reply_start(g, req, SMC_NETLINK_GET_STATS);
	struct nlattr *n = mnl_attr_nest_start(nlh, SMC_GEN_STATS);

	fill_tech(nlh, "smcd", SMC_NLA_STATS_SMCD_TECH);
	fill_tech(nlh, "smcr", SMC_NLA_STATS_SMCR_TECH);
	put_u64(nlh, SMC_NLA_STATS_CLNT_HS_ERR_CNT,
		value(NULL, NULL, "CLNT_HS_ERR_CNT"));
	put_u64(nlh, SMC_NLA_STATS_SRV_HS_ERR_CNT,
		value(NULL, NULL, "SRV_HS_ERR_CNT"));
	mnl_attr_nest_end(nlh, n);
	reply_end(nlh);
	check_all_used();
}

/* smc_nl_get_fback_stats(): one message per reason, the totals in the
 * first one only
 */
static void answer_fback(const struct smc_genl *g, const struct nlmsghdr *req)
{
	const char *spec = getenv("SMC_FAKE_FBACK");
	uint64_t srv_cnt = 0, clnt_cnt = 0;
	char *copy, *tok, *save = NULL;
	int first = 1;

	if (!spec)
		return;
	copy = strdup(spec);
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		if (!strncmp(tok, "srv_cnt=", 8))
			srv_cnt = strtoull(tok + 8, NULL, 0);
		else if (!strncmp(tok, "clnt_cnt=", 9))
			clnt_cnt = strtoull(tok + 9, NULL, 0);
	}
	free(copy);
	copy = strdup(spec);
	save = NULL;
	for (tok = strtok_r(copy, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		unsigned long code, cnt;
		char role[8];
		struct nlmsghdr *nlh;
		struct nlattr *n;

		if (strchr(tok, '='))
			continue;
		if (sscanf(tok, "%7[a-z]:%li:%lu", role, &code, &cnt) != 3 ||
		    (strcmp(role, "srv") && strcmp(role, "clnt")))
			die("bad SMC_FAKE_FBACK item %s", tok);
		nlh = reply_start(g, req, SMC_NETLINK_GET_FBACK_STATS);
		n = mnl_attr_nest_start(nlh, SMC_GEN_FBACK_STATS);
		mnl_attr_put_u8(nlh, SMC_NLA_FBACK_STATS_TYPE,
				!strcmp(role, "srv"));
		if (first) {
			put_u64(nlh, SMC_NLA_FBACK_STATS_SRV_CNT, srv_cnt);
			put_u64(nlh, SMC_NLA_FBACK_STATS_CLNT_CNT, clnt_cnt);
			first = 0;
		}
		mnl_attr_put_u32(nlh, SMC_NLA_FBACK_STATS_RSN_CODE,
				 (uint32_t)code);
		mnl_attr_put_u16(nlh, SMC_NLA_FBACK_STATS_RSN_CNT,
				 (uint16_t)cnt);
		mnl_attr_nest_end(nlh, n);
		reply_end(nlh);
	}
	free(copy);
}

static void answer_ueids(const struct smc_genl *g, const struct nlmsghdr *req)
{
	char str[EID_LEN + 1];
	int i;

	for (i = 0; i < nr_table; i++) {
		struct nlmsghdr *nlh = reply_start(g, req,
						   SMC_NETLINK_DUMP_UEID);

		memcpy(str, table[i], EID_LEN);
		str[EID_LEN] = '\0';
		mnl_attr_put_strz(nlh, SMC_NLA_EID_TABLE_ENTRY, str);
		reply_end(nlh);
	}
}

/* smc_nl_dump_seid(): one message, the SEID and its state with ISM v2 */
static void answer_seid(const struct smc_genl *g, const struct nlmsghdr *req)
{
	struct nlmsghdr *nlh = reply_start(g, req, SMC_NETLINK_DUMP_SEID);
	const char *seid = getenv("SMC_FAKE_SEID");
	char str[EID_LEN + 1];

	if (seid) {
		if (strlen(seid) > EID_LEN)
			die("SMC_FAKE_SEID too long");
		snprintf(str, sizeof(str), "%-32s", seid);
		mnl_attr_put_strz(nlh, SMC_NLA_SEID_ENTRY, str);
		mnl_attr_put_u8(nlh, SMC_NLA_SEID_ENABLED, seid_enabled());
	}
	reply_end(nlh);
}

/* ---- info, devices and link groups: records of KEY=VALUE ---- */

/* Linux 6.12 attribute numbers missing from Debian 12's 6.1 uapi header */
#define FAKE_LGR_R_V2_MAX_CONNS	2
#define FAKE_LGR_R_V2_MAX_LINKS	3
#define FAKE_LGR_R_SNDBUF_ALLOC	12
#define FAKE_LGR_R_RMB_ALLOC	13
#define FAKE_LGR_D_EXT_GID	10
#define FAKE_LGR_D_PEER_EXT_GID	11
#define FAKE_LGR_D_SNDBUF_ALLOC	12
#define FAKE_LGR_D_DMB_ALLOC	13
_Static_assert(SMC_NLA_LGR_R_BUF_TYPE == 11 && SMC_NLA_LGR_D_V2_COMMON == 9 &&
	       SMC_NLA_LGR_R_V2_DIRECT == 1, "SMC_NLA_LGR_ numbering");

#define MAX_KV 64

struct rec {
	int n;
	char *key[MAX_KV], *val[MAX_KV];
	unsigned char used[MAX_KV];
};

/* Split record @text (modified) into its keys and values */
static void rec_parse(char *text, struct rec *r)
{
	char *tok, *save = NULL, *eq;

	memset(r, 0, sizeof(*r));
	for (tok = strtok_r(text, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		eq = strchr(tok, '=');
		if (!eq || r->n == MAX_KV)
			die("bad record item %s", tok);
		*eq = '\0';
		r->key[r->n] = tok;
		r->val[r->n++] = eq + 1;
	}
}

static const char *rec_str(struct rec *r, const char *key)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->key[i], key)) {
			r->used[i] = 1;
			return r->val[i];
		}
	return NULL;
}

static uint64_t rec_num(struct rec *r, const char *key)
{
	const char *v = rec_str(r, key);

	return v ? strtoull(v, NULL, 0) : 0;
}

static void rec_done(const struct rec *r, const char *var)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (!r->used[i])
			die("%s: unknown key %s", var, r->key[i]);
}

/* a string of fixed kernel size @size, blank padded, with NUL */
static void put_padded(struct nlmsghdr *nlh, uint16_t type, const char *s,
		       size_t size)
{
	char buf[64];

	if (size >= sizeof(buf) || strlen(s) > size)
		die("string too long: %s", s);
	memset(buf, ' ', size);
	memcpy(buf, s, strlen(s));
	buf[size] = '\0';
	mnl_attr_put_strz(nlh, type, buf);
}

/* the records of @var, each handed to @fn */
static void for_each_rec(const char *var,
			 void (*fn)(const struct smc_genl *,
				    const struct nlmsghdr *, struct rec *, int),
			 const struct smc_genl *g, const struct nlmsghdr *req,
			 int arg)
{
	const char *spec = getenv(var);
	char *copy, *text, *save = NULL;
	struct rec r;

	if (!spec)
		return;
	copy = strdup(spec);
	for (text = strtok_r(copy, ";", &save); text;
	     text = strtok_r(NULL, ";", &save)) {
		rec_parse(text, &r);
		if (!r.n)
			continue;
		fn(g, req, &r, arg);
		rec_done(&r, var);
	}
	free(copy);
}

/* smc_nl_get_sys_info() */
static void sysinfo_rec(const struct smc_genl *g, const struct nlmsghdr *req,
			struct rec *r, int arg)
{
	struct nlmsghdr *nlh = reply_start(g, req, SMC_NETLINK_GET_SYS_INFO);
	struct nlattr *n = mnl_attr_nest_start(nlh, SMC_GEN_SYS_INFO);
	const char *v;

	(void)arg;
	mnl_attr_put_u8(nlh, SMC_NLA_SYS_VER, rec_num(r, "ver"));
	mnl_attr_put_u8(nlh, SMC_NLA_SYS_REL, rec_num(r, "rel"));
	mnl_attr_put_u8(nlh, SMC_NLA_SYS_IS_ISM_V2, rec_num(r, "ism_v2"));
	mnl_attr_put_u8(nlh, SMC_NLA_SYS_IS_SMCR_V2, rec_num(r, "smcr_v2"));
	v = rec_str(r, "host");
	if (v)
		put_padded(nlh, SMC_NLA_SYS_LOCAL_HOST, v, 32);
	v = rec_str(r, "seid");
	if (v)
		put_padded(nlh, SMC_NLA_SYS_SEID, v, 32);
	mnl_attr_nest_end(nlh, n);
	reply_end(nlh);
}

static void answer_sysinfo(const struct smc_genl *g,
			   const struct nlmsghdr *req)
{
	for_each_rec("SMC_FAKE_SYSINFO", sysinfo_rec, g, req, 0);
}

static void put_pci(struct nlmsghdr *nlh, struct rec *r)
{
	const char *id;

	mnl_attr_put_u32(nlh, SMC_NLA_DEV_PCI_FID, rec_num(r, "fid"));
	mnl_attr_put_u16(nlh, SMC_NLA_DEV_PCI_CHID, rec_num(r, "chid"));
	mnl_attr_put_u16(nlh, SMC_NLA_DEV_PCI_VENDOR, rec_num(r, "vendor"));
	mnl_attr_put_u16(nlh, SMC_NLA_DEV_PCI_DEVICE, rec_num(r, "device"));
	id = rec_str(r, "pci_id");
	mnl_attr_put_strz(nlh, SMC_NLA_DEV_PCI_ID, id ? id : "");
}

/* smc_nl_handle_smcd_dev() (smc_ism.c), smc_nl_handle_smcr_dev()
 * and smc_nl_handle_dev_port() (smc_ib.c)
 */
static void dev_rec(const struct smc_genl *g, const struct nlmsghdr *req,
		    struct rec *r, int smcd)
{
	struct nlmsghdr *nlh;
	struct nlattr *n, *p;
	const char *v;
	char key[32];
	int i;

	nlh = reply_start(g, req, smcd ? SMC_NETLINK_GET_DEV_SMCD :
			  SMC_NETLINK_GET_DEV_SMCR);
	n = mnl_attr_nest_start(nlh, smcd ? SMC_GEN_DEV_SMCD : SMC_GEN_DEV_SMCR);
	if (smcd) {
		uint32_t use = rec_num(r, "use");

		mnl_attr_put_u32(nlh, SMC_NLA_DEV_USE_CNT, use);
		mnl_attr_put_u8(nlh, SMC_NLA_DEV_IS_CRIT, use > 0);
		put_pci(nlh, r);
		p = mnl_attr_nest_start(nlh, SMC_NLA_DEV_PORT);
		mnl_attr_put_u8(nlh, SMC_NLA_DEV_PORT_PNET_USR,
				rec_num(r, "usr"));
		v = rec_str(r, "pnetid");
		put_padded(nlh, SMC_NLA_DEV_PORT_PNETID, v ? v : "", 16);
		mnl_attr_nest_end(nlh, p);
	} else {
		mnl_attr_put_u8(nlh, SMC_NLA_DEV_IS_CRIT, rec_num(r, "crit"));
		if (rec_str(r, "fid"))
			put_pci(nlh, r);
		v = rec_str(r, "ibname");
		mnl_attr_put_strz(nlh, SMC_NLA_DEV_IB_NAME, v ? v : "");
		for (i = 0; i < 2; i++) {
#define PK(name) (snprintf(key, sizeof(key), "p%d.%s", i + 1, name), key)
			if (!rec_str(r, PK("netdev")))
				continue;
			p = mnl_attr_nest_start(nlh, SMC_NLA_DEV_PORT + i);
			mnl_attr_put_u8(nlh, SMC_NLA_DEV_PORT_PNET_USR,
					rec_num(r, PK("usr")));
			v = rec_str(r, PK("pnetid"));
			put_padded(nlh, SMC_NLA_DEV_PORT_PNETID, v ? v : "",
				   16);
			mnl_attr_put_u32(nlh, SMC_NLA_DEV_PORT_NETDEV,
					 rec_num(r, PK("netdev")));
			mnl_attr_put_u8(nlh, SMC_NLA_DEV_PORT_VALID, 1);
			mnl_attr_put_u8(nlh, SMC_NLA_DEV_PORT_STATE,
					rec_num(r, PK("state")));
			mnl_attr_put_u32(nlh, SMC_NLA_DEV_PORT_LNK_CNT,
					 rec_num(r, PK("links")));
			mnl_attr_nest_end(nlh, p);
#undef PK
		}
	}
	mnl_attr_nest_end(nlh, n);
	reply_end(nlh);
}

static void answer_dev(const struct smc_genl *g, const struct nlmsghdr *req,
		       int smcd)
{
	for_each_rec(smcd ? "SMC_FAKE_DEV_SMCD" : "SMC_FAKE_DEV_SMCR",
		     dev_rec, g, req, smcd);
}

/* smc_nl_fill_lgr_v2_common() */
static void put_v2_common(struct nlmsghdr *nlh, uint16_t type, struct rec *r)
{
	struct nlattr *n = mnl_attr_nest_start(nlh, type);
	const char *v;

	mnl_attr_put_u8(nlh, SMC_NLA_LGR_V2_VER, rec_num(r, "ver"));
	mnl_attr_put_u8(nlh, SMC_NLA_LGR_V2_REL, rec_num(r, "rel"));
	mnl_attr_put_u8(nlh, SMC_NLA_LGR_V2_OS, rec_num(r, "os"));
	v = rec_str(r, "host");
	put_padded(nlh, SMC_NLA_LGR_V2_PEER_HOST, v ? v : "", 32);
	v = rec_str(r, "eid");
	put_padded(nlh, SMC_NLA_LGR_V2_NEG_EID, v ? v : "", 32);
	mnl_attr_nest_end(nlh, n);
}

/* smc_nl_handle_lgr(): the link group, then with @links its links */
static void lgr_smcr_rec(const struct smc_genl *g, const struct nlmsghdr *req,
			 struct rec *r, int links)
{
	struct nlmsghdr *nlh = reply_start(g, req, SMC_NETLINK_GET_LGR_SMCR);
	struct nlattr *n = mnl_attr_nest_start(nlh, SMC_GEN_LGR_SMCR), *v2;
	const char *v;
	char key[32];
	int i;

	mnl_attr_put_u32(nlh, SMC_NLA_LGR_R_ID, rec_num(r, "id"));
	mnl_attr_put_u32(nlh, SMC_NLA_LGR_R_CONNS_NUM, rec_num(r, "conns"));
	mnl_attr_put_u8(nlh, SMC_NLA_LGR_R_ROLE, rec_num(r, "role"));
	mnl_attr_put_u8(nlh, SMC_NLA_LGR_R_TYPE, rec_num(r, "type"));
	mnl_attr_put_u8(nlh, SMC_NLA_LGR_R_BUF_TYPE, 0);
	mnl_attr_put_u8(nlh, SMC_NLA_LGR_R_VLAN_ID, rec_num(r, "vlan"));
	mnl_attr_put(nlh, SMC_NLA_LGR_R_PAD, 0, NULL);
	mnl_attr_put_u64(nlh, SMC_NLA_LGR_R_NET_COOKIE, 4711);
	v = rec_str(r, "pnetid");
	put_padded(nlh, SMC_NLA_LGR_R_PNETID, v ? v : "", 16);
	put_uint(nlh, FAKE_LGR_R_SNDBUF_ALLOC, rec_num(r, "sndbuf"));
	put_uint(nlh, FAKE_LGR_R_RMB_ALLOC, rec_num(r, "rmb"));
	if (rec_num(r, "ver") > 1) {
		put_v2_common(nlh, SMC_NLA_LGR_R_V2_COMMON, r);
		v2 = mnl_attr_nest_start(nlh, SMC_NLA_LGR_R_V2);
		mnl_attr_put_u8(nlh, SMC_NLA_LGR_R_V2_DIRECT,
				rec_num(r, "direct"));
		mnl_attr_put_u8(nlh, FAKE_LGR_R_V2_MAX_CONNS,
				rec_num(r, "max_conns"));
		mnl_attr_put_u8(nlh, FAKE_LGR_R_V2_MAX_LINKS,
				rec_num(r, "max_links"));
		mnl_attr_nest_end(nlh, v2);
	}
	mnl_attr_nest_end(nlh, n);
	reply_end(nlh);
	for (i = 1; i <= 3; i++) {
#define LK(name) (snprintf(key, sizeof(key), "l%d.%s", i, name), key)
		if (!rec_str(r, LK("ibdev")))
			continue;
		if (!links) {	/* mark the keys used */
			rec_str(r, LK("id")); rec_str(r, LK("state"));
			rec_str(r, LK("conns")); rec_str(r, LK("port"));
			rec_str(r, LK("netdev")); rec_str(r, LK("uid"));
			rec_str(r, LK("peer_uid")); rec_str(r, LK("gid"));
			rec_str(r, LK("peer_gid"));
			continue;
		}
		/* smc_nl_fill_lgr_link() */
		nlh = reply_start(g, req, SMC_NETLINK_GET_LINK_SMCR);
		n = mnl_attr_nest_start(nlh, SMC_GEN_LINK_SMCR);
		mnl_attr_put_u8(nlh, SMC_NLA_LINK_ID, rec_num(r, LK("id")));
		mnl_attr_put_u32(nlh, SMC_NLA_LINK_STATE,
				 rec_num(r, LK("state")));
		mnl_attr_put_u32(nlh, SMC_NLA_LINK_CONN_CNT,
				 rec_num(r, LK("conns")));
		mnl_attr_put_u8(nlh, SMC_NLA_LINK_IB_PORT,
				rec_num(r, LK("port")));
		mnl_attr_put_u32(nlh, SMC_NLA_LINK_NET_DEV,
				 rec_num(r, LK("netdev")));
		mnl_attr_put_strz(nlh, SMC_NLA_LINK_IB_DEV,
				  rec_str(r, LK("ibdev")));
		/* memcpy() of the u8[4] uid into a host order u32 */
		mnl_attr_put_u32(nlh, SMC_NLA_LINK_UID,
				 htonl(rec_num(r, LK("uid"))));
		mnl_attr_put_u32(nlh, SMC_NLA_LINK_PEER_UID,
				 htonl(rec_num(r, LK("peer_uid"))));
		v = rec_str(r, LK("gid"));
		mnl_attr_put_strz(nlh, SMC_NLA_LINK_GID, v ? v : "");
		v = rec_str(r, LK("peer_gid"));
		mnl_attr_put_strz(nlh, SMC_NLA_LINK_PEER_GID, v ? v : "");
		mnl_attr_nest_end(nlh, n);
		reply_end(nlh);
#undef LK
	}
}

static void answer_lgr_smcr(const struct smc_genl *g,
			    const struct nlmsghdr *req, int links)
{
	for_each_rec("SMC_FAKE_LGR_SMCR", lgr_smcr_rec, g, req, links);
}

/* smc_nl_fill_smcd_lgr() */
static void lgr_smcd_rec(const struct smc_genl *g, const struct nlmsghdr *req,
			 struct rec *r, int arg)
{
	struct nlmsghdr *nlh = reply_start(g, req, SMC_NETLINK_GET_LGR_SMCD);
	struct nlattr *n = mnl_attr_nest_start(nlh, SMC_GEN_LGR_SMCD);
	const char *v;

	(void)arg;
	mnl_attr_put_u32(nlh, SMC_NLA_LGR_D_ID, rec_num(r, "id"));
	put_u64(nlh, SMC_NLA_LGR_D_GID, rec_num(r, "gid"));
	put_u64(nlh, FAKE_LGR_D_EXT_GID, rec_num(r, "ext_gid"));
	put_u64(nlh, SMC_NLA_LGR_D_PEER_GID, rec_num(r, "peer_gid"));
	put_u64(nlh, FAKE_LGR_D_PEER_EXT_GID, rec_num(r, "peer_ext_gid"));
	mnl_attr_put_u8(nlh, SMC_NLA_LGR_D_VLAN_ID, rec_num(r, "vlan"));
	mnl_attr_put_u32(nlh, SMC_NLA_LGR_D_CONNS_NUM, rec_num(r, "conns"));
	/* a u32, though the uapi comment says u16 */
	mnl_attr_put_u32(nlh, SMC_NLA_LGR_D_CHID, rec_num(r, "chid"));
	put_uint(nlh, FAKE_LGR_D_SNDBUF_ALLOC, rec_num(r, "sndbuf"));
	put_uint(nlh, FAKE_LGR_D_DMB_ALLOC, rec_num(r, "dmb"));
	v = rec_str(r, "pnetid");
	put_padded(nlh, SMC_NLA_LGR_D_PNETID, v ? v : "", 16);
	if (rec_num(r, "ver") > 1)
		put_v2_common(nlh, SMC_NLA_LGR_D_V2_COMMON, r);
	mnl_attr_nest_end(nlh, n);
	reply_end(nlh);
}

static void answer_lgr_smcd(const struct smc_genl *g,
			    const struct nlmsghdr *req)
{
	for_each_rec("SMC_FAKE_LGR_SMCD", lgr_smcd_rec, g, req, 0);
}

static void log_request(const struct smc_genl *g, const struct nlmsghdr *nlh,
			uint8_t cmd)
{
	const char *path = getenv("SMC_FAKE_LOG");
	const struct nlattr *attr;
	const unsigned char *p;
	uint16_t i;
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "a");
	if (!f)
		die("cannot open %s", path);
	fprintf(f, "%s flags=0x%x", cmd_name(g->family, cmd),
		nlh->nlmsg_flags);
	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		fprintf(f, " attr=%u len=%u hex=", mnl_attr_get_type(attr),
			mnl_attr_get_payload_len(attr));
		p = mnl_attr_get_payload(attr);
		for (i = 0; i < mnl_attr_get_payload_len(attr); i++)
			fprintf(f, "%02x", p[i]);
	}
	fputc('\n', f);
	fclose(f);
}

static int injected_error(uint16_t family, uint8_t cmd)
{
	const char *spec = getenv("SMC_FAKE_ERR");
	const char *colon;

	if (!spec)
		return 0;
	colon = strchr(spec, ':');
	if (!colon)
		die("bad SMC_FAKE_ERR %s", spec);
	if (strncmp(spec, cmd_name(family, cmd), colon - spec) ||
	    strlen(cmd_name(family, cmd)) != (size_t)(colon - spec))
		return 0;
	return -atoi(colon + 1);
}

int smc_genl_talk(struct smc_genl *g, struct nlmsghdr *nlh, mnl_cb_t cb,
		  void *data)
{
	const struct genlmsghdr *genl = mnl_nlmsg_get_payload(nlh);
	const char *extack = getenv("SMC_FAKE_EXTACK");
	uint8_t cmd = genl->cmd;
	const struct nlmsghdr *m;
	int err = 0, ret, left;

	snprintf(g->extack, sizeof(g->extack), "%s", extack ? extack : "");
	log_request(g, nlh, cmd);
	rx_len = 0;
	table_load();

	err = injected_error(g->family, cmd);
	if (!err && g->family == FAKE_FAMILY_PNET)
		err = pnet_talk(g, nlh, cmd);
	else if (!err && getenv("SMC_FAKE_UNPRIV") &&
		 (cmd == SMC_NETLINK_ADD_UEID ||
		  cmd == SMC_NETLINK_REMOVE_UEID ||
		  cmd == SMC_NETLINK_FLUSH_UEID))
		err = -EPERM;
	else if (!err) {
		switch (cmd) {
		case SMC_NETLINK_ADD_UEID:
			err = ueid_add(nlh);
			break;
		case SMC_NETLINK_REMOVE_UEID:
			err = ueid_remove(nlh, 0);
			break;
		case SMC_NETLINK_FLUSH_UEID:
			err = ueid_remove(nlh, 1);
			break;
		case SMC_NETLINK_DUMP_UEID:
			answer_ueids(g, nlh);
			break;
		case SMC_NETLINK_DUMP_SEID:
			answer_seid(g, nlh);
			break;
		case SMC_NETLINK_ENABLE_SEID:
			err = seid_change(1);
			break;
		case SMC_NETLINK_DISABLE_SEID:
			err = seid_change(0);
			break;
		case SMC_NETLINK_GET_SYS_INFO:
			answer_sysinfo(g, nlh);
			break;
		case SMC_NETLINK_GET_DEV_SMCD:
			answer_dev(g, nlh, 1);
			break;
		case SMC_NETLINK_GET_DEV_SMCR:
			answer_dev(g, nlh, 0);
			break;
		case SMC_NETLINK_GET_LGR_SMCR:
			answer_lgr_smcr(g, nlh, 0);
			break;
		case SMC_NETLINK_GET_LINK_SMCR:
			answer_lgr_smcr(g, nlh, 1);
			break;
		case SMC_NETLINK_GET_LGR_SMCD:
			answer_lgr_smcd(g, nlh);
			break;
		case SMC_NETLINK_GET_STATS:
			answer_stats(g, nlh);
			break;
		case SMC_NETLINK_GET_FBACK_STATS:
			answer_fback(g, nlh);
			break;
		default:
			err = -EOPNOTSUPP;
		}
	}
	if (err)
		return err;

	/* hand the replies to the callback as smc_genl_talk() does */
	m = (const struct nlmsghdr *)rx;
	left = (int)rx_len;
	while (mnl_nlmsg_ok(m, left)) {
		if (cb) {
			errno = 0;
			ret = cb(m, data);
			if (ret == MNL_CB_ERROR)
				return errno ? -errno : -EIO;
			if (ret == MNL_CB_STOP)
				break;
		}
		m = mnl_nlmsg_next(m, &left);
	}
	return 0;
}
