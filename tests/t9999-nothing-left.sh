#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
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

# anything a test of this build started (tests/timeout.sh marks them all
# with CONTEST_TEST_RUN): make, cc, a sleep, a load, under any name
mine=${CONTEST_TEST_RUN:-none}
leaked=""
for e in /proc/[0-9]*/environ; do
	env=$({ tr '\0' '\n' <"$e"; } 2>/dev/null) || continue
	run=$(printf '%s\n' "$env" | sed -n 's/^CONTEST_TEST_RUN=//p')
	[ -n "$run" ] && [ "$run" != "$mine" ] || continue
	printf '%s\n' "$env" | grep -qxF "TOP_BUILDDIR=$TOP_BUILDDIR" || continue
	p=${e#/proc/}
	p=${p%/environ}
	leaked="$leaked $p:${run%%.*}:$(cat "/proc/$p/comm" 2>/dev/null)"
done
ok_eq "no process any test of this build started is running (pid:test:name)" "$leaked" ""

done_testing
