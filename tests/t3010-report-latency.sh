#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contest report --latency: quick suites with the probe under two labels (A
# by default, B with --probe), then under A one with --no-probe and one with
# --probe=full.  The latency tables against the records themselves: per
# row, run type and task the runs counted, the wakeups (the sum of the
# runs' histogram counts), the max (the largest of the runs' maxima), Miss%
# (their misses over their periods) and the percentiles in order; csv,
# json, keyvalue and text agree; the main table's p99 line is the latency tables';
# light, full and no-probe runs are rows apart in every table; a store
# without probe runs is refused.  First, from records written here with
# histograms of known figures (issue 47, point 8): the text prints each
# task's wakeups, a percentile only where 10 wakeups or more lie above it,
# each figure rounded to the spread of the runs' own, and every line within
# a mail's 72 columns, a long label's too.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"
command -v "${CC:-cc}" >/dev/null || skip_all "no C compiler (${CC:-cc})"


# --- known histograms ----------------------------------------------------------
# Two noload runs a label, the light probe's tasks with wakeups at bucket
# middles of the histogram (src/results/hist.c), so that every figure read
# back is known: audio 5,900 at 20 us, 80 at 1 ms and 20 at 2 ms a run (its
# p99 1.0035 ms, the second run of "spread" at twice the p99 and p99.9:
# the runs differ 2x), video 690 at 0.1 ms and 10 at 5 ms, input 345 at
# 0.05 ms and 5 at 8 ms.  Merged, audio has 12,000 wakeups (p99.9 shown),
# video 1,400 (p99, not p99.9), input 700 (p90, not p99).
long=6.10.0-rc7-next-20240912-with-a-long-name
if command -v python3 >/dev/null; then
	cat >mk.py <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ["TOP_SRCDIR"], "tests", "data"))
from records import line

def mid(v):
    # the middle of v's bucket: 64 a power of two from 2^9 ns
    e = v.bit_length() - 1
    shift = e - 6
    return ((v >> shift) << shift) + (1 << shift) // 2

def bucket(v):
    e = v.bit_length() - 1
    return (e - 9) * 64 + (v >> (e - 6)) - 64

def hist(values):	# {ns: count}, ns at bucket middles
    vs = sorted(values)
    n = sum(values.values())
    runs, last = [], None
    for v in vs:
        i = bucket(v)
        if last is not None and i == last + 1:
            runs[-1] += ",%d" % values[v]
        else:
            runs.append("%d:%d" % (i, values[v]))
        last = i
    return "h1/%d/%d/%d/%d/0/0/%s" % (n, vs[0], vs[-1], sum(v * c for v, c in values.items()),
                                      ";".join(runs))

label, twice = sys.argv[1], sys.argv[2] == "spread"
os.makedirs("lat", exist_ok=True)
out = ["# contest results, format 1: one record a line\n",
       line("env", [("label", label), ("session", "s"), ("contest", "0.1.0"),
                    ("kernel", "6.8.0"), ("hostname", "alpha"), ("ncpus", "2")])]
for rnd in (1, 2):
    k = 2 if twice and rnd == 2 else 1
    tasks = {"audio": {mid(20000): 5900, mid(k * 1000000): 80, mid(k * 2000000): 20},
             "video": {mid(100000): 690, mid(5000000): 10},
             "input": {mid(50000): 345, mid(8000000): 5}}
    kv = [("label", label), ("session", "s"), ("type", "noload"), ("round", rnd),
          ("workload", "builtin"), ("flush", "drop_caches"), ("valid", 1),
          ("elapsed_ns", 30 * 10**9), ("user_ns", 30 * 10**9), ("sys_ns", 0),
          ("load_work", "1.0"), ("load_user_ns", 0), ("load_sys_ns", 0),
          ("probe_cal", "100"), ("probe_profile", "light")]
    for t, work in (("audio", 20000), ("video", 50000), ("input", 50000)):
        kv += [("probe_%s_work_ns" % t, work), ("probe_%s" % t, hist(tasks[t])),
               ("probe_%s_periods" % t, sum(tasks[t].values())), ("probe_%s_misses" % t, 0)]
    out.append(line("run", kv))
