/* SPDX-License-Identifier: GPL-2.0-or-later */
/* main.c - contest: the command table and the small commands. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "campaign/campaign.h"
#include "run/compare.h"
#include "run/env.h"
#include "run/suite.h"
#include "run/taskstats.h"
#include "report/plot.h"
#include "report/report.h"
#include "loads/registry.h"
#include "loads/runtype.h"
#include "results/store.h"
#include "lib/exitcode.h"
#include "lib/util.h"

static int cmd_run(struct config *cfg)
{
	return suite_main(cfg);
}

static struct report_opts report_opts_of(const struct config *cfg)
{
	struct report_opts o = {
		.baseline = cfg->baseline, .pool_noload = cfg->pool_noload,
		.labels = cfg->args, .nlabels = (size_t)cfg->nargs,
		.stats = cfg->stats, .columns = cfg->columns, .wide = cfg->wide,
		.alpha = cfg->alpha,
		.latency = cfg->latency, .no_latency = cfg->no_latency, .delays = cfg->delays,
		.header = cfg->header,
		.types = cfg->types,
		.dirs = cfg->nresults_dirs ? cfg->results_dirs : (char *const *)&cfg->results,
		.ndirs = cfg->nresults_dirs ? (size_t)cfg->nresults_dirs : 1,
	};

	if (cfg->format)
		report_format_parse(cfg->format, &o.format);
	return o;
}

/* The results directories read whole, each record once: returns EXIT_OK,
 * or EXIT_FAILED with the reason printed. */
static int read_results(const struct config *cfg, struct store *st)
{
	char *const one[] = { (char *)cfg->results };
	char why[512];

	if (store_read_dirs(cfg->nresults_dirs ? cfg->results_dirs : one,
			    cfg->nresults_dirs ? (size_t)cfg->nresults_dirs : 1, st, why,
			    sizeof(why))) {
		msg("%s", why);
		return EXIT_FAILED;
	}
	if (st->duplicates)
		msg("%zu record%s found again in another results file, read once",
		    st->duplicates, st->duplicates == 1 ? "" : "s");
	return EXIT_OK;
}

/* The results directory read whole, or with --compare ID that sitting
 * alone, its configurations as the labels, in their order (*labels, freed
 * by the caller).  Returns EXIT_OK, else the exit status with the reason
 * printed. */
static int read_selected(const struct config *cfg, struct store *st, struct report_opts *o,
			 char ***labels)
{
	char why[512];
	size_t n;

	*labels = NULL;
	if (read_results(cfg, st))
		return EXIT_FAILED;
	if (!cfg->compare_id)
		return EXIT_OK;
	if (cfg->nargs) {
		store_free(st);
		return usage_error("--compare ID shows the labels of that comparison: name no "
				   "labels with it");
	}
	if (compare_select(st, cfg->compare_id, labels, &n, why, sizeof(why))) {
		msg("%s", why);
		store_free(st);
		return EXIT_FAILED;
	}
	o->labels = *labels;
	o->nlabels = n;
	return EXIT_OK;
}

static int cmd_report(struct config *cfg)
{
	struct report_opts o = report_opts_of(cfg);
	struct store st;
	char why[512], **labels;
	int ret;

	if (cfg->campaign_id) {
		if (cfg->nargs || cfg->compare_id)
			return usage_error("--campaign ID shows that campaign's kernels: name no "
					   "labels nor --compare with it");
		return campaign_report(cfg->campaign_id);
	}
	ret = read_selected(cfg, &st, &o, &labels);

	if (ret)
		return ret;
	ret = report_print(stdout, &st, &o, why, sizeof(why));
	if (ret) {
		msg("%s", why);
		/* -2: the command line names what is not there */
		ret = ret == -2 ? EXIT_USAGE : EXIT_FAILED;
	}
	free(labels);
	store_free(&st);
	return ret;
}

/* The chart of what report would print: the same rows, cells and tests. */
static int cmd_plot(struct config *cfg)
{
	struct report_opts o = report_opts_of(cfg);
	struct report r;
	struct store st;
	char why[512], **labels;
	int ret = read_selected(cfg, &st, &o, &labels);

	if (ret)
		return ret;
	if ((ret = report_build(&st, &o, &r, why, sizeof(why))) == 0) {
		struct latency l;

		if (!o.latency)
			ret = plot_write(cfg->output, &r, NULL, why, sizeof(why));
		else if ((ret = latency_build(&r, &l, why, sizeof(why))) == 0) {
			ret = plot_write(cfg->output, &r, &l, why, sizeof(why));
			latency_free(&l);
		}
		report_free(&r);
	}
	if (ret) {
		msg("%s", why);
		ret = ret == -2 ? EXIT_USAGE : EXIT_FAILED;
	}
	free(labels);
	store_free(&st);
	return ret;
}

/* contest merge SRC... DEST: every record of the SRCs into DEST, each
 * once.  1 when a record was damaged (the others are copied) or a step
 * failed. */
