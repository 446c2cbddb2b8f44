#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The README's example of what compare prints ends with what its
# configurations did differently; the records of such a comparison (written
# here, as compare writes them) print those lines as the README shows them.
. "$TOP_SRCDIR/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed: no records to write"

# the README's example: the block after "The first of them", from its
# "Measured differently" line to the block's end
awk '/^The first of them, on the 2-CPU machine/ { on = 1 }
     on && /^```/ { if (inblock) exit; inblock = 1; next }
     inblock && /^Measured differently/ { keep = 1 }
     keep' "$TOP_SRCDIR/README.md" >want
ok "the README has the example's lines of differences" test "$(wc -l <want)" -ge 2

python3 - <<'PY' || exit 99
import os, sys
sys.path.insert(0, os.path.join(os.environ["TOP_SRCDIR"], "tests", "data"))
from records import line
os.makedirs("r")
cid = "20261206-090000-1234"
for i, v in enumerate(("0", "1")):
    label = "autogroup=" + v
    out = [line("env", [("label", label), ("session", cid), ("kernel", "6.1"),
                        ("hostname", "vm"), ("cpu_model", "QEMU"), ("ncpus", "2"),
                        ("compare", cid),
                        ("config_setup", "echo %s > /proc/sys/kernel/sched_autogroup_enabled" % v),
                        ("compare_index", i), ("compare_configs", 2), ("compare_seed", 0),
                        ("compare_vary", label), ("compare_order", "0,1,1,0 (row 0 first)")])]
    for rnd in (1, 2, 3, 4):
        for typ, secs in (("noload", 19 + rnd % 2), ("process_load", 20 + 14 * i + rnd % 2)):
            out.append(line("run", [("label", label), ("session", cid), ("type", typ),
                                    ("round", rnd), ("workload", "builtin scale=9 jobs=8"),
                                    ("flush", "drop_caches"), ("valid", 1),
                                    ("elapsed_ns", secs * 10**8), ("user_ns", secs * 10**8),
                                    ("sys_ns", 0), ("load_work", "20")]))
    with open(os.path.join("r", label.replace("=", "%3D") + ".results"), "w") as f:
        f.writelines(out)
PY
"$CONTEST" report -d r --compare 20261206-090000-1234 >out 2>err
ok_eq "report --compare of the comparison: exit 0" "$?" 0
while IFS= read -r l; do
	ok "printed as the README shows it: '$l'" grep -qxF -- "$l" out
done <want
ok "every line fits a mail's 72 columns" sh -c "! grep -q '.\{73\}' want"
ok "no cryptic 'left out' heading" sh -c "! grep -q 'left out' out"

done_testing
