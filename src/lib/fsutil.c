/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fsutil.c - file-system helpers: whole writes, small reads, safe removal. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "lib/fsutil.h"
#include "lib/util.h"

#define TAR_BLOCK 512
#define TAR_RECORD (20 * TAR_BLOCK)	/* GNU tar's default blocking factor */

int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int write_small(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err;

	if (fd < 0)
		return -1;
	if (write_all(fd, text, strlen(text))) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return close(fd) && errno != EINTR ? -1 : 0;
}

int replace_file(const char *path, const void *data, size_t len)
{
	char *tmp = xasprintf("%s.XXXXXX", path);
	int fd = mkostemp(tmp, O_CLOEXEC), err;

	if (fd < 0) {
		err = errno;
		free(tmp);
		errno = err;
		return -1;
	}
	if (fchmod(fd, 0644) || write_all(fd, data, len) || fsync(fd)) {
		err = errno;
		close(fd);
	} else {
		err = close(fd) || rename(tmp, path) ? errno : 0;
	}
	if (err)
		unlink(tmp);
	free(tmp);
	errno = err;
	return err ? -1 : 0;
}

int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	do
		n = read(fd, buf, len - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return 0;
}

int proc_field_u64(const char *path, const char *key, uint64_t *out)
{
	char line[256];
	size_t klen = strlen(key);
	FILE *f = fopen(path, "re");
	int ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *end;

		if (strncmp(line, key, klen) || (line[klen] != ':' && line[klen] != ' '))
			continue;
		errno = 0;
		*out = strtoull(line + klen + 1, &end, 10);
		if (!errno && end != line + klen + 1)
			ret = 0;
		break;
	}
	fclose(f);
	return ret;
}

uint64_t meminfo_bytes(const char *key)
{
	uint64_t v;

	return proc_field_u64("/proc/meminfo", key, &v) ? 0 : v * 1024;
}

/* The tightest memory cgroup limit over this process, and the least room
 * under one (limit - usage); both UINT64_MAX when none applies. */
static void memcg_bounds(uint64_t *limit, uint64_t *room)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[512];

	*limit = *room = UINT64_MAX;
	while (f && fgets(line, sizeof(line), f)) {
		char *ctl = strchr(line, ':'), *path = ctl ? strchr(ctl + 1, ':') : NULL;
		const char *base, *lim, *use;
		char dir[PATH_MAX], val[64];
		int v2;

		if (!path)
			continue;
		*path++ = '\0';
		path[strcspn(path, "\n")] = '\0';
		ctl++;
		v2 = !*ctl;
		if (!v2 && !strstr(ctl, "memory"))	/* v1: "memory", maybe with others */
			continue;
		base = v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory";
		lim = v2 ? "memory.max" : "memory.limit_in_bytes";
		use = v2 ? "memory.current" : "memory.usage_in_bytes";
		for (;;) {	/* the group, then every group above it */
			uint64_t l, u;
			char *slash;

			snprintf(dir, sizeof(dir), "%s%s/%s", base, path, lim);
			if (read_small(dir, val, sizeof(val)) == 0 && parse_u64(val, 0, UINT64_MAX, &l) == 0) {
				snprintf(dir, sizeof(dir), "%s%s/%s", base, path, use);
				if (read_small(dir, val, sizeof(val)) ||
				    parse_u64(val, 0, UINT64_MAX, &u))
					u = 0;
				if (l < *limit)
					*limit = l;
				if (l - (u < l ? u : l) < *room)
					*room = l - (u < l ? u : l);
			}
			slash = strrchr(path, '/');
			if (!slash || !*path)
				break;
			*slash = '\0';
		}
	}
	if (f)
		fclose(f);
}

uint64_t mem_total_bytes(void)
{
	uint64_t total = meminfo_bytes("MemTotal"), limit, room;

	memcg_bounds(&limit, &room);
	return limit < total ? limit : total;
}

uint64_t mem_available_bytes(void)
{
	uint64_t avail = meminfo_bytes("MemAvailable"), limit, room;

	memcg_bounds(&limit, &room);
	return room < avail ? room : avail;
}

/* path, or its nearest existing parent ("." for a relative path none of
 * whose parents exists); the caller frees it. */
static char *existing_parent(const char *path)
{
	size_t n = strlen(path);
	char *p = xmalloc(n + 2), *slash;
	struct stat st;

	memcpy(p, path, n + 1);
	while (stat(p, &st) && errno == ENOENT && strcmp(p, ".")) {
		slash = strrchr(p, '/');
		if (!slash)
			strcpy(p, ".");
		else if (slash == p)
			p[1] = '\0';
		else
			*slash = '\0';
	}
	return p;
}

