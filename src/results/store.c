/* SPDX-License-Identifier: GPL-2.0-or-later */
/* store.c - the results directory: one append-only record file per label. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/store.h"
#include "lib/fsutil.h"
#include "lib/proc.h"
#include "lib/util.h"

#define SUFFIX ".results"

int store_check_label(const char *label, char *why, size_t len)
{
	size_t n = strlen(label);

	if (n == 0) {
		snprintf(why, len, "the label is empty");
		return -1;
	}
	if (n > LABEL_MAX) {
		snprintf(why, len, "the label is %zu bytes long; at most %d fit a table row",
			 n, LABEL_MAX);
		return -1;
	}
	for (const unsigned char *p = (const unsigned char *)label; *p; p++) {
		if (*p <= ' ' || *p >= 0x7f) {
			snprintf(why, len, "the label holds a space, a control character "
				 "or a non-ASCII byte (0x%02x); labels name table rows: "
				 "use letters, digits and punctuation such as . - _ +", *p);
			return -1;
		}
	}
	return 0;
}

char *store_path(const char *dir, const char *label)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t n = strlen(label);
	char *name = xreallocarray(NULL, n + 1, 3), *o = name;	/* 3n + 1 is enough */

	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)label[i];
		int keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			   (c >= '0' && c <= '9') || c == '-' || c == '_' ||
			   c == '+' || (c == '.' && i > 0);

		if (keep) {
			*o++ = (char)c;
		} else {
			*o++ = '%';
			*o++ = hex[c >> 4];
			*o++ = hex[c & 15];
		}
	}
	*o = '\0';
	char *path = xasprintf("%s/%s" SUFFIX, dir, name);
	free(name);
	return path;
}

static int errout(char *why, size_t len, const char *what, const char *path)
{
	snprintf(why, len, "%s %s: %s", what, path, strerror(errno));
	return -1;
}

/* Take the file at path (fd, or reopened when fd is -1) back to its first
 * end bytes: a record that failed is cut back off, so the file never holds
 * a line the suite was told is not stored, and the next never joins a torn
 * one.  0, or -1 with errno. */
static int cut_back(int fd, const char *path, off_t end)
{
	int own = fd < 0, ret;

	if (own && (fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW)) < 0)
		return -1;
	ret = ftruncate(fd, end) || fdatasync(fd) ? -1 : 0;
	if (own) {
		int e = errno;

		if (close(fd))
			ret = -1;
		else
			errno = e;
	}
	return ret;
}

/* fsync a directory: a file created in it is there after a crash. */
static int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), ret;

	if (fd < 0)
		return -1;
	ret = fsync(fd);
	if (ret) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	}
	return close(fd);
}

/* 128 random bits in hex: a record's id.  Without getrandom(), the time,
 * the pid and a count, which a machine does not repeat. */
static void new_id(char *buf, size_t len)
{
	static unsigned count;
	unsigned char b[16];

	if (getrandom(b, sizeof(b), 0) == (ssize_t)sizeof(b)) {
		for (size_t i = 0; i < sizeof(b) && 2 * i + 2 < len; i++)
			snprintf(buf + 2 * i, 3, "%02x", b[i]);
		return;
	}
	snprintf(buf, len, "%016llx%08x%08x", (unsigned long long)real_ns(),
		 (unsigned)getpid(), count++);
}

int store_append(const char *dir, const char *label, struct record *r, char *why, size_t len)
{
	char id[40], *line;
	int ret;

	if (!record_get(r, "id")) {
		new_id(id, sizeof(id));
		record_set(r, "id", id);
	}
	line = record_encode(r);
	ret = store_append_line(dir, label, line, why, len);
	free(line);
	return ret;
}

