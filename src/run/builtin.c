/* SPDX-License-Identifier: GPL-2.0-or-later */
/* builtin.c - generate the built-in workload: a deterministic synthetic C tree. */
#include "config.h"

#include "run/builtin.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/fsutil.h"
#include "lib/util.h"

/*
 * The tree, for scale N (N translation units), built as kbuild builds a
 * tinyconfig kernel (version 2; version 1 was 180 units of 22 functions in
 * one flat directory, each compile 0.3-0.6 s of pure optimisation, which the
 * loads hardly disturbed):
 *
 *   Makefile               all (default): build scripts/wl_fixdep, then one
 *                          make per top directory, then link wl_prog
 *   scripts/Makefile.build a directory's make: its objects, each followed by
 *                          wl_fixdep; a make per subdirectory; then ld -r of
 *                          all of them into the directory's built-in.o
 *   scripts/wl_fixdep.c    kbuild's fixdep in small: the .d file to a .cmd
 *                          file, reading every header for the options it uses
 *   include/wl_*.h         fixed headers: macros, structs, inline functions
 *   include/wl/h000.h ...  the header library: NCORE core headers (all in
 *                          wl/kernel.h), then a group per directory; each
 *                          includes a few lower-numbered ones
 *   include/generated/     autoconf.h (-include'd by every compile), wl_units.h
 *   init/main.c            calls every unit, so the link is real
 *   lib/common.c           out-of-line helpers every unit calls
 *   DIR/Kbuild             the directory's objects and subdirectories
 *   DIR/unit_0000.c ...    the units, in kernel-like directories
 *
 * A unit includes about 130 headers, 0.7-0.8 MB preprocessed, and defines
 * 2-7 functions: parsing is about half of its compile (0.1-0.2 s with gcc
 * -O2), as in the kernel, and every unit starts make's shell, the compiler
 * driver, cc1, as and wl_fixdep, so the build is many short processes.
 *
 * A unit's bytes (and its directory) depend only on its index, never on N,
 * so a smaller tree is a prefix of a larger one.  Only the Makefile, the
 * Kbuild files, init/main.c and include/generated/wl_units.h depend on N.
 */

#define SCALE_DEFAULT 240	/* make -j8: ~35 s on 2 CPUs, gcc 12 -O2 */
#define SCALE_QUICK 24		/* ~4 s */

#define FNS_MIN 2		/* functions in one unit */
#define FNS_MAX 7
#define NHDRS 400		/* the header library, include/wl/h000.h ... */
#define NCORE 80		/* h000-h079: the core, in wl/kernel.h */
#define NGROUP 16		/* then groups of 16, one a directory */
#define NGROUPS ((NHDRS - NCORE) / NGROUP)
#define NEXTRA 4		/* headers of other groups a unit includes */
#define NCONFIG 32		/* WL_CONFIG_OPT_00 ...: about half set */
#define INLINES 9		/* inline functions in a library header */
#define NOPS 48			/* generated inline functions in wl_ops.h */
#define NPAIRS 32		/* entries of a unit's sorted pair table */
#define SEED 0x636f6e7465737431ull	/* "contest1" */

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* ---- errors ------------------------------------------------------------ */


/* ---- a fixed-seed PRNG (splitmix64) ------------------------------------ */

struct rng {
	uint64_t s;
};

static uint32_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

static unsigned rng_below(struct rng *r, unsigned n)
{
	return rng_next(r) % n;
}

static unsigned rng_range(struct rng *r, unsigned lo, unsigned hi)
{
	return lo + rng_below(r, hi - lo + 1);
}

/* ---- a growing text buffer --------------------------------------------- */

struct buf {
	char *p;
	size_t len, cap;
	int err;	/* errno of the first failure, sticky */
};

static int buf_init(struct buf *b)
{
	b->len = 0;
	b->err = 0;
	b->cap = 64 * 1024;
	b->p = malloc(b->cap);
	return b->p ? 0 : -1;
}

static void buf_reset(struct buf *b)
{
	b->len = 0;
	b->err = 0;
}

static void buf_grow(struct buf *b, size_t need)
{
	size_t cap = b->cap;
	char *p;

	while (cap - b->len < need)
		cap *= 2;
	p = realloc(b->p, cap);
	if (!p) {
		b->err = ENOMEM;
		return;
	}
	b->p = p;
	b->cap = cap;
}

__attribute__((format(printf, 2, 3)))
static void out(struct buf *b, const char *fmt, ...)
{
	va_list ap;
	size_t room;
	int n;

	while (!b->err) {
		room = b->cap - b->len;
		va_start(ap, fmt);
		n = vsnprintf(b->p + b->len, room, fmt, ap);
		va_end(ap);
		if (n < 0) {
			b->err = errno ? errno : EINVAL;
			return;
		}
		if ((size_t)n < room) {
			b->len += (size_t)n;
			return;
		}
		buf_grow(b, (size_t)n + 1);
	}
}

static void out_lines(struct buf *b, const char *const *lines)
{
	for (; *lines; lines++)
		out(b, "%s\n", *lines);
}

/* ---- files ------------------------------------------------------------- */

static int make_path(char *path, size_t size, const char *dir,
		     const char *name, char *why, size_t len)
{
	int n = snprintf(path, size, "%s/%s", dir, name);

	if (n < 0 || (size_t)n >= size)
		return whyf(why, len, "%s/%s: path too long", dir, name);
	return 0;
}

static int make_dir(const char *dir, const char *name, char *why, size_t len)
{
	char path[PATH_MAX];

	if (make_path(path, sizeof(path), dir, name, why, len))
		return -1;
	if (mkdir(path, 0755) && errno != EEXIST)
		return whyf(why, len, "mkdir %s: %s", name, strerror(errno));
	return 0;
}


/* Write the buffer as dir/name; the buffer's own failure is reported too. */
static int write_file(const char *dir, const char *name, const struct buf *b,
		      char *why, size_t len)
{
	char path[PATH_MAX];
	int fd, err;

	if (b->err)
		return whyf(why, len, "generate %s: %s", name, strerror(b->err));
	if (make_path(path, sizeof(path), dir, name, why, len))
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return whyf(why, len, "create %s: %s", name, strerror(errno));
	if (write_all(fd, b->p, b->len)) {
		err = errno;
		close(fd);
		return whyf(why, len, "write %s: %s", name, strerror(err));
	}
	if (close(fd) && errno != EINTR)
		return whyf(why, len, "write %s: %s", name, strerror(errno));
	return 0;
}

/* ---- fixed headers ----------------------------------------------------- */

static const char *const wl_base_h[] = {
	"/* wl_base.h - basic macros and bit helpers of the contest built-in workload. */",
	"#ifndef WL_BASE_H",
	"#define WL_BASE_H",
	"",
	"#include <stddef.h>",
	"#include <stdint.h>",
	"#include <string.h>",
	"",
	"#define WL_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))",
	"#define WL_MIN(a, b) ((a) < (b) ? (a) : (b))",
	"#define WL_MAX(a, b) ((a) > (b) ? (a) : (b))",
	"#define WL_CLAMP(v, lo, hi) WL_MIN(WL_MAX((v), (lo)), (hi))",
	"#define WL_SWAP(t, a, b) do { t wl_tmp_ = (a); (a) = (b); (b) = wl_tmp_; } while (0)",
	"#define WL_CONTAINER_OF(p, type, member) \\",
	"\t((type *)(void *)((char *)(p) - offsetof(type, member)))",
	"#define WL_BIT(n) (1u << (n))",
	"#define WL_MASK(n) (WL_BIT(n) - 1u)",
	"#define WL_GOLDEN 0x9e3779b9u",
	"",
	"#if defined(__GNUC__)",
	"#define WL_LIKELY(x) __builtin_expect(!!(x), 1)",
	"#define WL_UNLIKELY(x) __builtin_expect(!!(x), 0)",
	"#else",
	"#define WL_LIKELY(x) (x)",
	"#define WL_UNLIKELY(x) (x)",
	"#endif",
	"",
	"static inline uint32_t wl_rotl32(uint32_t x, unsigned r)",
	"{",
	"\tr &= 31u;",
	"\treturn r ? (x << r) | (x >> (32u - r)) : x;",
	"}",
	"",
	"static inline uint32_t wl_rotr32(uint32_t x, unsigned r)",
	"{",
	"\tr &= 31u;",
	"\treturn r ? (x >> r) | (x << (32u - r)) : x;",
	"}",
	"",
	"static inline unsigned wl_popcount32(uint32_t x)",
	"{",
	"\tunsigned n = 0;",
	"",
	"\twhile (x) {",
	"\t\tx &= x - 1u;",
	"\t\tn++;",
	"\t}",
	"\treturn n;",
	"}",
	"",
	"static inline unsigned wl_clz32(uint32_t x)",
	"{",
	"\tunsigned n = 0;",
	"",
	"\tif (!x)",
	"\t\treturn 32;",
	"\twhile (!(x & 0x80000000u)) {",
	"\t\tx <<= 1;",
	"\t\tn++;",
	"\t}",
	"\treturn n;",
	"}",
	"",
	"static inline uint32_t wl_bswap32(uint32_t x)",
	"{",
	"\treturn (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);",
	"}",
	"",
	"#endif",
	NULL
};

