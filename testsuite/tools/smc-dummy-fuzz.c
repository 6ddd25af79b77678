// SPDX-License-Identifier: GPL-2.0
/*
 * smc-dummy-fuzz: a seeded, bounded fuzzer of the IFLA_INFO_DATA that
 * RTM_NEWLINK carries for link kind smc-dummy (create and change).
 *
 *   smc-dummy-fuzz [-s SEED] [-n ITERATIONS] [-t SECONDS] [-v]
 *
 * Each iteration builds a random IFLA_INFO_DATA: known attributes of right
 * and wrong sizes and values, type 0, unknown and huge types, the
 * NLA_F_NESTED and NLA_F_NET_BYTEORDER flags, nested attribute streams as
 * payloads, long payloads, duplicates, and broken tails (headers cut short,
 * lengths below 4 or past the end); sometimes a malformed, empty, missing
 * or repeated IFLA_INFO_DATA itself. It sends it either as a new link
 * "fzadd0" (NLM_F_CREATE|NLM_F_EXCL) or as a change of the link "fzset0"
 * that lives for the whole run.
 *
 * The tool predicts the kernel's answer from a model of rtnl_newlink():
 * nla_parse_nested_deprecated() against the kind's policy, which is strict
 * from the first attribute on (strict_start_type): types 0 and above
 * IFLA_SMC_DUMMY_MAX and a broken tail are skipped; every copy of a known
 * attribute, in order, must have its exact size and no NLA_F_NESTED
 * (else -EINVAL) and a value up to the uapi limit (else -ERANGE); the last
 * of duplicates wins. Then:
 *   - a payload the model calls invalid must be refused with the model's
 *     errno, and must change nothing (no fzadd0; fzset0 reads back as
 *     before);
 *   - a valid one must be accepted and read back (RTM_GETLINK) with the
 *     values the model expects, all in range; a created link is deleted.
 * Any difference is a failure and prints the payload in hex (replay with
 * the same seed). The link names are fixed: run it in its own netns.
 *
 * Output: one line "seed S iterations N accepted A refused R extack E
 * add A2 set S2 mismatches M" and per-errno counts; exit 0 when M is 0,
 * 1 otherwise, 2 on usage errors.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <net/if.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/smc_dump.h>
#include <libmnl/libmnl.h>

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif

#define KIND		"smc-dummy"
#define ADD_NAME	"fzadd0"
#define SET_NAME	"fzset0"
#define BODY_MAX	4096
#define SNAPLEN_MAX	65535

static uint64_t rng_state;
static bool verbose;

/* splitmix64: small, seedable, the same sequence everywhere */
static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* a number in [0, n) */
static unsigned int rn(unsigned int n)
{
	return n ? rnd() % n : 0;
}

/* true with probability pct percent */
static bool chance(unsigned int pct)
{
	return rn(100) < pct;
}

struct buf {
	uint8_t d[BODY_MAX];
	size_t len;
};

static bool room(const struct buf *b, size_t n)
{
	return b->len + n <= sizeof(b->d);
}

static void put_bytes(struct buf *b, const void *p, size_t n)
{
	memcpy(b->d + b->len, p, n);
	b->len += n;
}

static void put_rand(struct buf *b, size_t n)
{
	while (n--)
		b->d[b->len++] = rnd();
}

/* an attribute header with nla_len = 4 + n, then n payload bytes, padded */
/* the largest value of the u8 attribute @type (mode or capture) */
static unsigned int u8_max(uint16_t type)
{
	return type == IFLA_SMC_DUMMY_MODE ? SMC_DUMMY_MODE_MAX :
					     SMC_DUMMY_CAPTURE_MAX;
}

static void put_attr(struct buf *b, uint16_t type, const void *p, size_t n)
{
	uint16_t hdr[2] = { 4 + n, type };

	put_bytes(b, hdr, 4);
	put_bytes(b, p, n);
	while (b->len % 4)
		b->d[b->len++] = 0;
}

static void gen_stream(struct buf *b, int depth);

