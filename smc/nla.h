/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nla.h - reading the nested attributes of the SMC generic netlink
 * family's answers (info, device, linkgroup objects)
 */
#ifndef SMC_NLA_H
#define SMC_NLA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <libmnl/libmnl.h>

/* Longest attribute table nla_table() fills: types 0 .. NLA_TABLE_MAX */
#define NLA_TABLE_MAX 31

/*
 * nla_table() - index the attributes nested in @nest by type
 * @tb: NLA_TABLE_MAX + 1 entries, cleared first; types above that are
 *	skipped (newer kernels), the last of a repeated type wins
 */
void nla_table(const struct nlattr *nest, const struct nlattr **tb);

/*
 * nla_top() - the first top-level attribute of type @type in a generic
 * netlink message, or NULL
 */
const struct nlattr *nla_top(const struct nlmsghdr *nlh, uint16_t type);

/*
 * nla_uint() - an unsigned integer attribute of 1, 2, 4 or 8 bytes (the
 * kernel sends some u16 of the uapi as u32, and NLA_UINT as 4 or 8 bytes)
 * Returns 0, or -1 when @attr is NULL or of another size (@v is then 0).
 */
int nla_uint(const struct nlattr *attr, uint64_t *v);

/*
 * nla_str() - a string attribute: its text if NUL-terminated within the
 * payload, "" for NULL, NULL when malformed. Trailing blanks are the
 * kernel's padding (PNET IDs, host names, EIDs); @buf of @size receives
 * the text without them.
 */
const char *nla_str(const struct nlattr *attr, char *buf, size_t size);

/* The name of network interface @ifindex: "-" for 0, "ifN" when it does
 * not exist in this network namespace
 */
const char *nla_ifname(uint32_t ifindex, char *buf, size_t size);

/* Print "Error: the kernel sent a malformed WHAT" and set errno to
 * EBADMSG; returns MNL_CB_ERROR for a callback to return
 */
int nla_bad(const char *what);



struct smc_genl;

/*
 * nla_dump() - dump request of command @cmd, @cb for each answer
 * @what: for the error message, e.g. "the SMC link groups"
 *
 * Returns 0, or 1 with the error printed (kernel without the command:
 * "the running kernel has no ...").
 */
int nla_dump(struct smc_genl *g, uint8_t cmd, mnl_cb_t cb, void *data,
	     const char *what);
#endif /* SMC_NLA_H */
