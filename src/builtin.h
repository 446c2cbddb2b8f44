/* builtin.h - the built-in workload: a deterministic synthetic C source tree. */
#ifndef CONTEST_BUILTIN_H
#define CONTEST_BUILTIN_H

#include <stddef.h>

/* Bump when the generated tree changes: results of different versions are
 * different workloads. */
#define BUILTIN_VERSION 1

/* The default scale and the --quick scale (units of the generator). */
unsigned builtin_scale(int quick);

/* Write the tree for `scale` into the existing empty directory `dir`: C
 * sources, shared headers and a Makefile whose default target builds every
 * object and links them, and whose `clean` target removes what the build
 * made.  The Makefile uses $(CC) and $(CFLAGS).  The same scale always
 * gives the same bytes.  0, or -1 with the reason in why. */
int builtin_generate(const char *dir, unsigned scale, char *why, size_t len);

#endif
