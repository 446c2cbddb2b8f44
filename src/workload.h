/* workload.h - the reference workload: its tree, build, clean and identity. */
#ifndef CONTEST_WORKLOAD_H
#define CONTEST_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct workload {
	char *kind;       /* "builtin" */
	char *tree;       /* the source tree the build reads */
	char *log;        /* the build's output, replaced by every build */
	char *identity;   /* what makes two results comparable */
	char *cc;         /* $CC, default "cc" */
	char *cc_version; /* the first line of `$CC --version` */
	unsigned jobs;
	unsigned scale;
	char **build;     /* argv of the timed build */
	char **clean;     /* argv of the untimed clean */
};

/* One build or clean. */
struct build {
	int status;        /* wait status */
	int64_t elapsed_ns;
	int64_t user_ns, sys_ns;
};

/* Resolve the workload named by spec ("builtin") inside run_dir: check the
 * toolchain, decide jobs and scale.  0, or -1 with why. */
int workload_init(struct workload *w, const char *spec, const char *run_dir,
		  unsigned jobs, unsigned scale, int quick, char *why, size_t len);
/* Create the tree (untimed).  0, or -1 with why. */
int workload_setup(struct workload *w, char *why, size_t len);
/* Run the clean (argv = w->clean) or the timed build (w->build).  Returns
 * 0 with b filled (b->status says whether it succeeded), or -1 with why
 * when it could not start or a stop signal arrived (then the build has been
 * stopped and reaped). */
int workload_run(struct workload *w, char **argv, struct build *b, char *why, size_t len);
/* Copy the last `lines` lines of the build log to f, indented. */
void workload_log_tail(const struct workload *w, int lines, FILE *f);
void workload_free(struct workload *w);

#endif
