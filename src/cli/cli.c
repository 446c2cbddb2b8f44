/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli.c - the command line: commands, options declared once, parsing, help. */
#include "config.h"

#include <getopt.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "campaign/campaign.h"
#include "run/suite.h"
#include "report/report.h"
#include "loads/registry.h"
#include "loads/runtype.h"
#include "workload/builtin.h"
#include "workload/workload.h"
#include "results/latency.h"
#include "lib/exitcode.h"
#include "lib/swap.h"
#include "lib/util.h"

enum {
	OPT_HELP = 'h', OPT_VERSION = 'V', OPT_REPORT = 'r',
	OPT_LABEL = 'k', OPT_RUNS = 'n', OPT_RESULTS = 'd', OPT_WORKLOAD = 'w',
	OPT_JOBS = 'j', OPT_OTHER = 'o', OPT_TIME = 't',
	OPT_OUTPUT = 'o',	/* plot's -o: told apart from OPT_OTHER by the command */
	OPT_WORK_DIR = 256, OPT_QUICK, OPT_SCALE, OPT_LEAD_TIME, OPT_BASELINE,
	OPT_LOAD_NICE, OPT_IO_SYNC, OPT_KCONFIG, OPT_TARGET, OPT_IN_TREE, OPT_BUILD_CMD,
	OPT_CLEAN_CMD, OPT_LOAD_SESSION, OPT_PRECISION, OPT_MAX_RUNS, OPT_STATS, OPT_COLUMNS, OPT_LATENCY,
	OPT_DELAYS,
	OPT_ALPHA, OPT_FORMAT, OPT_DRY_RUN, OPT_QUIET, OPT_POOL_NOLOAD, OPT_SWAP,
	OPT_PROBE, OPT_NO_PROGRESS, OPT_JSON_SUMMARY, OPT_CONFIGS, OPT_VARY, OPT_SEED, OPT_COMPARE,
	OPT_HEADER, OPT_NO_HEADER, OPT_KERNEL, OPT_METHOD, OPT_BOOTS, OPT_UNTIL,
	OPT_RUNS_PER_BOOT, OPT_SETTLE, OPT_CAMPAIGN, OPT_TYPE, OPT_COUNT, OPT_NO_PROBE, OPT_NO_LATENCY, OPT_NO_DELAYS,
	OPT_MERGE,
	OPT_WIDE,
	OPT_LOAD = 1024,	/* + its slot: a load's own option (loads/registry.h) */
};

#define ALL (CMD_RUN | CMD_REPORT | CMD_LIST | CMD_LOAD | CMD_ENV | CMD_PLOT | CMD_MERGE | CMD_COMPARE | \
	     CMD_CAMPAIGN | CMD_RELABEL)
#define LOADS (CMD_RUN | CMD_LOAD | CMD_LIST)

/* How an option's value is taken: most set one field of struct config;
 * the numbers within [min, max], else "NAME wants WHAT from MIN to MAX". */
enum opt_kind {
	SPECIAL,	/* set_special() */
	FLAG,		/* int field = 1 */
	STRING,		/* const char *field = the value */
	WHOLE,		/* uint64_t field */
	NICE,		/* int64_t field */
	SECONDS,	/* double field */
	SIZE,		/* uint64_t field, with K, M, G or T */
	LOAD_OPTIONS,	/* not an option: where a load's own options go (opts) */
};

#define SET(kind, f) kind, offsetof(struct config, f), 0, 0
#define RANGE(kind, f, min, max) kind, offsetof(struct config, f), min, max
#define OWN SPECIAL, 0, 0, 0
/* The options load declares (loads/load.h), here; NULL: every load option
 * not placed before, in the registry's order. */
#define OPTIONS_OF(load) 0, load, NULL, LOADS, NULL, LOAD_OPTIONS, 0, 0, 0

/* Every option, once: parsing and --help both come from this table, with
 * the loads' own options where its LOAD_OPTIONS rows say (table[]).  An arg
 * in brackets is optional (--name=VALUE or --name alone). */
