#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# t4002-load-process.sh - process_load: --procs processes joined in one
# unidirectional ring of pipes pass chunks around (big chunks included),
# bad shapes are refused, and no load process outlives contest.
. "$TOP_SRCDIR/tests/lib.sh"

W=$T_DIR/w

value() {	# value NAME: the first word after "NAME:" in out
	sed -n "s/^$1: *//p" out | awk '{ print $1; exit }'
}

positive() {	# positive NUMBER
	awk -v v="$1" 'BEGIN { exit !(v > 0) }'
}

# ---- it runs and counts hops ---------------------------------------------

"$CONTEST" load process_load -t 2 --quick --work-dir "$W" >out 2>err
ok_eq "process_load -t 2 --quick: exit status" "$?" 0
ok "it started 4 x CPUs processes" \
	grep -q "starting $((4 * $(getconf _NPROCESSORS_ONLN))) processes" err
work=$(value work)
ok "it did work ($work units)" positive "${work:-0}"
ok "it prints a natural rate in hops/s" grep -Eq '^natural: +[0-9.]+ hops/s$' out
rate=$(value rate) hops=$(value natural)

# The ring's own count against the kernel's: every hop writes one chunk
# into a pipe and reads one, so the pipe bytes in /proc/PID/io (wchar and
# rchar, summed over the ring by contest over the same seconds as the work)
# divided by the chunk size are the hops.  Allowed: 1% and the chunks in
# flight at either end of the window (2 per process).
hops_match() {	# hops_match BYTES HOPS PROCS
	awk -v b="$1" -v h="$2" -v n="$3" 'BEGIN { c = b / 8192; d = c - h;
		exit !(h > 0 && (d < 0 ? -d : d) <= h / 100 + 2 * n) }'
}

if grep -q '^io: *not measured' out; then
	skip "no /proc/PID/io here: $(sed -n 's/^io: *//p' out)"
	skip "no /proc/PID/io here"
else
	procs=$((4 * $(getconf _NPROCESSORS_ONLN)))
	hopcount=$(awk -v w="${work:-0}" 'BEGIN { printf "%.0f", w * 10000 }')
	wchar=$(io_value wchar out) rchar=$(io_value rchar out)
	ok "hops = pipe bytes written / 8 KiB (${hopcount} hops, wchar ${wchar:-none})" \
		hops_match "${wchar:-0}" "$hopcount" "$procs"
	ok "hops = pipe bytes read / 8 KiB (${hopcount} hops, rchar ${rchar:-none})" \
		hops_match "${rchar:-0}" "$hopcount" "$procs"
	# the natural rate against the same count: hops/s over units/s is the
	# hops in a unit, so work times that is the hops the pipes carried
	natural=$(awk -v w="${work:-0}" -v r="${rate:-0}" -v h="${hops:-0}" \
		'BEGIN { if (r > 0) printf "%.0f", w * h / r }')
	ok "the natural rate counts the hops the pipes carried ($hops hops/s at $rate units/s: ${natural:-no} hops)" \
		hops_match "${wchar:-0}" "${natural:-0}" "$procs"
fi

# A chunk bigger than a pipe: read whole, written whole, and yet no deadlock.
"$CONTEST" load process_load -t 2 --procs 3 --chunks 1 --chunk-size 1M \
	--work-dir "$W" >out 2>err
ok_eq "one chunk of 1 MiB around 3 processes: exit status" "$?" 0
work=$(value work)
ok "and it did work ($work units)" positive "${work:-0}"

# As many chunks as processes, small enough to sit in one pipe together.
"$CONTEST" load process_load -t 1 --procs 2 --chunks 2 --work-dir "$W" >out 2>err
ok_eq "2 chunks of 8 KiB around 2 processes: exit status" "$?" 0
work=$(value work)
ok "and it did work ($work units)" positive "${work:-0}"

# ---- refusals --------------------------------------------------------------

"$CONTEST" load process_load -t 1 --procs 2 --chunks 2 --chunk-size 1M \
	--work-dir "$W" >out 2>err
