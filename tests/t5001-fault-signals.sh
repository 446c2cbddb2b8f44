#!/bin/sh
# SIGINT, SIGTERM and SIGHUP during the warm-up and during timed runs under
# each load: every child stopped and reaped, the scratch removed, earlier
# records intact, exit status 128 + signal, one line saying what was kept.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"
mkdir run || exit 99
rundir=$(cd run && pwd -P)

# processes left behind: any whose working directory is in run/
leftovers() {
	procs_in "$rundir"
}

# interrupt SIG WHEN LOAD: start a quick suite of LOAD under label L-$SIG,
# send SIG when WHEN holds ("warmup": make runs, no load yet; "timed": the
# load's processes and make run), then check everything
interrupt() {
	sig=$1 when=$2 load=$3 label="$3-$1"
	(cd run && exec "$CONTEST" --quick --scale 4 --lead-time 0.2 -n 2 -k "$label" noload "$load" \
		>"../$label.out" 2>"../$label.err") &
	pid=$!
	i=0 sent=no
	while [ $i -lt 6000 ] && kill -0 $pid 2>/dev/null; do
		case $when in
		warmup) pgrep -x -P $pid make >/dev/null && sent=yes ;;
		timed) pgrep -x -P $pid "$load" >/dev/null &&
		       pgrep -x -P $pid make >/dev/null && sent=yes ;;
		esac
		[ $sent = yes ] && { kill -s "$sig" $pid; break; }
		sleep 0.02
		i=$((i + 1))
	done
	wait $pid
	rc=$?
	case $sig in INT) want=130 ;; TERM) want=143 ;; HUP) want=129 ;; esac
	ok "$sig during $when of $load: the signal was sent" test $sent = yes
	ok_eq "$sig during $when of $load: exit status" "$rc" "$want"
	ok "$sig during $when of $load: one line says what was kept" \
		grep -q "interrupted by SIG$sig: [0-9]* runs kept in contest-results/$label.results" "$label.err"
	ok_eq "$sig during $when of $load: no process left" "$(leftovers)" ""
	ok "$sig during $when of $load: no scratch left" test ! -e run/contest-work
	if [ $when = timed ]; then
		# the noload before it was stored whole and reads back
		"$CONTEST" report -d run/contest-results "$label" >rep 2>err
		ok "$sig during $when of $load: the records before it are intact" \
			sh -c "grep -q '^$label  *\[1\] ' rep && ! grep -q damaged err"
	fi
}

interrupt INT warmup process_load
interrupt TERM warmup mem_load
for load in process_load ctar_load xtar_load io_load read_load list_load mem_load; do
	interrupt INT timed $load
done
interrupt TERM timed io_load
interrupt HUP timed process_load

done_testing
