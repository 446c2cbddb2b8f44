#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --load-session: the loads run in one session of their own (not contest's),
# as contest's children still; it is recorded with every run and is a
# configuration of its own; and the new session's processes are stopped on
# every exit path (normal, SIGTERM, SIGKILL of contest).
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"
command -v pgrep >/dev/null || skip_all "pgrep is not installed"
mkdir run || exit 99
rundir=$(cd run && pwd -P)

stat_field() {	# stat_field PID N: field N of /proc/PID/stat (after the name)
	sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f$(($2 - 2))
}

four_loads() {	# four_loads PID: contest PID has 4 process_load children,
	# each out of contest's process group (in the load's group, or session)
	[ "$(pgrep -x -P "$1" process_load | wc -l)" -ge 4 ] || return 1
	for k in $(pgrep -x -P "$1" process_load); do
		[ "$(stat_field "$k" 5)" != "$(stat_field "$1" 5)" ] || return 1
	done
}

# noload_done PID: the suite of contest PID (label $label) has printed its
# noload's line (the loads start after it), or contest has ended.  A grep,
# before four_loads' pgrep: pgrep reads every process's stat, some 15 ms of
# CPU a poll on a busy machine, one every 20 ms through the warm-up and
# noload builds, which was a third of this test's CPU time
noload_done() {
	grep -q "^contest: \[1/2\] noload round 1/1: " "$label.err" || ! kill -0 "$1"
}

# watch PID: once contest PID runs its loads, note its process_load children
# as "pid ppid pgid sid" lines in watch.out, and contest's own session
watch() {
	: >watch.out
	wait_until noload_done "$1"
	wait_until four_loads "$1" || return 1
	for k in $(pgrep -x -P "$1" process_load); do
		echo "$k $(stat_field "$k" 4) $(stat_field "$k" 5) $(stat_field "$k" 6)"
	done >watch.out
	echo "$(stat_field "$1" 6)" >contest.sid
}

# The smallest builtin workload: the points are about sessions, records and
# stopping, not the build, and process_load burns both CPUs while it runs.
# The loads live for the lead time and the build at least; the lead time of
# 0.5 s is what leaves watch() (a poll every 20 ms) time to see all four on a
# busy machine before the build even starts.
suite() {	# suite LABEL ARGS...: in the background; its pid in $pid
	label=$1
	shift
	(cd run && exec "$CONTEST" --scale 1 --lead-time 0.5 -n 1 --procs 4 -k "$label" "$@" \
		>"../$label.out" 2>"../$label.err") &
	pid=$!
}

# --- with --load-session -----------------------------------------------------
suite sess --load-session noload process_load
watch $pid
ok "the loaded run was seen running" test -s watch.out
wait $pid
ok_eq "the suite exits 0" "$?" 0
csid=$(cat contest.sid 2>/dev/null)
ok_eq "four load processes, all contest's children" \
	"$(awk -v p=$pid '$2 == p' watch.out | wc -l | tr -d ' ')" 4
ok_eq "all in one session" "$(awk '{print $4}' watch.out | sort -u | wc -l | tr -d ' ')" 1
lsid=$(awk 'NR == 1 {print $4}' watch.out)
ok "a session that is not contest's ($lsid, contest's $csid)" \
	test -n "$lsid" -a -n "$csid" -a "$lsid" != "$csid"
ok "led by the first load process, whose group they all share" \
	sh -c "awk '\$3 != $lsid' watch.out | grep -q . && exit 1; grep -q '^$lsid ' watch.out"
ok "the plan says so" grep -q "loads in a session of their own" sess.err
ok "both runs are valid" test "$(grep -c ' valid$' sess.err)" -eq 2
f=run/contest-results/sess.results
ok_eq "every run record says load_session=1" \
	"$(grep '^run ' $f | grep -c ' load_session=1 ')" 2
ok "the environment record too" sh -c "grep '^env ' $f | grep -q ' load_session=1 '"
ok_eq "nothing left behind" "$(procs_in "$rundir")" ""

# --- without: the loads stay in contest's session (the default) -----------
suite plain noload process_load
watch $pid
wait $pid
ok_eq "without it the suite exits 0" "$?" 0
csid=$(cat contest.sid 2>/dev/null)
ok "without it the loads share contest's session ($csid)" \
	sh -c "test -s watch.out && ! awk '{print \$4}' watch.out | grep -v -x -q '$csid'"
ok "and no run record carries load_session" \
	sh -c "! grep -q 'load_session' run/contest-results/plain.results"

# --- a configuration of its own: its own noload ---------------------------
(cd run && "$CONTEST" --scale 1 --lead-time 0.5 -n 1 --procs 4 -k plain --load-session \
	process_load >../mixed.out 2>../mixed.err)
ok_eq "a --load-session suite of process_load alone exits 0" "$?" 0
ok "it adds a noload of its own, the label's other noload being without it" \
	grep -q "(noload added: plain has no noload of this workload yet" mixed.err

# --- stopped on every exit path -----------------------------------------------
alive() {	# the watched load processes still alive
	for k in $(awk '{print $1}' watch.out); do
		kill -0 "$k" 2>/dev/null && printf ' %s' "$k"
	done
}
none_alive() {
	[ -z "$(alive)" ]
}
for sig in TERM KILL; do
	suite "$sig" --load-session noload process_load
	watch $pid
	ok "SIG$sig: the loads were running in their own session" test -s watch.out
	kill -$sig $pid
	wait $pid
	st=$?
	if [ $sig = TERM ]; then
		ok_eq "SIGTERM: contest exits 143" "$st" 143
	else
		ok_eq "SIGKILL: contest died of it" "$st" 137
	fi
	# SIGKILL: their death signal, and the guardian's kill of the group
	wait_until none_alive
	left=$(alive)
	ok_eq "SIG$sig: no load process outlives contest" "$left" ""
	ok_eq "SIG$sig: nothing left in the run directory" "$(procs_in "$rundir")" ""
done

# --- contest load: 0.3 s of it, which hops chunks by the thousand ---------------
(cd run && exec "$CONTEST" load process_load --procs 4 --load-session -t 0.3 \
	>../alone.out 2>../alone.err)
ok_eq "contest load --load-session exits 0" "$?" 0
ok "and prints the load's rate" grep -q "^rate: " alone.out
ok_eq "contest load leaves nothing behind" "$(procs_in "$rundir")" ""

done_testing
