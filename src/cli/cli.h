/* SPDX-License-Identifier: GPL-2.0-or-later */
/* cli.h - the command line: commands, options declared once, parsing, help. */
#ifndef CONTEST_CLI_H
#define CONTEST_CLI_H

#include <stdint.h>
#include <stdio.h>

#include "run/options.h"

/* A subcommand: main.c keeps the table, cli.c prints it in --help. */
struct command {
	const char *name;
	enum cmd id;
	int (*fn)(struct config *cfg);
	const char *usage;   /* after "contest NAME " */
	const char *summary;
};

/* Parse argv into cfg.  Returns -1 when the command line asked for --help or
 * --version (already printed), EXIT_USAGE on a usage error (message on
 * stderr), 0 to go on. */
int cli_parse(int argc, char **argv, const struct command *cmds, struct config *cfg);
void cli_help(FILE *f, const struct command *cmds);
/* Whether the options are sound, checked once at start-up: every load's
 * (load_registry_check()), and no two options of one name once the loads'
 * join contest's own.  0, or -1 with the fault in why. */
int cli_check(char *why, size_t len);

#endif
