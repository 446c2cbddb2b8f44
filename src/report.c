/* report.c - the contest report's model: cells from stored runs, their
 * statistics, the notes and differences under the tables, and the registry
 * of formats (one printer a file, src/report-*.c). */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flush.h"
#include "report.h"
#include "report-format.h"
#include "runtype.h"
#include "stats.h"
#include "util.h"

#define LABEL_WIDTH 20
#define ALPHA_DEFAULT 0.05

/* Every format, in enum report_format's order. */
static const struct report_printer *const printers[] = {
	&report_format_text, &report_format_markdown, &report_format_csv, &report_format_json,
	&report_format_keyvalue,
};

int report_format_parse(const char *name, enum report_format *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(printers); i++) {
		if (!strcmp(name, printers[i]->name)) {
			*out = (enum report_format)i;
			return 0;
		}
	}
	return -1;
}

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

/* Whether a run type runs a load beside the workload (a type this contest
 * does not know, from other records, is taken to). */
static int has_load(const char *type)
{
	const struct runtype *rt = runtype_find(type);

	return rt ? rt->load != NULL : 1;
}

/* ---- cells --------------------------------------------------------------- */

/* The machine a run was measured on (store_load() sets it; runs made
 * otherwise have none). */
static const char *host_of(const struct run *u)
{
	return u->host ? u->host : "";
}

/* The runs of a cell: a label's valid runs of one type, of one workload
 * (NULL: any), session configuration and probe (-1: any), and machine
 * (NULL: any). */
struct sel {
	const char *label;
	const char *type;
	const char *identity;
	int load_session;
	int probe;
	const char *host;
};

static int selected(const struct run *u, const struct sel *s)
{
	return u->valid && !strcmp(u->label, s->label) && !strcmp(u->type, s->type) &&
	       (!s->identity || !strcmp(u->workload, s->identity)) &&
	       (s->load_session < 0 || u->load_session == s->load_session) &&
	       (s->probe < 0 || (u->probe != NULL) == s->probe) &&
	       (!s->host || !strcmp(host_of(u), s->host));
}

/* Whether run u belongs to row g: its label, workload, configuration and
 * machine. */
int report_row_has(const struct report_row *g, const struct run *u)
{
	return u->valid && !strcmp(u->label, g->label) && !strcmp(u->workload, g->identity) &&
	       u->load_session == g->load_session && (u->probe != NULL) == g->probe &&
	       (!g->host || !strcmp(host_of(u), g->host));
}

/* The figures of a run, as the cell summarises them. */
enum { F_TIME, F_CPU, F_LOADS, F_LCPU, F_LPS, F_IDLE, F_IOWAIT, F_MAJFLT, F_PSWPIN,
       F_PSWPOUT, NFIG };

static double count_or_nan(int64_t v)
{
	return v < 0 ? NAN : (double)v;
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

static void untested(struct sigtest *t, const char *why)
{
	t->untested = why;
	t->w.t = t->w.df = t->w.p = t->p_holm = NAN;
	t->significant = 0;
}

/* The cell of the selected runs; n == 0 when there are none. */
static void fill_cell(const struct store *st, const struct sel *s, struct cell *c)
{
	size_t stride = st->nruns + 1, n = 0;
	double *v = xcalloc(NFIG * stride, sizeof(double)), *fig[NFIG];

	for (size_t f = 0; f < NFIG; f++)
		fig[f] = v + f * stride;
	for (size_t i = 0; i < st->nruns; i++) {
		const struct run *u = &st->runs[i];
		double ns = (double)u->elapsed_ns;

		if (!selected(u, s))
			continue;
		fig[F_TIME][n] = ns / (double)NS_PER_SEC;
		fig[F_CPU][n] = (double)(u->user_ns + u->sys_ns) / ns * 100;
		fig[F_LOADS][n] = u->work;
		fig[F_LCPU][n] = (double)(u->load_user_ns + u->load_sys_ns) / ns * 100;
		fig[F_LPS][n] = u->work / fig[F_TIME][n];
		fig[F_IDLE][n] = u->idle;
		fig[F_IOWAIT][n] = u->iowait;
		fig[F_MAJFLT][n] = count_or_nan(u->majflt);
		fig[F_PSWPIN][n] = count_or_nan(u->pswpin);
		fig[F_PSWPOUT][n] = count_or_nan(u->pswpout);
		n++;
	}
	memset(c, 0, sizeof(*c));
	c->n = n;
	summarise(fig[F_TIME], n, &c->time);
	summarise(fig[F_CPU], n, &c->cpu);
	summarise(fig[F_LOADS], n, &c->loads);
	summarise(fig[F_LCPU], n, &c->lcpu);
	c->time_ci = ci_half_width(&c->time, REPORT_LEVEL);
	c->ratio = c->ratio_lo = c->ratio_hi = NAN;
	c->has_load = has_load(s->type);
	c->loads_per_s = c->has_load ? mean_present(fig[F_LPS], n) : NAN;
	c->cpu_total = n ? c->cpu.mean + c->lcpu.mean : NAN;
	c->idle = mean_present(fig[F_IDLE], n);
	c->iowait = mean_present(fig[F_IOWAIT], n);
	c->majflt = mean_present(fig[F_MAJFLT], n);
	c->pswpin = mean_present(fig[F_PSWPIN], n);
	c->pswpout = mean_present(fig[F_PSWPOUT], n);
	untested(&c->t_time, NULL);
	untested(&c->t_loads, c->has_load ? NULL : "no load");
	free(v);
}

/* ---- rows ------------------------------------------------------------------ */

static int has_session(const struct store *st, const struct report_row *g, const char *session)
{
	for (size_t i = 0; i < st->nruns; i++) {
		const struct run *u = &st->runs[i];

		if (!strcmp(u->session, session) && report_row_has(g, u))
			return 1;
	}
	return 0;
}

/* The distinct machines of a label's valid runs, those of sessions without
 * an environment record left out; how many in *n.  The caller frees the
 * array. */
static char **label_hosts(const struct store *st, const char *label, size_t *n)
{
	char **v = NULL;

	*n = 0;
	for (size_t i = 0; i < st->nruns; i++) {
		const struct run *u = &st->runs[i];

		if (!u->valid || strcmp(u->label, label) || !*host_of(u) ||
		    has(v, *n, (char *)host_of(u)))
			continue;
		v = xrealloc(v, (*n + 1) * sizeof(*v));
		v[(*n)++] = (char *)host_of(u);
	}
	return v;
}

/* The hostname of a machine ("HOSTNAME\nCPU MODEL"), into buf. */
static const char *hostname_of(const char *host, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(host, "\n"), host);
	return buf;
}

