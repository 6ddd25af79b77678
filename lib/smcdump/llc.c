// SPDX-License-Identifier: GPL-2.0
/*
 * llc.c - SMC-R's LLC messages, field by field (the message of an LLC
 * record, after its struct smc_dump_llc_link; decode.c prints the link)
 *
 * The layouts are those of RFC 7609 (version 1) and of IBM's SMC
 * Version 2 (the forms 0x21 on) as Linux's net/smc/smc_llc.c sends them:
 * a 4-byte header (type, length, a reserved byte or the version 2
 * length's second byte, flags), then the message. Multi-byte fields are
 * big-endian, except the version 2 header's length and ADD_LINK's
 * rkey count, which Linux writes in its host's byte order: the sender's.
 * The record's SMC_DUMP_F_BIG_ENDIAN flag names the recording host's, so
 * it is the sender's for a message sent and for one received from a peer
 * of the same byte order; dump_llc_big_endian() tells the order of one
 * received from a peer of the other (s390x and x86 in one link group). A
 * field the capture cut is not printed; what was printed stays true.
 */
#include <arpa/inet.h>
#include <inttypes.h>
#include <stdio.h>
#include <sys/socket.h>

#include "json_print.h"
#include "decode.h"

/* bits of the header's flags byte (net/smc/smc_llc.c) */
#define LLC_F_RESP		0x80
#define LLC_F_ADD_LINK_REJ	0x40
#define LLC_F_DEL_LINK_ALL	0x40
#define LLC_F_DEL_LINK_ORDERLY	0x20
#define LLC_F_RKEY_NEG		0x20
#define LLC_F_RKEY_RETRY	0x10

#define LLC_HDR_LEN		4
#define LLC_V1_LEN		44	/* every version 1 message */
#define LLC_RTOKEN_LEN		13	/* link id or count, rkey, vaddr */
#define LLC_RT_LEN		16	/* rkey, new rkey, new vaddr */

/**
 * dump_llc_name() - the name of an LLC message type
 * @type: the message's first byte (version 2 forms are 0x21 on)
 *
 * Return: the name as Linux's enum smc_llc_msg_type spells it without
 * its prefix, or NULL for a type Linux does not send.
 */
const char *dump_llc_name(uint8_t type)
{
	switch (type) {
	case 0x01: return "CONFIRM_LINK";
	case 0x02: return "ADD_LINK";
	case 0x03: return "ADD_LINK_CONT";
	case 0x04: return "DELETE_LINK";
	case 0x05: return "REQ_ADD_LINK";
	case 0x06: return "CONFIRM_RKEY";
	case 0x07: return "TEST_LINK";
	case 0x08: return "CONFIRM_RKEY_CONT";
	case 0x09: return "DELETE_RKEY";
	case 0x21: return "CONFIRM_LINK_V2";
	case 0x22: return "ADD_LINK_V2";
	case 0x24: return "DELETE_LINK_V2";
	case 0x25: return "REQ_ADD_LINK_V2";
	case 0x26: return "CONFIRM_RKEY_V2";
	case 0x27: return "TEST_LINK_V2";
	case 0x29: return "DELETE_RKEY_V2";
	}
	return NULL;
}

/**
 * dump_llc_del_reason() - the name of DELETE_LINK's reason
 * @r: the reason code (net/smc/smc_llc.h SMC_LLC_DEL_*)
 *
 * Return: the name, or NULL for a code Linux does not define.
 */
const char *dump_llc_del_reason(uint32_t r)
{
	switch (r) {
	case 0x00010000: return "lost-path";
	case 0x00020000: return "operator-terminated";
	case 0x00030000: return "program-terminated";
	case 0x00040000: return "protocol-violation";
	case 0x00050000: return "no-asym-needed";
	case 0x00100000: return "no-link";
	case 0x00200000: return "no-link-group";
	}
	return NULL;
}

static uint16_t host16(const uint8_t *p, bool big_endian)
{
	return big_endian ? get_be16(p) : (uint16_t)(p[1] << 8 | p[0]);
}

