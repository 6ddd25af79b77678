// SPDX-License-Identifier: GPL-2.0
/*
 * smc dump: decoder of SMC CLC messages (Proposal, Accept, Confirm,
 * Decline) in the TCP handshake, as Linux 6.12 net/smc/smc_clc.h lays
 * them out (RFC 7609 and IBM's SMC Version 2 document). All multi-byte
 * fields are big-endian.
 *
 * Offsets and counts come from the peer: each field is read only when its
 * bytes are inside both the message (its length field) and the capture.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>

#include "smcdump.h"
#include "json_print.h"
#include "smc_codes.h"

#define CLC_HDR_LEN		8
#define CLC_TRL_LEN		4
#define CLC_PROPOSAL		1
#define CLC_ACCEPT		2
#define CLC_CONFIRM		3
#define CLC_DECLINE		4

#define SMC_TYPE_R		0
#define SMC_TYPE_D		1
#define SMC_TYPE_N		2
#define SMC_TYPE_B		3
#define SMC_FIRST_CONTACT_MASK	0x2	/* in typev2 */

#define EID_LEN			32
#define SYSTEMID_LEN		8
#define GID_LEN			16
#define HOSTNAME_LEN		32
#define IPV6_PREFIX_LEN		17	/* struct smc_clc_ipv6_prefix */
#define GIDCHID_LEN		10	/* struct smc_clc_smcd_gid_chid */

/* struct smc_clc_msg_proposal: hdr, smc_clc_msg_local, iparea_offset */
#define PROP_BASE_LEN		40
#define PROP_SMCD_LEN		40	/* struct smc_clc_msg_smcd */
#define PROP_PREFIX_LEN		8	/* struct smc_clc_msg_proposal_prefix */
#define V2_EXT_LEN		40	/* struct smc_clc_v2_extension_fixed */
#define SMCD_V2_EXT_LEN		48	/* smc_clc_smcd_v2_extension_fixed */

#define SMCR_ACC_LEN_V1		68	/* SMCR_CLC_ACCEPT_CONFIRM_LEN */
#define SMCD_ACC_LEN_V1		48	/* SMCD_CLC_ACCEPT_CONFIRM_LEN */
#define SMCR_ACC_LEN_V2		108	/* SMCR_CLC_ACCEPT_CONFIRM_LEN_V2 */
#define SMCD_ACC_LEN_V2		78	/* SMCD_CLC_ACCEPT_CONFIRM_LEN_V2 */
#define FCE_LEN			36	/* struct smc_clc_first_contact_ext */
#define FCE_V2X_LEN		52	/* smc_clc_first_contact_ext_v2x */
#define GLE_LEN			4	/* struct smc_clc_fce_gid_ext */

/* what Linux accepts in a Proposal (net/smc/smc_clc.h) */
#define CLC_MAX_V6_PREFIX	8	/* SMC_CLC_MAX_V6_PREFIX */
#define CLC_MAX_UEID		8	/* SMC_CLC_MAX_UEID */
#define CLC_MAX_V2_GID		8	/* SMCD_CLC_MAX_V2_GID_ENTRIES */

#define DECL_LEN_V1		28	/* struct smc_clc_msg_decline */
#define DECL_LEN_V2		44	/* struct smc_clc_msg_decline_v2 */
#define DECL_DIAG_V2		4	/* SMC_DECL_DIAG_COUNT_V2 */

/* The message layouts of Linux 6.12 net/smc/smc_clc.h (struct names
 * in the comments), byte by byte: no padding, so offsetof() is the wire
 * offset. Multi-byte fields are big-endian; bitfields are whole bytes
 * here and their bits are taken apart where they are read.
 */
struct clc_hdr {			/* struct smc_clc_msg_hdr */
	uint8_t eyecatcher[4];
	uint8_t type;
	uint8_t length[2];
	uint8_t vers_types;		/* version:4, typev2:2, typev1:2 */
};

struct clc_local {			/* struct smc_clc_msg_local */
	uint8_t id_for_peer[SYSTEMID_LEN];
	uint8_t gid[GID_LEN];
	uint8_t mac[6];
};

struct clc_proposal {			/* struct smc_clc_msg_proposal */
	struct clc_hdr hdr;
	struct clc_local lcl;
	uint8_t iparea_offset[2];	/* from the end of this struct */
};

struct clc_gidchid {			/* struct smc_clc_smcd_gid_chid */
	uint8_t gid[8];
	uint8_t chid[2];
};

struct clc_prop_smcd {			/* struct smc_clc_msg_smcd */
	struct clc_gidchid ism;
	uint8_t v2_ext_offset[2];	/* from the end of this field */
	uint8_t vendor_oui[3];
	uint8_t vendor_options[25];
};

struct clc_prefix {		/* struct smc_clc_msg_proposal_prefix */
	uint8_t outgoing_subnet[4];
	uint8_t prefix_len;
	uint8_t reserved[2];
	uint8_t ipv6_prefixes_cnt;
};

struct clc_ipv6_prefix {		/* struct smc_clc_ipv6_prefix */
	uint8_t prefix[16];
	uint8_t prefix_len;
};

struct clc_v2_ext {		/* struct smc_clc_v2_extension, fixed part */
	uint8_t eid_cnt;		/* struct smc_clnt_opts_area_hdr */
	uint8_t ism_gid_cnt;
	uint8_t reserved1;
	uint8_t release_seid;		/* release:4, reserved:3, seid:1 */
	uint8_t reserved2[2];
	uint8_t smcd_v2_ext_offset[2];	/* from the end of this field */
	uint8_t roce[GID_LEN];
	uint8_t max_conns;
	uint8_t max_links;
	uint8_t feature_mask[2];
	uint8_t reserved3[12];
};

