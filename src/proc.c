/* proc.c - child processes: spawn in a process group, signals, stop and reap. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fsutil.h"
#include "proc.h"
#include "util.h"

static volatile sig_atomic_t stop_signal;
static int guard_fd = -1;	/* contest's end of the pipe to the guardian */
static pid_t guard_pid;
static const int caught[] = { SIGINT, SIGTERM, SIGHUP };
static void (*tick)(void);	/* called about once a second while waiting */

static void on_signal(int sig)
{
	if (!stop_signal)
		stop_signal = sig;
}

void proc_catch_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < ARRAY_SIZE(caught); i++)
		sigaction(caught[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

int proc_interrupted(void)
{
	return stop_signal;
}

int64_t timeval_ns(const struct timeval *tv)
{
	return (int64_t)tv->tv_sec * NS_PER_SEC + (int64_t)tv->tv_usec * 1000;
}

/* ---- the guardian --------------------------------------------------------
 *
 * A child that learns every process group contest makes ("+PGID\n") and
 * forgets those that are gone ("-PGID\n").  When contest's end of the pipe
 * closes, at exit or because contest was killed (even with SIGKILL, which no
 * handler sees), it SIGKILLs the groups still listed: make's compilers
 * ignore make's death, and a load must not outlive the benchmark. */

/* What the guardian does after the kills: write VALUE to PATH ("=PATH\tVALUE"),
 * or run CMD by /bin/sh -c ("!CMD"), newest first. */
static void guard_undo(char **undo, size_t n)
{
	while (n--) {
		char *tab = strchr(undo[n], '\t');

		if (undo[n][0] == '=' && tab) {
			int fd;

			*tab = '\0';
			fd = open(undo[n] + 1, O_WRONLY | O_CLOEXEC);
			if (fd >= 0) {
				/* a failure has nobody left to be told */
				(void)!write_all(fd, tab + 1, strlen(tab + 1));
				close(fd);
			}
		} else if (undo[n][0] == '!') {
			pid_t pid = fork();

			if (pid == 0) {
				for (size_t i = 0; i < ARRAY_SIZE(caught); i++)
					signal(caught[i], SIG_DFL);
				execl("/bin/sh", "sh", "-c", undo[n] + 1, (char *)NULL);
				_exit(127);
			}
			while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
	}
}

/* Forget the undo line that is line with its first byte ('~') taken for
 * the kind: the newest match goes. */
static void guard_drop(char **undo, size_t *n, const char *line)
{
	for (size_t i = *n; i--; ) {
		if (strcmp(undo[i] + 1, line + 1))
			continue;
		free(undo[i]);
		memmove(&undo[i], &undo[i + 1], (*n - i - 1) * sizeof(*undo));
		(*n)--;
		return;
	}
}

static void guard_main(int fd)
{
	pid_t *groups = NULL;
	char **undo = NULL;
	size_t n = 0, cap = 0, have = 0, nundo = 0;
	char buf[4096];

	setpgid(0, 0);	/* out of the terminal's reach: a Ctrl-C is contest's to handle */
	prctl(PR_SET_NAME, "contest-guard");
	for (size_t i = 0; i < ARRAY_SIZE(caught); i++)
		signal(caught[i], SIG_IGN);
	for (;;) {
		ssize_t r = read(fd, buf + have, sizeof(buf) - 1 - have);
		char *line, *nl;

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		have += (size_t)r;
		buf[have] = '\0';
		for (line = buf; (nl = strchr(line, '\n')); line = nl + 1) {
			pid_t pg = (pid_t)strtol(line + 1, NULL, 10);

			if (line[0] == '+' && pg > 0) {
				if (n == cap) {
					cap = cap ? 2 * cap : 64;
					groups = realloc(groups, cap * sizeof(*groups));
					if (!groups)
						_exit(1);
				}
				groups[n++] = pg;
			} else if (line[0] == '-') {
				for (size_t i = 0; i < n; i++)
					if (groups[i] == pg)
						groups[i--] = groups[--n];
			} else if (line[0] == '=' || line[0] == '!') {
				*nl = '\0';
				undo = realloc(undo, (nundo + 1) * sizeof(*undo));
				if (!undo || !(undo[nundo] = strdup(line)))
					_exit(1);
				nundo++;
			} else if (line[0] == '~') {
				*nl = '\0';
				guard_drop(undo, &nundo, line);
			}
		}
		have -= (size_t)(line - buf);
		memmove(buf, line, have);
	}
	for (size_t i = 0; i < n; i++)
		kill(-groups[i], SIGKILL);
	free(groups);
	guard_undo(undo, nundo);
	for (size_t i = 0; i < nundo; i++)
		free(undo[i]);
	free(undo);
	_exit(0);
}

static void guard_tell(char op, pid_t pgid)
{
	char line[32];
	int n;

	if (guard_fd < 0)
		return;
	n = snprintf(line, sizeof(line), "%c%d\n", op, (int)pgid);
	while (write(guard_fd, line, (size_t)n) < 0 && errno == EINTR)
		;
}

int proc_guard_start(void)
{
	int pfd[2];

	if (pipe2(pfd, O_CLOEXEC))
		return -1;
	guard_pid = fork();
	if (guard_pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
	if (guard_pid == 0) {
		close(pfd[1]);
		guard_main(pfd[0]);
	}
	close(pfd[0]);
	guard_fd = pfd[1];
	return 0;
}

void proc_guard_stop(void)
{
	if (guard_fd < 0)
		return;
	close(guard_fd);
	guard_fd = -1;
	while (waitpid(guard_pid, NULL, 0) < 0 && errno == EINTR)
		;
}

void proc_forget(pid_t pgid)
{
	guard_tell('-', pgid);
}

void proc_remember(pid_t pgid)
{
	guard_tell('+', pgid);
}

/* One undo line to the guardian: "KIND TEXT\n" in one write. */
static void guard_undo_line(char kind, const char *text)
{
	char *line = xasprintf("%c%s\n", kind, text);

	if (guard_fd >= 0)	/* a guardian gone cannot be told */
		(void)!write_all(guard_fd, line, strlen(line));
	free(line);
}

void proc_guard_write(const char *path, const char *value, int add)
{
	char *text = xasprintf("=%s\t%s", path, value);

	guard_undo_line(add ? text[0] : '~', text + 1);
	free(text);
}

void proc_guard_run(const char *cmd, int add)
{
	char *text = xasprintf("!%s", cmd);

	guard_undo_line(add ? text[0] : '~', text + 1);
	free(text);
}

/* Fork a child in process group pgid (0: a group of its own), or in a
 * session of its own (then led by the child). */
static pid_t fork_child(pid_t pgid, int session)
{
	sigset_t all, old;
	pid_t parent = getpid(), pid;

	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (pid == 0) {
		struct sigaction sa;

		if (session)
			setsid();	/* cannot fail: a new pid leads no group yet */
		else
			setpgid(0, pgid);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (guard_fd >= 0)
			close(guard_fd);	/* the guardian must see EOF when contest dies */
		if (getppid() != parent)
			_exit(1);	/* the parent died before prctl */
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = SIG_DFL;
		for (size_t i = 0; i < ARRAY_SIZE(caught); i++)
			sigaction(caught[i], &sa, NULL);
		sigaction(SIGPIPE, &sa, NULL);
		sigemptyset(&old);
	} else if (pid > 0) {
		/* no race with the child's own call; a session leader's group
		 * is the child's to make */
		if (!session)
			setpgid(pid, pgid ? pgid : pid);
		if (!pgid)
			guard_tell('+', pid);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

pid_t proc_fork(pid_t pgid)
{
	return fork_child(pgid, 0);
}

pid_t proc_fork_session(void)
{
	return fork_child(0, 1);
}

/* A sibling's start: the death signal is not inherited, and is set against
 * the parent it shares with its maker. */
struct sibling {
	pid_t parent;
	int (*fn)(void *);
	void *arg;
};

static int sibling_start(void *p)
{
	struct sibling *s = p;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != s->parent)
		_exit(1);
	return s->fn(s->arg);
}

#define SIBLING_STACK (8 << 20)

pid_t proc_fork_sibling(int (*fn)(void *), void *arg)
{
	static char *stack;
	struct sibling s = { getppid(), fn, arg };

	/* without CLONE_VM every child gets its own copy of this stack */
	if (!stack) {
		stack = mmap(NULL, SIBLING_STACK, PROT_READ | PROT_WRITE,
			     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
		if (stack == MAP_FAILED) {
			stack = NULL;
			return -1;
		}
	}
	return clone(sibling_start, stack + SIBLING_STACK, CLONE_PARENT | SIGCHLD, &s);
}

pid_t proc_spawn(char *const argv[], const char *dir, int out_fd, char *why, size_t len)
{
	int pfd[2], err = 0;
	pid_t pid;
	ssize_t n;

	if (pipe2(pfd, O_CLOEXEC)) {
		snprintf(why, len, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = proc_fork(0);
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		close(pfd[0]);
		if (null < 0 || dup2(null, 0) < 0 ||
		    dup2(out_fd >= 0 ? out_fd : null, 1) < 0 ||
		    dup2(out_fd >= 0 ? out_fd : null, 2) < 0 ||
		    (dir && chdir(dir)))
			err = errno;
		else
			execvp(argv[0], argv);
		if (!err)
			err = errno;
		if (write(pfd[1], &err, sizeof(err)) < 0)
			_exit(126);
		_exit(127);
	}
	close(pfd[1]);
	if (pid < 0) {
		snprintf(why, len, "fork: %s", strerror(errno));
		close(pfd[0]);
		return -1;
	}
	do
		n = read(pfd[0], &err, sizeof(err));
	while (n < 0 && errno == EINTR);
	close(pfd[0]);
	if (n == (ssize_t)sizeof(err)) {
		waitpid(pid, NULL, 0);
		proc_forget(pid);
		snprintf(why, len, "cannot run %s: %s", argv[0], strerror(err));
		return -1;
	}
	return pid;
}

void proc_set_tick(void (*fn)(void))
{
	tick = fn;
}

void proc_tick(void)
{
	if (tick)
		tick();
}

/* Until pid exits: with a tick, poll a pidfd of it (Linux 5.3) for a
 * second at a time and call the tick in between.  0 when pid may have
 * exited (or nothing to wait with: wait4 then waits), -1 when a stop
 * signal arrived. */
static int wait_exit(pid_t pid)
{
	struct pollfd pfd = { .events = POLLIN };
	int r;

	if (!tick)
		return 0;
#ifdef SYS_pidfd_open
	pfd.fd = (int)syscall(SYS_pidfd_open, pid, 0);
#else
	pfd.fd = -1;
	(void)pid;
#endif
	while (pfd.fd >= 0 && !stop_signal) {
		r = poll(&pfd, 1, 1000);
		if (r > 0 || (r < 0 && errno != EINTR))
			break;
		if (r == 0)
			tick();
	}
	if (pfd.fd >= 0)
		close(pfd.fd);
	return stop_signal ? -1 : 0;
}

int proc_wait(pid_t pid, int *status, struct rusage *ru)
{
	if (wait_exit(pid))
		return -1;
	for (;;) {
		if (wait4(pid, status, 0, ru) == pid) {
			proc_forget(pid);
			return 0;
		}
		if (errno != EINTR)
			return -1;
		if (stop_signal)
			return -1;
	}
}

void proc_kill_group(pid_t pid, int64_t grace_ns, int *status, struct rusage *ru)
{
	int64_t deadline = mono_ns() + grace_ns;

	kill(-pid, SIGTERM);
	kill(-pid, SIGCONT);
	while (mono_ns() < deadline) {
		if (wait4(pid, status, WNOHANG, ru) == pid) {
			kill(-pid, SIGKILL);	/* whatever it left behind */
			proc_forget(pid);
			return;
		}
		sleep_ns(10 * 1000 * 1000);
	}
	kill(-pid, SIGKILL);
	while (wait4(pid, status, 0, ru) < 0 && errno == EINTR)
		;
	proc_forget(pid);
}

int proc_first_line(char *const argv[], char *buf, size_t len)
{
	int pfd[2], status;
	char why[200];
	size_t have = 0;
	ssize_t n;
	pid_t pid;

	buf[0] = '\0';
	if (pipe2(pfd, O_CLOEXEC))
		return -1;
	pid = proc_spawn(argv, NULL, pfd[1], why, sizeof(why));
	close(pfd[1]);
	if (pid < 0) {
		close(pfd[0]);
		return -1;
	}
	while (have + 1 < len && (n = read(pfd[0], buf + have, len - 1 - have)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		have += (size_t)n;
	}
	buf[have] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	close(pfd[0]);	/* the rest, if any, is not wanted */
	if (proc_wait(pid, &status, NULL))
		proc_kill_group(pid, 0, &status, NULL);
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

void proc_describe(int status, char *buf, size_t len)
{
	if (WIFEXITED(status))
		snprintf(buf, len, "exit status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, len, "killed by SIG%s", sigabbrev_np(WTERMSIG(status)) ?
			 sigabbrev_np(WTERMSIG(status)) : "?");
	else
		snprintf(buf, len, "status 0x%x", status);
}
