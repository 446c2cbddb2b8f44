/* SPDX-License-Identifier: GPL-2.0-or-later */
/* harness.c - one timed run: flush, start the load, time the workload, stop.
 *
 * Load processes are forked here, share one process group, get
 * PR_SET_PDEATHSIG and oom_score_adj 1000, and report readiness over a pipe
 * and work through a shared page.  The run's figures come from the timed
 * window only: work and CPU are sampled when the build starts and ends. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/flush.h"
#include "lib/fsutil.h"
#include "run/harness.h"
#include "run/probe.h"
#include "lib/proc.h"
#include "run/taskstats.h"
#include "lib/util.h"

/* The part of a load process the harness and the process share. */
struct load_proc {
	_Atomic uint64_t work;	/* bits of a double: units done */
	char why[512];		/* set by load_fail() */
};

struct proc_state {
	pid_t pid;
	int reaped;
	int status;
	struct rusage ru;
	int64_t cpu0_ns;	   /* CPU at loadset_mark(), -1 when unreadable */
	struct load_io io0;	   /* I/O at loadset_mark(), -1 when unreadable */
};

struct loadset {
	struct harness *h;
	struct load_ctx *c;
	struct load_proc *shm;
	struct proc_state *ps;
	unsigned n;
	pid_t pgid;
};

/* ---- inside a load process ---------------------------------------------- */

static volatile sig_atomic_t child_stop;
static int child_ready_fd = -1;

static void on_term(int sig)
{
	(void)sig;
	child_stop = 1;
}

void load_ready(struct load_ctx *c)
{
	(void)c;
	if (child_ready_fd >= 0) {
		char b = 'r';

		while (write(child_ready_fd, &b, 1) < 0 && errno == EINTR)
			;
		close(child_ready_fd);
		child_ready_fd = -1;
	}
}

int load_stopping(void)
{
	return child_stop;
}

void load_progress(struct load_ctx *c, double units)
{
	uint64_t bits;

	memcpy(&bits, &units, sizeof(bits));
	atomic_store_explicit(&c->self->work, bits, memory_order_relaxed);
}

int load_fail(struct load_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->self->why, sizeof(c->self->why), fmt, ap);
	va_end(ap);
	return -1;
}

/* ---- in the harness ------------------------------------------------------ */

void load_param_text(struct record *r, const char *name, const char *text)
{
	record_set(r, name, text);
}

void load_param(struct record *r, const char *name, uint64_t value)
{
	record_setf(r, name, "%llu", (unsigned long long)value);
}

static void child_main(struct loadset *ls, unsigned idx, int ready_fd)
{
	struct sigaction sa;
	int rc;

	child_ready_fd = ready_fd;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;	/* no SA_RESTART: blocking calls return EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	/* not fatal: the kernel may not allow it */
	(void)!write_small("/proc/self/oom_score_adj", "1000");
	if (ls->h->load_nice) {
		setpriority(PRIO_PROCESS, 0, ls->h->load_nice);
	}
	prctl(PR_SET_NAME, ls->c->ops->name);	/* ps and pgrep show which load */
	ls->c->self = &ls->shm[idx];
	rc = ls->c->ops->run(ls->c, idx);
	if (rc && !ls->shm[idx].why[0])
		snprintf(ls->shm[idx].why, sizeof(ls->shm[idx].why), "failed");
	_exit(rc ? 1 : 0);
}

/* ---- in the harness ------------------------------------------------------ */

static void describe_death(struct loadset *ls, unsigned i, char *why, size_t len)
{
	char how[64];

	proc_describe(ls->ps[i].status, how, sizeof(how));
	if (ls->shm[i].why[0])
		snprintf(why, len, "%s process %u: %s", ls->c->ops->name, i, ls->shm[i].why);
	else
		snprintf(why, len, "%s process %u (pid %d) died: %s", ls->c->ops->name, i,
			 (int)ls->ps[i].pid, how);
}

int loadset_check(struct loadset *ls, char *why, size_t len)
{
	for (unsigned i = 0; i < ls->n; i++) {
		struct proc_state *p = &ls->ps[i];

		if (!p->reaped && wait4(p->pid, &p->status, WNOHANG, &p->ru) == p->pid)
			p->reaped = 1;
		if (p->reaped) {
			describe_death(ls, i, why, len);
			return -1;
		}
	}
	return 0;
}