int fs_free_bytes(const char *path, uint64_t *out)
{
	char *p = existing_parent(path);
	struct statvfs sv;
	int ret = statvfs(p, &sv);

	free(p);
	if (ret)
		return -1;
	*out = (uint64_t)sv.f_bavail * sv.f_frsize;
	return 0;
}

int fs_in_memory(const char *path)
{
	char *p = existing_parent(path);
	struct statfs sf;
	int ret = statfs(p, &sf);

	free(p);
	return ret == 0 && (sf.f_type == TMPFS_MAGIC || sf.f_type == RAMFS_MAGIC);
}

/* path from /, as given (not resolved); the caller frees it. */
static char *lexical_absolute(const char *path)
{
	char cwd[PATH_MAX];

	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return xstrdup(path);
	return xasprintf("%s/%s", cwd, path);
}

char *fs_absolute(const char *path)
{
	char *full = lexical_absolute(path), *have, *real, *out;
	const char *rest;

	/* the part that exists resolved (.., symlinks), the rest as given;
	 * after "/" alone (/newdir) the rest has no slash of its own */
	have = existing_parent(full);
	real = realpath(have, NULL);
	rest = full + strlen(have);
	out = real ? xasprintf("%s%s%s", strcmp(real, "/") ? real : "",
			       *rest && *rest != '/' ? "/" : "", rest)
		   : xstrdup(full);
	free(real);
	free(have);
	free(full);
	return out;
}

/* 0 when no user but root and this process's can change what the
 * directory or symlink p (st: its stat) holds or points to; else -1 with
 * why.  The owner can always chmod; a sticky directory lets others add
 * entries but not remove or rename theirs. */
static int others_can_change(const char *p, const struct stat *st, char *why, size_t len)
{
	struct passwd *pw;
	struct group *gr;

	if (st->st_uid != 0 && st->st_uid != geteuid()) {
		pw = getpwuid(st->st_uid);
		return whyf(why, len, "%s%s belongs to %s (uid %u)", p,
			    S_ISLNK(st->st_mode) ? ", a symlink," : "", pw ? pw->pw_name : "?",
			    (unsigned)st->st_uid);
	}
	if (!S_ISDIR(st->st_mode) || (st->st_mode & S_ISVTX))
		return 0;
	if (st->st_mode & S_IWOTH)
		return whyf(why, len, "%s is writable by every user and not sticky (mode %o)", p,
			    (unsigned)(st->st_mode & 07777));
	if ((st->st_mode & S_IWGRP) && st->st_gid != 0 && st->st_gid != getegid()) {
		gr = getgrgid(st->st_gid);
		return whyf(why, len, "%s is writable by the group %s (gid %u) and not sticky", p,
			    gr ? gr->gr_name : "?", (unsigned)st->st_gid);
	}
	return 0;
}

/* others_can_change() for q, and for a symlink both the link and what it
 * names.  1 when q does not exist (nor then what is below it). */
static int check_entry(const char *q, char *why, size_t len)
{
	struct stat st;

	if (lstat(q, &st))
		return errno == ENOENT ? 1 : whyf(why, len, "cannot look at %s: %s", q,
						  strerror(errno));
	if (S_ISLNK(st.st_mode)) {
		if (others_can_change(q, &st, why, len))
			return -1;
		if (stat(q, &st))
			return errno == ENOENT ? 1 : whyf(why, len, "cannot look at %s: %s", q,
							  strerror(errno));
	}
	return others_can_change(q, &st, why, len);
}

/* check_entry() for "/" and each prefix of the absolute path p, down to
 * the first that does not exist; returns 0, or -1 with the reason in why. */
static int check_prefixes(const char *p, char *why, size_t len)
{
	size_t n = strlen(p);
	char *q = xstrdup(p);
	int ret = check_entry("/", why, len);

	for (size_t i = 1; i <= n && ret == 0; i++) {
		if ((i < n && p[i] != '/') || p[i - 1] == '/')
			continue;	/* inside a name, or an empty one */
		q[i] = '\0';
		ret = check_entry(q, why, len);
		q[i] = p[i];
	}
	free(q);
	return ret < 0 ? -1 : 0;
}

int fs_check_owned(const char *path, char *why, size_t len)
{
	char *full = lexical_absolute(path), *have, *real;
	int ret;

	/* the path as given (its symlinks, where they live), then as resolved */
	ret = check_prefixes(full, why, len);
	if (ret == 0) {
		have = existing_parent(full);
		real = realpath(have, NULL);
		if (real)
			ret = check_prefixes(real, why, len);
		free(real);
		free(have);
	}
	free(full);
	return ret;
}

