// SPDX-License-Identifier: GPL-2.0
/*
 * smc dump start, stop and show: a capture is an smc-dummy link made for
 * it (rtnetlink, rtnl.c) and a tcpdump on that link (mode all: on "any",
 * so that the TCP handshake and the records land together), supervised by
 * the smc process that started them:
 *
 *   smc dump start ---- creates and brings up the link, sets its alias
 *     |                 "smc-dump pid=N start=T mode=... tpid=N ... file=..."
 *     +-- tcpdump -i LINK ... -w FILE|-   (own process group; stderr to us)
 *     +-- decoder (without write): reads tcpdump's pcap stream from a
 *         pipe and prints each frame with the decoder of `smc dump read`
 *
 * SIGINT, SIGTERM or SIGHUP to the supervisor (or the end of tcpdump)
 * ends the capture: once tcpdump has taken in what the kernel holds for it
 * (drain()), it gets SIGTERM, flushes its file and reports its counters on
 * stderr, which we read; the link's counters are read, the link deleted
 * and a summary printed. With `background`, the supervisor
 * detaches once tcpdump listens; its stderr then goes to a log file named
 * in the alias, which `smc dump stop` prints after the supervisor ended.
 * The alias is how another invocation in the same netns finds the
 * capture: `stop` sends SIGTERM to the pid recorded there, once it has
 * checked by the process start time that the pid is still the same
 * process.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pcap/pcap.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <linux/smc_dump.h>

#include "dump.h"
#include "dump_capture.h"
#include "json_print.h"
#include "rtnl.h"
#include "smc.h"

#define EXIT_OK			0
#define EXIT_FAIL		1
#define EXIT_USAGE		2

#ifndef AF_SMC
#define AF_SMC			43
#endif

#define ALIAS_TAG		"smc-dump"
#define NAME_PREFIX		"smc-dummy"
#define START_TIMEOUT_MS	30000	/* tcpdump listens within this */
#define DRAIN_MS		10000	/* longest wait for tcpdump to catch up */
#define STOP_TIMEOUT_MS		20000	/* a capture ends after SIGTERM */
#define TCPDUMP_BUFFER_KIB	"32768"	/* tcpdump -B default of ours */
#define ERRTEXT_MAX		4096	/* tcpdump's early stderr kept */

/* what `mode` selects: the link's mode, and whether tcpdump takes "any" */
enum cap_mode { CAP_ALL, CAP_SMC, CAP_SMCR, CAP_SMCD, CAP_MODE_N };

static const char *const mode_names[CAP_MODE_N] = {
	"all", "smc", "smcr", "smcd"
};

static const uint8_t mode_link[CAP_MODE_N] = {
	SMC_DUMMY_MODE_SMC, SMC_DUMMY_MODE_SMC, SMC_DUMMY_MODE_SMCR,
	SMC_DUMMY_MODE_SMCD
};

/* names of the link's own values, enum smc_dummy_mode / _capture */
static const char *const link_mode_names[] = { "smc", "smcr", "smcd" };
static const char *const type_names[] = { "all", "raw", "cdc" };

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define N_TYPES		ARRAY_SIZE(type_names)
#define N_LINK_MODES	ARRAY_SIZE(link_mode_names)

static void start_usage(FILE *f)
{
	fprintf(f,
		"Usage: smc dump start [ mode { all | smc | smcr | smcd } ] [ type { all | raw | cdc } ]\n"
		"                      [ snaplen N ] [ write FILE ] [ filter EXPR ]\n"
		"                      [ param 'TCPDUMP ARGS' ] [ dev NAME ] [ background ]\n"
		"       smc dump stop [ dev NAME | all ]\n"
		"       smc [ -j [ -p ] ] dump show [ dev NAME ]\n"
		"mode all: SMC-R and SMC-D records and, with tcpdump -i any, the TCP handshake.\n"
		"Without write, the records are decoded as they come; background needs write.\n"
		"SIGINT, SIGTERM, SIGHUP or smc dump stop end a capture.\n");
}

/* ---- words: param split as a shell does, and quoted back for -d ---- */

/**
 * struct words - a growing argument vector, NULL-terminated
 * @v: the words
 * @n: their number
 * @cap: room in @v, the NULL included
 */
struct words {
	char **v;
	int n;
	int cap;
};

static int words_add(struct words *w, const char *s, size_t len)
{
	char *d;

	if (w->n + 2 > w->cap) {
		int cap = w->cap ? 2 * w->cap : 16;
		char **n = realloc(w->v, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		w->v = n;
		w->cap = cap;
	}
	d = strndup(s, len);
	if (!d)
		return -ENOMEM;
	w->v[w->n++] = d;
	w->v[w->n] = NULL;
	return 0;
}

static void words_free(struct words *w)
{
	int i;

	for (i = 0; i < w->n; i++)
		free(w->v[i]);
	free(w->v);
	memset(w, 0, sizeof(*w));
}

/*
 * Split @s into words as a POSIX shell splits a command line, quoting
 * included and nothing expanded: blanks separate words; '...' keeps
 * everything; "..." keeps everything but \ before $ ` " \ and newline;
 * outside quotes a backslash keeps the next character (and removes a
 * newline). An unterminated quote is an error (-EINVAL).
 */
static int split_words(const char *s, struct words *w)
{
	size_t len = strlen(s), n = 0;
	bool inword = false;
	char *buf;
	int err = 0;

	buf = malloc(len + 1);
	if (!buf)
		return -ENOMEM;
	while (*s && !err) {
		char ch = *s;

		if (ch == ' ' || ch == '\t' || ch == '\n') {
			if (inword)
				err = words_add(w, buf, n);
			inword = false;
			n = 0;
			s++;
			continue;
		}
		inword = true;
		if (ch == '\'') {
			const char *e = strchr(s + 1, '\'');

			if (!e) {
				err = -EINVAL;
				break;
			}
			memcpy(buf + n, s + 1, e - s - 1);
			n += e - s - 1;
			s = e + 1;
		} else if (ch == '"') {
			for (s++; *s && *s != '"'; s++) {
				if (*s == '\\' && s[1] && strchr("$`\"\\\n", s[1])) {
					s++;
					if (*s == '\n')
						continue;
				}
				buf[n++] = *s;
			}
			if (!*s) {
				err = -EINVAL;
				break;
			}
			s++;
		} else if (ch == '\\' && s[1]) {
			if (s[1] != '\n')
				buf[n++] = s[1];
			else if (n == 0)
				inword = false;
			s += 2;
		} else {
			buf[n++] = ch;
			s++;
		}
	}
	if (!err && inword)
		err = words_add(w, buf, n);
	free(buf);
	return err;
}

/* Print @arg to @f so that a shell reads it back as one word */
static void print_quoted(FILE *f, const char *arg)
{
	const char *p;

	if (*arg && strspn(arg, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_@%+=:,./-") == strlen(arg)) {
		fputs(arg, f);
		return;
	}
	fputc('\'', f);
	for (p = arg; *p; p++) {
		if (*p == '\'')
			fputs("'\\''", f);
		else
			fputc(*p, f);
	}
	fputc('\'', f);
}

/* ---- the state in the link's alias ---- */

/**
 * struct owner - what the alias of a capture's link says
 * @valid: the alias is one of ours
 * @pid: the supervising smc process
 * @start: its start time (field 22 of /proc/PID/stat)
 * @mode: mode of the capture (enum cap_mode), -1 unknown
 * @type: enum smc_dummy_capture, -1 unknown
 * @snaplen: the link's snaplen
 * @tpid: the capture's tcpdump, 0 unknown
 * @tstart: its start time
 * @log: log file of a background capture, "" for none
 * @file: the capture file, "" when the records are decoded live
 * @filter: tcpdump's filter expression, "" for none
 */
struct owner {
	bool valid;
	pid_t pid;
	unsigned long long start;
	int mode;
	int type;
	unsigned int snaplen;
	pid_t tpid;
	unsigned long long tstart;
	char log[RTNL_ALIAS_SIZE];
	char file[RTNL_ALIAS_SIZE];
	char filter[RTNL_ALIAS_SIZE];
};

/* Append " KEY=VALUE" to @buf, VALUE with blanks, '%' and control bytes
 * as %XX. False when it does not fit in @size (then @buf is unchanged).
 */
static bool alias_put(char *buf, size_t size, const char *key,
		      const char *value)
{
	static const char hx[] = "0123456789ABCDEF";
	size_t n = strlen(buf), o = n;
	const unsigned char *p;

	n += snprintf(buf + n, size > n ? size - n : 0, " %s=", key);
	for (p = (const unsigned char *)value; *p && n + 4 < size; p++) {
		if (*p <= ' ' || *p == '%' || *p >= 0x7f) {
			buf[n++] = '%';
			buf[n++] = hx[*p >> 4];
			buf[n++] = hx[*p & 15];
		} else {
			buf[n++] = (char)*p;
		}
	}
	if (n >= size || *p) {
		buf[o] = '\0';
		return false;
	}
	buf[n] = '\0';
	return true;
}

static int hexdigit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Undo the %XX of alias_put() from @s (length @len) into @out */
static void alias_unescape(const char *s, size_t len, char *out,
			   size_t size)
{
	size_t i, n = 0;

	for (i = 0; i < len && n + 1 < size; i++) {
		int hi = -1, lo = -1;

		if (s[i] == '%' && i + 2 < len) {
			hi = hexdigit(s[i + 1]);
			lo = hexdigit(s[i + 2]);
		}
		if (hi >= 0 && lo >= 0) {
			out[n++] = (char)(hi << 4 | lo);
			i += 2;
		} else {
			out[n++] = s[i];
		}
	}
	out[n] = '\0';
}

static int name_index(const char *const *names, int n, const char *s)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(names[i], s))
			return i;
	return -1;
}

