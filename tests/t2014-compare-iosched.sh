#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 13's acceptance: contest compare --vary iosched=mq-deadline,bfq
# io_load runs, records the work disk's scheduler in every run, and restores
# the one found at the start, also after SIGTERM.  Two rounds (issue 13 ran
# 4): each configuration is set, recorded and left twice, in turn; 4 rounds
# cost the test suite half a minute more and test nothing 2 do not.  It changes the disk's I/O
# scheduler for the whole machine while it runs: it runs after the tests that
# measure, beside t4008 only (Makefile.am), which cares for swap, not disks.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"
mkdir run || exit 99
q=$(cd run && "$CONTEST" env | sed -n 's/^work_dev: *//p')
[ -n "$q" ] && [ "$q" != absent ] || skip_all "the work directory is on no block device"
f=/sys/block/$q/queue/scheduler
[ -r "$f" ] || f=$(dirname "$(readlink -f "/sys/class/block/$q")")/queue/scheduler
[ -r "$f" ] || skip_all "no I/O scheduler file for $q"
[ "$(id -u)" = 0 ] && [ -w "$f" ] || skip_all "changing $f needs root"
for s in mq-deadline bfq; do
	grep -qw "$s" "$f" || skip_all "$f does not offer $s ($(cat "$f"))"
done
now() { sed 's/.*\[\(.*\)\].*/\1/' "$f"; }
s0=$(now)

(cd run && "$CONTEST" compare --vary iosched=mq-deadline,bfq -n 2 --quick --scale 2 --lead-time 0.2 \
	--io-size 64M io_load >../cmp.out 2>../cmp.err)
ok_eq "the comparison exits 0" "$?" 0
ok_eq "the scheduler is back to $s0" "$(now)" "$s0"
ok_eq "8 valid runs" "$(grep -c ' valid$' cmp.err)" 8
r=run/contest-results
ok_eq "mq-deadline's runs observed mq-deadline" \
	"$(grep '^run ' "$r/iosched%3Dmq-deadline.results" | grep -c ' observed.io_scheduler=mq-deadline ')" 4
ok_eq "bfq's observed bfq" \
	"$(grep '^run ' "$r/iosched%3Dbfq.results" | grep -c ' observed.io_scheduler=bfq ')" 4
ok "the table has both rows" \
	sh -c "grep -q '^iosched=mq-deadline ' cmp.out && grep -q '^iosched=bfq ' cmp.out"

# --- restored after SIGTERM --------------------------------------------------------
other=bfq
[ "$s0" = bfq ] && other=mq-deadline
is_other() { [ "$(now)" = "$other" ]; }
back() { [ "$(now)" = "$s0" ]; }
(cd run && exec "$CONTEST" compare --vary iosched=mq-deadline,bfq -n 4 --quick --scale 2 \
	--io-size 64M -d term io_load >../term.out 2>../term.err) &
pid=$!
wait_until is_other
ok "SIGTERM: contest set $other" is_other
kill -TERM $pid
wait $pid
ok_eq "SIGTERM: contest exits 143" "$?" 143
ok_eq "SIGTERM: the scheduler is back to $s0" "$(now)" "$s0"

done_testing
