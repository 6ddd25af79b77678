// SPDX-License-Identifier: GPL-2.0
/*
 * run_bpf.bpf.c - the BPF programs of smc run's bpf path (run_bpf.c):
 * the TCP sockets that the command of one smc run and its descendants
 * create become SMC sockets, whatever made the system call (libc, a
 * static binary, Go's runtime, syscall(2)).
 *
 *   fmod_ret update_socket_protocol   net/socket.c, Linux 6.6 and later:
 *                      __sys_socket() asks it for the protocol of each
 *                      socket(2) before the socket is made; for a tracked
 *                      process, AF_INET or AF_INET6, SOCK_STREAM (with
 *                      SOCK_NONBLOCK and SOCK_CLOEXEC or not) and protocol
 *                      0 or IPPROTO_TCP, it answers IPPROTO_SMC (256,
 *                      Linux 6.11 and later), which the kernel then makes
 *                      as it would for socket(..., IPPROTO_SMC)
 *   tp_btf sched_process_fork         a child of a tracked process is
 *                      tracked, and so is the first child of smc run
 *                      itself: the command
 *   tp_btf sched_process_exit         the last thread of a tracked
 *                      process leaves the map
 *
 * Tracked processes are the keys of the hash map procs, by their tgid as
 * the kernel's init pid namespace numbers them (what
 * bpf_get_current_pid_tgid() and task->tgid are). smc run itself is not
 * in it: it knows its own pid only in its pid namespace (a container's),
 * so it is recognised by bpf_get_ns_current_pid_tgid() against that
 * namespace instead (cfg_ns_dev, cfg_ns_ino, cfg_self). The fork
 * tracepoint fires in kernel_clone() before the child first runs, so no
 * socket of a child can come before its entry.
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <stdbool.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/* BPF_PROG() names arguments some programs leave unused */
#pragma clang diagnostic ignored "-Wunused-parameter"

#define AF_INET		2
#define AF_INET6	10
#define SOCK_STREAM	1
#define SOCK_NONBLOCK	00004000
#define SOCK_CLOEXEC	02000000
#define IPPROTO_TCP	6
#define IPPROTO_SMC	256

/* the size of the map: processes of the command alive at once */
#define MAX_PROCS	65536

/* the kernel's types, the fields read (CO-RE, as in capture_bpf.bpf.c) */
struct signal_struct___x {
	struct {
		int counter;
	} live;			/* threads of the group not yet exiting */
} __attribute__((preserve_access_index));

struct task_struct___x {
	int tgid;
	struct signal_struct___x *signal;
} __attribute__((preserve_access_index));

/* set by run_bpf.c before the load */
const volatile __u64 cfg_ns_dev;	/* smc run's pid namespace */
const volatile __u64 cfg_ns_ino;
const volatile __u32 cfg_self;		/* smc run's pid in it */

/* counters for smc run -d */
__u64 made_smc;		/* sockets turned into IPPROTO_SMC */
__u64 untracked;	/* children not tracked: the map was full */

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, MAX_PROCS);
	__type(key, __u32);
	__type(value, __u8);
} procs SEC(".maps");

static bool is_smc_run(void)
{
	struct bpf_pidns_info ns = {};

	if (bpf_get_ns_current_pid_tgid(cfg_ns_dev, cfg_ns_ino, &ns,
					sizeof(ns)))
		return false;
	return ns.tgid == cfg_self;
}

SEC("fmod_ret/update_socket_protocol")
int BPF_PROG(smc_run_proto, int family, int type, int protocol, int ret)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;

	/* another program already chose (ret is its answer): keep it */
	if (ret)
		return ret;
	if (family != AF_INET && family != AF_INET6)
		return 0;
	if ((type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC)) != SOCK_STREAM)
		return 0;
	if (protocol != 0 && protocol != IPPROTO_TCP)
		return 0;
	if (!bpf_map_lookup_elem(&procs, &tgid))
		return 0;	/* 0: the kernel keeps @protocol */
	__sync_fetch_and_add(&made_smc, 1);
	return IPPROTO_SMC;
}

SEC("tp_btf/sched_process_fork")
int BPF_PROG(smc_run_fork, struct task_struct___x *parent,
	     struct task_struct___x *child)
{
	__u32 ptgid = parent->tgid, ctgid = child->tgid;
	__u8 one = 1;

	if (ptgid == ctgid)
		return 0;	/* a thread: its process is tracked or not */
	if (!bpf_map_lookup_elem(&procs, &ptgid) && !is_smc_run())
		return 0;
	if (bpf_map_update_elem(&procs, &ctgid, &one, BPF_ANY))
		__sync_fetch_and_add(&untracked, 1);
	return 0;
}

SEC("tp_btf/sched_process_exit")
int BPF_PROG(smc_run_exit, struct task_struct___x *p)
{
	__u32 tgid = p->tgid;

	/* do_exit() counts the thread out of signal->live before the
	 * tracepoint: 0 is the last thread of the process
	 */
	if (p->signal->live.counter)
		return 0;
	bpf_map_delete_elem(&procs, &tgid);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
