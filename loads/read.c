/* SPDX-License-Identifier: GPL-2.0-or-later */
/* read.c - read_load: read a big file sequentially, again and again.
 *
 * Like `cat FILE > /dev/null` in a loop, system call for system call.
 * prepare() writes the file once per suite (untimed), S bytes of
 * incompressible data, and syncs it.  Each pass opens it, advises sequential
 * access, reads it from start to end with 128 KiB read()s, writes each
 * piece to /dev/null and closes it, as GNU cat does; through the page
 * cache as cat does: nothing is dropped behind the
 * reader, so the file's pages compete for memory with the workload's (the
 * tree, the compiler, the objects) and push them out, which is what the
 * original read_load measured.  A file the size of RAM cannot stay cached
 * whole, so the passes keep reaching the device; a file that fits (a small
 * --io-size, or a disk too small for a RAM-sized one) is read from the cache
 * after the first pass, as cat would read it.  Each run starts equal: the
 * harness flushes the caches before it (drop_caches, or fadvise over the
 * work directory, which holds the file).  One unit is one complete read,
 * counted fractionally by bytes.
 *
 * S is --io-size, else RAM (MemTotal), never more than half the free space
 * of the file system nor so much that less than 1 GiB stays free. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loads/io.h"
#include "loads/load.h"
#include "lib/fsutil.h"
#include "lib/proc.h"
#include "lib/util.h"

#define BUF_SIZE (1 << 20)		/* bytes per write() of the file in prepare() */
#define READ_SIZE (128 << 10)		/* bytes per read(): coreutils 9.1 cat's buffer */
#define FILE_NAME "read_load.dat"

static int read_check(struct load_ctx *c, char *why, size_t len)
{
	return io_file_size(c, c->scratch, "use another --work-dir", why, len);
}

static void read_describe(const struct load_ctx *c, char *buf, size_t len)
{
	io_file_describe(c, c->env->work_dir, ", written before timing", buf, len);
}

/* Bytes that no file system compresses and no two MiB alike. */
static void read_fill(uint64_t *buf, size_t words, uint64_t *seed)
{
	uint64_t x = *seed;

	for (size_t i = 0; i < words; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		buf[i] = x;
	}
	*seed = x;
}

static int read_write_file(const char *path, uint64_t size, uint64_t *buf,
			   char *why, size_t len)
{
	uint64_t off = 0, seed = UINT64_C(0x9e3779b97f4a7c15);
	const char *what = "write";
	int fd, err = 0;

	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(why, len, "create %s: %s", path, strerror(errno));
		return -1;
	}
	while (off < size && !err) {
		size_t n = size - off < BUF_SIZE ? (size_t)(size - off) : BUF_SIZE;

		if (proc_interrupted()) {	/* the user asked contest to stop */
			snprintf(why, len, "interrupted");
			close(fd);
			unlink(path);
			return -1;
		}
		read_fill(buf, BUF_SIZE / sizeof(*buf), &seed);
		if (write_all(fd, buf, n))
			err = errno;
		off += n;
	}
	if (!err && fdatasync(fd)) {
		what = "sync";
		err = errno;
	}
	if (!err)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (close(fd) && !err) {
		what = "close";
		err = errno;
	}
	if (err) {
		snprintf(why, len, "%s %s: %s", what, path, strerror(err));
		unlink(path);
		return -1;
	}
	return 0;
}

static int read_prepare(struct load_ctx *c, char *why, size_t len)
{
	char *path = xasprintf("%s/%s", c->scratch, FILE_NAME);
	uint64_t *buf = xmalloc(BUF_SIZE);
	int rc;

	rc = read_write_file(path, c->size, buf, why, len);
	free(buf);
	if (rc)
		free(path);
	else
		c->priv = path;
	return rc;
}

static void read_finish(struct load_ctx *c)
{
	if (c->priv)
		unlink(c->priv);
	free(c->priv);
	c->priv = NULL;
}

/* One pass over the file, as cat: 0 when complete, 1 when stopped, or
 * load_fail(). */
static int read_pass(struct load_ctx *c, int out, const char *path, void *buf, double done)
{
	uint64_t off = 0, size = c->size;
	int fd, rc = 0;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return load_fail(c, "open %s: %s", path, strerror(errno));
	posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);	/* as cat does */
	while (off < size && !rc) {
		size_t n = size - off < READ_SIZE ? (size_t)(size - off) : READ_SIZE;
		ssize_t r;

		if (load_stopping()) {
			rc = 1;
			break;
		}
		r = read(fd, buf, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			rc = load_fail(c, "read %s: %s", path, strerror(errno));
		else if (r == 0)
			rc = load_fail(c, "read %s: the file ends at %llu of %llu bytes", path,
				       (unsigned long long)off, (unsigned long long)size);
		else if (write_all(out, buf, (size_t)r))
			rc = load_fail(c, "write to /dev/null: %s", strerror(errno));
		else
			off += (uint64_t)r;
		load_progress(c, done + (double)off / (double)size);
	}
	close(fd);
	return rc;
}

static int read_run(struct load_ctx *c, unsigned idx)
{
	const char *path = c->priv;
	double done = 0;
	void *buf;
	int out, rc = 0;

	(void)idx;
	if (!path)
		return load_fail(c, "not prepared");
	out = open("/dev/null", O_WRONLY | O_CLOEXEC);	/* cat's standard output */
	if (out < 0)
		return load_fail(c, "open /dev/null: %s", strerror(errno));
	if (posix_memalign(&buf, 4096, READ_SIZE)) {
		close(out);
		return load_fail(c, "out of memory for a %d-byte buffer", READ_SIZE);
	}
	load_ready(c);
	while (!load_stopping()) {
		rc = read_pass(c, out, path, buf, done);
		if (rc)
			break;
		done += 1;
		load_progress(c, done);
	}
	free(buf);
	close(out);
	return rc < 0 ? -1 : 0;
}

static void read_params(const struct load_ctx *c, struct record *r)
{
	load_param(r, "file_size", c->size);
}

const struct load_ops read_load = {
	.name = "read_load",
	.summary = "cat FILE >/dev/null (FILE the size of RAM, written before timing), again and again",
	.unit = "one complete read",
	.options = io_options,
	.option_struct_size = sizeof(struct io_opts),
	.flags = LOAD_WORK_DISK,
	.check = read_check,
	.describe = read_describe,
	.params = read_params,
	.prepare = read_prepare,
	.run = read_run,
	.finish = read_finish,
};