static int cmd_merge(struct config *cfg)
{
	struct store_merge m;
	const char *dest;
	char why[512];
	int ret;

	if (cfg->nargs < 2)
		return usage_error("merge wants one or more results directories and the one to "
				   "merge them into: contest merge SRC... DEST");
	dest = cfg->args[cfg->nargs - 1];
	ret = store_merge(cfg->args, (size_t)cfg->nargs - 1, dest, &m, why, sizeof(why));
	if (ret)
		msg("%s", why);
	info("%s: %zu record%s copied from %zu file%s, %zu there already%s", dest, m.copied,
	     m.copied == 1 ? "" : "s", m.files, m.files == 1 ? "" : "s", m.present,
	     ret ? " (stopped)" : "");
	if (m.damaged)
		msg("%zu damaged record%s not copied (see above)", m.damaged,
		    m.damaged == 1 ? "" : "s");
	return ret || m.damaged ? EXIT_FAILED : EXIT_OK;
}

/* contest relabel [-d DIR] [--merge] OLD NEW: OLD's records under NEW,
 * NEW checked as -k checks a label.  2 when the command line asks for
 * what cannot be (a bad NEW, OLD not in DIR, NEW there without --merge). */
static int cmd_relabel(struct config *cfg)
{
	struct store_relabel m;
	char why[PATH_MAX + 256];
	int ret;

	if (cfg->nargs != 2)
		return usage_error("relabel wants the label to change and its new name: contest "
				   "relabel [-d DIR] OLD NEW");
	if (cfg->nresults_dirs > 1)
		return usage_error("relabel changes one results directory: give -d once");
	if (store_check_label(cfg->args[1], why, sizeof(why)))
		return usage_error("bad label '%s': %s", cfg->args[1], why);
	if (!*cfg->args[0])
		return usage_error("relabel wants the label to change, not ''");
	ret = store_relabel(cfg->results, cfg->args[0], cfg->args[1], cfg->merge, &m, why,
			    sizeof(why));
	if (ret) {
		msg("%s", why);
		return ret == -2 ? EXIT_USAGE : EXIT_FAILED;
	}
	if (m.finished)
		info("%s: '%s' held every record of '%s' already (a relabel cut short): '%s' "
		     "removed", cfg->results, cfg->args[1], cfg->args[0], cfg->args[0]);
	else
		info("%s: %zu record%s of '%s' now under '%s'%s", cfg->results, m.relabeled,
		     m.relabeled == 1 ? "" : "s", cfg->args[0], cfg->args[1],
		     m.present ? " (the others were there already)" : "");
	if (m.others)
		info("%zu record%s of other labels in the file of '%s' moved with them, their "
		     "labels kept", m.others, m.others == 1 ? "" : "s", cfg->args[0]);
	if (m.damaged)
		msg("%zu damaged line%s moved with them as they were (see above)", m.damaged,
		    m.damaged == 1 ? "" : "s");
	return EXIT_OK;
}

static int cmd_load(struct config *cfg)
{
	return load_main(cfg);
}

/* What a load would use here: its resolved size, or why it cannot run. */
static void describe_load(const struct load_env *e, const struct load_ops *ops,
			  char *buf, size_t len)
{
	struct load_ctx *c = suite_load_ctx(e, ops, e->work_dir, buf, len);

	if (!c)
		return;
	if (ops->describe) {
		ops->describe(c, buf, len);
	} else if (c->size) {
		char size[32];

		format_size(c->size, size, sizeof(size));
		snprintf(buf, len, "size %s", size);
	} else {
		buf[0] = '\0';
	}
	suite_load_ctx_free(c);
}

/* Where list_load's listing starts: its --root, else /. */
static const char *list_root_of(const struct config *cfg)
{
	const union load_value *root = load_value_of(cfg->load_values, "root");

	return root && root->text ? root->text : "/";
}

/* The run types shown to users, the columns as wide as their longest
 * cell; a size that takes a walk of a file system only with --count. */
static int cmd_list(struct config *cfg)
{
	struct load_env e;
	int w = (int)strlen("Run type"), u = (int)strlen("One unit of Loads");

	if (cfg->nargs)
		return usage_error("list takes no arguments");
	suite_load_env(cfg, cfg->work_dir, &e);
	for (size_t i = 0; i < runtype_count(); i++) {
		const struct runtype *rt = runtype_at(i);

		if (runtype_listed(rt) && (int)strlen(rt->name) > w)
			w = (int)strlen(rt->name);
		if (runtype_listed(rt) && (int)strlen(rt->unit) > u)
			u = (int)strlen(rt->unit);
	}
	printf("%-*s %-*s %s\n", w, "Run type", u, "One unit of Loads",
	       "What runs beside the workload");
	for (size_t i = 0; i < runtype_count(); i++) {
		const struct runtype *rt = runtype_at(i);
		char here[512] = "";

		if (!runtype_listed(rt))
			continue;
		printf("%-*s %-*s %s%s\n", w, rt->name, u, rt->unit, rt->summary,
		       runtype_default(rt) ? "" : " (not in the default suite)");
		if (rt->load && (cfg->count || !(rt->load->flags & LOAD_SLOW_CHECK)))
			describe_load(&e, rt->load, here, sizeof(here));
		else if (rt->load)
			snprintf(here, sizeof(here), "size not counted: walks %s (--count)",
				 list_root_of(cfg));
		if (here[0])
			printf("%-*s %-*s here: %s\n", w, "", u, "", here);
	}
	printf("\nWorkloads (-w):\n"
	       "  builtin      a generated C source tree, built with make -j(4 x CPUs)\n"
	       "  kernel:DIR   the Linux tree DIR, configured once (--kconfig, default\n"
	       "               tinyconfig), built out of tree: make -j(4 x CPUs) vmlinux\n"
	       "  cmd:DIR      --build-cmd CMD timed, --clean-cmd CMD before it, by\n"
	       "               /bin/sh -c in DIR\n");
	return EXIT_OK;
}

