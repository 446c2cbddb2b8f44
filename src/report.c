/* report.c - the contest tables: cells from stored runs, and their printer. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "runtype.h"
#include "stats.h"
#include "util.h"

#define LABEL_WIDTH 20

void format_loads(double loads, char *buf, size_t len)
{
	size_t n;

	if (loads >= 9.95) {
		snprintf(buf, len, "%.0f", loads);
		return;
	}
	snprintf(buf, len, "%.1f", loads);
	n = strlen(buf);
	if (n > 2 && !strcmp(buf + n - 2, ".0"))
		buf[n - 2] = '\0';
}

void print_table(FILE *f, const char *type, const struct row *rows, size_t n)
{
	int w = LABEL_WIDTH;

	for (size_t i = 0; i < n; i++)
		if ((int)strlen(rows[i].label) > w)
			w = (int)strlen(rows[i].label);
	fprintf(f, "%s:\n", type);
	fprintf(f, "%-*s %6s %6s %5s %6s %6s %6s\n", w, "Kernel", "[runs]",
		"Time", "CPU%", "Loads", "LCPU%", "Ratio");
	for (size_t i = 0; i < n; i++) {
		const struct row *r = &rows[i];
		char runs[24], loads[32], ratio[32];

		snprintf(runs, sizeof(runs), "[%zu]", r->n);
		format_loads(r->loads, loads, sizeof(loads));
		if (isnan(r->ratio))
			snprintf(ratio, sizeof(ratio), "-");
		else
			snprintf(ratio, sizeof(ratio), "%.2f", r->ratio);
		fprintf(f, "%-*s %6s %6.1f %5.0f %6s %6.0f %6s\n", w, r->label,
			runs, r->time, r->cpu, loads, r->lcpu, ratio);
	}
}

static int by_version(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

static int has(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

/* Distinct values of a run field, each once; the caller frees the array. */
static char **distinct(const struct store *st, int types, size_t *out)
{
	char **v = NULL;
	size_t n = 0;

	for (size_t i = 0; i < st->nruns; i++) {
		char *s = types ? st->runs[i].type : st->runs[i].label;

		if (!st->runs[i].valid || has(v, n, s))
			continue;
		v = xrealloc(v, (n + 1) * sizeof(*v));
		v[n++] = s;
	}
	*out = n;
	return v;
}

static int by_rank(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	size_t rx = runtype_rank(x), ry = runtype_rank(y);

	if (rx != ry)
		return rx < ry ? -1 : 1;
	return strcmp(x, y);
}

/* The runs a row averages: one label, one workload identity.  A label
 * measured on several workloads gets several rows, never one mean. */
struct group {
	const char *label;
	const char *identity;
	char *name;                  /* the label, or "label (k)" */
	const struct record **envs;  /* its sessions' environment records */
	size_t nenvs;
};

/* The row of one group and type; n == 0 when it has no valid run. */
static void cell(const struct store *st, const char *label, const char *identity,
		 const char *type, struct row *r)
{
	double *t = xcalloc(st->nruns, sizeof(double));
	double cpu = 0, loads = 0, lcpu = 0;
	struct summary s;
	size_t n = 0;

	for (size_t i = 0; i < st->nruns; i++) {
		const struct run *u = &st->runs[i];
		double secs = (double)u->elapsed_ns / NS_PER_SEC;

		if (!u->valid || strcmp(u->label, label) || strcmp(u->type, type) ||
		    (identity && strcmp(u->workload, identity)))
			continue;
		t[n++] = secs;
		cpu += (double)(u->user_ns + u->sys_ns) / (double)u->elapsed_ns * 100;
		lcpu += (double)(u->load_user_ns + u->load_sys_ns) / (double)u->elapsed_ns * 100;
		loads += u->work;
	}
	summarise(t, n, &s);
	memset(r, 0, sizeof(*r));
	r->label = label;
	r->n = n;
	r->ratio = NAN;
	if (n) {
		r->time = s.mean;
		r->cpu = cpu / (double)n;
		r->loads = loads / (double)n;
		r->lcpu = lcpu / (double)n;
	}
	free(t);
}

static int has_session(const struct store *st, const struct group *g, const char *session)
{
	for (size_t i = 0; i < st->nruns; i++) {
		const struct run *u = &st->runs[i];

		if (u->valid && !strcmp(u->session, session) && !strcmp(u->label, g->label) &&
		    !strcmp(u->workload, g->identity))
			return 1;
	}
	return 0;
}

/* One group per (label, workload) with valid runs, labels in the given
 * order, a label's workloads in the order they were first run. */
