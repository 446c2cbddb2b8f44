/* SPDX-License-Identifier: GPL-2.0-or-later */
/* util.c - small helpers: memory, messages, numbers and clocks. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/exitcode.h"
#include "lib/util.h"

void out_of_memory(void)
{
	fputs("contest: out of memory\n", stderr);
	abort();
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		out_of_memory();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		out_of_memory();
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		out_of_memory();
	return p;
}

int size_mul(size_t a, size_t b, size_t *out)
{
	return __builtin_mul_overflow(a, b, out) ? -1 : 0;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	size_t bytes;

	if (size_mul(n, size, &bytes))
		out_of_memory();
	return xrealloc(p, bytes);
}

char *xstrdup(const char *s)
{
	char *p = strdup(s);

	if (!p)
		out_of_memory();
	return p;
}

FILE *xopen_memstream(char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);

	if (!f)
		out_of_memory();
	return f;
}

void xclose_memstream(FILE *f)
{
	if (ferror(f) | fclose(f))
		out_of_memory();
}

char *xvasprintf(const char *fmt, va_list ap)
{
	char *p;

	if (vasprintf(&p, fmt, ap) < 0)
		out_of_memory();
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	p = xvasprintf(fmt, ap);
	va_end(ap);
	return p;
}

int whyf(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static int msg_quiet;
static void (*msg_before)(void);

void msg_setup(int quiet, void (*before)(void))
{
	msg_quiet = quiet;
	msg_before = before;
}

void msg_prepare(void)
{
	if (msg_before)
		msg_before();
}

static void vmsg(const char *fmt, va_list ap)
{
	msg_prepare();
	fputs("contest: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("contest: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'contest --help' for more information.\n", stderr);
	return EXIT_USAGE;
}

void msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

void info(const char *fmt, ...)
{
	va_list ap;

	if (msg_quiet)
		return;
	va_start(ap, fmt);
	vmsg(fmt, ap);
	va_end(ap);
}

int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	long long v;
	char *end;

	if (!s || !*s || (*s != '-' && (*s < '0' || *s > '9')))
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_double(const char *s, double min, double max, double *out)
{
	double v;
	char *end;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	unsigned shift = 0;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	}
	if (shift && (*end == 'i' || *end == 'I'))
		end++;
	if (shift && (*end == 'b' || *end == 'B'))
		end++;
	if (*end || v > (UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

int streq(const char *a, const char *b)
{
	return strcmp(a, b) == 0;
}

int str_has_word(const char *text, const char *word)
{
	size_t n = strlen(word);

	for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
		if ((p == text || p[-1] == ' ') && (!p[n] || p[n] == ' '))
			return 1;
	return 0;
}

void format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *units[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	double v = (double)bytes;
	size_t u = 0;

	while (v >= 1024 && u + 1 < ARRAY_SIZE(units)) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%.1f %s", v, units[u]);
}

static int64_t clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * NS_PER_SEC + ts.tv_nsec;
}

int64_t mono_ns(void)
{
	return clock_ns(CLOCK_MONOTONIC);
}

int64_t real_ns(void)
{
	return clock_ns(CLOCK_REALTIME);
}

int sleep_ns(int64_t ns)
{
	struct timespec ts;

	if (ns <= 0)
		return 0;
	ts.tv_sec = ns / NS_PER_SEC;
	ts.tv_nsec = ns % NS_PER_SEC;
	return nanosleep(&ts, NULL) ? -1 : 0;
}

/* The optimal string alignment distance: insertions, deletions,
 * substitutions and swaps of neighbours; SIZE_MAX for words of 64 bytes or
 * more. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), d[64][64];

	if (la >= 64 || lb >= 64)
		return SIZE_MAX;
	for (size_t i = 0; i <= la; i++)
		for (size_t j = 0; j <= lb; j++) {
			size_t v;

			if (!i || !j) {
				d[i][j] = i + j;
				continue;
			}
			v = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (d[i - 1][j] + 1 < v)
				v = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < v)
				v = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < v)
				v = d[i - 2][j - 2] + 1;
			d[i][j] = v;
		}
	return d[la][lb];
}

const char *nearest_name(const char *word, const char *const *names, size_t n)
{
	size_t best = SIZE_MAX, most = strlen(word) < 4 ? 1 : 2, len = strlen(word);
	const char *found = NULL;

	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(word, names[i]);

		if (!strncmp(names[i], word, len) && !strcmp(names[i] + len, "_load"))
			d = 1;
		if (d < best) {
			best = d;
			found = names[i];
		}
	}
	return best <= most ? found : NULL;
}
