/* SPDX-License-Identifier: GPL-2.0-or-later */
/* registry.c - the table of every background load contest knows, and the
 * walk of their options that the command line is made from.
 *
 * One line per load, in the order a suite runs them.  Adding a load is
 * adding its file to loads/ and Makefile.am and its line here. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "loads/registry.h"
#include "lib/util.h"

extern const struct load_ops process_load, ctar_load, xtar_load, io_load,
	io_other_load, read_load, list_load, mem_load, spin_load;

const struct load_ops *const load_registry[] = {
	&process_load,
	&ctar_load,
	&xtar_load,
	&io_load,
	&io_other_load,
	&read_load,
	&list_load,
	&mem_load,
	&spin_load,
	NULL
};

const struct load_ops *load_find(const char *name)
{
	for (size_t i = 0; load_registry[i]; i++)
		if (!strcmp(load_registry[i]->name, name))
			return load_registry[i];
	return NULL;
}

/* ---- the loads' options --------------------------------------------------- */

/* Calls fn for every option of every load, in order, until it returns
 * nonzero; returns that. */
static int each_option(int (*fn)(const struct load_ops *ops, const struct load_option *o,
				 void *arg), void *arg)
{
	for (size_t i = 0; load_registry[i]; i++) {
		const struct load_option *o = load_registry[i]->options;

		for (; o && o->name; o++) {
			int r = fn(load_registry[i], o, arg);

			if (r)
				return r;
		}
	}
	return 0;
}

/* The first declaration of the option name, in registry order, and the
 * load that makes it in *by. */
static const struct load_option *first_of(const char *name, const struct load_ops **by)
{
	for (size_t i = 0; load_registry[i]; i++)
		for (const struct load_option *o = load_registry[i]->options; o && o->name; o++)
			if (!strcmp(o->name, name)) {
				*by = load_registry[i];
				return o;
			}
	return NULL;
}

struct slots {
	size_t n;           /* names met so far */
	const char *name;   /* the one looked for, or NULL */
	size_t want;        /* the slot looked for, or (size_t)-1 */
	const struct load_option *found;
};

static int count_slot(const struct load_ops *ops, const struct load_option *o, void *arg)
{
	struct slots *s = arg;
	const struct load_ops *by;

	if (first_of(o->name, &by) != o || by != ops)
		return 0;	/* met before (a table several loads share, too) */
	if ((s->name && !strcmp(s->name, o->name)) || s->want == s->n) {
		s->found = o;
		return 1;
	}
	s->n++;
	return 0;
}

size_t load_option_count(void)
{
	struct slots s = { 0, NULL, (size_t)-1, NULL };

	each_option(count_slot, &s);
	return s.n;
}

const struct load_option *load_option_at(size_t slot)
{
	struct slots s = { 0, NULL, slot, NULL };

	each_option(count_slot, &s);
	return s.found;
}

size_t load_option_slot(const char *name)
{
	struct slots s = { 0, name, (size_t)-1, NULL };

	each_option(count_slot, &s);
	return s.n;
}

void load_option_loads(size_t slot, char *buf, size_t len)
{
	const struct load_option *want = load_option_at(slot);
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; want && load_registry[i]; i++)
		for (const struct load_option *o = load_registry[i]->options; o && o->name; o++)
			if (!strcmp(o->name, want->name) && used < len) {
				used += (size_t)snprintf(buf + used, len - used, "%s%s",
							 used ? ", " : "", load_registry[i]->name);
				break;
			}
}

const union load_value *load_value_of(const union load_value *values, const char *name)
{
	static const union load_value none;
	size_t slot = load_option_slot(name);

	if (slot >= load_option_count())
		return NULL;
	return values ? &values[slot] : &none;
}

void load_options_fill(const struct load_ops *ops, const union load_value *values, void *opts)
{
	for (const struct load_option *o = ops->options; o && o->name; o++) {
		const union load_value *v = load_value_of(values, o->name);
		char *at = (char *)opts + o->offset;

		switch (o->type) {
		case LOAD_OPT_WHOLE:
		case LOAD_OPT_SIZE:
			memcpy(at, &v->number, sizeof(v->number));
			break;
		case LOAD_OPT_STRING:
			memcpy(at, &v->text, sizeof(v->text));
			break;
		case LOAD_OPT_FLAG:
			memcpy(at, &v->flag, sizeof(v->flag));
			break;
		}
	}
}

/* ---- the start-up check ---------------------------------------------------- */

static size_t value_size(enum load_opt_type t)
{
	switch (t) {
	case LOAD_OPT_WHOLE:
	case LOAD_OPT_SIZE:
		return sizeof(uint64_t);
	case LOAD_OPT_STRING:
		return sizeof(const char *);
	case LOAD_OPT_FLAG:
		return sizeof(int);
	}
	return 0;
}

static int same_text(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static int check_option(const struct load_ops *ops, const struct load_option *o, char *why,
			size_t len)
{
	const struct load_ops *by;
	const struct load_option *first = first_of(o->name, &by);
	size_t size = value_size(o->type);

	if (!o->name[0] || strspn(o->name, "abcdefghijklmnopqrstuvwxyz-") != strlen(o->name) ||
	    o->name[0] == '-')
		return whyf(why, len, "%s: option '%s': a name of lower-case letters and '-'",
			    ops->name, o->name);
	if (!o->help || !o->help[0])
		return whyf(why, len, "%s: --%s has no help line", ops->name, o->name);
	if (!size)
		return whyf(why, len, "%s: --%s has no type", ops->name, o->name);
	if ((o->type == LOAD_OPT_FLAG) != !o->arg)
		return whyf(why, len, "%s: --%s: a flag, and only a flag, takes no value",
			    ops->name, o->name);
	if (o->offset > ops->option_struct_size || size > ops->option_struct_size - o->offset)
		return whyf(why, len, "%s: --%s's value is outside its option struct "
			    "(option_struct_size)", ops->name, o->name);
	if ((o->type == LOAD_OPT_WHOLE || o->type == LOAD_OPT_SIZE) &&
	    !(o->min >= 0 && o->min <= o->max))
		return whyf(why, len, "%s: --%s: no range (min %g, max %g)", ops->name,
			    o->name, o->min, o->max);
	if (first != o && (first->type != o->type || !same_text(first->arg, o->arg) ||
			   !same_text(first->help, o->help) || first->min != o->min ||
			   first->max != o->max))
		return whyf(why, len, "%s: --%s is declared otherwise by another load", ops->name,
			    o->name);
	return 0;
}

int load_registry_check(char *why, size_t len)
{
	for (size_t i = 0; load_registry[i]; i++) {
		const struct load_ops *ops = load_registry[i];

		if (!ops->name || !ops->name[0] || !ops->summary || !ops->unit || !ops->run)
			return whyf(why, len, "load %zu of the registry (%s): a name, a summary, "
				    "a unit and run() are required", i,
				    ops->name ? ops->name : "no name");
		for (size_t k = 0; k < i; k++)
			if (!strcmp(load_registry[k]->name, ops->name))
				return whyf(why, len, "two loads are named %s", ops->name);
		if (ops->options && !ops->option_struct_size)
			return whyf(why, len, "%s has options but no option_struct_size",
				    ops->name);
		for (const struct load_option *o = ops->options; o && o->name; o++)
			if (check_option(ops, o, why, len))
				return -1;
	}
	if (load_option_count() > LOAD_OPTIONS_MAX)
		return whyf(why, len, "the loads have %zu options, more than LOAD_OPTIONS_MAX "
			    "(%d)", load_option_count(), LOAD_OPTIONS_MAX);
	return 0;
}
