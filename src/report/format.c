/* SPDX-License-Identifier: GPL-2.0-or-later */
/* format.c - what every printer of the report uses, in one place: numbers
 * as the formats write them, the figures of a cell by name, the escaping of
 * json, csv and markdown, the keys and lines of keyvalue, the label column's
 * width and the notes and legends under the tables.  The printers (one a
 * file) use these and never one another's. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "lib/util.h"

#define LABEL_WIDTH 20

/* ---- numbers ------------------------------------------------------------- */

void report_put_num(FILE *f, double v, const char *before, const char *none)
{
	if (isnan(v) || isinf(v))
		fprintf(f, "%s%s", before, none);
	else
		fprintf(f, "%s%.10g", before, v);
}

void format_loads(double loads, char *buf, size_t len)
{
	size_t n;

	if (loads >= 9.95) {
		snprintf(buf, len, "%.0f", loads);
		return;
	}
	snprintf(buf, len, "%.1f", loads);
	n = strlen(buf);
	if (n > 2 && !strcmp(buf + n - 2, ".0"))
		buf[n - 2] = '\0';
}

/* v as the json report writes it (10 significant digits), without an
 * exponent: 2.5e-07 is 0.00000025, 1.5e+12 is 1500000000000. */
void report_put_fixed(FILE *f, double v)
{
	char g[40], digits[40], *e, *p;
	size_t n = 0;
	long exp;

	snprintf(g, sizeof(g), "%.10g", v);
	e = strchr(g, 'e');
	if (!e) {
		fputs(g, f);
		return;
	}
	exp = strtol(e + 1, NULL, 10);
	*e = '\0';
	p = g;
	if (*p == '-')
		fputc(*p++, f);
	for (; *p; p++)		/* the mantissa's digits, d.ddd: point after the first */
		if (*p != '.')
			digits[n++] = *p;
	digits[n] = '\0';
	if (exp < 0) {
		fputs("0.", f);
		for (long i = -1; i > exp; i--)
			fputc('0', f);
		fputs(digits, f);
	} else {
		for (long i = 0; i <= exp || i < (long)n; i++) {
			if (i == exp + 1)
				fputc('.', f);
			fputc(i < (long)n ? digits[i] : '0', f);
		}
	}
}

/* ---- the figures of a cell, by name -------------------------------------- */

/* How the Ratios chose their noload: of the run's own session, or pooled
 * over the sessions (of the row's label, or of --baseline's). */
const char *report_ratio_noload(const struct report *r)
{
	return r->ratio_base || r->pool_noload ? "pooled" : "session";
}

const char *const report_summary_fields[REPORT_NSUMMARY] = {
	"mean", "sd", "min", "median", "max", "ci_lo", "ci_hi",
};

void report_summary_values(const struct summary *s, double *v)
{
	double half = ci_half_width(s, REPORT_LEVEL);

	v[0] = s->mean;
	v[1] = s->sd;
	v[2] = s->min;
	v[3] = s->median;
	v[4] = s->max;
	v[5] = s->mean - half;
	v[6] = s->mean + half;
}

const char *const report_test_fields[REPORT_NTEST] = { "t", "df", "p", "p_holm" };

void report_test_values(const struct sigtest *t, double *v)
{
	v[0] = t->w.t;
	v[1] = t->w.df;
	v[2] = t->w.p;
	v[3] = t->p_holm;
}

size_t report_system_values(const struct cell *c, const char **names, double *v)
{
	size_t n = 0;

	for (const struct metric *m = run_metrics; m < run_metrics + run_nmetrics; m++) {
		if ((m->agg != METRIC_MEAN && m->agg != METRIC_TOTAL) || m->flags & METRIC_TABLES)
			continue;
		names[n] = m->key;
		if (c)
			v[n] = report_fig_of(c, m);
		n++;
	}
	return n;
}

/* ---- json ---------------------------------------------------------------- */

/* The length of the valid UTF-8 sequence at s, or 0. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;

	if (s[0] >= 0xf5)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	/* no overlong forms, surrogates or code points past U+10FFFF */
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

/* A JSON string: quotes, backslashes and control characters escaped, valid
 * UTF-8 kept, any other byte replaced by U+FFFD. */
