#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Tables for a mail: report --header, each label's kernel and what the rows'
# runs share, a line each above the tables (CPU model and count, RAM and
# swap, file system, workload, a unit of each load, flush, probe, contest's
# version; t3021 has the kernels and loads in full), on by default in markdown, a value the
# rows do not share "not alike" there and listed under the tables; and those
# differences under the tables wrapped at 72 columns, a long value (a kernel
# command line) shortened to what differs, values with commas unambiguous,
# no line starting "contest:" as a message would.  The records are written
# here (tests/data/records.py).
. "$TOP_SRCDIR/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed: no records to write"

# mk.py DIR LABEL CPU [KEY=VALUE...]: one session, two rounds of noload and
# process_load; the KEYs in its environment record too
cat >mk.py <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ["TOP_SRCDIR"], "tests", "data"))
from records import line
d, label, cpu = sys.argv[1:4]
extra = [tuple(a.split("=", 1)) for a in sys.argv[4:]]
os.makedirs(d, exist_ok=True)
sess = "s-" + label
out = ["# contest results, format 1: one record a line\n",
       line("env", [("label", label), ("session", sess), ("contest", "0.1.0"),
                    ("kernel", label), ("hostname", "alpha"), ("cpu_model", cpu),
                    ("ncpus", "2"), ("mem_total", 8 << 30), ("swap_total", 0),
                    ("swap", "none"), ("work_fs", "ext4"), ("work_dev", "nvme0n1"),
                    ("io_scheduler", "none"), ("jobs", "8"), ("flush", "drop_caches")] + extra)]
for rnd in (1, 2):
    for typ, secs in (("noload", 100 + rnd), ("process_load", 120 + rnd)):
        out.append(line("run", [("label", label), ("session", sess), ("type", typ),
                                ("round", rnd), ("workload", "builtin scale=40 jobs=8"),
                                ("flush", "drop_caches"), ("valid", 1),
                                ("elapsed_ns", secs * 10**9), ("user_ns", secs * 9 * 10**8),
                                ("sys_ns", 0), ("load_work", "20"),
                                ("load_user_ns", secs * 4 * 10**8), ("load_sys_ns", 0)]))
with open(os.path.join(d, label + ".results"), "w") as f:
    f.writelines(out)
PY
python3 mk.py r 6.1 "AMD EPYC 7763 64-Core Processor" &&
python3 mk.py r 6.2 "AMD EPYC 7763 64-Core Processor" &&
python3 mk.py r 6.3 "Intel(R) Xeon(R) CPU E5-2680" || exit 99

cat >want <<'EOF'
6.1: 6.1
6.2: 6.2
CPU: 2 x AMD EPYC 7763 64-Core Processor
Memory: 8.0 GiB RAM, swap: none
File system: ext4 on nvme0n1, I/O scheduler none
Workload: builtin scale=40 jobs=8
Loads, one unit of each:
  process_load  10,000 chunk hops
Flush: drop_caches
Latency probe: off
contest: 0.1.0

noload:
EOF
"$CONTEST" report -d r --header 6.1 6.2 >out 2>err
ok_eq "report --header exits 0" "$?" 0
ok "nothing on stderr" test ! -s err
ok "the header: the kernels, what the runs share, then the tables" \
	sh -c 'head -n 13 out | diff want -'
"$CONTEST" report -d r 6.1 6.2 >tables 2>/dev/null
ok "the tables as without it" sh -c 'sed 1,12d out | diff tables -'
ok_eq "text: no header by default" "$(head -n 1 tables)" "noload:"

"$CONTEST" report -d r --format markdown 6.1 6.2 >md 2>err
ok_eq "markdown: the header by default, as list items" "$(sed -n 3,4p md)" \
	"- CPU: 2 x AMD EPYC 7763 64-Core Processor
- Memory: 8.0 GiB RAM, swap: none"
ok "markdown: escaped" grep -qx -- '- Flush: drop\\_caches' md
"$CONTEST" report -d r --format markdown --no-header 6.1 6.2 >md 2>err
ok_eq "--no-header: none in markdown either" "$(head -n 1 md)" "**noload:**"

