#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Damaged results: each bad line is reported with its file and line number
# and skipped; every other record still counts.
. "$TOP_SRCDIR/tests/lib.sh"

cp -r "$TOP_SRCDIR/tests/data/lkml-2002" results
chmod -R u+w results
f=results/2.4.19.results
lines=$(wc -l <"$f")

# line 3 (a noload run): flip one character in its time
sed -i '3s/elapsed_ns=69/elapsed_ns=68/' "$f"
# a truncated last line, as a crash mid-write would leave
printf 'run v=1 label=2.4.19 session=x type=noload round=9 elapsed' >>"$f"
printf 'binary \001\002\003\377 garbage\n\000\000\n' >>results/2.5.47.results
# text that is not a record at all, as an editor or a stray echo would leave
printf 'these are my notes about 2.5.47\nrun\n' >>results/2.5.47.results
: >results/empty.results
mkdir results/adir.results

"$CONTEST" report -d results 2.4.19 2.5.47 >out 2>err
ok_eq "report still exits 0" "$?" 0
ok "the flipped line is reported with file and line" grep -q "2.4.19.results:3: damaged record skipped: checksum mismatch" err
ok "the truncated line is reported" grep -q "2.4.19.results:$((lines + 1)): damaged record skipped" err
ok "binary garbage is reported" grep -q "2.5.47.results:.*damaged record skipped" err
n47=$(wc -l <"$TOP_SRCDIR/tests/data/lkml-2002/2.5.47.results")
ok "binary garbage is not a record" \
	grep -q "2.5.47.results:$((n47 + 1)): damaged record skipped: not a record" err
ok "text that is no record is not a record" \
	grep -q "2.5.47.results:$((n47 + 3)): damaged record skipped: not a record" err
ok "nor is a lone word" grep -q "2.5.47.results:$((n47 + 4)): damaged record skipped: not a record" err
ok "the truncated run line is still a truncated record" \
	grep -q "2.4.19.results:$((lines + 1)): damaged record skipped: truncated line" err
ok "a directory posing as a results file is reported" grep -q "adir.results" err
ok "2.4.19 noload keeps its other 4 runs" grep -q "^2.4.19 (base)  *\[4\]  *69.0 " out
ok "2.4.19 other tables are intact" grep -q "^2.4.19 (base)  *\[3\]  *106.5 " out
ok "2.5.47 is intact" grep -q "^2.5.47  *\[3\]  *73.5 " out

# a results file whose every line is garbage only loses its own rows
head -c 4096 /dev/urandom >results/2.4.18.results
"$CONTEST" report -d results >out 2>err
ok_eq "random bytes in one file: report exits 0" "$?" 0
ok "the other labels are reported" grep -q "^2.5.46-mm1 " out
ok "the garbage file has no row" sh -c "! grep -q '^2.4.18 ' out"

done_testing
