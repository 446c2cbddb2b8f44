/* SPDX-License-Identifier: GPL-2.0-or-later */
/* leftout.c - what a table leaves out, and what its loads met: the invalid
 * runs of the rows shown, counted in their cells and named under their
 * run type's table with their reasons, and the notes of valid runs whose
 * load met something that ended its work (load.note: starved, memory at
 * its floor, a full disk).  Invalid runs of a run type with no table are
 * named after the tables. */
#include "config.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/report-internal.h"
#include "lib/strbuf.h"
#include "lib/util.h"

/* Rounds listed on a line before "..." */
#define ROUNDS_SHOWN 8

/* The row an invalid run belongs to: its label, workload, configuration,
 * machine and kernel, and its probe when it got as far as the probe; -1
 * when no row shown is. */
static ptrdiff_t invalid_row(const struct report *r, const struct run *u)
{
	for (size_t g = 0; g < r->nrows; g++) {
		const struct report_row *row = &r->rows[g];

		if (!strcmp(u->label, row->label) && !strcmp(u->workload, row->identity) &&
		    u->load_session == row->load_session &&
		    (!row->host || !strcmp(report_host_of(u), row->host)) &&
		    (!row->kernel || !strcmp(report_kernel_of(u), row->kernel)) &&
		    (!u->probe_profile ||
		     (u->probe_profile == row->probe &&
		      !memcmp(u->probe_work_ns, row->probe_work_ns, sizeof(u->probe_work_ns)))))
			return (ptrdiff_t)g;
	}
	return -1;
}

static ptrdiff_t type_of(const struct report *r, const struct run *u)
{
	for (size_t t = 0; t < r->ntypes; t++)
		if (!strcmp(r->types[t], u->type))
			return (ptrdiff_t)t;
	return -1;
}

void report_count_left_out(struct report *r)
{
	for (size_t i = 0; i < r->st->nruns; i++) {
		const struct run *u = &r->st->runs[i];
		ptrdiff_t g, t;

		if (u->valid || (g = invalid_row(r, u)) < 0 || (t = type_of(r, u)) < 0)
			continue;
		report_cell_at(r, (size_t)g, (size_t)t)->invalid++;
	}
	for (size_t c = 0; c < r->nrows * r->ntypes; c++) {
		struct cell *cell = &r->cells[c];

		if (cell->n || !cell->invalid)
			continue;
		/* a cell of invalid runs only: in csv, json and keyvalue, untested */
		if (!cell->t_time.untested)
			report_untested(&cell->t_time, "no valid runs");
		if (!cell->t_loads.untested)
			report_untested(&cell->t_loads, "no valid runs");
	}
}

/* What runs[0..n) say (their reason, or note), a line for each distinct
 * text: "WHO round 3WHAT: TEXT", "WHO rounds 1, 3WHAT: TEXT". */
static void group_lines(struct report_out *o, const char *who, const char *what,
			const struct run **runs, size_t n, int notes)
{
	char *done = xcalloc(n ? n : 1, 1);

	for (size_t i = 0; i < n; i++) {
		const char *text = notes ? runs[i]->note : runs[i]->reason;
		struct strbuf rounds = STRBUF_INIT;
		size_t k = 0;

		if (done[i])
			continue;
		text = text ? text : "no reason recorded";
		for (size_t j = i; j < n; j++) {
			const char *tj = notes ? runs[j]->note : runs[j]->reason;

			if (done[j] || strcmp(tj ? tj : "no reason recorded", text))
				continue;
			done[j] = 1;
			if (k < ROUNDS_SHOWN)
				xstrbuf_addf(&rounds, "%s%d", k ? ", " : "", runs[j]->round);
			else if (k == ROUNDS_SHOWN)
				xstrbuf_addf(&rounds, ", ...");
			k++;
		}
		if (k > ROUNDS_SHOWN)
			xstrbuf_addf(&rounds, " (%zu runs)", k);
		report_note(o, "%s round%s %s%s: %s", who, k == 1 ? "" : "s", rounds.s, what, text);
		strbuf_free(&rounds);
	}
	free(done);
}

void report_left_out(struct report_out *o, const struct report *r, size_t t)
{
	const struct run **runs = xcalloc(r->st->nruns + 1, sizeof(*runs));

	for (size_t g = 0; g < r->nrows; g++) {
		size_t n = 0;

		for (size_t i = 0; i < r->st->nruns; i++) {
			const struct run *u = &r->st->runs[i];

			if (!u->valid && !strcmp(u->type, r->types[t]) &&
			    invalid_row(r, u) == (ptrdiff_t)g)
				runs[n++] = u;
		}
		group_lines(o, r->rows[g].name, " left out", runs, n, 0);
		n = 0;
		for (size_t i = 0; i < r->st->nruns; i++) {
			const struct run *u = &r->st->runs[i];

			if (u->note && !strcmp(u->type, r->types[t]) && report_row_has(&r->rows[g], u))
				runs[n++] = u;
		}
		group_lines(o, r->rows[g].name, "", runs, n, 1);
	}
	free(runs);
}

/* An invalid run of label, of a run type shown (--type), that no table
 * names: its type has none, or no row shown is its. */
static int elsewhere(const struct report *r, const struct report_opts *opts,
		     const struct run *u, const char *label)
{
	return !u->valid && !strcmp(u->label, label) &&
	       (!opts->types || report_in_list(opts->types, u->type)) &&
	       (type_of(r, u) < 0 || invalid_row(r, u) < 0);
}

void report_left_out_elsewhere(struct report_out *o, const struct report *r,
			       const struct report_opts *opts)
{
	const struct run **runs = xcalloc(r->st->nruns + 1, sizeof(*runs));
	char **types = xcalloc(r->st->nruns + 1, sizeof(*types));

	for (size_t l = 0; l < r->nlabels; l++) {
		const char *label = r->labels[l];
		size_t ntypes = 0;

		/* a label shown whole, not one row of it named */
		if (opts->nlabels && !report_has(opts->labels, opts->nlabels, label))
			continue;
		for (size_t i = 0; i < r->st->nruns; i++) {
			const struct run *u = &r->st->runs[i];

			if (elsewhere(r, opts, u, label) && !report_has(types, ntypes, u->type))
				types[ntypes++] = u->type;
		}
		for (size_t t = 0; t < ntypes; t++) {
			size_t n = 0;
			char *who = xasprintf("%s %s", label, types[t]);

			for (size_t i = 0; i < r->st->nruns; i++)
				if (elsewhere(r, opts, &r->st->runs[i], label) &&
				    !strcmp(r->st->runs[i].type, types[t]))
					runs[n++] = &r->st->runs[i];
			group_lines(o, who, " left out", runs, n, 0);
			free(who);
		}
	}
	free(types);
	free(runs);
}
