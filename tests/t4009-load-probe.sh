#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# t4009-load-probe.sh - contest load NAME --probe: the latency probe's three
# tasks run beside the load as contest's children, in contest's session and
# a process group of their own, at nice 0 and SCHED_OTHER whatever the
# load's --load-nice and --load-session; they print one row each whose counts
# fit the time they ran; and none is left behind, SIGTERM included.  With
# contest run --probe, the run records carry the figures of the timed build.
# The light profile is the default; --probe=full does interbench's work;
# --no-probe runs none.
# No timing is asserted: only that the counts are possible.
. "$TOP_SRCDIR/tests/lib.sh"

command -v pgrep >/dev/null || skip_all "pgrep is not installed"
W=$T_DIR/w

stat_fields() {	# stat_fields PID N...: fields N... of /proc/PID/stat, read at once
	[ -n "$1" ] || return 1
	_p=$1
	shift
	sed 's/.*) //' "/proc/$_p/stat" 2>/dev/null |
		awk -v f="$*" '{ n = split(f, w, " ")
			for (i = 1; i <= n; i++) printf "%s%s", $(w[i] - 2), i < n ? " " : "\n" }'
}

probes_of() {	# probes_of PID: contest PID's probe processes
	pgrep -P "$1" '^probe-(audio|video|input)$'
}

three_probes() {	# three_probes PID
	[ "$(probes_of "$1" | wc -l)" = 3 ]
}

# term_when_probing PID WHAT: once contest PID runs the probe, SIGTERM it;
# it must exit 143 and leave no probe process
term_when_probing() {
	wait_until three_probes "$1"
	probes=$(probes_of "$1" | tr '\n' ' ')
	pgid=$(stat_fields "${probes%% *}" 5)
	kill -TERM "$1"
	wait "$1"
	ok_eq "$2, SIGTERM: contest exits 143" "$?" 143
	ok "$2: the probe was seen running ($probes)" test -n "$probes"
	ok "$2: no probe process is left" sh -c \
		'[ -z "$(pgrep -g "$1")" ] && for p in $2; do [ ! -e "/proc/$p" ] || exit 1; done' \
		sh "${pgid:-2147483647}" "$probes"
}

row() {	# row TASK: the table's row of TASK in out
	grep "^$1 " out
}

# ---- the table; --load-nice and --load-session move the load, not the probe --

# One run serves both options (spin_load keeps every CPU busy while it
# runs: a second run of it for --load-session alone was most of this
# test's CPU).  5 s: every figure is read while contest still runs; with
# 1 s a fast machine had contest gone before its own session was read, and
# a busy one before its probes were seen (3 s did for the figures without
# the sessions).
"$CONTEST" load spin_load -t 5 --probe --load-nice 10 --load-session --work-dir "$W" \
	>out 2>err &
pid=$!
csid=$(stat_fields $pid 6)
wait_until three_probes $pid
# The load first, and each process's fields in one read: the load stops when
# its 5 s are up, before the probe.  A CI run on a busy machine, reading the
# probes first and a field per read, found the load's nice but not its
# session: gone between two reads.
load=$(pgrep -x -P $pid spin_load | head -n 1)
set -- $(stat_fields "$load" 5 6 19)
lpgid=${1-} lsid=${2-} load_nice=${3-}
cpgid=$(stat_fields $pid 5)
: >procs
for p in $(probes_of $pid); do
	echo "$(cat /proc/$p/comm) $(stat_fields $p 4 5 6 19 41)" >>procs
done
sids=$(awk '{print $4}' procs | sort -u)
wait $pid
rc=$?
ok_eq "load spin_load -t 5 --probe --load-nice 10 --load-session: exit status" "$rc" 0
ok_eq "three probe processes, contest's children" \
	"$(awk -v p=$pid '$2 == p' procs | wc -l | tr -d ' ')" 3
ok_eq "one of each task" "$(awk '{print $1}' procs | sort | tr '\n' ' ')" \
	"probe-audio probe-input probe-video "
