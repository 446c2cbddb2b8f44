/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mem.c - mem_load: references more memory than the machine holds.
 *
 * One process maps a region, fills every page once, then writes one word
 * of every page again and again, in an order that is a fixed shuffle of all
 * the pages: no two neighbours in time share a cache line, a TLB entry or a
 * prefetch stream, and every page stays dirty.  Its point, as in the 2002
 * contest, is paging: where swap can take it, the region is 110% of RAM, so
 * that the kernel must swap and push the compile's page cache out.  It is
 * bounded so that MemAvailable plus what swap can free (swap_room(): a
 * zram device's pages stay in RAM, compressed, and count for less) keeps a
 * reserve of max(1 GiB, 10% of RAM); without swap that leaves MemAvailable
 * minus the reserve, and the load does not page, which the plan says.  The
 * workload and contest are never OOM-killed (and the harness sets
 * oom_score_adj 1000 on this process, should the machine change under us):
 * should another process grow after the size was chosen, or zram hold less
 * than it was counted for, so that MemAvailable and the swap room together
 * fall below half the reserve, the load gives its memory back before the
 * OOM killer has to choose, and the run's record says so (load_note()).
 *
 * A page's content compresses as program memory does, about 3:1 (a third
 * of it pseudo-random words, the rest zeros): a page of zeros would cost
 * zram nothing and make paging to it free, a random page would free no
 * memory at all.  Huge pages are declined so that the load works on pages
 * of the base size whatever the transparent huge page setting. */
#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "loads/load.h"
#include "lib/fsutil.h"
#include "lib/proc.h"
#include "lib/swap.h"
#include "lib/util.h"

#define MiB (UINT64_C(1) << 20)
#define QUICK_SIZE (256 * MiB)
#define MIN_SIZE (64 * MiB)		/* a bounded default smaller than this is refused */
#define PAGES_PER_STEP 4096		/* pages between progress reports and stop checks */
#define SHUFFLE_SEED UINT64_C(0x636f6e7465737421)

/* mem_load's option, as given (0: not given). */
struct mem_opts {
	uint64_t size;
};

static const struct load_option mem_options[] = {
	{ "mem-size", "SIZE", "memory referenced (default 110% of RAM, bounded without swap)",
	  LOAD_OPT_SIZE, offsetof(struct mem_opts, size), 0x1p20, 0x1p50 },
	{ NULL },
};

enum origin { FROM_OPTION, FROM_QUICK, FROM_RAM };

/* How the size was chosen, from the load_env alone: check() and describe()
 * both derive it, so nothing has to be kept between them. */
struct plan {
	enum origin origin;
	uint64_t want;		/* --mem-size, the --quick size, or 110% of MemTotal */
	uint64_t reserve;	/* max(1 GiB, 10% of MemTotal) */
	uint64_t bound;		/* MemAvailable - reserve, or 0: what RAM can spare */
	uint64_t limit;		/* bound + what swap can free (swap_room) */
	uint64_t size;		/* what the load uses */
	uint64_t paged;		/* of it, beyond the bound: what swap must take */
	int bounded;		/* want cut down to the limit */
};

static void make_plan(const struct load_ctx *c, struct plan *p)
{
	const struct load_env *e = c->env;
	const struct mem_opts *o = c->opts;

	memset(p, 0, sizeof(*p));
	if (o->size) {
		p->origin = FROM_OPTION;
		p->want = o->size;
	} else if (e->quick) {
		p->origin = FROM_QUICK;
		p->want = QUICK_SIZE;
	} else {
		p->origin = FROM_RAM;
		p->want = e->mem_total / 10 * 11;
	}
	p->reserve = swap_reserve(e->mem_total);
	p->bound = e->mem_available > p->reserve ? e->mem_available - p->reserve : 0;
	p->limit = p->bound + e->swap_room;
	p->size = p->want;
	if (p->want > p->limit) {
		p->size = p->limit;
		p->bounded = 1;
	}
	p->paged = p->size > p->bound ? p->size - p->bound : 0;
}

static uint64_t page_size(void)
{
	long ps = sysconf(_SC_PAGESIZE);

	return ps > 0 ? (uint64_t)ps : 4096;
}

/* "; the most resident now: NAME (pid N, SIZE)", naming what holds the
 * memory a refusal lacks (another contest's mem_load, say), or "" */
static void largest_note(char *buf, size_t len)
{
	char name[32], size[32];
	uint64_t rss;
	pid_t pid;

	buf[0] = '\0';
	if (proc_largest(&pid, name, sizeof(name), &rss) == 0) {
		format_size(rss, size, sizeof(size));
		snprintf(buf, len, "; the most resident now: %s (pid %d, %s)", name, (int)pid,
			 size);
	}
}

