/* SPDX-License-Identifier: GPL-2.0-or-later */
/* runsummary.h - contest run --json-summary: what a suite did, as a file a
 * job runner reads without parsing text, and the exit status that says it. */
#ifndef CONTEST_RUNSUMMARY_H
#define CONTEST_RUNSUMMARY_H

#include <stddef.h>

/* The version of the file's layout (docs/formats.md). */
#define RUN_SUMMARY_SCHEMA "contest-run-summary/1"

struct run_outcome {
	const char *label;
	const char *session;
	const char *results;          /* the results directory */
	const char *const *types;     /* the run types of the suite, in order */
	size_t ntypes;
	int status;                   /* the suite's exit status so far */
};

/* Read the session's runs back from the store, write path (path.tmp, then
 * renamed) and return the exit status: o->status, or for a suite that ran
 * (status EXIT_OK) EXIT_SOME_INVALID or EXIT_ALL_INVALID when runs were
 * invalid; EXIT_FAILED when path cannot be written (said on stderr). */
int run_summary_write(const char *path, const struct run_outcome *o);

#endif
