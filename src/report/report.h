/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report.h - the contest tables: the report's model (report.c: cells from
 * stored runs, their statistics) and the ways to print it (the formats, one
 * printer a file, listed in printers.c; the latency and delays tables). */
#ifndef CONTEST_REPORT_H
#define CONTEST_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "results/run.h"
#include "results/stats.h"
#include "results/store.h"

/* The version of the csv and json layouts (docs/formats.md). */
#define REPORT_SCHEMA "contest-report/2"
/* The confidence level of every interval in a report. */
#define REPORT_LEVEL 0.95
/* The power at which a report gives the smallest change its tests detect. */
#define REPORT_POWER 0.8

enum report_format { REPORT_TEXT, REPORT_MARKDOWN, REPORT_CSV, REPORT_JSON, REPORT_KEYVALUE };

/* "text", "markdown", "csv", "json" or "keyvalue": 0, else -1. */
int report_format_parse(const char *name, enum report_format *out);

struct report_opts {
	const char *baseline;   /* Ratio over its noload, tests against it; or NULL */
	int pool_noload;        /* Ratio over the noload of all the label's sessions */
	char *const *labels;    /* rows to show, or all when nlabels == 0 */
	size_t nlabels;
	double alpha;           /* significance level; 0 means 0.05 */
	int stats;              /* spread and intervals in the tables */
	int columns;            /* the system figures in the tables */
	int latency;            /* the latency probe's tables instead */
	int delays;             /* the delays tables instead (delays.c) */
	int no_latency;         /* no line of the probe's p99s under each table */
	const char *types;      /* run types to show, comma-separated; NULL: all */
	int header;             /* what the runs share above the tables: 1, -1 not,
	                         * 0 in markdown only */
	char *const *dirs;      /* the results directories read, for messages */
	size_t ndirs;
	int wide;               /* text and markdown tables as wide as their columns,
	                         * not wrapped at a mail's 72 */
	enum report_format format;
};

/* Welch's test of one figure of a cell against the baseline's. */
struct sigtest {
	const char *untested;   /* why no test was made, or NULL */
	struct welch w;
	double p_holm;          /* adjusted across the run types of the row */
	int significant;        /* p_holm < alpha */
};

/* The summaries a cell holds: at least the METRIC_SUMMARY rows of
 * run_metrics (report.c checks). */
#define CELL_SUMMARIES 4

/* A row's figures in one run type's table. */
struct cell {
	size_t n;                              /* valid runs; 0: not in this table */
	size_t invalid;                        /* invalid runs of the row and type (leftout.c) */
	/* The summaries of its runs' figures (results/run.h: the rows of
	 * run_metrics whose agg is METRIC_SUMMARY, in its order; the first four
	 * named): seconds, %, units, % */
	union {
		struct summary sum[CELL_SUMMARIES];
		struct {
			struct summary time, cpu, loads, lcpu;
		};
	};
	double time_ci;                        /* half-width of the mean Time's CI */
	double ratio, ratio_lo, ratio_hi;      /* NaN when there is none */
	size_t unpaired;                       /* runs out of the Ratio: no noload in their session */
	int has_load;                          /* the run type runs a load */
	struct sigtest t_time, t_loads;        /* t_loads only with a load */
	double time_change;                    /* % of the test base's mean Time; NaN: none */
	size_t base_n;                         /* the test base's runs beside it: with fewer
	                                        * than 2 on a side, Change is shown n/a */
	double time_detectable;                /* the least change in Time its test finds with
	                                        * REPORT_POWER at Holm's alpha / m (m: the row's
	                                        * Time tests), in the same %; NaN: no test */
	int base;                              /* the cell of the row tested against */
	/* Every other figure the report shows (the system figures; the
	 * compile's seconds waiting for a CPU and for block I/O, tables only),
	 * by its row of run_metrics: the means over the runs that recorded it,
	 * NaN when none did (or, for Loads/s, without a load). */
	double fig[RUN_METRICS_MAX];
};

/* A cell's summary of figure m (a row of run_metrics), NULL when the
 * report does not summarise it. */
const struct summary *report_summary_of(const struct cell *c, const struct metric *m);
/* A cell's figure m (a row of run_metrics the report shows but does not
 * summarise): NaN where it has none. */
double report_fig_of(const struct cell *c, const struct metric *m);

