#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# contest killed with SIGKILL: no load or compiler survives it, and the next
# contest finds the dead run's scratch, removes it and says so.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"
mkdir run || exit 99
rundir=$(cd run && pwd -P)

leftovers() {
	procs_in "$rundir"
}

# (--scale 4 keeps the timed build, under process_load, going for a second
# or more after the poll sees it start: make and its compilers are running
# when SIGKILL comes)
(cd run && exec "$CONTEST" --scale 4 --lead-time 0.2 -n 1 -k k noload process_load \
	>../k.out 2>../k.err) &
pid=$!
i=0 seen=no
while [ $i -lt 6000 ] && kill -0 $pid 2>/dev/null; do
	if pgrep -x -P $pid process_load >/dev/null && pgrep -x -P $pid make >/dev/null; then
		seen=yes
		break
	fi
	sleep 0.02
	i=$((i + 1))
done
ok "the timed run under process_load started" test $seen = yes
# compilers killed in their stride leave temporary files (cc*.s) in TMPDIR:
# make's TMPDIR must be in the scratch, which the next contest removes
mk=$(pgrep -x -P $pid make | head -n 1)
tmpdir=$(tr '\0' '\n' <"/proc/$mk/environ" 2>/dev/null | sed -n 's/^TMPDIR=//p')
case $tmpdir in
"$rundir"/contest-work/run-$pid-??????/tmp) tmp_ok=yes ;;
*) tmp_ok="no: TMPDIR=$tmpdir" ;;
esac
ok_eq "the build's TMPDIR is in contest's scratch" "$tmp_ok" yes
kill -KILL $pid
wait $pid 2>/dev/null	# (the shell would say "Killed")
ok_eq "contest died of SIGKILL" "$?" 137
no_leftovers() { [ -z "$(leftovers)" ]; }
wait_until no_leftovers	# the guardian's kills take a moment
ok_eq "no load, make or compiler outlives contest" "$(leftovers)" ""
ok "its scratch is still there for the next contest to find" \
	sh -c "ls -d run/contest-work/run-$pid-* >/dev/null 2>&1"

# (the smallest suite: only its start, which cleans up, matters)
(cd run && "$CONTEST" --quick --scale 1 -n 1 -k next noload >../next.out 2>../next.err)
ok_eq "the next contest runs" "$?" 0
ok "it removes the dead run's scratch and says so" \
	grep -q "removed contest-work/run-$pid-......, left by contest pid $pid, which is gone" next.err
ok_eq "nothing is left in the work directory (which the dead contest made)" "$(ls -A run/contest-work 2>/dev/null)" ""

done_testing
