// SPDX-License-Identifier: GPL-2.0
/*
 * rtnetlink requests on smc-dummy links via libmnl (see rtnl.h)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/smc_dump.h>

#include "rtnl.h"

/* Receive buffer: large enough for any dump skb the kernel builds */
#define RTNL_RX_SIZE	(32 * 1024)
#define RTNL_REQ_SIZE	1024

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

/**
 * rtnl_open() - open a NETLINK_ROUTE socket (see rtnl.h)
 * @r: the state to fill
 *
 * Return: 0 or a negative errno.
 */
int rtnl_open(struct rtnl *r)
{
	int one = 1;

	memset(r, 0, sizeof(*r));
	r->nl = mnl_socket_open2(NETLINK_ROUTE, SOCK_CLOEXEC);
	if (!r->nl)
		return -errno;
	/* extack messages; an old kernel without them is no error */
	mnl_socket_setsockopt(r->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	if (mnl_socket_bind(r->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		int err = -errno;

		rtnl_close(r);
		return err;
	}
	r->portid = mnl_socket_get_portid(r->nl);
	r->seq = (unsigned int)time(NULL);
	return 0;
}

/**
 * rtnl_close() - close the socket (see rtnl.h)
 * @r: the state, possibly partly opened
 */
void rtnl_close(struct rtnl *r)
{
	if (r->nl)
		mnl_socket_close(r->nl);
	r->nl = NULL;
}

struct talk {
	struct rtnl *r;
	int (*cb)(const struct nlmsghdr *nlh, void *data);
	void *data;
	int err;
};

/* Copy NLMSGERR_ATTR_MSG of an ack or DONE into r->extack; @off: bytes of
 * payload before the TLVs
 */
static void get_extack(struct rtnl *r, const struct nlmsghdr *nlh,
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
		snprintf(r->extack, sizeof(r->extack), "%s",
			 mnl_attr_get_str(attr));
		r->extack[strcspn(r->extack, "\n")] = '\0';
		return;
	}
}

static int cb_error(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	struct talk *t = data;
	unsigned int off = sizeof(*err);

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*err)) {
		t->err = -EBADMSG;
		return MNL_CB_STOP;
	}
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED) &&
	    err->msg.nlmsg_len > sizeof(struct nlmsghdr))
		off += err->msg.nlmsg_len - sizeof(struct nlmsghdr);
	get_extack(t->r, nlh, off);
	t->err = err->error > 0 ? -err->error : err->error;
	return MNL_CB_STOP;
}

static int cb_done(const struct nlmsghdr *nlh, void *data)
{
	struct talk *t = data;
	int err = 0;

	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(int)) {
		memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(int));
		get_extack(t->r, nlh, sizeof(int));
	}
	t->err = err > 0 ? -err : err;
	return MNL_CB_STOP;
}

static int cb_overrun(const struct nlmsghdr *nlh, void *data)
{
	struct talk *t = data;

	(void)nlh;
	t->err = -ENOBUFS;
	return MNL_CB_STOP;
}

static int cb_noop(const struct nlmsghdr *nlh, void *data)
{
	(void)nlh;
	(void)data;
	return MNL_CB_OK;
}

static int cb_data(const struct nlmsghdr *nlh, void *data)
{
	struct talk *t = data;

	if (nlh->nlmsg_type != RTM_NEWLINK || !t->cb)
		return MNL_CB_OK;
	return t->cb(nlh, t->data);
}

/* Send @nlh, read the answer to its ack or NLMSG_DONE; 0 or -errno */
static int talk(struct rtnl *r, struct nlmsghdr *nlh,
		int (*cb)(const struct nlmsghdr *nlh, void *data), void *data)
{
	static mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
		[NLMSG_NOOP] = cb_noop,
		[NLMSG_ERROR] = cb_error,
		[NLMSG_DONE] = cb_done,
		[NLMSG_OVERRUN] = cb_overrun,
	};
	struct talk t = { .r = r, .cb = cb, .data = data, .err = 0 };
	char *buf;
	int ret;

	r->extack[0] = '\0';
	buf = malloc(RTNL_RX_SIZE);
	if (!buf)
		return -ENOMEM;
	if (mnl_socket_sendto(r->nl, nlh, nlh->nlmsg_len) < 0) {
		ret = -errno;
		goto out;
	}
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(r->nl, buf, RTNL_RX_SIZE);

		if (n < 0) {
			ret = -errno;
			goto out;
		}
		ret = mnl_cb_run2(buf, (size_t)n, nlh->nlmsg_seq, r->portid,
				  cb_data, &t, ctl, NLMSG_MIN_TYPE);
		if (ret == MNL_CB_ERROR) {
			ret = t.err ? t.err : (errno ? -errno : -EIO);
			goto out;
		}
		if (ret == MNL_CB_STOP)
			break;
	}
	ret = t.err;