/* Empty the directory open as dfd (which this call closes). */
static int empty_dir(int dfd, dev_t dev)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	int ret = 0;

	if (!d) {
		close(dfd);
		return -1;
	}
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		struct stat st;
		int sub;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		if (fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW)) {
			if (errno == ENOENT)
				continue;
			ret = -1;
			break;
		}
		if (!S_ISDIR(st.st_mode)) {
			if (unlinkat(dfd, n, 0) && errno != ENOENT) {
				ret = -1;
				break;
			}
			continue;
		}
		if (st.st_dev != dev) {	/* a mount inside: leave it alone */
			errno = EBUSY;
			ret = -1;
			break;
		}
		/* a read-only directory of ours (an extracted 0555 one) must
		 * become writable before its entries can go */
		if ((st.st_mode & S_IRWXU) != S_IRWXU && st.st_uid == geteuid())
			/* not through a symlink swapped in since the fstatat */
			fchmodat(dfd, n, st.st_mode | S_IRWXU, AT_SYMLINK_NOFOLLOW);
		sub = openat(dfd, n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0 || empty_dir(sub, dev) || unlinkat(dfd, n, AT_REMOVEDIR)) {
			ret = -1;
			break;
		}
	}
	closedir(d);
	return ret;
}

int remove_tree_at(int dfd, const char *name)
{
	struct stat st;
	int fd;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW))
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlinkat(dfd, name, 0);
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || empty_dir(fd, st.st_dev))
		return -1;
	return unlinkat(dfd, name, AT_REMOVEDIR);
}

/* Whether abs (st: its stat) is the root of a mount: statx says so where
 * the kernel tells (5.8, bind mounts included), else its device differs
 * from its parent's. */
static int mount_root(const char *abs, const struct stat *st)
{
	char *parent = xasprintf("%s/..", abs);
	struct stat ps;
	int root;
#ifdef STATX_ATTR_MOUNT_ROOT
	struct statx sx;

	if (statx(AT_FDCWD, abs, AT_NO_AUTOMOUNT, STATX_BASIC_STATS, &sx) == 0 &&
	    (sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT)) {
		free(parent);
		return !!(sx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
	}
#endif
	root = stat(parent, &ps) == 0 && ps.st_dev != st->st_dev;
	free(parent);
	return root;
}

int fs_system_dir(const char *path, char *why, size_t len)
{
	char *abs = fs_absolute(path);
	size_t n = strlen(abs);
	const char *what = NULL;
	struct stat st;

	while (n > 1 && abs[n - 1] == '/')
		abs[--n] = '\0';
	if (!n || !strcmp(abs, "/"))
		what = "the root directory";
	else if (!strchr(abs + 1, '/'))
		what = "right under the root directory, where the system's own directories are";
	else if (stat(abs, &st) == 0 && S_ISDIR(st.st_mode) && mount_root(abs, &st))
		what = "a mount point (the root of a file system, or a bind mount)";
	if (what)
		snprintf(why, len, "%s%s%s", n && strcmp(abs, path) ? abs : "",
			 n && strcmp(abs, path) ? ", " : "", what);
	free(abs);
	return what != NULL;
}

int remove_tree(const char *path)
{
	return remove_tree_at(AT_FDCWD, path);
}

int mkdtemp_at(int dfd, char *name)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	size_t n = strlen(name);
	char *x = name + n - 6;

	if (n < 6 || strcmp(x, "XXXXXX")) {
		errno = EINVAL;
		return -1;
	}
	for (int tries = 0; tries < 100; tries++) {
		unsigned char r[6];

		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
			return -1;
		for (size_t i = 0; i < sizeof(r); i++)
			x[i] = set[r[i] % (sizeof(set) - 1)];
		if (mkdirat(dfd, name, 0700) == 0)
			return 0;
		if (errno != EEXIST)
			return -1;
	}
	errno = EEXIST;
	return -1;
}

