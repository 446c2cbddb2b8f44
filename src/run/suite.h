/* SPDX-License-Identifier: GPL-2.0-or-later */
/* suite.h - the suite: preflight, setup, warm-up, rounds over the
 * configurations, results; contest run, compare and a campaign's boot. */
#ifndef CONTEST_SUITE_H
#define CONTEST_SUITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "run/options.h"

#include "loads/load.h"

struct comparison;
struct record;
struct store;

/* contest run: the suite cfg asks for, over one configuration, the
 * machine as it is; returns the exit status. */
int suite_main(struct config *cfg);

/* One configuration, as the suite runs it. */
struct suite_config {
	const char *label;		/* NULL: the suite's (-k, or the kernel's) */
	int has_nice, load_nice;	/* the loads' nice, when has_nice */
	int load_session;		/* the loads' session: 0, 1, or -1 (the option's) */
};

/* How the suite switches the machine to a configuration, checks it and
 * describes it in the records.  Every op may be NULL, and then does
 * nothing: contest run's one configuration, the machine as it is, has
 * none.  The configurations are the caller's (compare.h): the suite only
 * hands their pointer c back to every op. */
struct suite_config_ops {
	/* configuration i's label and loads */
	void (*config)(const struct comparison *c, size_t i, struct suite_config *k);
	/* switch to configuration i, and back: 0, or -1 with the reason in
	 * why */
	int (*enter)(struct comparison *c, size_t i, char *why, size_t len);
	int (*leave)(struct comparison *c, char *why, size_t len);
	/* before a run (before NULL) and after it (before: what it observed
	 * then): 0 when the configuration holds, with what it observes now in
	 * obs; else -1 with the reason in why, also after a run when an
	 * observed value differs from before */
	int (*verify)(struct comparison *c, const char *work_dir, const struct record *before,
		      struct record *obs, char *why, size_t len);
	/* configuration i's fields in a record: the environment record (obs
	 * NULL) or a run's (obs: what verify observed before the run) */
	void (*describe)(const struct comparison *c, size_t i, const struct record *obs,
			 struct record *r);
};

/* What a comparison does once, around the whole suite. */
struct suite_comparison_ops {
	/* the comparison's id, before anything else: the suite's session */
	void (*name)(struct comparison *c, const char *id);
	/* the file the commands' output goes to (malloc'd: c frees it) */
	void (*log_to)(struct comparison *c, char *path);
	/* 1 when it changes a setting of the whole machine: one such
	 * comparison at a time on a machine (a lock) */
	int (*machine_wide)(const struct comparison *c);
	/* the guardian restores what it changes from here on (not in a dry run) */
	void (*start)(struct comparison *c);
	/* the configuration run k-th in round (1-based) */
	size_t (*at)(const struct comparison *c, uint64_t round, size_t k);
	/* whatever ended the suite: back, and the machine restored; returns
	 * 0, or -1 with the reason printed */
	int (*end)(struct comparison *c);
	/* its lines in the suite's plan */
	void (*print_plan)(const struct comparison *c, uint64_t rounds, FILE *f);
	/* keep only comparison id's runs in st, its labels in *labels (freed
	 * by the suite): 0, or -1 with the reason in why */
	int (*select)(struct store *st, const char *id, char ***labels, size_t *n,
		      char *why, size_t len);
};

/* The configurations a suite runs: in every round each of the n in turn
 * is entered, runs every run type and is left. */
struct suite_configs {
	struct comparison *c;		/* the caller's, handed back to every op */
	size_t n;
	const struct suite_config_ops *ops;
	/* a comparison (contest compare, a campaign's boot): a results file
	 * per configuration, each with its own noload, the comparison's id in
	 * every record; NULL for contest run, one label's suite */
	const struct suite_comparison_ops *comparison;
};

/* The suite over configurations (contest compare, a campaign's boot);
 * returns the exit status. */
int suite_over(struct config *cfg, const struct suite_configs *configs);
/* `contest load NAME`: one load alone, no workload; prints its rate
 * (suite-load.c). */
int load_main(struct config *cfg);
/* The work directory a command line names must be one contest can make its
 * own: not the root, a top-level directory of the system or a mount point.
 * Returns 0, or 2 (a bad command line) with the reason and what to give
 * instead printed (suite-preflight.c). */
int suite_check_work_dir(const char *dir);

/* The loads' view of the machine and of the user's options. */
void suite_load_env(const struct config *cfg, const char *tree, struct load_env *e);
/* A context for ops with scratch dir/NAME and the values of its options
 * (c->opts, from e->values), checked (sizes resolved); NULL with the reason
 * in why when the load cannot run here. */
struct load_ctx *suite_load_ctx(const struct load_env *e, const struct load_ops *ops,
				const char *dir, char *why, size_t len);
void suite_load_ctx_free(struct load_ctx *c);

#endif
