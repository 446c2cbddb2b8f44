/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tar-extract.c - the archive extractor, tar_extract(): ustar, pax and GNU
 * long-name members read from a stream and made into files, directories and
 * links under the destination, never outside it. */
#include "config.h"

#include "lib/tar.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "lib/fsutil.h"
#include "lib/tar-internal.h"
#include "lib/util.h"

#define META_MAX (1 << 20)	/* largest pax or GNU long-name block accepted */
#define DIR_CACHE 64		/* directory levels the extractor keeps open */
#define PWBUF_SIZE 16384	/* for getpwnam_r/getgrnam_r */

/* ---- extractor: state and input --------------------------------------- */

/* a directory whose mode and mtime are set once its contents are in */
struct dirfix {
	size_t name;		/* offset in tx.fixnames */
	mode_t mode;
	uid_t uid;
	gid_t gid;
	struct timespec mtime;
};

/* The last owner or group name looked up and its id, as GNU tar remembers
 * one of each. */
struct idcache {
	struct strbuf name;
	unsigned long id;
	int found;
};

/* one open directory along the cached path */
struct level {
	int fd;
	size_t end;		/* where its name ends in tx.cpath */
};

struct tx {
	int in;
	const struct tar_hooks *hooks;
	char *why;
	size_t len;
	const char *dest;
	int dfd;
	unsigned char *buf;
	size_t pos, end;	/* unread input is buf[pos..end) */
	uint64_t base;		/* stream offset of buf[0] */
	uint64_t unchecked;	/* bytes since hooks->stop was asked */
	/* extended header values for the next member */
	struct strbuf meta, xpath, xlink, lname, llink;
	int has_xpath, has_xlink, has_lname, has_llink, has_size, has_mtime;
	int sparse;
	int has_uid, has_gid, has_uname, has_gname;
	uint64_t xuid, xgid;
	struct strbuf xuname, xgname;
	uint64_t xsize;
	struct timespec xmtime;
	/* the member being extracted: names as found, and in canonical form */
	struct strbuf raw, rawlink, name, link;
	/* root: owners are restored (fchown), as GNU tar's --same-owner */
	int same_owner;
	uid_t uid;
	gid_t gid;
	struct idcache users, groups;
	char *pwbuf;
	/* the directories of the last member's parent, open */
	struct strbuf cpath;
	struct level lv[DIR_CACHE];
	size_t nlv;
	int deep;		/* the parent when deeper than DIR_CACHE, or -1 */
	struct dirfix *fix;
	size_t nfix, capfix;
	struct strbuf fixnames;
};

static int tx_oom(struct tx *x)
{
	return whyf(x->why, x->len, "out of memory");
}

static uint64_t tx_off(const struct tx *x)
{
	return x->base + x->pos;
}

/* At least `want` (<= BUFSZ) unread bytes: 1, or 0 at the end of input, -1 on error. */
static int tx_fill(struct tx *x, size_t want)
{
	while (x->end - x->pos < want) {
		ssize_t n;

		if (BUFSZ - x->pos < want || x->pos == x->end) {
			memmove(x->buf, x->buf + x->pos, x->end - x->pos);
			x->base += x->pos;
			x->end -= x->pos;
			x->pos = 0;
		}
		n = read(x->in, x->buf + x->end, BUFSZ - x->end);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return whyf(x->why, x->len, "read: %s", strerror(errno));
		}
		if (n == 0)
			return 0;
		tar_progress(x->hooks, (uint64_t)n);
		x->end += (size_t)n;
	}
	return 1;
}

static int tx_truncated(struct tx *x)
{
	return whyf(x->why, x->len, "unexpected end of archive at offset %" PRIu64,
		    tx_off(x) + (x->end - x->pos));
}

/* Consume `size` bytes of member data and their padding, writing them to
 * file `out` (>= 0), appending them to `mem`, or dropping them. */
