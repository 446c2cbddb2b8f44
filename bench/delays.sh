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
# A compile's own run-to-run noise (3 to 10% on a shared VM) hides a cost
# of 1%, so --storm measures the cost where it is made, many times over.
# The cost of the delays is a cost per task (task_delayacct's timestamps,
# the exit record the kernel sends and contest reads) and per context switch
# (PSI's accounting walks one more cgroup, the build's): --storm tasks times
# a build of nothing but tasks (8 shell loops at once, each starting
# /bin/true --storm-size times), --storm switches one of nothing but
# context switches (8 `perf bench sched pipe` at once, --storm-size round
# trips each), with and without the delays as above.  Each is then carried
# over to the real build: the time the delays added per task (or per switch)
# in the storm, times the tasks (or switches) of one noload build of
# WORKLOAD, over that build's Time, with the interval carried along.  The
# build's tasks come from its record (build_delay_tasks), its switches from
# /proc/stat's ctxt over its session (two builds: the warm-up and the timed
# one, so halved; the machine's other switches make it an upper bound).
#
# --type RUNTYPE times that run type instead of noload (a noload is added
# to a label's first session, as contest does), and --cpu-root enables the
# cpu controller at the cgroup v2 root for the bench (restored at its end):
# issue 46's question, whether collecting PSI changes Time under
# process_load when the build's own cgroup would be a weighted group
# against the loads (contest then keeps the build beside them):
#     bench/delays.sh -n 6 --type process_load --cpu-root
# Its figure is the same ratio, with / without, of process_load's Time.
#
# The figures are for bench/README.md only from a quiet machine: the script
# says so when the load average is 0.5 or more at the start, or -n is
# under 5.
#
# Usage: bench/delays.sh [-n N] [-w WORKLOAD] [--scale N] [--dir DIR]
#                        [--storm tasks|switches] [--storm-size N]
#                        [--type RUNTYPE] [--cpu-root]
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
storm=
storm_size=
type=noload
cpu_root=
cmdline="$0 $*"

usage() {
	cat <<EOF
Usage: $0 [options]
  -n, --rounds N      rounds, each one session with the delays and one without (default $rounds)
  -w, --workload W    contest's workload: builtin (default), kernel:DIR or cmd:DIR
      --scale N       the builtin workload's translation units (contest --scale; a smoke test)
      --dir DIR       where the scratch directory goes (default: the current directory)
      --storm KIND    time a build of nothing but tasks or context switches (tasks,
                      switches) instead, and carry its cost over to WORKLOAD's build
      --storm-size N  /bin/true runs (tasks; default 2500) or round trips (switches;
                      default 200000) per each of the storm's 8 streams
      --type RUNTYPE  the run type timed (default noload), e.g. process_load
      --cpu-root      enable the cpu controller at the cgroup v2 root meanwhile
                      (restored at the end): does PSI change Time then?
  -h, --help          this help
EOF
}

bench_options '-w|--workload=workload --scale=scale --storm=storm
	--storm-size=storm_size --type=type --cpu-root=cpu_root=1' "$@"
shift "$bench_shift"
[ $# -eq 0 ] || { usage >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "-n wants a positive number, not '$rounds'"
[ -z "$scale" ] || [[ $scale =~ ^[1-9][0-9]*$ ]] || die "--scale wants a positive number, not '$scale'"
case $storm in
'' | tasks | switches) ;;
*) die "--storm wants tasks or switches, not '$storm'" ;;
esac
[ -z "$storm_size" ] || [[ $storm_size =~ ^[1-9][0-9]*$ ]] || die "--storm-size wants a positive number, not '$storm_size'"
[ -z "$storm" ] || [ "$type" = noload ] || die "--storm times noload builds: no --type with it"
[[ $type =~ ^[a-z_]+$ ]] || die "--type wants a run type, not '$type'"
[ "$storm" != switches ] || command -v perf >/dev/null || die "--storm switches needs perf (perf bench sched pipe)"
[ "$(id -u)" -eq 0 ] || die "run me as root: taskstats needs root, and contest drops the page cache"
[ -x "$contest_src" ] || die "no contest binary at $contest_src (set CONTEST=)"

