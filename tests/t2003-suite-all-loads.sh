#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The whole quick suite: all nine run types, every load doing work.  It
# asserts no timing (how much a load slows the compile is a measurement, for
# bench/; t2008 and t2012 test that a known effect is flagged), so it runs
# beside the other tests.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"
need_spare_mem 1024

mkdir run && cd run || exit 99
# builds of --scale 2 (under a second) and list_load walking this source
# tree rather than /, which it could not list once in so short a build.
# Loads counts the fraction of a unit done, so a load need not finish one in
# the build; the report shows Loads to 0.1, and each load does far more than
# that even in so short a build (from 13 units, xtar_load's, to hundreds,
# mem_load's, on a busy 2-CPU machine): every load still does work in every
# run, for a third of the CPU time of --scale 8.  A lead time of 0.2 s, not
# --quick's 1 s: the points read the timed build's window only, and every
# load is set up (read_load's file written, mem_load's memory touched)
# before it says it is ready and the lead time starts, so the longer wait
# only burned the loads' CPU.
"$CONTEST" --quick --scale 2 --lead-time 0.2 --root "$TOP_SRCDIR" -n 1 -k all-nine >out 2>err
ok_eq "contest --quick -n 1 (all nine) exits 0" "$?" 0
ok_eq "nine runs, all valid" "$(grep -c 'round 1/1: .*, valid$' err)" 9
"$CONTEST" report >rep 2>err
ok_eq "report exits 0" "$?" 0
ok_eq "nine tables" "$(grep -c '^[a-z_]*:$' rep)" 9

row() {	# row TYPE: the all-nine row of TYPE's table
	sed -n "/^$1:\$/,/^\$/p" rep | grep '^all-nine '
}
for t in process_load ctar_load xtar_load io_load read_load list_load mem_load; do
	set -- $(row $t)
	ok "$t: Loads > 0 (${5:-none})" awk "BEGIN{exit !(${5:-0} > 0)}"
	ok "$t: LCPU% > 0 (${6:-none})" awk "BEGIN{exit !(${6:-0} > 0)}"
done
set -- $(row process_load)
ok "process_load has a Ratio (${7:-none})" awk "BEGIN{exit !(${7:-0} > 0)}"
set -- $(row noload)
ok_eq "noload Ratio" "${7:-none}" "1.00"
ok "nothing left in the work directory" test ! -e contest-work

done_testing
