/* SPDX-License-Identifier: GPL-2.0-or-later */
/* process.c - process_load: chunks of data passed around a ring of pipes.
 *
 * N processes form a unidirectional ring: process i reads from pipe i and
 * writes to pipe (i + 1) % N.  Process 0 injects a few chunks; every process
 * then reads a whole chunk and writes it on, again and again, so that the
 * scheduler sees N processes that keep waking each other up.  One hop is one
 * chunk read completely and written completely.
 *
 * Because a chunk is read whole before it is written on, the ring cannot
 * deadlock while there are fewer chunks than processes, whatever the chunk
 * size: to block them all, every process would have to hold a chunk.  With
 * as many chunks as processes or more, it is safe only while all the chunks
 * fit in one pipe together, so that no write ever blocks. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "loads/load.h"
#include "lib/util.h"

#define HOPS_PER_UNIT 10000.0
/* Chunks in flight.  contest 0.61's own description (its home page,
 * http://www.users.on.net/~ckolivas/contest/) says only "Insert M << N
 * chunks of data into the ring" for N = 4 x CPUs processes.  Its source,
 * which would give M, could not be found: a search of public code and page
 * archives turned up neither contest's process_load nor B. Matthews' irman,
 * from which contest took some of its loads.  2 keeps M << N for any N of
 * 8 or more (2 CPUs or more): at most a quarter of the ring is busy. */
#define DEFAULT_CHUNKS 2
#define DEFAULT_CHUNK_SIZE 8192
#define PIPE_DEFAULT_SIZE 65536	/* Linux's default pipe capacity */
#define FD_MARGIN 64		/* descriptors the harness needs besides the ring */

struct ring {
	unsigned n;
	unsigned chunks;
	size_t chunk_size;
	size_t piece;		/* largest write: the smallest pipe capacity */
	int (*fd)[2];		/* pipe i: read by process i, written by i - 1 */
};

/* process_load's options, as given (0: not given). */
struct process_opts {
	uint64_t procs, chunks, chunk_size;
};

static const struct load_option process_options[] = {
	{ "procs", "N", "processes in the ring (default 4 x online CPUs)",
	  LOAD_OPT_WHOLE, offsetof(struct process_opts, procs), 2, 4096 },
	{ "chunks", "N", "chunks passed around the ring (default 2)",
	  LOAD_OPT_WHOLE, offsetof(struct process_opts, chunks), 1, 4096 },
	{ "chunk-size", "SIZE", "bytes in a chunk (default 8K)",
	  LOAD_OPT_SIZE, offsetof(struct process_opts, chunk_size), 1, 0x1p30 },
	{ NULL },
};

struct shape {
	unsigned procs, chunks;
	uint64_t chunk_size;
};

static void resolve(const struct load_ctx *c, struct shape *s)
{
	const struct process_opts *o = c->opts;
	unsigned ncpus = c->env->ncpus;

	s->procs = o->procs ? (unsigned)o->procs : 4 * (ncpus ? ncpus : 1);
	s->chunks = o->chunks ? (unsigned)o->chunks : DEFAULT_CHUNKS;
	s->chunk_size = o->chunk_size ? o->chunk_size : DEFAULT_CHUNK_SIZE;
}