static int tx_data(struct tx *x, uint64_t size, int out, struct strbuf *mem)
{
	uint64_t left = size + tar_padding(size), data = size;

	while (left) {
		size_t n, d;
		int rc = tx_fill(x, 1);

		if (rc <= 0)
			return rc < 0 ? -1 : tx_truncated(x);
		n = x->end - x->pos;
		if (n > left)
			n = (size_t)left;
		d = n < data ? n : (size_t)data;
		if (d && out >= 0 && write_all(out, x->buf + x->pos, d))
			return whyf(x->why, x->len, "write %s/%s: %s", x->dest,
				    x->name.s, strerror(errno));
		if (d && mem && strbuf_add(mem, (char *)x->buf + x->pos, d))
			return tx_oom(x);
		data -= d;
		x->pos += n;
		left -= n;
		x->unchecked += n;
		if (x->unchecked >= STOP_EVERY) {
			x->unchecked = 0;
			if (tar_stopping(x->hooks))
				return 1;
		}
	}
	return 0;
}

/* Read what follows the end-of-archive blocks (the record padding). */
static int tx_drain(struct tx *x)
{
	int rc;

	do {
		x->pos = x->end;
		rc = tx_fill(x, 1);
	} while (rc > 0);
	return rc;
}

/* ---- extractor: headers ----------------------------------------------- */

/* base-256 (GNU): 0x80 then a big-endian number, or 0xff... two's complement */
static int num256(const unsigned char *f, size_t w, int64_t *out)
{
	int neg = (f[0] & 0x40) != 0;
	uint64_t v = f[0] & 0x3f;
	size_t i;

	if (neg)
		v |= ~(uint64_t)0x3f;
	for (i = 1; i < w; i++) {
		if ((v >> 55) != (neg ? 0x1ffu : 0))
			return -1;
		v = v << 8 | f[i];
	}
	*out = (int64_t)v;
	return 0;
}

/* A numeric header field: octal (leading spaces, ended by space or NUL) or base-256. */
static int hdr_num(const unsigned char *f, size_t w, int64_t *out)
{
	uint64_t v = 0;
	size_t i = 0;

	if (f[0] & 0x80)
		return num256(f, w, out);
	while (i < w && f[i] == ' ')
		i++;
	for (; i < w && f[i] >= '0' && f[i] <= '7'; i++) {
		if (v >> 60)
			return -1;
		v = v * 8 + (uint64_t)(f[i] - '0');
	}
	if (i < w && f[i] != ' ' && f[i] != '\0')
		return -1;
	*out = (int64_t)v;
	return 0;
}

static int checksum_ok(const unsigned char *h)
{
	int64_t want;
	long u = 0, s = 0;
	int i;

	for (i = 0; i < BLOCK; i++) {
		unsigned char c = i >= H_CHKSUM && i < H_CHKSUM + W_CHKSUM ? ' ' : h[i];

		u += c;
		s += (signed char)c;
	}
	if (hdr_num(h + H_CHKSUM, W_CHKSUM, &want))
		return 0;
	return want == u || want == s;
}

static int is_zero(const unsigned char *h)
{
	int i;

	for (i = 0; i < BLOCK; i++)
		if (h[i])
			return 0;
	return 1;
}

static size_t field_len(const unsigned char *f, size_t w)
{
	const unsigned char *nul = memchr(f, '\0', w);

	return nul ? (size_t)(nul - f) : w;
}

/* ---- extractor: pax records ------------------------------------------- */

static int key_is(const char *key, size_t klen, const char *want)
{
	return klen == strlen(want) && !memcmp(key, want, klen);
}

static int parse_dec(const char *s, size_t n, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	if (!n)
		return -1;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || v > (UINT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return 0;
}

/* "[-]SECONDS[.FRACTION]" */
static int parse_time(const char *s, size_t n, struct timespec *ts)
{
	int neg = n && s[0] == '-';
	const char *dot;
	uint64_t sec;
	long nsec = 0, scale = 100000000;
	size_t i, ilen;

	s += neg;
	n -= (size_t)neg;
	dot = memchr(s, '.', n);
	ilen = dot ? (size_t)(dot - s) : n;
	if (parse_dec(s, ilen, &sec) || sec > INT64_MAX / 2)
		return -1;
	for (i = ilen + 1; dot && i < n; i++, scale /= 10) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		nsec += (s[i] - '0') * scale;
	}
	ts->tv_sec = neg ? -(time_t)sec : (time_t)sec;
	ts->tv_nsec = nsec;
	if (neg && nsec) {
		ts->tv_sec--;
		ts->tv_nsec = 1000000000 - nsec;
	}
	return 0;
}

