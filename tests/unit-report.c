/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit-report.c - the table formatter and the cells computed from runs. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/report.h"
#include "tap.h"
#include "lib/util.h"

static size_t widest(const char *t)
{
	size_t w = 0;

	for (const char *p = t; *p; ) {
		size_t l = strcspn(p, "\n");

		if (l > w)
			w = l;
		p += l + (p[l] != 0);
	}
	return w;
}

static struct run mk(const char *label, const char *type, double secs, double cpu,
		     double work, double lcpu, int valid)
{
	struct run r = { 0 };
	int64_t ns = (int64_t)(secs * 1e9);

	r.label = strdup(label);
	r.type = strdup(type);
	r.session = strdup("s");
	r.workload = strdup("w");
	r.flush = strdup("none");
	r.round = 1;
	r.valid = valid;
	r.elapsed_ns = ns;
	r.user_ns = (int64_t)(ns * cpu / 100);
	r.work = work;
	r.load_cpu_ns = (int64_t)(ns * lcpu / 100);
	return r;
}

static char *report_with(struct store *st, const struct report_opts *o, int *rc)
{
	char *buf = NULL, why[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*rc = report_print(f, st, o, why, sizeof(why));
	fclose(f);
	return buf;
}

static char *report(struct store *st, const char *baseline, char **labels, size_t n, int *rc)
{
	struct report_opts o = { .baseline = baseline, .labels = labels, .nlabels = n };

	return report_with(st, &o, rc);
}

/* The table of one run type in a report: from "TYPE:" to the blank line. */
static char *table_of(const char *out, const char *type)
{
	char *head = xasprintf("%s:\n", type), *t;
	const char *p = out, *end;

	while ((p = strstr(p, head)) && p != out && p[-1] != '\n')
		p++;
	free(head);
	if (!p)
		return strdup("");
	end = strstr(p, "\n\n");
	t = strndup(p, end ? (size_t)(end - p) + 1 : strlen(p));
	return t;
}

static void free_runs(struct run *runs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		run_free(&runs[i]);
}

static void test_layout(void)
{
	struct run runs[] = {
		mk("2.4.18", "noload", 109.5 / 1.5336, 90, 0, 0, 1),
		mk("2.4.18", "process_load", 109.5, 57, 119, 44, 1),
		mk("2.4.18", "process_load", 109.5, 57, 119, 44, 1),
		mk("2.4.18", "process_load", 109.5, 57, 119, 44, 1),
		mk("2.5.47-mm1", "noload", 83.0 / 1.1625, 90, 0, 0, 1),
		mk("2.5.47-mm1", "process_load", 83.0, 83, 21, 20, 1),
		mk("2.5.47-mm1", "process_load", 83.0, 83, 21, 20, 1),
		mk("2.5.47-mm1", "process_load", 83.0, 83, 21, 20, 1),
		mk("2.5.47-mm1", "process_load", 83.0, 83, 21, 20, 1),
		mk("2.5.47-mm1", "process_load", 83.0, 83, 21, 20, 1),
		mk("no-noload", "process_load", 12.34, 190.4, 0.4, 12, 1),
	};
	struct store st = { .runs = runs, .nruns = ARRAY_SIZE(runs) };
	int rc;
	char *out = report(&st, NULL, NULL, 0, &rc), *t = table_of(out, "process_load");

	is_str(t,
	       "process_load:\n"
	       "Kernel               [runs]   Time  CPU%  Loads  LCPU%  Ratio\n"
	       "2.4.18 (base)           [3]  109.5    57    119     44   1.53\n"
	       "2.5.47-mm1              [5]   83.0    83     21     20   1.16\n"
	       "no-noload               [1]   12.3   190    0.4     12      -\n",
	       "the 2002 layout: label, [runs], Time .1, CPU%%, Loads, LCPU%%, Ratio .2, '-' without noload; "
	       "the baseline (first in sort order) marked");
	ok(!strchr(out, '\t'), "no tabs");
	free(t);
	free(out);
	free_runs(runs, ARRAY_SIZE(runs));

	struct run lng[] = { mk("6.12.0-rc3-sched-ext-lavd", "noload", 1234.56, 5, 1234.4, 300, 1) };
	st = (struct store){ .runs = lng, .nruns = 1 };
	out = report(&st, NULL, NULL, 0, &rc);
	char *second = strchr(out, '\n') + 1, *third = strchr(second, '\n') + 1;
	ok(strchr(second, '\n') - second == strchr(third, '\n') - third,
	   "a long label widens the column: header and row stay aligned");
	ok(strstr(out, "[1]") && strstr(out, "1234.6") && strstr(out, "  1234 "), "wide numbers fit");
	free(out);
	free_runs(lng, 1);

	struct run twenty[] = { mk("12345678901234567890", "noload", 9999.9, 999, 99999, 999, 1) };
	st = (struct store){ .runs = twenty, .nruns = 1 };
	out = report(&st, NULL, NULL, 0, &rc);
	ok(widest(out) <= 72, "at most 72 columns for a 20-character label (%zu)", widest(out));
	free(out);
	free_runs(twenty, 1);
}

static void test_loads(void)
{
	char b[32];

	format_loads(0, b, sizeof(b));
	is_str(b, "0", "no work: 0");
	format_loads(0.4, b, sizeof(b));
	is_str(b, "0.4", "a slow load shows 0.4, not 0");
	format_loads(1.0, b, sizeof(b));
	is_str(b, "1", "whole units print whole, as in 2002");
	format_loads(2.96, b, sizeof(b));
	is_str(b, "3", "2.96 rounds to 3");
	format_loads(9.94, b, sizeof(b));
	is_str(b, "9.9", "below 10: one decimal");
	format_loads(119.4, b, sizeof(b));
	is_str(b, "119", "from 10 up: whole units");
}

static void test_cells(void)
{
	struct run runs[] = {
		mk("b", "noload", 100, 90, 0, 0, 1),
		mk("b", "noload", 110, 100, 0, 0, 1),
		mk("b", "process_load", 150, 60, 20, 30, 1),
		mk("b", "process_load", 170, 70, 30, 40, 1),
		mk("b", "process_load", 999, 1, 0, 0, 0),	/* invalid: left out */
		mk("a", "process_load", 80, 50, 10, 10, 1),
		mk("a", "noload", 40, 95, 0, 0, 1),
		mk("c", "cacherun", 90, 99, 0, 0, 1),
	};
	struct store st = { .runs = runs, .nruns = 8 };
	int rc;
	char *out = report(&st, NULL, NULL, 0, &rc);

	ok(rc == 0, "report succeeds");
	is_str(out,
	       "noload:\n"
	       "Kernel               [runs]   Time  CPU%  Loads  LCPU%  Ratio\n"
	       "a (base)                [1]   40.0    95      0      0   1.00\n"
	       "b                       [2]  105.0    95      0      0   1.00\n"
	       "\n"
	       "cacherun:\n"
	       "Kernel               [runs]   Time  CPU%  Loads  LCPU%  Ratio\n"
	       "c                       [1]   90.0    99      0      0      -\n"
	       "\n"
	       "process_load:\n"
	       "Kernel               [runs]   Time  CPU%  Loads  LCPU%  Ratio\n"
	       "a (base)                [1]   80.0    50     10     10   2.00\n"
	       "b                       [2]  160.0    65     25     35   1.52\n"
	       "\n"
	       "b round 1 left out: no reason recorded\n"
	       "\n"
	       "No significance test against a: fewer than 2 valid runs on a side\n"
	       "b                    noise: 6.7% over 2 runs\n",
	       "means of valid runs, suite order, labels sorted, Ratio over own noload; "
	       "the legend says no test was made; the noise of b (sd 7.07 / mean 105); b's invalid run named");
	free(out);

	static char b[] = "b";
	char *only_b[] = { b };
	out = report(&st, "a", only_b, 1, &rc);
	ok(rc == 0 && strstr(out, "b                       [2]  160.0    65     25     35   4.00\n") &&
	   !strstr(out, "\na "), "--baseline a divides b's times by a's noload; label args select rows");
	free(out);

	out = report(&st, "c", NULL, 0, &rc);
	ok(rc != 0, "a baseline without noload is an error");
	free(out);

	/* a run whose load CPU could not be measured: LCPU% of the others */
	runs[3].load_cpu_ns = -1;
	out = report(&st, NULL, NULL, 0, &rc);
	ok(rc == 0 && strstr(out, "b                       [2]  160.0    65     25     30   1.52\n"),
	   "a run without the load's CPU leaves LCPU%% to the runs with it");
	free(out);
	runs[2].load_cpu_ns = -1;
	out = report(&st, NULL, NULL, 0, &rc);
	ok(rc == 0 && strstr(out, "b                       [2]  160.0    65     25      -   1.52\n"),
	   "none with it: LCPU%% is absent, not 0");
	free(out);

	struct store empty = { 0 };
	out = report(&empty, NULL, NULL, 0, &rc);
	ok(rc != 0, "nothing to report is an error");
	free(out);
	for (size_t i = 0; i < 8; i++)
		run_free(&runs[i]);
}

/* Two kernels, five runs each: b's process_load is far slower (Time) and
 * its load got less done (Loads), noload alike. */
static void test_significance(void)
{
	static const double na[] = { 97.2, 103.1, 99.8, 101.0, 98.4 };
	static const double nb[] = { 98.0, 100.5, 99.0, 101.5, 100.0 };
	struct run runs[30];
	size_t n = 0;

	for (int i = 0; i < 5; i++) {
		runs[n++] = mk("a", "noload", na[i], 90, 0, 0, 1);
		runs[n++] = mk("b", "noload", nb[i], 90, 0, 0, 1);
		runs[n++] = mk("a", "process_load", 150 + i, 60, 100 + i, 40, 1);
		runs[n++] = mk("b", "process_load", 200 + i, 60, 50 + i, 40, 1);
		runs[n++] = mk("a", "io_load", 300 + i, 60, 10 + i, 40, 1);
		runs[n++] = mk("b", "io_load", 301 + i, 60, 10 + i, 40, 1);
	}
	struct store st = { .runs = runs, .nruns = n };
	struct report_opts o = { 0 };
	int rc;
	char *out = report_with(&st, &o, &rc), *t = table_of(out, "process_load");

	ok(rc == 0 && strstr(t, "\nb                       [5]  202.0*   60     52*    40   2.02\n"),
	   "b's slower compile and starved load carry a '*' after the value; columns stay");
	free(t);
	t = table_of(out, "noload");
	ok(!strchr(t, '*'), "alike noload: no '*'");
	free(t);
	t = table_of(out, "io_load");
	ok(!strchr(t, '*'), "io_load 1 s apart with sd 1.6: no '*'");
	free(t);
	ok(strstr(out, "\n\n* differs from a (Welch's t-test, Holm-adjusted p < 0.05)\n"),
	   "one legend line under the tables");
	ok(strstr(out, "\na                    noise: 2.3% over 5 runs\n") &&
	   strstr(out, "\nb                    noise: 1.4% over 5 runs\n"),
	   "a noise line per label: CV 2.29%% and 1.35%%, rounded (Python statistics.stdev / mean)");
	free(out);

	/* the baseline is the first label named, not the first in sort order */
	static char la[] = "a", lb[] = "b";
	char *ba[] = { lb, la };
	o = (struct report_opts){ .labels = ba, .nlabels = 2 };
	out = report_with(&st, &o, &rc);
	ok(strstr(out, "* differs from b (") && strstr(out, "\na                       [5]  152.0*"),
	   "named first, b is the baseline: a is starred");
	free(out);

	/* --stats: mean, sd, the Ratio and its interval; Time's change against
	 * the baseline (a, marked), its range; within 100 columns */
	o = (struct report_opts){ .stats = 1 };
	out = report_with(&st, &o, &rc);
	t = table_of(out, "noload");
	is_str(t, "noload:\n"
		  "Kernel               [runs]   Time  +-sd  CPU%  Loads  LCPU%  Ratio\n"
		  "a (base)                [5]   99.9   2.3    90      0      0   1.00\n"
		  "b                       [5]   99.8   1.4    90      0      0   1.00\n"
		  "Kernel                   95% CI Change    Min    Max\n"
		  "a (base)                      -   base   97.2  103.1\n"
		  "b                             -  -0.1%   98.0  101.5\n",
		  "--stats: Time's sd beside it (Python: 2.29, 1.35), a noload over itself has no interval; "
		  "b's change (99.8 / 99.9), the runs' range; past 72 columns, in a second table");
	free(t);
	t = table_of(out, "process_load");
	ok(strstr(t, "\nb                       [5]  202.0*  1.6    60     52*    40   2.02\n") &&
	   strstr(t, "\nb                    1.99..2.06 +32.9%* 200.0  204.0\n"),
	   "--stats: the Ratio's Fieller interval, stars kept; 202 / 152 is +32.9%%, starred");
	ok(widest(out) <= 72, "--stats: within 72 columns (%zu)", widest(out));
	free(t);
	free(out);

	o = (struct report_opts){ .stats = 1, .columns = 1, .format = REPORT_MARKDOWN };
	out = report_with(&st, &o, &rc);
	ok(strstr(out, "**process\\_load:**\n\n| Kernel   | [runs] |    Time |") &&
	   strstr(out, "\n|:---------|-------:|") &&
	   strstr(out, "| 202.0\\* |") && strstr(out, "\n- \\* differs from a"),
	   "markdown: escaped, aligned, stars escaped, notes as a list");
	ok(strstr(out, "Loads/s") && strstr(out, "|    0.26 |"), "--columns: Loads/s = 52 / 202 = 0.26");
	free(out);
	free_runs(runs, n);
}

/* The legend of a partly tested report stays within 80 columns for a
 * 20-character baseline (first in sort order): the reason goes on a line of
 * its own; the tables within a mail's 72. */
static void test_legend_width(void)
{
	static const char base[] = "linux-6.1-eevdf-base";	/* 20 characters */
	struct run runs[7];
	size_t n = 0;

	for (int i = 0; i < 3; i++) {
		runs[n++] = mk(base, "noload", 100 + i, 90, 0, 0, 1);
		runs[n++] = mk("x", "noload", 110 + 2 * i, 90, 0, 0, 1);
	}
	runs[n++] = mk("y", "noload", 120, 90, 0, 0, 1);
	struct store st = { .runs = runs, .nruns = n };
	struct report_opts o = { 0 };
	int rc;
	char *out = report_with(&st, &o, &rc);

	ok(rc == 0 && widest(out) <= 80, "a 20-character baseline: no line over 80 columns (%zu)",
	   widest(out));
	ok(strstr(out, "\n\n* differs from linux-6.1-eevdf-base (Welch's t-test, "
			"Holm-adjusted p < 0.05)\n"
			"No test where: fewer than 2 valid runs on a side\n") != NULL,
	   "the star's meaning, then why y was not tested, on two lines");
	char *t = table_of(out, "noload");

	ok(widest(t) <= 72, "the table within 72 columns (%zu)", widest(t));
	free(t);
	free(out);
	free_runs(runs, n);
}

/* A table wider than a mail goes on in a table under it, the label column
 * repeated; a '*' after a part's last column stays, at its line's end. */
static void test_parts(void)
{
	struct report_table tb = { .ncols = 3, .wrap = 20 };
	int cost[] = { 5, 5, 5 }, tail[] = { 0, 1, 0 };
	size_t start[REPORT_MAX_COLUMNS + 1];

	ok(report_table_parts(&tb, 10, cost, tail, start) == 2 && start[0] == 0 &&
	   start[1] == 1 && start[2] == 3, "10 + 5 + 5 and a '*' pass 20: a part from column 1");
	ok(report_table_parts(&tb, 10, cost, NULL, start) == 2 && start[1] == 2 && start[2] == 3,
	   "no '*': 10 + 5 + 5 fits 20, the third column goes on");
	tb.wrap = 0;
	ok(report_table_parts(&tb, 10, cost, tail, start) == 1 && start[1] == 3,
	   "no width: one table");

	/* b's name of 53 characters: [runs] and Time fit beside it, +-sd not */
	static const double na[] = { 97.2, 103.1, 99.8, 101.0, 98.4 };
	static const char lb[] = "b-with-a-name-of-fifty-three-characters-for-the-tests";
	struct run runs[20];
	size_t n = 0;

	for (int i = 0; i < 5; i++) {
		runs[n++] = mk("a", "noload", na[i], 90, 0, 0, 1);
		runs[n++] = mk(lb, "noload", na[i], 90, 0, 0, 1);
		runs[n++] = mk("a", "process_load", 150 + i, 60, 100 + i, 40, 1);
		runs[n++] = mk(lb, "process_load", 200 + i, 60, 50 + i, 40, 1);
	}
	struct store st = { .runs = runs, .nruns = n };
	struct report_opts o = { .stats = 1 };
	int rc;
	char *out = report_with(&st, &o, &rc), *t = table_of(out, "process_load");

	ok(rc == 0 && strlen(lb) == 53 && strstr(t, "    [5]  202.0*\nKernel "),
	   "a starred Time last in its part: the '*' at its line's end, the next part under it");
	ok(widest(t) <= 72, "within 72 columns (%zu)", widest(t));
	free(t);
	free(out);
	o.wide = 1;
	out = report_with(&st, &o, &rc);
	t = table_of(out, "process_load");
	ok(rc == 0 && !strstr(t, "*\n") && widest(t) > 72, "--wide: one line a row (%zu)", widest(t));
	free(t);
	free(out);
	free_runs(runs, n);
}

/* CSV and JSON escape what the environment holds. */
static void test_escaping(void)
{
	struct run runs[] = {
		mk("x", "noload", 10, 90, 0, 0, 1),
		mk("x", "noload", 11, 90, 0, 0, 1),
	};
	struct record env;
	struct store st = { .runs = runs, .nruns = 2, .envs = &env, .nenvs = 1 };
	struct report_opts o = { .format = REPORT_CSV };
	int rc;
	char *out;

	record_init(&env, "env");
	record_set(&env, "label", "x");
	record_set(&env, "session", "s");
	record_set(&env, "cpu_model", "Fake CPU, \"quoted\"");
	record_set(&env, "cmdline", "ro\x01quiet \xff\xc3\xa9");
	out = report_with(&st, &o, &rc);
	ok(rc == 0 && strstr(out, ",\"Fake CPU, \"\"quoted\"\"\","), "csv: a comma and quotes quoted");
	ok(strstr(out, "schema,row,label,") && strstr(out, "\ncontest-report/2,x,x,w,0,noload,2,0,10.5,"),
	   "csv: the schema, then the row's figures");
	free(out);
	o.format = REPORT_JSON;
	out = report_with(&st, &o, &rc);
	ok(strstr(out, "\"cmdline\": \"ro\\u0001quiet \\ufffd\xc3\xa9\"") != NULL,
	   "json: control bytes escaped, a stray byte replaced, UTF-8 kept");
	ok(strstr(out, "\"Fake CPU, \\\"quoted\\\"\"") && strstr(out, "\"schema\": \"contest-report/2\""),
	   "json: quotes escaped; the schema named");
	free(out);
	record_free(&env);
	free_runs(runs, 2);

	/* markdown: a label's markup is escaped in the notes as in the tables */
	struct run md_runs[] = {
		mk("x*_<y", "noload", 10, 90, 0, 0, 1),
		mk("x*_<y", "noload", 11, 90, 0, 0, 1),
	};
	struct store md_st = { .runs = md_runs, .nruns = 2 };

	o = (struct report_opts){ .format = REPORT_MARKDOWN };
	out = report_with(&md_st, &o, &rc);
	ok(rc == 0 && strstr(out, "\n| x\\*\\_\\<y ") && strstr(out, "\n- x\\*\\_\\<y "),
	   "markdown: the label's * _ < escaped in its row and in its noise note");
	free(out);
	free_runs(md_runs, 2);
}

/* The latency tables' rounding (issue 47): to the place of the spread's
 * leading digit, 1 to 3 significant figures, 2 where the spread is not
 * known. */
static void test_round_spread(void)
{
	static const struct { double v, rel; const char *want; } c[] = {
		{ 1.234, 0.01, "1.23" },	/* spread 0.012: the hundredths */
		{ 1.234, 0.1, "1.2" },		/* 0.12: the tenths */
		{ 1.234, 0.632, "1.2" },	/* runs 2x apart: 0.78, the tenths */
		{ 1.834, 0.632, "2" },		/* 1.16: the units */
		{ 4.014, 0.632, "4" },
		{ 0.123, 0.632, "0.12" },	/* 0.078: the hundredths */
		{ 1.2345, 0, "1.23" },		/* no spread: 3 figures, the most */
		{ 1.2345, 1e-9, "1.23" },
		{ 0.020096, 0, "0.0201" },
		{ 1.234, 50, "1" },		/* spread above the value: 1 figure */
		{ 1.234, INFINITY, "1" },
		{ 1.234, NAN, "1.2" },		/* one run: 2 figures */
		{ 9.96, NAN, "10" },		/* rounded up a digit: not 10.0 */
		{ 1234, 0.1, "1200" },		/* 123: the hundreds */
		{ 0, 0.1, "0" },
	};

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		char buf[32];

		report_round_spread(c[i].v, c[i].rel, buf, sizeof(buf));
		is_str(buf, c[i].want, "%g with a spread of %g of it", c[i].v, c[i].rel);
	}
}

