/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run.c - one timed run, as stored: its fields in a "run" record and back. */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/latency.h"
#include "results/record.h"
#include "results/run.h"
#include "lib/util.h"

_Static_assert(sizeof(((struct run *)0)->probe_work_ns) == PROBE_TASKS * sizeof(int64_t),
	       "a run keeps a work figure per probe task");

/* A version 1 record's load CPU (defined below). */
static int load_cpu_v1(const struct record *r, int64_t *out);

/* ---- the report's figures of a run --------------------------------------- */

static double count_or_nan(int64_t v)
{
	return v < 0 ? NAN : (double)v;
}

static double time_s(const struct run *u)
{
	return (double)u->elapsed_ns / (double)NS_PER_SEC;
}

static double cpu_pct(const struct run *u)
{
	return (double)(u->user_ns + u->sys_ns) / (double)u->elapsed_ns * 100;
}

static double loads(const struct run *u)
{
	return u->work;
}

static double lcpu_pct(const struct run *u)
{
	return count_or_nan(u->load_cpu_ns) / (double)u->elapsed_ns * 100;
}

static double loads_per_s(const struct run *u)
{
	return u->work / time_s(u);
}

static double cpu_wait_s(const struct run *u)
{
	return count_or_nan(u->build_delays.wait_ns) / NS_PER_SEC;
}

static double io_wait_s(const struct run *u)
{
	return count_or_nan(u->build_delays.blkio_ns) / NS_PER_SEC;
}

/* ---- the table ------------------------------------------------------------ */

#define RUN(field) offsetof(struct run, field)
/* A figure stored only: key, unit, how, field, record version; the rest. */
#define STORED(k, u, how, field, v, ...) \
	{ .key = k, .unit = u, .store = how, .off = RUN(field), .since = v, __VA_ARGS__ }
/* A figure stored and shown: the mean of the runs, a column (--columns). */
#define SHOWN(k, u, how, field, v, h, w, p) \
	STORED(k, u, how, field, v, .agg = METRIC_MEAN, .head = h, .width = w, .prec = p)

const struct metric run_metrics[] = {
	STORED("elapsed_ns", "ns", METRIC_NS, elapsed_ns, 1),
	STORED("user_ns", "ns", METRIC_NS, user_ns, 1),
	STORED("sys_ns", "ns", METRIC_NS, sys_ns, 1),
	STORED("load_work", "units", METRIC_WORK, work, 1),
	/* version 1 held load_user_ns and load_sys_ns, counted to the reap */
	STORED("load_cpu_ns", "ns", METRIC_COUNT, load_cpu_ns, 2, .before = load_cpu_v1),
	STORED("load_session", NULL, METRIC_FLAG, load_session, 1),
	/* the 2002 columns (tables.c has their layout) */
	{ .key = "time", .unit = "s", .agg = METRIC_SUMMARY, .read = time_s, .kv = "time_s" },
	{ .key = "cpu", .unit = "%", .agg = METRIC_SUMMARY, .read = cpu_pct, .kv = "cpu_pct" },
	{ .key = "loads", .unit = "units", .agg = METRIC_SUMMARY, .read = loads },
	{ .key = "lcpu", .unit = "%", .agg = METRIC_SUMMARY, .read = lcpu_pct, .kv = "lcpu_pct" },
	/* the system figures */
	{ .key = "loads_per_s", .unit = "units/s", .agg = METRIC_MEAN, .read = loads_per_s,
	  .head = "Loads/s", .width = 7, .prec = 2, .flags = METRIC_LOADED },
	{ .key = "cpu_total", .unit = "%", .agg = METRIC_TOTAL, .total_of = { "cpu", "lcpu" },
	  .head = "CPU+L%", .width = 6, .prec = 0 },
	SHOWN("idle", "%", METRIC_PERCENT, idle, 1, "Idle%", 5, 1),
	SHOWN("iowait", "%", METRIC_PERCENT, iowait, 1, "IOwt%", 5, 1),
	SHOWN("majflt", "faults", METRIC_COUNT, majflt, 1, "MajFlt", 6, 0),
	SHOWN("pswpin", "pages", METRIC_COUNT, pswpin, 1, "SwpIn", 5, 0),
	SHOWN("pswpout", "pages", METRIC_COUNT, pswpout, 1, "SwpOut", 6, 0),
	STORED("build_majflt", "faults", METRIC_COUNT, build_majflt, 1),
	/* the load's own I/O */
	STORED("load_rchar", "bytes", METRIC_COUNT, io.rchar, 1, .flags = METRIC_NAMED),
	STORED("load_wchar", "bytes", METRIC_COUNT, io.wchar, 1, .flags = METRIC_NAMED),
	STORED("load_read_bytes", "bytes", METRIC_COUNT, io.read_bytes, 1, .flags = METRIC_NAMED),
	STORED("load_write_bytes", "bytes", METRIC_COUNT, io.write_bytes, 1,
	       .flags = METRIC_NAMED),
	STORED("load_cancelled_write_bytes", "bytes", METRIC_COUNT, io.cancelled, 1,
	       .flags = METRIC_NAMED),
	/* the build's delays, in the tables (report --delays has them all) */
	{ .key = "cpu_wait", .unit = "s", .agg = METRIC_MEAN, .read = cpu_wait_s, .head = "CPUwt",
	  .width = 5, .prec = 1, .flags = METRIC_TABLES },
	{ .key = "io_wait", .unit = "s", .agg = METRIC_MEAN, .read = io_wait_s, .head = "IOdly",
	  .width = 5, .prec = 1, .flags = METRIC_TABLES },
};

