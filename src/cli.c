/* cli.c - the command line: commands, options declared once, parsing, help. */
#include "config.h"

#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "report.h"
#include "swap.h"
#include "util.h"
#include "workload.h"

enum {
	OPT_HELP = 'h', OPT_VERSION = 'V', OPT_REPORT = 'r',
	OPT_LABEL = 'k', OPT_RUNS = 'n', OPT_RESULTS = 'd', OPT_WORKLOAD = 'w',
	OPT_JOBS = 'j', OPT_OTHER = 'o', OPT_TIME = 't',
	OPT_OUTPUT = 'o',	/* plot's -o: told apart from OPT_OTHER by the command */
	OPT_WORK_DIR = 256, OPT_QUICK, OPT_SCALE, OPT_LEAD_TIME, OPT_BASELINE,
	OPT_LOAD_NICE, OPT_PROCS, OPT_CHUNKS, OPT_CHUNK_SIZE, OPT_IO_SIZE,
	OPT_MEM_SIZE, OPT_ROOT, OPT_KCONFIG, OPT_TARGET, OPT_IN_TREE, OPT_BUILD_CMD,
	OPT_CLEAN_CMD, OPT_LOAD_SESSION, OPT_PRECISION, OPT_MAX_RUNS, OPT_STATS, OPT_COLUMNS, OPT_LATENCY,
	OPT_ALPHA, OPT_FORMAT, OPT_DRY_RUN, OPT_QUIET, OPT_POOL_NOLOAD, OPT_SWAP,
	OPT_PROBE, OPT_NO_PROGRESS, OPT_JSON_SUMMARY, OPT_CONFIGS, OPT_VARY, OPT_SEED, OPT_COMPARE,
};

#define ALL (CMD_RUN | CMD_REPORT | CMD_LIST | CMD_LOAD | CMD_ENV | CMD_PLOT | CMD_MERGE | CMD_COMPARE)
#define LOADS (CMD_RUN | CMD_LOAD | CMD_LIST)

