/* SPDX-License-Identifier: GPL-2.0-or-later */
/* campaign.c - contest campaign: plan, start, resume, status, abort.
 *
 * Everything a campaign keeps is in <root>/var/lib/contest/campaign/ID/:
 * the plan (written once), the journal (a line a step, state.c), the base
 * command line `start` found, the boot log of a test's boots, and STOP, a
 * file a person may create to end it.  <root>/var/lib/contest/campaign/active
 * names the campaign the service resumes at every boot. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "campaign/analysis.h"
#include "campaign/boot.h"
#include "campaign/campaign.h"
#include "campaign/campaign-internal.h"
#include "campaign/plan.h"
#include "campaign/root.h"
#include "campaign/state.h"
#include "run/compare.h"
#include "run/env.h"
#include "run/progress.h"
#include "run/suite.h"
#include "loads/runtype.h"
#include "results/store.h"
#include "lib/exitcode.h"
#include "lib/fsutil.h"
#include "lib/proc.h"
#include "lib/util.h"

#define STATE_DIR "/var/lib/contest/campaign"
#define UNIT_DIR "/etc/systemd/system"
#define UNIT "contest-campaign.service"
#define DEFAULT_BOOTS 4
#define DEFAULT_MAX 20
#define DEFAULT_RUNS 2
#define DEFAULT_SETTLE 120
#define BOOT_GUESS 120		/* seconds a reboot takes, for the estimate */

/* The unit, where make install put none (a build tree): the same as
 * contrib/systemd/contest-campaign.service.in but the path (tests/t2030
 * holds them together).  Type=exec, not oneshot: resume waits for
 * `systemctl is-system-running --wait`, which a start job still pending
 * would keep waiting forever. */
static const char unit_text[] =
	"[Unit]\n"
	"Description=Resume the contest campaign after a boot\n"
	"Documentation=man:contest(1)\n"
	"After=multi-user.target\n"
	"ConditionPathExists=" STATE_DIR "/active\n"
	"\n"
	"[Service]\n"
	"Type=exec\n"
	"ExecStart=%s campaign resume\n"
	"StandardOutput=journal+console\n"
	"StandardError=journal+console\n"
	"\n"
	"[Install]\n"
	"WantedBy=multi-user.target\n";

/* Where make install or a package puts the unit (configure's
 * systemdsystemunitdir, or systemd's usual places). */
static const char *const unit_dirs[] = {
#ifdef SYSTEMDSYSTEMUNITDIR
	SYSTEMDSYSTEMUNITDIR,
#endif
	"/usr/local/lib/systemd/system", "/usr/lib/systemd/system", "/lib/systemd/system",
};

static char *state_path(const char *id, const char *file)
{
	char *rel = xasprintf(STATE_DIR "/%s%s%s", id, file ? "/" : "", file ? file : "");
	char *p = rooted(rel);

	free(rel);
	return p;
}

/* mkdir -p */
static int make_dirs(const char *path)
{
	char *copy = xstrdup(path);

	for (char *s = copy + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(copy, 0755) && errno != EEXIST) {
				free(copy);
				return -1;
			}
			*s = '/';
		}
	free(copy);
	return mkdir(path, 0755) && errno != EEXIST ? -1 : 0;
}

/* The campaign's journal read (again, after a step appended to it):
 * returns 0, or -1 with the reason printed. */
static int read_journal(struct ctx *c)
{
	char why[512];
	size_t damaged;

	free(c->j);
	if (journal_read(c->journal, &c->j, &c->n, &damaged, why, sizeof(why))) {
		msg("%s", why);
		return -1;
	}
	if (damaged)
		msg("%s: %zu damaged line%s skipped (a step cut short)", c->journal, damaged,
		    damaged == 1 ? "" : "s");
	return 0;
}

static int open_campaign(struct ctx *c, const char *id)
{
	char why[1024], *plan;

	memset(c, 0, sizeof(*c));
	if (!id[0] || strchr(id, '/') || id[0] == '.') {
		msg("no campaign '%s'", id);
		return -1;
	}
	c->dir = state_path(id, NULL);
	plan = state_path(id, "plan");
	if (plan_read(plan, &c->p, why, sizeof(why))) {
		msg("campaign %s: %s", id, why);
		free(plan);
		return -1;
	}
	free(plan);
	c->journal = state_path(id, "journal");
	return read_journal(c);
}

