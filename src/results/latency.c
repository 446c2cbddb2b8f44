/* SPDX-License-Identifier: GPL-2.0-or-later */
/* latency.c - the latency probe's tasks and profiles, and its figures in a
 * run record and back. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/hist.h"
#include "results/latency.h"
#include "results/record.h"
#include "lib/util.h"

#define MS INT64_C(1000000)

#define US INT64_C(1000)

const struct probe_task probe_tasks[PROBE_TASKS] = {
	[PROBE_AUDIO] = { "audio", 5 * MS, 0, 0 },
	[PROBE_VIDEO] = { "video", 16666667, 0, 0 },
	[PROBE_INPUT] = { "input", 0, 10 * MS, 100 * MS },
};

/* light: on by default, so it must cost the build next to nothing (at most
 * 2 % of one CPU) and still ask what a scheduler decides: how soon a
 * sleeper that wakes runs, and whether a short piece of work is done
 * before its next deadline (EEVDF's lag and slices, sched_ext's policies).
 *	audio 20 us every 5 ms	  200/s x 20 us  = 4.0 ms/s  0.40 %
 *	video 50 us a frame	   60/s x 50 us  = 3.0 ms/s  0.30 %
 *	input 50 us an event	 18.2/s x 50 us  = 0.9 ms/s  0.09 %
 * (input's mean period is 55 ms): 0.79 % of one CPU of work.  The ~280
 * wakeups a second themselves (timer, switch, clock reads) come on top,
 * some 25 us a wakeup on a busy 2-CPU VM.  With video at 100 us (1.09 % of
 * work) bench/probe.sh measured the probe at 1.8 to 1.9 % of one CPU on a
 * quiet machine, at the 2 % ceiling, and 28 rounds put its cost to the
 * build at 2.4 % (0.997 to 1.052): hence 50 us, which keeps every wakeup
 * and halves the largest piece of work.  20 us is a small mixing step,
 * 50 us composing a frame that was decoded elsewhere (by a GPU or another
 * thread), 50 us handling an event; each is far above the clock's
 * resolution, so a task that is preempted in its work shows as a miss, not
 * as noise.
 *
 * full: interbench's weights, a desktop that needs the CPU: audio 5 % of
 * its period, video 40 % of a frame (a player that decodes), input 1 ms:
 * about 47 % of one CPU, which shows whether such a player keeps up under
 * a load, and costs the build as much. */
const struct probe_profile probe_profiles[PROBE_PROFILES] = {
	[PROBE_NONE] = { "none", { 0, 0, 0 } },
	[PROBE_LIGHT] = { "light", { 20 * US, 50 * US, 50 * US } },
	[PROBE_FULL] = { "full", { 250 * US, 6666667, 1 * MS } },
};

int probe_profile_parse(const char *name)
{
	for (int i = 0; i < PROBE_PROFILES; i++)
		if (!strcmp(name, probe_profiles[i].name))
			return i;
	return -1;
}

/* ---- in a record ------------------------------------------------------------- */

void probe_to_record(const struct probe_figs *f, struct record *r)
{
	if (!f->stats)
		return;
	record_setf(r, "probe_cal", "%.3f", f->cal);
	if (f->cpu_ns >= 0)
		record_set_i64(r, "probe_cpu_ns", f->cpu_ns);
	record_set(r, "probe_profile", probe_profiles[f->profile].name);
	for (unsigned i = 0; i < PROBE_TASKS; i++) {
		const struct probe_stats *st = &f->stats[i];
		char key[32], *h = hist_encode(&st->latency);

		snprintf(key, sizeof(key), "probe_%s", probe_tasks[i].name);
		record_set(r, key, h);
		free(h);
		snprintf(key, sizeof(key), "probe_%s_periods", probe_tasks[i].name);
		record_set_i64(r, key, (int64_t)st->periods);
		snprintf(key, sizeof(key), "probe_%s_misses", probe_tasks[i].name);
		record_set_i64(r, key, (int64_t)st->misses);
		snprintf(key, sizeof(key), "probe_%s_work_ns", probe_tasks[i].name);
		record_set_i64(r, key, f->work_ns[i]);
	}
}

int probe_from_record(const struct record *r, struct probe_figs *f, char *why, size_t len)
{
	struct probe_stats *st;
	const char *pname;
	int64_t work[PROBE_TASKS];
	double cal;
	int64_t cpu = -1;
	int profile = PROBE_FULL;	/* before the profiles, the only probe */

	f->stats = NULL;
	f->profile = PROBE_NONE;
	memset(f->work_ns, 0, sizeof(f->work_ns));
	f->cal = 0;
	f->cpu_ns = -1;
	if (!record_get(r, "probe_cal"))
		return 0;
	if (record_get_double(r, "probe_cal", &cal) || !(cal > 0) || cal > 1e9 ||
	    (record_get(r, "probe_cpu_ns") &&
	     (record_get_i64(r, "probe_cpu_ns", &cpu) || cpu < 0)))
		return whyf(why, len, "run record with a bad probe_cal or probe_cpu_ns");
	if ((pname = record_get(r, "probe_profile")) &&
	    ((profile = probe_profile_parse(pname)) <= PROBE_NONE))
		return whyf(why, len, "run record with a bad probe_profile");
	for (unsigned i = 0; i < PROBE_TASKS; i++) {
		char key[32];

		work[i] = probe_profiles[PROBE_FULL].work_ns[i];
		snprintf(key, sizeof(key), "probe_%s_work_ns", probe_tasks[i].name);
		if (!pname)
			continue;
		if (record_get_i64(r, key, &work[i]) || work[i] < 0)
			return whyf(why, len, "run record with a missing or bad %s", key);
	}
	st = xcalloc(PROBE_TASKS, sizeof(*st));
	for (unsigned i = 0; i < PROBE_TASKS; i++) {
		const char *name = probe_tasks[i].name, *h;
		char key[32], hwhy[128];
		int64_t periods, misses;

		snprintf(key, sizeof(key), "probe_%s", name);
		if (!(h = record_get(r, key)) || hist_decode(h, &st[i].latency, hwhy, sizeof(hwhy))) {
			free(st);
			return whyf(why, len, "run record with a %s probe_%s%s%s", h ? "bad" : "missing",
				    name, h ? ": " : "", h ? hwhy : "");
		}
		snprintf(key, sizeof(key), "probe_%s_periods", name);
		if (record_get_i64(r, key, &periods) || periods < 0 ||
		    (uint64_t)periods < st[i].latency.count) {
			free(st);
			return whyf(why, len, "run record with a missing or bad %s", key);
		}
		snprintf(key, sizeof(key), "probe_%s_misses", name);
		if (record_get_i64(r, key, &misses) || misses < 0 || misses > periods) {
			free(st);
			return whyf(why, len, "run record with a missing or bad %s", key);
		}
		st[i].periods = (uint64_t)periods;
		st[i].misses = (uint64_t)misses;
	}
	f->stats = st;
	f->profile = profile;
	memcpy(f->work_ns, work, sizeof(work));
	f->cal = cal;
	f->cpu_ns = cpu;
	return 0;
}

