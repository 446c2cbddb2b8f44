/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit-hist.c - the latency histogram against the exact figures of the
 * same samples: a sorted array gives every percentile by nearest rank. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "results/hist.h"
#include "tap.h"

#define N 100000

static uint64_t rng = 0x9e3779b97f4a7c15u;

/* splitmix64: a fixed sequence, so that a failure can be reproduced */
static uint64_t next_u64(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15u);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

static double uniform01(void)
{
	return (double)(next_u64() >> 11) / 9007199254740992.0;
}

static int64_t gen_uniform(void)
{
	return 1000 + (int64_t)(uniform01() * 9999000.0);	/* 1 us .. 10 ms */
}

static int64_t gen_exponential(void)
{
	return 1000 + (int64_t)(-log(1.0 - uniform01()) * 200000.0);	/* mean 201 us */
}

static int64_t gen_bimodal(void)
{
	/* 70 % near 50 us, 30 % near 20 ms: a task that usually runs at once */
	double spread = uniform01() + uniform01() + uniform01() - 1.5;

	return uniform01() < 0.7 ? (int64_t)(50000 + spread * 20000) :
				   (int64_t)(20000000 + spread * 8000000);
}

static int64_t gen_wide(void)
{
	return (int64_t)(1000.0 * pow(10.0, uniform01() * 7.0));	/* 1 us .. 10 s */
}

static int64_t gen_constant(void)
{
	return 1234567;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

static int64_t samples[N];

static void test_distribution(const char *name, int64_t (*gen)(void))
{
	static const double ps[] = { 0, 0.1, 1, 10, 25, 50, 75, 90, 99, 99.9, 99.99, 100 };
	static struct hist h;
	double worst = 0, sum = 0;
	int all_ok = 1;

	hist_init(&h);
	for (int i = 0; i < N; i++) {
		samples[i] = gen();
		sum += (double)samples[i];
		hist_record(&h, samples[i]);
	}
	qsort(samples, N, sizeof(samples[0]), cmp_i64);
	ok(h.count == N && h.under == 0 && h.over == 0, "%s: %d values counted, none clamped",
	   name, N);
	ok(h.min == samples[0] && h.max == samples[N - 1], "%s: min and max exact", name);
	is_num(hist_mean(&h), sum / N, 1e-6 * sum / N, "%s: mean exact", name);
	for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
		/* nearest rank, computed here on its own */
		double r = ceil(ps[k] / 100.0 * N - 1e-9);
		int64_t want = samples[r < 1 ? 0 : (size_t)r - 1];
		int64_t got = hist_percentile(&h, ps[k]);
		double err = fabs((double)(got - want)) / (double)want;

		if (err > worst)
			worst = err;
		if (err > 0.01) {
			all_ok = 0;
			printf("# %s p%g: got %lld want %lld (%.3f %%)\n", name, ps[k],
			       (long long)got, (long long)want, err * 100);
		}
	}
	ok(all_ok, "%s: p0 .. p100 within 1 %% of the sorted samples (worst %.3f %%)", name,
	   worst * 100);
	ok(worst <= HIST_REL_ERROR, "%s: and within the stated %.2f %%", name,
	   HIST_REL_ERROR * 100);
	ok(hist_percentile(&h, 0) == samples[0] && hist_percentile(&h, 100) == samples[N - 1],
	   "%s: p0 and p100 are min and max", name);
}

/* Every value from 1 us to 10 s in steps of about 0.1 %: each read back
 * alone (p50 of a histogram of one value) is within the stated error. */
