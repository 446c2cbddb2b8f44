/* SPDX-License-Identifier: GPL-2.0-or-later */
/* delays.c - `contest report --delays`: where the compile's time went.
 *
 * For every run type, a row per row of the main tables with runs of it: the
 * compile's Time, then its tasks' seconds (taskstats.c, summed over every
 * task of the build, so they can exceed Time on SMP) of CPU, waiting for a
 * CPU, for block I/O, for swap-in, in reclaim (direct reclaim, thrashing and
 * compaction), and the PSI `some`/`full` shares of Time of cpu, io and
 * memory, means over the row's runs that recorded them.
 *
 * Significance, as for Time: every row against the test base's row of the
 * same workload (report_test_row()), per figure, Welch's test on the runs'
 * seconds, Holm's adjustment across the run types of the row; a '*' follows
 * a figure that differs.  Text and markdown print the tables; csv one line
 * per row and run type; json one document (schema contest-delays/1);
 * keyvalue a line per figure. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "results/run.h"
#include "lib/util.h"

#define DELAYS_SCHEMA "contest-delays/1"
/* Why a run without a reason has no figures. */
#define OLD "recorded before contest measured them"

/* The figures, per run, in seconds. */
enum { F_CPU, F_WAIT, F_BLKIO, F_SWAPIN, F_RECLAIM, NFIGS };
static const char *const fig_key[NFIGS] = { "cpu_s", "wait_s", "blkio_s", "swapin_s",
					   "reclaim_s" };
static const char *const psi_key[PSI_FIGS] = {
	"psi_cpu_some_pct", "psi_cpu_full_pct", "psi_io_some_pct", "psi_io_full_pct",
	"psi_memory_some_pct", "psi_memory_full_pct",
};

struct delay_cell {
	size_t runs;            /* valid runs */
	size_t n;               /* of them with delays */
	size_t npsi;            /* with PSI */
	int64_t tasks;          /* the build's tasks, over the runs with delays */
	int64_t bad;            /* of them with an impossible figure, left out */
	const char *scope;      /* PSI's: "cgroup", "machine" or "mixed" */
	const char *absent;     /* why a run had no delays, or NULL */
	const char *psi_absent; /* why a run had no PSI, or NULL */
	struct summary time, fig[NFIGS];
	double psi[PSI_FIGS];   /* % of Time, NaN absent */
	struct sigtest t[NFIGS];
};

struct delays_report {
	const struct report *r;
	struct delay_cell *cells;       /* [row * ntypes + type] */
	size_t tests, few, flat;
};

static struct delay_cell *cell_at(const struct delays_report *d, size_t g, size_t t)
{
	return &d->cells[g * d->r->ntypes + t];
}

static double run_fig(const struct run *u, size_t f)
{
	const struct task_delays *b = &u->build_delays;
	int64_t ns[NFIGS] = { b->cpu_ns, b->wait_ns, b->blkio_ns, b->swapin_ns,
			      b->reclaim_ns + b->thrash_ns + b->compact_ns };

	return (double)ns[f] / NS_PER_SEC;
}

static void fill(const struct report *r, size_t g, size_t t, struct delay_cell *c)
{
	const struct store *st = r->st;
	double *v = xcalloc(NFIGS * (st->nruns + 1), sizeof(*v));
	double *time = xcalloc(st->nruns + 1, sizeof(*time));
	double psi[PSI_FIGS] = { 0 };
	size_t npsi[PSI_FIGS] = { 0 };

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < st->nruns; i++) {
		const struct run *u = &st->runs[i];

		if (strcmp(u->type, r->types[t]) || !report_row_has(&r->rows[g], u))
			continue;
		c->runs++;
		if (u->build_delays.tasks >= 0) {
			time[c->n] = (double)u->elapsed_ns / NS_PER_SEC;
			for (size_t f = 0; f < NFIGS; f++)
				v[f * (st->nruns + 1) + c->n] = run_fig(u, f);
			c->tasks += u->build_delays.tasks;
			c->bad += u->build_delays.bad;
			c->n++;
		} else if (u->delays_absent) {
			c->absent = u->delays_absent;
		}
		if (u->psi_scope) {
			c->npsi++;
			c->scope = !c->scope || !strcmp(c->scope, u->psi_scope) ? u->psi_scope
										 : "mixed";
			for (size_t k = 0; k < PSI_FIGS; k++)
				if (u->psi_us[k] >= 0) {
					psi[k] += (double)u->psi_us[k] * 1000 / (double)u->elapsed_ns * 100;
					npsi[k]++;
				}
		} else if (u->psi_absent) {
			c->psi_absent = u->psi_absent;
		}
	}
	summarise(time, c->n, &c->time);
	for (size_t f = 0; f < NFIGS; f++) {
		summarise(v + f * (st->nruns + 1), c->n, &c->fig[f]);
		report_untested(&c->t[f], NULL);
	}
	for (size_t k = 0; k < PSI_FIGS; k++)
		c->psi[k] = npsi[k] ? psi[k] / (double)npsi[k] : NAN;
	free(time);
	free(v);
}

