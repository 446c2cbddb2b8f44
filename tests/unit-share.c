/* SPDX-License-Identifier: GPL-2.0-or-later */
/* unit-share.c - a setting that processes running at once share
 * (share.h): the last to end restores the value the first found, whatever
 * the order they end in; a share left by a process that died is ended by
 * another process (the guardian) or kept by the next user.  The users are
 * child processes (record locks belong to a process); the setting is a
 * file in a scratch directory. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/fsutil.h"
#include "lib/share.h"
#include "tap.h"
#include "lib/util.h"

static char *lock, *setting;

struct user {
	pid_t pid;
	int go;		/* a byte to it: 'e' end the share, 'x' exit without */
};

/* A child that begins a share and waits for the word: its begin's result
 * (0 or -1) in *rc. */
static struct user user_begin(int *rc)
{
	int ready[2], go[2];
	struct user u;
	char c;

	if (pipe(ready) || pipe(go))
		abort();
	fflush(stdout);	/* or the child prints the parent's lines again */
	u.pid = fork();
	if (u.pid == 0) {
		char why[256];
		int fd = share_begin(lock, setting, "1", why, sizeof(why));

		c = fd >= 0 ? '0' : '1';
		if (fd < 0)
			printf("# %s\n", why);
		fflush(stdout);
		if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(9);
		_exit(c == 'e' ? share_end(fd, lock, setting, 1) + 1 : 8);
	}
	close(ready[1]);
	close(go[0]);
	*rc = read(ready[0], &c, 1) == 1 && c == '0' ? 0 : -1;
	close(ready[0]);
	u.go = go[1];
	return u;
}

/* Tell u how to finish (see struct user) and reap it: share_end's result
 * for 'e', 7 for 'x'. */
static int user_finish(struct user u, char how)
{
	int status = 0;

	if (write(u.go, &how, 1) != 1)
		abort();
	close(u.go);
	waitpid(u.pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) - 1 : -9;
}

static int setting_is(const char *want)
{
	char buf[16];

	return read_small(setting, buf, sizeof(buf)) == 0 && !strcmp(buf, want);
}

static int lock_holds(const char *want)
{
	char buf[16];

	if (!want)
		return access(lock, F_OK) && errno == ENOENT;
	return read_small(lock, buf, sizeof(buf)) == 0 && !strcmp(buf, want);
}

int main(void)
{
	const char *tmp = getenv("TMPDIR");
	char *dir = xasprintf("%s/unit-share-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	struct user a, b;
	int rc, rc2;
	char why[256];

	if (!mkdtemp(dir)) {
		printf("Bail out! cannot make a scratch directory\n");
		return 1;
	}
	lock = xasprintf("%s/lock", dir);
	setting = xasprintf("%s/setting", dir);
	if (replace_file(setting, "0", 1)) {
		printf("Bail out! cannot write %s\n", setting);
		return 1;
	}

	/* the first ends first */
	a = user_begin(&rc);
	ok(rc == 0 && setting_is("1"), "the first user sets it");
	ok(lock_holds("0"), "the lock file holds the value it found");
	b = user_begin(&rc);
	ok(rc == 0 && setting_is("1") && lock_holds("0"), "a second user keeps both");
	ok(user_finish(a, 'e') == 0 && setting_is("1"), "the first ends: not the last, it stays");
	ok(user_finish(b, 'e') == 1 && setting_is("0"), "the last ends: it restores the first's 0");
	ok(lock_holds(NULL), "and removes the lock file");

	/* a user dies (SIGKILL): another process ends its share, or gives
	 * up while another user holds it */
	a = user_begin(&rc);
	b = user_begin(&rc2);
	ok(rc == 0 && rc2 == 0, "two users again");
	ok(user_finish(a, 'x') == 7, "one dies without ending its share");
	ok(share_end(-1, lock, setting, 2) == 0 && setting_is("1"),
	   "the guardian's end gives up: another user holds it");
	ok(user_finish(b, 'x') == 7, "the other dies too");
	ok(share_end(-1, lock, setting, 1) == 1 && setting_is("0") && lock_holds(NULL),
	   "the guardian's end now restores 0 and removes the file");
	ok(share_end(-1, lock, setting, 1) == 0, "with no file, there is nothing to end");

	/* both died and nobody ended it: the next user keeps the value */
	a = user_begin(&rc);
	ok(rc == 0 && user_finish(a, 'x') == 7 && setting_is("1") && lock_holds("0"),
	   "a user dies and nobody ends its share: it stays 1, the file holds 0");
	b = user_begin(&rc);
	ok(rc == 0 && lock_holds("0"), "the next user keeps the 0 it finds in the file");
	ok(user_finish(b, 'e') == 1 && setting_is("0") && lock_holds(NULL),
	   "and restores it when it ends");

	/* a setting that cannot be read: the begin fails, leaving nothing */
	free(setting);
	setting = xasprintf("%s/missing", dir);
	rc = share_begin(lock, setting, "1", why, sizeof(why));
	ok(rc < 0 && strstr(why, setting), "a missing setting: the begin fails, naming it (%s)",
	   why);
	ok(lock_holds(NULL), "and leaves no lock file");

	remove_tree(dir);
	free(dir);
	free(lock);
	free(setting);
	return tap_done();
}
