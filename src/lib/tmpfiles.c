/* SPDX-License-Identifier: GPL-2.0-or-later */
/* tmpfiles.c - whether a directory survives the next boot: in memory, under
 * /tmp, or covered by a systemd-tmpfiles rule (tmpfiles.d(5)) that removes
 * it at boot or deletes what ages there. */
#include "config.h"

#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/fsutil.h"
#include "lib/tmpfiles.h"
#include "lib/util.h"

/* Where tmpfiles.d lives, most important first: a file of a name in one
 * hides the files of that name in those after it (tmpfiles.d(5)). */
static const char *const conf_dirs[] = {
	"/etc/tmpfiles.d", "/run/tmpfiles.d", "/usr/local/lib/tmpfiles.d",
	"/usr/lib/tmpfiles.d", "/lib/tmpfiles.d",
};

/* Whether rule path pat (a glob for some types) names dir or one of its
 * parents. */
static int covers(const char *pat, const char *dir)
{
	char *a = xstrdup(dir), *slash;
	int hit = 0;

	while (!hit && a[0]) {
		hit = fnmatch(pat, a, FNM_PATHNAME) == 0;
		slash = strrchr(a, '/');
		if (!slash)
			break;
		*slash = '\0';
	}
	free(a);
	return hit;
}

/* One line of a tmpfiles.d file: 1 and why when it takes dir's contents
 * away, at boot or by age. */
static int rule_loses(const char *line, const char *dir, const char *file, char *why,
		      size_t len)
{
	char type[16], path[4096], mode[64] = "-", user[64] = "-", group[64] = "-",
	     age[64] = "-";
	int n = sscanf(line, "%15s %4095s %63s %63s %63s %63s", type, path, mode, user, group,
		       age);
	const char *copy = line + strspn(line, " \t");
	int at_boot, aged;

	if (n < 2 || type[0] == '#' || strchr(path, '%') || !covers(path, dir))
		return 0;
	/* D, Q: contents removed by --remove, which the boot runs; R, r:
	 * the path itself.  d, D, e, q, Q, v with an age: what is older. */
	at_boot = strchr("DQRr", type[0]) != NULL;
	aged = strchr("dDeqQv", type[0]) && strcmp(age, "-") && strcmp(age, "0");
	if (!at_boot && !aged)
		return 0;
	copy = xasprintf("%.*s", (int)strcspn(copy, "\n"), copy);
	if (at_boot)
		snprintf(why, len, "the next boot empties it ('%s' in %s)", copy, file);
	else
		snprintf(why, len, "systemd-tmpfiles deletes what has not been used for %s there "
			 "('%s' in %s)", age, copy, file);
	free((char *)copy);
	return 1;
}

/* The rules of one file: 1 and why at the first that loses dir. */
static int file_loses(const char *file, const char *dir, char *why, size_t len)
{
	FILE *f = fopen(file, "re");
	char line[8192];
	int hit = 0;

	if (!f)
		return 0;
	while (!hit && fgets(line, sizeof(line), f))
		hit = rule_loses(line, dir, file, why, len);
	fclose(f);
	return hit;
}

static int seen_name(char **names, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return 1;
	return 0;
}

int dir_lost_at_boot(const char *dir, const char *root, char *why, size_t len)
{
	char **names = NULL;
	size_t n = 0;
	int hit = 0;

	if (fs_in_memory(dir)) {
		snprintf(why, len, "it is in memory (tmpfs): the reboot empties it");
		return 1;
	}
	for (size_t i = 0; !hit && i < ARRAY_SIZE(conf_dirs); i++) {
		char *d = xasprintf("%s%s", root ? root : "", conf_dirs[i]);
		DIR *dp = opendir(d);
		struct dirent *de;

		while (dp && !hit && (de = readdir(dp))) {
			size_t l = strlen(de->d_name);
			char *file;

			if (l < 6 || strcmp(de->d_name + l - 5, ".conf") ||
			    seen_name(names, n, de->d_name))
				continue;
			names = xrealloc(names, (n + 1) * sizeof(*names));
			names[n++] = xstrdup(de->d_name);
			file = xasprintf("%s/%s", d, de->d_name);
			hit = file_loses(file, dir, why, len);	/* /dev/null: masked */
			free(file);
		}
		if (dp)
			closedir(dp);
		free(d);
	}
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	if (!hit && covers("/tmp", dir)) {
		snprintf(why, len, "it is under /tmp, which boots commonly empty");
		hit = 1;
	}
	return hit;
}
