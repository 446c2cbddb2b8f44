/* SPDX-License-Identifier: GPL-2.0-or-later */
/* analysis.c - a campaign's results, the boot the unit.
 *
 * Runs in one boot share its random initial state (memory layout, caches,
 * which CPU got which interrupt), so a boot's rounds are averaged and the
 * kernels compared on boot means: Welch's t-test, Holm over the run types,
 * as contest report does with runs.  Only the session the journal's "ran"
 * line names counts for a boot: the runs of an attempt cut short stay in
 * the store and are left out here. */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "campaign/analysis.h"
#include "results/stats.h"
#include "results/store.h"
#include "lib/util.h"

#define MAX_LOOKS 10

static size_t type_index(struct analysis *a, const char *type)
{
	for (size_t i = 0; i < a->ntypes; i++)
		if (!strcmp(a->types[i], type))
			return i;
	if (a->ntypes == ANALYSIS_TYPES)
		return ANALYSIS_TYPES;
	a->types[a->ntypes] = xstrdup(type);
	return a->ntypes++;
}

/* The valid runs of boot seq (session, label) into the cells; its invalid
 * ones into the list of those left out. */
static void add_boot(struct analysis *a, const struct store *st, uint64_t seq,
		     const char *session, const char *label, size_t arm)
{
	double sum[ANALYSIS_TYPES] = { 0 }, sq[ANALYSIS_TYPES] = { 0 };
	size_t cnt[ANALYSIS_TYPES] = { 0 };

	for (size_t i = 0; i < st->nruns; i++) {
		const struct run *r = &st->runs[i];
		size_t t;
		double s;

		if (strcmp(r->session, session) || strcmp(r->label, label))
			continue;
		if (!r->valid) {
			a->left = xreallocarray(a->left, a->nleft + 1, sizeof(*a->left));
			a->left[a->nleft++] = (struct left_out){ seq, arm, xstrdup(r->type),
								 xstrdup(r->reason ? r->reason :
									 "(no reason stored)"),
								 r->round };
			continue;
		}
		if ((t = type_index(a, r->type)) == ANALYSIS_TYPES)
			continue;
		s = (double)r->elapsed_ns / 1e9;
		sum[t] += s;
		sq[t] += s * s;
		cnt[t]++;
	}
	for (size_t t = 0; t < a->ntypes; t++) {
		struct arm_type *c = &a->cell[t][arm];
		double m;

		if (!cnt[t])
			continue;
		m = sum[t] / (double)cnt[t];
		c->mean = xreallocarray(c->mean, c->nboots + 1, sizeof(*c->mean));
		c->mean[c->nboots++] = m;
		c->nruns += cnt[t];
		c->ss_within += fmax(0, sq[t] - (double)cnt[t] * m * m);
		c->df_within += cnt[t] - 1;
		if (!strcmp(a->types[t], "noload") && !a->run_s)
			a->run_s = m;
	}
}

int analysis_read(const struct campaign_plan *p, const struct jline *j, size_t n,
		  const char *results, struct analysis *a, char *why, size_t len)
{
	struct store st;
	double boot_sum = 0;
	size_t boots = 0;

	memset(a, 0, sizeof(*a));
	a->narms = p->narms;
	if (store_read(results, &st, why, len))
		return -1;
	for (size_t i = 0; i < n; i++) {
		const struct plan_boot *b;

		if (j[i].phase != PH_RAN || j[i].seq < 1 || j[i].seq > p->nboots)
			continue;
		b = &p->boot[j[i].seq - 1];
		if (!b->burnin && j[i].session[0])
			add_boot(a, &st, j[i].seq, j[i].session, p->arms[b->arm].label, b->arm);
	}
	/* a boot's overhead: from asking for it to its checks done */
	for (size_t i = 0; i < n; i++)
		if (j[i].phase == PH_VERIFIED)
			for (size_t k = i; k-- > 0;)
				if (j[k].phase == PH_REBOOTING && j[k].seq == j[i].seq) {
					boot_sum += (double)(j[i].time - j[k].time);
					boots++;
					break;
				}
	a->boot_s = boots ? boot_sum / (double)boots : 0;
	for (size_t i = 0; i < st.nruns; i++) {
		const char *s = st.runs[i].session;
		int ours = 0, kept = 0;

		/* sessions of this campaign: an env record says campaign=ID */
		for (size_t e = 0; e < st.nenvs && !ours; e++) {
			const char *c = record_get(&st.envs[e], "campaign");
			const char *es = record_get(&st.envs[e], "session");

			ours = c && es && !strcmp(c, p->id) && !strcmp(es, s);
		}
		for (size_t k = 0; k < n && !kept; k++)
			kept = j[k].phase == PH_RAN && !strcmp(s, j[k].session);
		a->ignored += ours && !kept;
	}
	store_free(&st);
	return 0;
}