static void test_row(struct delays_report *d, size_t g, ptrdiff_t ref)
{
	const struct report *r = d->r;

	for (size_t f = 0; f < NFIGS; f++) {
		double *p = xcalloc(r->ntypes, sizeof(*p));

		for (size_t t = 0; t < r->ntypes; t++) {
			struct delay_cell *a = cell_at(d, g, t);
			const struct delay_cell *b;

			p[t] = NAN;
			if (!a->n)
				continue;
			if (ref < 0) {
				report_untested(&a->t[f], "no baseline row");
				continue;
			}
			if (ref == (ptrdiff_t)g) {
				report_untested(&a->t[f], "baseline");
				continue;
			}
			b = cell_at(d, (size_t)ref, t);
			if (welch_test(&a->fig[f], &b->fig[f], &a->t[f].w) == 0) {
				p[t] = a->t[f].w.p;
				d->tests++;
			} else if (a->n < 2 || b->n < 2) {
				report_untested(&a->t[f], "fewer than 2 runs with delays on a side");
				d->few++;
			} else {
				report_untested(&a->t[f], "no spread on either side");
				d->flat++;
			}
		}
		holm_adjust(p, p, r->ntypes);
		for (size_t t = 0; t < r->ntypes; t++) {
			struct delay_cell *a = cell_at(d, g, t);

			if (a->t[f].untested || !a->n)
				continue;
			a->t[f].p_holm = p[t];
			a->t[f].significant = !isnan(p[t]) && p[t] < r->alpha;
		}
		free(p);
	}
}

static void build(const struct report *r, struct delays_report *d)
{
	memset(d, 0, sizeof(*d));
	d->r = r;
	d->cells = xcalloc(r->nrows * r->ntypes + 1, sizeof(*d->cells));
	for (size_t g = 0; g < r->nrows; g++)
		for (size_t t = 0; t < r->ntypes; t++)
			fill(r, g, t, cell_at(d, g, t));
	for (size_t g = 0; g < r->nrows; g++)
		test_row(d, g, report_test_row(r, g));
}

/* ---- the tables (text, markdown) ------------------------------------------ */

enum { C_RUNS, C_TIME, C_FIG, C_PSI = C_FIG + NFIGS, NCOLS = C_PSI + 3 };

static void cell_text(const struct delay_cell *c, size_t col, char *buf, size_t len)
{
	if (col == C_RUNS) {
		snprintf(buf, len, "[%zu]", c->n);
	} else if (!c->n && col < C_PSI) {
		snprintf(buf, len, "-");
	} else if (col == C_TIME) {
		snprintf(buf, len, "%.1f", c->time.mean);
	} else if (col < C_PSI) {
		snprintf(buf, len, "%.1f", c->fig[col - C_FIG].mean);
	} else {
		double some = c->psi[2 * (col - C_PSI)], full = c->psi[2 * (col - C_PSI) + 1];

		if (isnan(some))
			snprintf(buf, len, "-");
		else if (isnan(full))
			snprintf(buf, len, "%.0f/-", some);
		else
			snprintf(buf, len, "%.0f/%.0f", some, full);
	}
}

