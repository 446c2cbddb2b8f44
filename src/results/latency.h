/* SPDX-License-Identifier: GPL-2.0-or-later */
/* latency.h - the latency probe's tasks, profiles and figures, and their
 * fields in a run record.  The probe (run/probe.c) measures them, the
 * report prints them; both take the definitions from here. */
#ifndef CONTEST_LATENCY_H
#define CONTEST_LATENCY_H

#include <stddef.h>
#include <stdint.h>

#include "results/hist.h"

struct record;

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

/* A run's probe figures: struct run's probe fields (results/run.h), which
 * the run codec hands over and takes back. */
struct probe_figs {
	struct probe_stats *stats;	/* PROBE_TASKS of them, allocated; NULL: no probe */
	int profile;			/* enum probe_profile_id; PROBE_NONE without */
	int64_t work_ns[PROBE_TASKS];	/* each task's work per period */
	double cal;			/* the calibration, iterations per us */
	int64_t cpu_ns;			/* over the window; -1 when not measured */
};

/* A run's probe figures in its record, all optional together:
 *	probe_cal=ITERATIONS_PER_US [probe_cpu_ns=NS] probe_profile=NAME
 *	probe_TASK=HISTOGRAM probe_TASK_periods=N probe_TASK_misses=N
 *	probe_TASK_work_ns=NS
 * for each task (audio, video, input), the histogram in hist_encode()'s
 * form; nothing when f->stats is NULL.  A record without probe_profile
 * (written before there were profiles) ran the full one, with its work
 * figures. */
void probe_to_record(const struct probe_figs *f, struct record *r);
/* Fill *f: f->stats allocated, or NULL (profile PROBE_NONE, work 0, cal 0,
 * cpu_ns -1) when the record has no probe_cal.  Returns 0, or -1 with the
 * reason in why when a field is missing or bad (nothing is then allocated). */
int probe_from_record(const struct record *r, struct probe_figs *f, char *why, size_t len);

#endif
