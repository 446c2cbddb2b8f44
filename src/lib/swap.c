/* SPDX-License-Identifier: GPL-2.0-or-later */
/* swap.c - swap for mem_load: what it can free, and a zram device of contest's own.
 *
 * mem_load's point is paging: it references more memory than RAM holds, so
 * that reclaim and swap are in the measurement.  Without swap,
 * `--swap zram[:SIZE]` gives it some: a zram device made for the suite and
 * removed at its end.
 *
 * zram is RAM-backed: a page swapped to it is compressed and stays in RAM.
 * Paging to it frees memory only as far as the pages compress, and not at
 * all for incompressible ones, where a machine that counted swap as free
 * memory would meet the OOM killer.  So:
 *   - the device holds at most disksize of pages (default half of RAM) and
 *     may keep at most mem_limit = disksize / SWAP_ZRAM_RATIO of RAM: once
 *     there, writes to it fail and pages stay where they are, so zram never
 *     takes more than that, whatever the pages hold;
 *   - mem_load's pages are compressible as program memory is (about 3:1,
 *     see loads/mem.c), so they fill the device before its mem_limit;
 *   - swap_room(), mem_load's measure of what swap can hold (its size and
 *     the check that gives its memory back), counts each page swapped to
 *     zram as freeing only 1 - 1/SWAP_ZRAM_RATIO of a page, or what the
 *     device's pages so far save where that is less (its mem_used_total
 *     over orig_data_size), and no more pages than fit under mem_limit:
 *     with incompressible pages (another program's), the room falls to
 *     nothing as the device fills, and mem_load lets go before the OOM
 *     killer must act.
 *
 * The device is a new one from /sys/class/zram-control/hot_add, never one
 * that exists.  A marker file in the suite's scratch directory names it
 * (with the boot and the disk's sequence number), so that when contest is
 * killed with SIGKILL, the next contest's sweep of dead scratch removes it;
 * that sweep leaves alone a device that is not the one the marker names,
 * and trusts only a marker no other user can have written or placed (root's,
 * mode 0600, in root's run directory of mode 0700): the boot and sequence
 * number it holds are world-readable, and a forged one would name the
 * system's own zram swap. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "lib/fsutil.h"
#include "lib/proc.h"
#include "lib/swap.h"
#include "lib/util.h"

#define ZRAM_CONTROL "/sys/class/zram-control"
#define MARKER_NAME "zram-swap"
#define MiB (UINT64_C(1) << 20)
#define MIN_DISKSIZE (16 * MiB)

/* ---- the swap in use -------------------------------------------------------- */

/* One line of /proc/swaps: Filename Type Size Used Priority (KiB). */
struct swap_line {
	char path[256];
	uint64_t size, used;
	int prio;
};

/* Calls fn for each swap in use; returns how many there are. */
static size_t each_swap(void (*fn)(const struct swap_line *l, void *arg), void *arg)
{
	FILE *f = fopen("/proc/swaps", "re");
	char line[512];
	size_t n = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		struct swap_line l;
		unsigned long long size, used;
		char type[32];

		if (sscanf(line, "%255s %31s %llu %llu %d", l.path, type, &size, &used,
			   &l.prio) != 5)
			continue;	/* the heading */
		l.size = (uint64_t)size * 1024;
		l.used = (uint64_t)used * 1024;
		n++;
		if (fn)
			fn(&l, arg);
	}
	fclose(f);
	return n;
}

/* N of a /dev/zramN path, or -1. */
static int zram_id(const char *path)
{
	int id, end = 0;

	if (sscanf(path, "/dev/zram%d%n", &id, &end) == 1 && end && !path[end] && id >= 0)
		return id;
	return -1;
}

/* From /sys/block/zramN/mm_stat: orig_data_size compr_data_size
 * mem_used_total mem_limit ... (bytes). */
struct zram_mm {
	uint64_t orig, used, limit;
};

static int zram_mm(int id, struct zram_mm *m)
{
	char path[64], buf[256];
	unsigned long long orig, compr, u, l;

	snprintf(path, sizeof(path), "/sys/block/zram%d/mm_stat", id);
	if (read_small(path, buf, sizeof(buf)) ||
	    sscanf(buf, "%llu %llu %llu %llu", &orig, &compr, &u, &l) != 4)
		return -1;
	m->orig = orig;
	m->used = u;
	m->limit = l;
	return 0;
}

