/* SPDX-License-Identifier: GPL-2.0-or-later */
/* suite-plan.c - the suite's plan: what is about to run, where, and for how
 * long, said before any work (the output of --dry-run). */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/probe.h"
#include "run/progress.h"
#include "run/suite-internal.h"
#include "run/suite.h"
#include "results/store.h"
#include "lib/flush.h"
#include "lib/fsutil.h"
#include "lib/swap.h"
#include "lib/tmpfiles.h"
#include "lib/util.h"

/* A results directory that the next boot empties, or whose files age out,
 * does not keep this kernel's results for the next: 1 and why in buf,
 * else 0.  The test build reads the tmpfiles.d rules under $CONTEST_ROOT. */
int results_lost_at_boot(const char *dir, char *buf, size_t len)
{
	const char *root = NULL;
	char why[1024];

#ifdef CONTEST_TEST_HOOKS
	root = getenv("CONTEST_ROOT");
#endif
	if (!dir_lost_at_boot(dir, root, why, sizeof(why)))
		return 0;
	snprintf(buf, len, "the results directory %s may not survive the reboot into the "
		 "next kernel: %s; give -d a directory that lasts (/var/lib/contest, your "
		 "home directory, or /var/tmp where no rule cleans it), or copy the results "
		 "there (contest merge) before rebooting", dir, why);
	return 1;
}

/* What --load-session does here: with autogroup off, only the session. */
static void print_load_session(FILE *f)
{
	const char *how = "autogroup unknown here";
	char ag[16];

	if (read_small("/proc/sys/kernel/sched_autogroup_enabled", ag, sizeof(ag)) == 0)
		how = streq(ag, "0") ? "autogroup off: scheduled as without it" :
		      "autogroup on: a scheduling group of their own";
	fprintf(f, "    loads in a session of their own (%s)\n", how);
}

/* The --swap zram device: made, or with --dry-run to be made. */
void print_swap(const struct suite *s, FILE *f, const char *indent)
{
	char size[32], limit[32], name[32] = "a new zram device";

	format_size(s->zram.disksize, size, sizeof(size));
	format_size(s->zram.mem_limit, limit, sizeof(limit));
	if (s->zram.id >= 0)
		snprintf(name, sizeof(name), "zram%d", s->zram.id);
	fprintf(f, "%sswap: %s, %s of pages in at most %s of RAM (mem_limit), priority "
		"%d: %s for this suite and removed at the end\n", indent, name, size, limit,
		SWAP_PRIORITY, s->zram.id >= 0 ? "made" : "to be made");
}

/* The note on a suite whose Ratios rest on one noload: who ("LABEL's last
 * suite had") and the rest of the note. */
static void print_one_noload(FILE *f, const char *who)
{
	fprintf(f, "    note: %s one noload, on which all its Ratios rest: they move with "
		"the machine as that one run found it; -n 3 or more gives a disturbed "
		"noload away\n", who);
}

/* What is about to run: label, rounds, run types, workload, every load's
 * size, scratch, flush, results and the time it should take.  On stdout
 * for --dry-run, where it is the output; else on stderr. */
