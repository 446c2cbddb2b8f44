#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Directories another user could steer: contest, as root, refuses a work or
# results directory that another user can write (or that lies below one
# they can), naming the directory and why; in a sticky work directory (a
# /tmp) it leaves alone what another user put there, never following it;
# and its sweep of dead scratch ignores a zram marker contest did not write,
# so that the system's own zram swap is never turned off by a forged one.
# The hostile steps run as nobody (setpriv), and no file outside contest's
# own is changed.
. "$TOP_SRCDIR/tests/lib.sh"

[ "$(id -u)" = 0 ] || skip_all "the refusals are root's: run as root"
command -v setpriv >/dev/null || skip_all "setpriv is not installed: cannot act as another user"
id nobody >/dev/null 2>&1 || skip_all "there is no user nobody"
as_nobody() { setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups "$@"; }
chmod 755 "$T_DIR"	# mktemp's 0700 would lock nobody out of everything

# files outside contest's directories, and how they are now
mkdir victim && echo precious >victim/file && mkdir victim/dir && echo precious >victim/dir/file
victims() { find victim -exec stat -c '%n %s %Y %a %U %i' {} + | sort; cat victim/file victim/dir/file; }
victims >victims.before
untouched() { victims >victims.now && cmp victims.before victims.now; }

# the cheapest run there is: a workload of `true`, no cache flushed
mkdir wl
run() {	# run NAME ARGS...: contest as root, NAME.out and NAME.err
	_n=$1
	shift
	"$CONTEST" -w cmd:wl --build-cmd true --clean-cmd true -n 1 -k t "$@" cacherun \
		>"$_n.out" 2>"$_n.err"
}
refused() {	# refused NAME WHAT DIR WHY ARGS...: refused, naming DIR and WHY
	_n=$1 _what=$2 _dir=$3 _why=$4
	shift 4
	run "$_n" "$@"
	ok_eq "$_n: refused (exit status)" "$?" 1
	ok "$_n: the message names the $_what and why" \
		grep -q "refusing the $_what $_dir: $_why, so another user could" "$_n.err"
	ok "$_n: no file outside is changed" untouched
}

# ---- directories another user can write ------------------------------------

mkdir -m 777 open	# root's, but every user may write it, and not sticky
mkdir -m 1777 sticky	# as /tmp
as_nobody mkdir sticky/mine	# nobody's own, in the sticky one
as_nobody ln -s "$T_DIR/victim" open/w	# what nobody can do in the open one
ok "nobody planted a symlink in the open directory" test -L open/w
open="$T_DIR/open is writable by every user and not sticky (mode 777)"
refused open-work "work directory" open "$open" --work-dir open -d res
refused open-parent "work directory" open/new "$open" --work-dir open/new -d res
ok "nothing was made in it" test ! -e open/new -a ! -e open/contest.lock
refused open-link "work directory" open/w "$open" --work-dir open/w -d res
ok "nothing was made through the symlink" test ! -e victim/contest.lock
refused open-results "results directory" open/res "$open" --work-dir w -d open/res
ok "no results directory was made" test ! -e open/res
mine="$T_DIR/sticky/mine belongs to nobody (uid $(id -u nobody))"
refused nobodys-work "work directory" sticky/mine/w "$mine" --work-dir sticky/mine/w -d res
refused nobodys-results "results directory" sticky/mine "$mine" --work-dir w -d sticky/mine
as_nobody ln -s "$T_DIR/sticky" sticky/link
refused nobodys-link "work directory" sticky/link/w \
	"$T_DIR/sticky/link, a symlink, belongs to nobody (uid $(id -u nobody))" \
	--work-dir sticky/link/w -d res
refused dry-run "work directory" open/w "$open" --work-dir open/w -d res --dry-run
ok "no results were stored" test ! -e res/t.results

# a sticky directory, as /tmp, is fine: below it, and itself
run sticky-below --work-dir sticky/w -d sticky/res
ok_eq "a work and results directory of root's in a sticky one: accepted" "$?" 0
ok "the run is stored" grep -q '^run .* valid=1 ' sticky/res/t.results

