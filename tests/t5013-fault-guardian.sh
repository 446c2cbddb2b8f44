#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# After a SIGKILL of contest its guardian kills what contest left and runs
# the undo commands; it holds contest's locks until that is done, so the
# next contest on the same directories is refused meanwhile (it would
# otherwise sweep the dead run's scratch and run beside the undo).
. "$TOP_SRCDIR/tests/lib.sh"

mkdir wl wl2
cat >slow.cfg <<EOF
[slow]
setup = touch $T_DIR/set
undo = touch $T_DIR/undoing; while ! [ -e $T_DIR/go ]; do sleep 0.02; done; touch $T_DIR/undone
[other]
EOF
# the timed build of configuration slow never ends (the warm-up does)
"$CONTEST" compare --configs slow.cfg -w cmd:wl --clean-cmd true \
	--build-cmd "[ -e $T_DIR/set ] || exit 0; touch $T_DIR/building; exec sleep 1000" \
	--lead-time 0 -n 1 --work-dir w -d r cacherun >first.out 2>first.err &
pid=$!
wait_until test -e building
ok "the first contest times slow's build" test -e building
kill -KILL $pid
wait $pid 2>/dev/null
wait_until test -e undoing
ok "the guardian runs the undo" test -e undoing

next() {	# next: a tiny suite on the same work directory, into r2
	"$CONTEST" -w cmd:wl2 --build-cmd true --clean-cmd true --lead-time 0 -n 1 -k next \
		--work-dir w -d r2 --quiet cacherun >next.out 2>next.err
}
next
ok_eq "while it runs, the next contest is refused" "$?" 1
ok "it names the dead contest, whose guardian holds the lock" \
	grep -q "another contest (pid $pid) is using the work directory w" next.err
ok "the dead run's scratch is still there" sh -c "ls -d w/run-$pid-* >/dev/null 2>&1"
touch go
wait_until test -e undone
ok "the undo ends" test -e undone
ok "then the next contest runs" wait_until next
ok "and removes the dead run's scratch" \
	grep -q "removed w/run-$pid-......, left by contest pid $pid, which is gone" next.err

done_testing
