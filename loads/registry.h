/* SPDX-License-Identifier: GPL-2.0-or-later */
/* registry.h - the table of every background load contest knows. */
#ifndef CONTEST_REGISTRY_H
#define CONTEST_REGISTRY_H

#include <stddef.h>

#include "loads/load.h"

/* In the order a suite runs them; NULL-terminated. */
extern const struct load_ops *const load_registry[];

const struct load_ops *load_find(const char *name);

#endif