/* A row: one label in one configuration (workload identity and whether the
 * loads had a session of their own).  Runs of different rows are never
 * averaged together. */
struct report_row {
	const char *label;
	const char *identity;
	int load_session;
	int probe;                   /* the latency probe's profile its runs ran
	                              * (enum probe_profile_id; 0: none) */
	int64_t probe_work_ns[3];    /* and its work per period, by task (a profile
	                              * whose figures changed is another probe) */
	const char *host;            /* its machine (run.host) where the label's runs
	                              * come from several, else NULL: any */
	const char *kernel;          /* its kernel (run.kernel) where the label's runs
	                              * come from several, else NULL: any */
	char *name;                  /* the label, "label (k)", "label@HOSTNAME",
	                              * "label@RELEASE", "label@RELEASE#BUILD" */
	const struct record **envs;  /* its sessions' environment records */
	size_t nenvs;
	size_t nsessions;            /* sessions with valid runs in the row */
	size_t unpaired;             /* runs out of its Ratios: no noload in their session */
	int reference;               /* the row the others are tested against (the
	                              * tables print it first, marked) */
};

/* Whose runs the rows are set beside: a label, or one row of it (a label
 * whose runs split into rows by machine or kernel, pinned to that row's). */
struct report_base {
	const char *label;
	const char *host;            /* NULL: matched to each row's where it can be */
	const char *kernel;          /* likewise */
};

struct report {
	char **types;                /* run types with data, in suite order */
	size_t ntypes;
	struct report_row *rows;     /* the test base's first, then labels sorted
	                              * by version */
	size_t nrows;
	struct cell *cells;          /* [row * ntypes + type] */
	const struct store *st;      /* the runs the report was built from */
	const char *ratio_base;      /* whose noload a Ratio divides by (a label or
	                              * a row's name); NULL: own */
	int pool_noload;             /* the own noload of every session, pooled */
	const char *test_base;       /* the label, or row's name, the rows are
	                              * tested against */
	struct report_base ratio_ref, test_ref; /* their runs */
	double alpha;
	size_t compared;             /* rows tested against test_base */
	size_t tests;                /* tests made */
	size_t few, flat;            /* not made: < 2 runs on a side; no spread */
	size_t unmatched;            /* rows without ratio_base's noload */
	char **labels;               /* (the labels shown) */
	size_t nlabels;
};

/* Whether row g is the base's own row (its label, and its machine and
 * kernel where the base is pinned to one). */
int report_base_is_row(const struct report_base *b, const struct report_row *g);
/* The row row g is tested against in the latency and delays tables: the
 * test base's of the same workload, loads in contest's session, probe on
 * as g's; -1 when there is none. */
ptrdiff_t report_test_row(const struct report *r, size_t g);
/* A test not made, and why. */
void report_untested(struct sigtest *t, const char *why);
/* A cell's figure, its runs a, against the test base's, b: Welch's test
 * into t, counted in *tests; or t untested, `few` (fewer than 2 runs on a
 * side, counted in *nfew) or "no spread on either side" (*flat). */
void report_welch(struct sigtest *t, const struct summary *a, const struct summary *b,
		  const char *few, size_t *tests, size_t *nfew, size_t *flat);
/* Holm's adjustment of one figure's tests across a row's run types: s[t]
 * is run type t's, NULL for a cell with no runs.  Each test made gets its
 * p_holm and whether it is significant at alpha; the others stay untested. */
void report_holm(struct sigtest *const *s, size_t ntypes, double alpha);
/* Whether a run type runs a load beside the workload (a type this contest
 * does not know, from other records, is taken to). */
int report_type_has_load(const char *type);

/* What the rows were measured with (values.c).  Every key of the rows'
 * environment records, in first-seen order; every name of the loads' sizes
 * in the runs of type t (every type: t == ntypes).  The caller frees the
 * array, not the keys. */
char **report_env_keys(const struct report *r, size_t *n);
char **report_param_keys(const struct report *r, size_t t, size_t *n);
/* A row's values of key, each distinct one once, joined by " / ", how many
 * in *count; NULL when there is none.  Raw: as stored, absent ones left
 * out; else as compared and shown.  The caller frees it. */
char *report_row_value(const struct report *r, const struct report_row *g, const char *key,
		       int raw, size_t *count);
/* The same for a size the load of a row's runs of type t used. */
char *report_cell_param(const struct report *r, size_t g, size_t t, const char *key, int raw,
			size_t *count);