/* Parse the alias of a link into @ow; ow->valid tells if it is ours */
static void alias_parse(const char *alias, struct owner *ow)
{
	const char *p = alias;
	char val[RTNL_ALIAS_SIZE];

	memset(ow, 0, sizeof(*ow));
	ow->mode = -1;
	ow->type = -1;
	if (strncmp(p, ALIAS_TAG " ", strlen(ALIAS_TAG) + 1))
		return;
	p += strlen(ALIAS_TAG);
	while (*p == ' ') {
		const char *k = ++p, *eq, *e;

		e = p + strcspn(p, " ");
		eq = memchr(k, '=', e - k);
		p = e;
		if (!eq)
			continue;
		alias_unescape(eq + 1, e - eq - 1, val, sizeof(val));
#define KEY(s) ((size_t)(eq - k) == strlen(s) && !strncmp(k, s, eq - k))
		if (KEY("pid"))
			ow->pid = (pid_t)strtol(val, NULL, 10);
		else if (KEY("start"))
			ow->start = strtoull(val, NULL, 10);
		else if (KEY("mode"))
			ow->mode = name_index(mode_names, CAP_MODE_N, val);
		else if (KEY("type"))
			ow->type = name_index(type_names, N_TYPES, val);
		else if (KEY("snaplen"))
			ow->snaplen = (unsigned int)strtoul(val, NULL, 10);
		else if (KEY("tpid"))
			ow->tpid = (pid_t)strtol(val, NULL, 10);
		else if (KEY("tstart"))
			ow->tstart = strtoull(val, NULL, 10);
		else if (KEY("log"))
			snprintf(ow->log, sizeof(ow->log), "%s", val);
		else if (KEY("file"))
			snprintf(ow->file, sizeof(ow->file), "%s", val);
		else if (KEY("filter"))
			snprintf(ow->filter, sizeof(ow->filter), "%s", val);
#undef KEY
	}
	ow->valid = ow->pid > 0;
}

/* Start time of process @pid (clock ticks since boot) and whether it is
 * a zombie; -1 when there is no such process.
 */
static int proc_start(pid_t pid, unsigned long long *start, bool *zombie)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd, i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* the command name may hold blanks and parentheses: skip to the
	 * last ')', then field 3 (state) ... field 22 (starttime)
	 */
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return -1;
	p += 2;
	*zombie = *p == 'Z' || *p == 'X';
	for (i = 3; i < 22 && p; i++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (!p)
		return -1;
	*start = strtoull(p, NULL, 10);
	return 0;
}

/* Process @pid runs and is the one that started at @start */
static bool proc_alive(pid_t pid, unsigned long long start)
{
	unsigned long long st;
	bool zombie;

	if (pid <= 0 || proc_start(pid, &st, &zombie))
		return false;
	return !zombie && st == start;
}

/* The capture's supervisor still runs (and is the process recorded) */
static bool owner_alive(const struct owner *ow)
{
	return ow->valid && proc_alive(ow->pid, ow->start);
}

/* The capture's tcpdump runs although its supervisor is gone: it changed
 * its user ID, which cancels the signal that its parent's end sends
 */
static bool orphan_tcpdump(const struct owner *ow)
{
	return ow->valid && ow->tpid && !owner_alive(ow) &&
	       proc_alive(ow->tpid, ow->tstart);
}

/* ---- small helpers ---- */

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Find @prog in $PATH like execvp() would; false when not there */
static bool find_in_path(const char *prog, char *out, size_t size)
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

/* A valid interface name (the kernel's dev_valid_name()) */
static bool valid_ifname(const char *name)
{
	const char *p;

	if (!*name || strlen(name) >= IF_NAMESIZE || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return false;
	for (p = name; *p; p++)
		if (*p == '/' || *p == ':' || *p == ' ' ||
		    (*p >= '\t' && *p <= '\r'))
			return false;
	return true;
}

/* "smc-dummy" and four random lower-case letters */
static void random_name(char *name, size_t size)
{
	unsigned char r[4];
	int i;

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != sizeof(r)) {
		unsigned int x = (unsigned int)now_ms() ^ (unsigned int)getpid();

		for (i = 0; i < 4; i++) {
			x = x * 1103515245 + 12345;
			r[i] = (unsigned char)(x >> 16);
		}
	}
	snprintf(name, size, NAME_PREFIX "%c%c%c%c", 'a' + r[0] % 26,
		 'a' + r[1] % 26, 'a' + r[2] % 26, 'a' + r[3] % 26);
}

/* The smc-dummy links of the netns and their owners; prints errors */
static int list_links(struct rtnl *rt, struct rtnl_link **links,
		      struct owner **owners)
{
	int n, i, err;

