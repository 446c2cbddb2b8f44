/* SPDX-License-Identifier: GPL-2.0-or-later */
/* env.c - the environment record: what a session was measured on. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "run/env.h"
#include "workload/workload.h"
#include "lib/fsutil.h"
#include "lib/swap.h"
#include "lib/util.h"

#define ABSENT "absent"

unsigned env_ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

static void cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];

	snprintf(buf, len, ABSENT);
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon || strncmp(line, "model name", 10))
			continue;
		colon++;
		colon += strspn(colon, " \t");
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s", colon);
		break;
	}
	fclose(f);
}

/* The command line as a user would type it again. */
static char *quoted_argv(int argc, char **argv)
{
	size_t cap = 1;
	char *out, *o;

	for (int i = 0; i < argc; i++)
		cap += 4 * strlen(argv[i]) + 3;
	o = out = xmalloc(cap);
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		int plain = *a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					 "0123456789-_./=:,+@%") == strlen(a);

		if (i)
			*o++ = ' ';
		if (plain) {
			o = stpcpy(o, a);
			continue;
		}
		*o++ = '\'';
		for (; *a; a++) {
			if (*a == '\'')
				o = stpcpy(o, "'\\''");
			else
				*o++ = *a;
		}
		*o++ = '\'';
	}
	*o = '\0';
	return out;
}

static void set_file(struct record *r, const char *key, const char *path)
{
	char buf[4096];

	record_set(r, key, read_small(path, buf, sizeof(buf)) ? ABSENT : buf);
}

void env_bracketed(char *buf)
{
	char *open = strchr(buf, '['), *close = open ? strchr(open, ']') : NULL;

	if (open && close) {
		*close = '\0';
		memmove(buf, open + 1, strlen(open + 1) + 1);
	}
}

static void set_bracketed(struct record *r, const char *key, const char *path)
{
	char buf[512];

	if (read_small(path, buf, sizeof(buf))) {
		record_set(r, key, ABSENT);
		return;
	}
	env_bracketed(buf);
	record_set(r, key, buf);
}

/* Every CPU's cpufreq governor, each distinct value once. */
static void governors(struct record *r)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);
	char all[512] = "", list[520], buf[64], probe[80], path[96];

	for (long i = 0; i < (n > 0 ? n : 1); i++) {
		size_t used = strlen(all);

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%ld/cpufreq/scaling_governor", i);
		if (read_small(path, buf, sizeof(buf)) || !buf[0])
			continue;
		/* a whole-word match in the comma list */
		snprintf(probe, sizeof(probe), ",%s,", buf);
		snprintf(list, sizeof(list), ",%s,", all);
		if (strstr(list, probe) || used + strlen(buf) + 2 > sizeof(all))
			continue;
		snprintf(all + used, sizeof(all) - used, "%s%s", used ? "," : "", buf);
	}
	record_set(r, "cpufreq_governor", all[0] ? all : ABSENT);
}

/* path, or the nearest parent of it that exists, made absolute. */
static char *nearest_existing(const char *path)
{
	char *p = xstrdup(path), *abs;

	while (!(abs = realpath(p, NULL))) {
		char *slash = strrchr(p, '/');

		if (errno != ENOENT && errno != ENOTDIR)
			break;
		if (!slash) {
			strcpy(p, ".");
		} else if (slash == p) {
			p[1] = '\0';
		} else {
			*slash = '\0';
		}
		if (!strcmp(p, ".") || !strcmp(p, "/")) {
			abs = realpath(p, NULL);
			break;
		}
	}
	free(p);
	return abs;
}

/* The mount holding abs (device dev): its type and source, from the
 * mountinfo line with that device whose mount point is the longest prefix. */
