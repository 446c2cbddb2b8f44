#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Bad command lines: a clear message on stderr, exit status 2, nothing run.
. "$TOP_SRCDIR/tests/lib.sh"

# expect_usage DESCRIPTION PATTERN ARGS...: exit 2, PATTERN in stderr, no stdout
expect_usage() {
	desc=$1 pattern=$2; shift 2
	"$CONTEST" "$@" >out 2>err
	rc=$?
	ok_eq "$desc: exit status" "$rc" 2
	ok "$desc: message says '$pattern'" grep -q -- "$pattern" err
	ok "$desc: nothing on stdout" test ! -s out
}

expect_usage "unknown option" "unknown option '--bogus'" --bogus
expect_usage "unknown short option" "unknown option '-z'" -z
expect_usage "missing value" "needs a value" -n
expect_usage "zero runs" "from 1 to 1000" -n 0
expect_usage "negative runs" "from 1 to 1000" -n -2
expect_usage "runs with junk" "from 1 to 1000" -n 3x
expect_usage "huge runs" "from 1 to 1000" -n 18446744073709551617
expect_usage "bad size" "wants a size" --io-size lots
expect_usage "bad seconds" "seconds" --lead-time -1
expect_usage "unknown run type" "unknown run type 'foo_load'" --quick foo_load
expect_usage "empty label" "bad label" -k ""
expect_usage "label with a space" "bad label" -k "my kernel"
expect_usage "label with a newline" "bad label" -k "a
b"
expect_usage "over-long label" "bad label" -k "$(printf '%070d' 0)"
expect_usage "run option to report" "does not apply to the report command" report --quick
expect_usage "report option to run" "does not apply to the run command" --baseline x
expect_usage "list with arguments" "takes no arguments" list extra
expect_usage "load without a name" "one load name" load
expect_usage "load of an unknown name" "unknown load" load nosuch_load
expect_usage "a mistyped command" "no command 'reprot'; did you mean 'report'?" reprot
expect_usage "a mistyped command after options" "no command 'lsit'; did you mean 'list'?" \
	--quick lsit
expect_usage "a mistyped run type" "unknown run type 'noloda'; did you mean 'noload'?" noloda
expect_usage "a mistyped load" "unknown load 'io_laod'; did you mean 'io_load'?" load io_laod
expect_usage "a load named without _load" "unknown load 'mem'; did you mean 'mem_load'?" load mem
expect_usage "options before the command" \
	"option '-d' is given before the command 'report': write 'contest report' first" \
	-d somewhere report
expect_usage "an option with = before the command" "before the command 'plot'" --alpha=0.1 plot
expect_usage "an unknown run type lists the run types" "(known: noload, cacherun," nosuch
ok "and no test load among them" sh -c "! grep -q spin_load err"
expect_usage "--scale above what the builtin generator makes" "from 1 to 10000" --scale 10001
expect_usage "compare: an unknown --vary key" "--vary wants KEY=V1,V2" compare --vary colour=a,b
expect_usage "compare: a --vary value out of range" "takes 0 and 1" compare --vary autogroup=0,2 \
	--load-session
expect_usage "compare: a --configs file that is not there" "cannot read no-such.cfg" \
	compare --configs no-such.cfg

# ---- a slip of the keyboard in an option: the nearest of the command's own
expect_usage "a mistyped option" "unknown option '--quikc'; did you mean '--quick'?" --quikc
expect_usage "a mistyped option of run" "unknown option '--quikc'; did you mean '--quick'?" \
	run --quikc
expect_usage "a mistyped option with its value" \
	"unknown option '--jbos=4'; did you mean '--jobs'?" run --jbos=4 noload
expect_usage "a mistyped option of report" "unknown option '--statz'; did you mean '--stats'?" \
	report --statz
expect_usage "of plot" "unknown option '--ouptut'; did you mean '--output'?" plot --ouptut x.svg
expect_usage "of compare" "unknown option '--vray'; did you mean '--vary'?" compare --vray a=1,2
expect_usage "of campaign" "unknown option '--kernle'; did you mean '--kernel'?" \
	campaign plan --kernle a=1
