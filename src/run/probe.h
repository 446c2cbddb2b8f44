/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probe.h - the latency probe: light periodic tasks beside a run, timed. */
#ifndef CONTEST_PROBE_H
#define CONTEST_PROBE_H

#include <stdint.h>
#include <stdio.h>

#include "results/latency.h"

struct loadset_opts;

/* Iterations of the burn loop per microsecond of CPU time: the median of
 * several tries on this (preferably idle) CPU, untimed.  The work of every
 * period is fixed in iterations from it, so the probe does the same work on
 * every kernel it is given the same figure on. */
double probe_calibrate(void);

struct probe;

/* Fork the tasks, one process each, in a process group of their own in
 * contest's session, as loads are forked (loadset_start, with o's grace and
 * ready timeout), at nice 0 and SCHED_OTHER whatever o's nice and session
 * (--load-nice, --load-session) say; wait until they run.  iters_per_us from
 * probe_calibrate().  NULL with the reason in why on failure (nothing is left
 * running). */
struct probe *probe_start(const struct loadset_opts *o, enum probe_profile_id profile,
			  double iters_per_us, char *why, size_t len);
/* The window: only deadlines from begin to end count, however late the
 * task serves them.  probe_end() notes the time and the tasks' CPU. */
void probe_begin(struct probe *p);
void probe_end(struct probe *p);
/* 0 while every task lives; else -1 with what happened in why. */
int probe_check(struct probe *p, char *why, size_t len);
/* Wait until every task has served or skipped the window's deadlines (a few
 * seconds at most), stop the tasks, reap them and free p; the window's figures
 * go to out[PROBE_TASKS] (may be NULL) and the tasks' CPU time from
 * probe_begin() to probe_end() to *cpu_ns (may be NULL; -1 when it could not be
 * read, or the window never opened).  Returns 0, or -1 with the reason in why
 * when a task failed. */
int probe_stop(struct probe *p, struct probe_stats *out, int64_t *cpu_ns, char *why,
	       size_t len);

/* The table of `contest load NAME --probe`: one row per task, its work
 * per period, wakeup latency p50 p90 p99 p99.9 max in ms and Miss%. */
void probe_print(FILE *f, enum probe_profile_id profile, const struct probe_stats *st);

#endif
