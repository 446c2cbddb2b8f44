#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contest compare --configs FILE: the file's errors with FILE:LINE before any
# work; one warm-up, then the configurations in the ABBA order, each set up
# before its runs and undone after them, checked before and after every run;
# a setup's long-lived process kept until undo and killed on every exit path
# (normal, SIGINT, SIGTERM, SIGKILL through the guardian, which also runs
# the undo); the runs stored under each label with the comparison's id.
# Every command touches only this test's directory.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"
mkdir run || exit 99
here=$(pwd -P)

# --- the file's errors ----------------------------------------------------------
bad() {	# bad DESCRIPTION WANT TEXT: the file TEXT is refused with WANT
	printf "$3" >run/bad.cfg
	compare bad --configs bad.cfg -n 1 noload
	st=$?
	ok_eq "$1: exit 2, a bad command line" "$st" 2
	ok "$1: says '$2'" grep -q -F -- "$2" bad.err
	ok "$1: before any work (no results, no work directory)" \
		test ! -e run/contest-results -a ! -e run/contest-work
}
bad "a key before any section" "bad.cfg:2: 'setup' before the first [LABEL]" \
	'# comment\nsetup = true\n[a]\n[b]\n'
bad "an unknown key" "bad.cfg:3: unknown key 'stup' (setup, undo or check)" \
	'[a]\n[b]\nstup = true\n'
bad "a label twice" "bad.cfg:3: configuration 'a' again (first at bad.cfg:1)" \
	'[a]\n[b]\n[a]\n'
bad "one configuration" "a comparison needs two configurations or more, not 1" '[a]\n'
bad "a broken section" "bad.cfg:1: a section is [LABEL] alone on its line" '[a\n[b]\n'
compare missing --configs no-such.cfg noload
ok_eq "a missing file: exit 2, a bad command line" "$?" 2
ok "a missing file: says so" grep -q "cannot read no-such.cfg" missing.err
compare neither noload
ok_eq "neither --configs nor --vary: a usage error" "$?" 2
ok "which says what it wants" grep -q "compare wants its configurations" neither.err
compare auto --configs bad.cfg -n auto noload
ok_eq "-n auto: a usage error" "$?" 2
compare label --configs bad.cfg -k x noload
ok_eq "-k: a usage error" "$?" 2
ok "which says -k does not apply" grep -q "does not apply to the compare command" label.err

# --- a comparison -----------------------------------------------------------------
# alpha's setup leaves a process running; its check holds while it lives;
# beta's check holds once it is gone; every command notes itself in steps
cat >run/two.cfg <<EOF
# two configurations that touch only $here/run
[alpha]
setup = echo setup alpha >>steps; echo alpha >state; sleep 1000 & echo \$! >keeper.pid
undo  = echo undo alpha >>steps; rm -f state
check = echo check alpha >>steps; grep -qx alpha state && kill -0 \$(cat keeper.pid)

[beta]
setup = echo setup beta >>steps; echo beta >state
undo  = echo undo beta >>steps; rm -f state
check = echo check beta >>steps; grep -qx beta state && ! kill -0 \$(cat keeper.pid)
EOF
compare two --configs two.cfg -n 2 noload
ok_eq "the comparison exits 0" "$?" 0
ok_eq "one warm-up build" "$(grep -c 'warm-up build (untimed)' two.err)" 1
ok_eq "the rounds in the order ABBA" \
	"$(sed -n 's/^contest: round \([0-9]\): configuration //p' two.err | tr '\n' ' ')" \
	"alpha beta beta alpha "
ok "the plan shows the order and the seed" \
	grep -q "order (--seed 0): alpha beta | beta alpha" two.err
want="setup alpha
check alpha
check alpha
undo alpha
setup beta
check beta
check beta
undo beta
setup beta
check beta
check beta
undo beta
setup alpha
check alpha
check alpha
undo alpha"
ok_eq "setup before, check around every run, undo after each block" \
	"$(cat run/steps)" "$want"
