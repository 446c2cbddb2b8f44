/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report-keyvalue.c - the report as "key: value" lines, one per figure, the
 * shape the parse scripts of test engines (LKP) emit: numbers only, keys
 * without spaces, a figure that does not exist left out.  By default the
 * measurements only (Time, CPU%, Loads, LCPU%, Ratio), which an engine
 * compares from job to job; the statistics derived from them (spread,
 * intervals, tests) with --stats, the system figures with --columns, as in
 * the tables. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/latency.h"
#include "report/format.h"
#include "lib/util.h"

/* The version of the keys (docs/formats.md), the first line. */
#define KEYVALUE_VERSION 2

/* The cell's summaries, as report_metrics orders them, with their units. */
static const char *const metric_keys[REPORT_NMETRICS] = {
	"time_s", "cpu_pct", "loads", "lcpu_pct",
};

/* A key: PREFIX TYPE "." NAME SUFFIX, with PREFIX the row's name and a dot
 * when the report has several rows. */
struct key {
	const char *row;     /* the row's name made fit for a key, or "" */
	const char *type;
};

/* v as the json report writes it (10 significant digits), without an
 * exponent: 2.5e-07 is 0.00000025, 1.5e+12 is 1500000000000. */
void report_put_fixed(FILE *f, double v)
{
	char g[40], digits[40], *e, *p;
	size_t n = 0;
	long exp;

	snprintf(g, sizeof(g), "%.10g", v);
	e = strchr(g, 'e');
	if (!e) {
		fputs(g, f);
		return;
	}
	exp = strtol(e + 1, NULL, 10);
	*e = '\0';
	p = g;
	if (*p == '-')
		fputc(*p++, f);
	for (; *p; p++)		/* the mantissa's digits, d.ddd: point after the first */
		if (*p != '.')
			digits[n++] = *p;
	digits[n] = '\0';
	if (exp < 0) {
		fputs("0.", f);
		for (long i = -1; i > exp; i--)
			fputc('0', f);
		fputs(digits, f);
	} else {
		for (long i = 0; i <= exp || i < (long)n; i++) {
			if (i == exp + 1)
				fputc('.', f);
			fputc(i < (long)n ? digits[i] : '0', f);
		}
	}
}

static void line(FILE *f, const struct key *k, const char *name, const char *suffix, double v)
{
	if (isnan(v) || isinf(v))
		return;
	fprintf(f, "%s%s%s.%s%s: ", k->row, k->row[0] ? "." : "", k->type, name, suffix);
	report_put_fixed(f, v);
	fputc('\n', f);
}

/* A row's name as a key: every byte but letters, digits, '_', '.' and '-'
 * replaced by '_'. */
char *report_key_name(const char *name)
{
	char *s = xstrdup(name);

	for (char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("_.-", *p)))
			*p = '_';
	return s;
}

/* A test's figures after the metric's key; none when it was not made. */
static void test_lines(FILE *f, const struct key *k, const char *metric,
		       const struct sigtest *t)
{
	double v[REPORT_NTEST];

	if (t->untested)
		return;
	report_test_values(t, v);
	for (size_t i = 0; i < REPORT_NTEST; i++) {
		char *suffix = xasprintf("_%s", report_test_fields[i]);

		line(f, k, metric, suffix, v[i]);
		free(suffix);
	}
	line(f, k, metric, "_significant", t->significant);
}

static void cell_lines(FILE *f, const struct report *r, size_t g, size_t t, const char *row,
		       const struct report_opts *o)
{
	const struct cell *c = report_cell(r, g, t);
	const struct key k = { row, r->types[t] };
	double v[REPORT_NSUMMARY];

	if (o->stats)
		line(f, &k, "runs", "", (double)c->n);
	for (size_t m = 0; m < REPORT_NMETRICS; m++) {
		const struct summary *s = report_metric(c, m);

		report_summary_values(s, v);
		line(f, &k, metric_keys[m], "", v[0]);
		for (size_t i = 1; o->stats && i < REPORT_NSUMMARY; i++) {
			char *suffix = xasprintf("_%s", report_summary_fields[i]);

			line(f, &k, metric_keys[m], suffix, v[i]);
			free(suffix);
		}
		if (o->stats)
			line(f, &k, metric_keys[m], "_stddev%", summary_cv(s) * 100);
	}
	line(f, &k, "ratio", "", c->ratio);
	if (o->stats) {
		line(f, &k, "ratio", "_ci_lo", c->ratio_lo);
		line(f, &k, "ratio", "_ci_hi", c->ratio_hi);
		line(f, &k, "ratio", "_left_out", (double)c->unpaired);
		test_lines(f, &k, metric_keys[0], &c->t_time);
		test_lines(f, &k, metric_keys[2], &c->t_loads);
	}
	report_system_values(c, v);
	for (size_t i = 0; o->columns && i < REPORT_NSYSTEM; i++)
		line(f, &k, report_system_fields[i], "", v[i]);
}

/* The version, then every cell's figures, rows in the tables' order, cells
 * in suite order. */
static void print_keyvalue(FILE *f, const struct report *r, const struct report_opts *o)
{
	fprintf(f, "keyvalue_version: %d\n", KEYVALUE_VERSION);
	for (size_t g = 0; g < r->nrows; g++) {
		char *row = r->nrows > 1 ? report_key_name(r->rows[g].name) : xstrdup("");

		for (size_t t = 0; t < r->ntypes; t++)
			if (report_cell(r, g, t)->n)
				cell_lines(f, r, g, t, row, o);
		free(row);
	}
}

/* The version, then per row, run type and probe task, keys
 * ROW.TYPE.TASK.FIGURE (ROW. as in the main keys) and the p99's test. */
void report_latency_keyvalue(FILE *f, const struct latency *l)
{
	const struct report *r = l->r;

	fprintf(f, "keyvalue_version: %d\n", KEYVALUE_VERSION);
	for (size_t g = 0; g < r->nrows; g++) {
		char *row = r->nrows > 1 ? report_key_name(r->rows[g].name) : xstrdup("");

		for (size_t t = 0; t < r->ntypes; t++) {
			const struct key k = { row, r->types[t] };

			for (size_t i = 0; latency_shown(l, g, t) && i < PROBE_TASKS; i++) {
				const struct latency_cell *a = latency_cell(l, g, t, i);
				static const char *const names[] = { "runs", "wakeups", "p50_ms",
					"p90_ms", "p99_ms", "p999_ms", "max_ms", "miss_pct" };
				double v[] = { (double)a->n, (double)a->wakeups, a->p50, a->p90,
					       a->p99, a->p999, a->max, a->miss };
				char *p99 = xasprintf("%s.p99", probe_tasks[i].name);

				for (size_t n = 0; n < ARRAY_SIZE(v); n++) {
					char *name = xasprintf("%s.%s", probe_tasks[i].name, names[n]);

					line(f, &k, name, "", v[n]);
					free(name);
				}
				test_lines(f, &k, p99, &a->t);
				free(p99);
			}
		}
		free(row);
	}
}

const struct report_printer report_format_keyvalue = { "keyvalue", print_keyvalue };
