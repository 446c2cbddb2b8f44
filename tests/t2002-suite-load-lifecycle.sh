#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The load lifecycle, through the test load spin_load: ready, lead time,
# measured, stopped and reaped; a load that fails or dies makes its run
# invalid with the reason, one that idles (starved) is a valid run with
# Loads 0 that says so, and the suite goes on; the report names both
# under the table.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"
[ -x "${CONTEST_HOOKED:-}" ] || skip_all "tests/contest-hooked is not built"

# the faults are a test build's: the shipped contest ignores them
CONTEST_SPIN_FAULT=setup "$CONTEST" load spin_load -t 0.3 --no-probe --work-dir w >ship.out 2>ship.err
ok_eq "the shipped contest takes no fault from CONTEST_SPIN_FAULT" "$?" 0
rm -rf w

# contest runs in run/; the test itself stays here
mkdir run || exit 99
rundir=$(cd run && pwd -P)
# The smallest builtin workload and a short lead time: every point here is
# about records, reasons and the lifecycle, not the build, and spin_load
# (one process per CPU) burns the CPUs for the whole lead time and build.  A
# 1-unit build still lasts long enough for spin_load to do well over the
# 0.1 unit the table shows (a unit is 10^8 iterations, about 0.2 CPU-s), and
# the faults come at once: in setup, before ready, or 10^6 iterations after.
suite() {	# suite LABEL FAULT: a tiny suite of noload and spin_load
	(cd run && CONTEST_SPIN_FAULT=$2 "$CONTEST_HOOKED" --scale 1 --lead-time 0.2 -n 1 \
		-k "$1" noload spin_load >"../$1.out" 2>"../$1.err")
}

# processes left behind: any whose working directory is run/
leftovers() {
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/cwd" 2>/dev/null)" = "$rundir" ] && echo "${p#/proc/}"
	done
}

suite good ""
ok_eq "a healthy load: exit 0" "$?" 0
ok "its run is valid" grep -q "spin_load round 1/1: .*, valid" good.err
# the table's row ("good  [1] Time CPU% Loads LCPU% Ratio"), not a check
# line after the tables that starts with the label too ("good spin_load
# round 1: 2.5 s, far outside its rounds"): on a busy machine one came, and
# its words were read as Loads and LCPU%
row=$(grep "^good  *\[" good.out | tail -n 1)
set -- $row
ok "Loads > 0 ($5)" awk "BEGIN{exit !($5 > 0)}"
ok "LCPU% > 0 ($6)" sh -c "awk \"BEGIN{exit !($6 > 0)}\" || { cat good.out good.err; exit 1; }"
ok "load CPU is in the record" grep -q "type=spin_load .* load_cpu_ns=[1-9]" run/contest-results/good.results

suite setup setup
ok_eq "a load whose setup fails: the suite still exits 0" "$?" 0
ok "the run is invalid, saying why" grep -q "INVALID: spin_load setup: told to fail its setup" setup.err
ok "the record keeps the reason" grep -q "valid=0 reason=spin_load%20setup" run/contest-results/setup.results
ok "noload still ran" grep -q "noload round 1/1: .*valid" setup.err

suite run run
ok "a load that fails in run(): invalid with its own words" grep -q "INVALID: spin_load process [0-9]: told to fail in process [0-9]" run.err

# every process alive and no work: the load was starved, a result to show
# (Loads 0), not an invalid run
suite idle idle
ok "a load that does no work: the run is valid, Loads 0, and says it was starved" \
	grep -q "spin_load round 1/1: .*, Loads 0, LCPU% [0-9]*, valid; the load met: spin_load did no work during the timed build (starved, every process alive)$" idle.err
ok "its record is valid, load_work 0, and says what the load met" \
	grep -q "^run .*type=spin_load .*valid=1 load.note=spin_load%20did%20no%20work%20during%20the%20timed%20build%20(starved,%20every%20process%20alive) .*load_work=0.000000 " run/contest-results/idle.results

suite die die
ok "a load killed mid-run (as by the OOM killer): invalid" grep -q "INVALID: spin_load process [0-9] (pid [0-9]*) died: killed by SIGKILL" die.err

