// SPDX-License-Identifier: GPL-2.0
/*
 * smc.c - the smc command: global options and dispatch to the objects,
 * in the style of iproute2's ip(8)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netns.h"
#include "smc.h"
#include "utils.h"

/* Release of smc-dump this command belongs to */
#define VERSION "0.1"

/* The global options of smc.h: flags, show_details counts -d */
int json;
int pretty;
int show_details;
int show_hex;
int show_absolute;

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: smc [ OPTIONS ] OBJECT { COMMAND | help }\n"
		"       smc help [ OBJECT ]\n"
		"where  OBJECT := { ueid | stats | socket | dump | info | device |\n"
		"                   seid | linkgroup | pnet | run | check |\n"
		"                   rnics | dbg }\n"
		"       OPTIONS := { -j[son] | -p[retty] | -d[etails] | -x | --hex |\n"
		"                    -a[bsolute] | -n[etns] NAME | -V[ersion] | -h[elp] }\n");
}

static int do_help(int argc, char **argv);

static const struct object {
	const char *name;
	int (*func)(int argc, char **argv);
} cmds[] = {
	{ "ueid", do_ueid },
	{ "stats", do_stats },
	{ "socket", do_socket },
	{ "dump", do_dump },
	{ "info", do_info },
	{ "device", do_device },
	{ "linkgroup", do_linkgroup },
	{ "pnet", do_pnet },
	{ "run", do_run },
	{ "check", do_check },
	{ "rnics", do_rnics },
	{ "dbg", do_dbg },
	{ "seid", do_seid },
	{ "help", do_help },
	{ NULL, NULL },
};

static const struct object *find_object(const char *name)
{
	const struct object *c;

	/* first match in table order wins, as in iproute2 */
	for (c = cmds; c->name; c++)
		if (matches(name, c->name) == 0)
			return c;
	return NULL;
}

static int unknown_object(const char *name)
{
	fprintf(stderr, "Object \"%s\" is unknown, try \"smc help\".\n",
		name);
	return EXIT_USAGE;
}

/* smc help [OBJECT]: the general usage, or the object's own help */
static int do_help(int argc, char **argv)
{
	static char help[] = "help";
	char *hargv[] = { help, NULL };
	const struct object *c;

	if (argc < 1) {
		usage(stdout);
		return EXIT_OK;
	}
	c = find_object(argv[0]);
	if (!c)
		return unknown_object(argv[0]);
	if (c->func == do_help) {
		usage(stdout);
		return EXIT_OK;
	}
	return c->func(1, hargv);
}

/* Long options: the name after one or two dashes, abbreviated to any
 * unambiguous prefix; the short forms are single letters.
 */
enum opt { OPT_JSON, OPT_PRETTY, OPT_DETAILS, OPT_HEX, OPT_ABSOLUTE, OPT_NETNS,
	   OPT_VERSION, OPT_HELP, OPT_UNKNOWN, OPT_AMBIGUOUS };

static enum opt parse_option(const char *arg)
{
	static const struct {
		const char *name;
		char letter;
	} opts[] = {
		[OPT_JSON] = { "json", 'j' },
		[OPT_PRETTY] = { "pretty", 'p' },
		[OPT_DETAILS] = { "details", 'd' },
		[OPT_HEX] = { "hex", 'x' },
		[OPT_ABSOLUTE] = { "absolute", 'a' },
		[OPT_NETNS] = { "netns", 'n' },
		[OPT_VERSION] = { "Version", 'V' },
		[OPT_HELP] = { "help", 'h' },
	};
	const char *name = arg + 1;
	enum opt found = OPT_UNKNOWN;
	unsigned int i;

