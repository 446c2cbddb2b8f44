/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tar-write.c - the archive writer, tar_write(): a directory tree, each
 * directory walked in the order the file system returns its entries (as GNU
 * tar's default, --sort=none), as a stream of ustar headers (pax extended
 * headers where a field does not fit), file data and padding. */
#include "config.h"

#include "lib/tar.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "lib/fsutil.h"
#include "lib/tar-internal.h"
#include "lib/util.h"

#define PWBUF_SIZE 16384	/* for getpwuid_r/getgrgid_r */
#define ID_CACHE 8		/* uid and gid names remembered */

#define MAX_SMALL 07777777ULL		/* largest value of an 8-byte field */
#define MAX_LARGE 077777777777ULL	/* largest value of a 12-byte field */

/* ---- shared with the extractor -------------------------------------- */

int tar_stopping(const struct tar_hooks *h)
{
	return h && h->stop && h->stop(h->arg);
}

void tar_progress(const struct tar_hooks *h, uint64_t bytes)
{
	if (h && h->progress && bytes)
		h->progress(h->arg, bytes);
}

uint64_t tar_padding(uint64_t size)
{
	return (BLOCK - size % BLOCK) % BLOCK;
}

/* ---- writer: headers ------------------------------------------------ */

/* Everything a ustar header holds, with values that fit their fields. */
struct hdr {
	const char *name, *prefix, *link, *uname, *gname;
	size_t namelen, prefixlen, linklen;
	uint64_t mode, uid, gid, size, mtime;
	char type;
};

/* width-1 octal digits and a NUL; the caller made sure v fits */
static void put_octal(unsigned char *f, size_t width, uint64_t v)
{
	size_t i = width - 1;

	f[i] = '\0';
	while (i--) {
		f[i] = (unsigned char)('0' + (v & 7));
		v >>= 3;
	}
}

static void put_str(unsigned char *f, size_t width, const char *s, size_t n)
{
	memcpy(f, s, n < width ? n : width);
}

static void put_checksum(unsigned char *b)
{
	unsigned sum = 0;
	int i;

	memset(b + H_CHKSUM, ' ', W_CHKSUM);
	for (i = 0; i < BLOCK; i++)
		sum += b[i];
	put_octal(b + H_CHKSUM, W_CHKSUM - 1, sum);	/* 6 digits, NUL */
	b[H_CHKSUM + W_CHKSUM - 1] = ' ';
}

static void ustar_fill(unsigned char *b, const struct hdr *h)
{
	memset(b, 0, BLOCK);
	put_str(b + H_NAME, W_NAME, h->name, h->namelen);
	put_octal(b + H_MODE, W_MODE, h->mode);
	put_octal(b + H_UID, W_UID, h->uid);
	put_octal(b + H_GID, W_GID, h->gid);
	put_octal(b + H_SIZE, W_SIZE, h->size);
	put_octal(b + H_MTIME, W_MTIME, h->mtime);
	b[H_TYPE] = (unsigned char)h->type;
	if (h->link)
		put_str(b + H_LINK, W_LINK, h->link, h->linklen);
	memcpy(b + H_MAGIC, "ustar", 6);
	memcpy(b + H_VERSION, "00", 2);
	put_str(b + H_UNAME, W_UNAME - 1, h->uname, strlen(h->uname));
	put_str(b + H_GNAME, W_GNAME - 1, h->gname, strlen(h->gname));
	put_octal(b + H_DEVMAJOR, W_DEVMAJOR, 0);
	put_octal(b + H_DEVMINOR, W_DEVMINOR, 0);
	if (h->prefix)
		put_str(b + H_PREFIX, W_PREFIX, h->prefix, h->prefixlen);
	put_checksum(b);
}

/* Where to split a name that is too long for the name field into
 * prefix "/" name: the offset of that slash, or -1 if it cannot be. */
