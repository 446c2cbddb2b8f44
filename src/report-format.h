/* report-format.h - what the report's printers share (src/report*.c, and
 * runsummary.c for json_str): a format's registry entry, the figures of a
 * cell by name, the tables' columns and the notes under the tables. */
#ifndef CONTEST_REPORT_FORMAT_H
#define CONTEST_REPORT_FORMAT_H

#include <stddef.h>
#include <stdio.h>

#include "report.h"

/* One output format: report.c lists them in enum report_format's order. */
struct report_printer {
	const char *name;
	void (*print)(FILE *f, const struct report *r, const struct report_opts *o);
};

extern const struct report_printer report_format_text;
extern const struct report_printer report_format_markdown;
extern const struct report_printer report_format_csv;
extern const struct report_printer report_format_json;
extern const struct report_printer report_format_keyvalue;

/* ---- the figures of a cell, by name (the data formats) ---- */

#define REPORT_NMETRICS 4
#define REPORT_NSUMMARY 7
#define REPORT_NTEST 4
#define REPORT_NSYSTEM 7

/* time, cpu, loads, lcpu: the summaries of a cell, in this order. */
extern const char *const report_metrics[REPORT_NMETRICS];
const struct summary *report_metric(const struct cell *c, size_t m);
/* mean, sd, min, median, max, ci_lo, ci_hi: a summary's figures into v. */
extern const char *const report_summary_fields[REPORT_NSUMMARY];
void report_summary_values(const struct summary *s, double *v);
/* t, df, p, p_holm */
extern const char *const report_test_fields[REPORT_NTEST];
void report_test_values(const struct sigtest *t, double *v);
/* loads_per_s, cpu_total, idle, iowait, majflt, pswpin, pswpout */
extern const char *const report_system_fields[REPORT_NSYSTEM];
void report_system_values(const struct cell *c, double *v);

/* A number in full (10 significant digits) after before, or none when it
 * is NaN or infinite. */
void report_put_num(FILE *f, double v, const char *before, const char *none);
/* How the Ratios chose their noload: "session" or "pooled". */
const char *report_ratio_noload(const struct report *r);
/* The noload cell of a row, or NULL. */
const struct cell *report_noload_of(const struct report *r, size_t g);

/* Every key of the rows' environment records, in first-seen order; every
 * name of the loads' sizes in the runs of type t (every type: t == ntypes).
 * The caller frees the array, not the keys. */
char **report_env_keys(const struct report *r, size_t *n);
char **report_param_keys(const struct report *r, size_t t, size_t *n);
/* A row's values of key, each distinct one once, joined by " / ", how many
 * in *count; NULL when there is none.  Raw: as stored, absent ones left
 * out; else as compared and shown.  The caller frees it. */
char *report_row_value(const struct report *r, const struct report_row *g, const char *key,
		       int raw, size_t *count);
/* The same for a size the load of a row's runs of type t used. */
char *report_cell_param(const struct report *r, size_t g, size_t t, const char *key, int raw,
			size_t *count);

/* ---- the formats' own pieces, for the latency tables (report-latency.c) ---- */

/* A JSON string (NULL: null), a number (NaN: null), a test as an object. */
void json_str(FILE *f, const char *str);
void json_num(FILE *f, double v);
void json_test(FILE *f, const struct sigtest *t);
/* A CSV field, after a comma unless first; a number after a comma (NaN:
 * empty); a test's t, df, p, p_holm, significant and why untested. */
void csv_str(FILE *f, const char *s, int first);
void csv_num(FILE *f, double v);
void csv_test(FILE *f, const struct sigtest *t);
/* Markdown text, escaped, padded to width; n dashes. */
void md_text(FILE *f, const char *s, int width);
void md_dashes(FILE *f, int n);

/* ---- the tables (text and markdown) ---- */

#define REPORT_MAX_COLUMNS 16
#define REPORT_CELL_TEXT 48

/* One run type's table: the columns' headers and least widths (the header's
 * at least), the text of every cell ("" where the row has no runs of the
 * type) and whether a '*' follows it, [row * ncols + column]. */
struct report_table {
	size_t ncols;
	const char *head[REPORT_MAX_COLUMNS];
	int width[REPORT_MAX_COLUMNS];
	char (*text)[REPORT_CELL_TEXT];
	char *mark;
};

/* The width of the label column: the longest row name, 20 at least. */
int report_label_width(const struct report *r);

/* Where the notes under the tables go: line() writes one as the format
 * does; the first is set off by a blank line. */
struct report_out {
	FILE *f;
	void (*line)(FILE *f, const char *text);
	int gap;
};

/* Every run type's table, in order, through table(); the notes under the
 * mem_load table and under them all through line(). */
void report_tables(FILE *f, const struct report *r, const struct report_opts *o,
		   void (*table)(FILE *f, const struct report *r, size_t t,
				 struct report_table *tb),
		   void (*line)(FILE *f, const char *text));

#endif
