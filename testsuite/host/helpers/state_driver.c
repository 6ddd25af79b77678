// SPDX-License-Identifier: GPL-2.0
/*
 * state_driver.c - drive smc/capture_state.c from the command line (host
 * tests only, not shipped): the alias a capture writes on its link, and
 * what stop and show read back from one.
 *
 *   state_driver format SIZE KEY=VALUE...   print the alias (SIZE bytes
 *       with the NUL) and, on a second line, the CAPTURE_STATE_NO_* bits
 *       that did not fit; keys: pid start mode type snaplen tpid tstart
 *       log file filter (mode and type as numbers)
 *   state_driver parse ALIAS                 print what it says, a field
 *       a line, "valid 0" for an alias that is not a capture's
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "capture_state.h"

static int set(struct capture_state *st, const char *kv)
{
	const char *v = strchr(kv, '=');
	size_t k;

	if (!v)
		return -1;
	k = (size_t)(v++ - kv);
#define IS(s) (k == strlen(s) && !strncmp(kv, s, k))
	if (IS("pid"))
		st->pid = atoi(v);
	else if (IS("start"))
		st->start = strtoull(v, NULL, 10);
	else if (IS("mode"))
		st->mode = atoi(v);
	else if (IS("type"))
		st->type = atoi(v);
	else if (IS("snaplen"))
		st->snaplen = (unsigned int)strtoul(v, NULL, 10);
	else if (IS("tpid"))
		st->tpid = atoi(v);
	else if (IS("tstart"))
		st->tstart = strtoull(v, NULL, 10);
	else if (IS("log"))
		snprintf(st->log, sizeof(st->log), "%s", v);
	else if (IS("file"))
		snprintf(st->file, sizeof(st->file), "%s", v);
	else if (IS("filter"))
		snprintf(st->filter, sizeof(st->filter), "%s", v);
	else
		return -1;
#undef IS
	return 0;
}

int main(int argc, char **argv)
{
	struct capture_state st = { 0 };
	char alias[RTNL_ALIAS_SIZE];
	size_t size;
	int i, left;

	if (argc >= 3 && !strcmp(argv[1], "format")) {
		size = strtoul(argv[2], NULL, 10);
		if (size < 64 || size > sizeof(alias))
			return 99;
		for (i = 3; i < argc; i++)
			if (set(&st, argv[i]))
				return 99;
		left = capture_state_format(alias, size, &st);
		printf("%s\n%d\n", alias, left);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "parse")) {
		capture_state_parse(argv[2], &st);
		printf("valid %d\npid %d\nstart %llu\nmode %d\ntype %d\n"
		       "snaplen %u\ntpid %d\ntstart %llu\nlog %s\nfile %s\n"
		       "filter %s\n", st.valid, (int)st.pid, st.start, st.mode,
		       st.type, st.snaplen, (int)st.tpid, st.tstart, st.log,
		       st.file, st.filter);
		return 0;
	}
	fprintf(stderr, "usage: state_driver format SIZE KEY=VALUE... | parse ALIAS\n");
	return 99;
}
