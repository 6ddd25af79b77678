// SPDX-License-Identifier: GPL-2.0
/*
 * info.c - smc info: what SMC the running kernel offers (version,
 * release, SMC-D and SMC-R v2, host name, system EID) and what the
 * hardware adds (ISM and RoCE devices), as smc-tools' smcd info shows it.
 * The kernel side is smc_nl_get_sys_info() in net/smc/smc_core.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/smc.h>

#include "device.h"
#include "genl.h"
#include "json_print.h"
#include "nla.h"
#include "smc.h"

struct sys_info {
	bool have;
	uint64_t ver, rel, ism_v2, smcr_v2;
	bool have_ver;
	char host[SMC_MAX_HOSTNAME_LEN + 1];
	char seid[SMC_MAX_EID_LEN + 1];
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: smc [ -j [ -p ] ] info [ show ]\n"
		"       smc info help\n");
}

static int cb_info(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[NLA_TABLE_MAX + 1];
	struct sys_info *s = data;
	const struct nlattr *top;

	top = nla_top(nlh, SMC_GEN_SYS_INFO);
	if (!top)
		return MNL_CB_OK;
	s->have = true;
	nla_table(top, tb);
	s->have_ver = !nla_uint(tb[SMC_NLA_SYS_VER], &s->ver) &&
		      !nla_uint(tb[SMC_NLA_SYS_REL], &s->rel);
	nla_uint(tb[SMC_NLA_SYS_IS_ISM_V2], &s->ism_v2);
	nla_uint(tb[SMC_NLA_SYS_IS_SMCR_V2], &s->smcr_v2);
	if (!nla_str(tb[SMC_NLA_SYS_LOCAL_HOST], s->host, sizeof(s->host)) ||
	    !nla_str(tb[SMC_NLA_SYS_SEID], s->seid, sizeof(s->seid)))
		return nla_bad("system information");
	return MNL_CB_OK;
}

/* What the hardware offers: "v1", "v1 v2" or "" (no device) */
struct caps {
	bool v1, v2;
};

static void caps_text(const struct caps *c, char *buf, size_t size)
{
	snprintf(buf, size, "%s%s%s", c->v1 ? "v1" : "",
		 c->v1 && c->v2 ? " " : "", c->v2 ? "v2" : "");
	if (!buf[0])
		snprintf(buf, size, "n/a");
}

static void caps_json(const char *key, const struct caps *c)
{
	open_json_array(PRINT_JSON, key);
	if (c->v1)
		print_string(PRINT_JSON, NULL, NULL, "v1");
	if (c->v2)
		print_string(PRINT_JSON, NULL, NULL, "v2");
	close_json_array(PRINT_JSON, NULL);
}

