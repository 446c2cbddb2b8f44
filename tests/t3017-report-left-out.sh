#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# What a table leaves out is in the table a user pastes: under each run
# type's table, every invalid run of its rows with its reason (a line per
# reason, its rounds listed), and what the loads of valid runs met
# (load.note: starved, memory at its floor, a full disk); after the
# tables, the invalid runs of a run type with no table.  csv, json and
# keyvalue count the invalid runs of each row and run type, a cell of
# invalid runs only included.  The records are written here
# (tests/data/records.py), in the record format of version 1: older
# records read.
. "$TOP_SRCDIR/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed: no records to write"

# mk.py DIR LABEL TYPE@ROUND@SECONDS@WORK[@REASON[@NOTE]]...: one session's
# runs, REASON making a run invalid
cat >mk.py <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ["TOP_SRCDIR"], "tests", "data"))
from records import line
d, label = sys.argv[1:3]
os.makedirs(d, exist_ok=True)
out = [line("env", [("label", label), ("session", "s-" + label), ("contest", "0.1.0"),
                    ("kernel", "6.8.0"), ("hostname", "alpha"), ("ncpus", "2")])]
for spec in sys.argv[3:]:
    f = spec.split("@") + ["", ""]
    typ, rnd, secs, work, reason, note = f[:6]
    secs = float(secs)
    kv = [("label", label), ("session", "s-" + label), ("type", typ), ("round", rnd),
          ("workload", "builtin scale=1"), ("flush", "drop_caches"),
          ("valid", 0 if reason else 1)]
    if reason:
        kv.append(("reason", reason))
    if note:
        kv.append(("load.note", note))
    kv += [("elapsed_ns", int(secs * 1e9)), ("user_ns", int(secs * 0.9e9)), ("sys_ns", 0),
           ("load_work", work), ("load_cpu_ns", int(secs * 0.2e9))]
    out.append(line("run", kv))
with open(os.path.join(d, label + ".results"), "a") as f:
    f.writelines(out)
PY
starved="process_load did no work during the timed build (starved, every process alive)"
died="process_load process 3 (pid 42) died: killed by SIGKILL"
full="io_load process 0: write /w/io_load.dat: No space left on device"
python3 mk.py r a noload@1@10@0 "process_load@1@20@0@@$starved" "io_load@1@0@0@$full" \
	"xtar_load@1@0@0@xtar_load setup: told to fail" \
	noload@2@10.4@0 process_load@2@21@5 "io_load@2@0@0@$full" \
	"noload@3@0@0@the workload failed: exited with 2" "process_load@3@0@0@$died" \
	"io_load@3@0@0@$full" || exit 99
python3 mk.py r b noload@1@10@0 io_load@1@15@2 noload@2@10@0 io_load@2@16@2 || exit 99

# ---- text: under each table ------------------------------------------------------
"$CONTEST" report -d r --no-latency >out 2>err
ok_eq "report exits 0" "$?" 0
ok "nothing on stderr: the tables name what they leave out" test ! -s err
# the lines from a table's header to the next table's name
under() { sed -n "/^$1:\$/,/^[a-z_]*:\$/p" out | sed '1d;$d'; }
under noload >noload.t
under process_load >process.t
under io_load >io.t
ok "noload: a's row counts its 2 valid runs" grep -q '^a (base)  *\[2\] ' noload.t
ok "noload: the invalid run named under the table, with its reason" \
	grep -qx "a round 3 left out: the workload failed: exited with 2" noload.t
ok "process_load: the run of a load that died, under its table" \
	grep -qx "a round 3 left out: $died" process.t
ok "process_load: the starved run is in the row, Loads 0 and 5 give 2.5" \
	grep -q '^a (base)  *\[2\]  *20\.5  *90  *2\.5 ' process.t
ok "process_load: what its load met, under the table" grep -qx "a round 1: $starved" process.t
ok "io_load: a's three invalid runs on one line, though a has no row here" \
	grep -qx "a rounds 1, 2, 3 left out: $full" io.t
ok_eq "io_load: b's row, and no line for b, whose runs are valid" \
	"$(grep -c '^b' io.t)" 1
ok "after the tables: the invalid run of a run type with no table" \
	grep -qx "a xtar_load round 1 left out: xtar_load setup: told to fail" out
ok_eq "load.note is no size of a load: no difference listed for it" "$(grep -c 'note' out)" 0

# a row named: another label's runs are not listed
"$CONTEST" report -d r --no-latency b >outb 2>err
ok_eq "report b: nothing of a's runs" "$(grep -c '^a ' outb)" 0

# ---- markdown: list items --------------------------------------------------------
"$CONTEST" report -d r --no-latency --format markdown >md 2>err
ok_eq "markdown exits 0" "$?" 0
ok "markdown: the run left out, a list item under its table" \
	grep -qxF -- "- a round 3 left out: $(echo "$died" | sed 's/_/\\_/g')" md

# ---- csv, json, keyvalue: the count per row and run type --------------------------
"$CONTEST" report -d r --format csv >csv 2>err
ok_eq "csv exits 0" "$?" 0
ok "csv: stderr still counts the invalid runs" grep -q "6 invalid runs left out" err
ok "csv: the header has invalid_runs after runs" grep -q '^schema,row,label,workload,load_session,run_type,runs,invalid_runs,' csv
ok "csv: a's process_load, 2 runs and 1 invalid" grep -q '^contest-report/2,a,a,[^,]*,0,process_load,2,1,' csv
ok "csv: a's io_load, invalid runs only, is a line of its own" \
	grep -q '^contest-report/2,a,a,[^,]*,0,io_load,0,3,,' csv
ok "csv: b's io_load, none invalid" grep -q '^contest-report/2,b,b,[^,]*,0,io_load,2,0,' csv
ok_eq "csv: load.note is not a load_ column" "$(head -n 1 csv | grep -c note)" 0

"$CONTEST" report -d r --format json --baseline b >json 2>err
ok_eq "json exits 0" "$?" 0
ok "json: each cell's invalid_runs, a cell of invalid runs only with null figures" python3 -c '
import json, sys
d = json.load(open("json"))
cells = {(r["name"], c["run_type"]): c for r in d["rows"] for c in r["cells"]}
assert cells[("a", "process_load")]["invalid_runs"] == 1, cells[("a", "process_load")]
assert cells[("a", "process_load")]["runs"] == 2
assert cells[("a", "noload")]["invalid_runs"] == 1
c = cells[("a", "io_load")]
assert c["runs"] == 0 and c["invalid_runs"] == 3 and c["time"]["mean"] is None, c
assert c["tests"]["time"] == {"untested": "no valid runs"}, c["tests"]
assert cells[("b", "io_load")]["invalid_runs"] == 0
'

"$CONTEST" report -d r --format keyvalue >kv 2>err
ok_eq "keyvalue exits 0" "$?" 0
ok "keyvalue: a.process_load.invalid_runs: 1" grep -qx "a.process_load.invalid_runs: 1" kv
ok "keyvalue: a.io_load.invalid_runs: 3, and no figure of it" sh -c \
	'grep -qx "a.io_load.invalid_runs: 3" kv && ! grep -q "^a\.io_load\.time_s" kv'
ok "keyvalue: b.noload.invalid_runs: 0" grep -qx "b.noload.invalid_runs: 0" kv

done_testing
