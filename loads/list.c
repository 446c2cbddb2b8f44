/* SPDX-License-Identifier: GPL-2.0-or-later */
/* list.c - list_load: lists the file system like `ls -lRa /`, into /dev/null.
 *
 * One listing walks the tree below --root (default "/") the way ls -lRa
 * does: a directory is read whole, every entry (".", ".." and hidden ones
 * included) is lstat()ed, owner and group names are looked up, the entries
 * are sorted by name and written as long-listing lines (mode, links, owner,
 * group, size or device numbers, mtime, name, "-> target" for a symlink)
 * to /dev/null in 4 KiB write()s, as ls's stdio does; then its subdirectories are listed,
 * depth first, in name order.  Like GNU ls -l, every entry is also asked for
 * its SELinux label (lgetxattr) and (not symlinks) its POSIX ACLs (getxattr),
 * the '.' or '+' after the mode; as ls, a file system that answers that it
 * does not support one of the two is not asked it again until an entry of
 * another device comes (/proc, /sys: one call, not one per entry).  Owner
 * and group names are cached per id, as ls does.
 *
 * Directories are opened relative to their parent (openat, fdopendir; one
 * descriptor per level of depth), so no path length limit applies to the
 * walk itself.  Symlinks are never followed (only --root itself may be one).
 * A directory that is one of those being listed (a bind mount of an
 * ancestor makes a cycle) is listed in its parent but not entered, as ls -R
 * does ("not listing already-listed directory"): without this guard such a
 * mount would make every listing, and the count before it, walk the cycle
 * down to the open file limit.
 * /proc, /sys, /dev and the other pseudo file systems are entered like any
 * directory, as ls -lRa / enters them.  Two kinds of directory are listed in
 * their parent but not entered: an autofs mount point (entering it would
 * mount what it stands for, perhaps over a network, and wait for it), by
 * statfs magic when st_dev changes, and contest's own work directory (by
 * device and inode, looked up again for every listing).
 *
 * An entry is every object the walk lstat()s below the root, plus the root
 * itself: for a plain tree the count equals `find ROOT | wc -l`.  "." and
 * ".." are lstat()ed and listed in every directory, as ls -a does, but not
 * counted, as find does not print them.  An entry that vanishes or cannot be
 * lstat()ed is not counted; a directory that cannot be opened (no
 * permission, gone, too deep for the open file limit) is counted but not
 * entered.
 *
 * Unit: one complete listing, counted fractionally by entries against the
 * previous listing's count.  check() walks once, untimed and without
 * formatting, to count the entries for the first listing's fraction. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <linux/magic.h>
#include <pwd.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "loads/load.h"
#include "lib/fsutil.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#define OUT_SIZE (64 * 1024)    /* the output buffer */
#define LINE_ROOM (16 * 1024)   /* room kept free for one line */
#define WRITE_SIZE 4096         /* bytes per write(): ls 9.1's stdio buffer, /dev/null */
#define NAME_SLOTS 256          /* cached owner or group names */
#define NAME_MAX_LEN 64         /* longer names are cut */
#define SIX_MONTHS (31556952 / 2)

struct ident {
	dev_t dev;
	ino_t ino;
};

/* Owner or group names by id, open addressing; a miss is cached as the
 * number, which is what ls prints then. */
struct name_cache {
	int groups;
	size_t used;
	uint32_t id[NAME_SLOTS];
	char *name[NAME_SLOTS];        /* NULL: a free slot */
	char spare[NAME_MAX_LEN + 1];  /* the last name that did not fit */
};

/* One entry of the directory being listed. */
struct entry {
	size_t off;             /* its name in lister.names */
	const char *name;       /* set once every name is read */
	int dot;                /* "." or "..": listed, never counted */
	int ok;                 /* lstat() worked */
	mode_t mode;
	nlink_t nlink;
	uid_t uid;
	gid_t gid;
	off_t size;
	blkcnt_t blocks;
	time_t mtime;
	dev_t dev, rdev;
	ino_t ino;
};

