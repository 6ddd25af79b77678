// SPDX-License-Identifier: GPL-2.0
/*
 * run.c - smc run [ -p PATH ] [ -r SIZE ] [ -t SIZE ] [ -d ] COMMAND
 * [ ARG ]...: run a program so that its TCP sockets are SMC sockets, as
 * smc-tools' smc_run does.
 *
 * How a program's sockets are turned into SMC sockets is a path:
 *
 *   bpf      an fmod_ret program on the kernel's update_socket_protocol()
 *            (Linux 6.6 and later) answers IPPROTO_SMC (Linux 6.11 and
 *            later) for the TCP sockets of the command and its
 *            descendants (run_bpf.c, run_bpf.bpf.c): it reaches every
 *            program, static binaries and Go programs that make the
 *            system call themselves too. smc run forks the command and
 *            stays, holding the programs' links, until it ends.
 *   preload  LD_PRELOAD of libsmc-preload.so (lib/smc-preload), which
 *            interposes libc's socket(): dynamically linked programs
 *            only; smc run execs the command.
 *
 * -p auto (the default) takes bpf where it works (run_bpf_open() says
 * why not) and preload otherwise; -p bpf or -p preload forces one, a
 * forced bpf that cannot work is an error. The bpf path cannot set
 * buffer sizes (update_socket_protocol() sees a protocol number, no
 * socket), so -r and -t make auto take preload and are refused with -p
 * bpf.
 *
 * A path's prepare() sets up the environment (or the kernel) for the
 * command; its run() then runs the command with its arguments verbatim.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run_bpf.h"
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

enum run_path_id { PATH_AUTO, PATH_BPF, PATH_PRELOAD };

struct run_opts {
	enum run_path_id path;
	bool path_given;
	int rcvbuf;		/* bytes, 0: not given */
	int sndbuf;
	int debug;
	struct run_bpf *bpf;	/* the bpf path's programs, once prepared */
};

/* big enough for the preload path's list of places looked in */
#define WHY_SIZE	(3 * PATH_MAX + 512)

struct run_path {
	const char *name;
	/* 0, or -1 with @why: what is missing or failed, one line */
	int (*prepare)(struct run_opts *o, char *why, size_t size);
	/* run the command; returns the exit status of smc run */
	int (*run)(struct run_opts *o, char **argv);
};

