#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# LCPU% is the load's CPU over the timed build only: sampled when the build
# ends, not at the reap.  tests/contest-hooked's spin_load with
# CONTEST_SPIN_FAULT=teardown works (slowly, on almost no CPU) during the
# run and burns 2 s of CPU per process once told to stop; none of that may
# show, in a suite's LCPU% nor in `contest load`'s CPU%.
. "$TOP_SRCDIR/tests/lib.sh"

[ -x "${CONTEST_HOOKED:-}" ] || skip_all "tests/contest-hooked is not built"
mkdir run tree || exit 99
top=$(pwd -P)

# a build of 1 s on no CPU beside the load
(cd run && CONTEST_SPIN_FAULT=teardown exec "$CONTEST_HOOKED" -w "cmd:$top/tree" \
	--build-cmd 'sleep 1' --clean-cmd true --lead-time 0 -n 1 -k td noload spin_load \
	>../td.out 2>../td.err)
ok "the suite ran" test $? = 0
rec=$(grep "^run .* type=spin_load " run/contest-results/td.results)
field() {	# field NAME: its value in the spin_load record
	echo "$rec" | tr ' ' '\n' | sed -n "s/^$1=//p"
}
elapsed=$(field elapsed_ns) cpu=$(field load_cpu_ns)
ok "the spin_load run is valid" test "$(field valid)" = 1
ok "its load CPU is measured" test -n "$cpu"
ok "no teardown in it: under 10% of the build's Time ($cpu of $elapsed ns)" \
	test "$((${cpu:-999999999999} * 10))" -lt "${elapsed:-0}"
lcpu=$(sed -n 's/.*spin_load round 1\/1: .*LCPU% \([0-9]*\),.*/\1/p' td.err)
ok "the run's line says LCPU% $lcpu, under 10" test "${lcpu:-999}" -lt 10

(cd run && CONTEST_SPIN_FAULT=teardown exec "$CONTEST_HOOKED" load spin_load -t 1 \
	>../alone 2>../alone.err)
ok "contest load ran" test $? = 0
pct=$(sed -n 's/^CPU%: *//p' alone)
ok "contest load's CPU% ($pct) has no teardown either" test "${pct:-999}" -lt 10

done_testing
