// SPDX-License-Identifier: GPL-2.0
/*
 * ueid.c - smc ueid { show | add EID | del EID | flush }: the table of user
 * defined enterprise IDs (UEIDs) of the SMC module
 *
 * The kernel (net/smc/smc_clc.c, smc_clc_ueid_valid() and
 * smc_nl_add_ueid()) takes an EID as exactly 32 characters plus a NUL:
 * A-Z, 0-9, '.' and '-', the first one A-Z or 0-9, padded with blanks at
 * the end. We check the same rules before sending anything, so that the
 * user learns which rule an EID breaks, convert lower case letters to
 * upper case and pad with blanks.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/smc.h>

#include "genl.h"
#include "json_print.h"
#include "smc.h"

/* An EID as the kernel wants it: SMC_MAX_EID_LEN characters and a NUL */
struct eid {
	char padded[SMC_MAX_EID_LEN + 1];	/* upper case, blank padded */
	char name[SMC_MAX_EID_LEN + 1];		/* the same without padding */
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: smc ueid [ show ]\n"
		"       smc ueid add EID\n"
		"       smc ueid del EID\n"
		"       smc ueid flush\n"
		"       smc ueid help\n"
		"where  EID := 1 to %d characters A-Z, 0-9, '.' and '-', the first one\n"
		"              A-Z or 0-9; lower case letters are taken as upper case\n",
		SMC_MAX_EID_LEN);
}

static bool is_upper_alnum(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static int eid_invalid(const char *arg, const char *rule, size_t pos)
{
	return invalid_rule("EID", arg, rule, pos);
}

/*
 * Check @arg against the kernel's rules and make the form it wants.
 * Trailing blanks are padding and allowed. Returns 0, or 2 after printing
 * which rule @arg breaks.
 */
static int eid_parse(const char *arg, struct eid *eid)
{
	size_t len = strlen(arg);
	size_t i;

	while (len && arg[len - 1] == ' ')
		len--;
	if (!len)
		return eid_invalid(arg, "it is empty", -1);
	if (len > SMC_MAX_EID_LEN)
		return eid_invalid(arg, "it is longer than 32 characters", -1);
	memset(eid, 0, sizeof(*eid));
	for (i = 0; i < len; i++) {
		char c = arg[i];

		if (c >= 'a' && c <= 'z')
			c -= 'a' - 'A';
		if (!i && !is_upper_alnum(c))
			return eid_invalid(arg,
					   "the first character must be A-Z or 0-9",
					   i);
		if (!is_upper_alnum(c) && c != '.' && c != '-')
			return eid_invalid(arg,
					   "only A-Z, 0-9, '.' and '-' are allowed",
					   i);
		eid->name[i] = c;
	}
	snprintf(eid->padded, sizeof(eid->padded), "%-*s", SMC_MAX_EID_LEN,
		 eid->name);
	return 0;
}

/* The table as dumped; the kernel keeps at most SMC_MAX_UEID entries */
#define MAX_SHOWN 64

struct ueid_list {
	unsigned int n;
	char name[MAX_SHOWN][SMC_MAX_EID_LEN + 1];
};

static int cb_show(const struct nlmsghdr *nlh, void *data)
{
	struct ueid_list *list = data;
	const struct nlattr *attr;
	char *name;
	size_t len;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) != SMC_NLA_EID_TABLE_ENTRY)
			continue;
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0) {
			fprintf(stderr,
				"Error: the kernel sent a malformed EID attribute\n");
			errno = EBADMSG;
			return MNL_CB_ERROR;
		}
		if (list->n >= MAX_SHOWN)
			continue;
		name = list->name[list->n++];
		snprintf(name, SMC_MAX_EID_LEN + 1, "%s",
			 mnl_attr_get_str(attr));
		len = strlen(name);
		while (len && name[len - 1] == ' ')
			name[--len] = '\0';
	}
	return MNL_CB_OK;
}

static int ueid_show(struct smc_genl *g)
{
	char req[SMC_GENL_REQ_SIZE] __attribute__((aligned(4)));
	static struct ueid_list list;
	struct nlmsghdr *nlh;
	unsigned int i;
	int err;

	nlh = smc_genl_msg(g, req, SMC_NETLINK_DUMP_UEID, NLM_F_DUMP);
	err = smc_genl_talk(g, nlh, cb_show, &list);
	if (err == -EBADMSG)
		return 1;
	if (err == -EOPNOTSUPP)
		return smc_genl_error(g, 0,
				      "the running kernel cannot list user EIDs (no SMC_NETLINK_DUMP_UEID)");
	if (err)
		return smc_genl_error(g, err, "cannot list the user EIDs");

	/* print only a complete answer: no partial JSON on errors */
	new_json_obj(json, pretty);
	for (i = 0; i < list.n; i++) {
		open_json_object(NULL);
		print_string(PRINT_ANY, "eid", "%s\n", list.name[i]);
		close_json_object();
	}
	delete_json_obj();
	return 0;
}