/* One directory on the way down: its stream and the subdirectories still
 * to enter, NUL-separated, in listing order. */
struct frame {
	DIR *dir;
	dev_t dev;
	ino_t ino;
	size_t prev_len;        /* lister.path.len before this level */
	struct strbuf subdirs;
	size_t next;
};

/* list_load's option, as given (NULL: not given). */
struct list_opts {
	const char *root;
};

static const struct load_option list_options[] = {
	{ "root", "DIR", "where the listing starts (default /)",
	  LOAD_OPT_STRING, offsetof(struct list_opts, root), 0, 0 },
	{ NULL },
};

/* Where the listing starts: --root, else /. */
static const char *list_root(const struct load_ctx *c)
{
	const struct list_opts *o = c->opts;

	return o->root ? o->root : "/";
}

struct lister {
	struct load_ctx *c;
	const char *root;
	int counting;           /* check(): lstat and count, write nothing */
	int out_fd;
	char *out;
	size_t out_len;
	int first;              /* no directory written yet in this listing */
	struct strbuf path;     /* the directory being listed, for headers */
	struct strbuf full;     /* one entry's path, for the xattr calls */
	struct ident work;        /* the work directory, if it exists */
	int has_work;
	/* the last device that answered "not supported" to the label or the
	 * ACL calls, as ls 9.1's getfilecon_cache() and file_has_acl_cache() */
	dev_t no_label_dev, no_acl_dev;
	int no_label, no_acl;
	struct name_cache users, groups;
	char *nss;              /* getpwuid_r/getgrgid_r buffer */
	size_t nss_len;
	char target[PATH_MAX];
	time_t now;
	struct strbuf names;    /* names of the directory being listed */
	struct entry *ents;
	size_t nents, ents_cap;
	struct frame *stack;
	size_t depth, stack_cap;
	uint64_t entries;       /* counted so far in this listing */
	double done, denom;     /* listings completed; entries in the last one */
	char why[256];
};

static int lister_fail(struct lister *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int lister_fail(struct lister *l, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->why, sizeof(l->why), fmt, ap);
	va_end(ap);
	return -1;
}

static void lister_init(struct lister *l, struct load_ctx *c, int counting)
{
	memset(l, 0, sizeof(*l));
	l->c = c;
	l->root = list_root(c);
	l->counting = counting;
	l->out_fd = -1;
	l->groups.groups = 1;
	l->nss_len = 16384;
	l->nss = xmalloc(l->nss_len);
	if (!counting)
		l->out = xmalloc(OUT_SIZE);
}

static void names_free(struct name_cache *nc)
{
	for (size_t i = 0; i < NAME_SLOTS; i++)
		free(nc->name[i]);
}

static void lister_free(struct lister *l)
{
	if (l->out_fd >= 0)
		close(l->out_fd);
	names_free(&l->users);
	names_free(&l->groups);
	free(l->nss);
	free(l->out);
	strbuf_free(&l->path);
	strbuf_free(&l->full);
	strbuf_free(&l->names);
	free(l->ents);
	free(l->stack);
}

/* ---- owner and group names ---------------------------------------------- */

static void resolve_name(struct lister *l, struct name_cache *nc, uint32_t id)
{
	const char *name = NULL;
	int rc;

	for (;;) {
		if (nc->groups) {
			struct group gr, *res = NULL;

			rc = getgrgid_r((gid_t)id, &gr, l->nss, l->nss_len, &res);
			name = res ? res->gr_name : NULL;
		} else {
			struct passwd pw, *res = NULL;

			rc = getpwuid_r((uid_t)id, &pw, l->nss, l->nss_len, &res);
			name = res ? res->pw_name : NULL;
		}
		if (rc != ERANGE || l->nss_len >= 1024 * 1024)
			break;
		l->nss_len *= 2;
		l->nss = xrealloc(l->nss, l->nss_len);
	}
	if (name)
		snprintf(nc->spare, sizeof(nc->spare), "%s", name);
	else
		snprintf(nc->spare, sizeof(nc->spare), "%u", id);
}

