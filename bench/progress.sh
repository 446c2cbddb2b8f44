#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# progress.sh - what the live progress line costs the measurement.
#
# The same quick suite runs three ways, each round in a rotating order:
#
#   tty     stderr on a pseudo-terminal (script(1)): the live line, redrawn
#           on every phase change and once a second;
#   file    stderr to a file: one line per run, no live line;
#   quiet   --quiet, stderr to a file: the table only.
#
# Each side runs in a session of its own (script makes one; setsid for the
# others): with autogroup on, a session is a scheduling group, and a side
# left in this script's session would share its group with whatever else
# runs there -- measured here, that made the file side 36% slower than the
# tty side on a busy machine, the progress line having nothing to do with it.
#
# Each side's figures are the Times of its runs, read from its records
# (elapsed_ns), and, sampled from /proc every 0.2 s while a build runs
# (contest has a child named make), the CPU time and the voluntary context
# switches (wakeups) of the contest process itself over those windows: its
# builds and loads are other processes and not counted there.  That is
# where the live line adds its redraws (the build's wait wakes once a
# second for it) and where a wakeup could steal from the timed build.
# It prints every round, the medians of each side, the ratios tty / file
# and quiet / file, and the command.  Everything lives in a scratch
# directory of our own, removed on exit.
#
# Usage: bench/progress.sh [options] [RUNTYPE...]   (default noload process_load)
# Run it from the build directory, or set CONTEST=path/to/contest.

set -u
. "$(dirname "$0")/lib.sh" || exit 2
export LC_ALL=C

rounds=3
base=.
scale=
extra=()

usage() {
	cat <<EOF
Usage: $0 [options] [RUNTYPE...]
  -n, --rounds N    rounds, each one suite of every side (default $rounds)
      --scale N     the builtin workload's scale (default: --quick's)
      --dir DIR     where the scratch directory goes (default: the current directory)
  -h, --help        this help
Run types: default noload process_load.  The contest binary: \$CONTEST, else ./contest.
EOF
}

bench_options '--scale=scale' "$@"
shift "$bench_shift"
[ -z "$scale" ] || extra+=(--scale "$scale")
if [ $# -gt 0 ]; then types=("$@"); else types=(noload process_load); fi
case $rounds in ''|*[!0-9]*|0) die "--rounds wants a number from 1" ;; esac
command -v script >/dev/null || die "script (util-linux) is not installed: no pseudo-terminal"
command -v setsid >/dev/null || die "setsid (util-linux) is not installed"
[ -n "${EPOCHREALTIME:-}" ] || die "needs bash 5 or later (EPOCHREALTIME)"
contest=${CONTEST:-./contest}
[ -x "$contest" ] || die "no contest binary at $contest: run from the build directory or set CONTEST"
contest=$(cd "$(dirname "$contest")" && pwd)/$(basename "$contest")

