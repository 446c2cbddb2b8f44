#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A quick suite of noload and cacherun: records, report, and a clean exit.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"
command -v "${CC:-cc}" >/dev/null || skip_all "no C compiler (${CC:-cc})"

abs=$(cd "$T_DIR" && pwd -P)	# the results are named from /, symlinks resolved
mkdir run && cd run || exit 99
# every suite here builds the smallest builtin workload (--scale 1): the
# points are about records, flushes, rounds, the report and messages, none
# about how long the compile takes; two rounds, for the interleaving
"$CONTEST" --quick --scale 1 -n 2 -k test-a noload cacherun >out 2>err
ok_eq "the suite exits 0" "$?" 0
ok "it ends with the table on stdout" grep -q "^test-a  *\[2\] " out
ok "progress goes to stderr, one line per run" test "$(grep -c 'round [12]/2:' err)" -eq 4
ok "it says where the results are, from /" grep -q "added to $abs/run/contest-results/test-a.results" err
ok "and that the next kernel's suite must find that directory" \
	grep -q "after the reboot into the next kernel, run contest with -d $abs/run/contest-results" err
if [ "$(stat -f -c %T .)" = tmpfs ]; then
	skip "this test's directory is a tmpfs: cannot see the absence of the warning"
elif case $abs in /tmp/*) true ;; *) false ;; esac; then
	skip "this test's directory is under /tmp: cannot see the absence of the warning"
else
	ok "no warning: the results are on a disk" sh -c "! grep -q 'may not survive' err"
fi

# a results directory in memory: said in the plan and at the end
if [ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ] && [ -w /dev/shm ]; then
	shm=$(mktemp -d /dev/shm/contest-t2001.XXXXXX) || exit 99
	"$CONTEST" --quick --scale 1 -n 1 -k test-shm -d "$shm/res" noload >shm.out 2>shm.err
	ok_eq "a suite with its results in /dev/shm: exit 0" "$?" 0
	ok_eq "it warns twice, in the plan and at the end" \
		"$(grep -c "warning: the results directory $shm/res may not survive the reboot into the next kernel: it is in memory (tmpfs)" shm.err)" 2
	rm -rf "$shm"
else
	skip "no tmpfs at /dev/shm to put results in"
fi

"$CONTEST" report >rep 2>err
ok_eq "report exits 0" "$?" 0
ok "a noload table" grep -q "^noload:$" rep
ok "a cacherun table" grep -q "^cacherun:$" rep
ok "noload row: test-a [2] ... Ratio 1.00" grep -q "^test-a  *\[2\]  *[0-9.]*  *[0-9]*  *0  *0  *1\.00$" rep
ok "cacherun row: test-a [2]" sh -c "sed -n '/^cacherun:/,/^\$/p' rep | grep -q '^test-a  *\[2\] '"
"$CONTEST" -r >rep2 2>&1
ok "-r is report" cmp -s rep rep2

f=contest-results/test-a.results
ok_eq "one environment record" "$(grep -c '^env ' "$f")" 1
ok_eq "four run records" "$(grep -c '^run ' "$f")" 4
ok "the environment names the workload, compiler and CPUs" \
	sh -c "grep '^env ' $f | grep 'workload=builtin' | grep ' cc=' | grep -q ' ncpus=[0-9]'"
ok "every run record is valid" sh -c "! grep '^run ' $f | grep -q -v ' valid=1 '"
if [ -r /proc/stat ] && [ -r /proc/vmstat ]; then
	ok "every run records idle%, iowait% (one decimal), majflt, pswpin and pswpout" \
		sh -c "! grep '^run ' $f | grep -q -v ' idle=[0-9]*\.[0-9] iowait=[0-9]*\.[0-9] majflt=[0-9]* pswpin=[0-9]* pswpout=[0-9]* '"
else
	skip "/proc/stat or /proc/vmstat cannot be read here"
fi
# as contest decides (src/lib/flush.c): drop_caches when it may write to it
# (root, and /proc/sys not read-only), else fadvise on its own files
if [ -w /proc/sys/vm/drop_caches ]; then
	ok_eq "both noload runs flushed with drop_caches (/proc/sys/vm/drop_caches is writable)" \
		"$(grep ' type=noload ' $f | grep -c ' flush=drop_caches ')" 2
else
	ok_eq "both noload runs flushed with fadvise (/proc/sys/vm/drop_caches is not writable)" \
		"$(grep ' type=noload ' $f | grep -c ' flush=fadvise ')" 2
fi
ok "cacherun did not flush" sh -c "! grep ' type=cacherun ' $f | grep -q -v ' flush=none '"
ok "rounds interleave: noload, cacherun, noload, cacherun" \
	sh -c "grep '^run ' $f | sed 's/.* type=\([a-z]*\) round=\([0-9]\).*/\1\2/' | tr '\n' ' ' | grep -q '^noload1 cacherun1 noload2 cacherun2 \$'"
ok "the work directory is removed" test ! -e contest-work

# a second label: two rows, sorted
"$CONTEST" --quick --scale 1 -n 1 -k test-0 noload >/dev/null 2>&1
# (--no-latency: the rows only, not the probe's line under them)
"$CONTEST" report --no-latency >rep 2>/dev/null
ok "a second label is a second row, sorted" \
	sh -c "sed -n '/^noload:/,/^\$/p' rep | awk 'NR>2 && NF{print \$1}' | tr '\n' ' ' | grep -q '^test-0 test-a \$'"
ok_eq "cacherun has only the label that ran it" \
	"$(sed -n '/^cacherun:/,/^$/p' rep | awk 'NR > 2 && NF { print $1, $2 }')" "test-a [2]"

done_testing