static int tx_pax_kv(struct tx *x, const char *key, size_t klen,
		     const char *val, size_t vlen)
{
	if (key_is(key, klen, "path")) {
		x->has_xpath = vlen > 0;
		return strbuf_set(&x->xpath, val, vlen) ? tx_oom(x) : 0;
	}
	if (key_is(key, klen, "linkpath")) {
		x->has_xlink = vlen > 0;
		return strbuf_set(&x->xlink, val, vlen) ? tx_oom(x) : 0;
	}
	if (key_is(key, klen, "size")) {
		x->has_size = vlen > 0;
		return vlen && parse_dec(val, vlen, &x->xsize) ? -1 : 0;
	}
	if (key_is(key, klen, "mtime")) {
		x->has_mtime = vlen > 0;
		return vlen && parse_time(val, vlen, &x->xmtime) ? -1 : 0;
	}
	if (key_is(key, klen, "uid")) {
		x->has_uid = vlen > 0;
		return vlen && parse_dec(val, vlen, &x->xuid) ? -1 : 0;
	}
	if (key_is(key, klen, "gid")) {
		x->has_gid = vlen > 0;
		return vlen && parse_dec(val, vlen, &x->xgid) ? -1 : 0;
	}
	if (key_is(key, klen, "uname")) {
		x->has_uname = 1;
		return strbuf_set(&x->xuname, val, vlen) ? tx_oom(x) : 0;
	}
	if (key_is(key, klen, "gname")) {
		x->has_gname = 1;
		return strbuf_set(&x->xgname, val, vlen) ? tx_oom(x) : 0;
	}
	if (klen > 11 && !memcmp(key, "GNU.sparse.", 11))
		x->sparse = 1;
	return 0;
}

/* The records "LEN key=value\n" of an 'x' header, in x->meta. */
static int tx_pax(struct tx *x, uint64_t off)
{
	const char *p = x->meta.s, *end = p + x->meta.len;

	while (p < end) {
		const char *rec = p, *key, *eq, *last;
		uint64_t n = 0;

		while (p < end && *p >= '0' && *p <= '9' && n <= META_MAX)
			n = n * 10 + (uint64_t)(*p++ - '0');
		if (p == rec || p == end || *p != ' ' || n > (uint64_t)(end - rec) ||
		    n < (uint64_t)(p - rec) + 3 || rec[n - 1] != '\n')
			goto bad;
		key = p + 1;
		last = rec + n - 1;
		eq = memchr(key, '=', (size_t)(last - key));
		if (!eq || eq == key)
			goto bad;
		if (tx_pax_kv(x, key, (size_t)(eq - key), eq + 1,
			      (size_t)(last - eq - 1)))
			goto bad;
		p = rec + n;
	}
	return 0;
bad:
	return whyf(x->why, x->len, "bad pax header at offset %" PRIu64, off);
}

static void tx_forget(struct tx *x)
{
	x->has_xpath = x->has_xlink = x->has_lname = x->has_llink = 0;
	x->has_size = x->has_mtime = x->sparse = 0;
	x->has_uid = x->has_gid = x->has_uname = x->has_gname = 0;
}

/* ---- extractor: safe paths --------------------------------------------- */

/* Member name raw in canonical form into out: no empty or "." components,
 * no trailing slash.  Absolute names and ".." are refused. */
static int tx_norm(struct tx *x, const char *raw, struct strbuf *out,
		   const char *what)
{
	const char *p = raw;

	strbuf_cut(out, 0);
	if (strbuf_add(out, "", 0))
		return tx_oom(x);
	if (*raw == '/')
		return whyf(x->why, x->len, "refusing absolute %s %s", what, raw);
	while (*p) {
		size_t n = strcspn(p, "/");

		if (n == 2 && p[0] == '.' && p[1] == '.')
			return whyf(x->why, x->len, "refusing %s with '..': %s",
				    what, raw);
		if (n && !(n == 1 && p[0] == '.')) {
			if ((out->len && strbuf_add(out, "/", 1)) || strbuf_add(out, p, n))
				return tx_oom(x);
		}
		p += n;
		if (*p == '/')
			p++;
	}
	return 0;
}

