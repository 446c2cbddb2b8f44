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
 * significant value carries a '*' in the space after it. */
void report_text_table_as(FILE *f, const struct report *r, size_t t, const char *title,
			  int within, struct report_table *tb)
{
	int width[REPORT_MAX_COLUMNS], any[REPORT_MAX_COLUMNS] = { 0 };
	int w, rest = 0;
	size_t ncols = tb->ncols;

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
		rest += 1 + width[c];
	}
	rest += ncols && any[ncols - 1];	/* a '*' after the last column */
	w = report_fit_label(r, rest, within);
	fprintf(f, "%s:\n%-*s", title, w, "Kernel");
	for (size_t c = 0; c < ncols; c++)
		fprintf(f, " %*s", width[c], tb->head[c]);
	fputc('\n', f);
	for (size_t g = 0; g < r->nrows; g++) {
		if (!report_cell(r, g, t)->n)
			continue;
		report_put_label(f, r->rows[g].name, w);
		for (size_t c = 0; c < ncols; c++) {
			size_t i = g * ncols + c;
			int star = c && tb->mark[i - 1];

			fprintf(f, "%c%*s", star ? '*' : ' ', width[c], tb->text[i]);
		}
		if (ncols && tb->mark[g * ncols + ncols - 1])
			fputc('*', f);
		fputc('\n', f);
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
