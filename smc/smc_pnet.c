// SPDX-License-Identifier: GPL-2.0
/*
 * smc_pnet.c - the smc_pnet entry point: smc-tools' (1.8.5) smc_pnet
 * options and output, on the SMC_PNETID generic netlink family that
 * smc pnet (pnet.c) uses.
 *
 * As smc-tools: getopt_long() with -a, -d, -s, -f (one of them; none is
 * "show all"), -I ETHNAME, -D IBDEV, -P PORT (0..2, 1 when 0 or not
 * given) and at most one PNET ID; each entry printed as "PNETID ETHNAME
 * IBDEV PORT" with the kernel's "n/a" and 255 for what an entry does not
 * have; errors as "smc_pnet: TEXT" in libnl's words, exit 1; -d without a
 * PNET ID is sent as a dump, which the kernel refuses (Operation not
 * supported); a failed flush counts as success unless the table was
 * empty (ENOENT), which smc-tools works around for older kernels that way.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/smc.h>

#include "genl.h"
#include "smc.h"

struct pnet_req {
	uint8_t cmd;
	const char *pnetid, *ethname, *ibname;
	unsigned int ibport;
};

static void pnet_usage(FILE *fp, const char *prog)
{
	fprintf(fp,
		"Usage: %s [ OPTIONS ] [pnetid]\n"
		"\t-h, --help            this message\n"
		"\t-v, --version         show version information\n"
		"\t-a, --add             add a pnetid entry, requires interface or ib/ism device\n"
		"\t-d, --delete          delete a pnetid entry\n"
		"\t-s, --show            show a pnetid entry\n"
		"\t-f, --flush           flush the complete pnet table\n"
		"\t-I, --interface       Ethernet interface name of a pnetid entry\n"
		"\t-D, --ibdevice        Infiniband/ISM device name of a pnetid entry\n"
		"\t-P, --ibport          Infiniband device port (default: 1)\n"
		"\t\n"
		"\tno OPTIONS            show complete pnet table\n",
		prog);
}

/* one entry, its attributes as the kernel sent them */
static int cb_entry(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[SMC_PNETID_MAX + 1] = { NULL };
	const char *prog = data;
	const struct nlattr *a;
	int i;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) <= SMC_PNETID_MAX)
			tb[mnl_attr_get_type(a)] = a;
	for (i = SMC_PNETID_NAME; i <= SMC_PNETID_IBNAME; i++)
		if (!tb[i] || mnl_attr_validate(tb[i], MNL_TYPE_NUL_STRING) < 0)
			goto bad;
	if (!tb[SMC_PNETID_IBPORT] ||
	    mnl_attr_validate(tb[SMC_PNETID_IBPORT], MNL_TYPE_U8) < 0)
		goto bad;
	printf("%s %s %s %d\n", mnl_attr_get_str(tb[SMC_PNETID_NAME]),
	       mnl_attr_get_str(tb[SMC_PNETID_ETHNAME]),
	       mnl_attr_get_str(tb[SMC_PNETID_IBNAME]),
	       mnl_attr_get_u8(tb[SMC_PNETID_IBPORT]));
	return MNL_CB_OK;
bad:
	/* smc-tools stops reading here and exits 0 */
	fprintf(stderr, "%s: invalid data returned\n", prog);
	return MNL_CB_STOP;
}