void analysis_free(struct analysis *a)
{
	for (size_t i = 0; i < a->nleft; i++) {
		free(a->left[i].type);
		free(a->left[i].reason);
	}
	free(a->left);
	for (size_t t = 0; t < a->ntypes; t++) {
		free(a->types[t]);
		for (size_t k = 0; k < a->narms; k++)
			free(a->cell[t][k].mean);
	}
	memset(a, 0, sizeof(*a));
}

static double normal_cdf(double z)
{
	return 0.5 * erfc(-z / sqrt(2.0));
}

double obf_level(size_t k, size_t looks)
{
	/* C_B(K, 0.05), O'Brien & Fleming (1979), Jennison & Turnbull table 2.3 */
	static const double c[MAX_LOOKS + 1] = { 0, 1.960, 1.977, 2.004, 2.024, 2.040, 2.053,
						 2.063, 2.072, 2.080, 2.087 };

	if (looks < 1 || looks > MAX_LOOKS || k < 1 || k > looks)
		return NAN;
	return 2 * (1 - normal_cdf(c[looks] * sqrt((double)looks / (double)k)));
}

int until_look(const struct campaign_plan *p, size_t block, size_t *k, size_t *looks)
{
	size_t blocks = plan_nblocks(p), step;

	if (!blocks || !block)
		return 0;
	*looks = blocks < MAX_LOOKS ? blocks : MAX_LOOKS;
	step = (blocks + *looks - 1) / *looks;
	*looks = (blocks + step - 1) / step;
	*k = (block + step - 1) / step;
	return block % step == 0 || block == blocks;
}

/* Kernel arm against the first in cell row t: the difference of boot means
 * and its half width at level (two-sided), in % of the first's mean.  -1
 * when a side has fewer than 2 boots. */
static int difference(const struct arm_type *base, const struct arm_type *c, double level,
		      double *diff, double *half, double *p)
{
	struct summary sa, sb;
	struct welch w;
	double se;

	summarise(c->mean, c->nboots, &sa);
	summarise(base->mean, base->nboots, &sb);
	if (sa.n < 2 || sb.n < 2 || !(sb.mean > 0))
		return -1;
	*diff = 100 * (sa.mean - sb.mean) / sb.mean;
	se = sqrt(sa.sd * sa.sd / (double)sa.n + sb.sd * sb.sd / (double)sb.n);
	if (welch_test(&sa, &sb, &w)) {	/* no spread at all: an exact difference */
		*half = 0;
		*p = sa.mean == sb.mean ? 1 : 0;
		return 0;
	}
	*half = 100 * t_quantile(1 - (1 - level) / 2, w.df) * se / sb.mean;
	*p = w.p;
	return 0;
}

int until_met(const struct campaign_plan *p, const struct analysis *a, size_t k, size_t looks)
{
	double level = 1 - obf_level(k, looks);

	if (!a->ntypes)
		return 0;
	for (size_t t = 0; t < a->ntypes; t++)
		for (size_t arm = 1; arm < a->narms; arm++) {
			double diff, half, pv;

			if (difference(&a->cell[t][0], &a->cell[t][arm], level, &diff, &half, &pv) ||
			    half > p->until)
				return 0;
		}
	return 1;
}

/* Row t's spread, pooled over the kernels, seconds: within a boot (NaN
 * with one run a boot), of a boot's mean, and between boots (what is left
 * of a boot mean's variance once the within part over the runs is out). */
static void spread(const struct analysis *a, size_t t, double *within, double *boot_sd,
		   double *between, size_t *boots)
{
	double ss = 0, sb = 0, runs = 0, nboots = 0;
	size_t df = 0, dfb = 0, nb = 0;

	for (size_t k = 0; k < a->narms; k++) {
		const struct arm_type *c = &a->cell[t][k];
		struct summary s;

		ss += c->ss_within;
		df += c->df_within;
		summarise(c->mean, c->nboots, &s);
		if (s.n >= 2) {
			sb += s.sd * s.sd * (double)(s.n - 1);
			dfb += s.n - 1;
		}
		nb = !k || c->nboots < nb ? c->nboots : nb;
		runs += (double)c->nruns;
		nboots += (double)c->nboots;
	}
	*within = df ? sqrt(ss / (double)df) : NAN;
	*boot_sd = dfb ? sqrt(sb / (double)dfb) : NAN;
	*between = isnan(*within) ? NAN : sqrt(fmax(0, *boot_sd * *boot_sd - *within * *within /
						      (runs / nboots)));
	*boots = nb;
}

/* What no table counts: the invalid runs of the boots counted, each with
 * its reason, and the runs of boots cut short. */
