/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit-progress.c - the time left, and how it is written. */
#include "config.h"

#include <string.h>

#include "run/progress.h"
#include "loads/runtype.h"
#include "tap.h"
#include "lib/util.h"

static const char *dur(double secs)
{
	static char buf[32];

	format_duration(secs, buf, sizeof(buf));
	return buf;
}

static void test_format(void)
{
	is_str(dur(0), "0 s", "nothing left");
	is_str(dur(44.6), "45 s", "seconds, rounded");
	is_str(dur(59.4), "59 s", "under a minute: seconds");
	is_str(dur(89), "1 min", "minutes, rounded down below the half");
	is_str(dur(90), "2 min", "and up from the half");
	is_str(dur(3569), "59 min", "59 min 29 s");
	is_str(dur(3570), "1 h 00 min", "59 min 30 s rounds to the hour, not to '60 min'");
	is_str(dur(7170), "2 h 00 min", "1 h 59 min 30 s is 2 h, not '1 h 60 min'");
	is_str(dur(5385), "1 h 30 min", "1 h 29 min 45 s");
	is_str(dur(-3), "0 s", "a negative estimate shows as nothing left");
}

/* A fake store of earlier runs: build seconds per type. */
static void test_estimate(void)
{
	const struct runtype *types[] = { runtype_find("noload"), runtype_find("process_load") };
	static char nl[] = "noload", pl[] = "process_load", w[] = "w", other[] = "other";
	struct run runs[] = {
		{ .type = nl, .workload = w, .valid = 1, .elapsed_ns = 8 * NS_PER_SEC },
		{ .type = pl, .workload = w, .valid = 1, .elapsed_ns = 18 * NS_PER_SEC },
		{ .type = pl, .workload = w, .valid = 1, .elapsed_ns = 22 * NS_PER_SEC },
		{ .type = pl, .workload = other, .valid = 1, .elapsed_ns = 99 * NS_PER_SEC },
		{ .type = pl, .workload = w, .valid = 0, .elapsed_ns = 99 * NS_PER_SEC },
		{ .type = pl, .workload = w, .valid = 1, .elapsed_ns = 99 * NS_PER_SEC,
		  .load_session = 1 },
	};
	struct store st = { .runs = runs, .nruns = 6 };

	ok(types[0] && types[1], "the run types exist");
	progress_start(PROGRESS_PLAIN);
	progress_plan(types, 2, 2, 0, 1.0);
	is_num(progress_left(), -1, 0, "nothing measured, nothing stored: unknown");

	/* the warm-up took 10 s: every build 10 s, a load's lead 1 s, 1 s for
	 * the rest of a run until one is measured */
	progress_warmup(10);
	is_num(progress_left(), 2 * (11 + 12), 1e-9, "from the warm-up: 2 x (10+1 + 10+1+1)");

	/* round 1's noload took 13 s of wall, 10 s of it the build */
	progress_run(0);
	progress_ran(13, 10);
	is_num(progress_left(), 13 + 2 * (10 + 1 + 3), 1e-9,
	       "noload as measured, process_load with the measured 3 s around the build");
	progress_run(1);
	progress_ran(20, 15);
	is_num(progress_left(), 13 + 20, 1e-9, "the last round: both as measured");
	progress_run(2);
	progress_ran(13, 10);
	progress_run(3);
	progress_ran(20, 15);
	is_num(progress_left(), 0, 1e-9, "all done: nothing left");
	progress_end();

	/* earlier runs of the same workload, valid, without --load-session */
	progress_start(PROGRESS_PLAIN);
	progress_plan(types, 2, 1, 0, 1.0);
	progress_guess(&st, "w", 0);
	is_num(progress_left(), 8 + (8 + 1) + (20 + 1 + 1), 1e-9,
	       "from the store: warm-up as noload's 8 s, process_load's mean of 18 and 22 s");
	progress_end();
}

int main(void)
{
	test_format();
	test_estimate();
	return tap_done();
}
