/* SPDX-License-Identifier: GPL-2.0-or-later */
/* state.c - a campaign's journal, and what to do next.
 *
 * The journal is append-only: a line a step, written whole and fsync'ed,
 * never rewritten; the state is its last line.  campaign_decide() reads
 * the last line and what this boot looks like, and says which line comes
 * next and what to do around it; run again after any crash it says the
 * same, so a step cut short is done again and none is counted twice. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/state.h"
#include "results/record.h"
#include "lib/fsutil.h"
#include "lib/util.h"

static const char *const phases[] = {
	[PH_REBOOTING] = "rebooting", [PH_UP] = "up", [PH_VERIFIED] = "verified",
	[PH_RAN] = "ran", [PH_FAILED] = "failed", [PH_LOST] = "lost", [PH_END] = "end",
};

const char *phase_name(enum phase ph)
{
	return phases[ph];
}

static void set_text(struct record *r, const char *key, const char *v)
{
	if (v[0])
		record_set(r, key, v);
}

char *jline_encode(const struct jline *l)
{
	struct record r;
	char *line;

	record_init(&r, "step");
	record_setf(&r, "seq", "%" PRIu64, l->seq);
	record_set(&r, "phase", phases[l->phase]);
	record_set(&r, "boot_id", l->boot_id[0] ? l->boot_id : "-");
	record_set_i64(&r, "time", l->time);
	set_text(&r, "note", l->note);
	set_text(&r, "release", l->release);
	set_text(&r, "version", l->version);
	set_text(&r, "build_id", l->build_id);
	set_text(&r, "session", l->session);
	line = record_encode(&r);
	record_free(&r);
	return line;
}

static void copy(char *dst, size_t len, const struct record *r, const char *key)
{
	const char *v = record_get(r, key);

	snprintf(dst, len, "%s", v ? v : "");
}

int jline_decode(const char *text, size_t len, struct jline *l)
{
	struct record r;
	char why[128];
	const char *ph;
	int64_t seq, t;
	int ret = -1;

	memset(l, 0, sizeof(*l));
	if (record_decode(text, len, &r, why, sizeof(why)) == 0 && !strcmp(r.kind, "step") &&
	    (ph = record_get(&r, "phase")) && record_get_i64(&r, "seq", &seq) == 0 && seq >= 0 &&
	    record_get_i64(&r, "time", &t) == 0) {
		for (size_t i = 0; i < ARRAY_SIZE(phases); i++)
			if (!strcmp(ph, phases[i])) {
				l->phase = (enum phase)i;
				ret = 0;
			}
		l->seq = (uint64_t)seq;
		l->time = t;
		copy(l->boot_id, sizeof(l->boot_id), &r, "boot_id");
		copy(l->note, sizeof(l->note), &r, "note");
		copy(l->release, sizeof(l->release), &r, "release");
		copy(l->version, sizeof(l->version), &r, "version");
		copy(l->build_id, sizeof(l->build_id), &r, "build_id");
		copy(l->session, sizeof(l->session), &r, "session");
	}
	record_free(&r);
	return ret;
}

int journal_append(const char *path, const struct jline *l, char *why, size_t len)
{
	char *line = jline_encode(l);
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644), ret = 0;
	off_t end;

	if (fd < 0) {
		free(line);
		return whyf(why, len, "cannot open %s: %s", path, strerror(errno));
	}
	/* a torn line from before ends here: the new one starts a line */
	end = lseek(fd, 0, SEEK_END);
	if (end > 0) {
		char last = '\n';

		if (pread(fd, &last, 1, end - 1) == 1 && last != '\n' && write_all(fd, "\n", 1))
			ret = -1;
	}
	if (ret || write_all(fd, line, strlen(line)) || fsync(fd))
		ret = whyf(why, len, "cannot append to %s: %s", path, strerror(errno));
	if (close(fd) && !ret)
		ret = whyf(why, len, "cannot append to %s: %s", path, strerror(errno));
	free(line);
	return ret;
}

int journal_read(const char *path, struct jline **lines, size_t *n, size_t *damaged,
		 char *why, size_t len)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t cap = 0;
	ssize_t got;

	*lines = NULL;
	*n = *damaged = 0;
	if (!f)
		return errno == ENOENT ? 0 : whyf(why, len, "cannot read %s: %s", path,
						  strerror(errno));
	while ((got = getline(&text, &cap, f)) > 0) {
		struct jline l;

		if (jline_decode(text, (size_t)got, &l)) {
			(*damaged)++;
			continue;
		}
		*lines = xreallocarray(*lines, *n + 1, sizeof(**lines));
		(*lines)[(*n)++] = l;
	}
	free(text);
	fclose(f);
	return 0;
}

