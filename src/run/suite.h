/* SPDX-License-Identifier: GPL-2.0-or-later */
/* suite.h - the run command: preflight, setup, warm-up, rounds, results. */
#ifndef CONTEST_SUITE_H
#define CONTEST_SUITE_H

#include "run/options.h"

#include "loads/load.h"

/* Run the suite cfg asks for; returns the exit status. */
int suite_main(struct config *cfg);
struct comparison;
/* contest compare: the suite over every configuration of cmp (compare.h). */
int suite_compare(struct config *cfg, struct comparison *cmp);
/* `contest load NAME`: one load alone, no workload; prints its rate. */
int load_main(struct config *cfg);

/* The loads' view of the machine and of the user's options. */
void suite_load_env(const struct config *cfg, const char *tree, struct load_env *e);
/* A context for ops with scratch dir/NAME, checked (sizes resolved); NULL
 * with why when the load cannot run here. */
struct load_ctx *suite_load_ctx(const struct load_env *e, const struct load_ops *ops,
				const char *dir, char *why, size_t len);
void suite_load_ctx_free(struct load_ctx *c);

#endif
