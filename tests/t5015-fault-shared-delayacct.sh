#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 23: contests running at once share kernel.task_delayacct
# (src/lib/share.c).  The first to start turns it on; the last to finish, or
# its guardian after a SIGKILL, puts back the value the first found: the
# first ending before the second no longer turns it off under the second's
# runs.  A value left behind by a contest and its guardian both SIGKILLed
# is kept by the next contest and restored when it ends.  A run whose window
# saw the setting turned off records its delays absent, with the reason,
# never the part of them the kernel counted.  Contests are held in their
# timed run (after the window opened, before the build) by
# tests/contest-hooked.  It changes kernel.task_delayacct for the whole
# machine: it runs alone.
. "$TOP_SRCDIR/tests/lib.sh"

da=/proc/sys/kernel/task_delayacct
lock=/run/contest-delayacct
[ -x "${CONTEST_HOOKED:-}" ] || skip_all "tests/contest-hooked is not built"
[ "$(id -u)" = 0 ] || skip_all "taskstats needs root"
[ -w $da ] || skip_all "no writable $da: a kernel without delay accounting"
[ -d /run ] || skip_all "no /run"
da0=$(cat $da)
# the lock file, when no process holds a lock on it (/proc/locks names its
# inode): a failed step's leftover
unheld_lock() {
	[ -e $lock ] && ! grep -q ":$(stat -c %i $lock) " /proc/locks
}
trap 'unheld_lock && rm -f $lock; echo "$da0" >$da; rm -rf "$T_DIR"' EXIT
echo 0 >$da
top=$(pwd -P)
# a build of a few processes, in a moment
mkdir tree || exit 99
echo 'ls / >/dev/null && sh -c true' >tree/build.sh

is() {	# is VALUE: task_delayacct is VALUE
	[ "$(cat $da)" = "$1" ]
}

# held NAME: contest-hooked in NAME/, held in the window of its first timed
# run until a line is written to NAME/hook/go; its pid in NAME/hook/pid,
# the shell's in $bg
held() {
	mkdir -p "$1/hook" && mkfifo "$1/hook/go" || exit 99
	(cd "$1" && CONTEST_TEST_HOOK=build:1 CONTEST_TEST_HOOK_DIR="$top/$1/hook" \
		exec "$CONTEST_HOOKED" -w "cmd:$top/tree" --build-cmd 'sh build.sh' \
		--clean-cmd true -n 1 -k "$1" noload >out 2>err) &
	bg=$!
	wait_until test -s "$1/hook/pid" || { ok "$1 reached its timed run" false; kill -s KILL $bg; exit 1; }
}

go() {	# go NAME: let NAME go on, and wait for it to end: 0 expected
	echo go >"$1/hook/go"
	wait "$2"
	ok_eq "$1 exits 0" "$?" 0
}

gone() {	# gone NAME: no process works in NAME/ (contest, its guardian, the build)
	[ -z "$(procs_in "$top/$1")" ]
}

has_delays() {	# has_delays NAME: its run recorded the build's delays
	grep -q '^run .* build_delay_cpu_ns=' "$1/contest-results/$1.results" &&
		! grep -q ' delays_absent=' "$1/contest-results/$1.results"
}

# last NAME PID: let NAME, the last user, go: its run has its delays, and
# after it task_delayacct is back to the 0 the first found, the lock file gone
last() {
	go "$1" "$2"
	ok "$1's run has its delays" has_delays "$1"
	ok "$1 ended: task_delayacct is back to 0" is 0
	ok "the lock file is gone" test ! -e $lock
}

# --- two at once: the first ends first ---------------------------------------
held a
apid=$bg
ok "a in its run: task_delayacct is 1" is 1
ok "the lock file holds the value a found" grep -qx 0 $lock
held b
bpid=$bg
go a $apid
ok "a ended, b in its run: task_delayacct is still 1" is 1
last b $bpid

# --- the first SIGKILLed -------------------------------------------------------
held c
cpid=$bg
held d
dpid=$bg
kill -s KILL "$(cat c/hook/pid)"
wait $cpid
ok_eq "c: SIGKILL" "$?" 137
# its guardian gives up when another contest still uses the setting
wait_until gone c
ok_eq "c and its guardian gone" "$(procs_in "$top/c")" ""
ok "d in its run: task_delayacct is still 1" is 1
last d $dpid

# --- a contest and its guardian both SIGKILLed ---------------------------------
held e
epid=$(cat e/hook/pid)
guard=$(for p in /proc/[0-9]*; do
	[ "$(awk '{ print $4 }' "$p/stat" 2>/dev/null)" = "$epid" ] &&
		[ "$(cat "$p/comm" 2>/dev/null)" = contest-guard ] && echo "${p#/proc/}"
done)
ok "e's guardian found" test -n "$guard"
kill -s KILL $guard
kill -s KILL "$epid"
wait $bg
wait_until gone e
ok "nobody restored it: task_delayacct is 1" is 1
ok "the lock file still holds 0" grep -qx 0 $lock
held f
fpid=$bg
ok "the lock file still holds the first value, 0" grep -qx 0 $lock
last f $fpid
# the build's cgroup that e's guardian would have removed
find /sys/fs/cgroup -maxdepth 8 -type d -name "contest-build-$epid" -exec rmdir {} + 2>/dev/null

# --- turned off by another program during a run --------------------------------
held g
gpid=$bg
echo 0 >$da
go g $gpid
f=g/contest-results/g.results
ok "g's delays are absent, with the reason" \
	grep -q ' delays_absent=kernel.task_delayacct%20was%20turned%20off%20during%20the%20run' $f
ok "no delay figure is recorded" sh -c "! grep -q ' build_delay_' $f"
ok "g ended: task_delayacct is 0" is 0
ok "the lock file is gone" test ! -e $lock

# --- turned off and on again during a run ----------------------------------------
# (contest looks about every 100 ms: a second off is seen)
held h
hpid=$bg
echo 0 >$da
sleep 1
echo 1 >$da
go h $hpid
ok "h's delays are absent, with the reason" \
	grep -q ' delays_absent=kernel.task_delayacct%20was%20turned%20off%20during%20the%20run' \
	h/contest-results/h.results
ok "h ended: task_delayacct is 0" is 0

done_testing
