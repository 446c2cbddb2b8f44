/* SPDX-License-Identifier: GPL-2.0-or-later */
/* suite-internal.h - the suite's state, shared by its parts: suite.c (its
 * course: setup, warm-up, rounds, results), suite-preflight.c,
 * suite-plan.c and suite-load.c (contest load).  Not for the rest of
 * contest: suite.h is the suite's interface. */
#ifndef CONTEST_SUITE_INTERNAL_H
#define CONTEST_SUITE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "run/harness.h"
#include "run/options.h"
#include "loads/load.h"
#include "loads/runtype.h"
#include "workload/workload.h"
#include "results/record.h"
#include "results/store.h"
#include "lib/swap.h"

/* suite.h's, not included: suite.c includes this header, and the two
 * modules would make a circle (tests/t0002-build-layers.sh) */
struct suite_config;
struct suite_configs;

/* The suite: one a process (run, compare or load), a static. */
struct suite {
	struct config *cfg;
	char label[LABEL_MAX + 1];
	const struct runtype *types[64];
	struct load_ctx *ctx[64];  /* one per type; NULL for noload, cacherun */
	size_t ntypes;
	struct load_env env;
	struct workload wl;
	struct harness h;
	const char *flush_dirs[3]; /* the work directory, and the user's tree */
	char session[64];
	char *run_dir;          /* work_dir/run-PID-XXXXXX, removed at the end */
	struct zram zram;       /* --swap zram: the device made for the suite */
	int drain_due;          /* a mem_load run ended: drain the swap before the next */
	char drained[512];      /* what that did, for the next run's record, or "" */
	int made_work_dir;
	uint64_t tree_archive;  /* the workload's tree: a tar archive of it, once measured */
	uint64_t tree_disk;     /* and what it takes on disk (check_disk_together()) */
	int added_noload;       /* noload added for the Ratio (1, 2): the plan says why */
	int one_noload;         /* the label's last suite had one noload: the plan says so */
	int work_lock, results_lock; /* fds of the held locks, or -1 */
	int compare_lock;	/* a comparison: COMPARE_LOCK's fd, or -1 */
	size_t kept, invalid;
	const struct suite_configs *configs; /* what it runs (NULL for contest load) */
	size_t cur;             /* the configuration running now */
};

/* suite.c.  A suite and contest load begin alike (init, start: 0, or an
 * exit status, with the reason printed) and end alike (finish: 1 when the swap
 * could not be removed). */
void suite_init(struct suite *s, struct config *cfg);
int suite_start(struct suite *s, int claim_results);
int suite_finish(struct suite *s);
/* --swap zram made in the run directory: returns 0, or -1 with the reason
 * printed */
int make_swap(struct suite *s);
/* every load's scratch made and its prepare done: returns 0, or -1 with the
 * reason printed */
int prepare_loads(struct suite *s);
/* configuration i's label (NULL: the suite's, -k or the kernel's) and loads */
void read_config(const struct suite *s, size_t i, struct suite_config *k);
/* cpu_ns of elapsed_ns as a percentage, "-" when not measured (< 0) */
int cpu_percent(int64_t cpu_ns, int64_t elapsed_ns, char *buf, size_t len);

/* suite-preflight.c: what runs, where, and whether it fits.  Each says why
 * when it fails: pick_* return an exit status (2, usage), plan_swap 1,
 * the others -1. */
int pick_types(struct suite *s);
int pick_label(struct suite *s);
void add_noload_if_missing(struct suite *s, const struct store *st);
void add_own_noload(struct suite *s);
int check_sync_mix(const struct suite *s, const struct store *st);
int plan_swap(struct suite *s);
int preflight_loads(struct suite *s);
/* the loads' files, archives and extractions against the free space: in
 * preflight_loads(), and again once the built-in tree is made */
int check_disk_together(struct suite *s);
int claim_dirs(struct suite *s);
int make_run_dir(struct suite *s);
/* the run directory removed (but a zram device's marker), the locks let go */
void remove_run_dir(struct suite *s);

/* suite-plan.c: the plan printed; what the plan and the summary warn of */
int results_lost_at_boot(const char *dir, char *buf, size_t len);
void print_swap(const struct suite *s, FILE *f, const char *indent);
void print_plan(struct suite *s, FILE *f);

#endif
