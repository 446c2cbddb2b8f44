/* SPDX-License-Identifier: GPL-2.0-or-later */
/* differences.c - the report's differences, under the tables: a line for
 * each label whose runs split into rows (by machine, kernel, workload or
 * configuration), and every field of the environment records, the flush
 * and every size of a load in which the rows, or the sessions averaged in
 * one row, were not measured alike. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/report-internal.h"
#include "lib/strbuf.h"
#include "lib/util.h"

/* Fields that differ from row to row by design, or say nothing about the
 * measurement.  The kernel is what the rows compare. */
static int ignored(const char *key)
{
	static const char *const keys[] = {
		"label", "session", "time", "argv", "kernel", "kernel_version", "work_dir", "id",
		/* every boot has its own; --quick shows in the sizes it set */
		"boot_id", "quick",
		/* a comparison's configurations differ in these by definition:
		 * they restate the label (config_setup says how) */
		"compare_index", "compare_vary",
	};

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strcmp(key, keys[i]))
			return 1;
	return 0;
}

/* Whether row j's machine (or kernel: kernel) is that of an earlier row of
 * i..j. */
static int seen_in(const struct report *r, size_t i, size_t j, int kernel)
{
	for (size_t k = i; k < j; k++)
		if (!strcmp(kernel ? r->rows[k].kernel : r->rows[k].host,
			    kernel ? r->rows[j].kernel : r->rows[j].host))
			return 1;
	return 0;
}

/* Under the tables, a line for each label split by machine, kernel,
 * workload or configuration; each kernel of a label split by kernel in
 * full (release and version), for the reader to tell them apart. */
void report_splits(struct report_out *o, const struct report *r)
{
	for (size_t i = 0; i < r->nrows; i++) {
		size_t k = i;
		int sessions = 0;	/* the rows differ in configuration */
		struct strbuf line = STRBUF_INIT;

		while (k + 1 < r->nrows && r->rows[k + 1].label == r->rows[i].label) {
			k++;
			sessions |= r->rows[k].load_session != r->rows[i].load_session ||
				    !report_same_probe(&r->rows[k], &r->rows[i]);
		}
		if (k > i) {
			size_t hosts = 0, kernels = 0;

			for (size_t j = i; j <= k; j++) {
				xstrbuf_addf(&line, "%s%s", j > i ? (j == k ? " and " : ", ") : "",
					     r->rows[j].name);
				hosts += r->rows[j].host && !seen_in(r, i, j, 0);
				kernels += r->rows[j].kernel && !seen_in(r, i, j, 1);
			}
			if (kernels > 1)
				report_note(o, "%s: %s measured on %zu kernels%s, shown apart",
				     line.s, r->rows[i].label, kernels,
				     hosts > 1 ? " and machines" : "");
			else if (hosts > 1)
				report_note(o, "%s: %s measured on %zu machines%s, shown apart",
				     line.s, r->rows[i].label, hosts, k - i + 1 > hosts ?
				     " and in several workloads or configurations" : "");
			else
				report_note(o, "%s: %s measured %s %zu %s, shown apart", line.s,
				     r->rows[i].label, sessions ? "in" : "on", k - i + 1,
				     sessions ? "configurations" : "workloads");
			strbuf_free(&line);
			for (size_t j = i; kernels > 1 && j <= k; j++) {
				char *kernel;

				if (!*r->rows[j].kernel || seen_in(r, i, j, 1))
					continue;
				kernel = xstrdup(r->rows[j].kernel);
				kernel[strcspn(kernel, "\n")] = ' ';	/* release version */
				report_note(o, "%s: kernel %s", r->rows[j].name,
					    report_printable(kernel));
				free(kernel);
			}
		}
		i = k;
	}
}