static int walk_at(int dfd, dev_t dev, int (*fn)(int fd, void *arg), void *arg)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	int ret = 0, err;

	if (!d) {
		close(dfd);
		return -1;
	}
	while (!ret) {
		const char *n;
		struct stat st;
		int fd;

		errno = 0;
		de = readdir(d);
		if (!de) {
			ret = errno ? -1 : 0;
			break;
		}
		n = de->d_name;
		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		if (fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW)) {
			ret = errno == ENOENT ? 0 : -1;	/* gone meanwhile: nothing to do */
			continue;
		}
		if (st.st_dev != dev || !(S_ISDIR(st.st_mode) || S_ISREG(st.st_mode)))
			continue;	/* another mount, or not a file */
		fd = openat(dfd, n, (S_ISDIR(st.st_mode) ? O_DIRECTORY : 0) |
			    O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			ret = errno == ENOENT ? 0 : -1;
		else if (S_ISDIR(st.st_mode))
			ret = walk_at(fd, dev, fn, arg);
		else {
			ret = fn(fd, arg);
			close(fd);
		}
	}
	err = errno;
	closedir(d);
	errno = err;
	return ret;
}

int walk_files(const char *dir, int (*fn)(int fd, void *arg), void *arg)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st)) {
		close(fd);
		return -1;
	}
	return walk_at(fd, st.st_dev, fn, arg);
}

/* fs_tree_size()'s sums, for its nftw() callback. */
static uint64_t tree_archive, tree_disk;

static int add_entry(const char *path, const struct stat *st, int type, struct FTW *f)
{
	(void)path;
	(void)f;
	if (type == FTW_NS || type == FTW_DNR)
		return 0;	/* unreadable: tar would skip it too */
	tree_archive += TAR_BLOCK;	/* the member's header */
	if (type == FTW_F && S_ISREG(st->st_mode))
		tree_archive += ((uint64_t)st->st_size + TAR_BLOCK - 1) / TAR_BLOCK * TAR_BLOCK;
	tree_disk += (uint64_t)st->st_blocks * 512;
	return 0;
}

int fs_tree_size(const char *dir, uint64_t *archive, uint64_t *disk)
{
	tree_archive = tree_disk = 0;
	if (nftw(dir, add_entry, 16, FTW_PHYS | FTW_MOUNT))
		return -1;
	/* the end of the archive, two blocks, and the last record filled */
	*archive = (tree_archive + 2 * TAR_BLOCK + TAR_RECORD - 1) / TAR_RECORD * TAR_RECORD;
	*disk = tree_disk;
	return 0;
}

void log_tail(const char *path, int lines, FILE *f)
{
	FILE *in = fopen(path, "re");
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

/* ---- locks ---------------------------------------------------------------- */

#define LOCK_NAME "contest.lock"

int lock_dir(const char *dir, const char *what)
{
	char *path = xasprintf("%s/" LOCK_NAME, dir);
	char *about = xasprintf("using the %s %s", what, dir);
	int fd = lock_file(path, about, "wait for it to end, or use another directory");

	free(about);
	free(path);
	return fd;
}

int lock_file(const char *path, const char *about, const char *hint)
{
	char old[32];
	int fd, tries = 0;

	for (;;) {
		struct stat fs, ps;
		ssize_t n;

		fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
		if (fd < 0) {
			msg("cannot create %s: %s", path, strerror(errno));
			return -1;
		}
		n = pread(fd, old, sizeof(old) - 1, 0);
		old[n > 0 ? n : 0] = '\0';
		old[strcspn(old, "\n")] = '\0';
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			msg("another contest (pid %s) is %s: %s", old[0] ? old : "?", about, hint);
			close(fd);
			return -1;
		}
		/* a holder removes the file while it holds it (unlock_dir): a
		 * lock taken on a file no longer at path locks nothing */
		if (!fstat(fd, &fs) && !stat(path, &ps) && fs.st_dev == ps.st_dev &&
		    fs.st_ino == ps.st_ino)
			break;
		close(fd);
		if (++tries == 100) {
			msg("cannot lock %s: it is replaced again and again", path);
			return -1;
		}
	}
	if (old[0] && atoi(old) != getpid())
		info("taking over %s from contest pid %s, which is gone", path, old);
	snprintf(old, sizeof(old), "%d\n", (int)getpid());
	/* the first write to the directory: a full or read-only file system
	 * stops contest here, before an hour of work it could not store */
	errno = 0;
	if (ftruncate(fd, 0) || pwrite(fd, old, strlen(old), 0) != (ssize_t)strlen(old)) {
		msg("cannot write %s: %s", path, errno ? strerror(errno) : "short write");
		unlink(path);
		close(fd);
		fd = -1;
	}
	return fd;
}

void unlock_dir(const char *dir, int *fd)
{
	char *path;

	if (*fd < 0)
		return;
	path = xasprintf("%s/" LOCK_NAME, dir);
	unlock_file(path, fd);
	free(path);
}

void unlock_file(const char *path, int *fd)
{
	if (*fd < 0)
		return;
	unlink(path);	/* while still holding it */
	close(*fd);
	*fd = -1;
}
