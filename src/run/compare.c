/* SPDX-License-Identifier: GPL-2.0-or-later */
/* compare.c - contest compare: configurations, their order, and switching
 * the machine between them.
 *
 * A configuration is a label and shell commands that switch the machine to
 * it (setup), back (undo), and confirm it holds (check), from a file:
 *
 *	[bfq]
 *	setup = echo bfq > /sys/block/vda/queue/scheduler
 *	undo  = echo mq-deadline > /sys/block/vda/queue/scheduler
 *	check = grep -q '\[bfq\]' /sys/block/vda/queue/scheduler
 *
 * or built in (--vary KEY=V1,V2).  What a setup leaves running (a sched_ext
 * scheduler) stays until undo and is killed then, or by the guardian; the
 * undo and what --vary changes are also the guardian's to do when contest
 * dies without doing them. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "run/compare.h"
#include "run/env.h"
#include "run/suite.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/proc.h"
#include "lib/util.h"

#define AUTOGROUP "/proc/sys/kernel/sched_autogroup_enabled"
#define SLICE "/sys/kernel/debug/sched/base_slice_ns"
#define SCX "/sys/kernel/sched_ext"
#define CMD_MAX 1024                    /* a command fits a guardian line */
#define CMD_TIMEOUT (300 * NS_PER_SEC)  /* setup, undo and check */
#define SCX_TIMEOUT (30 * NS_PER_SEC)   /* a scheduler binary to attach, detach */
#define GRACE (2 * NS_PER_SEC)

/* ---- the configuration file ------------------------------------------------ */

static struct cmp_config *add_config(struct comparison *c, const char *label,
				     const char *where)
{
	struct cmp_config *k;

	c->cfgs = xreallocarray(c->cfgs, c->n + 1, sizeof(*c->cfgs));
	k = &c->cfgs[c->n++];
	memset(k, 0, sizeof(*k));
	k->label = xstrdup(label);
	k->where = xstrdup(where);
	k->load_session = -1;	/* the command line's */
	return k;
}

static char *trim(char *s)
{
	char *e = s + strlen(s);

	while (*s == ' ' || *s == '\t')
		s++;
	while (e > s && strchr(" \t\r\n", e[-1]))
		e--;
	*e = '\0';
	return s;
}

/* Labels must name table rows and result files, once each. */
static int check_labels(const struct comparison *c, char *why, size_t len)
{
	char bad[256];

	for (size_t i = 0; i < c->n; i++) {
		if (store_check_label(c->cfgs[i].label, bad, sizeof(bad)))
			return whyf(why, len, "%s: bad label '%s': %s", c->cfgs[i].where,
				    c->cfgs[i].label, bad);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(c->cfgs[i].label, c->cfgs[j].label))
				return whyf(why, len, "%s: configuration '%s' again (first at %s)",
					    c->cfgs[i].where, c->cfgs[i].label, c->cfgs[j].where);
	}
	if (c->n < 2)
		return whyf(why, len, "a comparison needs two configurations or more, not %zu",
			    c->n);
	return 0;
}

int compare_parse(struct comparison *c, const char *file, const char *text,
		  char *why, size_t len)
{
	char *copy = xstrdup(text), *line, *next;
	struct cmp_config *k = NULL;
	int ln = 0, ret = 0;

	for (line = copy; line && !ret; line = next) {
		char where[600], *key, *val, *eq, **slot = NULL;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		ln++;
		snprintf(where, sizeof(where), "%s:%d", file, ln);
		key = trim(line);
		if (!*key || *key == '#' || *key == ';')
			continue;
		if (*key == '[') {
			char *end = strchr(key, ']');

			if (!end || end[1])
				ret = whyf(why, len, "%s: a section is [LABEL] alone on its line", where);
			else if (end == key + 1)
				ret = whyf(why, len, "%s: a section without a label", where);
			else {
				*end = '\0';
				k = add_config(c, key + 1, where);
			}
			continue;
		}
		eq = strchr(key, '=');
		if (!eq) {
			ret = whyf(why, len, "%s: not KEY = COMMAND nor [LABEL]: '%s'", where, key);
			continue;
		}
		*eq = '\0';
		val = trim(eq + 1);
		key = trim(key);
		if (!k) {
			ret = whyf(why, len, "%s: '%s' before the first [LABEL]", where, key);
			continue;
		}
		if (!strcmp(key, "setup"))
			slot = &k->setup;
		else if (!strcmp(key, "undo"))
			slot = &k->undo;
		else if (!strcmp(key, "check"))
			slot = &k->check;
		if (!slot)
			ret = whyf(why, len, "%s: unknown key '%s' (setup, undo or check)", where, key);
		else if (*slot)
			ret = whyf(why, len, "%s: a second %s for [%s]", where, key, k->label);
		else if (!*val)
			ret = whyf(why, len, "%s: %s without a command", where, key);
		else if (strlen(val) > CMD_MAX)
			ret = whyf(why, len, "%s: the %s command is longer than %d bytes", where,
				   key, CMD_MAX);
		else
			*slot = xstrdup(val);
	}
	free(copy);
	if (!ret)
		ret = check_labels(c, why, len);
	return ret;
}

