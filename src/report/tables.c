/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tables.c - the report's tables, for text and markdown: the columns, every
 * run type's table in suite order with what it leaves out (leftout.c), and
 * the notes under them (the legend of the '*', whose noload the Ratios
 * divide by, each row's noise, the checks, the splits and the differences). */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "lib/util.h"

/* Where the tables wrap (text and markdown, but with --wide) and the notes
 * under them (text): a mail's lines. */
#define MAIL_WIDTH 72
/* How far the legend's line may run (tests/t3001: notes at most 80). */
#define NOTE_WIDTH 80

/* ---- notes under the tables ------------------------------------------------ */

/* One line: what a '*' means, or why no test was made.  Where some cells
 * were tested and others not, both fit on the line for a short baseline
 * label; past NOTE_WIDTH columns the reason goes on a line of its own, and
 * in text the test's name too. */
static void print_legend(struct report_out *o, const struct report *r)
{
	const char *why = report_untested_why(r);
	const char *brief = r->few && r->flat ? "< 2 runs or no spread"
			  : r->few ? "< 2 runs" : "no spread";
	char *star, *test;

	if (!r->compared)
		return;
	if (!r->tests) {
		report_note(o, "No significance test against %s: %s", r->test_base, why);
		return;
	}
	test = xasprintf("(Welch's t-test, Holm-adjusted p < %g)", r->alpha);
	star = xasprintf("* differs from %s %s", r->test_base, test);
	if ((r->few || r->flat) &&
	    strlen(star) + strlen("; no test: ") + strlen(brief) <= NOTE_WIDTH) {
		report_note(o, "%s; no test: %s", star, brief);
	} else {
		if (!o->width || strlen(star) <= NOTE_WIDTH) {
			report_note(o, "%s", star);
		} else {
			report_note(o, "* differs from %s", r->test_base);
			report_note(o, "  %s", test);
		}
		if (r->few || r->flat)
			report_note(o, "No test where: %s", why);
	}
	free(star);
	free(test);
}

/* Per row tested, the smallest change in Time each of its run types' tests
 * could have found (power 0.8), so that no '*' is not read as no difference:
 * "smallest detectable change: noload 4.1%, process_load 6.3%", the row
 * named where several were tested; wrapped at the report's width, a run
 * type's figure never cut. */
static void print_detectable(struct report_out *o, const struct report *r)
{
	for (size_t g = 0; g < r->nrows; g++) {
		char *line = NULL, *more;
		size_t last = 0;

		for (size_t t = 0; t < r->ntypes; t++)
			if (!isnan(report_cell(r, g, t)->time_detectable))
				last = t;
		for (size_t t = 0; t < r->ntypes; t++) {
			double d = report_cell(r, g, t)->time_detectable;
			char *item;

			if (isnan(d))
				continue;
			item = xasprintf("%s %.1f%%", r->types[t], d);
			if (!line) {
				char *head = xasprintf("smallest detectable change%s%s:",
						       r->compared > 1 ? ", " : "",
						       r->compared > 1 ? r->rows[g].name : "");

				/* a long row's name: its figures from the next line */
				if (report_note_fits(o, strlen(head) + 1 + strlen(item) + (t < last))) {
					more = xasprintf("%s %s", head, item);
				} else {
					report_note(o, "%s", head);
					more = xasprintf("  %s", item);
				}
				free(head);
			} else if (o->width &&
				   strlen(line) + 2 + strlen(item) + (t < last) > (size_t)o->width) {
				/* room kept for the comma that follows all but the last */
				report_note(o, "%s,", line);
				more = xasprintf("  %s", item);
			} else {
				more = xasprintf("%s, %s", line, item);
			}
			free(line);
			free(item);
			line = more;
		}
		if (line)
			report_note(o, "%s", line);
		free(line);
	}
}

/* Whose noload the Ratios divide by, where a row has several sessions and
 * the two ways differ; the runs a row's Ratios leave out. */
static void print_ratio_notes(struct report_out *o, const struct report *r)
{
	const char *scope = report_noload_scope(r);

	if (scope)
		report_note(o, "Ratio: Times over %s (%s)", scope,
		     r->pool_noload ? "--pool-noload" : "--pool-noload pools the sessions");
	for (size_t g = 0; g < r->nrows; g++)
		if (r->rows[g].unpaired)
			report_note(o, "%s: %zu run%s of sessions without a noload left out of its Ratios",
			     r->rows[g].name, r->rows[g].unpaired,
			     r->rows[g].unpaired == 1 ? "" : "s");
}

/* Per row, the coefficient of variation of its noload Times: how far apart
 * two runs of one kernel fall on this machine. */
static void print_noise(struct report_out *o, const struct report *r)
{
	for (size_t g = 0; g < r->nrows; g++) {
		const struct cell *c = report_noload_of(r, g);

		if (c && c->n >= 2)
			report_note(o, "%-*s noise: %.1f%% over %zu runs", report_label_width(r),
			     r->rows[g].name, summary_cv(&c->time) * 100, c->n);
	}
}

/* ---- the tables ------------------------------------------------------------ */

enum mark { MARK_NONE, MARK_TIME, MARK_LOADS };

/* A column: its header, least width, which test's '*' follows its value,
 * and the value: fmt, or the double at off in the cell with prec decimals
 * ("-" when NaN). */
struct column {
	const char *head;
	int width;
	enum mark mark;
	void (*fmt)(const struct cell *c, char *buf, size_t len);
	size_t off;
	int prec;
};

static void fmt_runs(const struct cell *c, char *buf, size_t len)
{
	snprintf(buf, len, "[%zu]", c->n);
}

static void fmt_loads(const struct cell *c, char *buf, size_t len)
{
	format_loads(c->loads.mean, buf, len);
}

/* Whether a cell's Change rests on fewer than 2 runs on a side: one run's
 * Time against a mean, which no test can weigh. */
static int change_na(const struct cell *c)
{
	return !c->base && !isnan(c->time_change) && (c->n < 2 || c->base_n < 2);
}

/* Time's change against the test base's: "+4.2%", the base's own "base",
 * "n/a" with fewer than 2 runs on a side. */
static void fmt_change(const struct cell *c, char *buf, size_t len)
{
	if (c->base)
		snprintf(buf, len, "base");
	else if (isnan(c->time_change))
		snprintf(buf, len, "-");
	else if (change_na(c))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%+.1f%%", c->time_change);
}

static void fmt_ci(const struct cell *c, char *buf, size_t len)
{
	if (isnan(c->ratio_lo))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f..%.2f", c->ratio_lo, c->ratio_hi);
}

#define NUM(head, width, mark, field, prec) \
	{ head, width, mark, NULL, offsetof(struct cell, field), prec }

static const struct column col_runs = { "[runs]", 6, MARK_NONE, fmt_runs, 0, 0 };
static const struct column col_time = NUM("Time", 6, MARK_TIME, time.mean, 1);
static const struct column col_sd = NUM("+-sd", 5, MARK_NONE, time.sd, 1);
static const struct column col_cpu = NUM("CPU%", 5, MARK_NONE, cpu.mean, 0);
static const struct column col_loads = { "Loads", 6, MARK_LOADS, fmt_loads, 0, 0 };
static const struct column col_lcpu = NUM("LCPU%", 6, MARK_NONE, lcpu.mean, 0);
static const struct column col_ratio = NUM("Ratio", 6, MARK_NONE, ratio, 2);
static const struct column col_ci = { "95% CI", 10, MARK_NONE, fmt_ci, 0, 0 };
static const struct column col_change = { "Change", 6, MARK_TIME, fmt_change, 0, 0 };
static const struct column col_min = NUM("Min", 6, MARK_NONE, time.min, 1);
static const struct column col_max = NUM("Max", 6, MARK_NONE, time.max, 1);
/* The columns of the tables: the 2002 layout, with the spread, Time's
 * change against the test base and its range (--stats), and a column of
 * each other figure that has one (run_metrics: the system figures, the
 * build's delays) with --columns, made in extra[]. */
static size_t pick_columns(const struct report_opts *o, const struct column **cols,
			   struct column *extra)
{
	size_t n = 0, k = 0;

	cols[n++] = &col_runs;
	cols[n++] = &col_time;
	if (o->stats)
		cols[n++] = &col_sd;
	cols[n++] = &col_cpu;
	cols[n++] = &col_loads;
	cols[n++] = &col_lcpu;
	cols[n++] = &col_ratio;
	if (o->stats) {
		cols[n++] = &col_ci;
		cols[n++] = &col_change;
		cols[n++] = &col_min;
		cols[n++] = &col_max;
	}
	for (size_t i = 0; o->columns && i < run_nmetrics; i++) {
		const struct metric *m = &run_metrics[i];

		if (!m->head || m->agg == METRIC_SUMMARY)
			continue;
		extra[k] = (struct column){ m->head, m->width, MARK_NONE, NULL,
					    offsetof(struct cell, fig) + i * sizeof(double), m->prec };
		cols[n++] = &extra[k++];
	}
	return n;
}

static int marked(const struct cell *c, enum mark m)
{
	return (m == MARK_TIME && c->t_time.significant) ||
	       (m == MARK_LOADS && c->t_loads.significant);
}

static void column_text(const struct column *col, const struct cell *c, char *buf, size_t len)
{
	double v;

	if (col->fmt) {
		col->fmt(c, buf, len);
		return;
	}
	memcpy(&v, (const char *)c + col->off, sizeof(v));
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.*f", col->prec, v);
}

/* Run type t's table: every column's text in every row with runs of t;
 * the test base's row marked; wrapped at a mail's width but with --wide.
 * Markdown's columns are as wide as their text (its lines, with " | "
 * between cells, would not fit a mail with the text's widths). */
static void table_build(const struct report *r, const struct report_opts *o, size_t t,
			struct report_table *tb)
{
	const struct column *cols[REPORT_MAX_COLUMNS];
	struct column extra[RUN_METRICS_MAX];
	int markdown = o->format == REPORT_MARKDOWN;

	memset(tb, 0, sizeof(*tb));
	tb->ncols = pick_columns(o, cols, extra);
	tb->text = xcalloc(r->nrows * tb->ncols, REPORT_CELL_TEXT);
	tb->mark = xcalloc(r->nrows * tb->ncols, 1);
	tb->wrap = o->wide ? 0 : MAIL_WIDTH;
	tb->mark_base = 1;
	tb->label_least = markdown ? (int)strlen("Kernel") : 0;
	for (size_t c = 0; c < tb->ncols; c++) {
		tb->head[c] = cols[c]->head;
		tb->width[c] = markdown ? 0 : cols[c]->width;
		if ((int)strlen(cols[c]->head) > tb->width[c])
			tb->width[c] = (int)strlen(cols[c]->head);
		for (size_t g = 0; g < r->nrows; g++) {
			const struct cell *cell = report_cell(r, g, t);
			size_t i = g * tb->ncols + c;

			if (!cell->n)
				continue;
			column_text(cols[c], cell, tb->text[i], REPORT_CELL_TEXT);
			tb->mark[i] = (char)marked(cell, cols[c]->mark);
		}
	}
}

/* Under the mem_load table, each row whose runs swapped no page out: the
 * load is about paging, and without swap (its runs' load.swap=no) it only
 * measured memory bandwidth. */
static void print_paging(struct report_out *o, const struct report *r, size_t t)
{
	for (size_t g = 0; g < r->nrows; g++) {
		const struct cell *c = report_cell(r, g, t);
		double out = report_fig_of(c, run_metric("pswpout"));
		size_t count;
		char *swap;

		if (!c->n || isnan(out) || out > 0)
			continue;
		/* the runs' own load.swap, else (older runs) the sessions' swap_total */
		swap = report_cell_param(r, g, t, "swap", 1, &count);
		if (!swap) {
			swap = report_row_value(r, &r->rows[g], "swap_total", 1, &count);
			if (swap && !strcmp(swap, "0"))
				strcpy(swap, "no");
		}
		report_note(o, "%s: %s", r->rows[g].name, swap && !strcmp(swap, "no") ?
		     "no swap: mem_load did not page" : "mem_load did not page (no page swapped out)");
		free(swap);
	}
}

/* Whether some cell's Change is n/a. */
static int any_change_na(const struct report *r)
{
	for (size_t i = 0; i < r->nrows * r->ntypes; i++)
		if (r->cells[i].n && change_na(&r->cells[i]))
			return 1;
	return 0;
}

void report_tables(FILE *f, const struct report *r, const struct report_opts *opts,
		   void (*table)(FILE *f, const struct report *r, size_t t,
				 struct report_table *tb),
		   void (*line)(FILE *f, const char *text))
{
	struct report_out o = { f, line, 0, opts->format == REPORT_TEXT ? MAIL_WIDTH : 0 };
	struct latency l;
	char why[128];
	/* the probe's p99s under each table, where some row ran it */
	int lat = !opts->no_latency && latency_build(r, &l, why, sizeof(why)) == 0;

	if (opts->header > 0 || (!opts->header && opts->format == REPORT_MARKDOWN))
		report_header(&o, r);
	for (size_t t = 0; t < r->ntypes; t++) {
		struct report_table tb;
		int gap = o.gap;

		if (t)
			fputc('\n', f);
		table_build(r, opts, t, &tb);
		table(f, r, t, &tb);
		free(tb.text);
		free(tb.mark);
		if (lat)
			latency_p99_line(f, &l, t, opts->format == REPORT_MARKDOWN, MAIL_WIDTH);
		o.gap = 0;	/* set off from the table; the notes below keep their own */
		report_left_out(&o, r, t);
		if (!strcmp(r->types[t], "mem_load"))
			print_paging(&o, r, t);
		o.gap = gap;
	}
	report_left_out_elsewhere(&o, r, opts);
	print_legend(&o, r);
	if (opts->stats && r->compared) {
		report_note_wrap(&o, "Change: mean Time against %s's (+ slower, - faster)",
				 r->test_base);
		report_note(&o, "Min, Max: of the runs' Times%s",
			    any_change_na(r) ? "; n/a: fewer than 2 runs on a side" : "");
	}
	print_detectable(&o, r);
	print_ratio_notes(&o, r);
	report_same_boot(&o, r);
	report_checks(&o, r);
	print_noise(&o, r);
	report_splits(&o, r);
	report_differences(&o, r);
	if (lat)
		latency_free(&l);
}