ok_eq "all four runs valid: the kept process lived until undo, and no longer" \
	"$(grep -c ' valid$' two.err)" 4
keeper=$(cat run/keeper.pid 2>/dev/null)
ok "the kept process's pid was recorded (${keeper:-none})" test "${keeper:-0}" -gt 0
ok "the kept process is gone" sh -c "[ -n '$keeper' ] && ! kill -0 '$keeper' 2>/dev/null"
ok "undo ran last: no state left" test ! -e run/state
id=$(sed -n 's/.*comparison \([0-9-]*\): 2 configurations.*/\1/p' two.err)
ok "the plan names the comparison's id" test -n "$id"
ra=run/contest-results/alpha.results
rb=run/contest-results/beta.results
ok_eq "alpha's runs under its label, with the id" \
	"$(grep '^run ' $ra | grep -c " compare=$id ")" 2
ok_eq "beta's too" "$(grep '^run ' $rb | grep -c " compare=$id ")" 2
ok "each run records its configuration's setup text" \
	sh -c "grep '^run ' $rb | grep -q ' config_setup=echo%20setup%20beta%20>>steps;'"
ok_eq "and the observed values: the check" \
	"$(grep '^run ' $ra | grep -c ' observed.check=ok ')" 2
ok_eq "autogroup" "$(grep '^run ' $ra | grep -c ' observed.autogroup=')" 2
ok_eq "sched_ext" "$(grep '^run ' $ra | grep -c ' observed.sched_ext=')" 2
ok_eq "an environment record per configuration, with the id and its place" \
	"$(grep '^env ' $ra $rb | grep " compare=$id " | grep -c ' compare_index=[01] ')" 2
ok "it records the sched_ext state" sh -c "grep '^env ' $ra | grep -q ' sched_ext='"
ok "it records the seed" sh -c "grep '^env ' $ra | grep -q ' compare_seed=0 '"
ok "the summary table shows both configurations, the first as the baseline" \
	sh -c "grep -q '^alpha (base)  *\[2\]' two.out && grep -q '^beta  *\[2\]' two.out"
(cd run && "$CONTEST" report >../report.out 2>../report.err)
ok_eq "contest report works unchanged" "$?" 0
ok "and shows both labels, tested against the first configuration as compare did" \
	sh -c "grep -q '^alpha (base)  *\[2\]' report.out && grep -q '^beta  *\[2\]' report.out"
compare again --configs two.cfg -n 1 --seed 3 noload
ok_eq "a second comparison exits 0" "$?" 0
ok "it records its seed" sh -c "grep '^env ' $ra | grep -q ' compare_seed=3 '"
(cd run && "$CONTEST" report --compare "$id" >../cmp.out 2>../cmp.err)
ok_eq "report --compare ID exits 0" "$?" 0
ok "it shows the first comparison's runs alone" \
	sh -c "grep -q '^alpha (base)  *\[2\]' cmp.out && grep -q '^beta  *\[2\]' cmp.out"