struct clc_smcd_v2_ext {	/* struct smc_clc_smcd_v2_extension, fixed */
	uint8_t system_eid[EID_LEN];
	uint8_t reserved[16];
};

/* struct smc_clc_msg_accept_confirm with struct
 * smcr_clc_msg_accept_confirm, then the v2 part
 */
struct clc_smcr_acc {
	struct clc_hdr hdr;
	struct clc_local lcl;
	uint8_t qpn[3];
	uint8_t rmb_rkey[4];
	uint8_t rmbe_idx;
	uint8_t rmbe_alert_token[4];
	uint8_t rmbe_size_qp_mtu;	/* rmbe_size:4, qp_mtu:4 */
	uint8_t reserved;
	uint8_t rmb_dma_addr[8];
	uint8_t reserved2;
	uint8_t psn[3];
	uint8_t eid[EID_LEN];		/* v2 */
	uint8_t reserved3[8];
};

/* struct smc_clc_msg_accept_confirm with struct
 * smcd_clc_msg_accept_confirm_common, then the v2 part
 */
struct clc_smcd_acc {
	struct clc_hdr hdr;
	uint8_t gid[8];
	uint8_t token[8];
	uint8_t dmbe_idx;
	uint8_t dmbe_size;		/* dmbe_size:4, reserved:4 */
	uint8_t reserved[2];
	uint8_t linkid[4];
	uint8_t chid[2];		/* v2 */
	uint8_t eid[EID_LEN];
	uint8_t gid_ext[8];
};

/* struct smc_clc_first_contact_ext, then the rest of _v2x */
struct clc_fce {
	uint8_t v2_direct;		/* v2_direct:1, reserved:7 */
	uint8_t os_release;		/* os_type:4, release:4 */
	uint8_t reserved[2];
	uint8_t hostname[HOSTNAME_LEN];
	uint8_t max_conns;		/* _v2x */
	uint8_t max_links;
	uint8_t feature_mask[2];
	uint8_t vendor_exp_options[4];
	uint8_t reserved2[8];
};

struct clc_gid_ext {			/* struct smc_clc_fce_gid_ext */
	uint8_t gid_cnt;
	uint8_t reserved[3];
};

/* struct smc_clc_msg_decline, then the v2 diagnoses of
 * struct smc_clc_msg_decline_v2
 */
struct clc_decline {
	struct clc_hdr hdr;
	uint8_t id_for_peer[SYSTEMID_LEN];
	uint8_t peer_diagnosis[4];
	uint8_t os_type;		/* os_type:4, reserved:4 */
	uint8_t reserved[3];
	uint8_t peer_diagnosis_v2[DECL_DIAG_V2][4];
};

#define HDR(f)		offsetof(struct clc_hdr, f)
#define PROP(f)		offsetof(struct clc_proposal, f)
#define PSMCD(f)	(PROP_BASE_LEN + offsetof(struct clc_prop_smcd, f))
#define PFX(f)		offsetof(struct clc_prefix, f)
#define V2X(f)		offsetof(struct clc_v2_ext, f)
#define RACC(f)		offsetof(struct clc_smcr_acc, f)
#define DACC(f)		offsetof(struct clc_smcd_acc, f)
#define FCE(f)		offsetof(struct clc_fce, f)
#define DECL(f)		offsetof(struct clc_decline, f)

_Static_assert(sizeof(struct clc_hdr) == CLC_HDR_LEN, "CLC header");
_Static_assert(sizeof(struct clc_proposal) == PROP_BASE_LEN, "proposal");
_Static_assert(sizeof(struct clc_prop_smcd) == PROP_SMCD_LEN, "smcd");
_Static_assert(sizeof(struct clc_gidchid) == GIDCHID_LEN, "gid chid");
_Static_assert(sizeof(struct clc_prefix) == PROP_PREFIX_LEN, "prefix");
_Static_assert(sizeof(struct clc_ipv6_prefix) == IPV6_PREFIX_LEN, "v6");
_Static_assert(sizeof(struct clc_v2_ext) == V2_EXT_LEN, "v2 extension");
_Static_assert(sizeof(struct clc_smcd_v2_ext) == SMCD_V2_EXT_LEN, "d v2");
_Static_assert(sizeof(struct clc_smcr_acc) == SMCR_ACC_LEN_V2 - CLC_TRL_LEN,
	       "SMC-Rv2 accept");
_Static_assert(sizeof(struct clc_smcd_acc) == SMCD_ACC_LEN_V2 - CLC_TRL_LEN,
	       "SMC-Dv2 accept");
_Static_assert(offsetof(struct clc_fce, max_conns) == FCE_LEN, "fce");
_Static_assert(sizeof(struct clc_fce) == FCE_V2X_LEN, "fce v2x");
_Static_assert(sizeof(struct clc_gid_ext) == GLE_LEN, "gid list");
_Static_assert(offsetof(struct clc_decline, peer_diagnosis_v2) ==
	       DECL_LEN_V1 - CLC_TRL_LEN, "v1 decline");
_Static_assert(sizeof(struct clc_decline) == DECL_LEN_V2 - CLC_TRL_LEN,
	       "v2 decline");

static const uint8_t eye_r[4] = { 0xe2, 0xd4, 0xc3, 0xd9 };	/* "SMCR" */
static const uint8_t eye_d[4] = { 0xe2, 0xd4, 0xc3, 0xc4 };	/* "SMCD" */

/* The part of the message we may read: min(length, captured). */
struct clc_msg {
	const uint8_t *p;
	uint32_t len;
};

