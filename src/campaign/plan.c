/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan.c - a campaign's plan: its kernels, their boot order, written once.
 *
 * The plan file is records (results/record.h: escaped values, a CRC a
 * line): one "campaign" line, an "arm" line per kernel, an "arg" line per
 * word of the plan command, a "boot" line per boot, in order. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/plan.h"
#include "run/compare.h"
#include "results/record.h"
#include "results/store.h"
#include "lib/fsutil.h"
#include "lib/util.h"

static const char *const spec_keys[] = { "initrd", "append", "entry", "release" };

/* The value of ",KEY=" in spec, up to the next ",KEY2=" of a known key, or
 * NULL: so that append=isolcpus=1,2 keeps its comma. */
static char *spec_value(const char *spec, const char *key)
{
	char pat[32];
	const char *v, *end = NULL;

	snprintf(pat, sizeof(pat), ",%s=", key);
	v = strstr(spec, pat);
	if (!v)
		return NULL;
	v += strlen(pat);
	for (size_t i = 0; i < ARRAY_SIZE(spec_keys); i++) {
		char other[32];
		const char *o;

		snprintf(other, sizeof(other), ",%s=", spec_keys[i]);
		o = strstr(v, other);
		if (o && (!end || o < end))
			end = o;
	}
	return end ? xasprintf("%.*s", (int)(end - v), v) : xstrdup(v);
}

int plan_parse_kernel(const char *arg, struct arm *a, char *why, size_t len)
{
	const char *eq = strchr(arg, '=');
	char bad[256];
	size_t head;

	memset(a, 0, sizeof(*a));
	if (!eq || eq == arg || !eq[1])
		return whyf(why, len, "--kernel wants LABEL=SPEC (a release in /boot, or PATH"
			    "[,initrd=PATH][,append=ARGS][,entry=ID]), not '%s'", arg);
	a->label = xasprintf("%.*s", (int)(eq - arg), arg);
	if (store_check_label(a->label, bad, sizeof(bad)))
		return whyf(why, len, "--kernel %s: bad label: %s", arg, bad);
	a->spec = xstrdup(eq + 1);
	head = strcspn(a->spec, ",");
	if (a->spec[head] && !strchr(a->spec + head, '='))
		return whyf(why, len, "--kernel %s: after the kernel, only ,initrd= ,append= "
			    ",entry= or ,release=", arg);
	for (const char *p = strchr(a->spec, ','); p; p = strchr(p + 1, ',')) {
		size_t k = strcspn(p + 1, "=");
		int known = 0;

		for (size_t i = 0; i < ARRAY_SIZE(spec_keys); i++)
			known |= strlen(spec_keys[i]) == k && !strncmp(p + 1, spec_keys[i], k);
		/* a comma inside append= is its own */
		if (!known && p == a->spec + head)
			return whyf(why, len, "--kernel %s: unknown key '%.*s' (initrd, append, "
				    "entry or release)", arg, (int)k, p + 1);
	}
	a->initrd = spec_value(a->spec, "initrd");
	a->append = spec_value(a->spec, "append");
	a->entry = spec_value(a->spec, "entry");
	a->release = spec_value(a->spec, "release");
	if (memchr(a->spec, '/', head)) {
		a->kernel = xasprintf("%.*s", (int)head, a->spec);
		if (a->kernel[0] != '/')
			return whyf(why, len, "--kernel %s: the kernel's path must be absolute", arg);
	} else {	/* a release in /boot */
		char *rel = xasprintf("%.*s", (int)head, a->spec);

		a->kernel = xasprintf("/boot/vmlinuz-%s", rel);
		if (!a->initrd)
			a->initrd = xasprintf("/boot/initrd.img-%s", rel);
		free(a->release);
		a->release = rel;
	}
	if (a->append && strchr(a->append, '\n'))
		return whyf(why, len, "--kernel %s: append= holds a newline", arg);
	return 0;
}