/* The length of the directory part of a canonical name. */
static size_t dir_len(const char *name)
{
	const char *slash = strrchr(name, '/');

	return slash ? (size_t)(slash - name) : 0;
}

static const char *base_name(const char *name)
{
	const char *slash = strrchr(name, '/');

	return slash ? slash + 1 : name;
}

static void tx_uncache(struct tx *x, size_t keep)
{
	while (x->nlv > keep)
		close(x->lv[--x->nlv].fd);
	if (x->deep >= 0) {
		close(x->deep);
		x->deep = -1;
	}
}

/* Open directory `comp` in `at` without following a symlink, creating it if asked. */
static int tx_opendir(struct tx *x, int at, const char *comp, int create)
{
	int fd, tries;

	for (tries = 0;; tries++) {
		fd = openat(at, comp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0)
			return fd;
		if (errno != ENOENT || !create || tries)
			break;
		if (mkdirat(at, comp, 0777) && errno != EEXIST)
			break;
	}
	return whyf(x->why, x->len, "open %s/%s: %s", x->dest, x->cpath.s,
		    strerror(errno));
}

/* An fd for the directory made of the first dlen bytes of a canonical name:
 * walked component by component from dest, never through a symlink,
 * missing ones created if asked.  It stays open (cached) until the next call. */
static int tx_parent(struct tx *x, const char *name, size_t dlen, int create)
{
	size_t i = 0, start;
	int fd, tmp = -1;

	/* keep the open levels that lead to this directory */
	while (i < x->nlv) {
		size_t e = x->lv[i].end;

		if (e > dlen || (e < dlen && name[e] != '/') ||
		    memcmp(x->cpath.s, name, e))
			break;
		i++;
	}
	tx_uncache(x, i);
	if (strbuf_set(&x->cpath, name, dlen))
		return tx_oom(x);
	fd = i ? x->lv[i - 1].fd : x->dfd;
	start = i ? x->lv[i - 1].end + 1 : 0;
	while (start < dlen) {
		size_t e = start + strcspn(x->cpath.s + start, "/");
		char c = x->cpath.s[e];
		int next;

		x->cpath.s[e] = '\0';
		next = tx_opendir(x, fd, x->cpath.s + start, create);
		x->cpath.s[e] = c;
		if (next < 0) {
			if (tmp >= 0)
				close(tmp);
			return -1;
		}
		if (x->nlv < DIR_CACHE) {
			x->lv[x->nlv].fd = next;
			x->lv[x->nlv++].end = e;
		} else {
			if (tmp >= 0)
				close(tmp);
			tmp = next;
		}
		fd = next;
		start = e + 1;
	}
	x->deep = tmp;
	return fd;
}

/* Make room for a new entry by removing what is there (an empty directory at most). */
static int tx_remove(struct tx *x, int pfd, const char *base)
{
	if (!unlinkat(pfd, base, 0) || errno == ENOENT)
		return 0;
	if ((errno == EISDIR || errno == EPERM) &&
	    !unlinkat(pfd, base, AT_REMOVEDIR))
		return 0;
	return whyf(x->why, x->len, "remove %s/%s: %s", x->dest, x->name.s,
		    strerror(errno));
}

/* ---- extractor: owners ------------------------------------------------- */

/* Whether owner (or group) `name` is known here, its id then in c->id. */
static int tx_lookup(struct tx *x, struct idcache *c, const char *name, int group)
{
	struct passwd pw, *pwp = NULL;
	struct group gr, *grp = NULL;

	if (c->name.s && !strcmp(c->name.s, name))
		return c->found;
	c->found = 0;
	if (strbuf_set(&c->name, name, strlen(name)))
		return 0;
	if (group && !getgrnam_r(name, &gr, x->pwbuf, PWBUF_SIZE, &grp) && grp) {
		c->found = 1;
		c->id = grp->gr_gid;
	} else if (!group && !getpwnam_r(name, &pw, x->pwbuf, PWBUF_SIZE, &pwp) && pwp) {
		c->found = 1;
		c->id = pwp->pw_uid;
	}
	return c->found;
}