static void close_campaign(struct ctx *c)
{
	plan_free(&c->p);
	free(c->dir);
	free(c->journal);
	free(c->results);
	free(c->j);
	compare_free(&c->cmp);
	memset(c, 0, sizeof(*c));
}

/* ---- what this boot looks like --------------------------------------------- */

void read_rooted(const char *path, char *buf, size_t len)
{
	char *p = rooted(path);

	if (read_small(p, buf, len))
		buf[0] = '\0';
	free(p);
}

/* The GNU build id in an ELF notes blob, as hex. */
static void build_id(char *out, size_t len)
{
	char *p = rooted("/sys/kernel/notes");
	unsigned char buf[4096];
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf));
	size_t at = 0;

	free(p);
	if (fd >= 0)
		close(fd);
	out[0] = '\0';
	while (n > 0 && at + 12 <= (size_t)n) {
		uint32_t nsz, dsz, type;
		size_t name, desc;

		memcpy(&nsz, buf + at, 4);
		memcpy(&dsz, buf + at + 4, 4);
		memcpy(&type, buf + at + 8, 4);
		name = at + 12;
		desc = name + ((nsz + 3u) & ~3u);
		if (nsz > 64 || dsz > 64 || desc + dsz > (size_t)n)
			break;
		if (type == 3 && nsz == 4 && !memcmp(buf + name, "GNU", 4)) {
			for (size_t i = 0; i < dsz && 2 * i + 3 <= len; i++)
				snprintf(out + 2 * i, 3, "%02x", buf[desc + i]);
			return;
		}
		at = desc + ((dsz + 3u) & ~3u);
	}
}

static void read_facts(const struct ctx *c, struct facts *f)
{
	char *stop = xasprintf("%s/STOP", c->dir);

	memset(f, 0, sizeof(*f));
	read_rooted("/proc/sys/kernel/random/boot_id", f->boot_id, sizeof(f->boot_id));
	read_rooted("/proc/cmdline", f->cmdline, sizeof(f->cmdline));
	read_rooted("/proc/sys/kernel/osrelease", f->release, sizeof(f->release));
	read_rooted("/proc/version", f->version, sizeof(f->version));
	build_id(f->build_id, sizeof(f->build_id));
	f->stop_file = access(stop, F_OK) == 0;
	free(stop);
}

/* ---- the service ------------------------------------------------------------- */

int systemd_here(void)
{
	char *p = rooted("/run/systemd/system");
	int yes = access(p, F_OK) == 0;

	free(p);
	return yes;
}

/* Enable the service: the installed unit where there is one, else one
 * written to /etc/systemd/system; by the symlink `systemctl enable` makes
 * (the next boot reads it; no daemon is asked). */
static int install_service(char *why, size_t len)
{
	char exe[1024], *dir = rooted(UNIT_DIR), *wants = rooted(UNIT_DIR "/multi-user.target.wants");
	char *unit = xasprintf("%s/" UNIT, dir), *link = xasprintf("%s/" UNIT, wants);
	char *target = NULL, *text;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	int ret = 0;

	for (size_t i = 0; !target && i < ARRAY_SIZE(unit_dirs); i++) {
		char *p = xasprintf("%s%s/" UNIT, root_prefix(), unit_dirs[i]);

		if (access(p, F_OK) == 0)
			target = xasprintf("%s/" UNIT, unit_dirs[i]);
		free(p);
	}
	exe[n > 0 ? n : 0] = '\0';
	text = xasprintf(unit_text, n > 0 ? exe : "/usr/local/bin/contest");
	if (make_dirs(wants) || (!target && replace_file(unit, text, strlen(text))) ||
	    ((unlink(link) && errno != ENOENT) || symlink(target ? target : "../" UNIT, link)))
		ret = whyf(why, len, "cannot install %s: %s", target ? link : unit, strerror(errno));
	free(target);
	free(text);
	free(dir);
	free(wants);
	free(unit);
	free(link);
	return ret;
}

