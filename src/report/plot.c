/* SPDX-License-Identifier: GPL-2.0-or-later */
/* plot.c - the chart: the Ratio of every run type as a self-contained SVG.
 *
 * Hand-written SVG 1.1, no script, no external font or style: it opens in a
 * browser, an image viewer or an office suite, and reads in print (the
 * colours are Okabe and Ito's, told apart by colour-blind readers). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/plot.h"
#include "results/latency.h"
#include "lib/fsutil.h"
#include "lib/util.h"

#define LEFT 64         /* the y axis and its labels */
#define RIGHT 24
#define TOP 56          /* the title */
#define PLOT_H 280
#define XLABELS 40      /* the run types under the axis */
#define LINE 18         /* a line of the legend */
#define BAR_W 16
#define BAR_GAP 3
#define GROUP_MIN 96    /* wide enough for "process_load" under it */
#define GROUP_GAP 24
#define MIN_WIDTH 640   /* the legend's notes, with a long label */

static const char *const palette[] = {
	"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000",
};

/* s with &, <, >, " and ' as entities: fit for text and attribute values. */
static void xml_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&apos;", f); break;
		default: fputc(*s, f);
		}
	}
}

/* The top of the axis: a round number of steps of 1, 2, 2.5 or 5 times a
 * power of 10, at least 5% above max. */
static double axis_top(double max, double *step)
{
	double raw = max * 1.05 / 5, mag = pow(10, floor(log10(raw))), norm = raw / mag;

	*step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 2.5 ? 2.5 : norm <= 5 ? 5 : 10) * mag;
	return ceil(max * 1.05 / *step) * *step;
}

/* The highest point of a bar and its whisker. */
static double bar_top(const struct cell *c)
{
	return isnan(c->ratio_hi) ? c->ratio : fmax(c->ratio, c->ratio_hi);
}

static int has_ratio(const struct cell *c)
{
	return c->n && !isnan(c->ratio);
}

struct frame {
	double top;      /* the value at the top of the axis */
	double group_w;  /* one run type's bars */
	int width, height;
	int y0;          /* the top of the axis */
};

static double y_of(const struct frame *fr, double v)
{
	return fr->y0 + PLOT_H - v / fr->top * PLOT_H;
}

static void axis(FILE *f, const struct report *r, const struct frame *fr, double step,
		 const char *name)
{
	double right = fr->width - RIGHT;

	for (int i = 0; i * step <= fr->top + step / 1000; i++) {
		double v = i * step, y = y_of(fr, v);

		fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#dddddd\"/>\n", LEFT, y, right, y);
		fprintf(f, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%g</text>\n",
			LEFT - 6, y + 4, v);
	}
	if (fr->top >= 1 && !strcmp(name, "Ratio"))	/* the noload level */
		fprintf(f, "<line class=\"one\" x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#666666\" stroke-dasharray=\"4 3\"/>\n",
			LEFT, y_of(fr, 1), right, y_of(fr, 1));
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>\n",
		LEFT, fr->y0, LEFT, fr->y0 + PLOT_H);
	fprintf(f, "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\"/>\n",
		LEFT, fr->y0 + PLOT_H, right, fr->y0 + PLOT_H);
	fprintf(f, "<text x=\"16\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 16 %d)\">",
		fr->y0 + PLOT_H / 2, fr->y0 + PLOT_H / 2);
	xml_str(f, name);
	fputs("</text>\n", f);
	for (size_t t = 0; t < r->ntypes; t++) {
		fprintf(f, "<text class=\"type\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">",
			LEFT + GROUP_GAP / 2 + t * (fr->group_w + GROUP_GAP) + fr->group_w / 2,
			fr->y0 + PLOT_H + 18);
		xml_str(f, r->types[t]);
		fputs("</text>\n", f);
	}
}

/* One bar: its value, its interval (NaN: none) and its test's outcome;
 * attr names the value in the rect's data- attribute, title is its tooltip
 * after "ROW TYPE: ". */
struct bar_value {
	int runs;		/* 0: no bar, nor a '-' */
	double v, lo, hi;	/* v NaN: runs but no value ('-') */
	int sig;
	int sig_loads;		/* the Loads differ too (Ratio bars only) */
	const char *attr;
	char title[160];
};