static struct group *make_groups(const struct store *st, char **labels, size_t nlabels,
				 size_t *out)
{
	struct group *g = NULL;
	size_t n = 0;

	for (size_t l = 0; l < nlabels; l++) {
		size_t first = n;

		for (size_t i = 0; i < st->nruns; i++) {
			const struct run *u = &st->runs[i];
			int seen = 0;

			if (!u->valid || strcmp(u->label, labels[l]))
				continue;
			for (size_t k = first; k < n && !seen; k++)
				seen = !strcmp(g[k].identity, u->workload);
			if (seen)
				continue;
			g = xrealloc(g, (n + 1) * sizeof(*g));
			memset(&g[n], 0, sizeof(*g));
			g[n].label = labels[l];
			g[n].identity = u->workload;
			n++;
		}
		for (size_t k = first; k < n; k++)
			g[k].name = n - first > 1 ? xasprintf("%s (%zu)", labels[l], k - first + 1)
						  : xstrdup(labels[l]);
	}
	for (size_t k = 0; k < n; k++) {
		for (size_t e = 0; e < st->nenvs; e++) {
			const char *label = record_get(&st->envs[e], "label");
			const char *session = record_get(&st->envs[e], "session");

			if (!label || !session || strcmp(label, g[k].label) ||
			    !has_session(st, &g[k], session))
				continue;
			g[k].envs = xrealloc(g[k].envs, (g[k].nenvs + 1) * sizeof(*g[k].envs));
			g[k].envs[g[k].nenvs++] = &st->envs[e];
		}
	}
	*out = n;
	return g;
}

static void free_groups(struct group *g, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(g[i].name);
		free(g[i].envs);
	}
	free(g);
}

/* ---- what the rows were measured on ------------------------------------ */

/* Fields that differ from row to row by design, or say nothing about the
 * measurement.  The kernel is what the rows compare. */
static int ignored(const char *key)
{
	static const char *const keys[] = {
		"label", "session", "time", "argv", "kernel", "kernel_version", "work_dir",
	};

	for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
		if (!strcmp(key, keys[i]))
			return 1;
	return 0;
}

/* A value as compared and shown: sizes rounded (MemTotal moves a little with
 * the kernel), the boot image left out of the command line (it is the
 * kernel). */
static char *normalised(const char *key, const char *val)
{
	if ((!strcmp(key, "mem_total") || !strcmp(key, "swap_total")) && strcmp(val, "absent")) {
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
		return out;
	}
	return xstrdup(val);
}

/* A group's values of key, each distinct one once, joined by " / ", and
 * how many there are in *count; NULL when the group has no environment
 * record. */
static char *group_value(const struct group *g, const char *key, size_t *count)
{
	char **vals, *all = NULL;
	size_t n = 0;

	*count = 1;
	if (!strcmp(key, "workload"))
		return xstrdup(g->identity);
	vals = xcalloc(g->nenvs + 1, sizeof(*vals));
	for (size_t e = 0; e < g->nenvs; e++) {
		const char *v = record_get(g->envs[e], key);
		char *nv = normalised(key, v ? v : "absent");

		if (has(vals, n, nv))
			free(nv);
		else
			vals[n++] = nv;
	}
	*count = n;
	for (size_t i = 0; i < n; i++) {
		char *joined = all ? xasprintf("%s / %s", all, vals[i]) : xstrdup(vals[i]);

		free(all);
		free(vals[i]);
		all = joined;
	}
	free(vals);
	return all;
}

static void add_key(char ***keys, size_t *n, const char *key)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*keys)[i], key))
			return;
	*keys = xrealloc(*keys, (*n + 1) * sizeof(**keys));
	(*keys)[(*n)++] = (char *)key;
}

/* Under the tables, a line for each label split by workload.  Whether
 * anything was printed. */
static int print_splits(FILE *f, const struct group *g, size_t ng)
{
	int gap = 0;

	for (size_t i = 0; i < ng; i++) {
		size_t k = i;

		while (k + 1 < ng && g[k + 1].label == g[i].label)
			k++;
		if (k > i) {
			if (!gap++)
				fputc('\n', f);
			for (size_t j = i; j <= k; j++)
				fprintf(f, "%s%s", j > i ? (j == k ? " and " : ", ") : "", g[j].name);
			fprintf(f, ": %s measured on %zu workloads, shown apart\n",
				g[i].label, k - i + 1);
		}
		i = k;
	}
	return gap;
}

/* Under the tables: every field of the environment records in which the
 * rows, or the sessions averaged in one row, were not measured alike, one
 * line each. */
