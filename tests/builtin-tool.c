/* SPDX-License-Identifier: GPL-2.0-or-later */
/* builtin-tool.c - test driver: write the built-in workload's tree with src/workload/builtin.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload/builtin.h"

int main(int argc, char **argv)
{
	char why[512], *end;
	unsigned long scale;

	if (argc != 3) {
		fprintf(stderr, "usage: builtin-tool DIR SCALE|default|quick\n");
		return 2;
	}
	errno = 0;
	scale = strtoul(argv[2], &end, 10);
	if (end == argv[2] || *end || errno || scale > 100000) {
		if (!strcmp(argv[2], "default") || !strcmp(argv[2], "quick"))
			scale = builtin_scale(argv[2][0] == 'q');
		else {
			fprintf(stderr, "builtin-tool: bad scale '%s'\n", argv[2]);
			return 2;
		}
	}
	if (builtin_generate(argv[1], (unsigned)scale, why, sizeof(why))) {
		fprintf(stderr, "builtin-tool: %s\n", why);
		return 1;
	}
	printf("%lu\n", scale);
	return 0;
}
