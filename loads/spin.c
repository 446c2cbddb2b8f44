/* SPDX-License-Identifier: GPL-2.0-or-later */
/* spin.c - spin_load: a trivial CPU-bound load that exercises the harness.
 *
 * For the test suite: one process per CPU spinning on arithmetic.  In
 * tests/contest-hooked only (built with CONTEST_TEST_HOOKS) it can be told
 * to misbehave through CONTEST_SPIN_FAULT so the tests can check how the
 * harness reports a load that fails ("setup", "run"), never does any work
 * ("idle": alive, as a load starved for the whole build) or dies ("die"), or
 * that works slowly (almost no CPU) and burns 2 s of CPU once told to stop
 * ("teardown": not a figure of the run; with CONTEST_SPIN_CPU_DIR each
 * process first writes the CPU it had used when it saw the stop, in ns, to
 * DIR/cpu-PID, for tests/t2015). */
#include "config.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "loads/load.h"

#define SPINS_PER_UNIT 100000000u

static const char *fault(void)
{
#ifdef CONTEST_TEST_HOOKS
	const char *f = getenv("CONTEST_SPIN_FAULT");

	return f ? f : "";
#else
	return "";	/* the shipped binary takes no orders from the environment */
#endif
}

#ifdef CONTEST_TEST_HOOKS
/* The process's CPU when it saw the stop, in ns, to dir/cpu-PID. */
static void stopped_at(const char *dir)
{
	struct timespec ts;
	char path[4096];
	FILE *f;

	if (!dir || clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts))
		return;
	snprintf(path, sizeof(path), "%s/cpu-%d", dir, (int)getpid());
	f = fopen(path, "we");
	if (f) {
		fprintf(f, "%lld\n", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
		fclose(f);
	}
}
#endif

static int spin_setup(struct load_ctx *c, char *why, size_t len)
{
	if (!strcmp(fault(), "setup")) {
		snprintf(why, len, "told to fail its setup");
		return -1;
	}
	c->nprocs = c->env->ncpus ? c->env->ncpus : 1;
	return 0;
}

static int spin_run(struct load_ctx *c, unsigned idx)
{
	const char *f = fault();
	volatile uint64_t x = idx;
	uint64_t spins = 0;

	if (!strcmp(f, "run"))
		return load_fail(c, "told to fail in process %u", idx);
	load_ready(c);
#ifdef CONTEST_TEST_HOOKS
	if (!strcmp(f, "teardown")) {
		struct timespec nap = { 0, 10 * 1000 * 1000 }, ts;
		double units = 0;

		while (!load_stopping()) {
			nanosleep(&nap, NULL);
			load_progress(c, units += 0.001);
		}
		stopped_at(getenv("CONTEST_SPIN_CPU_DIR"));
		do {
			for (int i = 0; i < 100000; i++)
				x = x * 6364136223846793005u + 1442695040888963407u;
			clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		} while (ts.tv_sec < 2);
		return 0;
	}
#endif
	if (!strcmp(f, "idle")) {
		while (!load_stopping())
			pause();
		return 0;
	}
	while (!load_stopping()) {
		for (int i = 0; i < 100000; i++)
			x = x * 6364136223846793005u + 1442695040888963407u;
		spins += 100000;
		load_progress(c, (double)spins / SPINS_PER_UNIT);
		if (!strcmp(f, "die") && spins >= SPINS_PER_UNIT / 100)
			raise(SIGKILL);	/* as the OOM killer would */
	}
	return 0;
}

static void spin_params(const struct load_ctx *c, struct record *r)
{
	load_param(r, "procs", c->nprocs);
}

const struct load_ops spin_load = {
	.name = "spin_load",
	.summary = "test load: one process per CPU spinning on arithmetic",
	.unit = "10^8 loop iterations",
	.flags = LOAD_TEST_ONLY,
	.setup = spin_setup,
	.params = spin_params,
	.run = spin_run,
};
