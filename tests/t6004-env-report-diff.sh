#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `contest env` shows what a run records, each field checked against the
# machine (or "absent" where the machine does not show it); `contest report`
# names, under the tables, every field in which the compared rows differ:
# the environment, the flush of their runs and the sizes their loads used.
. "$TOP_SRCDIR/tests/lib.sh"

"$CONTEST" env >env 2>err
ok_eq "contest env exits 0" "$?" 0
ok "nothing on stderr" test ! -s err
ok "every line is 'key: value'" sh -c "! grep -v -q '^[a-z_]*: .*' env"
get() { sed -n "s/^$1: *//p" env; }
# what a sysfs or procfs file holds, or absent
file_or_absent() { if [ -r "$1" ] && v=$(cat "$1" 2>/dev/null); then printf '%s\n' "$v"; else echo absent; fi; }
bracket() { sed 's/.*\[\(.*\)\].*/\1/'; }

ok_eq "kernel: uname -r" "$(get kernel)" "$(uname -r)"
ok_eq "kernel_version: uname -v" "$(get kernel_version)" "$(uname -v)"
ok_eq "cmdline: /proc/cmdline" "$(get cmdline)" "$(cat /proc/cmdline)"
ok_eq "boot_id: this boot's" "$(get boot_id)" "$(cat /proc/sys/kernel/random/boot_id)"
ok_eq "cpu_model: /proc/cpuinfo" "$(get cpu_model)" \
	"$(sed -n 's/^model name[[:space:]]*: *//p' /proc/cpuinfo | head -n 1)"
ok_eq "ncpus: online CPUs" "$(get ncpus)" "$(getconf _NPROCESSORS_ONLN)"
ok_eq "cpus_online: the online list" "$(get cpus_online)" \
	"$(file_or_absent /sys/devices/system/cpu/online)"
ok_eq "cpus_configured" "$(get cpus_configured)" "$(getconf _NPROCESSORS_CONF)"
ok_eq "smt_control" "$(get smt_control)" "$(file_or_absent /sys/devices/system/cpu/smt/control)"
ok_eq "smt_active" "$(get smt_active)" "$(file_or_absent /sys/devices/system/cpu/smt/active)"
gov=$(file_or_absent /sys/devices/system/cpu/cpu0/cpufreq/scaling_governor)
if [ "$gov" = absent ]; then
	ok_eq "cpufreq_governor: absent here" "$(get cpufreq_governor)" absent
else
	ok "cpufreq_governor: has cpu0's $gov" sh -c "echo ',$(get cpufreq_governor),' | grep -q ',$gov,'"
fi
ok_eq "mem_total: MemTotal in bytes" "$(get mem_total)" \
	"$(awk '/^MemTotal:/ { printf "%.0f\n", $2 * 1024 }' /proc/meminfo)"
ok_eq "swap_total: SwapTotal in bytes" "$(get swap_total)" \
	"$(awk '/^SwapTotal:/ { printf "%.0f\n", $2 * 1024 }' /proc/meminfo)"
thp=$(file_or_absent /sys/kernel/mm/transparent_hugepage/enabled)
[ "$thp" = absent ] || thp=$(echo "$thp" | bracket)
ok_eq "thp: the bracketed mode" "$(get thp)" "$thp"
ok_eq "autogroup" "$(get autogroup)" "$(file_or_absent /proc/sys/kernel/sched_autogroup_enabled)"
ok_eq "sched_ext: the state, or absent" "$(get sched_ext)" "$(file_or_absent /sys/kernel/sched_ext/state)"
ok_eq "sched_ext_ops: the scheduler, or absent" "$(get sched_ext_ops)" \
	"$(file_or_absent /sys/kernel/sched_ext/root/ops)"
if [ -r /sys/kernel/debug/sched/preempt ]; then
	ok_eq "preempt: from debugfs" "$(get preempt)" \
		"$(sed 's/.*(\(.*\)).*/\1/' /sys/kernel/debug/sched/preempt)"
elif grep -q '\(^\| \)preempt=' /proc/cmdline; then
	ok "preempt: from the command line" sh -c "'$CONTEST' env | grep -q '^preempt: .* (preempt= on the command line)'"
else
	case " $(uname -v) " in
	*" PREEMPT_RT "*) want="rt (uname -v)" ;;
	*" PREEMPT_DYNAMIC "*) want="dynamic, mode not shown (uname -v)" ;;
	*" PREEMPT "*) want="full (uname -v)" ;;
	*) want="none or voluntary (uname -v)" ;;
	esac
	ok_eq "preempt: from uname -v" "$(get preempt)" "$want"
