#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# sanitize.sh - the test suite under AddressSanitizer, LeakSanitizer and
# UndefinedBehaviorSanitizer, built with clang.
#
#   tests/sanitize.sh [BUILDDIR]     (default ./build-sanitize)
#
# Configures BUILDDIR from this source tree with clang and
# -fsanitize=address,undefined, builds, runs `make check` with every report
# fatal and written to BUILDDIR/sanitizer/, and fails when a test fails or
# any process (contest, its load and workload children, the unit tests)
# left a sanitizer report.  Environment: CC (default clang), JOBS (make -j,
# default the number of CPUs), TESTS (a subset, as for make check).
set -u

src=$(cd "$(dirname "$0")/.." && pwd) || exit 1
build=${1:-build-sanitize}
CC=${CC:-clang}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

if ! command -v "$CC" >/dev/null 2>&1; then
	echo "$0: $CC not found: the sanitizer build needs clang (or CC=gcc)" >&2
	exit 1
fi
mkdir -p "$build" || exit 1
build=$(cd "$build" && pwd) || exit 1
cd "$build" || exit 1

# configure refuses to build out of a source tree that is configured in
# place: then build a copy of the checkout (refreshed at every call, times
# kept, so make rebuilds what changed), leaving out this build directory
if [ -f "$src/config.status" ] || [ -d "$build/source" ]; then
	if ! git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
		echo "$0: $src is configured in place and no git checkout: run this from an unconfigured tree" >&2
		exit 1
	fi
	inside=${build#"$src"/}
	[ "$inside" = "$build" ] && inside=/
	mkdir -p "$build/source" || exit 1
	(cd "$src" && git ls-files -z --cached --others --exclude-standard |
		tr '\0' '\n' | grep -v "^$inside/" | while read -r f; do
			[ -f "$f" ] && printf '%s\0' "$f"
		done | xargs -0 cp -p --parents -t "$build/source") || exit 1
	if [ ! -f "$build/source/configure" ]; then
		(cd "$build/source" && ./bootstrap >/dev/null 2>&1) || exit 1
	fi
	src=$build/source
fi
if [ ! -f Makefile ]; then
	"$src/configure" -q CC="$CC" \
		CFLAGS='-g -O1 -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined' \
		|| { echo "$0: configure failed (see $build/config.log)" >&2; exit 1; }
fi
make -j"$jobs" || exit 1

# every report ends the process with an error and lands in a file, so a
# report in a child whose stderr a test throws away is still found
reports=$build/sanitizer
rm -rf "$reports"
mkdir -p "$reports" || exit 1
ASAN_OPTIONS="halt_on_error=1:abort_on_error=0:detect_leaks=1:log_path=$reports/asan${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$reports/ubsan${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
export ASAN_OPTIONS UBSAN_OPTIONS

make -j"$jobs" check ${TESTS:+TESTS="$TESTS"}
status=$?

# the reports' own words: a test may name AddressSanitizer (t5009 skips so)
found=$(grep -l 'runtime error:\|ERROR: \(Address\|Leak\)Sanitizer' \
	tests/*.log "$reports"/* 2>/dev/null)
if [ -n "$found" ]; then
	echo "$0: sanitizer reports:"
	for f in $found; do
		echo "==== $f"
		grep -A 12 'runtime error\|ERROR: \(Address\|Leak\)Sanitizer' "$f" | head -40
	done
	exit 1
fi
if [ "$status" != 0 ]; then
	echo "$0: make check failed, with no sanitizer report (see $build/tests/*.log)"
	exit 1
fi
echo "$0: make check passed with no sanitizer report"
