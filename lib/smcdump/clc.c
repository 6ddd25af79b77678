// SPDX-License-Identifier: GPL-2.0
/*
 * smc dump: decoder of SMC CLC messages (Proposal, Accept, Confirm,
 * Decline) in the TCP handshake, as Linux 6.12 net/smc/smc_clc.h lays
 * them out (RFC 7609 and IBM's SMC Version 2 document). All multi-byte
 * fields are big-endian.
 *
 * Offsets and counts come from the peer: each field is read only when its
 * bytes are inside both the message (its length field) and the capture.
 *
 * As Wireshark's protocol tree, a message is decoded first into a list
 * of fields (struct clc_field), then print_fields() prints the list;
 * when nothing is printed no list is made and only the problems are
 * looked for.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
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

/* What a field prints (the json_print call the printer makes) */
enum clc_kind {
	CLC_F_STR,		/* print_string() */
	CLC_F_UINT,		/* print_uint() */
	CLC_F_HEX,		/* "0x" and digits, by print_string() */
	CLC_F_BOOL,		/* print_bool(), in text its label if true */
	CLC_F_NULL,		/* print_null() */
	CLC_F_OBJ,		/* open_json_object() */
	CLC_F_OBJ_END,		/* close_json_object() */
	CLC_F_ARR,		/* open_json_array(), JSON only */
	CLC_F_ARR_END,		/* close_json_array(), JSON only */
};

/**
 * struct clc_field - one decoded field, as the printer prints it
 * @key: JSON member name; NULL inside an array
 * @fmt: text format (%s or %u for the value); for CLC_F_BOOL the text
 *	shown when the value is true
 * @v: the value: @v.str (CLC_F_STR: a static string or one in the
 *	field list's arena), @v.num (CLC_F_UINT, CLC_F_HEX, CLC_F_BOOL)
 * @kind: enum clc_kind
 * @out: PRINT_ANY (text and JSON), PRINT_JSON or PRINT_FP (text only)
 * @digits: CLC_F_HEX: how many hex digits
 * @def: shown in text by default; without it only with -d (details)
 */
struct clc_field {
	const char *key;
	const char *fmt;
	union {
		const char *str;
		uint64_t num;
	} v;
	uint8_t kind;
	uint8_t out;
	uint8_t digits;
	bool def;
};

/* Bounds of the field list, from the wire format. Each count is one
 * byte, so up to 255 entries whatever Linux accepts (CLC_MAX_*, which
 * are only noted); the message's 16-bit length holds them all.
 * The most fields: a v2 Proposal of both paths with 255 IPv6 prefixes
 * (1 field each), 255 user EIDs (1 each) and 255 ISMv2 GID/CHID pairs
 * (4 each: object, gid, chid, end), plus 36 fields that come once. An
 * Accept or Confirm has 34 and one for each GID of its list (255 at
 * most), a Decline 40 in all.
 * The most string bytes, NULs included: for each entry an IPv6 prefix
 * (CLC_PREFIX_STR) and a UEID (4 * EID_LEN + 1); an Accept's GIDs take
 * INET6_ADDRSTRLEN each, less. The strings that come once take under
 * 500: system id 17, GIDs 46 each, MAC 18, IPv4 prefix 54, system EID
 * 129, note 160; an Accept's EID and host name 129 each.
 */
#define CLC_MAX_ENTRIES		255	/* a one-byte count */
#define CLC_ONCE_FIELDS		64
#define CLC_MAX_FIELDS		(CLC_ONCE_FIELDS + \
				 CLC_MAX_ENTRIES * (1 + 1 + 4))
#define CLC_PREFIX_STR		(INET6_ADDRSTRLEN + 8)
#define CLC_NOTE_LEN		160
#define CLC_ONCE_STR		1024
#define CLC_ARENA_LEN		(CLC_ONCE_STR + CLC_MAX_ENTRIES * \
				 (CLC_PREFIX_STR + 4 * EID_LEN + 1))

