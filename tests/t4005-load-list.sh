# SPDX-License-Identifier: GPL-2.0-or-later
# t4005-load-list.sh - list_load counts the entries that find counts, never
# follows a symlink, enters proc and /dev as ls -lRa / does, leaves contest's
# work directory out, refuses a root it cannot list, and works under
# `contest load`.
. "$TOP_SRCDIR/tests/lib.sh"

export LC_ALL=C
TOP=$(pwd)

# The count `contest list --count ARGS` shows for list_load ("entries: N
# under DIR").
entries() {
	"$CONTEST" list --count "$@" 2>&1 | sed -n 's/.*here: entries: \([0-9][0-9]*\) under .*/\1/p'
}

# Entries per unit of a `contest load` report: natural / rate.  Both come
# from the same work and seconds, so this is the count check() made.
per_unit() {
	awk '/^rate:/ { r = $2 } /^natural:/ { n = $2 }
	     END { if (r > 0) printf "%.0f\n", n / r; else print "no rate" }' "$1"
}

# ---- the test tree ---------------------------------------------------------

mkdir -p tree/a/b/c tree/empty tree/.hdir/inner "tree/with space/d" outside &&
printf 'x\n' >tree/a/file &&
: >tree/.hidden &&
: >tree/.hdir/inner/.also-hidden &&
: >"tree/with space/a file" &&
: >tree/a/b/c/deep &&
ln tree/a/file tree/hardlink &&
ln -s ../outside tree/outlink &&
ln -s a tree/alink &&
ln -s nowhere tree/dangling &&
mkfifo tree/fifo &&
: >outside/o1 && mkdir outside/sub && : >outside/sub/o2 ||
	skip_all "cannot build the test tree"

want=$(find tree | wc -l)

# ---- the count -------------------------------------------------------------

ok_eq "contest list counts what find counts" "$(entries --root tree)" "$want"
# without --count, contest list does not walk: a root that list_load would
# refuse is not even looked at
"$CONTEST" list --root "$TOP/no-such-root" >nocount 2>&1
ok_eq "contest list without --count: exit 0" "$?" 0
ok "and no walk: list_load's size is not counted" \
	grep -q "here: size not counted: walks $TOP/no-such-root (--count)" nocount
ok "and the root is not opened" sh -c "! grep -q 'No such file' nocount"
"$CONTEST" list --count --root "$TOP/no-such-root" >count 2>&1
ok "with --count it is, and says what is wrong" grep -q "no-such-root" count
ok "every column of contest list starts where its heading does" awk '
	NR == 1 { u = index($0, "One unit"); w = index($0, "What runs"); next }
	/^[a-z]/ { if (substr($0, u - 1, 1) != " " || substr($0, w - 1, 1) != " " ||
		       substr($0, u, 1) == " " || substr($0, w, 1) == " ") bad = 1 }
	/^$/ { exit }
	END { exit bad }' nocount
ok "spin_load, a test load, is not listed" sh -c "! grep -q spin_load nocount"
ok_eq "a trailing slash on the root changes nothing" "$(entries --root tree/)" "$want"

for i in 1 2 3 4 5 6 7 8 9 10; do : >outside/more$i; done
mkdir outside/sub/deeper
ok_eq "symlinks to directories are not followed (the outside grew)" \
	"$(entries --root tree)" "$want"

# contest list has no --work-dir: its work directory is ./contest-work.
mkdir tree/contest-work tree/contest-work/sub &&
	for i in 1 2 3 4 5; do : >tree/contest-work/f$i; done
ok_eq "the work directory is listed in its parent but not entered" \
	"$(cd tree && entries --root "$TOP/tree")" "$((want + 1))"
rm -rf tree/contest-work

# ---- contest load ------------------------------------------------------------

ok "contest load list_load runs" \
	"$CONTEST" load list_load --root tree -t 2 --quick --work-dir "$TOP/w"
"$CONTEST" load list_load --root tree -t 2 --quick --work-dir "$TOP/w" >load.out 2>load.err
ok "it reports work > 0" awk '/^work:/ { w = $2 } END { exit !(w > 0) }' load.out
ok "it reports a natural rate in entries/s" \
	awk '/^natural:/ { n = $2; u = $3 } END { exit !(n > 0 && u == "entries/s") }' load.out
ok_eq "one unit is one listing of the tree" "$(per_unit load.out)" "$want"

# The work directory exists during `contest load` and holds the generated
# workload: inside the root, it is one entry and nothing below it.
"$CONTEST" load list_load --root tree -t 1 --quick --work-dir "$TOP/tree/wd" >wd.out 2>wd.err
ok_eq "a work directory inside the root is not entered" "$(per_unit wd.out)" "$((want + 1))"
ok_eq "contest load leaves the tree as it found it" "$(find tree | wc -l)" "$want"

# ---- pseudo file systems and /dev: entered, as ls -lRa / enters them -------

