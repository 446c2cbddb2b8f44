/* SPDX-License-Identifier: GPL-2.0-or-later */
/* header.c - report --header: what the rows' runs share, in a few
 * lines above the tables (the facts readers of the 2002 tables asked for:
 * the machine, the workload, how caches were flushed, the probe, the
 * version of contest).  What differs from row to row stays under the
 * tables. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "results/latency.h"
#include "lib/util.h"

/* The value of key that every row shares, as the differences show it;
 * NULL when rows or a row's sessions differ, or none recorded it. */
static char *shared(const struct report *r, const char *key, int *differ)
{
	char *first = NULL;

	for (size_t g = 0; g < r->nrows; g++) {
		size_t count;
		char *v = report_row_value(r, &r->rows[g], key, 0, &count);

		if (v && (count != 1 || (first && strcmp(first, v)))) {
			*differ = 1;
			free(v);
			free(first);
			return NULL;
		}
		if (!first)
			first = v;
		else
			free(v);
	}
	if (first && !strcmp(first, "absent")) {
		free(first);
		return NULL;
	}
	return first;
}

/* tmpl with each "%s" replaced by the next of v ("?" where it is NULL). */
static char *fill(const char *tmpl, char *const *v)
{
	size_t len = strlen(tmpl) + 1, k = 0;
	char *out;

	for (size_t i = 0; i < 4; i++)
		len += v[i] ? strlen(v[i]) : 1;
	out = xcalloc(len, 1);
	for (const char *p = tmpl; *p; p++) {
		if (p[0] == '%' && p[1] == 's') {
			strcat(out, v[k] ? v[k] : "?");
			k++;
			p++;
		} else {
			out[strlen(out)] = *p;
		}
	}
	return out;
}

/* One header line, "NAME: " then tmpl's "%s" filled with each key's shared
 * value (keys: at most 4, space-separated); where a value differs between
 * the rows, "not alike (see under the tables)"; none when no row recorded
 * one. */
static void header_line(struct report_out *o, const struct report *r, const char *name,
			const char *tmpl, const char *keys)
{
	char *copy = xstrdup(keys), *save = NULL, *v[4] = { 0 };
	int differ = 0, any = 0;
	size_t n = 0;

	for (char *k = strtok_r(copy, " ", &save); k && n < 4; k = strtok_r(NULL, " ", &save)) {
		v[n] = shared(r, k, &differ);
		any |= v[n] != NULL;
		n++;
	}
	if (differ) {
		report_note(o, "%s: not alike (see under the tables)", name);
	} else if (any) {
		char *line = fill(tmpl, v);

		report_note(o, "%s: %s", name, line);
		free(line);
	}
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(copy);
}

void report_header(struct report_out *o, const struct report *r)
{
	const struct report_row *probe = NULL;
	int alike = 1;

	o->gap = 1;	/* at the top: no blank line before */
	header_line(o, r, "CPU", "%s x %s", "ncpus cpu_model");
	header_line(o, r, "Memory", "%s RAM, swap: %s", "mem_total swap");
	header_line(o, r, "File system", "%s on %s, I/O scheduler %s",
		    "work_fs work_dev io_scheduler");
	header_line(o, r, "Workload", "%s", "workload");
	header_line(o, r, "Flush", "%s", "flush");
	for (size_t g = 0; g < r->nrows; g++) {
		alike &= !probe || report_same_probe(probe, &r->rows[g]);
		probe = &r->rows[g];
	}
	if (!alike) {
		report_note(o, "Latency probe: not alike in every row (see under the tables)");
	} else if (!probe || !probe->probe) {
		report_note(o, "Latency probe: off");
	} else {
		char *name = report_row_value(r, probe, "probe", 0, &(size_t){ 0 });

		report_note(o, "Latency probe: %s (audio, video and input)", name);
		free(name);
	}
	header_line(o, r, "contest", "%s", "contest");
	fputc('\n', o->f);
	o->gap = 0;	/* the notes under the tables set themselves off again */
}
