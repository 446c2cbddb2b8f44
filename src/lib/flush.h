/* SPDX-License-Identifier: GPL-2.0-or-later */
/* flush.h - empty the page cache before a timed run. */
#ifndef CONTEST_FLUSH_H
#define CONTEST_FLUSH_H

#include <stddef.h>

/* sync, then drop every clean cached page where permitted (root), else
 * posix_fadvise(DONTNEED) over every file below each directory in dirs
 * (NULL-terminated), on their own file systems.  Returns the method used:
 * "drop_caches" or "fadvise", or NULL with the reason in why when a directory
 * cannot be walked whole. */
const char *flush_caches(const char *const dirs[], char *why, size_t len);
/* The method flush_caches() would use here, without flushing anything. */
const char *flush_method(void);
/* A method as the environment record and the report name it: "fadvise"
 * empties only the pages of the files it walks, and says so. */
const char *flush_scope(const char *method);

#endif
