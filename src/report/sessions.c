/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sessions.c - the report's sessions: by default a cell's Ratio divides
 * each run's Time by the noload of its own session, and its interval
 * comes from the variances within the sessions. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report-internal.h"
#include "report/report.h"
#include "results/stats.h"
#include "lib/util.h"

/* The Times of the selected runs of one session, into v; how many. */
static size_t session_times(const struct store *st, const struct sel *s, const char *session,
			    double *v)
{
	size_t n = 0;

	for (size_t i = 0; i < st->nruns; i++)
		if (report_selected(&st->runs[i], s) && !strcmp(st->runs[i].session, session))
			v[n++] = (double)st->runs[i].elapsed_ns / NS_PER_SEC;
	return n;
}

/* Runs pooled over sessions: how many, in how many sessions, their sum,
 * and the sum of squares within the sessions. */
struct strata {
	size_t n, k;
	double sum, ss;
};

static void stratum_add(struct strata *a, const double *v, size_t n)
{
	struct summary sm;

	summarise(v, n, &sm);
	a->n += n;
	a->k++;
	a->sum += sm.mean * (double)n;
	if (n > 1)
		a->ss += sm.sd * sm.sd * (double)(n - 1);
}

/* A summary standing for a mean whose variance is var_mean, with df
 * degrees of freedom, as ratio_interval() reads one (sd^2 / n, n - 1). */
static void stand_in(struct summary *s, double mean, double var_mean, size_t df)
{
	s->n = df + 1;
	s->mean = mean;
	s->sd = df ? sqrt(var_mean * (double)s->n) : NAN;
	s->min = s->median = s->max = NAN;
}

/* The Ratio over the noload of each run's own session.  With L_i the
 * cell's Times and N_s the mean noload Time of session s, n_s of the
 * cell's runs in it: Ratio = mean L / N*, N* = sum_s n_s N_s / n, the
 * noload weighted as the cell's runs are.  Fieller's interval from the
 * variances within the sessions (a session may shift every Time; the
 * noise is what varies inside it): var(mean L) = s_L^2 / n and var(N*) =
 * s_N^2 sum_s (n_s / n)^2 / m_s, with m_s noload runs in s and s_L, s_N
 * pooled within the sessions with n - k and m - k degrees of freedom.  One
 * session gives mean L / mean N and the interval of two samples.  Runs of
 * sessions without a noload are left out of the Ratio (and counted, where
 * another session has one). */
void report_session_ratio(const struct store *st, struct report *r, size_t g, size_t t)
{
	struct report_row *row = &r->rows[g];
	struct cell *c = report_cell_at(r, g, t);
	struct sel ls = report_row_sel(row, r->types[t]), ns = report_row_sel(row, "noload");
	double *lv = xcalloc(st->nruns + 1, sizeof(double));
	double *nv = xcalloc(st->nruns + 1, sizeof(double));
	struct strata l = { 0 }, nl = { 0 };
	double nstar = 0, q = 0;
	char **seen = NULL;
	size_t nseen = 0, any = 0;

	/* without a noload in any session there is no Ratio either way */
	for (size_t i = 0; i < st->nruns && !any; i++)
		any = report_selected(&st->runs[i], &ns);
	for (size_t i = 0; any && i < st->nruns; i++) {
		const struct run *u = &st->runs[i];
		struct summary sm;
		size_t nu, nn;

		if (!report_selected(u, &ls) || report_has(seen, nseen, u->session))
			continue;
		seen = xreallocarray(seen, nseen + 1, sizeof(*seen));
		seen[nseen++] = u->session;
		nu = session_times(st, &ls, u->session, lv);
		nn = session_times(st, &ns, u->session, nv);
		if (!nn) {
			c->unpaired += nu;
			row->unpaired += nu;
			continue;
		}
		summarise(nv, nn, &sm);
		nstar += (double)nu * sm.mean;
		q += (double)nu * (double)nu / (double)nn;
		stratum_add(&l, lv, nu);
		stratum_add(&nl, nv, nn);
	}
	if (l.n && !strcmp(r->types[t], "noload")) {
		c->ratio = 1;	/* every run over its own session's noload: 1, no interval */
	} else if (l.n) {
		struct summary a, b;
		double n = (double)l.n;
		size_t dfa = l.n - l.k, dfb = nl.n - nl.k;

		stand_in(&a, l.sum / n, dfa ? l.ss / (double)dfa / n : NAN, dfa);
		stand_in(&b, nstar / n, dfb ? nl.ss / (double)dfb * q / (n * n) : NAN, dfb);
		ratio_interval(&a, &b, REPORT_LEVEL, &c->ratio, &c->ratio_lo, &c->ratio_hi);
	}
	free(seen);
	free(lv);
	free(nv);
}
