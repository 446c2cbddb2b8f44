/* SPDX-License-Identifier: GPL-2.0-or-later */
/* boot.c - booting a campaign's kernel.
 *
 * The persistent default boot entry is never changed: kexec loads the
 * kernel for one boot, grub-reboot and bootctl set-oneshot name an entry
 * for the next boot only, so a crash, a hang or a power cut lands in the
 * kernel the machine boots normally.  Under a root prefix (a test) kexec,
 * grub and sdboot only write what they would do to the boot log. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/reboot.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/reboot.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "campaign/boot.h"
#include "campaign/root.h"
#include "lib/fsutil.h"
#include "lib/proc.h"
#include "lib/util.h"

#ifndef KEXEC_FILE_NO_INITRAMFS
#define KEXEC_FILE_NO_INITRAMFS 0x00000004
#endif

static int drop_word(const char *w, size_t n)
{
	static const char *const drop[] = { "BOOT_IMAGE=", "contest.campaign=", "panic=",
					    "initrd=" };

	for (size_t i = 0; i < ARRAY_SIZE(drop); i++)
		if (n >= strlen(drop[i]) && !strncmp(w, drop[i], strlen(drop[i])))
			return 1;
	return 0;
}

void boot_base_cmdline(const char *running, char *out, size_t len)
{
	size_t o = 0;

	out[0] = '\0';
	for (const char *p = running; *p;) {
		size_t n = strcspn(p, " \n\t");

		if (n && !drop_word(p, n) && o + n + 2 < len)
			o += (size_t)snprintf(out + o, len - o, "%s%.*s", o ? " " : "", (int)n, p);
		p += n;
		p += strspn(p, " \n\t");
	}
}

void boot_kexec_cmdline(const struct boot_req *r, char *out, size_t len)
{
	const struct arm *a = &r->p->arms[r->p->boot[r->seq - 1].arm];

	snprintf(out, len, "%s%s%s%spanic=10 contest.campaign=%s/%" PRIu64, r->base_cmdline,
		 r->base_cmdline[0] ? " " : "", a->append ? a->append : "", a->append ? " " : "",
		 r->p->id, r->seq);
}

int boot_oneshot_argv(const char *method, const struct arm *a, const char **argv)
{
	if (!a->entry)
		return -1;
	if (!strcmp(method, "grub")) {
		argv[0] = "grub-reboot";
		argv[1] = a->entry;
		argv[2] = NULL;
	} else {
		argv[0] = "bootctl";
		argv[1] = "set-oneshot";
		argv[2] = a->entry;
		argv[3] = NULL;
	}
	return 0;
}

/* A test's boot: what would be done, a line in the boot log. */
static int tell(const struct boot_req *r, const char *what, char *why, size_t len)
{
	int fd = open(r->log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	char *line = xasprintf("%" PRIu64 " %s\n", r->seq, what);
	int bad = fd < 0 || write_all(fd, line, strlen(line));

	if (fd >= 0 && close(fd))
		bad = 1;
	free(line);
	return bad ? whyf(why, len, "cannot write %s: %s", r->log, strerror(errno)) : 0;
}

/* Run argv, waiting for it; returns 0, or -1 with the reason in why. */
static int run(const char *const *argv, char *why, size_t len)
{
	int status;
	pid_t pid = proc_spawn((char *const *)argv, NULL, -1, why, len);

	if (pid < 0)
		return -1;
	if (proc_wait(pid, &status, NULL) < 0)
		return whyf(why, len, "%s: %s", argv[0], strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		char how[64];

		proc_describe(status, how, sizeof(how));
		return whyf(why, len, "%s failed (%s)", argv[0], how);
	}
	return 0;
}

static int systemd_runs(void)
{
	return access("/run/systemd/system", F_OK) == 0;
}

/* The reboot itself, cleanly: through systemd where it is PID 1, else
 * synced and straight (an init without systemd: a test guest). */
static int go_down(int kexec, char *why, size_t len)
{
	if (systemd_runs()) {
		const char *argv[] = { "systemctl", kexec ? "kexec" : "reboot", NULL };

		return run(argv, why, len);
	}
	sync();
	if (reboot(kexec ? LINUX_REBOOT_CMD_KEXEC : RB_AUTOBOOT))
		return whyf(why, len, "reboot(%s): %s", kexec ? "LINUX_REBOOT_CMD_KEXEC" :
			    "RB_AUTOBOOT", strerror(errno));
	return 0;
}

static int readable(const char *what, const char *path, char *why, size_t len)
{
	char *p = rooted(path);
	int bad = access(p, R_OK);

	free(p);
	return bad ? whyf(why, len, "%s %s: %s", what, path, strerror(errno)) : 0;
}

static int check_files(const struct arm *a, char *why, size_t len)
{
	if (readable("the kernel", a->kernel, why, len))
		return -1;
	if (a->initrd && readable("the initrd", a->initrd, why, len))
		return -1;
	return 0;
}

/* ---- kexec --------------------------------------------------------------
 *
 * contest loads every kernel itself, by kexec_file_load(2) (no kexec-tools:
 * its `kexec -l` uses the older kexec_load(2) unless told -s), then boots
 * it by `systemctl kexec`, which finds it loaded and loads nothing.  The
 * call needs CONFIG_KEXEC_FILE: in the kernel start runs on, which loads
 * the first kernel, and in every kernel of the campaign, which loads the
 * next.  A kernel's configuration tells, where it can be found. */

/* What a kernel configuration says of kexec. */
struct kexec_support {
	int file;	/* CONFIG_KEXEC_FILE=y: kexec_file_load(2) */
	int load;	/* CONFIG_KEXEC=y: kexec_load(2) */
	char where[256];	/* the configuration read, as the running system names it */
};

static void kconfig_parse(FILE *f, struct kexec_support *k)
{
	char *line = NULL;
	size_t cap = 0;

	while (getline(&line, &cap, f) > 0) {
		if (!strcmp(line, "CONFIG_KEXEC_FILE=y\n"))
			k->file = 1;
		else if (!strcmp(line, "CONFIG_KEXEC=y\n"))
			k->load = 1;
	}
	free(line);
}

/* The configuration at path (under the root prefix), gzip'ed (/proc/config.gz)
 * or not, into k: 0, or -1 when there is none to read. */
static int kconfig_read(const char *path, struct kexec_support *k)
{
	char *p = rooted(path), why[256];
	const char *argv[] = { "gzip", "-dc", p, NULL };
	int gz = strlen(path) > 3 && !strcmp(path + strlen(path) - 3, ".gz"), pfd[2], ret = -1;
	FILE *f = NULL;
	pid_t pid = -1;

	memset(k, 0, sizeof(*k));
	if (access(p, R_OK)) {
		free(p);
		return -1;
	}
	if (!gz) {
		f = fopen(p, "re");
	} else if (pipe2(pfd, O_CLOEXEC) == 0) {
		pid = proc_spawn((char *const *)argv, NULL, pfd[1], why, sizeof(why));
		close(pfd[1]);
		if (pid < 0 || !(f = fdopen(pfd[0], "re")))
			close(pfd[0]);
	}
	if (f) {
		kconfig_parse(f, k);
		fclose(f);
		ret = 0;
	}
	if (pid > 0) {
		int status;

		if (proc_wait(pid, &status, NULL) || !WIFEXITED(status) || WEXITSTATUS(status))
			ret = -1;
	}
	snprintf(k->where, sizeof(k->where), "%s", path);
	free(p);
	return ret;
}

/* The configuration of kernel release rel (NULL: not known), of the kernel
 * at kernel (NULL: the running one): 0, or -1 when none is found, the
 * places looked at in tried. */
static int kconfig_of(const char *rel, const char *kernel, struct kexec_support *k,
		      char *tried, size_t len)
{
	char *paths[4] = { NULL };
	size_t n = 0, o = 0;
	int ret = -1;

	if (rel) {
		paths[n++] = xasprintf("/boot/config-%s", rel);
		paths[n++] = xasprintf("/lib/modules/%s/config", rel);
	}
	if (!kernel) {
		paths[n++] = xstrdup("/proc/config.gz");
	} else if (!rel) {	/* DIR/vmlinuz-SUFFIX: DIR/config-SUFFIX */
		const char *base = strrchr(kernel, '/') + 1;

		if (!strncmp(base, "vmlinuz-", 8))
			paths[n++] = xasprintf("%.*sconfig-%s", (int)(base - kernel), kernel,
					       base + 8);
	}
	tried[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		if (ret && kconfig_read(paths[i], k) == 0)
			ret = 0;
		if (o < len)
			o += (size_t)snprintf(tried + o, len - o, "%s%s", i ? ", " : "", paths[i]);
		free(paths[i]);
	}
	return ret;
}

/* Whether a kernel can load the next one: the running kernel (kernel
 * NULL), which loads the first, or the kernel of label, release rel (NULL:
 * unknown) at kernel.  Returns 0 (for the running kernel with a message
 * saying how contest will load and boot the kernels), or -1 with the
 * reason in why. */
static int kexec_file_check(const char *label, const char *rel, const char *kernel,
			    char *why, size_t len)
{
	struct kexec_support k;
	char who[256], tag[128] = "", tried[1024];

	if (kernel) {
		snprintf(who, sizeof(who), "%s", rel ? rel : kernel);
		snprintf(tag, sizeof(tag), "kernel %s: ", label);
	} else {
		snprintf(who, sizeof(who), "the running kernel %s", rel);
	}
	if (kconfig_of(rel, kernel, &k, tried, sizeof(tried))) {
		info("kexec: %sno configuration of %s found (%s): whether it has "
		     "kexec_file_load(2) (CONFIG_KEXEC_FILE), which loads the %s kernel, %s "
		     "will tell", tag, who, tried[0] ? tried : "no place to look for it",
		     kernel ? "next" : "first", kernel ? "its first boot" : "the first reboot");
		return 0;
	}
	if (!k.file)
		return whyf(why, len, "%s has %s %s): contest loads the %s kernel by "
			    "kexec_file_load(2), which needs CONFIG_KEXEC_FILE=y; use --method "
			    "grub or sdboot", who, k.load ? "kexec_load(2) only (CONFIG_KEXEC=y, "
			    "not CONFIG_KEXEC_FILE, in" : "no kexec (neither CONFIG_KEXEC nor "
			    "CONFIG_KEXEC_FILE in", k.where, kernel ? "next" : "first");
	if (!kernel)
		info("kexec: %s has kexec_file_load(2) (CONFIG_KEXEC_FILE=y in %s): contest "
		     "loads each kernel by it, not by kexec-tools, and boots it by %s", who,
		     k.where, systemd_runs() ? "systemctl kexec" : "reboot(LINUX_REBOOT_CMD_KEXEC)");
	return 0;
}

/* The machine: kexec allowed, no lockdown, kexec_file_load(2) in the
 * running kernel. */
static int kexec_ready(const struct campaign_plan *p, char *why, size_t len)
{
	char *path = rooted("/proc/sys/kernel/kexec_load_disabled");
	char v[64] = "0", lock[256] = "", rel[128];
	int bad;

	(void)p;
	bad = read_small(path, v, sizeof(v)) == 0 && strcmp(v, "0");
	free(path);
	if (bad)
		return whyf(why, len, "kexec is disabled (kernel.kexec_load_disabled = %s, until "
			    "the next boot): use --method grub or sdboot", v);
	path = rooted("/sys/kernel/security/lockdown");
	if (read_small(path, lock, sizeof(lock)) == 0 && !strstr(lock, "[none]")) {
		free(path);
		return whyf(why, len, "the kernel is locked down (%s; Secure Boot?): "
			    "kexec_file_load wants a kernel signed by a trusted key; use "
			    "--method grub or sdboot", lock);
	}
	free(path);
	path = rooted("/proc/sys/kernel/osrelease");
	if (read_small(path, rel, sizeof(rel)))
		snprintf(rel, sizeof(rel), "(release unknown)");
	free(path);
	return kexec_file_check(NULL, rel, NULL, why, len);
}

/* A kernel: its files, and kexec_file_load(2) in it for the next boot. */
static int kexec_check(const struct campaign_plan *p, const struct arm *a, char *why,
		       size_t len)
{
	(void)p;
	if (check_files(a, why, len))
		return -1;
	return kexec_file_check(a->label, a->release, a->kernel, why, len);
}

static int kexec_boot(const struct boot_req *r, char *why, size_t len)
{
	const struct arm *a = &r->p->arms[r->p->boot[r->seq - 1].arm];
	char cmdline[4096];
	int kfd, ifd = -1;
	long rc;

	boot_kexec_cmdline(r, cmdline, sizeof(cmdline));
	if (root_is_test()) {
		char *what = xasprintf("kexec_file_load %s initrd=%s cmdline='%s'; then %s",
				       a->kernel, a->initrd ? a->initrd : "(none)", cmdline,
				       systemd_runs() ? "systemctl kexec" :
				       "reboot(LINUX_REBOOT_CMD_KEXEC)");
		int ret = tell(r, what, why, len);

		free(what);
		return ret;
	}
	kfd = open(a->kernel, O_RDONLY | O_CLOEXEC);
	if (kfd < 0)
		return whyf(why, len, "%s: %s", a->kernel, strerror(errno));
	if (a->initrd && (ifd = open(a->initrd, O_RDONLY | O_CLOEXEC)) < 0) {
		close(kfd);
		return whyf(why, len, "%s: %s", a->initrd, strerror(errno));
	}
	rc = syscall(SYS_kexec_file_load, kfd, ifd, strlen(cmdline) + 1, cmdline,
		     ifd < 0 ? KEXEC_FILE_NO_INITRAMFS : 0UL);
	close(kfd);
	if (ifd >= 0)
		close(ifd);
	if (rc)
		return whyf(why, len, "kexec_file_load %s: %s", a->kernel, strerror(errno));
	return go_down(1, why, len);
}

/* grub-reboot works only with GRUB_DEFAULT=saved and an environment block
 * grub can write at boot. */
static int grub_check(char *why, size_t len)
{
	char *conf = rooted("/etc/default/grub"), *env = rooted("/boot/grub/grubenv");
	char *line = NULL;
	size_t cap = 0;
	int saved = 0, ret = 0;
	FILE *f = fopen(conf, "re");

	while (f && getline(&line, &cap, f) > 0)
		if (!strncmp(line, "GRUB_DEFAULT=", 13))
			saved = !strncmp(line + 13, "saved", 5) || !strncmp(line + 13, "\"saved\"", 7);
	if (f)
		fclose(f);
	free(line);
	if (!saved)
		ret = whyf(why, len, "--method grub: %s does not say GRUB_DEFAULT=saved, without "
			   "which grub-reboot's entry is not booted (set it, run update-grub)",
			   "/etc/default/grub");
	else if (access(env, W_OK))
		ret = whyf(why, len, "--method grub: no grub environment block to write at "
			   "/boot/grub/grubenv: %s", strerror(errno));
	free(conf);
	free(env);
	return ret;
}

static int oneshot_check(const struct campaign_plan *p, const struct arm *a, char *why,
			 size_t len)
{
	const char *argv[4];
	char *find[] = { (char *)"sh", (char *)"-c", (char *)"command -v \"$0\"", NULL, NULL };
	char found[512];

	if (boot_oneshot_argv(p->method, a, argv))
		return whyf(why, len, "--method %s: --kernel %s names no boot entry (,entry=ID)",
			    p->method, a->label);
	find[3] = (char *)argv[0];
	if (!root_is_test() && proc_first_line(find, found, sizeof(found)))
		return whyf(why, len, "--method %s: no %s in PATH", p->method, argv[0]);
	if (!strcmp(p->method, "grub"))
		return grub_check(why, len);
	return 0;
}

static int oneshot_boot(const struct boot_req *r, char *why, size_t len)
{
	const struct arm *a = &r->p->arms[r->p->boot[r->seq - 1].arm];
	const char *argv[4];

	if (boot_oneshot_argv(r->p->method, a, argv))
		return whyf(why, len, "--kernel %s names no boot entry", a->label);
	if (root_is_test()) {
		char *what = xasprintf("%s %s%s%s; then %s", argv[0], argv[1], argv[2] ? " " : "",
				       argv[2] ? argv[2] : "", systemd_runs() ? "systemctl reboot" :
				       "reboot(RB_AUTOBOOT)");
		int ret = tell(r, what, why, len);

		free(what);
		return ret;
	}
	if (run(argv, why, len))
		return -1;
	return go_down(0, why, len);
}

static int script_check(const struct campaign_plan *p, const struct arm *a, char *why,
			size_t len)
{
	(void)p;
	(void)a;
	(void)why;
	(void)len;
	return 0;
}

/* script:CMD: sh -c 'CMD "$@"' with the arm's label and spec as $1 and $2, and
 * the boot's details in the environment; the command reboots. */
static int script_boot(const struct boot_req *r, char *why, size_t len)
{
	const struct arm *a = &r->p->arms[r->p->boot[r->seq - 1].arm];
	char cmdline[4096], seq[32], marker[128];
	char *cmd = xasprintf("%s \"$@\"", r->p->method + 7);
	const char *argv[] = { "sh", "-c", cmd, "sh", a->label, a->spec, NULL };
	int ret;

	boot_kexec_cmdline(r, cmdline, sizeof(cmdline));
	snprintf(seq, sizeof(seq), "%" PRIu64, r->seq);
	snprintf(marker, sizeof(marker), "contest.campaign=%s/%s", r->p->id, seq);
	setenv("CONTEST_CAMPAIGN", r->p->id, 1);
	setenv("CONTEST_CAMPAIGN_SEQ", seq, 1);
	setenv("CONTEST_CAMPAIGN_MARKER", marker, 1);
	setenv("CONTEST_CAMPAIGN_CMDLINE", cmdline, 1);
	setenv("CONTEST_CAMPAIGN_KERNEL", a->kernel, 1);
	setenv("CONTEST_CAMPAIGN_INITRD", a->initrd ? a->initrd : "", 1);
	setenv("CONTEST_CAMPAIGN_RELEASE", a->release ? a->release : "", 1);
	ret = run(argv, why, len);
	free(cmd);
	return ret;
}

static const struct boot_method methods[] = {
	{ "kexec", kexec_ready, kexec_check, kexec_boot },
	{ "grub", NULL, oneshot_check, oneshot_boot },
	{ "sdboot", NULL, oneshot_check, oneshot_boot },
	{ "script:", NULL, script_check, script_boot },
};

const struct boot_method *boot_method(const char *method)
{
	if (!strncmp(method, "script:", 7))
		return method[7] ? &methods[3] : NULL;
	for (size_t i = 0; i < 3; i++)
		if (!strcmp(method, methods[i].name))
			return &methods[i];
	return NULL;
}