static void bar(FILE *f, const struct report *r, const struct frame *fr, size_t g, size_t t,
		const struct bar_value *b)
{
	const struct report_row *row = &r->rows[g];
	double x = LEFT + GROUP_GAP / 2 + t * (fr->group_w + GROUP_GAP) +
		   (fr->group_w - r->nrows * (BAR_W + BAR_GAP) + BAR_GAP) / 2 +
		   g * (BAR_W + BAR_GAP);
	double mid = x + BAR_W / 2.0, y = y_of(fr, b->v);

	if (isnan(b->v)) {
		if (b->runs)	/* runs, but no value (no noload to divide by) */
			fprintf(f, "<text class=\"nodata\" x=\"%.1f\" y=\"%d\" "
				"text-anchor=\"middle\">-</text>\n", mid, fr->y0 + PLOT_H - 4);
		return;
	}
	fprintf(f, "<rect class=\"bar\" data-row=\"");
	xml_str(f, row->name);
	fputs("\" data-type=\"", f);
	xml_str(f, r->types[t]);
	fprintf(f, "\" data-%s=\"%.4f\" x=\"%.1f\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" "
		"fill=\"%s\"%s><title>", b->attr, b->v, x, y, BAR_W, fr->y0 + PLOT_H - y,
		palette[g % ARRAY_SIZE(palette)],
		b->sig || b->sig_loads ? " stroke=\"black\" stroke-width=\"1.5\"" : "");
	xml_str(f, row->name);
	fputc(' ', f);
	xml_str(f, r->types[t]);
	fprintf(f, ": %s</title></rect>\n", b->title);
	if (!isnan(b->lo)) {
		double lo = y_of(fr, b->lo), hi = y_of(fr, b->hi);

		fprintf(f, "<path class=\"whisker\" d=\"M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f\" "
			"stroke=\"black\" fill=\"none\"/>\n", mid, lo, hi, mid - 4, lo, mid + 4,
			mid - 4, hi, mid + 4);
	}
	if (b->sig)
		fprintf(f, "<text class=\"sig\" x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\" "
			"font-size=\"16\" font-weight=\"bold\">*</text>\n", mid,
			y_of(fr, isnan(b->hi) ? b->v : fmax(b->v, b->hi)) - 4);
	if (b->sig_loads)	/* above the '*' where there is one */
		fprintf(f, "<text class=\"sig-loads\" x=\"%.1f\" y=\"%.1f\" "
			"text-anchor=\"middle\" font-size=\"12\" font-weight=\"bold\">L</text>\n",
			mid, y_of(fr, isnan(b->hi) ? b->v : fmax(b->v, b->hi)) - 4 - 14 * b->sig);
}

/* The Ratio bar of row g in run type t. */
static void ratio_bar(const struct report *r, size_t g, size_t t, struct bar_value *b)
{
	const struct cell *c = report_cell(r, g, t);
	size_t n = 0;

	b->runs = (int)c->n;
	b->v = has_ratio(c) ? c->ratio : NAN;
	b->lo = c->ratio_lo;
	b->hi = c->ratio_hi;
	b->sig = c->t_time.significant;
	b->sig_loads = c->t_loads.significant;
	b->attr = "ratio";
	n += (size_t)snprintf(b->title, sizeof(b->title), "Ratio %.2f", c->ratio);
	if (!isnan(c->ratio_lo) && n < sizeof(b->title))
		n += (size_t)snprintf(b->title + n, sizeof(b->title) - n,
				      " (95%% interval %.2f to %.2f)", c->ratio_lo, c->ratio_hi);
	if (n < sizeof(b->title))
		snprintf(b->title + n, sizeof(b->title) - n, ", %zu run%s%s%s", c->n,
			 c->n == 1 ? "" : "s", c->t_time.significant ? ", Time differs significantly" : "",
			 c->t_loads.significant ? ", Loads differ significantly" : "");
}

/* The rows' keys from y on (only those with the probe: probe_only); where
 * the next line goes. */