static int mem_check(struct load_ctx *c, char *why, size_t len)
{
	const struct load_env *e = c->env;
	char want[32], limit[32], avail[32], reserve[32], swap[32], note[192];
	uint64_t ps = page_size(), pages;
	struct plan p;

	if (!e->mem_total || !e->mem_available) {
		snprintf(why, len, "cannot read MemTotal and MemAvailable from /proc/meminfo");
		return -1;
	}
	make_plan(c, &p);
	format_size(p.want, want, sizeof(want));
	format_size(p.limit, limit, sizeof(limit));
	format_size(e->mem_available, avail, sizeof(avail));
	format_size(p.reserve, reserve, sizeof(reserve));
	format_size(e->swap_room, swap, sizeof(swap));
	if (p.bounded && p.origin == FROM_OPTION) {
		largest_note(note, sizeof(note));
		snprintf(why, len, "--mem-size %s is more than this machine can spare without "
			 "the OOM killer: at most %s (MemAvailable %s minus a reserve of %s, "
			 "plus %s that swap can free)%s", want, limit, avail, reserve, swap, note);
		return -1;
	}
	if (p.bounded && p.size < MIN_SIZE) {
		largest_note(note, sizeof(note));
		snprintf(why, len, "only %s of memory to spare (MemAvailable %s minus a "
			 "reserve of %s, plus %s that swap can free)%s: free some memory or "
			 "give a smaller --mem-size", limit, avail, reserve, swap, note);
		return -1;
	}
	pages = p.size / ps;
	if (p.size > SIZE_MAX) {
		snprintf(why, len, "--mem-size %s is more than this process can map", want);
		return -1;
	}
	if (pages > UINT32_MAX) {
		snprintf(why, len, "--mem-size %s is more pages than the load can order",
			 want);
		return -1;
	}
	c->size = pages * ps;
	c->natural_per_unit = (double)c->size / 1e6;
	c->natural_unit = "MB";
	return 0;
}

static void mem_describe(const struct load_ctx *c, char *buf, size_t len)
{
	const struct load_env *e = c->env;
	char size[32], total[32], avail[32], reserve[32], swap[32], room[32], paged[32];
	char from[64], pages[160];
	struct plan p;

	make_plan(c, &p);
	format_size(c->size, size, sizeof(size));
	format_size(e->mem_total, total, sizeof(total));
	format_size(e->mem_available, avail, sizeof(avail));
	format_size(p.reserve, reserve, sizeof(reserve));
	format_size(e->swap_free, swap, sizeof(swap));
	format_size(e->swap_room, room, sizeof(room));
	format_size(p.paged, paged, sizeof(paged));
	if (p.origin == FROM_OPTION)
		snprintf(from, sizeof(from), "--mem-size");
	else if (p.origin == FROM_QUICK)
		snprintf(from, sizeof(from), "--quick");
	else
		snprintf(from, sizeof(from), "110%% of RAM %s", total);
	if (!e->swap_free)
		snprintf(pages, sizeof(pages), "no swap: mem_load will not page "
			 "(--swap zram makes a swap device)");
	else if (p.paged)
		snprintf(pages, sizeof(pages), "mem_load pages: %s more than RAM can spare "
			 "goes to swap", paged);
	else
		snprintf(pages, sizeof(pages), "mem_load will not page: it fits in what "
			 "RAM can spare");
	snprintf(buf, len, "%s (%s; MemAvailable %s, reserve %s, swap free %s, "
		 "which frees %s%s); %s", size, from, avail, reserve, swap, room,
		 p.bounded ? ": bounded" : "", pages);
}

