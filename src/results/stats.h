/* SPDX-License-Identifier: GPL-2.0-or-later */
/* stats.h - the statistics of a report: summaries, intervals and tests. */
#ifndef CONTEST_STATS_H
#define CONTEST_STATS_H

#include <stddef.h>

struct summary {
	size_t n;
	double mean;
	double sd;     /* sample standard deviation (n - 1); NaN when n < 2 */
	double min, median, max;
};

/* Summarise v[0..n); v is not changed.  n == 0 gives NaNs. */
void summarise(const double *v, size_t n, struct summary *s);

/* sd / mean: the coefficient of variation (a fraction); NaN when n < 2. */
double summary_cv(const struct summary *s);

/* The regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1. */
double incbeta(double a, double b, double x);
/* Student's t distribution with df > 0 degrees of freedom (df need not be
 * whole: Welch's df is not): P(T <= t), and its inverse for 0 < p < 1. */
double t_cdf(double t, double df);
double t_quantile(double p, double df);

/* Half the width of the two-sided confidence interval of the mean at level
 * (0.95 for 95%): t(1 - (1 - level) / 2, n - 1) * sd / sqrt(n).  NaN when
 * n < 2.  `-n auto` stops once this is small enough. */
double ci_half_width(const struct summary *s, double level);

/* Welch's unequal-variance t-test of mean(a) == mean(b), two-sided. */
struct welch {
	double t;  /* (mean a - mean b) / se */
	double df; /* Welch-Satterthwaite */
	double p;
};

/* -1 when no test can be made: a side has fewer than 2 values, or
 * neither side varies (identical values, as in a table of means typed in:
 * the t statistic is undefined). */
int welch_test(const struct summary *a, const struct summary *b, struct welch *w);

/* The smallest true difference of means, in their unit, that Welch's test
 * (two-sided, at level alpha) finds with probability power (0.8: the power
 * of a comparison), were the true spreads those a and b show and the
 * samples as large.  The probability is that of the test as welch_test()
 * makes it: its t over the samples' own standard error, against the t
 * quantile of their Welch-Satterthwaite degrees of freedom, both of which
 * vary with the samples' spread (integrated over the chi-square laws of the
 * two variances).  NaN when no test can be made (as welch_test()), or
 * unless alpha < power < 1. */
double welch_detectable(const struct summary *a, const struct summary *b, double alpha,
			double power);

/* Holm's step-down adjustment of the n p-values p[] into adj[] (may be the
 * same array).  NaN entries are tests not made: they stay NaN and do not
 * count in the family. */
void holm_adjust(const double *p, double *adj, size_t n);

/* The ratio mean(a) / mean(b) of two independent samples and its two-sided
 * confidence interval at level by Fieller's theorem, so that the noise of
 * both a and b counts: the interval holds the rho for which
 *	(mean a - rho mean b)^2 <= t^2 (se_a^2 + rho^2 se_b^2),
 * t with the Welch-Satterthwaite degrees of freedom of mean a - R mean b.
 * -1 with *lo and *hi NaN when a side has fewer than 2 values, or when
 * mean(b) is not clearly away from 0 (the interval is unbounded). */
int ratio_interval(const struct summary *a, const struct summary *b, double level,
		   double *ratio, double *lo, double *hi);

#endif
