// SPDX-License-Identifier: GPL-2.0
/*
 * seid.c - smc seid: the system EID (SEID) the kernel derives from the
 * machine on s390 with ISM v2, and whether SMC-Dv2 handshakes offer it.
 * The kernel side is smc_nl_dump_seid(), smc_nl_enable_seid() and
 * smc_nl_disable_seid() in net/smc/smc_clc.c: the dump always answers one
 * message, with the SEID and its state only when ISM v2 is possible;
 * enable and disable are s390-only (EOPNOTSUPP elsewhere), and disable
 * fails with ENOENT while the UEID table is empty.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/smc.h>

#include "genl.h"
#include "json_print.h"
#include "smc.h"

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: smc [ -j [ -p ] ] seid [ show ]\n"
		"       smc seid { enable | disable }\n"
		"       smc seid help\n");
}

static int cb_seid(const struct nlmsghdr *nlh, void *data)
{
	struct smc_seid *s = data;
	const struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(attr)) {
		case SMC_NLA_SEID_ENTRY:
			if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0)
				goto bad;
			snprintf(s->seid, sizeof(s->seid), "%s",
				 mnl_attr_get_str(attr));
			s->have_seid = true;
			break;
		case SMC_NLA_SEID_ENABLED:
			if (mnl_attr_validate(attr, MNL_TYPE_U8) < 0)
				goto bad;
			s->enabled = mnl_attr_get_u8(attr);
			s->have_enabled = true;
			break;
		}
	}
	return MNL_CB_OK;
bad:
	fprintf(stderr, "Error: the kernel sent a malformed SEID attribute\n");
	errno = EBADMSG;
	return MNL_CB_ERROR;
}

int smc_seid_read(struct smc_genl *g, struct smc_seid *s)
{
	char req[SMC_GENL_REQ_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;

	memset(s, 0, sizeof(*s));
	nlh = smc_genl_msg(g, req, SMC_NETLINK_DUMP_SEID, NLM_F_DUMP);
	return smc_genl_talk(g, nlh, cb_seid, s);
}

int smc_seid_set(struct smc_genl *g, bool enable)
{
	char req[SMC_GENL_REQ_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;

	nlh = smc_genl_msg(g, req, enable ? SMC_NETLINK_ENABLE_SEID :
			   SMC_NETLINK_DISABLE_SEID, 0);
	return smc_genl_talk(g, nlh, NULL, NULL);
}

/* the SEID as the kernel pads it to 32 characters, without the blanks */
static void trim(char *s)
{
	size_t len = strlen(s);

	while (len && s[len - 1] == ' ')
		s[--len] = '\0';
}

/* No word after the subcommand, then the generic netlink socket @g.
 * Return: 0, or the exit status after the message.
 */
static int seid_open(int argc, char **argv, struct smc_genl *g)
{
	if (argc > 0) {
		fprintf(stderr,
			"Error: unexpected argument \"%s\", try \"smc seid help\".\n",
			argv[0]);
		return EXIT_USAGE;
	}
	return smc_genl_open(g) ? EXIT_FAIL : 0;
}

static int seid_show(int argc, char **argv)
{
	struct smc_seid s;
	struct smc_genl g;
	int err = seid_open(argc, argv, &g);

	if (err)
		return err;
	err = smc_seid_read(&g, &s);
	if (err == -EBADMSG) {
		smc_genl_close(&g);
		return EXIT_FAIL;
	}
	if (err == -EOPNOTSUPP) {
		err = smc_genl_error(&g, 0,
				     "the running kernel cannot show the system EID (no SMC_NETLINK_DUMP_SEID)");
		smc_genl_close(&g);
		return err;
	}
	if (err) {
		err = smc_genl_error(&g, err, "cannot read the system EID");
		smc_genl_close(&g);
		return err;
	}
	smc_genl_close(&g);
	trim(s.seid);

	if (json) {
		new_json_obj(json, pretty);
		open_json_object(NULL);
		if (s.have_seid)
			print_string(PRINT_JSON, "seid", NULL, s.seid);
		else
			print_null(PRINT_JSON, "seid", NULL, NULL);
		if (s.have_enabled)
			print_bool(PRINT_JSON, "enabled", NULL, s.enabled);
		else
			print_null(PRINT_JSON, "enabled", NULL, NULL);
		close_json_object();
		delete_json_obj();
		return EXIT_OK;
	}
	if (!s.have_seid) {
		printf("SEID n/a (no ISM v2)\n");
		return EXIT_OK;
	}
	printf("SEID %s %s\n", s.seid,
	       !s.have_enabled ? "" : s.enabled ? "enabled" : "disabled");
	return EXIT_OK;
}

static int seid_change(bool enable, int argc, char **argv)
{
	const char *what = enable ? "enable" : "disable";
	struct smc_genl g;
	int err = seid_open(argc, argv, &g);

	if (err)
		return err;
	err = smc_seid_set(&g, enable);
	switch (err) {
	case 0:
		if (g.extack[0])
			fprintf(stderr, "Warning: %s\n", g.extack);
		break;
	case -EPERM:
	case -EACCES:
		err = smc_genl_error(&g, err,
				     "to %s the system EID needs the CAP_NET_ADMIN capability",
				     what);
		break;
	case -EOPNOTSUPP:
		err = smc_genl_error(&g, 0,
				     "the running kernel cannot %s the system EID (only s390 kernels can)",
				     what);
		break;
	case -ENOENT:
		err = smc_genl_error(&g, 0,
				     "the system EID cannot be disabled while no user EID is defined (smc ueid add)");
		break;
	default:
		err = smc_genl_error(&g, err, "cannot %s the system EID",
				     what);
	}
	smc_genl_close(&g);
	return err ? EXIT_FAIL : EXIT_OK;
}

static int seid_enable(int argc, char **argv)
{
	return seid_change(true, argc, argv);
}

static int seid_disable(int argc, char **argv)
{
	return seid_change(false, argc, argv);
}

static const struct cmd seid_cmds[] = {
	{ "show", seid_show, 0 },
	{ "enable", seid_enable, CMD_EXACT },
	{ "disable", seid_disable, CMD_EXACT },
	{ NULL, NULL, 0 },
};

/**
 * do_seid() - smc seid [ show | enable | disable | help ]
 * @argc: number of arguments after "seid"
 * @argv: those arguments; no command means show
 *
 * show prints "SEID <seid> enabled|disabled", or "SEID n/a (no ISM v2)"
 * when the kernel sends none; enable and disable change whether SMC-Dv2
 * proposals carry the SEID (the words are not abbreviated: they change
 * state).
 *
 * Return: 0, 1 when the kernel refuses or cannot be asked, 2 on a usage
 * error.
 */
int do_seid(int argc, char **argv)
{
	return cmd_select(seid_cmds, argc, argv, "seid", usage);
}
