/* SPDX-License-Identifier: GPL-2.0-or-later */
/* state.h - a campaign's journal, and what to do next: a pure function of
 * the plan, the journal and what this boot looks like. */
#ifndef CONTEST_CAMPAIGN_STATE_H
#define CONTEST_CAMPAIGN_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "campaign/plan.h"

/* A journal line's step.  END closes the campaign (done, stopped, aborted). */
enum phase { PH_REBOOTING, PH_UP, PH_VERIFIED, PH_RAN, PH_FAILED, PH_LOST, PH_END };

struct jline {
	uint64_t seq;		/* the boot of the plan (0 with END before any) */
	enum phase phase;
	char boot_id[64];	/* of the boot that wrote it */
	int64_t time;		/* seconds since the epoch */
	char note[512];
	/* verified: the kernel's identity; ran: the suite's session */
	char release[128], version[512], build_id[128], session[64];
};

/* What the running system shows (campaign.c reads it under the root prefix). */
struct facts {
	char boot_id[64];
	char cmdline[4096];
	char release[128], version[512], build_id[128];
	int stop_file;		/* STOP in the campaign's directory */
	int until_met;		/* --until: the last whole block's interval is narrow enough */
};

enum action {
	ACT_IDLE,	/* the campaign is over: nothing to do */
	ACT_APPEND,	/* append the line, then decide again */
	ACT_RUN,	/* measure boot line.seq (burn-in: nothing), then append line (ran) */
	ACT_BOOT,	/* append the line (rebooting), then boot line.seq */
	ACT_END,	/* append the line (end), disable the service, print the tables */
};

struct decision {
	enum action act;
	struct jline line;
};

const char *phase_name(enum phase ph);
/* The journal line as a record line (the caller frees it), and back: 0, or
 * -1 when the line is damaged (a torn last line). */
char *jline_encode(const struct jline *l);
int jline_decode(const char *text, size_t len, struct jline *l);
/* Append l as one line, fsync'ed; returns 0, or -1 with the reason in why. */
int journal_append(const char *path, const struct jline *l, char *why, size_t len);
/* The journal's good lines (*n; a damaged one is skipped and counted in
 * *damaged).  A journal that does not exist is empty.  Returns 0, or -1 with
 * the reason in why. */
int journal_read(const char *path, struct jline **lines, size_t *n, size_t *damaged,
		 char *why, size_t len);

/* The cmdline's contest.campaign= value ("" when none), into buf. */
void marker_of(const char *cmdline, char *buf, size_t len);
/* The next step: from the journal's last line and the facts, the line to
 * append and what to do around it.  Never reads or writes anything. */
void campaign_decide(const struct campaign_plan *p, const struct jline *j, size_t n,
		     const struct facts *f, int64_t now, struct decision *d);
/* Counts from the journal: boots ran (measured ones in *measured), reboots,
 * failures of arm. */
size_t journal_ran(const struct campaign_plan *p, const struct jline *j, size_t n,
		   size_t *measured);
size_t journal_reboots(const struct jline *j, size_t n);
size_t journal_failures(const struct campaign_plan *p, const struct jline *j, size_t n,
			size_t arm);
/* The line of arm's first verified boot: the identity (release, version,
 * build id) its every boot must keep; NULL before it booted. */
const struct jline *journal_first_verified(const struct campaign_plan *p, const struct jline *j,
					   size_t n, size_t arm);
/* The line that says seq ran, or NULL. */
const struct jline *journal_ran_line(const struct jline *j, size_t n, uint64_t seq);

#endif
