#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# workload.sh - the noload build timed by contest and by a plain make loop.
#
# contest must add no time of its own to the build it times.  Each round
# runs, in turn (the side that goes first alternating from round to round):
#
#   contest   a whole session, `contest -w WORKLOAD -n 1 -j JOBS noload`,
#             whose noload Time (from its record) is the figure;
#   plain     the same build by hand on the same tree: clean, flush the page
#             cache as contest does (sync + drop_caches, as root), then
#             `make -jJOBS [TARGET]` timed with date +%s%N around it.
#
# It prints every round, both medians and the ratio contest / plain.
#
# For kernel:DIR the plain side builds in its own output directory
# (make -C DIR O=...), configured once with tinyconfig as contest does.  For
# builtin it builds a copy of the very tree contest generates, taken once
# through a `make` wrapper on PATH during an extra, untimed contest session
# (the wrapper is not on PATH for the timed sessions).  Everything lives in a
# scratch directory of our own, removed on exit.
#
# Usage: bench/workload.sh [options] [builtin | kernel:DIR]   (default builtin)
#
# With --ratios kernel:DIR it compares the workloads instead: each round runs
# a session `contest -n 1 noload LOAD...` for builtin and one for the kernel
# tree (the side that goes first alternating), and it prints each load's
# Ratio (its Time / the same session's noload Time) for both, side by side,
# with the load's CPU share (load CPU seconds / build seconds).
#
# Run it as root from the build directory, or set CONTEST=path/to/contest.

set -u
. "$(dirname "$0")/lib.sh" || exit 2
export LC_ALL=C

rounds=3
jobs=$((4 * $(getconf _NPROCESSORS_ONLN)))
base=.
scale=
kconfig=tinyconfig
target=vmlinux

