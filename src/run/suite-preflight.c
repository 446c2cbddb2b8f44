/* SPDX-License-Identifier: GPL-2.0-or-later */
/* suite-preflight.c - the suite's preflight, before any work: what it runs
 * (the run types, the label, the noload the Ratio divides by), where (the
 * results and work directories checked and locked, the scratch of dead
 * contests swept, its own made) and whether it fits (the swap planned,
 * every load checked against this machine, the disk they share, runs with
 * and without --io-sync kept apart). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <libgen.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "run/suite-internal.h"
#include "run/suite.h"
#include "loads/runtype.h"
#include "results/store.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/swap.h"
#include "lib/util.h"

/* One contest compare --vary of a machine-wide setting at a time on a
 * machine: each puts back, at its end, the value it found at its start,
 * so a second one started meanwhile would find the first's value and
 * leave it behind.  (A --configs file's undo commands name their value.)
 * Held like the directories' locks: the guardian shares it until its undo
 * is done.  Where /run is not writable (not root) no machine-wide setting
 * can be changed either, and there is no lock. */
#define COMPARE_RUN_DIR "/run"
#define COMPARE_LOCK COMPARE_RUN_DIR "/contest-compare.lock"

int pick_types(struct suite *s)
{
	struct config *cfg = s->cfg;

	for (int i = 0; i < cfg->nargs; i++) {
		const char *near;
		char known[1024];

		if (runtype_find(cfg->args[i]))
			continue;
		if ((near = runtype_nearest(cfg->args[i], 0)))
			return usage_error("unknown run type '%s'; did you mean '%s'?",
					   cfg->args[i], near);
		runtype_names(known, sizeof(known));
		return usage_error("unknown run type '%s' (known: %s)", cfg->args[i], known);
	}
	for (size_t k = 0; k < runtype_count(); k++) {
		const struct runtype *rt = runtype_at(k);
		int want = !cfg->nargs && runtype_default(rt);

		for (int i = 0; i < cfg->nargs && !want; i++)
			want = streq(cfg->args[i], rt->name);
		if (want && s->ntypes < ARRAY_SIZE(s->types))
			s->types[s->ntypes++] = rt;
	}
	return 0;
}

/* A load run alone still needs a noload to divide by, of its own session
 * (the Ratio's default): add one to every round.  added_noload says why in
 * the plan: 1 when the label has no valid noload of this workload in st
 * (NULL: no results yet), 2 when it has, in other sessions only. */
void add_noload_if_missing(struct suite *s, const struct store *st)
{
	int loads = 0, have = 0;

	for (size_t i = 0; i < s->ntypes; i++) {
		if (streq(s->types[i]->name, "noload"))
			return;
		loads |= s->types[i]->load != NULL;
	}
	if (!loads || s->ntypes + 1 > ARRAY_SIZE(s->types))
		return;
	for (size_t i = 0; st && i < st->nruns && !have; i++) {
		const struct run *r = &st->runs[i];

		/* a configuration divides by its own noload */
		have = r->valid && streq(r->type, "noload") &&
		       streq(r->label, s->label) && streq(r->workload, s->wl.identity) &&
		       r->load_session == s->h.load_session;
	}
	memmove(&s->types[1], &s->types[0], s->ntypes * sizeof(s->types[0]));
	s->types[0] = runtype_find("noload");
	s->ntypes++;
	s->added_noload = have ? 2 : 1;
}

/* A comparison's configurations each divide by their own noload. */
void add_own_noload(struct suite *s)
{
	for (size_t i = 0; i < s->ntypes; i++)
		if (streq(s->types[i]->name, "noload"))
			return;
	if (s->ntypes + 1 > ARRAY_SIZE(s->types))
		return;
	memmove(&s->types[1], &s->types[0], s->ntypes * sizeof(s->types[0]));
	s->types[0] = runtype_find("noload");
	s->ntypes++;
	s->added_noload = 1;
}

int pick_label(struct suite *s)
{
	struct utsname u;
	char why[256];
	struct suite_config k;
	const char *label;

	read_config(s, 0, &k);	/* a comparison's first configuration names it */
	label = k.label ? k.label : s->cfg->label;
	if (!label) {
		if (uname(&u))
			return usage_error("uname: %s; name the kernel with -k LABEL", strerror(errno));
		label = u.release;
	}
	if (store_check_label(label, why, sizeof(why)))
		return usage_error("bad label '%s': %s", label, why);
	snprintf(s->label, sizeof(s->label), "%s", label);
	return 0;
}