static int process_check(struct load_ctx *c, char *why, size_t len)
{
	const struct load_env *e = c->env;
	uint64_t in_flight, buffers;
	struct shape s;
	struct rlimit rl;
	char a[32], b[32];

	resolve(c, &s);
	in_flight = (uint64_t)s.chunks * s.chunk_size;
	buffers = (uint64_t)s.procs * s.chunk_size;
	if (s.chunks >= s.procs && in_flight > PIPE_DEFAULT_SIZE) {
		format_size(in_flight, a, sizeof(a));
		snprintf(why, len, "--chunks %u with --procs %u could deadlock the ring: give "
			 "fewer chunks than processes, or chunks that fit in one pipe together "
			 "(%s is more than 64 KiB)", s.chunks, s.procs, a);
		return -1;
	}
	if (e->mem_available && buffers > e->mem_available / 2) {
		format_size(buffers, a, sizeof(a));
		format_size(e->mem_available, b, sizeof(b));
		snprintf(why, len, "--procs %u x --chunk-size of %s buffers is more than half "
			 "of MemAvailable (%s): give a smaller --chunk-size or --procs",
			 s.procs, a, b);
		return -1;
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
	    2 * (uint64_t)s.procs + FD_MARGIN > rl.rlim_cur) {
		snprintf(why, len, "--procs %u needs %u pipe descriptors but the limit is %llu "
			 "(ulimit -n): give a smaller --procs", s.procs, 2 * s.procs,
			 (unsigned long long)rl.rlim_cur);
		return -1;
	}
	c->nprocs = s.procs;
	c->size = in_flight;
	c->natural_per_unit = HOPS_PER_UNIT;
	c->natural_unit = "hops";
	return 0;
}

static void process_describe(const struct load_ctx *c, char *buf, size_t len)
{
	struct shape s;
	char size[32];

	resolve(c, &s);
	format_size(s.chunk_size, size, sizeof(size));
	snprintf(buf, len, "%u processes, %u chunk%s of %s", s.procs, s.chunks,
		 s.chunks == 1 ? "" : "s", size);
}

static void process_cleanup(struct load_ctx *c)
{
	struct ring *r = c->priv;

	if (!r)
		return;
	for (unsigned i = 0; i < r->n; i++)
		for (int end = 0; end < 2; end++)
			if (r->fd[i][end] >= 0)
				close(r->fd[i][end]);
	free(r->fd);
	free(r);
	c->priv = NULL;
}

static int open_ring(struct ring *r, char *why, size_t len)
{
	size_t need;

	r->piece = PIPE_DEFAULT_SIZE;
	for (unsigned i = 0; i < r->n; i++) {
		int cap;

		if (pipe2(r->fd[i], O_CLOEXEC)) {
			r->fd[i][0] = r->fd[i][1] = -1;
			snprintf(why, len, "pipe %u of %u: %s", i + 1, r->n, strerror(errno));
			return -1;
		}
		cap = fcntl(r->fd[i][1], F_GETPIPE_SZ);
		if (cap > 0 && (size_t)cap < r->piece)
			r->piece = (size_t)cap;
	}
	if (r->chunks >= r->n &&
	    (size_mul(r->chunks, r->chunk_size, &need) || need > r->piece)) {
		snprintf(why, len, "%u chunks of %zu bytes do not fit in a pipe of %zu bytes "
			 "(/proc/sys/fs/pipe-user-pages-soft?): give fewer --chunks",
			 r->chunks, r->chunk_size, r->piece);
		return -1;
	}
	return 0;
}

static int process_setup(struct load_ctx *c, char *why, size_t len)
{
	struct ring *r;
	struct shape s;

	process_cleanup(c);
	resolve(c, &s);
	r = xcalloc(1, sizeof(*r));
	r->n = s.procs;
	r->chunks = s.chunks;
	r->chunk_size = (size_t)s.chunk_size;
	r->fd = xcalloc(r->n, sizeof(*r->fd));
	for (unsigned i = 0; i < r->n; i++)
		r->fd[i][0] = r->fd[i][1] = -1;
	c->priv = r;
	c->nprocs = r->n;
	if (open_ring(r, why, len)) {
		process_cleanup(c);
		return -1;
	}
	return 0;
}

/* Read exactly len bytes: 0, 1 when told to stop, -1 with errno. */
static int get_chunk(int fd, char *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n;

		if (load_stopping())
			return 1;
		n = read(fd, buf + got, len - got);
		if (n > 0)
			got += (size_t)n;
		else if (n == 0) {
			errno = EPIPE;	/* every writer is gone: cannot happen */
			return -1;
		} else if (errno != EINTR)
			return -1;
	}
	return 0;
}