usage() {
	cat <<EOF
Usage: $0 [options] [builtin | kernel:DIR]
  -n, --rounds N     rounds, each one contest session and one plain build (default $rounds)
  -j, --jobs N       make -jN on both sides (default 4 x CPUs: $jobs)
      --scale N      builtin: the scale (default contest's)
      --quick        builtin: the --quick scale
      --kconfig T    kernel: the *config target (default $kconfig)
      --target T     kernel: the make target (default $target)
      --dir DIR      where the scratch directory goes (default: the current directory)
      --ratios       compare the loads' Ratios of builtin and kernel:DIR (given last)
      --loads 'L...' --ratios: the loads (default: process_load ctar_load io_load)
      --io-size S    --ratios: io_load's file size on both sides (default 1G)
      --results DIR  --ratios: keep the records in DIR (made if missing); a later
                     run with the same DIR adds its rounds to the summary
  -h, --help         this help
The contest binary: \$CONTEST, else ./contest.
EOF
}

quick=
ratios=
loads="process_load ctar_load io_load"
io_size=1G
results=
bench_options '-j|--jobs=jobs --scale=scale --quick=quick=1 --kconfig=kconfig
	--target=target --ratios=ratios=1 --loads=loads --io-size=io_size
	--results=results' "$@"
shift "$bench_shift"
workload=${1:-builtin}
contest=${CONTEST:-./contest}
[ -x "$contest" ] || die "no contest binary at $contest: run from the build directory or set CONTEST"
contest=$(cd "$(dirname "$contest")" && pwd)/$(basename "$contest")
real_make=$(command -v make) || die "make is not installed"
[ "$(id -u)" = 0 ] || echo "workload.sh: not root: neither side can drop the page cache" >&2

scratch=$(mktemp -d "$base/workload-bench.XXXXXX") || exit 1
scratch=$(cd "$scratch" && pwd)
trap 'rm -rf "$scratch"' EXIT
trap 'exit 130' INT TERM
# a copy: a rebuild during the rounds must not change what is measured
cp "$contest" "$scratch/contest" || exit 1
contest_shown=$contest
contest=$scratch/contest

# ---- --ratios: builtin against a kernel tree, load by load --------------------
if [ -n "$ratios" ]; then
	case $workload in
	kernel:*) ;;
	*) die "--ratios wants kernel:DIR" ;;
	esac
	[ -n "$quick" ] && scale=${scale:-24}
	bopts=(-w builtin)
	[ -n "$scale" ] && bopts+=(--scale "$scale")
	kopts=(-w "$workload" --kconfig "$kconfig" --target "$target")
	common=(-n 1 -j "$jobs" --io-size "$io_size" --work-dir "$scratch/work")
	res=$scratch	# where res-builtin and res-kernel go: the scratch, or --results DIR
	if [ -n "$results" ]; then
		mkdir -p "$results" && res=$(cd "$results" && pwd) || die "cannot make --results $results"
	fi
	session() {	# session SIDE OPTS...: one contest session into RES/res-SIDE
		local side=$1
		shift
		"$contest" "$@" "${common[@]}" -d "$res/res-$side" -k "$side" --quiet \
			noload $loads >/dev/null 2>"$scratch/$side.err" ||
			die "contest ($side) failed: $(tail -n 5 "$scratch/$side.err")"
		echo "  $side:$(last_session "$side")"
	}
	# ratios_of SIDE: per session and load: SIDE LOAD SESSION Ratio CPU-share noload-s
	# load-CPU/build-CPU (the last is measured within the run, so the other
	# users of the machine change it far less than the Ratio)
	# (the Ratio divides by the same session's noload Time)
	ratios_of() {
		local side=$1
		grep -h '^run ' "$res/res-$side"/*.results | awk -v side="$side" '
		function f(k,   i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
		{ s = f("session"); t = f("type"); e = f("elapsed_ns")
		  if (f("valid") != 1) next
		  if (t == "noload") { nl[s] = e; next }
		  lc = f("load_cpu_ns"); if (lc == "") lc = f("load_user_ns") + f("load_sys_ns")	# records v1
		  el[s, t] = e; share[s, t] = lc / e
		  b = f("user_ns") + f("sys_ns"); rel[s, t] = b ? lc / b : 0
		  ts[t] = 1; ss[s] = 1 }
		END { for (t in ts) for (s in ss) if ((s, t) in el && nl[s])
			printf "%s %s %s %.4f %.4f %.2f %.4f\n", side, t, s, el[s, t] / nl[s], share[s, t], nl[s] / 1e9, rel[s, t] }'
	}
	last_session() {	# last_session SIDE: the Ratios of its latest session, on one line
		local s
		s=$(grep -h '^run ' "$res/res-$1"/*.results | tail -n 1 | sed 's/.* session=\([^ ]*\) .*/\1/')
		ratios_of "$1" | awk -v s="$s" '$3 == s { printf " %s %.2f (load/build CPU %.2f);", $2, $4, $7; nl = $6 } END { printf " noload %.1f s\n", nl }'
	}
	echo "workload.sh --ratios: builtin${scale:+ --scale $scale} against $workload ($kconfig, $target), -j$jobs, $rounds rounds"
	echo "loads: $loads; io-size $io_size; $(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs"
	echo "contest: $contest_shown ($("$contest" --version | head -1)); load average $(cut -d' ' -f1-3 /proc/loadavg) at start"
	t0=$(date +%s)
	for r in $(seq 1 "$rounds"); do
		if [ $((r % 2)) = 1 ]; then
			session builtin "${bopts[@]}"; session kernel "${kopts[@]}"
			echo "round $r (builtin first) done at $(($(date +%s) - t0)) s, load average $(cut -d' ' -f1 /proc/loadavg)"
		else
			session kernel "${kopts[@]}"; session builtin "${bopts[@]}"
			echo "round $r (kernel first) done at $(($(date +%s) - t0)) s, load average $(cut -d' ' -f1 /proc/loadavg)"
		fi
	done
	ratios_of builtin >"$scratch/ratios"
	ratios_of kernel >>"$scratch/ratios"
	echo
	# Rounds: the k-th session of builtin (by its start, the session id's
	# leading seconds) with the k-th of the kernel.  builtin/kernel is the
	# geometric mean of the rounds' quotients, with a 95% t interval on the
	# log scale from the spread between rounds (n >= 2).
	echo "per load: builtin/kernel (mean of rounds, 95% interval), then each round's builtin and kernel Ratio, oldest first"
	for l in $loads; do
		awk -v l="$l" '
		$2 == l { split($3, t, "-"); v[$1, t[1] "." t[2]] = $4 }
		END {
			tq[1] = 12.706; tq[2] = 4.303; tq[3] = 3.182; tq[4] = 2.776; tq[5] = 2.571
			tq[6] = 2.447; tq[7] = 2.365; tq[8] = 2.306; tq[9] = 2.262; tq[10] = 2.228
			for (k in v) { split(k, a, SUBSEP); n[a[1]]++; when[a[1], n[a[1]]] = a[2] }
			for (sd in n) for (i = 2; i <= n[sd]; i++) for (j = i; j > 1 && when[sd, j - 1] + 0 > when[sd, j] + 0; j--) {
				x = when[sd, j]; when[sd, j] = when[sd, j - 1]; when[sd, j - 1] = x }
			m = n["builtin"] < n["kernel"] ? n["builtin"] : n["kernel"]
			rounds = ""; s = 0
			for (i = 1; i <= m; i++) {
				b = v["builtin", when["builtin", i]]; k = v["kernel", when["kernel", i]]
				q[i] = log(b / k); s += q[i]
				rounds = rounds sprintf(" %.2f/%.2f", b, k)
			}
			if (!m) { printf "%-14s no round with both sides\n", l; exit }
			mu = s / m; line = sprintf("%-14s n=%d builtin/kernel %.2f", l, m, exp(mu))
			if (m > 1) {
				ss = 0; for (i = 1; i <= m; i++) ss += (q[i] - mu) ^ 2
				se = sqrt(ss / (m - 1) / m); tv = m - 1 <= 10 ? tq[m - 1] : 1.96
				line = line sprintf(" (%.2f-%.2f)", exp(mu - tv * se), exp(mu + tv * se))
			}
			print line ";" rounds
		}' "$scratch/ratios"
	done
	echo
	echo "the load's CPU time / the build's CPU time in the loaded run (mean of rounds), and noload Times:"
	for side in builtin kernel; do
		printf "  %-8s" "$side"
		for l in $loads; do
			printf " %s %s" "$l" "$(awk -v l="$l" -v sd="$side" '$1 == sd && $2 == l { s += $7; n++ } END { if (n) printf "%.2f", s / n }' "$scratch/ratios")"
		done
		printf "; noload %s s\n" "$(awk -v sd="$side" '$1 == sd { if (!($3 in seen)) { seen[$3] = 1; printf "%s%.1f", n++ ? " " : "", $6 } }' "$scratch/ratios")"
	done
	shown_res=${res//$scratch/SCRATCH}
	echo "builtin: contest ${bopts[*]} ${common[*]//$scratch/SCRATCH} -d $shown_res/res-builtin -k builtin noload $loads"
	echo "kernel:  contest ${kopts[*]} ${common[*]//$scratch/SCRATCH} -d $shown_res/res-kernel -k kernel noload $loads"
	echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at end; $(($(date +%s) - t0)) s in all"
	exit 0
fi

flush() {
	sync
	[ -w /proc/sys/vm/drop_caches ] && echo 3 >/proc/sys/vm/drop_caches
}

now_ns() { date +%s%N; }

# ---- what each side runs ----------------------------------------------------
copts=(-n 1 -j "$jobs" -d "$scratch/results" --work-dir "$scratch/work")
case $workload in
builtin)
	[ -n "$scale" ] && copts+=(--scale "$scale")
	[ -n "$quick" ] && copts+=(--quick)
	# one untimed session with a make wrapper that copies the generated tree
	mkdir "$scratch/shim"
	cat >"$scratch/shim/make" <<EOF
