// SPDX-License-Identifier: GPL-2.0
/*
 * pnet.c - smc pnet { show [PNETID] | add PNETID DEVICE... | del PNETID |
 * flush }: the PNET table of the SMC module, as smc-tools' smc_pnet, through
 * the generic netlink family SMC_PNETID (net/smc/smc_pnet.c)
 *
 * The kernel keeps one table per network namespace. An entry maps a PNET ID
 * to a network interface (eth) or to an RDMA or ISM device and port (ib);
 * outside the initial namespace it keeps and lists interfaces only. It
 * takes a PNET ID as 1 to 16 letters and digits (smc_pnetid_valid()) and
 * upper-cases it on add, but compares it as sent on del; we check the rules
 * before sending anything and upper-case it for every command, so that del
 * and show find what add stored.
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
#include "smc.h"

/* Limits of the kernel: SMC_MAX_PNETID_LEN (include/net/smc.h), the
 * policy lengths IFNAMSIZ - 1 and IB_DEVICE_NAME_MAX - 1, SMC_MAX_PORTS
 */
#define PNETID_LEN	16
#define ETHNAME_LEN	SMC_ETHNAME_LEN
#define IBNAME_LEN	SMC_IBNAME_LEN
#define MAX_PORTS	2

/* What the kernel sends for the half of an entry that is not used */
#define NOT_APPLICABLE	"n/a"

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: smc pnet [ show [ PNETID ] ]\n"
		"       smc pnet add PNETID { eth DEV | ib IBDEV [ port N ] }...\n"
		"       smc pnet { del | delete } PNETID\n"
		"       smc pnet flush\n"
		"       smc pnet help\n"
		"where  PNETID := 1 to %d letters and digits; lower case letters are\n"
		"                 taken as upper case\n"
		"       DEV := network interface name, 1 to %d characters\n"
		"       IBDEV := RDMA or ISM device name, 1 to %d characters\n"
		"       N := IB port, 1 or 2 (default 1)\n",
		PNETID_LEN, ETHNAME_LEN, IBNAME_LEN);
}

static int help_hint(const char *fmt, const char *arg)
{
	fputs("Error: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs(", try \"smc pnet help\".\n", stderr);
	return EXIT_USAGE;
}

static bool is_alnum(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	       (c >= '0' && c <= '9');
}

/*
 * Check PNET ID @arg (smc_pnetid_valid() in ASCII, without the blanks it
 * strips) and write it upper-cased to @out of PNETID_LEN + 1 bytes.
 * Returns 0, or 2 after printing the rule @arg breaks.
 */
static int pnetid_parse(const char *arg, char *out)
{
	size_t len = strlen(arg), i;

	if (!len)
		return invalid_rule("PNET ID", arg, "it is empty", -1);
	for (i = 0; i < len; i++)
		if (!is_alnum(arg[i]))
			return invalid_rule("PNET ID", arg,
					    "only letters A-Z and digits 0-9 are allowed",
					    i);
	if (len > PNETID_LEN)
		return invalid_rule("PNET ID", arg,
				    "it is longer than 16 characters", -1);
	for (i = 0; i < len; i++)
		out[i] = arg[i] >= 'a' && arg[i] <= 'z' ?
			 arg[i] - 'a' + 'A' : arg[i];
	out[len] = '\0';
	return 0;
}


/* One device of smc pnet add: an interface, or an IB/ISM device and port */
struct pnet_dev {
	const char *eth;
	const char *ib;
	unsigned int port;	/* 0: not given, 1 is sent */
};

/* ---- show ---- */

struct pnet_entry {
	char pnetid[PNETID_LEN + 1];
	char eth[ETHNAME_LEN + 1];
	char ib[IBNAME_LEN + 1];
	unsigned int port;
};

struct pnet_list {
	const char *filter;	/* upper-cased PNET ID, or NULL */
	bool printed;		/* the callback printed its error */
	unsigned int n, size;
	struct pnet_entry *e;
};

