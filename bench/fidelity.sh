#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# fidelity.sh - the compile's Ratio under each of contest's loads and under
# the stock tool doing the same job, measured side by side in one sitting.
#
# For every load, the Ratio of a kernel compile (Time under the load / Time
# alone) is measured twice: with contest's native load (`contest load NAME`)
# in the background, and with the command loop the load reproduces, as the
# original contest ran it (tar cf FILE overwritten each pass; rm -rf DIR;
# mkdir DIR; tar xf into it; dd if=/dev/zero of=FILE bs=1M without
# conv=fdatasync, the file overwritten; cat; ls -lRa /; a ring of dd
# processes over pipes with process_load's processes and chunks; stress-ng
# --vm).  Both sides are timed by the same function of this script, step for
# step:
#
#   make clean (untimed)
#   start the load in the background; wait until it is ready
#   flush: sync; echo 3 > /proc/sys/vm/drop_caches
#   wait the lead time (3 s, as contest)
#   time `make -C TREE O=BUILD -jJOBS vmlinux`
#   stop the load and reap it
#
# (--flush-first flushes before the load starts instead, in the order of
# contest's own suite, DESIGN step 4: the load's own start, mem_load's fill
# say, then meets empty caches and the timed build meets what it left)
#
# noload runs do the same with nothing in the background and no lead time,
# as contest does.  Rounds are interleaved: in each round every load runs its
# native and its stock side back to back, in alternating order (ABBA across
# rounds and across loads), and noload runs once (first in odd rounds, last in
# even ones).  It prints every run, then per load the native Ratio, the stock
# Ratio, native / stock with its 95% confidence interval, n, and what each
# side did during the timed builds.  Both Ratios share the noload divisor,
# so native / stock is mean native Time / mean stock Time; its interval is
# the delta method's (the ratio of two independent means: relative variance
# sn^2/(nn mn^2) + ss^2/(ns ms^2)), with Student's t at Welch-Satterthwaite's
# degrees of freedom; a side measured once has no interval.
#
# The load average is printed in the header; above 1.0 the script refuses to
# start (the figures would measure the other work), unless --busy is given,
# and then every figure is marked "busy".
#
# mem_load's row needs swap: for that row only, the script makes a zram swap
# device of its own (/sys/class/zram-control/hot_add, never /dev/zram0) and
# removes it after the row and on every exit.  A watchdog stops the mem load
# (either side) before the swap device can fill up.  See bench/methods.md.
#
# Usage: bench/fidelity.sh [options] TREE      (as root; TREE: a Linux tree)

set -u
. "$(dirname "$0")/lib.sh" || exit 2
export LC_ALL=C

ALL_LOADS="process_load ctar_load xtar_load io_load read_load list_load mem_load"
rounds=5
busy=0
loads=$ALL_LOADS
cpus=$(getconf _NPROCESSORS_ONLN)
jobs=$((4 * cpus))
lead=3
base=.
flush_first=0
dirty=0
sides="native stock"
io_size=
mem_size=
zram_limit_opt=
kconfig=tinyconfig
target=vmlinux
contest_src=${CONTEST:-./contest}
table_log=
busy_mark=
mem_refused=
cmdline="$0 $*"

usage() {
	cat <<EOF
Usage: $0 [options] TREE
       $0 --table LOG
  -n, --n N           rounds (default $rounds)
      --loads LIST    loads to compare, comma-separated (default all:
                      ${ALL_LOADS// /,}; the _load may be left off)
  -j, --jobs N        make -jN (default 4 x CPUs: $jobs)
      --lead-time S   seconds between the load ready and the timed build (default $lead)
      --flush-first   drop the caches before the load starts, as contest's suite
                      does, not after it is ready (the default)
      --sides LIST    native, stock or native,stock (default): the sides measured
      --dirty         during each timed build, sample /proc/vmstat's dirty pages
                      (every 0.5 s), count memory reclaim (/proc/vmstat) and
                      record dirty throttling (perf, the tracepoint
                      writeback:balance_dirty_pages); each run line says how
                      much was dirty, what reclaim did, who was throttled how long
      --kconfig T     the *config target, run once (default $kconfig)
      --target T      the make target timed (default $target)
      --io-size SIZE  io_load, read_load, dd and cat's file (default RAM, bounded by
                      a third of the free space); SIZE in bytes or with K, M, G
      --mem-size SIZE mem_load and stress-ng's region (default 110% of RAM)
      --zram-limit SIZE  RAM the zram swap of the mem row may use (default half its size)
      --dir DIR       where the scratch directory goes (default: the current
                      directory; put it on the disk to measure)
      --busy          run even with a load average above 1.0 (figures marked busy)
      --table LOG     measure nothing: print the table again from LOG, an earlier
                      output of this script (its run lines; Loads to 1 MB)
  -h, --help          this help
Run as root. The contest binary: \$CONTEST, else ./contest (a copy is run).
EOF
}

# SIZE with an optional K, M, G or T suffix (powers of 1024) -> bytes
to_bytes() {
	local v=$1 m=1
	case $v in
	*[kK]) m=1024; v=${v%?} ;;
	*[mM]) m=$((1024 ** 2)); v=${v%?} ;;
	*[gG]) m=$((1024 ** 3)); v=${v%?} ;;
	*[tT]) m=$((1024 ** 4)); v=${v%?} ;;
	esac
	[[ $v =~ ^[0-9]+$ ]] || return 1
	echo $((v * m))
}

mib() { awk -v b="$1" 'BEGIN { printf "%.0f", b / 1048576 }'; }
gib() { awk -v b="$1" 'BEGIN { printf "%.1f GiB", b / 1073741824 }'; }

stock_describe() {
	case $1 in
	process_load) echo "ring of $ring_procs dd bs=$ring_chunk iflag=fullblock over pipes, $ring_chunks chunks in flight" ;;
	ctar_load) echo "tar cf FILE -C TREE . (FILE overwritten)" ;;
	xtar_load) echo "rm -rf X; mkdir X; tar xf GNU.tar -C X" ;;
	io_load) echo "dd if=/dev/zero of=FILE bs=1M count=$(mib "$io_size") (FILE overwritten)" ;;
	read_load) echo "cat FILE >/dev/null ($(gib "$io_size"), through the cache)" ;;
	list_load) echo "ls -lRa / >/dev/null" ;;
	mem_load) echo "stress-ng --vm 1 --vm-bytes $(mib "$mem_size")M --vm-keep --vm-method swap on zram swap" ;;
	esac
}

