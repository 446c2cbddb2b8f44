/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report-internal.h - what the files of the report's model share: the runs
 * of a cell (struct sel), lists of strings.  Not for the rest of contest: it
 * uses report.h.
 *
 * It includes no header of the report and names the model's structs only
 * by pointer: report.c includes it, and a module that reached report.h
 * through it would reach itself (tests/t0002-build-layers.sh). */
#ifndef CONTEST_REPORT_INTERNAL_H
#define CONTEST_REPORT_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "results/store.h"

struct report_row;

/* Whether s is one of v[0..n). */
static inline int has(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

/* s = s + formatted */
void report_append(char **s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* keys[] += key (not copied), unless it is there already. */
void report_add_key(char ***keys, size_t *n, const char *key);
/* Control characters shown as '?': a value must not drive the terminal. */
char *report_printable(char *s);

/* The runs of a cell: a label's valid runs of one type, of one workload
 * (NULL: any), session configuration and probe profile (-1: any), machine and
 * kernel (NULL: any). */
struct sel {
	const char *label;
	const char *type;
	const char *identity;
	int load_session;
	int probe;
	const int64_t *probe_work;	/* with probe: its work per task */
	const char *host;
	const char *kernel;
};

/* Whether run u is one of the selected. */
int report_selected(const struct run *u, const struct sel *s);
/* The runs of row g of type type. */
struct sel report_row_sel(const struct report_row *g, const char *type);

#endif
