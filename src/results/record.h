/* SPDX-License-Identifier: GPL-2.0-or-later */
/* record.h - one line of the results store: encode, check and decode. */
#ifndef CONTEST_RECORD_H
#define CONTEST_RECORD_H

#include <stddef.h>
#include <stdint.h>

/* A record line is
 *	KIND v=1 key=value key=value ... crc=XXXXXXXX\n
 * Values escape every byte outside printable ASCII, and ' ', '%' and '=',
 * as %XX; the crc is CRC-32 of everything before " crc=".  Lines starting
 * with '#' are comments.  A line that fails any check is damaged. */
/* 2: a run's load_cpu_ns (and probe_cpu_ns) over the timed window only,
 * absent when not measured, in place of load_user_ns and load_sys_ns */
#define RECORD_VERSION 2

struct kv {
	char *key;
	char *val;
};

struct record {
	char kind[16];
	struct kv *kv;
	size_t n, cap;
};

void record_init(struct record *r, const char *kind);
void record_free(struct record *r);
void record_set(struct record *r, const char *key, const char *val);
void record_setf(struct record *r, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void record_set_i64(struct record *r, const char *key, int64_t v);
const char *record_get(const struct record *r, const char *key);
/* The value as a number: 0 when found and valid, -1 otherwise. */
int record_get_i64(const struct record *r, const char *key, int64_t *out);
int record_get_double(const struct record *r, const char *key, double *out);

/* Whether the line starts as every record does, "KIND v=": a lower-case
 * kind, a space, the version key.  A line that does not is no damaged
 * record but text that is not a record at all. */
int record_shaped(const char *line, size_t len);

/* The whole line, '\n' included; the caller frees it. */
char *record_encode(const struct record *r);
/* Parse one line (with or without its '\n').  0, or -1 with the reason in
 * why; r is initialised either way. */
int record_decode(const char *line, size_t len, struct record *r,
		  char *why, size_t whylen);

/* s[0..len) with its %XX escapes undone (a value of a line; a results
 * file's name, store_path()); NULL when malformed or when it holds a NUL
 * byte.  The caller frees it. */
char *record_unescape(const char *s, size_t len);

/* A line that passed record_decode() (len bytes, with or without its
 * '\n') with the value of key replaced by val, every other byte as it was
 * (the version too), and its crc computed anew; '\n' ended.  NULL when the
 * line has no such field.  The caller frees it. */
char *record_line_set(const char *line, size_t len, const char *key, const char *val);

uint32_t crc32_buf(const void *buf, size_t len);

#endif
