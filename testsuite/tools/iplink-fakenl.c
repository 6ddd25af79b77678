// SPDX-License-Identifier: GPL-2.0
/*
 * iplink-fakenl: replay rtnetlink replies to an unmodified `ip`, record its
 * requests, so that the host tests run the real ip (built, or Debian's with
 * the plugin) on smc-dummy links the host kernel does not have.
 *
 * One source, two builds:
 *
 * 1. The program (testsuite/tools/Makefile builds it):
 *
 *    iplink-fakenl newlink NAME INDEX [kind KIND [data [ATTR]...]]
 *	writes one RTM_NEWLINK message to stdout, as the kernel sends for
 *	`ip link show`: ifinfomsg (Ethernet, INDEX, UP), IFLA_IFNAME,
 *	IFLA_TXQLEN 1000, IFLA_MTU 1500, IFLA_ADDRESS 02:00:00:00:00:INDEX,
 *	IFLA_BROADCAST and, with kind, IFLA_LINKINFO with IFLA_INFO_KIND;
 *	with data, IFLA_INFO_DATA holding the ATTRs exactly as given:
 *	    u8 TYPE VALUE | u16 TYPE VALUE | u32 TYPE VALUE | hex TYPE HEX
 *	Messages appended to one file make a dump. The file is also what
 *	`ip monitor file FILE` reads.
 *
 *    iplink-fakenl decode FILE
 *	prints the RTM_NEWLINK and RTM_DELLINK requests recorded in FILE
 *	(see FAKENL_LOG) that name a link, one line each:
 *	    newlink [create] [excl] [index N] [name NAME] [kind KIND]
 *	followed by one line per IFLA_INFO_DATA attribute:
 *	    data TYPE u8|u16|u32 VALUE     (payload of 1, 2 or 4 bytes)
 *	    data TYPE hex HEX              (any other size)
 *	and "data none" for an IFLA_INFO_DATA without attributes.
 *
 * 2. The preload (cc -shared -fPIC -DIPLINK_FAKENL_PRELOAD), for
 *    LD_PRELOAD: NETLINK_ROUTE sockets are real (bind and getsockname
 *    work) but nothing sent on them reaches the kernel; the answers come
 *    from here:
 *	RTM_GETLINK dump	the messages of FAKENL_REPLY, then NLMSG_DONE
 *	RTM_GETLINK		the message of FAKENL_REPLY with the index or
 *				IFLA_IFNAME asked for (and an ACK when
 *				NLM_F_ACK asks for one), else error ENODEV
 *	other dumps		NLMSG_DONE
 *	anything else		an ACK (error 0)
 *    With FAKENL_STATE=FILE instead of FAKENL_REPLY, FILE (may be absent)
 *    holds the links and changes: RTM_NEWLINK creates (a new smc-dummy
 *    link gets mode 0 capture 0 snaplen 0, as the patched kernel) or
 *    changes a link (the IFLA_INFO_DATA attributes given replace those of
 *    the same type), RTM_DELLINK deletes it, with the kernel's ENODEV,
 *    EEXIST and EOPNOTSUPP. Enough to dry-run testsuite/vm/iplink.bats
 *    on the host; it says nothing about the kernel.
 *    With FAKENL_STATS=FILE, every smc-dummy link in an answer carries
 *    IFLA_STATS64 with tx_packets, tx_bytes and tx_dropped read from FILE
 *    ("N N N") at that moment: a test changes the counters under a
 *    running `smc dump start`.
 *    Every request is appended to the file FAKENL_LOG, if set, and traced
 *    on stderr if FAKENL_DEBUG is set. A receive with nothing queued fails
 *    with EIO instead of blocking.
 *
 * Bad arguments exit with status 2, unreadable files with 1.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <linux/if_arp.h>
#include <linux/if_ether.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

/* Read a whole file; NULL on error */
static unsigned char *read_file(const char *path, size_t *len)
{
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0, r;
	FILE *f = fopen(path, "rb");

	if (!f)
		return NULL;
	do {
		if (n == cap) {
			unsigned char *nb;

			cap = cap ? 2 * cap : 4096;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nb;
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
	} while (r > 0);
	fclose(f);
	*len = n;
	return buf;
}

/* The attribute @type directly inside [@attr, @attr + @len), or NULL */
static struct rtattr *find_attr(struct rtattr *attr, int len, int type)
{
	for (; RTA_OK(attr, len); attr = RTA_NEXT(attr, len))
		if ((attr->rta_type & NLA_TYPE_MASK) == type)
			return attr;
	return NULL;
}

static struct rtattr *link_attrs(struct nlmsghdr *h, int *len)
{
	struct ifinfomsg *ifi = NLMSG_DATA(h);

	*len = h->nlmsg_len - NLMSG_LENGTH(sizeof(*ifi));
	return IFLA_RTA(ifi);
}

struct msg {
	union {
		struct nlmsghdr h;
		unsigned char buf[8192];
	};
};

static struct rtattr *put(struct msg *m, int type, const void *data,
			  size_t len)
{
	struct rtattr *rta;

	if (NLMSG_ALIGN(m->h.nlmsg_len) + RTA_SPACE(len) > sizeof(m->buf)) {
		fprintf(stderr, "iplink-fakenl: message too long\n");
		exit(99);
	}
	rta = (struct rtattr *)(m->buf + NLMSG_ALIGN(m->h.nlmsg_len));
	rta->rta_type = type;
	rta->rta_len = RTA_LENGTH(len);
	if (len)
		memcpy(RTA_DATA(rta), data, len);
	m->h.nlmsg_len = NLMSG_ALIGN(m->h.nlmsg_len) + RTA_SPACE(len);
	return rta;
}

static void nest_end(struct msg *m, struct rtattr *nest)
{
	nest->rta_len = m->buf + m->h.nlmsg_len - (unsigned char *)nest;
}

/* An RTM_NEWLINK as the kernel sends it for `ip link show`, without
 * IFLA_LINKINFO: that is up to the caller.
 */
static void start_link(struct msg *m, const char *name, int index)
{
	struct ifinfomsg *ifi;
	__u32 mtu = 1500, txqlen = 1000;
	unsigned char addr[ETH_ALEN] = { 0x02, 0, 0, 0, 0, index & 0xff };
	unsigned char bcast[ETH_ALEN] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

	memset(m, 0, sizeof(*m));
	m->h.nlmsg_len = NLMSG_LENGTH(sizeof(*ifi));
	m->h.nlmsg_type = RTM_NEWLINK;
	ifi = NLMSG_DATA(&m->h);
	ifi->ifi_family = AF_UNSPEC;
	ifi->ifi_type = ARPHRD_ETHER;
	ifi->ifi_index = index;
	ifi->ifi_flags = IFF_UP | IFF_BROADCAST | IFF_NOARP | IFF_RUNNING |
			 IFF_LOWER_UP;
	put(m, IFLA_IFNAME, name, strlen(name) + 1);
	put(m, IFLA_TXQLEN, &txqlen, sizeof(txqlen));
	put(m, IFLA_MTU, &mtu, sizeof(mtu));
	put(m, IFLA_ADDRESS, addr, sizeof(addr));
	put(m, IFLA_BROADCAST, bcast, sizeof(bcast));
}

#ifdef IPLINK_FAKENL_PRELOAD

#include <dlfcn.h>

struct dgram {
	struct dgram *next;
	size_t len;
	unsigned char data[];
};

struct fake {
	int fd;			/* -1: slot free */
	struct dgram *head, *tail;
};

#define MAX_FAKES 32
static struct fake fakes[MAX_FAKES] = { [0 ... MAX_FAKES - 1] = { .fd = -1 } };

static unsigned char *replies;
static size_t replies_len;
static bool replies_read;
static const char *state_path;	/* FAKENL_STATE: the replies change */

#define REAL(name) \
	static __typeof__(name) *real_##name; \
	if (!real_##name) \
		real_##name = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

static void die(const char *msg)
{
	fprintf(stderr, "iplink-fakenl: %s\n", msg);
	exit(99);
}

static struct fake *fake_get(int fd)
{
	int i;

	if (fd < 0)
		return NULL;
	for (i = 0; i < MAX_FAKES; i++)
		if (fakes[i].fd == fd)
			return &fakes[i];
	return NULL;
}

static void fake_drop(struct fake *f)
{
	struct dgram *d, *next;

	for (d = f->head; d; d = next) {
		next = d->next;
		free(d);
	}
	f->head = f->tail = NULL;
	f->fd = -1;
}

int socket(int domain, int type, int protocol)
{
	REAL(socket);
	int fd = real_socket(domain, type, protocol);
	int i;

	if (fd < 0 || domain != AF_NETLINK || protocol != NETLINK_ROUTE)
		return fd;
	for (i = 0; i < MAX_FAKES; i++)
		if (fakes[i].fd < 0) {
			fakes[i].fd = fd;
			return fd;
		}
	die("too many netlink sockets");
	return -1;
}

int close(int fd)
{
	REAL(close);
	struct fake *f = fake_get(fd);

	if (f)
		fake_drop(f);
	return real_close(fd);
}

static void queue(struct fake *f, const void *data, size_t len)
{
	struct dgram *d = malloc(sizeof(*d) + len);

	if (!d)
		die("out of memory");
	d->next = NULL;
	d->len = len;
	memcpy(d->data, data, len);
	if (f->tail)
		f->tail->next = d;
	else
		f->head = d;
	f->tail = d;
}

static __u32 port_id(struct fake *f)
{
	struct sockaddr_nl sa;
	socklen_t salen = sizeof(sa);

	if (getsockname(f->fd, (struct sockaddr *)&sa, &salen) < 0)
		die("getsockname on a netlink socket failed");
	return sa.nl_pid;
}

static void linkinfo_of(struct nlmsghdr *h, struct rtattr **kind,
			struct rtattr **data);

/* FAKENL_STATS: the counters of every smc-dummy link, read afresh for
 * each answer from the file's "TX_PACKETS TX_BYTES TX_DROPPED"; false
 * when not set or for another link
 */
static bool stats_of(struct nlmsghdr *c, struct rtnl_link_stats64 *st)
{
	const char *path = getenv("FAKENL_STATS");
	unsigned long long p, b, d;
	struct rtattr *kind, *data;
	FILE *f;
	int n;

	if (!path || c->nlmsg_type != RTM_NEWLINK)
		return false;
	linkinfo_of(c, &kind, &data);
	if (!kind || strcmp(RTA_DATA(kind), "smc-dummy"))
		return false;
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fscanf(f, "%llu %llu %llu", &p, &b, &d);
	fclose(f);
	if (n != 3)
		return false;
	memset(st, 0, sizeof(*st));
	st->tx_packets = p;
	st->tx_bytes = b;
	st->tx_dropped = d;
	return true;
}

/* Queue canned message @c as the answer to request @req */
static void queue_reply(struct fake *f, const struct nlmsghdr *req,
			const struct nlmsghdr *c, __u16 flags)
{
	static struct msg m;
	struct rtnl_link_stats64 st;

	if (c->nlmsg_len > sizeof(m.buf))
		die("message too long");
	memcpy(m.buf, c, c->nlmsg_len);
	if (stats_of(&m.h, &st))
		put(&m, IFLA_STATS64, &st, sizeof(st));
	m.h.nlmsg_seq = req->nlmsg_seq;
	m.h.nlmsg_pid = port_id(f);
	m.h.nlmsg_flags = flags;
	queue(f, m.buf, m.h.nlmsg_len);
}

static void queue_done(struct fake *f, const struct nlmsghdr *req)
{
	struct {
		struct nlmsghdr h;
		int error;
	} done = {
		.h.nlmsg_len = NLMSG_LENGTH(sizeof(int)),
		.h.nlmsg_type = NLMSG_DONE,
		.h.nlmsg_flags = NLM_F_MULTI,
		.h.nlmsg_seq = req->nlmsg_seq,
		.h.nlmsg_pid = port_id(f),
	};

	queue(f, &done, done.h.nlmsg_len);
}

static void queue_error(struct fake *f, const struct nlmsghdr *req, int error)
{
	struct {
		struct nlmsghdr h;
		struct nlmsgerr err;
	} ack = {
		.h.nlmsg_len = NLMSG_LENGTH(sizeof(struct nlmsgerr)),
		.h.nlmsg_type = NLMSG_ERROR,
		.h.nlmsg_flags = error ? 0 : NLM_F_CAPPED,
		.h.nlmsg_seq = req->nlmsg_seq,
		.h.nlmsg_pid = port_id(f),
		.err.error = error,
		.err.msg = *req,
	};

	queue(f, &ack, ack.h.nlmsg_len);
}

static void load_replies(void)
{
	const char *path;

	if (replies_read)
		return;
	replies_read = true;
	state_path = getenv("FAKENL_STATE");
	path = state_path ? state_path : getenv("FAKENL_REPLY");
	if (!path)
		return;
	replies = read_file(path, &replies_len);
	if (!replies && !(state_path && errno == ENOENT))
		die("cannot read FAKENL_REPLY or FAKENL_STATE");
}

/* The link that @req names by index or IFLA_IFNAME, or NULL */
static struct nlmsghdr *find_link(struct nlmsghdr *req)
{
	struct ifinfomsg *want = NLMSG_DATA(req);
	struct rtattr *attrs, *name_attr;
	struct nlmsghdr *c;
	int len, clen = replies_len;

	attrs = link_attrs(req, &len);
	name_attr = find_attr(attrs, len, IFLA_IFNAME);
	for (c = (struct nlmsghdr *)replies; NLMSG_OK(c, clen);
	     c = NLMSG_NEXT(c, clen)) {
		struct ifinfomsg *ifi = NLMSG_DATA(c);
		struct rtattr *cname;
		int alen;

		if (c->nlmsg_type != RTM_NEWLINK)
			continue;
		if (want->ifi_index) {
			if (ifi->ifi_index == want->ifi_index)
				return c;
			continue;
		}
		attrs = link_attrs(c, &alen);
		cname = find_attr(attrs, alen, IFLA_IFNAME);
		if (name_attr && cname &&
		    strcmp(RTA_DATA(name_attr), RTA_DATA(cname)) == 0)
			return c;
	}
	return NULL;
}

/*
 * FAKENL_STATE: a stateful fake of the links, enough for `ip link add`,
 * `set`, `del` and `show` on the file's links. A new smc-dummy link gets
 * the defaults of the patched kernel (mode 0, capture 0, snaplen 0); a
 * change replaces the IFLA_INFO_DATA attributes it carries and keeps the
 * others, which the link reports sorted by type.
 */
struct attr_ref {
	int type;
	const void *data;
	int len;
};

#define MAX_ATTRS 32

static int refs_add(struct attr_ref *refs, int n, struct rtattr *data)
{
	struct rtattr *a;
	int len, i;

	if (!data)
		return n;
	len = RTA_PAYLOAD(data);
	for (a = RTA_DATA(data); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		int type = a->rta_type & NLA_TYPE_MASK;

		for (i = 0; i < n && refs[i].type != type; i++)
			;
		if (i == MAX_ATTRS)
			die("too many attributes");
		refs[i].type = type;
		refs[i].data = RTA_DATA(a);
		refs[i].len = RTA_PAYLOAD(a);
		if (i == n)
			n++;
	}
	return n;
}

static void linkinfo_of(struct nlmsghdr *h, struct rtattr **kind,
			struct rtattr **data)
{
	struct rtattr *attrs, *linkinfo;
	int len;

	*kind = *data = NULL;
	attrs = link_attrs(h, &len);
	linkinfo = find_attr(attrs, len, IFLA_LINKINFO);
	if (!linkinfo)
		return;
	*kind = find_attr(RTA_DATA(linkinfo), RTA_PAYLOAD(linkinfo),
			  IFLA_INFO_KIND);
	*data = find_attr(RTA_DATA(linkinfo), RTA_PAYLOAD(linkinfo),
			  IFLA_INFO_DATA);
}

/* Build link @name, @index of @kind with @refs into @m */
static void build_link(struct msg *m, const char *name, int index,
		       const char *kind, struct attr_ref *refs, int n,
		       bool with_data)
{
	struct rtattr *linkinfo, *data;
	struct attr_ref t;
	int i, j;

	/* by type, as a kernel's fill_info puts them */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && refs[j - 1].type > refs[j].type; j--) {
			t = refs[j];
			refs[j] = refs[j - 1];
			refs[j - 1] = t;
		}
	start_link(m, name, index);
	if (!kind)
		return;
	linkinfo = put(m, IFLA_LINKINFO | NLA_F_NESTED, NULL, 0);
	put(m, IFLA_INFO_KIND, kind, strlen(kind) + 1);
	if (with_data) {
		data = put(m, IFLA_INFO_DATA | NLA_F_NESTED, NULL, 0);
		for (i = 0; i < n; i++)
			put(m, refs[i].type, refs[i].data, refs[i].len);
		nest_end(m, data);
	}
	nest_end(m, linkinfo);
}

static void state_save(void)
{
	char tmp[4096];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.tmp", state_path);
	f = fopen(tmp, "wb");
	if (!f || fwrite(replies, 1, replies_len, f) != replies_len ||
	    fclose(f) || rename(tmp, state_path))
		die("cannot write FAKENL_STATE");
}

/* Put @m in place of the @old_len bytes at @off */
static void state_splice(size_t off, size_t old_len, const struct msg *m)
{
	size_t new_len = m ? NLMSG_ALIGN(m->h.nlmsg_len) : 0;
	unsigned char *nb = malloc(replies_len - old_len + new_len + 1);

	if (!nb)
		die("out of memory");
	memcpy(nb, replies, off);
	if (m)
		memcpy(nb + off, m->buf, new_len);
	memcpy(nb + off + new_len, replies + off + old_len,
	       replies_len - off - old_len);
	free(replies);
	replies = nb;
	replies_len = replies_len - old_len + new_len;
	state_save();
}

/* The error (0 or -errno) the kernel would give @h */
static int state_change(struct nlmsghdr *h)
{
	static const __u8 zero8;
	static const __u32 zero32;
	static struct msg m;
	struct nlmsghdr *c = find_link(h);
	struct rtattr *kind, *data, *ckind, *cdata, *attrs, *name;
	struct attr_ref refs[MAX_ATTRS];
	int n = 0, index = 0, len;
	size_t off;

	linkinfo_of(h, &kind, &data);
	if (h->nlmsg_type == RTM_DELLINK) {
		if (!c)
			return -ENODEV;
		state_splice((unsigned char *)c - replies,
			     NLMSG_ALIGN(c->nlmsg_len), NULL);
		return 0;
	}
	if (!c) {
		struct nlmsghdr *o;
		int olen = replies_len;

		attrs = link_attrs(h, &len);
		name = find_attr(attrs, len, IFLA_IFNAME);
		if (!(h->nlmsg_flags & NLM_F_CREATE) || !name)
			return -ENODEV;
		if (!kind)
			return -EOPNOTSUPP;
		for (o = (struct nlmsghdr *)replies; NLMSG_OK(o, olen);
		     o = NLMSG_NEXT(o, olen)) {
			struct ifinfomsg *ifi = NLMSG_DATA(o);

			if (ifi->ifi_index > index)
				index = ifi->ifi_index;
		}
		if (strcmp(RTA_DATA(kind), "smc-dummy") == 0) {
			refs[0] = (struct attr_ref){ 1, &zero8, 1 };
			refs[1] = (struct attr_ref){ 2, &zero8, 1 };
			refs[2] = (struct attr_ref){ 3, &zero32, 4 };
			n = 3;
		}
		n = refs_add(refs, n, data);
		build_link(&m, RTA_DATA(name), index < 10 ? 10 : index + 1,
			   RTA_DATA(kind), refs, n, n > 0);
		state_splice(replies_len, 0, &m);
		return 0;
	}
	if ((h->nlmsg_flags & (NLM_F_CREATE | NLM_F_EXCL)) ==
	    (NLM_F_CREATE | NLM_F_EXCL))
		return -EEXIST;
	linkinfo_of(c, &ckind, &cdata);
	if (kind && (!ckind || strcmp(RTA_DATA(kind), RTA_DATA(ckind))))
		return -EOPNOTSUPP;
	if (!data)
		return 0;
	n = refs_add(refs, 0, cdata);
	n = refs_add(refs, n, data);
	attrs = link_attrs(c, &len);
	name = find_attr(attrs, len, IFLA_IFNAME);
	off = (unsigned char *)c - replies;
	build_link(&m, RTA_DATA(name),
		   ((struct ifinfomsg *)NLMSG_DATA(c))->ifi_index,
		   RTA_DATA(ckind), refs, n, true);
	state_splice(off, NLMSG_ALIGN(c->nlmsg_len), &m);
	return 0;
}

static void log_request(const struct nlmsghdr *h)
{
	const char *path = getenv("FAKENL_LOG");
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "ab");
	if (!f || fwrite(h, 1, h->nlmsg_len, f) != h->nlmsg_len)
		die("cannot write FAKENL_LOG");
	fclose(f);
}

