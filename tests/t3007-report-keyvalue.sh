#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contest report --format keyvalue: one "key: number" line per figure, for
# the parse scripts of test engines (LKP).  Every line has the shape, and
# every value is the json report's (the same figure, json's name mapped to
# the key docs/formats.md gives it), none missing, none more: by default the
# measurements only (Time, CPU%, Loads, LCPU%, Ratio) and the count of
# invalid runs, the derived statistics with --stats, the system figures
# with --columns.
. "$TOP_SRCDIR/tests/lib.sh"

data=$TOP_SRCDIR/tests/data
command -v python3 >/dev/null 2>&1 ||
	skip_all "python3 is not installed: the json report cannot be read to compare"

# check.py KEYVALUE JSON [stats] [columns]: the keys the json's figures give,
# against the lines
cat >check.py <<'PY'
import json, math, re, sys
kv, js = open(sys.argv[1]).read().split("\n"), json.load(open(sys.argv[2]))
assert kv[-1] == "", "no newline at the end"
shape = re.compile(r"^[A-Za-z0-9_.%-]+: -?[0-9.]+$")
bad = [l for l in kv[:-1] if not shape.match(l)]
assert not bad, "lines not 'key: number': %r" % bad[:3]
got = dict(l.split(": ") for l in kv[:-1])
assert len(got) == len(kv) - 1, "a key twice"
assert got.pop("keyvalue_version") == "2", "version"
stats, columns = "stats" in sys.argv[3:], "columns" in sys.argv[3:]
want = {}
rows = js["rows"]
def put(key, v):
    if v is not None and not (isinstance(v, float) and math.isinf(v)):
        want[key] = float(v)
for row in rows:
    pre = re.sub(r"[^A-Za-z0-9_.-]", "_", row["name"]) + "." if len(rows) > 1 else ""
    for c in row["cells"]:
        k = pre + c["run_type"] + "."
        for m, name in (("time", "time_s"), ("cpu", "cpu_pct"), ("loads", "loads"),
                        ("lcpu", "lcpu_pct")):
            put(k + name, c[m]["mean"])
        put(k + "ratio", c["ratio"]["value"])
        put(k + "invalid_runs", c["invalid_runs"])
        if columns:
            for f, v in c["system"].items():
                put(k + f, v)
        if not stats:
            continue
        put(k + "runs", c["runs"])
        for m, name in (("time", "time_s"), ("cpu", "cpu_pct"), ("loads", "loads"),
                        ("lcpu", "lcpu_pct")):
            s = c[m]
            for f in ("sd", "min", "median", "max", "ci_lo", "ci_hi"):
                put(k + name + "_" + f, s[f])
            if s["sd"] is not None and s["mean"]:
                put(k + name + "_stddev%", s["sd"] / s["mean"] * 100)
        put(k + "ratio_ci_lo", c["ratio"]["ci_lo"])
        put(k + "ratio_ci_hi", c["ratio"]["ci_hi"])
        put(k + "ratio_left_out", c["ratio"]["left_out"])
        for m, name in (("time", "time_s"), ("loads", "loads")):
            t = c["tests"][m]
            if "untested" in t:
                continue
            for f in ("t", "df", "p", "p_holm"):
                put(k + name + "_" + f, t[f])
            put(k + name + "_significant", 1 if t["significant"] else 0)
        put(k + "time_s_detectable%", c["time_detectable_pct"])
missing = sorted(set(want) - set(got))
extra = sorted(set(got) - set(want))
assert not missing, "json figures without a line: %r" % missing[:5]
assert not extra, "lines without a json figure: %r" % extra[:5]
for key, v in want.items():
    g = float(got[key])
    # the same 10 significant digits; stddev% is computed from two of them
    assert g == v or abs(g - v) <= 1e-9 * abs(v), "%s: %s, json %r" % (key, got[key], v)
print(len(want), "figures")
PY

# ---- several rows: keys carry the row's name -----------------------------------
"$CONTEST" report -d "$data/stats" --format keyvalue >kv 2>err
ok_eq "keyvalue exits 0" "$?" 0
ok "nothing on stderr" test ! -s err
"$CONTEST" report -d "$data/stats" --format json >json 2>/dev/null
ok "every line is 'key: number', the measurements only, as the json report's" \
	python3 check.py kv json
ok "the figures of the issue's example: process_load time_s, ratio, loads" \
	sh -c 'grep -qx "base.process_load.time_s: 110.75" kv &&
		grep -q "^base.process_load.ratio: 1\.1" kv &&
		grep -qx "base.process_load.loads: 102" kv'
ok "no derived statistic: no sd, interval, stddev%, t, df, p, runs" \
	sh -c '! grep -E "_(sd|min|median|max|ci_lo|ci_hi|stddev%|t|df|p|p_holm|significant|left_out): |\.runs: " kv'
ok_eq "one key per row, run type and figure: 5 and invalid_runs for each of the 13 cells" \
	"$(grep -vc '^keyvalue_version' kv)" 78
ok "a row name that is no key (mix (2)) is made one" grep -q '^mix__2_\.noload\.time_s: ' kv

"$CONTEST" report -d "$data/stats" --format keyvalue --stats --columns >all 2>/dev/null
ok "--stats --columns: the derived statistics and system figures too, as json" \
	python3 check.py all json stats columns
ok "among them process_load time_s_stddev%" grep -q "^base.process_load.time_s_stddev%: 1\.6" all
ok "a test that was made: its p and whether it is significant" \
	grep -q '^new\.process_load\.loads_significant: [01]$' all
ok "a test not made (the baseline's): no line" sh -c '! grep -q "^base\..*_p: " all'
"$CONTEST" report -d "$data/stats" --format keyvalue --stats >st 2>/dev/null
ok "--stats alone: no system figures" python3 check.py st json stats
"$CONTEST" report -d "$data/stats" --format keyvalue --columns >co 2>/dev/null
ok "--columns alone: no statistics" python3 check.py co json columns

# ---- one row: the keys of a job, the same from kernel to kernel ----------------------
"$CONTEST" report -d "$data/stats" --format keyvalue new >one 2>err
ok_eq "keyvalue of one label exits 0" "$?" 0
"$CONTEST" report -d "$data/stats" --format json new >one.json 2>/dev/null
ok "one row: the keys start with the run type" sh -c \
	'grep -q "^process_load\.time_s: " one && ! grep -q "^new\." one'
ok "and the values are the json report's" python3 check.py one one.json

# ---- other stores: sessions, --baseline, the 2002 runs --------------------------------
"$CONTEST" report -d "$data/sessions" --format keyvalue --stats >s.kv 2>/dev/null
"$CONTEST" report -d "$data/sessions" --format json >s.json 2>/dev/null
ok "sessions: the runs left out of the Ratio, as json" python3 check.py s.kv s.json stats
"$CONTEST" report -d "$data/lkml-2002-runs" --baseline ref-2.4.18 --format keyvalue \
	>b.kv 2>/dev/null
"$CONTEST" report -d "$data/lkml-2002-runs" --baseline ref-2.4.18 --format json \
	>b.json 2>/dev/null
ok "--baseline: the Ratios over the baseline's noload, as json" python3 check.py b.kv b.json

"$CONTEST" report -d "$data/stats" --format keyvalue --latency >/dev/null 2>err
ok_eq "--latency of a store without the probe, as keyvalue: exit 1" "$?" 1
ok "saying so" grep -q -- "no run of these labels ran the latency probe" err

done_testing