static const char *lookup_name(struct lister *l, struct name_cache *nc, uint32_t id)
{
	size_t i = (id * 2654435761u) % NAME_SLOTS;

	while (nc->name[i]) {
		if (nc->id[i] == id)
			return nc->name[i];
		i = (i + 1) % NAME_SLOTS;
	}
	resolve_name(l, nc, id);
	if (nc->used >= NAME_SLOTS * 3 / 4)
		return nc->spare;	/* full: look the rest up every time */
	nc->id[i] = id;
	nc->name[i] = xstrdup(nc->spare);
	nc->used++;
	return nc->name[i];
}

/* ---- output ----------------------------------------------------------- */

/* Write the buffer out in pieces of WRITE_SIZE, as ls's stdio does; `all`:
 * the last, shorter piece too. */
static int out_drain(struct lister *l, int all)
{
	size_t done = 0;

	while (l->out_len - done >= WRITE_SIZE || (all && done < l->out_len)) {
		size_t n = l->out_len - done < WRITE_SIZE ? l->out_len - done : WRITE_SIZE;

		if (write_all(l->out_fd, l->out + done, n))
			return lister_fail(l, "write /dev/null: %s", strerror(errno));
		done += n;
	}
	memmove(l->out, l->out + done, l->out_len - done);
	l->out_len -= done;
	return 0;
}

static int out_flush(struct lister *l)
{
	return out_drain(l, 1);
}

static int out_write(struct lister *l, const char *s, size_t len)
{
	while (len) {
		size_t n = OUT_SIZE - l->out_len;

		if (!n && out_drain(l, 0))
			return -1;
		n = OUT_SIZE - l->out_len;
		if (n > len)
			n = len;
		memcpy(l->out + l->out_len, s, n);
		l->out_len += n;
		s += n;
		len -= n;
	}
	return 0;
}

