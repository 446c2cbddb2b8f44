#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A disturbed noload must not poison every Ratio silently: the report notes
# a load Ratio below 0.9, a noload slower than its session's loaded runs, a
# noload whose CPU% is far below the other noloads', a run far outside its
# rounds (median absolute deviation), each naming the run, and says to run
# -n 3 or more where a session had one noload; the plan of the next suite
# says so too, and a suite prints the same notes at its end.  The records
# are written here (tests/data/records.py) after a real sitting: a
# tinyconfig kernel at -j8, n = 1, whose noload something else slowed to
# 420.7 s (CPU% 115, waiting on the disk); two clean noloads minutes later
# took 203.9 and 212.6 s (CPU% 195).
. "$TOP_SRCDIR/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed: no records to write"

# mk.py DIR LABEL SESSION TYPE:SECONDS:CPU%...: one session's runs, round
# by round (a type again starts the next round), of workload $WORKLOAD (a
# tinyconfig kernel), appended to DIR/LABEL.results
cat >mk.py <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ["TOP_SRCDIR"], "tests", "data"))
from records import line
d, label, sess = sys.argv[1:4]
os.makedirs(d, exist_ok=True)
path = os.path.join(d, label + ".results")
out = [] if os.path.exists(path) else ["# contest results, format 1: one record a line\n"]
out.append(line("env", [("label", label), ("session", sess), ("contest", "0.1.0"),
                        ("kernel", "6.8.0"), ("hostname", "alpha"), ("ncpus", "2")]))
rnd, seen = 1, set()
for spec in sys.argv[4:]:
    typ, secs, cpu = spec.split(":")
    if typ in seen:
        rnd, seen = rnd + 1, set()
    seen.add(typ)
    secs, cpu = float(secs), float(cpu)
    out.append(line("run", [("label", label), ("session", sess), ("type", typ),
                            ("round", rnd),
                            ("workload", os.environ.get("WORKLOAD", "kernel tinyconfig jobs=8")),
                            ("flush", "drop_caches"), ("valid", 1),
                            ("elapsed_ns", int(secs * 1e9)),
                            ("user_ns", int(secs * cpu / 100 * 1e9)), ("sys_ns", 0),
                            ("load_work", "0" if typ in ("noload", "cacherun") else "5"),
                            ("load_user_ns", int(secs * 0.3e9)), ("load_sys_ns", 0)]))
with open(path, "a") as f:
    f.writelines(out)
PY
python3 mk.py r k s1 noload:420.7:115 cacherun:200.3:190 process_load:240.0:160 \
	io_load:262.0:150 read_load:215.0:175 || exit 99

# ---- one sitting, n = 1: every Ratio below 0.9 ------------------------------------
"$CONTEST" report -d r >out 2>err
ok_eq "report exits 0" "$?" 0
ok "nothing on stderr" test ! -s err
ok "the Ratios the disturbed noload gave (240 / 420.7)" grep -q "^k  *\[1\]  240\.0 .*0\.57$" out
ok "each load Ratio below 0.9 noted" sh -c \
	'grep -qx "k process_load: Ratio 0.57, below 0.9: the build ran faster beside the load than alone" out &&
	 grep -qx "k io_load: Ratio 0.62, below 0.9: the build ran faster beside the load than alone" out &&
	 grep -qx "k read_load: Ratio 0.51, below 0.9: the build ran faster beside the load than alone" out'
ok "the noload slower than its session's loaded runs, named" grep -qx \
	"k noload round 1: 420.7 s, slower than its session's loaded runs (median 240.0 s)" out
ok "one noload: no CPU% note (its CPU% is set beside other noloads only)" sh -c \
	'! grep -q "CPU%.*far below" out'
ok "one noload: run the next suite with -n 3 or more" grep -qx \
	"k: every Ratio of a session rests on its one noload: run the next suite with -n 3 or more" out
ok "the notes under the tables" sh -c 'sed -n "/^read_load:/,\$p" out | grep -q "below 0.9"'
"$CONTEST" report -d r --format markdown >md 2>err
ok "markdown: the same notes, as list items" grep -qx -- \
	"- k noload round 1: 420.7 s, slower than its session's loaded runs (median 240.0 s)" md

# ---- two clean noloads minutes later: the odd one far outside its rounds -------
python3 mk.py r k s2 noload:203.9:195 noload:212.6:195 || exit 99
"$CONTEST" report -d r >out 2>err
ok "three noloads: the disturbed one far outside its rounds (median 212.6, MAD 8.7)" grep -qx \
	"k noload round 1 (session s1): 420.7 s, far outside its rounds (median 212.6 s)" out
ok "and not the clean ones" sh -c '! grep -q "round [12] (session s2)" out'
ok "its CPU% far below the other noloads' (195, 195)" grep -qx \
	"k noload round 1 (session s1): CPU% 115, far below the other noloads' (median 195)" out