static int legend_rows(FILE *f, const struct report *r, int y, int probe_only)
{
	for (size_t g = 0; g < r->nrows; g++) {
		if (probe_only && !r->rows[g].probe)
			continue;
		fprintf(f, "<rect class=\"key\" x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" "
			"fill=\"%s\"/>\n<text x=\"%d\" y=\"%d\">", LEFT, y,
			palette[g % ARRAY_SIZE(palette)], LEFT + 18, y + 11);
		xml_str(f, r->rows[g].name);
		if (r->rows[g].load_session)
			fputs(" (loads in a session of their own)", f);
		if (r->rows[g].reference)
			fputs(" (baseline)", f);
		fputs("</text>\n", f);
		y += LINE;
	}
	return y;
}

/* "* and outline: WHAT differs from BASE's" (and "L": the Loads, where
 * loads is set) and the test, two lines at y; where no test was made
 * (untested: why), that none was and why. */
static void legend_test(FILE *f, const struct report *r, int y, const char *what,
			const char *test, int sig, int loads, const char *untested)
{
	if (untested) {
		fprintf(f, "<text x=\"%d\" y=\"%d\">No significance test against ", LEFT, y + 11);
		xml_str(f, r->test_base);
		fprintf(f, ": %s</text>\n", untested);
		return;
	}
	fprintf(f, "<text x=\"%d\" y=\"%d\">* and outline: %s differs from ", LEFT, y + 11, what);
	xml_str(f, r->test_base);
	fprintf(f, "'s%s%s</text>\n<text x=\"%d\" y=\"%d\">(%s, p "
		"Holm-adjusted across run types below alpha %g)</text>\n",
		loads ? "; L and outline: Loads differ" : "", sig ? "" : " (none does)",
		LEFT + 10, y + LINE + 11, test, r->alpha);
}

static void legend(FILE *f, const struct report *r)
{
	int y = legend_rows(f, r, TOP + PLOT_H + XLABELS, 0), sig = 0;

	for (size_t g = 0; g < r->nrows; g++)
		for (size_t t = 0; t < r->ntypes; t++)
			sig |= report_cell(r, g, t)->t_time.significant |
			       report_cell(r, g, t)->t_loads.significant;
	fprintf(f, "<text x=\"%d\" y=\"%d\">Ratio: mean Time / mean noload Time of ", LEFT, y + 11);
	if (r->ratio_base)
		xml_str(f, r->ratio_base);
	else if (report_noload_scope(r))	/* where pooling would differ */
		fputs(r->pool_noload ? "the same label, all sessions pooled (--pool-noload)"
				     : "the same label and session", f);
	else
		fputs("the same label", f);
	fputs("; whiskers: 95% interval (Fieller)</text>\n", f);
	y += LINE;
	if (r->compared)
		legend_test(f, r, y, "Time", "Welch's t-test", sig, 1,
			    r->tests ? NULL : report_untested_why(r));
}

/* The frame of a chart of the report's run types and rows. */
static void frame_of(const struct report *r, struct frame *fr)
{
	fr->group_w = fmax(GROUP_MIN, (double)r->nrows * (BAR_W + BAR_GAP));
	fr->width = LEFT + (int)ceil(r->ntypes * (fr->group_w + GROUP_GAP)) + RIGHT;
	if (fr->width < MIN_WIDTH)
		fr->width = MIN_WIDTH;
	fr->y0 = TOP;
}

static void svg_head(FILE *f, const struct frame *fr, const char *title, const char *heading)
{
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" "
		"height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">\n"
		"<title>%s</title>\n"
		"<rect class=\"background\" width=\"%d\" height=\"%d\" fill=\"white\"/>\n"
		"<text x=\"%d\" y=\"28\" font-size=\"15\" font-weight=\"bold\">%s</text>\n",
		fr->width, fr->height, fr->width, fr->height, title, fr->width, fr->height, LEFT,
		heading);
}

int plot_svg(FILE *f, const struct report *r)
{
	struct frame fr;
	struct bar_value b;
	double max = 1, step;

	for (size_t g = 0; g < r->nrows; g++)
		for (size_t t = 0; t < r->ntypes; t++)
			if (has_ratio(report_cell(r, g, t)))
				max = fmax(max, bar_top(report_cell(r, g, t)));
	frame_of(r, &fr);
	fr.top = axis_top(max, &step);
	fr.height = TOP + PLOT_H + XLABELS + (int)(r->nrows + 3) * LINE + 8;
	svg_head(f, &fr, "contest: Ratio per run type",
		 "contest: Ratio per run type, with 95% intervals");
	axis(f, r, &fr, step, "Ratio");
	for (size_t t = 0; t < r->ntypes; t++) {
		for (size_t g = 0; g < r->nrows; g++) {
			ratio_bar(r, g, t, &b);
			bar(f, r, &fr, g, t, &b);
		}
	}
	legend(f, r);
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}

