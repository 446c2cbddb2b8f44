/* SPDX-License-Identifier: GPL-2.0-or-later */
/* load.h - the contract between the harness and one background load. */
#ifndef CONTEST_LOAD_H
#define CONTEST_LOAD_H

#include <stddef.h>
#include <stdint.h>

struct record;
union load_value;

/* What the harness knows about the machine and the user's choices.  Filled
 * once per suite; loads read it and never change it.  Sizes are bytes; a
 * zero tunable means "the load's default". */
struct load_env {
	const char *tree;       /* the workload's source tree (read only) */
	const char *work_dir;   /* contest's work directory: never walk or touch */
	const char *other_dir;  /* -o DIR for io_other, or NULL */
	const char *list_root;  /* --root for list_load (default "/") */
	unsigned ncpus;         /* online CPUs */
	int quick;              /* --quick: shrink every size */
	uint64_t mem_total;     /* MemTotal */
	uint64_t mem_available; /* MemAvailable at preflight */
	uint64_t swap_free;     /* SwapFree at preflight */
	uint64_t swap_room;     /* RAM that paging out can free then (swap.h) */
	int io_sync;            /* --io-sync: io, ctar and xtar get each unit to the device */
	/* The harness's: the values of every load's options as given on the
	 * command line (loads/registry.h).  A load reads its own, c->opts. */
	const union load_value *values;
};

/* One option of a load, on the command line of run, load and list (and of
 * compare and campaign).  A load declares its options in its load_ops;
 * the command line, --help and so the man page's check (tests/t1002) are
 * made from those tables (loads/registry.c walks them).  The value given
 * is in the load's own option struct, c->opts, at `offset`; what was not
 * given is 0 (NULL), for the load's default. */
enum load_opt_type {
	LOAD_OPT_WHOLE,         /* uint64_t, a whole number from min to max */
	LOAD_OPT_SIZE,          /* uint64_t, bytes from min to max: K, M, G or T */
	LOAD_OPT_STRING,        /* const char * */
	LOAD_OPT_FLAG,          /* int, 1 when given; arg NULL */
};

struct load_option {
	const char *name;       /* "procs", for --procs */
	const char *arg;        /* its value in --help: "N"; NULL for a flag */
	/* One line for --help, after the names of the loads that take it:
	 * "processes in the ring (default 4 x online CPUs)". */
	const char *help;
	enum load_opt_type type;
	size_t offset;          /* of its value in the load's option struct */
	double min, max;        /* LOAD_OPT_WHOLE and LOAD_OPT_SIZE */
};

/* One load within one suite.  The harness owns it; a load keeps its own
 * state in `priv` and its resolved size in `size`. */
struct load_ctx {
	const struct load_env *env;
	const struct load_ops *ops;
	const char *scratch;    /* this load's own directory, created and removed by the harness */
	uint64_t size;          /* the size the load resolved in check(), for plans and records */
	/* One unit of Loads in natural terms, for `contest load`: e.g. 10000
	 * and "hops", or the archive's size in MB and "MB".  Set by check(),
	 * prepare() or setup(); 0 = not known. */
	double natural_per_unit;
	const char *natural_unit;
	unsigned nprocs;        /* processes to fork for run(); setup() may change it (default 1) */
	const void *opts;       /* the load's option struct, its options' values (see options) */
	void *priv;             /* the load's own state */
	struct load_proc *self; /* harness-private: the calling process's slot */
};

enum {
	LOAD_TEST_ONLY = 1 << 0,  /* for the test suite: never in the default suite */
	LOAD_NEEDS_OTHER = 1 << 1, /* needs -o DIR */
	LOAD_WORK_DISK = 1 << 2,   /* keeps c->size bytes in the work directory */
	LOAD_IO_SYNC = 1 << 3,     /* syncs each unit with --io-sync (env->io_sync) */
	LOAD_SLOW_CHECK = 1 << 4,  /* check() walks a tree: contest list runs it on --count */
	LOAD_TREE_ARCHIVE = 1 << 5, /* keeps a tar archive of env->tree in its scratch */
	LOAD_TREE_COPY = 1 << 6    /* and an extraction of it */
};

