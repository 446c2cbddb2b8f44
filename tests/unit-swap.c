/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit-swap.c - what a zram device can still free (swap.h): the RAM a
 * stored page keeps, from the device's own ratio once it stores enough to
 * tell, and the room that leaves under the device's slots and mem_limit;
 * when RAM can take back what swap holds. */
#include "config.h"

#include <stdint.h>

#include "lib/swap.h"
#include "tap.h"

#define MiB (UINT64_C(1) << 20)
#define GiB (UINT64_C(1) << 30)

static int near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

int main(void)
{
	double k;

	ok(near(swap_zram_keep(0, 0), 0.5), "an empty device: half a page (%g)",
	   swap_zram_keep(0, 0));
	ok(near(swap_zram_keep(0, 4096), 0.5 + 4096.0 / (256 * MiB)),
	   "its allocator's first page counts, little");
	/* the start of a fill on 2026-12-04: 30 MiB out, none of it compressed */
	k = swap_zram_keep(30 * MiB, 30 * MiB);
	ok(near(k, (30 + 0.5 * 226) / 256.0), "30 MiB stored incompressible: %.4f of a page", k);
	ok(swap_zram_room(18 * GiB, 9 * GiB, k) > 6 * GiB,
	   "so a 18 GiB device under a 9 GiB limit can still free %.1f GiB, not 0",
	   (double)swap_zram_room(18 * GiB, 9 * GiB, k) / GiB);
	ok(near(swap_zram_keep(256 * MiB, 256 * MiB), 1.0),
	   "256 MiB stored incompressible: a whole page");
	ok(swap_zram_room(18 * GiB, 9 * GiB, swap_zram_keep(256 * MiB, 256 * MiB)) == 0,
	   "and then it frees nothing");
	ok(near(swap_zram_keep(GiB, 900 * MiB), 900.0 / 1024), "1 GiB in 900 MiB: its ratio");
	ok(near(swap_zram_keep(GiB, 350 * MiB), 0.5),
	   "1 GiB in 350 MiB: no less than half a page");
	ok(fabs(swap_zram_keep(256 * MiB - 1, 200 * MiB) - swap_zram_keep(256 * MiB, 200 * MiB)) <
		   1e-6, "no step at 256 MiB");
	ok(swap_zram_keep(100 * MiB, 100 * MiB) < swap_zram_keep(200 * MiB, 200 * MiB),
	   "more incompressible pages stored, more of a page kept");

	ok(swap_zram_room(10 * GiB, UINT64_MAX, 0.5) == 5 * GiB, "no limit: slots x (1 - keep)");
	ok(swap_zram_room(10 * GiB, GiB, 0.5) == GiB, "a limit with 1 GiB left: 2 GiB of slots");
	ok(swap_zram_room(10 * GiB, 0, 0.5) == 0, "a limit reached: nothing");
	ok(swap_zram_room(10 * GiB, UINT64_MAX, 1.0) == 0, "pages that keep all: nothing");

	/* the drain after mem_load: never more than RAM takes with the reserve */
	ok(swap_reserve(8 * GiB) == GiB, "the reserve of 8 GiB: 1 GiB");
	ok(swap_reserve(24 * GiB) == 24 * GiB / 10, "of 24 GiB: a tenth");
	ok(swap_drain_fits(100 * MiB, 4 * GiB, 8 * GiB), "100 MiB into 4 GiB available: drained");
	ok(swap_drain_fits(3 * GiB, 4 * GiB, 8 * GiB), "3 GiB into 4 GiB: 1 GiB left, drained");
	ok(!swap_drain_fits(3 * GiB + 1, 4 * GiB, 8 * GiB), "a byte more: not");
	ok(!swap_drain_fits(5 * GiB, 4 * GiB, 8 * GiB), "more than available: not");
	ok(!swap_drain_fits(20 * GiB, 22 * GiB, 32 * GiB),
	   "20 GiB into 22 GiB of 32: the reserve is 3.2 GiB, not 1: not");
	ok(swap_drain_fits(20 * GiB, 24 * GiB, 32 * GiB), "into 24 GiB: it is");
	return tap_done();
}