ok_eq "in contest's session" "$(awk -v s="$csid" '$4 != s' procs)" ""
ok_eq "in one process group" "$(awk '{print $3}' procs | sort -u | wc -l | tr -d ' ')" 1
ppgid=$(awk 'NR == 1 {print $3}' procs)
ok "of their own: neither contest's ($cpgid) nor the load's ($lpgid)" \
	test -n "$ppgid" -a "$ppgid" != "$cpgid" -a "$ppgid" != "$lpgid"
ok_eq "the load runs at its --load-nice" "$load_nice" 10
ok_eq "the probe at nice 0, SCHED_OTHER (policy 0)" \
	"$(awk '{print $5, $6}' procs | sort -u)" "0 0"
ok_eq "none is left" "$(pgrep -g "${ppgid:-2147483647}")" ""

ok "the load's figures come first" grep -q '^work: ' out
ok "the profile and calibration are printed" \
	grep -Eq '^probe: +light, calibration [0-9]+\.[0-9] iterations/us, CPU% [0-9]+\.[0-9]$' out
cal=$(sed -n 's/^probe: *light, calibration \([0-9.]*\).*/\1/p' out)
ok "and is positive ($cal)" awk -v c="${cal:-0}" 'BEGIN { exit !(c > 0) }'
ok "a table header" grep -Eq '^Task +Period +Work +Wakeups +p50 +p90 +p99 +p99\.9 +max +Miss%$' out
ok_eq "three rows" "$(grep -Ec '^(audio|video|input) ' out)" 3
num='[0-9]+\.[0-9]{3}'
for t in audio video input; do
	ok "$t: the row's shape" sh -c "grep -Eq '^$t +[0-9.-]+ +$num +[0-9]+ +$num +$num +$num +$num +$num +[0-9]+\\.[0-9]\$' out"
	ok "$t: p50 <= p90 <= p99 <= p99.9 <= max, Miss% from 0 to 100" sh -c "grep '^$t ' out |
		awk '{ exit !(\$5 <= \$6 && \$6 <= \$7 && \$7 <= \$8 && \$8 <= \$9 && \$5 > 0 && \$10 >= 0 && \$10 <= 100) }'"
done
ok_eq "the light profile's work per period, ms: audio, video, input" \
	"$(awk '/^(audio|video|input) / { printf "%s %s ", $1, $3 }' out)" \
	"audio 0.020 video 0.050 input 0.050 "

secs=$(sed -n 's/^seconds: *//p' out)
# wakeups TASK LOW HIGH: the task woke at least LOW and at most HIGH times
wakeups() {
	n=$(row "$1" | awk '{print $4}')
	awk -v n="${n:-0}" -v lo="$2" -v hi="$3" 'BEGIN { exit !(n >= lo && n <= hi) }'
}
# A task cannot wake more often than its deadlines come (one more for the
# edges, and the seconds are printed to 0.1 s: up to 0.05 s more); under
# load it may wake far less often (video, 40 % of a CPU, most), so the low
# bound is loose.
ok "audio woke about $secs s / 5 ms times ($(row audio | awk '{print $4}'))" \
	wakeups audio "$(awk -v s="$secs" 'BEGIN { print s / 0.005 / 10 }')" \
		"$(awk -v s="$secs" 'BEGIN { print (s + 0.05) / 0.005 + 2 }')"
ok "video woke about $secs s / 16.7 ms times ($(row video | awk '{print $4}'))" \
	wakeups video "$(awk -v s="$secs" 'BEGIN { print s / 0.0166667 / 20 }')" \
		"$(awk -v s="$secs" 'BEGIN { print (s + 0.05) / 0.0166667 + 2 }')"
ok "input woke between $secs s / 100 ms and / 10 ms times ($(row input | awk '{print $4}'))" \
	wakeups input "$(awk -v s="$secs" 'BEGIN { print s / 0.1 / 10 }')" \
		"$(awk -v s="$secs" 'BEGIN { print (s + 0.05) / 0.01 + 2 }')"

# --load-session, in the same run
ok_eq "--load-session --probe: exit status" "$rc" 0
ok "the load has a session of its own ($lsid, contest's $csid)" \
	test -n "$lsid" -a "$lsid" != "$csid"
ok_eq "the probe stays in contest's" "$sids" "$csid"
ok "and prints its table" grep -q '^audio ' out