/* Write len bytes in pieces no larger than a pipe: 0, 1 when told to stop,
 * -1 with errno. */
static int put_chunk(int fd, const char *buf, size_t len, size_t piece)
{
	size_t done = 0;

	while (done < len) {
		size_t want = len - done < piece ? len - done : piece;
		ssize_t n;

		if (load_stopping())
			return 1;
		n = write(fd, buf + done, want);
		if (n > 0)
			done += (size_t)n;
		else if (n < 0 && errno != EINTR)
			return -1;
	}
	return 0;
}

/* A neighbour that saw SIGTERM just before it blocked in read() or write()
 * is not interrupted.  Wake it: drain our input so that a writer blocked on
 * a full pipe can finish its piece, and put a byte into our output so that
 * a blocked reader returns.  Both are non-blocking; failures do not matter. */
static void wake_neighbours(int in, int out, char *buf, size_t len)
{
	fcntl(in, F_SETFL, fcntl(in, F_GETFL) | O_NONBLOCK);
	while (read(in, buf, len) > 0)
		;
	fcntl(out, F_SETFL, fcntl(out, F_GETFL) | O_NONBLOCK);
	if (write(out, buf, 1) < 0) {
		/* a full pipe: its reader is not blocked */
	}
}

static void close_others(const struct ring *r, int in, int out)
{
	for (unsigned i = 0; i < r->n; i++) {
		if (r->fd[i][0] != in)
			close(r->fd[i][0]);
		if (r->fd[i][1] != out)
			close(r->fd[i][1]);
	}
}

/* Pass chunks on until told to stop: 0, or -1 from load_fail(). */
static int pass_chunks(struct load_ctx *c, const struct ring *r, unsigned idx,
		       int in, int out, char *buf)
{
	uint64_t hops = 0;
	int rc = 0;

	for (unsigned i = 0; idx == 0 && i < r->chunks && rc == 0; i++)
		rc = put_chunk(out, buf, r->chunk_size, r->piece);
	while (rc == 0) {
		rc = get_chunk(in, buf, r->chunk_size);
		if (rc < 0)
			return load_fail(c, "read from the ring: %s", strerror(errno));
		if (rc == 0)
			rc = put_chunk(out, buf, r->chunk_size, r->piece);
		if (rc == 0)
			load_progress(c, (double)++hops / HOPS_PER_UNIT);
	}
	if (rc < 0)
		return load_fail(c, "write to the ring: %s", strerror(errno));
	return 0;
}

static int process_run(struct load_ctx *c, unsigned idx)
{
	const struct ring *r = c->priv;
	int in = r->fd[idx][0], out = r->fd[(idx + 1) % r->n][1];
	char *buf;
	int rc;

	close_others(r, in, out);
	buf = calloc(1, r->chunk_size);
	if (!buf)
		return load_fail(c, "cannot allocate a chunk of %zu bytes", r->chunk_size);
	load_ready(c);
	rc = pass_chunks(c, r, idx, in, out, buf);
	if (rc == 0)
		wake_neighbours(in, out, buf, r->chunk_size);
	free(buf);
	return rc;
}

static void process_params(const struct load_ctx *c, struct record *r)
{
	struct shape s;

	resolve(c, &s);
	load_param(r, "procs", s.procs);
	load_param(r, "chunks", s.chunks);
	load_param(r, "chunk_size", s.chunk_size);
}

const struct load_ops process_load = {
	.name = "process_load",
	.summary = "4 x CPUs processes passing 2 chunks of 8 KiB around a ring of pipes",
	.unit = "10,000 chunk hops",
	.options = process_options,
	.option_struct_size = sizeof(struct process_opts),
	.check = process_check,
	.describe = process_describe,
	.params = process_params,
	.setup = process_setup,
	.run = process_run,
	.cleanup = process_cleanup,
};
