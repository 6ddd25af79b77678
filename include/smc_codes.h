/* SPDX-License-Identifier: GPL-2.0 */
/*
 * SMC CLC decline codes (peer diagnosis) of Linux 6.12 net/smc/smc_clc.h,
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

#endif /* SMC_CODES_H */
