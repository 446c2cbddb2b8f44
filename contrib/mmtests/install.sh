#!/bin/sh
# install.sh MMTESTS_DIR: copy the contest pack into an mmtests tree (the
# shellpack, its driver and configs), and give compare-kernels.sh a contest
# case that prints both reports: Time and Ratio (lower is better), then
# Loads, CPU% and LCPU% (higher is better).  Run again, it does it again.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 MMTESTS_DIR" >&2; exit 2; }
mm=$1
here=$(cd "$(dirname "$0")" && pwd)
[ -f "$mm/run-mmtests.sh" ] && [ -f "$mm/compare-kernels.sh" ] ||
	{ echo "install.sh: $mm is not an mmtests tree (no run-mmtests.sh)" >&2; exit 1; }

rm -rf "$mm/shellpack_src/src/contest"
cp -r "$here/shellpack_src/src/contest" "$mm/shellpack_src/src/"
cp "$here/drivers/driver-contest.sh" "$mm/drivers/"
cp "$here"/configs/config-workload-contest* "$mm/configs/"

# compare-kernels.sh's generic case prints the default report only
ck=$mm/compare-kernels.sh
grep -q '^	contest)$' "$ck" && exit 0
grep -q '^	bonniepp)$' "$ck" ||
	{ echo "install.sh: no bonniepp case in $ck to put contest's before" >&2; exit 1; }
awk '!done && $0 == "\tbonniepp)" {
	print "\tcontest)"
	print "\t\techo \"contest Time (lower is better)\""
	print "\t\teval $COMPARE_CMD"
	print "\t\techo"
	print "\t\techo \"contest Loads, CPU% and LCPU% (higher is better)\""
	print "\t\tcompare-mmtests.pl -d . -b contest -a loads -n $KERNEL_LIST $FORMAT_CMD $AUTO_DETECT_SIGNIFICANCE"
	print "\t\t;;"
	done = 1
} { print }' "$ck" >"$ck.contest" && cat "$ck.contest" >"$ck" && rm -f "$ck.contest"
echo "contest installed in $mm"
