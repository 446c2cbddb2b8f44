/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mm.c - a unit of the fixture kernel. */
#include "unit.h"

int mm_work(int n);

int mm_work(int n)
{
	return unit_work(n);
}