#undef SHOWN
#undef STORED
#undef RUN

const size_t run_nmetrics = ARRAY_SIZE(run_metrics);
_Static_assert(ARRAY_SIZE(run_metrics) <= RUN_METRICS_MAX, "RUN_METRICS_MAX holds every figure");

const struct metric *run_metric(const char *key)
{
	for (size_t i = 0; i < run_nmetrics; i++)
		if (!strcmp(run_metrics[i].key, key))
			return &run_metrics[i];
	return NULL;
}

static int64_t *i64_at(const struct run *run, const struct metric *m)
{
	return (int64_t *)((char *)run + m->off);
}

static double *double_at(const struct run *run, const struct metric *m)
{
	return (double *)((char *)run + m->off);
}

static int *int_at(const struct run *run, const struct metric *m)
{
	return (int *)((char *)run + m->off);
}

double run_metric_value(const struct metric *m, const struct run *u)
{
	if (m->read)
		return m->read(u);
	switch (m->store) {
	case METRIC_NS:
	case METRIC_COUNT:
		return count_or_nan(*i64_at(u, m));
	case METRIC_WORK:
	case METRIC_PERCENT:
		return *double_at(u, m);
	case METRIC_FLAG:
		return *int_at(u, m);
	case METRIC_DERIVED:
		break;
	}
	return NAN;
}

/* Figure m of run into its record, unless it is absent. */
static void metric_to_record(const struct metric *m, const struct run *run, struct record *r)
{
	switch (m->store) {
	case METRIC_NS:
		record_set_i64(r, m->key, *i64_at(run, m));
		break;
	case METRIC_COUNT:
		if (*i64_at(run, m) >= 0)
			record_set_i64(r, m->key, *i64_at(run, m));
		break;
	case METRIC_WORK:
		record_setf(r, m->key, "%.6f", *double_at(run, m));
		break;
	case METRIC_PERCENT:
		if (!isnan(*double_at(run, m)))
			record_setf(r, m->key, "%.1f", *double_at(run, m));
		break;
	case METRIC_FLAG:
		if (*int_at(run, m))
			record_set_i64(r, m->key, 1);
		break;
	case METRIC_DERIVED:
		break;
	}
}

/* Figure m as absent. */
static void metric_absent(const struct metric *m, struct run *run)
{
	if (m->store == METRIC_COUNT)
		*i64_at(run, m) = -1;
	else if (m->store == METRIC_PERCENT)
		*double_at(run, m) = NAN;
}

/* struct task_delays under "build_delay_KEY" and "load_delay_KEY". */
static const struct {
	const char *key;
	size_t off;
} delay_fields[] = {
#define DF(f) { #f, offsetof(struct task_delays, f) }
	DF(tasks), DF(bad), DF(cpu_ns), DF(wait_ns), DF(wait_count), DF(blkio_ns), DF(blkio_count),
	DF(swapin_ns), DF(swapin_count), DF(reclaim_ns), DF(reclaim_count), DF(thrash_ns),
	DF(thrash_count), DF(compact_ns), DF(compact_count),
#undef DF
};

static const char *const psi_keys[PSI_FIGS] = {
	"psi_cpu_some_us", "psi_cpu_full_us", "psi_io_some_us", "psi_io_full_us",
	"psi_memory_some_us", "psi_memory_full_us",
};

static int64_t *delay_field(struct task_delays *d, size_t i)
{
	return (int64_t *)((char *)d + delay_fields[i].off);
}