/* contest runs as root, and writes, truncates and removes below its directories
 * by name: refuse one that another user could steer, by swapping what contest
 * makes there (or a directory on the way) for a symlink to a file elsewhere
 * (fs_check_owned()).  Returns 0, or -1 with the reason printed. */
static int check_owned(const char *dir, const char *what)
{
	char why[PATH_MAX + 128];

	if (fs_check_owned(dir, why, sizeof(why)) == 0)
		return 0;
	msg("refusing the %s %s: %s, so another user could swap what contest makes there "
	    "for a symlink and have it write or remove files elsewhere: use a directory "
	    "that only %s can change", what, dir, why, geteuid() ? "you and root" : "root");
	return -1;
}

int suite_check_work_dir(const char *dir)
{
	char why[PATH_MAX + 128];

	if (!fs_system_dir(dir, why, sizeof(why)))
		return 0;
	return usage_error("refusing the work directory %s: it is %s; contest wants a "
			   "directory of its own, where it keeps its scratch (run-PID-XXXXXX), "
			   "its lock (contest.lock) and a failed build's log, whose files it "
			   "flushes from the page cache (not root) and which list_load does not "
			   "list: give --work-dir a directory deeper down (contest makes it if "
			   "need be), such as /var/tmp/contest-work", dir, why);
}

/* The results directory must take records before an hour of work.  With
 * create 0 (--dry-run) a missing one is only checked for: can it be made? */