static void answer(struct fake *f, unsigned char *buf, size_t len)
{
	struct nlmsghdr *h;
	int rest = len;

	load_replies();
	for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, rest);
	     h = NLMSG_NEXT(h, rest)) {
		if (getenv("FAKENL_DEBUG"))
			fprintf(stderr, "iplink-fakenl: fd %d request type %u flags 0x%x seq %u len %u\n",
				f->fd, h->nlmsg_type, h->nlmsg_flags,
				h->nlmsg_seq, h->nlmsg_len);
		log_request(h);
		if (h->nlmsg_type == RTM_GETLINK &&
		    (h->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP) {
			struct nlmsghdr *c;
			int clen = replies_len;

			for (c = (struct nlmsghdr *)replies; NLMSG_OK(c, clen);
			     c = NLMSG_NEXT(c, clen))
				queue_reply(f, h, c, NLM_F_MULTI);
			queue_done(f, h);
		} else if (h->nlmsg_type == RTM_GETLINK) {
			struct nlmsghdr *c = find_link(h);

			if (c) {
				queue_reply(f, h, c, 0);
				/* as the kernel: the ack asked for follows */
				if (h->nlmsg_flags & NLM_F_ACK)
					queue_error(f, h, 0);
			} else
				queue_error(f, h, -ENODEV);
		} else if (h->nlmsg_type >= RTM_BASE &&
			   (h->nlmsg_type & 3) == 2 &&	/* RTM_GET* */
			   (h->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP) {
			/* NLM_F_DUMP shares bits with NLM_F_EXCL of RTM_NEW* */
			queue_done(f, h);
		} else if (state_path && (h->nlmsg_type == RTM_NEWLINK ||
					  h->nlmsg_type == RTM_DELLINK)) {
			queue_error(f, h, state_change(h));
		} else {
			queue_error(f, h, 0);
		}
	}
}

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags)
{
	REAL(sendmsg);
	struct fake *f = fake_get(fd);
	unsigned char *buf;
	size_t len = 0, i;

	if (!f)
		return real_sendmsg(fd, msg, flags);
	for (i = 0; i < msg->msg_iovlen; i++)
		len += msg->msg_iov[i].iov_len;
	buf = malloc(len ? len : 1);
	if (!buf)
		die("out of memory");
	len = 0;
	for (i = 0; i < msg->msg_iovlen; i++) {
		memcpy(buf + len, msg->msg_iov[i].iov_base,
		       msg->msg_iov[i].iov_len);
		len += msg->msg_iov[i].iov_len;
	}
	answer(f, buf, len);
	free(buf);
	return len;
}