static const char *const wl_types_h[] = {
	"/* wl_types.h - the structures the units of the built-in workload share. */",
	"#ifndef WL_TYPES_H",
	"#define WL_TYPES_H",
	"",
	"#include \"wl_base.h\"",
	"",
	"enum wl_kind {",
	"\tWL_KIND_NONE,",
	"\tWL_KIND_ADD,",
	"\tWL_KIND_XOR,",
	"\tWL_KIND_ROT,",
	"\tWL_KIND_MUL,",
	"\tWL_KIND_SWAP,",
	"\tWL_KIND_LOAD,",
	"\tWL_KIND_STORE,",
	"\tWL_KIND_MAX",
	"};",
	"",
	"struct wl_pair {",
	"\tuint32_t key;",
	"\tuint32_t val;",
	"};",
	"",
	"struct wl_item {",
	"\tuint32_t key;",
	"\tuint32_t val;",
	"\tuint16_t flags;",
	"\tuint16_t prio;",
	"};",
	"",
	"struct wl_list {",
	"\tstruct wl_list *next, *prev;",
	"};",
	"",
	"struct wl_node {",
	"\tstruct wl_list link;",
	"\tuint32_t val;",
	"\tuint32_t aux;",
	"};",
	"",
	"#define WL_RING_SIZE 32u",
	"",
	"struct wl_ring {",
	"\tuint32_t slot[WL_RING_SIZE];",
	"\tunsigned head, tail;",
	"};",
	"",
	"struct wl_vec4 {",
	"\tint32_t v[4];",
	"};",
	"",
	"union wl_word {",
	"\tuint32_t u;",
	"\tint32_t s;",
	"\tuint16_t h[2];",
	"\tunsigned char c[4];",
	"};",
	"",
	"struct wl_state {",
	"\tenum wl_kind kind;",
	"\tuint32_t regs[8];",
	"\tunion wl_word w;",
	"\tstruct wl_pair last;",
	"};",
	"",
	"#endif",
	NULL
};

static const char *const wl_hash_h[] = {
	"/* wl_hash.h - small hash and checksum functions, inline. */",
	"#ifndef WL_HASH_H",
	"#define WL_HASH_H",
	"",
	"#include \"wl_base.h\"",
	"#include \"wl_types.h\"",
	"",
	"static inline uint32_t wl_mix32(uint32_t h)",
	"{",
	"\th ^= h >> 16;",
	"\th *= 0x85ebca6bu;",
	"\th ^= h >> 13;",
	"\th *= 0xc2b2ae35u;",
	"\th ^= h >> 16;",
	"\treturn h;",
	"}",
	"",
	"static inline uint32_t wl_fnv1a(const void *p, size_t n)",
	"{",
	"\tconst unsigned char *c = p;",
	"\tuint32_t h = 0x811c9dc5u;",
	"",
	"\twhile (n--) {",
	"\t\th ^= *c++;",
	"\t\th *= 0x01000193u;",
	"\t}",
	"\treturn h;",
	"}",
	"",
	"static inline uint32_t wl_crc32_small(const void *p, size_t n)",
	"{",
	"\tconst unsigned char *c = p;",
	"\tuint32_t crc = 0xffffffffu;",
	"\tunsigned k;",
	"",
	"\twhile (n--) {",
	"\t\tcrc ^= *c++;",
	"\t\tfor (k = 0; k < 8; k++)",
	"\t\t\tcrc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));",
	"\t}",
	"\treturn ~crc;",
	"}",
	"",
	"static inline uint32_t wl_hash_pair(const struct wl_pair *p)",
	"{",
	"\treturn wl_mix32(p->key ^ wl_rotl32(p->val, 13));",
	"}",
	"",
	"static inline uint32_t wl_hash_words(const uint32_t *w, size_t n, uint32_t seed)",
	"{",
	"\tuint32_t h = seed ^ WL_GOLDEN;",
	"\tsize_t i;",
	"",
	"\tfor (i = 0; i < n; i++)",
	"\t\th = wl_rotl32(h ^ wl_mix32(w[i]), 5) * 5u + 0xe6546b64u;",
	"\treturn wl_mix32(h ^ (uint32_t)n);",
	"}",
	"",
	"#endif",
	NULL
};

static const char *const wl_list_h[] = {
	"/* wl_list.h - intrusive doubly linked lists and a fixed ring, inline. */",
	"#ifndef WL_LIST_H",
	"#define WL_LIST_H",
	"",
	"#include \"wl_types.h\"",
	"",
	"#define wl_list_for_each(pos, head) \\",
	"\tfor ((pos) = (head)->next; (pos) != (head); (pos) = (pos)->next)",
	"#define wl_list_entry(p) WL_CONTAINER_OF(p, struct wl_node, link)",
	"",
	"static inline void wl_list_init(struct wl_list *h)",
	"{",
	"\th->next = h;",
	"\th->prev = h;",
	"}",
	"",
	"static inline int wl_list_empty(const struct wl_list *h)",
	"{",
	"\treturn h->next == h;",
	"}",
	"",
	"static inline void wl_list_insert(struct wl_list *n, struct wl_list *prev,",
	"\t\t\t\t  struct wl_list *next)",
	"{",
	"\tnext->prev = n;",
	"\tn->next = next;",
	"\tn->prev = prev;",
	"\tprev->next = n;",
	"}",
	"",
	"static inline void wl_list_add(struct wl_list *h, struct wl_list *n)",
	"{",
	"\twl_list_insert(n, h, h->next);",
	"}",
	"",
	"static inline void wl_list_add_tail(struct wl_list *h, struct wl_list *n)",
	"{",
	"\twl_list_insert(n, h->prev, h);",
	"}",
	"",
	"static inline void wl_list_del(struct wl_list *n)",
	"{",
	"\tn->next->prev = n->prev;",
	"\tn->prev->next = n->next;",
	"\tn->next = n;",
	"\tn->prev = n;",
	"}",
	"",
	"static inline void wl_ring_init(struct wl_ring *r)",
	"{",
	"\tr->head = 0;",
	"\tr->tail = 0;",
	"}",
	"",
	"static inline unsigned wl_ring_count(const struct wl_ring *r)",
	"{",
	"\treturn r->head - r->tail;",
	"}",
	"",
	"static inline int wl_ring_push(struct wl_ring *r, uint32_t v)",
	"{",
	"\tif (wl_ring_count(r) >= WL_RING_SIZE)",
	"\t\treturn -1;",
	"\tr->slot[r->head++ % WL_RING_SIZE] = v;",
	"\treturn 0;",
	"}",
	"",
	"static inline int wl_ring_pop(struct wl_ring *r, uint32_t *v)",
	"{",
	"\tif (!wl_ring_count(r))",
	"\t\treturn -1;",
	"\t*v = r->slot[r->tail++ % WL_RING_SIZE];",
	"\treturn 0;",
	"}",
	"",
	"#endif",
	NULL
};

