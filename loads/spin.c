/* spin.c - spin_load: a trivial CPU-bound load that exercises the harness.
 *
 * For the test suite: one process per CPU spinning on arithmetic.  It can be
 * told to misbehave through CONTEST_SPIN_FAULT so the tests can check how
 * the harness reports a load that fails ("setup", "run"), never does any
 * work ("idle") or dies ("die"). */
#include "config.h"

#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load.h"

#define SPINS_PER_UNIT 100000000u

static const char *fault(void)
{
	const char *f = getenv("CONTEST_SPIN_FAULT");

	return f ? f : "";
}

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
