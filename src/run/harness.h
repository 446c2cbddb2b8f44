/* SPDX-License-Identifier: GPL-2.0-or-later */
/* harness.h - one timed run: flush, start the load, time the workload, stop. */
#ifndef CONTEST_HARNESS_H
#define CONTEST_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "run/loadset.h"
#include "loads/load.h"
#include "loads/runtype.h"
#include "workload/workload.h"
#include "results/run.h"

struct harness {
	struct workload *wl;
	const char *const *flush_dirs; /* what fadvise flushing covers */
	int64_t lead_ns;               /* between "all loads ready" and the build */
	int64_t grace_ns;              /* between SIGTERM and SIGKILL */
	int64_t ready_timeout_ns;      /* how long a load may take to get ready */
	int load_nice;                 /* nice of every load process */
	int load_session;              /* loads in a session of their own */
	double probe_cal;              /* > 0: the latency probe beside every timed
					* build, with this calibration (probe.h) */
	int probe_profile;             /* and this profile (enum probe_profile_id) */
	/* Told what a run does now, for the progress line, or NULL: the
	 * phase, and while the build is timed under a load, the loads and
	 * their work when it started (else NULL and 0). */
	void (*phase)(const char *what, const struct loadset *ls, double w0);
};

/* The options of the loadsets h starts: its grace, ready timeout, nice
 * and session. */
struct loadset_opts harness_load_opts(const struct harness *h);

/* One run of type rt (c: its load context, or NULL): clean, setup, flush,
 * load, lead time, timed build, stop.  Fills the figures, validity and
 * reason, load_session and the load's params of *run.  Returns 0, or -1
 * when a stop signal interrupted it (all children stopped and reaped). */
int harness_run(struct harness *h, const struct runtype *rt, struct load_ctx *c,
		struct run *run);

#endif