uint64_t swap_zram_room(uint64_t free, uint64_t left, double keep)
{
	double slots = (double)free;

	if (keep >= 1)
		return 0;
	if (left != UINT64_MAX && (double)left / keep < slots)
		slots = (double)left / keep;
	return (uint64_t)(slots * (1 - keep));
}

/* Below this much stored, a device's own ratio says little yet: the first
 * pages a fill pushes out are often other programs' and incompressible
 * (mem_used_total = orig_data_size at 30 MiB, 2026-12-04), and taken alone
 * they would make the room 0 just as the fill starts to swap.  The part not
 * stored yet counts at 1/SWAP_ZRAM_RATIO, which errs by at most
 * ZRAM_RATIO_MIN_DATA / SWAP_ZRAM_RATIO. */
#define ZRAM_RATIO_MIN_DATA (256 * MiB)

double swap_zram_keep(uint64_t orig, uint64_t used)
{
	double floor = 1.0 / SWAP_ZRAM_RATIO, keep;

	if (orig >= ZRAM_RATIO_MIN_DATA)
		keep = (double)used / (double)orig;
	else
		keep = ((double)used + floor * (double)(ZRAM_RATIO_MIN_DATA - orig)) /
		       (double)ZRAM_RATIO_MIN_DATA;
	return keep > floor ? keep : floor;
}

static void add_room(const struct swap_line *l, void *arg)
{
	uint64_t *room = arg, free = l->size > l->used ? l->size - l->used : 0;
	uint64_t left = UINT64_MAX;
	double keep = 1.0 / SWAP_ZRAM_RATIO;
	int id = zram_id(l->path);
	struct zram_mm m;

	if (id < 0) {
		*room += free;
		return;
	}
	if (zram_mm(id, &m) == 0) {
		if (m.limit)
			left = m.limit > m.used ? m.limit - m.used : 0;
		/* pages that compress worse than assumed (another
		 * program's, incompressible) count for what they do */
		keep = swap_zram_keep(m.orig, m.used);
	}
	*room += swap_zram_room(free, left, keep);
}

uint64_t swap_room(void)
{
	uint64_t room = 0;

	each_swap(add_room, &room);
	return room;
}

struct described {
	char *buf;
	size_t len;
};

static void add_description(const struct swap_line *l, void *arg)
{
	struct described *d = arg;
	size_t n = strlen(d->buf);
	char size[32], limit[32] = "none", alg[64] = "?", path[80], *p;
	struct zram_mm m;
	int id = zram_id(l->path);

	format_size(l->size, size, sizeof(size));
	if (id < 0) {
		snprintf(d->buf + n, d->len - n, "%s%s %s prio %d", n ? ", " : "", l->path, size,
			 l->prio);
		return;
	}
	snprintf(path, sizeof(path), "/sys/block/zram%d/comp_algorithm", id);
	if (read_small(path, alg, sizeof(alg)) == 0 && (p = strchr(alg, '['))) {
		memmove(alg, p + 1, strlen(p + 1) + 1);
		alg[strcspn(alg, "]")] = '\0';
	}
	if (zram_mm(id, &m) == 0 && m.limit)
		format_size(m.limit, limit, sizeof(limit));
	snprintf(d->buf + n, d->len - n, "%szram %s prio %d %s mem_limit %s", n ? ", " : "",
		 size, l->prio, alg, limit);
}

void swap_describe(char *buf, size_t len)
{
	struct described d = { buf, len };

	buf[0] = '\0';
	if (!each_swap(add_description, &d))
		snprintf(buf, len, "none");
}

/* ---- contest's zram device ---------------------------------------------------- */

int swap_parse(const char *arg, uint64_t *size)
{
	*size = 0;
	if (!strcmp(arg, "zram"))
		return 0;
	if (strncmp(arg, "zram:", 5) || parse_size(arg + 5, size) || *size < MIN_DISKSIZE)
		return -1;
	return 0;
}

