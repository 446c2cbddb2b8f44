#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --dry-run prints the plan with the sizes `contest list` gives on this
# machine, and writes, creates and starts nothing: no work or results
# directory, no lock, no sweep of old scratch, no process left.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"
command -v "${CC:-cc}" >/dev/null || skip_all "no C compiler (${CC:-cc})"
need_spare_mem 1024	# a plan with a mem_load is refused without it

# every name, type, size and time (to the nanosecond) below the directory
listing() { (cd "$1" && find . -printf '%p %y %s %T@ %C@\n' | sort); }
# the first size ("64.0 MiB") of a plan line "    NAME: ..."
plan_size() { sed -n "s/^    $1: \([0-9.]* [KMGT]*i*B\).*/\1/p" "$2"; }
# the first size of the "here:" line under NAME in `contest list`
list_size() {
	awk -v n="$1" '$1 == n { f = 1; next } f { print; exit }' "$2" |
		sed -n 's/.*here: \([0-9.]* [KMGT]*i*B\).*/\1/p'
}

abs=$(cd "$T_DIR" && pwd -P)	# the results are named from /, symlinks resolved
# ---- an empty directory stays empty -----------------------------------
mkdir d
before=$(listing d)
(cd d && "$CONTEST" --dry-run --quick -k dry noload process_load io_load mem_load) >plan 2>err
ok_eq "--dry-run exits 0" "$?" 0
ok "it says nothing on stderr" test ! -s err
ok_eq "and leaves the directory as it was (no work or results directory, no lock)" \
	"$(listing d)" "$before"
ok_eq "and no process running in it" "$(procs_in "$T_DIR/d")" ""

ok "the plan names label, rounds and runs" grep -q "^dry: 3 rounds of 4 run types, 12 timed runs$" plan
ok "the run types, in order" grep -q "^    run types: noload, process_load, io_load, mem_load$" plan
ok "the workload and its identity" grep -q "^    workload: builtin/[0-9]* scale=[0-9]* jobs=[0-9]* cc=" plan
ok "the scratch, the run's own directory in the work directory, and its free space" \
	grep -q "^    scratch: contest-work/run-[0-9]*-XXXXXX ([0-9.]* [KMGT]*i*B free), removed at the end (contest-work too, made for it, if left empty)$" plan
mkdir -p f/w
(cd f && "$CONTEST" --dry-run --quick -k dry --work-dir w noload) >plan-w 2>&1
ok "a work directory that is there stays: the plan removes only the run's own" \
	grep -q "^    scratch: w/run-[0-9]*-XXXXXX ([0-9.]* [KMGT]*i*B free), removed at the end$" plan-w
if [ -w /proc/sys/vm/drop_caches ]; then
	ok "the flush method: drop_caches (root)" grep -q "^    flush: drop_caches .*(root)" plan
else
	ok "the flush method: fadvise (not root)" grep -q "^    flush: posix_fadvise .*(not root" plan
fi
ok "where the results go, from /" grep -q "^    results: $abs/d/contest-results/dry.results$" plan
ok "and that the next kernel's suite must find them" \
	grep -q "^    next kernel: after the reboot, run contest with -d $abs/d/contest-results," plan
(cd d && "$CONTEST" --dry-run --quick -k dry -d ../r2 noload) >plan-d 2>&1
ok "-d DIR: the plan names it from /" grep -q "^    results: $abs/r2/dry.results$" plan-d
if [ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ]; then
	(cd d && "$CONTEST" --dry-run --quick -k dry -d /dev/shm/contest-t2004-none noload) >plan-shm 2>&1
	ok "a results directory on a tmpfs: the plan warns" \
		grep -q "^warning: the results directory /dev/shm/contest-t2004-none may not survive the reboot into the next kernel: it is in memory (tmpfs)" plan-shm
	ok "and the dry run made nothing there" test ! -e /dev/shm/contest-t2004-none
else
	skip "no tmpfs at /dev/shm: the warning cannot be seen"
	skip "no tmpfs at /dev/shm: the warning cannot be seen"
fi
# results that the next boot or systemd-tmpfiles takes away: the rules of
# tmpfiles.d(5), here a test root's (the test build reads them under
# $CONTEST_ROOT), and /tmp whatever the rules say
rules=$T_DIR/root/usr/lib/tmpfiles.d
mkdir -p "$rules" "$T_DIR/root/etc/tmpfiles.d"
srv=$abs/srv	# the results' parents exist, as -d wants
mkdir -p "$srv/kept" "$srv/boot" "$srv/aged/x" "$srv/glob-a" "$srv/masked"
tmp=$(mktemp -d /tmp/contest-t2004.XXXXXX) || exit 99
cat >"$rules/t.conf" <<EOF
# a comment, and rules that lose nothing
d $srv/kept 0755 root root -
d /var/lib/contest-t2004 0755 root root -
D $srv/boot 1777 root root -
d $srv/aged 0755 root root 10d
R $srv/glob-*
EOF
echo "D $srv/masked 1777 root root -" >"$rules/masked.conf"
ln -s /dev/null "$T_DIR/root/etc/tmpfiles.d/masked.conf"
plan_warning() {	# plan_warning DIR: the plan's warning for results in DIR
	(cd d && CONTEST_ROOT=$T_DIR/root "$CONTEST_HOOKED" --dry-run --quick -k dry \
		-d "$1" noload) 2>&1 | sed -n 's/^warning: the results directory //p'
}
has() { printf '%s' "$1" | grep -qF -- "$2"; }	# has TEXT STRING
ok_eq "a directory under a D rule: the plan says the next boot empties it, naming the rule" \
	"$(plan_warning "$srv/boot/res")" "$srv/boot/res may not survive the reboot into the next kernel: the next boot empties it ('D $srv/boot 1777 root root -' in $rules/t.conf); give -d a directory that lasts (/var/lib/contest, your home directory, or /var/tmp where no rule cleans it), or copy the results there (contest merge) before rebooting"
