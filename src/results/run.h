/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run.h - one timed run, as stored, and its "run" record. */
#ifndef CONTEST_RUN_H
#define CONTEST_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "results/record.h"

struct probe_stats;

/* A load's own I/O over the timed run, summed over its processes, from
 * /proc/PID/io (bytes; -1 when it could not be read, and in records written
 * before it was): read(2)/write(2) bytes, cache or not (rchar, wchar); what
 * the processes made the block layer read, and dirtied for it to write
 * (read_bytes, write_bytes); dirtied bytes whose write was cancelled because
 * the file was truncated or removed before writeback (cancelled). */
struct load_io {
	int64_t rchar, wchar, read_bytes, write_bytes, cancelled;
};

/* Delay accounting of a set of tasks over the timed run (taskstats.c):
 * nanoseconds and counts summed over the tasks, every field -1 when absent
 * (and in records written before they were).  cpu_ns is the time they ran
 * (the scheduler's sum_exec_runtime); wait the time they were runnable but
 * waited for a CPU; blkio for block I/O; swapin for swap-in; reclaim in
 * direct reclaim (freepages); thrash for thrashing (refaults of the working
 * set); compact in direct compaction.  bad: tasks with a delay longer
 * than their life, which is left out (taskstats.c). */
struct task_delays {
	int64_t tasks, bad, cpu_ns, wait_ns, wait_count, blkio_ns, blkio_count, swapin_ns,
		swapin_count, reclaim_ns, reclaim_count, thrash_ns, thrash_count,
		compact_ns, compact_count;
};

/* Pressure stall information over the timed run: microseconds of cpu, io
 * and memory `some` and `full` (in that order); -1 absent. */
#define PSI_FIGS 6

/* One timed run, as stored. */
struct run {
	char *label;
	char *type;      /* run type name */
	char *session;   /* the session it belongs to */
	char *workload;  /* workload identity */
	char *flush;     /* drop_caches, fadvise or none */
	char *reason;    /* why it is invalid, or NULL */
	char *note;      /* what the load met in a valid run (starved, memory at
	                  * its floor, a full disk), or NULL; load.note= */
	int round;
	int valid;
	int64_t elapsed_ns, user_ns, sys_ns;
	double work;     /* load units done during the timed workload */
	/* CPU time (user + system) of the load's processes during the timed
	 * workload; -1 when it could not be measured.  Records of version 1
	 * held load_user_ns and load_sys_ns instead, counted to the reap. */
	int64_t load_cpu_ns;
	int load_session; /* the loads ran in a session of their own */
	/* The whole machine over the timed run, from /proc/stat and
	 * /proc/vmstat deltas; NaN or -1 when they could not be read (and in
	 * records written before they were). */
	double idle, iowait;            /* % of all CPUs' time, one decimal */
	int64_t majflt, pswpin, pswpout; /* major faults, pages swapped in, out */
	int64_t build_majflt;            /* the workload's own major faults (rusage); -1 absent */
	struct load_io io;              /* the load's processes, -1 when absent */
	/* The sizes the run's load used (load_ops.params), under their plain
	 * names; stored as RUN_PARAM_PREFIX NAME=VALUE.  Empty without a load. */
	struct record params;
	/* The latency probe's tasks over the timed run (results/latency.h), allocated,
	 * or NULL when it did not run; its profile (enum probe_profile_id,
	 * PROBE_NONE = 0 without), each task's work per period (ns; by
	 * PROBE_TASKS's order: audio, video, input), calibration and CPU
	 * time. */
	struct probe_stats *probe;
	int probe_profile;
	int64_t probe_work_ns[3];
	double probe_cal;
	int64_t probe_cpu_ns;	/* over the window; -1 when not measured */
	/* Where the build's and the load's time went (taskstats.c), or absent
	 * with the reason in delays_absent (NULL when not measured at all). */
	struct task_delays build_delays, load_delays;
	char *delays_absent;
	/* PSI of the build's cgroup ("cgroup") or the whole machine
	 * ("machine"), or absent (psi_scope NULL) with the reason in
	 * psi_absent. */
	int64_t psi_us[PSI_FIGS];
	char *psi_scope, *psi_absent;
	/* The machine it ran on, "HOSTNAME\nCPU MODEL" from its session's
	 * environment record, "" without one: set by store_read(), not stored. */
	char *host;
	/* The kernel it ran on, "RELEASE\nVERSION" (uname -r, uname -v) from
	 * the same record, "" without one: set by store_read(), not stored. */
	char *kernel;
};

