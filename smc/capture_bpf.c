// SPDX-License-Identifier: GPL-2.0
/*
 * capture_bpf.c - the bpf backend of smc dump start: on a kernel without
 * the smc-dummy link kind (an unmodified distribution kernel), BPF
 * programs on net/smc functions (capture_bpf.bpf.c) copy each data block,
 * CDC message and LLC message into a BPF ring buffer; this side reads the
 * ring and turns each entry into the frame the kernel series would have
 * built (include/uapi/linux/smc_dump.h, Documentation/record-format.md),
 * which it sends with AF_PACKET on a link of kind "dummy". The frames
 * pass the link's taps on the way out (tcpdump -i LINK, and -i any for
 * mode all) and the dummy driver drops them, as the smc-dummy link does:
 * so tcpdump, its filters, the pcap files and smc dump read/follow/stats
 * work unchanged. Why a dummy link and AF_PACKET: tcpdump needs an
 * interface to listen on, and a dummy link is in every kernel, takes
 * frames of any size up to its MTU (65535 here) and sends nothing
 * anywhere; a tap sees exactly what was sent, with no second copy
 * through a tun device's queue.
 *
 * The programs come in a libbpf skeleton (bpftool gen skeleton): the
 * object is embedded in the smc binary, so there is no file to install
 * or find at run time, and maps, programs and globals are typed fields
 * (skel->bss->lost) instead of lookups by name.
 *
 * Stream offsets come from the connection's cursors (wrap and count of
 * the ring buffer, as the kernel keeps them), the wrap extended past its
 * 16 bits here: never from a running sum of what was seen, so that a lost
 * record leaves a hole at the right place and not a shift of all that
 * follows.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/smc_dump.h>
#include <net/if.h>
#include <netinet/ip.h>
#include <netinet/ip6.h>
#include <netinet/udp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "bpf_common.h"
#include "capture_bpf.h"
#include "capture_bpf.skel.h"
#include "capture_bpf_api.h"
#include "utils.h"

#include "smc_af.h"
#define LOCKDOWN_FILE	"/sys/kernel/security/lockdown"
#define HOP_LIMIT	64
#define NBUCKETS	1024

/* the wrap of one direction of one connection, extended to 64 bits */
struct stream {
	struct stream *next;
	uint64_t conn;
	bool rx;
	uint64_t wrap;
};

struct bpf_cap {
	struct capture_bpf *skel;
	struct ring_buffer *rb;
	int pfd;		/* AF_PACKET socket on the link */
	int ifindex;
	unsigned char mac[ETH_ALEN];
	bool attached;
	uint64_t sent;		/* frames handed to the link */
	uint64_t send_err;	/* frames the link refused */
	struct stream *streams[NBUCKETS];
	/* a frame's headers; the payload is sent from the ring */
	unsigned char frame[ETH_HLEN + 40 + 8 + 32];
	char hooks[256];	/* the functions attached, for -d */
};

/* ---- refusals: what must be there before anything is made ---- */

static bool lockdown_confidential(void)
{
	const char *path = getenv("SMC_DUMP_LOCKDOWN_FILE");
	char buf[256] = "";
	FILE *f;

	f = fopen(path && *path ? path : LOCKDOWN_FILE, "re");
	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	return strstr(buf, "[confidentiality]") != NULL;
}

/* The BTF of vmlinux and of net/smc: from /sys/kernel/btf, or from
 * SMC_DUMP_BTF_DIR (tests). @smc is NULL when net/smc is built in (its
 * functions are then in @vm).
 */