/* the payload of one attribute: right size, wrong size, long or nested */
static void gen_payload(struct buf *b, uint16_t type, int depth)
{
	size_t want = type == IFLA_SMC_DUMMY_SNAPLEN ? 4 : 1;
	unsigned int k = rn(100);
	uint32_t v;

	if (k < 50 && type >= 1 && type <= 3) {
		/* the right size: mostly a value in range, else anything */
		if (type == IFLA_SMC_DUMMY_SNAPLEN)
			v = chance(60) ? rn(SNAPLEN_MAX + 1) :
			    chance(50) ? SNAPLEN_MAX + 1 + rn(16) :
			    (uint32_t)rnd();
		else
			v = chance(60) ? rn(u8_max(type) + 1) :
			    chance(50) ? u8_max(type) + 1u : rnd() & 0xff;
		put_bytes(b, &v, want);
	} else if (k < 75) {
		put_rand(b, rn(17));		/* 0 to 16 bytes */
	} else if (k < 85) {
		put_rand(b, 17 + rn(496));	/* long */
	} else {
		gen_stream(b, depth + 1);	/* nested attributes */
	}
}

/* a broken tail: a header cut short, nla_len below 4, or past the end */
static void gen_broken_tail(struct buf *b)
{
	uint16_t hdr[2];

	switch (rn(3)) {
	case 0:
		put_rand(b, 1 + rn(3));
		break;
	case 1:
		hdr[0] = rn(4);
		hdr[1] = 1 + rn(3);
		put_bytes(b, hdr, 4);
		put_rand(b, rn(8));
		break;
	default:
		hdr[0] = 8 + rn(64);
		hdr[1] = 1 + rn(3);
		put_bytes(b, hdr, 4);
		put_rand(b, rn(hdr[0] - 4));	/* fewer than announced */
		break;
	}
}

/* a stream of 0 to 6 attributes, nested ones up to depth 3 */
static void gen_stream(struct buf *b, int depth)
{
	unsigned int i, n = rn(7);

	for (i = 0; i < n; i++) {
		struct buf p = { .len = 0 };
		uint16_t type;
		unsigned int k = rn(100);

		if (k < 60)
			type = 1 + rn(3);		/* known */
		else if (k < 65)
			type = 0;			/* unspec */
		else if (k < 85)
			type = 4 + rn(17);		/* unknown */
		else
			type = rnd();			/* anything, flags too */
		if (chance(15))
			type |= chance(50) ? NLA_F_NESTED : NLA_F_NET_BYTEORDER;
		if (depth < 3)
			gen_payload(&p, type & NLA_TYPE_MASK, depth);
		else
			put_rand(&p, rn(9));
		if (!room(b, 8 + p.len))
			break;
		put_attr(b, type, p.d, p.len);
	}
	if (depth == 0 && chance(10) && room(b, 80))
		gen_broken_tail(b);
}

struct state {
	int mode, capture;
	uint32_t snaplen;
};

/*
 * The kernel's answer to an IFLA_INFO_DATA body: 0 (accepted, *st updated)
 * or a negative errno. nla_parse_nested_deprecated() skips types 0 and
 * above the maximum and a broken tail (no maxtype or trailing-data
 * checks); smc-dummy's policy is strict from type 1 on, so validate_nla()
 * checks every copy of a known attribute in order: the exact size, then
 * NLA_F_NESTED (both -EINVAL), then the range (-ERANGE). The last copy
 * wins. smc_dummy_validate() then checks only IFLA_ADDRESS, not sent here.
 */
static int model(const uint8_t *d, int len, struct state *st)
{
	const uint8_t *tb[IFLA_SMC_DUMMY_MAX + 1] = { NULL };
	int rem = len, off = 0;

	while (rem >= 4) {
		uint16_t nla_len, raw, type;
		int alen;

		memcpy(&nla_len, d + off, 2);
		memcpy(&raw, d + off + 2, 2);
		if (nla_len < 4 || nla_len > rem)
			break;
		type = raw & NLA_TYPE_MASK;
		alen = nla_len - 4;
		if (type >= 1 && type <= IFLA_SMC_DUMMY_MAX) {
			const uint8_t *p = d + off + 4;
			uint32_t v;

			if (alen != (type == IFLA_SMC_DUMMY_SNAPLEN ? 4 : 1))
				return -EINVAL;
			if (raw & NLA_F_NESTED)
				return -EINVAL;
			if (type == IFLA_SMC_DUMMY_SNAPLEN) {
				memcpy(&v, p, 4);
				if (v > SNAPLEN_MAX)
					return -ERANGE;
			} else if (p[0] > u8_max(type)) {
				return -ERANGE;
			}
			tb[type] = p;
		}
		off += (nla_len + 3) & ~3;
		rem -= (nla_len + 3) & ~3;
	}
	if (tb[IFLA_SMC_DUMMY_MODE])
		st->mode = tb[IFLA_SMC_DUMMY_MODE][0];
	if (tb[IFLA_SMC_DUMMY_CAPTURE])
		st->capture = tb[IFLA_SMC_DUMMY_CAPTURE][0];
	if (tb[IFLA_SMC_DUMMY_SNAPLEN])
		memcpy(&st->snaplen, tb[IFLA_SMC_DUMMY_SNAPLEN], 4);
	return 0;
}

