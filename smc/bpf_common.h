/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bpf_common.h - what the two users of BPF in smc share: the bpf backend
 * of smc dump start (capture_bpf.c) and the bpf path of smc run
 * (run_bpf.c). Each prints its own errors; these only answer.
 */
#ifndef SMC_BPF_COMMON_H
#define SMC_BPF_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <bpf/libbpf.h>

/* The effective capability @cap (CAP_BPF ...) is set */
bool bpf_have_cap(int cap);

/* Loading and attaching tracing programs is allowed: CAP_SYS_ADMIN, or
 * CAP_BPF and CAP_PERFMON
 */
bool bpf_privileged(void);

/* The directory of the kernel's BTF: /sys/kernel/btf, or SMC_DUMP_BTF_DIR
 * (tests); bpf_btf_is_fake() says whether the variable is set
 */
const char *bpf_btf_dir(void);
bool bpf_btf_is_fake(void);

/* libbpf's print callback: silent unless SMC_DUMP_BPF_DEBUG is set (our
 * own error says what failed in one line)
 */
int bpf_quiet_print(enum libbpf_print_level level, const char *fmt,
		    va_list ap);

#endif
