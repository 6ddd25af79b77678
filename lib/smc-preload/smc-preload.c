// SPDX-License-Identifier: GPL-2.0
/*
 * smc-preload.c - libsmc-preload.so, the LD_PRELOAD library of "smc run":
 * the TCP sockets a program creates through libc's socket() become SMC
 * sockets, and the program keeps working where SMC is not available.
 *
 * socket(AF_INET or AF_INET6, SOCK_STREAM [| SOCK_NONBLOCK | SOCK_CLOEXEC],
 * 0 or IPPROTO_TCP) is tried, in this order, as
 *
 *   1. socket(DOMAIN, TYPE, IPPROTO_SMC): IPPROTO_SMC (256) is in the
 *      kernel's include/uapi/linux/in.h since Linux 6.11 (net/smc/
 *      smc_inet.c); older kernels answer EINVAL (256 was IPPROTO_MAX),
 *      newer ones without the smc module EPROTONOSUPPORT;
 *   2. socket(AF_SMC, TYPE, SMCPROTO_SMC or SMCPROTO_SMC6): AF_SMC (43)
 *      is in <bits/socket.h>, SMCPROTO_SMC (0, IPv4) and SMCPROTO_SMC6
 *      (1, IPv6) in the kernel's net/smc/smc.h (not exported to user
 *      space, so defined here); the kernel has no smc module: EAFNOSUPPORT;
 *   3. the call as the program made it, so that it gets a TCP socket.
 *
 * A step is given up for the rest of the process once the kernel says it
 * cannot do it (a family or protocol it does not know), so that only the
 * first TCP socket pays for the attempts (each may make the kernel run
 * modprobe). Any other error of steps 1 and 2 (EMFILE, EACCES of a
 * security module, ...) goes on to the next step for this socket only.
 * TYPE is passed as given: SOCK_NONBLOCK and SOCK_CLOEXEC are kept.
 *
 * On a new SMC socket (never on the TCP socket of step 3) the buffer sizes
 * of the environment are set: SMC_RCVBUF with SO_RCVBUF, SMC_SNDBUF with
 * SO_SNDBUF, each a number of bytes with an optional k or m (KiB, MiB).
 * SMC_DEBUG set and not "0" writes one line per decision to stderr,
 * "smc-preload: ...". These are the variables smc-tools' smc_run sets for
 * its libsmc-preload.so, so either run program works with either library.
 *
 * Threads: everything read from the environment and the next socket()
 * (dlsym(RTLD_NEXT)) are set up once under pthread_once() and only read
 * afterwards; what the kernel can do is two atomic flags.
 *
 * Programs that do not call libc's socket() (static binaries, Go programs
 * that make the system call themselves, syscall(SYS_socket)) are not
 * reached; "smc run" documents this.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <netinet/in.h>
#include <unistd.h>

#include "smc_af.h"

#define PREFIX "smc-preload: "

typedef int (*socket_fn)(int domain, int type, int protocol);

/* Set once by setup(), read-only afterwards */
static socket_fn next_socket;
static bool debug;
static int rcvbuf, sndbuf;	/* 0: not set */
static pthread_once_t setup_once = PTHREAD_ONCE_INIT;

/* The steps the kernel said it cannot do */
static atomic_bool no_ipproto_smc;
static atomic_bool no_af_smc;

