/* SPDX-License-Identifier: GPL-2.0-or-later */
/* suite.c - the run command: preflight, setup, warm-up, rounds, results.
 * Here the suite's course, from setup to the summary; its preflight is in
 * suite-preflight.c, its plan in suite-plan.c, contest load in suite-load.c. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/env.h"
#include "run/harness.h"
#include "run/probe.h"
#include "run/progress.h"
#include "run/runsummary.h"
#include "run/suite-internal.h"
#include "run/suite.h"
#include "run/taskstats.h"
#include "report/report.h"
#include "loads/registry.h"
#include "loads/runtype.h"
#include "results/stats.h"
#include "results/store.h"
#include "lib/exitcode.h"
#include "lib/flush.h"
#include "lib/fsutil.h"
#include "lib/proc.h"
#include "lib/swap.h"
#include "lib/util.h"

void suite_load_env(const struct config *cfg, const char *tree, struct load_env *e)
{
	memset(e, 0, sizeof(*e));
	e->tree = tree;
	e->work_dir = cfg->work_dir;
	e->other_dir = cfg->other_dir;
	e->ncpus = env_ncpus();
	e->quick = cfg->quick;
	e->mem_total = mem_total_bytes();
	e->mem_available = mem_available_bytes();
	e->swap_free = meminfo_bytes("SwapFree");
	e->swap_room = swap_room();
	e->io_sync = cfg->io_sync;
	e->values = cfg->load_values;
}

struct load_ctx *suite_load_ctx(const struct load_env *e, const struct load_ops *ops,
				const char *dir, char *why, size_t len)
{
	struct load_ctx *c = xcalloc(1, sizeof(*c));

	c->env = e;
	c->ops = ops;
	c->nprocs = 1;
	c->scratch = xasprintf("%s/%s", dir, ops->name);
	if (ops->option_struct_size) {
		void *opts = xcalloc(1, ops->option_struct_size);

		load_options_fill(ops, e->values, opts);
		c->opts = opts;
	}
	if ((ops->flags & LOAD_NEEDS_OTHER) && !e->other_dir) {
		snprintf(why, len, "it needs a directory on another disk: give it with -o DIR");
		suite_load_ctx_free(c);
		return NULL;
	}
	if (ops->check && ops->check(c, why, len)) {
		suite_load_ctx_free(c);
		return NULL;
	}
	return c;
}

void suite_load_ctx_free(struct load_ctx *c)
{
	if (!c)
		return;
	free((char *)c->scratch);
	free((void *)c->opts);
	free(c);
}

/* Make it (but with --dry-run) in the run directory, before the loads size
 * themselves to the swap. */
int make_swap(struct suite *s)
{
	char why[512];

	if (!s->cfg->swap_zram || s->cfg->dry_run ||
	    swap_zram_make(&s->zram, s->run_dir, why, sizeof(why)) == 0)
		return 0;
	msg("%s", why);
	return -1;
}

/* At the end, whatever ended the suite: 0, or -1 with the reason printed. */
static int remove_swap(struct suite *s)
{
	char why[512];

	if (swap_zram_remove(&s->zram, why, sizeof(why)) == 0)
		return 0;
	msg("cannot remove the zram swap device made for this suite: %s; the next contest "
	    "with --work-dir %s removes it", why, s->cfg->work_dir);
	return -1;
}

int prepare_loads(struct suite *s)
{
	for (size_t i = 0; i < s->ntypes; i++) {
		struct load_ctx *c = s->ctx[i];
		char why[512];

		if (!c)
			continue;
		if (mkdir(c->scratch, 0700)) {
			msg("mkdir %s: %s", c->scratch, strerror(errno));
			return -1;
		}
		if (c->ops->prepare && c->ops->prepare(c, why, sizeof(why))) {
			msg("%s: preparing failed: %s", c->ops->name, why);
			return -1;
		}
	}
	return 0;
}

static void finish_loads(struct suite *s)
{
	for (size_t i = 0; i < s->ntypes; i++) {
		struct load_ctx *c = s->ctx[i];

		if (!c)
			continue;
		if (c->ops->finish)
			c->ops->finish(c);
		suite_load_ctx_free(c);
		s->ctx[i] = NULL;
	}
}

