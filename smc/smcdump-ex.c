// SPDX-License-Identifier: GPL-2.0
/*
 * smcdump-ex - the options of Alibaba Cloud Linux's SMC dump tool on top
 * of `smc dump start`:
 *
 *   smcdump-ex [-m {all,smc,smcd,smcr}] [-t {all,raw,cdc,llc}]
 *              [--param 'TCPDUMP ARGS'] [--filter EXPR] [--legacy] [-h]
 *
 * becomes `smc dump start mode M type T [param ARGS] [filter EXPR]`, run
 * by exec, so that signals, output and exit status are those of smc. Each
 * argument is passed on as one argument: quoting inside ARGS is undone by
 * smc dump start, the way a shell would, and reaches tcpdump intact.
 *
 * The smc program run is $SMCDUMP_EX_SMC if set, else the smc next to
 * this program, else smc in $PATH.
 */
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: smcdump-ex [-m {all,smc,smcd,smcr}] [-t {all,raw,cdc,llc}]\n"
		"                  [--param 'TCPDUMP ARGS'] [--filter EXPR] [--legacy] [-h]\n"
		"  -m, --mode     connections to capture: smc (default) SMC-R and SMC-D,\n"
		"                 smcr, smcd, or all: SMC-R, SMC-D and the TCP handshake\n"
		"  -t, --type     records: all (default), raw (data), cdc (CDC messages)\n"
		"                 or llc (SMC-R LLC messages)\n"
		"  --param ARGS   more tcpdump options, one string split as a shell does\n"
		"                 (e.g. --param \"-w /tmp/smc.pcap -c 100\")\n"
		"  --filter EXPR  tcpdump filter expression\n"
		"  --legacy       accepted for compatibility; smc-dump's kernels need none\n"
		"  -h, --help     this text\n"
		"Runs \"smc dump start\" (see smc-dump(8)); ^C ends the capture.\n");
}

static bool one_of(const char *v, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(v, *list))
			return true;
	return false;
}

/* The smc program to run, see the head comment */
static const char *smc_path(char *buf, size_t size)
{
	const char *env = getenv("SMCDUMP_EX_SMC");
	char self[PATH_MAX];
	ssize_t n;

	if (env && *env)
		return env;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n > 0) {
		self[n] = '\0';
		snprintf(buf, size, "%s/smc", dirname(self));
		if (!access(buf, X_OK))
			return buf;
	}
	return "smc";
}

/**
 * main() - parse Alibaba's options, exec smc dump start
 * @argc: argument count
 * @argv: arguments
 *
 * Return: 2 on a usage error, 0 for -h, 127 when smc cannot be run;
 * otherwise the exit status is smc's.
 */
int main(int argc, char **argv)
{
	static const char *const modes[] = { "all", "smc", "smcd", "smcr", NULL };
	static const char *const types[] = { "all", "raw", "cdc", "llc", NULL };
	static const struct option longopts[] = {
		{ "mode", required_argument, NULL, 'm' },
		{ "type", required_argument, NULL, 't' },
		{ "param", required_argument, NULL, 'P' },
		{ "filter", required_argument, NULL, 'F' },
		{ "legacy", no_argument, NULL, 'L' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *mode = "smc", *type = "all", *param = NULL, *filter = NULL;
	char buf[PATH_MAX + 8];
	const char *smc, *av[16];
	int c, n = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "+m:t:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'm':
			if (!one_of(optarg, modes)) {
				fprintf(stderr,
					"smcdump-ex: invalid mode \"%s\": all, smc, smcd or smcr\n",
					optarg);
				return 2;
			}
			mode = optarg;
			break;
		case 't':
			if (!one_of(optarg, types)) {
				fprintf(stderr,
					"smcdump-ex: invalid type \"%s\": all, raw, cdc or llc\n",
					optarg);
				return 2;
			}
			type = optarg;
			break;
		case 'P':
			param = optarg;
			break;
		case 'F':
			filter = optarg;
			break;
		case 'L':
			/* Alibaba's older kernels needed a switch; ours not */
			break;
		case 'h':
			usage(stdout);
			return fflush(stdout) ? 1 : 0;
		default:
			if (optopt && strchr("mt", optopt))
				fprintf(stderr, "smcdump-ex: -%c needs a value\n",
					optopt);
			else
				fprintf(stderr, "smcdump-ex: unknown option \"%s\"\n",
					argv[optind - 1]);
			usage(stderr);
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr,
			"smcdump-ex: unexpected argument \"%s\" (a filter goes in --filter)\n",
			argv[optind]);
		usage(stderr);
		return 2;
	}
	smc = smc_path(buf, sizeof(buf));
	av[n++] = smc;
	av[n++] = "dump";
	av[n++] = "start";
	av[n++] = "mode";
	av[n++] = mode;
	av[n++] = "type";
	av[n++] = type;
	if (param) {
		av[n++] = "param";
		av[n++] = param;
	}
	if (filter) {
		av[n++] = "filter";
		av[n++] = filter;
	}
	av[n] = NULL;
	execvp(smc, (char *const *)av);
	fprintf(stderr, "smcdump-ex: cannot run %s: %m\n", smc);
	return 127;
}
