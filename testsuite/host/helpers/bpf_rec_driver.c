// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_rec_driver.c - drive the record building of smc/capture_bpf.c from
 * the command line (host tests only, not shipped): the frame its user
 * space makes of one ring entry, as the BPF programs would have left it,
 * without a kernel or a link. capture_bpf.c is compiled in here, so that
 * its static on_record() is the code under test; the frame goes to one
 * end of a datagram socket pair instead of an AF_PACKET socket.
 *
 *   bpf_rec_driver KEY=VALUE...   print the frame in hex, one line
 *
 * Keys (struct smc_bpf_rec's fields; numbers in C notation): kind flags
 * mode smc_ver seq token sseq family lport rport (network byte order as
 * given, as the programs store them); laddr raddr payload in hex. The
 * frame's MAC addresses are 02:00:00:00:00:01.
 */
#include "capture_bpf.c"

static int hex(const char *s, uint8_t *out, size_t max)
{
	size_t n = strlen(s) / 2, i;
	unsigned int b;

	if (strlen(s) % 2 || n > max)
		return -1;
	for (i = 0; i < n; i++) {
		if (sscanf(s + 2 * i, "%2x", &b) != 1)
			return -1;
		out[i] = (uint8_t)b;
	}
	return (int)n;
}

int main(int argc, char **argv)
{
	static uint8_t entry[sizeof(struct smc_bpf_rec) + 65536];
	static uint8_t frame[70000];
	struct smc_bpf_rec *r = (struct smc_bpf_rec *)entry;
	struct bpf_cap *b = calloc(1, sizeof(*b));
	int sv[2], i, n;
	ssize_t got;

	if (!b || socketpair(AF_UNIX, SOCK_DGRAM, 0, sv))
		return 1;
	b->pfd = sv[0];
	memcpy(b->mac, "\x02\x00\x00\x00\x00\x01", ETH_ALEN);
	for (i = 1; i < argc; i++) {
		char *k = argv[i], *v = strchr(k, '=');
		unsigned long long x;

		if (!v)
			goto usage;
		*v++ = '\0';
		x = strtoull(v, NULL, 0);
		if (!strcmp(k, "kind"))
			r->kind = (__u8)x;
		else if (!strcmp(k, "flags"))
			r->flags = (__u8)x;
		else if (!strcmp(k, "mode"))
			r->mode = (__u8)x;
		else if (!strcmp(k, "smc_ver"))
			r->smc_ver = (__u8)x;
		else if (!strcmp(k, "seq"))
			r->seq = (__u32)x;
		else if (!strcmp(k, "token"))
			r->token = (__u32)x;
		else if (!strcmp(k, "sseq"))
			r->sseq = (__u32)x;
		else if (!strcmp(k, "family"))
			r->family = (__u8)x;
		else if (!strcmp(k, "lport"))
			r->lport = htons((__u16)x);
		else if (!strcmp(k, "rport"))
			r->rport = htons((__u16)x);
		else if (!strcmp(k, "laddr") && hex(v, r->laddr, 16) >= 0)
			;
		else if (!strcmp(k, "raddr") && hex(v, r->raddr, 16) >= 0)
			;
		else if (!strcmp(k, "payload") &&
			 (n = hex(v, (uint8_t *)(r + 1), 65536)) >= 0)
			r->caplen = r->orig_len = (__u32)n;
		else
			goto usage;
	}
	on_record(b, entry, sizeof(*r) + r->caplen);
	if (!b->sent) {
		fprintf(stderr, "bpf_rec_driver: no frame sent\n");
		return 1;
	}
	got = recv(sv[1], frame, sizeof(frame), 0);
	for (i = 0; i < got; i++)
		printf("%02x", frame[i]);
	printf("\n");
	free(b);
	return 0;
usage:
	fprintf(stderr, "usage: bpf_rec_driver KEY=VALUE...\n");
	return 2;
}