"$CONTEST" report -d r --header >all 2>err
ok "a value the rows do not share: not alike" grep -qx "CPU: not alike (see under the tables)" all
ok "and listed under the tables" grep -qx "cpu_model:" all
ok "the values they share stay" grep -qx "Memory: 8.0 GiB RAM, swap: none" all

"$CONTEST" report -d r --header --format csv >csv 2>err
ok "csv: no header (the environment is in its columns)" sh -c 'head -n 1 csv | grep -q "^schema,"'

# ---- the differences, for a mail --------------------------------------------------
common="BOOT_IMAGE=/vmlinuz-6.8 root=UUID=0b7c-41d2 ro quiet splash loglevel=3 nowatchdog"
python3 mk.py m m1 "AMD EPYC" "cmdline=$common mitigations=auto,nosmt" "contest=0.1.0" \
	"cpufreq_governor=performance, schedutil" &&
python3 mk.py m m2 "AMD EPYC" "cmdline=$common preempt=full" "contest=0.2.0" \
	"cpufreq_governor=performance" || exit 99
"$CONTEST" report -d m >out 2>err
ok_eq "report exits 0" "$?" 0
diffs() { sed -n '/^Measured differently (besides the kernel):$/,$p' "$1"; }
ok "every line of the differences fits a mail's 72 columns" sh -c \
	"sed -n '/^Measured differently/,\$p' out | grep -q '.\{73\}'; test \$? = 1"
ok "the command line: only the words that differ, a row a line" sh -c '
	grep -qx "cmdline (the words all rows share are not shown):" out &&
	grep -qx "  m1  mitigations=auto,nosmt" out && grep -qx "  m2  preempt=full" out'
ok "a value with a comma: a row a line, so that it reads as one value" sh -c '
	grep -qx "cpufreq_governor:" out && grep -qx "  m1  performance, schedutil" out &&
	grep -qx "  m2  performance" out'
ok "contest's version: no line starting 'contest:'" sh -c '
	grep -qx "contest version: m1 0.1.0, m2 0.2.0" out && ! grep -q "^contest:" out'
"$CONTEST" report -d m --format markdown --no-header >md 2>err
ok "markdown: a row under its field, a nested item" sh -c '
	grep -qx -- "- cpufreq\\\\_governor:" md && grep -qx -- "  - m1  performance, schedutil" md'

# a long value with nothing shared: wrapped under its first line
python3 mk.py w w1 "AMD EPYC" "cmdline=$(printf 'opt%s=x ' 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)" &&
python3 mk.py w w2 "AMD EPYC" "cmdline=$(printf 'arg%s=y ' 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15)" ||
	exit 99
"$CONTEST" report -d w >out 2>err
ok "a long value wraps within 72 columns" sh -c \
	"sed -n '/^Measured differently/,\$p' out | grep -q '.\{73\}'; test \$? = 1"
ok "its further lines under its first" sh -c '
	grep -q "^  w1  opt1=x opt2=x" out && grep -q "^      opt[0-9]*=x" out'

# ---- every table for a mail within 72 columns --------------------------------------
# many.py DIR LABEL SLOW: one session, three rounds of every run type, the
# compile SLOW times as long and its loads' work as much shorter; Loads up to
# six digits
cat >many.py <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ["TOP_SRCDIR"], "tests", "data"))
from records import line
d, label, slow = sys.argv[1], sys.argv[2], float(sys.argv[3])
os.makedirs(d, exist_ok=True)
sess = "s-" + label
out = ["# contest results, format 1: one record a line\n",
       line("env", [("label", label), ("session", sess), ("contest", "0.1.0"),
                    ("kernel", "6.12.0"), ("hostname", "alpha"),
                    ("cpu_model", "AMD EPYC 7763 64-Core Processor"), ("ncpus", "2"),
                    ("mem_total", 8 << 30), ("swap_total", 0), ("swap", "none"),
                    ("work_fs", "ext4"), ("work_dev", "nvme0n1"), ("io_scheduler", "none"),
                    ("jobs", "8"), ("flush", "drop_caches")])]
