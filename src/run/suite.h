/* SPDX-License-Identifier: GPL-2.0-or-later */
/* suite.h - the run command: preflight, setup, warm-up, rounds, results. */
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

/* Run the suite cfg asks for; returns the exit status. */
int suite_main(struct config *cfg);

/* One configuration of a comparison, as the suite runs it. */
struct suite_config {
	const char *label;
	int has_nice, load_nice;	/* the loads' nice, when has_nice */
	int load_session;		/* the loads' session: 0, 1, or -1 (the option's) */
};

/* contest compare drives the suite through these: the suite runs every
 * configuration of c in turn and calls back to switch the machine to one,
 * check it and describe it.  The comparison is the caller's (compare.h):
 * here only a pointer handed back to every hook. */
struct suite_hooks {
	struct comparison *c;
	size_t n;		/* its configurations */
	void (*config)(const struct comparison *c, size_t i, struct suite_config *k);
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
	/* switch to configuration i, and back: 0, or -1 with why */
	int (*enter)(struct comparison *c, size_t i, char *why, size_t len);
	int (*leave)(struct comparison *c, char *why, size_t len);
	/* whatever ended the suite: back, and the machine restored; 0, or -1 said */
	int (*end)(struct comparison *c);
	/* before a run (before NULL) and after it: 0 when the configuration
	 * holds, what it observed in obs; else -1 with the reason in why,
	 * also after a run when an observed value differs from before */
	int (*verify)(struct comparison *c, const char *work_dir, const struct record *before,
		      struct record *obs, char *why, size_t len);
	/* configuration i's fields in a record: environment (obs NULL) or run */
	void (*describe)(const struct comparison *c, size_t i, const struct record *obs,
			 struct record *r);
	/* its lines in the suite's plan */
	void (*print_plan)(const struct comparison *c, uint64_t rounds, FILE *f);
	/* keep only comparison id's runs in st, its labels in *labels (freed
	 * by the suite): 0, or -1 with why */
	int (*select)(struct store *st, const char *id, char ***labels, size_t *n,
		      char *why, size_t len);
};

/* The suite over every configuration that cmp drives (contest compare). */
int suite_compare(struct config *cfg, const struct suite_hooks *cmp);
/* `contest load NAME`: one load alone, no workload; prints its rate
 * (suite-load.c). */
int load_main(struct config *cfg);
/* The work directory a command line names must be one contest can make its
 * own: not the root, a top-level directory of the system or a mount point.
 * 0, or 2 (a bad command line) after saying why and what to give instead
 * (suite-preflight.c). */
int suite_check_work_dir(const char *dir);

/* The loads' view of the machine and of the user's options. */
void suite_load_env(const struct config *cfg, const char *tree, struct load_env *e);
/* A context for ops with scratch dir/NAME and the values of its options
 * (c->opts, from e->values), checked (sizes resolved); NULL with why when
 * the load cannot run here. */
struct load_ctx *suite_load_ctx(const struct load_env *e, const struct load_ops *ops,
				const char *dir, char *why, size_t len);
void suite_load_ctx_free(struct load_ctx *c);

#endif