	err = rtnl_open(rt);
	if (err) {
		fprintf(stderr, "Error: cannot open rtnetlink: %s\n",
			strerror(-err));
		return err;
	}
	n = rtnl_smc_dummy_list(rt, links);
	if (n < 0) {
		fprintf(stderr, "Error: cannot list the links: %s\n",
			strerror(-n));
		rtnl_close(rt);
		return n;
	}
	*owners = calloc(n ? n : 1, sizeof(**owners));
	if (!*owners) {
		free(*links);
		rtnl_close(rt);
		fprintf(stderr, "Error: out of memory\n");
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		alias_parse((*links)[i].alias, &(*owners)[i]);
	return n;
}

/* ---- smc dump start: options ---- */

/**
 * struct start_opts - what smc dump start was asked to do
 * @mode: enum cap_mode
 * @type: enum smc_dummy_capture
 * @snaplen: the link's snaplen, 0 all
 * @write: write FILE, or NULL
 * @filter: filter EXPR, or NULL
 * @param: param ARGS, or NULL
 * @dev: dev NAME, or NULL for a random name
 * @background: detach once the capture runs
 * @pw: @param split into words
 * @param_write: a -w FILE among @pw (tcpdump writes there), or NULL
 * @file: absolute path of the file tcpdump writes, NULL: decoded live
 *	("-" for standard output)
 * @tcpdump: path of the tcpdump program
 */
struct start_opts {
	int mode;
	int type;
	uint32_t snaplen;
	const char *write;
	const char *filter;
	const char *param;
	const char *dev;
	bool background;
	struct words pw;
	const char *param_write;
	char *file;
	char tcpdump[PATH_MAX];
};

static int duparg(const char *key, const char *arg)
{
	fprintf(stderr,
		"Error: duplicate \"%s\": \"%s\" is the second value.\n",
		key, arg);
	return EXIT_USAGE;
}

static char *absolute(const char *path)
{
	char cwd[PATH_MAX], *r;

	if (path[0] == '/' || !strcmp(path, "-"))
		return strdup(path);
	if (!getcwd(cwd, sizeof(cwd)))
		return strdup(path);
	if (asprintf(&r, "%s/%s", cwd, path) < 0)
		return NULL;
	return r;
}

static int parse_start(int argc, char **argv, struct start_opts *o)
{
	bool seen_mode = false, seen_type = false, seen_snap = false;
	int i, k, err;

	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *v;

		if (!strcmp(a, "help") || !strcmp(a, "-h") ||
		    !strcmp(a, "--help")) {
			start_usage(stdout);
			return -1;
		}
		if (matches(a, "background")) {
			o->background = true;
			continue;
		}
		if (!matches(a, "mode") && !matches(a, "type") &&
		    !matches(a, "snaplen") && !matches(a, "write") &&
		    !matches(a, "filter") && !matches(a, "param") &&
		    !matches(a, "dev")) {
			fprintf(stderr,
				"Error: unknown keyword \"%s\", try \"smc dump start help\".\n",
				a);
			return EXIT_USAGE;
		}
		if (i + 1 == argc) {
			fprintf(stderr, "Error: \"%s\" needs a value.\n", a);
			return EXIT_USAGE;
		}
		v = argv[++i];
		if (matches(a, "mode")) {
			if (seen_mode)
				return duparg("mode", v);
			k = name_index(mode_names, CAP_MODE_N, v);
			if (k < 0)
				return invarg("mode must be all, smc, smcr or smcd",
					      v);
			o->mode = k;
			seen_mode = true;
		} else if (matches(a, "type")) {
			if (seen_type)
				return duparg("type", v);
			k = name_index(type_names, N_TYPES, v);
			if (k < 0)
				return invarg("type must be all, raw or cdc", v);
			o->type = k;
			seen_type = true;
		} else if (matches(a, "snaplen")) {
			char *end;
			unsigned long n;

			if (seen_snap)
				return duparg("snaplen", v);
			errno = 0;
			n = strtoul(v, &end, 10);
			if (!*v || *end || errno || n > 65535 || v[0] == '-')
				return invarg("snaplen must be a number of bytes from 0 (all) to 65535",
					      v);
			o->snaplen = (uint32_t)n;
			seen_snap = true;
		} else if (matches(a, "write")) {
			if (o->write)
				return duparg("write", v);
			if (!*v)
				return invarg("write needs a file name", v);
			o->write = v;
		} else if (matches(a, "filter")) {
			if (o->filter)
				return duparg("filter", v);
			o->filter = v;
		} else if (matches(a, "param")) {
			if (o->param)
				return duparg("param", v);
			o->param = v;
		} else {
			if (o->dev)
				return duparg("dev", v);
			if (!valid_ifname(v))
				return invarg("not a valid interface name (1 to 15 bytes, no '/', ':' or blanks)",
					      v);
			o->dev = v;
		}
	}
	if (o->param) {
		err = split_words(o->param, &o->pw);
		if (err == -EINVAL)
			return invarg("param has an unterminated quote",
				      o->param);
		if (err) {
			fprintf(stderr, "Error: out of memory\n");
			return EXIT_FAIL;
		}
		for (i = 0; i < o->pw.n; i++) {
			const char *w = o->pw.v[i];

			if (!strcmp(w, "-i") || !strncmp(w, "-i", 2) ||
			    !strncmp(w, "--interface", 11))
				return invarg("param must not choose the interface: smc dump start does (mode all: any)",
					      w);
			if (!strcmp(w, "-w") && i + 1 < o->pw.n)
				o->param_write = o->pw.v[++i];
			else if (!strncmp(w, "-w", 2) && w[2])
				o->param_write = w + 2;
		}
	}
	if (o->write && o->param_write)
		return invarg("write and a -w in param: give the file once",
			      o->param_write);
	if (o->write || o->param_write) {
		o->file = absolute(o->write ? o->write : o->param_write);
		if (!o->file) {
			fprintf(stderr, "Error: out of memory\n");
			return EXIT_FAIL;
		}
	}
	if (o->background && (!o->file || !strcmp(o->file, "-"))) {
		fprintf(stderr,
			"Error: background needs write FILE: a detached capture has no terminal to decode to.\n");
		return EXIT_USAGE;
	}
	return 0;
}

/* ---- smc dump start: the capture ---- */

/**
 * struct capture - a running capture, seen from its supervisor
 * @o: the options
 * @rt: rtnetlink socket
 * @name: the link
 * @have_link: we created @name and have not deleted it yet
 * @argv: tcpdump's arguments
 * @tpid: tcpdump, 0 once reaped
 * @tstatus: tcpdump's wait status
 * @dpid: the live decoder, 0 when none or reaped
 * @errfd: read end of tcpdump's stderr, -1 at EOF
 * @sfd: signalfd of SIGINT, SIGTERM, SIGHUP, SIGCHLD
 * @notify_fd: background: the pipe to the waiting parent, else -1
 * @line: the part of a stderr line read so far
 * @linelen: bytes in @line
 * @early: tcpdump's stderr before it listened
 * @earlylen: bytes in @early
 * @ready: tcpdump said "listening on"
 * @stop: a signal asked us to end
 * @nstops: stop signals received
 * @no_drain: end tcpdump without drain() (nobody reads the decoder)
 * @watch_out: live decoding: watch standard output for a reader that
 *	went away
 * @info_seen: counter reports (SIGUSR1) tcpdump made
 * @info_captured: "packets captured" of the last report
 * @info_received: "packets received by filter" of the last report
 * @info_dropped: "packets dropped by kernel" of the last report
 * @term_at: when tcpdump got SIGTERM (now_ms()), 0 not yet
 * @captured: tcpdump's "packets captured", -1 unknown
 * @kdropped: tcpdump's "packets dropped by kernel", -1 unknown
 * @logpath: background: the log file
 */
struct capture {
	struct start_opts *o;
	struct rtnl rt;
	char name[IF_NAMESIZE];
	bool have_link;
	struct words argv;
	pid_t tpid;
	int tstatus;
	pid_t dpid;
	int errfd;
	int sfd;
	int notify_fd;
	char line[1024];
	size_t linelen;
	char early[ERRTEXT_MAX];
	size_t earlylen;
	bool ready;
	bool stop;
	unsigned int nstops;
	bool no_drain;
	bool watch_out;
	unsigned int info_seen;
	long long info_captured;
	long long info_received;
	long long info_dropped;
	long long term_at;
	long long captured;
	long long kdropped;
	char logpath[PATH_MAX];
};

/* Build tcpdump's command line into c->argv */
static int build_argv(struct capture *c)
{
	struct start_opts *o = c->o;
	struct words *w = &c->argv;
	int i, err = 0;

#define ADD(s) do { if (!err) err = words_add(w, (s), strlen(s)); } while (0)
	ADD("tcpdump");
	/* no promiscuous mode: the link needs none, "any" has none */
	ADD("-p");
	/* each packet to the file at once: usable while it grows */
	ADD("-U");
	/* records come in bursts of up to 64 KiB frames */
	ADD("-B");
	ADD(TCPDUMP_BUFFER_KIB);
	for (i = 0; i < o->pw.n; i++)
		ADD(o->pw.v[i]);
	ADD("-i");
	ADD(o->mode == CAP_ALL ? "any" : c->name);
	if (!o->param_write) {
		ADD("-w");
		ADD(o->file ? o->file : "-");
	}
	if (o->filter && *o->filter)
		ADD(o->filter);
#undef ADD
	return err;
}

static void print_argv(FILE *f, const struct words *w)
{
	int i;

	fputs("smc dump: running", f);
	for (i = 0; i < w->n; i++) {
		fputc(' ', f);
		print_quoted(f, w->v[i]);
	}
	fputc('\n', f);
}

/* Room the tcpdump fields (" tpid=N tstart=N") take in the alias */
#define ALIAS_TCPDUMP_ROOM	48

/* The alias that tells show and stop about this capture. Before tcpdump
 * runs, room for its fields is kept, so that what fits now fits then.
 */
