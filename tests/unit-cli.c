/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit-cli.c - option parsing: defaults, values, commands, errors. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "loads/registry.h"
#include "results/latency.h"
#include "tap.h"
#include "tests/commands.h"

/* The value given to a load's option, by its name. */
static uint64_t number(const struct config *cfg, const char *name)
{
	return load_value_of(cfg->load_values, name)->number;
}

/* Command lines cli_parse() refuses with 2, and what is wrong with each. */
static const struct {
	const char *line, *what;
} usage_errors[] = {
	{ "contest --bogus", "an unknown option" },
	{ "contest -n", "a missing value" },
	{ "contest -n 0", "zero runs" },
	{ "contest -n -3", "negative runs" },
	{ "contest -n 3x", "a number with junk" },
	{ "contest -n 99999999999999999999999", "a huge number" },
	{ "contest --io-size 12Q", "a bad size suffix" },
	{ "contest --load-nice 20", "nice out of range" },
	{ "contest report --quick", "a run option given to report" },
	{ "contest list --baseline x", "a report option given to list" },
	{ "contest -d x report", "an option before the command" },
	{ "contest -nauto -d x report", "a value glued to -n, then the command" },
};

/* Parse a command line given as one string of blank-separated words. */
static int parse(const char *line, struct config *cfg)
{
	static char *argv[64];
	static char buf[1024];
	int argc = 0;

	snprintf(buf, sizeof(buf), "%s", line);
	for (char *t = strtok(buf, " "); t && argc < 63; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	free(cfg->args);
	cfg->args = NULL;
	return cli_parse(argc, argv, test_commands, cfg);
}

int main(void)
{
	struct config c = { 0 };

	ok(parse("contest", &c) == 0 && c.cmd == CMD_RUN, "no arguments: run");
	ok(c.runs == 3 && !strcmp(c.results, "contest-results") &&
	   !strcmp(c.work_dir, "contest-work") && !strcmp(c.workload, "builtin") &&
	   c.label == NULL && !c.quick, "defaults: 3 runs, ./contest-results, ./contest-work, builtin");
	ok(parse("contest -k 2.6.0 -n 5 -d r --quick noload cacherun", &c) == 0 &&
	   !strcmp(c.label, "2.6.0") && c.runs == 5 && !strcmp(c.results, "r") && c.quick &&
	   c.nargs == 2 && !strcmp(c.args[0], "noload") && !strcmp(c.args[1], "cacherun"),
	   "contest's habits: -k -n -d and positional run types");
	ok(parse("contest noload -n 2 cacherun", &c) == 0 && c.runs == 2 && c.nargs == 2,
	   "options and run types mix in any order");
	ok(parse("contest run --label=x --runs=7", &c) == 0 && c.cmd == CMD_RUN &&
	   !strcmp(c.label, "x") && c.runs == 7, "long options with =");
	ok(parse("contest -r", &c) == 0 && c.cmd == CMD_REPORT, "-r is report");
	ok(parse("contest -d res -r 2.4.18", &c) == 0 && c.cmd == CMD_REPORT &&
	   !strcmp(c.results, "res") && c.nargs == 1, "-r anywhere, with labels");
	ok(parse("contest report --baseline ref a b", &c) == 0 && c.cmd == CMD_REPORT &&
	   !strcmp(c.baseline, "ref") && c.nargs == 2, "report --baseline and labels");
	ok(parse("contest list", &c) == 0 && c.cmd == CMD_LIST, "list");
	ok(parse("contest load process_load -t 2.5 --procs 6", &c) == 0 && c.cmd == CMD_LOAD &&
	   c.seconds == 2.5 && number(&c, "procs") == 6 && c.nargs == 1, "load NAME -t --procs");
	ok(parse("contest --io-size 64M --mem-size 1g --chunk-size 8K", &c) == 0 &&
	   number(&c, "io-size") == 64u << 20 && number(&c, "mem-size") == 1u << 30 &&
	   number(&c, "chunk-size") == 8192,
	   "sizes with suffixes");
	ok(parse("contest --load-nice -5", &c) == 0 && c.load_nice == -5, "a negative nice value");
	ok(parse("contest noload", &c) == 0 && c.probe == PROBE_LIGHT &&
	   parse("contest load process_load", &c) == 0 && c.probe == PROBE_LIGHT &&
	   parse("contest compare --vary load-nice=0,19", &c) == 0 && c.probe == PROBE_LIGHT,
	   "the light probe by default: run, load and compare");
	ok(parse("contest --probe noload", &c) == 0 && c.probe == PROBE_LIGHT && c.nargs == 1 &&
	   parse("contest --probe=full noload", &c) == 0 && c.probe == PROBE_FULL &&
	   parse("contest load process_load --probe=light", &c) == 0 && c.probe == PROBE_LIGHT,
	   "--probe, --probe=full, --probe=light");
	ok(parse("contest --probe=full --no-probe", &c) == 0 && c.probe == PROBE_NONE &&
	   parse("contest --no-probe --probe", &c) == 0 && c.probe == PROBE_LIGHT,
	   "--no-probe, the last one given wins");
	ok(parse("contest --probe=heavy", &c) == 2 && parse("contest --probe=", &c) == 2 &&
	   parse("contest --probe=none", &c) == 2, "--probe=heavy, empty or none: 2");
	ok(parse("contest report --no-latency", &c) == 0 && c.no_latency &&
	   parse("contest --no-latency", &c) == 2, "--no-latency: report's only");
	ok(parse("contest -- noload", &c) == 0 && c.nargs == 1, "-- ends the options");

	fprintf(stderr, "# the errors below are expected:\n");
	for (size_t i = 0; i < sizeof(usage_errors) / sizeof(usage_errors[0]); i++)
		ok(parse(usage_errors[i].line, &c) == 2, "%s: 2", usage_errors[i].what);
	ok(parse("contest -k report noload", &c) == 0 && c.cmd == CMD_RUN &&
	   !strcmp(c.label, "report") && c.nargs == 1, "-k's value that names a command is a value");
	ok(parse("contest --label report noload", &c) == 0 && c.cmd == CMD_RUN &&
	   !strcmp(c.label, "report"), "--label's value that names a command is a value");
	ok(parse("contest --label=x report", &c) == 2, "--label=x before the command: 2");
	ok(parse("contest -- report", &c) == 0 && c.cmd == CMD_RUN && c.nargs == 1,
	   "after --, report is a run type (refused later, by the suite)");
	ok(parse("contest reprot", &c) == 2, "a mistyped command: 2");
	ok(parse("contest noload", &c) == 0 && c.cmd == CMD_RUN, "a run type is no mistyped command");
	ok(parse("contest --scale 10001", &c) == 2 && parse("contest --scale 10000", &c) == 0,
	   "--scale: 1 to 10000, as the builtin generator makes");
	ok(parse("contest --quikc", &c) == 2 && parse("contest report --quikc", &c) == 2,
	   "a mistyped option: 2, with a suggestion or without");
	ok(parse("contest --work-dir / noload", &c) == 2 &&
	   parse("contest load process_load --work-dir /usr", &c) == 2 &&
	   parse("contest compare --vary load-nice=0,1 --work-dir /", &c) == 2,
	   "a work directory of the system's: 2, for run, load and compare");
	ok(parse("contest list --work-dir /", &c) == 0 && !strcmp(c.work_dir, "/"),
	   "list only reads it: / is fine");
	free(c.args);
	return tap_done();
}