# load_units(LOAD, R, W): the units of work in R bytes read and W written by
# the load's processes during a build, the same way for both sides: hops /
# 10,000 (W / chunk), archives (W / GNU archive size), extractions (R / GNU
# archive size), files and reads (bytes / IO); -1 where bytes say nothing
UNITS_AWK='
function load_units(l, r, w) {
	if (l == "process_load") return w / chunk / 10000
	if (l == "ctar_load") return arch ? w / arch : 0
	if (l == "xtar_load") return arch ? r / arch : 0
	if (l == "io_load") return w / io
	if (l == "read_load") return r / io
	return -1
}'

# the table of $results (ROUND LOAD SIDE SECONDS UNITS|DETAIL, a tab between)
print_table() {
	local l noload_mean noload_n
	echo "Ratio = mean Time under the load / mean noload Time (this sitting); Loads = mean units done per timed build"
	echo "nat/stk = mean native Time / mean stock Time, 95% CI by the delta method (Welch df)$busy_mark"
	printf '%-13s %7s %7s %8s %-17s %3s %3s %10s %10s  %s\n' load native stock nat/stk "95% CI" n n Loads Loads "stock command"
	printf '%-13s %7s %7s %8s %-17s %3s %3s %10s %10s\n' "" Ratio Ratio "" "" nat stk native stock
	noload_mean=$(awk -F'\t' '$3 == "noload" { s += $4; n++ } END { if (n) printf "%.3f", s / n }' "$results")
	noload_n=$(awk -F'\t' '$3 == "noload"' "$results" | wc -l)
	printf '%-13s %7s %-35s %3s   noload Time %s s\n' noload 1.00 "" "$noload_n" "${noload_mean:--}"
	for l in "${sel[@]}"; do
		awk -F'\t' -v l="$l" -v base="$noload_mean" -v tool="$(stock_describe "$l")" -v mark="$busy_mark" "$BENCH_AWK"'
			$2 == l { t[$3] += $4; t2[$3] += $4 * $4; n[$3]++; split($5, u, "|"); w[$3] += u[1] }
			function side_ratio(s) { return n[s] && base > 0 ? sprintf("%.2f", t[s] / n[s] / base) : "-" }
			function loads(s) { return n[s] && w[s] >= 0 ? sprintf("%.2f", w[s] / n[s]) : "-" }
			END {
				a = side_ratio("native"); b = side_ratio("stock"); q = "-"; ci = "-"
				if (n["native"] && n["stock"])
					q = sprintf("%.3f", t["native"] / n["native"] / (t["stock"] / n["stock"]))
				if (ratio_ci("native", "stock", n, t, t2, c))
					ci = sprintf("%.3f-%.3f", c["lo"], c["hi"])
				printf "%-13s %7s %7s %8s %-17s %3d %3d %10s %10s  %s%s\n", l, a, b, q, ci, n["native"], n["stock"],
					loads("native"), loads("stock"), tool, mark
			}' "$results"
	done
	[ -n "$mem_refused" ] && echo "mem_load refused in some round: $mem_refused"
	echo "Loads units: process 10,000 chunk hops (bytes written / chunk size); ctar archives (bytes written /"
	echo "GNU archive size); xtar extractions (bytes read / GNU archive size); io files, read reads (bytes /"
	echo "file size); list, mem: see the per-run lines (listing bytes written; MB swapped)."
}

# size_in_log io|mem SIZES: the size in bytes from the log's sizes line:
# "io 23.5 GiB (25275924480 bytes)", or from the GiB alone (to 0.05 GiB) in
# the logs of before the bytes were printed
size_in_log() {
	awk -v k="$1" -v s="$2" 'BEGIN {
		if (match(s, k " [0-9.]+ GiB \\([0-9]+ bytes")) {
			v = substr(s, RSTART, RLENGTH); sub(/.*\(/, "", v); printf "%s", v + 0
		} else if (match(s, k " [0-9.]+ GiB"))
			printf "%.0f", substr(s, RSTART + length(k) + 1, RLENGTH - length(k) - 5) * 1073741824
	}'
}

# --table LOG: $results, sel, the sizes and busy_mark from LOG, an earlier
# output of this script: its run lines ("round R: LOAD SIDE SECS s  DETAIL"),
# an INVALID one left out; Loads from DETAIL's MB (to 1 MB)
results_from_log() {
	local log=$1 sizes
	[ -r "$log" ] || die "--table: cannot read $log"
	read -r -a sel <<<"$(sed -n 's/^rounds: *[0-9]*; loads: \(.*\); lead time.*/\1/p' "$log" | head -1)"
	[ "${#sel[@]}" -gt 0 ] || die "--table: $log has no 'rounds: N; loads: ...' line: not an output of this script"
	sizes=$(sed -n 's/^sizes: *//p' "$log" | head -1)
	io_size=$(size_in_log io "$sizes")
	mem_size=$(size_in_log mem "$sizes")
	read -r ring_procs ring_chunks ring_chunk <<<"$(awk -v s="$sizes" 'BEGIN { n = split(s, w, /[ ,]+/)
		for (i = 1; i < n; i++) { if (w[i + 1] == "processes") p = w[i]; if (w[i + 1] == "chunks") c = w[i]; if (w[i] == "of") b = w[i + 1] }
		print p + 0, c + 0, b + 0 }')"
	grep -q -- '--busy: every figure below is busy' "$log" && busy_mark=" (busy)"
	results=$(mktemp) || die "cannot make a temporary file"
	trap 'rm -f "$results"' EXIT
	awk -v chunk="$ring_chunk" -v io="${io_size:-0}" \
		-v arch="$(sed -n 's/.*GNU tar archive \([0-9]*\) bytes.*/\1/p' "$log" | head -1)" "$UNITS_AWK"'
	$1 == "round" && $2 ~ /^[0-9]+:$/ && $4 ~ /^(native|stock|noload)$/ && $6 == "s" && $7 != "INVALID," {
		d = $0; sub(/^.* s  /, "", d); sub(/ +$/, "", d)
		r = w = 0
		if (match(d, /read [0-9]+ MB/)) r = substr(d, RSTART + 5, RLENGTH - 8) * 1e6
		if (match(d, /wrote [0-9]+ MB/)) w = substr(d, RSTART + 6, RLENGTH - 9) * 1e6
		u = $4 == "noload" ? 0 : load_units($3, r, w)
		printf "%d\t%s\t%s\t%s\t%.2f|%s\n", $2, $3, $4, $5, u, d
	}' "$log" >"$results"
	[ -s "$results" ] || die "--table: $log has no run lines"
}

