/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit-probe.c - the probe's figures in a run record: round trip, absence,
 * and damaged fields refused. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/latency.h"
#include "results/record.h"
#include "results/run.h"
#include "tap.h"

static char label[] = "6.1", type[] = "noload", session[] = "s1", workload[] = "builtin/1",
	flush[] = "none";

static struct run sample_run(void)
{
	return (struct run){
		.label = label, .type = type, .session = session, .workload = workload,
		.flush = flush, .round = 1, .valid = 1, .elapsed_ns = 5000000000LL,
		.user_ns = 1, .sys_ns = 1,
	};
}

/* run -> record -> line -> record -> run; 0 when it converts back */
static int through_line(const struct run *in, struct run *out, char *why, size_t len)
{
	struct record r, back;
	char *line;
	int rc;

	run_to_record(in, &r);
	line = record_encode(&r);
	rc = record_decode(line, strlen(line), &back, why, len) ||
	     run_from_record(&back, out, why, len);
	free(line);
	record_free(&r);
	record_free(&back);
	return rc;
}

/* A record with the probe figures of a sample run, key set to val
 * (NULL: removed), converted back: 0 when it is accepted. */
static int with_field(const char *key, const char *val, char *why, size_t len)
{
	struct probe_stats st[PROBE_TASKS];
	struct run in = sample_run(), out;
	struct record r, damaged;
	int rc;

	memset(st, 0, sizeof(st));
	for (unsigned i = 0; i < PROBE_TASKS; i++) {
		hist_init(&st[i].latency);
		hist_record(&st[i].latency, 50000);
		st[i].periods = 2;
		st[i].misses = 1;
	}
	in.probe = st;
	in.probe_cal = 900;
	in.probe_profile = PROBE_LIGHT;
	memcpy(in.probe_work_ns, probe_profiles[PROBE_LIGHT].work_ns, sizeof(in.probe_work_ns));
	run_to_record(&in, &r);
	record_init(&damaged, "run");
	for (size_t i = 0; i < r.n; i++)
		if (strcmp(r.kv[i].key, key) && strcmp(r.kv[i].key, "v"))
			record_set(&damaged, r.kv[i].key, r.kv[i].val);
	if (val)
		record_set(&damaged, key, val);
	rc = run_from_record(&damaged, &out, why, len);
	if (!rc)
		run_free(&out);
	record_free(&r);
	record_free(&damaged);
	return rc;
}

