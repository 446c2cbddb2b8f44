#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contrib/mmtests inside mmtests itself: the unmodified snapshot of
# shared/engines (beside the source tree, or CONTEST_ENGINES=DIR) unpacked
# here, the pack put in by contrib/mmtests/install.sh, run-mmtests.sh run on
# the quick config (with smaller contest options) for two run names
# (mmtests builds the shellpacks, installs contest through
# shellpack-install-contest from a tarball of this source tree, runs it
# through drivers/driver-contest.sh), and
# compare-kernels.sh over the two: its tables, and the direction of each.
. "$TOP_SRCDIR/tests/lib.sh"

engines=${CONTEST_ENGINES:-$(dirname "$TOP_SRCDIR")/shared/engines}
snapshot=$engines/mmtests-638401e0.tar.gz
[ -f "$snapshot" ] || skip_all "no mmtests snapshot at $snapshot (set CONTEST_ENGINES=DIR)"
for tool in bash perl make cc; do
	command -v $tool >/dev/null || skip_all "$tool is not installed: mmtests needs it"
done
# what mmtests' extraction needs from Debian's archive
perl_mods() { perl -MYAML::PP -MFile::Slurp -MFile::Which -e 1 2>/dev/null; }
if ! perl_mods && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
	{ DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libyaml-pp-perl \
		libfile-slurp-perl libfile-which-perl ||
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
		libyaml-pp-perl libfile-slurp-perl libfile-which-perl; }; } >apt.log 2>&1
fi
perl_mods || skip_all "perl modules YAML::PP, File::Slurp, File::Which missing (apt-get install libyaml-pp-perl libfile-slurp-perl libfile-which-perl)"

tar xzf "$snapshot" || exit 99
mm=$T_DIR/mmtests
ok "install.sh puts the pack into the mmtests tree" \
	sh "$TOP_SRCDIR/contrib/mmtests/install.sh" "$mm"
sh "$TOP_SRCDIR/contrib/mmtests/install.sh" "$mm" >/dev/null 2>&1
ok_eq "run again, compare-kernels.sh still has one contest case" \
	"$(grep -c '^	contest)$' "$mm/compare-kernels.sh")" 1
ok "install.sh refuses a directory that is not mmtests" sh -c \
	'! sh "$1/contrib/mmtests/install.sh" "$2" 2>err && grep -q "not an mmtests tree" err' \
	sh "$TOP_SRCDIR" "$T_DIR"

# contest's source, as a release tarball is: one top directory (without
# the logs the tests running beside this one write; tests/ itself changes
# as they do, which GNU tar reports with exit status 1, a warning)
src=$(basename "$TOP_SRCDIR")
tar -C "$(dirname "$TOP_SRCDIR")" --exclude=.git --exclude="$src/tests/tmp" \
	--exclude="$src/tests/*.log" --exclude="$src/tests/*.trs" --exclude="$src/test-suite.log" \
	--warning=no-file-changed -czf contest-src.tar.gz "$src"
[ $? -le 1 ] && tar tzf contest-src.tar.gz "$src/configure.ac" >/dev/null 2>&1 || exit 99

# the quick config as shipped but for contest's options: the smallest
# builtin workload and a short lead time (nothing here depends on the
# build's size or on the load spreading; its CONTEST_OPTIONS reach contest
# all the same, one list of words)
cfg=config-workload-contest-quick-test
{ grep -v '^export CONTEST_OPTIONS=' "$mm/configs/config-workload-contest-quick" &&
  echo 'export CONTEST_OPTIONS="--scale 2 --lead-time 0.2"'; } >"$mm/configs/$cfg" || exit 99