/* A message's fields in order, and the arena their strings are kept in */
struct clc_fields {
	unsigned int n;
	size_t used;
	struct clc_field f[CLC_MAX_FIELDS];
	char arena[CLC_ARENA_LEN];
};

/* Decoder state: the first problem found, and the fields decoded (NULL
 * when nothing is printed: then only the problems are looked for).
 */
struct clc_state {
	struct clc_fields *fl;
	bool full;
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

/* Field list builders: text in default mode when @def, else with -d
 * only; JSON always. Nothing when not printing. Past the bounds (which
 * the decoder does not reach) the list is marked full and not printed.
 */
static struct clc_field *add_field(struct clc_state *s,
				   enum clc_kind kind, bool def,
				   const char *key, const char *fmt)
{
	struct clc_field *f;

	if (!s->fl)
		return NULL;
	if (s->fl->n == CLC_MAX_FIELDS) {
		s->full = true;
		return NULL;
	}
	f = &s->fl->f[s->fl->n++];
	*f = (struct clc_field){
		.key = key, .fmt = fmt, .kind = kind, .out = PRINT_ANY,
		.def = def,
	};
	return f;
}

/* @v must outlive the field list: a static string or one str_begin()
 * gave
 */
static struct clc_field *add_str(struct clc_state *s, bool def,
				 const char *key, const char *fmt,
				 const char *v)
{
	struct clc_field *f = add_field(s, CLC_F_STR, def, key, fmt);

	if (f)
		f->v.str = v;
	return f;
}

/* Room for a string of up to @max bytes (NUL included) in the arena;
 * NULL when not printing, or full. str_end() keeps what was written.
 */
static char *str_begin(struct clc_state *s, size_t max)
{
	if (!s->fl)
		return NULL;
	if (max > sizeof(s->fl->arena) - s->fl->used) {
		s->full = true;
		return NULL;
	}
	return s->fl->arena + s->fl->used;
}

static void str_end(struct clc_state *s, bool def, const char *key,
		    const char *fmt, const char *buf)
{
	s->fl->used += strlen(buf) + 1;
	add_str(s, def, key, fmt, buf);
}

static void add_uint(struct clc_state *s, bool def, const char *key,
		     const char *fmt, unsigned int v)
{
	struct clc_field *f = add_field(s, CLC_F_UINT, def, key, fmt);

	if (f)
		f->v.num = v;
}

static void add_bool(struct clc_state *s, bool def, const char *key,
		     const char *text, bool v)
{
	struct clc_field *f = add_field(s, CLC_F_BOOL, def, key, text);

	if (f)
		f->v.num = v;
}

/* "0x" and 2, 4, 8 or 16 hex digits, as a JSON string too */
static void add_hex(struct clc_state *s, bool def, const char *key,
		    const char *fmt, uint64_t v, int digits)
{
	struct clc_field *f = add_field(s, CLC_F_HEX, def, key, fmt);

	if (f) {
		f->v.num = v;
		f->digits = digits;
	}
}

static void add_obj(struct clc_state *s, const char *key)
{
	add_field(s, CLC_F_OBJ, true, key, NULL);
}

static void add_obj_end(struct clc_state *s)
{
	add_field(s, CLC_F_OBJ_END, true, NULL, NULL);
}

static void add_array(struct clc_state *s, const char *key)
{
	add_field(s, CLC_F_ARR, true, key, NULL);
}

static void add_array_end(struct clc_state *s)
{
	add_field(s, CLC_F_ARR_END, true, NULL, NULL);
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

static void add_name(struct clc_state *s, bool def, const char *key,
		     const char *fmt, const uint8_t *p, uint32_t n)
{
	char *buf = str_begin(s, 4 * n + 1);

	if (!buf)
		return;
	fmt_name(p, n, buf);
	str_end(s, def, key, fmt, buf);
}

static void add_bytes(struct clc_state *s, bool def, const char *key,
		      const char *fmt, const uint8_t *p, uint32_t n)
{
	char *buf = str_begin(s, 2 * n + 1);

	if (!buf)
		return;
	fmt_hexbytes(p, n, buf);
	str_end(s, def, key, fmt, buf);
}

static void add_gid(struct clc_state *s, bool def, const char *key,
		    const char *fmt, const uint8_t *p)
{
	char *buf = str_begin(s, INET6_ADDRSTRLEN);

	if (!buf)
		return;
	inet_ntop(AF_INET6, p, buf, INET6_ADDRSTRLEN);
	str_end(s, def, key, fmt, buf);
}

/* an IPv4 or IPv6 prefix: @p the address, @len its length in bits */
static void add_prefix(struct clc_state *s, const char *key, int family,
		       const uint8_t *p, uint8_t len)
{
	char *buf = str_begin(s, CLC_PREFIX_STR);

	if (!buf)
		return;
	inet_ntop(family, p, buf, INET6_ADDRSTRLEN);
	snprintf(buf + strlen(buf), 8, "/%u", len);
	str_end(s, false, key, " prefix %s", buf);
}

static void add_mac(struct clc_state *s, bool def, const char *key,
		    const char *fmt, const uint8_t *p)
{
	char *buf = str_begin(s, 18);

	if (!buf)
		return;
	snprintf(buf, 18, "%02x:%02x:%02x:%02x:%02x:%02x",
		 p[0], p[1], p[2], p[3], p[4], p[5]);
	str_end(s, def, key, fmt, buf);
}

/* The printer: for each field the json_print calls it stands for, in
 * the order of the list. Text shows the fields marked default, all with
 * -d; JSON shows them all.
 */
static void print_fields(const struct dump_opts *o,
			 const struct clc_fields *fl)
{
	const struct clc_field *f;
	char buf[24];

	for (f = fl->f; f < fl->f + fl->n; f++) {
		enum output_type t = f->out;
		bool text = f->def || o->details;

		if (!text && t == PRINT_FP)
			continue;
		if (!text && t == PRINT_ANY)
			t = PRINT_JSON;
		switch (f->kind) {
		case CLC_F_STR:
			print_string(t, f->key, f->fmt, f->v.str);
			break;
		case CLC_F_UINT:
			print_uint(t, f->key, f->fmt, (unsigned int)f->v.num);
			break;
		case CLC_F_HEX:
			snprintf(buf, sizeof(buf), "0x%0*" PRIx64, f->digits,
				 f->v.num);
			print_string(t, f->key, f->fmt, buf);
			break;
		case CLC_F_BOOL:
			print_bool(PRINT_JSON, f->key, NULL, f->v.num);
			if (f->v.num && text)
				print_string(PRINT_FP, NULL, "%s", f->fmt);
			break;
		case CLC_F_NULL:
			print_null(t, f->key, NULL, NULL);
			break;
		case CLC_F_OBJ:
			open_json_object(f->key);
			break;
		case CLC_F_OBJ_END:
			close_json_object();
			break;
		case CLC_F_ARR:
			open_json_array(PRINT_JSON, f->key);
			break;
		case CLC_F_ARR_END:
			close_json_array(PRINT_JSON, NULL);
			break;
		}
	}
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

/* ISM GID and CHID pair (struct smc_clc_smcd_gid_chid) at @off, the
 * GID with @gkey and @gfmt, the CHID with @ckey
 */
static void add_gidchid(struct clc_state *s, const struct clc_msg *m,
			uint32_t off, bool def, const char *gkey,
			const char *gfmt, const char *ckey)
{
	add_hex(s, def, gkey, gfmt,
		get_be64(m->p + off + offsetof(struct clc_gidchid, gid)), 16);
	add_hex(s, def, ckey, " chid %s",
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

	add_str(s, true, "path", " path %s", smc_type_name(typev1));
	if (version >= 2)
		add_str(s, true, "path_v2", " v2-path %s",
			smc_type_name(typev2));
	if (!has(m, 0, PROP_BASE_LEN)) {
		problem(s, "proposal of %u bytes, need %u", m->len,
			PROP_BASE_LEN);
		return;
	}
	add_bytes(s, false, "system_id", " system-id %s",
		  m->p + PROP(lcl.id_for_peer), SYSTEMID_LEN);
	add_gid(s, false, "gid", " gid %s", m->p + PROP(lcl.gid));
	add_mac(s, false, "mac", " mac %s", m->p + PROP(lcl.mac));
	iparea = get_be16(m->p + PROP(iparea_offset));
	add_uint(s, false, "iparea_offset", " iparea-offset %u", iparea);

	/* struct smc_clc_msg_smcd: always sent by v2; v1 sends it when
	 * iparea_offset leaves room for it
	 */
	if ((version >= 2 || iparea >= GIDCHID_LEN) &&
	    has(m, PROP_BASE_LEN, GIDCHID_LEN)) {
		add_gidchid(s, m, PSMCD(ism),
			    smcd || get_be64(m->p + PSMCD(ism.gid)),
			    "ism_gid", " ism-gid %s", "ism_chid");
	}
	if (version >= 2 && has(m, PSMCD(v2_ext_offset), 2)) {
		v2off = get_be16(m->p + PSMCD(v2_ext_offset));
		add_uint(s, false, "v2_ext_offset", " v2-ext-offset %u", v2off);
	}

	/* IP prefix area: sent unless the v1 path is none */
	has_pfx = typev1 != SMC_TYPE_N || version < 2;
	if (has_pfx) {
		pfx = PROP_BASE_LEN + iparea;
		if (!has(m, pfx, PROP_PREFIX_LEN)) {
			problem(s, "IP prefix area at %u beyond the message",
				pfx);
			return;
		}
		add_prefix(s, "ipv4_prefix", AF_INET, m->p + pfx,
			   m->p[pfx + PFX(prefix_len)]);
		ip6cnt = m->p[pfx + PFX(ipv6_prefixes_cnt)];
		add_array(s, "ipv6_prefixes");
		for (i = 0; i < ip6cnt; i++) {
			uint32_t o = pfx + PROP_PREFIX_LEN + i * IPV6_PREFIX_LEN;

			if (!has(m, o, IPV6_PREFIX_LEN)) {
				problem(s, "%u IPv6 prefixes, the message holds %u",
					ip6cnt, i);
				break;
			}
			add_prefix(s, NULL, AF_INET6, m->p + o,
				   m->p[o + offsetof(struct clc_ipv6_prefix,
						     prefix_len)]);
		}
		add_array_end(s);
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
		add_obj(s, "v2");
		add_uint(s, false, "eid_cnt", " eid-cnt %u", eidcnt);
		add_uint(s, false, "ism_gid_cnt", " ism-gid-cnt %u", gidcnt);
		add_uint(s, false, "release", " release %u",
			 m->p[v2 + V2X(release_seid)] >> 4);
		add_bool(s, false, "seid", " seid-enabled",
			 m->p[v2 + V2X(release_seid)] & 1);
		sv2off = get_be16(m->p + v2 + V2X(smcd_v2_ext_offset));
		add_uint(s, false, "smcd_v2_ext_offset", " smcd-v2-ext-offset %u",
			 sv2off);
		add_gid(s, false, "roce_gid", " roce-gid %s",
			m->p + v2 + V2X(roce));
		add_uint(s, false, "max_conns", " max-conns %u",
			 m->p[v2 + V2X(max_conns)]);
		add_uint(s, false, "max_links", " max-links %u",
			 m->p[v2 + V2X(max_links)]);
		add_hex(s, false, "feature_mask", " feature-mask %s",
			get_be16(m->p + v2 + V2X(feature_mask)), 4);
		add_array(s, "ueids");
		for (i = 0; i < eidcnt; i++) {
			uint32_t o = v2 + V2_EXT_LEN + i * EID_LEN;

			if (!has(m, o, EID_LEN)) {
				problem(s, "%u user EIDs, the message holds %u",
					eidcnt, i);
				break;
			}
			add_name(s, true, NULL, " ueid \"%s\"", m->p + o,
				 EID_LEN);
		}
		add_array_end(s);

		has_sv2 = typev2 == SMC_TYPE_D || typev2 == SMC_TYPE_B;
		if (has_sv2) {
			sv2 = v2 + V2X(roce) + sv2off;
			if (!sv2off || !has(m, sv2, SMCD_V2_EXT_LEN)) {
				problem(s, "SMC-Dv2 extension at offset %u beyond the message",
					sv2off);
				add_obj_end(s);
				return;
			}
			add_name(s, true, "system_eid", " seid \"%s\"",
				 m->p + sv2 + offsetof(struct clc_smcd_v2_ext,
						       system_eid), EID_LEN);
			add_array(s, "ism_gids");
			for (i = 0; i < gidcnt; i++) {
				uint32_t o = sv2 + SMCD_V2_EXT_LEN +
					     i * GIDCHID_LEN;

				if (!has(m, o, GIDCHID_LEN)) {
					problem(s, "%u ISMv2 GIDs, the message holds %u",
						gidcnt, i);
					break;
				}
				add_obj(s, NULL);
				add_gidchid(s, m, o, false, "gid",
					    " ism-v2-gid %s", "chid");
				add_obj_end(s);
			}
			add_array_end(s);
		}
		add_obj_end(s);
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
		char *note = str_begin(s, CLC_NOTE_LEN);
		int n;

		if (!note)
			return;
		n = snprintf(note, CLC_NOTE_LEN, "%s", "Linux rejects");
		if (ip6cnt > CLC_MAX_V6_PREFIX)
			n += snprintf(note + n, CLC_NOTE_LEN - n,
				      " %u IPv6 prefixes (max %u)", ip6cnt,
				      CLC_MAX_V6_PREFIX);
		if (eidcnt > CLC_MAX_UEID)
			n += snprintf(note + n, CLC_NOTE_LEN - n,
				      " %u UEIDs (max %u)", eidcnt,
				      CLC_MAX_UEID);
		if (gidcnt > CLC_MAX_V2_GID)
			snprintf(note + n, CLC_NOTE_LEN - n,
				 " %u ISM GIDs (max %u)", gidcnt,
				 CLC_MAX_V2_GID);
		str_end(s, true, "note", " note \"%s\"", note);
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
	add_obj(s, "fce");
	add_bool(s, false, "v2_direct", " v2-direct",
		 m->p[off + FCE(v2_direct)] & 0x80);
	add_str(s, false, "os_type", " os %s",
		os_name(m->p[off + FCE(os_release)] >> 4));
	add_uint(s, false, "release", " release %u", release);
	add_name(s, false, "hostname", " hostname \"%s\"",
		 m->p + off + FCE(hostname), HOSTNAME_LEN);
	if (len == FCE_V2X_LEN) {
		if (!has(m, off, FCE_V2X_LEN)) {
			problem(s, "first contact extension beyond the message");
			add_obj_end(s);
			return 0;
		}
		if (!smcd) {
			add_uint(s, false, "max_conns", " max-conns %u",
				 m->p[off + FCE(max_conns)]);
			add_uint(s, false, "max_links", " max-links %u",
				 m->p[off + FCE(max_links)]);
		}
		add_hex(s, false, "feature_mask", " feature-mask %s",
			get_be16(m->p + off + FCE(feature_mask)), 4);
		add_hex(s, false, "vendor_exp_options", " vendor-options %s",
			get_be32(m->p + off + FCE(vendor_exp_options)), 8);
	}
	add_obj_end(s);
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
		add_str(s, true, "path", " %s", smc_type_name(typev1));
	else
		problem(s, "%s with path %s", clc_type_name(type),
			smc_type_name(typev1));
	add_bool(s, true, "first_contact", " first-contact", first);

	if (smcd) {
		if (!has(m, 0, DACC(chid))) {
			problem(s, "SMC-D %s of %u bytes, need %zu",
				clc_type_name(type), m->len, DACC(chid));
			return;
		}
		add_hex(s, true, "ism_gid", " ism-gid %s",
			get_be64(m->p + DACC(gid)), 16);
		add_hex(s, true, "dmb_token", " dmb-token %s",
			get_be64(m->p + DACC(token)), 16);
		add_uint(s, false, "dmbe_idx", " dmbe-idx %u",
			 m->p[DACC(dmbe_idx)]);
		add_uint(s, false, "dmbe_size", " dmbe-size %u",
			 m->p[DACC(dmbe_size)] >> 4);
		add_hex(s, false, "link_id", " link-id %s",
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
			add_hex(s, true, "ism_chid", " chid %s",
				get_be16(m->p + DACC(chid)), 4);
			add_name(s, true, "eid", " eid \"%s\"",
				 m->p + DACC(eid), EID_LEN);
			add_hex(s, false, "gid_ext", " gid-ext %s",
				get_be64(m->p + DACC(gid_ext)), 16);
			off = sizeof(struct clc_smcd_acc);
		}
	} else {
		if (!has(m, 0, RACC(eid))) {
			problem(s, "SMC-R %s of %u bytes, need %zu",
				clc_type_name(type), m->len, RACC(eid));
			return;
		}
		add_bytes(s, false, "system_id", " system-id %s",
			  m->p + RACC(lcl.id_for_peer), SYSTEMID_LEN);
		add_gid(s, false, "gid", " gid %s", m->p + RACC(lcl.gid));
		add_mac(s, false, "mac", " mac %s", m->p + RACC(lcl.mac));
		add_uint(s, true, "qpn", " qpn %u",
			 get_be24(m->p + RACC(qpn)));
		add_hex(s, false, "rmb_rkey", " rkey %s",
			get_be32(m->p + RACC(rmb_rkey)), 8);
		add_uint(s, false, "rmbe_idx", " rmbe-idx %u",
			 m->p[RACC(rmbe_idx)]);
		add_hex(s, true, "rmbe_alert_token", " token %s",
			get_be32(m->p + RACC(rmbe_alert_token)), 8);
		add_uint(s, false, "rmbe_size", " rmbe-size %u",
			 m->p[RACC(rmbe_size_qp_mtu)] >> 4);
		add_uint(s, false, "qp_mtu", " qp-mtu %u",
			 m->p[RACC(rmbe_size_qp_mtu)] & 0x0f);
		add_hex(s, false, "rmb_dma_addr", " rmb-addr %s",
			get_be64(m->p + RACC(rmb_dma_addr)), 16);
		add_uint(s, false, "psn", " psn %u",
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
			add_name(s, true, "eid", " eid \"%s\"",
				 m->p + RACC(eid), EID_LEN);
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
			add_array(s, "gid_list");
			for (i = 0; i < cnt; i++) {
				uint32_t o = off + GLE_LEN + i * GID_LEN;

				if (!has(m, o, GID_LEN)) {
					problem(s, "%u GIDs, the message holds %u",
						cnt, i);
					break;
				}
				add_gid(s, false, NULL, " gid %s", m->p + o);
			}
			add_array_end(s);
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
		add_uint(s, true, "extra_bytes", " extra %u", length - expect);
}

/* A peer diagnosis: code, name and text (JSON "peer_diagnosis",
 * "peer_diagnosis_name" (null when unknown), "peer_diagnosis_text" (the
 * class when unknown)), the names of smc socket's fallback object.
 */
static void add_diag(struct clc_state *s, bool def, uint32_t code,
		     const char *fmt)
{
	const struct smc_code *sc;
	struct clc_field *f;

	if (!s->fl)
		return;
	sc = smc_decline_lookup(code);
	add_hex(s, def, "peer_diagnosis", fmt, code, 8);
	if (sc) {
		add_str(s, def, "peer_diagnosis_name", " %s", sc->name);
		add_str(s, def, "peer_diagnosis_text", " (%s)", sc->text);
		return;
	}
	f = add_field(s, CLC_F_NULL, def, "peer_diagnosis_name", NULL);
	if (f)
		f->out = PRINT_JSON;
	f = add_str(s, def, "peer_diagnosis_text", NULL,
		    smc_decline_class(code));
	if (f)
		f->out = PRINT_JSON;
	f = add_str(s, def, NULL, " (unknown code, class %s)",
		    smc_decline_class(code));
	if (f)
		f->out = PRINT_FP;
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
	add_diag(s, true, get_be32(m->p + DECL(peer_diagnosis)),
		 " diag %s");
	add_bytes(s, false, "system_id", " system-id %s",
		  m->p + DECL(id_for_peer), SYSTEMID_LEN);
	add_bool(s, true, "out_of_sync", " out-of-sync",
		 typev2 & SMC_FIRST_CONTACT_MASK);
	add_str(s, false, "os_type", " os %s",
		os_name(m->p[DECL(os_type)] >> 4));
	if (version >= 2) {
		if (!has(m, DECL(peer_diagnosis_v2),
			 sizeof(((struct clc_decline *)0)->peer_diagnosis_v2))) {
			problem(s, "v2 decline of %u bytes, need %u", m->len,
				expect);
			return;
		}
		add_array(s, "peer_diagnosis_v2");
		for (i = 0; i < DECL_DIAG_V2; i++) {
			uint32_t code = get_be32(m->p +
						 DECL(peer_diagnosis_v2[i]));

			if (!code && !is_json_context())
				continue;
			add_obj(s, NULL);
			add_diag(s, false, code, " diag-v2 %s");
			add_obj_end(s);
		}
		add_array_end(s);
	}
	if (length != expect)
		problem(s, "decline length %u, expected %u", length, expect);
}

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

/* The message into @s: its fields (when printing) and first problem */
static void decode_clc(struct clc_state *s, const uint8_t *p,
		       uint32_t avail, uint32_t *used, bool *incomplete)
{
	unsigned int type, version, typev1, typev2;
	const char *name;
	struct clc_msg m;
	uint16_t length;

	add_obj(s, "clc");
	if (avail < CLC_HDR_LEN) {
		*incomplete = true;
		add_str(s, true, "msg", "CLC %s", "incomplete");
		add_obj_end(s);
		return;
	}
	type = p[HDR(type)];
	length = get_be16(p + HDR(length));
	version = p[HDR(vers_types)] >> 4;
	typev2 = (p[HDR(vers_types)] >> 2) & 3;
	typev1 = p[HDR(vers_types)] & 3;
	name = clc_type_name(type);

	if (name) {
		add_str(s, true, "msg", "CLC %s", name);
	} else {
		add_uint(s, true, "msg", "CLC type %u", type);
		problem(s, "unknown CLC type %u", type);
	}
	add_uint(s, true, "version", " v%u", version);
	add_uint(s, true, "length", " len %u", length);
	add_str(s, false, "eyecatcher", " eyecatcher %s",
		memcmp(p, eye_d, 4) ? "SMC-R" : "SMC-D");

	if (length < CLC_HDR_LEN + CLC_TRL_LEN) {
		problem(s, "CLC length %u below %u", length,
			CLC_HDR_LEN + CLC_TRL_LEN);
		add_obj_end(s);
		return;
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
		decode_proposal(s, &m, version, typev1, typev2, length);
		break;
	case CLC_ACCEPT:
	case CLC_CONFIRM:
		decode_accept_confirm(s, &m, type, version, typev1, typev2,
				      length);
		break;
	case CLC_DECLINE:
		decode_decline(s, &m, version, typev2, length);
		break;
	}
	if (!*incomplete && !dump_clc_is_eyecatcher(p + length - CLC_TRL_LEN)) {
		const uint8_t *t = p + length - CLC_TRL_LEN;

		problem(s, "bad trailer %02x%02x%02x%02x", t[0], t[1], t[2],
			t[3]);
	}
	/* a message cut by the segment end: whatever did not fit is not
	 * the message's fault
	 */
	if (*incomplete) {
		s->bad = false;
		add_bool(s, true, "incomplete", " incomplete", true);
	}
	add_obj_end(s);
}

/**
 * dump_decode_clc() - decode (and print) one CLC message
 * @o: the options; details selects the text fields
 * @p: the message, starting with its eyecatcher
 * @avail: bytes at @p (what the TCP segment holds, as captured)
 * @quiet: only check, print nothing (no field list is made)
 * @used: set to the bytes the message takes at @p: its length, or @avail
 *	when the length is bad or the message continues past @avail
 * @incomplete: set when the message continues past @avail
 * @err: buffer for the first problem found
 * @errlen: size of @err
 *
 * Prints inside the JSON object the caller opened: "clc": {...}, and in
 * text mode "CLC <type> v<version> len <length> ...". The message is
 * decoded into a field list first and printed after.
 *
 * Return: DUMP_OK, or DUMP_BAD when the message breaks the format (bad
 * length, counts or offsets pointing outside it, wrong trailer) or, when
 * printing, no memory was left for its fields (then nothing of it is
 * printed and @err says so).
 */
int dump_decode_clc(const struct dump_opts *o, const uint8_t *p,
		    uint32_t avail, bool quiet, uint32_t *used,
		    bool *incomplete, char *err, size_t errlen)
{
	struct clc_state s = { .err = err, .errlen = errlen };
	const char *fail = NULL;
	int rc;

	*used = avail;
	*incomplete = false;
	if (err && errlen)
		err[0] = '\0';
	/* quiet: no field list, so nothing is formatted or kept */
	if (!quiet) {
		s.fl = malloc(sizeof(*s.fl));
		if (!s.fl)
			fail = "out of memory";
		else
			s.fl->n = s.fl->used = 0;
	}
	decode_clc(&s, p, avail, used, incomplete);
	rc = s.bad ? DUMP_BAD : DUMP_OK;
	if (s.full)
		fail = "CLC message of more fields than the decoder holds";
	else if (s.fl)
		print_fields(o, s.fl);
	free(s.fl);
	if (fail) {
		/* nothing of the message printed: say why instead */
		snprintf(err, errlen, "%s", fail);
		rc = DUMP_BAD;
	}
	return rc;
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

/**
 * dump_clc_smcr_ids() - the alert token and QP number an SMC-R CLC Accept
 *	or Confirm announces
 * @p: the message, starting with its eyecatcher
 * @avail: bytes at @p
 * @token: set to the sender's RMBE alert token (host order): the token
 *	its connection's records carry, and the CDC messages to it
 * @qpn: set to the sender's queue pair number (24 bits, host order)
 *
 * Return: true when @p is an Accept or Confirm of path R holding both
 * fields.
 */
bool dump_clc_smcr_ids(const uint8_t *p, uint32_t avail, uint32_t *token,
		       uint32_t *qpn)
{
	if (avail < CLC_HDR_LEN || !dump_clc_is_eyecatcher(p) ||
	    (p[HDR(type)] != CLC_ACCEPT && p[HDR(type)] != CLC_CONFIRM) ||
	    (p[HDR(vers_types)] & 3) != SMC_TYPE_R ||
	    avail < RACC(rmbe_alert_token) + 4)
		return false;
	*token = get_be32(p + RACC(rmbe_alert_token));
	*qpn = get_be24(p + RACC(qpn));
	return true;
}