int swap_zram_plan(struct zram *z, uint64_t size, char *why, size_t len)
{
	uint64_t total = meminfo_bytes("MemTotal"), ps = (uint64_t)sysconf(_SC_PAGESIZE);
	char have[512], a[32], b[32];

	memset(z, 0, sizeof(*z));
	z->id = -1;
	if (geteuid() != 0)
		return whyf(why, len, "--swap zram needs root: it makes a block device and "
			    "turns swap on");
	if (each_swap(NULL, NULL)) {
		swap_describe(have, sizeof(have));
		return whyf(why, len, "--swap zram is for a machine without swap, and this one "
			    "has some (%s): mem_load pages to it without --swap", have);
	}
	if (access(ZRAM_CONTROL "/hot_add", R_OK))
		return whyf(why, len, "--swap zram: zram is not available here (no "
			    ZRAM_CONTROL "/hot_add: a kernel with CONFIG_ZRAM, and "
			    "'modprobe zram')");
	if (!size)
		size = total / 2;
	if (!total || size > total) {
		format_size(size, a, sizeof(a));
		format_size(total, b, sizeof(b));
		return whyf(why, len, "--swap zram:%s is more than RAM (%s): a zram device "
			    "lives in RAM", a, b);
	}
	z->disksize = size / ps * ps;
	z->mem_limit = z->disksize / SWAP_ZRAM_RATIO;
	return 0;
}

static int write_file(const char *path, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Write a value to a sysfs file: 0, or -1 with errno. */
static int write_file(const char *path, const char *fmt, ...)
{
	va_list ap;
	char buf[64];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return write_small(path, buf);
}

/* What names a device: the boot and the disk's sequence number (5.15 on;
 * "-" before), and the uuid in its swap signature. */
struct identity {
	char boot[64];
	char seq[32];
	unsigned char uuid[16];
};

static void identity_of(int id, struct identity *d)
{
	char path[64];

	if (read_small("/proc/sys/kernel/random/boot_id", d->boot, sizeof(d->boot)) ||
	    !d->boot[0] || strchr(d->boot, ' '))
		snprintf(d->boot, sizeof(d->boot), "-");
	snprintf(path, sizeof(path), "/sys/block/zram%d/diskseq", id);
	if (read_small(path, d->seq, sizeof(d->seq)) || !d->seq[0] || strchr(d->seq, ' '))
		snprintf(d->seq, sizeof(d->seq), "-");
}

/* "PID BOOT N SEQ UUID", as tmp then rename. */
static int write_marker(const struct zram *z, const struct identity *d)
{
	char *tmp = xasprintf("%s.tmp", z->marker), line[256];
	int n = snprintf(line, sizeof(line), "%d %s %d %s ", (int)getpid(), d->boot, z->id,
			 d->seq);
	int fd, ret = -1;

	for (size_t i = 0; i < sizeof(d->uuid); i++)
		n += snprintf(line + n, sizeof(line) - (size_t)n, "%02x", d->uuid[i]);
	line[n++] = '\n';
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd >= 0) {
		ret = write_all(fd, line, (size_t)n) || fsync(fd) ? -1 : 0;
		if (close(fd))
			ret = -1;
		if (ret == 0)
			ret = rename(tmp, z->marker);
		if (ret)
			unlink(tmp);
	}
	free(tmp);
	return ret;
}

/* /dev/zramN, when it is the block device /sys/block/zramN/dev names. */
static int dev_path(int id, char *path, size_t len)
{
	char sys[64], num[32];
	unsigned maj, min;
	struct stat st;

	snprintf(sys, sizeof(sys), "/sys/block/zram%d/dev", id);
	snprintf(path, len, "/dev/zram%d", id);
	if (read_small(sys, num, sizeof(num)) || sscanf(num, "%u:%u", &maj, &min) != 2 ||
	    stat(path, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != makedev(maj, min)) {
		errno = ENODEV;
		return -1;
	}
	return 0;
}

/* The swap signature mkswap writes (the kernel's union swap_header, version
 * 1, "SWAPSPACE2" at the end of the first page): it makes the whole device
 * swap, but the first page. */
struct swap_info_v1 {
	char bootbits[1024];
	uint32_t version;
	uint32_t last_page;
	uint32_t nr_badpages;
	unsigned char uuid[16];
	char volume[16];
};

static int write_signature(const char *path, uint64_t disksize, const unsigned char *uuid)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	char *page = xcalloc(1, ps);
	struct swap_info_v1 h;
	int fd, ret = -1, err;

	memset(&h, 0, sizeof(h));
	h.version = 1;
	h.last_page = (uint32_t)(disksize / ps - 1);
	memcpy(h.uuid, uuid, sizeof(h.uuid));
	snprintf(h.volume, sizeof(h.volume), "contest");
	memcpy(page, &h, sizeof(h));
	memcpy(page + ps - 10, "SWAPSPACE2", 10);
	fd = open(path, O_WRONLY | O_EXCL | O_CLOEXEC);
	if (fd >= 0) {
		ret = pwrite(fd, page, ps, 0) == (ssize_t)ps && fsync(fd) == 0 ? 0 : -1;
		err = errno;
		close(fd);
		errno = err;
	}
	free(page);
	return ret;
}