/* One of the member's ids as GNU tar takes it: the owner (group) name of a
 * ustar header or pax record if it is known here, else the pax number, else
 * the header's number. */
static int tx_id(struct tx *x, const unsigned char *h, int group, unsigned long *id)
{
	struct strbuf *name = group ? &x->xgname : &x->xuname;
	int has_name = group ? x->has_gname : x->has_uname;
	size_t off = group ? H_GNAME : H_UNAME, w = group ? W_GNAME : W_UNAME;
	int64_t v;

	if (!has_name && !memcmp(h + H_MAGIC, "ustar", 5)) {
		if (strbuf_set(name, (const char *)h + off, field_len(h + off, w)))
			return tx_oom(x);
		has_name = 1;
	}
	if (has_name && name->len &&
	    tx_lookup(x, group ? &x->groups : &x->users, name->s, group)) {
		*id = (group ? &x->groups : &x->users)->id;
		return 0;
	}
	if (group ? x->has_gid : x->has_uid) {
		*id = (unsigned long)(group ? x->xgid : x->xuid);
		return 0;
	}
	if (hdr_num(h + (group ? H_GID : H_UID), group ? W_GID : W_UID, &v) || v < 0)
		return whyf(x->why, x->len, "bad %s field in the header of %s",
			    group ? "gid" : "uid", x->name.s);
	*id = (unsigned long)v;
	return 0;
}

/* As root, the owner and group the member gets, into x->uid and x->gid. */
static int tx_owner(struct tx *x, const unsigned char *h)
{
	unsigned long uid, gid;

	if (!x->same_owner)
		return 0;
	if (tx_id(x, h, 0, &uid) || tx_id(x, h, 1, &gid))
		return -1;
	x->uid = (uid_t)uid;
	x->gid = (gid_t)gid;
	return 0;
}

static int tx_chown_failed(struct tx *x, const char *name)
{
	return whyf(x->why, x->len, "chown %s/%s: %s", x->dest, name, strerror(errno));
}

/* ---- extractor: members ------------------------------------------------ */

/* A new file; never one that exists, nor through a symlink. */
static int tx_create(int pfd, const char *base)
{
	return openat(pfd, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		      O_CLOEXEC, 0600);
}

static int tx_file(struct tx *x, mode_t mode, const struct timespec *mtime,
		   uint64_t size)
{
	const char *base = base_name(x->name.s);
	struct timespec ts[2] = { { 0, UTIME_OMIT }, *mtime };
	int pfd, fd, rc;

	pfd = tx_parent(x, x->name.s, dir_len(x->name.s), 1);
	if (pfd < 0)
		return -1;
	fd = tx_create(pfd, base);
	if (fd < 0 && errno == EEXIST) {
		if (tx_remove(x, pfd, base))
			return -1;
		fd = tx_create(pfd, base);
	}
	if (fd < 0)
		return whyf(x->why, x->len, "open %s/%s: %s", x->dest,
			    x->name.s, strerror(errno));
	rc = tx_data(x, size, fd, NULL);
	if (!rc && x->hooks && x->hooks->file_written)
		x->hooks->file_written(x->hooks->arg, fd);
	if (!rc && x->same_owner && fchown(fd, x->uid, x->gid))
		rc = tx_chown_failed(x, x->name.s);
	/* set-user/group-ID bits are not restored on files */
	if (!rc && fchmod(fd, mode & 01777))
		rc = whyf(x->why, x->len, "chmod %s/%s: %s", x->dest,
			  x->name.s, strerror(errno));
	if (!rc && futimens(fd, ts))
		rc = whyf(x->why, x->len, "utime %s/%s: %s", x->dest,
			  x->name.s, strerror(errno));
	if (close(fd) && !rc)
		rc = whyf(x->why, x->len, "close %s/%s: %s", x->dest,
			  x->name.s, strerror(errno));
	return rc;
}