ssize_t sendto(int fd, const void *buf, size_t len, int flags,
	       const struct sockaddr *addr, socklen_t addrlen)
{
	REAL(sendto);
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	if (!fake_get(fd))
		return real_sendto(fd, buf, len, flags, addr, addrlen);
	return sendmsg(fd, &msg, flags);
}

ssize_t send(int fd, const void *buf, size_t len, int flags)
{
	return sendto(fd, buf, len, flags, NULL, 0);
}

ssize_t recvmsg(int fd, struct msghdr *msg, int flags)
{
	REAL(recvmsg);
	struct fake *f = fake_get(fd);
	struct dgram *d;
	size_t copied = 0, i;
	ssize_t ret;

	if (!f)
		return real_recvmsg(fd, msg, flags);
	d = f->head;
	if (!d) {
		fprintf(stderr, "iplink-fakenl: receive with no answer queued\n");
		errno = EIO;
		return -1;
	}
	for (i = 0; i < msg->msg_iovlen && copied < d->len; i++) {
		size_t n = msg->msg_iov[i].iov_len;

		if (n > d->len - copied)
			n = d->len - copied;
		memcpy(msg->msg_iov[i].iov_base, d->data + copied, n);
		copied += n;
	}
	if (msg->msg_name && msg->msg_namelen >= sizeof(struct sockaddr_nl)) {
		struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

		memcpy(msg->msg_name, &kernel, sizeof(kernel));
		msg->msg_namelen = sizeof(kernel);
	}
	msg->msg_controllen = 0;
	msg->msg_flags = copied < d->len ? MSG_TRUNC : 0;
	ret = (flags & MSG_TRUNC) ? d->len : copied;
	if (!(flags & MSG_PEEK)) {
		f->head = d->next;
		if (!f->head)
			f->tail = NULL;
		free(d);
	}
	return ret;
}

