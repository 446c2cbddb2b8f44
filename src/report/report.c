/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report.c - the contest report's model: the labels and run types shown,
 * cells from stored runs, their Ratios and their tests against the test
 * base.  It names no printer: printers.c holds the formats and prints a
 * model built here. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report-internal.h"
#include "report/report.h"
#include "loads/runtype.h"
#include "results/latency.h"
#include "results/record.h"
#include "results/stats.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#define ALPHA_DEFAULT 0.05

static int by_version(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

int report_has(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

const char *report_host_of(const struct run *u)
{
	return u->host ? u->host : "";
}

const char *report_kernel_of(const struct run *u)
{
	return u->kernel ? u->kernel : "";
}

/* Distinct values of a run field, each once; the caller frees the array. */
static char **distinct(const struct store *st, int types, size_t *out)
{
	char **v = NULL;
	size_t n = 0;

	for (size_t i = 0; i < st->nruns; i++) {
		char *s = types ? st->runs[i].type : st->runs[i].label;

		if (!st->runs[i].valid || report_has(v, n, s))
			continue;
		v = xreallocarray(v, n + 1, sizeof(*v));
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

int report_type_has_load(const char *type)
{
	const struct runtype *rt = runtype_find(type);

	return rt ? rt->load != NULL : 1;
}

/* ---- cells --------------------------------------------------------------- */

/* Whether two runs or rows ran the same latency probe: the profile and the
 * work it gave each task. */
static int same_probe(int p, const int64_t *work, int q, const int64_t *qwork)
{
	return p == q && !memcmp(work, qwork, PROBE_TASKS * sizeof(*work));
}

int report_selected(const struct run *u, const struct sel *s)
{
	return u->valid && !strcmp(u->label, s->label) && !strcmp(u->type, s->type) &&
	       (!s->identity || !strcmp(u->workload, s->identity)) &&
	       (s->load_session < 0 || u->load_session == s->load_session) &&
	       (s->probe < 0 || same_probe(u->probe_profile, u->probe_work_ns, s->probe,
					   s->probe_work)) &&
	       (!s->host || !strcmp(report_host_of(u), s->host)) &&
	       (!s->kernel || !strcmp(report_kernel_of(u), s->kernel));
}

struct sel report_row_sel(const struct report_row *g, const char *type)
{
	struct sel s = { g->label, type, g->identity, g->load_session, g->probe,
			 g->probe_work_ns, g->host, g->kernel };

	return s;
}

/* Whether run u belongs to row g: its label, workload, configuration,
 * machine and kernel. */
int report_row_has(const struct report_row *g, const struct run *u)
{
	return u->valid && !strcmp(u->label, g->label) && !strcmp(u->workload, g->identity) &&
	       u->load_session == g->load_session &&
	       same_probe(u->probe_profile, u->probe_work_ns, g->probe, g->probe_work_ns) &&
	       (!g->host || !strcmp(report_host_of(u), g->host)) &&
	       (!g->kernel || !strcmp(report_kernel_of(u), g->kernel));
}

int report_same_probe(const struct report_row *a, const struct report_row *b)
{
	return same_probe(a->probe, a->probe_work_ns, b->probe, b->probe_work_ns);
}

/* The mean of the values that are not NaN; NaN when none is. */
static double mean_present(const double *v, size_t n)
{
	double sum = 0;
	size_t k = 0;

	for (size_t i = 0; i < n; i++) {
		if (!isnan(v[i])) {
			sum += v[i];
			k++;
		}
	}
	return k ? sum / (double)k : NAN;
}

void report_untested(struct sigtest *t, const char *why)
{
	t->untested = why;
	t->w.t = t->w.df = t->w.p = t->p_holm = NAN;
	t->significant = 0;
}

/* summarise() of the values that are not NaN (v is reordered). */
static void summarise_present(double *v, size_t n, struct summary *s)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(v[i]))
			v[k++] = v[i];
	summarise(v, k, s);
}

/* The slot in a cell's sum[] of each summary of run_metrics' rows, -1 for
 * the rest. */
static ptrdiff_t summary_slot(const struct metric *m)
{
	ptrdiff_t k = 0;

	if (m->agg != METRIC_SUMMARY)
		return -1;
	for (const struct metric *p = run_metrics; p < m; p++)
		k += p->agg == METRIC_SUMMARY;
	if (k >= CELL_SUMMARIES) {
		msg("internal error: a cell holds %d summaries (CELL_SUMMARIES)", CELL_SUMMARIES);
		abort();
	}
	return k;
}

const struct summary *report_summary_of(const struct cell *c, const struct metric *m)
{
	ptrdiff_t k = summary_slot(m);

	return k < 0 ? NULL : &c->sum[k];
}

double report_fig_of(const struct cell *c, const struct metric *m)
{
	return c->fig[m - run_metrics];
}

/* The cell of the selected runs; n == 0 when there are none.  Each figure
 * of run_metrics the report shows, as its row says: a summary, the mean of
 * the runs that recorded it, or a sum of two summaries' means. */
static void fill_cell(const struct store *st, const struct sel *s, struct cell *c)
{
	size_t stride = st->nruns + 1, n = 0;
	double *v = xcalloc(run_nmetrics * stride, sizeof(double));

	for (size_t i = 0; i < st->nruns; i++) {
		const struct run *u = &st->runs[i];

		if (!report_selected(u, s))
			continue;
		for (size_t f = 0; f < run_nmetrics; f++)
			if (run_metrics[f].agg == METRIC_SUMMARY || run_metrics[f].agg == METRIC_MEAN)
				v[f * stride + n] = run_metric_value(&run_metrics[f], u);
		n++;
	}
	memset(c, 0, sizeof(*c));
	c->n = n;
	c->has_load = report_type_has_load(s->type);
	for (size_t f = 0; f < run_nmetrics; f++) {
		const struct metric *m = &run_metrics[f];

		c->fig[f] = NAN;
		if (m->agg == METRIC_SUMMARY)
			summarise_present(v + f * stride, n, &c->sum[summary_slot(m)]);
		else if (m->agg == METRIC_MEAN && (c->has_load || !(m->flags & METRIC_LOADED)))
			c->fig[f] = mean_present(v + f * stride, n);
	}
	for (size_t f = 0; f < run_nmetrics; f++)
		if (run_metrics[f].agg == METRIC_TOTAL)
			c->fig[f] = report_summary_of(c, run_metric(run_metrics[f].total_of[0]))->mean +
				    report_summary_of(c, run_metric(run_metrics[f].total_of[1]))->mean;
	c->time_ci = ci_half_width(&c->time, REPORT_LEVEL);
	c->ratio = c->ratio_lo = c->ratio_hi = c->time_change = c->time_detectable = NAN;
	report_untested(&c->t_time, NULL);
	report_untested(&c->t_loads, c->has_load ? NULL : "no load");
	free(v);
}

const struct cell *report_cell(const struct report *r, size_t row, size_t type)
{
	return &r->cells[row * r->ntypes + type];
}

struct cell *report_cell_at(struct report *r, size_t row, size_t type)
{
	return &r->cells[row * r->ntypes + type];
}

/* ---- Ratios -------------------------------------------------------------- */

/* The machine (or kernel: of) of a row's runs, mine, that base's (another
 * label, or NULL: the row's own) are taken from: the row's, where base has
 * valid runs on it, else any (a comparison across machines or kernels,
 * which the differences show). */
static const char *base_match(const struct store *st, const char *base, const char *mine,
			      const char *(*of)(const struct run *))
{
	if (!mine || !base)
		return mine;
	for (size_t i = 0; i < st->nruns; i++)
		if (st->runs[i].valid && !strcmp(st->runs[i].label, base) &&
		    !strcmp(of(&st->runs[i]), mine))
			return mine;
	return NULL;
}

/* The runs of base (NULL: the row's own) of type type to set beside row's:
 * of its workload and probe, loads' session as load_session; of the base's
 * machine and kernel where it is pinned to a row, else of the row's where
 * the base has runs there. */
static struct sel base_sel(const struct store *st, const struct report_base *b,
			   const struct report_row *row, const char *type, int load_session)
{
	const char *label = b ? b->label : NULL;
	struct sel s = { label ? label : row->label, type, row->identity, load_session, row->probe,
			 row->probe_work_ns,
			 b && b->host ? b->host : base_match(st, label, row->host, report_host_of),
			 b && b->kernel ? b->kernel :
			 base_match(st, label, row->kernel, report_kernel_of) };

	return s;
}

static int same_or_any(const char *pin, const char *mine)
{
	return !pin || (mine && !strcmp(pin, mine));
}

int report_base_is_row(const struct report_base *b, const struct report_row *g)
{
	return !strcmp(b->label, g->label) && same_or_any(b->host, g->host) &&
	       same_or_any(b->kernel, g->kernel);
}

ptrdiff_t report_test_row(const struct report *r, size_t g)
{
	for (size_t i = 0; i < r->nrows; i++)
		if (report_base_is_row(&r->test_ref, &r->rows[i]) &&
		    report_same_probe(&r->rows[i], &r->rows[g]) && !r->rows[i].load_session &&
		    !strcmp(r->rows[i].identity, r->rows[g].identity))
			return (ptrdiff_t)i;
	return -1;
}

/* Divide by a noload of the same workload and configuration only: by
 * default the row's own of the same session; with --pool-noload the row's
 * own of every session, with --baseline ratio_base's of every session. */
static void ratio(const struct store *st, struct report *r, size_t g, size_t t)
{
	const struct report_row *row = &r->rows[g];
	struct cell *c = report_cell_at(r, g, t), nl;
	struct sel s = base_sel(st, r->ratio_base ? &r->ratio_ref : NULL, row, "noload",
				row->load_session);

	if (!r->ratio_base && !r->pool_noload) {
		report_session_ratio(st, r, g, t);
		return;
	}
	fill_cell(st, &s, &nl);
	if (!nl.n) {
		r->unmatched += r->ratio_base != NULL;
		return;
	}
	c->ratio = c->time.mean / nl.time.mean;
	/* a noload divided by itself is 1 exactly, with no interval */
	if ((r->ratio_base && !report_base_is_row(&r->ratio_ref, row)) ||
	    strcmp(r->types[t], "noload"))
		ratio_interval(&c->time, &nl.time, REPORT_LEVEL, &c->ratio, &c->ratio_lo,
			       &c->ratio_hi);
}

/* ---- tests against the test base ----------------------------------------- */

void report_welch(struct sigtest *t, const struct summary *a, const struct summary *b,
		  const char *few, size_t *tests, size_t *nfew, size_t *flat)
{
	if (welch_test(a, b, &t->w) == 0) {
		t->untested = NULL;
		(*tests)++;
	} else if (a->n < 2 || b->n < 2) {
		report_untested(t, few);
		(*nfew)++;
	} else {
		report_untested(t, "no spread on either side");
		(*flat)++;
	}
}

void report_holm(struct sigtest *const *s, size_t ntypes, double alpha)
{
	double *p = xcalloc(ntypes, sizeof(*p));

	for (size_t t = 0; t < ntypes; t++)
		p[t] = s[t] && !s[t]->untested ? s[t]->w.p : NAN;
	holm_adjust(p, p, ntypes);
	for (size_t t = 0; t < ntypes; t++) {
		if (!s[t] || s[t]->untested)
			continue;
		s[t]->p_holm = p[t];
		s[t]->significant = !isnan(p[t]) && p[t] < alpha;
	}
	free(p);
}

static void welch_cell(struct report *r, struct sigtest *t, const struct summary *a,
		       const struct summary *b)
{
	report_welch(t, a, b, "fewer than 2 valid runs on a side", &r->tests, &r->few, &r->flat);
}

/* Holm's adjustment across the run types of one row, for one figure. */
static void adjust(struct report *r, size_t g, int loads)
{
	struct sigtest **s = xcalloc(r->ntypes, sizeof(*s));

	for (size_t t = 0; t < r->ntypes; t++) {
		struct cell *c = report_cell_at(r, g, t);

		if (c->n)
			s[t] = loads ? &c->t_loads : &c->t_time;
	}
	report_holm(s, r->ntypes, r->alpha);
	free(s);
}

/* The smallest change in Time each test of row g could have found, against
 * the test base's Times ref[t]: at Holm's first step, alpha / m for the m
 * Time tests of the row, the level a difference alone in its row must pass
 * to get its '*'. */
static void detectable(struct report *r, size_t g, const struct summary *ref)
{
	size_t m = 0;

	for (size_t t = 0; t < r->ntypes; t++)
		m += !isnan(report_cell_at(r, g, t)->t_time.p_holm);
	for (size_t t = 0; t < r->ntypes; t++) {
		struct cell *c = report_cell_at(r, g, t);

		if (isnan(c->t_time.p_holm))
			continue;
		c->time_detectable = welch_detectable(&c->time, &ref[t], r->alpha / (double)m,
						      REPORT_POWER) / ref[t].mean * 100;
	}
}

/* Every row but the reference against test_base's runs of the same workload
 * in the usual configuration (loads in contest's session; in their own where
 * test_base has no other, as a comparison with --load-session): Time always,
 * Loads where the run type has a load. */
static void significance(const struct store *st, struct report *r)
{
	/* test_base's loads in a session of their own when it has no other
	 * runs (a comparison made with --load-session) */
	int base_session = 1;
	struct summary *refs = xcalloc(r->ntypes ? r->ntypes : 1, sizeof(*refs));

	/* from the store: the baseline need not be one of the rows shown */
	for (size_t i = 0; i < st->nruns; i++)
		if (st->runs[i].valid && !strcmp(st->runs[i].label, r->test_ref.label) &&
		    !st->runs[i].load_session)
			base_session = 0;
	/* a label whose runs split into rows by kernel (a patched and an
	 * unpatched build of one release): the first of its rows shown is the
	 * reference, the others are tested against it (rows split by machine
	 * are each tested against their own machine's runs: base_sel()) */
	for (size_t g = 0; g < r->nrows && !r->test_ref.host && !r->test_ref.kernel; g++) {
		const struct report_row *row = &r->rows[g];

		if (!strcmp(row->label, r->test_ref.label) && row->load_session == base_session &&
		    row->kernel && !row->host) {
			r->test_ref.kernel = row->kernel;
			r->test_base = row->name;
		}
	}
	for (size_t g = 0; g < r->nrows; g++) {
		struct report_row *row = &r->rows[g];

		row->reference = report_base_is_row(&r->test_ref, row) &&
				 row->load_session == base_session;
		if (row->reference) {
			for (size_t t = 0; t < r->ntypes; t++) {
				report_untested(&report_cell_at(r, g, t)->t_time, "baseline");
				report_untested(&report_cell_at(r, g, t)->t_loads, "baseline");
				report_cell_at(r, g, t)->base = 1;
			}
			continue;
		}
		r->compared++;
		for (size_t t = 0; t < r->ntypes; t++) {
			struct cell *c = report_cell_at(r, g, t), ref;
			struct sel s = base_sel(st, &r->test_ref, row, r->types[t], base_session);

			if (!c->n)
				continue;
			fill_cell(st, &s, &ref);
			refs[t] = ref.time;
			c->base_n = ref.n;
			if (ref.n)
				c->time_change = (c->time.mean / ref.time.mean - 1) * 100;
			welch_cell(r, &c->t_time, &c->time, &ref.time);
			if (c->has_load)
				welch_cell(r, &c->t_loads, &c->loads, &ref.loads);
		}
		adjust(r, g, 0);
		adjust(r, g, 1);
		detectable(r, g, refs);
	}
	free(refs);
}

/* ---- the labels, rows and run types shown; the build --------------------- */

void report_free(struct report *r)
{
	for (size_t i = 0; i < r->nrows; i++) {
		free(r->rows[i].name);
		free(r->rows[i].envs);
	}
	free(r->rows);
	free(r->cells);
	free(r->labels);
	free(r->types);
	memset(r, 0, sizeof(*r));
}

/* The base named: a label with runs, or a row's name, pinned to that row's
 * machine and kernel.  0, or -1 when it names neither. */
static int resolve_base(const struct store *st, const char *name, struct report_base *b)
{
	memset(b, 0, sizeof(*b));
	for (size_t i = 0; i < st->nruns; i++)
		if (!strcmp(st->runs[i].label, name)) {
			b->label = st->runs[i].label;
			return 0;
		}
	for (size_t i = 0; i < st->nruns && !b->label; i++) {
		char *label = st->runs[i].label;
		struct report_row *g;
		size_t n;

		if (!report_names_row_of(name, label))
			continue;
		g = report_make_rows(st, &label, 1, &n);
		for (size_t k = 0; k < n; k++) {
			if (!b->label && !strcmp(g[k].name, name))
				*b = (struct report_base){ label, g[k].host, g[k].kernel };
			free(g[k].name);
			free(g[k].envs);
		}
		free(g);
	}
	return b->label ? 0 : -1;
}

/* " a, b)" (" none)" without one) after why's first k bytes. */
static void list_labels(char *why, size_t len, size_t k, char *const *labels, size_t n)
{
	for (size_t j = 0; j < n && k < len; j++)
		k += (size_t)snprintf(why + k, len - k, "%s %s", j ? "," : "", labels[j]);
	if (k < len)
		snprintf(why + k, len - k, "%s)", n ? "" : " none");
}

/* --baseline names no label or row of the store: returns -2, with the
 * reason in why, naming the directories read and the labels they hold. */
static int no_baseline(const struct store *st, const struct report_opts *o, char *why,
		       size_t len)
{
	size_t n, k = (size_t)snprintf(why, len, "--baseline: no label '%s' in ", o->baseline);
	char **labels = distinct(st, 0, &n);

	for (size_t d = 0; d < o->ndirs && k < len; d++)
		k += (size_t)snprintf(why + k, len - k, "%s%s", d ? " or " : "", o->dirs[d]);
	if (!o->ndirs && k < len)
		k += (size_t)snprintf(why + k, len - k, "the results read");
	if (k < len)
		k += (size_t)snprintf(why + k, len - k, " (labels:");
	if (n)
		qsort(labels, n, sizeof(*labels), by_version);
	list_labels(why, len, k, labels, n);
	free(labels);
	return -2;
}

/* The labels asked for (all when none is); a row's name (name_rows()) asks
 * for its label, and keep_rows() then keeps that row of it.  0, or -1 with
 * why naming the labels that have runs when one asked for has none. */
static int select_labels(const struct store *st, const struct report_opts *o,
			 struct report *r, char *why, size_t len)
{
	size_t k = 0;

	r->labels = distinct(st, 0, &r->nlabels);
	if (!o->nlabels)
		return 0;
	qsort(r->labels, r->nlabels, sizeof(*r->labels), by_version);
	for (size_t i = 0; i < o->nlabels; i++) {
		int row = 0;

		for (size_t l = 0; l < r->nlabels && !row; l++)
			row = report_names_row_of(o->labels[i], r->labels[l]);
		if (row || report_has(r->labels, r->nlabels, o->labels[i]))
			continue;
		k = (size_t)snprintf(why, len, "no valid runs stored for label '%s' (labels with "
				     "runs:", o->labels[i]);
		list_labels(why, len, k, r->labels, r->nlabels);
		return -1;
	}
	for (size_t i = 0; i < r->nlabels; i++) {
		int asked = report_has(o->labels, o->nlabels, r->labels[i]);

		for (size_t a = 0; a < o->nlabels && !asked; a++)
			asked = report_names_row_of(o->labels[a], r->labels[i]);
		if (asked)
			r->labels[k++] = r->labels[i];
	}
	r->nlabels = k;
	return 0;
}

/* The rows asked for: those of a label named, and those named by their
 * row's name; a name that fits a label but none of its rows reported. */
static void keep_rows(struct report *r, const struct report_opts *o)
{
	size_t k = 0;

	if (!o->nlabels)
		return;
	for (size_t a = 0; a < o->nlabels; a++) {
		int found = report_has(r->labels, r->nlabels, o->labels[a]);

		for (size_t g = 0; g < r->nrows && !found; g++)
			found = !strcmp(r->rows[g].name, o->labels[a]);
		for (size_t l = 0; l < r->nlabels && !found; l++) {
			if (report_names_row_of(o->labels[a], r->labels[l])) {
				msg("no row named '%s'", o->labels[a]);
				found = 1;
			}
		}
	}
	for (size_t g = 0; g < r->nrows; g++) {
		if (report_has(o->labels, o->nlabels, r->rows[g].label) ||
		    report_has(o->labels, o->nlabels, r->rows[g].name)) {
			r->rows[k++] = r->rows[g];
			continue;
		}
		free(r->rows[g].name);
		free(r->rows[g].envs);
	}
	r->nrows = k;
}

int report_in_list(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] != '\0'))
		if (strcspn(p, ",") == n && !strncmp(p, name, n))
			return 1;
	return 0;
}

