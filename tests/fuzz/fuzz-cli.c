/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fuzz-cli.c - libFuzzer harness: cli_parse on any command line. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "loads/registry.h"
#include "fuzz.h"
#include "tests/commands.h"

#define MAX_WORDS 256

static int is_word(char **argv, int argc, const char *p)
{
	for (int i = 1; i < argc; i++)
		if (argv[i] == p)
			return 1;
	return 0;
}

/* What the option table promises once cli_parse returns 0. */
static void check_config(const struct config *c, int argc, char **argv)
{
	int known = 0;

	for (const struct command *k = test_commands; k->name; k++)
		known |= c->cmd == k->id;
	FUZZ_ASSERT(known);
	FUZZ_ASSERT(c->argc == argc && c->argv == argv);
	FUZZ_ASSERT(c->nargs >= 0 && c->nargs < argc);
	for (int i = 0; i < c->nargs; i++)
		FUZZ_ASSERT(is_word(argv, argc, c->args[i]));
	FUZZ_ASSERT(c->runs >= 1 && c->runs <= 1000);
	FUZZ_ASSERT(c->scale <= 100000 && c->jobs <= 4096);
	FUZZ_ASSERT(c->lead_time == -1 || (c->lead_time >= 0 && c->lead_time <= 3600));
	FUZZ_ASSERT(c->seconds >= 0.1 && c->seconds <= 86400);
	FUZZ_ASSERT(c->load_nice >= -20 && c->load_nice <= 19);
	/* the loads' numbers: not given, or within the range each declares */
	for (size_t s = 0; s < load_option_count(); s++) {
		const struct load_option *o = load_option_at(s);
		uint64_t v = c->load_values[s].number;

		if (o->type == LOAD_OPT_WHOLE || o->type == LOAD_OPT_SIZE)
			FUZZ_ASSERT(v == 0 || (v >= o->min && v <= o->max));
	}
	FUZZ_ASSERT(c->results && c->work_dir && c->workload);
}

/* The input is the command line after "contest", one word per line or per
 * NUL-terminated string. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *argv[MAX_WORDS + 2];
	char name[] = "contest";
	struct config cfg;
	int argc = 0, rc;

	if (!buf)
		abort();
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = name;
	for (char *p = buf; p < buf + size && argc <= MAX_WORDS; ) {
		size_t n = strcspn(p, "\n");

		p[n] = '\0';
		argv[argc++] = p;
		p += n + 1;
	}
	argv[argc] = NULL;

	rc = cli_parse(argc, argv, test_commands, &cfg);
	FUZZ_ASSERT(rc == -1 || rc == 0 || rc == 2);
	if (rc == 0)
		check_config(&cfg, argc, argv);
	free(cfg.args);
	free(buf);
	return 0;
}
