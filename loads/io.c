/* SPDX-License-Identifier: GPL-2.0-or-later */
/* io.c - io_load and io_other: stream zeros into a big file, again and again.
 *
 * Like `dd if=/dev/zero of=FILE bs=1M count=S/1M` in a loop, system call for
 * system call: each pass opens /dev/zero, then the same file with O_TRUNC
 * (which throws away the last pass's data, and its pages not yet written
 * back), and copies S bytes from one to the other in 1 MiB read()s and
 * write()s through the page cache, then closes both.  The read costs what
 * it cost dd (the kernel zeroes each MiB), which sets how fast the pages
 * get dirty.  Like dd it never syncs: the kernel's writeback and dirty
 * throttling do the rest, which is what the workload beside it feels.  One
 * unit is one complete file, counted fractionally by the bytes written.
 *
 * --io-sync (env->io_sync) makes it a writeback-bound load instead: before
 * closing, each file is written back and waited for (io_sync()), and only
 * then does it count.  Its runs are recorded with sync=yes.
 *
 * io_load writes in its scratch directory; io_other writes in a directory
 * of its own that it makes (mkdtemp, mode 0700) in the user's -o DIR, and
 * removes at the end, touching nothing else there.
 *
 * S is --io-size, else RAM (MemTotal), never more than half the free space
 * of the file system nor so much that less than 1 GiB stays free. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "loads/io.h"
#include "loads/load.h"
#include "lib/fsutil.h"
#include "lib/util.h"

#define MIB (UINT64_C(1) << 20)
#define GIB (UINT64_C(1) << 30)
#define BUF_SIZE (1 << 20)		/* bytes per read() and write(), as dd bs=1M */
#define SYNC_STEP (64 * MIB)		/* sync this much, then look at load_stopping() */
#define QUICK_SIZE (64 * MIB)
#define MIN_SIZE (64 * MIB)		/* smaller files measure the cache, not the disk */
#define KEEP_FREE GIB		/* what an io file always leaves free */

struct io_state {
	char *dir;	/* io_other: the directory made in other_dir; else NULL */
	char *path;	/* the file written again and again */
};

const struct load_option io_options[] = {
	{ "io-size", "SIZE", "file size (default RAM, bounded by free space)",
	  LOAD_OPT_SIZE, offsetof(struct io_opts, size), 0x1p20, 0x1p50 },
	{ NULL },
};

static int is_other(const struct load_ctx *c)
{
	return (c->ops->flags & LOAD_NEEDS_OTHER) != 0;
}

/* Where the file goes: scratch (which may not exist yet) or -o DIR. */
static const char *io_where(const struct load_ctx *c)
{
	return is_other(c) ? c->env->other_dir : c->scratch;
}