static const char *const wl_fixed_h[] = {
	"/* wl_fixed.h - 16.16 fixed point, small vectors and item sorting, inline. */",
	"#ifndef WL_FIXED_H",
	"#define WL_FIXED_H",
	"",
	"#include \"wl_types.h\"",
	"",
	"typedef int32_t wl_fx;",
	"",
	"#define WL_FX_ONE ((wl_fx)0x10000)",
	"",
	"static inline wl_fx wl_fx_from(uint32_t v)",
	"{",
	"\treturn (wl_fx)(v & 0x7fffffu) - (wl_fx)0x400000;",
	"}",
	"",
	"static inline wl_fx wl_fx_mul(wl_fx a, wl_fx b)",
	"{",
	"\treturn (wl_fx)(((int64_t)a * b) / 65536);",
	"}",
	"",
	"static inline wl_fx wl_fx_add(wl_fx a, wl_fx b)",
	"{",
	"\treturn (wl_fx)((uint32_t)a + (uint32_t)b);",
	"}",
	"",
	"static inline void wl_vec4_set(struct wl_vec4 *v, uint32_t seed)",
	"{",
	"\tunsigned i;",
	"",
	"\tfor (i = 0; i < 4; i++)",
	"\t\tv->v[i] = wl_fx_from(wl_rotl32(seed, i * 7u) ^ (i * WL_GOLDEN));",
	"}",
	"",
	"static inline void wl_vec4_axpy(struct wl_vec4 *y, wl_fx a, const struct wl_vec4 *x)",
	"{",
	"\tunsigned i;",
	"",
	"\tfor (i = 0; i < 4; i++)",
	"\t\ty->v[i] = wl_fx_add(y->v[i], wl_fx_mul(a, x->v[i]));",
	"}",
	"",
	"static inline wl_fx wl_vec4_dot(const struct wl_vec4 *a, const struct wl_vec4 *b)",
	"{",
	"\twl_fx s = 0;",
	"\tunsigned i;",
	"",
	"\tfor (i = 0; i < 4; i++)",
	"\t\ts = wl_fx_add(s, wl_fx_mul(a->v[i], b->v[i]));",
	"\treturn s;",
	"}",
	"",
	"static inline int wl_item_before(const struct wl_item *a, const struct wl_item *b)",
	"{",
	"\tif (a->prio != b->prio)",
	"\t\treturn a->prio > b->prio;",
	"\treturn a->key < b->key;",
	"}",
	"",
	"static inline void wl_items_sort(struct wl_item *it, size_t n)",
	"{",
	"\tsize_t i, j;",
	"",
	"\tfor (i = 1; i < n; i++) {",
	"\t\tstruct wl_item t = it[i];",
	"",
	"\t\tfor (j = i; j > 0 && wl_item_before(&t, &it[j - 1]); j--)",
	"\t\t\tit[j] = it[j - 1];",
	"\t\tit[j] = t;",
	"\t}",
	"}",
	"",
	"static inline uint32_t wl_item_fold(const struct wl_item *it, uint32_t acc)",
	"{",
	"\tacc ^= it->key + wl_rotl32(it->val, it->flags & 31u);",
	"\treturn acc * 0x9e3779b1u + it->prio;",
	"}",
	"",
	"#endif",
	NULL
};

static const char *const wl_common_h[] = {
	"/* wl_common.h - out-of-line helpers of the built-in workload (common.c). */",
	"#ifndef WL_COMMON_H",
	"#define WL_COMMON_H",
	"",
	"#include \"wl_types.h\"",
	"",
	"uint32_t wl_common_step(uint32_t acc, uint32_t v);",
	"uint32_t wl_common_fold(const uint32_t *p, size_t n);",
	"void wl_common_state_init(struct wl_state *s, uint32_t seed);",
	"uint32_t wl_common_state_run(struct wl_state *s, unsigned steps);",
	"",
	"#endif",
	NULL
};

static const char *const common_c[] = {
	"/* common.c - out-of-line helpers every unit of the built-in workload calls. */",
	"#include \"wl_common.h\"",
	"#include \"wl_hash.h\"",
	"",
	"uint32_t wl_common_step(uint32_t acc, uint32_t v)",
	"{",
	"\treturn wl_rotl32(acc, 7) ^ wl_mix32(v + WL_GOLDEN);",
	"}",
	"",
	"uint32_t wl_common_fold(const uint32_t *p, size_t n)",
	"{",
	"\treturn wl_hash_words(p, n, (uint32_t)n);",
	"}",
	"",
	"void wl_common_state_init(struct wl_state *s, uint32_t seed)",
	"{",
	"\tunsigned i;",
	"",
	"\ts->kind = (enum wl_kind)(seed % WL_KIND_MAX);",
	"\tfor (i = 0; i < WL_ARRAY_SIZE(s->regs); i++)",
	"\t\ts->regs[i] = wl_mix32(seed + i);",
	"\ts->w.u = seed;",
	"\ts->last.key = 0;",
	"\ts->last.val = 0;",
	"}",
	"",
	"uint32_t wl_common_state_run(struct wl_state *s, unsigned steps)",
	"{",
	"\tuint32_t *r = s->regs;",
	"",
	"\twhile (steps--) {",
	"\t\tunsigned d = s->w.c[0] & 7u, e = s->w.c[1] & 7u;",
	"",
	"\t\tswitch (s->kind) {",
	"\t\tcase WL_KIND_ADD:",
	"\t\t\tr[d] += r[e];",
	"\t\t\tbreak;",
	"\t\tcase WL_KIND_XOR:",
	"\t\t\tr[d] ^= r[e];",
	"\t\t\tbreak;",
	"\t\tcase WL_KIND_ROT:",
	"\t\t\tr[d] = wl_rotl32(r[d], r[e]);",
	"\t\t\tbreak;",
	"\t\tcase WL_KIND_MUL:",
	"\t\t\tr[d] *= r[e] | 1u;",
	"\t\t\tbreak;",
	"\t\tcase WL_KIND_SWAP:",
	"\t\t\tWL_SWAP(uint32_t, r[d], r[e]);",
	"\t\t\tbreak;",
	"\t\tcase WL_KIND_LOAD:",
	"\t\t\tr[d] = s->last.val;",
	"\t\t\tbreak;",
	"\t\tcase WL_KIND_STORE:",
	"\t\t\ts->last.key = d;",
	"\t\t\ts->last.val = r[e];",
	"\t\t\tbreak;",
	"\t\tdefault:",
	"\t\t\tbreak;",
	"\t\t}",
	"\t\ts->w.u = wl_mix32(s->w.u ^ r[d]);",
	"\t\ts->kind = (enum wl_kind)(s->w.u % WL_KIND_MAX);",
	"\t}",
	"\treturn wl_hash_words(r, WL_ARRAY_SIZE(s->regs), s->last.val);",
	"}",
	NULL
};

/* ---- random expressions and statements --------------------------------- */

/* What the expression generator may use at this point. */
struct gen {
	struct buf *b;
	struct rng r;
	unsigned nvars;	/* a, b, c, d: the first nvars */
	unsigned nops;	/* wl_op_00 .. wl_op_<nops-1> */
	int tables;	/* the unit's tab32 and tab16 */
	const unsigned *hdrs;	/* the library headers the unit includes itself */
	unsigned nhdrs;
};

static const char *const vars[] = { "a", "b", "c", "d" };

static const char *pick_var(struct gen *g)
{
	return vars[rng_below(&g->r, g->nvars)];
}

static void emit_expr(struct gen *g, unsigned depth);

static void emit_binary(struct gen *g, unsigned depth)
{
	static const char *const ops[] = { "+", "-", "^", "|", "&", "*", "+", "^" };

	out(g->b, "(");
	emit_expr(g, depth - 1);
	out(g->b, " %s ", ops[rng_below(&g->r, 8)]);
	emit_expr(g, depth - 1);
	out(g->b, ")");
}

static void emit_unary(struct gen *g, unsigned depth)
{
	unsigned k = rng_below(&g->r, 6);

	out(g->b, "(");
	emit_expr(g, depth - 1);
	switch (k) {
	case 0:
		out(g->b, " >> %u)", rng_range(&g->r, 1, 31));
		break;
	case 1:
		out(g->b, " << %u)", rng_range(&g->r, 1, 31));
		break;
	case 2:
		out(g->b, " / 0x%xu)", rng_range(&g->r, 3, 0xffff));
		break;
	case 3:
		out(g->b, " %% 0x%xu)", rng_range(&g->r, 3, 0xffff));
		break;
	default:
		out(g->b, " * 0x%08xu)", rng_next(&g->r) | 1u);
		break;
	}
}

static void emit_call(struct gen *g, unsigned depth)
{
	unsigned k = rng_below(&g->r, 4);

	if (k == 0 && g->nops) {
		out(g->b, "wl_op_%02u(", rng_below(&g->r, g->nops));
		emit_expr(g, depth - 1);
		out(g->b, ", ");
		emit_expr(g, depth - 1);
		out(g->b, ")");
	} else if (k == 1 && g->tables) {
		out(g->b, "tab32[(");
		emit_expr(g, depth - 1);
		out(g->b, ") & 255u]");
	} else if (k == 2 && g->tables) {
		out(g->b, "(uint32_t)tab16[(");
		emit_expr(g, depth - 1);
		out(g->b, ") & 127u]");
	} else if (k == 3) {
		out(g->b, "wl_mix32(");
		emit_expr(g, depth - 1);
		out(g->b, ")");
	} else {
		out(g->b, "wl_rotl32(");
		emit_expr(g, depth - 1);
		out(g->b, ", %uu)", rng_range(&g->r, 1, 31));
	}
}

static void emit_cond(struct gen *g, unsigned depth)
{
	out(g->b, "((");
	emit_expr(g, depth - 1);
	out(g->b, " & 0x%xu) ? ", rng_next(&g->r) & 0xffff);
	emit_expr(g, depth - 1);
	out(g->b, " : ");
	emit_expr(g, depth - 1);
	out(g->b, ")");
}

