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

/* The record keys of struct load_io's fields. */
static const struct {
	const char *key;
	size_t off;
} io_fields[] = {
	{ "load_rchar", offsetof(struct load_io, rchar) },
	{ "load_wchar", offsetof(struct load_io, wchar) },
	{ "load_read_bytes", offsetof(struct load_io, read_bytes) },
	{ "load_write_bytes", offsetof(struct load_io, write_bytes) },
	{ "load_cancelled_write_bytes", offsetof(struct load_io, cancelled) },
};

static int64_t *io_field(struct load_io *io, size_t i)
{
	return (int64_t *)((char *)io + io_fields[i].off);
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
	record_set_i64(r, "elapsed_ns", run->elapsed_ns);
	record_set_i64(r, "user_ns", run->user_ns);
	record_set_i64(r, "sys_ns", run->sys_ns);
	record_setf(r, "load_work", "%.6f", run->work);
	if (run->load_cpu_ns >= 0)
		record_set_i64(r, "load_cpu_ns", run->load_cpu_ns);
	if (run->load_session)
		record_set_i64(r, "load_session", 1);
	if (!isnan(run->idle))
		record_setf(r, "idle", "%.1f", run->idle);
	if (!isnan(run->iowait))
		record_setf(r, "iowait", "%.1f", run->iowait);
	if (run->majflt >= 0)
		record_set_i64(r, "majflt", run->majflt);
	if (run->pswpin >= 0)
		record_set_i64(r, "pswpin", run->pswpin);
	if (run->pswpout >= 0)
		record_set_i64(r, "pswpout", run->pswpout);
	if (run->build_majflt >= 0)
		record_set_i64(r, "build_majflt", run->build_majflt);
	for (size_t i = 0; i < ARRAY_SIZE(io_fields); i++) {
		int64_t v = *(const int64_t *)((const char *)&run->io + io_fields[i].off);

		if (v >= 0)
			record_set_i64(r, io_fields[i].key, v);
	}
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
	run->idle = run->iowait = NAN;
	run->majflt = run->pswpin = run->pswpout = run->build_majflt = -1;
	run->load_cpu_ns = run->probe_cpu_ns = -1;
	for (size_t i = 0; i < ARRAY_SIZE(io_fields); i++)
		*io_field(&run->io, i) = -1;
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

static char *dup_field(const struct record *r, const char *key)
{
	const char *v = record_get(r, key);

	return v ? xstrdup(v) : NULL;
}

int run_from_record(const struct record *r, struct run *run, char *why, size_t len)
{
	static const char *required[] = { "label", "type", "session", "workload", "flush" };
	struct probe_figs pf;
	int64_t round, valid, session = 0;

	run_init(run);
	for (size_t i = 0; i < ARRAY_SIZE(required); i++) {
		const char *v = record_get(r, required[i]);

		if (!v || !*v) {
			snprintf(why, len, "run record without %s", required[i]);
			return -1;
		}
	}
	if (record_get_i64(r, "round", &round) || round < 1 || round > 1000000 ||
	    record_get_i64(r, "valid", &valid) || (valid != 0 && valid != 1) ||
	    record_get_i64(r, "elapsed_ns", &run->elapsed_ns) || run->elapsed_ns < 0 ||
	    record_get_i64(r, "user_ns", &run->user_ns) || run->user_ns < 0 ||
	    record_get_i64(r, "sys_ns", &run->sys_ns) || run->sys_ns < 0 ||
	    record_get_double(r, "load_work", &run->work) || run->work < 0 ||
	    opt_count(r, "load_cpu_ns", &run->load_cpu_ns) ||
	    (!record_get(r, "load_cpu_ns") && load_cpu_v1(r, &run->load_cpu_ns)) ||
	    (record_get(r, "load_session") &&
	     (record_get_i64(r, "load_session", &session) || (session != 0 && session != 1))) ||
	    opt_percent(r, "idle", &run->idle) || opt_percent(r, "iowait", &run->iowait) ||
	    opt_count(r, "majflt", &run->majflt) || opt_count(r, "build_majflt", &run->build_majflt) ||
	    opt_count(r, "pswpin", &run->pswpin) ||
	    opt_count(r, "pswpout", &run->pswpout)) {
		snprintf(why, len, "run record with a missing or bad number");
		return -1;
	}
	for (size_t i = 0; i < ARRAY_SIZE(io_fields); i++) {
		if (opt_count(r, io_fields[i].key, io_field(&run->io, i))) {
			snprintf(why, len, "run record with a bad %s", io_fields[i].key);
			return -1;
		}
	}
	if (valid && run->elapsed_ns == 0) {
		snprintf(why, len, "valid run record with no elapsed time");
		return -1;
	}
	run->round = (int)round;
	run->valid = (int)valid;
	run->load_session = (int)session;
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