static void remove_service(void)
{
	char *unit = rooted(UNIT_DIR "/" UNIT), *link = rooted(UNIT_DIR
							       "/multi-user.target.wants/" UNIT);

	unlink(link);
	unlink(unit);
	free(unit);
	free(link);
}

static char *active_path(void)
{
	return rooted(STATE_DIR "/active");
}

static void read_active(char *id, size_t len)
{
	read_rooted(STATE_DIR "/active", id, len);
}

/* The end: the service disabled, the machine left to its default kernel. */
static void disable(const char *id)
{
	char now[128], *path = active_path();

	remove_service();
	read_active(now, sizeof(now));
	if (!strcmp(now, id))
		unlink(path);
	free(path);
}

/* ---- the steps ----------------------------------------------------------------- */

static void say(const struct ctx *c, const struct jline *l)
{
	const struct plan_boot *b = l->seq >= 1 && l->seq <= c->p.nboots ? &c->p.boot[l->seq - 1] :
				    NULL;

	info("campaign %s: boot %" PRIu64 "/%zu%s%s %s: %s", c->p.id, l->seq, c->p.nboots,
	     b ? " " : "", b ? c->p.arms[b->arm].label : "", phase_name(l->phase), l->note);
	if (l->phase == PH_END && strncmp(l->note, "done", 4) && !root_is_test()) {
		openlog("contest", LOG_PID, LOG_DAEMON);
		syslog(LOG_WARNING, "campaign %s %s", c->p.id, l->note);
		closelog();
	}
}

static int append(struct ctx *c, const struct jline *l)
{
	char why[512];

	if (journal_append(c->journal, l, why, sizeof(why))) {
		msg("%s", why);
		return -1;
	}
	test_hook("journal");
	say(c, l);
	return read_journal(c);
}

static int results_of(struct ctx *c)
{
	char *path = xasprintf("%s/results", c->dir);
	char dir[4096];

	if (read_small(path, dir, sizeof(dir))) {
		msg("campaign %s: cannot read %s: %s", c->p.id, path, strerror(errno));
		free(path);
		return -1;
	}
	free(path);
	c->results = xstrdup(dir);
	return 0;
}

static void print_tables(struct ctx *c, FILE *f)
{
	struct analysis a;
	char why[512];

	if (!c->results && results_of(c))
		return;
	if (analysis_read(&c->p, c->j, c->n, c->results, &a, why, sizeof(why))) {
		msg("%s", why);
		return;
	}
	analysis_print(f, &c->p, &a);
	analysis_free(&a);
}

/* --until: after a whole block that is a look, whether to stop. */
static int until_now(struct ctx *c)
{
	const struct jline *last = c->n ? &c->j[c->n - 1] : NULL;
	struct analysis a;
	size_t k, looks, block;
	char why[512];
	int met = 0;

	if (!(c->p.until > 0) || !last || last->phase != PH_RAN)
		return 0;
	block = c->p.boot[last->seq - 1].block;
	if (!until_look(&c->p, block, &k, &looks))
		return 0;
	if ((c->results || results_of(c) == 0) &&
	    analysis_read(&c->p, c->j, c->n, c->results, &a, why, sizeof(why)) == 0) {
		met = until_met(&c->p, &a, k, looks);
		analysis_free(&a);
	}
	info("campaign %s: look %zu of %zu after block %zu: the intervals are %swithin "
	     "+-%g%% at O'Brien-Fleming's level %.4f", c->p.id, k, looks, block, met ? "" :
	     "not yet ", c->p.until, 1 - obf_level(k, looks));
	return met;
}

static int boot_now(struct ctx *c, uint64_t seq, char *why, size_t len)
{
	const struct boot_method *m = boot_method(c->p.method);
	char base[4096] = "", *path = xasprintf("%s/cmdline", c->dir);
	char *log = xasprintf("%s/boot.log", c->dir);
	struct boot_req r = { &c->p, seq, base, log };
	int ret;

	read_small(path, base, sizeof(base));
	ret = m->boot(&r, why, len);
	free(path);
	free(log);
	return ret;
}

