#!/bin/sh
# The golden report: records built from the figures Con Kolivas posted to
# LKML in November 2002 (../shared/reference/lkml-2002-contest-tables.txt;
# tests/data/make-lkml-2002.py made them) reproduce every cell of his tables.
. "$TOP_SRCDIR/tests/lib.sh"

data="$TOP_SRCDIR/tests/data"
cp -r "$data/lkml-2002" results
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
ok "every section, row and cell equals the 2002 table" diff -u "$data/lkml-2002.expected" collapsed
ok "no '*': the reference has one run, so no test is made" sh -c "! grep -q '[*]' tables"
ok_eq "the notes: the legend says why, then the noise floor of each kernel" "$(cat notes)" \
"No significance test against ref-2.4.18: fewer than 2 valid runs on a side
2.4.18               noise: 0.0% over 5 runs
2.4.19               noise: 0.0% over 5 runs
2.5.46               noise: 0.0% over 2 runs
2.5.46-mm1           noise: 0.0% over 5 runs
2.5.47               noise: 0.0% over 3 runs
2.5.47-mm1           noise: 0.0% over 5 runs"
ok_eq "nine tables" "$(grep -c '^[a-z_]*:$' out)" 9
ok "the reference label is not a row" sh -c "! grep -q ref-2.4.18 tables"
ok "no tabs" sh -c "! grep -q '	' out"
ok "tables at most 72 columns, notes at most 80" \
	sh -c "! grep -q '.\{73\}' tables && ! grep -q '.\{81\}' notes"
ok "columns aligned: every table line is as long as its header" \
	sh -c "awk '/^Kernel/{w=length(\$0); next} /^\$/||/:\$/{next} length(\$0)!=w{exit 1}' tables"
ok "header as in 2002" grep -q "^Kernel               \[runs\]   Time  CPU%  Loads  LCPU%  Ratio$" out

# the figures were typed in as means: identical runs, no spread, no test
"$CONTEST" report -d results 2.4.18 2.5.47 >own 2>err
ok "runs without spread: no test, and the legend says why" \
	grep -q "^No significance test against 2.4.18: no spread on either side$" own

# without --baseline each kernel divides by its own noload (0.6x semantics)
"$CONTEST" report -d results 2.4.18 >own 2>err
ok "own-noload Ratio: 2.4.18 noload is 1.00" grep -q "^2.4.18  *\[5\]  *71.7  *93  *0  *0  *1.00$" own
ok "own-noload Ratio: 2.4.18 process_load is 109.5/71.7 = 1.53" \
	grep -q "^2.4.18  *\[3\]  *109.5 .* 1.53$" own

done_testing
