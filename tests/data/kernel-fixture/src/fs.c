/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fs.c - a unit of the fixture kernel. */
#include "unit.h"

int fs_work(int n);

int fs_work(int n)
{
	return unit_work(n);
}
