#!/bin/sh
# contrib/lkp: contest as an LKP-tests program.  run and parse are run as
# lkp runs them (the variables it exports: the job's parameters, TMP,
# RESULT_ROOT, BENCHMARK_ROOT, LKP_SRC), with no lkp installed, against a
# quick suite; every line parse prints must be "key: number".
. "$TOP_SRCDIR/tests/lib.sh"

lkp=$TOP_SRCDIR/contrib/lkp
prog=$lkp/programs/contest
command -v awk >/dev/null || skip_all "awk is not installed: parse cannot run"

# the layout lkp looks for
for f in programs/contest/run programs/contest/parse programs/contest/meta.yaml \
	jobs/contest.yaml README.md; do
	ok "contrib/lkp/$f is there" test -f "$lkp/$f"
done
ok "run and parse are executable" test -x "$prog/run" -a -x "$prog/parse"
ok_eq "run's '# - param' header: the job's parameters" \
	"$(sed -n 's/^# - //p' "$prog/run" | tr '\n' ' ')" "runtypes runs workload quick options "
ok "meta.yaml describes each of them" sh -c \
	'for p in $(sed -n "s/^# - //p" "$1/run"); do grep -q "^  $p:" "$1/meta.yaml" || exit 1; done' \
	sh "$prog"

# the job's environment: contest under BENCHMARK_ROOT as the pkg puts it
mkdir -p bench/contest/bin tmp result lkp-src || exit 99
ln -s "$CONTEST" bench/contest/bin/contest || exit 99
lkp_env() {	# lkp_env COMMAND...: with what lkp exports for the job
	env -u CONTEST LKP_SRC="$T_DIR/lkp-src" TMP="$T_DIR/tmp" RESULT_ROOT="$T_DIR/result" \
		TMP_RESULT_ROOT="$T_DIR/result" BENCHMARK_ROOT="$T_DIR/bench" testcase=contest \
		nr_cpu="$(getconf _NPROCESSORS_ONLN)" runtypes="noload process_load" runs=1 quick=1 \
		options="--scale 4 --lead-time 0.5" "$@"
}
lkp_env "$prog/run" >result/contest 2>result/contest.err
ok_eq "run exits 0" "$?" 0
ok "contest's tables went to stderr" grep -q '^process_load:$' result/contest.err
"$prog/parse" <result/contest >stats 2>parse.err
ok_eq "parse exits 0" "$?" 0
ok "nothing on its stderr" test ! -s parse.err
ok "every line parse prints is 'key: number'" sh -c \
	'[ -s stats ] && ! grep -v -E "^[A-Za-z0-9_.%-]+: -?[0-9.]+\$" stats'
ok "the figures of a row: runs, time_s, ratio, loads, time_s_stddev% needs 2 runs" sh -c \
	'grep -qx "noload.runs: 1" stats && grep -qx "process_load.runs: 1" stats &&
	 grep -q "^process_load.time_s: " stats && grep -q "^process_load.ratio: " stats &&
	 grep -q "^process_load.loads: " stats'
ok "one row: no label in the keys, which stay the same from kernel to kernel" \
	sh -c '! grep -q "^[^:]*$(uname -r)" stats'
ok "the results are kept in RESULT_ROOT" test -f "result/contest-results/$(uname -r).results"
"$CONTEST" report -d result/contest-results --format keyvalue >kv 2>/dev/null
ok "parse prints the keyvalue report of those results, its version line left out" \
	sh -c 'grep -v "^keyvalue_version:" kv | cmp -s - stats'
ok "the summary too, status ok" grep -q '"status": "ok"' result/contest-summary.json
ok "the job's scratch is gone" sh -c '[ -z "$(ls tmp)" ]'

# parse on other input
printf 'keyvalue_version: 2\nnoload.runs: 1\n' | "$prog/parse" >/dev/null 2>err
ok_eq "parse refuses another keyvalue version" "$?" 1
ok "saying which" grep -q "keyvalue_version 2, this parse reads 1" err
printf 'contest: a message\nkeyvalue_version: 1\nnoload.runs: 3\n' | "$prog/parse" >out 2>&1
ok_eq "parse leaves out lines that are not figures" "$(cat out)" "noload.runs: 3"
: | "$prog/parse" >/dev/null 2>err
ok_eq "no figures at all: parse fails" "$?" 1

# run without contest installed
rm bench/contest/bin/contest
lkp_env PATH=/usr/bin:/bin "$prog/run" >/dev/null 2>err
ok_eq "contest not installed: run exits 1" "$?" 1
ok "saying where it looked" grep -q "not installed" err

done_testing