static long ustar_split(const char *name, size_t len)
{
	size_t i = len > W_NAME + 1 ? len - W_NAME - 1 : 1;

	for (; i <= W_PREFIX && i + 1 < len; i++)
		if (name[i] == '/')
			return (long)i;
	return -1;
}

/* ---- writer: state and output --------------------------------------- */

struct idname {
	int valid;
	unsigned long id;
	char name[256];
};

struct idcache {
	struct idname e[ID_CACHE];
	unsigned next;
};

/* files with more than one link already archived, by (dev, ino) */
struct link_ent {
	dev_t dev;
	ino_t ino;
	char *name;
};

struct link_tab {
	struct link_ent *v;
	size_t cap, n;
};

struct tw {
	int fd;
	const struct tar_hooks *hooks;
	char *why;
	size_t len;
	const char *src;
	unsigned char *buf;
	size_t used;		/* bytes in buf */
	uint64_t total;		/* bytes written to fd */
	uint64_t unchecked;	/* bytes since hooks->stop was asked */
	struct strbuf path;	/* the current member's name */
	struct strbuf pax;	/* pax records for the current member */
	struct strbuf target;	/* a symlink's target */
	struct idcache users, groups;
	struct link_tab links;
	char *pwbuf;
	int self_valid;		/* the archive is a file: never archive it */
	dev_t self_dev;
	ino_t self_ino;
};

static int tw_oom(struct tw *t)
{
	return whyf(t->why, t->len, "out of memory");
}

static int tw_flush(struct tw *t)
{
	if (write_all(t->fd, t->buf, t->used))
		return whyf(t->why, t->len, "write: %s", strerror(errno));
	tar_progress(t->hooks, t->used);
	t->total += t->used;
	t->used = 0;
	return 0;
}

/* n bytes of data, or of zeros when data is NULL. */
static int tw_bytes(struct tw *t, const void *data, size_t n)
{
	const char *p = data;

	while (n) {
		size_t room = BUFSZ - t->used, k = n < room ? n : room;

		if (p) {
			memcpy(t->buf + t->used, p, k);
			p += k;	/* never on NULL: that is undefined */
		} else {
			memset(t->buf + t->used, 0, k);
		}
		t->used += k;
		n -= k;
		if (t->used == BUFSZ && tw_flush(t))
			return -1;
	}
	return 0;
}

static int tw_zeros(struct tw *t, uint64_t n)
{
	while (n) {
		size_t k = n < BUFSZ ? (size_t)n : BUFSZ;

		if (tw_bytes(t, NULL, k))
			return -1;
		n -= k;
	}
	return 0;
}

/* The next header block of the output. */
static unsigned char *tw_block(struct tw *t)
{
	unsigned char *b;

	if (t->used + BLOCK > BUFSZ && tw_flush(t))
		return NULL;
	b = t->buf + t->used;
	t->used += BLOCK;
	return b;
}

/* ---- writer: owner names and hard links ----------------------------- */

static const char *id_name(struct tw *t, struct idcache *c, unsigned long id,
			   int group)
{
	struct idname *e;
	struct passwd pw, *pwp = NULL;
	struct group gr, *grp = NULL;
	unsigned i;

	for (i = 0; i < ID_CACHE; i++)
		if (c->e[i].valid && c->e[i].id == id)
			return c->e[i].name;
	e = &c->e[c->next];
	c->next = (c->next + 1) % ID_CACHE;
	e->valid = 1;
	e->id = id;
	e->name[0] = '\0';
	if (group) {
		if (!getgrgid_r((gid_t)id, &gr, t->pwbuf, PWBUF_SIZE, &grp) && grp)
			snprintf(e->name, sizeof(e->name), "%s", grp->gr_name);
	} else {
		if (!getpwuid_r((uid_t)id, &pw, t->pwbuf, PWBUF_SIZE, &pwp) && pwp)
			snprintf(e->name, sizeof(e->name), "%s", pwp->pw_name);
	}
	return e->name;
}