static int pnet_send(const struct pnet_req *r, const char *prog)
{
	char req[SMC_GENL_REQ_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	struct smc_genl g;
	uint16_t flags = 0;
	int err;

	if (smc_genl_open_family(&g, SMCR_GENL_FAMILY_NAME))
		return EXIT_FAIL;
	/* smc-tools dumps without a PNET ID, for -d too */
	if ((r->cmd == SMC_PNETID_DEL || r->cmd == SMC_PNETID_GET) &&
	    !r->pnetid)
		flags = NLM_F_DUMP;
	nlh = smc_genl_msg(&g, req, r->cmd, flags);
	/* the names go into @req as given: one that does not fit is
	 * refused here (the kernel would refuse far shorter ones)
	 */
	if ((r->cmd == SMC_PNETID_ADD && r->ethname &&
	     !mnl_attr_put_strz_check(nlh, sizeof(req), SMC_PNETID_ETHNAME,
				      r->ethname)) ||
	    (r->cmd == SMC_PNETID_ADD && r->ibname &&
	     (!mnl_attr_put_strz_check(nlh, sizeof(req), SMC_PNETID_IBNAME,
				       r->ibname) ||
	      !mnl_attr_put_u8_check(nlh, sizeof(req), SMC_PNETID_IBPORT,
				     r->ibport))) ||
	    (r->cmd != SMC_PNETID_FLUSH && r->pnetid &&
	     !mnl_attr_put_strz_check(nlh, sizeof(req), SMC_PNETID_NAME,
				      r->pnetid))) {
		smc_genl_close(&g);
		fprintf(stderr, "%s: %s\n", prog, smc_tools_nlerr(-ENOBUFS));
		return EXIT_FAIL;
	}
	err = smc_genl_talk(&g, nlh, cb_entry, (void *)prog);
	smc_genl_close(&g);
	if (r->cmd == SMC_PNETID_FLUSH && err != -ENOENT)
		err = 0;
	if (err) {
		fprintf(stderr, "%s: %s\n", prog, smc_tools_nlerr(err));
		return EXIT_FAIL;
	}
	return EXIT_OK;
}

static int pnet_bad_usage(const char *prog)
{
	pnet_usage(stderr, prog);
	return EXIT_FAIL;
}

int smc_pnet_main(int argc, char **argv, const char *version)
{
	static const struct option long_opts[] = {
		{ "interface", required_argument, NULL, 'I' },
		{ "ibdevice", required_argument, NULL, 'D' },
		{ "ibport", required_argument, NULL, 'P' },
		{ "flush", no_argument, NULL, 'f' },
		{ "add", no_argument, NULL, 'a' },
		{ "show", no_argument, NULL, 's' },
		{ "delete", no_argument, NULL, 'd' },
		{ "version", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct pnet_req r = { 0 };
	const char *prog;
	unsigned long port;
	char *end;
	int ch;

	prog = strrchr(argv[0], '/');
	prog = prog ? prog + 1 : argv[0];
	while ((ch = getopt_long(argc, argv, "I:D:P:fasdhv", long_opts,
				 NULL)) != -1) {
		switch (ch) {
		case 'f':
		case 's':
		case 'd':
		case 'a':
			if (r.cmd)
				return pnet_bad_usage(prog);
			r.cmd = ch == 'f' ? SMC_PNETID_FLUSH :
				ch == 's' ? SMC_PNETID_GET :
				ch == 'd' ? SMC_PNETID_DEL : SMC_PNETID_ADD;
			break;
		case 'I':
			r.ethname = optarg;
			break;
		case 'D':
			r.ibname = optarg;
			break;
		case 'P':
			port = strtoul(optarg, &end, 0);
			if (*end || port > 2) {
				fprintf(stderr, "%s invalid ib port:%s\n", prog,
					optarg);
				return pnet_bad_usage(prog);
			}
			r.ibport = port;
			break;
		case 'v':
			printf("smc_pnet utility, smc-dump-%s\n", version);
			return EXIT_OK;
		case 'h':
			pnet_usage(stdout, prog);
			return EXIT_OK;
		default:
			return pnet_bad_usage(prog);
		}
	}
	if (optind + 1 < argc) {
		fprintf(stderr, "%s too many parameters\n", prog);
		return pnet_bad_usage(prog);
	}
	if (optind + 1 == argc)
		r.pnetid = argv[optind];
	if (!r.cmd) {
		if (optind < argc) {
			fprintf(stderr, "%s: parameters without option\n",
				prog);
			return pnet_bad_usage(prog);
		}
		r.cmd = SMC_PNETID_GET;
	}
	if (r.cmd == SMC_PNETID_FLUSH && optind < argc) {
		fprintf(stderr, "%s: -f takes no parameters\n", prog);
		return pnet_bad_usage(prog);
	}
	if (r.cmd == SMC_PNETID_ADD) {
		if (!r.ethname && !r.ibname) {
			fprintf(stderr, "%s: interface or device missing\n",
				prog);
			return pnet_bad_usage(prog);
		}
		if (!r.ibport)
			r.ibport = 1;
	}
	if (r.cmd == SMC_PNETID_GET || r.cmd == SMC_PNETID_DEL) {
		if (r.ethname)
			fprintf(stderr, "%s: interface %s ignored\n", prog,
				r.ethname);
		if (r.ibname)
			fprintf(stderr, "%s: device %s ignored\n", prog,
				r.ibname);
		if (r.ibport)
			fprintf(stderr, "%s: ibport %u ignored\n", prog,
				r.ibport);
		r.ethname = r.ibname = NULL;
		r.ibport = 0;
	}
	return pnet_send(&r, prog);
}