static int bad_answer(struct pnet_list *list)
{
	list->printed = true;
	fprintf(stderr,
		"Error: the kernel sent a malformed PNET table entry\n");
	errno = EBADMSG;
	return MNL_CB_ERROR;
}

/* Copy string attribute @a into @buf of @size; false when malformed */
static bool get_str(const struct nlattr *a, char *buf, size_t size)
{
	const char *s;
	size_t len;

	if (!a || mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0)
		return false;
	s = mnl_attr_get_str(a);
	len = strnlen(s, mnl_attr_get_payload_len(a));
	if (len >= size)
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return true;
}

/* smc_pnet_set_nla(): NAME, ETHNAME or "n/a", IBNAME or "n/a", IBPORT
 * (0xff for interfaces)
 */
static int cb_show(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[SMC_PNETID_MAX + 1] = { NULL };
	struct pnet_list *list = data;
	const struct nlattr *attr;
	struct pnet_entry e, *grown;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(attr) <= SMC_PNETID_MAX)
			tb[mnl_attr_get_type(attr)] = attr;
	memset(&e, 0, sizeof(e));
	if (!get_str(tb[SMC_PNETID_NAME], e.pnetid, sizeof(e.pnetid)) ||
	    !get_str(tb[SMC_PNETID_ETHNAME], e.eth, sizeof(e.eth)) ||
	    !get_str(tb[SMC_PNETID_IBNAME], e.ib, sizeof(e.ib)) ||
	    !tb[SMC_PNETID_IBPORT] ||
	    mnl_attr_validate(tb[SMC_PNETID_IBPORT], MNL_TYPE_U8) < 0)
		return bad_answer(list);
	e.port = mnl_attr_get_u8(tb[SMC_PNETID_IBPORT]);
	if (!strcmp(e.eth, NOT_APPLICABLE))
		e.eth[0] = '\0';
	if (!strcmp(e.ib, NOT_APPLICABLE))
		e.ib[0] = '\0';
	/* exactly one of the two */
	if (!e.pnetid[0] || !e.eth[0] == !e.ib[0])
		return bad_answer(list);
	if (list->filter && strcmp(list->filter, e.pnetid))
		return MNL_CB_OK;
	if (list->n == list->size) {
		list->size = list->size ? 2 * list->size : 16;
		grown = realloc(list->e, list->size * sizeof(*list->e));
		if (!grown) {
			list->printed = true;
			fprintf(stderr, "Error: out of memory\n");
			errno = ENOMEM;
			return MNL_CB_ERROR;
		}
		list->e = grown;
	}
	list->e[list->n++] = e;
	return MNL_CB_OK;
}

static int pnet_show(struct smc_genl *g, const char *filter)
{
	char req[SMC_GENL_REQ_SIZE] __attribute__((aligned(4)));
	struct pnet_list list = { .filter = filter };
	struct nlmsghdr *nlh;
	unsigned int i;
	int err;

	/* the whole table, filtered here: the kernel's GET of one PNET ID
	 * answers in one message of limited size
	 */
	nlh = smc_genl_msg(g, req, SMC_PNETID_GET, NLM_F_DUMP);
	err = smc_genl_talk(g, nlh, cb_show, &list);
	if (err) {
		free(list.e);
		if (list.printed)
			return EXIT_FAIL;
		return smc_genl_error(g, err, "cannot read the PNET table");
	}

	/* print only a complete answer: no partial JSON on errors */
	new_json_obj(json, pretty);
	for (i = 0; i < list.n; i++) {
		const struct pnet_entry *e = &list.e[i];

		open_json_object(NULL);
		print_string(PRINT_ANY, "pnetid", "%s", e->pnetid);
		if (e->eth[0]) {
			print_string(PRINT_ANY, "type", " %s", "eth");
			print_string(PRINT_ANY, "ifname", " %s", e->eth);
			print_null(PRINT_JSON, "ibdev", NULL, NULL);
			print_null(PRINT_JSON, "ibport", NULL, NULL);
		} else {
			print_string(PRINT_ANY, "type", " %s", "ib");
			print_null(PRINT_JSON, "ifname", NULL, NULL);
			print_string(PRINT_ANY, "ibdev", " %s", e->ib);
			print_uint(PRINT_ANY, "ibport", " port %u", e->port);
		}
		print_string(PRINT_FP, NULL, "\n", NULL);
		close_json_object();
	}
	delete_json_obj();
	free(list.e);
	return EXIT_OK;
}

