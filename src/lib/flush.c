/* SPDX-License-Identifier: GPL-2.0-or-later */
/* flush.c - empty the page cache before a timed run. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "lib/flush.h"
#include "lib/fsutil.h"
#include "lib/util.h"

static int drop_file(int fd, void *arg)
{
	(void)arg;
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return 0;
}

#define DROP_CACHES "/proc/sys/vm/drop_caches"

const char *flush_method(void)
{
	return access(DROP_CACHES, W_OK) == 0 ? "drop_caches" : "fadvise";
}

const char *flush_scope(const char *method)
{
	return !strcmp(method, "fadvise") ? "fadvise (partial: the tree and work files only)"
					  : method;
}

const char *flush_caches(const char *const dirs[], char *why, size_t len)
{
	sync();
	if (write_small(DROP_CACHES, "3\n") == 0)
		return "drop_caches";
	for (size_t i = 0; dirs[i]; i++)
		if (walk_files(dirs[i], drop_file, NULL)) {
			whyf(why, len, "cannot flush the caches of %s: %s", dirs[i],
			     strerror(errno));
			return NULL;
		}
	return "fadvise";
}
