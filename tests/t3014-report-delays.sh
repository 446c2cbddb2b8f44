#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# report --delays from records written here (tests/data/records.py): the
# means are the records' (seconds of their nanoseconds, PSI microseconds
# over Time), a Wait that differs from the baseline's carries a '*' and one
# that does not has none, a run without the figures is counted with its
# reason, and every format carries the same figures.
. "$TOP_SRCDIR/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed: no records to write"

# mk.py LABEL TYPE:SECONDS:WAIT_S:BLKIO_S[:BAD]...: one session's runs, a
# round each, appended to r/LABEL.results; WAIT_S "-" writes a run without
# delays (delays_absent=taskstats needs root); BAD of the run's 100 tasks
# reported an impossible figure (default 0)
cat >mk.py <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ["TOP_SRCDIR"], "tests", "data"))
from records import line
label = sys.argv[1]
os.makedirs("r", exist_ok=True)
out = ["# contest results, format 1: one record a line\n",
       line("env", [("label", label), ("session", "s"), ("contest", "0.1.0"),
                    ("kernel", "6.8.0"), ("hostname", "alpha"), ("ncpus", "2")])]
rnd = {}
for spec in sys.argv[2:]:
    typ, secs, wait, blkio, bad = (spec + ":0").split(":")[:5]
    rnd[typ] = rnd.get(typ, 0) + 1
    ns = int(float(secs) * 1e9)
    kv = [("label", label), ("session", "s"), ("type", typ), ("round", rnd[typ]),
          ("workload", "builtin"), ("flush", "drop_caches"), ("valid", 1),
          ("elapsed_ns", ns), ("user_ns", ns), ("sys_ns", 0), ("load_work", "1.0"),
          ("load_user_ns", 0), ("load_sys_ns", 0)]
    if wait == "-":
        kv.append(("delays_absent", "taskstats needs root"))
    else:
        kv += [("build_delay_tasks", 100), ("build_delay_bad", int(bad)),
               ("build_delay_cpu_ns", ns), ("build_delay_wait_ns", int(float(wait) * 1e9)),
               ("build_delay_wait_count", 10),
               ("build_delay_blkio_ns", int(float(blkio) * 1e9)),
               ("build_delay_blkio_count", 5), ("build_delay_swapin_ns", 0),
               ("build_delay_swapin_count", 0), ("build_delay_reclaim_ns", 1000000000),
               ("build_delay_reclaim_count", 1), ("build_delay_thrash_ns", 500000000),
               ("build_delay_thrash_count", 1), ("build_delay_compact_ns", 0),
               ("build_delay_compact_count", 0), ("psi_scope", "machine"),
               # a quarter of Time some, a tenth full, for cpu
               ("psi_cpu_some_us", ns // 4000), ("psi_cpu_full_us", ns // 10000),
               ("psi_io_some_us", 0), ("psi_io_full_us", 0),
               ("psi_memory_some_us", 0), ("psi_memory_full_us", 0)]
    out.append(line("run", kv))
with open(os.path.join("r", label + ".results"), "a") as f:
    f.writelines(out)
PY
python3 mk.py a noload:100:2:1 noload:102:2.2:1.1 noload:101:1.8:0.9 \
	process_load:150:40:1 process_load:152:42:1.2 process_load:151:41:0.8 || exit 99
python3 mk.py b noload:100:2.1:1 noload:101:1.9:1 noload:102:2:1.2 \
	process_load:150:40.5:1 process_load:151:41.5:1.1 process_load:152:40:0.9 \
	process_load:151:-:- || exit 99
python3 mk.py c noload:100:2:1:3 noload:101:2.1:1:1 noload:102:1.9:1 \
	process_load:150:80:1 process_load:151:82:1 process_load:152:81:1 || exit 99

"$CONTEST" report -d r --delays >out 2>err
ok_eq "report --delays exits 0" "$?" 0
sed 's/^/# /' out
sed -n '/^process_load:$/,/^$/p' out >pl
ok "a's process_load: Time 151.0, CPU 151.0, Wait 41.0, I/O 1.0, Swap 0.0, Reclaim 1.5, PSIcpu 25/10" \
	grep -q '^a  *\[3\]  *151\.0  *151\.0  *41\.0  *1\.0  *0\.0  *1\.5  *25/10  *0/0  *0/0$' pl
ok "b's process_load Wait is within the noise: no '*'; its run without delays is left out ([3])" \
	grep -q '^b  *\[3\]  *151\.0  *151\.0  *40\.7  ' pl
ok "c's process_load Wait (81.0) differs from a's: '*'" \
	grep -q '^c  *\[3\]  *151\.0  *151\.0  *81\.0\* ' pl
ok "no other '*'" test "$(grep -c '\*' out)" -eq 2
ok "the legend says what '*' is" grep -q "^\* differs from a's (Welch's t-test, Holm-adjusted p < 0.05)" out
ok "the run without delays is counted, with the reason" \
	grep -q "^b process_load: 1 of 4 runs without delays (taskstats needs root)" out
ok "PSI: the whole machine's, the legend says" grep -q "^  of the whole machine" out
ok "tasks with an impossible figure are counted, out of how many" \
	grep -q "^c noload: 4 of 300 tasks reported a delay longer than their life: that delay left out$" out
ok "and only where there were some" test "$(grep -c 'longer than their life' out)" -eq 1

"$CONTEST" report -d r --delays --format csv >csv 2>err
ok_eq "csv exits 0" "$?" 0
ok "csv: c's process_load wait_s 81, significant" python3 -c "
import csv, sys
rows = list(csv.DictReader(open('csv')))
c = [x for x in rows if x['label'] == 'c' and x['run_type'] == 'process_load'][0]
b = [x for x in rows if x['label'] == 'b' and x['run_type'] == 'process_load'][0]
assert float(c['wait_s']) == 81 and c['wait_s_significant'] == '1', c
assert b['runs'] == '3' and b['absent'] == 'taskstats needs root' and b['wait_s_significant'] == '0', b
assert abs(float(c['psi_cpu_some_pct']) - 25) < 1e-6 and c['psi_scope'] == 'machine', c
n = [x for x in rows if x['label'] == 'c' and x['run_type'] == 'noload'][0]
assert n['bad_tasks'] == '4' and c['bad_tasks'] == '0', (n, c)
"
"$CONTEST" report -d r --delays --format json >json 2>err
ok "json parses, with csv's figures" python3 -c "
import json
d = json.load(open('json'))
assert d['schema'] == 'contest-delays/1'
c = [x for x in d['cells'] if x['label'] == 'c' and x['run_type'] == 'process_load'][0]
assert c['wait_s'] == 81 and c['wait_s_test']['significant'] is True and c['reclaim_s'] == 1.5, c
"
"$CONTEST" report -d r --delays --format keyvalue >kv 2>err
ok "keyvalue: c.process_load.delay_wait_s: 81" grep -qx "c.process_load.delay_wait_s: 81" kv
ok "keyvalue: significant" grep -qx "c.process_load.delay_wait_s_significant: 1" kv
"$CONTEST" report -d r --delays --format markdown >md 2>err
ok "markdown: the star escaped" grep -q '| *81\.0\\\* |' md
"$CONTEST" report -d r --columns >cols 2>err
ok "--columns: c's process_load CPUwt 81.0, IOdly 1.0" \
	sh -c "sed -n '/^process_load:\$/,/^\$/p' cols | grep -q '^c .* 81\.0   1\.0\$'"

done_testing
