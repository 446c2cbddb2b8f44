#!/bin/sh
# contest report --latency: quick suites with --probe under two labels, and
# one without it under the first label.  The latency tables against the
# records themselves: per row, run type and task the runs counted, the
# wakeups (the sum of the runs' histogram counts), the max (the largest of
# the runs' maxima), Miss% (their misses over their periods) and the
# percentiles in order; csv, json and text agree; probe and non-probe runs
# are rows apart in every table; a store without probe runs is refused.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"
command -v "${CC:-cc}" >/dev/null || skip_all "no C compiler (${CC:-cc})"

mkdir run || exit 99
cd run || exit 99
for label in A B; do
	"$CONTEST" --quick --scale 2 -n 2 --probe -k "$label" noload process_load \
		>"$label.out" 2>"$label.err"
	ok_eq "suite $label with --probe exits 0" "$?" 0
done

"$CONTEST" report --latency >text 2>err
ok_eq "report --latency exits 0" "$?" 0
ok "a table per run type" sh -c 'grep -q "^noload latency (ms):" text &&
	grep -q "^process_load latency (ms):" text'
ok "the header names the columns" \
	grep -q '^Kernel  *Task  *\[runs\]  *p50  *p99  *p99.9  *max  *Miss%$' text
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
awk -F, 'NR > 1 { printf "%s,%s,%s,%d,%d,%.6f,%.4f\n", $1, $3, $4, $5, $6, $10, $11 }' csv |
	sort >got
ok_eq "csv: runs, wakeups, max and Miss% are the records' own" \
	"$(cut -d, -f1-7 expected)" "$(cat got)"
ok "csv: min <= p50 <= p99 <= p99.9 <= max on every line" \
	awk -F, 'NR == FNR { min[$1 "," $2 "," $3] = $8; next }
	FNR > 1 { m = min[$1 "," $3 "," $4]
		if (!(m <= $7 + 1e-3 && $7 <= $8 && $8 <= $9 && $9 <= $10)) { print; bad = 1 } }
	END { exit bad }' expected csv

"$CONTEST" report --latency --format json >json 2>err
ok_eq "json exits 0" "$?" 0
if command -v python3 >/dev/null; then
	ok "json: the csv's figures, and it parses" python3 -c '
import csv, json, math, sys
doc = json.load(open("json"))
assert doc["schema"] == "contest-latency/1", doc["schema"]
rows = {}
for t in doc["tables"]:
    for r in t["rows"]:
        for task, v in r["tasks"].items():
            rows[(r["row"], t["run_type"], task)] = v
n = 0
for line in csv.DictReader(open("csv")):
    v = rows[(line["row"], line["run_type"], line["task"])]
    for k in ("p50_ms", "p99_ms", "p999_ms", "max_ms", "miss_pct"):
        assert math.isclose(float(line[k]), v[k], rel_tol=1e-9), (k, line[k], v[k])
    assert int(line["runs"]) == v["runs"] and int(line["wakeups"]) == v["wakeups"]
    n += 1
assert n == len(rows) == 12, (n, len(rows))
'
else
	skip "json against csv: python3 is not installed"
fi
# text shows p99 to 3 decimals: the csv's, rounded
ok_eq "text: the p99 of A's noload audio is the csv's" \
	"$(awk '/^noload latency/ { on = 1 } on && $1 == "A" && $2 == "audio" { print $5; exit }' text | tr -d '*')" \
	"$(awk -F, '$1 == "A" && $3 == "noload" && $4 == "audio" { printf "%.3f\n", $8 }' csv)"

# the chart: a bar per row, run type and task, each the csv's p99
"$CONTEST" plot --latency -o lat.svg 2>err
ok_eq "plot --latency exits 0" "$?" 0
ok_eq "plot --latency: the bars' p99s are the csv's" \
	"$(sed -n 's/.*<rect class="bar" data-row="\([^"]*\)" data-type="\([^"]*\)" data-p99="\([^"]*\)".*<title>[^:]*: \([a-z]*\) p99.*/\1,\2,\4,\3/p' lat.svg | sort)" \
	"$(awk -F, 'NR > 1 { printf "%s,%s,%s,%.4f\n", $2, $3, $4, $8 }' csv | sort)"
if command -v python3 >/dev/null; then
	ok "the chart is well-formed XML" python3 -c 'import xml.dom.minidom as m; m.parse("lat.svg")'
fi

# A: a suite without the probe too; its runs are a row of their own
"$CONTEST" --quick --scale 2 -n 1 -k A noload >A2.out 2>A2.err
ok_eq "suite A without --probe exits 0" "$?" 0
"$CONTEST" report >main 2>err
ok "the main table shows A twice, probe and no probe apart" \
	sh -c 'grep -q "^A (1) " main && grep -q "^A (2) " main'
ok "a note says so" grep -q 'A (1) and A (2): A measured in 2 configurations, shown apart' main
ok "the differences list the probe" grep -q '^probe: A (1) yes, A (2) no, B yes$' main
"$CONTEST" report --latency A >text2 2>err
ok_eq "latency tables: only A's probe row, [2] runs" \
	"$(grep -c ' audio  *\[' text2) $(grep -c '^A (1)  *audio  *\[2\] ' text2)" "2 2"

# no run with the probe
mkdir plain || exit 99
cp contest-results/A.results plain/
grep -v ' probe_cal=' plain/A.results >plain/x && mv plain/x plain/A.results
"$CONTEST" report --latency -d plain >out 2>err
ok_eq "no probe runs: exit 1" "$?" 1
ok "and why" grep -q "no run of these labels ran the latency probe (contest run --probe)" err
ok_eq "and nothing on standard output" "$(cat out)" ""
"$CONTEST" plot --latency -d plain >out 2>err
ok_eq "plot --latency, no probe runs: exit 1" "$?" 1
ok "and why" grep -q "no run of these labels ran the latency probe" err

done_testing
