// SPDX-License-Identifier: GPL-2.0
/*
 * smctools.c - the smcd and smcr entry points: smc-tools' (1.8.5) command
 * lines and output formats, for scripts written against smc-tools, on
 * smc-dump's netlink code (device.c, seid.c, lib/genl.c).
 *
 * What smc-tools does and this repeats: options and object words are
 * accepted as any prefix of the full word (also "-" and the empty word
 * where smc-tools takes them), objects are tried in the order device,
 * linkgroup, info, stats, ueid, seid; a usage error of an object prints its
 * usage on stderr and exits 255, a failed kernel request exits 255 (0 for
 * stats, which smc-tools ends with 0 whatever happened), an unknown object
 * or option 1 resp. 255. Column layouts are those of smc-tools' dev.c,
 * info.c, linkgroup.c, stats.c, ueid.c and seid.c; smc(8)'s own objects
 * keep their formats.
 *
 * The printers of linkgroup and stats are in linkgroup.c and stats.c,
 * beside their parsers (and stats's reset state, which smc stats shares).
 */
#include <ctype.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/smc.h>

#include "device.h"
#include "genl.h"
#include "smc.h"

/* smc-tools' exit status of exit(-1) and of a negated EXIT_FAILURE */
#define TOOLS_FAIL	255

/* -d, -dd; -a and -ad are accepted (they matter only to stats) */
enum { DETAIL_NONE, DETAIL_V, DETAIL_VV };

struct tools {
	const char *name;	/* "smcd" or "smcr" */
	bool smcd;
	int detail;		/* device, linkgroup: DETAIL_* */
	bool stats_detail;	/* stats: -d, -dd or -ad */
	bool absolute;		/* stats: -a or -ad */
};

/* smc-tools' contains(): 0 when @prfx is a prefix of @word, "" is none */
static int is_prefix(const char *prfx, const char *word)
{
	if (!*prfx)
		return 0;
	return !strncmp(prfx, word, strlen(prfx));
}

static void tools_usage(const struct tools *t)
{
	if (t->smcd)
		fprintf(stderr,
			"Usage: %s  [ OPTIONS ] OBJECT {COMMAND | help}\n"
			"where  OBJECT := {info | linkgroup | device | stats | ueid | seid}\n"
			"       OPTIONS := {-v[ersion] | -d[etails] | -a[bsolute]}\n",
			t->name);
	else
		fprintf(stderr,
			"Usage: %s  [ OPTIONS ] OBJECT {COMMAND | help}\n"
			"where  OBJECT := {info | linkgroup | device | stats | ueid}\n"
			"       OPTIONS := {-v[ersion] | -d[etails] | -dd[etails] | -a[bsolute]}\n",
			t->name);
}

const char *smc_tools_nlerr(int err)
{
	/* libnl 3's nl_syserr2nlerr(), then nl_geterror() */
	switch (err < 0 ? -err : err) {
	case EEXIST:
	case EADDRINUSE:
		return "Object exists";
	case ENOENT:
	case ESRCH:
		return "Object not found";
	case EINVAL:
	case EFAULT:
	case ENOPROTOOPT:
		return "Invalid input data or parameter";
	case EPERM:
		return "Operation not permitted";
	case EACCES:
		return "No Access";
	case EOPNOTSUPP:
		return "Operation not supported";
	case EBUSY:
		return "Object busy";
	case ENODEV:
		return "No such device";
	case ERANGE:
		return "Input data out of range";
	case EAGAIN:
		return "Try again";
	case ENOMEM:
	case ENOBUFS:
		return "Out of memory";
	case EINTR:
		return "Interrupted system call";
	}
	return "Unspecific failure";
}

/* a failed request, as smc-tools' gen_nl_handle() reports it */
static int request_failed(int err)
{
	if (err == -EOPNOTSUPP)
		fprintf(stderr, "Error: Operation not supported by kernel\n");
	else if (err != -EBADMSG)
		fprintf(stderr, "Error: %s\n", smc_tools_nlerr(err));
	return TOOLS_FAIL;
}

