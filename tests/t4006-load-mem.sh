#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# t4006-load-mem.sh - mem_load: without swap to hold the excess, its size
# never exceeds MemAvailable minus the reserve (max(1 GiB, 10% of MemTotal));
# it touches the memory it says and no more; an explicit --mem-size beyond
# the bound is refused; at full size, in a 2 GiB memory cgroup, it sizes
# itself to the cgroup and is not OOM-killed.
. "$TOP_SRCDIR/tests/lib.sh"

W=$T_DIR/w
GiB=1073741824

meminfo() {	# meminfo KEY: bytes
	awk -v k="$1:" '$1 == k { printf "%.0f\n", $2 * 1024 }' /proc/meminfo
}

fmt() {	# fmt BYTES: as src/lib/util.c format_size() writes it
	awk -v b="$1" 'BEGIN { split("B KiB MiB GiB TiB", u, " "); i = 1
		while (b >= 1024 && i < 5) { b /= 1024; i++ }
		if (i == 1) printf "%d B\n", b; else printf "%.1f %s\n", b, u[i] }'
}

bytes() {	# bytes NUMBER UNIT: "20.6" "GiB" -> bytes
	awk -v v="$1" -v u="$2" 'BEGIN { m["B"] = 1; m["KiB"] = 2 ^ 10; m["MiB"] = 2 ^ 20
		m["GiB"] = 2 ^ 30; m["TiB"] = 2 ^ 40; printf "%.0f\n", v * m[u] }'
}

le() {	# le A B: A <= B
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'
}

here() {	# here FILE: what `contest list` says mem_load uses here
	sed -n '/^mem_load /{n;s/.*here: //p;}' "$1"
}

