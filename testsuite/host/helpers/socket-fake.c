// SPDX-License-Identifier: GPL-2.0
/*
 * socket-fake.c - a fake NETLINK_SOCK_DIAG kernel for the host tests of
 * smc socket (testsuite/host/smc-socket.bats), preloaded with LD_PRELOAD:
 * the host kernel has no SMC. It takes over socket(AF_NETLINK, ...,
 * NETLINK_SOCK_DIAG) and the calls libmnl makes on that socket (bind,
 * getsockname, setsockopt, sendto, sendmsg, recvfrom, recvmsg, close),
 * logs each request and answers it from canned files:
 *
 *   SOCKET_FAKE_DIR/smc.bin	answer to the AF_SMC dump
 *   SOCKET_FAKE_DIR/tcp4.bin	answer to the TCP dump of AF_INET
 *   SOCKET_FAKE_DIR/tcp6.bin	answer to the TCP dump of AF_INET6
 *
 * Each file holds netlink messages one after the other, as the kernel
 * sends them (written by socket-case.py); a missing file is an empty dump.
 * The fake sets nlmsg_seq and nlmsg_pid of every message to those of the
 * request, delivers SOCKET_FAKE_CHUNK messages per datagram (default 2)
 * and ends the dump with NLMSG_DONE. SOCKET_FAKE_ERR=FAMILY:ERRNO answers
 * the dump of FAMILY (43, 2 or 10) with NLMSG_ERROR -ERRNO instead;
 * SOCKET_FAKE_SOCKET_ERR=ERRNO makes socket() fail.
 *
 * With SOCKET_FAKE_NETNS set, socket() logs the network namespace it is
 * called in ("socket net:[INODE]").
 *
 * SOCKET_FAKE_LOG gets one line per request:
 *   smc family=43 ext=0x.. flags=0x...
 *   tcp family=2 protocol=6 states=0x... flags=0x...
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>

#define FAKE_PID 4242
#define MAX_REPLY (1 << 20)

static int fake_fd = -1;
static unsigned char *reply;	/* messages still to deliver */
static size_t reply_len, reply_off;

static void fail(const char *fmt, ...)
{
	va_list ap;

	fputs("socket-fake: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(99);
}

static void *real(const char *name)
{
	void *f = dlsym(RTLD_NEXT, name);

	if (!f)
		fail("no %s", name);
	return f;
}

static void logf_(const char *fmt, ...)
{
	const char *path = getenv("SOCKET_FAKE_LOG");
	va_list ap;
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "a");
	if (!f)
		fail("cannot open %s", path);
	va_start(ap, fmt);
	vfprintf(f, fmt, ap);
	va_end(ap);
	fclose(f);
}

int socket(int domain, int type, int protocol)
{
	int (*real_socket)(int, int, int) = real("socket");
	const char *err;

	if (domain != AF_NETLINK || protocol != NETLINK_SOCK_DIAG)
		return real_socket(domain, type, protocol);
	err = getenv("SOCKET_FAKE_SOCKET_ERR");
	if (err) {
		errno = atoi(err);
		return -1;
	}
	if (getenv("SOCKET_FAKE_NETNS")) {
		char ns[64];
		ssize_t n = readlink("/proc/self/ns/net", ns, sizeof(ns) - 1);

		if (n < 0)
			fail("cannot read /proc/self/ns/net");
		ns[n] = '\0';
		logf_("socket %s\n", ns);
	}
	fake_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	return fake_fd;
}

int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	int (*real_bind)(int, const struct sockaddr *, socklen_t) =
		real("bind");

	if (fd != fake_fd || fd < 0)
		return real_bind(fd, addr, len);
	return 0;
}

int getsockname(int fd, struct sockaddr *addr, socklen_t *len)
{
	int (*real_gsn)(int, struct sockaddr *, socklen_t *) =
		real("getsockname");
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK, .nl_pid = FAKE_PID };

	if (fd != fake_fd || fd < 0)
		return real_gsn(fd, addr, len);
	memcpy(addr, &nl, *len < sizeof(nl) ? *len : sizeof(nl));
	*len = sizeof(nl);
	return 0;
}

int setsockopt(int fd, int level, int name, const void *val, socklen_t len)
{
	int (*real_sso)(int, int, int, const void *, socklen_t) =
		real("setsockopt");

	if (fd != fake_fd || fd < 0)
		return real_sso(fd, level, name, val, len);
	return 0;
}

int close(int fd)
{
	int (*real_close)(int) = real("close");

	if (fd == fake_fd && fd >= 0)
		fake_fd = -1;
	return real_close(fd);
}

