// SPDX-License-Identifier: GPL-2.0
/*
 * smc-dummy-nl: create, change, read and delete smc-dummy links over
 * rtnetlink with exactly the attributes given, for kernel tests that need
 * to send what `ip` would refuse to (wrong sizes, unknown values).
 *
 *   smc-dummy-nl add NAME [ATTR]...     RTM_NEWLINK, NLM_F_CREATE|EXCL
 *   smc-dummy-nl set NAME [ATTR]...     RTM_NEWLINK on an existing link
 *   smc-dummy-nl get NAME               prints "mode M capture C snaplen S"
 *   smc-dummy-nl del NAME               RTM_DELLINK
 * ATTR: mode N | capture N | snaplen N (sizes as the uapi header says)
 *       raw TYPE HEXBYTES (any IFLA_INFO_DATA attribute, any size; "-" is
 *       an empty payload)
 *
 * On a kernel error it prints "error: STRERROR (errno N): EXTACK" on
 * stderr and exits 1; usage errors exit 2. When the extack points at an
 * attribute of the request (NLMSGERR_ATTR_OFFS), " (NAME)" follows, with
 * the attribute's policy if the kernel sent it (NLMSGERR_ATTR_POLICY):
 * " (NAME: u8 0..2)". NAME is IFLA_SMC_DUMMY_* inside IFLA_INFO_DATA,
 * else "attribute TYPE at offset OFF".
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <net/if.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/smc_dump.h>
#include <libmnl/libmnl.h>

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

static const char *kind = "smc-dummy";

static int usage(void)
{
	fprintf(stderr,
		"usage: smc-dummy-nl {add|set} NAME [mode N] [capture N] [snaplen N] [raw TYPE HEX]...\n"
		"       smc-dummy-nl {get|del} NAME\n");
	return 2;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int put_attrs(struct nlmsghdr *nlh, int argc, char **argv)
{
	struct nlattr *li, *data;

	li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
	mnl_attr_put_strz(nlh, IFLA_INFO_KIND, kind);
	data = mnl_attr_nest_start(nlh, IFLA_INFO_DATA);
	while (argc > 0) {
		if (argc < 2)
			return -1;
		if (!strcmp(argv[0], "mode")) {
			mnl_attr_put_u8(nlh, IFLA_SMC_DUMMY_MODE, strtoul(argv[1], NULL, 0));
		} else if (!strcmp(argv[0], "capture")) {
			mnl_attr_put_u8(nlh, IFLA_SMC_DUMMY_CAPTURE, strtoul(argv[1], NULL, 0));
		} else if (!strcmp(argv[0], "snaplen")) {
			mnl_attr_put_u32(nlh, IFLA_SMC_DUMMY_SNAPLEN, strtoul(argv[1], NULL, 0));
		} else if (!strcmp(argv[0], "raw") && argc >= 3) {
			unsigned char buf[256];
			const char *h = argv[2];
			size_t n = 0;

			if (strcmp(h, "-")) {
				for (; h[0] && h[1] && n < sizeof(buf); h += 2) {
					int hi = hexval(h[0]), lo = hexval(h[1]);

					if (hi < 0 || lo < 0)
						return -1;
					buf[n++] = hi << 4 | lo;
				}
				if (*h)
					return -1;
			}
			mnl_attr_put(nlh, strtoul(argv[1], NULL, 0), n, buf);
			argc--;
			argv++;
		} else {
			return -1;
		}
		argc -= 2;
		argv += 2;
	}
	mnl_attr_nest_end(nlh, data);
	mnl_attr_nest_end(nlh, li);
	return 0;
}

struct info {
	int mode, capture;
	long long snaplen;
	int has_kind;
};

static int data_cb(const struct nlattr *attr, void *arg)
{
	struct info *in = arg;

	switch (mnl_attr_get_type(attr)) {
	case IFLA_SMC_DUMMY_MODE:
		in->mode = mnl_attr_get_u8(attr);
		break;
	case IFLA_SMC_DUMMY_CAPTURE:
		in->capture = mnl_attr_get_u8(attr);
		break;
	case IFLA_SMC_DUMMY_SNAPLEN:
		in->snaplen = mnl_attr_get_u32(attr);
		break;
	}
	return MNL_CB_OK;
}

static int linkinfo_cb(const struct nlattr *attr, void *arg)
{
	struct info *in = arg;

	if (mnl_attr_get_type(attr) == IFLA_INFO_KIND)
		in->has_kind = !strcmp(mnl_attr_get_str(attr), kind);
	else if (mnl_attr_get_type(attr) == IFLA_INFO_DATA)
		mnl_attr_parse_nested(attr, data_cb, arg);
	return MNL_CB_OK;
}

static int link_cb(const struct nlattr *attr, void *arg)
{
	if (mnl_attr_get_type(attr) == IFLA_LINKINFO)
		mnl_attr_parse_nested(attr, linkinfo_cb, arg);
	return MNL_CB_OK;
}

static int msg_cb(const struct nlmsghdr *nlh, void *arg)
{
	return mnl_attr_parse(nlh, sizeof(struct ifinfomsg), link_cb, arg);
}

/* The attribute @off bytes into @req, if it starts one, in @head..@end */
static const struct nlattr *attr_at(const char *head, const char *end,
				    const struct nlmsghdr *req, uint32_t off)
{
	const char *want = (const char *)req + off;
	const struct nlattr *a;

	for (a = (const void *)head; mnl_attr_ok(a, end - (const char *)a);
	     a = mnl_attr_next(a)) {
		if ((const char *)a == want)
			return a;
	}
	return NULL;
}

