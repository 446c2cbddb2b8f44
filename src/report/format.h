/* SPDX-License-Identifier: GPL-2.0-or-later */
/* format.h - what the report's printers share (and runsummary.c, json_str):
 * a format's entry in printers.c's table; the numbers and escaping of each
 * format, the figures of a cell by name and the notes' plumbing (format.c);
 * the tables and what goes under them. */
#ifndef CONTEST_REPORT_FORMAT_H
#define CONTEST_REPORT_FORMAT_H

#include <stddef.h>
#include <stdio.h>

#include "report/report.h"

/* One output format: printers.c lists them in enum report_format's order. */
struct report_printer {
	const char *name;
	void (*print)(FILE *f, const struct report *r, const struct report_opts *o);
};

extern const struct report_printer report_format_text;
extern const struct report_printer report_format_markdown;
extern const struct report_printer report_format_csv;
extern const struct report_printer report_format_json;
extern const struct report_printer report_format_keyvalue;

/* ---- the figures of a cell, by name (the data formats; format.c) ---- */

#define REPORT_NSUMMARY 7
#define REPORT_NTEST 4

/* The figures of a cell are run_metrics' rows (results/run.h) that the
 * report shows: its summaries (report_summary_of()), and the rest. */
/* mean, sd, min, median, max, ci_lo, ci_hi: a summary's figures into v. */
extern const char *const report_summary_fields[REPORT_NSUMMARY];
void report_summary_values(const struct summary *s, double *v);
/* t, df, p, p_holm */
extern const char *const report_test_fields[REPORT_NTEST];
void report_test_values(const struct sigtest *t, double *v);
/* The system figures of a cell (the figures the report shows by a mean or
 * a total, but the tables' own: loads_per_s, cpu_total, idle, iowait,
 * majflt, pswpin, pswpout): their names into names[], and with a cell their
 * values into v[] (RUN_METRICS_MAX each); how many. */
size_t report_system_values(const struct cell *c, const char **names, double *v);

/* A number in full (10 significant digits) after before, or none when it
 * is NaN or infinite. */
void report_put_num(FILE *f, double v, const char *before, const char *none);
/* How the Ratios chose their noload: "session" or "pooled". */
const char *report_ratio_noload(const struct report *r);

/* ---- each format's escaping and numbers (format.c) ---- */

/* A JSON string (NULL: null), a number (NaN: null), "name": value pairs of
 * numbers inside an object, a test as an object. */
void json_str(FILE *f, const char *str);
void json_num(FILE *f, double v);
void json_nums(FILE *f, const char *const *names, const double *v, size_t n);
void json_test(FILE *f, const struct sigtest *t);
/* A latency or delays document's opening: {"schema": SCHEMA, "baseline":
 * the test base, "alpha": the level (the caller goes on with ", ..."). */
void json_open(FILE *f, const char *schema, const struct report *r);
/* A CSV field, after a comma unless first; a number after a comma (NaN:
 * empty); a test's t, df, p, p_holm, significant and why untested. */
void csv_str(FILE *f, const char *s, int first);
void csv_num(FILE *f, double v);
void csv_test(FILE *f, const struct sigtest *t);
/* Markdown text, escaped, padded to width; n dashes; how wide s is
 * escaped. */
void md_text(FILE *f, const char *s, int width);
void md_dashes(FILE *f, int n);
int md_width(const char *s);
/* keyvalue: a number as its lines write it (no exponent); a row's name
 * made fit for a key (allocated). */
void report_put_fixed(FILE *f, double v);
char *report_key_name(const char *name);

/* The version of the keyvalue keys of the report and of report --latency
 * (docs/formats.md), their first line. */
#define REPORT_KEYVALUE_VERSION 2

/* A keyvalue key: PREFIX TYPE "." NAME SUFFIX, with PREFIX the row's name
 * and a dot when the report has several rows. */
struct keyvalue_key {
	const char *row;     /* the row's name made fit for a key, or "" */
	const char *type;
};

/* One "key: value" line; none for a figure that does not exist (NaN). */
void keyvalue_line(FILE *f, const struct keyvalue_key *k, const char *name, const char *suffix,
		   double v);
/* A test's figures after the metric's key; none when it was not made. */
void keyvalue_test(FILE *f, const struct keyvalue_key *k, const char *metric,
		   const struct sigtest *t);

/* ---- the label column, the notes and legends (format.c) ---- */

