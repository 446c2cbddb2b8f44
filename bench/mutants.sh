#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# mutants.sh - can the tests see a real bug?  Each mutation below plants one
# deliberate bug (a stop signal ignored, LCPU% with the load's teardown, a torn
# record, no lock, a wrong Ratio divisor, Welch's t with the wrong sign, a
# load doing no work, a starved load's run or a full disk made invalid, a
# probe window that never opens, a load that strays from its command:
# io_load with O_DIRECT, a ctar sorting names, a list_load without
# lgetxattr, an xtar without fchown; a noload's CPU% set beside every
# run's, a detectable change 20% off, ...) in a copy of the tree, builds it,
# and runs the tests that should catch it (not the whole suite).  A
# mutation is "killed" when one of its tests fails, "survived"
# when all pass: a survivor is a hole in the tests.
#
#	sh bench/mutants.sh [-k] [NAME...]	(as root, like make check)
#
# NAME...: only those mutations (default: all).  -k keeps the copy (its
# path is printed).  The copy is the tree's tracked files as they are now
# (uncommitted changes included), in $TMPDIR; it is built once, then each
# mutation is applied to one file, rebuilt, tested and undone.
#
# Each mutation replaces one exact piece of code that must occur exactly once
# in its file: when the code has changed so that it does not, the mutation
# says "pattern missing" and counts as not applied (exit status 1), never as
# killed; update its line below.  Before any mutation, every test named
# below runs once on the unmutated copy: one that fails there cannot kill
# anything and is reported, and the run stops.
#
# Exit status: 0 when every mutation applied was killed, 1 otherwise.
. "$(dirname "$0")/lib.sh"