/* Task k's p99 bar of row g in run type t; whiskers: the lowest and the
 * highest of the runs' own p99s. */
static void latency_bar(const struct report *r, const struct latency *l, size_t g, size_t t,
			size_t k, struct bar_value *b)
{
	const struct latency_cell *c = latency_cell(l, g, t, k);
	int shown = latency_shown(l, g, t);

	b->runs = shown ? (int)c->n : 0;
	b->v = shown ? c->p99 : NAN;
	b->lo = shown && c->n > 1 ? exp(c->logp99.min) / 1e6 : NAN;
	b->hi = shown && c->n > 1 ? exp(c->logp99.max) / 1e6 : NAN;
	b->sig = c->t.significant;
	b->sig_loads = 0;	/* no Loads here: not left to the stack's leftovers */
	b->attr = "p99";
	snprintf(b->title, sizeof(b->title), "%s p99 %.3f ms over %zu run%s%s", probe_tasks[k].name,
		 c->p99, c->n, c->n == 1 ? "" : "s", c->t.significant ? ", differs significantly" : "");
	(void)r;
}

int plot_latency_svg(FILE *f, const struct report *r, const struct latency *l)
{
	struct frame fr;
	struct bar_value b;
	int panel = PLOT_H + XLABELS + 16, y, sig = 0;

	frame_of(r, &fr);
	fr.height = TOP + PROBE_TASKS * panel + (int)(r->nrows + 4) * LINE + 8;
	svg_head(f, &fr, "contest: the probe's p99 wakeup latency per run type",
		 "contest: the probe's p99 wakeup latency per run type (ms)");
	for (size_t k = 0; k < PROBE_TASKS; k++) {
		double max = 0, step;
		char name[32];

		for (size_t g = 0; g < r->nrows; g++) {
			for (size_t t = 0; t < r->ntypes; t++) {
				latency_bar(r, l, g, t, k, &b);
				if (!isnan(b.v))
					max = fmax(max, isnan(b.hi) ? b.v : fmax(b.v, b.hi));
				sig |= b.sig;
			}
		}
		fr.y0 = TOP + (int)k * panel;
		fr.top = axis_top(max > 0 ? max : 1, &step);
		snprintf(name, sizeof(name), "%s p99 (ms)", probe_tasks[k].name);
		axis(f, r, &fr, step, name);
		for (size_t t = 0; t < r->ntypes; t++) {
			for (size_t g = 0; g < r->nrows; g++) {
				latency_bar(r, l, g, t, k, &b);
				bar(f, r, &fr, g, t, &b);
			}
		}
	}
	y = legend_rows(f, r, TOP + PROBE_TASKS * panel, 1);
	fprintf(f, "<text x=\"%d\" y=\"%d\">Bars: p99 over all the row's wakeups; whiskers: "
		"lowest to highest run's own p99</text>\n", LEFT, y + 11);
	y += LINE;
	if (l->compared)
		legend_test(f, r, y, "p99", "Welch's t-test on log p99s", sig, 0,
			    l->tests ? NULL : latency_untested_why(l));
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}

int plot_write(const char *path, const struct report *r, const struct latency *l, char *why,
	       size_t len)
{
	char *text;
	size_t n;
	FILE *f;
	int bad;

	if (!path || !strcmp(path, "-"))
		return (l ? plot_latency_svg(stdout, r, l) : plot_svg(stdout, r))
			       ? whyf(why, len, "writing the chart: %s", strerror(errno)) : 0;
	f = xopen_memstream(&text, &n);
	(void)(l ? plot_latency_svg(f, r, l) : plot_svg(f, r));	/* xclose_memstream checks */
	xclose_memstream(f);
	bad = replace_file(path, text, n);
	free(text);
	return bad ? whyf(why, len, "cannot write %s: %s", path, strerror(errno)) : 0;
}