static int make_alias(struct capture *c, char *alias, size_t size)
{
	struct start_opts *o = c->o;
	unsigned long long start = 0;
	bool zombie;
	char num[32];

	if (!c->tpid)
		size -= ALIAS_TCPDUMP_ROOM;
	if (proc_start(getpid(), &start, &zombie)) {
		fprintf(stderr, "Error: cannot read /proc/self/stat\n");
		return -1;
	}
	snprintf(alias, size, "%s pid=%d start=%llu", ALIAS_TAG,
		 (int)getpid(), start);
	alias_put(alias, size, "mode", mode_names[o->mode]);
	alias_put(alias, size, "type", type_names[o->type]);
	snprintf(num, sizeof(num), "%u", o->snaplen);
	alias_put(alias, size, "snaplen", num);
	if (c->tpid && !proc_start(c->tpid, &start, &zombie)) {
		snprintf(num, sizeof(num), "%d", (int)c->tpid);
		alias_put(alias, size, "tpid", num);
		snprintf(num, sizeof(num), "%llu", start);
		alias_put(alias, size, "tstart", num);
	}
	if (c->logpath[0] && !alias_put(alias, size, "log", c->logpath)) {
		fprintf(stderr, "Error: the log path %s is too long\n",
			c->logpath);
		return -1;
	}
	if (o->file && !alias_put(alias, size, "file", o->file) &&
	    o->background) {
		fprintf(stderr,
			"Error: the file name %s is too long to be recorded in the link's alias (%d bytes): stop could not tell it; use a shorter path\n",
			o->file, RTNL_ALIAS_SIZE - 1);
		return -1;
	}
	/* the filter is for show only: left out when it does not fit */
	if (o->filter && *o->filter)
		alias_put(alias, size, "filter", o->filter);
	return 0;
}

/* Record tcpdump's pid in the alias, for stop to end an orphan */
static void alias_tcpdump(struct capture *c)
{
	char alias[RTNL_ALIAS_SIZE];
	int err;

	if (make_alias(c, alias, sizeof(alias)))
		return;
	err = rtnl_link_set(&c->rt, c->name, false, alias);
	if (err)
		fprintf(stderr, "smc dump: cannot set the alias of %s: %s\n",
			c->name, strerror(-err));
}

/* Explain a failed link creation; the errors of section 4 of the issue */
static void link_error(struct capture *c, int err)
{
	const char *ext = c->rt.extack;
	int s;

	switch (err) {
	case -EPERM:
	case -EACCES:
		fprintf(stderr,
			"Error: creating the smc-dummy link needs CAP_NET_ADMIN in this network namespace (run as root): %s\n",
			strerror(-err));
		return;
	case -EEXIST:
		fprintf(stderr,
			"Error: the name %s is already taken by another link\n",
			c->name);
		return;
	case -EOPNOTSUPP:
		s = socket(AF_SMC, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (s < 0 && (errno == EAFNOSUPPORT || errno == EPROTONOSUPPORT)) {
			fprintf(stderr,
				"Error: SMC is not available in the running kernel (AF_SMC sockets: %s): smc dump needs a kernel with CONFIG_SMC and the SMC dump patches of smc-dump (kernel/ in its source)\n",
				strerror(errno));
			return;
		}
		if (s >= 0)
			close(s);
		fprintf(stderr,
			"Error: the running kernel has no link kind smc-dummy%s%s%s: it needs the SMC dump patches of smc-dump. On Debian 12 with Debian's 6.12 kernel: apt install smc-dump-dkms linux-headers-$(uname -r), then, with no SMC socket open, rmmod smc_diag smc (the next modprobe loads the patched modules); elsewhere, a kernel built with the series (kernel/patches in smc-dump's source)\n",
			*ext ? " (kernel says: " : "", ext, *ext ? ")" : "");
		return;
	}
	fprintf(stderr, "Error: cannot create the smc-dummy link %s: %s%s%s%s\n",
		c->name, strerror(-err), *ext ? " (kernel says: " : "", ext,
		*ext ? ")" : "");
}

static void del_link(struct capture *c)
{
	int err;

	if (!c->have_link)
		return;
	err = rtnl_link_del(&c->rt, c->name);
	if (err && err != -ENODEV)
		fprintf(stderr, "Error: cannot delete the link %s: %s\n",
			c->name, strerror(-err));
	c->have_link = false;
}

/* No capture in the way: dev NAME free, and without dev no other capture
 * running in this netns
 */
static int check_names(struct capture *c)
{
	struct start_opts *o = c->o;
	struct rtnl_link *links = NULL;
	struct owner ow;
	int n, i, rc = 0;

	n = rtnl_smc_dummy_list(&c->rt, &links);
	if (n < 0) {
		fprintf(stderr, "Error: cannot list the links: %s\n",
			strerror(-n));
		return EXIT_FAIL;
	}
	for (i = 0; i < n && !rc; i++) {
		alias_parse(links[i].alias, &ow);
		if (ow.valid && !owner_alive(&ow) && o->dev &&
		    !strcmp(o->dev, links[i].name)) {
			fprintf(stderr,
				"Error: the name %s is taken by the link of a capture that is gone (pid %d); \"smc dump stop dev %s\" removes it\n",
				links[i].name, (int)ow.pid, links[i].name);
			rc = EXIT_FAIL;
		}
		if (!owner_alive(&ow))
			continue;
		if (o->dev && !strcmp(o->dev, links[i].name)) {
			fprintf(stderr,
				"Error: a capture is already running on %s (pid %d); end it with \"smc dump stop dev %s\"\n",
				links[i].name, (int)ow.pid, links[i].name);
			rc = EXIT_FAIL;
		} else if (!o->dev) {
			fprintf(stderr,
				"Error: a capture is already running in this network namespace on %s (pid %d); end it with \"smc dump stop\", or give a second capture its own \"dev NAME\"\n",
				links[i].name, (int)ow.pid);
			rc = EXIT_FAIL;
		}
	}
	free(links);
	if (!rc && o->dev && if_nametoindex(o->dev)) {
		fprintf(stderr,
			"Error: the name %s is already taken by another link\n",
			o->dev);
		rc = EXIT_FAIL;
	}
	return rc;
}

static int make_link(struct capture *c)
{
	struct start_opts *o = c->o;
	char alias[RTNL_ALIAS_SIZE];
	int err, tries;

	for (tries = 0; tries < 16; tries++) {
		if (o->dev)
			snprintf(c->name, sizeof(c->name), "%s", o->dev);
		else
			random_name(c->name, sizeof(c->name));
		/* tcpdump's command line names the link: shown (-d) before
		 * anything is made
		 */
		words_free(&c->argv);
		if (build_argv(c)) {
			fprintf(stderr, "Error: out of memory\n");
			return EXIT_FAIL;
		}
		if (show_details)
			print_argv(stderr, &c->argv);
		err = rtnl_smc_dummy_add(&c->rt, c->name, mode_link[o->mode],
					 (uint8_t)o->type, o->snaplen);
		if (err != -EEXIST || o->dev)
			break;
	}
	if (err) {
		link_error(c, err);
		return EXIT_FAIL;
	}
	c->have_link = true;
	if (make_alias(c, alias, sizeof(alias))) {
		del_link(c);
		return EXIT_FAIL;
	}
	err = rtnl_link_set(&c->rt, c->name, true, alias);
	if (err) {
		fprintf(stderr, "Error: cannot set up the link %s: %s%s%s%s\n",
			c->name, strerror(-err),
			c->rt.extack[0] ? " (kernel says: " : "", c->rt.extack,
			c->rt.extack[0] ? ")" : "");
		del_link(c);
		return EXIT_FAIL;
	}
	return 0;
}

/* Live decoding: tcpdump's pcap stream on @fd, printed with the decoder
 * of smc dump read (dump_decode.c), each frame as it arrives. Runs in a
 * child of the supervisor and ends at the end of the stream.
 */
static int decode_live(int fd)
{
	char errbuf[PCAP_ERRBUF_SIZE];
	struct pcap_pkthdr *h;
	const u_char *data;
	struct dump_ctx *dc;
	pcap_t *p;
	FILE *f;
	int r, rc = 0;

	f = fdopen(fd, "r");
	if (!f)
		return EXIT_FAIL;
	p = pcap_fopen_offline_with_tstamp_precision(f,
			PCAP_TSTAMP_PRECISION_NANO, errbuf);
	if (!p)
		return 0;	/* tcpdump wrote nothing: it reports why */
	if (!dump_dlt_supported(pcap_datalink(p))) {
		fprintf(stderr, "smc dump: link type %d not supported\n",
			pcap_datalink(p));
		return EXIT_FAIL;
	}
	dc = malloc(sizeof(*dc));
	if (!dc)
		return EXIT_FAIL;
	dump_ctx_init(dc, DUMP_CMD_READ, pcap_datalink(p));
	dc->details = show_details;
	dc->hex = show_hex;
	dc->ns_digits = 6;	/* tcpdump writes microseconds */
	new_json_obj(json, pretty);
	while ((r = pcap_next_ex(p, &h, &data)) == 1) {
		dump_decode_frame(dc, (long long)h->ts.tv_sec,
				  (uint32_t)h->ts.tv_usec, data, h->caplen);
		if (fflush(stdout))
			break;
	}
	if (r == PCAP_ERROR) {
		dc->frame++;
		dump_report_malformed(dc, 0, 0, pcap_geterr(p));
	}
	delete_json_obj();
	fflush(stdout);
	if (dc->cnt[DUMP_CNT_MALFORMED])
		rc = 1;
	free(dc);
	pcap_close(p);
	return rc;
}

/* SIGHUP was ignored when we started (nohup): our children keep that */
static bool hup_ignored;

static void child_signals(void)
{
	sigset_t all;

	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	if (!hup_ignored)
		signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	signal(SIGCHLD, SIG_DFL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
}

/* Start tcpdump (and the decoder); 0 or EXIT_FAIL */
static int spawn(struct capture *c)
{
	int errp[2], datap[2] = { -1, -1 }, devnull;
	bool live = !c->o->file;
	pid_t me = getpid();

	if (pipe2(errp, O_CLOEXEC) || (live && pipe2(datap, O_CLOEXEC))) {
		fprintf(stderr, "Error: pipe: %s\n", strerror(errno));
		return EXIT_FAIL;
	}
	fflush(stdout);
	fflush(stderr);
	c->tpid = fork();
	if (c->tpid < 0) {
		fprintf(stderr, "Error: fork: %s\n", strerror(errno));
		return EXIT_FAIL;
	}
	if (!c->tpid) {
		/* own process group: a terminal's ^C reaches only us, and we
		 * end tcpdump when we are ready to read what it says
		 */
		setpgid(0, 0);
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != me)
			_exit(127);
		child_signals();
		devnull = open("/dev/null", O_RDWR);
		if (devnull >= 0)
			dup2(devnull, STDIN_FILENO);
		/* stdout: the decoder's pipe; detached: nothing, so that no
		 * caller waits for its end (`run` in bats, $(...))
		 */
		if (live)
			dup2(datap[1], STDOUT_FILENO);
		else if (c->o->background && devnull >= 0)
			dup2(devnull, STDOUT_FILENO);
		dup2(errp[1], STDERR_FILENO);
		execv(c->o->tcpdump, c->argv.v);
		fprintf(stderr, "tcpdump: cannot run %s: %s\n", c->o->tcpdump,
			strerror(errno));
		_exit(127);
	}
	close(errp[1]);
	c->errfd = errp[0];
	if (!live)
		return 0;
	close(datap[1]);
	c->dpid = fork();
	if (c->dpid < 0) {
		fprintf(stderr, "Error: fork: %s\n", strerror(errno));
		close(datap[0]);
		c->dpid = 0;
		return EXIT_FAIL;
	}
	if (!c->dpid) {
		/* the decoder outlives ^C: it reads on to the end of what
		 * tcpdump flushes
		 */
		child_signals();
		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		close(c->errfd);
		close(c->sfd);
		rtnl_close(&c->rt);
		exit(decode_live(datap[0]));
	}
	close(datap[0]);
	c->watch_out = true;
	return 0;
}

static void keep_early(struct capture *c, const char *line)
{
	size_t n = strlen(line);

	if (c->earlylen + n + 2 > sizeof(c->early))
		return;
	memcpy(c->early + c->earlylen, line, n);
	c->earlylen += n;
	c->early[c->earlylen++] = '\n';
	c->early[c->earlylen] = '\0';
}

/* "N packet(s) WHAT" at @p: N in @n, and what follows; NULL if not */
static const char *count_of(const char *p, const char *what, long long *n)
{
	char *end;

	errno = 0;
	*n = strtoll(p, &end, 10);
	if (end == p || errno || *n < 0)
		return NULL;
	if (!strncmp(end, " packets ", 9))
		end += 9;
	else if (!strncmp(end, " packet ", 8))
		end += 8;
	else
		return NULL;
	if (strncmp(end, what, strlen(what)))
		return NULL;
	return end + strlen(what);
}

/* A line "N packet(s) WHAT", tcpdump's counters at its end */
static bool count_line(const char *line, const char *what, long long *n)
{
	const char *e = count_of(line, what, n);

	return e && !*e;
}

/* The answer to SIGUSR1: "tcpdump: N packets captured, N packets
 * received by filter, N packets dropped by kernel[, ...]"
 */
static bool info_line(struct capture *c, const char *line)
{
	long long cap, rcv, drop;
	const char *p;

	if (strncmp(line, "tcpdump: ", 9))
		return false;
	p = count_of(line + 9, "captured, ", &cap);
	if (p)
		p = count_of(p, "received by filter, ", &rcv);
	if (p)
		p = count_of(p, "dropped by kernel", &drop);
	if (!p || (*p && *p != ','))
		return false;
	c->info_captured = cap;
	c->info_received = rcv;
	c->info_dropped = drop;
	c->info_seen++;
	return true;
}

/* One line tcpdump wrote on stderr */
static void on_line(struct capture *c, const char *line)
{
	long long n;

	if (!c->ready && !strncmp(line, "tcpdump: listening on ", 22)) {
		c->ready = true;
		if (c->earlylen)
			fputs(c->early, stderr);
		if (show_details)
			fprintf(stderr, "%s\n", line);
		return;
	}
	if (info_line(c, line))
		return;
	/* what tcpdump says it chose, e.g. for -i any */
	if (!strncmp(line, "tcpdump: data link type ", 24)) {
		if (show_details)
			fprintf(stderr, "%s\n", line);
		return;
	}
	if (count_line(line, "captured", &n)) {
		c->captured = n;
		return;
	}
	if (count_line(line, "dropped by kernel", &n)) {
		c->kdropped = n;
		return;
	}
	if (count_line(line, "received by filter", &n) ||
	    count_line(line, "dropped by interface", &n))
		return;
	if (!c->ready)
		keep_early(c, line);
	else
		fprintf(stderr, "%s\n", line);
}

/* Read what tcpdump wrote on stderr; at EOF close it */
static void read_err(struct capture *c)
{
	char buf[2048];
	ssize_t n, i;

	n = read(c->errfd, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		if (c->linelen) {
			c->line[c->linelen] = '\0';
			on_line(c, c->line);
			c->linelen = 0;
		}
		close(c->errfd);
		c->errfd = -1;
		return;
	}
	for (i = 0; i < n; i++) {
		if (buf[i] == '\n' || c->linelen == sizeof(c->line) - 1) {
			c->line[c->linelen] = '\0';
			on_line(c, c->line);
			c->linelen = 0;
			if (buf[i] == '\n')
				continue;
		}
		c->line[c->linelen++] = buf[i];
	}
}

static void reap(struct capture *c)
{
	pid_t pid;
	int st;

	while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
		if (pid == c->tpid) {
			c->tpid = 0;
			c->tstatus = st;
		} else if (pid == c->dpid) {
			/* the decoder's reader went away (| head): nobody
			 * reads what tcpdump sends on, and tcpdump learns it
			 * only at its next packet
			 */
			c->dpid = 0;
			if (c->tpid && !c->stop) {
				c->stop = true;
				c->no_drain = true;
			}
		}
	}
}

