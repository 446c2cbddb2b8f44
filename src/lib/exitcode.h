/* SPDX-License-Identifier: GPL-2.0-or-later */
/* exitcode.h - contest's exit statuses, each with what it means; contest(1)
 * EXIT STATUS lists them for users. */
#ifndef CONTEST_EXITCODE_H
#define CONTEST_EXITCODE_H

enum exit_code {
	EXIT_OK = 0,		/* done; a suite also with invalid runs, but with
				 * --json-summary */
	EXIT_FAILED = 1,	/* something failed; the reason is on stderr */
	EXIT_USAGE = 2,		/* a bad command line */
	EXIT_SOME_INVALID = 3,	/* --json-summary: some runs of the suite invalid */
	EXIT_ALL_INVALID = 4,	/* --json-summary: every run invalid */
	EXIT_SIGNAL = 128,	/* plus N: stopped by signal N */
};

#endif
