/* SPDX-License-Identifier: GPL-2.0-or-later */
/* proc.h - child processes: spawn in a process group, signals, stop and reap. */
#ifndef CONTEST_PROC_H
#define CONTEST_PROC_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

/* Catch SIGINT, SIGTERM and SIGHUP: the handler only records the signal,
 * and interrupts blocking calls (no SA_RESTART) so loops can notice. */
void proc_catch_signals(void);
/* The signal that asked contest to stop, or 0. */
int proc_interrupted(void);

/* Start the guardian, a child that SIGKILLs every process group contest
 * made and did not reap when contest ends, however it ends.  Stop it (a
 * clean exit) with proc_guard_stop(). */
int proc_guard_start(void);
void proc_guard_stop(void);
/* Process group pgid is gone: the guardian can forget it. */
void proc_forget(pid_t pgid);
/* What the guardian undoes when contest ends without doing it itself (a
 * SIGKILL), after its kills, newest first: write value to path, end
 * contest's share of the setting at path held through lock (share.h), or
 * run cmd by /bin/sh -c.  add 0 takes back the same (path, value), (lock,
 * path) or cmd. */
void proc_guard_write(const char *path, const char *value, int add);
void proc_guard_share(const char *lock, const char *path, int add);
void proc_guard_run(const char *cmd, int add);

/* Fork a child in process group pgid (0: a new group led by the child),
 * with PR_SET_PDEATHSIG and default signal dispositions.  Returns the pid
 * in the parent, 0 in the child, -1 on failure. */
pid_t proc_fork(pid_t pgid);
/* As proc_fork(0), but the child leads a new session (setsid) and so, with
 * autogroup on, a scheduling group of its own: as if started from another
 * terminal.  The guardian kills its process group as any other. */
pid_t proc_fork_session(void);
/* In a child of contest (one from proc_fork_session): start a process that
 * runs fn(arg) in the caller's session and process group but is contest's
 * child (CLONE_PARENT), so that contest waits for it, gets its rusage and
 * stops it as its own; it dies with contest (PR_SET_PDEATHSIG).  Its pid in
 * the caller, -1 with errno on failure; fn must not return in practice (its
 * value would be the exit status). */
pid_t proc_fork_sibling(int (*fn)(void *), void *arg);

/* Run argv (no shell) in dir with stdout and stderr on out_fd (-1: /dev/null)
 * and stdin from /dev/null, in a new process group.  The pid, or -1 with the
 * reason in why (exec failures included). */
pid_t proc_spawn(char *const argv[], const char *dir, int out_fd, char *why, size_t len);

/* Wait until fd (-1: none) is readable, ns pass (< 0: no limit) or a stop
 * signal arrives, even one that came before the call: 1, 0 or -1. */
int proc_wait_fd(int fd, int64_t ns);
/* Sleep ns; -1 at once when a stop signal arrives (or came before). */
int proc_pause(int64_t ns);
/* wait4 for pid.  Returns 0, or -1 when a stop signal arrived first, even
 * before the call (the child is then still running).  With a tick set,
 * calls it about once a second meanwhile. */
int proc_wait(pid_t pid, int *status, struct rusage *ru);
/* Have proc_wait() call fn about once a second while it waits (NULL: never). */
void proc_set_tick(void (*fn)(void));
/* Call the tick now, for other loops that wait (it limits its own rate). */
void proc_tick(void);
/* Stop process group pgid led by pid (SIGTERM, up to grace_ns, SIGKILL) and
 * reap its leader. */
void proc_kill_group(pid_t pid, int64_t grace_ns, int *status, struct rusage *ru);
/* The same for a group whose leader is kept a zombie, unreaped, so that
 * pgid names no other group meanwhile: the grace lasts until the rest of
 * the group is gone (they are not contest's children: init reaps them),
 * the SIGKILL gets another, then the leader is reaped. */
void proc_kill_kept_group(pid_t pgid, int64_t grace_ns);

/* 1 while group pgid has a process other than its leader's zombie (a
 * leader kept unreaped, so that its id is not given to another process;
 * the others' zombies count: the group is gone once init reaped them). */
int proc_group_alive(pid_t pgid);

/* The process with the most memory resident (its pid, name and bytes),
 * to name in a message about memory: 0, or -1 when none can be read. */
int proc_largest(pid_t *pid, char *name, size_t len, uint64_t *rss);

/* Run argv and keep the first line of its output in buf; -1 when it could
 * not run or failed. */
int proc_first_line(char *const argv[], char *buf, size_t len);

/* "exit status 2", "killed by SIGKILL" */
void proc_describe(int status, char *buf, size_t len);

int64_t timeval_ns(const struct timeval *tv);

/* A point of a run (clean, flush, spawn, lead, build, record) where the
 * test build, tests/contest-hooked (compiled with CONTEST_TEST_HOOKS), can
 * hold contest while a test signals it; nothing in the shipped binary. */
#ifdef CONTEST_TEST_HOOKS
void test_hook(const char *point);
#else
#define test_hook(point) ((void)0)
#endif

#endif