ssize_t recvfrom(int fd, void *buf, size_t len, int flags,
		 struct sockaddr *addr, socklen_t *addrlen)
{
	REAL(recvfrom);
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_name = addr,
		.msg_namelen = addrlen ? *addrlen : 0,
	};
	ssize_t r;

	if (!fake_get(fd))
		return real_recvfrom(fd, buf, len, flags, addr, addrlen);
	r = recvmsg(fd, &msg, flags);
	if (r >= 0 && addrlen)
		*addrlen = msg.msg_namelen;
	return r;
}

ssize_t recv(int fd, void *buf, size_t len, int flags)
{
	return recvfrom(fd, buf, len, flags, NULL, NULL);
}

#else /* the program */

static int usage(void)
{
	fprintf(stderr,
		"usage: iplink-fakenl newlink NAME INDEX [kind KIND [data [{u8|u16|u32} TYPE VALUE | hex TYPE HEX]...]]\n"
		"       iplink-fakenl decode FILE\n");
	return 2;
}

static int number(const char *arg, unsigned long max, unsigned long *val)
{
	char *end;

	errno = 0;
	*val = strtoul(arg, &end, 0);
	if (errno || end == arg || *end || *val > max || arg[0] == '-') {
		fprintf(stderr, "iplink-fakenl: bad number \"%s\"\n", arg);
		return -1;
	}
	return 0;
}

