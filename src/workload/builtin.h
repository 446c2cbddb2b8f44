/* SPDX-License-Identifier: GPL-2.0-or-later */
/* builtin.h - the built-in workload: a deterministic synthetic C source tree. */
#ifndef CONTEST_BUILTIN_H
#define CONTEST_BUILTIN_H

#include <stddef.h>

/* Bump when the generated tree changes: results of different versions are
 * different workloads. */
#define BUILTIN_VERSION 2

/* The scale is the number of translation units (1 to BUILTIN_SCALE_MAX: the
 * unit names have four digits), in a kbuild-like tree: each takes about
 * 0.15-0.25 CPU seconds with gcc -O2, half of it parsing shared headers.  The default, 240, builds in about 35 s with make
 * -j8 on 2 idle CPUs; --quick, 24, in about 4 s. */
#define BUILTIN_SCALE_MAX 10000
unsigned builtin_scale(int quick);

/* Write the tree for `scale` into the existing empty directory `dir`: C
 * sources in directories, shared headers and a Makefile whose default target
 * builds every object (one make per directory, as kbuild), combines each
 * directory's objects and links them, and whose `clean` target removes what
 * the build made.  The Makefile uses $(CC) and $(CFLAGS).  The same scale always
 * gives the same bytes.  0, or -1 with the reason in why. */
int builtin_generate(const char *dir, unsigned scale, char *why, size_t len);

#endif
