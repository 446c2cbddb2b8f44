/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tap.h - a tiny Test Anything Protocol emitter for the unit tests. */
#ifndef CONTEST_TAP_H
#define CONTEST_TAP_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed;

#define ok(cond, ...) tap_ok(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

static inline void tap_ok(int pass, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#include <stdarg.h>
static inline void tap_ok(int pass, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", pass ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!pass) {
		printf("#   failed at %s:%d\n", file, line);
		tap_failed++;
	}
}

#define is_str(got, want, ...) do { \
	const char *g_ = (got), *w_ = (want); \
	int p_ = g_ && w_ && strcmp(g_, w_) == 0; \
	ok(p_, __VA_ARGS__); \
	if (!p_) printf("#   got:  '%s'\n#   want: '%s'\n", g_ ? g_ : "(null)", w_ ? w_ : "(null)"); \
} while (0)

#define is_num(got, want, tol, ...) do { \
	double g_ = (got), w_ = (want); \
	int p_ = fabs(g_ - w_) <= (tol); \
	ok(p_, __VA_ARGS__); \
	if (!p_) printf("#   got:  %.12g\n#   want: %.12g\n", g_, w_); \
} while (0)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed ? 1 : 0;
}

#endif
