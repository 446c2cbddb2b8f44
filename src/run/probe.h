/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probe.h - the latency probe: light periodic tasks beside a run, timed. */
#ifndef CONTEST_PROBE_H
#define CONTEST_PROBE_H

#include <stdint.h>
#include <stdio.h>

#include "results/hist.h"

struct harness;
struct record;
struct run;

/* The tasks, as interbench simulated a desktop: each wakes at absolute
 * CLOCK_MONOTONIC deadlines, does a fixed amount of work, and sleeps until
 * the next one.  audio: every 5 ms; video: a 60 Hz frame; input: an event
 * after a random 10 to 100 ms.  How much work, the profile says. */
enum { PROBE_AUDIO, PROBE_VIDEO, PROBE_INPUT, PROBE_TASKS };

struct probe_task {
	const char *name;	/* "audio" */
	int64_t period_ns;	/* 0: random, from min_ns to max_ns */
	int64_t min_ns, max_ns;
};

extern const struct probe_task probe_tasks[PROBE_TASKS];

/* The profiles: how much work each task does per period.  PROBE_NONE (0)
 * is no probe, so that a profile id is true when a probe ran. */
enum probe_profile_id { PROBE_NONE, PROBE_LIGHT, PROBE_FULL, PROBE_PROFILES };

struct probe_profile {
	const char *name;			/* "light", "full" */
	int64_t work_ns[PROBE_TASKS];		/* the burn per period, at the calibrated speed */
};

/* Indexed by enum probe_profile_id; [PROBE_NONE] is named "none" and does
 * no work. */
extern const struct probe_profile probe_profiles[PROBE_PROFILES];

/* "none", "light" or "full": the id, else -1. */
int probe_profile_parse(const char *name);

/* What one task measured over the window. */
struct probe_stats {
	struct hist latency;	/* wakeup latency: actual start - deadline, ns */
	uint64_t periods;	/* deadlines that passed */
	uint64_t misses;	/* of them, whose work was not done by the next deadline */
};

/* Iterations of the burn loop per microsecond of CPU time: the median of
 * several tries on this (preferably idle) CPU, untimed.  The work of every
 * period is fixed in iterations from it, so the probe does the same work on
 * every kernel it is given the same figure on. */
double probe_calibrate(void);

struct probe;

/* Fork the tasks, one process each, in a process group of their own in
 * contest's session, as loads are forked (loadset_start), at nice 0 and
 * SCHED_OTHER whatever --load-nice and --load-session say; wait until they
 * run.  iters_per_us from probe_calibrate().  NULL with why on failure
 * (nothing is left running). */
struct probe *probe_start(const struct harness *h, enum probe_profile_id profile,
			  double iters_per_us, char *why, size_t len);
/* The window: only deadlines from begin to end count, however late the
 * task serves them.  probe_end() notes the time and the tasks' CPU. */
void probe_begin(struct probe *p);
void probe_end(struct probe *p);
/* 0 while every task lives; else -1 with what happened in why. */
int probe_check(struct probe *p, char *why, size_t len);
/* Wait until every task has served or skipped the window's deadlines (a
 * few seconds at most), stop the tasks, reap them and free p; the window's
 * figures go to
 * out[PROBE_TASKS] (may be NULL) and the tasks' CPU time from
 * probe_begin() to probe_end() to *cpu_ns (may be NULL; -1 when it could
 * not be read, or the window never opened).  0, or -1 with why when a task
 * failed. */
int probe_stop(struct probe *p, struct probe_stats *out, int64_t *cpu_ns, char *why,
	       size_t len);

/* A run's probe figures in its record, all optional together:
 *	probe_cal=ITERATIONS_PER_US [probe_cpu_ns=NS] probe_profile=NAME
 *	probe_TASK=HISTOGRAM probe_TASK_periods=N probe_TASK_misses=N
 *	probe_TASK_work_ns=NS
 * for each task (audio, video, input), the histogram in hist_encode()'s
 * form.  A record without probe_profile (written before there were
 * profiles) ran the full one, with its work figures. */
void probe_to_record(const struct run *run, struct record *r);
/* Fill run->probe (allocated; NULL when the record has no probe_cal),
 * run->probe_profile, run->probe_work_ns, run->probe_cal and
 * run->probe_cpu_ns.  0, or -1 with why when a field is
 * missing or bad (nothing is then allocated). */
int probe_from_record(const struct record *r, struct run *run, char *why, size_t len);

/* The table of `contest load NAME --probe`: one row per task, its work
 * per period, wakeup latency p50 p90 p99 p99.9 max in ms and Miss%. */
void probe_print(FILE *f, enum probe_profile_id profile, const struct probe_stats *st);

#endif
