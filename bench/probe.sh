#!/bin/bash
# probe.sh - what the latency probe costs the compile, and whether it agrees
# with cyclictest.
#
# 1. Perturbation.  N rounds (-n, default 5); each runs two contest sessions
#    of the noload build, `contest -n 1 noload` and `contest -n 1 --probe
#    noload` (the side that goes first alternating: ABBA), under the labels
#    off and on of one results directory.  It prints every run, then the
#    Ratio of the mean Times on / off with its 95% interval (contest report
#    --baseline off --stats: Fieller's) and the probe's own CPU use (its
#    tasks' CPU time / the build's wall time, in % of one CPU).
#
# 2. Sanity against cyclictest (rt-tests), `cyclictest -m -n -i 5000 -p 0`:
#    SCHED_OTHER at nice 0 like the probe, a 5 ms period like its audio
#    task.  Beside (a) a `contest -n 1 --probe noload` session (cyclictest
#    runs through the whole session: the warm-up and the timed build, both
#    the compile alone) and (b) `contest load process_load --probe -t T`
#    (the ring alone).  Prints cyclictest's p99 and the probe's audio p99
#    side by side, and their ratio; they measure different shapes (the
#    probe's task works 0.25 ms each period, cyclictest's thread does not),
#    so they should agree within a factor of 2, not exactly.
#
# cyclictest 2.x has neither -n (its default) nor a SCHED_OTHER -p 0 (it
# runs FIFO 2 then): the script gives it --policy=other instead, and prints
# the policy and priority cyclictest reports for its thread.
#
# Usage: bench/probe.sh [-n N] [-t SECONDS] [-w WORKLOAD] [--dir DIR]
#                       [--only perturbation|cyclictest]
# Run as root (contest drops the page cache), from the build directory or
# with CONTEST=path/to/contest.

set -u
. "$(dirname "$0")/lib.sh" || exit 2
export LC_ALL=C

rounds=5
seconds=60
workload=builtin
base=.
contest_src=${CONTEST:-./contest}
cmdline="$0 $*"
only=

usage() {
	cat <<EOF
Usage: $0 [options]
  -n, --rounds N      perturbation rounds, each one session with and one without the probe (default $rounds)
  -t, --time SECONDS  cyclictest beside process_load: how long (default $seconds)
  -w, --workload W    contest's workload: builtin (default), kernel:DIR or cmd:DIR
      --dir DIR       where the scratch directory goes (default: the current directory)
      --only PART     run one part: perturbation or cyclictest (default both)
  -h, --help          this help
EOF
}

while [ $# -gt 0 ]; do
	case $1 in
	-n|--rounds) rounds=${2:?}; shift ;;
	-t|--time) seconds=${2:?}; shift ;;
	-w|--workload) workload=${2:?}; shift ;;
	--dir) base=${2:?}; shift ;;
	--only) only=${2:?}; shift ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
	shift
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "-n wants a positive number, not '$rounds'"
[[ $seconds =~ ^[1-9][0-9]*$ ]] || die "-t wants whole seconds, not '$seconds'"
case $only in
''|perturbation|cyclictest) ;;
*) die "--only wants perturbation or cyclictest, not '$only'" ;;
esac
[ "$(id -u)" -eq 0 ] || die "run me as root: contest drops the page cache before every timed run"
[ -x "$contest_src" ] || die "no contest binary at $contest_src (set CONTEST=)"
if ! command -v cyclictest >/dev/null 2>&1; then
	echo "probe.sh: cyclictest is missing: apt-get install -y rt-tests" >&2
	apt-get install -y -q rt-tests >/dev/null || die "cannot install rt-tests"
