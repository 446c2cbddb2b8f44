#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# io_load, io_other and read_load: they work, write only where they may,
# leave nothing behind, write and read as dd and cat do (seen in /proc/PID/io;
# with --io-sync io_load gets its files to the device), size their files to
# the disk and refuse what cannot fit.
. "$TOP_SRCDIR/tests/lib.sh"

command -v pgrep >/dev/null || skip_all "pgrep (procs) is needed to find the load process"

MIB=1048576
W=$T_DIR/work

# processes left behind: contest processes working in this directory
leftovers() {
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/exe" 2>/dev/null)" = "$CONTEST" ] &&
			[ "$(readlink "$p/cwd" 2>/dev/null)" = "$T_DIR" ] && echo "${p#/proc/}"
	done
}

running() {	# running PID: contest PID has not exited yet
	[ -e "/proc/$1" ] && ! grep -q '^State:.*Z' "/proc/$1/status" 2>/dev/null
}

load_pid() {	# load_pid PID: contest PID's load process (not cc or make)
	for l in $(pgrep -P "$1"); do
		case "$(cat "/proc/$l/comm" 2>/dev/null)" in
		io_load|io_other|read_load) echo "$l" ;;
		esac
	done
}

# watch_io PID FILE: until contest PID exits, copy its load process's
# /proc/PID/io to FILE every 0.2 s, so FILE ends with the last sample.
watch_io() {
	: >"$2"
	while running "$1"; do
		for l in $(load_pid "$1"); do
			cat "/proc/$l/io" >"$2.new" 2>/dev/null && mv "$2.new" "$2"
		done
		sleep 0.2
	done
	rm -f "$2.new"
}

io_field() {	# io_field FILE NAME
	sed -n "s/^$2: //p" "$1"
}

work_of() {	# the units of work in a `contest load` output
	sed -n 's/^work: *\([0-9.]*\) units.*/\1/p' "$1"
}

gt() {	# gt A B: A > B, as numbers
	awk "BEGIN{exit !($1 > $2)}"
}

# units_match BYTES SIZE WORK: BYTES / SIZE is WORK within 1% + 0.1 (the
# io: line is sampled just after the work, over the same seconds)
units_match() {
	awk "BEGIN { u = $1 / $2; d = u - $3; exit !($1 > 0 && (d < 0 ? -d : d) <= $3 / 100 + 0.1) }"
}

# ---- io_load -------------------------------------------------------------

"$CONTEST" load io_load -t 3 --quick --work-dir "$W" >io.out 2>io.err
ok_eq "io_load --quick -t 3: exit 0" "$?" 0
work=$(work_of io.out)
ok "it did work (${work:-none} files of 64 MiB)" gt "${work:-0}" 0
ok "it prints its rate in MB/s" grep -q "^natural: *[0-9.]* MB/s" io.out
ok "nothing is left in the work directory" test ! -e "$W"
# contest's own sample of the load's /proc/PID/io, over the seconds of its
# work.  Like dd, io_load writes through the page cache and never syncs:
# each pass truncates the last file, and the kernel cancels its pages not
# yet written back.  What write() took (wchar) is the work: one unit is one
# file of 64 MiB written.
wchar=$(io_value wchar io.out)
if [ -z "$wchar" ]; then
	skip "no /proc/PID/io here: $(sed -n 's/^io: *//p' io.out)"
else
	ok "io: Loads $work = bytes written (wchar $wchar) / 64 MiB" units_match "$wchar" $((64 * MIB)) "$work"
fi

# --io-sync: each file is on the device before it counts and before the
# next pass truncates it, so nothing the load wrote is cancelled
"$CONTEST" load io_load -t 3 --quick --io-sync --work-dir "$W" >sync.out 2>sync.err
ok_eq "io_load --io-sync --quick -t 3: exit 0" "$?" 0
work=$(work_of sync.out)
ok "it did work (${work:-none} files of 64 MiB)" gt "${work:-0}" 0
wb=$(io_value write_bytes sync.out) cwb=$(io_value cancelled_write_bytes sync.out)
wchar=$(io_value wchar sync.out)
fstype=$(stat -f -c %T . 2>/dev/null)
if [ -z "$wb" ]; then
	for i in 1 2 3; do skip "no /proc/PID/io here: $(sed -n 's/^io: *//p' sync.out)"; done