static int wait_ready(struct loadset *ls, int fd, char *why, size_t len)
{
	int64_t deadline = mono_ns() + ls->h->ready_timeout_ns;
	unsigned ready = 0;

	while (ready < ls->n) {
		char buf[64];
		int r = proc_wait_fd(fd, NS_PER_SEC / 10);

		if (r < 0) {
			snprintf(why, len, "interrupted");
			return -1;
		}
		proc_tick();
		if (r > 0) {
			ssize_t n = read(fd, buf, sizeof(buf));

			if (n > 0)
				ready += (unsigned)n;
		}
		if (ready < ls->n && loadset_check(ls, why, len))
			return -1;
		if (mono_ns() > deadline) {
			snprintf(why, len, "%s: only %u of %u processes ready after %.0f s",
				 ls->c->ops->name, ready, ls->n,
				 (double)ls->h->ready_timeout_ns / NS_PER_SEC);
			return -1;
		}
	}
	return 0;
}

static void loadset_free(struct loadset *ls)
{
	if (ls->shm)
		munmap(ls->shm, ls->n * sizeof(*ls->shm));
	free(ls->ps);
	free(ls);
}

/* Every process forked by contest into one new process group. */
static int fork_in_group(struct loadset *ls, const int ready[2], char *why, size_t len)
{
	for (unsigned i = 0; i < ls->n; i++) {
		pid_t pid = proc_fork(ls->pgid);

		if (pid == 0) {
			close(ready[0]);
			child_main(ls, i, ready[1]);
		}
		if (pid < 0)
			return whyf(why, len, "fork: %s", strerror(errno));
		ls->ps[i].pid = pid;
		if (!ls->pgid)
			ls->pgid = pid;
	}
	return 0;
}

struct sibling_args {
	struct loadset *ls;
	unsigned idx;
	int ready_fd, pid_fd;
};

static int sibling_main(void *arg)
{
	struct sibling_args *a = arg;

	close(a->pid_fd);
	child_main(a->ls, a->idx, a->ready_fd);
	return 1;
}

/* --load-session: process 0 leads a new session (with autogroup on, a
 * scheduling group of its own: as if the load were started from another
 * terminal) and makes the others inside it.  They are contest's children
 * all the same (proc_fork_sibling), so everything after this is as without
 * a session: wait4, rusage, the stop, and the guardian's kill of the group
 * led by process 0.  Process 0 sends their pids back over a pipe. */
static int fork_in_session(struct loadset *ls, const int ready[2], char *why, size_t len)
{
	int pfd[2], err = 0;
	pid_t pid;

	if (pipe2(pfd, O_CLOEXEC))
		return whyf(why, len, "pipe: %s", strerror(errno));
	pid = proc_fork_session();
	if (pid == 0) {
		close(ready[0]);
		close(pfd[0]);
		for (unsigned i = 1; i < ls->n; i++) {
			struct sibling_args a = { ls, i, ready[1], pfd[1] };
			pid_t sib = proc_fork_sibling(sibling_main, &a);

			if (sib < 0)
				sib = -errno;
#ifdef CONTEST_TEST_HOOKS
			/* tests: process 0 dies with a sibling started, its pid unsent */
			if (sib > 0 && getenv("CONTEST_HOOK_SESSION_DIES"))
				_exit(1);
#endif
			if (write_all(pfd[1], &sib, sizeof(sib)) || sib < 0)
				_exit(1);
		}
		close(pfd[1]);
		child_main(ls, 0, ready[1]);
	}
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		return whyf(why, len, "fork: %s", strerror(errno));
	}
	ls->ps[0].pid = ls->pgid = pid;
	for (unsigned i = 1; i < ls->n && !err; i++) {
		pid_t sib = 0;
		size_t have = 0;

		/* a stop signal waits: these processes must be known to be stopped */
		while (have < sizeof(sib)) {
			ssize_t r = read(pfd[0], (char *)&sib + have, sizeof(sib) - have);

			if (r < 0 && errno == EINTR)
				continue;
			if (r <= 0)
				break;
			have += (size_t)r;
		}
		if (have < sizeof(sib))
			err = -1;
		else if (sib < 0)
			err = (int)-sib;
		else
			ls->ps[i].pid = sib;
	}
	close(pfd[0]);
	if (!err)
		return 0;
	/* siblings whose pid never came back too: every process of the
	 * session is contest's child, killed and reaped here */
	kill(-pid, SIGKILL);
	while (waitpid(-pid, NULL, 0) > 0 || errno == EINTR)
		;
	for (unsigned i = 0; i < ls->n; i++)
		ls->ps[i].reaped = ls->ps[i].pid > 0;
	return whyf(why, len, "starting %s in a session of its own: %s", ls->c->ops->name,
		    err > 0 ? strerror(err) : "its first process died");
}