out:
	free(buf);
	return ret;
}

/* A request for RTM_*LINK with an ifinfomsg */
static struct nlmsghdr *link_msg(struct rtnl *r, void *buf, uint16_t type,
				 uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct ifinfomsg *ifi;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++r->seq;
	ifi = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifi));
	ifi->ifi_family = AF_UNSPEC;
	return nlh;
}

/**
 * rtnl_smc_dummy_add() - create an smc-dummy link (see rtnl.h)
 * @r: the socket
 * @name: the new link's name
 * @mode: IFLA_SMC_DUMMY_MODE
 * @capture: IFLA_SMC_DUMMY_CAPTURE
 * @snaplen: IFLA_SMC_DUMMY_SNAPLEN
 *
 * Return: 0 or the kernel's negative errno.
 */
int rtnl_smc_dummy_add(struct rtnl *r, const char *name, uint8_t mode,
		       uint8_t capture, uint32_t snaplen)
{
	char buf[RTNL_REQ_SIZE] __attribute__((aligned(8)));
	struct nlattr *li, *data;
	struct nlmsghdr *nlh;

	nlh = link_msg(r, buf, RTM_NEWLINK,
		       NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, SMC_DUMMY_KIND);
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	mnl_attr_put_u8(nlh, IFLA_SMC_DUMMY_MODE, mode);
	mnl_attr_put_u8(nlh, IFLA_SMC_DUMMY_CAPTURE, capture);
	mnl_attr_put_u32(nlh, IFLA_SMC_DUMMY_SNAPLEN, snaplen);
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, li);
	return talk(r, nlh, NULL, NULL);
}

/**
 * rtnl_link_set() - up and alias (see rtnl.h)
 * @r: the socket
 * @name: the link
 * @up: set IFF_UP
 * @alias: new alias, "" to remove, NULL to keep
 *
 * Return: 0 or the kernel's negative errno.
 */
int rtnl_link_set(struct rtnl *r, const char *name, bool up,
		  const char *alias)
{
	char buf[RTNL_REQ_SIZE] __attribute__((aligned(8)));
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifi;

	nlh = link_msg(r, buf, RTM_NEWLINK, NLM_F_ACK);
	ifi = mnl_nlmsg_get_payload(nlh);
	if (up) {
		ifi->ifi_flags = IFF_UP;
		ifi->ifi_change = IFF_UP;
	}
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	if (alias)
		mnl_attr_put(nlh, IFLA_IFALIAS, strlen(alias), alias);
	return talk(r, nlh, NULL, NULL);
}

/**
 * rtnl_link_del() - delete a link (see rtnl.h)
 * @r: the socket
 * @name: the link
 *
 * Return: 0, -ENODEV or another negative errno.
 */
int rtnl_link_del(struct rtnl *r, const char *name)
{
	char buf[RTNL_REQ_SIZE] __attribute__((aligned(8)));
	struct nlmsghdr *nlh;

	nlh = link_msg(r, buf, RTM_DELLINK, NLM_F_ACK);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	return talk(r, nlh, NULL, NULL);
}

/* ---- parsing RTM_NEWLINK ---- */

static int data_cb(const struct nlattr *attr, void *arg)
{
	struct rtnl_link *l = arg;

	switch (mnl_attr_get_type(attr)) {
	case IFLA_SMC_DUMMY_MODE:
		if (mnl_attr_validate(attr, MNL_TYPE_U8) >= 0)
			l->mode = mnl_attr_get_u8(attr);
		break;
	case IFLA_SMC_DUMMY_CAPTURE:
		if (mnl_attr_validate(attr, MNL_TYPE_U8) >= 0)
			l->capture = mnl_attr_get_u8(attr);
		break;
	case IFLA_SMC_DUMMY_SNAPLEN:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) >= 0)
			l->snaplen = mnl_attr_get_u32(attr);
		break;
	}
	return MNL_CB_OK;
}

static int linkinfo_cb(const struct nlattr *attr, void *arg)
{
	struct rtnl_link *l = arg;

	switch (mnl_attr_get_type(attr)) {
	case IFLA_INFO_KIND:
		if (mnl_attr_validate(attr, MNL_TYPE_STRING) < 0)
			break;
		snprintf(l->kind, sizeof(l->kind), "%.*s",
			 (int)mnl_attr_get_payload_len(attr),
			 (const char *)mnl_attr_get_payload(attr));
		l->smc_dummy = !strcmp(l->kind, SMC_DUMMY_KIND);
		break;
	case IFLA_INFO_DATA:
		mnl_attr_parse_nested(attr, data_cb, l);
		break;
	}
	return MNL_CB_OK;
}

