#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# probe.sh - what the latency probe costs the compile, per profile, and
# whether it agrees with cyclictest.
#
# 1. Perturbation, for each profile (--profiles, default "light full").  N
#    rounds (-n, default 6: at least 6 sessions a side); each runs two
#    contest sessions of the noload build, `contest -n 1 --no-probe noload`
#    (label off-PROFILE) and `contest -n 1 --probe=PROFILE noload` (label
#    PROFILE), the side that goes first alternating (ABBA).  The profiles
#    are measured one after the other, each against its own interleaved
#    no-probe sessions.  It prints every run, then per profile the ratio of
#    the mean Times with / without, with its 95% interval (delta method,
#    Welch's degrees of freedom), the same paired by round (the geometric
#    mean of each round's with / without, which a drift of the machine
#    between rounds does not move), and the probe's own CPU use (its tasks'
#    CPU time / the build's wall time, in % of one CPU).
#
# 2. Sanity against cyclictest (rt-tests), `cyclictest -m -n -i 5000 -p 0`:
#    SCHED_OTHER at nice 0 like the probe, a 5 ms period like its audio
#    task, with the light profile (--ct-profile, default light).  Beside (a)
#    a `contest -n 1 --probe=light noload` session (cyclictest runs through
#    the whole session: the warm-up and the timed build, both the compile
#    alone) and (b) `contest load process_load --probe=light -t T` (the
#    ring alone).  Prints cyclictest's p99 and the probe's audio p99 side
#    by side, and their ratio; they measure different shapes (the light
#    audio task works 20 us each period, cyclictest's thread not at all),
#    so they should agree within a factor of 2, not exactly.
#
# cyclictest 2.x has neither -n (its default) nor a SCHED_OTHER -p 0 (it
# runs FIFO 2 then): the script gives it --policy=other instead, and prints
# the policy and priority cyclictest reports for its thread.
#
# The figures are for bench/README.md only from a quiet machine: the script
# says so when the load average is 0.5 or more at the start, or -n is under
# 6.
#
# Usage: bench/probe.sh [-n N] [-t SECONDS] [-w WORKLOAD] [--scale N]
#                       [--profiles "light full"] [--ct-profile P] [--dir DIR]
#                       [--only perturbation|cyclictest]
# Run as root (contest drops the page cache), from the build directory or
# with CONTEST=path/to/contest.

set -u
. "$(dirname "$0")/lib.sh" || exit 2
export LC_ALL=C

rounds=6
seconds=60
workload=builtin
scale=
profiles="light full"
ct_profile=light
base=.
contest_src=${CONTEST:-./contest}
cmdline="$0 $*"
only=

usage() {
	cat <<EOF
Usage: $0 [options]
  -n, --rounds N      perturbation rounds per profile, each one session with and one without the probe (default $rounds)
  -t, --time SECONDS  cyclictest beside process_load: how long (default $seconds)
  -w, --workload W    contest's workload: builtin (default), kernel:DIR or cmd:DIR
      --scale N       the builtin workload's translation units (contest --scale; a smoke test)
      --profiles LIST the probe profiles to measure (default "$profiles")
      --ct-profile P  the profile beside cyclictest (default $ct_profile)
      --dir DIR       where the scratch directory goes (default: the current directory)
      --only PART     run one part: perturbation or cyclictest (default both)
  -h, --help          this help
EOF
}

bench_options '-t|--time=seconds -w|--workload=workload --scale=scale
	--profiles=profiles --ct-profile=ct_profile --only=only' "$@"
shift "$bench_shift"
[ $# -eq 0 ] || { usage >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "-n wants a positive number, not '$rounds'"
[[ $seconds =~ ^[1-9][0-9]*$ ]] || die "-t wants whole seconds, not '$seconds'"
[ -z "$scale" ] || [[ $scale =~ ^[1-9][0-9]*$ ]] || die "--scale wants a positive number, not '$scale'"
for p in $profiles $ct_profile; do
	case $p in light|full) ;; *) die "a profile is light or full, not '$p'" ;; esac
done
case $only in
''|perturbation|cyclictest) ;;
*) die "--only wants perturbation or cyclictest, not '$only'" ;;
esac
[ "$(id -u)" -eq 0 ] || die "run me as root: contest drops the page cache before every timed run"
[ -x "$contest_src" ] || die "no contest binary at $contest_src (set CONTEST=)"
ct_opts=()
if [ "$only" != perturbation ]; then	# the perturbation alone needs no cyclictest
	if ! command -v cyclictest >/dev/null 2>&1; then
		echo "probe.sh: cyclictest is missing: apt-get install -y rt-tests" >&2
		apt-get install -y -q rt-tests >/dev/null || die "cannot install rt-tests"
	fi
	# The issue's `-m -n -i 5000 -p 0` meant SCHED_OTHER, as cyclictest 1.x
	# ran it.  cyclictest 2.x sleeps with clock_nanosleep by default and has
	# no -n, and takes -p 0 as "no priority given": its thread then runs
	# SCHED_FIFO at priority 2 (it prints "P: 2"), which no nice-0 task can
	# delay.  There --policy=other (without -p) is SCHED_OTHER at nice 0, as
	# the probe's tasks.
	if cyclictest --help 2>&1 | grep -q -- '--policy'; then
		ct_opts=(-m -i 5000 --policy=other)
	else
		ct_opts=(-m -n -i 5000 -p 0)
	fi