/* The run types of the labels shown, those of --type only (o->types);
 * returns 0, or -1 with the reason in why when a type asked for has no
 * runs, naming those that do. */
static int select_types(const struct store *st, const struct report_opts *o, struct report *r,
			char *why, size_t len)
{
	size_t k = 0;
	struct strbuf all = STRBUF_INIT, missing = STRBUF_INIT;

	r->types = distinct(st, 1, &r->ntypes);
	for (size_t t = 0; t < r->ntypes; t++) {
		int shown = 0;

		for (size_t i = 0; i < st->nruns && !shown; i++)
			shown = st->runs[i].valid && !strcmp(st->runs[i].type, r->types[t]) &&
				report_has(r->labels, r->nlabels, st->runs[i].label);
		if (shown)
			r->types[k++] = r->types[t];
	}
	r->ntypes = k;
	if (!o->types)
		return 0;
	qsort(r->types, r->ntypes, sizeof(*r->types), by_rank);
	for (size_t t = 0; t < r->ntypes; t++)
		xstrbuf_addf(&all, "%s%s", t ? ", " : "", r->types[t]);
	for (const char *p = o->types; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] != '\0')) {
		int found = 0;

		for (size_t t = 0; t < r->ntypes && !found; t++)
			found = strlen(r->types[t]) == strcspn(p, ",") &&
				!strncmp(r->types[t], p, strcspn(p, ","));
		if (!found)
			xstrbuf_addf(&missing, "%s'%.*s'", missing.s ? ", " : "",
				     (int)strcspn(p, ","), p);
	}
	if (missing.s) {
		whyf(why, len, "--type: no valid runs of %s in the rows shown; their run types: %s",
		     missing.s, all.s ? all.s : "none");
		strbuf_free(&missing);
		strbuf_free(&all);
		return -1;
	}
	strbuf_free(&all);
	k = 0;
	for (size_t t = 0; t < r->ntypes; t++)
		if (report_in_list(o->types, r->types[t]))
			r->types[k++] = r->types[t];
	r->ntypes = k;
	return 0;
}

