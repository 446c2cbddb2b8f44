/* SPDX-License-Identifier: GPL-2.0-or-later */
/* builtin.c - generate the built-in workload: a deterministic synthetic C tree.
 * Here the tree's layout, its directories, its build (kbuild's shape) and the
 * writing of its files; the C they hold comes from builtin-code.c (generated)
 * and builtin-fixed.c (fixed). */
#include "config.h"

#include "workload/builtin.h"

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

#include "workload/builtin-internal.h"
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

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

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

/* splitmix64 (builtin-internal.h) */
uint32_t rng_next(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return (uint32_t)((z ^ (z >> 31)) >> 32);
}

unsigned rng_below(struct rng *r, unsigned n)
{
	return rng_next(r) % n;
}

unsigned rng_range(struct rng *r, unsigned lo, unsigned hi)
{
	return lo + rng_below(r, hi - lo + 1);
}

void out(struct strbuf *b, const char *fmt, ...)
{
	va_list ap;

	if (b->err)
		return;
	va_start(ap, fmt);
	strbuf_vaddf(b, fmt, ap);
	va_end(ap);
}

void out_lines(struct strbuf *b, const char *const *lines)
{
	for (; *lines; lines++)
		out(b, "%s\n", *lines);
}

/* Write the buffer as dir/name; the buffer's own failure is reported too. */
static int write_file(const char *dir, const char *name, const struct strbuf *b,
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
	if (write_all(fd, b->s, b->len)) {
		err = errno;
		close(fd);
		return whyf(why, len, "write %s: %s", name, strerror(err));
	}
	if (close(fd) && errno != EINTR)
		return whyf(why, len, "write %s: %s", name, strerror(errno));
	return 0;
}

/* ---- the directories --------------------------------------------------- */

/* Kernel-like directories, each parent before its children.  A unit lands
 * in one with a chance proportional to its weight; a directory with no
 * object in it or below it is left out of the tree. */
const struct wl_dir builtin_dirs[] = {
	{ "init", 1 }, { "kernel", 5 }, { "kernel/sched", 2 }, { "kernel/time", 2 },
	{ "kernel/irq", 1 }, { "mm", 5 }, { "fs", 5 }, { "fs/proc", 2 }, { "fs/ramfs", 1 },
	{ "ipc", 1 }, { "security", 1 }, { "block", 2 }, { "lib", 6 }, { "lib/math", 1 },
	{ "drivers", 0 }, { "drivers/base", 3 }, { "drivers/char", 2 }, { "drivers/tty", 2 },
	{ "arch", 0 }, { "arch/wl", 0 }, { "arch/wl/kernel", 4 }, { "arch/wl/mm", 2 },
	{ "arch/wl/lib", 2 },
};

#define NDIRS COUNT(builtin_dirs)
#define DIR_INIT 0		/* init/main.c */
#define DIR_LIB 12		/* lib/common.c */

unsigned builtin_unit_start(struct rng *r, unsigned unit)
{
	unsigned total = 0, k, d;

	r->s = SEED + (uint64_t)unit * 0x100000001b3ull;
	for (d = 0; d < NDIRS; d++)
		total += builtin_dirs[d].weight;
	k = rng_below(r, total);
	for (d = 0; k >= builtin_dirs[d].weight; d++)
		k -= builtin_dirs[d].weight;
	return d;
}

static unsigned unit_dir(unsigned unit)
{
	struct rng r;

	return builtin_unit_start(&r, unit);
}

