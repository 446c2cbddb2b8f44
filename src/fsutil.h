/* fsutil.h - file-system helpers: whole writes, small reads, safe removal. */
#ifndef CONTEST_FSUTIL_H
#define CONTEST_FSUTIL_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

/* write() until done; -1 with errno on failure. */
int write_all(int fd, const void *buf, size_t len);
/* Read a small file (from /proc, /sys) into buf, NUL-terminated, trailing
 * newline removed; -1 when it cannot be read. */
int read_small(const char *path, char *buf, size_t len);
/* The number after `key` and ':' or ' ' on a line of path (/proc/meminfo,
 * /proc/vmstat); -1 when the file or the key is not there. */
int proc_field_u64(const char *path, const char *key, uint64_t *out);
/* The value in kB of `key` in /proc/meminfo, in bytes; 0 when absent. */
uint64_t meminfo_bytes(const char *key);
/* Bytes available to unprivileged users on the file system that holds path
 * (or would hold it: a path that does not exist yet is looked up through its
 * nearest existing parent). */
int fs_free_bytes(const char *path, uint64_t *out);

/* Remove path and everything below it, never following a symlink: entries
 * are opened relative to their parent with O_NOFOLLOW, and other mounts are
 * not entered.  Missing path is success.  -1 with errno on failure. */
int remove_tree(const char *path);

/* Call fn for every regular file below dir (symlinks not followed) with an
 * fd open for reading.  Returns the first nonzero fn result, or -1. */
int walk_files(const char *dir, int (*fn)(int fd, void *arg), void *arg);

/* The last `lines` lines of the file at path on f, each indented by four
 * spaces; nothing when it cannot be read. */
void log_tail(const char *path, int lines, FILE *f);

#endif
