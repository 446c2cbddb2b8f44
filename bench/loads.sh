#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# loads.sh - each load's rate alone beside the stock tool it stands for.
#
# For every pair, `contest load NAME -t SECONDS` and the stock tool run in
# turn on the same data, ROUNDS times, the side that goes first alternating
# from round to round; one line per load then gives both medians, their
# units, the ratio ours / stock and the same ratio per CPU-second (rate /
# CPU%, for the CPU-bound pairs).  The stock tools run again and again,
# as the loads do, until SECONDS have passed (perf and stress-ng are given
# about SECONDS of work instead), and their CPU% is their children's
# user + system time over the wall time.  Everything lives in a scratch
# directory of our own, removed on exit.
#
# Usage: bench/loads.sh [options] [LOAD...]     (default: every pair)
# Run it from the build directory, or set CONTEST=path/to/contest; root is
# not needed.  See bench/methods.md for what each pair compares.

set -u
. "$(dirname "$0")/lib.sh" || exit 2
export LC_ALL=C

rounds=3
secs=10
io_size=2G
mem_size=2G
list_dir=/usr
base=.
method=write64

usage() {
	cat <<EOF
Usage: $0 [options] [LOAD...]
  -n, --rounds N       rounds per pair, alternating who goes first (default $rounds)
  -t, --time SECONDS   each side's time in a round (default $secs)
      --io-size SIZE   io_load and read_load file, dd and cat file (default $io_size)
      --mem-size SIZE  mem_load region and stress-ng --vm-bytes (default $mem_size)
      --list-dir DIR   list_load --root and ls -lRa DIR (default $list_dir)
      --dir DIR        where the scratch directory goes, on the disk to measure
                       (default: the current directory, as contest-work)
  -h, --help           this help
LOADs: process_load ctar_load xtar_load io_load read_load list_load mem_load.
The contest binary: \$CONTEST, else ./contest.  Sizes take K, M, G (powers of 1024).
EOF
}

bench_options '-t|--time=secs --io-size=io_size --mem-size=mem_size --list-dir=list_dir' "$@"
shift "$bench_shift"

all="process_load ctar_load xtar_load io_load read_load list_load mem_load"
want=${*:-$all}
for l in $want; do
	case " $all " in *" $l "*) ;; *) die "unknown load '$l' (one of: $all)" ;; esac
done
case $rounds in ''|*[!0-9]*) die "--rounds wants a number" ;; esac
case $secs in ''|*[!0-9]*) die "--time wants whole seconds" ;; esac
if [ "$rounds" -lt 1 ] || [ "$secs" -lt 1 ]; then
	die "--rounds and --time must be at least 1"
fi
[ -n "${EPOCHREALTIME:-}" ] || die "needs bash 5 or later (EPOCHREALTIME)"

CONTEST=${CONTEST:-./contest}
[ -x "$CONTEST" ] || die "no contest binary at '$CONTEST': build it, run from the build directory or set CONTEST"
CONTEST=$(cd "$(dirname "$CONTEST")" && pwd)/$(basename "$CONTEST")

# SIZE with K, M, G or T (powers of 1024) to bytes.
to_bytes() {
	local n=${1%[KkMmGgTt]} m=1
	case $1 in
	*[Kk]) m=1024 ;;
	*[Mm]) m=$((1024 * 1024)) ;;
	*[Gg]) m=$((1024 * 1024 * 1024)) ;;
	*[Tt]) m=$((1024 * 1024 * 1024 * 1024)) ;;
	esac
	case $n in ''|*[!0-9]*) return 1 ;; esac
	echo $((n * m))
}
io_bytes=$(to_bytes "$io_size") || die "bad --io-size '$io_size'"
mem_bytes=$(to_bytes "$mem_size") || die "bad --mem-size '$mem_size'"
if [ "$io_bytes" -eq 0 ] || [ $((io_bytes % 1048576)) -ne 0 ]; then
	die "--io-size must be a whole number of MiB"
