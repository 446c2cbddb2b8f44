/* SPDX-License-Identifier: GPL-2.0-or-later */
/* harness.c - one timed run: flush, start the load, time the workload, stop.
 *
 * The load's processes are a loadset (loadset.c).  The run's figures come
 * from the timed window only: work and CPU are sampled when the build
 * starts and ends. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "run/harness.h"
#include "run/loadset.h"
#include "run/probe.h"
#include "run/taskstats.h"
#include "lib/flush.h"
#include "lib/fsutil.h"
#include "lib/proc.h"
#include "lib/util.h"

/* ---- the whole machine over a run ------------------------------------------
 *
 * What Nick Piggin and Andrew Morton asked contest for: how idle the CPUs
 * were, how much of that was waiting for I/O, and whether the run faulted or
 * swapped.  Sampled when the timed build starts and ends; what cannot be
 * read stays absent in the record rather than reading as 0. */

static const char *const vm_keys[] = { "pgmajfault", "pswpin", "pswpout" };

struct sysfig {
	int have_cpu;
	uint64_t idle, iowait, total;	/* clock ticks of all CPUs */
	int have_vm[ARRAY_SIZE(vm_keys)];
	uint64_t vm[ARRAY_SIZE(vm_keys)];
};

static void sysfig_sample(struct sysfig *s)
{
	unsigned long long v[8] = { 0 };
	char buf[512];

	memset(s, 0, sizeof(*s));
	/* cpu  user nice system idle iowait irq softirq steal (guest is in user) */
	if (read_small("/proc/stat", buf, sizeof(buf)) == 0 &&
	    sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7]) >= 5) {
		s->have_cpu = 1;
		s->idle = v[3];
		s->iowait = v[4];
		for (size_t i = 0; i < ARRAY_SIZE(v); i++)
			s->total += v[i];
	}
	for (size_t i = 0; i < ARRAY_SIZE(vm_keys); i++)
		s->have_vm[i] = proc_field_u64("/proc/vmstat", vm_keys[i], &s->vm[i]) == 0;
}

static void sysfig_delta(const struct sysfig *a, const struct sysfig *b, struct run *run)
{
	int64_t *out[] = { &run->majflt, &run->pswpin, &run->pswpout };

	if (a->have_cpu && b->have_cpu && b->total > a->total && b->idle >= a->idle &&
	    b->iowait >= a->iowait) {
		double total = (double)(b->total - a->total);

		run->idle = (double)(b->idle - a->idle) / total * 100;
		run->iowait = (double)(b->iowait - a->iowait) / total * 100;
	}
	for (size_t i = 0; i < ARRAY_SIZE(vm_keys); i++)
		if (a->have_vm[i] && b->have_vm[i] && b->vm[i] >= a->vm[i])
			*out[i] = (int64_t)(b->vm[i] - a->vm[i]);
}

/* ---- one run ------------------------------------------------------------- */

static void phase(const struct harness *h, const char *what, const struct loadset *ls,
		  double w0)
{
	if (h->phase)
		h->phase(what, ls, w0);
}

