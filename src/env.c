/* env.c - the environment record: what a session was measured on. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "env.h"
#include "fsutil.h"
#include "util.h"

unsigned env_ncpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}

static void cpu_model(char *buf, size_t len)
{
	FILE *f = fopen("/proc/cpuinfo", "re");
	char line[512];

	snprintf(buf, len, "unknown");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon || strncmp(line, "model name", 10))
			continue;
		colon++;
		colon += strspn(colon, " \t");
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s", colon);
		break;
	}
	fclose(f);
}

/* The command line as a user would type it again. */
static char *quoted_argv(int argc, char **argv)
{
	size_t cap = 1;
	char *out, *o;

	for (int i = 0; i < argc; i++)
		cap += 4 * strlen(argv[i]) + 3;
	o = out = xmalloc(cap);
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		int plain = *a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
					 "0123456789-_./=:,+@%") == strlen(a);

		if (i)
			*o++ = ' ';
		if (plain) {
			o = stpcpy(o, a);
			continue;
		}
		*o++ = '\'';
		for (; *a; a++) {
			if (*a == '\'')
				o = stpcpy(o, "'\\''");
			else
				*o++ = *a;
		}
		*o++ = '\'';
	}
	*o = '\0';
	return out;
}

static void set_file(struct record *r, const char *key, const char *path)
{
	char buf[512];

	record_set(r, key, read_small(path, buf, sizeof(buf)) ? "absent" : buf);
}

void env_capture(struct record *r, int argc, char **argv)
{
	struct utsname u;
	char buf[512];
	char *args = quoted_argv(argc, argv);

	record_set(r, "contest", PACKAGE_VERSION);
	record_set(r, "argv", args);
	free(args);
	if (uname(&u) == 0) {
		record_set(r, "kernel", u.release);
		record_set(r, "kernel_version", u.version);
		record_set(r, "machine", u.machine);
		record_set(r, "hostname", u.nodename);
	}
	cpu_model(buf, sizeof(buf));
	record_set(r, "cpu_model", buf);
	record_setf(r, "ncpus", "%u", env_ncpus());
	record_setf(r, "mem_total", "%llu", (unsigned long long)meminfo_bytes("MemTotal"));
	record_setf(r, "swap_total", "%llu", (unsigned long long)meminfo_bytes("SwapTotal"));
	set_file(r, "autogroup", "/proc/sys/kernel/sched_autogroup_enabled");
	set_file(r, "sched_ext", "/sys/kernel/sched_ext/state");
	record_setf(r, "root", "%d", geteuid() == 0);
}
