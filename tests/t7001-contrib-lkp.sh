#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/lkp: contest as an LKP-tests program, without lkp (t7004 runs it
# inside lkp).  run and parse are run as lkp runs them (the variables it
# exports: the job's parameters, TMP, TMP_RESULT_ROOT, RESULT_ROOT,
# mount_points, BENCHMARK_ROOT, LKP_SRC) against a quick suite; parse prints
# the measurements only, each "key: number".
. "$TOP_SRCDIR/tests/lib.sh"

lkp=$TOP_SRCDIR/contrib/lkp
prog=$lkp/programs/contest
command -v awk >/dev/null || skip_all "awk is not installed: parse cannot run"

# the layout lkp looks for
for f in programs/contest/run programs/contest/parse programs/contest/meta.yaml \
	programs/contest/pkg/PKGBUILD programs/contest/pkg/depends jobs/contest.yaml \
	install.sh README.md; do
	ok "contrib/lkp/$f is there" test -f "$lkp/$f"
done
ok "run and parse are executable" test -x "$prog/run" -a -x "$prog/parse"
ok_eq "pkg/depends: what contest needs to build and run its workload" \
	"$(tr '\n' ' ' <"$prog/pkg/depends")" "gcc make "
ok_eq "run's '# - param' header: the job's parameters" \
	"$(sed -n 's/^# - //p' "$prog/run" | tr '\n' ' ')" "runtypes runs workload quick options "
ok "meta.yaml describes each of them" sh -c \
	'for p in $(sed -n "s/^# - //p" "$1/run"); do grep -q "^  $p:" "$1/meta.yaml" || exit 1; done' \
	sh "$prog"

# the job's environment: contest under BENCHMARK_ROOT as the pkg puts it; lkp
# writes the results in TMP_RESULT_ROOT and copies them to RESULT_ROOT after
mkdir -p bench/contest/bin tmp result tmp-result fs lkp-src || exit 99
ln -s "$CONTEST" bench/contest/bin/contest || exit 99
lkp_env() {	# lkp_env COMMAND...: with what lkp exports for the job
	env -u CONTEST LKP_SRC="$T_DIR/lkp-src" TMP="$T_DIR/tmp" RESULT_ROOT="$T_DIR/result" \
		TMP_RESULT_ROOT="$T_DIR/tmp-result" BENCHMARK_ROOT="$T_DIR/bench" testcase=contest \
		nr_cpu="$(getconf _NPROCESSORS_ONLN)" runtypes="noload process_load" runs=1 quick=1 \
		options="--scale 2 --lead-time 0.2" "$@"
}
lkp_env mount_points="$T_DIR/fs" "$prog/run" >out 2>out.err
ok_eq "run exits 0" "$?" 0
ok "contest's tables went to stderr" grep -q '^process_load:$' out.err
ok "and are kept in TMP_RESULT_ROOT" grep -q '^process_load:$' tmp-result/contest-tables.txt
ok "the results and the summary are kept in TMP_RESULT_ROOT, nothing in RESULT_ROOT" sh -c \
	'[ -f "tmp-result/contest-results/$(uname -r).results" ] &&
	 grep -q "\"status\": \"ok\"" tmp-result/contest-summary && [ -z "$(ls result)" ]'
ok "the summary is not named *.json: lkp reads every such file as stats" \
	test ! -e tmp-result/contest-summary.json
ok "the work directory was on the job's file system (mount_points)" \
	grep -q "work_dir=$T_DIR/fs/contest\." "tmp-result/contest-results/$(uname -r).results"
ok "and is gone, and nothing was put in TMP" sh -c '[ -z "$(ls -A fs)" ] && [ -z "$(ls -A tmp)" ]'
"$prog/parse" <out >stats 2>parse.err
ok_eq "parse exits 0" "$?" 0
ok "nothing on its stderr" test ! -s parse.err
ok "every line parse prints is 'key: number'" sh -c \
	'[ -s stats ] && ! grep -v -E "^[A-Za-z0-9_.%-]+: -?[0-9.]+\$" stats'
