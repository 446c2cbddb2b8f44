/* SPDX-License-Identifier: GPL-2.0-or-later */
/* latency.c - `contest report --latency`: the latency probe's tables.
 *
 * For every run type, the report's rows whose runs ran the probe (`contest
 * run --probe`), in the same order and with the same names as the main
 * tables, and a line per probe task: the wakeup latency's p50, p90, p99,
 * p99.9 and max in ms over the row's runs merged (their histograms added, so the
 * percentiles are those of every wakeup of every run) and Miss%, the share
 * of periods whose work was not done by the next deadline.
 *
 * Significance, as for Time: every row against the test base's row of the
 * same workload (loads in contest's session, probe on), per task, Welch's
 * test on the log of the runs' own p99s (latency is skewed and spans
 * decades: on the log scale a run's figure is nearer normal and a change is
 * a ratio), Holm's adjustment across the run types of the row and task.  A
 * '*' follows a p99 that differs.
 *
 * Text and markdown print tables; csv one line per row, run type and task;
 * json one document (docs/formats.md: schema contest-latency/2); keyvalue
 * a line per figure. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "results/hist.h"
#include "results/latency.h"
#include "results/record.h"
#include "lib/util.h"

#define LATENCY_SCHEMA "contest-latency/2"

static struct latency_cell *lat_at(const struct latency *l, size_t g, size_t t, size_t k)
{
	return &l->lat[(g * l->r->ntypes + t) * PROBE_TASKS + k];
}

const struct latency_cell *latency_cell(const struct latency *l, size_t g, size_t t, size_t k)
{
	return lat_at(l, g, t, k);
}

int latency_shown(const struct latency *l, size_t g, size_t t)
{
	return l->r->rows[g].probe && lat_at(l, g, t, 0)->n;
}

void latency_free(struct latency *l)
{
	free(l->lat);
	l->lat = NULL;
}

static double ms(double ns)
{
	return ns / 1e6;
}

/* The percentiles of the table's figures, p50 to max, in their order;
 * [LAT_P99] the one tested. */
static const double lat_pct[] = { 50, 90, 99, 99.9, 100 };
#define LAT_FIGS ARRAY_SIZE(lat_pct)
#define LAT_P99 2

/* Task k's figures over row g's runs of type t. */
static void lat_fill(const struct report *r, size_t g, size_t t, size_t k, struct latency_cell *out)
{
	const struct store *st = r->st;
	double *v = xcalloc(LAT_FIGS * (st->nruns + 1), sizeof(*v));
	uint64_t periods = 0, misses = 0;
	struct hist *h = xcalloc(1, sizeof(*h));

	memset(out, 0, sizeof(*out));
	hist_init(h);
	for (size_t i = 0; i < st->nruns; i++) {
		const struct run *u = &st->runs[i];
		const struct probe_stats *p;

		if (!u->probe || strcmp(u->type, r->types[t]) || !report_row_has(&r->rows[g], u))
			continue;
		p = &u->probe[k];
		hist_merge(h, &p->latency);
		periods += p->periods;
		misses += p->misses;
		if (!p->latency.count)
			continue;
		/* each run's own figures, on the log scale: their spread */
		for (size_t q = 0; q < LAT_FIGS; q++)
			v[q * (st->nruns + 1) + out->n] =
				log((double)hist_percentile(&p->latency, lat_pct[q]));
		out->n++;
	}
	out->wakeups = h->count;
	out->p50 = h->count ? ms((double)hist_percentile(h, 50)) : NAN;
	out->p90 = h->count ? ms((double)hist_percentile(h, 90)) : NAN;
	out->p99 = h->count ? ms((double)hist_percentile(h, 99)) : NAN;
	out->p999 = h->count ? ms((double)hist_percentile(h, 99.9)) : NAN;
	out->max = h->count ? ms((double)h->max) : NAN;
	out->miss = periods ? (double)misses / (double)periods * 100 : NAN;
	for (size_t q = 0; q < LAT_FIGS; q++) {
		struct summary sm;

		summarise(v + q * (st->nruns + 1), out->n, &sm);
		out->spread[q] = out->n >= 2 ? expm1(sm.sd) : NAN;
		if (q == LAT_P99)
			out->logp99 = sm;
	}
	report_untested(&out->t, NULL);
	free(h);
	free(v);
}