static int tx_dir(struct tx *x, mode_t mode, const struct timespec *mtime)
{
	const char *base = base_name(x->name.s);
	struct dirfix *f;
	struct stat st;
	int pfd;

	pfd = tx_parent(x, x->name.s, dir_len(x->name.s), 1);
	if (pfd < 0)
		return -1;
	if (mkdirat(pfd, base, 0700)) {
		if (errno != EEXIST)
			goto bad;
		if (fstatat(pfd, base, &st, AT_SYMLINK_NOFOLLOW))
			goto bad;
		if (!S_ISDIR(st.st_mode) &&
		    (tx_remove(x, pfd, base) || mkdirat(pfd, base, 0700)))
			goto bad;
	}
	if (x->nfix == x->capfix) {
		size_t cap = x->capfix ? x->capfix * 2 : 64;

		f = realloc(x->fix, cap * sizeof(*f));
		if (!f)
			return tx_oom(x);
		x->fix = f;
		x->capfix = cap;
	}
	f = &x->fix[x->nfix++];
	f->name = x->fixnames.len;
	f->mode = mode & 07777;
	f->uid = x->uid;
	f->gid = x->gid;
	f->mtime = *mtime;
	if (strbuf_add(&x->fixnames, x->name.s, x->name.len + 1))
		return tx_oom(x);
	return 0;
bad:
	return whyf(x->why, x->len, "mkdir %s/%s: %s", x->dest, x->name.s,
		    strerror(errno));
}

static int tx_symlink(struct tx *x, const char *target,
		      const struct timespec *mtime)
{
	const char *base = base_name(x->name.s);
	struct timespec ts[2] = { { 0, UTIME_OMIT }, *mtime };
	int pfd, rc;

	pfd = tx_parent(x, x->name.s, dir_len(x->name.s), 1);
	if (pfd < 0)
		return -1;
	rc = symlinkat(target, pfd, base);
	if (rc && errno == EEXIST) {
		if (tx_remove(x, pfd, base))
			return -1;
		rc = symlinkat(target, pfd, base);
	}
	if (rc)
		return whyf(x->why, x->len, "symlink %s/%s: %s", x->dest,
			    x->name.s, strerror(errno));
	if (utimensat(pfd, base, ts, AT_SYMLINK_NOFOLLOW))
		return whyf(x->why, x->len, "utime %s/%s: %s", x->dest,
			    x->name.s, strerror(errno));
	if (x->same_owner && fchownat(pfd, base, x->uid, x->gid, AT_SYMLINK_NOFOLLOW))
		return tx_chown_failed(x, x->name.s);
	return 0;
}

static int tx_hardlink(struct tx *x, const char *raw)
{
	const char *base = base_name(x->name.s);
	int tfd, pfd, rc;

	if (tx_norm(x, raw, &x->link, "link target"))
		return -1;
	if (!x->link.len)
		return whyf(x->why, x->len, "empty link target for %s", x->name.s);
	if (!strcmp(x->link.s, x->name.s))
		return 0;
	/* the target's directory, kept open while the link's is walked */
	pfd = tx_parent(x, x->link.s, dir_len(x->link.s), 0);
	if (pfd < 0)
		return -1;
	tfd = fcntl(pfd, F_DUPFD_CLOEXEC, 0);
	if (tfd < 0)
		return whyf(x->why, x->len, "dup: %s", strerror(errno));
	rc = -1;
	pfd = tx_parent(x, x->name.s, dir_len(x->name.s), 1);
	if (pfd < 0)
		goto out;
	rc = linkat(tfd, base_name(x->link.s), pfd, base, 0);
	if (rc && errno == EEXIST) {
		if (tx_remove(x, pfd, base))
			goto out;
		rc = linkat(tfd, base_name(x->link.s), pfd, base, 0);
	}
	if (rc)
		rc = whyf(x->why, x->len, "link %s/%s to %s: %s", x->dest,
			  x->name.s, x->link.s, strerror(errno));
out:
	close(tfd);
	return rc;
}

