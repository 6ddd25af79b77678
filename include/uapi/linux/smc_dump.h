/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * Shared Memory Communications: dump of SMC data, CDC and LLC messages
 *
 * An rtnetlink link of kind "smc-dummy" turns SMC dump on for its network
 * namespace. The SMC stack then mirrors every data block and CDC message of
 * the namespace's SMC connections, and every LLC message of its SMC-R link
 * groups, to the link as an Ethernet frame carrying IPv4 or IPv6 and UDP
 * with the addresses and ports of the connection's TCP socket (sent: local
 * to peer, received: peer to local; LLC: between the link's GIDs).
 * The UDP payload is struct smc_dump_hdr followed by the payload. Taps on
 * the link (AF_PACKET: tcpdump, libpcap) see the frames; the link itself
 * drops them.
 */
#ifndef _UAPI_LINUX_SMC_DUMP_H
#define _UAPI_LINUX_SMC_DUMP_H

#include <linux/types.h>

/* IFLA_INFO_DATA attributes of link kind "smc-dummy" */
enum {
	IFLA_SMC_DUMMY_UNSPEC,
	IFLA_SMC_DUMMY_MODE,	/* u8, enum smc_dummy_mode; default SMC */
	IFLA_SMC_DUMMY_CAPTURE,	/* u8, enum smc_dummy_capture; default ALL */
	IFLA_SMC_DUMMY_SNAPLEN,	/* u32, payload bytes kept per data record;
				 * 0 (default) keeps all
				 */
	__IFLA_SMC_DUMMY_MAX
};

#define IFLA_SMC_DUMMY_MAX	(__IFLA_SMC_DUMMY_MAX - 1)

/* IFLA_SMC_DUMMY_MODE: which connections a link records */
enum smc_dummy_mode {
	SMC_DUMMY_MODE_SMC,	/* SMC-R and SMC-D */
	SMC_DUMMY_MODE_SMCR,	/* SMC-R only */
	SMC_DUMMY_MODE_SMCD,	/* SMC-D (ISM and loopback-ism) only */
	__SMC_DUMMY_MODE_MAX
};

#define SMC_DUMMY_MODE_MAX	(__SMC_DUMMY_MODE_MAX - 1)

/* IFLA_SMC_DUMMY_CAPTURE: which records a link gets */
enum smc_dummy_capture {
	SMC_DUMMY_CAPTURE_ALL,	/* data, CDC and LLC messages */
	SMC_DUMMY_CAPTURE_RAW,	/* data only */
	SMC_DUMMY_CAPTURE_CDC,	/* CDC messages only */
	SMC_DUMMY_CAPTURE_LLC,	/* SMC-R LLC messages only */
	__SMC_DUMMY_CAPTURE_MAX
};

#define SMC_DUMMY_CAPTURE_MAX	(__SMC_DUMMY_CAPTURE_MAX - 1)

/* IFLA_SMC_DUMMY_SNAPLEN: at most an IP datagram's 16-bit length */
#define SMC_DUMMY_SNAPLEN_MAX	0xffff

/* smc_dump_hdr.magic: marks a record; the first field of every version */
#define SMC_DUMP_MAGIC		0xCFD3E7A5
/* smc_dump_hdr.hdr_ver of this layout (40-byte header). A header of
 * another version keeps magic, the versions, mode, type and len at these
 * offsets, so that a reader tells a record of a version it does not
 * know from a frame that is no record.
 */
#define SMC_DUMP_HDR_VER	4

/* smc_dump_hdr.mode: SMC-R or SMC-D */
#define SMC_DUMP_MODE_SMCR	1
#define SMC_DUMP_MODE_SMCD	2

/* smc_dump_hdr.type */
#define SMC_DUMP_TYPE_RAW	1	/* connection data */
#define SMC_DUMP_TYPE_CDC	2	/* CDC message */
#define SMC_DUMP_TYPE_LLC	3	/* SMC-R LLC message: struct
					 * smc_dump_llc_link, then the message
					 */