static const struct opt {
	int id;
	const char *name;
	const char *arg;
	unsigned cmds;
	const char *help;
	enum opt_kind kind;
	size_t field;
	double min, max;
} opts[] = {
	{ OPT_LABEL, "label", "LABEL", CMD_RUN,
	  "label of this kernel's results (default: uname -r)",
	  SET(STRING, label) },
	{ OPT_RUNS, "runs", "N|auto", CMD_RUN,
	  "rounds of every run type (default 3); auto: until --precision",
	  OWN },
	{ OPT_PRECISION, "precision", "P", CMD_RUN,
	  "-n auto: until each mean Time's 95% CI is within P% (default 1)",
	  OWN },
	{ OPT_MAX_RUNS, "max-runs", "M", CMD_RUN,
	  "-n auto: stop after M rounds at most (default 10)",
	  RANGE(WHOLE, max_runs, AUTO_MIN_RUNS, 1000) },
	{ OPT_WORKLOAD, "workload", "KIND", CMD_RUN | CMD_LOAD,
	  "reference workload: builtin (default), kernel:DIR or cmd:DIR (load: the tree archived)",
	  SET(STRING, workload) },
	{ OPT_SCALE, "scale", "N", CMD_RUN,
	  "translation units of the builtin workload",
	  RANGE(WHOLE, scale, 1, BUILTIN_SCALE_MAX) },
	{ OPT_KCONFIG, "kconfig", "TARGET|FILE", CMD_RUN,
	  "kernel: a *config make target or a .config file (default tinyconfig)",
	  SET(STRING, kconfig) },
	{ OPT_TARGET, "target", "TARGET", CMD_RUN,
	  "kernel: the make target timed (default vmlinux)",
	  OWN },
	{ OPT_IN_TREE, "in-tree", NULL, CMD_RUN,
	  "kernel: build in DIR itself, running make clean there, not out of tree (O=)",
	  SET(FLAG, in_tree) },
	{ OPT_BUILD_CMD, "build-cmd", "CMD", CMD_RUN,
	  "cmd: the shell command timed, run by /bin/sh -c in DIR",
	  SET(STRING, build_cmd) },
	{ OPT_CLEAN_CMD, "clean-cmd", "CMD", CMD_RUN,
	  "cmd: the shell command run in DIR before every build (untimed)",
	  SET(STRING, clean_cmd) },
	{ OPT_JOBS, "jobs", "N", CMD_RUN,
	  "parallel make jobs (default 4 x online CPUs)",
	  RANGE(WHOLE, jobs, 1, 4096) },
	{ OPT_LEAD_TIME, "lead-time", "SECONDS", CMD_RUN,
	  "wait between loads ready and the timed build (default 3, --quick 1)",
	  RANGE(SECONDS, lead_time, 0, 3600) },
	{ OPT_DRY_RUN, "dry-run", NULL, CMD_RUN,
	  "print the plan (sizes, scratch, estimate) and exit; write or start nothing",
	  SET(FLAG, dry_run) },
	{ OPT_QUIET, "quiet", NULL, CMD_RUN,
	  "print nothing but errors and the final table",
	  SET(FLAG, quiet) },
	{ OPT_NO_PROGRESS, "no-progress", NULL, CMD_RUN,
	  "no live progress line, even on a terminal (job runners, logs)",
	  SET(FLAG, no_progress) },
	{ OPT_JSON_SUMMARY, "json-summary", "FILE", CMD_RUN,
	  "write what the suite did to FILE as json; exit 3 or 4 if runs were invalid",
	  OWN },
	{ OPT_CONFIGS, "configs", "FILE", CMD_COMPARE,
	  "the configurations: [LABEL] sections of setup, undo and check commands",
	  SET(STRING, configs) },
	{ OPT_VARY, "vary", "KEY=V1,V2...", CMD_COMPARE,
	  "built-in configurations: autogroup, iosched, load-nice, load-session, slice or sched_ext",
	  OWN },
	{ OPT_SEED, "seed", "N", CMD_COMPARE | CMD_CAMPAIGN,
	  "which counterbalanced order of the configurations or kernels (default 0), recorded",
	  OWN },
	{ OPT_KERNEL, "kernel", "LABEL=SPEC", CMD_CAMPAIGN,
	  "plan: a kernel: a release in /boot, or PATH[,initrd=P][,append=ARGS][,entry=ID]",
	  OWN },
	{ OPT_METHOD, "method", "HOW", CMD_CAMPAIGN,
	  "plan: how to boot each kernel: kexec (default), grub, sdboot or script:CMD",
	  SET(STRING, method) },
	{ OPT_BOOTS, "boots", "N", CMD_CAMPAIGN,
	  "plan: measured boots of each kernel (default 4), after one unmeasured first boot",
	  RANGE(WHOLE, boots, 1, 1000) },
	{ OPT_UNTIL, "until", "PCT[,max=M]", CMD_CAMPAIGN,
	  "plan: stop once every difference's 95% interval is within +-PCT% (at most M boots)",
	  SET(STRING, until) },
	{ OPT_RUNS_PER_BOOT, "runs-per-boot", "R", CMD_CAMPAIGN,
	  "plan: rounds of the run types in each measured boot (default 2)",
	  RANGE(WHOLE, runs_per_boot, 1, 100) },
	{ OPT_SETTLE, "settle", "SECONDS", CMD_CAMPAIGN,
	  "plan: wait after each boot before the warm-up (default 120), then for a low load",
	  RANGE(SECONDS, settle, 0, 86400) },
	{ OPT_RESULTS, "results", "DIR", CMD_RUN | CMD_REPORT | CMD_PLOT | CMD_RELABEL,
	  "results directory (default ./contest-results); report and plot read several",
	  OWN },
	{ OPT_MERGE, "merge", NULL, CMD_RELABEL,
	  "NEW has records already: add OLD's to them (else refused)",
	  SET(FLAG, merge) },
	{ OPT_BASELINE, "baseline", "LABEL", CMD_REPORT | CMD_PLOT,
	  "divide Times by this label's noload; test the rows against it",
	  SET(STRING, baseline) },
	{ OPT_COMPARE, "compare", "ID", CMD_REPORT | CMD_PLOT,
	  "only the comparison ID, its configurations tested against the first",
	  SET(STRING, compare_id) },
	{ OPT_CAMPAIGN, "campaign", "ID", CMD_REPORT,
	  "only the campaign ID: each boot's rounds averaged, the kernels compared on boots",
	  SET(STRING, campaign_id) },
	{ OPT_POOL_NOLOAD, "pool-noload", NULL, CMD_REPORT | CMD_PLOT,
	  "Ratio over the label's noload of all sessions, not of the run's own",
	  SET(FLAG, pool_noload) },
	{ OPT_STATS, "stats", NULL, CMD_REPORT,
	  "show the spread: Time's sd, the Ratio's 95% interval",
	  SET(FLAG, stats) },
	{ OPT_COLUMNS, "columns", NULL, CMD_REPORT,
	  "add Loads/s, CPU+L%, idle%, iowait%, faults, swap-ins, swap-outs, CPU and I/O waits",
	  SET(FLAG, columns) },
	{ OPT_WIDE, "wide", NULL, CMD_REPORT,
	  "tables on one line however wide, not wrapped at a mail's 72 columns",
	  SET(FLAG, wide) },
	{ OPT_TYPE, "type", "TYPE,...", CMD_REPORT | CMD_PLOT,
	  "only these run types (see 'contest list'), e.g. process_load,io_load",
	  OWN },
	{ OPT_HEADER, "header", NULL, CMD_REPORT,
	  "what the runs share, above the tables: CPU, RAM, disk, workload (markdown: on)",
	  OWN },
	{ OPT_NO_HEADER, "no-header", NULL, CMD_REPORT,
	  "no such lines, in markdown too",
	  OWN },
	{ OPT_LATENCY, "latency", NULL, CMD_REPORT | CMD_PLOT,
	  "the latency probe's figures: report p50/p90/p99/p99.9/max, Miss%; plot p99",
	  SET(FLAG, latency) },
	{ OPT_NO_LATENCY, "no-latency", NULL, CMD_REPORT,
	  "no line of the probe's audio and video p99 under each table",
	  SET(FLAG, no_latency) },
	{ OPT_DELAYS, "delays", NULL, CMD_REPORT,
	  "where the compile's time went: CPU, waits for a CPU, I/O, swap-in, reclaim; PSI",
	  SET(FLAG, delays) },
	{ OPT_ALPHA, "alpha", "P", CMD_REPORT | CMD_PLOT,
	  "significance level of the tests (default 0.05)",
	  OWN },
	{ OPT_FORMAT, "format", "FORMAT", CMD_REPORT,
	  "text (default), markdown, csv, json or keyvalue",
	  OWN },
	{ OPT_OUTPUT, "output", "FILE", CMD_PLOT,
	  "write the chart to FILE (default: standard output)",
	  OWN },
	{ OPT_COUNT, "count", NULL, CMD_LIST,
	  "also the sizes that walk a file system (list_load's entries under --root)",
	  SET(FLAG, count) },
	{ OPT_TIME, "time", "SECONDS", CMD_LOAD,
	  "how long to run the load (default 10)",
	  RANGE(SECONDS, seconds, 0.1, 86400) },
	{ OPT_WORK_DIR, "work-dir", "DIR", LOADS | CMD_ENV,
	  "where the workload and scratch live (default ./contest-work)",
	  SET(STRING, work_dir) },
	{ OPT_QUICK, "quick", NULL, LOADS,
	  "shrink the workload and loads: a suite in a few minutes",
	  SET(FLAG, quick) },
	{ OPT_OTHER, "other-dir", "DIR", LOADS,
	  "directory on another disk, for io_other",
	  OWN },
	{ OPT_LOAD_NICE, "load-nice", "N", CMD_RUN | CMD_LOAD,
	  "run every load process at nice N (-20 to 19; default 0)",
	  RANGE(NICE, load_nice, -20, 19) },
	{ OPT_LOAD_SESSION, "load-session", NULL, CMD_RUN | CMD_LOAD,
	  "run the loads in a session of their own, as from another terminal",
	  SET(FLAG, load_session) },
	{ OPT_SWAP, "swap", "zram[:SIZE]", CMD_RUN | CMD_LOAD,
	  "no swap here: make a zram swap device (default half of RAM) for mem_load (root)",
	  OWN },
	{ OPT_PROBE, "probe", "[=light|full]", CMD_RUN | CMD_LOAD,
	  "the latency probe beside the build (run) or the load (load); default light",
	  OWN },
	{ OPT_NO_PROBE, "no-probe", NULL, CMD_RUN | CMD_LOAD,
	  "no latency probe",
	  OWN },
	{ OPT_NO_DELAYS, "no-delays", NULL, CMD_RUN | CMD_LOAD,
	  "no delay accounting or PSI: kernel.task_delayacct untouched, no cgroup for the build",
	  SET(FLAG, no_delays) },
	/* the loads' own options, in the order --help has always shown them */
	{ OPTIONS_OF("process_load") },
	{ OPTIONS_OF("io_load") },
	/* a mode of the suite's, which keeps a label's runs all synced or not */
	{ OPT_IO_SYNC, "io-sync", NULL, LOADS,
	  "io_load, io_other, ctar_load, xtar_load: sync each unit to disk (dd, tar do not)",
	  SET(FLAG, io_sync) },
	{ OPTIONS_OF("mem_load") },
	{ OPTIONS_OF("list_load") },
	{ OPTIONS_OF(NULL) },
	{ OPT_REPORT, "report", NULL, ALL,
	  "same as the report command (contest's -r habit)",
	  OWN },
	{ OPT_HELP, "help", NULL, ALL, "print this help and exit", OWN },
	{ OPT_VERSION, "version", NULL, ALL, "print the version and exit", OWN },
};

