/* SPDX-License-Identifier: GPL-2.0-or-later */
/* json.c - the report as json: every figure of every cell, the
 * rows' environment records whole. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "report/format.h"
#include "loads/runtype.h"
#include "results/latency.h"
#include "lib/util.h"

/* "name": "value" of every size the cell's load used, as stored (several
 * values joined by " / "). */
static void json_params(FILE *f, const struct report *r, size_t g, size_t t)
{
	size_t n, count, shown = 0;
	char **keys = report_param_keys(r, t, &n);

	for (size_t k = 0; k < n; k++) {
		char *val = report_cell_param(r, g, t, keys[k], 1, &count);

		if (!val)
			continue;
		fputs(shown++ ? ", " : "", f);
		json_str(f, keys[k]);
		fputs(": ", f);
		json_str(f, val);
		free(val);
	}
	free(keys);
}

static void json_cell(FILE *f, const struct report *r, size_t g, size_t t)
{
	const struct cell *c = report_cell(r, g, t);
	const char *names[RUN_METRICS_MAX];
	double v[RUN_METRICS_MAX];
	size_t nsys;

	fputs("        {\"run_type\": ", f);
	json_str(f, r->types[t]);
	fprintf(f, ", \"runs\": %zu, \"invalid_runs\": %zu,\n", c->n, c->invalid);
	for (const struct metric *m = run_metrics; m < run_metrics + run_nmetrics; m++) {
		if (!report_summary_of(c, m))
			continue;
		report_summary_values(report_summary_of(c, m), v);
		fprintf(f, "         \"%s\": {", m->key);
		json_nums(f, report_summary_fields, v, REPORT_NSUMMARY);
		fputs("},\n", f);
	}
	fputs("         \"ratio\": {\"value\": ", f);
	json_num(f, c->ratio);
	fputs(", \"ci_lo\": ", f);
	json_num(f, c->ratio_lo);
	fputs(", \"ci_hi\": ", f);
	json_num(f, c->ratio_hi);
	fprintf(f, ", \"left_out\": %zu", c->unpaired);
	fputs("},\n         \"tests\": {\"time\": ", f);
	json_test(f, &c->t_time);
	fputs(", \"loads\": ", f);
	json_test(f, &c->t_loads);
	fputs("},\n         \"time_change_pct\": ", f);
	json_num(f, c->time_change);
	fputs(", \"time_detectable_pct\": ", f);
	json_num(f, c->time_detectable);
	fputs(",\n         \"system\": {", f);
	nsys = report_system_values(c, names, v);
	json_nums(f, names, v, nsys);
	fputs("},\n         \"load\": {", f);
	json_params(f, r, g, t);
	fputs("}}", f);
}

/* Every figure of every cell, the rows' environment records whole. */
static void print_json(FILE *f, const struct report *r, const struct report_opts *o)
{
	(void)o;
	fprintf(f, "{\n  \"schema\": \"%s\",\n  \"contest_version\": \"%s\",\n", REPORT_SCHEMA,
		PACKAGE_VERSION);
	fprintf(f, "  \"confidence_level\": %g,\n  \"alpha\": %g,\n", REPORT_LEVEL, r->alpha);
	fputs("  \"methods\": {\"interval\": \"Student t\", \"ratio_interval\": \"Fieller\", "
	      "\"test\": \"Welch\", \"adjustment\": \"Holm\"},\n  \"ratio_base\": ", f);
	json_str(f, r->ratio_base);
	fputs(",\n  \"ratio_noload\": ", f);
	json_str(f, report_ratio_noload(r));
	fputs(",\n  \"test_base\": ", f);
	json_str(f, r->test_base);
	fputs(",\n  \"run_types\": [", f);
	for (size_t t = 0; t < r->ntypes; t++) {
		const struct runtype *rt = runtype_find(r->types[t]);

		fputs(t ? ", {\"name\": " : "{\"name\": ", f);
		json_str(f, r->types[t]);
		fputs(", \"unit\": ", f);
		json_str(f, rt ? rt->unit : NULL);
		fputc('}', f);
	}
	fputs("],\n  \"rows\": [", f);
	for (size_t g = 0; g < r->nrows; g++) {
		const struct report_row *row = &r->rows[g];
		const struct cell *nl = report_noload_of(r, g);
		int first = 1;

		fputs(g ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
		json_str(f, row->name);
		fputs(", \"label\": ", f);
		json_str(f, row->label);
		fputs(", \"workload\": ", f);
		json_str(f, row->identity);
		fprintf(f, ", \"load_session\": %s, \"probe\": \"%s\", \"probe_work_ns\": ",
			row->load_session ? "true" : "false", probe_profiles[row->probe].name);
		if (row->probe)
			fprintf(f, "[%" PRId64 ", %" PRId64 ", %" PRId64 "]", row->probe_work_ns[0],
				row->probe_work_ns[1], row->probe_work_ns[2]);
		else
			fputs("null", f);
		fprintf(f, ", \"baseline\": %s,\n     \"noise\": {\"cv\": ",
			row->reference ? "true" : "false");
		json_num(f, nl && nl->n >= 2 ? summary_cv(&nl->time) : NAN);
		fprintf(f, ", \"runs\": %zu},\n     \"environment\": [", nl ? nl->n : 0);
		for (size_t e = 0; e < row->nenvs; e++) {
			fputs(e ? ", {" : "{", f);
			for (size_t k = 0; k < row->envs[e]->n; k++) {
				if (k)
					fputs(", ", f);
				json_str(f, row->envs[e]->kv[k].key);
				fputs(": ", f);
				json_str(f, row->envs[e]->kv[k].val);
			}
			fputc('}', f);
		}
		fputs("],\n     \"cells\": [", f);
		for (size_t t = 0; t < r->ntypes; t++) {
			if (!report_cell(r, g, t)->n && !report_cell(r, g, t)->invalid)
				continue;
			fputs(first ? "\n" : ",\n", f);
			first = 0;
			json_cell(f, r, g, t);
		}
		fputs("]}", f);
	}
	fputs("\n  ]\n}\n", f);
}

const struct report_printer report_format_json = { "json", print_json };