/* smc-tools' names of the PCI device ids (dev.c's smc_ib_dev_type()) */
static const char *tools_dev_type(uint16_t device, char *buf, size_t size)
{
	const char *name = smc_pci_device_name(device);

	if (name)
		return name;
	snprintf(buf, size, "%#x", device);
	return buf;
}

/* a PNET ID with smc-tools' '*' for one set by the user, blanks cut */
static const char *tools_pnetid(const struct smc_dev_port *p, char *buf,
				size_t size)
{
	size_t len;

	snprintf(buf, size, "%s%s", p->pnetid_by_user ? "*" : "", p->pnetid);
	len = strlen(buf);
	while (len && isspace((unsigned char)buf[len - 1]))
		buf[--len] = '\0';
	return buf;
}

static int read_devs(bool smcd, struct smc_dev_list *l)
{
	struct smc_genl g;
	int ret;

	if (smc_genl_open(&g))
		return EXIT_FAIL;
	ret = smc_dev_read(&g, smcd, l);
	smc_genl_close(&g);
	return ret ? TOOLS_FAIL : 0;
}

/* ------------------------------------------------------------ info */

static void info_usage(const struct tools *t)
{
	fprintf(stderr, "Usage: %s info [show]\n", t->name);
}

struct tools_sys {
	bool have, have_ver, have_ism_v2, have_smcr_v2;
	uint8_t ver, rel, ism_v2, smcr_v2;
	char host[SMC_MAX_HOSTNAME_LEN + 1];
	char seid[SMC_MAX_EID_LEN + 1];
	bool have_host, have_seid;
};

static int cb_sys(const struct nlmsghdr *nlh, void *data)
{
	struct tools_sys *s = data;
	const struct nlattr *top, *a;
	bool have_rel = false;

	mnl_attr_for_each(top, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(top) != SMC_GEN_SYS_INFO)
			continue;
		s->have = true;
		mnl_attr_for_each_nested(a, top) {
			switch (mnl_attr_get_type(a)) {
			case SMC_NLA_SYS_VER:
				s->ver = mnl_attr_get_u8(a);
				s->have_ver = true;
				break;
			case SMC_NLA_SYS_REL:
				s->rel = mnl_attr_get_u8(a);
				have_rel = true;
				break;
			case SMC_NLA_SYS_IS_ISM_V2:
				s->ism_v2 = mnl_attr_get_u8(a);
				s->have_ism_v2 = true;
				break;
			case SMC_NLA_SYS_IS_SMCR_V2:
				s->smcr_v2 = mnl_attr_get_u8(a);
				s->have_smcr_v2 = true;
				break;
			case SMC_NLA_SYS_LOCAL_HOST:
				if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0)
					goto bad;
				snprintf(s->host, sizeof(s->host), "%s",
					 mnl_attr_get_str(a));
				s->have_host = true;
				break;
			case SMC_NLA_SYS_SEID:
				if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0)
					goto bad;
				snprintf(s->seid, sizeof(s->seid), "%s",
					 mnl_attr_get_str(a));
				s->have_seid = true;
				break;
			}
		}
	}
	/* smc-tools prints a version only with both numbers */
	s->have_ver = s->have_ver && have_rel;
	return MNL_CB_OK;
bad:
	fprintf(stderr, "Error: Invalid data returned: smc_gen_info_policy\n");
	errno = EBADMSG;
	return MNL_CB_ERROR;
}

