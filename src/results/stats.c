/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stats.c - the statistics of a report: summaries, intervals and tests. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/stats.h"
#include "lib/util.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void summarise(const double *v, size_t n, struct summary *s)
{
	double sum = 0, ss = 0, *sorted;

	s->n = n;
	if (n == 0) {
		s->mean = s->sd = s->min = s->median = s->max = NAN;
		return;
	}
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	s->mean = sum / (double)n;
	/* two passes: the textbook one-pass formula loses precision */
	for (size_t i = 0; i < n; i++)
		ss += (v[i] - s->mean) * (v[i] - s->mean);
	s->sd = n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;

	sorted = xreallocarray(NULL, n, sizeof(*sorted));
	memcpy(sorted, v, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);
	s->min = sorted[0];
	s->max = sorted[n - 1];
	/* equal values: exactly no spread, not the rounding of their mean */
	if (s->min == s->max) {
		s->mean = s->min;
		s->sd = n > 1 ? 0 : NAN;
	}
	s->median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	free(sorted);
}

double summary_cv(const struct summary *s)
{
	return s->n > 1 ? s->sd / s->mean : NAN;
}

/* The continued fraction of I_x(a, b) (DLMF 8.17.22), evaluated with the
 * modified Lentz method; converges fast for x < (a + 1) / (a + b + 2). */
static double incbeta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double f = 1, c = 1, d = 0;

	/* f = 1 / (1 + d1 / (1 + d2 / (1 + ...))): term 0 is the leading 1 */
	for (int i = 0; i <= 400; i++) {
		double m = (double)(i / 2), num, delta;

		if (i == 0)
			num = 1;
		else if (i % 2)
			num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		else
			num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		if (fabs(d) < tiny)
			d = tiny;
		d = 1 / d;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		delta = c * d;
		f *= delta;
		if (fabs(delta - 1) < eps)
			break;
	}
	return f - 1;
}

double incbeta(double a, double b, double x)
{
	double front;

	if (isnan(x) || x < 0 || x > 1 || !(a > 0) || !(b > 0))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	if (x > (a + 1) / (a + b + 2))
		return 1 - incbeta(b, a, 1 - x);
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x)) / a;
	return front * incbeta_cf(a, b, x);
}

/* P(T > t) for t >= 0, without the cancellation of 1 - t_cdf(t). */
static double t_upper(double t, double df)
{
	if (isinf(t))
		return 0;
	return incbeta(df / 2, 0.5, df / (df + t * t)) / 2;
}

double t_cdf(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	return t >= 0 ? 1 - t_upper(t, df) : t_upper(-t, df);
}

double t_quantile(double p, double df)
{
	double q, lo = 0, hi = 1;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p < 0.5)
		return -t_quantile(1 - p, df);
	q = 1 - p;
	if (q == 0.5)
		return 0;
	/* the upper tail falls as t grows: bracket, then halve */
	while (t_upper(hi, df) > q && hi < 1e300)
		hi *= 2;
	for (int i = 0; i < 2000 && hi - lo > 1e-15 * hi; i++) {
		double mid = lo + (hi - lo) / 2;

		if (t_upper(mid, df) > q)
			lo = mid;
		else
			hi = mid;
	}
	return lo + (hi - lo) / 2;
}

double ci_half_width(const struct summary *s, double level)
{
	if (s->n < 2 || !(level > 0 && level < 1))
		return NAN;
	return t_quantile(1 - (1 - level) / 2, (double)(s->n - 1)) * s->sd / sqrt((double)s->n);
}

/* The variance of a sample's mean. */
static double mean_var(const struct summary *s)
{
	return s->sd * s->sd / (double)s->n;
}

/* Welch-Satterthwaite: the degrees of freedom of va + vb, two variances of
 * means of na and nb values. */
static double satterthwaite(double va, size_t na, double vb, size_t nb)
{
	return (va + vb) * (va + vb) /
	       (va * va / (double)(na - 1) + vb * vb / (double)(nb - 1));
}