void read_config(const struct suite *s, size_t i, struct suite_config *k)
{
	/* without a config op: the suite's label, the command line's loads */
	*k = (struct suite_config){ .label = NULL, .load_session = -1 };
	if (s->configs->ops->config)
		s->configs->ops->config(s->configs->c, i, k);
}

/* Configuration i from now on: its label and loads. */
static void use_config(struct suite *s, size_t i)
{
	struct suite_config k;

	read_config(s, i, &k);
	s->cur = i;
	if (k.label)
		snprintf(s->label, sizeof(s->label), "%s", k.label);
	s->h.load_nice = k.has_nice ? k.load_nice : (int)s->cfg->load_nice;
	s->h.load_session = k.load_session >= 0 ? k.load_session : s->cfg->load_session;
}

static int write_env_of(struct suite *s)
{
	struct record r;
	char why[512];
	int ret;

	record_init(&r, "env");
	record_set(&r, "label", s->label);
	record_set(&r, "session", s->session);
	record_setf(&r, "time", "%lld", (long long)(real_ns() / NS_PER_SEC));
	env_capture(&r, s->cfg->argc, s->cfg->argv, s->cfg->work_dir);
	workload_describe(&s->wl, &r);
	record_setf(&r, "lead_ns", "%lld", (long long)s->h.lead_ns);
	record_setf(&r, "load_nice", "%d", s->h.load_nice);
	record_set(&r, "flush", flush_scope(flush_method()));
	if (s->h.load_session)
		record_set(&r, "load_session", "1");
	if (s->cfg->quick)	/* the sizes it chose are the runs'; the reader needs the word */
		record_set(&r, "quick", "1");
	if (s->zram.id >= 0)
		record_set(&r, "swap_made", "zram (--swap)");
	if (s->configs->ops->describe)
		s->configs->ops->describe(s->configs->c, s->cur, NULL, &r);
	ret = store_append(s->cfg->results, s->label, &r, why, sizeof(why));
	if (ret)
		msg("%s", why);
	record_free(&r);
	return ret;
}

/* The environment record of every configuration. */
static int write_env(struct suite *s)
{
	int ret = 0;

	for (size_t i = 0; i < s->configs->n && !ret; i++) {
		use_config(s, i);
		ret = write_env_of(s);
	}
	return ret;
}

/* An untimed build: the warm-up, or what cacherun must follow. */
static int untimed_build(struct suite *s, const char *what)
{
	struct build b;
	char why[512];

	if (workload_run(&s->wl, s->wl.clean, &b, why, sizeof(why)) ||
	    workload_run(&s->wl, s->wl.build, &b, why, sizeof(why))) {
		if (!proc_interrupted())
			msg("%s: %s", what, why);
		return -1;
	}
	if (!WIFEXITED(b.status) || WEXITSTATUS(b.status)) {
		char how[64];

		proc_describe(b.status, how, sizeof(how));
		msg("%s failed (%s); the end of its log:", what, how);
		workload_show_failure(&s->wl, 20, stderr);
		return -1;
	}
	return 0;
}

/* obs: what was observed before the run */
static int store_run(struct suite *s, struct run *run, const struct record *obs)
{
	struct record r;
	char why[512];
	int ret;

	run_to_record(run, &r);
	if (s->drained[0])
		record_set(&r, "swap_drain", s->drained);
	if (s->configs->ops->describe)
		s->configs->ops->describe(s->configs->c, s->cur, obs, &r);
	test_hook("record");
	ret = store_append(s->cfg->results, s->label, &r, why, sizeof(why));
	record_free(&r);
	if (ret) {
		msg("%s", why);
		return -1;
	}
	if (run->valid)
		s->kept++;
	else
		s->invalid++;
	return 0;
}

/* cpu_ns of elapsed_ns as a percentage, "-" when not measured (< 0). */
int cpu_percent(int64_t cpu_ns, int64_t elapsed_ns, char *buf, size_t len)
{
	if (cpu_ns < 0)
		return snprintf(buf, len, "-");
	return snprintf(buf, len, "%.0f", (double)cpu_ns / (double)elapsed_ns * 100);
}

