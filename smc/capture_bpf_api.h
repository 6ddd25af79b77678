/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capture_bpf_api.h - the bpf backend of smc dump start (capture_bpf.c)
 * as the supervisor (capture.c) uses it: prepare (every check, and the
 * load) before anything is made, attach once the dummy link and tcpdump
 * run, poll the ring with the other events, detach at the stop.
 */
#ifndef SMC_CAPTURE_BPF_API_H
#define SMC_CAPTURE_BPF_API_H

#include <stdbool.h>
#include <stdint.h>

struct bpf_cap;

/*
 * bpf_cap_prepare() - check that the backend can run here and load its
 * programs (not attached yet)
 * @out: set to the backend's state
 * @mode: enum smc_dummy_mode
 * @type: enum smc_dummy_capture
 * @snaplen: payload bytes kept per data record, 0 all
 * @ring: size of the BPF ring buffer in bytes, 0 for the default
 * @verbose: say which kernel functions the programs attach to
 *
 * Return: 0, or -1 after one line on stderr saying what is missing (BTF,
 * a hook point, CAP_BPF/CAP_PERFMON, lockdown) and what to use instead.
 */
int bpf_cap_prepare(struct bpf_cap **out, int mode, int type,
		    uint32_t snaplen, uint32_t ring, bool verbose);

/* bpf_cap_hooks() - the kernel functions the programs attach to */
const char *bpf_cap_hooks(const struct bpf_cap *b);

/*
 * bpf_cap_attach() - send the records as frames on link @ifname and
 * attach the programs
 *
 * Return: 0, or -1 after an error message.
 */
int bpf_cap_attach(struct bpf_cap *b, const char *ifname);

/* bpf_cap_fd() - a descriptor that polls readable when records wait */
int bpf_cap_fd(const struct bpf_cap *b);

/* bpf_cap_poll() - send every record that waits */
void bpf_cap_poll(struct bpf_cap *b);

/* bpf_cap_detach() - detach the programs and send what they left */
void bpf_cap_detach(struct bpf_cap *b);

/*
 * bpf_cap_counts() - records the programs numbered (@made) and those of
 * them that never reached the link (@lost: the ring was full, or the
 * link refused the frame); each lost one is a gap in seq
 */
void bpf_cap_counts(const struct bpf_cap *b, uint64_t *made, uint64_t *lost);

/* bpf_cap_free() - detach, unload, close; @b may be NULL */
void bpf_cap_free(struct bpf_cap *b);

#endif /* SMC_CAPTURE_BPF_API_H */