/* ---- add, del, flush ---- */

static int change_failed(struct smc_genl *g, int err, const char *what)
{
	switch (err) {
	case -EPERM:
	case -EACCES:
		return smc_genl_error(g, err,
				      "%s needs the CAP_NET_ADMIN capability",
				      what);
	case -EOPNOTSUPP:
		return smc_genl_error(g, 0,
				      "the running kernel does not support %s",
				      what);
	}
	return 0;
}

/* Which devices of an add are in the table although a later one failed */
static void added_before(const struct pnet_dev *dev, unsigned int n)
{
	unsigned int i;

	fputs("Info: added before the error:", stderr);
	for (i = 0; i < n; i++) {
		if (dev[i].eth)
			fprintf(stderr, " eth %s", dev[i].eth);
		else
			fprintf(stderr, " ib %s port %u", dev[i].ib,
				dev[i].port ? dev[i].port : 1);
	}
	fputc('\n', stderr);
}

/* The message for error @err of the kernel on adding @dev */
static int add_failed(struct smc_genl *g, int err, const char *pnetid,
		      const struct pnet_dev *dev)
{
	const char *kind = dev->eth ? "interface" : "device";
	const char *name = dev->eth ? dev->eth : dev->ib;
	int ret;

	ret = change_failed(g, err, "adding a PNET table entry");
	if (ret)
		return ret;
	if (err == -EEXIST && dev->eth)
		return smc_genl_error(g, 0,
				      "interface \"%s\" has a PNET ID already (a table entry, or one of its hardware)",
				      name);
	if (err == -EEXIST)
		return smc_genl_error(g, 0,
				      "device \"%s\" has a table entry already, or a PNET ID of its hardware or set by the user (outside the initial network namespace only interfaces can be added)",
				      name);
	if (err == -EINVAL)
		return smc_genl_error(g, 0,
				      "the kernel refused PNET ID \"%s\" for %s \"%s\" as invalid",
				      pnetid, kind, name);
	return smc_genl_error(g, err, "cannot add PNET ID \"%s\" for %s \"%s\"",
			      pnetid, kind, name);
}

/* One SMC_PNETID_ADD per device, so that each gets its own answer (the
 * kernel answers 0 for a request of two when one of them was added)
 */