/* k in 3..11 picks the kind of a compound expression. */
static void emit_compound(struct gen *g, unsigned depth, unsigned k)
{
	if (k < 6)
		emit_binary(g, depth);
	else if (k < 8)
		emit_unary(g, depth);
	else if (k < 11)
		emit_call(g, depth);
	else
		emit_cond(g, depth);
}

/* An expression of type uint32_t over the variables; no undefined behaviour:
 * unsigned arithmetic, constant shifts in 1..31, constant divisors. */
static void emit_expr(struct gen *g, unsigned depth)
{
	unsigned k = rng_below(&g->r, depth ? 12 : 3);

	if (k < 2)
		out(g->b, "%s", pick_var(g));
	else if (k == 2)
		out(g->b, "0x%08xu", rng_next(&g->r));
	else
		emit_compound(g, depth, k);
}

/* Not a bare variable or constant: no `a = a;` (clang -Wself-assign). */
static void emit_rhs(struct gen *g, unsigned depth)
{
	emit_compound(g, depth, rng_range(&g->r, 3, 11));
}

static void emit_stmt(struct gen *g, const char *ind)
{
	static const char *const asg[] = { "=", "+=", "-=", "^=", "^=", "+=" };
	unsigned k = rng_below(&g->r, 8);

	if (k < 6) {
		out(g->b, "%s%s %s ", ind, pick_var(g), asg[k]);
		emit_rhs(g, 3);
		out(g->b, ";\n");
	} else if (k == 6) {
		out(g->b, "%sif ((", ind);
		emit_expr(g, 2);
		out(g->b, ") & 0x%xu)\n%s\t%s = ", rng_next(&g->r) & 0xffff, ind,
		    pick_var(g));
		emit_rhs(g, 3);
		out(g->b, ";\n%selse\n%s\t%s ^= ", ind, ind, pick_var(g));
		emit_rhs(g, 3);
		out(g->b, ";\n");
	} else {
		out(g->b, "%s%s = wl_common_step(%s, ", ind, pick_var(g), pick_var(g));
		emit_expr(g, 2);
		out(g->b, ");\n");
	}
}

static void emit_stmts(struct gen *g, const char *ind, unsigned lo, unsigned hi)
{
	unsigned n = rng_range(&g->r, lo, hi);

	while (n--)
		emit_stmt(g, ind);
}

/* ---- function templates ------------------------------------------------ */

/* A kind of function: its name, its locals beside a .. d, and its body
 * (which ends with the return).  Every one is `uint32_t f(uint32_t x)`. */
struct template {
	const char *name;
	const char *locals;
	void (*body)(struct gen *g);
};

static void emit_return(struct gen *g)
{
	out(g->b, "\treturn a ^ b ^ c ^ d;\n");
}

static void body_mix(struct gen *g)
{
	out(g->b, "\tfor (i = 0; i < %uu; i++) {\n", rng_range(&g->r, 8, 200));
	out(g->b, "\t\ta ^= i * 0x%08xu;\n", rng_next(&g->r) | 1u);
	emit_stmts(g, "\t\t", 4, 9);
	out(g->b, "\t}\n");
	emit_stmts(g, "\t", 1, 3);
	emit_return(g);
}

static void body_fsm(struct gen *g)
{
	unsigned ncase = rng_range(&g->r, 6, 14), i;

	out(g->b, "\tst = x %% %uu;\n", ncase + 1);
	out(g->b, "\tfor (i = 0; i < %uu; i++) {\n\t\tswitch (st) {\n",
	    rng_range(&g->r, 16, 128));
	for (i = 0; i < ncase; i++) {
		out(g->b, "\t\tcase %u:\n", i);
		emit_stmts(g, "\t\t\t", 1, 3);
		out(g->b, "\t\t\tst = (%s >> %u) %% %uu;\n\t\t\tbreak;\n",
		    pick_var(g), rng_range(&g->r, 0, 24), ncase + 1);
	}
	out(g->b, "\t\tdefault:\n");
	emit_stmts(g, "\t\t\t", 1, 2);
	out(g->b, "\t\t\tst = (a ^ i) %% %uu;\n\t\t\tbreak;\n\t\t}\n\t}\n",
	    ncase + 1);
	emit_return(g);
}

static void body_items(struct gen *g)
{
	unsigned n = rng_range(&g->r, 8, 32);

	out(g->b, "\tfor (i = 0; i < %uu; i++) {\n", n);
	emit_stmts(g, "\t\t", 1, 3);
	out(g->b, "\t\tit[i].key = ");
	emit_expr(g, 2);
	out(g->b, ";\n\t\tit[i].val = ");
	emit_expr(g, 2);
	out(g->b, ";\n\t\tit[i].flags = (uint16_t)(%s & 0xffffu);\n", pick_var(g));
	out(g->b, "\t\tit[i].prio = (uint16_t)((%s >> %u) & 7u);\n\t}\n",
	    pick_var(g), rng_range(&g->r, 0, 28));
	out(g->b, "\twl_items_sort(it, %uu);\n", n);
	out(g->b, "\tfor (i = 0; i < %uu; i++) {\n", n);
	out(g->b, "\t\ta = wl_item_fold(&it[i], a);\n");
	emit_stmts(g, "\t\t", 1, 2);
	out(g->b, "\t}\n");
	emit_return(g);
}

static void body_bytes(struct gen *g)
{
	out(g->b, "\tfor (i = 0; i < sizeof(buf); i++) {\n");
	emit_stmts(g, "\t\t", 1, 2);
	out(g->b, "\t\tbuf[i] = (unsigned char)(");
	emit_expr(g, 2);
	out(g->b, ");\n\t}\n");
	out(g->b, "\ta ^= wl_fnv1a(buf, sizeof(buf));\n");
	out(g->b, "\tmemmove(buf + %u, buf, %u);\n", rng_range(&g->r, 1, 32),
	    rng_range(&g->r, 16, 64));
	out(g->b, "\tb += wl_crc32_small(buf + %u, %u);\n", rng_range(&g->r, 0, 16),
	    rng_range(&g->r, 16, 64));
	emit_stmts(g, "\t", 1, 3);
	emit_return(g);
}

static void body_mat(struct gen *g)
{
	unsigned n = rng_range(&g->r, 4, 8);

	out(g->b, "\tfor (i = 0; i < %uu; i++) {\n\t\tfor (j = 0; j < %uu; j++)\n", n, n);
	out(g->b, "\t\t\tm[i][j] = tab32[(i * %uu + j + a) & 255u] ^ (b + j);\n", n);
	out(g->b, "\t\tv[i] = ");
	emit_expr(g, 2);
	out(g->b, " + i;\n\t}\n");
	out(g->b, "\tfor (k = 0; k < %uu; k++) {\n", rng_range(&g->r, 2, 12));
	out(g->b, "\t\tfor (i = 0; i < %uu; i++) {\n\t\t\tuint32_t s = 0;\n\n", n);
	out(g->b, "\t\t\tfor (j = 0; j < %uu; j++)\n\t\t\t\ts += m[i][j] * v[j];\n", n);
	out(g->b, "\t\t\tw[i] = s ^ (s >> %u);\n\t\t}\n", rng_range(&g->r, 1, 31));
	out(g->b, "\t\tfor (i = 0; i < %uu; i++)\n\t\t\tv[i] = w[i] + c;\n", n);
	emit_stmts(g, "\t\t", 1, 3);
	out(g->b, "\t}\n\tfor (i = 0; i < %uu; i++)\n", n);
	out(g->b, "\t\td ^= wl_rotl32(v[i], i);\n");
	emit_return(g);
}

static void body_list(struct gen *g)
{
	unsigned n = rng_range(&g->r, 6, 16);

	out(g->b, "\twl_list_init(&head);\n\twl_ring_init(&ring);\n");
	out(g->b, "\tfor (i = 0; i < %uu; i++) {\n\t\tpool[i].val = ", n);
	emit_expr(g, 2);
	out(g->b, ";\n\t\tpool[i].aux = i;\n");
	out(g->b, "\t\tif (pool[i].val & 1u)\n\t\t\twl_list_add(&head, &pool[i].link);\n");
	out(g->b, "\t\telse\n\t\t\twl_list_add_tail(&head, &pool[i].link);\n");
	emit_stmts(g, "\t\t", 1, 2);
	out(g->b, "\t}\n\twl_list_for_each(pos, &head) {\n");
	out(g->b, "\t\tstruct wl_node *e = wl_list_entry(pos);\n\n");
	out(g->b, "\t\tif (wl_ring_push(&ring, e->val ^ %s))\n\t\t\tbreak;\n", pick_var(g));
	out(g->b, "\t\tc += e->aux;\n\t}\n");
	out(g->b, "\twhile (!wl_ring_pop(&ring, &v)) {\n\t\ta ^= v;\n");
	emit_stmts(g, "\t\t", 1, 2);
	out(g->b, "\t}\n\twhile (!wl_list_empty(&head))\n\t\twl_list_del(head.next);\n");
	emit_return(g);
}

