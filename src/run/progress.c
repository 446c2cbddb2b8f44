/* SPDX-License-Identifier: GPL-2.0-or-later */
/* progress.c - what a suite shows while it runs: the time left, and a live line on a terminal.
 *
 * The estimate: a run type's runs in this suite take what its finished
 * runs took; before the first, its build time (from earlier runs of the
 * same workload in the store, else the warm-up build) plus the lead time
 * for a load, plus what the other steps of a run (clean, flush, start and
 * stop) have cost so far.
 *
 * The live line, on a terminal only, is redrawn on every change of phase
 * and otherwise once a second, from the waits that are there anyway (the
 * build's wait gets a 1 s timeout: see proc_set_tick()); it is erased with
 * "\r" and erase-line before any message and at the end, so it is never
 * left half-drawn, and never written to a file. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "run/loadset.h"
#include "run/progress.h"
#include "report/report.h"
#include "lib/proc.h"
#include "lib/util.h"

#define MAX_TYPES 64
#define ERASE "\r\033[K"	/* to the line's start, erase to its end */

static struct {
	enum progress_mode mode;
	const struct runtype *types[MAX_TYPES];
	size_t n;
	uint64_t rounds;
	int at_most;			/* -n auto: rounds is the most there can be */
	double lead;
	double guess[MAX_TYPES];	/* build seconds from the store; 0: none */
	double wall[MAX_TYPES];		/* seconds of this suite's runs, summed */
	unsigned ran[MAX_TYPES];
	double extra;			/* wall - build - lead of the runs, summed */
	unsigned nextra;
	double warmup;			/* the warm-up build's seconds; 0: not yet */
	size_t step;			/* the step running, or the next one */
	int running;
	int64_t step_t0, phase_t0, drawn_t;
	const char *phase;
	const struct loadset *ls;
	double w0;
	int drawn;			/* the live line is on the screen */
} P;

enum progress_mode progress_mode(int quiet)
{
	const char *term = getenv("TERM");

	if (quiet)
		return PROGRESS_QUIET;
	if (isatty(STDERR_FILENO) && !(term && !strcmp(term, "dumb")))
		return PROGRESS_LIVE;
	return PROGRESS_PLAIN;
}

static void erase(void)
{
	if (P.drawn && write(STDERR_FILENO, ERASE, sizeof(ERASE) - 1) < 0) {
		/* a terminal gone away: nothing to erase */
	}
	P.drawn = 0;
}

void progress_start(enum progress_mode mode)
{
	memset(&P, 0, sizeof(P));
	P.mode = mode;
	msg_setup(mode == PROGRESS_QUIET, mode == PROGRESS_LIVE ? erase : NULL);
	if (mode == PROGRESS_LIVE)
		proc_set_tick(progress_tick);
}

void progress_plan(const struct runtype *const types[], size_t n, uint64_t rounds,
		   int at_most, double lead_s)
{
	P.n = n < MAX_TYPES ? n : MAX_TYPES;
	memcpy(P.types, types, P.n * sizeof(types[0]));
	P.rounds = rounds;
	P.at_most = at_most;
	P.lead = lead_s;
	memset(P.guess, 0, sizeof(P.guess));
}

void progress_end(void)
{
	erase();
	proc_set_tick(NULL);
	msg_setup(P.mode == PROGRESS_QUIET, NULL);
	P.mode = PROGRESS_PLAIN;
}

void progress_guess(const struct store *st, const char *workload, int load_session)
{
	double sum[MAX_TYPES] = { 0 };
	unsigned cnt[MAX_TYPES] = { 0 };

	for (size_t r = 0; r < st->nruns; r++) {
		const struct run *run = &st->runs[r];

		if (!run->valid || run->elapsed_ns <= 0 || strcmp(run->workload, workload) ||
		    run->load_session != load_session)
			continue;
		for (size_t i = 0; i < P.n; i++) {
			if (!strcmp(run->type, P.types[i]->name)) {
				sum[i] += (double)run->elapsed_ns / NS_PER_SEC;
				cnt[i]++;
			}
		}
	}
	for (size_t i = 0; i < P.n; i++)
		P.guess[i] = cnt[i] ? sum[i] / cnt[i] : 0;
}

void progress_warmup(double build_s)
{
	P.warmup = build_s > 0 ? build_s : 0;
}

/* What one build takes when nothing says better: the warm-up, else the
 * noload of earlier runs; -1 when neither is known. */