static void usage(FILE *fp)
{
	fprintf(fp,
		"Usage: smc run [ -p PATH ] [ -r SIZE ] [ -t SIZE ] [ -d ] [ -- ] COMMAND [ ARG ]...\n"
		"       smc run help\n"
		"where  PATH := { auto | bpf | preload }  (how sockets become SMC; default auto:\n"
		"                                        bpf where the kernel allows, else preload)\n"
		"       SIZE := BYTES[ k | m ]   (the receive and send buffers of SMC sockets;\n"
		"                                 the preload path only)\n"
		"       -d                       debug lines on stderr: the path taken and why,\n"
		"                                what the preload library or the bpf path did\n");
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
static bool find_preload(char *out, size_t size, char *why, size_t wsize)
{
	char dir[PATH_MAX], cand[3][PATH_MAX + 64], *real;
	unsigned int i, n = 0;
	size_t len;

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
	len = snprintf(why, wsize, "the preload library " PRELOAD_LIB
		       " is not installed; looked for");
	for (i = 0; i < n && len < wsize; i++)
		len += snprintf(why + len, wsize - len, "%s %s", i ? "," : "",
				cand[i]);
	if (len < wsize)
		snprintf(why + len, wsize - len, ".");
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
static int preload_prepare(struct run_opts *o, char *why, size_t size)
{
	const char *old = getenv("LD_PRELOAD");
	char lib[PATH_MAX], *val;

	if (!find_preload(lib, sizeof(lib), why, size))
		return -1;
	/* ld.so splits LD_PRELOAD at blanks and colons */
	if (strpbrk(lib, " \t\n:")) {
		snprintf(why, size,
			 "the preload library \"%s\" cannot be preloaded: LD_PRELOAD cannot hold a path with a blank or colon.",
			 lib);
		return -1;
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
		snprintf(why, size, "cannot set the environment: %s",
			 strerror(errno));
		free(val);
		return -1;
	}
	if (o->debug)
		fprintf(stderr, "smc run: LD_PRELOAD=%s\n", val);
	free(val);
	return 0;
}

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

static int preload_run(struct run_opts *o, char **argv)
{
	(void)o;
	fflush(stdout);
	return exec_command(argv);
}

static const struct run_path preload_path = {
	"preload", preload_prepare, preload_run
};

static int bpf_prepare(struct run_opts *o, char *why, size_t size)
{
	if (o->rcvbuf || o->sndbuf) {
		snprintf(why, size,
			 "it cannot set buffer sizes (-r, -t): update_socket_protocol() has no socket to set them on");
		return -1;
	}
	return run_bpf_open(&o->bpf, why, size);
}

/* The signals smc run passes on to the command: those another process
 * sends it. A terminal's ^C and ^\ reach the command's process group,
 * the command too, by themselves (si_code SI_KERNEL): not passed on, or
 * the command would get them twice.
 */
static const int fwd_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

/*
 * bpf_run() - fork and exec the command, pass signals on to it, and wait
 * for it as a shell does: its exit status, 128 + the signal that killed
 * it, 127 or 126 when it could not be run (the child says why, as the
 * preload path does). The programs stay attached until the command ends;
 * its children that outlive it are untracked from then on.
 */
static int bpf_run(struct run_opts *o, char **argv)
{
	struct sigaction dfl = { .sa_handler = SIG_DFL }, old_chld;
	uint64_t made, untracked;
	sigset_t sigs, old_mask;
	int status = 0, ret;
	unsigned int i;
	siginfo_t si;
	pid_t pid;

	sigemptyset(&sigs);
	sigaddset(&sigs, SIGCHLD);
	for (i = 0; i < sizeof(fwd_signals) / sizeof(fwd_signals[0]); i++)
		sigaddset(&sigs, fwd_signals[i]);
	/* an inherited SIG_IGN of SIGCHLD would reap the child unseen */
	sigaction(SIGCHLD, &dfl, &old_chld);
	sigprocmask(SIG_BLOCK, &sigs, &old_mask);
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "Error: cannot fork: %s\n", strerror(errno));
		run_bpf_close(o->bpf);
		return EXIT_FAIL;
	}
	if (pid == 0) {
		sigaction(SIGCHLD, &old_chld, NULL);
		sigprocmask(SIG_SETMASK, &old_mask, NULL);
		_exit(exec_command(argv));
	}
	for (;;) {
		int sig = sigwaitinfo(&sigs, &si);

		if (sig < 0)
			continue;	/* EINTR: a stop and continue */
		if (sig != SIGCHLD) {
			if (si.si_code != SI_KERNEL)
				kill(pid, sig);
			continue;
		}
		ret = waitpid(pid, &status, WNOHANG);
		if (ret == pid || (ret < 0 && errno == ECHILD))
			break;
	}
	run_bpf_counts(o->bpf, &made, &untracked);
	run_bpf_close(o->bpf);
	o->bpf = NULL;
	if (o->debug)
		fprintf(stderr, "smc run: bpf: sockets made IPPROTO_SMC: %llu\n",
			(unsigned long long)made);
	if (untracked)
		fprintf(stderr,
			"Warning: smc run: %llu processes of the command were not tracked (too many at once): their sockets stayed TCP\n",
			(unsigned long long)untracked);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

static const struct run_path bpf_path = { "bpf", bpf_prepare, bpf_run };

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
	static char why[WHY_SIZE];
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
		if (a[1] == 'p') {
			val = take_arg(argc, argv, &i);
			if (!val) {
				fprintf(stderr,
					"Error: option \"-p\" needs a PATH, try \"smc run help\".\n");
				return EXIT_USAGE;
			}
			if (o.path_given)
				return duparg("-p", val);
			if (!strcmp(val, "auto"))
				o.path = PATH_AUTO;
			else if (!strcmp(val, "bpf"))
				o.path = PATH_BPF;
			else if (!strcmp(val, "preload"))
				o.path = PATH_PRELOAD;
			else
				return invarg("-p must be auto, bpf or preload",
					      val);
			o.path_given = true;
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
	if (o.path == PATH_BPF && (o.rcvbuf || o.sndbuf)) {
		fprintf(stderr,
			"Error: -r and -t need the preload path: the bpf path cannot set buffer sizes; use -p preload or -p auto.\n");
		return EXIT_USAGE;
	}
	if (o.path != PATH_PRELOAD) {
		if (!bpf_prepare(&o, why, sizeof(why))) {
			path = &bpf_path;
			if (o.debug)
				fprintf(stderr,
					"smc run: path bpf: update_socket_protocol() gives the TCP sockets of the command and its children IPPROTO_SMC\n");
		} else if (o.path == PATH_BPF) {
			fprintf(stderr,
				"Error: smc run: the bpf path cannot work: %s; use -p preload (LD_PRELOAD: dynamically linked programs only).\n",
				why);
			return EXIT_FAIL;
		} else if (o.debug) {
			fprintf(stderr,
				"smc run: path preload: the bpf path cannot work: %s\n",
				why);
		}
	} else if (o.debug) {
		fprintf(stderr, "smc run: path preload: -p preload\n");
	}
	if (path != &bpf_path &&
	    path->prepare(&o, why, sizeof(why))) {
		fprintf(stderr, "Error: %s\n", why);
		return EXIT_FAIL;
	}
	return path->run(&o, argv + i);
}

/*
 * raise_core_max() - net.core.@name to at least @bytes, as smc_run does
 * for -r (rmem_max) and -t (wmem_max), so that the kernel does not cap the
 * buffer size asked for; a failure is said on stderr, not fatal.
 */
static void raise_core_max(const char *name, int bytes)
{
	char path[64];
	long cur = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/sys/net/core/%s", name);
	f = fopen(path, "re");
	if (!f || fscanf(f, "%ld", &cur) != 1) {
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
	if (cur >= bytes)
		return;
	f = fopen(path, "we");
	if (!f || fprintf(f, "%d\n", bytes) < 0 || fclose(f)) {
		fprintf(stderr,
			"smc_run: cannot raise net.core.%s to %d: %s\n",
			name, bytes, strerror(errno));
		return;
	}
}

/*
 * chk_size() - smc_run's buffer size: digits with an optional k, K, m or
 * M; its value in bytes into *@out (0: none asked for, as smc_run
 * passes 0 to the library, which then leaves the size alone)
 *
 * Return: 0, or 1 (smc_run's code) after its message on stdout.
 */
static int chk_size(const char *arg, int *out)
{
	unsigned long long v = 0, unit = 1;
	const char *p = arg;

	for (; *p >= '0' && *p <= '9' && v <= INT_MAX; p++)
		v = v * 10 + (*p - '0');
	if (*p == 'k' || *p == 'K')
		unit = 1024, p++;
	else if (*p == 'm' || *p == 'M')
		unit = 1048576, p++;
	if (p == arg || *arg < '0' || *arg > '9' || *p ||
	    v > INT_MAX / unit) {
		printf("Error: Invalid buffer size specified: '%s'\n", arg);
		return 1;
	}
	*out = (int)(v * unit);
	return 0;
}

static void smc_run_usage(void)
{
	printf("\n"
	       "Usage: smc_run [ OPTIONS ] COMMAND\n"
	       "\n"
	       "Run COMMAND with SMC sockets for its TCP sockets (smc-dump's smc run)\n"
	       "\n"
	       "   -d         debug messages\n"
	       "   -h         this text\n"
	       "   -r <SIZE>  receive buffer size to ask for, bytes (k, m: KiB, MiB)\n"
	       "   -t <SIZE>  send buffer size to ask for, bytes (k, m: KiB, MiB)\n"
	       "   -v         the version\n");
}

/*
 * script_name() - $0 of smc-tools' smc_run for the command @argv0: bash
 * gets the script's path from the exec that found it (argv[0] itself
 * when it has a '/', else its place in $PATH), and its getopts names
 * that in a bad option's message. @argv0 itself when not found.
 */
static const char *script_name(const char *argv0, char *buf, size_t size)
{
	return find_in_path(argv0, buf, size) ? buf : argv0;
}

/*
 * smc_run_main() - the smc_run entry point: smc-tools' smc_run [ -d ]
 * [ -r SIZE ] [ -t SIZE ] COMMAND [ ARG ]..., run as smc run (the path
 * auto: bpf where the kernel allows, the preload library otherwise and
 * with -r or -t).
 *
 * Errors as smc_run says them: on stdout, exit 1. Otherwise the command's
 * exit status.
 */
int smc_run_main(int argc, char **argv, const char *version)
{
	char *rargv[8 + 1], rbuf[16], tbuf[16], self[PATH_MAX];
	int c, n = 0, rcv = 0, snd = 0, debug = 0, i;
	char **nargv;

	opterr = 0;
	while ((c = getopt(argc, argv, "+:dhr:t:v")) != -1) {
		switch (c) {
		case 'd':
			debug = 1;
			break;
		case 'h':
			smc_run_usage();
			return EXIT_OK;
		case 'r':
		case 't':
			if (chk_size(optarg, c == 'r' ? &rcv : &snd))
				return 1;
			raise_core_max(c == 'r' ? "rmem_max" : "wmem_max",
				       c == 'r' ? rcv : snd);
			break;
		case 'v':
			printf("smc_run utility, smc-dump-%s\n", version);
			return EXIT_OK;
		case ':':
			fprintf(stderr,
				"%s: option requires an argument -- %c\n",
				script_name(argv[0], self, sizeof(self)),
				optopt);
			printf("smc_run: Error: Invalid option: -\n");
			return 1;
		default:
			fprintf(stderr, "%s: illegal option -- %c\n",
				script_name(argv[0], self, sizeof(self)),
				optopt);
			printf("smc_run: Error: Invalid option: -\n");
			return 1;
		}
	}
	if (optind >= argc) {
		printf("smc_run: Error: Missing command parameter\n");
		return 1;
	}
	if (debug)
		rargv[n++] = "-d";
	if (rcv) {
		snprintf(rbuf, sizeof(rbuf), "%d", rcv);
		rargv[n++] = "-r";
		rargv[n++] = rbuf;
	}
	if (snd) {
		snprintf(tbuf, sizeof(tbuf), "%d", snd);
		rargv[n++] = "-t";
		rargv[n++] = tbuf;
	}
	rargv[n++] = "--";
	nargv = calloc(n + argc - optind + 1, sizeof(*nargv));
	if (!nargv) {
		fprintf(stderr, "Error: out of memory\n");
		return EXIT_FAIL;
	}
	for (i = 0; i < n; i++)
		nargv[i] = rargv[i];
	for (i = optind; i < argc; i++)
		nargv[n++] = argv[i];
	fflush(stdout);
	return do_run(n, nargv);
}