rc=$?
ok "chunks that could deadlock the ring are refused (exit $rc)" test "$rc" -ne 0
ok "the refusal names --chunks" grep -q -- "--chunks" err
ok "nothing ran" test ! -s out

for bad in "--procs 1" "--procs 0" "--procs 4097" "--procs three" "--chunks 0" \
	"--chunks 4097" "--chunks -1" "--chunk-size 0" "--chunk-size 2G" "--chunk-size 8Q"; do
	# shellcheck disable=SC2086
	"$CONTEST" load process_load -t 1 $bad --work-dir "$W" >out 2>err
	ok_eq "$bad: exit status" "$?" 2
	ok "$bad: the message names ${bad%% *}" grep -q -- "${bad%% *}" err
done

# ---- the ring, while it runs -------------------------------------------------

# pipes PID: "MODE INODE" for each pipe PID holds (MODE r or w), but for
# those this shell holds too (make's, the TAP driver's)
pipes() {
	for f in /proc/"$1"/fd/*; do
		n=${f##*/}
		link=$(readlink "$f") || continue
		case $link in pipe:*) ;; *) continue ;; esac
		grep -qxF "$link" ours && continue
		flags=$(awk '/^flags:/ { print $2 }' "/proc/$1/fdinfo/$n") || continue
		if [ $((0$flags & 3)) = 0 ]; then m=r; else m=w; fi
		inode=${link#pipe:[}
		echo "$m ${inode%]}"
	done
}

# is_ring PIDS...: each holds one pipe to read and one to write, and
# following the writes from the first visits every one once and comes back.
is_ring() {
	for p in "$@"; do
		pipes "$p" >"pipes.$p"
		if [ "$(wc -l <"pipes.$p")" != 2 ] || ! grep -q '^r ' "pipes.$p" ||
		   ! grep -q '^w ' "pipes.$p"; then
			echo "process $p holds:"; cat "pipes.$p"
			return 1
		fi
	done
	first=$1 p=$1 steps=0
	while :; do
		out=$(sed -n 's/^w //p' "pipes.$p")
		next=
		for q in "$@"; do
			grep -qx "r $out" "pipes.$q" && next=$q
		done
		[ -n "$next" ] || { echo "nobody reads the pipe $p writes"; return 1; }
		steps=$((steps + 1)) p=$next
		[ "$p" = "$first" ] && break
		[ "$steps" -le $# ] || { echo "the pipes do not close into one ring"; return 1; }
	done
	[ "$steps" = $# ] || { echo "a ring of $steps, not $#"; return 1; }
}

for f in /proc/"$$"/fd/*; do readlink "$f"; done >ours
"$CONTEST" load process_load -t 5 --procs 3 --work-dir "$W" >out 2>err &
pid=$!
count=0 tries=0 loads=
while [ "$tries" -lt 100 ] && kill -0 "$pid" 2>/dev/null; do
	if grep -q starting err; then
		loads=$(pgrep -x -P "$pid" process_load | tr '\n' ' ')
		count=$(echo "$loads" | wc -w)
		# shellcheck disable=SC2086
		[ "$count" = 3 ] && is_ring $loads >ring 2>&1 && break
	fi
	sleep 0.05
	tries=$((tries + 1))
done
ok_eq "contest has as many load processes as --procs" "$count" 3
ok "they form one unidirectional ring of pipes, unused ends closed" \
	sh -c 'cat ring; [ ! -s ring ] && [ -n "$1" ]' sh "$loads"
pgid=$(ps -o pgid= -p "${loads%% *}" 2>/dev/null | tr -d ' ')
wait "$pid"
ok_eq "contest load -t 5 --procs 3: exit status" "$?" 0
ok "no load process is left after contest" sh -c \
	'[ -z "$(pgrep -P "$1")" ] && [ -z "$(pgrep -g "$2")" ] &&
	 for p in $3; do [ ! -e "/proc/$p" ] || exit 1; done' sh "$pid" "${pgid:-2147483647}" "$loads"

done_testing