/* Decoder state: the first problem found, and whether to print. */
struct clc_state {
	const struct dump_opts *o;
	bool quiet;
	char *err;
	size_t errlen;
	bool bad;
};

static bool has(const struct clc_msg *m, uint32_t off, uint32_t n)
{
	return off <= m->len && n <= m->len - off;
}

static void __attribute__((format(printf, 2, 3)))
problem(struct clc_state *s, const char *fmt, ...)
{
	va_list ap;

	if (s->bad)
		return;	/* keep the first */
	s->bad = true;
	va_start(ap, fmt);
	vsnprintf(s->err, s->errlen, fmt, ap);
	va_end(ap);
}

/**
 * dump_clc_is_eyecatcher() - whether 4 bytes are a CLC eyecatcher
 * @p: at least 4 bytes
 *
 * Return: true for "SMCR" or "SMCD" in EBCDIC.
 */
bool dump_clc_is_eyecatcher(const uint8_t *p)
{
	return !memcmp(p, eye_r, 4) || !memcmp(p, eye_d, 4);
}

/* Output helpers: text in default mode when @def, else with -d only;
 * JSON always. Nothing when quiet.
 */
static enum output_type otype(struct clc_state *s, bool def)
{
	return def || s->o->details ? PRINT_ANY : PRINT_JSON;
}

static void out_str(struct clc_state *s, bool def, const char *key,
		    const char *fmt, const char *v)
{
	if (!s->quiet)
		print_string(otype(s, def), key, fmt, v);
}

static void out_uint(struct clc_state *s, bool def, const char *key,
		     const char *fmt, unsigned int v)
{
	if (!s->quiet)
		print_uint(otype(s, def), key, fmt, v);
}

static void out_bool(struct clc_state *s, bool def, const char *key,
		     const char *text, bool v)
{
	if (s->quiet)
		return;
	print_bool(PRINT_JSON, key, NULL, v);
	if (v && (def || s->o->details))
		print_string(PRINT_FP, NULL, "%s", text);
}

/* "0x" and 2, 4, 8 or 16 hex digits, as a JSON string too */
static void out_hexn(struct clc_state *s, bool def, const char *key,
		     const char *label, uint64_t v, int digits)
{
	char buf[24], fmt[48];

	if (s->quiet)
		return;
	snprintf(buf, sizeof(buf), "0x%0*" PRIx64, digits, v);
	snprintf(fmt, sizeof(fmt), " %s %%s", label);
	print_string(otype(s, def), key, fmt, buf);
}

static void out_open(struct clc_state *s, const char *key)
{
	if (!s->quiet)
		open_json_object(key);
}

static void out_close(struct clc_state *s)
{
	if (!s->quiet)
		close_json_object();
}

static void out_open_array(struct clc_state *s, const char *key)
{
	if (!s->quiet)
		open_json_array(PRINT_JSON, key);
}

static void out_close_array(struct clc_state *s)
{
	if (!s->quiet)
		close_json_array(PRINT_JSON, NULL);
}

static void fmt_hexbytes(const uint8_t *p, uint32_t n, char *buf)
{
	static const char hx[] = "0123456789abcdef";
	uint32_t i;

	for (i = 0; i < n; i++) {
		buf[2 * i] = hx[p[i] >> 4];
		buf[2 * i + 1] = hx[p[i] & 15];
	}
	buf[2 * n] = '\0';
}

/* An EID or host name: up to @n bytes, up to the first NUL, trailing
 * blanks dropped; bytes outside printable ASCII, backslash and the double
 * quote as \xNN. @buf needs 4 * @n + 1 bytes.
 */
static void fmt_name(const uint8_t *p, uint32_t n, char *buf)
{
	uint32_t i, end = 0;
	char *o = buf;

	while (end < n && p[end])
		end++;
	while (end && p[end - 1] == ' ')
		end--;
	for (i = 0; i < end; i++) {
		if (p[i] >= 0x20 && p[i] < 0x7f && p[i] != '\\' &&
		    p[i] != '"')
			*o++ = (char)p[i];
		else
			o += sprintf(o, "\\x%02x", p[i]);
	}
	*o = '\0';
}

static void out_name(struct clc_state *s, bool def, const char *key,
		     const char *label, const uint8_t *p, uint32_t n)
{
	char buf[4 * 64 + 1], fmt[48];

	if (s->quiet)
		return;
	fmt_name(p, n > 64 ? 64 : n, buf);
	snprintf(fmt, sizeof(fmt), " %s \"%%s\"", label);
	print_string(otype(s, def), key, fmt, buf);
}

static void out_bytes(struct clc_state *s, bool def, const char *key,
		      const char *label, const uint8_t *p, uint32_t n)
{
	char buf[2 * 32 + 1], fmt[48];

	if (s->quiet)
		return;
	fmt_hexbytes(p, n > 32 ? 32 : n, buf);
	snprintf(fmt, sizeof(fmt), " %s %%s", label);
	print_string(otype(s, def), key, fmt, buf);
}

static void out_gid(struct clc_state *s, bool def, const char *key,
		    const char *label, const uint8_t *p)
{
	char buf[INET6_ADDRSTRLEN], fmt[48];

	if (s->quiet)
		return;
	inet_ntop(AF_INET6, p, buf, sizeof(buf));
	snprintf(fmt, sizeof(fmt), " %s %%s", label);
	print_string(otype(s, def), key, fmt, buf);
}