/* smc_dump_hdr.flags */
#define SMC_DUMP_F_RX		0x01	/* received; clear: sent */
#define SMC_DUMP_F_TRUNC	0x02	/* payload truncated by snaplen */
#define SMC_DUMP_F_FAILED	0x04	/* CDC or LLC sent: the send failed,
					 * the peer never got this message
					 */
#define SMC_DUMP_F_BIG_ENDIAN	0x08	/* the recording host is big-endian:
					 * payload fields in host byte order
					 * (the SMC-D CDC message) are
					 * big-endian; clear: little-endian
					 */

/**
 * struct smc_dump_hdr - header of an SMC dump record (UDP payload), 40 bytes
 * @magic: SMC_DUMP_MAGIC
 * @hdr_ver: SMC_DUMP_HDR_VER
 * @smc_ver: SMC protocol version of the link group (1 or 2)
 * @mode: SMC_DUMP_MODE_SMCR or SMC_DUMP_MODE_SMCD
 * @type: SMC_DUMP_TYPE_RAW, SMC_DUMP_TYPE_CDC or SMC_DUMP_TYPE_LLC
 * @len: header plus captured payload, bytes
 * @hdr_len: this header's length in bytes (40); readers skip what they do
 *	not know up to hdr_len
 * @flags: SMC_DUMP_F_*
 * @seq: per-link record number, counting every record that matched the
 *	link, delivered or dropped. A tap's filter or a stop in mid-stream
 *	leaves gaps too, so a gap alone is not loss: @stream_seq tells
 * @token: RAW and CDC: the connection's local alert token (RMBE token);
 *	LLC: the link group's id
 * @orig_len: payload length before truncation, bytes
 * @offset: data: offset of the first payload byte in this direction's
 *	byte stream since the connection began; CDC and LLC: 0
 * @stream_seq: number of records of this @token, direction and @type the
 *	kernel made before this one, from 0; the same on every link and
 *	backend that records the stream, so a gap in it is a record lost
 *	(a full ring, a failed allocation), whatever a filter left out
 * @reserved: 0
 *
 * A CDC or LLC message sent is numbered before it leaves, so its record
 * has a lower @seq than the record of its arrival when both ends dump to
 * one link; when the send fails, the record is still delivered, with
 * SMC_DUMP_F_FAILED set.
 *
 * All multi-byte header fields are big-endian. A CDC payload is the CDC
 * message as the stack handles it: the 44-byte SMC-R wire format (RFC 7609,
 * big-endian) or the 32-byte SMC-D struct smcd_cdc_msg (host byte order,
 * which SMC_DUMP_F_BIG_ENDIAN names).
 */
struct smc_dump_hdr {
	__be32	magic;
	__u8	hdr_ver;
	__u8	smc_ver;
	__u8	mode;
	__u8	type;
	__be16	len;
	__u8	hdr_len;
	__u8	flags;
	__be32	seq;
	__be32	token;
	__be32	orig_len;
	__be64	offset;
	__be32	stream_seq;
	__be32	reserved;
};

/**
 * struct smc_dump_llc_link - the link an LLC record's message used, 48 bytes
 * @lgr_id: the link group's id, as LLC and CLC messages carry it
 * @link_id: the link's id in its link group (LLC link id)
 * @ib_port: the RDMA device port of the link, from 1
 * @reserved: 0
 * @local_qp: the local queue pair number, big-endian
 * @peer_qp: the peer's queue pair number, big-endian
 * @local_gid: the local GID
 * @peer_gid: the peer's GID
 *
 * The payload of an SMC_DUMP_TYPE_LLC record: this, then the LLC message
 * as it went on or came off the wire (44 bytes, or an SMC-Rv2 message
 * of up to the v2 buffer's size).
 */
struct smc_dump_llc_link {
	__u8	lgr_id[4];
	__u8	link_id;
	__u8	ib_port;
	__be16	reserved;
	__be32	local_qp;
	__be32	peer_qp;
	__u8	local_gid[16];
	__u8	peer_gid[16];
};

#endif /* _UAPI_LINUX_SMC_DUMP_H */
