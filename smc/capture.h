/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capture.h - inside `smc dump start`: what capture.c (the supervisor),
 * capture_tcpdump.c (tcpdump's command line and what it says on stderr),
 * capture_status.c (the status line) and capture_live.c (the live
 * decoder) share. A running capture (struct capture, capture.c's) is made
 * of parts, each a struct of its own that one file keeps and whose
 * functions take that part: the backend, tcpdump and the status line.
 * The lifecycle of a capture is described in Documentation/capture.md.
 */
#ifndef SMC_CAPTURE_H
#define SMC_CAPTURE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "capture_ctx.h"
#include "capture_state.h"
#include "rtnl.h"
#include "words.h"

#define START_TIMEOUT_MS	30000	/* tcpdump listens within this */
#define DRAIN_MS		10000	/* longest wait for tcpdump to catch up */
/* tcpdump -B default of ours, and the nice value of a capture's
 * consumers (tcpdump, the bpf backend's forwarding, the live decoder):
 * chosen by make bench (Documentation/capture.md, "At full speed")
 */
#define TCPDUMP_BUFFER_KIB	"65536"
#define CAPTURE_NICE		(-19)
#define ERRTEXT_MAX		4096	/* tcpdump's early stderr kept */
#define STATUS_MS		250	/* the status line's update interval */
#define STATUS_SAMPLES		5	/* rate over the last 4 intervals: 1 s */

/* smc dump start backend: the smc-dummy link of the kernel series, or
 * BPF programs on an unmodified kernel (capture_bpf.c); auto: the kernel
 * link where the kind exists, else bpf
 */
enum cap_backend { BACKEND_AUTO, BACKEND_KERNEL, BACKEND_BPF };

struct bpf_cap;

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
 * @backend: enum cap_backend asked for
 * @ring: bpf backend: bytes of its ring buffer, 0 default
 * @nice: the nice value (-20 to 19) the capture runs at
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
	int backend;
	uint32_t ring;
	int nice;
};

/**
 * struct capture_backend - where the records come from: the capture's
 *	link and, with the bpf backend, the programs that send the records
 *	on it (capture.c)
 * @rt: rtnetlink socket
 * @name: the link
 * @have_link: we created @name and have not deleted it yet
 * @bpf: the bpf backend's state, NULL with the kernel backend
 * @bpf_stopped: the bpf programs are detached and their ring read
 */
struct capture_backend {
	struct rtnl rt;
	char name[IF_NAMESIZE];
	bool have_link;
	struct bpf_cap *bpf;
	bool bpf_stopped;
};

/**
 * struct capture_tcpdump - the tcpdump of a capture and what it said on
 *	stderr (capture_tcpdump.c); capture.c starts and reaps the process
 * @argv: tcpdump's arguments
 * @pid: tcpdump, 0 once reaped
 * @status: tcpdump's wait status
 * @errfd: read end of tcpdump's stderr, -1 at EOF
 * @line: the part of a stderr line read so far
 * @linelen: bytes in @line
 * @early: tcpdump's stderr before it listened
 * @earlylen: bytes in @early
 * @ready: tcpdump said "listening on"
 * @info_seen: counter reports (SIGUSR1) tcpdump made
 * @info_captured: "packets captured" of the last report
 * @info_received: "packets received by filter" of the last report
 * @info_dropped: "packets dropped by kernel" of the last report
 * @term_at: when tcpdump got SIGTERM (now_ms()), 0 not yet
 * @captured: tcpdump's "packets captured", -1 unknown
 * @kdropped: tcpdump's "packets dropped by kernel", -1 unknown
 */
struct capture_tcpdump {
	struct words argv;
	pid_t pid;
	int status;
	int errfd;
	char line[1024];
	size_t linelen;
	char early[ERRTEXT_MAX];
	size_t earlylen;
	bool ready;
	unsigned int info_seen;
	long long info_captured;
	long long info_received;
	long long info_dropped;
	long long term_at;
	long long captured;
	long long kdropped;
};

/**
 * struct status_sample - the link's counters at one update of the
 *	status line
 * @t: when (now_ms())
 * @records: records the link delivered
 * @bytes: their bytes
 */
struct status_sample {
	long long t;
	uint64_t records;
	uint64_t bytes;
};

/**
 * struct capture_status - the live status line of a foreground capture
 *	(capture_status.c)
 * @wanted: the line is to be shown (standard error a terminal that no
 *	record goes to)
 * @shown: a line stands on the terminal, not cleared yet
 * @start: when the capture started listening (now_ms())
 * @next: when the line is due next
 * @samples: the link's counters at the last updates, for the rate
 * @nsamples: samples taken so far
 */
struct capture_status {
	bool wanted;
	bool shown;
	long long start;
	long long next;
	struct status_sample samples[STATUS_SAMPLES];
	unsigned int nsamples;
};

/**
 * struct capture - a running capture, seen from its supervisor: its parts
 *	and the state of the event loop (capture.c)
 * @o: the options
 * @backend: the link and the bpf backend
 * @tcpdump: tcpdump's process and what it said
 * @status: the live status line
 * @dpid: the live decoder, 0 when none or reaped
 * @sfd: signalfd of SIGINT, SIGTERM, SIGHUP, SIGCHLD
 * @notify_fd: background: the pipe to the waiting parent, else -1
 * @stop: a signal asked us to end
 * @nstops: stop signals received
 * @no_drain: end tcpdump without drain() (nobody reads the decoder)
 * @watch_out: live decoding: watch standard output for a reader that
 *	went away
 * @logpath: background: the log file
 * @ctx: the context collector of the connections (FILE.ctx), running
 *	while the capture writes a file
 */
struct capture {
	struct start_opts *o;
	struct capture_backend backend;
	struct capture_tcpdump tcpdump;
	struct capture_status status;
	pid_t dpid;
	int sfd;
	int notify_fd;
	bool stop;
	unsigned int nstops;
	bool no_drain;
	bool watch_out;
	char logpath[PATH_MAX];
	struct ctx_collector ctx;
};

/* capture_tcpdump.c */

/* tcpdump_init() - a tcpdump not started yet, nothing said */
void tcpdump_init(struct capture_tcpdump *t);

/* tcpdump_free() - close @t's stderr and free its command line */
void tcpdump_free(struct capture_tcpdump *t);

/* tcpdump_argv() - build tcpdump's command line anew into t->argv, for
 * the options @o and the link @ifname; 0 or -ENOMEM
 */
int tcpdump_argv(struct capture_tcpdump *t, const struct start_opts *o,
		 const char *ifname);

/* tcpdump_print_argv() - "smc dump: running tcpdump ...", quoted for a
 * shell (-d)
 */
void tcpdump_print_argv(FILE *f, const struct capture_tcpdump *t);

/* tcpdump_keep_early() - keep @line to show if tcpdump fails to start */
void tcpdump_keep_early(struct capture_tcpdump *t, const char *line);

/* tcpdump_read_err() - read what tcpdump wrote on stderr: the line that
 * it listens, its counters (the answer to SIGUSR1 and the last words
 * at its end) are taken in, other lines passed on, after @status is
 * cleared; at EOF t->errfd is closed
 */
void tcpdump_read_err(struct capture_tcpdump *t,
		      struct capture_status *status);

/* tcpdump_reaped() - take the wait status @st of process @pid if it is
 * tcpdump; true if it was
 */
bool tcpdump_reaped(struct capture_tcpdump *t, pid_t pid, int st);

/* tcpdump_end() - SIGTERM to a running tcpdump, once */
void tcpdump_end(struct capture_tcpdump *t);

/* tcpdump_kill_stuck() - SIGKILL to a tcpdump that has not ended
 * STOP_TIMEOUT_MS after its SIGTERM
 */
void tcpdump_kill_stuck(struct capture_tcpdump *t);

/* capture_status.c: the one-line status of a foreground capture */

/* capture_status_start() - decide from @o whether the status line is
 * shown (standard error a terminal that no record goes to) and start its
 * clock with the counters of link @name (read through @rt)
 */
void capture_status_start(struct capture_status *s,
			  const struct start_opts *o, struct rtnl *rt,
			  const char *name);

/* capture_status_due() - ms until the next update, 0 now, -1 never */
int capture_status_due(const struct capture_status *s);

/* capture_status_update() - read the counters of link @name (through
 * @rt) and redraw the line
 */
void capture_status_update(struct capture_status *s, struct rtnl *rt,
			   const char *name);

/* capture_status_clear() - take the line off the terminal before other
 * text goes there (it is redrawn at the next update)
 */
void capture_status_clear(struct capture_status *s);

/* capture_status_stop() - clear the line for good */
void capture_status_stop(struct capture_status *s);

/* capture_live.c */

/*
 * capture_decode_live() - print tcpdump's pcap stream on @fd with the
 * decoder of `smc dump read`, each frame as it arrives, up to the end of
 * the stream. Runs in a child of the supervisor.
 *
 * Return: the exit status: 0, or 1 when a frame was malformed.
 */
int capture_decode_live(int fd);

#endif /* SMC_CAPTURE_H */
