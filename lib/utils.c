// SPDX-License-Identifier: GPL-2.0
/*
 * utils.c - helpers of every object of the smc command (see utils.h)
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "utils.h"

int matches(const char *prefix, const char *string)
{
	if (!*prefix)
		return 1;
	while (*string && *prefix == *string) {
		prefix++;
		string++;
	}
	return *prefix != '\0';
}

int cmd_select(const struct cmd *cmds, int argc, char **argv,
	       const char *object, void (*usage)(FILE *fp))
{
	const struct cmd *c;

	if (argc < 1)
		return cmds[0].func(0, argv);
	if (matches(argv[0], "help") == 0) {
		usage(stdout);
		return EXIT_OK;
	}
	for (c = cmds; c->name; c++) {
		if (c->flags & CMD_EXACT ? strcmp(argv[0], c->name) :
		    matches(argv[0], c->name))
			continue;
		if (c->flags & CMD_KEEP)
			return c->func(argc, argv);
		return c->func(argc - 1, argv + 1);
	}
	if (c->func)
		return c->func(argc, argv);
	fprintf(stderr, "Command \"%s\" is unknown, try \"smc %s help\".\n",
		argv[0], object);
	return EXIT_USAGE;
}

int invarg(const char *msg, const char *arg)
{
	fprintf(stderr, "Error: argument \"%s\" is wrong: %s\n", arg, msg);
	return EXIT_USAGE;
}

int duparg(const char *key, const char *arg)
{
	fprintf(stderr,
		"Error: duplicate \"%s\": \"%s\" is the second value.\n",
		key, arg);
	return EXIT_USAGE;
}

int next_arg(int *argcp, char ***argvp, const char *object)
{
	if (*argcp < 2) {
		fprintf(stderr,
			"Error: \"%s\" needs an argument, try \"smc %s help\".\n",
			(*argvp)[0], object);
		return EXIT_USAGE;
	}
	(*argcp)--;
	(*argvp)++;
	return 0;
}

/* the number in @arg, at most @max; -1 as get_u64() documents */
static int get_unsigned(uint64_t *val, const char *arg, int base,
			uint64_t max)
{
	const char *p = arg;
	unsigned long long v;
	char *end;

	if (!arg)
		return -1;
	while (isspace((unsigned char)*p))
		p++;
	/* strtoull() negates "-N" into a large number, not an error */
	if (*p == '-')
		return -1;
	errno = 0;
	v = strtoull(arg, &end, base);
	if (end == arg || *end || errno || v > max)
		return -1;
	*val = v;
	return 0;
}

int get_u64(uint64_t *val, const char *arg, int base)
{
	return get_unsigned(val, arg, base, UINT64_MAX);
}

int get_u32(uint32_t *val, const char *arg, int base)
{
	uint64_t v;

	if (get_unsigned(&v, arg, base, UINT32_MAX))
		return -1;
	*val = v;
	return 0;
}

int get_u16(uint16_t *val, const char *arg, int base)
{
	uint64_t v;

	if (get_unsigned(&v, arg, base, UINT16_MAX))
		return -1;
	*val = v;
	return 0;
}

/* Print @s in double quotes with control and non-ASCII bytes as \xNN */
static void print_cquoted(FILE *fp, const char *s)
{
	const unsigned char *p;

	fputc('"', fp);
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x20 || *p >= 0x7f || *p == '"' || *p == '\\')
			fprintf(fp, "\\x%02x", *p);
		else
			fputc(*p, fp);
	}
	fputc('"', fp);
}

int invalid_rule(const char *what, const char *arg, const char *rule,
		 size_t pos)
{
	unsigned char c;

	fprintf(stderr, "Error: %s ", what);
	print_cquoted(stderr, arg);
	fprintf(stderr, " is invalid: %s", rule);
	if (pos != (size_t)-1) {
		c = arg[pos];
		if (c < 0x20 || c >= 0x7f)
			fprintf(stderr, ", not byte 0x%02x", c);
		else
			fprintf(stderr, ", not '%c'", c);
		fprintf(stderr, " at position %zu", pos + 1);
	}
	fputc('\n', stderr);
	return EXIT_USAGE;
}

int get_hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

bool find_in_path(const char *prog, char *out, size_t size)
{
	const char *path = getenv("PATH"), *p, *e;

	if (strchr(prog, '/')) {
		snprintf(out, size, "%s", prog);
		return access(out, X_OK) == 0;
	}
	if (!path)
		path = "/usr/local/bin:/usr/bin:/bin";
	for (p = path; ; p = e + 1) {
		struct stat st;

		e = strchrnul(p, ':');
		if (e == p)
			snprintf(out, size, "./%s", prog);
		else
			snprintf(out, size, "%.*s/%s", (int)(e - p), p, prog);
		if (!stat(out, &st) && S_ISREG(st.st_mode) &&
		    !access(out, X_OK))
			return true;
		if (!*e)
			return false;
	}
}

/* a modules.dep or modules.builtin line names smc.ko (compressed or not) */
static bool line_names_smc(const char *line)
{
	const char *end = line + strcspn(line, ":\n");
	const char *base = end;

	while (base > line && base[-1] != '/')
		base--;
	return end - base >= 6 && !strncmp(base, "smc.ko", 6) &&
	       (end - base == 6 || base[6] == '.');
}

enum smc_module { SMC_MODULE_UNKNOWN, SMC_MODULE_PRESENT, SMC_MODULE_ABSENT };

static enum smc_module smc_module(void)
{
	static const char *const lists[] = { "modules.dep", "modules.builtin" };
	const char *dir = getenv("SMC_DUMP_MODULES_DIR");
	char base[PATH_MAX], path[PATH_MAX + 32];
	enum smc_module ret = SMC_MODULE_ABSENT;
	char *line = NULL;
	size_t size = 0;
	struct utsname u;
	unsigned int i;
	FILE *f;

	if (dir) {
		snprintf(base, sizeof(base), "%s", dir);
	} else {
		if (!access("/sys/module/smc", F_OK))
			return SMC_MODULE_PRESENT;
		if (uname(&u))
			return SMC_MODULE_UNKNOWN;
		snprintf(base, sizeof(base), "/lib/modules/%s", u.release);
	}
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]) &&
		    ret == SMC_MODULE_ABSENT; i++) {
		snprintf(path, sizeof(path), "%s/%s", base, lists[i]);
		f = fopen(path, "re");
		if (!f) {
			ret = SMC_MODULE_UNKNOWN;
			break;
		}
		while (getline(&line, &size, f) > 0) {
			if (line_names_smc(line)) {
				ret = SMC_MODULE_PRESENT;
				break;
			}
		}
		fclose(f);
	}
	free(line);
	return ret;
}

const char *smc_no_smc_advice(void)
{
	switch (smc_module()) {
	case SMC_MODULE_PRESENT:
		return "load the smc module (modprobe smc)";
	case SMC_MODULE_ABSENT:
		return "the running kernel is built without SMC (its modules.dep and modules.builtin name no smc module): boot a kernel with CONFIG_SMC, such as Debian's 6.12 kernels (Debian's 7.x kernels have no SMC: CONFIG_DIBS, which SMC needs, is off there)";
	default:
		return "load the smc module or use a kernel with CONFIG_SMC";
	}
}

bool smc_module_absent(void)
{
	return smc_module() == SMC_MODULE_ABSENT;
}