/**
 * dump_llc_big_endian() - the byte order an LLC record's message was
 *	written in (its version 2 length and rkey count)
 * @r: an LLC record (type SMC_DUMP_TYPE_LLC) with at least its link and
 *	the message's 4-byte header captured
 *
 * A message sent was written by the recording host, whose order
 * SMC_DUMP_F_BIG_ENDIAN names (hdr_ver 4 on; before, the reader's
 * option). One received was written by the peer: the same order unless
 * the peer's byte order differs, which the record cannot say. Then the
 * version 2 length read in the recorder's order is larger than the
 * message (44 is 0x2c00, 11264, the other way round) and in the other
 * order is not: the other order it is. A length that fits neither way is
 * read in the recorder's order (dump_llc_check() reports it).
 *
 * Return: true when the message's host-order fields are big-endian.
 */
bool dump_llc_big_endian(const struct dump_rec *r)
{
	const uint8_t *m = r->payload + DUMP_LLC_LINK_LEN;
	size_t size = r->payload_wire_len - DUMP_LLC_LINK_LEN;
	bool be = r->big_endian;

	if (!(r->flags & SMC_DUMP_F_RX) || (m[0] & 0xf0) != 0x20)
		return be;
	if (host16(m + 1, be) > size && host16(m + 1, !be) <= size &&
	    host16(m + 1, !be) >= DUMP_LLC_MIN)
		return !be;
	return be;
}

static void print_mac(const char *key, const char *fmt, const uint8_t *p)
{
	char buf[18];

	snprintf(buf, sizeof(buf), "%02x:%02x:%02x:%02x:%02x:%02x",
		 p[0], p[1], p[2], p[3], p[4], p[5]);
	print_string(PRINT_ANY, key, fmt, buf);
}

void dump_print_gid(const char *key, const char *fmt, const uint8_t *p)
{
	char buf[INET6_ADDRSTRLEN];

	inet_ntop(AF_INET6, p, buf, sizeof(buf));
	print_string(PRINT_ANY, key, fmt, buf);
}

void dump_print_x32(const char *key, const char *fmt, uint32_t v)
{
	char buf[12];

	snprintf(buf, sizeof(buf), "0x%08x", v);
	print_string(PRINT_ANY, key, fmt, buf);
}

static void print_x64(const char *key, const char *fmt, uint64_t v)
{
	char buf[20];

	snprintf(buf, sizeof(buf), "0x%016" PRIx64, v);
	print_string(PRINT_ANY, key, fmt, buf);
}

/* A flag that text shows as a word when set, JSON always as a boolean */
static void print_flag(const char *key, const char *word, bool on)
{
	print_bool(PRINT_JSON, key, NULL, on);
	if (on)
		print_string(PRINT_FP, NULL, " %s", word);
}

/*
 * The RMB tokens of CONFIRM_RKEY (13 bytes each, from @p): with
 * @first_is_count the first one's first byte is the count of the others
 * and it is of the link the message came on, the others name their
 * link; at most @max, and only whole ones before @end.
 */
