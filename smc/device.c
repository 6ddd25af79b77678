// SPDX-License-Identifier: GPL-2.0
/*
 * device.c - smc device: the SMC-D (ISM) and SMC-R (RoCE) devices of the
 * kernel with their PCI function, ports, PNET IDs and use, as smc-tools'
 * smcd device and smcr device show them. The kernel side is
 * smc_nl_handle_smcd_dev() in net/smc/smc_ism.c (which leaves out the
 * loopback-ism device) and smc_nl_handle_smcr_dev() in net/smc/smc_ib.c.
 */
#include <errno.h>
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

static int parse_port(const struct nlattr *nest, struct smc_dev_port *p)
{
	const struct nlattr *tb[NLA_TABLE_MAX + 1];
	uint64_t v;

	nla_table(nest, tb);
	p->valid = true;
	if (!nla_uint(tb[SMC_NLA_DEV_PORT_PNET_USR], &v))
		p->pnetid_by_user = v;
	if (!nla_str(tb[SMC_NLA_DEV_PORT_PNETID], p->pnetid,
		     sizeof(p->pnetid)))
		return -1;
	if (!nla_uint(tb[SMC_NLA_DEV_PORT_NETDEV], &v))
		p->ifindex = v;
	if (!nla_uint(tb[SMC_NLA_DEV_PORT_STATE], &v))
		p->state = v;
	if (!nla_uint(tb[SMC_NLA_DEV_PORT_LNK_CNT], &v))
		p->links = v;
	return 0;
}

struct read_ctx {
	bool smcd;
	struct smc_dev_list *l;
};

static int cb_dev(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NLA_TABLE_MAX + 1];
	struct read_ctx *c = data;
	const struct nlattr *top;
	struct smc_dev *d, *n;
	uint64_t v;

	top = nla_top(nlh, c->smcd ? SMC_GEN_DEV_SMCD : SMC_GEN_DEV_SMCR);
	if (!top)
		return MNL_CB_OK;
	if (c->l->n == c->l->size) {
		c->l->size = c->l->size ? 2 * c->l->size : 8;
		n = realloc(c->l->dev, c->l->size * sizeof(*n));
		if (!n) {
			fprintf(stderr, "Error: out of memory\n");
			errno = EBADMSG;
			return MNL_CB_ERROR;
		}
		c->l->dev = n;
	}
	d = &c->l->dev[c->l->n];
	memset(d, 0, sizeof(*d));
	d->smcd = c->smcd;
	nla_table(top, tb);
	if (!nla_uint(tb[SMC_NLA_DEV_USE_CNT], &v))
		d->use_cnt = v;
	if (!nla_uint(tb[SMC_NLA_DEV_IS_CRIT], &v))
		d->critical = v;
	if (!nla_uint(tb[SMC_NLA_DEV_PCI_FID], &v)) {
		d->has_pci = true;
		d->fid = v;
	}
	if (!nla_uint(tb[SMC_NLA_DEV_PCI_CHID], &v))
		d->pchid = v;
	if (!nla_uint(tb[SMC_NLA_DEV_PCI_VENDOR], &v))
		d->vendor = v;
	if (!nla_uint(tb[SMC_NLA_DEV_PCI_DEVICE], &v))
		d->device = v;
	if (!nla_str(tb[SMC_NLA_DEV_PCI_ID], d->pci_id, sizeof(d->pci_id)) ||
	    !nla_str(tb[SMC_NLA_DEV_IB_NAME], d->ibname, sizeof(d->ibname)))
		return nla_bad("device name");
	if (tb[SMC_NLA_DEV_PORT] && parse_port(tb[SMC_NLA_DEV_PORT], &d->port[0]))
		return nla_bad("device port");
	if (tb[SMC_NLA_DEV_PORT2] &&
	    parse_port(tb[SMC_NLA_DEV_PORT2], &d->port[1]))
		return nla_bad("device port");
	c->l->n++;
	return MNL_CB_OK;
}

int smc_dev_read(struct smc_genl *g, bool smcd, struct smc_dev_list *l)
{
	struct read_ctx c = { .smcd = smcd, .l = l };

	return nla_dump(g, smcd ? SMC_NETLINK_GET_DEV_SMCD :
			SMC_NETLINK_GET_DEV_SMCR, cb_dev, &c,
			smcd ? "the SMC-D devices" : "the SMC-R devices");
}

void smc_dev_free(struct smc_dev_list *l)
{
	free(l->dev);
	memset(l, 0, sizeof(*l));
}

