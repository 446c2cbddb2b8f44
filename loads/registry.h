/* SPDX-License-Identifier: GPL-2.0-or-later */
/* registry.h - the table of every background load contest knows, and
 * their options. */
#ifndef CONTEST_REGISTRY_H
#define CONTEST_REGISTRY_H

#include <stddef.h>
#include <stdint.h>

#include "loads/load.h"

/* In the order a suite runs them; NULL-terminated. */
extern const struct load_ops *const load_registry[];

const struct load_ops *load_find(const char *name);

/* Whether every load_ops of the registry is sound: a name, a summary, a
 * unit and run(); names apart; options with a name (lower case and '-'),
 * a help line, a value within the option struct, numbers' min <= max,
 * and an option several loads declare declared alike by each; no more
 * options than LOAD_OPTIONS_MAX.  0, or -1 with the first fault in why. */
int load_registry_check(char *why, size_t len);

/* The loads' options, each name once: slot i is the i-th name met walking
 * the registry's loads and their tables in order. */
#define LOAD_OPTIONS_MAX 32
size_t load_option_count(void);
/* Its declaration (the first load's that declares it). */
const struct load_option *load_option_at(size_t slot);
/* The slot of the option so named, or load_option_count() when none is. */
size_t load_option_slot(const char *name);
/* "io_load, io_other, read_load": the loads that take the option in slot,
 * in registry order, into buf. */
void load_option_loads(size_t slot, char *buf, size_t len);

/* The value of an option given on the command line (a slot of an array of
 * LOAD_OPTIONS_MAX); all zero when it was not given. */
union load_value {
	uint64_t number;        /* LOAD_OPT_WHOLE, LOAD_OPT_SIZE */
	const char *text;       /* LOAD_OPT_STRING */
	int flag;               /* LOAD_OPT_FLAG */
};

/* The value of option name in values (NULL: none given), or NULL when no
 * load has that option. */
const union load_value *load_value_of(const union load_value *values, const char *name);
/* Copy the values of ops's options into its option struct opts (of
 * ops->option_struct_size bytes, zeroed by the caller). */
void load_options_fill(const struct load_ops *ops, const union load_value *values, void *opts);

#endif