static int load_btf(struct btf **vm, struct btf **smc)
{
	const char *dir = bpf_btf_dir();
	char path[PATH_MAX];
	int s;

	*vm = *smc = NULL;
	snprintf(path, sizeof(path), "%s/vmlinux", dir);
	if (access(path, R_OK)) {
		fprintf(stderr,
			"Error: backend bpf: the running kernel has no BTF (%s: %s): it needs CONFIG_DEBUG_INFO_BTF=y (Debian's kernels have it) and CONFIG_DEBUG_INFO_BTF_MODULES=y for the smc module; use backend kernel with a kernel that has the smc-dummy link kind instead\n",
			path, strerror(errno));
		return -1;
	}
	*vm = btf__parse(path, NULL);
	if (!*vm) {
		fprintf(stderr, "Error: backend bpf: cannot read the BTF %s: %s\n",
			path, strerror(errno));
		return -1;
	}
	if (btf__find_by_name_kind(*vm, "smc_conn_free", BTF_KIND_FUNC) >= 0)
		return 0;	/* CONFIG_SMC=y */
	snprintf(path, sizeof(path), "%s/smc", dir);
	if (access(path, R_OK) && !bpf_btf_is_fake()) {
		/* an AF_SMC socket loads the module (net-pf-43) */
		s = socket(AF_SMC, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (s >= 0)
			close(s);
	}
	if (access(path, R_OK) && smc_module_absent()) {
		fprintf(stderr,
			"Error: backend bpf: no BTF for net/smc (%s: %s); %s\n",
			path, strerror(errno), smc_no_smc_advice());
		return -1;
	}
	if (access(path, R_OK)) {
		fprintf(stderr,
			"Error: backend bpf: no BTF for net/smc (%s: %s): the smc module is not loaded (modprobe smc) or was built without CONFIG_DEBUG_INFO_BTF_MODULES=y\n",
			path, strerror(errno));
		return -1;
	}
	*smc = btf__parse_split(path, *vm);
	if (!*smc) {
		fprintf(stderr, "Error: backend bpf: cannot read the BTF %s: %s\n",
			path, strerror(errno));
		return -1;
	}
	return 0;
}

static bool has_func(struct btf *vm, struct btf *smc, const char *name)
{
	return btf__find_by_name_kind(smc ? smc : vm, name, BTF_KIND_FUNC) >= 0;
}

/* The hook points of each record kind, in the order of preference: the
 * functions the compiler kept out of line differ between builds
 */
static const char *const recv_fns[] = {
	"smc_cdc_msg_recv_action", "smc_cdc_msg_recv", NULL
};

static const char *pick(struct btf *vm, struct btf *smc,
			const char *const *names)
{
	for (; *names; names++)
		if (has_func(vm, smc, *names))
			return *names;
	return NULL;
}

/* The LLC messages' hooks, when the capture takes LLC records: sent
 * (smc_wr_tx_send, already attached for CDC messages when it is there;
 * smc_wr_tx_v2_send for SMC-Rv2's large ones; each at its entry and its
 * exit, which flags a failed post) and received (smc_llc_rx_handler). A
 * missing one does not stop the capture: one line says which LLC
 * messages it loses.
 */
static void llc_hooks(struct bpf_cap *b, struct btf *vm, struct btf *smc,
		      bool wr_send, int type)
{
	struct capture_bpf *s = b->skel;
	bool want = type == SMC_DUMMY_CAPTURE_ALL ||
		    type == SMC_DUMMY_CAPTURE_LLC;
	bool v2 = want && has_func(vm, smc, "smc_wr_tx_v2_send");
	bool rx = want && has_func(vm, smc, "smc_llc_rx_handler");
	const char *what, *fns[3];
	char names[96] = "";
	size_t n = 0, i, o = 0;

	bpf_program__set_autoload(s->progs.wr_v2_send_enter, v2);
	bpf_program__set_autoload(s->progs.wr_v2_send_exit, v2);
	bpf_program__set_autoload(s->progs.llc_rx_enter, rx);
	if (!want)
		return;
	if (!wr_send)
		fns[n++] = "smc_wr_tx_send";
	if (!v2)
		fns[n++] = "smc_wr_tx_v2_send";
	if (!rx)
		fns[n++] = "smc_llc_rx_handler";
	if (!n)
		return;
	for (i = 0; i < n; i++)
		o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s",
				      i ? ", " : "", fns[i]);
	what = rx ? "sent" : wr_send && v2 ? "received" : "sent and received";
	fprintf(stderr,
		"smc dump: backend bpf: LLC messages %s are not captured on this kernel: no %s to attach to (inlined or absent in this build)\n",
		what, names);
}

/* Choose the programs to load; prints and fails when a record kind has
 * no hook point left
 */