static int tools_info(const struct tools *t, int argc, char **argv)
{
	struct smc_dev_list smcd = { 0 }, smcr = { 0 };
	char req[SMC_GENL_REQ_SIZE] __attribute__((aligned(4)));
	unsigned int i, roce_v1 = 0, roce_v2 = 0;
	static struct tools_sys s;
	struct nlmsghdr *nlh;
	struct smc_genl g;
	char buf[80];
	int ret;

	if (argc > 1 || (argc == 1 && !is_prefix(argv[0], "show"))) {
		info_usage(t);
		return TOOLS_FAIL;
	}
	ret = read_devs(true, &smcd);
	if (ret) {
		fprintf(stderr, "Error: Failed to retrieve ISM device count\n");
		goto out;
	}
	ret = read_devs(false, &smcr);
	if (ret) {
		fprintf(stderr, "Error: Failed to retrieve RoCE device count\n");
		goto out;
	}
	/* smc-tools counts RoCE cards by their PCI device id only */
	for (i = 0; i < smcr.n; i++) {
		uint16_t dev = smcr.dev[i].device;

		if (dev == 0x1004 || dev == 0x1016 || dev == 0x101e)
			roce_v1++;
		if (dev == 0x1016 || dev == 0x101e)
			roce_v2++;
	}
	if (smc_genl_open(&g)) {
		ret = EXIT_FAIL;
		goto out;
	}
	memset(&s, 0, sizeof(s));
	nlh = smc_genl_msg(&g, req, SMC_NETLINK_GET_SYS_INFO, NLM_F_DUMP);
	ret = smc_genl_talk(&g, nlh, cb_sys, &s);
	smc_genl_close(&g);
	if (ret) {
		ret = request_failed(ret);
		goto out;
	}
	if (!s.have)
		goto out;

	printf("Kernel Capabilities\n");
	if (s.have_ver)
		snprintf(buf, sizeof(buf), "%d.%d", s.ver, s.rel);
	printf("SMC Version:      %s\n", s.have_ver ? buf : "n/a");
	printf("SMC Hostname:     %s\n", s.host[0] ? s.host : "n/a");
	printf("SMC-D Features:   %s\n",
	       !s.have_ver || s.ver < 2 ? "v1" : "v1 v2");
	printf("SMC-R Features:   %s\n", s.smcr_v2 ? "v1 v2" : "v1");
	printf("\nHardware Capabilities\n");
	printf("SEID:             %s\n", s.seid[0] ? s.seid : "n/a");
	printf("ISM:              %s\n",
	       !smcd.n ? "n/a" : s.ism_v2 ? "v1 v2" : "v1");
	/* "v1 " with its blank when there is no v2 card, as smc-tools */
	printf("RoCE:             %s\n",
	       !roce_v1 ? "n/a" : roce_v2 ? "v1 v2" : "v1 ");
out:
	smc_dev_free(&smcd);
	smc_dev_free(&smcr);
	return ret;
}

/* ------------------------------------------------------------ device */

static void device_usage(const struct tools *t)
{
	if (t->smcd)
		fprintf(stderr, "Usage: smcd device [show] [all]\n");
	else
		fprintf(stderr,
			"Usage: smcr device [show] [all]\n"
			"                          [ibdev <dev>]\n"
			"                          [netdev <dev>]\n");
}

static void smcd_row(const struct smc_dev *d)
{
	char type[16], pnet[24];

	printf("%04x ", d->fid);
	printf("%-4s  ", tools_dev_type(d->device, type, sizeof(type)));
	printf("%-12s  ", d->pci_id);
	printf("%04x   ", d->pchid);
	printf("%-4s  ", d->critical ? "Yes" : "No");
	printf("%5u ", d->use_cnt);
	printf(" %-16s ", tools_pnetid(&d->port[0], pnet, sizeof(pnet)));
	printf("\n");
}