/* The stop signals blocked while a device is made or removed: swapoff
 * gives up when one arrives, and a half-made device must not be left. */
static void block_stops(sigset_t *old)
{
	sigset_t stops;

	sigemptyset(&stops);
	sigaddset(&stops, SIGINT);
	sigaddset(&stops, SIGTERM);
	sigaddset(&stops, SIGHUP);
	sigprocmask(SIG_BLOCK, &stops, old);
}

/* swapoff (when on), reset and hot_remove device id; returns 0, or -1 with the
 * reason in why. */
static int remove_device(int id, int on, char *why, size_t len)
{
	char path[64], sys[64];

	/* ENOMEM: RAM (or a memory cgroup) cannot take back the pages of a
	 * process still swapped out there, which may end or shrink soon */
	for (int tries = 0; on && dev_path(id, path, sizeof(path)) == 0 && swapoff(path) &&
	     errno != EINVAL; tries++) {
		if ((errno != ENOMEM && errno != EINTR) || tries == 100)
			return whyf(why, len, "swapoff %s: %s (by hand: swapoff %s; echo 1 > "
				    "/sys/block/zram%d/reset; echo %d > " ZRAM_CONTROL
				    "/hot_remove)", path, strerror(errno), path, id, id);
		sleep_ns(100 * 1000 * 1000);
	}
	snprintf(sys, sizeof(sys), "/sys/block/zram%d/reset", id);
	/* a reader of the new disk (udev, blkid) may hold it open for a moment */
	for (int tries = 0; write_file(sys, "1") && errno != ENOENT; tries++) {
		if (errno != EBUSY || tries == 50)
			return whyf(why, len, "reset zram%d: %s", id, strerror(errno));
		sleep_ns(100 * 1000 * 1000);
	}
	if (write_file(ZRAM_CONTROL "/hot_remove", "%d", id) && errno != ENODEV)
		return whyf(why, len, "hot_remove zram%d: %s", id, strerror(errno));
	return 0;
}

