/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SMC CLC decline codes (peer diagnosis) of Linux 6.12 net/smc/smc_clc.h,
 * and the names of the CDC flag bits (net/smc/smc_cdc.h),
 * by name and text: the one table of every part of smc that shows a decline
 * or fallback reason (the CLC decoder, smc stats, smc socket), so that all
 * speak the same names. The kernel uses the same codes for the local
 * fallback reason (smc->fallback_rsn) and the peer's diagnosis.
 */
#ifndef SMC_CODES_H
#define SMC_CODES_H

#include <stddef.h>
#include <stdint.h>

/**
 * struct smc_code - one decline code
 * @code: the 32-bit peer diagnosis code, host order
 * @name: the kernel's macro name, e.g. "SMC_CLC_DECL_NOUEID"
 * @text: a short English description
 */
struct smc_code {
	uint32_t code;
	const char *name;
	const char *text;
};

/* Every SMC_CLC_DECL_* code of Linux 6.12, sorted by code. */
extern const struct smc_code smc_decline_codes[];
extern const size_t smc_decline_codes_count;

/* The prefix of every @name: the short name is what follows it */
#define SMC_DECLINE_PREFIX "SMC_CLC_DECL_"

const struct smc_code *smc_decline_lookup(uint32_t code);
const char *smc_decline_class(uint32_t code);
const char *smc_decline_name(uint32_t code);
const char *smc_decline_text(uint32_t code);

/* CDC producer flags byte (struct smc_cdc_producer_flags): the first
 * bitfield member of the __BIG_ENDIAN_BITFIELD layout is the most
 * significant bit, and the little-endian layout lists the same bits in
 * reverse, so the byte has the same value on every host.
 */
#define SMC_CDC_PF_WRITE_BLOCKED		0x80
#define SMC_CDC_PF_URG_DATA_PENDING	0x40
#define SMC_CDC_PF_URG_DATA_PRESENT	0x20
#define SMC_CDC_PF_CONS_CURS_UPD_REQ	0x10
#define SMC_CDC_PF_FAILOVER_VALIDATION	0x08
/* CDC connection state flags byte (struct smc_cdc_conn_state_flags) */
#define SMC_CDC_CSF_PEER_DONE_WRITING	0x80
#define SMC_CDC_CSF_PEER_CONN_CLOSED	0x40
#define SMC_CDC_CSF_PEER_CONN_ABORT	0x20

/**
 * struct smc_flag_name - a flag bit and its name
 * @bit: the bit in the flags byte
 * @name: its name, as the kernel's bitfield member
 */
struct smc_flag_name {
	uint8_t bit;
	const char *name;
};

/* The CDC flag bytes' bits, as the decoder and smc socket name them */
extern const struct smc_flag_name smc_cdc_prod_flag_names[];
extern const struct smc_flag_name smc_cdc_conn_state_flag_names[];

#endif /* SMC_CODES_H */