const char *smc_pci_device_name(uint16_t device)
{
	switch (device) {
	case 0x1004:
		return "RoCE_Express";
	case 0x1016:
		return "RoCE_Express2";
	case 0x101e:
		return "RoCE_Express3";
	case 0x04ed:
		return "ISM";
	}
	return NULL;
}

/* PCI vendor IBM (ISM) and Mellanox (RoCE Express cards) */
const char *smc_dev_type(const struct smc_dev *d)
{
	const char *name = d->has_pci ? smc_pci_device_name(d->device) : NULL;

	if (!name || d->vendor != (d->device == 0x04ed ? 0x1014 : 0x15b3))
		return NULL;
	return name;
}

/* ---- smc device ---- */

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: smc [ -j [ -p ] ] device [ show ] [ all ] [ type { smcd | smcr } ]\n"
		"                                [ netdev NETDEV ] [ ibdev IBDEV ]\n"
		"       smc device help\n");
}

static void type_text(const struct smc_dev *d, char *buf, size_t size)
{
	const char *t = smc_dev_type(d);

	if (t)
		snprintf(buf, size, "%s", t);
	else if (d->has_pci)
		snprintf(buf, size, "%04x:%04x", d->vendor, d->device);
	else
		snprintf(buf, size, "-");
}

static void pnetid_text(const struct smc_dev_port *p, char *buf, size_t size)
{
	if (!p->pnetid[0])
		snprintf(buf, size, "-");
	else
		snprintf(buf, size, "%s%s", p->pnetid_by_user ? "*" : "",
			 p->pnetid);
}

static void json_pci(const struct smc_dev *d)
{
	char buf[16];
	const char *t = smc_dev_type(d);

	if (!d->has_pci) {
		print_null(PRINT_JSON, "pci_type", NULL, NULL);
		print_null(PRINT_JSON, "fid", NULL, NULL);
		print_null(PRINT_JSON, "pci_id", NULL, NULL);
		print_null(PRINT_JSON, "pchid", NULL, NULL);
		return;
	}
	if (t)
		print_string(PRINT_JSON, "pci_type", NULL, t);
	else
		print_null(PRINT_JSON, "pci_type", NULL, NULL);
	snprintf(buf, sizeof(buf), "0x%04x", d->fid);
	print_string(PRINT_JSON, "fid", NULL, buf);
	print_string(PRINT_JSON, "pci_id", NULL, d->pci_id);
	snprintf(buf, sizeof(buf), "0x%04x", d->pchid);
	print_string(PRINT_JSON, "pchid", NULL, buf);
	snprintf(buf, sizeof(buf), "0x%04x", d->vendor);
	print_string(PRINT_JSON, "pci_vendor", NULL, buf);
	snprintf(buf, sizeof(buf), "0x%04x", d->device);
	print_string(PRINT_JSON, "pci_device", NULL, buf);
}

static void json_pnetid(const struct smc_dev_port *p)
{
	if (p->pnetid[0])
		print_string(PRINT_JSON, "pnetid", NULL, p->pnetid);
	else
		print_null(PRINT_JSON, "pnetid", NULL, NULL);
	print_bool(PRINT_JSON, "pnetid_by_user", NULL, p->pnetid_by_user);
}

static bool port_matches(const struct smc_dev *d, const struct smc_dev_port *p,
			 const struct smc_dev_filter *f)
{
	char name[32];

	if (!p->valid)
		return false;
	if (f->ibdev && strcmp(f->ibdev, d->ibname))
		return false;
	if (f->netdev &&
	    strcmp(f->netdev, nla_ifname(p->ifindex, name, sizeof(name))))
		return false;
	return true;
}

static void print_smcd(const struct smc_dev_list *l, bool title)
{
	char type[16], pnet[24], buf[16];
	const struct smc_dev *d;
	unsigned int i;

	if (!json) {
		if (title)
			printf("SMC-D devices\n");
		printf("%-4s  %-13s  %-12s  %-5s  %-5s  %5s  %s\n", "FID",
		       "Type", "PCI-ID", "PCHID", "InUse", "#LGs", "PNET-ID");
	}
	for (i = 0; i < l->n; i++) {
		d = &l->dev[i];
		if (json) {
			open_json_object(NULL);
			print_string(PRINT_JSON, "mode", NULL, "SMC-D");
			json_pci(d);
			print_bool(PRINT_JSON, "in_use", NULL, d->use_cnt > 0);
			print_uint(PRINT_JSON, "linkgroups", NULL, d->use_cnt);
			json_pnetid(&d->port[0]);
			close_json_object();
			continue;
		}
		type_text(d, type, sizeof(type));
		pnetid_text(&d->port[0], pnet, sizeof(pnet));
		if (d->has_pci)
			snprintf(buf, sizeof(buf), "%04x", d->pchid);
		else
			snprintf(buf, sizeof(buf), "-");
		if (d->has_pci)
			printf("%04x", d->fid);
		else
			printf("%-4s", "-");
		printf("  %-13s  %-12s  %-5s  %-5s  %5u  %s\n", type,
		       d->has_pci ? d->pci_id : "-", buf,
		       d->use_cnt ? "Yes" : "No", d->use_cnt, pnet);
	}
}

