/* SPDX-License-Identifier: GPL-2.0-or-later */
/* runsummary.c - contest run --json-summary: what a suite did, as a file a
 * job runner reads without parsing text, and the exit status that says it. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run/runsummary.h"
#include "report/format.h"
#include "results/store.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/util.h"

static int of_session(const struct run *u, const struct run_outcome *o)
{
	return !strcmp(u->label, o->label) && !strcmp(u->session, o->session);
}

/* What the status says, in a word. */
static const char *status_word(int status)
{
	switch (status) {
	case EXIT_OK:
		return "ok";
	case EXIT_SOME_INVALID:
		return "some_invalid";
	case EXIT_ALL_INVALID:
		return "all_invalid";
	case EXIT_FAILED:
		return "failed";
	default:
		return status > EXIT_SIGNAL ? "interrupted" : "failed";
	}
}

static void write_summary(FILE *f, const struct run_outcome *o, const struct store *st,
			  int status, size_t valid, size_t invalid)
{
	const char *const names[] = { "schema", "contest_version", "label", "session", "results" };
	const char *const vals[] = { RUN_SUMMARY_SCHEMA, PACKAGE_VERSION, o->label, o->session,
				     o->results };
	int first = 1;

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		fprintf(f, "%s  \"%s\": ", i ? ",\n" : "{\n", names[i]);
		json_str(f, vals[i]);
	}
	fprintf(f, ",\n  \"status\": \"%s\",\n  \"exit_code\": %d,\n", status_word(status), status);
	fprintf(f, "  \"runs\": {\"valid\": %zu, \"invalid\": %zu},\n  \"run_types\": [", valid,
		invalid);
	for (size_t t = 0; t < o->ntypes; t++) {
		size_t v = 0, bad = 0;

		for (size_t i = 0; st && i < st->nruns; i++) {
			const struct run *u = &st->runs[i];

			if (of_session(u, o) && !strcmp(u->type, o->types[t]))
				*(u->valid ? &v : &bad) += 1;
		}
		fputs(t ? ",\n    {\"name\": " : "\n    {\"name\": ", f);
		json_str(f, o->types[t]);
		fprintf(f, ", \"valid\": %zu, \"invalid\": %zu}", v, bad);
	}
	fputs(o->ntypes ? "\n  ],\n  \"invalid\": [" : "],\n  \"invalid\": [", f);
	for (size_t i = 0; st && i < st->nruns; i++) {
		const struct run *u = &st->runs[i];

		if (!of_session(u, o) || u->valid)
			continue;
		fputs(first ? "\n    {\"run_type\": " : ",\n    {\"run_type\": ", f);
		first = 0;
		json_str(f, u->type);
		fprintf(f, ", \"round\": %d, \"reason\": ", u->round);
		json_str(f, u->reason);
		fputc('}', f);
	}
	fputs(first ? "]\n}\n" : "\n  ]\n}\n", f);
}

int run_summary_write(const char *path, const struct run_outcome *o)
{
	struct store st;
	int have = 0, status = o->status;
	size_t valid = 0, invalid = 0;
	char why[512], *text;
	size_t n;
	FILE *f;

	if (store_read(o->results, &st, why, sizeof(why)) == 0)
		have = 1;	/* nothing stored yet (a suite that failed early): no runs */
	for (size_t i = 0; have && i < st.nruns; i++)
		if (of_session(&st.runs[i], o))
			*(st.runs[i].valid ? &valid : &invalid) += 1;
	if (status == EXIT_OK && invalid)
		status = valid ? EXIT_SOME_INVALID : EXIT_ALL_INVALID;
	f = xopen_memstream(&text, &n);
	write_summary(f, o, have ? &st : NULL, status, valid, invalid);
	xclose_memstream(f);
	if (replace_file(path, text, n)) {
		msg("cannot write the summary %s: %s", path, strerror(errno));
		if (status < EXIT_SIGNAL)
			status = EXIT_FAILED;
	}
	free(text);
	if (have)
		store_free(&st);
	return status;
}
