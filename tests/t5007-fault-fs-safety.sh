#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Scratch is made with unique names, mode 0700, and removing it never
# follows a symlink out of it; labels never become paths outside the
# results directory.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"

mkdir outside
echo precious >outside/file
mkdir outside/dir && echo precious >outside/dir/file

# (--scale 2: the warm-up and the timed build, a second or more, leave time
# to plant the links below, a few commands, before contest removes its
# scratch)
(exec "$CONTEST" --scale 2 --lead-time 0.2 -n 1 -k safe noload >safe.out 2>safe.err) &
pid=$!
i=0
while [ $i -lt 3000 ] && ! ls -d contest-work/run-$pid-* >/dev/null 2>&1; do
	sleep 0.02
	i=$((i + 1))
done
scratch=$(ls -d contest-work/run-$pid-* 2>/dev/null)
ok "the scratch directory is named run-PID-XXXXXX" test -n "$scratch"
if [ -z "$scratch" ] || [ ! -d "$scratch" ]; then
	# nothing to plant into: never let "$scratch/..." become "/..."
	kill -TERM $pid 2>/dev/null
	wait $pid
	echo "Bail out! no scratch directory of contest $pid to plant symlinks into"
	exit 1
fi
ok_eq "it is mode 700" "$(stat -c %a "$scratch" 2>/dev/null)" 700
ok_eq "the work directory contest made is mode 700" "$(stat -c %a contest-work)" 700
# plant links to the outside in the scratch, as a hostile or careless
# process could, while contest runs
ln -s "$T_DIR/outside" "$scratch/link-to-dir"
ln -s "$T_DIR/outside/file" "$scratch/link-to-file"
mkdir -p "$scratch/deep/er" && ln -s "$T_DIR/outside/dir" "$scratch/deep/er/link"
ok "the three links are planted in the scratch" \
	test -L "$scratch/link-to-dir" -a -L "$scratch/link-to-file" -a -L "$scratch/deep/er/link"
ok "while contest still runs (so its own removal meets them)" kill -0 $pid
wait $pid
ok_eq "contest exits 0" "$?" 0
ok "the scratch is gone" test ! -e "$scratch"
ok "the outside directory survives" test -d outside/dir
ok_eq "the outside file is intact" "$(cat outside/file)" precious
ok_eq "the file in the outside directory is intact" "$(cat outside/dir/file)" precious

# labels: a label holding / or .. is stored inside the results directory
mkdir wl
for label in "a/../../b" "../escape" "x/y" "..."; do
	# the store is written by run; use the cheapest run there is: a
	# workload of `true`, nothing compiled, no cache flushed
	"$CONTEST" -w cmd:wl --build-cmd true --clean-cmd true -n 1 -d res -k "$label" \
		cacherun >l.out 2>l.err
	ok_eq "label '$label' is accepted" "$?" 0
done
ok_eq "every results file is inside the results directory" \
	"$(find . -name '*.results' ! -path './res/*' ! -path './contest-results/*' | wc -l)" 0
ok_eq "four labels, four files" "$(find res -maxdepth 1 -name '*.results' | wc -l)" 4
ok "no file name in res starts with a dot" \
	sh -c "! ls -A res | grep -v contest.lock | grep -q '^\.'"
ok_eq "none holds a slash: res has no directory below it" \
	"$(find res -mindepth 1 ! -type f)" ""
"$CONTEST" report -d res >rep 2>err
for label in "a/../../b" "../escape" "x/y" "..."; do
	ok "label '$label' reads back as its own row" grep -q -F "$label " rep
done

done_testing
