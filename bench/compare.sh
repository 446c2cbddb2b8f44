#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# compare.sh - what `contest compare` gains over two suites run one after
# the other, measured.
#
# Two configurations that are the same machine (A/A: labels a and b, no
# setup commands), so the true difference of every Ratio is 0 and all that
# is measured is how sure each design is of that 0.  Both designs get the
# same number of runs, and run in the same sitting:
#
#   sequential   `contest -n N -k a LOADS`, then `contest -n N -k b LOADS`:
#                two separate suites, as one compares two kernels today;
#   interleaved  `contest compare -n N --configs FILE LOADS`: a and b round
#                by round, in a counterbalanced order.
#
# Each run's Ratio is its Time over its own round's noload (same label,
# same session).  For each load it prints the difference b - a of the mean
# Ratios with its 95% interval: Welch's for the sequential suites (two
# independent samples), and for the interleaved one both Welch's and the
# paired interval over rounds (round i's b - a; the drift that both
# configurations of a round share cancels there).  The last lines give
# each design's widest interval over the loads, and their ratio.
#
# Usage: bench/compare.sh [-n N] [-w WORKLOAD] [--dir DIR] [LOAD...]
#        (default: -n 4, builtin, process_load)
# Run it as root (contest drops the page cache before every timed run), from
# the build directory or with CONTEST=path/to/contest.

set -u
. "$(dirname "$0")/lib.sh" || exit 2
export LC_ALL=C

rounds=4
workload=builtin
base=.
contest_src=${CONTEST:-./contest}
cmdline="$0 $*"
loads=()

usage() {
	cat <<EOF
Usage: $0 [options] [LOAD...]
  -n, --rounds N      rounds of each design (default $rounds; 2 at least)
  -w, --workload W    contest's workload: builtin (default), kernel:DIR or cmd:DIR
      --dir DIR       where the scratch directory goes (default: the current directory)
  -h, --help          this help
LOAD: contest's run types besides noload (default process_load).
The contest binary: \$CONTEST, else ./contest.
EOF
}

