#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `contest report` lists, under the tables, how the rows' runs were flushed
# (a non-root flush is partial) and every size a load used in which two rows
# differ, as it does for the environment.  Records from
# tests/data/make-measured.py, which says what they hold.
. "$TOP_SRCDIR/tests/lib.sh"

cp -r "$TOP_SRCDIR/tests/data/measured" results
diffs() { sed -n '/^Measured differently (besides the kernel):$/,$p' "$1"; }

"$CONTEST" report -d results base user >out 2>err
ok_eq "report base user exits 0" "$?" 0
ok "nothing on stderr" test ! -s err
ok_eq "a root and a non-root flush: measured differently, the partial one said so, a row a line
past 72 columns" "$(diffs out)" \
	"Measured differently (besides the kernel):
flush:
  base  drop_caches
  user  fadvise (partial: the tree and work files only)"

"$CONTEST" report -d results base big >out 2>err
ok_eq "io_load's file size differs: one line, the sizes rounded as the plan shows them" \
	"$(diffs out)" "Measured differently (besides the kernel):
io_load file_size: base 1.0 MiB, big 2.0 MiB"

"$CONTEST" report -d results base close >out 2>err
ok "sizes that round alike (1048576 and 1049000 bytes) are not listed" \
	sh -c "! grep -q 'Measured differently' out"

"$CONTEST" report -d results base twice >out 2>err
ok "sessions of one row with different sizes: both values" \
	grep -qx "process_load procs: base 8, twice 8 / 16" out
ok "and only those: chunks and chunk_size alike" sh -c "! grep -q 'chunk' out"

"$CONTEST" report -d results base old >out 2>err
ok "runs recorded before the sizes were: absent" \
	grep -qx "io_load file_size: base 1.0 MiB, old absent" out

"$CONTEST" report -d results base >out 2>err
ok "one row: nothing listed" sh -c "! grep -q 'Measured differently' out"

if command -v python3 >/dev/null 2>&1; then
	"$CONTEST" report -d results --format csv base big >csv 2>err
	ok "csv: load_KEY columns with each cell's sizes, as stored" python3 -c '
import csv, sys
rows = {(r["row"], r["run_type"]): r for r in csv.DictReader(open(sys.argv[1]))}
assert rows[("big", "io_load")]["load_file_size"] == "2097152", rows[("big", "io_load")]
assert rows[("base", "io_load")]["load_file_size"] == "1048576"
assert rows[("base", "process_load")]["load_procs"] == "8"
assert rows[("base", "noload")]["load_file_size"] == ""
' csv
	"$CONTEST" report -d results --format json base twice >json 2>err
	ok "json: each cell's load sizes, several joined" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
cells = {(r["name"], c["run_type"]): c for r in d["rows"] for c in r["cells"]}
assert cells[("twice", "process_load")]["load"] == \
    {"procs": "8 / 16", "chunks": "2", "chunk_size": "8192"}, cells[("twice", "process_load")]
assert cells[("base", "io_load")]["load"] == {"file_size": "1048576"}
assert cells[("base", "noload")]["load"] == {}
' json
else
	skip "python3 is not installed: no csv check"
	skip "python3 is not installed: no json check"
fi

done_testing