static int do_newlink(int argc, char **argv)
{
	static struct msg m;
	struct rtattr *linkinfo = NULL, *data = NULL;
	unsigned long index, type, val;

	if (argc < 2 || strlen(argv[0]) >= IFNAMSIZ ||
	    number(argv[1], INT32_MAX, &index))
		return usage();
	start_link(&m, argv[0], index);
	argc -= 2;
	argv += 2;

	if (argc >= 2 && strcmp(argv[0], "kind") == 0) {
		linkinfo = put(&m, IFLA_LINKINFO | NLA_F_NESTED, NULL, 0);
		put(&m, IFLA_INFO_KIND, argv[1], strlen(argv[1]) + 1);
		argc -= 2;
		argv += 2;
		if (argc >= 1 && strcmp(argv[0], "data") == 0) {
			data = put(&m, IFLA_INFO_DATA | NLA_F_NESTED, NULL, 0);
			argc--;
			argv++;
		}
	}
	while (data && argc >= 3) {
		const char *kind = argv[0];

		if (number(argv[1], NLA_TYPE_MASK, &type))
			return usage();
		if (strcmp(kind, "u8") == 0 || strcmp(kind, "u16") == 0 ||
		    strcmp(kind, "u32") == 0) {
			int size = kind[1] == '8' ? 1 : kind[1] == '1' ? 2 : 4;
			__u8 v8;
			__u16 v16;
			__u32 v32;

			if (number(argv[2], size == 4 ? UINT32_MAX :
				   size == 2 ? UINT16_MAX : UINT8_MAX, &val))
				return usage();
			v8 = val;
			v16 = val;
			v32 = val;
			put(&m, type, size == 1 ? (void *)&v8 : size == 2 ?
			    (void *)&v16 : (void *)&v32, size);
		} else if (strcmp(kind, "hex") == 0) {
			unsigned char bytes[256];
			size_t n = 0;
			const char *p = argv[2];

			if (strcmp(p, "-") != 0) {
				for (; p[0] && p[1] && n < sizeof(bytes); p += 2) {
					unsigned int b;

					if (sscanf(p, "%2x", &b) != 1)
						return usage();
					bytes[n++] = b;
				}
				if (*p)
					return usage();
			}
			put(&m, type, bytes, n);
		} else {
			return usage();
		}
		argc -= 3;
		argv += 3;
	}
	if (argc)
		return usage();
	if (data)
		nest_end(&m, data);
	if (linkinfo)
		nest_end(&m, linkinfo);
	if (fwrite(m.buf, 1, m.h.nlmsg_len, stdout) != m.h.nlmsg_len ||
	    fflush(stdout))
		return 1;
	return 0;
}

