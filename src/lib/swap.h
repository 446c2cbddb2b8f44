/* SPDX-License-Identifier: GPL-2.0-or-later */
/* swap.h - swap for mem_load: what it can free, and a zram device of contest's own. */
#ifndef CONTEST_SWAP_H
#define CONTEST_SWAP_H

#include <stddef.h>
#include <stdint.h>

/* A page swapped to zram stays in RAM, compressed.  contest counts every
 * such page as keeping 1/SWAP_ZRAM_RATIO of a page (mem_load's pages
 * compress about 3:1, as program memory does), and its own device may
 * keep at most disksize / SWAP_ZRAM_RATIO in RAM (mem_limit). */
#define SWAP_ZRAM_RATIO 2
#define SWAP_PRIORITY 100	/* of contest's zram device */

/* The RAM that paging out can free now: the free space of every disk swap,
 * and of every zram device the free slots it can still fill (under its
 * mem_limit) times what each frees, 1 - 1/SWAP_ZRAM_RATIO of a page, or
 * less where the device's pages so far keep more of a page in RAM than
 * that (incompressible ones: nothing).  0 without swap.  Cheap enough to
 * read a few times a second. */
uint64_t swap_room(void);
/* The same for a zram device with free bytes of slots, left bytes under
 * its mem_limit (UINT64_MAX: no limit), and keep, the share of a page
 * that a page swapped to it keeps in RAM. */
uint64_t swap_zram_room(uint64_t free, uint64_t left, double keep);
/* keep for a zram device that stores orig bytes of pages in used bytes of
 * RAM: their ratio, at least 1/SWAP_ZRAM_RATIO; below 256 MiB stored, the
 * rest up to 256 MiB counted at 1/SWAP_ZRAM_RATIO. */
double swap_zram_keep(uint64_t orig, uint64_t used);
/* The swap devices in use, for the environment record and messages:
 * "zram 12.0 GiB prio 100 lzo-rle mem_limit 6.0 GiB, /dev/sda2 8.0 GiB
 * prio -2", or "none".  No zram device number: it changes from boot to
 * boot and says nothing about the measurement. */
void swap_describe(char *buf, size_t len);

/* contest's own zram swap device (--swap zram[:SIZE]). */
struct zram {
	int id;                 /* N of /dev/zramN; -1: none made */
	int on;                 /* swapon done */
	uint64_t disksize;      /* bytes of pages it holds */
	uint64_t mem_limit;     /* bytes of RAM it may use */
	char *marker;           /* DIR/zram-swap, which names it for a sweep */
};

/* "zram" or "zram:SIZE" (the value of --swap): 0 and *size (0: the
 * default), or -1. */
int swap_parse(const char *arg, uint64_t *size);
/* Resolve the device's sizes (size 0: half of MemTotal) and check that it
 * can be made here: root, zram, no swap yet.  z->id stays -1.  Returns 0, or -1
 * with the reason in why. */
int swap_zram_plan(struct zram *z, uint64_t size, char *why, size_t len);
/* After swap_zram_plan(): make a new zram device (hot_add; never one that
 * exists), write the marker in dir, set disksize and mem_limit, write a swap
 * signature and swapon with SWAP_PRIORITY.  Returns 0, or -1 with the reason
 * in why (whatever was made is removed again). */
int swap_zram_make(struct zram *z, const char *dir, char *why, size_t len);
/* swapoff, reset, hot_remove and the marker, with the stop signals
 * blocked (swapoff gives up on a signal).  Returns 0 (also when there is
 * nothing to do), or -1 with the reason in why, the marker then kept for
 * the next contest's sweep. */
int swap_zram_remove(struct zram *z, char *why, size_t len);
/* The directory open as dfd (dir in messages) is the scratch of contest
 * pid, which is gone: remove the zram device its marker names, if the
 * device is still the one it made (the same boot and disk sequence number)
 * and the marker is one contest wrote: root's, mode 0600, in a directory of
 * root's that no other user can enter; any other is ignored, with a
 * message, since another user could have written it to name the system's
 * own zram swap.  Returns 0 when nothing is left, -1 when a device is left;
 * either way a message on stderr says what happened. */
int swap_sweep(int dfd, const char *dir, int pid);

/* The memory contest always leaves the machine: max(1 GiB, 10% of total)
 * (mem_load's reserve). */
uint64_t swap_reserve(uint64_t total);
/* Whether RAM can take back used bytes of swapped pages: avail
 * (MemAvailable, or a memory cgroup's room) keeps swap_reserve(total). */
int swap_drain_fits(uint64_t used, uint64_t avail, uint64_t total);
/* Between runs, after mem_load: bring back what swap holds, device by
 * device (swapoff, swapon again with its priority; own_id: N of contest's
 * own /dev/zramN, -1: none), never more than swap_drain_fits() allows.
 * What was done in buf: "none" (no swap holds a page), else per device
 * "DEV SIZE drained" or "DEV SIZE not drained: why", joined by "; ", DEV
 * "zram (--swap)" for contest's own.  0, or -1 when a device was not
 * drained. */
int swap_drain(int own_id, char *buf, size_t len);

#endif
