// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - smc run [ -r SIZE ] [ -t SIZE ] [ -d ] COMMAND [ ARG ]...: run
 * a program so that its TCP sockets are SMC sockets, as smc-tools'
 * smc_run does.
 *
 * How a program's sockets are turned into SMC sockets is a path:
 *
 *   preload  LD_PRELOAD of libsmc-preload.so (lib/smc-preload), which
 *            interposes libc's socket(): every dynamically linked program;
 *            the only path so far.
 *   (bpf)    planned: an fmod_ret program on the kernel's
 *            update_socket_protocol() (Linux 6.6 and later) that turns
 *            IPPROTO_TCP into IPPROTO_SMC (Linux 6.11 and later) for the
 *            processes of one cgroup, which also reaches static binaries
 *            and Go programs; it would be a second struct run_path below,
 *            chosen by an option or by what the kernel offers.
 *
 * A path's prepare() sets up the environment (or the kernel) for the
 * command; run then execs the command with its arguments verbatim.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "smc.h"

#define PRELOAD_LIB "libsmc-preload.so"
/* where make install puts the library, from smc/Makefile: relative to the
 * directory of the smc binary, and absolute
 */
#ifndef SMC_LIBSUBDIR
#define SMC_LIBSUBDIR "lib/smc-dump"
#endif
#ifndef SMC_LIBDIR
#define SMC_LIBDIR "/usr/" SMC_LIBSUBDIR
#endif

struct run_opts {
	int rcvbuf;		/* bytes, 0: not given */
	int sndbuf;
	int debug;
};

struct run_path {
	const char *name;
	/* 0, or the exit status after printing the error */
	int (*prepare)(const struct run_opts *o);
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: smc run [ -r SIZE ] [ -t SIZE ] [ -d ] [ -- ] COMMAND [ ARG ]...\n"
		"       smc run help\n"
		"where  SIZE := BYTES[ k | m ]   (the receive and send buffers of SMC sockets)\n"
		"       -d                       debug lines of the preload library on stderr\n");
}

/*
 * parse_size() - a buffer size: decimal bytes, optionally followed by k or
 * K (KiB) or m or M (MiB), from 1 byte to INT_MAX (the int of SO_RCVBUF)
 *
 * Return: 0 with *@out set, or EXIT_USAGE after the error.
 */
static int parse_size(const char *opt, const char *arg, int *out)
{
	unsigned long long v = 0, unit = 1;
	const char *p = arg;

	if (*p < '0' || *p > '9')
		goto bad;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (*p - '0');
		if (v > INT_MAX)
			goto bad;
	}
	if (*p == 'k' || *p == 'K')
		unit = 1024, p++;
	else if (*p == 'm' || *p == 'M')
		unit = 1048576, p++;
	if (*p || v == 0 || v > INT_MAX / unit)
		goto bad;
	*out = (int)(v * unit);
	return 0;
bad:
	fprintf(stderr,
		"Error: %s \"%s\" is no buffer size: 1 to %d bytes, a number with an optional k (KiB) or m (MiB).\n",
		opt, arg, INT_MAX);
	return EXIT_USAGE;
}

/*
 * self_dir() - the directory of the running smc binary into @buf
 *
 * Return: true when /proc/self/exe could be read.
 */
static bool self_dir(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);
	char *slash;

	if (n <= 0 || (size_t)n >= size - 1)
		return false;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (!slash)
		return false;
	*slash = '\0';
	return true;
}

/*
 * find_preload() - the absolute path of libsmc-preload.so: in the build
 * tree next to smc/ (lib/smc-preload), installed relative to the binary
 * (BIN/../SMC_LIBSUBDIR, so that a DESTDIR or a moved prefix works), then
 * SMC_LIBDIR as compiled in
 *
 * Return: true with @out set.
 */
static bool find_preload(char *out, size_t size)
{
	char dir[PATH_MAX], cand[3][PATH_MAX + 64], *real;
	unsigned int i, n = 0;

	if (self_dir(dir, sizeof(dir))) {
		snprintf(cand[n++], sizeof(cand[0]),
			 "%s/../lib/smc-preload/" PRELOAD_LIB, dir);
		snprintf(cand[n++], sizeof(cand[0]),
			 "%s/../" SMC_LIBSUBDIR "/" PRELOAD_LIB, dir);
	}
	snprintf(cand[n++], sizeof(cand[0]), SMC_LIBDIR "/" PRELOAD_LIB);
	for (i = 0; i < n; i++) {
		if (access(cand[i], R_OK))
			continue;
		real = realpath(cand[i], NULL);
		if (!real)
			continue;
		if (strlen(real) >= size) {
			free(real);
			continue;
		}
		strcpy(out, real);
		free(real);
		return true;
	}
	fprintf(stderr, "Error: the preload library " PRELOAD_LIB
		" is not installed; looked for");
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s %s", i ? "," : "", cand[i]);
	fprintf(stderr, ".\n");
	return false;
}

static int set_size_env(const char *name, int size)
{
	char buf[16];

	if (!size)
		return unsetenv(name);
	snprintf(buf, sizeof(buf), "%d", size);
	return setenv(name, buf, 1);
}