/* The width of the label column: the longest row name, 20 at least. */
int report_label_width(const struct report *r);
/* Row g's name as a table prints it: with mark, the test base's own row,
 * where other rows were tested against it, as "NAME (base)" (in buf, else
 * the name itself).  The widest of the rows' such names, least at least. */
const char *report_row_title(const struct report *r, size_t g, int mark, char *buf, size_t len);
int report_title_width(const struct report *r, int mark, int least);

/* The width of a mail (text tables and notes). */
#define REPORT_MAIL_WIDTH 72

/* The label column of a text table whose other columns take rest: as
 * report_label_width() where that keeps its lines within width (0: no
 * limit), else what is left of width ("Kernel" at least).  A name longer
 * than the column goes on a line of its own (report_put_label()). */
int report_fit_label(const struct report *r, int rest, int width);
/* A row's name in a label column w wide: padded, or, longer, on a line of
 * its own and the column left blank on the next, under it. */
void report_put_label(FILE *f, const char *name, int w);

/* A figure v rounded to what the spread between runs supports: to the
 * place of the leading digit of v x rel (rel: the runs' spread as a share
 * of the figure; NaN where it is not known, from fewer than 2 runs: 2
 * significant figures), 1 significant figure at least and 3 at most. */
void report_round_spread(double v, double rel, char *buf, size_t len);

/* Where the notes under the tables go: line() writes one as the format
 * does; the first is set off by a blank line. */
struct report_out {
	FILE *f;
	void (*line)(FILE *f, const char *text);
	int gap;
	int width;      /* where long notes wrap (text: a mail's 72); 0: never */
};

/* One note under the tables, as the format writes it; the first is set off
 * by a blank line. */
