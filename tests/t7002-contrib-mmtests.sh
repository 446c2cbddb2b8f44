#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/mmtests: the pack's files, without mmtests (t7003 runs it inside
# mmtests): the scripts' syntax, the macro lines mmtests' rewriter takes,
# and parse-results' two reports over the results of a quick suite.
. "$TOP_SRCDIR/tests/lib.sh"

mm=$TOP_SRCDIR/contrib/mmtests
pack=$mm/shellpack_src/src/contest
command -v bash >/dev/null || skip_all "bash is not installed: mmtests' shellpacks are bash"

for f in contest-bench contest-install parse-results parse-results-loads shellpack.yaml \
	shellpack-loads.yaml; do
	ok "shellpack_src/src/contest/$f is there" test -f "$pack/$f"
done
ok "and the driver, the configs, install.sh and a README" sh -c \
	'for f in drivers/driver-contest.sh configs/config-workload-contest \
		configs/config-workload-contest-quick install.sh README.md; do
		test -f "$1/$f" || exit 1; done' sh "$mm"
ok "the scripts are bash without syntax errors" sh -c \
	'for s in contest-bench contest-install parse-results parse-results-loads; do
		bash -n "$1/$s" || exit 1; done; bash -n "$2/drivers/driver-contest.sh"' sh "$pack" "$mm"
# mmtests' rewriter takes every line holding the marker for a macro, and
# rewrites again while it finds one: a comment holding it never ends
ok "the marker ###SHELLPACK is only ever a macro line" sh -c \
	'! grep -h "###SHELLPACK" "$1/contest-bench" "$1/contest-install" |
	   grep -v "^###SHELLPACK [a-zA-Z_]*\( \|\$\)"' sh "$pack"
ok "the driver calls the bench with -v and every parameter the bench takes" sh -c \
	'for o in -v --runs --workload --quick --runtypes; do
		grep -q -- "$o" "$1/drivers/driver-contest.sh" || exit 1
		[ "$o" = -v ] || grep -q -- "parsearg[A-Za-z]* *$o " "$2/contest-bench" || exit 1
	done' sh "$mm" "$pack"

mkdir logs || exit 99
"$CONTEST" run -k a -n 1 --quick --scale 2 --lead-time 0.2 -d logs/contest-results \
	--work-dir "$T_DIR/work" --no-progress noload process_load >/dev/null 2>&1 ||
	{ echo "Bail out! the quick suite failed"; exit 99; }

bash "$pack/parse-results" logs >time.out 2>err
ok_eq "parse-results exits 0" "$?" 0
ok_eq "Time and Ratio of each of the 2 runs" "$(cut -f1,2 time.out | tr '\t\n' ': ')" \
	"Ratio:noload Ratio:process_load Time:noload Time:process_load "
ok "each: metric, run type, _, round, number, _ (tab delimited)" awk -F'\t' '
	NF != 6 || $3 != "_" || $4 != 1 || $5 !~ /^[0-9.]+$/ || $6 != "_" { bad = 1 }
	END { exit bad }' time.out
(cd logs && bash "$pack/parse-results-loads") >loads.out 2>err
ok_eq "parse-results-loads (in the log directory): CPU% of both, Loads and LCPU% of the load" \
	"$(cut -f1,2 loads.out | tr '\t\n' ': ')" \
	"CPU%:noload CPU%:process_load LCPU%:process_load Loads:process_load "
ok "every metric is in its shellpack yaml, and no other" sh -c \
	'[ "$(cut -f1 time.out | sort -u)" = "$(sed -n "s/^  - //p" "$1/shellpack.yaml" | sort)" ] &&
	 [ "$(cut -f1 loads.out | sort -u)" = "$(sed -n "s/^  - //p" "$1/shellpack-loads.yaml" | sort)" ]' \
	sh "$pack"
ok "Loads, CPU%, LCPU% are better higher; Time and Ratio lower" sh -c \
	'grep -q "^preferhigher: true" "$1/shellpack-loads.yaml" && ! grep -q preferhigher "$1/shellpack.yaml"' \
	sh "$pack"

"$CONTEST" report -d logs/contest-results --format keyvalue a >kv || exit 99
field() { awk -F'\t' -v m="$1" -v t="$2" '$1 == m && $2 == t { print $5 }' "$3"; }
for f in "Time process_load time_s time.out" "Ratio process_load ratio time.out" \
	"Loads process_load loads loads.out" "LCPU% process_load lcpu_pct loads.out" \
	"CPU% noload cpu_pct loads.out"; do
	set -- $f
	want=$(sed -n "s/^$2.$3: //p" kv)
	got=$(field "$1" "$2" "$4")
	ok "its $2 $1 is the report's ($got and $want)" \
		awk -v a="$got" -v b="$want" 'BEGIN { d = (a - b) / b; exit !(a != "" && d < 0.001 && d > -0.001) }'
done

mkdir empty
bash "$pack/parse-results" empty >/dev/null 2>err
ok_eq "parse-results where there are no results: exit 1" "$?" 1
ok "and says so" grep -q "no contest-results" err

done_testing
