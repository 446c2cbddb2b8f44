/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit-strbuf.c - the growable string (lib/strbuf.h): NULL until something
 * is added, always NUL-terminated after, growth by doubling from 256 bytes,
 * a pool of names with their NULs, a cut, a reset that keeps the memory,
 * and a failure that leaves the string as it was with err set. */
#include "config.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"
#include "tap.h"

int main(void)
{
	struct strbuf b = STRBUF_INIT;
	char want[1200];
	size_t cap;

	ok(!b.s && !b.len && !b.cap && !b.err, "STRBUF_INIT is empty, nothing allocated");
	ok(strbuf_add(&b, "", 0) == 0 && b.s && !b.s[0] && !b.len && b.cap == 256,
	   "adding nothing allocates 256 bytes and holds \"\"");
	strbuf_free(&b);
	ok(!b.s && !b.len && !b.cap, "strbuf_free() leaves it as STRBUF_INIT");

	ok(strbuf_add(&b, "ab", 2) == 0 && strbuf_add(&b, "/cd", 3) == 0, "two adds");
	is_str(b.s, "ab/cd", "they join");
	ok(b.len == 5, "len 5");
	ok(strbuf_addf(&b, " %d-%s-%03u", 42, "x", 7u) == 0, "an addf");
	is_str(b.s, "ab/cd 42-x-007", "it appends printf's output");

	/* 300 bytes: one doubling, to 512 */
	memset(want, 'q', 300);
	want[300] = '\0';
	strbuf_reset(&b);
	ok(strbuf_add(&b, want, 300) == 0 && b.len == 300 && b.cap == 512,
	   "300 bytes after a reset: cap 512 (256 doubled)");
	is_str(b.s, want, "and they are all there, NUL-terminated");

	/* an addf longer than the room left: grown, then printed whole */
	memset(want + 300, 'z', 800);
	want[1100] = '\0';
	ok(strbuf_addf(&b, "%.*s", 800, want + 300) == 0 && b.len == 1100 && b.cap == 2048,
	   "an addf of 800 bytes into 212 of room: grown to 2048");
	is_str(b.s, want, "the 1100 bytes, in order");

	strbuf_cut(&b, 2);
	is_str(b.s, "qq", "a cut to 2 bytes");
	ok(strbuf_set(&b, "new", 3) == 0, "a set");
	is_str(b.s, "new", "replaces the whole string");
	cap = b.cap;
	strbuf_reset(&b);
	ok(b.len == 0 && b.s && !b.s[0] && b.cap == cap, "a reset empties it and keeps the memory");

	/* a pool of names: each with its NUL, found again by offset */
	ok(strbuf_add(&b, "one", 4) == 0 && strbuf_add(&b, "two", 4) == 0 &&
	   strbuf_add(&b, "", 1) == 0 && strbuf_add(&b, "four", 5) == 0, "four names, NULs kept");
	ok(b.len == 14 && !memcmp(b.s, "one\0two\0\0four\0", 15), "14 bytes, then the NUL");
	is_str(b.s + 4, "two", "the second name at offset 4");
	is_str(b.s + 9, "four", "the fourth at offset 9");

	/* a size that cannot be: -1, ENOMEM, err kept, the string as it was */
	errno = 0;
	ok(strbuf_grow(&b, SIZE_MAX - 1) == -1 && errno == ENOMEM && b.err == ENOMEM,
	   "room for SIZE_MAX - 1 more bytes: -1, errno and err ENOMEM");
	ok(b.len == 14 && !memcmp(b.s, "one\0two\0\0four\0", 15), "the string is as it was");
	ok(strbuf_add(&b, "!", 1) == 0 && b.err == ENOMEM && b.s[14] == '!' && b.len == 15,
	   "an add after it works, err still says what failed first");
	strbuf_reset(&b);
	ok(b.err == 0, "a reset clears err");
	strbuf_free(&b);

	xstrbuf_addf(&b, "%s=%d", "x", 1);
	xstrbuf_add(&b, ";", 1);
	is_str(b.s, "x=1;", "xstrbuf_addf and xstrbuf_add");
	strbuf_free(&b);
	return tap_done();
}