with open(os.path.join("lat", label + ".results"), "a") as f:
    f.writelines(out)
PY
	python3 mk.py tight same && python3 mk.py spread spread && python3 mk.py "$long" same ||
		exit 99
	"$CONTEST" report --latency -d lat >lat.out 2>lat.err
	ok_eq "report --latency of the known histograms exits 0" "$?:$(cat lat.err)" "0:"
	sed 's/^/# /' lat.out
	fig() {	# fig ROW TASK: the figures of ROW's line of TASK, from Wakeups on
		awk -v row="$1" -v task="$2" '$1 == row { on = 1 } on && NF >= 9 && $(NF - 8) == task {
			for (i = NF - 6; i <= NF; i++) printf "%s%s", $i, i < NF ? " " : "\n"; exit }' lat.out
	}
	ok "the header names the wakeups" \
		grep -q '^Kernel  *Task  *\[runs\]  *Wakeups  *p50  *p90  *p99  *p99\.9  *max  *Miss%$' lat.out
	ok_eq "audio, runs alike: 12000 wakeups, 3 figures (no spread), p99.9 shown" \
		"$(fig tight audio)" "12000 0.0201 0.0201 1.00 2.01 2.01 0.0"
	ok_eq "audio, runs 2x apart: p99 and p99.9 as the spread allows (1.0, 4)" \
		"$(fig spread audio)" "12000 0.0201 0.0201 1.0 4 4 0.0"
	ok_eq "video, 1400 wakeups: p99, no p99.9" "$(fig tight video)" "1400 0.0998 0.0998 5.01 - 5.01 0.0"
	ok_eq "input, 700 wakeups: p90, no p99" "$(fig tight input)" "700 0.0499 0.0499 - - 8.03 0.0"
	ok "every line within 72 columns, the long label's too" within_72 lat.out
	ok "the long label on a line of its own, its tasks under it" awk -v n="$long" '
		$0 == n { name = NR } name && NR == name + 1 && /^  *audio  *\[2\]  *12000 / { found = 1 }
		END { exit !found }' lat.out
	ok_eq "the legend says which percentiles are shown and how they are rounded" \
		"$(joined_note lat.out 'Latency: ')" \
		"Latency: a wakeup's start minus its deadline, over every wakeup of the row's runs (Wakeups); a percentile only where 10 wakeups or more lie above it (p99: 1000 wakeups, p99.9: 10000), else -; rounded to the spread between the runs' own figures."
	"$CONTEST" report -d lat >lat.main 2>lat.err
	ok_eq "the main report of them exits 0" "$?" 0
	ok_eq "its p99 line: each row's audio and video p99, as --latency prints them" \
		"$(joined_note lat.main 'Latency p99 (ms)' | sed 's/^Latency p99 (ms), audio\/video: //' |
			tr ',' '\n' | sed 's/^ *//' | LC_ALL=C sort)" \
		"$long 1.00/5.01
spread 1.0/5.01
tight 1.00/5.01"
	ok "the p99 line within 72 columns" sh -c \
		"awk '/^Latency p99/ { on = 1; print; next } on && /^  / { print; next } { on = 0 }' lat.main |
			awk 'length(\$0) > 72 { bad = 1 } END { exit bad }'"
	"$CONTEST" report --latency --format csv -d lat >lat.csv 2>lat.err
	ok_eq "csv: every figure as it was (p99.9 of 700 wakeups too), wakeups counted" \
		"$(awk -F, '$2 == "tight" && $4 == "input" { printf "%s %.4f %.4f\n", $6, $9, $10 }' lat.csv)" \
		"700 8.0282 8.0282"
else
	for i in 1 2 3 4 5 6 7 8 9 10 11 12 13; do skip "known histograms: python3 is not installed"; done
fi

mkdir run || exit 99
cd run || exit 99
# a short lead time and a light process_load (a ring of two processes
# passing one chunk, one CPU's worth): no figure here waits on the load
# spreading or depends on how hard it presses, the probe's histograms are
# filled beside the build whatever the load does
for label in A B; do
	"$CONTEST" --quick --scale 2 --lead-time 0.2 --procs 2 --chunks 1 -n 2 \
		$([ $label = B ] && echo --probe) -k "$label" \
		noload process_load >"$label.out" 2>"$label.err"
	ok_eq "suite $label with the light probe exits 0" "$?" 0
