#!/bin/sh
# --help and the man page agree: every option and command of one is in the other.
. "$TOP_SRCDIR/tests/lib.sh"

man="$TOP_SRCDIR/docs/contest.1"
"$CONTEST" --help >help 2>err
ok_eq "--help exits 0" "$?" 0
ok "--help prints nothing on stderr" test ! -s err
ok "--help shows the usage" grep -q "^Usage:" help

grep -o -- '--[a-z][a-z-]*' help | sort -u >options
ok "--help lists options" test "$(wc -l <options)" -gt 10
for o in $(cat options); do
	# the man page writes a dash as \-
	roff=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
	ok "man page documents $o" grep -q -- "$roff" "$man"
done
# and the other way: every option the man page documents is real
for o in $(grep -o '^\.BR* \\-\\-[a-z-]*' "$man" | sed 's/^\.BR* //; s/\\-/-/g' | sort -u); do
	ok "$o of the man page is in --help" grep -q -- "$o" options
done
for c in run report plot load list merge; do
	ok "man page documents the $c command" grep -q "^\.B $c\$\|^\.BR $c \|^\.SS $c\|contest $c" "$man"
	ok "--help lists the $c command" grep -q "^  contest $c" help
done

"$CONTEST" --version >v
ok "--version prints the package version" grep -q "^contest [0-9]" v
"$CONTEST" report --help >h2
ok "help is the same from any command" cmp -s help h2

done_testing