struct loadset *loadset_start(struct harness *h, struct load_ctx *c, char *why, size_t len)
{
	struct loadset *ls = xcalloc(1, sizeof(*ls));
	int pfd[2];

	ls->h = h;
	ls->c = c;
	ls->n = c->nprocs ? c->nprocs : 1;
	ls->ps = xcalloc(ls->n, sizeof(*ls->ps));
	for (unsigned i = 0; i < ls->n; i++)
		ls->ps[i].cpu0_ns = -1;	/* until loadset_mark() */
	ls->shm = mmap(NULL, ls->n * sizeof(*ls->shm), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ls->shm == MAP_FAILED) {
		ls->shm = NULL;
		snprintf(why, len, "mmap: %s", strerror(errno));
		loadset_free(ls);
		return NULL;
	}
	if (pipe2(pfd, O_CLOEXEC)) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		loadset_free(ls);
		return NULL;
	}
	if (h->load_session ? fork_in_session(ls, pfd, why, len) :
			      fork_in_group(ls, pfd, why, len)) {
		close(pfd[0]);
		close(pfd[1]);
		loadset_stop(ls, NULL, 0);
		return NULL;
	}
	close(pfd[1]);
	test_hook("spawn");
	if (wait_ready(ls, pfd[0], why, len)) {
		close(pfd[0]);
		loadset_stop(ls, NULL, 0);
		return NULL;
	}
	close(pfd[0]);
	return ls;
}

double loadset_work(const struct loadset *ls)
{
	double sum = 0;

	for (unsigned i = 0; i < ls->n; i++) {
		uint64_t bits = atomic_load_explicit(&ls->shm[i].work, memory_order_relaxed);
		double v;

		memcpy(&v, &bits, sizeof(v));
		sum += v;
	}
	return sum;
}

/* The CPU time (user + system, every thread) of a live process, in ns,
 * from its CPU-time clock: the scheduler's own count, read the same way at
 * both ends of a window.  -1 when it cannot be read (the process is gone). */
static int64_t proc_cpu_ns(pid_t pid)
{
	struct timespec ts;
	clockid_t clk;

	if (clock_getcpuclockid(pid, &clk) || clock_gettime(clk, &ts))
		return -1;
	return (int64_t)ts.tv_sec * NS_PER_SEC + ts.tv_nsec;
}

/* The I/O counters of a live process, from /proc/PID/io: 0, or -1 when
 * they cannot be read (no task I/O accounting, or the process is gone). */
static int proc_io(pid_t pid, struct load_io *io)
{
	static const char *const keys[] = {
		"rchar", "wchar", "read_bytes", "write_bytes", "cancelled_write_bytes",
	};
	int64_t *out[] = { &io->rchar, &io->wchar, &io->read_bytes, &io->write_bytes,
			   &io->cancelled };
	char path[64], buf[1024], key[32], *save = NULL;
	unsigned found = 0;
	long long v;

	snprintf(path, sizeof(path), "/proc/%d/io", (int)pid);
	if (read_small(path, buf, sizeof(buf)))
		return -1;
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (sscanf(line, "%31[^:]: %lld", key, &v) != 2 || v < 0)
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(keys); k++) {
			if (!strcmp(key, keys[k])) {
				*out[k] = v;
				found |= 1u << k;
			}
		}
	}
	return found == (1u << ARRAY_SIZE(keys)) - 1 ? 0 : -1;
}

void loadset_mark(struct loadset *ls)
{
	for (unsigned i = 0; i < ls->n; i++) {
		struct proc_state *p = &ls->ps[i];

		p->cpu0_ns = p->reaped ? -1 : proc_cpu_ns(p->pid);
		if (p->reaped)
			continue;
		if (proc_io(p->pid, &p->io0))
			p->io0.rchar = -1;
	}
}