scratch=$(mktemp -d "$base/progress-bench.XXXXXX") || exit 1
scratch=$(cd "$scratch" && pwd)
watcher=
child=
pid=
# on exit and Ctrl-C: the running contest is in a session of its own, out
# of the terminal's reach; SIGTERM makes it stop and clean up
cleanup() {
	[ -n "$pid" ] && kill "$pid" 2>/dev/null
	[ -n "$child" ] && wait "$child" 2>/dev/null
	[ -n "$watcher" ] && kill "$watcher" 2>/dev/null
	rm -rf "$scratch"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# a copy: a rebuild during the rounds must not change what is measured
cp "$contest" "$scratch/contest" || exit 1
contest_shown=$contest
contest=$scratch/contest

opts=(--quick "${extra[@]}" -n 1)
shown="contest ${opts[*]} -k SIDE ${types[*]}"

# watch PID FILE: until PID is gone, add to FILE every 0.2 s a line "us
# cpu_ns switches make": the time in microseconds, the nanoseconds PID has
# run on a CPU (/proc/PID/schedstat) and its voluntary context switches, and
# the pid of its child named make (0: none).  Only shell builtins but sleep,
# not to load the machine it measures.
watch() {
	local pid=$1 out=$2 cpu rest sw kids k c make key val
	while [ -d "/proc/$pid" ]; do
		read -r cpu rest <"/proc/$pid/schedstat" 2>/dev/null || break
		sw=
		while read -r key val; do
			[ "$key" = voluntary_ctxt_switches: ] && sw=$val
		done <"/proc/$pid/status" 2>/dev/null
		kids=
		read -r kids <"/proc/$pid/task/$pid/children" 2>/dev/null
		make=0
		for k in $kids; do
			read -r c <"/proc/$k/comm" 2>/dev/null && [ "$c" = make ] && make=$k
		done
		[ -n "$sw" ] && echo "${EPOCHREALTIME/./} $cpu $sw $make" >>"$out"
		sleep 0.2
	done
}

# over the intervals between two samples taken while the same make ran:
# wakeups/s and own CPU ms/s of contest, and the seconds they cover
during_builds() {
	[ -s "$1" ] || { echo "- - 0"; return; }
	awk 'p && $4 && $4 == pb { dt += ($1 - pt) / 1e6; dc += $2 - pc; ds += $3 - ps }
		{ p = 1; pt = $1; pc = $2; ps = $3; pb = $4 }
		END { if (dt > 0) printf "%.2f %.3f %.0f\n", ds / dt, dc / 1e6 / dt, dt; else print "- - 0" }' "$1"
}

# side NAME ROUND: one suite; sets result to "TIME_NS... WAKEUPS/S CPU_MS/S
# SECONDS" (the last three over the build windows).  In this shell, not in
# a $(...), so that a Ctrl-C reaches the trap while it waits.
side() {
	local name=$1 round=$2 dir=$scratch/$1 rec times
	mkdir -p "$dir"
	rm -f "$dir/watch"
	case $name in
	tty)
		(cd "$dir" && TERM=xterm exec script -qfec \
			"$contest ${opts[*]} -k tty-$round ${types[*]}" "$dir/ts") \
			</dev/null >/dev/null 2>&1 &
		;;
	file|quiet)
		q=()
		[ "$name" = quiet ] && q=(--quiet)
		(cd "$dir" && exec setsid -w "$contest" "${opts[@]}" "${q[@]}" -k "$name-$round" \
			"${types[@]}") </dev/null >"$dir/out" 2>"$dir/err" &
		;;
	esac
	child=$!
	# contest: the launcher itself once exec'd, or its child (script's shell
	# execs it; setsid forks when it must)
	pid=
	for _ in $(seq 500); do
		if [ "$(readlink "/proc/$child/exe")" = "$contest" ]; then
			pid=$child
		else
			read -r pid _ <"/proc/$child/task/$child/children" 2>/dev/null
			[ -n "$pid" ] && [ "$(readlink "/proc/$pid/exe")" = "$contest" ] || pid=
		fi
		[ -n "$pid" ] && break
		sleep 0.02
	done
	[ -n "${pid:-}" ] && { watch "$pid" "$dir/watch" & watcher=$!; }
	wait "$child" || die "the $name suite failed: $(tail -n 5 "$dir/err" "$dir/ts" 2>/dev/null)"
	child=
	pid=
	wait "$watcher" 2>/dev/null
	watcher=
	if [ "$name" = tty ]; then
		grep -q 'COMMAND_EXIT_CODE="0"' "$dir/ts" || die "the tty suite failed"
		grep -q "$(printf '\033')\[K" "$dir/ts" || die "the tty suite drew no live line"
	fi
	times=
	for t in "${types[@]}"; do
		rec=$(grep "^run .* type=$t " "$dir/contest-results/$name-$round.results" | tail -n 1)
		case $rec in
		*" valid=1 "*) ;;
		*) die "$name: $t's run is invalid: $rec; $(tail -n 25 "$dir/err" "$dir/ts" 2>/dev/null)" ;;
		esac
		times="$times $(echo "$rec" | sed 's/.* elapsed_ns=\([0-9]*\) .*/\1/')"
	done
	result="$times $(during_builds "$dir/watch")"
}

secs() { awk -v ns="$1" 'BEGIN { printf "%.2f", ns / 1e9 }'; }
median() { grep -v '^-$' | sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.2f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

sides=(tty file quiet)
echo "progress.sh: ${types[*]}, $rounds rounds, $(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs"
echo "contest:  $contest_shown ($("$contest" --version | head -1)); load average $(cut -d' ' -f1-3 /proc/loadavg) at start"
for r in $(seq 1 "$rounds"); do
	line="round $r:"
	for k in 0 1 2; do
		s=${sides[$(((r - 1 + k) % 3))]}
		side "$s" "$r"
		set -- $result
		for i in "${!types[@]}"; do
			echo "$1" >>"$scratch/$s.t$i"
			line="$line $s ${types[$i]} $(secs "$1") s,"
			shift
		done
		echo "$1" >>"$scratch/$s.wake"
		echo "$2" >>"$scratch/$s.cpu"
		line="$line contest over $3 s of builds: $1 wakeups/s, CPU $2 ms/s;"
	done
	echo "${line%;}"
done
echo "command: $shown   (tty: under script -qfec with TERM=xterm; file: setsid -w, stderr to a file; quiet: the same with --quiet)"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at end"
printf "%-18s %10s %10s %10s %10s %10s\n" "median" tty file quiet "tty/file" "quiet/file"
for i in "${!types[@]}"; do
	a=$(median <"$scratch/tty.t$i")
	b=$(median <"$scratch/file.t$i")
	c=$(median <"$scratch/quiet.t$i")
	printf "%-18s %8s s %8s s %8s s %10s %10s\n" "${types[$i]} Time" "$(secs "$a")" "$(secs "$b")" "$(secs "$c")" \
		"$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", a / b }')" \
		"$(awk -v a="$c" -v b="$b" 'BEGIN { printf "%.3f", a / b }')"
done
echo "contest's own process while a build runs:"
for m in wake cpu; do
	a=$(median <"$scratch/tty.$m")
	b=$(median <"$scratch/file.$m")
	c=$(median <"$scratch/quiet.$m")
	[ $m = cpu ] && label="CPU ms/s" || label="wakeups/s"
	printf "%-18s %10s %10s %10s\n" "$label" "$a" "$b" "$c"
done