# --cpu-root: cgroup v2's root, where contest must run, with cpu free for it
cg2=
if [ -n "$cpu_root" ]; then
	for m in /sys/fs/cgroup /sys/fs/cgroup/unified; do
		[ -f "$m/cgroup.controllers" ] && cg2=$m && break
	done
	[ -n "$cg2" ] || die "--cpu-root: no cgroup v2 at /sys/fs/cgroup or /sys/fs/cgroup/unified"
	[ "$(sed -n 's/^0:://p' /proc/self/cgroup)" = / ] ||
		die "--cpu-root: run me in the cgroup v2 root (I am in $(sed -n 's/^0:://p' /proc/self/cgroup))"
	grep -qw cpu "$cg2/cgroup.controllers" ||
		die "--cpu-root: no cpu controller for cgroup v2 here (bound to cgroup v1?)"
fi
cpu_enabled=
bench_cleanup_more() {
	[ -z "$cpu_enabled" ] || echo -cpu >"$cg2/cgroup.subtree_control" ||
		echo "${0##*/}: cannot disable cpu at $cg2 again: echo -cpu >$cg2/cgroup.subtree_control" >&2
}

bench_scratch delays
results=$scratch/results
if [ -n "$cpu_root" ] && ! grep -qw cpu "$cg2/cgroup.subtree_control"; then
	echo +cpu >"$cg2/cgroup.subtree_control" || die "--cpu-root: cannot enable cpu at $cg2"
	cpu_enabled=1
fi

bench_header "delays.sh: what collecting the delays (taskstats, task_delayacct, PSI) costs the compile"
echo "task_delayacct: $(cat /proc/sys/kernel/task_delayacct 2>/dev/null || echo unreadable) at start"
echo "run type:  $type; cgroup v2 root's subtree_control: $(cat "${cg2:-/sys/fs/cgroup}/cgroup.subtree_control" 2>/dev/null || echo unreadable)${cpu_enabled:+ (cpu enabled by this script)}"
bench_quiet "$rounds" 5

# the storm: a cmd workload of 8 streams at once, as the build's 8 jobs
if [ -n "$storm" ]; then
	mkdir "$scratch/storm" || die "cannot make $scratch/storm"
	if [ "$storm" = tasks ]; then
		storm_size=${storm_size:-2500}
		stream="i=0; while [ \$i -lt $storm_size ]; do /bin/true; i=\$((i + 1)); done"
	else
		storm_size=${storm_size:-200000}
		stream="perf bench sched pipe -l $storm_size >/dev/null"
	fi
	storm_cmd="for s in 1 2 3 4 5 6 7 8; do sh -c '$stream' & done; wait"
	storm_args=(-w "cmd:$scratch/storm" --build-cmd "$storm_cmd" --clean-cmd true)
	echo "storm:     $storm, 8 streams of $storm_size: $storm_cmd"
fi

session() {	# session LABEL [OPTIONS...]: one contest session of the run type timed
	local label=$1 w=(-w "$workload" ${scale:+--scale "$scale"})
	shift
	[ -z "$storm" ] || w=("${storm_args[@]}")
	"$contest" "${w[@]}" -n 1 --quiet --no-probe \
		--work-dir "$scratch/work" -d "$results" -k "$label" "$@" "$type" \
		>"$scratch/$label.out" 2>"$scratch/$label.err" ||
		die "contest -k $label $* failed: $(tail -3 "$scratch/$label.err")"
}

# the last run of LABEL of the type timed: its Time, and the delays it recorded
last_run() {
	awk -v l="$1" -v t="$type" "$BENCH_AWK"'$1 == "run" && / valid=1 / {
		fields()
		if (f["label"] != l || f["type"] != t) next
		d = ("build_delay_tasks" in f) ? sprintf("%d tasks, wait %.2f s, PSI %s",
			f["build_delay_tasks"], f["build_delay_wait_ns"] / 1e9, f["psi_scope"]) : "none"
		line = sprintf("%8.2f s  delays: %s", f["elapsed_ns"] / 1e9, d)
	} END { print line }' "$results/$1.results"
}