/* An nlattr's payload as the start and end of an attribute stream */
#define NEST(a)	(const char *)mnl_attr_get_payload(a), \
		(const char *)mnl_attr_get_payload(a) + mnl_attr_get_payload_len(a)

/*
 * Name the attribute at @off of the request @req (echoed in the error):
 * an IFLA_SMC_DUMMY_* inside IFLA_LINKINFO/IFLA_INFO_DATA, or its type.
 */
static void name_attr(const struct nlmsghdr *req, uint32_t off, char *out,
		      size_t len)
{
	static const char * const names[] = {
		[IFLA_SMC_DUMMY_MODE]		= "IFLA_SMC_DUMMY_MODE",
		[IFLA_SMC_DUMMY_CAPTURE]	= "IFLA_SMC_DUMMY_CAPTURE",
		[IFLA_SMC_DUMMY_SNAPLEN]	= "IFLA_SMC_DUMMY_SNAPLEN",
	};
	const char *end = (const char *)req + req->nlmsg_len;
	const struct nlattr *a, *li = NULL, *data = NULL, *hit;
	unsigned int type;

	mnl_attr_for_each(a, req, sizeof(struct ifinfomsg))
		if (mnl_attr_get_type(a) == IFLA_LINKINFO)
			li = a;
	if (li) {
		mnl_attr_for_each_nested(a, li)
			if (mnl_attr_get_type(a) == IFLA_INFO_DATA)
				data = a;
	}
	if (data && (hit = attr_at(NEST(data), req, off))) {
		type = mnl_attr_get_type(hit);
		if (type < sizeof(names) / sizeof(names[0]) && names[type])
			snprintf(out, len, "%s", names[type]);
		else
			snprintf(out, len, "IFLA_INFO_DATA attribute %u", type);
		return;
	}
	hit = attr_at(mnl_nlmsg_get_payload_offset(req, sizeof(struct ifinfomsg)),
		      end, req, off);
	if (hit)
		snprintf(out, len, "attribute %u at offset %u",
			 mnl_attr_get_type(hit), off);
	else
		snprintf(out, len, "offset %u", off);
}

/* ": u8 0..2" from an NLMSGERR_ATTR_POLICY, or "" */
static void describe_policy(const struct nlattr *pol, char *out, size_t len)
{
	static const char * const types[] = {
		[NL_ATTR_TYPE_U8]	= "u8",
		[NL_ATTR_TYPE_U16]	= "u16",
		[NL_ATTR_TYPE_U32]	= "u32",
		[NL_ATTR_TYPE_U64]	= "u64",
	};
	const char *type = NULL;
	unsigned long long min = 0, max = 0;
	int have_range = 0;
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, pol) {
		switch (mnl_attr_get_type(a)) {
		case NL_POLICY_TYPE_ATTR_TYPE:
			if (mnl_attr_get_payload_len(a) == 4 &&
			    mnl_attr_get_u32(a) < sizeof(types) / sizeof(types[0]))
				type = types[mnl_attr_get_u32(a)];
			break;
		case NL_POLICY_TYPE_ATTR_MIN_VALUE_U:
			if (mnl_attr_get_payload_len(a) == 8) {
				min = mnl_attr_get_u64(a);
				have_range |= 1;
			}
			break;
		case NL_POLICY_TYPE_ATTR_MAX_VALUE_U:
			if (mnl_attr_get_payload_len(a) == 8) {
				max = mnl_attr_get_u64(a);
				have_range |= 2;
			}
			break;
		}
	}
	out[0] = 0;
	if (!type)
		return;
	if (have_range == 3)
		snprintf(out, len, ": %s %llu..%llu", type, min, max);
	else
		snprintf(out, len, ": %s", type);
}

