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

#include "load.h"
#include "probe.h"
#include "util.h"

#define MS INT64_C(1000000)

const struct probe_task probe_tasks[PROBE_TASKS] = {
	[PROBE_AUDIO] = { "audio", 5 * MS, 0, 0, 250 * 1000 },
	[PROBE_VIDEO] = { "video", 16666667, 0, 0, 6666667 },
	[PROBE_INPUT] = { "input", 0, 10 * MS, 100 * MS, 1 * MS },
};

struct probe_shared {
	atomic_int recording;	/* the window is open */
	struct probe_stats task[PROBE_TASKS];
};

struct probe {
	struct harness h;	/* the caller's, at nice 0 in contest's session */
	struct load_ctx c;
	struct loadset *ls;
	struct probe_shared *shm;
	double iters_per_us;
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

static int probe_run(struct load_ctx *c, unsigned idx)
{
	struct probe *p = c->priv;
	const struct probe_task *t = &probe_tasks[idx];
	struct probe_stats *st = &p->shm->task[idx];
	struct sched_param sp = { .sched_priority = 0 };
	uint64_t iters = (uint64_t)(p->iters_per_us * (double)t->work_ns / 1000.0);
	uint64_t rng = 0x2545f4914f6cdd1du + idx, x = idx;	/* the same events every run */
	char name[16];
	int64_t d, step;

	snprintf(name, sizeof(name), "probe-%s", t->name);
	prctl(PR_SET_NAME, name);
	if (sched_setscheduler(0, SCHED_OTHER, &sp))
		return load_fail(c, "%s: SCHED_OTHER: %s", name, strerror(errno));
	setpriority(PRIO_PROCESS, 0, 0);	/* contest's own nice when not allowed */
	load_ready(c);
	step = next_step(t, &rng);
	d = mono_ns() + step;
	step = next_step(t, &rng);
	while (!load_stopping()) {
		struct timespec ts = { .tv_sec = d / NS_PER_SEC, .tv_nsec = d % NS_PER_SEC };
		int64_t t0, t1, next = d + step;
		int rec, r;

		r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		if (r == EINTR)
			continue;	/* the stop, or another signal: look again */
		if (r)
			return load_fail(c, "%s: clock_nanosleep: %s", name, strerror(r));
		t0 = mono_ns();
		rec = atomic_load_explicit(&p->shm->recording, memory_order_relaxed);
		x = burn(iters, x);
		t1 = mono_ns();
		if (rec) {
			hist_record(&st->latency, t0 - d);
			st->periods++;
			st->misses += t1 > next;
		}
		/* deadlines that passed while this one's work ran get no work:
		 * each is a period, and a miss; the last one is served now */
		step = next_step(t, &rng);
		while (next + step <= t1) {
			next += step;
			step = next_step(t, &rng);
			if (rec) {
				st->periods++;
				st->misses++;
			}
		}
		d = next;
	}
	burn_sink = x;
	return 0;
}

static const struct load_ops probe_ops = {
	.name = "probe",
	.run = probe_run,
};

/* ---- in the harness ------------------------------------------------------ */

struct probe *probe_start(const struct harness *h, double iters_per_us, char *why,
			  size_t len)
{
	struct probe *p = xcalloc(1, sizeof(*p));

	p->h = *h;
	p->h.load_nice = 0;
	p->h.load_session = 0;
	p->h.phase = NULL;
	p->iters_per_us = iters_per_us;
	p->shm = mmap(NULL, sizeof(*p->shm), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p->shm == MAP_FAILED) {
		whyf(why, len, "probe: mmap: %s", strerror(errno));
		free(p);
		return NULL;
	}
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
	loadset_mark(p->ls);
	atomic_store(&p->shm->recording, 1);
}

void probe_end(struct probe *p)
{
	atomic_store(&p->shm->recording, 0);
}

int probe_check(struct probe *p, char *why, size_t len)
{
	return loadset_check(p->ls, why, len);
}

int probe_stop(struct probe *p, struct probe_stats *out, int64_t *cpu_ns, char *why,
	       size_t len)
{
	int64_t user = 0, sys = 0;
	int ret;

	probe_end(p);
	ret = loadset_stop(p->ls, &user, &sys, why, len);
	/* every task is reaped: its figures are final */
	if (out)
		memcpy(out, p->shm->task, sizeof(p->shm->task));
	if (cpu_ns)
		*cpu_ns = user + sys;
	munmap(p->shm, sizeof(*p->shm));
	free(p);
	return ret;
}

static double ms(int64_t ns)
{
	return (double)ns / 1e6;
}

void probe_print(FILE *f, const struct probe_stats *st)
{
	fprintf(f, "%-8s %7s %8s %8s %8s %8s %8s %6s\n", "Task", "Period", "Wakeups", "p50",
		"p99", "p99.9", "max", "Miss%");
	for (unsigned i = 0; i < PROBE_TASKS; i++) {
		const struct probe_task *t = &probe_tasks[i];
		const struct hist *h = &st[i].latency;
		char period[16];

		if (t->period_ns)
			snprintf(period, sizeof(period), "%.1f", ms(t->period_ns));
		else
			snprintf(period, sizeof(period), "%.0f-%.0f", ms(t->min_ns), ms(t->max_ns));
		fprintf(f, "%-8s %7s %8llu %8.3f %8.3f %8.3f %8.3f %6.1f\n", t->name, period,
			(unsigned long long)h->count, ms(hist_percentile(h, 50)),
			ms(hist_percentile(h, 99)), ms(hist_percentile(h, 99.9)), ms(h->max),
			st[i].periods ? (double)st[i].misses / (double)st[i].periods * 100 : 0.0);
	}
}