echo
echo "== $type${storm:+ of the $storm storm} with the delays collected (the default) and with --no-delays, $rounds rounds (ABBA)"
for ((r = 1; r <= rounds; r++)); do
	if [ $((r % 2)) -eq 1 ]; then order="no-delays delays"; else order="delays no-delays"; fi
	for side in $order; do
		if [ "$side" = delays ]; then session delays; else session no-delays --no-delays; fi
		printf 'round %d: %-10s %s\n' "$r" "$side" "$(last_run "$side")"
	done
done
echo
"$contest" report -d "$results" --stats --no-latency no-delays delays | sed -n "/^$type:/,/^\$/p"
cat "$results/no-delays.results" "$results/delays.results" | awk -v type="$type" "$BENCH_AWK"'
$1 == "run" {
	fields()
	if (f["type"] != type) next
	l = f["label"]; t = f["elapsed_ns"] / 1e9
	r[l]++; rt[l, r[l]] = f["valid"] + 0 ? t : 0
	if (!(f["valid"] + 0)) next
	n[l]++; s[l] += t; ss[l] += t * t
}
END {
	if (!ratio("cost of the delays: mean " type " Time with them / without", "delays", "no-delays", n, s, ss))
		exit
	paired("cost of the delays, paired by round: geometric mean of with / without", "delays", "no-delays", r, rt)
}'
if [ -n "$storm" ]; then
	# one noload build of WORKLOAD with the delays: its Time, its tasks, and
	# the context switches of its session
	echo
	echo "== the build the storm's cost is carried over to: one noload session of $workload"
	ctxt0=$(awk '$1 == "ctxt" { print $2 }' /proc/stat)
	storm= session build	# the workload's build: no storm for this one session
	ctxt1=$(awk '$1 == "ctxt" { print $2 }' /proc/stat)
	bt=$(awk "$BENCH_AWK"'$1 == "run" && / type=noload / { fields(); t = f["elapsed_ns"] / 1e9; k = f["build_delay_tasks"] } END { print t, k }' "$results/build.results")
	echo "build:     Time $(echo "$bt" | cut -d' ' -f1) s, $(echo "$bt" | cut -d' ' -f2) tasks, $(( (ctxt1 - ctxt0) / 2 )) context switches (half of its session's)"
	cat "$results/no-delays.results" "$results/delays.results" | awk -v kind="$storm" -v size="$storm_size" \
		-v bt="$bt" -v sw="$(( (ctxt1 - ctxt0) / 2 ))" "$BENCH_AWK"'
	$1 == "run" && / type=noload / && / valid=1 / {
		fields()
		l = f["label"]; t = f["elapsed_ns"] / 1e9
		r[l]++; rt[l, r[l]] = t; s[l] += t
		if (l == "delays") k = f["build_delay_tasks"]
	}
	END {
		split(bt, b, " ")
		# the storm'"'"'s units: its tasks as the delays counted them, or its
		# round trips (two switches each)
		units = kind == "tasks" ? k : 8 * size * 2
		per = kind == "tasks" ? b[2] : sw
		n = 0; m = 0
		for (i = 1; i <= r["delays"] && i <= r["no-delays"]; i++) { d[++n] = log(rt["delays", i] / rt["no-delays", i]); m += d[n] }
		if (n < 2 || !units || !b[1]) { print "cost carried over: too few rounds or no figures"; exit }
		m /= n; v = 0
		for (i = 1; i <= n; i++) v += (d[i] - m) ^ 2 / (n - 1)
		h = tq(n - 1) * sqrt(v / n)
		toff = s["no-delays"] / r["no-delays"]
		# seconds added per unit in the storm, at the paired ratio and its bounds
		for (j = -1; j <= 1; j++) add[j] = (exp(m + j * h) - 1) * toff / units
		printf "cost per %s in the storm: %.2f us (95%% CI %.2f to %.2f; %d units a build of %.2f s)\n", \
			kind == "tasks" ? "task" : "context switch", add[0] * 1e6, add[-1] * 1e6, add[1] * 1e6, units, toff
		printf "carried over to the build (%d %s, Time %.2f s): %+.3f%% of its Time (95%% CI %+.3f%% to %+.3f%%)\n", \
			per, kind == "tasks" ? "tasks" : "switches", b[1], 100 * add[0] * per / b[1], 100 * add[-1] * per / b[1], 100 * add[1] * per / b[1]
	}'
fi
echo "load avg:  $(cut -d' ' -f1-3 /proc/loadavg) at end"