fi
if command -v "${CC:-cc}" >/dev/null; then
	ok_eq "cc: the compiler's first line" "$(get cc)" "$(${CC:-cc} --version | head -n 1)"
else
	ok_eq "cc: absent" "$(get cc)" absent
fi

# the device holding the work directory
mkdir wd
ok_eq "work_dir: the work directory, absolute" \
	"$("$CONTEST" env --work-dir wd | sed -n 's/^work_dir: *//p')" "$(cd wd && pwd -P)"
ok_eq "a work directory not made yet: its nearest parent" \
	"$("$CONTEST" env --work-dir wd/not/yet | sed -n 's/^work_dir: *//p')" "$(cd wd && pwd -P)"
"$CONTEST" env --work-dir wd >envwd
get() { sed -n "s/^$1: *//p" envwd; }
if command -v findmnt >/dev/null; then
	ok_eq "work_fs: the file system type" "$(get work_fs)" "$(findmnt -n -o FSTYPE -T wd | tail -n 1)"
else
	skip "findmnt is not installed"
fi
dev=$(stat -c '%Hd:%Ld' wd)
if [ -e "/sys/dev/block/$dev" ]; then
	sched=/sys/dev/block/$dev/queue/scheduler
	[ -r "$sched" ] || sched=/sys/dev/block/$dev/../queue/scheduler
	ok_eq "work_dev: the block device" "$(get work_dev)" "$(basename "$(readlink -f /sys/dev/block/$dev)")"
	ok_eq "io_scheduler: the bracketed one" "$(get io_scheduler)" "$(bracket <"$sched")"
else
	skip "the work directory is on no block device of its own ($dev)"
	skip "no I/O scheduler to compare"
fi
if [ "$(findmnt -n -o FSTYPE -T /dev/shm 2>/dev/null | head -n 1)" = tmpfs ]; then
	"$CONTEST" env --work-dir /dev/shm >envshm
	ok "on tmpfs: work_fs tmpfs, no device, no scheduler" sh -c \
		"grep -q '^work_fs: *tmpfs\$' envshm && grep -q '^work_dev: *absent\$' envshm && grep -q '^io_scheduler: *absent\$' envshm"
else
	skip "no tmpfs at /dev/shm"
fi

# ---- a suite records the same fields -------------------------------------------
mkdir proj
run() { "$CONTEST" -w cmd:proj --build-cmd true --clean-cmd true -n 1 --work-dir wd2 -d res "$@" noload >/dev/null 2>&1; }
run -k a -j 2
ok_eq "a quick suite exits 0" "$?" 0
for k in kernel kernel_version cmdline boot_id cpu_model ncpus cpus_online cpus_configured smt_control \
	smt_active cpufreq_governor mem_total swap_total thp work_fs work_dev io_scheduler \
	autogroup sched_ext sched_ext_ops preempt cc; do
	ok "the env record has $k" grep -q "^env .* $k=[^ ]" res/a.results
done

# ---- report: what differs between the rows -----------------------------------
run -k b -j 1
run -k c -j 2 --load-nice 5
"$CONTEST" report -d res a b >rep 2>err
ok_eq "report a b exits 0" "$?" 0
ok "the tables come first" grep -q "^a (base)  *\[1\] " rep
sed -n '/^Measured differently (besides the kernel):$/,$p' rep >diffs
ok_eq "under them, one line: the -j each label ran with" "$(cat diffs)" \
	"Measured differently (besides the kernel):
jobs: a 2, b 1"
"$CONTEST" report -d res a c >rep 2>err
ok_eq "report a c: the nice of the loads, and nothing else" \
	"$(sed -n '/^Measured differently/,$p' rep)" "Measured differently (besides the kernel):
load_nice: a 0, c 5"
"$CONTEST" report -d res >rep 2>err
ok "three labels: every value named" grep -q "^jobs: a 2, b 1, c 2\$" rep
run -k e -j 2
run -k e -j 2 --load-nice 5
"$CONTEST" report -d res e >rep 2>err
ok "one label, two sessions alike but for load_nice: one row of both" grep -q "^e  *\[2\] " rep
ok "and a line says the sessions differ" grep -q "^load_nice: e 0 / 5\$" rep
run -k d -j 2
"$CONTEST" report -d res a d >rep 2>err
ok "rows measured alike: no such lines" sh -c "! grep -q 'Measured differently' rep"
ok "but, alike in one boot of one kernel, a line says so (a forgotten reboot?)" \
	grep -q "^a and d were measured in one boot of one kernel, " rep