/* Step until this boot has nothing more to do: the exit status. */
static int drive(struct ctx *c, campaign_parse_fn parse)
{
	for (;;) {
		struct facts f;
		struct decision d;
		char why[1024];
		int rc;

		read_facts(c, &f);
		f.until_met = until_now(c);
		campaign_decide(&c->p, c->j, c->n, &f, real_ns() / NS_PER_SEC, &d);
		switch (d.act) {
		case ACT_IDLE:
			info("campaign %s is over: %s", c->p.id, c->n ? c->j[c->n - 1].note : "");
			return EXIT_OK;
		case ACT_APPEND:
			if (append(c, &d.line))
				return EXIT_FAILED;
			continue;
		case ACT_RUN:
			if (!c->p.boot[d.line.seq - 1].burnin) {
				rc = measure(c, parse, d.line.seq);
				if (rc >= EXIT_SIGNAL || proc_interrupted())
					return rc >= EXIT_SIGNAL ? rc :
					       EXIT_SIGNAL + proc_interrupted();
				if (rc) {
					d.line.phase = PH_FAILED;
					snprintf(d.line.note, sizeof(d.line.note), "the runs failed "
						 "(exit %d): see above", rc);
				} else {
					snprintf(d.line.session, sizeof(d.line.session), "%s",
						 c->session);
				}
			}
			if (append(c, &d.line))
				return EXIT_FAILED;
			continue;
		case ACT_BOOT:
			if (append(c, &d.line))
				return EXIT_FAILED;
			if (boot_now(c, d.line.seq, why, sizeof(why)) == 0)
				return EXIT_OK;
			msg("campaign %s: boot %" PRIu64 ": %s", c->p.id, d.line.seq, why);
			d.line.phase = PH_FAILED;
			snprintf(d.line.note, sizeof(d.line.note), "cannot boot: %.400s", why);
			if (append(c, &d.line))
				return EXIT_FAILED;
			continue;
		case ACT_END:
			if (append(c, &d.line))
				return EXIT_FAILED;
			disable(c->p.id);
			print_tables(c, stdout);
			return strncmp(d.line.note, "done", 4) ? EXIT_FAILED : EXIT_OK;
		}
	}
}

/* ---- the commands ------------------------------------------------------------------ */

static int parse_until(const char *arg, struct campaign_plan *p)
{
	char *copy = xstrdup(arg), *max = strstr(copy, ",max="), *pct;
	int bad;

	if (max) {
		*max = '\0';
		bad = parse_u64(max + 5, 1, 1000, &p->boots);
	} else {
		p->boots = DEFAULT_MAX;
		bad = 0;
	}
	pct = copy;
	if (*pct && pct[strlen(pct) - 1] == '%')
		pct[strlen(pct) - 1] = '\0';
	bad = bad || parse_double(pct, 0.01, 100, &p->until);
	free(copy);
	if (bad)
		return usage_error("--until wants PCT[,max=M]: a half width from 0.01 to 100 (%%), "
				   "and at most M boots a kernel, not '%s'", arg);
	return 0;
}

/* A guess of the whole campaign's time, from the store's noload runs. */
static void print_estimate(const struct campaign_plan *p, const struct config *cfg,
			   const char *results)
{
	struct store st;
	char why[256], took[64];
	double sum = 0, run;
	size_t n = 0, types = (size_t)cfg->nargs - 1;

	if (store_read(results, &st, why, sizeof(why)) == 0) {
		for (size_t i = 0; i < st.nruns; i++)
			if (st.runs[i].valid && !strcmp(st.runs[i].type, "noload")) {
				sum += (double)st.runs[i].elapsed_ns / NS_PER_SEC;
				n++;
			}
		store_free(&st);
	}
	if (!types)
		for (size_t i = 0; i < runtype_count(); i++)
			types += runtype_default(runtype_at(i)) != 0;
	run = n ? sum / (double)n : 60;
	format_duration((double)p->nboots * (BOOT_GUESS + p->settle + run * (1 + (double)
			p->runs_per_boot * (double)types)), took, sizeof(took));
	printf("estimate: about %s%s (a boot %d s, settle %g s, a run %.0f s%s, a warm-up "
	       "and %" PRIu64 " x %zu runs a boot)\n", p->until > 0 ? "at most " : "", took,
	       BOOT_GUESS, p->settle, run, n ? " as the noload runs stored" : ", guessed",
	       p->runs_per_boot, types);
}