bench_options '--n=rounds --loads=loads -j|--jobs=jobs --lead-time=lead
	--kconfig=kconfig --target=target --io-size=io_size --mem-size=mem_size
	--zram-limit=zram_limit_opt --busy=busy=1 --flush-first=flush_first=1
	--dirty=dirty=1 --sides=sides --table=table_log' "$@"
shift "$bench_shift"
for opt in io-size=io_size mem-size=mem_size zram-limit=zram_limit_opt; do	# in bytes
	var=${opt#*=}
	[ -n "${!var}" ] || continue
	bytes=$(to_bytes "${!var}") || die "--${opt%=*}: not a size: ${!var}"
	printf -v "$var" '%s' "$bytes"
done
sides=$(echo "$sides" | tr ',' ' ')
if [ -n "$table_log" ]; then	# tabulate an earlier output again, and no more
	[ $# -eq 0 ] || { usage >&2; exit 2; }
	results_from_log "$table_log"
	echo "fidelity.sh --table $table_log: the run lines of that sitting, tabulated"
	echo
	print_table
	exit 0
fi
[ $# -eq 1 ] || { usage >&2; exit 2; }
tree=$(cd "$1" 2>/dev/null && pwd) || die "no such directory: $1"
[ -f "$tree/Makefile" ] && [ -d "$tree/kernel" ] || die "$tree: not a Linux source tree"
[[ $rounds =~ ^[1-9][0-9]*$ ]] || die "-n wants a positive number, not '$rounds'"
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "-j wants a positive number, not '$jobs'"
[[ $lead =~ ^[0-9]+(\.[0-9]+)?$ ]] || die "--lead-time wants seconds, not '$lead'"
for s in $sides; do
	case $s in native|stock) ;; *) die "--sides: '$s' is neither native nor stock" ;; esac
done
[ -n "${sides// /}" ] || die "--sides: no side"
side_on() { case " $sides " in *" $1 "*) return 0 ;; esac; return 1; }

# the loads asked for, by their full names, in the default order
want=" $(echo "$loads" | tr ', ' '\n\n' | sed -e '/^$/d' -e 's/_load$//' -e 's/$/_load/' | tr '\n' ' ') "
for l in $want; do
	case " $ALL_LOADS " in *" $l "*) ;; *) die "unknown load '${l%_load}' (known: ${ALL_LOADS// /,})" ;; esac
done
sel=()
for l in $ALL_LOADS; do
	case $want in *" $l "*) sel+=("$l") ;; esac
done
has() { case " ${sel[*]} " in *" $1 "*) return 0 ;; esac; return 1; }

# ---- prerequisites ----------------------------------------------------------

load1=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$load1" 'BEGIN { exit !(l > 1.0) }'; then
	[ "$busy" = 1 ] || die "load average $load1 is above 1.0: the machine is busy, and the figures would measure that (--busy runs anyway and marks them busy)"
fi
[ "$busy" = 1 ] && busy_mark=" (busy)"

[ "$(id -u)" -eq 0 ] || die "run me as root: every timed run drops the page cache, and the mem row makes a zram swap device"
[ "${BASH_VERSINFO[0]}" -ge 5 ] || die "needs bash 5 (\$EPOCHREALTIME)"
[ -x "$contest_src" ] || die "no contest binary at $contest_src (set CONTEST=)"
[ -w /proc/sys/vm/drop_caches ] || die "/proc/sys/vm/drop_caches is not writable here"

need_tool() {	# need_tool COMMAND PACKAGE: install PACKAGE with apt-get when COMMAND is missing
	command -v "$1" >/dev/null 2>&1 && return 0
	echo "fidelity.sh: $1 is missing: apt-get install -y $2" >&2
	apt-get install -y -q "$2" >/dev/null || die "cannot install $2 for $1"
	command -v "$1" >/dev/null 2>&1 || die "$1 still missing after installing $2"
}
need_tool make make
need_tool gcc gcc
need_tool tar tar
need_tool dd coreutils
need_tool ps procps
need_tool awk gawk
need_tool flex flex
need_tool bison bison
need_tool bc bc
if [ "$dirty" = 1 ]; then
	need_tool perf linux-perf
	perf list 'writeback:balance_dirty_pages' 2>/dev/null | grep -q balance_dirty_pages ||
		die "--dirty: perf does not know the tracepoint writeback:balance_dirty_pages here"
fi
tar --version 2>/dev/null | head -1 | grep -q 'GNU tar' || die "tar is not GNU tar"
if has mem_load; then
	need_tool stress-ng stress-ng
	need_tool mkswap util-linux
	need_tool swapon util-linux
	[ -w /sys/class/zram-control/hot_add ] || modprobe zram num_devices=0 2>/dev/null
fi

# ---- scratch, cleanup -------------------------------------------------------

scratch=$(mktemp -d "$(cd "$base" && pwd)/fidelity.XXXXXX") || die "cannot make a scratch directory in $base"
build=$scratch/build		# O= of the kernel build
work=$scratch/work		# contest's --work-dir (it makes and removes it)
stock=$scratch/stock		# the stock tools' files
mkdir -p "$build" "$stock"

load_pid=		# the running load (contest, or the stock loop)
load_side=
make_pid=
watch_pid=
dirty_pids=
zram_n=

# PIDs of $1 and of all its descendants
descendants() {
	ps -e -o pid= -o ppid= | awk -v root="$1" '
		{ parent[$1] = $2 }
		END {
			in_tree[root] = 1
			do {
				grew = 0
				for (p in parent)
					if (!(p in in_tree) && (parent[p] in in_tree)) {
						in_tree[p] = 1
						grew = 1
					}
			} while (grew)
			for (p in in_tree)
				print p
		}'
}