static void body_find(struct gen *g)
{
	out(g->b, "\tfor (i = 0; i < %uu; i++) {\n", rng_range(&g->r, 8, 64));
	out(g->b, "\t\tsize_t lo = 0, hi = WL_ARRAY_SIZE(pairs);\n\t\tuint32_t key = ");
	emit_expr(g, 2);
	out(g->b, ";\n\n\t\twhile (lo < hi) {\n\t\t\tsize_t mid = lo + (hi - lo) / 2;\n\n");
	out(g->b, "\t\t\tif (pairs[mid].key < key)\n\t\t\t\tlo = mid + 1;\n");
	out(g->b, "\t\t\telse\n\t\t\t\thi = mid;\n\t\t}\n");
	out(g->b, "\t\t%s ^= lo < WL_ARRAY_SIZE(pairs) ? wl_hash_pair(&pairs[lo]) : key;\n",
	    pick_var(g));
	emit_stmts(g, "\t\t", 1, 3);
	out(g->b, "\t}\n");
	emit_return(g);
}

static void body_state(struct gen *g)
{
	out(g->b, "\twl_common_state_init(&s, x ^ 0x%08xu);\n", rng_next(&g->r));
	out(g->b, "\twl_vec4_set(&p, b);\n\twl_vec4_set(&q, c);\n");
	out(g->b, "\tfor (i = 0; i < %uu; i++) {\n", rng_range(&g->r, 4, 32));
	out(g->b, "\t\twl_vec4_axpy(&p, wl_fx_from(%s), &q);\n", pick_var(g));
	out(g->b, "\t\ts.regs[i & 7u] ^= ");
	emit_expr(g, 2);
	out(g->b, ";\n\t\td += (uint32_t)wl_vec4_dot(&p, &q);\n");
	emit_stmts(g, "\t\t", 1, 3);
	out(g->b, "\t}\n\ta ^= wl_common_state_run(&s, %uu);\n", rng_range(&g->r, 8, 64));
	emit_return(g);
}

/* Fill an object of one of the unit's library headers and run the header's
 * inline functions on it, as kernel code calls its headers' helpers. */
static void body_hdr(struct gen *g)
{
	unsigned h = g->hdrs[rng_below(&g->r, g->nhdrs)], i, n;

	out(g->b, "\tstruct wl_h%03u_obj o;\n\n\tmemset(&o, 0, sizeof(o));\n", h);
	for (i = 0; i < 8; i++) {
		out(g->b, "\to.f%u = ", i);
		emit_expr(g, 2);
		out(g->b, ";\n");
	}
	out(g->b, "\tfor (i = 0; i < %uu; i++) {\n", rng_range(&g->r, 4, 64));
	for (n = rng_range(&g->r, 2, 4); n; n--)
		out(g->b, "\t\t%s ^= wl_h%03u_inl%u(&o, %s, i);\n", pick_var(g), h,
		    rng_below(&g->r, INLINES), pick_var(g));
	emit_stmts(g, "\t\t", 1, 3);
	out(g->b, "\t\to.f%u += a;\n\t}\n", rng_below(&g->r, 8));
	emit_return(g);
}

/* Drawn with equal chances; a kind listed twice is twice as likely. */
static const struct template templates[] = {
	{ "mix", "\tunsigned i;\n", body_mix },
	{ "mix", "\tunsigned i;\n", body_mix },
	{ "fsm", "\tunsigned i, st;\n", body_fsm },
	{ "fsm", "\tunsigned i, st;\n", body_fsm },
	{ "items", "\tstruct wl_item it[32];\n\tunsigned i;\n", body_items },
	{ "bytes", "\tunsigned char buf[96];\n\tunsigned i;\n", body_bytes },
	{ "mat", "\tuint32_t m[8][8], v[8], w[8];\n\tunsigned i, j, k;\n", body_mat },
	{ "list", "\tstruct wl_node pool[16];\n\tstruct wl_list head, *pos;\n"
		  "\tstruct wl_ring ring;\n\tuint32_t v;\n\tunsigned i;\n", body_list },
	{ "find", "\tunsigned i;\n", body_find },
	{ "state", "\tstruct wl_state s;\n\tstruct wl_vec4 p, q;\n\tunsigned i;\n",
	  body_state },
	{ "hdr", "\tunsigned i;\n", body_hdr },
	{ "hdr", "\tunsigned i;\n", body_hdr },
	{ "hdr", "\tunsigned i;\n", body_hdr },
};

static void emit_function(struct gen *g, unsigned unit, unsigned fn,
			  const struct template *t)
{
	struct rng *r = &g->r;

	out(g->b, "static uint32_t u%04u_%s%02u(uint32_t x)\n{\n", unit, t->name, fn);
	out(g->b, "\tuint32_t a = x, b = 0x%08xu, c = 0x%08xu, d = 0x%08xu;\n",
	    rng_next(r), rng_next(r), rng_next(r));
	out(g->b, "%s\n", t->locals);
	t->body(g);
	out(g->b, "}\n\n");
}

/* ---- the directories --------------------------------------------------- */

/* Kernel-like directories, each parent before its children.  A unit lands
 * in one with a chance proportional to its weight; a directory with no
 * object in it or below it is left out of the tree. */
static const struct wl_dir {
	const char *path;
	unsigned weight;
} wl_dirs[] = {
	{ "init", 1 }, { "kernel", 5 }, { "kernel/sched", 2 }, { "kernel/time", 2 },
	{ "kernel/irq", 1 }, { "mm", 5 }, { "fs", 5 }, { "fs/proc", 2 }, { "fs/ramfs", 1 },
	{ "ipc", 1 }, { "security", 1 }, { "block", 2 }, { "lib", 6 }, { "lib/math", 1 },
	{ "drivers", 0 }, { "drivers/base", 3 }, { "drivers/char", 2 }, { "drivers/tty", 2 },
	{ "arch", 0 }, { "arch/wl", 0 }, { "arch/wl/kernel", 4 }, { "arch/wl/mm", 2 },
	{ "arch/wl/lib", 2 },
};

#define NDIRS COUNT(wl_dirs)
#define DIR_INIT 0		/* init/main.c */
#define DIR_LIB 12		/* lib/common.c */

/* The unit's generator, seeded by its index alone, and the directory it
 * draws first. */
static unsigned unit_start(struct rng *r, unsigned unit)
{
	unsigned total = 0, k, d;

	r->s = SEED + (uint64_t)unit * 0x100000001b3ull;
	for (d = 0; d < NDIRS; d++)
		total += wl_dirs[d].weight;
	k = rng_below(r, total);
	for (d = 0; k >= wl_dirs[d].weight; d++)
		k -= wl_dirs[d].weight;
	return d;
}

static unsigned unit_dir(unsigned unit)
{
	struct rng r;

	return unit_start(&r, unit);
}

/* The parent's index, or NDIRS for a top-level directory. */
static unsigned dir_parent(unsigned d)
{
	const char *slash = strrchr(wl_dirs[d].path, '/');
	size_t n;
	unsigned p;

	if (!slash)
		return NDIRS;
	n = (size_t)(slash - wl_dirs[d].path);
	for (p = 0; p < d; p++)
		if (strlen(wl_dirs[p].path) == n && !strncmp(wl_dirs[p].path, wl_dirs[d].path, n))
			return p;
	return NDIRS;	/* not reached: the table lists every parent first */
}

/* present[d]: d holds an object or has a directory below it that does. */
static void dirs_present(unsigned scale, int *present)
{
	unsigned d, i;

	memset(present, 0, NDIRS * sizeof(*present));
	present[DIR_INIT] = present[DIR_LIB] = 1;
	for (i = 0; i < scale; i++)
		present[unit_dir(i)] = 1;
	for (d = NDIRS; d-- > 0;)
		if (present[d] && dir_parent(d) < NDIRS)
			present[dir_parent(d)] = 1;
}

/* ---- the header library ------------------------------------------------ */

/* Every unit includes wl/kernel.h (the core headers), the headers of its
 * directory's group and a few others, each of which includes more: as in
 * the kernel, reading and parsing headers is much of a unit's compile. */
static void hdr_deps_init(struct rng *r, unsigned h)
{
	r->s = SEED ^ (0x6864720000ull + h);
}

/* The headers h includes, lower-numbered only (no cycle): a core header the
 * one before it and another core one; a group's header the one before it in
 * its group and two core ones. */
