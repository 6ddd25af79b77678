// SPDX-License-Identifier: GPL-2.0
/*
 * capture_tcpdump.c - the tcpdump of a capture: its command line, and
 * what it writes on stderr, read line by line by the supervisor
 * (capture.c): that it listens, the counters it reports on SIGUSR1 and
 * at its end, and anything else, which is passed on (see capture.h)
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "capture.h"
#include "smc.h"
#include "utils.h"

void tcpdump_init(struct capture_tcpdump *t)
{
	*t = (struct capture_tcpdump){
		.errfd = -1, .captured = -1, .kdropped = -1,
	};
}

void tcpdump_free(struct capture_tcpdump *t)
{
	if (t->errfd >= 0)
		close(t->errfd);
	t->errfd = -1;
	words_free(&t->argv);
}

int tcpdump_argv(struct capture_tcpdump *t, const struct start_opts *o,
		 const char *ifname)
{
	struct words *w = &t->argv;
	int i, err = 0;

	words_free(w);

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
	ADD(o->mode == CAP_ALL ? "any" : ifname);
	if (!o->param_write) {
		ADD("-w");
		ADD(o->file ? o->file : "-");
	}
	if (o->filter && *o->filter)
		ADD(o->filter);
#undef ADD
	return err;
}

void tcpdump_print_argv(FILE *f, const struct capture_tcpdump *t)
{
	const struct words *w = &t->argv;
	int i;

	fputs("smc dump: running", f);
	for (i = 0; i < w->n; i++) {
		fputc(' ', f);
		print_quoted(f, w->v[i]);
	}
	fputc('\n', f);
}

void tcpdump_keep_early(struct capture_tcpdump *t, const char *line)
{
	size_t n = strlen(line);

	if (t->earlylen + n + 2 > sizeof(t->early))
		return;
	memcpy(t->early + t->earlylen, line, n);
	t->earlylen += n;
	t->early[t->earlylen++] = '\n';
	t->early[t->earlylen] = '\0';
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
static bool info_line(struct capture_tcpdump *t, const char *line)
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
	t->info_captured = cap;
	t->info_received = rcv;
	t->info_dropped = drop;
	t->info_seen++;
	return true;
}

/* One line tcpdump wrote on stderr; other text clears @status first */
static void on_line(struct capture_tcpdump *t, struct capture_status *status,
		    const char *line)
{
	long long n;

	if (!t->ready && !strncmp(line, "tcpdump: listening on ", 22)) {
		t->ready = true;
		if (t->earlylen)
			fputs(t->early, stderr);
		if (show_details)
			fprintf(stderr, "%s\n", line);
		return;
	}
	if (info_line(t, line))
		return;
	/* what tcpdump says it chose, e.g. for -i any */
	if (!strncmp(line, "tcpdump: data link type ", 24)) {
		if (show_details)
			fprintf(stderr, "%s\n", line);
		return;
	}
	if (count_line(line, "captured", &n)) {
		t->captured = n;
		return;
	}
	if (count_line(line, "dropped by kernel", &n)) {
		t->kdropped = n;
		return;
	}
	if (count_line(line, "received by filter", &n) ||
	    count_line(line, "dropped by interface", &n))
		return;
	if (!t->ready) {
		tcpdump_keep_early(t, line);
	} else {
		capture_status_clear(status);
		fprintf(stderr, "%s\n", line);
	}
}

void tcpdump_read_err(struct capture_tcpdump *t,
		      struct capture_status *status)
{
	char buf[2048];
	ssize_t n, i;

	n = read(t->errfd, buf, sizeof(buf));
	if (n < 0 && (errno == EINTR || errno == EAGAIN))
		return;
	if (n <= 0) {
		if (t->linelen) {
			t->line[t->linelen] = '\0';
			on_line(t, status, t->line);
			t->linelen = 0;
		}
		close(t->errfd);
		t->errfd = -1;
		return;
	}
	for (i = 0; i < n; i++) {
		if (buf[i] == '\n' || t->linelen == sizeof(t->line) - 1) {
			t->line[t->linelen] = '\0';
			on_line(t, status, t->line);
			t->linelen = 0;
			if (buf[i] == '\n')
				continue;
		}
		t->line[t->linelen++] = buf[i];
	}
}

bool tcpdump_reaped(struct capture_tcpdump *t, pid_t pid, int st)
{
	if (pid != t->pid)
		return false;
	t->pid = 0;
	t->status = st;
	return true;
}

void tcpdump_end(struct capture_tcpdump *t)
{
	if (t->pid && !t->term_at) {
		kill(t->pid, SIGTERM);
		t->term_at = now_ms();
	}
}

void tcpdump_kill_stuck(struct capture_tcpdump *t)
{
	long long now = now_ms();

	if (t->pid && t->term_at && now - t->term_at > STOP_TIMEOUT_MS) {
		fprintf(stderr,
			"smc dump: tcpdump did not end %d s after SIGTERM, killed\n",
			STOP_TIMEOUT_MS / 1000);
		kill(t->pid, SIGKILL);
		t->term_at = now;
	}
}
