#!/bin/sh
# Issue 12's acceptance, end to end: the probe sees a known effect.  Quick
# suites with --probe of noload and process_load under three labels,
# interleaved (two passes of each, so a slow spell falls on every label):
# "nice19" and "nice19-b" run the ring at --load-nice 19 (an A/A pair), and
# "nice-20" at --load-nice -20, where the ring's processes outweigh the
# probe's tasks (nice 0) some 90 to 1 and the tasks wake late.  The latency
# report against nice19: nice-20's process_load p99 is flagged and higher,
# for the audio task at least; the A/A row is flagged nowhere.  The tests
# run at alpha 0.001, so that the A/A pair's six tests (three tasks, two run
# types) raise a false flag about once in a hundred CI runs rather than once
# in six, while the effect (p99s tens of times apart) is still flagged.
# Runs alone after the other tests (Makefile.am), as t2008 does.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"
command -v "${CC:-cc}" >/dev/null || skip_all "no C compiler (${CC:-cc})"
[ "$(id -u)" = 0 ] || skip_all "not root: --load-nice -20 needs CAP_SYS_NICE"

mkdir run || exit 99
suite() {	# suite LABEL NICE
	(cd run && "$CONTEST" --quick --scale 9 -n 3 --probe -k "$1" --load-nice "$2" \
		noload process_load >"../$1.out" 2>"../$1.err")
	ok_eq "suite $1 (pass $pass) exits 0" "$?" 0
}
for pass in 1 2; do
	suite nice19 19
	suite nice-20 -20
	suite nice19-b 19
done
ok_eq "every run recorded the probe" \
	"$(cat run/contest-results/*.results | grep -c '^run .* valid=1 .* probe_cal=')" 36

cd run || exit 99
"$CONTEST" report --latency --alpha 0.001 nice19 nice-20 nice19-b >report 2>err
ok_eq "report --latency exits 0" "$?" 0
# process_load's audio line of a row: "NAME audio [6] p50 p99[*] ..."
audio() {
	sed -n '/^process_load latency/,/^$/p' report | grep "^$1  *audio "
}
set -- $(audio nice-20)
hot=$5
set -- $(audio nice19)
cool=$5
ok "nice -20's process_load audio p99 is flagged ($hot against $cool)" \
	sh -c "echo '$hot' | grep -q '\\*\$' || { cat report; \"\$CONTEST\" report --latency --format csv; exit 1; }"
ok "and it is the higher one" awk -v a="${hot%\*}" -v b="$cool" 'BEGIN { exit !(a > b) }'
ok "the A/A row is flagged nowhere" \
	sh -c "! grep -A2 '^nice19-b ' report | grep -q '\\*' || { cat report; exit 1; }"
ok "the legend says against what" \
	grep -q "^\* p99 differs from nice19's (Welch's t-test on the log of the runs' p99, Holm-adjusted p < 0.001)" report

done_testing