static unsigned hdr_deps(struct rng *r, unsigned h, unsigned *dep)
{
	unsigned n = 0;

	if (h < NCORE) {
		if (h > 0)
			dep[n++] = h - 1;
		if (h > 1)
			dep[n++] = rng_below(r, h - 1);
	} else {
		if ((h - NCORE) % NGROUP)
			dep[n++] = h - 1;
		dep[n++] = rng_below(r, NCORE);
		dep[n++] = rng_below(r, NCORE);
	}
	return n;
}

static void gen_lib_header(struct buf *b, unsigned h)
{
	struct gen g = { .b = b, .nvars = 4 };
	unsigned dep[3], ndep, i, k;

	hdr_deps_init(&g.r, h);
	ndep = hdr_deps(&g.r, h, dep);
	out(b, "/* wl/h%03u.h - generated by contest (built-in workload v%d). */\n",
	    h, BUILTIN_VERSION);
	out(b, "#ifndef WL_H%03u_H\n#define WL_H%03u_H\n\n", h, h);
	out(b, "#include \"wl_common.h\"\n#include \"wl_hash.h\"\n#include \"wl_list.h\"\n");
	for (i = 0; i < ndep; i++)
		out(b, "#include \"wl/h%03u.h\"\n", dep[i]);
	out(b, "\n#define WL_H%03u_MAGIC 0x%08xu\n", h, rng_next(&g.r));
	for (i = 0; i < 8; i++)
		out(b, "#define WL_H%03u_FLAG_%u WL_BIT(%u)\n", h, i, rng_below(&g.r, 32));
	out(b, "#define WL_H%03u_GET(o, f, n) (((o)->f >> (n)) & WL_MASK(%u))\n", h,
	    rng_range(&g.r, 1, 16));
	for (i = 0; i < 2; i++) {
		k = rng_below(&g.r, NCONFIG);
		out(b, "\n#ifdef WL_CONFIG_OPT_%02u\n#define WL_H%03u_OPT%u 0x%xu\n", k, h, i,
		    rng_next(&g.r) & 0xffff);
		out(b, "#else\n#define WL_H%03u_OPT%u 0u\n#endif\n", h, i);
	}
	out(b, "\nenum wl_h%03u_state {\n", h);
	for (i = 0; i < 8; i++)
		out(b, "\tWL_H%03u_S%u,\n", h, i);
	out(b, "};\n\nstruct wl_h%03u_obj;\n\nstruct wl_h%03u_ops {\n", h, h);
	for (i = 0; i < 4; i++)
		out(b, "\tuint32_t (*op%u)(struct wl_h%03u_obj *o, uint32_t x);\n", i, h);
	out(b, "};\n\nstruct wl_h%03u_obj {\n", h);
	for (i = 0; i < 8; i++)
		out(b, "\tuint32_t f%u;\n", i);
	out(b, "\tuint16_t g0, g1;\n\tenum wl_h%03u_state state;\n\tstruct wl_list link;\n", h);
	for (i = 0; i < ndep; i++)
		out(b, "\tstruct wl_h%03u_obj *dep%u;\n", dep[i], i);
	out(b, "\tconst struct wl_h%03u_ops *ops;\n};\n\n", h);
	for (i = 0; i < 6; i++)
		out(b, "uint32_t wl_h%03u_fn%u(struct wl_h%03u_obj *o, uint32_t x);\n", h, i, h);
	for (i = 0; i < INLINES; i++) {
		out(b, "\nstatic inline uint32_t wl_h%03u_inl%u(const struct wl_h%03u_obj *o,\n"
		    "\t\t\t\t       uint32_t a, uint32_t b)\n{\n", h, i, h);
		out(b, "\tuint32_t c = o->f%u ^ WL_H%03u_OPT%u;\n", rng_below(&g.r, 8), h, i & 1);
		out(b, "\tuint32_t d = WL_H%03u_GET(o, f%u, %u) ^ WL_H%03u_MAGIC;\n\n", h,
		    rng_below(&g.r, 8), rng_range(&g.r, 0, 15), h);
		emit_stmts(&g, "\t", 3, 6);
		out(b, "\treturn a ^ b ^ c ^ d;\n}\n");
	}
	out(b, "\n#endif\n");
}

static void gen_kernel_header(struct buf *b, unsigned scale)
{
	unsigned h;

	(void)scale;	/* the same for every scale */
	out(b, "/* wl/kernel.h - the core headers, which every unit includes. */\n");
	out(b, "#ifndef WL_KERNEL_H\n#define WL_KERNEL_H\n\n");
	for (h = 0; h < NCORE; h++)
		out(b, "#include \"wl/h%03u.h\"\n", h);
	out(b, "\n#endif\n");
}

/* Half the options set, as a configuration would: the library's #ifdefs and
 * wl_fixdep's scan look for them.  Every compile includes it (-include). */
static void gen_autoconf(struct buf *b, unsigned scale)
{
	struct rng r = { SEED ^ 0xc0f1ull };
	unsigned i;

	(void)scale;
	out(b, "/* autoconf.h - the workload's configuration (generated). */\n");
	for (i = 0; i < NCONFIG; i++)
		if (rng_below(&r, 2))
			out(b, "#define WL_CONFIG_OPT_%02u 1\n", i);
}

/* ---- the units --------------------------------------------------------- */

static void gen_units_header(struct buf *b, unsigned scale)
{
	unsigned i;

	out(b, "/* wl_units.h - the entry point of every unit (%u units). */\n", scale);
	out(b, "#ifndef WL_UNITS_H\n#define WL_UNITS_H\n\n#include <stdint.h>\n\n");
	for (i = 0; i < scale; i++)
		out(b, "uint32_t unit_%04u_run(uint32_t seed);\n", i);
	out(b, "\n#endif\n");
}

static void emit_tables(struct gen *g)
{
	uint32_t key = 0;
	unsigned i;

	out(g->b, "static const uint32_t tab32[256] = {");
	for (i = 0; i < 256; i++)
		out(g->b, "%s0x%08xu,", i % 6 ? " " : "\n\t", rng_next(&g->r));
	out(g->b, "\n};\n\nstatic const uint16_t tab16[128] = {");
	for (i = 0; i < 128; i++)
		out(g->b, "%s0x%04x,", i % 10 ? " " : "\n\t", rng_next(&g->r) & 0xffff);
	out(g->b, "\n};\n\n/* sorted by key */\nstatic const struct wl_pair pairs[%u] = {\n",
	    NPAIRS);
	for (i = 0; i < NPAIRS; i++) {
		key += 1 + (rng_next(&g->r) >> 5);
		out(g->b, "\t{ 0x%08xu, 0x%08xu },\n", key, rng_next(&g->r));
	}
	out(g->b, "};\n\n");
}

static void emit_run(struct gen *g, unsigned unit, const struct template **fns,
		     unsigned nfns)
{
	unsigned i;

	out(g->b, "static uint32_t (*const fns[])(uint32_t) = {\n");
	for (i = 0; i < nfns; i++)
		out(g->b, "\tu%04u_%s%02u,\n", unit, fns[i]->name, i);
	out(g->b, "};\n\nuint32_t unit_%04u_run(uint32_t seed);\n\n", unit);
	out(g->b, "uint32_t unit_%04u_run(uint32_t seed)\n{\n", unit);
	out(g->b, "\tuint32_t acc = seed ^ 0x%08xu;\n\tsize_t i;\n\n", rng_next(&g->r));
	out(g->b, "\tfor (i = 0; i < WL_ARRAY_SIZE(fns); i++)\n");
	out(g->b, "\t\tacc = wl_common_step(acc, fns[i](acc + (uint32_t)i));\n");
	out(g->b, "\tacc ^= wl_common_fold(tab32, WL_ARRAY_SIZE(tab32));\n");
	out(g->b, "\tacc ^= wl_hash_pair(&pairs[acc %% WL_ARRAY_SIZE(pairs)]);\n");
	out(g->b, "\treturn acc + tab16[acc & 127u];\n}\n");
}