void json_str(FILE *f, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	while (*s) {
		if (*s == '"' || *s == '\\') {
			fprintf(f, "\\%c", *s++);
		} else if (*s < 0x20 || *s == 0x7f) {
			fprintf(f, "\\u%04x", *s++);
		} else if (*s < 0x80) {
			fputc(*s++, f);
		} else {
			size_t n = utf8_len(s);

			if (n) {
				fwrite(s, 1, n, f);
				s += n;
			} else {
				fputs("\\ufffd", f);
				s++;
			}
		}
	}
	fputc('"', f);
}

void json_num(FILE *f, double v)
{
	report_put_num(f, v, "", "null");
}

void json_nums(FILE *f, const char *const *names, const double *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		fprintf(f, "%s\"%s\": ", i ? ", " : "", names[i]);
		json_num(f, v[i]);
	}
}

void json_open(FILE *f, const char *schema, const struct report *r)
{
	fprintf(f, "{\"schema\": \"%s\", \"baseline\": ", schema);
	json_str(f, r->test_base);
	fputs(", \"alpha\": ", f);
	json_num(f, r->alpha);
}

void json_test(FILE *f, const struct sigtest *t)
{
	double v[REPORT_NTEST];

	if (t->untested) {
		fputs("{\"untested\": ", f);
		json_str(f, t->untested);
		fputc('}', f);
		return;
	}
	report_test_values(t, v);
	fputc('{', f);
	json_nums(f, report_test_fields, v, ARRAY_SIZE(v));
	fprintf(f, ", \"significant\": %s}", t->significant ? "true" : "false");
}

/* ---- csv ----------------------------------------------------------------- */

/* A CSV field (RFC 4180): quoted when it holds a comma, a quote, a line
 * break or a space at an end, quotes doubled. */
void csv_str(FILE *f, const char *s, int first)
{
	size_t n = strlen(s);

	if (!first)
		fputc(',', f);
	if (!strpbrk(s, ",\"\r\n") && !(n && (s[0] == ' ' || s[n - 1] == ' '))) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

void csv_num(FILE *f, double v)
{
	report_put_num(f, v, ",", "");
}

void csv_test(FILE *f, const struct sigtest *t)
{
	double v[REPORT_NTEST];

	report_test_values(t, v);
	for (size_t i = 0; i < ARRAY_SIZE(v); i++)
		csv_num(f, v[i]);
	csv_str(f, t->untested ? "" : t->significant ? "1" : "0", 0);
	csv_str(f, t->untested ? t->untested : "", 0);
}

/* ---- markdown ------------------------------------------------------------ */

/* The characters markdown text escapes: | and markup. */
#define MD_ESCAPED "\\|*_`<["

/* Text in markdown (a label or type in a table, a note): | and markup
 * escaped, padded to width. */
void md_text(FILE *f, const char *s, int width)
{
	for (const char *p = s; *p; p++) {
		if (strchr(MD_ESCAPED, *p))
			fputc('\\', f);
		fputc(*p, f);
	}
	fprintf(f, "%*s", width > md_width(s) ? width - md_width(s) : 0, "");
}

int md_width(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += 1 + (strchr(MD_ESCAPED, *s) != NULL);
	return n;
}

void md_dashes(FILE *f, int n)
{
	while (n-- > 0)
		fputc('-', f);
}

/* ---- keyvalue ------------------------------------------------------------ */

/* A row's name as a key: every byte but letters, digits, '_', '.' and '-'
 * replaced by '_'. */
char *report_key_name(const char *name)
{
	char *s = xstrdup(name);

	for (char *p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || strchr("_.-", *p)))
			*p = '_';
	return s;
}

void keyvalue_line(FILE *f, const struct keyvalue_key *k, const char *name, const char *suffix,
		   double v)
{
	if (isnan(v) || isinf(v))
		return;
	fprintf(f, "%s%s%s.%s%s: ", k->row, k->row[0] ? "." : "", k->type, name, suffix);
	report_put_fixed(f, v);
	fputc('\n', f);
}

