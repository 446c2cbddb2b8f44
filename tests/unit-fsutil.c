/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit-fsutil.c - remove_tree and walk_files against a tree that changes
 * under them and a mount inside it; size products past SIZE_MAX; which
 * directories are the system's (fs_system_dir).
 *
 * This program defines fstatat() itself, so the library's calls come here:
 * it answers with statx (the real thing) and, for the names the test arms,
 * does what a racing process would do between that fstatat and the next
 * step, or fails as a broken disk would. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/fsutil.h"
#include "tap.h"
#include "lib/util.h"

static const char *swap_name;	/* replaced by a symlink to swap_target */
static const char *swap_target;
static const char *eio_name;	/* fstatat fails with EIO */

int fstatat(int dfd, const char *name, struct stat *st, int flags)
{
	struct statx x;
	int rc;

	if (eio_name && !strcmp(name, eio_name)) {
		errno = EIO;
		return -1;
	}
	rc = statx(dfd, name, flags, STATX_BASIC_STATS, &x);
	if (rc)
		return rc;
	memset(st, 0, sizeof(*st));
	st->st_mode = x.stx_mode;
	st->st_uid = x.stx_uid;
	st->st_gid = x.stx_gid;
	st->st_ino = x.stx_ino;
	st->st_nlink = x.stx_nlink;
	st->st_size = (off_t)x.stx_size;
	st->st_dev = makedev(x.stx_dev_major, x.stx_dev_minor);
	if (swap_name && !strcmp(name, swap_name)) {
		char moved[64];

		snprintf(moved, sizeof(moved), "%s.moved", name);
		if (renameat(dfd, name, dfd, moved) || symlinkat(swap_target, dfd, name))
			perror("# swapping in the symlink");
		swap_name = NULL;
	}
	return 0;
}

static char scratch[200];

static void put(const char *rel, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", scratch, rel);
	f = fopen(path, "w");
	if (!f || fputs(text, f) < 0 || fclose(f))
		perror(path);
}

static mode_t mode_of(const char *rel)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", scratch, rel);
	return lstat(path, &st) ? (mode_t)-1 : st.st_mode & 07777;
}

static void dir(const char *rel, mode_t mode)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", scratch, rel);
	if (mkdir(path, 0700) || chmod(path, mode))
		perror(path);
}

static void test_chmod_not_through_symlink(void)
{
	char path[512], target[256];

	dir("outside", 0500);	/* a directory that is not contest's */
	dir("tree", 0700);
	dir("tree/ro", 0500);	/* read-only: remove_tree must chmod it */
	snprintf(target, sizeof(target), "%s/outside", scratch);
	swap_name = "ro";
	swap_target = target;
	snprintf(path, sizeof(path), "%s/tree", scratch);
	remove_tree(path);	/* may fail: the tree changed under it */
	ok(swap_name == NULL, "the directory was swapped for a symlink after its fstatat");
	ok(mode_of("outside") == 0500,
	   "remove_tree did not chmod what the symlink points to (mode %o)",
	   (unsigned)mode_of("outside"));
	ok(mode_of("outside") != (mode_t)-1, "nor removed it");
	swap_name = NULL;
}

static int count(int fd, void *arg)
{
	(void)fd;
	++*(int *)arg;
	return 0;
}

static void test_walk_errors(void)
{
	char path[512];
	int n = 0, rc;

	dir("walk", 0700);
	dir("walk/sub", 0700);
	put("walk/a", "a");
	put("walk/sub/b", "b");
	snprintf(path, sizeof(path), "%s/walk", scratch);
	rc = walk_files(path, count, &n);
	ok(rc == 0 && n == 2, "walk_files visits both files (rc %d, %d files)", rc, n);

	eio_name = "sub";
	n = 0;
	errno = 0;
	rc = walk_files(path, count, &n);
	ok(rc == -1 && errno == EIO, "an entry it cannot stat fails the walk with its errno "
	   "(rc %d, %s)", rc, strerror(errno));
	eio_name = NULL;

	if (geteuid() != 0) {
		ok(1, "# SKIP mounting needs root");
		return;
	}
	dir("walk/mnt", 0700);
	snprintf(path, sizeof(path), "%s/walk/mnt", scratch);
	if (mount("unit-fsutil", path, "tmpfs", 0, "size=1m")) {
		ok(1, "# SKIP cannot mount a tmpfs here: %s", strerror(errno));
		return;
	}
	put("walk/mnt/c", "c");
	n = 0;
	snprintf(path, sizeof(path), "%s/walk", scratch);
	rc = walk_files(path, count, &n);
	ok(rc == 0 && n == 2, "walk_files does not enter another mount (rc %d, %d files)", rc, n);
	snprintf(path, sizeof(path), "%s/walk/mnt", scratch);
	if (umount(path))
		perror(path);
}