# ---- --probe=full: interbench's work; by default the light probe; --no-probe --

"$CONTEST" load spin_load -t 0.5 --probe=full --work-dir "$W" >out 2>err
ok_eq "--probe=full: exit status" "$?" 0
ok_eq "the full profile, its work per period, ms: audio, video, input" \
	"$(awk '/^probe:/ { printf "%s ", $2 } /^(audio|video|input) / { printf "%s %s ", $1, $3 }' out)" \
	"full, audio 0.250 video 6.667 input 1.000 "
# (0.2 s: these two look at the probe line, printed whatever the time; the
# table of the full profile above wants a few wakeups of each task)
"$CONTEST" load spin_load -t 0.2 --work-dir "$W" >out 2>err
ok_eq "without --probe: exit status" "$?" 0
ok "the light probe by default" grep -Eq '^probe: +light, ' out
"$CONTEST" load spin_load -t 0.2 --no-probe --work-dir "$W" >out 2>err
ok_eq "--no-probe: exit status" "$?" 0
ok "no probe line, no table" sh -c "! grep -Eq '^(probe:|Task |audio )' out"

# ---- SIGTERM while the probe runs ----------------------------------------------

"$CONTEST" load spin_load -t 30 --probe --work-dir "$W" >out 2>err &
term_when_probing $! "load --probe"
ok "nothing of the work directory is left" sh -c "! ls -A '$W' 2>/dev/null | grep -q ."

# ---- contest run --probe: the figures go into the run records ---------------

command -v make >/dev/null || { skip "make is not installed: no suite"; done_testing; exit; }
mkdir run || exit 99
# (the smallest build: its tens of 5 ms periods are enough for the counts;
# only the build SIGTERM must find the probe beside, at the end, is --scale 2)
(cd run && "$CONTEST" --scale 1 -n 1 -k probed --probe noload >../suite.out 2>../suite.err)
ok_eq "run --probe noload: exit status" "$?" 0
ok "the plan names the probe" grep -q "latency probe: light (audio, video and input)" suite.err
rec=$(grep '^run ' run/contest-results/probed.results)
field() {	# field KEY: its value in the run record
	echo "$rec" | tr ' ' '\n' | sed -n "s/^$1=//p"
}
ok "the run is valid" sh -c "echo '$rec' | grep -q ' valid=1 '"
for k in probe_cal probe_cpu_ns probe_audio probe_video probe_input probe_audio_periods \
	probe_audio_misses probe_video_periods probe_video_misses probe_input_periods \
	probe_input_misses probe_profile probe_audio_work_ns probe_video_work_ns \
	probe_input_work_ns; do
	ok "the record has $k" test -n "$(field $k)"
done
elapsed=$(field elapsed_ns)
audio=$(field probe_audio | cut -d/ -f2)
periods=$(field probe_audio_periods)
# the build's seconds / 5 ms deadlines passed; the audio task woke for some
ok "audio's periods are the build's time / 5 ms ($periods, $elapsed ns)" awk -v p="${periods:-0}" \
	-v e="${elapsed:-0}" 'BEGIN { n = e / 5000000; exit !(n > 0 && p >= n * 0.99 - 3 && p <= n * 1.01 + 3) }'
ok "and it woke in at most as many ($audio)" awk -v w="${audio:-0}" -v p="${periods:-0}" \
	'BEGIN { exit !(w > 0 && w <= p && w >= p / 10) }'
(cd run && "$CONTEST" report probed >../report.out 2>../report.err)
ok_eq "report reads the store: exit status" "$?" 0
ok "with no damaged record" sh -c "! grep -q damaged report.err"

(cd run && "$CONTEST" --scale 1 -n 1 -k plain --no-probe noload >../plain.out 2>../plain.err)
ok_eq "run --no-probe: exit status" "$?" 0
ok "the plan says so" grep -q "latency probe: none (--no-probe)" plain.err
ok "no probe field in its record" sh -c "! grep -q 'probe_' run/contest-results/plain.results"

# SIGTERM during a timed build with the probe beside it
(cd run && exec "$CONTEST" --scale 2 -n 3 -k term --probe noload >../term.out 2>../term.err) &
term_when_probing $! "run --probe in a timed build"

done_testing