static void end_tcpdump(struct capture *c)
{
	if (c->tpid && !c->term_at) {
		kill(c->tpid, SIGTERM);
		c->term_at = now_ms();
	}
}

/* One round of events, waiting up to @timeout ms: tcpdump's stderr,
 * signals (SIGINT, SIGTERM, SIGHUP set c->stop and count in c->nstops),
 * children ended; and SIGKILL for a tcpdump that ignores SIGTERM.
 */
static void step(struct capture *c, int timeout)
{
	/* negative descriptors are left out by poll() */
	struct pollfd pfd[3] = {
		{ .fd = c->sfd, .events = POLLIN },
		{ .fd = c->errfd, .events = POLLIN },
		{ .fd = c->watch_out ? STDOUT_FILENO : -1, .events = 0 },
	};
	struct signalfd_siginfo si;
	long long now;

	if (poll(pfd, 3, timeout) < 0 && errno != EINTR) {
		fprintf(stderr, "Error: poll: %s\n", strerror(errno));
		c->stop = true;
	}
	if (c->errfd >= 0 && pfd[1].revents)
		read_err(c);
	if (pfd[2].revents) {
		/* POLLERR: the reader of our standard output (a pipe) went
		 * away; the decoder would learn it only when it writes next
		 */
		c->watch_out = false;
		if (pfd[2].revents & (POLLERR | POLLHUP) && c->tpid &&
		    !c->stop) {
			c->stop = true;
			c->no_drain = true;
		}
	}
	if (pfd[0].revents & POLLIN) {
		while (read(c->sfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo != SIGCHLD) {
				c->stop = true;
				c->nstops++;
			}
		}
	}
	reap(c);
	now = now_ms();
	if (c->tpid && c->term_at && now - c->term_at > STOP_TIMEOUT_MS) {
		fprintf(stderr,
			"smc dump: tcpdump did not end %d s after SIGTERM, killed\n",
			STOP_TIMEOUT_MS / 1000);
		kill(c->tpid, SIGKILL);
		c->term_at = now;
	}
}