/* opts with every LOAD_OPTIONS row replaced by the options of its load
 * that no row placed before: what parsing and --help read (make_table()). */
static struct opt table[ARRAY_SIZE(opts) + LOAD_OPTIONS_MAX];
static size_t ntable;
/* their --help lines: "io_load, io_other, read_load: file size (...)" */
static char load_helps[LOAD_OPTIONS_MAX][256];

/* The load option in slot into table, once: it sets cfg->load_values[slot]. */
static void place_load_option(size_t slot, int *placed)
{
	static const enum opt_kind kinds[] = {
		[LOAD_OPT_WHOLE] = WHOLE, [LOAD_OPT_SIZE] = SIZE, [LOAD_OPT_STRING] = STRING,
		[LOAD_OPT_FLAG] = FLAG,
	};
	const struct load_option *lo = load_option_at(slot);
	char loads[160];

	if (slot >= LOAD_OPTIONS_MAX || placed[slot] || !lo)
		return;	/* too many: load_registry_check() says so */
	placed[slot] = 1;
	load_option_loads(slot, loads, sizeof(loads));
	snprintf(load_helps[slot], sizeof(load_helps[slot]), "%s: %s", loads, lo->help);
	table[ntable++] = (struct opt){
		OPT_LOAD + (int)slot, lo->name, lo->arg, LOADS, load_helps[slot], kinds[lo->type],
		offsetof(struct config, load_values) + slot * sizeof(union load_value),
		lo->min, lo->max
	};
}

