/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nl.h - what genl.c and rtnl.c share of talking to the kernel through
 * libmnl: opening a netlink socket, sending a request and reading its
 * answer up to the ack or the end of the dump, keeping the kernel's
 * extack message.
 *
 * One request at a time per process: nl_talk() reads into a static
 * buffer.
 */
#ifndef SMC_NL_H
#define SMC_NL_H

#include <stdbool.h>
#include <stdint.h>
#include <libmnl/libmnl.h>

/* Longest extack message kept, bytes with the NUL */
#define NL_EXTACK_LEN 256

/*
 * nl_open() - open a netlink socket of protocol @bus (NETLINK_GENERIC,
 * NETLINK_ROUTE, ...), close-on-exec, with extended acks (a kernel without
 * them is no error), bound to a port id the kernel picks
 * @bind_failed: if not NULL, set to whether it was the bind that failed
 *
 * Prints nothing. Return: the socket, or NULL with errno set (a failed
 * bind closes the socket again).
 */
struct mnl_socket *nl_open(int bus, bool *bind_failed);

/* nl_close() - close *@nl if it is open and set it to NULL */
void nl_close(struct mnl_socket **nl);

/*
 * nl_talk() - send @nlh and read the answer until the ack (NLMSG_ERROR),
 * the end of a dump (NLMSG_DONE) or an overrun
 * @extack: NL_EXTACK_LEN bytes; set to the kernel's extack message of the
 *	ack or DONE (without a trailing newline), "" if none; also on
 *	success, where it is a warning
 * @type: nlmsg_type of the data messages for @cb; others are skipped
 * @cb: called for each data message of @type (may be NULL); returns
 *	MNL_CB_OK to go on, MNL_CB_STOP to stop reading early (nl_talk()
 *	then returns 0) or MNL_CB_ERROR with errno set to fail
 * @data: passed to @cb
 *
 * Return: 0, or a negative errno: the kernel's error from the ack or the
 * end of a dump (e.g. -EPERM, -EEXIST, -ENODEV), -ENOBUFS on an overrun,
 * -EBADMSG for an ack too short to hold its error, -errno of the socket,
 * or the errno that @cb or libmnl set (-EIO when none was set).
 */
int nl_talk(struct mnl_socket *nl, struct nlmsghdr *nlh, char *extack,
	    uint16_t type, mnl_cb_t cb, void *data);

#endif /* SMC_NL_H */