/* One line of at most LINE_ROOM bytes (a longer one is cut). */
static int out_printf(struct lister *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int out_printf(struct lister *l, const char *fmt, ...)
{
	size_t room;
	va_list ap;
	int n;

	if (OUT_SIZE - l->out_len < LINE_ROOM && out_drain(l, 0))
		return -1;
	room = OUT_SIZE - l->out_len;
	va_start(ap, fmt);
	n = vsnprintf(l->out + l->out_len, room, fmt, ap);
	va_end(ap);
	if (n < 0)
		return lister_fail(l, "formatting a line: %s", strerror(errno));
	l->out_len += (size_t)n < room ? (size_t)n : room - 1;
	return 0;
}

/* ---- paths ------------------------------------------------------------ */

/* Append "/name" to the path of the directory being listed. */
static void path_push(struct lister *l, const char *name)
{
	if (l->path.len && l->path.s[l->path.len - 1] != '/')
		xstrbuf_add(&l->path, "/", 1);
	xstrbuf_add(&l->path, name, strlen(name));
}

/* The path of one entry of the directory being listed, or NULL when it is
 * too long for a path-taking system call. */
static const char *entry_path(struct lister *l, const char *name)
{
	size_t n = strlen(name);
	int slash = l->path.len && l->path.s[l->path.len - 1] != '/';

	if (l->path.len + (size_t)slash + n >= PATH_MAX)
		return NULL;
	strbuf_cut(&l->full, 0);
	xstrbuf_add(&l->full, l->path.s, l->path.len);
	if (slash)
		xstrbuf_add(&l->full, "/", 1);
	xstrbuf_add(&l->full, name, n);
	return l->full.s;
}

/* ---- what not to enter ------------------------------------------------- */

/* Looked up for every listing: the work directory may come and go. */
static void find_skips(struct lister *l)
{
	const char *wd = l->c->env->work_dir;
	struct stat st;

	l->has_work = wd && !stat(wd, &st) && S_ISDIR(st.st_mode);
	if (l->has_work) {
		l->work.dev = st.st_dev;
		l->work.ino = st.st_ino;
	}
}

static int skipped(const struct lister *l, dev_t dev, ino_t ino)
{
	return l->has_work && l->work.dev == dev && l->work.ino == ino;
}

/* Whether fd is on an autofs mount point. */
static int on_autofs(int fd)
{
	struct statfs sf;

	return !fstatfs(fd, &sf) && (uint32_t)sf.f_type == AUTOFS_SUPER_MAGIC;
}

/* ---- one directory ------------------------------------------------------ */

static void add_entry(struct lister *l, const char *name)
{
	size_t n = strlen(name) + 1;
	struct entry *e;

	if (l->nents == l->ents_cap) {
		l->ents_cap = l->ents_cap ? l->ents_cap * 2 : 256;
		l->ents = xreallocarray(l->ents, l->ents_cap, sizeof(*l->ents));
	}
	e = &l->ents[l->nents++];
	e->off = l->names.len;
	e->dot = name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
	xstrbuf_add(&l->names, name, n);
}

static void stat_entry(struct lister *l, int dfd, struct entry *e)
{
	struct stat st;

	e->ok = !fstatat(dfd, e->name, &st, AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT);
	if (!e->ok)
		return;		/* gone since readdir, or not ours to see */
	e->mode = st.st_mode;
	e->nlink = st.st_nlink;
	e->uid = st.st_uid;
	e->gid = st.st_gid;
	e->size = st.st_size;
	e->blocks = st.st_blocks;
	e->mtime = st.st_mtime;
	e->dev = st.st_dev;
	e->rdev = st.st_rdev;
	e->ino = st.st_ino;
	if (!e->dot)
		l->entries++;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static void mode_string(mode_t m, char mark, char *s)
{
	static const char rwx[] = "rwxrwxrwx";

	s[0] = S_ISDIR(m) ? 'd' : S_ISLNK(m) ? 'l' : S_ISCHR(m) ? 'c' : S_ISBLK(m) ? 'b' :
		S_ISFIFO(m) ? 'p' : S_ISSOCK(m) ? 's' : S_ISREG(m) ? '-' : '?';
	for (int i = 0; i < 9; i++)
		s[1 + i] = m & (0400 >> i) ? rwx[i] : '-';
	if (m & S_ISUID)
		s[3] = m & S_IXUSR ? 's' : 'S';
	if (m & S_ISGID)
		s[6] = m & S_IXGRP ? 's' : 'S';
	if (m & S_ISVTX)
		s[9] = m & S_IXOTH ? 't' : 'T';
	s[10] = mark;
	s[11] = '\0';
}

/* Whether a failed xattr call means the file system has no such thing (as
 * ls's errno_unsupported()); the device is then not asked again. */
static int unsupported(int err)
{
	return err == EINVAL || err == ENOSYS || err == ENOTSUP || err == EOPNOTSUPP;
}

/* One of the calls of xattr_mark(), skipped on the device last found not to
 * support it (*dev, valid when *known): its value, or -1. */
static ssize_t ask_xattr(int follow, const char *p, const char *key, void *buf, size_t len,
			 dev_t dev, dev_t *no_dev, int *known)
{
	ssize_t n;

	if (*known && *no_dev == dev)
		return -1;
	n = follow ? getxattr(p, key, buf, len) : lgetxattr(p, key, buf, len);
	if (n < 0 && unsupported(errno)) {
		*no_dev = dev;
		*known = 1;
	}
	return n;
}

/* What GNU ls -l asks of every entry: '+' for an ACL, '.' for a security
 * context, nothing otherwise; the calls of coreutils 9.1's ls (lgetxattr of
 * the label, getxattr of the ACLs, a symlink's ACLs not asked).  Paths longer
 * than PATH_MAX go without. */
static char xattr_mark(struct lister *l, const struct entry *e)
{
	const char *p = entry_path(l, e->name);
	char label[256];
	int context;

	if (!p)
		return '\0';
	context = ask_xattr(0, p, "security.selinux", label, sizeof(label), e->dev,
			    &l->no_label_dev, &l->no_label) > 0;
	if (S_ISLNK(e->mode))
		return context ? '.' : '\0';
	if (ask_xattr(1, p, "system.posix_acl_access", NULL, 0, e->dev, &l->no_acl_dev,
		      &l->no_acl) > 0 ||
	    (S_ISDIR(e->mode) && ask_xattr(1, p, "system.posix_acl_default", NULL, 0, e->dev,
					   &l->no_acl_dev, &l->no_acl) > 0))
		return '+';
	return context ? '.' : '\0';
}

static void size_field(const struct entry *e, char *buf, size_t len)
{
	if (S_ISCHR(e->mode) || S_ISBLK(e->mode))
		snprintf(buf, len, "%u, %u", major(e->rdev), minor(e->rdev));
	else
		snprintf(buf, len, "%jd", (intmax_t)e->size);
}

static void time_field(const struct lister *l, time_t t, char *buf, size_t len)
{
	int recent = t > l->now - SIX_MONTHS && t <= l->now + 60;
	struct tm tm;

	if (!localtime_r(&t, &tm) ||
	    !strftime(buf, len, recent ? "%b %e %H:%M" : "%b %e  %Y", &tm))
		snprintf(buf, len, "%jd", (intmax_t)t);
}

struct widths {
	int links, owner, group, size;
};

static int print_entry(struct lister *l, int dfd, const struct entry *e,
		       const struct widths *w)
{
	char mode[12], size[48], when[64];
	const char *owner, *group, *arrow = "", *target = "";

	mode_string(e->mode, xattr_mark(l, e), mode);
	owner = lookup_name(l, &l->users, e->uid);
	group = lookup_name(l, &l->groups, e->gid);
	size_field(e, size, sizeof(size));
	time_field(l, e->mtime, when, sizeof(when));
	if (S_ISLNK(e->mode)) {
		ssize_t n = readlinkat(dfd, e->name, l->target, sizeof(l->target) - 1);

		l->target[n > 0 ? n : 0] = '\0';
		arrow = " -> ";
		target = l->target;
	}
	return out_printf(l, "%s %*ju %-*s %-*s %*s %s %s%s%s\n", mode, w->links,
			  (uintmax_t)e->nlink, w->owner, owner, w->group, group,
			  w->size, size, when, e->name, arrow, target);
}

static int max_int(int a, int b)
{
	return a > b ? a : b;
}

/* The directory's lines: a header, the total of 1 KiB blocks, then one line
 * per entry, columns as wide as the widest value, as ls aligns them. */
static int print_dir(struct lister *l, int dfd)
{
	struct widths w = { 0, 0, 0, 0 };
	uintmax_t blocks = 0;
	char buf[48];

	for (size_t i = 0; i < l->nents; i++) {
		const struct entry *e = &l->ents[i];

		if (!e->ok)
			continue;
		blocks += (uintmax_t)e->blocks;
		w.links = max_int(w.links, snprintf(buf, sizeof(buf), "%ju", (uintmax_t)e->nlink));
		w.owner = max_int(w.owner, (int)strlen(lookup_name(l, &l->users, e->uid)));
		w.group = max_int(w.group, (int)strlen(lookup_name(l, &l->groups, e->gid)));
		size_field(e, buf, sizeof(buf));
		w.size = max_int(w.size, (int)strlen(buf));
	}
	if ((!l->first && out_write(l, "\n", 1)) || out_write(l, l->path.s, l->path.len) ||
	    out_printf(l, ":\ntotal %ju\n", (blocks + 1) / 2))
		return -1;
	l->first = 0;
	for (size_t i = 0; i < l->nents; i++) {
		if (load_stopping())
			return 1;
		if (l->ents[i].ok && print_entry(l, dfd, &l->ents[i], &w))
			return -1;
	}
	return 0;
}

static void add_subdir(struct frame *f, const char *name)
{
	size_t n = strlen(name) + 1;

	xstrbuf_add(&f->subdirs, name, n);
}

static void report_progress(struct lister *l)
{
	double frac = (double)l->entries / l->denom;

	if (!l->counting)
		load_progress(l->c, l->done + (frac < 1 ? frac : 1));
}

/* Read, lstat, sort and write the directory on top of the stack, and note
 * which subdirectories to enter.  0, 1 when told to stop, or -1. */
static int list_dir(struct lister *l)
{
	struct frame *f = &l->stack[l->depth - 1];
	int dfd = dirfd(f->dir);
	struct dirent *de;
	int rc;

	l->nents = 0;
	strbuf_cut(&l->names, 0);
	/* A read error ends the directory with what was read. */
	while ((de = readdir(f->dir)))
		if (!l->counting || (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")))
			add_entry(l, de->d_name);
	for (size_t i = 0; i < l->nents; i++) {
		if (load_stopping())
			return 1;
		l->ents[i].name = l->names.s + l->ents[i].off;
		stat_entry(l, dfd, &l->ents[i]);
	}
	if (!l->counting) {
		qsort(l->ents, l->nents, sizeof(*l->ents), by_name);
		if ((rc = print_dir(l, dfd)))
			return rc;
	}
	for (size_t i = 0; i < l->nents; i++) {
		const struct entry *e = &l->ents[i];

		if (e->ok && !e->dot && S_ISDIR(e->mode) && !skipped(l, e->dev, e->ino))
			add_subdir(f, e->name);
	}
	report_progress(l);
	return 0;
}

/* ---- the walk ------------------------------------------------------------ */

static int push_frame(struct lister *l, int fd, const struct stat *st, size_t prev_len)
{
	struct frame *f;
	DIR *d = fdopendir(fd);

	if (!d) {
		int e = errno;

		close(fd);
		errno = e;
		return e == ENOMEM ? lister_fail(l, "fdopendir: %s", strerror(e)) : 0;
	}
	if (l->depth == l->stack_cap) {
		l->stack_cap = l->stack_cap ? l->stack_cap * 2 : 64;
		l->stack = xreallocarray(l->stack, l->stack_cap, sizeof(*l->stack));
	}
	f = &l->stack[l->depth++];
	memset(f, 0, sizeof(*f));
	f->dir = d;
	f->dev = st->st_dev;
	f->ino = st->st_ino;
	f->prev_len = prev_len;
	return 1;
}

static void pop_frame(struct lister *l)
{
	struct frame *f = &l->stack[--l->depth];

	closedir(f->dir);
	strbuf_free(&f->subdirs);
	strbuf_cut(&l->path, f->prev_len);
}

/* Whether the directory (dev, ino) is one of those being listed: entering
 * it again would walk a cycle (a bind mount of an ancestor). */
static int in_cycle(const struct lister *l, dev_t dev, ino_t ino)
{
	for (size_t i = 0; i < l->depth; i++)
		if (l->stack[i].dev == dev && l->stack[i].ino == ino)
			return 1;
	return 0;
}

/* Enter one subdirectory of the top frame and list it.  A directory that
 * cannot be opened, is an autofs mount point, the work directory or one
 * being listed (a cycle), is left out. */
static int enter(struct lister *l, const char *name)
{
	struct frame *f = &l->stack[l->depth - 1];
	size_t prev_len = l->path.len;
	dev_t parent_dev = f->dev;
	struct stat st;
	int fd, rc;

	fd = openat(dirfd(f->dir), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOMEM ? lister_fail(l, "open %s/%s: %s", l->path.s, name,
						     strerror(errno)) : 0;
	if (fstat(fd, &st) || skipped(l, st.st_dev, st.st_ino) ||
	    in_cycle(l, st.st_dev, st.st_ino) ||
	    (st.st_dev != parent_dev && on_autofs(fd))) {
		close(fd);
		return 0;
	}
	/* f may move when the stack grows: it is not used below. */
	rc = push_frame(l, fd, &st, prev_len);
	if (rc <= 0)
		return rc;
	path_push(l, name);
	return list_dir(l);
}

/* One whole listing: 0 when complete, 1 when told to stop, -1 with l->why. */
static int list_tree(struct lister *l)
{
	struct stat st;
	int fd, rc;

	l->entries = 0;
	l->first = 1;
	l->now = time(NULL);
	find_skips(l);
	fd = open(l->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		rc = lister_fail(l, "%s: %s", l->root, strerror(errno));
		if (fd >= 0)
			close(fd);
		return rc;
	}
	l->entries = 1;
	strbuf_cut(&l->path, 0);
	path_push(l, l->root);
	rc = push_frame(l, fd, &st, 0);
	if (rc == 0)
		return lister_fail(l, "%s: %s", l->root, strerror(errno));
	rc = rc < 0 ? rc : list_dir(l);
	while (rc == 0 && l->depth) {
		struct frame *f = &l->stack[l->depth - 1];
		const char *name;

		if (f->next >= f->subdirs.len) {
			pop_frame(l);
			continue;
		}
		/* The name stays put when enter() grows the stack. */
		name = f->subdirs.s + f->next;
		f->next += strlen(name) + 1;
		rc = enter(l, name);
	}
	while (l->depth)
		pop_frame(l);
	if (rc == 0 && !l->counting)
		rc = out_flush(l);
	return rc;
}

/* ---- the load ---------------------------------------------------------- */

/* Why the root cannot be listed, or NULL. */
static const char *root_refused(struct lister *l, char *why, size_t len)
{
	struct stat st;
	int autofs, fd;

	fd = open(l->root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOTDIR)
			snprintf(why, len, "--root %s is not a directory", l->root);
		else
			snprintf(why, len, "--root %s: %s", l->root, strerror(errno));
		return why;
	}
	autofs = on_autofs(fd);
	if (fstat(fd, &st)) {
		snprintf(why, len, "--root %s: %s", l->root, strerror(errno));
		close(fd);
		return why;
	}
	close(fd);
	find_skips(l);
	if (autofs || skipped(l, st.st_dev, st.st_ino)) {
		snprintf(why, len, "--root %s is a directory list_load never enters (%s)",
			 l->root, autofs ? "an autofs mount point" : "contest's work directory");
		return why;
	}
	return NULL;
}

static int list_check(struct load_ctx *c, char *why, size_t len)
{
	struct lister l;
	int rc = -1;

	lister_init(&l, c, 1);
	if (!root_refused(&l, why, len)) {
		l.denom = 1;
		rc = list_tree(&l);
		if (rc)
			snprintf(why, len, "counting the entries under %s: %s", l.root, l.why);
		c->size = l.entries;
		c->natural_per_unit = (double)l.entries;
		c->natural_unit = "entries";
	}
	lister_free(&l);
	return rc ? -1 : 0;
}

static void list_describe(const struct load_ctx *c, char *buf, size_t len)
{
	snprintf(buf, len, "entries: %ju under %s", (uintmax_t)c->size, list_root(c));
}

static int list_run(struct load_ctx *c, unsigned idx)
{
	struct lister l;
	int rc = 0;

	(void)idx;
	lister_init(&l, c, 0);
	l.out_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (l.out_fd < 0) {
		lister_free(&l);
		return load_fail(c, "open /dev/null: %s", strerror(errno));
	}
	l.denom = c->size ? (double)c->size : 1;
	load_ready(c);
	while (!load_stopping()) {
		rc = list_tree(&l);
		if (rc)
			break;
		l.done += 1;
		l.denom = (double)(l.entries ? l.entries : 1);
		load_progress(c, l.done);
	}
	if (rc < 0)
		rc = load_fail(c, "listing %s: %s", l.root, l.why);
	else
		rc = 0;
	lister_free(&l);
	return rc;
}

/* The entries one listing counts, from the census of prepare(). */
static void list_params(const struct load_ctx *c, struct record *r)
{
	load_param(r, "entries", c->size);
}

const struct load_ops list_load = {
	.name = "list_load",
	.summary = "lists the file system like ls -lRa / into /dev/null",
	.unit = "one complete listing",
	.options = list_options,
	.option_struct_size = sizeof(struct list_opts),
	.check = list_check,
	.describe = list_describe,
	.params = list_params,
	.run = list_run,
	.flags = LOAD_SLOW_CHECK,
};
