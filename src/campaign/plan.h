/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plan.h - a campaign's plan: its kernels (arms), their boot order, its
 * limits, the run options; parsed from the command line, written once. */
#ifndef CONTEST_CAMPAIGN_PLAN_H
#define CONTEST_CAMPAIGN_PLAN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The plan file's own version (docs/formats.md). */
#define PLAN_VERSION 1
#define CAMPAIGN_MAX_ARMS 8
#define CAMPAIGN_RETRIES 2	/* a boot of an arm tried again; the next failure stops */
#define CAMPAIGN_SPARE_REBOOTS 6	/* reboots allowed beyond the planned boots */

/* One kernel of the campaign: --kernel LABEL=SPEC. */
struct arm {
	char *label, *spec;
	char *kernel, *initrd;	/* paths as the running system names them */
	char *append, *entry;	/* extra command line; a boot loader's entry id */
	char *release;		/* the uname -r it must boot as, or NULL: learned at its first boot */
};

/* One boot of the plan; seq is its place + 1. */
struct plan_boot {
	size_t arm;
	size_t block;	/* 0 for the burn-in boots, then 1, 2, ... */
	int burnin;	/* the arm's first boot: proves it boots, not measured */
};

struct campaign_plan {
	char id[64];
	char *method;		/* kexec, grub, sdboot or script:CMD */
	uint64_t seed;
	uint64_t runs_per_boot;
	double settle;		/* seconds after the system is up */
	uint64_t boots;		/* measured boots per arm (the largest with --until) */
	double until;		/* --until PCT, or 0 */
	uint64_t retries, reboot_cap;
	char *cwd;		/* where plan ran: the run options' relative paths */
	size_t narms;
	struct arm arms[CAMPAIGN_MAX_ARMS];
	size_t nboots;
	struct plan_boot *boot;	/* boot[seq - 1] */
	size_t block_size;	/* boots in a block: 4 for two arms, else the arms */
	size_t nargs;		/* the plan command's words after "plan": options */
	char **args;		/* and run types, parsed again at every boot */
};

/* LABEL=SPEC into a (paths checked later, under the root prefix).  SPEC is a
 * release in <root>/boot (vmlinuz-REL, initrd.img-REL) or a PATH, either
 * followed by ,initrd=PATH ,append=ARGS ,entry=ID ,release=REL.  Returns 0, or
 * -1 with the reason in why. */
int plan_parse_kernel(const char *arg, struct arm *a, char *why, size_t len);
/* The boot list: a burn-in boot of every arm, then blocks: two arms ABBA
 * or BAAB (the seed picks per block), three or more the Williams rows of
 * compare, a row a block; boots measured boots of each arm. */
void plan_order(struct campaign_plan *p);
/* The block's boots: seq of its first, and how many. */
size_t plan_block_first(const struct campaign_plan *p, size_t block);
size_t plan_nblocks(const struct campaign_plan *p);
/* Write the plan to path (temporary file, synced, renamed; never over one
 * that exists).  Returns 0, or -1 with the reason in why. */
int plan_write(const char *path, const struct campaign_plan *p, char *why, size_t len);
int plan_read(const char *path, struct campaign_plan *p, char *why, size_t len);
/* The order as labels, "A B B A | ..." (the burn-in boots first). */
void plan_print_order(const struct campaign_plan *p, FILE *f);
void plan_free(struct campaign_plan *p);

#endif