int store_append_line(const char *dir, const char *label, const char *line, char *why,
		      size_t len)
{
	const char *what = NULL;
	char *path;
	int fd, created = 0, bad = 0, e = 0;
	off_t end = 0;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return errout(why, len, "cannot create results directory", dir);
	path = store_path(dir, label);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd >= 0) {
		char *head = xasprintf("# contest results, format %d: one record a line\n",
				       RECORD_VERSION);

		created = 1;
		if (write_all(fd, head, strlen(head)))
			what = "cannot append to";
		free(head);
	} else if (errno == EEXIST) {
		fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
		if (fd >= 0 && (end = lseek(fd, 0, SEEK_END)) < 0)
			what = "cannot append to";
	}
	if (fd < 0) {
		errout(why, len, "cannot open", path);
		free(path);
		return -1;
	}
	/* whole, synced, and for a new file its name in the directory too:
	 * else nothing of it stays */
	if (!what && write_all(fd, line, strlen(line)))
		what = "cannot append to";
	if (!what && fdatasync(fd))
		what = "cannot sync";
	if (!what && created && sync_dir(dir))
		what = "cannot sync the directory of";
	if (what) {
		e = errno;
		/* end < 0: lseek failed, nothing was written */
		bad = created ? unlink(path) : end >= 0 ? cut_back(fd, path, end) : 0;
		close(fd);
	} else if (close(fd)) {
		what = "cannot close";
		e = errno;
		bad = created ? unlink(path) : cut_back(-1, path, end);
	}
	if (what) {
		errno = e;
		errout(why, len, what, path);
		if (bad)
			snprintf(why + strlen(why), len - strlen(why),
				 "; a partial line may be left at its end");
	}
	free(path);
	return what ? -1 : 0;
}

/* ---- reading ------------------------------------------------------------- */

/* The records already read, to read each once: by id (unique wherever it
 * is), or, for records written before ids were, by their whole line, when
 * it comes from another file (a file may hold a line twice: two runs that
 * measured alike).  An open-addressed set of "i<id>" and "t<line>". */
struct seen {
	char **key;
	size_t *origin;     /* the file the key came from */
	size_t cap, n;
};