static void lat_test(struct latency *l, size_t g, ptrdiff_t ref)
{
	const struct report *r = l->r;

	for (size_t k = 0; k < PROBE_TASKS; k++) {
		struct sigtest **s = xcalloc(r->ntypes, sizeof(*s));

		for (size_t t = 0; t < r->ntypes; t++) {
			struct latency_cell *a = lat_at(l, g, t, k);

			if (!a->n)
				continue;
			s[t] = &a->t;
			if (ref < 0)
				report_untested(s[t], "no baseline row with the probe");
			else
				report_welch(s[t], &a->logp99, &lat_at(l, (size_t)ref, t, k)->logp99,
					     "fewer than 2 runs with the probe on a side", &l->tests,
					     &l->few, &l->flat);
		}
		report_holm(s, r->ntypes, r->alpha);
		free(s);
	}
}

int latency_build(const struct report *r, struct latency *l, char *why, size_t len)
{
	int any = 0;

	memset(l, 0, sizeof(*l));
	l->r = r;
	l->lat = xcalloc(r->nrows * r->ntypes * PROBE_TASKS, sizeof(*l->lat));
	for (size_t g = 0; g < r->nrows; g++) {
		if (!r->rows[g].probe)
			continue;
		any = 1;
		for (size_t t = 0; t < r->ntypes; t++)
			for (size_t k = 0; k < PROBE_TASKS; k++)
				lat_fill(r, g, t, k, lat_at(l, g, t, k));
	}
	for (size_t g = 0; any && g < r->nrows; g++) {
		ptrdiff_t ref = report_test_row(r, g);

		if (!r->rows[g].probe)
			continue;
		if (ref == (ptrdiff_t)g) {
			for (size_t t = 0; t < r->ntypes; t++)
				for (size_t k = 0; k < PROBE_TASKS; k++)
					report_untested(&lat_at(l, g, t, k)->t, "baseline");
			continue;
		}
		l->compared++;
		lat_test(l, g, ref);
	}
	if (!any) {
		latency_free(l);
		return whyf(why, len, "no run of these labels ran the latency probe "
			    "(they were made with --no-probe, or before contest had it)");
	}
	return 0;
}

/* ---- the tables (text, markdown) ------------------------------------------ */

enum { C_RUNS, C_WAKEUPS, C_P50, C_P90, C_P99, C_P999, C_MAX, C_MISS, NCOLS };
static const char *const lat_head[NCOLS] = { "[runs]", "Wakeups", "p50", "p90", "p99",
					     "p99.9", "max", "Miss%" };
static const int lat_width[NCOLS] = { 6, 7, 5, 5, 5, 5, 5, 5 };
/* The task's column: the longest task's name */
#define TASK_WIDTH 5

/* A figure as the tables print it: a percentile only where its wakeups
 * leave HIST_TAIL above it (hist_least_count()), rounded to what the
 * spread between the runs supports (report_round_spread()). */
static void lat_text(const struct latency_cell *a, size_t c, char *buf, size_t len)
{
	double v[NCOLS] = { 0, 0, a->p50, a->p90, a->p99, a->p999, a->max, a->miss };

	if (c == C_RUNS)
		snprintf(buf, len, "[%zu]", a->n);
	else if (c == C_WAKEUPS)
		snprintf(buf, len, "%llu", (unsigned long long)a->wakeups);
	else if (isnan(v[c]))
		snprintf(buf, len, "-");
	else if (c == C_MISS)
		snprintf(buf, len, "%.1f", v[c]);
	else if (a->wakeups < hist_least_count(lat_pct[c - C_P50]))
		snprintf(buf, len, "-");
	else
		report_round_spread(v[c], a->spread[c - C_P50], buf, len);
}

/* Whether a '*' follows the p99: it differs, and it is shown. */
static int lat_star(const struct latency_cell *a)
{
	char buf[32];

	lat_text(a, C_P99, buf, sizeof(buf));
	return a->t.significant && strcmp(buf, "-");
}

const char *latency_untested_why(const struct latency *l)
{
	return l->few ? "fewer than 2 runs with the probe on a side" : "no spread";
}