int welch_test(const struct summary *a, const struct summary *b, struct welch *w)
{
	double va, vb;

	w->t = w->df = w->p = NAN;
	if (a->n < 2 || b->n < 2)
		return -1;
	va = mean_var(a);
	vb = mean_var(b);
	if (va + vb == 0)
		return -1; /* no spread on either side: t is undefined */
	w->t = (a->mean - b->mean) / sqrt(va + vb);
	w->df = satterthwaite(va, a->n, vb, b->n);
	w->p = 2 * t_upper(fabs(w->t), w->df);
	return 0;
}

/* ---- the power of Welch's test ------------------------------------------- */

/* Nodes per variance (odd: Simpson's rule), and the critical values
 * tabulated over the degrees of freedom the test can take. */
#define POWER_NODES 81
#define POWER_DFS 129

/* P(Z > x), Z standard normal. */
static double normal_upper(double x)
{
	return erfc(x / M_SQRT2) / 2;
}

/* Nodes x[] and weights w[] (summing to 1) of E g(X), X chi-square with nu
 * degrees of freedom: Simpson's rule over z = log X, whose density is
 * smooth and single-peaked; the range leaves out less than 1e-4 at either
 * end. */
static void chisq_nodes(double nu, double *x, double *w)
{
	double lo = log(nu) - fmax(20 / nu, 8 * sqrt(2 / nu));
	double hi = log(nu + 10 * sqrt(2 * nu) + 40);
	double h = (hi - lo) / (POWER_NODES - 1), sum = 0;

	for (int i = 0; i < POWER_NODES; i++) {
		double z = lo + i * h;

		x[i] = exp(z);
		/* the density of log X, x^(nu/2) e^(-x/2), over its value at the mode */
		w[i] = (i == 0 || i == POWER_NODES - 1 ? 1 : i % 2 ? 4 : 2) *
		       exp(nu / 2 * (z - log(nu)) - (x[i] - nu) / 2);
		sum += w[i];
	}
	for (int i = 0; i < POWER_NODES; i++)
		w[i] /= sum;
}

/* The test's rejections, as the samples' spread varies: node i of the two
 * variances has weight w[i] and rejects when |D| > k[i], D the difference
 * of means over its true standard error; the n nodes of weight over 1e-12
 * (they leave out less than 1e-7 of it, and most of the grid). */
struct power_grid {
	size_t n;
	double w[POWER_NODES * POWER_NODES];
	double k[POWER_NODES * POWER_NODES];
};

/* ra, rb: each side's share of the variance of the difference of means
 * (summing to 1); na, nb: the sizes. */
static void power_grid(struct power_grid *g, double ra, double rb, size_t na, size_t nb,
		       double alpha)
{
	double nua = (double)(na - 1), nub = (double)(nb - 1);
	double xa[POWER_NODES], wa[POWER_NODES], xb[POWER_NODES], wb[POWER_NODES];
	/* the critical value's log, linear in 1 / df between the least and
	 * the most degrees of freedom Welch's formula gives */
	double ulo = 1 / (nua + nub), uhi = 1 / fmin(nua, nub), logc[POWER_DFS];
	double step = (uhi - ulo) / (POWER_DFS - 1);

	for (int i = 0; i < POWER_DFS; i++)
		logc[i] = log(t_quantile(1 - alpha / 2, 1 / (ulo + i * step)));
	chisq_nodes(nua, xa, wa);
	chisq_nodes(nub, xb, wb);
	for (int i = 0; i < POWER_NODES; i++) {
		for (int j = 0; j < POWER_NODES; j++) {
			double va = ra * xa[i] / nua, vb = rb * xb[j] / nub, v = va + vb;
			/* 1 / df, and where it falls in the table (kept inside
			 * against rounding) */
			double u = (va * va / nua + vb * vb / nub) / (v * v), at, logc_u;
			int cell;

			if (wa[i] * wb[j] <= 1e-12)
				continue;
			at = fmin(fmax((u - ulo) / step, 0), POWER_DFS - 1);
			cell = at < POWER_DFS - 1 ? (int)at : POWER_DFS - 2;
			logc_u = logc[cell] + (at - cell) * (logc[cell + 1] - logc[cell]);
			g->w[g->n] = wa[i] * wb[j];
			g->k[g->n++] = sqrt(v) * exp(logc_u);
		}
	}
}