/* Unit `unit`, in the directory it draws; its path in path. */
static void gen_unit(struct buf *b, unsigned unit, char *path, size_t size)
{
	struct gen g = { .b = b, .nvars = 4, .nops = NOPS, .tables = 1 };
	const struct template *fns[FNS_MAX];
	unsigned hdrs[NGROUP + NEXTRA], d, n, i;

	d = unit_start(&g.r, unit);
	snprintf(path, size, "%s/unit_%04u.c", wl_dirs[d].path, unit);
	for (i = 0; i < NGROUP; i++)
		hdrs[i] = NCORE + d % NGROUPS * NGROUP + i;
	for (; i < COUNT(hdrs); i++)
		hdrs[i] = rng_range(&g.r, NCORE, NHDRS - 1);
	g.hdrs = hdrs;
	g.nhdrs = COUNT(hdrs);
	out(b, "/* %s - generated by contest (built-in workload v%d). */\n", path,
	    BUILTIN_VERSION);
	out(b, "#include <stddef.h>\n#include <stdint.h>\n#include <string.h>\n\n");
	out(b, "#include \"wl_base.h\"\n#include \"wl_types.h\"\n#include \"wl_hash.h\"\n");
	out(b, "#include \"wl_list.h\"\n#include \"wl_fixed.h\"\n#include \"wl_ops.h\"\n");
	out(b, "#include \"wl_common.h\"\n#include \"wl/kernel.h\"\n");
	for (i = 0; i < COUNT(hdrs); i++)
		out(b, "#include \"wl/h%03u.h\"\n", hdrs[i]);
	out(b, "\n");
	emit_tables(&g);
	n = rng_range(&g.r, FNS_MIN, FNS_MAX);
	for (i = 0; i < n; i++) {
		fns[i] = &templates[rng_below(&g.r, COUNT(templates))];
		emit_function(&g, unit, i, fns[i]);
	}
	emit_run(&g, unit, fns, n);
}

static void gen_ops_header(struct buf *b, unsigned scale)
{
	struct gen g = { .b = b, .r = { SEED ^ 0xffffu }, .nvars = 2 };
	unsigned i;

	(void)scale;	/* the same for every scale */
	out(b, "/* wl_ops.h - generated inline operations on two words. */\n");
	out(b, "#ifndef WL_OPS_H\n#define WL_OPS_H\n\n");
	out(b, "#include \"wl_base.h\"\n#include \"wl_hash.h\"\n\n");
	for (i = 0; i < NOPS; i++) {
		out(b, "static inline uint32_t wl_op_%02u(uint32_t a, uint32_t b)\n{\n", i);
		out(b, "\treturn ");
		emit_expr(&g, 3);
		out(b, " ^ (a + wl_rotl32(b, %uu));\n}\n\n", rng_range(&g.r, 1, 31));
	}
	out(b, "#endif\n");
}

static void gen_main(struct buf *b, unsigned scale)
{
	unsigned i;

	out(b, "/* main.c - runs every unit of the built-in workload once. */\n");
	out(b, "#include <stdio.h>\n\n#include \"wl_base.h\"\n"
	    "#include \"generated/wl_units.h\"\n\n");
	out(b, "static uint32_t (*const units[])(uint32_t) = {\n");
	for (i = 0; i < scale; i++)
		out(b, "\tunit_%04u_run,\n", i);
	out(b, "};\n\nint main(int argc, char **argv)\n{\n");
	out(b, "\tuint32_t acc = (uint32_t)argc;\n\tsize_t i;\n\n\t(void)argv;\n");
	out(b, "\tfor (i = 0; i < WL_ARRAY_SIZE(units); i++)\n");
	out(b, "\t\tacc = units[i](acc + (uint32_t)i);\n");
	out(b, "\tprintf(\"%%08lx\\n\", (unsigned long)acc);\n\treturn 0;\n}\n");
}

/* ---- the build: kbuild's shape ----------------------------------------- */

/* One make per directory, as kbuild's scripts/Makefile.build: compile the
 * directory's objects, each followed by wl_fixdep, have a make of each
 * subdirectory build its built-in.o, then combine them all into this
 * directory's built-in.o (ld -r, as kbuild did before thin archives). */
static const char *const makefile_build[] = {
	"# Makefile.build - build the directory $(obj), as kbuild's Makefile.build does.",
	"",
	"obj-y :=",
	"subdir-y :=",
	"include $(obj)/Kbuild",
	"",
	"objs := $(addprefix $(obj)/,$(obj-y))",
	"subdirs := $(addprefix $(obj)/,$(subdir-y))",
	"subdir-builtins := $(addsuffix /built-in.o,$(subdirs))",
	"",
	"$(obj)/built-in.o: $(objs) $(subdir-builtins)",
	"\t@echo '  LD      $@'",
	"\t@$(CC) -nostdlib -r -o $@ $(objs) $(subdir-builtins)",
	"",
	"$(subdir-builtins): $(obj)/%/built-in.o: $(obj)/% ;",
	"",
	"$(subdirs):",
	"\t@$(MAKE) -f scripts/Makefile.build obj=$@",
	"",
	"$(objs): $(obj)/%.o: $(obj)/%.c",
	"\t@echo '  CC      $@'",
	"\t@set -e; $(CC) $(WL_CFLAGS) -Wp,-MMD,$(@D)/.$(@F).d -c -o $@ $<; \\",
	"\tscripts/wl_fixdep $(@D)/.$(@F).d $@ $(CC) $(WL_CFLAGS) -c -o $@ $< >$(@D)/.$(@F).cmd; \\",
	"\trm -f $(@D)/.$(@F).d",
	"",
	".PHONY: $(subdirs)",
	NULL
};

/* The kernel's scripts/basic/fixdep in small: a host program built first,
 * run after every compile, that turns the compiler's dependency file into a
 * .cmd file and reads every header the object depends on for the options
 * it mentions. */
static const char *const wl_fixdep_c[] = {
	"/* wl_fixdep.c - the built-in workload's fixdep: the compiler's dependency file",
	" * of TARGET to a .cmd file on stdout, with the options each header mentions. */",
	"#include <ctype.h>",
	"#include <stdio.h>",
	"#include <stdlib.h>",
	"#include <string.h>",
	"",
	"#define PREFIX \"WL_CONFIG_\"",
	"#define MAX_NAMES 256",
	"#define NAME_LEN 64",
	"",
	"static void die(const char *what)",
	"{",
	"\tperror(what);",
	"\texit(1);",
	"}",
	"",
	"static char *slurp(const char *path)",
	"{",
	"\tFILE *f = fopen(path, \"rb\");",
	"\tsize_t cap = 0, n = 0, got;",
	"\tchar *p = NULL;",
	"",
	"\tif (!f)",
	"\t\tdie(path);",
	"\tdo {",
	"\t\tif (cap - n < 4096) {",
	"\t\t\tcap = cap ? 2 * cap : 65536;",
	"\t\t\tp = realloc(p, cap + 1);",
	"\t\t\tif (!p)",
	"\t\t\t\tdie(\"realloc\");",
	"\t\t}",
	"\t\tgot = fread(p + n, 1, cap - n, f);",
	"\t\tn += got;",
	"\t} while (got);",
	"\tif (ferror(f))",
	"\t\tdie(path);",
	"\tfclose(f);",
	"\tp[n] = '\\0';",
	"\treturn p;",
	"}",
	"",
	"static void use_config(const char *s, size_t n)",
	"{",
	"\tstatic char names[MAX_NAMES][NAME_LEN];",
	"\tstatic unsigned count;",
	"\tunsigned i;",
	"",
	"\tif (n >= NAME_LEN)",
	"\t\treturn;",
	"\tfor (i = 0; i < count; i++)",
	"\t\tif (!strncmp(names[i], s, n) && !names[i][n])",
	"\t\t\treturn;",
	"\tif (count < MAX_NAMES) {",
	"\t\tmemcpy(names[count], s, n);",
	"\t\tnames[count++][n] = '\\0';",
	"\t}",
	"\tprintf(\"    $(wildcard include/config/\");",
	"\tfor (i = 0; i < n; i++)",
	"\t\tputchar(tolower((unsigned char)s[i]));",
	"\tprintf(\") \\\\\\n\");",
	"}",
	"",
	"static void scan(const char *p)",
	"{",
	"\tconst char *q = p, *s;",
	"",
	"\twhile ((q = strstr(q, PREFIX))) {",
	"\t\ts = q + strlen(PREFIX);",
	"\t\tfor (q = s; isalnum((unsigned char)*q) || *q == '_'; q++)",
	"\t\t\t;",
	"\t\tif (q > s)",
	"\t\t\tuse_config(s, (size_t)(q - s));",
	"\t}",
	"}",
	"",
	"int main(int argc, char **argv)",
	"{",
	"\tconst char *sep = \" \\t\\r\\n\\\\\";",
	"\tchar *dep, *tok, *file;",
	"\tint i, first = 1;",
	"",
	"\tif (argc < 4) {",
	"\t\tfprintf(stderr, \"usage: wl_fixdep DEPFILE TARGET COMMAND...\\n\");",
	"\t\treturn 2;",
	"\t}",
	"\tprintf(\"savedcmd_%s :=\", argv[2]);",
	"\tfor (i = 3; i < argc; i++)",
	"\t\tprintf(\" %s\", argv[i]);",
	"\tprintf(\"\\n\\n\");",
	"\tdep = slurp(argv[1]);",
	"\ttok = strchr(dep, ':');",
	"\tif (!tok) {",
	"\t\tfprintf(stderr, \"%s: no target\\n\", argv[1]);",
	"\t\treturn 1;",
	"\t}",
	"\tfor (tok = strtok(tok + 1, sep); tok; tok = strtok(NULL, sep)) {",
	"\t\tif (first)",
	"\t\t\tprintf(\"source_%s := %s\\n\\ndeps_%s := \\\\\\n\", argv[2], tok, argv[2]);",
	"\t\telse",
	"\t\t\tprintf(\"  %s \\\\\\n\", tok);",
	"\t\tfirst = 0;",
	"\t\tfile = slurp(tok);",
	"\t\tscan(file);",
	"\t\tfree(file);",
	"\t}",
	"\tprintf(\"\\n%s: $(deps_%s)\\n\\n$(deps_%s):\\n\", argv[2], argv[2], argv[2]);",
	"\tfree(dep);",
	"\treturn fflush(stdout) || ferror(stdout) ? 1 : 0;",
	"}",
	NULL
};

