/* SPDX-License-Identifier: GPL-2.0 */
/*
 * run_bpf.h - the bpf path of smc run (run_bpf.c): BPF programs that make
 * the TCP sockets of smc run's command SMC sockets in the kernel
 */
#ifndef SMC_RUN_BPF_H
#define SMC_RUN_BPF_H

#include <stddef.h>
#include <stdint.h>

struct run_bpf;

/*
 * run_bpf_open() - check what the path needs, load the programs and
 * attach them; from then on the next child smc run forks is tracked
 *
 * Return: 0 with *@out set, or -1 with @why (of @size bytes) saying in
 * one line what is missing; nothing is left loaded then.
 */
int run_bpf_open(struct run_bpf **out, char *why, size_t size);

/* The sockets made SMC, and the children not tracked (the map full) */
void run_bpf_counts(const struct run_bpf *rb, uint64_t *made,
		    uint64_t *untracked);

/* Detach and unload (closing smc run's descriptors does the same) */
void run_bpf_close(struct run_bpf *rb);

#endif
