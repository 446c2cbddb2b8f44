#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Disk full: loads that run out of space give it back and stop, their run
# valid (the build's Time is true) and saying "no space left on device",
# their scratch is removed and the suite goes on; preflight refuses io_load
# and read_load files, and ctar_load's and xtar_load's copies of the tree,
# that cannot fit before anything runs; a results store that is full or
# read-only is a clear error and the records already in it are unharmed.
. "$TOP_SRCDIR/tests/lib.sh"

[ "$(id -u)" = 0 ] || skip_all "mounting a size-limited tmpfs needs root"
avail_kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
[ "${avail_kb:-0}" -gt $((4 * 1024 * 1024)) ] ||
	skip_all "a 1.2 GiB tmpfs wants 4 GiB of available memory"
mkdir scratch res || exit 99
mount -t tmpfs -o size=1200m,mode=0755 contest-test scratch 2>mount.err ||
	skip_all "cannot mount a tmpfs here: $(cat mount.err)"
mounts="$T_DIR/scratch"
cleanup() {
	for m in $mounts; do umount "$m" 2>/dev/null; done
	rm -rf "$T_DIR"
}
trap cleanup EXIT
top=$(pwd -P)

# the tree ctar and xtar archive: 8 MiB, on the big disk; the build writes
# nothing, so only the loads need the scratch's space
mkdir tree || exit 99
for i in 1 2 3 4 5 6 7 8; do
	head -c 1048576 /dev/urandom >"tree/f$i" || exit 99
done
wl="-w cmd:$top/tree --build-cmd 'sleep 1' --clean-cmd true --lead-time 0.3"

# 1. the scratch fills up: once the noload run has started, fill the tmpfs
# but for 2 MiB, too little for any of the three loads
sh -c "exec \"\$CONTEST\" $wl -n 1 --quick --work-dir scratch/w -d res -k full \
	noload io_load ctar_load xtar_load process_load" >full.out 2>full.err &
pid=$!
wait_until grep -q '^env ' res/full.results
free_b=$(df -B1 --output=avail scratch | tail -1)
fallocate -l $((free_b - 2 * 1048576)) scratch/filler 2>fill.err
ok "the scratch file system is filled but for 2 MiB" test -s scratch/filler
wait $pid
ok_eq "the suite runs to its end" "$?" 0
for load in io_load ctar_load xtar_load; do
	ok "$load: the run is valid (the build's Time is true), saying the load met a full disk" \
		grep -q "$load round 1/1: .*, valid; the load met: $load process 0: .*No space left on device.*; the load gave its space back$" full.err
done
ok "process_load after them is valid" grep -q "process_load round 1/1.*valid" full.err
"$CONTEST" report -d res --no-latency full >rep 2>rep.err
ok "the report has the process_load row" sh -c "grep -A2 '^process_load:' rep | grep -q '^full '"
ok "the runs are stored valid, each with what its load met" \
	test "$(grep -c '^run .*valid=1 load.note=[a-z_]*_load%20process%200:.*No%20space%20left%20on%20device' res/full.results)" = 3
ok "the report says it under each table" \
	test "$(grep -c '^full round 1: [a-z_]*_load process 0: .*No space left on device' rep)" = 3
ok_eq "the scratch is gone: only the filler is left" "$(ls -A scratch)" filler
ok_eq "no process is left" "$(procs_in "$top/scratch")" ""
rm -f scratch/filler

# 2. preflight: io and read files that cannot fit are refused before any build
umount scratch
mount -t tmpfs -o size=200m contest-test scratch || exit 99
for load in io_load read_load; do
	sh -c "exec \"\$CONTEST\" $wl -n 1 --quick --work-dir scratch/w -d res -k pre $load" \
		>pre.out 2>pre.err
	ok_eq "$load that cannot fit: exit status" "$?" 1
	ok "$load: the message says it does not fit" grep -q "$load cannot run here: only .* free" pre.err
	ok "$load: nothing was built" sh -c "! grep -q warm-up pre.err"
	ok_eq "$load: nothing is left in the scratch file system" "$(ls -A scratch)" ""
done
ok "no results were written by the refused runs" test ! -e res/pre.results

# 2b. the tree's copies count too: ctar_load's archive, xtar_load's archive
# and its extraction.  A tree of 64 MiB on the big disk, and the scratch a
# tmpfs with 100 MiB beside the 1 GiB always kept free: one archive fits,
# an archive and an extraction (128 MiB) do not
mkdir big || exit 99
for i in 1 2 3 4 5 6 7 8; do
	head -c 8388608 /dev/zero >"big/f$i" || exit 99
done
umount scratch
mount -t tmpfs -o size=1124m contest-test scratch || exit 99
big="-w cmd:$top/big --build-cmd true --clean-cmd true"
sh -c "exec \"\$CONTEST\" $big --dry-run --work-dir scratch/w -d res -k tree ctar_load" \
	>tree.out 2>tree.err
ok_eq "ctar_load's archive of 64 MiB fits: its plan (exit status)" "$?" 0
sh -c "exec \"\$CONTEST\" $big -n 1 --work-dir scratch/w -d res -k tree xtar_load" \
	>tree.out 2>tree.err
ok_eq "xtar_load's archive and extraction do not: exit status" "$?" 1
ok "the message names the sizes: the sum, the free space, the archive and the extraction" \
	grep -q "the loads need 128.0 MiB together in scratch/w, which has 1.1 GiB free and keeps 1 GiB free: xtar_load 128.0 MiB (an archive of the workload's tree, 64.0 MiB, and its extraction, 64.0 MiB)" tree.err
