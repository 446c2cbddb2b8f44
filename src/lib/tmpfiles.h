/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tmpfiles.h - whether a directory survives the next boot. */
#ifndef CONTEST_TMPFILES_H
#define CONTEST_TMPFILES_H

#include <stddef.h>

/* Whether what is stored in dir (an absolute path) is lost at or after the
 * next boot: dir is in memory (tmpfs, ramfs), or a rule of tmpfiles.d(5)
 * covers dir or a parent of it (D, Q, R, r: removed at boot; d, D, e, q, Q,
 * v with an age: deleted when unused that long), or it is under /tmp
 * (emptied at boot by most systems, with or without systemd).  1 with the
 * reason and the rule's file and line in why, else 0.  root prefixes the
 * tmpfiles.d directories (a test's; NULL or "" for the system's). */
int dir_lost_at_boot(const char *dir, const char *root, char *why, size_t len);

#endif
