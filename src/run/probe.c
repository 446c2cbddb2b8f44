/* SPDX-License-Identifier: GPL-2.0-or-later */
/* probe.c - the latency probe: light periodic tasks beside a run, timed.
 *
 * Each task is a load process to the harness (loadset_start forks it, the
 * guardian covers its group, loadset_stop reaps it), with a histogram and
 * its counters in a shared page that only that task writes.  The harness
 * reads them once the task has been reaped, so nothing is locked. */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>

#include "run/harness.h"
#include "loads/load.h"
#include "lib/proc.h"
#include "results/record.h"
#include "results/run.h"
#include "run/probe.h"
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

_Static_assert(sizeof(((struct run *)0)->probe_work_ns) == PROBE_TASKS * sizeof(int64_t),
	       "a run keeps a work figure per probe task");

int probe_profile_parse(const char *name)
{
	for (int i = 0; i < PROBE_PROFILES; i++)
		if (!strcmp(name, probe_profiles[i].name))
			return i;
	return -1;
}

/* The window is [begin, end) on CLOCK_MONOTONIC: a deadline in it counts,
 * whenever the task gets to serve it.  Each task publishes the deadline it
 * waits for, so that the harness can let them catch up with the end of the
 * window before it stops them. */
struct probe_shared {
	_Atomic int64_t begin_ns, end_ns;	/* INT64_MAX: not yet */
	_Atomic int64_t waiting_for[PROBE_TASKS];
	struct probe_stats task[PROBE_TASKS];
};

struct probe {
	struct harness h;	/* the caller's, at nice 0 in contest's session */
	struct load_ctx c;
	struct loadset *ls;
	struct probe_shared *shm;
	double iters_per_us;
	int64_t cpu_ns;		/* the tasks' CPU over the window, -1: unknown */
	const struct probe_profile *profile;
};

/* ---- the work ------------------------------------------------------------ */

/* Where the burn's result goes, so that it is computed. */
static volatile uint64_t burn_sink;

/* A serial chain of multiply-adds the compiler can neither fold nor
 * vectorise: the same instructions on every kernel. */