int loadset_io(const struct loadset *ls, struct load_io *io)
{
	struct load_io sum = { 0, 0, 0, 0, 0 };

	for (unsigned i = 0; i < ls->n; i++) {
		const struct proc_state *p = &ls->ps[i];
		struct load_io now;

		if (p->reaped || p->io0.rchar < 0 || proc_io(p->pid, &now)) {
			*io = (struct load_io){ -1, -1, -1, -1, -1 };
			return -1;
		}
		sum.rchar += now.rchar - p->io0.rchar;
		sum.wchar += now.wchar - p->io0.wchar;
		sum.read_bytes += now.read_bytes - p->io0.read_bytes;
		sum.write_bytes += now.write_bytes - p->io0.write_bytes;
		sum.cancelled += now.cancelled - p->io0.cancelled;
	}
	*io = sum;
	return 0;
}

int64_t loadset_cpu_ns(const struct loadset *ls)
{
	int64_t sum = 0;

	for (unsigned i = 0; i < ls->n; i++) {
		const struct proc_state *p = &ls->ps[i];
		int64_t now = p->reaped ? -1 : proc_cpu_ns(p->pid);

		if (p->cpu0_ns < 0 || now < p->cpu0_ns)
			return -1;
		sum += now - p->cpu0_ns;
	}
	return sum;
}

int loadset_stop(struct loadset *ls, char *why, size_t len)
{
	int64_t deadline = mono_ns() + ls->h->grace_ns;
	int ret = 0;

	for (unsigned i = 0; i < ls->n; i++)
		if (ls->ps[i].pid > 0 && !ls->ps[i].reaped)
			kill(ls->ps[i].pid, SIGTERM);
	for (;;) {
		unsigned left = 0;

		for (unsigned i = 0; i < ls->n; i++) {
			struct proc_state *p = &ls->ps[i];

			if (p->pid > 0 && !p->reaped &&
			    wait4(p->pid, &p->status, WNOHANG, &p->ru) == p->pid)
				p->reaped = 1;
			left += p->pid > 0 && !p->reaped;
		}
		if (!left || mono_ns() > deadline)
			break;
		sleep_ns(5 * 1000 * 1000);
	}
	for (unsigned i = 0; i < ls->n; i++) {
		struct proc_state *p = &ls->ps[i];

		if (p->pid <= 0 || p->reaped)
			continue;
		kill(p->pid, SIGKILL);
		while (wait4(p->pid, &p->status, 0, &p->ru) < 0 && errno == EINTR)
			;
		p->reaped = 1;
	}
	if (ls->pgid)
		proc_forget(ls->pgid);
	for (unsigned i = 0; i < ls->n; i++) {
		struct proc_state *p = &ls->ps[i];

		if (p->pid <= 0)
			continue;
		if (!ret && why && (ls->shm[i].why[0] ||
		    (WIFEXITED(p->status) && WEXITSTATUS(p->status)))) {
			describe_death(ls, i, why, len);
			ret = -1;
		}
	}
	loadset_free(ls);
	return ret;
}

pid_t *loadset_pids(const struct loadset *ls, size_t *n)
{
	pid_t *pids = xcalloc(ls->n + 1, sizeof(*pids));

	*n = 0;
	for (unsigned i = 0; i < ls->n; i++)
		if (ls->ps[i].pid > 0)
			pids[(*n)++] = ls->ps[i].pid;
	return pids;
}

/* ---- the whole machine over a run ------------------------------------------
 *
 * What Nick Piggin and Andrew Morton asked contest for: how idle the CPUs
 * were, how much of that was waiting for I/O, and whether the run faulted or
 * swapped.  Sampled when the timed build starts and ends; what cannot be
 * read stays absent in the record rather than reading as 0. */

static const char *const vm_keys[] = { "pgmajfault", "pswpin", "pswpout" };

struct sysfig {
	int have_cpu;
	uint64_t idle, iowait, total;	/* clock ticks of all CPUs */
	int have_vm[ARRAY_SIZE(vm_keys)];
	uint64_t vm[ARRAY_SIZE(vm_keys)];
};