ok "xtar_load: nothing was built" sh -c "! grep -q warm-up tree.err"
sh -c "exec \"\$CONTEST\" $big --dry-run --work-dir scratch/w -d res -k tree ctar_load \
	io_load" >tree.out 2>tree.err
ok_eq "ctar_load beside io_load's file: refused (exit status)" "$?" 1
ok "the message names both" \
	grep -q "the loads need .*: ctar_load 64.0 MiB (an archive of the workload's tree), io_load .* (its file)" tree.err
# the built-in tree is made after preflight: counted once it is there
umount scratch
mount -t tmpfs -o size=200m contest-test scratch || exit 99
"$CONTEST" --quick --scale 2 -n 1 --work-dir scratch/w -d res -k bt ctar_load >bt.out 2>bt.err
ok_eq "the built-in tree's archive on a disk with less than 1 GiB free: exit status" "$?" 1
ok "the message names its archive" \
	grep -q "the loads need .* together in scratch/w, which has .* free and keeps 1 GiB free: ctar_load .* (an archive of the workload's tree)" bt.err
ok "the tree was made, but nothing built" \
	sh -c "grep -q 'workload: builtin' bt.err && ! grep -q 'warm-up build (untimed)' bt.err"
ok_eq "nothing is left in the scratch file system" "$(ls -A scratch)" ""
ok "no results were written by the refused runs" test ! -e res/tree.results -a ! -e res/bt.results

# 3. a full results store: the records in it stay as they were
mkdir store || exit 99
mount -t tmpfs -o size=64k contest-test store || exit 99
mounts="$mounts $T_DIR/store"
sh -c "exec \"\$CONTEST\" $wl -n 1 --work-dir w -d store -k st noload" >st1.out 2>st1.err
ok_eq "a first session on the small store" "$?" 0
# pad with comment lines to just short of a page, so that the next record
# straddles the page boundary: the write is cut short by the full disk
size=$(stat -c %s store/st.results)
while [ "$size" -lt 4090 ]; do
	printf '#\n' >>store/st.results
	size=$((size + 2))
done
cp store/st.results before
"$CONTEST" report -d store st >rep1 2>&1
head -c $((64 * 1024)) /dev/zero >store/filler 2>/dev/null
sh -c "exec \"\$CONTEST\" $wl -n 1 --work-dir w -d store -k st noload" >st2.out 2>st2.err
ok_eq "a full results store: exit status" "$?" 1
ok "the message names what could not be written and why" \
	grep -q "cannot write store/contest.lock: No space left on device" st2.err
ok "the records in it are unharmed, byte for byte" cmp before store/st.results
ok "no scratch or work directory is left" test ! -e w
"$CONTEST" report -d store st >rep2 2>&1
ok "the report reads the same" cmp rep1 rep2

# 4. a store that fills up during the suite, in the middle of a record:
# once the first run is stored, contest is stopped (SIGSTOP); the test pads
# the file so that the last page has room for a quarter to a half of a
# record, fills the file system, and lets contest go on.  The next record
# is written in part (the page's room) and then fails: that torn piece is
# cut back off, and contest stops saying what it kept
rm -f store/filler store/st.results
sh -c "exec \"\$CONTEST\" -w cmd:$top/tree --build-cmd true --clean-cmd true -n 40 \
	--work-dir w -d store -k mid noload" >mid.out 2>mid.err &
pid=$!
wait_until grep -q '^run ' store/mid.results
kill -STOP $pid
reclen=$(grep '^run ' store/mid.results | tail -n 1 | wc -c)
room() { echo $((4096 - $(stat -c %s store/mid.results) % 4096)); }
while [ "$(room)" -ge $((reclen / 2)) ] || [ "$(room)" -lt $((reclen / 4)) ]; do
	printf '#\n' >>store/mid.results
done
head -c $((64 * 1024)) /dev/zero >store/filler 2>/dev/null
ok "the store is full: not a page free for a new file" sh -c '! echo x 2>/dev/null >store/probe'
rm -f store/probe
ok "but for the last page's room, less than a record ($(room) of $reclen bytes)" \
	test "$(room)" -gt 0 -a "$(room)" -lt "$reclen"
cp store/mid.results mid.before
kill -CONT $pid
wait $pid
ok_eq "a store that fills up: exit status" "$?" 1
ok "the message names the file and the cause" \
	grep -q "cannot append to store/mid.results: No space left on device" mid.err
ok "it says how many runs were kept" grep -q "stopped: [0-9]* runs\{0,1\} kept in store/mid.results" mid.err
ok "the records written before are unharmed" \
	sh -c "head -c $(stat -c %s mid.before) store/mid.results | cmp - mid.before"
ok_eq "the file ends with a whole line" "$(tail -c 1 store/mid.results | od -An -c | tr -d ' ')" '\n'
"$CONTEST" report -d store mid >rep3 2>rep3.err
ok "and reads back with no damaged line" sh -c "grep -q '^mid ' rep3 && ! grep -q damaged rep3.err"
ok "no scratch or work directory is left" test ! -e w
ok_eq "no process is left" "$(procs_in "$top/w")" ""

# 5. a read-only store is refused before anything runs
rm -f store/filler
mount -o remount,ro store || exit 99
sh -c "exec \"\$CONTEST\" $wl -n 1 --work-dir w -d store -k ro noload" >ro.out 2>ro.err
ok_eq "a read-only store: exit status" "$?" 1
ok "the message names the directory and the cause" \
	grep -q "cannot write to results directory store: Read-only file system" ro.err
ok "nothing was built" sh -c "! grep -q warm-up ro.err"
ok "no work directory is left" test ! -e w
mount -o remount,rw store

done_testing