	if (arg[1] && !arg[2]) {
		for (i = 0; i < ARRAY_SIZE(opts); i++)
			if (opts[i].letter == arg[1])
				return i;
		return OPT_UNKNOWN;
	}
	if (name[0] == '-')
		name++;
	if (!strcmp(name, "version"))
		return OPT_VERSION;
	for (i = 0; i < ARRAY_SIZE(opts); i++) {
		if (matches(name, opts[i].name))
			continue;
		if (!strcmp(name, opts[i].name))
			return i;
		if (found != OPT_UNKNOWN)
			return OPT_AMBIGUOUS;
		found = i;
	}
	return found;
}

/* Flush stdout: a failed write turns exit status @ret into 1 */
static int finish(int ret)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "Error: cannot write the output: %s\n",
			strerror(errno));
		return EXIT_FAIL;
	}
	return ret;
}

/*
 * Entry points: smc run as another name (a link to it) is that
 * command of smc-tools, with its options and output; each takes the whole
 * command line and the smc-dump release, and returns the exit status.
 */
static const struct entry {
	const char *name;
	int (*main)(int argc, char **argv, const char *version);
} entries[] = {
	{ "smcss", smcss_main },		/* socket.c */
	{ "smc_rnics", smc_rnics_main },	/* rnics.c */
	{ "smc_dbg", smc_dbg_main },		/* dbg.c */
	{ "smc_chk", smc_chk_main },		/* check.c */
	{ "smc_run", smc_run_main },		/* run.c */
	{ "smcd", smcd_main },			/* smctools.c */
	{ "smcr", smcr_main },			/* smctools.c */
	{ "smc_pnet", smc_pnet_main },		/* smc_pnet.c */
	{ NULL, NULL },
};

/*
 * main() - smc [ OPTIONS ] OBJECT { COMMAND | help }
 *
 * -n NAME runs the object in network namespace NAME of ip netns, as ip -n
 * does: entered once the options are read, before the object is looked up.
 *
 * Returns the exit status: 0 success, 1 failure (also: the network
 * namespace cannot be entered), 2 usage error (unknown object or option,
 * no object, -n without a name or with a bad one).
 */
int main(int argc, char **argv)
{
	const char *netns = NULL;
	const struct object *c;
	const struct entry *e;
	const char *prog;
	int ret;

	prog = strrchr(argv[0], '/');
	prog = prog ? prog + 1 : argv[0];
	for (e = entries; e->name; e++)
		if (!strcmp(prog, e->name))
			return finish(e->main(argc, argv, VERSION));

	while (argc > 1 && argv[1][0] == '-') {
		if (!strcmp(argv[1], "--")) {
			argc--;
			argv++;
			break;
		}
		switch (parse_option(argv[1])) {
		case OPT_JSON:
			json = 1;
			break;
		case OPT_PRETTY:
			pretty = 1;
			break;
		case OPT_DETAILS:
			show_details++;
			break;
		case OPT_HEX:
			show_hex = 1;
			break;
		case OPT_ABSOLUTE:
			show_absolute = 1;
			break;
		case OPT_NETNS:
			if (argc < 3) {
				fprintf(stderr,
					"Error: option \"%s\" needs a network namespace name, try \"smc -help\".\n",
					argv[1]);
				return EXIT_USAGE;
			}
			netns = argv[2];
			argc--;
			argv++;
			break;
		case OPT_VERSION:
			printf("smc utility, smc-dump %s\n", VERSION);
			return finish(EXIT_OK);
		case OPT_HELP:
			usage(stdout);
			return finish(EXIT_OK);
		case OPT_AMBIGUOUS:
			fprintf(stderr,
				"Option \"%s\" is ambiguous, try \"smc -help\".\n",
				argv[1]);
			return EXIT_USAGE;
		default:
			fprintf(stderr,
				"Option \"%s\" is unknown, try \"smc -help\".\n",
				argv[1]);
			return EXIT_USAGE;
		}
		argc--;
		argv++;
	}

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (netns) {
		ret = netns_switch(netns);
		if (ret)
			return ret;
	}
	c = find_object(argv[1]);
	if (!c)
		return unknown_object(argv[1]);
	ret = c->func(argc - 2, argv + 2);
	return finish(ret);
}
