/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capture_ctx.h - the context collector of a capture: which process, in
 * which network namespace and cgroup, owns each SMC connection
 * (capture_ctx.c). While a capture runs, it polls SMC's sock_diag every
 * CTX_POLL_MS, maps each socket it has not seen before to a process by
 * the socket:[INODE] links of /proc/PID/fd, and appends one JSON line per
 * connection to the sidecar file FILE.ctx (format: Documentation/capture.md,
 * "Connection context").
 */
#ifndef SMC_CAPTURE_CTX_H
#define SMC_CAPTURE_CTX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* the interval of the sock_diag polls, ms */
#define CTX_POLL_MS	200

struct ctx_pending;

/**
 * struct ctx_collector - the collector's state
 * @f: the sidecar, NULL when the collector does not run
 * @path: its name
 * @proc: the /proc root (SMC_DUMP_PROC_DIR, tests; else /proc)
 * @interval_ms: time between two polls
 * @next: when the next poll is due (now_ms())
 * @known: inodes already written, sorted
 * @nknown: entries of @known
 * @capknown: room in @known
 * @pending: sockets seen whose process is not found yet
 * @npending: entries of @pending
 * @failed: sock_diag failed once: the collector stopped (said so)
 * @lines: lines written
 */
struct ctx_collector {
	FILE *f;
	char *path;
	const char *proc;
	unsigned int interval_ms;
	long long next;
	unsigned long long *known;
	size_t nknown, capknown;
	struct ctx_pending *pending;
	size_t npending;
	bool failed;
	bool created;		/* the file did not exist before */
	bool claimed;		/* what the file held is gone */
	unsigned long long lines;
};

/*
 * ctx_open() - open or create the sidecar @path and poll once; what an
 * existing file holds is replaced only by the first line, or by a run
 * that ends without a failure (ctx_close()): a run that fails before
 * leaves it as it was (and one it created, removed)
 * @c: zeroed
 * @interval_ms: ms between polls (0: CTX_POLL_MS)
 *
 * Return: 0, or -1 after an error message (the file cannot be created).
 */
int ctx_open(struct ctx_collector *c, const char *path,
	     unsigned int interval_ms);

/* ctx_due() - ms until the next poll (0: now), -1 when not running */
int ctx_due(const struct ctx_collector *c);

/* ctx_poll() - poll sock_diag when due and write the new connections */
void ctx_poll(struct ctx_collector *c);

/*
 * ctx_close() - a last poll, the sockets whose process was never found
 * written without one, the file closed; nothing when not running
 */
void ctx_close(struct ctx_collector *c);

/*
 * dump_context() - smc dump context [ interval MS ] FILE: the collector
 * alone, until SIGINT or SIGTERM (for a capture made by other means)
 *
 * Return: exit status: 0, 1 failure, 2 usage.
 */
int dump_context(int argc, char **argv);

#endif /* SMC_CAPTURE_CTX_H */
