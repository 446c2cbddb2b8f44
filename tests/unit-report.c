/* unit-report.c - the table formatter and the cells computed from runs. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "tap.h"

static char *table(const char *type, const struct row *rows, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	print_table(f, type, rows, n);
	fclose(f);
	return buf;
}

static void test_layout(void)
{
	struct row rows[] = {
		{ "2.4.18", 3, 109.5, 57, 119, 44, 1.5336 },
		{ "2.5.47-mm1", 5, 83.0, 83, 21, 20, 1.1625 },
		{ "no-noload", 1, 12.34, 190.4, 0.4, 12, NAN },
	};
	char *t = table("process_load", rows, 3);

	is_str(t,
	       "process_load:\n"
	       "Kernel               [runs]   Time  CPU%  Loads  LCPU%  Ratio\n"
	       "2.4.18                  [3]  109.5    57    119     44   1.53\n"
	       "2.5.47-mm1              [5]   83.0    83     21     20   1.16\n"
	       "no-noload               [1]   12.3   190    0.4     12      -\n",
	       "the 2002 layout: label, [runs], Time .1, CPU%%, Loads, LCPU%%, Ratio .2, '-' without noload");
	ok(!strchr(t, '\t'), "no tabs");
	free(t);

	struct row lng[] = { { "6.12.0-rc3-sched-ext-lavd", 10, 1234.56, 5, 1234.4, 300, 10.5 } };
	t = table("noload", lng, 1);
	char *second = strchr(t, '\n') + 1, *third = strchr(second, '\n') + 1;
	ok(strchr(second, '\n') - second == strchr(third, '\n') - third,
	   "a long label widens the column: header and row stay aligned");
	ok(strstr(t, "[10]") && strstr(t, "1234.6") && strstr(t, "  1234 "), "wide numbers fit");
	free(t);

	struct row twenty[] = { { "12345678901234567890", 999, 9999.9, 999, 99999, 999, 99.99 } };
	t = table("noload", twenty, 1);
	size_t widest = 0;
	for (char *p = t; *p; ) {
		size_t l = strcspn(p, "\n");
		if (l > widest)
			widest = l;
		p += l + (p[l] != 0);
	}
	ok(widest <= 72, "at most 72 columns for a 20-character label (%zu)", widest);
	free(t);
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
	r.load_user_ns = (int64_t)(ns * lcpu / 100);
	return r;
}

static char *report(struct store *st, const char *baseline, char **labels, size_t n, int *rc)
{
	struct report_opts o = { .baseline = baseline, .labels = labels, .nlabels = n };
	char *buf = NULL, why[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*rc = report_print(f, st, &o, why, sizeof(why));
	fclose(f);
	return buf;
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
	       "a                       [1]   40.0    95      0      0   1.00\n"
	       "b                       [2]  105.0    95      0      0   1.00\n"
	       "\n"
	       "cacherun:\n"
	       "Kernel               [runs]   Time  CPU%  Loads  LCPU%  Ratio\n"
	       "c                       [1]   90.0    99      0      0      -\n"
	       "\n"
	       "process_load:\n"
	       "Kernel               [runs]   Time  CPU%  Loads  LCPU%  Ratio\n"
	       "a                       [1]   80.0    50     10     10   2.00\n"
	       "b                       [2]  160.0    65     25     35   1.52\n",
	       "means of valid runs, suite order, labels sorted, Ratio over own noload");
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

	struct store empty = { 0 };
	out = report(&empty, NULL, NULL, 0, &rc);
	ok(rc != 0, "nothing to report is an error");
	free(out);
	for (size_t i = 0; i < 8; i++)
		run_free(&runs[i]);
}

int main(void)
{
	test_layout();
	test_loads();
	test_cells();
	return tap_done();
}
