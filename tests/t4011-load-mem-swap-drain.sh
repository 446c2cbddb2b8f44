#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# t4011-load-mem-swap-drain.sh - what mem_load pushed to swap does not carry
# into the next run (issue 46 point 7).  In a small machine (a memory
# cgroup of 2 GiB, as t4008) with --swap zram, a process of 100 MiB that
# sleeps (perl) is pushed out to swap by mem_load and stays there after it;
# contest drains the swap before the next run (swapoff and swapon of its
# device, RAM taking it back with the reserve to spare) and that run's record
# says so (swap_drain).  A cmd build reads the sleeper's VmSwap as each run's
# build starts: above 0 beside mem_load, 0 in the noload after it.  Only the
# run after a mem_load has the field; nothing of --swap is left after.  When
# RAM cannot take it back the drain is refused (unit-swap, swap_drain_fits).
# Like t4008 it needs root, zram and a machine without swap, and turns swap
# on for the whole machine: it runs right after t4008 (Makefile.am).
. "$TOP_SRCDIR/tests/lib.sh"

[ "$(id -u)" = 0 ] || skip_all "--swap zram needs root"
[ -r /sys/class/zram-control/hot_add ] ||
	skip_all "zram is not available here (no /sys/class/zram-control/hot_add)"
[ -z "$(awk 'NR > 1' /proc/swaps)" ] || skip_all "the machine has swap: --swap zram refuses"
command -v perl >/dev/null || skip_all "perl is not installed: no sleeper to push out"
need_spare_mem 2048
memcg_make $((2048 * 1048576)) || skip_all "no memory cgroup (v1) to make a small machine in"

before=$(zrams)
sleeper=
rescue() {	# should the test fail half-way: no sleeper, swap, device or cgroup left
	[ -n "$sleeper" ] && kill "$sleeper" 2>/dev/null
	zram_rescue "$before"
	memcg_remove
	rm -rf "$T_DIR"
}
trap rescue EXIT

mkdir tree run || exit 99
top=$(pwd -P)
# the sleeper: 100 MiB of its own, idle, in the small machine
(memcg_run perl -e '$x = "a" x (100 << 20); open(F, ">", $ARGV[0]); close(F); sleep 600' \
	"$top/ready") &
sleeper=$!
wait_until test -e ready
ok "the sleeper holds 100 MiB or more" \
	test "$(awk '$1 == "VmRSS:" { print $2 }' /proc/$sleeper/status)" -ge 102400

# each build first notes the sleeper's VmSwap (KiB), one line a run
(cd run && memcg_run "$CONTEST" -w "cmd:$top/tree" --clean-cmd true \
	--build-cmd "awk '\$1 == \"VmSwap:\" { print \$2 }' /proc/$sleeper/status >>'$top/vmswap'; sleep 1" \
	--swap zram:3G --mem-size 2G --lead-time 0.5 --no-probe -n 2 -k drain noload mem_load \
	>../suite.out 2>../suite.err) &
wait $!
ok_eq "the suite (-n 2 noload mem_load, --swap zram:3G): exit status" "$?" 0
R=run/contest-results/drain.results
rec() {	# rec N: the N-th run record
	grep '^run ' "$R" | sed -n "${1}p"
}
field() {	# field KEY N: KEY of the N-th run record, %20 as a space
	rec "$2" | tr ' ' '\n' | sed -n "s/^$1=//p" | sed 's/%20/ /g; s/%3A/:/g'
}
sw() {	# sw N: the sleeper's VmSwap as the N-th run's build began (after the warm-up's)
	sed -n "$(($1 + 1))p" vmswap
}
echo "# runs: $(grep '^run ' "$R" | sed 's/.* type=\([a-z_]*\) .*/\1/' | tr '\n' ' ')" >&2
echo "# the sleeper's VmSwap at each build, the warm-up's first: $(tr '\n' ' ' <vmswap) KiB" >&2
ok_eq "four runs: noload, mem_load, noload, mem_load" \
	"$(grep '^run ' "$R" | sed 's/.* type=\([a-z_]*\) .*/\1/' | tr '\n' ' ')" \
	"noload mem_load noload mem_load "
ok "round 1's mem_load paged (pswpout $(field pswpout 2))" test "$(field pswpout 2)" -gt 0
ok "and pushed the sleeper out to swap (VmSwap $(sw 2) KiB as the build began)" \
	test "$(sw 2)" -gt 0
ok "round 2's noload record: swap_drain, contest's device drained ($(field swap_drain 3))" \
	sh -c "echo '$(field swap_drain 3)' | grep -qx 'zram (--swap) [0-9.]* [KMG]iB drained'"
ok_eq "round 2's noload began with the sleeper back in RAM (VmSwap KiB)" "$(sw 3)" 0
ok "stderr says what was drained" \
	grep -q "after mem_load, swap: zram (--swap) [0-9.]* [KMG]iB drained" suite.err
ok_eq "the first runs and the last have no swap_drain: only the run after a mem_load" \
	"$(field swap_drain 1)$(field swap_drain 2)$(field swap_drain 4)" ""
ok "the runs are valid" test "$(grep -c '^run .* valid=1 ' "$R")" = 4
ok_eq "no swap is left on" "$(swaps)" ""
ok_eq "/sys/block/zram* as before" "$(zrams)" "$before"
kill "$sleeper" && wait "$sleeper" 2>/dev/null
sleeper=

done_testing
