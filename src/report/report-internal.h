/* SPDX-License-Identifier: GPL-2.0-or-later */
/* report-internal.h - what the files of the report's model share (report.c,
 * rows.c, sessions.c, values.c; and differences.c and printers.c the lists
 * of strings): the runs of a cell (struct sel), a run's machine and kernel,
 * the rows and the sessions' Ratio, lists of strings.  Not for the rest of
 * contest: it uses report.h.
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

struct cell;
struct report;
struct report_row;

/* Whether s is one of v[0..n) (report.c). */
int report_has(char *const *v, size_t n, const char *s);

/* Whether name is one of list's comma-separated names (report.c). */
int report_in_list(const char *list, const char *name);

/* The invalid runs of every cell shown, in its `invalid`; a cell of
 * invalid runs only untested (leftout.c). */
void report_count_left_out(struct report *r);

/* keys[] += key (not copied), unless it is there already. */
void report_add_key(char ***keys, size_t *n, const char *key);
/* Control characters shown as '?': a value must not drive the terminal. */
char *report_printable(char *s);

/* The machine a run was measured on, "" for none (store_read() sets it;
 * runs made otherwise have none), and the kernel it ran on,
 * "RELEASE\nVERSION" (the same) (report.c). */
const char *report_host_of(const struct run *u);
const char *report_kernel_of(const struct run *u);

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
/* The cell of row row and run type type, to fill in. */
struct cell *report_cell_at(struct report *r, size_t row, size_t type);

/* One row per label, configuration and, where the label's runs come from
 * several, machine and kernel; labels in the given order; how many in *out
 * (rows.c).  The caller frees the rows' names and envs, and the array. */
struct report_row *report_make_rows(const struct store *st, char **labels, size_t nlabels,
				    size_t *out);
/* Whether arg names a row of label: "label@..." or "label (k)". */
int report_names_row_of(const char *arg, const char *label);

/* Cell (g, t)'s Ratio over the noload of each run's own session, with
 * Fieller's interval (sessions.c). */
void report_session_ratio(const struct store *st, struct report *r, size_t g, size_t t);

#endif