elif [ "$fstype" = tmpfs ] || [ "$fstype" = ramfs ]; then
	for i in 1 2 3; do skip "$T_DIR is on $fstype: nothing is written to a device there"; done
else
	# write_bytes grows when a page cache folio is first dirtied, up to
	# 2 MiB at once on a recent kernel: at either end of the window it may
	# run a folio ahead of the work, hence 4 MiB of slack
	ok "io --io-sync: at least one file's size on the device per unit: write_bytes $wb - cancelled $cwb >= $work x 64 MiB - 4 MiB" \
		awk "BEGIN { exit !($wb - $cwb >= $work * 64 * $MIB - 4 * $MIB) }"
	ok "io --io-sync: at most a few MiB cancelled ($cwb bytes <= 4 MiB)" \
		test "$cwb" -le $((4 * MIB))
	ok "io --io-sync: Loads $work = bytes written (wchar $wchar) / 64 MiB" \
		units_match "$wchar" $((64 * MIB)) "$work"
fi
ok "nothing is left in the work directory" test ! -e "$W"

# ---- io_other ------------------------------------------------------------

"$CONTEST" load io_other -t 1 --quick --work-dir "$W" >noo.out 2>noo.err
ok "io_other without -o fails" test $? -ne 0
ok "... saying it needs -o" grep -q -- "-o DIR" noo.err
ok "... before running anything" test ! -s noo.out