static uint32_t hash(const char *s)
{
	uint32_t h = 2166136261u;	/* FNV-1a */

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void seen_grow(struct seen *sn);

/* 1 when key (given to the set) was seen before, from any file (anywhere)
 * or from another than origin, else 0 and remembered as from origin. */
static int seen_key(struct seen *sn, char *key, int anywhere, size_t origin)
{
	size_t i;

	if (2 * (sn->n + 1) > sn->cap)
		seen_grow(sn);
	for (i = hash(key) & (sn->cap - 1); sn->key[i]; i = (i + 1) & (sn->cap - 1)) {
		if (!strcmp(sn->key[i], key) && (anywhere || sn->origin[i] != origin)) {
			free(key);
			return 1;
		}
	}
	sn->key[i] = key;
	sn->origin[i] = origin;
	sn->n++;
	return 0;
}

/* 1 when r (its line) was seen before, else 0 and remembered as from
 * origin. */
static int seen_before(struct seen *sn, const struct record *r, const char *line,
		       size_t origin)
{
	const char *id = record_get(r, "id");

	return seen_key(sn, id ? xasprintf("i%s", id) : xasprintf("t%s", line), id != NULL,
			origin);
}

static void seen_grow(struct seen *sn)
{
	struct seen bigger = { NULL, NULL, sn->cap ? 2 * sn->cap : 256, sn->n };

	bigger.key = xcalloc(bigger.cap, sizeof(*bigger.key));
	bigger.origin = xcalloc(bigger.cap, sizeof(*bigger.origin));
	for (size_t k = 0; k < sn->cap; k++) {
		size_t i;

		if (!sn->key[k])
			continue;
		for (i = hash(sn->key[k]) & (bigger.cap - 1); bigger.key[i];
		     i = (i + 1) & (bigger.cap - 1))
			;
		bigger.key[i] = sn->key[k];
		bigger.origin[i] = sn->origin[k];
	}
	free(sn->key);
	free(sn->origin);
	*sn = bigger;
}

static void seen_free(struct seen *sn)
{
	for (size_t i = 0; i < sn->cap; i++)
		free(sn->key[i]);
	free(sn->key);
	free(sn->origin);
	memset(sn, 0, sizeof(*sn));
}

/* One line of a results file: 1 for a comment or a blank line, 0 for a
 * record that passes every check (decoded into r, and a run that reads as
 * one), else -1 with the reason in why. */
static int check_line(const char *line, ssize_t n, struct record *r, char *why, size_t len)
{
	struct run run;

	if (n == 0 || line[0] == '#' || (n == 1 && line[0] == '\n'))
		return 1;
	if (line[n - 1] != '\n' && record_shaped(line, (size_t)n))
		return whyf(why, len, "truncated line");
	if (record_decode(line, (size_t)n, r, why, len))
		return -1;
	if (!strcmp(r->kind, "run")) {
		if (run_from_record(r, &run, why, len)) {
			record_free(r);
			return -1;
		}
		run_free(&run);
	}
	return 0;
}

/* Call fn on every record of the file that passes check_line(); each
 * damaged one reported with its file and line number, and counted. */
static void each_record(const char *path, size_t *files, size_t *damaged,
			void (*fn)(void *ctx, struct record *r, const char *line, const char *path,
				   size_t lineno),
			void *ctx)
{
	FILE *f = fopen(path, "re");
	char *line = NULL, why[160];
	size_t cap = 0, lineno = 0;
	ssize_t n;

	if (!f) {
		msg("%s: cannot read: %s", path, strerror(errno));
		(*damaged)++;
		return;
	}
	(*files)++;
	while ((n = getline(&line, &cap, f)) >= 0) {
		struct record r;
		int c;

		lineno++;
		c = check_line(line, n, &r, why, sizeof(why));
		if (c < 0) {
			msg("%s:%zu: damaged record skipped: %s", path, lineno, why);
			(*damaged)++;
		} else if (c == 0) {
			fn(ctx, &r, line, path, lineno);
		}
	}
	if (ferror(f)) {
		msg("%s: read error: %s", path, strerror(errno));
		(*damaged)++;
	}
	free(line);
	fclose(f);
}

struct loading {
	struct store *st;
	struct seen seen;
	size_t file;        /* the file being read, counted over every directory */
};

/* A record into the store: env records whole, runs decoded, other kinds
 * (from newer versions of the same format) ignored. */
static void add_record(void *ctx, struct record *r, const char *line, const char *path,
		       size_t lineno)
{
	struct loading *l = ctx;
	struct store *st = l->st;
	char why[160];

	if (seen_before(&l->seen, r, line, l->file)) {
		st->duplicates++;
		record_free(r);
		return;
	}
	if (!strcmp(r->kind, "env")) {
		st->envs = xreallocarray(st->envs, st->nenvs + 1, sizeof(*st->envs));
		st->envs[st->nenvs++] = *r;
		return;
	}
	if (!strcmp(r->kind, "run")) {
		struct run run;

		if (run_from_record(r, &run, why, sizeof(why)) == 0) {
			st->runs = xreallocarray(st->runs, st->nruns + 1, sizeof(*st->runs));
			st->runs[st->nruns++] = run;
		} else {	/* check_line() read it as a run: not reached */
			msg("%s:%zu: damaged record skipped: %s", path, lineno, why);
			st->damaged++;
		}
	}
	record_free(r);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The paths of dir's *.results files, sorted; NULL with the reason in why (and
 * *n 0) when the directory cannot be read. */
static char **result_files(const char *dir, size_t *n, char *why, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;

	*n = 0;
	if (!d) {
		int e = errno;

		whyf(why, len, "cannot read results directory %s: %s", dir, strerror(e));
		errno = e;
		return NULL;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (de->d_name[0] == '.' || l <= strlen(SUFFIX) ||
		    strcmp(de->d_name + l - strlen(SUFFIX), SUFFIX))
			continue;
		names = xreallocarray(names, *n + 1, sizeof(*names));
		names[(*n)++] = xasprintf("%s/%s", dir, de->d_name);
	}
	closedir(d);
	if (*n)	/* qsort(NULL, 0, ...) is undefined */
		qsort(names, *n, sizeof(*names), by_name);
	else
		names = xcalloc(1, sizeof(*names));
	return names;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* Two fields of an environment record, "A\nB", absent ones "". */
static char *two_fields(const struct record *env, const char *a, const char *b)
{
	const char *x = record_get(env, a), *y = record_get(env, b);

	return xasprintf("%s\n%s", x ? x : "", y ? y : "");
}

/* Each run's machine and kernel: the hostname and CPU model, the kernel
 * release and version of its session's environment record ("" without
 * one). */
static void set_hosts(struct store *st)
{
	for (size_t i = 0; i < st->nruns; i++) {
		struct run *u = &st->runs[i];

		for (size_t e = 0; e < st->nenvs && !u->host; e++) {
			const char *label = record_get(&st->envs[e], "label");
			const char *session = record_get(&st->envs[e], "session");

			if (label && session && !strcmp(label, u->label) &&
			    !strcmp(session, u->session)) {
				u->host = two_fields(&st->envs[e], "hostname", "cpu_model");
				u->kernel = two_fields(&st->envs[e], "kernel", "kernel_version");
			}
		}
		if (!u->host) {
			u->host = xstrdup("");
			u->kernel = xstrdup("");
		}
	}
}

int store_read_dirs(char *const *dirs, size_t ndirs, struct store *st, char *why, size_t len)
{
	struct loading l = { st, { 0 }, 0 };

	memset(st, 0, sizeof(*st));
	for (size_t d = 0; d < ndirs; d++) {
		size_t n;
		char **names = result_files(dirs[d], &n, why, len);

		if (!names) {
			seen_free(&l.seen);
			store_free(st);
			return -1;
		}
		for (size_t i = 0; i < n; i++, l.file++)
			each_record(names[i], &st->files, &st->damaged, add_record, &l);
		free_names(names, n);
	}
	seen_free(&l.seen);
	set_hosts(st);
	return 0;
}

int store_read(const char *dir, struct store *st, char *why, size_t len)
{
	char *dirs[] = { (char *)dir };

	return store_read_dirs(dirs, 1, st, why, len);
}

void store_free(struct store *st)
{
	for (size_t i = 0; i < st->nruns; i++)
		run_free(&st->runs[i]);
	for (size_t i = 0; i < st->nenvs; i++)
		record_free(&st->envs[i]);
	free(st->runs);
	free(st->envs);
	memset(st, 0, sizeof(*st));
}

/* ---- merging --------------------------------------------------------------- */

struct merging {
	const char *dest;
	struct seen seen;
	size_t file;
	struct store_merge *m;
	int failed;         /* an append failed: stop */
	char *why;
	size_t len;
};

/* DEST's own records: remembered, not copied. */
static void remember(void *ctx, struct record *r, const char *line, const char *path,
		     size_t lineno)
{
	struct merging *g = ctx;

	(void)path;
	(void)lineno;
	seen_before(&g->seen, r, line, g->file);
	record_free(r);
}

/* A source's record: into DEST's file of its label, as it is, unless DEST
 * has it already. */
static void copy_record(void *ctx, struct record *r, const char *line, const char *path,
			size_t lineno)
{
	struct merging *g = ctx;
	const char *label = record_get(r, "label");
	char why[160];

	if (g->failed) {
		record_free(r);
		return;
	}
	if (!label || store_check_label(label, why, sizeof(why))) {
		msg("%s:%zu: record skipped: %s", path, lineno, label ? why : "it has no label");
		g->m->damaged++;
	} else if (seen_before(&g->seen, r, line, g->file)) {
		g->m->present++;
	} else if (store_append_line(g->dest, label, line, g->why, g->len)) {
		g->failed = 1;
	} else {
		g->m->copied++;
	}
	record_free(r);
}

int store_merge(char *const *srcs, size_t nsrcs, const char *dest, struct store_merge *m,
		char *why, size_t len)
{
	struct merging g = { dest, { 0 }, 0, m, 0, why, len };
	size_t n, files = 0;
	struct stat ds, ss;
	int have_dest, made = 0, lock;
	char **names;

	memset(m, 0, sizeof(*m));
	/* DEST's lock, as a contest takes it: no other writer appends (or cuts
	 * a failed line back) meanwhile */
	if (mkdir(dest, 0755) == 0)
		made = 1;
	else if (errno != EEXIST)
		return errout(why, len, "cannot create results directory", dest);
	lock = lock_dir(dest, "results directory");
	if (lock < 0) {
		if (made)
			rmdir(dest);
		return whyf(why, len, "nothing copied into %s", dest);
	}
	have_dest = stat(dest, &ds) == 0;
	names = result_files(dest, &n, why, len);
	if (!names) {
		unlock_dir(dest, &lock);
		return -1;
	}
	for (size_t i = 0; i < n; i++, g.file++)
		each_record(names[i], &files, &m->damaged_dest, remember, &g);
	free_names(names, n);
	for (size_t s = 0; s < nsrcs && !g.failed; s++) {
		/* never read a file while appending to it */
		if (have_dest && stat(srcs[s], &ss) == 0 && ss.st_dev == ds.st_dev &&
		    ss.st_ino == ds.st_ino) {
			msg("%s is the destination itself: skipped", srcs[s]);
			continue;
		}
		names = result_files(srcs[s], &n, why, len);
		if (!names) {
			g.failed = 1;
			break;
		}
		for (size_t i = 0; i < n && !g.failed; i++, g.file++)
			each_record(names[i], &m->files, &m->damaged, copy_record, &g);
		free_names(names, n);
	}
	seen_free(&g.seen);
	unlock_dir(dest, &lock);
	if (made)
		rmdir(dest);	/* only when nothing was copied */
	return g.failed ? -1 : 0;
}

/* ---- relabelling ----------------------------------------------------------- */

static int by_version(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* The labels of dir's results files, from their names, in version order,
 * ", "-separated ("none" without one); the caller frees it. */
static char *labels_in(const char *dir)
{
	size_t n, k = 0;
	char why[160], **names = result_files(dir, &n, why, sizeof(why)), *list = NULL;

	for (size_t i = 0; names && i < n; i++) {
		const char *base = strrchr(names[i], '/') + 1;
		char *label = record_unescape(base, strlen(base) - strlen(SUFFIX));

		free(names[i]);
		if (label)	/* else not a name store_path() makes */
			names[k++] = label;
	}
	if (k)
		qsort(names, k, sizeof(*names), by_version);
	for (size_t i = 0; i < k; i++) {
		char *more = xasprintf("%s%s%s", list ? list : "", list ? ", " : "", names[i]);

		free(list);
		list = more;
	}
	if (names)
		free_names(names, k);
	return list ? list : xstrdup("none");
}

/* The lines to be NEW's file, and what they hold. */
struct relabeling {
	struct seen seen;   /* NEW's records (origin 0), and its damaged lines ("d") */
	char *out;          /* NEW's lines, then OLD's that NEW lacks */
	size_t nout, cap;
	struct store_relabel *m;
};

/* Add n bytes of line to the new file, '\n' ended (a torn last line must
 * not swallow the next). */
static void add_line(struct relabeling *l, const char *line, size_t n)
{
	if (l->nout + n + 1 > l->cap) {
		l->cap = 2 * (l->nout + n + 1);
		l->out = xrealloc(l->out, l->cap);
	}
	memcpy(l->out + l->nout, line, n);
	l->nout += n;
	if (!n || line[n - 1] != '\n')
		l->out[l->nout++] = '\n';
}

/* Read NEW's file (own) or OLD's, each line checked.  NEW's lines are
 * copied as they are and remembered; OLD's records of label old get label
 * new, and are copied with its other lines (its comments only into a new
 * file: fresh), but for those NEW holds already.  Returns 0, or -1 with the
 * reason in why. */
static int relabel_file(struct relabeling *l, const char *path, int own, const char *old,
			const char *new, int fresh, char *why, size_t len)
{
	FILE *f = fopen(path, "re");
	char *line = NULL, bad[160];
	size_t cap = 0, lineno = 0;
	ssize_t n;

	if (!f)
		return errout(why, len, "cannot read", path);
	while ((n = getline(&line, &cap, f)) >= 0) {
		struct record r;
		int c = check_line(line, n, &r, bad, sizeof(bad)), seen;
		const char *label = c == 0 ? record_get(&r, "label") : NULL;
		char *changed = NULL;

		lineno++;
		if (own) {
			add_line(l, line, (size_t)n);
			if (c == 0)
				seen_before(&l->seen, &r, line, 0);
			else if (c < 0)
				seen_key(&l->seen, xasprintf("d%s", line), 1, 0);
		} else if (c > 0) {
			if (fresh)
				add_line(l, line, (size_t)n);
		} else {
			if (c < 0)
				msg("%s:%zu: damaged record, copied as it is: %s", path, lineno, bad);
			if (label && !strcmp(label, old)) {
				l->m->found++;
				changed = record_line_set(line, (size_t)n, "label", new);
			}
			if (c < 0)
				seen = seen_key(&l->seen, xasprintf("d%s", line), 1, 1);
			else
				seen = seen_before(&l->seen, &r, changed ? changed : line, 1);
			if (seen) {
				l->m->present++;
			} else if (changed) {
				add_line(l, changed, strlen(changed));
				l->m->relabeled++;
			} else {
				add_line(l, line, (size_t)n);
				if (c == 0)
					l->m->others++;
				else
					l->m->damaged++;
			}
		}
		free(changed);
		if (c == 0)
			record_free(&r);
	}
	if (ferror(f)) {
		errout(why, len, "cannot read", path);
		fclose(f);
		free(line);
		return -1;
	}
	fclose(f);
	free(line);
	return 0;
}

/* Make NEW's file hold OLD's records (and NEW's own), then remove OLD's:
 * the order that loses nothing wherever it stops. */
static int relabel_locked(const char *dir, const char *old, const char *new, int merge,
			  struct store_relabel *m, char *why, size_t len)
{
	char *opath = store_path(dir, old), *npath = store_path(dir, new);
	struct relabeling l = { .m = m };
	int have_new, ret = -1;

	have_new = access(npath, F_OK) == 0;
	if (access(opath, F_OK)) {
		char *labels = labels_in(dir);

		if (errno == ENOENT) {
			whyf(why, len, "no label '%s' in %s (labels: %s)", old, dir, labels);
			ret = -2;
		} else {
			errout(why, len, "cannot read", opath);
		}
		free(labels);
		goto out;
	}
	if (have_new && relabel_file(&l, npath, 1, old, new, 0, why, len))
		goto out;
	if (relabel_file(&l, opath, 0, old, new, !have_new, why, len))
		goto out;
	if (!m->found) {
		whyf(why, len, "no record of label '%s' in %s: nothing relabelled", old, opath);
		ret = -2;
		goto out;
	}
	/* NEW holding every record of OLD already is a relabel cut short
	 * after NEW was written: finish it */
	m->finished = have_new && !m->relabeled && !m->others && !m->damaged;
	if (have_new && !merge && !m->finished) {
		whyf(why, len, "label '%s' is in %s already: --merge adds the records of '%s' "
		     "to its own, or choose another label", new, dir, old);
		ret = -2;
		goto out;
	}
	test_hook("relabel");	/* 1: nothing written yet */
	if (!m->finished && (replace_file(npath, l.out, l.nout) || sync_dir(dir))) {
		errout(why, len, "cannot write", npath);
		goto out;
	}
	test_hook("relabel");	/* 2: NEW written, OLD still there */
	if (unlink(opath)) {
		errout(why, len, "cannot remove", opath);
		goto out;
	}
	test_hook("relabel");	/* 3: OLD removed, the directory not yet synced */
	if (sync_dir(dir)) {
		errout(why, len, "cannot sync", dir);
		goto out;
	}
	ret = 0;
out:
	seen_free(&l.seen);
	free(l.out);
	free(opath);
	free(npath);
	return ret;
}

int store_relabel(const char *dir, const char *old, const char *new, int merge,
		  struct store_relabel *m, char *why, size_t len)
{
	struct stat st;
	int lock, ret;

	memset(m, 0, sizeof(*m));
	if (!strcmp(old, new)) {
		whyf(why, len, "'%s' and '%s' are the same label", old, new);
		return -2;
	}
	if (stat(dir, &st))
		return errout(why, len, "cannot read results directory", dir);
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		return errout(why, len, "cannot read results directory", dir);
	}
	/* the directory's lock, as a contest takes it: no suite appends to
	 * OLD meanwhile */
	lock = lock_dir(dir, "results directory");
	if (lock < 0)
		return whyf(why, len, "nothing relabelled in %s", dir);
	ret = relabel_locked(dir, old, new, merge, m, why, len);
	unlock_dir(dir, &lock);
	return ret;
}
