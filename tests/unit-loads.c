/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit-loads.c - the registry walked: every load_ops sound, and every
 * load's options on the command line, in --help and in the load's own
 * option struct. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "loads/registry.h"
#include "tap.h"
#include "tests/commands.h"

/* contest list --NAME [VALUE] into cfg: cli_parse's answer. */
static int parse_option(const char *name, const char *value, struct config *cfg)
{
	static char prog[] = "contest", cmd[] = "list", word[64], val[64];
	char *argv[] = { prog, cmd, word, val, NULL };

	snprintf(word, sizeof(word), "--%s", name);
	snprintf(val, sizeof(val), "%s", value ? value : "");
	free(cfg->args);
	cfg->args = NULL;
	return cli_parse(value ? 4 : 3, argv, test_commands, cfg);
}

/* The option's value in a load's option struct filled from cfg equals the
 * one given (number, or text; a flag is 1). */
static int lands(const struct load_ops *ops, const struct load_option *o,
		 const struct config *cfg, uint64_t number, const char *text)
{
	char *opts = calloc(1, ops->option_struct_size);
	uint64_t u;
	const char *s;
	int i, same = 0;

	load_options_fill(ops, cfg->load_values, opts);
	switch (o->type) {
	case LOAD_OPT_WHOLE:
	case LOAD_OPT_SIZE:
		memcpy(&u, opts + o->offset, sizeof(u));
		same = u == number;
		break;
	case LOAD_OPT_STRING:
		memcpy(&s, opts + o->offset, sizeof(s));
		same = s && !strcmp(s, text);
		break;
	case LOAD_OPT_FLAG:
		memcpy(&i, opts + o->offset, sizeof(i));
		same = i == 1;
		break;
	}
	free(opts);
	return same;
}

/* Whether contest's --help has a line for --name that names ops. */
static int in_help(const struct load_ops *ops, const char *name)
{
	char *text = NULL, want[64], line[512];
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int found = 0;

	cli_help(f, test_commands);
	fclose(f);
	snprintf(want, sizeof(want), "--%s ", name);
	for (char *p = text, *nl; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		snprintf(line, sizeof(line), "%.*s", (int)(nl ? nl - p : (long)strlen(p)), p);
		found |= strstr(line, want) && strstr(line, ops->name);
	}
	free(text);
	return found;
}

int main(void)
{
	struct config c = { 0 };
	char why[256] = "";
	size_t nloads = 0, noptions = 0;

	ok(load_registry_check(why, sizeof(why)) == 0, "the registry is sound%s%s",
	   why[0] ? ": " : "", why);
	ok(cli_check(why, sizeof(why)) == 0, "the command line made with the loads' options "
	   "is sound%s%s", why[0] ? ": " : "", why);
	for (size_t i = 0; load_registry[i]; i++) {
		const struct load_ops *ops = load_registry[i];

		nloads++;
		ok(ops->name && ops->summary && ops->unit && ops->run && load_find(ops->name) == ops,
		   "%s: a name load_find() finds, a summary, a unit and run()", ops->name);
		for (const struct load_option *o = ops->options; o && o->name; o++) {
			size_t slot = load_option_slot(o->name);
			char value[32] = "x";
			uint64_t number = 0;

			noptions++;
			ok(slot < load_option_count() && !strcmp(load_option_at(slot)->name, o->name),
			   "%s --%s: a slot of its own", ops->name, o->name);
			ok(in_help(ops, o->name), "%s --%s: in --help, on a line naming %s", ops->name,
			   o->name, ops->name);
			if (o->type == LOAD_OPT_WHOLE || o->type == LOAD_OPT_SIZE) {
				number = (uint64_t)o->max;
				snprintf(value, sizeof(value), "%ju", (uintmax_t)number);
			}
			ok(parse_option(o->name, o->type == LOAD_OPT_FLAG ? NULL : value, &c) == 0 &&
			   lands(ops, o, &c, number, value),
			   "%s --%s %s: parsed into its option struct", ops->name, o->name,
			   o->type == LOAD_OPT_FLAG ? "" : value);
			if (o->type == LOAD_OPT_WHOLE || o->type == LOAD_OPT_SIZE) {
				fprintf(stderr, "# the error below is expected:\n");
				snprintf(value, sizeof(value), "%ju", (uintmax_t)o->max + 1);
				ok(parse_option(o->name, value, &c) == 2,
				   "%s --%s %s: beyond its range, refused", ops->name, o->name, value);
			}
		}
	}
	ok(nloads >= 8 && noptions >= 6, "the walk met %zu loads and %zu options", nloads,
	   noptions);
	ok(load_value_of(c.load_values, "no-such-option") == NULL &&
	   load_option_slot("no-such-option") == load_option_count(),
	   "no load has --no-such-option");
	free(c.args);
	return tap_done();
}