static void test_every_bucket(void)
{
	static struct hist h;
	double worst = 0;

	for (double v = 1000; v <= 1e10; v *= 1.001) {
		int64_t x = (int64_t)v, got;

		hist_init(&h);
		hist_record(&h, x);
		hist_record(&h, HIST_MIN_NS);
		hist_record(&h, HIST_MAX_NS);
		got = hist_percentile(&h, 50);	/* the middle of three: x's bucket */
		if (fabs((double)(got - x)) / (double)x > worst)
			worst = fabs((double)(got - x)) / (double)x;
	}
	ok(worst <= HIST_REL_ERROR, "1 us .. 10 s read back within %.2f %% (worst %.3f %%)",
	   HIST_REL_ERROR * 100, worst * 100);
}

static void test_merge(void)
{
	static struct hist a, b, both, empty;

	hist_init(&a);
	hist_init(&b);
	hist_init(&both);
	hist_init(&empty);
	for (int i = 0; i < 20000; i++) {
		int64_t x = gen_exponential(), y = gen_bimodal();

		hist_record(&a, x);
		hist_record(&both, x);
		hist_record(&b, y);
		hist_record(&both, y);
	}
	hist_record(&b, 5);	/* a clamped one on each side */
	hist_record(&both, 5);
	hist_record(&a, INT64_C(30000000000));
	hist_record(&both, INT64_C(30000000000));
	hist_merge(&a, &b);
	ok(memcmp(&a, &both, sizeof(a)) == 0, "merge equals the histogram of both sample sets");
	ok(a.count == 40002 && a.under == 1 && a.over == 1, "merged counts add up");
	hist_merge(&a, &empty);
	ok(memcmp(&a, &both, sizeof(a)) == 0, "merging an empty histogram changes nothing");
	hist_merge(&empty, &both);
	ok(memcmp(&empty, &both, sizeof(a)) == 0, "merging into an empty one copies");
}

static void test_clamp(void)
{
	static struct hist h;

	hist_init(&h);
	ok(hist_percentile(&h, 50) == 0 && hist_mean(&h) == 0, "an empty histogram reads 0");
	hist_record(&h, 0);
	hist_record(&h, -5);
	hist_record(&h, 999);
	hist_record(&h, INT64_C(20000000000));
	hist_record(&h, INT64_MAX);
	hist_record(&h, 50000);
	ok(h.count == 6, "out-of-range values are counted (6)");
	ok(h.under == 3 && h.over == 2, "below 1 us: 3 under; above 10 s: 2 over");
	ok(h.min == HIST_MIN_NS && h.max == HIST_MAX_NS, "they clamp to 1 us and 10 s");
	ok(hist_percentile(&h, 0) == HIST_MIN_NS && hist_percentile(&h, 100) == HIST_MAX_NS,
	   "p0 and p100 read the bounds");
	is_num((double)hist_percentile(&h, 60), 50000, 50000 * HIST_REL_ERROR,
	       "the one in range is where it was");
	ok(hist_rank(6, 50) == 3 && hist_rank(1000, 99.9) == 999 && hist_rank(1000, 0) == 1 &&
	   hist_rank(7, 100) == 7, "nearest ranks");
}

