#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Results of many machines in one report, and merged into one store.  The
# records are written here (tests/data/records.py), as two machines with
# different CPU models would have stored them: a label measured on both is
# two rows, named by hostname, and the differences list the machine.
# contest merge copies every record once, checked: merging again adds
# nothing, whether the records carry an id (newer) or not (older).
. "$TOP_SRCDIR/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed: no records to write"

# mk.py DIR HOST CPU IDS LABEL:NOLOAD:LOADED...: a results directory, one
# session per label, three rounds of noload and process_load (Times NOLOAD
# and LOADED, +-1 s), ids on every record when IDS is 1
cat >mk.py <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ["TOP_SRCDIR"], "tests", "data"))
from records import line
d, host, cpu, ids = sys.argv[1:5]
os.makedirs(d, exist_ok=True)
for n, spec in enumerate(sys.argv[5:]):
    label, nl, ld = spec.split(":")
    sess = "%s-%d" % (d, n)
    out = ["# contest results, format 1: one record a line\n"]
    env = [("label", label), ("session", sess), ("contest", "0.1.0"), ("kernel", label),
           ("hostname", host), ("cpu_model", cpu), ("ncpus", "2")]
    if ids == "1":
        env.append(("id", "e-%s-%s" % (host, label)))
    out.append(line("env", env))
    for rnd, dt in ((1, 0), (2, 1), (3, -1)):
        for typ, secs, work in (("noload", float(nl), 0), ("process_load", float(ld), 20)):
            kv = [("label", label), ("session", sess), ("type", typ), ("round", rnd),
                  ("workload", "builtin scale=40 jobs=8"), ("flush", "fadvise"), ("valid", 1),
                  ("elapsed_ns", int((secs + dt) * 1e9)), ("user_ns", int(secs * 0.9e9)),
                  ("sys_ns", 0), ("load_work", "%f" % work), ("load_user_ns", int(secs * 0.4e9)),
                  ("load_sys_ns", 0)]
            if ids == "1":
                kv.append(("id", "r-%s-%s-%s-%d" % (host, label, typ, rnd)))
            out.append(line("run", kv))
    with open(os.path.join(d, label + ".results"), "w") as f:
        f.writelines(out)
PY
python3 mk.py a alpha "Intel(R) Xeon(R) CPU E5-2680" 0 6.1:100:120 6.2:100:110 || exit 99
python3 mk.py b beta "AMD EPYC 7763 64-Core Processor" 1 6.1:80:100 || exit 99
python3 mk.py c alpha "AMD EPYC 7763 64-Core Processor" 0 6.1:90:99 || exit 99

# ---- report -d a -d b: one label, two machines ----------------------------------
"$CONTEST" report -d a -d b >out 2>err
ok_eq "report -d a -d b exits 0" "$?" 0
ok "nothing on stderr" test ! -s err
ok "6.1 from two machines: two rows, named by hostname (120 / 100 and 100 / 80), the base" sh -c \
	'grep -qx "6.1@alpha (base)        \[3\]  120.0    90     20     40   1.20" out &&
	 grep -qx "6.1@beta (base)         \[3\]  100.0    90     20     40   1.25" out'
ok "a label from one machine keeps its name" grep -q '^6\.2  ' out
ok "a line says why 6.1 has two rows" \
	grep -qx "6.1@alpha and 6.1@beta: 6.1 measured on 2 machines, shown apart" out
ok "measured differently: the hostnames" \
	grep -qx "hostname: 6.1@alpha alpha, 6.1@beta beta, 6.2 alpha" out
ok_eq "and the CPU models, a row a line past 72 columns" \
	"$(awk '/^cpu_model:$/ { on = 1; print; next } on && /^  / { print; next } { on = 0 }' out)" "cpu_model:
  6.1@alpha  Intel(R) Xeon(R) CPU E5-2680
  6.1@beta   AMD EPYC 7763 64-Core Processor
  6.2        Intel(R) Xeon(R) CPU E5-2680"
ok "each machine's 6.1 tested against the same machine's runs: no test of 6.1 on itself" \
	sh -c '! grep -q "^6\.1.*\*" out'
"$CONTEST" report -d a >a.out 2>&1
ok "one directory: one row of 6.1, as before" sh -c \
	'grep -q "^6\.1 (base)  " a.out && ! grep -q "@" a.out'

# ---- the same hostname, another CPU: numbered, and the CPU listed ---------------
"$CONTEST" report -d a -d c 6.1 >ac 2>err
ok_eq "report -d a -d c exits 0" "$?" 0
ok "alpha with two CPU models: two rows, numbered" sh -c \
	'grep -q "^6\.1 (1)  .*  1\.20$" ac && grep -q "^6\.1 (2)  .*  1\.10$" ac'