int swap_zram_remove(struct zram *z, char *why, size_t len)
{
	sigset_t old;
	int ret;

	if (z->id < 0)
		return 0;
	block_stops(&old);
	ret = remove_device(z->id, z->on, why, len);
	if (ret == 0) {
		if (z->marker)
			unlink(z->marker);
		z->id = -1;
		z->on = 0;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (ret == 0) {
		free(z->marker);
		z->marker = NULL;
	}
	return ret;
}

static int make(struct zram *z, const char *dir, char *why, size_t len)
{
	char buf[32], sys[64], path[64];
	struct identity d;
	uint64_t id;

	if (read_small(ZRAM_CONTROL "/hot_add", buf, sizeof(buf)) ||
	    parse_u64(buf, 0, 1 << 20, &id))
		return whyf(why, len, "cannot add a zram device (" ZRAM_CONTROL "/hot_add): %s",
			    errno ? strerror(errno) : buf);
	z->id = (int)id;
	memset(&d, 0, sizeof(d));
	identity_of(z->id, &d);
	if (getrandom(d.uuid, sizeof(d.uuid), 0) != (ssize_t)sizeof(d.uuid))
		return whyf(why, len, "getrandom: %s", strerror(errno));
	d.uuid[6] = (unsigned char)((d.uuid[6] & 0x0f) | 0x40);	/* a version 4 uuid */
	d.uuid[8] = (unsigned char)((d.uuid[8] & 0x3f) | 0x80);
	z->marker = xasprintf("%s/" MARKER_NAME, dir);
	if (write_marker(z, &d))
		return whyf(why, len, "cannot write %s: %s", z->marker, strerror(errno));
	snprintf(sys, sizeof(sys), "/sys/block/zram%d/disksize", z->id);
	if (write_file(sys, "%llu", (unsigned long long)z->disksize))
		return whyf(why, len, "cannot set %s: %s", sys, strerror(errno));
	snprintf(sys, sizeof(sys), "/sys/block/zram%d/mem_limit", z->id);
	if (write_file(sys, "%llu", (unsigned long long)z->mem_limit))
		return whyf(why, len, "cannot set %s: %s", sys, strerror(errno));
	if (dev_path(z->id, path, sizeof(path)))
		return whyf(why, len, "no block device %s for zram%d (is /dev a devtmpfs?)",
			    path, z->id);
	if (write_signature(path, z->disksize, d.uuid))
		return whyf(why, len, "cannot write the swap signature to %s: %s", path,
			    strerror(errno));
	if (swapon(path, SWAP_FLAG_PREFER |
		   ((SWAP_PRIORITY << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK)))
		return whyf(why, len, "swapon %s: %s", path, strerror(errno));
	z->on = 1;
	return 0;
}

int swap_zram_make(struct zram *z, const char *dir, char *why, size_t len)
{
	char undo[256];
	sigset_t old;
	int ret;

	block_stops(&old);
	errno = 0;
	ret = make(z, dir, why, len);
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (ret && z->id >= 0 && swap_zram_remove(z, undo, sizeof(undo)))
		msg("%s; and removing it again failed: %s", why, undo);
	return ret;
}

/* ---- the sweep --------------------------------------------------------------- */

/* The uuid in the swap signature of device path, as hex, or "". */
static void signature_uuid(const char *path, char *hex, size_t len)
{
	size_t ps = (size_t)sysconf(_SC_PAGESIZE);
	char *page = xcalloc(1, ps);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct swap_info_v1 h;

	hex[0] = '\0';
	if (fd >= 0 && pread(fd, page, ps, 0) == (ssize_t)ps &&
	    !memcmp(page + ps - 10, "SWAPSPACE2", 10)) {
		memcpy(&h, page, sizeof(h));
		for (size_t i = 0, n = 0; i < sizeof(h.uuid) && n + 3 <= len; i++)
			n += (size_t)snprintf(hex + n, len - n, "%02x", h.uuid[i]);
	}
	if (fd >= 0)
		close(fd);
	free(page);
}

/* The marker in the directory open as dfd, read into line (len bytes),
 * when contest wrote it: a regular file of root's, mode 0600, one link, in
 * a directory of root's that no other user can enter (contest's run
 * directory, mode 0700), so that no other user can have written or placed
 * it.  Returns 0, 1 when there is none, or -1 when there is one but it is
 * ignored (a message says why). */
static int read_marker(int dfd, const char *dir, int pid, char *line, size_t len)
{
	struct stat ds, ms;
	ssize_t n = -1;
	int fd = openat(dfd, MARKER_NAME, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0 && errno == ENOENT)
		return 1;	/* no device made, or none left */
	if (fd >= 0 && fstat(dfd, &ds) == 0 && fstat(fd, &ms) == 0 && S_ISREG(ms.st_mode) &&
	    ds.st_uid == 0 && ms.st_uid == 0 && !(ds.st_mode & 077) && !(ms.st_mode & 077) &&
	    ms.st_nlink == 1)
		n = pread(fd, line, len - 1, 0);
	if (fd >= 0)
		close(fd);
	if (n < 0) {
		msg("%s/" MARKER_NAME ", left by pid %d, is not a marker contest wrote (root's, "
		    "mode 600, in a directory of root's of mode 700): ignored, no zram device "
		    "removed", dir, pid);
		return -1;
	}
	line[n] = '\0';
	return 0;
}

int swap_sweep(int dfd, const char *dir, int pid)
{
	char line[256], why[256];
	char boot[64], seq[32], uuid[40], hex[40], path[64];
	struct identity now;
	int mpid, id, ret = 0;
	sigset_t old;

	if (read_marker(dfd, dir, pid, line, sizeof(line)))
		return 0;
	if (sscanf(line, "%d %63s %d %31s %39s", &mpid, boot, &id, seq, uuid) != 5 || id < 0) {
		msg("%s/" MARKER_NAME ", left by contest pid %d, is damaged: a zram device it "
		    "made may be left (see swapon --show)", dir, pid);
		return 0;
	}
	memset(&now, 0, sizeof(now));
	identity_of(id, &now);
	snprintf(path, sizeof(path), "/sys/block/zram%d", id);
	if (strcmp(boot, now.boot) || access(path, F_OK))
		return 0;	/* gone with the boot it was made in, or removed */
	dev_path(id, path, sizeof(path));
	signature_uuid(path, hex, sizeof(hex));
	if (!(strcmp(seq, "-") && !strcmp(seq, now.seq)) && strcmp(hex, uuid)) {
		info("zram%d is not the device contest pid %d made: left alone", id, pid);
		return 0;
	}
	block_stops(&old);
	ret = remove_device(id, 1, why, sizeof(why));
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (ret)
		msg("cannot remove zram%d, made by contest pid %d, which is gone: %s", id, pid,
		    why);
	else
		info("removed the zram swap device zram%d, left by contest pid %d, which is gone",
		     id, pid);
	return ret;
}

/* ---- draining the swap between runs ------------------------------------------ */

uint64_t swap_reserve(uint64_t total)
{
	return total / 10 > 1024 * MiB ? total / 10 : 1024 * MiB;
}

int swap_drain_fits(uint64_t used, uint64_t avail, uint64_t total)
{
	return avail >= used && avail - used >= swap_reserve(total);
}

#define DRAIN_MAX 32	/* devices looked at */

struct in_use {
	struct swap_line l[DRAIN_MAX];
	size_t n;
};

static void add_in_use(const struct swap_line *l, void *arg)
{
	struct in_use *u = arg;

	if (u->n < DRAIN_MAX)
		u->l[u->n++] = *l;
}

/* Device l off and on again; returns 0, or -1 with the reason in why.
 * ours: contest's own device, which its marker has the next contest remove
 * should contest die half-way; one of the machine's own is handed to the
 * guardian meanwhile, which turns it on again after a SIGKILL. */
static int drain_one(const struct swap_line *l, int ours, char *why, size_t len)
{
	int prio = ours ? SWAP_PRIORITY : l->prio, off = 0, ret = 0;
	int flags = prio >= 0 ? SWAP_FLAG_PREFER |
				((prio << SWAP_FLAG_PRIO_SHIFT) & SWAP_FLAG_PRIO_MASK) : 0;
	char *undo = NULL;

	/* /proc/swaps escapes a space or a newline in a path as \040 */
	if (strpbrk(l->path, "\\'"))
		return whyf(why, len, "its path has a character the guardian cannot quote");
	if (!ours) {
		undo = prio >= 0 ? xasprintf("swapon -p %d '%s'", prio, l->path)
				 : xasprintf("swapon '%s'", l->path);
		proc_guard_run(undo, 1);
	}
	if (swapoff(l->path))	/* it failed: the device is still on */
		ret = whyf(why, len, "swapoff: %s", strerror(errno));
	else if (swapon(l->path, flags))
		ret = off = whyf(why, len, "it is OFF: swapon again failed: %s%s",
				 strerror(errno), ours ? "" : " (the guardian tries again when "
				 "contest ends)");
	if (undo && !off)
		proc_guard_run(undo, 0);
	free(undo);
	return ret;
}

/* printf to the end of the string in buf. */
static void append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

int swap_drain(int own_id, char *buf, size_t len)
{
	struct in_use u = { .n = 0 };
	uint64_t total = mem_total_bytes();
	int ret = 0;

	buf[0] = '\0';
	each_swap(add_in_use, &u);
	for (size_t i = 0; i < u.n; i++) {
		const struct swap_line *l = &u.l[i];
		int ours = own_id >= 0 && zram_id(l->path) == own_id;
		uint64_t avail = mem_available_bytes();	/* less after each drained */
		char size[32], a[32], r[32], why[256];

		if (!l->used)
			continue;
		format_size(l->used, size, sizeof(size));
		append(buf, len, "%s%s %s ", buf[0] ? "; " : "", ours ? "zram (--swap)" : l->path,
		       size);
		if (geteuid()) {
			snprintf(why, sizeof(why), "swapoff needs root");
		} else if (!swap_drain_fits(l->used, avail, total)) {
			format_size(avail, a, sizeof(a));
			format_size(swap_reserve(total), r, sizeof(r));
			snprintf(why, sizeof(why), "MemAvailable %s cannot take it and keep a "
				 "reserve of %s", a, r);
		} else if (drain_one(l, ours, why, sizeof(why)) == 0) {
			append(buf, len, "drained");
			continue;
		}
		append(buf, len, "not drained: %s", why);
		ret = -1;
	}
	if (!buf[0])
		snprintf(buf, len, "none");
	return ret;
}