# NAME <tab> FILE <tab> TESTS (space-separated) <tab> CODE <tab> MUTATED CODE
MUTATIONS='signal-ignored	src/lib/proc.c	tests/t5001-fault-signals.sh	stop_signal = sig;	(void)sig;
lcpu-teardown	src/run/loadset.c	tests/t2015-suite-lcpu-window.sh	int64_t now = p->reaped ? -1 : proc_cpu_ns(p->pid);	int64_t now = (kill(p->pid, SIGTERM), usleep(1500000), proc_cpu_ns(p->pid));
record-short	src/results/store.c	tests/t5011-fault-store.sh tests/t2001-suite-noload-cacherun.sh	if (!what && write_all(fd, line, strlen(line)))	if (!what && write_all(fd, line, strlen(line) - 1))
record-torn-kept	src/results/store.c	tests/t5011-fault-store.sh tests/t5004-fault-disk-full.sh	ret = ftruncate(fd, end) || fdatasync(fd) ? -1 : 0;	ret = fdatasync(fd) ? -1 : 0;
lock-none	src/lib/fsutil.c	tests/t5003-fault-lock.sh	if (flock(fd, LOCK_EX | LOCK_NB)) {	if (0) {
ratio-divisor	src/report/sessions.c	tests/unit-report tests/t3001-report-golden.sh	stand_in(&b, nstar / n,	stand_in(&b, nstar / (n + 1),
welch-sign	src/results/stats.c	tests/unit-stats tests/t3003-report-stats.sh	w->t = (a->mean - b->mean) / sqrt(va + vb);	w->t = (a->mean + b->mean) / sqrt(va + vb);
load-no-work	loads/process.c	tests/t4002-load-process.sh	load_progress(c, (double)++hops / HOPS_PER_UNIT);	load_progress(c, (double)(hops++ * 0) / HOPS_PER_UNIT);
disk-full-fails	loads/io.c	tests/t5004-fault-disk-full.sh	return load_note(c, "%s %s: %s; the load gave its space back", what, path,	return load_fail(c, "%s %s: %s; the load gave its space back", what, path,
starved-invalid	src/run/harness.c	tests/t2002-suite-load-lifecycle.sh	note(run, "%s did no work during the timed build (starved, every process "	invalid(run, "%s did no work during the timed build (starved, every process "
probe-window	src/run/probe.c	tests/unit-probe tests/t4009-load-probe.sh	atomic_store(&p->shm->begin_ns, mono_ns());	atomic_store(&p->shm->begin_ns, INT64_MAX - 1);
mem-floor-ignored	loads/mem.c	tests/t5005-fault-memory.sh	return *left < floor ? 2 : 0;	return 0;
mem-host-sized	src/run/suite.c	tests/t4006-load-mem.sh	e->mem_available = mem_available_bytes();	e->mem_available = meminfo_bytes("MemAvailable");
chmod-follows	src/lib/fsutil.c	tests/unit-fsutil	st.st_mode | S_IRWXU, AT_SYMLINK_NOFOLLOW);	st.st_mode | S_IRWXU, 0);
walk-crosses-mounts	src/lib/fsutil.c	tests/unit-fsutil	if (st.st_dev != dev || !(S_ISDIR	if (st.st_dev == 0 || !(S_ISDIR
io-odirect	loads/io.c	tests/t4010-load-syscalls.sh	O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);	O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_DIRECT, 0600);
ctar-sorted	src/lib/tar-write.c	tests/t4010-load-syscalls.sh	*count = n;	*count = n; for (size_t a = 1; a < n; a++) for (size_t b = a; b && strcmp((*names)[b - 1], (*names)[b]) > 0; b--) { char *s = (*names)[b]; (*names)[b] = (*names)[b - 1]; (*names)[b - 1] = s; }
list-no-lgetxattr	loads/list.c	tests/t4010-load-syscalls.sh	context = ask_xattr(0, p,	context = 0 && ask_xattr(0, p,
xtar-no-fchown	src/lib/tar-extract.c	tests/t4010-load-syscalls.sh tests/t4001-tar-gnu.sh	x.same_owner = geteuid() == 0;	x.same_owner = 0;
cpu-all-runs	src/report/checks.c	tests/t3012-report-checks.sh	report_row_has(g, &st->runs[i]) && is_noload(&st->runs[i]))	report_row_has(g, &st->runs[i]))
detectable-factor	src/results/stats.c	tests/unit-stats	return d * sqrt(va + vb);	return d * sqrt(va + vb) * 1.2;
detectable-alpha	src/report/report.c	tests/t3003-report-stats.sh	r->alpha / (double)m,	r->alpha,'

keep=
[ "${1:-}" = -k ] && { keep=yes; shift; }
command -v git >/dev/null || die "git is needed, to copy the tracked files"
command -v timeout >/dev/null || die "timeout (GNU coreutils) is needed, as for make check"
SRC=$(cd "$(dirname "$0")/.." && pwd) || die "cannot find the source tree"
git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1 || die "$SRC is not a git checkout"

tab=$(printf '\t')
names=$(printf '%s\n' "$MUTATIONS" | cut -f1)
for n in "$@"; do
	printf '%s\n' "$names" | grep -qxF "$n" || die "no mutation '$n' (there are: $(echo $names))"
done
[ $# -gt 0 ] || set -- $names

WORK=$(mktemp -d "${TMPDIR:-/tmp}/contest-mutants.XXXXXX") || die "cannot make a scratch directory"
T=$WORK/tree
if [ -z "$keep" ]; then
	trap 'rm -rf "$WORK"' EXIT
	trap 'exit 130' INT TERM HUP
fi
mkdir "$T" || die "cannot make $T"
(cd "$SRC" && git ls-files -z | xargs -0 cp --parents -t "$T") || die "cannot copy the tree"

log=$WORK/build.log
build() {	# the program, the test programs; quiet unless it fails
	make -C "$T" -j"$(nproc)" >"$log" 2>&1 && make -C "$T" -j"$(nproc)" check TESTS= >>"$log" 2>&1
}
echo "building a copy of $SRC in $T"
(cd "$T" && ./bootstrap && ./configure) >"$log" 2>&1 && build ||
	{ tail -n 20 "$log" >&2; die "the unmutated copy does not build (log: $log)"; }

# run_test TEST: as make check runs it (tests/timeout.sh, the environment of
# Makefile.am's AM_TESTS_ENVIRONMENT), but alone, with none of make's order
# between tests; 0 when it passed
run_test() {
	out=$WORK/$(basename "$1").log
	mkdir -p "$T/tests/tmp"
	case $1 in *.sh) set -- sh "$T/$1" ;; *) set -- "$T/$1" ;; esac
	(cd "$T" && TMPDIR=$T/tests/tmp CONTEST=$T/contest CONTEST_HOOKED=$T/tests/contest-hooked \
		TAR_TOOL=$T/tests/tar-tool BUILTIN_TOOL=$T/tests/builtin-tool \
		TOP_SRCDIR=$T TOP_BUILDDIR=$T \
		sh "$T/tests/timeout.sh" "$@") >"$out" 2>&1
	rc=$?
	[ $rc = 0 ] && ! grep -q -e '^not ok' -e '^Bail out!' "$out"
}

# apply FILE CODE MUTATED: replace the one occurrence of CODE in FILE
apply() {
	awk -v pat="$2" -v rep="$3" '
		{ n = 0; line = $0; out = ""
		  while ((i = index(line, pat)) > 0) {
			out = out substr(line, 1, i - 1) rep; line = substr(line, i + length(pat)); n++ }
		  found += n; print out line }
		END { if (found != 1) { print found > "/dev/stderr"; exit 3 } }' "$T/$1" >"$T/$1.mutant" 2>"$WORK/found" ||
		{ rm -f "$T/$1.mutant"; return 1; }
	cp "$T/$1" "$T/$1.orig" && mv "$T/$1.mutant" "$T/$1"
}

# the tests, once, unmutated
tests=$(for n in "$@"; do printf '%s\n' "$MUTATIONS" | awk -F"$tab" -v n="$n" '$1 == n { print $3 }'; done |
	tr ' ' '\n' | sort -u)
for t in $tests; do
	[ -e "$T/$t" ] || [ -e "$T/$t.c" ] || die "$t: no such test"
	run_test "$t" || die "$t fails on the unmutated copy: it cannot kill a mutation (log: $out)"
done
echo "the unmutated copy passes: $(echo $tests)"

status=0
printf '%-20s %-9s %s\n' mutation result "tests (the first that failed)"
for n in "$@"; do
	line=$(printf '%s\n' "$MUTATIONS" | awk -F"$tab" -v n="$n" '$1 == n')
	file=$(printf '%s\n' "$line" | cut -f2)
	mtests=$(printf '%s\n' "$line" | cut -f3)
	code=$(printf '%s\n' "$line" | cut -f4)
	mutated=$(printf '%s\n' "$line" | cut -f5)
	if ! apply "$file" "$code" "$mutated"; then
		printf '%-20s %-9s %s\n' "$n" MISSING "$file holds '$code' $(cat "$WORK/found") times, not once"
		status=1
		continue
	fi
	if ! build; then
		printf '%-20s %-9s %s\n' "$n" NOBUILD "the mutated $file does not build (log: $log)"
		status=1
	else
		result=survived by=
		for t in $mtests; do
			run_test "$t" || { result=killed by=$t; break; }
		done
		[ $result = killed ] || status=1
		printf '%-20s %-9s %s\n' "$n" $result "$mtests${by:+ ($by)}"
	fi
	mv "$T/$file.orig" "$T/$file"
	touch "$T/$file"
done
build || die "the copy does not build once the mutations are undone (log: $log)"
[ -n "$keep" ] && echo "the copy: $T"
exit $status
