/* SPDX-License-Identifier: GPL-2.0-or-later */
/* text.c - the report as plain text: the tables of 2002, columns
 * aligned with spaces, fit for a mail, and the notes under them. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "report/format.h"

/* One run type's table: "TITLE:", the header and a row per row with runs
 * of it, columns right-aligned under their headers, the label column wide
 * enough for the longest label (within width: report_fit_label()).  A
 * significant value carries a '*' in the space after it.  Columns past
 * tb->wrap go to a table right under it, with a header of their own. */
void report_text_table_as(FILE *f, const struct report *r, size_t t, const char *title,
			  int within, struct report_table *tb)
{
	int width[REPORT_MAX_COLUMNS], any[REPORT_MAX_COLUMNS] = { 0 }, cost[REPORT_MAX_COLUMNS];
	int w = report_table_label_width(r, tb);
	size_t ncols = tb->ncols, start[REPORT_MAX_COLUMNS + 1], nparts;

	for (size_t c = 0; c < ncols; c++) {
		int widest = 0;

		for (size_t g = 0; g < r->nrows; g++) {
			size_t i = g * ncols + c;

			any[c] |= tb->mark[i];
			if ((int)strlen(tb->text[i]) > widest)
				widest = (int)strlen(tb->text[i]);
		}
		width[c] = tb->width[c];
		/* after a '*', keep a space before the value */
		if (widest + (c && any[c - 1]) > width[c])
			width[c] = widest + (c && any[c - 1]);
		cost[c] = 1 + width[c];
	}
	if (within) {	/* the label column narrowed to keep the lines within */
		int rest = ncols && any[ncols - 1];

		for (size_t c = 0; c < ncols; c++)
			rest += cost[c];
		if (w + rest > within)
			w = report_fit_label(r, rest, within);
	}
	/* a '*' after a part's last column makes its line one longer */
	nparts = report_table_parts(tb, w, cost, any, start);
	fprintf(f, "%s:\n", title);
	for (size_t p = 0; p < nparts; p++) {
		size_t from = start[p], to = start[p + 1];

		fprintf(f, "%-*s", w, "Kernel");
		for (size_t c = from; c < to; c++)
			fprintf(f, " %*s", width[c], tb->head[c]);
		fputc('\n', f);
		for (size_t g = 0; g < r->nrows; g++) {
			char name[REPORT_TITLE_MAX];

			if (!report_cell(r, g, t)->n)
				continue;
			report_put_label(f, report_row_title(r, g, tb->mark_base, name,
							     sizeof(name)), w);
			for (size_t c = from; c < to; c++) {
				size_t i = g * ncols + c;
				int star = c > from && tb->mark[i - 1];

				fprintf(f, "%c%*s", star ? '*' : ' ', width[c], tb->text[i]);
			}
			if (to > from && tb->mark[g * ncols + to - 1])
				fputc('*', f);
			fputc('\n', f);
		}
	}
}

void report_text_table(FILE *f, const struct report *r, size_t t, struct report_table *tb)
{
	report_text_table_as(f, r, t, r->types[t], 0, tb);
}

static void text_line(FILE *f, const char *text)
{
	fprintf(f, "%s\n", text);
}

static void print_text(FILE *f, const struct report *r, const struct report_opts *o)
{
	report_tables(f, r, o, report_text_table, text_line);
}

const struct report_printer report_format_text = { "text", print_text };