/* ---- netlink ---- */

static struct mnl_socket *nl;
static unsigned int seq;
static char msgbuf[32768];
static char extack_msg[256];

/* send and wait for the ack or the reply; returns 0 or -errno */
static int talk(struct nlmsghdr *nlh, mnl_cb_t cb, void *arg)
{
	unsigned int portid = mnl_socket_get_portid(nl);
	int ret;

	nlh->nlmsg_seq = ++seq;
	extack_msg[0] = 0;
	if (mnl_socket_sendto(nl, nlh, nlh->nlmsg_len) < 0) {
		perror("sendto");
		exit(1);
	}
	for (;;) {
		struct nlmsghdr *r = (struct nlmsghdr *)msgbuf;

		ret = mnl_socket_recvfrom(nl, msgbuf, sizeof(msgbuf));
		if (ret < 0) {
			perror("recvfrom (no answer from the kernel)");
			exit(1);
		}
		if (r->nlmsg_seq != seq)
			continue;
		if (r->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = mnl_nlmsg_get_payload(r);
			const struct nlattr *a;

			if (e->error && (r->nlmsg_flags & NLM_F_ACK_TLVS)) {
				size_t off = sizeof(*e);

				if (!(r->nlmsg_flags & NLM_F_CAPPED))
					off += e->msg.nlmsg_len -
					       sizeof(struct nlmsghdr);
				mnl_attr_for_each(a, r, off)
					if (mnl_attr_get_type(a) ==
					    NLMSGERR_ATTR_MSG)
						snprintf(extack_msg,
							 sizeof(extack_msg),
							 "%s",
							 mnl_attr_get_str(a));
			}
			return e->error;
		}
		ret = mnl_cb_run(msgbuf, ret, seq, portid, cb, arg);
		if (ret <= MNL_CB_STOP)
			return ret < 0 ? -errno : 0;
	}
}

static struct nlmsghdr *link_msg(uint16_t type, uint16_t flags,
				 const char *name)
{
	static char req[3 * BODY_MAX];
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(req);
	struct ifinfomsg *ifm;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	ifm = mnl_nlmsg_put_extra_header(nlh, sizeof(*ifm));
	ifm->ifi_family = AF_UNSPEC;
	mnl_attr_put_strz(nlh, IFLA_IFNAME, name);
	return nlh;
}

struct readback {
	bool kind_ok, found;
	int mode, capture;
	long long snaplen;
	int bad_sizes;
};

static int rb_data_cb(const struct nlattr *a, void *arg)
{
	struct readback *rb = arg;
	uint16_t len = mnl_attr_get_payload_len(a);

	switch (mnl_attr_get_type(a)) {
	case IFLA_SMC_DUMMY_MODE:
		rb->bad_sizes += len != 1;
		rb->mode = mnl_attr_get_u8(a);
		break;
	case IFLA_SMC_DUMMY_CAPTURE:
		rb->bad_sizes += len != 1;
		rb->capture = mnl_attr_get_u8(a);
		break;
	case IFLA_SMC_DUMMY_SNAPLEN:
		rb->bad_sizes += len != 4;
		rb->snaplen = mnl_attr_get_u32(a);
		break;
	}
	return MNL_CB_OK;
}

static int rb_info_cb(const struct nlattr *a, void *arg)
{
	struct readback *rb = arg;

	if (mnl_attr_get_type(a) == IFLA_INFO_KIND)
		rb->kind_ok = !strcmp(mnl_attr_get_str(a), KIND);
	else if (mnl_attr_get_type(a) == IFLA_INFO_DATA)
		mnl_attr_parse_nested(a, rb_data_cb, arg);
	return MNL_CB_OK;
}

static int rb_link_cb(const struct nlattr *a, void *arg)
{
	if (mnl_attr_get_type(a) == IFLA_LINKINFO)
		mnl_attr_parse_nested(a, rb_info_cb, arg);
	return MNL_CB_OK;
}

static int rb_msg_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct readback *rb = arg;

	rb->found = true;
	return mnl_attr_parse(nlh, sizeof(struct ifinfomsg), rb_link_cb, arg);
}

