#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The golden report: records built from the figures Con Kolivas posted to
# LKML in November 2002 (tests/data/make-lkml-2002.py made them from
# ../shared/reference/lkml-2002-contest-tables.txt) reproduce every cell of
# his tables.  Each row's runs differ, their means being his figures, so the
# averaging is what is checked.  The tables are compared with the posted copy
# itself when it is beside the source tree (as in a checkout next to shared/,
# and in CI), else with the committed tests/data/lkml-2002.expected.
. "$TOP_SRCDIR/tests/lib.sh"

data="$TOP_SRCDIR/tests/data"
posted="$TOP_SRCDIR/../shared/reference/lkml-2002-contest-tables.txt"
if [ -r "$posted" ]; then
	# the table lines, as make-lkml-2002.py reads them
	grep -E '^[a-z_]+:$|^Kernel \[runs\]|^[^ ]+ \[[0-9]+\] [0-9.]+ [0-9]+ [0-9]+ [0-9]+ [0-9.]+$' \
		"$posted" >expected
	from="the posted copy"
	ok "the committed copy is the posted tables" cmp expected "$data/lkml-2002.expected"
else
	cp "$data/lkml-2002.expected" expected
	from="the committed copy"
	echo "# no $posted"
fi
echo "# the expected tables: $from"
ok_eq "the expected tables: 9 sections, 54 rows" \
	"$(grep -c ':$' expected) $(grep -c '^[^ ]* \[[0-9]*\] ' expected)" "9 54"

cp -r "$data/lkml-2002-runs" results
ok "the runs differ: 2.4.18's five noload Times are five" \
	test "$(grep ' type=noload ' results/2.4.18.results | sed 's/.* elapsed_ns=\([0-9]*\) .*/\1/' |
		sort -u | wc -l)" -eq 5
# his Ratio divided by one reference noload time of about 71.4 s
"$CONTEST" report -d results --baseline ref-2.4.18 \
	2.4.18 2.4.19 2.5.46 2.5.46-mm1 2.5.47 2.5.47-mm1 >out 2>err
ok_eq "report exits 0" "$?" 0
ok "nothing on stderr" test ! -s err

# the tables, then the notes under them (from the first line that is no
# title, header, row or blank)
awk '/^[a-z_]+:$/ || /^Kernel / || /^[^ ]+ +\[[0-9]+\] / || /^$/ { print; next } { exit }' out >tables
sed -n "$(($(wc -l <tables) + 1)),\$p" out >notes
# the posted copy has runs of blanks collapsed; so do we, then compare
tr -s ' ' <tables | grep -v '^$' >collapsed
ok "every section, row and cell equals the 2002 table ($from)" diff -u expected collapsed
ok "no '*': the reference has one run, so no test is made" sh -c "! grep -q '[*]' tables"
# the noise: the CV of each kernel's noload Times (make-lkml-2002.py prints
# them, by Python's statistics.stdev)
ok_eq "the notes: the legend says why, then the noise floor of each kernel" "$(cat notes)" \
"No significance test against ref-2.4.18: fewer than 2 valid runs on a side
2.4.18               noise: 1.7% over 5 runs
2.4.19               noise: 1.7% over 5 runs
2.5.46               noise: 1.4% over 2 runs
2.5.46-mm1           noise: 1.7% over 5 runs
2.5.47               noise: 1.3% over 3 runs
2.5.47-mm1           noise: 1.7% over 5 runs"
ok_eq "nine tables" "$(grep -c '^[a-z_]*:$' out)" 9
ok "the reference label is not a row" sh -c "! grep -q ref-2.4.18 tables"
ok "no tabs" sh -c "! grep -q '	' out"
ok "tables at most 72 columns, notes at most 80" \
	sh -c "! grep -q '.\{73\}' tables && ! grep -q '.\{81\}' notes"
ok "columns aligned: every table line is as long as its header" \
	sh -c "awk '/^Kernel/{w=length(\$0); next} /^\$/||/:\$/{next} length(\$0)!=w{exit 1}' tables"
