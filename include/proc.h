/* SPDX-License-Identifier: GPL-2.0 */
/*
 * proc.h - is a recorded process still the same process (lib/proc.c)?
 * A pid is named together with its start time (field 22 of
 * /proc/PID/stat, clock ticks since boot), so that a pid reused by
 * another process is not taken for it.
 */
#ifndef SMC_PROC_H
#define SMC_PROC_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * proc_start() - start time of process @pid and whether it is a zombie
 *
 * Return: 0, or -1 when there is no such process or its stat file
 * cannot be parsed.
 */
int proc_start(pid_t pid, unsigned long long *start, bool *zombie);

/* proc_alive() - @pid runs, is no zombie and started at @start */
bool proc_alive(pid_t pid, unsigned long long start);

/*
 * proc_wait() - wait up to @ms for process @pid (started at @start) to
 * end, with a pidfd where the kernel has one
 *
 * Return: true when it ended.
 */
bool proc_wait(pid_t pid, unsigned long long start, int ms);

#endif /* SMC_PROC_H */
