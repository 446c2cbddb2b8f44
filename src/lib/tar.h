/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tar.h - a streaming POSIX ustar/pax archive writer and extractor. */
#ifndef CONTEST_TAR_H
#define CONTEST_TAR_H

#include <stddef.h>
#include <stdint.h>

/* Hooks for a caller that must count its work and stop early; all optional. */
struct tar_hooks {
	/* bytes of archive written (tar_write) or consumed (tar_extract) since
	 * the last call */
	void (*progress)(void *arg, uint64_t bytes);
	/* nonzero: stop as soon as possible */
	int (*stop)(void *arg);
	/* tar_extract: a regular file's data is written, fd still open (may
	 * be NULL) */
	void (*file_written)(void *arg, int fd);
	void *arg;
};

/* Write an archive of the contents of directory `src` to `fd`, each
 * directory in the order readdir() returns it (GNU tar's --sort=none): member
 * names relative to src, regular files, directories, symlinks (not
 * followed), modes, mtimes, uid/gid and names; ustar headers, with pax
 * extended headers where a name, link target or size does not fit.
 * Returns 0 when done, 1 when stopped by hooks->stop, -1 on error with the
 * reason in why (e.g. "write: No space left on device"). */
int tar_write(const char *src, int fd, const struct tar_hooks *hooks,
	      char *why, size_t len);

/* Extract the archive read from `fd` into the existing directory `dest`.
 * Understands what tar_write writes and what GNU tar writes by default
 * (ustar, pax, GNU long names).  Never writes outside dest: absolute names
 * and names with ".." are refused, and symlinks are not followed.  Run as
 * root it restores each member's owner and group as GNU tar does (its
 * --same-owner, the default for root): fchown() of a file and a directory,
 * fchownat() of a symlink, by name where the name is known here, else by
 * number.  Same returns as tar_write. */
int tar_extract(int fd, const char *dest, const struct tar_hooks *hooks,
		char *why, size_t len);

#endif