/* report_wrap() of text at width, as a string (allocated). */
static char *wrapped_file(const char *text, int width)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	report_wrap(f, text, width);
	fclose(f);
	return buf;
}

/* Wrapped at spaces, a name and its figures kept together, a word too long
 * for a line of its own wrapped at its kept spaces. */
static void test_wrap(void)
{
	char *out = wrapped_file("Head: aaaa" REPORT_NBSP "1, bbbbbb, c, a-long-word-of-30-characters!!",
			    20);

	is_str(out, "Head: aaaa 1,\n  bbbbbb, c,\n  a-long-word-of-30-characters!!\n",
	       "wrapped before a word that would pass 20 columns, a long one whole");
	free(out);
	out = wrapped_file("Runs: a-name-of-18-chars" REPORT_NBSP "noload" REPORT_NBSP "1", 24);
	is_str(out, "Runs: a-name-of-18-chars\n  noload 1\n",
	       "a word too long for a line of its own, wrapped at its kept spaces");
	free(out);
	out = wrapped_file("p" REPORT_NBSP "<" REPORT_NBSP "0.05 and more", 0);
	is_str(out, "p < 0.05 and more\n", "width 0: one line, kept spaces printed as spaces");
	free(out);
}

static void put_line(FILE *f, const char *text)
{
	fprintf(f, "%s\n", text);
}