fi
# The issue's `-m -n -i 5000 -p 0` meant SCHED_OTHER, as cyclictest 1.x
# ran it.  cyclictest 2.x sleeps with clock_nanosleep by default and has no
# -n, and takes -p 0 as "no priority given": its thread then runs SCHED_FIFO
# at priority 2 (it prints "P: 2"), which no nice-0 task can delay.  There
# --policy=other (without -p) is SCHED_OTHER at nice 0, as the probe's tasks.
if cyclictest --help 2>&1 | grep -q -- '--policy'; then
	ct_opts=(-m -i 5000 --policy=other)
else
	ct_opts=(-m -n -i 5000 -p 0)
fi

scratch=$(mktemp -d "$base/probe.XXXXXX") || die "cannot make a scratch directory in $base"
scratch=$(cd "$scratch" && pwd)
ct_pid=
cleanup() {
	[ -n "$ct_pid" ] && kill "$ct_pid" 2>/dev/null && wait "$ct_pid" 2>/dev/null
	rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# a copy: rebuilding the tree during the bench must not change the binary
cp "$contest_src" "$scratch/contest" || die "cannot copy $contest_src"
contest=$scratch/contest
results=$scratch/results

echo "probe.sh: what the latency probe costs the compile, and cyclictest beside it"
echo "command:   $cmdline"
echo "date:      $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "kernel:    $(uname -r); CPUs $(getconf _NPROCESSORS_ONLN)"
echo "contest:   $contest_src ($("$contest" --version 2>&1 | head -1)); workload $workload"
echo "cyclictest: $(cyclictest --help 2>&1 | head -1), run as cyclictest ${ct_opts[*]}"
echo "autogroup: $(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null || echo unreadable)"
echo "load avg:  $(cut -d' ' -f1-3 /proc/loadavg) at start"

session() {	# session LABEL [OPTIONS...]: one contest session of the noload build
	local label=$1
	shift
	"$contest" -w "$workload" -n 1 --quiet --work-dir "$scratch/work" -d "$results" \
		-k "$label" "$@" noload >"$scratch/$label.out" 2>"$scratch/$label.err" ||
		die "contest -k $label $* failed: $(tail -3 "$scratch/$label.err")"
}

# the last noload run of LABEL: "Time s  probe CPU%"
last_run() {
	awk -v l="$1" "$BENCH_AWK"'$1 == "run" && / type=noload / && / valid=1 / {
		fields()
		if (f["label"] != l) next
		t = f["elapsed_ns"] / 1e9
		p = ("probe_cpu_ns" in f) ? sprintf("%.1f", f["probe_cpu_ns"] / f["elapsed_ns"] * 100) : "-"
		line = sprintf("%8.2f s  probe CPU%% %s", t, p)
	} END { print line }' "$results/$1.results"
}

perturbation() {
echo
echo "== 1. perturbation: noload with and without the probe, $rounds rounds (ABBA)"
for ((r = 1; r <= rounds; r++)); do
	if [ $((r % 2)) -eq 1 ]; then order="off on"; else order="on off"; fi
	for side in $order; do
		if [ "$side" = on ]; then session on --probe; else session off; fi
		printf 'round %d: %-3s %s\n' "$r" "$side" "$(last_run "$side")"
	done
done
echo
"$contest" report -d "$results" --stats off on | sed -n '/^noload:/,/^$/p'
# the perturbation, mean Time on / off, with a 95% interval by the delta
# method (contest's --baseline divides only by a noload of the same
# configuration, probe included, so it cannot give this Ratio)
cat "$results/off.results" "$results/on.results" | awk "$BENCH_AWK"'
$1 == "run" && / type=noload / && / valid=1 / {
	fields()
	l = f["label"]; t = f["elapsed_ns"] / 1e9
	n[l]++; s[l] += t; ss[l] += t * t
	if (l == "on") { cpu += f["probe_cpu_ns"]; wall += f["elapsed_ns"] }
}
END {
	if (n["on"] < 2 || n["off"] < 2) { print "perturbation: fewer than 2 valid runs on a side"; exit }
	for (l in n) { m[l] = s[l] / n[l]; v[l] = (ss[l] - n[l] * m[l] ^ 2) / (n[l] - 1) / n[l] }
	r = m["on"] / m["off"]
	rel = v["on"] / m["on"] ^ 2 + v["off"] / m["off"] ^ 2
	df = rel ^ 2 / ((v["on"] / m["on"] ^ 2) ^ 2 / (n["on"] - 1) + (v["off"] / m["off"] ^ 2) ^ 2 / (n["off"] - 1))
	h = tq(df) * r * sqrt(rel)
	printf "perturbation: mean noload Time with the probe / without = %.3f (95%% CI %.3f to %.3f; n = %d, %d)\n",
		r, r - h, r + h, n["on"], n["off"]
	printf "probe CPU: %.1f%% of one CPU over %d timed builds (its tasks'"'"' CPU time / build wall time)\n",
		cpu / wall * 100, n["on"]
}'
}

