/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fsutil.h - file-system helpers: whole writes, small reads, safe removal. */
#ifndef CONTEST_FSUTIL_H
#define CONTEST_FSUTIL_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

/* write() until done; -1 with errno on failure. */
int write_all(int fd, const void *buf, size_t len);
/* Write text to the existing file at path (a /proc or /sys knob): open,
 * write it whole, close.  0, or -1 with errno. */
int write_small(const char *path, const char *text);
/* Replace the file at path with len bytes of data, atomically: they are
 * written to a new file (mkstemp) in path's directory, synced, then renamed
 * over path, so that a reader sees the old file or the new one whole, and a
 * symlink planted there is replaced, never followed.  0, or -1 with errno. */
int replace_file(const char *path, const void *data, size_t len);
/* Read a small file (from /proc, /sys) into buf, NUL-terminated, trailing
 * newline removed; -1 when it cannot be read. */
int read_small(const char *path, char *buf, size_t len);
/* The number after `key` and ':' or ' ' on a line of path (/proc/meminfo,
 * /proc/vmstat); -1 when the file or the key is not there. */
int proc_field_u64(const char *path, const char *key, uint64_t *out);
/* The value in kB of `key` in /proc/meminfo, in bytes; 0 when absent. */
uint64_t meminfo_bytes(const char *key);
/* MemTotal and MemAvailable as this process can use them: bounded by the
 * smallest memory cgroup limit over it (v2 memory.max, v1
 * memory.limit_in_bytes, its own group's or an ancestor's), and by the room
 * left under that limit (limit - usage).  0 when /proc/meminfo lacks it. */
uint64_t mem_total_bytes(void);
uint64_t mem_available_bytes(void);
/* Bytes available to unprivileged users on the file system that holds path
 * (or would hold it: a path that does not exist yet is looked up through its
 * nearest existing parent). */
int fs_free_bytes(const char *path, uint64_t *out);
/* Whether path (or its nearest existing parent) is on a tmpfs or ramfs: in
 * memory, gone after a reboot. */
int fs_in_memory(const char *path);
/* path from /: the part of it that exists resolved (realpath), the rest
 * appended as given; the caller frees it. */
char *fs_absolute(const char *path);

/* Whether path names, or would name once made, a directory of the system
 * rather than one of its own: the root directory, one right under it
 * (/home, /usr, /tmp, /newdir) or a mount point (the root of a file system,
 * or a bind mount).  1 with what it is in why ("the root directory";
 * "/tmp, right under..." when path is not written so), else 0. */
int fs_system_dir(const char *path, char *why, size_t len);

/* Remove path and everything below it, never following a symlink: entries
 * are opened relative to their parent with O_NOFOLLOW, and other mounts are
 * not entered.  Missing path is success.  -1 with errno on failure. */
int remove_tree(const char *path);
/* The same for the entry name of the directory open as dfd (AT_FDCWD: the
 * working directory), name itself never followed either. */
int remove_tree_at(int dfd, const char *name);
/* mkdtemp(3) under the directory open as dfd: name ends in XXXXXX, which
 * becomes six random letters and digits of a new directory of mode 0700.
 * 0, or -1 with errno. */
int mkdtemp_at(int dfd, char *name);

/* Whether only root and this process's user can change what path names: 0 when
 * "/" and every directory on the way to path (path itself included, as far as
 * it exists) belongs to one of them and no other user can write it (but for a
 * sticky one, as /tmp, where others can only add entries), and every symlink
 * on the way belongs to one of them too; the path as given and as resolved are
 * both checked.  Otherwise -1 with the reason in why, naming the directory and
 * the reason ("/tmp/x is writable by every user and not sticky (mode 777)").
 * What contest writes as root below such a path cannot be steered elsewhere by
 * another user. */
int fs_check_owned(const char *path, char *why, size_t len);

/* Call fn for every regular file below dir with an fd open for reading;
 * symlinks are not followed and other mounts are not entered.  Returns the
 * first nonzero fn result, or -1 with errno when dir or anything below it
 * cannot be read (an entry removed meanwhile is skipped). */
int walk_files(const char *dir, int (*fn)(int fd, void *arg), void *arg);

/* What a copy of the tree dir takes, for a check of the free space before
 * it is made (symlinks not followed, other mounts not entered): *archive,
 * the bytes of a tar archive of it (a 512-byte header a member, its data
 * in 512-byte blocks, records of 10 KiB; pax headers not counted), and
 * *disk, the bytes its files take on their disk (du).  0, or -1 with
 * errno. */
int fs_tree_size(const char *dir, uint64_t *archive, uint64_t *disk);

/* The last `lines` lines of the file at path on f, each indented by four
 * spaces; nothing when it cannot be read. */
void log_tail(const char *path, int lines, FILE *f);

/* One contest per directory: flock DIR/contest.lock, which names its pid;
 * what names the directory in messages ("results directory").  The lock
 * dies with its holder and every process that shares the fd (the
 * guardian); a pid left in the file by a dead contest is reported and
 * replaced.  Returns the fd, or -1 with the reason printed. */
int lock_dir(const char *dir, const char *what);
/* Give the lock up (fd -1 after): the file is removed while still held. */
void unlock_dir(const char *dir, int *fd);
/* The same for one lock file at path: about says what its holder does
 * ("using the results directory DIR"), hint what to do about it. */
int lock_file(const char *path, const char *about, const char *hint);
void unlock_file(const char *path, int *fd);

#endif
