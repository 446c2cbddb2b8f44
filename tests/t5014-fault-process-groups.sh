#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Process groups: no zombie is left when a --load-session load fails to
# start, and a group compare keeps keeps its leader unreaped (a zombie), so
# that its id cannot be given to another process while contest may signal
# it.
. "$TOP_SRCDIR/tests/lib.sh"

: "${CONTEST_HOOKED:?run the tests through make check}"
mkdir wl

# zcheck.sh PID: how many zombie children PID has, appended to zombies
cat >zcheck.sh <<EOF
z=\$(cat /proc/[0-9]*/stat 2>/dev/null | sed 's/.*) //' | awk -v p="\$1" '\$1 == "Z" && \$2 == p' | wc -l)
echo "\$z" >>$T_DIR/zombies
EOF

# the test hook: process 0 of the session dies once it started a sibling,
# before it sends the sibling's pid back (contest-hooked only)
CONTEST_HOOK_SESSION_DIES=1 "$CONTEST_HOOKED" -w cmd:wl --clean-cmd true \
	--build-cmd "sh $T_DIR/zcheck.sh \$PPID" --lead-time 0 -n 2 -k s --load-session \
	-d r --work-dir w --quick process_load >session.out 2>session.err
ok "the load cannot start" \
	grep -q "process_load round 1/2: INVALID: starting process_load in a session of its own" \
	session.err
# builds: the warm-up, then noload in round 1 and (after process_load
# failed) in round 2
ok_eq "every build ran" "$(wc -l <zombies)" 3
ok_eq "after the failed start contest has no zombie child" "$(tail -n 1 zombies)" 0

# a setup that leaves a process running: while its configuration's builds
# run, the setup's shell, the group's leader, is a zombie in its group
cat >kept.cfg <<EOF
[kept]
setup = echo \$\$ >$T_DIR/leader; sleep 1000 & echo \$! >$T_DIR/keeper
[other]
EOF
"$CONTEST" compare --configs kept.cfg -w cmd:wl --clean-cmd true --lead-time 0 -n 1 \
	--build-cmd "[ -s $T_DIR/leader ] && ! [ -e $T_DIR/seen ] || exit 0
		l=\$(cat $T_DIR/leader)
		sed 's/.*) //' /proc/\$l/stat | cut -d' ' -f1,3 >$T_DIR/seen" \
	-d r2 --work-dir w2 cacherun >kept.out 2>kept.err
ok_eq "the comparison runs" "$?" 0
ok_eq "the kept group's leader stays a zombie in its group" "$(cat seen)" "Z $(cat leader)"
running() {	# running PID: PID is there and not a zombie (init reaps at its pace)
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c 1)
	[ -n "$st" ] && [ "$st" != Z ]
}
stopped() { [ -n "$1" ] && ! running "$1"; }
ok "the kept process is stopped" stopped "$(cat keeper)"
ok "and its leader reaped" test ! -e "/proc/$(cat leader)"

done_testing
