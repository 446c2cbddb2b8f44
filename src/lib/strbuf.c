/* SPDX-License-Identifier: GPL-2.0-or-later */
/* strbuf.c - a growable string. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"
#include "lib/util.h"

static int failed(struct strbuf *b, int err)
{
	if (!b->err)
		b->err = err;
	errno = err;
	return -1;
}

int strbuf_grow(struct strbuf *b, size_t n)
{
	size_t need, cap = b->cap ? b->cap : 256;
	char *p;

	if (n > SIZE_MAX - 1 - b->len)
		return failed(b, ENOMEM);
	need = b->len + n + 1;
	if (need <= b->cap)
		return 0;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	p = realloc(b->s, cap);
	if (!p)
		return failed(b, ENOMEM);
	if (!b->s)
		p[0] = '\0';
	b->s = p;
	b->cap = cap;
	return 0;
}

int strbuf_add(struct strbuf *b, const void *s, size_t n)
{
	if (strbuf_grow(b, n))
		return -1;
	if (n)
		memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return 0;
}

int strbuf_vaddf(struct strbuf *b, const char *fmt, va_list ap)
{
	size_t room = b->s ? b->cap - b->len : 0;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(room ? b->s + b->len : NULL, room, fmt, ap);
	if (n >= 0 && (size_t)n >= room) {
		if (strbuf_grow(b, (size_t)n)) {
			va_end(again);
			if (b->s)
				b->s[b->len] = '\0';	/* vsnprintf() filled the room */
			return -1;
		}
		n = vsnprintf(b->s + b->len, b->cap - b->len, fmt, again);
	}
	va_end(again);
	if (n < 0) {
		if (b->s)
			b->s[b->len] = '\0';
		return failed(b, errno ? errno : EINVAL);
	}
	b->len += (size_t)n;
	return 0;
}

int strbuf_addf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = strbuf_vaddf(b, fmt, ap);
	va_end(ap);
	return rc;
}

int strbuf_set(struct strbuf *b, const void *s, size_t n)
{
	strbuf_cut(b, 0);
	return strbuf_add(b, s, n);
}

void xstrbuf_add(struct strbuf *b, const void *s, size_t n)
{
	if (strbuf_add(b, s, n))
		out_of_memory();
}

void xstrbuf_addf(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = strbuf_vaddf(b, fmt, ap);
	va_end(ap);
	if (rc)
		out_of_memory();
}

void strbuf_cut(struct strbuf *b, size_t len)
{
	b->len = len;
	if (b->s)
		b->s[len] = '\0';
}

void strbuf_reset(struct strbuf *b)
{
	strbuf_cut(b, 0);
	b->err = 0;
}

void strbuf_free(struct strbuf *b)
{
	free(b->s);
	*b = (struct strbuf)STRBUF_INIT;
}
