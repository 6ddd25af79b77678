/* SPDX-License-Identifier: GPL-2.0 */
/*
 * genl.h - talking to the SMC generic netlink family (SMC_GEN_NETLINK)
 * through libmnl.
 *
 * Usage: smc_genl_open(), then for each request smc_genl_msg(), attributes
 * with mnl_attr_put*(), smc_genl_talk(); smc_genl_close() at the end.
 * The host test suite links a fake of this interface in place of genl.c,
 * so keep the interface to these functions.
 */
#ifndef SMC_GENL_H
#define SMC_GENL_H

#include <stdint.h>
#include <libmnl/libmnl.h>

#include "nl.h"

/* Size of a buffer for one request built by smc_genl_msg(), bytes */
#define SMC_GENL_REQ_SIZE 1024

/* Longest extack message kept, bytes with the NUL (nl_talk() fills it) */
#define SMC_GENL_EXTACK_LEN NL_EXTACK_LEN

/* One open generic netlink socket with the SMC family resolved */
struct smc_genl {
	struct mnl_socket *nl;
	uint16_t family;	/* generic netlink family id (SMC_GEN_NETLINK) */
	unsigned int portid;	/* our netlink port id */
	unsigned int seq;	/* sequence number of the last request */
	/* the kernel's extack message on the last request, "" if none */
	char extack[SMC_GENL_EXTACK_LEN];
};

/*
 * smc_genl_open() - open a generic netlink socket and resolve the family
 * SMC_GEN_NETLINK.
 *
 * Prints its own one-line error on stderr. Returns 0, or a negative errno:
 * -ENOENT when the running kernel has no SMC family (message: "SMC is not
 * available in the running kernel ..."), other values when the socket
 * cannot be opened or the controller does not answer.
 */
int smc_genl_open(struct smc_genl *g);

/*
 * smc_genl_open_family() - the same for generic netlink family @name, e.g.
 * SMCR_GENL_FAMILY_NAME ("SMC_PNETID", the PNET table of smc pnet); the
 * "not available" message names @name. smc_genl_open() is this with
 * SMC_GENL_FAMILY_NAME. Both families have version 1, which smc_genl_msg()
 * puts in the requests.
 */
int smc_genl_open_family(struct smc_genl *g, const char *name);

/* smc_genl_close() - close the socket; @g may be partly opened */
void smc_genl_close(struct smc_genl *g);

/*
 * smc_genl_msg() - start a request of command @cmd in @buf
 * @buf: at least SMC_GENL_REQ_SIZE bytes, aligned for struct nlmsghdr
 * @flags: NLM_F_REQUEST is always set, NLM_F_ACK unless @flags has
 *	NLM_F_DUMP (the dump commands; a dump ends with NLMSG_DONE)
 *
 * Returns the message header; the caller appends attributes.
 */
struct nlmsghdr *smc_genl_msg(struct smc_genl *g, void *buf, uint8_t cmd,
			      uint16_t flags);

/*
 * smc_genl_talk() - send @nlh and read the answer to its end
 * @cb: called for each reply message of the SMC family (may be NULL);
 *	returns MNL_CB_OK to go on, MNL_CB_STOP to stop reading early or
 *	MNL_CB_ERROR with errno set to fail
 * @data: passed to @cb
 *
 * Returns 0 on success, or a negative errno: the kernel's error from the
 * ack or from the end of a dump (e.g. -EPERM, -EEXIST), -errno from the
 * socket, or the errno that @cb set. The kernel's extack message, if any,
 * is left in g->extack (also on success, where it is a warning).
 */
int smc_genl_talk(struct smc_genl *g, struct nlmsghdr *nlh, mnl_cb_t cb,
		  void *data);

/*
 * smc_genl_error() - print "Error: MESSAGE[: strerror(-err)][ (kernel
 * says: EXTACK)]" on stderr, one line
 * @err: negative errno to name, or 0 for none
 * @fmt: printf format of MESSAGE
 *
 * Returns 1, the exit status for a failure.
 */
int smc_genl_error(const struct smc_genl *g, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* SMC_GENL_H */
