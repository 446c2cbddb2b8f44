#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A record is stored whole or not at all, whatever write, fdatasync and
# close do (faults injected by tests/fault-shim.c): a short write or EINTR
# is continued; a failed sync or close cuts the line back off and says the
# real error; a new results file's directory is synced.
. "$TOP_SRCDIR/tests/lib.sh"

fault_shim
mkdir wl

suite() {	# suite NAME ENV...: a tiny suite (one cacherun of `true`) into r-NAME
	name=$1
	shift
	env "$@" LD_PRELOAD="$SHIM" "$CONTEST" -w cmd:wl --build-cmd true --clean-cmd true \
		--lead-time 0 -n 1 -k a -d "r-$name" --work-dir "w-$name" --quiet cacherun \
		>"$name.out" 2>"$name.err"
}

runs() {	# runs NAME: how many run records r-NAME holds ("torn" when its
	# last line is not whole; "damaged" when contest report says a line is)
	[ -f "r-$1/a.results" ] || { echo 0; return; }
	[ "$(tail -c 1 "r-$1/a.results" | od -An -c | tr -d ' ')" = '\n' ] || echo torn
	"$CONTEST" report -d "r-$1" >/dev/null 2>"$1.report"
	grep -q damaged "$1.report" && echo damaged
	grep -c '^run ' "r-$1/a.results"
}

# the shim works here: one fsync of a directory is seen (and a suite without
# faults stores its record)
suite plain SHIM_LOG="$T_DIR/plain.log"
ok_eq "no fault: exit status" "$?" 0
ok_eq "no fault: the run is stored" "$(runs plain)" 1
ok "a new results file: its directory is synced" \
	grep -qx "fsync-dir $T_DIR/r-plain" plain.log

# the header, the env record, then the run record: the third write
suite short SHIM_RESULTS=short:3
ok_eq "a short write: exit status" "$?" 0
ok_eq "a short write is continued: the run is stored whole" "$(runs short)" 1
suite eintr SHIM_RESULTS=eintr:3
ok_eq "EINTR: exit status" "$?" 0
ok_eq "EINTR does not drop the record" "$(runs eintr)" 1

# the run record's fdatasync and close (the second of each) fail
suite sync SHIM_RESULTS=sync:2
ok "a failed fdatasync: contest fails" test $? -ne 0
ok "it says the real error" grep -q "cannot sync r-sync/a.results: Input/output error" sync.err
ok_eq "and the line is cut back off" "$(runs sync)" 0
ok "the env record stays" grep -q '^env ' r-sync/a.results
suite close SHIM_RESULTS=close:2
ok "a failed close: contest fails" test $? -ne 0
ok "it says the real error" grep -q "cannot close r-close/a.results: Input/output error" close.err
ok_eq "and the line is cut back off" "$(runs close)" 0

# the first record fails: the new file goes with it
suite first SHIM_RESULTS=sync:1
ok "a failed first record: contest fails" test $? -ne 0
ok "its new file is removed" test ! -e r-first/a.results

done_testing
