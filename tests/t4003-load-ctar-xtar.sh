#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# ctar_load and xtar_load alone: they write (extract) archives of the
# workload tree in their scratch directory, count work in whole archives
# whose size in MB matches the tree, leave nothing behind, and a full disk
# makes them fail with "No space left on device".
# (GNU tar reading our archives is t4001's business.)
. "$TOP_SRCDIR/tests/lib.sh"

find . -maxdepth 0 -printf '' 2>/dev/null || skip_all "GNU find (-printf) is needed"

export LC_ALL=C
mnt=$T_DIR/mnt
trap 'umount "$mnt" 2>/dev/null; rm -rf "$T_DIR"' EXIT

# The size tar_write gives an archive of tree $1 (members relative to it,
# one header per entry, data in 512-byte blocks, two end blocks, padded to
# records of 10240 bytes), in bytes.  Names in the builtin tree are short,
# so no pax header is needed.
archive_bytes() {
	find "$1" -mindepth 1 -printf '%y %s\n' | awk '
		$1 == "f" { s += 512 + int(($2 + 511) / 512) * 512; next }
		{ s += 512 }
		END { s += 1024; s = int((s + 10239) / 10240) * 10240; print s }'
}

# The bytes of file data in tree $1: what one extraction writes.
data_bytes() {
	find "$1" -type f -printf '%s\n' | awk '{ s += $1 } END { print s + 0 }'
}

field() {	# field NAME FILE: the first number on the NAME: line
	sed -n "s/^$1: *\([0-9.]*\).*/\1/p" "$2"
}

# Runs `contest load $1 -t 3 --quick $ARGS` in w, in the background.  Once the
# load's scratch directory exists (the tree is complete by then), takes the
# expected archive size from the tree into $1.mb, then waits up to 5 s for
# `check_running $1` to succeed (into $1.seen).
run_load() {
	mkdir w || return 1
	# shellcheck disable=SC2086
	"$CONTEST" load "$1" -t 3 --quick --work-dir w $ARGS >"$1.out" 2>"$1.err" &
	pid=$!
	: >"$1.mb"
	: >"$1.seen"
	i=0
	while [ $i -lt 100 ]; do
		run=$(echo w/run-*)
		if [ -d "$run/$1" ]; then
			if [ ! -s "$1.mb" ]; then
				archive_bytes "$run/tree" >"$1.bytes"
				data_bytes "$run/tree" >"$1.data"
				awk '{ print $1 / 1e6 }' "$1.bytes" >"$1.mb"
			fi
			if check_running "$1" "$run"; then
				echo yes >"$1.seen"
				break
			fi
		fi
		sleep 0.05
		i=$((i + 1))
	done
	wait "$pid"
}

check_running() {	# check_running LOAD RUN_DIR
	case $1 in
	ctar_load) test -f "$2/ctar_load/archive.tar" ;;
	# Makefile is the first member: most of the time it is there, whole
	xtar_load) cmp -s "$2/tree/Makefile" "$2/xtar_load/x/Makefile" ;;
	esac
}

check_load() {	# check_load LOAD WHAT_IT_DOES
	run_load "$1"
	ok_eq "$1$ARGS: contest load exits 0" "$?" 0
	work=$(field work "$1.out")
	rate=$(field rate "$1.out")
	mbs=$(field natural "$1.out")
	ok "$1$ARGS: work > 0 (${work:-none})" awk "BEGIN { exit !(\"$work\" + 0 > 0) }"
	ok "$1$ARGS: it prints a natural rate in MB/s" grep -q "^natural: *[0-9.]* MB/s$" "$1.out"
	ok "$1$ARGS: the MB/s is > 0 (${mbs:-none})" awk "BEGIN { exit !(\"$mbs\" + 0 > 0) }"
	ok_eq "$1$ARGS: $2 in its scratch directory while running" "$(cat "$1.seen")" yes
	want=$(cat "$1.mb")
	# MB/s = units/s x MB in one archive, within 1% and the rounding of MB/s
	ok "$1$ARGS: one unit is one archive of the tree in MB (${mbs:-?} MB/s = ${rate:-?}/s x ${want:-?} MB)" \
		awk "BEGIN { w = \"$want\" + 0; x = w * \"$rate\"; d = \"$mbs\" - x;
			     exit !(w > 0 && x > 0 && (d < 0 ? -d : d) <= x * 0.01 + 0.06) }"
	ok_eq "$1$ARGS: nothing left in the work directory" "$(ls -A w 2>&1)" ""
	rm -rf w
	check_io "$1" "$work"
}

