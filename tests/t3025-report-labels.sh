#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A label named wrong: --baseline of a label the results do not hold says so
# and lists the labels (exit 2), apart from a label without a valid noload.
. "$TOP_SRCDIR/tests/lib.sh"

cp -r "$TOP_SRCDIR/tests/data/lkml-2002" res
chmod -R u+w res

# ---- --baseline ---------------------------------------------------------------------
"$CONTEST" report -d res --baseline nosuch >out 2>err
ok_eq "--baseline of a label not stored: exit 2" "$?" 2
ok "it says the label is not there, where, and the labels there are" grep -qx \
	"contest: --baseline: no label 'nosuch' in res (labels: 2.4.18, 2.4.19, 2.5.46, 2.5.46-mm1, 2.5.47, 2.5.47-mm1, ref-2.4.18)" err
ok "not that it has no noload" sh -c '! grep -q "noload" err'
"$CONTEST" plot -d res -o x.svg --baseline nosuch 2>err
ok_eq "plot --baseline of a label not stored: exit 2" "$?" 2
ok "plot says so too" grep -q "^contest: --baseline: no label 'nosuch' in res " err
mkdir res2
cp res/2.4.19.results res2/
"$CONTEST" report -d res2 -d res --baseline nosuch >out 2>err
ok "several -d: each named" grep -q "no label 'nosuch' in res2 or res (labels: " err

if command -v python3 >/dev/null 2>&1; then
	# a label with runs but no valid noload: the old message, exit 1
	python3 - <<'PY' || exit 99
import os, sys
sys.path.insert(0, os.path.join(os.environ["TOP_SRCDIR"], "tests", "data"))
from records import line
out = [line("env", [("label", "nonoload"), ("session", "s"), ("kernel", "2.4.18")])]
for rnd, typ, valid in ((1, "noload", 0), (1, "process_load", 1), (2, "process_load", 1)):
    out.append(line("run", [("label", "nonoload"), ("session", "s"), ("type", typ),
                            ("round", rnd), ("workload", "w"), ("flush", "drop_caches"),
                            ("valid", valid), ("reason", "told to fail"),
                            ("elapsed_ns", 100 * 10**9), ("user_ns", 90 * 10**9),
                            ("sys_ns", 0), ("load_work", "20")]))
open("res/nonoload.results", "w").writelines(out)
PY
	"$CONTEST" report -d res --baseline nonoload >out 2>err
	ok_eq "--baseline of a label without a valid noload: exit 1" "$?" 1
	ok "it says it has no valid noload" grep -qx \
		"contest: baseline 'nonoload' has no valid noload run to divide by" err
	rm res/nonoload.results
else
	skip "python3 is not installed: no label without a noload to write"
fi

done_testing