/* What a '*' means, or why no test was made, and what Miss% is. */
static void lat_legend(FILE *f, const struct latency *l, int markdown)
{
	report_legend_wrap(f, markdown, "Latency: a wakeup's start minus its deadline, over every "
			   "wakeup of the row's runs (Wakeups); a percentile only where %d wakeups "
			   "or more lie above it (p99: %llu wakeups, p99.9: %llu), else -; rounded "
			   "to the spread between the runs' own figures.", HIST_TAIL,
			   (unsigned long long)hist_least_count(99),
			   (unsigned long long)hist_least_count(99.9));
	report_legend_wrap(f, markdown, "Miss%%: the periods whose work was not done by the next "
			   "deadline.");
	if (!l->compared)
		return;
	if (!l->tests)
		report_legend_wrap(f, markdown, "No significance test against %s: %s",
				   l->r->test_base, latency_untested_why(l));
	else
		report_legend_wrap(f, markdown, "* p99 differs from %s's (Welch's t-test on the log "
				   "of the runs' p99, Holm-adjusted p" REPORT_NBSP "<" REPORT_NBSP "%g)",
				   l->r->test_base,
				   l->r->alpha);
}

/* Whether any row has runs of type t with the probe. */
static int type_shown(const struct latency *l, size_t t)
{
	for (size_t g = 0; g < l->r->nrows; g++)
		if (latency_shown(l, g, t))
			return 1;
	return 0;
}

/* The columns' widths in run type t's text table: the least, or the widest
 * value, and room for a '*' before p99.9 where a p99 has one. */
static void lat_widths(const struct latency *l, size_t t, int *width)
{
	int star = 0, widest = 0;

	memcpy(width, lat_width, sizeof(lat_width));
	for (size_t g = 0; g < l->r->nrows; g++) {
		for (size_t k = 0; latency_shown(l, g, t) && k < PROBE_TASKS; k++) {
			const struct latency_cell *a = lat_at(l, g, t, k);

			star |= lat_star(a);
			for (size_t c = 0; c < NCOLS; c++) {
				char buf[32];

				lat_text(a, c, buf, sizeof(buf));
				if ((int)strlen(buf) > width[c])
					width[c] = (int)strlen(buf);
				if (c == C_P999 && (int)strlen(buf) > widest)
					widest = (int)strlen(buf);
			}
		}
	}
	/* after a '*', keep a space before the value */
	if (star && widest + 1 > width[C_P999])
		width[C_P999] = widest + 1;
}

/* A table per run type with the probe, its lines within a mail's width
 * (a name too long for the label column on a line of its own). */
static void text_tables(FILE *f, const struct latency *l)
{
	const struct report *r = l->r;
	int w, width[NCOLS];

	for (size_t t = 0; t < r->ntypes; t++) {
		int rest = 1 + TASK_WIDTH;

		if (!type_shown(l, t))
			continue;
		lat_widths(l, t, width);
		for (size_t c = 0; c < NCOLS; c++)
			rest += 1 + width[c];
		w = report_fit_label(r, rest, REPORT_MAIL_WIDTH);
		fprintf(f, "%s latency (ms):\n%-*s %-*s", r->types[t], w, "Kernel", TASK_WIDTH,
			"Task");
		for (size_t c = 0; c < NCOLS; c++)
			fprintf(f, " %*s", width[c], lat_head[c]);
		fputc('\n', f);
		for (size_t g = 0; g < r->nrows; g++) {
			if (!latency_shown(l, g, t))
				continue;
			for (size_t k = 0; k < PROBE_TASKS; k++) {
				const struct latency_cell *a = lat_at(l, g, t, k);

				report_put_label(f, k ? "" : r->rows[g].name, w);
				fprintf(f, " %-*s", TASK_WIDTH, probe_tasks[k].name);
				for (size_t c = 0; c < NCOLS; c++) {
					char buf[32];

					lat_text(a, c, buf, sizeof(buf));
					fprintf(f, "%c%*s", c == C_P999 && lat_star(a) ? '*' : ' ',
						width[c], buf);
				}
				fputc('\n', f);
			}
		}
		fputc('\n', f);
	}
	lat_legend(f, l, 0);
}

/* A cell of the markdown table: its text, and "\\*" after a significant
 * p99. */
static void md_cell(const struct latency_cell *a, size_t c, char *buf, size_t len)
{
	lat_text(a, c, buf, len);
	if (c == C_P99 && lat_star(a))
		strncat(buf, "\\*", len - strlen(buf) - 1);
}

/* As text_tables(), as pipe tables: each column as wide as its widest cell
 * (header, values and their escaped '*'), right-aligned, so that the source
 * reads as a table too. */