static int choose(struct bpf_cap *b, struct btf *vm, struct btf *smc,
		  int type)
{
	struct capture_bpf *s = b->skel;
	const char *recv = pick(vm, smc, recv_fns);
	const char *missing = NULL;
	bool wr_send;

	if (!has_func(vm, smc, "smc_tx_rdma_writes"))
		missing = "data sent: smc_tx_rdma_writes";
	else if (!recv)
		missing = "data and CDC messages received: smc_cdc_msg_recv_action or smc_cdc_msg_recv";
	else if (!has_func(vm, smc, "smc_cdc_msg_send"))
		missing = "CDC messages sent (SMC-R): smc_cdc_msg_send";
	else if (!has_func(vm, smc, "smc_conn_free"))
		missing = "connection end: smc_conn_free";
	if (missing) {
		fprintf(stderr,
			"Error: backend bpf: net/smc of the running kernel has no function to attach to for %s (inlined or absent in this build); use backend kernel (smc-dump-dkms or a kernel with the series)\n",
			missing);
		return -1;
	}
	bpf_program__set_attach_target(s->progs.rx_enter, 0, recv);
	wr_send = has_func(vm, smc, "smc_wr_tx_send");
	s->rodata->cfg_cdc_send_late = !wr_send;
	bpf_program__set_autoload(s->progs.wr_send_enter, wr_send);
	bpf_program__set_autoload(s->progs.wr_send_exit, wr_send);
	bpf_program__set_autoload(s->progs.cdc_send_enter, wr_send);
	/* SMC-D's CDC messages sent: without the hook, none are recorded
	 * (the stock kernels this serves have no SMC-D device anyway)
	 */
	if (!has_func(vm, smc, "smcd_tx_ism_write")) {
		bpf_program__set_autoload(s->progs.ism_write_enter, false);
		bpf_program__set_autoload(s->progs.ism_write_exit, false);
	}
	llc_hooks(b, vm, smc, wr_send, type);
	snprintf(b->hooks, sizeof(b->hooks),
		 "smc_tx_rdma_writes %s smc_cdc_msg_send%s%s%s%s smc_conn_free",
		 recv, wr_send ? " smc_wr_tx_send" : "",
		 bpf_program__autoload(s->progs.wr_v2_send_enter) ?
		 " smc_wr_tx_v2_send" : "",
		 bpf_program__autoload(s->progs.llc_rx_enter) ?
		 " smc_llc_rx_handler" : "",
		 has_func(vm, smc, "smcd_tx_ism_write") ?
		 " smcd_tx_ism_write" : "");
	return 0;
}

/* A power of two, at least a page */
static bool valid_ring(uint32_t n)
{
	return n >= (uint32_t)getpagesize() && !(n & (n - 1));
}

