#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contest relabel killed (SIGKILL, as a crash) at each of its steps loses no
# run: a report then shows every run once, under the old label or the new
# one, and nothing damaged; the same relabel run again finishes it.  The
# test build (tests/contest-hooked, CONTEST_TEST_HOOK=relabel:N) holds it
# at step N: 1 before anything is written, 2 with the new label's file in
# place and the old one's still there, 3 with the old one's removed.
. "$TOP_SRCDIR/tests/lib.sh"

[ -x "${CONTEST_HOOKED:-}" ] || skip_all "tests/contest-hooked is not built"
mkdir wl hook || exit 99
mkfifo hook/go || exit 99

# the records of two tiny suites (with ids, as contest writes them): label a,
# to be renamed, and label c, its runs in a session of their own
for l in a c; do
	"$CONTEST" -w cmd:wl --build-cmd true --clean-cmd true --lead-time 0 -n 2 -k $l \
		-d orig --work-dir work --quiet noload cacherun >/dev/null 2>suite.err ||
		{ cat suite.err; exit 99; }
done
ok_eq "the suites stored their runs" "$(cat orig/a.results orig/c.results | grep -c '^run ')" 8

# rows DIR: "LABEL [RUNS]" of each row of the noload table, and whether the
# report called anything damaged
rows() {
	"$CONTEST" report -d "$1" >report.out 2>report.err
	sed -n '/^noload:/,/^$/{s/ (base)//;s/^\([^ ]*\)  *\(\[[0-9]*\]\).*/\1 \2/p;}' report.out |
		tr '\n' ' '
	grep -q damaged report.err && echo damaged
}

# killed DIR STEP ARGS...: relabel ARGS in DIR (a copy of orig), killed at STEP
killed() {
	dir=$1 step=$2
	shift 2
	rm -rf "$dir" hook/pid
	cp -r orig "$dir"
	CONTEST_TEST_HOOK=relabel:$step CONTEST_TEST_HOOK_DIR=$T_DIR/hook \
		"$CONTEST_HOOKED" relabel -d "$dir" "$@" >"$dir.out" 2>"$dir.err" &
	bg=$!
	while kill -0 $bg 2>/dev/null && [ ! -s hook/pid ]; do sleep 0.05; done
	if [ -s hook/pid ]; then
		kill -s KILL "$(cat hook/pid)"
		wait $bg
		return 0
	fi
	wait $bg
	sed 's/^/#   /' "$dir.err"
	return 1
}

for step in 1 2 3; do
	ok "plain, step $step: relabel reached it" killed r$step $step a new
	case $step in
	1) want="a [2] c [2] " ;;	# nothing changed
	2) want="a [2] c [2] " ;;	# both files, the same ids: read once, a's first
	3) want="c [2] new [2] " ;;
	esac
	ok_eq "plain, step $step: every run once, under one label" "$(rows r$step)" "$want"
	[ $step = 3 ] || ok "plain, step $step: the old label's file kept as it was" \
		cmp r$step/a.results orig/a.results
	[ $step = 2 ] && ok "plain, step 2: the new label's file whole, its records labelled anew" \
		test "$(grep -c ' label=new ' r2/new.results)" = "$(grep -c ' label=a ' orig/a.results)"
	"$CONTEST" relabel -d r$step a new >again.out 2>again.err
	ok_eq "plain, step $step: relabel again: exit 0 (step 3: nothing left to do)" \
		"$?" "$([ $step = 3 ] && echo 2 || echo 0)"
	[ $step = 2 ] && ok "plain, step 2: again: it says it finished a relabel cut short" grep -q \
		"'new' held every record of 'a' already (a relabel cut short): 'a' removed" again.err
	ok_eq "plain, step $step: then every run under the new label" "$(rows r$step)" "c [2] new [2] "
	ok_eq "plain, step $step: no file of the old label, none left over" \
		"$(LC_ALL=C ls r$step | tr '\n' ' ')" "c.results new.results "
done

# into a label that has runs of its own
for step in 1 2 3; do
	ok "--merge, step $step: relabel reached it" killed m$step $step --merge a c
	case $step in
	1) want="a [2] c [2] " ;;
	2) want="a [2] c [2] " ;;	# a's runs read from a's file, c's own from c's
	3) want="c [4] " ;;
	esac
	ok_eq "--merge, step $step: every run once" "$(rows m$step)" "$want"
	"$CONTEST" relabel -d m$step --merge a c >again.out 2>again.err
	ok_eq "--merge, step $step: again: exit 0 (step 3: nothing left to do)" \
		"$?" "$([ $step = 3 ] && echo 2 || echo 0)"
	ok_eq "--merge, step $step: then every run under c" "$(rows m$step)" "c [4] "
	ok_eq "--merge, step $step: c's file holds each record once" \
		"$(grep -o ' id=[0-9a-f]*' m$step/c.results | sort | uniq -d)" ""
done

done_testing
