// SPDX-License-Identifier: GPL-2.0
/*
 * nl.c - netlink request, ack and extack handling via libmnl (see nl.h)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>

#include "nl.h"

/* Receive buffer: large enough for any dump skb the kernel builds */
#define NL_RX_SIZE (32 * 1024)

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

/**
 * nl_open() - open and bind a netlink socket (see nl.h)
 * @bus: the netlink protocol, NETLINK_*
 * @bind_failed: set to whether the bind failed, or NULL
 *
 * Return: the socket, or NULL with errno set.
 */
struct mnl_socket *nl_open(int bus, bool *bind_failed)
{
	struct mnl_socket *nl;
	int one = 1;
	int err;

	if (bind_failed)
		*bind_failed = false;
	nl = mnl_socket_open2(bus, SOCK_CLOEXEC);
	if (!nl)
		return NULL;
	/* extack messages; an old kernel without them is no error */
	mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
	if (mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		err = errno;
		mnl_socket_close(nl);
		if (bind_failed)
			*bind_failed = true;
		errno = err;
		return NULL;
	}
	return nl;
}

/**
 * nl_close() - close the socket (see nl.h)
 * @nl: the socket, NULL when not open; set to NULL
 */
void nl_close(struct mnl_socket **nl)
{
	if (*nl)
		mnl_socket_close(*nl);
	*nl = NULL;
}

struct talk_ctx {
	char *extack;
	uint16_t type;
	mnl_cb_t cb;
	void *data;
	int err;		/* kernel's error from the ack or DONE, <= 0 */
};

/* Copy the NLMSGERR_ATTR_MSG of an ack or DONE message into @extack
 * (NL_EXTACK_LEN bytes).
 * @off: bytes of payload before the TLVs
 */
static void get_extack(char *extack, const struct nlmsghdr *nlh,
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
		snprintf(extack, NL_EXTACK_LEN, "%s", mnl_attr_get_str(attr));
		/* drop the trailing newline some messages carry */
		extack[strcspn(extack, "\n")] = '\0';
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
	get_extack(ctx->extack, nlh, off);
	ctx->err = err->error > 0 ? -err->error : err->error;
	return MNL_CB_STOP;
}

static int cb_done(const struct nlmsghdr *nlh, void *data)
{
	struct talk_ctx *ctx = data;
	int err = 0;

	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int)) {
		memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(int));
		get_extack(ctx->extack, nlh, sizeof(int));
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

/* Data messages: only those of ctx->type go to the caller */
static int cb_data(const struct nlmsghdr *nlh, void *data)
{
	struct talk_ctx *ctx = data;

	if (nlh->nlmsg_type != ctx->type || !ctx->cb)
		return MNL_CB_OK;
	return ctx->cb(nlh, ctx->data);
}

/**
 * nl_talk() - send a request, read the answer (see nl.h)
 * @nl: the open socket
 * @nlh: the request, with NLM_F_ACK or NLM_F_DUMP
 * @extack: NL_EXTACK_LEN bytes for the kernel's message
 * @type: message type of the replies for @cb
 * @cb: callback for each reply of @type, or NULL
 * @data: for @cb
 *
 * Return: 0 or a negative errno.
 */
int nl_talk(struct mnl_socket *nl, struct nlmsghdr *nlh, char *extack,
	    uint16_t type, mnl_cb_t cb, void *data)
{
	static char buf[NL_RX_SIZE] __attribute__((aligned(NLMSG_ALIGNTO)));
	static mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_NOOP] = cb_noop,
		[NLMSG_ERROR] = cb_error,
		[NLMSG_DONE] = cb_done,
		[NLMSG_OVERRUN] = cb_overrun,
	};
	struct talk_ctx ctx = {
		.extack = extack, .type = type, .cb = cb, .data = data,
	};
	unsigned int portid = mnl_socket_get_portid(nl);
	ssize_t n;
	int ret;

	extack[0] = '\0';
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	for (;;) {
		n = mnl_socket_recvfrom(nl, buf, sizeof(buf));
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		errno = 0;
		ret = mnl_cb_run2(buf, n, nlh->nlmsg_seq, portid, cb_data,
				  &ctx, ctl, NLMSG_MIN_TYPE);
		if (ret == MNL_CB_ERROR)
			return errno ? -errno : -EIO;
		if (ret == MNL_CB_STOP)
			return ctx.err;
	}
}