# The kernel's count of the load's work against its own (the Loads), from
# the io: line (/proc/PID/io, summed by contest over the same seconds as
# the work).  Like tar, the loads write through the page cache and never
# sync: what write() took (wchar) is the work, whether writeback reached it
# before the next pass truncated the archive or removed the copy (then the
# kernel cancels it: cancelled_write_bytes).  ctar_load: each archive is
# written once (wchar / archive size = archives).  xtar_load: each
# extraction reads the archive once (rchar / archive size = extractions)
# and writes the tree's file data (wchar); a partial extraction at either
# end of the window writes data and consumes archive bytes in other
# proportions, hence one unit of slack.  With --io-sync (ARGS) each unit is
# on the device before it counts: the bytes dirtied and not cancelled
# (write_bytes - cancelled_write_bytes) are at least one unit's size per
# unit.  write_bytes grows when a page cache folio is first dirtied, up to
# 2 MiB at once on a recent kernel, so at either end of the window it may
# run a folio ahead of the work: 4 MiB of slack.  (That bound can hold
# without the sync too, where writeback keeps up: ext4 writes a file
# truncated to zero back when it is closed (auto_da_alloc), so ctar_load's
# archives reach the disk anyway; t4010 sees the sync calls themselves.)
check_io() {	# check_io LOAD WORK
	if grep -q '^io: *not measured' "$1.out"; then
		skip "$1: no /proc/PID/io here"
		skip "$1: no /proc/PID/io here"
		[ -n "$ARGS" ] && skip "$1: no /proc/PID/io here"
		return
	fi
	size=$(cat "$1.bytes") data=$(cat "$1.data")
	wb=$(io_value write_bytes "$1.out") cwb=$(io_value cancelled_write_bytes "$1.out")
	wchar=$(io_value wchar "$1.out")
	case $1 in
	ctar_load)
		bytes=$wchar what="archive bytes written (wchar)"
		per_unit=$size slack=0 ;;
	xtar_load)
		bytes=$(io_value rchar "$1.out") what="archive bytes read (rchar)"
		per_unit=$data slack=1 ;;
	esac
	ok "$1$ARGS: write() took at least one unit's bytes per unit: wchar ${wchar:-?} >= ($2 - $slack) x $per_unit - 4 MiB" \
		awk "BEGIN { exit !(\"$wchar\" != \"\" && $per_unit > 0 &&
				   \"$wchar\" + 0 >= ($2 - $slack) * $per_unit - 4 * 1048576) }"
	ok "$1$ARGS: Loads $2 = $what ${bytes:-?} / archive size $size, within 1% + 1" \
		awk "BEGIN { u = \"$bytes\" / $size; d = u - $2;
			     exit !(\"$bytes\" != \"\" && (d < 0 ? -d : d) <= $2 / 100 + 1) }"
	[ -n "$ARGS" ] || return 0
	fstype=$(stat -f -c %T . 2>/dev/null)
	if [ "$fstype" = tmpfs ] || [ "$fstype" = ramfs ]; then
		skip "$1: $T_DIR is on $fstype: nothing is written to a device there"
		return
	fi
	ok "$1$ARGS: on the device, at least one unit's size per unit: write_bytes ${wb:-?} - cancelled ${cwb:-?} >= ($2 - $slack) x $per_unit - 4 MiB" \
		awk "BEGIN { exit !(\"$wb\" != \"\" && $per_unit > 0 &&
				   \"$wb\" - \"$cwb\" >= ($2 - $slack) * $per_unit - 4 * 1048576) }"
}

ARGS=
check_load ctar_load "an archive is being written"
check_load xtar_load "the tree is being extracted"
ARGS=" --io-sync"
check_load ctar_load "an archive is being written"
check_load xtar_load "the tree is being extracted"
ARGS=

# -w names the tree the loads archive: a directory of the user's, as it is
# (a suite with the same -w archives the same files), not the builtin tree.
mkdir -p own/sub && head -c 3000000 /dev/zero >own/sub/big && echo x >own/small
own_bytes=$(archive_bytes own)
for load in ctar_load xtar_load; do
	mkdir w
	"$CONTEST" load $load -t 2 --quick -w cmd:own --work-dir w >$load.own 2>$load.own.err
	ok_eq "$load -w cmd:DIR: exit status" "$?" 0
	mb=$(field natural $load.own) rate=$(field rate $load.own)
	ok "$load -w cmd:DIR: one unit is an archive of DIR ($own_bytes bytes: ${mb:-?} MB/s = ${rate:-?}/s x $own_bytes)" \
		awk "BEGIN { x = $own_bytes / 1e6 * \"$rate\"; d = \"$mb\" - x;
			     exit !(x > 0 && (d < 0 ? -d : d) <= x * 0.01 + 0.06) }"
	ok "$load -w cmd:DIR: DIR is unchanged" test "$(find own | wc -l)" -eq 4
	rm -rf w
done
"$CONTEST" load ctar_load -t 1 -w cmd:missing-dir --work-dir w >missing.out 2>&1
ok "load -w cmd:MISSING: exit 1" test "$?" -eq 1
ok "load -w cmd:MISSING: says which directory" grep -q "missing-dir: No such file or directory" missing.out
rm -rf w

