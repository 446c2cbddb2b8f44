#!/bin/sh
# install.sh LKP_SRC: copy contest's program (run, parse, meta.yaml, pkg) and
# job into an lkp-tests tree, name contest among lkp's performance test
# cases (etc/linux-perf-test-cases, which lkp run's result tables need) and
# give lkp the direction of each figure (etc/index-perf-all.yaml): time and
# ratio lower is better; cpu, loads and lcpu higher.  Run again, it does it
# again.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 LKP_SRC" >&2; exit 2; }
lkp=$1
here=$(cd "$(dirname "$0")" && pwd)
[ -x "$lkp/bin/lkp" ] && [ -f "$lkp/etc/linux-perf-test-cases" ] ||
	{ echo "install.sh: $lkp is not an lkp-tests tree (no bin/lkp)" >&2; exit 1; }

rm -rf "$lkp/programs/contest"
cp -r "$here/programs/contest" "$lkp/programs/"
cp "$here/jobs/contest.yaml" "$lkp/jobs/"
grep -qx contest "$lkp/etc/linux-perf-test-cases" ||
	echo contest >>"$lkp/etc/linux-perf-test-cases"
grep -q '^contest\\' "$lkp/etc/index-perf-all.yaml" ||
	cat >>"$lkp/etc/index-perf-all.yaml" <<'YAML'
contest\..+\.time: -1
contest\..+\.ratio: -1
contest\..+\.cpu: 1
contest\..+\.loads: 1
contest\..+\.lcpu: 1
YAML
echo "contest installed in $lkp"