alive() {	# a process that exists and is not a zombie
	local s
	s=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) || return 1
	[ -n "$s" ] && [ "$s" != Z ]
}

# Stop the tree of $1 (our child): freeze the root so it starts nothing new,
# SIGTERM (or $2) the whole tree, reap the root, wait for the rest, SIGKILL
# what is still there after 20 s.
stop_tree() {
	local root=$1 sig=${2:-TERM} pids p i
	kill -STOP "$root" 2>/dev/null
	pids=$(descendants "$root")
	for p in $pids; do
		[ "$p" = "$root" ] || kill -"$sig" "$p" 2>/dev/null
	done
	kill -"$sig" "$root" 2>/dev/null
	# the job's process group (started with set -m), whatever joined it since
	kill -"$sig" -- "-$root" 2>/dev/null
	kill -CONT "$root" 2>/dev/null
	for ((i = 0; i < 200; i++)); do
		local left=
		for p in $pids; do alive "$p" && left+=" $p"; done
		[ -z "$left" ] && break
		sleep 0.1
	done
	for p in $pids; do alive "$p" && kill -KILL "$p" 2>/dev/null; done
	wait "$root" 2>/dev/null
}

# Stop contest load (native): SIGINT, as Ctrl-C would; it stops its load
# processes and removes its run directory (xtar_load's extraction of a
# kernel tree takes a while).  SIGKILL the tree after 300 s.
stop_native() {
	local i
	kill -INT "$1" 2>/dev/null
	for ((i = 0; i < 3000; i++)); do
		alive "$1" || break
		sleep 0.1
	done
	alive "$1" && stop_tree "$1" KILL
	wait "$1" 2>/dev/null
}

stop_load() {
	[ -n "$load_pid" ] || return 0
	if [ "$load_side" = native ]; then
		stop_native "$load_pid"
	else
		stop_tree "$load_pid"
	fi
	load_pid=
}

stop_watchdog() {
	[ -n "$watch_pid" ] || return 0
	kill "$watch_pid" 2>/dev/null
	wait "$watch_pid" 2>/dev/null
	watch_pid=
}

# ---- --dirty: how much was dirty, what reclaim did, who was throttled ----------

# Every 0.5 s until killed: nr_dirty + nr_writeback (what balance_dirty_pages
# counts as dirty) and its throttle point, (dirty threshold + background
# threshold) / 2 (mm/page-writeback.c's "freerun"), in pages; read by the
# shell itself, so that sampling forks no more than a sleep
dirty_sampler() {
	local k v d w t b
	while :; do
		d=0 w=0 t=0 b=0
		while read -r k v; do
			case $k in
			nr_dirty) d=$v ;;
			nr_writeback) w=$v ;;
			nr_dirty_threshold) t=$v ;;
			nr_dirty_background_threshold) b=$v ;;
			esac
		done </proc/vmstat
		echo "$((d + w)) $(((t + b) / 2))"
		sleep 0.5
	done
}

# what memory reclaim did so far (pages, /proc/vmstat): direct reclaim
# stalls, pages scanned by direct reclaim and by kswapd, file refaults (a
# page evicted and read again: the build's cache pushed out by the load)
vmstat_reclaim() {
	awk '$1 ~ /^allocstall_/ { a += $2 } $1 == "pgscan_direct" { d = $2 } $1 == "pgscan_kswapd" { k = $2 }
		$1 == "workingset_refault_file" { r = $2 } END { print a + 0, d + 0, k + 0, r + 0 }' /proc/vmstat
}

dirty_start() {
	[ "$dirty" = 1 ] || return 0
	rm -f "$scratch/bdp.data" "$scratch/bdp.data.old"
	vmstat_reclaim >"$scratch/reclaim.0"
	dirty_sampler >"$scratch/dirty.samples" &
	dirty_pids=$!
	# -B -N: no build-id pass at its end (tracepoint records have no code addresses)
	perf record -q -a -B -N -e writeback:balance_dirty_pages -o "$scratch/bdp.data" \
		>"$scratch/perf.log" 2>&1 </dev/null &
	dirty_pids+=" $!"
}

dirty_stop() {	# SIGTERM: perf record writes its file and ends
	[ -n "$dirty_pids" ] || return 0
	local p
	vmstat_reclaim >"$scratch/reclaim.1"
	for p in $dirty_pids; do kill -TERM "$p" 2>/dev/null; done
	for p in $dirty_pids; do wait "$p" 2>/dev/null; done
	dirty_pids=
}

# The run line's dirty part: the dirty pages over the build (mean, max, the
# throttle point, the share of samples above it), what reclaim did over it
# (vmstat_reclaim's deltas, in MB but the stalls) and, per command, the
# throttle pauses balance_dirty_pages asked of it (the tracepoint's pause=,
# ms; it also fires for pauses too short to sleep) and how many
dirty_summary() {
	[ "$dirty" = 1 ] || return 0
	local thr
	awk -v ps="$(getconf PAGESIZE)" '
		{ n++; s += $1; if ($1 > m) m = $1; if ($1 > $2) o++; t = $2 }
		END {
			if (n) printf "; dirty %.0f MB mean, %.0f MB max, above the throttle point (%.0f MB) %.0f%% of the time",
				s / n * ps / 1e6, m * ps / 1e6, t * ps / 1e6, o / n * 100
		}' "$scratch/dirty.samples"
	awk -v ps="$(getconf PAGESIZE)" 'NR == FNR { split($0, a); next } { split($0, b) }
		END {
			printf "; reclaim: %.0f direct stalls, scanned %.0f MB direct and %.0f MB by kswapd, file refaults %.0f MB",
				b[1] - a[1], (b[2] - a[2]) * ps / 1e6, (b[3] - a[3]) * ps / 1e6, (b[4] - a[4]) * ps / 1e6
		}' "$scratch/reclaim.0" "$scratch/reclaim.1"
	if ! perf script -i "$scratch/bdp.data" -F comm,trace >"$scratch/bdp.txt" 2>/dev/null; then
		printf '; throttled: unknown (perf: %s)' "$(head -1 "$scratch/perf.log" 2>/dev/null)"
		return 0
	fi
	thr=$(awk '
		match($0, / pause=-?[0-9]+/) {
			v = substr($0, RSTART + 7, RLENGTH - 7); n[$1]++
			if (v > 0) ms[$1] += v
		}
		END { for (c in n) printf "%.0f %s %.1f s in %d\n", ms[c], c, ms[c] / 1000, n[c] }' "$scratch/bdp.txt" |
		sort -rn | cut -d' ' -f2- | paste -sd, - | sed 's/,/, /g')
	printf '; throttled: %s' "${thr:-none}"
}

