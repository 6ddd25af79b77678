// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_common.c - the checks and settings the bpf backend of smc dump
 * (capture_bpf.c) and the bpf path of smc run (run_bpf.c) share
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/syscall.h>

#include "bpf_common.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON	38
#endif
#ifndef CAP_BPF
#define CAP_BPF		39
#endif

#define BTF_DIR		"/sys/kernel/btf"

bool bpf_have_cap(int cap)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3,
	};
	struct __user_cap_data_struct d[2] = {};

	if (syscall(SYS_capget, &h, d))
		return false;
	return d[cap / 32].effective & (1U << (cap % 32));
}

bool bpf_privileged(void)
{
	return bpf_have_cap(CAP_SYS_ADMIN) ||
	       (bpf_have_cap(CAP_BPF) && bpf_have_cap(CAP_PERFMON));
}

bool bpf_btf_is_fake(void)
{
	const char *dir = getenv("SMC_DUMP_BTF_DIR");

	return dir && *dir;
}

const char *bpf_btf_dir(void)
{
	return bpf_btf_is_fake() ? getenv("SMC_DUMP_BTF_DIR") : BTF_DIR;
}

int bpf_quiet_print(enum libbpf_print_level level, const char *fmt,
		    va_list ap)
{
	if (getenv("SMC_DUMP_BPF_DEBUG"))
		return vfprintf(stderr, fmt, ap);
	(void)level;
	return 0;
}