/* ---- the measured figures of a run: one table --------------------------- */

/* How a figure is kept in struct run and stored in its record, and its value
 * when absent (not measured, or a record written before it was). */
enum metric_store {
	METRIC_DERIVED,	/* not stored: read from the run's other fields */
	METRIC_NS,	/* int64_t >= 0, always stored */
	METRIC_WORK,	/* double >= 0, always stored, six decimals */
	METRIC_COUNT,	/* int64_t >= 0, -1 absent (not stored) */
	METRIC_PERCENT,	/* double 0..100, one decimal, NaN absent (not stored) */
	METRIC_FLAG,	/* int 0 or 1, stored only when 1 */
};

/* How the report sums a figure up over the runs of a cell. */
enum metric_agg {
	METRIC_STORED,	/* it does not: stored only */
	METRIC_SUMMARY,	/* mean, sd, min, median, max (struct summary) of the
			 * runs that have it: the cell's own, in the table's order */
	METRIC_MEAN,	/* the mean of the runs that have it; NaN when none has */
	METRIC_TOTAL,	/* the sum of the means of the two summaries total_of names */
};

/* A figure the report shows in the run types with a load only (NaN in
 * the others). */
#define METRIC_LOADED 0x1
/* A figure of the tables only (--columns), not of csv, json and keyvalue. */
#define METRIC_TABLES 0x2
/* A bad value is named ("run record with a bad KEY"), not "a missing or
 * bad number". */
#define METRIC_NAMED 0x4

/* One figure: a row of run_metrics[]. */
struct metric {
	const char *key;	/* its record key, and its name in csv, json and
				 * keyvalue (kv there where it is set) */
	const char *unit;
	enum metric_store store;
	size_t off;		/* where struct run keeps it (stored ones) */
	int since;		/* the record version it appeared in */
	/* records before since held it otherwise: its value from them (0), or
	 * -1 when bad; NULL: absent there */
	int (*before)(const struct record *r, int64_t *out);
	enum metric_agg agg;
	/* its value in one run for the report, NaN when absent; NULL: the
	 * stored value as a double */
	double (*read)(const struct run *u);
	const char *total_of[2];	/* METRIC_TOTAL: the summaries' keys */
	const char *head;	/* its column in the tables (--columns), or NULL */
	int width, prec;	/* the column's least width; decimals */
	const char *kv;		/* its keyvalue key where it is not key */
	unsigned flags;		/* METRIC_LOADED, METRIC_TABLES, METRIC_NAMED */
};

/* Every figure: the stored ones in their record order (the other fields of
 * a run record, the delays, PSI and probe excepted), the report's as csv,
 * json, keyvalue and the tables order them. */
extern const struct metric run_metrics[];
extern const size_t run_nmetrics;
/* At least run_nmetrics (the report keeps a figure a row). */
#define RUN_METRICS_MAX 32

/* The row of key, or NULL. */
const struct metric *run_metric(const char *key);
/* Figure m's value in run u, as the report reads it: NaN when absent. */
double run_metric_value(const struct metric *m, const struct run *u);

#define RUN_PARAM_PREFIX "load."
/* The key of run.note: under the prefix, but not a size of the load. */
#define RUN_NOTE_KEY RUN_PARAM_PREFIX "note"

/* Zero, with the system figures absent. */
void run_init(struct run *run);
/* Only the system figures, the load's CPU and I/O, the delays and PSI absent. */
void run_sysfig_absent(struct run *run);
void run_to_record(const struct run *run, struct record *r);
/* Returns -1 with the reason in why when a field is missing or bad.  The
 * system figures and load's I/O, load_session and the probe are optional
 * (absent: not measured, and 0). */
int run_from_record(const struct record *r, struct run *run, char *why, size_t len);
void run_free(struct run *run);

#endif
