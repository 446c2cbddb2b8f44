/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit-campaign.c - contest campaign: kernel specs, the boot order, the
 * plan file, the journal and its replay (campaign_decide), the boot
 * methods' command lines, the stop rule's boundary. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/analysis.h"
#include "campaign/boot.h"
#include "campaign/plan.h"
#include "campaign/state.h"
#include "tap.h"

static void kernels(void)
{
	struct arm a;
	char why[512];

	ok(plan_parse_kernel("stock=6.12.0", &a, why, sizeof(why)) == 0, "a release: %s", why);
	is_str(a.label, "stock", "its label");
	is_str(a.kernel, "/boot/vmlinuz-6.12.0", "its kernel in /boot");
	is_str(a.initrd, "/boot/initrd.img-6.12.0", "its initrd");
	is_str(a.release, "6.12.0", "the release it must boot as");
	ok(!a.append && !a.entry, "no append, no entry");
	ok(plan_parse_kernel("full=/k/bzImage,initrd=/k/i.img,append=isolcpus=1,2 preempt=full,"
			     "entry=e1", &a, why, sizeof(why)) == 0, "a path: %s", why);
	is_str(a.kernel, "/k/bzImage", "its kernel");
	is_str(a.initrd, "/k/i.img", "its initrd");
	is_str(a.append, "isolcpus=1,2 preempt=full", "append= keeps its comma");
	is_str(a.entry, "e1", "its entry");
	ok(a.release == NULL, "a path's release is learned at its first boot");
	ok(plan_parse_kernel("none=6.12,append=preempt=none", &a, why, sizeof(why)) == 0 &&
	   !strcmp(a.append, "preempt=none") && !strcmp(a.release, "6.12"),
	   "a release with append=: one kernel, its own command line");
	ok(plan_parse_kernel("nolabel", &a, why, sizeof(why)) && strstr(why, "LABEL=SPEC"),
	   "no LABEL=: refused (%s)", why);
	ok(plan_parse_kernel("x=/k/bz,foo=1", &a, why, sizeof(why)) && strstr(why, "unknown key"),
	   "an unknown key: refused (%s)", why);
	ok(plan_parse_kernel("x=k/bz", &a, why, sizeof(why)) && strstr(why, "absolute"),
	   "a relative path: refused (%s)", why);
}

static void two_arms(struct campaign_plan *p, uint64_t boots, uint64_t seed)
{
	char why[256];

	memset(p, 0, sizeof(*p));
	snprintf(p->id, sizeof(p->id), "ID");
	p->method = strdup("kexec");
	p->boots = boots;
	p->seed = seed;
	p->narms = 2;
	plan_parse_kernel("a=1.0-a", &p->arms[0], why, sizeof(why));
	plan_parse_kernel("b=1.0-b", &p->arms[1], why, sizeof(why));
	p->cwd = strdup("/");
	p->runs_per_boot = 2;
	p->retries = 2;
	plan_order(p);
	p->reboot_cap = p->nboots + 6;
}

static char *order_of(const struct campaign_plan *p)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	plan_print_order(p, f);
	fclose(f);
	return buf;
}