/* ---- --vary ---------------------------------------------------------------- */

static const struct {
	const char *name;
	enum knob knob;
} knobs[] = {
	{ "autogroup", KNOB_AUTOGROUP }, { "iosched", KNOB_IOSCHED },
	{ "load-nice", KNOB_LOAD_NICE }, { "load-session", KNOB_LOAD_SESSION },
	{ "slice", KNOB_SLICE }, { "sched_ext", KNOB_SCHED_EXT },
};

/* Whether name is one of the words of a queue/scheduler file. */
static int offered(const char *list, const char *name)
{
	char *copy = xstrdup(list), *save = NULL;
	int found = 0;

	for (char *w = strtok_r(copy, " []", &save); w && !found; w = strtok_r(NULL, " []", &save))
		found = !strcmp(w, name);
	free(copy);
	return found;
}

/* A machine setting in a file: it must be there and writable (root). */
static int knob_file(struct comparison *c, const char *path, const char *what,
		     char *why, size_t len)
{
	snprintf(c->path, sizeof(c->path), "%s", path);
	if (read_small(path, c->orig, sizeof(c->orig)))
		return whyf(why, len, "--vary %s: cannot read %s (%s): %s", c->knob_name, path,
			    what, strerror(errno));
	if (access(path, W_OK))
		return whyf(why, len, "--vary %s: cannot change %s: %s%s", c->knob_name, path,
			    strerror(errno), geteuid() ? " (it needs root)" : "");
	return 0;
}

/* Every value of the knob is one it can take here. */
static int check_value(struct comparison *c, struct cmp_config *k, char *why, size_t len)
{
	const char *v = k->value;
	uint64_t u;
	int64_t i;

	switch (c->knob) {
	case KNOB_AUTOGROUP:
		if (strcmp(v, "0") && strcmp(v, "1"))
			return whyf(why, len, "--vary autogroup takes 0 and 1, not '%s'", v);
		return 0;
	case KNOB_LOAD_SESSION:
		if (strcmp(v, "0") && strcmp(v, "1"))
			return whyf(why, len, "--vary load-session takes 0 and 1, not '%s'", v);
		k->load_session = v[0] == '1';
		return 0;
	case KNOB_LOAD_NICE:
		if (parse_i64(v, -20, 19, &i))
			return whyf(why, len, "--vary load-nice takes nice values from -20 to 19, "
				    "not '%s'", v);
		k->load_nice = (int)i;
		k->has_nice = 1;
		return 0;
	case KNOB_SLICE:
		if (parse_u64(v, 100000, 100000000, &u))
			return whyf(why, len, "--vary slice takes nanoseconds from 100000 to "
				    "100000000, not '%s'", v);
		return 0;
	case KNOB_IOSCHED: {
		char list[256];

		if (read_small(c->path, list, sizeof(list)) || !offered(list, v))
			return whyf(why, len, "--vary iosched: %s does not offer '%s' (it offers: %s)",
				    c->path, v, list);
		return 0;
	}
	case KNOB_SCHED_EXT: {
		char *argv[] = { (char *)"sh", (char *)"-c", (char *)"command -v \"$0\"",
				 (char *)v, NULL };
		char found[512];

		if (!strcmp(v, "none"))
			return 0;
		if (strchr(v, '/') || proc_first_line(argv, found, sizeof(found)))
			return whyf(why, len, "--vary sched_ext: no scheduler binary '%s' in PATH "
				    "(install it, e.g. from the scx package, or name another)", v);
		return 0;
	}
	case KNOB_NONE:
		break;
	}
	return 0;
}

/* The run options KEY of --vary cannot go with, or needs: returns 0, or -1 with
 * the reason in why. */