static int mount_of(const char *abs, dev_t dev, char *type, size_t tlen,
		    char *source, size_t slen)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL, want[32];
	size_t cap = 0, best = 0;
	int found = -1;

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "%u:%u", major(dev), minor(dev));
	while (getline(&line, &cap, f) >= 0) {
		char *save = NULL, *field[6] = { 0 }, *dash, *t, *s;
		int i = 0;

		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - TYPE SOURCE ... */
		dash = strstr(line, " - ");
		if (!dash)
			continue;
		*dash = '\0';
		for (char *w = strtok_r(line, " ", &save); w && i < 6; w = strtok_r(NULL, " ", &save))
			field[i++] = w;
		t = strtok_r(dash + 3, " \n", &save);
		s = t ? strtok_r(NULL, " \n", &save) : NULL;
		if (i < 5 || !t || !s || strcmp(field[2], want))
			continue;
		size_t n = strlen(field[4]);

		if (strncmp(abs, field[4], n) || (abs[n] && abs[n] != '/' && n > 1) || n < best)
			continue;
		best = n;
		snprintf(type, tlen, "%s", t);
		snprintf(source, slen, "%s", s);
		found = 0;
	}
	free(line);
	fclose(f);
	return found;
}

/* The disk of the file system holding abs (st: its stat): its sysfs
 * directory in path, the type of the file system in type (when known). */
static void disk_of(const char *abs, const struct stat *st, char *type, size_t tlen,
		    char *path, size_t len)
{
	char source[PATH_MAX] = "";
	struct stat bs;
	struct statfs sf;
	dev_t dev = st->st_dev;

	if (mount_of(abs, st->st_dev, type, tlen, source, sizeof(source)) &&
	    statfs(abs, &sf) == 0)
		snprintf(type, tlen, "0x%lx", (unsigned long)sf.f_type);
	/* btrfs and others have an anonymous st_dev: the mount's source is the disk */
	snprintf(path, len, "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if (access(path, F_OK) && source[0] == '/' && stat(source, &bs) == 0 &&
	    S_ISBLK(bs.st_mode)) {
		dev = bs.st_rdev;
		snprintf(path, len, "/sys/dev/block/%u:%u", major(dev), minor(dev));
	}
}

/* The I/O scheduler file of the disk dir (its sysfs directory) into path:
 * a partition has no queue, its disk, the parent directory, does. */
static int queue_scheduler(const char *dir, char *path, size_t len)
{
	snprintf(path, len, "%s/queue/scheduler", dir);
	if (access(path, F_OK) == 0)
		return 0;
	snprintf(path, len, "%s/../queue/scheduler", dir);
	return access(path, F_OK);
}

int env_io_scheduler_path(const char *work_dir, char *path, size_t len)
{
	char *abs = nearest_existing(work_dir);
	char type[64], dir[PATH_MAX];
	struct stat st;
	int ret = -1;

	if (abs && stat(abs, &st) == 0) {
		disk_of(abs, &st, type, sizeof(type), dir, sizeof(dir));
		ret = queue_scheduler(dir, path, len);
	}
	free(abs);
	return ret;
}

/* The block device holding work_dir, its I/O scheduler, and the file
 * system type. */
static void work_device(struct record *r, const char *work_dir)
{
	char *abs = nearest_existing(work_dir);
	char type[64] = ABSENT, dir[PATH_MAX], path[PATH_MAX], buf[512];
	struct stat st;

	record_set(r, "work_dir", abs ? abs : work_dir);
	if (!abs || stat(abs, &st)) {
		record_set(r, "work_fs", ABSENT);
		record_set(r, "work_dev", ABSENT);
		record_set(r, "io_scheduler", ABSENT);
		free(abs);
		return;
	}
	disk_of(abs, &st, type, sizeof(type), dir, sizeof(dir));
	record_set(r, "work_fs", type);
	free(abs);
	abs = realpath(dir, NULL);
	record_set(r, "work_dev", abs ? strrchr(abs, '/') + 1 : ABSENT);
	free(abs);
	if (queue_scheduler(dir, path, sizeof(path)) || read_small(path, buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), ABSENT);
	env_bracketed(buf);
	record_set(r, "io_scheduler", buf);
}

