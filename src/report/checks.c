/* SPDX-License-Identifier: GPL-2.0-or-later */
/* checks.c - what a reader would notice in the runs behind the
 * tables, noted under them: a load's Ratio below 0.9, a noload slower than
 * its session's loaded runs or with far less CPU than the row's other noloads,
 * a run far outside its rounds; and, where a session had a single noload
 * that every Ratio rests on, that the next suite should run more. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "lib/util.h"

/* A load's Ratio below this: the build ran faster beside the load than
 * alone, which a sound noload does not give. */
#define RATIO_LOW 0.9
/* A noload whose CPU% is under this share of the median of the row's other
 * noloads: something else held the CPU or the disk.  Noloads only: a
 * loaded run's CPU% is low by design (the load takes the CPU), so a median
 * over every run would sit so low that no noload could fall under it. */
#define CPU_FAR 0.75
/* A run whose modified z-score (0.6745 |x - median| / MAD, Iglewicz and
 * Hoaglin) passes this is far outside its rounds. */
#define MAD_FAR 3.5
/* The MAD is taken as at least this share of the median: a compile's Time
 * moves some 3% from run to run, and with 3 rounds the MAD is the smaller
 * of two deviations, so two close runs would make a third 5% off "far"
 * (30.0, 30.1, 31.5 s).  With 1.5% a run must be 7.8% off the median. */
#define MAD_FLOOR 0.015

static double run_time(const struct run *u)
{
	return (double)u->elapsed_ns / NS_PER_SEC;
}

static double run_cpu(const struct run *u)
{
	return (double)(u->user_ns + u->sys_ns) / (double)u->elapsed_ns * 100;
}

static int is_noload(const struct run *u)
{
	return !strcmp(u->type, "noload");
}

static double median_of(const double *v, size_t n)
{
	struct summary s;

	summarise(v, n, &s);
	return s.median;
}

/* A run as a note names it: "ROW TYPE round N", its session added where
 * the row has several. */
static char *run_name(const struct report_row *g, const struct run *u)
{
	if (g->nsessions > 1)
		return xasprintf("%s %s round %d (session %s)", g->name, u->type, u->round,
				 u->session);
	return xasprintf("%s %s round %d", g->name, u->type, u->round);
}

/* A noload run of row g against its session's loaded runs and the row's
 * other noloads' CPU%; whether it looked odd. */
static int check_noload(struct report_out *o, const struct report *r,
			const struct report_row *g, const struct run *u, double *v)
{
	const struct store *st = r->st;
	size_t n = 0;
	int odd = 0;
	char *name = run_name(g, u);

	for (size_t i = 0; i < st->nruns; i++) {
		const struct run *w = &st->runs[i];

		if (report_row_has(g, w) && !strcmp(w->session, u->session) &&
		    report_type_has_load(w->type))
			v[n++] = run_time(w);
	}
	/* slower by more than the noise a light load leaves: as a Ratio below 0.9 */
	if (n && run_time(u) * RATIO_LOW > median_of(v, n)) {
		report_note(o, "%s: %.1f s, slower than its session's loaded runs (median %.1f s)",
			    name, run_time(u), median_of(v, n));
		odd = 1;
	}
	n = 0;
	for (size_t i = 0; i < st->nruns; i++)
		if (&st->runs[i] != u && report_row_has(g, &st->runs[i]) && is_noload(&st->runs[i]))
			v[n++] = run_cpu(&st->runs[i]);
	if (n >= 2 && run_cpu(u) < CPU_FAR * median_of(v, n)) {
		report_note(o, "%s: CPU%% %.0f, far below the other noloads' (median %.0f)", name,
			    run_cpu(u), median_of(v, n));
		odd = 1;
	}
	free(name);
	return odd;
}

/* The runs of row g's cell of type t far outside the others by the median
 * absolute deviation; whether a noload was. */
static int check_rounds(struct report_out *o, const struct report *r, size_t g, size_t t,
			double *v)
{
	const struct store *st = r->st;
	const struct report_row *row = &r->rows[g];
	size_t n = 0;
	double med, mad;
	int odd = 0;

	for (size_t i = 0; i < st->nruns; i++)
		if (report_row_has(row, &st->runs[i]) && !strcmp(st->runs[i].type, r->types[t]))
			v[n++] = run_time(&st->runs[i]);
	if (n < 3)
		return 0;
	med = median_of(v, n);
	for (size_t i = 0; i < n; i++)
		v[i] = fabs(v[i] - med);
	mad = fmax(median_of(v, n), MAD_FLOOR * med);
	for (size_t i = 0; mad > 0 && i < st->nruns; i++) {
		const struct run *u = &st->runs[i];
		char *name;

		if (!report_row_has(row, u) || strcmp(u->type, r->types[t]) ||
		    0.6745 * fabs(run_time(u) - med) / mad <= MAD_FAR)
			continue;
		name = run_name(row, u);
		report_note(o, "%s: %.1f s, far outside its rounds (median %.1f s)", name,
			    run_time(u), med);
		free(name);
		odd |= is_noload(u);
	}
	return odd;
}

/* Whether row g has a session with a single noload run. */
static int one_noload_session(const struct store *st, const struct report_row *g)
{
	for (size_t i = 0; i < st->nruns; i++) {
		const struct run *u = &st->runs[i];
		size_t n = 0;

		if (!report_row_has(g, u) || !is_noload(u))
			continue;
		for (size_t j = 0; j < st->nruns; j++)
			n += report_row_has(g, &st->runs[j]) && is_noload(&st->runs[j]) &&
			     !strcmp(st->runs[j].session, u->session);
		if (n == 1)
			return 1;
	}
	return 0;
}

void report_checks(struct report_out *o, const struct report *r)
{
	double *v = xcalloc(r->st->nruns + 1, sizeof(*v));

	for (size_t g = 0; g < r->nrows; g++) {
		const struct report_row *row = &r->rows[g];
		int odd = 0;

		for (size_t t = 0; t < r->ntypes; t++) {
			const struct cell *c = report_cell(r, g, t);

			if (!c->n || !c->has_load || isnan(c->ratio) || c->ratio >= RATIO_LOW)
				continue;
			report_note(o, "%s %s: Ratio %.2f, below %.1f: the build ran faster beside "
				    "the load than alone", row->name, r->types[t], c->ratio,
				    RATIO_LOW);
			odd = 1;
		}
		for (size_t i = 0; i < r->st->nruns; i++)
			if (report_row_has(row, &r->st->runs[i]) && is_noload(&r->st->runs[i]))
				odd |= check_noload(o, r, row, &r->st->runs[i], v);
		for (size_t t = 0; t < r->ntypes; t++)
			odd |= check_rounds(o, r, g, t, v);
		if (odd && one_noload_session(r->st, row))
			report_note(o, "%s: every Ratio of a session rests on its one noload: run "
				    "the next suite with -n 3 or more", row->name);
	}
	free(v);
}

int report_last_one_noload(const struct store *st, const char *label, const char *identity)
{
	const char *session = NULL;
	size_t n = 0;

	for (size_t i = 0; i < st->nruns; i++)
		if (!strcmp(st->runs[i].label, label) && !strcmp(st->runs[i].workload, identity))
			session = st->runs[i].session;
	for (size_t i = 0; session && i < st->nruns; i++)
		n += st->runs[i].valid && !strcmp(st->runs[i].session, session) &&
		     !strcmp(st->runs[i].label, label) && is_noload(&st->runs[i]);
	return n == 1;
}