/* A load.  Only `run` is required.  Everything but run() happens in the
 * harness process; run() happens in each of the nprocs load processes, which
 * the harness forks, puts in the load's process group and reaps.
 *
 * A load never calls exit(), never prints to stdout and never installs a
 * signal handler.  Error texts go into `why` (check, prepare, setup) or
 * through load_fail() (run). */
struct load_ops {
	const char *name;    /* "process_load" */
	const char *summary; /* one line for `contest list` */
	const char *unit;    /* what one unit of Loads is: "one complete archive" */
	unsigned flags;
	/* The load's options, ended by one without a name, and the size of the
	 * struct their values are in (c->opts), as fio's engines declare theirs.
	 * Loads that share an option (--io-size) declare it alike, and it is
	 * one option of the command line.  Checked at start-up
	 * (load_registry_check()). */
	const struct load_option *options;
	size_t option_struct_size;

	/* Preflight, once per suite before anything heavy: resolve sizes into
	 * c->size, check that the load can run here.  Returns 0, or -1 with
	 * the reason in why. */
	int (*check)(struct load_ctx *c, char *why, size_t len);
	/* After check(): what the load will use here, in words, for `contest
	 * list` and the plan ("4.0 GiB file in DIR", "entries: 1234").  Without
	 * it, c->size is shown as a size in bytes. */
	void (*describe)(const struct load_ctx *c, char *buf, size_t len);
	/* After each setup(), in the harness: the sizes and counts this load uses
	 * here, for every run record of it, each given with load_param() under
	 * a plain name ("file_size", "procs"; a name ending in "_size" is in
	 * bytes).  `contest report` lists those in which two rows differ. */
	void (*params)(const struct load_ctx *c, struct record *r);
	/* Once per suite, untimed, before the warm-up: build inputs that every
	 * run reuses (an archive, a file to read).  Returns 0, or -1 with the
	 * reason in why. */
	int (*prepare)(struct load_ctx *c, char *why, size_t len);
	/* Before each run, untimed and before the cache flush.  Returns 0, or
	 * -1 with the reason in why. */
	int (*setup)(struct load_ctx *c, char *why, size_t len);
	/* In each load process, idx = 0 .. nprocs-1.  Call load_ready() once
	 * this process's own preparation is done, then work until
	 * load_stopping(), reporting with load_progress().  Return 0 when
	 * stopped, or load_fail(). */
	int (*run)(struct load_ctx *c, unsigned idx);
	/* After each run, once every load process has been reaped. */
	void (*cleanup)(struct load_ctx *c);
	/* Once at the end of the suite (also on error): free what prepare made. */
	void (*finish)(struct load_ctx *c);
};

/* For params(): one figure, or one word ("yes"), of what the load used. */
void load_param(struct record *r, const char *name, uint64_t value);
void load_param_text(struct record *r, const char *name, const char *text);

/* For run(), in a load process. */
void load_ready(struct load_ctx *c);
int load_stopping(void);
/* The absolute number of units this process has completed so far,
 * fractions included (bytes done / bytes per unit). */
void load_progress(struct load_ctx *c, double units);
/* Record why the load failed; returns -1 for `return load_fail(...)`.
 * The run is invalid. */
int load_fail(struct load_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* What the load met that ends its work but leaves the build's Time true
 * (mem_load at its memory floor, a full file system): the run stays valid,
 * its Loads what was done until then, and the record says what the load
 * met (load.note=).  Give back what the load holds first; load_note()
 * then says the process is ready if it was not, waits idle until told to
 * stop and returns 0, for `return load_note(...)`. */
int load_note(struct load_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Whether errno value err is a full file system's (ENOSPC, EDQUOT): a
 * note, not a failure. */
int load_disk_full(int err);

#endif
