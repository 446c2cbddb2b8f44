/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tar-internal.h - what the tar writer (tar-write.c) and extractor
 * (tar-extract.c) share: the ustar block and header layout, the I/O size
 * and the hooks.  Not for the loads: they use tar.h. */
#ifndef CONTEST_TAR_INTERNAL_H
#define CONTEST_TAR_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"
#include "lib/tar.h"

#define BLOCK 512
#define RECORD (20 * BLOCK)	/* GNU tar 1.34's default record; the archive is padded to it */
#define BUFSZ RECORD	/* I/O size in both directions, as GNU tar's: a multiple of BLOCK */
#define STOP_EVERY (1 << 20)	/* ask hooks->stop at least this often, in bytes */

/* ustar header layout: offsets and widths of the fields */
enum {
	H_NAME = 0, W_NAME = 100,
	H_MODE = 100, W_MODE = 8,
	H_UID = 108, W_UID = 8,
	H_GID = 116, W_GID = 8,
	H_SIZE = 124, W_SIZE = 12,
	H_MTIME = 136, W_MTIME = 12,
	H_CHKSUM = 148, W_CHKSUM = 8,
	H_TYPE = 156,
	H_LINK = 157, W_LINK = 100,
	H_MAGIC = 257,
	H_VERSION = 263,
	H_UNAME = 265, W_UNAME = 32,
	H_GNAME = 297, W_GNAME = 32,
	H_DEVMAJOR = 329, W_DEVMAJOR = 8,
	H_DEVMINOR = 337, W_DEVMINOR = 8,
	H_PREFIX = 345, W_PREFIX = 155,
};

/* ---- shared helpers (tar-write.c) ---------------------------------- */

/* Whether the hooks ask to stop (no hooks: never). */
int tar_stopping(const struct tar_hooks *h);
/* Tell the hooks that bytes more went through (no hooks: nothing to do). */
void tar_progress(const struct tar_hooks *h, uint64_t bytes);
/* The zeros after size bytes of a member's data, to the next block. */
uint64_t tar_padding(uint64_t size);

#endif
