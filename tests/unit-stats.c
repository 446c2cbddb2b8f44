/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit-stats.c - the statistics against values computed independently.
 * The values computed in Python come from tests/data/stats-reference.py,
 * which recomputes every figure quoted here (python3, standard library). */
#include "config.h"

#include <math.h>
#include <stdint.h>

#include "results/stats.h"
#include "lib/util.h"
#include "tap.h"

static void test_summary(void)
{
	struct summary s;

	/* 2 4 4 4 5 5 7 9: mean 5, squares about the mean sum to 32, so the
	 * sample sd is sqrt(32/7) (by hand). */
	double a[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	summarise(a, 8, &s);
	is_num(s.mean, 5.0, 1e-12, "mean of 2 4 4 4 5 5 7 9");
	is_num(s.sd, 2.1380899352993950, 1e-12, "sample sd is sqrt(32/7) = 2.13808993529939");
	is_num(s.median, 4.5, 1e-12, "median of an even count averages the middle two");
	is_num(s.min, 2, 0, "min");
	is_num(s.max, 9, 0, "max");

	/* NIST StRD NumAcc4: 1000000000.2, then 1000000000.1 and .3 alternating
	 * (1001 values); certified mean 1000000000.2, sd 0.1.  A one-pass
	 * formula fails this one. */
	static double big[1001];
	big[0] = 1000000000.2;
	for (int i = 1; i < 1001; i++)
		big[i] = i % 2 ? 1000000000.1 : 1000000000.3;
	summarise(big, 1001, &s);
	is_num(s.mean, 1000000000.2, 1e-6, "NumAcc4 certified mean");
	is_num(s.sd, 0.1, 1e-6, "NumAcc4 certified standard deviation 0.1");

	/* Five compile times; sd computed independently with Python
	 * (tests/data/stats-reference.py):
	 * statistics.stdev([97.2, 103.1, 99.8, 101.0, 98.4]) = 2.2912878474779164 */
	double t[] = { 97.2, 103.1, 99.8, 101.0, 98.4 };
	summarise(t, 5, &s);
	is_num(s.mean, 99.9, 1e-9, "mean of five compile times");
	is_num(s.sd, 2.2912878474779164, 1e-12, "sd of five compile times (Python: 2.29128784747792)");
	is_num(s.median, 99.8, 0, "median of an odd count is the middle value");
	is_num(summary_cv(&s), 2.2912878474779164 / 99.9, 1e-15, "coefficient of variation");
	/* 95% CI half-width: t(0.975, 4) = 2.776 (table below) x sd / sqrt(5) */
	is_num(ci_half_width(&s, 0.95), 2.776 * 2.2912878474779164 / sqrt(5), 0.0005,
	       "95%% CI half-width of the mean, n = 5: 2.8447");

	/* 0.1 three times: the mean rounds to 0.10000000000000002 in floating
	 * point, which must not read as spread */
	double same[] = { 0.1, 0.1, 0.1 };
	summarise(same, 3, &s);
	ok(s.sd == 0 && s.mean == 0.1, "equal values: sd exactly 0, mean exactly the value");

	double one[] = { 42 };
	summarise(one, 1, &s);
	ok(s.n == 1 && s.mean == 42 && isnan(s.sd), "one value: mean, and no sd");
	ok(isnan(ci_half_width(&s, 0.95)) && isnan(summary_cv(&s)), "one value: no interval, no cv");
	summarise(one, 0, &s);
	ok(s.n == 0 && isnan(s.mean), "no values: NaN mean");
}

/* Upper critical values t(1 - alpha, df) from the NIST/SEMATECH e-Handbook of
 * Statistical Methods, section 1.3.6.7.2, "Critical Values of the Student's t
 * Distribution" (https://www.itl.nist.gov/div898/handbook/eda/section3/eda3672.htm);
 * the same figures as Biometrika Tables for Statisticians vol. 1, table 12. */
static void test_t_table(void)
{
	static const double alpha[] = { 0.10, 0.05, 0.025, 0.01, 0.005 };
	static const struct {
		double df;
		double t[5];
	} table[] = {
		{ 1, { 3.078, 6.314, 12.706, 31.821, 63.657 } },
		{ 2, { 1.886, 2.920, 4.303, 6.965, 9.925 } },
		{ 3, { 1.638, 2.353, 3.182, 4.541, 5.841 } },
		{ 4, { 1.533, 2.132, 2.776, 3.747, 4.604 } },
		{ 5, { 1.476, 2.015, 2.571, 3.365, 4.032 } },
		{ 9, { 1.383, 1.833, 2.262, 2.821, 3.250 } },
		{ 10, { 1.372, 1.812, 2.228, 2.764, 3.169 } },
		{ 30, { 1.310, 1.697, 2.042, 2.457, 2.750 } },
		{ 100, { 1.290, 1.660, 1.984, 2.364, 2.626 } },
	};
	int bad = 0;

	for (size_t r = 0; r < sizeof(table) / sizeof(table[0]); r++)
		for (size_t c = 0; c < 5; c++) {
			double got = t_quantile(1 - alpha[c], table[r].df);

			/* the table rounds to 3 decimals */
			if (!(fabs(got - table[r].t[c]) <= 0.0005 + 1e-9)) {
				printf("# t(%.3f, %g) = %.5f, table %.3f\n", 1 - alpha[c],
				       table[r].df, got, table[r].t[c]);
				bad++;
			}
		}
	ok(!bad, "t quantiles match the NIST table (45 values, df 1 to 100)");
	is_num(t_quantile(0.025, 4), -2.776, 0.0005, "lower quantiles by symmetry");
	is_num(t_quantile(0.5, 3), 0, 0, "median of t is 0");
	is_num(t_cdf(2.776445105, 4), 0.975, 1e-8, "t_cdf inverts t_quantile");
	is_num(t_cdf(-12.706, 1), 0.025, 1e-5, "t_cdf lower tail, df 1");
	/* a fractional df (Welch's are): Python, integrating the t density with
	 * Simpson's rule (math.lgamma only) and solving for the quantile:
	 * 2.3330396268649283 (tests/data/stats-reference.py prints
	 * 2.333039626864971 by Newton's method) */
	is_num(t_quantile(0.975, 7.5), 2.3330396268649283, 1e-9, "t(0.975, 7.5) = 2.33304");
	ok(isnan(t_quantile(1, 3)) && isnan(t_quantile(0.9, 0)), "no quantile outside (0,1) or df <= 0");
	/* I_x(a, 1) = x^a and I_x(1, b) = 1 - (1 - x)^b (DLMF 8.17.1) */
	is_num(incbeta(3, 1, 0.4), 0.064, 1e-14, "I_0.4(3, 1) = 0.4^3");
	is_num(incbeta(1, 4, 0.25), 1 - pow(0.75, 4), 1e-14, "I_0.25(1, 4) = 1 - 0.75^4");
	is_num(incbeta(2.5, 2.5, 0.5), 0.5, 1e-14, "I_0.5(a, a) = 1/2");
}

/* Student's sleep data (Cushny and Peebles 1905; R's `sleep` data set),
 * extra hours of sleep under drug 1 and drug 2 as two samples.  R's
 * t.test(extra ~ group, data = sleep) prints "Welch Two Sample t-test ...
 * t = -1.8608, df = 17.776, p-value = 0.07939" (R documentation of t.test;
 * also quoted by the afex package's compare.2.vectors example). */
static void test_welch(void)
{
	double g1[] = { 0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0 };
	double g2[] = { 1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4 };
	struct summary a, b, c;
	struct welch w;

	summarise(g1, 10, &a);
	summarise(g2, 10, &b);
	ok(welch_test(&a, &b, &w) == 0, "Welch test of the sleep data");
	is_num(w.t, -1.8608, 0.00005, "t = -1.8608");
	is_num(w.df, 17.776, 0.0005, "Welch-Satterthwaite df = 17.776");
	is_num(w.p, 0.07939, 0.000005, "p = 0.07939");
	welch_test(&b, &a, &w);
	is_num(w.p, 0.07939, 0.000005, "the test is symmetric");

	summarise(g1, 1, &c);
	ok(welch_test(&a, &c, &w) == -1 && isnan(w.p), "one value on a side: no test");
	double same1[] = { 5, 5, 5 }, same2[] = { 6, 6 };
	summarise(same1, 3, &a);
	summarise(same2, 2, &b);
	ok(welch_test(&a, &b, &w) == -1 && isnan(w.p), "no spread on either side: no test");
	double some[] = { 6, 6.5 };
	summarise(some, 2, &b);
	ok(welch_test(&a, &b, &w) == 0 && fabs(w.df - 1) < 1e-12,
	   "spread on one side only: a test, with that side's n - 1 df");
}

/* Holm's method, the worked example of Wikipedia's "Holm-Bonferroni method"
 * article: four hypotheses with p = 0.01, 0.04, 0.03, 0.005 at alpha 0.05;
 * H4 (0.005 < 0.05/4) and H1 (0.01 < 0.05/3) are rejected, H3 (0.03 >
 * 0.05/2) is not and the procedure stops.  The adjusted p-values, as R's
 * p.adjust(c(0.01, 0.04, 0.03, 0.005), "holm") gives them (by hand:
 * 4 x 0.005, 3 x 0.01, 2 x 0.03, then max(0.06, 0.04)): 0.03 0.06 0.06 0.02. */
static void test_holm(void)
{
	double p[] = { 0.01, 0.04, 0.03, 0.005 }, adj[4];
	double q[] = { NAN, 0.5, NAN, 0.02 };

	holm_adjust(p, adj, 4);
	is_num(adj[0], 0.03, 1e-15, "H1 adjusted 0.03 (rejected)");
	is_num(adj[1], 0.06, 1e-15, "H2 adjusted 0.06 (kept: monotone)");
	is_num(adj[2], 0.06, 1e-15, "H3 adjusted 0.06 (kept)");
	is_num(adj[3], 0.02, 1e-15, "H4 adjusted 0.02 (rejected)");
	holm_adjust(q, q, 4);
	ok(isnan(q[0]) && isnan(q[2]), "tests not made stay untested");
	is_num(q[3], 0.04, 1e-15, "and do not count in the family (2 x 0.02)");
	is_num(q[1], 0.5, 1e-15, "the largest is not multiplied");
	double big[] = { 0.6, 0.7 };
	holm_adjust(big, big, 2);
	is_num(big[0], 1, 0, "adjusted p-values stop at 1");
}

static void test_ratio(void)
{
	struct summary a, b;
	double r, lo, hi;

	/* No noise in the noload side: the interval is the loaded mean's
	 * t interval divided by the noload mean, 2.4 +- 4.303 x (2/sqrt 3) / 5
	 * (t(0.975, 2) = 4.303 from the table above). */
	double l1[] = { 10, 12, 14 }, n1[] = { 5, 5, 5 };
	summarise(l1, 3, &a);
	summarise(n1, 3, &b);
	ok(ratio_interval(&a, &b, 0.95, &r, &lo, &hi) == 0, "ratio interval, quiet noload");
	is_num(r, 2.4, 1e-12, "ratio 2.4");
	is_num(lo, 2.4 - 4.303 * 2 / sqrt(3) / 5, 0.0002, "low end 1.40627");
	is_num(hi, 2.4 + 4.303 * 2 / sqrt(3) / 5, 0.0002, "high end 3.39373");

	/* No noise in the loaded side: the interval is 20 over the ends of the
	 * noload mean's interval, 10 +- 4.303 / sqrt 3: [1.60201, 2.66109]. */
	double l2[] = { 20, 20, 20 }, n2[] = { 9, 10, 11 };
	summarise(l2, 3, &a);
	summarise(n2, 3, &b);
	ratio_interval(&a, &b, 0.95, &r, &lo, &hi);
	is_num(lo, 20 / (10 + 4.303 / sqrt(3)), 0.0002, "quiet loaded side: 20 / 12.4843");
	is_num(hi, 20 / (10 - 4.303 / sqrt(3)), 0.0002, "quiet loaded side: 20 / 7.5157");
	ok(hi - r > r - lo, "Fieller's interval leans away from 0");

	/* Both noisy: Python (t quantile by integrating the density, the
	 * interval from the roots of Fieller's quadratic;
	 * tests/data/stats-reference.py) gives R =
	 * 1.1223223223223222, df 7.794900165088001, [1.0879565402683409,
	 * 1.1579562129737468]. */
	double l3[] = { 112.0, 109.5, 115.2, 110.8, 113.1 };
	double n3[] = { 97.2, 103.1, 99.8, 101.0, 98.4 };
	summarise(l3, 5, &a);
	summarise(n3, 5, &b);
	ratio_interval(&a, &b, 0.95, &r, &lo, &hi);
	is_num(r, 1.1223223223223222, 1e-12, "ratio of two noisy means");
	is_num(lo, 1.0879565402683409, 1e-8, "Fieller low end 1.08796");
	is_num(hi, 1.1579562129737468, 1e-8, "Fieller high end 1.15796");

	summarise(n3, 1, &b);
	ok(ratio_interval(&a, &b, 0.95, &r, &lo, &hi) == -1 && isnan(lo) && isnan(hi) &&
	   fabs(r - 112.12 / 97.2) < 1e-12, "one noload run: a ratio, no interval");
	double wild[] = { 1, -1, 2 };
	summarise(wild, 3, &b);
	ok(ratio_interval(&a, &b, 0.95, &r, &lo, &hi) == -1, "denominator not clear of 0: unbounded");
}

/* splitmix64 (Steele, Lea and Flood 2014), fixed seed: the same draws on
 * every machine, unlike rand(). */
static uint64_t rng_state = 20021108;

static double uniform(void)
{
	uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0; /* (0, 1) */
}

/* Box-Muller */
static double normal(double mean, double sd)
{
	double u = uniform(), v = uniform();

	return mean + sd * sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static int flagged(double shift_sd, int trials)
{
	int flags = 0;

	for (int k = 0; k < trials; k++) {
		double x[5], y[5];
		struct summary a, b;
		struct welch w;

		for (int i = 0; i < 5; i++) {
			x[i] = normal(100, 3);
			y[i] = normal(100 + shift_sd * 3, 3);
		}
		summarise(x, 5, &a);
		summarise(y, 5, &b);
		welch_test(&a, &b, &w);
		flags += w.p < 0.05;
	}
	return flags;
}

static void test_simulation(void)
{
	int aa = flagged(0, 1000), shifted = flagged(3, 1000);

	printf("# A/A: %d of 1000 flagged; shift of 3 sd: %d of 1000\n", aa, shifted);
	ok(aa >= 20 && aa <= 80, "A/A, n = 5 vs 5, one normal distribution: 2%%-8%% flagged at 0.05");
	ok(shifted >= 900, "a shift of 3 sd, n = 5 vs 5: at least 90%% flagged");
}

/* Of trials pairs of normal samples, na of sd sa and nb of sd sb, means d
 * apart, the share Welch's test finds different at level alpha. */
static double detected(size_t na, double sa, size_t nb, double sb, double d, double alpha,
		       int trials)
{
	int found = 0;

	for (int k = 0; k < trials; k++) {
		double x[8], y[8];
		struct summary a, b;
		struct welch w;

		for (size_t i = 0; i < na; i++)
			x[i] = normal(100, sa);
		for (size_t i = 0; i < nb; i++)
			y[i] = normal(100 + d, sb);
		summarise(x, na, &a);
		summarise(y, nb, &b);
		found += welch_test(&a, &b, &w) == 0 && w.p < alpha;
	}
	return (double)found / trials;
}

/* The smallest detectable difference at power 0.8: samples drawn that far
 * apart, with the spreads it was computed from, are found different in
 * about 80% of trials (4000 trials: the share's sd is 0.6%; a figure 20%
 * off gives about 61% or 91%). */
static void test_detectable(void)
{
	static const struct {
		size_t na, nb;
		double sa, sb, alpha;
		const char *what;
	} cases[] = {
		{ 3, 3, 3, 3, 0.05, "n = 3 vs 3, the default rounds" },
		{ 3, 5, 2, 4, 0.05, "n = 3 vs 5, unequal spreads" },
		{ 5, 3, 2, 4, 0.05, "n = 5 vs 3, the noisier side smaller (Welch's df near 2.6)" },
		{ 5, 5, 3, 3, 0.05 / 9, "n = 5 vs 5 at 0.05 / 9, Holm's first step over 9 run types" },
	};
	struct summary a = { .n = 1000, .mean = 100, .sd = 3 }, b = a;

	/* many runs: the textbook (z(0.975) + z(0.8)) se, z from the normal
	 * table: (1.959964 + 0.841621) x sqrt(2 x 9 / 1000) = 0.375871 */
	is_num(welch_detectable(&a, &b, 0.05, 0.8), 0.375871, 0.0008,
	       "n = 1000 a side: (z(0.975) + z(0.8)) x se, as for known spreads");
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		double d, share;

		a = (struct summary){ .n = cases[i].na, .mean = 100, .sd = cases[i].sa };
		b = (struct summary){ .n = cases[i].nb, .mean = 100, .sd = cases[i].sb };
		d = welch_detectable(&a, &b, cases[i].alpha, 0.8);
		share = detected(cases[i].na, cases[i].sa, cases[i].nb, cases[i].sb, d,
				 cases[i].alpha, 4000);
		printf("# %s: smallest detectable difference %.3f, found in %.1f%%\n", cases[i].what,
		       d, share * 100);
		ok(fabs(share - 0.8) <= 0.03, "power 0.8, %s: 77%%-83%% of trials find it", cases[i].what);
	}
	a = (struct summary){ .n = 3, .mean = 100, .sd = 3 };
	/* a spread given with it, which summarise() would not: no figure still */
	b = (struct summary){ .n = 1, .mean = 100, .sd = 3 };
	ok(isnan(welch_detectable(&a, &b, 0.05, 0.8)), "one value on a side: no figure");
	b = (struct summary){ .n = 3, .mean = 100, .sd = 0 };
	ok(welch_detectable(&a, &b, 0.05, 0.8) > 0, "one side without spread: a figure");
	a.sd = 0;
	ok(isnan(welch_detectable(&a, &b, 0.05, 0.8)), "no spread on either side: no figure");
	a.sd = 3;
	ok(isnan(welch_detectable(&a, &b, 0.05, 0.05)), "power not above alpha: no figure");
}

int main(void)
{
	test_summary();
	test_t_table();
	test_welch();
	test_holm();
	test_ratio();
	test_simulation();
	test_detectable();
	return tap_done();
}