types = (("noload", 100, 0), ("cacherun", 95, 0), ("process_load", 150, 123456),
         ("ctar_load", 160, 3.5), ("xtar_load", 170, 2), ("io_load", 400, 36),
         ("read_load", 130, 14), ("list_load", 110, 1.2), ("mem_load", 180, 35))
for rnd in (1, 2, 3):
    for typ, secs, work in types:
        ns = int((secs * slow + rnd * 0.7) * 10**9)
        out.append(line("run", [("label", label), ("session", sess), ("type", typ),
                                ("round", rnd), ("workload", "builtin scale=40 jobs=8"),
                                ("flush", "drop_caches"), ("valid", 1), ("elapsed_ns", ns),
                                ("user_ns", ns * 9 // 10), ("sys_ns", 0),
                                ("load_work", "%.1f" % (work / slow)),
                                ("load_user_ns", ns * 4 // 10), ("load_sys_ns", 0)]))
with open(os.path.join(d, label + ".results"), "w") as f:
    f.writelines(out)
PY
# two labels of 20 characters, one of 30
python3 many.py wide 6.12.0-eevdf-tuned-a 1.0 &&
python3 many.py wide 6.12.0-eevdf-tuned-b 1.3 &&
python3 many.py wide 6.12.0-rc3-sched-ext-lavd-test 1.1 || exit 99
widest() { awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }' "$@"; }
for opts in "" "--header" "--stats" "--stats --header"; do
	"$CONTEST" report -d wide $opts >out 2>err
	ok_eq "text${opts:+ $opts}: exits 0, nothing on stderr" "$?:$(cat err)" "0:"
	# the legend's line may run to 80 (t3001: notes at most 80)
	grep -v '^\* differs from ' out >but-legend
	ok "text${opts:+ $opts}: every line within 72 columns ($(widest but-legend))" \
		test "$(widest but-legend)" -le 72
	ok "text${opts:+ $opts}: the legend within 80 ($(widest out))" test "$(widest out)" -le 80
	ok_eq "text${opts:+ $opts}: nine tables" "$(grep -c '^[a-z_]*:$' out)" 9
	"$CONTEST" report -d wide --format markdown $opts >md 2>err
	ok_eq "markdown${opts:+ $opts}: exits 0" "$?" 0
	grep '^|' md >md-tables
	ok "markdown${opts:+ $opts}: every table line within 72 columns ($(widest md-tables))" \
		test "$(widest md-tables)" -le 72
	ok "markdown${opts:+ $opts}: the header's lines too" sh -c \
		"sed -n '1,/^\*\*/p' md | grep -q '.\{73\}'; test \$? = 1"
done
"$CONTEST" report -d wide --stats >out 2>err
sed -n '/^process_load:$/,/^$/p' out >pl
ok_eq "--stats: the spread's columns in a table under the 2002 one, with a header" \
	"$(grep -c '^Kernel ' pl):$(tail -n 5 pl | grep -c '^Kernel .* Change  *Min  *Max$')" "2:1"
ok_eq "--stats: every row in both" "$(grep -c '^6\.12\.0-' pl)" 6
ok "--stats: the baseline first in both, marked" sh -c '
	test "$(grep -A1 "^Kernel " pl | grep -c "^6\.12\.0-eevdf-tuned-a (base) ")" = 2'
ok "--stats: a starred Change keeps its star" grep -q '^6\.12\.0-eevdf-tuned-b .*%\*' pl
"$CONTEST" report -d wide --stats --wide >out 2>err
ok_eq "--stats --wide: exits 0" "$?" 0
sed -n '/^process_load:$/,/^$/p' out >pl
ok_eq "--stats --wide: one table" "$(grep -c '^Kernel ' pl)" 1
ok "--stats --wide: as wide as its columns ($(widest pl))" test "$(widest pl)" -gt 72
"$CONTEST" report -d wide --columns >out 2>err
grep -v '^\* differs from ' out >but-legend
ok "--columns: within 72 columns too ($(widest but-legend))" test "$(widest but-legend)" -le 72

# ---- --delays and --latency within 72 columns -------------------------------------
# (delays.c, latency.c: their width checks go here, on records with the
# delays' and the probe's figures)

done_testing
