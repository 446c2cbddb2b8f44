/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sched.c - a unit of the fixture kernel. */
int sched_work(int n);

int sched_work(int n)
{
	int sum = 0;

	for (int i = 0; i < 1000 * n; i++)
		sum += i % 7;
	return sum;
}
