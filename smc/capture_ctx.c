// SPDX-License-Identifier: GPL-2.0
/*
 * capture_ctx.c - the context collector (capture_ctx.h): the process,
 * network namespace and cgroup of each SMC connection a capture sees, in
 * the sidecar FILE.ctx. smc dump start runs it in its event loop (both
 * backends: it needs only sock_diag and /proc); `smc dump context` runs it
 * alone.
 *
 * Polling misses a connection that opens and closes between two polls
 * (shorter than CTX_POLL_MS); a socket whose process is gone, or not
 * visible to us, by the time it is seen is written without one.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "capture_ctx.h"
#include "smc.h"
#include "utils.h"

/* A socket not found in this many /proc scans is written without its
 * process
 */
#define CTX_SCANS	5

/* A socket seen whose process is not known yet */
struct ctx_pending {
	struct smc_conn_id id;
	double first_seen;	/* Unix time, seconds */
	bool present;		/* in the last poll's answer */
	unsigned int scans;	/* /proc scans that did not find it */
	/* what /proc told */
	bool found;
	int pid;
	char comm[64];
	unsigned long long netns;
	char cgroup[4096];
};

static const char *proc_root(void)
{
	const char *d = getenv("SMC_DUMP_PROC_DIR");

	return d && *d ? d : "/proc";
}

static double wall_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* @s as a JSON string of ASCII only: '"', '\\' and control bytes
 * escaped, and each byte from 0x80 up as \u0080 to \u00ff (a comm or a
 * cgroup path is bytes, not always UTF-8): the line stays valid JSON
 * and the reader (lib/smcdump/owner.c) gets the bytes back
 * (Documentation/capture.md, "Connection context")
 */