static void out_mac(struct clc_state *s, bool def, const char *key,
		    const char *label, const uint8_t *p)
{
	char buf[18], fmt[48];

	if (s->quiet)
		return;
	snprintf(buf, sizeof(buf), "%02x:%02x:%02x:%02x:%02x:%02x",
		 p[0], p[1], p[2], p[3], p[4], p[5]);
	snprintf(fmt, sizeof(fmt), " %s %%s", label);
	print_string(otype(s, def), key, fmt, buf);
}

static const char *smc_type_name(unsigned int t)
{
	static const char * const names[] = {
		[SMC_TYPE_R] = "smcr", [SMC_TYPE_D] = "smcd",
		[SMC_TYPE_N] = "none", [SMC_TYPE_B] = "both",
	};

	return names[t & 3];
}

static const char *os_name(unsigned int os)
{
	switch (os) {
	case 1:
		return "zos";
	case 2:
		return "linux";
	case 3:
		return "aix";
	}
	return "unknown";
}

static const char *clc_type_name(unsigned int type)
{
	switch (type) {
	case CLC_PROPOSAL:
		return "proposal";
	case CLC_ACCEPT:
		return "accept";
	case CLC_CONFIRM:
		return "confirm";
	case CLC_DECLINE:
		return "decline";
	}
	return NULL;
}

/* ISM GID and CHID pair (struct smc_clc_smcd_gid_chid) at @off */
static void out_gidchid(struct clc_state *s, const struct clc_msg *m,
			uint32_t off, bool def)
{
	out_hexn(s, def, "ism_gid", "ism-gid",
		 get_be64(m->p + off + offsetof(struct clc_gidchid, gid)), 16);
	out_hexn(s, def, "ism_chid", "chid",
		 get_be16(m->p + off + offsetof(struct clc_gidchid, chid)), 4);
}