static void print_differences(FILE *f, const struct group *g, size_t ng)
{
	char **keys = NULL;
	size_t nkeys = 0;
	int decomposed = 1, gap = print_splits(f, g, ng), header = 0;

	add_key(&keys, &nkeys, "workload");
	for (size_t i = 0; i < ng; i++) {
		if (!g[i].nenvs)
			decomposed = 0;
		for (size_t e = 0; e < g[i].nenvs; e++) {
			const struct record *r = g[i].envs[e];

			if (!record_get(r, "workload_kind"))
				decomposed = 0;
			for (size_t k = 0; k < r->n; k++)
				if (!ignored(r->kv[k].key))
					add_key(&keys, &nkeys, r->kv[k].key);
		}
	}
	for (size_t k = 0; k < nkeys; k++) {
		char **vals = xcalloc(ng, sizeof(*vals));
		const char *first = NULL;
		int differ = 0;

		if (!strcmp(keys[k], "workload") && decomposed) {
			free(vals);
			continue;
		}
		for (size_t i = 0; i < ng; i++) {
			size_t count;

			vals[i] = group_value(&g[i], keys[k], &count);
			if (!vals[i])
				continue;
			/* between rows, or between the sessions of one row */
			if ((first && strcmp(first, vals[i])) || count > 1)
				differ = 1;
			if (!first)
				first = vals[i];
		}
		if (differ) {
			if (!header++)
				fprintf(f, "%sMeasured differently (besides the kernel):\n",
					gap++ ? "" : "\n");
			fprintf(f, "%s:", keys[k]);
			for (size_t i = 0, n = 0; i < ng; i++)
				if (vals[i])
					fprintf(f, "%s %s %s", n++ ? "," : "", g[i].name, vals[i]);
			fputc('\n', f);
		}
		for (size_t i = 0; i < ng; i++)
			free(vals[i]);
		free(vals);
	}
	free(keys);
}

static void count_invalid(const struct store *st, char *const *labels, size_t nl)
{
	size_t bad = 0;
	const struct run *last = NULL;

	for (size_t i = 0; i < st->nruns; i++) {
		if (st->runs[i].valid || !has(labels, nl, st->runs[i].label))
			continue;
		bad++;
		last = &st->runs[i];
	}
	if (bad)
		msg("%zu invalid run%s left out of the tables (the last: %s %s round %d: %s)",
		    bad, bad == 1 ? "" : "s", last->label, last->type, last->round,
		    last->reason ? last->reason : "no reason recorded");
}

int report_print(FILE *f, const struct store *st, const struct report_opts *o,
		 char *why, size_t len)
{
	size_t nlabels, ntypes, ngroups = 0, shown = 0, unmatched = 0;
	char **labels = distinct(st, 0, &nlabels);
	char **types = distinct(st, 1, &ntypes);
	struct group *groups = NULL;
	struct row *rows;
	int ret = 0;

	if (o->nlabels) {
		for (size_t i = 0; i < o->nlabels; i++)
			if (!has(labels, nlabels, o->labels[i]))
				msg("no valid runs stored for label '%s'", o->labels[i]);
		size_t k = 0;
		for (size_t i = 0; i < nlabels; i++)
			if (has(o->labels, o->nlabels, labels[i]))
				labels[k++] = labels[i];
		nlabels = k;
	}
	if (o->baseline) {
		struct row b;

		cell(st, o->baseline, NULL, "noload", &b);
		if (!b.n) {
			snprintf(why, len, "baseline '%s' has no valid noload run to divide by",
				 o->baseline);
			ret = -1;
			goto out;
		}
	}
	if (!nlabels) {
		snprintf(why, len, "no valid runs to report");
		ret = -1;
		goto out;
	}
	qsort(labels, nlabels, sizeof(*labels), by_version);
	qsort(types, ntypes, sizeof(*types), by_rank);
	groups = make_groups(st, labels, nlabels, &ngroups);
	rows = xcalloc(ngroups, sizeof(*rows));
	for (size_t t = 0; t < ntypes; t++) {
		size_t n = 0;

		for (size_t g = 0; g < ngroups; g++) {
			struct row nl;

			cell(st, groups[g].label, groups[g].identity, types[t], &rows[n]);
			if (!rows[n].n)
				continue;
			rows[n].label = groups[g].name;
			/* divide by a noload of the same workload only */
			cell(st, o->baseline ? o->baseline : groups[g].label, groups[g].identity,
			     "noload", &nl);
			rows[n].ratio = nl.n ? rows[n].time / nl.time : NAN;
			unmatched += o->baseline && !nl.n;
			n++;
		}
		if (!n)
			continue;
		if (shown++)
			fputc('\n', f);
		print_table(f, types[t], rows, n);
	}
	free(rows);
	print_differences(f, groups, ngroups);
	if (unmatched)
		msg("baseline '%s' has no noload run of the workload of some rows: their "
		    "Ratio is -", o->baseline);
	count_invalid(st, labels, nlabels);
out:
	free_groups(groups, ngroups);
	free(labels);
	free(types);
	return ret;
}