done
# every timed run, by default: the light profile, its work, a histogram per task
has_all() {	# FILE FIELD...: the valid runs of FILE, and of them those with every FIELD
	f=$1; shift
	awk -v want="$*" 'BEGIN { n = split(want, w, " ") }
		$1 == "run" && / valid=1 / { runs++; for (i = 1; i <= n; i++) if (!index($0 " ", " " w[i])) next; all++ }
		END { print runs + 0, all + 0 }' "$f"
}
light="probe_profile=light probe_audio=h1/ probe_video=h1/ probe_input=h1/
	probe_audio_work_ns=20000 probe_video_work_ns=50000 probe_input_work_ns=50000"
ok_eq "every valid run of A (default) recorded the light probe: profile, work, three histograms" \
	"$(has_all contest-results/A.results $light)" "4 4"
ok_eq "and of B (--probe)" "$(has_all contest-results/B.results $light)" "4 4"

"$CONTEST" report --latency >text 2>err
ok_eq "report --latency exits 0" "$?" 0
ok "a table per run type" sh -c 'grep -q "^noload latency (ms):" text &&
	grep -q "^process_load latency (ms):" text'
ok "the header names the columns" \
	grep -q '^Kernel  *Task  *\[runs\]  *Wakeups  *p50  *p90  *p99  *p99.9  *max  *Miss%$' text
ok_eq "a line per row and task in each table" \
	"$(grep -c '^\(A\|B\|\)  *\(audio\|video\|input\)  *\[2\] ' text)" 12
ok "the legend says what Miss% is" grep -q '^Miss%: ' text

"$CONTEST" report --latency --format csv >csv 2>err
ok_eq "csv: a header and a line per row, run type and task" "$(wc -l <csv)" 13

# The oracle: the records.  For each label, type and task: runs, the sum of
# the histograms' counts (h1/COUNT/MIN/MAX/...), the largest MAX, and
# misses / periods.
awk '$1 == "run" && / valid=1 / && / probe_cal=/ {
	delete f
	for (i = 2; i <= NF; i++) { k = $i; sub(/=.*/, "", k); v = $i; sub(/^[^=]*=/, "", v); f[k] = v }
	split("audio video input", task, " ")
	for (t = 1; t <= 3; t++) {
		key = f["label"] "," f["type"] "," task[t]
		split(f["probe_" task[t]], h, "/")
		runs[key]++; count[key] += h[2]
		if (h[4] > max[key]) max[key] = h[4]
		per[key] += f["probe_" task[t] "_periods"]; mis[key] += f["probe_" task[t] "_misses"]
		if (!(key in min) || h[3] < min[key]) min[key] = h[3]
	}
}
END {
	for (key in runs)
		printf "%s,%d,%d,%.6f,%.4f,%.6f\n", key, runs[key], count[key], max[key] / 1e6,
			per[key] ? mis[key] / per[key] * 100 : 0, min[key] / 1e6
}' contest-results/A.results contest-results/B.results | sort >expected
awk -F, 'NR > 1 { printf "%s,%s,%s,%d,%d,%.6f,%.4f\n", $1, $3, $4, $5, $6, $11, $12 }' csv |
	sort >got
ok_eq "csv: runs, wakeups, max and Miss% are the records' own" \
	"$(cut -d, -f1-7 expected)" "$(cat got)"
ok "csv: min <= p50 <= p90 <= p99 <= p99.9 <= max on every line" \
	awk -F, 'NR == FNR { min[$1 "," $2 "," $3] = $8; next }
	FNR > 1 { m = min[$1 "," $3 "," $4]
		if (!(m <= $7 + 1e-3 && $7 <= $8 && $8 <= $9 && $9 <= $10 && $10 <= $11)) { print; bad = 1 } }
	END { exit bad }' expected csv
ok_eq "csv: the header names p90" "$(head -1 csv | cut -d, -f7-12)" \
	"p50_ms,p90_ms,p99_ms,p999_ms,max_ms,miss_pct"

