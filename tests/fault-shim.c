/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fault-shim.c - an LD_PRELOAD library that injects faults into contest
 * for the tests (never linked into contest itself).  Environment:
 *
 *   SHIM_RESULTS=KIND[:N]  the Nth (default 1st) call of its kind on a
 *                          *.results file fails: short (write writes half
 *                          of what it is asked and returns that), eintr
 *                          (write writes nothing: -1 EINTR), sync
 *                          (fdatasync: -1 EIO), close (closes, then -1 EIO)
 *   SHIM_LOG=FILE          appends "fsync-dir PATH" for every fsync of a
 *                          directory
 *   SHIM_LOCK=U,F          sleeps U ms after unlinking a contest.lock and
 *                          F ms before an flock of one: widens the windows
 *                          in which two contests race for a lock
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);

	return n >= t && !strcmp(s + n - t, tail);
}

/* The path fd is open on, or "" */
static void fd_path(int fd, char *buf, size_t len)
{
	char link[64];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
}

/* 1 when this call (of kind) on fd is the one to fail. */
static int fault(int fd, const char *kind)
{
	static int calls;
	const char *want = getenv("SHIM_RESULTS"), *colon;
	char path[4096];
	size_t n;

	if (!want)
		return 0;
	colon = strchr(want, ':');
	n = colon ? (size_t)(colon - want) : strlen(want);
	if (strlen(kind) != n || strncmp(want, kind, n))
		return 0;
	fd_path(fd, path, sizeof(path));
	if (!ends_with(path, ".results"))
		return 0;
	return ++calls == (colon ? atoi(colon + 1) : 1);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (ms > 0 && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* The delay of field i (0: unlink, 1: flock) of SHIM_LOCK, in ms. */
static long lock_delay(int i)
{
	const char *v = getenv("SHIM_LOCK");

	if (!v)
		return 0;
	if (i) {
		v = strchr(v, ',');
		if (!v)
			return 0;
		v++;
	}
	return atol(v);
}

#define REAL(ret, name, ...) \
	static ret (*real)(__VA_ARGS__); \
	if (!real) \
		*(void **)&real = dlsym(RTLD_NEXT, name)

ssize_t write(int fd, const void *buf, size_t len)
{
	REAL(ssize_t, "write", int, const void *, size_t);
	if (len > 1 && fault(fd, "short"))
		return real(fd, buf, len / 2);
	if (fault(fd, "eintr")) {
		errno = EINTR;
		return -1;
	}
	return real(fd, buf, len);
}

int fdatasync(int fd)
{
	REAL(int, "fdatasync", int);
	if (fault(fd, "sync")) {
		errno = EIO;
		return -1;
	}
	return real(fd);
}

int close(int fd)
{
	REAL(int, "close", int);
	if (fault(fd, "close")) {
		real(fd);
		errno = EIO;
		return -1;
	}
	return real(fd);
}

int fsync(int fd)
{
	const char *log = getenv("SHIM_LOG");
	struct stat st;

	REAL(int, "fsync", int);
	if (log && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		char path[4096];
		FILE *f = fopen(log, "a");

		fd_path(fd, path, sizeof(path));
		if (f) {
			fprintf(f, "fsync-dir %s\n", path);
			fclose(f);
		}
	}
	return real(fd);
}

int unlink(const char *path)
{
	int ret;

	REAL(int, "unlink", const char *);
	ret = real(path);
	if (ends_with(path, "/contest.lock"))
		sleep_ms(lock_delay(0));
	return ret;
}

int flock(int fd, int op)
{
	char path[4096];

	REAL(int, "flock", int, int);
	fd_path(fd, path, sizeof(path));
	if (ends_with(path, "/contest.lock") || ends_with(path, "/contest.lock (deleted)"))
		sleep_ms(lock_delay(1));
	return real(fd, op);
}
