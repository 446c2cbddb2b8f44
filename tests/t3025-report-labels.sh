#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A label named wrong: --baseline of a label the results do not hold says so
# and lists the labels (exit 2), apart from a label without a valid noload;
# contest relabel renames a label, each record rewritten with its label and
# a checksum of its own (checked here by Python's zlib, not contest), every
# other byte kept; it refuses what it cannot do, and --merge joins a label
# that has records.  (A relabel stopped at every step: t5019.)
. "$TOP_SRCDIR/tests/lib.sh"

cp -r "$TOP_SRCDIR/tests/data/lkml-2002" res
chmod -R u+w res

# ---- --baseline ---------------------------------------------------------------------
"$CONTEST" report -d res --baseline nosuch >out 2>err
ok_eq "--baseline of a label not stored: exit 2" "$?" 2
ok "it says the label is not there, where, and the labels there are" grep -qx \
	"contest: --baseline: no label 'nosuch' in res (labels: 2.4.18, 2.4.19, 2.5.46, 2.5.46-mm1, 2.5.47, 2.5.47-mm1, ref-2.4.18)" err
ok "not that it has no noload" sh -c '! grep -q "noload" err'
"$CONTEST" plot -d res -o x.svg --baseline nosuch 2>err
ok_eq "plot --baseline of a label not stored: exit 2" "$?" 2
ok "plot says so too" grep -q "^contest: --baseline: no label 'nosuch' in res " err
mkdir res2
cp res/2.4.19.results res2/
"$CONTEST" report -d res2 -d res --baseline nosuch >out 2>err
ok "several -d: each named" grep -q "no label 'nosuch' in res2 or res (labels: " err

if command -v python3 >/dev/null 2>&1; then
	# a label with runs but no valid noload: the old message, exit 1
	python3 - <<'PY' || exit 99
import os, sys
sys.path.insert(0, os.path.join(os.environ["TOP_SRCDIR"], "tests", "data"))
from records import line
out = [line("env", [("label", "nonoload"), ("session", "s"), ("kernel", "2.4.18")])]
for rnd, typ, valid in ((1, "noload", 0), (1, "process_load", 1), (2, "process_load", 1)):
    out.append(line("run", [("label", "nonoload"), ("session", "s"), ("type", typ),
                            ("round", rnd), ("workload", "w"), ("flush", "drop_caches"),
                            ("valid", valid), ("reason", "told to fail"),
                            ("elapsed_ns", 100 * 10**9), ("user_ns", 90 * 10**9),
                            ("sys_ns", 0), ("load_work", "20")]))
open("res/nonoload.results", "w").writelines(out)
PY
	"$CONTEST" report -d res --baseline nonoload >out 2>err
	ok_eq "--baseline of a label without a valid noload: exit 1" "$?" 1
	ok "it says it has no valid noload" grep -qx \
		"contest: baseline 'nonoload' has no valid noload run to divide by" err
	rm res/nonoload.results
else
	skip "python3 is not installed: no label without a noload to write"
fi

# ---- relabel ----------------------------------------------------------------------
"$CONTEST" report -d res 2.4.18 2.5.47 >before 2>err
ok_eq "report before: exit 0" "$?:$(cat err)" "0:"
cp res/2.4.18.results old
"$CONTEST" relabel -d res 2.4.18 2.4.18-fixed >out 2>err
ok_eq "relabel: exit 0" "$?" 0
ok "it says how many records it relabelled" \
	grep -qx "contest: res: 29 records of '2.4.18' now under '2.4.18-fixed'" err
ok "nothing on stdout" test ! -s out
ok_eq "the old file is gone, the new one there, nothing else left" "$(LC_ALL=C ls res | tr '\n' ' ')" \
	"2.4.18-fixed.results 2.4.19.results 2.5.46-mm1.results 2.5.46.results 2.5.47-mm1.results 2.5.47.results ref-2.4.18.results "
ok_eq "every line but its label and checksum as it was" \
	"$(sed 's/ label=2\.4\.18-fixed / label= /; s/ crc=.*//' res/2.4.18-fixed.results)" \
	"$(sed 's/ label=2\.4\.18 / label= /; s/ crc=.*//' old)"
ok_eq "every record labelled anew" "$(grep -c ' label=2\.4\.18-fixed ' res/2.4.18-fixed.results)" 29
if command -v python3 >/dev/null 2>&1; then
	ok "every checksum is the CRC-32 of its line (zlib)" python3 -c '
import sys, zlib
for l in open(sys.argv[1]):
    if l.startswith("#"):
        continue
    body, crc = l.rstrip("\n").rsplit(" crc=", 1)
    assert int(crc, 16) == zlib.crc32(body.encode()) & 0xffffffff, l
' res/2.4.18-fixed.results
else
	skip "python3 is not installed: the checksums not checked apart from contest"