/* Every option, once: parsing and --help both come from this table. */
static const struct opt {
	int id;
	const char *name;
	const char *arg;
	unsigned cmds;
	const char *help;
} opts[] = {
	{ OPT_LABEL, "label", "LABEL", CMD_RUN,
	  "label of this kernel's results (default: uname -r)" },
	{ OPT_RUNS, "runs", "N|auto", CMD_RUN,
	  "rounds of every run type (default 3); auto: until --precision" },
	{ OPT_PRECISION, "precision", "P", CMD_RUN,
	  "-n auto: until each mean Time's 95% CI is within P% (default 1)" },
	{ OPT_MAX_RUNS, "max-runs", "M", CMD_RUN,
	  "-n auto: stop after M rounds at most (default 10)" },
	{ OPT_WORKLOAD, "workload", "KIND", CMD_RUN | CMD_LOAD,
	  "reference workload: builtin (default), kernel:DIR or cmd:DIR (load: the tree archived)" },
	{ OPT_SCALE, "scale", "N", CMD_RUN,
	  "translation units of the builtin workload" },
	{ OPT_KCONFIG, "kconfig", "TARGET|FILE", CMD_RUN,
	  "kernel: a *config make target or a .config file (default tinyconfig)" },
	{ OPT_TARGET, "target", "TARGET", CMD_RUN,
	  "kernel: the make target timed (default vmlinux)" },
	{ OPT_IN_TREE, "in-tree", NULL, CMD_RUN,
	  "kernel: build in DIR itself, running make clean there (default: O=)" },
	{ OPT_BUILD_CMD, "build-cmd", "CMD", CMD_RUN,
	  "cmd: the shell command timed, run by /bin/sh -c in DIR" },
	{ OPT_CLEAN_CMD, "clean-cmd", "CMD", CMD_RUN,
	  "cmd: the shell command run in DIR before every build (untimed)" },
	{ OPT_JOBS, "jobs", "N", CMD_RUN,
	  "parallel make jobs (default 4 x online CPUs)" },
	{ OPT_LEAD_TIME, "lead-time", "SECONDS", CMD_RUN,
	  "wait between loads ready and the timed build (default 3, --quick 1)" },
	{ OPT_DRY_RUN, "dry-run", NULL, CMD_RUN,
	  "print the plan (sizes, scratch, estimate) and exit; write or start nothing" },
	{ OPT_QUIET, "quiet", NULL, CMD_RUN,
	  "print nothing but errors and the final table" },
	{ OPT_NO_PROGRESS, "no-progress", NULL, CMD_RUN,
	  "no live progress line, even on a terminal (job runners, logs)" },
	{ OPT_JSON_SUMMARY, "json-summary", "FILE", CMD_RUN,
	  "write what the suite did to FILE as json; exit 3 or 4 if runs were invalid" },
	{ OPT_CONFIGS, "configs", "FILE", CMD_COMPARE,
	  "the configurations: [LABEL] sections of setup, undo and check commands" },
	{ OPT_VARY, "vary", "KEY=V1,V2...", CMD_COMPARE,
	  "built-in configurations: autogroup, iosched, load-nice, load-session, slice or sched_ext" },
	{ OPT_SEED, "seed", "N", CMD_COMPARE,
	  "which counterbalanced order of the configurations (default 0), recorded" },
	{ OPT_RESULTS, "results", "DIR", CMD_RUN | CMD_REPORT | CMD_PLOT,
	  "results directory (default ./contest-results); report and plot read several" },
	{ OPT_BASELINE, "baseline", "LABEL", CMD_REPORT | CMD_PLOT,
	  "divide Times by this label's noload; test the rows against it" },
	{ OPT_COMPARE, "compare", "ID", CMD_REPORT | CMD_PLOT,
	  "only the comparison ID, its configurations tested against the first" },
	{ OPT_POOL_NOLOAD, "pool-noload", NULL, CMD_REPORT | CMD_PLOT,
	  "Ratio over the label's noload of all sessions, not of the run's own" },
	{ OPT_STATS, "stats", NULL, CMD_REPORT,
	  "show the spread: Time's sd, the Ratio's 95% interval" },
	{ OPT_COLUMNS, "columns", NULL, CMD_REPORT,
	  "add Loads/s, CPU+L%, idle%, iowait%, faults, swap-ins, swap-outs" },
	{ OPT_LATENCY, "latency", NULL, CMD_REPORT | CMD_PLOT,
	  "the latency probe's figures: report p50/p99/p99.9/max, Miss%; plot p99" },
	{ OPT_ALPHA, "alpha", "P", CMD_REPORT | CMD_PLOT,
	  "significance level of the tests (default 0.05)" },
	{ OPT_FORMAT, "format", "FORMAT", CMD_REPORT,
	  "text (default), markdown, csv, json or keyvalue" },
	{ OPT_OUTPUT, "output", "FILE", CMD_PLOT,
	  "write the chart to FILE (default: standard output)" },
	{ OPT_TIME, "time", "SECONDS", CMD_LOAD,
	  "how long to run the load (default 10)" },
	{ OPT_WORK_DIR, "work-dir", "DIR", LOADS | CMD_ENV,
	  "where the workload and scratch live (default ./contest-work)" },
	{ OPT_QUICK, "quick", NULL, LOADS,
	  "shrink the workload and loads: a suite in about a minute" },
	{ OPT_OTHER, "other-dir", "DIR", LOADS,
	  "directory on another disk, for io_other" },
	{ OPT_LOAD_NICE, "load-nice", "N", CMD_RUN | CMD_LOAD,
	  "run every load process at nice N (-20 to 19; default 0)" },
	{ OPT_LOAD_SESSION, "load-session", NULL, CMD_RUN | CMD_LOAD,
	  "run the loads in a session of their own, as from another terminal" },
	{ OPT_SWAP, "swap", "zram[:SIZE]", CMD_RUN | CMD_LOAD,
	  "no swap here: make a zram swap device (default RAM/2) for mem_load (root)" },
	{ OPT_PROBE, "probe", NULL, CMD_RUN | CMD_LOAD,
	  "run the latency probe beside the build (run) or the load (load)" },
	{ OPT_PROCS, "procs", "N", LOADS,
	  "process_load: processes in the ring (default 4 x CPUs)" },
	{ OPT_CHUNKS, "chunks", "N", LOADS,
	  "process_load: chunks passed around the ring (default 2)" },
	{ OPT_CHUNK_SIZE, "chunk-size", "SIZE", LOADS,
	  "process_load: bytes in a chunk (default 8K)" },
	{ OPT_IO_SIZE, "io-size", "SIZE", LOADS,
	  "io_load, io_other, read_load: file size (default RAM, bounded by free space)" },
	{ OPT_MEM_SIZE, "mem-size", "SIZE", LOADS,
	  "mem_load: memory referenced (default 110% of RAM, bounded without swap)" },
	{ OPT_ROOT, "root", "DIR", LOADS,
	  "list_load: where the listing starts (default /)" },
	{ OPT_REPORT, "report", NULL, ALL,
	  "same as the report command (contest's -r habit)" },
	{ OPT_HELP, "help", NULL, ALL, "print this help and exit" },
	{ OPT_VERSION, "version", NULL, ALL, "print the version and exit" },
};