static void make_table(void)
{
	int placed[LOAD_OPTIONS_MAX] = { 0 };

	if (ntable)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
		const struct load_ops *ops;

		if (opts[i].kind != LOAD_OPTIONS) {
			table[ntable++] = opts[i];
		} else if (!opts[i].name) {
			for (size_t s = 0; s < load_option_count(); s++)
				place_load_option(s, placed);
		} else if ((ops = load_find(opts[i].name))) {
			for (const struct load_option *o = ops->options; o && o->name; o++)
				place_load_option(load_option_slot(o->name), placed);
		}
	}
}

int cli_check(char *why, size_t len)
{
	if (load_registry_check(why, len))
		return -1;
	make_table();
	for (size_t i = 0; i < ntable; i++)
		for (size_t k = 0; k < i; k++)
			if (!strcmp(table[i].name, table[k].name))
				return whyf(why, len, "two options are named --%s (one of them a "
					    "load's)", table[i].name);
	return 0;
}

/* What --version adds under the version: the licence, as GNU tools say it. */
#define LICENCE "License GPL-2.0-or-later: GNU GPL version 2 or later " \
	"<https://www.gnu.org/licenses/old-licenses/gpl-2.0.html>.\n" \
	"This is free software: you are free to change and redistribute it.\n" \
	"There is NO WARRANTY, to the extent permitted by law.\n"

static void print_option(FILE *f, const struct opt *o)
{
	char left[64];
	int n;

	if (o->id < 256)
		n = snprintf(left, sizeof(left), "-%c, ", o->id);
	else
		n = snprintf(left, sizeof(left), "    ");
	/* an optional value in brackets follows the name: --probe[=light|full] */
	snprintf(left + n, sizeof(left) - (size_t)n, "--%s%s%s", o->name,
		 o->arg && o->arg[0] != '[' ? " " : "", o->arg ? o->arg : "");
	fprintf(f, "  %-24s %s\n", left, o->help);
}

/* Where the manual is: man PAGE (contest, or contest-COMMAND for one
 * command) once installed; before that (this binary is not the one in
 * bindir) the page in the source tree, by its path when the binary sits at
 * the top of that tree. */
static void print_manual(FILE *f, const char *page_name)
{
	char exe[4096], page[4200];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	fprintf(f, "Manual: man %s", page_name);
	if (n <= 0 || (exe[n] = '\0', !strcmp(exe, BINDIR "/contest"))) {
		fputs(".\n", f);
		return;
	}
	slash = strrchr(exe, '/');
	*slash = '\0';
	snprintf(page, sizeof(page), "%s/docs/%s.1", exe, page_name);
	if (access(page, R_OK))
		fprintf(f, " once installed; here: man ./docs/%s.1 (in the source tree).\n",
			page_name);
	else
		fprintf(f, " once installed; here: man %s.\n", page);
}

