/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rows.c - the report's rows: one per label, configuration and, where the
 * label's runs come from several machines or kernels, machine and kernel;
 * their names ("label@HOSTNAME", "label@RELEASE#BUILD", "label (k)"), their
 * sessions and environment records. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report-internal.h"
#include "report/report.h"
#include "lib/util.h"

static int has_session(const struct store *st, const struct report_row *g, const char *session)
{
	for (size_t i = 0; i < st->nruns; i++) {
		const struct run *u = &st->runs[i];

		if (!strcmp(u->session, session) && report_row_has(g, u))
			return 1;
	}
	return 0;
}

/* The distinct machines (or kernels: of) of a label's valid runs, those of
 * sessions without an environment record left out; how many in *n.  The
 * caller frees the array. */
static char **label_values(const struct store *st, const char *label,
			   const char *(*of)(const struct run *), size_t *n)
{
	char **v = NULL;

	*n = 0;
	for (size_t i = 0; i < st->nruns; i++) {
		const struct run *u = &st->runs[i];

		if (!u->valid || strcmp(u->label, label) || !*of(u) ||
		    report_has(v, *n, (char *)of(u)))
			continue;
		v = xreallocarray(v, *n + 1, sizeof(*v));
		v[(*n)++] = (char *)of(u);
	}
	return v;
}

/* The hostname of a machine ("HOSTNAME\nCPU MODEL"), or the release of a
 * kernel ("RELEASE\nVERSION"), into buf. */
static const char *first_line(const char *host, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(host, "\n"), host);
	return buf;
}

/* How a kernel of a label's several is named after "label@": its release
 * where no other has it, else the release and the build number that starts
 * its version string ("6.1.0#2": the same tree built again), control
 * characters and spaces as '?'. */
static char *kernel_tag(const char *kernel, char *const *all, size_t nall)
{
	const char *version = kernel + strcspn(kernel, "\n");
	char rel[128], other[128], *tag;
	size_t same = 0;

	first_line(kernel, rel, sizeof(rel));
	for (size_t i = 0; i < nall; i++)
		same += !strcmp(first_line(all[i], other, sizeof(other)), rel);
	if (*version)
		version++;
	if (same > 1 && version[0] == '#')
		tag = xasprintf("%s%.*s", rel, (int)strcspn(version, " "), version);
	else
		tag = xstrdup(rel);
	for (char *p = tag; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			*p = '?';
	return tag;
}

/* A label's rows from several machines are named by their hostnames,
 * where those tell the machines apart, and from several kernels by
 * kernel_tag(), so that the name can be given back as a label; rows that
 * share a name are then numbered, "label (k)" or "label@HOSTNAME (k)". */
static void name_rows(struct report_row *g, size_t first, size_t n, char **hosts,
		      size_t nhosts, char **kernels, size_t nkernels)
{
	int by_host = nhosts > 1;
	char a[256], b[256];

	for (size_t i = 0; i < nhosts && by_host; i++) {
		by_host = first_line(hosts[i], a, sizeof(a))[0] != '\0';
		for (size_t j = 0; j < i && by_host; j++)
			by_host = strcmp(a, first_line(hosts[j], b, sizeof(b)));
	}
	/* runs of no known machine or kernel: the label */
	for (size_t k = first; k < n; k++) {
		g[k].name = by_host && *g[k].host ? xasprintf("%s@%s", g[k].label,
							      first_line(g[k].host, a, sizeof(a)))
						  : xstrdup(g[k].label);
		if (nkernels > 1 && *g[k].kernel) {
			char *tag = kernel_tag(g[k].kernel, kernels, nkernels);
			char *name = xasprintf("%s@%s", g[k].name, tag);

			free(tag);
			free(g[k].name);
			g[k].name = name;
		}
	}
	for (size_t k = first; k < n; k++) {
		size_t same = 0, nth = 0;
		char *name;

		/* the names without a number, compared up to " (" */
		for (size_t j = first; j < n; j++) {
			size_t lj = strcspn(g[j].name, " "), lk = strcspn(g[k].name, " ");
			int alike = lj == lk && !strncmp(g[j].name, g[k].name, lk);

			same += alike;
			nth += alike && j <= k;
		}
		if (same < 2)
			continue;
		name = xasprintf("%s (%zu)", g[k].name, nth);
		free(g[k].name);
		g[k].name = name;
	}
}

/* One row per label, configuration and, where the label's runs come from
 * several machines or kernels, machine and kernel, with valid runs; labels
 * in the given order, a label's rows in the order they were first run. */
struct report_row *report_make_rows(const struct store *st, char **labels, size_t nlabels,
				    size_t *out)
{
	struct report_row *g = NULL;
	size_t n = 0;

	for (size_t l = 0; l < nlabels; l++) {
		size_t first = n, nhosts, nkernels;
		char **hosts = label_values(st, labels[l], report_host_of, &nhosts);
		char **kernels = label_values(st, labels[l], report_kernel_of, &nkernels);

		for (size_t i = 0; i < st->nruns; i++) {
			const struct run *u = &st->runs[i];
			int seen = 0;

			if (!u->valid || strcmp(u->label, labels[l]))
				continue;
			for (size_t k = first; k < n && !seen; k++)
				seen = report_row_has(&g[k], u);
			if (seen)
				continue;
			g = xreallocarray(g, n + 1, sizeof(*g));
			memset(&g[n], 0, sizeof(*g));
			g[n].label = labels[l];
			g[n].identity = u->workload;
			g[n].load_session = u->load_session;
			g[n].probe = u->probe_profile;
			memcpy(g[n].probe_work_ns, u->probe_work_ns, sizeof(g[n].probe_work_ns));
			g[n].host = nhosts > 1 ? report_host_of(u) : NULL;
			g[n].kernel = nkernels > 1 ? report_kernel_of(u) : NULL;
			n++;
		}
		name_rows(g, first, n, hosts, nhosts, kernels, nkernels);
		free(hosts);
		free(kernels);
	}
	for (size_t k = 0; k < n; k++) {
		char **seen = NULL;

		for (size_t i = 0; i < st->nruns; i++) {
			const struct run *u = &st->runs[i];

			if (!report_row_has(&g[k], u) ||
			    report_has(seen, g[k].nsessions, u->session))
				continue;
			seen = xreallocarray(seen, g[k].nsessions + 1, sizeof(*seen));
			seen[g[k].nsessions++] = u->session;
		}
		free(seen);
		for (size_t e = 0; e < st->nenvs; e++) {
			const char *label = record_get(&st->envs[e], "label");
			const char *session = record_get(&st->envs[e], "session");

			if (!label || !session || strcmp(label, g[k].label) ||
			    !has_session(st, &g[k], session))
				continue;
			g[k].envs = xreallocarray(g[k].envs, g[k].nenvs + 1, sizeof(*g[k].envs));
			g[k].envs[g[k].nenvs++] = &st->envs[e];
		}
	}
	*out = n;
	return g;
}

/* Whether arg names a row of label: "label@..." or "label (k)", as
 * name_rows() names a label's rows. */
int report_names_row_of(const char *arg, const char *label)
{
	size_t n = strlen(label);

	return !strncmp(arg, label, n) && (arg[n] == '@' || arg[n] == ' ');
}