static void dbg(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	if (!debug)
		return;
	memcpy(buf, PREFIX, sizeof(PREFIX) - 1);
	va_start(ap, fmt);
	n = vsnprintf(buf + sizeof(PREFIX) - 1, sizeof(buf) - sizeof(PREFIX),
		      fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	n += sizeof(PREFIX) - 1;
	if (n > (int)sizeof(buf) - 2)
		n = sizeof(buf) - 2;
	buf[n++] = '\n';
	/* one write per line: lines of threads do not mix */
	if (write(STDERR_FILENO, buf, n) < 0)
		return;
}

/*
 * env_size() - the size in variable @name: decimal bytes with an optional
 * k/K (KiB) or m/M (MiB), 1 to INT_MAX; 0 when unset or malformed (the
 * latter reported with SMC_DEBUG)
 */
static int env_size(const char *name)
{
	const char *val = getenv(name);
	unsigned long long v;
	char *end;

	if (!val || !*val)
		return 0;
	if (*val < '0' || *val > '9')
		goto bad;
	errno = 0;
	v = strtoull(val, &end, 10);
	if (errno)
		goto bad;
	if (*end == 'k' || *end == 'K') {
		if (v > INT_MAX / 1024)
			goto bad;
		v *= 1024;
		end++;
	} else if (*end == 'm' || *end == 'M') {
		if (v > INT_MAX / 1048576)
			goto bad;
		v *= 1048576;
		end++;
	}
	if (*end || v == 0 || v > INT_MAX)
		goto bad;
	return (int)v;
bad:
	dbg("%s=\"%s\" is no size (bytes, k or m), ignored", name, val);
	return 0;
}

static int raw_socket(int domain, int type, int protocol)
{
	return syscall(SYS_socket, domain, type, protocol);
}

static void setup(void)
{
	const char *d = getenv("SMC_DEBUG");

	debug = d && *d && strcmp(d, "0");
	next_socket = (socket_fn)dlsym(RTLD_NEXT, "socket");
	if (!next_socket) {
		/* no libc below us (cannot happen with a dynamic libc):
		 * the system call itself
		 */
		dbg("dlsym(RTLD_NEXT, \"socket\") failed, using the system call");
		next_socket = raw_socket;
	}
	rcvbuf = env_size("SMC_RCVBUF");
	sndbuf = env_size("SMC_SNDBUF");
}

static const char *family_name(int domain)
{
	return domain == AF_INET ? "AF_INET" : "AF_INET6";
}

/* not_supported() - @err says the kernel does not know this socket kind */
static bool not_supported(int err)
{
	return err == EAFNOSUPPORT || err == EPROTONOSUPPORT ||
	       err == ESOCKTNOSUPPORT || err == EINVAL;
}

/* set_buf() - SO_RCVBUF or SO_SNDBUF of @fd to @size, if asked for */
static void set_buf(int fd, int opt, const char *name, int size)
{
	int got = 0;
	socklen_t len = sizeof(got);

	if (!size)
		return;
	if (setsockopt(fd, SOL_SOCKET, opt, &size, sizeof(size))) {
		dbg("fd %d: setsockopt(%s, %d): %s", fd, name, size,
		    strerror(errno));
		return;
	}
	if (debug && !getsockopt(fd, SOL_SOCKET, opt, &got, &len))
		dbg("fd %d: %s %d asked for, the kernel has %d", fd, name,
		    size, got);
}

/*
 * The ways to an SMC socket, in the order they are tried. @gone is set
 * once the kernel says it cannot do the step (EAFNOSUPPORT of AF_INET6
 * may be IPv6 missing, not SMC; @v4_only: only an IPv4 refusal counts).
 */
static const struct step {
	atomic_bool *gone;
	int family;			/* 0: the program's */
	int proto[2];			/* for AF_INET, AF_INET6 */
	const char *name, *proto_name[2];
	bool v4_only;
} steps[] = {
	{ &no_ipproto_smc, 0, { IPPROTO_SMC, IPPROTO_SMC }, "IPPROTO_SMC",
	  { "IPPROTO_SMC", "IPPROTO_SMC" }, false },
	/* SMCPROTO_SMC6 fails so too when the kernel lacks IPv6 */
	{ &no_af_smc, AF_SMC, { SMCPROTO_SMC, SMCPROTO_SMC6 }, "AF_SMC",
	  { "SMCPROTO_SMC", "SMCPROTO_SMC6" }, true },
};

static int smc_socket(int domain, int type, int protocol)
{
	int saved = errno, v6 = domain == AF_INET6, fd, err;
	unsigned int i;

	for (i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		const struct step *s = &steps[i];

		if (atomic_load_explicit(s->gone, memory_order_relaxed))
			continue;
		fd = next_socket(s->family ? s->family : domain, type,
				 s->proto[v6]);
		if (fd >= 0) {
			dbg("socket(%s, SOCK_STREAM, %d): fd %d, %s",
			    family_name(domain), protocol, fd, s->name);
			set_buf(fd, SO_RCVBUF, "SO_RCVBUF", rcvbuf);
			set_buf(fd, SO_SNDBUF, "SO_SNDBUF", sndbuf);
			errno = saved;
			return fd;
		}
		err = errno;
		dbg("socket(%s, SOCK_STREAM, %s): %s",
		    s->family ? "AF_SMC" : family_name(domain),
		    s->proto_name[v6], strerror(err));
		if (not_supported(err) &&
		    (!v6 || (!s->v4_only && err != EAFNOSUPPORT)))
			atomic_store_explicit(s->gone, true,
					      memory_order_relaxed);
	}
	errno = saved;
	fd = next_socket(domain, type, protocol);
	dbg("socket(%s, SOCK_STREAM, %d): fd %d, TCP (no SMC)",
	    family_name(domain), protocol, fd);
	return fd;
}

/* socket() - the libc call every dynamically linked program makes */
int socket(int domain, int type, int protocol)
{
	int kind = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC);

	pthread_once(&setup_once, setup);
	if ((domain == AF_INET || domain == AF_INET6) &&
	    kind == SOCK_STREAM &&
	    (protocol == 0 || protocol == IPPROTO_TCP))
		return smc_socket(domain, type, protocol);
	return next_socket(domain, type, protocol);
}
