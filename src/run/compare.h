/* SPDX-License-Identifier: GPL-2.0-or-later */
/* compare.h - contest compare: configurations, their order, and switching
 * the machine between them. */
#ifndef CONTEST_COMPARE_H
#define CONTEST_COMPARE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "run/options.h"
#include "results/record.h"
#include "results/store.h"

/* What --vary changes. */
enum knob {
	KNOB_NONE,        /* --configs FILE: the user's commands */
	KNOB_AUTOGROUP,   /* /proc/sys/kernel/sched_autogroup_enabled */
	KNOB_IOSCHED,     /* the work directory's disk's queue/scheduler */
	KNOB_LOAD_NICE,   /* the loads' nice value */
	KNOB_LOAD_SESSION, /* the loads in a session of their own */
	KNOB_SLICE,       /* EEVDF's base_slice_ns in debugfs */
	KNOB_SCHED_EXT,   /* a sched_ext scheduler binary, or none */
};

/* One configuration: a label and how to switch to it, back, and check it. */
struct cmp_config {
	char *label;
	char *setup, *undo, *check;  /* shell commands, or NULL */
	char *value;                 /* --vary: its value */
	const char *where;           /* FILE:LINE of its section, or "--vary" */
	int has_nice, load_nice;     /* --vary load-nice: the loads' nice */
	int load_session;            /* the loads' session: 0, 1, or -1 (the option's) */
	pid_t kept;                  /* the process group its setup left running (its
	                                leader a zombie till stopped: the id stays its), or 0 */
	int enable_seq;              /* sched_ext: the kernel's count once it was set up */
};

struct comparison {
	struct cmp_config *cfgs;
	size_t n;
	enum knob knob;
	const char *knob_name;       /* "autogroup", ... */
	char path[512];              /* the knob's file */
	char orig[256];              /* its value found at the start */
	int guarded;                 /* orig handed to the guardian */
	uint64_t seed;
	size_t *order;               /* nrows x n configuration indexes */
	size_t nrows, first_row;
	int active;                  /* the configuration set up, or -1 */
	char *log;                   /* the commands' output, or NULL: /dev/null */
	char id[64];                 /* the comparison's id: its session */
};

/* The configurations of --configs FILE or --vary, checked against this
 * machine (root, files, sched_ext) before any work: 0, or EXIT_USAGE or
 * EXIT_FAILED with the reason printed on stderr. */
int compare_init(struct comparison *c, const struct config *cfg);
/* Parse the configuration file text (named file, for the messages): 0, or
 * -1 with "FILE:LINE: what is wrong" in why. */
int compare_parse(struct comparison *c, const char *file, const char *text,
		  char *why, size_t len);
/* The counterbalanced order: nrows rows of every configuration, ABBA for
 * two, a balanced (Williams) Latin square for more; the seed picks which
 * configuration takes which place and the first row (0: as given). */
void compare_plan_order(struct comparison *c, uint64_t seed);
/* The configuration run k-th in round (1-based). */
size_t compare_at(const struct comparison *c, uint64_t round, size_t k);
void compare_free(struct comparison *c);

/* From here on the guardian restores what --vary changes (a SIGKILL). */
void compare_start(struct comparison *c);
/* 1 when --vary changes a setting of the whole machine and puts back at
 * the end what it found at the start (autogroup, iosched, slice, a
 * sched_ext scheduler): such comparisons run one at a time (a lock:
 * suite-preflight.c). */
int compare_machine_wide(const struct comparison *c);
/* Switch to configuration i: its setup.  Returns 0, or -1 with the reason in
 * why. */
int compare_enter(struct comparison *c, size_t i, char *why, size_t len);
/* Back: the active configuration's undo, then its kept processes killed.
 * Returns 0, or -1 with the reason in why. */
int compare_leave(struct comparison *c, char *why, size_t len);
/* Whatever ended the comparison: leave, restore the knob's value found at
 * the start.  0, or -1 with the reason printed. */
int compare_end(struct comparison *c);

/* Before a run of the active configuration (before NULL) or after it
 * (before: what was observed before it): its check command and built-in
 * checks hold, and after a run every value observed is the one observed
 * before (0); or -1 with the reason in why ("KEY A -> B" for a value that
 * changed).  obs (kind any) gets the observed values: autogroup,
 * io_scheduler, sched_ext, slice. */
int compare_verify(struct comparison *c, const char *work_dir, const struct record *before,
		   struct record *obs, char *why, size_t len);

/* The fields of configuration i's records: in every run (obs: the
 * values observed before it, as observed.KEY) and environment record. */
void compare_describe(const struct comparison *c, size_t i, const struct record *obs,
		      struct record *r);
/* The plan's lines about the comparison. */
void compare_print_plan(const struct comparison *c, uint64_t rounds, FILE *f);

/* report --compare ID: keep only that comparison's runs and environment records
 * in st, its labels in their order into *labels (the caller frees the
 * array).  Returns 0, or -1 with the reason in why when the store has no such
 * comparison. */
int compare_select(struct store *st, const char *id, char ***labels, size_t *n,
		   char *why, size_t len);

/* contest compare. */
int compare_main(struct config *cfg);

#endif
