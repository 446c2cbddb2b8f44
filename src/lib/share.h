/* SPDX-License-Identifier: GPL-2.0-or-later */
/* share.h - a kernel setting that contests running at once share: the first
 * to need it sets it, the last to finish restores the value the first found. */
#ifndef CONTEST_SHARE_H
#define CONTEST_SHARE_H

#include <stddef.h>

/* Hold the setting at path (a /proc/sys file) at value, shared with every
 * other contest that does the same through the lock file at lock (made 0600
 * when missing).  The share's fd, for share_end(), or -1 with the reason in
 * why. */
int share_begin(const char *lock, const char *path, const char *value, char *why,
		size_t len);
/* Give a share up: the last user writes back the value the first found
 * and removes the lock file.  fd: this process's share (closed here), or
 * -1 for the share of a process that died (the guardian's case): then up
 * to tries attempts 100 ms apart, while the dead one's locks go.  1 when it
 * restored the setting, 0 when another user still holds it (or nothing was
 * left to restore), -1 with errno when it could not. */
int share_end(int fd, const char *lock, const char *path, int tries);

#endif