static void order(void)
{
	struct campaign_plan p;
	char *o;
	int abba = 0, baab = 0;

	two_arms(&p, 4, 0);
	o = order_of(&p);
	is_str(o, " a* b* | a b b a | a b b a\n", "two kernels, seed 0: burn-in, then ABBA blocks");
	ok(p.nboots == 10 && p.block_size == 4, "10 boots in blocks of 4");
	free(o);
	plan_free(&p);
	for (uint64_t seed = 1; seed <= 20; seed++) {
		two_arms(&p, 2, seed);
		o = order_of(&p);
		abba += !strcmp(o, " a* b* | a b b a\n");
		baab += !strcmp(o, " a* b* | b a a b\n");
		free(o);
		plan_free(&p);
	}
	ok(abba + baab == 20, "every seed's block is ABBA or BAAB");
	ok(abba && baab, "the seed picks either (%d ABBA, %d BAAB)", abba, baab);
	{
		char why[256];
		size_t count[3] = { 0 };
		int rows_ok = 1;

		memset(&p, 0, sizeof(p));
		p.narms = 3;
		p.boots = 6;
		p.seed = 7;
		for (int i = 0; i < 3; i++) {
			char k[32];

			snprintf(k, sizeof(k), "%c=1.0-%c", 'a' + i, 'a' + i);
			plan_parse_kernel(k, &p.arms[i], why, sizeof(why));
		}
		plan_order(&p);
		ok(p.nboots == 3 + 18 && p.block_size == 3, "three kernels: 3 burn-in, 6 rows of 3");
		for (size_t b = 1; b <= 6; b++) {
			size_t first = plan_block_first(&p, b), seen = 0;

			for (size_t k = 0; k < 3; k++)
				seen |= (size_t)1 << p.boot[first - 1 + k].arm;
			rows_ok &= seen == 7;
			for (size_t k = 0; k < 3; k++)
				count[p.boot[first - 1 + k].arm]++;
		}
		ok(rows_ok, "each block a row: every kernel once");
		ok(count[0] == 6 && count[1] == 6 && count[2] == 6, "six measured boots each");
		plan_free(&p);
	}
}

static void plan_file(void)
{
	struct campaign_plan p, q;
	char dir[] = "/tmp/unit-campaign.XXXXXX", *path, why[512];

	ok(mkdtemp(dir) != NULL, "a scratch directory");
	path = malloc(strlen(dir) + 8);
	sprintf(path, "%s/plan", dir);
	two_arms(&p, 4, 3);
	p.nargs = 2;
	p.args = calloc(2, sizeof(char *));
	p.args[0] = strdup("plan");
	p.args[1] = strdup("a word with spaces = and %");
	ok(plan_write(path, &p, why, sizeof(why)) == 0, "the plan is written: %s", why);
	ok(plan_write(path, &p, why, sizeof(why)) && strstr(why, "written once"),
	   "and never again (%s)", why);
	ok(plan_read(path, &q, why, sizeof(why)) == 0, "and read back: %s", why);
	ok(q.nboots == p.nboots && q.narms == 2 && q.seed == 3 && q.reboot_cap == p.reboot_cap,
	   "the same boots, kernels, seed and cap");
	for (size_t i = 0; i < p.nboots; i++)
		if (q.boot[i].arm != p.boot[i].arm || q.boot[i].block != p.boot[i].block)
			ok(0, "boot %zu differs", i + 1);
	is_str(q.args[1], "a word with spaces = and %", "a word comes back whole");
	is_str(q.arms[1].release, "1.0-b", "a kernel's release");
	plan_free(&q);
	{
		FILE *f = fopen(path, "a");

		fputs("boot v=2 seq=99 crc=00000000\n", f);
		fclose(f);
	}
	ok(plan_read(path, &q, why, sizeof(why)) && strstr(why, "damaged"),
	   "a damaged plan is refused (%s)", why);
	plan_free(&q);
	plan_free(&p);
	unlink(path);
	rmdir(dir);
	free(path);
}

/* ---- the journal and its replay ---------------------------------------------- */

static struct jline J[64];
static size_t NJ;

static void add(uint64_t seq, enum phase ph, const char *boot_id)
{
	memset(&J[NJ], 0, sizeof(J[NJ]));
	J[NJ].seq = seq;
	J[NJ].phase = ph;
	snprintf(J[NJ].boot_id, sizeof(J[NJ].boot_id), "%s", boot_id);
	NJ++;
}

static void verified(uint64_t seq, const char *boot_id, const char *rel, const char *ver)
{
	add(seq, PH_VERIFIED, boot_id);
	snprintf(J[NJ - 1].release, sizeof(J[NJ - 1].release), "%s", rel);
	snprintf(J[NJ - 1].version, sizeof(J[NJ - 1].version), "%s", ver);
}