static void smcr_row(const struct tools *t, const struct smc_dev *d,
		     unsigned int idx)
{
	const struct smc_dev_port *p = &d->port[idx];
	char netdev[IF_NAMESIZE] = "", type[16], pnet[24];

	if (p->ifindex && !if_indextoname(p->ifindex, netdev))
		netdev[0] = '\0';
	printf("%-15.15s ", netdev);
	printf("%-8.8s ", d->ibname);
	printf("%4u  ", idx + 1);
	printf("%8s  ", p->state == 1 ? "ACTIVE" : p->state == 0 ?
	       "INACTIVE" : "?");
	printf("%-13s  ", tools_dev_type(d->device, type, sizeof(type)));
	printf("%3s   ", d->critical ? "Yes" : "No");
	if (t->detail >= DETAIL_V) {
		printf("%04x  ", d->fid);
		printf("%-12s  ", d->pci_id);
		printf("%04x    ", d->pchid);
	}
	printf("%5u ", p->links);
	printf(" %-16s ", tools_pnetid(p, pnet, sizeof(pnet)));
	printf("\n");
}

static bool smcr_port_shown(const struct smc_dev *d, unsigned int idx,
			    const char *ibdev, const char *netdev)
{
	const struct smc_dev_port *p = &d->port[idx];
	char name[IF_NAMESIZE] = "";

	if (!p->valid)
		return false;
	if (netdev) {
		if (p->ifindex && !if_indextoname(p->ifindex, name))
			name[0] = '\0';
		return !strcmp(netdev, name);
	}
	if (ibdev)
		return !strcmp(ibdev, d->ibname);
	return true;
}

static int tools_device(const struct tools *t, int argc, char **argv)
{
	const char *ibdev = NULL, *netdev = NULL;
	struct smc_dev_list l = { 0 };
	unsigned int i, j;
	int ret;

	if ((argc == 1 && is_prefix(argv[0], "help")) || argc > 4)
		goto usage;
	if (argc > 0 && is_prefix(argv[0], "show")) {
		argc--;
		argv++;
	}
	/* as smc-tools: one of all, ibdev NAME, netdev NAME, and the value
	 * of ibdev or netdev ends the arguments
	 */
	while (argc > 0) {
		if (is_prefix(argv[0], "help"))
			goto usage;
		if (is_prefix(argv[0], "all")) {
			argc--;
			argv++;
			continue;
		}
		/* smc-tools ignores ibdev or netdev without a name */
		if (!t->smcd && is_prefix(argv[0], "ibdev")) {
			ibdev = argc > 1 ? argv[1] : NULL;
			argc -= argc > 1 ? 2 : 1;
			argv += 2;
			break;
		}
		if (!t->smcd && is_prefix(argv[0], "netdev")) {
			netdev = argc > 1 ? argv[1] : NULL;
			argc -= argc > 1 ? 2 : 1;
			argv += 2;
			break;
		}
		goto usage;
	}
	if (argc > 0)
		goto usage;

	ret = read_devs(t->smcd, &l);
	if (ret)
		return ret;
	/* smc-tools prints the header with the first device the kernel
	 * sends: none without devices
	 */
	if (l.n && t->smcd)
		printf("FID  Type  PCI-ID        PCHID  InUse  #LGs  PNET-ID  \n");
	else if (l.n)
		printf("Net-Dev         IB-Dev   IB-P  IB-State  Type          Crit  %s#Links  PNET-ID  \n",
		       t->detail >= DETAIL_V ?
		       " FID   PCI-ID        PCHID  " : "");
	for (i = 0; i < l.n; i++) {
		if (t->smcd) {
			smcd_row(&l.dev[i]);
			continue;
		}
		for (j = 0; j < SMC_DEV_PORTS; j++)
			if (smcr_port_shown(&l.dev[i], j, ibdev, netdev))
				smcr_row(t, &l.dev[i], j);
	}
	smc_dev_free(&l);
	return 0;
usage:
	device_usage(t);
	return TOOLS_FAIL;
}

/* ------------------------------------------------------------ ueid */

static void ueid_usage(void)
{
	/* smc-tools says smcd here for smcr too */
	fprintf(stderr,
		"Usage: smcd ueid [show]\n"
		"       smcd ueid add <eid>\n"
		"       smcd ueid del <eid>\n"
		"       smcd ueid flush\n");
}

