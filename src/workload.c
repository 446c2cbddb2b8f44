/* workload.c - the reference workload: its tree, build, clean and identity. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"
#include "proc.h"
#include "util.h"
#include "workload.h"

#define GRACE_NS (2 * NS_PER_SEC)

static char **argv_new(void)
{
	return xcalloc(1, sizeof(char *));
}

static void argv_push(char ***argv, char *arg)
{
	size_t n = 0;

	while ((*argv)[n])
		n++;
	*argv = xrealloc(*argv, (n + 2) * sizeof(char *));
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

static int toolchain(struct workload *w, char *why, size_t len)
{
	char **cc = split_words(w->cc);
	char make0[] = "make", make1[] = "--version";
	char *make[] = { make0, make1, NULL };
	char line[256];
	int ret = 0;

	if (!cc[0]) {
		snprintf(why, len, "$CC is empty");
		ret = -1;
	} else if (proc_first_line(make, line, sizeof(line))) {
		snprintf(why, len, "cannot run 'make --version': install make "
			 "(apt-get install make)");
		ret = -1;
	} else {
		argv_push(&cc, xstrdup("--version"));
		if (proc_first_line(cc, line, sizeof(line)) || !line[0]) {
			snprintf(why, len, "cannot run '%s --version': install a C compiler "
				 "(apt-get install gcc) or set CC", w->cc);
			ret = -1;
		} else {
			w->cc_version = xstrdup(line);
		}
	}
	argv_free(cc);
	return ret;
}

int workload_init(struct workload *w, const char *spec, const char *run_dir,
		  unsigned jobs, unsigned scale, int quick, char *why, size_t len)
{
	const char *cc = getenv("CC");

	memset(w, 0, sizeof(*w));
	if (strcmp(spec, "builtin")) {
		snprintf(why, len, "unknown workload '%s' (known: builtin)", spec);
		return -1;
	}
	w->kind = xstrdup(spec);
	w->cc = xstrdup(cc && *cc ? cc : "cc");
	if (toolchain(w, why, len))
		return -1;
	w->jobs = jobs;
	w->scale = scale ? scale : builtin_scale(quick);
	w->tree = xasprintf("%s/tree", run_dir);
	w->log = xasprintf("%s/build.log", run_dir);
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

int workload_setup(struct workload *w, char *why, size_t len)
{
	if (mkdir(w->tree, 0700)) {
		snprintf(why, len, "mkdir %s: %s", w->tree, strerror(errno));
		return -1;
	}
	return builtin_generate(w->tree, w->scale, why, len);
}

int workload_run(struct workload *w, char **argv, struct build *b, char *why, size_t len)
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
	pid = proc_spawn(argv, w->tree, fd, why, len);
	close(fd);
	if (pid < 0)
		return -1;
	if (proc_wait(pid, &b->status, &ru)) {
		proc_kill_group(pid, GRACE_NS, &b->status, &ru);
		snprintf(why, len, "interrupted");
		return -1;
	}
	b->elapsed_ns = mono_ns() - t0;
	b->user_ns = timeval_ns(&ru.ru_utime);
	b->sys_ns = timeval_ns(&ru.ru_stime);
	return 0;
}

void workload_log_tail(const struct workload *w, int lines, FILE *f)
{
	FILE *in = fopen(w->log, "re");
	char **ring = xcalloc((size_t)lines, sizeof(char *));
	char *line = NULL;
	size_t cap = 0;
	long n = 0;

	if (!in) {
		free(ring);
		return;
	}
	while (getline(&line, &cap, in) >= 0) {
		free(ring[n % lines]);
		ring[n % lines] = xstrdup(line);
		n++;
	}
	for (long i = n > lines ? n - lines : 0; i < n; i++) {
		fprintf(f, "    %s", ring[i % lines]);
		if (!strchr(ring[i % lines], '\n'))
			fputc('\n', f);
	}
	for (int i = 0; i < lines; i++)
		free(ring[i]);
	free(ring);
	free(line);
	fclose(in);
}

void workload_free(struct workload *w)
{
	free(w->kind);
	free(w->tree);
	free(w->log);
	free(w->identity);
	free(w->cc);
	free(w->cc_version);
	argv_free(w->build);
	argv_free(w->clean);
	memset(w, 0, sizeof(*w));
}
