/* SPDX-License-Identifier: GPL-2.0-or-later */
/* campaign.h - contest campaign: kernels compared across reboots,
 * unattended (plan, start, resume, status, abort), and its report. */
#ifndef CONTEST_CAMPAIGN_H
#define CONTEST_CAMPAIGN_H

#include "run/options.h"

/* contest campaign VERB [ID] ...: the exit status.  parse is the command
 * line's parser (cli.c), with which the plan's words are parsed again at
 * every boot: 0 when they parse. */
int campaign_main(struct config *cfg, int (*parse)(int argc, char **argv, struct config *cfg));
/* The verbs of contest campaign, for its --help: name and what it does;
 * ends with a NULL name. */
struct campaign_verb {
	const char *name, *summary;
};
extern const struct campaign_verb campaign_verbs[];
/* contest report --campaign ID: the tables, the boot the unit. */
int campaign_report(const char *id);

#endif
