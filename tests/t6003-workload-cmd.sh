#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# -w cmd:DIR: --build-cmd timed and --clean-cmd before it, each by /bin/sh -c
# in DIR; CONTEST_JOBS; the identity; the option checks; builds, warm-ups
# and cleans that fail; ctar_load reading DIR.
. "$TOP_SRCDIR/tests/lib.sh"

mkdir proj && proj=$(cd proj && pwd -P) || exit 99
decode() { sed 's/%20/ /g; s/%3D/=/g; s/%25/%/g' "$@"; }
field() { grep "^$2 " "$1" | tail -n 1 | tr ' ' '\n' | sed -n "s/^$3=//p" | decode; }

# shell syntax on purpose: variables, redirection, && and a pipe
build='echo "build $PWD $CONTEST_JOBS" >>../trace && echo made | tr a-z A-Z >out.o'
clean='echo clean >>../trace; rm -f out.o'
"$CONTEST" -w cmd:proj --build-cmd "$build" --clean-cmd "$clean" -j 5 -n 1 -k c1 \
	--work-dir wd -d res noload cacherun >out 2>err
ok_eq "a suite of shell commands exits 0" "$?" 0
ok "it prints the tables" grep -q "^c1  *\[1\] " out
ok_eq "clean before every build: warm-up, noload, cacherun" \
	"$(cut -d' ' -f1 trace | tr '\n' ' ')" "clean build clean build clean build "
ok "the build ran by /bin/sh -c in DIR, with CONTEST_JOBS = -j" \
	sh -c "! grep '^build' trace | grep -v -q '^build $proj 5\$'"
ok_eq "the build's output is there" "$(cat proj/out.o)" "MADE"
f=res/c1.results
ok_eq "env: workload_kind" "$(field $f env workload_kind)" "cmd"
ok_eq "env: workload_tree" "$(field $f env workload_tree)" "$proj"
ok_eq "env: build_cmd" "$(field $f env build_cmd)" "$build"
ok_eq "env: clean_cmd" "$(field $f env clean_cmd)" "$clean"
ok_eq "env: jobs" "$(field $f env jobs)" 5
grep '^run ' $f | decode >runs
ok "the identity: dir, both commands, jobs" grep -q -F \
	" workload=cmd dir=$proj build=$build clean=$clean jobs=5 cc=" runs

# ---- the command line ------------------------------------------------------
"$CONTEST" -w cmd:proj --build-cmd true -n 1 noload >/dev/null 2>err
ok_eq "no --clean-cmd: exit 2" "$?" 2
ok "it says why, and what to give when nothing needs cleaning" grep -q -- "--clean-cmd true" err
"$CONTEST" -w cmd:proj --clean-cmd true -n 1 noload >/dev/null 2>err
ok_eq "no --build-cmd: exit 2" "$?" 2
ok "it names --build-cmd" grep -q -- "needs --build-cmd" err
"$CONTEST" -w cmd: --build-cmd true --clean-cmd true noload >/dev/null 2>err
ok_eq "cmd: without a directory: exit 2" "$?" 2
ok "it wants a directory" grep -q "wants a directory" err
"$CONTEST" --build-cmd true --clean-cmd true noload >/dev/null 2>err
ok_eq "--build-cmd with the builtin workload: exit 2" "$?" 2
"$CONTEST" -w cmd:proj --build-cmd true --clean-cmd true --kconfig tinyconfig noload >/dev/null 2>err
ok_eq "--kconfig with cmd: exit 2" "$?" 2
"$CONTEST" -w cmd:nosuch --build-cmd true --clean-cmd true -n 1 -d res --work-dir wd noload \
	>/dev/null 2>err
ok_eq "a directory that does not exist: exit 1" "$?" 1
ok "it says so" grep -q "nosuch: No such file or directory" err

# ---- failures ------------------------------------------------------------------
# the first build (the warm-up) works, later ones fail
cat >proj/build.sh <<'EOF'
n=$(cat ../count 2>/dev/null || echo 0)
n=$((n + 1))
echo $n >../count
i=0
while [ $i -lt 30 ]; do echo "line $i of build $n"; i=$((i + 1)); done
[ $n -le 1 ] || { echo "build.c:3: error: build $n broke"; exit 3; }
EOF
"$CONTEST" -w cmd:proj --build-cmd "sh build.sh" --clean-cmd true -n 1 -k c2 --work-dir wd \
	-d res noload >out 2>err
ok_eq "a failed timed build does not stop the suite" "$?" 0
ok "the run is invalid, with how the build ended" \
	grep -q "INVALID: the workload failed: exit status 3" err
ok "the end of its log: the error" grep -q "^    build.c:3: error: build 2 broke" err
ok_eq "the last 20 lines, no more" "$(grep -c '^    line [0-9]* of build 2' err)" 19
ok "the whole log is kept" grep -q "^line 0 of build 2" wd/last-failed-build.log
ok_eq "no time recorded" "$(field res/c2.results run elapsed_ns)" 0
rm -rf count wd

"$CONTEST" -w cmd:proj --build-cmd "echo warm-up error here; exit 4" --clean-cmd true -n 2 \
	-k c3 --work-dir wd -d res noload cacherun >out 2>err
ok_eq "a failed warm-up: exit status 1" "$?" 1
ok "it says so, with the log" sh -c "grep -q 'warm-up build failed (exit status 4)' err && grep -q '^    warm-up error here' err"
ok "no timed run started" sh -c "! grep -q 'round 1/2' err"
ok "nothing recorded" sh -c "! grep -q '^run ' res/c3.results 2>/dev/null"
ok "the log is kept" grep -q "warm-up error here" wd/last-failed-build.log
rm -rf wd

# the clean fails after the warm-up
"$CONTEST" -w cmd:proj --build-cmd true \
	--clean-cmd 'n=$(cat ../cleans 2>/dev/null || echo 0); echo $((n + 1)) >../cleans; [ $n -lt 1 ] || { echo clean broke; exit 5; }' \
	-n 1 -k c4 --work-dir wd -d res noload >out 2>err
ok "a clean that fails makes the run invalid" grep -q "INVALID: cleaning the tree failed" err
ok "and shows its log" grep -q "^    clean broke" err
rm -rf wd

# ---- ctar_load archives DIR -------------------------------------------------------
dd if=/dev/zero of=proj/blob bs=1024 count=64 2>/dev/null
touch -a -d '2000-01-01 00:00:00 UTC' proj/blob probe && cat probe >/dev/null
if [ "$(stat -c %X probe)" = 946684800 ]; then
	skip "atime is not updated here (noatime): cannot see who reads DIR"
else
	"$CONTEST" -w cmd:proj --build-cmd true --clean-cmd true -n 1 -k c5 --work-dir wd \
		-d res --quick --lead-time 0 ctar_load >/dev/null 2>err
	ok "ctar_load read DIR (its blob's atime moved)" test "$(stat -c %X proj/blob)" != 946684800
fi
ok "the work directory is gone" test ! -e wd

done_testing