#!/bin/sh
case \$PWD in
$scratch/work/run-*/tree)
	[ -e "$scratch/tree.done" ] || { cp -R . "$scratch/tree" && touch "$scratch/tree.done"; } ;;
esac
exec "$real_make" "\$@"
EOF
	chmod +x "$scratch/shim/make"
	PATH="$scratch/shim:$PATH" "$contest" -w builtin "${copts[@]}" -k snapshot \
		-d "$scratch/snapshot" noload >/dev/null 2>"$scratch/snapshot.err"
	[ -e "$scratch/tree.done" ] || die "could not copy the builtin tree from a contest session: $(tail -n 5 "$scratch/snapshot.err")"
	plain_dir=$scratch/tree
	plain_clean=("$real_make" -C "$plain_dir" clean)
	plain_build=("$real_make" -C "$plain_dir" -j"$jobs" CC="${CC:-cc}")
	shown_plain="make clean; flush; make -j$jobs CC=${CC:-cc} (in a copy of the generated tree)"
	;;
kernel:*)
	tree=$(cd "${workload#kernel:}" && pwd) || die "no tree ${workload#kernel:}"
	copts+=(--kconfig "$kconfig" --target "$target")
	mkdir "$scratch/kbuild"
	"$real_make" -C "$tree" O="$scratch/kbuild" "$kconfig" >"$scratch/kconfig.log" 2>&1 ||
		die "make $kconfig failed in $tree: see the end of it: $(tail -n 5 "$scratch/kconfig.log")"
	plain_clean=("$real_make" -C "$tree" O="$scratch/kbuild" clean)
	plain_build=("$real_make" -C "$tree" O="$scratch/kbuild" -j"$jobs" "$target")
	shown_plain="make -C DIR O=BUILD clean; flush; make -C DIR O=BUILD -j$jobs $target"
	;;
