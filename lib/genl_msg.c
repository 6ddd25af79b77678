// SPDX-License-Identifier: GPL-2.0
/*
 * genl_msg.c - the parts of genl.h that need no socket: building a
 * request and printing an error. Apart from genl.c so that the host
 * tests' fake of the socket (testsuite/host/helpers/fake_genl.c) links
 * these as they are.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/smc.h>

#include "genl.h"

/**
 * smc_genl_msg() - start a request (see genl.h)
 * @g: the open socket
 * @buf: SMC_GENL_REQ_SIZE bytes
 * @cmd: SMC_NETLINK_* or CTRL_CMD_* command
 * @flags: extra nlmsg flags, e.g. NLM_F_DUMP
 *
 * Return: the header of the new message in @buf. Cannot fail.
 */
struct nlmsghdr *smc_genl_msg(struct smc_genl *g, void *buf, uint8_t cmd,
			      uint16_t flags)
{
	struct nlmsghdr *nlh;
	struct genlmsghdr *genl;

	memset(buf, 0, SMC_GENL_REQ_SIZE);
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_type = g->family;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	if (!(flags & NLM_F_DUMP))
		nlh->nlmsg_flags |= NLM_F_ACK;
	nlh->nlmsg_seq = ++g->seq;
	genl = mnl_nlmsg_put_extra_header(nlh, sizeof(*genl));
	genl->cmd = cmd;
	genl->version = g->family == GENL_ID_CTRL ? 1 : SMC_GENL_FAMILY_VERSION;
	return nlh;
}

/**
 * smc_genl_error() - print a one-line error with the kernel's extack
 * @g: the socket whose last request failed, or NULL
 * @err: negative errno to name after the message, 0 for none
 * @fmt: printf format of the message
 *
 * Return: 1.
 */
int smc_genl_error(const struct smc_genl *g, int err, const char *fmt, ...)
{
	va_list ap;

	fputs("Error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (err)
		fprintf(stderr, ": %s", strerror(-err));
	if (g && g->extack[0])
		fprintf(stderr, " (kernel says: %s)", g->extack);
	fputc('\n', stderr);
	return 1;
}