/* report_note_wrapped(head, indent, text) at width, as printed (a note
 * needs no blank line before it here). */
static char *wrapped(int width, const char *head, int indent, const char *text)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct report_out o = { f, put_line, 1, width };

	report_note_wrapped(&o, head, indent, text);
	fclose(f);
	return buf;
}

/* Long notes (a kernel's version string, a command line) wrap for a mail. */
static void test_wrapping(void)
{
	static const struct {
		int width, indent;
		const char *head, *text, *want, *what;
	} cases[] = {
		{ 20, 5, "6.1: ", "one two  three four five six seven",
		  "6.1: one two three\n     four five six\n     seven\n",
		  "at the words, under the value's first, one space between words" },
		{ 20, 3, "k: ", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b",
		  "k: aaaaaaaaaaaaaaaaa\n   aaaaaaaaaaaaaaaaa\n   aaaaaa b\n",
		  "a word longer than a line: cut where the line ends" },
		{ 20, 4, "a-rather-long-name: ", "twelve-chars and more",
		  "a-rather-long-name:\n    twelve-chars and\n    more\n",
		  "a long head: alone on its line when the first word does not fit" },
		{ 20, 5, "  x  ", "size 8.0\aKiB, file 64.0\aMiB",
		  "  x  size 8.0 KiB,\n     file 64.0 MiB\n",
		  "glue: a space at which no line breaks, printed as one" },
		{ 0, 3, "k: ", "one two three four five six seven eight nine ten eleven",
		  "k: one two three four five six seven eight nine ten eleven\n",
		  "width 0: one line" },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		char *out = wrapped(cases[i].width, cases[i].head, cases[i].indent, cases[i].text);

		is_str(out, cases[i].want, "%s", cases[i].what);
		free(out);
	}
}

int main(void)
{
	test_round_spread();
	test_wrap();
	test_layout();
	test_loads();
	test_cells();
	test_significance();
	test_legend_width();
	test_parts();
	test_escaping();
	test_wrapping();
	return tap_done();
}
