/* SPDX-License-Identifier: GPL-2.0-or-later */
/* root.c - the root prefix of every system path a campaign touches. */
#include "config.h"

#include <stdlib.h>

#include "campaign/root.h"
#include "lib/util.h"

const char *root_prefix(void)
{
	const char *r = getenv("CONTEST_ROOT");

	return r && *r ? r : "";
}

char *rooted(const char *path)
{
	return xasprintf("%s%s", root_prefix(), path);
}

int root_is_test(void)
{
	return root_prefix()[0] != '\0';
}
