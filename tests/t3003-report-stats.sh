#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# report --stats, the significance stars and legend, the noise floor, and the
# csv, json and markdown formats, on records with known times
# (tests/data/make-stats.py made them and says what they hold).
. "$TOP_SRCDIR/tests/lib.sh"

cp -r "$TOP_SRCDIR/tests/data/stats" results

# ---- --stats ---------------------------------------------------------------------
# --wide: every column on one line (the layout of a mail's is below)
"$CONTEST" report -d results --stats --wide base new one >out 2>err
ok_eq "report --stats --wide exits 0" "$?" 0
ok "nothing on stderr" test ! -s err
ok "the --stats header" grep -qx \
	"Kernel               \[runs\]   Time  +-sd  CPU%  Loads  LCPU%  Ratio     95% CI Change    Min    Max" out
# sd by Python's statistics.stdev: 2.2913 (base noload), 2.0022 (new
# process_load, 110 + the sleep data's drug 2); the Ratio's interval by
# Fieller, with the t quantile from integrating the t density in Python:
# new io_load 202 / 99.8 in [1.9904, 2.0586], process_load 112.33 / 99.8
# in [1.1051, 1.1464]
# (tests/data/stats-reference.py computes these, the noise CVs and the
# Welch and Holm p-values below)
ok "base noload: mean, sd, a noload over itself with no interval; the baseline row marked" grep -qx \
	"base (base)             \[5\]   99.9   2.3    90      0      0   1.00          -   base   97.2  103.1" out
ok_eq "the baseline's row first in every table" \
	"$(grep -A1 '^Kernel ' out | grep -c '^base (base) ')" "$(grep -c '^Kernel ' out)"
# Change: Time against base's, 112.33 / 110.8 and 202 / 152 (+32.9%,
# starred as Time is); Min and Max: the runs' own (make-stats.py)
ok "new process_load: the Loads starved, Time not significant (p 0.079), +1.4%" grep -qx \
	"new                    \[10\]  112.3   2.0    60     52\*    40   1.13 1.11..1.15  +1.4%  109.9  115.5" out
ok "new io_load: slower, the Ratio's interval, its change starred" grep -qx \
	"new                     \[5\]  202.0\*  1.6    60     12     40   2.02 1.99..2.06 +32.9%\* 200.0  204.0" out
ok "one run: no sd, no interval, no star, and no Change (160 / 152 is no test's +5.3%)" grep -qx \
	"one                     \[1\]  160.0     -    60     12     40   1.60          -    n/a  160.0  160.0" out
ok "a note says what Change is, and n/a" sh -c '
	grep -qx "Change: mean Time against base'"'"'s (+ slower, - faster)" out &&
	grep -qx "Min, Max: of the runs'"'"' Times; n/a: fewer than 2 runs on a side" out'
# the figures themselves are unit-stats' (samples drawn that far apart are
# found 80% of the time); here: one line per row tested, in per cent of
# base's mean Time, named by run type, the row named as two were compared,
# wrapped at a mail's 72 columns
ok_eq "the smallest detectable change of new's Times, under the legend" \
	"$(grep -A1 '^smallest detectable change, new: ' out)" \
	"smallest detectable change, new: noload 5.2%, process_load 2.7%,
  io_load 2.7%"
ok "and none for one, never tested (one run)" sh -c '! grep -q "^smallest detectable change, one" out'
ok "--wide: at most 100 columns, but for the environment's differences" \
	sh -c "sed '/^Measured differently/,\$d' out | grep -q '.\{101\}'; test \$? = 1"
ok "no tabs" sh -c "! grep -q '	' out"
ok_eq "one legend line, right under the tables" \
	"$(grep -c 'differs from\|significance test' out):$(grep -B1 '^\* ' out | head -n 1)" "1:"
ok "the legend: what a star means, and that one label was not tested" grep -qx \
	"\* differs from base (Welch's t-test, Holm-adjusted p < 0.05); no test: < 2 runs" out
ok "noise: the CV of base's noload Times (2.2913 / 99.9)" grep -qx \
	"base                 noise: 2.3% over 5 runs" out