/*
 * Before tcpdump gets SIGTERM: let it take in what the kernel holds for
 * it. libpcap hands packets over a block of the ring at a time, when the
 * block is full or its timeout (tcpdump: 1 s) expired, and a tcpdump
 * that breaks its loop drops what it was not handed yet, without
 * counting it. So ask tcpdump for its counters (SIGUSR1) until it has
 * processed every packet the socket received (captured + dropped >=
 * received) and the link's record counter stood still in between.
 * A second stop signal or DRAIN_MS end the wait.
 */
static void drain(struct capture *c)
{
	long long end = now_ms() + DRAIN_MS, t;
	uint64_t last_tx = UINT64_MAX;
	unsigned int stops = c->nstops, seen;
	struct rtnl_link l;

	while (c->tpid && now_ms() < end && c->nstops == stops) {
		seen = c->info_seen;
		t = now_ms();
		kill(c->tpid, SIGUSR1);
		while (c->tpid && c->info_seen == seen && c->nstops == stops &&
		       now_ms() - t < 2000)
			step(c, 50);
		if (c->info_seen == seen)
			break;	/* no answer: nothing to wait for */
		if (rtnl_link_get(&c->rt, c->name, &l) || !l.has_stats)
			break;
		if (c->info_captured + c->info_dropped >= c->info_received &&
		    l.tx_packets == last_tx)
			break;
		last_tx = l.tx_packets;
		t = now_ms();
		while (c->tpid && c->nstops == stops && now_ms() - t < 100)
			step(c, 100);
	}
}

/*
 * Run until tcpdump listens (@until_ready) or until it ended and its
 * stderr is read to the end; a stop signal drains (once tcpdump runs)
 * and ends tcpdump. Return: 1 ready, 0 ended.
 */
static int run_loop(struct capture *c, bool until_ready)
{
	long long t0 = now_ms();

	for (;;) {
		if (until_ready && c->ready)
			return 1;
		if (!c->tpid && c->errfd < 0)
			return 0;
		if (c->stop && c->tpid && !c->term_at) {
			if (c->ready && !until_ready && !c->no_drain)
				drain(c);
			end_tcpdump(c);
		}
		step(c, 200);
		if (until_ready && !c->ready && c->tpid && !c->term_at &&
		    now_ms() - t0 > START_TIMEOUT_MS) {
			keep_early(c, "smc dump: tcpdump did not start listening in time");
			end_tcpdump(c);
		}
	}
}

static void print_summary(struct capture *c, const struct rtnl_link *l,
			  bool have_stats)
{
	char cap[32] = "?", kd[32] = "?", txp[32] = "?", txd[32] = "?";

	if (c->captured >= 0)
		snprintf(cap, sizeof(cap), "%lld", c->captured);
	if (c->kdropped >= 0)
		snprintf(kd, sizeof(kd), "%lld", c->kdropped);
	if (have_stats) {
		snprintf(txp, sizeof(txp), "%" PRIu64, l->tx_packets);
		snprintf(txd, sizeof(txd), "%" PRIu64, l->tx_dropped);
	}
	if (c->o->mode == CAP_ALL)
		fprintf(stderr,
			"smc dump: %s: %s packets captured on any, %s dropped by the kernel; the link delivered %s records, lost %s (tx_dropped)\n",
			c->name, cap, kd, txp, txd);
	else
		fprintf(stderr,
			"smc dump: %s: %s records captured, %s dropped by the kernel; the link delivered %s, lost %s (tx_dropped)\n",
			c->name, cap, kd, txp, txd);
}

/* Where a background capture writes its stderr */
static int open_log(struct capture *c)
{
	const char *rt = getenv("XDG_RUNTIME_DIR");
	char dir[PATH_MAX - 32];
	int fd;

	if (!geteuid() || !rt || !*rt)
		snprintf(dir, sizeof(dir), "/run/smc-dump");
	else
		snprintf(dir, sizeof(dir), "%s/smc-dump", rt);
	if (mkdir(dir, 0755) && errno != EEXIST) {
		snprintf(dir, sizeof(dir), "/tmp/smc-dump-%u",
			 (unsigned int)geteuid());
		if (mkdir(dir, 0700) && errno != EEXIST) {
			fprintf(stderr, "Error: cannot create %s: %s\n", dir,
				strerror(errno));
			return -1;
		}
	}
	snprintf(c->logpath, sizeof(c->logpath), "%s/%d.log", dir,
		 (int)getpid());
	fd = open(c->logpath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		fprintf(stderr, "Error: cannot create %s: %s\n", c->logpath,
			strerror(errno));
		c->logpath[0] = '\0';
	}
	return fd;
}

/* Tell the waiting parent that the capture runs; from now on our
 * stderr is the log and nothing holds the terminal.
 */
static void detach(struct capture *c, int logfd)
{
	char msg[128];
	int devnull = open("/dev/null", O_RDWR);
	ssize_t n;

	fflush(stdout);
	fflush(stderr);
	n = snprintf(msg, sizeof(msg), "%s %d", c->name, (int)getpid());
	if (write(c->notify_fd, msg, n) != n)
		fprintf(stderr, "smc dump: cannot tell the parent: %s\n",
			strerror(errno));
	close(c->notify_fd);
	c->notify_fd = -1;
	if (devnull >= 0) {
		dup2(devnull, STDIN_FILENO);
		dup2(devnull, STDOUT_FILENO);
		close(devnull);
	}
	dup2(logfd, STDERR_FILENO);
	close(logfd);
}

static int run_capture(struct start_opts *o, int notify_fd)
{
	struct capture c = {
		.o = o, .errfd = -1, .sfd = -1, .notify_fd = notify_fd,
		.captured = -1, .kdropped = -1,
	};
	struct rtnl_link l;
	bool have_stats;
	int rc, err, logfd = -1;
	struct sigaction old;
	sigset_t mask;

	/* SIGINT even when the shell ignores it for background jobs: kill
	 * -INT is meant; SIGHUP not when ignored (nohup)
	 */
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	hup_ignored = !sigaction(SIGHUP, NULL, &old) &&
		      old.sa_handler == SIG_IGN;
	if (!hup_ignored)
		sigaddset(&mask, SIGHUP);
	sigaddset(&mask, SIGCHLD);
	sigprocmask(SIG_BLOCK, &mask, NULL);
	/* a reader that goes away (smc dump start | head) ends the decoder,
	 * not us
	 */
	signal(SIGPIPE, SIG_IGN);
	c.sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (c.sfd < 0) {
		fprintf(stderr, "Error: signalfd: %s\n", strerror(errno));
		return EXIT_FAIL;
	}
	err = rtnl_open(&c.rt);
	if (err) {
		fprintf(stderr, "Error: cannot open rtnetlink: %s\n",
			strerror(-err));
		return EXIT_FAIL;
	}
	rc = check_names(&c);
	if (rc)
		goto out;
	if (o->background) {
		logfd = open_log(&c);
		if (logfd < 0) {
			rc = EXIT_FAIL;
			goto out;
		}
	}
	rc = make_link(&c);
	if (rc)
		goto out;
	rc = spawn(&c);
	if (rc)
		goto out;
	alias_tcpdump(&c);
	if (!run_loop(&c, true)) {
		/* tcpdump ended before it listened */
		int st = c.tstatus;

		if (c.stop) {
			fprintf(stderr,
				"smc dump: interrupted before the capture started\n");
		} else {
			fprintf(stderr, "Error: tcpdump failed to start (%s %d)%s",
				WIFSIGNALED(st) ? "signal" : "exit status",
				WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st),
				c.earlylen ? ":\n" : "\n");
			fputs(c.early, stderr);
		}
		rc = EXIT_FAIL;
		goto out;
	}
	if (c.notify_fd >= 0) {
		detach(&c, logfd);
		logfd = -1;
	} else {
		fprintf(stderr, "smc dump: capturing on %s (mode %s, type %s, snaplen %u%s%s), ",
			c.name, mode_names[o->mode], type_names[o->type],
			o->snaplen, o->mode == CAP_ALL ? ", tcpdump -i any" : "",
			o->filter && *o->filter ? ", with a filter" : "");
		if (o->file)
			fprintf(stderr, "writing %s; ", o->file);
		fprintf(stderr, "^C ends it\n");
	}
	run_loop(&c, false);
	/* tcpdump flushed and closed its output: the decoder reads it to
	 * the end
	 */
	while (c.dpid) {
		int st;

		if (waitpid(c.dpid, &st, 0) == c.dpid || errno != EINTR)
			c.dpid = 0;
	}
	have_stats = !rtnl_link_get(&c.rt, c.name, &l) && l.has_stats;
	del_link(&c);
	print_summary(&c, &l, have_stats);
	if (WIFEXITED(c.tstatus) && !WEXITSTATUS(c.tstatus))
		rc = EXIT_OK;
	else if (WIFSIGNALED(c.tstatus) && WTERMSIG(c.tstatus) == SIGTERM &&
		 c.stop)
		rc = EXIT_OK;
	else
		rc = EXIT_FAIL;