static void sysfig_sample(struct sysfig *s)
{
	unsigned long long v[8] = { 0 };
	char buf[512];

	memset(s, 0, sizeof(*s));
	/* cpu  user nice system idle iowait irq softirq steal (guest is in user) */
	if (read_small("/proc/stat", buf, sizeof(buf)) == 0 &&
	    sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7]) >= 5) {
		s->have_cpu = 1;
		s->idle = v[3];
		s->iowait = v[4];
		for (size_t i = 0; i < ARRAY_SIZE(v); i++)
			s->total += v[i];
	}
	for (size_t i = 0; i < ARRAY_SIZE(vm_keys); i++)
		s->have_vm[i] = proc_field_u64("/proc/vmstat", vm_keys[i], &s->vm[i]) == 0;
}

static void sysfig_delta(const struct sysfig *a, const struct sysfig *b, struct run *run)
{
	int64_t *out[] = { &run->majflt, &run->pswpin, &run->pswpout };

	if (a->have_cpu && b->have_cpu && b->total > a->total && b->idle >= a->idle &&
	    b->iowait >= a->iowait) {
		double total = (double)(b->total - a->total);

		run->idle = (double)(b->idle - a->idle) / total * 100;
		run->iowait = (double)(b->iowait - a->iowait) / total * 100;
	}
	for (size_t i = 0; i < ARRAY_SIZE(vm_keys); i++)
		if (a->have_vm[i] && b->have_vm[i] && b->vm[i] >= a->vm[i])
			*out[i] = (int64_t)(b->vm[i] - a->vm[i]);
}

/* ---- one run ------------------------------------------------------------- */

static void phase(const struct harness *h, const char *what, const struct loadset *ls,
		  double w0)
{
	if (h->phase)
		h->phase(what, ls, w0);
}