zram_remove() {
	[ -n "$zram_n" ] || return 0
	local dev=/dev/zram$zram_n i
	if grep -q "^$dev " /proc/swaps; then
		swapoff "$dev" || echo "fidelity.sh: swapoff $dev failed" >&2
	fi
	for ((i = 0; i < 50; i++)); do
		echo 1 >"/sys/block/zram$zram_n/reset" 2>/dev/null && break
		sleep 0.1
	done
	echo "$zram_n" >/sys/class/zram-control/hot_remove 2>/dev/null ||
		echo "fidelity.sh: could not remove zram$zram_n" >&2
	zram_n=
}

cleanup() {
	trap - EXIT INT TERM
	stop_watchdog
	dirty_stop
	stop_load
	[ -n "$make_pid" ] && stop_tree "$make_pid"
	make_pid=
	zram_remove
	rm -rf "$scratch"
}
trap cleanup EXIT
trap 'echo "fidelity.sh: interrupted" >&2; cleanup; exit 130' INT
trap 'echo "fidelity.sh: terminated" >&2; cleanup; exit 143' TERM

# ---- machine facts and sizes ------------------------------------------------

meminfo() { awk -v k="$1:" '$1 == k { printf "%.0f\n", $2 * 1024 }' /proc/meminfo; }

contest=$scratch/contest
cp "$contest_src" "$contest" || die "cannot copy $contest_src"
mem_total=$(meminfo MemTotal)
reserve=$((mem_total / 10 > 1073741824 ? mem_total / 10 : 1073741824))	# mem_load's reserve
free_bytes=$(($(stat -f -c '%a * %S' "$scratch")))

if [ -z "$io_size" ]; then
	io_size=$mem_total
	third=$((free_bytes / 3 - 1073741824))
	[ "$io_size" -gt "$third" ] && io_size=$third
fi
io_size=$((io_size / 1048576 * 1048576))
if has io_load || has read_load; then
	[ "$io_size" -ge $((64 * 1048576)) ] || die "too little free space for io_load/read_load's files in $scratch"
	# room for two such files and 1 GiB spare (the sides write theirs in turn, each
	# removing its own at its end: a margin, should a stop leave one behind)
	[ $((2 * io_size + 1073741824)) -le "$free_bytes" ] ||
		die "--io-size $(gib "$io_size"): two such files do not fit in $(gib "$free_bytes") free on $scratch"
fi
[ -n "$mem_size" ] || mem_size=$((mem_total / 10 * 11))
mem_size=$((mem_size / 1048576 * 1048576))
zram_size=

