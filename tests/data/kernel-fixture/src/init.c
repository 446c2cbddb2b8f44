/* SPDX-License-Identifier: GPL-2.0-or-later */
/* init.c - the fixture kernel's entry: calls every configured unit. */
#include <stdio.h>

int mm_work(int n) __attribute__((weak));
int fs_work(int n) __attribute__((weak));
int net_work(int n) __attribute__((weak));
int sched_work(int n) __attribute__((weak));

int main(void)
{
	int sum = 0;

	if (mm_work)
		sum += mm_work(1);
	if (fs_work)
		sum += fs_work(2);
	if (net_work)
		sum += net_work(3);
	if (sched_work)
		sum += sched_work(4);
	printf("%d\n", sum);
	return 0;
}