/* smc-tools' checks of a user EID, on its 32 blank padded characters */
static int ueid_check(const char *arg, char *padded)
{
	const char *p, *end;

	if (strlen(arg) > SMC_MAX_EID_LEN) {
		fprintf(stderr,
			"Error: Invalid User EID specified: EID is longer than 32 characters\n");
		return TOOLS_FAIL;
	}
	snprintf(padded, SMC_MAX_EID_LEN + 1, "%-32s", arg);
	end = padded + SMC_MAX_EID_LEN;
	while (--end >= padded && isspace((unsigned char)*end))
		;
	if (end < padded) {
		fprintf(stderr, "Error: Invalid User EID specified: EID is empty\n");
		return TOOLS_FAIL;
	}
	if (!isalnum((unsigned char)padded[0])) {
		fprintf(stderr,
			"Error: Invalid User EID specified: first character must be alphanumeric\n");
		return TOOLS_FAIL;
	}
	if (strstr(padded, "..")) {
		fprintf(stderr,
			"Error: Invalid User EID specified: consecutive dots not allowed\n");
		return TOOLS_FAIL;
	}
	for (p = padded; p <= end; p++) {
		if ((!isalnum((unsigned char)*p) || islower((unsigned char)*p)) &&
		    *p != '.' && *p != '-') {
			fprintf(stderr,
				"Error: Invalid User EID specified: unsupported character: '%c'\n"
				"       Supported characters are: A-Z, 0-9, '.' and '-'\n",
				*p);
			return TOOLS_FAIL;
		}
	}
	return 0;
}

static int cb_ueid(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *a;

	(void)data;
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) != SMC_NLA_EID_TABLE_ENTRY)
			continue;
		if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) < 0) {
			fprintf(stderr,
				"Error: invalid data returned: smc_gen_ueid_policy\n");
			errno = EBADMSG;
			return MNL_CB_ERROR;
		}
		/* as the kernel sends it: blank padded to 32 */
		printf("%s\n", mnl_attr_get_str(a));
	}
	return MNL_CB_OK;
}

static int ueid_failed(uint8_t cmd, int err)
{
	if (err == -EOPNOTSUPP)
		fprintf(stderr, "Error: operation not supported by kernel\n");
	else if (cmd == SMC_NETLINK_REMOVE_UEID && err == -EAGAIN)
		fprintf(stderr,
			"Info: the System EID was activated because the last User EID was removed\n");
	else if (cmd == SMC_NETLINK_REMOVE_UEID)
		fprintf(stderr, "Error: specified User EID is not defined\n");
	else if (cmd == SMC_NETLINK_ADD_UEID && err == -EINVAL)
		fprintf(stderr,
			"Error: specified User EID was rejected by the kernel\n");
	else if (cmd == SMC_NETLINK_ADD_UEID && err == -ENOMEM)
		fprintf(stderr,
			"Error: kernel reported an out of memory condition\n");
	else if (cmd == SMC_NETLINK_ADD_UEID && err == -ERANGE)
		fprintf(stderr,
			"Error: specified User EID was rejected because the maximum number of User EIDs is reached\n");
	else if (cmd == SMC_NETLINK_ADD_UEID && err == -EEXIST)
		fprintf(stderr, "Error: specified User EID is already defined\n");
	else if (err != -EBADMSG)
		fprintf(stderr, "Error: %s\n", smc_tools_nlerr(err));
	/* smc-tools exits 255 also after its Info line */
	return TOOLS_FAIL;
}

