/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lgr.h - the timeline of the SMC-R link groups of a capture (lgr.c),
 * private to lib/smcdump: decode.c hands it the LLC records and the data
 * records; the reports of stats (decode.c) and analyze (analyze.c)
 * print it.
 */
#ifndef SMCDUMP_LGR_H
#define SMCDUMP_LGR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smcdump.h"
#include "conn.h"

struct dump_lgrs;

struct dump_lgrs *dump_lgrs_new(void);
void dump_lgrs_time(struct dump_lgrs *g, long long sec, uint32_t nsec);
void dump_lgrs_llc(struct dump_lgrs *g, uint64_t frame, long long sec,
		   uint32_t nsec, const struct dump_rec *r);
void dump_lgrs_data(struct dump_lgrs *g, struct dump_conn *k,
		    const struct dump_rec *r);
bool dump_lgrs_nomem(const struct dump_lgrs *g);
void dump_lgrs_report(const struct dump_lgrs *g, const char *indent,
		      const uint32_t *token);
int dump_lgrs_marks(const struct dump_lgrs *g, struct dump_llc_mark **marks,
		    size_t *n);
void dump_lgrs_free(struct dump_lgrs *g);

/* analyze.c: the timeline its report prints, NULL for none */
void dump_analyze_set_lgrs(struct dump_analyze *a, const struct dump_lgrs *g);

#endif /* SMCDUMP_LGR_H */