void cli_help(FILE *f, const struct command *cmds)
{
	static const struct { unsigned cmds; const char *title; } groups[] = {
		{ CMD_RUN, "Options of run" },
		{ CMD_COMPARE, "Options of compare (which also takes those of run but -k)" },
		{ CMD_COMPARE | CMD_CAMPAIGN, "Options of compare and campaign" },
		{ CMD_CAMPAIGN, "Options of campaign (which also takes those of run but -k, -n, "
				"--precision, --max-runs, --dry-run, --json-summary)" },
		{ CMD_RUN | CMD_REPORT | CMD_PLOT | CMD_RELABEL,
		  "Options of run, report, plot and relabel" },
		{ CMD_REPORT | CMD_PLOT, "Options of report and plot" },
		{ CMD_REPORT, "Options of report" },
		{ CMD_PLOT, "Options of plot" },
		{ CMD_RELABEL, "Options of relabel" },
		{ CMD_LIST, "Options of list" },
		{ CMD_LOAD, "Options of load" },
		{ CMD_RUN | CMD_LOAD, "Options of run and load" },
		{ LOADS | CMD_ENV, "Options of run, load, list and env" },
		{ LOADS, "Options of run, load and list (list shows the sizes they give)" },
		{ ALL, "Options of every command" },
	};

	make_table();
	fputs("Usage:\n", f);
	for (const struct command *c = cmds; c->name; c++)
		fprintf(f, "  contest %s %s\n", c->name, c->usage);
	fputs("  contest -r ...                same as contest report\n\n"
	      "contest times a kernel compile alone and under background loads and\n"
	      "prints one table per run type, one row per kernel.\n\nCommands:\n", f);
	for (const struct command *c = cmds; c->name; c++)
		fprintf(f, "  %-10s %s\n", c->name, c->summary);
	for (size_t g = 0; g < ARRAY_SIZE(groups); g++) {
		fprintf(f, "\n%s:\n", groups[g].title);
		for (size_t i = 0; i < ntable; i++)
			if (table[i].cmds == groups[g].cmds)
				print_option(f, &table[i]);
	}
	fputs("\nSizes take K, M, G or T (powers of 1024).  Run types: see 'contest list'.\n"
	      "Commands: 'contest COMMAND --help' shows one command's options.\n", f);
	print_manual(f, "contest");
}

/* Whether o applies to cmd: compare takes run's options but -k; campaign
 * those too but the number of rounds (--runs-per-boot) and what a boot
 * cannot do unattended. */
static int applies(const struct opt *o, enum cmd cmd)
{
	static const int not_campaign[] = { OPT_RUNS, OPT_PRECISION, OPT_MAX_RUNS, OPT_DRY_RUN,
					    OPT_JSON_SUMMARY };

	if (o->cmds & cmd)
		return 1;
	if (cmd == CMD_CAMPAIGN && (o->cmds & CMD_RUN))
		for (size_t i = 0; i < ARRAY_SIZE(not_campaign); i++)
			if (o->id == not_campaign[i])
				return 0;
	return (cmd == CMD_COMPARE || cmd == CMD_CAMPAIGN) && (o->cmds & CMD_RUN) &&
	       o->id != OPT_LABEL;
}

/* contest COMMAND --help: that command's usage and options only. */
static void command_help(FILE *f, const struct command *cmds, enum cmd cmd)
{
	const struct command *c = cmds;
	char page[64];

	while (c->name && c->id != cmd)
		c++;
	fprintf(f, "Usage: contest %s %s\n\n%s.\n\n", c->name, c->usage, c->summary);
	if (cmd == CMD_CAMPAIGN) {
		fputs("Commands:\n", f);
		for (const struct campaign_verb *v = campaign_verbs; v->name; v++)
			fprintf(f, "  %-10s %s\n", v->name, v->summary);
		fputc('\n', f);
	}
	fputs("Options:\n", f);
	for (size_t i = 0; i < ntable; i++)
		if (applies(&table[i], cmd))
			print_option(f, &table[i]);
	if (cmd & (LOADS | CMD_RUN | CMD_COMPARE | CMD_CAMPAIGN))
		fputs("\nSizes take K, M, G or T (powers of 1024).  Run types: see 'contest list'.\n",
		      f);
	snprintf(page, sizeof(page), "contest-%s", c->name);
	print_manual(f, page);
}

