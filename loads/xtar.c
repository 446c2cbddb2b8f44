/* xtar.c - xtar_load: extract a tar archive of the workload's tree, again and again.
 *
 * Like `rm -rf x; mkdir x; tar xf archive.tar -C x` in a loop.  prepare()
 * writes scratch/archive.tar of the tree once per suite (untimed, with the
 * same writer as ctar_load); one process then removes the last copy in
 * scratch/x and extracts the archive there again.
 *
 * One unit is one complete extraction that is on the device, counted
 * fractionally by the archive bytes consumed (never a whole one before it
 * is on the device).  tar does not fsync the files it extracts, and neither
 * do we while extracting: a file per fsync would make this a journal-commit
 * load.  But the copy is removed at the start of the next pass, and files
 * removed with dirty pages never reach the device (the kernel cancels the
 * writes), so that without a sync the load is a CPU loop over the page
 * cache.  So each file's writeback starts as soon as it is written
 * (xtar_on_file(): the device works while the next members are extracted,
 * as the flusher works behind tar), and once the last member is written,
 * xtar_sync() finishes what writeback would do within the run: start
 * writeback of whatever is still dirty (sync_file_range WRITE), then wait
 * for all of it (WAIT_BEFORE | WRITE | WAIT_AFTER), then fsync() the
 * extraction's top directory, which on a journalling file system (ext4,
 * xfs) commits the journal holding the extraction's inodes and directory
 * entries.  Not syncfs(2): that would
 * also write back the workload's own dirty files, which tar never does. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "load.h"
#include "tar.h"
#include "util.h"

#define ARCHIVE "archive.tar"
#define DEST "x"
#define FRACTION_MAX 0.999	/* an unfinished extraction never counts as a whole one */

/* The work of one load process. */
struct xtar_pass {
	struct load_ctx *c;
	double done;		/* complete extractions */
	uint64_t bytes;		/* archive bytes consumed by the current one */
};

static void xtar_report(const struct xtar_pass *p)
{
	uint64_t size = p->c->size;
	double f = size ? (double)p->bytes / (double)size : 0;

	load_progress(p->c, p->done + (f < FRACTION_MAX ? f : FRACTION_MAX));
}

static void xtar_on_bytes(void *arg, uint64_t n)
{
	struct xtar_pass *p = arg;

	p->bytes += n;
	xtar_report(p);
}

static int xtar_on_stop(void *arg)
{
	(void)arg;
	return load_stopping();
}

/* Start the writeback of a file as soon as it is written, as the kernel's
 * flusher does for tar's files while tar goes on, so that the device works
 * while the next members are extracted and xtar_sync() has little left to
 * wait for.  Asynchronous: an error shows in xtar_sync(). */
static void xtar_on_file(void *arg, int fd)
{
	(void)arg;
	(void)sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
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
	char size[32];

	if (!c->size) {
		snprintf(buf, len, "an archive of the workload tree, extracted in the work directory");
		return;
	}
	format_size(c->size, size, sizeof(size));
	snprintf(buf, len, "an archive of %s of the workload tree, extracted in the work directory",
		 size);
}

/* One pass of xtar_sync() over the extracted files. */
struct xtar_sync {
	unsigned int how;	/* sync_file_range() flags */
	int err;		/* its errno, when it failed */
};

static int xtar_sync_file(int fd, void *arg)
{
	struct xtar_sync *s = arg;

	if (load_stopping())
		return 1;
	while (sync_file_range(fd, 0, 0, s->how)) {
		if (errno != EINTR) {
			s->err = errno;
			return -1;
		}
	}
	return 0;
}

/* Get the extraction in dest to the device (see the top of this file): 0,
 * 1 when stopped, or -1 with why. */
static int xtar_sync(const char *dest, char *why, size_t len)
{
	static const unsigned int how[2] = {
		SYNC_FILE_RANGE_WRITE,
		SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER,
	};
	int fd, rc;

	for (int pass = 0; pass < 2; pass++) {
		struct xtar_sync s = { .how = how[pass] };

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

/* One extraction into a fresh dest, on the device: 0, 1 when stopped, or -1
 * with why. */
static int xtar_once(int fd, const char *dest, const struct tar_hooks *hooks,
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
	return rc ? rc : xtar_sync(dest, why, len);
}

static int xtar_run(struct load_ctx *c, unsigned idx)
{
	struct xtar_pass p = { .c = c };
	struct tar_hooks hooks = { .progress = xtar_on_bytes, .stop = xtar_on_stop,
				   .file_written = xtar_on_file, .arg = &p };
	char *archive = xtar_path(c, ARCHIVE), *dest = xtar_path(c, DEST);
	char why[512];
	int fd, rc = 0;

	(void)idx;
	load_ready(c);
	fd = open(archive, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, sizeof(why), "open %s: %s", archive, strerror(errno));
		rc = -1;
	}
	while (fd >= 0 && !load_stopping()) {
		p.bytes = 0;
		rc = xtar_once(fd, dest, &hooks, why, sizeof(why));
		if (rc)
			break;
		p.done += 1;
		p.bytes = 0;
		xtar_report(&p);
	}
	if (fd >= 0)
		close(fd);
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

/* The size of the archive extracted. */
static void xtar_params(const struct load_ctx *c, struct record *r)
{
	load_param(r, "archive_size", c->size);
}

const struct load_ops xtar_load = {
	.name = "xtar_load",
	.summary = "extracts a tar archive of the workload's tree to disk, again and again",
	.unit = "one complete extraction",
	.describe = xtar_describe,
	.params = xtar_params,
	.prepare = xtar_prepare,
	.run = xtar_run,
	.cleanup = xtar_cleanup,
	.finish = xtar_finish,
};