out:
	if (c.tpid) {
		end_tcpdump(&c);
		run_loop(&c, false);
	}
	del_link(&c);
	if (logfd >= 0)
		close(logfd);
	if (rc && c.notify_fd >= 0 && c.logpath[0])
		unlink(c.logpath);
	if (c.errfd >= 0)
		close(c.errfd);
	rtnl_close(&c.rt);
	close(c.sfd);
	words_free(&c.argv);
	return rc;
}

static pid_t bg_child;

static void forward_signal(int sig)
{
	(void)sig;
	if (bg_child > 0)
		kill(bg_child, SIGTERM);
}

/* background: the child runs the capture; we wait until it runs or fails */
static int start_background(struct start_opts *o)
{
	struct sigaction sa = { .sa_handler = forward_signal };
	char msg[128], name[IF_NAMESIZE] = "";
	ssize_t n = 0, r;
	int p[2], st, pid = 0;

	if (pipe2(p, O_CLOEXEC)) {
		fprintf(stderr, "Error: pipe: %s\n", strerror(errno));
		return EXIT_FAIL;
	}
	fflush(stdout);
	fflush(stderr);
	bg_child = fork();
	if (bg_child < 0) {
		fprintf(stderr, "Error: fork: %s\n", strerror(errno));
		return EXIT_FAIL;
	}
	if (!bg_child) {
		int devnull;

		/* keep no descriptor of the caller but 0, 1, 2 (replaced at
		 * detach) and the pipe, which becomes 3
		 */
		close(p[0]);
		if (p[1] != 3) {
			dup2(p[1], 3);
			close(p[1]);
			p[1] = 3;
		}
		fcntl(3, F_SETFD, FD_CLOEXEC);
		close_range(4, ~0U, 0);
		devnull = open("/dev/null", O_RDONLY);
		if (devnull >= 0) {
			dup2(devnull, STDIN_FILENO);
			close(devnull);
		}
		setsid();
		exit(run_capture(o, p[1]));
	}
	close(p[1]);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	while (n < (ssize_t)sizeof(msg) - 1) {
		r = read(p[0], msg + n, sizeof(msg) - 1 - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += r;
	}
	close(p[0]);
	msg[n] = '\0';
	if (!n || sscanf(msg, "%15s %d", name, &pid) != 2) {
		/* it failed and said why on our stderr */
		while (waitpid(bg_child, &st, 0) < 0 && errno == EINTR)
			;
		return WIFEXITED(st) && WEXITSTATUS(st) ? WEXITSTATUS(st) :
		       EXIT_FAIL;
	}
	new_json_obj(json, pretty);
	open_json_object(NULL);
	print_string(PRINT_ANY, "ifname", "%s: ", name);
	print_string(PRINT_FP, NULL, "%s", "capture running in the background, ");
	print_int(PRINT_ANY, "pid", "pid %d, ", pid);
	print_string(PRINT_ANY, "file", "writing %s", o->file);
	close_json_object();
	print_nl();
	delete_json_obj();
	return EXIT_OK;
}

/**
 * dump_start() - smc dump start (see dump_capture.h)
 * @argc: number of arguments in @argv
 * @argv: the arguments after "start"
 *
 * Return: 0 when the capture ran (foreground: and ended cleanly;
 * background: and is running), 1 on failure, 2 on a usage error.
 */
int dump_start(int argc, char **argv)
{
	struct start_opts o = { .mode = CAP_SMC, .type = 0 };
	int rc;

	rc = parse_start(argc, argv, &o);
	if (rc < 0) {
		rc = EXIT_OK;
		goto out;
	}
	if (rc)
		goto out;
	if (!find_in_path("tcpdump", o.tcpdump, sizeof(o.tcpdump))) {
		fprintf(stderr,
			"Error: tcpdump not found in PATH: smc dump start runs it to capture (Debian: apt-get install tcpdump)\n");
		rc = EXIT_FAIL;
		goto out;
	}
	if (o.background)
		rc = start_background(&o);
	else
		rc = run_capture(&o, -1);
out:
	words_free(&o.pw);
	free(o.file);
	return rc;
}

/* ---- smc dump stop ---- */

static int pidfd_open_(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = EOPNOTSUPP;
	return -1;
#endif
}

/* Wait up to @ms for process @pid (started at @start) to end; true when
 * it did
 */
static bool wait_proc(pid_t pid, unsigned long long start, int ms)
{
	long long end = now_ms() + ms;
	int fd = pidfd_open_(pid);

	while (proc_alive(pid, start)) {
		long long left = end - now_ms();

		if (left <= 0)
			break;
		if (fd >= 0) {
			struct pollfd p = { .fd = fd, .events = POLLIN };

			poll(&p, 1, left > 100 ? 100 : (int)left);
		} else {
			usleep(20000);
		}
	}
	if (fd >= 0)
		close(fd);
	return !proc_alive(pid, start);
}

/* Wait up to @ms for the owner to end; true when it did */
static bool wait_owner(const struct owner *ow, int ms)
{
	return wait_proc(ow->pid, ow->start, ms);
}

static void print_log(const char *path)
{
	char buf[4096];
	size_t n;
	FILE *f;

	f = fopen(path, "re");
	if (!f)
		return;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, stdout);
	fclose(f);
	unlink(path);
}

/* End one capture: 0 or EXIT_FAIL. @signalled: SIGTERM was sent to it
 * already (stop all), so that it may have ended by now.
 */
static int stop_one(struct rtnl *rt, const struct rtnl_link *l,
		    const struct owner *ow, bool signalled)
{
	int err, rc = EXIT_OK;

	if (signalled || owner_alive(ow)) {
		if (!signalled && kill(ow->pid, SIGTERM)) {
			fprintf(stderr,
				"Error: %s: cannot signal the capture (pid %d): %s\n",
				l->name, (int)ow->pid, strerror(errno));
			return EXIT_FAIL;
		}
		if (!wait_owner(ow, STOP_TIMEOUT_MS)) {
			fprintf(stderr,
				"Error: %s: the capture (pid %d) did not end %d s after SIGTERM; killed\n",
				l->name, (int)ow->pid, STOP_TIMEOUT_MS / 1000);
			kill(ow->pid, SIGKILL);
			wait_owner(ow, 2000);
			rc = EXIT_FAIL;
		}
		if (ow->log[0]) {
			fflush(stdout);
			print_log(ow->log);
		} else {
			printf("smc dump: %s: capture (pid %d) ended\n",
			       l->name, (int)ow->pid);
		}
	} else {
		printf("smc dump: %s: its capture (pid %d) is gone; deleting the link\n",
		       l->name, (int)ow->pid);
		if (orphan_tcpdump(ow)) {
			/* SIGTERM: it flushes its file */
			printf("smc dump: %s: ending its tcpdump (pid %d)\n",
			       l->name, (int)ow->tpid);
			if (kill(ow->tpid, SIGTERM) ||
			    !wait_proc(ow->tpid, ow->tstart, STOP_TIMEOUT_MS)) {
				fprintf(stderr,
					"Error: %s: tcpdump (pid %d) did not end: %s\n",
					l->name, (int)ow->tpid, strerror(errno));
				rc = EXIT_FAIL;
			}
		}
		if (ow->log[0])
			print_log(ow->log);
	}
	/* the supervisor deletes its link; one that died could not */
	err = rtnl_link_del(rt, l->name);
	if (err && err != -ENODEV) {
		fprintf(stderr, "Error: cannot delete the link %s: %s\n",
			l->name, strerror(-err));
		rc = EXIT_FAIL;
	}
	return rc;
}

