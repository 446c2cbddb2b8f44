/* SPDX-License-Identifier: GPL-2.0-or-later */
/* load.c - the load's side of loads/load.h: what run() and params() call.
 *
 * A load process says it is ready over a pipe, sees the stop request in a
 * flag the harness's SIGTERM handler sets, and reports its work, failure
 * or note in its slot of a shared page (loads/loadproc.h); the harness
 * (run/loadset.c) forks it, reads the slot and reaps it. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "loads/load.h"
#include "loads/loadproc.h"
#include "results/record.h"

/* ---- inside a load process ---------------------------------------------- */

static volatile sig_atomic_t child_stop;
static int child_ready_fd = -1;

void load_proc_stop(int sig)
{
	(void)sig;
	child_stop = 1;
}

void load_proc_enter(struct load_ctx *c, struct load_proc *self, int ready_fd)
{
	child_ready_fd = ready_fd;
	c->self = self;
}

void load_ready(struct load_ctx *c)
{
	(void)c;
	if (child_ready_fd >= 0) {
		char b = 'r';

		while (write(child_ready_fd, &b, 1) < 0 && errno == EINTR)
			;
		close(child_ready_fd);
		child_ready_fd = -1;
	}
}

int load_stopping(void)
{
	return child_stop;
}

void load_progress(struct load_ctx *c, double units)
{
	uint64_t bits;

	memcpy(&bits, &units, sizeof(bits));
	atomic_store_explicit(&c->self->work, bits, memory_order_relaxed);
}

int load_fail(struct load_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->self->why, sizeof(c->self->why), fmt, ap);
	va_end(ap);
	return -1;
}

int load_note(struct load_ctx *c, const char *fmt, ...)
{
	sigset_t term, old;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->self->note, sizeof(c->self->note), fmt, ap);
	va_end(ap);
	load_ready(c);
	/* SIGTERM blocked between the look at the flag and the wait */
	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, &old);
	while (!load_stopping())
		sigsuspend(&old);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return 0;
}

int load_disk_full(int err)
{
	return err == ENOSPC || err == EDQUOT;
}

/* ---- in the harness, for params() ---------------------------------------- */

void load_param_text(struct record *r, const char *name, const char *text)
{
	record_set(r, name, text);
}

void load_param(struct record *r, const char *name, uint64_t value)
{
	record_setf(r, name, "%llu", (unsigned long long)value);
}