static void delays_to_record(const struct run *run, struct record *r)
{
	const struct task_delays *d[] = { &run->build_delays, &run->load_delays };
	const char *side[] = { "build", "load" };

	for (size_t s = 0; s < ARRAY_SIZE(d); s++)
		for (size_t i = 0; i < ARRAY_SIZE(delay_fields); i++) {
			int64_t v = *delay_field((struct task_delays *)d[s], i);
			char *key = xasprintf("%s_delay_%s", side[s], delay_fields[i].key);

			if (v >= 0)
				record_set_i64(r, key, v);
			free(key);
		}
	if (run->delays_absent)
		record_set(r, "delays_absent", run->delays_absent);
	if (run->psi_scope) {
		record_set(r, "psi_scope", run->psi_scope);
		for (size_t i = 0; i < PSI_FIGS; i++)
			if (run->psi_us[i] >= 0)
				record_set_i64(r, psi_keys[i], run->psi_us[i]);
	}
	if (run->psi_absent)
		record_set(r, "psi_absent", run->psi_absent);
}

static int opt_count(const struct record *r, const char *key, int64_t *out);
static char *dup_field(const struct record *r, const char *key);

static int delays_from_record(const struct record *r, struct run *run, char *why, size_t len)
{
	struct task_delays *d[] = { &run->build_delays, &run->load_delays };
	const char *side[] = { "build", "load" };
	const char *scope = record_get(r, "psi_scope");

	for (size_t s = 0; s < ARRAY_SIZE(d); s++)
		for (size_t i = 0; i < ARRAY_SIZE(delay_fields); i++) {
			char *key = xasprintf("%s_delay_%s", side[s], delay_fields[i].key);
			int bad = opt_count(r, key, delay_field(d[s], i));

			if (bad)
				snprintf(why, len, "run record with a bad %s", key);
			free(key);
			if (bad)
				return -1;
		}
	if (scope && strcmp(scope, "cgroup") && strcmp(scope, "machine")) {
		snprintf(why, len, "run record with a bad psi_scope");
		return -1;
	}
	for (size_t i = 0; i < PSI_FIGS; i++)
		if (opt_count(r, psi_keys[i], &run->psi_us[i])) {
			snprintf(why, len, "run record with a bad %s", psi_keys[i]);
			return -1;
		}
	run->psi_scope = dup_field(r, "psi_scope");
	run->psi_absent = dup_field(r, "psi_absent");
	run->delays_absent = dup_field(r, "delays_absent");
	return 0;
}

void run_to_record(const struct run *run, struct record *r)
{
	struct probe_figs pf = {
		.stats = run->probe, .profile = run->probe_profile, .cal = run->probe_cal,
		.cpu_ns = run->probe_cpu_ns,
	};

	memcpy(pf.work_ns, run->probe_work_ns, sizeof(pf.work_ns));
	record_init(r, "run");
	record_set(r, "label", run->label);
	record_set(r, "session", run->session);
	record_set(r, "type", run->type);
	record_set_i64(r, "round", run->round);
	record_set(r, "workload", run->workload);
	record_set(r, "flush", run->flush);
	record_set_i64(r, "valid", run->valid);
	if (!run->valid)
		record_set(r, "reason", run->reason ? run->reason : "unknown");
	if (run->note)
		record_set(r, RUN_NOTE_KEY, run->note);
	for (size_t i = 0; i < run_nmetrics; i++)
		metric_to_record(&run_metrics[i], run, r);
	for (size_t i = 0; i < run->params.n; i++) {
		char *key = xasprintf(RUN_PARAM_PREFIX "%s", run->params.kv[i].key);

		record_set(r, key, run->params.kv[i].val);
		free(key);
	}
	delays_to_record(run, r);
	probe_to_record(&pf, r);
}

void run_sysfig_absent(struct run *run)
{
	for (size_t i = 0; i < run_nmetrics; i++)
		metric_absent(&run_metrics[i], run);
	run->probe_cpu_ns = -1;
	for (size_t i = 0; i < ARRAY_SIZE(delay_fields); i++)
		*delay_field(&run->build_delays, i) = *delay_field(&run->load_delays, i) = -1;
	for (size_t i = 0; i < PSI_FIGS; i++)
		run->psi_us[i] = -1;
}

void run_init(struct run *run)
{
	memset(run, 0, sizeof(*run));
	run_sysfig_absent(run);
}

/* An optional percentage: NaN when absent, -1 when present but bad. */
static int opt_percent(const struct record *r, const char *key, double *out)
{
	*out = NAN;
	if (!record_get(r, key))
		return 0;
	return record_get_double(r, key, out) || *out < 0 || *out > 100 ? -1 : 0;
}

/* An optional count: -1 when absent; the function's -1 when present but bad. */
static int opt_count(const struct record *r, const char *key, int64_t *out)
{
	*out = -1;
	if (!record_get(r, key))
		return 0;
	return record_get_i64(r, key, out) || *out < 0 ? -1 : 0;
}