sed '/^a and d were measured in one boot/,$d' rep >rep.tables
ok_eq "and else nothing but the table (title, header, two rows), the probe's p99 line and the legend: one run a side" \
	"$(grep -c . rep.tables):$(sed -n 5p rep.tables | cut -d: -f1):$(tail -n 1 rep.tables)" \
	"6:Latency p99 (ms), audio/video:No significance test against a: fewer than 2 valid runs on a side"

# ---- the flush, as the env record names it ------------------------------------------
# contest flushes with drop_caches where it can write it, else with fadvise
if [ -w /proc/sys/vm/drop_caches ]; then flush=drop_caches; else flush='fadvise%20(partial:'; fi
ok "the env record names the flush ($flush)" grep -q "^env .* flush=$flush" res/a.results
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null && [ -w /proc/sys/vm/drop_caches ]; then
	# the same suite as nobody, where drop_caches is not writable
	# nobody's own directory (contest refuses one another user can write),
	# and root's suite beside it in a directory of root's
	chmod 711 "$T_DIR" && mkdir -p shared/proj && chown -R 65534:65534 shared
	nobody() { (cd shared && setpriv --reuid 65534 --regid 65534 --clear-groups "$CONTEST" "$@"); }
	nobody --dry-run -w cmd:proj --build-cmd true --clean-cmd true -n 1 --work-dir wd -d res \
		-k user noload >plan 2>&1
	ok "not root: the plan says the flush is partial" \
		grep -q "^    flush is partial: only those files leave the page cache" plan
	nobody -w cmd:proj --build-cmd true --clean-cmd true -n 1 --work-dir wd -d res \
		-k user noload >/dev/null 2>&1
	ok_eq "a suite as nobody exits 0" "$?" 0
	"$CONTEST" -w cmd:shared/proj --build-cmd true --clean-cmd true -n 1 --work-dir wd-admin \
		-d res-admin -k admin noload >/dev/null 2>&1
	ok_eq "and as root" "$?" 0
	ok "nobody's env record: fadvise, partial" grep -q "^env .* flush=fadvise%20(partial:" shared/res/user.results
	"$CONTEST" report -d shared/res -d res-admin admin user >rep 2>err
	ok "report: a root and a non-root flush measured differently" sh -c 'grep -qx "flush:" rep &&
		grep -qx "  admin  drop_caches" rep &&
		grep -qx "  user   fadvise (partial: the tree and work files only)" rep'
else
	skip "not root with setpriv and a writable drop_caches: no suite of both kinds"
	skip "no root suite"
	skip "no root suite"
	skip "no root suite"
	skip "no root suite"
fi

# ---- the sizes a load used: two labels whose --io-size differ -----------------------
# (the workload a half-second sleep, as proj's above: what is recorded here
# is the load's, and a compile would only burn CPU; io_load writes a 1 or
# 2 MiB file many times over in the lead time and the half second)
qrun() { "$CONTEST" -w cmd:proj --build-cmd 'sleep 0.5' --clean-cmd true --quick \
	--lead-time 0.5 -n 1 --work-dir wd3 -d res3 "$@" >/dev/null 2>&1; }
qrun -k small --io-size 1M io_load
ok_eq "a quick io_load suite with --io-size 1M exits 0" "$?" 0
qrun -k large --io-size 2M io_load
ok_eq "and one with --io-size 2M" "$?" 0
ok_eq "its io_load run records the file size it was given" \
	"$(grep '^run .* type=io_load ' res3/large.results | grep -c ' valid=1 .* load\.file_size=2097152 ')" 1
ok "its noload run records no load size" sh -c "! grep '^run .* type=noload ' res3/large.results | grep -q ' load\.'"
ok "a --quick suite's record says so (quick=1)" grep -q "^env .* quick=1 " res3/large.results
ok "one without it has no quick=" sh -c "! grep -q ' quick=' res/a.results"
"$CONTEST" report -d res3 --header small large >hdr3 2>err
ok "report --header: --quick, io_load's unit and its size, not alike" sh -c '
	grep -qx "Suite: --quick (a smoke run: the workload and the loads made small)" hdr3 &&
	grep -qx "  io_load  one complete file (file_size not alike)" hdr3'
"$CONTEST" report -d res3 small large >rep3 2>err
ok_eq "report lists the load-size difference, and nothing else (small, named first, the baseline first)" \
	"$(sed -n '/^Measured differently/,$p' rep3)" "Measured differently (besides the kernel):
io_load file_size: small 1.0 MiB, large 2.0 MiB"

done_testing
