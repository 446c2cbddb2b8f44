#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One contest at a time per work or results directory: a second refuses at
# once naming the pid; a lock file left by a dead contest is taken over.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"

# (first holds both directories while the two after it are refused: its
# build, a command, waits for the file go1, made once they are; nothing is
# compiled)
mkdir wl1
"$CONTEST" -w cmd:wl1 --build-cmd 'while ! [ -e ../go1 ]; do sleep 0.02; done' --clean-cmd true \
	-n 1 -k first --work-dir w1 -d r1 cacherun >first.out 2>first.err &
pid=$!
i=0
while [ $i -lt 3000 ] && ! [ -s w1/contest.lock ]; do sleep 0.02; i=$((i + 1)); done
ok "the first contest holds its work directory" test -s w1/contest.lock

"$CONTEST" --quick -n 1 -k second --work-dir w1 -d r2 noload >second.out 2>second.err
ok_eq "a second contest on the same work directory: exit status" "$?" 1
ok "it names the pid that holds it" \
	grep -q "another contest (pid $pid) is using the work directory w1" second.err
"$CONTEST" --quick -n 1 -k third --work-dir w3 -d r1 noload >third.out 2>third.err
ok_eq "a second contest on the same results directory: exit status" "$?" 1
ok "it names the pid that holds it" \
	grep -q "another contest (pid $pid) is using the results directory r1" third.err
ok "the refused ones wrote no results" test ! -e r2/second.results -a ! -e r1/third.results
ok "and left no work directory" test ! -e w3
touch go1
wait $pid
ok_eq "the first contest finishes normally" "$?" 0
ok "and removes its lock and work directory" test ! -e w1 -a ! -e r1/contest.lock

# a lock file left by a dead contest (here: a pid that cannot exist)
mkdir w4
echo 4194304999 >w4/contest.lock
mkdir wl4	# (the cheapest run there is: a workload of `true`)
"$CONTEST" -w cmd:wl4 --build-cmd true --clean-cmd true -n 1 -k fourth --work-dir w4 -d r4 \
	cacherun >fourth.out 2>fourth.err
ok_eq "a stale lock file: contest runs" "$?" 0
ok "it says it takes the lock over" grep -q "taking over w4/contest.lock from contest pid 4194304999" fourth.err

# contest merge appends into DEST under DEST's lock: not beside a contest
mkdir wl5
"$CONTEST" -w cmd:wl5 --build-cmd 'while ! [ -e ../go ]; do sleep 0.02; done' --clean-cmd true \
	--lead-time 0 -n 1 -k fifth --work-dir w5 -d r5 --quiet cacherun >fifth.out 2>fifth.err &
pid=$!
ok "a contest holds its results directory" wait_until test -s r5/contest.lock
"$CONTEST" merge r4 r5 >merge.out 2>merge.err
ok_eq "contest merge into it: exit status" "$?" 1
ok "it names the pid that holds it" \
	grep -q "another contest (pid $pid) is using the results directory r5" merge.err
ok "it copied nothing" test ! -e r5/fourth.results
touch go
wait $pid
ok_eq "the contest finishes normally" "$?" 0
"$CONTEST" merge r4 r5 >merge.out 2>merge.err
ok_eq "then the merge runs" "$?" 0
ok "and copies the records" cmp -s r4/fourth.results r5/fourth.results
ok "and leaves no lock" test ! -e r5/contest.lock

done_testing