static void decode_proposal(struct clc_state *s, const struct clc_msg *m,
			    unsigned int version, unsigned int typev1,
			    unsigned int typev2, uint16_t length)
{
	uint32_t pfx = 0, v2 = 0, sv2 = 0, expect, i;
	uint16_t iparea, v2off = 0, sv2off = 0;
	uint8_t ip6cnt = 0, eidcnt = 0, gidcnt = 0;
	bool smcd = typev1 == SMC_TYPE_D || typev1 == SMC_TYPE_B ||
		    (version >= 2 && (typev2 == SMC_TYPE_D ||
				      typev2 == SMC_TYPE_B));
	bool has_pfx, has_v2, has_sv2;

	out_str(s, true, "path", " path %s", smc_type_name(typev1));
	if (version >= 2)
		out_str(s, true, "path_v2", " v2-path %s",
			smc_type_name(typev2));
	if (!has(m, 0, PROP_BASE_LEN)) {
		problem(s, "proposal of %u bytes, need %u", m->len,
			PROP_BASE_LEN);
		return;
	}
	out_bytes(s, false, "system_id", "system-id",
		  m->p + PROP(lcl.id_for_peer), SYSTEMID_LEN);
	out_gid(s, false, "gid", "gid", m->p + PROP(lcl.gid));
	out_mac(s, false, "mac", "mac", m->p + PROP(lcl.mac));
	iparea = get_be16(m->p + PROP(iparea_offset));
	out_uint(s, false, "iparea_offset", " iparea-offset %u", iparea);

	/* struct smc_clc_msg_smcd: always sent by v2; v1 sends it when
	 * iparea_offset leaves room for it
	 */
	if ((version >= 2 || iparea >= GIDCHID_LEN) &&
	    has(m, PROP_BASE_LEN, GIDCHID_LEN)) {
		if (smcd || get_be64(m->p + PSMCD(ism.gid)))
			out_gidchid(s, m, PSMCD(ism), true);
		else
			out_gidchid(s, m, PSMCD(ism), false);
	}
	if (version >= 2 && has(m, PSMCD(v2_ext_offset), 2)) {
		v2off = get_be16(m->p + PSMCD(v2_ext_offset));
		out_uint(s, false, "v2_ext_offset", " v2-ext-offset %u", v2off);
	}

	/* IP prefix area: sent unless the v1 path is none */
	has_pfx = typev1 != SMC_TYPE_N || version < 2;
	if (has_pfx) {
		char buf[INET6_ADDRSTRLEN + 8];

		pfx = PROP_BASE_LEN + iparea;
		if (!has(m, pfx, PROP_PREFIX_LEN)) {
			problem(s, "IP prefix area at %u beyond the message",
				pfx);
			return;
		}
		inet_ntop(AF_INET, m->p + pfx, buf, sizeof(buf));
		snprintf(buf + strlen(buf), 8, "/%u",
			 m->p[pfx + PFX(prefix_len)]);
		out_str(s, false, "ipv4_prefix", " prefix %s", buf);
		ip6cnt = m->p[pfx + PFX(ipv6_prefixes_cnt)];
		out_open_array(s, "ipv6_prefixes");
		for (i = 0; i < ip6cnt; i++) {
			uint32_t o = pfx + PROP_PREFIX_LEN + i * IPV6_PREFIX_LEN;

			if (!has(m, o, IPV6_PREFIX_LEN)) {
				problem(s, "%u IPv6 prefixes, the message holds %u",
					ip6cnt, i);
				break;
			}
			inet_ntop(AF_INET6, m->p + o, buf, sizeof(buf));
			snprintf(buf + strlen(buf), 8, "/%u",
				 m->p[o + offsetof(struct clc_ipv6_prefix,
						   prefix_len)]);
			out_str(s, false, NULL, " prefix %s", buf);
		}
		out_close_array(s);
	}

	/* v2 extension, placed by v2_ext_offset after that field */
	has_v2 = version >= 2 && typev2 != SMC_TYPE_N;
	if (has_v2) {
		v2 = PSMCD(vendor_oui) + v2off;
		if (!v2off || !has(m, v2, V2_EXT_LEN)) {
			problem(s, "v2 extension at offset %u beyond the message",
				v2off);
			return;
		}
		eidcnt = m->p[v2 + V2X(eid_cnt)];
		gidcnt = m->p[v2 + V2X(ism_gid_cnt)];
		out_open(s, "v2");
		out_uint(s, false, "eid_cnt", " eid-cnt %u", eidcnt);
		out_uint(s, false, "ism_gid_cnt", " ism-gid-cnt %u", gidcnt);
		out_uint(s, false, "release", " release %u",
			 m->p[v2 + V2X(release_seid)] >> 4);
		out_bool(s, false, "seid", " seid-enabled",
			 m->p[v2 + V2X(release_seid)] & 1);
		sv2off = get_be16(m->p + v2 + V2X(smcd_v2_ext_offset));
		out_uint(s, false, "smcd_v2_ext_offset", " smcd-v2-ext-offset %u",
			 sv2off);
		out_gid(s, false, "roce_gid", "roce-gid", m->p + v2 + V2X(roce));
		out_uint(s, false, "max_conns", " max-conns %u",
			 m->p[v2 + V2X(max_conns)]);
		out_uint(s, false, "max_links", " max-links %u",
			 m->p[v2 + V2X(max_links)]);
		out_hexn(s, false, "feature_mask", "feature-mask",
			 get_be16(m->p + v2 + V2X(feature_mask)), 4);
		out_open_array(s, "ueids");
		for (i = 0; i < eidcnt; i++) {
			uint32_t o = v2 + V2_EXT_LEN + i * EID_LEN;

			if (!has(m, o, EID_LEN)) {
				problem(s, "%u user EIDs, the message holds %u",
					eidcnt, i);
				break;
			}
			out_name(s, true, NULL, "ueid", m->p + o, EID_LEN);
		}
		out_close_array(s);

		has_sv2 = typev2 == SMC_TYPE_D || typev2 == SMC_TYPE_B;
		if (has_sv2) {
			sv2 = v2 + V2X(roce) + sv2off;
			if (!sv2off || !has(m, sv2, SMCD_V2_EXT_LEN)) {
				problem(s, "SMC-Dv2 extension at offset %u beyond the message",
					sv2off);
				out_close(s);
				return;
			}
			out_name(s, true, "system_eid", "seid",
				 m->p + sv2 + offsetof(struct clc_smcd_v2_ext,
						       system_eid), EID_LEN);
			out_open_array(s, "ism_gids");
			for (i = 0; i < gidcnt; i++) {
				uint32_t o = sv2 + SMCD_V2_EXT_LEN +
					     i * GIDCHID_LEN;

				if (!has(m, o, GIDCHID_LEN)) {
					problem(s, "%u ISMv2 GIDs, the message holds %u",
						gidcnt, i);
					break;
				}
				out_open(s, NULL);
				out_hexn(s, false, "gid", "ism-v2-gid",
					 get_be64(m->p + o +
						  offsetof(struct clc_gidchid,
							   gid)), 16);
				out_hexn(s, false, "chid", "chid",
					 get_be16(m->p + o +
						  offsetof(struct clc_gidchid,
							   chid)), 4);
				out_close(s);
			}
			out_close_array(s);
		}
		out_close(s);
	}

	/* the length the kernel expects (smc_clc_msg_prop_valid()) */
	expect = PROP_BASE_LEN + PROP_SMCD_LEN + CLC_TRL_LEN;
	if (version < 2) {
		/* v1: the SMC-D area only when iparea_offset says so */
		expect = PROP_BASE_LEN + iparea + PROP_PREFIX_LEN +
			 ip6cnt * IPV6_PREFIX_LEN + CLC_TRL_LEN;
	} else {
		if (typev1 != SMC_TYPE_N)
			expect += PROP_PREFIX_LEN + ip6cnt * IPV6_PREFIX_LEN;
		if (has_v2)
			expect += V2_EXT_LEN + eidcnt * EID_LEN;
		if (has_v2 && (typev2 == SMC_TYPE_D || typev2 == SMC_TYPE_B))
			expect += SMCD_V2_EXT_LEN + gidcnt * GIDCHID_LEN;
	}
	if (length != expect)
		problem(s, "proposal length %u, its fields make %u", length,
			expect);
	/* counts Linux refuses (smc_clc_msg_prop_valid()): the message is
	 * well formed, but a Linux peer declines it
	 */
	if (ip6cnt > CLC_MAX_V6_PREFIX || eidcnt > CLC_MAX_UEID ||
	    gidcnt > CLC_MAX_V2_GID) {
		char note[160];
		int n = snprintf(note, sizeof(note), "%s", "Linux rejects");

		if (ip6cnt > CLC_MAX_V6_PREFIX)
			n += snprintf(note + n, sizeof(note) - n,
				      " %u IPv6 prefixes (max %u)", ip6cnt,
				      CLC_MAX_V6_PREFIX);
		if (eidcnt > CLC_MAX_UEID)
			n += snprintf(note + n, sizeof(note) - n,
				      " %u UEIDs (max %u)", eidcnt,
				      CLC_MAX_UEID);
		if (gidcnt > CLC_MAX_V2_GID)
			snprintf(note + n, sizeof(note) - n,
				 " %u ISM GIDs (max %u)", gidcnt,
				 CLC_MAX_V2_GID);
		out_str(s, true, "note", " note \"%s\"", note);
	}
}