static int pnet_add(struct smc_genl *g, const char *pnetid,
		    const struct pnet_dev *dev, unsigned int n)
{
	char req[SMC_GENL_REQ_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	unsigned int i;
	int err, ret;

	for (i = 0; i < n; i++) {
		nlh = smc_genl_msg(g, req, SMC_PNETID_ADD, 0);
		mnl_attr_put_strz(nlh, SMC_PNETID_NAME, pnetid);
		if (dev[i].eth) {
			mnl_attr_put_strz(nlh, SMC_PNETID_ETHNAME, dev[i].eth);
		} else {
			mnl_attr_put_strz(nlh, SMC_PNETID_IBNAME, dev[i].ib);
			mnl_attr_put_u8(nlh, SMC_PNETID_IBPORT,
					dev[i].port ? dev[i].port : 1);
		}
		err = smc_genl_talk(g, nlh, NULL, NULL);
		if (!err) {
			if (g->extack[0])
				fprintf(stderr, "Warning: %s\n", g->extack);
			continue;
		}
		ret = add_failed(g, err, pnetid, &dev[i]);
		if (i)
			added_before(dev, i);
		return ret;
	}
	return EXIT_OK;
}

static int pnet_del(struct smc_genl *g, uint8_t cmd, const char *pnetid)
{
	char req[SMC_GENL_REQ_SIZE] __attribute__((aligned(4)));
	const char *what = cmd == SMC_PNETID_DEL ?
			   "deleting a PNET ID" : "flushing the PNET table";
	struct nlmsghdr *nlh;
	int err, ret;

	nlh = smc_genl_msg(g, req, cmd, 0);
	if (pnetid)
		mnl_attr_put_strz(nlh, SMC_PNETID_NAME, pnetid);
	err = smc_genl_talk(g, nlh, NULL, NULL);
	if (!err) {
		if (g->extack[0])
			fprintf(stderr, "Warning: %s\n", g->extack);
		return EXIT_OK;
	}
	ret = change_failed(g, err, what);
	if (ret)
		return ret;
	if (cmd == SMC_PNETID_DEL && err == -ENOENT)
		return smc_genl_error(g, 0,
				      "PNET ID \"%s\" is not in the table, nor set by the user on a device",
				      pnetid);
	if (cmd == SMC_PNETID_DEL)
		return smc_genl_error(g, err, "cannot delete PNET ID \"%s\"",
				      pnetid);
	return smc_genl_error(g, err, "cannot flush the PNET table");
}

/* ---- arguments ---- */

static int needs_pnetid(const char *cmd)
{
	fprintf(stderr,
		"Error: \"%s\" needs a PNET ID, try \"smc pnet help\".\n",
		cmd);
	return EXIT_USAGE;
}

/* add PNETID { eth DEV | ib IBDEV [ port N ] }...: @argv after PNETID */
static int parse_devs(int argc, char **argv, struct pnet_dev *dev,
		      unsigned int *n)
{
	uint32_t port;
	unsigned int i;
	int ret;

	*n = 0;
	for (; argc > 0; argc--, argv++) {
		const char *kw = argv[0];

		if (strcmp(kw, "eth") && strcmp(kw, "ib") &&
		    strcmp(kw, "port"))
			return help_hint("\"%s\" is not eth, ib or port", kw);
		if (next_arg(&argc, &argv, "pnet"))
			return EXIT_USAGE;
		if (!strcmp(kw, "port")) {
			if (!*n || !dev[*n - 1].ib)
				return help_hint("\"port %s\" does not follow ib IBDEV",
						 argv[0]);
			if (dev[*n - 1].port)
				return duparg("port", argv[0]);
			/* a digit first: no blank or sign before the port */
			if (argv[0][0] < '0' || argv[0][0] > '9' ||
			    get_u32(&port, argv[0], 10) ||
			    port < 1 || port > MAX_PORTS)
				return invalid_rule("IB port", argv[0],
						    "it is not 1 or 2", -1);
			dev[*n - 1].port = port;
			continue;
		}
		if (!strcmp(kw, "eth"))
			ret = smc_devname_check("interface name", argv[0],
					    ETHNAME_LEN, true);
		else
			ret = smc_devname_check("device name", argv[0],
					    IBNAME_LEN, false);
		if (ret)
			return ret;
		/* the kernel keeps one entry per interface and per device */
		for (i = 0; i < *n; i++) {
			const char *prev = dev[i].eth;

			if (kw[0] == 'i')
				prev = dev[i].ib;
			if (prev && !strcmp(prev, argv[0])) {
				fprintf(stderr,
					"Error: duplicate \"%s %s\".\n", kw,
					argv[0]);
				return EXIT_USAGE;
			}
		}
		memset(&dev[*n], 0, sizeof(dev[*n]));
		if (kw[0] == 'e')
			dev[*n].eth = argv[0];
		else
			dev[*n].ib = argv[0];
		(*n)++;
	}
	if (!*n) {
		fprintf(stderr,
			"Error: \"add\" needs a device: eth DEV or ib IBDEV, try \"smc pnet help\".\n");
		return EXIT_USAGE;
	}
	return 0;
}

/* open the SMC-R family and send @cmd; frees @dev */
static int pnet_run(uint8_t cmd, const char *pnetid, struct pnet_dev *dev,
		    unsigned int ndev)
{
	struct smc_genl g;
	int ret;

	if (smc_genl_open_family(&g, SMCR_GENL_FAMILY_NAME)) {
		free(dev);
		return EXIT_FAIL;
	}
	switch (cmd) {
	case SMC_PNETID_GET:
		ret = pnet_show(&g, pnetid);
		break;
	case SMC_PNETID_ADD:
		ret = pnet_add(&g, pnetid, dev, ndev);
		break;
	default:
		ret = pnet_del(&g, cmd, pnetid);
		break;
	}
	smc_genl_close(&g);
	free(dev);
	return ret;
}

/* show [ PNETID ] */
static int pnet_cmd_show(int argc, char **argv)
{
	char pnetid[PNETID_LEN + 1];
	int ret;

	if (argc > 1)
		return help_hint("unexpected argument \"%s\"", argv[1]);
	if (!argc)
		return pnet_run(SMC_PNETID_GET, NULL, NULL, 0);
	ret = pnetid_parse(argv[0], pnetid);
	if (ret)
		return ret;
	return pnet_run(SMC_PNETID_GET, pnetid, NULL, 0);
}

/* add PNETID { eth DEV | ib IBDEV [ port N ] }... */
static int pnet_cmd_add(int argc, char **argv)
{
	char pnetid[PNETID_LEN + 1];
	struct pnet_dev *dev;
	unsigned int ndev = 0;
	int ret;

	if (argc < 1)
		return needs_pnetid("add");
	ret = pnetid_parse(argv[0], pnetid);
	if (ret)
		return ret;
	dev = calloc(argc, sizeof(*dev));
	if (!dev) {
		fprintf(stderr, "Error: out of memory\n");
		return EXIT_FAIL;
	}
	ret = parse_devs(argc - 1, argv + 1, dev, &ndev);
	if (ret) {
		free(dev);
		return ret;
	}
	return pnet_run(SMC_PNETID_ADD, pnetid, dev, ndev);
}

/* del PNETID */
static int pnet_cmd_del(int argc, char **argv)
{
	char pnetid[PNETID_LEN + 1];
	int ret;

	if (argc < 1)
		return needs_pnetid("del");
	if (argc > 1)
		return help_hint("unexpected argument \"%s\"", argv[1]);
	ret = pnetid_parse(argv[0], pnetid);
	if (ret)
		return ret;
	return pnet_run(SMC_PNETID_DEL, pnetid, NULL, 0);
}

static int pnet_cmd_flush(int argc, char **argv)
{
	if (argc > 0)
		return help_hint("unexpected argument \"%s\"", argv[0]);
	return pnet_run(SMC_PNETID_FLUSH, NULL, NULL, 0);
}

static const struct cmd pnet_cmds[] = {
	{ "show", pnet_cmd_show, 0 },
	{ "list", pnet_cmd_show, 0 },
	{ "add", pnet_cmd_add, 0 },
	{ "del", pnet_cmd_del, 0 },
	{ "delete", pnet_cmd_del, 0 },
	{ "flush", pnet_cmd_flush, 0 },
	{ NULL, NULL, 0 },
};

/**
 * do_pnet() - smc pnet { show [PNETID] | add | del | flush | help }
 * @argc: number of arguments after "pnet"
 * @argv: those arguments, argv[0] the command; no command means show
 *
 * Return: 0 on success, 1 when the kernel request fails (no SMC, EPERM,
 * EEXIST, ENOENT, ...), 2 on a usage error, invalid names included
 * (nothing is sent then). Errors are printed on stderr.
 */
int do_pnet(int argc, char **argv)
{
	return cmd_select(pnet_cmds, argc, argv, "pnet", usage);
}
