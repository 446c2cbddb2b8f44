/* SPDX-License-Identifier: GPL-2.0-or-later */
/* workload.c - the reference workload: its tree, build, clean and identity.
 *
 * Three kinds.  builtin: a C tree generated in the run directory.  kernel:
 * a Linux source tree, configured once and built out of tree in the run
 * directory (make -C DIR O=BUILD), or in DIR itself with --in-tree.  cmd:
 * the user's build and clean commands, run by /bin/sh -c in their DIR. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workload/builtin.h"
#include "workload/workload.h"
#include "lib/fsutil.h"
#include "lib/proc.h"
#include "lib/util.h"

#define GRACE_NS (2 * NS_PER_SEC)
#define TAIL_LINES 20

static char **argv_new(void)
{
	return xcalloc(1, sizeof(char *));
}

static void argv_push(char ***argv, char *arg)
{
	size_t n = 0;

	while ((*argv)[n])
		n++;
	*argv = xreallocarray(*argv, n + 2, sizeof(char *));
	(*argv)[n] = arg;
	(*argv)[n + 1] = NULL;
}

static void argv_free(char **argv)
{
	if (!argv)
		return;
	for (size_t i = 0; argv[i]; i++)
		free(argv[i]);
	free(argv);
}

/* $CC split on blanks ("ccache gcc"), for running it without a shell. */
static char **split_words(const char *s)
{
	char **argv = argv_new();
	char *copy = xstrdup(s), *save = NULL;

	for (char *t = strtok_r(copy, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
		argv_push(&argv, xstrdup(t));
	free(copy);
	return argv;
}

static int have_make(char *why, size_t len)
{
	char make0[] = "make", make1[] = "--version";
	char *make[] = { make0, make1, NULL };
	char line[256];

	if (proc_first_line(make, line, sizeof(line)))
		return whyf(why, len, "cannot run 'make --version': install make "
			    "(apt-get install make)");
	return 0;
}

int workload_cc_version(const char *cc, char *buf, size_t len)
{
	char **argv = split_words(cc);
	int ret = -1;

	buf[0] = '\0';
	if (argv[0]) {
		argv_push(&argv, xstrdup("--version"));
		ret = proc_first_line(argv, buf, len) == 0 && buf[0] ? 0 : -1;
	}
	argv_free(argv);
	return ret;
}

/* The first line of `$CC --version` into w->cc_version; -1 when it fails. */
static int cc_version(struct workload *w)
{
	char line[256];

	if (workload_cc_version(w->cc, line, sizeof(line)))
		return -1;
	free(w->cc_version);
	w->cc_version = xstrdup(line);
	return 0;
}

static int need_cc(struct workload *w, char *why, size_t len)
{
	if (cc_version(w))
		return whyf(why, len, "cannot run '%s --version': install a C compiler "
			    "(apt-get install gcc) or set CC", w->cc);
	return 0;
}

int workload_parse(const char *spec, enum workload_kind *kind, const char **dir,
		   char *why, size_t len)
{
	static const struct { const char *prefix; enum workload_kind kind; } kinds[] = {
		{ "kernel:", WORKLOAD_KERNEL }, { "cmd:", WORKLOAD_CMD },
	};

	*dir = NULL;
	if (!strcmp(spec, "builtin")) {
		*kind = WORKLOAD_BUILTIN;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++) {
		size_t n = strlen(kinds[i].prefix);

		if (strncmp(spec, kinds[i].prefix, n) &&
		    (strncmp(spec, kinds[i].prefix, n - 1) || spec[n - 1]))
			continue;
		if (!spec[n - 1] || !spec[n])
			return whyf(why, len, "workload '%s' wants a directory: -w %sDIR",
				    spec, kinds[i].prefix);
		*kind = kinds[i].kind;
		*dir = spec + n;
		return 0;
	}
	return whyf(why, len, "unknown workload '%s' (known: builtin, kernel:DIR, cmd:DIR)",
		    spec);
}

/* The user's directory, absolute, checked. */
static char *user_dir(const char *dir, char *why, size_t len)
{
	char *abs = realpath(dir, NULL);
	struct stat st;

	if (!abs) {
		whyf(why, len, "%s: %s", dir, strerror(errno));
		return NULL;
	}
	if (stat(abs, &st) || !S_ISDIR(st.st_mode)) {
		whyf(why, len, "%s is not a directory", dir);
		free(abs);
		return NULL;
	}
	return abs;
}

/* Run argv, untimed: 0 when it succeeded, 1 when it failed (how says how),
 * -1 with the reason in why when it could not run or was interrupted. */
static int step(struct workload *w, char **argv, char *how, size_t hlen,
		char *why, size_t len)
{
	struct build b;

	if (workload_run(w, argv, &b, why, len))
		return -1;
	if (WIFEXITED(b.status) && WEXITSTATUS(b.status) == 0)
		return 0;
	proc_describe(b.status, how, hlen);
	return 1;
}

static int file_has(const char *path, const char *needle)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0;
	int found = 0;

	if (!f)
		return 0;
	while (!found && getline(&line, &cap, f) >= 0)
		found = strstr(line, needle) != NULL;
	free(line);
	fclose(f);
	return found;
}

/* ---- builtin ---------------------------------------------------------- */

static int builtin_init(struct workload *w, const struct workload_config *cfg,
			const char *run_dir, char *why, size_t len)
{
	if (have_make(why, len) || need_cc(w, why, len))
		return -1;
	w->scale = cfg->scale ? (unsigned)cfg->scale : builtin_scale(cfg->quick);
	w->tree = xasprintf("%s/tree", run_dir);
	w->build_dir = xstrdup(w->tree);
	w->identity = xasprintf("builtin/%d scale=%u jobs=%u cc=%s", BUILTIN_VERSION,
				w->scale, w->jobs, w->cc_version);
	w->build = argv_new();
	argv_push(&w->build, xstrdup("make"));
	argv_push(&w->build, xasprintf("-j%u", w->jobs));
	argv_push(&w->build, xasprintf("CC=%s", w->cc));
	w->clean = argv_new();
	argv_push(&w->clean, xstrdup("make"));
	argv_push(&w->clean, xstrdup("clean"));
	return 0;
}

/* ---- kernel ----------------------------------------------------------- */

/* `make -C TREE [O=BUILD] [CC=$CC]`, to which the caller adds targets. */
static char **kernel_make(const struct workload *w)
{
	char **argv = argv_new();
	const char *cc = getenv("CC");

	argv_push(&argv, xstrdup("make"));
	argv_push(&argv, xstrdup("-C"));
	argv_push(&argv, xstrdup(w->tree));
	if (!w->in_tree)
		argv_push(&argv, xasprintf("O=%s", w->build_dir));
	if (cc && *cc)
		argv_push(&argv, xasprintf("CC=%s", cc));
	return argv;
}

static int is_frontend(const char *s)
{
	static const char *const interactive[] = {
		"config", "menuconfig", "nconfig", "xconfig", "gconfig", "oldconfig",
	};

	for (size_t i = 0; i < ARRAY_SIZE(interactive); i++)
		if (!strcmp(s, interactive[i]))
			return 1;
	return 0;
}

/* A make target like tinyconfig, defconfig, x86_64_defconfig, kvm_guest.config. */
static int is_config_target(const char *s)
{
	size_t n = strlen(s);

	return n > 6 && s[0] != '-' && !strcmp(s + n - 6, "config") &&
	       strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") == n;
}

static int copy_file(const char *from, const char *to, char *why, size_t len)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out;
	ssize_t n;

	if (in < 0)
		return whyf(why, len, "%s: %s", from, strerror(errno));
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0) {
		close(in);
		return whyf(why, len, "%s: %s", to, strerror(errno));
	}
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write_all(out, buf, (size_t)n))
			break;
	if (n != 0 || close(out)) {
		whyf(why, len, "copying %s to %s: %s", from, to, strerror(errno));
		close(in);
		return -1;
	}
	close(in);
	return 0;
}

