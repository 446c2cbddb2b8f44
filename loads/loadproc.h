/* SPDX-License-Identifier: GPL-2.0-or-later */
/* loadproc.h - what a load process shares with the harness that forked it.
 *
 * The load's side of loads/load.h (load_ready(), load_progress() and the
 * rest) is loads/load.c; the harness's side (fork, signals, readiness,
 * stop, reap) is run/loadset.c, which includes this header. */
#ifndef CONTEST_LOADPROC_H
#define CONTEST_LOADPROC_H

#include <stdint.h>

struct load_ctx;

/* A load process's slot in a page the harness maps shared before it forks. */
struct load_proc {
	_Atomic uint64_t work;	/* bits of a double: units done (load_progress) */
	char why[512];		/* set by load_fail() */
	char note[512];		/* set by load_note() */
};

/* In a new load process, before its run(): its slot, and the pipe on which
 * load_ready() says it is ready (closed then). */
void load_proc_enter(struct load_ctx *c, struct load_proc *self, int ready_fd);
/* The SIGTERM handler the harness installs in a load process: from then
 * on load_stopping() is true.  Async-signal-safe. */
void load_proc_stop(int sig);

#endif
