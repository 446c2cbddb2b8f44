/* SPDX-License-Identifier: GPL-2.0-or-later */
/* header.c - report --header: what the rows' runs share, in a few
 * lines above the tables (the facts readers of the 2002 tables asked for:
 * the kernels, the machine, the workload, what one unit of each load's
 * Loads is, how caches were flushed, the probe, the version of contest),
 * wrapped for a mail.  What differs from row to row stays under the
 * tables, but for the line under them that says when rows of different
 * labels ran in one boot of one kernel. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/report-internal.h"
#include "results/latency.h"
#include "loads/runtype.h"
#include "lib/strbuf.h"
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

/* "NAME: VALUE", wrapped for a mail under the value's start. */
static void header_put(struct report_out *o, const char *name, const char *value)
{
	char *head = xasprintf("%s: ", name);

	report_note_wrapped(o, head, (int)strlen(head), value);
	free(head);
}

/* The kernel of row g, "RELEASE VERSION" (each distinct one of its
 * sessions joined by " / "), or NULL when its records hold none. */
static char *row_kernel(const struct report *r, size_t g)
{
	size_t n;
	char *rel = report_row_value(r, &r->rows[g], "kernel", 0, &n);
	char *ver = report_row_value(r, &r->rows[g], "kernel_version", 0, &n);
	char *k;

	if (!rel || !strcmp(rel, "absent"))
		k = NULL;
	else if (!ver || !strcmp(ver, "absent"))
		k = xstrdup(rel);
	else
		k = xasprintf("%s %s", rel, ver);
	free(rel);
	free(ver);
	return k;
}

static int same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

/* A line per label, "LABEL: RELEASE VERSION", or per row where a label's
 * rows ran different kernels; where the rows' kernel command lines differ,
 * each row's under its kernel (a long one as "the common words and" its
 * own, as under the tables).  None where no record names a kernel. */
static void kernel_lines(struct report_out *o, const struct report *r)
{
	char **kernel = xcalloc(r->nrows, sizeof(*kernel)), **cmd = xcalloc(r->nrows, sizeof(*cmd));
	char **own = NULL;
	int differ = 0, cut = 0, any = 0;

	for (size_t g = 0; g < r->nrows; g++) {
		size_t count = 0;

		kernel[g] = row_kernel(r, g);
		any |= kernel[g] != NULL;
		cmd[g] = report_row_value(r, &r->rows[g], "cmdline", 0, &count);
		differ |= count > 1 || !same_text(cmd[g], cmd[0]);
	}
	if (differ)
		own = report_shorten(cmd, r->nrows, 40, &cut);
	for (size_t g = 0; g < r->nrows && any; g++) {
		const struct report_row *row = &r->rows[g];
		int seen = 0, split = 0;

		for (size_t h = 0; h < r->nrows; h++) {
			if (r->rows[h].label != row->label && strcmp(r->rows[h].label, row->label))
				continue;
			if (!same_text(kernel[h], kernel[g]) || !same_text(cmd[h], cmd[g]))
				split = 1;
			else if (h < g)
				seen = 1;
		}
		if (seen)
			continue;
		header_put(o, split ? row->name : row->label, kernel[g] ? kernel[g] : "not recorded");
		if (own && own[g]) {
			char *words;

			if (!cut)
				words = xstrdup(own[g]);
			else if (!strcmp(own[g], "(no other word)"))
				words = xstrdup("the common words only");
			else
				words = xasprintf("the common words and %s", own[g]);
			report_note_wrapped(o, "  cmdline: ", 11, words);
			free(words);
		}
	}
	for (size_t g = 0; g < r->nrows; g++) {
		free(kernel[g]);
		free(cmd[g]);
		if (own)
			free(own[g]);
	}
	free(kernel);
	free(cmd);
	free(own);
}

/* Whether a session ran with --quick: its record says so (quick=1), or,
 * written before records did, its command line has the option. */
static int env_quick(const struct record *e)
{
	const char *q = record_get(e, "quick"), *argv = record_get(e, "argv");

	if (q)
		return !strcmp(q, "1");
	return argv && str_has_word(argv, "--quick");
}

/* "Suite: --quick", where the rows' sessions ran with it: a smoke run, its
 * workload and loads small; the rows named where not every one did. */
static void quick_line(struct report_out *o, const struct report *r)
{
	struct strbuf rows = STRBUF_INIT;
	int all = 1;

	for (size_t g = 0; g < r->nrows; g++) {
		size_t n = 0;

		for (size_t e = 0; e < r->rows[g].nenvs; e++)
			n += env_quick(r->rows[g].envs[e]);
		all &= n && n == r->rows[g].nenvs;
		if (n)
			xstrbuf_addf(&rows, "%s%s%s", rows.s ? ", " : "", r->rows[g].name,
				     n < r->rows[g].nenvs ? " (some sessions)" : "");
	}
	if (rows.s && all) {
		header_put(o, "Suite", "--quick (a smoke run: the workload and the loads made small)");
	} else if (rows.s) {
		char *line = xasprintf("--quick in %s only", rows.s);

		header_put(o, "Suite", line);
		free(line);
	}
	strbuf_free(&rows);
}

/* What one unit of each load's Loads is, with the sizes the rows' runs of
 * it used (their names as under the tables and in csv), a line each under
 * "Loads, one unit of each:"; a size the rows do not share "not alike". */