ok "noise: new's (1.3509 / 99.8)" grep -qx "new                  noise: 1.4% over 5 runs" out
ok "no noise line with one noload run" sh -c "! grep -q '^one .*noise' out"
# for a mail: the columns past 72 in a second table under the first, a
# header of its own, the rows in the same order
"$CONTEST" report -d results --stats base new one >mail 2>err
ok_eq "report --stats exits 0" "$?" 0
ok_eq "--stats for a mail: every table in two, within 72 columns (the legend: 80)" \
	"$(grep -c '^Kernel ' mail):$(grep -v '^\* differs' mail | grep -c '.\{73\}')" "6:0"
ok_eq "io_load's table" "$(sed -n '/^io_load:$/,/^$/p' mail)" "io_load:
Kernel               [runs]   Time  +-sd  CPU%  Loads  LCPU%  Ratio
base (base)             [5]  152.0   1.6    60     12     40   1.52
new                     [5]  202.0*  1.6    60     12     40   2.02
one                     [1]  160.0     -    60     12     40   1.60
Kernel                   95% CI Change    Min    Max
base (base)          1.48..1.57   base  150.0  154.0
new                  1.99..2.06 +32.9%* 200.0  204.0
one                           -    n/a  160.0  160.0"
ok_eq "the notes as with --wide" "$(sed -n '/^\* differs/,$p' mail)" \
	"$(sed -n '/^\* differs/,$p' out)"