static int check_options(const struct comparison *c, const struct config *cfg, char *why,
			 size_t len)
{
	if (c->knob == KNOB_LOAD_NICE && cfg->load_nice)
		return whyf(why, len, "--vary load-nice and --load-nice: give the nice values in "
			    "--vary alone");
	if (c->knob == KNOB_LOAD_SESSION && cfg->load_session)
		return whyf(why, len, "--vary load-session and --load-session: --vary "
			    "load-session=0,1 runs both");
	if (c->knob == KNOB_AUTOGROUP && !cfg->load_session)
		return whyf(why, len, "--vary autogroup without --load-session would measure "
			    "nothing: the loads and the build run in contest's session, so in "
			    "one scheduling group whether autogroup is on or off; add "
			    "--load-session, which runs the loads in a session of their own, "
			    "as from another terminal");
	return 0;
}

/* What the machine must offer before any work. */
static int check_knob(struct comparison *c, const struct config *cfg, char *why, size_t len)
{
	char state[64];

	switch (c->knob) {
	case KNOB_AUTOGROUP:
		return knob_file(c, AUTOGROUP, "a kernel without CONFIG_SCHED_AUTOGROUP", why, len);
	case KNOB_SLICE:
		return knob_file(c, SLICE, "debugfs not mounted at /sys/kernel/debug, or a kernel "
				 "without EEVDF's base slice", why, len);
	case KNOB_IOSCHED: {
		char path[512];

		if (env_io_scheduler_path(cfg->work_dir, path, sizeof(path)))
			return whyf(why, len, "--vary iosched: the work directory %s is on no block "
				    "device with an I/O scheduler", cfg->work_dir);
		if (knob_file(c, path, "the work directory's disk", why, len))
			return -1;
		env_bracketed(c->orig);
		return 0;
	}
	case KNOB_SCHED_EXT:
		if (read_small(SCX "/state", state, sizeof(state)))
			return whyf(why, len, "--vary sched_ext: this kernel has no sched_ext (%s "
				    "is absent: a kernel built without CONFIG_SCHED_CLASS_EXT)",
				    SCX "/state");
		if (strcmp(state, "disabled"))
			return whyf(why, len, "--vary sched_ext: a sched_ext scheduler is %s already "
				    "(%s): stop it first, contest starts and stops its own", state,
				    SCX "/state");
		if (geteuid())
			return whyf(why, len, "--vary sched_ext: loading a scheduler needs root");
		return 0;
	case KNOB_LOAD_NICE:	/* the loads' own: check_options() */
	case KNOB_LOAD_SESSION:
	case KNOB_NONE:
		break;
	}
	return 0;
}

/* --vary KEY=V1,V2: 0, EXIT_USAGE when the command line is wrong,
 * EXIT_FAILED when this machine cannot vary KEY. */
static int parse_vary(struct comparison *c, const struct config *cfg, char *why, size_t len)
{
	const char *spec = cfg->vary, *eq = strchr(spec, '=');
	char *values, *save = NULL, known[128] = "";

	for (size_t i = 0; i < ARRAY_SIZE(knobs) && eq; i++)
		if (strlen(knobs[i].name) == (size_t)(eq - spec) &&
		    !strncmp(knobs[i].name, spec, (size_t)(eq - spec))) {
			c->knob = knobs[i].knob;
			c->knob_name = knobs[i].name;
		}
	if (!c->knob) {
		for (size_t i = 0; i < ARRAY_SIZE(knobs); i++)
			snprintf(known + strlen(known), sizeof(known) - strlen(known), "%s%s",
				 i ? ", " : "", knobs[i].name);
		whyf(why, len, "--vary wants KEY=V1,V2 with KEY one of %s, not '%s'", known, spec);
		return EXIT_USAGE;
	}
	if (check_options(c, cfg, why, len))
		return EXIT_USAGE;
	if (check_knob(c, cfg, why, len))
		return EXIT_FAILED;
	values = xstrdup(eq + 1);
	for (char *v = strtok_r(values, ",", &save); v; v = strtok_r(NULL, ",", &save)) {
		char *label = xasprintf("%s=%s", c->knob_name, v);
		struct cmp_config *k = add_config(c, label, "--vary");

		free(label);
		k->value = xstrdup(v);
	}
	free(values);
	for (size_t i = 0; i < c->n; i++)
		if (check_value(c, &c->cfgs[i], why, len))
			return EXIT_USAGE;
	return check_labels(c, why, len) ? EXIT_USAGE : 0;
}