static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* --kconfig: a *config target, or a file copied in and resolved. */
static int kernel_configure(struct workload *w, char *why, size_t len)
{
	const char *k = w->config;
	char **argv = kernel_make(w);
	char *dotconfig = xasprintf("%s/.config", w->build_dir);
	char what[256];
	int ret = 0;

	if (strchr(k, '/') || (!is_config_target(k) && access(k, F_OK) == 0)) {
		struct stat st;

		errno = 0;
		if (stat(k, &st) || !S_ISREG(st.st_mode)) {
			ret = whyf(why, len, "--kconfig %s: %s", k,
				   errno ? strerror(errno) : "not a regular file");
		} else if (!same_file(k, dotconfig)) {
			ret = copy_file(k, dotconfig, why, len);
		}
		argv_push(&argv, xstrdup("olddefconfig"));
		snprintf(what, sizeof(what), "'make olddefconfig' after copying %s", k);
	} else if (!is_config_target(k) || is_frontend(k)) {
		ret = whyf(why, len, "--kconfig %s: not a file, nor a make target ending in "
			   "'config' that configures without asking (tinyconfig, defconfig, "
			   "allnoconfig...); write ./%s for a file here", k, k);
	} else {
		argv_push(&argv, xstrdup(k));
		snprintf(what, sizeof(what), "'make %s'", k);
	}
	if (ret == 0) {
		char how[64];

		info("configuring %s with %s in %s (untimed)", w->tree, k, w->build_dir);
		ret = step(w, argv, how, sizeof(how), why, len);
		if (ret > 0 && !w->in_tree && file_has(w->log, "not clean")) {
			ret = whyf(why, len, "%s refuses an out-of-tree build: its source tree "
				   "is not clean (it was configured or built in place).  Run "
				   "'make mrproper' there (it deletes that .config and build), or "
				   "give --in-tree to build in %s itself (contest then runs "
				   "'make clean' there before every run)", w->tree, w->tree);
		} else if (ret > 0) {
			msg("%s failed (%s); the end of its log:", what, how);
			workload_show_failure(w, TAIL_LINES, stderr);
			ret = whyf(why, len, "cannot configure %s", w->tree);
		}
	}
	argv_free(argv);
	free(dotconfig);
	return ret;
}

