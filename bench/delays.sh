#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# delays.sh - what collecting "where the time went" costs the compile
# (issue 23): kernel.task_delayacct on, a taskstats listener reading every
# exit record, the build in a cgroup of its own for PSI.
#
# N rounds (-n, default 6); each runs two contest sessions of the noload
# build, `contest -n 1 --no-probe noload` (label delays: everything
# collected, the default) and the same with --no-delays (label
# no-delays: nothing collected, task_delayacct left off), the side that goes
# first alternating (ABBA).  The probe is off on both sides, so that only
# the delays differ.  It prints every run, then the ratio of the mean noload
# Times with / without, with its 95% interval (delta method, Welch's
# degrees of freedom), and the same paired by round (the geometric mean of
# each round's with / without, which a drift of the machine between rounds
# does not move).
#
# The figures are for bench/README.md only from a quiet machine: the script
# says so when the load average is 0.5 or more at the start, or -n is
# under 5.
#
# Usage: bench/delays.sh [-n N] [-w WORKLOAD] [--scale N] [--dir DIR]
# Run as root (contest drops the page cache; taskstats needs root), from
# the build directory or with CONTEST=path/to/contest.

set -u
. "$(dirname "$0")/lib.sh" || exit 2
export LC_ALL=C

rounds=6
workload=builtin
scale=
base=.
contest_src=${CONTEST:-./contest}
cmdline="$0 $*"

usage() {
	cat <<EOF
Usage: $0 [options]
  -n, --rounds N      rounds, each one session with the delays and one without (default $rounds)
  -w, --workload W    contest's workload: builtin (default), kernel:DIR or cmd:DIR
      --scale N       the builtin workload's translation units (contest --scale; a smoke test)
      --dir DIR       where the scratch directory goes (default: the current directory)
  -h, --help          this help
EOF
}

while [ $# -gt 0 ]; do
	case $1 in
	-n|--rounds) rounds=${2:?}; shift ;;
	-w|--workload) workload=${2:?}; shift ;;
	--scale) scale=${2:?}; shift ;;
	--dir) base=${2:?}; shift ;;
	-h|--help) usage; exit 0 ;;
	*) usage >&2; exit 2 ;;
	esac
	shift
done
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "-n wants a positive number, not '$rounds'"
[ -z "$scale" ] || [[ $scale =~ ^[1-9][0-9]*$ ]] || die "--scale wants a positive number, not '$scale'"
[ "$(id -u)" -eq 0 ] || die "run me as root: taskstats needs root, and contest drops the page cache"
[ -x "$contest_src" ] || die "no contest binary at $contest_src (set CONTEST=)"

bench_scratch delays
results=$scratch/results

bench_header "delays.sh: what collecting the delays (taskstats, task_delayacct, PSI) costs the compile"
echo "task_delayacct: $(cat /proc/sys/kernel/task_delayacct 2>/dev/null || echo unreadable) at start"
bench_quiet "$rounds" 5

session() {	# session LABEL [OPTIONS...]: one contest session of the noload build
	local label=$1
	shift
	"$contest" -w "$workload" ${scale:+--scale "$scale"} -n 1 --quiet --no-probe \
		--work-dir "$scratch/work" -d "$results" -k "$label" "$@" noload \
		>"$scratch/$label.out" 2>"$scratch/$label.err" ||
		die "contest -k $label $* failed: $(tail -3 "$scratch/$label.err")"
}

# the last noload run of LABEL: its Time, and the delays it recorded
last_run() {
	awk -v l="$1" "$BENCH_AWK"'$1 == "run" && / type=noload / && / valid=1 / {
		fields()
		if (f["label"] != l) next
		d = ("build_delay_tasks" in f) ? sprintf("%d tasks, wait %.2f s, PSI %s",
			f["build_delay_tasks"], f["build_delay_wait_ns"] / 1e9, f["psi_scope"]) : "none"
		line = sprintf("%8.2f s  delays: %s", f["elapsed_ns"] / 1e9, d)
	} END { print line }' "$results/$1.results"
}

echo
echo "== noload with the delays collected (the default) and with --no-delays, $rounds rounds (ABBA)"
for ((r = 1; r <= rounds; r++)); do
	if [ $((r % 2)) -eq 1 ]; then order="no-delays delays"; else order="delays no-delays"; fi
	for side in $order; do
		if [ "$side" = delays ]; then session delays; else session no-delays --no-delays; fi
		printf 'round %d: %-10s %s\n' "$r" "$side" "$(last_run "$side")"
	done
done
echo
"$contest" report -d "$results" --stats --no-latency no-delays delays | sed -n '/^noload:/,/^$/p'
cat "$results/no-delays.results" "$results/delays.results" | awk "$BENCH_AWK"'
$1 == "run" && / type=noload / {
	fields()
	l = f["label"]; t = f["elapsed_ns"] / 1e9
	r[l]++; rt[l, r[l]] = f["valid"] + 0 ? t : 0
	if (!(f["valid"] + 0)) next
	n[l]++; s[l] += t; ss[l] += t * t
}
END {
	if (!ratio("cost of the delays: mean noload Time with them / without", "delays", "no-delays", n, s, ss))
		exit
	paired("cost of the delays, paired by round: geometric mean of with / without", "delays", "no-delays", r, rt)
}'
echo "load avg:  $(cut -d' ' -f1-3 /proc/loadavg) at end"
