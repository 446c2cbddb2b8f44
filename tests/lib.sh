# SPDX-License-Identifier: GPL-2.0-or-later
# lib.sh - shared helpers for the end-to-end tests; prints TAP.
# Each test sources this, works in its own scratch directory (removed on
# exit) and ends with `done_testing`.

set -u
: "${CONTEST:?run the tests through make check}"
: "${TOP_SRCDIR:?run the tests through make check}"

T_N=0
T_FAILED=0
T_DIR=$(mktemp -d "${TMPDIR:-/tmp}/ctest.XXXXXX") || exit 99
T_MEMCG=
trap 'memcg_remove; rm -rf "$T_DIR"' EXIT
# killed (a time limit passed, tests/timeout.sh; or Ctrl-C): the EXIT trap,
# the test's own if it set one, still cleans up
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
cd "$T_DIR" || exit 99

ok() {	# ok DESCRIPTION COMMAND...: passes when the command succeeds
	desc=$1; shift
	T_N=$((T_N + 1))
	if "$@" >"$T_DIR/.out" 2>&1; then
		echo "ok $T_N - $desc"
	else
		echo "not ok $T_N - $desc"
		sed 's/^/#   /' "$T_DIR/.out" | head -40
		T_FAILED=$((T_FAILED + 1))
	fi
}

ok_eq() {	# ok_eq DESCRIPTION GOT WANT
	T_N=$((T_N + 1))
	if [ "$2" = "$3" ]; then
		echo "ok $T_N - $1"
	else
		echo "not ok $T_N - $1"
		printf '#   got:  %s\n#   want: %s\n' "$2" "$3"
		T_FAILED=$((T_FAILED + 1))
	fi
}

# The scans below are one find(1) over /proc, not a readlink per process: a
# test polls them, and on a busy machine a fork per process of the machine,
# every 20 ms, is what made the whole suite slow.
glob_quote() {	# glob_quote STRING: STRING as a find -lname pattern of itself
	printf '%s\n' "$1" | sed 's/[][*?\\]/\\&/g'
}

procs_in() {	# procs_in DIR: processes whose working directory is DIR or below it
	_q=$(glob_quote "$1")
	find /proc/[0-9]*/cwd -maxdepth 0 \( -lname "$_q" -o -lname "$_q/*" \) 2>/dev/null |
		cut -d/ -f3
}

contest_in() {	# contest_in DIR [PROGRAM]: the contest process (not one of its
		# forks) working in DIR or below it, whatever shell or script
		# started it; PROGRAM: its path, $CONTEST unless told
	_in=$(procs_in "$1")
	[ -n "$_in" ] || return 1
	_c=${2:-$CONTEST}
	_q=$(glob_quote "$_c")
	# shellcheck disable=SC2046
	for _p in $(cd /proc && find $(printf '%s/exe ' $_in) -maxdepth 0 -lname "$_q" \
		2>/dev/null | cut -d/ -f1); do
		_pp=$(awk '{ print $4 }' "/proc/$_p/stat" 2>/dev/null)
		[ "$(readlink "/proc/$_pp/exe" 2>/dev/null)" = "$_c" ] && continue
		echo "$_p"
		return 0
	done
	return 1
}

wait_until() {	# wait_until COMMAND...: poll (up to 60 s) until it succeeds
	_w=0
	until "$@" 2>/dev/null; do
		[ $_w -ge 3000 ] && return 1
		sleep 0.02
		_w=$((_w + 1))
	done
}

skip_all() {	# skip_all REASON: the whole test cannot run here
	echo "1..0 # SKIP $*"
	exit 0
}

skip() {	# skip REASON: one test point that cannot run here
	T_N=$((T_N + 1))
	echo "ok $T_N # SKIP $*"
}

io_value() {	# io_value NAME FILE: the number after NAME on the io: line of
	# `contest load`'s output in FILE (the load's /proc/PID/io), or nothing
	sed -n 's/^io: *//p' "$2" | tr ' ' '\n' | sed -n "/^$1\$/{n;p;q}"
}

compare() {	# compare NAME ARGS...: contest compare of the smallest builtin
	# workload in run/, its output in NAME.out and NAME.err
	name=$1
	shift
	(cd run && exec "$CONTEST" compare --scale 2 --lead-time 0 "$@" \
		>"../$name.out" 2>"../$name.err")
}