/* ---- the order --------------------------------------------------------------- */

/* splitmix64: the seed's stream of numbers. */
static uint64_t next_random(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

void compare_plan_order(struct comparison *c, uint64_t seed)
{
	size_t n = c->n, *base = xcalloc(n, sizeof(*base)), *map = xcalloc(n, sizeof(*map));
	uint64_t state = seed;

	c->seed = seed;
	/* Williams: 0, 1, n-1, 2, n-2, ... shifted by the row; an odd n needs
	 * the reversed rows as well for every pair to follow each other alike */
	for (size_t j = 0; j < n; j++)
		base[j] = j == 0 ? 0 : j % 2 ? (j + 1) / 2 : n - j / 2;
	for (size_t i = 0; i < n; i++)
		map[i] = i;
	if (seed) {
		for (size_t i = n - 1; i > 0; i--) {
			size_t j = (size_t)(next_random(&state) % (i + 1)), t = map[i];

			map[i] = map[j];
			map[j] = t;
		}
	}
	c->nrows = n % 2 ? 2 * n : n;
	free(c->order);
	c->order = xcalloc(c->nrows * n, sizeof(*c->order));
	for (size_t r = 0; r < n; r++)
		for (size_t j = 0; j < n; j++) {
			c->order[r * n + j] = map[(base[j] + r) % n];
			if (n % 2)
				c->order[(n + r) * n + (n - 1 - j)] = map[(base[j] + r) % n];
		}
	c->first_row = seed ? (size_t)(next_random(&state) % c->nrows) : 0;
	free(base);
	free(map);
}

size_t compare_at(const struct comparison *c, uint64_t round, size_t k)
{
	size_t row = (c->first_row + (size_t)(round - 1)) % c->nrows;

	return c->order[row * c->n + k];
}

void compare_free(struct comparison *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->cfgs[i].label);
		free(c->cfgs[i].setup);
		free(c->cfgs[i].undo);
		free(c->cfgs[i].check);
		free(c->cfgs[i].value);
		free((char *)c->cfgs[i].where);
	}
	free(c->cfgs);
	free(c->order);
	free(c->log);
	memset(c, 0, sizeof(*c));
}

static int read_text(const char *path, char **out, char *why, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t cap = 4096, n = 0, r;
	char *buf;

	if (!f)
		return whyf(why, len, "cannot read %s: %s", path, strerror(errno));
	buf = xmalloc(cap);
	while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (n + 1 == cap)
			buf = xrealloc(buf, cap *= 2);
		if (n > (1 << 20))
			break;
	}
	buf[n] = '\0';
	if (ferror(f) || n > (1 << 20) || memchr(buf, '\0', n)) {
		int bad = ferror(f);

		fclose(f);
		free(buf);
		return whyf(why, len, "%s: %s", path, bad ? strerror(errno) :
			    "not a text file of configurations");
	}
	fclose(f);
	*out = buf;
	return 0;
}

int compare_init(struct comparison *c, const struct config *cfg)
{
	char why[1024];
	char *text = NULL;
	int bad;

	memset(c, 0, sizeof(*c));
	c->active = -1;
	if (!cfg->configs == !cfg->vary)
		return usage_error("compare wants its configurations: --configs FILE or "
				   "--vary KEY=V1,V2 (one of them)");
	/* a configuration the command line names wrong is a usage error */
	if (cfg->vary)
		bad = parse_vary(c, cfg, why, sizeof(why));
	else if ((bad = read_text(cfg->configs, &text, why, sizeof(why)) ? EXIT_USAGE : 0) == 0)
		bad = compare_parse(c, cfg->configs, text, why, sizeof(why)) ? EXIT_USAGE : 0;
	free(text);
	if (bad) {
		msg("%s", why);
		return bad;
	}
	compare_plan_order(c, cfg->seed);
	return 0;
}

/* ---- commands ---------------------------------------------------------------- */

/* The wait status of an exited child from waitid()'s siginfo. */
static int exit_status(const siginfo_t *si)
{
	return si->si_code == CLD_EXITED ? W_EXITCODE(si->si_status, 0) :
	       W_EXITCODE(0, si->si_status & 0x7f);
}

