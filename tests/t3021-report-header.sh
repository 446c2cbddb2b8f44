#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The report names its kernels and the sizes its Loads count, for a mail:
# report --header gives a line per label, "LABEL: RELEASE VERSION" (the
# words of each kernel command line where the labels' differ), --quick
# where the suites ran with it (said by the record, or by the command line
# of a record written before it was), and what one unit of each load's
# Loads is with the sizes it used; every line in 72 columns, a long version
# string wrapped under its value.  Under the tables of every report, labels
# measured in one boot of one kernel (boot_id; for older records without
# it, one build and command line) and alike in all else are named: a
# forgotten reboot.  A comparison's configurations, another boot, another
# setting are not.  The records are written here (tests/data/records.py).
. "$TOP_SRCDIR/tests/lib.sh"

command -v python3 >/dev/null 2>&1 || skip_all "python3 is not installed: no records to write"

# mk.py DIR LABEL RELEASE VERSION BOOT [KEY=VALUE...]: one session of LABEL
# (BOOT its boot_id, - for none), two rounds of noload, process_load,
# io_load and mem_load with the sizes a --quick suite gives them; the KEYs
# in its environment record too
cat >mk.py <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.environ["TOP_SRCDIR"], "tests", "data"))
from records import line
d, label, rel, ver, boot = sys.argv[1:6]
extra = [tuple(a.split("=", 1)) for a in sys.argv[6:]]
os.makedirs(d, exist_ok=True)
sess = "s-" + label
env = [("label", label), ("session", sess), ("contest", "0.1.0"), ("kernel", rel),
       ("kernel_version", ver), ("hostname", "alpha"),
       ("cpu_model", "AMD EPYC 7763 64-Core Processor"), ("ncpus", "2"),
       ("mem_total", 8 << 30), ("swap", "none"), ("work_fs", "ext4"),
       ("work_dev", "nvme0n1"), ("io_scheduler", "none"), ("flush", "drop_caches")]
if boot != "-":
    env.append(("boot_id", boot))
out = ["# contest results, format 1: one record a line\n", line("env", env + extra)]
sizes = {"process_load": [("load.procs", 8), ("load.chunks", 2), ("load.chunk_size", 8192)],
         "io_load": [("load.file_size", 64 << 20)],
         "mem_load": [("load.mem_size", 256 << 20), ("load.swap", "no")]}
for rnd in (1, 2):
    for typ, secs in (("noload", 100 + rnd), ("process_load", 120 + rnd),
                      ("io_load", 150 + rnd), ("mem_load", 130 + rnd)):
        out.append(line("run", [("label", label), ("session", sess), ("type", typ),
                                ("round", rnd), ("workload", "builtin scale=24 jobs=8"),
                                ("flush", "drop_caches"), ("valid", 1),
                                ("elapsed_ns", secs * 10**9), ("user_ns", secs * 9 * 10**8),
                                ("sys_ns", 0), ("load_work", "0" if typ == "noload" else "20"),
                                ("load_cpu_ns", secs * 4 * 10**8)] + sizes.get(typ, [])))
with open(os.path.join(d, label + ".results"), "w") as f:
    f.writelines(out)
PY
v1="#1 SMP PREEMPT_DYNAMIC Tue Mar  5 10:00:00 UTC 2024"
v2="#2 SMP PREEMPT_DYNAMIC Debian 6.2.0~rc3-1~exp1 (2023-01-10) built by someone@build-host.example.org Wed Mar  6 11:00:00 UTC 2024"
common="BOOT_IMAGE=/vmlinuz root=UUID=0b7c-41d2 ro quiet splash loglevel=3 nowatchdog"

# ---- two kernels, --quick: the new record says quick=1, the older its argv -------
python3 mk.py r 6.1 6.1.0 "$v1" 1111 "cmdline=$common mitigations=off" quick=1 \
	"argv=contest --quick -l 6.1" &&
python3 mk.py r 6.2-rc3-long 6.2.0-rc3-00042-g1234567890ab "$v2" 2222 \
	"cmdline=$common preempt=full" "argv=contest --quick -l 6.2-rc3-long" || exit 99
"$CONTEST" report -d r --header >out 2>err
ok_eq "report --header exits 0" "$?" 0
ok "nothing on stderr" test ! -s err
sed '/^$/q' out >header
ok "a line per label: LABEL: RELEASE VERSION" \
	grep -qxF "6.1: 6.1.0 #1 SMP PREEMPT_DYNAMIC Tue Mar 5 10:00:00 UTC 2024" header
ok_eq "a long version string wrapped under its value, every word kept" \
	"$(sed -n '/^6\.2-rc3-long: /,/^[^ ]/p' header | sed '$d' | grep -v '^  cmdline: ' | tr -s ' \n' '  ')" \
	"6.2-rc3-long: 6.2.0-rc3-00042-g1234567890ab $(echo "$v2" | tr -s ' ') "
