// SPDX-License-Identifier: GPL-2.0
/*
 * SMC CLC decline codes (peer diagnosis), as Linux 6.12 defines them in
 * net/smc/smc_clc.h (SMC_CLC_DECL_*). The table is sorted by code.
 */
#include <stddef.h>
#include <string.h>

#include "smc_codes.h"
#include "utils.h"

const struct smc_code smc_decline_codes[] = {
	{ 0x01010000, "SMC_CLC_DECL_MEM", "insufficient memory resources" },
	{ 0x02010000, "SMC_CLC_DECL_TIMEOUT_CL",
	  "timeout waiting for QP confirm link" },
	{ 0x02020000, "SMC_CLC_DECL_TIMEOUT_AL",
	  "timeout waiting for QP add link" },
	{ 0x03000000, "SMC_CLC_DECL_CNFERR", "configuration error" },
	{ 0x03010000, "SMC_CLC_DECL_PEERNOSMC", "peer did not indicate SMC" },
	{ 0x03020000, "SMC_CLC_DECL_IPSEC", "IPsec usage" },
	{ 0x03030000, "SMC_CLC_DECL_NOSMCDEV",
	  "no SMC device found (R or D)" },
	{ 0x03030001, "SMC_CLC_DECL_NOSMCDDEV", "no SMC-D device found" },
	{ 0x03030002, "SMC_CLC_DECL_NOSMCRDEV", "no SMC-R device found" },
	{ 0x03030003, "SMC_CLC_DECL_NOISM2SUPP",
	  "hardware has no ISMv2 support" },
	{ 0x03030004, "SMC_CLC_DECL_NOV2EXT", "peer sent no CLC v2 extension" },
	{ 0x03030005, "SMC_CLC_DECL_NOV2DEXT",
	  "peer sent no CLC SMC-Dv2 extension" },
	{ 0x03030006, "SMC_CLC_DECL_NOSEID", "peer sent no SEID" },
	{ 0x03030007, "SMC_CLC_DECL_NOSMCD2DEV", "no SMC-Dv2 device found" },
	{ 0x03030008, "SMC_CLC_DECL_NOUEID", "peer sent no UEID" },
	{ 0x03030009, "SMC_CLC_DECL_RELEASEERR",
	  "release version negotiation failed" },
	{ 0x0303000a, "SMC_CLC_DECL_MAXCONNERR",
	  "max connections negotiation failed" },
	{ 0x0303000b, "SMC_CLC_DECL_MAXLINKERR",
	  "max links negotiation failed" },
	{ 0x03040000, "SMC_CLC_DECL_MODEUNSUPP",
	  "SMC modes do not match (R or D)" },
	{ 0x03050000, "SMC_CLC_DECL_RMBE_EC", "peer has eyecatcher in RMBE" },
	{ 0x03060000, "SMC_CLC_DECL_OPTUNSUPP",
	  "fastopen sockopt not supported" },
	{ 0x03070000, "SMC_CLC_DECL_DIFFPREFIX",
	  "IP prefix / subnet mismatch" },
	{ 0x03080000, "SMC_CLC_DECL_GETVLANERR",
	  "cannot get VLAN id of IP device" },
	{ 0x03090000, "SMC_CLC_DECL_ISMVLANERR",
	  "cannot register VLAN id on ISM device" },
	{ 0x030a0000, "SMC_CLC_DECL_NOACTLINK",
	  "no active SMC-R link in link group" },
	{ 0x030b0000, "SMC_CLC_DECL_NOSRVLINK",
	  "SMC-R link from server not found" },
	{ 0x030c0000, "SMC_CLC_DECL_VERSMISMAT", "SMC version mismatch" },
	{ 0x030d0000, "SMC_CLC_DECL_MAX_DMB", "SMC-D DMB limit exceeded" },
	{ 0x030e0000, "SMC_CLC_DECL_NOROUTE",
	  "SMC-Rv2 connection: no route to peer" },
	{ 0x030f0000, "SMC_CLC_DECL_NOINDIRECT",
	  "SMC-Rv2 connection: indirect mismatch" },
	{ 0x04000000, "SMC_CLC_DECL_SYNCERR", "synchronization error" },
	{ 0x05000000, "SMC_CLC_DECL_PEERDECL",
	  "peer declined during handshake" },
	{ 0x09990000, "SMC_CLC_DECL_INTERR", "internal error" },
	{ 0x09990001, "SMC_CLC_DECL_ERR_RTOK", "rtoken handling failed" },
	{ 0x09990002, "SMC_CLC_DECL_ERR_RDYLNK", "IB ready link failed" },
	{ 0x09990003, "SMC_CLC_DECL_ERR_REGBUF", "registering RDMA buffers failed" },
};