fi
"$CONTEST" report -d res 2.4.18-fixed 2.5.47 >after 2>err
ok_eq "report after: exit 0, nothing damaged or doubled" "$?:$(cat err)" "0:"
ok "the row has the new label" grep -q "^2.4.18-fixed\( (base)\)\?  *\[3\] " after
# the same tables, the label's name (and its padding) aside
ok_eq "the same figures under the new label" \
	"$(sed 's/2\.4\.18-fixed/2.4.18/g; s/  */ /g' after)" "$(sed 's/  */ /g' before)"
"$CONTEST" report -d res 2.4.18 >out 2>err
ok "the old label has no runs left" grep -q "no valid runs stored for label '2.4.18'" err

# ---- what relabel refuses ---------------------------------------------------------
sums() { cat res/*.results | cksum; }
s0=$(sums)
"$CONTEST" relabel -d res nosuch x >out 2>err
ok_eq "a label not stored: exit 2" "$?" 2
ok "it says so and lists the labels" grep -qx \
	"contest: no label 'nosuch' in res (labels: 2.4.18-fixed, 2.4.19, 2.5.46, 2.5.46-mm1, 2.5.47, 2.5.47-mm1, ref-2.4.18)" err
"$CONTEST" relabel -d res 2.4.19 'two words' >out 2>err
ok_eq "a new label -k would refuse: exit 2" "$?" 2
ok "with -k's reason" grep -q "bad label 'two words': the label holds a space" err
"$CONTEST" relabel -d res 2.4.19 "$(printf '%070d' 0)" >out 2>err
ok_eq "a label too long for a row: exit 2" "$?" 2
"$CONTEST" relabel -d res 2.4.19 2.5.47 >out 2>err
ok_eq "a label that has records, without --merge: exit 2" "$?" 2
ok "it names --merge" grep -q "label '2.5.47' is in res already: --merge adds" err
"$CONTEST" relabel -d res 2.4.19 2.4.19 >out 2>err
ok_eq "the same label: exit 2" "$?" 2
"$CONTEST" relabel -d res 2.4.19 >out 2>err
ok_eq "one label only: exit 2" "$?" 2
"$CONTEST" relabel -d res -d res2 2.4.19 x >out 2>err
ok_eq "two -d: exit 2" "$?" 2
"$CONTEST" relabel -d missing 2.4.19 x >out 2>err
ok_eq "a results directory that is not there: exit 1" "$?" 1
ok "and says so" grep -q "cannot read results directory missing" err
if command -v flock >/dev/null 2>&1; then
	# a shell that takes the lock, then becomes a sleep that holds it
	(exec 9>res/contest.lock && flock 9 && : >held && exec sleep 60) &
	holder=$!
	wait_until test -e held
	"$CONTEST" relabel -d res 2.4.19 x >out 2>err
	ok_eq "while another contest holds the directory: exit 1" "$?" 1
	ok "it says another contest is using it" \
		grep -q "another contest (pid ?) is using the results directory res" err
	kill "$holder"
	wait "$holder" 2>/dev/null
	rm -f res/contest.lock
else
	skip "flock(1) is not installed: the lock not held"
fi
ok_eq "nothing refused changed a file" "$(sums)" "$s0"
ok "nor left one" test ! -e res/x.results

# ---- --merge -----------------------------------------------------------------------
n19=$(grep -c '^run ' res/2.4.19.results)
n47=$(grep -c '^run ' res/2.5.47.results)
head47=$(head -n 1 res/2.5.47.results)
"$CONTEST" relabel -d res --merge 2.4.19 2.5.47 >out 2>err
ok_eq "--merge into a label that has records: exit 0" "$?" 0
ok_eq "its runs and the other's, under its label" \
	"$(grep -c '^run .* label=2\.5\.47 ' res/2.5.47.results)" "$((n19 + n47))"
ok_eq "its own lines first, as they were" "$(head -n 1 res/2.5.47.results)" "$head47"
ok_eq "one header line" "$(grep -c '^#' res/2.5.47.results)" 1
ok "the other label's file is gone" test ! -e res/2.4.19.results
"$CONTEST" report -d res 2.5.47 >out 2>err
ok "report reads them, nothing damaged" sh -c '! grep -q damaged err'

# ---- damaged lines move as they are ------------------------------------------------
printf 'run v=1 label=2.5.46 type=noload elapsed' >>res/2.5.46.results
"$CONTEST" relabel -d res 2.5.46 2.5.46-fixed >out 2>err
ok_eq "a file with a damaged line: exit 0" "$?" 0
ok "the line is reported" grep -q "2.5.46.results:[0-9]*: damaged record, copied as it is: truncated line" err
ok "and moved as it was, on a line of its own" grep -qx 'run v=1 label=2.5.46 type=noload elapsed' \
	res/2.5.46-fixed.results
"$CONTEST" report -d res 2.5.46-fixed >out 2>err
ok "report finds it damaged where it is now" grep -q "2.5.46-fixed.results:.*damaged record skipped" err

done_testing