static int info_show(int argc, char **argv)
{
	struct smc_dev_list smcd = { 0 }, smcr = { 0 };
	struct caps kd = { 0 }, kr = { 0 }, ism = { 0 }, roce = { 0 };
	static struct sys_info s;
	char ver[16], buf[16];
	struct smc_genl g;
	unsigned int i;
	int ret;

	if (argc > 0) {
		fprintf(stderr,
			"Error: unexpected argument \"%s\", try \"smc info help\".\n",
			argv[0]);
		return EXIT_USAGE;
	}

	if (smc_genl_open(&g))
		return EXIT_FAIL;
	memset(&s, 0, sizeof(s));
	ret = nla_dump(&g, SMC_NETLINK_GET_SYS_INFO, cb_info, &s,
		       "the SMC system information");
	if (!ret)
		ret = smc_dev_read(&g, true, &smcd);
	if (!ret)
		ret = smc_dev_read(&g, false, &smcr);
	smc_genl_close(&g);
	if (!ret && !s.have) {
		fprintf(stderr,
			"Error: the kernel sent no SMC system information\n");
		ret = 1;
	}
	if (ret)
		goto out;

	kd.v1 = kr.v1 = true;
	kd.v2 = s.have_ver && s.ver >= 2;
	kr.v2 = s.smcr_v2;
	ism.v1 = smcd.n > 0;
	/* also with only loopback-ism, which the kernel does not list */
	ism.v2 = s.ism_v2;
	roce.v1 = smcr.n > 0;
	for (i = 0; i < smcr.n; i++) {
		const char *t = smc_dev_type(&smcr.dev[i]);

		if (!t || strcmp(t, "RoCE_Express"))
			roce.v2 = true;
	}
	if (s.have_ver)
		snprintf(ver, sizeof(ver), "%u.%u", (unsigned int)s.ver,
			 (unsigned int)s.rel);
	else
		snprintf(ver, sizeof(ver), "n/a");

	if (json) {
		new_json_obj(json, pretty);
		open_json_object(NULL);
		open_json_object("kernel");
		if (s.have_ver) {
			print_uint(PRINT_JSON, "version", NULL, s.ver);
			print_uint(PRINT_JSON, "release", NULL, s.rel);
		} else {
			print_null(PRINT_JSON, "version", NULL, NULL);
			print_null(PRINT_JSON, "release", NULL, NULL);
		}
		if (s.host[0])
			print_string(PRINT_JSON, "hostname", NULL, s.host);
		else
			print_null(PRINT_JSON, "hostname", NULL, NULL);
		caps_json("smcd", &kd);
		caps_json("smcr", &kr);
		close_json_object();
		open_json_object("hardware");
		if (s.seid[0])
			print_string(PRINT_JSON, "seid", NULL, s.seid);
		else
			print_null(PRINT_JSON, "seid", NULL, NULL);
		caps_json("ism", &ism);
		caps_json("roce", &roce);
		print_uint(PRINT_JSON, "smcd_devices", NULL, smcd.n);
		print_uint(PRINT_JSON, "smcr_devices", NULL, smcr.n);
		close_json_object();
		close_json_object();
		delete_json_obj();
		goto out;
	}
	printf("Kernel capabilities\n");
	printf("  %-16s %s\n", "SMC version", ver);
	printf("  %-16s %s\n", "Hostname", s.host[0] ? s.host : "n/a");
	caps_text(&kd, buf, sizeof(buf));
	printf("  %-16s %s\n", "SMC-D", buf);
	caps_text(&kr, buf, sizeof(buf));
	printf("  %-16s %s\n", "SMC-R", buf);
	printf("\nHardware capabilities\n");
	printf("  %-16s %s\n", "SEID", s.seid[0] ? s.seid : "n/a");
	caps_text(&ism, buf, sizeof(buf));
	printf("  %-16s %s (%u device%s)\n", "ISM", buf, smcd.n,
	       smcd.n == 1 ? "" : "s");
	caps_text(&roce, buf, sizeof(buf));
	printf("  %-16s %s (%u device%s)\n", "RoCE", buf, smcr.n,
	       smcr.n == 1 ? "" : "s");
out:
	smc_dev_free(&smcd);
	smc_dev_free(&smcr);
	return ret ? EXIT_FAIL : EXIT_OK;
}

static const struct cmd info_cmds[] = {
	{ "show", info_show, 0 },
	{ NULL, NULL, 0 },
};

/**
 * do_info() - smc info [ show | help ]
 * @argc: number of arguments after "info"
 * @argv: those arguments
 *
 * Kernel capabilities: SMC version and release the kernel speaks, its
 * SMC host name, SMC-D v1 (always) and v2 (kernel version 2 or later),
 * SMC-R v1 and v2 (SMC_NLA_SYS_IS_SMCR_V2). Hardware capabilities: the
 * system EID, ISM v1 when the kernel lists an SMC-D device and v2 when it
 * says ISM v2 is possible, RoCE v1 when it lists an SMC-R device and v2
 * unless all are first generation RoCE Express cards.
 *
 * Return: 0, 1 when the information cannot be read, 2 on a usage error.
 */
int do_info(int argc, char **argv)
{
	return cmd_select(info_cmds, argc, argv, "info", usage);
}
