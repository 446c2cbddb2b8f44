/* flush.c - empty the page cache before a timed run. */
#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "flush.h"
#include "fsutil.h"

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

const char *flush_caches(const char *const dirs[])
{
	int fd;

	sync();
	fd = open(DROP_CACHES, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		int ok = write(fd, "3\n", 2) == 2;

		close(fd);
		if (ok)
			return "drop_caches";
	}
	for (size_t i = 0; dirs[i]; i++)
		walk_files(dirs[i], drop_file, NULL);
	return "fadvise";
}
