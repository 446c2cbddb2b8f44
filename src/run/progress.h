/* SPDX-License-Identifier: GPL-2.0-or-later */
/* progress.h - what a suite shows while it runs: the time left, and a live line on a terminal. */
#ifndef CONTEST_PROGRESS_H
#define CONTEST_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

#include "loads/runtype.h"
#include "results/store.h"

struct loadset;

enum progress_mode {
	PROGRESS_PLAIN,	/* stderr is no terminal: news one line at a time */
	PROGRESS_LIVE,	/* stderr is a terminal: also one line redrawn every second */
	PROGRESS_QUIET,	/* --quiet: errors only */
};

/* LIVE when stderr is a terminal that takes escape sequences, else PLAIN;
 * QUIET when asked to be. */
enum progress_mode progress_mode(int quiet);

/* Sets up msg() for the mode: quiet, or in LIVE mode every message first
 * clears the live line. */
void progress_start(enum progress_mode mode);
/* A suite of `rounds` rounds (at_most: up to that many, -n auto) of the n
 * run types in this order, a loaded run waiting lead_s before its build. */
void progress_plan(const struct runtype *const types[], size_t n, uint64_t rounds,
		   int at_most, double lead_s);
/* Clear the live line for good (before the final table, or on any exit). */
void progress_end(void);

/* Earlier valid runs of this workload identity (and --load-session or not)
 * in st: the mean build time of each run type, as the estimate until this
 * suite measures its own. */
void progress_guess(const struct store *st, const char *workload, int load_session);
/* The warm-up build took build_s. */
void progress_warmup(double build_s);
/* Seconds until the suite ends (the warm-up included until it is done),
 * or -1 when nothing has been measured yet. */
double progress_left(void);

/* Timed run `step` starts: run type step % n, round step / n + 1. */
void progress_run(size_t step);
/* It ended after wall_s, of which build_s the timed build (0: none). */
void progress_ran(double wall_s, double build_s);
/* What contest does now ("warm-up build", "compiling"); ls and w0: the
 * running loads and their work when the build started, or NULL.  The live
 * line shows it at once, then every second through progress_tick(). */
void progress_phase(const char *what, const struct loadset *ls, double w0);
/* Redraw the live line when a second has passed; for loops that wait. */
void progress_tick(void);

/* "45 s", "18 min", "2 h 05 min" */
void format_duration(double secs, char *buf, size_t len);

#endif
