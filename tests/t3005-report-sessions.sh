#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A Ratio divides by the noload of the same session by default, so that a
# noload from another boot or another day never enters; --pool-noload pools
# the label's sessions as before.  Records with known Times from
# tests/data/make-sessions.py, which says what they hold and computes the
# intervals (`make-sessions.py --check`).
. "$TOP_SRCDIR/tests/lib.sh"

cp -r "$TOP_SRCDIR/tests/data/sessions" results
cp "$TOP_SRCDIR/tests/data/stats/base.results" results/

# ---- the default: each session's own noload -----------------------------------
"$CONTEST" report -d results two later gap noisy >out 2>err
ok_eq "report exits 0" "$?" 0
ok "nothing on stderr" test ! -s err
# two: io_load 134 / (3 x 100 + 3 x 120) / 6 = 1.218; pooled it would be 1.26
ok "two sessions, noload 100 and 120 s: 134 / 110 = 1.22" \
	grep -qx "two (base)              \[6\]  134.0    60     10     40   1.22" out
ok "loads run in the second session only: its noload, 144 / 120 = 1.20" \
	grep -qx "later                   \[3\]  144.0    60     10     40   1.20" out
ok "a session without a noload: its runs stay in Time (140.0), out of the Ratio (130 / 100)" \
	grep -qx "gap                     \[6\]  140.0    60     10     40   1.30" out
ok "and a line says so" \
	grep -qx "gap: 3 runs of sessions without a noload left out of its Ratios" out
ok "a noload over its own sessions' noloads is 1.00" \
	grep -qx "two (base)              \[6\]  106.7    90      0      0   1.00" out
ok "the legend says which noload the Ratios divide by" grep -qx \
	"Ratio: Times over the noload of their own session (--pool-noload pools the sessions)" out

# ---- --pool-noload: every session of the label ------------------------------------
"$CONTEST" report -d results --pool-noload two later gap noisy >pool 2>err
ok_eq "--pool-noload exits 0" "$?" 0
ok "pooled: two 134 / 106.7 = 1.26" \
	grep -qx "two (base)              \[6\]  134.0    60     10     40   1.26" pool
ok "pooled: later 144 / 110 = 1.31" \
	grep -qx "later                   \[3\]  144.0    60     10     40   1.31" pool
ok "pooled: gap 140 / 100 = 1.40, no run left out" sh -c \
	"grep -qx 'gap                     \[6\]  140.0    60     10     40   1.40' pool && ! grep -q 'left out' pool"
ok "the legend says the noload is pooled" grep -qx \
	"Ratio: Times over the noload of all the label's sessions, pooled (--pool-noload)" pool

# ---- one session a row: both ways agree, and nothing is said ---------------------
"$CONTEST" report -d results base >one 2>err
"$CONTEST" report -d results --pool-noload base >onepool 2>err
ok "one session: the same tables either way" cmp one onepool
ok "and no Ratio line in the legend" sh -c "! grep -q '^Ratio:' one"

# ---- the intervals: Fieller with the variances within the sessions ------------------
"$CONTEST" report -d results --stats --wide two noisy >stats 2>err
# make-sessions.py --check: two 1.218182 in [1.197573, 1.238791] (df 4),
# noisy 1.289373 in [1.265231, 1.313838] (df 9.2)
ok "--stats: two's interval (the noloads do not vary within a session)" \
	grep -q "^two (base)              \[6\]  134.0  13.3    60     10     40   1.22 1.20..1.24 " stats
ok "--stats: noisy's interval" \
	grep -q "^noisy                   \[7\]  143.9  11.3    60     10     40   1.29 1.27..1.31 " stats
"$CONTEST" report -d results --format csv two noisy gap >csv 2>err
ok_eq "csv exits 0" "$?" 0
if command -v python3 >/dev/null 2>&1; then
	ok "csv: the Ratios and intervals to 6 digits, how they were divided, the runs left out" python3 -c '
import csv, sys
rows = {(r["row"], r["run_type"]): r for r in csv.DictReader(open(sys.argv[1]))}
want = {("two", "io_load"): (1.218182, 1.197573, 1.238791),
        ("noisy", "process_load"): (1.289373, 1.265231, 1.313838)}
for k, (r, lo, hi) in want.items():
    got = rows[k]
    for f, v in (("ratio", r), ("ratio_ci_lo", lo), ("ratio_ci_hi", hi)):
        assert abs(float(got[f]) - v) < 5e-7, (k, f, got[f], v)
assert all(r["ratio_noload"] == "session" for r in rows.values())
assert rows[("gap", "io_load")]["ratio_left_out"] == "3", rows[("gap", "io_load")]
assert rows[("two", "io_load")]["ratio_left_out"] == "0"
' csv
	"$CONTEST" report -d results --format json --pool-noload gap >json 2>err
	ok "json --pool-noload: ratio_noload pooled, nothing left out, gap 140 / 100" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["ratio_noload"] == "pooled", d["ratio_noload"]
cell = [c for c in d["rows"][0]["cells"] if c["run_type"] == "io_load"][0]
assert cell["ratio"]["left_out"] == 0 and abs(cell["ratio"]["value"] - 1.4) < 1e-9, cell
' json
else
	skip "python3 is not installed: no csv check"
	skip "python3 is not installed: no json check"
fi

# ---- --baseline: that label's noload, of all its sessions ---------------------------
"$CONTEST" report -d results --baseline two later >base 2>err
ok_eq "--baseline two exits 0" "$?" 0
ok "--baseline: later 144 over two's noload of both sessions (106.7) = 1.35" \
	grep -qx "later                   \[3\]  144.0    60     10     40   1.35" base
ok "--baseline: no Ratio line (no session to match)" sh -c "! grep -q '^Ratio:' base"

# ---- plot: the legend says it too ----------------------------------------------------
"$CONTEST" plot -d results two later >plot.svg 2>err
ok_eq "plot exits 0" "$?" 0
ok "plot: the Ratio's noload is the same label's and session's" \
	grep -q "mean noload Time of the same label and session;" plot.svg
ok "plot: two's io_load bar at 1.2182" grep -q 'data-row="two" data-type="io_load" data-ratio="1.2182"' plot.svg
"$CONTEST" plot -d results --pool-noload two later >pool.svg 2>err
ok "plot --pool-noload: pooled, and said" sh -c \
	"grep -q 'data-row=\"two\" data-type=\"io_load\" data-ratio=\"1.256[0-9]\"' pool.svg && grep -q 'all sessions pooled (--pool-noload)' pool.svg"
"$CONTEST" plot -d results base >one.svg 2>err
ok "plot, one session: the legend as before" grep -q "mean noload Time of the same label;" one.svg

done_testing
