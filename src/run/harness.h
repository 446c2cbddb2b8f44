/* SPDX-License-Identifier: GPL-2.0-or-later */
/* harness.h - one timed run: flush, start the load, time the workload, stop. */
#ifndef CONTEST_HARNESS_H
#define CONTEST_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "loads/load.h"
#include "results/run.h"
#include "loads/runtype.h"
#include "run/workload.h"

struct loadset;

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

/* A started load: its processes and their counters. */

/* Fork c->nprocs processes running c->ops->run and wait until every one is
 * ready.  NULL with why when one fails or dies first, or a stop signal
 * arrives (everything is then stopped and reaped). */
struct loadset *loadset_start(struct harness *h, struct load_ctx *c, char *why, size_t len);
/* Work units completed so far, all processes together. */
double loadset_work(const struct loadset *ls);
/* CPU time (user + system) of all processes since loadset_mark(), in ns,
 * from their CPU-time clocks; -1 when a process's cannot be read (it died).
 * Call it when the window ends: a process's teardown is not the load's. */
int64_t loadset_cpu_ns(const struct loadset *ls);
/* The processes' pids (allocated), their number in *n. */
pid_t *loadset_pids(const struct loadset *ls, size_t *n);
/* 0 while every process lives; else -1 with what happened in why. */
int loadset_check(struct loadset *ls, char *why, size_t len);
/* Stop (SIGTERM, grace, SIGKILL), reap with wait4 and free.  Returns 0,
 * or -1 with why when a process failed. */
int loadset_stop(struct loadset *ls, char *why, size_t len);
/* Start counting CPU and I/O from now (per process, from its CPU-time
 * clock and /proc/PID/io). */
void loadset_mark(struct loadset *ls);
/* The I/O of all processes since loadset_mark(), from /proc/PID/io of the
 * live processes (a reaped child's counters are not reliably folded into
 * anyone's), so call it before loadset_stop().  0, or -1 with every field
 * -1 when a process's counters cannot be read. */
int loadset_io(const struct loadset *ls, struct load_io *io);

/* One run of type rt (c: its load context, or NULL): clean, setup, flush,
 * load, lead time, timed build, stop.  Fills the figures, validity and
 * reason, load_session and the load's params of *run.  Returns 0, or -1
 * when a stop signal interrupted it (all children stopped and reaped). */
int harness_run(struct harness *h, const struct runtype *rt, struct load_ctx *c,
		struct run *run);

#endif