static void markdown_tables(FILE *f, const struct latency *l)
{
	const struct report *r = l->r;
	int w = report_label_width(r), width[NCOLS];

	for (size_t t = 0; t < r->ntypes; t++) {
		char buf[40];

		if (!type_shown(l, t))
			continue;
		for (size_t c = 0; c < NCOLS; c++) {
			width[c] = (int)strlen(lat_head[c]);
			for (size_t g = 0; g < r->nrows; g++) {
				for (size_t k = 0; latency_shown(l, g, t) && k < PROBE_TASKS; k++) {
					md_cell(lat_at(l, g, t, k), c, buf, sizeof(buf));
					if ((int)strlen(buf) > width[c])
						width[c] = (int)strlen(buf);
				}
			}
		}
		fputs("**", f);
		md_text(f, r->types[t], 0);
		fputs(" latency (ms):**\n\n| ", f);
		md_text(f, "Kernel", w);
		fputs(" | Task  |", f);
		for (size_t c = 0; c < NCOLS; c++)
			fprintf(f, " %*s |", width[c], lat_head[c]);
		fputs("\n|:", f);
		md_dashes(f, w + 1);
		fputs("|:------|", f);
		for (size_t c = 0; c < NCOLS; c++) {
			md_dashes(f, width[c] + 1);
			fputs(":|", f);
		}
		fputc('\n', f);
		for (size_t g = 0; g < r->nrows; g++) {
			if (!latency_shown(l, g, t))
				continue;
			for (size_t k = 0; k < PROBE_TASKS; k++) {
				fputs("| ", f);
				md_text(f, k ? "" : r->rows[g].name, w);
				fprintf(f, " | %-5s |", probe_tasks[k].name);
				for (size_t c = 0; c < NCOLS; c++) {
					md_cell(lat_at(l, g, t, k), c, buf, sizeof(buf));
					fprintf(f, " %*s |", width[c], buf);
				}
				fputc('\n', f);
			}
		}
		fputc('\n', f);
	}
	lat_legend(f, l, 1);
}

/* ---- the line under a main table ------------------------------------------- */

void latency_p99_line(FILE *f, const struct latency *l, size_t t, int markdown, int width)
{
	const struct report *r = l->r;
	char *line = xstrdup("Latency p99 (ms), audio/video:");
	size_t any = 0;

	for (size_t g = 0; g < r->nrows; g++) {
		char audio[32], video[32], *name, *joined;

		if (!latency_shown(l, g, t))
			continue;
		lat_text(lat_at(l, g, t, PROBE_AUDIO), C_P99, audio, sizeof(audio));
		lat_text(lat_at(l, g, t, PROBE_VIDEO), C_P99, video, sizeof(video));
		/* a row's name and figures on one line where they fit */
		name = report_nobreak(r->rows[g].name);
		joined = xasprintf("%s%s %s" REPORT_NBSP "%s/%s", line, any++ ? "," : "", name,
				   audio, video);
		free(name);
		free(line);
		line = joined;
	}
	if (any && markdown) {
		fputc('\n', f);	/* a paragraph: a line right under it would be a row */
		md_text(f, report_unbreak(line), 0);
		fputc('\n', f);
	} else if (any) {
		report_wrap(f, line, width);
	}
	free(line);
}

/* ---- the data (csv, json) -------------------------------------------------- */

static void csv_lines(FILE *f, const struct latency *l)
{
	const struct report *r = l->r;

	fputs("label,row,run_type,task,runs,wakeups,p50_ms,p90_ms,p99_ms,p999_ms,max_ms,miss_pct,"
	      "p99_t,p99_df,p99_p,p99_p_holm,p99_significant,p99_untested\n", f);
	for (size_t g = 0; g < r->nrows; g++) {
		for (size_t t = 0; t < r->ntypes; t++) {
			if (!latency_shown(l, g, t))
				continue;
			for (size_t k = 0; k < PROBE_TASKS; k++) {
				const struct latency_cell *a = lat_at(l, g, t, k);

				csv_str(f, r->rows[g].label, 1);
				csv_str(f, r->rows[g].name, 0);
				csv_str(f, r->types[t], 0);
				csv_str(f, probe_tasks[k].name, 0);
				fprintf(f, ",%zu,%llu", a->n, (unsigned long long)a->wakeups);
				csv_num(f, a->p50);
				csv_num(f, a->p90);
				csv_num(f, a->p99);
				csv_num(f, a->p999);
				csv_num(f, a->max);
				csv_num(f, a->miss);
				csv_test(f, &a->t);
				fputc('\n', f);
			}
		}
	}
}