# p99 in ms of a cyclictest histogram file (lines "US COUNT"; overflows
# count as above the last bucket)
ct_p99() {
	awk '/^# Histogram Overflows/ { over += $NF }
	/^[0-9]+[ \t]+[0-9]+/ { us[n] = $1 + 0; c[n] = $2 + 0; total += $2; n++ }
	END {
		total += over
		if (!total) { print "-"; exit }
		need = int(total * 0.99); if (need < total * 0.99) need++
		for (i = 0; i < n; i++) { seen += c[i]; if (seen >= need) { printf "%.3f\n", us[i] / 1000; exit } }
		print ">" us[n - 1] / 1000
	}' "$1"
}

ct_start() {	# cyclictest in the background, its histogram (up to 10 s) into FILE
	cyclictest "${ct_opts[@]}" -q -h 10000 --histfile="$1" >"$1.out" 2>&1 &
	ct_pid=$!
	sleep 1
	kill -0 "$ct_pid" 2>/dev/null || die "cyclictest did not start: $(cat "$1.out")"
}

ct_stop() {
	kill -INT "$ct_pid" 2>/dev/null
	wait "$ct_pid" 2>/dev/null
	ct_pid=
}

sanity() {
echo
echo "== 2. cyclictest ${ct_opts[*]} beside the probe"
ct_start "$scratch/ct-noload"
session ct-noload --probe
ct_stop
probe_noload=$("$contest" report -d "$results" --latency --format csv ct-noload |
	awk -F, '$3 == "noload" && $4 == "audio" { printf "%.3f", $8 }')
ct_noload=$(ct_p99 "$scratch/ct-noload")

ct_start "$scratch/ct-process"
"$contest" load process_load --probe -t "$seconds" --work-dir "$scratch/work" \
	>"$scratch/load.out" 2>"$scratch/load.err" || die "contest load failed: $(tail -3 "$scratch/load.err")"
ct_stop
probe_process=$(awk '$1 == "audio" { print $5 }' "$scratch/load.out")
ct_process=$(ct_p99 "$scratch/ct-process")

printf '\n%-34s %12s %12s %8s\n' "beside" "probe audio" "cyclictest" "ratio"
printf '%-34s %12s %12s %8s\n' "" "p99 (ms)" "p99 (ms)" "pr/ct"
for row in "noload (contest -n 1 --probe)|$probe_noload|$ct_noload" \
	"process_load (contest load, ${seconds} s)|$probe_process|$ct_process"; do
	IFS='|' read -r what p c <<<"$row"
	printf '%-34s %12s %12s %8s\n' "$what" "$p" "$c" \
		"$(awk -v p="$p" -v c="$c" 'BEGIN { if (c + 0 > 0 && p != "") printf "%.2f", p / c; else print "-" }')"
done
}

[ "$only" = cyclictest ] || perturbation
[ "$only" = perturbation ] || sanity
echo "load avg:  $(cut -d' ' -f1-3 /proc/loadavg) at end"