void plan_order(struct campaign_plan *p)
{
	size_t n = p->narms, cap, at = 0;
	struct comparison c;

	memset(&c, 0, sizeof(c));
	c.n = n;
	p->block_size = n == 2 ? 4 : n;
	/* two arms: 2 boots of each a block; more: one of each a row */
	cap = n + (size_t)(n == 2 ? (p->boots + 1) / 2 : p->boots) * p->block_size;
	free(p->boot);
	p->boot = xcalloc(cap, sizeof(*p->boot));
	for (size_t i = 0; i < n; i++)
		p->boot[at++] = (struct plan_boot){ .arm = i, .block = 0, .burnin = 1 };
	if (n != 2)
		compare_plan_order(&c, p->seed);
	for (size_t b = 1; at < cap; b++) {
		if (n == 2)	/* ABBA or BAAB: the rows AB BA from the block's seed */
			compare_plan_order(&c, p->seed ? p->seed + b : 0);
		for (size_t r = 1; r <= (n == 2 ? 2u : 1u); r++)
			for (size_t k = 0; k < n; k++)
				p->boot[at++] = (struct plan_boot){
					.arm = compare_at(&c, n == 2 ? r : b, k), .block = b };
	}
	p->nboots = at;
	free(c.order);
}

size_t plan_nblocks(const struct campaign_plan *p)
{
	return p->nboots ? p->boot[p->nboots - 1].block : 0;
}

size_t plan_block_first(const struct campaign_plan *p, size_t block)
{
	for (size_t i = 0; i < p->nboots; i++)
		if (p->boot[i].block == block)
			return i + 1;
	return 0;
}

static void add_line(FILE *f, struct record *r)
{
	char *line = record_encode(r);

	fputs(line, f);
	free(line);
	record_free(r);
}

static void set_opt(struct record *r, const char *key, const char *v)
{
	if (v)
		record_set(r, key, v);
}

int plan_write(const char *path, const struct campaign_plan *p, char *why, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	struct record r;
	int ret = 0;

	if (!f)
		return whyf(why, len, "out of memory");
	record_init(&r, "campaign");
	record_set_i64(&r, "plan_version", PLAN_VERSION);
	record_set(&r, "id", p->id);
	record_set(&r, "method", p->method);
	record_setf(&r, "seed", "%llu", (unsigned long long)p->seed);
	record_setf(&r, "runs_per_boot", "%llu", (unsigned long long)p->runs_per_boot);
	record_setf(&r, "settle", "%g", p->settle);
	record_setf(&r, "boots", "%llu", (unsigned long long)p->boots);
	record_setf(&r, "until", "%g", p->until);
	record_setf(&r, "retries", "%llu", (unsigned long long)p->retries);
	record_setf(&r, "reboot_cap", "%llu", (unsigned long long)p->reboot_cap);
	record_set(&r, "cwd", p->cwd);
	record_setf(&r, "block_size", "%zu", p->block_size);
	add_line(f, &r);
	for (size_t i = 0; i < p->narms; i++) {
		const struct arm *a = &p->arms[i];

		record_init(&r, "arm");
		record_setf(&r, "i", "%zu", i);
		record_set(&r, "label", a->label);
		record_set(&r, "spec", a->spec);
		record_set(&r, "kernel", a->kernel);
		set_opt(&r, "initrd", a->initrd);
		set_opt(&r, "append", a->append);
		set_opt(&r, "entry", a->entry);
		set_opt(&r, "release", a->release);
		add_line(f, &r);
	}
	for (size_t i = 0; i < p->nargs; i++) {
		record_init(&r, "arg");
		record_set(&r, "word", p->args[i]);
		add_line(f, &r);
	}
	for (size_t i = 0; i < p->nboots; i++) {
		record_init(&r, "boot");
		record_setf(&r, "seq", "%zu", i + 1);
		record_setf(&r, "arm", "%zu", p->boot[i].arm);
		record_setf(&r, "block", "%zu", p->boot[i].block);
		record_setf(&r, "burnin", "%d", p->boot[i].burnin);
		add_line(f, &r);
	}
	xclose_memstream(f);
	if (access(path, F_OK) == 0)
		ret = whyf(why, len, "%s exists: a plan is written once", path);
	else if (replace_file(path, buf, n))
		ret = whyf(why, len, "cannot write %s: %s", path, strerror(errno));
	free(buf);
	return ret;
}

static char *dup_opt(const struct record *r, const char *key)
{
	const char *v = record_get(r, key);

	return v ? xstrdup(v) : NULL;
}

static int get_u64(const struct record *r, const char *key, uint64_t *out)
{
	int64_t v;

	if (record_get_i64(r, key, &v) || v < 0)
		return -1;
	*out = (uint64_t)v;
	return 0;
}