/* Run cmd by /bin/sh -c in contest's directory, its output to the log.  With
 * kept, a process the command leaves in its group stays (its group in *kept,
 * its leader unreaped, the guardian still told); else it is stopped.  A stop
 * signal ends it when interruptible.  Returns 0, or -1 with the reason in
 * why. */
static int run_sh(struct comparison *c, const char *what, const char *cmd, int interruptible,
		  pid_t *kept, char *why, size_t len)
{
	char *argv[] = { (char *)"sh", (char *)"-c", (char *)cmd, NULL };
	int fd = c->log ? open(c->log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600) : -1;
	int64_t end = mono_ns() + CMD_TIMEOUT;
	int status = 0;
	pid_t pid;

	pid = proc_spawn(argv, NULL, fd, why, len);
	if (fd >= 0)
		close(fd);
	if (pid < 0)
		return -1;
	for (;;) {
		siginfo_t si;

		/* not reaped yet (WNOWAIT): see proc_kill_kept_group() */
		si.si_pid = 0;
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
		    si.si_pid == pid) {
			status = exit_status(&si);
			break;
		}
		if ((interruptible && proc_interrupted()) || mono_ns() > end) {
			proc_kill_group(pid, GRACE, &status, NULL);
			return whyf(why, len, "%s `%s` %s", what, cmd, proc_interrupted() ?
				    "interrupted" : "took more than 300 s: killed");
		}
		proc_tick();
		sleep_ns(10 * 1000 * 1000);
	}
	if (!proc_group_alive(pid)) {
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		proc_forget(pid);
	} else if (kept) {
		*kept = pid;	/* its leader a zombie until proc_kill_kept_group() */
	} else {
		proc_kill_kept_group(pid, GRACE);
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		char how[64];

		proc_describe(status, how, sizeof(how));
		return whyf(why, len, "%s `%s` failed (%s)", what, cmd, how);
	}
	return 0;
}

static int write_file(const char *path, const char *value, char *why, size_t len)
{
	if (write_small(path, value))
		return whyf(why, len, "cannot write '%s' to %s: %s", value, path, strerror(errno));
	return 0;
}

/* A knob's file as the configuration would see it (bracketed for iosched). */
static int knob_value(const struct comparison *c, char *buf, size_t len)
{
	if (read_small(c->path, buf, len))
		return -1;
	if (c->knob == KNOB_IOSCHED)
		env_bracketed(buf);
	return 0;
}

static int global_file_knob(const struct comparison *c)
{
	return c->knob == KNOB_AUTOGROUP || c->knob == KNOB_IOSCHED || c->knob == KNOB_SLICE;
}

int compare_machine_wide(const struct comparison *c)
{
	return global_file_knob(c) || c->knob == KNOB_SCHED_EXT;
}

void compare_start(struct comparison *c)
{
	if (global_file_knob(c)) {
		proc_guard_write(c->path, c->orig, 1);
		c->guarded = 1;
	}
}

/* sched_ext's state file is want, within SCX_TIMEOUT (pid: the scheduler,
 * which must not exit meanwhile, or 0: then a stop signal does not end the
 * wait, which is the way back).  Returns 0, or -1 with the reason in why. */
static int scx_wait(const char *want, pid_t pid, char *why, size_t len)
{
	int64_t end = mono_ns() + SCX_TIMEOUT;
	char state[64] = "?";

	while (mono_ns() < end && !(pid && proc_interrupted())) {
		int status;

		if (read_small(SCX "/state", state, sizeof(state)) == 0 && !strcmp(state, want))
			return 0;
		if (pid && waitpid(pid, &status, WNOHANG) == pid) {
			char how[64];

			proc_forget(pid);
			proc_describe(status, how, sizeof(how));
			return whyf(why, len, "the sched_ext scheduler ended (%s) before it was "
				    "%s", how, want);
		}
		sleep_ns(50 * 1000 * 1000);
	}
	return whyf(why, len, "sched_ext is %s, not %s, after %d s", state, want,
		    (int)(SCX_TIMEOUT / NS_PER_SEC));
}

static int scx_enter(struct comparison *c, struct cmp_config *k, char *why, size_t len)
{
	char *argv[] = { k->value, NULL };
	char seq[32];
	int fd;
	pid_t pid;

	if (!strcmp(k->value, "none"))
		return 0;
	fd = c->log ? open(c->log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600) : -1;
	pid = proc_spawn(argv, NULL, fd, why, len);
	if (fd >= 0)
		close(fd);
	if (pid < 0)
		return -1;
	k->kept = pid;
	if (scx_wait("enabled", pid, why, len)) {
		if (kill(pid, 0) == 0)
			proc_kill_group(pid, GRACE, NULL, NULL);
		k->kept = 0;
		return -1;
	}
	k->enable_seq = read_small(SCX "/enable_seq", seq, sizeof(seq)) ? -1 : atoi(seq);
	return 0;
}

