#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Issue 46 point 10: collecting PSI does not change the contest.  For the
# build's own pressure contest runs it in a cgroup of its own below
# contest's; with cpu (or io, memory) enabled for that cgroup's children, as
# at a cgroup v2 root where it is on, the build would then be one weighted
# group against the loads' processes.  There the build stays where it was,
# beside the loads, and PSI is the machine's.  The mechanism, not a Time
# (no test asserts a timing; bench/delays.sh --type process_load --cpu-root
# times it): a cmd build writes its cgroup (/proc/self/cgroup) and a
# process_load process's, and the cpu.weight of each where there is one:
#   - with --no-delays (nothing collected): the build is where the load is;
#   - as this machine is: a cgroup of the build's own only where contest's
#     cgroup enables no controller that divides, else beside the load;
#   - with cpu enabled at the cgroup v2 root (when contest runs there and cpu
#     is free for v2; restored after): beside the load, as without PSI;
#   - tests/contest-hooked told that contest's cgroup enables cpu
#     (CONTEST_TEST_SUBTREE_CONTROL, for a machine whose cpu controller is
#     bound to cgroup v1): the same.
. "$TOP_SRCDIR/tests/lib.sh"

[ "$(id -u)" = 0 ] || skip_all "the build gets a cgroup of its own only as root"
command -v pgrep >/dev/null || skip_all "pgrep is not installed"
v2=
for m in /sys/fs/cgroup /sys/fs/cgroup/unified; do
	[ -f "$m/cgroup.controllers" ] && v2=$m && break
done
[ -n "$v2" ] || skip_all "no cgroup v2 at /sys/fs/cgroup or /sys/fs/cgroup/unified"
rel=$(sed -n 's/^0:://p' /proc/self/cgroup)
home=$v2${rel%/}
[ -w "$home/cgroup.procs" ] || skip_all "contest's cgroup $home is not writable"

enabled=
restore() {
	[ -n "$enabled" ] && echo "-cpu" >"$v2/cgroup.subtree_control"
	rm -rf "$T_DIR"
}
trap restore EXIT

mkdir tree run || exit 99
top=$(pwd -P)
# the build: its cgroup, a load process's (contest's child, named after its
# load) and each one's cpu.weight ("-": none), one line
cat >probe.sh <<'EOF'
b=$(sed -n 's/^0:://p' /proc/self/cgroup)
l=- lw=-
for p in $(pgrep -x -P "$PPID" process_load); do
	l=$(sed -n 's/^0:://p' /proc/$p/cgroup)
	break
done
bw=$(cat "$V2${b%/}/cpu.weight" 2>/dev/null || echo -)
[ "$l" = - ] || lw=$(cat "$V2${l%/}/cpu.weight" 2>/dev/null || echo -)
echo "$b $l $bw $lw" >"$OUT"
EOF

# position LABEL BINARY [OPTIONS]: a process_load run of the probe build;
# "BUILD LOAD BUILD_WEIGHT LOAD_WEIGHT" of it in LABEL.pos, its record's
# psi_scope in LABEL.scope
position() {
	_l=$1 _b=$2
	shift 2
	(cd run && V2=$v2 OUT=$top/$_l.pos exec "$_b" -w "cmd:$top/tree" \
		--build-cmd ". '$top/probe.sh'; sleep 0.3" --clean-cmd true --lead-time 0.3 \
		-n 1 --no-probe --procs 2 -k "$_l" "$@" process_load >"../$_l.out" 2>"../$_l.err")
	ok_eq "$_l: the suite exits 0" "$?" 0
	sed -n "/^run .* type=process_load /s/.* psi_scope=\([a-z]*\).*/\1/p" \
		"run/contest-results/$_l.results" >"$_l.scope"
	echo "# $_l: $(cat "$_l.pos" 2>/dev/null), psi_scope $(cat "$_l.scope")" >&2
}
build_of() { cut -d' ' -f1 "$1.pos" 2>/dev/null; }
load_of() { cut -d' ' -f2 "$1.pos" 2>/dev/null; }
beside() {	# beside LABEL: the build and the load in one cgroup, that of contest
	ok_eq "$1: the build is in contest's cgroup ($rel)" "$(build_of "$1")" "$rel"
	ok_eq "$1: and so is the load" "$(load_of "$1")" "$rel"
}