static int cmd_plan(const struct config *cfg)
{
	struct campaign_plan p;
	char why[1024], cwd[4096], *dir = NULL, *path, *results;
	int rc = EXIT_OK;

	memset(&p, 0, sizeof(p));
	if (cfg->nkernels < 2)
		return usage_error("campaign plan wants two kernels or more: --kernel LABEL=SPEC "
				   "--kernel LABEL=SPEC");
	if (cfg->nkernels > CAMPAIGN_MAX_ARMS)
		return usage_error("campaign plan takes at most %d kernels", CAMPAIGN_MAX_ARMS);
	for (int i = 0; i < cfg->nkernels; i++) {
		struct arm *a = &p.arms[p.narms++];

		rc = plan_parse_kernel(cfg->kernels[i], a, why, sizeof(why));
		for (int k = 0; k < i && !rc; k++)
			if (!strcmp(p.arms[k].label, a->label))
				rc = whyf(why, sizeof(why), "--kernel %s: the label %s again",
					  cfg->kernels[i], a->label);
		if (rc) {
			plan_free(&p);
			return usage_error("%s", why);
		}
	}
	/* a release's initrd only when there is one */
	for (size_t i = 0; i < p.narms; i++) {
		struct arm *a = &p.arms[i];
		char *own = a->release ? xasprintf("/boot/initrd.img-%s", a->release) : NULL;

		if (own && a->initrd && !strcmp(own, a->initrd)) {
			char *r = rooted(own);

			if (access(r, F_OK)) {
				free(a->initrd);
				a->initrd = NULL;
			}
			free(r);
		}
		free(own);
	}
	p.method = xstrdup(cfg->method ? cfg->method : "kexec");
	if (!boot_method(p.method)) {
		plan_free(&p);
		return usage_error("--method wants kexec, grub, sdboot or script:CMD, not '%s'",
				   cfg->method);
	}
	if (cfg->boots && cfg->until) {
		plan_free(&p);
		return usage_error("--boots N or --until PCT[,max=M]: one of them");
	}
	p.boots = cfg->boots ? cfg->boots : DEFAULT_BOOTS;
	if (cfg->until && parse_until(cfg->until, &p)) {
		plan_free(&p);
		return EXIT_USAGE;
	}
	for (int i = 1; i < cfg->nargs; i++)
		if (!runtype_find(cfg->args[i])) {
			plan_free(&p);
			return usage_error("unknown run type '%s'", cfg->args[i]);
		}
	p.seed = cfg->seed;
	p.runs_per_boot = cfg->runs_per_boot ? cfg->runs_per_boot : DEFAULT_RUNS;
	p.settle = cfg->settle >= 0 ? cfg->settle : DEFAULT_SETTLE;
	p.retries = CAMPAIGN_RETRIES;
	if (!getcwd(cwd, sizeof(cwd))) {
		plan_free(&p);
		msg("getcwd: %s", strerror(errno));
		return EXIT_FAILED;
	}
	p.cwd = xstrdup(cwd);
	p.nargs = (size_t)cfg->argc - 2;
	p.args = xcalloc(p.nargs, sizeof(*p.args));
	for (size_t i = 0; i < p.nargs; i++)
		p.args[i] = xstrdup(cfg->argv[i + 2]);
	plan_order(&p);
	p.reboot_cap = p.nboots + CAMPAIGN_SPARE_REBOOTS;
	for (int tries = 0; tries < 100; tries++) {
		time_t now = time(NULL);
		struct tm tm;
		char stamp[32];

		localtime_r(&now, &tm);
		strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", &tm);
		snprintf(p.id, sizeof(p.id), tries ? "%s-%d" : "%s", stamp, tries + 1);
		free(dir);
		dir = state_path(p.id, NULL);
		if (access(dir, F_OK))
			break;
	}
	path = state_path(p.id, "plan");
	results = fs_absolute(cfg->results);
	if (make_dirs(dir)) {
		msg("cannot create %s: %s", dir, strerror(errno));
		rc = EXIT_FAILED;
	} else if (plan_write(path, &p, why, sizeof(why))) {
		msg("%s", why);
		rc = EXIT_FAILED;
	} else {
		char *rpath = xasprintf("%s/results", dir);

		if (replace_file(rpath, results, strlen(results))) {
			msg("cannot write %s: %s", rpath, strerror(errno));
			rc = EXIT_FAILED;
		}
		free(rpath);
	}
	if (!rc) {
		printf("campaign %s\n", p.id);
		printf("kernels:");
		for (size_t i = 0; i < p.narms; i++)
			printf(" %s=%s", p.arms[i].label, p.arms[i].spec);
		printf("\nmethod: %s; %" PRIu64 " rounds a boot; settle %g s; seed %" PRIu64 "\n",
		       p.method, p.runs_per_boot, p.settle, p.seed);
		if (p.until > 0)
			printf("stop: when every difference's interval is within +-%g%% (O'Brien-"
			       "Fleming boundary, checked after each block), at most %" PRIu64
			       " measured boots a kernel\n", p.until, p.boots);
		printf("boots: %zu (%zu burn-in, marked *, not measured); reboots at most %"
		       PRIu64 "\norder:", p.nboots, p.narms, p.reboot_cap);
		plan_print_order(&p, stdout);
		print_estimate(&p, cfg, results);
		printf("plan: %s\nnext: contest campaign start %s\n", path, p.id);
	}
	free(results);
	free(path);
	free(dir);
	plan_free(&p);
	return rc;
}