# ---- a full disk -------------------------------------------------------------
# `contest load` generates the builtin tree (default scale: about 5.9 MB on
# tmpfs, 194 entries) in the work directory, then the loads' prepare() writes
# a 5.8 MB archive beside it.  In 14 MB, the tree and xtar's archive fit but
# an extraction does not; in 8 MB, the tree fits but ctar's trial archive
# does not.  ctar_load's own archives are the size of its trial one, so to
# fill the disk under a running ctar_load the tmpfs starts at 20 MB and is
# shrunk to 9 MB once the load runs (a remount succeeds whenever the archive
# being written is still small).  The messages must say which load failed
# and where, so that a tree that grows (or shrinks) fails this test instead
# of passing it for a wrong reason.

full_disk() {	# full_disk SIZE LOAD: LOAD on a tmpfs of SIZE; output in LOAD.full
	mkdir -p "$mnt" && mount -t tmpfs -o "size=$1" tmpfs "$mnt" || return 1
	"$CONTEST" load "$2" -t 5 --work-dir "$mnt/w" >"$2.full" 2>&1
	echo $? >"$2.rc"
	ls -A "$mnt" >"$2.left" 2>&1
	umount "$mnt" || echo "umount $mnt failed" >>"$2.left"
}

# ctar_load on a tmpfs that fills up under it: once the load runs, a filler
# takes every free byte, so its next write fails; output in ctar_load.live,
# empty when the load never started
load_running() {	# load_running PID: a child of contest runs contest's code
	pgrep -x -P "$1" ctar_load >/dev/null
}

fill_under_ctar() {
	mkdir -p "$mnt" && mount -t tmpfs -o size=20m tmpfs "$mnt" || return 1
	"$CONTEST" load ctar_load -t 60 --work-dir "$mnt/w" >ctar_load.out 2>&1 &
	pid=$!
	filled=no
	i=0
	while [ $i -lt 1500 ] && kill -0 "$pid" 2>/dev/null; do
		# the load process runs (prepare() in contest itself writes a
		# trial archive first) and is writing an archive
		if load_running "$pid" &&
		   [ -f "$(echo "$mnt"/w/run-*/ctar_load/archive.tar)" ]; then
			dd if=/dev/zero of="$mnt/filler" bs=64k 2>/dev/null
			filled=yes
			break
		fi
		sleep 0.02
		i=$((i + 1))
	done
	# when the fill landed between two archives, the load's removal of the
	# last one frees its size again, and the next archive fits: top the
	# filler up until the load fails (or 10 s pass), so a slow spell of the
	# machine does not decide whether ENOSPC comes
	i=0
	while [ $filled = yes ] && [ $i -lt 200 ] && kill -0 "$pid" 2>/dev/null; do
		dd if=/dev/zero bs=64k oflag=append conv=notrunc of="$mnt/filler" 2>/dev/null
		sleep 0.05
		i=$((i + 1))
	done
	[ $filled = yes ] && [ $i -lt 200 ] || kill -TERM "$pid" 2>/dev/null
	wait "$pid"
	echo $? >ctar_load.rc
	rm -f "$mnt/filler"
	[ $filled = yes ] && mv ctar_load.out ctar_load.live || : >ctar_load.live
	ls -A "$mnt" >ctar_load.left 2>&1
	umount "$mnt" || echo "umount $mnt failed" >>ctar_load.left
}

if [ "$(id -u)" != 0 ]; then
	skip "a full disk: mounting a small tmpfs needs root"
	skip "a full disk: mounting a small tmpfs needs root"
elif ! full_disk 14m xtar_load; then
	skip "a full disk: mount -t tmpfs failed here"
	skip "a full disk: mount -t tmpfs failed here"
else
	ok "xtar_load on a full disk: exit status non-zero" test "$(cat xtar_load.rc)" != 0
	ok "xtar_load on a full disk: fails while extracting, with ENOSPC" \
		grep -q "xtar_load process 0: .*/xtar_load/x/.*: No space left on device" xtar_load.full
	ok_eq "xtar_load on a full disk: nothing left behind" "$(cat xtar_load.left)" ""
	full_disk 8m ctar_load
	ok "ctar_load on a full disk: exit status non-zero" test "$(cat ctar_load.rc)" != 0
	ok "ctar_load on a full disk: fails writing its archive, with ENOSPC" \
		grep -q "ctar_load: preparing failed: .*: write: No space left on device" ctar_load.full
	ok_eq "ctar_load on a full disk: nothing left behind" "$(cat ctar_load.left)" ""
	fill_under_ctar
	if [ ! -s ctar_load.live ]; then
		skip "a disk filling under ctar_load: the load never started writing"
	else
		ok "a disk filling under ctar_load: exit non-zero, ENOSPC while writing" sh -c \
			"test \"$(cat ctar_load.rc)\" != 0 &&
			 grep -q 'ctar_load process 0: write: No space left on device (archive .*/ctar_load/archive.tar)' ctar_load.live ||
			 { echo rc=$(cat ctar_load.rc); cat ctar_load.live; exit 1; }"
	fi
	ok_eq "a disk filling under ctar_load: nothing left behind" "$(cat ctar_load.left)" ""
fi

done_testing
