#!/bin/sh
# contrib/mmtests: contest as an mmtests shellpack.  The config is sourced
# and contest-bench and parse-results are run as mmtests runs them (the
# variables it sets: SHELLPACK_SOURCES, LOGDIR_RESULTS, TESTDISK_DIR), with
# no mmtests installed, against a quick suite.
. "$TOP_SRCDIR/tests/lib.sh"

mm=$TOP_SRCDIR/contrib/mmtests
pack=$mm/shellpack_src/src/contest
command -v bash >/dev/null || skip_all "bash is not installed: mmtests' shellpacks are bash"

for f in contest-bench contest-install parse-results shellpack.yaml; do
	ok "shellpack_src/src/contest/$f is there" test -f "$pack/$f"
done
ok "and configs/config-workload-contest, and a README" \
	test -f "$mm/configs/config-workload-contest" -a -f "$mm/README.md"
ok "the scripts are bash without syntax errors" sh -c \
	'for s in contest-bench contest-install parse-results; do bash -n "$1/$s" || exit 1; done' \
	sh "$pack"

# contest installed where contest-install puts it
mkdir -p sources/contest-0.1.0-installed/bin logs disk || exit 99
ln -s "$CONTEST" sources/contest-0.1.0-installed/bin/contest || exit 99
mm_env() {	# mm_env COMMAND...: the config sourced, mmtests' variables set
	env -u CONTEST SHELLPACK_SOURCES="$T_DIR/sources" LOGDIR_RESULTS="$T_DIR/logs" \
		TESTDISK_DIR="$T_DIR/disk" NUMCPUS="$(getconf _NPROCESSORS_ONLN)" \
		bash -c '. "$0" && exec "$@"' "$mm/configs/config-workload-contest" "$@"
}
mm_env sh -c 'echo "$MMTESTS $CONTEST_RUNS"' >cfg
ok_eq "the config names the shellpack and its parameters" "$(cat cfg)" "contest 3"
mm_env bash "$pack/contest-bench" --runs 1 --runtypes "noload process_load" --quick \
	--options "--scale 4 --lead-time 0.5" >bench.out 2>bench.err
ok_eq "contest-bench exits 0" "$?" 0
ok "it keeps contest's tables, results, figures and summary in LOGDIR_RESULTS" sh -c \
	'grep -q "^process_load:\$" logs/contest-tables.txt && [ -d logs/contest-results ] &&
	 grep -q "^process_load.time_s: " logs/contest-keyvalue &&
	 grep -q "\"status\": \"ok\"" logs/contest-summary.json'
ok "the work directory on the test disk is gone" test ! -e disk/contest-work

bash "$pack/parse-results" logs >parsed 2>err
ok_eq "parse-results exits 0" "$?" 0
ok_eq "one line per figure of each valid run: 3 figures x 2 runs" "$(wc -l <parsed | tr -d ' ')" 6
ok "each: metric, run type, _, round, number, _ (tab delimited)" awk -F'\t' '
	NF != 6 || $1 !~ /^(Time|Loads|CPU)$/ || $2 !~ /^(noload|process_load)$/ || $3 != "_" ||
	$4 != 1 || $5 !~ /^[0-9.]+$/ || $6 != "_" { bad = 1 } END { exit bad }' parsed
ok "every metric is in shellpack.yaml" sh -c \
	'for m in $(cut -f1 parsed | sort -u); do grep -q "^  - $m\$" "$1/shellpack.yaml" || exit 1; done' \
	sh "$pack"
kv=$(sed -n 's/^process_load.time_s: //p' logs/contest-keyvalue)
pr=$(awk -F'\t' '$1 == "Time" && $2 == "process_load" { print $5 }' parsed)
ok "its process_load Time is the report's ($pr and $kv)" \
	awk -v a="$pr" -v b="$kv" 'BEGIN { d = a - b; exit !(d < 0.0005 && d > -0.0005) }'

# what fails says why
env -u SHELLPACK_SOURCES bash "$pack/contest-bench" >/dev/null 2>err
ok "contest-bench outside mmtests: it says what is missing" grep -q "SHELLPACK_SOURCES is not set" err
env -u CONTEST_SOURCE SHELLPACK_SOURCES="$T_DIR/sources" bash "$pack/contest-install" \
	>/dev/null 2>err
ok "contest-install without CONTEST_SOURCE: it says so" grep -q "CONTEST_SOURCE is not set" err
ok "and removed nothing" test -x sources/contest-0.1.0-installed/bin/contest
bash "$pack/parse-results" disk >/dev/null 2>err
ok_eq "parse-results where there are no results: exit 1" "$?" 1

done_testing
