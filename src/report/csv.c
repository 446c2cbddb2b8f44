/* SPDX-License-Identifier: GPL-2.0-or-later */
/* csv.c - the report as csv (RFC 4180): one line per row and run
 * type, every figure of the cell, then the row's environment. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/format.h"
#include "lib/util.h"

/* One line per row and run type with runs (invalid ones too), every figure of the cell, then
 * the row's environment (a row's several sessions' values joined by " / "). */
static void print_csv(FILE *f, const struct report *r, const struct report_opts *o)
{
	size_t nkeys, nparams;
	char **keys = report_env_keys(r, &nkeys);
	char **params = report_param_keys(r, r->ntypes, &nparams);
	const char *names[RUN_METRICS_MAX];
	double v[RUN_METRICS_MAX];
	size_t nsys = report_system_values(NULL, names, v);
	/* the figures tested, t_time and t_loads */
	static const char *const tested[] = { "time", "loads" };

	(void)o;

	fputs("schema,row,label,workload,load_session,run_type,runs,invalid_runs", f);
	for (const struct metric *m = run_metrics; m < run_metrics + run_nmetrics; m++)
		for (size_t i = 0; m->agg == METRIC_SUMMARY && i < REPORT_NSUMMARY; i++)
			fprintf(f, ",%s_%s", m->key, report_summary_fields[i]);
	fputs(",ratio,ratio_ci_lo,ratio_ci_hi,ratio_base,ratio_noload,ratio_left_out,test_base,"
	      "alpha", f);
	for (size_t m = 0; m < ARRAY_SIZE(tested); m++) {
		const char *name = tested[m];

		fprintf(f, ",%s_t,%s_df,%s_p,%s_p_holm,%s_significant,%s_untested", name, name,
			name, name, name, name);
	}
	fputs(",time_change_pct,time_detectable_pct,noise_cv,noise_runs", f);
	for (size_t i = 0; i < nsys; i++)
		fprintf(f, ",%s", names[i]);
	for (size_t k = 0; k < nkeys; k++) {
		char *h = xasprintf("env_%s", keys[k]);

		csv_str(f, h, 0);
		free(h);
	}
	for (size_t k = 0; k < nparams; k++) {
		char *h = xasprintf("load_%s", params[k]);

		csv_str(f, h, 0);
		free(h);
	}
	fputc('\n', f);
	for (size_t g = 0; g < r->nrows; g++) {
		const struct report_row *row = &r->rows[g];
		const struct cell *nl = report_noload_of(r, g);

		for (size_t t = 0; t < r->ntypes; t++) {
			const struct cell *c = report_cell(r, g, t);
			char runs[24];

			if (!c->n && !c->invalid)
				continue;
			snprintf(runs, sizeof(runs), "%zu", c->n);
			csv_str(f, REPORT_SCHEMA, 1);
			csv_str(f, row->name, 0);
			csv_str(f, row->label, 0);
			csv_str(f, row->identity, 0);
			csv_str(f, row->load_session ? "1" : "0", 0);
			csv_str(f, r->types[t], 0);
			csv_str(f, runs, 0);
			fprintf(f, ",%zu", c->invalid);
			for (const struct metric *m = run_metrics; m < run_metrics + run_nmetrics;
			     m++) {
				if (!report_summary_of(c, m))
					continue;
				report_summary_values(report_summary_of(c, m), v);
				for (size_t i = 0; i < REPORT_NSUMMARY; i++)
					csv_num(f, v[i]);
			}
			csv_num(f, c->ratio);
			csv_num(f, c->ratio_lo);
			csv_num(f, c->ratio_hi);
			csv_str(f, r->ratio_base ? r->ratio_base : row->label, 0);
			csv_str(f, report_ratio_noload(r), 0);
			fprintf(f, ",%zu", c->unpaired);
			csv_str(f, r->test_base, 0);
			csv_num(f, r->alpha);
			csv_test(f, &c->t_time);
			csv_test(f, &c->t_loads);
			csv_num(f, c->time_change);
			csv_num(f, c->time_detectable);
			csv_num(f, nl && nl->n >= 2 ? summary_cv(&nl->time) : NAN);
			fprintf(f, ",%zu", nl ? nl->n : 0);
			report_system_values(c, names, v);
			for (size_t i = 0; i < nsys; i++)
				csv_num(f, v[i]);
			for (size_t k = 0; k < nkeys; k++) {
				size_t count;
				char *val = report_row_value(r, row, keys[k], 1, &count);

				csv_str(f, val ? val : "", 0);
				free(val);
			}
			for (size_t k = 0; k < nparams; k++) {
				size_t count;
				char *val = report_cell_param(r, g, t, params[k], 1, &count);

				csv_str(f, val ? val : "", 0);
				free(val);
			}
			fputc('\n', f);
		}
	}
	free(keys);
	free(params);
}

const struct report_printer report_format_csv = { "csv", print_csv };
