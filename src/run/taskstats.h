/* SPDX-License-Identifier: GPL-2.0-or-later */
/* taskstats.h - where the build's and the load's time went over a timed run:
 * the kernel's delay accounting (taskstats over generic netlink) and
 * pressure stall information (PSI). */
#ifndef CONTEST_TASKSTATS_H
#define CONTEST_TASKSTATS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "results/run.h"

struct delays;

/* For a suite or `contest load`: turn kernel.task_delayacct on (as root),
 * shared with the other contests running (share.h), the share handed to
 * the guardian so that even a SIGKILL ends it; delays_suite_end() ends it:
 * the last contest to end restores the value the first found.  Quiet when
 * it cannot (the figures are then absent with the reason). */
void delays_suite_begin(void);
void delays_suite_end(void);
/* --no-delays: from now on collect nothing (no task_delayacct, no taskstats,
 * no cgroup for the build); every run's figures are absent, with the reason
 * in why. */
void delays_off(const char *why);

/* Whether a cgroup's children compete as their tasks did, with subtree the
 * controllers enabled for them (its cgroup.subtree_control): 1 when each
 * divides nothing by default (cpuset, hugetlb, misc, perf_event, pids,
 * rdma); else 0 with the others (cpu, io, memory...) in which.  Only then
 * does the build get a cgroup of its own for PSI. */
int delays_cgroup_neutral(const char *subtree, char *which, size_t len);

/* Open the window of a timed run: listen for the exit records of every task
 * (the build's and the load's are told apart at the end, by ancestry),
 * read the load's processes (load, nload: their pids, alive) and the PSI
 * totals, and, when a build will run (build), make its cgroup when one can
 * be and changes nothing of the contest (delays_cgroup_neutral()).  Never
 * fails: what cannot be measured is recorded as absent with the reason. */
struct delays *delays_open(const pid_t *load, size_t nload, int build);
/* Just before the build is spawned: contest joins the build's cgroup, so
 * that the build is born in it (no task escapes a later move). */
void delays_enter(struct delays *d);
/* Just after: contest leaves the build's cgroup. */
void delays_leave(struct delays *d);
/* Close the window: the build led by leader (0: none ran) has ended; fill
 * run's delays and PSI fields (set absent) and free d, removing the
 * cgroup.  The delays are absent when kernel.task_delayacct was seen off
 * in the window (at its ends, and about every 100 ms): the kernel counted
 * only part of them. */
void delays_close(struct delays *d, pid_t leader, struct run *run);
/* Who is whose: the side of each of n exit records (pid[i], ppid[i], in
 * the order they came, children before the parents that reaped them):
 * DELAYS_BUILD for the leader (contest self's child) and its descendants,
 * DELAYS_LOAD for descendants of the live load processes, else
 * DELAYS_NONE.  A record's parent is the nearest later record of its ppid
 * (a pid the kernel reused later is another task). */
enum { DELAYS_NONE, DELAYS_BUILD, DELAYS_LOAD };
void delays_sides(const pid_t *pid, const pid_t *ppid, size_t n, pid_t self, pid_t leader,
		  const pid_t *load, size_t nload, unsigned char *side);
/* For `contest load`: the load's delays and the PSI over elapsed_ns, from
 * run as delays_close() filled it, as lines "delays: ..." "pressure: ...". */
void delays_print(FILE *f, const struct run *run, int64_t elapsed_ns);

#endif