/* The line of a finished run (swap: the machine has some). */
static void print_run_line(const struct run *run, size_t step, size_t steps, uint64_t rounds,
			   int swap)
{
	double secs = (double)run->elapsed_ns / NS_PER_SEC;
	char line[512];
	int n;

	n = snprintf(line, sizeof(line), "[%*zu/%zu] %s round %d/%llu:",
		     snprintf(NULL, 0, "%zu", steps), step, steps,
		     run->type, run->round, (unsigned long long)rounds);
	if (run->elapsed_ns)
		n += snprintf(line + n, sizeof(line) - (size_t)n,
			      " Time %.1f s, CPU%% %.0f", secs,
			      (double)(run->user_ns + run->sys_ns) / (double)run->elapsed_ns * 100);
	if (run->elapsed_ns && !streq(run->type, "noload") && !streq(run->type, "cacherun")) {
		char loads[32];

		format_loads(run->work, loads, sizeof(loads));
		n += snprintf(line + n, sizeof(line) - (size_t)n, ", Loads %s, LCPU%% ", loads);
		n += cpu_percent(run->load_cpu_ns, run->elapsed_ns, line + n,
				 sizeof(line) - (size_t)n);
	}
	if (run->elapsed_ns && streq(run->type, "mem_load") && run->pswpout >= 0)
		n += snprintf(line + n, sizeof(line) - (size_t)n, ", compile's major faults %lld, "
			      "major faults %lld, pages swapped in %lld, out %lld%s",
			      (long long)run->build_majflt, (long long)run->majflt,
			      (long long)run->pswpin, (long long)run->pswpout,
			      run->pswpout || swap ? "" : " (no swap: mem_load did not page)");
	snprintf(line + n, sizeof(line) - (size_t)n, "%s%s%s%s", run->elapsed_ns ? "," : "",
		 run->valid ? " valid" : " INVALID: ", run->valid ? "" : run->reason,
		 run->valid && run->note ? "; the load met: " : "");
	if (run->valid && run->note)
		msg("%s%s", line, run->note);	/* --quiet shows it too: a result to read */
	else if (run->valid)
		info("%s", line);
	else
		msg("%s", line);	/* --quiet shows it too */
}

/* The most runs of one run type in the suite: one a round and configuration. */
static size_t runs_of_type(const struct suite *s)
{
	return s->cfg->runs * s->configs->n;
}

/* -n auto: whether every run type's mean Time over this suite's valid runs
 * (times[i * runs_of_type() ...], n[i] of them) is known to within
 * --precision, with the widest interval in why either way. */
static int precise_enough(struct suite *s, const double *times, const size_t *n,
			  char *why, size_t len)
{
	const char *widest = NULL;
	double worst = 0;

	for (size_t i = 0; i < s->ntypes; i++) {
		struct summary sm;
		double pct;

		summarise(times + i * runs_of_type(s), n[i], &sm);
		pct = ci_half_width(&sm, 0.95) / sm.mean * 100;
		if (isnan(pct))
			pct = INFINITY;	/* fewer than 2 valid runs */
		if (!widest || pct > worst) {
			widest = s->types[i]->name;
			worst = pct;
		}
	}
	if (isinf(worst))
		snprintf(why, len, "%s has fewer than 2 valid runs", widest);
	else
		snprintf(why, len, "the widest 95%% confidence interval is %s's, mean Time "
			 "+/- %.2f%%", widest, worst);
	return worst <= s->cfg->precision;
}

/* -n auto after a round: whether to stop, said on stderr (but with --quiet). */
static int auto_stop(struct suite *s, uint64_t round, const double *times, const size_t *n)
{
	char why[256];
	int done;

	if (!s->cfg->auto_runs || round < AUTO_MIN_RUNS)
		return 0;
	done = precise_enough(s, times, n, why, sizeof(why));
	if (done)
		info("-n auto: stopped after %llu rounds: precision reached (%s; "
		     "--precision %g%%)", (unsigned long long)round, why, s->cfg->precision);
	else if (round == s->cfg->runs)
		info("-n auto: stopped at --max-runs %llu before the precision was reached "
		     "(%s; --precision %g%%)", (unsigned long long)round, why, s->cfg->precision);
	else
		info("-n auto: after round %llu %s, wider than --precision %g%%: one more round",
		     (unsigned long long)round, why, s->cfg->precision);
	return done;
}