const size_t smc_decline_codes_count = ARRAY_SIZE(smc_decline_codes);

/**
 * smc_decline_lookup() - find a decline code
 * @code: peer diagnosis, host byte order
 *
 * Return: the table entry, or NULL when Linux 6.12 does not define @code.
 */
const struct smc_code *smc_decline_lookup(uint32_t code)
{
	size_t lo = 0, hi = smc_decline_codes_count;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (smc_decline_codes[mid].code == code)
			return &smc_decline_codes[mid];
		if (smc_decline_codes[mid].code < code)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/**
 * smc_decline_class() - the class of a decline code, from its top byte
 * @code: peer diagnosis, host byte order
 *
 * Useful for codes that smc_decline_lookup() does not know.
 *
 * Return: a static string, "unknown" for an unknown class; never NULL.
 */
const char *smc_decline_class(uint32_t code)
{
	switch (code >> 24) {
	case 0x01:
		return "insufficient resources";
	case 0x02:
		return "timeout";
	case 0x03:
		return "configuration";
	case 0x04:
		return "synchronization";
	case 0x05:
		return "peer decline";
	case 0x09:
		return "internal error";
	default:
		return "unknown";
	}
}

/**
 * smc_decline_name() - the short name of a decline code
 * @code: peer diagnosis or fallback reason, host byte order
 *
 * The short name is the kernel's macro name without SMC_DECLINE_PREFIX,
 * e.g. "NOUEID" for SMC_CLC_DECL_NOUEID, as smc stats and smc socket show
 * it.
 *
 * Return: a static string, or NULL when Linux 6.12 does not define @code.
 */
const char *smc_decline_name(uint32_t code)
{
	const struct smc_code *c = smc_decline_lookup(code);
	size_t len = strlen(SMC_DECLINE_PREFIX);

	if (!c)
		return NULL;
	if (!strncmp(c->name, SMC_DECLINE_PREFIX, len))
		return c->name + len;
	return c->name;
}

/**
 * smc_decline_text() - the short description of a decline code
 * @code: peer diagnosis or fallback reason, host byte order
 *
 * Return: a static string, or NULL when Linux 6.12 does not define @code.
 */
const char *smc_decline_text(uint32_t code)
{
	const struct smc_code *c = smc_decline_lookup(code);

	return c ? c->text : NULL;
}

/* The producer flags byte of a CDC message (struct smc_cdc_producer_flags) */
const struct smc_flag_name smc_cdc_prod_flag_names[] = {
	{ SMC_CDC_PF_WRITE_BLOCKED, "write_blocked" },
	{ SMC_CDC_PF_URG_DATA_PENDING, "urg_data_pending" },
	{ SMC_CDC_PF_URG_DATA_PRESENT, "urg_data_present" },
	{ SMC_CDC_PF_CONS_CURS_UPD_REQ, "cons_curs_upd_req" },
	{ SMC_CDC_PF_FAILOVER_VALIDATION, "failover_validation" },
	{ 0, NULL }
};

/* Its connection state flags byte (struct smc_cdc_conn_state_flags) */
const struct smc_flag_name smc_cdc_conn_state_flag_names[] = {
	{ SMC_CDC_CSF_PEER_DONE_WRITING, "peer_done_writing" },
	{ SMC_CDC_CSF_PEER_CONN_CLOSED, "peer_conn_closed" },
	{ SMC_CDC_CSF_PEER_CONN_ABORT, "peer_conn_abort" },
	{ 0, NULL }
};