/* Everything that can be checked before the first reboot: returns 0, or -1
 * with the reasons printed. */
static int preflight(struct ctx *c, campaign_parse_fn parse)
{
	const struct boot_method *m = boot_method(c->p.method);
	char why[1024], other[128];
	struct config cfg;
	int bad = 0;

	if (boot_config(c, parse, &cfg))	/* the run options still parse */
		return -1;
	free(cfg.args - 1);
	free(cfg.results_dirs);
	free(cfg.kernels);

	read_active(other, sizeof(other));
	if (other[0] && strcmp(other, c->p.id)) {
		msg("campaign %s is active: one campaign at a time (contest campaign abort %s)",
		    other, other);
		return -1;
	}
	if (c->n) {
		msg("campaign %s was started already: its state is '%s' (contest campaign status "
		    "%s)", c->p.id, phase_name(c->j[c->n - 1].phase), c->p.id);
		return -1;
	}
	if (m->ready && m->ready(&c->p, why, sizeof(why))) {
		msg("campaign %s: %s", c->p.id, why);
		bad = 1;
	}
	for (size_t i = 0; i < c->p.narms; i++)
		if (m->check(&c->p, &c->p.arms[i], why, sizeof(why))) {
			msg("campaign %s: kernel %s: %s", c->p.id, c->p.arms[i].label, why);
			bad = 1;
		}
	if (results_of(c))
		return -1;
	if (fs_in_memory(c->dir) || fs_in_memory(c->results)) {
		msg("campaign %s: %s is in memory (tmpfs): it would be gone after the reboot",
		    c->p.id, fs_in_memory(c->dir) ? c->dir : c->results);
		bad = !root_is_test();	/* a test's scratch may be on tmpfs */
	}
	return bad ? -1 : 0;
}

static int cmd_start(struct ctx *c, campaign_parse_fn parse)
{
	char running[4096], base[4096], why[1024];
	char *path = xasprintf("%s/cmdline", c->dir), *active = active_path();
	int ret = EXIT_OK;

	if (preflight(c, parse)) {
		free(path);
		free(active);
		return EXIT_FAILED;
	}
	read_rooted("/proc/cmdline", running, sizeof(running));
	boot_base_cmdline(running, base, sizeof(base));
	if (replace_file(path, base, strlen(base)) ||
	    replace_file(active, c->p.id, strlen(c->p.id))) {
		msg("cannot write %s: %s", active, strerror(errno));
		ret = EXIT_FAILED;
	} else if (systemd_here()) {
		if (install_service(why, sizeof(why))) {
			msg("%s", why);
			ret = EXIT_FAILED;
		} else {
			info("installed and enabled %s: it resumes the campaign at every boot", UNIT);
		}
	} else {
		info("no systemd here: run 'contest campaign resume' from an init script at "
		     "every boot");
	}
	free(path);
	free(active);
	if (ret) {
		disable(c->p.id);
		return ret;
	}
	info("campaign %s: the boot this runs on is not measured; booting %s first", c->p.id,
	     c->p.arms[c->p.boot[0].arm].label);
	return drive(c, parse);
}

