/* SPDX-License-Identifier: GPL-2.0-or-later */
/* campaign-internal.h - what campaign.c and measure.c share: the campaign
 * being driven, and the system facts they both read. */
#ifndef CONTEST_CAMPAIGN_INTERNAL_H
#define CONTEST_CAMPAIGN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "campaign/plan.h"
#include "campaign/state.h"
#include "run/compare.h"
#include "run/options.h"

/* The command line's parser (campaign.h) */
typedef int (*campaign_parse_fn)(int argc, char **argv, struct config *cfg);

/* One campaign being driven by this process. */
struct ctx {
	struct campaign_plan p;
	char *dir;		/* its state directory, rooted */
	char *journal;
	char *results;		/* the results directory, absolute */
	struct jline *j;
	size_t n;
	char session[64];	/* the last suite's */
	uint64_t seq;		/* the boot being measured */
	struct comparison cmp;	/* one configuration: the kernel booted */
};

/* A small file under the root prefix into buf ("" when unreadable). */
void read_rooted(const char *path, char *buf, size_t len);
/* Whether systemd runs this (rooted) system. */
int systemd_here(void);
/* The plan's run options as a boot's configuration (and its directory the
 * current one): returns 0, or an exit status with the reason printed. */
int boot_config(struct ctx *c, campaign_parse_fn parse, struct config *cfg);
/* Measure boot seq: settle, then the suite with the plan's run options,
 * one configuration (the kernel booted), R rounds, into the normal store;
 * c->session names it.  0, or the exit status (128+N: a signal). */
int measure(struct ctx *c, campaign_parse_fn parse, uint64_t seq);

#endif
