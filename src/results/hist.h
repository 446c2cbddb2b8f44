/* SPDX-License-Identifier: GPL-2.0-or-later */
/* hist.h - a fixed-size log-linear latency histogram (HDR style), 1 us to 10 s. */
#ifndef CONTEST_HIST_H
#define CONTEST_HIST_H

#include <stddef.h>
#include <stdint.h>

/* Values are nanoseconds.  Each power of two from 2^9 to 2^33 ns is split
 * into HIST_SUB equal buckets, so a bucket is at most 1/64 of its lower
 * bound wide and a value read back (the bucket's middle) is within 1/128
 * (0.78 %) of what was recorded.  Values below HIST_MIN_NS or above
 * HIST_MAX_NS are recorded as those bounds and counted in under / over.
 *
 * The struct holds no pointer and needs no allocation: it can live in
 * shared memory, written by one process and read by another once the
 * writer is done (there are no locks; one writer per histogram). */
#define HIST_MIN_NS INT64_C(1000)
#define HIST_MAX_NS INT64_C(10000000000)
#define HIST_SUB_BITS 6
#define HIST_SUB (1 << HIST_SUB_BITS)
#define HIST_LOW_EXP 9	/* 2^9 <= HIST_MIN_NS < 2^10 */
#define HIST_HIGH_EXP 33	/* 2^33 <= HIST_MAX_NS < 2^34 */
#define HIST_BUCKETS ((HIST_HIGH_EXP - HIST_LOW_EXP + 1) * HIST_SUB)
/* The most a value read back differs from the value recorded, relative. */
#define HIST_REL_ERROR (1.0 / (2 * HIST_SUB))

struct hist {
	uint64_t count;		/* values recorded, clamped ones included */
	uint64_t under, over;	/* values clamped up to HIST_MIN_NS, down to HIST_MAX_NS */
	int64_t min, max;	/* exact (after clamping); 0 when empty */
	uint64_t sum;		/* of the (clamped) values, for the mean */
	uint64_t bucket[HIST_BUCKETS];
};

void hist_init(struct hist *h);
void hist_record(struct hist *h, int64_t ns);
/* a += b */
void hist_merge(struct hist *a, const struct hist *b);
/* The value of nearest rank ceil(p/100 x count) (p from 0 to 100), within
 * HIST_REL_ERROR; 0 when empty.  p 0 and 100 give min and max exactly. */
int64_t hist_percentile(const struct hist *h, double p);
double hist_mean(const struct hist *h);

/* The nearest rank of percentile p among count values (1 .. count). */
uint64_t hist_rank(uint64_t count, double p);

/* The values above a percentile that make it one: with fewer, it is the
 * maximum or next to it, not a property of the distribution. */
#define HIST_TAIL 10
/* The fewest values that leave HIST_TAIL above percentile p: 20 for the
 * median, 1,000 for p99, 10,000 for p99.9; 1 for p 100 (the maximum). */
uint64_t hist_least_count(double p);

/* A compact text form for a run record, with no space, '%' or '=':
 *	h1/COUNT/MIN/MAX/SUM/UNDER/OVER/IDX:N,IDX:N,...
 * (only the buckets that are not empty, in index order).  The string, which
 * the caller frees. */
char *hist_encode(const struct hist *h);
/* Parse hist_encode()'s form, checking that it is consistent (the buckets
 * add up to COUNT, indexes ascend and are in range).  0, or -1 with the
 * reason in why (h is then empty). */
int hist_decode(const char *s, struct hist *h, char *why, size_t len);

#endif
