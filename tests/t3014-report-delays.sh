#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# report --delays from records written here (tests/data/records.py): the
# means are the records' (seconds of their nanoseconds, PSI microseconds
# over Time); the text shows a noload's own and every other run type's less
# the row's noload (what the load added: issue 47, point 7), PSI in a table
# of its own under each, the legend above the tables and each kind of note
# once, naming every cell it is about; a Wait that differs from the
# baseline's carries a '*' and one that does not has none, a run without
# the figures is counted with its reason, every line fits a mail's 72
# columns (issue 47, point 6), long labels too, and every format carries
# the same figures.
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
	process_load:150:80:1:2 process_load:151:82:1 process_load:152:81:1 || exit 99


"$CONTEST" report -d r --delays >out 2>err
ok_eq "report --delays exits 0" "$?" 0
sed 's/^/# /' out
sed -n '/^noload:$/,/^$/p' out >nl
sed -n '/^process_load:$/,/^$/p' out >pl
ok "a's noload, its own: Time 101.0, CPU 101.0, Wait 2.0, I/O 1.0, Swap 0.0, Reclaim 1.5" \
	grep -q '^a  *\[3\]  *101\.0  *101\.0  *2\.0  *1\.0  *0\.0  *1\.5$' nl
ok "a's process_load, what it added to a's noload: Time +50.0, CPU +50.0, Wait +39.0, the rest +0.0" \
	grep -q '^a  *\[3\]  *+50\.0  *+50\.0  *+39\.0  *+0\.0  *+0\.0  *+0\.0$' pl
ok "b's process_load: Wait +38.7 within the noise, no '*'; I/O -0.1 (1.0 against 1.07); its run without delays left out ([3])" \
	grep -q '^b  *\[3\]  *+50\.0  *+50\.0  *+38\.7  *-0\.1  *+0\.0  *+0\.0$' pl
ok "c's process_load Wait (+79.0) differs from a's: '*'" \
	grep -q '^c  *\[3\]  *+50\.0  *+50\.0  *+79\.0\*  *+0\.0 ' pl
ok "no other '*'" test "$(grep -c '\*' out)" -eq 2
ok "PSI in a table of its own under process_load's: a's cpu 25/10" sh -c \
	"sed -n '/^process_load PSI (% some\/full):\$/,/^\$/p' out | grep -q '^a  *\[3\]  *25/10  *0/0  *0/0\$'"
ok "the legend first: what the figures are, then what '*' is, above the first table" awk '
	NR == 1 && !/^Seconds of the compile \(Time\) and of its tasks/ { exit 1 }
	/^\* differs from / { star = NR } /^noload:$/ { table = NR }
	END { exit !(star && table > star) }' out
ok_eq "the '*' line" "$(joined_note out '* differs')" \
	"* differs from a's (Welch's t-test on the runs' seconds, Holm-adjusted p < 0.05)"
ok_eq "the legend says what the other run types' figures are" "$(joined_note out 'noload: ')" \
	"noload: the row's own; other run types: what they added to it (+) or took off (-), their means less the noload's."
ok_eq "PSI: the whole machine's, the legend says" "$(joined_note out 'PSI: ')" \
	"PSI: % of Time some/full of the tasks stalled on cpu, io, memory, of the whole machine."
ok_eq "the run without delays is counted, with the reason, once" \
	"$(joined_note out 'Runs without delays')" "Runs without delays (taskstats needs root): b process_load 1 of 4"
ok_eq "tasks with an impossible figure: one note for every cell, each counted out of how many" \
	"$(joined_note out 'A delay longer than')" \
	"A delay longer than its task's life, left out: c noload 4 of 300 tasks, c process_load 2 of 300 tasks"
ok "and only once" test "$(grep -c 'longer than its task' out)" -eq 1
ok "every line within 72 columns" within_72 out
"$CONTEST" report -d r --delays --type process_load >typ 2>err
ok "--type process_load: what it added to the noload, not shown" sh -c \
	"! grep -q '^noload:\$' typ && grep -q '^a  *\[3\]  *+50\.0  *+50\.0  *+39\.0 ' typ"

# long labels: a name that leaves the label column too little room goes
# on a line of its own, its figures under it; the legend wraps around the
# baseline's name; the notes are wrapped
long=6.10.0-rc7-next-20240912-with-a-long-name
mkdir long0 || exit 99
(cd long0 && python3 ../mk.py "$long" noload:100:2:1 noload:101:2:1 noload:102:2:1 \
	process_load:150:40:1 process_load:151:42:1 process_load:152:41:1 process_load:150:-:- &&
	python3 ../mk.py 6.9.0 noload:100:2:1 noload:101:2.2:1 noload:102:1.8:1 \
	process_load:150:80:1 process_load:151:81:1 process_load:152:82:1:1) || exit 99
"$CONTEST" report -d long0/r --delays --baseline "$long" >long 2>err
ok_eq "report --delays of a long label exits 0" "$?" 0
sed 's/^/# /' long
ok "long labels: every line within 72 columns" within_72 long
ok "the long name on a line of its own, its figures under it" awk -v n="$long" '
	$0 == n { name = NR } name && NR == name + 1 && /^  *\[3\]  *[+]50\.0 / { found = 1 }
	END { exit !found }' long
ok "6.9.0's Wait differs from the long baseline's: '*'" \
	grep -q '^6\.9\.0  *\[3\]  *+50\.0  *+50\.0  *+79\.0\* ' long
ok_eq "the legend's '*' line names the long baseline" "$(joined_note long '* differs')" \
	"* differs from $long's (Welch's t-test on the runs' seconds, Holm-adjusted p < 0.05)"
"$CONTEST" report -d long0/r --delays --format markdown >long.md 2>err
ok_eq "and as markdown" "$?" 0
ok "markdown: the long name in its row" grep -q "^| $long *| *\[3\] | *+50\.0 |" long.md

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
assert n['bad_tasks'] == '4' and c['bad_tasks'] == '2', (n, c)
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
ok "markdown: the difference, its star escaped" grep -q '| *+79\.0\\\* |' md
"$CONTEST" report -d r --columns >cols 2>err
ok "--columns: c's process_load CPUwt 81.0, IOdly 1.0" \
	sh -c "sed -n '/^process_load:\$/,/^\$/p' cols | grep -q '^c .* 81\.0   1\.0\$'"

done_testing