/* The member's name before canonical form: pax path, GNU long name, or ustar fields. */
static const char *tx_raw_name(struct tx *x, const unsigned char *h)
{
	if (x->has_xpath)
		return x->xpath.s;
	if (x->has_lname)
		return x->lname.s;
	strbuf_cut(&x->raw, 0);
	if (!memcmp(h + H_MAGIC, "ustar", 6) && h[H_PREFIX] &&
	    (strbuf_add(&x->raw, (const char *)h + H_PREFIX, field_len(h + H_PREFIX, W_PREFIX)) ||
	     strbuf_add(&x->raw, "/", 1)))
		return NULL;
	if (strbuf_add(&x->raw, (const char *)h + H_NAME, field_len(h + H_NAME, W_NAME)))
		return NULL;
	return x->raw.s;
}

static const char *tx_raw_link(struct tx *x, const unsigned char *h)
{
	if (x->has_xlink)
		return x->xlink.s;
	if (x->has_llink)
		return x->llink.s;
	if (strbuf_set(&x->rawlink, (const char *)h + H_LINK,
		   field_len(h + H_LINK, W_LINK)))
		return NULL;
	return x->rawlink.s;
}

static int extracted(char type)
{
	return type == '\0' || type == '0' || type == '7' || type == '1' ||
	       type == '2' || type == '5';
}

/* A file system member: a file, directory, symlink or hard link. */
static int tx_entry(struct tx *x, const unsigned char *h, char type,
		    uint64_t size, uint64_t off)
{
	const char *raw = tx_raw_name(x, h), *link;
	struct timespec mtime = x->xmtime;
	int64_t mode, secs = 0;
	int rc;

	if (!raw)
		return tx_oom(x);
	if (hdr_num(h + H_MODE, W_MODE, &mode) ||
	    (!x->has_mtime && hdr_num(h + H_MTIME, W_MTIME, &secs)))
		return whyf(x->why, x->len, "bad header field at offset %" PRIu64, off);
	if (!x->has_mtime) {
		mtime.tv_sec = (time_t)secs;
		mtime.tv_nsec = 0;
	}
	if (x->sparse || type == 'S')
		return whyf(x->why, x->len, "%s: sparse members are not supported", raw);
	if ((type == '0' || type == '\0' || type == '7') && *raw &&
	    raw[strlen(raw) - 1] == '/')
		type = '5';	/* old archives mark directories so */
	if (!extracted(type))
		return tx_data(x, size, -1, NULL);	/* fifos, devices, ... */
	if (tx_norm(x, raw, &x->name, "member"))
		return -1;
	if (!x->name.len)
		return tx_data(x, size, -1, NULL);	/* "." itself */
	if (type != '1' && tx_owner(x, h))
		return -1;
	switch (type) {
	case '5':
		rc = tx_dir(x, (mode_t)mode, &mtime);
		break;
	case '2':
	case '1':
		link = tx_raw_link(x, h);
		if (!link)
			return tx_oom(x);
		rc = type == '2' ? tx_symlink(x, link, &mtime) : tx_hardlink(x, link);
		break;
	default:
		return tx_file(x, (mode_t)mode, &mtime, size);
	}
	return rc ? rc : tx_data(x, size, -1, NULL);
}

/* The data of an extended header ('x', 'L', 'K') into b. */
static int tx_meta(struct tx *x, uint64_t size, struct strbuf *b, uint64_t off)
{
	if (size > META_MAX)
		return whyf(x->why, x->len, "extended header too large at offset %" PRIu64,
			    off);
	strbuf_cut(b, 0);
	if (strbuf_add(b, "", 0))
		return tx_oom(x);
	return tx_data(x, size, -1, b);
}

static int tx_member(struct tx *x, const unsigned char *h, uint64_t off)
{
	char type = (char)h[H_TYPE];
	int64_t size;
	int rc;

	if (hdr_num(h + H_SIZE, W_SIZE, &size) || size < 0)
		return whyf(x->why, x->len, "bad size field at offset %" PRIu64, off);
	switch (type) {
	case 'x':
		rc = tx_meta(x, (uint64_t)size, &x->meta, off);
		return rc ? rc : tx_pax(x, off);
	case 'g':
		return tx_data(x, (uint64_t)size, -1, NULL);
	case 'L':
		x->has_lname = 1;
		return tx_meta(x, (uint64_t)size, &x->lname, off);
	case 'K':
		x->has_llink = 1;
		return tx_meta(x, (uint64_t)size, &x->llink, off);
	}
	rc = tx_entry(x, h, type, x->has_size ? x->xsize : (uint64_t)size, off);
	tx_forget(x);
	return rc;
}

