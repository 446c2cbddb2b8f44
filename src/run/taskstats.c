/* SPDX-License-Identifier: GPL-2.0-or-later */
/* taskstats.c - where the build's and the load's time went over a timed run.
 *
 * Delay accounting.  The kernel keeps per task the time it ran
 * (se.sum_exec_runtime), the time it waited runnable for a CPU
 * (sched_info.run_delay) and, with kernel.task_delayacct=1, the time it
 * waited for block I/O, swap-in, direct reclaim, thrashing and compaction
 * (struct task_delay_info), and hands them out over generic netlink as
 * struct taskstats (linux/taskstats.h): on request for a live task, and as
 * an exit record of every task that exits to the sockets registered for the
 * CPU it exits on.  A timed build is hundreds of short-lived processes
 * (make, sh, gcc, cc1, as), so contest registers for every CPU for the
 * window and a thread drains the socket while the build runs (the socket
 * would overflow otherwise: an exit record is sent from do_exit() whether
 * anyone reads it or not, and a dropped one is counted as lost).
 *
 * Who is whose.  An exit record carries the task's pid and its parent's
 * (ac_ppid: the tgid of its real parent when it exited).  A child exits
 * before the parent that waits for it, so the parent's record comes later:
 * a record's parent is the nearest later record with the parent's pid, and
 * one backward pass gives every record its side: the build's (its leader,
 * contest's child, or a descendant of it), the load's (a descendant of a
 * load process), or neither (the rest of the machine).  A task orphaned
 * before it exits (reparented to init) is lost to its side.  The load's
 * processes live through the window: their figures are the difference of
 * two queries (TASKSTATS_CMD_ATTR_TGID) at its ends.
 *
 * PSI.  With cgroup v2 (at /sys/fs/cgroup or /sys/fs/cgroup/unified) and
 * root, the build runs in a cgroup of its own, below contest's: contest
 * joins it just before it spawns the build (so that no task is born
 * outside) and leaves it after; its cpu/io/memory.pressure totals over the
 * window are the build's.  Otherwise /proc/pressure's, the whole machine's,
 * recorded as such.  The build's cgroup must not change the contest: with
 * cpu (or io, memory) enabled for the children of contest's cgroup, as at
 * a root where it is on, a cgroup of the build's would be one weighted
 * group against the loads' processes, each an entity of its own (the
 * build's 8 jobs one share against the ring's processes: its Time about
 * doubled, as with the loads in an autogroup of their own, DESIGN.md 5).
 * Nor would sibling groups of equal weight keep the run as it is without
 * PSI: each would get half.  So then the build stays where the loads are,
 * in contest's cgroup, and PSI is the machine's. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/taskstats.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "run/taskstats.h"
#include "lib/fsutil.h"
#include "lib/proc.h"
#include "lib/share.h"
#include "lib/util.h"

#define DELAYACCT "/proc/sys/kernel/task_delayacct"

/* ---- kernel.task_delayacct for the suite ------------------------------- */

/* Contests running at once share it (share.h): the last to finish restores
 * the value the first found. */
#define DELAYACCT_LOCK "/run/contest-delayacct"

static int delayacct_share = -1;	/* the share's fd */
static char delayacct_why[160];		/* why contest could not turn it on */
static const char *off_why;		/* delays_off()'s reason: collect nothing */

void delays_off(const char *why)
{
	off_why = why;
}

void delays_suite_begin(void)
{
	/* without the file (before 5.14) delay accounting is on at boot */
	if (off_why || geteuid() || delayacct_share >= 0 || access(DELAYACCT, F_OK))
		return;
	proc_guard_share(DELAYACCT_LOCK, DELAYACCT, 1);	/* from now on, even after a SIGKILL */
	delayacct_share = share_begin(DELAYACCT_LOCK, DELAYACCT, "1", delayacct_why,
				      sizeof(delayacct_why));
	if (delayacct_share < 0)
		proc_guard_share(DELAYACCT_LOCK, DELAYACCT, 0);
}

void delays_suite_end(void)
{
	if (delayacct_share < 0)
		return;
	if (share_end(delayacct_share, DELAYACCT_LOCK, DELAYACCT, 1) < 0)
		msg("cannot restore %s: %s", DELAYACCT, strerror(errno));
	delayacct_share = -1;
	proc_guard_share(DELAYACCT_LOCK, DELAYACCT, 0);
}

