/* report.c - the contest tables: cells from stored runs, and their printer. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "runtype.h"
#include "stats.h"
#include "util.h"

#define LABEL_WIDTH 20

void format_loads(double loads, char *buf, size_t len)
{
	size_t n;

	if (loads >= 9.95) {
		snprintf(buf, len, "%.0f", loads);
		return;
	}
	snprintf(buf, len, "%.1f", loads);
	n = strlen(buf);
	if (n > 2 && !strcmp(buf + n - 2, ".0"))
		buf[n - 2] = '\0';
}

void print_table(FILE *f, const char *type, const struct row *rows, size_t n)
{
	int w = LABEL_WIDTH;

	for (size_t i = 0; i < n; i++)
		if ((int)strlen(rows[i].label) > w)
			w = (int)strlen(rows[i].label);
	fprintf(f, "%s:\n", type);
	fprintf(f, "%-*s %6s %6s %5s %6s %6s %6s\n", w, "Kernel", "[runs]",
		"Time", "CPU%", "Loads", "LCPU%", "Ratio");
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		char runs[24], loads[32], ratio[32];

		snprintf(runs, sizeof(runs), "[%zu]", r->n);
		format_loads(r->loads, loads, sizeof(loads));
		if (isnan(r->ratio))
			snprintf(ratio, sizeof(ratio), "-");
		else
			snprintf(ratio, sizeof(ratio), "%.2f", r->ratio);
		fprintf(f, "%-*s %6s %6.1f %5.0f %6s %6.0f %6s\n", w, r->label,
			runs, r->time, r->cpu, loads, r->lcpu, ratio);
	}
}

static int by_version(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

static int has(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

/* Distinct values of a run field, each once; the caller frees the array. */
static char **distinct(const struct store *st, int types, size_t *out)
{
	char **v = NULL;
	size_t n = 0;

	for (size_t i = 0; i < st->nruns; i++) {
		char *s = types ? st->runs[i].type : st->runs[i].label;

		if (!st->runs[i].valid || has(v, n, s))
			continue;
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = s;
	}
	*out = n;
	return v;
}

static int by_rank(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t rx = runtype_rank(x), ry = runtype_rank(y);

	if (rx != ry)
		return rx < ry ? -1 : 1;
	return strcmp(x, y);
}

/* The row of one label and type; n == 0 when it has no valid run. */
static void cell(const struct store *st, const char *label, const char *type,
		 struct row *r)
{
	double *t = xcalloc(st->nruns, sizeof(double));
	double cpu = 0, loads = 0, lcpu = 0;
	struct summary s;
	size_t n = 0;

	for (size_t i = 0; i < st->nruns; i++) {
		const struct run *u = &st->runs[i];
		double secs = (double)u->elapsed_ns / NS_PER_SEC;

		if (!u->valid || strcmp(u->label, label) || strcmp(u->type, type))
			continue;
		t[n++] = secs;
		cpu += (double)(u->user_ns + u->sys_ns) / (double)u->elapsed_ns * 100;
		lcpu += (double)(u->load_user_ns + u->load_sys_ns) / (double)u->elapsed_ns * 100;
		loads += u->work;
	}
	summarise(t, n, &s);
	memset(r, 0, sizeof(*r));
	r->label = label;
	r->n = n;
	r->ratio = NAN;
	if (n) {
		r->time = s.mean;
		r->cpu = cpu / (double)n;
		r->loads = loads / (double)n;
		r->lcpu = lcpu / (double)n;
	}
	free(t);
}

static void count_invalid(const struct store *st, char *const *labels, size_t nl)
{
	size_t bad = 0;
	const struct run *last = NULL;

	for (size_t i = 0; i < st->nruns; i++) {
		if (st->runs[i].valid || !has(labels, nl, st->runs[i].label))
			continue;
		bad++;
		last = &st->runs[i];
	}
	if (bad)
		msg("%zu invalid run%s left out of the tables (the last: %s %s round %d: %s)",
		    bad, bad == 1 ? "" : "s", last->label, last->type, last->round,
		    last->reason ? last->reason : "no reason recorded");
}

int report_print(FILE *f, const struct store *st, const struct report_opts *o,
		 char *why, size_t len)
{
	size_t nlabels, ntypes, shown = 0;
	char **labels = distinct(st, 0, &nlabels);
	char **types = distinct(st, 1, &ntypes);
	double base = NAN;
	struct row *rows;
	int ret = 0;

	if (o->nlabels) {
		for (size_t i = 0; i < o->nlabels; i++)
			if (!has(labels, nlabels, o->labels[i]))
				msg("no valid runs stored for label '%s'", o->labels[i]);
		size_t k = 0;
		for (size_t i = 0; i < nlabels; i++)
			if (has(o->labels, o->nlabels, labels[i]))
				labels[k++] = labels[i];
		nlabels = k;
	}
	if (o->baseline) {
		struct row b;

		cell(st, o->baseline, "noload", &b);
		if (!b.n) {
			snprintf(why, len, "baseline '%s' has no valid noload run to divide by",
				 o->baseline);
			ret = -1;
			goto out;
		}
		base = b.time;
	}
	if (!nlabels) {
		snprintf(why, len, "no valid runs to report");
		ret = -1;
		goto out;
	}
	qsort(labels, nlabels, sizeof(*labels), by_version);
	qsort(types, ntypes, sizeof(*types), by_rank);
	rows = xcalloc(nlabels, sizeof(*rows));
	for (size_t t = 0; t < ntypes; t++) {
		size_t n = 0;

		for (size_t l = 0; l < nlabels; l++) {
			struct row nl;
			double div = base;

			cell(st, labels[l], types[t], &rows[n]);
			if (!rows[n].n)
				continue;
			if (isnan(div)) {
				cell(st, labels[l], "noload", &nl);
				div = nl.n ? nl.time : NAN;
			}
			rows[n].ratio = rows[n].time / div;
			n++;
		}
		if (!n)
			continue;
		if (shown++)
			fputc('\n', f);
		print_table(f, types[t], rows, n);
	}
	free(rows);
	count_invalid(st, labels, nlabels);
out:
	free(labels);
	free(types);
	return ret;
}
