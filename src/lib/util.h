/* SPDX-License-Identifier: GPL-2.0-or-later */
/* util.h - small helpers: memory, messages, numbers and clocks. */
#ifndef CONTEST_UTIL_H
#define CONTEST_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NS_PER_SEC INT64_C(1000000000)

/* "contest: out of memory" on stderr, and abort(): what the x functions
 * do when memory runs out. */
void out_of_memory(void) __attribute__((noreturn));
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* xrealloc for n elements of size bytes; a product past SIZE_MAX is fatal,
 * as running out of memory is. */
void *xreallocarray(void *p, size_t n, size_t size);
/* *out = a * b: 0, or -1 when the product does not fit in a size_t (on a
 * 32-bit machine, sizes from the command line can exceed it). */
int size_mul(size_t a, size_t b, size_t *out);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
/* A stream writing into memory (*buf, *len, set when it is closed), and its
 * close: the only way either can fail is running out of memory. */
FILE *xopen_memstream(char **buf, size_t *len);
void xclose_memstream(FILE *f);

/* Format the reason for a failure into why (when there is room) and
 * return -1, for `return whyf(why, len, "mkdir %s: %s", ...)`. */
int whyf(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* "contest: MESSAGE" and the hint to --help on stderr; returns EXIT_USAGE. */
int usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "contest: ..." on stderr: errors and warnings. */
void msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The same for what is only news (the plan, a finished run): silent with
 * msg_setup(1, ...), for --quiet. */
void info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* quiet: info() says nothing.  before: called before every message and
 * every other line contest writes to stderr, to clear a progress line
 * (NULL: nothing). */
void msg_setup(int quiet, void (*before)(void));
/* Call the `before` hook: for code about to write to stderr itself. */
void msg_prepare(void);

/* Numbers from users: the whole string, in range, or -1. */
int parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out);
int parse_i64(const char *s, int64_t min, int64_t max, int64_t *out);
/* A finite decimal number from min to max: seconds, a precision, an alpha. */
int parse_double(const char *s, double min, double max, double *out);
/* A size with an optional K, M, G or T suffix (powers of 1024). */
int parse_size(const char *s, uint64_t *out);
/* Of names[0..n), the one nearest to word (edit distance, a swap of two
 * neighbours counting one; or word with _load added), if near enough to be
 * a slip of the keyboard, else NULL. */
const char *nearest_name(const char *word, const char *const *names, size_t n);
/* Whether word is one of text's words (separated by spaces). */
int str_has_word(const char *text, const char *word);
/* Whether the two strings are equal. */
int streq(const char *a, const char *b);
/* "1.5 GiB" */
void format_size(uint64_t bytes, char *buf, size_t len);

int64_t mono_ns(void); /* CLOCK_MONOTONIC */
int64_t real_ns(void); /* CLOCK_REALTIME, for timestamps only */
/* Sleep up to ns; returns early (nonzero) when a signal arrives. */
int sleep_ns(int64_t ns);

#endif
