#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/lkp inside LKP-tests itself: the unmodified snapshot of
# shared/engines (beside the source tree, or CONTEST_ENGINES=DIR) unpacked
# here, the program put in by contrib/lkp/install.sh, `lkp split-job` of
# jobs/contest.yaml, then `lkp split-job` and `lkp run` of a quick job: lkp
# runs contest, parse and its own stats collection, and its stats.json holds
# contest's measurements.  lkp run writes under /lkp (results, paths) and
# /tmp/lkp-$USER: it runs only when /lkp is not there, which it then removes.
. "$TOP_SRCDIR/tests/lib.sh"

engines=${CONTEST_ENGINES:-$(dirname "$TOP_SRCDIR")/shared/engines}
snapshot=$engines/lkp-tests-bbbc29c4.tar.gz
[ -f "$snapshot" ] || skip_all "no lkp-tests snapshot at $snapshot (set CONTEST_ENGINES=DIR)"
command -v bash >/dev/null || skip_all "bash is not installed: lkp needs it"
# what lkp's ruby needs from Debian's archive
gems() { ruby -e 'require "tty-command"; require "active_support"; require "git"' 2>/dev/null; }
debs="ruby ruby-tty-command ruby-activesupport ruby-git"
if ! gems && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	{ DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $debs ||
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $debs; }; } \
		>apt.log 2>&1
fi
gems || skip_all "ruby or its gems tty-command, activesupport, git missing (apt-get install $debs)"

tar xzf "$snapshot" || exit 99
LKP_SRC=$T_DIR/lkp-tests
export LKP_SRC HOME="$T_DIR"
ok "install.sh puts the program into the lkp-tests tree" \
	sh "$TOP_SRCDIR/contrib/lkp/install.sh" "$LKP_SRC"
sh "$TOP_SRCDIR/contrib/lkp/install.sh" "$LKP_SRC" >/dev/null 2>&1
ok "run again: contest named once among the test cases, its directions once" sh -c \
	'[ "$(grep -cx contest "$1/etc/linux-perf-test-cases")" = 1 ] &&
	 [ "$(grep -c "^contest" "$1/etc/index-perf-all.yaml")" = 5 ]' sh "$LKP_SRC"
ok "install.sh refuses a directory that is not lkp-tests" sh -c \
	'! sh "$1/contrib/lkp/install.sh" "$2" 2>err && grep -q "not an lkp-tests tree" err' \
	sh "$TOP_SRCDIR" "$T_DIR"

# the host file `lkp install` would write for this machine
host=$(hostname)
printf 'memory: 4G\nhdd_partitions: \nssd_partitions: \nnr_cpu: 2\n' >"$LKP_SRC/hosts/$host" ||
	exit 99

mkdir split quick || exit 99
"$LKP_SRC/bin/lkp" split-job -o split "$LKP_SRC/jobs/contest.yaml" >split.log 2>&1
ok_eq "lkp split-job jobs/contest.yaml exits 0" "$?" 0
ok_eq "a job per list of run types" "$(ls split | wc -l | tr -d ' ')" 4
ok "each with its run types, rounds and workload" sh -c \
	'grep -qx "  runtypes: noload process_load" split/*noload_process_load* &&
	 grep -qx "  runtypes: noload list_load mem_load" split/*noload_list_load_mem_load* &&
	 grep -qx "  runs: 3" split/*noload_io_load_read_load* &&
	 grep -qx "  workload: builtin" split/*noload_ctar_load_xtar_load*'

[ "$(id -u)" = 0 ] || { skip "lkp run needs root"; done_testing; exit 0; }
[ ! -e /lkp ] || { skip "lkp run writes under /lkp, which is there already"; done_testing; exit 0; }
user=contest-t7004-$$
trap 'rm -rf /lkp "/tmp/lkp-$user" "$T_DIR"' EXIT

cat >contest-quick.yaml <<'EOF'
suite: contest
testcase: contest
category: benchmark

contest:
  runs: 1
  quick: 1
  workload: builtin
  runtypes: noload process_load
  options: --scale 2 --lead-time 0.2
EOF
"$LKP_SRC/bin/lkp" split-job -o quick contest-quick.yaml >/dev/null 2>&1
job=$(ls quick/*.yaml)
# contest where run looks when no pkg installed it: PATH
mkdir bin && ln -s "$CONTEST" bin/contest || exit 99
thp=/sys/kernel/mm/transparent_hugepage/enabled
settings() { cat "$thp" /proc/sys/kernel/nmi_watchdog 2>/dev/null; }
settings >settings.before
env -u CONTEST PATH="$T_DIR/bin:$PATH" USER=$user timeout 900 "$LKP_SRC/bin/lkp" run "$job" \
	>run.log 2>&1
ok_eq "lkp run of the split job exits 0" "$?" 0
r=$T_DIR/result
ok "its result directory: contest's output, contest.json, stats.json" \
	test -s "$r/contest" -a -s "$r/contest.json" -a -s "$r/stats.json"
ok "contest's tables, results and summary kept there" sh -c \
	'grep -q "^process_load:\$" "$1/contest-tables.txt" &&
	 ls "$1"/contest-results/*.results >/dev/null && grep -q "\"status\": \"ok\"" "$1/contest-summary"' \
	sh "$r"
ok_eq "the job's parameters reached contest: one round of noload and process_load" \
	"$(grep -h '^run ' "$r"/contest-results/*.results | sed 's/.* type=\([a-z_]*\) round=\([0-9]*\) .*/\1.\2/' | tr '\n' ' ')" \
	"noload.1 process_load.1 "
ok "and --quick, --scale 2, --lead-time 0.2" sh -c \
	'grep -h "^env " "$1"/contest-results/*.results | grep -q "%20--quick" &&
	 grep -h "^env " "$1"/contest-results/*.results | grep -q "%20--scale%202%20--lead-time%200.2"' sh "$r"
for key in noload.time noload.cpu noload.ratio process_load.time process_load.cpu \
	process_load.loads process_load.lcpu process_load.ratio; do
	ok "stats.json: contest.$key" grep -q "^  \"contest\\.$key\": [0-9]" "$r/stats.json"
done
ok "no derived statistic among contest's keys (sd, ci, t, df, p, runs)" sh -c \
	'! grep "\"contest\.[a-z_]*\.[a-z_]*_\(sd\|ci_lo\|ci_hi\|t\|df\|p\|p_holm\|significant\|stddev%\)\"\|\"contest\.[a-z_]*\.runs\"" "$1/stats.json"' \
	sh "$r"
kv=$("$CONTEST" report -d "$r/contest-results" --format keyvalue | sed -n 's/^process_load.time_s: //p')
ok "its process_load time is contest's own ($kv)" \
	grep -q "^  \"contest\\.process_load\\.time\": $kv,\?\$" "$r/stats.json"

settings >settings.after
ok "the machine's settings are as they were (THP, NMI watchdog)" cmp settings.before settings.after
ok_eq "no process is left in the lkp-tests tree" "$(procs_in "$LKP_SRC")" ""
left=$(for p in /proc/[0-9]*; do
	case "$(tr '\0' ' ' 2>/dev/null <"$p/cmdline")" in
	*"$LKP_SRC"*) echo "${p#/proc/}" ;;
	esac
done)
ok_eq "no process of lkp's is left running" "$left" ""

done_testing
