/* SPDX-License-Identifier: GPL-2.0-or-later */
/* runtype.c - the run types: noload, cacherun, and one per load. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "loads/registry.h"
#include "loads/runtype.h"
#include "lib/util.h"

#define MAX_TYPES 32

static struct runtype types[MAX_TYPES];
static size_t ntypes;

static void init(void)
{
	if (ntypes)
		return;
	types[ntypes++] = (struct runtype){ "noload",
		"the workload alone, caches flushed first", "-", NULL, 0 };
	types[ntypes++] = (struct runtype){ "cacherun",
		"the workload again right after a build, caches not flushed", "-", NULL, 1 };
	for (size_t i = 0; load_registry[i] && ntypes < MAX_TYPES; i++) {
		const struct load_ops *l = load_registry[i];

		types[ntypes++] = (struct runtype){ l->name, l->summary, l->unit, l, 0 };
	}
}

size_t runtype_count(void)
{
	init();
	return ntypes;
}

const struct runtype *runtype_at(size_t i)
{
	init();
	return i < ntypes ? &types[i] : NULL;
}

const struct runtype *runtype_find(const char *name)
{
	init();
	for (size_t i = 0; i < ntypes; i++)
		if (!strcmp(types[i].name, name))
			return &types[i];
	return NULL;
}

size_t runtype_rank(const char *name)
{
	init();
	for (size_t i = 0; i < ntypes; i++)
		if (!strcmp(types[i].name, name))
			return i;
	return ntypes;
}

int runtype_default(const struct runtype *rt)
{
	return !rt->load || !(rt->load->flags & (LOAD_TEST_ONLY | LOAD_NEEDS_OTHER));
}

int runtype_listed(const struct runtype *rt)
{
	return !rt->load || !(rt->load->flags & LOAD_TEST_ONLY);
}

const char *runtype_nearest(const char *word, int loads_only)
{
	const char *names[MAX_TYPES];
	size_t n = 0;

	init();
	for (size_t i = 0; i < ntypes; i++)
		if (runtype_listed(&types[i]) && (types[i].load || !loads_only))
			names[n++] = types[i].name;
	return nearest_name(word, names, n);
}

void runtype_names(char *buf, size_t len)
{
	size_t at = 0;

	init();
	buf[0] = '\0';
	for (size_t i = 0; i < ntypes && at < len; i++)
		if (runtype_listed(&types[i]))
			at += (size_t)snprintf(buf + at, len - at, "%s%s", at ? ", " : "",
					       types[i].name);
}
