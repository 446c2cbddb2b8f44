/* report.h - the contest tables: cells from stored runs, and their printer. */
#ifndef CONTEST_REPORT_H
#define CONTEST_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "store.h"

/* One row of a table: the means over a label's valid runs of one type. */
struct row {
	const char *label;
	size_t n;
	double time;  /* seconds */
	double cpu;   /* % */
	double loads; /* units */
	double lcpu;  /* % */
	double ratio; /* NaN prints as "-" */
};

/* Print one table: "TYPE:", the header and the rows, columns aligned with
 * spaces (the label column widens for labels over 20 characters). */
void print_table(FILE *f, const char *type, const struct row *rows, size_t n);
/* The Loads cell: whole units from 10 up; below that one decimal, dropped
 * when it is 0, so that a slow load shows 0.4 rather than 0 and a table of
 * whole numbers reads as the 2002 ones did. */
void format_loads(double loads, char *buf, size_t len);

struct report_opts {
	const char *baseline;   /* divide by this label's noload, or NULL */
	char *const *labels;    /* rows to show, or all when nlabels == 0 */
	size_t nlabels;
};

/* Every run type with data, in suite order, one table each.  0, or -1 with
 * why (nothing to show, a baseline without noload). */
int report_print(FILE *f, const struct store *st, const struct report_opts *o,
		 char *why, size_t len);

#endif