static int link_attr_cb(const struct nlattr *attr, void *arg)
{
	struct rtnl_link *l = arg;
	struct rtnl_link_stats64 st;

	switch (mnl_attr_get_type(attr)) {
	case IFLA_IFNAME:
		if (mnl_attr_validate(attr, MNL_TYPE_STRING) < 0)
			break;
		snprintf(l->name, sizeof(l->name), "%.*s",
			 (int)mnl_attr_get_payload_len(attr),
			 (const char *)mnl_attr_get_payload(attr));
		break;
	case IFLA_IFALIAS:
		snprintf(l->alias, sizeof(l->alias), "%.*s",
			 (int)mnl_attr_get_payload_len(attr),
			 (const char *)mnl_attr_get_payload(attr));
		break;
	case IFLA_LINKINFO:
		mnl_attr_parse_nested(attr, linkinfo_cb, l);
		break;
	case IFLA_STATS64:
		if (mnl_attr_get_payload_len(attr) < sizeof(st))
			break;
		memcpy(&st, mnl_attr_get_payload(attr), sizeof(st));
		l->has_stats = true;
		l->tx_packets = st.tx_packets;
		l->tx_bytes = st.tx_bytes;
		l->tx_dropped = st.tx_dropped;
		break;
	}
	return MNL_CB_OK;
}

static int parse_link(const struct nlmsghdr *nlh, struct rtnl_link *l)
{
	const struct ifinfomsg *ifi = mnl_nlmsg_get_payload(nlh);

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*ifi))
		return -EBADMSG;
	memset(l, 0, sizeof(*l));
	l->ifindex = ifi->ifi_index;
	l->up = ifi->ifi_flags & IFF_UP;
	l->mode = -1;
	l->capture = -1;
	if (mnl_attr_parse(nlh, sizeof(*ifi), link_attr_cb, l) < 0)
		return -EBADMSG;
	return 0;
}

static int get_cb(const struct nlmsghdr *nlh, void *data)
{
	if (parse_link(nlh, data))
		return MNL_CB_ERROR;
	return MNL_CB_OK;
}

/**
 * rtnl_link_get() - read one link (see rtnl.h)
 * @r: the socket
 * @name: the link
 * @l: filled in
 *
 * Return: 0, -ENODEV or another negative errno.
 */
int rtnl_link_get(struct rtnl *r, const char *name, struct rtnl_link *l)
{
	char buf[RTNL_REQ_SIZE] __attribute__((aligned(8)));
	struct nlmsghdr *nlh;
	int err;

	memset(l, 0, sizeof(*l));
	l->ifindex = -1;
	nlh = link_msg(r, buf, RTM_GETLINK, NLM_F_ACK);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	err = talk(r, nlh, get_cb, l);
	if (err)
		return err;
	return l->ifindex > 0 ? 0 : -ENODEV;
}

struct list {
	struct rtnl_link *links;
	int n;
	int cap;
};

static int list_cb(const struct nlmsghdr *nlh, void *data)
{
	struct list *ls = data;
	struct rtnl_link l;

	if (parse_link(nlh, &l) || !l.smc_dummy)
		return MNL_CB_OK;
	if (ls->n == ls->cap) {
		int cap = ls->cap ? 2 * ls->cap : 8;
		struct rtnl_link *n = realloc(ls->links, cap * sizeof(*n));

		if (!n) {
			errno = ENOMEM;
			return MNL_CB_ERROR;
		}
		ls->links = n;
		ls->cap = cap;
	}
	ls->links[ls->n++] = l;
	return MNL_CB_OK;
}

/**
 * rtnl_smc_dummy_list() - the netns's smc-dummy links (see rtnl.h)
 * @r: the socket
 * @links: the array, malloc()ed, NULL when none
 *
 * Return: the number of links or a negative errno.
 */
int rtnl_smc_dummy_list(struct rtnl *r, struct rtnl_link **links)
{
	char buf[RTNL_REQ_SIZE] __attribute__((aligned(8)));
	struct list ls = { NULL, 0, 0 };
	struct nlmsghdr *nlh;
	int err;

	*links = NULL;
	nlh = link_msg(r, buf, RTM_GETLINK, NLM_F_DUMP);
	err = talk(r, nlh, list_cb, &ls);
	if (err) {
		free(ls.links);
		return err;
	}
	*links = ls.links;
	return ls.n;
}