void report_note(struct report_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same, wrapped at the words to o->width (none: one line), its
 * further lines indented by two spaces. */
void report_note_wrap(struct report_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Whether a note n characters long fits o's lines. */
int report_note_fits(const struct report_out *o, size_t n);
/* A note that may be long: head, then text's words (one space between),
 * wrapped at the words to the report's width (0: one line), its further
 * lines indented by indent spaces (4 where that is more than half the
 * width); a word longer than a line is cut where the line ends, a head
 * longer than indent left alone on its line when the first word does not
 * fit after it.  No line ends in a blank.  REPORT_GLUE in text is a space
 * at which no line breaks ("8.0 KiB"); values shown have none of their
 * own (report_printable). */
#define REPORT_GLUE REPORT_NBSP[0]
void report_note_wrapped(struct report_out *o, const char *head, int indent, const char *text);
/* One line of a legend: as it is, or (markdown) a list item, escaped. */
void report_legend_line(FILE *f, int markdown, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A space the wrapping keeps (between a row's name and its figures, in
 * "p < 0.05"), printed as a space; no label holds one (store_check_label()
 * refuses control characters). */
#define REPORT_NBSP "\a"
/* text and a newline, wrapped at its spaces before a word that would take
 * the line past width (0: never), the further lines indented by two; a
 * word too long for a line of its own is wrapped at its REPORT_NBSPs. */
void report_wrap(FILE *f, const char *text, int width);
/* s with every space a REPORT_NBSP (allocated); s with every REPORT_NBSP a
 * space again (in place, returned). */
char *report_nobreak(const char *s);
char *report_unbreak(char *s);
/* One line of a legend, a sentence: in text wrapped within a mail's width
 * (report_wrap()), in markdown a list item. */
void report_legend_wrap(FILE *f, int markdown, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* ---- the tables (text and markdown) and what goes under them ---- */

/* at least the most pick_columns() picks: 11 with --stats, and a column of
 * every figure with one (run_metrics) with --columns */
#define REPORT_MAX_COLUMNS (11 + RUN_METRICS_MAX)
#define REPORT_CELL_TEXT 48
/* room for a row's name as a table prints it (report_row_title) */
#define REPORT_TITLE_MAX 256

/* One run type's table: the columns' headers and least widths (the header's
 * at least), the text of every cell ("" where the row has no runs of the
 * type) and whether a '*' follows it, [row * ncols + column]. */
struct report_table {
	size_t ncols;
	const char *head[REPORT_MAX_COLUMNS];
	int width[REPORT_MAX_COLUMNS];
	char (*text)[REPORT_CELL_TEXT];
	char *mark;
	/* Left 0, a table is printed as it has always been: */
	int wrap;               /* the widest line: the columns past it go to a table
	                         * right under it, the label column repeated; 0: one
	                         * table however wide */
	int mark_base;          /* the test base's row "NAME (base)" (report_row_title) */
	int label_least;        /* the label column's least width; 0: 20 */
};

/* Where a table wraps at tb->wrap: the first column of each of its parts
 * in start[] (REPORT_MAX_COLUMNS + 1 of them; start[n] = ncols), the count
 * n returned.  A line is lead wide, then cost[c] for each column, and
 * tail[c] more where c is its last (NULL: none); a column too wide for a
 * line of its own still has one. */
size_t report_table_parts(const struct report_table *tb, int lead, const int *cost,
			  const int *tail, size_t *start);
/* The label column's width: the widest row's name (marked as tb says),
 * tb->label_least at least. */
int report_table_label_width(const struct report *r, const struct report_table *tb);

/* Notes on what a reader would notice in the runs (checks.c): a
 * load's Ratio below 0.9, a noload slower than its session's loaded runs or
 * with far less CPU than the row's other noloads, a run far outside its rounds
 * (median absolute deviation), each naming the run; and, for a row with
 * such a note and a session with one noload, that the next suite should run
 * -n 3 or more. */
void report_checks(struct report_out *o, const struct report *r);
/* report --header (header.c): each label's kernel (a row's, where a
 * label's rows ran several; and the command lines where they differ), then
 * what the rows' runs share (CPU, RAM and swap, file system, workload,
 * --quick, one unit of each load's Loads with its sizes, flush, probe,
 * contest's version), a line each, wrapped at the report's width, then a
 * blank line. */
void report_header(struct report_out *o, const struct report *r);
/* Under the tables (header.c): rows of different labels measured in one
 * boot of one kernel (or, where the records hold no boot, on one build and
 * command line), alike in everything else, a line naming them: what a
 * forgotten reboot between two kernels looks like.  A comparison's
 * configurations, one boot by design, are left alone. */
void report_same_boot(struct report_out *o, const struct report *r);
/* Under the tables (differences.c): a line for each label whose runs split
 * into rows, by machine, kernel, workload or configuration; then every field
 * of the environment records, the flush and every size of a load in which
 * the rows, or the sessions averaged in one row, were not measured alike. */
void report_splits(struct report_out *o, const struct report *r);
void report_differences(struct report_out *o, const struct report *r);
/* Values as shown (vals[i] NULL: none): where one is longer than room
 * (a kernel command line; room 0: none is) and the values share words,
 * "(no other word)" when none is left (*cut set); else copies.  The caller
 * frees the array and its strings. */
char **report_shorten(char *const *vals, size_t nvals, int room, int *cut);
/* Whether rows a and b were measured alike in every field the differences
 * compare (the kernel, boots and labels aside): no line of the differences
 * would tell them apart. */
int report_rows_alike(const struct report *r, size_t a, size_t b);

/* Under run type t's table (leftout.c): each row's invalid runs of t
 * ("ROW rounds 1, 3 left out: REASON", a line per reason) and what the
 * loads of its valid runs met ("ROW round 2: NOTE").  After the tables:
 * the invalid runs of the labels shown that no table names (a run type
 * without a valid run, a configuration without a row). */
void report_left_out(struct report_out *o, const struct report *r, size_t t);
void report_left_out_elsewhere(struct report_out *o, const struct report *r,
			       const struct report_opts *opts);

/* Run type t's table as text (text.c), as markdown (markdown.c; report
 * --delays too): a row per row with valid runs of t. */
void report_text_table(FILE *f, const struct report *r, size_t t, struct report_table *tb);
void report_md_table(FILE *f, const struct report *r, size_t t, struct report_table *tb);
/* The same under another title than the run type's; the text one's lines
 * within width where the columns leave room (0: the label column as wide
 * as the longest name). */
void report_text_table_as(FILE *f, const struct report *r, size_t t, const char *title,
			  int within, struct report_table *tb);
void report_md_table_as(FILE *f, const struct report *r, size_t t, const char *title,
			struct report_table *tb);

/* Every run type's table, in order, through table(); the notes under the
 * mem_load table and under them all through line() (tables.c). */
void report_tables(FILE *f, const struct report *r, const struct report_opts *o,
		   void (*table)(FILE *f, const struct report *r, size_t t,
				 struct report_table *tb),
		   void (*line)(FILE *f, const char *text));

#endif