static uint64_t burn(uint64_t iters, uint64_t x)
{
	for (uint64_t i = 0; i < iters; i++) {
		x = x * 6364136223846793005u + 1442695040888963407u;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static int64_t cpu_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (int64_t)ts.tv_sec * NS_PER_SEC + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double probe_calibrate(void)
{
	enum { TRIES = 7 };
	double rate[TRIES];
	uint64_t n = 1 << 16, x = 1;
	int64_t t;

	/* as many iterations as take 10 ms (this also wakes the CPU up) */
	for (;;) {
		t = cpu_now_ns();
		x = burn(n, x);
		t = cpu_now_ns() - t;
		if (t >= 10 * MS || n >= UINT64_C(1) << 40)
			break;
		n *= 2;
	}
	for (int k = 0; k < TRIES; k++) {
		t = cpu_now_ns();
		x = burn(n, x);
		t = cpu_now_ns() - t;
		rate[k] = (double)n / ((double)(t > 0 ? t : 1) / 1000.0);
	}
	qsort(rate, TRIES, sizeof(rate[0]), cmp_double);
	burn_sink = x;
	return rate[TRIES / 2];
}

/* ---- in a task's process ------------------------------------------------- */

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Time to the task's next deadline. */
static int64_t next_step(const struct probe_task *t, uint64_t *rng)
{
	if (t->period_ns)
		return t->period_ns;
	return t->min_ns + (int64_t)(xorshift(rng) % (uint64_t)(t->max_ns - t->min_ns + 1));
}

static int in_window(struct probe_shared *sh, int64_t deadline)
{
	return deadline >= atomic_load_explicit(&sh->begin_ns, memory_order_relaxed) &&
	       deadline < atomic_load_explicit(&sh->end_ns, memory_order_relaxed);
}

static int probe_run(struct load_ctx *c, unsigned idx)
{
	struct probe *p = c->priv;
	const struct probe_task *t = &probe_tasks[idx];
	struct probe_stats *st = &p->shm->task[idx];
	struct sched_param sp = { .sched_priority = 0 };
	uint64_t iters = (uint64_t)(p->iters_per_us * (double)p->profile->work_ns[idx] / 1000.0);
	uint64_t rng = 0x2545f4914f6cdd1du + idx, x = idx;	/* the same events every run */
	char name[16];
	int64_t d, step;

	snprintf(name, sizeof(name), "probe-%s", t->name);
	prctl(PR_SET_NAME, name);
	if (sched_setscheduler(0, SCHED_OTHER, &sp))
		return load_fail(c, "%s: SCHED_OTHER: %s", name, strerror(errno));
	setpriority(PRIO_PROCESS, 0, 0);	/* contest's own nice when not allowed */
	step = next_step(t, &rng);
	d = mono_ns() + step;
	step = next_step(t, &rng);
	atomic_store(&p->shm->waiting_for[idx], d);
	load_ready(c);
	while (!load_stopping()) {
		struct timespec ts = { .tv_sec = d / NS_PER_SEC, .tv_nsec = d % NS_PER_SEC };
		int64_t t0, t1, next = d + step;
		int r;

		r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		if (r == EINTR)
			continue;	/* the stop, or another signal: look again */
		if (r)
			return load_fail(c, "%s: clock_nanosleep: %s", name, strerror(r));
		t0 = mono_ns();
		x = burn(iters, x);
		t1 = mono_ns();
		if (in_window(p->shm, d)) {
			hist_record(&st->latency, t0 - d);
			st->periods++;
			st->misses += t1 > next;
		}
		/* deadlines that passed while this one's work ran get no work:
		 * each is a period, and a miss; the last one is served now */
		step = next_step(t, &rng);
		while (next + step <= t1) {
			if (in_window(p->shm, next)) {
				st->periods++;
				st->misses++;
			}
			next += step;
			step = next_step(t, &rng);
		}
		d = next;
		atomic_store(&p->shm->waiting_for[idx], d);
	}
	burn_sink = x;
	return 0;
}

static const struct load_ops probe_ops = {
	.name = "probe",
	.run = probe_run,
};

/* ---- in the harness ------------------------------------------------------ */

struct probe *probe_start(const struct harness *h, enum probe_profile_id profile,
			  double iters_per_us, char *why, size_t len)
{
	struct probe *p = xcalloc(1, sizeof(*p));

	p->h = *h;
	p->h.load_nice = 0;
	p->h.load_session = 0;
	p->h.phase = NULL;
	p->iters_per_us = iters_per_us;
	p->cpu_ns = -1;
	p->profile = &probe_profiles[profile];
	p->shm = mmap(NULL, sizeof(*p->shm), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p->shm == MAP_FAILED) {
		whyf(why, len, "probe: mmap: %s", strerror(errno));
		free(p);
		return NULL;
	}
	atomic_init(&p->shm->begin_ns, INT64_MAX);
	atomic_init(&p->shm->end_ns, INT64_MAX);
	for (unsigned i = 0; i < PROBE_TASKS; i++)
		hist_init(&p->shm->task[i].latency);
	p->c.ops = &probe_ops;
	p->c.nprocs = PROBE_TASKS;
	p->c.priv = p;
	p->ls = loadset_start(&p->h, &p->c, why, len);
	if (!p->ls) {
		munmap(p->shm, sizeof(*p->shm));
		free(p);
		return NULL;
	}
	return p;
}

void probe_begin(struct probe *p)
{
	/* the window first: it must open when the caller's clock starts */
	atomic_store(&p->shm->begin_ns, mono_ns());
	loadset_mark(p->ls);
}

void probe_end(struct probe *p)
{
	if (atomic_load(&p->shm->begin_ns) != INT64_MAX &&
	    atomic_load(&p->shm->end_ns) == INT64_MAX) {
		atomic_store(&p->shm->end_ns, mono_ns());
		/* the CPU of the window, not of the catch-up after it */
		p->cpu_ns = loadset_cpu_ns(p->ls);
	}
}

/* Let every task serve (or skip) the window's last deadlines: a task that
 * waits for one at or after its end has counted all of its own.  Up to a
 * few seconds, for a machine too busy to run them. */
static void catch_up(struct probe *p)
{
	int64_t end = atomic_load(&p->shm->end_ns), give_up = mono_ns() + 5 * NS_PER_SEC;

	if (end == INT64_MAX)
		return;
	for (unsigned i = 0; i < PROBE_TASKS; i++) {
		char why[256];

		while (atomic_load(&p->shm->waiting_for[i]) < end && mono_ns() < give_up &&
		       !proc_interrupted() && !loadset_check(p->ls, why, sizeof(why)))
			sleep_ns(MS);
	}
}

int probe_check(struct probe *p, char *why, size_t len)
{
	return loadset_check(p->ls, why, len);
}

int probe_stop(struct probe *p, struct probe_stats *out, int64_t *cpu_ns, char *why,
	       size_t len)
{
	int ret;

	probe_end(p);
	catch_up(p);
	ret = loadset_stop(p->ls, why, len);
	/* every task is reaped: its figures are final */
	if (out)
		memcpy(out, p->shm->task, sizeof(p->shm->task));
	if (cpu_ns)
		*cpu_ns = p->cpu_ns;
	munmap(p->shm, sizeof(*p->shm));
	free(p);
	return ret;
}

/* ---- in a record ------------------------------------------------------------- */

void probe_to_record(const struct run *run, struct record *r)
{
	if (!run->probe)
		return;
	record_setf(r, "probe_cal", "%.3f", run->probe_cal);
	if (run->probe_cpu_ns >= 0)
		record_set_i64(r, "probe_cpu_ns", run->probe_cpu_ns);
	record_set(r, "probe_profile", probe_profiles[run->probe_profile].name);
	for (unsigned i = 0; i < PROBE_TASKS; i++) {
		const struct probe_stats *st = &run->probe[i];
		char key[32], *h = hist_encode(&st->latency);

		snprintf(key, sizeof(key), "probe_%s", probe_tasks[i].name);
		record_set(r, key, h);
		free(h);
		snprintf(key, sizeof(key), "probe_%s_periods", probe_tasks[i].name);
		record_set_i64(r, key, (int64_t)st->periods);
		snprintf(key, sizeof(key), "probe_%s_misses", probe_tasks[i].name);
		record_set_i64(r, key, (int64_t)st->misses);
		snprintf(key, sizeof(key), "probe_%s_work_ns", probe_tasks[i].name);
		record_set_i64(r, key, run->probe_work_ns[i]);
	}
}

int probe_from_record(const struct record *r, struct run *run, char *why, size_t len)
{
	struct probe_stats *st;
	const char *pname;
	int64_t work[PROBE_TASKS];
	double cal;
	int64_t cpu = -1;
	int profile = PROBE_FULL;	/* before the profiles, the only probe */

	run->probe = NULL;
	run->probe_profile = PROBE_NONE;
	memset(run->probe_work_ns, 0, sizeof(run->probe_work_ns));
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
	run->probe = st;
	run->probe_profile = profile;
	memcpy(run->probe_work_ns, work, sizeof(work));
	run->probe_cal = cal;
	run->probe_cpu_ns = cpu;
	return 0;
}

static double ms(int64_t ns)
{
	return (double)ns / 1e6;
}

void probe_print(FILE *f, enum probe_profile_id profile, const struct probe_stats *st)
{
	fprintf(f, "%-8s %7s %8s %8s %8s %8s %8s %8s %8s %6s\n", "Task", "Period", "Work",
		"Wakeups", "p50", "p90", "p99", "p99.9", "max", "Miss%");
	for (unsigned i = 0; i < PROBE_TASKS; i++) {
		const struct probe_task *t = &probe_tasks[i];
		const struct hist *h = &st[i].latency;
		char period[16];

		if (t->period_ns)
			snprintf(period, sizeof(period), "%.1f", ms(t->period_ns));
		else
			snprintf(period, sizeof(period), "%.0f-%.0f", ms(t->min_ns), ms(t->max_ns));
		fprintf(f, "%-8s %7s %8.3f %8llu %8.3f %8.3f %8.3f %8.3f %8.3f %6.1f\n", t->name,
			period, ms(probe_profiles[profile].work_ns[i]), (unsigned long long)h->count,
			ms(hist_percentile(h, 50)), ms(hist_percentile(h, 90)),
			ms(hist_percentile(h, 99)), ms(hist_percentile(h, 99.9)), ms(h->max),
			st[i].periods ? (double)st[i].misses / (double)st[i].periods * 100 : 0.0);
	}
}