/* Whether the n bytes at w are a word of every value of vals (NULL: none). */
static int word_everywhere(char *const *vals, size_t nvals, const char *w, size_t n)
{
	for (size_t i = 0; i < nvals; i++) {
		const char *p = vals[i];
		int found = 0;

		while (p && *p && !found) {
			size_t len = strcspn(p, " ");

			found = len == n && !strncmp(p, w, n);
			p += len;
			p += strspn(p, " ");
		}
		if (vals[i] && !found)
			return 0;
	}
	return 1;
}

char **report_shorten(char *const *vals, size_t nvals, int room, int *cut)
{
	char **out = xcalloc(nvals, sizeof(*out));
	int long_one = 0;

	*cut = 0;
	for (size_t i = 0; i < nvals; i++)
		long_one |= room > 0 && vals[i] && (int)strlen(vals[i]) > room;
	for (size_t i = 0; i < nvals; i++) {
		const char *p = vals[i];

		if (!p)
			continue;
		out[i] = xstrdup("");
		while (*p) {
			size_t len = strcspn(p, " ");
			char *more;

			if (long_one && len && word_everywhere(vals, nvals, p, len)) {
				*cut = 1;
			} else if (len) {
				more = xasprintf("%s%s%.*s", out[i], *out[i] ? " " : "", (int)len, p);
				free(out[i]);
				out[i] = more;
			}
			p += len;
			p += strspn(p, " ");
		}
	}
	for (size_t i = 0; i < nvals; i++) {
		if (!vals[i] || (*cut && *out[i]))
			continue;
		free(out[i]);
		out[i] = xstrdup(*cut ? "(no other word)" : vals[i]);
	}
	return out;
}

/* "  NAME  VALUE", the name padded to w, the value wrapped at the words to
 * the report's width (none: one line), its further lines under its first. */
static void note_wrapped(struct report_out *o, int w, const char *name, const char *value)
{
	char *head = xasprintf("  %-*s  ", w, name);

	report_note_wrapped(o, head, 2 + w + 2, value);
	free(head);
}

/* One line of the differences, under their heading, when the rows' values
 * (vals[i]: NULL where the row has none; count[i] > 1: its sessions or
 * runs differ) are not all alike. */
static void difference(struct report_out *o, const struct report *r, const char *name,
		       char *const *vals, const size_t *count, int *header)
{
	const char *first = NULL;
	struct strbuf line = STRBUF_INIT;
	char **short_vals;
	int differ = 0, cut, comma = 0, w = 0, room;

	for (size_t i = 0; i < r->nrows; i++) {
		if (!vals[i])
			continue;
		/* between rows, or between the sessions of one row */
		if ((first && strcmp(first, vals[i])) || count[i] > 1)
			differ = 1;
		if (!first)
			first = vals[i];
	}
	if (!differ)
		return;
	if (!(*header)++)
		report_note(o, "Measured differently (besides the kernel):");
	/* "contest: ..." would read as one of contest's messages */
	if (!strcmp(name, "contest"))
		name = "contest version";
	for (size_t i = 0; i < r->nrows; i++)
		if (vals[i] && (int)strlen(r->rows[i].name) > w)
			w = (int)strlen(r->rows[i].name);
	/* shortened where a value would not fit its row's line, "  NAME  VALUE" */
	room = o->width ? o->width - (2 + w + 2) : 0;
	short_vals = report_shorten(vals, r->nrows, o->width && room < 1 ? 1 : room, &cut);
	for (size_t i = 0, n = 0; i < r->nrows; i++) {
		if (!vals[i])
			continue;
		xstrbuf_addf(&line, "%s %s %s", n++ ? "," : "", r->rows[i].name, short_vals[i]);
		comma |= strchr(short_vals[i], ',') != NULL;
	}
	if (!cut && !comma && (!o->width || (int)(strlen(name) + 1 + line.len) <= o->width)) {
		report_note(o, "%s:%s", name, line.s);
	} else {
		/* a row a line, its value wrapped for a mail */
		report_note(o, "%s%s:", name, cut ? " (the words all rows share are not shown)" : "");
		for (size_t i = 0; i < r->nrows; i++)
			if (vals[i])
				note_wrapped(o, w, r->rows[i].name, short_vals[i]);
	}
	for (size_t i = 0; i < r->nrows; i++)
		free(short_vals[i]);
	free(short_vals);
	strbuf_free(&line);
}