static uint64_t splitmix64(uint64_t *state)
{
	uint64_t z = (*state += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* The same order on every run: a Fisher-Yates shuffle from a fixed seed. */
static void shuffle_pages(uint32_t *order, size_t pages)
{
	uint64_t state = SHUFFLE_SEED;

	for (size_t i = 0; i < pages; i++)
		order[i] = (uint32_t)i;
	for (size_t i = pages - 1; i > 0; i--) {
		size_t j = (size_t)(splitmix64(&state) % (i + 1));
		uint32_t t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
}

/* The memory the machine must keep while the load runs: half the reserve,
 * in MemAvailable and what swap can still free together.  In the test
 * build (tests/contest-hooked) CONTEST_TEST_MEM_FLOOR (bytes) stands in for
 * it, since no test can make a machine short of memory. */
static uint64_t memory_floor(const struct load_ctx *c)
{
	struct plan p;
#ifdef CONTEST_TEST_HOOKS
	const char *test = getenv("CONTEST_TEST_MEM_FLOOR");
	uint64_t v;

	if (test && parse_u64(test, 0, UINT64_MAX, &v) == 0)
		return v;
#endif
	make_plan(c, &p);
	return p.reserve / 2;
}

#define MEM_CHECK_NS (50 * 1000 * 1000)	/* /proc/meminfo read at most this often */

/* Between steps: 1 when told to stop, 2 when the machine runs short of
 * memory (*left is what it has: MemAvailable and what swap can free), else
 * 0. */
static int step_check(uint64_t floor, uint64_t *left)
{
	static int64_t last;
	int64_t now;

	if (load_stopping())
		return 1;
	now = mono_ns();
	if (last && now - last < MEM_CHECK_NS)
		return 0;
	last = now;
	*left = mem_available_bytes() + swap_room();
	return *left < floor ? 2 : 0;
}

/* A page as program memory is, for compression: its first third
 * pseudo-random words, the rest zeros (lzo and lz4 make about a third of
 * a page of it; a page of one repeated word zram would keep for nothing). */
static void fill_page(char *page, size_t ps, uint64_t *state)
{
	uint64_t *w = (uint64_t *)(void *)page;

	for (size_t i = 0; i < ps / 3 / sizeof(*w); i++)
		w[i] = splitmix64(state);
}

/* Fill every page once, in address order: 0, or step_check()'s verdict. */
static int touch_all(char *mem, size_t pages, size_t ps, uint64_t floor, uint64_t *left)
{
	uint64_t state = SHUFFLE_SEED;
	int rc;

	for (size_t i = 0; i < pages; i++) {
		fill_page(mem + i * ps, ps, &state);
		if (i % PAGES_PER_STEP == 0 && (rc = step_check(floor, left)))
			return rc;
	}
	return 0;
}

/* One pass over the pages in shuffled order: 0, or step_check()'s verdict. */
static int one_pass(struct load_ctx *c, char *mem, const uint32_t *order, size_t pages,
		    size_t ps, uint64_t passes, uint64_t floor, uint64_t *left)
{
	int rc;

	for (size_t i = 0; i < pages; i += PAGES_PER_STEP) {
		size_t end = pages - i < PAGES_PER_STEP ? pages : i + PAGES_PER_STEP;

		for (size_t k = i; k < end; k++)
			++*(volatile uint64_t *)(void *)(mem + (size_t)order[k] * ps);
		load_progress(c, (double)passes + (double)end / (double)pages);
		if ((rc = step_check(floor, left)))
			return rc;
	}
	return 0;
}

static int mem_run(struct load_ctx *c, unsigned idx)
{
	size_t ps = (size_t)page_size(), pages = (size_t)(c->size / ps);
	uint64_t floor = memory_floor(c), left = 0;
	uint32_t *order;
	char *mem;
	char size[32];
	int rc;

	(void)idx;
	format_size(c->size, size, sizeof(size));
	order = malloc(pages * sizeof(*order));
	if (!order)
		return load_fail(c, "cannot allocate the page order for %s", size);
	shuffle_pages(order, pages);
	mem = mmap(NULL, pages * ps, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (mem == MAP_FAILED) {
		int err = errno;

		free(order);
		return load_fail(c, "mmap %s: %s", size, strerror(err));
	}
	madvise(mem, pages * ps, MADV_NOHUGEPAGE);	/* fails harmlessly without THP */
	rc = touch_all(mem, pages, ps, floor, &left);
	if (rc == 0) {
		load_ready(c);
		for (uint64_t passes = 0;
		     (rc = one_pass(c, mem, order, pages, ps, passes, floor, &left)) == 0;)
			passes++;
	}
	munmap(mem, pages * ps);
	free(order);
	if (rc == 2) {
		char sleft[32], sfloor[32];

		format_size(left, sleft, sizeof(sleft));
		format_size(floor, sfloor, sizeof(sfloor));
		/* SwapFree here is what swap_room() counts: zram's at what it frees;
		 * the run stays valid, its Loads those done until then */
		return load_note(c, "the machine ran short of memory (MemAvailable + SwapFree "
				 "counted as the memory it frees %s, below %s): mem_load gave "
				 "its %s back before the OOM killer had to act", sleft, sfloor,
				 size);
	}
	return 0;
}

/* The memory referenced, and whether swap was there to page it out to. */
static void mem_params(const struct load_ctx *c, struct record *r)
{
	load_param(r, "mem_size", c->size);
	load_param_text(r, "swap", c->env->swap_free ? "yes" : "no");
}

const struct load_ops mem_load = {
	.name = "mem_load",
	.summary = "references 110% of RAM (bounded) in a cache-missing page order",
	.unit = "one complete pass",
	.options = mem_options,
	.option_struct_size = sizeof(struct mem_opts),
	.check = mem_check,
	.describe = mem_describe,
	.params = mem_params,
	.run = mem_run,
};