expect_usage "of load" "unknown option '--tiem'; did you mean '--time'?" load --tiem 1 noload
expect_usage "of list" "unknown option '--cuont'; did you mean '--count'?" list --cuont
expect_usage "of env" "unknown option '--work-dri'; did you mean '--work-dir'?" env --work-dri w
expect_usage "another command's option, mistyped: no suggestion" "unknown option '--quikc'$" \
	report --quikc
expect_usage "nothing near: no suggestion" "unknown option '--frobnicate'$" --frobnicate

# ---- a work directory that is the system's, not contest's own: refused,
# whatever the command that makes its scratch there
for c in "--dry-run" "run --dry-run" "load process_load -t 0.1" \
	 "compare --dry-run --vary load-nice=0,5" \
	 "campaign plan --kernel a=/no/such/vmlinuz --kernel b=/no/such/vmlinuz"; do
	expect_usage "$c: --work-dir /" \
		"refusing the work directory /: it is the root directory; contest wants a directory of its own" \
		$c --work-dir / noload
done
ok "and says what contest keeps there and what to give instead" grep -q \
	"its scratch (run-PID-XXXXXX), its lock (contest.lock) and a failed build's log.*give --work-dir a directory deeper down (contest makes it if need be), such as /var/tmp/contest-work" err
expect_usage "a system directory" "refusing the work directory /usr: it is right under the root directory" \
	--dry-run --work-dir /usr noload
expect_usage "one written with a slash" \
	"refusing the work directory /proc/: it is /proc, right under the root directory" \
	--dry-run --work-dir /proc/ noload
expect_usage "a new one right under / (the next run would find it there)" \
	"refusing the work directory /contest-t1001-none: it is right under the root directory" \
	--dry-run --work-dir /contest-t1001-none noload
ln -s / to-root
expect_usage "a symlink to /" "refusing the work directory to-root/: it is the root directory" \
	--dry-run --work-dir to-root/ noload
rm to-root
if [ -d /dev/shm ] && [ "$(stat -c %d /dev/shm)" != "$(stat -c %d /dev)" ]; then
	expect_usage "a mount point" \
		"refusing the work directory /dev/shm: it is a mount point (the root of a file system" \
		--dry-run --work-dir /dev/shm noload
else
	for i in 1 2 3; do skip "/dev/shm is no mount point here"; done
fi
mkdir bound
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null &&
	unshare -m sh -c 'mount --bind bound bound' 2>/dev/null; then
	unshare -m sh -c 'mount --bind bound bound && exec "$0" --dry-run --work-dir bound noload' \
		"$CONTEST" >out 2>err
	ok_eq "a bind mount of a directory onto itself: exit status" "$?" 2
	ok "it is a mount point too" grep -q \
		"refusing the work directory bound: it is $(pwd -P)/bound, a mount point" err
else
	for i in 1 2; do skip "not root, or no unshare -m: no bind mount to try"; done
fi
ok "list and env write nothing there: --work-dir / is theirs to read" \
	sh -c "'$CONTEST' env --work-dir / | grep -q '^work_dir: */$'"

ok "an option's value that looks like a command is still a value" \
	"$CONTEST" --dry-run -k report --work-dir w -d r noload
rm -rf w r

ok "nothing was created by the bad command lines" test ! -e contest-work -a ! -e contest-results

"$CONTEST" report -d missing-dir >out 2>err
ok_eq "report on a missing results directory: exit status" "$?" 1
ok "and says which directory" grep -q "missing-dir" err

mkdir empty
"$CONTEST" report -d empty >out 2>err
ok_eq "report on an empty results directory: exit status" "$?" 1
ok "and says there is nothing to report" grep -q "no valid runs" err

data=$TOP_SRCDIR/tests/data/lkml-2002
"$CONTEST" report -d "$data" 2.4.19 no-such-label >out 2>err
ok_eq "report of a label with no runs: exit status 1" "$?" 1
ok "and it lists the labels that have runs" \
	grep -q "no valid runs stored for label 'no-such-label' (labels with runs: 2.4.18, 2.4.19, " err
"$CONTEST" plot -d "$data" no-such-label >out 2>err
ok_eq "plot of a label with no runs: exit status 1" "$?" 1
ok "and it lists them too" grep -q "(labels with runs: 2.4.18, " err

done_testing