static void test_codec(void)
{
	static struct hist h, back;
	static const char *const bad[] = {
		"", "h2/0/0/0/0/0/0/", "h1/0/0/0/0/0/", "h1/1/1000/1000/1000/0/0/",
		"h1/1/1000/1000/1000/0/0/61:2", "h1/1/1000/1000/1000/0/0/1600:1",
		"h1/2/1000/1000/2000/0/0/61:1,61:1", "h1/2/1000/2000/3000/0/0/125:1,61:1",
		"h1/1/1000/1000/1000/0/0/61:0,62:1", "h1/1/1000/1000/1000/0/0/61:1,",
		"h1/1/1000/1000/1000/0/0/61:1x", "h1/1/5000/5000/5000/0/0/61:1",
		"h1/1/1000/1000/1000/2/0/61:1", "h1/0/1/0/0/0/0/", "h1/-1/0/0/0/0/0/",
		"h1/1/1000/1000/1000/0/0/+61:1", "h1/1/1000/1000/1000/0/0/61:18446744073709551617",
	};
	char why[256], *s, *again;
	unsigned used = 0;
	int bad_ok = 1;

	hist_init(&h);
	s = hist_encode(&h);
	is_str(s, "h1/0/0/0/0/0/0/", "an empty histogram encodes to its header");
	ok(hist_decode(s, &back, why, sizeof(why)) == 0 && memcmp(&h, &back, sizeof(h)) == 0,
	   "and decodes back");
	free(s);
	hist_record(&h, 1000);
	s = hist_encode(&h);
	is_str(s, "h1/1/1000/1000/1000/0/0/61:1", "one value of 1 us: bucket 61");
	free(s);
	hist_record(&h, 1008);
	hist_record(&h, 1008);
	hist_record(&h, 5000);
	s = hist_encode(&h);
	is_str(s, "h1/4/1000/5000/8016/0/0/61:1,2;206:1",
	       "adjacent buckets in a run, then a gap (5000 ns: octave 12, (5000 >> 6) - 64 = 14)");
	ok(hist_decode(s, &back, why, sizeof(why)) == 0 && memcmp(&h, &back, sizeof(h)) == 0,
	   "which decodes back");
	free(s);

	for (int i = 0; i < N; i++)
		hist_record(&h, gen_exponential());
	hist_record(&h, 3);
	hist_record(&h, INT64_C(99000000000));
	s = hist_encode(&h);
	ok(!strpbrk(s, " %=\n"), "the text form needs no escaping in a record");
	printf("# %d exponential values encode in %zu bytes\n", N, strlen(s));
	for (int i = 0; i < HIST_BUCKETS; i++)
		used += h.bucket[i] != 0;
	ok(strlen(s) < 64 + 6 * used, "only the %u buckets in use are written, runs compacted",
	   used);
	ok(hist_decode(s, &back, why, sizeof(why)) == 0, "round trip decodes");
	ok(memcmp(&h, &back, sizeof(h)) == 0, "round trip gives the same histogram");
	again = hist_encode(&back);
	is_str(again, s, "and encodes to the same text");
	free(again);
	free(s);

	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		why[0] = '\0';
		if (hist_decode(bad[k], &back, why, sizeof(why)) == 0 || !why[0] || back.count) {
			bad_ok = 0;
			printf("# accepted: '%s'\n", bad[k]);
		}
	}
	ok(bad_ok, "%zu damaged forms are refused with a reason", sizeof(bad) / sizeof(bad[0]));
}

/* A percentile is shown where 10 values lie above it (issue 47). */
static void test_least_count(void)
{
	ok(hist_least_count(50) == 20, "p50 needs 20 values (%llu)",
	   (unsigned long long)hist_least_count(50));
	ok(hist_least_count(90) == 100, "p90 needs 100");
	ok(hist_least_count(99) == 1000, "p99 needs 1,000 (%llu)",
	   (unsigned long long)hist_least_count(99));
	ok(hist_least_count(99.9) == 10000, "p99.9 needs 10,000 (%llu)",
	   (unsigned long long)hist_least_count(99.9));
	ok(hist_least_count(100) == 1, "the maximum needs one");
	/* the figure's meaning: with that many, p99.9 is not the maximum */
	struct hist h;

	hist_init(&h);
	for (int i = 0; i < 10000; i++)
		hist_record(&h, i < 9990 ? 1000 : 1000000 + i);
	ok(hist_percentile(&h, 99.9) < 1000000 && h.max >= 1000000,
	   "10,000 values, 10 above p99.9: it is not among them");
}

int main(void)
{
	test_least_count();
	test_distribution("uniform", gen_uniform);
	test_distribution("exponential", gen_exponential);
	test_distribution("bimodal", gen_bimodal);
	test_distribution("wide", gen_wide);
	test_distribution("constant", gen_constant);
	test_every_bucket();
	test_merge();
	test_clamp();
	test_codec();
	return tap_done();
}