/* First contact extension (struct smc_clc_first_contact_ext[_v2x]) at
 * @off; returns its length or 0 when it does not fit.
 */
static uint32_t decode_fce(struct clc_state *s, const struct clc_msg *m,
			   uint32_t off, bool smcd)
{
	uint32_t len;
	unsigned int release;

	if (!has(m, off, FCE_LEN)) {
		problem(s, "first contact extension beyond the message");
		return 0;
	}
	release = m->p[off + FCE(os_release)] & 0x0f;
	/* SMC-D release 0 peers send the short form */
	len = smcd && !release ? FCE_LEN : FCE_V2X_LEN;
	out_open(s, "fce");
	out_bool(s, false, "v2_direct", " v2-direct",
		 m->p[off + FCE(v2_direct)] & 0x80);
	out_str(s, false, "os_type", " os %s",
		os_name(m->p[off + FCE(os_release)] >> 4));
	out_uint(s, false, "release", " release %u", release);
	out_name(s, false, "hostname", "hostname", m->p + off + FCE(hostname),
		 HOSTNAME_LEN);
	if (len == FCE_V2X_LEN) {
		if (!has(m, off, FCE_V2X_LEN)) {
			problem(s, "first contact extension beyond the message");
			out_close(s);
			return 0;
		}
		if (!smcd) {
			out_uint(s, false, "max_conns", " max-conns %u",
				 m->p[off + FCE(max_conns)]);
			out_uint(s, false, "max_links", " max-links %u",
				 m->p[off + FCE(max_links)]);
		}
		out_hexn(s, false, "feature_mask", "feature-mask",
			 get_be16(m->p + off + FCE(feature_mask)), 4);
		out_hexn(s, false, "vendor_exp_options", "vendor-options",
			 get_be32(m->p + off + FCE(vendor_exp_options)), 8);
	}
	out_close(s);
	return len;
}

static void decode_accept_confirm(struct clc_state *s,
				  const struct clc_msg *m, unsigned int type,
				  unsigned int version, unsigned int typev1,
				  unsigned int typev2, uint16_t length)
{
	bool first = typev2 & SMC_FIRST_CONTACT_MASK;
	bool smcd = typev1 == SMC_TYPE_D;
	uint32_t expect, off, fce = 0, i;

	if (typev1 == SMC_TYPE_R || typev1 == SMC_TYPE_D)
		out_str(s, true, "path", " %s", smc_type_name(typev1));
	else
		problem(s, "%s with path %s", clc_type_name(type),
			smc_type_name(typev1));
	out_bool(s, true, "first_contact", " first-contact", first);

	if (smcd) {
		if (!has(m, 0, DACC(chid))) {
			problem(s, "SMC-D %s of %u bytes, need %zu",
				clc_type_name(type), m->len, DACC(chid));
			return;
		}
		out_hexn(s, true, "ism_gid", "ism-gid",
			 get_be64(m->p + DACC(gid)), 16);
		out_hexn(s, true, "dmb_token", "dmb-token",
			 get_be64(m->p + DACC(token)), 16);
		out_uint(s, false, "dmbe_idx", " dmbe-idx %u",
			 m->p[DACC(dmbe_idx)]);
		out_uint(s, false, "dmbe_size", " dmbe-size %u",
			 m->p[DACC(dmbe_size)] >> 4);
		out_hexn(s, false, "link_id", "link-id",
			 get_be32(m->p + DACC(linkid)), 8);
		off = DACC(chid);
		if (version >= 2) {
			if (!has(m, DACC(chid),
				 sizeof(struct clc_smcd_acc) - DACC(chid))) {
				problem(s, "SMC-Dv2 %s of %u bytes, need %u",
					clc_type_name(type), m->len,
					SMCD_ACC_LEN_V2 - CLC_TRL_LEN);
				return;
			}
			out_hexn(s, true, "ism_chid", "chid",
				 get_be16(m->p + DACC(chid)), 4);
			out_name(s, true, "eid", "eid", m->p + DACC(eid),
				 EID_LEN);
			out_hexn(s, false, "gid_ext", "gid-ext",
				 get_be64(m->p + DACC(gid_ext)), 16);
			off = sizeof(struct clc_smcd_acc);
		}
	} else {
		if (!has(m, 0, RACC(eid))) {
			problem(s, "SMC-R %s of %u bytes, need %zu",
				clc_type_name(type), m->len, RACC(eid));
			return;
		}
		out_bytes(s, false, "system_id", "system-id",
			  m->p + RACC(lcl.id_for_peer), SYSTEMID_LEN);
		out_gid(s, false, "gid", "gid", m->p + RACC(lcl.gid));
		out_mac(s, false, "mac", "mac", m->p + RACC(lcl.mac));
		out_uint(s, true, "qpn", " qpn %u",
			 get_be24(m->p + RACC(qpn)));
		out_hexn(s, false, "rmb_rkey", "rkey",
			 get_be32(m->p + RACC(rmb_rkey)), 8);
		out_uint(s, false, "rmbe_idx", " rmbe-idx %u",
			 m->p[RACC(rmbe_idx)]);
		out_hexn(s, true, "rmbe_alert_token", "token",
			 get_be32(m->p + RACC(rmbe_alert_token)), 8);
		out_uint(s, false, "rmbe_size", " rmbe-size %u",
			 m->p[RACC(rmbe_size_qp_mtu)] >> 4);
		out_uint(s, false, "qp_mtu", " qp-mtu %u",
			 m->p[RACC(rmbe_size_qp_mtu)] & 0x0f);
		out_hexn(s, false, "rmb_dma_addr", "rmb-addr",
			 get_be64(m->p + RACC(rmb_dma_addr)), 16);
		out_uint(s, false, "psn", " psn %u",
			 get_be24(m->p + RACC(psn)));
		off = RACC(eid);
		if (version >= 2) {
			if (!has(m, RACC(eid),
				 sizeof(struct clc_smcr_acc) - RACC(eid))) {
				problem(s, "SMC-Rv2 %s of %u bytes, need %u",
					clc_type_name(type), m->len,
					SMCR_ACC_LEN_V2 - CLC_TRL_LEN);
				return;
			}
			out_name(s, true, "eid", "eid", m->p + RACC(eid),
				 EID_LEN);
			off = sizeof(struct clc_smcr_acc);
		}
	}

	if (version < 2) {
		expect = smcd ? SMCD_ACC_LEN_V1 : SMCR_ACC_LEN_V1;
		if (length != expect)
			problem(s, "v1 %s length %u, expected %u",
				clc_type_name(type), length, expect);
		return;
	}
	expect = off + CLC_TRL_LEN;
	if (first) {
		fce = decode_fce(s, m, off, smcd);
		if (!fce)
			return;
		off += fce;
		expect += fce;
		if (!smcd && type == CLC_CONFIRM) {
			uint8_t cnt;

			if (!has(m, off, GLE_LEN)) {
				problem(s, "GID list beyond the message");
				return;
			}
			cnt = m->p[off + offsetof(struct clc_gid_ext, gid_cnt)];
			out_open_array(s, "gid_list");
			for (i = 0; i < cnt; i++) {
				uint32_t o = off + GLE_LEN + i * GID_LEN;

				if (!has(m, o, GID_LEN)) {
					problem(s, "%u GIDs, the message holds %u",
						cnt, i);
					break;
				}
				out_gid(s, false, NULL, "gid", m->p + o);
			}
			out_close_array(s);
			expect += GLE_LEN + cnt * GID_LEN;
		}
	}
	/* Linux takes v2 messages longer than their fields (at least 78
	 * bytes SMC-D, 108 SMC-R: smc_clc_msg_acc_conf_valid()); the rest
	 * is for later versions
	 */
	if (length < expect)
		problem(s, "%s length %u, its fields make %u",
			clc_type_name(type), length, expect);
	else if (length > expect)
		out_uint(s, true, "extra_bytes", " extra %u", length - expect);
}