static int io_check_other(const char *dir, char *why, size_t len)
{
	struct stat st;

	if (stat(dir, &st)) {
		snprintf(why, len, "-o %s: %s", dir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(why, len, "-o %s: not a directory", dir);
		return -1;
	}
	if (access(dir, W_OK | X_OK)) {
		snprintf(why, len, "-o %s: cannot write there: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* The largest file the file system holds with the margin. */
static uint64_t io_fits(uint64_t avail)
{
	uint64_t half = avail / 2;
	uint64_t keep = avail > KEEP_FREE ? avail - KEEP_FREE : 0;

	return (half < keep ? half : keep) / MIB * MIB;
}

int io_file_size(struct load_ctx *c, const char *where, const char *elsewhere,
		 char *why, size_t len)
{
	const struct io_opts *o = c->opts;
	char sfit[32], sfree[32], swant[32];
	uint64_t avail, fit, want;

	if (fs_free_bytes(where, &avail)) {
		snprintf(why, len, "cannot see the free space for %s: %s", where, strerror(errno));
		return -1;
	}
	fit = io_fits(avail);
	format_size(avail, sfree, sizeof(sfree));
	format_size(fit, sfit, sizeof(sfit));
	if (o->size) {
		want = o->size;
		format_size(want, swant, sizeof(swant));
		if (want > fit) {
			snprintf(why, len, "--io-size %s does not fit in %s: %s free there, "
				 "at most %s fits (half the free space, leaving 1 GiB free)",
				 swant, where, sfree, sfit);
			return -1;
		}
	} else {
		want = c->env->quick ? QUICK_SIZE : c->env->mem_total / MIB * MIB;
		if (want > fit)
			want = fit;
		if (want < MIN_SIZE) {
			snprintf(why, len, "only %s free in %s: a file of at least 64 MiB must fit "
				 "in half the free space, leaving 1 GiB free; free some space "
				 "or %s", sfree, where, elsewhere);
			return -1;
		}
	}
	c->size = want;
	c->natural_per_unit = (double)want / 1e6;
	c->natural_unit = "MB";
	return 0;
}

void io_file_describe(const struct load_ctx *c, const char *where, const char *what,
		      char *buf, size_t len)
{
	char size[32], ram[32], sfree[32] = "?";
	uint64_t avail;

	format_size(c->size, size, sizeof(size));
	format_size(c->env->mem_total, ram, sizeof(ram));
	if (fs_free_bytes(where, &avail) == 0)
		format_size(avail, sfree, sizeof(sfree));
	snprintf(buf, len, "%s file in %s%s (RAM %s, free %s)", size, where, what, ram, sfree);
}

static int io_check(struct load_ctx *c, char *why, size_t len)
{
	if (is_other(c) && io_check_other(c->env->other_dir, why, len))
		return -1;
	return io_file_size(c, io_where(c), is_other(c) ? "choose another -o DIR" :
			    "use another --work-dir", why, len);
}

static void io_describe(const struct load_ctx *c, char *buf, size_t len)
{
	io_file_describe(c, is_other(c) ? c->env->other_dir : c->env->work_dir, "", buf, len);
}

static void io_finish(struct load_ctx *c)
{
	struct io_state *st = c->priv;

	if (!st)
		return;
	if (st->path)
		unlink(st->path);
	if (st->dir)
		remove_tree(st->dir);	/* our own mkdtemp directory, nothing else */
	free(st->path);
	free(st->dir);
	free(st);
	c->priv = NULL;
}

static int io_prepare(struct load_ctx *c, char *why, size_t len)
{
	struct io_state *st = xcalloc(1, sizeof(*st));

	c->priv = st;
	if (!is_other(c)) {
		st->path = xasprintf("%s/io_load.dat", c->scratch);
		return 0;
	}
	st->dir = xasprintf("%s/contest-io-XXXXXX", c->env->other_dir);
	if (!mkdtemp(st->dir)) {	/* mode 0700 */
		snprintf(why, len, "cannot make a directory in %s: %s", c->env->other_dir,
			 strerror(errno));
		free(st->dir);
		st->dir = NULL;
		return -1;
	}
	st->path = xasprintf("%s/io_other.dat", st->dir);
	return 0;
}

/* After each run: the file must not outlive it, even if the load was killed. */
static void io_cleanup(struct load_ctx *c)
{
	struct io_state *st = c->priv;

	if (st && st->path)
		unlink(st->path);
}

/* One pass of the sync (io.h). */
int io_sync_pass(int fd, uint64_t size, int pass)
{
	static const unsigned int how[IO_SYNC_PASSES] = {
		[IO_SYNC_START] = SYNC_FILE_RANGE_WRITE,
		[IO_SYNC_WAIT] = SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
				 SYNC_FILE_RANGE_WAIT_AFTER,
	};
	uint64_t off = 0;

	while (off < size || (off == 0 && size == 0)) {
		uint64_t n = size ? SYNC_STEP : 0;	/* 0: to the end of the file */

		if (load_stopping())
			return 1;
		if (sync_file_range(fd, (off_t)off, (off_t)n, how[pass]) == 0)
			off += SYNC_STEP;
		else if (errno != EINTR)
			return -1;
	}
	return 0;
}

int io_sync(int fd, uint64_t size)
{
	for (int pass = 0; pass < IO_SYNC_PASSES; pass++) {
		int rc = io_sync_pass(fd, size, pass);

		if (rc)
			return rc;
	}
	return fdatasync(fd) ? -1 : 0;	/* the error report, if writeback failed */
}

void io_sync_param(const struct load_ctx *c, struct record *r)
{
	if (c->env->io_sync)
		load_param_text(r, "sync", "yes");
}

#define FRACTION_MAX 0.999	/* an unfinished unit never counts as a whole one */

static void tar_pass_report(const struct tar_pass *p)
{
	double f = p->expect ? (double)p->bytes / (double)p->expect : 0;

	load_progress(p->c, p->done + (f < FRACTION_MAX ? f : FRACTION_MAX));
}

void tar_pass_unit(struct tar_pass *p, uint64_t size)
{
	p->done += 1;
	p->bytes = 0;
	p->expect = size;
	tar_pass_report(p);
}

void tar_pass_bytes(void *arg, uint64_t n)
{
	struct tar_pass *p = arg;

	p->bytes += n;
	tar_pass_report(p);
}

int tar_pass_stop(void *arg)
{
	(void)arg;
	return load_stopping();
}

void tar_load_params(const struct load_ctx *c, struct record *r)
{
	load_param(r, "archive_size", c->size);
	io_sync_param(c, r);
}

void tar_load_describe(const struct load_ctx *c, const char *what, const char *done,
		       char *buf, size_t len)
{
	char size[32] = "";

	if (c->size)
		format_size(c->size, size, sizeof(size));
	snprintf(buf, len, "%s%s%s of the workload tree, %s in the work directory", what,
		 c->size ? " of " : "", size, done);
}

/* Write one file, as dd does (and with --io-sync get it to the device): 0
 * when complete, 1 when stopped (or stopped after load_note() on a full
 * disk), or load_fail().  The file stays, to be
 * truncated by the next pass and removed by cleanup(). */
static int io_file(struct load_ctx *c, const char *path, void *buf, double done)
{
	uint64_t off = 0, size = c->size;
	const char *what = "write";
	int zfd, fd, rc = 0, err = 0;

	zfd = open("/dev/zero", O_RDONLY | O_CLOEXEC);
	if (zfd < 0)
		return load_fail(c, "open /dev/zero: %s", strerror(errno));
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = errno;
		close(zfd);
		return load_fail(c, "create %s: %s", path, strerror(err));
	}
	while (off < size && !load_stopping()) {
		size_t n = size - off < BUF_SIZE ? (size_t)(size - off) : BUF_SIZE;
		ssize_t r = read(zfd, buf, n);	/* then write it all, as dd does a block */

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			err = r ? errno : ENODATA;	/* /dev/zero at its end: not Linux's */
			what = "read /dev/zero for";
			break;
		}
		if (write_all(fd, buf, (size_t)r)) {
			err = errno;
			break;
		}
		off += (uint64_t)r;
		load_progress(c, done + (double)off / (double)size);
	}
	close(zfd);
	if (!err && off < size)
		rc = 1;
	if (!err && !rc && c->env->io_sync) {
		what = "sync";
		rc = io_sync(fd, size);
		if (rc < 0)
			err = errno;
	}
	if (load_disk_full(err))
		(void)!ftruncate(fd, 0);	/* the space back to the build, as a next dd would */
	if (close(fd) && !err && !rc) {
		what = "close";
		err = errno;
	}
	if (load_disk_full(err))
		return load_note(c, "%s %s: %s; the load gave its space back", what, path,
				 strerror(err)) + 1;
	if (err)
		return load_fail(c, "%s %s: %s", what, path, strerror(err));
	return rc;
}

static int io_run(struct load_ctx *c, unsigned idx)
{
	struct io_state *st = c->priv;
	double done = 0;
	void *buf;
	int rc = 0;

	(void)idx;
	if (!st || !st->path)
		return load_fail(c, "not prepared");
	if (posix_memalign(&buf, 4096, BUF_SIZE))
		return load_fail(c, "out of memory for a %d-byte buffer", BUF_SIZE);
	load_ready(c);
	while (!load_stopping()) {
		rc = io_file(c, st->path, buf, done);
		if (rc)
			break;
		done += 1;
		load_progress(c, done);
	}
	free(buf);
	return rc < 0 ? -1 : 0;
}

static void io_params(const struct load_ctx *c, struct record *r)
{
	load_param(r, "file_size", c->size);
	io_sync_param(c, r);
}

/* All of io_load that io_other is too: it differs only in where its file
 * goes (its flags), which every function here reads from c->ops. */
#define IO_LOAD_OPS \
	.unit = "one complete file", \
	.options = io_options, \
	.option_struct_size = sizeof(struct io_opts), \
	.check = io_check, \
	.describe = io_describe, \
	.params = io_params, \
	.prepare = io_prepare, \
	.run = io_run, \
	.cleanup = io_cleanup, \
	.finish = io_finish

const struct load_ops io_load = {
	.name = "io_load",
	.summary = "dd if=/dev/zero of=FILE bs=1M count=RAM, again and again",
	.flags = LOAD_WORK_DISK | LOAD_IO_SYNC,
	IO_LOAD_OPS,
};

const struct load_ops io_other_load = {
	.name = "io_other",
	.summary = "as io_load (dd), in a directory on another disk (-o DIR)",
	.flags = LOAD_NEEDS_OTHER | LOAD_IO_SYNC,
	IO_LOAD_OPS,
};