static void out_dir_builtins(struct buf *b, const int *present, int top_only)
{
	unsigned d;

	for (d = 0; d < NDIRS; d++)
		if (present[d] && (!top_only || dir_parent(d) == NDIRS))
			out(b, " \\\n\t%s%s", wl_dirs[d].path, top_only ? "" : "/built-in.o");
}

static void gen_makefile(struct buf *b, unsigned scale)
{
	int present[NDIRS];
	unsigned i, ndirs = 0;

	dirs_present(scale, present);
	for (i = 0; i < NDIRS; i++)
		ndirs += present[i] ? 1u : 0u;
	out(b, "# Makefile - contest built-in workload v%d, %u units in %u directories "
	    "(generated).\n", BUILTIN_VERSION, scale, ndirs);
	out(b, "# As kbuild: a host tool first, then one make per directory "
	    "(scripts/Makefile.build),\n# whose built-in.o are linked into $(PROG).\n\n");
	out(b, "MAKEFLAGS += --no-print-directory\nCFLAGS ?= -O2\nPROG = wl_prog\n");
	out(b, "WL_CFLAGS = $(CFLAGS) -Iinclude -include include/generated/autoconf.h\n");
	out(b, "export CFLAGS WL_CFLAGS\n\nDIRS =");
	out_dir_builtins(b, present, 1);
	out(b, "\n\nBUILTINS =");
	out_dir_builtins(b, present, 0);
	out(b, "\n\nOBJS = \\\n\tinit/main.o \\\n\tlib/common.o");
	for (i = 0; i < scale; i++)
		out(b, " \\\n\t%s/unit_%04u.o", wl_dirs[unit_dir(i)].path, i);
	out(b, "\n\nall: $(PROG)\n\n");
	out(b, "scripts/wl_fixdep: scripts/wl_fixdep.c\n\t$(CC) -O2 -o $@ scripts/wl_fixdep.c\n\n");
	out(b, "$(DIRS): scripts/wl_fixdep\n\t@$(MAKE) -f scripts/Makefile.build obj=$@\n\n");
	out(b, "$(PROG): $(DIRS)\n\t@echo '  LD      $@'\n");
	out(b, "\t@$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(addsuffix /built-in.o,$(DIRS))\n\n");
	out(b, "clean:\n\trm -f $(PROG) scripts/wl_fixdep $(BUILTINS) $(OBJS)\n");
	out(b, "\trm -f $(foreach o,$(OBJS),$(dir $(o)).$(notdir $(o)).cmd "
	    "$(dir $(o)).$(notdir $(o)).d)\n\n");
	out(b, ".PHONY: all clean $(DIRS)\n");
}

/* DIR/Kbuild: the directory's objects and subdirectories. */
static void gen_kbuild(struct buf *b, unsigned scale, unsigned d, const int *present)
{
	const char *path = wl_dirs[d].path;
	unsigned i, e;

	out(b, "# %s/Kbuild - generated by contest (built-in workload v%d).\n\nobj-y :=",
	    path, BUILTIN_VERSION);
	if (d == DIR_INIT)
		out(b, " \\\n\tmain.o");
	if (d == DIR_LIB)
		out(b, " \\\n\tcommon.o");
	for (i = 0; i < scale; i++)
		if (unit_dir(i) == d)
			out(b, " \\\n\tunit_%04u.o", i);
	out(b, "\n\nsubdir-y :=");
	for (e = d + 1; e < NDIRS; e++)
		if (present[e] && dir_parent(e) == d)
			out(b, " \\\n\t%s", wl_dirs[e].path + strlen(path) + 1);
	out(b, "\n");
}

/* Every file but the units, the library headers and the Kbuild files:
 * fixed text or generated. */
static const struct file {
	const char *name;
	const char *const *lines;
	void (*gen)(struct buf *b, unsigned scale);
} files[] = {
	{ "include/wl_base.h", wl_base_h, NULL },
	{ "include/wl_types.h", wl_types_h, NULL },
	{ "include/wl_hash.h", wl_hash_h, NULL },
	{ "include/wl_list.h", wl_list_h, NULL },
	{ "include/wl_fixed.h", wl_fixed_h, NULL },
	{ "include/wl_ops.h", NULL, gen_ops_header },
	{ "include/wl_common.h", wl_common_h, NULL },
	{ "include/wl/kernel.h", NULL, gen_kernel_header },
	{ "include/generated/autoconf.h", NULL, gen_autoconf },
	{ "include/generated/wl_units.h", NULL, gen_units_header },
	{ "scripts/Makefile.build", makefile_build, NULL },
	{ "scripts/wl_fixdep.c", wl_fixdep_c, NULL },
	{ "init/main.c", NULL, gen_main },
	{ "lib/common.c", common_c, NULL },
	{ "Makefile", NULL, gen_makefile },
};

/* ---- the interface ----------------------------------------------------- */

unsigned builtin_scale(int quick)
{
	return quick ? SCALE_QUICK : SCALE_DEFAULT;
}

static int gen_dirs(const char *dir, const int *present, char *why, size_t len)
{
	static const char *const fixed[] = {
		"include", "include/wl", "include/generated", "scripts",
	};
	unsigned d;

	for (d = 0; d < COUNT(fixed); d++)
		if (make_dir(dir, fixed[d], why, len))
			return -1;
	for (d = 0; d < NDIRS; d++)
		if (present[d] && make_dir(dir, wl_dirs[d].path, why, len))
			return -1;
	return 0;
}

static int gen_fixed(struct buf *b, const char *dir, unsigned scale,
		     char *why, size_t len)
{
	const struct file *f;

	for (f = files; f < files + COUNT(files); f++) {
		buf_reset(b);
		if (f->lines)
			out_lines(b, f->lines);
		else
			f->gen(b, scale);
		if (write_file(dir, f->name, b, why, len))
			return -1;
	}
	return 0;
}

static int gen_library(struct buf *b, const char *dir, char *why, size_t len)
{
	char name[32];
	unsigned h;

	for (h = 0; h < NHDRS; h++) {
		snprintf(name, sizeof(name), "include/wl/h%03u.h", h);
		buf_reset(b);
		gen_lib_header(b, h);
		if (write_file(dir, name, b, why, len))
			return -1;
	}
	return 0;
}

static int gen_kbuilds(struct buf *b, const char *dir, unsigned scale, const int *present,
		       char *why, size_t len)
{
	char name[64];
	unsigned d;

	for (d = 0; d < NDIRS; d++) {
		if (!present[d])
			continue;
		snprintf(name, sizeof(name), "%s/Kbuild", wl_dirs[d].path);
		buf_reset(b);
		gen_kbuild(b, scale, d, present);
		if (write_file(dir, name, b, why, len))
			return -1;
	}
	return 0;
}

static int gen_units(struct buf *b, const char *dir, unsigned scale,
		     char *why, size_t len)
{
	char name[64];
	unsigned i;

	for (i = 0; i < scale; i++) {
		buf_reset(b);
		gen_unit(b, i, name, sizeof(name));
		if (write_file(dir, name, b, why, len))
			return -1;
	}
	return 0;
}

int builtin_generate(const char *dir, unsigned scale, char *why, size_t len)
{
	int present[NDIRS];
	struct buf b;
	int rc;

	if (scale < 1 || scale > BUILTIN_SCALE_MAX)
		return whyf(why, len, "scale %u out of range (1-%u)", scale, BUILTIN_SCALE_MAX);
	dirs_present(scale, present);
	if (gen_dirs(dir, present, why, len))
		return -1;
	if (buf_init(&b))
		return whyf(why, len, "generate: %s", strerror(ENOMEM));
	rc = gen_fixed(&b, dir, scale, why, len);
	if (!rc)
		rc = gen_library(&b, dir, why, len);
	if (!rc)
		rc = gen_kbuilds(&b, dir, scale, present, why, len);
	if (!rc)
		rc = gen_units(&b, dir, scale, why, len);
	free(b.p);
	return rc;
}
