/* SPDX-License-Identifier: GPL-2.0-or-later */
/* commands.h - the command table of src/cli/main.c for the tests that parse
 * a command line (unit-cli, unit-loads, fuzz/fuzz-cli): the same names and
 * ids, each with a function that does nothing. */
#ifndef CONTEST_TESTS_COMMANDS_H
#define CONTEST_TESTS_COMMANDS_H

#include "cli/cli.h"

static int no_command(struct config *cfg)
{
	(void)cfg;
	return 0;
}

static const struct command test_commands[] = {
	{ "run", CMD_RUN, no_command, "[options] [RUNTYPE...]", "run" },
	{ "compare", CMD_COMPARE, no_command, "[run options] [RUNTYPE...]", "compare" },
	{ "campaign", CMD_CAMPAIGN, no_command, "plan|start|resume|status|abort", "campaign" },
	{ "report", CMD_REPORT, no_command, "[options] [LABEL...]", "report" },
	{ "plot", CMD_PLOT, no_command, "[options] [LABEL...]", "plot" },
	{ "merge", CMD_MERGE, no_command, "SRC... DEST", "merge" },
	{ "relabel", CMD_RELABEL, no_command, "OLD NEW", "relabel" },
	{ "load", CMD_LOAD, no_command, "NAME [-t SECONDS] [options]", "load" },
	{ "list", CMD_LIST, no_command, "[load options]", "list" },
	{ "env", CMD_ENV, no_command, "[--work-dir DIR]", "env" },
	{ NULL, 0, NULL, NULL, NULL },
};

#endif