fi
io_mib=$((io_bytes / 1048576))

S=$(mktemp -d "$base/loads-bench.XXXXXX") || die "cannot make a scratch directory in $base"
S=$(cd "$S" && pwd)
bg_pid=
cleanup() {
	if [ -n "$bg_pid" ]; then
		kill -TERM "$bg_pid" 2>/dev/null
		wait "$bg_pid" 2>/dev/null
	fi
	rm -rf "$S"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# ---- measuring --------------------------------------------------------------

now_us() { US=${EPOCHREALTIME/./}; }

# Children's user + system seconds so far (this shell's waited-for children).
child_cpu() {
	times >"$S/.times"
	CPU_S=$(awk 'NR == 2 {
		t = 0
		for (i = 1; i <= 2; i++) { split($i, a, "m"); sub("s", "", a[2]); t += a[1] * 60 + a[2] }
		printf "%.3f", t }' "$S/.times")
}

# ours NAME OPTIONS...: runs contest load; sets OURS_RATE, OURS_UNIT, OURS_CPU.
ours() {
	local name=$1
	shift
	OURS_RATE=; OURS_UNIT=; OURS_CPU=
	if ! "$CONTEST" load "$name" -t "$secs" --work-dir "$S/cw" "$@" >"$S/.out" 2>"$S/.err"; then
		echo "    contest load $name failed:" >&2
		sed 's/^/      /' "$S/.err" "$S/.out" >&2
		return 1
	fi
	OURS_RATE=$(awk '$1 == "natural:" { print $2 }' "$S/.out")
	OURS_UNIT=$(awk '$1 == "natural:" { print $3 }' "$S/.out")
	OURS_CPU=$(awk '$1 == "CPU%:" { print $2 }' "$S/.out")
	[ -n "$OURS_RATE" ]
}

# stock_loop WORK COMMAND...: runs COMMAND again and again until $secs have
# passed; WORK is what one run does, in the pair's unit.  Sets STOCK_RATE
# (WORK per second) and STOCK_CPU.
stock_loop() {
	local work=$1 n=0 t0 end c0
	shift
	child_cpu; c0=$CPU_S
	now_us; t0=$US; end=$((t0 + secs * 1000000))
	while :; do
		"$@" || return 1
		n=$((n + 1))
		now_us
		[ "$US" -ge "$end" ] && break
	done
	child_cpu
	STOCK_RATE=$(awk -v w="$work" -v n="$n" -v t0="$t0" -v t1="$US" \
		'BEGIN { printf "%.1f", w * n / ((t1 - t0) / 1e6) }')
	STOCK_CPU=$(awk -v c0="$c0" -v c1="$CPU_S" -v t0="$t0" -v t1="$US" \
		'BEGIN { printf "%.0f", (c1 - c0) / ((t1 - t0) / 1e6) * 100 }')
}

# stock_once COMMAND...: one run that lasts about $secs by itself; sets
# STOCK_WALL (seconds) and STOCK_CPU.
stock_once() {
	local t0 c0
	child_cpu; c0=$CPU_S
	now_us; t0=$US
	"$@" >"$S/.sout" 2>&1 || { sed 's/^/      /' "$S/.sout" >&2; return 1; }
	now_us
	child_cpu
	STOCK_WALL=$(awk -v t0="$t0" -v t1="$US" 'BEGIN { printf "%.6f", (t1 - t0) / 1e6 }')
	STOCK_CPU=$(awk -v c0="$c0" -v c1="$CPU_S" -v w="$STOCK_WALL" \
		'BEGIN { printf "%.0f", (c1 - c0) / w * 100 }')
}

# A rate per CPU-second: what a CPU-bound side does whatever share it got.
per_cpu() { awk -v r="$1" -v c="$2" 'BEGIN { printf "%.1f", (c > 0 ? r / c * 100 : 0) }'; }

median() {
	printf '%s\n' "$@" | sort -g | awk '{ a[NR] = $1 }
		END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.1f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

SUMMARY=()

# pair LOAD STOCKNAME UNIT OURS STOCK [MORE...]: what the two sides run
# (OURS, STOCK and MORE, a line each), then the rounds of one pair, ours_X
# against stock_X (X: LOAD without _load), and its line; the stock side's
# rate is in UNIT.
pair() {
	local load=$1 tool=$2 ours_fn=ours_${1%_load} stock_fn=stock_${1%_load} r first line
	local -a o=() s=() oc=() sc=() oe=() se=()
	STOCK_UNIT=$3
	echo "    ours:  $4"
	echo "    stock: $5"
	for line in "${@:6}"; do
		echo "           $line"
	done
	for ((r = 1; r <= rounds; r++)); do
		for first in ours stock; do
			if { [ "$first" = ours ] && [ $((r % 2)) -eq 1 ]; } ||
			   { [ "$first" = stock ] && [ $((r % 2)) -eq 0 ]; }; then
				"$ours_fn" || { SUMMARY+=("$(printf '%-13s failed: contest load' "$load")"); return; }
				o+=("$OURS_RATE"); oc+=("$OURS_CPU"); oe+=("$(per_cpu "$OURS_RATE" "$OURS_CPU")")
			else
				"$stock_fn" || { SUMMARY+=("$(printf '%-13s failed: %s' "$load" "$tool")"); return; }
				s+=("$STOCK_RATE"); sc+=("$STOCK_CPU"); se+=("$(per_cpu "$STOCK_RATE" "$STOCK_CPU")")
			fi
		done
		printf '    round %d (%s first): ours %s %s (CPU %s%%), stock %s %s (CPU %s%%)\n' \
			"$r" "$([ $((r % 2)) -eq 1 ] && echo ours || echo stock)" \
			"${o[-1]}" "$OURS_UNIT" "${oc[-1]}" "${s[-1]}" "$STOCK_UNIT" "${sc[-1]}"
	done
	local om sm ocm scm oem sem
	om=$(median "${o[@]}"); sm=$(median "${s[@]}")
	ocm=$(median "${oc[@]}"); scm=$(median "${sc[@]}")
	oem=$(median "${oe[@]}"); sem=$(median "${se[@]}")
	SUMMARY+=("$(awk -v l="$load" -v om="$om" -v ou="$OURS_UNIT" -v oc="$ocm" \
		-v sm="$sm" -v su="$STOCK_UNIT" -v sc="$scm" -v t="$tool" \
		-v oe="$oem" -v se="$sem" 'BEGIN {
		printf "%-13s %12.1f %-9s %4.0f%%  %12.1f %-9s %4.0f%%  %6.2f  %8.2f  %s",
			l, om, ou, oc, sm, su, sc, (sm > 0 ? om / sm : 0), (se > 0 ? oe / se : 0), t }')")
}

skip() {
	SUMMARY+=("$(printf '%-13s skipped: %s' "$1" "$2")")
	echo "    skipped: $2"
}

# ---- the pairs --------------------------------------------------------------

# process_load: a ring of 2 processes passing 1 chunk of 4 bytes is the shape
# of perf's pipe benchmark, where one loop is a round trip, 2 hops.
ours_process() { ours process_load --procs 2 --chunks 1 --chunk-size 4; }
stock_process() {
	stock_once perf bench sched pipe -l "$perf_loops" || return 1
	STOCK_WALL=$(awk '/Total time:/ { print $3 }' "$S/.sout")
	STOCK_RATE=$(awk -v l="$perf_loops" -v t="$STOCK_WALL" 'BEGIN { printf "%.1f", 2 * l / t }')
}
do_process() {
	echo "== process_load vs perf bench sched pipe"
	if ! command -v perf >/dev/null; then
		skip process_load "perf is not installed"
		return
	fi
	if ! perf bench sched pipe -l 20000 >"$S/.sout" 2>&1; then
		sed 's/^/      /' "$S/.sout"
		skip process_load "perf bench sched pipe does not run here (not permitted?)"
		return
	fi
	perf_loops=$(awk -v s="$secs" '/ops\/sec/ { printf "%d", $1 * s }' "$S/.sout")
	pair process_load "perf bench sched pipe" hops/s \
		"contest load process_load -t $secs --procs 2 --chunks 1 --chunk-size 4" \
		"perf bench sched pipe -l $perf_loops   (2 processes; hops = 2 x loops / Total time)"
}

# The workload tree contest generates for ctar_load and xtar_load: contest
# removes it on exit, so a copy is taken while a ctar_load runs on it.
tree_ready=
get_tree() {
	[ -n "$tree_ready" ] && return 0
	local i
	if ! tar --version 2>/dev/null | grep -q 'GNU tar'; then
		echo "    GNU tar is not installed"
		return 1
	fi
	: >"$S/.tw"
	"$CONTEST" load ctar_load -t 60 --work-dir "$S/tw" >/dev/null 2>"$S/.tw" &
	bg_pid=$!
	for ((i = 0; i < 600; i++)); do
		grep -q 'starting' "$S/.tw" && break
		kill -0 "$bg_pid" 2>/dev/null || break
		sleep 0.1
	done
	if grep -q 'starting' "$S/.tw" && cp -a "$S"/tw/run-*/tree "$S/tree" &&
	   kill -0 "$bg_pid" 2>/dev/null; then
		tree_ready=1
	fi
	kill -TERM "$bg_pid" 2>/dev/null
	wait "$bg_pid" 2>/dev/null
	bg_pid=
	rm -rf "$S/tw"
	if [ -z "$tree_ready" ]; then
		sed 's/^/      /' "$S/.tw"
		rm -rf "$S/tree"
		return 1
	fi
	tar cf "$S/gnu.tar" -C "$S/tree" . || return 1
	gnu_tar_bytes=$(stat -c %s "$S/gnu.tar")
	echo "    the tree: copied (cp -a) from a running 'contest load ctar_load --work-dir W' (W/run-*/tree):"
	echo "      $(find "$S/tree" | wc -l) entries, $(du -sb "$S/tree" | cut -f1) bytes; GNU tar's archive of it: $gnu_tar_bytes bytes"
}

ours_ctar() { ours ctar_load; }
# as the original loop: the archive overwritten each pass, never synced
gnu_ctar() { tar cf "$S/c.tar" -C "$S/tree" .; }
stock_ctar() {
	local rc
	stock_loop "$(awk -v b="$gnu_tar_bytes" 'BEGIN { print b / 1e6 }')" gnu_ctar
	rc=$?
	rm -f "$S/c.tar"
	return $rc
}
do_ctar() {
	echo "== ctar_load vs GNU tar c"
	get_tree || { skip ctar_load "no GNU tar, or could not copy the workload tree"; return; }
	pair ctar_load "GNU tar $(tar --version | awk 'NR == 1 { print $4 }') c" MB/s \
		"contest load ctar_load -t $secs   (MB of its own archive)" \
		"tar cf $S/c.tar -C $S/tree .   in a loop for $secs s ($gnu_tar_bytes bytes an archive, overwritten)"
	ref_ctar
}

# For reference: GNU tar's own speed with its start-up cost spread over 20
# copies of the tree in one archive, once.
ref_ctar() {
	local i t0 bytes
	mkdir "$S/big" || return
	for ((i = 1; i <= 20; i++)); do
		cp -a "$S/tree" "$S/big/t$i" || { rm -rf "$S/big"; return; }
	done
	now_us; t0=$US
	tar cf "$S/big.tar" -C "$S/big" . && bytes=$(stat -c %s "$S/big.tar") && rm -f "$S/big.tar"
	now_us
	rm -rf "$S/big" "$S/big.tar"
	[ -n "${bytes:-}" ] || return
	echo "    for reference: tar cf of 20 copies of the tree in one archive ($bytes bytes), once:" \
		"$(awk -v b="$bytes" -v t0="$t0" -v t1="$US" 'BEGIN { printf "%.1f", b / 1e6 / ((t1 - t0) / 1e6) }') MB/s"
}

ours_xtar() { ours xtar_load; }
gnu_xtar() { rm -rf "$S/x" && mkdir "$S/x" && tar xf "$S/gnu.tar" -C "$S/x"; }
stock_xtar() {
	stock_loop "$(awk -v b="$gnu_tar_bytes" 'BEGIN { print b / 1e6 }')" gnu_xtar || return 1
	rm -rf "$S/x"
}
do_xtar() {
	echo "== xtar_load vs GNU tar x"
	get_tree || { skip xtar_load "no GNU tar, or could not copy the workload tree"; return; }
	pair xtar_load "GNU tar $(tar --version | awk 'NR == 1 { print $4 }') x" MB/s \
		"contest load xtar_load -t $secs   (MB of its own archive)" \
		"rm -rf $S/x && mkdir $S/x && tar xf $S/gnu.tar -C $S/x   in a loop for $secs s"
}

ours_io() { ours io_load --io-size "$io_size"; }
# as the original loop: the file overwritten each pass, never synced
gnu_io() { dd if=/dev/zero of="$S/dd.dat" bs=1M count="$io_mib" status=none; }
stock_io() {
	local rc
	stock_loop "$(awk -v b="$io_bytes" 'BEGIN { print b / 1e6 }')" gnu_io
	rc=$?
	rm -f "$S/dd.dat"
	return $rc
}
do_io() {
	echo "== io_load vs dd"
	pair io_load "dd" MB/s "contest load io_load -t $secs --io-size $io_size" \
		"dd if=/dev/zero of=$S/dd.dat bs=1M count=$io_mib   in a loop for $secs s (overwritten)"
}

ours_read() { ours read_load --io-size "$io_size"; }
gnu_read() {
	# Drop this file's pages from the cache (posix_fadvise DONTNEED, as
	# read_load does), then read it.
	dd if=/dev/null of="$S/cat.dat" oflag=nocache conv=notrunc count=0 status=none &&
	cat "$S/cat.dat" >/dev/null
}
stock_read() { stock_loop "$(awk -v b="$io_bytes" 'BEGIN { print b / 1e6 }')" gnu_read; }
do_read() {
	echo "== read_load vs cat"
	echo "    writing the file for cat: dd if=/dev/urandom of=$S/cat.dat bs=1M count=$io_mib conv=fdatasync"
	if ! dd if=/dev/urandom of="$S/cat.dat" bs=1M count="$io_mib" conv=fdatasync status=none; then
		rm -f "$S/cat.dat"
		skip read_load "cannot write the file for cat"
		return
	fi
	pair read_load "cat (cache dropped)" MB/s \
		"contest load read_load -t $secs --io-size $io_size   (writes its own file before timing)" \
		"dd if=/dev/null of=$S/cat.dat oflag=nocache conv=notrunc count=0 && cat $S/cat.dat > /dev/null   in a loop for $secs s"
	ref_read
	rm -f "$S/cat.dat"
}

# For reference: the same file read with read_load's 1 MiB reads instead of
# cat's, once per size, the cache dropped before each.
ref_read() {
	local bs t0 line=
	for bs in 128K 1M; do
		dd if=/dev/null of="$S/cat.dat" oflag=nocache conv=notrunc count=0 status=none || return
		now_us; t0=$US
		dd if="$S/cat.dat" of=/dev/null bs=$bs status=none || return
		now_us
		line="$line, bs=$bs $(awk -v b="$io_bytes" -v t0="$t0" -v t1="$US" \
			'BEGIN { printf "%.1f", b / 1e6 / ((t1 - t0) / 1e6) }') MB/s"
	done
	echo "    for reference: dd if=FILE of=/dev/null, cache dropped, once each${line#,}"
}

ours_list() { ours list_load --root "$list_dir"; }
gnu_list() {
	ls -lRa "$list_dir" >/dev/null 2>"$S/.lserr"
	[ $? -le 1 ]	# 1: some entry could not be read; 2: trouble
}
stock_list() { stock_loop "$list_entries" gnu_list; }
do_list() {
	echo "== list_load vs ls -lRa"
	list_entries=$(find "$list_dir" 2>/dev/null | wc -l)
	pair list_load "ls -lRa" entries/s "contest load list_load -t $secs --root $list_dir" \
		"ls -lRa $list_dir > /dev/null   in a loop for $secs s; entries: find $list_dir | wc -l = $list_entries"
}

# stress-ng's write64 counts one bogo op for every 32 x 8 bytes written and
# reports bogo ops >> 12: bytes = bogo ops x 4096 x 256.
ours_mem() { ours mem_load --mem-size "$mem_size"; }
stock_mem() {
	stock_once stress-ng --vm 1 --vm-bytes "$mem_bytes" --vm-keep --vm-method "$method" \
		--vm-madvise nohugepage -t "$secs" --metrics || return 1
	STOCK_RATE=$(awk '/metrc:/ { for (i = 1; i < NF; i++) if ($i == "vm") {
		printf "%.1f", $(i + 1) * 4096 * 256 / 1e6 / $(i + 2); exit } }' "$S/.sout")
	[ -n "$STOCK_RATE" ] || { sed 's/^/      /' "$S/.sout" >&2; return 1; }
}
do_mem() {
	echo "== mem_load vs stress-ng --vm"
	if ! command -v stress-ng >/dev/null; then
		skip mem_load "stress-ng is not installed (apt-get install stress-ng)"
		return
	fi
	pair mem_load "stress-ng --vm $method" MB/s \
		"contest load mem_load -t $secs --mem-size $mem_size   (MB/s = passes x region)" \
		"stress-ng --vm 1 --vm-bytes $mem_bytes --vm-keep --vm-method $method --vm-madvise nohugepage -t $secs --metrics" \
		"(MB/s = bogo ops x 4096 x 256 bytes / real time: the bytes write64 stored)"
}

# ---- the run ----------------------------------------------------------------

t_true0=${EPOCHREALTIME/./}
for ((i = 0; i < 100; i++)); do /bin/true; done
t_true1=${EPOCHREALTIME/./}

echo "contest loads against their stock tools"
echo "date:      $(date '+%Y-%m-%d %H:%M:%S %z')"
echo "kernel:    $(uname -r)"
echo "CPU:       $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo) x $(nproc)"
echo "memory:    $(awk '/^MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
echo "contest:   $CONTEST ($("$CONTEST" --version 2>&1 | head -1))"
echo "scratch:   $S ($(stat -f -c %T "$S"), $(df -h --output=avail "$S" | tail -1 | tr -d ' ') free)"
echo "settings:  $rounds rounds of $secs s a side, io $io_size, mem $mem_size, list $list_dir"
echo "fork+exec: $(awk -v a="$t_true0" -v b="$t_true1" 'BEGIN { printf "%.2f", (b - a) / 100 / 1000 }') ms (/bin/true from this shell)"
echo "load avg:  $(cut -d' ' -f1-3 /proc/loadavg) at start"
echo

for l in $want; do
	case $l in
	process_load) do_process ;;
	ctar_load) do_ctar ;;
	xtar_load) do_xtar ;;
	io_load) do_io ;;
	read_load) do_read ;;
	list_load) do_list ;;
	mem_load) do_mem ;;
	esac
done

echo
echo "load avg:  $(cut -d' ' -f1-3 /proc/loadavg) at end"
echo
echo "medians of $rounds rounds; ratio = ours / stock; per CPU-s: the same for rate / CPU%"
printf '%-13s %12s %-9s %5s  %12s %-9s %5s  %6s  %8s  %s\n' \
	load ours unit CPU stock unit CPU ratio "per CPU-s" "stock tool"
for line in "${SUMMARY[@]}"; do
	echo "$line"
done