int bpf_cap_prepare(struct bpf_cap **out, int mode, int type,
		    uint32_t snaplen, uint32_t ring, bool verbose)
{
	struct btf *vm = NULL, *smc = NULL;
	struct bpf_cap *b;
	struct stat st;
	int err;

	*out = NULL;
	if (ring && !valid_ring(ring)) {
		fprintf(stderr,
			"Error: ring must be a power of two of at least %d bytes\n",
			getpagesize());
		return -1;
	}
	if (lockdown_confidential()) {
		fprintf(stderr,
			"Error: backend bpf: the kernel is locked down in confidentiality mode (%s), which forbids BPF programs to read kernel memory; use backend kernel (smc-dump-dkms, its modules signed with your MOK under Secure Boot)\n",
			getenv("SMC_DUMP_LOCKDOWN_FILE") ?: LOCKDOWN_FILE);
		return -1;
	}
	if (!bpf_privileged()) {
		fprintf(stderr,
			"Error: backend bpf: loading the BPF programs needs CAP_BPF and CAP_PERFMON (or CAP_SYS_ADMIN): run as root\n");
		return -1;
	}
	if (load_btf(&vm, &smc))
		goto fail_btf;
	b = calloc(1, sizeof(*b));
	if (!b) {
		fprintf(stderr, "Error: out of memory\n");
		goto fail_btf;
	}
	b->pfd = -1;
	libbpf_set_print(bpf_quiet_print);
	b->skel = capture_bpf__open();
	if (!b->skel) {
		fprintf(stderr, "Error: backend bpf: cannot open the BPF object: %s\n",
			strerror(errno));
		goto fail;
	}
	if (choose(b, vm, smc, type))
		goto fail;
	if (verbose)
		fprintf(stderr, "smc dump: backend bpf, attaching to %s\n",
			b->hooks);
	if (stat("/proc/self/ns/net", &st)) {
		fprintf(stderr, "Error: cannot read /proc/self/ns/net: %s\n",
			strerror(errno));
		goto fail;
	}
	b->skel->rodata->cfg_netns = (uint32_t)st.st_ino;
	b->skel->rodata->cfg_mode = (uint8_t)mode;
	b->skel->rodata->cfg_type = (uint8_t)type;
	b->skel->rodata->cfg_snaplen = snaplen;
	if (ring)
		bpf_map__set_max_entries(b->skel->maps.ring, ring);
	err = capture_bpf__load(b->skel);
	if (err) {
		fprintf(stderr,
			"Error: backend bpf: the kernel refused the BPF programs: %s%s\n",
			strerror(-err),
			err == -EPERM ? " (lockdown, or kernel.unprivileged_bpf_disabled and no CAP_BPF?)" :
			" (SMC_DUMP_BPF_DEBUG=1 shows the verifier's log)");
		goto fail;
	}
	btf__free(smc);
	btf__free(vm);
	*out = b;
	return 0;
fail:
	bpf_cap_free(b);
fail_btf:
	btf__free(smc);
	btf__free(vm);
	return -1;
}

const char *bpf_cap_hooks(const struct bpf_cap *b)
{
	return b->hooks;
}