static const char *port_state(uint8_t s)
{
	return s ? "ACTIVE" : "INACTIVE";
}

static void print_smcr(const struct smc_dev_list *l, const struct smc_dev_filter *f,
		       bool title)
{
	char type[16], pnet[24], ifname[32], fid[8], pchid[8];
	const struct smc_dev_port *p;
	const struct smc_dev *d;
	unsigned int i, j;

	if (!json) {
		if (title)
			printf("SMC-R devices\n");
		printf("%-15s  %-8s  %4s  %-8s  %-13s  %-4s  %-4s  %-12s  %-5s  %6s  %s\n",
		       "Net-Dev", "IB-Dev", "IB-P", "IB-State", "Type", "Crit",
		       "FID", "PCI-ID", "PCHID", "#Links", "PNET-ID");
	}
	for (i = 0; i < l->n; i++) {
		d = &l->dev[i];
		type_text(d, type, sizeof(type));
		snprintf(fid, sizeof(fid), d->has_pci ? "%04x" : "-", d->fid);
		snprintf(pchid, sizeof(pchid), d->has_pci ? "%04x" : "-",
			 d->pchid);
		if (json) {
			for (j = 0; j < SMC_DEV_PORTS; j++)
				if (port_matches(d, &d->port[j], f))
					break;
			if (j == SMC_DEV_PORTS && (f->netdev || f->ibdev))
				continue;
			open_json_object(NULL);
			print_string(PRINT_JSON, "mode", NULL, "SMC-R");
			print_string(PRINT_JSON, "ibdev", NULL, d->ibname);
			json_pci(d);
			print_bool(PRINT_JSON, "critical", NULL, d->critical);
			open_json_array(PRINT_JSON, "ports");
		}
		for (j = 0; j < SMC_DEV_PORTS; j++) {
			p = &d->port[j];
			if (!port_matches(d, p, f))
				continue;
			nla_ifname(p->ifindex, ifname, sizeof(ifname));
			if (json) {
				open_json_object(NULL);
				print_uint(PRINT_JSON, "ibport", NULL, j + 1);
				print_string(PRINT_JSON, "ifname", NULL, ifname);
				print_uint(PRINT_JSON, "interface", NULL,
					   p->ifindex);
				print_string(PRINT_JSON, "state", NULL,
					     port_state(p->state));
				print_uint(PRINT_JSON, "links", NULL, p->links);
				json_pnetid(p);
				close_json_object();
				continue;
			}
			pnetid_text(p, pnet, sizeof(pnet));
			printf("%-15s  %-8s  %4u  %-8s  %-13s  %-4s  %-4s  %-12s  %-5s  %6u  %s\n",
			       ifname, d->ibname, j + 1, port_state(p->state),
			       type, d->critical ? "Yes" : "No", fid,
			       d->has_pci ? d->pci_id : "-", pchid, p->links,
			       pnet);
		}
		if (json) {
			close_json_array(PRINT_JSON, NULL);
			close_json_object();
		}
	}
}

int smc_devname_check(const char *what, const char *arg, size_t max,
		      bool ifname)
{
	size_t len = strlen(arg), i;
	char rule[64];

	if (!len)
		return invalid_rule(what, arg, "it is empty", -1);
	for (i = 0; i < len; i++) {
		unsigned char c = arg[i];

		if (c <= ' ' || c == 0x7f || (ifname && (c == '/' || c == ':')))
			return invalid_rule(what, arg, ifname ?
					    "only printable characters but blank, '/' and ':' are allowed" :
					    "only printable characters but blank are allowed",
					    i);
	}
	if (len > max) {
		snprintf(rule, sizeof(rule), "it is longer than %zu characters",
			 max);
		return invalid_rule(what, arg, rule, -1);
	}
	if (!strcmp(arg, "n/a") || !strcmp(arg, ".") ||
	    !strcmp(arg, ".."))
		return invalid_rule(what, arg, "this name is reserved", -1);
	return 0;
}