static const char *state_of(const struct ctx *c, uint64_t seq, const struct jline **at)
{
	*at = NULL;
	for (size_t i = c->n; i-- > 0;)
		if (c->j[i].seq == seq && c->j[i].phase != PH_END) {
			*at = &c->j[i];
			return phase_name(c->j[i].phase);
		}
	return "planned";
}

/* Each kernel as its first boot verified it, which every later boot must
 * match: release, build id (its first 12 hex digits) and /proc/version. */
static void print_identities(const struct ctx *c)
{
	int w = 0;

	for (size_t a = 0; a < c->p.narms; a++)
		if ((int)strlen(c->p.arms[a].label) > w)
			w = (int)strlen(c->p.arms[a].label);
	printf("kernels, as their first boot verified them:\n");
	for (size_t a = 0; a < c->p.narms; a++) {
		const struct jline *v = journal_first_verified(&c->p, c->j, c->n, a);

		printf("  %-*s %s: ", w, c->p.arms[a].label, c->p.arms[a].spec);
		if (!v)
			printf("not yet booted\n");
		else
			printf("release %s, build id %.12s, boot %" PRIu64 ": %s\n", v->release,
			       v->build_id[0] ? v->build_id : "(none)", v->seq, v->version);
	}
}

static int cmd_status(struct ctx *c)
{
	size_t measured, ran = journal_ran(&c->p, c->j, c->n, &measured);
	const struct jline *last = c->n ? &c->j[c->n - 1] : NULL;

	printf("campaign %s: %zu kernels, method %s, %" PRIu64 " rounds a boot\n", c->p.id,
	       c->p.narms, c->p.method, c->p.runs_per_boot);
	printf("state: %s\n", !last ? "planned, not started" : last->phase == PH_END ?
	       last->note : phase_name(last->phase));
	if (last && last->phase != PH_END)
		printf("last step: boot %" PRIu64 " %s: %s\n", last->seq, phase_name(last->phase),
		       last->note);
	printf("boots ran: %zu of %zu (%zu measured); reboots %zu of at most %" PRIu64 "\n",
	       ran, c->p.nboots, measured, journal_reboots(c->j, c->n), c->p.reboot_cap);
	printf("failures:");
	for (size_t a = 0; a < c->p.narms; a++)
		printf(" %s %zu", c->p.arms[a].label, journal_failures(&c->p, c->j, c->n, a));
	printf(" (a kernel stops the campaign at %" PRIu64 ")\n", c->p.retries + 1);
	print_identities(c);
	printf("\n%4s %5s %-16s %-10s %s\n", "Boot", "Block", "Kernel", "State",
	       "Session or note");
	for (uint64_t s = 1; s <= c->p.nboots; s++) {
		const struct jline *at;
		const char *st = state_of(c, s, &at);

		printf("%4" PRIu64 " %5s %-16s %-10s %s\n", s, c->p.boot[s - 1].burnin ? "-" :
		       "", c->p.arms[c->p.boot[s - 1].arm].label, st,
		       !at ? "" : at->session[0] ? at->session : at->note);
	}
	putchar('\n');
	print_tables(c, stdout);
	return EXIT_OK;
}