/* Load the canned answer for @family, or an NLMSG_ERROR, then DONE */
static void prepare(int family, const struct nlmsghdr *req)
{
	const char *dir = getenv("SOCKET_FAKE_DIR");
	const char *err = getenv("SOCKET_FAKE_ERR");
	const char *name = family == 43 ? "smc.bin" :
			   family == 2 ? "tcp4.bin" : "tcp6.bin";
	struct nlmsghdr *nlh;
	char path[4096];
	size_t off;
	FILE *f;

	free(reply);
	reply = calloc(1, MAX_REPLY);
	if (!reply)
		fail("out of memory");
	reply_len = reply_off = 0;

	if (err && atoi(err) == family && strchr(err, ':')) {
		struct nlmsgerr *e;

		nlh = (struct nlmsghdr *)reply;
		nlh->nlmsg_len = NLMSG_LENGTH(sizeof(*e));
		nlh->nlmsg_type = NLMSG_ERROR;
		e = NLMSG_DATA(nlh);
		e->error = -atoi(strchr(err, ':') + 1);
		e->msg = *req;
		reply_len = NLMSG_ALIGN(nlh->nlmsg_len);
	} else {
		snprintf(path, sizeof(path), "%s/%s", dir ? dir : ".", name);
		f = fopen(path, "rb");
		if (f) {
			reply_len = fread(reply, 1, MAX_REPLY - 64, f);
			fclose(f);
		}
		nlh = (struct nlmsghdr *)(reply + reply_len);
		nlh->nlmsg_len = NLMSG_LENGTH(sizeof(int));
		nlh->nlmsg_type = NLMSG_DONE;
		nlh->nlmsg_flags = NLM_F_MULTI;
		reply_len += NLMSG_ALIGN(nlh->nlmsg_len);
	}
	for (off = 0; off + sizeof(*nlh) <= reply_len;) {
		nlh = (struct nlmsghdr *)(reply + off);
		if (nlh->nlmsg_len < sizeof(*nlh))
			fail("bad message length %u in %s", nlh->nlmsg_len,
			     name);
		nlh->nlmsg_seq = req->nlmsg_seq;
		nlh->nlmsg_pid = FAKE_PID;
		off += NLMSG_ALIGN(nlh->nlmsg_len);
	}
}

static ssize_t fake_send(const void *buf, size_t len)
{
	const struct nlmsghdr *nlh = buf;
	const unsigned char *p;

	if (len < NLMSG_HDRLEN + 4 || nlh->nlmsg_len > len)
		fail("short request");
	if (nlh->nlmsg_type != SOCK_DIAG_BY_FAMILY)
		fail("request type %u", nlh->nlmsg_type);
	p = NLMSG_DATA(nlh);
	if (p[0] == 43) {
		if (nlh->nlmsg_len < NLMSG_LENGTH(52))
			fail("short smc_diag_req");
		logf_("smc family=%u ext=0x%02x flags=0x%x\n", p[0], p[3],
		      nlh->nlmsg_flags);
	} else {
		const struct inet_diag_req_v2 *r = (const void *)p;

		if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*r)))
			fail("short inet_diag_req_v2");
		logf_("tcp family=%u protocol=%u states=0x%x flags=0x%x\n",
		      r->sdiag_family, r->sdiag_protocol, r->idiag_states,
		      nlh->nlmsg_flags);
	}
	prepare(p[0], nlh);
	return len;
}

/* Up to SOCKET_FAKE_CHUNK messages of the answer into @buf */
static ssize_t fake_recv(void *buf, size_t len, int flags)
{
	const char *c = getenv("SOCKET_FAKE_CHUNK");
	int chunk = c ? atoi(c) : 2, n = 0;
	size_t end = reply_off;
	ssize_t got;

	if (!reply || reply_off >= reply_len)
		fail("recv with nothing to answer");
	while (end < reply_len && n < chunk) {
		const struct nlmsghdr *nlh = (const void *)(reply + end);

		end += NLMSG_ALIGN(nlh->nlmsg_len);
		n++;
	}
	if (end > reply_len)
		end = reply_len;
	got = end - reply_off;
	if ((size_t)got > len)
		fail("an answer of %zd bytes does not fit the %zu-byte buffer",
		     got, len);
	(void)flags;
	memcpy(buf, reply + reply_off, got);
	reply_off = end;
	return got;
}

ssize_t sendto(int fd, const void *buf, size_t len, int flags,
	       const struct sockaddr *to, socklen_t tolen)
{
	ssize_t (*real_sendto)(int, const void *, size_t, int,
			       const struct sockaddr *, socklen_t) =
		real("sendto");

	if (fd != fake_fd || fd < 0)
		return real_sendto(fd, buf, len, flags, to, tolen);
	return fake_send(buf, len);
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	ssize_t (*real_sendmsg)(int, const struct msghdr *, int) =
		real("sendmsg");

	if (fd != fake_fd || fd < 0)
		return real_sendmsg(fd, msg, flags);
	if (msg->msg_iovlen != 1)
		fail("sendmsg with %zu iovecs", (size_t)msg->msg_iovlen);
	return fake_send(msg->msg_iov[0].iov_base, msg->msg_iov[0].iov_len);
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	ssize_t (*real_recvmsg)(int, struct msghdr *, int) = real("recvmsg");
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };
	ssize_t n;

	if (fd != fake_fd || fd < 0)
		return real_recvmsg(fd, msg, flags);
	if (msg->msg_iovlen != 1)
		fail("recvmsg with %zu iovecs", (size_t)msg->msg_iovlen);
	n = fake_recv(msg->msg_iov[0].iov_base, msg->msg_iov[0].iov_len,
		      flags);
	if (msg->msg_name && msg->msg_namelen >= sizeof(nl))
		memcpy(msg->msg_name, &nl, sizeof(nl));
	msg->msg_namelen = sizeof(nl);
	msg->msg_flags = 0;
	return n;
}

ssize_t recvfrom(int fd, void *buf, size_t len, int flags,
		 struct sockaddr *from, socklen_t *fromlen)
{
	ssize_t (*real_recvfrom)(int, void *, size_t, int, struct sockaddr *,
				 socklen_t *) = real("recvfrom");
	struct sockaddr_nl nl = { .nl_family = AF_NETLINK };

	if (fd != fake_fd || fd < 0)
		return real_recvfrom(fd, buf, len, flags, from, fromlen);
	if (from && fromlen && *fromlen >= sizeof(nl)) {
		memcpy(from, &nl, sizeof(nl));
		*fromlen = sizeof(nl);
	}
	return fake_recv(buf, len, flags);
}
