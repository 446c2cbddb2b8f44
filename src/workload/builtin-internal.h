/* SPDX-License-Identifier: GPL-2.0-or-later */
/* builtin-internal.h - what the parts of the built-in workload's generator
 * share: builtin.c (the tree, its directories and its build),
 * builtin-code.c (the generated C) and builtin-fixed.c (the fixed C).
 * Not for the rest of contest: it uses builtin.h. */
#ifndef CONTEST_BUILTIN_INTERNAL_H
#define CONTEST_BUILTIN_INTERNAL_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/strbuf.h"

#define NHDRS 400		/* the header library, include/wl/h000.h ... */
#define SEED 0x636f6e7465737431ull	/* "contest1" */

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* ---- a fixed-seed PRNG (splitmix64) ------------------------------------ */

struct rng {
	uint64_t s;
};

/* The next number (builtin.c); one below n; one from lo to hi. */
uint32_t rng_next(struct rng *r);
unsigned rng_below(struct rng *r, unsigned n);
unsigned rng_range(struct rng *r, unsigned lo, unsigned hi);

/* ---- the text of a file (builtin.c) ------------------------------------- */

/* printf()'s output appended to b; after a failure nothing more is, and
 * b->err says why (write_file() reports it). */
void out(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Each line and a newline. */
void out_lines(struct strbuf *b, const char *const *lines);

/* ---- the directories (builtin.c) --------------------------------------- */

/* A directory of the tree, and how likely a unit is to land in it */
struct wl_dir {
	const char *path;
	unsigned weight;
};

extern const struct wl_dir builtin_dirs[];

/* The unit's generator, seeded by its index alone, and the directory it
 * draws first. */
unsigned builtin_unit_start(struct rng *r, unsigned unit);

/* ---- the generated C (builtin-code.c) ---------------------------------- */

/* Each appends one file of the tree to b: include/wl/hNNN.h (h < NHDRS),
 * include/wl/kernel.h, include/generated/autoconf.h and wl_units.h, a unit
 * (its path, in the directory it draws, into path), include/wl_ops.h and
 * init/main.c. */
void builtin_gen_lib_header(struct strbuf *b, unsigned h);
void builtin_gen_kernel_header(struct strbuf *b, unsigned scale);
void builtin_gen_autoconf(struct strbuf *b, unsigned scale);
void builtin_gen_units_header(struct strbuf *b, unsigned scale);
void builtin_gen_unit(struct strbuf *b, unsigned unit, char *path, size_t size);
void builtin_gen_ops_header(struct strbuf *b, unsigned scale);
void builtin_gen_main(struct strbuf *b, unsigned scale);

/* ---- the fixed C (builtin-fixed.c), one string a line, NULL-ended ------ */

extern const char *const builtin_wl_base_h[];
extern const char *const builtin_wl_types_h[];
extern const char *const builtin_wl_hash_h[];
extern const char *const builtin_wl_list_h[];
extern const char *const builtin_wl_fixed_h[];
extern const char *const builtin_wl_common_h[];
extern const char *const builtin_common_c[];

#endif
