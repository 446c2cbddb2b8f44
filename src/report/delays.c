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
 * a figure that differs.
 *
 * Text and markdown print the legend first, then per run type a table of
 * the seconds, the noload's own and every other run type's less the row's
 * noload (what the load added: make -j8 on 2 CPUs waits on itself, and a
 * noload Wait six times its Time would bury it), and a table of PSI under
 * it (two tables: one would not fit a mail's 72 columns), then the notes,
 * one per kind and reason naming every cell it is about.  csv one line per
 * row and run type; json one document (schema contest-delays/1); keyvalue a
 * line per figure: the means, as recorded. */
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
	struct delay_cell *noload;      /* [row]: its noload's, shown or not (--type) */
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

static void fill(const struct report *r, size_t g, const char *type, struct delay_cell *c)
{
	const struct store *st = r->st;
	double *v = xcalloc(NFIGS * (st->nruns + 1), sizeof(*v));
	double *time = xcalloc(st->nruns + 1, sizeof(*time));
	double psi[PSI_FIGS] = { 0 };
	size_t npsi[PSI_FIGS] = { 0 };

	memset(c, 0, sizeof(*c));
	for (size_t i = 0; i < st->nruns; i++) {
		const struct run *u = &st->runs[i];

		if (strcmp(u->type, type) || !report_row_has(&r->rows[g], u))
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
		struct sigtest **s = xcalloc(r->ntypes, sizeof(*s));

		for (size_t t = 0; t < r->ntypes; t++) {
			struct delay_cell *a = cell_at(d, g, t);

			if (!a->n)
				continue;
			s[t] = &a->t[f];
			if (ref < 0)
				report_untested(s[t], "no baseline row");
			else if (ref == (ptrdiff_t)g)
				report_untested(s[t], "baseline");
			else
				report_welch(s[t], &a->fig[f], &cell_at(d, (size_t)ref, t)->fig[f],
					     "fewer than 2 runs with delays on a side", &d->tests,
					     &d->few, &d->flat);
		}
		report_holm(s, r->ntypes, r->alpha);
		free(s);
	}
}

static void build(const struct report *r, struct delays_report *d)
{
	memset(d, 0, sizeof(*d));
	d->r = r;
	d->cells = xcalloc(r->nrows * r->ntypes + 1, sizeof(*d->cells));
	d->noload = xcalloc(r->nrows + 1, sizeof(*d->noload));
	for (size_t g = 0; g < r->nrows; g++) {
		for (size_t t = 0; t < r->ntypes; t++)
			fill(r, g, r->types[t], cell_at(d, g, t));
		fill(r, g, "noload", &d->noload[g]);
	}
	for (size_t g = 0; g < r->nrows; g++)
		test_row(d, g, report_test_row(r, g));
}

/* ---- the tables (text, markdown) ------------------------------------------ */

/* The seconds table: Time and the figures; the PSI table under it. */
enum { C_RUNS, C_TIME, C_FIG, NCOLS = C_FIG + NFIGS };
enum { P_RUNS, P_CPU, P_IO, P_MEM, NPSICOLS };

/* The cell a row's figures of type t are set against: its noload's (shown
 * or not), where t is another run type and the noload recorded delays;
 * else NULL (the figures are the row's own). */
static const struct delay_cell *base_of(const struct delays_report *d, size_t g, size_t t)
{
	if (!strcmp(d->r->types[t], "noload") || !d->noload[g].n)
		return NULL;
	return &d->noload[g];
}

/* A cell of the seconds table: the mean, or, with a base, what the run
 * type added to it, signed. */
static void cell_text(const struct delay_cell *c, const struct delay_cell *base, size_t col,
		      char *buf, size_t len)
{
	double v, b;

	if (col == C_RUNS) {
		snprintf(buf, len, "[%zu]", c->n);
		return;
	}
	if (!c->n) {
		snprintf(buf, len, "-");
		return;
	}
	v = col == C_TIME ? c->time.mean : c->fig[col - C_FIG].mean;
	if (!base) {
		snprintf(buf, len, "%.1f", v);
		return;
	}
	b = col == C_TIME ? base->time.mean : base->fig[col - C_FIG].mean;
	/* rounded first, and + 0.0: a difference of nothing is +0.0, not -0.0 */
	snprintf(buf, len, "%+.1f", round((v - b) * 10) / 10 + 0.0);
}

/* A cell of the PSI table: some/full % of Time. */
static void psi_text(const struct delay_cell *c, size_t col, char *buf, size_t len)
{
	double some, full;

	if (col == P_RUNS) {
		snprintf(buf, len, "[%zu]", c->npsi);
		return;
	}
	some = c->psi[2 * (col - P_CPU)];
	full = c->psi[2 * (col - P_CPU) + 1];
	if (isnan(some))
		snprintf(buf, len, "-");
	else if (isnan(full))
		snprintf(buf, len, "%.0f/-", some);
	else
		snprintf(buf, len, "%.0f/%.0f", some, full);
}

/* An empty table of ncols columns with these headers, 5 wide at least. */
static void table_open(const struct report *r, struct report_table *tb, const char *const *head,
		       size_t ncols)
{
	memset(tb, 0, sizeof(*tb));
	tb->ncols = ncols;
	for (size_t c = 0; c < ncols; c++) {
		tb->head[c] = head[c];
		tb->width[c] = (int)strlen(head[c]) > 5 ? (int)strlen(head[c]) : 5;
	}
	tb->text = xcalloc(r->nrows * ncols + 1, sizeof(*tb->text));
	tb->mark = xcalloc(r->nrows * ncols + 1, 1);
}

static void table_print(FILE *f, const struct report *r, size_t t, const char *title,
			struct report_table *tb, int markdown)
{
	if (markdown)
		report_md_table_as(f, r, t, title, tb);
	else
		report_text_table_as(f, r, t, title, REPORT_MAIL_WIDTH, tb);
	free(tb->text);
	free(tb->mark);
}

/* The PSI scope of the cells shown: "cgroup", "machine", "mixed", or NULL
 * when none has PSI. */
static const char *psi_scope(const struct delays_report *d)
{
	const char *scope = NULL;

	for (size_t i = 0; i < d->r->nrows * d->r->ntypes; i++) {
		const struct delay_cell *c = &d->cells[i];

		if (c->npsi)
			scope = !scope || !strcmp(scope, c->scope) ? c->scope : "mixed";
	}
	return scope;
}

/* What the figures are and what a '*' says: above the tables. */
static void legend(FILE *f, const struct delays_report *d, int markdown)
{
	const struct report *r = d->r;
	const char *scope = psi_scope(d);

	report_legend_wrap(f, markdown, "Seconds of the compile (Time) and of its tasks, summed "
			   "over them (so more than Time on SMP): CPU running, Wait for a CPU, "
			   "I/O for block I/O, Swap for swap-in, Reclaim in reclaim, thrashing "
			   "and compaction.");
	report_legend_wrap(f, markdown, "noload: the row's own; other run types: what they "
			   "added to it (+) or took off (-), their means less the noload's.");
	if (scope)
		report_legend_wrap(f, markdown, "PSI: %% of Time some/full of the tasks stalled on "
				   "cpu, io, memory, %s.", !strcmp(scope, "cgroup") ?
				   "of the build's own cgroup" : !strcmp(scope, "machine") ?
				   "of the whole machine" : "some runs the build's cgroup, some "
				   "the whole machine");
	if (!d->tests && !d->few && !d->flat)
		return;
	if (!d->tests)
		report_legend_wrap(f, markdown, "No significance test against %s: %s",
				   r->test_base, d->few ? "fewer than 2 runs with delays on a side"
							: "no spread");
	else
		report_legend_wrap(f, markdown, "* differs from %s's (Welch's t-test on the runs' "
				   "seconds, Holm-adjusted p" REPORT_NBSP "<" REPORT_NBSP "%g)", r->test_base,
				   r->alpha);
}

/* What a row's runs of a type lacked, a note for every kind, the cells
 * that had it and their counts in one list (a reason a note, where runs
 * lacked a figure for several). */
enum note { N_DELAYS, N_PSI, N_BAD, N_NOBASE, NNOTES };

/* Whether cell (g, t) has note k, and its reason (NULL: none). */
static int has_note(const struct delays_report *d, size_t g, size_t t, enum note k,
		    const char **why)
{
	const struct delay_cell *c = cell_at(d, g, t);

	*why = NULL;
	switch (k) {
	case N_DELAYS:
		*why = c->absent ? c->absent : OLD;
		return c->n < c->runs;
	case N_PSI:
		*why = c->psi_absent ? c->psi_absent : OLD;
		return c->npsi < c->runs;
	case N_BAD:
		return c->bad > 0;
	default:
		return c->n && strcmp(d->r->types[t], "noload") && !base_of(d, g, t);
	}
}

/* Whether cell i ([row * ntypes + type]) has note k for reason why (NULL:
 * whatever its reason). */
static int note_of(const struct delays_report *d, size_t i, enum note k, const char *why)
{
	const char *other;

	return has_note(d, i / d->r->ntypes, i % d->r->ntypes, k, &other) &&
	       (!why || !strcmp(why, other));
}

/* A cell's item of note k: "ROW TYPE K of N", kept on one line where it
 * fits. */
static char *note_item(const struct delays_report *d, size_t g, size_t t, enum note k)
{
	const struct delay_cell *c = cell_at(d, g, t);
	char *name = report_nobreak(d->r->rows[g].name), *item;
	const char *type = d->r->types[t], *sp = REPORT_NBSP;

	if (k == N_DELAYS)
		item = xasprintf("%s%s%s%s%zu%sof%s%zu", name, sp, type, sp, c->runs - c->n, sp, sp,
				 c->runs);
	else if (k == N_PSI)
		item = xasprintf("%s%s%s%s%zu%sof%s%zu", name, sp, type, sp, c->runs - c->npsi, sp,
				 sp, c->runs);
	else if (k == N_BAD)
		item = xasprintf("%s%s%s%s%lld%sof%s%lld%stasks", name, sp, type, sp,
				 (long long)c->bad, sp, sp, (long long)c->tasks, sp);
	else
		item = xasprintf("%s%s%s", name, sp, type);
	free(name);
	return item;
}

/* Under the tables: one note per kind and reason, naming every cell it
 * concerns, wrapped within a mail's width (a cell's item kept whole). */
static void notes(FILE *f, const struct delays_report *d, int markdown)
{
	static const char *const head[NNOTES] = {
		"Runs without delays", "Runs without PSI",
		"A delay longer than its task's life, left out",
		"No noload with delays, the row's own seconds shown",
	};
	const struct report *r = d->r;
	size_t ncells = r->nrows * r->ntypes;
	int first = 1;

	for (int k = 0; k < NNOTES; k++) {
		/* each reason once, in the cells' order */
		for (size_t i = 0; i < ncells; i++) {
			const char *why;
			char *line;
			int seen = 0, n = 0;

			if (!has_note(d, i / r->ntypes, i % r->ntypes, (enum note)k, &why))
				continue;
			for (size_t j = 0; j < i && !seen; j++)
				seen = note_of(d, j, (enum note)k, why);
			if (seen)
				continue;
			line = why ? xasprintf("%s (%s):", head[k], why) : xasprintf("%s:", head[k]);
			for (size_t j = i; j < ncells; j++) {
				char *item, *joined;

				if (!note_of(d, j, (enum note)k, why))
					continue;
				item = note_item(d, j / r->ntypes, j % r->ntypes, (enum note)k);
				joined = xasprintf("%s%s %s", line, n++ ? "," : "", item);
				free(item);
				free(line);
				line = joined;
			}
			if (first)
				fputc('\n', f);	/* set off from the last table */
			first = 0;
			report_legend_wrap(f, markdown, "%s", line);
			free(line);
		}
	}
}

static void tables(FILE *f, const struct delays_report *d, int markdown)
{
	static const char *const head[NCOLS] = { "[runs]", "Time", "CPU", "Wait", "I/O", "Swap",
						 "Reclaim" };
	static const char *const psi_head[NPSICOLS] = { "[runs]", "cpu", "io", "memory" };
	const struct report *r = d->r;

	legend(f, d, markdown);
	for (size_t t = 0; t < r->ntypes; t++) {
		struct report_table tb;
		int psi = 0;
		char *title;

		fputc('\n', f);
		table_open(r, &tb, head, NCOLS);
		for (size_t g = 0; g < r->nrows; g++) {
			const struct delay_cell *c = cell_at(d, g, t);

			for (size_t col = 0; col < NCOLS; col++) {
				cell_text(c, base_of(d, g, t), col, tb.text[g * NCOLS + col],
					  REPORT_CELL_TEXT);
				tb.mark[g * NCOLS + col] = col >= C_FIG && c->t[col - C_FIG].significant;
			}
			psi |= c->npsi > 0;
		}
		table_print(f, r, t, r->types[t], &tb, markdown);
		if (!psi)
			continue;
		fputc('\n', f);
		table_open(r, &tb, psi_head, NPSICOLS);
		for (size_t g = 0; g < r->nrows; g++)
			for (size_t col = 0; col < NPSICOLS; col++)
				psi_text(cell_at(d, g, t), col, tb.text[g * NPSICOLS + col],
					 REPORT_CELL_TEXT);
		title = xasprintf("%s PSI (%% some/full)", r->types[t]);
		table_print(f, r, t, title, &tb, markdown);
		free(title);
	}
	notes(f, d, markdown);
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
		free(d.noload);
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
	free(d.noload);
	return 0;
}
