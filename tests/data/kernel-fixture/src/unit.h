/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit.h - the work every unit of the fixture kernel does, in a header they
 * share as a kernel's units share theirs. */
#ifndef FIXTURE_UNIT_H
#define FIXTURE_UNIT_H

static inline int unit_work(int n)
{
	int sum = 0;

	for (int i = 0; i < 1000 * n; i++)
		sum += i % 7;
	return sum;
}

#endif
