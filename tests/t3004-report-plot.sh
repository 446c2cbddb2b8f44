#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contest plot: a self-contained SVG of the Ratio per run type, checked
# against the report of the same results: it parses as XML, has one bar per
# cell of the tables with that cell's Ratio, a '*' where the csv says Time
# differs significantly, whiskers, an axis and a legend.
. "$TOP_SRCDIR/tests/lib.sh"

data="$TOP_SRCDIR/tests/data/lkml-2002"

if command -v python3 >/dev/null && python3 -c 'import xml.etree.ElementTree' 2>/dev/null; then
	parser=python3
elif command -v xmllint >/dev/null; then
	parser=xmllint
else
	parser=""
fi
parses() {	# parses FILE: well-formed XML
	case $parser in
	python3) python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$1" ;;
	xmllint) xmllint --noout "$1" ;;
	esac
}
check_xml() {	# check_xml FILE WHAT
	if [ -n "$parser" ]; then
		ok "$2 parses as XML ($parser)" parses "$1"
	else
		skip "neither python3's xml.etree nor xmllint is installed: $2 not parsed"
	fi
}

# "row|type|ratio" for every cell of the text tables with a Ratio
cells() {	# cells REPORT-ARGS...
	"$CONTEST" report "$@" 2>/dev/null | awk '
		/^[a-z_]*:$/ { type = substr($0, 1, length($0) - 1); next }
		/^Kernel / { intable = 1; next }
		NF == 0 { intable = 0; next }
		intable && $NF != "-" {
			name = ""
			for (i = 1; $i !~ /^\[[0-9]+\]$/; i++)
				name = name (i > 1 ? " " : "") $i
			sub(/ \(base\)$/, "", name)	# the baseline row, marked
			sub(/\*$/, "", $NF)
			print name "|" type "|" $NF
		}' | sort
}
# the same from the chart's bars
bars() {	# bars SVG
	sed -n 's/.*<rect class="bar" data-row="\([^"]*\)" data-type="\([^"]*\)" data-ratio="\([0-9.]*\)".*/\1|\2|\3/p' "$1" |
		awk -F'|' '{ printf "%s|%s|%.2f\n", $1, $2, $3 }' | sort
}

"$CONTEST" plot -d "$data" -o chart.svg >out 2>err
ok_eq "plot -o FILE exits 0" "$?" 0
ok "it writes nothing on stdout" test ! -s out
ok "the chart is there, and no temporary file" sh -c "test -s chart.svg && ! ls chart.svg?* 2>/dev/null"
check_xml chart.svg "the chart"
ok "it is SVG" grep -q '<svg xmlns="http://www.w3.org/2000/svg"' chart.svg
ok "self-contained: no script, no link, no external reference" \
	sh -c "! grep -q -i '<script\|href\|url(\|@import' chart.svg"
cells -d "$data" >want
bars chart.svg >got
ok "the report has cells to compare ($(wc -l <want))" test "$(wc -l <want)" -gt 20
ok_eq "one bar per cell, with its Ratio (row, run type, Ratio as the table shows it)" \
	"$(cat got)" "$(cat want)"
ok "whiskers: the 95% intervals" grep -q '<path class="whisker"' chart.svg
ok "an axis with ticks" sh -c "grep -q '<line class=\"axis\"' chart.svg && test \$(grep -c '<line class=\"grid\"' chart.svg) -ge 3"
ok "the run types under the axis" grep -q '<text class="type" [^>]*>process_load</text>' chart.svg
ok_eq "a legend key per row" "$(grep -c '<rect class="key"' chart.svg)" \
	"$(cut -d'|' -f1 want | sort -u | wc -l | tr -d ' ')"
ok "the legend says what the whiskers mean" grep -q 'whiskers: 95% interval' chart.svg
# one run a cell there: no test was made, and the chart says so and why, as
# the text report does (it said "(none does)" as if a test had found nothing)
ok_eq "no test made: the legend says so and why, as the report does" \
	"$(sed -n 's/.*>\(No significance test[^<]*\)<.*/\1/p' chart.svg)" \
	"$("$CONTEST" report -d "$data" 2>/dev/null | grep '^No significance test')"
ok "and no '(none does)'" sh -c "! grep -q 'none does' chart.svg"