/* ---- records to frames ---- */

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static uint32_t csum_add(uint32_t sum, const void *p, size_t len)
{
	const unsigned char *c = p;
	size_t i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(c[i] << 8 | c[i + 1]);
	if (len & 1)
		sum += (uint32_t)c[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return sum;
}

static struct stream *stream_get(struct bpf_cap *b, uint64_t conn, bool rx,
				 bool create)
{
	unsigned int h = (unsigned int)((conn >> 6) ^ (conn >> 16)) % NBUCKETS;
	struct stream *s;

	for (s = b->streams[h]; s; s = s->next)
		if (s->conn == conn && s->rx == rx)
			return s;
	if (!create)
		return NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->conn = conn;
	s->rx = rx;
	s->wrap = UINT64_MAX;
	s->next = b->streams[h];
	b->streams[h] = s;
	return s;
}

static void stream_forget(struct bpf_cap *b, uint64_t conn)
{
	unsigned int h = (unsigned int)((conn >> 6) ^ (conn >> 16)) % NBUCKETS;
	struct stream **p = &b->streams[h], *s;

	while ((s = *p)) {
		if (s->conn == conn) {
			*p = s->next;
			free(s);
		} else {
			p = &s->next;
		}
	}
}

/* The stream offset of a data record: its cursor, the wrap extended from
 * the last one of the same stream (a cursor moves back only a little,
 * after an SMC-R link failover)
 */
static uint64_t stream_offset(struct bpf_cap *b, const struct smc_bpf_rec *r)
{
	struct stream *s = stream_get(b, r->conn, r->flags & SMC_DUMP_F_RX,
				      true);
	uint64_t wrap = r->wrap;

	if (s) {
		if (s->wrap != UINT64_MAX)
			wrap = s->wrap + (int16_t)(uint16_t)(r->wrap -
							      (uint16_t)s->wrap);
		s->wrap = wrap;
	}
	return wrap * r->buflen + r->count;
}

static void send_record(struct bpf_cap *b, const struct smc_bpf_rec *r,
			const void *data)
{
	bool v6 = r->family == AF_INET6;
	bool rx = r->flags & SMC_DUMP_F_RX;
	size_t iplen = v6 ? sizeof(struct ip6_hdr) : sizeof(struct iphdr);
	size_t udplen = sizeof(struct udphdr) + sizeof(struct smc_dump_hdr) +
			r->caplen;
	unsigned char *f = b->frame, *ip = f + ETH_HLEN;
	struct udphdr *uh = (struct udphdr *)(ip + iplen);
	struct smc_dump_hdr *h = (struct smc_dump_hdr *)(uh + 1);
	const uint8_t *sa = rx ? r->raddr : r->laddr;
	const uint8_t *da = rx ? r->laddr : r->raddr;
	struct ethhdr *eth = (struct ethhdr *)f;
	size_t hlen = ETH_HLEN + iplen + sizeof(*uh) + sizeof(*h);
	/* the headers from the frame, the payload straight from the ring:
	 * one copy of it (into the skb) instead of two
	 */
	struct iovec iov[2] = {
		{ .iov_base = f, .iov_len = hlen },
		{ .iov_base = (void *)data, .iov_len = r->caplen },
	};
	struct msghdr msg = { .msg_iov = iov, .msg_iovlen = 2 };

	memcpy(eth->h_dest, b->mac, ETH_ALEN);
	memcpy(eth->h_source, b->mac, ETH_ALEN);
	eth->h_proto = htons(v6 ? ETH_P_IPV6 : ETH_P_IP);

	h->magic = htonl(SMC_DUMP_MAGIC);
	h->hdr_ver = SMC_DUMP_HDR_VER;
	h->smc_ver = r->smc_ver;
	h->mode = r->mode;
	h->type = r->kind == SMC_BPF_DATA ? SMC_DUMP_TYPE_RAW :
		  r->kind == SMC_BPF_LLC ? SMC_DUMP_TYPE_LLC :
					   SMC_DUMP_TYPE_CDC;
	h->len = htons((uint16_t)(sizeof(*h) + r->caplen));
	h->hdr_len = sizeof(*h);
	/* the SMC-D CDC payload and two fields of SMC-Rv2's LLC messages
	 * are in this host's byte order, as the programs on this host
	 * copied them
	 */
	h->flags = r->flags | (htonl(1) == 1 ? SMC_DUMP_F_BIG_ENDIAN : 0);
	h->seq = htonl(r->seq);
	h->stream_seq = htonl(r->sseq);
	h->reserved = 0;
	h->token = htonl(r->token);
	h->orig_len = htonl(r->orig_len);
	h->offset = r->kind == SMC_BPF_DATA ? htobe64(stream_offset(b, r)) : 0;

	uh->source = rx ? r->rport : r->lport;
	uh->dest = rx ? r->lport : r->rport;
	uh->len = htons((uint16_t)udplen);
	uh->check = 0;
	if (v6) {
		struct ip6_hdr *ip6 = (struct ip6_hdr *)ip;
		uint32_t sum = 0;
		unsigned char pl[4] = { 0, 0, (unsigned char)(udplen >> 8),
					(unsigned char)udplen };
		unsigned char nh[4] = { 0, 0, 0, IPPROTO_UDP };

		ip6->ip6_flow = htonl(6U << 28);
		ip6->ip6_plen = htons((uint16_t)udplen);
		ip6->ip6_nxt = IPPROTO_UDP;
		ip6->ip6_hlim = HOP_LIMIT;
		memcpy(&ip6->ip6_src, sa, 16);
		memcpy(&ip6->ip6_dst, da, 16);
		/* RFC 8200 8.1: the pseudo-header, then the UDP datagram */
		sum = csum_add(sum, sa, 16);
		sum = csum_add(sum, da, 16);
		sum = csum_add(sum, pl, 4);
		sum = csum_add(sum, nh, 4);
		/* the UDP and record headers are 40 bytes, an even number:
		 * the payload's 16-bit words start where they would in one
		 * buffer
		 */
		sum = csum_add(sum, uh, sizeof(*uh) + sizeof(*h));
		sum = csum_add(sum, data, r->caplen);
		uh->check = htons(csum_fold(sum));
		if (!uh->check)
			uh->check = 0xffff;
	} else {
		struct iphdr *iph = (struct iphdr *)ip;

		memset(iph, 0, sizeof(*iph));
		iph->version = 4;
		iph->ihl = 5;
		iph->tot_len = htons((uint16_t)(iplen + udplen));
		iph->frag_off = htons(IP_DF);
		iph->ttl = HOP_LIMIT;
		iph->protocol = IPPROTO_UDP;
		memcpy(&iph->saddr, sa, 4);
		memcpy(&iph->daddr, da, 4);
		iph->check = htons(csum_fold(csum_add(0, iph, sizeof(*iph))));
	}
	if (sendmsg(b->pfd, &msg, 0) == (ssize_t)(hlen + r->caplen))
		b->sent++;
	else
		b->send_err++;
}

static int on_record(void *ctx, void *data, size_t size)
{
	struct bpf_cap *b = ctx;
	const struct smc_bpf_rec *r = data;

	if (size < sizeof(*r))
		return 0;
	if (r->kind == SMC_BPF_END) {
		stream_forget(b, r->conn);
		return 0;
	}
	/* what fits an IPv4 datagram after the UDP and record headers */
	if (r->caplen > size - sizeof(*r) ||
	    r->caplen > 65535 - 20 - 8 - sizeof(struct smc_dump_hdr))
		return 0;
	send_record(b, r, r + 1);
	return 0;
}

/* ---- the capture ---- */

int bpf_cap_attach(struct bpf_cap *b, const char *ifname)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	struct ifreq ifr = {};
	int err;

	b->ifindex = (int)if_nametoindex(ifname);
	if (!b->ifindex) {
		fprintf(stderr, "Error: no link %s: %s\n", ifname, strerror(errno));
		return -1;
	}
	/* protocol 0: this socket only sends */
	b->pfd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
	if (b->pfd < 0) {
		fprintf(stderr, "Error: AF_PACKET socket: %s\n", strerror(errno));
		return -1;
	}
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (ioctl(b->pfd, SIOCGIFHWADDR, &ifr)) {
		fprintf(stderr, "Error: the address of %s: %s\n", ifname,
			strerror(errno));
		return -1;
	}
	memcpy(b->mac, ifr.ifr_hwaddr.sa_data, ETH_ALEN);
	sll.sll_ifindex = b->ifindex;
	if (bind(b->pfd, (struct sockaddr *)&sll, sizeof(sll))) {
		fprintf(stderr, "Error: binding to %s: %s\n", ifname,
			strerror(errno));
		return -1;
	}
	b->rb = ring_buffer__new(bpf_map__fd(b->skel->maps.ring), on_record, b,
				 NULL);
	if (!b->rb) {
		fprintf(stderr, "Error: backend bpf: the ring buffer: %s\n",
			strerror(errno));
		return -1;
	}
	err = capture_bpf__attach(b->skel);
	if (err) {
		fprintf(stderr,
			"Error: backend bpf: cannot attach the programs to %s: %s\n",
			b->hooks, strerror(-err));
		return -1;
	}
	b->attached = true;
	return 0;
}

int bpf_cap_fd(const struct bpf_cap *b)
{
	return b && b->rb ? ring_buffer__epoll_fd(b->rb) : -1;
}

void bpf_cap_poll(struct bpf_cap *b)
{
	if (b && b->rb)
		ring_buffer__consume(b->rb);
}

void bpf_cap_detach(struct bpf_cap *b)
{
	if (!b || !b->attached)
		return;
	capture_bpf__detach(b->skel);
	b->attached = false;
	/* what the programs made up to now */
	bpf_cap_poll(b);
}

void bpf_cap_counts(const struct bpf_cap *b, uint64_t *made, uint64_t *lost)
{
	uint64_t l = b->skel->bss->lost + b->send_err;

	*lost = l;
	*made = b->sent + l;
}

void bpf_cap_free(struct bpf_cap *b)
{
	int i;

	if (!b)
		return;
	ring_buffer__free(b->rb);
	capture_bpf__destroy(b->skel);
	if (b->pfd >= 0)
		close(b->pfd);
	for (i = 0; i < NBUCKETS; i++) {
		while (b->streams[i]) {
			struct stream *s = b->streams[i];

			b->streams[i] = s->next;
			free(s);
		}
	}
	free(b);
}