# keyvalue: the csv's figures under ROW.TYPE.TASK.FIGURE
"$CONTEST" report --latency --format keyvalue >kv 2>err
ok_eq "keyvalue exits 0" "$?" 0
ok_eq "keyvalue: p50, p90, p99, p99.9, max and Miss% of every line of the csv" \
	"$(awk -F, 'NR == FNR { split($0, kv, ": "); v[kv[1]] = kv[2]; next }
		FNR > 1 { split("p50_ms p90_ms p99_ms p999_ms max_ms miss_pct", n, " ")
			for (i = 1; i <= 6; i++) { k = $2 "." $3 "." $4 "." n[i]
				if (!(k in v) || v[k] - $(6 + i) > 1e-6 || $(6 + i) - v[k] > 1e-6) print k } }' kv csv)" ""
ok "keyvalue: its version first" sh -c 'head -1 kv | grep -qx "keyvalue_version: 2"'

"$CONTEST" report --latency --format json >json 2>err
ok_eq "json exits 0" "$?" 0
if command -v python3 >/dev/null; then
	ok "json: the csv's figures, and it parses" python3 -c '
import csv, json, math, sys
doc = json.load(open("json"))
assert doc["schema"] == "contest-latency/2", doc["schema"]
rows = {}
for t in doc["tables"]:
    for r in t["rows"]:
        for task, v in r["tasks"].items():
            rows[(r["row"], t["run_type"], task)] = v
n = 0
for line in csv.DictReader(open("csv")):
    v = rows[(line["row"], line["run_type"], line["task"])]
    for k in ("p50_ms", "p90_ms", "p99_ms", "p999_ms", "max_ms", "miss_pct"):
        assert math.isclose(float(line[k]), v[k], rel_tol=1e-9), (k, line[k], v[k])
    assert int(line["runs"]) == v["runs"] and int(line["wakeups"]) == v["wakeups"]
    n += 1
assert n == len(rows) == 12, (n, len(rows))
'
else
	skip "json against csv: python3 is not installed"
fi
# text: the csv's wakeups; its p99, where 1,000 wakeups or more leave 10
# above it, the csv's rounded (within half its last digit), else -.  The
# text keeps as many figures as the runs' spread supports, so an integer's
# trailing zeros may be places it rounded away: 14.6 with a wide spread
# prints "10", whose last digit is the tens
awk '/^noload latency/ { on = 1 } on && $1 == "A" && $2 == "audio" { print $4, $7; exit }' text |
	tr -d '*' >a.text
awk -F, '$1 == "A" && $3 == "noload" && $4 == "audio" { print $6, $9 }' csv >a.csv
ok "text: A's noload audio wakeups are the csv's, its p99 the csv's rounded or -" \
	awk 'NR == FNR { w = $1; p = $2; next }
	{ if ($1 != w) exit 1
	  if (w < 1000) exit $2 != "-"
	  s = $2; d = 0
	  if (index(s, ".")) d = length(s) - index(s, ".")
	  else while (length(s) > 1 && s ~ /0$/) { sub(/0$/, "", s); d-- }
	  exit !($2 - p <= 0.5 * 10 ^ -d + 1e-9 && p - $2 <= 0.5 * 10 ^ -d + 1e-9) }' a.csv a.text

# markdown: the pipe tables aligned in their source too (each line as long
# as its header), the legend's '*' escaped (a list item "- * ..." is a
# nested list)
"$CONTEST" report --latency --format markdown >md 2>err
ok_eq "markdown exits 0" "$?" 0
ok "markdown: every table line as long as its header" awk '
	/^\| Kernel / { n = length($0); next }
	/^\|/ && length($0) != n { print "line " NR ": " length($0) " against " n; bad = 1 }
	END { exit bad }' md
ok "markdown: the legend's '*' escaped" sh -c '! grep -q "^- \*" md &&
	grep -q "^- \(\\\\\* p99 differs\|No significance test\)" md'

