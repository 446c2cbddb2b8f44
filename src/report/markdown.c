/* SPDX-License-Identifier: GPL-2.0-or-later */
/* markdown.c - the report as markdown: the same tables as pipe
 * tables, the notes as a list. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "report/format.h"

/* One run type's table: "**TITLE:**", the header, the alignment line and a
 * row per row with runs of it, the columns right-aligned.  A significant
 * value carries an escaped '*' in its cell.  Columns past tb->wrap go to a
 * table of their own under it (after a blank line: a line right under a
 * table would be one of its rows). */
void report_md_table_as(FILE *f, const struct report *r, size_t t, const char *title,
			struct report_table *tb)
{
	int width[REPORT_MAX_COLUMNS], cost[REPORT_MAX_COLUMNS];
	int w = report_table_label_width(r, tb);
	size_t ncols = tb->ncols, start[REPORT_MAX_COLUMNS + 1], nparts;

	for (size_t g = 0; g < r->nrows; g++) {
		char name[REPORT_TITLE_MAX];
		int n = md_width(report_row_title(r, g, tb->mark_base, name, sizeof(name)));

		if (n > w)
			w = n;
	}
	for (size_t c = 0; c < ncols; c++) {
		width[c] = tb->width[c];
		for (size_t g = 0; g < r->nrows; g++) {
			size_t i = g * ncols + c;

			if (tb->mark[i])
				strcat(tb->text[i], "\\*");
			if ((int)strlen(tb->text[i]) > width[c])
				width[c] = (int)strlen(tb->text[i]);
		}
		cost[c] = width[c] + 3;
	}
	/* "| " LABEL " |", then " VALUE |" a column */
	nparts = report_table_parts(tb, w + 4, cost, NULL, start);
	fprintf(f, "**");
	md_text(f, title, 0);
	fprintf(f, ":**\n");
	for (size_t p = 0; p < nparts; p++) {
		size_t from = start[p], to = start[p + 1];

		fprintf(f, "\n| %-*s |", w, "Kernel");
		for (size_t c = from; c < to; c++)
			fprintf(f, " %*s |", width[c], tb->head[c]);
		fputs("\n|:", f);
		md_dashes(f, w);
		fputs("-|", f);
		for (size_t c = from; c < to; c++) {
			md_dashes(f, width[c] + 1);
			fputs(":|", f);
		}
		fputc('\n', f);
		for (size_t g = 0; g < r->nrows; g++) {
			char name[REPORT_TITLE_MAX];

			if (!report_cell(r, g, t)->n)
				continue;
			fputs("| ", f);
			md_text(f, report_row_title(r, g, tb->mark_base, name, sizeof(name)), w);
			fputs(" |", f);
			for (size_t c = from; c < to; c++)
				fprintf(f, " %*s |", width[c], tb->text[g * ncols + c]);
			fputc('\n', f);
		}
	}
}

void report_md_table(FILE *f, const struct report *r, size_t t, struct report_table *tb)
{
	report_md_table_as(f, r, t, r->types[t], tb);
}

/* A note: a list item; one indented (a row under a difference's name), an
 * item of the list under the one before. */
static void md_line(FILE *f, const char *text)
{
	if (text[0] == ' ') {
		text += strspn(text, " ");
		fputs("  ", f);
	}
	fputs("- ", f);
	md_text(f, text, 0);
	fputc('\n', f);
}

static void print_markdown(FILE *f, const struct report *r, const struct report_opts *o)
{
	report_tables(f, r, o, report_md_table, md_line);
}

const struct report_printer report_format_markdown = { "markdown", print_markdown };
