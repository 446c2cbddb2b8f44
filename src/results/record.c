/* SPDX-License-Identifier: GPL-2.0-or-later */
/* record.c - one line of the results store: encode, check and decode. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/record.h"
#include "lib/util.h"

uint32_t crc32_buf(const void *buf, size_t len)
{
	static uint32_t table[256];
	const unsigned char *p = buf;
	uint32_t c = 0xffffffffu;

	if (!table[1]) {
		for (uint32_t i = 0; i < 256; i++) {
			uint32_t v = i;

			for (int k = 0; k < 8; k++)
				v = v & 1 ? 0xedb88320u ^ (v >> 1) : v >> 1;
			table[i] = v;
		}
	}
	while (len--)
		c = table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xffffffffu;
}

void record_init(struct record *r, const char *kind)
{
	memset(r, 0, sizeof(*r));
	snprintf(r->kind, sizeof(r->kind), "%s", kind);
}

void record_free(struct record *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->kv[i].key);
		free(r->kv[i].val);
	}
	free(r->kv);
	r->kv = NULL;
	r->n = r->cap = 0;
}

void record_set(struct record *r, const char *key, const char *val)
{
	for (size_t i = 0; i < r->n; i++) {
		if (!strcmp(r->kv[i].key, key)) {
			free(r->kv[i].val);
			r->kv[i].val = xstrdup(val);
			return;
		}
	}
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 16;
		r->kv = xreallocarray(r->kv, r->cap, sizeof(*r->kv));
	}
	r->kv[r->n].key = xstrdup(key);
	r->kv[r->n].val = xstrdup(val);
	r->n++;
}

void record_setf(struct record *r, const char *key, const char *fmt, ...)
{
	va_list ap;
	char *v;

	va_start(ap, fmt);
	if (vasprintf(&v, fmt, ap) < 0)
		v = NULL;
	va_end(ap);
	record_set(r, key, v ? v : "");
	free(v);
}

void record_set_i64(struct record *r, const char *key, int64_t v)
{
	record_setf(r, key, "%" PRId64, v);
}

const char *record_get(const struct record *r, const char *key)
{
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->kv[i].key, key))
			return r->kv[i].val;
	return NULL;
}

int record_get_i64(const struct record *r, const char *key, int64_t *out)
{
	const char *s = record_get(r, key);
	char *end;
	long long v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtoll(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int record_get_double(const struct record *r, const char *key, double *out)
{
	const char *s = record_get(r, key);
	char *end;
	double v;

	if (!s || !*s)
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

static int plain(unsigned char c)
{
	return c > ' ' && c < 0x7f && c != '%' && c != '=';
}

static size_t escaped_len(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += plain((unsigned char)*s) ? 1 : 3;
	return n;
}

static char *escape_to(char *out, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (plain(c)) {
			*out++ = (char)c;
		} else {
			*out++ = '%';
			*out++ = hex[c >> 4];
			*out++ = hex[c & 15];
		}
	}
	return out;
}

char *record_encode(const struct record *r)
{
	size_t len = strlen(r->kind) + sizeof(" v=1") + sizeof(" crc=00000000\n");
	char *line, *p;

	for (size_t i = 0; i < r->n; i++)
		len += 2 + escaped_len(r->kv[i].key) + escaped_len(r->kv[i].val);
	p = line = xmalloc(len + 1);
	p += sprintf(p, "%s v=%d", r->kind, RECORD_VERSION);
	for (size_t i = 0; i < r->n; i++) {
		*p++ = ' ';
		p = escape_to(p, r->kv[i].key);
		*p++ = '=';
		p = escape_to(p, r->kv[i].val);
	}
	sprintf(p, " crc=%08" PRIx32 "\n", crc32_buf(line, (size_t)(p - line)));
	return line;
}

char *record_line_set(const char *line, size_t len, const char *key, const char *val)
{
	char *field = xmalloc(escaped_len(key) + 3), *out, *p;
	const char *at, *end, *crcp;
	size_t flen;

	if (len && line[len - 1] == '\n')
		len--;
	if (len < 13)
		return NULL;
	crcp = line + len - 13;	/* " crc=XXXXXXXX" */
	/* " KEY=": a field's start, as values hold no space and no '=' */
	field[0] = ' ';
	p = escape_to(field + 1, key);
	*p++ = '=';
	*p = '\0';
	flen = strlen(field);
	for (at = line; (at = memchr(at, ' ', (size_t)(crcp - at))); at++)
		if ((size_t)(crcp - at) >= flen && !memcmp(at, field, flen))
			break;
	free(field);
	if (!at)
		return NULL;
	at += flen;
	end = memchr(at, ' ', (size_t)(crcp - at + 1));	/* crcp holds one */
	out = xmalloc((size_t)(at - line) + escaped_len(val) + (size_t)(crcp - end) +
		      sizeof(" crc=00000000\n"));
	memcpy(out, line, (size_t)(at - line));
	p = escape_to(out + (at - line), val);
	memcpy(p, end, (size_t)(crcp - end));
	p += crcp - end;
	sprintf(p, " crc=%08" PRIx32 "\n", crc32_buf(out, (size_t)(p - out)));
	return out;
}

