/* SPDX-License-Identifier: GPL-2.0-or-later */
/* strbuf.h - a growable string: text built piece by piece, or a pool of
 * NUL-terminated names one after the other. */
#ifndef CONTEST_STRBUF_H
#define CONTEST_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

/* s is NULL until something is added (STRBUF_INIT), then NUL-terminated
 * (s[len] == '\0'); cap bytes are allocated.  Memory grows by doubling,
 * from 256 bytes. */
struct strbuf {
	char *s;
	size_t len, cap;
	int err;	/* errno of the first failure: a writer may check once, at the end */
};

#define STRBUF_INIT { NULL, 0, 0, 0 }

/* Each returns 0, or -1 when memory ran out (errno and err ENOMEM; a
 * failed vsnprintf() its own errno), the string left as it was. */

/* Room for n more bytes and the NUL, nothing added. */
int strbuf_grow(struct strbuf *b, size_t n);
/* n bytes of s appended (they may hold a NUL). */
int strbuf_add(struct strbuf *b, const void *s, size_t n);
/* printf()'s output appended. */
int strbuf_addf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int strbuf_vaddf(struct strbuf *b, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));
/* The string made n bytes of s. */
int strbuf_set(struct strbuf *b, const void *s, size_t n);

/* The same, for a caller to whom running out of memory is fatal, as it is
 * in xmalloc(). */
void xstrbuf_add(struct strbuf *b, const void *s, size_t n);
void xstrbuf_addf(struct strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Cut the string back to its first len bytes (len <= b->len). */
void strbuf_cut(struct strbuf *b, size_t len);
/* Empty again, err cleared, the memory kept for what comes next. */
void strbuf_reset(struct strbuf *b);
/* The memory freed; b is STRBUF_INIT again. */
void strbuf_free(struct strbuf *b);

#endif