void marker_of(const char *cmdline, char *buf, size_t len)
{
	const char *p = cmdline;

	buf[0] = '\0';
	while ((p = strstr(p, "contest.campaign="))) {
		if (p == cmdline || p[-1] == ' ')	/* the last one counts, as for the kernel */
			snprintf(buf, len, "%.*s", (int)strcspn(p + 17, " \n"), p + 17);
		p += 17;
	}
}

const struct jline *journal_ran_line(const struct jline *j, size_t n, uint64_t seq)
{
	for (size_t i = 0; i < n; i++)
		if (j[i].phase == PH_RAN && j[i].seq == seq)
			return &j[i];
	return NULL;
}

size_t journal_ran(const struct campaign_plan *p, const struct jline *j, size_t n,
		   size_t *measured)
{
	size_t ran = 0, m = 0;

	for (uint64_t s = 1; s <= p->nboots; s++)
		if (journal_ran_line(j, n, s)) {
			ran++;
			m += !p->boot[s - 1].burnin;
		}
	if (measured)
		*measured = m;
	return ran;
}

size_t journal_reboots(const struct jline *j, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += j[i].phase == PH_REBOOTING;
	return k;
}

size_t journal_failures(const struct campaign_plan *p, const struct jline *j, size_t n,
			size_t arm)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		k += (j[i].phase == PH_FAILED || j[i].phase == PH_LOST) && j[i].seq >= 1 &&
		     j[i].seq <= p->nboots && p->boot[j[i].seq - 1].arm == arm;
	return k;
}

const struct jline *journal_first_verified(const struct campaign_plan *p, const struct jline *j,
					   size_t n, size_t arm)
{
	for (size_t i = 0; i < n; i++)
		if (j[i].phase == PH_VERIFIED && j[i].seq >= 1 && j[i].seq <= p->nboots &&
		    p->boot[j[i].seq - 1].arm == arm)
			return &j[i];
	return NULL;
}

/* The release arm must boot as: its spec's, else its first boot's, or NULL. */
static const char *release_of(const struct campaign_plan *p, const struct jline *j, size_t n,
			      size_t arm)
{
	const struct jline *v = journal_first_verified(p, j, n, arm);

	return p->arms[arm].release ? p->arms[arm].release : v ? v->release : NULL;
}