"$CONTEST" report -d tmp-result/contest-results --format keyvalue >kv 2>/dev/null
ok_eq "the measurements of each run type, named as lkp's stats are" \
	"$(sed 's/:.*//' stats | tr '\n' ' ')" \
	"$(sed -n 's/^\([a-z_]*\)\.\(time\|cpu\|loads\|lcpu\)\(_s\|_pct\)\{0,1\}:.*/\1.\2/p; s/^\([a-z_]*\.ratio\):.*/\1/p' kv | tr '\n' ' ')"
ok "process_load's time, cpu, loads, lcpu and ratio among them" sh -c \
	'for f in time cpu loads lcpu ratio; do grep -q "^process_load\.$f: " stats || exit 1; done'
ok_eq "its time is the report's" "$(sed -n 's/^process_load.time: //p' stats)" \
	"$(sed -n 's/^process_load.time_s: //p' kv)"
ok "one row: no label in the keys, which stay the same from kernel to kernel" \
	sh -c '! grep -q "^[^:]*$(uname -r)" stats'

# without disk:/fs: the work directory is under TMP, and run says so
lkp_env runtypes=noload "$prog/run" >/dev/null 2>err
ok_eq "no mount_points: run exits 0" "$?" 0
ok "saying where the work directory went" grep -q "no disk:/fs: in the job" err
ok "under TMP" grep -q "work_dir=$T_DIR/tmp/contest\." "tmp-result/contest-results/$(uname -r).results"

# parse on other input
"$CONTEST" report -d tmp-result/contest-results --format keyvalue --stats --columns |
	"$prog/parse" >st 2>/dev/null
ok "parse of a report with statistics: the measurements only, no sd, ci, p, runs" \
	sh -c '[ -s st ] && ! grep -v -E "^[a-z_]+\.(time|cpu|loads|lcpu|ratio): " st'
printf 'keyvalue_version: 1\nnoload.time_s: 1\n' | "$prog/parse" >/dev/null 2>err
ok_eq "parse refuses another keyvalue version" "$?" 1
ok "saying which" grep -q "keyvalue_version 1, this parse reads 2" err
printf 'contest: a message\nkeyvalue_version: 2\nnoload.time_s: 3\n' | "$prog/parse" >out 2>&1
ok_eq "parse leaves out lines that are not figures" "$(cat out)" "noload.time: 3"
: | "$prog/parse" >/dev/null 2>err
ok_eq "no figures at all: parse fails" "$?" 1

# run's exit status from contest's (contest(1), EXIT STATUS), with a stand-in
# contest: some runs invalid is no failed job; all invalid or failed is
rm bench/contest/bin/contest
cat >bench/contest/bin/contest <<'SH'
#!/bin/sh
[ "$1" = report ] && { printf 'keyvalue_version: 2\nnoload.time_s: 1\n'; exit 0; }
exit $STUB_STATUS
SH
chmod +x bench/contest/bin/contest
for st in "3 0" "4 4" "1 1"; do
	set -- $st
	lkp_env STUB_STATUS=$1 "$prog/run" >/dev/null 2>err
	ok_eq "contest exits $1: run exits $2" "$?" $2
done
lkp_env STUB_STATUS=3 "$prog/run" 2>err | "$prog/parse" >out
ok "some runs invalid: said, and the valid runs' figures printed" sh -c \
	'grep -q "some runs were invalid" err && [ "$(cat out)" = "noload.time: 1" ]'

# run without contest installed
rm bench/contest/bin/contest
lkp_env PATH=/usr/bin:/bin "$prog/run" >/dev/null 2>err
ok_eq "contest not installed: run exits 1" "$?" 1
ok "saying where it looked" grep -q "not installed" err

done_testing