if [ "$(id -u)" != 0 ]; then
	skip "mounting proc and /dev into the tree needs root"
	skip "mounting proc and /dev into the tree needs root"
elif ! mkdir tree/proc tree/dev; then
	skip "cannot make mount points"
	skip "cannot make mount points"
elif ! unshare -m -p -f true 2>/dev/null; then
	skip "unshare -m -p is not available"
	skip "unshare -m -p is not available"
	rmdir tree/proc tree/dev
else
	# A private mount and pid namespace: the mounts vanish with it, and its
	# proc shows only its own processes (sh, then find or contest), so find
	# and contest see the same tree but for the one process that looks.
	# Only a mount that fails (status 77) skips; contest failing fails.
	unshare -m -p -f sh -c '{ mount -t proc proc tree/proc && mount --bind /dev tree/dev; } ||
		exit 77; find tree >found.list && "$1" list --count --root tree' sh "$CONTEST" >mounts.out 2>&1
	rc=$?
	if [ $rc = 77 ]; then
		skip "cannot mount proc or bind /dev here: $(head -n 1 mounts.out)"
		skip "cannot mount proc or bind /dev here"
	else
		ok_eq "contest list with proc and /dev mounted in the tree: exit 0" "$rc" 0
		got=$(sed -n 's/.*here: entries: \([0-9][0-9]*\) under .*/\1/p' mounts.out)
		found=$(wc -l <found.list)
		# Not entering proc would miss thousands of entries; the process
		# that looks differs by its open files, a few dozen.
		ok "find counts thousands of entries under proc and /dev" test "$found" -gt "$((want + 1000))"
		ok "proc and a bind mount of /dev are entered: $got entries, find $found" \
			test "${got:-0}" -gt "$((found - 100))" -a "${got:-0}" -lt "$((found + 100))"
	fi
	rm -f found.list
	rmdir tree/proc tree/dev
fi

# ---- a directory cycle: a bind mount of an ancestor -------------------------

# ls -R lists the mount point in its parent, says "not listing
# already-listed directory" and does not enter it; list_load does the same,
# so its count is ls -lRa's entries (but "." and ".."), plus the root.
# Without the guard the walk goes round the cycle down to the open file
# limit, about a thousand times the entries.
if [ "$(id -u)" != 0 ]; then
	skip "a bind mount needs root"
	skip "a bind mount needs root"
elif ! mkdir tree/a/b/loop; then
	skip "cannot make a mount point"
	skip "cannot make a mount point"
else
	unshare -m sh -c 'mount --make-rprivate / && mount --bind tree tree/a/b/loop || exit 77
		ls -lRa tree >cycle.ls 2>cycle.err; "$1" list --count --root tree' \
		sh "$CONTEST" >cycle.out 2>&1
	rc=$?
	if [ $rc = 77 ]; then
		skip "cannot bind mount here: $(head -n 1 cycle.out)"
		skip "cannot bind mount here"
	else
		ok "ls -lRa sees the cycle and does not enter it" \
			grep -q "tree/a/b/loop: not listing already-listed directory" cycle.err
		ls_count=$(awk '/^[-bcdlps]/ && $NF != "." && $NF != ".." { n++ }
			END { print n + 1 }' cycle.ls)
		got=$(sed -n 's/.*here: entries: \([0-9][0-9]*\) under .*/\1/p' cycle.out)
		ok_eq "a bind mount of an ancestor is listed, not entered: ls -lRa's count" \
			"${got:-none ($(head -n 3 cycle.out))}" "$ls_count"
	fi
	rmdir tree/a/b/loop
fi

# ---- roots that cannot be listed --------------------------------------------

"$CONTEST" load list_load --root "$TOP/nope" -t 1 --quick --work-dir "$TOP/w" >nope.out 2>nope.err
ok_eq "a missing root is refused" "$?" 1
ok "... with a message naming it and why" \
	grep -q "list_load cannot run here: --root $TOP/nope: No such file or directory" nope.err
ok "contest list says it too" \
	sh -c '"$1" list --count --root nope | grep -q "here: --root nope: No such file or directory"' \
	sh "$CONTEST"
"$CONTEST" load list_load --root tree/a/file -t 1 --quick --work-dir "$TOP/w" >file.out 2>file.err
ok "a root that is a file is refused" grep -q "root tree/a/file is not a directory" file.err
if [ -d /proc/self ]; then
	"$CONTEST" load list_load --root /proc -t 1 --quick --work-dir "$TOP/w" >proc.out 2>proc.err
	ok_eq "a root on proc is listed like any other: exit 0" "$?" 0
	ok "... with listings done" awk '/^natural:/ && $2 > 0 { y = 1 } END { exit !y }' proc.out
else
	skip "no /proc here"
	skip "no /proc here"
fi
ok "no work directory is left behind" test ! -e "$TOP/w"

done_testing