/* FNV-1a (64 bits) of the .config's CONFIG_ lines, set or not: the resolved
 * configuration without its comments.  Also picks CONFIG_CC_VERSION_TEXT,
 * the compiler kbuild found. */
static int kernel_config_hash(struct workload *w, char *why, size_t len)
{
	static const char cc_key[] = "CONFIG_CC_VERSION_TEXT=\"";
	char *path = xasprintf("%s/.config", w->build_dir);
	FILE *f = fopen(path, "re");
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	char *line = NULL;
	size_t cap = 0, lines = 0;

	if (!f) {
		whyf(why, len, "%s: %s", path, strerror(errno));
		free(path);
		return -1;
	}
	while (getline(&line, &cap, f) >= 0) {
		if (strncmp(line, "CONFIG_", 7) && strncmp(line, "# CONFIG_", 9))
			continue;
		for (const unsigned char *p = (const unsigned char *)line; *p; p++) {
			h ^= *p;
			h *= UINT64_C(0x100000001b3);
		}
		lines++;
		if (!strncmp(line, cc_key, sizeof(cc_key) - 1)) {
			char *v = line + sizeof(cc_key) - 1;

			v[strcspn(v, "\"")] = '\0';
			free(w->cc_version);
			w->cc_version = xstrdup(v);
		}
	}
	free(line);
	fclose(f);
	if (!lines) {
		whyf(why, len, "%s has no CONFIG_ line", path);
		free(path);
		return -1;
	}
	free(path);
	w->config_hash = xasprintf("%016llx", (unsigned long long)h);
	return 0;
}

static int kernel_init(struct workload *w, const struct workload_config *cfg,
		       const char *dir, const char *run_dir, char *why, size_t len)
{
	char mk0[] = "make", mk1[] = "-s", mk2[] = "--no-print-directory", mk3[] = "-C";
	char mk5[] = "kernelversion";
	char *version[] = { mk0, mk1, mk2, mk3, NULL, mk5, NULL };
	char line[256], *makefile;
	const char *cc = getenv("CC");

	if (have_make(why, len))
		return -1;
	w->tree = user_dir(dir, why, len);
	if (!w->tree)
		return -1;
	w->user_tree = 1;
	makefile = xasprintf("%s/Makefile", w->tree);
	if (access(makefile, R_OK)) {
		whyf(why, len, "%s has no Makefile: not a Linux source tree", w->tree);
		free(makefile);
		return -1;
	}
	free(makefile);
	version[4] = w->tree;
	if (proc_first_line(version, line, sizeof(line)) || !line[0])
		return whyf(why, len, "'make kernelversion' failed in %s: not a Linux "
			    "source tree?", w->tree);
	w->version = xstrdup(line);
	/* kbuild's compiler: $CC when set, else gcc (clang with LLVM=) */
	free(w->cc);
	w->cc = xstrdup(cc && *cc ? cc : getenv("LLVM") ? "clang" : "gcc");
	if (need_cc(w, why, len))
		return -1;
	w->in_tree = cfg->in_tree;
	w->config = xstrdup(cfg->kconfig ? cfg->kconfig : "tinyconfig");
	w->target = xstrdup(cfg->target ? cfg->target : "vmlinux");
	if (cfg->dry_run) {
		/* configuring writes: the .config, and so its hash, stays unknown */
		w->identity = xasprintf("kernel/%s config=(%s, not configured yet) target=%s "
					"jobs=%u cc=%s", w->version, w->config, w->target,
					w->jobs, w->cc_version);
		return 0;
	}
	if (w->in_tree) {
		w->build_dir = xstrdup(w->tree);
		msg("--in-tree: building in %s itself: contest writes its .config (%s) "
		    "and runs 'make clean' there before every run", w->tree, w->config);
	} else {
		char *abs = realpath(run_dir, NULL);

		if (!abs)
			return whyf(why, len, "%s: %s", run_dir, strerror(errno));
		w->build_dir = xasprintf("%s/build", abs);
		free(abs);
		if (mkdir(w->build_dir, 0700))
			return whyf(why, len, "mkdir %s: %s", w->build_dir, strerror(errno));
	}
	if (kernel_configure(w, why, len) || kernel_config_hash(w, why, len))
		return -1;
	w->identity = xasprintf("kernel/%s config=%s target=%s jobs=%u cc=%s", w->version,
				w->config_hash, w->target, w->jobs, w->cc_version);
	w->build = kernel_make(w);
	argv_push(&w->build, xasprintf("-j%u", w->jobs));
	argv_push(&w->build, xstrdup(w->target));
	w->clean = kernel_make(w);
	argv_push(&w->clean, xstrdup("clean"));
	return 0;
}

