#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# timeout.sh - how make check runs every test (LOG_COMPILER, SH_LOG_COMPILER):
# under a time limit, so that a hung wait fails the run instead of hanging it.
#
#	sh tests/timeout.sh COMMAND...	(the test is the last word)
#
# The limit is CONTEST_TEST_TIMEOUT seconds when that is set (0: none), else
# the test's own from the table below, else 600 s: ten times what the slowest
# of the others takes on a busy 2-CPU machine.  When it passes, the test's
# process group gets SIGTERM (contest then cleans up as on any SIGTERM, and
# lib.sh's trap runs the test's own cleanup), and SIGKILL after a grace of
# CONTEST_TEST_GRACE (30) seconds.  contest's loads run in sessions of their
# own, out of that group: every process the test starts inherits
# CONTEST_TEST_RUN in its environment, by which the stragglers are found
# and killed too.  The log then ends with a "Bail out!" line saying so, and
# the test is an ERROR.  A test that ends by itself and leaves a process
# carrying its mark behind (make, cc, a sleep, contest, a load) is an ERROR
# too: the stragglers are listed and killed.
set -u

[ $# -gt 0 ] || { echo "usage: timeout.sh COMMAND..." >&2; exit 99; }
for test; do :; done
name=${test##*/}

case $name in
t6002-*) limit=3600 ;;	# builds a real kernel three times: about 10 min on 2 CPUs
t2003-* | t2008-* | t2009-* | t2011-* | t2012-*) limit=1200 ;;	# whole quick suites, several of them in t2008; t2009 a dozen comparisons
t7003-*) limit=1200 ;;	# mmtests builds contest, runs two quick suites
t7004-*) limit=1200 ;;	# lkp run: a quick suite, lkp's monitors and stats
check-vm.sh) limit=1800 ;;	# make check-vm: a dozen boots under qemu TCG (tests/vm)
*) limit=600 ;;
esac
limit=${CONTEST_TEST_TIMEOUT:-$limit}
grace=${CONTEST_TEST_GRACE:-30}

if [ "$limit" = 0 ]; then
	exec "$@"
fi
command -v timeout >/dev/null 2>&1 || {
	echo "Bail out! timeout (GNU coreutils) is not installed: no time limit for $name"
	exit 99
}

mark="$name.$$.$(date +%s)"

marked() {	# the pids of processes carrying this run's mark: one grep over
	# every environment (-z: a NUL ends a variable).  It was a tr and a
	# grep per process of the machine, at every test's end: with the 200
	# processes of a busy suite (loads' rings, builds' compilers) some 3 CPU-s
	# and 10 s each time, counted in no test's time; this takes 0.02 CPU-s.
	grep -lzxF "CONTEST_TEST_RUN=$mark" /proc/[0-9]*/environ 2>/dev/null |
		sed 's|^/proc/\([0-9]*\)/environ$|\1|'
}

sweep() {	# what the test left running: SIGKILL after the grace
	left=$(marked)
	w=0
	while [ -n "$left" ] && [ $w -lt $((grace * 2)) ]; do	# SIGTERM's cleanup
		sleep 0.5
		w=$((w + 1))
		left=$(marked)
	done
	if [ -n "$left" ]; then
		echo "# still running $grace s after SIGTERM, SIGKILL:" $left
		# shellcheck disable=SC2086
		kill -KILL $left 2>/dev/null
	fi
}

# timeout leads a process group of its own, out of the terminal's reach: a
# Ctrl-C (or make's SIGTERM) here is passed on to it, and so to the test.
# (Started in the background, the test would have SIGINT ignored, but
# timeout catches it, so the test gets it back at exec.)
start=$(date +%s)
CONTEST_TEST_RUN=$mark timeout -k "$grace" "$limit" "$@" &
tpid=$!
stopped=""
trap 'stopped=yes; kill -TERM $tpid 2>/dev/null' INT TERM HUP
while :; do
	wait $tpid
	status=$?
	kill -0 $tpid 2>/dev/null || break	# else wait was cut short by a signal
done
if [ -n "$stopped" ]; then
	echo "# interrupted: SIGTERM passed on to $name"
	sweep
	echo "Bail out! interrupted"
	exit 130
fi
# how long it took, and the CPU time of everything it started (times: the
# children's user and system time), in its log as a TAP comment, so that a
# slow suite can be read off CI's logs: grep '^# took' tests/*.log
tf=${TMPDIR:-/tmp}/times.$$
times >"$tf"	# not in $(...): a subshell's children are not the test
cpu=$(awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s[i] = 60 * t[1] + t[2] }
	printf "%.0f s user, %.0f s sys", s[1], s[2] }' "$tf")
rm -f "$tf"
echo "# took $(($(date +%s) - start)) s; CPU $cpu"
# 124: timed out and ended by SIGTERM; 137 (128 + SIGKILL): it took SIGKILL
if [ $status != 124 ] && [ $status != 137 ]; then
	# The test ended by itself: whatever it started must have ended too.
	# Anything still carrying its mark (make, cc, a sleep keeper, contest, a
	# load) is a leak, and fails the test that left it.  A second to let
	# what is ending end.
	left=$(marked)
	[ -z "$left" ] || { sleep 1; left=$(marked); }
	[ -z "$left" ] && exit $status
	for p in $left; do
		echo "# left running: $p $(tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | cut -c1-100)"
	done
	# shellcheck disable=SC2086
	kill -KILL $left 2>/dev/null
	echo "Bail out! $name left $(echo $left | wc -w) process(es) running (killed)"
	exit 99
fi

msg="timed out: $name ran longer than its limit of $limit s (CONTEST_TEST_TIMEOUT)"
echo "# $msg; SIGTERM sent, SIGKILL after $grace s"
sweep
echo "Bail out! $msg"
exit $status