/*
 * preload_prepare() - LD_PRELOAD with libsmc-preload.so after what the
 * user preloads already, and its variables: SMC_RCVBUF and SMC_SNDBUF
 * (bytes; removed when not given, so that only the options decide),
 * SMC_DEBUG (1 with -d, else 0)
 */
static int preload_prepare(const struct run_opts *o)
{
	const char *old = getenv("LD_PRELOAD");
	char lib[PATH_MAX], *val;

	if (!find_preload(lib, sizeof(lib)))
		return EXIT_FAIL;
	/* ld.so splits LD_PRELOAD at blanks and colons */
	if (strpbrk(lib, " \t\n:")) {
		fprintf(stderr,
			"Error: the preload library \"%s\" cannot be preloaded: LD_PRELOAD cannot hold a path with a blank or colon.\n",
			lib);
		return EXIT_FAIL;
	}
	if (old && *old) {
		if (asprintf(&val, "%s:%s", old, lib) < 0)
			val = NULL;
	} else {
		val = strdup(lib);
	}
	if (!val || setenv("LD_PRELOAD", val, 1) ||
	    set_size_env("SMC_RCVBUF", o->rcvbuf) ||
	    set_size_env("SMC_SNDBUF", o->sndbuf) ||
	    setenv("SMC_DEBUG", o->debug ? "1" : "0", 1)) {
		fprintf(stderr, "Error: cannot set the environment: %s\n",
			strerror(errno));
		free(val);
		return EXIT_FAIL;
	}
	if (o->debug)
		fprintf(stderr, "smc run: LD_PRELOAD=%s\n", val);
	free(val);
	return 0;
}

static const struct run_path preload_path = { "preload", preload_prepare };

/*
 * in_path() - whether a file @name (not a directory) is in a directory of
 * $PATH, executable or not, as execvp() searches it
 */
static bool in_path(const char *name)
{
	const char *path = getenv("PATH"), *p, *e;
	char file[PATH_MAX];
	struct stat st;

	if (!path)
		path = "/bin:/usr/bin";
	for (p = path; ; p = e + 1) {
		e = strchrnul(p, ':');
		snprintf(file, sizeof(file), "%.*s%s%s", (int)(e - p), p,
			 e == p ? "" : "/", name);
		if (!stat(file, &st) && !S_ISDIR(st.st_mode))
			return true;
		if (!*e)
			return false;
	}
}

/*
 * exec_command() - execvp @argv; returns only on failure, with the exit
 * status a shell gives: 127 when the command is not found, 126 when it
 * cannot be run. execvp() says EACCES also when a directory of $PATH
 * cannot be searched and the command is nowhere: that is "not found".
 */
static int exec_command(char **argv)
{
	bool found;
	int err;

	execvp(argv[0], argv);
	err = errno;
	found = !(err == ENOENT || err == ENOTDIR ||
		  (err == EACCES && !strchr(argv[0], '/') &&
		   !in_path(argv[0])));
	fprintf(stderr, "Error: cannot run \"%s\": %s\n", argv[0],
		found ? strerror(err) : "command not found");
	return found ? 126 : 127;
}

/* take_arg() - the value of option @opt: the rest of argv[*i] or the next */
static const char *take_arg(int argc, char **argv, int *i)
{
	if (argv[*i][2])
		return argv[*i] + 2;
	if (*i + 1 < argc)
		return argv[++*i];
	return NULL;
}

int do_run(int argc, char **argv)
{
	const struct run_path *path = &preload_path;
	struct run_opts o = { 0 };
	const char *val;
	int i, ret, *size;

	if (argc >= 1 && (!strcmp(argv[0], "help") ||
			  !strcmp(argv[0], "-h") ||
			  !strcmp(argv[0], "-help") ||
			  !strcmp(argv[0], "--help"))) {
		usage(stdout);
		return EXIT_OK;
	}
	/* the options of run come before COMMAND; the rest is COMMAND's */
	for (i = 0; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			i++;
			break;
		}
		if (!strcmp(a, "-d")) {
			o.debug = 1;
			continue;
		}
		if (a[1] == 'r' || a[1] == 't') {
			size = a[1] == 'r' ? &o.rcvbuf : &o.sndbuf;
			val = take_arg(argc, argv, &i);
			if (!val) {
				fprintf(stderr,
					"Error: option \"-%c\" needs a SIZE, try \"smc run help\".\n",
					a[1]);
				return EXIT_USAGE;
			}
			if (*size)
				return duparg(a[1] == 'r' ? "-r" : "-t", val);
			ret = parse_size(a[1] == 'r' ? "-r" : "-t", val, size);
			if (ret)
				return ret;
			continue;
		}
		fprintf(stderr,
			"Error: option \"%s\" of \"smc run\" is unknown, try \"smc run help\".\n",
			a);
		return EXIT_USAGE;
	}
	if (i >= argc) {
		fprintf(stderr,
			"Error: \"smc run\" needs a COMMAND to run, try \"smc run help\".\n");
		return EXIT_USAGE;
	}
	ret = path->prepare(&o);
	if (ret)
		return ret;
	fflush(stdout);
	return exec_command(argv + i);
}