static void facts(struct facts *f, const char *boot_id, const char *cmdline, const char *rel,
		  const char *ver)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->boot_id, sizeof(f->boot_id), "%s", boot_id);
	snprintf(f->cmdline, sizeof(f->cmdline), "%s", cmdline);
	snprintf(f->release, sizeof(f->release), "%s", rel);
	snprintf(f->version, sizeof(f->version), "%s", ver);
}

static void decide(const struct campaign_plan *p, const struct facts *f, struct decision *d)
{
	campaign_decide(p, J, NJ, f, 1000, d);
}

static void journal(void)
{
	struct jline l, back;
	char *line;

	memset(&l, 0, sizeof(l));
	l.seq = 7;
	l.phase = PH_VERIFIED;
	l.time = 12345;
	snprintf(l.boot_id, sizeof(l.boot_id), "abc");
	snprintf(l.note, sizeof(l.note), "a note = with %% and spaces");
	snprintf(l.version, sizeof(l.version), "Linux version 6.12 (gcc) #1 SMP");
	line = jline_encode(&l);
	ok(jline_decode(line, strlen(line), &back) == 0, "a journal line reads back");
	ok(back.seq == 7 && back.phase == PH_VERIFIED && back.time == 12345, "its step");
	is_str(back.note, l.note, "its note");
	is_str(back.version, l.version, "its /proc/version");
	line[strlen(line) - 5] = '\0';
	ok(jline_decode(line, strlen(line), &back) != 0, "a torn line is damaged");
	free(line);
}

