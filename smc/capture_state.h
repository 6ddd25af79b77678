/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capture_state.h - the state a capture of `smc dump start` keeps on its
 * smc-dummy link, in the link's alias (IFLA_IFALIAS), so that `smc dump
 * stop` and `smc dump show`, run later from any shell of the same network
 * namespace, find the capture (capture_state.c). The format is described
 * in Documentation/capture.md:
 *
 *   smc-dump pid=N start=T mode=M type=T snaplen=N [backend=bpf]
 *            [tpid=N tstart=T] [log=PATH] [file=PATH] [filter=EXPR]
 *
 * values with blanks, '%' and control bytes written as %XX.
 */
#ifndef SMC_CAPTURE_STATE_H
#define SMC_CAPTURE_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "rtnl.h"

/* The first word of the alias of a link that smc dump start made */
#define CAPTURE_ALIAS_TAG	"smc-dump"

/* A capture ends within this after SIGTERM, else it is killed */
#define STOP_TIMEOUT_MS		20000

/* What `mode` of smc dump start selects: the link's mode, and whether
 * tcpdump takes "any" (CAP_ALL)
 */
enum cap_mode { CAP_ALL, CAP_SMC, CAP_SMCR, CAP_SMCD, CAP_MODE_N };

/* Names of enum cap_mode, of enum smc_dummy_capture (the link's and
 * smc dump start's `type`) and of enum smc_dummy_mode (the link's mode)
 */
extern const char *const cap_mode_names[CAP_MODE_N];
extern const char *const cap_type_names[];
extern const size_t cap_type_count;
extern const char *const link_mode_names[];
extern const size_t link_mode_count;

/* Index of @s in @names (@n entries), -1 when absent */
int cap_name_index(const char *const *names, int n, const char *s);

/**
 * struct capture_state - what the alias of a capture's link says
 * @valid: the alias is one of ours
 * @pid: the supervising smc process
 * @start: its start time (field 22 of /proc/PID/stat)
 * @mode: mode of the capture (enum cap_mode), -1 unknown
 * @type: enum smc_dummy_capture, -1 unknown
 * @snaplen: the link's snaplen
 * @bpf: the bpf backend records (the link is a dummy link)
 * @tpid: the capture's tcpdump, 0 unknown
 * @tstart: its start time
 * @log: log file of a background capture, "" for none
 * @file: the capture file, "" when the records are decoded live
 * @filter: tcpdump's filter expression, "" for none
 */
struct capture_state {
	bool valid;
	pid_t pid;
	unsigned long long start;
	int mode;
	int type;
	unsigned int snaplen;
	bool bpf;
	pid_t tpid;
	unsigned long long tstart;
	char log[RTNL_ALIAS_SIZE];
	char file[RTNL_ALIAS_SIZE];
	char filter[RTNL_ALIAS_SIZE];
};

/* What capture_state_format() had to leave out */
#define CAPTURE_STATE_NO_LOG	0x01
#define CAPTURE_STATE_NO_FILE	0x02
#define CAPTURE_STATE_NO_FILTER	0x04

/*
 * capture_state_format() - write @st as an alias into @alias (@size
 * bytes): pid, start, mode, type and snaplen always; tpid and tstart when
 * @st->tpid; log, file and filter when not empty and when they fit
 *
 * Return: 0, or the CAPTURE_STATE_NO_* bits of what did not fit.
 */
int capture_state_format(char *alias, size_t size,
			 const struct capture_state *st);

/* capture_state_parse() - read @alias into @st; @st->valid tells whether
 * it is the alias of a capture
 */
void capture_state_parse(const char *alias, struct capture_state *st);

/* The capture's supervisor still runs (and is the process recorded) */
bool capture_alive(const struct capture_state *st);

/* The capture's tcpdump runs although its supervisor is gone: it changed
 * its user ID, which cancels the signal that its parent's end sends
 */
bool capture_orphan_tcpdump(const struct capture_state *st);

/*
 * capture_list() - open @rt and read every smc-dummy link of the netns
 * with the state in its alias; prints its errors
 * @links: set to a malloc()ed array
 * @states: set to a malloc()ed array, one per link
 *
 * Return: the number of links (the caller frees both arrays and closes
 * @rt), or a negative errno (nothing to free or close).
 */
int capture_list(struct rtnl *rt, struct rtnl_link **links,
		 struct capture_state **states);

#endif /* SMC_CAPTURE_STATE_H */