/*
 * RTM_GETLINK NAME: 0 and *rb, or -errno (-ENODEV: no such link). With
 * NLM_F_ACK the reply is followed by an ack, which ends talk()'s loop.
 */
static int get_link(const char *name, struct readback *rb)
{
	memset(rb, 0, sizeof(*rb));
	rb->mode = rb->capture = rb->snaplen = -1;
	return talk(link_msg(RTM_GETLINK, NLM_F_ACK, name), rb_msg_cb, rb);
}

static int del_link(const char *name)
{
	return talk(link_msg(RTM_DELLINK, NLM_F_ACK, name), NULL, NULL);
}

/* ---- the run ---- */

static unsigned long mismatches;

static void hexdump(const char *what, const uint8_t *d, size_t n)
{
	size_t i;

	fprintf(stderr, "  %s (%zu bytes): ", what, n);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%02x", d[i]);
	fprintf(stderr, "\n");
}

static void mismatch(unsigned long it, const char *op, const char *why,
		     const struct buf *body, int got, int want)
{
	mismatches++;
	fprintf(stderr,
		"MISMATCH iteration %lu (%s): %s; kernel %d (%s), model %d\n",
		it, op, why, got, extack_msg, want);
	hexdump("IFLA_INFO_DATA", body->d, body->len);
}

static bool same(const struct readback *rb, const struct state *st)
{
	return rb->found && rb->kind_ok && !rb->bad_sizes &&
	       rb->mode == st->mode && rb->capture == st->capture &&
	       rb->snaplen == st->snaplen;
}

static bool in_range(const struct readback *rb)
{
	return rb->mode >= 0 && rb->mode <= SMC_DUMMY_MODE_MAX &&
	       rb->capture >= 0 && rb->capture <= SMC_DUMMY_CAPTURE_MAX &&
	       rb->snaplen >= 0 &&
	       rb->snaplen <= SNAPLEN_MAX;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: smc-dummy-fuzz [-s SEED] [-n ITERATIONS] [-t SECONDS] [-v]\n");
	return 2;
}