static int cmd_abort(struct ctx *c)
{
	const struct jline *last = c->n ? &c->j[c->n - 1] : NULL;
	struct jline l;
	char id[64];

	if (last && last->phase == PH_END) {
		info("campaign %s is over already: %s", c->p.id, last->note);
		disable(c->p.id);
		return EXIT_OK;
	}
	memset(&l, 0, sizeof(l));
	read_rooted("/proc/sys/kernel/random/boot_id", l.boot_id, sizeof(l.boot_id));
	l.phase = PH_END;
	l.seq = last ? last->seq : 0;
	l.time = real_ns() / NS_PER_SEC;
	snprintf(l.note, sizeof(l.note), "aborted by the user");
	if (append(c, &l))
		return EXIT_FAILED;
	snprintf(id, sizeof(id), "%s", c->p.id);
	disable(id);
	info("campaign %s aborted: the service is disabled, the machine boots its default "
	     "kernel; every result is kept", id);
	return EXIT_OK;
}

static int cmd_resume(campaign_parse_fn parse)
{
	char id[128], *lock;
	struct ctx c;
	int fd, rc;

	read_active(id, sizeof(id));
	if (!id[0]) {
		info("no campaign is active");
		return EXIT_OK;
	}
	if (open_campaign(&c, id))
		return EXIT_FAILED;
	lock = xasprintf("%s/lock", c.dir);
	fd = lock_file(lock, "resuming this campaign", "wait for it");
	if (fd < 0) {
		free(lock);
		close_campaign(&c);
		return EXIT_FAILED;
	}
	rc = drive(&c, parse);
	unlock_file(lock, &fd);
	free(lock);
	close_campaign(&c);
	return rc;
}

/* The newest campaign: the active one, else the last one planned (ids
 * sort by their time). */
static void newest(char *id, size_t len)
{
	char *path = rooted(STATE_DIR);
	DIR *d = opendir(path);
	struct dirent *e;
	int active;

	read_active(id, len);
	active = id[0] != '\0';
	while (!active && d && (e = readdir(d)))
		if (e->d_name[0] != '.' && strcmp(e->d_name, "active") &&
		    strcmp(e->d_name, id) > 0 && strlen(e->d_name) < len)
			snprintf(id, len, "%s", e->d_name);
	if (d)
		closedir(d);
	free(path);
}

const struct campaign_verb campaign_verbs[] = {
	{ "plan", "write a campaign's plan (--kernel LABEL=SPEC...) and print its ID" },
	{ "start", "check what can be checked, enable the service, boot the first kernel" },
	{ "resume", "what the service runs at every boot; nothing without a campaign" },
	{ "status", "where a campaign is, and its tables so far" },
	{ "abort", "end a campaign: the service disabled, every result kept" },
	{ NULL, NULL },
};

int campaign_main(struct config *cfg, campaign_parse_fn parse)
{
	const char *verb = cfg->nargs ? cfg->args[0] : "";
	char id[128] = "";
	struct ctx c;
	int rc;

	if (!strcmp(verb, "plan"))
		return cmd_plan(cfg);
	if (!strcmp(verb, "resume")) {
		if (cfg->nargs > 1)
			return usage_error("campaign resume takes no ID: it resumes the active one");
		return cmd_resume(parse);
	}
	if (strcmp(verb, "start") && strcmp(verb, "status") && strcmp(verb, "abort"))
		return usage_error("campaign wants plan, start ID, resume, status [ID] or abort ID%s%s",
				   verb[0] ? ", not " : "", verb);
	if (cfg->nargs > 2)
		return usage_error("campaign %s takes one ID", verb);
	if (cfg->nargs == 2)
		snprintf(id, sizeof(id), "%s", cfg->args[1]);
	else if (!strcmp(verb, "status"))
		newest(id, sizeof(id));
	else
		return usage_error("campaign %s wants the campaign's ID", verb);
	if (!id[0]) {
		msg("no campaign planned yet");
		return EXIT_FAILED;
	}
	if (open_campaign(&c, id))
		return EXIT_FAILED;
	rc = !strcmp(verb, "start") ? cmd_start(&c, parse) : !strcmp(verb, "status") ?
	     cmd_status(&c) : cmd_abort(&c);
	close_campaign(&c);
	return rc;
}

int campaign_report(const char *id)
{
	struct ctx c;

	if (open_campaign(&c, id))
		return EXIT_FAILED;
	print_tables(&c, stdout);
	close_campaign(&c);
	return EXIT_OK;
}
