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

#include "run/loadset.h"
#include "run/probe.h"
#include "loads/load.h"
#include "lib/proc.h"
#include "lib/util.h"

#define MS INT64_C(1000000)

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
	struct loadset_opts o;	/* the caller's, at nice 0 in contest's session */
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

struct probe *probe_start(const struct loadset_opts *o, enum probe_profile_id profile,
			  double iters_per_us, char *why, size_t len)
{
	struct probe *p = xcalloc(1, sizeof(*p));

	p->o = *o;
	p->o.nice = 0;
	p->o.session = 0;
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
	p->ls = loadset_start(&p->o, &p->c, why, len);
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