# --- without PSI: where they start -------------------------------------------
position none "$CONTEST" --no-delays
beside none

# --- as this machine is ----------------------------------------------------------
subtree=$(cat "$home/cgroup.subtree_control" 2>/dev/null)
position found "$CONTEST"
if [ -z "$(echo "$subtree" | tr ' ' '\n' | grep -vx -e '' -e cpuset -e hugetlb -e misc \
	-e perf_event -e pids -e rdma)" ]; then
	ok_eq "found (children get '$subtree'): the build in a cgroup of its own" \
		"$(build_of found)" "${rel%/}/contest-build-$(sed -n 's/.* session=[0-9]*-\([0-9]*\) .*/\1/p' \
		run/contest-results/found.results | head -1)"
	ok_eq "found: the load where it started" "$(load_of found)" "$rel"
	ok_eq "found: the build's cgroup has no cpu.weight: it is no group of the scheduler's" \
		"$(cut -d' ' -f3 found.pos)" -
	ok_eq "found: PSI is the build's cgroup's" "$(cat found.scope)" cgroup
else
	beside found
	ok_eq "found (children get '$subtree'): PSI is the machine's" "$(cat found.scope)" machine
	ok "found: and contest says why" grep -q "PSI: the build stays in contest's cgroup" found.err
	skip "the build has no cgroup of its own here"
fi

# --- cpu enabled at the cgroup v2 root -------------------------------------------
if [ "$home" != "$v2" ]; then
	skip "contest runs in $rel, not at the cgroup v2 root: cpu is not enabled for it"
elif ! grep -qw cpu "$v2/cgroup.controllers"; then
	skip "no cpu controller for cgroup v2 here (cgroup.controllers: $(cat "$v2/cgroup.controllers")): bound to cgroup v1"
else
	if ! grep -qw cpu "$v2/cgroup.subtree_control"; then
		echo "+cpu" >"$v2/cgroup.subtree_control" && enabled=1
	fi
	if grep -qw cpu "$v2/cgroup.subtree_control"; then
		position cpu "$CONTEST"
		ok_eq "cpu at the root: the build and the load where they are without PSI" \
			"$(cat cpu.pos | cut -d' ' -f1,2)" "$(cut -d' ' -f1,2 none.pos)"
		ok_eq "cpu at the root: one cpu.weight for both (the same group)" \
			"$(cut -d' ' -f3 cpu.pos)" "$(cut -d' ' -f4 cpu.pos)"
		ok_eq "cpu at the root: PSI is the machine's" "$(cat cpu.scope)" machine
		ok "cpu at the root: contest says why" \
			grep -q "PSI: the build stays in contest's cgroup .* enables cpu" cpu.err
	else
		skip "cannot enable cpu at the cgroup v2 root"
	fi
	if [ -n "$enabled" ]; then
		echo "-cpu" >"$v2/cgroup.subtree_control" && enabled=
		ok "cpu at the root is off again" sh -c "! grep -qw cpu '$v2/cgroup.subtree_control'"
	fi
fi

# --- contest's cgroup said to enable cpu (the test build) -----------------------
if [ -x "${CONTEST_HOOKED:-}" ]; then
	CONTEST_TEST_SUBTREE_CONTROL="cpuset cpu pids"
	export CONTEST_TEST_SUBTREE_CONTROL
	position said "$CONTEST_HOOKED"
	unset CONTEST_TEST_SUBTREE_CONTROL
	beside said
	ok_eq "said: as without PSI" "$(cut -d' ' -f1,2 said.pos)" "$(cut -d' ' -f1,2 none.pos)"
	ok_eq "said: PSI is the machine's" "$(cat said.scope)" machine
	ok "said: contest says why, naming cpu" \
		grep -q "PSI: the build stays in contest's cgroup .*enables cpu, under which" said.err
else
	skip "tests/contest-hooked is not built"
fi
ok "no build cgroup is left" sh -c "! find '$v2' -maxdepth 8 -type d -name 'contest-build-*' | grep -q ."

done_testing
