/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hist.c - a fixed-size log-linear latency histogram (HDR style).
 *
 * The index of a value is its power of two (the octave) and its next
 * HIST_SUB_BITS bits (the linear sub-bucket), as in Gil Tene's
 * HdrHistogram; the lowest octave, 2^9 .. 2^10 ns, is used from 1000 ns. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/hist.h"
#include "lib/util.h"

static unsigned bucket_of(uint64_t v)
{
	unsigned e = 63u - (unsigned)__builtin_clzll(v);

	return (e - HIST_LOW_EXP) * HIST_SUB + (unsigned)(v >> (e - HIST_SUB_BITS)) - HIST_SUB;
}

/* The middle of bucket i. */
static int64_t bucket_mid(unsigned i)
{
	unsigned shift = HIST_LOW_EXP + i / HIST_SUB - HIST_SUB_BITS;
	uint64_t low = (uint64_t)(HIST_SUB + i % HIST_SUB) << shift;

	return (int64_t)(low + ((uint64_t)1 << shift) / 2);
}

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
}

void hist_record(struct hist *h, int64_t ns)
{
	if (ns < HIST_MIN_NS) {
		ns = HIST_MIN_NS;
		h->under++;
	} else if (ns > HIST_MAX_NS) {
		ns = HIST_MAX_NS;
		h->over++;
	}
	if (!h->count || ns < h->min)
		h->min = ns;
	if (!h->count || ns > h->max)
		h->max = ns;
	h->count++;
	h->sum += (uint64_t)ns;
	h->bucket[bucket_of((uint64_t)ns)]++;
}

void hist_merge(struct hist *a, const struct hist *b)
{
	if (!b->count)
		return;
	if (!a->count || b->min < a->min)
		a->min = b->min;
	if (!a->count || b->max > a->max)
		a->max = b->max;
	a->count += b->count;
	a->under += b->under;
	a->over += b->over;
	a->sum += b->sum;
	for (unsigned i = 0; i < HIST_BUCKETS; i++)
		a->bucket[i] += b->bucket[i];
}

uint64_t hist_rank(uint64_t count, double p)
{
	double r;

	if (!count)
		return 0;
	/* the epsilon keeps 99.9 % of 1000 at rank 999, not 1000 */
	r = ceil(p / 100.0 * (double)count - 1e-9);
	if (r < 1)
		return 1;
	return r > (double)count ? count : (uint64_t)r;
}

uint64_t hist_least_count(double p)
{
	if (p >= 100)
		return 1;
	/* the epsilon keeps 99.9's at 10,000 where 100 - 99.9 is not 0.1 */
	return (uint64_t)ceil(HIST_TAIL * 100.0 / (100.0 - p) - 1e-6);
}

int64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank = hist_rank(h->count, p), seen = 0;

	if (!h->count)
		return 0;
	if (rank == 1 && p <= 0)
		return h->min;
	if (rank == h->count)
		return h->max;
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			int64_t v = bucket_mid(i);

			/* min and max are exact: never read back beyond them */
			return v < h->min ? h->min : v > h->max ? h->max : v;
		}
	}
	return h->max;	/* not reached: the buckets add up to count */
}

double hist_mean(const struct hist *h)
{
	return h->count ? (double)h->sum / (double)h->count : 0;
}

char *hist_encode(const struct hist *h)
{
	size_t cap = 128, n;
	char *s = xmalloc(cap);

	n = (size_t)snprintf(s, cap, "h1/%" PRIu64 "/%" PRId64 "/%" PRId64 "/%" PRIu64
			     "/%" PRIu64 "/%" PRIu64 "/", h->count, h->min, h->max, h->sum,
			     h->under, h->over);
	for (unsigned i = 0; i < HIST_BUCKETS; i++) {
		if (!h->bucket[i])
			continue;
		if (cap - n < 48) {
			cap *= 2;
			s = xrealloc(s, cap);
		}
		/* a run of buckets in use: START:N,N,N; runs apart by ';' */
		if (i && h->bucket[i - 1])
			n += (size_t)snprintf(s + n, cap - n, ",%" PRIu64, h->bucket[i]);
		else
			n += (size_t)snprintf(s + n, cap - n, "%s%u:%" PRIu64,
					      s[n - 1] == '/' ? "" : ";", i, h->bucket[i]);
	}
	return s;
}

/* An unsigned decimal at *p; moves *p past it. */
static int take_u64(const char **p, uint64_t *out)
{
	char *e;

	if (**p < '0' || **p > '9')
		return -1;
	errno = 0;
	*out = strtoull(*p, &e, 10);
	if (errno)
		return -1;
	*p = e;
	return 0;
}

int hist_decode(const char *s, struct hist *h, char *why, size_t len)
{
	uint64_t head[6], total = 0, first = 0, last = 0;
	const char *p = s;
	int any = 0;

	hist_init(h);
	if (strncmp(p, "h1/", 3))
		return whyf(why, len, "histogram: not of the form h1/...");
	p += 3;
	for (size_t k = 0; k < ARRAY_SIZE(head); k++)
		if (take_u64(&p, &head[k]) || *p++ != '/')
			return whyf(why, len, "histogram: bad header field %zu", k + 1);
	while (*p) {
		uint64_t idx, n;

		if (any && *p++ != ';')
			return whyf(why, len, "histogram: bad bucket list");
		if (take_u64(&p, &idx) || *p++ != ':')
			return whyf(why, len, "histogram: bad bucket index");
		if (idx >= HIST_BUCKETS || (any && idx <= last + 1))
			return whyf(why, len, "histogram: bucket %" PRIu64 " out of order or range", idx);
		for (;; idx++) {
			if (idx >= HIST_BUCKETS || take_u64(&p, &n) || !n)
				return whyf(why, len, "histogram: bad count of bucket %" PRIu64, idx);
			if (total + n < total)
				return whyf(why, len, "histogram: counts overflow");
			total += n;
			h->bucket[idx] = n;
			if (!any)
				first = idx;
			last = idx;
			any = 1;
			if (*p != ',')
				break;
			p++;
		}
	}
	h->count = head[0];
	h->sum = head[3];
	h->under = head[4];
	h->over = head[5];
	if (total != h->count || h->under > h->count || h->over > h->count - h->under)
		goto bad;
	if (!h->count) {
		if (head[1] || head[2] || head[3])
			goto bad;
		return 0;
	}
	/* min and max lie in the first and the last bucket */
	if (head[1] < (uint64_t)HIST_MIN_NS || head[2] > (uint64_t)HIST_MAX_NS ||
	    head[1] > head[2] || bucket_of(head[1]) != first || bucket_of(head[2]) != last)
		goto bad;
	h->min = (int64_t)head[1];
	h->max = (int64_t)head[2];
	return 0;
bad:
	hist_init(h);
	return whyf(why, len, "histogram: inconsistent counts or bounds");
}
