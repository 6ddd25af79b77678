// SPDX-License-Identifier: GPL-2.0
/*
 * smc dump: the key of a connection (mode, token, addresses and ports)
 * and its hash, for the connection tables of track.c and analyze.c,
 * which both stand above it and know nothing of each other.
 */
#include <stddef.h>
#include <stdint.h>

#include "smcdump.h"

size_t dump_conn_hash(uint8_t mode, uint32_t token, const uint8_t *l,
		      const uint8_t *r, uint16_t lp, uint16_t rp)
{
	uint64_t h = 1469598103934665603ull;	/* FNV-1a */
	int i;

	h = (h ^ mode) * 1099511628211ull;
	h = (h ^ token) * 1099511628211ull;
	h = (h ^ lp) * 1099511628211ull;
	h = (h ^ rp) * 1099511628211ull;
	for (i = 0; i < 16; i++) {
		h = (h ^ l[i]) * 1099511628211ull;
		h = (h ^ r[i]) * 1099511628211ull;
	}
	return (size_t)(h ^ (h >> 32));
}
