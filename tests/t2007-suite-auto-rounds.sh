#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -n auto: at least 3 rounds, then more until every selected run type's
# mean Time has a 95% confidence interval within --precision, or
# --max-runs; contest says why it stopped.  The workload is a trivial
# command (a sleep of 1 s: long enough that starting it, even on a busy
# machine, jitters it by far less than the loose precision asks), so the
# rounds are cheap.
. "$TOP_SRCDIR/tests/lib.sh"

mkdir run run/wl || exit 99
suite() {	# suite LABEL ARGS...
	label=$1
	shift
	(cd run && "$CONTEST" -w cmd:wl --build-cmd 'sleep 1' --clean-cmd true \
		-k "$label" "$@" >"../$label.out" 2>"../$label.err")
}
runs() {	# runs LABEL: run records of LABEL
	grep -c '^run ' "run/contest-results/$1.results"
}

# a loose precision: met after the first 3 rounds
suite loose -n auto --precision 50% noload cacherun
ok_eq "loose precision: exits 0" "$?" 0
ok "the plan says -n auto, 3 to 10 rounds" grep -q "loose: -n auto, 3 to 10 rounds" loose.err
ok "it stops after 3 rounds: precision reached, saying how precise" \
	grep -q "^contest: -n auto: stopped after 3 rounds: precision reached (the widest 95% confidence interval is [a-z]*'s, mean Time +/- [0-9.]*%; --precision 50%)" loose.err
ok_eq "3 rounds of 2 run types recorded" "$(runs loose)" 6
ok "no round 4" sh -c "! grep -q 'round 4/' loose.err"

# an impossible precision: stops at --max-runs, saying so
suite tight -n auto --precision 0.001 --max-runs 4 noload
ok_eq "impossible precision: exits 0" "$?" 0
ok "after round 3 it goes on, saying why" \
	grep -q "^contest: -n auto: after round 3 the widest 95% confidence interval is noload's, mean Time +/- [0-9.]*%, wider than --precision 0.001%: one more round" tight.err
ok "it stops at --max-runs 4, saying the precision was not reached" \
	grep -q "^contest: -n auto: stopped at --max-runs 4 before the precision was reached (the widest 95% confidence interval is noload's, mean Time +/- [0-9.]*%; --precision 0.001%)" tight.err
ok_eq "4 rounds recorded" "$(runs tight)" 4
ok "a plain -n 2 says nothing of -n auto" sh -c "
	cd run && \"\$CONTEST\" -w cmd:wl --build-cmd 'sleep 0.1' --clean-cmd true -k plain -n 2 \
		noload >/dev/null 2>../plain.err && ! grep -q 'auto' ../plain.err"
ok_eq "and runs 2 rounds" "$(runs plain)" 2

# options that do not fit
bad() {	# bad DESCRIPTION MESSAGE ARGS...: a usage error saying MESSAGE
	desc=$1 want=$2
	shift 2
	(cd run && "$CONTEST" -w cmd:wl --build-cmd true --clean-cmd true "$@" >../bad.out 2>../bad.err)
	ok_eq "$desc: exit 2" "$?" 2
	ok "$desc: says so" grep -q -- "$want" bad.err
}
bad "--precision without -n auto" "--precision and --max-runs apply to -n auto" --precision 2
bad "--max-runs without -n auto" "--precision and --max-runs apply to -n auto" --max-runs 5
bad "--max-runs below 3" "--max-runs wants a whole number from 3 to 1000, not '2'" -n auto --max-runs 2
bad "--precision 0" "--precision wants a percentage from 0.001 to 100, not '0'" -n auto --precision 0
bad "-n autox" "wants a whole number from 1 to 1000, or auto, not 'autox'" -n autox
ok_eq "nothing was recorded by the refused ones" "$(ls run/contest-results | tr '\n' ' ')" \
	"loose.results plain.results tight.results "

done_testing