# A small machine for a test: a memory cgroup (v1) of SIZE bytes under this
# process's own, which contest sees as the machine's memory.  memcg_make
# SIZE: 0 and $T_MEMCG set, or 1 when none can be made here (not root, no
# v1 memory controller); memcg_run COMMAND... &: run it inside, in the
# background ($! is its pid; it execs, so never in the foreground of the
# test's own shell: in ( ... ) there); memcg_room:
# the bytes left under the limit now; memcg_remove (also at exit): gone.
memcg_make() {
	_p=$(awk -F: '$2 ~ /(^|,)memory(,|$)/ { print $3 }' /proc/self/cgroup)
	[ -n "$_p" ] && [ -w "/sys/fs/cgroup/memory$_p" ] || return 1
	T_MEMCG=/sys/fs/cgroup/memory${_p%/}/ctest-$$
	mkdir "$T_MEMCG" 2>/dev/null && echo "$1" >"$T_MEMCG/memory.limit_in_bytes" ||
		{ memcg_remove; return 1; }
}
memcg_run() {
	exec sh -c 'echo $$ >"$0/cgroup.procs" && exec "$@"' "$T_MEMCG" "$@"
}
memcg_room() {
	echo $(($(cat "$T_MEMCG/memory.limit_in_bytes") - $(cat "$T_MEMCG/memory.usage_in_bytes")))
}
memcg_remove() {
	[ -n "$T_MEMCG" ] && [ -d "$T_MEMCG" ] && rmdir "$T_MEMCG" 2>/dev/null
	T_MEMCG=
}