int compare_enter(struct comparison *c, size_t i, char *why, size_t len)
{
	struct cmp_config *k = &c->cfgs[i];

	c->active = (int)i;
	if (global_file_knob(c))
		return write_file(c->path, k->value, why, len);
	if (c->knob == KNOB_SCHED_EXT)
		return scx_enter(c, k, why, len);
	if (k->undo)
		proc_guard_run(k->undo, 1);	/* from now on, even after a SIGKILL */
	if (k->setup)
		return run_sh(c, "setup", k->setup, 1, &k->kept, why, len);
	return 0;
}

int compare_leave(struct comparison *c, char *why, size_t len)
{
	struct cmp_config *k;
	int ret = 0;

	if (c->active < 0)
		return 0;
	k = &c->cfgs[c->active];
	c->active = -1;
	if (global_file_knob(c))
		return write_file(c->path, c->orig, why, len);
	if (c->knob == KNOB_SCHED_EXT) {
		if (!k->kept)
			return 0;
		proc_kill_group(k->kept, GRACE, NULL, NULL);
		k->kept = 0;
		return scx_wait("disabled", 0, why, len);
	}
	if (k->undo) {
		ret = run_sh(c, "undo", k->undo, 0, NULL, why, len);
		proc_guard_run(k->undo, 0);
	}
	if (k->kept) {
		proc_kill_kept_group(k->kept, GRACE);
		k->kept = 0;
	}
	return ret;
}

int compare_end(struct comparison *c)
{
	char why[1024], now[256];
	int ret = 0;

	if (c->active >= 0 && compare_leave(c, why, sizeof(why))) {
		msg("cannot switch back from configuration %s: %s", c->cfgs[c->active].label, why);
		ret = -1;
	}
	c->active = -1;
	if (global_file_knob(c) && c->guarded) {
		if (knob_value(c, now, sizeof(now)) || strcmp(now, c->orig)) {
			if (write_file(c->path, c->orig, why, sizeof(why))) {
				msg("cannot restore %s to %s: %s", c->path, c->orig, why);
				ret = -1;
			}
		}
		proc_guard_write(c->path, c->orig, 0);
		c->guarded = 0;
	}
	return ret;
}

/* ---- checks and records ------------------------------------------------------ */

static void observe(const char *key, const char *path, int brackets, struct record *obs)
{
	char buf[512];

	if (read_small(path, buf, sizeof(buf))) {
		record_set(obs, key, "absent");
		return;
	}
	if (brackets)
		env_bracketed(buf);
	record_set(obs, key, buf);
}

/* The active configuration's checks hold: returns 0, or -1 with the reason in
 * why. */
static int check_config(struct comparison *c, const char *work_dir, struct record *obs,
			char *why, size_t len)
{
	struct cmp_config *k = &c->cfgs[c->active];
	char path[512], state[64] = "", ops[128], seq[32] = "";
	const char *v;

	observe("autogroup", AUTOGROUP, 0, obs);
	if (env_io_scheduler_path(work_dir, path, sizeof(path)) == 0)
		observe("io_scheduler", path, 1, obs);
	else
		record_set(obs, "io_scheduler", "absent");
	if (read_small(SCX "/state", state, sizeof(state)) == 0) {
		if (read_small(SCX "/root/ops", ops, sizeof(ops)))
			snprintf(ops, sizeof(ops), "-");
		if (read_small(SCX "/enable_seq", seq, sizeof(seq)))
			snprintf(seq, sizeof(seq), "-");
		record_setf(obs, "sched_ext", "%s,%s,%s", state, ops, seq);
	} else {
		record_set(obs, "sched_ext", "absent");
	}
	if (access(SLICE, F_OK) == 0)
		observe("slice", SLICE, 0, obs);
	if (global_file_knob(c) && (v = record_get(obs, c->knob == KNOB_AUTOGROUP ? "autogroup" :
						 c->knob == KNOB_SLICE ? "slice" : "io_scheduler")) &&
	    strcmp(v, k->value))
		return whyf(why, len, "%s is %s, not %s as configuration %s set it",
			    c->knob_name, v, k->value, k->label);
	if (c->knob == KNOB_SCHED_EXT && !strcmp(k->value, "none") && strcmp(state, "disabled"))
		return whyf(why, len, "sched_ext is %s: a scheduler was loaded meanwhile", state);
	if (c->knob == KNOB_SCHED_EXT && strcmp(k->value, "none")) {
		if (strcmp(state, "enabled"))
			return whyf(why, len, "sched_ext is %s: the kernel ejected %s", state, k->value);
		if (k->enable_seq >= 0 && atoi(seq) != k->enable_seq)
			return whyf(why, len, "sched_ext enable_seq is %s, not %d: %s was ejected and "
				    "a scheduler loaded again", seq, k->enable_seq, k->value);
	}
	if (k->check) {
		char what[1024];

		if (run_sh(c, "check", k->check, 1, NULL, what, sizeof(what))) {
			record_set(obs, "check", "failed");
			return whyf(why, len, "%s", what);
		}
		record_set(obs, "check", "ok");
	}
	return 0;
}

