#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Two contests racing for one results directory, 200 times: at any time at
# most one holds its lock, and no record is lost or doubled.  The fault
# shim (tests/fault-shim.c) widens the windows of the race: a contest that
# ends sleeps between removing its lock file and closing it, one that
# starts sleeps between opening the lock file and flock; a contest that
# locked a file no longer at the path would hold "the" lock beside the next
# one.  Each build checks that the lock file names its own contest.
. "$TOP_SRCDIR/tests/lib.sh"

fault_shim
mkdir wl

# (--no-probe: the latency probe's calibration, beside every build, was
# most of a tiny suite's CPU, and has nothing to do with the lock)
racer() {	# racer N: 100 tiny suites one after the other, work directory wN
	i=0
	while [ $i -lt 100 ]; do
		i=$((i + 1))
		LD_PRELOAD="$SHIM" SHIM_LOCK=10,50 "$CONTEST" -w cmd:wl --clean-cmd true \
			--build-cmd "test \"\$(cat $T_DIR/r/contest.lock)\" = \$PPID" \
			--lead-time 0 -n 1 -k a -d r --work-dir "w$1" --quiet --no-probe cacherun \
			>"$1-$i.out" 2>"$1-$i.err"
		echo "$?" >"$1-$i.rc"
	done
}

racer 1 &
racer 2 &
wait

ok_eq "200 contests ran" "$(ls ./*.rc | wc -l)" 200
for f in ./*.rc; do
	rc=$(cat "$f")
	[ "$rc" = 0 ] && continue
	[ "$rc" = 1 ] && grep -q "another contest (pid [0-9?]*) is using the results directory r" \
		"${f%.rc}.err" && continue
	echo "${f%.rc}: exit status $rc:"
	cat "${f%.rc}.err"
done >bad
ok "each one ran alone, or was refused at once" test ! -s bad
head -20 bad | sed 's/^/# /'
won=$(grep -lx 0 ./*.rc | wc -l)
ok "some of them ran" test "$won" -gt 0
ok_eq "an environment record for each one that ran" "$(grep -c '^env ' r/a.results)" "$won"
ok_eq "a run record for each one that ran" "$(grep -c '^run ' r/a.results)" "$won"
ok_eq "each of its own session" \
	"$(grep '^run ' r/a.results | tr ' ' '\n' | grep '^session=' | sort -u | wc -l)" "$won"
ok "no lock file is left" test ! -e r/contest.lock

done_testing
