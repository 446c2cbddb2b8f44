/* SPDX-License-Identifier: GPL-2.0-or-later */
/* values.c - what each row of the report was measured with: its value of
 * every field of its sessions' environment records (and its workload, loads'
 * session, probe and flush), and of every size its loads used; as stored,
 * for the data formats, or as compared and shown, for the differences under
 * the tables and report --header. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/report-internal.h"
#include "report/report.h"
#include "results/latency.h"
#include "lib/flush.h"
#include "lib/strbuf.h"
#include "lib/util.h"

char *report_printable(char *s)
{
	for (char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = '?';
	return s;
}

/* A value as compared and shown: sizes rounded (MemTotal, and the loads'
 * sizes made from it, move a little with the kernel), the boot image left
 * out of the command line (it is the kernel), control characters as '?'. */
static char *normalised(const char *key, const char *val)
{
	size_t klen = strlen(key);

	if ((!strcmp(key, "mem_total") || !strcmp(key, "swap_total") ||
	     (klen > 5 && !strcmp(key + klen - 5, "_size"))) && strcmp(val, "absent")) {
		char buf[32];
		uint64_t v;

		if (parse_u64(val, 0, UINT64_MAX, &v) == 0) {
			format_size(v, buf, sizeof(buf));
			return xstrdup(buf);
		}
	}
	if (!strcmp(key, "cmdline")) {
		char *out = xstrdup(val), *copy = xstrdup(val), *save = NULL;

		out[0] = '\0';
		for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
			if (!strncmp(w, "BOOT_IMAGE=", 11))
				continue;
			if (out[0])
				strcat(out, " ");
			strcat(out, w);
		}
		free(copy);
		return report_printable(out);
	}
	return report_printable(xstrdup(val));
}

/* v[] += nv, taken, unless it is there already (then freed). */
static void add_value(char ***v, size_t *n, char *nv)
{
	if (report_has(*v, *n, nv)) {
		free(nv);
		return;
	}
	*v = xreallocarray(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = nv;
}

/* v[0..n) joined by " / " and freed; NULL when n is 0. */
static char *join_values(char **v, size_t n)
{
	struct strbuf all = STRBUF_INIT;

	for (size_t i = 0; i < n; i++) {
		xstrbuf_addf(&all, "%s%s", i ? " / " : "", v[i]);
		free(v[i]);
	}
	free(v);
	return all.s;
}

/* How a row's runs were flushed, as shown and compared (cacherun's none
 * left out): the distinct methods, fadvise marked partial. */
static char *row_flush(const struct report *r, const struct report_row *g, size_t *count)
{
	char **vals = NULL;
	size_t n = 0;

	for (size_t i = 0; i < r->st->nruns; i++) {
		const struct run *u = &r->st->runs[i];

		if (report_row_has(g, u) && strcmp(u->flush, "none"))
			add_value(&vals, &n, report_printable(xstrdup(flush_scope(u->flush))));
	}
	*count = n;
	return join_values(vals, n);
}

/* The row's probe in words: its profile's name, and the work it gave each
 * task where that is not the profile's work today (records of an earlier
 * contest). */
static char *probe_name(const struct report_row *g)
{
	struct strbuf s = STRBUF_INIT;

	xstrbuf_addf(&s, "%s", probe_profiles[g->probe].name);
	if (g->probe && memcmp(g->probe_work_ns, probe_profiles[g->probe].work_ns,
			       sizeof(g->probe_work_ns)))
		for (unsigned i = 0; i < PROBE_TASKS; i++)
			xstrbuf_addf(&s, "%s %s %g us%s", i ? "," : " (work", probe_tasks[i].name,
				     (double)g->probe_work_ns[i] / 1e3,
				     i + 1 < PROBE_TASKS ? "" : ")");
	return s.s;
}

/* A row's values of key, each distinct one once, joined by " / ", and how
 * many there are in *count; NULL when the row has no environment record.
 * Raw: as stored, absent ones left out, for the data formats; else as
 * compared and shown, absent ones as "absent", and the flush as the runs
 * record it. */
char *report_row_value(const struct report *r, const struct report_row *g, const char *key,
		       int raw, size_t *count)
{
	char **vals = NULL;
	size_t n = 0;

	*count = 1;
	if (!strcmp(key, "workload"))
		return xstrdup(g->identity);
	if (!strcmp(key, "load_session"))
		return xstrdup(g->load_session ? "yes" : "no");
	if (!strcmp(key, "probe"))
		return probe_name(g);
	if (!strcmp(key, "flush") && !raw)
		return row_flush(r, g, count);
	for (size_t e = 0; e < g->nenvs; e++) {
		const char *v = record_get(g->envs[e], key);

		if (raw && !v)
			continue;
		add_value(&vals, &n, raw ? xstrdup(v) : normalised(key, v ? v : "absent"));
	}
	*count = n;
	return join_values(vals, n);
}

/* The sizes the load of a row's runs of type t used (params), each distinct
 * value once, joined by " / ", how many in *count; NULL without such runs.
 * Raw: as stored, runs without it left out; else as shown, "absent" for
 * runs recorded without it. */
char *report_cell_param(const struct report *r, size_t g, size_t t, const char *key, int raw,
			size_t *count)
{
	const struct report_row *row = &r->rows[g];
	struct sel s = report_row_sel(row, r->types[t]);
	char **vals = NULL;
	size_t n = 0;

	for (size_t i = 0; i < r->st->nruns; i++) {
		const struct run *u = &r->st->runs[i];
		const char *v;

		if (!report_selected(u, &s))
			continue;
		v = record_get(&u->params, key);
		if (raw && !v)
			continue;
		add_value(&vals, &n, raw ? xstrdup(v) : normalised(key, v ? v : "absent"));
	}
	*count = n;
	return join_values(vals, n);
}

void report_add_key(char ***keys, size_t *n, const char *key)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*keys)[i], key))
			return;
	*keys = xreallocarray(*keys, *n + 1, sizeof(**keys));
	(*keys)[(*n)++] = (char *)key;
}

/* Every key of the rows' environment records, in first-seen order. */
char **report_env_keys(const struct report *r, size_t *n)
{
	char **keys = NULL;

	*n = 0;
	for (size_t i = 0; i < r->nrows; i++)
		for (size_t e = 0; e < r->rows[i].nenvs; e++)
			for (size_t k = 0; k < r->rows[i].envs[e]->n; k++)
				report_add_key(&keys, n, r->rows[i].envs[e]->kv[k].key);
	return keys;
}

/* Every name of the loads' sizes in the runs of type t (every type: t ==
 * ntypes) of the rows, in first-seen order. */
char **report_param_keys(const struct report *r, size_t t, size_t *n)
{
	char **keys = NULL;

	*n = 0;
	for (size_t i = 0; i < r->st->nruns; i++) {
		const struct run *u = &r->st->runs[i];
		int shown = 0;

		if (!u->valid || (t < r->ntypes && strcmp(u->type, r->types[t])))
			continue;
		for (size_t g = 0; g < r->nrows && !shown; g++)
			shown = report_row_has(&r->rows[g], u);
		for (size_t k = 0; shown && k < u->params.n; k++)
			report_add_key(&keys, n, u->params.kv[k].key);
	}
	return keys;
}
