/* SPDX-License-Identifier: GPL-2.0-or-later */
/* printers.c - the report's formats, in one table (a printer a file: text.c,
 * markdown.c, csv.c, json.c, keyvalue.c), and contest report's way from the
 * stored runs to the page: build the model, then print it in the format
 * asked for, or the latency probe's or the delays' tables instead.  The
 * model (report.c) names no printer. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "report/format.h"
#include "report/report-internal.h"
#include "lib/util.h"

/* Every format, in enum report_format's order. */
static const struct report_printer *const printers[] = {
	&report_format_text, &report_format_markdown, &report_format_csv, &report_format_json,
	&report_format_keyvalue,
};

int report_format_parse(const char *name, enum report_format *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(printers); i++) {
		if (!strcmp(name, printers[i]->name)) {
			*out = (enum report_format)i;
			return 0;
		}
	}
	return -1;
}

static void count_invalid(const struct store *st, char *const *labels, size_t nl)
{
	size_t bad = 0;
	const struct run *last = NULL;

	for (size_t i = 0; i < st->nruns; i++) {
		if (st->runs[i].valid || !report_has(labels, nl, st->runs[i].label))
			continue;
		bad++;
		last = &st->runs[i];
	}
	if (bad)
		msg("%zu invalid run%s left out of the tables (the last: %s %s round %d: %s)",
		    bad, bad == 1 ? "" : "s", last->label, last->type, last->round,
		    last->reason ? last->reason : "no reason recorded");
}

int report_print(FILE *f, const struct store *st, const struct report_opts *o,
		 char *why, size_t len)
{
	struct report r;
	int built;

	if (o->latency && o->delays)
		return whyf(why, len, "--latency and --delays are two reports: ask for one");
	built = report_build(st, o, &r, why, len);
	if (built)
		return built;
	if (o->delays) {
		int rc = report_delays_print(f, &r, o->format, why, len);

		report_free(&r);
		return rc;
	}
	if (o->latency) {
		int rc = report_latency_print(f, &r, o->format, why, len);

		report_free(&r);
		return rc;
	}
	printers[o->format]->print(f, &r, o);
	if (r.unmatched)
		msg("baseline '%s' has no noload run of the workload of some rows: their "
		    "Ratio is -", r.ratio_base);
	/* the tables name them; the data formats count them, without reasons */
	if (o->format != REPORT_TEXT && o->format != REPORT_MARKDOWN)
		count_invalid(st, r.labels, r.nlabels);
	report_free(&r);
	return 0;
}