/* One run of the configuration running now, checked before and after
 * when it can be (verify): a check that fails, or an observed value that
 * changed, makes it invalid with the reason; what was observed before it
 * in before.  harness_run's value. */
static int checked_run(struct suite *s, const struct runtype *rt, size_t i, struct run *run,
		       struct record *before)
{
	const struct suite_config_ops *ops = s->configs->ops;
	struct record after;
	char pre[1024], post[1024];
	int bad_pre, bad_post, rc;

	if (!ops->verify)
		return harness_run(&s->h, rt, s->ctx[i], run);
	record_init(&after, "observed");
	progress_phase("checking the configuration", NULL, 0);
	bad_pre = ops->verify(s->configs->c, s->cfg->work_dir, NULL, before, pre, sizeof(pre));
	rc = harness_run(&s->h, rt, s->ctx[i], run);
	if (!rc && !proc_interrupted()) {
		progress_phase("checking the configuration", NULL, 0);
		bad_post = ops->verify(s->configs->c, s->cfg->work_dir, before, &after, post,
				       sizeof(post));
		if ((bad_pre || bad_post) && run->valid) {
			run->valid = 0;
			free(run->reason);
			run->reason = xasprintf("configuration %s did not hold %s the run: %s",
						s->label, bad_pre ? "before" : "after",
						bad_pre ? pre : post);
		}
	}
	record_free(&after);
	return rc;
}

/* What mem_load pushed to swap (other programs' pages, shared memory) would
 * be read back during the next run and be part of it: drained before that
 * run where RAM can take it, and the next run's record says what was done. */
static void drain_swap(struct suite *s)
{
	s->drain_due = 0;
	progress_phase("draining the swap", NULL, 0);
	if (swap_drain(s->zram.id, s->drained, sizeof(s->drained)))
		msg("after mem_load, swap: %s", s->drained);
	else if (!streq(s->drained, "none"))
		info("after mem_load, swap: %s", s->drained);
}

/* Run type i of round: the build cacherun must follow when the last run
 * was none (*built), the timed run (checked around it when its
 * configuration can be), its line and its record.  *secs: its Time when
 * valid, else -1.  0, -1 when a stop signal interrupted it, -2 on an error. */
static int one_run(struct suite *s, size_t i, uint64_t round, int *built, size_t *step,
		   size_t steps, double *secs)
{
	const struct runtype *rt = s->types[i];
	struct run run = {
		.label = s->label, .type = (char *)rt->name,
		.session = s->session, .workload = s->wl.identity,
		.round = (int)round,
	};
	struct record obs;
	int64_t t0 = mono_ns();
	int rc, ret = 0;

	*secs = -1;
	progress_run(*step);
	if (s->drain_due)
		drain_swap(s);
	if (rt->cacherun && !*built) {
		progress_phase("the build before cacherun", NULL, 0);
		if (untimed_build(s, "the build before cacherun"))
			return proc_interrupted() ? -1 : -2;
	}
	record_init(&obs, "observed");
	rc = checked_run(s, rt, i, &run, &obs);
	*built = streq(rt->name, "noload") && run.valid;
	s->drain_due = streq(rt->name, "mem_load");
	if (rc) {
		ret = -1;
	} else {
		progress_ran((double)(mono_ns() - t0) / NS_PER_SEC,
			     (double)run.elapsed_ns / NS_PER_SEC);
		print_run_line(&run, ++*step, steps, s->cfg->runs, s->env.swap_free > 0);
		if (store_run(s, &run, &obs))
			ret = -2;
		s->drained[0] = '\0';
		if (run.valid)
			*secs = (double)run.elapsed_ns / NS_PER_SEC;
	}
	record_free(&obs);
	free(run.flush);
	free(run.reason);
	record_free(&run.params);
	free(run.probe);
	free(run.delays_absent);
	free(run.psi_scope);
	free(run.psi_absent);
	return ret;
}

/* The configuration run k-th in round: in a comparison's counterbalanced
 * order, from now on its label and loads; one to enter is entered, and
 * then cacherun follows a build of its own (*built).  0, -1 when a stop
 * signal interrupted it, -2 on an error. */
