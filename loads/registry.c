/* SPDX-License-Identifier: GPL-2.0-or-later */
/* registry.c - the table of every background load contest knows.
 *
 * One line per load, in the order a suite runs them.  Adding a load is
 * adding its file to loads/ and Makefile.am and its line here. */
#include "config.h"

#include <string.h>

#include "loads/registry.h"

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