static void replay(void)
{
	struct campaign_plan p;
	struct facts f;
	struct decision d;

	two_arms(&p, 2, 0);	/* a* b* | a b b a */
	NJ = 0;
	facts(&f, "b0", "root=/dev/vda", "6.1-default", "Linux default");
	decide(&p, &f, &d);
	ok(d.act == ACT_BOOT && d.line.seq == 1 && d.line.phase == PH_REBOOTING,
	   "an empty journal: boot 1");
	is_str(d.line.boot_id, "b0", "the line carries this boot's id");
	add(1, PH_REBOOTING, "b0");
	decide(&p, &f, &d);
	ok(d.act == ACT_BOOT && d.line.seq == 1, "rebooting, the same boot_id: boot 1 again");
	facts(&f, "b1", "root=/dev/vda panic=10 contest.campaign=ID/1", "1.0-a", "Linux a");
	decide(&p, &f, &d);
	ok(d.act == ACT_APPEND && d.line.phase == PH_UP && d.line.seq == 1,
	   "rebooting, a new boot_id: up");
	add(1, PH_UP, "b1");
	decide(&p, &f, &d);
	ok(d.act == ACT_APPEND && d.line.phase == PH_VERIFIED, "the right kernel: verified (%s)",
	   d.line.note);
	is_str(d.line.release, "1.0-a", "its release recorded");
	is_str(d.line.version, "Linux a", "its /proc/version recorded");
	verified(1, "b1", "1.0-a", "Linux a");
	decide(&p, &f, &d);
	ok(d.act == ACT_RUN && d.line.seq == 1 && d.line.phase == PH_RAN,
	   "verified: run it (a burn-in: nothing measured)");
	facts(&f, "b2", "", "6.1-default", "Linux default");
	decide(&p, &f, &d);
	ok(d.act == ACT_APPEND && d.line.phase == PH_LOST, "verified, then a new boot: lost (%s)",
	   d.line.note);
	facts(&f, "b1", "contest.campaign=ID/1", "1.0-a", "Linux a");
	add(1, PH_RAN, "b1");
	decide(&p, &f, &d);
	ok(d.act == ACT_BOOT && d.line.seq == 2, "ran: boot 2 next");
	add(2, PH_REBOOTING, "b1");
	add(2, PH_UP, "b2");
	facts(&f, "b2", "contest.campaign=ID/1", "1.0-b", "Linux b");
	decide(&p, &f, &d);
	ok(d.act == ACT_APPEND && d.line.phase == PH_FAILED && strstr(d.line.note, "wrong boot"),
	   "another boot's marker: failed (%s)", d.line.note);
	facts(&f, "b2", "quiet", "1.0-b", "Linux b");
	decide(&p, &f, &d);
	ok(d.act == ACT_APPEND && d.line.phase == PH_LOST && strstr(d.line.note, "never came up"),
	   "kexec, no marker: the boot never came up (%s)", d.line.note);
	facts(&f, "b2", "contest.campaign=ID/2", "1.0-a", "Linux a");
	decide(&p, &f, &d);
	ok(d.act == ACT_APPEND && d.line.phase == PH_FAILED && strstr(d.line.note, "wrong kernel"),
	   "the other kernel's release: failed (%s)", d.line.note);
	facts(&f, "b2", "contest.campaign=ID/2", "6.1-default", "Linux default");
	decide(&p, &f, &d);
	ok(d.act == ACT_APPEND && d.line.phase == PH_LOST,
	   "a release of no kernel: lost, back in the default (%s)", d.line.note);
	facts(&f, "b2", "contest.campaign=ID/2", "1.0-b", "Linux b");
	verified(2, "b2", "1.0-b", "Linux b");
	add(2, PH_RAN, "b2");
	add(3, PH_REBOOTING, "b2");
	add(3, PH_UP, "b3");
	facts(&f, "b3", "contest.campaign=ID/3", "1.0-a", "Linux a rebuilt");
	decide(&p, &f, &d);
	ok(d.act == ACT_APPEND && d.line.phase == PH_FAILED && strstr(d.line.note, "first boot"),
	   "another build of the release: failed (%s)", d.line.note);
	add(3, PH_FAILED, "b3");
	decide(&p, &f, &d);
	ok(d.act == ACT_BOOT && d.line.seq == 3, "a failure: the same boot again");
	add(3, PH_REBOOTING, "b3");
	add(3, PH_LOST, "b4");
	add(3, PH_REBOOTING, "b4");
	add(3, PH_FAILED, "b5");
	facts(&f, "b5", "", "6.1-default", "Linux default");
	decide(&p, &f, &d);
	ok(d.act == ACT_END && strstr(d.line.note, "failed 3 times"),
	   "a third failure of one kernel: the end (%s)", d.line.note);
	NJ -= 3;	/* two failures of a */
	facts(&f, "b3", "contest.campaign=ID/3 contest.campaign=off", "1.0-a", "Linux a");
	decide(&p, &f, &d);
	ok(d.act == ACT_END && strstr(d.line.note, "contest.campaign=off"),
	   "contest.campaign=off: the end (%s)", d.line.note);
	facts(&f, "b3", "contest.campaign=ID/3", "1.0-a", "Linux a");
	f.stop_file = 1;
	decide(&p, &f, &d);
	ok(d.act == ACT_END && strstr(d.line.note, "STOP"), "a STOP file: the end (%s)",
	   d.line.note);
	f.stop_file = 0;
	add(3, PH_END, "b3");
	decide(&p, &f, &d);
	ok(d.act == ACT_IDLE, "after the end: nothing");
	NJ--;
	/* a loop: the reboots reach the cap */
	while (NJ < p.reboot_cap + 8 && journal_reboots(J, NJ) < p.reboot_cap)
		add(3, PH_REBOOTING, "b3");
	decide(&p, &f, &d);
	ok(d.act == ACT_END && strstr(d.line.note, "reboots, the cap"),
	   "the reboot cap: the end (%s)", d.line.note);
	plan_free(&p);

	/* the last boot, and --until */
	two_arms(&p, 4, 0);	/* a* b* | a b b a | a b b a */
	NJ = 0;
	for (uint64_t s = 1; s <= 6; s++) {
		add(s, PH_RAN, "x");
		snprintf(J[NJ - 1].session, sizeof(J[NJ - 1].session), "s%llu",
			 (unsigned long long)s);
	}
	facts(&f, "x", "", "1.0-a", "Linux a");
	decide(&p, &f, &d);
	ok(d.act == ACT_BOOT && d.line.seq == 7, "without --until: block 2 next");
	p.until = 2;
	f.until_met = 1;
	decide(&p, &f, &d);
	ok(d.act == ACT_END && strstr(d.line.note, "--until"), "--until met after block 1: "
	   "the end (%s)", d.line.note);
	NJ--;
	decide(&p, &f, &d);
	ok(d.act == ACT_BOOT && d.line.seq == 6, "but only after a whole block");
	for (uint64_t s = 6; s <= 10; s++)
		add(s, PH_RAN, "x");
	p.until = 0;
	decide(&p, &f, &d);
	ok(d.act == ACT_END && strstr(d.line.note, "all 10 boots"), "every boot ran: done (%s)",
	   d.line.note);
	plan_free(&p);
}