/* The keys the differences compare: the workload (but where every record
 * names its parts), the flush, every field of the rows' environment records
 * but those ignored, the loads' session and the probe where some row has
 * them.  The caller frees the array, not the keys. */
static char **compared_keys(const struct report *r, size_t *nkeys)
{
	char **keys = NULL;
	int decomposed = 1, sessions = 0, probes = 0;

	*nkeys = 0;
	report_add_key(&keys, nkeys, "workload");
	report_add_key(&keys, nkeys, "flush");
	for (size_t i = 0; i < r->nrows; i++) {
		sessions |= r->rows[i].load_session;
		probes |= r->rows[i].probe;
		if (!r->rows[i].nenvs)
			decomposed = 0;
		for (size_t e = 0; e < r->rows[i].nenvs; e++) {
			const struct record *rec = r->rows[i].envs[e];

			if (!record_get(rec, "workload_kind"))
				decomposed = 0;
			for (size_t k = 0; k < rec->n; k++)
				if (!ignored(rec->kv[k].key))
					report_add_key(&keys, nkeys, rec->kv[k].key);
		}
	}
	if (sessions)
		report_add_key(&keys, nkeys, "load_session");
	if (probes)
		report_add_key(&keys, nkeys, "probe");
	if (decomposed)	/* its parts say what it is: "workload", keys[0], goes */
		memmove(keys, keys + 1, --*nkeys * sizeof(*keys));
	return keys;
}

int report_rows_alike(const struct report *r, size_t a, size_t b)
{
	size_t nkeys, ca, cb;
	char **keys = compared_keys(r, &nkeys);
	int alike = 1;

	for (size_t k = 0; k < nkeys && alike; k++) {
		char *va = report_row_value(r, &r->rows[a], keys[k], 0, &ca);
		char *vb = report_row_value(r, &r->rows[b], keys[k], 0, &cb);

		alike = va && vb && ca == 1 && cb == 1 && !strcmp(va, vb);
		free(va);
		free(vb);
	}
	free(keys);
	return alike;
}

/* Under the tables: every field of the environment records in which the
 * rows, or the sessions averaged in one row, were not measured alike, the
 * flush of their runs, then every size a load used ("io_load file_size"),
 * one line each. */
void report_differences(struct report_out *o, const struct report *r)
{
	char **vals = xcalloc(r->nrows, sizeof(*vals));
	size_t nkeys, *count = xcalloc(r->nrows, sizeof(*count));
	char **keys = compared_keys(r, &nkeys);
	int header = 0;

	for (size_t k = 0; k < nkeys; k++) {
		for (size_t i = 0; i < r->nrows; i++)
			vals[i] = report_row_value(r, &r->rows[i], keys[k], 0, &count[i]);
		difference(o, r, keys[k], vals, count, &header);
		for (size_t i = 0; i < r->nrows; i++)
			free(vals[i]);
	}
	free(keys);
	for (size_t t = 0; t < r->ntypes; t++) {
		keys = report_param_keys(r, t, &nkeys);
		for (size_t k = 0; k < nkeys; k++) {
			char *name = xasprintf("%s %s", r->types[t], keys[k]);

			for (size_t i = 0; i < r->nrows; i++)
				vals[i] = report_cell_param(r, i, t, keys[k], 0, &count[i]);
			difference(o, r, name, vals, count, &header);
			for (size_t i = 0; i < r->nrows; i++)
				free(vals[i]);
			free(name);
		}
		free(keys);
	}
	free(vals);
	free(count);
}