/* ---- cmd -------------------------------------------------------------- */

static char **shell_argv(const char *cmd)
{
	char **argv = argv_new();

	argv_push(&argv, xstrdup("/bin/sh"));
	argv_push(&argv, xstrdup("-c"));
	argv_push(&argv, xstrdup(cmd));
	return argv;
}

static int cmd_init(struct workload *w, const struct workload_config *cfg,
		    const char *dir, char *why, size_t len)
{
	char jobs[16];

	if (!cfg->build_cmd || !cfg->clean_cmd)
		return whyf(why, len, "-w cmd:DIR needs --build-cmd CMD and --clean-cmd CMD");
	w->tree = user_dir(dir, why, len);
	if (!w->tree)
		return -1;
	w->user_tree = 1;
	w->build_dir = xstrdup(w->tree);
	if (cc_version(w))
		w->cc_version = xstrdup("absent");
	w->build_cmd = xstrdup(cfg->build_cmd);
	w->clean_cmd = xstrdup(cfg->clean_cmd);
	/* the commands may use it: make -j$CONTEST_JOBS */
	snprintf(jobs, sizeof(jobs), "%u", w->jobs);
	setenv("CONTEST_JOBS", jobs, 1);
	w->identity = xasprintf("cmd dir=%s build=%s clean=%s jobs=%u cc=%s", w->tree,
				w->build_cmd, w->clean_cmd, w->jobs, w->cc_version);
	w->build = shell_argv(w->build_cmd);
	w->clean = shell_argv(w->clean_cmd);
	return 0;
}

/* ---- all kinds -------------------------------------------------------- */

int workload_init(struct workload *w, const struct workload_config *cfg,
		  const char *run_dir, unsigned jobs, char *why, size_t len)
{
	static const char *const names[] = {
		[WORKLOAD_BUILTIN] = "builtin", [WORKLOAD_KERNEL] = "kernel",
		[WORKLOAD_CMD] = "cmd",
	};
	const char *cc = getenv("CC"), *dir;
	char *tmp;

	memset(w, 0, sizeof(*w));
	if (workload_parse(cfg->workload, &w->type, &dir, why, len))
		return -1;
	/* contest run from a make (make check, a script's Makefile) must not
	 * hand its jobserver and flags to the build it times */
	unsetenv("MAKEFLAGS");
	unsetenv("MFLAGS");
	unsetenv("MAKELEVEL");
	/* compilers write temporary files (cc*.s) to TMPDIR; killed, they
	 * leave them behind: keep them in the scratch, which is removed */
	if (!cfg->dry_run) {
		tmp = xasprintf("%s/tmp", run_dir);
		if (mkdir(tmp, 0700) || !(w->tmp = realpath(tmp, NULL))) {
			whyf(why, len, "mkdir %s: %s", tmp, strerror(errno));
			free(tmp);
			return -1;
		}
		free(tmp);
		setenv("TMPDIR", w->tmp, 1);	/* absolute: the builds run elsewhere */
	}
	w->kind = xstrdup(names[w->type]);
	w->cc = xstrdup(cc && *cc ? cc : "cc");
	w->jobs = jobs;
	w->log = xasprintf("%s/build.log", run_dir);
	w->failed_log = xasprintf("%s/last-failed-build.log", cfg->work_dir);
	switch (w->type) {
	case WORKLOAD_KERNEL:
		return kernel_init(w, cfg, dir, run_dir, why, len);
	case WORKLOAD_CMD:
		return cmd_init(w, cfg, dir, why, len);
	case WORKLOAD_BUILTIN:
		break;
	}
	return builtin_init(w, cfg, run_dir, why, len);
}