static void stop_usage(FILE *f)
{
	fprintf(f, "Usage: smc dump stop [ dev NAME | all ]\n");
}

/**
 * dump_stop() - smc dump stop (see dump_capture.h)
 * @argc: number of arguments in @argv
 * @argv: the arguments after "stop"
 *
 * Without arguments, stops the one capture of the netns. Prints each
 * capture's summary (background: its log) on stdout.
 *
 * Return: 0 all stopped (also: "all" with none running), 1 failure or
 * nothing to stop, 2 usage error.
 */
int dump_stop(int argc, char **argv)
{
	const char *dev = NULL;
	bool all = false;
	struct rtnl_link *links = NULL;
	struct owner *owners = NULL;
	struct rtnl rt;
	int n, i, rc = EXIT_OK, found = 0, last = -1;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "help") || !strcmp(argv[i], "-h") ||
		    !strcmp(argv[i], "--help")) {
			stop_usage(stdout);
			return EXIT_OK;
		} else if (matches(argv[i], "dev") && i + 1 < argc && !dev) {
			dev = argv[++i];
		} else if (!strcmp(argv[i], "all")) {
			all = true;
		} else {
			fprintf(stderr,
				"Error: unknown or misplaced argument \"%s\".\n",
				argv[i]);
			stop_usage(stderr);
			return EXIT_USAGE;
		}
	}
	if (dev && all) {
		fprintf(stderr, "Error: dev NAME and all exclude each other.\n");
		return EXIT_USAGE;
	}
	n = list_links(&rt, &links, &owners);
	if (n < 0)
		return EXIT_FAIL;
	for (i = 0; i < n; i++) {
		if (!owners[i].valid)
			continue;
		if (dev && strcmp(dev, links[i].name))
			continue;
		found++;
		last = i;
	}
	if (dev && !found) {
		for (i = 0; i < n && strcmp(links[i].name, dev); i++)
			;
		if (i < n)
			fprintf(stderr,
				"Error: %s is an smc-dummy link but no capture of smc dump start; delete it with \"ip link del %s\"\n",
				dev, dev);
		else
			fprintf(stderr,
				"Error: no capture on %s in this network namespace\n",
				dev);
		rc = EXIT_FAIL;
	} else if (!dev && !all && found == 0) {
		fprintf(stderr,
			"Error: no capture is running in this network namespace\n");
		rc = EXIT_FAIL;
	} else if (!dev && !all && found > 1) {
		fprintf(stderr,
			"Error: %d captures run in this network namespace:", found);
		for (i = 0; i < n; i++)
			if (owners[i].valid)
				fprintf(stderr, " %s", links[i].name);
		fprintf(stderr, "; say which with \"dev NAME\", or \"all\"\n");
		rc = EXIT_FAIL;
	} else if (found == 1) {
		rc = stop_one(&rt, &links[last], &owners[last], false);
	} else {
		bool *sent = calloc(n ? n : 1, sizeof(*sent));

		/* ask them all first, so that they end together */
		for (i = 0; i < n && sent; i++)
			if (owners[i].valid && owner_alive(&owners[i]))
				sent[i] = !kill(owners[i].pid, SIGTERM);
		for (i = 0; i < n; i++)
			if (owners[i].valid &&
			    stop_one(&rt, &links[i], &owners[i],
				     sent && sent[i]))
				rc = EXIT_FAIL;
		free(sent);
	}
	free(links);
	free(owners);
	rtnl_close(&rt);
	return rc;
}

/* ---- smc dump show ---- */

static void show_link(const struct rtnl_link *l, const struct owner *ow)
{
	open_json_object(NULL);
	print_string(PRINT_ANY, "ifname", "%s:", l->name);
	print_int(PRINT_JSON, "ifindex", NULL, l->ifindex);
	print_bool(PRINT_JSON, "up", NULL, l->up);
	print_string(PRINT_FP, NULL, " %s", l->up ? "up" : "down");
	if (l->mode >= 0 && l->mode < (int)N_LINK_MODES)
		print_string(PRINT_ANY, "mode", " mode %s",
			     link_mode_names[l->mode]);
	if (l->capture >= 0 && l->capture < (int)N_TYPES)
		print_string(PRINT_ANY, "type", " type %s",
			     type_names[l->capture]);
	print_uint(PRINT_ANY, "snaplen", " snaplen %u", l->snaplen);
	if (l->has_stats) {
		print_u64(PRINT_ANY, "tx_packets", " records %" PRIu64,
			  l->tx_packets);
		print_u64(PRINT_ANY, "tx_bytes", " bytes %" PRIu64,
			  l->tx_bytes);
		print_u64(PRINT_ANY, "tx_dropped", " lost %" PRIu64,
			  l->tx_dropped);
	}
	print_nl();
	if (!ow->valid) {
		print_null(PRINT_ANY, "capture", "    capture %s", "none");
		print_nl();
		close_json_object();
		return;
	}
	open_json_object("capture");
	print_int(PRINT_ANY, "pid", "    capture pid %d", ow->pid);
	print_bool(PRINT_JSON, "running", NULL, owner_alive(ow));
	print_string(PRINT_FP, NULL, " %s",
		     owner_alive(ow) ? "running" : "gone");
	if (ow->mode >= 0)
		print_string(PRINT_ANY, "mode", " mode %s",
			     mode_names[ow->mode]);
	if (ow->type >= 0)
		print_string(PRINT_ANY, "type", " type %s",
			     type_names[ow->type]);
	print_uint(PRINT_ANY, "snaplen", " snaplen %u", ow->snaplen);
	if (ow->file[0]) {
		print_string(PRINT_ANY, "file", " file %s", ow->file);
	} else {
		print_null(PRINT_JSON, "file", NULL, NULL);
		print_string(PRINT_FP, NULL, " %s", "decoded live");
	}
	if (ow->filter[0])
		print_string(PRINT_ANY, "filter", " filter \"%s\"",
			     ow->filter);
	if (ow->log[0])
		print_string(PRINT_ANY, "log", " log %s", ow->log);
	if (ow->tpid)
		print_int(PRINT_JSON, "tcpdump_pid", NULL, ow->tpid);
	if (orphan_tcpdump(ow))
		print_int(PRINT_FP, NULL, " (its tcpdump, pid %d, runs on)",
			  ow->tpid);
	close_json_object();
	print_nl();
	close_json_object();
}

/**
 * dump_show() - smc dump show (see dump_capture.h)
 * @argc: number of arguments in @argv
 * @argv: the arguments after "show"
 *
 * Return: 0, 1 when the links cannot be read or dev NAME is no
 * smc-dummy link, 2 usage error.
 */
int dump_show(int argc, char **argv)
{
	struct rtnl_link *links = NULL;
	struct owner *owners = NULL;
	const char *dev = NULL;
	int n, i, shown = 0, j = json, p = pretty;
	struct rtnl rt;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-j") || !strcmp(argv[i], "--json")) {
			j = 1;
			continue;
		}
		if (!strcmp(argv[i], "-p") || !strcmp(argv[i], "--pretty")) {
			p = 1;
			continue;
		}
		if (matches(argv[i], "dev") && i + 1 < argc && !dev) {
			dev = argv[++i];
			continue;
		}
		if (!strcmp(argv[i], "help") || !strcmp(argv[i], "-h")) {
			printf("Usage: smc [ -j [ -p ] ] dump show [ -j ] [ dev NAME ]\n");
			return EXIT_OK;
		}
		fprintf(stderr, "Error: unknown or misplaced argument \"%s\".\n",
			argv[i]);
		return EXIT_USAGE;
	}
	n = list_links(&rt, &links, &owners);
	if (n < 0)
		return EXIT_FAIL;
	new_json_obj(j, p);
	for (i = 0; i < n; i++) {
		if (dev && strcmp(dev, links[i].name))
			continue;
		show_link(&links[i], &owners[i]);
		shown++;
	}
	delete_json_obj();
	free(links);
	free(owners);
	rtnl_close(&rt);
	if (dev && !shown) {
		fprintf(stderr, "Error: no smc-dummy link %s in this network namespace\n",
			dev);
		return EXIT_FAIL;
	}
	return EXIT_OK;
}