/* The parent's index, or NDIRS for a top-level directory. */
static unsigned dir_parent(unsigned d)
{
	const char *slash = strrchr(builtin_dirs[d].path, '/');
	size_t n;
	unsigned p;

	if (!slash)
		return NDIRS;
	n = (size_t)(slash - builtin_dirs[d].path);
	for (p = 0; p < d; p++)
		if (strlen(builtin_dirs[p].path) == n &&
		    !strncmp(builtin_dirs[p].path, builtin_dirs[d].path, n))
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

static void out_dir_builtins(struct strbuf *b, const int *present, int top_only)
{
	unsigned d;

	for (d = 0; d < NDIRS; d++)
		if (present[d] && (!top_only || dir_parent(d) == NDIRS))
			out(b, " \\\n\t%s%s", builtin_dirs[d].path, top_only ? "" : "/built-in.o");
}

static void gen_makefile(struct strbuf *b, unsigned scale)
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
		out(b, " \\\n\t%s/unit_%04u.o", builtin_dirs[unit_dir(i)].path, i);
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
static void gen_kbuild(struct strbuf *b, unsigned scale, unsigned d, const int *present)
{
	const char *path = builtin_dirs[d].path;
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
			out(b, " \\\n\t%s", builtin_dirs[e].path + strlen(path) + 1);
	out(b, "\n");
}

/* Every file but the units, the library headers and the Kbuild files:
 * fixed text or generated. */
static const struct file {
	const char *name;
	const char *const *lines;
	void (*gen)(struct strbuf *b, unsigned scale);
} files[] = {
	{ "include/wl_base.h", builtin_wl_base_h, NULL },
	{ "include/wl_types.h", builtin_wl_types_h, NULL },
	{ "include/wl_hash.h", builtin_wl_hash_h, NULL },
	{ "include/wl_list.h", builtin_wl_list_h, NULL },
	{ "include/wl_fixed.h", builtin_wl_fixed_h, NULL },
	{ "include/wl_ops.h", NULL, builtin_gen_ops_header },
	{ "include/wl_common.h", builtin_wl_common_h, NULL },
	{ "include/wl/kernel.h", NULL, builtin_gen_kernel_header },
	{ "include/generated/autoconf.h", NULL, builtin_gen_autoconf },
	{ "include/generated/wl_units.h", NULL, builtin_gen_units_header },
	{ "scripts/Makefile.build", makefile_build, NULL },
	{ "scripts/wl_fixdep.c", wl_fixdep_c, NULL },
	{ "init/main.c", NULL, builtin_gen_main },
	{ "lib/common.c", builtin_common_c, NULL },
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
		if (present[d] && make_dir(dir, builtin_dirs[d].path, why, len))
			return -1;
	return 0;
}

static int gen_fixed(struct strbuf *b, const char *dir, unsigned scale,
		     char *why, size_t len)
{
	const struct file *f;

	for (f = files; f < files + COUNT(files); f++) {
		strbuf_reset(b);
		if (f->lines)
			out_lines(b, f->lines);
		else
			f->gen(b, scale);
		if (write_file(dir, f->name, b, why, len))
			return -1;
	}
	return 0;
}

static int gen_library(struct strbuf *b, const char *dir, char *why, size_t len)
{
	char name[32];
	unsigned h;

	for (h = 0; h < NHDRS; h++) {
		snprintf(name, sizeof(name), "include/wl/h%03u.h", h);
		strbuf_reset(b);
		builtin_gen_lib_header(b, h);
		if (write_file(dir, name, b, why, len))
			return -1;
	}
	return 0;
}

static int gen_kbuilds(struct strbuf *b, const char *dir, unsigned scale, const int *present,
		       char *why, size_t len)
{
	char name[64];
	unsigned d;

	for (d = 0; d < NDIRS; d++) {
		if (!present[d])
			continue;
		snprintf(name, sizeof(name), "%s/Kbuild", builtin_dirs[d].path);
		strbuf_reset(b);
		gen_kbuild(b, scale, d, present);
		if (write_file(dir, name, b, why, len))
			return -1;
	}
	return 0;
}

static int gen_units(struct strbuf *b, const char *dir, unsigned scale,
		     char *why, size_t len)
{
	char name[64];
	unsigned i;

	for (i = 0; i < scale; i++) {
		strbuf_reset(b);
		builtin_gen_unit(b, i, name, sizeof(name));
		if (write_file(dir, name, b, why, len))
			return -1;
	}
	return 0;
}

int builtin_generate(const char *dir, unsigned scale, char *why, size_t len)
{
	int present[NDIRS];
	struct strbuf b = STRBUF_INIT;
	int rc;

	if (scale < 1 || scale > BUILTIN_SCALE_MAX)
		return whyf(why, len, "scale %u out of range (1-%u)", scale, BUILTIN_SCALE_MAX);
	dirs_present(scale, present);
	if (gen_dirs(dir, present, why, len))
		return -1;
	if (strbuf_grow(&b, 64 * 1024))
		return whyf(why, len, "generate: %s", strerror(ENOMEM));
	rc = gen_fixed(&b, dir, scale, why, len);
	if (!rc)
		rc = gen_library(&b, dir, why, len);
	if (!rc)
		rc = gen_kbuilds(&b, dir, scale, present, why, len);
	if (!rc)
		rc = gen_units(&b, dir, scale, why, len);
	strbuf_free(&b);
	return rc;
}
