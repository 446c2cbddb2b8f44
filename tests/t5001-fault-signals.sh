#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# SIGINT, SIGTERM and SIGHUP during a load's setup and the warm-up, and
# SIGINT during a timed run under each load: every child stopped and
# reaped, the scratch removed, earlier records intact, exit status 128 +
# signal, one line saying what was kept.  SIGTERM and SIGHUP in the timed
# build (and in every other step of a run) are t5010's.  The builds are
# --scale 2 (about a second): long enough for the poll, every 20 ms, to see
# the load and make running together.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"
need_spare_mem 1024
mkdir run || exit 99
rundir=$(cd run && pwd -P)

# processes left behind: any whose working directory is in run/
leftovers() {
	procs_in "$rundir"
}

# interrupt SIG WHEN LOAD [OPTIONS]: start a quick suite of LOAD under label L-$SIG,
# send SIG when WHEN holds ("setup": read_load's file is being written;
# "warmup": make runs, no load yet; "timed": the
# load's processes and make run), then check everything
interrupt() {
	sig=$1 when=$2 load=$3 extra=${4:-} label="$3-$1"
	(cd run && exec "$CONTEST" --quick --scale 2 --lead-time 0.2 -n 2 -k "$label" $extra noload "$load" \
		>"../$label.out" 2>"../$label.err") &
	pid=$!
	i=0 sent=no
	while [ $i -lt 6000 ] && kill -0 $pid 2>/dev/null; do
		case $when in
		setup) [ -n "$(find run/contest-work -name read_load.dat 2>/dev/null)" ] && sent=yes ;;
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
		grep -q "interrupted by SIG$sig: [0-9]* runs\{0,1\} kept in contest-results/$label.results" "$label.err"
	ok_eq "$sig during $when of $load: no process left" "$(leftovers)" ""
	ok "$sig during $when of $load: no scratch left" test ! -e run/contest-work
	if [ $when = timed ]; then
		# the noloads before it were stored whole and read back: the signal
		# may land in round 1 or, when the poll misses a short run, round 2
		"$CONTEST" report -d run/contest-results "$label" >rep 2>err
		nl=$(grep -c "^run .* type=noload " "run/contest-results/$label.results")
		ok "$sig during $when of $load: the records before it are intact" \
			sh -c "[ $nl -ge 1 ] && sed -n '/^noload:/,/^\$/p' rep | grep -q '^$label  *\[$nl\] ' &&
				! grep -q damaged err || { echo 'noload records: $nl'; cat rep err ../$label.err; exit 1; }"
	fi
}

# setup: read_load writes its file before the warm-up (a big one, to be caught)
interrupt HUP setup read_load "--io-size 1G"
interrupt INT warmup process_load
interrupt TERM warmup mem_load
# (list_load walks the source's src/, not /: the census of / before the
# suite, and the walks, were a third of this test's CPU; a small tree is
# listed again and again, so list_load still runs when the signal comes)
for load in process_load ctar_load xtar_load io_load read_load list_load mem_load; do
	case $load in
	list_load) interrupt INT timed $load "--root $TOP_SRCDIR/src" ;;
	*) interrupt INT timed $load ;;
	esac
done

# a report: it writes nothing, and dies of the signal like any filter
mkdir big || exit 99
for i in $(seq 1 400); do cat "$TOP_SRCDIR"/tests/data/lkml-2002/*.results; done >big/many.results
cp big/many.results many.before
# (an asynchronous command of a script ignores SIGINT: TERM it)
"$CONTEST" report -d big >/dev/null 2>big.err &
pid=$!
reading() { ls -l /proc/$pid/fd 2>/dev/null | grep -q 'many\.results$'; }
wait_until reading	# TERM while it reads the records
kill -s TERM $pid
wait $pid 2>/dev/null	# (the shell would say "Terminated")
rc=$?
ok_eq "TERM during a report (of 78,000 records): exit status" "$rc" 143
ok "TERM during a report: the results are untouched" cmp many.before big/many.results
ok_eq "TERM during a report: nothing new in the results directory" "$(ls big)" many.results

done_testing