/* What a run here would record about the machine, one "key: value" a line. */
static int cmd_env(struct config *cfg)
{
	struct record r;
	int w = 0;

	if (cfg->nargs)
		return usage_error("env takes no arguments");
	record_init(&r, "env");
	env_capture(&r, 0, NULL, cfg->work_dir);
	for (size_t i = 0; i < r.n; i++)
		if ((int)strlen(r.kv[i].key) > w)
			w = (int)strlen(r.kv[i].key);
	for (size_t i = 0; i < r.n; i++) {
		if (!strcmp(r.kv[i].key, "argv"))
			continue;
		printf("%s:%*s %s\n", r.kv[i].key, w - (int)strlen(r.kv[i].key), "",
		       r.kv[i].val);
	}
	record_free(&r);
	return EXIT_OK;
}

static int reparse(int argc, char **argv, struct config *cfg);

/* contest campaign: its plan's options parsed again at every boot. */
static int cmd_campaign(struct config *cfg)
{
	return campaign_main(cfg, reparse);
}

static const struct command commands[] = {
	{ "run", CMD_RUN, cmd_run, "[options] [RUNTYPE...]",
	  "run the benchmark (the default command)" },
	{ "compare", CMD_COMPARE, compare_main,
	  "--configs FILE|--vary KEY=V1,V2 [run options] [RUNTYPE...]",
	  "run the suite in every configuration, interleaved round by round" },
	{ "campaign", CMD_CAMPAIGN, cmd_campaign,
	  "plan --kernel L=SPEC --kernel L=SPEC... [options] [RUNTYPE...]|start ID|resume|"
	  "status [ID]|abort ID",
	  "compare kernels across reboots, unattended: boots interleaved, verified, resumed" },
	{ "report", CMD_REPORT, cmd_report, "[options] [LABEL...]",
	  "print the stored results as contest tables" },
	{ "plot", CMD_PLOT, cmd_plot, "[-o FILE.svg] [options] [LABEL...]",
	  "chart the Ratio of every run type as an SVG, with 95% intervals" },
	{ "merge", CMD_MERGE, cmd_merge, "SRC... DEST",
	  "copy the records of results directories into DEST, each once, checked" },
	{ "relabel", CMD_RELABEL, cmd_relabel, "[-d DIR] [--merge] OLD NEW",
	  "rename a label: its records rewritten under NEW, with their checksums" },
	{ "load", CMD_LOAD, cmd_load, "NAME [-t SECONDS] [options]",
	  "run one load alone, with no workload; print its rate and CPU%" },
	{ "list", CMD_LIST, cmd_list, "[--count] [load options]",
	  "list run types, their Loads units, sizes here, and workloads" },
	{ "env", CMD_ENV, cmd_env, "[--work-dir DIR]",
	  "print the environment a run here would record" },
	{ NULL, 0, NULL, NULL, NULL },
};

static int reparse(int argc, char **argv, struct config *cfg)
{
	return cli_parse(argc, argv, commands, cfg);
}

/* Flush and close stdout, as coreutils' close_stdout() does: a write that
 * failed at any time (a full disk, a closed pipe, an error of close()) is
 * a failure of the command.  Returns 0, or -1 with the reason printed. */
static int close_stdout(void)
{
	int failed = ferror(stdout);

	errno = 0;
	if (fclose(stdout))
		failed = 1;
	else if (failed)
		errno = 0;	/* an earlier write failed, its errno long gone */
	if (!failed)
		return 0;
	if (errno)
		msg("error writing output: %s", strerror(errno));
	else
		msg("error writing output");
	return -1;
}

int main(int argc, char **argv)
{
	struct config cfg;
	char why[256];
	int rc;

	if (cli_check(why, sizeof(why))) {
		msg("internal error: %s", why);
		return EXIT_FAILED;
	}
	rc = cli_parse(argc, argv, commands, &cfg);
	if (rc == -1)
		rc = EXIT_OK;
	else if (rc == 0) {
		if (cfg.no_delays)
			delays_off("not collected (--no-delays)");
		for (const struct command *c = commands; c->name; c++)
			if (c->id == cfg.cmd)
				rc = c->fn(&cfg);
	}
	free(cfg.args);
	free(cfg.results_dirs);
	free(cfg.kernels);
	if (close_stdout())
		return EXIT_FAILED;
	return rc;
}