int smc_dev_filter_arg(int *argcp, char ***argvp, struct smc_dev_filter *f,
		       const char *object)
{
	const char *kw = (*argvp)[0];
	const char **name;

	if (!strcmp(kw, "type")) {
		if (next_arg(argcp, argvp, object))
			return EXIT_USAGE;
		if (f->typed)
			return duparg("type", (*argvp)[0]);
		f->typed = true;
		if (!strcmp((*argvp)[0], "smcd")) {
			f->smcr = false;
		} else if (!strcmp((*argvp)[0], "smcr")) {
			f->smcd = false;
		} else {
			fprintf(stderr,
				"Error: type \"%s\" is not smcd or smcr, try \"smc %s help\".\n",
				(*argvp)[0], object);
			return EXIT_USAGE;
		}
		return 0;
	}
	if (strcmp(kw, "netdev") && strcmp(kw, "ibdev"))
		return -1;
	name = kw[0] == 'n' ? &f->netdev : &f->ibdev;
	if (next_arg(argcp, argvp, object))
		return EXIT_USAGE;
	if (*name)
		return duparg(kw, (*argvp)[0]);
	if (smc_devname_check(kw[0] == 'n' ? "interface name" : "device name",
			      (*argvp)[0], kw[0] == 'n' ? SMC_ETHNAME_LEN :
			      SMC_IBNAME_LEN, kw[0] == 'n'))
		return EXIT_USAGE;
	*name = (*argvp)[0];
	return 0;
}

static int parse_args(int argc, char **argv, struct smc_dev_filter *f)
{
	int ret;

	f->smcd = f->smcr = true;
	for (; argc > 0; argc--, argv++) {
		if (!strcmp(argv[0], "all"))
			continue;
		ret = smc_dev_filter_arg(&argc, &argv, f, "device");
		if (ret > 0)
			return ret;
		if (ret < 0) {
			fprintf(stderr,
				"Error: unexpected argument \"%s\", try \"smc device help\".\n",
				argv[0]);
			return EXIT_USAGE;
		}
	}
	/* SMC-D devices have neither a net device nor an IB device */
	if (f->netdev || f->ibdev) {
		if (!f->smcr) {
			fprintf(stderr,
				"Error: netdev and ibdev select SMC-R devices, not type smcd.\n");
			return EXIT_USAGE;
		}
		f->smcd = false;
	}
	return 0;
}

/* show [ all ] [ type TYPE ] [ netdev NETDEV ] [ ibdev IBDEV ] */
static int device_show(int argc, char **argv)
{
	struct smc_dev_list smcd = { 0 }, smcr = { 0 };
	struct smc_dev_filter f = { 0 };
	struct smc_genl g;
	int ret;

	ret = parse_args(argc, argv, &f);
	if (ret)
		return ret;

	if (smc_genl_open(&g))
		return EXIT_FAIL;
	ret = 0;
	if (f.smcd)
		ret = smc_dev_read(&g, true, &smcd);
	if (!ret && f.smcr)
		ret = smc_dev_read(&g, false, &smcr);
	smc_genl_close(&g);
	if (ret)
		goto out;

	new_json_obj(json, pretty);
	if (f.smcd)
		print_smcd(&smcd, f.smcr);
	if (f.smcd && f.smcr && !json)
		putchar('\n');
	if (f.smcr)
		print_smcr(&smcr, &f, f.smcd);
	delete_json_obj();
out:
	smc_dev_free(&smcd);
	smc_dev_free(&smcr);
	return ret ? EXIT_FAIL : EXIT_OK;
}

/* a filter keyword first is "show" left out */
static const struct cmd device_cmds[] = {
	{ "show", device_show, 0 },
	{ "all", device_show, CMD_EXACT | CMD_KEEP },
	{ "type", device_show, CMD_EXACT | CMD_KEEP },
	{ "netdev", device_show, CMD_EXACT | CMD_KEEP },
	{ "ibdev", device_show, CMD_EXACT | CMD_KEEP },
	{ NULL, NULL, 0 },
};

/**
 * do_device() - smc device [ show ] [ all ] [ type TYPE ] [ netdev NETDEV ]
 * [ ibdev IBDEV ] | help
 * @argc: number of arguments after "device"
 * @argv: those arguments
 *
 * Return: 0, 1 when the devices cannot be read, 2 on a usage error.
 */
int do_device(int argc, char **argv)
{
	return cmd_select(device_cmds, argc, argv, "device", usage);
}