ok "a directory under a rule with an age: the plan names the age and the rule" \
	has "$(plan_warning "$srv/aged/x/res")" \
	"systemd-tmpfiles deletes what has not been used for 10d there ('d $srv/aged 0755 root root 10d' in $rules/t.conf)"
ok "a directory matched by a glob of an R rule" \
	has "$(plan_warning "$srv/glob-a/res")" "the next boot empties it ('R $srv/glob-*' in $rules/t.conf)"
ok_eq "a d rule without an age: no warning" "$(plan_warning "$srv/kept/res")" ""
ok_eq "a rule masked by /etc/tmpfiles.d/NAME -> /dev/null: no warning" \
	"$(plan_warning "$srv/masked/res")" ""
ok "under /tmp: a warning whatever the rules say" \
	has "$(plan_warning "$tmp/res")" "it is under /tmp, which boots commonly empty"
ok_eq "the dry runs made nothing there" "$(find "$srv" "$tmp" -name res)" ""
rm -rf "$tmp"
ok "an estimate (none yet: no earlier runs)" grep -q "^    estimate: once the warm-up build is timed$" plan
ok "process_load's shape" grep -q "^    process_load: [0-9]* processes, 2 chunks of 8.0 KiB$" plan

"$CONTEST" list --quick >list 2>&1
ok_eq "io_load's size is the one contest list gives" "$(plan_size io_load plan)" "$(list_size io_load list)"
ok_eq "mem_load's size is the one contest list gives" "$(plan_size mem_load plan)" "$(list_size mem_load list)"
ok "and they are sizes" test -n "$(plan_size io_load plan)" -a -n "$(plan_size mem_load plan)"

(cd d && "$CONTEST" --dry-run --io-size 100M --mem-size 300M -n 1 -k dry io_load mem_load) >plan2 2>err
ok_eq "sizes given: io_load" "$(plan_size io_load plan2)" "100.0 MiB"
ok_eq "sizes given: mem_load" "$(plan_size mem_load plan2)" "300.0 MiB"
"$CONTEST" list --io-size 100M --mem-size 300M >list2 2>&1
ok_eq "and as contest list gives them" "$(plan_size io_load plan2)/$(plan_size mem_load plan2)" \
	"$(list_size io_load list2)/$(list_size mem_load list2)"
ok "noload is added for a load alone, and the plan says why" \
	grep -q "^    run types: noload, io_load, mem_load (noload added: dry has no noload" plan2
ok "-n 1: the plan says one round cannot be tested and its Ratios rest on one noload" \
	grep -q "^    note: one round: this suite alone cannot test a difference (a test takes 2 valid runs on a side), and it has one noload, on which all its Ratios rest: they move with the machine as that one run found it; -n 3 or more gives a disturbed noload away$" plan2
ok "three rounds: no such note" sh -c "! grep -q 'note: one round' plan"

# the default suite (list_load walking a small tree, to be quick)
(cd d && "$CONTEST" --dry-run --root "$TOP_SRCDIR/src" -k dry) >plan3 2>err
ok_eq "the default suite: exit 0" "$?" 0
ok "nine run types, three rounds" grep -q "^dry: 3 rounds of 9 run types, 27 timed runs$" plan3
ok "io_load and mem_load at their sizes for this machine" \
	sh -c "grep -q '^    io_load: [0-9.]* [KMGT]*i*B file in contest-work' plan3 &&
	       grep -q '^    mem_load: [0-9.]* [KMGT]*i*B ' plan3"
ok "list_load counted its tree" grep -q "^    list_load: entries: [1-9][0-9]* under $TOP_SRCDIR/src$" plan3
ok_eq "and still nothing written" "$(listing d)" "$before"

# ---- what an earlier contest left is not touched ----------------------
mkdir -p e/contest-work/run-4194304999-abcdef e/contest-results
echo 4194304999 >e/contest-work/contest.lock
echo 4194304999 >e/contest-results/contest.lock
before=$(listing e)
(cd e && "$CONTEST" --dry-run --quick -n 1 -k dry noload) >plan4 2>err
ok_eq "with old scratch and stale locks: exit 0" "$?" 0
ok_eq "the old scratch and the stale locks stay as they were" "$(listing e)" "$before"

# ---- a plan that cannot run is refused as a run would be ---------------
before=$(listing d)
(cd d && "$CONTEST" --dry-run --io-size 1000T -n 1 io_load) >out 2>err
ok_eq "an io size that cannot fit: exit 1" "$?" 1
ok "it says why" grep -q "io_load cannot run here: --io-size .* does not fit" err
ok "and prints no plan" test ! -s out
(cd d && "$CONTEST" --dry-run -d /proc/nonexistent/results -n 1 noload) >out 2>err
ok_eq "a results directory that cannot be made: exit 1" "$?" 1
ok "it says which" grep -q "cannot create results directory /proc/nonexistent/results" err
ok_eq "nothing written by the refused ones either" "$(listing d)" "$before"

done_testing
