#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# run.sh - build the libFuzzer harnesses with clang and run them in parallel.
#
#   tests/fuzz/run.sh BUILDDIR [SECONDS [HARNESS...]]
#
# BUILDDIR gets the objects, the harnesses fuzz-NAME, a working corpus per
# harness (corpus-NAME/, seeded from tests/fuzz/corpus-*/), fuzz-NAME.log
# and any NAME-crash-* artifact (or -leak-, -timeout-, -oom-).  It uses
# BUILDDIR/config.h when the directory is a configured build, else writes a
# minimal one.  SECONDS (default 60) is how long each harness runs; 0 only
# runs the seed corpus once.  HARNESS is record, store or cli (default: all
# three).  Environment: CC (default clang), FUZZ_FLAGS (more libFuzzer
# flags, e.g. -jobs=2).  Exits 1 when a harness crashed; the summary names
# the artifact, to reproduce with BUILDDIR/fuzz-NAME ARTIFACT.
set -u

usage() {
	echo "usage: $0 BUILDDIR [SECONDS [record|store|cli...]]" >&2
	exit 2
}
[ $# -ge 1 ] || usage
build=$1
secs=${2:-60}
[ $# -ge 2 ] && shift 2 || shift $#
harnesses=${*:-record store cli}
case $secs in *[!0-9]*|'') usage ;; esac
for h in $harnesses; do
	case $h in record|store|cli) ;; *) usage ;; esac
done

CC=${CC:-clang}
src=$(cd "$(dirname "$0")/../.." && pwd) || exit 1
mkdir -p "$build/fuzz-obj" "$build/tmp" || exit 1
build=$(cd "$build" && pwd) || exit 1

if ! "$CC" --version 2>/dev/null | grep -q clang; then
	echo "$0: CC=$CC is not clang; libFuzzer needs clang" >&2
	exit 1
fi
if [ ! -f "$build/config.h" ]; then
	cat >"$build/config.h" <<'EOH'
/* config.h - written by tests/fuzz/run.sh, as configure would */
#ifndef _GNU_SOURCE
# define _GNU_SOURCE 1
#endif
#define PACKAGE "contest"
#define PACKAGE_NAME "contest"
#define PACKAGE_VERSION "fuzz"
#define PACKAGE_STRING "contest fuzz"
#define VERSION "fuzz"
EOH
fi

san="-fsanitize=address,undefined -fno-sanitize-recover=undefined"
cflags="-std=gnu11 -g -O1 -fno-omit-frame-pointer $san -I$build -I$src/src -I$src -I$src/tests/fuzz"

# everything but main(), instrumented for coverage, in an archive: each
# harness links what it calls (the store harness has its own load table,
# so neither the loads nor the harness come in for it)
echo "building the harnesses in $build"
lib=$build/fuzz-obj/libcontest-fuzz.a
rm -f "$lib"
for f in "$src"/src/*/*.c "$src"/loads/*.c; do
	[ "$f" = "$src/src/cli/main.c" ] && continue
	o=$build/fuzz-obj/$(basename "$(dirname "$f")")-$(basename "$f" .c).o
	# always rebuilt: a header may have changed
	"$CC" $cflags -fsanitize=fuzzer-no-link -c "$f" -o "$o" ||
		{ echo "$0: left out $f, which does not compile" >&2; continue; }
	ar rc "$lib" "$o" || exit 1
done
for h in $harnesses; do
	"$CC" $cflags -fsanitize=fuzzer "$src/tests/fuzz/fuzz-$h.c" "$lib" \
		-o "$build/fuzz-$h" -lm -lpthread || exit 1
done

# the option parser's dictionary: every option of src/cli/cli.c, and values
sed -n 's/.*{ OPT_[A-Z_]*, "\([^"]*\)".*/"--\1"\n"--\1="/p' "$src/src/cli/cli.c" \
	>"$build/cli.dict" || exit 1
grep -o "OPT_[A-Z_]* = '.'" "$src/src/cli/cli.c" | sed "s/.*'\(.\)'/\"-\1\"/" >>"$build/cli.dict"
grep -v '^#' "$src/tests/fuzz/cli.dict" >>"$build/cli.dict"

# no leftover store directories, whatever happens
export TMPDIR="$build/tmp"
for h in $harnesses; do
	corpus=$src/tests/fuzz/corpus-record
	dict=$src/tests/fuzz/record.dict
	if [ "$h" = cli ]; then
		corpus=$src/tests/fuzz/corpus-cli
		dict=$build/cli.dict
	fi
	rm -f "$build/$h-crash-"* "$build/$h-leak-"* "$build/$h-timeout-"* "$build/$h-oom-"*
	if [ "$secs" = 0 ]; then
		"$build/fuzz-$h" -close_fd_mask=3 -print_final_stats=1 \
			"$corpus"/* >"$build/fuzz-$h.log" 2>&1 &
	else
		mkdir -p "$build/corpus-$h"
		"$build/fuzz-$h" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
			-max_len=4096 -dict="$dict" -close_fd_mask=3 -print_final_stats=1 \
			-artifact_prefix="$build/$h-" ${FUZZ_FLAGS:-} \
			"$build/corpus-$h" "$corpus" >"$build/fuzz-$h.log" 2>&1 &
	fi
	echo "fuzz-$h: running (pid $!, ${secs}s, log $build/fuzz-$h.log)"
done
wait

status=0
for h in $harnesses; do
	log=$build/fuzz-$h.log
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	crashes=$(grep -c '^SUMMARY: ' "$log")
	arts=$(grep -o "Test unit written to [^ ]*" "$log" | sed 's/.* //' | tr '\n' ' ')
	units=$(ls "$build/corpus-$h" 2>/dev/null | wc -l)
	echo "fuzz-$h: ${execs:-?} executions, $units corpus units, $crashes crashes${arts:+ (artifacts: $arts)}"
	if [ "$crashes" != 0 ] || [ -z "$execs" ]; then
		status=1
		grep -m 20 'ERROR\|SUMMARY\|FUZZ_ASSERT\|#[0-9] ' "$log" | sed 's/^/    /'
	fi
done
rmdir "$build/tmp" 2>/dev/null
exit $status