static int tx_run(struct tx *x)
{
	unsigned char h[BLOCK];

	for (;;) {
		uint64_t off;
		int rc;

		x->unchecked = 0;
		if (tar_stopping(x->hooks))
			return 1;
		rc = tx_fill(x, BLOCK);
		if (rc <= 0)
			return rc < 0 ? -1 : tx_truncated(x);
		off = tx_off(x);
		memcpy(h, x->buf + x->pos, BLOCK);
		x->pos += BLOCK;
		if (is_zero(h))
			return tx_drain(x);
		if (!checksum_ok(h))
			return whyf(x->why, x->len,
				    "bad header checksum at offset %" PRIu64, off);
		rc = tx_member(x, h, off);
		if (rc)
			return rc;
	}
}

/* Modes and mtimes of the directories, deepest (latest) first. */
static int tx_fixdirs(struct tx *x)
{
	while (x->nfix) {
		const struct dirfix *f = &x->fix[--x->nfix];
		const char *name = x->fixnames.s + f->name;
		struct timespec ts[2] = { { 0, UTIME_OMIT }, f->mtime };
		int pfd, fd, rc = 0;

		if (strbuf_set(&x->name, name, strlen(name)))
			return tx_oom(x);
		pfd = tx_parent(x, name, dir_len(name), 0);
		if (pfd < 0)
			return -1;
		fd = openat(pfd, base_name(name),
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			if (errno == ENOENT || errno == ENOTDIR || errno == ELOOP)
				continue;	/* replaced later in the archive */
			return whyf(x->why, x->len, "open %s/%s: %s", x->dest,
				    name, strerror(errno));
		}
		if (x->same_owner && fchown(fd, f->uid, f->gid))
			rc = tx_chown_failed(x, name);
		else if (fchmod(fd, f->mode))
			rc = whyf(x->why, x->len, "chmod %s/%s: %s", x->dest,
				  name, strerror(errno));
		else if (futimens(fd, ts))
			rc = whyf(x->why, x->len, "utime %s/%s: %s", x->dest,
				  name, strerror(errno));
		close(fd);
		if (rc)
			return rc;
	}
	return 0;
}

int tar_extract(int fd, const char *dest, const struct tar_hooks *hooks,
		char *why, size_t len)
{
	struct tx x = { 0 };
	struct strbuf *bufs[] = { &x.meta, &x.xpath, &x.xlink, &x.lname, &x.llink,
				&x.raw, &x.rawlink, &x.name, &x.link, &x.cpath,
				&x.fixnames, &x.xuname, &x.xgname, &x.users.name,
				&x.groups.name };
	size_t i;
	int rc = 0;

	x.in = fd;
	x.hooks = hooks;
	x.why = why;
	x.len = len;
	x.dest = dest;
	x.deep = -1;
	x.same_owner = geteuid() == 0;
	x.buf = malloc(BUFSZ);
	x.pwbuf = malloc(PWBUF_SIZE);
	for (i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++)
		if (strbuf_add(bufs[i], "", 0))
			rc = -1;
	x.dfd = open(dest, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (!x.buf || !x.pwbuf || rc)
		rc = tx_oom(&x);
	else if (x.dfd < 0)
		rc = whyf(why, len, "open %s: %s", dest, strerror(errno));
	else
		rc = tx_run(&x);
	if (!rc)
		rc = tx_fixdirs(&x);
	tx_uncache(&x, 0);
	if (x.dfd >= 0)
		close(x.dfd);
	for (i = 0; i < sizeof(bufs) / sizeof(bufs[0]); i++)
		strbuf_free(bufs[i]);
	free(x.fix);
	free(x.buf);
	free(x.pwbuf);
	return rc;
}
