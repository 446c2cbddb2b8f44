/* SPDX-License-Identifier: GPL-2.0-or-later */
/* workload.h - the reference workload: its tree, build, clean and identity. */
#ifndef CONTEST_WORKLOAD_H
#define CONTEST_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "results/record.h"

enum workload_kind {
	WORKLOAD_BUILTIN,	/* "builtin": a generated C tree in the work directory */
	WORKLOAD_KERNEL,	/* "kernel:DIR": a Linux source tree */
	WORKLOAD_CMD,		/* "cmd:DIR": the user's build and clean commands */
};

struct workload {
	enum workload_kind type;
	char *kind;       /* "builtin", "kernel" or "cmd" */
	char *tree;       /* the source tree the build reads, and ctar/xtar archive */
	int user_tree;    /* tree is the user's, outside the work directory */
	char *build_dir;  /* where the build writes (kernel: O=, or the tree) */
	char *log;        /* the build's output, replaced by every build */
	char *tmp;        /* TMPDIR of the builds, in the scratch */
	char *failed_log; /* WORK_DIR/last-failed-build.log */
	char *identity;   /* what makes two results comparable */
	char *cc;         /* $CC, default "cc" ("gcc" for a kernel) */
	char *cc_version; /* `$CC --version`, or the kernel's CONFIG_CC_VERSION_TEXT */
	unsigned jobs;
	unsigned scale;   /* builtin */
	char *version;    /* kernel: `make kernelversion` */
	char *config;     /* kernel: what --kconfig named */
	char *config_hash;/* kernel: of the resolved .config */
	char *target;     /* kernel: the make target */
	int in_tree;      /* kernel: built in the tree itself */
	char *build_cmd;  /* cmd */
	char *clean_cmd;  /* cmd */
	char **build;     /* argv of the timed build */
	char **clean;     /* argv of the untimed clean */
};

/* What the workload reads of the command line: -w and the options that go
 * with it (workload_config_of() of run/options.h copies them out of a
 * struct config), so that the workload needs nothing of the run. */
struct workload_config {
	const char *workload;   /* -w */
	const char *kconfig;    /* --kconfig */
	const char *target;     /* --target */
	int in_tree;            /* --in-tree */
	const char *build_cmd;  /* --build-cmd */
	const char *clean_cmd;  /* --clean-cmd */
	const char *work_dir;   /* --work-dir: where last-failed-build.log goes */
	uint64_t scale;         /* --scale, 0 = default */
	int quick;              /* --quick: the builtin's smaller default scale */
	int dry_run;            /* --dry-run: nothing written or configured */
};

/* One build or clean. */
struct build {
	int status;        /* wait status */
	int64_t elapsed_ns;
	int64_t user_ns, sys_ns;
	int64_t majflt;		/* the build's own major faults, children included */
	pid_t pid;		/* its leader's, once spawned */
};

/* Split a -w spec: "builtin", "kernel:DIR" or "cmd:DIR".  0 with the kind and
 * *dir (NULL for builtin, pointing into spec otherwise), or -1 with the reason
 * in why. */
int workload_parse(const char *spec, enum workload_kind *kind, const char **dir,
		   char *why, size_t len);
/* For `contest load`: only the tree the loads read (ctar_load and xtar_load
 * archive it): the builtin tree, generated in run_dir, or the DIR of
 * kernel:DIR or cmd:DIR as it is, neither configured nor built.  Returns
 * 0, or -1 with the reason in why. */
int workload_tree(struct workload *w, const struct workload_config *cfg,
		  const char *run_dir, char *why, size_t len);

/* Resolve the workload cfg names (-w and its options) inside run_dir, with
 * `jobs` parallel jobs: check the toolchain and the tree; a kernel tree is
 * also configured here (untimed, once), since its identity depends on the
 * resolved .config.  With cfg->dry_run nothing is written or configured
 * (a kernel's identity then names its --kconfig instead of the hash).
 * Returns 0, or -1 with the reason in why. */
int workload_init(struct workload *w, const struct workload_config *cfg,
		  const char *run_dir, unsigned jobs, char *why, size_t len);
/* Create the tree (untimed; the builtin only).  Returns 0, or -1 with the
 * reason in why. */
int workload_setup(struct workload *w, char *why, size_t len);
/* Run the clean (argv = w->clean) or the timed build (w->build).  Returns 0
 * with b filled (b->status says whether it succeeded), or -1 with the reason in
 * why when it could not start or a stop signal arrived (then the build has been
 * stopped and reaped). */
int workload_run(struct workload *w, char **argv, struct build *b, char *why, size_t len);
/* The same, calling started(arg) when its clock starts, just before the
 * command does: what must measure exactly the build's time (the probe's
 * window) begins there. */
int workload_run_timed(struct workload *w, char **argv, struct build *b,
		       void (*started)(void *), void *arg, char *why, size_t len);
/* After a failed build or clean: copy the last `lines` lines of its log to
 * f, indented, and keep the whole log as w->failed_log (saying so on f). */
void workload_show_failure(const struct workload *w, int lines, FILE *f);
/* The first line of `CC --version` (CC split on blanks) in buf; -1 when
 * it cannot run or fails. */
int workload_cc_version(const char *cc, char *buf, size_t len);
/* The workload's fields for the environment record: workload (the
 * identity), workload_kind, jobs, cc, and what the kind adds. */
void workload_describe(const struct workload *w, struct record *r);
void workload_free(struct workload *w);

#endif