static int tools_ueid(int argc, char **argv)
{
	char req[SMC_GENL_REQ_SIZE] __attribute__((aligned(4)));
	char padded[SMC_MAX_EID_LEN + 1];
	uint8_t cmd = SMC_NETLINK_DUMP_UEID;
	struct nlmsghdr *nlh;
	bool need_eid = false;
	struct smc_genl g;
	int ret;

	if (argc > 0) {
		if (is_prefix(argv[0], "help"))
			goto usage;
		if (is_prefix(argv[0], "add")) {
			cmd = SMC_NETLINK_ADD_UEID;
			need_eid = true;
		} else if (is_prefix(argv[0], "del")) {
			cmd = SMC_NETLINK_REMOVE_UEID;
			need_eid = true;
		} else if (is_prefix(argv[0], "flush")) {
			cmd = SMC_NETLINK_FLUSH_UEID;
		} else if (!is_prefix(argv[0], "show")) {
			goto usage;
		}
		if (need_eid) {
			/* as smc-tools: the EID is checked before the
			 * arguments after it
			 */
			if (argc < 2)
				goto usage;
			ret = ueid_check(argv[1], padded);
			if (ret)
				return ret;
			if (argc > 2)
				goto usage;
		} else if (argc != 1) {
			goto usage;
		}
	}

	if (smc_genl_open(&g))
		return EXIT_FAIL;
	nlh = smc_genl_msg(&g, req, cmd,
			   cmd == SMC_NETLINK_DUMP_UEID ? NLM_F_DUMP : 0);
	if (need_eid)
		mnl_attr_put_strz(nlh, SMC_NLA_EID_TABLE_ENTRY, padded);
	ret = smc_genl_talk(&g, nlh,
			    cmd == SMC_NETLINK_DUMP_UEID ? cb_ueid : NULL, NULL);
	smc_genl_close(&g);
	return ret ? ueid_failed(cmd, ret) : 0;
usage:
	ueid_usage();
	return TOOLS_FAIL;
}

/* ------------------------------------------------------------ seid */

static int tools_seid(int argc, char **argv)
{
	enum { SHOW, ENABLE, DISABLE } what = SHOW;
	bool enable = false, disable = false, show = !argc;
	struct smc_seid s;
	struct smc_genl g;
	int ret;

	/* as smc-tools: words up to show, which must be the last; one
	 * command in all (a repeated one counts once)
	 */
	for (; argc > 0; argc--, argv++) {
		if (is_prefix(argv[0], "help"))
			goto usage;
		else if (is_prefix(argv[0], "enable"))
			enable = true;
		else if (is_prefix(argv[0], "disable"))
			disable = true;
		else if (is_prefix(argv[0], "show") && argc == 1)
			show = true;
		else
			goto usage;
	}
	if (enable + disable + show != 1)
		goto usage;
	if (enable)
		what = ENABLE;
	else if (disable)
		what = DISABLE;

	if (smc_genl_open(&g))
		return EXIT_FAIL;
	ret = smc_seid_read(&g, &s);
	if (what != SHOW) {
		/* smc-tools reports a failed look-up, then goes on as
		 * without a SEID
		 */
		if (ret)
			request_failed(ret);
		if (ret || !s.have_seid) {
			/* on stdout, as smc-tools prints it */
			printf("Error: System EID not available\n");
			smc_genl_close(&g);
			return TOOLS_FAIL;
		}
		ret = smc_seid_set(&g, what == ENABLE);
		smc_genl_close(&g);
		if (ret == -EOPNOTSUPP)
			fprintf(stderr,
				"Error: operation not supported by kernel\n");
		else if (ret == -ENOENT && what == DISABLE)
			fprintf(stderr,
				"Error: System EID cannot be disabled because no User EID is defined\n");
		else if (ret)
			fprintf(stderr, "Error: %s\n", smc_tools_nlerr(ret));
		return ret ? TOOLS_FAIL : 0;
	}
	smc_genl_close(&g);
	if (ret == -EOPNOTSUPP) {
		fprintf(stderr, "Error: operation not supported by kernel\n");
		return TOOLS_FAIL;
	}
	if (ret) {
		if (ret != -EBADMSG)
			fprintf(stderr, "Error: %s\n", smc_tools_nlerr(ret));
		return TOOLS_FAIL;
	}
	if (!s.have_seid || !s.have_enabled)
		printf("n/a\n");
	else
		printf("%s %s\n", s.seid,
		       s.enabled ? "[enabled]" : "[disabled]");
	return 0;
usage:
	fprintf(stderr,
		"Usage: smcd seid [show]\n"
		"       smcd seid enable\n"
		"       smcd seid disable\n");
	return TOOLS_FAIL;
}

