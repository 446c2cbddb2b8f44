#!/bin/sh
# The whole quick suite: all nine run types, every load doing work.
. "$TOP_SRCDIR/tests/lib.sh"

command -v make >/dev/null || skip_all "make is not installed"

mkdir run && cd run || exit 99
"$CONTEST" --quick -n 1 -k all-nine >out 2>err
ok_eq "contest --quick -n 1 exits 0" "$?" 0
ok_eq "nine runs, all valid" "$(grep -c 'round 1/1: .*, valid$' err)" 9
"$CONTEST" report >rep 2>err
ok_eq "report exits 0" "$?" 0
ok_eq "nine tables" "$(grep -c '^[a-z_]*:$' rep)" 9

row() {	# row TYPE: the all-nine row of TYPE's table
	sed -n "/^$1:\$/,/^\$/p" rep | grep '^all-nine '
}
for t in process_load ctar_load xtar_load io_load read_load list_load mem_load; do
	set -- $(row $t)
	ok "$t: Loads > 0 (${5:-none})" awk "BEGIN{exit !(${5:-0} > 0)}"
	ok "$t: LCPU% > 0 (${6:-none})" awk "BEGIN{exit !(${6:-0} > 0)}"
done
set -- $(row process_load)
ok "process_load slows the compile: Ratio > 1 (${7:-none})" awk "BEGIN{exit !(${7:-0} > 1)}"
set -- $(row noload)
ok_eq "noload Ratio" "${7:-none}" "1.00"
ok "nothing left in the work directory" test ! -e contest-work

done_testing
