/* SPDX-License-Identifier: GPL-2.0-or-later */
/* boot.h - booting a campaign's kernel: kexec, grub, sdboot or script:CMD,
 * behind one small set of operations. */
#ifndef CONTEST_CAMPAIGN_BOOT_H
#define CONTEST_CAMPAIGN_BOOT_H

#include <stddef.h>
#include <stdint.h>

#include "campaign/plan.h"

/* What one boot needs: the plan, the boot, the base command line (the one
 * `start` found, without BOOT_IMAGE= and contest.campaign=) and the file
 * where a test's boots are told instead of done. */
struct boot_req {
	const struct campaign_plan *p;
	uint64_t seq;
	const char *base_cmdline;
	const char *log;
};

struct boot_method {
	const char *name;
	/* before the first reboot: can this machine boot this way at all (NULL:
	 * nothing to check)?  Returns 0, or -1 with the reason in why */
	int (*ready)(const struct campaign_plan *p, char *why, size_t len);
	/* before the first reboot: can this machine boot arm this way?
	 * Returns 0, or -1 with the reason in why */
	int (*check)(const struct campaign_plan *p, const struct arm *a, char *why, size_t len);
	/* boot r->seq: 0 once asked for (the machine goes down), or -1 with
	 * the reason in why */
	int (*boot)(const struct boot_req *r, char *why, size_t len);
};

/* The method of a plan's --method, or NULL when there is none so named. */
const struct boot_method *boot_method(const char *method);
/* The running command line as every arm's base: without BOOT_IMAGE=,
 * contest.campaign=, panic= and initrd= words. */
void boot_base_cmdline(const char *running, char *out, size_t len);
/* kexec's command line for boot seq of arm: base, the arm's append=,
 * panic=10 and the marker contest.campaign=ID/SEQ. */
void boot_kexec_cmdline(const struct boot_req *r, char *out, size_t len);
/* grub and sdboot: the command that sets the one-shot entry, into argv
 * (at least 4 slots, NULL-terminated); -1 when the arm names no entry. */
int boot_oneshot_argv(const char *method, const struct arm *a, const char **argv);

#endif
