#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contest compare --vary: the built-in configurations that change only
# contest's own processes (load-nice, load-session) run and are recorded;
# those that change the machine are refused with the reason before any work
# where they cannot be made (no sched_ext, no debugfs slice, a scheduler the
# disk does not offer, not root), and change nothing then.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"
command -v pgrep >/dev/null || skip_all "pgrep is not installed"
mkdir run || exit 99
here=$(pwd -P)

# refused STATUS DESCRIPTION WANT ARGS...: refused with WANT and exit STATUS
# (2: the command line is wrong; 1: this machine cannot vary it), before any work
refused() {
	status=$1
	desc=$2
	want=$3
	shift 3
	compare refused "$@" -n 1 noload
	ok_eq "$desc: exit $status" "$?" "$status"
	ok "$desc: says '$want'" grep -q -F -- "$want" refused.err
	ok "$desc: before any work" test ! -e run/contest-results -a ! -e run/contest-work
}

ag=/proc/sys/kernel/sched_autogroup_enabled
ag0=$(cat $ag 2>/dev/null)

# --- refused ---------------------------------------------------------------------
if [ -e /sys/kernel/sched_ext/state ]; then
	skip "this kernel has sched_ext: its refusal cannot be seen here"
else
	refused 1 "sched_ext on a kernel without it" \
		"--vary sched_ext: this kernel has no sched_ext (/sys/kernel/sched_ext/state is absent" \
		--vary sched_ext=none,scx_lavd
	ok "and the environment records say it is absent" \
		sh -c "'$CONTEST' env | grep -q '^sched_ext: *absent$'"
	ok "its enable_seq too" sh -c "'$CONTEST' env | grep -q '^sched_ext_enable_seq: *absent$'"
fi
if [ -e /sys/kernel/debug/sched/base_slice_ns ]; then
	skip "debugfs shows base_slice_ns here: its refusal cannot be seen"
else
	refused 1 "slice without base_slice_ns" \
		"--vary slice: cannot read /sys/kernel/debug/sched/base_slice_ns" \
		--vary slice=3000000,4000000
fi
refused 2 "an unknown key" "--vary wants KEY=V1,V2 with KEY one of autogroup, iosched" \
	--vary colour=red,blue
refused 2 "autogroup=2" "--vary autogroup takes 0 and 1, not '2'" --vary autogroup=0,2 \
	--load-session
# (a dry run: were it not refused, the plan only, the machine untouched)
refused 2 "autogroup without --load-session" "--vary autogroup without --load-session would measure nothing: the loads and the build run in contest's session, so in one scheduling group whether autogroup is on or off" \
	--vary autogroup=0,1 --dry-run
ok "and it says the fix" grep -q -F "add --load-session, which runs the loads in a session of their own" \
	refused.err
ok_eq "autogroup untouched" "$(cat $ag 2>/dev/null)" "$ag0"
refused 2 "one value" "a comparison needs two configurations or more, not 1" --vary load-nice=5
refused 2 "a value twice" "configuration 'load-nice=5' again" --vary load-nice=5,5
refused 2 "load-nice out of range" "--vary load-nice takes nice values from -20 to 19, not '20'" \
	--vary load-nice=0,20
refused 2 "load-nice with --load-nice" "--vary load-nice and --load-nice" \
	--vary load-nice=0,5 --load-nice 3
refused 2 "load-session with --load-session" "--vary load-session and --load-session" \
	--vary load-session=0,1 --load-session
sched=$(cd run && "$CONTEST" env | sed -n 's/^io_scheduler: *//p')
if [ -z "$sched" ] || [ "$sched" = absent ]; then
	skip "the work directory has no I/O scheduler here"
else
	refused 2 "a scheduler the disk does not offer" "does not offer 'no-such-sched'" \
		--vary iosched=$sched,no-such-sched
fi
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && [ -n "$ag0" ]; then
	chown 65534 run	# nobody's: contest refuses a directory another user can write
	(cd run && exec setpriv --reuid=65534 --regid=65534 --clear-groups "$CONTEST" compare \
		--vary autogroup=0,1 --load-session --scale 2 -n 1 noload >../user.out 2>../user.err)
	ok_eq "autogroup as another user: exit 1" "$?" 1
	ok "which says it needs root" grep -q "cannot change $ag: Permission denied (it needs root)" user.err
	ok "before any work" test ! -e run/contest-results -a ! -e run/contest-work
	chown 0 run
else
	skip "not root, no setpriv or no autogroup: the refusal to a user cannot be tried"
fi
ok_eq "autogroup is as it was" "$(cat $ag 2>/dev/null)" "$ag0"

# --- load-nice: the loads' nice in each configuration ------------------------------
# note the nice of contest's process_load children (stat field 19) while it runs
running() {	# running PID: alive and not yet a zombie waiting for us
	st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
	[ -n "$st" ] && [ "$st" != Z ]
}
nices() {
	while running "$1"; do
		for k in $(pgrep -x -P "$1" process_load); do
			sed 's/.*) //' "/proc/$k/stat" 2>/dev/null | cut -d' ' -f17
		done
		sleep 0.1
	done | sort -u -n | tr '\n' ' '
}
(cd run && exec "$CONTEST" compare --vary load-nice=0,7 --scale 2 --lead-time 0.5 -n 1 \
	--procs 2 process_load >../nice.out 2>../nice.err) &
pid=$!
seen=$(nices $pid)
wait $pid
ok_eq "load-nice=0,7 exits 0" "$?" 0
# nice 0 leaves the loads at contest's own nice (this test's)
base=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f17)
ok_eq "the loads ran at nice $base (contest's own) and at nice 7" "$seen" \
	"$(printf '%s\n' "$base" 7 | sort -u -n | tr '\n' ' ')"
ok_eq "four valid runs" "$(grep -c ' valid$' nice.err)" 4
r=run/contest-results
ok "load-nice=7's environment record says load_nice=7" \
	sh -c "grep '^env ' '$r/load-nice%3D7.results' | grep -q ' load_nice=7 '"
ok "and its setup text" \
	sh -c "grep '^run ' '$r/load-nice%3D7.results' | grep -q ' config_setup=--load-nice%207 '"
ok "load-nice=0's says load_nice=0" \
	sh -c "grep '^env ' '$r/load-nice%3D0.results' | grep -q ' load_nice=0 '"
ok "the table has both rows" \
	sh -c "grep -q '^load-nice=0 ' nice.out && grep -q '^load-nice=7 ' nice.out"
ok "the plan of one round says it cannot test, each configuration on one noload" grep -q \
	"note: one round: this suite alone cannot test a difference (a test takes 2 valid runs on a side), and each configuration has one noload, on which all its Ratios rest" \
	nice.err

# --- load-session ---------------------------------------------------------------------
compare session --vary load-session=0,1 -n 1 --procs 2 -d sess process_load
ok_eq "load-session=0,1 exits 0" "$?" 0
ok_eq "load-session=1's runs have their own session" \
	"$(grep '^run ' 'run/sess/load-session%3D1.results' | grep -c ' load_session=1 ')" 2
ok_eq "load-session=0's do not" \
	"$(grep '^run ' 'run/sess/load-session%3D0.results' | grep -c ' load_session=1 ')" 0
ok_eq "nothing left in the run directory" "$(procs_in "$here/run")" ""

done_testing
