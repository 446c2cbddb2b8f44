/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plot.h - the charts: the Ratio of every run type, or the probe's p99, as a
 * self-contained SVG. */
#ifndef CONTEST_PLOT_H
#define CONTEST_PLOT_H

#include <stdio.h>

#include "report/report.h"

/* One group of bars per run type, one bar per row (label and
 * configuration) with its Ratio, the 95% interval as whiskers, a '*' over
 * a bar whose Time differs significantly from the baseline's and an 'L'
 * over one whose Loads do (both outlined), the axis and a legend that says
 * so, or that no test was made and why.  Every bar is a <rect class="bar"> with data-row, data-type and
 * data-ratio attributes.  Returns what fprintf's ferror says: 0 or -1. */
int plot_svg(FILE *f, const struct report *r);

/* The latency probe's chart (contest plot --latency): a panel per probe
 * task, in each a group per run type and a bar per row with the probe, its
 * p99 wakeup latency in ms (data-p99), whiskers from the lowest to the
 * highest run's own p99, a '*' over a bar that differs significantly. */
int plot_latency_svg(FILE *f, const struct report *r, const struct latency *l);

/* plot_svg (l NULL) or plot_latency_svg into path (path.tmp, then renamed over
 * it), or stdout when path is NULL or "-".  Returns 0, or -1 with the reason
 * in why. */
int plot_write(const char *path, const struct report *r, const struct latency *l, char *why,
	       size_t len);

#endif
