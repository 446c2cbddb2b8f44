/* SPDX-License-Identifier: GPL-2.0-or-later */
/* suite-load.c - contest load NAME: one load alone, no build beside it, in
 * the suite's scratch and with its guardian; prints its rate, CPU, I/O and
 * delays, and with a probe the wake-up latency beside it. */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/types.h>

#include "run/harness.h"
#include "run/probe.h"
#include "run/suite-internal.h"
#include "run/suite.h"
#include "run/taskstats.h"
#include "loads/registry.h"
#include "loads/runtype.h"
#include "workload/workload.h"
#include "results/run.h"
#include "lib/exitcode.h"
#include "lib/proc.h"
#include "lib/util.h"

static int run_alone(struct suite *s, struct load_ctx *c)
{
	int64_t cpu, t0, elapsed, probe_cpu = -1;
	struct probe_stats pst[PROBE_TASKS];
	struct probe *pr = NULL;
	struct delays *dl;
	struct loadset_opts lo;
	struct loadset *ls;
	struct run dr;
	pid_t *pids;
	size_t npids;
	struct load_io io;
	char why[512], pct[32];
	double w0, work, calibration = 0;
	int have_io;

	if (c->ops->setup && c->ops->setup(c, why, sizeof(why))) {
		msg("%s setup: %s", c->ops->name, why);
		if (c->ops->cleanup)
			c->ops->cleanup(c);
		return EXIT_FAILED;
	}
	if (s->cfg->probe)
		calibration = probe_calibrate();	/* before the load: on an idle CPU */
	msg("%s: starting %u process%s for %.1f s%s%s", c->ops->name, c->nprocs,
	    c->nprocs == 1 ? "" : "es", s->cfg->seconds, s->cfg->probe ? " with the probe " : "",
	    s->cfg->probe ? probe_profiles[s->cfg->probe].name : "");
	lo = harness_load_opts(&s->h);
	ls = loadset_start(&lo, c, why, sizeof(why));
	if (ls && s->cfg->probe &&
	    !(pr = probe_start(&lo, s->cfg->probe, calibration, why, sizeof(why)))) {
		loadset_stop(ls, NULL, 0);
		ls = NULL;
	}
	if (!ls) {
		if (c->ops->cleanup)
			c->ops->cleanup(c);
		if (!proc_interrupted())
			msg("%s", why);
		return EXIT_FAILED;
	}
	loadset_mark(ls);
	pids = loadset_pids(ls, &npids);
	dl = delays_open(pids, npids, 0);
	free(pids);
	if (pr)
		probe_begin(pr);
	w0 = loadset_work(ls);
	t0 = mono_ns();
	while (!proc_interrupted() && mono_ns() - t0 < (int64_t)(s->cfg->seconds * NS_PER_SEC)) {
		if (loadset_check(ls, why, sizeof(why)) || (pr && probe_check(pr, why, sizeof(why))) ||
		    loadset_note(ls, why, sizeof(why)) || proc_pause(NS_PER_SEC / 10))
			break;
	}
	if (pr)
		probe_end(pr);
	cpu = loadset_cpu_ns(ls);	/* the window's: not the stop's */
	work = loadset_work(ls) - w0;
	have_io = loadset_io(ls, &io) == 0;
	run_init(&dr);
	delays_close(dl, 0, &dr);
	elapsed = mono_ns() - t0;
	/* what the load met (a full disk) ends it here too: its rate would be
	 * that of a load that stopped */
	if (loadset_check(ls, why, sizeof(why)) == 0 &&
	    (!pr || probe_check(pr, why, sizeof(why)) == 0) &&
	    loadset_note(ls, why, sizeof(why)) == 0)
		why[0] = '\0';
	if (pr && probe_stop(pr, pst, &probe_cpu, why[0] ? NULL : why, sizeof(why)) && !why[0])
		why[0] = '?';
	if (loadset_stop(ls, why[0] ? NULL : why, sizeof(why)) && !why[0])
		why[0] = '?';
	if (c->ops->cleanup)
		c->ops->cleanup(c);
	if (proc_interrupted() || why[0])
		run_free(&dr);
	if (proc_interrupted())
		return EXIT_SIGNAL + proc_interrupted();
	if (why[0]) {
		msg("%s", why);
		return EXIT_FAILED;
	}

	double secs = (double)elapsed / NS_PER_SEC;

	printf("load:     %s\n", c->ops->name);
	printf("seconds:  %.1f\n", secs);
	printf("work:     %.3f units (one unit: %s)\n", work, c->ops->unit);
	printf("rate:     %.4f units/s\n", work / secs);
	if (c->natural_per_unit > 0 && c->natural_unit)
		printf("natural:  %.1f %s/s\n", work * c->natural_per_unit / secs, c->natural_unit);
	cpu_percent(cpu, elapsed, pct, sizeof(pct));
	printf("CPU%%:     %s\n", pct);
	if (have_io)
		printf("io:       rchar %" PRId64 " wchar %" PRId64 " read_bytes %" PRId64
		       " write_bytes %" PRId64 " cancelled_write_bytes %" PRId64 "\n",
		       io.rchar, io.wchar, io.read_bytes, io.write_bytes, io.cancelled);
	else
		printf("io:       not measured (no /proc/PID/io here)\n");
	delays_print(stdout, &dr, elapsed);
	run_free(&dr);
	if (s->cfg->probe) {	/* pr is freed: its figures are in pst */
		/* to a tenth: the light probe's is a per cent or two */
		if (probe_cpu < 0)
			snprintf(pct, sizeof(pct), "-");
		else
			snprintf(pct, sizeof(pct), "%.1f", (double)probe_cpu / (double)elapsed * 100);
		printf("probe:    %s, calibration %.1f iterations/us, CPU%% %s\n",
		       probe_profiles[s->cfg->probe].name, calibration, pct);
		printf("\nwakeup latency (ms):\n");
		probe_print(stdout, s->cfg->probe, pst);
	}
	return EXIT_OK;
}

int load_main(struct config *cfg)
{
	static struct suite s;
	const struct load_ops *ops;
	struct workload_config wc = workload_config_of(cfg);
	char why[512];
	int status = EXIT_FAILED;

	if (cfg->nargs != 1)
		return usage_error("load wants one load name (see 'contest list')");
	ops = load_find(cfg->args[0]);
	if (!ops && runtype_nearest(cfg->args[0], 1))
		return usage_error("unknown load '%s'; did you mean '%s'?", cfg->args[0],
				   runtype_nearest(cfg->args[0], 1));
	if (!ops)
		return usage_error("unknown load '%s' (see 'contest list')", cfg->args[0]);
	suite_init(&s, cfg);
	if (suite_start(&s, 0))
		return EXIT_FAILED;
	if (make_swap(&s))
		goto out;
	if (s.zram.id >= 0)
		print_swap(&s, stderr, "contest: ");
	if (workload_tree(&s.wl, &wc, s.run_dir, why, sizeof(why))) {
		msg("%s", why);
		goto out;
	}
	suite_load_env(cfg, s.wl.tree, &s.env);
	s.types[0] = runtype_find(ops->name);
	s.ntypes = 1;
	s.ctx[0] = suite_load_ctx(&s.env, ops, s.run_dir, why, sizeof(why));
	if (!s.ctx[0]) {
		msg("%s cannot run here: %s", ops->name, why);
		goto out;
	}
	if (prepare_loads(&s) == 0)
		status = run_alone(&s, s.ctx[0]);
out:
	if (suite_finish(&s))
		status = EXIT_FAILED;
	if (proc_interrupted())
		return EXIT_SIGNAL + proc_interrupted();
	return status;
}