void print_plan(struct suite *s, FILE *f)
{
	const char *flush = flush_method();
	const char *prefix = f == stderr ? "contest: " : "";
	char *dir = fs_absolute(s->cfg->results), *path = store_path(dir, s->label);
	char size[32] = "?", why[2048];
	uint64_t avail;
	double left = progress_left();
	const struct suite_comparison_ops *comparison = s->configs->comparison;
	int one_round;

	msg_prepare();
	if (comparison)
		fprintf(f, "%scomparison: %llu round%s of %zu configurations x %zu run type%s, "
			"%llu timed runs\n", prefix, (unsigned long long)s->cfg->runs,
			s->cfg->runs == 1 ? "" : "s", s->configs->n, s->ntypes,
			s->ntypes == 1 ? "" : "s",
			(unsigned long long)(s->cfg->runs * s->ntypes * s->configs->n));
	else if (s->cfg->auto_runs)
		fprintf(f, "%s%s: -n auto, %d to %llu rounds (until every mean Time is known "
			"to %g%%) of %zu run type%s, up to %llu timed runs\n", prefix, s->label,
			AUTO_MIN_RUNS, (unsigned long long)s->cfg->runs, s->cfg->precision,
			s->ntypes, s->ntypes == 1 ? "" : "s",
			(unsigned long long)(s->cfg->runs * s->ntypes));
	else
		fprintf(f, "%s%s: %llu round%s of %zu run type%s, %llu timed runs\n", prefix,
			s->label, (unsigned long long)s->cfg->runs, s->cfg->runs == 1 ? "" : "s",
			s->ntypes, s->ntypes == 1 ? "" : "s",
			(unsigned long long)(s->cfg->runs * s->ntypes));
	for (size_t i = 0; i < s->ntypes; i++)
		fprintf(f, "%s%s", i ? ", " : "    run types: ", s->types[i]->name);
	if (comparison && s->added_noload)
		fprintf(f, " (noload added: each configuration's Ratio divides by its own "
			"noload of the same round)");
	else if (s->added_noload == 1)
		fprintf(f, " (noload added: %s has no noload of this workload yet, and "
			"the Ratio divides by it)", s->label);
	else if (s->added_noload)
		fprintf(f, " (noload added: the Ratio divides by the noload of the same "
			"session)");
	fprintf(f, "\n    workload: %s\n", s->wl.identity);
	if (fs_free_bytes(s->cfg->work_dir, &avail) == 0)
		format_size(avail, size, sizeof(size));
	/* the run's own directory goes; the work directory only if made for it */
	fprintf(f, "    scratch: %s (%s free), removed at the end", s->run_dir ? s->run_dir :
		s->cfg->work_dir, size);
	if (s->made_work_dir || (s->cfg->dry_run && access(s->cfg->work_dir, F_OK)))
		fprintf(f, " (%s too, made for it, if left empty)", s->cfg->work_dir);
	fputc('\n', f);
	if (streq(flush, "drop_caches"))
		fprintf(f, "    flush: drop_caches before every run but cacherun (root)\n");
	else
		fprintf(f, "    flush: posix_fadvise DONTNEED over the work directory%s before "
			"every run but cacherun (not root: drop_caches is not writable)\n"
			"    flush is partial: only those files leave the page cache, the "
			"rest of it stays\n", s->wl.user_tree ? " and the tree" : "");
	if (comparison)
		fprintf(f, "    results: %s, a file per configuration\n", dir);
	else
		fprintf(f, "    results: %s\n"
			"    next kernel: after the reboot, run contest with -d %s, so that its "
			"rows join these\n", path, dir);
	if (results_lost_at_boot(dir, why, sizeof(why)))
		fprintf(f, "%swarning: %s\n", prefix, why);
	if (comparison)
		comparison->print_plan(s->configs->c, s->cfg->runs, f);
	free(path);
	free(dir);
	if (s->cfg->swap_zram)
		print_swap(s, f, "    ");
	for (size_t i = 0; i < s->ntypes; i++) {
		struct load_ctx *c = s->ctx[i];
		char what[512] = "";

		if (!c)
			continue;
		if (c->ops->describe)
			c->ops->describe(c, what, sizeof(what));
		else if (c->size)
			format_size(c->size, what, sizeof(what));
		if (what[0])
			fprintf(f, "    %s: %s\n", c->ops->name, what);
	}
	if (s->h.load_nice)
		fprintf(f, "    loads at nice %d\n", s->h.load_nice);
	if (s->h.load_session)
		print_load_session(f);
	if (s->cfg->probe)
		fprintf(f, "    latency probe: %s (audio, video and input) beside every timed build\n",
			probe_profiles[s->cfg->probe].name);
	else
		fprintf(f, "    latency probe: none (--no-probe)\n");
	if (s->cfg->no_delays)
		fprintf(f, "    delays: none (--no-delays): kernel.task_delayacct untouched, "
			"no cgroup for the build\n");
	/* a campaign tests across boots, a boot's rounds averaged first */
	one_round = s->cfg->runs == 1 && !s->cfg->auto_runs && s->cfg->cmd != CMD_CAMPAIGN;
	if (one_round || (s->one_noload && s->cfg->runs < 3)) {
		char who[192];

		if (one_round)
			snprintf(who, sizeof(who), "one round: this suite alone cannot test a "
				 "difference (a test takes 2 valid runs on a side), and %s has",
				 comparison ? "each configuration" : "it");
		else
			snprintf(who, sizeof(who), "%s's last suite had", s->label);
		print_one_noload(f, who);
	}
	if (left >= 0) {
		format_duration(left, size, sizeof(size));
		fprintf(f, "    estimate: %s %s, from earlier runs of this workload\n",
			s->cfg->auto_runs ? "at most about" : "about", size);
	} else {
		fprintf(f, "    estimate: once the warm-up build is timed\n");
	}
}