static size_t link_slot(const struct link_tab *lt, dev_t dev, ino_t ino)
{
	uint64_t h = ((uint64_t)ino * 0x9e3779b97f4a7c15ULL) ^ (uint64_t)dev;
	size_t i = (size_t)(h ^ (h >> 31)) & (lt->cap - 1);

	while (lt->v[i].name && (lt->v[i].dev != dev || lt->v[i].ino != ino))
		i = (i + 1) & (lt->cap - 1);
	return i;
}

/* The name a file with several links was first archived under, or NULL. */
static const char *link_find(const struct link_tab *lt, const struct stat *st)
{
	if (!lt->n)
		return NULL;
	return lt->v[link_slot(lt, st->st_dev, st->st_ino)].name;
}

static int link_grow(struct link_tab *lt)
{
	struct link_tab bigger = { NULL, lt->cap ? lt->cap * 2 : 64, lt->n };
	size_t i;

	bigger.v = calloc(bigger.cap, sizeof(*bigger.v));
	if (!bigger.v)
		return -1;
	for (i = 0; i < lt->cap; i++)
		if (lt->v[i].name)
			bigger.v[link_slot(&bigger, lt->v[i].dev, lt->v[i].ino)] = lt->v[i];
	free(lt->v);
	*lt = bigger;
	return 0;
}

static int link_add(struct link_tab *lt, const struct stat *st, const char *name)
{
	struct link_ent *e;

	if ((lt->n + 1) * 2 > lt->cap && link_grow(lt))
		return -1;
	e = &lt->v[link_slot(lt, st->st_dev, st->st_ino)];
	e->name = strdup(name);
	if (!e->name)
		return -1;
	e->dev = st->st_dev;
	e->ino = st->st_ino;
	lt->n++;
	return 0;
}

static void link_free(struct link_tab *lt)
{
	size_t i;

	for (i = 0; i < lt->cap; i++)
		free(lt->v[i].name);
	free(lt->v);
	lt->v = NULL;
	lt->cap = lt->n = 0;
}

/* ---- writer: members ------------------------------------------------- */

/* One "LEN key=value\n" pax record; LEN counts its own digits. */
static int pax_add(struct tw *t, const char *key, const char *val, size_t vlen)
{
	size_t base = strlen(key) + vlen + 3, len = base, prev;
	char num[24];

	do {
		prev = len;
		len = base + (size_t)snprintf(num, sizeof(num), "%zu", prev);
	} while (len != prev);
	snprintf(num, sizeof(num), "%zu ", len);
	if (strbuf_add(&t->pax, num, strlen(num)) ||
	    strbuf_add(&t->pax, key, strlen(key)) || strbuf_add(&t->pax, "=", 1) ||
	    strbuf_add(&t->pax, val, vlen) || strbuf_add(&t->pax, "\n", 1))
		return tw_oom(t);
	return 0;
}

static int pax_num(struct tw *t, const char *key, int64_t v)
{
	char num[24];

	snprintf(num, sizeof(num), "%" PRId64, v);
	return pax_add(t, key, num, strlen(num));
}

/* The extended header that carries what the ustar header m cannot. */
static int tw_pax(struct tw *t, const struct hdr *m)
{
	static const char name[] = "././@PaxHeader";
	struct hdr x = *m;
	unsigned char *b;

	x.name = name;
	x.namelen = sizeof(name) - 1;
	x.prefix = x.link = NULL;
	x.mode = 0644;
	x.size = t->pax.len;
	x.type = 'x';
	b = tw_block(t);
	if (!b)
		return -1;
	ustar_fill(b, &x);
	if (tw_bytes(t, t->pax.s, t->pax.len))
		return -1;
	return tw_zeros(t, tar_padding(t->pax.len));
}