/* A label's rows from several machines are named by their hostnames,
 * where those tell the machines apart; rows that share a name are then
 * numbered, "label (k)" or "label@HOSTNAME (k)". */
static void name_rows(struct report_row *g, size_t first, size_t n, char **hosts,
		      size_t nhosts)
{
	int by_host = nhosts > 1;
	char a[256], b[256];

	for (size_t i = 0; i < nhosts && by_host; i++) {
		by_host = hostname_of(hosts[i], a, sizeof(a))[0] != '\0';
		for (size_t j = 0; j < i && by_host; j++)
			by_host = strcmp(a, hostname_of(hosts[j], b, sizeof(b)));
	}
	for (size_t k = first; k < n; k++)	/* runs of no known machine: the label */
		g[k].name = by_host && *g[k].host ? xasprintf("%s@%s", g[k].label,
							      hostname_of(g[k].host, a, sizeof(a)))
						  : xstrdup(g[k].label);
	for (size_t k = first; k < n; k++) {
		size_t same = 0, nth = 0;
		char *name;

		for (size_t j = first; j < n; j++) {
			/* the base names, without a number added so far */
			int alike = by_host ? !strcmp(hostname_of(g[j].host, a, sizeof(a)),
						      hostname_of(g[k].host, b, sizeof(b)))
					    : 1;

			same += alike;
			nth += alike && j <= k;
		}
		if (same < 2)
			continue;
		name = xasprintf("%s (%zu)", g[k].name, nth);
		free(g[k].name);
		g[k].name = name;
	}
}

/* One row per label, configuration and, where the label's runs come from
 * several machines, machine, with valid runs; labels in the given order, a
 * label's rows in the order they were first run. */
static struct report_row *make_rows(const struct store *st, char **labels, size_t nlabels,
				    size_t *out)
{
	struct report_row *g = NULL;
	size_t n = 0;

	for (size_t l = 0; l < nlabels; l++) {
		size_t first = n, nhosts;
		char **hosts = label_hosts(st, labels[l], &nhosts);

		for (size_t i = 0; i < st->nruns; i++) {
			const struct run *u = &st->runs[i];
			int seen = 0;

			if (!u->valid || strcmp(u->label, labels[l]))
				continue;
			for (size_t k = first; k < n && !seen; k++)
				seen = report_row_has(&g[k], u);
			if (seen)
				continue;
			g = xrealloc(g, (n + 1) * sizeof(*g));
			memset(&g[n], 0, sizeof(*g));
			g[n].label = labels[l];
			g[n].identity = u->workload;
			g[n].load_session = u->load_session;
			g[n].probe = u->probe != NULL;
			g[n].host = nhosts > 1 ? host_of(u) : NULL;
			n++;
		}
		name_rows(g, first, n, hosts, nhosts);
		free(hosts);
	}
	for (size_t k = 0; k < n; k++) {
		char **seen = NULL;

		for (size_t i = 0; i < st->nruns; i++) {
			const struct run *u = &st->runs[i];

			if (!report_row_has(&g[k], u) || has(seen, g[k].nsessions, u->session))
				continue;
			seen = xrealloc(seen, (g[k].nsessions + 1) * sizeof(*seen));
			seen[g[k].nsessions++] = u->session;
		}
		free(seen);
		for (size_t e = 0; e < st->nenvs; e++) {
			const char *label = record_get(&st->envs[e], "label");
			const char *session = record_get(&st->envs[e], "session");

			if (!label || !session || strcmp(label, g[k].label) ||
			    !has_session(st, &g[k], session))
				continue;
			g[k].envs = xrealloc(g[k].envs, (g[k].nenvs + 1) * sizeof(*g[k].envs));
			g[k].envs[g[k].nenvs++] = &st->envs[e];
		}
	}
	*out = n;
	return g;
}

