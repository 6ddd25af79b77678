// SPDX-License-Identifier: GPL-2.0
/*
 * genl.c - generic netlink requests to the SMC family via libmnl
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/smc.h>

#include "genl.h"

/* Receive buffer: large enough for any dump skb the kernel builds */
#define SMC_GENL_RX_SIZE (32 * 1024)

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

struct talk_ctx {
	struct smc_genl *g;
	mnl_cb_t cb;
	void *data;
	int err;		/* kernel's error from the ack or DONE, <= 0 */
};

/* Copy the NLMSGERR_ATTR_MSG of an ack or DONE message into g->extack.
 * @off: bytes of payload before the TLVs
 */
static void get_extack(struct smc_genl *g, const struct nlmsghdr *nlh,
		       unsigned int off)
{
	const struct nlattr *attr;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (MNL_ALIGN(off) > mnl_nlmsg_get_payload_len(nlh))
		return;
	mnl_attr_for_each(attr, nlh, off) {
		if (mnl_attr_get_type(attr) != NLMSGERR_ATTR_MSG)
			continue;
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0)
			return;
		snprintf(g->extack, sizeof(g->extack), "%s",
			 mnl_attr_get_str(attr));
		/* drop the trailing newline some messages carry */
		g->extack[strcspn(g->extack, "\n")] = '\0';
		return;
	}
}

static int cb_error(const struct nlmsghdr *nlh, void *data)
{
	struct talk_ctx *ctx = data;
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	unsigned int off = sizeof(*err);

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*err)) {
		ctx->err = -EBADMSG;
		return MNL_CB_STOP;
	}
	/* without NLM_F_CAPPED the request follows the nlmsgerr */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
	    err->msg.nlmsg_len > sizeof(struct nlmsghdr))
		off += err->msg.nlmsg_len - sizeof(struct nlmsghdr);
	get_extack(ctx->g, nlh, off);
	ctx->err = err->error > 0 ? -err->error : err->error;
	return MNL_CB_STOP;
}

static int cb_done(const struct nlmsghdr *nlh, void *data)
{
	struct talk_ctx *ctx = data;
	int err = 0;

	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int)) {
		memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(int));
		get_extack(ctx->g, nlh, sizeof(int));
	}
	ctx->err = err > 0 ? -err : err;
	return MNL_CB_STOP;
}

static int cb_overrun(const struct nlmsghdr *nlh, void *data)
{
	struct talk_ctx *ctx = data;

	(void)nlh;
	ctx->err = -ENOBUFS;
	return MNL_CB_STOP;
}

static int cb_noop(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(void)data;
	return MNL_CB_OK;
}

/* Data messages: only the family's own go to the caller */
static int cb_data(const struct nlmsghdr *nlh, void *data)
{
	struct talk_ctx *ctx = data;

	if (nlh->nlmsg_type != ctx->g->family || !ctx->cb)
		return MNL_CB_OK;
	return ctx->cb(nlh, ctx->data);
}

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
 * smc_genl_talk() - send a request, read the answer (see genl.h)
 * @g: the open socket
 * @nlh: the request from smc_genl_msg()
 * @cb: callback for each reply of the family, or NULL
 * @data: for @cb
 *
 * Return: 0 or a negative errno.
 */
int smc_genl_talk(struct smc_genl *g, struct nlmsghdr *nlh, mnl_cb_t cb,
		  void *data)
{
	static char buf[SMC_GENL_RX_SIZE]
		__attribute__((aligned(NLMSG_ALIGNTO)));
	mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_NOOP] = cb_noop,
		[NLMSG_ERROR] = cb_error,
		[NLMSG_DONE] = cb_done,
		[NLMSG_OVERRUN] = cb_overrun,
	};
	struct talk_ctx ctx = { .g = g, .cb = cb, .data = data };
	ssize_t n;
	int ret;

	g->extack[0] = '\0';
	if (mnl_socket_sendto(g->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		n = mnl_socket_recvfrom(g->nl, buf, sizeof(buf));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		errno = 0;
		ret = mnl_cb_run2(buf, n, nlh->nlmsg_seq, g->portid, cb_data,
				  &ctx, ctl, NLMSG_MIN_TYPE);
		if (ret == MNL_CB_ERROR)
			return errno ? -errno : -EIO;
		if (ret == MNL_CB_STOP)
			return ctx.err;
	}
}

static int cb_family(const struct nlmsghdr *nlh, void *data)
{
	uint16_t *id = data;
	const struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(attr) == CTRL_ATTR_FAMILY_ID &&
		    mnl_attr_validate(attr, MNL_TYPE_U16) == 0)
			*id = mnl_attr_get_u16(attr);
	}
	return MNL_CB_OK;
}

/**
 * smc_genl_open() - open the socket, resolve SMC_GEN_NETLINK (see genl.h)
 * @g: filled in
 *
 * Return: 0, -ENOENT when the kernel has no SMC family, or another
 * negative errno. The error is printed.
 */
int smc_genl_open(struct smc_genl *g)
{
	char req[SMC_GENL_REQ_SIZE] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct nlmsghdr *nlh;
	uint16_t id = 0;
	int one = 1;
	int err;

	memset(g, 0, sizeof(*g));
	g->nl = mnl_socket_open(NETLINK_GENERIC);
	if (!g->nl) {
		err = -errno;
		fprintf(stderr,
			"Error: cannot open a generic netlink socket: %s\n",
			strerror(-err));
		return err;
	}
	if (mnl_socket_bind(g->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = -errno;
		fprintf(stderr,
			"Error: cannot bind the generic netlink socket: %s\n",
			strerror(-err));
		smc_genl_close(g);
		return err;
	}
	/* Kernels without extended acks refuse the option: not an error */
	mnl_socket_setsockopt(g->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	g->portid = mnl_socket_get_portid(g->nl);
	g->seq = time(NULL);

	g->family = GENL_ID_CTRL;
	nlh = smc_genl_msg(g, req, CTRL_CMD_GETFAMILY, 0);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, SMC_GENL_FAMILY_NAME);
	err = smc_genl_talk(g, nlh, cb_family, &id);
	if (err == -ENOENT) {
		fprintf(stderr,
			"Error: SMC is not available in the running kernel (generic netlink family %s not found); load the smc module or use a kernel with CONFIG_SMC\n",
			SMC_GENL_FAMILY_NAME);
	} else if (err) {
		smc_genl_error(g, err,
			       "cannot look up generic netlink family %s",
			       SMC_GENL_FAMILY_NAME);
	} else if (!id) {
		err = -EBADMSG;
		fprintf(stderr,
			"Error: the kernel's answer for generic netlink family %s has no family id\n",
			SMC_GENL_FAMILY_NAME);
	}
	if (err) {
		smc_genl_close(g);
		return err;
	}
	g->family = id;
	return 0;
}

/**
 * smc_genl_close() - close the socket (see genl.h)
 * @g: opened or partly opened by smc_genl_open(); may be closed twice
 */
void smc_genl_close(struct smc_genl *g)
{
	if (g->nl)
		mnl_socket_close(g->nl);
	g->nl = NULL;
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