int main(void)
{
	ok(probe_profile_parse("light") == PROBE_LIGHT && probe_profile_parse("full") == PROBE_FULL &&
	   probe_profile_parse("none") == PROBE_NONE && probe_profile_parse("Light") < 0 &&
	   probe_profile_parse("") < 0, "the profiles' names parse, nothing else");
	{	/* the light profile's work: at most 2 % of one CPU */
		const int64_t *w = probe_profiles[PROBE_LIGHT].work_ns;
		double mean_input = (double)(probe_tasks[PROBE_INPUT].min_ns +
					     probe_tasks[PROBE_INPUT].max_ns) / 2;
		double share = (double)w[PROBE_AUDIO] / (double)probe_tasks[PROBE_AUDIO].period_ns +
			       (double)w[PROBE_VIDEO] / (double)probe_tasks[PROBE_VIDEO].period_ns +
			       (double)w[PROBE_INPUT] / mean_input;

		ok(share > 0 && share <= 0.0125, "light's work is %.2f %% of one CPU (<= 1.25 %%: "
		   "room for the wakeups within 2 %%)", share * 100);
	}
	static struct probe_stats st[PROBE_TASKS];
	struct run in = sample_run(), out;
	struct record r;
	char why[256];
	int same = 1;

	ok(through_line(&in, &out, why, sizeof(why)) == 0 && !out.probe,
	   "a run without the probe reads back without it");
	run_to_record(&in, &r);
	ok(!record_get(&r, "probe_cal") && !record_get(&r, "probe_audio"),
	   "and its record has no probe field");
	record_free(&r);
	run_free(&out);

	for (unsigned i = 0; i < PROBE_TASKS; i++) {
		hist_init(&st[i].latency);
		for (int k = 0; k < 1000; k++)
			hist_record(&st[i].latency, 20000 + (int64_t)(i + 1) * k * 997);
		st[i].periods = 1000 + i;
		st[i].misses = 17 * i;
	}
	hist_record(&st[PROBE_INPUT].latency, 3);	/* clamped, counted */
	st[PROBE_INPUT].periods++;
	in.probe = st;
	in.probe_cal = 912.345;
	in.probe_cpu_ns = 123456789;
	in.probe_profile = PROBE_LIGHT;
	in.probe_work_ns[PROBE_AUDIO] = 20000;
	in.probe_work_ns[PROBE_VIDEO] = 100001;
	in.probe_work_ns[PROBE_INPUT] = 49999;
	ok(through_line(&in, &out, why, sizeof(why)) == 0, "a run with the probe converts back");
	ok(out.probe != NULL, "with its probe figures");
	ok(out.probe_cal == 912.345 && out.probe_cpu_ns == 123456789,
	   "the calibration and the probe's CPU time");
	ok(out.probe_profile == PROBE_LIGHT &&
	   !memcmp(out.probe_work_ns, in.probe_work_ns, sizeof(in.probe_work_ns)),
	   "its profile and every task's work figure as recorded (not the table's)");
	run_free(&out);
	in.probe_profile = PROBE_FULL;
	ok(through_line(&in, &out, why, sizeof(why)) == 0 && out.probe_profile == PROBE_FULL,
	   "the full profile converts back as full");
	for (unsigned i = 0; out.probe && i < PROBE_TASKS; i++)
		same &= !memcmp(&out.probe[i], &st[i], sizeof(st[i]));
	ok(same, "every task's histogram, periods and misses, exactly");
	run_free(&out);
	ok(out.probe == NULL, "run_free frees them");

	in.probe_cpu_ns = -1;
	ok(through_line(&in, &out, why, sizeof(why)) == 0 && out.probe && out.probe_cpu_ns == -1,
	   "the probe's CPU time not measured: absent, not 0");
	run_free(&out);
	ok(with_field("probe_cpu_ns", NULL, why, sizeof(why)) == 0,
	   "without probe_cpu_ns the probe's figures are read all the same");
	ok(with_field("probe_cal", NULL, why, sizeof(why)) == 0,
	   "without probe_cal a record has no probe (the rest is ignored)");
	ok(with_field("probe_video", "h1/1/1000/1000/1000/0/0/61:1", why, sizeof(why)) == 0,
	   "another valid histogram is accepted");
	{	/* a record from before the profiles: no profile, no work figures */
		struct record old;

		run_to_record(&in, &r);
		record_init(&old, "run");
		for (size_t i = 0; i < r.n; i++)
			if (strcmp(r.kv[i].key, "v") && strcmp(r.kv[i].key, "probe_profile") &&
			    !strstr(r.kv[i].key, "_work_ns"))
				record_set(&old, r.kv[i].key, r.kv[i].val);
		ok(run_from_record(&old, &out, why, sizeof(why)) == 0 &&
		   out.probe_profile == PROBE_FULL &&
		   !memcmp(out.probe_work_ns, probe_profiles[PROBE_FULL].work_ns,
			   sizeof(out.probe_work_ns)),
		   "a record without probe_profile ran the full probe, with its work figures");
		run_free(&out);
		record_free(&old);
		record_free(&r);
	}
	static const struct { const char *key, *val; } bad[] = {
		{ "probe_cal", "0" }, { "probe_cal", "-3" }, { "probe_cal", "x" },
		{ "probe_cal", "nan" }, { "probe_cpu_ns", "-1" },
		{ "probe_audio", NULL }, { "probe_video", "h1/2/1000/1000/1000/0/0/61:1" },
		{ "probe_input", "garbage" }, { "probe_audio_periods", NULL },
		{ "probe_audio_periods", "0" }, { "probe_video_misses", "3" },
		{ "probe_input_misses", "-1" }, { "probe_input_misses", NULL },
		{ "probe_profile", "none" }, { "probe_profile", "heavy" },
		{ "probe_profile", "" }, { "probe_audio_work_ns", NULL },
		{ "probe_video_work_ns", "-5" }, { "probe_input_work_ns", "x" },
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		why[0] = '\0';
		ok(with_field(bad[i].key, bad[i].val, why, sizeof(why)) && why[0],
		   "%s=%s is refused (%s)", bad[i].key, bad[i].val ? bad[i].val : "(missing)", why);
	}
	return tap_done();
}