const struct cell *report_cell(const struct report *r, size_t row, size_t type)
{
	return &r->cells[row * r->ntypes + type];
}

static struct cell *cell_at(struct report *r, size_t row, size_t type)
{
	return &r->cells[row * r->ntypes + type];
}

/* The Times of the selected runs of one session, into v; how many. */
static size_t session_times(const struct store *st, const struct sel *s, const char *session,
			    double *v)
{
	size_t n = 0;

	for (size_t i = 0; i < st->nruns; i++)
		if (selected(&st->runs[i], s) && !strcmp(st->runs[i].session, session))
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
static void session_ratio(const struct store *st, struct report *r, size_t g, size_t t)
{
	struct report_row *row = &r->rows[g];
	struct cell *c = cell_at(r, g, t);
	struct sel ls = { row->label, r->types[t], row->identity, row->load_session, row->probe,
			  row->host };
	struct sel ns = { row->label, "noload", row->identity, row->load_session, row->probe,
			  row->host };
	double *lv = xcalloc(st->nruns + 1, sizeof(double));
	double *nv = xcalloc(st->nruns + 1, sizeof(double));
	struct strata l = { 0 }, nl = { 0 };
	double nstar = 0, q = 0;
	char **seen = NULL;
	size_t nseen = 0, any = 0;

	/* without a noload in any session there is no Ratio either way */
	for (size_t i = 0; i < st->nruns && !any; i++)
		any = selected(&st->runs[i], &ns);
	for (size_t i = 0; any && i < st->nruns; i++) {
		const struct run *u = &st->runs[i];
		struct summary sm;
		size_t nu, nn;

		if (!selected(u, &ls) || has(seen, nseen, u->session))
			continue;
		seen = xrealloc(seen, (nseen + 1) * sizeof(*seen));
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

/* The machine of a row's runs that base's (another label, or NULL: the
 * row's own) are taken from: the row's, where base has valid runs on it,
 * else any (a comparison across machines, which the differences show). */
static const char *base_host(const struct store *st, const char *base,
			     const struct report_row *row)
{
	if (!row->host || !base)
		return row->host;
	for (size_t i = 0; i < st->nruns; i++)
		if (st->runs[i].valid && !strcmp(st->runs[i].label, base) &&
		    !strcmp(host_of(&st->runs[i]), row->host))
			return row->host;
	return NULL;
}

/* Divide by a noload of the same workload and configuration only: by
 * default the row's own of the same session; with --pool-noload the row's
 * own of every session, with --baseline ratio_base's of every session. */
static void ratio(const struct store *st, struct report *r, size_t g, size_t t)
{
	const struct report_row *row = &r->rows[g];
	struct cell *c = cell_at(r, g, t), nl;
	struct sel s = { r->ratio_base ? r->ratio_base : row->label, "noload", row->identity,
			 row->load_session, row->probe, base_host(st, r->ratio_base, row) };

	if (!r->ratio_base && !r->pool_noload) {
		session_ratio(st, r, g, t);
		return;
	}
	fill_cell(st, &s, &nl);
	if (!nl.n) {
		r->unmatched += r->ratio_base != NULL;
		return;
	}
	c->ratio = c->time.mean / nl.time.mean;
	/* a noload divided by itself is 1 exactly, with no interval */
	if (strcmp(s.label, row->label) || strcmp(r->types[t], "noload"))
		ratio_interval(&c->time, &nl.time, REPORT_LEVEL, &c->ratio, &c->ratio_lo,
			       &c->ratio_hi);
}

static void welch_cell(struct report *r, struct sigtest *t, const struct summary *a,
		       const struct summary *b)
{
	if (welch_test(a, b, &t->w) == 0) {
		t->untested = NULL;
		r->tests++;
	} else if (a->n < 2 || b->n < 2) {
		untested(t, "fewer than 2 valid runs on a side");
		r->few++;
	} else {
		untested(t, "no spread on either side");
		r->flat++;
	}
}

/* Holm's adjustment across the run types of one row, for one figure. */
static void adjust(struct report *r, size_t g, int loads)
{
	double *p = xcalloc(r->ntypes, sizeof(*p));

	for (size_t t = 0; t < r->ntypes; t++) {
		struct cell *c = cell_at(r, g, t);
		struct sigtest *s = loads ? &c->t_loads : &c->t_time;

		p[t] = c->n && !s->untested ? s->w.p : NAN;
	}
	holm_adjust(p, p, r->ntypes);
	for (size_t t = 0; t < r->ntypes; t++) {
		struct cell *c = cell_at(r, g, t);
		struct sigtest *s = loads ? &c->t_loads : &c->t_time;

		s->p_holm = p[t];
		s->significant = !isnan(p[t]) && p[t] < r->alpha;
	}
	free(p);
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

	for (size_t g = 0; g < r->nrows; g++)
		if (!strcmp(r->rows[g].label, r->test_base) && !r->rows[g].load_session)
			base_session = 0;
	for (size_t g = 0; g < r->nrows; g++) {
		struct report_row *row = &r->rows[g];

		row->reference = !strcmp(row->label, r->test_base) &&
				 row->load_session == base_session;
		if (row->reference) {
			for (size_t t = 0; t < r->ntypes; t++) {
				untested(&cell_at(r, g, t)->t_time, "baseline");
				untested(&cell_at(r, g, t)->t_loads, "baseline");
			}
			continue;
		}
		r->compared++;
		for (size_t t = 0; t < r->ntypes; t++) {
			struct cell *c = cell_at(r, g, t), ref;
			struct sel s = { r->test_base, r->types[t], row->identity, base_session,
					 row->probe, base_host(st, r->test_base, row) };

			if (!c->n)
				continue;
			fill_cell(st, &s, &ref);
			welch_cell(r, &c->t_time, &c->time, &ref.time);
			if (c->has_load)
				welch_cell(r, &c->t_loads, &c->loads, &ref.loads);
		}
		adjust(r, g, 0);
		adjust(r, g, 1);
	}
}

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

/* The labels asked for (all when none is), each named one without valid
 * runs reported. */
static void select_labels(const struct store *st, const struct report_opts *o,
			  struct report *r)
{
	size_t k = 0;

	r->labels = distinct(st, 0, &r->nlabels);
	if (!o->nlabels)
		return;
	for (size_t i = 0; i < o->nlabels; i++)
		if (!has(r->labels, r->nlabels, o->labels[i]))
			msg("no valid runs stored for label '%s'", o->labels[i]);
	for (size_t i = 0; i < r->nlabels; i++)
		if (has(o->labels, o->nlabels, r->labels[i]))
			r->labels[k++] = r->labels[i];
	r->nlabels = k;
}

/* The run types of the labels shown. */
static void select_types(const struct store *st, struct report *r)
{
	size_t k = 0;

	r->types = distinct(st, 1, &r->ntypes);
	for (size_t t = 0; t < r->ntypes; t++) {
		int shown = 0;

		for (size_t i = 0; i < st->nruns && !shown; i++)
			shown = st->runs[i].valid && !strcmp(st->runs[i].type, r->types[t]) &&
				has(r->labels, r->nlabels, st->runs[i].label);
		if (shown)
			r->types[k++] = r->types[t];
	}
	r->ntypes = k;
}

/* The label the rows are tested against: --baseline, else the first label
 * named that has runs, else the first in sort order. */
static const char *test_base(const struct report *r, const struct report_opts *o)
{
	if (o->baseline)
		return o->baseline;
	for (size_t i = 0; i < o->nlabels; i++)
		if (has(r->labels, r->nlabels, o->labels[i]))
			return o->labels[i];
	return r->labels[0];
}

int report_build(const struct store *st, const struct report_opts *o, struct report *r,
		 char *why, size_t len)
{
	memset(r, 0, sizeof(*r));
	r->alpha = o->alpha > 0 ? o->alpha : ALPHA_DEFAULT;
	select_labels(st, o, r);
	select_types(st, r);
	if (o->baseline) {
		struct sel s = { o->baseline, "noload", NULL, -1, -1, NULL };
		struct cell b;

		fill_cell(st, &s, &b);
		if (!b.n) {
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
	r->test_base = test_base(r, o);
	r->rows = make_rows(st, r->labels, r->nlabels, &r->nrows);
	r->cells = xcalloc(r->nrows * r->ntypes, sizeof(*r->cells));
	for (size_t g = 0; g < r->nrows; g++) {
		for (size_t t = 0; t < r->ntypes; t++) {
			struct sel s = { r->rows[g].label, r->types[t], r->rows[g].identity,
					 r->rows[g].load_session, r->rows[g].probe, r->rows[g].host };

			fill_cell(st, &s, cell_at(r, g, t));
			if (cell_at(r, g, t)->n)
				ratio(st, r, g, t);
		}
	}
	significance(st, r);
	return 0;
}

/* ---- notes under the tables ------------------------------------------------ */

/* One note under the tables, as the format writes it; the first is set off
 * by a blank line. */
static void note(struct report_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct report_out *o, const char *fmt, ...)
{
	va_list ap;
	char *line;

	va_start(ap, fmt);
	line = xvasprintf(fmt, ap);
	va_end(ap);
	if (!o->gap++)
		fputc('\n', o->f);
	o->line(o->f, line);
	free(line);
}

/* s = s + formatted */
static void append(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void append(char **s, const char *fmt, ...)
{
	va_list ap;
	char *more, *all;

	va_start(ap, fmt);
	more = xvasprintf(fmt, ap);
	va_end(ap);
	all = xasprintf("%s%s", *s ? *s : "", more);
	free(more);
	free(*s);
	*s = all;
}

/* Fields that differ from row to row by design, or say nothing about the
 * measurement.  The kernel is what the rows compare. */
static int ignored(const char *key)
{
	static const char *const keys[] = {
		"label", "session", "time", "argv", "kernel", "kernel_version", "work_dir", "id",
		/* a comparison's configurations differ in these by definition:
		 * they restate the label (config_setup says how) */
		"compare_index", "compare_vary",
	};

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strcmp(key, keys[i]))
			return 1;
	return 0;
}

/* Control characters shown as '?': a value must not drive the terminal. */
static char *printable(char *s)
{
	for (char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return s;
}

/* A value as compared and shown: sizes rounded (MemTotal, and the loads'
 * sizes made from it, move a little with the kernel), the boot image left
 * out of the command line (it is the kernel), control characters as '?'. */
static char *normalised(const char *key, const char *val)
{
	size_t klen = strlen(key);

	if ((!strcmp(key, "mem_total") || !strcmp(key, "swap_total") ||
	     (klen > 5 && !strcmp(key + klen - 5, "_size"))) && strcmp(val, "absent")) {
		char buf[32];
		uint64_t v;

		if (parse_u64(val, 0, UINT64_MAX, &v) == 0) {
			format_size(v, buf, sizeof(buf));
			return xstrdup(buf);
		}
	}
	if (!strcmp(key, "cmdline")) {
		char *out = xstrdup(val), *copy = xstrdup(val), *save = NULL;

		out[0] = '\0';
		for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
			if (!strncmp(w, "BOOT_IMAGE=", 11))
				continue;
			if (out[0])
				strcat(out, " ");
			strcat(out, w);
		}
		free(copy);
		return printable(out);
	}
	return printable(xstrdup(val));
}

/* v[] += nv, taken, unless it is there already (then freed). */
static void add_value(char ***v, size_t *n, char *nv)
{
	if (has(*v, *n, nv)) {
		free(nv);
		return;
	}
	*v = xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = nv;
}

/* v[0..n) joined by " / " and freed; NULL when n is 0. */
static char *join_values(char **v, size_t n)
{
	char *all = NULL;

	for (size_t i = 0; i < n; i++) {
		append(&all, "%s%s", i ? " / " : "", v[i]);
		free(v[i]);
	}
	free(v);
	return all;
}

/* How a row's runs were flushed, as shown and compared (cacherun's none
 * left out): the distinct methods, fadvise marked partial. */
static char *row_flush(const struct report *r, const struct report_row *g, size_t *count)
{
	char **vals = NULL;
	size_t n = 0;

	for (size_t i = 0; i < r->st->nruns; i++) {
		const struct run *u = &r->st->runs[i];

		if (report_row_has(g, u) && strcmp(u->flush, "none"))
			add_value(&vals, &n, printable(xstrdup(flush_scope(u->flush))));
	}
	*count = n;
	return join_values(vals, n);
}

/* A row's values of key, each distinct one once, joined by " / ", and how
 * many there are in *count; NULL when the row has no environment record.
 * Raw: as stored, absent ones left out, for the data formats; else as
 * compared and shown, absent ones as "absent", and the flush as the runs
 * record it. */
char *report_row_value(const struct report *r, const struct report_row *g, const char *key,
		       int raw, size_t *count)
{
	char **vals = NULL;
	size_t n = 0;

	*count = 1;
	if (!strcmp(key, "workload"))
		return xstrdup(g->identity);
	if (!strcmp(key, "load_session"))
		return xstrdup(g->load_session ? "yes" : "no");
	if (!strcmp(key, "probe"))
		return xstrdup(g->probe ? "yes" : "no");
	if (!strcmp(key, "flush") && !raw)
		return row_flush(r, g, count);
	for (size_t e = 0; e < g->nenvs; e++) {
		const char *v = record_get(g->envs[e], key);

		if (raw && !v)
			continue;
		add_value(&vals, &n, raw ? xstrdup(v) : normalised(key, v ? v : "absent"));
	}
	*count = n;
	return join_values(vals, n);
}

/* The sizes the load of a row's runs of type t used (params), each distinct
 * value once, joined by " / ", how many in *count; NULL without such runs.
 * Raw: as stored, runs without it left out; else as shown, "absent" for
 * runs recorded without it. */
char *report_cell_param(const struct report *r, size_t g, size_t t, const char *key, int raw,
			size_t *count)
{
	const struct report_row *row = &r->rows[g];
	struct sel s = { row->label, r->types[t], row->identity, row->load_session, row->probe,
			 row->host };
	char **vals = NULL;
	size_t n = 0;

	for (size_t i = 0; i < r->st->nruns; i++) {
		const struct run *u = &r->st->runs[i];
		const char *v;

		if (!selected(u, &s))
			continue;
		v = record_get(&u->params, key);
		if (raw && !v)
			continue;
		add_value(&vals, &n, raw ? xstrdup(v) : normalised(key, v ? v : "absent"));
	}
	*count = n;
	return join_values(vals, n);
}

static void add_key(char ***keys, size_t *n, const char *key)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*keys)[i], key))
			return;
	*keys = xrealloc(*keys, (*n + 1) * sizeof(**keys));
	(*keys)[(*n)++] = (char *)key;
}

/* Every key of the rows' environment records, in first-seen order. */
char **report_env_keys(const struct report *r, size_t *n)
{
	char **keys = NULL;

	*n = 0;
	for (size_t i = 0; i < r->nrows; i++)
		for (size_t e = 0; e < r->rows[i].nenvs; e++)
			for (size_t k = 0; k < r->rows[i].envs[e]->n; k++)
				add_key(&keys, n, r->rows[i].envs[e]->kv[k].key);
	return keys;
}

/* Every name of the loads' sizes in the runs of type t (every type: t ==
 * ntypes) of the rows, in first-seen order. */
char **report_param_keys(const struct report *r, size_t t, size_t *n)
{
	char **keys = NULL;

	*n = 0;
	for (size_t i = 0; i < r->st->nruns; i++) {
		const struct run *u = &r->st->runs[i];
		int shown = 0;

		if (!u->valid || (t < r->ntypes && strcmp(u->type, r->types[t])))
			continue;
		for (size_t g = 0; g < r->nrows && !shown; g++)
			shown = report_row_has(&r->rows[g], u);
		for (size_t k = 0; shown && k < u->params.n; k++)
			add_key(&keys, n, u->params.kv[k].key);
	}
	return keys;
}

/* Whether row j's machine is that of an earlier row of i..j. */
static int host_seen(const struct report *r, size_t i, size_t j)
{
	for (size_t k = i; k < j; k++)
		if (!strcmp(r->rows[k].host, r->rows[j].host))
			return 1;
	return 0;
}

/* Under the tables, a line for each label split by machine, workload or
 * configuration. */
static void print_splits(struct report_out *o, const struct report *r)
{
	for (size_t i = 0; i < r->nrows; i++) {
		size_t k = i;
		int sessions = r->rows[i].load_session | r->rows[i].probe;
		char *line = NULL;

		while (k + 1 < r->nrows && r->rows[k + 1].label == r->rows[i].label) {
			k++;
			sessions |= r->rows[k].load_session | r->rows[k].probe;
		}
		if (k > i) {
			size_t hosts = 0;

			for (size_t j = i; j <= k; j++) {
				append(&line, "%s%s", j > i ? (j == k ? " and " : ", ") : "",
				       r->rows[j].name);
				hosts += r->rows[j].host && !host_seen(r, i, j);
			}
			if (hosts > 1)
				note(o, "%s: %s measured on %zu machines%s, shown apart", line,
				     r->rows[i].label, hosts, k - i + 1 > hosts ?
				     " and in several workloads or configurations" : "");
			else
				note(o, "%s: %s measured %s %zu %s, shown apart", line,
				     r->rows[i].label, sessions ? "in" : "on", k - i + 1,
				     sessions ? "configurations" : "workloads");
			free(line);
		}
		i = k;
	}
}

/* One line of the differences, under their heading, when the rows' values
 * (vals[i]: NULL where the row has none; count[i] > 1: its sessions or
 * runs differ) are not all alike. */
static void difference(struct report_out *o, const struct report *r, const char *name,
		       char *const *vals, const size_t *count, int *header)
{
	const char *first = NULL;
	char *line = NULL;
	int differ = 0;

	for (size_t i = 0; i < r->nrows; i++) {
		if (!vals[i])
			continue;
		/* between rows, or between the sessions of one row */
		if ((first && strcmp(first, vals[i])) || count[i] > 1)
			differ = 1;
		if (!first)
			first = vals[i];
	}
	if (!differ)
		return;
	if (!(*header)++)
		note(o, "Measured differently (besides the kernel):");
	for (size_t i = 0, n = 0; i < r->nrows; i++)
		if (vals[i])
			append(&line, "%s %s %s", n++ ? "," : "", r->rows[i].name, vals[i]);
	note(o, "%s:%s", name, line);
	free(line);
}

/* Under the tables: every field of the environment records in which the
 * rows, or the sessions averaged in one row, were not measured alike, the
 * flush of their runs, then every size a load used ("io_load file_size"),
 * one line each. */
static void print_differences(struct report_out *o, const struct report *r)
{
	char **keys = NULL, **vals = xcalloc(r->nrows, sizeof(*vals));
	size_t nkeys = 0, *count = xcalloc(r->nrows, sizeof(*count));
	int decomposed = 1, header = 0, sessions = 0, probes = 0;

	add_key(&keys, &nkeys, "workload");
	add_key(&keys, &nkeys, "flush");
	for (size_t i = 0; i < r->nrows; i++) {
		sessions |= r->rows[i].load_session;
		probes |= r->rows[i].probe;
		if (!r->rows[i].nenvs)
			decomposed = 0;
		for (size_t e = 0; e < r->rows[i].nenvs; e++) {
			const struct record *rec = r->rows[i].envs[e];

			if (!record_get(rec, "workload_kind"))
				decomposed = 0;
			for (size_t k = 0; k < rec->n; k++)
				if (!ignored(rec->kv[k].key))
					add_key(&keys, &nkeys, rec->kv[k].key);
		}
	}
	if (sessions)
		add_key(&keys, &nkeys, "load_session");
	if (probes)
		add_key(&keys, &nkeys, "probe");
	for (size_t k = 0; k < nkeys; k++) {
		if (!strcmp(keys[k], "workload") && decomposed)
			continue;
		for (size_t i = 0; i < r->nrows; i++)
			vals[i] = report_row_value(r, &r->rows[i], keys[k], 0, &count[i]);
		difference(o, r, keys[k], vals, count, &header);
		for (size_t i = 0; i < r->nrows; i++)
			free(vals[i]);
	}
	free(keys);
	for (size_t t = 0; t < r->ntypes; t++) {
		keys = report_param_keys(r, t, &nkeys);
		for (size_t k = 0; k < nkeys; k++) {
			char *name = xasprintf("%s %s", r->types[t], keys[k]);

			for (size_t i = 0; i < r->nrows; i++)
				vals[i] = report_cell_param(r, i, t, keys[k], 0, &count[i]);
			difference(o, r, name, vals, count, &header);
			for (size_t i = 0; i < r->nrows; i++)
				free(vals[i]);
			free(name);
		}
		free(keys);
	}
	free(vals);
	free(count);
}

/* One line: what a '*' means, or why no test was made.  Where some cells
 * were tested and others not, both fit on the line for a short baseline
 * label; past 80 columns the reason goes on a line of its own. */
static void print_legend(struct report_out *o, const struct report *r)
{
	const char *why = r->few && r->flat ? "fewer than 2 valid runs on a side, or no spread"
			: r->few ? "fewer than 2 valid runs on a side"
			: "no spread on either side";
	const char *brief = r->few && r->flat ? "< 2 runs or no spread"
			  : r->few ? "< 2 runs" : "no spread";
	char *star;

	if (!r->compared)
		return;
	if (!r->tests) {
		note(o, "No significance test against %s: %s", r->test_base, why);
		return;
	}
	star = xasprintf("* differs from %s (Welch's t-test, Holm-adjusted p < %g)",
			 r->test_base, r->alpha);
	if (!r->few && !r->flat) {
		note(o, "%s", star);
	} else if (strlen(star) + strlen("; no test: ") + strlen(brief) <= 80) {
		note(o, "%s; no test: %s", star, brief);
	} else {
		note(o, "%s", star);
		note(o, "No test where: %s", why);
	}
	free(star);
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

/* Whose noload the Ratios divide by, where a row has several sessions and
 * the two ways differ; the runs a row's Ratios leave out. */
static void print_ratio_notes(struct report_out *o, const struct report *r)
{
	const char *scope = report_noload_scope(r);

	if (scope)
		note(o, "Ratio: Times over %s (%s)", scope,
		     r->pool_noload ? "--pool-noload" : "--pool-noload pools the sessions");
	for (size_t g = 0; g < r->nrows; g++)
		if (r->rows[g].unpaired)
			note(o, "%s: %zu run%s of sessions without a noload left out of its Ratios",
			     r->rows[g].name, r->rows[g].unpaired,
			     r->rows[g].unpaired == 1 ? "" : "s");
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

int report_label_width(const struct report *r)
{
	int w = LABEL_WIDTH;

	for (size_t i = 0; i < r->nrows; i++)
		if ((int)strlen(r->rows[i].name) > w)
			w = (int)strlen(r->rows[i].name);
	return w;
}

/* Per row, the coefficient of variation of its noload Times: how far apart
 * two runs of one kernel fall on this machine. */
static void print_noise(struct report_out *o, const struct report *r)
{
	for (size_t g = 0; g < r->nrows; g++) {
		const struct cell *c = report_noload_of(r, g);

		if (c && c->n >= 2)
			note(o, "%-*s noise: %.1f%% over %zu runs", report_label_width(r),
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
/* --columns */
static const struct column col_extra[] = {
	NUM("Loads/s", 7, MARK_NONE, loads_per_s, 2),
	NUM("CPU+L%", 6, MARK_NONE, cpu_total, 0),
	NUM("Idle%", 5, MARK_NONE, idle, 1),
	NUM("IOwt%", 5, MARK_NONE, iowait, 1),
	NUM("MajFlt", 6, MARK_NONE, majflt, 0),
	NUM("SwpIn", 5, MARK_NONE, pswpin, 0),
	NUM("SwpOut", 6, MARK_NONE, pswpout, 0),
};

/* The columns of the tables: the 2002 layout, with the spread (--stats)
 * and the system figures (--columns). */
static size_t pick_columns(const struct report_opts *o, const struct column **cols)
{
	size_t n = 0;

	cols[n++] = &col_runs;
	cols[n++] = &col_time;
	if (o->stats)
		cols[n++] = &col_sd;
	cols[n++] = &col_cpu;
	cols[n++] = &col_loads;
	cols[n++] = &col_lcpu;
	cols[n++] = &col_ratio;
	if (o->stats)
		cols[n++] = &col_ci;
	for (size_t i = 0; o->columns && i < ARRAY_SIZE(col_extra); i++)
		cols[n++] = &col_extra[i];
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

/* Run type t's table: every column's text in every row with runs of t. */
static void table_build(const struct report *r, const struct report_opts *o, size_t t,
			struct report_table *tb)
{
	const struct column *cols[REPORT_MAX_COLUMNS];

	tb->ncols = pick_columns(o, cols);
	tb->text = xcalloc(r->nrows * tb->ncols, REPORT_CELL_TEXT);
	tb->mark = xcalloc(r->nrows * tb->ncols, 1);
	for (size_t c = 0; c < tb->ncols; c++) {
		tb->head[c] = cols[c]->head;
		tb->width[c] = cols[c]->width;
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
	int gap = o->gap;

	o->gap = 0;	/* set off from the table; the notes below keep their own */
	for (size_t g = 0; g < r->nrows; g++) {
		const struct cell *c = report_cell(r, g, t);
		size_t count;
		char *swap;

		if (!c->n || isnan(c->pswpout) || c->pswpout > 0)
			continue;
		/* the runs' own load.swap, else (older runs) the sessions' swap_total */
		swap = report_cell_param(r, g, t, "swap", 1, &count);
		if (!swap) {
			swap = report_row_value(r, &r->rows[g], "swap_total", 1, &count);
			if (swap && !strcmp(swap, "0"))
				strcpy(swap, "no");
		}
		note(o, "%s: %s", r->rows[g].name, swap && !strcmp(swap, "no") ?
		     "no swap: mem_load did not page" : "mem_load did not page (no page swapped out)");
		free(swap);
	}
	o->gap = gap;
}

void report_tables(FILE *f, const struct report *r, const struct report_opts *opts,
		   void (*table)(FILE *f, const struct report *r, size_t t,
				 struct report_table *tb),
		   void (*line)(FILE *f, const char *text))
{
	struct report_out o = { f, line, 0 };

	for (size_t t = 0; t < r->ntypes; t++) {
		struct report_table tb;

		if (t)
			fputc('\n', f);
		table_build(r, opts, t, &tb);
		table(f, r, t, &tb);
		free(tb.text);
		free(tb.mark);
		if (!strcmp(r->types[t], "mem_load"))
			print_paging(&o, r, t);
	}
	print_legend(&o, r);
	print_ratio_notes(&o, r);
	print_noise(&o, r);
	print_splits(&o, r);
	print_differences(&o, r);
}

/* ---- the figures of a cell, by name ----------------------------------------- */

/* How the Ratios chose their noload: of the run's own session, or pooled
 * over the sessions (of the row's label, or of --baseline's). */
const char *report_ratio_noload(const struct report *r)
{
	return r->ratio_base || r->pool_noload ? "pooled" : "session";
}

void report_put_num(FILE *f, double v, const char *before, const char *none)
{
	if (isnan(v) || isinf(v))
		fprintf(f, "%s%s", before, none);
	else
		fprintf(f, "%s%.10g", before, v);
}

const char *const report_metrics[REPORT_NMETRICS] = { "time", "cpu", "loads", "lcpu" };

const struct summary *report_metric(const struct cell *c, size_t m)
{
	const struct summary *s[] = { &c->time, &c->cpu, &c->loads, &c->lcpu };

	return s[m];
}

const char *const report_summary_fields[REPORT_NSUMMARY] = {
	"mean", "sd", "min", "median", "max", "ci_lo", "ci_hi",
};

void report_summary_values(const struct summary *s, double *v)
{
	double half = ci_half_width(s, REPORT_LEVEL);

	v[0] = s->mean;
	v[1] = s->sd;
	v[2] = s->min;
	v[3] = s->median;
	v[4] = s->max;
	v[5] = s->mean - half;
	v[6] = s->mean + half;
}

const char *const report_test_fields[REPORT_NTEST] = { "t", "df", "p", "p_holm" };

void report_test_values(const struct sigtest *t, double *v)
{
	v[0] = t->w.t;
	v[1] = t->w.df;
	v[2] = t->w.p;
	v[3] = t->p_holm;
}

const char *const report_system_fields[REPORT_NSYSTEM] = {
	"loads_per_s", "cpu_total", "idle", "iowait", "majflt", "pswpin", "pswpout",
};

void report_system_values(const struct cell *c, double *v)
{
	v[0] = c->loads_per_s;
	v[1] = c->cpu_total;
	v[2] = c->idle;
	v[3] = c->iowait;
	v[4] = c->majflt;
	v[5] = c->pswpin;
	v[6] = c->pswpout;
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
	struct report r;

	if (o->latency && o->format == REPORT_KEYVALUE)
		return whyf(why, len, "--latency prints text, markdown, csv or json, not keyvalue");
	if (report_build(st, o, &r, why, len))
		return -1;
	if (o->latency) {
		int rc = report_latency_print(f, &r, o->format, why, len);

		report_free(&r);
		return rc;
	}
	printers[o->format]->print(f, &r, o);
	if (r.unmatched)
		msg("baseline '%s' has no noload run of the workload of some rows: their "
		    "Ratio is -", r.ratio_base);
	count_invalid(st, r.labels, r.nlabels);
	report_free(&r);
	return 0;
}