static void tables(FILE *f, const struct delays_report *d, int markdown)
{
	static const char *const head[NCOLS] = { "[runs]", "Time", "CPU", "Wait", "I/O", "Swap",
						 "Reclaim", "PSIcpu", "PSIio", "PSImem" };
	const struct report *r = d->r;
	struct report_table tb;
	const char *scope = NULL;

	memset(&tb, 0, sizeof(tb));
	tb.ncols = NCOLS;
	for (size_t c = 0; c < NCOLS; c++) {
		tb.head[c] = head[c];
		tb.width[c] = (int)strlen(head[c]) > 5 ? (int)strlen(head[c]) : 5;
	}
	tb.text = xcalloc(r->nrows * NCOLS + 1, sizeof(*tb.text));
	tb.mark = xcalloc(r->nrows * NCOLS + 1, 1);
	for (size_t t = 0; t < r->ntypes; t++) {
		for (size_t g = 0; g < r->nrows; g++) {
			const struct delay_cell *c = cell_at(d, g, t);

			for (size_t col = 0; col < NCOLS; col++) {
				cell_text(c, col, tb.text[g * NCOLS + col], REPORT_CELL_TEXT);
				tb.mark[g * NCOLS + col] = col >= C_FIG && col < C_PSI &&
							   c->t[col - C_FIG].significant;
			}
			if (c->npsi)
				scope = !scope || !strcmp(scope, c->scope) ? c->scope : "mixed";
		}
		if (t)
			fputc('\n', f);
		(markdown ? report_md_table : report_text_table)(f, r, t, &tb);
	}
	free(tb.text);
	free(tb.mark);
	fputc('\n', f);
	report_legend_line(f, markdown, "Time: the compile's seconds; CPU, Wait, I/O, Swap, "
			   "Reclaim: its tasks'");
	report_legend_line(f, markdown, "  seconds running, waiting for a CPU, for block I/O, "
			   "for swap-in,");
	report_legend_line(f, markdown, "  in reclaim, thrashing and compaction (taskstats), "
			   "summed over");
	report_legend_line(f, markdown, "  its tasks: they can exceed Time on SMP");
	if (scope)
		report_legend_line(f, markdown, "PSI: %% of Time some/full of the tasks stalled on "
				   "cpu, io, memory,");
	if (scope)
		report_legend_line(f, markdown, "  %s", !strcmp(scope, "cgroup") ?
				   "of the build's own cgroup" : !strcmp(scope, "machine") ?
				   "of the whole machine" : "some runs the build's cgroup, some "
				   "the whole machine");
	for (size_t g = 0; g < r->nrows; g++)
		for (size_t t = 0; t < r->ntypes; t++) {
			const struct delay_cell *c = cell_at(d, g, t);

			if (c->n < c->runs)
				report_legend_line(f, markdown, "%s %s: %zu of %zu runs without delays "
						   "(%s)", r->rows[g].name, r->types[t],
						   c->runs - c->n, c->runs, c->absent ? c->absent : OLD);
			if (c->npsi < c->runs)
				report_legend_line(f, markdown, "%s %s: %zu of %zu runs without PSI "
						   "(%s)", r->rows[g].name, r->types[t], c->runs - c->npsi,
						   c->runs, c->psi_absent ? c->psi_absent : OLD);
			if (c->bad)
				report_legend_line(f, markdown, "%s %s: %lld of %lld tasks reported a "
						   "delay longer than their life: that delay left out",
						   r->rows[g].name, r->types[t], (long long)c->bad,
						   (long long)c->tasks);
		}
	if (!d->tests && !d->few && !d->flat)
		return;
	if (!d->tests)
		report_legend_line(f, markdown, "No significance test against %s: %s",
				   r->test_base, d->few ? "fewer than 2 runs with delays on a side"
							: "no spread");
	else
		report_legend_line(f, markdown, "* differs from %s's (Welch's t-test, "
				   "Holm-adjusted p < %g)", r->test_base, r->alpha);
}

/* ---- the data (csv, json, keyvalue) ----------------------------------------- */

static void csv_lines(FILE *f, const struct delays_report *d)
{
	const struct report *r = d->r;

	fputs("schema,label,row,run_type,runs,time_s", f);
	for (size_t k = 0; k < NFIGS; k++)
		fprintf(f, ",%s,%s_t,%s_df,%s_p,%s_p_holm,%s_significant,%s_untested", fig_key[k],
			fig_key[k], fig_key[k], fig_key[k], fig_key[k], fig_key[k], fig_key[k]);
	for (size_t k = 0; k < PSI_FIGS; k++)
		fprintf(f, ",%s", psi_key[k]);
	fputs(",psi_scope,bad_tasks,absent\n", f);
	for (size_t g = 0; g < r->nrows; g++)
		for (size_t t = 0; t < r->ntypes; t++) {
			const struct delay_cell *c = cell_at(d, g, t);

			if (!c->runs)
				continue;
			csv_str(f, DELAYS_SCHEMA, 1);
			csv_str(f, r->rows[g].label, 0);
			csv_str(f, r->rows[g].name, 0);
			csv_str(f, r->types[t], 0);
			fprintf(f, ",%zu", c->n);
			csv_num(f, c->time.mean);
			for (size_t k = 0; k < NFIGS; k++) {
				csv_num(f, c->fig[k].mean);
				csv_test(f, &c->t[k]);
			}
			for (size_t k = 0; k < PSI_FIGS; k++)
				csv_num(f, c->psi[k]);
			csv_str(f, c->npsi ? c->scope : "", 0);
			fprintf(f, ",%lld", (long long)c->bad);
			csv_str(f, c->n < c->runs && c->absent ? c->absent : "", 0);
			fputc('\n', f);
		}
}