static const struct command *find_command(const struct command *cmds, const char *name)
{
	for (const struct command *c = cmds; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* The option named by word ("--name", "--name=V" or "-x"), of any command. */
static const struct opt *opt_named(const char *word)
{
	size_t n = strcspn(word + 2, "=");

	for (size_t i = 0; i < ntable; i++) {
		const struct opt *o = &table[i];

		if (word[1] == '-' ? strlen(o->name) == n && !strncmp(o->name, word + 2, n) :
				     o->id == (unsigned char)word[1])
			return o;
	}
	return NULL;
}

/* Where the first word that is neither an option nor an option's value is,
 * or 0. */
static int first_word(int argc, char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const struct opt *o;

		if (argv[i][0] != '-' || !argv[i][1])
			return i;
		if (argv[i][1] == '-') {
			o = opt_named(argv[i]);
			i += o && o->arg && !strchr(argv[i], '=');
			continue;
		}
		/* -abc: flags until one that takes a value, the rest or the next word */
		for (const char *p = argv[i] + 1; *p; p++) {
			char one[3] = { '-', *p, '\0' };

			o = opt_named(one);
			if (o && o->arg) {
				i += !p[1];
				break;
			}
		}
	}
	return 0;
}

/* Which command: a first word naming one, else -r anywhere, else run; 0, with
 * the reason printed, when the command line is wrong.  *first: the command's
 * word (1) or none (0).  A command after options, or a word that looks like a
 * mistyped command, is refused. */
static enum cmd pick_command(int argc, char **argv, const struct command *cmds, int *first)
{
	const char *names[16];
	const struct command *c;
	int w = first_word(argc, argv);
	size_t n = 0;

	*first = 0;
	if (w && (c = find_command(cmds, argv[w]))) {
		if (w > 1) {
			usage_error("option '%s' is given before the command '%s': write "
				    "'contest %s' first, then its options", argv[1], c->name,
				    c->name);
			return 0;
		}
		*first = 1;
		return c->id;
	}
	for (c = cmds; c->name && n < ARRAY_SIZE(names); c++)
		names[n++] = c->name;
	if (w && !runtype_find(argv[w]) && !runtype_nearest(argv[w], 0) &&
	    nearest_name(argv[w], names, n)) {
		usage_error("no command '%s'; did you mean '%s'?", argv[w],
			    nearest_name(argv[w], names, n));
		return 0;
	}
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		if (!strcmp(argv[i], "-r") || !strcmp(argv[i], "--report"))
			return CMD_REPORT;
	return CMD_RUN;
}

static void defaults(struct config *cfg, int argc, char **argv)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->runs = 3;
	cfg->results = "contest-results";
	cfg->work_dir = "contest-work";
	cfg->workload = "builtin";
	cfg->lead_time = -1;
	cfg->seconds = 10;
	cfg->probe = PROBE_LIGHT;
	cfg->settle = -1;
	cfg->argc = argc;
	cfg->argv = argv;
}

/* SPECIAL options: those that check their value their own way or set
 * more than one field. */
static int set_special(struct config *cfg, int id, const char *name, char *arg)
{
	switch (id) {
	case OPT_RUNS:
		cfg->auto_runs = !strcmp(arg, "auto");
		if (!cfg->auto_runs && parse_u64(arg, 1, 1000, &cfg->runs))
			return usage_error("%s wants a whole number from 1 to 1000, or auto, not '%s'",
					   name, arg);
		return 0;
	case OPT_PRECISION: {
		char *num = xstrdup(arg);
		size_t n = strlen(num);
		int bad;

		if (n && num[n - 1] == '%')
			num[n - 1] = '\0';
		bad = parse_double(num, 0.001, 100, &cfg->precision);
		free(num);
		if (bad)
			return usage_error("%s wants a percentage from 0.001 to 100, not '%s'",
					   name, arg);
		return 0;
	}
	case OPT_RESULTS:
		cfg->results = arg;
		cfg->results_dirs = xreallocarray(cfg->results_dirs, cfg->nresults_dirs + 1,
						  sizeof(char *));
		cfg->results_dirs[cfg->nresults_dirs++] = arg;
		return 0;
	case OPT_TARGET:
		if (!*arg || *arg == '-')
			return usage_error("%s wants a make target, not '%s'", name, arg);
		cfg->target = arg;
		return 0;
	case OPT_JSON_SUMMARY:
		if (!*arg)
			return usage_error("%s wants a file name", name);
		cfg->json_summary = arg;
		return 0;
	case OPT_OTHER:	/* and OPT_OUTPUT */
		if (cfg->cmd == CMD_PLOT)
			cfg->output = arg;
		else
			cfg->other_dir = arg;
		return 0;
	case OPT_PROBE:
		cfg->probe = arg ? probe_profile_parse(arg) : PROBE_LIGHT;
		if (cfg->probe <= PROBE_NONE)
			return usage_error("%s wants light or full, not '%s'", name, arg);
		return 0;
	case OPT_NO_PROBE:
		cfg->probe = PROBE_NONE;
		return 0;
	case OPT_SWAP:
		if (swap_parse(arg, &cfg->swap_size))
			return usage_error("%s wants zram or zram:SIZE (16M or more, suffix K, M, "
					   "G or T), not '%s'", name, arg);
		cfg->swap_zram = 1;
		return 0;
	case OPT_TYPE:
		if (!*arg || *arg == ',' || arg[strlen(arg) - 1] == ',' || strstr(arg, ",,"))
			return usage_error("%s wants run types separated by commas, such as "
					   "process_load,io_load, not '%s'", name, arg);
		cfg->types = arg;
		return 0;
	case OPT_HEADER:
	case OPT_NO_HEADER:
		cfg->header = id == OPT_HEADER ? 1 : -1;
		return 0;
	case OPT_ALPHA:
		if (parse_double(arg, 0, 1, &cfg->alpha) || cfg->alpha <= 0 || cfg->alpha >= 1)
			return usage_error("%s wants a probability between 0 and 1, such as "
					   "0.05, not '%s'", name, arg);
		return 0;
	case OPT_FORMAT: {
		enum report_format f;

		if (report_format_parse(arg, &f))
			return usage_error("%s wants text, markdown, csv, json or keyvalue, not '%s'",
					   name, arg);
		cfg->format = arg;
		return 0;
	}
	case OPT_VARY:
		if (cfg->vary)
			return usage_error("%s is given once, with every value: --vary KEY=V1,V2", name);
		cfg->vary = arg;
		return 0;
	case OPT_SEED:
		if (parse_u64(arg, 0, UINT64_MAX, &cfg->seed))
			return usage_error("%s wants a whole number, not '%s'", name, arg);
		return 0;
	case OPT_KERNEL:
		cfg->kernels = xreallocarray(cfg->kernels, (size_t)cfg->nkernels + 1,
					     sizeof(*cfg->kernels));
		cfg->kernels[cfg->nkernels++] = arg;
		return 0;
	case OPT_REPORT:
		return 0;
	}
	return usage_error("internal error: option %d", id);
}