mkdir other
"$CONTEST" load io_other -t 2 --quick -o other --work-dir "$W" >other.out 2>other.err &
pid=$!
seen=""
while running $pid; do
	set -- other/*
	if [ -e "$1" ]; then	# DIR's entries, the mode of ours, what is in it
		now="$# $(basename "$1") $(stat -c %a "$1") $(ls -A "$1" 2>/dev/null)"
		case $seen in *.dat) ;; *) seen=$now ;; esac
	fi
	sleep 0.1
done
wait $pid
ok_eq "io_other -o DIR --quick -t 2: exit 0" "$?" 0
work=$(work_of other.out)
ok "it did work (${work:-none} files)" gt "${work:-0}" 0
case $seen in
"1 contest-io-"??????" 700 io_other.dat") ok "it wrote in its own 0700 directory in DIR ($seen)" true ;;
*) ok "it wrote in its own 0700 directory in DIR (saw: ${seen:-nothing})" false ;;
esac
ok_eq "DIR is left as it was: empty" "$(ls -A other)" ""
ok "nothing is left in the work directory" test ! -e "$W"

# ---- sizes -----------------------------------------------------------------

"$CONTEST" list --quick -o other >list.out 2>list.err
ok "contest list --quick shows io_load's size" grep -q "here: 64.0 MiB file in" list.out
ok "... io_other's, in DIR" grep -q "here: 64.0 MiB file in other " list.out
ok "... and read_load's" grep -q "here: 64.0 MiB file in .*written before timing" list.out
"$CONTEST" list --quick --io-size 200M >list2.out 2>&1
ok "an explicit --io-size wins over --quick" grep -q "here: 200.0 MiB file in" list2.out

for load in io_load read_load; do
	"$CONTEST" load $load -t 1 --io-size 1000T --work-dir "$W" >big.out 2>big.err
	ok "$load: --io-size bigger than the disk is refused" test $? -ne 0
	ok "... naming --io-size and what fits" grep -q -- "--io-size .*at most .* fits" big.err
	ok "... before writing anything" test ! -e "$W"
done
"$CONTEST" load io_other -t 1 --io-size 1000T -o other --work-dir "$W" >big.out 2>big.err
ok "io_other: --io-size bigger than DIR's disk is refused" grep -q -- "--io-size .*does not fit in other" big.err
ok_eq "... and DIR is untouched" "$(ls -A other)" ""

# ---- read_load -------------------------------------------------------------

fstype=$(stat -f -c %T . 2>/dev/null)
if [ ! -r /proc/self/io ]; then
	skip "no /proc/PID/io here (task I/O accounting is off)"
elif [ "$fstype" = tmpfs ] || [ "$fstype" = ramfs ]; then
	skip "$T_DIR is on $fstype: reads never reach a device there"
else
	"$CONTEST" load read_load -t 6 --quick --io-size 256M --work-dir "$W" \
		>read.out 2>read.err &
	pid=$!
	watch_io $pid read.io
	wait $pid
	ok_eq "read_load --io-size 256M -t 6: exit 0" "$?" 0
	work=$(work_of read.out)
	rb=$(io_field read.io read_bytes)
	ok "it did work (${work:-none} reads of 256 MiB)" gt "${work:-0}" 0
	# prepare() leaves the file out of the cache: the first pass reads it
	ok "its process read at least the file from the device (read_bytes ${rb:-none})" \
		test "${rb:-0}" -ge $((256 * MIB))
	# read_bytes misses the passes the cache served; rchar, the bytes
	# read(2) returned, counts every pass, cached or not
	rchar=$(io_value rchar read.out)
	ok "Loads $work = bytes read (rchar ${rchar:-none}) / 256 MiB" \
		units_match "${rchar:-0}" $((256 * MIB)) "${work:-0}"
	# as cat, through the page cache: 256 MiB stays cached here, so passes
	# after the first cost the device nothing (a reader that dropped its
	# pages behind it would read the device on every pass)
	if gt "${work:-0}" 3; then
		ok "it reads through the page cache: read_bytes ${rb:-none} < half of $work x 256 MiB" \
			awk "BEGIN{exit !(${rb:-0} < 0.5 * ${work:-0} * 256 * $MIB)}"
	else
		skip "too few passes (${work:-0}) to see the cache serve them"
	fi
	ok "the read file is gone" test ! -e "$W"
fi

# ---- a small disk ----------------------------------------------------------

if [ "$(id -u)" != 0 ]; then
	skip "not root: cannot mount a small tmpfs"
	skip "not root: cannot mount a small tmpfs"
elif ! { mkdir small && mount -t tmpfs -o size=32m tmpfs small 2>mount.err; }; then
	skip "cannot mount a tmpfs here: $(cat mount.err)"
	skip "cannot mount a tmpfs here"
else
	trap 'umount "$T_DIR/small" "$T_DIR/full" 2>/dev/null; rm -rf "$T_DIR"' EXIT
	"$CONTEST" load io_other -t 1 --quick -o small --work-dir "$W" >small.out 2>small.err
	ok "io_other on a 32 MiB disk is refused, saying how much is free" \
		grep -q "only .* free in small" small.err
	"$CONTEST" load io_other -t 1 --io-size 16M -o small --work-dir "$W" >small.out 2>small.err
	ok "... and so is an explicit --io-size that leaves less than 1 GiB free" \
		grep -q -- "--io-size 16.0 MiB does not fit in small" small.err
	umount small
fi

# The disk fills up under the load: it fails with ENOSPC in its own words.
avail=$(sed -n 's/^MemAvailable: *\([0-9]*\) kB/\1/p' /proc/meminfo)
if [ "$(id -u)" != 0 ]; then
	skip "not root: cannot mount a tmpfs to fill"
elif [ "${avail:-0}" -lt $((4 * 1024 * 1024)) ]; then
	skip "less than 4 GiB of memory available for a 1.1 GiB tmpfs"
elif ! { mkdir full && mount -t tmpfs -o size=1100m tmpfs full 2>mount.err; }; then
	skip "cannot mount a tmpfs here: $(cat mount.err)"
else
	trap 'umount "$T_DIR/small" "$T_DIR/full" 2>/dev/null; rm -rf "$T_DIR"' EXIT
	"$CONTEST" load io_other -t 60 --io-size 32M -o full --work-dir "$W" \
		>full.out 2>full.err &
	pid=$!
	i=0
	while [ $i -lt 300 ] && [ -z "$(load_pid $pid)" ]; do
		sleep 0.1
		i=$((i + 1))
	done
	# take what the load leaves free, again after it deletes its file,
	# until its writes fail (a full disk between its files is not enough)
	i=0
	while [ $i -lt 100 ] && running $pid; do
		dd if=/dev/zero of=full/fill.$i bs=1M 2>/dev/null
		sleep 0.1
		i=$((i + 1))
	done
	wait $pid
	rc=$?
	ok "a full disk stops io_other: exit non-zero ($rc)" test $rc -ne 0
	ok "... with the reason: No space left on device" \
		grep -q "write .*io_other.dat: No space left on device" full.err
	ok_eq "... and only the filler is left in DIR" "$(find full -mindepth 1 ! -name 'fill.*')" ""
	umount full
fi

ok_eq "no process left behind" "$(leftovers)" ""
ok "no scratch left behind" test ! -e "$W"

done_testing