# ---- a noload's CPU% against the other noloads', not the loaded runs' -----------
# noloads of 204, 213 and 210 s at CPU% 185, 183 and 120 (Times close: no
# Time note), beside loaded runs whose CPU% is low by design (the load takes
# the CPU): among all the row's runs the median CPU% is 74.5, under which 120
# is not far; among the noloads it is 184
python3 mk.py r cpu s6 noload:204.0:185 process_load:330.0:60 io_load:260.0:75 \
	noload:213.0:183 process_load:335.0:61 io_load:262.0:74 \
	noload:210.0:120 process_load:332.0:59 io_load:258.0:76 || exit 99
"$CONTEST" report -d r cpu >out 2>err
ok "the noload at CPU% 120 named, against the other noloads' median" grep -qx \
	"cpu noload round 3: CPU% 120, far below the other noloads' (median 184)" out
ok "and no other note" sh -c '[ "$(grep -c "^cpu [a-z_]*\( round [0-9]*\)\?: \|^cpu: " out)" = 1 ]'

# ---- three rounds, two of them close: the third 5% off is not far ---------------
# (the MAD of 3 is the smaller deviation, 0.1 s here: without a floor of
# 1.5% of the median the third would be 21 MADs out)
python3 mk.py r close s4 noload:30.0:195 noload:30.1:195 noload:31.5:195 || exit 99
"$CONTEST" report -d r close >out 2>err
ok "30.0, 30.1, 31.5 s: no run far outside its rounds" sh -c '! grep -q "far outside" out'
python3 mk.py r far s5 noload:30.0:195 noload:30.1:195 noload:33.0:195 || exit 99
"$CONTEST" report -d r far >out 2>err
ok "30.0, 30.1, 33.0 s: the third is (10% off)" grep -q "far outside its rounds (median 30.1 s)" out

# ---- a sound sitting: no note ---------------------------------------------------
python3 mk.py r ok s3 noload:200.0:195 noload:204.0:194 noload:202.0:196 \
	process_load:230.0:160 process_load:233.0:161 process_load:229.0:159 || exit 99
"$CONTEST" report -d r ok >out 2>err
ok "sound runs: none of the notes" sh -c \
	'! grep -q "below 0.9\|slower than\|far below\|far outside\|-n 3" out'
# the golden tables of 2002 have nothing odd either
"$CONTEST" report -d "$TOP_SRCDIR/tests/data/lkml-2002" >golden 2>/dev/null
ok "the 2002 tables: none of the notes" sh -c \
	'! grep -q "below 0.9\|slower than\|far below\|far outside\|-n 3" golden'

# ---- the plan of the next suite -----------------------------------------------------
# a store whose last suite of label plan had one noload of the workload
mkdir proj && proj=$(cd proj && pwd -P) || exit 99
args="-w cmd:$proj --build-cmd true --clean-cmd true -j 8"
id=$("$CONTEST" $args --dry-run -k plan -d p -n 1 noload 2>/dev/null |
     sed -n 's/^    workload: //p')
ok "the dry run names the workload" test -n "$id"
WORKLOAD=$id python3 mk.py p plan s1 noload:420.7:115 process_load:240.0:160 || exit 99
"$CONTEST" $args --dry-run -k plan -d p -n 1 noload process_load >plan 2>err
ok "the plan after a suite with one noload suggests -n 3 or more" grep -q -- "-n 3 or more" plan
"$CONTEST" $args --dry-run -k plan -d p -n 3 noload process_load >plan3 2>err
ok "not when -n 3 is asked for" sh -c '! grep -q -- "-n 3 or more" plan3'
"$CONTEST" $args --dry-run -k fresh -d p -n 1 noload process_load >fresh 2>err
ok "nor the last suite's note for a label without runs" sh -c '! grep -q -- "last suite had one noload" fresh'
ok "a -n 1 suite of a new label says its own one noload instead" grep -q -- "this suite alone cannot test" fresh

# ---- a suite prints the same notes at its end ---------------------------------------
# build 2 (the noload of round 1; build 1 is the warm-up) sleeps: a noload
# slowed by something else, as above
cat >proj/build.sh <<'EOF'
n=$(cat ../count 2>/dev/null || echo 0)
n=$((n + 1))
echo $n >../count
[ $n -ne 2 ] || sleep 3
EOF
"$CONTEST" -w cmd:proj --build-cmd "sh build.sh" --clean-cmd true -j 2 --lead-time 0 -n 1 \
	-k suite -d s --work-dir wd noload process_load >suite 2>err
ok_eq "the suite exits 0" "$?" 0
ok "its tables end with the note on the Ratio below 0.9" \
	grep -q "^suite process_load: Ratio 0\.[0-9]*, below 0\.9: " suite
ok "and on the noload, named" grep -q "^suite noload round 1: .* slower than its session's loaded runs" suite
ok "and says to run -n 3 or more" grep -qx \
	"suite: every Ratio of a session rests on its one noload: run the next suite with -n 3 or more" suite
grep '^suite [a-z_]*\( round [0-9]*\)\?: \|^suite: ' suite >suite.notes
"$CONTEST" report -d s suite 2>/dev/null | grep '^suite [a-z_]*\( round [0-9]*\)\?: \|^suite: ' >report.notes
ok "the report of its runs prints the same notes" cmp suite.notes report.notes

done_testing