/* One line of the plan into p: 0, or -1 when it is not what it says. */
static int read_line(struct campaign_plan *p, const struct record *r)
{
	uint64_t u, arm = 0, block = 0, burnin = 0;

	if (!strcmp(r->kind, "campaign")) {
		const char *id = record_get(r, "id");

		if (!id || !record_get(r, "method") || !record_get(r, "cwd") ||
		    get_u64(r, "plan_version", &u) || u != PLAN_VERSION ||
		    get_u64(r, "seed", &p->seed) || get_u64(r, "runs_per_boot", &p->runs_per_boot) ||
		    get_u64(r, "boots", &p->boots) || get_u64(r, "retries", &p->retries) ||
		    get_u64(r, "reboot_cap", &p->reboot_cap) || get_u64(r, "block_size", &u) ||
		    record_get_double(r, "settle", &p->settle) ||
		    record_get_double(r, "until", &p->until))
			return -1;
		p->block_size = (size_t)u;
		snprintf(p->id, sizeof(p->id), "%s", id);
		p->method = dup_opt(r, "method");
		p->cwd = dup_opt(r, "cwd");
		return 0;
	}
	if (!strcmp(r->kind, "arm")) {
		struct arm *a;

		if (p->narms >= CAMPAIGN_MAX_ARMS || !record_get(r, "label") ||
		    !record_get(r, "spec") || !record_get(r, "kernel"))
			return -1;
		a = &p->arms[p->narms++];
		a->label = dup_opt(r, "label");
		a->spec = dup_opt(r, "spec");
		a->kernel = dup_opt(r, "kernel");
		a->initrd = dup_opt(r, "initrd");
		a->append = dup_opt(r, "append");
		a->entry = dup_opt(r, "entry");
		a->release = dup_opt(r, "release");
		return 0;
	}
	if (!strcmp(r->kind, "arg") && record_get(r, "word")) {
		p->args = xreallocarray(p->args, p->nargs + 1, sizeof(*p->args));
		p->args[p->nargs++] = dup_opt(r, "word");
		return 0;
	}
	if (!strcmp(r->kind, "boot") && get_u64(r, "seq", &u) == 0 && u == p->nboots + 1 &&
	    get_u64(r, "arm", &arm) == 0 && arm < p->narms && get_u64(r, "block", &block) == 0 &&
	    get_u64(r, "burnin", &burnin) == 0) {
		p->boot = xreallocarray(p->boot, p->nboots + 1, sizeof(*p->boot));
		p->boot[p->nboots++] = (struct plan_boot){ .arm = (size_t)arm,
			.block = (size_t)block, .burnin = burnin != 0 };
		return 0;
	}
	return -1;
}

int plan_read(const char *path, struct campaign_plan *p, char *why, size_t len)
{
	FILE *f = fopen(path, "re");
	char *line = NULL, bad[256];
	size_t cap = 0;
	ssize_t n;
	int ln = 0, ret = 0;

	memset(p, 0, sizeof(*p));
	if (!f)
		return whyf(why, len, "cannot read %s: %s", path, strerror(errno));
	while (!ret && (n = getline(&line, &cap, f)) > 0) {
		struct record r;

		ln++;
		if (record_decode(line, (size_t)n, &r, bad, sizeof(bad)))
			ret = whyf(why, len, "%s:%d: damaged: %s", path, ln, bad);
		else if (read_line(p, &r))
			ret = whyf(why, len, "%s:%d: not a %s line of a plan (version %d)", path, ln,
				   r.kind, PLAN_VERSION);
		record_free(&r);
	}
	free(line);
	fclose(f);
	if (!ret && (!p->method || p->narms < 2 || !p->nboots))
		ret = whyf(why, len, "%s: an incomplete plan", path);
	return ret;
}

void plan_print_order(const struct campaign_plan *p, FILE *f)
{
	size_t block = 0;

	for (size_t i = 0; i < p->nboots; i++) {
		if (i && p->boot[i].block != block)
			fputs(" |", f);
		block = p->boot[i].block;
		fprintf(f, " %s%s", p->arms[p->boot[i].arm].label, p->boot[i].burnin ? "*" : "");
	}
	fputc('\n', f);
}

void plan_free(struct campaign_plan *p)
{
	for (size_t i = 0; i < p->narms; i++) {
		struct arm *a = &p->arms[i];

		free(a->label);
		free(a->spec);
		free(a->kernel);
		free(a->initrd);
		free(a->append);
		free(a->entry);
		free(a->release);
	}
	for (size_t i = 0; i < p->nargs; i++)
		free(p->args[i]);
	free(p->args);
	free(p->boot);
	free(p->method);
	free(p->cwd);
	memset(p, 0, sizeof(*p));
}
