/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The rtnetlink requests smc dump start, stop and show make on
 * smc-dummy links, through libmnl: create, set up and alias, read back
 * (one link or all smc-dummy links of the netns), delete.
 */
#ifndef SMC_RTNL_H
#define SMC_RTNL_H

#include <stdbool.h>
#include <stdint.h>
#include <net/if.h>
#include <libmnl/libmnl.h>

#include "nl.h"

/* Link kind of the SMC dump link (include/uapi/linux/smc_dump.h) */
#define SMC_DUMMY_KIND		"smc-dummy"

/* Bytes of an interface alias with its NUL (the kernel's IFALIASZ) */
#define RTNL_ALIAS_SIZE		256

/* Longest extack message kept, bytes with the NUL (nl_talk() fills it) */
#define RTNL_EXTACK_LEN		NL_EXTACK_LEN

/**
 * struct rtnl - an open NETLINK_ROUTE socket
 * @nl: the libmnl socket
 * @portid: our netlink port id
 * @seq: sequence number of the last request
 * @extack: the kernel's extack message on the last request, "" if none
 */
struct rtnl {
	struct mnl_socket *nl;
	unsigned int portid;
	unsigned int seq;
	char extack[RTNL_EXTACK_LEN];
};

/**
 * struct rtnl_link - what a link reports in RTM_NEWLINK
 * @ifindex: interface index
 * @name: interface name
 * @alias: IFLA_IFALIAS, "" if none
 * @kind: IFLA_INFO_KIND, "" if none
 * @up: IFF_UP is set
 * @smc_dummy: @kind is "smc-dummy"
 * @bpf_dummy: @kind is "dummy" and the alias is one of smc dump start's
 *	(the link of its bpf backend)
 * @mode: IFLA_SMC_DUMMY_MODE (enum smc_dummy_mode), -1 if absent
 * @capture: IFLA_SMC_DUMMY_CAPTURE (enum smc_dummy_capture), -1 if absent
 * @snaplen: IFLA_SMC_DUMMY_SNAPLEN
 * @has_stats: the counters below came with the message (IFLA_STATS64)
 * @tx_packets: records the link delivered to its taps
 * @tx_bytes: bytes of those records
 * @tx_dropped: records that could not be built
 */
struct rtnl_link {
	int ifindex;
	char name[IF_NAMESIZE];
	char alias[RTNL_ALIAS_SIZE];
	char kind[32];
	bool up;
	bool smc_dummy;
	bool bpf_dummy;
	int mode;
	int capture;
	uint32_t snaplen;
	bool has_stats;
	uint64_t tx_packets;
	uint64_t tx_bytes;
	uint64_t tx_dropped;
};

/*
 * rtnl_open() - open a NETLINK_ROUTE socket with extended acks
 *
 * Return: 0, or a negative errno. Prints nothing.
 */
int rtnl_open(struct rtnl *r);

/* rtnl_close() - close the socket; @r may be partly opened */
void rtnl_close(struct rtnl *r);

/*
 * rtnl_smc_dummy_add() - create link @name of kind smc-dummy
 * (NLM_F_CREATE | NLM_F_EXCL) with the given filter
 * @mode: enum smc_dummy_mode
 * @capture: enum smc_dummy_capture
 * @snaplen: payload bytes kept per data record, 0 all
 *
 * Return: 0, or the kernel's negative errno: -EEXIST (name taken),
 * -EOPNOTSUPP (no such link kind), -EPERM (no CAP_NET_ADMIN), ...;
 * r->extack holds the kernel's message.
 */
int rtnl_smc_dummy_add(struct rtnl *r, const char *name, uint8_t mode,
		       uint8_t capture, uint32_t snaplen);

/*
 * rtnl_dummy_add() - create link @name of kind dummy (NLM_F_CREATE |
 * NLM_F_EXCL) with MTU @mtu: the link the bpf backend of smc dump sends
 * its records on
 *
 * Return: 0, or the kernel's negative errno, as rtnl_smc_dummy_add().
 */
int rtnl_dummy_add(struct rtnl *r, const char *name, uint32_t mtu);

/*
 * rtnl_link_set() - bring link @name up and set its alias
 * @alias: the new IFLA_IFALIAS ("" removes it), or NULL to leave it
 *
 * Return: 0 or a negative errno, as rtnl_smc_dummy_add().
 */
int rtnl_link_set(struct rtnl *r, const char *name, bool up,
		  const char *alias);

/*
 * rtnl_link_del() - delete link @name
 *
 * Return: 0, -ENODEV when there is no such link, or another negative
 * errno.
 */
int rtnl_link_del(struct rtnl *r, const char *name);

/*
 * rtnl_link_get() - read link @name into @l
 *
 * Return: 0, -ENODEV when there is no such link, or another negative
 * errno.
 */
int rtnl_link_get(struct rtnl *r, const char *name, struct rtnl_link *l);

/*
 * rtnl_smc_dummy_list() - every smc-dummy link of the netns, and every
 * dummy link whose alias says smc dump start made it (bpf_dummy), in
 * index order
 * @links: set to a malloc()ed array the caller frees, NULL when none
 *
 * Return: the number of links, or a negative errno.
 */
int rtnl_smc_dummy_list(struct rtnl *r, struct rtnl_link **links);

#endif /* SMC_RTNL_H */
