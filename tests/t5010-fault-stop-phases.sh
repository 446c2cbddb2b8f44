#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A stop signal in every step of a run - the clean, the flush, the spawn of
# the load, the lead time, the build, the record - in every output mode (a
# terminal, plain, --quiet) ends the suite at once, with the runs completed
# before it kept.  The build turns into a 300 s sleep once the signal is
# sent: a contest that misses the signal until the build ends is still
# running 60 s later.  The steps are held by tests/contest-hooked
# (CONTEST_TEST_HOOK, proc.h's test_hook): it writes its pid and waits on a
# FIFO while the test sends the signal.
. "$TOP_SRCDIR/tests/lib.sh"

[ -x "${CONTEST_HOOKED:-}" ] || skip_all "tests/contest-hooked is not built"
command -v script >/dev/null || skip_all "script (util-linux) is not installed"
mkdir run tree hook || exit 99
mkfifo hook/go || exit 99
top=$(pwd -P)
# quick, but a 300 s sleep once ../slow or ../slow-N (the Nth build) exists
cat >tree/build.sh <<'EOF'
n=$(($(cat ../builds 2>/dev/null || echo 0) + 1))
echo $n >../builds
if [ -e ../slow ] || [ -e ../slow-$n ]; then
	echo $$ >../sleeper.tmp && mv ../sleeper.tmp ../sleeper
	exec sleep 300
fi
EOF
cat >suite.sh <<EOF
cd '$top/run' && exec '$CONTEST_HOOKED' -w 'cmd:$top/tree' --build-cmd 'sh build.sh' \\
	--clean-cmd true --lead-time 0.2 -n 2 "\$@" noload spin_load
EOF

# start MODE LABEL: the suite in the background, its output in LABEL.err
start() {
	rm -f builds slow slow-* sleeper hook/pid
	case $1 in
	terminal) TERM=xterm CONTEST_SPIN_FAULT=idle script -qec "sh '$top/suite.sh' -k $2" /dev/null \
			>"$2.err" 2>&1 </dev/null & ;;
	plain) CONTEST_SPIN_FAULT=idle sh suite.sh -k "$2" >"$2.out" 2>"$2.err" & ;;
	quiet) CONTEST_SPIN_FAULT=idle sh suite.sh --quiet -k "$2" >"$2.out" 2>"$2.err" & ;;
	esac
	bg=$!
}

alive() {	# alive PID: running, and not a zombie
	state=$(sed 's/.*) \(.\).*/\1/' "/proc/$1/stat" 2>/dev/null)
	[ -n "$state" ] && [ "$state" != Z ]
}

# finish NAME SIG LABEL PID RECORDS: after SIG went to contest (PID), it
# ends within 60 s (not 300) with status 128 + SIG, says what it kept, and
# kept RECORDS runs, leaving no process behind
finish() {
	name=$1 sig=$2 label=$3 pid=$4 want=$5 failed=$T_FAILED
	i=0
	while alive "$pid" && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	ok "$name: contest ends before the build would (in $((i / 10)) s)" sh -c "! kill -0 $pid 2>/dev/null"
	kill -s KILL "$pid" 2>/dev/null
	wait $bg
	rc=$?
	case $sig in INT) code=130 ;; TERM) code=143 ;; HUP) code=129 ;; esac
	ok_eq "$name: exit status" "$rc" "$code"
	ok "$name: one line says what was kept" \
		grep -q "interrupted by SIG$sig: $want runs\{0,1\} kept in contest-results/$label.results" \
		"$label.err"
	ok_eq "$name: the completed runs are stored" \
		"$(grep -c '^run ' "run/contest-results/$label.results" 2>/dev/null)" "$want"
	ok_eq "$name: no process left" "$(procs_in "$top/run"; procs_in "$top/tree")" ""
	if [ "$mode" = terminal ]; then	# (the live line erases itself)
		ok "$name: contest saw a terminal" grep -q "$(printf '\033')\[K" "$label.err"
	fi
	[ $T_FAILED = $failed ] || tail -5 "$label.err" | sed 's/^/#   /'
}

n=0
for mode in terminal plain quiet; do
	# POINT:N:RECORDS - the Nth time contest passes POINT, and the runs
	# stored before the stop.  The runs: noload, then spin_load (an idle
	# one), in round 1 and round 2.  The latency probe (on by default) is
	# spawned in every run, after the load: the second spawn is spin_load's.
	for at in clean:3:2 flush:3:2 spawn:2:1 lead:1:1 build:2:1 record:2:2; do
		point=${at%%:*} want=${at##*:} nth=${at#*:}
		nth=${nth%:*}
		n=$((n + 1))
		case $((n % 3)) in 0) sig=INT ;; 1) sig=TERM ;; 2) sig=HUP ;; esac
		label=$mode-$point
		CONTEST_TEST_HOOK=$point:$nth CONTEST_TEST_HOOK_DIR=$top/hook
		export CONTEST_TEST_HOOK CONTEST_TEST_HOOK_DIR
		start "$mode" "$label"
		unset CONTEST_TEST_HOOK CONTEST_TEST_HOOK_DIR
		if ! wait_until test -s hook/pid; then
			ok "$mode, $sig in $point: contest reached it" false
			kill -s TERM $bg; wait $bg
			continue
		fi
		pid=$(cat hook/pid)
		touch slow
		kill -s "$sig" "$pid"
		timeout 60 sh -c 'echo go >hook/go'	# (contest waits to read it)
		finish "$mode, $sig in $point" "$sig" "$label" "$pid" "$want"
	done
	# the build's own wait, without a hook: the signal comes while contest
	# waits for the third build (the warm-up, noload, spin_load's)
	n=$((n + 1))
	case $((n % 3)) in 0) sig=INT ;; 1) sig=TERM ;; 2) sig=HUP ;; esac
	label=$mode-wait
	start "$mode" "$label"
	touch slow-3
	if wait_until test -s sleeper; then
		# contest's child leads the build's process group
		pg=$(sed 's/.*) . [0-9]* \([0-9]*\).*/\1/' "/proc/$(cat sleeper)/stat")
		pid=$(sed 's/.*) . \([0-9]*\).*/\1/' "/proc/$pg/stat")
		kill -s "$sig" "$pid"
		finish "$mode, $sig in the build's wait" "$sig" "$label" "$pid" 1
	else
		ok "$mode, $sig in the build's wait: the build ran" false
		kill -s TERM $bg; wait $bg
	fi
done

done_testing
