/* SPDX-License-Identifier: GPL-2.0-or-later */
/* keyvalue.c - the report as "key: value" lines, one per figure, the
 * shape the parse scripts of test engines (LKP) emit: numbers only, keys
 * without spaces, a figure that does not exist left out.  By default the
 * measurements only (Time, CPU%, Loads, LCPU%, Ratio), which an engine
 * compares from job to job; the statistics derived from them (spread,
 * intervals, tests) with --stats, the system figures with --columns, as in
 * the tables. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "report/format.h"
#include "lib/util.h"

/* A figure's key: with its unit where the table gives one. */
static const char *kv_key(const char *key)
{
	const struct metric *m = run_metric(key);

	return m->kv ? m->kv : m->key;
}

static void cell_lines(FILE *f, const struct report *r, size_t g, size_t t, const char *row,
		       const struct report_opts *o)
{
	const struct cell *c = report_cell(r, g, t);
	const struct keyvalue_key k = { row, r->types[t] };
	const char *names[RUN_METRICS_MAX];
	double v[RUN_METRICS_MAX];
	size_t nsys;

	if (o->stats)
		keyvalue_line(f, &k, "runs", "", (double)c->n);
	keyvalue_line(f, &k, "invalid_runs", "", (double)c->invalid);
	for (const struct metric *m = run_metrics; m < run_metrics + run_nmetrics; m++) {
		const struct summary *s = report_summary_of(c, m);

		if (!s)
			continue;
		report_summary_values(s, v);
		keyvalue_line(f, &k, kv_key(m->key), "", v[0]);
		for (size_t i = 1; o->stats && i < REPORT_NSUMMARY; i++) {
			char *suffix = xasprintf("_%s", report_summary_fields[i]);

			keyvalue_line(f, &k, kv_key(m->key), suffix, v[i]);
			free(suffix);
		}
		if (o->stats)
			keyvalue_line(f, &k, kv_key(m->key), "_stddev%", summary_cv(s) * 100);
	}
	keyvalue_line(f, &k, "ratio", "", c->ratio);
	if (o->stats) {
		keyvalue_line(f, &k, "ratio", "_ci_lo", c->ratio_lo);
		keyvalue_line(f, &k, "ratio", "_ci_hi", c->ratio_hi);
		keyvalue_line(f, &k, "ratio", "_left_out", (double)c->unpaired);
		keyvalue_test(f, &k, kv_key("time"), &c->t_time);
		keyvalue_line(f, &k, kv_key("time"), "_detectable%", c->time_detectable);
		keyvalue_test(f, &k, kv_key("loads"), &c->t_loads);
	}
	nsys = report_system_values(c, names, v);
	for (size_t i = 0; o->columns && i < nsys; i++)
		keyvalue_line(f, &k, kv_key(names[i]), "", v[i]);
}

/* The version, then every cell's figures, rows in the tables' order, cells
 * in suite order. */
static void print_keyvalue(FILE *f, const struct report *r, const struct report_opts *o)
{
	fprintf(f, "keyvalue_version: %d\n", REPORT_KEYVALUE_VERSION);
	for (size_t g = 0; g < r->nrows; g++) {
		char *row = r->nrows > 1 ? report_key_name(r->rows[g].name) : xstrdup("");

		for (size_t t = 0; t < r->ntypes; t++)
			if (report_cell(r, g, t)->n || report_cell(r, g, t)->invalid)
				cell_lines(f, r, g, t, row, o);
		free(row);
	}
}

const struct report_printer report_format_keyvalue = { "keyvalue", print_keyvalue };