# process_load's ring as contest builds it here, for the stock ring
ring=$("$contest" list --work-dir "$work" | awk '
	/^process_load/ { p = 1; next }
	p && /here:/ {
		sub(/.*here: */, "")
		# "8 processes, 2 chunks of 8.0 KiB"
		n = $1; c = $3; v = $6; u = $7
		m = u == "B" ? 1 : u == "KiB" ? 1024 : u == "MiB" ? 1048576 : 0
		printf "%d %d %d\n", n, c, v * m
		exit
	}')
read -r ring_procs ring_chunks ring_chunk <<<"$ring"
if has process_load; then
	[ -n "${ring_chunk:-}" ] && [ "$ring_chunk" -gt 0 ] ||
		die "cannot read process_load's ring from 'contest list': '$ring'"
	[ "$ring_chunks" -lt "$ring_procs" ] || [ $((ring_chunks * ring_chunk)) -le 65536 ] ||
		die "$ring_chunks chunks of $ring_chunk bytes could deadlock the dd ring"
fi

echo "fidelity.sh: the compile's Ratio under contest's loads and under the stock tools"
echo "command:   $cmdline"
echo "date:      $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
echo "kernel:    $(uname -r)"
echo "CPU:       $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo) x $cpus"
echo "memory:    $(gib "$mem_total") (MemAvailable $(gib "$(meminfo MemAvailable)")), swap $(gib "$(meminfo SwapTotal)") before the mem row"
echo "scratch:   $scratch ($(stat -f -c %T "$scratch"), $(df -P "$scratch" | awk 'NR == 2 { print $1 }'), $(gib "$free_bytes") free)"
echo "contest:   $contest_src ($("$contest" --version | head -1))"
echo "tools:     $(tar --version | head -1); $(dd --version | head -1); $(stress-ng --version 2>/dev/null | awk '{ print $1, $3 }')"
echo "tree:      $tree, make -C TREE O=BUILD -j$jobs $target, configured once with $kconfig"
echo "rounds:    $rounds; loads: ${sel[*]}; lead time $lead s"
echo "order:     $([ "$flush_first" = 1 ] && echo "flush, then the load starts (--flush-first, contest's order)" || echo "the load starts and is ready, then flush"); sides: $sides"
echo "sizes:     io $(gib "$io_size") ($io_size bytes), mem $(gib "$mem_size") ($mem_size bytes; zram swap sized per row), ring $ring_procs processes, $ring_chunks chunks of $ring_chunk bytes"
[ "$dirty" = 1 ] && echo "dirty:     --dirty: /proc/vmstat nr_dirty + nr_writeback every 0.5 s, its reclaim counters, and perf record -a -e writeback:balance_dirty_pages during each timed build"
echo "autogroup: $(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null || echo -) (all loads run in this script's session, as contest's)"
echo "load avg:  $(cut -d' ' -f1-3 /proc/loadavg) at start$([ "$busy" = 1 ] && echo "; --busy: every figure below is busy")"
echo "all files on one file system: the build ($build), contest's --work-dir ($work), the stock tools' files ($stock)"

# ---- the build --------------------------------------------------------------

mk() { make -C "$tree" O="$build" "$@"; }

mk "$kconfig" >"$scratch/config.log" 2>&1 ||
	{ tail -20 "$scratch/config.log" >&2; die "make $kconfig failed (a source tree built in place refuses O=: make mrproper)"; }

clean_build() {
	mk clean >"$scratch/clean.log" 2>&1 || { tail -20 "$scratch/clean.log" >&2; die "make clean failed"; }
}

flush() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
}

# time the build: sets secs; dies when make fails
timed_build() {
	local t0 t1 rc
	t0=$EPOCHREALTIME
	set -m	# the build is a process group of its own (stop_tree); no job notices
	mk -j"$jobs" "$target" >"$scratch/build.log" 2>&1 &
	make_pid=$!
	set +m
	wait "$make_pid"
	rc=$?
	t1=$EPOCHREALTIME
	make_pid=
	if [ "$rc" -ne 0 ]; then
		tail -20 "$scratch/build.log" >&2
		die "the build failed (exit $rc)"
	fi
	secs=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
}

echo "warm-up build (untimed)..."
clean_build
timed_build
echo "warm-up build: $secs s"

# ---- what a load does: counters over its process tree ---------------------

# "rchar wchar read_bytes write_bytes cancelled_write_bytes" summed over the
# tree of $1 (children reaped in the tree are in their parent's counters)
tree_io() {
	local p
	for p in $(descendants "$1"); do
		cat "/proc/$p/io" 2>/dev/null
	done | awk '
		$1 == "rchar:" { r += $2 } $1 == "wchar:" { w += $2 }
		$1 == "read_bytes:" { rb += $2 } $1 == "write_bytes:" { wb += $2 }
		$1 == "cancelled_write_bytes:" { c += $2 }
		END { printf "%.0f %.0f %.0f %.0f %.0f\n", r, w, rb, wb, c }'
}

# resident + swapped bytes of the tree of $1
tree_mem() {
	local p
	for p in $(descendants "$1"); do
		cat "/proc/$p/status" 2>/dev/null
	done | awk '$1 == "VmRSS:" || $1 == "VmSwap:" { kb += $2 } END { printf "%.0f\n", kb * 1024 }'
}

# CPU ticks (user + system) of the tree of $1: its live processes and the
# children they reaped (cutime, cstime), as /proc/PID/io counts them: a stock
# loop's tar, dd or cat lives one pass and is reaped by the loop's shell
tree_cpu() {
	local p
	for p in $(descendants "$1"); do
		cat "/proc/$p/stat" 2>/dev/null
	done | awk '{ sub(/.*\) /, ""); t += $12 + $13 + $14 + $15 } END { printf "%.0f\n", t }'
}

vmstat_swap() { awk '$1 == "pswpin" { i = $2 } $1 == "pswpout" { o = $2 } END { print i + 0, o + 0 }' /proc/vmstat; }

# ---- the stock side -----------------------------------------------------------

tar_tree=$tree			# what ctar/xtar archive: contest load -w kernel:TREE archives TREE
gnu_tar=$stock/gnu.tar
cat_file=$stock/cat.dat

if has ctar_load || has xtar_load; then
	"$contest" load spin_load -t 0.1 -w "kernel:$tree" --work-dir "$work" >/dev/null 2>&1 ||
		die "this contest's load command takes no -w: its ctar_load/xtar_load would archive the builtin tree, not $tree"
	tar --format=gnu -cf "$gnu_tar" -C "$tar_tree" . &
	make_pid=$!	# stopped by cleanup() like a build
	wait "$make_pid" || die "tar cf $gnu_tar failed"
	make_pid=
	echo "the tar tree: $tar_tree (contest load -w kernel:TREE archives it as it is):" \
		"$(find "$tar_tree" | wc -l) entries; GNU tar archive $(stat -c %s "$gnu_tar") bytes"
fi
# cat's file, written (untimed) before each stock read_load run and removed
# after it, as contest load read_load writes its own before each native run
# and removes it at its end: on a VM a file just written can read from the
# host's cache several times faster than one written an hour before
# (2026-12-05: native 737 MB/s from "disk", cat 200 MB/s, with cat's file
# written once at the start), so both sides must read a file of one age
write_cat_file() {
	dd if=/dev/urandom of="$cat_file" bs=1M count=$((io_size / 1048576)) conv=fdatasync status=none &
	make_pid=$!	# stopped by cleanup() like a build
	wait "$make_pid" || die "cannot write $cat_file"
	make_pid=
}
has read_load && echo "cat's file: $(gib "$io_size") from /dev/urandom, written (untimed) before each stock read_load run"

# the stock command of a load, run again and again by stock_loop
stock_once() {
	case $1 in
	ctar_load) tar cf "$stock/c.tar" -C "$tar_tree" . ;;
	xtar_load) rm -rf "$stock/x" && mkdir "$stock/x" && tar xf "$gnu_tar" -C "$stock/x" ;;
	io_load) dd if=/dev/zero of="$stock/dd.dat" bs=1M count=$((io_size / 1048576)) status=none ;;
	read_load) cat "$cat_file" >/dev/null ;;
	list_load) ls -lRa / >/dev/null 2>&1 ;;
	esac
}

# a ring of dd processes, each reading a whole chunk from its pipe and
# writing it to the next: process_load's ring made of a stock tool.  The
# pipes are anonymous, as the original's (pipe(2)) and contest's: a pipeline
# of dd's, closed by one more pipe that fd 3 holds open for reading and
# writing (a process substitution's pipe, reopened through /dev/fd).  A ring
# of FIFOs in the scratch directory would not do: every write to a FIFO on
# ext4 dirties its inode there (perf: 20,000 ext4_mark_inode_dirty in 5 s of
# this ring alone, none with these pipes), work the original never did
dd_ring() {
	local i dd="dd bs=$ring_chunk iflag=fullblock status=none" ring
	exec 3<> <(:)
	# the chunks wait in the pipe until the first dd reads them
	head -c $((ring_chunks * ring_chunk)) /dev/zero >&3
	ring="$dd <&3 3>&-"
	for ((i = 1; i < ring_procs; i++)); do ring+=" | $dd 3>&-"; done
	eval "${ring% 3>&-} >&3 3>&-"
}