static void out(struct decision *d, enum action act, enum phase ph, uint64_t seq,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void out(struct decision *d, enum action act, enum phase ph, uint64_t seq,
		const char *fmt, ...)
{
	va_list ap;

	d->act = act;
	d->line.phase = ph;
	d->line.seq = seq;
	va_start(ap, fmt);
	vsnprintf(d->line.note, sizeof(d->line.note), fmt, ap);
	va_end(ap);
}

/* Boot seq: unless the reboots reached the cap. */
static void boot(const struct campaign_plan *p, const struct jline *j, size_t n, uint64_t seq,
		 const char *why, struct decision *d)
{
	size_t k = journal_reboots(j, n);

	if (k >= p->reboot_cap)
		out(d, ACT_END, PH_END, seq, "stopped: %zu reboots, the cap (%" PRIu64 " planned "
		    "boots and %d spare): a boot loop?", k, (uint64_t)p->nboots,
		    CAMPAIGN_SPARE_REBOOTS);
	else
		out(d, ACT_BOOT, PH_REBOOTING, seq, "%s", why);
}

/* The checks of boot seq, which is up: the line verified, failed or lost. */
static void verify(const struct campaign_plan *p, const struct jline *j, size_t n,
		   const struct facts *f, uint64_t seq, struct decision *d)
{
	size_t arm = p->boot[seq - 1].arm;
	const char *label = p->arms[arm].label, *want = release_of(p, j, n, arm);
	const struct jline *first = journal_first_verified(p, j, n, arm);
	char marker[128], expect[128];

	marker_of(f->cmdline, marker, sizeof(marker));
	snprintf(expect, sizeof(expect), "%s/%" PRIu64, p->id, seq);
	if (marker[0] && strcmp(marker, expect))
		return out(d, ACT_APPEND, PH_FAILED, seq, "a wrong boot: contest.campaign=%s on "
			   "the command line, not %s", marker, expect);
	if (!marker[0] && !strcmp(p->method, "kexec"))
		return out(d, ACT_APPEND, PH_LOST, seq, "boot %" PRIu64 " (%s) never came up: "
			   "no contest.campaign=%s on the command line, the machine came back "
			   "in %s", seq, label, expect, f->release);
	if (want && strcmp(f->release, want)) {
		for (size_t a = 0; a < p->narms; a++) {
			const char *other = release_of(p, j, n, a);

			if (a != arm && other && !strcmp(other, f->release))
				return out(d, ACT_APPEND, PH_FAILED, seq, "wrong kernel: %s is %s's "
					   "release, not %s's (%s)", f->release, p->arms[a].label,
					   label, want);
		}
		return out(d, ACT_APPEND, PH_LOST, seq, "boot %" PRIu64 " (%s, %s) never came up: "
			   "the machine came back in %s", seq, label, want, f->release);
	}
	if (first && strcmp(first->version, f->version))
		return out(d, ACT_APPEND, PH_FAILED, seq, "wrong kernel: /proc/version is '%s', "
			   "not '%s' as at %s's first boot", f->version, first->version, label);
	if (first && strcmp(first->build_id, f->build_id))
		return out(d, ACT_APPEND, PH_FAILED, seq, "wrong kernel: build id %s, not %s as "
			   "at %s's first boot", f->build_id[0] ? f->build_id : "(none)",
			   first->build_id[0] ? first->build_id : "(none)", label);
	out(d, ACT_APPEND, PH_VERIFIED, seq, "%s: release %s%s, build id %s, boot_id new",
	    label, f->release, marker[0] ? ", marker ok" : "",
	    f->build_id[0] ? f->build_id : "(none)");
	snprintf(d->line.release, sizeof(d->line.release), "%s", f->release);
	snprintf(d->line.version, sizeof(d->line.version), "%s", f->version);
	snprintf(d->line.build_id, sizeof(d->line.build_id), "%s", f->build_id);
}

/* Whether every boot of seq's block ran. */
static int block_done(const struct campaign_plan *p, const struct jline *j, size_t n,
		      uint64_t seq)
{
	size_t b = p->boot[seq - 1].block;

	for (size_t i = 0; i < p->nboots; i++)
		if (p->boot[i].block == b && !journal_ran_line(j, n, i + 1))
			return 0;
	return 1;
}

/* After boot last.seq ran, failed or was lost: the next boot, or the end. */
static void next(const struct campaign_plan *p, const struct jline *j, size_t n,
		 const struct facts *f, const struct jline *last, struct decision *d)
{
	if (last->phase != PH_RAN) {
		size_t arm = p->boot[last->seq - 1].arm, k = journal_failures(p, j, n, arm);

		if (k > p->retries)
			return out(d, ACT_END, PH_END, last->seq, "stopped: boots of %s failed %zu "
				   "times (the last: %s)", p->arms[arm].label, k, last->note);
		return boot(p, j, n, last->seq, "again, after a failure", d);
	}
	if (p->until > 0 && !p->boot[last->seq - 1].burnin && f->until_met &&
	    block_done(p, j, n, last->seq))
		return out(d, ACT_END, PH_END, last->seq, "done: --until %g%% met after block "
			   "%zu", p->until, p->boot[last->seq - 1].block);
	for (uint64_t s = 1; s <= p->nboots; s++)
		if (!journal_ran_line(j, n, s))
			return boot(p, j, n, s, "next", d);
	out(d, ACT_END, PH_END, last->seq, "done: all %zu boots ran", p->nboots);
}

void campaign_decide(const struct campaign_plan *p, const struct jline *j, size_t n,
		     const struct facts *f, int64_t now, struct decision *d)
{
	const struct jline *last = n ? &j[n - 1] : NULL;
	char marker[128];
	int same;

	memset(d, 0, sizeof(*d));
	d->line.time = now;
	snprintf(d->line.boot_id, sizeof(d->line.boot_id), "%s", f->boot_id);
	if (!last)
		return boot(p, j, n, 1, "the first boot", d);
	if (last->phase == PH_END || last->seq < 1 || last->seq > p->nboots) {
		d->act = ACT_IDLE;
		return;
	}
	marker_of(f->cmdline, marker, sizeof(marker));
	if (!strcmp(marker, "off") || f->stop_file)
		return out(d, ACT_END, PH_END, last->seq, "stopped: %s", f->stop_file ?
			   "the STOP file" : "contest.campaign=off on the command line");
	same = !strcmp(last->boot_id, f->boot_id);
	switch (last->phase) {
	case PH_REBOOTING:
		if (same)
			return boot(p, j, n, last->seq, "again: the reboot did not happen", d);
		return out(d, ACT_APPEND, PH_UP, last->seq, "a new boot");
	case PH_UP:
		if (!same)
			return out(d, ACT_APPEND, PH_LOST, last->seq, "the machine restarted while "
				   "boot %" PRIu64 " was checked", last->seq);
		return verify(p, j, n, f, last->seq, d);
	case PH_VERIFIED:
		if (!same)
			return out(d, ACT_APPEND, PH_LOST, last->seq, "the machine restarted during "
				   "boot %" PRIu64 "'s runs: they are done again", last->seq);
		return out(d, ACT_RUN, PH_RAN, last->seq, "%s", p->boot[last->seq - 1].burnin ?
			   "burn-in: not measured" : "measured");
	case PH_RAN:
	case PH_FAILED:
	case PH_LOST:
		return next(p, j, n, f, last, d);
	case PH_END:
		break;
	}
	d->act = ACT_IDLE;
}
