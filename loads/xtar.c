/* SPDX-License-Identifier: GPL-2.0-or-later */
/* xtar.c - xtar_load: extract a tar archive of the workload's tree, again and again.
 *
 * Like `rm -rf x; mkdir x; tar xf archive.tar -C x` in a loop, system call
 * for system call.  prepare() writes scratch/archive.tar of the tree once
 * per suite (untimed, with the same writer as ctar_load); one process then
 * removes the last copy in scratch/x (unlinkat, as rm -rf), makes x again
 * and extracts the archive there, reading it in records of 10 KiB as GNU
 * tar does.  Like tar it never syncs: the kernel's writeback takes the files
 * to the disk, or the next pass's removal cancels what was not written back
 * yet, as with the original loop.
 *
 * --io-sync (env->io_sync) makes it a writeback-bound load: each file's
 * writeback starts as soon as it is written (xtar_on_file()), and once the
 * last member is written, xtar_sync() starts whatever is still dirty, waits
 * for all of it (io_sync_pass(), the same two passes as io_load's) and
 * fsync()s the extraction's top directory, which on a journalling file
 * system commits the journal holding its inodes and directory entries (not
 * syncfs(2), which would also write back the workload's own files).  Its
 * runs are recorded with sync=yes.
 *
 * One unit is one complete extraction, counted fractionally by the archive
 * bytes consumed (never a whole one before its last member is written, and
 * with --io-sync before it is on the device). */
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
#include "lib/fsutil.h"
#include "lib/tar.h"
#include "lib/util.h"

#define ARCHIVE "archive.tar"
#define DEST "x"

/* --io-sync: start the writeback of a file as soon as it is written, so
 * that the device works while the next members are extracted and
 * xtar_sync() has little left to wait for.  Asynchronous: an error shows in
 * xtar_sync(). */
static void xtar_on_file(void *arg, int fd)
{
	(void)arg;
	(void)io_sync_pass(fd, 0, IO_SYNC_START);
}

static char *xtar_path(const struct load_ctx *c, const char *name)
{
	return xasprintf("%s/%s", c->scratch, name);
}

static int xtar_prepare(struct load_ctx *c, char *why, size_t len)
{
	char *path = xtar_path(c, ARCHIVE);
	struct stat st;
	char msg[512];
	int fd, rc = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(why, len, "create %s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	if (tar_write(c->env->tree, fd, NULL, msg, sizeof(msg))) {
		snprintf(why, len, "an archive of %s: %s", c->env->tree, msg);
		rc = -1;
	} else if (fstat(fd, &st)) {
		snprintf(why, len, "stat %s: %s", path, strerror(errno));
		rc = -1;
	}
	if (close(fd) && !rc) {
		snprintf(why, len, "close %s: %s", path, strerror(errno));
		rc = -1;
	}
	if (rc) {
		unlink(path);
	} else {
		c->size = (uint64_t)st.st_size;
		c->natural_per_unit = (double)c->size / 1e6;
		c->natural_unit = "MB";
	}
	free(path);
	return rc;
}

static void xtar_describe(const struct load_ctx *c, char *buf, size_t len)
{
	tar_load_describe(c, "an archive", "extracted", buf, len);
}

/* One pass of xtar_sync() over the extracted files. */
struct xtar_sync {
	int pass;	/* IO_SYNC_START or IO_SYNC_WAIT */
	int err;	/* the errno of a failed sync */
};

static int xtar_sync_file(int fd, void *arg)
{
	struct xtar_sync *s = arg;
	int rc = io_sync_pass(fd, 0, s->pass);

	if (rc < 0)
		s->err = errno;
	return rc;
}

/* --io-sync: get the extraction in dest to the device (see the top of this
 * file); returns 0, 1 when stopped, or -1 with the reason in why. */
static int xtar_sync(const char *dest, char *why, size_t len)
{
	int fd, rc;

	for (int pass = 0; pass < IO_SYNC_PASSES; pass++) {
		struct xtar_sync s = { .pass = pass };

		errno = 0;
		rc = walk_files(dest, xtar_sync_file, &s);
		if (rc > 0)
			return 1;
		if (rc < 0) {
			snprintf(why, len, "sync %s: %s", dest, strerror(s.err ? s.err : errno));
			return -1;
		}
	}
	fd = open(dest, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || fsync(fd)) {
		snprintf(why, len, "sync %s: %s", dest, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

/* One extraction into a fresh dest (with `sync`, on the device); returns 0,
 * 1 when stopped, or -1 with the reason in why. */
static int xtar_once(int fd, const char *dest, const struct tar_hooks *hooks, int sync,
		     char *why, size_t len)
{
	int rc;

	if (remove_tree(dest)) {
		snprintf(why, len, "remove %s: %s", dest, strerror(errno));
		return -1;
	}
	if (mkdir(dest, 0700)) {
		snprintf(why, len, "mkdir %s: %s", dest, strerror(errno));
		return -1;
	}
	if (lseek(fd, 0, SEEK_SET) < 0) {
		snprintf(why, len, "seek in the archive: %s", strerror(errno));
		return -1;
	}
	rc = tar_extract(fd, dest, hooks, why, len);
	return rc || !sync ? rc : xtar_sync(dest, why, len);
}

static int xtar_run(struct load_ctx *c, unsigned idx)
{
	struct tar_pass p = { .c = c, .expect = c->size };	/* the archive extracted */
	struct tar_hooks hooks = { .progress = tar_pass_bytes, .stop = tar_pass_stop,
				   .file_written = c->env->io_sync ? xtar_on_file : NULL,
				   .arg = &p };
	char *archive = xtar_path(c, ARCHIVE), *dest = xtar_path(c, DEST);
	char why[512];
	int fd, rc = 0, err = 0;

	(void)idx;
	load_ready(c);
	fd = open(archive, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, sizeof(why), "open %s: %s", archive, strerror(errno));
		rc = -1;
	}
	while (fd >= 0 && !load_stopping()) {
		p.bytes = 0;
		rc = xtar_once(fd, dest, &hooks, c->env->io_sync, why, sizeof(why));
		err = errno;	/* as the failing call left it */
		if (rc)
			break;
		tar_pass_unit(&p, c->size);
	}
	if (fd >= 0)
		close(fd);
	if (rc < 0 && load_disk_full(err)) {
		remove_tree(dest);	/* the space back to the build */
		rc = load_note(c, "%s; the load gave its space back", why);
	}
	free(archive);
	free(dest);
	if (rc < 0)
		return load_fail(c, "%s", why);
	return 0;
}

static void xtar_cleanup(struct load_ctx *c)
{
	char *dest = xtar_path(c, DEST);

	remove_tree(dest);	/* the last copy; the harness removes scratch anyway */
	free(dest);
}

static void xtar_finish(struct load_ctx *c)
{
	char *archive = xtar_path(c, ARCHIVE);

	unlink(archive);
	free(archive);
}

const struct load_ops xtar_load = {
	.name = "xtar_load",
	.summary = "rm -rf DIR; mkdir DIR; tar xf FILE -C DIR, again and again",
	.unit = "one complete extraction",
	.flags = LOAD_IO_SYNC | LOAD_TREE_ARCHIVE | LOAD_TREE_COPY,
	.describe = xtar_describe,
	.params = tar_load_params,	/* the size of the archive extracted */
	.prepare = xtar_prepare,
	.run = xtar_run,
	.cleanup = xtar_cleanup,
	.finish = xtar_finish,
};