int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("contest: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'contest --help' for more information.\n", stderr);
	return 2;
}

void cli_help(FILE *f, const struct command *cmds)
{
	static const struct { unsigned cmds; const char *title; } groups[] = {
		{ CMD_RUN, "Options of run" },
		{ CMD_COMPARE, "Options of compare (which also takes those of run but -k)" },
		{ CMD_RUN | CMD_REPORT | CMD_PLOT, "Options of run, report and plot" },
		{ CMD_REPORT | CMD_PLOT, "Options of report and plot" },
		{ CMD_REPORT, "Options of report" },
		{ CMD_PLOT, "Options of plot" },
		{ CMD_LOAD, "Options of load" },
		{ CMD_RUN | CMD_LOAD, "Options of run and load" },
		{ LOADS | CMD_ENV, "Options of run, load, list and env" },
		{ LOADS, "Options of run, load and list (list shows the sizes they give)" },
		{ ALL, "Options of every command" },
	};

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
		for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
			const struct opt *o = &opts[i];
			char left[64];
			int n;

			if (o->cmds != groups[g].cmds)
				continue;
			if (o->id < 256)
				n = snprintf(left, sizeof(left), "-%c, ", o->id);
			else
				n = snprintf(left, sizeof(left), "    ");
			snprintf(left + n, sizeof(left) - (size_t)n, "--%s%s%s", o->name,
				 o->arg ? " " : "", o->arg ? o->arg : "");
			fprintf(f, "  %-24s %s\n", left, o->help);
		}
	}
	fputs("\nSizes take K, M, G or T (powers of 1024).  Run types: see 'contest list'.\n"
	      "Manual: man contest.\n", f);
}

/* Whether o applies to cmd: compare takes run's options but -k. */
static int applies(const struct opt *o, enum cmd cmd)
{
	if (o->cmds & cmd)
		return 1;
	return cmd == CMD_COMPARE && (o->cmds & CMD_RUN) && o->id != OPT_LABEL;
}