static void methods(void)
{
	struct campaign_plan p;
	char base[256], line[512];
	const char *argv[4];
	struct boot_req r;

	boot_base_cmdline("BOOT_IMAGE=/vmlinuz-6.1 root=/dev/vda ro panic=5 "
			  "contest.campaign=X/3 quiet\n", base, sizeof(base));
	is_str(base, "root=/dev/vda ro quiet", "the base: BOOT_IMAGE, panic and a marker out");
	two_arms(&p, 2, 0);
	free(p.arms[1].append);
	p.arms[1].append = strdup("preempt=full");
	r = (struct boot_req){ &p, 4, base, NULL };
	boot_kexec_cmdline(&r, line, sizeof(line));
	is_str(line, "root=/dev/vda ro quiet preempt=full panic=10 contest.campaign=ID/4",
	       "kexec: the base, the kernel's append=, panic=10, the marker");
	r.seq = 3;
	boot_kexec_cmdline(&r, line, sizeof(line));
	is_str(line, "root=/dev/vda ro quiet panic=10 contest.campaign=ID/3",
	       "the other kernel: the same but its append=");
	ok(boot_oneshot_argv("grub", &p.arms[0], argv) == -1, "grub without an entry: none");
	p.arms[0].entry = strdup("Advanced options>Linux 6.12");
	ok(boot_oneshot_argv("grub", &p.arms[0], argv) == 0 && !strcmp(argv[0], "grub-reboot") &&
	   !strcmp(argv[1], "Advanced options>Linux 6.12") && !argv[2],
	   "grub: grub-reboot ENTRY, one boot only");
	ok(boot_oneshot_argv("sdboot", &p.arms[0], argv) == 0 && !strcmp(argv[0], "bootctl") &&
	   !strcmp(argv[1], "set-oneshot") && !strcmp(argv[2], "Advanced options>Linux 6.12") &&
	   !argv[3], "sdboot: bootctl set-oneshot ENTRY");
	ok(boot_method("kexec") && boot_method("grub") && boot_method("sdboot") &&
	   boot_method("script:true") && !boot_method("script:") && !boot_method("ipmi"),
	   "the methods by name");
	plan_free(&p);
}

static void boundary(void)
{
	size_t k, looks;
	struct campaign_plan p;

	/* the reference's two-sided nominal levels for 5 looks */
	is_num(obf_level(1, 5), 0.000005, 0.000002, "O'Brien-Fleming, look 1 of 5");
	is_num(obf_level(2, 5), 0.0013, 0.0001, "look 2 of 5");
	is_num(obf_level(3, 5), 0.0084, 0.0002, "look 3 of 5");
	is_num(obf_level(5, 5), 0.0414, 0.0003, "look 5 of 5");
	is_num(obf_level(1, 1), 0.05, 0.0002, "one look: 0.05");
	two_arms(&p, 40, 0);	/* 20 blocks: a look every second block */
	ok(!until_look(&p, 1, &k, &looks), "20 blocks: no look after block 1");
	ok(until_look(&p, 2, &k, &looks) && k == 1 && looks == 10, "look 1 of 10 after block 2");
	ok(until_look(&p, 20, &k, &looks) && k == 10, "look 10 after the last block");
	plan_free(&p);
}

int main(void)
{
	kernels();
	order();
	plan_file();
	journal();
	replay();
	methods();
	boundary();
	return tap_done();
}
