// SPDX-License-Identifier: GPL-2.0
/*
 * nla.c - reading the nested attributes of the SMC generic netlink
 * family (see nla.h)
 */
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>

#include "genl.h"
#include "nla.h"

void nla_table(const struct nlattr *nest, const struct nlattr **tb)
{
	const struct nlattr *attr;
	uint16_t type;

	memset(tb, 0, (NLA_TABLE_MAX + 1) * sizeof(*tb));
	mnl_attr_for_each_nested(attr, nest) {
		type = mnl_attr_get_type(attr);
		if (type <= NLA_TABLE_MAX)
			tb[type] = attr;
	}
}

const struct nlattr *nla_top(const struct nlmsghdr *nlh, uint16_t type)
{
	const struct nlattr *attr;

	mnl_attr_for_each(attr, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(attr) == type)
			return attr;
	return NULL;
}

int nla_uint(const struct nlattr *attr, uint64_t *v)
{
	const void *p;
	uint32_t v32;
	uint16_t v16;

	*v = 0;
	if (!attr)
		return -1;
	p = mnl_attr_get_payload(attr);
	switch (mnl_attr_get_payload_len(attr)) {
	case 1:
		*v = *(const uint8_t *)p;
		return 0;
	case 2:
		memcpy(&v16, p, sizeof(v16));
		*v = v16;
		return 0;
	case 4:
		memcpy(&v32, p, sizeof(v32));
		*v = v32;
		return 0;
	case 8:
		memcpy(v, p, sizeof(*v));
		return 0;
	}
	return -1;
}

const char *nla_str(const struct nlattr *attr, char *buf, size_t size)
{
	const char *s;
	size_t len;

	if (!attr) {
		buf[0] = '\0';
		return buf;
	}
	s = mnl_attr_get_payload(attr);
	len = mnl_attr_get_payload_len(attr);
	if (!len || !memchr(s, '\0', len))
		return NULL;
	len = strlen(s);
	while (len && s[len - 1] == ' ')
		len--;
	if (len >= size)
		len = size - 1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	return buf;
}

const char *nla_ifname(uint32_t ifindex, char *buf, size_t size)
{
	char name[IF_NAMESIZE];

	if (!ifindex)
		snprintf(buf, size, "-");
	else if (if_indextoname(ifindex, name))
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "if%u", ifindex);
	return buf;
}

int nla_bad(const char *what)
{
	fprintf(stderr, "Error: the kernel sent a malformed %s\n", what);
	errno = EBADMSG;
	return MNL_CB_ERROR;
}

int nla_dump(struct smc_genl *g, uint8_t cmd, mnl_cb_t cb, void *data,
	     const char *what)
{
	char req[SMC_GENL_REQ_SIZE] __attribute__((aligned(4)));
	struct nlmsghdr *nlh;
	int err;

	nlh = smc_genl_msg(g, req, cmd, NLM_F_DUMP);
	err = smc_genl_talk(g, nlh, cb, data);
	if (!err)
		return 0;
	if (err == -EBADMSG)
		return 1;	/* the callback printed it */
	if (err == -EOPNOTSUPP)
		return smc_genl_error(g, 0,
				      "the running kernel cannot list %s (generic netlink command %u not supported)",
				      what, cmd);
	return smc_genl_error(g, err, "cannot read %s", what);
}