/* The header(s) for the member named t->path. */
static int tw_header(struct tw *t, const struct stat *st, char type,
		     const char *link, uint64_t size)
{
	struct hdr h = { 0 };
	int64_t mtime = (int64_t)st->st_mtime;
	unsigned char *b;
	long split = -1;

	strbuf_cut(&t->pax, 0);
	h.name = t->path.s;
	h.namelen = t->path.len;
	if (h.namelen > W_NAME) {
		split = ustar_split(h.name, h.namelen);
		if (split < 0 && pax_add(t, "path", h.name, h.namelen))
			return -1;
	}
	if (split > 0) {
		h.prefix = h.name;
		h.prefixlen = (size_t)split;
		h.name += split + 1;
		h.namelen -= (size_t)split + 1;
	}
	h.link = link;
	h.linklen = link ? strlen(link) : 0;
	if (h.linklen > W_LINK && pax_add(t, "linkpath", link, h.linklen))
		return -1;
	h.mode = st->st_mode & 07777;
	h.type = type;
	h.size = size;
	if (size > MAX_LARGE && pax_num(t, "size", (int64_t)size))
		return -1;
	h.uid = st->st_uid;
	if (h.uid > MAX_SMALL && pax_num(t, "uid", (int64_t)h.uid))
		return -1;
	h.gid = st->st_gid;
	if (h.gid > MAX_SMALL && pax_num(t, "gid", (int64_t)h.gid))
		return -1;
	h.mtime = mtime < 0 ? 0 : (uint64_t)mtime;
	if ((mtime < 0 || h.mtime > MAX_LARGE) && pax_num(t, "mtime", mtime))
		return -1;
	h.uname = id_name(t, &t->users, st->st_uid, 0);
	if (strlen(h.uname) >= W_UNAME &&
	    pax_add(t, "uname", h.uname, strlen(h.uname)))
		return -1;
	h.gname = id_name(t, &t->groups, st->st_gid, 1);
	if (strlen(h.gname) >= W_GNAME &&
	    pax_add(t, "gname", h.gname, strlen(h.gname)))
		return -1;
	/* what the pax header carries is zero (or clamped) here */
	if (h.size > MAX_LARGE)
		h.size = 0;
	if (h.uid > MAX_SMALL)
		h.uid = 0;
	if (h.gid > MAX_SMALL)
		h.gid = 0;
	if (h.mtime > MAX_LARGE)
		h.mtime = MAX_LARGE;
	if (t->pax.len && tw_pax(t, &h))
		return -1;
	b = tw_block(t);
	if (!b)
		return -1;
	ustar_fill(b, &h);
	return 0;
}

/* Copy `size` bytes of file data, padded with zeros if the file shrank
 * meanwhile, and the padding to the next block. */
static int tw_data(struct tw *t, int fd, uint64_t size)
{
	uint64_t left = size;

	while (left) {
		size_t room, want;
		ssize_t n;

		if (t->used == BUFSZ && tw_flush(t))
			return -1;
		room = BUFSZ - t->used;
		want = left < room ? (size_t)left : room;
		n = read(fd, t->buf + t->used, want);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return whyf(t->why, t->len, "read %s/%s: %s", t->src,
				    t->path.s, strerror(errno));
		}
		if (n == 0)
			return tw_zeros(t, left + tar_padding(size));
		t->used += (size_t)n;
		left -= (uint64_t)n;
		t->unchecked += (uint64_t)n;
		if (t->unchecked >= STOP_EVERY) {
			t->unchecked = 0;
			if (tar_stopping(t->hooks))
				return 1;
		}
	}
	return tw_zeros(t, tar_padding(size));
}

/* Open a listed regular file: *fd is -1 if it has gone or changed type
 * since it was listed (a live tree); st is refreshed from the open file. */