start_stock() {
	# a process group of its own, so that stop_tree stops all of it, even
	# what the loop started after the tree was listed (the dd ring's dd's)
	set -m
	case $1 in
	process_load) (trap - EXIT INT TERM; dd_ring) </dev/null & ;;
	mem_load) stress-ng --vm 1 --vm-bytes "$mem_size" --vm-keep --vm-method swap \
			--vm-madvise nohugepage --oomable -t 86400 >"$scratch/stress.out" 2>&1 </dev/null & ;;
	*) (trap - EXIT INT TERM; while :; do stock_once "$1"; done) </dev/null & ;;
	esac
	load_pid=$! load_side=stock
	set +m
}

after_stock() {	# remove what a stopped stock load left behind
	rm -rf "$stock/x" "$stock/c.tar" "$stock/dd.dat" "$cat_file"
}

# ---- the native side ----------------------------------------------------------

start_native() {
	local extra=()
	case $1 in
	ctar_load|xtar_load) extra=(-w "kernel:$tree") ;;
	io_load|read_load) extra=(--io-size "$io_size") ;;
	mem_load) extra=(--mem-size "$mem_size") ;;
	esac
	: >"$scratch/native.err"
	# --no-probe --no-delays: noload and the stock side run without contest's
	# latency probe and delay accounting, so the native side must too
	"$contest" load "$1" -t 86400 --no-probe --no-delays --work-dir "$work" "${extra[@]}" \
		>"$scratch/native.out" 2>"$scratch/native.err" </dev/null &
	load_pid=$! load_side=native
}

# ---- mem_load's swap and its watchdog ------------------------------------------

zram_why=
# Sized so that contest's mem_load accepts --mem-size MEM on it: contest
# counts a zram page as freeing half a page (src/lib/swap.c, SWAP_ZRAM_RATIO 2),
# so the device must free need = MEM - (MemAvailable - reserve) at that rate,
# with room to spare: disksize 3 x need (at least RAM / 2, contest's
# default), mem_limit disksize / 2 (--zram-limit overrides it).
zram_add() {	# a zram swap device of our own, or zram_why says why not
	local n d need
	zram_why=
	need=$((mem_size - ($(meminfo MemAvailable) - reserve) + 1073741824))
	zram_size=$((3 * need > mem_total / 2 ? 3 * need : mem_total / 2))
	zram_size=$((zram_size / 1048576 * 1048576))
	zram_limit=${zram_limit_opt:-$((zram_size / 2))}
	[ -w /sys/class/zram-control/hot_add ] || { zram_why="no /sys/class/zram-control/hot_add (zram module?)"; return 1; }
	n=$(cat /sys/class/zram-control/hot_add 2>/dev/null) || { zram_why="hot_add failed"; return 1; }
	zram_n=$n
	d=/sys/block/zram$n
	if ! echo "$zram_limit" >"$d/mem_limit" || ! echo "$zram_size" >"$d/disksize"; then
		zram_why="cannot size zram$n"
		zram_remove
		return 1
	fi
	if ! mkswap "/dev/zram$n" >/dev/null 2>&1 || ! swapon -p 100 "/dev/zram$n"; then
		zram_why="mkswap/swapon /dev/zram$n failed"
		zram_remove
		return 1
	fi
}

# Every 0.1 s while a mem load runs: stop it (SIGKILL the processes that
# hold the memory: mem_load's, stress-ng's) before the swap can take no
# more, so that the kernel never has to OOM-kill: when zram's RAM reaches
# 90% of its limit, its swap area 95% of its size, or MemAvailable + what
# our zram can still free falls below half of mem_load's reserve.  What
# zram can free: its free slots (no more than its limit still holds) times
# 1 - the RAM a page costs, so that incompressible pages make it nothing.
# That cost is what the stored pages cost, the first 256 MiB counted at a
# half until they are stored: the first few MiB a fill pushes out are often
# other programs' and incompressible (RAM cost = size), and taken alone they
# once made the room 0 and killed every native fill as it began to swap
# (2026-12-04; contest's swap_zram_keep() counts it the same way).  Counting
# the unstored rest at a half errs by at most 128 MiB, a tenth of the half
# reserve (1.2 GiB on 24 GiB of RAM) kept.
# Only the holders are killed: contest load, its guardian with it, would
# leave task_delayacct on; it sees its load die and ends as it should.
watchdog() {
	local root=$1 d=/sys/block/zram$zram_n dev=/dev/zram$zram_n orig used swap_used why='' p left
	while :; do
		read -r orig _ used _ <"$d/mm_stat"
		swap_used=$(awk -v dev="$dev" '$1 == dev { printf "%.0f", $4 * 1024 }' /proc/swaps)
		left=$(awk -v avail="$(meminfo MemAvailable)" -v orig="$orig" -v used="$used" \
			-v lim="$zram_limit" -v size="$zram_size" -v sw="${swap_used:-0}" 'BEGIN {
			t = 268435456
			keep = orig >= t ? used / orig : (used + 0.5 * (t - orig)) / t
			if (keep < 0.5) keep = 0.5
			slots = size - sw; if ((lim - used) / keep < slots) slots = (lim - used) / keep
			if (slots < 0 || keep >= 1) slots = 0
			printf "%.0f", avail + slots * (1 - keep) }')
		if [ "$used" -ge $((zram_limit / 10 * 9)) ]; then
			why="zram uses $(gib "$used") of its $(gib "$zram_limit") limit"
		elif [ "${swap_used:-0}" -ge $((zram_size / 100 * 95)) ]; then
			why="the zram swap is 95% full"
		elif [ "$left" -lt $((reserve / 2)) ]; then
			why="MemAvailable + what zram can still free is down to $(gib "$left")"
		fi
		if [ -n "$why" ]; then
			echo "$why" >"$scratch/watchdog"
			for p in $(descendants "$root"); do
				case $(cat "/proc/$p/comm" 2>/dev/null) in
				mem_load|stress-ng*) kill -KILL "$p" 2>/dev/null ;;
				esac
			done
			exit 0
		fi
		sleep 0.1
	done
}

# ---- one timed run -------------------------------------------------------------

results=$scratch/results	# round load side secs units detail
: >"$results"

