/* SPDX-License-Identifier: GPL-2.0-or-later */
/* loadset.h - a started load: its processes and their counters. */
#ifndef CONTEST_LOADSET_H
#define CONTEST_LOADSET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "loads/load.h"

struct load_io;
struct loadset;

/* How a loadset's processes are started and stopped. */
struct loadset_opts {
	int64_t grace_ns;              /* between SIGTERM and SIGKILL */
	int64_t ready_timeout_ns;      /* how long a load may take to get ready */
	int nice;                      /* nice of every process */
	int session;                   /* in a session of their own */
};

/* Fork c->nprocs processes running c->ops->run, as o says, and wait until
 * every one is ready.  NULL with the reason in why when one fails or dies
 * first, or a stop signal arrives (everything is then stopped and reaped). */
struct loadset *loadset_start(const struct loadset_opts *o, struct load_ctx *c, char *why,
			      size_t len);
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
/* 1 with what a process met (load_note(): "NAME process I: TEXT") in buf,
 * the first process's that met something; else 0. */
int loadset_note(const struct loadset *ls, char *buf, size_t len);
/* Stop (SIGTERM, grace, SIGKILL), reap with wait4 and free.  Returns 0,
 * or -1 with the reason in why when a process failed. */
int loadset_stop(struct loadset *ls, char *why, size_t len);
/* Start counting CPU and I/O from now (per process, from its CPU-time
 * clock and /proc/PID/io). */
void loadset_mark(struct loadset *ls);
/* The I/O of all processes since loadset_mark(), from /proc/PID/io of the
 * live processes (a reaped child's counters are not reliably folded into
 * anyone's), so call it before loadset_stop().  0, or -1 with every field
 * -1 when a process's counters cannot be read. */
int loadset_io(const struct loadset *ls, struct load_io *io);

#endif