ok "tested against its first configuration" grep -q "differs from alpha" cmp.out
(cd run && "$CONTEST" plot --compare "$id" >../cmp.svg 2>../plot.err)
ok_eq "plot --compare ID exits 0" "$?" 0
ok_eq "its chart has the first comparison's two bars" \
	"$(grep -o 'data-row="[^"]*"' cmp.svg | sort -u | tr '\n' ' ')" \
	'data-row="alpha" data-row="beta" '
ok "their Ratio from its runs alone" grep -q 'data-ratio=' cmp.svg
(cd run && "$CONTEST" report >../all.out 2>&1)
ok "plain report pools both sittings" grep -q '^alpha (base)  *\[3\]' all.out
(cd run && "$CONTEST" report --compare 1-1 >../none.out 2>../none.err)
ok_eq "report --compare of no such id: exit 1" "$?" 1
ok "it says so" grep -q "no comparison '1-1' in the results" none.err

# --- a check that fails ------------------------------------------------------
cat >run/fails.cfg <<'EOF'
[fine]
check = true
[broken]
setup = echo broken >state
undo = rm -f state
check = test -e no-such-file
EOF
compare fails --configs fails.cfg -n 1 -d fails noload
ok_eq "a failing check does not stop the comparison" "$?" 0
ok_eq "fine's run is valid" "$(grep '^run ' run/fails/fine.results | grep -c ' valid=1 ')" 1
ok_eq "broken's run is invalid" "$(grep '^run ' run/fails/broken.results | grep -c ' valid=0 ')" 1
ok "with the reason" grep -q "INVALID: configuration broken did not hold before the run: check \`test -e no-such-file\` failed (exit status 1)" fails.err
ok "the record keeps the reason" \
	sh -c "grep '^run ' run/fails/broken.results | grep -q ' reason=configuration%20broken%20did%20not%20hold'"

# --- a setup that fails ----------------------------------------------------------
printf '[a]\n[b]\nsetup = echo half >state; exit 3\nundo = rm -f state\n' >run/setup.cfg
compare setup --configs setup.cfg -n 1 -d setupfail noload
ok_eq "a setup that fails stops the comparison: exit 1" "$?" 1
ok "and says which and how" grep -q "configuration b: setup \`echo half >state; exit 3\` failed (exit status 3)" setup.err
ok "its undo still ran" test ! -e run/state

# --- every exit path ------------------------------------------------------------------
cat >run/sig.cfg <<'EOF'
[slow]
setup = echo slow >state; sleep 1000 & echo $! >keeper.pid
undo = rm -f state
[other]
EOF
in_run() {	# contest is in slow's first run: the keeper lives, the warm-up is done
	[ -s run/keeper.pid ] && kill -0 "$(cat run/keeper.pid)" &&
		grep -q "round 1: configuration slow" sig.err
}
compiling() {	# and its timed build runs: a compiler in the work directory
	# (the clean before it runs none)
	for _p in $(procs_in "$here/run/contest-work"); do
		case $(cat "/proc/$_p/comm" 2>/dev/null) in
		cc|cc1|gcc|clang|as|collect2|ld|"${CC:-cc}") return 0 ;;
		esac
	done
	return 1
}
# The signal comes once slow's timed build has started: the smallest
# workload (--scale 2) then still has the rest of that build, and all of
# other's run, to go, against a wait of a poll (20 ms) and a kill.
for sig in INT TERM KILL; do
	rm -f run/keeper.pid run/state
	(cd run && exec "$CONTEST" compare --configs sig.cfg --scale 2 --lead-time 0 -n 1 \
		-d "sig$sig" noload >../sig.out 2>../sig.err) &
	pid=$!
	wait_until in_run
	in_run && wait_until compiling
	ok "SIG$sig: the setup's process runs" in_run
	kill -$sig $pid
	wait $pid
	st=$?
	case $sig in
	INT) want=130 ;; TERM) want=143 ;; KILL) want=137 ;;
	esac
	ok_eq "SIG$sig: contest exits $want" "$st" $want
	keeper=$(cat run/keeper.pid 2>/dev/null)
	gone() { ! kill -0 "$keeper" 2>/dev/null; }
	wait_until gone
	ok "SIG$sig: the setup's process is killed" gone
	undone() { test ! -e run/state; }
	wait_until undone
	ok "SIG$sig: the undo ran" undone
	# the build's compilers get their SIGKILL (from contest, or from the
	# guardian after contest's own) a moment before the undo, and may be
	# dying still as it ends: left for good is what fails
	empty() { [ -z "$(procs_in "$here/run")" ]; }
	wait_until empty
	ok_eq "SIG$sig: nothing left in the run directory" "$(procs_in "$here/run")" ""
done

done_testing