/* Whether delay accounting is on: the setting is 1, or absent (on). */
static int delayacct_on(char *now, size_t len)
{
	return read_small(DELAYACCT, now, len) || !strcmp(now, "1");
}

/* ---- generic netlink ---------------------------------------------------- */

struct nlreq {
	struct nlmsghdr n;
	struct genlmsghdr g;
	char attrs[256];
};

static int nl_open(char *why, size_t len)
{
	struct sockaddr_nl a = { .nl_family = AF_NETLINK };
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);

	if (fd < 0)
		return whyf(why, len, "netlink socket: %s", strerror(errno));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a))) {
		whyf(why, len, "netlink bind: %s", strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/* One request of family fam, command cmd, with one attribute. */
static int nl_send(int fd, uint16_t fam, uint8_t cmd, uint16_t type, const void *data,
		   size_t dlen, int ack)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
	struct nlreq req;
	struct nlattr *na;

	memset(&req, 0, sizeof(req));
	req.n.nlmsg_len = NLMSG_LENGTH(GENL_HDRLEN);
	req.n.nlmsg_type = fam;
	req.n.nlmsg_flags = NLM_F_REQUEST | (ack ? NLM_F_ACK : 0);
	req.g.cmd = cmd;
	req.g.version = 1;
	na = (struct nlattr *)((char *)&req + NLMSG_ALIGN(req.n.nlmsg_len));
	na->nla_type = type;
	na->nla_len = (uint16_t)(NLA_HDRLEN + dlen);
	memcpy((char *)na + NLA_HDRLEN, data, dlen);
	req.n.nlmsg_len += NLA_ALIGN(na->nla_len);
	while (sendto(fd, &req, req.n.nlmsg_len, 0, (struct sockaddr *)&kernel,
		      sizeof(kernel)) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

/* The attribute of type in [p, p + len), or NULL; its payload length in *plen. */
static const void *nl_attr(const void *p, size_t len, uint16_t type, size_t *plen)
{
	const char *c = p, *end = c + len;

	while (c + NLA_HDRLEN <= end) {
		const struct nlattr *na = (const struct nlattr *)c;

		if (na->nla_len < NLA_HDRLEN || c + na->nla_len > end)
			break;
		if ((na->nla_type & NLA_TYPE_MASK) == type) {
			*plen = na->nla_len - NLA_HDRLEN;
			return c + NLA_HDRLEN;
		}
		c += NLA_ALIGN(na->nla_len);
	}
	return NULL;
}

/* One reply to a request on fd, into buf: its first message, 0, or -1 with
 * errno (the kernel's error). */
static int nl_reply(int fd, char *buf, size_t len, struct nlmsghdr **out)
{
	ssize_t r;

	while ((r = recv(fd, buf, len, 0)) < 0)
		if (errno != EINTR)
			return -1;
	*out = (struct nlmsghdr *)buf;
	if (!NLMSG_OK(*out, (size_t)r)) {
		errno = EPROTO;
		return -1;
	}
	if ((*out)->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = NLMSG_DATA(*out);

		errno = -e->error;
		return e->error ? -1 : 0;
	}
	return 0;
}

static int taskstats_family(int fd, char *why, size_t len)
{
	char buf[4096];
	struct nlmsghdr *h;
	const uint16_t *id;
	size_t n;

	if (nl_send(fd, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, CTRL_ATTR_FAMILY_NAME,
		    TASKSTATS_GENL_NAME, sizeof(TASKSTATS_GENL_NAME), 0) ||
	    nl_reply(fd, buf, sizeof(buf), &h))
		return whyf(why, len, "no taskstats in this kernel (%s)", strerror(errno));
	id = nl_attr((char *)NLMSG_DATA(h) + GENL_HDRLEN,
		     h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN), CTRL_ATTR_FAMILY_ID, &n);
	if (!id || n < sizeof(*id))
		return whyf(why, len, "no taskstats family id");
	return *id;
}

/* The struct taskstats in a nested TASKSTATS_TYPE_AGGR_* attribute. */
static int nested_stats(const void *p, size_t len, struct taskstats *ts)
{
	size_t n;
	const void *s = nl_attr(p, len, TASKSTATS_TYPE_STATS, &n);

	if (!s)
		return -1;
	memset(ts, 0, sizeof(*ts));
	memcpy(ts, s, n < sizeof(*ts) ? n : sizeof(*ts));	/* newer kernels append */
	return 0;
}

/* The delays: struct taskstats's total and count, and where they go. */
static const struct {
	size_t ns, count, out_ns, out_count;
} delay_map[] = {
#define DM(ts, out) { offsetof(struct taskstats, ts##_delay_total),		\
		      offsetof(struct taskstats, ts##_count),			\
		      offsetof(struct task_delays, out##_ns),			\
		      offsetof(struct task_delays, out##_count) }
	DM(cpu, wait), DM(blkio, blkio), DM(swapin, swapin), DM(freepages, reclaim),
	DM(thrashing, thrash), DM(compact, compact),
#undef DM
};

#define TS_U64(t, off) (*(uint64_t *)((char *)(t) + (off)))
#define TD_I64(d, off) (*(int64_t *)((char *)(d) + (off)))

/* Add task b's figures (minus a's, its earlier ones, or NULL) to d.  A
 * delay longer than life_ns (the task's life, or the window) is impossible
 * and left out, the task counted in d->bad: the kernel can end a block I/O
 * wait it never saw start (on 6.18 a few tasks per build report about the
 * machine's uptime). */
static void add_stats(struct task_delays *d, const struct taskstats *b,
		      const struct taskstats *a, uint64_t life_ns)
{
	int bad = 0;

	d->tasks++;
	d->cpu_ns += (int64_t)(b->cpu_run_virtual_total - (a ? a->cpu_run_virtual_total : 0));
	for (size_t i = 0; i < ARRAY_SIZE(delay_map); i++) {
		uint64_t ns = TS_U64(b, delay_map[i].ns) - (a ? TS_U64(a, delay_map[i].ns) : 0);
		uint64_t n = TS_U64(b, delay_map[i].count) - (a ? TS_U64(a, delay_map[i].count) : 0);

		if (ns > life_ns) {
			bad = 1;
			continue;
		}
		TD_I64(d, delay_map[i].out_ns) += (int64_t)ns;
		TD_I64(d, delay_map[i].out_count) += (int64_t)n;
	}
	d->bad += bad;
}

/* A live process's figures, all its threads. */
static int query_tgid(int fd, int fam, pid_t pid, struct taskstats *ts)
{
	char buf[4096];
	struct nlmsghdr *h;
	const void *aggr;
	uint32_t p = (uint32_t)pid;
	size_t n;

	if (nl_send(fd, (uint16_t)fam, TASKSTATS_CMD_GET, TASKSTATS_CMD_ATTR_TGID, &p,
		    sizeof(p), 0) || nl_reply(fd, buf, sizeof(buf), &h) ||
	    h->nlmsg_type != fam)
		return -1;
	aggr = nl_attr((char *)NLMSG_DATA(h) + GENL_HDRLEN,
		       h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN), TASKSTATS_TYPE_AGGR_TGID, &n);
	return aggr ? nested_stats(aggr, n, ts) : -1;
}

/* ---- the window --------------------------------------------------------- */

struct exitrec {
	pid_t pid, ppid;
	struct taskstats ts;
};

enum { PSI_NONE, PSI_CGROUP, PSI_MACHINE };

struct delays {
	char why[256];		/* why there are no delays, or "" */
	int fam, query, listen;	/* family id, sockets (-1: none) */
	char cpumask[64];
	pthread_t thread;
	int have_thread;
	atomic_int stop;
	atomic_int off;		/* task_delayacct seen off in the window */
	struct exitrec *recs;	/* the thread's until joined */
	size_t nrecs, cap;
	uint64_t lost;		/* records the socket dropped */
	pid_t *load;
	struct taskstats *load0;
	size_t nload;
	/* PSI */
	int psi;
	char psi_why[256];
	char *cgroup;		/* the build's cgroup directory, or NULL */
	char *home;		/* contest's cgroup.procs */
	int64_t psi0[PSI_FIGS];
	int64_t t0;
};

static void take_records(struct delays *d, const char *buf, size_t r)
{
	for (const struct nlmsghdr *h = (const void *)buf; NLMSG_OK(h, r); h = NLMSG_NEXT(h, r)) {
		const void *aggr, *pid;
		struct exitrec e;
		size_t n, pn;

		if (h->nlmsg_type != d->fam || h->nlmsg_len < NLMSG_LENGTH(GENL_HDRLEN))
			continue;
		aggr = nl_attr((const char *)NLMSG_DATA(h) + GENL_HDRLEN,
			       h->nlmsg_len - NLMSG_LENGTH(GENL_HDRLEN), TASKSTATS_TYPE_AGGR_PID, &n);
		if (!aggr || !(pid = nl_attr(aggr, n, TASKSTATS_TYPE_PID, &pn)) ||
		    nested_stats(aggr, n, &e.ts))
			continue;
		e.pid = (pid_t)e.ts.ac_pid;
		e.ppid = (pid_t)e.ts.ac_ppid;
		if (d->nrecs == d->cap) {
			d->cap = d->cap ? 2 * d->cap : 1024;
			d->recs = xrealloc(d->recs, d->cap * sizeof(*d->recs));
		}
		d->recs[d->nrecs++] = e;
	}
}

static void *drain(void *arg)
{
	struct delays *d = arg;
	char *buf = xmalloc(1 << 16);
	int64_t look = 0;

	for (;;) {
		int stopping = atomic_load(&d->stop);
		ssize_t r = recv(d->listen, buf, 1 << 16, stopping ? MSG_DONTWAIT : 0);
		char on[16];

		/* about every 100 ms (the socket's timeout): turned off and on
		 * again between the window's ends, it loses some figures too */
		if (mono_ns() >= look) {
			look = mono_ns() + NS_PER_SEC / 10;
			if (!delayacct_on(on, sizeof(on)))
				atomic_store(&d->off, 1);
		}

		if (r > 0) {
			take_records(d, buf, (size_t)r);
			continue;
		}
		if (r < 0 && errno == ENOBUFS) {
			d->lost++;
			continue;
		}
		if (stopping && r < 0 && errno == EAGAIN)
			break;
		if (r < 0 && errno != EINTR && errno != EAGAIN) {
			d->lost++;
			break;
		}
	}
	free(buf);
	return NULL;
}

static int start_listening(struct delays *d, char *why, size_t len)
{
	struct timeval tv = { 0, 100 * 1000 };	/* the thread looks at stop this often */
	int big = 32 << 20;
	char buf[4096];
	struct nlmsghdr *h;
	sigset_t all, old;

	if (read_small("/sys/devices/system/cpu/possible", d->cpumask, sizeof(d->cpumask)))
		return whyf(why, len, "cannot read the possible CPUs");
	if ((d->listen = nl_open(why, len)) < 0)
		return -1;
	/* as root the buffer may exceed rmem_max: the thread is the first
	 * defence against overflow, this the second */
	if (setsockopt(d->listen, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big)))
		setsockopt(d->listen, SOL_SOCKET, SO_RCVBUF, &big, sizeof(big));
	setsockopt(d->listen, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (nl_send(d->listen, (uint16_t)d->fam, TASKSTATS_CMD_GET,
		    TASKSTATS_CMD_ATTR_REGISTER_CPUMASK, d->cpumask, strlen(d->cpumask) + 1, 1) ||
	    nl_reply(d->listen, buf, sizeof(buf), &h))
		return whyf(why, len, "cannot listen for taskstats exit records: %s",
			    strerror(errno));
	/* the thread takes no signal: they are the main thread's to see */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	d->have_thread = pthread_create(&d->thread, NULL, drain, d) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!d->have_thread)
		return whyf(why, len, "cannot start a thread");
	return 0;
}

static void stop_listening(struct delays *d)
{
	if (d->have_thread) {
		atomic_store(&d->stop, 1);
		pthread_join(d->thread, NULL);
		d->have_thread = 0;
	}
	if (d->listen >= 0) {
		nl_send(d->listen, (uint16_t)d->fam, TASKSTATS_CMD_GET,
			TASKSTATS_CMD_ATTR_DEREGISTER_CPUMASK, d->cpumask,
			strlen(d->cpumask) + 1, 0);
		close(d->listen);
		d->listen = -1;
	}
}

/* ---- who is whose -------------------------------------------------------- */

/* pid -> index of a record, open addressing (a lookup adds the key, so
 * there are room for n records' pids and ppids at half load); -1 none. */
struct pidmap {
	pid_t *key;
	ptrdiff_t *val;
	size_t mask;
};

static void pidmap_init(struct pidmap *m, size_t n)
{
	size_t size = 64;

	while (size < 4 * n)
		size *= 2;
	m->key = xcalloc(size, sizeof(*m->key));
	m->val = xcalloc(size, sizeof(*m->val));
	m->mask = size - 1;
}

static ptrdiff_t *pidmap_slot(struct pidmap *m, pid_t pid)
{
	size_t i = ((size_t)pid * 2654435761u) & m->mask;

	while (m->key[i] && m->key[i] != pid)
		i = (i + 1) & m->mask;
	if (!m->key[i]) {
		m->key[i] = pid;
		m->val[i] = -1;
	}
	return &m->val[i];
}

static void pidmap_free(struct pidmap *m)
{
	free(m->key);
	free(m->val);
}

void delays_sides(const pid_t *pid, const pid_t *ppid, size_t n, pid_t self, pid_t leader,
		  const pid_t *load, size_t nload, unsigned char *side)
{
	struct pidmap later;

	pidmap_init(&later, n);
	for (size_t i = n; i--; ) {
		ptrdiff_t parent = ppid[i] > 0 ? *pidmap_slot(&later, ppid[i]) : -1;

		side[i] = DELAYS_NONE;
		if (pid[i] == leader && ppid[i] == self)
			side[i] = DELAYS_BUILD;
		else if (parent >= 0)
			side[i] = side[parent];
		else
			for (size_t k = 0; k < nload; k++)
				if (ppid[i] == load[k])
					side[i] = DELAYS_LOAD;
		*pidmap_slot(&later, pid[i]) = (ptrdiff_t)i;
	}
	pidmap_free(&later);
}

/* Every record's figures to its side. */
static void attribute(const struct delays *d, pid_t leader, struct task_delays *build,
		      struct task_delays *load)
{
	unsigned char *side = xcalloc(d->nrecs + 1, 1);
	pid_t *pid = xcalloc(d->nrecs + 1, sizeof(*pid));
	pid_t *ppid = xcalloc(d->nrecs + 1, sizeof(*ppid));

	for (size_t i = 0; i < d->nrecs; i++) {
		pid[i] = d->recs[i].pid;
		ppid[i] = d->recs[i].ppid;
	}
	delays_sides(pid, ppid, d->nrecs, getpid(), leader, d->load, d->nload, side);
	for (size_t i = 0; i < d->nrecs; i++) {
		const struct taskstats *t = &d->recs[i].ts;

		if (side[i] != DELAYS_NONE)
			add_stats(side[i] == DELAYS_BUILD ? build : load, t, NULL,
				  t->ac_etime * 1000);
	}
	free(ppid);
	free(pid);
	free(side);
}

/* ---- PSI ------------------------------------------------------------------ */

static const char *const psi_res[] = { "cpu", "io", "memory" };

#define MACHINE_PSI "/proc/pressure"

/* The some and full totals (us) of the three resources: of the cgroup dir,
 * or of the machine (dir MACHINE_PSI). */
static int psi_read(const char *dir, int64_t *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(psi_res); i++) {
		char *path = xasprintf("%s/%s%s", dir, psi_res[i],
				       strcmp(dir, MACHINE_PSI) ? ".pressure" : "");
		char buf[512], *some, *full;
		unsigned long long s, f = 0;
		int rc = read_small(path, buf, sizeof(buf));

		free(path);
		if (rc || !(some = strstr(buf, "some ")) || !(some = strstr(some, "total=")) ||
		    sscanf(some, "total=%llu", &s) != 1)
			return -1;
		/* the cpu's full line came in 5.13; before it, none */
		full = strstr(buf, "full ");
		if (full && (full = strstr(full, "total=")) && sscanf(full, "total=%llu", &f) != 1)
			return -1;
		out[2 * i] = (int64_t)s;
		out[2 * i + 1] = full ? (int64_t)f : -1;
	}
	return 0;
}

/* contest's own cgroup v2 directory, or NULL. */
static char *own_cgroup(void)
{
	static const char *const mounts[] = { "/sys/fs/cgroup", "/sys/fs/cgroup/unified" };
	char line[4096];
	FILE *f = fopen("/proc/self/cgroup", "re");
	char *rel = NULL;

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			rel = xstrdup(line + 3);
		}
	fclose(f);
	if (!rel)
		return NULL;
	for (size_t i = 0; i < ARRAY_SIZE(mounts); i++) {
		char *dir = xasprintf("%s%s", mounts[i], strcmp(rel, "/") ? rel : "");
		char *procs = xasprintf("%s/cgroup.procs", dir);
		char *type = xasprintf("%s/cgroup.controllers", mounts[i]);
		int ok = access(procs, W_OK) == 0 && access(type, F_OK) == 0;

		free(procs);
		free(type);
		if (ok) {
			free(rel);
			return dir;
		}
		free(dir);
	}
	free(rel);
	return NULL;
}

static int join(const char *dir)
{
	char *path = xasprintf("%s/cgroup.procs", dir);
	char pid[32];
	int fd = open(path, O_WRONLY | O_CLOEXEC), rc;

	free(path);
	if (fd < 0)
		return -1;
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	rc = write_all(fd, pid, strlen(pid));
	close(fd);
	return rc;
}

/* Controllers that, enabled for a cgroup's children, divide nothing among
 * them by default: a child cgroup under them competes as its tasks did. */
static const char *const neutral[] = { "cpuset", "hugetlb", "misc", "perf_event", "pids",
				       "rdma" };

int delays_cgroup_neutral(const char *subtree, char *which, size_t len)
{
	char *copy = xstrdup(subtree), *save = NULL;
	size_t n = 0;

	which[0] = '\0';
	for (char *t = strtok_r(copy, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save)) {
		size_t i = 0;

		while (i < ARRAY_SIZE(neutral) && strcmp(t, neutral[i]))
			i++;
		if (i == ARRAY_SIZE(neutral) && n + 1 < len)
			n += (size_t)snprintf(which + n, len - n, "%s%s", n ? " " : "", t);
	}
	free(copy);
	return !which[0];
}

/* Whether a cgroup of the build's below home would leave the contest as it
 * is: 1, or 0 with the reason printed (once).  In tests/contest-hooked,
 * CONTEST_TEST_SUBTREE_CONTROL stands in for home's cgroup.subtree_control,
 * for a machine where cpu cannot be enabled in cgroup v2 (bound to v1). */
static int build_cgroup_neutral(const char *home)
{
	static int said;
	char *path = xasprintf("%s/cgroup.subtree_control", home);
	char subtree[512] = "", which[256];
	const char *at = subtree;

	if (read_small(path, subtree, sizeof(subtree)))
		subtree[0] = '\0';	/* before 4.5: none */
#ifdef CONTEST_TEST_HOOKS
	if (getenv("CONTEST_TEST_SUBTREE_CONTROL"))
		at = getenv("CONTEST_TEST_SUBTREE_CONTROL");
#endif
	free(path);
	if (delays_cgroup_neutral(at, which, sizeof(which)))
		return 1;
	if (!said++)
		info("PSI: the build stays in contest's cgroup %s, beside the loads, and the "
		     "pressure is the machine's: its cgroup.subtree_control enables %s, under "
		     "which a cgroup of the build's own would compete with the loads as one "
		     "weighted group", home, which);
	return 0;
}

/* The guardian's way to remove the cgroup after a SIGKILL: after its kills,
 * the build's tasks take a moment to leave. */
static char *rmdir_cmd(const char *dir)
{
	return xasprintf("for i in 1 2 3 4 5 6 7 8 9 10; do rmdir '%s' 2>/dev/null && break; "
			 "sleep 0.2; done", dir);
}

static void psi_open(struct delays *d, int build)
{
	char *home = geteuid() || !build ? NULL : own_cgroup();

	if (home && !strchr(home, '\'') && build_cgroup_neutral(home)) {
		char *dir = xasprintf("%s/contest-build-%d", home, (int)getpid());

		if (mkdir(dir, 0755) == 0) {
			char *cmd = rmdir_cmd(dir);

			proc_guard_run(cmd, 1);
			free(cmd);
			if (psi_read(dir, d->psi0) == 0) {
				d->cgroup = dir;
				d->home = home;
				d->psi = PSI_CGROUP;
				return;
			}
			rmdir(dir);
			cmd = rmdir_cmd(dir);
			proc_guard_run(cmd, 0);
			free(cmd);
		}
		free(dir);
	}
	free(home);
	if (psi_read(MACHINE_PSI, d->psi0) == 0) {
		d->psi = PSI_MACHINE;
		return;
	}
	d->psi = PSI_NONE;
	snprintf(d->psi_why, sizeof(d->psi_why), "%s",
		 access(MACHINE_PSI, F_OK) ? "no PSI in this kernel (CONFIG_PSI, psi=1)"
						: "cannot read " MACHINE_PSI);
}

static void psi_close(struct delays *d, struct run *run)
{
	int64_t now[PSI_FIGS];

	if (d->psi != PSI_NONE &&
	    psi_read(d->psi == PSI_CGROUP ? d->cgroup : MACHINE_PSI, now) == 0) {
		run->psi_scope = xstrdup(d->psi == PSI_CGROUP ? "cgroup" : "machine");
		for (size_t i = 0; i < PSI_FIGS; i++)
			run->psi_us[i] = now[i] >= 0 && d->psi0[i] >= 0 && now[i] >= d->psi0[i] ?
					 now[i] - d->psi0[i] : -1;
	} else {
		run->psi_absent = xstrdup(d->psi == PSI_NONE ? d->psi_why
					  : "cannot read the pressure files at the end");
	}
	if (d->cgroup) {
		char *cmd = rmdir_cmd(d->cgroup);

		int rc, tries = 0;

		join(d->home);	/* in case contest is still inside */
		/* a build killed on a stop leaves tasks that are still exiting
		 * (freeing their memory takes a while on a machine short of it):
		 * the cgroup is busy until they are gone */
		while ((rc = rmdir(d->cgroup)) && errno == EBUSY && ++tries < 100)
			sleep_ns(20 * 1000 * 1000);
		if (rc == 0)
			proc_guard_run(cmd, 0);
		else if (errno == EBUSY)	/* the guardian tries again at the end */
			msg("the cgroup %s still holds a task of the build after 2 s: removed "
			    "when contest ends", d->cgroup);
		else
			msg("cannot remove the cgroup %s: %s", d->cgroup, strerror(errno));
		free(cmd);
		free(d->cgroup);
		free(d->home);
	}
}

/* ---- the window's ends ------------------------------------------------------ */

struct delays *delays_open(const pid_t *load, size_t nload, int build)
{
	struct delays *d = xcalloc(1, sizeof(*d));
	char on[16];

	d->query = d->listen = -1;
	if (off_why) {
		snprintf(d->why, sizeof(d->why), "%s", off_why);
		snprintf(d->psi_why, sizeof(d->psi_why), "%s", off_why);
		d->psi = PSI_NONE;
		return d;
	}
	psi_open(d, build);
	d->t0 = mono_ns();
	if (geteuid()) {
		snprintf(d->why, sizeof(d->why), "taskstats needs root");
		return d;
	}
	if (!delayacct_on(on, sizeof(on))) {
		if (delayacct_share >= 0)
			snprintf(d->why, sizeof(d->why), "kernel.task_delayacct is %s: turned off "
				 "by another program after contest turned it on", on);
		else if (delayacct_why[0])
			snprintf(d->why, sizeof(d->why), "kernel.task_delayacct is %s: contest "
				 "could not turn it on (%s)", on, delayacct_why);
		else
			snprintf(d->why, sizeof(d->why), "kernel.task_delayacct is %s", on);
		return d;
	}
	if ((d->query = nl_open(d->why, sizeof(d->why))) < 0 ||
	    (d->fam = taskstats_family(d->query, d->why, sizeof(d->why))) < 0)
		return d;
	d->nload = nload;
	d->load = xcalloc(nload + 1, sizeof(*d->load));
	d->load0 = xcalloc(nload + 1, sizeof(*d->load0));
	for (size_t i = 0; i < nload; i++) {
		d->load[i] = load[i];
		if (query_tgid(d->query, d->fam, load[i], &d->load0[i])) {
			snprintf(d->why, sizeof(d->why), "cannot read load process %d's taskstats: %s",
				 (int)load[i], strerror(errno));
			return d;
		}
	}
	start_listening(d, d->why, sizeof(d->why));
	return d;
}

void delays_enter(struct delays *d)
{
	if (d->cgroup && join(d->cgroup)) {
		snprintf(d->psi_why, sizeof(d->psi_why), "cannot join the build's cgroup: %s",
			 strerror(errno));
		d->psi = PSI_NONE;
	}
}

void delays_leave(struct delays *d)
{
	if (d->cgroup)
		join(d->home);
}

void delays_close(struct delays *d, pid_t leader, struct run *run)
{
	struct task_delays build = { 0 }, load = { 0 };
	char on[16];

	delays_leave(d);
	stop_listening(d);
	psi_close(d, run);
	/* accounting stopped for a while: the figures would be part of the
	 * window's, and look whole */
	if (!d->why[0] && (atomic_load(&d->off) || !delayacct_on(on, sizeof(on))))
		snprintf(d->why, sizeof(d->why), "kernel.task_delayacct was turned off during "
			 "the run, by another program");
	if (!d->why[0] && d->lost)
		snprintf(d->why, sizeof(d->why), "%" PRIu64 " taskstats exit record%s lost",
			 d->lost, d->lost == 1 ? "" : "s");
	for (size_t i = 0; !d->why[0] && i < d->nload; i++) {
		struct taskstats now;

		if (query_tgid(d->query, d->fam, d->load[i], &now))
			snprintf(d->why, sizeof(d->why), "cannot read load process %d's taskstats: %s",
				 (int)d->load[i], strerror(errno));
		else
			add_stats(&load, &now, &d->load0[i], (uint64_t)(mono_ns() - d->t0));
	}
	if (!d->why[0]) {
		attribute(d, leader, &build, &load);
		if (leader > 0 && !build.tasks)
			snprintf(d->why, sizeof(d->why), "no exit record of the build's tasks");
	}
	if (d->why[0]) {
		run->delays_absent = xstrdup(d->why);
	} else {
		if (leader > 0)
			run->build_delays = build;
		if (d->nload)
			run->load_delays = load;
	}
	if (d->query >= 0)
		close(d->query);
	free(d->recs);
	free(d->load);
	free(d->load0);
	free(d);
}

/* ---- `contest load` --------------------------------------------------------- */

static double secs(int64_t ns)
{
	return (double)ns / NS_PER_SEC;
}

void delays_print(FILE *f, const struct run *run, int64_t elapsed_ns)
{
	const struct task_delays *d = &run->load_delays;
	static const char *const res[] = { "cpu", "io", "memory" };

	if (d->tasks < 0)
		fprintf(f, "delays:   not measured (%s)\n",
			run->delays_absent ? run->delays_absent : "unknown");
	else
		fprintf(f, "delays:   %" PRId64 " task%s: CPU %.2f s, waiting for a CPU %.2f s, "
			"block I/O %.2f s, swap-in %.2f s, reclaim %.2f s, thrashing %.2f s, "
			"compaction %.2f s%s\n", d->tasks, d->tasks == 1 ? "" : "s",
			secs(d->cpu_ns), secs(d->wait_ns), secs(d->blkio_ns), secs(d->swapin_ns),
			secs(d->reclaim_ns), secs(d->thrash_ns), secs(d->compact_ns),
			d->bad ? " (some impossible figures left out)" : "");
	if (!run->psi_scope) {
		fprintf(f, "pressure: not measured (%s)\n",
			run->psi_absent ? run->psi_absent : "unknown");
		return;
	}
	fprintf(f, "pressure: %s", run->psi_scope);
	for (size_t i = 0; i < ARRAY_SIZE(res); i++) {
		fprintf(f, ", %s some %.1f%%", res[i],
			(double)run->psi_us[2 * i] * 1000 / (double)elapsed_ns * 100);
		if (run->psi_us[2 * i + 1] >= 0)
			fprintf(f, " full %.1f%%",
				(double)run->psi_us[2 * i + 1] * 1000 / (double)elapsed_ns * 100);
	}
	fprintf(f, "\n");
}
