/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched.c - a unit of the fixture kernel. */
#include "unit.h"

int sched_work(int n);

int sched_work(int n)
{
	return unit_work(n);
}
