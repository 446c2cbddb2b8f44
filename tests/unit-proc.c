/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit-proc.c - the guardian: lines longer than its read buffer are read
 * whole, not taken for contest's end. */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/proc.h"
#include "tap.h"
#include "lib/util.h"

static int exists(const char *dir, const char *name)
{
	char *path = xasprintf("%s/%s", dir, name);
	struct stat st;
	int ret = stat(path, &st) == 0;

	free(path);
	return ret;
}

/* Three undo commands, the middle one 8 KiB long (twice the buffer the
 * guardian had): after a clean stop all three have run.  A guardian that
 * took its full buffer for EOF stopped reading there, ran the first undo
 * while contest went on and never learnt of the third. */
static void test_long_line(const char *dir)
{
	char *one = xasprintf("touch %s/one", dir), *three = xasprintf("touch %s/three", dir);
	size_t pad = 8192, at;
	char *two = xmalloc(strlen(dir) + pad + 64);
	pid_t child;
	int status = 0;

	ok(proc_guard_start() == 0, "the guardian starts");
	child = proc_fork(0);
	if (child == 0) {
		pause();
		_exit(0);
	}
	ok(child > 0, "a child in a group of its own, told to the guardian");
	sprintf(two, "touch %s/two; : ", dir);
	at = strlen(two);
	memset(two + at, 'x', pad);
	two[at + pad] = '\0';
	proc_guard_run(one, 1);
	proc_guard_run(two, 1);
	proc_guard_run(three, 1);
	proc_guard_stop();
	ok(exists(dir, "one"), "the first undo ran");
	ok(exists(dir, "two"), "the 8 KiB undo ran");
	ok(exists(dir, "three"), "the undo after it ran: the guardian read on");
	ok(waitpid(child, &status, 0) == child && WIFSIGNALED(status) &&
	   WTERMSIG(status) == SIGKILL, "the child's group was killed at the stop");
	free(one);
	free(two);
	free(three);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/unit-proc-XXXXXX", tmp && *tmp ? tmp : "/tmp");

	signal(SIGPIPE, SIG_IGN);	/* a guardian gone early is a failed test, not a death */
	if (!mkdtemp(dir)) {
		printf("Bail out! cannot make a scratch directory\n");
		return 1;
	}
	test_long_line(dir);
	for (const char *const *n = (const char *const[]){ "one", "two", "three", NULL }; *n; n++) {
		char *path = xasprintf("%s/%s", dir, *n);

		unlink(path);
		free(path);
	}
	rmdir(dir);
	free(dir);
	return tap_done();
}
