// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * iplink_smc_dummy.c	smc-dummy device support: a link that receives a
 *			copy of the SMC data and CDC messages of its network
 *			namespace, for tcpdump and other packet taps
 */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <linux/smc_dump.h>

#include "utils.h"
#include "ip_common.h"

static const char * const smc_dummy_modes[] = {
	[SMC_DUMMY_MODE_SMC]	= "smc",
	[SMC_DUMMY_MODE_SMCR]	= "smcr",
	[SMC_DUMMY_MODE_SMCD]	= "smcd",
};

static const char * const smc_dummy_captures[] = {
	[SMC_DUMMY_CAPTURE_ALL]	= "all",
	[SMC_DUMMY_CAPTURE_RAW]	= "raw",
	[SMC_DUMMY_CAPTURE_CDC]	= "cdc",
	[SMC_DUMMY_CAPTURE_LLC]	= "llc",
};

static void explain(struct link_util *lu, FILE *f)
{
	fprintf(f,
		"Usage: ... %s [ mode MODE ] [ capture CAPTURE ] [ snaplen BYTES ]\n"
		"\n"
		"MODE: smc | smcr | smcd\n"
		"	(SMC-R and SMC-D, SMC-R only, SMC-D only connections)\n"
		"CAPTURE: all | raw | cdc | llc\n"
		"	(data, CDC and LLC messages, data only, CDC messages only,\n"
		"	SMC-R LLC messages only)\n"
		"BYTES: payload bytes kept of each data record, 0 keeps all\n"
		"(first values and snaplen 0 are the defaults if nothing is specified)\n",
		lu->id);
}

/* Index of @arg in @names, or -1 */
static int smc_dummy_value(const char * const *names, size_t n,
			   const char *arg)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (names[i] && strcmp(names[i], arg) == 0)
			return i;
	return -1;
}

static const char *smc_dummy_name(const char * const *names, size_t n,
				  unsigned int val)
{
	if (val >= n || !names[val])
		return "unknown";
	return names[val];
}

static int smc_dummy_parse_opt(struct link_util *lu, int argc, char **argv,
			       struct nlmsghdr *n)
{
	bool seen_mode = false, seen_capture = false, seen_snaplen = false;

	while (argc > 0) {
		if (strcmp(*argv, "mode") == 0) {
			int mode;

			NEXT_ARG();
			if (seen_mode)
				duparg("mode", *argv);
			seen_mode = true;
			mode = smc_dummy_value(smc_dummy_modes,
					       ARRAY_SIZE(smc_dummy_modes),
					       *argv);
			if (mode < 0)
				invarg("mode must be smc, smcr or smcd", *argv);
			addattr8(n, 1024, IFLA_SMC_DUMMY_MODE, mode);
		} else if (strcmp(*argv, "capture") == 0) {
			int capture;

			NEXT_ARG();
			if (seen_capture)
				duparg("capture", *argv);
			seen_capture = true;
			capture = smc_dummy_value(smc_dummy_captures,
						  ARRAY_SIZE(smc_dummy_captures),
						  *argv);
			if (capture < 0)
				invarg("capture must be all, raw, cdc or llc", *argv);
			addattr8(n, 1024, IFLA_SMC_DUMMY_CAPTURE, capture);
		} else if (strcmp(*argv, "snaplen") == 0) {
			__u32 snaplen;

			NEXT_ARG();
			if (seen_snaplen)
				duparg("snaplen", *argv);
			seen_snaplen = true;
			if (get_u32(&snaplen, *argv, 0))
				invarg("invalid snaplen", *argv);
			addattr32(n, 1024, IFLA_SMC_DUMMY_SNAPLEN, snaplen);
		} else if (strcmp(*argv, "help") == 0) {
			explain(lu, stderr);
			return -1;
		} else {
			fprintf(stderr, "%s: unknown option \"%s\"?\n",
				lu->id, *argv);
			explain(lu, stderr);
			return -1;
		}
		argc--;
		argv++;
	}

	return 0;
}

static void smc_dummy_print_opt(struct link_util *lu, FILE *f,
				struct rtattr *tb[])
{
	(void)lu;
	(void)f;

	if (!tb)
		return;

	if (tb[IFLA_SMC_DUMMY_MODE] &&
	    RTA_PAYLOAD(tb[IFLA_SMC_DUMMY_MODE]) == sizeof(__u8)) {
		__u8 mode = rta_getattr_u8(tb[IFLA_SMC_DUMMY_MODE]);

		print_string(PRINT_ANY, "mode", "mode %s ",
			     smc_dummy_name(smc_dummy_modes,
					    ARRAY_SIZE(smc_dummy_modes), mode));
	}

	if (tb[IFLA_SMC_DUMMY_CAPTURE] &&
	    RTA_PAYLOAD(tb[IFLA_SMC_DUMMY_CAPTURE]) == sizeof(__u8)) {
		__u8 capture = rta_getattr_u8(tb[IFLA_SMC_DUMMY_CAPTURE]);

		print_string(PRINT_ANY, "capture", "capture %s ",
			     smc_dummy_name(smc_dummy_captures,
					    ARRAY_SIZE(smc_dummy_captures),
					    capture));
	}

	if (tb[IFLA_SMC_DUMMY_SNAPLEN] &&
	    RTA_PAYLOAD(tb[IFLA_SMC_DUMMY_SNAPLEN]) == sizeof(__u32))
		print_uint(PRINT_ANY, "snaplen", "snaplen %u ",
			   rta_getattr_u32(tb[IFLA_SMC_DUMMY_SNAPLEN]));
}

static void smc_dummy_print_help(struct link_util *lu, int argc, char **argv,
				 FILE *f)
{
	(void)argc;
	(void)argv;

	explain(lu, f);
}

/*
 * ip finds the link_util of kind "KIND" by the symbol "KIND_link_util", in
 * its own binary or in IP_LIB_DIR/link_KIND.so. A C identifier cannot have
 * the hyphen of "smc-dummy", so the symbol gets an assembler name, quoted
 * for the assembler.
 */
extern struct link_util smc_dummy_link_util __asm__("\"smc-dummy_link_util\"");

struct link_util smc_dummy_link_util = {
	.id		= "smc-dummy",
	.maxattr	= IFLA_SMC_DUMMY_MAX,
	.parse_opt	= smc_dummy_parse_opt,
	.print_opt	= smc_dummy_print_opt,
	.print_help	= smc_dummy_print_help,
};
