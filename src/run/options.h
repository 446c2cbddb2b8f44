/* SPDX-License-Identifier: GPL-2.0-or-later */
/* options.h - what a command was asked to do: every option of the command
 * line, parsed (cli/cli.c fills it; the run, report and load code reads it). */
#ifndef CONTEST_OPTIONS_H
#define CONTEST_OPTIONS_H

#include <stdint.h>

#include "loads/registry.h"
#include "workload/workload.h"

enum cmd {
	CMD_RUN = 1 << 0,
	CMD_REPORT = 1 << 1,
	CMD_LIST = 1 << 2,
	CMD_LOAD = 1 << 3,
	CMD_ENV = 1 << 4,
	CMD_PLOT = 1 << 5,
	CMD_MERGE = 1 << 6,
	CMD_COMPARE = 1 << 7,	/* takes every option of run but -k, and its own */
	CMD_CAMPAIGN = 1 << 8,	/* takes every option of run but -k and -n, and its own */
	CMD_RELABEL = 1 << 9,
};

/* -n auto runs this many rounds before it looks at the spread. */
#define AUTO_MIN_RUNS 3

/* Everything the user asked for. */
struct config {
	enum cmd cmd;
	const char *label;      /* -k */
	uint64_t runs;          /* -n; with -n auto, the most rounds */
	int auto_runs;          /* -n auto: stop once precise enough */
	double precision;       /* --precision, % (0: not given) */
	uint64_t max_runs;      /* --max-runs (0: not given) */
	const char *results;    /* -d: the last one */
	char **results_dirs;    /* every -d given (report and plot read them all) */
	int nresults_dirs;
	const char *workload;   /* -w */
	const char *kconfig;    /* --kconfig: *config target or file */
	const char *target;     /* --target */
	int in_tree;            /* --in-tree */
	const char *build_cmd;  /* --build-cmd */
	const char *clean_cmd;  /* --clean-cmd */
	const char *work_dir;   /* --work-dir */
	int quick;              /* --quick */
	int dry_run;            /* --dry-run: the plan only */
	int quiet;              /* --quiet: errors and the final table only */
	int no_progress;        /* --no-progress: no live line, even on a terminal */
	const char *json_summary; /* --json-summary FILE */
	uint64_t scale;         /* --scale, 0 = default */
	uint64_t jobs;          /* -j, 0 = 4 x ncpus */
	double lead_time;       /* --lead-time, < 0 = default */
	const char *baseline;   /* --baseline */
	int pool_noload;        /* --pool-noload */
	int stats;              /* --stats */
	int columns;            /* --columns */
	int wide;               /* --wide: tables not wrapped at 72 columns */
	int header;             /* --header 1, --no-header -1, else 0 */
	const char *types;      /* --type: run types, comma-separated */
	int latency;            /* --latency */
	int delays;             /* --delays */
	int no_latency;         /* --no-latency */
	double alpha;           /* --alpha */
	const char *format;     /* --format */
	double seconds;         /* load -t */
	const char *other_dir;  /* -o of run, load and list */
	const char *output;     /* -o of plot */
	int64_t load_nice;      /* --load-nice */
	int load_session;       /* --load-session */
	int no_delays;          /* --no-delays: no taskstats, PSI or task_delayacct */
	int probe;              /* the latency probe's profile (enum probe_profile_id):
	                         * light by default, --probe=full, --no-probe none */
	int io_sync;            /* --io-sync */
	/* the loads' own options (--procs, --io-size...: loads/registry.h), by slot */
	union load_value load_values[LOAD_OPTIONS_MAX];
	int count;              /* list --count: also the sizes that walk a tree */
	int swap_zram;          /* --swap zram[:SIZE] */
	uint64_t swap_size;     /* its SIZE, 0 = default */
	const char *configs;    /* compare --configs FILE */
	const char *vary;       /* compare --vary KEY=V1,V2... */
	uint64_t seed;          /* compare --seed (default 0) */
	const char *compare_id; /* report --compare ID */
	int merge;              /* relabel --merge: into a label that has records */
	char **kernels;         /* campaign plan --kernel LABEL=SPEC, each */
	int nkernels;
	const char *method;     /* campaign --method */
	uint64_t boots;         /* campaign --boots (0: not given) */
	const char *until;      /* campaign --until PCT[,max=M] */
	uint64_t runs_per_boot; /* campaign --runs-per-boot (0: not given) */
	double settle;          /* campaign --settle, < 0 = default */
	const char *campaign_id; /* report --campaign ID */
	char **args;            /* run types (run) or labels (report) */
	int nargs;
	int argc;               /* the whole command line, for the records */
	char **argv;
};

/* What the workload reads of it, for workload_init() and workload_tree(). */
static inline struct workload_config workload_config_of(const struct config *cfg)
{
	return (struct workload_config){
		.workload = cfg->workload, .kconfig = cfg->kconfig, .target = cfg->target,
		.in_tree = cfg->in_tree, .build_cmd = cfg->build_cmd,
		.clean_cmd = cfg->clean_cmd, .work_dir = cfg->work_dir,
		.scale = cfg->scale, .quick = cfg->quick, .dry_run = cfg->dry_run,
	};
}

#endif
