#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# LCPU% is the load's CPU over the timed build only: sampled when the build
# ends, before the load is told to stop, not at the reap.  tests/contest-
# hooked's spin_load with CONTEST_SPIN_FAULT=teardown works (slowly, on
# almost no CPU) during the run and burns 2 s of CPU per process once told
# to stop; with CONTEST_SPIN_CPU_DIR each process writes the CPU it had used
# when it saw the stop.  The window check: the CPU a suite's record and
# `contest load` count is at most what the processes had used by then, so
# none of the teardown is in it.  No CPU-time bound here: how little CPU the
# window itself shows is a figure, bench/window.sh's.
. "$TOP_SRCDIR/tests/lib.sh"

[ -x "${CONTEST_HOOKED:-}" ] || skip_all "tests/contest-hooked is not built"
mkdir run tree cpu-td cpu-alone || exit 99
top=$(pwd -P)

at_stop() {	# at_stop DIR: the processes' CPU when they saw the stop, ns, summed
	cat "$1"/cpu-* 2>/dev/null | awk '{ s += $1; n++ } END { if (n) print s }'
}

# a build of 1 s on no CPU beside the load
(cd run && CONTEST_SPIN_FAULT=teardown CONTEST_SPIN_CPU_DIR=$top/cpu-td \
	exec "$CONTEST_HOOKED" -w "cmd:$top/tree" \
	--build-cmd 'sleep 1' --clean-cmd true --lead-time 0 -n 1 -k td noload spin_load \
	>../td.out 2>../td.err)
ok "the suite ran" test $? = 0
rec=$(grep "^run .* type=spin_load " run/contest-results/td.results)
field() {	# field NAME: its value in the spin_load record
	echo "$rec" | tr ' ' '\n' | sed -n "s/^$1=//p"
}
elapsed=$(field elapsed_ns) cpu=$(field load_cpu_ns) stop=$(at_stop cpu-td)
ok "the spin_load run is valid" test "$(field valid)" = 1
ok "its load CPU is measured" test -n "$cpu"
ok "each process said what it had used at the stop ($stop ns)" \
	test "$(ls cpu-td | wc -l)" = "$(field load.procs)" -a -n "$stop"
ok "no teardown in it: at most what the load had used at the stop ($cpu <= $stop ns)" \
	test "${cpu:-1}" -le "${stop:-0}"
lcpu=$(sed -n 's/.*spin_load round 1\/1: .*LCPU% \([0-9]*\),.*/\1/p' td.err)
ok "the run's line says the record's LCPU% ($lcpu)" awk -v l="$lcpu" -v c="$cpu" -v e="$elapsed" \
	'BEGIN { exit !(l != "" && e > 0 && l == sprintf("%.0f", c / e * 100)) }'

(cd run && CONTEST_SPIN_FAULT=teardown CONTEST_SPIN_CPU_DIR=$top/cpu-alone \
	exec "$CONTEST_HOOKED" load spin_load -t 1 >../alone 2>../alone.err)
ok "contest load ran" test $? = 0
pct=$(sed -n 's/^CPU%: *//p' alone) secs=$(sed -n 's/^seconds: *//p' alone)
stop=$(at_stop cpu-alone)
# CPU% is rounded to 1 and seconds to 0.1: 0.1 s of slack, where the
# teardown would add 2 s a process
ok "contest load's CPU% ($pct of $secs s) has no teardown either (at the stop: $stop ns)" \
	awk -v p="$pct" -v t="$secs" -v s="$stop" \
	'BEGIN { exit !(p != "" && s != "" && p / 100 * t * 1e9 <= s + 1e8) }'

done_testing