static void load_lines(struct report_out *o, const struct report *r)
{
	int w = 0, heading = 0;

	for (size_t t = 0; t < r->ntypes; t++)
		if (report_type_has_load(r->types[t]) && (int)strlen(r->types[t]) > w)
			w = (int)strlen(r->types[t]);
	for (size_t t = 0; t < r->ntypes; t++) {
		const struct runtype *rt = runtype_find(r->types[t]);
		size_t nkeys;
		struct strbuf sizes = STRBUF_INIT;
		char **keys, *text, *head;

		if (!report_type_has_load(r->types[t]))
			continue;
		keys = report_param_keys(r, t, &nkeys);
		for (size_t k = 0; k < nkeys; k++) {
			char *v = NULL;
			int differ = 0;

			for (size_t g = 0; g < r->nrows; g++) {
				size_t count;
				char *x = report_cell_param(r, g, t, keys[k], 0, &count);

				if (!x)
					continue;
				differ |= count > 1 || (v && strcmp(v, x));
				if (!v)
					v = x;
				else
					free(x);
			}
			if (v && (differ || strcmp(v, "absent"))) {
				char *item = xasprintf("%s %s", keys[k], differ ? "not alike" : v);

				/* a size stays on one line with its name */
				for (char *p = item; (p = strchr(p, ' ')); p++)
					*p = REPORT_GLUE;
				xstrbuf_addf(&sizes, "%s%s", sizes.s ? ", " : "", item);
				free(item);
			}
			free(v);
		}
		free(keys);
		text = xasprintf("%s%s%s%s", rt ? rt->unit : "a unit this contest does not know",
				 sizes.s ? " (" : "", sizes.s ? sizes.s : "", sizes.s ? ")" : "");
		if (!heading++)
			report_note(o, "Loads, one unit of each:");
		head = xasprintf("  %-*s  ", w, r->types[t]);
		report_note_wrapped(o, head, (int)strlen(head), text);
		free(head);
		free(text);
		strbuf_free(&sizes);
	}
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

		header_put(o, name, line);
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
	kernel_lines(o, r);
	header_line(o, r, "CPU", "%s x %s", "ncpus cpu_model");
	header_line(o, r, "Memory", "%s RAM, swap: %s", "mem_total swap");
	header_line(o, r, "File system", "%s on %s, I/O scheduler %s",
		    "work_fs work_dev io_scheduler");
	header_line(o, r, "Workload", "%s", "workload");
	quick_line(o, r);
	load_lines(o, r);
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
		char *line = xasprintf("%s (audio, video and input)", name);

		header_put(o, "Latency probe", line);
		free(line);
		free(name);
	}
	header_line(o, r, "contest", "%s", "contest");
	fputc('\n', o->f);
	o->gap = 0;	/* the notes under the tables set themselves off again */
}

/* Whether row g is a comparison's configuration (a `contest compare`). */
static int compared(const struct report_row *g)
{
	for (size_t e = 0; e < g->nenvs; e++)
		if (record_get(g->envs[e], "compare"))
			return 1;
	return 0;
}

/* A recorded value of e's key, or NULL. */
static const char *recorded(const struct record *e, const char *key)
{
	const char *v = record_get(e, key);

	return v && *v && strcmp(v, "absent") ? v : NULL;
}

/* Whether a session of row a and one of row b ran in one boot of one kernel:
 * 2 where their boot_ids say so; 1 where the kernel's release and version
 * are the same and a record holds no boot_id (written before records did);
 * 0 when none did. */
static int one_boot(const struct report_row *a, const struct report_row *b)
{
	int found = 0;

	for (size_t i = 0; i < a->nenvs; i++) {
		const struct record *ea = a->envs[i];

		for (size_t j = 0; j < b->nenvs; j++) {
			const struct record *eb = b->envs[j];
			const char *ba = recorded(ea, "boot_id"), *bb = recorded(eb, "boot_id");

			if (!recorded(ea, "kernel") || !recorded(ea, "kernel_version") ||
			    !same_text(recorded(ea, "kernel"), recorded(eb, "kernel")) ||
			    !same_text(recorded(ea, "kernel_version"), recorded(eb, "kernel_version")))
				continue;
			if (ba && bb && !strcmp(ba, bb))
				return 2;
			if (!ba || !bb)
				found = 1;
		}
	}
	return found;
}

void report_same_boot(struct report_out *o, const struct report *r)
{
	char *done = xcalloc(r->nrows, 1);

	for (size_t i = 0; i < r->nrows; i++) {
		const char **names;
		size_t n = 1;
		int known = 2;

		if (done[i] || compared(&r->rows[i]))
			continue;
		names = xcalloc(r->nrows, sizeof(*names));
		names[0] = r->rows[i].name;
		for (size_t j = i + 1; j < r->nrows; j++) {
			int same;

			if (done[j] || compared(&r->rows[j]) || !strcmp(r->rows[j].label, r->rows[i].label))
				continue;
			same = one_boot(&r->rows[i], &r->rows[j]);
			if (!same || !report_rows_alike(r, i, j))
				continue;
			done[j] = 1;
			known = same < known ? same : known;
			names[n++] = r->rows[j].name;
		}
		if (n > 1) {
			struct strbuf text = STRBUF_INIT;
			char *kernel = row_kernel(r, i);

			for (size_t k = 0; k < n; k++)
				xstrbuf_addf(&text, "%s%s", k ? (k + 1 == n ? " and " : ", ") : "",
					     names[k]);
			if (known == 2)
				xstrbuf_addf(&text, " were measured in one boot of one kernel, %s:",
					     kernel ? kernel : "?");
			else
				xstrbuf_addf(&text, " were measured on one kernel build with one "
					     "command line, %s (no boot recorded):",
					     kernel ? kernel : "?");
			xstrbuf_addf(&text, " if they were meant to be different kernels, a reboot "
				     "was forgotten");
			report_note_wrapped(o, "", 2, text.s);
			strbuf_free(&text);
			free(kernel);
		}
		free(names);
	}
	free(done);
}
