// SPDX-License-Identifier: GPL-2.0
/*
 * bpf_none.c - the bpf backend of smc dump start and the bpf path of smc
 * run in an smc built without libbpf (HAVE_LIBBPF=n, or ./configure did
 * not find libbpf, clang and bpftool): both refuse, saying what to
 * install; everything else of smc works as in a full build.
 */
#include <stdio.h>

#include "capture_bpf_api.h"
#include "run_bpf.h"

#define NO_LIBBPF "this smc was built without libbpf; install libbpf-dev, clang and bpftool and build smc again"

int bpf_cap_prepare(struct bpf_cap **out, int mode, int type,
		    uint32_t snaplen, uint32_t ring, bool verbose)
{
	(void)mode;
	(void)type;
	(void)snaplen;
	(void)ring;
	(void)verbose;
	*out = NULL;
	fprintf(stderr,
		"Error: backend bpf is not available: %s, or use backend kernel.\n",
		NO_LIBBPF);
	return -1;
}

/* Never reached: bpf_cap_prepare() gives no backend to call them on */
const char *bpf_cap_hooks(const struct bpf_cap *b)
{
	(void)b;
	return "";
}

int bpf_cap_attach(struct bpf_cap *b, const char *ifname)
{
	(void)b;
	(void)ifname;
	return -1;
}

int bpf_cap_fd(const struct bpf_cap *b)
{
	(void)b;
	return -1;
}

void bpf_cap_poll(struct bpf_cap *b)
{
	(void)b;
}

void bpf_cap_detach(struct bpf_cap *b)
{
	(void)b;
}

void bpf_cap_counts(const struct bpf_cap *b, uint64_t *made, uint64_t *lost)
{
	(void)b;
	*made = 0;
	*lost = 0;
}

void bpf_cap_free(struct bpf_cap *b)
{
	(void)b;
}

int run_bpf_open(struct run_bpf **out, char *why, size_t size)
{
	*out = NULL;
	snprintf(why, size, "%s", NO_LIBBPF);
	return -1;
}

void run_bpf_counts(const struct run_bpf *rb, uint64_t *made,
		    uint64_t *untracked)
{
	(void)rb;
	*made = 0;
	*untracked = 0;
}

void run_bpf_close(struct run_bpf *rb)
{
	(void)rb;
}