/* A version 1 record's load CPU: load_user_ns + load_sys_ns, absent (-1)
 * without them; -1 when they are bad. */
static int load_cpu_v1(const struct record *r, int64_t *out)
{
	int64_t user, sys;

	if (!record_get(r, "load_user_ns") && !record_get(r, "load_sys_ns"))
		return 0;
	if (opt_count(r, "load_user_ns", &user) || opt_count(r, "load_sys_ns", &sys) ||
	    user < 0 || sys < 0)
		return -1;
	*out = user + sys;
	return 0;
}

/* Figure m from record r into run: 0, or -1 when it is bad or, required,
 * missing. */
static int metric_from_record(const struct metric *m, const struct record *r, struct run *run)
{
	int64_t flag = 0;

	switch (m->store) {
	case METRIC_NS:
		return record_get_i64(r, m->key, i64_at(run, m)) || *i64_at(run, m) < 0 ? -1 : 0;
	case METRIC_WORK:
		return record_get_double(r, m->key, double_at(run, m)) || *double_at(run, m) < 0 ?
		       -1 : 0;
	case METRIC_COUNT:
		if (opt_count(r, m->key, i64_at(run, m)))
			return -1;
		return m->before && !record_get(r, m->key) ? m->before(r, i64_at(run, m)) : 0;
	case METRIC_PERCENT:
		return opt_percent(r, m->key, double_at(run, m));
	case METRIC_FLAG:
		if (record_get(r, m->key) &&
		    (record_get_i64(r, m->key, &flag) || (flag != 0 && flag != 1)))
			return -1;
		*int_at(run, m) = (int)flag;
		return 0;
	case METRIC_DERIVED:
		break;
	}
	return 0;
}

static char *dup_field(const struct record *r, const char *key)
{
	const char *v = record_get(r, key);

	return v ? xstrdup(v) : NULL;
}

int run_from_record(const struct record *r, struct run *run, char *why, size_t len)
{
	static const char *required[] = { "label", "type", "session", "workload", "flush" };
	struct probe_figs pf;
	int64_t round, valid;

	run_init(run);
	for (size_t i = 0; i < ARRAY_SIZE(required); i++) {
		const char *v = record_get(r, required[i]);

		if (!v || !*v) {
			snprintf(why, len, "run record without %s", required[i]);
			return -1;
		}
	}
	if (record_get_i64(r, "round", &round) || round < 1 || round > 1000000 ||
	    record_get_i64(r, "valid", &valid) || (valid != 0 && valid != 1))
		return whyf(why, len, "run record with a missing or bad number");
	for (size_t i = 0; i < run_nmetrics; i++)
		if (metric_from_record(&run_metrics[i], r, run))
			return run_metrics[i].flags & METRIC_NAMED ?
			       whyf(why, len, "run record with a bad %s", run_metrics[i].key) :
			       whyf(why, len, "run record with a missing or bad number");
	if (valid && run->elapsed_ns == 0) {
		snprintf(why, len, "valid run record with no elapsed time");
		return -1;
	}
	run->round = (int)round;
	run->valid = (int)valid;
	run->label = dup_field(r, "label");
	run->type = dup_field(r, "type");
	run->session = dup_field(r, "session");
	run->workload = dup_field(r, "workload");
	run->flush = dup_field(r, "flush");
	run->reason = dup_field(r, "reason");
	run->note = dup_field(r, RUN_NOTE_KEY);
	for (size_t i = 0; i < r->n; i++) {
		const char *key = r->kv[i].key;

		if (!strncmp(key, RUN_PARAM_PREFIX, strlen(RUN_PARAM_PREFIX)) &&
		    key[strlen(RUN_PARAM_PREFIX)] && strcmp(key, RUN_NOTE_KEY))
			record_set(&run->params, key + strlen(RUN_PARAM_PREFIX), r->kv[i].val);
	}
	if (delays_from_record(r, run, why, len) || probe_from_record(r, &pf, why, len)) {
		run_free(run);
		return -1;
	}
	run->probe = pf.stats;
	run->probe_profile = pf.profile;
	memcpy(run->probe_work_ns, pf.work_ns, sizeof(run->probe_work_ns));
	run->probe_cal = pf.cal;
	run->probe_cpu_ns = pf.cpu_ns;
	return 0;
}

void run_free(struct run *run)
{
	free(run->label);
	free(run->type);
	free(run->session);
	free(run->workload);
	free(run->flush);
	free(run->reason);
	free(run->note);
	record_free(&run->params);
	free(run->probe);
	free(run->host);
	free(run->kernel);
	free(run->delays_absent);
	free(run->psi_scope);
	free(run->psi_absent);
	run_init(run);
}