static void invalid(struct run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void invalid(struct run *run, const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	if (!run->valid)
		return;	/* keep the first reason */
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	run->valid = 0;
	free(run->reason);
	run->reason = xstrdup(buf);
}

/* What the load met that leaves the run valid (load.note=): the first. */
static void note(struct run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void note(struct run *run, const char *fmt, ...)
{
	va_list ap;

	if (run->note)
		return;
	va_start(ap, fmt);
	run->note = xvasprintf(fmt, ap);
	va_end(ap);
}

/* What the build's Time covers opens when its clock starts (after the log
 * is opened, which can take a while): the load's work, CPU and I/O, and
 * the probe's window. */
struct window {
	struct loadset *ls;
	struct probe *pr;
	double w0;	/* the load's work then */
};

static void window_open(void *arg)
{
	struct window *w = arg;

	if (w->ls) {
		loadset_mark(w->ls);
		w->w0 = loadset_work(w->ls);
	}
	if (w->pr)
		probe_begin(w->pr);
}

static int timed_build(struct harness *h, struct loadset *ls, struct probe *pr,
		       struct run *run)
{
	struct window win = { ls, pr, 0 };
	struct sysfig s0, s1;
	struct delays *dl;
	struct build b;
	char why[512];
	pid_t *pids = NULL;
	size_t npids = 0;
	int rc;

	if (ls)
		pids = loadset_pids(ls, &npids);
	dl = delays_open(pids, npids, 1);
	free(pids);
	sysfig_sample(&s0);
	phase(h, "compiling", ls, ls ? loadset_work(ls) : 0);
	test_hook("build");
	delays_enter(dl);
	rc = workload_run_timed(h->wl, h->wl->build, &b, window_open, &win, why, sizeof(why));
	if (ls && !rc) {	/* and closes when the build ends */
		run->load_cpu_ns = loadset_cpu_ns(ls);
		run->work = loadset_work(ls) - win.w0;
		loadset_io(ls, &run->io);
		if (loadset_note(ls, why, sizeof(why)))
			note(run, "%s", why);
	}
	if (pr)
		probe_end(pr);
	delays_close(dl, b.pid, run);
	if (rc) {
		if (proc_interrupted())
			return -1;
		invalid(run, "%s", why);
		return 0;
	}
	if (!WIFEXITED(b.status) || WEXITSTATUS(b.status)) {
		char how[64];

		/* no figures: a failed build's time means nothing */
		proc_describe(b.status, how, sizeof(how));
		invalid(run, "the workload failed: %s", how);
		msg("the build failed (%s); the end of its log:", how);
		workload_show_failure(h->wl, 20, stderr);
		return 0;
	}
	sysfig_sample(&s1);
	sysfig_delta(&s0, &s1, run);
	run->elapsed_ns = b.elapsed_ns;
	run->user_ns = b.user_ns;
	run->sys_ns = b.sys_ns;
	run->build_majflt = b.majflt;
	return 0;
}

struct loadset_opts harness_load_opts(const struct harness *h)
{
	return (struct loadset_opts){
		.grace_ns = h->grace_ns, .ready_timeout_ns = h->ready_timeout_ns,
		.nice = h->load_nice, .session = h->load_session,
	};
}

int harness_run(struct harness *h, const struct runtype *rt, struct load_ctx *c,
		struct run *run)
{
	struct loadset_opts lo = harness_load_opts(h);
	struct loadset *ls = NULL;
	struct probe *pr = NULL;
	struct build b;
	char why[512];
	int ret = 0;

	run->valid = 1;
	run->load_session = h->load_session;
	run->flush = xstrdup("none");
	run_sysfig_absent(run);
	if (!c)
		run->load_cpu_ns = 0;	/* no load: none, exactly */
	phase(h, "cleaning", NULL, 0);
	test_hook("clean");
	if (workload_run(h->wl, h->wl->clean, &b, why, sizeof(why)) ||
	    !WIFEXITED(b.status) || WEXITSTATUS(b.status)) {
		if (proc_interrupted())
			return -1;
		invalid(run, "cleaning the tree failed");
		msg("cleaning the tree failed; the end of its log:");
		workload_show_failure(h->wl, 20, stderr);
		return 0;
	}
	if (proc_interrupted())
		return -1;
	if (c && c->ops->setup)
		phase(h, "setting up the load", NULL, 0);
	if (c && c->ops->setup && c->ops->setup(c, why, sizeof(why))) {
		if (proc_interrupted())
			ret = -1;
		else
			invalid(run, "%s setup: %s", c->ops->name, why);
		goto cleanup;
	}
	if (c && c->ops->params)
		c->ops->params(c, &run->params);
	if (!rt->cacherun && !proc_interrupted()) {
		const char *how;

		phase(h, "flushing caches", NULL, 0);
		test_hook("flush");
		how = flush_caches(h->flush_dirs, why, sizeof(why));
		if (!how) {
			invalid(run, "%s", why);
			goto cleanup;
		}
		free(run->flush);
		run->flush = xstrdup(how);
	}
	/* a stop during a step that cannot be cut short (the setup, the
	 * sync) is seen as soon as it ends */
	if (proc_interrupted()) {
		ret = -1;
		goto cleanup;
	}
	if (c) {
		phase(h, "starting the load", NULL, 0);
		ls = loadset_start(&lo, c, why, sizeof(why));
		if (!ls) {
			if (proc_interrupted()) {
				ret = -1;
				goto cleanup;
			}
			invalid(run, "%s", why);
			goto cleanup;
		}
		phase(h, "lead time", NULL, 0);
		test_hook("lead");
		for (int64_t end = mono_ns() + h->lead_ns; mono_ns() < end;) {
			if (loadset_check(ls, why, sizeof(why)))
				break;
			proc_tick();
			if (proc_pause(end - mono_ns() < NS_PER_SEC / 10 ? end - mono_ns() :
				       NS_PER_SEC / 10))
				break;
		}
		if (proc_interrupted()) {
			ret = -1;
			goto stop;
		}
		if (loadset_check(ls, why, sizeof(why))) {
			invalid(run, "%s", why);
			goto stop;
		}
	}
	if (h->probe_cal > 0) {
		phase(h, "starting the probe", NULL, 0);
		pr = probe_start(&lo, h->probe_profile, h->probe_cal, why, sizeof(why));
		if (!pr) {
			if (proc_interrupted())
				ret = -1;
			else
				invalid(run, "%s", why);
			goto stop;
		}
	}
	if (timed_build(h, ls, pr, run)) {
		ret = -1;
		goto stop;
	}
	if (ls && loadset_check(ls, why, sizeof(why)))
		invalid(run, "%s during the timed run", why);
	if (pr && probe_check(pr, why, sizeof(why)))
		invalid(run, "%s during the timed run", why);
stop:
	if (pr) {
		run->probe = xcalloc(PROBE_TASKS, sizeof(*run->probe));
		run->probe_cal = h->probe_cal;
		run->probe_profile = h->probe_profile;
		memcpy(run->probe_work_ns, probe_profiles[h->probe_profile].work_ns,
		       sizeof(run->probe_work_ns));
		if (probe_stop(pr, run->probe, &run->probe_cpu_ns, why, sizeof(why)))
			invalid(run, "%s", why);
	}
	if (ls) {
		phase(h, "stopping the load", NULL, 0);
		if (loadset_stop(ls, why, sizeof(why)))
			invalid(run, "%s", why);
		/* every process alive and no work: starved, what contest shows */
		if (run->valid && run->work <= 0 && !run->note)
			note(run, "%s did no work during the timed build (starved, every process "
			     "alive)", c->ops->name);
	}
cleanup:
	if (c && c->ops->cleanup)
		c->ops->cleanup(c);
	return ret;
}