static int tw_open(struct tw *t, int dfd, const char *name, struct stat *st,
		   int *fd)
{
	int rc = 0;

	*fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (*fd < 0) {
		if (errno == ENOENT)
			return 0;
		return whyf(t->why, t->len, "open %s/%s: %s", t->src, t->path.s,
			    strerror(errno));
	}
	if (fstat(*fd, st))
		rc = whyf(t->why, t->len, "stat %s/%s: %s", t->src, t->path.s,
			  strerror(errno));
	if (rc || !S_ISREG(st->st_mode)) {
		close(*fd);
		*fd = -1;
	}
	return rc;
}

static int tw_file(struct tw *t, int dfd, const char *name, struct stat *st)
{
	const char *first = st->st_nlink > 1 ? link_find(&t->links, st) : NULL;
	int fd = -1, rc;

	if (first)
		return tw_header(t, st, '1', first, 0);
	if (st->st_size > 0) {
		if (tw_open(t, dfd, name, st, &fd))
			return -1;
		if (fd < 0)
			return 0;
	}
	if (st->st_nlink > 1 && link_add(&t->links, st, t->path.s))
		rc = tw_oom(t);
	else
		rc = tw_header(t, st, '0', NULL, (uint64_t)st->st_size);
	if (!rc && fd >= 0)
		rc = tw_data(t, fd, (uint64_t)st->st_size);
	if (fd >= 0)
		close(fd);
	return rc;
}

static int tw_symlink(struct tw *t, int dfd, const char *name,
		      const struct stat *st)
{
	struct strbuf *b = &t->target;
	size_t cap = st->st_size > 0 ? (size_t)st->st_size + 1 : 256;
	ssize_t n;

	for (;;) {
		if (b->cap < cap) {
			char *p = realloc(b->s, cap);

			if (!p)
				return tw_oom(t);
			b->s = p;
			b->cap = cap;
		}
		n = readlinkat(dfd, name, b->s, b->cap);
		if (n < 0) {
			if (errno == ENOENT || errno == EINVAL)
				return 0;	/* gone or replaced */
			return whyf(t->why, t->len, "readlink %s/%s: %s",
				    t->src, t->path.s, strerror(errno));
		}
		if ((size_t)n < b->cap)
			break;
		cap = b->cap * 2;
	}
	strbuf_cut(b, (size_t)n);
	return tw_header(t, st, '2', b->s, 0);
}

static int tw_tree(struct tw *t, int dfd);

static int tw_dir(struct tw *t, int dfd, const char *name, const struct stat *st)
{
	size_t mark = t->path.len;
	int fd, rc;

	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT)
			return 0;
		return whyf(t->why, t->len, "open %s/%s: %s", t->src, t->path.s,
			    strerror(errno));
	}
	if (strbuf_add(&t->path, "/", 1))
		rc = tw_oom(t);
	else
		rc = tw_header(t, st, '5', NULL, 0);
	if (!rc)
		rc = tw_tree(t, fd);
	close(fd);
	strbuf_cut(&t->path, mark);
	return rc;
}

/* One directory entry; t->path is its member name. */
static int tw_entry(struct tw *t, int dfd, const char *name)
{
	struct stat st;

	if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW)) {
		if (errno == ENOENT)
			return 0;
		return whyf(t->why, t->len, "stat %s/%s: %s", t->src, t->path.s,
			    strerror(errno));
	}
	if (t->self_valid && st.st_dev == t->self_dev && st.st_ino == t->self_ino)
		return 0;
	if (S_ISDIR(st.st_mode))
		return tw_dir(t, dfd, name, &st);
	if (S_ISREG(st.st_mode))
		return tw_file(t, dfd, name, &st);
	if (S_ISLNK(st.st_mode))
		return tw_symlink(t, dfd, name, &st);
	return 0;	/* sockets, fifos and devices are left out */
}

/* The names in directory dfd, read whole before any is archived and in the
 * order readdir() returns them, as GNU tar 1.34 without --sort does (its
 * savedir()): not sorted by name, which on a tree whose files were created
 * in name order would make the reads of a cold cache nearly sequential
 * where tar's seek.  As pointers into pool. */
