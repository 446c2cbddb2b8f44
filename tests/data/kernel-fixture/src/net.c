/* SPDX-License-Identifier: GPL-2.0-or-later */
/* net.c - a unit of the fixture kernel. */
#include "unit.h"

int net_work(int n);

int net_work(int n)
{
	return unit_work(n);
}
