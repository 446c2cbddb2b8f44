#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Runs stored under one label from two kernels are never averaged into one
# row: the same `uname -r` of a patched and an unpatched build (another
# version string), and one label of compare sittings on two releases, split
# into rows whose names can be given back as labels, with a note saying
# which kernel each row is.  The rows of one label on two kernels are
# tested against each other (the first row is the reference), and a row's
# name can be the --baseline.  The records are written here
# (tests/data/records.py).
. "$TOP_SRCDIR/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed: no records to write"

# mk.py DIR LABEL RELEASE VERSION NOLOAD LOADED [SESSION]: one session of
# LABEL on that kernel, three rounds of noload and process_load (Times
# NOLOAD and LOADED, +-1 s), appended to DIR/LABEL.results
cat >mk.py <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ["TOP_SRCDIR"], "tests", "data"))
from records import line
d, label, rel, ver, nl, ld, sess = sys.argv[1:8]
os.makedirs(d, exist_ok=True)
path = os.path.join(d, label + ".results")
out = [] if os.path.exists(path) else ["# contest results, format 1: one record a line\n"]
out.append(line("env", [("label", label), ("session", sess), ("contest", "0.1.0"),
                        ("kernel", rel), ("kernel_version", ver), ("hostname", "alpha"),
                        ("cpu_model", "Some CPU"), ("ncpus", "2")]))
for rnd, dt in ((1, 0), (2, 1), (3, -1)):
    for typ, secs, work in (("noload", float(nl), 0), ("process_load", float(ld), 20)):
        out.append(line("run", [("label", label), ("session", sess), ("type", typ),
                                ("round", rnd), ("workload", "builtin scale=40 jobs=8"),
                                ("flush", "fadvise"), ("valid", 1),
                                ("elapsed_ns", int((secs + dt) * 1e9)),
                                ("user_ns", int(secs * 0.9e9)), ("sys_ns", 0),
                                ("load_work", "%f" % work),
                                ("load_user_ns", int(secs * 0.4e9)), ("load_sys_ns", 0)]))
with open(path, "a") as f:
    f.writelines(out)
PY
v1="#1 SMP PREEMPT_DYNAMIC Tue Mar  5 10:00:00 UTC 2024"
v2="#2 SMP PREEMPT_DYNAMIC Wed Mar  6 11:00:00 UTC 2024"
# the patched build: same release, another version string; 100 / 150 and 100 / 120
python3 mk.py r 6.8.0 6.8.0 "$v1" 100 150 s1 &&
python3 mk.py r 6.8.0 6.8.0 "$v2" 100 120 s2 &&
# a compare sitting's label on two releases: 90 / 99 and 80 / 120
python3 mk.py r autogroup=0 6.8.0 "$v1" 90 99 s3 &&
python3 mk.py r autogroup=0 6.9.0 "$v1" 80 120 s4 &&
# one kernel, two sessions: one row as before
python3 mk.py r other 6.8.0 "$v1" 100 110 s5 &&
python3 mk.py r other 6.8.0 "$v1" 100 130 s6 || exit 99

"$CONTEST" report -d r >out 2>err
ok_eq "report exits 0" "$?" 0
ok "nothing on stderr" test ! -s err
ok "one release, two builds: two rows, named by release and build (150 / 100, 120 / 100)" \
	sh -c 'grep -q "^6\.8\.0@6\.8\.0#1 (base)  *\[3\]  150\.0 .*1\.50$" out &&
	       grep -q "^6\.8\.0@6\.8\.0#2  *\[3\]  120\.0\* .*1\.20$" out'
ok "no averaged row (135.0)" sh -c '! grep -q "135\.0" out && ! grep -q "^6\.8\.0  " out'
ok "two releases: named by release (99 / 90, 120 / 80)" \
	sh -c 'grep -q "^autogroup=0@6\.8\.0  *\[3\]   99\.0.*1\.10$" out &&
	       grep -q "^autogroup=0@6\.9\.0  *\[3\]  120\.0.*1\.50$" out'
ok "a line says why 6.8.0 has two rows" \
	grep -qx "6.8.0@6.8.0#1 and 6.8.0@6.8.0#2: 6.8.0 measured on 2 kernels, shown apart" out
ok "and which kernel each is, in full" sh -c "grep -qx '6.8.0@6.8.0#1: kernel 6.8.0 $v1' out &&
	grep -qx '6.8.0@6.8.0#2: kernel 6.8.0 $v2' out"
ok "one kernel in two sessions: one row (110 and 130)" grep -q "^other  *\[6\]  120\.0\* " out
ok "the two builds are tested against each other: the first is the reference" \
	grep -qx "\* differs from 6.8.0@6.8.0#1 (Welch's t-test, Holm-adjusted p < 0.05)" out
"$CONTEST" report -d r --stats --wide "6.8.0@6.8.0#2" "6.8.0@6.8.0#1" >st 2>err
ok "--stats ROW ROW: the first named is the base, the other 25% slower" sh -c \
	'grep -q "^6\.8\.0@6\.8\.0#2 .* base " st && grep -q "^6\.8\.0@6\.8\.0#1  *\[3\]  150\.0\* .* +25\.0%\* " st'
"$CONTEST" report -d r --baseline "6.8.0@6.8.0#2" "6.8.0" >bl 2>err
ok_eq "--baseline ROW: exits 0" "$?" 0
ok "the Ratios divide by that row's noload (150 / 100)" \
	grep -q "^6\.8\.0@6\.8\.0#1  *\[3\]  150\.0\*.* 1\.50$" bl

"$CONTEST" report -d r "6.8.0@6.8.0#2" >two 2>err
ok_eq "a row's name given back as a label: exits 0" "$?" 0
ok "nothing on stderr" test ! -s err
ok "only that row" sh -c 'grep -q "^6\.8\.0@6\.8\.0#2  *\[3\]  120\.0 " two &&
	! grep -q "^6\.8\.0@6\.8\.0#1 " two && ! grep -q "^autogroup" two'
"$CONTEST" report -d r --format csv autogroup=0@6.9.0 6.8.0 >csv 2>err
ok_eq "rows and labels mixed: exits 0" "$?" 0
ok_eq "csv: the rows asked for, by name" "$(cut -d, -f2 csv | sed 1d | sort -u | tr '\n' ' ')" \
	"6.8.0@6.8.0#1 6.8.0@6.8.0#2 autogroup=0@6.9.0 "
"$CONTEST" report -d r "6.8.0@6.8.0#9" >/dev/null 2>err
ok "a row name that fits no row says so" grep -q "no row named '6.8.0@6.8.0#9'" err

done_testing