static void put_json_string(FILE *f, const char *s)
{
	const unsigned char *p;

	fputc('"', f);
	for (p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p >= 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void put_addr(FILE *f, const char *key, int family,
		     const unsigned char *a)
{
	char buf[INET6_ADDRSTRLEN];

	if (!family || !inet_ntop(family, a, buf, sizeof(buf)))
		fprintf(f, ",\"%s\":null", key);
	else
		fprintf(f, ",\"%s\":\"%s\"", key, buf);
}

/* What the file held before this run, cut (once) */
static void claim(struct ctx_collector *c)
{
	if (c->claimed)
		return;
	c->claimed = true;
	if (ftruncate(fileno(c->f), 0))
		fprintf(stderr, "Error: cannot truncate %s: %s\n", c->path,
			strerror(errno));
}

/* One line of the sidecar (Documentation/capture.md) */
static void write_line(struct ctx_collector *c, const struct ctx_pending *p)
{
	const struct smc_conn_id *id = &p->id;
	FILE *f = c->f;

	claim(c);

	if (id->token)
		fprintf(f, "{\"token\":\"0x%08x\"", id->token);
	else
		fputs("{\"token\":null", f);
	put_addr(f, "local_address", id->family, id->src);
	fprintf(f, ",\"local_port\":%u", id->sport);
	put_addr(f, "peer_address", id->family, id->dst);
	fprintf(f, ",\"peer_port\":%u,\"inode\":%llu", id->dport, id->inode);
	if (p->found) {
		fprintf(f, ",\"pid\":%d,\"comm\":", p->pid);
		put_json_string(f, p->comm);
		if (p->netns)
			fprintf(f, ",\"netns\":%llu,\"cgroup\":", p->netns);
		else
			fputs(",\"netns\":null,\"cgroup\":", f);
		if (p->cgroup[0])
			put_json_string(f, p->cgroup);
		else
			fputs("null", f);
	} else {
		fputs(",\"pid\":null,\"comm\":null,\"netns\":null,\"cgroup\":null",
		      f);
	}
	fprintf(f, ",\"first_seen\":%.3f}\n", p->first_seen);
	fflush(f);
	c->lines++;
}

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

static bool is_known(const struct ctx_collector *c, unsigned long long ino)
{
	return c->nknown &&
	       bsearch(&ino, c->known, c->nknown, sizeof(ino), cmp_ull);
}

static void add_known(struct ctx_collector *c, unsigned long long ino)
{
	unsigned long long *p;
	size_t i;

	if (c->nknown == c->capknown) {
		size_t cap = c->capknown ? 2 * c->capknown : 64;

		p = realloc(c->known, cap * sizeof(*p));
		if (!p)
			return;	/* seen again later: written again */
		c->known = p;
		c->capknown = cap;
	}
	for (i = c->nknown; i > 0 && c->known[i - 1] > ino; i--)
		c->known[i] = c->known[i - 1];
	c->known[i] = ino;
	c->nknown++;
}

/* Read the first line of @path into @buf, its newline cut; false if none */
static bool read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fgets(buf, size, f) != NULL;
	fclose(f);
	if (ok)
		buf[strcspn(buf, "\n")] = '\0';
	return ok;
}

/* The number in "PREFIX[N]" at the link @path, 0 when none */
static unsigned long long link_number(const char *path, const char *prefix)
{
	char buf[64], *end;
	size_t n = strlen(prefix);
	unsigned long long v;
	ssize_t len;

	len = readlink(path, buf, sizeof(buf) - 1);
	if (len <= 0)
		return 0;
	buf[len] = '\0';
	if (strncmp(buf, prefix, n) || buf[n] != '[')
		return 0;
	errno = 0;
	v = strtoull(buf + n + 1, &end, 10);
	if (errno || *end != ']' || end[1])
		return 0;
	return v;
}

/* The process @pid for @p: comm, netns, cgroup (v2: the "0::" line) */
static void take_process(const char *proc, int pid, struct ctx_pending *p)
{
	char path[PATH_MAX], line[4200];
	size_t n;
	FILE *f;

	p->found = true;
	p->pid = pid;
	snprintf(path, sizeof(path), "%s/%d/comm", proc, pid);
	if (!read_line(path, p->comm, sizeof(p->comm)))
		p->comm[0] = '\0';
	snprintf(path, sizeof(path), "%s/%d/ns/net", proc, pid);
	p->netns = link_number(path, "net:");
	p->cgroup[0] = '\0';
	snprintf(path, sizeof(path), "%s/%d/cgroup", proc, pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		n = strlen(line + 3);
		if (n >= sizeof(p->cgroup))
			n = sizeof(p->cgroup) - 1;
		memcpy(p->cgroup, line + 3, n);
		p->cgroup[n] = '\0';
		break;
	}
	fclose(f);
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* One pass over PROC/[0-9]*\/fd for the pending sockets still unowned:
 * the first process (lowest in readdir order) that holds one owns it
 */
static void scan_proc(struct ctx_collector *c)
{
	char path[PATH_MAX];
	struct dirent *de, *fe;
	size_t left = 0, i;
	DIR *d, *fd;

	for (i = 0; i < c->npending; i++)
		left += !c->pending[i].found;
	d = left ? opendir(c->proc) : NULL;
	if (!d)
		return;
	while (left && (de = readdir(d))) {
		int pid;

		if (!all_digits(de->d_name))
			continue;
		pid = atoi(de->d_name);
		snprintf(path, sizeof(path), "%s/%s/fd", c->proc, de->d_name);
		fd = opendir(path);
		if (!fd)
			continue;	/* gone, or not ours to see */
		while (left && (fe = readdir(fd))) {
			unsigned long long ino;

			if (!all_digits(fe->d_name))
				continue;
			snprintf(path, sizeof(path), "%s/%s/fd/%s", c->proc,
				 de->d_name, fe->d_name);
			ino = link_number(path, "socket:");
			if (!ino)
				continue;
			for (i = 0; i < c->npending; i++) {
				struct ctx_pending *p = &c->pending[i];

				if (p->found || p->id.inode != ino)
					continue;
				take_process(c->proc, pid, p);
				left--;
			}
		}
		closedir(fd);
	}
	closedir(d);
}

/* Write and forget pending entry @i when it is owned, or @force */
static bool settle(struct ctx_collector *c, size_t i, bool force)
{
	struct ctx_pending *p = &c->pending[i];
	const struct smc_conn_id *id = &p->id;
	/* what a reader can match records with: the token, or both ends
	 * (a socket closing may have lost them, one being set up may not
	 * have them yet: it waits, as for its owner)
	 */
	bool usable = id->token || (id->family && id->sport && id->dport);

	if ((!p->found || !usable) && !force)
		return false;
	if (usable)
		write_line(c, p);
	add_known(c, p->id.inode);
	/* the rest keep the order of the dump */
	memmove(p, p + 1, (--c->npending - i) * sizeof(*p));
	return true;
}

/* One poll: new sockets to pending, owners looked up, lines written */
static void poll_once(struct ctx_collector *c)
{
	struct smc_conn_id *ids;
	size_t n, i, j;
	double now;

	if (smc_socket_conns(&ids, &n, c->failed)) {
		if (!c->failed)
			fprintf(stderr,
				"smc dump: warning: no connection context from now on (%s stays as it is)\n",
				c->path);
		c->failed = true;
		return;
	}
	now = wall_now();
	for (i = 0; i < c->npending; i++)
		c->pending[i].present = false;
	for (i = 0; i < n; i++) {
		struct ctx_pending *p;

		if (!ids[i].inode || is_known(c, ids[i].inode))
			continue;
		for (j = 0; j < c->npending; j++)
			if (c->pending[j].id.inode == ids[i].inode)
				break;
		if (j == c->npending) {
			p = realloc(c->pending, (c->npending + 1) * sizeof(*p));
			if (!p)
				continue;
			c->pending = p;
			p = &c->pending[c->npending++];
			memset(p, 0, sizeof(*p));
			p->first_seen = now;
		}
		p = &c->pending[j];
		/* the token and addresses may come later than the inode */
		p->id = ids[i];
		p->present = true;
	}
	free(ids);
	scan_proc(c);
	/* owned; or closed, or not found in CTX_SCANS scans (a process we
	 * may not look into): written without a process
	 */
	for (i = 0; i < c->npending;)
		if (!settle(c, i, !c->pending[i].present ||
			    ++c->pending[i].scans >= CTX_SCANS))
			i++;
}

int ctx_open(struct ctx_collector *c, const char *path,
	     unsigned int interval_ms)
{
	struct stat st;
	int fd;

	c->path = strdup(path);
	if (!c->path) {
		fprintf(stderr, "Error: out of memory\n");
		return -1;
	}
	/* a regular file only: not through a symbolic link someone left in
	 * a shared directory (we may be root), not a FIFO that would block
	 * until a reader comes, not a device
	 */
	/* not truncated here: a run that fails before its first line
	 * leaves what an earlier one wrote (claim())
	 */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK |
		  O_CLOEXEC, 0644);
	c->created = fd >= 0;
	if (fd < 0 && errno == EEXIST)
		fd = open(path, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0 && (fstat(fd, &st) || !S_ISREG(st.st_mode))) {
		close(fd);
		fd = -1;
		errno = EINVAL;
	}
	if (fd >= 0 && fcntl(fd, F_SETFL, 0)) {
		close(fd);
		fd = -1;
	}
	c->f = fd >= 0 ? fdopen(fd, "w") : NULL;
	if (!c->f) {
		fprintf(stderr, "Error: cannot create %s: %s\n", path,
			errno == ELOOP || errno == EINVAL || errno == ENXIO ?
			"not a regular file" : strerror(errno));
		if (fd >= 0)
			close(fd);
		free(c->path);
		c->path = NULL;
		return -1;
	}
	c->proc = proc_root();
	c->interval_ms = interval_ms ? interval_ms : CTX_POLL_MS;
	poll_once(c);
	c->next = now_ms() + c->interval_ms;
	return 0;
}

int ctx_due(const struct ctx_collector *c)
{
	long long d;

	if (!c->f || c->failed)
		return -1;
	d = c->next - now_ms();
	return d < 0 ? 0 : d > INT32_MAX ? INT32_MAX : (int)d;
}

void ctx_poll(struct ctx_collector *c)
{
	if (ctx_due(c))
		return;
	poll_once(c);
	c->next = now_ms() + c->interval_ms;
}

void ctx_close(struct ctx_collector *c)
{
	if (!c->f)
		return;
	if (!c->failed)
		poll_once(c);
	while (c->npending)
		settle(c, c->npending - 1, true);
	/* a run without a failure: its lines, even none, are the file */
	if (!c->failed)
		claim(c);
	else if (!c->claimed && c->created)
		unlink(c->path);
	if (fclose(c->f))
		fprintf(stderr, "Error: cannot write %s: %s\n", c->path,
			strerror(errno));
	free(c->path);
	free(c->known);
	free(c->pending);
	/* zeroed, as ctx_open() wants it */
	memset(c, 0, sizeof(*c));
}

/* ---- smc dump context ---- */

static void context_usage(FILE *f)
{
	fprintf(f,
		"Usage: smc dump context [ interval MS ] FILE\n"
		"Writes the process, network namespace and cgroup of each SMC connection\n"
		"of this network namespace to FILE (JSON lines) until SIGINT or SIGTERM;\n"
		"smc dump start ... write CAP does the same into CAP.ctx. interval: ms\n"
		"between two polls of sock_diag, 1 to 60000 (default %d).\n",
		CTX_POLL_MS);
}

int dump_context(int argc, char **argv)
{
	struct ctx_collector c = { 0 };
	const char *file = NULL;
	uint32_t interval = 0;
	sigset_t mask, old;
	int i, sig;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "help") || !strcmp(argv[i], "-h")) {
			context_usage(stdout);
			return EXIT_OK;
		}
		if (!strcmp(argv[i], "interval")) {
			if (++i == argc) {
				fprintf(stderr,
					"Error: \"interval\" needs milliseconds.\n");
				return EXIT_USAGE;
			}
			if (interval)
				return duparg("interval", argv[i]);
			if (get_u32(&interval, argv[i], 10) || !interval ||
			    interval > 60000)
				return invarg("interval must be 1 to 60000 milliseconds",
					      argv[i]);
			continue;
		}
		if (file) {
			fprintf(stderr,
				"Error: unexpected argument \"%s\", try \"smc dump context help\".\n",
				argv[i]);
			return EXIT_USAGE;
		}
		file = argv[i];
	}
	if (!file || !*file) {
		fprintf(stderr,
			"Error: FILE expected, try \"smc dump context help\".\n");
		return EXIT_USAGE;
	}
	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigprocmask(SIG_BLOCK, &mask, &old);
	if (ctx_open(&c, file, interval)) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return EXIT_FAIL;
	}
	for (;;) {
		struct timespec ts;
		int due = ctx_due(&c);

		if (due < 0) {
			/* sock_diag failed: nothing more to collect */
			ctx_close(&c);
			sigprocmask(SIG_SETMASK, &old, NULL);
			return EXIT_FAIL;
		}
		ts.tv_sec = due / 1000;
		ts.tv_nsec = (due % 1000) * 1000000L;
		sig = sigtimedwait(&mask, NULL, &ts);
		if (sig == SIGINT || sig == SIGTERM)
			break;
		ctx_poll(&c);
	}
	ctx_close(&c);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return EXIT_OK;
}