static void json_doc(FILE *f, const struct latency *l)
{
	const struct report *r = l->r;
	int first_table = 1;

	json_open(f, LATENCY_SCHEMA, r);
	fputs(", \"tables\": [", f);
	for (size_t t = 0; t < r->ntypes; t++) {
		int first_row = 1;

		for (size_t g = 0; g < r->nrows; g++) {
			if (!latency_shown(l, g, t))
				continue;
			if (first_row) {
				fprintf(f, "%s\n  {\"run_type\": ", first_table ? "" : ",");
				json_str(f, r->types[t]);
				fputs(", \"rows\": [", f);
				first_table = first_row = 0;
			} else {
				fputc(',', f);
			}
			fputs("\n    {\"label\": ", f);
			json_str(f, r->rows[g].label);
			fputs(", \"row\": ", f);
			json_str(f, r->rows[g].name);
			fputs(", \"tasks\": {", f);
			for (size_t k = 0; k < PROBE_TASKS; k++) {
				const struct latency_cell *a = lat_at(l, g, t, k);
				const char *names[] = { "p50_ms", "p90_ms", "p99_ms", "p999_ms",
							"max_ms", "miss_pct" };
				double v[] = { a->p50, a->p90, a->p99, a->p999, a->max, a->miss };

				fprintf(f, "%s\"%s\": {\"runs\": %zu, \"wakeups\": %llu", k ? ", " : "",
					probe_tasks[k].name, a->n, (unsigned long long)a->wakeups);
				for (size_t i = 0; i < ARRAY_SIZE(v); i++) {
					fprintf(f, ", \"%s\": ", names[i]);
					json_num(f, v[i]);
				}
				fputs(", \"p99_test\": ", f);
				json_test(f, &a->t);
				fputc('}', f);
			}
			fputs("}}", f);
		}
		if (!first_row)
			fputs("]}", f);
	}
	fputs("\n]}\n", f);
}

/* The version, then per row, run type and probe task, keys
 * ROW.TYPE.TASK.FIGURE (ROW. as in the main keys) and the p99's test. */
static void keyvalue_lines(FILE *f, const struct latency *l)
{
	const struct report *r = l->r;

	fprintf(f, "keyvalue_version: %d\n", REPORT_KEYVALUE_VERSION);
	for (size_t g = 0; g < r->nrows; g++) {
		char *row = r->nrows > 1 ? report_key_name(r->rows[g].name) : xstrdup("");

		for (size_t t = 0; t < r->ntypes; t++) {
			const struct keyvalue_key k = { row, r->types[t] };

			for (size_t i = 0; latency_shown(l, g, t) && i < PROBE_TASKS; i++) {
				const struct latency_cell *a = latency_cell(l, g, t, i);
				static const char *const names[] = { "runs", "wakeups", "p50_ms",
					"p90_ms", "p99_ms", "p999_ms", "max_ms", "miss_pct" };
				double v[] = { (double)a->n, (double)a->wakeups, a->p50, a->p90,
					       a->p99, a->p999, a->max, a->miss };
				char *p99 = xasprintf("%s.p99", probe_tasks[i].name);

				for (size_t n = 0; n < ARRAY_SIZE(v); n++) {
					char *name = xasprintf("%s.%s", probe_tasks[i].name, names[n]);

					keyvalue_line(f, &k, name, "", v[n]);
					free(name);
				}
				keyvalue_test(f, &k, p99, &a->t);
				free(p99);
			}
		}
		free(row);
	}
}

int report_latency_print(FILE *f, const struct report *r, enum report_format format,
			 char *why, size_t len)
{
	struct latency l;

	if (latency_build(r, &l, why, len))
		return -1;
	switch (format) {
	case REPORT_MARKDOWN:
		markdown_tables(f, &l);
		break;
	case REPORT_CSV:
		csv_lines(f, &l);
		break;
	case REPORT_JSON:
		json_doc(f, &l);
		break;
	case REPORT_KEYVALUE:
		keyvalue_lines(f, &l);
		break;
	default:
		text_tables(f, &l);
		break;
	}
	latency_free(&l);
	return 0;
}
