#!/bin/sh
# Issue 12's acceptance, end to end: the probe sees a known effect.  Quick
# suites with --probe of process_load (and the noload contest adds to each)
# under three labels,
# interleaved (two passes of each, so a slow spell falls on every label):
# "nice19" and "nice19-b" run the ring at --load-nice 19 (an A/A pair), and
# "nice-20" at --load-nice -20, where the ring's processes outweigh the
# probe's tasks (nice 0) some 90 to 1 and the tasks wake late.  The latency
# report against nice19: nice-20's process_load p99 is flagged and higher,
# for one task at least (audio, video or input: which one shows it most
# depends on the machine), and never lower; the A/A row is flagged nowhere.  The tests
# run at alpha 0.001, so that the A/A pair's six tests (three tasks, two run
# types) raise a false flag about once in a hundred CI runs rather than once
# in six, while the effect is still flagged.  The build runs one job (-j 1):
# with 8 it kept both CPUs busy on its own, its jobs then delayed the tasks
# as much as the ring did (audio p99 7 ms under the nice 19 ring, 12 under
# nice -20) and the runs' p99s spread so wide that nice -20 went unflagged
# one run in two; with one job there is a CPU to spare but for the ring, and
# nice -20's video and input p99s were 4.6 and 8.2 times nice 19's (t 18.6,
# 13.4 over 6 runs a side), the A/A pair's within 1.1 (t under 1.5).
# Those figures are at --scale 9; --scale 7 and a lead time of 0.2 s keep
# the test to about 110 s instead of 142 (the suite's 10 minutes), and still
# flagged video and input (14.7 and 69.7 ms against 3.4 and 4.8); at
# --scale 5 a single task was flagged at a time, too close to none.
# Runs alone after the other tests (Makefile.am), as t2008 does.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"
command -v "${CC:-cc}" >/dev/null || skip_all "no C compiler (${CC:-cc})"
[ "$(id -u)" = 0 ] || skip_all "not root: --load-nice -20 needs CAP_SYS_NICE"

mkdir run || exit 99
suite() {	# suite LABEL NICE
	(cd run && "$CONTEST" --quick --scale 7 --lead-time 0.2 -j 1 -n 3 --probe -k "$1" --load-nice "$2" \
		process_load >"../$1.out" 2>"../$1.err")
	ok_eq "suite $1 (pass $pass) exits 0" "$?" 0
}
for pass in 1 2; do
	suite nice19 19
	suite nice-20 -20
	suite nice19-b 19
done
# contest adds a noload to every suite (a Ratio divides by its own
# session's), so each label has 6 noload and 6 process_load runs
ok_eq "every run recorded the probe" \
	"$(cat run/contest-results/*.results | grep -c '^run .* valid=1 .* probe_cal=')" 36

cd run || exit 99
"$CONTEST" report --latency --alpha 0.001 nice19 nice-20 nice19-b >report 2>err
ok_eq "report --latency exits 0" "$?" 0
# process_load's line of a row and task: "NAME TASK [6] p50 p99[*] ..."
# (the task's lines after the first have no name: the row's block)
line() {	# line ROW TASK
	sed -n '/^process_load latency/,/^$/p' report |
		awk -v row="$1" -v task="$2" '$1 == row { on = 1 } on && $0 ~ "^[^ ]" && $1 != row { on = 0 }
			on && $(NF - 6) == task { print $(NF - 3); exit }'
}
flagged=0 wrong=
for task in audio video input; do
	hot=$(line nice-20 "$task") cool=$(line nice19 "$task")
	case $hot in
	*\*) flagged=$((flagged + 1))
	      awk -v a="${hot%\*}" -v b="$cool" 'BEGIN { exit !(a > b) }' ||
		wrong="$wrong $task ($hot against $cool)" ;;
	esac
	echo "# $task p99: nice -20 $hot, nice 19 $cool"
done
ok "nice -20's process_load p99 is flagged for a task at least" \
	sh -c "[ $flagged -ge 1 ] || { cat report; exit 1; }"
ok_eq "and every flagged p99 is the higher one" "$wrong" ""
ok "the A/A row is flagged nowhere" \
	sh -c "! grep -A2 '^nice19-b ' report | grep -q '\\*' || { cat report; exit 1; }"
ok "the legend says against what" \
	grep -q "^\* p99 differs from nice19's (Welch's t-test on the log of the runs' p99, Holm-adjusted p < 0.001)" report

done_testing