/* A peer diagnosis: code, name and text (JSON "peer_diagnosis",
 * "peer_diagnosis_name" (null when unknown), "peer_diagnosis_text" (the
 * class when unknown)), the names of smc socket's fallback object.
 */
static void out_diag(struct clc_state *s, bool def, uint32_t code,
		     const char *label)
{
	const struct smc_code *sc = smc_decline_lookup(code);
	char buf[12], fmt[32];

	if (s->quiet)
		return;
	snprintf(buf, sizeof(buf), "0x%08x", code);
	snprintf(fmt, sizeof(fmt), " %s %%s", label);
	print_string(otype(s, def), "peer_diagnosis", fmt, buf);
	if (sc) {
		print_string(otype(s, def), "peer_diagnosis_name", " %s",
			     sc->name);
		print_string(otype(s, def), "peer_diagnosis_text", " (%s)",
			     sc->text);
	} else {
		print_null(PRINT_JSON, "peer_diagnosis_name", NULL, NULL);
		print_string(PRINT_JSON, "peer_diagnosis_text", NULL,
			     smc_decline_class(code));
		if (def || s->o->details)
			print_string(PRINT_FP, NULL, " (unknown code, class %s)",
				     smc_decline_class(code));
	}
}

static void decode_decline(struct clc_state *s, const struct clc_msg *m,
			   unsigned int version, unsigned int typev2,
			   uint16_t length)
{
	uint32_t expect = version < 2 ? DECL_LEN_V1 : DECL_LEN_V2;
	int i;

	if (!has(m, 0, DECL(peer_diagnosis_v2))) {
		problem(s, "decline of %u bytes, need %u", m->len, expect);
		return;
	}
	out_diag(s, true, get_be32(m->p + DECL(peer_diagnosis)), "diag");
	out_bytes(s, false, "system_id", "system-id",
		  m->p + DECL(id_for_peer), SYSTEMID_LEN);
	out_bool(s, true, "out_of_sync", " out-of-sync",
		 typev2 & SMC_FIRST_CONTACT_MASK);
	out_str(s, false, "os_type", " os %s",
		os_name(m->p[DECL(os_type)] >> 4));
	if (version >= 2) {
		if (!has(m, DECL(peer_diagnosis_v2),
			 sizeof(((struct clc_decline *)0)->peer_diagnosis_v2))) {
			problem(s, "v2 decline of %u bytes, need %u", m->len,
				expect);
			return;
		}
		out_open_array(s, "peer_diagnosis_v2");
		for (i = 0; i < DECL_DIAG_V2; i++) {
			uint32_t code = get_be32(m->p +
						 DECL(peer_diagnosis_v2[i]));

			if (!code && !is_json_context())
				continue;
			out_open(s, NULL);
			out_diag(s, false, code, "diag-v2");
			out_close(s);
		}
		out_close_array(s);
	}
	if (length != expect)
		problem(s, "decline length %u, expected %u", length, expect);
}

