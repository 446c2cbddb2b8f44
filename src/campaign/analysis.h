/* SPDX-License-Identifier: GPL-2.0-or-later */
/* analysis.h - a campaign's results, the boot the unit: each boot's rounds
 * averaged, the kernels compared on boot means; the stop rule of --until. */
#ifndef CONTEST_CAMPAIGN_ANALYSIS_H
#define CONTEST_CAMPAIGN_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "campaign/plan.h"
#include "campaign/state.h"

#define ANALYSIS_TYPES 16

/* One kernel's boots of one run type. */
struct arm_type {
	size_t nboots, nruns;
	double *mean;		/* the boots' means, seconds */
	double ss_within;	/* sum of squared deviations of runs from their boot's mean */
	size_t df_within;
};

/* An invalid run of a boot that counts: stored, averaged nowhere, named. */
struct left_out {
	uint64_t seq;		/* its boot */
	size_t arm;
	char *type, *reason;
	int round;
};

struct analysis {
	size_t ntypes;
	char *types[ANALYSIS_TYPES];
	struct arm_type cell[ANALYSIS_TYPES][CAMPAIGN_MAX_ARMS];
	size_t narms;
	double run_s, boot_s;	/* a run's cost, a boot's overhead: seconds, or 0 */
	size_t ignored;		/* runs of boots cut short and done again */
	struct left_out *left;	/* the invalid runs of the boots counted */
	size_t nleft;
};

/* The runs of every boot the journal says ran (its session), from the
 * results directory.  Returns 0, or -1 with the reason in why. */
int analysis_read(const struct campaign_plan *p, const struct jline *j, size_t n,
		  const char *results, struct analysis *a, char *why, size_t len);
void analysis_free(struct analysis *a);
/* The tables: every run type, every kernel against the first; under them
 * the spread within and between boots, the best runs per boot, the
 * smallest difference the campaign could detect, and each invalid run of
 * the boots counted, with its reason. */
void analysis_print(FILE *f, const struct campaign_plan *p, const struct analysis *a);

/* The O'Brien-Fleming boundary of look k (1-based) of looks: the two-sided
 * nominal level each look tests at, so that the looks together keep 0.05. */
double obf_level(size_t k, size_t looks);
/* --until: whether block (just complete) is a look, and its number of how
 * many (*k, *looks): at most 10 looks, evenly spread over the blocks. */
int until_look(const struct campaign_plan *p, size_t block, size_t *k, size_t *looks);
/* Whether every kernel's difference from the first, in every run type, has
 * an interval within +-p->until % at look k of looks. */
int until_met(const struct campaign_plan *p, const struct analysis *a, size_t k, size_t looks);

#endif