/* A number in [o->min, o->max] into the field; name is how it was given. */
static int set_number(struct config *cfg, const struct opt *o, const char *name,
		      const char *arg)
{
	static const char *const what[] = {
		[WHOLE] = "a whole number", [NICE] = "a nice value", [SECONDS] = "seconds",
	};
	void *field = (char *)cfg + o->field;
	char lo[32], hi[32];
	uint64_t size;

	switch (o->kind) {
	case WHOLE:
		if (!parse_u64(arg, (uint64_t)o->min, (uint64_t)o->max, field))
			return 0;
		break;
	case NICE:
		if (!parse_i64(arg, (int64_t)o->min, (int64_t)o->max, field))
			return 0;
		break;
	case SECONDS:
		if (!parse_double(arg, o->min, o->max, field))
			return 0;
		break;
	default:	/* SIZE */
		if (!parse_size(arg, &size) && size >= o->min && size <= o->max) {
			*(uint64_t *)field = size;
			return 0;
		}
		format_size((uint64_t)o->min, lo, sizeof(lo));
		format_size((uint64_t)o->max, hi, sizeof(hi));
		return usage_error("%s wants a size from %s to %s (suffix K, M, G or T), not '%s'",
				   name, lo, hi, arg);
	}
	return usage_error("%s wants %s from %g to %g, not '%s'", name, what[o->kind], o->min,
			   o->max, arg);
}

static int set_option(struct config *cfg, const struct opt *o, const char *name, char *arg)
{
	void *field = (char *)cfg + o->field;

	switch (o->kind) {
	case SPECIAL:
		return set_special(cfg, o->id, name, arg);
	case FLAG:
		*(int *)field = 1;
		return 0;
	case STRING:
		*(const char **)field = arg;
		return 0;
	default:
		return set_number(cfg, o, name, arg);
	}
}

/* The option id names for cmd (-o is two options), else for any command. */
static const struct opt *opt_by_id(int id, enum cmd cmd)
{
	const struct opt *any = NULL;

	for (size_t i = 0; i < ntable; i++) {
		if (table[i].id != id)
			continue;
		if (applies(&table[i], cmd))
			return &table[i];
		if (!any)
			any = &table[i];
	}
	return any;
}

/* Of cmd's long options, the name nearest to word's ("--quikc=1"), if
 * near enough to be a slip of the keyboard, else NULL. */
static const char *nearest_option(const char *word, enum cmd cmd)
{
	const char *names[ARRAY_SIZE(table)];
	char name[64];
	size_t n = 0;

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(word + 2, "="), word + 2);
	for (size_t i = 0; i < ntable; i++)
		if (applies(&table[i], cmd))
			names[n++] = table[i].name;
	return nearest_name(name, names, n);
}

/* An option getopt did not take: another command's, a slip of the keyboard
 * (the nearest of the command's own named), or no option at all. */
static int unknown_option(const struct command *cmds, enum cmd cmd, int shortopt,
			  const char *word)
{
	const struct opt *o = NULL;
	const char *cname = "run", *near;

	for (const struct command *c = cmds; c->name; c++)
		if (c->id == cmd)
			cname = c->name;
	if (shortopt)
		o = opt_by_id(shortopt, cmd);
	else if (!strncmp(word, "--", 2))
		o = opt_named(word);
	if (o)
		return usage_error("option '%s' does not apply to the %s command", word, cname);
	if (!shortopt && !strncmp(word, "--", 2) && (near = nearest_option(word, cmd)))
		return usage_error("unknown option '%s'; did you mean '--%s'?", word, near);
	return usage_error("unknown option '%s'", word);
}

