#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# bench/fidelity.sh's table, from the output of real sittings (ctar and xtar,
# io, n = 5, 2026-12-03; tests/data/fidelity): `fidelity.sh --table LOG`
# prints it again from the run lines.  The oracles: the noload Time the
# sitting itself printed (from its own results, before its table failed),
# the io sitting's own table, and the
# Ratios, native / stock and Loads worked out here from the run lines by a
# program of this test's own; an INVALID run left out; a file that is not
# such an output refused.  No timing is asserted: the figures are the log's.
. "$TOP_SRCDIR/tests/lib.sh"

fid=$TOP_SRCDIR/bench/fidelity.sh
log=$TOP_SRCDIR/tests/data/fidelity/ctar-xtar-2026-12-03.out

bash "$fid" --table "$log" >table 2>err
ok "--table exits 0" test $? -eq 0
ok "--table says nothing on stderr" test ! -s err
ok_eq "the noload Time is the one the sitting printed" \
	"$(awk '$1 == "noload" && $2 == "1.00" { print $(NF - 1) }' table)" \
	"$(awk '$1 == "noload" && /noload Time/ { print $(NF - 1); exit }' "$log")"

# mean Time of LOAD SIDE in the run lines of $1, and mean MB read / written
mean() { awk -v l="$2" -v s="$3" '$1 == "round" && $3 == l && $4 == s && $7 != "INVALID," { t += $5; n++ } END { printf "%.6f", t / n }' "$1"; }
mb() { awk -v l="$2" -v s="$3" -v k="$4" '$1 == "round" && $3 == l && $4 == s && $7 != "INVALID," {
	for (i = 7; i < NF; i++) if ($i == k) { m += $(i + 1); n++ } } END { printf "%.6f", m / n }' "$1"; }
arch=$(sed -n 's/.*GNU tar archive \([0-9]*\) bytes.*/\1/p' "$log")
field() { awk -v l="$1" -v i="$3" '$1 == l { print $i }' "$2"; }	# field LOAD TABLE I

check_rows() {	# check_rows LOG TABLE WHAT
	base=$(mean "$1" noload noload)
	for l in ctar_load xtar_load; do
		nat=$(mean "$1" $l native); stk=$(mean "$1" $l stock)
		ok_eq "$l ($3): native Ratio" "$(field $l "$2" 2)" "$(awk -v a="$nat" -v b="$base" 'BEGIN { printf "%.2f", a / b }')"
		ok_eq "$l ($3): stock Ratio" "$(field $l "$2" 3)" "$(awk -v a="$stk" -v b="$base" 'BEGIN { printf "%.2f", a / b }')"
		q=$(field $l "$2" 4)
		ok_eq "$l ($3): native / stock" "$q" "$(awk -v a="$nat" -v b="$stk" 'BEGIN { printf "%.3f", a / b }')"
		ok "$l ($3): its 95% CI holds native / stock" awk -v q="$q" -v ci="$(field $l "$2" 5)" 'BEGIN { split(ci, c, "-"); exit !(c[1] < q && q < c[2]) }'
		[ $l = ctar_load ] && k=wrote || k=read
		ok_eq "$l ($3): native Loads" "$(field $l "$2" 8)" "$(awk -v m="$(mb "$1" $l native $k)" -v a="$arch" 'BEGIN { printf "%.2f", m * 1e6 / a }')"
		ok_eq "$l ($3): stock Loads" "$(field $l "$2" 9)" "$(awk -v m="$(mb "$1" $l stock $k)" -v a="$arch" 'BEGIN { printf "%.2f", m * 1e6 / a }')"
	done
}
check_rows "$log" table "the sitting"
ok_eq "n is 5 and 5 on both rows" "$(awk '/^(ctar|xtar)_load/ { printf "%s/%s ", $6, $7 }' table)" "5/5 5/5 "