after() {	# after WORD TEXT: the size after WORD in TEXT, in bytes
	# shellcheck disable=SC2046
	set -- $(echo "$2" | sed -n "s/.*$1 \([0-9.]*\) \([KMGT]*i*B\).*/\1 \2/p")
	[ $# = 2 ] && bytes "$1" "$2"
}

total=$(meminfo MemTotal) swap=$(meminfo SwapFree)
if [ -z "$total" ] || [ "$total" = 0 ]; then
	skip_all "no MemTotal in /proc/meminfo"
fi
need_spare_mem 1024
reserve=$((total / 10))
[ "$reserve" -lt "$GiB" ] && reserve=$GiB

# ---- the size it chooses ---------------------------------------------------

avail1=$(meminfo MemAvailable)
"$CONTEST" list >list.out 2>err
rc=$?
avail2=$(meminfo MemAvailable)
ok_eq "contest list: exit status" "$rc" 0
line=$(here list.out)
ok "contest list shows mem_load's size ($line)" \
	sh -c 'echo "$1" | grep -Eq "^[0-9.]+ (B|KiB|MiB|GiB|TiB) \("' sh "$line"
# shellcheck disable=SC2086
size=$(set -- $line; [ $# -ge 2 ] && bytes "$1" "$2")
shown_avail=$(after MemAvailable "$line")
shown_reserve=$(after reserve "$line")
ok_eq "the reserve it shows is max(1 GiB, 10% of MemTotal)" \
	"$(fmt "${shown_reserve:-0}")" "$(fmt "$reserve")"
avail=$avail1
[ "$avail2" -gt "$avail" ] && avail=$avail2
want=$((total / 10 * 11))
if [ $((want - (avail - reserve))) -gt "$swap" ]; then
	# 0.05 of a unit either way: the sizes are shown to one decimal
	ok "without swap for the excess, size $(fmt "${size:-0}") <= MemAvailable $(fmt "$avail") - reserve $(fmt "$reserve")" \
		le "${size:-1e99}" "$((avail - reserve + 64 * 1048576))"
	ok "and <= the MemAvailable it shows minus the reserve it shows" \
		le "${size:-1e99}" "$((${shown_avail:-0} - ${shown_reserve:-0} + 128 * 1048576))"
	ok "it says that it is bounded" sh -c 'echo "$1" | grep -q bounded' sh "$line"
else
	ok_eq "swap holds the excess: 110% of MemTotal" "$(fmt "${size:-0}")" "$(fmt "$want")"
	skip "the bound: SwapFree $(fmt "$swap") holds 110% of RAM here"
	skip "the bound as shown: swap holds the excess"
fi

"$CONTEST" list --quick >list.out 2>err
line=$(here list.out)
if [ $((avail - reserve)) -gt $((512 * 1048576)) ]; then
	ok_eq "contest list --quick: 256 MiB" "${line%% (*}" "256.0 MiB"
else
	skip "less than 512 MiB to spare: --quick is bounded here"
fi

# ---- a run: it touches what it says ------------------------------------------

"$CONTEST" load mem_load -t 3 --mem-size 512M --work-dir "$W" >out 2>err &
pid=$!
min_avail=$(meminfo MemAvailable) max_rss=0
while kill -0 "$pid" 2>/dev/null; do
	a=$(meminfo MemAvailable)
	[ "$a" -lt "$min_avail" ] && min_avail=$a
	for p in $(pgrep -x -P "$pid" mem_load); do
		r=$(awk '$1 == "VmRSS:" { print $2 * 1024 }' "/proc/$p/status" 2>/dev/null)
		[ -n "$r" ] && [ "$r" -gt "$max_rss" ] && max_rss=$r
	done
	sleep 0.1
done
wait "$pid"
ok_eq "contest load mem_load -t 3 --mem-size 512M: exit status" "$?" 0
work=$(sed -n 's/^work: *//p' out | awk '{ print $1 }')
ok "it did work ($work passes)" awk -v w="${work:-0}" 'BEGIN { exit !(w > 0) }'
rate=$(sed -n 's/^rate: *//p' out | awk '{ print $1 }')
mbs=$(sed -n 's/^natural: *\([0-9.]*\) MB\/s$/\1/p' out)
ok "one pass is 536.9 MB ($rate passes/s, ${mbs:-no} MB/s)" awk -v r="${rate:-0}" \
	-v m="${mbs:-0}" 'BEGIN { d = m - r * 536.870912; exit !(r > 0 && d * d <= (m / 100) ^ 2 + 1) }'
ok "the load process touched all 512 MiB (RSS up to $(fmt "$max_rss"))" \
	le $((512 * 1048576)) "$max_rss"
ok "and not much more" le "$max_rss" $((544 * 1048576))
ok "MemAvailable stayed above the reserve (lowest $(fmt "$min_avail"))" \
	le "$reserve" "$min_avail"

# At full size, on a machine of 2 GiB (a memory cgroup: the test never takes
# the real machine's memory): mem_load sizes itself to what the cgroup can
# spare (room under its limit less a reserve of 1 GiB), touches it all, and
# is not OOM-killed; the room left never falls below half the reserve.
if memcg_make $((2 * GiB)); then
	memcg_run "$CONTEST" load mem_load -t 2 --work-dir "$W" >out 2>err &
	pid=$!
	min_room=$(memcg_room) max_rss=0
	while kill -0 "$pid" 2>/dev/null; do
		a=$(memcg_room)
		[ "$a" -lt "$min_room" ] && min_room=$a
		for p in $(pgrep -x -P "$pid" mem_load); do
			r=$(awk '$1 == "VmRSS:" { print $2 * 1024 }' "/proc/$p/status" 2>/dev/null)
			[ -n "$r" ] && [ "$r" -gt "$max_rss" ] && max_rss=$r
		done
		sleep 0.1
	done
	wait "$pid"
	ok_eq "at full size in a 2 GiB cgroup: exit status (not OOM-killed)" "$?" 0
	ok "it did work" grep -q '^work: *[0-9.]*[1-9]' out
	ok "it touched at least 512 MiB (RSS up to $(fmt "$max_rss"))" le $((512 * 1048576)) "$max_rss"
	ok "the cgroup kept at least half the reserve (lowest room $(fmt "$min_room"))" \
		le $((GiB / 2)) "$min_room"
	memcg_remove
else
	skip "no memory cgroup (v1) to make a 2 GiB machine in: mem_load at full size not run"
	skip "no memory cgroup: no work at full size"
	skip "no memory cgroup: no RSS at full size"
	skip "no memory cgroup: no room at full size"
fi

# ---- refusals -----------------------------------------------------------------

big=$(((total + swap) / GiB + 2))G
"$CONTEST" load mem_load -t 1 --mem-size "$big" --work-dir "$W" >out 2>err
rc=$?
ok "--mem-size $big (more than RAM and swap) is refused (exit $rc)" test "$rc" -ne 0
ok "the refusal names --mem-size and the bound" grep -q -- "--mem-size.*at most" err
# some process always has pages resident (the shell running this test), so
# a refusal for memory always says what holds the most
ok "and what holds the most memory, by name, pid and size" \
	grep -q "the most resident now: [^ ]* (pid [1-9][0-9]*, [0-9.]* [KMGT]*i*B)" err
ok "no load was started" sh -c '! grep -q starting err && [ ! -s out ]'

for bad in 0 512 lots 2000000T; do
	"$CONTEST" load mem_load -t 1 --mem-size "$bad" --work-dir "$W" >out 2>err
	ok_eq "--mem-size $bad: exit status" "$?" 2
	ok "--mem-size $bad: the message names --mem-size" grep -q -- "--mem-size" err
done

done_testing
