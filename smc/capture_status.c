// SPDX-License-Identifier: GPL-2.0
/*
 * capture_status.c - the live line of a foreground `smc dump start`: on a
 * terminal, one line on standard error, redrawn in place (carriage
 * return, then erase to the end of the line) every STATUS_MS:
 *
 *   smc-dummyabcd: 0:12, 48213 records, 91.4 MiB, 4102 records/s, 7.6 MiB/s, lost 0
 *
 * elapsed time since tcpdump listened, the records and bytes the link
 * delivered to its taps, their rate over the last second and the records
 * the link could not build (tx_dropped): the counters of the link
 * (IFLA_STATS64), the same the summary at the end prints. The line is
 * shown only when standard error is a terminal that no record goes to:
 * decoded records on the same terminal would be torn by it. Other text
 * for standard error (tcpdump's warnings, the summary) clears it first.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>

#include "capture.h"
#include "utils.h"

#define ERASE_LINE	"\r\033[K"

void capture_status_start(struct capture_status *s,
			  const struct start_opts *o, struct rtnl *rt,
			  const char *name)
{
	bool records_on_stdout = !o->file || !strcmp(o->file, "-");

	s->wanted = !o->background && isatty(STDERR_FILENO) &&
		    !(records_on_stdout && isatty(STDOUT_FILENO));
	s->start = now_ms();
	s->next = s->start + STATUS_MS;
	s->nsamples = 0;
	if (s->wanted) {
		struct rtnl_link l;
		struct status_sample first = { .t = s->start };

		if (!rtnl_link_get(rt, name, &l) && l.has_stats) {
			first.records = l.tx_packets;
			first.bytes = l.tx_bytes;
		}
		s->samples[0] = first;
		s->nsamples = 1;
	}
}

/* No stop to check: once one is asked, the loop stops the line
 * (capture_status_stop()) before it asks when the next update is due
 */
int capture_status_due(const struct capture_status *s)
{
	long long left;

	if (!s->wanted)
		return -1;
	left = s->next - now_ms();
	if (left <= 0)
		return 0;
	return left > STATUS_MS ? STATUS_MS : (int)left;
}

/* @n bytes for people: B, KiB, MiB, GiB with one decimal */
static void fmt_bytes(char *buf, size_t size, double n)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	unsigned int u = 0;

	while (n >= 1024 && u + 1 < sizeof(unit) / sizeof(unit[0])) {
		n /= 1024;
		u++;
	}
	if (!u)
		snprintf(buf, size, "%.0f B", n);
	else
		snprintf(buf, size, "%.1f %s", n, unit[u]);
}

/* h:mm:ss, or m:ss below an hour */
static void fmt_elapsed(char *buf, size_t size, long long ms)
{
	long long s = ms / 1000;

	if (s >= 3600)
		snprintf(buf, size, "%lld:%02lld:%02lld", s / 3600,
			 s / 60 % 60, s % 60);
	else
		snprintf(buf, size, "%lld:%02lld", s / 60, s % 60);
}

void capture_status_update(struct capture_status *st, struct rtnl *rt,
			   const char *name)
{
	char line[256], el[32], bytes[32], rate[32];
	struct status_sample s, *old;
	struct winsize ws;
	struct rtnl_link l;
	bool stats;
	double dt;
	size_t len;
	int n;

	if (!st->wanted)
		return;
	s.t = now_ms();
	st->next = s.t + STATUS_MS;
	stats = !rtnl_link_get(rt, name, &l) && l.has_stats;
	s.records = stats ? l.tx_packets : 0;
	s.bytes = stats ? l.tx_bytes : 0;
	/* the oldest kept sample: up to STATUS_SAMPLES - 1 intervals back */
	if (st->nsamples < STATUS_SAMPLES) {
		old = &st->samples[0];
		st->samples[st->nsamples++] = s;
	} else {
		memmove(&st->samples[0], &st->samples[1],
			(STATUS_SAMPLES - 1) * sizeof(s));
		old = &st->samples[0];
		st->samples[STATUS_SAMPLES - 1] = s;
	}
	dt = (s.t - old->t) / 1000.0;
	fmt_elapsed(el, sizeof(el), s.t - st->start);
	if (!stats) {
		n = snprintf(line, sizeof(line),
			     "%s: %s, no counters from the link", name, el);
	} else {
		uint64_t dr = s.records >= old->records ?
			      s.records - old->records : 0;
		uint64_t db = s.bytes >= old->bytes ? s.bytes - old->bytes : 0;

		fmt_bytes(bytes, sizeof(bytes), (double)s.bytes);
		fmt_bytes(rate, sizeof(rate), dt > 0 ? db / dt : 0);
		n = snprintf(line, sizeof(line),
			     "%s: %s, %llu records, %s, %.0f records/s, %s/s, lost %llu",
			     name, el, (unsigned long long)s.records, bytes,
			     dt > 0 ? dr / dt : 0, rate,
			     (unsigned long long)l.tx_dropped);
	}
	if (n < 0)
		n = 0;
	len = (size_t)n >= sizeof(line) ? sizeof(line) - 1 : (size_t)n;
	/* a line that wraps could not be redrawn in place */
	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 1 &&
	    len > (size_t)ws.ws_col - 1)
		len = ws.ws_col - 1;
	fprintf(stderr, "\r%.*s\033[K", (int)len, line);
	fflush(stderr);
	st->shown = true;
}

void capture_status_clear(struct capture_status *s)
{
	if (!s->shown)
		return;
	fputs(ERASE_LINE, stderr);
	fflush(stderr);
	s->shown = false;
}

void capture_status_stop(struct capture_status *s)
{
	capture_status_clear(s);
	s->wanted = false;
}
