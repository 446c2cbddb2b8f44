/* io.h - what io_load, io_other, read_load and the tar loads share (in io.c). */
#ifndef CONTEST_IO_H
#define CONTEST_IO_H

#include <stddef.h>
#include <stdint.h>

#include "load.h"

/* Resolve the file size into c->size (and the natural MB unit): --io-size,
 * else RAM (64 MiB with --quick), never more than half the free space of the
 * file system holding `where` nor leaving less than 1 GiB free.  An explicit
 * --io-size that does not fit is refused; `elsewhere` completes the advice
 * when nothing fits ("use another --work-dir").  0, or -1 with why. */
int io_file_size(struct load_ctx *c, const char *where, const char *elsewhere,
		 char *why, size_t len);
/* "4.0 GiB file in DIR<what> (RAM 23.5 GiB, free 80.0 GiB)" */
void io_file_describe(const struct load_ctx *c, const char *where, const char *what,
		      char *buf, size_t len);
/* In a load process: get the first `size` bytes of fd's data to the device,
 * as the file's writer must before its unit counts: start writeback of all
 * of it, wait for it, then fdatasync() for the error report.  In 64 MiB
 * steps, so that a stop request is seen within one step.  0, 1 when
 * stopped, or -1 with errno. */
int io_sync(int fd, uint64_t size);

#endif
