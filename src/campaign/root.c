/* SPDX-License-Identifier: GPL-2.0-or-later */
/* root.c - the root prefix of every system path a campaign touches. */
#include "config.h"

#include <stdlib.h>

#include "campaign/root.h"
#include "lib/util.h"

/* Only the test build (tests/contest-hooked) reads it: the shipped binary,
 * run as root, never lets its environment move the system's paths. */
const char *root_prefix(void)
{
#ifdef CONTEST_TEST_HOOKS
	const char *r = getenv("CONTEST_ROOT");

	return r && *r ? r : "";
#else
	return "";
#endif
}

char *rooted(const char *path)
{
	return xasprintf("%s%s", root_prefix(), path);
}

int root_is_test(void)
{
	return root_prefix()[0] != '\0';
}
