/* store.c - the results directory: one append-only record file per label. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fsutil.h"
#include "store.h"
#include "util.h"

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
	char *name = xmalloc(3 * n + 1), *o = name;

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

/* Append one whole line, or nothing: a write cut short (a full disk) is
 * cut back off, so the next record never joins a torn line. */
static int append_line(int fd, const char *line, char *why, size_t len, const char *path)
{
	size_t n = strlen(line);
	off_t end = lseek(fd, 0, SEEK_END);
	ssize_t w = write(fd, line, n);

	if (w == (ssize_t)n)
		return 0;
	if (w >= 0)
		errno = ENOSPC;
	errout(why, len, "cannot append to", path);
	if (w > 0 && (end < 0 || ftruncate(fd, end)))
		snprintf(why + strlen(why), len - strlen(why),
			 "; a partial line is left at its end");
	return -1;
}

int store_append(const char *dir, const char *label, const struct record *r,
		 char *why, size_t len)
{
	char *path, *line;
	int fd, ret = 0, created = 0;

	if (mkdir(dir, 0755) && errno != EEXIST)
		return errout(why, len, "cannot create results directory", dir);
	path = store_path(dir, label);
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd >= 0) {
		char *head = xasprintf("# contest results, format %d: one record a line\n",
				       RECORD_VERSION);

		created = 1;
		ret = append_line(fd, head, why, len, path);
		free(head);
	} else if (errno == EEXIST) {
		fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW);
	}
	if (fd < 0) {
		ret = errout(why, len, "cannot open", path);
		free(path);
		return ret;
	}
	line = record_encode(r);
	if (!ret)
		ret = append_line(fd, line, why, len, path);
	if (!ret && fdatasync(fd))
		ret = errout(why, len, "cannot sync", path);
	if (close(fd) && !ret)
		ret = errout(why, len, "cannot close", path);
	if (ret && created)
		unlink(path);	/* ours, and holding no record */
	free(line);
	free(path);
	return ret;
}

static void add_record(struct store *st, struct record *r, const char *path,
		       size_t lineno)
{
	char why[160];

	if (!strcmp(r->kind, "env")) {
		st->envs = xrealloc(st->envs, (st->nenvs + 1) * sizeof(*st->envs));
		st->envs[st->nenvs++] = *r;
		return;
	}
	if (!strcmp(r->kind, "run")) {
		struct run run;

		if (run_from_record(r, &run, why, sizeof(why)) == 0) {
			st->runs = xrealloc(st->runs, (st->nruns + 1) * sizeof(*st->runs));
			st->runs[st->nruns++] = run;
		} else {
			msg("%s:%zu: damaged record skipped: %s", path, lineno, why);
			st->damaged++;
		}
	}
	/* other kinds come from newer versions of the same format: ignore */
	record_free(r);
}

static void load_file(struct store *st, const char *path)
{
	FILE *f = fopen(path, "re");
	char *line = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t n;

	if (!f) {
		msg("%s: cannot read: %s", path, strerror(errno));
		st->damaged++;
		return;
	}
	st->files++;
	while ((n = getline(&line, &cap, f)) >= 0) {
		struct record r;
		char why[160];

		lineno++;
		if (n == 0 || line[0] == '#' || (n == 1 && line[0] == '\n'))
			continue;
		if (line[n - 1] != '\n') {
			msg("%s:%zu: damaged record skipped: truncated line", path, lineno);
			st->damaged++;
			continue;
		}
		if (record_decode(line, (size_t)n, &r, why, sizeof(why))) {
			msg("%s:%zu: damaged record skipped: %s", path, lineno, why);
			st->damaged++;
			continue;
		}
		add_record(st, &r, path, lineno);
	}
	if (ferror(f)) {
		msg("%s: read error: %s", path, strerror(errno));
		st->damaged++;
	}
	free(line);
	fclose(f);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int store_load(const char *dir, struct store *st, char *why, size_t len)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0;

	memset(st, 0, sizeof(*st));
	if (!d) {
		snprintf(why, len, "cannot read results directory %s: %s", dir, strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (de->d_name[0] == '.' || l <= strlen(SUFFIX) ||
		    strcmp(de->d_name + l - strlen(SUFFIX), SUFFIX))
			continue;
		names = xrealloc(names, (n + 1) * sizeof(*names));
		names[n++] = xasprintf("%s/%s", dir, de->d_name);
	}
	closedir(d);
	if (n)	/* qsort(NULL, 0, ...) is undefined */
		qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		load_file(st, names[i]);
		free(names[i]);
	}
	free(names);
	return 0;
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
