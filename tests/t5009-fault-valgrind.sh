#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Valgrind: contest report on the stored 2002 results, with a baseline,
# with damaged and garbage files, and its error exits, has no memory error
# and no leak.  (Loads and the timed suite fork; their children exit holding
# the parent's heap, so they are left to the sanitizer build.)
. "$TOP_SRCDIR/tests/lib.sh"

command -v valgrind >/dev/null 2>&1 || skip_all "valgrind is not installed"
if grep -q __asan_init "$CONTEST" 2>/dev/null; then
	skip_all "contest is built with AddressSanitizer, which valgrind cannot run"
fi
valgrind -q --error-exitcode=99 /bin/true >/dev/null 2>&1 ||
	skip_all "valgrind does not run here"

# vg NAME WANT_STATUS contest ARGS...: valgrind's own errors exit 99, so
# contest's exit status stays distinct; its report goes to NAME.vg.
# --track-origins=yes finds no more errors, it only says where an
# uninitialised value came from, and it makes memcheck's run half as long
# again: only a run that had errors runs again with it, for the log
# (NAME.origins.vg, shown instead); the verdict is the first run's.
# (--vgdb=no: no gdbserver, which nothing here attaches to.)
memcheck="valgrind -q --vgdb=no --error-exitcode=99 --leak-check=full --show-leak-kinds=all
	--errors-for-leak-kinds=all"
vg() {
	name=$1 want=$2
	shift 2
	$memcheck --log-file="$name.vg" "$CONTEST" "$@" >"$name.out" 2>"$name.err"
	status=$?
	grep -q . "$name.vg" &&
		$memcheck --track-origins=yes --log-file="$name.origins.vg" "$CONTEST" "$@" >/dev/null 2>&1
	ok_eq "$name: exit status $want under valgrind" "$status" "$want"
	ok "$name: no valgrind error nor leak" sh -c "! grep -q . '$name.vg' || {
		if grep -q . '$name.origins.vg' 2>/dev/null; then
			echo '(the same, run again with --track-origins=yes)'; cat '$name.origins.vg'
		else cat '$name.vg'; fi; false; }"
}

data="$TOP_SRCDIR/tests/data/lkml-2002"
vg baseline 0 report -d "$data" --baseline ref-2.4.18
"$CONTEST" report -d "$data" --baseline ref-2.4.18 >plain.out 2>/dev/null
ok "baseline: the same table as without valgrind" cmp baseline.out plain.out
ok "baseline: nine tables" test "$(grep -c '^[a-z_]*:$' baseline.out)" = 9

vg own 0 report -d "$data"
vg labels 0 report -d "$data" 2.4.19 2.5.47
vg nolabel 1 report -d "$data" 2.4.19 2.5.47 no-such-label

# damaged results, as t3002 makes them, and worse
cp -r "$data" results
chmod -R u+w results
f=results/2.4.19.results
sed -i '3s/elapsed_ns=69/elapsed_ns=68/' "$f"
printf 'run v=1 label=2.4.19 session=x type=noload round=9 elapsed' >>"$f"
printf 'binary \001\002\003\377 garbage\n\000\000\n' >>results/2.5.47.results
: >results/empty.results
mkdir results/adir.results
head -c 8192 /dev/urandom >results/2.4.18.results
# a line with a right checksum whose fields are bad: it is decoded, then refused
body='run v=1 label=x session=s type=noload round=0 workload=w flush=none valid=1'
crc=$(printf '%s' "$body" | gzip -c | tail -c 8 | od -An -tx4 -N4 | tr -d ' \n')
printf '%s crc=%s\n' "$body" "$crc" >>results/2.5.46.results
vg damaged 0 report -d results
ok "damaged: the flipped line is reported" grep -q "2.4.19.results:3: damaged record skipped" damaged.err
ok "damaged: the line with a bad round is reported" grep -q "2.5.46.results:.*damaged record skipped: run record with a missing or bad number" damaged.err
ok "damaged: the other labels still have rows" grep -q "^2.5.46-mm1 " damaged.out

# error exits free what they hold too
mkdir empty
vg nothing 1 report -d empty
vg missing 1 report -d no-such-dir
vg nobase 2 report -d "$data" --baseline no-such-label
vg badopt 2 report --no-such-option
vg badnum 2 -n 99999999999999999999
vg help 0 --help
vg cmdhelp 0 report --help
vg typo 2 reprot
vg before 2 -d x report

done_testing