/**
 * dump_decode_clc() - decode (and print) one CLC message
 * @c: the run; its details option selects the text fields
 * @p: the message, starting with its eyecatcher
 * @avail: bytes at @p (what the TCP segment holds, as captured)
 * @quiet: only check, print nothing
 * @used: set to the bytes the message takes at @p: its length, or @avail
 *	when the length is bad or the message continues past @avail
 * @incomplete: set when the message continues past @avail
 * @err: buffer for the first problem found
 * @errlen: size of @err
 *
 * Prints inside the JSON object the caller opened: "clc": {...}, and in
 * text mode "CLC <type> v<version> len <length> ...".
 *
 * Return: DUMP_OK, or DUMP_BAD when the message breaks the format (bad
 * length, counts or offsets pointing outside it, wrong trailer).
 */
/**
 * dump_clc_msg_len() - the length a CLC message says it has
 * @p: the message, starting with its eyecatcher
 * @avail: bytes at @p
 *
 * Return: the header's length field (bytes, header and trailer
 * included), or 0 when @avail does not hold the whole header or the
 * length is below header plus trailer.
 */
uint32_t dump_clc_msg_len(const uint8_t *p, uint32_t avail)
{
	uint16_t length;

	if (avail < CLC_HDR_LEN)
		return 0;
	length = get_be16(p + HDR(length));
	return length < CLC_HDR_LEN + CLC_TRL_LEN ? 0 : length;
}

int dump_decode_clc(const struct dump_opts *o, const uint8_t *p,
		    uint32_t avail, bool quiet, uint32_t *used,
		    bool *incomplete, char *err, size_t errlen)
{
	struct clc_state s = {
		.o = o, .quiet = quiet, .err = err, .errlen = errlen,
	};
	unsigned int type, version, typev1, typev2;
	const char *name;
	struct clc_msg m;
	uint16_t length;

	*used = avail;
	*incomplete = false;
	if (err && errlen)
		err[0] = '\0';
	out_open(&s, "clc");
	if (avail < CLC_HDR_LEN) {
		*incomplete = true;
		out_str(&s, true, "msg", "CLC %s", "incomplete");
		out_close(&s);
		return DUMP_OK;
	}
	type = p[HDR(type)];
	length = get_be16(p + HDR(length));
	version = p[HDR(vers_types)] >> 4;
	typev2 = (p[HDR(vers_types)] >> 2) & 3;
	typev1 = p[HDR(vers_types)] & 3;
	name = clc_type_name(type);

	if (name) {
		out_str(&s, true, "msg", "CLC %s", name);
	} else {
		out_uint(&s, true, "msg", "CLC type %u", type);
		problem(&s, "unknown CLC type %u", type);
	}
	out_uint(&s, true, "version", " v%u", version);
	out_uint(&s, true, "length", " len %u", length);
	out_str(&s, false, "eyecatcher", " eyecatcher %s",
		memcmp(p, eye_d, 4) ? "SMC-R" : "SMC-D");

	if (length < CLC_HDR_LEN + CLC_TRL_LEN) {
		problem(&s, "CLC length %u below %u", length,
			CLC_HDR_LEN + CLC_TRL_LEN);
		out_close(&s);
		return DUMP_BAD;
	}
	if (length <= avail) {
		*used = length;
		m.len = length;
	} else {
		*incomplete = true;
		m.len = avail;
	}
	m.p = p;

	switch (type) {
	case CLC_PROPOSAL:
		decode_proposal(&s, &m, version, typev1, typev2, length);
		break;
	case CLC_ACCEPT:
	case CLC_CONFIRM:
		decode_accept_confirm(&s, &m, type, version, typev1, typev2,
				      length);
		break;
	case CLC_DECLINE:
		decode_decline(&s, &m, version, typev2, length);
		break;
	}
	if (!*incomplete && !dump_clc_is_eyecatcher(p + length - CLC_TRL_LEN)) {
		const uint8_t *t = p + length - CLC_TRL_LEN;

		problem(&s, "bad trailer %02x%02x%02x%02x", t[0], t[1], t[2],
			t[3]);
	}
	/* a message cut by the segment end: whatever did not fit is not
	 * the message's fault
	 */
	if (*incomplete) {
		s.bad = false;
		out_bool(&s, true, "incomplete", " incomplete", true);
	}
	out_close(&s);
	return s.bad ? DUMP_BAD : DUMP_OK;
}

/**
 * dump_clc_peer_buf() - the receive buffer a CLC Accept or Confirm
 *	announces
 * @p: the message
 * @avail: bytes at @p
 * @smcd: set for an SMC-D message (typev1 D)
 * @size: the bytes the sender of the message gives its peer to write
 *	into: SMC-R the RMBE size, 2^(rmbe_size + 14); SMC-D the DMBE size
 *	less the 32-byte CDC message at its head, as Linux counts its
 *	cursors (smcd_conn_save_peer_info())
 *
 * Return: true when @p is an Accept or Confirm of path R or D holding
 * the size field.
 */
bool dump_clc_peer_buf(const uint8_t *p, uint32_t avail, bool *smcd,
		       uint32_t *size)
{
	unsigned int typev1, v;

	if (avail < CLC_HDR_LEN || !dump_clc_is_eyecatcher(p) ||
	    (p[HDR(type)] != CLC_ACCEPT && p[HDR(type)] != CLC_CONFIRM))
		return false;
	typev1 = p[HDR(vers_types)] & 3;
	if (typev1 == SMC_TYPE_R && avail > RACC(rmbe_size_qp_mtu)) {
		v = p[RACC(rmbe_size_qp_mtu)] >> 4;
		*smcd = false;
		*size = 1u << (v + 14);
		return true;
	}
	if (typev1 == SMC_TYPE_D && avail > DACC(dmbe_size)) {
		v = p[DACC(dmbe_size)] >> 4;
		*smcd = true;
		*size = (1u << (v + 14)) - DUMP_CDC_D_LEN;
		return true;
	}
	return false;
}