void keyvalue_test(FILE *f, const struct keyvalue_key *k, const char *metric,
		   const struct sigtest *t)
{
	double v[REPORT_NTEST];

	if (t->untested)
		return;
	report_test_values(t, v);
	for (size_t i = 0; i < REPORT_NTEST; i++) {
		char *suffix = xasprintf("_%s", report_test_fields[i]);

		keyvalue_line(f, k, metric, suffix, v[i]);
		free(suffix);
	}
	keyvalue_line(f, k, metric, "_significant", t->significant);
}

/* ---- the label column, the notes and legends under the tables ------------ */

int report_label_width(const struct report *r)
{
	return report_title_width(r, 0, LABEL_WIDTH);
}

const char *report_row_title(const struct report *r, size_t g, int mark, char *buf, size_t len)
{
	if (!mark || !r->compared || !r->rows[g].reference)
		return r->rows[g].name;
	snprintf(buf, len, "%s (base)", r->rows[g].name);
	return buf;
}

int report_title_width(const struct report *r, int mark, int least)
{
	int w = least;

	for (size_t g = 0; g < r->nrows; g++) {
		char buf[REPORT_TITLE_MAX];
		int n = (int)strlen(report_row_title(r, g, mark, buf, sizeof(buf)));

		if (n > w)
			w = n;
	}
	return w;
}

int report_table_label_width(const struct report *r, const struct report_table *tb)
{
	return report_title_width(r, tb->mark_base, tb->label_least ? tb->label_least : LABEL_WIDTH);
}

size_t report_table_parts(const struct report_table *tb, int lead, const int *cost,
			  const int *tail, size_t *start)
{
	size_t n = 0;
	int used = 0;

	for (size_t c = 0; c < tb->ncols; c++) {
		int end = tail ? tail[c] : 0;

		if (!c || (tb->wrap && used + cost[c] + end > tb->wrap)) {
			start[n++] = c;
			used = lead;
		}
		used += cost[c];
	}
	if (!n)		/* no column: the labels alone */
		start[n++] = 0;
	start[n] = tb->ncols;
	return n;
}

void report_note(struct report_out *o, const char *fmt, ...)
{
	va_list ap;
	char *line;

	va_start(ap, fmt);
	line = xvasprintf(fmt, ap);
	va_end(ap);
	if (!o->gap++)
		fputc('\n', o->f);
	o->line(o->f, line);
	free(line);
}

/* One word of report_wrap(): after a space, or at the start of a further
 * line where it would pass width. */
static void wrap_word(FILE *f, const char *p, size_t n, size_t *col, int width)
{
	if (width && *col && *col + 1 + n > (size_t)width) {
		fputs("\n  ", f);
		*col = 2;
	} else if (*col) {
		fputc(' ', f);
		(*col)++;
	}
	for (size_t i = 0; i < n; i++)
		fputc(p[i] == REPORT_NBSP[0] ? ' ' : p[i], f);
	*col += n;
}

void report_wrap(FILE *f, const char *text, int width)
{
	size_t col = 0;

	for (const char *p = text + strspn(text, " "); *p; p += strspn(p, " ")) {
		size_t n = strcspn(p, " ");

		if (width && 2 + n > (size_t)width) {
			/* too long for a line of its own: its parts are words */
			for (const char *q = p, *e = p + n; q < e; ) {
				size_t m = strcspn(q, REPORT_NBSP);

				if (m > (size_t)(e - q))
					m = (size_t)(e - q);
				wrap_word(f, q, m, &col, width);
				q += m + (q + m < e);
			}
		} else {
			wrap_word(f, p, n, &col, width);
		}
		p += n;
	}
	fputc('\n', f);
}

char *report_nobreak(const char *s)
{
	char *out = xstrdup(s);

	for (char *p = out; (p = strchr(p, ' ')); )
		*p = REPORT_NBSP[0];
	return out;
}

char *report_unbreak(char *s)
{
	for (char *p = s; (p = strchr(p, REPORT_NBSP[0])); )
		*p = ' ';
	return s;
}

/* A legend's line: a list item (markdown), wrapped within a mail's width,
 * or as it is. */