# README's example of --stats is what contest prints
"$CONTEST" report -d results --stats base new >example 2>/dev/null
awk '/^\.\/contest report -d tests\/data\/stats --stats base new$/ { on = 1; next }
     on == 1 && /^```$/ { on = 2; next } on == 2 && /^```$/ { on = 3; next }
     on == 3 && /^```$/ { exit } on == 3' "$TOP_SRCDIR/README.md" >readme
ok "README's --stats example is what contest prints" cmp example readme

# ---- --type: some run types only ---------------------------------------------------
"$CONTEST" report -d results --type io_load,process_load base new >out 2>err
ok_eq "--type io_load,process_load exits 0" "$?" 0
ok_eq "those tables only, in suite order" "$(grep '^[a-z_]*:$' out | tr '\n' ' ')" "process_load: io_load: "
ok "their Ratios still over the noload not shown (112.3 / 99.8)" \
	grep -q "^new  *\[10\]  112\.3 .*  1\.13$" out
"$CONTEST" report -d results --type process_load --format csv base new >csv 2>err
ok_eq "csv: the cells of that type only" "$(cut -d, -f6 csv | sed 1d | sort -u)" "process_load"
"$CONTEST" plot -d results --type io_load base new >svg 2>err
ok_eq "plot --type io_load: a bar per row of io_load" \
	"$(grep -o 'data-type="[a-z_]*"' svg | sort -u)" 'data-type="io_load"'
"$CONTEST" report -d results --type mem_load,process_load base new >out 2>err
ok_eq "--type with a run type without runs: exit 1" "$?" 1
ok "it names the run types there are" grep -qx \
	"contest: --type: no valid runs of 'mem_load' in the rows shown; their run types: noload, process_load, io_load" err
"$CONTEST" report -d results --type , >out 2>err
ok_eq "--type , is a usage error" "$?" 2
"$CONTEST" report -d results nosuch base >out 2>err
ok "a label without runs: the labels there are named" grep -qx \
	"contest: no valid runs stored for label 'nosuch' (labels with runs: base, mix, new, one)" err

# ---- the default table keeps the stars -------------------------------------------
"$CONTEST" report -d results base new >out 2>err
ok "default table: the 2002 columns, a star after the value" grep -qx \
	"new                     \[5\]  202.0\*   60     12     40   2.02" out
ok "default table: the legend, every label tested" grep -qx \
	"\* differs from base (Welch's t-test, Holm-adjusted p < 0.05)" out
ok "default table: the smallest detectable change under it, one row tested: not named" \
	sh -c 'grep -A1 "^\* differs" out | tail -n 1 |
	       grep -qx "smallest detectable change: noload 5.2%, process_load 2.7%, io_load 2.7%"'
# process_load's raw p is 0.0794 (R: t.test(extra ~ group, data = sleep));
# Holm doubles it within new's three run types: 0.159
"$CONTEST" report -d results --alpha 0.1 base new >out 2>err
ok "--alpha 0.1: p 0.079 < 0.1, but Holm-adjusted 0.159 is not: no star" \
	grep -q "^new  *\[10\]  112.3  " out
"$CONTEST" report -d results --alpha 0.2 base new >out 2>err
ok "--alpha 0.2: now starred" grep -q "^new  *\[10\]  112.3\* " out
ok "and the legend says 0.2" grep -q "p < 0.2)$" out
ok "a laxer alpha: smaller detectable changes (alpha / 3 = 0.067)" sh -c \
	'grep "^smallest detectable change: " out | awk -F"process_load " "{ exit !(\$2 + 0 < 2.7) }"'
# the baseline's runs are used whether or not it is listed (it had "fewer
# than 2 valid runs on a side" with 5 runs of base)
"$CONTEST" report -d results --baseline base new >out 2>err
ok "--baseline base new: new io_load tested against base, starred" \
	grep -q "^new  *\[5\]  202.0\* " out
ok "and the legend says what the star means" grep -qx \
	"\* differs from base (Welch's t-test, Holm-adjusted p < 0.05)" out
"$CONTEST" report -d results --baseline base --format csv new >csv 2>err
col=$(head -n 1 csv | tr ',' '\n' | grep -n -x 'time_untested' | cut -d: -f1)
ok_eq "csv: every cell of new tested ($col)" \
	"$(awk -F, -v c="${col:-0}" 'NR > 1 && c && $c != ""' csv | wc -l | tr -d ' ')" 0
"$CONTEST" report -d results --baseline new base new >out 2>err
ok "--baseline new: base is tested against new" grep -q "^\* differs from new " out
ok "--baseline new: Ratios over new's noload (152 / 99.8)" grep -q "^base  *\[5\]  152.0\*.* 1.52$" out
"$CONTEST" report -d results new base >out 2>err
ok "no --baseline: the first label named is the baseline" grep -q "^\* differs from new " out

ok "the environment's differences: a control character shown as ?" \
	grep -qx "cmdline: new ro?quiet, base absent" out

# ---- configurations apart ----------------------------------------------------------
"$CONTEST" report -d results base mix >out 2>err
ok "load_session=1 runs are a row of their own: process_load 111.0 and 221.0" \
	sh -c "grep -q '^mix (1)  *\[3\]  111.0 ' out && grep -q '^mix (2)  *\[3\]  221.0\* ' out"
ok "a line says why mix has two rows" \
	grep -qx "mix (1) and mix (2): mix measured in 2 configurations, shown apart" out
ok "and which is which" grep -qx "load_session: base no, mix (1) no, mix (2) yes" out

# ---- --columns ---------------------------------------------------------------------
"$CONTEST" report -d results --columns --wide base one >out 2>err
ok "--columns --wide: the system figures' headers" grep -q \
	"Ratio Loads/s CPU+L% Idle% IOwt% MajFlt SwpIn SwpOut CPUwt IOdly$" out
ok "--columns: base's figures (Loads 12 over 152 s; idle 8.0, iowait 1.5, 30 faults)" grep -qx \
	"base (base)             \[5\]  152.0    60     12     40   1.52    0.08    100   8.0   1.5     30     0      3     -     -" out
ok "--columns: records without them show -" grep -qx \
	"one                     \[1\]  160.0    60     12     40   1.60    0.07    100     -     -      -     -      -     -     -" out
"$CONTEST" report -d results --columns base one >mail 2>err
ok_eq "--columns for a mail: every table in two, within 72 columns" \
	"$(grep -c '^Kernel ' mail):$(grep -v '^\* differs' mail | grep -c '.\{73\}')" \
	"$((2 * $(grep -c '^Kernel ' out))):0"

# ---- markdown ---------------------------------------------------------------------
"$CONTEST" report -d results --format markdown base new >md 2>err
ok_eq "markdown exits 0" "$?" 0
ok "markdown: a table with aligned columns" grep -q '^|:-*|-*:|' md
ok "markdown: stars escaped" grep -q '| 202.0\\\* |' md
ok "markdown: the legend as a list item" grep -q '^- \\\* differs from base' md

# ---- csv ---------------------------------------------------------------------------
"$CONTEST" report -d results --format csv base new one >csv 2>err
ok_eq "csv exits 0" "$?" 0
ok_eq "csv: a header, then one line per label and run type (3 x 3)" "$(wc -l <csv)" 10
ok_eq "csv: every line names the schema" "$(grep -c '^contest-report/2,' csv)" 9
ok "csv: the header names the figures" grep -q \
	"^schema,row,label,workload,load_session,run_type,runs,invalid_runs,time_mean,time_sd," csv

# ---- json --------------------------------------------------------------------------
"$CONTEST" report -d results --format json >json 2>err
ok_eq "json exits 0" "$?" 0
if command -v python3 >/dev/null 2>&1; then
	ok "csv parses, every line as wide as the header" python3 -c '
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
assert len({len(r) for r in rows}) == 1, {len(r) for r in rows}
d = dict(zip(rows[0], rows[1]))
assert d["env_cpu_model"] == "Fake CPU, \"quoted\"", d["env_cpu_model"]
cells = {(r[1], r[5]): dict(zip(rows[0], r)) for r in rows[1:]}
# Change as the text prints it: 202 / 152 and 112.33 / 110.75 (+32.9%, +1.4%)
c = cells[("new", "io_load")]
assert abs(float(c["time_change_pct"]) - (202 / 152 - 1) * 100) < 1e-6, c["time_change_pct"]
assert abs(float(cells[("new", "process_load")]["time_change_pct"]) - 1.4) < 0.05
assert cells[("base", "io_load")]["time_change_pct"] == "", "the test base: no Change"
assert abs(float(cells[("one", "io_load")]["time_change_pct"]) - (160 / 152 - 1) * 100) < 1e-6
# the detectable change where Time was tested, as the text rounds it
assert [round(float(cells[("new", t)]["time_detectable_pct"]), 1)
        for t in ("noload", "process_load", "io_load")] == [5.2, 2.7, 2.7]
assert cells[("one", "io_load")]["time_detectable_pct"] == "", "one run: no test, no figure"
assert cells[("base", "io_load")]["time_detectable_pct"] == ""
' csv
	ok "json parses: the schema, five rows, the tests as computed by R" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "contest-report/2" and d["test_base"] == "base"
rows = {r["name"]: r for r in d["rows"]}
assert sorted(rows) == ["base", "mix (1)", "mix (2)", "new", "one"], sorted(rows)
cells = {c["run_type"]: c for c in rows["new"]["cells"]}
t = cells["process_load"]["tests"]["time"]
# R, t.test(extra ~ group, data = sleep): t = -1.8608, df = 17.776, p = 0.07939
assert abs(t["t"] - 1.8608) < 5e-5 and abs(t["df"] - 17.776) < 5e-4, t
assert abs(t["p"] - 0.07939) < 5e-6 and not t["significant"], t
ps = sorted(c["tests"]["time"]["p"] for c in cells.values())
holm = [min(1, (3 - i) * p) for i, p in enumerate(ps)]
holm = [max(holm[:i + 1]) for i in range(3)]
got = sorted(c["tests"]["time"]["p_holm"] for c in cells.values())
assert all(abs(a - b) < 1e-9 for a, b in zip(got, holm)), (got, holm)
assert cells["process_load"]["tests"]["loads"]["significant"]
assert "untested" in cells["noload"]["tests"]["loads"]
one = {c["run_type"]: c for c in rows["one"]["cells"]}
assert one["noload"]["tests"]["time"]["untested"].startswith("fewer than 2")
assert one["noload"]["system"]["idle"] is None
assert abs(rows["base"]["noise"]["cv"] - 2.2912878474779164 / 99.9) < 1e-9
assert rows["new"]["environment"][0]["cmdline"] == "ro\x01quiet"
assert rows["mix (2)"]["load_session"] is True
io = cells["io_load"]
assert abs(io["time_change_pct"] - (202 / 152 - 1) * 100) < 1e-6, io["time_change_pct"]
assert round(io["time_detectable_pct"], 1) == 2.7, io["time_detectable_pct"]
base = {c["run_type"]: c for c in rows["base"]["cells"]}
assert base["io_load"]["time_change_pct"] is None and base["io_load"]["time_detectable_pct"] is None
assert one["io_load"]["time_detectable_pct"] is None
' json
else
	skip "python3 is not installed: the csv and json are not parsed"
	skip "python3 is not installed: the csv and json are not parsed"
fi

# ---- a comparison's directory: one baseline -------------------------------------------
# The end of contest compare tests against its first configuration (it names
# them in their order); a report of the directory must too, not the first
# label in sort order, or every Change flips its sign.
if command -v python3 >/dev/null 2>&1; then
	# cmp.py DIR ID LABEL:SECONDS...: comparison ID's records, its
	# configurations in the order given (compare_index), 3 rounds each of
	# noload (100 s) and process_load (SECONDS)
	cat >cmp.py <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ["TOP_SRCDIR"], "tests", "data"))
from records import line
d, cid = sys.argv[1:3]
os.makedirs(d, exist_ok=True)
for i, arg in enumerate(sys.argv[3:]):
    label, secs = arg.split(":")
    out = [line("env", [("label", label), ("session", cid), ("contest", "0.1.0"),
                        ("compare", cid), ("compare_index", i),
                        ("compare_configs", len(sys.argv) - 3)])]
    for rnd in (1, 2, 3):
        for typ, t in (("noload", 100), ("process_load", float(secs))):
            ns = int((t + rnd) * 10**9)
            out.append(line("run", [("label", label), ("session", cid), ("type", typ),
                                    ("round", rnd), ("workload", "builtin scale=40 jobs=8"),
                                    ("flush", "drop_caches"), ("valid", 1), ("elapsed_ns", ns),
                                    ("user_ns", ns), ("sys_ns", 0), ("load_work", "10"),
                                    ("load_user_ns", ns // 2), ("load_sys_ns", 0)]))
    with open(os.path.join(d, label + ".results"), "a") as f:
        f.writelines(out)
PY
	# --vary autogroup=1,0: the first configuration sorts last
	python3 cmp.py c 1700000000-11 autogroup=1:150 autogroup=0:120 || exit 99
	change() {	# autogroup=0's process_load Change in report FILE
		sed -n '/^process_load:$/,/^$/p' "$1" | grep '^autogroup=0 ' | grep -o '[-+][0-9.]*%\*\?'
	}
	"$CONTEST" report -d c --compare 1700000000-11 --stats >cmp.out 2>err
	ok_eq "report --compare: autogroup=0 against the first configuration (122 / 152)" \
		"$(change cmp.out)" "-19.7%*"
	"$CONTEST" report -d c --stats >all.out 2>err
	ok_eq "report of the directory: exits 0" "$?" 0
	ok "report of the directory: tested against the first configuration too" \
		grep -qx "\* differs from autogroup=1 (Welch's t-test, Holm-adjusted p < 0.05)" all.out
	ok_eq "the same Change, the same sign" "$(change all.out)" "-19.7%*"
	ok_eq "the baseline's row first in every table, marked" \
		"$(grep -A1 '^Kernel ' all.out | grep -c '^autogroup=1 (base) ')" \
		"$(grep -c '^Kernel ' all.out)"
	"$CONTEST" report -d c >all.out 2>err
	ok_eq "the default table: the baseline first, marked" \
		"$(sed -n '/^process_load:$/,/^$/p' all.out | awk 'NR > 2 && NF { print $1, $2 }')" \
		"autogroup=1 (base)
autogroup=0 [3]"
	"$CONTEST" report -d c --format markdown --no-header >md 2>err
	ok_eq "markdown: the baseline first, marked" \
		"$(grep '^| autogroup' md | head -n 2 | cut -d'|' -f2)" \
		" autogroup=1 (base) 
 autogroup=0        "
	"$CONTEST" report -d c --baseline autogroup=0 >bl.out 2>err
	ok "--baseline still chooses" sh -c '
		grep -q "^\* differs from autogroup=0 " bl.out &&
		sed -n "/^noload:\$/,/^\$/p" bl.out | sed -n 3p | grep -q "^autogroup=0 (base)  "'
	"$CONTEST" report -d c autogroup=0 autogroup=1 >named.out 2>err
	ok "so does the first label named" grep -q "^\* differs from autogroup=0 " named.out
	# a later comparison in the same directory, its configurations the other
	# way round: the earliest comparison's first stays the baseline
	python3 cmp.py c 1800000000-12 autogroup=0:120 autogroup=1:150 || exit 99
	"$CONTEST" report -d c >two.out 2>err
	ok "two comparisons: the earliest one's first configuration" \
		grep -q "^\* differs from autogroup=1 " two.out
else
	skip "python3 is not installed: no comparison's records"
fi

# ---- bad values ----------------------------------------------------------------------
"$CONTEST" report -d results --alpha 0 >out 2>err
ok_eq "--alpha 0 is a usage error" "$?" 2
ok "and says what it wants" grep -q "alpha wants a probability between 0 and 1" err
"$CONTEST" report -d results --format xml >out 2>err
ok_eq "--format xml is a usage error" "$?" 2
ok "and names the formats" grep -q "format wants text, markdown, csv, json or keyvalue, not 'xml'" err

done_testing