fi

ct_pid=
bench_cleanup_more() {
	[ -n "$ct_pid" ] && kill "$ct_pid" 2>/dev/null && wait "$ct_pid" 2>/dev/null
}
bench_scratch probe
results=$scratch/results

bench_header "probe.sh: what the latency probe costs the compile, per profile, and cyclictest beside it"
[ "$only" = perturbation ] ||
	echo "cyclictest: $(cyclictest --help 2>&1 | head -1), run as cyclictest ${ct_opts[*]}"
echo "autogroup: $(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null || echo unreadable)"
bench_quiet "$rounds" 6

session() {	# session LABEL [OPTIONS...]: one contest session of the noload build
	local label=$1
	shift
	"$contest" -w "$workload" ${scale:+--scale "$scale"} -n 1 --quiet --work-dir "$scratch/work" \
		-d "$results" -k "$label" "$@" noload >"$scratch/$label.out" 2>"$scratch/$label.err" ||
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

perturbation() {	# perturbation PROFILE
local p=$1 off=off-$1
echo
echo "== 1. perturbation of the $p probe: noload with --probe=$p and with --no-probe, $rounds rounds (ABBA)"
for ((r = 1; r <= rounds; r++)); do
	if [ $((r % 2)) -eq 1 ]; then order="$off $p"; else order="$p $off"; fi
	for side in $order; do
		if [ "$side" = "$p" ]; then session "$p" --probe="$p"; else session "$off" --no-probe; fi
		printf 'round %d: %-10s %s\n' "$r" "$side" "$(last_run "$side")"
	done
done
echo
"$contest" report -d "$results" --stats --no-latency "$off" "$p" | sed -n '/^noload:/,/^$/p'
# the perturbation, mean Time with / without, with a 95% interval by the
# delta method (contest's --baseline divides only by a noload of the same
# configuration, probe profile included, so it cannot give this Ratio)
cat "$results/$off.results" "$results/$p.results" | awk -v on="$p" -v off="$off" "$BENCH_AWK"'
$1 == "run" && / type=noload / {
	fields()
	l = f["label"]; t = f["elapsed_ns"] / 1e9
	r[l]++; rt[l, r[l]] = f["valid"] + 0 ? t : 0
	if (!(f["valid"] + 0)) next
	n[l]++; s[l] += t; ss[l] += t * t
	if (l == on) { cpu += f["probe_cpu_ns"]; wall += f["elapsed_ns"] }
}
END {
	if (!ratio("perturbation " on ": mean noload Time with the probe / without", on, off, n, s, ss))
		exit
	paired("perturbation " on ", paired by round: geometric mean of with / without", on, off, r, rt)
	printf "probe CPU %s: %.2f%% of one CPU over %d timed builds (its tasks'"'"' CPU time / build wall time)\n",
		on, cpu / wall * 100, n[on]
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
echo "== 2. cyclictest ${ct_opts[*]} beside the $ct_profile probe"
ct_start "$scratch/ct-noload"
session ct-noload --probe="$ct_profile"
ct_stop
# the csv's p99_ms, found by its header's name
probe_noload=$("$contest" report -d "$results" --latency --format csv ct-noload |
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "p99_ms") c = i; next }
		$3 == "noload" && $4 == "audio" { printf "%.3f", $c }')
ct_noload=$(ct_p99 "$scratch/ct-noload")

ct_start "$scratch/ct-process"
"$contest" load process_load --probe="$ct_profile" -t "$seconds" --work-dir "$scratch/work" \
	>"$scratch/load.out" 2>"$scratch/load.err" || die "contest load failed: $(tail -3 "$scratch/load.err")"
ct_stop
# the load's table: its p99 column found by the header's name
probe_process=$(awk '$1 == "Task" { for (i = 1; i <= NF; i++) if ($i == "p99") c = i }
	$1 == "audio" && c { print $c }' "$scratch/load.out")
ct_process=$(ct_p99 "$scratch/ct-process")

printf '\n%-34s %12s %12s %8s\n' "beside" "probe audio" "cyclictest" "ratio"
printf '%-34s %12s %12s %8s\n' "" "p99 (ms)" "p99 (ms)" "pr/ct"
for row in "noload (contest -n 1 --probe=$ct_profile)|$probe_noload|$ct_noload" \
	"process_load (contest load, ${seconds} s)|$probe_process|$ct_process"; do
	IFS='|' read -r what p c <<<"$row"
	printf '%-34s %12s %12s %8s\n' "$what" "$p" "$c" \
		"$(awk -v p="$p" -v c="$c" 'BEGIN { if (c + 0 > 0 && p != "") printf "%.2f", p / c; else print "-" }')"
done
}

if [ "$only" != cyclictest ]; then
	for p in $profiles; do
		perturbation "$p"
	done
fi
[ "$only" = perturbation ] || sanity
echo "load avg:  $(cut -d' ' -f1-3 /proc/loadavg) at end"