# ---- what another user plants in a sticky work directory -------------------

dead=$(sh -c 'echo $$')	# a pid that is gone
while kill -0 "$dead" 2>/dev/null; do dead=$(sh -c 'echo $$'); done
as_nobody ln -s "$T_DIR/victim/dir" "sticky/run-$dead-linkd1"
as_nobody ln -s "$T_DIR/victim/file" "sticky/run-$dead-linkf1"
as_nobody mkdir "sticky/run-$dead-theirs"
as_nobody sh -c "echo theirs >sticky/run-$dead-theirs/file"

# a zram device of the test's own stands for the system's zram swap: a
# marker forged from world-readable values names it (its boot and disk
# sequence number), and a sweep that believed it would remove it
zid=
if [ -w /sys/class/zram-control/hot_add ] && zid=$(cat /sys/class/zram-control/hot_add) &&
	[ -r "/sys/block/zram$zid/diskseq" ]; then
	trap 'echo "$zid" >/sys/class/zram-control/hot_remove 2>/dev/null; memcg_remove
		rm -rf "$T_DIR"' EXIT
	forged="$dead $(cat /proc/sys/kernel/random/boot_id) $zid $(cat /sys/block/zram$zid/diskseq) 0123456789abcdef0123456789abcdef"
	as_nobody sh -c "echo '$forged' >sticky/run-$dead-theirs/zram-swap"
	# and markers contest did not write in a dead scratch of root's own:
	# one of nobody's, one of mode 644, one a symlink to root's own file
	for k in ownr mode link; do
		mkdir -m 700 "sticky/run-$dead-$k""00"
	done
	echo "$forged" >"sticky/run-$dead-ownr00/zram-swap"
	chown nobody "sticky/run-$dead-ownr00/zram-swap"
	chmod 600 "sticky/run-$dead-ownr00/zram-swap"
	echo "$forged" >"sticky/run-$dead-mode00/zram-swap"
	chmod 644 "sticky/run-$dead-mode00/zram-swap"
	echo "$forged" >forged && chmod 600 forged
	ln -s "$T_DIR/forged" "sticky/run-$dead-link00/zram-swap"
else
	[ -n "$zid" ] && echo "$zid" >/sys/class/zram-control/hot_remove
	zid=
fi
ls -l sticky >sticky.before

run sticky-itself --work-dir sticky -d res
ok_eq "the sticky directory itself as the work directory: accepted" "$?" 0
ok "no file outside is changed" untouched
for e in linkd1 linkf1; do
	ok "nobody's symlink run-$dead-$e is left alone" test -L "sticky/run-$dead-$e"
	ok "and said so" grep -q "left sticky/run-$dead-$e alone: a symlink" sticky-itself.err
done
ok_eq "nobody's directory is left alone, with what is in it" \
	"$(cat "sticky/run-$dead-theirs/file")" theirs
ok "and said so" grep -q "left sticky/run-$dead-theirs alone: another user's" sticky-itself.err
ok_eq "nobody's entries are all still there" "$(ls sticky | grep -c "^run-$dead-link\|theirs")" 3
if [ -n "$zid" ]; then
	ok "zram$zid, which the forged markers name, is still there" test -e "/sys/block/zram$zid"
	for k in ownr mode link; do
		ok "the marker of $k is ignored, and said so" grep -q \
			"sticky/run-$dead-${k}00/zram-swap, left by pid $dead, is not a marker contest wrote" \
			sticky-itself.err
	done
	ok "no zram device was removed" sh -c "! grep -q 'removed the zram swap device' sticky-itself.err"
	ok_eq "the forged file the symlink named is unchanged" "$(cat forged)" "$forged"
else
	skip "no zram here (or no diskseq): a forged marker cannot name a device"
	for k in ownr mode link; do skip "no zram to forge a marker for"; done
	skip "no zram to forge a marker for"
	skip "no zram to forge a marker for"
fi
ok_eq "contest's own scratch is gone" "$(ls sticky | grep '^run-' | grep -v "^run-$dead-")" ""

done_testing
