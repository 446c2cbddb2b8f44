/* SPDX-License-Identifier: GPL-2.0-or-later */
/* net.c - a unit of the fixture kernel. */
int net_work(int n);

int net_work(int n)
{
	int sum = 0;

	for (int i = 0; i < 1000 * n; i++)
		sum += i % 7;
	return sum;
}