/* The workload's options must fit its kind. */
static int check_workload(const struct config *cfg)
{
	enum workload_kind kind;
	const char *dir;
	char why[256];

	if (workload_parse(cfg->workload, &kind, &dir, why, sizeof(why)))
		return usage_error("%s", why);
	if (kind != WORKLOAD_KERNEL && (cfg->kconfig || cfg->target || cfg->in_tree))
		return usage_error("--kconfig, --target and --in-tree apply to -w kernel:DIR");
	if (kind != WORKLOAD_CMD && (cfg->build_cmd || cfg->clean_cmd))
		return usage_error("--build-cmd and --clean-cmd apply to -w cmd:DIR");
	if (kind != WORKLOAD_BUILTIN && cfg->scale)
		return usage_error("--scale applies to the builtin workload");
	if (kind == WORKLOAD_CMD && !cfg->build_cmd)
		return usage_error("-w cmd:DIR needs --build-cmd CMD, the build to time");
	if (kind == WORKLOAD_CMD && !cfg->clean_cmd)
		return usage_error("-w cmd:DIR needs --clean-cmd CMD, which makes the next build "
				   "start from scratch (--clean-cmd true if nothing needs it)");
	return 0;
}

/* -n auto: the defaults of its options, which apply to it alone; runs
 * becomes the most rounds. */
static int check_auto_runs(struct config *cfg)
{
	if (!cfg->auto_runs) {
		if (cfg->precision || cfg->max_runs)
			return usage_error("--precision and --max-runs apply to -n auto");
		return 0;
	}
	if (!cfg->precision)
		cfg->precision = 1;
	cfg->runs = cfg->max_runs ? cfg->max_runs : 10;
	return 0;
}

int cli_parse(int argc, char **argv, const struct command *cmds, struct config *cfg)
{
	struct option longopts[ARRAY_SIZE(table) + 1];
	char shortopts[3 * ARRAY_SIZE(table) + 3] = "+:";
	size_t nl = 0, ns = 2;
	int first, c, idx;

	make_table();
	defaults(cfg, argc, argv);
	cfg->cmd = pick_command(argc, argv, cmds, &first);
	if (!cfg->cmd)
		return EXIT_USAGE;
	for (size_t i = 0; i < ntable; i++) {
		const struct opt *o = &table[i];

		if (!applies(o, cfg->cmd))
			continue;
		longopts[nl++] = (struct option){ o->name, !o->arg ? no_argument :
			o->arg[0] == '[' ? optional_argument : required_argument, NULL, o->id };
		if (o->id < 256) {
			shortopts[ns++] = (char)o->id;
			if (o->arg)
				shortopts[ns++] = ':';
		}
	}
	longopts[nl] = (struct option){ 0 };
	shortopts[ns] = '\0';
	shortopts[0] = '-';	/* keep positional arguments in order */

	/* getopt sees the words after the command; optind = 0 resets it fully */
	argc -= first;
	argv += first;
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, &idx)) != -1) {
		const struct opt *o;
		const char *bad = argv[optind - 1];

		if (c == 1) {
			cfg->args = xreallocarray(cfg->args, cfg->nargs + 1, sizeof(char *));
			cfg->args[cfg->nargs++] = optarg;
			continue;
		}
		if (c == ':')
			return usage_error("option '%s' needs a value", bad);
		if (c == '?')
			return unknown_option(cmds, cfg->cmd, optopt, bad);
		if (c == OPT_HELP) {
			if (first || cfg->cmd != CMD_RUN)
				command_help(stdout, cmds, cfg->cmd);
			else
				cli_help(stdout, cmds);
			return -1;
		}
		if (c == OPT_VERSION) {
			printf("contest %s\n%s", PACKAGE_VERSION, LICENCE);
			return -1;
		}
		char shown[64];
		int r;

		o = opt_by_id(c, cfg->cmd);
		if (c < 256)
			snprintf(shown, sizeof(shown), "-%c/--%s", c, o->name);
		else
			snprintf(shown, sizeof(shown), "--%s", o->name);
		r = set_option(cfg, o, shown, optarg);

		if (r)
			return r;
	}
	for (; optind < argc; optind++) {
		cfg->args = xreallocarray(cfg->args, cfg->nargs + 1, sizeof(char *));
		cfg->args[cfg->nargs++] = argv[optind];
	}
	/* where contest makes its scratch: run, load, compare, campaign plan */
	if (((cfg->cmd & (CMD_RUN | CMD_LOAD | CMD_COMPARE)) ||
	     (cfg->cmd == CMD_CAMPAIGN && cfg->nargs && !strcmp(cfg->args[0], "plan"))) &&
	    (c = suite_check_work_dir(cfg->work_dir)))
		return c;
	if (cfg->cmd == CMD_COMPARE && cfg->auto_runs)
		return usage_error("compare wants a number of rounds: -n auto does not apply to it");
	if (cfg->cmd != CMD_RUN && cfg->cmd != CMD_COMPARE && cfg->cmd != CMD_CAMPAIGN)
		return 0;
	if (cfg->nresults_dirs > 1)
		return usage_error("run stores its results in one directory: give -d once");
	if ((c = check_auto_runs(cfg)))
		return c;
	return check_workload(cfg);
}