int workload_setup(struct workload *w, char *why, size_t len)
{
	if (w->type != WORKLOAD_BUILTIN)
		return 0;	/* the user's tree; a kernel is configured already */
	if (mkdir(w->tree, 0700))
		return whyf(why, len, "mkdir %s: %s", w->tree, strerror(errno));
	return builtin_generate(w->tree, w->scale, why, len);
}

int workload_run(struct workload *w, char **argv, struct build *b, char *why, size_t len)
{
	return workload_run_timed(w, argv, b, NULL, NULL, why, len);
}

int workload_run_timed(struct workload *w, char **argv, struct build *b,
		       void (*started)(void *), void *arg, char *why, size_t len)
{
	struct rusage ru;
	int fd = open(w->log, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	int64_t t0;
	pid_t pid;

	memset(b, 0, sizeof(*b));
	if (fd < 0) {
		snprintf(why, len, "open %s: %s", w->log, strerror(errno));
		return -1;
	}
	t0 = mono_ns();
	if (started)
		started(arg);
	pid = proc_spawn(argv, w->tree, fd, why, len);
	close(fd);
	if (pid < 0)
		return -1;
	b->pid = pid;
	if (proc_wait(pid, &b->status, &ru)) {
		proc_kill_group(pid, GRACE_NS, &b->status, &ru);
		snprintf(why, len, "interrupted");
		return -1;
	}
	b->elapsed_ns = mono_ns() - t0;
	b->user_ns = timeval_ns(&ru.ru_utime);
	b->sys_ns = timeval_ns(&ru.ru_stime);
	b->majflt = ru.ru_majflt;
	return 0;
}

void workload_show_failure(const struct workload *w, int lines, FILE *f)
{
	log_tail(w->log, lines, f);
	/* the run directory goes at exit; the work directory keeps the log */
	if (rename(w->log, w->failed_log) == 0)
		fprintf(f, "    (the whole log: %s)\n", w->failed_log);
	else
		fprintf(f, "    (cannot keep the whole log as %s: %s)\n", w->failed_log,
			strerror(errno));
}

void workload_describe(const struct workload *w, struct record *r)
{
	record_set(r, "workload", w->identity);
	record_set(r, "workload_kind", w->kind);
	record_setf(r, "jobs", "%u", w->jobs);
	record_set(r, "cc", w->cc_version);
	switch (w->type) {
	case WORKLOAD_BUILTIN:
		record_setf(r, "workload_scale", "%u", w->scale);
		break;
	case WORKLOAD_KERNEL:
		record_set(r, "workload_tree", w->tree);
		record_set(r, "workload_version", w->version);
		record_set(r, "workload_kconfig", w->config);
		record_set(r, "workload_config", w->config_hash);
		record_set(r, "workload_target", w->target);
		record_setf(r, "workload_in_tree", "%d", w->in_tree);
		break;
	case WORKLOAD_CMD:
		record_set(r, "workload_tree", w->tree);
		record_set(r, "build_cmd", w->build_cmd);
		record_set(r, "clean_cmd", w->clean_cmd);
		break;
	}
}

int workload_tree(struct workload *w, const struct workload_config *cfg,
		  const char *run_dir, char *why, size_t len)
{
	enum workload_kind kind;
	const char *dir;

	if (workload_parse(cfg->workload, &kind, &dir, why, len))
		return -1;
	if (kind == WORKLOAD_BUILTIN)
		return workload_init(w, cfg, run_dir, 1, why, len) ||
		       workload_setup(w, why, len) ? -1 : 0;
	memset(w, 0, sizeof(*w));
	w->type = kind;
	w->user_tree = 1;
	w->tree = user_dir(dir, why, len);
	return w->tree ? 0 : -1;
}

void workload_free(struct workload *w)
{
	char **strs[] = {
		&w->kind, &w->tree, &w->build_dir, &w->log, &w->tmp, &w->failed_log, &w->identity,
		&w->cc, &w->cc_version, &w->version, &w->config, &w->config_hash,
		&w->target, &w->build_cmd, &w->clean_cmd,
	};

	for (size_t i = 0; i < ARRAY_SIZE(strs); i++)
		free(*strs[i]);
	argv_free(w->build);
	argv_free(w->clean);
	memset(w, 0, sizeof(*w));
}