static int tw_list(struct tw *t, int dfd, struct strbuf *pool, char ***names,
		   size_t *count)
{
	size_t *off = NULL, n = 0, cap = 0, i;
	struct dirent *de;
	DIR *d;
	int fd, rc = 0;

	fd = fcntl(dfd, F_DUPFD_CLOEXEC, 0);
	d = fd < 0 ? NULL : fdopendir(fd);
	if (!d) {
		rc = whyf(t->why, t->len, "opendir %s/%s: %s", t->src,
			  t->path.s, strerror(errno));
		if (fd >= 0)
			close(fd);
		return rc;
	}
	for (;;) {
		errno = 0;
		de = readdir(d);
		if (!de)
			break;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			size_t *p = realloc(off, (cap = cap ? cap * 2 : 64) * sizeof(*off));

			if (!p) {
				rc = tw_oom(t);
				break;
			}
			off = p;
		}
		off[n++] = pool->len;
		if (strbuf_add(pool, de->d_name, strlen(de->d_name) + 1)) {
			rc = tw_oom(t);
			break;
		}
	}
	if (!rc && errno)
		rc = whyf(t->why, t->len, "readdir %s/%s: %s", t->src,
			  t->path.s, strerror(errno));
	closedir(d);
	*names = NULL;
	*count = 0;
	if (!rc && n) {
		*names = malloc(n * sizeof(**names));
		if (!*names) {
			rc = tw_oom(t);
		} else {
			for (i = 0; i < n; i++)
				(*names)[i] = pool->s + off[i];
			*count = n;
		}
	}
	free(off);
	return rc;
}

/* The contents of directory dfd, whose member name (with its slash) is t->path. */
static int tw_tree(struct tw *t, int dfd)
{
	struct strbuf pool = { 0 };
	size_t mark = t->path.len, n = 0, i;
	char **names = NULL;
	int rc;

	rc = tw_list(t, dfd, &pool, &names, &n);
	for (i = 0; !rc && i < n; i++) {
		t->unchecked = 0;
		if (tar_stopping(t->hooks)) {
			rc = 1;
			break;
		}
		if (strbuf_add(&t->path, names[i], strlen(names[i])))
			rc = tw_oom(t);
		else
			rc = tw_entry(t, dfd, names[i]);
		strbuf_cut(&t->path, mark);
	}
	free(names);
	strbuf_free(&pool);
	return rc;
}

/* The end-of-archive blocks, padding to a whole record, the last write. */
static int tw_finish(struct tw *t)
{
	uint64_t end = t->total + t->used + 2 * BLOCK;

	if (tw_zeros(t, 2 * BLOCK + (RECORD - end % RECORD) % RECORD))
		return -1;
	return tw_flush(t);
}

int tar_write(const char *src, int fd, const struct tar_hooks *hooks,
	      char *why, size_t len)
{
	struct tw t = { 0 };
	struct stat st;
	int root, rc;

	t.fd = fd;
	t.hooks = hooks;
	t.why = why;
	t.len = len;
	t.src = src;
	t.buf = malloc(BUFSZ);
	t.pwbuf = malloc(PWBUF_SIZE);
	if (!t.buf || !t.pwbuf || strbuf_add(&t.path, "", 0)) {
		rc = tw_oom(&t);
		goto out;
	}
	if (!fstat(fd, &st) && S_ISREG(st.st_mode)) {
		t.self_valid = 1;
		t.self_dev = st.st_dev;
		t.self_ino = st.st_ino;
	}
	root = open(src, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (root < 0) {
		rc = whyf(why, len, "open %s: %s", src, strerror(errno));
		goto out;
	}
	rc = tw_tree(&t, root);
	close(root);
	if (!rc)
		rc = tw_finish(&t);
out:
	free(t.buf);
	free(t.pwbuf);
	strbuf_free(&t.path);
	strbuf_free(&t.pax);
	strbuf_free(&t.target);
	link_free(&t.links);
	return rc;
}