# mem_short MIB: succeeds, printing why, when the machine has less than
# MIB of memory to spare as contest's mem_load counts it (MemAvailable minus
# a reserve of max(1 GiB, MemTotal / 10); swap not counted): something else
# holds it (another contest's mem_load, say), and a mem_load planned or
# started here would be refused.  The reason names what holds the most.
# need_spare_mem MIB: the whole test is skipped when memory is that short.
mem_short() {
	# shellcheck disable=SC2046
	set -- "$1" $(awk '$1 == "MemTotal:" { t = $2 } $1 == "MemAvailable:" { a = $2 }
		END { r = t / 10 > 1048576 ? t / 10 : 1048576
		      printf "%d %d %d\n", (a - r) / 1024, a / 1024, r / 1024 }' /proc/meminfo)
	[ "$2" -ge "$1" ] && return 1
	echo "only $2 MiB of memory to spare here now (MemAvailable $3 MiB minus a" \
		"reserve of $4 MiB), under the $1 MiB a mem_load here needs; the most" \
		"resident: $(cat /proc/[0-9]*/status 2>/dev/null | awk '
			$1 == "Name:" { n = $2 } $1 == "Pid:" { p = $2 }
			$1 == "VmRSS:" && $2 > m { m = $2; b = n " (pid " p ", " int($2 / 1024) " MiB)" }
			END { print b }')"
}
need_spare_mem() {
	_why=$(mem_short "$1") && skip_all "$_why"
	return 0
}

# For the tests of --swap zram: zrams, the zram devices (/sys/block names)
# on one line; swaps, the swap in use, a path a line; zram_rescue BEFORE
# (zrams' line before the test): swap off and remove every zram device not
# in it, should the test fail half-way.
zrams() { ls /sys/block | grep '^zram' | sort | tr '\n' ' '; }
swaps() { awk 'NR > 1 { print $1 }' /proc/swaps; }
zram_rescue() {
	for _dev in $(swaps); do
		_n=${_dev#/dev/zram}
		case " $1 " in *" zram$_n "*) continue ;; esac
		swapoff "$_dev"
		echo 1 >"/sys/block/zram$_n/reset"
		echo "$_n" >/sys/class/zram-control/hot_remove
	done
}

done_testing() {
	echo "1..$T_N"
	[ "$T_FAILED" = 0 ]
}

fault_shim() {	# fault_shim: build tests/fault-shim.c into ./fault-shim.so (an
	# LD_PRELOAD library, without the build's sanitizer flags: every child
	# of contest loads it too), or skip the whole test
	${CC:-cc} -shared -fPIC -o fault-shim.so "$TOP_SRCDIR/tests/fault-shim.c" -ldl \
		>shim.err 2>&1 || skip_all "cannot build the fault shim: $(head -1 shim.err)"
	SHIM=$T_DIR/fault-shim.so
}

# ---- contest campaign under a root prefix (CONTEST_ROOT) ------------------------
# campaign_root: a fake system in $T_DIR/root (boot_id b0, a default kernel
# 6.1-default, kernels 1.0-a, 1.0-b, 1.0-c in its /boot, systemd "running"),
# CONTEST_ROOT exported, and $T_DIR/reboot.sh, the script: method's command:
# it "reboots" into the kernel it is given ($3 of `CMD LABEL SPEC`: the
# release in CONTEST_CAMPAIGN_RELEASE) by writing a new boot_id, command
# line, release and /proc/version.  Files in root/ change what it does:
# wrong (boot that release instead), default (come back in the default
# kernel: no marker), stay (no reboot at all).  Every boot is a line of
# root/boots: "SEQ LABEL RELEASE-BOOTED".
campaign_root() {
	R=$T_DIR/root
	mkdir -p "$R/proc/sys/kernel/random" "$R/sys/kernel" "$R/boot" \
		"$R/run/systemd/system" "$R/etc/systemd/system" || exit 99
	echo b0 >"$R/proc/sys/kernel/random/boot_id"
	echo "BOOT_IMAGE=/vmlinuz root=/dev/vda ro quiet" >"$R/proc/cmdline"
	echo 6.1-default >"$R/proc/sys/kernel/osrelease"
	echo "Linux version 6.1-default #1" >"$R/proc/version"
	echo "0.00 0.00 0.00 1/100 1" >"$R/proc/loadavg"
	for k in a b c; do
		: >"$R/boot/vmlinuz-1.0-$k"
		: >"$R/boot/initrd.img-1.0-$k"
	done
	cat >"$T_DIR/reboot.sh" <<'EOS'
#!/bin/sh
R=$CONTEST_ROOT
[ -e "$R/stay" ] && exit 0
n=$(cat "$R/count" 2>/dev/null || echo 0); n=$((n + 1)); echo $n >"$R/count"
rel=$CONTEST_CAMPAIGN_RELEASE
cmd=$CONTEST_CAMPAIGN_CMDLINE
if [ -e "$R/wrong" ]; then rel=$(cat "$R/wrong"); rm -f "$R/wrong"; fi
if [ -e "$R/default" ]; then rel=6.1-default; cmd="root=/dev/vda ro quiet"; rm -f "$R/default"; fi
echo "boot-$n" >"$R/proc/sys/kernel/random/boot_id"
echo "$cmd" >"$R/proc/cmdline"
echo "$rel" >"$R/proc/sys/kernel/osrelease"
echo "Linux version $rel #1" >"$R/proc/version"
# the build id note of release's kernel: GNU, type 3, 4 bytes
printf '\004\000\000\000\004\000\000\000\003\000\000\000GNU\000%s' "$(printf %s "$rel" | tail -c 4)" \
	>"$R/sys/kernel/notes"
echo "$CONTEST_CAMPAIGN_SEQ $1 $rel" >>"$R/boots"
EOS
	chmod +x "$T_DIR/reboot.sh"
	CONTEST_ROOT=$R
	export CONTEST_ROOT
	mkdir -p "$T_DIR/run/tree" || exit 99
}

campaign() {	# campaign NAME ARGS...: contest campaign in run/, its output in
	# NAME.out and NAME.err, its exit status in $?
	_n=$1
	shift
	(cd "$T_DIR/run" && exec "${CAMPAIGN_CONTEST:-$CONTEST_HOOKED}" campaign "$@" \
		>"$T_DIR/$_n.out" 2>"$T_DIR/$_n.err")
}

campaign_plan() {	# campaign_plan NAME ARGS...: plan a campaign of a workload of
	# a fraction of a second (noload only), booted by reboot.sh; its id in $ID
	campaign "$@" --method "script:$T_DIR/reboot.sh" --settle 0 --lead-time 0 \
		--no-probe -w "cmd:$T_DIR/run/tree" --build-cmd 'sleep 0.3' --clean-cmd true \
		noload
	_st=$?
	ID=$(sed -n 's/^campaign //p' "$T_DIR/$1.out")
	return $_st
}

campaign_journal() {	# campaign_journal: the journal's phases, "SEQ:PHASE" a line
	sed 's/.* seq=\([0-9]*\) phase=\([a-z]*\) .*/\1:\2/' \
		"$R/var/lib/contest/campaign/$ID/journal"
}

campaign_until_over() {	# campaign_until_over [MAX]: resume, as the service does at
	# every boot, until the journal ends (at most MAX times, default 40);
	# the number of resumes in $RESUMES
	RESUMES=0
	while [ $RESUMES -lt "${1:-40}" ]; do
		tail -1 "$R/var/lib/contest/campaign/$ID/journal" | grep -q ' phase=end ' && return 0
		RESUMES=$((RESUMES + 1))
		campaign resume-$RESUMES resume
	done
	return 1
}

host_untouched() {	# host_untouched: no contest unit in the host's systemd, no
	# kexec kernel loaded, no campaign state on the host
	! ls /etc/systemd/system/contest-campaign.service \
		/etc/systemd/system/*/contest-campaign.service >/dev/null 2>&1 &&
	! grep -qx 1 /sys/kernel/kexec_loaded 2>/dev/null &&
	[ ! -e /var/lib/contest/campaign ]
}

within_72() {	# within_72 FILE: every line of FILE within a mail's 72 columns
	awk 'length($0) > 72 { print FILENAME ":" FNR ": " length($0) ": " $0; bad = 1 }
		END { exit bad }' "$1"
}

joined_note() {	# joined_note FILE START: the line of FILE that starts with
		# START and the lines after it indented by two spaces (a note or
		# legend wrapped for a mail), joined by a space
	awk -v s="$2" 'on && /^  / { sub(/^  /, ""); printf " %s", $0; next }
		on { exit } index($0, s) == 1 { on = 1; printf "%s", $0 }
		END { if (on) print "" }' "$1"
}