static int enter_config(struct suite *s, uint64_t round, size_t k, int *built)
{
	const struct suite_configs *cf = s->configs;
	size_t i = cf->comparison ? cf->comparison->at(cf->c, round, k) : k;
	char why[1024];

	use_config(s, i);
	if (!cf->ops->enter)
		return 0;
	*built = 0;
	info("round %llu: configuration %s", (unsigned long long)round, s->label);
	progress_phase("setting up the configuration", NULL, 0);
	if (cf->ops->enter(cf->c, i, why, sizeof(why))) {
		if (!proc_interrupted())
			msg("configuration %s: %s", s->label, why);
		return proc_interrupted() ? -1 : -2;
	}
	return 0;
}

/* Back from the configuration running now: 0, or -1 with the reason printed. */
static int leave_config(struct suite *s)
{
	const struct suite_configs *cf = s->configs;
	char why[1024];

	if (!cf->ops->leave)
		return 0;
	progress_phase("undoing the configuration", NULL, 0);
	if (cf->ops->leave(cf->c, why, sizeof(why))) {
		msg("configuration %s: %s", s->label, why);
		return -1;
	}
	return 0;
}

/* The rounds: in each, every configuration in turn, entered, its runs of
 * every type, left; with -n auto, rounds until the Times are precise
 * enough.  0, -1 when a stop signal interrupted them, -2 on an error. */
static int rounds(struct suite *s)
{
	size_t step = 0, steps = s->ntypes * runs_of_type(s);
	int built = 1;	/* the warm-up was a build */
	double *times = xcalloc(steps, sizeof(*times));	/* for -n auto */
	size_t n[ARRAY_SIZE(s->types)] = { 0 };
	int ret = 0;

	for (uint64_t round = 1; round <= s->cfg->runs && !ret; round++) {
		for (size_t k = 0; k < s->configs->n && !ret; k++) {
			if ((ret = enter_config(s, round, k, &built)))
				break;
			for (size_t i = 0; i < s->ntypes && !ret; i++) {
				double secs;

				ret = one_run(s, i, round, &built, &step, steps, &secs);
				if (secs >= 0)
					times[i * runs_of_type(s) + n[i]++] = secs;
				if (!ret && proc_interrupted())
					ret = -1;	/* a stop after the run ended: it is stored */
			}
			if (leave_config(s) && !ret)
				ret = -2;
		}
		if (!ret && auto_stop(s, round, times, n))
			break;
	}
	free(times);
	return ret;
}

static void print_summary(struct suite *s)
{
	struct store st;
	char why[2048];
	char *one[] = { s->label }, **labels = one;
	struct report_opts o = { .labels = labels, .nlabels = 1 };
	size_t n;
	const struct suite_comparison_ops *comparison = s->configs->comparison;
	char *path, *dir;

	if (store_read(s->cfg->results, &st, why, sizeof(why)) == 0) {
		/* a comparison: its own runs, tested against its first configuration */
		if (comparison && comparison->select(&st, s->session, &labels, &n, why,
						     sizeof(why)) == 0) {
			o.labels = labels;
			o.nlabels = n;
		}
		if (report_print(stdout, &st, &o, why, sizeof(why)))
			msg("%s", why);
		if (labels != one)
			free(labels);
		store_free(&st);
	}
	dir = fs_absolute(s->cfg->results);
	if (results_lost_at_boot(dir, why, sizeof(why)))
		msg("warning: %s", why);
	if (comparison) {
		info("%zu valid and %zu invalid runs of comparison %s added to %s, one file "
		     "per configuration; 'contest report -d %s --compare %s' shows them again",
		     s->kept, s->invalid, s->session, dir, dir, s->session);
	} else {
		path = store_path(dir, s->label);
		info("%zu valid and %zu invalid runs added to %s; after the reboot into the "
		     "next kernel, run contest with -d %s, then 'contest report -d %s' "
		     "compares them", s->kept, s->invalid, path, dir, dir);
		free(path);
	}
	free(dir);
}

/* --json-summary FILE: the session's runs for a job runner; the exit
 * status, which says whether runs were invalid. */