thp=/sys/kernel/mm/transparent_hugepage/enabled
settings() { cat "$thp" /proc/sys/kernel/nmi_watchdog 2>/dev/null; }
settings >settings.before
mmrun() {	# mmrun NAME: run-mmtests.sh on that config, as a user would
	(cd "$mm" && HOME=$T_DIR ASSUME_PACKAGE_INSTALLED=yes \
		CONTEST_SOURCE=$T_DIR/contest-src.tar.gz timeout 900 \
		./run-mmtests.sh --no-monitor --config "configs/$cfg" "$1") \
		>"run-$1.log" 2>&1
}
for name in run-a run-b; do
	mmrun $name
	ok_eq "run-mmtests.sh $name exits 0 (no hang at 'Building shellpacks')" "$?" 0
	logs=$mm/work/log/$name/iter-0/contest/logs
	ok "$name: every option of the driver is the bench's" \
		sh -c '! grep -q "Unrecognised option" "$1"' sh "run-$name.log"
	ok_eq "$name: the suite ran once (INSTALL_ONLY honoured): noload and process_load" \
		"$(grep -h '^run ' "$logs"/contest-results/*.results | sed 's/.* type=\([a-z_]*\) .*/\1/' | tr '\n' ' ')" \
		"noload process_load "
	ok "$name: contest's tables, summary and keyvalue are kept in its logs" sh -c \
		'grep -q "^process_load:\$" "$1/contest-tables.txt" &&
		 grep -q "\"status\": \"ok\"" "$1/contest-summary.json" &&
		 grep -q "^process_load.time_s: " "$1/contest-keyvalue"' sh "$logs"
	ok "$name: its work directory was on SHELLPACK_DATA, and is gone" sh -c \
		'grep -q -- "--work-dir $1/work/testdisk/data/$2/contest-work " "$3/commands.log" &&
		 [ ! -e "$1/work/testdisk/data/$2/contest-work" ]' sh "$mm" $name "$logs"
done
ok "contest was built by shellpack-install-contest, once" sh -c \
	'[ -x "$1/work/sources/contest-0.1.0-installed/bin/contest" ] &&
	 [ "$(grep -c "contest installed successfully" run-run-a.log run-run-b.log |
	      cut -d: -f2 | tr "\n" " ")" = "1 0 " ]' sh "$mm"
settings >settings.after
ok "the machine's settings are as they were (THP, NMI watchdog)" cmp settings.before settings.after
ok_eq "no process is left in the mmtests tree" "$(procs_in "$mm")" ""

(cd "$mm/work/log" && ../../compare-kernels.sh) >compare.txt 2>compare.err
ok_eq "compare-kernels.sh exits 0" "$?" 0
ok "it prints both reports" sh -c \
	'grep -q "^contest Time (lower is better)" compare.txt &&
	 grep -q "^contest Loads, CPU% and LCPU% (higher is better)" compare.txt'
for row in Time-noload Time-process_load Ratio-process_load CPU%-noload Loads-process_load \
	LCPU%-process_load; do
	ok "a $row row for both run names" \
		awk -v r="$row" '$2 == r && NF >= 5 { n++ } END { exit !n }' compare.txt
done
ok "no Loads or LCPU% row for noload: no load, nothing to divide by" \
	sh -c '! grep -iwE "Loads-noload|LCPU%-noload|nan|-?inf" compare.txt || exit 1'

# the direction: the second run name's gain is positive when its figure is
# the better one: a lower Time, a higher Loads
direction() {	# direction ROW SUMMARY lower|higher
	tr -d '()*' <compare.txt | awk -v r="$1" -v s="$2" -v better="$3" '
	$1 == s && $2 == r {
		a = $3; b = $5; pct = $6 + 0; found = 1
		if (a == b) exit 0
		gain = (better == "lower") ? (b < a) : (b > a)
		exit !(gain ? pct > 0 : pct < 0)
	} END { if (!found) exit 1 }'
}
ok "Time: lower is better" direction Time-process_load Amean lower
ok "Ratio: lower is better" direction Ratio-process_load Amean lower
ok "Loads: higher is better" direction Loads-process_load Hmean higher
ok "LCPU%: higher is better" direction LCPU%-process_load Hmean higher
kv=$(sed -n 's/^process_load.time_s: //p' "$mm/work/log/run-a/iter-0/contest/logs/contest-keyvalue")
tab=$(awk '$1 == "Amean" && $2 == "Time-process_load" { print $3 }' compare.txt)
ok "its run-a Time-process_load is contest's own ($tab and $kv)" \
	awk -v a="$tab" -v b="$kv" 'BEGIN { d = a - b; exit !(a != "" && d < 0.0015 && d > -0.0015) }'

done_testing