/* The first configuration of a comparison whose labels are shown (its
 * environment record has compare=ID and compare_index=0), the earliest
 * comparison's where there are several (the id starts with the second it
 * began); NULL when no label shown is one. */
static const char *comparison_first(const struct report *r)
{
	const char *first = NULL, *first_id = NULL;
	long long first_at = 0;

	for (size_t e = 0; e < r->st->nenvs; e++) {
		const struct record *env = &r->st->envs[e];
		const char *id = record_get(env, "compare"), *label = record_get(env, "label");
		long long at;
		int64_t index;

		if (!id || !label || record_get_i64(env, "compare_index", &index) || index != 0)
			continue;
		for (size_t l = 0; l < r->nlabels; l++) {
			if (strcmp(r->labels[l], label))
				continue;
			at = strtoll(id, NULL, 10);
			if (!first || at < first_at || (at == first_at && strcmp(id, first_id) < 0)) {
				first = r->labels[l];
				first_id = id;
				first_at = at;
			}
		}
	}
	return first;
}

/* The label or row the rows are tested against: --baseline, else the first
 * label or row named that has runs, else a comparison's first
 * configuration (what the end of contest compare tested against), else the
 * first label in sort order; its runs in *b. */
static const char *test_base(const struct report *r, const struct report_opts *o,
			     struct report_base *b)
{
	const char *first;

