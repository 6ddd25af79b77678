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

#include "nl.h"
#include "rtnl.h"

#define RTNL_REQ_SIZE	1024

/**
 * rtnl_open() - open a NETLINK_ROUTE socket (see rtnl.h)
 * @r: the state to fill
 *
 * Return: 0 or a negative errno.
 */
int rtnl_open(struct rtnl *r)
{
	memset(r, 0, sizeof(*r));
	r->nl = nl_open(NETLINK_ROUTE, NULL);
	if (!r->nl)
		return -errno;
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
	nl_close(&r->nl);
}

/* Send @nlh, read the answer to its ack or NLMSG_DONE; 0 or -errno */
static int talk(struct rtnl *r, struct nlmsghdr *nlh,
		int (*cb)(const struct nlmsghdr *nlh, void *data), void *data)
{
	return nl_talk(r->nl, nlh, r->extack, RTM_NEWLINK, cb, data);
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
 * rtnl_dummy_add() - create a dummy link (see rtnl.h)
 * @r: the socket
 * @name: the new link's name
 * @mtu: its MTU
 *
 * Return: 0 or the kernel's negative errno.
 */
int rtnl_dummy_add(struct rtnl *r, const char *name, uint32_t mtu)
{
	char buf[RTNL_REQ_SIZE] __attribute__((aligned(8)));
	struct nlattr *li;
	struct nlmsghdr *nlh;

	nlh = link_msg(r, buf, RTM_NEWLINK,
		       NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK);
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	mnl_attr_put_u32(nlh, IFLA_MTU, mtu);
	li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, "dummy");
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

	if (parse_link(nlh, &l))
		return MNL_CB_OK;
	l.bpf_dummy = !strcmp(l.kind, "dummy") &&
		      !strncmp(l.alias, "smc-dump ", 9);
	if (!l.smc_dummy && !l.bpf_dummy)
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