ok "the CPU models listed" sh -c 'grep -qx "cpu_model:" ac &&
	grep -qx "  6.1 (1)  Intel(R) Xeon(R) CPU E5-2680" ac &&
	grep -qx "  6.1 (2)  AMD EPYC 7763 64-Core Processor" ac'
ok "and not the hostname, which is alike" sh -c '! grep -q "^hostname:" ac'

# ---- sessions without an environment record: no machine to tell apart ------------
python3 mk.py e epsilon "Other CPU" 0 6.1:100:120 || exit 99
sed -i '/^env /d' e/6.1.results
"$CONTEST" report -d a -d e 6.1 >ae 2>err
ok "runs of no known machine join the label's one machine: one row" \
	grep -q '^6\.1  *\[6\]  ' ae
"$CONTEST" report -d a -d b -d e 6.1 >abe 2>err
ok "beside two machines, they are a row of their own, named by the label" sh -c \
	'grep -q "^6\.1@alpha  " abe && grep -q "^6\.1@beta  " abe && grep -q "^6\.1  *\[3\]  " abe'

# ---- the same records twice: read once ----------------------------------------------
"$CONTEST" report -d a -d a >aa 2>err
ok_eq "report -d a -d a exits 0" "$?" 0
ok "records without ids, read twice: the tables of -d a" cmp -s aa a.out
ok "and a line says so" grep -qx "contest: 14 records found again in another results file, read once" err
"$CONTEST" report -d b -d b >bb 2>/dev/null
"$CONTEST" report -d b >b.out 2>/dev/null
ok "records with ids, read twice: the tables of -d b" cmp -s bb b.out

# ---- the data formats ----------------------------------------------------------------
"$CONTEST" report -d a -d b --format keyvalue >kv 2>/dev/null
ok "keyvalue: a key per machine's row" sh -c \
	'grep -qx "6.1_alpha.process_load.ratio: 1.2" kv && grep -qx "6.1_beta.process_load.ratio: 1.25" kv'
"$CONTEST" report -d a -d b --format json >json 2>/dev/null
ok "json: the rows' names and environments" python3 -c '
import json, sys
rows = json.load(open("json"))["rows"]
names = [r["name"] for r in rows]
assert names == ["6.1@alpha", "6.1@beta", "6.2"], names
assert rows[1]["environment"][0]["cpu_model"] == "AMD EPYC 7763 64-Core Processor"
'
ok "plot reads several directories too" sh -c \
	'"$CONTEST" plot -d a -d b -o chart.svg && grep -q "6.1@beta" chart.svg'
"$CONTEST" run -d a -d b --dry-run >/dev/null 2>err
ok_eq "run with two -d: a usage error" "$?" 2
ok "saying it stores in one" grep -q "give -d once" err

# ---- merge ----------------------------------------------------------------------------
"$CONTEST" merge a b m >out 2>err
ok_eq "merge a b m exits 0" "$?" 0
ok "it says what it copied" grep -qx "contest: m: 21 records copied from 3 files, 0 there already" err
ok "one file per label" sh -c '[ "$(ls m | tr "\n" " ")" = "6.1.results 6.2.results " ]'
"$CONTEST" report -d m >m.out 2>&1
"$CONTEST" report -d a -d b >ab.out 2>&1
ok "the merged store reports as the two did" cmp -s m.out ab.out
cp -r m m.before
"$CONTEST" merge a b m >out 2>err
ok_eq "merging again exits 0" "$?" 0
ok "and copies nothing" grep -qx "contest: m: 0 records copied from 3 files, 21 there already" err
ok "the store is as it was" diff -r m.before m
"$CONTEST" merge m a m >/dev/null 2>err
ok "a store merged into itself is as it was" diff -r m.before m
ok "and it is not read as a source" grep -qx "contest: m is the destination itself: skipped" err

# a damaged source record: said, not copied; the others are
python3 mk.py d delta "Other CPU" 1 7.0:50:60 || exit 99
sed -i '3s/ valid=1 / valid=0 /' d/7.0.results
"$CONTEST" merge d m >out 2>err
ok_eq "a damaged record: merge exits 1" "$?" 1
ok "naming the file and line" grep -q "d/7.0.results:3: damaged record skipped: " err
ok "the other 6 records are copied" sh -c '[ "$(grep -c "^[a-z]" m/7.0.results)" = 6 ]'
ok "the damaged one is not" sh -c '! grep -q " valid=0 " m/7.0.results'
"$CONTEST" merge d m >/dev/null 2>err
ok "merging it again copies nothing" grep -q "m: 0 records copied from 1 file, 6 there already" err
"$CONTEST" merge nowhere m >/dev/null 2>err
ok_eq "a source that does not exist: exit 1" "$?" 1
ok "saying why" grep -q "cannot read results directory nowhere" err
"$CONTEST" merge m >/dev/null 2>err
ok_eq "merge with one directory: a usage error" "$?" 2

done_testing