/* Is path the system's (fs_system_dir), and with what words? */
static int system_dir(const char *path, const char *want)
{
	char why[PATH_MAX + 128] = "";

	if (!fs_system_dir(path, why, sizeof(why)))
		return !want;
	if (!want || strncmp(why, want, strlen(want)))
		printf("#   %s: '%s'\n", path, why);
	return want && !strncmp(why, want, strlen(want));
}

static void test_system_dir(void)
{
	char path[PATH_MAX], deep[PATH_MAX + 16];

	ok(system_dir("/", "the root directory"), "fs_system_dir: / is the root directory");
	ok(system_dir("//", "the root directory"), "and so is //");
	ok(system_dir("/usr", "right under the root directory"), "/usr is right under it");
	ok(system_dir("/usr/", "/usr, right under the root directory"),
	   "/usr/ too, named as resolved");
	ok(system_dir("/contest-unit-none", "right under the root directory"),
	   "so is a directory to be made there");
	ok(system_dir(scratch, NULL), "a directory of its own is not the system's (%s)", scratch);
	snprintf(deep, sizeof(deep), "%s/a/b", scratch);
	ok(system_dir(deep, NULL), "nor one to be made below it");
	dir("mnt", 0700);
	snprintf(path, sizeof(path), "%s/mnt", scratch);
	ok(system_dir(path, NULL), "nor a directory that is no mount point yet");
	if (geteuid() != 0) {
		ok(1, "# SKIP mounting needs root");
		ok(1, "# SKIP mounting needs root");
		return;
	}
	if (mount("unit-fsutil", path, "tmpfs", 0, "size=1m")) {
		ok(1, "# SKIP cannot mount a tmpfs here: %s", strerror(errno));
	} else {
		ok(system_dir(path, "a mount point"), "a tmpfs mounted there is a mount point");
		if (umount(path))
			perror(path);
	}
	if (mount(path, path, NULL, MS_BIND, NULL)) {
		ok(1, "# SKIP cannot bind-mount here: %s", strerror(errno));
	} else {
		ok(system_dir(path, "a mount point"), "and so is a bind mount of it onto itself, "
		   "on the same file system");
		if (umount(path))
			perror(path);
	}
}

static void test_size_mul(void)
{
	size_t r = 7;

	ok(size_mul(3, 5, &r) == 0 && r == 15, "size_mul: 3 * 5 = 15");
	ok(size_mul(SIZE_MAX / 2 + 1, 2, &r) == -1, "size_mul: (SIZE_MAX / 2 + 1) * 2 overflows");
	ok(size_mul(SIZE_MAX, 1, &r) == 0 && r == SIZE_MAX, "size_mul: SIZE_MAX * 1 fits");
	ok(size_mul(0, SIZE_MAX, &r) == 0 && r == 0, "size_mul: 0 * SIZE_MAX = 0");
}

int main(void)
{
	char cmd[600];

	const char *tmp = getenv("TMPDIR");

	setvbuf(stdout, NULL, _IONBF, 0);
	snprintf(scratch, sizeof(scratch), "%s/unit-fsutil.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(scratch)) {
		perror("mkdtemp");
		return 99;
	}
	test_chmod_not_through_symlink();
	test_walk_errors();
	test_size_mul();
	test_system_dir();
	snprintf(cmd, sizeof(cmd), "chmod -R u+rwx %s && rm -rf %s", scratch, scratch);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", scratch);
	return tap_done();
}