# a load process killed from outside mid-run, as the OOM killer would: the
# run is invalid and says so, the next round runs.  The poll below finds
# the first spin_load process within one 20 ms step of its start and kills
# it then, whatever the build's size: --scale 1; the lead time of 0.5 s is
# the least time that process lives, the poll's margin on a busy machine.
# It runs pgrep (a read of every process's stat, some 15 ms of CPU on a busy
# machine) only once the noload round before the load has printed its line,
# not every 20 ms through the warm-up and noload builds too
(cd run && exec "$CONTEST" --scale 1 --lead-time 0.5 -n 2 -k killed noload spin_load \
	>../killed.out 2>../killed.err) &
pid=$!
victim=""
i=0
while [ -z "$victim" ] && [ $i -lt 3000 ] && kill -0 $pid 2>/dev/null; do
	grep -q "^contest: \[1/4\] noload round 1/2: " killed.err &&
		victim=$(pgrep -x -P $pid spin_load | head -n 1)
	[ -n "$victim" ] || sleep 0.02
	i=$((i + 1))
done
[ -n "$victim" ] && kill -KILL "$victim"
wait $pid
ok_eq "killed from outside: contest still exits 0" "$?" 0
ok "a load process was found and killed" test -n "$victim"
ok "the run is invalid: killed by SIGKILL" \
	grep -q "spin_load round 1/2: .*INVALID: spin_load process [0-9] (pid $victim) died: killed by SIGKILL" killed.err
ok "the suite went on: round 2 of spin_load is valid" grep -q "spin_load round 2/2: .*, valid" killed.err

"$CONTEST" report -d run/contest-results --no-latency >rep 2>err	# the rows only
# a table's rows: LABEL [RUNS], one a line (the baseline's "LABEL (base)")
rows() { sed -n "/^$1:\$/,/^\$/p" rep | sed 's/ (base) / /' | awk 'NR > 2 && NF { print $1, $2 }'; }
ok_eq "every label has its valid noload in the tables" "$(rows noload | tr '\n' ' ')" \
	"die [1] good [1] idle [1] killed [2] run [1] setup [1] "
ok_eq "invalid runs are left out of the tables: spin_load has good's, the starved idle's and killed's round 2" \
	"$(rows spin_load | tr '\n' ' ')" "good [1] idle [1] killed [1] "
ok "the starved run's row shows Loads 0" sh -c "sed -n '/^spin_load:\$/,/^\$/p' rep | grep -q '^idle  *\[1\]  *[0-9.]*  *[0-9]*  *0 '"
ok "under the spin_load table: what idle's load met" \
	grep -qx "idle round 1: spin_load did no work during the timed build (starved, every process alive)" rep
ok "under the spin_load table: each invalid run with its reason" sh -c \
	"grep -qx 'setup round 1 left out: spin_load setup: told to fail its setup' rep &&
	 grep -q '^run round 1 left out: spin_load process [0-9]: told to fail in process [0-9]\$' rep &&
	 grep -q '^die round 1 left out: spin_load process [0-9] (pid [0-9]*) died: killed by SIGKILL\$' rep &&
	 grep -q '^killed round 1 left out: spin_load process [0-9] (pid $victim) died: killed by SIGKILL\$' rep ||
	 { grep -A1 'left out' rep; exit 1; }"
ok "and not on stderr: the table says it" test ! -s err

ok_eq "no process left behind" "$(leftovers)" ""
ok "no scratch left behind" test ! -e run/contest-work

# contest load: the same load alone (as briefly as the shipped one's above:
# 0.3 s of two spinning processes gives a rate and a CPU% well over 1)
(cd run && "$CONTEST" load spin_load -t 0.3 >../alone 2>../err)
ok_eq "contest load exits 0" "$?" 0
ok "it prints the rate in units per second" grep -q "^rate: *[0-9.]* units/s" alone
ok "and the CPU%" grep -q "^CPU%: *[1-9]" alone
ok_eq "no process left behind by contest load" "$(leftovers)" ""
ok "no scratch left behind by contest load" test ! -e run/contest-work

done_testing
