/* SPDX-License-Identifier: GPL-2.0-or-later */
/* measure.c - one boot of a campaign measured: the system settled, then
 * the suite (run/suite.h) over one configuration, the kernel booted, with
 * compare's ops and the campaign's fields in every record. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/campaign-internal.h"
#include "campaign/root.h"
#include "run/compare.h"
#include "run/env.h"
#include "run/suite.h"
#include "results/record.h"
#include "lib/exitcode.h"
#include "lib/proc.h"
#include "lib/util.h"

static struct ctx *current;	/* for the suite's ops */

/* ---- the suite, for one boot -------------------------------------------------- */

static void hook_config(const struct comparison *cmp, size_t i, struct suite_config *k)
{
	k->label = cmp->cfgs[i].label;
	k->has_nice = 0;
	k->load_nice = 0;
	k->load_session = -1;
}

static void hook_name(struct comparison *cmp, const char *id)
{
	snprintf(cmp->id, sizeof(cmp->id), "%s", id);
	snprintf(current->session, sizeof(current->session), "%s", id);
}

static void hook_log(struct comparison *cmp, char *path)
{
	free(cmp->log);
	cmp->log = path;
}

static void hook_describe(const struct comparison *cmp, size_t i, const struct record *obs,
			  struct record *r)
{
	const struct arm *a = &current->p.arms[current->p.boot[current->seq - 1].arm];

	compare_describe(cmp, i, obs, r);
	record_set(r, "campaign", current->p.id);
	record_setf(r, "boot", "%" PRIu64, current->seq);
	if (!obs) {
		record_set(r, "campaign_kernel", a->spec);
		record_set(r, "campaign_method", current->p.method);
	}
}

static void hook_plan(const struct comparison *cmp, uint64_t rounds, FILE *f)
{
	(void)cmp;
	fprintf(f, "    campaign %s: boot %" PRIu64 " of %zu, %s, %" PRIu64 " rounds\n",
		current->p.id, current->seq, current->p.nboots,
		current->p.arms[current->p.boot[current->seq - 1].arm].label, rounds);
}

int boot_config(struct ctx *c, campaign_parse_fn parse, struct config *cfg)
{
	int argc = (int)c->p.nargs + 2, rc;
	char **argv = xcalloc((size_t)argc + 1, sizeof(*argv));

	argv[0] = (char *)"contest";
	argv[1] = (char *)"campaign";
	for (size_t i = 0; i < c->p.nargs; i++)
		argv[i + 2] = c->p.args[i];
	/* in the plan's directory first: its options name paths from there */
	if (chdir(c->p.cwd)) {
		msg("campaign %s: cannot enter %s: %s", c->p.id, c->p.cwd, strerror(errno));
		return EXIT_FAILED;
	}
	rc = parse(argc, argv, cfg);	/* argv lives as long as the plan: not freed */
	if (rc) {
		msg("campaign %s: its plan's options no longer parse", c->p.id);
		return rc < 0 ? EXIT_FAILED : rc;
	}
	cfg->runs = c->p.runs_per_boot;
	cfg->args++;	/* "plan" */
	cfg->nargs--;
	cfg->no_progress = 1;
	return 0;
}

/* Wait until the system is up and quiet: systemd's jobs done, --settle
 * seconds, then a load average under 0.1 a CPU (10 minutes at most); with
 * --settle 0 (a test, a guest under emulation) no wait at all. */
static void settle(const struct ctx *c)
{
	char la[128];
	double load = -1, limit = 0.1 * env_ncpus();
	int64_t end;

	if (!root_is_test() && systemd_here()) {
		char *argv[] = { (char *)"systemctl", (char *)"is-system-running", (char *)"--wait",
				 NULL };
		char out[128];

		proc_first_line(argv, out, sizeof(out));
		info("the system is %s", out[0] ? out : "up");
	}
	if (!(c->p.settle > 0)) {
		info("settled: --settle 0, no wait");
		return;
	}
	proc_pause((int64_t)(c->p.settle * NS_PER_SEC));
	end = mono_ns() + 600 * NS_PER_SEC;
	for (;;) {
		read_rooted("/proc/loadavg", la, sizeof(la));
		load = la[0] ? strtod(la, NULL) : -1;
		if (load < limit || mono_ns() > end || proc_interrupted())
			break;
		proc_pause(5 * NS_PER_SEC);
	}
	info("settled: %g s, then the load average %s %.2f (under %.2f wanted)", c->p.settle,
	     load < 0 ? "unknown," : "at", load < 0 ? 0 : load, limit);
}

/* Measure boot seq: the suite, one configuration, R rounds.  0 and the
 * session, else the exit status (128+N: a signal; the step is done again). */
int measure(struct ctx *c, campaign_parse_fn parse, uint64_t seq)
{
	struct config cfg;
	struct cmp_config *k;
	int rc = boot_config(c, parse, &cfg);

	if (rc)
		return rc;
	settle(c);
	if (proc_interrupted())
		return EXIT_SIGNAL + proc_interrupted();
	compare_free(&c->cmp);
	k = c->cmp.cfgs = xcalloc(1, sizeof(*k));
	c->cmp.n = 1;
	k->label = xstrdup(c->p.arms[c->p.boot[seq - 1].arm].label);
	k->where = xstrdup("campaign");
	k->load_session = -1;
	c->cmp.active = -1;
	compare_plan_order(&c->cmp, 0);
	c->seq = seq;
	c->session[0] = '\0';
	current = c;
	{
		static const struct suite_config_ops ops = {
			.config = hook_config, .enter = compare_enter, .leave = compare_leave,
			.verify = compare_verify, .describe = hook_describe,
		};
		static const struct suite_comparison_ops comparison = {
			.name = hook_name, .log_to = hook_log, .machine_wide = compare_machine_wide,
			.start = compare_start, .at = compare_at, .end = compare_end,
			.print_plan = hook_plan, .select = compare_select,
		};
		struct suite_configs configs = {
			.c = &c->cmp, .n = 1, .ops = &ops, .comparison = &comparison,
		};

		rc = suite_over(&cfg, &configs);
	}
	free(cfg.args - 1);
	free(cfg.results_dirs);
	free(cfg.kernels);
	return rc;
}