static void legend_vput(FILE *f, int markdown, int wrap, const char *fmt, va_list ap)
{
	char *line = xvasprintf(fmt, ap);

	if (markdown) {
		fputs("- ", f);
		md_text(f, report_unbreak(line), 0);
		fputc('\n', f);
	} else if (wrap) {
		report_wrap(f, line, REPORT_MAIL_WIDTH);
	} else {
		fprintf(f, "%s\n", line);
	}
	free(line);
}

int report_note_fits(const struct report_out *o, size_t n)
{
	return !o->width || n <= (size_t)o->width;
}

void report_note_wrap(struct report_out *o, const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	report_note_wrapped(o, "", 2, text);
	free(text);
}

/* line, its trailing blanks cut and its glue made spaces, as a note; then
 * freed. */
static void note_line(struct report_out *o, char *line)
{
	size_t n = strlen(line);

	while (n && line[n - 1] == ' ')
		line[--n] = '\0';
	for (char *p = line; (p = strchr(p, REPORT_GLUE)); p++)
		*p = ' ';
	report_note(o, "%s", line);
	free(line);
}

void report_note_wrapped(struct report_out *o, const char *head, int indent, const char *text)
{
	char *line = xstrdup(head);
	size_t width = o->width > 0 ? (size_t)o->width : 0;
	int fresh = 1, first = 1;	/* no word on the line yet; the head's line */
	const char *p = text + strspn(text, " ");

	if (width && (size_t)indent > width / 2)
		indent = 4;
	while (*p) {
		size_t len = strcspn(p, " "), used = strlen(line);
		char *more;

		if (width && used + !fresh + len > width) {
			if (!fresh || (first && used > (size_t)indent)) {
				/* on the next line, under the first word */
				note_line(o, line);
				line = xasprintf("%*s", indent, "");
				fresh = 1;
				first = 0;
				continue;
			}
			if (used < width) {
				/* a word longer than a line: cut where the line ends */
				len = width - used;
				more = xasprintf("%s%.*s", line, (int)len, p);
				free(line);
				note_line(o, more);
				line = xasprintf("%*s", indent, "");
				first = 0;
				p += len;
				continue;
			}
		}
		more = xasprintf("%s%s%.*s", line, fresh ? "" : " ", (int)len, p);
		free(line);
		line = more;
		fresh = 0;
		p += len;
		p += strspn(p, " ");
	}
	note_line(o, line);
}

void report_legend_line(FILE *f, int markdown, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	legend_vput(f, markdown, 0, fmt, ap);
	va_end(ap);
}

void report_legend_wrap(FILE *f, int markdown, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	legend_vput(f, markdown, 1, fmt, ap);
	va_end(ap);
}

int report_fit_label(const struct report *r, int rest, int width)
{
	int w = report_label_width(r), least = (int)strlen("Kernel");

	if (!width || w + rest <= width)
		return w;
	return width - rest > least ? width - rest : least;
}

void report_put_label(FILE *f, const char *name, int w)
{
	if ((int)strlen(name) > w)
		fprintf(f, "%s\n%*s", name, w, "");
	else
		fprintf(f, "%-*s", w, name);
}

/* ---- rounding to the spread ---------------------------------------------- */

void report_round_spread(double v, double rel, char *buf, size_t len)
{
	int lead, sig = 2, k;
	double scale, rounded;

	if (isnan(v) || isinf(v)) {
		snprintf(buf, len, "-");
		return;
	}
	if (v == 0) {
		snprintf(buf, len, "0");
		return;
	}
	lead = (int)floor(log10(fabs(v)));
	if (isinf(rel)) {
		sig = 1;
	} else if (rel >= 0) {		/* NaN is not */
		double spread = fabs(v) * rel;

		sig = spread > 0 ? lead - (int)floor(log10(spread)) + 1 : 3;
	}
	sig = sig < 1 ? 1 : sig > 3 ? 3 : sig;
	k = lead - sig + 1;		/* the place of the last digit kept */
	scale = pow(10, k);
	rounded = round(v / scale) * scale;
	if (fabs(rounded) >= pow(10, lead + 1))	/* 9.96 to 2 figures: 10, not 10.0 */
		k++;
	snprintf(buf, len, "%.*f", k < 0 ? -k : 0, rounded);
}
