// SPDX-License-Identifier: GPL-2.0
/*
 * capture_tcpdump.c - the tcpdump of a capture: its command line, and
 * what it writes on stderr, read line by line by the supervisor
 * (capture.c): that it listens, the counters it reports on SIGUSR1 and
 * at its end, and anything else, which is passed on (see capture.h)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "smc.h"

int tcpdump_argv(struct capture *c)
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
	ADD(o->mode == CAP_ALL ? "any" : c->backend.name);
	if (!o->param_write) {
		ADD("-w");
		ADD(o->file ? o->file : "-");
	}
	if (o->filter && *o->filter)
		ADD(o->filter);
#undef ADD
	return err;
}

void tcpdump_print_argv(FILE *f, const struct words *w)
{
	int i;

	fputs("smc dump: running", f);
	for (i = 0; i < w->n; i++) {
		fputc(' ', f);
		print_quoted(f, w->v[i]);
	}
	fputc('\n', f);
}

void tcpdump_keep_early(struct capture *c, const char *line)
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
	if (!c->ready) {
		tcpdump_keep_early(c, line);
	} else {
		capture_status_clear(&c->status);
		fprintf(stderr, "%s\n", line);
	}
}

void tcpdump_read_err(struct capture *c)
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