/* The statistics of every shown cell.  Returns 0, or -1 with the reason in why
 * (nothing to show, a --baseline without noload), or -2 with the reason in why
 * when --baseline names no label or row of the store (the command line is
 * wrong). */
int report_build(const struct store *st, const struct report_opts *o, struct report *r,
		 char *why, size_t len);
const struct cell *report_cell(const struct report *r, size_t row, size_t type);
/* The noload cell of a row, or NULL. */
const struct cell *report_noload_of(const struct report *r, size_t g);
/* Whether run u is one of row g's: a valid run of its label, workload and
 * configuration (loads' session, probe). */
int report_row_has(const struct report_row *g, const struct run *u);
/* Whether rows a and b ran the same latency probe: profile and work. */
int report_same_probe(const struct report_row *a, const struct report_row *b);
/* Whose noload the Ratios divide by, in words, where that matters: a row
 * has several sessions (or sessions without a noload), no --baseline.
 * NULL when every way gives the same Ratios. */
const char *report_noload_scope(const struct report *r);
void report_free(struct report *r);
/* Why the tests not made were not: fewer than 2 runs, no spread, or both. */
const char *report_untested_why(const struct report *r);

/* Whether the last session of label on workload identity had one valid
 * noload run, on which every Ratio of it rests (the plan of the next suite
 * then says to run more). */
int report_last_one_noload(const struct store *st, const char *label, const char *identity);

/* Build, then print in o->format: every run type with data, in suite order,
 * one table each, then the notes.  Returns 0, or report_build()'s -1 or
 * -2, or -1, with the reason in why. */
int report_print(FILE *f, const struct store *st, const struct report_opts *o,
		 char *why, size_t len);

/* The latency probe's figures (latency.c): one task's in one row's
 * runs of one run type. */
struct latency_cell {
	size_t n;               /* runs with the probe */
	uint64_t wakeups;
	double p50, p90, p99, p999, max; /* ms, over the runs' wakeups merged */
	double miss;            /* % of periods whose work missed the next deadline */
	double spread[5];       /* of p50, p90, p99, p99.9, max: the runs' own figures'
	                         * spread as a share of the figure (e^sd - 1, sd that
	                         * of their logs); NaN from fewer than 2 runs */
	struct summary logp99;  /* of the runs' own p99s, log(ns) */
	struct sigtest t;       /* of logp99 against the test base's row */
};

struct latency {
	const struct report *r;
	struct latency_cell *lat;       /* [(row * ntypes + type) * PROBE_TASKS + task] */
	size_t tests, few, flat, compared;
};

/* The figures of every row with the probe and run type, and their tests (Welch
 * on the log of the runs' p99s against the test base's row of the same
 * workload, Holm across run types); returns 0, or -1 with the reason in why
 * when no run of the report ran the probe (nothing to free). */
int latency_build(const struct report *r, struct latency *l, char *why, size_t len);
const struct latency_cell *latency_cell(const struct latency *l, size_t g, size_t t, size_t task);
/* Whether row g has runs of type t with the probe. */
int latency_shown(const struct latency *l, size_t g, size_t t);
void latency_free(struct latency *l);
/* Why the tests not made were not. */
const char *latency_untested_why(const struct latency *l);

/* Under run type t's main table (text, or markdown: a paragraph), one
 * line: each row's audio and video p99 in ms, wrapped at width (0: never);
 * nothing when no row of it ran the probe. */
void latency_p99_line(FILE *f, const struct latency *l, size_t t, int markdown, int width);

/* The latency probe's tables of a built report (latency.c) in format; returns
 * 0, or -1 with the reason in why when no run shown ran the probe. */
int report_latency_print(FILE *f, const struct report *r, enum report_format format,
			 char *why, size_t len);

/* Where the compile's time went (delays.c): a table per run type, in format.
 * Returns 0, or -1 with the reason in why when no run shown recorded it. */
int report_delays_print(FILE *f, const struct report *r, enum report_format format,
			char *why, size_t len);

/* The Loads cell: whole units from 10 up; below that one decimal, dropped
 * when it is 0, so that a slow load shows 0.4 rather than 0 and a table of
 * whole numbers reads as the 2002 ones did (format.c). */
void format_loads(double loads, char *buf, size_t len);

#endif