static void print_left(FILE *f, const struct campaign_plan *p, const struct analysis *a)
{
	for (size_t i = 0; i < a->nleft; i++)
		fprintf(f, "%s boot %" PRIu64 ", %s round %d, left out: %s\n",
			p->arms[a->left[i].arm].label, a->left[i].seq, a->left[i].type,
			a->left[i].round, a->left[i].reason);
	if (a->ignored)
		fprintf(f, "%zu run%s of boots cut short and done again: left out\n", a->ignored,
			a->ignored == 1 ? "" : "s");
}

void analysis_print(FILE *f, const struct campaign_plan *p, const struct analysis *a)
{
	double padj[CAMPAIGN_MAX_ARMS][ANALYSIS_TYPES];

	fprintf(f, "campaign %s: the boot is the unit (each boot's rounds averaged); "
		"kernels against %s, Welch's t on boot means, Holm over the run types\n\n",
		p->id, p->arms[0].label);
	if (!a->ntypes) {
		fprintf(f, "    (no valid run of a measured boot yet)\n");
		print_left(f, p, a);
		return;
	}
	for (size_t k = 1; k < a->narms; k++) {
		double raw[ANALYSIS_TYPES];

		for (size_t t = 0; t < a->ntypes; t++) {
			double d, h;

			if (difference(&a->cell[t][0], &a->cell[t][k], 0.95, &d, &h, &raw[t]))
				raw[t] = NAN;
		}
		holm_adjust(raw, padj[k], a->ntypes);
	}
	fprintf(f, "%-12s %-16s %5s %5s %10s %9s %8s %-20s %8s\n", "Type", "Kernel", "Boots",
		"Runs", "Mean s", "SD boots", "Diff", "95% CI of Diff", "p Holm");
	for (size_t t = 0; t < a->ntypes; t++)
		for (size_t k = 0; k < a->narms; k++) {
			const struct arm_type *c = &a->cell[t][k];
			struct summary s;
			double d, h, pv;
			char ci[64] = "", ds[16] = "", ps[16] = "";

			summarise(c->mean, c->nboots, &s);
			if (k && difference(&a->cell[t][0], c, 0.95, &d, &h, &pv) == 0) {
				snprintf(ds, sizeof(ds), "%+.1f%%", d);
				snprintf(ci, sizeof(ci), "[%+.1f%%, %+.1f%%]", d - h, d + h);
				snprintf(ps, sizeof(ps), "%.3f%s", padj[k][t],
					 padj[k][t] < 0.05 ? " *" : "");
			}
			fprintf(f, "%-12s %-16s %5zu %5zu %10.2f %9.2f %8s %-20s %8s\n",
				k ? "" : a->types[t], p->arms[k].label, c->nboots, c->nruns,
				s.n ? s.mean : NAN, s.sd, ds, ci, ps);
		}
	fputc('\n', f);
	for (size_t t = 0; t < a->ntypes; t++) {
		double w, sdb, b, base = 0, best = NAN, detect = NAN;
		size_t nb, cnt = 0;

		spread(a, t, &w, &sdb, &b, &nb);
		for (size_t k = 0; k < a->narms; k++) {
			struct summary s;

			summarise(a->cell[t][k].mean, a->cell[t][k].nboots, &s);
			if (s.n) {
				base += s.mean;
				cnt++;
			}
		}
		base = cnt ? base / (double)cnt : NAN;
		/* Kalibera & Jones: runs a boot that buy the most precision a second */
		if (b > 0 && a->run_s > 0 && a->boot_s > 0)
			best = sqrt(a->boot_s / a->run_s * w * w / (b * b));
		if (nb >= 2 && !isnan(sdb)) {
			double df = 2.0 * (double)nb - 2;

			detect = 100 * (t_quantile(0.975, df) + t_quantile(0.8, df)) *
				 sqrt(2.0 / (double)nb) * sdb / base;
		}
		fprintf(f, "%s: SD of a boot's mean %.2f%%, ", a->types[t], 100 * sdb / base);
		if (isnan(w))
			fprintf(f, "within a boot unknown (one run a boot); ");
		else
			fprintf(f, "within a boot %.2f%%, between boots %.2f%%; ", 100 * w / base,
				100 * b / base);
		if (isnan(best))
			fprintf(f, "best runs per boot: not known yet");
		else
			fprintf(f, "best runs per boot %.0f (a boot costs %.0f s, a run %.0f s)",
				fmax(1, round(best)), a->boot_s, a->run_s);
		if (isnan(detect))
			fprintf(f, "; smallest detectable difference: needs 2 boots a kernel\n");
		else
			fprintf(f, "; smallest difference %zu boots a kernel detect (power 0.8, "
				"alpha 0.05): %.1f%%\n", nb, detect);
	}
	print_left(f, p, a);
}