/* The preemption mode: debugfs shows it ("none voluntary (full)"); else a
 * preempt= boot option; else the words uname -v carries. */
static void preemption(struct record *r, const char *version)
{
	char buf[4096], *p;

	if (read_small("/sys/kernel/debug/sched/preempt", buf, sizeof(buf)) == 0 &&
	    (p = strchr(buf, '('))) {
		p[strcspn(p, ")")] = '\0';
		record_set(r, "preempt", p + 1);
		return;
	}
	if (read_small("/proc/cmdline", buf, sizeof(buf)) == 0 &&
	    ((p = strstr(buf, " preempt=")) || !strncmp(p = buf, "preempt=", 8))) {
		p = strchr(p, '=') + 1;
		p[strcspn(p, " ")] = '\0';
		record_setf(r, "preempt", "%s (preempt= on the command line)", p);
		return;
	}
	if (!version)
		record_set(r, "preempt", ABSENT);
	else if (str_has_word(version, "PREEMPT_RT"))
		record_set(r, "preempt", "rt (uname -v)");
	else if (str_has_word(version, "PREEMPT_DYNAMIC"))
		record_set(r, "preempt", "dynamic, mode not shown (uname -v)");
	else if (str_has_word(version, "PREEMPT"))
		record_set(r, "preempt", "full (uname -v)");
	else
		record_set(r, "preempt", "none or voluntary (uname -v)");
}

void env_capture(struct record *r, int argc, char **argv, const char *work_dir)
{
	struct utsname u;
	char buf[512];
	char *args = quoted_argv(argc, argv);
	const char *cc = getenv("CC");
	int have_uname = uname(&u) == 0;

	record_set(r, "contest", PACKAGE_VERSION);
	record_set(r, "argv", args);
	free(args);
	record_set(r, "kernel", have_uname ? u.release : ABSENT);
	record_set(r, "kernel_version", have_uname ? u.version : ABSENT);
	set_file(r, "cmdline", "/proc/cmdline");
	/* which boot: two labels in one are one kernel (a forgotten reboot) */
	set_file(r, "boot_id", "/proc/sys/kernel/random/boot_id");
	record_set(r, "machine", have_uname ? u.machine : ABSENT);
	record_set(r, "hostname", have_uname ? u.nodename : ABSENT);
	cpu_model(buf, sizeof(buf));
	record_set(r, "cpu_model", buf);
	record_setf(r, "ncpus", "%u", env_ncpus());
	set_file(r, "cpus_online", "/sys/devices/system/cpu/online");
	record_setf(r, "cpus_configured", "%ld", sysconf(_SC_NPROCESSORS_CONF));
	set_file(r, "smt_control", "/sys/devices/system/cpu/smt/control");
	set_file(r, "smt_active", "/sys/devices/system/cpu/smt/active");
	governors(r);
	record_setf(r, "mem_total", "%llu", (unsigned long long)meminfo_bytes("MemTotal"));
	record_setf(r, "swap_total", "%llu", (unsigned long long)meminfo_bytes("SwapTotal"));
	swap_describe(buf, sizeof(buf));
	record_set(r, "swap", buf);
	set_bracketed(r, "thp", "/sys/kernel/mm/transparent_hugepage/enabled");
	work_device(r, work_dir);
	set_file(r, "autogroup", "/proc/sys/kernel/sched_autogroup_enabled");
	set_file(r, "sched_ext", "/sys/kernel/sched_ext/state");
	set_file(r, "sched_ext_ops", "/sys/kernel/sched_ext/root/ops");
	set_file(r, "sched_ext_enable_seq", "/sys/kernel/sched_ext/enable_seq");
	preemption(r, have_uname ? u.version : NULL);
	if (workload_cc_version(cc && *cc ? cc : "cc", buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), ABSENT);
	record_set(r, "cc", buf);
	record_setf(r, "root", "%d", geteuid() == 0);
}
