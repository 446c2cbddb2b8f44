/* io.h - the file size io_load, io_other and read_load share (in io.c). */
#ifndef CONTEST_IO_H
#define CONTEST_IO_H

#include <stddef.h>

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

#endif
