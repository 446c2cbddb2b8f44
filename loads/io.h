/* SPDX-License-Identifier: GPL-2.0-or-later */
/* io.h - what io_load, io_other, read_load and the tar loads share (in io.c). */
#ifndef CONTEST_IO_H
#define CONTEST_IO_H

#include <stddef.h>
#include <stdint.h>

#include "loads/load.h"

/* The option io_load, io_other and read_load share (their option struct). */
struct io_opts {
	uint64_t size;          /* --io-size, 0 = RAM */
};
extern const struct load_option io_options[];

/* Resolve the file size into c->size (and the natural MB unit): --io-size,
 * else RAM (64 MiB with --quick), never more than half the free space of the
 * file system holding `where` nor leaving less than 1 GiB free.  An explicit
 * --io-size that does not fit is refused; `elsewhere` completes the advice
 * when nothing fits ("use another --work-dir").  Returns 0, or -1 with the
 * reason in why. */
int io_file_size(struct load_ctx *c, const char *where, const char *elsewhere,
		 char *why, size_t len);
/* "4.0 GiB file in DIR<what> (RAM 23.5 GiB, free 80.0 GiB)" */
void io_file_describe(const struct load_ctx *c, const char *where, const char *what,
		      char *buf, size_t len);
/* --io-sync, in a load process: the two passes over a written file that get
 * its data to the device, as the file's writer must before its unit counts.
 * Pass IO_SYNC_START starts writeback of everything dirty, pass IO_SYNC_WAIT
 * starts what is left and waits for all of it; size 0 means the whole file,
 * else the first `size` bytes in 64 MiB steps, so that a stop request is seen
 * within one step.  Returns 0, 1 when stopped, or -1 with errno. */
enum { IO_SYNC_START, IO_SYNC_WAIT, IO_SYNC_PASSES };
int io_sync_pass(int fd, uint64_t size, int pass);
/* Both passes over one file, then fdatasync() for the error report. */
int io_sync(int fd, uint64_t size);
/* For params(): "sync=yes" in the run record of a load run with --io-sync,
 * so that `contest report` shows such runs as measured differently. */
void io_sync_param(const struct load_ctx *c, struct record *r);

/* The tar loads (ctar, xtar): one process's work, complete archives (or
 * extractions) and the bytes of the current one, reported through the tar
 * codec's hooks (lib/tar.h): .progress = tar_pass_bytes, .stop =
 * tar_pass_stop, .arg = the pass. */
struct tar_pass {
	struct load_ctx *c;
	double done;		/* complete units */
	uint64_t bytes;		/* of the current one: written, or read from the archive */
	uint64_t expect;	/* bytes in a unit (0 = not known yet) */
};
/* One more complete unit; the next one is expected to take `size` bytes.
 * Each tells the harness the units done, plus the current one's fraction
 * bytes / expect, which never makes a whole one before it is complete. */
void tar_pass_unit(struct tar_pass *p, uint64_t size);
void tar_pass_bytes(void *arg, uint64_t n);
int tar_pass_stop(void *arg);
/* For params(): the archive's size, and sync=yes with --io-sync. */
void tar_load_params(const struct load_ctx *c, struct record *r);
/* For describe(): "WHAT of SIZE of the workload tree, DONE in the work
 * directory", without "of SIZE" before the archive's size is known. */
void tar_load_describe(const struct load_ctx *c, const char *what, const char *done,
		       char *buf, size_t len);

#endif