*)
	die "workload '$workload': builtin or kernel:DIR"
	;;
esac
shown_contest="contest -w $workload ${copts[*]} noload"
shown_contest=${shown_contest//$scratch/SCRATCH}

# ---- the two sides ------------------------------------------------------------
contest_once() {
	local rec
	"$contest" -w "$workload" "${copts[@]}" -k bench noload >/dev/null 2>"$scratch/contest.err" ||
		die "contest failed: $(tail -n 5 "$scratch/contest.err")"
	rec=$(grep '^run ' "$scratch/results/bench.results" | tail -n 1)
	case $rec in
	*" valid=1 "*) ;;
	*) die "contest's run is invalid: $rec" ;;
	esac
	echo "$rec" | sed 's/.* elapsed_ns=\([0-9]*\) .*/\1/'
}

plain_once() {
	local t0 t1
	"${plain_clean[@]}" >/dev/null 2>&1 || die "the plain clean failed"
	flush
	t0=$(now_ns)
	"${plain_build[@]}" >"$scratch/plain.log" 2>&1 || die "the plain build failed: $(tail -n 5 "$scratch/plain.log")"
	t1=$(now_ns)
	echo $((t1 - t0))
}

secs() { awk -v ns="$1" 'BEGIN { printf "%.2f", ns / 1e9 }'; }
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.0f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "workload.sh: $workload, -j$jobs, $rounds rounds, $(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs"
echo "contest:  $contest_shown ($("$contest" --version | head -1)); load average $(cut -d' ' -f1-3 /proc/loadavg) at start"
: >"$scratch/c" && : >"$scratch/p"
for r in $(seq 1 "$rounds"); do
	if [ $((r % 2)) = 1 ]; then
		c=$(contest_once) || exit 1
		p=$(plain_once) || exit 1
		order="contest first"
	else
		p=$(plain_once) || exit 1
		c=$(contest_once) || exit 1
		order="plain first"
	fi
	echo "$c" >>"$scratch/c"
	echo "$p" >>"$scratch/p"
	echo "round $r ($order): contest $(secs "$c") s, plain $(secs "$p") s"
done
cm=$(median <"$scratch/c")
pm=$(median <"$scratch/p")
echo "contest: $shown_contest"
echo "plain:   $shown_plain"
echo "load average $(cut -d' ' -f1-3 /proc/loadavg) at end"
printf "median  contest %s s  plain %s s  ratio contest/plain %s\n" "$(secs "$cm")" "$(secs "$pm")" \
	"$(awk -v a="$cm" -v b="$pm" 'BEGIN { printf "%.3f", a / b }')"