static int json_summary(const struct suite *s, int status)
{
	const char *types[ARRAY_SIZE(s->types)];
	struct run_outcome o = { s->label, s->session, s->cfg->results, types, s->ntypes,
				 status };

	for (size_t i = 0; i < s->ntypes; i++)
		types[i] = s->types[i]->name;
	return run_summary_write(s->cfg->json_summary, &o);
}

static int setup_suite(struct suite *s)
{
	char why[512];
	unsigned jobs = s->cfg->jobs ? (unsigned)s->cfg->jobs : 4 * env_ncpus();
	struct workload_config wc = workload_config_of(s->cfg);
	struct store st;
	int dry = s->cfg->dry_run, have_store;
	const struct suite_configs *cf = s->configs;
	int64_t t0;
	double warmup;

	if (make_swap(s))
		return -1;
	if (cf->comparison && !dry)
		cf->comparison->log_to(cf->c, xasprintf("%s/compare.log", s->run_dir));
	if (workload_init(&s->wl, &wc, s->run_dir, jobs, why, sizeof(why))) {
		msg("%s", why);
		return -1;
	}
	s->flush_dirs[1] = s->wl.user_tree ? s->wl.tree : NULL;
	have_store = store_read(s->cfg->results, &st, why, sizeof(why)) == 0;
	if (have_store && check_sync_mix(s, &st)) {
		store_free(&st);
		return -1;
	}
	if (cf->comparison)
		add_own_noload(s);
	else
		add_noload_if_missing(s, have_store ? &st : NULL);
	progress_plan(s->types, s->ntypes, runs_of_type(s), s->cfg->auto_runs,
		      (double)s->h.lead_ns / NS_PER_SEC);
	if (have_store) {
		progress_guess(&st, s->wl.identity, s->h.load_session);
		s->one_noload = !cf->comparison &&
				report_last_one_noload(&st, s->label, s->wl.identity);
		store_free(&st);
	}
	if (preflight_loads(s))
		return -1;
	if (dry) {
		print_plan(s, stdout);
		return 0;
	}
	if (!s->cfg->quiet)
		print_plan(s, stderr);
	progress_phase("creating the workload", NULL, 0);
	if (workload_setup(&s->wl, why, sizeof(why))) {
		msg("cannot create the workload: %s", why);
		return -1;
	}
	if (check_disk_together(s))	/* the built-in tree exists only now */
		return -1;
	progress_phase("preparing the loads", NULL, 0);
	if (proc_interrupted() || prepare_loads(s) || proc_interrupted())
		return -1;
	info("warm-up build (untimed)");
	progress_phase("warm-up build", NULL, 0);
	t0 = mono_ns();
	if (untimed_build(s, "the warm-up build"))
		return -1;
	warmup = (double)(mono_ns() - t0) / NS_PER_SEC;
	progress_warmup(warmup);
	format_duration(progress_left(), why, sizeof(why));
	info("warm-up build took %.1f s: the timed runs should take %s %s", warmup,
	     s->cfg->auto_runs ? "at most about" : "about", why);
	return write_env(s);
}

/* Why the suite stopped early, and what of it is stored. */
static void say_kept(struct suite *s)
{
	char *path = s->configs->comparison ? xstrdup(s->cfg->results) :
		     store_path(s->cfg->results, s->label);
	size_t n = s->kept + s->invalid;
	char why[32];

	if (proc_interrupted())
		snprintf(why, sizeof(why), "interrupted by SIG%s", sigabbrev_np(proc_interrupted()));
	else
		snprintf(why, sizeof(why), "stopped");
	msg("%s: %zu run%s kept in %s", why, n, n == 1 ? "" : "s", path);
	free(path);
}

/* A suite and `contest load` begin alike: s empty but for cfg and the
 * harness settings they share, */
void suite_init(struct suite *s, struct config *cfg)
{
	memset(s, 0, sizeof(*s));
	s->cfg = cfg;
	s->work_lock = s->results_lock = s->compare_lock = -1;
	s->zram.id = -1;
	s->h.grace_ns = 2 * NS_PER_SEC;
	s->h.ready_timeout_ns = 600 * NS_PER_SEC;
	s->h.load_nice = (int)cfg->load_nice;
	s->h.load_session = cfg->load_session;
}