/* What differs between two observations, as "KEY A -> B"; -1 when one. */
static int changed(const struct record *before, const struct record *after,
		   char *why, size_t len)
{
	for (size_t i = 0; i < before->n; i++) {
		const char *a = before->kv[i].val, *b = record_get(after, before->kv[i].key);

		if (b && strcmp(a, b))
			return whyf(why, len, "%s changed during the run: %s -> %s",
				    before->kv[i].key, a, b);
	}
	return 0;
}

int compare_verify(struct comparison *c, const char *work_dir, const struct record *before,
		   struct record *obs, char *why, size_t len)
{
	if (check_config(c, work_dir, obs, why, len))
		return -1;
	return before ? changed(before, obs, why, len) : 0;
}

/* What the configuration does, in words, for the records. */
static void setup_text(const struct comparison *c, const struct cmp_config *k,
		       char *buf, size_t len)
{
	switch (c->knob) {
	case KNOB_AUTOGROUP:
	case KNOB_IOSCHED:
	case KNOB_SLICE:
		snprintf(buf, len, "echo %s > %s", k->value, c->path);
		return;
	case KNOB_LOAD_NICE:
		snprintf(buf, len, "--load-nice %s", k->value);
		return;
	case KNOB_LOAD_SESSION:
		snprintf(buf, len, "%s", k->load_session ? "--load-session" : "(loads in contest's "
			 "session)");
		return;
	case KNOB_SCHED_EXT:
		snprintf(buf, len, "%s", strcmp(k->value, "none") ? k->value : "(no sched_ext "
			 "scheduler)");
		return;
	case KNOB_NONE:
		snprintf(buf, len, "%s", k->setup ? k->setup : "");
		return;
	}
}

void compare_describe(const struct comparison *c, size_t i, const struct record *obs,
		      struct record *r)
{
	const struct cmp_config *k = &c->cfgs[i];
	char text[1200];

	record_set(r, "compare", c->id);
	setup_text(c, k, text, sizeof(text));
	record_set(r, "config_setup", text[0] ? text : "(none)");
	if (obs) {
		for (size_t j = 0; j < obs->n; j++) {
			char *key = xasprintf("observed.%s", obs->kv[j].key);

			record_set(r, key, obs->kv[j].val);
			free(key);
		}
		return;
	}
	record_setf(r, "compare_index", "%zu", i);
	record_setf(r, "compare_configs", "%zu", c->n);
	record_setf(r, "compare_seed", "%llu", (unsigned long long)c->seed);
	if (c->knob)
		record_setf(r, "compare_vary", "%s=%s", c->knob_name, k->value);
	if (k->undo)
		record_set(r, "config_undo", k->undo);
	if (k->check)
		record_set(r, "config_check", k->check);
	if (global_file_knob(c))
		record_setf(r, "compare_restore", "%s to %s", c->orig, c->path);
	{
		char order[1024] = "";
		size_t o = 0;

		for (size_t row = 0; row < c->nrows && o + 2 < sizeof(order); row++)
			for (size_t j = 0; j < c->n && o + 2 < sizeof(order); j++)
				o += (size_t)snprintf(order + o, sizeof(order) - o, "%s%zu",
						      row || j ? "," : "",
						      c->order[row * c->n + j]);
		record_setf(r, "compare_order", "%s (row %zu first)", order, c->first_row);
	}
}

