// SPDX-License-Identifier: GPL-2.0
/*
 * proc.c - processes named by pid and start time (see proc.h)
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "proc.h"
#include "utils.h"

int proc_start(pid_t pid, unsigned long long *start, bool *zombie)
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd, i;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* the command name may hold blanks and parentheses: skip to the
	 * last ')', then field 3 (state) ... field 22 (starttime)
	 */
	p = strrchr(buf, ')');
	if (!p || p[1] != ' ')
		return -1;
	p += 2;
	*zombie = *p == 'Z' || *p == 'X';
	for (i = 3; i < 22 && p; i++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	if (!p)
		return -1;
	*start = strtoull(p, NULL, 10);
	return 0;
}

bool proc_alive(pid_t pid, unsigned long long start)
{
	unsigned long long st;
	bool zombie;

	if (pid <= 0 || proc_start(pid, &st, &zombie))
		return false;
	return !zombie && st == start;
}

static int pidfd_open_(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = EOPNOTSUPP;
	return -1;
#endif
}

bool proc_wait(pid_t pid, unsigned long long start, int ms)
{
	long long end = now_ms() + ms;
	int fd = pidfd_open_(pid);

	while (proc_alive(pid, start)) {
		long long left = end - now_ms();

		if (left <= 0)
			break;
		if (fd >= 0) {
			struct pollfd p = { .fd = fd, .events = POLLIN };

			poll(&p, 1, left > 100 ? 100 : (int)left);
		} else {
			usleep(20000);
		}
	}
	if (fd >= 0)
		close(fd);
	return !proc_alive(pid, start);
}