# a run the sitting found invalid is left out of the table
sed '/round 3: ctar_load    native/s/ s  read .*/ s  INVALID, left out: the native load did no work during the build/' "$log" >invalid.log
bash "$fid" --table invalid.log >table2 2>err2
ok "--table with an INVALID run exits 0" test $? -eq 0
ok_eq "the INVALID run is not counted" "$(awk '$1 == "ctar_load" { print $6 "/" $7 }' table2)" "4/5"
check_rows invalid.log table2 "one run invalid"

# a sitting whose own table was printed (io, n = 5): --table gives the same
# row; its sizes line has the io size in GiB only (an older output), so
# Loads may differ by the 0.05 GiB, and the exact size, when the line has
# it, gives the live Loads and dd's count to the byte
iolog=$TOP_SRCDIR/tests/data/fidelity/io-2026-12-03.out
live=$(awk '$1 == "io_load" && NF > 9 { print $2, $3, $4, $5, $6, $7 }' "$iolog")
bash "$fid" --table "$iolog" >table5 2>err5
ok "--table of the io sitting: exit 0, nothing on stderr" test $? -eq 0 -a ! -s err5
ok_eq "its io row: the Ratios, native / stock, CI and n the sitting printed" \
	"$(awk '$1 == "io_load" { print $2, $3, $4, $5, $6, $7 }' table5)" "$live"
ok_eq "its noload Time: the sitting's" "$(awk '$1 == "noload" && /noload Time/ { print $(NF - 1) }' table5)" \
	"$(awk '$1 == "noload" && /noload Time/ { print $(NF - 1) }' "$iolog")"
sed 's/^\(sizes: *io 23.5 GiB\),/\1 (25275924480 bytes),/' "$iolog" >io-bytes.log
bash "$fid" --table io-bytes.log >table6 2>err6
ok_eq "with the size in bytes: Loads and dd's count as the sitting printed them" \
	"$(awk '$1 == "io_load" { print $8, $9, $14 }' table6)" \
	"$(awk '$1 == "io_load" && NF > 9 { print $8, $9, $14 }' "$iolog")"

# run lines of a --dirty sitting end in a dirty part (its MB and s figures
# are not the load's): the table is the same as without it
sed '/^round [0-9]*: /s/$/; dirty 812 MB mean, 2417 MB max, above the throttle point (2411 MB) 7% of the time; reclaim: 12 direct stalls, scanned 40 MB direct and 30512 MB by kswapd, file refaults 96 MB; throttled: io_load 31.5 s in 402, cc1 0.2 s in 3/' \
	"$log" >dirty.log
bash "$fid" --table dirty.log >table7 2>err7
ok "--table of run lines with a dirty part: exit 0, nothing on stderr" test $? -eq 0 -a ! -s err7
ok_eq "... and the same rows as without it" "$(grep '_load ' table7)" "$(grep '_load ' table)"

# not an output of fidelity.sh
printf 'hello\n' >other.log
bash "$fid" --table other.log >out3 2>err3
ok_eq "a file that is not its output: exit 2" "$?" 2
ok "... with a message that says so" grep -q "not an output of this script" err3
bash "$fid" --table no-such.log >out4 2>err4
ok_eq "a missing file: exit 2" "$?" 2
ok "... with a message naming it" grep -q "cannot read no-such.log" err4

# the options that choose what a sitting measures, refused when wrong
# before anything runs (a directory that passes for a Linux tree)
mkdir -p faketree/kernel && : >faketree/Makefile
bash "$fid" --sides native,tape faketree >out5 2>err5
ok_eq "--sides with a side that is neither: exit 2" "$?" 2
ok "... naming it" grep -q "'tape' is neither native nor stock" err5
bash "$fid" --sides , faketree >out6 2>err6
ok_eq "--sides with no side: exit 2" "$?" 2
ok "... saying so" grep -q -- "--sides: no side" err6
bash "$fid" --help >help
ok "--help lists --flush-first, --sides and --dirty" sh -c 'grep -q -- "--flush-first" help && grep -q -- "--sides LIST" help && grep -q -- "--dirty" help'

done_testing
