#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 7's acceptance, end to end: quick suites of noload and process_load
# under two labels with the same settings (an A/A pair): the report flags
# neither label's rows against the other.  The JSON parses, the CSV has one
# row per label and run type, and the chart one bar per cell.  That a real
# difference is flagged, with its legend line, is t2012's: autogroup=1
# against 0 with the loads in a session of their own.  (This test had such
# a third label, with --load-session beside autogroup on; it tested the
# same effect as t2012, and a third of this test's time went to it.)
#
# Each label runs two suites of 2 rounds, in the order aa-1, aa-2, then
# aa-2, aa-1, so that a slow spell of a shared machine falls on both labels
# rather than on one and a steady drift cancels: with aa-1 always first, a
# CI run flagged the A/A pair's noload (1.6* against aa-1's).  The pair is
# checked at alpha 0.001: it has two rows, each with its tests, and at 0.05
# a chance flag somewhere comes up in about one run of ten.  When a flag
# shows, the test prints the report with --stats to say why.  The same for
# the latency probe's report (its light profile runs in every run): the
# pair's six p99 tests (three tasks, each Holm-adjusted over two run types)
# raise a false flag at 0.001 in at most 3 CI runs of 1000.  An A/A test
# needs no power, only enough runs for a test to be made (4 a label and run
# type), so the builds are small: --scale 4, a lead time of 0.2 s (3 rounds
# of --scale 6 before, and t2011 had a third label for the probe's pair).
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"
command -v "${CC:-cc}" >/dev/null || skip_all "no C compiler (${CC:-cc})"

mkdir run || exit 99
suite() {	# suite LABEL [OPTIONS...]
	label=$1
	shift
	(cd run && "$CONTEST" --quick --scale 4 --lead-time 0.2 -n 2 -k "$label" "$@" noload process_load \
		>"../$label.out" 2>"../$label.err")
	ok_eq "suite $label exits 0" "$?" 0
	ok_eq "suite $label (pass $pass): $((4 * pass)) valid runs" \
		"$(grep -c '^run .* valid=1 ' "run/contest-results/$label.results")" $((4 * pass))
}
pass=1
suite aa-1
suite aa-2
pass=2
suite aa-2
suite aa-1

cd run || exit 99
"$CONTEST" report aa-1 aa-2 >report 2>err
ok_eq "report exits 0" "$?" 0
ok "it has a noload and a process_load table" \
	sh -c "grep -q '^noload:\$' report && grep -q '^process_load:\$' report"
"$CONTEST" report --alpha 0.001 aa-1 aa-2 >report-aa 2>err
ok_eq "report --alpha 0.001 exits 0" "$?" 0
# the A/A pair: same settings, so aa-2 differs from aa-1 by chance only,
# and a false flag would be a test that flags anything
for t in noload process_load; do
	aa=$(sed -n "/^$t:\$/,/^\$/p" report-aa | grep '^aa-2 ')
	ok "A/A: aa-2's $t row is there and not flagged at alpha 0.001 ($aa)" \
		sh -c "[ -n '$aa' ] && ! echo '$aa' | grep -q '\\*' || { \"\$CONTEST\" report --stats --alpha 0.001 aa-1 aa-2; exit 1; }"
done
ok "the tests ran: the legend line says against what" \
	grep -q '^\* differs from aa-1 (Welch.s t-test, Holm-adjusted p < 0.001)' report-aa
"$CONTEST" report --latency --alpha 0.001 aa-1 aa-2 >latency-aa 2>err
ok_eq "report --latency --alpha 0.001 exits 0" "$?" 0
# the row's block: its name's line and the next two tasks' lines, in each
# run type's latency table; and the legend, so that the tests were made
ok "A/A: aa-2's latency rows are flagged nowhere at alpha 0.001" \
	sh -c "[ \$(grep -c '^aa-2 ' latency-aa) -eq 2 ] && ! grep -A2 '^aa-2 ' latency-aa | grep -q '\\*' &&
		grep -q '^\* p99 differs from aa-1.s' latency-aa || { cat latency-aa; exit 1; }"

"$CONTEST" report --format json >report.json 2>err
ok_eq "report --format json exits 0" "$?" 0
if command -v python3 >/dev/null; then
	ok "the JSON parses (python3's json)" python3 -c 'import json, sys; json.load(open(sys.argv[1]))' report.json
else
	skip "python3 is not installed: the JSON is not parsed"
fi

"$CONTEST" report --format csv >report.csv 2>err
ok_eq "report --format csv exits 0" "$?" 0
ok_eq "the CSV has a header and one line per label and run type" "$(wc -l <report.csv | tr -d ' ')" 5
if command -v python3 >/dev/null; then
	ok_eq "one row for each of the 2 labels x 2 run types (python3's csv)" "$(python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(len(rows), len({(r["label"], r["run_type"]) for r in rows}))' report.csv)" "4 4"
else
	skip "python3 is not installed: the CSV is not parsed"
fi

"$CONTEST" plot -o chart.svg >out 2>err
ok_eq "plot exits 0" "$?" 0
if command -v python3 >/dev/null; then
	ok "the chart parses as XML (python3's xml.etree)" \
		python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' chart.svg
elif command -v xmllint >/dev/null; then
	ok "the chart parses as XML (xmllint)" xmllint --noout chart.svg
else
	skip "neither python3 nor xmllint is installed: the chart is not parsed"
fi
ok_eq "one bar per cell" "$(grep -c '<rect class="bar"' chart.svg)" 4
ok_eq "nothing left in the work directory" "$(ls -A contest-work 2>/dev/null)" ""

done_testing