static int unhex(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

char *record_unescape(const char *s, size_t len)
{
	char *out = xmalloc(len + 1), *o = out;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '%') {
			int hi = i + 2 < len ? unhex(s[i + 1]) : -1;
			int lo = i + 2 < len ? unhex(s[i + 2]) : -1;

			if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
				free(out);
				return NULL;
			}
			*o++ = (char)(hi << 4 | lo);
			i += 2;
		} else if (plain(c)) {
			*o++ = (char)c;
		} else {
			free(out);
			return NULL;
		}
	}
	*o = '\0';
	return out;
}


int record_shaped(const char *line, size_t len)
{
	size_t k = 0;

	while (k < len && line[k] >= 'a' && line[k] <= 'z')
		k++;
	return k > 0 && len - k >= 3 && !memcmp(line + k, " v=", 3);
}

int record_decode(const char *line, size_t len, struct record *r,
		  char *why, size_t whylen)
{
	const char *crcp, *p, *end;
	char crctext[9];
	uint32_t want;
	int64_t version;

	record_init(r, "");
	if (len && line[len - 1] == '\n')
		len--;
	if (!record_shaped(line, len))
		return whyf(why, whylen, "%s", "not a record (no KIND v=N at its start: text "
			    "written into the file by something else?)");
	if (len < 14 || memchr(line, '\0', len))
		return whyf(why, whylen, "%s", "truncated or binary line");
	crcp = line + len - 13;
	if (memcmp(crcp, " crc=", 5))
		return whyf(why, whylen, "%s", "no checksum (truncated line?)");
	memcpy(crctext, crcp + 5, 8);
	crctext[8] = '\0';
	for (int i = 0; i < 8; i++)	/* as written: lower case only */
		if (!((crctext[i] >= '0' && crctext[i] <= '9') ||
		      (crctext[i] >= 'a' && crctext[i] <= 'f')))
			return whyf(why, whylen, "%s", "bad checksum field");
	want = (uint32_t)strtoul(crctext, NULL, 16);
	if (crc32_buf(line, (size_t)(crcp - line)) != want)
		return whyf(why, whylen, "%s", "checksum mismatch (damaged line)");

	p = line;
	end = crcp;
	const char *sp = memchr(p, ' ', (size_t)(end - p));

	if (!sp || sp == p || (size_t)(sp - p) >= sizeof(r->kind))
		return whyf(why, whylen, "%s", "no record kind");
	memcpy(r->kind, p, (size_t)(sp - p));
	r->kind[sp - p] = '\0';
	p = sp + 1;
	while (p < end) {
		const char *tok_end = memchr(p, ' ', (size_t)(end - p));
		const char *eq;
		char *k, *v;

		if (!tok_end)
			tok_end = end;
		eq = memchr(p, '=', (size_t)(tok_end - p));
		if (!eq || eq == p) {
			record_free(r);
			return whyf(why, whylen, "%s", "malformed field");
		}
		k = record_unescape(p, (size_t)(eq - p));
		v = record_unescape(eq + 1, (size_t)(tok_end - eq - 1));
		if (!k || !v) {
			free(k);
			free(v);
			record_free(r);
			return whyf(why, whylen, "%s", "malformed escape");
		}
		record_set(r, k, v);
		free(k);
		free(v);
		p = tok_end + 1;
	}
	if (record_get_i64(r, "v", &version) || version < 1) {
		record_free(r);
		return whyf(why, whylen, "%s", "no format version");
	}
	if (version > RECORD_VERSION) {
		record_free(r);
		snprintf(why, whylen, "format version %" PRId64 " is newer than this contest reads (%d)",
			 version, RECORD_VERSION);
		return -1;
	}
	return 0;
}
