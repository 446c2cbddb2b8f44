#!/bin/sh
# Memory: a mem_load process killed with SIGKILL from outside, as the OOM
# killer would, makes its run invalid as killed and the suite goes on; while
# mem_load runs, MemAvailable stays above the reserve it keeps; and when the
# machine runs short anyway (another process grew), mem_load gives its memory
# back and its run is invalid, saying so.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"
meminfo() { awk -v k="$1:" '$1 == k { printf "%.0f\n", $2 * 1024 }' /proc/meminfo; }
total=$(meminfo MemTotal)
[ -n "$total" ] || skip_all "no MemTotal in /proc/meminfo"
reserve=$((total / 10))
[ $reserve -lt 1073741824 ] && reserve=1073741824
mkdir run || exit 99
rundir=$(cd run && pwd -P)

# two rounds; in the first, kill one mem_load process once the timed build runs
(cd run && exec "$CONTEST" --quick --scale 6 --lead-time 0.5 -n 2 -k oom \
	--mem-size 512M noload mem_load >../oom.out 2>../oom.err) &
pid=$!
i=0 victim= min_avail=$(meminfo MemAvailable)
while [ $i -lt 6000 ] && kill -0 $pid 2>/dev/null; do
	a=$(meminfo MemAvailable)
	[ "$a" -lt "$min_avail" ] && min_avail=$a
	if [ -z "$victim" ] && pgrep -x -P $pid make >/dev/null; then
		victim=$(pgrep -x -P $pid mem_load | head -n 1)
		[ -n "$victim" ] && kill -KILL "$victim"
	fi
	sleep 0.05
	i=$((i + 1))
done
wait $pid
ok_eq "the suite ends normally" "$?" 0
ok "a mem_load process was found and killed" test -n "$victim"
ok "that run is invalid: killed by SIGKILL" \
	grep -q "mem_load round 1/2.*INVALID: mem_load process [0-9]* (pid $victim) died: killed by SIGKILL" oom.err
ok "the suite went on: round 2 of mem_load is valid" grep -q "mem_load round 2/2: .*, valid" oom.err
ok "the invalid run is stored as such" grep -q "^run .*type=mem_load .*valid=0 reason=mem_load%20process" run/contest-results/oom.results
ok "MemAvailable stayed above the reserve (lowest $((min_avail >> 20)) MiB, reserve $((reserve >> 20)) MiB)" \
	test "$min_avail" -gt "$reserve"
ok_eq "no process left behind" "$(procs_in "$rundir")" ""
ok "no scratch left behind" test ! -e run/contest-work

# short of memory: no test can take a machine's memory away, so the floor
# mem_load keeps (half the reserve) is raised above what any machine has
(cd run && CONTEST_TEST_MEM_FLOOR=$((1 << 60)) exec "$CONTEST" --quick --scale 4 \
	--lead-time 0.5 -n 1 -k short --mem-size 256M mem_load process_load \
	>../short.out 2>../short.err)
ok_eq "short of memory: the suite ends normally" "$?" 0
ok "the mem_load run is invalid: it gave its memory back" \
	grep -q "mem_load round 1/1.*INVALID: mem_load process 0: the machine ran short of memory (MemAvailable + SwapFree .*, below 1048576.0 TiB): mem_load gave its 256.0 MiB back" short.err
ok "the suite went on: process_load is valid" grep -q "process_load round 1/1: .*, valid" short.err
ok_eq "no process left behind" "$(procs_in "$rundir")" ""

done_testing
