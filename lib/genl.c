// SPDX-License-Identifier: GPL-2.0
/*
 * genl.c - the generic netlink socket of the SMC family via libmnl:
 * open it, resolve the family, send and read (genl_msg.c builds the
 * requests and prints the errors)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/smc.h>

#include "genl.h"
#include "nl.h"
#include "utils.h"

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
	return nl_talk(g->nl, nlh, g->extack, g->family, cb, data);
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
 * smc_genl_open_family() - open the socket, resolve family @name (genl.h)
 * @g: filled in
 * @name: generic netlink family name, SMC_GEN_NETLINK or SMC_PNETID
 *
 * Return: 0, -ENOENT when the kernel has no such family, or another
 * negative errno. The error is printed.
 */
int smc_genl_open_family(struct smc_genl *g, const char *name)
{
	char req[SMC_GENL_REQ_SIZE] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct nlmsghdr *nlh;
	uint16_t id = 0;
	bool bind_failed;
	int err;

	memset(g, 0, sizeof(*g));
	g->nl = nl_open(NETLINK_GENERIC, &bind_failed);
	if (!g->nl) {
		err = -errno;
		if (bind_failed)
			fprintf(stderr,
				"Error: cannot bind the generic netlink socket: %s\n",
				strerror(-err));
		else
			fprintf(stderr,
				"Error: cannot open a generic netlink socket: %s\n",
				strerror(-err));
		return err;
	}
	g->portid = mnl_socket_get_portid(g->nl);
	g->seq = time(NULL);

	g->family = GENL_ID_CTRL;
	nlh = smc_genl_msg(g, req, CTRL_CMD_GETFAMILY, 0);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, name);
	err = smc_genl_talk(g, nlh, cb_family, &id);
	if (err == -ENOENT) {
		fprintf(stderr,
			"Error: SMC is not available in the running kernel (generic netlink family %s not found); %s\n",
			name, smc_no_smc_advice());
	} else if (err) {
		smc_genl_error(g, err,
			       "cannot look up generic netlink family %s",
			       name);
	} else if (!id) {
		err = -EBADMSG;
		fprintf(stderr,
			"Error: the kernel's answer for generic netlink family %s has no family id\n",
			name);
	}
	if (err) {
		smc_genl_close(g);
		return err;
	}
	g->family = id;
	return 0;
}

/**
 * smc_genl_open() - open the socket, resolve SMC_GEN_NETLINK (see genl.h)
 * @g: filled in
 *
 * Return: as smc_genl_open_family().
 */
int smc_genl_open(struct smc_genl *g)
{
	return smc_genl_open_family(g, SMC_GENL_FAMILY_NAME);
}

/**
 * smc_genl_close() - close the socket (see genl.h)
 * @g: opened or partly opened by smc_genl_open(); may be closed twice
 */
void smc_genl_close(struct smc_genl *g)
{
	nl_close(&g->nl);
}