# units of work done during the timed build, from the io counters (bytes)
# of the load's tree and the swap counters (pages) over the build
units() {	# units LOAD "io0" "io1" "swap0" "swap1" -> "units|detail"
	awk -v l="$1" -v a="$2" -v b="$3" -v s0="$4" -v s1="$5" -v chunk="$ring_chunk" \
		-v arch="$(stat -c %s "$gnu_tar" 2>/dev/null || echo 0)" -v io="$io_size" "$UNITS_AWK"'
	BEGIN {
		split(a, x); split(b, y); split(s0, p); split(s1, q)
		r = y[1] - x[1]; w = y[2] - x[2]; rb = y[3] - x[3]; wb = y[4] - x[4]; c = y[5] - x[5]
		disk = wb - c
		swin = (q[1] - p[1]) * 4096; swout = (q[2] - p[2]) * 4096
		M = 1e6
		if (l == "mem_load")
			d = sprintf("swap out %.0f MB, in %.0f MB", swout / M, swin / M)
		else
			d = sprintf("read %.0f MB (disk %.0f), wrote %.0f MB (disk %.0f)", r / M, rb / M, w / M, disk / M)
		printf "%.2f|%s\n", load_units(l, r, w), d
	}'
}

# run_one ROUND LOAD SIDE: one timed build; prints it and adds it to $results
run_one() {
	local r=$1 l=$2 side=$3 io0='' io1='' c0='' c1='' s0 s1 i ok=1 note='' u
	clean_build
	[ "$side$l" = stockread_load ] && write_cat_file	# before any flush
	[ "$flush_first" = 1 ] && flush
	if [ "$side" != noload ]; then
		rm -f "$scratch/watchdog"
		"start_$side" "$l"
		if [ "$l" = mem_load ]; then
			watchdog "$load_pid" &
			watch_pid=$!
		fi
		if [ "$side" = native ]; then	# contest load is set up: it prints "starting"
			for ((i = 0; i < 36000; i++)); do
				grep -q ': starting ' "$scratch/native.err" && break
				alive "$load_pid" || break
				sleep 0.1
			done
		fi
		if [ "$l" = mem_load ]; then	# both sides: the region is touched
			for ((i = 0; i < 9000; i++)); do
				[ "$(tree_mem "$load_pid")" -ge $((mem_size / 100 * 97)) ] && break
				alive "$load_pid" || break
				sleep 0.1
			done
			[ "$i" -lt 9000 ] || { ok=0; note="the region was not touched in 900 s"; }
		fi
		alive "$load_pid" || ok=0
	fi
	[ "$flush_first" = 1 ] || flush
	[ "$side" != noload ] && sleep "$lead"
	[ "$side" != noload ] && { io0=$(tree_io "$load_pid"); c0=$(tree_cpu "$load_pid"); }
	s0=$(vmstat_swap)
	dirty_start
	timed_build
	dirty_stop
	s1=$(vmstat_swap)
	if [ "$side" != noload ]; then
		io1=$(tree_io "$load_pid")
		c1=$(tree_cpu "$load_pid")
		alive "$load_pid" || ok=0
		stop_watchdog
		stop_load
		[ "$side" = stock ] && after_stock
		if [ -s "$scratch/watchdog" ]; then
			ok=0
			note="watchdog: $(cat "$scratch/watchdog")"
		elif [ "$ok" = 0 ] && [ -z "$note" ]; then
			note="the load died: $(tail -3 "$scratch/$([ "$side" = native ] && echo native.err || echo stress.out)" 2>/dev/null | tr '\n' ' ')"
		fi
	fi
	if [ "$side" = noload ]; then
		u="0|"
	else
		u=$(units "$l" "$io0" "$io1" "$s0" "$s1")
		u+=$(awk -v a="$c0" -v b="$c1" -v t="$(getconf CLK_TCK)" -v s="$secs" \
			'BEGIN { if (s > 0) printf ", load CPU %.0f%%", (b - a) / t / s * 100 }')
	fi
	u+=$(dirty_summary)
	[[ $u == "0|; "* ]] && u="0|${u#0|; }"	# noload: no load figures before it
	# as contest does: a load that did no work during the build leaves the
	# build unloaded, and the run out
	if [ "$ok" = 1 ] && [ "${u%%|*}" = 0.00 ]; then
		ok=0
		note="the $side load did no work during the build"
	fi
	if [ "$ok" = 1 ]; then
		printf '%s\t%s\t%s\t%s\t%s\n' "$r" "$l" "$side" "$secs" "$u" >>"$results"
		printf 'round %d: %-12s %-6s %7.2f s  %s\n' "$r" "$l" "$side" "$secs" "${u#*|}"
	else
		printf 'round %d: %-12s %-6s %7.2f s  INVALID, left out: %s\n' "$r" "$l" "$side" "$secs" "$note"
	fi
}

# ---- the rounds ---------------------------------------------------------------

t_start=$EPOCHREALTIME
mem_refused=
for ((r = 1; r <= rounds; r++)); do
	[ $((r % 2)) -eq 1 ] && run_one "$r" noload noload
	k=0
	for l in "${sel[@]}"; do
		k=$((k + 1))
		if [ "$l" = mem_load ]; then
			avail=$(meminfo MemAvailable)
			if [ "$avail" -lt $((2 * reserve)) ]; then
				mem_refused="MemAvailable $(gib "$avail") is below twice the reserve ($(gib $((2 * reserve))))"
				echo "round $r: mem_load refused: $mem_refused"
				continue
			fi
			if ! zram_add; then
				mem_refused=$zram_why
				echo "round $r: mem_load refused: no swap: $zram_why"
				continue
			fi
			echo "round $r: mem_load on /dev/zram$zram_n: swap $(gib "$zram_size"), RAM limit $(gib "$zram_limit")"
		fi
		if [ $(((r + k) % 2)) -eq 0 ]; then
			side_on native && run_one "$r" "$l" native
			side_on stock && run_one "$r" "$l" stock
		else
			side_on stock && run_one "$r" "$l" stock
			side_on native && run_one "$r" "$l" native
		fi
		[ "$l" = mem_load ] && zram_remove
	done
	[ $((r % 2)) -eq 0 ] && run_one "$r" noload noload
done
t_end=$EPOCHREALTIME

# ---- the table -------------------------------------------------------------------

echo "load avg:  $(cut -d' ' -f1-3 /proc/loadavg) at end; $(awk -v a="$t_start" -v b="$t_end" 'BEGIN { printf "%d min %d s", (b - a) / 60, (b - a) % 60 }') of rounds"
echo
print_table
