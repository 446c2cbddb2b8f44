/* unit-stats.c - summary statistics against values computed independently. */
#include "config.h"

#include <math.h>

#include "stats.h"
#include "tap.h"

int main(void)
{
	struct summary s;

	/* 2 4 4 4 5 5 7 9: mean 5, squares about the mean sum to 32, so the
	 * sample sd is sqrt(32/7) (by hand). */
	double a[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	summarise(a, 8, &s);
	is_num(s.mean, 5.0, 1e-12, "mean of 2 4 4 4 5 5 7 9");
	is_num(s.sd, 2.1380899352993950, 1e-12, "sample sd is sqrt(32/7) = 2.13808993529939");
	is_num(s.median, 4.5, 1e-12, "median of an even count averages the middle two");
	is_num(s.min, 2, 0, "min");
	is_num(s.max, 9, 0, "max");

	/* NIST StRD NumAcc4: 1000000000.2, then 1000000000.1 and .3 alternating
	 * (1001 values); certified mean 1000000000.2, sd 0.1.  A one-pass
	 * formula fails this one. */
	static double big[1001];
	big[0] = 1000000000.2;
	for (int i = 1; i < 1001; i++)
		big[i] = i % 2 ? 1000000000.1 : 1000000000.3;
	summarise(big, 1001, &s);
	is_num(s.mean, 1000000000.2, 1e-6, "NumAcc4 certified mean");
	is_num(s.sd, 0.1, 1e-6, "NumAcc4 certified standard deviation 0.1");

	/* Five compile times; sd computed independently with Python:
	 * statistics.stdev([97.2, 103.1, 99.8, 101.0, 98.4]) = 2.2912878474779164 */
	double t[] = { 97.2, 103.1, 99.8, 101.0, 98.4 };
	summarise(t, 5, &s);
	is_num(s.mean, 99.9, 1e-9, "mean of five compile times");
	is_num(s.sd, 2.2912878474779164, 1e-12, "sd of five compile times (Python: 2.29128784747792)");
	is_num(s.median, 99.8, 0, "median of an odd count is the middle value");

	double one[] = { 42 };
	summarise(one, 1, &s);
	ok(s.n == 1 && s.mean == 42 && isnan(s.sd), "one value: mean, and no sd");
	summarise(one, 0, &s);
	ok(s.n == 0 && isnan(s.mean), "no values: NaN mean");
	return tap_done();
}