# results with spread, significant differences and two configurations of a
# label: the significant bars are those the csv says differ on Time
stats="$TOP_SRCDIR/tests/data/stats"
"$CONTEST" plot -d "$stats" -o stats.svg >/dev/null 2>&1
check_xml stats.svg "a chart with significant cells"
ok_eq "one bar per cell there too" "$(bars stats.svg)" "$(cells -d "$stats")"
"$CONTEST" report -d "$stats" --format csv >csv 2>/dev/null
col=$(head -n 1 csv | tr ',' '\n' | grep -n -x 'time_significant' | cut -d: -f1)
nsig=$(awk -F, -v c="${col:-0}" 'NR > 1 && c && $c == 1' csv | wc -l | tr -d ' ')
ok "some cells differ significantly on Time ($nsig)" test "$nsig" -gt 0
ok_eq "one '*' per such cell" "$(grep -c '<text class="sig"' stats.svg)" "$nsig"
# Loads too: a load the kernel starved (Loads 52* in the table) is marked
lcol=$(head -n 1 csv | tr ',' '\n' | grep -n -x 'loads_significant' | cut -d: -f1)
nlsig=$(awk -F, -v c="${lcol:-0}" 'NR > 1 && c && $c == 1' csv | wc -l | tr -d ' ')
neither=$(awk -F, -v c="${col:-0}" -v l="${lcol:-0}" 'NR > 1 && c && l && ($c == 1 || $l == 1)' csv |
	  wc -l | tr -d ' ')
ok "some cells differ significantly on Loads ($nlsig)" test "$nlsig" -gt 0
ok_eq "one 'L' per such cell" "$(grep -c '<text class="sig-loads"' stats.svg)" "$nlsig"
ok_eq "and one outlined bar per cell that differs on either" \
	"$(grep -c '<rect class="bar" [^>]*stroke="black"' stats.svg)" "$neither"
ok "the legend says what L means" grep -q 'L and outline: Loads differ' stats.svg
ok "new process_load's tooltip: Loads differ" \
	grep -q 'new process_load: Ratio [^<]*Loads differ significantly</title>' stats.svg

# the baseline not among the labels shown: its runs are tested against all
# the same (they were not: "(none does)")
"$CONTEST" plot -d "$stats" -o base.svg --baseline base new >/dev/null 2>&1
ok "--baseline base new: new io_load's Time differs from base's" \
	grep -q '<title>new io_load: Ratio [^<]*Time differs significantly</title>' base.svg
ok "a '*' and the legend" sh -c "grep -q '<text class=\"sig\"' base.svg &&
	grep -q 'Time differs from base.s;' base.svg"
ok "a row with its loads in a session of their own says so in the legend" \
	grep -q '>mix (2) (loads in a session of their own)<' stats.svg
ok "the baseline row says so" grep -q '>base (baseline)<' stats.svg

"$CONTEST" plot -d "$data" >stdout.svg 2>err
ok_eq "without -o: exits 0" "$?" 0
ok "the same chart on stdout" cmp -s stdout.svg chart.svg
"$CONTEST" plot -d "$data" -o - >dash.svg 2>err
ok "-o - is stdout too" cmp -s dash.svg chart.svg

"$CONTEST" plot -d "$data" -o two.svg 2.5.47 2.4.18 >/dev/null 2>&1
ok_eq "LABEL...: only those rows" "$(bars two.svg | cut -d'|' -f1 | sort -u | tr '\n' ' ')" "2.4.18 2.5.47 "
ok_eq "their cells, one bar each" "$(bars two.svg)" "$(cells -d "$data" 2.5.47 2.4.18)"
ok "the first label named is the baseline of the tests" grep -q 'test against 2.5.47:' two.svg

# labels that need escaping, from a real (tiny) suite
mkdir wl
"$CONTEST" -w cmd:wl --build-cmd 'sleep 0.1' --clean-cmd true -n 2 -k "a&b<c>'\"" \
	noload cacherun >/dev/null 2>&1
"$CONTEST" plot -o esc.svg >/dev/null 2>err
ok_eq "a label with & < > ' \": exits 0" "$?" 0
check_xml esc.svg "that chart"
ok "the label is escaped" grep -q 'data-row="a&amp;b&lt;c&gt;&apos;&quot;"' esc.svg

"$CONTEST" plot -d "$data" -o nodir/chart.svg >out 2>err
ok_eq "an unwritable -o: exit 1" "$?" 1
ok "saying why" grep -q "cannot write nodir/chart.svg: No such file or directory" err
# the chart goes to a new file renamed into place: a symlink planted at
# the name a fixed temporary file would have (or at the chart's own name) is
# replaced, never written through
echo victim >victim
ln -s victim sym.svg.tmp
ln -s victim sym.svg
"$CONTEST" plot -d "$data" -o sym.svg >out 2>err
ok_eq "a symlink at the chart's names: exits 0" "$?" 0
ok "what the symlinks point to is untouched" grep -qx victim victim
ok "the chart is a file, not the symlink" test -f sym.svg -a ! -L sym.svg
check_xml sym.svg "that chart"
ok_eq "no temporary file left" "$(ls sym.svg?* | tr '\n' ' ')" "sym.svg.tmp "
mkdir empty
"$CONTEST" plot -d empty -o e.svg >out 2>err
ok_eq "no results: exit 1" "$?" 1
ok "no chart written" sh -c "! ls e.svg*"

done_testing
