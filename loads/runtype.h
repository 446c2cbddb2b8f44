/* SPDX-License-Identifier: GPL-2.0-or-later */
/* runtype.h - the run types: noload, cacherun, and one per load. */
#ifndef CONTEST_RUNTYPE_H
#define CONTEST_RUNTYPE_H

#include <stddef.h>

#include "loads/load.h"

struct runtype {
	const char *name;
	const char *summary;
	const char *unit;            /* "-" for noload and cacherun */
	const struct load_ops *load; /* NULL for noload and cacherun */
	int cacherun;                /* caches not flushed; runs right after a build */
};

/* Every run type, in suite order: noload, cacherun, then the registry. */
size_t runtype_count(void);
const struct runtype *runtype_at(size_t i);
const struct runtype *runtype_find(const char *name);
/* Position in suite order; names not known sort after all known ones. */
size_t runtype_rank(const char *name);
/* In the default suite: not a test load, needs no -o DIR. */
int runtype_default(const struct runtype *rt);
/* Shown to users (in list, in messages): every run type but the test loads,
 * which the test suite still runs by name. */
int runtype_listed(const struct runtype *rt);
/* The listed run type (loads_only: load) nearest to a mistyped word, or NULL. */
const char *runtype_nearest(const char *word, int loads_only);
/* "noload, cacherun, ..." : the listed run types, into buf. */
void runtype_names(char *buf, size_t len);

#endif