ok "header as in 2002" grep -q "^Kernel               \[runs\]   Time  CPU%  Loads  LCPU%  Ratio$" out

# the mean, not the median (72.06) nor a run: Time 71.7, sd 0.717 x
# sqrt(11.5 / 4) = 1.2157 (Python: statistics.stdev)
"$CONTEST" report -d results --stats 2.4.18 >own 2>err
ok "--stats: 2.4.18 noload, mean 71.7 and sd 1.2 of five different runs" \
	grep -q "^2.4.18  *\[5\]   71.7   1.2    93 " own
# with spread on both sides, 2.5.47 is tested against 2.4.18
"$CONTEST" report -d results 2.4.18 2.5.47 >own 2>err
ok "runs with spread: the legend of the test" \
	grep -qx "\* differs from 2.4.18 (Welch's t-test, Holm-adjusted p < 0.05)" own
ok "io_load: 165.9 s against 474.1 s, starred" grep -q "^2.5.47  *\[3\]  165.9\* " own
ok "read_load: 103.4 s against 102.3 s, within the noise" grep -q "^2.5.47  *\[3\]  103.4  " own
# and how large a change each test could have found: nine run types, wrapped
# for a mail under the legend, a run type's figure never cut
awk '/^smallest detectable change: / { on = 1; print; next } on && /^  / { print; next } { on = 0 }' \
	own >detectable
ok_eq "the smallest detectable change: every run type, on 3 lines" \
	"$(wc -l <detectable | tr -d ' '):$(tr '\n' ' ' <detectable | sed 's/^smallest detectable change://' |
	   tr ',' '\n' | grep -c '^ *[a-z_]* [0-9]*\.[0-9]%  *$\|^ *[a-z_]* [0-9]*\.[0-9]%$')" "3:9"
ok "its lines within a mail's 72 columns" sh -c "! grep -q '.\{73\}' detectable"
# the same figures typed in as means (tests/data/lkml-2002): identical runs,
# no spread, no test
"$CONTEST" report -d "$data/lkml-2002" 2.4.18 2.5.47 >own 2>err
ok "runs without spread: no test, and the legend says why" \
	grep -q "^No significance test against 2.4.18: no spread on either side$" own
ok "the means typed in give the same tables" \
	sh -c "\"\$CONTEST\" report -d '$data/lkml-2002' --baseline ref-2.4.18 \
		2.4.18 2.4.19 2.5.46 2.5.46-mm1 2.5.47 2.5.47-mm1 | grep ' \[[0-9]*\] ' >means &&
		grep ' \[[0-9]*\] ' out | cmp - means"

# without --baseline each kernel divides by its own noload (0.6x semantics)
"$CONTEST" report -d results 2.4.18 >own 2>err
ok "own-noload Ratio: 2.4.18 noload is 1.00" grep -q "^2.4.18  *\[5\]  *71.7  *93  *0  *0  *1.00$" own
ok "own-noload Ratio: 2.4.18 process_load is 109.5/71.7 = 1.53" \
	grep -q "^2.4.18  *\[3\]  *109.5 .* 1.53$" own

# the example of README.md and the man page is what contest prints (it showed
# 1.16, the 2002 Ratio over 2.4.18's noload, for 2.5.47-mm1's 83.0 / 73.6)
"$CONTEST" report -d "$data/lkml-2002" 2.4.18 2.5.47-mm1 2>/dev/null |
	sed -n '/^process_load:$/,/^$/p' | sed '/^$/d' >example
ok "the example has its two rows" test "$(wc -l <example)" -eq 4
# the first table of each
awk '/^process_load:$/ { on = 1 } on && /^```$/ { exit } on' "$TOP_SRCDIR/README.md" >readme
ok "README.md's example is what contest prints" cmp example readme
awk '/^process_load:$/ { on = 1 } on && /^\.ft$/ { exit } on' "$TOP_SRCDIR/docs/contest.1" |
	sed 's/\\-/-/g' >man
ok "the man page's example is what contest prints" cmp example man

done_testing
