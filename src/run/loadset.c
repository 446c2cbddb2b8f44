/* SPDX-License-Identifier: GPL-2.0-or-later */
/* loadset.c - a started load: its processes, from fork to reap.
 *
 * Load processes are forked here, share one process group, get
 * PR_SET_PDEATHSIG and oom_score_adj 1000, and report readiness over a pipe
 * and work through a shared page (loads/loadproc.h; what a load process
 * calls, load_ready() and the rest, is loads/load.c).  The harness starts
 * the loads of a run as a loadset, the latency probe its tasks. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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

#include "run/loadset.h"
#include "loads/load.h"
#include "loads/loadproc.h"
#include "results/run.h"
#include "lib/fsutil.h"
#include "lib/proc.h"
#include "lib/util.h"

struct proc_state {
	pid_t pid;
	int reaped;
	int status;
	struct rusage ru;
	int64_t cpu0_ns;	   /* CPU at loadset_mark(), -1 when unreadable */
	struct load_io io0;	   /* I/O at loadset_mark(), -1 when unreadable */
};

struct loadset {
	struct loadset_opts o;
	struct load_ctx *c;
	struct load_proc *shm;
	struct proc_state *ps;
	unsigned n;
	pid_t pgid;
};

/* ---- in a load process ---------------------------------------------------- */

static void child_main(struct loadset *ls, unsigned idx, int ready_fd)
{
	struct sigaction sa;
	int rc;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = load_proc_stop;	/* no SA_RESTART: blocking calls return EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	/* not fatal: the kernel may not allow it */
	(void)!write_small("/proc/self/oom_score_adj", "1000");
	if (ls->o.nice) {
		setpriority(PRIO_PROCESS, 0, ls->o.nice);
	}
	prctl(PR_SET_NAME, ls->c->ops->name);	/* ps and pgrep show which load */
	load_proc_enter(ls->c, &ls->shm[idx], ready_fd);
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

int loadset_note(const struct loadset *ls, char *buf, size_t len)
{
	for (unsigned i = 0; i < ls->n; i++) {
		char note[sizeof(ls->shm[i].note)];

		/* a copy whole: the process may be writing it now */
		memcpy(note, ls->shm[i].note, sizeof(note));
		note[sizeof(note) - 1] = '\0';
		if (note[0]) {
			snprintf(buf, len, "%s process %u: %s", ls->c->ops->name, i, note);
			return 1;
		}
	}
	return 0;
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
	int64_t deadline = mono_ns() + ls->o.ready_timeout_ns;
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
				 (double)ls->o.ready_timeout_ns / NS_PER_SEC);
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

struct loadset *loadset_start(const struct loadset_opts *o, struct load_ctx *c, char *why,
			      size_t len)
{
	struct loadset *ls = xcalloc(1, sizeof(*ls));
	int pfd[2];

	ls->o = *o;
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
	if (o->session ? fork_in_session(ls, pfd, why, len) :
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
	int64_t deadline = mono_ns() + ls->o.grace_ns;
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