static void print_rtokens(const uint8_t *p, const uint8_t *end,
			  unsigned int max, bool first_is_count)
{
	unsigned int i;

	open_json_array(PRINT_JSON, "rtokens");
	for (i = 0; i < max && p + LLC_RTOKEN_LEN <= end;
	     i++, p += LLC_RTOKEN_LEN) {
		open_json_object(NULL);
		if (!first_is_count || i)
			print_uint(PRINT_ANY, "link_id", " [link %u", p[0]);
		else
			print_string(PRINT_FP, NULL, "%s", " [this-link");
		dump_print_x32("rkey", " rkey %s", get_be32(p + 1));
		print_x64("vaddr", " vaddr %s]", get_be64(p + 5));
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
}

/* ADD_LINK_CONT's and ADD_LINK_V2's (rkey, new rkey, new vaddr) */
static void print_rts(const uint8_t *p, const uint8_t *end, unsigned int n)
{
	unsigned int i;

	open_json_array(PRINT_JSON, "rkeys");
	for (i = 0; i < n && p + LLC_RT_LEN <= end; i++, p += LLC_RT_LEN) {
		open_json_object(NULL);
		dump_print_x32("rkey", " [rkey %s", get_be32(p));
		dump_print_x32("new_rkey", " new-rkey %s", get_be32(p + 4));
		print_x64("new_vaddr", " new-vaddr %s]", get_be64(p + 8));
		close_json_object();
	}
	close_json_array(PRINT_JSON, NULL);
}

/* CONFIRM_LINK (0x01, 0x21) */
static void llc_confirm_link(const uint8_t *m, const uint8_t *end)
{
	if (m + 36 > end)
		return;
	print_mac("sender_mac", " sender-mac %s", m + 4);
	dump_print_gid("sender_gid", " sender-gid %s", m + 10);
	print_uint(PRINT_ANY, "sender_qpn", " sender-qp %u", get_be24(m + 26));
	print_uint(PRINT_ANY, "link_id", " link-id %u", m[29]);
	dump_print_x32("link_uid", " link-uid %s", get_be32(m + 30));
	print_uint(PRINT_ANY, "max_links", " max-links %u", m[34]);
	print_uint(PRINT_ANY, "max_conns", " max-conns %u", m[35]);
}

/* ADD_LINK (0x02, 0x22 with its extension after the 44 bytes) */
static void llc_add_link(const uint8_t *m, const uint8_t *end, bool v2,
			 bool big_endian)
{
	const uint8_t *x = m + 44;

	print_flag("rejected", "rejected", m[3] & LLC_F_ADD_LINK_REJ);
	/* the reason is in the header's third byte, of version 1 only */
	if (!v2 && (m[3] & LLC_F_ADD_LINK_REJ))
		print_uint(PRINT_ANY, "reject_reason", " reason %u",
			   m[2] & 0x0f);
	if (m + 36 > end)
		return;
	print_mac("sender_mac", " sender-mac %s", m + 4);
	dump_print_gid("sender_gid", " sender-gid %s", m + 12);
	print_uint(PRINT_ANY, "sender_qpn", " sender-qp %u", get_be24(m + 28));
	print_uint(PRINT_ANY, "link_id", " link-id %u", m[31]);
	print_uint(PRINT_ANY, "qp_mtu", " mtu %u", m[32] & 0x0f);
	print_uint(PRINT_ANY, "initial_psn", " psn %u", get_be24(m + 33));
	/* version 2: direct flag, the client's target GID, the rkeys */
	if (!v2 || x + 28 > end)
		return;
	print_flag("direct", "direct", x[0] & 0x80);
	dump_print_gid("target_gid", " target-gid %s", x + 2);
	print_uint(PRINT_ANY, "num_rkeys", " rkeys %u",
		   host16(x + 26, big_endian));
	print_rts(x + 28, end, host16(x + 26, big_endian));
}

/* ADD_LINK_CONT (0x03): the link, then up to two rkeys */
static void llc_add_link_cont(const uint8_t *m, const uint8_t *end)
{
	if (m + 8 > end)
		return;
	print_uint(PRINT_ANY, "link_id", " link-id %u", m[4]);
	print_uint(PRINT_ANY, "num_rkeys", " rkeys %u", m[5]);
	print_rts(m + 8, end, m[5] < 2 ? m[5] : 2);
}

/* DELETE_LINK (0x04, 0x24) */
static void llc_delete_link(const uint8_t *m, const uint8_t *end)
{
	const char *name;
	uint32_t r;

	print_flag("all", "all", m[3] & LLC_F_DEL_LINK_ALL);
	print_flag("orderly", "orderly", m[3] & LLC_F_DEL_LINK_ORDERLY);
	if (m + 9 > end)
		return;
	print_uint(PRINT_ANY, "link_id", " link-id %u", m[4]);
	r = get_be32(m + 5);
	dump_print_x32("reason_code", NULL, r);
	name = dump_llc_del_reason(r);
	if (name) {
		print_string(PRINT_ANY, "reason", " reason %s", name);
	} else {
		/* text only: JSON has it as reason_code (a key of NULL
		 * would be a member named "")
		 */
		char buf[12];

		snprintf(buf, sizeof(buf), "0x%08x", r);
		print_string(PRINT_FP, NULL, " reason %s", buf);
	}
}

/* REQ_ADD_LINK (0x05, 0x25): the GIDs the sender can reach */
static void llc_req_add_link(const uint8_t *m, const uint8_t *end)
{
	const uint8_t *g = m + 28;
	unsigned int i;

	if (m + 28 > end)
		return;
	print_uint(PRINT_ANY, "num_gids", " gids %u", m[24]);
	open_json_array(PRINT_JSON, "gids");
	for (i = 0; i < m[24] && g + 16 <= end; i++, g += 16)
		dump_print_gid(NULL, " %s", g);
	close_json_array(PRINT_JSON, NULL);
}

/* CONFIRM_RKEY (0x06, 0x26): the token of the link it came on, whose
 * first byte counts the others, then up to two of the other links (a
 * link group has at most three); CONFIRM_RKEY_CONT (0x08): a count, then
 * up to three tokens
 */
static void llc_confirm_rkey(const uint8_t *m, const uint8_t *end, bool cont)
{
	print_flag("negative", "negative", m[3] & LLC_F_RKEY_NEG);
	print_flag("retry", "retry", m[3] & LLC_F_RKEY_RETRY);
	if (m + 5 > end)
		return;
	print_uint(PRINT_ANY, "num_rkeys", " rkeys %u", m[4]);
	if (cont)
		print_rtokens(m + 5, end, m[4] < 3 ? m[4] : 3, false);
	else
		print_rtokens(m + 4, end, 1 + (m[4] < 2 ? m[4] : 2), true);
}

/* TEST_LINK (0x07, 0x27): 16 bytes the peer echoes */
static void llc_test_link(const uint8_t *m, const uint8_t *end)
{
	char buf[33];
	int i;

	if (m + 20 > end)
		return;
	for (i = 0; i < 16; i++)
		snprintf(buf + 2 * i, 3, "%02x", m[4 + i]);
	print_string(PRINT_ANY, "user_data", " user-data %s", buf);
}

/* DELETE_RKEY (0x09: up to 8 rkeys and an error mask; 0x29: any number
 * and how many were invalid)
 */
static void llc_delete_rkey(const uint8_t *m, const uint8_t *end, bool v2)
{
	const uint8_t *k = m + 8;
	unsigned int i, n;

	print_flag("negative", "negative", m[3] & LLC_F_RKEY_NEG);
	if (m + 8 > end)
		return;
	print_uint(PRINT_ANY, "num_rkeys", " rkeys %u", m[4]);
	if (v2)
		print_uint(PRINT_ANY, "num_invalid_rkeys", " invalid %u",
			   m[5]);
	else
		print_hex(PRINT_ANY, "err_mask", " err-mask 0x%02x", m[5]);
	n = v2 || m[4] < 8 ? m[4] : 8;
	open_json_array(PRINT_JSON, "rkeys");
	for (i = 0; i < n && k + 4 <= end; i++, k += 4)
		dump_print_x32(NULL, " %s", get_be32(k));
	close_json_array(PRINT_JSON, NULL);
}

/*
 * The bytes a message of type @t needs: version 1's are all 44 bytes
 * (RFC 7609); version 2's up to the end of their fixed fields (ADD_LINK_V2's
 * extension, the GIDs, the rkeys are as many as the length says)
 */
static size_t llc_needs(uint8_t t)
{
	if ((t & 0xf0) != 0x20)
		return LLC_V1_LEN;
	switch (t) {
	case 0x21: return 36;
	case 0x22: return 36;
	case 0x24: return 9;
	case 0x25: return 28;
	case 0x26: return 5;
	case 0x27: return 20;
	case 0x29: return 8;
	}
	return LLC_HDR_LEN;
}

/**
 * dump_llc_check() - whether an LLC message is as long as its type needs
 * @m: the message (its 4-byte header first)
 * @caplen: bytes of it in the capture, at least 4
 * @size: its size as sent (the record's)
 * @big_endian: the byte order of version 2's length (SMC_DUMP_F_BIG_ENDIAN)
 * @bad: set when the message is malformed, else cleared
 * @note: set to why it is malformed, or to what else is odd about its
 *	length (empty when nothing is)
 * @notelen: @note's size
 *
 * A message is malformed when it is shorter than its type needs, or of
 * version 1 and not 44 bytes (by its length byte or its size).
 *
 * Return: the bytes of @m to decode: those captured, up to the header's
 * length.
 */
size_t dump_llc_check(const uint8_t *m, size_t caplen, size_t size,
		      bool big_endian, bool *bad, char *note, size_t notelen)
{
	bool v2 = (m[0] & 0xf0) == 0x20;
	size_t hlen = v2 ? host16(m + 1, big_endian) : m[1];
	const char *name = dump_llc_name(m[0]);
	size_t need = llc_needs(m[0]);
	char tbuf[16];

	if (!name) {
		snprintf(tbuf, sizeof(tbuf), "llc-type 0x%02x", m[0]);
		name = tbuf;
	}
	*bad = true;
	if (size < need)
		snprintf(note, notelen, "%s of %zu bytes, needs %zu", name,
			 size, need);
	else if (hlen < need)
		snprintf(note, notelen, "%s of llc-len %zu, needs %zu", name,
			 hlen, need);
	else if (!v2 && (size != LLC_V1_LEN || hlen != LLC_V1_LEN))
		snprintf(note, notelen,
			 "%s of %zu bytes, llc-len %zu: version 1 is %u",
			 name, size, hlen, LLC_V1_LEN);
	else
		*bad = false;
	if (*bad)
		return caplen < LLC_HDR_LEN ? caplen : LLC_HDR_LEN;
	if (size > hlen)
		snprintf(note, notelen, "%zu bytes past llc-len %zu",
			 size - hlen, hlen);
	else if (size < hlen)
		snprintf(note, notelen, "%zu of llc-len %zu bytes", size, hlen);
	else if (notelen)
		note[0] = '\0';
	return caplen < hlen ? caplen : hlen;
}

/**
 * dump_llc_print() - an LLC message's fields, text and JSON
 * @m: the message (its 4-byte header first)
 * @len: bytes of it in the capture, at least 4
 * @big_endian: the recording host was big-endian (SMC_DUMP_F_BIG_ENDIAN):
 *	the byte order of version 2's length and rkey count
 * @details: text shows the header's version and length too (JSON always)
 *
 * Prints, after the message's name that the caller printed, the type's
 * fields into the current output (JSON: an object "llc"); a type Linux
 * does not send gets the header's fields only. Reads no byte past
 * @m + @len.
 */
void dump_llc_print(const uint8_t *m, size_t len, bool big_endian,
		    bool details)
{
	enum output_type hdr = details ? PRINT_ANY : PRINT_JSON;
	const uint8_t *end = m + len;
	bool v2 = (m[0] & 0xf0) == 0x20;

	open_json_object("llc");
	print_uint(hdr, "version", " llc-ver %u", v2 ? 2 : 1);
	print_uint(hdr, "length", " llc-len %u",
		   v2 ? host16(m + 1, big_endian) : m[1]);
	switch (m[0]) {
	case 0x01:
	case 0x21:
		llc_confirm_link(m, end);
		break;
	case 0x02:
	case 0x22:
		llc_add_link(m, end, v2, big_endian);
		break;
	case 0x03:
		llc_add_link_cont(m, end);
		break;
	case 0x04:
	case 0x24:
		llc_delete_link(m, end);
		break;
	case 0x05:
	case 0x25:
		llc_req_add_link(m, end);
		break;
	case 0x06:
	case 0x26:
		llc_confirm_rkey(m, end, false);
		break;
	case 0x08:
		llc_confirm_rkey(m, end, true);
		break;
	case 0x07:
	case 0x27:
		llc_test_link(m, end);
		break;
	case 0x09:
	case 0x29:
		llc_delete_rkey(m, end, v2);
		break;
	}
	close_json_object();
}
