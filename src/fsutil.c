/* fsutil.c - file-system helpers: whole writes, small reads, safe removal. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "fsutil.h"
#include "util.h"

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

int fs_free_bytes(const char *path, uint64_t *out)
{
	size_t n = strlen(path);
	char *p = malloc(n + 2), *slash;
	struct statvfs sv;
	int ret;

	if (!p)
		return -1;
	memcpy(p, path, n + 1);
	while ((ret = statvfs(p, &sv)) && errno == ENOENT && strcmp(p, ".")) {
		slash = strrchr(p, '/');
		if (!slash)
			strcpy(p, ".");
		else if (slash == p)
			p[1] = '\0';
		else
			*slash = '\0';
	}
	free(p);
	if (ret)
		return -1;
	*out = (uint64_t)sv.f_bavail * sv.f_frsize;
	return 0;
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
			fchmodat(dfd, n, st.st_mode | S_IRWXU, 0);
		sub = openat(dfd, n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0 || empty_dir(sub, dev) || unlinkat(dfd, n, AT_REMOVEDIR)) {
			ret = -1;
			break;
		}
	}
	closedir(d);
	return ret;
}

int remove_tree(const char *path)
{
	struct stat st;
	int fd;

	if (lstat(path, &st))
		return errno == ENOENT ? 0 : -1;
	if (!S_ISDIR(st.st_mode))
		return unlink(path);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 || empty_dir(fd, st.st_dev))
		return -1;
	return rmdir(path);
}

static int walk_at(int dfd, int (*fn)(int fd, void *arg), void *arg)
{
	DIR *d = fdopendir(dfd);
	struct dirent *de;
	int ret = 0;

	if (!d) {
		close(dfd);
		return -1;
	}
	while (!ret && (de = readdir(d))) {
		const char *n = de->d_name;
		struct stat st;
		int fd;

		if (!strcmp(n, ".") || !strcmp(n, ".."))
			continue;
		if (fstatat(dfd, n, &st, AT_SYMLINK_NOFOLLOW))
			continue;
		if (S_ISDIR(st.st_mode)) {
			fd = openat(dfd, n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd >= 0)
				ret = walk_at(fd, fn, arg);
		} else if (S_ISREG(st.st_mode)) {
			fd = openat(dfd, n, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
			if (fd >= 0) {
				ret = fn(fd, arg);
				close(fd);
			}
		}
	}
	closedir(d);
	return ret;
}

int walk_files(const char *dir, int (*fn)(int fd, void *arg), void *arg)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return -1;
	return walk_at(fd, fn, arg);
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