void compare_print_plan(const struct comparison *c, uint64_t rounds, FILE *f)
{
	fprintf(f, "    comparison %s: %zu configurations, ", c->id, c->n);
	for (size_t i = 0; i < c->n; i++)
		fprintf(f, "%s%s", i ? ", " : "", c->cfgs[i].label);
	fprintf(f, "\n    order (--seed %llu):", (unsigned long long)c->seed);
	for (uint64_t r = 1; r <= rounds && r <= 8; r++) {
		fputs(r > 1 ? " |" : "", f);
		for (size_t k = 0; k < c->n; k++)
			fprintf(f, " %s", c->cfgs[compare_at(c, r, k)].label);
	}
	fprintf(f, "%s\n", rounds > 8 ? " | ..." : "");
	if (rounds % c->nrows)
		fprintf(f, "    (-n %llu is not a multiple of %zu: the order is balanced over "
			"whole multiples only)\n", (unsigned long long)rounds, c->nrows);
	if (global_file_knob(c))
		fprintf(f, "    %s is %s now, and is restored to it at the end\n", c->path, c->orig);
}

/* ---- report --compare --------------------------------------------------------- */

int compare_select(struct store *st, const char *id, char ***labels, size_t *n,
		   char *why, size_t len)
{
	size_t k = 0, nl = 0;
	int64_t *index = NULL;

	*labels = NULL;
	*n = 0;
	for (size_t e = 0; e < st->nenvs; e++) {
		const char *cid = record_get(&st->envs[e], "compare");
		const char *label = record_get(&st->envs[e], "label");
		int64_t i;

		if (!cid || strcmp(cid, id) || !label)
			continue;
		if (record_get_i64(&st->envs[e], "compare_index", &i))
			i = (int64_t)nl;
		*labels = xreallocarray(*labels, nl + 1, sizeof(**labels));
		index = xreallocarray(index, nl + 1, sizeof(*index));
		/* in the order of the configurations */
		size_t at = nl;

		while (at > 0 && index[at - 1] > i) {
			(*labels)[at] = (*labels)[at - 1];
			index[at] = index[at - 1];
			at--;
		}
		(*labels)[at] = (char *)label;
		index[at] = i;
		nl++;
	}
	free(index);
	if (!nl)
		return whyf(why, len, "no comparison '%s' in the results (its id is in the "
			    "plan compare prints, and in the records as compare=ID)", id);
	for (size_t i = 0; i < st->nruns; i++) {
		if (!strcmp(st->runs[i].session, id))
			st->runs[k++] = st->runs[i];
		else
			run_free(&st->runs[i]);
	}
	st->nruns = k;
	k = 0;
	for (size_t e = 0; e < st->nenvs; e++) {
		const char *s = record_get(&st->envs[e], "session");

		if (s && !strcmp(s, id))
			st->envs[k++] = st->envs[e];
		else
			record_free(&st->envs[e]);
	}
	st->nenvs = k;
	*n = nl;
	return 0;
}

/* ---- contest compare: the suite driven ---------------------------------------- */

static void config_of(const struct comparison *c, size_t i, struct suite_config *k)
{
	const struct cmp_config *cc = &c->cfgs[i];

	k->label = cc->label;
	k->has_nice = cc->has_nice;
	k->load_nice = cc->load_nice;
	k->load_session = cc->load_session;
}

/* The comparison's id is the suite's session, in every record. */
static void set_id(struct comparison *c, const char *id)
{
	snprintf(c->id, sizeof(c->id), "%s", id);
}

static void set_log(struct comparison *c, char *path)
{
	c->log = path;
}

int compare_main(struct config *cfg)
{
	struct comparison c;
	int rc = compare_init(&c, cfg);

	if (rc == 0) {
		static const struct suite_config_ops ops = {
			.config = config_of, .enter = compare_enter, .leave = compare_leave,
			.verify = compare_verify, .describe = compare_describe,
		};
		static const struct suite_comparison_ops comparison = {
			.name = set_id, .log_to = set_log, .machine_wide = compare_machine_wide,
			.start = compare_start, .at = compare_at, .end = compare_end,
			.print_plan = compare_print_plan, .select = compare_select,
		};
		/* after compare_init(): it knows how many configurations */
		struct suite_configs configs = {
			.c = &c, .n = c.n, .ops = &ops, .comparison = &comparison,
		};

		rc = suite_over(cfg, &configs);
	}
	compare_free(&c);
	return rc;
}