/*
 * Print the kernel's error with its extack message, if any, and the
 * attribute the extack points at, with its policy.
 */
static void print_error(const struct nlmsghdr *nlh)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	const char *msg = "";
	const struct nlattr *a, *pol = NULL;
	char name[64] = "", policy[64] = "";
	long long off = -1;

	if (nlh->nlmsg_flags & NLM_F_ACK_TLVS) {
		size_t skip = sizeof(*err);

		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			skip += err->msg.nlmsg_len - sizeof(struct nlmsghdr);
		mnl_attr_for_each(a, nlh, skip) {
			switch (mnl_attr_get_type(a)) {
			case NLMSGERR_ATTR_MSG:
				msg = mnl_attr_get_str(a);
				break;
			case NLMSGERR_ATTR_OFFS:
				off = mnl_attr_get_u32(a);
				break;
			case NLMSGERR_ATTR_POLICY:
				pol = a;
				break;
			}
		}
	}
	/* the offset is into the request, which the error echoes uncapped */
	if (off >= 0 && !(nlh->nlmsg_flags & NLM_F_CAPPED) &&
	    off < err->msg.nlmsg_len) {
		name_attr(&err->msg, off, name, sizeof(name));
		if (pol)
			describe_policy(pol, policy, sizeof(policy));
	}
	fprintf(stderr, "error: %s (errno %d): %s", strerror(-err->error),
		-err->error, msg);
	if (name[0])
		fprintf(stderr, " (%s%s)", name, policy);
	fprintf(stderr, "\n");
}

int main(int argc, char **argv)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct info in = { -1, -1, -1, 0 };
	struct mnl_socket *nl;
	struct nlmsghdr *nlh;
	struct ifinfomsg *ifm;
	unsigned int seq = time(NULL);
	const char *cmd, *name;
	int one = 1, ret;

	if (argc < 3)
		return usage();
	cmd = argv[1];
	name = argv[2];
	nlh = mnl_nlmsg_put_header(buf);
	nlh->nlmsg_seq = seq;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_family = AF_UNSPEC;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	if (!strcmp(cmd, "add") || !strcmp(cmd, "set")) {
		nlh->nlmsg_type = RTM_NEWLINK;
		if (!strcmp(cmd, "add"))
			nlh->nlmsg_flags |= NLM_F_CREATE | NLM_F_EXCL;
		if (put_attrs(nlh, argc - 3, argv + 3))
			return usage();
	} else if (!strcmp(cmd, "del")) {
		nlh->nlmsg_type = RTM_DELLINK;
	} else if (!strcmp(cmd, "get")) {
		nlh->nlmsg_type = RTM_GETLINK;
		nlh->nlmsg_flags = NLM_F_REQUEST;
	} else {
		return usage();
	}

	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("netlink");
		return 1;
	}
	mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		perror("sendto");
		return 1;
	}
	ret = mnl_socket_recvfrom(nl, buf, sizeof(buf));
	if (ret < 0) {
		perror("recvfrom");
		return 1;
	}
	nlh = (struct nlmsghdr *)buf;
	if (nlh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);

		if (err->error) {
			print_error(nlh);
			return 1;
		}
		return 0;
	}
	if (mnl_cb_run(buf, ret, seq, mnl_socket_get_portid(nl), msg_cb, &in) < 0) {
		perror("parse");
		return 1;
	}
	if (!in.has_kind) {
		fprintf(stderr, "error: %s is no smc-dummy link\n", name);
		return 1;
	}
	printf("mode %d capture %d snaplen %lld\n", in.mode, in.capture, in.snaplen);
	mnl_socket_close(nl);
	return 0;
}