	if (o->baseline && !resolve_base(r->st, o->baseline, b))
		return o->baseline;
	for (size_t i = 0; i < o->nlabels; i++)
		if (!resolve_base(r->st, o->labels[i], b))
			return o->labels[i];
	first = comparison_first(r);
	if (!first)
		first = r->labels[0];
	resolve_base(r->st, first, b);
	return first;
}

/* The rows of the test base first (the tables print it at the top), the
 * others in their order; their cells with them. */
static void base_first(struct report *r)
{
	struct report_row *rows = xcalloc(r->nrows, sizeof(*rows));
	struct cell *cells = xcalloc(r->nrows * r->ntypes, sizeof(*cells));
	size_t k = 0;

	for (int reference = 1; reference >= 0; reference--) {
		for (size_t g = 0; g < r->nrows; g++) {
			if (r->rows[g].reference != reference)
				continue;
			rows[k] = r->rows[g];
			if (r->ntypes)
				memcpy(&cells[k * r->ntypes], report_cell(r, g, 0),
				       r->ntypes * sizeof(*cells));
			k++;
		}
	}
	free(r->rows);
	free(r->cells);
	r->rows = rows;
	r->cells = cells;
}

int report_build(const struct store *st, const struct report_opts *o, struct report *r,
		 char *why, size_t len)
{
	memset(r, 0, sizeof(*r));
	r->alpha = o->alpha > 0 ? o->alpha : ALPHA_DEFAULT;
	if (select_labels(st, o, r, why, len) || select_types(st, o, r, why, len)) {
		report_free(r);
		return -1;
	}
	if (o->baseline) {
		struct report_base *b = &r->ratio_ref;
		struct sel s;
		struct cell nl;

		if (resolve_base(st, o->baseline, b)) {
			report_free(r);
			return no_baseline(st, o, why, len);
		}
		s = (struct sel){ b->label, "noload", NULL, -1, -1, NULL, b->host, b->kernel };
		fill_cell(st, &s, &nl);
		if (!nl.n) {
			report_free(r);
			return whyf(why, len, "baseline '%s' has no valid noload run to divide by",
				    o->baseline);
		}
	}
	if (!r->nlabels) {
		report_free(r);
		return whyf(why, len, "no valid runs to report");
	}
	qsort(r->labels, r->nlabels, sizeof(*r->labels), by_version);
	qsort(r->types, r->ntypes, sizeof(*r->types), by_rank);
	r->st = st;
	r->ratio_base = o->baseline;
	r->pool_noload = o->pool_noload;
	r->test_base = test_base(r, o, &r->test_ref);
	r->rows = report_make_rows(st, r->labels, r->nlabels, &r->nrows);
	keep_rows(r, o);
	r->cells = xcalloc(r->nrows * r->ntypes, sizeof(*r->cells));
	for (size_t g = 0; g < r->nrows; g++) {
		for (size_t t = 0; t < r->ntypes; t++) {
			struct sel s = report_row_sel(&r->rows[g], r->types[t]);

			fill_cell(st, &s, report_cell_at(r, g, t));
			if (report_cell_at(r, g, t)->n)
				ratio(st, r, g, t);
		}
	}
	significance(st, r);
	report_count_left_out(r);
	base_first(r);
	return 0;
}

/* ---- what the printers ask of a built report ----------------------------- */

const char *report_untested_why(const struct report *r)
{
	return r->few && r->flat ? "fewer than 2 valid runs on a side, or no spread"
	       : r->few ? "fewer than 2 valid runs on a side"
	       : "no spread on either side";
}

const char *report_noload_scope(const struct report *r)
{
	int several = 0;

	for (size_t g = 0; g < r->nrows; g++)
		several |= r->rows[g].nsessions > 1 || r->rows[g].unpaired;
	if (r->ratio_base || !several)
		return NULL;
	return r->pool_noload ? "the noload of all the label's sessions, pooled"
			      : "the noload of their own session";
}

static ptrdiff_t type_index(const struct report *r, const char *type)
{
	for (size_t t = 0; t < r->ntypes; t++)
		if (!strcmp(r->types[t], type))
			return (ptrdiff_t)t;
	return -1;
}

const struct cell *report_noload_of(const struct report *r, size_t g)
{
	ptrdiff_t t = type_index(r, "noload");

	return t < 0 ? NULL : report_cell(r, g, (size_t)t);
}