static void invalid(struct run *run, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void invalid(struct run *run, const char *fmt, ...)
{
	va_list ap;
	char buf[512];

	if (!run->valid)
		return;	/* keep the first reason */
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	run->valid = 0;
	free(run->reason);
	run->reason = xstrdup(buf);
}

/* What the build's Time covers opens when its clock starts (after the log
 * is opened, which can take a while): the load's work, CPU and I/O, and
 * the probe's window. */
struct window {
	struct loadset *ls;
	struct probe *pr;
	double w0;	/* the load's work then */
};

static void window_open(void *arg)
{
	struct window *w = arg;

	if (w->ls) {
		loadset_mark(w->ls);
		w->w0 = loadset_work(w->ls);
	}
	if (w->pr)
		probe_begin(w->pr);
}

static int timed_build(struct harness *h, struct loadset *ls, struct probe *pr,
		       struct run *run)
{
	struct window win = { ls, pr, 0 };
	struct sysfig s0, s1;
	struct delays *dl;
	struct build b;
	char why[512];
	pid_t *pids = NULL;
	size_t npids = 0;
	int rc;

	if (ls)
		pids = loadset_pids(ls, &npids);
	dl = delays_open(pids, npids, 1);
	free(pids);
	sysfig_sample(&s0);
	phase(h, "compiling", ls, ls ? loadset_work(ls) : 0);
	test_hook("build");
	delays_enter(dl);
	rc = workload_run_timed(h->wl, h->wl->build, &b, window_open, &win, why, sizeof(why));
	if (ls && !rc) {	/* and closes when the build ends */
		run->load_cpu_ns = loadset_cpu_ns(ls);
		run->work = loadset_work(ls) - win.w0;
		loadset_io(ls, &run->io);
	}
	if (pr)
		probe_end(pr);
	delays_close(dl, b.pid, run);
	if (rc) {
		if (proc_interrupted())
			return -1;
		invalid(run, "%s", why);
		return 0;
	}
	if (!WIFEXITED(b.status) || WEXITSTATUS(b.status)) {
		char how[64];

		/* no figures: a failed build's time means nothing */
		proc_describe(b.status, how, sizeof(how));
		invalid(run, "the workload failed: %s", how);
		msg("the build failed (%s); the end of its log:", how);
		workload_show_failure(h->wl, 20, stderr);
		return 0;
	}
	sysfig_sample(&s1);
	sysfig_delta(&s0, &s1, run);
	run->elapsed_ns = b.elapsed_ns;
	run->user_ns = b.user_ns;
	run->sys_ns = b.sys_ns;
	run->build_majflt = b.majflt;
	return 0;
}

int harness_run(struct harness *h, const struct runtype *rt, struct load_ctx *c,
		struct run *run)
{
	struct loadset *ls = NULL;
	struct probe *pr = NULL;
	struct build b;
	char why[512];
	int ret = 0;

	run->valid = 1;
	run->load_session = h->load_session;
	run->flush = xstrdup("none");
	run_sysfig_absent(run);
	if (!c)
		run->load_cpu_ns = 0;	/* no load: none, exactly */
	phase(h, "cleaning", NULL, 0);
	test_hook("clean");
	if (workload_run(h->wl, h->wl->clean, &b, why, sizeof(why)) ||
	    !WIFEXITED(b.status) || WEXITSTATUS(b.status)) {
		if (proc_interrupted())
			return -1;
		invalid(run, "cleaning the tree failed");
		msg("cleaning the tree failed; the end of its log:");
		workload_show_failure(h->wl, 20, stderr);
		return 0;
	}
	if (proc_interrupted())
		return -1;
	if (c && c->ops->setup)
		phase(h, "setting up the load", NULL, 0);
	if (c && c->ops->setup && c->ops->setup(c, why, sizeof(why))) {
		if (proc_interrupted())
			ret = -1;
		else
			invalid(run, "%s setup: %s", c->ops->name, why);
		goto cleanup;
	}
	if (c && c->ops->params)
		c->ops->params(c, &run->params);
	if (!rt->cacherun && !proc_interrupted()) {
		const char *how;

		phase(h, "flushing caches", NULL, 0);
		test_hook("flush");
		how = flush_caches(h->flush_dirs, why, sizeof(why));
		if (!how) {
			invalid(run, "%s", why);
			goto cleanup;
		}
		free(run->flush);
		run->flush = xstrdup(how);
	}
	/* a stop during a step that cannot be cut short (the setup, the
	 * sync) is seen as soon as it ends */
	if (proc_interrupted()) {
		ret = -1;
		goto cleanup;
	}
	if (c) {
		phase(h, "starting the load", NULL, 0);
		ls = loadset_start(h, c, why, sizeof(why));
		if (!ls) {
			if (proc_interrupted()) {
				ret = -1;
				goto cleanup;
			}
			invalid(run, "%s", why);
			goto cleanup;
		}
		phase(h, "lead time", NULL, 0);
		test_hook("lead");
		for (int64_t end = mono_ns() + h->lead_ns; mono_ns() < end;) {
			if (loadset_check(ls, why, sizeof(why)))
				break;
			proc_tick();
			if (proc_pause(end - mono_ns() < NS_PER_SEC / 10 ? end - mono_ns() :
				       NS_PER_SEC / 10))
				break;
		}
		if (proc_interrupted()) {
			ret = -1;
			goto stop;
		}
		if (loadset_check(ls, why, sizeof(why))) {
			invalid(run, "%s", why);
			goto stop;
		}
	}
	if (h->probe_cal > 0) {
		phase(h, "starting the probe", NULL, 0);
		pr = probe_start(h, h->probe_profile, h->probe_cal, why, sizeof(why));
		if (!pr) {
			if (proc_interrupted())
				ret = -1;
			else
				invalid(run, "%s", why);
			goto stop;
		}
	}
	if (timed_build(h, ls, pr, run)) {
		ret = -1;
		goto stop;
	}
	if (ls && loadset_check(ls, why, sizeof(why)))
		invalid(run, "%s during the timed run", why);
	if (pr && probe_check(pr, why, sizeof(why)))
		invalid(run, "%s during the timed run", why);
stop:
	if (pr) {
		run->probe = xcalloc(PROBE_TASKS, sizeof(*run->probe));
		run->probe_cal = h->probe_cal;
		run->probe_profile = h->probe_profile;
		memcpy(run->probe_work_ns, probe_profiles[h->probe_profile].work_ns,
		       sizeof(run->probe_work_ns));
		if (probe_stop(pr, run->probe, &run->probe_cpu_ns, why, sizeof(why)))
			invalid(run, "%s", why);
	}
	if (ls) {
		phase(h, "stopping the load", NULL, 0);
		if (loadset_stop(ls, why, sizeof(why)))
			invalid(run, "%s", why);
		if (run->valid && run->work <= 0)
			invalid(run, "%s did no work during the timed run", c->ops->name);
	}
cleanup:
	if (c && c->ops->cleanup)
		c->ops->cleanup(c);
	return ret;
}