/* The test's power against a true difference of d standard errors, and
 * its slope in d. */
static double power_at(const struct power_grid *g, double d, double *slope)
{
	double p = 0, s = 0;

	for (size_t i = 0; i < g->n; i++) {
		double lo = g->k[i] - d, hi = g->k[i] + d;

		p += g->w[i] * (normal_upper(lo) + normal_upper(hi));
		s += g->w[i] * (exp(-lo * lo / 2) - exp(-hi * hi / 2));
	}
	*slope = s / sqrt(2 * M_PI);
	return p;
}

double welch_detectable(const struct summary *a, const struct summary *b, double alpha,
			double power)
{
	struct power_grid *g;
	double va, vb, lo = 0, hi = 1, d, p, slope;

	if (a->n < 2 || b->n < 2 || !(alpha > 0 && alpha < power && power < 1))
		return NAN;
	va = mean_var(a);
	vb = mean_var(b);
	if (!(va + vb > 0))
		return NAN; /* no spread on either side: no test */
	g = xcalloc(1, sizeof(*g));
	power_grid(g, va / (va + vb), vb / (va + vb), a->n, b->n, alpha);
	while (power_at(g, hi, &slope) < power && hi < 1e6)
		hi *= 2;
	/* Newton's steps, kept inside the bracket [lo, hi] by halving it */
	d = lo + (hi - lo) / 2;
	for (int i = 0; i < 200; i++) {
		double next;

		p = power_at(g, d, &slope);
		if (p < power)
			lo = d;
		else
			hi = d;
		next = d - (p - power) / slope;
		if (!(next > lo && next < hi))
			next = lo + (hi - lo) / 2;
		if (fabs(next - d) <= 1e-7 * d)
			break;
		d = next;
	}
	free(g);
	return d * sqrt(va + vb);
}

struct ranked {
	double p;
	size_t i;
};

static int by_p(const void *x, const void *y)
{
	const struct ranked *a = x, *b = y;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return (a->i > b->i) - (a->i < b->i);
}

void holm_adjust(const double *p, double *adj, size_t n)
{
	struct ranked *r = xcalloc(n ? n : 1, sizeof(*r));
	size_t m = 0;
	double run = 0;

	for (size_t i = 0; i < n; i++)
		if (!isnan(p[i]))
			r[m++] = (struct ranked){ p[i], i };
	qsort(r, m, sizeof(*r), by_p);
	for (size_t i = 0; i < n; i++)
		adj[i] = NAN;
	/* the k-th smallest is multiplied by m - k (k from 0), and the
	 * adjusted values never fall on the way up */
	for (size_t k = 0; k < m; k++) {
		double v = fmin(1, (double)(m - k) * r[k].p);

		run = fmax(run, v);
		adj[r[k].i] = run;
	}
	free(r);
}

int ratio_interval(const struct summary *a, const struct summary *b, double level,
		   double *ratio, double *lo, double *hi)
{
	double va, vb, r, t, g, half;

	*ratio = b->n && b->mean != 0 ? a->mean / b->mean : NAN;
	*lo = *hi = NAN;
	if (a->n < 2 || b->n < 2 || isnan(*ratio) || !(level > 0 && level < 1))
		return -1;
	r = *ratio;
	va = mean_var(a);
	vb = mean_var(b);
	if (va + r * r * vb == 0) {
		*lo = *hi = r;
		return 0;
	}
	t = t_quantile(1 - (1 - level) / 2, satterthwaite(va, a->n, r * r * vb, b->n));
	g = t * t * vb / (b->mean * b->mean);
	if (g >= 1)
		return -1;
	half = t / fabs(b->mean) * sqrt(va * (1 - g) + r * r * vb);
	*lo = (r - half) / (1 - g);
	*hi = (r + half) / (1 - g);
	return 0;
}