/* ------------------------------------------------------------ objects */

static int run_object(const struct tools *t, int argc, char **argv)
{
	static const char *const objects[] = {
		"device", "linkgroup", "info", "stats", "ueid", "seid", "help",
	};
	const char *word = argv[0];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(objects); i++) {
		if (!strcmp(objects[i], "seid") && !t->smcd)
			continue;
		if (is_prefix(word, objects[i]))
			break;
	}
	switch (i) {
	case 0:
		return tools_device(t, argc - 1, argv + 1);
	case 1:
		return smc_linkgroup_tools(t->smcd, t->detail, argc - 1,
					   argv + 1);
	case 2:
		return tools_info(t, argc - 1, argv + 1);
	case 3:
		return smc_stats_tools(t->smcd, t->stats_detail, t->absolute,
				       argc - 1, argv + 1);
	case 4:
		return tools_ueid(argc - 1, argv + 1);
	case 5:
		return tools_seid(argc - 1, argv + 1);
	case 6:
		tools_usage(t);
		return 0;
	}
	if (!t->smcd && is_prefix(word, "seid")) {
		fprintf(stderr,
			"Error: Object \"%s\" is valid for SMC-D only, try \"%s help\".\n",
			word, t->name);
		return EXIT_FAIL;
	}
	fprintf(stderr, "Error: Object \"%s\" is unknown, try \"%s help\".\n",
		word, t->name);
	return EXIT_FAIL;
}

static int smctools_main(int argc, char **argv, bool smcd,
			 const char *version)
{
	struct tools t = {
		.name = smcd ? "smcd" : "smcr",
		.smcd = smcd,
	};
	const char *opt;

	while (argc > 1) {
		opt = argv[1];
		if (!strcmp(opt, "--")) {
			argc--;
			argv++;
			break;
		}
		if (opt[0] != '-')
			break;
		if (opt[1] == '-')
			opt++;
		/* as smc-tools: the last of -a, -ad, -d, -dd wins, and
		 * -a and -ad (for stats) turn the details of device off
		 */
		if (!strncmp(opt, "-ad", 3) || !strncmp(opt, "-da", 3)) {
			t.detail = DETAIL_NONE;
			t.stats_detail = t.absolute = true;
		} else if (is_prefix(opt, "-absolute")) {
			t.detail = DETAIL_NONE;
			t.stats_detail = false;
			t.absolute = true;
		} else if (is_prefix(opt, "-version")) {
			fprintf(stderr, "%s utility, smc-dump-%s\n", t.name,
				version);
			return TOOLS_FAIL;
		} else if (is_prefix(opt, "-details")) {
			t.detail = DETAIL_V;
			t.stats_detail = true;
			t.absolute = false;
		} else if (is_prefix(opt, "-ddetails")) {
			t.detail = DETAIL_VV;
			t.stats_detail = true;
			t.absolute = false;
		} else if (is_prefix(opt, "-help")) {
			tools_usage(&t);
			return 0;
		} else {
			fprintf(stderr,
				"Error: Option \"%s\" is unknown, try \"%s help\".\n",
				opt, t.name);
			return TOOLS_FAIL;
		}
		argc--;
		argv++;
	}
	if (argc < 2) {
		tools_usage(&t);
		return 0;
	}
	return run_object(&t, argc - 1, argv + 1);
}

int smcd_main(int argc, char **argv, const char *version)
{
	return smctools_main(argc, argv, true, version);
}

int smcr_main(int argc, char **argv, const char *version)
{
	return smctools_main(argc, argv, false, version);
}
