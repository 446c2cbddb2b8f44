#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Records written by an earlier contest read the same today: a store written
# by the contest of 2026-12-06's bench sitting (real builtin and kernel runs)
# prints, in every format, exactly what contest at 8305e6a printed for it,
# before issue 50 rebuilt the figures' table, the round loop and the string
# and exit-code helpers (tests/data/store-0.1.expected/README).
. "$TOP_SRCDIR/tests/lib.sh"

store="$TOP_SRCDIR/tests/data/store-0.1"
want="$TOP_SRCDIR/tests/data/store-0.1.expected"

while read -r name args; do
	# shellcheck disable=SC2086 # the options are words
	"$CONTEST" $args -d "$store" >"$name.out" 2>"$name.err"
	ok_eq "$name: contest $args exits 0" "$?" 0
	ok "$name: stdout as 8305e6a printed it" cmp "$want/$name.out" "$name.out"
	ok "$name: stderr as 8305e6a printed it" cmp "$want/$name.err" "$name.err"
done <<'LIST'
text report
stats report --stats
csv report --stats --format csv
json report --stats --format json
keyvalue report --stats --format keyvalue
markdown report --stats --format markdown
baseline report --baseline kernel
delays report --delays
latency report --latency
plot plot
LIST

# the figures are there, not just the layout: builtin's list_load Time is
# the mean of its three runs' elapsed_ns in builtin.results, worked out by
# hand: (109.834 + 63.088 + 65.428) / 3 = 79.45 s, printed 79.4
awk '/^list_load:/ { on = 1 } on && /^builtin/ { print; exit }' text.out >row
ok "builtin's list_load row: 3 runs, Time 79.4" grep -q '^builtin (base)  *\[3\]  *79\.4 ' row
done_testing