/* then the swap planned, the signals caught and the guardian started (not
 * for a dry run): 0, or an exit status, with the reason printed, */
int suite_start(struct suite *s, int claim_results)
{
	int rc = plan_swap(s);

	if (rc)
		return rc;
	proc_catch_signals();
	/* the directories locked and the scratch made before the guardian:
	 * see claim_dirs() */
	if (claim_results ? claim_dirs(s) : make_run_dir(s)) {
		remove_run_dir(s);
		free(s->run_dir);
		s->run_dir = NULL;
		return -1;
	}
	if (!s->cfg->dry_run && proc_guard_start()) {
		msg("cannot start the guardian process: %s", strerror(errno));
		remove_run_dir(s);
		free(s->run_dir);
		s->run_dir = NULL;
		return EXIT_FAILED;
	}
	if (!s->cfg->dry_run)
		delays_suite_begin();
	return 0;
}

/* and end alike: the loads finished, the swap, the run directory (locks
 * included) and the guardian gone.  1 when the swap could not be removed. */
int suite_finish(struct suite *s)
{
	int bad;

	finish_loads(s);
	bad = remove_swap(s) != 0;
	delays_suite_end();
	proc_guard_stop();	/* its kills and undo before the locks go */
	if (!s->cfg->dry_run)
		remove_run_dir(s);
	workload_free(&s->wl);
	free(s->run_dir);
	s->run_dir = NULL;
	return bad;
}

int suite_over(struct config *cfg, const struct suite_configs *configs)
{
	static struct suite s;
	const struct suite_comparison_ops *comparison = configs->comparison;
	enum progress_mode mode;
	int rc, status = EXIT_OK;

	suite_init(&s, cfg);
	s.configs = configs;
	if ((rc = pick_label(&s)) || (rc = pick_types(&s)))
		return rc;
	if ((rc = suite_start(&s, 1)) == -1)
		return cfg->json_summary && !cfg->dry_run ? json_summary(&s, EXIT_FAILED) :
		       EXIT_FAILED;
	if (rc)
		return rc;
	mode = progress_mode(cfg->quiet);
	if (cfg->dry_run || (cfg->no_progress && mode == PROGRESS_LIVE))
		mode = PROGRESS_PLAIN;
	progress_start(mode);
	snprintf(s.session, sizeof(s.session), "%lld-%d",
		 (long long)(real_ns() / NS_PER_SEC), (int)getpid());
	if (comparison) {	/* the comparison's id: its session, in every record */
		comparison->name(configs->c, s.session);
		if (!cfg->dry_run)
			comparison->start(configs->c);
	}
	s.h.wl = &s.wl;
	s.h.lead_ns = (int64_t)((cfg->lead_time >= 0 ? cfg->lead_time : cfg->quick ? 1 : 3) *
				NS_PER_SEC);
	if (cfg->probe && !cfg->dry_run)
		s.h.probe_cal = probe_calibrate();	/* once, before anything runs */
	s.h.probe_profile = cfg->probe;
	s.flush_dirs[0] = cfg->work_dir;
	s.h.flush_dirs = s.flush_dirs;
	s.h.phase = progress_phase;

	if (setup_suite(&s))
		status = EXIT_FAILED;
	else if (!cfg->dry_run && (rc = rounds(&s)) == -2)
		status = EXIT_FAILED;
	if (comparison && comparison->end(configs->c))
		status = EXIT_FAILED;
	progress_end();
	if (suite_finish(&s))
		status = EXIT_FAILED;
	if (rc == -2 || proc_interrupted())
		say_kept(&s);
	if (proc_interrupted())
		status = EXIT_SIGNAL + proc_interrupted();
	else if (!status && !cfg->dry_run)
		print_summary(&s);
	if (cfg->json_summary && !cfg->dry_run)
		status = json_summary(&s, status);
	return status;
}

int suite_main(struct config *cfg)
{
	/* the machine as it is: nothing to enter, check or describe */
	static const struct suite_config_ops as_it_is = { .config = NULL };
	const struct suite_configs one = { .n = 1, .ops = &as_it_is };

	return suite_over(cfg, &one);
}