static void json_doc(FILE *f, const struct delays_report *d)
{
	const struct report *r = d->r;
	int first = 1;

	json_open(f, DELAYS_SCHEMA, r);
	fputs(", \"cells\": [", f);
	for (size_t g = 0; g < r->nrows; g++)
		for (size_t t = 0; t < r->ntypes; t++) {
			const struct delay_cell *c = cell_at(d, g, t);

			if (!c->runs)
				continue;
			fprintf(f, "%s\n  {\"label\": ", first ? "" : ",");
			first = 0;
			json_str(f, r->rows[g].label);
			fputs(", \"row\": ", f);
			json_str(f, r->rows[g].name);
			fputs(", \"run_type\": ", f);
			json_str(f, r->types[t]);
			fprintf(f, ", \"runs\": %zu, \"time_s\": ", c->n);
			json_num(f, c->time.mean);
			for (size_t k = 0; k < NFIGS; k++) {
				fprintf(f, ", \"%s\": ", fig_key[k]);
				json_num(f, c->fig[k].mean);
				fprintf(f, ", \"%s_test\": ", fig_key[k]);
				json_test(f, &c->t[k]);
			}
			for (size_t k = 0; k < PSI_FIGS; k++) {
				fprintf(f, ", \"%s\": ", psi_key[k]);
				json_num(f, c->psi[k]);
			}
			fputs(", \"psi_scope\": ", f);
			json_str(f, c->npsi ? c->scope : NULL);
			fprintf(f, ", \"bad_tasks\": %lld, \"absent\": ", (long long)c->bad);
			json_str(f, c->n < c->runs ? c->absent : NULL);
			fputc('}', f);
		}
	fputs("\n]}\n", f);
}

static void kv_line(FILE *f, const char *row, const char *type, const char *key, double v)
{
	if (isnan(v) || isinf(v))
		return;
	fprintf(f, "%s%s%s.delay_%s: ", row, row[0] ? "." : "", type, key);
	report_put_fixed(f, v);
	fputc('\n', f);
}

static void keyvalue(FILE *f, const struct delays_report *d)
{
	const struct report *r = d->r;

	fputs("keyvalue_version: 1\n", f);
	for (size_t g = 0; g < r->nrows; g++) {
		char *row = r->nrows > 1 ? report_key_name(r->rows[g].name) : xstrdup("");

		for (size_t t = 0; t < r->ntypes; t++) {
			const struct delay_cell *c = cell_at(d, g, t);

			if (!c->n)
				continue;
			kv_line(f, row, r->types[t], "runs", (double)c->n);
			kv_line(f, row, r->types[t], "time_s", c->time.mean);
			for (size_t k = 0; k < NFIGS; k++) {
				kv_line(f, row, r->types[t], fig_key[k], c->fig[k].mean);
				if (!c->t[k].untested) {
					char *key = xasprintf("%s_significant", fig_key[k]);

					kv_line(f, row, r->types[t], key, c->t[k].significant);
					free(key);
				}
			}
			for (size_t k = 0; k < PSI_FIGS; k++)
				kv_line(f, row, r->types[t], psi_key[k], c->psi[k]);
		}
		free(row);
	}
}

int report_delays_print(FILE *f, const struct report *r, enum report_format format,
			char *why, size_t len)
{
	struct delays_report d;
	int any = 0;

	build(r, &d);
	for (size_t i = 0; i < r->nrows * r->ntypes; i++)
		any |= d.cells[i].n || d.cells[i].npsi || d.cells[i].absent || d.cells[i].psi_absent;
	if (!any) {
		free(d.cells);
		return whyf(why, len, "no run of these labels recorded where its time went (%s)",
			    OLD);
	}
	switch (format) {
	case REPORT_MARKDOWN:
		tables(f, &d, 1);
		break;
	case REPORT_CSV:
		csv_lines(f, &d);
		break;
	case REPORT_JSON:
		json_doc(f, &d);
		break;
	case REPORT_KEYVALUE:
		keyvalue(f, &d);
		break;
	default:
		tables(f, &d, 0);
		break;
	}
	free(d.cells);
	return 0;
}
