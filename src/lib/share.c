/* SPDX-License-Identifier: GPL-2.0-or-later */
/* share.c - a kernel setting that contests running at once share.
 *
 * contest turns a setting on for a suite (kernel.task_delayacct) and puts
 * back the value it found at the end.  Two contests at once, each on its
 * own, clobber each other: the first finds 0 and sets 1, the second finds
 * 1; the first ends and puts 0 back while the second still measures.  So
 * they share it, through a lock file that holds the value the first user
 * found, and record locks on two of its bytes:
 *
 * - MUTEX, write-locked around a begin or an end (a few system calls);
 * - USERS, read-locked by every user for as long as it uses the setting.
 *
 * A begin that also gets USERS for writing has no other user: it stores
 * the setting's value in the file, unless the file already holds one (left
 * by a user that died without restoring it: a contest and its guardian
 * both SIGKILLed, whose value is the one to keep); then it sets the
 * setting and turns its lock into a read lock, atomically.  An end drops
 * its lock and tries USERS for writing, without waiting: granted, it is
 * the last user and writes the stored value back, then removes the file;
 * refused, another user will.  The guardian ends the share of a contest
 * that was SIGKILLed the same way.
 *
 * Process-associated record locks (F_SETLK), not open file description
 * ones: they are not inherited across fork, so a load or a build forked
 * from contest never holds contest's share, which ends with contest
 * however it ends.  (They go when their process closes any fd of the file:
 * a process opens it once at a time.) */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/fsutil.h"
#include "lib/share.h"
#include "lib/util.h"

enum { MUTEX, USERS };	/* the bytes locked */

/* Lock (F_RDLCK, F_WRLCK) or unlock (F_UNLCK) byte of fd without waiting:
 * 0, or -1 with errno (EAGAIN or EACCES when another process holds it). */
static int lock_byte(int fd, short type, off_t byte)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_start = byte, .l_len = 1 };
	int rc;

	while ((rc = fcntl(fd, F_SETLK, &fl)) < 0 && errno == EINTR)
		;
	return rc;
}

static int busy(int err)
{
	return err == EAGAIN || err == EACCES;
}

/* The lock file, opened (made when create) with MUTEX held: the file at
 * lock, not one that a last user removed meanwhile.  MUTEX is waited for up
 * to 10 s (a holder stopped by SIGSTOP makes this fail, not hang).  The fd,
 * or -1 with errno. */
static int open_locked(const char *lock, int create)
{
	int waits = 0;

	for (;;) {
		int fd = open(lock, O_RDWR | O_NOFOLLOW | O_CLOEXEC | (create ? O_CREAT : 0), 0600);
		struct stat a, b;
		int err = 0;

		if (fd < 0)
			return -1;
		while (lock_byte(fd, F_WRLCK, MUTEX) && busy(err = errno) && waits++ < 1000) {
			sleep_ns(10 * 1000 * 1000);
			err = 0;
		}
		if (!err && fstat(fd, &a))
			err = errno;
		if (!err && !S_ISREG(a.st_mode))
			err = EINVAL;
		if (err) {
			close(fd);
			errno = err;
			return -1;
		}
		if (stat(lock, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
			return fd;
		close(fd);	/* removed by a last user: open the new one */
	}
}

/* The value the first user found, "" when none: 0, or -1 with errno. */
static int stored(int fd, char *buf, size_t len)
{
	ssize_t n = pread(fd, buf, len - 1, 0);

	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int share_begin(const char *lock, const char *path, const char *value, char *why,
		size_t len)
{
	char orig[64] = "", now[64], line[80];
	int fd = open_locked(lock, 1), empty = 0, n;
	const char *bad = lock;	/* the file that failed */

	if (fd < 0)
		return whyf(why, len, "%s: %s", lock, strerror(errno));
	if (lock_byte(fd, F_WRLCK, USERS) == 0) {	/* no other user */
		if (stored(fd, orig, sizeof(orig)))
			goto fail;
		if ((empty = !orig[0])) {
			if (read_small(path, orig, sizeof(orig))) {
				bad = path;
				goto fail;
			}
			n = snprintf(line, sizeof(line), "%s\n", orig);
			errno = ENOSPC;	/* for a short write */
			if (pwrite(fd, line, (size_t)n, 0) != n)
				goto fail;
		}
	} else if (!busy(errno)) {
		goto fail;
	}
	if (read_small(path, now, sizeof(now)) || (strcmp(now, value) && write_small(path, value))) {
		bad = path;
		goto fail;
	}
	/* a write lock becomes a read lock; a reader's is granted: nobody
	 * write-locks USERS without MUTEX */
	if (lock_byte(fd, F_RDLCK, USERS)) {
		if (empty)	/* nobody else would restore it */
			(void)!write_small(path, orig);
		goto fail;
	}
	lock_byte(fd, F_UNLCK, MUTEX);
	return fd;
fail:
	whyf(why, len, "%s: %s", bad, strerror(errno));
	if (empty)	/* no value of a dead user in it either */
		unlink(lock);
	close(fd);
	return -1;
}

int share_end(int fd, const char *lock, const char *path, int tries)
{
	if (fd >= 0)
		close(fd);	/* this share ends: its lock goes */
	for (int i = 1;; i++) {
		char orig[64];
		int rc = 0, err = 0;

		if ((fd = open_locked(lock, 0)) < 0)
			return errno == ENOENT ? 0 : -1;	/* gone: restored */
		if (lock_byte(fd, F_WRLCK, USERS) == 0) {	/* the last user */
			if (stored(fd, orig, sizeof(orig)) || (orig[0] && write_small(path, orig)))
				rc = -1, err = errno;	/* the file keeps the value */
			else
				rc = orig[0] != '\0', unlink(lock);
		} else if (!busy(errno)) {
			rc = -1, err = errno;
		} else if (i < tries) {	/* a dead user's lock going, or a live user */
			close(fd);
			sleep_ns(100 * 1000 * 1000);
			continue;
		}
		close(fd);
		errno = err;
		return rc;
	}
}
