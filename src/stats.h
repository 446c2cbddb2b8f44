/* stats.h - summary statistics of a cell's runs. */
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

#endif
