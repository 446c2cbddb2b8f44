/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tar-tool.c - test driver: write an archive with src/lib/tar-write.c or
 * extract one with src/lib/tar-extract.c. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/tar.h"

struct count {
	uint64_t bytes;	/* reported through hooks->progress */
	uint64_t limit;	/* stop once this many were reported; 0: never */
};

static void count_progress(void *arg, uint64_t bytes)
{
	struct count *c = arg;

	c->bytes += bytes;
}

static int count_stop(void *arg)
{
	const struct count *c = arg;

	return c->limit && c->bytes >= c->limit;
}

static int usage(void)
{
	fprintf(stderr, "usage: tar-tool [-p] [-s BYTES] c DIR > ARCHIVE\n"
			"       tar-tool [-p] [-s BYTES] x DIR < ARCHIVE\n"
			"  -p        print the bytes reported as progress to stderr\n"
			"  -s BYTES  stop once BYTES were reported (exit status 3)\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct count c = { 0, 0 };
	struct tar_hooks hooks = { .progress = count_progress, .stop = count_stop, .arg = &c };
	int i = 1, print = 0, rc;
	char why[1024], *end;

	for (; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-p")) {
			print = 1;
		} else if (!strcmp(argv[i], "-s") && i + 1 < argc) {
			errno = 0;
			c.limit = strtoull(argv[++i], &end, 10);
			if (errno || end == argv[i] || *end || !c.limit)
				return usage();
		} else {
			return usage();
		}
	}
	if (argc - i != 2)
		return usage();
	if (!strcmp(argv[i], "c"))
		rc = tar_write(argv[i + 1], 1, &hooks, why, sizeof(why));
	else if (!strcmp(argv[i], "x"))
		rc = tar_extract(0, argv[i + 1], &hooks, why, sizeof(why));
	else
		return usage();
	if (print)
		fprintf(stderr, "progress %" PRIu64 "\n", c.bytes);
	if (rc > 0) {
		fprintf(stderr, "tar-tool: stopped\n");
		return 3;
	}
	if (rc < 0) {
		fprintf(stderr, "tar-tool: %s\n", why);
		return 1;
	}
	return 0;
}