static int ueid_change(struct smc_genl *g, uint8_t cmd, const struct eid *eid)
{
	char req[SMC_GENL_REQ_SIZE] __attribute__((aligned(4)));
	const char *what = cmd == SMC_NETLINK_ADD_UEID ? "adding a user EID" :
			   cmd == SMC_NETLINK_REMOVE_UEID ?
			   "removing a user EID" : "flushing the user EIDs";
	struct nlmsghdr *nlh;
	int err;

	nlh = smc_genl_msg(g, req, cmd, 0);
	if (eid)
		mnl_attr_put(nlh, SMC_NLA_EID_TABLE_ENTRY, sizeof(eid->padded),
			     eid->padded);
	err = smc_genl_talk(g, nlh, NULL, NULL);

	if (!err) {
		if (g->extack[0])
			fprintf(stderr, "Warning: %s\n", g->extack);
		return 0;
	}
	switch (err) {
	case -EPERM:
	case -EACCES:
		return smc_genl_error(g, err, "%s needs the CAP_NET_ADMIN capability",
				      what);
	case -EOPNOTSUPP:
		return smc_genl_error(g, 0,
				      "the running kernel does not support %s",
				      what);
	}
	if (cmd == SMC_NETLINK_ADD_UEID) {
		switch (err) {
		case -EEXIST:
			return smc_genl_error(g, 0,
					      "EID \"%s\" is already in the table",
					      eid->name);
		case -ERANGE:
			return smc_genl_error(g, 0,
					      "cannot add EID \"%s\": the table is full (at most %d user EIDs); delete one first",
					      eid->name, SMC_MAX_UEID);
		case -EINVAL:
			return smc_genl_error(g, 0,
					      "the kernel refused EID \"%s\" as invalid",
					      eid->name);
		}
		return smc_genl_error(g, err, "cannot add EID \"%s\"",
				      eid->name);
	}
	if (cmd == SMC_NETLINK_REMOVE_UEID) {
		switch (err) {
		case -ENOENT:
			return smc_genl_error(g, 0,
					      "EID \"%s\" is not in the table",
					      eid->name);
		case -EAGAIN:
			/* s390: removed, and the table is empty now */
			fprintf(stderr,
				"Info: the last user EID was removed, the system EID is enabled\n");
			return 0;
		case -EINVAL:
			return smc_genl_error(g, 0,
					      "the kernel refused EID \"%s\" as invalid",
					      eid->name);
		}
		return smc_genl_error(g, err, "cannot delete EID \"%s\"",
				      eid->name);
	}
	return smc_genl_error(g, err, "cannot flush the user EIDs");
}

static int too_many(const char *arg)
{
	fprintf(stderr,
		"Error: unexpected argument \"%s\", try \"smc ueid help\".\n",
		arg);
	return EXIT_USAGE;
}

/* open the SMC family and send @cmd (@eid for add and del) */
static int ueid_run(uint8_t cmd, const struct eid *eid)
{
	struct smc_genl g;
	int ret;

	if (smc_genl_open(&g))
		return EXIT_FAIL;
	if (cmd == SMC_NETLINK_DUMP_UEID)
		ret = ueid_show(&g);
	else
		ret = ueid_change(&g, cmd, eid);
	smc_genl_close(&g);
	return ret;
}

static int ueid_cmd_show(int argc, char **argv)
{
	if (argc > 0)
		return too_many(argv[0]);
	return ueid_run(SMC_NETLINK_DUMP_UEID, NULL);
}

/* add EID, del EID */
static int ueid_cmd_change(uint8_t cmd, int argc, char **argv)
{
	struct eid eid;
	int ret;

	if (argc < 1) {
		fprintf(stderr,
			"Error: \"%s\" needs an EID, try \"smc ueid help\".\n",
			cmd == SMC_NETLINK_ADD_UEID ? "add" : "del");
		return EXIT_USAGE;
	}
	if (argc > 1)
		return too_many(argv[1]);
	ret = eid_parse(argv[0], &eid);
	if (ret)
		return ret;
	return ueid_run(cmd, &eid);
}

static int ueid_cmd_add(int argc, char **argv)
{
	return ueid_cmd_change(SMC_NETLINK_ADD_UEID, argc, argv);
}

static int ueid_cmd_del(int argc, char **argv)
{
	return ueid_cmd_change(SMC_NETLINK_REMOVE_UEID, argc, argv);
}

static int ueid_cmd_flush(int argc, char **argv)
{
	if (argc > 0)
		return too_many(argv[0]);
	return ueid_run(SMC_NETLINK_FLUSH_UEID, NULL);
}

static const struct cmd ueid_cmds[] = {
	{ "show", ueid_cmd_show, 0 },
	{ "list", ueid_cmd_show, 0 },
	{ "add", ueid_cmd_add, 0 },
	{ "del", ueid_cmd_del, 0 },
	{ "delete", ueid_cmd_del, 0 },
	{ "flush", ueid_cmd_flush, 0 },
	{ NULL, NULL, 0 },
};

/**
 * do_ueid() - smc ueid { show | add EID | del EID | flush | help }
 * @argc: number of arguments after "ueid"
 * @argv: those arguments, argv[0] the command; no command means show
 *
 * Return: 0 on success, 1 when the kernel request fails (SMC missing,
 * EPERM, EID exists or not found, ...), 2 on a usage error, an invalid
 * EID included (nothing is sent then). Errors are printed on stderr.
 */
int do_ueid(int argc, char **argv)
{
	return cmd_select(ueid_cmds, argc, argv, "ueid", usage);
}
