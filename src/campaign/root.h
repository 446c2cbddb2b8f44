/* SPDX-License-Identifier: GPL-2.0-or-later */
/* root.h - the root prefix: every system path a campaign reads or writes
 * (/var/lib/contest, /proc, /sys, /etc/systemd, /boot) under $CONTEST_ROOT,
 * read by the test build only (tests/contest-hooked); with it set, nothing is booted for real (kexec, grub and
 * sdboot write what they would do to the campaign's boot.log). */
#ifndef CONTEST_CAMPAIGN_ROOT_H
#define CONTEST_CAMPAIGN_ROOT_H

/* $CONTEST_ROOT, or "" */
const char *root_prefix(void);
/* path under the root prefix; the caller frees it */
char *rooted(const char *path);
/* 1 when a root prefix is set: a test, where nothing may really boot */
int root_is_test(void);

#endif