static int check_results_dir(const char *dir, int create)
{
	struct stat st;

	if (check_owned(dir, "results directory"))
		return -1;
	if (!create && stat(dir, &st) && errno == ENOENT) {
		char *copy = xstrdup(dir);
		int bad = access(dirname(copy), W_OK | X_OK);

		if (bad)
			msg("cannot create results directory %s: %s", dir, strerror(errno));
		free(copy);
		return bad ? -1 : 0;
	}
	if (create && mkdir(dir, 0755) && errno != EEXIST) {
		msg("cannot create results directory %s: %s", dir, strerror(errno));
		return -1;
	}
	/* made, or made meanwhile in a sticky parent by someone else */
	if (create && check_owned(dir, "results directory"))
		return -1;
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		msg("results directory %s is not a directory", dir);
		return -1;
	}
	if (access(dir, W_OK)) {
		msg("cannot write to results directory %s: %s", dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* Why the entry st of the work directory, named run-PID-XXXXXX, is not
 * scratch this user's contest made (a directory of its own), or NULL. */
static const char *not_scratch(const struct stat *st)
{
	if (S_ISLNK(st->st_mode))
		return "a symlink";
	if (!S_ISDIR(st->st_mode))
		return "not a directory";
	if (st->st_uid != geteuid())
		return "another user's";
	return NULL;
}

/* Remove the scratch of contests that died without cleaning up (SIGKILL, a
 * crash, a power cut): run-PID-XXXXXX whose PID is gone, in the work
 * directory open as wfd (wd in messages), reached through it and never
 * through a symlink; what is not a directory of this user's is left alone.
 * We hold the work directory's lock, so no live contest is using any of
 * it. */
static void sweep_dead_scratch(int wfd, const char *wd)
{
	int fd = dup(wfd);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct dirent *de;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d))) {
		int pid = 0, end = 0, rfd;
		const char *name = de->d_name, *bad;
		struct stat st;
		char *path;

		if (sscanf(name, "run-%d-%n", &pid, &end) != 1 || !end || pid <= 0 ||
		    strlen(name + end) != 6 || pid == getpid())
			continue;
		if (kill(pid, 0) == 0 || errno != ESRCH)
			continue;	/* alive (or not ours to judge) */
		if (fstatat(wfd, name, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		path = xasprintf("%s/%s", wd, name);
		rfd = (bad = not_scratch(&st)) ? -1 :
		      openat(wfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (bad)
			info("left %s alone: %s, not scratch of a contest of yours", path, bad);
		else if (rfd < 0)
			msg("cannot open %s, left by contest pid %d: %s", path, pid, strerror(errno));
		else if (swap_sweep(rfd, path, pid))
			;	/* a device is left, and its marker with it */
		else if (remove_tree_at(wfd, name))
			msg("cannot remove %s, left by contest pid %d: %s", path, pid,
			    strerror(errno));
		else
			info("removed %s, left by contest pid %d, which is gone", path, pid);
		if (rfd >= 0)
			close(rfd);
		free(path);
	}
	closedir(d);
}

/* The work directory checked (and made), locked and swept, and the run's
 * scratch made in it, through a descriptor of it: returns 0, or -1 with the
 * reason printed. */
int make_run_dir(struct suite *s)
{
	const char *wd = s->cfg->work_dir;
	char *name;
	int wfd;

	if (check_owned(wd, "work directory"))
		return -1;
	if (mkdir(wd, 0700) == 0)
		s->made_work_dir = 1;
	else if (errno != EEXIST) {
		msg("cannot create work directory %s: %s", wd, strerror(errno));
		return -1;
	}
	/* made, or made meanwhile in a sticky parent by someone else */
	if (check_owned(wd, "work directory"))
		return -1;
	wfd = open(wd, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (wfd < 0) {
		msg("cannot open work directory %s: %s", wd, strerror(errno));
		return -1;
	}
	s->work_lock = lock_dir(wd, "work directory");
	if (s->work_lock < 0) {
		close(wfd);
		return -1;
	}
	sweep_dead_scratch(wfd, wd);
	name = xasprintf("run-%d-XXXXXX", (int)getpid());
	if (mkdtemp_at(wfd, name))
		msg("cannot create a directory in %s: %s", wd, strerror(errno));
	else
		s->run_dir = xasprintf("%s/%s", wd, name);
	free(name);
	close(wfd);
	return s->run_dir ? 0 : -1;
}

void remove_run_dir(struct suite *s)
{
	/* a zram device that could not be removed keeps its marker there */
	if (s->run_dir && s->zram.id < 0 && remove_tree(s->run_dir))
		msg("cannot remove %s: %s", s->run_dir, strerror(errno));
	unlock_dir(s->cfg->work_dir, &s->work_lock);
	unlock_dir(s->cfg->results, &s->results_lock);
	unlock_file(COMPARE_LOCK, &s->compare_lock);
	if (s->made_work_dir)
		rmdir(s->cfg->work_dir);	/* only if nothing else is in it */
}

/* What one load keeps in the work directory at once, in bytes, with the
 * words for it appended to list; 0 when nothing (or the tree's share is
 * not known yet). */
static uint64_t load_disk(const struct suite *s, const struct load_ctx *c, char *list,
			  size_t len)
{
	unsigned f = c->ops->flags;
	uint64_t own = 0;
	size_t n = strlen(list);
	char a[32], b[32], t[32];

	if (f & LOAD_WORK_DISK)
		own += c->size;
	if (f & LOAD_TREE_ARCHIVE)
		own += s->tree_archive;
	if ((f & LOAD_TREE_COPY) && s->tree_archive)
		own += s->tree_disk;
	if (!own)
		return 0;
	format_size(own, a, sizeof(a));
	format_size(s->tree_archive, t, sizeof(t));
	format_size(s->tree_disk, b, sizeof(b));
	if (f & LOAD_TREE_COPY)
		snprintf(list + n, len - n, "%s%s %s (an archive of the workload's tree, %s, and "
			 "its extraction, %s)", n ? ", " : "", c->ops->name, a, t, b);
	else if (f & LOAD_TREE_ARCHIVE)
		snprintf(list + n, len - n, "%s%s %s (an archive of the workload's tree)",
			 n ? ", " : "", c->ops->name, a);
	else
		snprintf(list + n, len - n, "%s%s %s (its file)", n ? ", " : "", c->ops->name, a);
	return own;
}

int check_disk_together(struct suite *s)
{
	uint64_t need = 0, avail;
	char list[1024] = "", a[32], b[32];
	int tree = 0;

	for (size_t i = 0; i < s->ntypes; i++)
		tree |= s->ctx[i] && (s->ctx[i]->ops->flags & LOAD_TREE_ARCHIVE);
	/* the tree once it exists: a user's at preflight, the built-in one
	 * once made (and this called again) */
	if (tree && !s->tree_archive && s->wl.tree &&
	    fs_tree_size(s->wl.tree, &s->tree_archive, &s->tree_disk))
		s->tree_archive = s->tree_disk = 0;
	for (size_t i = 0; i < s->ntypes; i++)
		if (s->ctx[i])
			need += load_disk(s, s->ctx[i], list, sizeof(list));
	if (!need || fs_free_bytes(s->run_dir, &avail) ||
	    need + (UINT64_C(1) << 30) <= avail)
		return 0;
	format_size(need, a, sizeof(a));
	format_size(avail, b, sizeof(b));
	msg("the loads need %s together in %s, which has %s free and keeps 1 GiB free: %s; "
	    "choose a smaller --io-size, fewer loads or another --work-dir", a,
	    s->cfg->work_dir, b, list);
	return -1;
}

/* --swap zram: whether it can be made here, checked first of all: 0, or
 * EXIT_FAILED with the reason printed. */
int plan_swap(struct suite *s)
{
	char why[512];

	if (!s->cfg->swap_zram || swap_zram_plan(&s->zram, s->cfg->swap_size, why,
						 sizeof(why)) == 0)
		return 0;
	msg("%s", why);
	return EXIT_FAILED;
}

int preflight_loads(struct suite *s)
{
	suite_load_env(s->cfg, s->wl.tree, &s->env);
	if (s->cfg->swap_zram && s->cfg->dry_run) {
		/* sized as with the device that would be made */
		s->env.swap_free = s->zram.disksize;
		s->env.swap_room = swap_zram_room(s->zram.disksize, s->zram.mem_limit,
						  1.0 / SWAP_ZRAM_RATIO);
	}
	for (size_t i = 0; i < s->ntypes; i++) {
		const struct load_ops *ops = s->types[i]->load;
		char why[512];

		if (!ops)
			continue;
		s->ctx[i] = suite_load_ctx(&s->env, ops, s->run_dir, why, sizeof(why));
		if (!s->ctx[i]) {
			msg("%s cannot run here: %s", ops->name, why);
			return -1;
		}
	}
	return check_disk_together(s);
}

/* Runs of a load with --io-sync and without it measure different loads
 * (load.sync=yes in their records), and a report averages a label's runs of one
 * type into one row: refuse a label that already holds runs of a selected load
 * with the other setting, before any work.  Returns 0, or -1 with the reason
 * printed. */
int check_sync_mix(const struct suite *s, const struct store *st)
{
	for (size_t i = 0; i < s->ntypes; i++) {
		const struct load_ops *ops = s->types[i]->load;

		if (!ops || !(ops->flags & LOAD_IO_SYNC))
			continue;
		for (size_t k = 0; k < st->nruns; k++) {
			const struct run *r = &st->runs[k];
			int synced = record_get(&r->params, "sync") != NULL;

			if (!r->valid || !streq(r->label, s->label) || !streq(r->type, ops->name) ||
			    synced == !!s->cfg->io_sync)
				continue;
			msg("%s: label %s already holds %s runs %s --io-sync, which a report would "
			    "average with these: give another label (-k) or %s --io-sync",
			    s->cfg->results, s->label, ops->name, synced ? "with" : "without",
			    synced ? "add" : "leave out");
			return -1;
		}
	}
	return 0;
}

/* The results and work directories, locked, and the run's scratch; in a
 * dry run only named.  Before the guardian starts: it shares the locks,
 * and holds them after a SIGKILL of contest until its undo is done, so
 * that the next contest neither sweeps this one's scratch nor runs
 * meanwhile. */
int claim_dirs(struct suite *s)
{
	if (check_results_dir(s->cfg->results, !s->cfg->dry_run))
		return -1;
	if (s->cfg->dry_run) {
		if (check_owned(s->cfg->work_dir, "work directory"))
			return -1;
		/* named, never made */
		s->run_dir = xasprintf("%s/run-%d-XXXXXX", s->cfg->work_dir, (int)getpid());
		return 0;
	}
	s->results_lock = lock_dir(s->cfg->results, "results directory");
	if (s->results_lock >= 0 && s->configs->comparison &&
	    s->configs->comparison->machine_wide(s->configs->c) &&
	    access(COMPARE_RUN_DIR, W_OK) == 0) {
		s->compare_lock = lock_file(COMPARE_LOCK, "comparing on this machine, changing "
					    "its settings", "wait for it to end: two comparisons at "
					    "once would each put back what the other set");
		if (s->compare_lock < 0) {
			remove_run_dir(s);
			return -1;
		}
	}
	if (s->results_lock < 0 || make_run_dir(s)) {
		remove_run_dir(s);
		return -1;
	}
	return 0;
}