static void decode_data(struct rtattr *data)
{
	struct rtattr *a;
	int len = RTA_PAYLOAD(data);
	bool any = false;

	for (a = RTA_DATA(data); RTA_OK(a, len); a = RTA_NEXT(a, len)) {
		unsigned char *p = RTA_DATA(a);
		int n = RTA_PAYLOAD(a), i;
		int type = a->rta_type & NLA_TYPE_MASK;

		any = true;
		if (n == 1) {
			printf("data %d u8 %u\n", type, *p);
		} else if (n == 2) {
			__u16 v;

			memcpy(&v, p, 2);
			printf("data %d u16 %u\n", type, v);
		} else if (n == 4) {
			__u32 v;

			memcpy(&v, p, 4);
			printf("data %d u32 %u\n", type, v);
		} else {
			printf("data %d hex ", type);
			for (i = 0; i < n; i++)
				printf("%02x", p[i]);
			printf("%s\n", n ? "" : "-");
		}
	}
	if (!any)
		printf("data none\n");
}

static int do_decode(int argc, char **argv)
{
	unsigned char *buf;
	struct nlmsghdr *h;
	size_t size;
	int rest;

	if (argc != 1)
		return usage();
	buf = read_file(argv[0], &size);
	if (!buf) {
		perror(argv[0]);
		return 1;
	}
	rest = size;
	for (h = (struct nlmsghdr *)buf; NLMSG_OK(h, rest);
	     h = NLMSG_NEXT(h, rest)) {
		struct ifinfomsg *ifi = NLMSG_DATA(h);
		struct rtattr *attrs, *name, *linkinfo, *kind = NULL;
		struct rtattr *data = NULL;
		int len;

		if (h->nlmsg_type != RTM_NEWLINK && h->nlmsg_type != RTM_DELLINK)
			continue;
		attrs = link_attrs(h, &len);
		name = find_attr(attrs, len, IFLA_IFNAME);
		linkinfo = find_attr(attrs, len, IFLA_LINKINFO);
		if (!ifi->ifi_index && !name && !linkinfo)
			continue;	/* ip's probe for RTM_NEWLINK support */
		printf("%s", h->nlmsg_type == RTM_NEWLINK ? "newlink" : "dellink");
		if (h->nlmsg_flags & NLM_F_CREATE)
			printf(" create");
		if (h->nlmsg_flags & NLM_F_EXCL)
			printf(" excl");
		if (ifi->ifi_index)
			printf(" index %d", ifi->ifi_index);
		if (name)
			printf(" name %.*s", (int)strnlen(RTA_DATA(name),
							  RTA_PAYLOAD(name)),
			       (char *)RTA_DATA(name));
		if (linkinfo) {
			kind = find_attr(RTA_DATA(linkinfo),
					 RTA_PAYLOAD(linkinfo), IFLA_INFO_KIND);
			data = find_attr(RTA_DATA(linkinfo),
					 RTA_PAYLOAD(linkinfo), IFLA_INFO_DATA);
		}
		if (kind)
			printf(" kind %.*s", (int)strnlen(RTA_DATA(kind),
							  RTA_PAYLOAD(kind)),
			       (char *)RTA_DATA(kind));
		printf("\n");
		if (data)
			decode_data(data);
	}
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "newlink") == 0)
		return do_newlink(argc - 2, argv + 2);
	if (argc >= 2 && strcmp(argv[1], "decode") == 0)
		return do_decode(argc - 2, argv + 2);
	return usage();
}

#endif