static const struct command *find_command(const struct command *cmds, const char *name)
{
	for (const struct command *c = cmds; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}

/* Which command: a first word naming one, else -r anywhere, else run. */
static int pick_command(int argc, char **argv, const struct command *cmds, int *first)
{
	const struct command *c;

	*first = 1;
	if (argc > 1 && (c = find_command(cmds, argv[1]))) {
		*first = 2;
		return c->id;
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
	cfg->list_root = "/";
	cfg->argc = argc;
	cfg->argv = argv;
}

static int size_option(uint64_t *out, const char *name, const char *arg,
		       uint64_t min, uint64_t max)
{
	char lo[32], hi[32];

	if (parse_size(arg, out) == 0 && *out >= min && *out <= max)
		return 0;
	format_size(min, lo, sizeof(lo));
	format_size(max, hi, sizeof(hi));
	return usage_error("%s wants a size from %s to %s (suffix K, M, G or T), not '%s'",
			   name, lo, hi, arg);
}

static int set_option(struct config *cfg, int id, const char *name, char *arg)
{
	switch (id) {
	case OPT_LABEL:
		cfg->label = arg;
		return 0;
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
	case OPT_MAX_RUNS:
		if (parse_u64(arg, AUTO_MIN_RUNS, 1000, &cfg->max_runs))
			return usage_error("%s wants a whole number from %d to 1000, not '%s'",
					   name, AUTO_MIN_RUNS, arg);
		return 0;
	case OPT_RESULTS:
		cfg->results = arg;
		cfg->results_dirs = xrealloc(cfg->results_dirs,
					     (size_t)(cfg->nresults_dirs + 1) * sizeof(char *));
		cfg->results_dirs[cfg->nresults_dirs++] = arg;
		return 0;
	case OPT_WORKLOAD:
		cfg->workload = arg;
		return 0;
	case OPT_KCONFIG:
		cfg->kconfig = arg;
		return 0;
	case OPT_TARGET:
		if (!*arg || *arg == '-')
			return usage_error("%s wants a make target, not '%s'", name, arg);
		cfg->target = arg;
		return 0;
	case OPT_IN_TREE:
		cfg->in_tree = 1;
		return 0;
	case OPT_BUILD_CMD:
		cfg->build_cmd = arg;
		return 0;
	case OPT_CLEAN_CMD:
		cfg->clean_cmd = arg;
		return 0;
	case OPT_WORK_DIR:
		cfg->work_dir = arg;
		return 0;
	case OPT_QUICK:
		cfg->quick = 1;
		return 0;
	case OPT_DRY_RUN:
		cfg->dry_run = 1;
		return 0;
	case OPT_QUIET:
		cfg->quiet = 1;
		return 0;
	case OPT_NO_PROGRESS:
		cfg->no_progress = 1;
		return 0;
	case OPT_JSON_SUMMARY:
		if (!*arg)
			return usage_error("%s wants a file name", name);
		cfg->json_summary = arg;
		return 0;
	case OPT_SCALE:
		if (parse_u64(arg, 1, 100000, &cfg->scale))
			return usage_error("%s wants a whole number from 1 to 100000, not '%s'",
					   name, arg);
		return 0;
	case OPT_JOBS:
		if (parse_u64(arg, 1, 4096, &cfg->jobs))
			return usage_error("%s wants a whole number from 1 to 4096, not '%s'",
					   name, arg);
		return 0;
	case OPT_LEAD_TIME:
		if (parse_double(arg, 0, 3600, &cfg->lead_time))
			return usage_error("%s wants seconds from 0 to 3600, not '%s'",
					   name, arg);
		return 0;
	case OPT_TIME:
		if (parse_double(arg, 0.1, 86400, &cfg->seconds))
			return usage_error("%s wants seconds from 0.1 to 86400, not '%s'",
					   name, arg);
		return 0;
	case OPT_OTHER:	/* and OPT_OUTPUT */
		if (cfg->cmd == CMD_PLOT)
			cfg->output = arg;
		else
			cfg->other_dir = arg;
		return 0;
	case OPT_LOAD_NICE:
		if (parse_i64(arg, -20, 19, &cfg->load_nice))
			return usage_error("%s wants a nice value from -20 to 19, not '%s'",
					   name, arg);
		return 0;
	case OPT_LOAD_SESSION:
		cfg->load_session = 1;
		return 0;
	case OPT_PROBE:
		cfg->probe = 1;
		return 0;
	case OPT_PROCS:
		if (parse_u64(arg, 2, 4096, &cfg->procs))
			return usage_error("%s wants a whole number from 2 to 4096, not '%s'",
					   name, arg);
		return 0;
	case OPT_CHUNKS:
		if (parse_u64(arg, 1, 4096, &cfg->chunks))
			return usage_error("%s wants a whole number from 1 to 4096, not '%s'",
					   name, arg);
		return 0;
	case OPT_CHUNK_SIZE:
		return size_option(&cfg->chunk_size, name, arg, 1, UINT64_C(1) << 30);
	case OPT_IO_SIZE:
		return size_option(&cfg->io_size, name, arg, 1 << 20, UINT64_C(1) << 50);
	case OPT_MEM_SIZE:
		return size_option(&cfg->mem_size, name, arg, 1 << 20, UINT64_C(1) << 50);
	case OPT_ROOT:
		cfg->list_root = arg;
		return 0;
	case OPT_SWAP:
		if (swap_parse(arg, &cfg->swap_size))
			return usage_error("%s wants zram or zram:SIZE (16M or more, suffix K, M, "
					   "G or T), not '%s'", name, arg);
		cfg->swap_zram = 1;
		return 0;
	case OPT_BASELINE:
		cfg->baseline = arg;
		return 0;
	case OPT_POOL_NOLOAD:
		cfg->pool_noload = 1;
		return 0;
	case OPT_STATS:
		cfg->stats = 1;
		return 0;
	case OPT_LATENCY:
		cfg->latency = 1;
		return 0;
	case OPT_COLUMNS:
		cfg->columns = 1;
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
	case OPT_CONFIGS:
		cfg->configs = arg;
		return 0;
	case OPT_VARY:
		if (cfg->vary)
			return usage_error("%s is given once, with every value: --vary KEY=V1,V2", name);
		cfg->vary = arg;
		return 0;
	case OPT_SEED:
		if (parse_u64(arg, 0, UINT64_MAX, &cfg->seed))
			return usage_error("%s wants a whole number, not '%s'", name, arg);
		return 0;
	case OPT_COMPARE:
		cfg->compare_id = arg;
		return 0;
	case OPT_REPORT:
		return 0;
	}
	return usage_error("internal error: option %d", id);
}

/* The option id names for cmd (-o is two options), else for any command. */
static const struct opt *opt_by_id(int id, enum cmd cmd)
{
	const struct opt *any = NULL;

	for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
		if (opts[i].id != id)
			continue;
		if (applies(&opts[i], cmd))
			return &opts[i];
		if (!any)
			any = &opts[i];
	}
	return any;
}

/* An option getopt did not take: another command's, or no option at all. */
static int unknown_option(const struct command *cmds, enum cmd cmd, int shortopt,
			  const char *word)
{
	const struct opt *o = NULL;
	const char *cname = "run";

	for (const struct command *c = cmds; c->name; c++)
		if (c->id == cmd)
			cname = c->name;
	if (shortopt) {
		o = opt_by_id(shortopt, cmd);
	} else if (!strncmp(word, "--", 2)) {
		size_t n = strcspn(word + 2, "=");

		for (size_t i = 0; i < ARRAY_SIZE(opts) && !o; i++)
			if (strlen(opts[i].name) == n && !strncmp(opts[i].name, word + 2, n))
				o = &opts[i];
	}
	if (o)
		return usage_error("option '%s' does not apply to the %s command", word, cname);
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
	struct option longopts[ARRAY_SIZE(opts) + 1];
	char shortopts[3 * ARRAY_SIZE(opts) + 3] = "+:";
	size_t nl = 0, ns = 2;
	int first, c, idx;

	defaults(cfg, argc, argv);
	cfg->cmd = (enum cmd)pick_command(argc, argv, cmds, &first);
	for (size_t i = 0; i < ARRAY_SIZE(opts); i++) {
		const struct opt *o = &opts[i];

		if (!applies(o, cfg->cmd))
			continue;
		longopts[nl++] = (struct option){ o->name,
			o->arg ? required_argument : no_argument, NULL, o->id };
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
	argc -= first - 1;
	argv += first - 1;
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, &idx)) != -1) {
		const struct opt *o;
		const char *bad = argv[optind - 1];

		if (c == 1) {
			cfg->args = xrealloc(cfg->args, (size_t)(cfg->nargs + 1) * sizeof(char *));
			cfg->args[cfg->nargs++] = optarg;
			continue;
		}
		if (c == ':')
			return usage_error("option '%s' needs a value", bad);
		if (c == '?')
			return unknown_option(cmds, cfg->cmd, optopt, bad);
		if (c == OPT_HELP) {
			cli_help(stdout, cmds);
			return -1;
		}
		if (c == OPT_VERSION) {
			printf("contest %s\n", PACKAGE_VERSION);
			return -1;
		}
		char shown[64];
		int r;

		o = opt_by_id(c, cfg->cmd);
		if (c < 256)
			snprintf(shown, sizeof(shown), "-%c/--%s", c, o->name);
		else
			snprintf(shown, sizeof(shown), "--%s", o->name);
		r = set_option(cfg, c, shown, optarg);

		if (r)
			return r;
	}
	for (; optind < argc; optind++) {
		cfg->args = xrealloc(cfg->args, (size_t)(cfg->nargs + 1) * sizeof(char *));
		cfg->args[cfg->nargs++] = argv[optind];
	}
	if (cfg->cmd == CMD_COMPARE && cfg->auto_runs)
		return usage_error("compare wants a number of rounds: -n auto does not apply to it");
	if (cfg->cmd != CMD_RUN && cfg->cmd != CMD_COMPARE)
		return 0;
	if (cfg->nresults_dirs > 1)
		return usage_error("run stores its results in one directory: give -d once");
	if ((c = check_auto_runs(cfg)))
		return c;
	return check_workload(cfg);
}
