// SPDX-License-Identifier: GPL-2.0
/*
 * run_bpf.c - the bpf path of smc run: loads run_bpf.bpf.c (a libbpf
 * skeleton, embedded like the capture backend's) and attaches it. The
 * links are descriptors of the smc run process, not pinned: when it
 * ends, however it ends (SIGKILL too), the kernel detaches and frees
 * the programs and the map, so nothing is left behind.
 *
 * What the path needs, checked in this order so that the line a user
 * gets names what would help first:
 *   1. the kernel makes IPPROTO_SMC sockets (Linux 6.11 and later, the
 *      smc module), tried with one socket; else no SMC socket would come
 *      of the programs' answer and the command's socket() would fail;
 *   2. vmlinux BTF with the function update_socket_protocol (Linux 6.6
 *      and later, CONFIG_DEBUG_INFO_BTF=y): fmod_ret needs both;
 *   3. CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN;
 *   4. the kernel accepts the programs and the attachments.
 * SMC_DUMP_BTF_DIR replaces /sys/kernel/btf (tests, as for smc dump's bpf
 * backend); SMC_RUN_NO_SMC_CHECK=1 skips step 1, so that the host tests
 * can see on a kernel without SMC that the programs act (socket() then
 * fails with EPROTONOSUPPORT) and whom they leave alone.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpf_common.h"
#include "run_bpf.h"
#include "run_bpf.skel.h"
#include "utils.h"

#include "smc_af.h"

#define HOOK "update_socket_protocol"

struct run_bpf {
	struct run_bpf_skel *skel;
};

/* Step 1: a socket of IPPROTO_SMC (loads the smc module when needed) */
static int check_smc(char *why, size_t size)
{
	const char *v = getenv("SMC_RUN_NO_SMC_CHECK");
	int s, err;

	if (v && !strcmp(v, "1"))
		return 0;
	s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, IPPROTO_SMC);
	if (s >= 0) {
		close(s);
		return 0;
	}
	err = errno;	/* smc_module_absent() reads files */
	snprintf(why, size,
		 "the kernel makes no IPPROTO_SMC socket (%s): %s",
		 strerror(err), smc_module_absent() ? smc_no_smc_advice() :
		 "that needs Linux 6.11 or later and the smc module");
	return -1;
}

/* Step 2: the function to attach to, in vmlinux's BTF */
static int check_btf(char *why, size_t size)
{
	char path[PATH_MAX];
	struct btf *vm;
	int id;

	snprintf(path, sizeof(path), "%s/vmlinux", bpf_btf_dir());
	if (access(path, R_OK)) {
		snprintf(why, size,
			 "the running kernel has no BTF (%s: %s), which attaching to " HOOK "() needs (CONFIG_DEBUG_INFO_BTF=y)",
			 path, strerror(errno));
		return -1;
	}
	vm = btf__parse(path, NULL);
	if (!vm) {
		char err[128];

		/* errno may be one of libbpf's own (LIBBPF_ERRNO__FORMAT) */
		libbpf_strerror(errno, err, sizeof(err));
		snprintf(why, size, "cannot read the BTF %s: %s", path, err);
		return -1;
	}
	id = btf__find_by_name_kind(vm, HOOK, BTF_KIND_FUNC);
	btf__free(vm);
	if (id < 0) {
		snprintf(why, size,
			 "the running kernel has no function " HOOK "() to attach to (Linux 6.6 and later; not in %s)",
			 path);
		return -1;
	}
	return 0;
}

int run_bpf_open(struct run_bpf **out, char *why, size_t size)
{
	struct run_bpf *rb;
	struct stat st;
	int err;

	*out = NULL;
	libbpf_set_print(bpf_quiet_print);
	if (check_smc(why, size) || check_btf(why, size))
		return -1;
	if (!bpf_privileged()) {
		snprintf(why, size,
			 "loading its BPF programs needs CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN): run as root");
		return -1;
	}
	if (stat("/proc/self/ns/pid", &st)) {
		snprintf(why, size, "cannot read /proc/self/ns/pid: %s",
			 strerror(errno));
		return -1;
	}
	rb = calloc(1, sizeof(*rb));
	if (!rb) {
		snprintf(why, size, "out of memory");
		return -1;
	}
	rb->skel = run_bpf_skel__open();
	if (!rb->skel) {
		snprintf(why, size, "cannot open the BPF object: %s",
			 strerror(errno));
		goto fail;
	}
	rb->skel->rodata->cfg_ns_dev = st.st_dev;
	rb->skel->rodata->cfg_ns_ino = st.st_ino;
	rb->skel->rodata->cfg_self = (uint32_t)getpid();
	err = run_bpf_skel__load(rb->skel);
	if (err) {
		snprintf(why, size,
			 "the kernel refused its BPF programs: %s%s",
			 strerror(-err), err == -EPERM ?
			 " (lockdown, or a security module? SMC_DUMP_BPF_DEBUG=1 shows libbpf's messages)" :
			 " (SMC_DUMP_BPF_DEBUG=1 shows the verifier's log)");
		goto fail;
	}
	err = run_bpf_skel__attach(rb->skel);
	if (err) {
		snprintf(why, size,
			 "cannot attach its BPF programs to " HOOK "() and the fork and exit tracepoints: %s",
			 strerror(-err));
		goto fail;
	}
	*out = rb;
	return 0;
fail:
	run_bpf_close(rb);
	return -1;
}

void run_bpf_counts(const struct run_bpf *rb, uint64_t *made,
		    uint64_t *untracked)
{
	*made = rb->skel->bss->made_smc;
	*untracked = rb->skel->bss->untracked;
}

void run_bpf_close(struct run_bpf *rb)
{
	if (!rb)
		return;
	run_bpf_skel__destroy(rb->skel);
	free(rb);
}
