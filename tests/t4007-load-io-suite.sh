#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# t4007-load-io-suite.sh - in a quick suite, every loaded run's record holds
# the load's own I/O from /proc/PID/io (load_rchar ... load_cancelled_write_bytes),
# a noload run's does not, and with --io-sync (recorded as load.sync=yes)
# ctar_load, xtar_load and io_load put at least one unit's size on the
# device per unit of Loads (without it they sync nothing, as tar and dd:
# t4003, t4004 and t4010 check those).  The oracles: GNU tar's
# listing of xtar_load's archive (its file data) and the archive's size, and
# io_load's 64 MiB file (--quick).
. "$TOP_SRCDIR/tests/lib.sh"

MIB=1048576

[ -r /proc/self/io ] || skip_all "no /proc/PID/io here (task I/O accounting is off)"
fstype=$(stat -f -c %T . 2>/dev/null)
case $fstype in
tmpfs|ramfs) skip_all "$T_DIR is on $fstype: nothing is written to a device there" ;;
esac
command -v tar >/dev/null || skip_all "GNU tar is needed to read xtar_load's archive"

# The suite in the background; xtar_load's archive, written once before the
# warm-up and kept to the end, is copied aside as soon as it is complete
# (the warm-up starts after every load is prepared: look for its log line).
# The smallest builtin workload (--scale 2): no point depends on the build's
# size, only on each load doing at least one unit beside it, and in the
# quick lead time (1 s) plus a scale-2 build they do many (on a busy 2-CPU
# machine: ctar_load ~100, xtar_load ~11, io_load ~22); its archive (~3 MB)
# is still read whole by every extraction, Loads = rchar / size exactly.
"$CONTEST" --quick --scale 2 -n 1 -k t -d results --work-dir w --io-sync \
	ctar_load xtar_load io_load >out 2>err &
pid=$!
got=no
i=0
while [ $i -lt 3000 ] && kill -0 "$pid" 2>/dev/null; do
	if [ $got = no ] && grep -q "warm-up build (untimed)" err; then
		a=$(echo w/run-*/xtar_load/archive.tar)
		[ -f "$a" ] && cp "$a" archive.tar && got=yes
	fi
	sleep 0.02
	i=$((i + 1))
done
wait "$pid"
ok_eq "contest --quick --io-sync ctar_load xtar_load io_load: exit status" "$?" 0
ok_eq "xtar_load's archive was seen while the suite ran" "$got" yes

# field TYPE KEY: KEY's value in TYPE's run record
field() {
	grep "^run .* type=$1 " results/t.results | tr ' ' '\n' | sed -n "s/^$2=//p"
}

keys="load_rchar load_wchar load_read_bytes load_write_bytes load_cancelled_write_bytes"
for t in ctar_load xtar_load io_load; do
	missing=
	for k in $keys; do
		[ -n "$(field $t $k)" ] || missing="$missing $k"
	done
	ok_eq "$t's run record holds the load's I/O" "${missing:-none missing}" "none missing"
	ok_eq "$t's run record says it was synced (--io-sync)" "$(field $t load.sync)" yes
done
present=
for k in $keys; do
	[ -z "$(field noload $k)" ] || present="$present $k"
done
ok_eq "noload's run record holds no load I/O" "${present:-none}" none

# on_device TYPE PER_UNIT SLACK_UNITS: write_bytes - cancelled_write_bytes >=
# (work - slack) x PER_UNIT - 4 MiB (write_bytes grows a page cache folio,
# up to 2 MiB, at a time, so it may run a folio ahead at either end)
on_device() {
	wb=$(field "$1" load_write_bytes) cwb=$(field "$1" load_cancelled_write_bytes)
	work=$(field "$1" load_work)
	ok "$1: at least one unit's size on the device per unit: write_bytes ${wb:-?} - cancelled ${cwb:-?} >= (${work:-?} - $3) x $2 - 4 MiB" \
		awk "BEGIN { exit !(\"$wb\" != \"\" && \"$work\" + 0 >= 1 && $2 > 0 &&
				   \"$wb\" - \"$cwb\" >= (\"$work\" - $3) * $2 - 4 * $MIB) }"
}

if [ $got = yes ]; then
	size=$(stat -c %s archive.tar)
	data=$(tar -tvf archive.tar | awk '$1 ~ /^-/ { s += $3 } END { print s + 0 }')
	# each extraction writes the tree's file data, the last one perhaps in part
	on_device xtar_load "$data" 1
	# ctar_load archives the tree as the build grows it, from the clean
	# tree xtar_load's archive was made of: no archive is smaller
	on_device ctar_load "$size" 1
	rchar=$(field xtar_load load_rchar) work=$(field xtar_load load_work)
	ok "xtar_load: Loads ${work:-?} = archive bytes read (rchar ${rchar:-?}) / archive size $size" \
		awk "BEGIN { u = \"$rchar\" / $size; d = u - \"$work\";
			     exit !(\"$rchar\" != \"\" && (d < 0 ? -d : d) <= \"$work\" / 100 + 1) }"
else
	skip "xtar_load: no archive to measure the unit by"
	skip "ctar_load: no archive to measure the unit by"
	skip "xtar_load: no archive to measure the unit by"
fi
on_device io_load $((64 * MIB)) 0
wchar=$(field io_load load_wchar) work=$(field io_load load_work)
ok "io_load: Loads ${work:-?} = bytes written (wchar ${wchar:-?}) / 64 MiB" \
	awk "BEGIN { u = \"$wchar\" / (64 * $MIB); d = u - \"$work\";
		     exit !(\"$wchar\" != \"\" && (d < 0 ? -d : d) <= \"$work\" / 100 + 0.1) }"
ok "nothing is left in the work directory" sh -c '[ ! -e w ] || [ -z "$(ls -A w)" ]'

# synced and unsynced runs of a load are never averaged into one row: a
# suite that would add the other kind to label t is refused before any work
cp results/t.results before
"$CONTEST" --quick -n 1 -k t -d results --work-dir w --dry-run io_load >mix.out 2>mix.err
ok "a suite without --io-sync on a label with synced io_load runs is refused" test $? -ne 0
ok "... naming --io-sync and the label" grep -q "label t already holds io_load runs with --io-sync" mix.err
ok "... adding nothing to the results" cmp -s before results/t.results
"$CONTEST" --quick -n 1 -k t -d results --work-dir w --dry-run --io-sync io_load read_load \
	>mix2.out 2>mix2.err
ok "with --io-sync the same label is accepted" test $? -eq 0

done_testing
