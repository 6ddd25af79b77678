// SPDX-License-Identifier: GPL-2.0
/*
 * smc-proto-fake.c - a kernel with SMC, as far as socket() goes, for the
 * host tests of smc run (testsuite/host/smc-run.bats): the host kernel has
 * none. Preloaded after libsmc-preload.so (LD_PRELOAD=PRELOAD:FAKE), so
 * that the library's dlsym(RTLD_NEXT, "socket") lands here. SMC_FAKE
 * says which kernel to play:
 *
 *   ipproto  socket(INET, TYPE, IPPROTO_SMC) gives a TCP socket of
 *            INET; AF_SMC fails with EAFNOSUPPORT (Linux 6.11 and later)
 *   afsmc    socket(INET, TYPE, IPPROTO_SMC) fails with EINVAL, as
 *            kernels before 6.11 do; socket(AF_SMC, TYPE, SMCPROTO_SMC or
 *            _SMC6) gives a TCP socket of AF_INET or AF_INET6
 *   (unset)  every call as it is
 *
 * SMC_FAKE_V6_ERR=ERRNO makes every SMC call for IPv6 (IPPROTO_SMC of
 * AF_INET6, SMCPROTO_SMC6 of AF_SMC) fail with ERRNO: a kernel without
 * IPv6 (EAFNOSUPPORT) or without SMCPROTO_SMC6 (EPROTONOSUPPORT, before
 * Linux 4.18).
 *
 * Each call it turns into a TCP socket or fails is a line in
 * SMC_FAKE_LOG: "smc DOMAIN TYPE PROTOCOL fd N" or "... errno E".
 * TYPE keeps its SOCK_NONBLOCK and SOCK_CLOEXEC flags. Only for tests.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <unistd.h>

#include "smc_af.h"

static void log_call(int domain, int type, int protocol, int fd, int err)
{
	const char *path = getenv("SMC_FAKE_LOG");
	char line[128];
	int n, lfd;

	if (!path)
		return;
	if (fd >= 0)
		n = snprintf(line, sizeof(line), "smc %d %d %d fd %d\n",
			     domain, type, protocol, fd);
	else
		n = snprintf(line, sizeof(line), "smc %d %d %d errno %d\n",
			     domain, type, protocol, err);
	lfd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (lfd < 0)
		return;
	if (write(lfd, line, n) < 0)
		n = 0;
	close(lfd);
}

int socket(int domain, int type, int protocol)
{
	int (*next)(int, int, int) =
		(int (*)(int, int, int))dlsym(RTLD_NEXT, "socket");
	const char *mode = getenv("SMC_FAKE");
	const char *v6err = getenv("SMC_FAKE_V6_ERR");
	int fd;

	if (!mode)
		return next(domain, type, protocol);
	if (v6err && ((domain == AF_INET6 && protocol == IPPROTO_SMC) ||
		      (domain == AF_SMC && protocol == SMCPROTO_SMC6))) {
		log_call(domain, type, protocol, -1, atoi(v6err));
		errno = atoi(v6err);
		return -1;
	}
	if ((domain == AF_INET || domain == AF_INET6) &&
	    protocol == IPPROTO_SMC) {
		if (!strcmp(mode, "ipproto")) {
			fd = next(domain, type, IPPROTO_TCP);
			log_call(domain, type, protocol, fd, errno);
			return fd;
		}
		log_call(domain, type, protocol, -1, EINVAL);
		errno = EINVAL;
		return -1;
	}
	if (domain == AF_SMC) {
		if (!strcmp(mode, "afsmc")) {
			fd = next(protocol == SMCPROTO_SMC6 ? AF_INET6 : AF_INET, type,
				  IPPROTO_TCP);
			log_call(domain, type, protocol, fd, errno);
			return fd;
		}
		log_call(domain, type, protocol, -1, EAFNOSUPPORT);
		errno = EAFNOSUPPORT;
		return -1;
	}
	return next(domain, type, protocol);
}
