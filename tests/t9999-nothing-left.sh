#!/bin/sh
# Runs after every other test: no contest process and no scratch survive them.
. "$TOP_SRCDIR/tests/lib.sh"

tmp=${TMPDIR:-/tmp}
left=$(find "$tmp" -maxdepth 1 -name 'ctest.*' ! -path "$T_DIR" 2>/dev/null)
ok_eq "no test scratch directory left in $tmp" "$left" ""
ok_eq "no contest-work left in the build tree" "$(find "$TOP_BUILDDIR" -name 'contest-work' -o -name 'run-*-??????' -type d | head -5)" ""

procs=""
for p in /proc/[0-9]*; do
	exe=$(readlink "$p/exe" 2>/dev/null) || continue
	[ "$exe" = "$CONTEST" ] || [ "$exe" = "$TOP_BUILDDIR/tests/tar-tool" ] || continue
	procs="$procs ${p#/proc/}"
done
ok_eq "no process of the tested binaries is running" "$procs" ""

done_testing