while [ $# -gt 0 ]; do	# options and LOADs in any order
	bench_options '-w|--workload=workload' "$@"
	shift "$bench_shift"
	[ $# -eq 0 ] || { loads+=("$1"); shift; }
done
[ ${#loads[@]} -gt 0 ] || loads=(process_load)
[[ $rounds =~ ^[0-9]+$ ]] && [ "$rounds" -ge 2 ] || die "-n wants 2 rounds or more, not '$rounds'"
[ "$(id -u)" -eq 0 ] || die "run me as root: contest drops the page cache before every timed run"
[ -x "$contest_src" ] || die "no contest binary at $contest_src (set CONTEST=)"

bench_scratch compare
printf '[a]\n[b]\n' >"$scratch/aa.conf"

bench_header "compare.sh: two suites one after the other against contest compare, A/A"
echo "runs:      $rounds rounds x 2 labels x (noload ${loads[*]}) in each design"
echo "load avg:  $(cut -d' ' -f1-3 /proc/loadavg) at start"

common=(-w "$workload" -n "$rounds" --quiet --no-progress --work-dir "$scratch/work")
step() {	# step NAME COMMAND...: run it, its output kept, or stop
	local name=$1 t0
	shift
	t0=$(date +%s)
	"$@" >"$scratch/$name.out" 2>"$scratch/$name.err" ||
		die "$name failed: $(tail -3 "$scratch/$name.err")"
	echo "$name: $(($(date +%s) - t0)) s: $*" | sed "s|$scratch/||g"
}

echo
step "sequential-a" "$contest" "${common[@]}" -d "$scratch/seq" -k a noload "${loads[@]}"
step "sequential-b" "$contest" "${common[@]}" -d "$scratch/seq" -k b noload "${loads[@]}"
step "interleaved" "$contest" compare "${common[@]}" -d "$scratch/int" \
	--configs "$scratch/aa.conf" noload "${loads[@]}"

# "design load round a_ratio b_ratio" per round where both labels have a
# valid noload and a valid LOAD run: each run's Time / its round's noload
ratios() {
	local design=$1
	cat "$scratch/$design"/*.results | awk -v design="$design" "$BENCH_AWK"'
	$1 == "run" {
		fields()
		if (f["valid"] != 1) next
		t[f["label"], f["type"], f["round"]] = f["elapsed_ns"] / 1e9
		types[f["type"]]; if (f["round"] > max) max = f["round"]
	}
	END {
		for (ty in types) {
			if (ty == "noload") continue
			for (r = 1; r <= max; r++) {
				if (!(("a", ty, r) in t && ("b", ty, r) in t && ("a", "noload", r) in t && ("b", "noload", r) in t)) continue
				printf "%s %s %d %.6f %.6f\n", design, ty, r,
					t["a", ty, r] / t["a", "noload", r], t["b", ty, r] / t["b", "noload", r]
			}
		}
	}'
}

# per design and load: the mean Ratios, b - a and its 95% intervals (tq, lib.sh)
summary() {
	awk "$BENCH_AWK"'
	function mean(x, n,   i, s) { s = 0; for (i = 1; i <= n; i++) s += x[i]; return s / n }
	function var(x, n, m,   i, s) { s = 0; for (i = 1; i <= n; i++) s += (x[i] - m) ^ 2; return s / (n - 1) }
	{ key = $1 SUBSEP $2; n[key]++; a[key, n[key]] = $4; b[key, n[key]] = $5; designs[$1]; loads[$2] }
	END {
		printf "\n%-12s %-14s %3s %9s %9s %9s %9s %9s\n", "design", "load", "n", "a Ratio", "b Ratio", "b - a", "Welch 95%", "paired 95%"
		for (d in designs) for (l in loads) {
			key = d SUBSEP l; k = n[key]
			if (k < 2) { printf "%-12s %-14s %3d  (fewer than 2 rounds with both labels valid)\n", d, l, k; continue }
			delete xa; delete xb; delete xd
			for (i = 1; i <= k; i++) { xa[i] = a[key, i]; xb[i] = b[key, i]; xd[i] = xb[i] - xa[i] }
			ma = mean(xa, k); mb = mean(xb, k); md = mean(xd, k)
			va = var(xa, k, ma) / k; vb = var(xb, k, mb) / k
			df = (va + vb) ^ 2 / ((va ^ 2 + vb ^ 2) / (k - 1))
			welch = tq(df) * sqrt(va + vb)
			paired = tq(k - 1) * sqrt(var(xd, k, md) / k)
			printf "%-12s %-14s %3d %9.3f %9.3f %+9.3f %9s %9s\n", d, l, k, ma, mb, mb - ma,
				sprintf("+-%.3f", welch), d == "interleaved" ? sprintf("+-%.3f", paired) : "-"
			# the sequential suites have no rounds in common: Welch is their interval
			w = d == "interleaved" ? paired : welch
			if (w > widest[d]) widest[d] = w
			if (d == "interleaved" && welch > widest_w) widest_w = welch
		}
		printf "\nwidest 95%% interval of the Ratio difference (the half-width):\n"
		printf "  sequential suites (Welch):      +-%.3f\n", widest["sequential"]
		printf "  contest compare (paired):       +-%.3f\n", widest["interleaved"]
		printf "  contest compare (Welch):        +-%.3f\n", widest_w
		if (widest["interleaved"] > 0)
			printf "  sequential / compare (paired):  %.2f\n", widest["sequential"] / widest["interleaved"]
	}'
}

{ ratios seq | sed 's/^seq/sequential/'; ratios int | sed 's/^int/interleaved/'; } >"$scratch/ratios"
echo
echo "per round: design load round a b (each run's Time / its round's noload)"
sort -k1,1r -k2,2 -k3,3n "$scratch/ratios" | sed 's/^/  /'
summary <"$scratch/ratios"
echo
echo "the interleaved sitting as contest reports it:"
"$contest" report -d "$scratch/int" --stats a b | sed 's/^/  /'
echo "load avg:  $(cut -d' ' -f1-3 /proc/loadavg) at end"
