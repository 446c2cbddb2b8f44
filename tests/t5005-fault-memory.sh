#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Memory: a mem_load process killed with SIGKILL from outside, as the OOM
# killer would, makes its run invalid as killed and the suite goes on; while
# mem_load runs at full size (in a 2 GiB memory cgroup), the memory left
# stays above the floor it keeps; and when the
# machine runs short anyway (another process grew), mem_load gives its memory
# back and its run, still valid (the build's Time is true), says so.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"
meminfo() { awk -v k="$1:" '$1 == k { printf "%.0f\n", $2 * 1024 }' /proc/meminfo; }
total=$(meminfo MemTotal)
[ -n "$total" ] || skip_all "no MemTotal in /proc/meminfo"
need_spare_mem 2048
reserve=$((total / 10))
[ $reserve -lt 1073741824 ] && reserve=1073741824
mkdir run || exit 99
rundir=$(cd run && pwd -P)

# two rounds; in the first, kill one mem_load process once the timed build
# runs.  mem_load at full size, on a machine of 2 GiB (a memory cgroup, as
# t4006 and t4008 make): it takes all but the reserve (1 GiB there), and
# the room under the limit must stay above the floor it keeps (half the
# reserve), with the build's compilers (--scale 4: four at once) beside it.
# mem_load is ready (its memory touched) before the lead time starts: 0.2 s
# of it will do.  Without a memory cgroup, a 512 MiB load on the real
# machine, whose MemAvailable must stay above the whole reserve.
if memcg_make 2147483648; then
	reserve=1073741824 floor=$((1073741824 / 2)) size= where="in a 2 GiB cgroup"
	room() { memcg_room; }
	(cd run && memcg_run "$CONTEST" --scale 4 --lead-time 0.2 -n 2 -k oom \
		noload mem_load >../oom.out 2>../oom.err) &
else
	floor=$reserve size="--mem-size 512M" where="512 MiB, no memory cgroup here"
	room() { meminfo MemAvailable; }
	(cd run && exec "$CONTEST" --quick --scale 4 --lead-time 0.2 -n 2 -k oom \
		$size noload mem_load >../oom.out 2>../oom.err) &
fi
pid=$!
i=0 victim= min_avail=$(room)
while [ $i -lt 6000 ] && kill -0 $pid 2>/dev/null; do
	a=$(room)
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
[ -n "$size" ] || ok "mem_load ran at full size, bounded by the cgroup: RAM 2.0 GiB, reserve 1.0 GiB" \
	grep -q "^    mem_load: [0-9.]* MiB (110% of RAM 2.0 GiB; .*reserve 1.0 GiB.*: bounded)" oom.err
ok "the invalid run is stored as such" grep -q "^run .*type=mem_load .*valid=0 reason=mem_load%20process" run/contest-results/oom.results
ok "$where: the memory left stayed above $((floor >> 20)) MiB (lowest $((min_avail >> 20)) MiB, reserve $((reserve >> 20)) MiB)" \
	test "$min_avail" -gt "$floor"
memcg_remove
ok_eq "no process left behind" "$(procs_in "$rundir")" ""
ok "no scratch left behind" test ! -e run/contest-work

# short of memory: no test can take a machine's memory away, so the floor
# mem_load keeps (half the reserve) is raised above what any machine has,
# by a hook only the test build has.  mem_load checks the floor while it
# first touches its memory, before it is ready and before any build: the
# smallest build (--scale 1) and lead time do; a load's work is counted in
# fractions of a unit, so process_load's short run still did some.
(cd run && CONTEST_TEST_MEM_FLOOR=$((1 << 60)) exec "$CONTEST_HOOKED" --quick --scale 1 \
	--lead-time 0.2 -n 1 -k short --mem-size 256M mem_load process_load \
	>../short.out 2>../short.err)
ok_eq "short of memory: the suite ends normally" "$?" 0
ok "the mem_load run is valid, Loads 0, and says it gave its memory back" \
	grep -q "mem_load round 1/1: .*, Loads 0, .*, valid; the load met: mem_load process 0: the machine ran short of memory (MemAvailable + SwapFree .*, below 1048576.0 TiB): mem_load gave its 256.0 MiB back" short.err
ok "its record says what the load met" \
	grep -q "^run .*type=mem_load .*valid=1 load.note=mem_load%20process%200:%20the%20machine%20ran%20short%20of%20memory" run/contest-results/short.results
"$CONTEST" report -d run/contest-results --no-latency short >short.rep 2>&1
ok "the report prints it under the mem_load table" \
	grep -q "^short round 1: mem_load process 0: the machine ran short of memory .*: mem_load gave its 256.0 MiB back before the OOM killer had to act$" short.rep
ok "the suite went on: process_load is valid" grep -q "process_load round 1/1: .*, valid" short.err
ok_eq "no process left behind" "$(procs_in "$rundir")" ""
# the shipped binary has no such hook: the same environment changes nothing
# (a hook would fail mem_load before it is ready, whatever the build's size)
(cd run && CONTEST_TEST_MEM_FLOOR=$((1 << 60)) exec "$CONTEST" --quick --scale 1 \
	--lead-time 0.2 -n 1 -k shipped --mem-size 256M mem_load >../shipped.out 2>../shipped.err)
ok_eq "the shipped contest: the suite ends normally" "$?" 0
ok "it ignores CONTEST_TEST_MEM_FLOOR: its mem_load run is valid, the load short of nothing" \
	grep -q "mem_load round 1/1: .*, valid$" shipped.err
ok_eq "no process left behind" "$(procs_in "$rundir")" ""

done_testing