# the chart: a bar per row, run type and task, each the csv's p99
"$CONTEST" plot --latency -o lat.svg 2>err
ok_eq "plot --latency exits 0" "$?" 0
ok_eq "plot --latency: the bars' p99s are the csv's" \
	"$(sed -n 's/.*<rect class="bar" data-row="\([^"]*\)" data-type="\([^"]*\)" data-p99="\([^"]*\)".*<title>[^:]*: \([a-z]*\) p99.*/\1,\2,\4,\3/p' lat.svg | sort)" \
	"$(awk -F, 'NR > 1 { printf "%s,%s,%s,%.4f\n", $2, $3, $4, $9 }' csv | sort)"
if command -v python3 >/dev/null; then
	ok "the chart is well-formed XML" python3 -c 'import xml.dom.minidom as m; m.parse("lat.svg")'
fi

# the main tables: under each, one line of every row's audio and video p99,
# as the latency tables print them; right under the table's last row
"$CONTEST" report >main0 2>err
ok_eq "report exits 0" "$?" 0
for type in noload process_load; do
	ok_eq "the $type table is followed by its p99 line, the latency tables' p99s" \
		"$(awk -v t="$type:" '$0 == t { on = 1; next } on && /^[AB] / { last = NR; next }
			on && last && NR == last + 1 { print; exit }' main0)" \
		"$(tr -d '*' <text | awk -v t="$type latency (ms):" '$0 == t { on = 1; next } on && /^$/ { on = 0 }
			on && NF == 10 { row = $1; p[row, $2] = $7 } on && NF == 9 { p[row, $1] = $6 }
			END { printf "Latency p99 (ms), audio/video: A %s/%s, B %s/%s\n", p["A", "audio"],
				p["A", "video"], p["B", "audio"], p["B", "video"] }')"
done
ok_eq "the 2002 columns are as they were" \
	"$(grep -c '^Kernel  *\[runs\]  *Time  *CPU%  *Loads  *LCPU%  *Ratio$' main0)" 2
"$CONTEST" report --no-latency >main1 2>err
ok_eq "--no-latency: the same report without the p99 lines" \
	"$(grep -v '^Latency p99 (ms)' main0)" "$(cat main1)"
"$CONTEST" report --format markdown >md0 2>err
ok "markdown: the p99 line a paragraph after the table (a blank line between)" awk '
	/^\| [AB] / { last = NR } /^Latency p99 \(ms\), audio\/video: A / { found = 1
		if (!(last == NR - 2 && prev == "")) { print "line " NR; bad = 1 } }
	{ prev = $0 } END { exit bad || !found }' md0

# A: a suite without the probe and one with the full profile too: each
# profile's runs (or none) are a row of their own, never averaged together
"$CONTEST" --quick --scale 2 -n 1 --no-probe -k A noload >A2.out 2>A2.err
ok_eq "suite A with --no-probe exits 0" "$?" 0
ok_eq "--no-probe: no probe field in its run" \
	"$(grep '^run ' contest-results/A.results | tail -1 | grep -c 'probe_')" 0
"$CONTEST" --quick --scale 2 -n 1 --probe=full -k A noload >A3.out 2>A3.err
ok_eq "suite A with --probe=full exits 0" "$?" 0
grep '^run ' contest-results/A.results | tail -1 >A3.run
ok_eq "--probe=full: its run records the full profile and work" \
	"$(has_all A3.run probe_profile=full probe_audio=h1/ probe_audio_work_ns=250000 \
		probe_video_work_ns=6666667 probe_input_work_ns=1000000)" "1 1"
"$CONTEST" report >main 2>err
ok "the main table shows A three times: light, none and full apart" \
	sh -c 'grep -q "^A (1) " main && grep -q "^A (2) " main && grep -q "^A (3) " main && ! grep -q "^A (4)" main'
ok "a note says so" grep -q 'A (1), A (2) and A (3): A measured in 3 configurations, shown apart' main
ok "the differences name each row's probe profile" \
	grep -q '^probe: A (1) light, A (2) none, A (3) full, B light$' main
ok_eq "the noload rows: A (1) [2] runs, A (2) and A (3) [1] each" \
	"$(awk '/^noload:/ { on = 1 } on && /^A \([123]\)/ { sub(/ \(base\)/, ""); printf "%s %s ", $2, $3 }
		/^$/ { on = 0 }' main)" \
	"(1) [2] (2) [1] (3) [1] "
# the noload table's line, wrapped for a mail (a row's figures never cut)
awk '/^Latency p99/ { on = 1; print; next } on && /^  / { print; next } { if (on) exit }' main >line
ok_eq "the p99 line has the light and full rows, not the one without" \
	"$(tr '\n' ' ' <line | sed 's/^Latency p99 (ms), audio\/video: //; s/ [-0-9.]*\/[-0-9.]*,\{0,1\} */|/g')" \
	"A (1)|A (3)|B|"
ok "wrapped within 72 columns" awk 'length($0) > 72 { bad = 1 } END { exit bad }' line
"$CONTEST" report --latency A >text2 2>err
ok_eq "latency tables: A's light row [2] runs, its full row [1], no row without the probe" \
	"$(grep -c '^A (1)  *audio  *\[2\] ' text2) $(grep -c '^A (3)  *audio  *\[1\] ' text2) $(grep -c '^A (2) ' text2)" "2 1 0"

# light runs of an earlier contest, whose light profile gave video 100 us a
# frame: the same profile's name, another probe, so a row apart, named with
# its work.  B's round 1 noload run, changed so (its checksum made again),
# beside B's own.
if command -v python3 >/dev/null; then
	mkdir older || exit 99
	python3 - contest-results/B.results older/B.results <<'EOF'
import sys, zlib
out = []
for line in open(sys.argv[1]):
    if line.startswith("run ") and " type=noload round=1 " in line:
        body = line[:line.rindex(" crc=")] + " "
        body = body.replace(" probe_video_work_ns=50000 ", " probe_video_work_ns=100000 ")[:-1]
        line = "%s crc=%08x\n" % (body, zlib.crc32(body.encode()))
    out.append(line)
open(sys.argv[2], "w").writelines(out)
EOF
	ok_eq "one of B's noload runs now has the earlier light work" \
		"$(grep -c ' probe_video_work_ns=100000 ' older/B.results)" 1
	"$CONTEST" report --header -d older >older.out 2>older.err
	ok_eq "report of the changed store exits 0, nothing skipped" "$?:$(cat older.err)" "0:"
	ok "B splits in two rows: its profile's figures changed" \
		sh -c 'grep -q "^B (1) " older.out && grep -q "^B (2) " older.out && ! grep -q "^B (3)" older.out'
	ok_eq "the differences name the earlier light probe with its work" \
		"$(sed -n '/^probe:$/,/^$/p' older.out)" \
		"probe:
  B (1)  light (work audio 20 us, video 100 us, input 50 us)
  B (2)  light"
	ok "the header says the probe is not alike in every row" \
		grep -q '^Latency probe: not alike in every row' older.out
	"$CONTEST" report --format json -d older >older.json 2>&1
	ok_eq "json: each row's probe work, audio, video, input (ns)" \
		"$(python3 -c 'import json, sys
for r in json.load(open(sys.argv[1]))["rows"]:
    print(r["name"], r["probe"], r["probe_work_ns"])' older.json 2>&1)" \
		"B (1) light [20000, 100000, 50000]
B (2) light [20000, 50000, 50000]"
	"$CONTEST" report --header -d contest-results B >now.out 2>&1
	ok "B's own runs: one probe, named as today's light" \
		sh -c 'grep -q "^Latency probe: light (audio, video and input)$" now.out && ! grep -q "^B (2)" now.out'
else
	for i in 1 2 3 4 5 6 7; do skip "an earlier light profile: python3 is not installed"; done
fi

# no run with the probe
mkdir plain || exit 99
cp contest-results/A.results plain/
grep -v ' probe_cal=' plain/A.results >plain/x && mv plain/x plain/A.results
ok "the --no-probe run is among them" grep -q '^run .* type=noload ' plain/A.results
"$CONTEST" report --latency -d plain >out 2>err
ok_eq "no probe runs: exit 1" "$?" 1
ok "and why" grep -q "no run of these labels ran the latency probe (they were made with --no-probe, or before contest had it)" err
ok_eq "and nothing on standard output" "$(cat out)" ""
"$CONTEST" plot --latency -d plain >out 2>err
ok_eq "plot --latency, no probe runs: exit 1" "$?" 1
ok "and why" grep -q "no run of these labels ran the latency probe" err

done_testing
