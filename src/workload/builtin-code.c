/* SPDX-License-Identifier: GPL-2.0-or-later */
/* builtin-code.c - the built-in workload's generated C: random expressions
 * and statements, the kinds of function they fill, the header library
 * include/wl/hNNN.h, the units, wl_ops.h and init/main.c.  What a file draws
 * comes from a generator seeded by its index or a constant, never by the
 * scale. */
#include "config.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "workload/builtin-internal.h"
#include "workload/builtin.h"

#define FNS_MIN 2		/* functions in one unit */
#define FNS_MAX 7
#define NCORE 80		/* h000-h079: the core, in wl/kernel.h */
#define NGROUP 16		/* then groups of 16, one a directory */
#define NGROUPS ((NHDRS - NCORE) / NGROUP)
#define NEXTRA 4		/* headers of other groups a unit includes */
#define NCONFIG 32		/* WL_CONFIG_OPT_00 ...: about half set */
#define INLINES 9		/* inline functions in a library header */
#define NOPS 48			/* generated inline functions in wl_ops.h */
#define NPAIRS 32		/* entries of a unit's sorted pair table */

/* ---- random expressions and statements --------------------------------- */

/* What the expression generator may use at this point. */
struct gen {
	struct strbuf *b;
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

void builtin_gen_lib_header(struct strbuf *b, unsigned h)
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

void builtin_gen_kernel_header(struct strbuf *b, unsigned scale)
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
void builtin_gen_autoconf(struct strbuf *b, unsigned scale)
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

void builtin_gen_units_header(struct strbuf *b, unsigned scale)
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
void builtin_gen_unit(struct strbuf *b, unsigned unit, char *path, size_t size)
{
	struct gen g = { .b = b, .nvars = 4, .nops = NOPS, .tables = 1 };
	const struct template *fns[FNS_MAX];
	unsigned hdrs[NGROUP + NEXTRA], d, n, i;

	d = builtin_unit_start(&g.r, unit);
	snprintf(path, size, "%s/unit_%04u.c", builtin_dirs[d].path, unit);
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

void builtin_gen_ops_header(struct strbuf *b, unsigned scale)
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

void builtin_gen_main(struct strbuf *b, unsigned scale)
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
