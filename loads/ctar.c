/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ctar.c - ctar_load: write a tar archive of the workload's tree, again and again.
 *
 * Like `tar cf archive.tar TREE` in a loop, system call for system call: one
 * process opens scratch/archive.tar with O_TRUNC (as tar's creat() does:
 * the last pass's archive, and its pages not yet written back, are thrown
 * away), writes the whole archive into it with tar_write() in records of
 * 10 KiB as GNU tar does, and closes it.  Like tar it never syncs: the
 * kernel's writeback and dirty throttling take the archive to the disk, or
 * the next pass's truncation cancels what was not written back yet, as with
 * the original loop.
 *
 * --io-sync (env->io_sync) makes it a writeback-bound load: each archive is
 * written back and waited for (io_sync()) before it counts.  Its runs are
 * recorded with sync=yes.
 *
 * One unit is one complete archive, counted fractionally by the bytes
 * written (never a whole one before it is closed).  prepare() writes one
 * archive (untimed) to learn its size, so fractions are right from the
 * first pass; afterwards each pass is measured against the size of the last
 * complete archive, since the tree grows while the workload builds in it. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loads/io.h"
#include "loads/load.h"
#include "lib/tar.h"
#include "lib/util.h"

#define ARCHIVE "archive.tar"

/* Write one archive of the tree to path, as `tar cf` does, and when `sync` get
 * it to the device; returns 0, 1 when stopped, or -1 with the reason in why.
 * A complete archive's size goes to *size. */
static int ctar_once(const char *tree, const char *path, const struct tar_hooks *hooks,
		     int sync, uint64_t *size, char *why, size_t len)
{
	struct stat st;
	int fd, rc;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(why, len, "create %s: %s", path, strerror(errno));
		return -1;
	}
	rc = tar_write(tree, fd, hooks, why, len);
	if (rc == 0 && fstat(fd, &st)) {
		snprintf(why, len, "stat %s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc == 0 && sync && (rc = io_sync(fd, (uint64_t)st.st_size)) < 0)
		snprintf(why, len, "sync %s: %s", path, strerror(errno));
	if (close(fd) && rc == 0) {
		snprintf(why, len, "close %s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc == 0)
		*size = (uint64_t)st.st_size;
	return rc;
}

static int ctar_prepare(struct load_ctx *c, char *why, size_t len)
{
	char *path = xasprintf("%s/%s", c->scratch, ARCHIVE);
	char msg[512];
	uint64_t size = 0;
	int rc;

	rc = ctar_once(c->env->tree, path, NULL, 0, &size, msg, sizeof(msg));
	unlink(path);
	free(path);
	if (rc) {
		snprintf(why, len, "a trial archive of %s: %s", c->env->tree, msg);
		return -1;
	}
	c->size = size;
	c->natural_per_unit = (double)size / 1e6;
	c->natural_unit = "MB";
	return 0;
}

static void ctar_describe(const struct load_ctx *c, char *buf, size_t len)
{
	tar_load_describe(c, "archives", "written", buf, len);
}

static int ctar_run(struct load_ctx *c, unsigned idx)
{
	struct tar_pass p = { .c = c, .expect = c->size };	/* the archive of prepare() */
	struct tar_hooks hooks = { .progress = tar_pass_bytes, .stop = tar_pass_stop, .arg = &p };
	char *path = xasprintf("%s/%s", c->scratch, ARCHIVE);
	char why[512];
	int rc = 0, err = 0;

	(void)idx;
	load_ready(c);
	while (!load_stopping()) {
		uint64_t size = 0;

		p.bytes = 0;
		rc = ctar_once(c->env->tree, path, &hooks, c->env->io_sync, &size, why,
			       sizeof(why));
		err = errno;	/* as the failing call left it */
		if (rc)
			break;
		tar_pass_unit(&p, size);
	}
	if (rc < 0 && load_disk_full(err)) {
		unlink(path);	/* the space back to the build */
		rc = load_note(c, "%s (archive %s); the load gave its space back", why, path);
	}
	if (rc < 0)
		load_fail(c, "%s (archive %s)", why, path);
	free(path);
	return rc < 0 ? -1 : 0;
}

static void ctar_cleanup(struct load_ctx *c)
{
	char *path = xasprintf("%s/%s", c->scratch, ARCHIVE);

	unlink(path);	/* the last pass's archive */
	free(path);
}

const struct load_ops ctar_load = {
	.name = "ctar_load",
	.summary = "tar cf FILE TREE (the workload's tree), again and again",
	.unit = "one complete archive",
	.flags = LOAD_IO_SYNC | LOAD_TREE_ARCHIVE,
	.describe = ctar_describe,
	.params = tar_load_params,	/* the trial archive's size, from prepare() */
	.prepare = ctar_prepare,
	.run = ctar_run,
	.cleanup = ctar_cleanup,
};
