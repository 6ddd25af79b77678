/* SPDX-License-Identifier: GPL-2.0 */
/*
 * capture_bpf.h - what the BPF programs of the bpf backend
 * (capture_bpf.bpf.c) hand to user space (capture_bpf.c) through their
 * ring buffer: one struct smc_bpf_rec per record, followed by its
 * payload. Shared by both sides; plain fixed-size types only, so that
 * the BPF target and the host compiler lay it out alike.
 */
#ifndef SMC_CAPTURE_BPF_H
#define SMC_CAPTURE_BPF_H

#include <linux/types.h>

/* smc_bpf_rec.kind */
#define SMC_BPF_DATA		1	/* a data record (SMC_DUMP_TYPE_RAW) */
#define SMC_BPF_CDC		2	/* a CDC record (SMC_DUMP_TYPE_CDC) */
#define SMC_BPF_END		3	/* the connection was freed: no record */
#define SMC_BPF_LLC		4	/* an LLC record (SMC_DUMP_TYPE_LLC) */

/* The SMC-R CDC message on the wire (SMC_WR_TX_SIZE) and SMC-D's */
#define SMC_BPF_CDC_R_LEN	44
#define SMC_BPF_CDC_D_LEN	32
/* The first byte of an SMC-R CDC message; any other in a send slot is an
 * LLC message's type
 */
#define SMC_BPF_CDC_TYPE	0xFE

/* An LLC message: SMC-Rv1's (SMC_WR_TX_SIZE), and the most an SMC-Rv2
 * message takes (SMC_WR_BUF_V2_SIZE); an LLC record's payload is struct
 * smc_dump_llc_link (48 bytes), then the message
 */
#define SMC_BPF_LLC_LEN		44
#define SMC_BPF_LLC_V2_MAX	8192
#define SMC_BPF_LLC_LINK_LEN	48

/* The largest data payload of a record: the largest IP packet the dummy
 * link takes (its MTU, 65535 bytes, header included: AF_PACKET refuses a
 * longer frame with EMSGSIZE) less the IP, UDP and record headers. For
 * IPv4 that is the kernel series' limit too; for IPv6 the series goes to
 * 65487 (it hands its records to the taps without an MTU check), the bpf
 * backend stops at 65447, so its IPv6 records split a block elsewhere
 * (the stream and its offsets are the same).
 */
#define SMC_BPF_MAX_PAYLOAD	(65535 - 20 - 8 - 40)
#define SMC_BPF_MAX_PAYLOAD_V6	(65535 - 40 - 8 - 40)

/* smc_bpf_cfg.mode and .type: the values of the link's filter
 * (enum smc_dummy_mode, enum smc_dummy_capture)
 */

/**
 * struct smc_bpf_rec - a record as the BPF programs saw it
 * @kind: SMC_BPF_*
 * @flags: SMC_DUMP_F_* of the record
 * @mode: SMC_DUMP_MODE_SMCR or SMC_DUMP_MODE_SMCD
 * @smc_ver: SMC version of the link group
 * @seq: record number: every record that matched the filter takes one,
 *	delivered or lost (ring full), so a loss is a gap
 * @token: the connection's local alert token; LLC: the link group's id,
 *	its 4 bytes read as a big-endian number
 * @orig_len: payload bytes before snaplen
 * @caplen: payload bytes that follow this header
 * @buflen: data: size of the ring buffer (send buffer or RMB) whose
 *	cursor gave @wrap and @count
 * @count: data: cursor count of the first payload byte
 * @wrap: data: cursor wrap of the first payload byte; the stream offset
 *	is (wrap * buflen + count), wrap extended past 16 bits by user space
 * @family: AF_INET or AF_INET6: the IP version of the record
 * @lport: local TCP port of the CLC socket, network byte order; LLC: 0
 * @rport: peer TCP port, network byte order; LLC: 0
 * @laddr: local address (IPv4: the first 4 bytes); LLC: the link's GID
 * @raddr: peer address; LLC: the peer's GID
 * @sseq: the record's stream_seq: its number among the records of its
 *	connection (LLC: link group), direction and type, lost ones too
 * @conn: kernel address of the connection, its identity until SMC_BPF_END;
 *	LLC: of the link group (unused)
 */
struct smc_bpf_rec {
	__u8	kind;
	__u8	flags;
	__u8	mode;
	__u8	smc_ver;
	__u32	seq;
	__u32	token;
	__u32	orig_len;
	__u32	caplen;
	__u32	buflen;
	__u32	count;
	__u16	wrap;
	__u8	family;
	__u8	pad;
	__u16	lport;
	__u16	rport;
	__u32	sseq;
	__u8	laddr[16];
	__u8	raddr[16];
	__u64	conn;
};

#endif /* SMC_CAPTURE_BPF_H */