int main(int argc, char **argv)
{
	unsigned long iters = 1000, it, accepted = 0, refused = 0;
	unsigned long with_extack = 0, adds = 0, sets = 0;
	unsigned long errnos[256] = { 0 };
	uint64_t seed = time(NULL);
	struct state set_st = { 0, 0, 0 };
	double limit = 0;
	struct timespec t0, t;
	struct timeval tmo = { .tv_sec = 60 };
	struct readback rb;
	int one = 1, opt, err;

	while ((opt = getopt(argc, argv, "s:n:t:v")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			iters = strtoul(optarg, NULL, 0);
			break;
		case 't':
			limit = strtod(optarg, NULL);
			break;
		case 'v':
			verbose = true;
			break;
		default:
			return usage();
		}
	}
	if (optind != argc)
		return usage();
	rng_state = seed;

	nl = mnl_socket_open(NETLINK_ROUTE);
	if (!nl || mnl_socket_bind(nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("netlink");
		return 1;
	}
	mnl_socket_setsockopt(nl, NETLINK_EXT_ACK, &one, sizeof(one));
	/* a kernel that never answers is a failure, not a hang */
	setsockopt(mnl_socket_get_fd(nl), SOL_SOCKET, SO_RCVTIMEO, &tmo,
		   sizeof(tmo));
	seq = time(NULL);

	/* the link that the changes go to, with the default filter */
	{
		struct nlmsghdr *nlh = link_msg(RTM_NEWLINK,
						NLM_F_ACK | NLM_F_CREATE |
						NLM_F_EXCL, SET_NAME);
		struct nlattr *li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);

		mnl_attr_put_strz(nlh, IFLA_INFO_KIND, KIND);
		mnl_attr_nest_end(nlh, li);
		err = talk(nlh, NULL, NULL);
		if (err) {
			fprintf(stderr, "cannot create %s: %s (%s)\n",
				SET_NAME, strerror(-err), extack_msg);
			return 1;
		}
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (it = 0; it < iters; it++) {
		bool is_add = chance(60);
		const char *name = is_add ? ADD_NAME : SET_NAME;
		struct state st = is_add ? (struct state){ 0, 0, 0 } : set_st;
		struct state before = st;
		struct nlmsghdr *nlh;
		struct nlattr *li;
		struct buf body = { .len = 0 };
		int want = 0, copies, c, kerr;
		unsigned int wrap = rn(100);

		if (limit > 0) {
			clock_gettime(CLOCK_MONOTONIC, &t);
			if (t.tv_sec - t0.tv_sec +
			    (t.tv_nsec - t0.tv_nsec) / 1e9 > limit)
				break;
		}
		nlh = link_msg(RTM_NEWLINK, NLM_F_ACK |
			       (is_add ? NLM_F_CREATE | NLM_F_EXCL : 0), name);
		li = mnl_attr_nest_start(nlh, IFLA_LINKINFO);
		mnl_attr_put_strz(nlh, IFLA_INFO_KIND, KIND);
		/*
		 * IFLA_INFO_DATA: usually one random attribute stream; else
		 * none, an empty one, one of 1 to 3 bytes (shorter than an
		 * attribute header: refused by ifla_info_policy) or two (the
		 * outer parse keeps the last; each is checked).
		 */
		copies = wrap < 5 ? 0 : wrap < 10 ? 2 : 1;
		for (c = 0; c < copies; c++) {
			uint16_t dtype = IFLA_INFO_DATA |
					 (chance(50) ? NLA_F_NESTED : 0);

			body.len = 0;
			if (wrap >= 10 && wrap < 14) {
				/* empty */
			} else if (wrap >= 14 && wrap < 18) {
				put_rand(&body, 1 + rn(3));
			} else {
				gen_stream(&body, 0);
			}
			mnl_attr_put(nlh, dtype, body.len, body.d);
			if (body.len >= 1 && body.len <= 3)
				want = -ERANGE;
		}
		mnl_attr_nest_end(nlh, li);
		if (!want && copies)
			want = model(body.d, body.len, &st);

		kerr = err = talk(nlh, NULL, NULL);
		if (verbose)
			fprintf(stderr, "%lu %s len %zu: kernel %d model %d %s\n",
				it, is_add ? "add" : "set", body.len, err,
				want, extack_msg);
		adds += is_add;
		sets += !is_add;
		if (err) {
			refused++;
			with_extack += extack_msg[0] != 0;
			errnos[-err & 0xff]++;
		} else {
			accepted++;
		}

		if (err && !want) {
			mismatch(it, name, "a valid payload was refused",
				 &body, err, want);
		} else if (!err && want) {
			mismatch(it, name, "an invalid payload was accepted",
				 &body, err, want);
		} else if (err != want) {
			mismatch(it, name, "refused with another errno",
				 &body, err, want);
		}

		/* read back: the model's values, in range; or no change */
		err = get_link(name, &rb);
		if (is_add && err == -ENODEV) {
			if (!kerr)
				mismatch(it, name, "accepted but no link",
					 &body, 0, want);
			continue;
		}
		if (err) {
			mismatch(it, name, "cannot read the link back",
				 &body, err, want);
			continue;
		}
		if (want) {
			if (is_add) {
				mismatch(it, name, "refused but created",
					 &body, 0, want);
			} else if (!same(&rb, &before)) {
				mismatch(it, name,
					 "refused but the filter changed",
					 &body, 0, want);
			}
		} else if (!same(&rb, &st) || !in_range(&rb)) {
			fprintf(stderr,
				"  read back mode %d capture %d snaplen %lld, expected %d %d %u\n",
				rb.mode, rb.capture, rb.snaplen, st.mode,
				st.capture, st.snaplen);
			mismatch(it, name, "read back differs", &body, 0,
				 want);
		}
		if (!is_add) {
			/* follow the kernel, so one slip is reported once */
			set_st.mode = rb.mode;
			set_st.capture = rb.capture;
			set_st.snaplen = rb.snaplen;
		} else {
			err = del_link(ADD_NAME);
			if (err) {
				mismatch(it, name, "cannot delete the link",
					 &body, err, want);
				break;
			}
		}
	}

	err = del_link(SET_NAME);
	if (err) {
		fprintf(stderr, "cannot delete %s: %s\n", SET_NAME,
			strerror(-err));
		mismatches++;
	}
	if (get_link(ADD_NAME, &rb) != -ENODEV) {
		fprintf(stderr, "%s is left behind\n", ADD_NAME);
		mismatches++;
	}
	printf("seed %llu iterations %lu accepted %lu refused %lu extack %lu add %lu set %lu mismatches %lu\n",
	       (unsigned long long)seed, it, accepted, refused, with_extack,
	       adds, sets, mismatches);
	for (opt = 1; opt < 256; opt++)
		if (errnos[opt])
			printf("refused errno %d (%s): %lu\n", opt,
			       strerror(opt), errnos[opt]);
	mnl_socket_close(nl);
	return mismatches ? 1 : 0;
}