ok "its further lines under the value's first" sh -c \
	"grep -A1 '^6\.2-rc3-long: ' header | sed -n 2p | grep -q '^              [^ ]'"
ok "the command lines differ: each label's own words under its kernel" sh -c \
	"grep -A1 '^6\.1: ' header | grep -qx '  cmdline: the common words and mitigations=off' &&
	 grep -qx '  cmdline: the common words and preempt=full' header"
ok "--quick, from a record's quick=1 and an older record's argv" \
	grep -qx "Suite: --quick (a smoke run: the workload and the loads made small)" header
ok_eq "what one unit of each load is, with its sizes" "$(sed -n '/^Loads, one unit of each:$/,/^[^ ]/p' header | sed '$d')" \
"Loads, one unit of each:
  process_load  10,000 chunk hops (procs 8, chunks 2,
                chunk_size 8.0 KiB)
  io_load       one complete file (file_size 64.0 MiB)
  mem_load      one complete pass (mem_size 256.0 MiB, swap no)"
ok "every line of the header fits a mail's 72 columns" sh -c "! grep -q '.\{73\}' header"
ok "two kernels: no line of one boot" sh -c "! grep -q 'one boot\|one kernel build' out"
echo "# the header, as a mail shows it:"
sed 's/^/#   /' header

"$CONTEST" report -d r --format markdown >md 2>err
ok "markdown: a label's kernel, a list item on one line" grep -qxF -- \
	"- 6.2-rc3-long: 6.2.0-rc3-00042-g1234567890ab $(echo "$v2" | tr -s ' ' | sed 's/_/\\_/g')" md
"$CONTEST" report -d r --format csv >csv 2>err
ok "csv: the boot and --quick in columns of their own" sh -c \
	"head -n 1 csv | tr , '\n' | grep -qx env_boot_id && head -n 1 csv | tr , '\n' | grep -qx env_quick"

# ---- --quick in one label only ------------------------------------------------------
python3 mk.py q full 6.1.0 "$v1" 1111 "argv=contest -l full" &&
python3 mk.py q quick 6.1.0 "$v1" 3333 quick=1 || exit 99
"$CONTEST" report -d q --header >out 2>err
ok "--quick in one label: named" grep -qx "Suite: --quick in quick only" out

# ---- one kernel, one boot: a forgotten reboot --------------------------------------
python3 mk.py b before 6.8.0 "$v1" cafe &&
python3 mk.py b after 6.8.0 "$v1" cafe &&
python3 mk.py b rebooted 6.8.0 "$v1" beef &&
python3 mk.py b tuned 6.8.0 "$v1" cafe autogroup=0 &&
python3 mk.py b cmp-a 6.8.0 "$v1" cafe compare=c1 "config_setup=(none)" &&
python3 mk.py b cmp-b 6.8.0 "$v1" cafe compare=c1 "config_setup=(none)" || exit 99
"$CONTEST" report -d b >out 2>err
ok_eq "report exits 0" "$?" 0
sed -n '/ were measured in one boot /,/forgotten$/p' out >boot
ok_eq "the default report names the labels measured in one boot of one kernel" \
	"$(tr '\n' ' ' <boot | tr -s ' ')" \
	"after and before were measured in one boot of one kernel, 6.8.0 $(echo "$v1" | tr -s ' '): if they were meant to be different kernels, a reboot was forgotten "
ok "that line fits 72 columns" sh -c "test -s boot && ! grep -q '.\{73\}' boot"
ok "not another boot of the kernel, a setting changed, nor a comparison" \
	sh -c "! grep -q 'rebooted\|tuned\|cmp-' boot"
"$CONTEST" report -d b rebooted before >out 2>err
ok "two boots of one kernel: nothing said" sh -c "! grep -q 'one boot' out"

# ---- records without a boot: one build and command line ----------------------------
python3 mk.py o old1 6.8.0 "$v1" - &&
python3 mk.py o old2 6.8.0 "$v1" - &&
python3 mk.py o old3 6.8.0 "$v1" - "cmdline=$common mitigations=off" || exit 99
"$CONTEST" report -d o >out 2>err
ok_eq "records without boot_id still read: exits 0, nothing on stderr" "$?:$(cat err)" "0:"
ok "one kernel build and command line, no boot recorded: named as such" sh -c \
	"tr '\n' ' ' <out | tr -s ' ' | grep -q 'old1 and old2 were measured on one kernel build with one command line, 6\.8\.0 .*(no boot recorded): if they'"
sed -n '/ were measured on one kernel build /,/forgotten$/p' out >build
ok "another command line: another boot, not named" sh -c "test -s build && ! grep -q old3 build"

done_testing