static double base_build(void)
{
	if (P.warmup > 0)
		return P.warmup;
	for (size_t i = 0; i < P.n; i++)
		if (!P.types[i]->load && !P.types[i]->cacherun && P.guess[i] > 0)
			return P.guess[i];
	return -1;
}

static double step_estimate(size_t i)
{
	double build = P.guess[i] > 0 ? P.guess[i] : base_build();

	if (P.ran[i])
		return P.wall[i] / P.ran[i];
	if (build < 0)
		return -1;
	return build + (P.types[i]->load ? P.lead : 0) + (P.nextra ? P.extra / P.nextra : 1);
}

double progress_left(void)
{
	size_t steps = P.n * (size_t)P.rounds;
	double left = 0;

	if (!P.warmup && !P.running && P.step == 0) {
		double b = base_build();

		if (b < 0)
			return -1;
		left += b;
	}
	for (size_t s = P.step; s < steps; s++) {
		double e = step_estimate(s % P.n);

		if (e < 0)
			return -1;
		if (s == P.step && P.running) {
			e -= (double)(mono_ns() - P.step_t0) / NS_PER_SEC;
			e = e > 0 ? e : 0;
		}
		left += e;
	}
	return left;
}

void progress_run(size_t step)
{
	P.step = step;
	P.running = 1;
	P.step_t0 = mono_ns();
}

void progress_ran(double wall_s, double build_s)
{
	size_t i = P.step % (P.n ? P.n : 1);

	if (P.running && build_s > 0 && i < P.n) {
		double extra = wall_s - build_s - (P.types[i]->load ? P.lead : 0);

		P.wall[i] += wall_s;
		P.ran[i]++;
		P.extra += extra > 0 ? extra : 0;
		P.nextra++;
	}
	P.running = 0;
	P.step++;
	P.phase = NULL;
	P.ls = NULL;
}

void format_duration(double secs, char *buf, size_t len)
{
	long s = secs > 0 ? (long)(secs + 0.5) : 0, min = (s + 30) / 60;

	if (s < 60)
		snprintf(buf, len, "%ld s", s);
	else if (min < 60)
		snprintf(buf, len, "%ld min", min);
	else
		snprintf(buf, len, "%ld h %02ld min", min / 60, min % 60);
}

static void draw(void)
{
	char line[512], buf[32];
	size_t steps = P.n * (size_t)P.rounds, n = 0, width = sizeof(line) - 1;
	int64_t now = mono_ns();
	struct winsize ws;
	double left;

	if (proc_interrupted()) {
		erase();	/* what was kept is said next, on a clean line */
		return;
	}
	n += (size_t)snprintf(line, sizeof(line), ERASE);
	if (P.running) {
		int w = snprintf(buf, sizeof(buf), "%zu", steps);
		size_t i = P.step % P.n;

		n += (size_t)snprintf(line + n, sizeof(line) - n, "[%*zu/%zu] %s round %zu/%llu  ",
				      w, P.step + 1, steps, P.types[i]->name,
				      P.step / P.n + 1, (unsigned long long)P.rounds);
	}
	if (P.phase)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%s %.0f s", P.phase,
				      (double)(now - P.phase_t0) / NS_PER_SEC);
	if (P.ls && n < sizeof(line)) {
		format_loads(loadset_work(P.ls) - P.w0, buf, sizeof(buf));
		n += (size_t)snprintf(line + n, sizeof(line) - n, "  Loads %s", buf);
	}
	left = progress_left();
	if (left >= 0 && n < sizeof(line)) {
		format_duration(left, buf, sizeof(buf));
		snprintf(line + n, sizeof(line) - n, "  ETA %s%s", P.at_most ? "up to " : "", buf);
	}
	/* never as wide as the terminal: a wrapped line cannot be erased */
	if (ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
		width = sizeof(ERASE) - 1 + ws.ws_col - 1;
	n = strlen(line);
	if (n > width)
		n = width;
	if (write(STDERR_FILENO, line, n) < 0) {
		/* a terminal gone away: nothing to show it on */
	}
	P.drawn = 1;
	P.drawn_t = now;
}

void progress_phase(const char *what, const struct loadset *ls, double w0)
{
	P.phase = what;
	P.ls = ls;
	P.w0 = w0;
	P.phase_t0 = mono_ns();
	if (P.mode == PROGRESS_LIVE)
		draw();
}

void progress_tick(void)
{
	/* a little under a second: a 1 s wait that ends early still draws */
	if (P.mode == PROGRESS_LIVE && mono_ns() - P.drawn_t >= NS_PER_SEC * 9 / 10)
		draw();
}
